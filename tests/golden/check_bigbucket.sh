#!/usr/bin/env bash
# check_bigbucket.sh CRUSHFS - a bucket of 100,000 items (bigbucket/, made
# by gen_bigbucket.sh): `crush test` maps as crushtool did, `crush compile`
# writes crushtool's binary, `crush decompile` of it prints the map again.
set -uo pipefail
crushfs=$1
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
for alg in straw2 straw list uniform; do
	./make_bigbucket.sh 100000 "$alg" >"$tmp/m.txt"
	if ! "$crushfs" crush test -i "$tmp/m.txt" --num-rep 3 --min-x 0 \
		--max-x 99 --show-mappings >"$tmp/out" 2>&1 ||
		! cmp -s "$tmp/out" "bigbucket/$alg.mappings"; then
		echo "FAIL $alg: mappings"
		diff "bigbucket/$alg.mappings" "$tmp/out" | head -5
		fail=1
		continue
	fi
	"$crushfs" crush compile "$tmp/m.txt" -o "$tmp/m.bin" 2>"$tmp/err" ||
		{ echo "FAIL $alg: compile: $(cat "$tmp/err")"; fail=1; continue; }
	if [ "$(sha256sum <"$tmp/m.bin" | cut -d' ' -f1)" != "$(cat "bigbucket/$alg.bin.sha256")" ]; then
		echo "FAIL $alg: binary differs from crushtool -c's"
		fail=1
		continue
	fi
	"$crushfs" crush test -i "$tmp/m.bin" --num-rep 3 --min-x 0 \
		--max-x 99 --show-mappings >"$tmp/out2" 2>&1
	cmp -s "$tmp/out2" "bigbucket/$alg.mappings" ||
		{ echo "FAIL $alg: mappings from the binary"; fail=1; continue; }
	echo "ok   $alg: 100000 items, 100 mappings, binary"
done
echo "bigbucket: $([[ $fail == 0 ]] && echo all passed || echo FAILED)"
exit $fail
