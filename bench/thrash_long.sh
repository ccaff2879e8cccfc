#!/usr/bin/env bash
# thrash_long.sh - a long run of the thrasher (tests/thrash/thrash.py): the
# writers, the thrasher and the invariants of thrash_short, for DURATION
# seconds per seed, then the figures: operations (and per second), map
# changes, kill -9, damage injected, expected ENOSPC, ops that blocked,
# violations by kind, and the replay command of every failing seed.
#
#   bench/thrash_long.sh DURATION [SEED...]     (default: one random seed)
#
# Environment: CRUSHFS (binary, default build/crushfs), THRASH_ARGS (more
# options for thrash.py, e.g. "--no-down --writers 4"), THRASH_LOG (where
# the full output goes, default /var/tmp/crushfs-thrash-long.log).  The
# work dirs of failing seeds are kept in /tmp (the path is printed).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
CRUSHFS=${CRUSHFS:-$top/build/crushfs}
LOG=${THRASH_LOG:-/var/tmp/crushfs-thrash-long.log}
[ $# -ge 1 ] || { echo "usage: $0 DURATION [SEED...]" >&2; exit 2; }
dur=$1
shift
[ -x "$CRUSHFS" ] || { echo "no crushfs binary at $CRUSHFS (run scripts/build.sh)" >&2; exit 2; }
[ -c /dev/fuse ] || { echo "no /dev/fuse" >&2; exit 2; }
seeds=()
for s in "$@"; do seeds+=(--seed "$s"); done

start=$(date +%s)
set +e
# shellcheck disable=SC2086
python3 "$top/tests/thrash/thrash.py" --crushfs "$CRUSHFS" --duration "$dur" \
	"${seeds[@]}" ${THRASH_ARGS:-} 2>&1 | tee "$LOG"
rc=${PIPESTATUS[0]}
set -e
el=$(($(date +%s) - start))

echo
echo "== thrash_long: $dur s per seed, $el s in all (full output: $LOG)"
python3 - "$LOG" "$el" <<'PYEOF'
import re, sys
log, el = open(sys.argv[1]).read(), int(sys.argv[2])
m = re.search(r"SUMMARY (\d+) seed\(s\) (\[.*?\]): (\d+) operations, (\d+) map changes, "
              r"(\d+) crashes \(kill -9\), (\d+) damage injected, (\d+) violation", log)
if not m:
    print("no summary line: the run did not finish (see the log)")
    sys.exit(0)
n, seeds, ops, maps, kills, dmg, viol = m.groups()
print(f"seeds           {seeds}")
print(f"operations      {ops} ({int(ops) / max(el, 1):.0f}/s over the whole run)")
print(f"map changes     {maps}")
print(f"kill -9         {kills}")
print(f"damage injected {dmg}")
enospc = sum(int(x) for x in re.findall(r"(\d+) expected ENOSPC", log))
blocked = sum(int(x) for x in re.findall(r"(\d+) op\(s\) blocked more than", log))
print(f"expected ENOSPC {enospc}")
print(f"blocked ops     {blocked}")
print(f"violations      {viol}")
for line in re.findall(r"^\s+\d+x [\w-]+: e\.g\. .*$", log, re.M):
    print("   " + line.strip()[:200])
for line in re.findall(r"^thrash: replay seed .*$", log, re.M):
    print(line)
PYEOF
exit "$rc"
