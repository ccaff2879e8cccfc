#!/usr/bin/env bash
# gen_reweight.sh - for each case of reweight/cases.txt, what
# `crushtool -i MAP.bin --reweight-item osd.N W` (Ceph 16.2.15) leaves,
# decompiled: reweight/MAP-N-W.txt.  Needs crushtool (ceph-base).
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rm -f reweight/*-*-*.txt
while read -r m o w; do
	[[ -z $m || $m == \#* ]] && continue
	crushtool -c "maps/$m.txt" -o "$tmp/m.bin"
	crushtool -i "$tmp/m.bin" --reweight-item "osd.$o" "$w" -o "$tmp/r.bin" >/dev/null
	crushtool -d "$tmp/r.bin" -o "reweight/$m-$o-$w.txt"
done < reweight/cases.txt
echo "gen_reweight.sh: $(ls reweight/*-*-*.txt | wc -l) maps"
