#!/usr/bin/env bash
# check_pools.sh CRUSHFS - pools beside the data pool (pools/, made by
# gen_pools.sh): on a cluster made from each map, `osd pool create` gives
# each case's pool its id, and every PG's up set (all OSDs up and in) is
# what crushtool mapped for it; then with one OSD down, a replicated
# pool's sets close up over it and an erasure pool keeps its position as
# CRUSH_ITEM_NONE (OSDMap::_raw_to_up_osds).
set -uo pipefail
crushfs=$1
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0 pgs=0
ups() { # pool -> "ps [osds]" lines
	"$crushfs" --cluster "$tmp/cl" -f json pg ls-by-pool "$1" |
		python3 -c '
import json, sys
for p in json.load(sys.stdin)["pg_stats"]:
    print(int(p["pgid"].split(".")[1], 16), "[" + ",".join(map(str, p["up"])) + "]")'
}
down_of() { # expected lines with OSD $2 down, pool type $1
	python3 -c '
import sys
kind, osd = sys.argv[1], sys.argv[2]
for line in sys.stdin:
    ps, s = line.split(" ", 1)
    v = s.strip()[1:-1].split(",") if s.strip() != "[]" else []
    v = [("2147483647" if x == osd else x) for x in v] if kind == "erasure" else [x for x in v if x != osd]
    print(ps, "[" + ",".join(v) + "]")' "$1" "$2"
}
prev=
while read -r map name pg pgp type rule size id; do
	[[ -z $map || $map == \#* ]] && continue
	n=$((n + 1))
	if [[ $map != "$prev" ]]; then
		rm -rf "$tmp/cl"
		"$crushfs" --cluster "$tmp/cl" mkfs --crush-map "maps/$map.txt" \
			--osd-size 64M >/dev/null 2>"$tmp/err" ||
			{ echo "FAIL $map: mkfs: $(cat "$tmp/err")"; fail=1; continue; }
		prev=$map
	fi
	args=("$name" "$pg" "$pgp" "$type")
	[[ $type == erasure ]] && args+=(default)
	args+=("$rule")
	"$crushfs" --cluster "$tmp/cl" osd pool create "${args[@]}" >/dev/null 2>"$tmp/err" ||
		{ echo "FAIL $map $name: create: $(cat "$tmp/err")"; fail=1; continue; }
	got=$("$crushfs" --cluster "$tmp/cl" -f json osd pool ls detail |
		python3 -c 'import json, sys; print([(p["pool_id"], p["size"]) for p in json.load(sys.stdin) if p["pool_name"] == sys.argv[1]][0])' "$name")
	if [[ $got != "($id, $size)" ]]; then
		echo "FAIL $map $name: pool (id, size) $got, want ($id, $size)"
		fail=1
		continue
	fi
	ups "$name" >"$tmp/ours"
	if ! cmp -s "$tmp/ours" "pools/$map.$name.mappings"; then
		echo "FAIL $map $name: up sets differ from crushtool's"
		diff "pools/$map.$name.mappings" "$tmp/ours" | head -5
		fail=1
		continue
	fi
	osd=$(head -1 "pools/$map.$name.mappings" | sed 's/.*\[\([0-9]*\).*/\1/')
	"$crushfs" --cluster "$tmp/cl" osd down "$osd" >/dev/null
	ups "$name" >"$tmp/ours"
	down_of "$type" "$osd" <"pools/$map.$name.mappings" >"$tmp/want"
	"$crushfs" --cluster "$tmp/cl" osd up "$osd" >/dev/null
	if ! cmp -s "$tmp/ours" "$tmp/want"; then
		echo "FAIL $map $name: with osd.$osd down"
		diff "$tmp/want" "$tmp/ours" | head -5
		fail=1
		continue
	fi
	pgs=$((pgs + pg))
	echo "ok   $map $name: $type, $pg pgs as crushtool maps them; osd.$osd down"
done < pools/cases.txt
echo "pools: $n cases, $pgs pgs, $([[ $fail == 0 ]] && echo all passed || echo FAILED)"
exit $fail
