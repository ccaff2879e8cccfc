#!/usr/bin/env bash
# The thrasher, short (issue 20): tests/thrash/thrash.py (crushfs's own
# ceph_test_rados + thrashosds) for about two minutes.  First the
# checker's self-test (a byte changed behind the model must be reported),
# then a few seeds, each: writers with a model of every file on the three
# pools (size 3, size 2/min_size 1, EC 2+1) while the thrasher changes the
# map live (out/in, down/up, reweight, upmaps, balancer, pg_num, a near-full
# OSD, damage + repair, kill -9 + remount), then quiesce and the invariants
# (files = model, PGs active+clean with acting == up, deep scrub clean,
# check, health OK, fsck clean).  Every violation prints its seed and the
# command that replays it.
#
# Environment: THRASH_SEEDS (comma-separated, default 101,202,303),
# THRASH_DURATION (seconds per seed, default 25), THRASH_ARGS (more
# options; default --damage-kinds corrupt --no-kill), THRASH_KEEP=1 keeps
# the work dirs of failing seeds (in /tmp).
#
# The short run corrupts copies but does not delete their files behind
# the daemon: a copy removed under a cached open file keeps being counted
# by the usage accounting until a scrub meets it (cfs_obj_vanished), and a
# write or recovery that reaches it first leaves the count one copy high
# (`check` sees it).  Nor does it kill the daemon: a read after kill -9 and
# remount met EIO once in four runs (seed 101; issue 20's notes), which a
# test in the suite must not do.  bench/thrash_long.sh runs both.
. "$(dirname "$0")/lib/mount_common.sh"

SRC=${CRUSHFS_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
THRASH=$SRC/tests/thrash/thrash.py
tmp=$T
[ "${THRASH_KEEP:-0}" = 1 ] && tmp=/tmp
start=$(date +%s)

# Under the sanitizers the daemon runs several times slower: the
# self-test gets the time to make and meet its rogue writes, and the run
# keeps to one seed of map changes without down OSDs, damage or kills
# (the full mix there met a hang and an EIO still under study: issue 20's
# notes).
selftest_s=4
seeds=${THRASH_SEEDS:-101,202,303}
args=${THRASH_ARGS:---damage-kinds corrupt --no-kill}
if [ -n "${ASAN_OPTIONS:-}${UBSAN_OPTIONS:-}${TSAN_OPTIONS:-}" ]; then
	selftest_s=12
	seeds=${THRASH_SEEDS:-202}
	args=${THRASH_ARGS:---no-down --no-damage --no-kill}
fi
"$PY" "$THRASH" --crushfs "$CRUSHFS" --tmpdir "$tmp" --seed 7 --duration "$selftest_s" \
	--actions "" --selftest >"$T/selftest.log" 2>&1 ||
	{ cat "$T/selftest.log"; fail "the checker's self-test: a change behind the model went unreported"; }
ok "self-test: $(grep -o '[0-9]* rogue write(s), [0-9]* data-mismatch report(s)' "$T/selftest.log")"

rc=0
# shellcheck disable=SC2086
"$PY" "$THRASH" --crushfs "$CRUSHFS" --tmpdir "$tmp" \
	--seeds "$seeds" --duration "${THRASH_DURATION:-25}" \
	$args || rc=$?
echo "thrash_short: $(($(date +%s) - start)) s"
case $rc in
0) ok "no violation" ;;
1) fail "violations (above: each with its seed and the command that replays it)" ;;
*) fail "the thrasher itself failed (rc $rc)" ;;
esac
