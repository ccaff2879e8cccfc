#!/usr/bin/env bash
# check_additem.sh CRUSHFS - `osd add` against crushtool's --add-item
# (additem/, made by gen_additem.sh): a cluster made from each map, with
# an OSD of 1 GiB added under a host, must hold the crush map crushtool
# leaves, byte for byte as crushtool -d prints it (choose_args included).
set -uo pipefail
crushfs=$1
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 fail=0
while read -r m h; do
	[[ -z $m || $m == \#* ]] && continue
	n=$((n + 1))
	rm -rf "$tmp/cl"
	"$crushfs" --cluster "$tmp/cl" mkfs --crush-map "maps/$m.txt" --osd-size 64M >/dev/null 2>"$tmp/err" &&
		"$crushfs" --cluster "$tmp/cl" osd add --host "$h" --size 1G >/dev/null 2>>"$tmp/err" ||
		{ echo "FAIL $m $h: $(cat "$tmp/err")"; fail=1; continue; }
	if cmp -s "$tmp/cl/crushmap.txt" "additem/$m-$h.txt"; then
		echo "ok   $m + osd on $h"
	else
		echo "FAIL $m + osd on $h:"
		diff "additem/$m-$h.txt" "$tmp/cl/crushmap.txt" | head -10
		fail=1
	fi
done < additem/cases.txt
echo "additem: $n cases, $([[ $fail == 0 ]] && echo all passed || echo FAILED)"
exit $fail
