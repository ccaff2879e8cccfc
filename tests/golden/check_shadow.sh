#!/usr/bin/env bash
# check_shadow.sh CRUSHFS - device-class maps whose shadow copies are
# straw (v1), tree, list and uniform buckets (shadow/, gen_shadow.sh):
#  - `crushfs crush compile NAME.txt` is crushtool -c's binary byte for
#    byte, except the bytes Ceph leaves undefined (shadow/NAME.undef: node
#    0 of tree copies, which crush_add_tree_bucket_item never sets and no
#    walk reads; gen_shadow.sh allows no other), where crushfs writes 0;
#  - `crushfs crush decompile` of crushtool's binary prints crushtool -d's;
#  - `crushfs crush test` maps as crushtool --test did (shadow/vectors.tsv:
#    lines and sha256), from the text (compiled by crushfs) and from
#    crushtool's binary.
# Needs bash, coreutils and cmp.
set -uo pipefail
crushfs=${1:?usage: check_shadow.sh CRUSHFS}
cd "$(dirname "$0")" || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
checks=0 bad=0 maps=0 mappings=0

fail() {
	echo "FAIL $*"
	bad=$((bad + 1))
}

for txt in shadow/*.txt; do
	name=$(basename "$txt" .txt)
	maps=$((maps + 1))
	checks=$((checks + 2))
	if ! "$crushfs" crush compile "$txt" -o "$tmp/c.bin" 2>"$tmp/err"; then
		fail "$name compile: $(cat "$tmp/err")"
	else
		cmp -l "$tmp/c.bin" "shadow/$name.bin" >"$tmp/diff" 2>"$tmp/cmperr"
		if [ -s "$tmp/cmperr" ]; then
			fail "$name compile: $(cat "$tmp/cmperr") (sizes $(wc -c <"$tmp/c.bin") and $(wc -c <"shadow/$name.bin"))"
		else
			# cmp -l: 1-based offset, then the two bytes in octal
			while read -r off ours theirs; do
				if ! grep -qx "$off" "shadow/$name.undef"; then
					fail "$name compile: byte $off is $ours (octal), crushtool -c wrote $theirs"
					break
				elif [ "$ours" != 0 ]; then
					fail "$name compile: byte $off (undefined in Ceph) is $ours, not 0"
					break
				fi
			done <"$tmp/diff"
		fi
	fi
	if ! "$crushfs" crush decompile "shadow/$name.bin" >"$tmp/d.txt" 2>"$tmp/err"; then
		fail "$name decompile: $(cat "$tmp/err")"
	elif ! cmp -s "$tmp/d.txt" "shadow/$name.decompiled"; then
		fail "$name decompile: differs from crushtool -d"
		diff "$tmp/d.txt" "shadow/$name.decompiled" | head -5
	fi
done

while IFS=$'\t' read -r name rule nrep max inputs lines sha; do
	[[ $name == \#* || -z $name ]] && continue
	for in in $inputs; do
		checks=$((checks + 1))
		mappings=$((mappings + max + 1))
		args=(-i "shadow/$name.$in" --rule "$rule" --num-rep "$nrep"
		      --min-x 0 --max-x "$max" --show-mappings)
		"$crushfs" crush test "${args[@]}" >"$tmp/out" 2>"$tmp/err"
		got=$(sha256sum <"$tmp/out" | cut -d' ' -f1)
		if [ "$got" != "$sha" ]; then
			fail "$name rule $rule num_rep $nrep from the $in: $(wc -l <"$tmp/out") lines (crushtool: $lines), sha256 differs; $(head -c 200 "$tmp/err")"
			echo "  repeat: $crushfs crush test ${args[*]}  (in tests/golden)"
		fi
	done
done <shadow/vectors.tsv

echo "shadow: $maps maps, $mappings mappings, $checks checks, $((checks - bad)) passed, $bad failed"
[ "$bad" = 0 ] && [ "$maps" -gt 0 ]
