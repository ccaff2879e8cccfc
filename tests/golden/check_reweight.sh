#!/usr/bin/env bash
# check_reweight.sh CRUSHFS - `osd crush reweight` against crushtool's
# --reweight-item (reweight/, made by gen_reweight.sh): a cluster made from
# each map, reweighted, must hold the crush map crushtool leaves, byte for
# byte as crushtool -d prints it (choose_args weight sets included).
set -uo pipefail
crushfs=$1
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 fail=0
while read -r m o w; do
	[[ -z $m || $m == \#* ]] && continue
	n=$((n + 1))
	rm -rf "$tmp/cl"
	"$crushfs" --cluster "$tmp/cl" mkfs --crush-map "maps/$m.txt" --osd-size 64M >/dev/null 2>"$tmp/err" &&
		"$crushfs" --cluster "$tmp/cl" osd crush reweight "osd.$o" "$w" >/dev/null 2>>"$tmp/err" ||
		{ echo "FAIL $m osd.$o $w: $(cat "$tmp/err")"; fail=1; continue; }
	if cmp -s "$tmp/cl/crushmap.txt" "reweight/$m-$o-$w.txt"; then
		echo "ok   $m osd.$o -> $w"
	else
		echo "FAIL $m osd.$o -> $w:"
		diff "reweight/$m-$o-$w.txt" "$tmp/cl/crushmap.txt" | head -10
		fail=1
	fi
done < reweight/cases.txt
echo "reweight: $n cases, $([[ $fail == 0 ]] && echo all passed || echo FAILED)"
exit $fail
