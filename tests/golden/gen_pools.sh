#!/usr/bin/env bash
# gen_pools.sh - for each case of pools/cases.txt, what Ceph 16.2's
# crushtool maps for every PG of the pool: x = stable_mod(ps, pgp_num) put
# through `crushtool --test --rule R --num-rep SIZE --pool-id ID` (which
# hashes x with the pool id as OSDMap's HASHPSPOOL placement seed does).
# OSDMap maps a pool with its own choose_args set (id = pool id) when the
# map has one; crushtool --test takes set 0, so such a set is renamed 0 in
# the copy given to crushtool.  Writes pools/MAP.NAME.mappings, "ps
# [osds]" per PG.  Needs crushtool (ceph-base) and python3.
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rm -f pools/*.mappings
while read -r map name pg pgp type rule size id; do
	[[ -z $map || $map == \#* ]] && continue
	python3 - "maps/$map.txt" "$id" >"$tmp/m.txt" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
pid = sys.argv[2]
if re.search(r"^choose_args %s \{" % pid, text, re.M):
    # drop a set 0, then call the pool's set 0
    text = re.sub(r"^choose_args 0 \{.*?^\}\n", "", text, flags=re.M | re.S)
    text = re.sub(r"^choose_args %s \{" % pid, "choose_args 0 {", text, flags=re.M)
sys.stdout.write(text)
PY
	rid=$(awk -v r="$rule" '$1 == "rule" && $2 == r {f = 1} f && $1 == "id" {print $2; exit}' "$tmp/m.txt")
	crushtool -c "$tmp/m.txt" -o "$tmp/m.bin"
	crushtool -i "$tmp/m.bin" --test --rule "$rid" --num-rep "$size" \
		--min-x 0 --max-x $((pgp - 1)) --pool-id "$id" --show-mappings \
		>"$tmp/out"
	python3 - "$tmp/out" "$pg" "$pgp" >"pools/$map.$name.mappings" <<'PY'
import re, sys
maps = {}
for line in open(sys.argv[1]):
    m = re.match(r"CRUSH rule \d+ x (\d+) (\[.*\])", line)
    if m:
        maps[int(m.group(1))] = m.group(2)
pg, pgp = int(sys.argv[2]), int(sys.argv[3])
mask = (1 << (pgp - 1).bit_length()) - 1
for ps in range(pg):
    x = ps & mask if (ps & mask) < pgp else ps & (mask >> 1)
    print(ps, maps[x])
PY
done < pools/cases.txt
echo "gen_pools.sh: $(ls pools/*.mappings | wc -l) pools"
