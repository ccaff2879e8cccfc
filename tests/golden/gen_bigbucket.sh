#!/usr/bin/env bash
# gen_bigbucket.sh - buckets past 65,535 items (Ceph keeps the size in a
# u32): for each algorithm, crushtool's mappings of x 0..99 at 3 replicas
# on make_bigbucket.sh's 100,000-item map, and the sha256 of the binary
# `crushtool -c` writes for it.  Needs crushtool (ceph-base).
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for alg in straw2 straw list uniform; do
	./make_bigbucket.sh 100000 "$alg" >"$tmp/m.txt"
	crushtool -c "$tmp/m.txt" -o "$tmp/m.bin"
	crushtool -i "$tmp/m.bin" --test --num-rep 3 --min-x 0 --max-x 99 \
		--show-mappings >"bigbucket/$alg.mappings"
	sha256sum <"$tmp/m.bin" | cut -d' ' -f1 >"bigbucket/$alg.bin.sha256"
done
echo "gen_bigbucket.sh: $(ls bigbucket/*.mappings | wc -l) algorithms"
