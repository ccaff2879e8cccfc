#!/usr/bin/env bash
# gen_additem.sh - for each case of additem/cases.txt, what `crushtool -i
# MAP.bin --add-item ID 0.0009765625 osd.ID --loc host HOST --loc root
# ROOT` (Ceph 16.2.15) leaves, decompiled: additem/MAP-HOST.txt.  ID is
# the lowest id no device has (what `osd add` picks), ROOT the map's
# first root.  Needs crushtool (ceph-base).
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rm -f additem/*-*.txt
while read -r m h; do
	[[ -z $m || $m == \#* ]] && continue
	id=$(python3 -c '
import re, sys
ids = {int(x) for x in re.findall(r"^device (\d+) ", open(sys.argv[1]).read(), re.M)}
print(next(i for i in range(len(ids) + 1) if i not in ids))' "maps/$m.txt")
	root=$(awk '$1 == "root" && $3 == "{" {print $2; exit}' "maps/$m.txt")
	crushtool -c "maps/$m.txt" -o "$tmp/m.bin"
	# crushtool may crash freeing the map after writing it: the file
	# counts when it was written
	rm -f "$tmp/r.bin"
	crushtool -i "$tmp/m.bin" --add-item "$id" 0.0009765625 "osd.$id" \
		--loc host "$h" --loc root "$root" -o "$tmp/r.bin" >/dev/null 2>&1 || true
	[ -s "$tmp/r.bin" ] || { echo "crushtool wrote nothing for $m $h" >&2; exit 1; }
	crushtool -d "$tmp/r.bin" -o "additem/$m-$h.txt"
done < additem/cases.txt
echo "gen_additem.sh: $(ls additem/*-*.txt | wc -l) maps"
