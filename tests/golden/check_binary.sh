#!/usr/bin/env bash
# check_binary.sh CRUSHFS - the binary codec against crushtool 16.2.15's
# files (gen_binary.sh): `crushfs crush compile` of every golden map is
# byte-identical to crushtool -c's, and `crushfs crush decompile` of
# crushtool's binary prints what crushtool -d printed (decompiled/).
# Needs bash and coreutils only.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
crushfs=${1:?usage: check_binary.sh CRUSHFS}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 bad=0
for bin in "$here"/binary/*.bin; do
	name=$(basename "$bin" .bin)
	n=$((n + 1))
	if ! "$crushfs" crush compile "$here/maps/$name.txt" -o "$tmp/c.bin" 2>"$tmp/err"; then
		echo "FAIL compile $name: $(cat "$tmp/err")"
		bad=$((bad + 1))
	elif ! cmp -s "$tmp/c.bin" "$bin"; then
		echo "FAIL compile $name: differs from crushtool -c ($(cmp "$tmp/c.bin" "$bin" 2>&1 | head -1))"
		bad=$((bad + 1))
	fi
	if ! "$crushfs" crush decompile "$bin" >"$tmp/d.txt" 2>"$tmp/err"; then
		echo "FAIL decompile $name: $(cat "$tmp/err")"
		bad=$((bad + 1))
	elif ! cmp -s "$tmp/d.txt" "$here/decompiled/$name.txt"; then
		echo "FAIL decompile $name: differs from crushtool -d"
		diff "$tmp/d.txt" "$here/decompiled/$name.txt" | head -5
		bad=$((bad + 1))
	fi
done
echo "binary: $n maps, $((2 * n)) checks, $((2 * n - bad)) passed, $bad failed"
[ "$bad" = 0 ] && [ "$n" -gt 0 ]
