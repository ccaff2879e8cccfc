#!/usr/bin/env bash
# ec_bench.sh - which Reed-Solomon library crushfs encodes with: ISA-L
# (Ceph's isa plugin) against jerasure + gf-complete (Ceph's default
# jerasure plugin, reed_sol_van), same buffers, same run, for the k+m
# profiles users run most.  Needs root for the packages it installs.
#
#   bench/ec_bench.sh [MiB]          (default 1024 per profile)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
need=()
for p in libisal-dev libjerasure-dev libgf-complete-dev; do
	dpkg -s "$p" >/dev/null 2>&1 || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
	apt-get update -qq && apt-get install -y -qq "${need[@]}" >/dev/null
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
gcc -O2 -Wall -Wextra -I/usr/include/jerasure -o "$out/ec_bench" \
	"$top/bench/ec_bench.c" -lisal -lJerasure -lgf_complete
for km in "2 2" "4 2" "8 3"; do
	"$out/ec_bench" $km 65536 "${1:-1024}"
	echo
done
