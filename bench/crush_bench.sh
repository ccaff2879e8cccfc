#!/usr/bin/env bash
# Time one million CRUSH mappings (3 replicas, root -> rack -> host -> osd,
# 24 OSDs) with `crushfs crush test` against Ceph's `crushtool --test` on
# the same map, alternating runs, and print the ratio of whole-process
# wall times (goal: crushfs <= 0.67x crushtool).
#
# usage: bench/crush_bench.sh [CRUSHFS_BIN] [RUNS]
#   BENCH_MAP=FILE BENCH_RULE=N: another map and rule, e.g. a device-class
#   rule: BENCH_MAP=tests/golden/maps/class_real_3.txt BENCH_RULE=1
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$top/build/crushfs}
runs=${2:-5}
map=${BENCH_MAP:-$top/bench/maps/three_level_24osd.txt}

if ! command -v crushtool >/dev/null; then
	echo "crushtool not found: apt-get install -y ceph-base (the reference)" >&2
	exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
crushtool -c "$map" -o "$tmp/map.bin"

flags=(--num-rep 3 --min-x 0 --max-x 999999)
[ -n "${BENCH_RULE:-}" ] && flags+=(--rule "$BENCH_RULE")

# identical output first: a benchmark of a wrong answer is worthless
"$bin" crush test -i "$map" "${flags[@]}" --show-statistics >"$tmp/a" 2>&1
crushtool -i "$tmp/map.bin" --test "${flags[@]}" --show-statistics >"$tmp/b" 2>&1
cmp -s "$tmp/a" "$tmp/b" || { echo "outputs differ" >&2; diff "$tmp/a" "$tmp/b" | head >&2; exit 1; }

now() { date +%s%N; }
run() { # $1 label, rest: command; appends seconds to $tmp/$1
	local t0 t1
	t0=$(now)
	"${@:2}" >/dev/null 2>&1
	t1=$(now)
	echo "$(( (t1 - t0) / 1000 ))" >>"$tmp/$1"
}
median() { sort -n "$1" | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# crushfs maps on every core by default; CRUSHFS_THREADS=1 shows one core
for mode in show-statistics show-mappings; do
	rm -f "$tmp/cf" "$tmp/c1" "$tmp/ct"
	for ((i = 0; i < runs; i++)); do
		run cf "$bin" crush test -i "$map" "${flags[@]}" --$mode
		run ct crushtool -i "$tmp/map.bin" --test "${flags[@]}" --$mode
		CRUSHFS_THREADS=1 run c1 "$bin" crush test -i "$map" "${flags[@]}" --$mode
	done
	cf=$(median "$tmp/cf")
	c1=$(median "$tmp/c1")
	ct=$(median "$tmp/ct")
	awk -v a="$cf" -v s="$c1" -v b="$ct" -v m="$mode" -v n="$(nproc)" 'BEGIN {
		printf "1M mappings (--%s): crushtool %.3f s; crushfs %.3f s on %d cores = %.2fx, %.3f s on 1 core = %.2fx\n",
			m, b / 1e6, a / 1e6, n, a / b, s / 1e6, s / b }'
done
