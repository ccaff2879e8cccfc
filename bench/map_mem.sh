#!/usr/bin/env bash
# Peak RSS and wall time of loading a big crush map text with
# `crushfs crush compile` (parse, build, finalize, encode), against the
# text's size (issue 23: peak RSS <= 10x the text, time linear).  The maps
# come from bench/make_bigmap.sh: HOSTS host buckets of 4 OSDs, 40 hosts a
# rack, one root, as `crushtool -d` prints them.  Each size is measured
# ROUNDS times, alternating the binaries given, and the median and range
# printed; the peak RSS includes the binary's own (its libraries: about
# 26 MB), shown apart as the RSS of loading a 3-host map.
#
# usage: bench/map_mem.sh [CRUSHFS_BIN [OTHER_BIN ...]]
#   MAP_HOSTS="20000 40000 80000"  the sizes
#   ROUNDS=3                        rounds per size and binary
#   MAP_OSDS=4                      OSDs per host (1 gives the densest text
#                                   in buckets: the highest ratio)
#   MAP_CLASSES=1                   device classes and shadow trees
#   CRUSHTOOL=1                     also `crushtool -c`, once per size
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
bins=("$@")
[ ${#bins[@]} -eq 0 ] && bins=("$top/build/crushfs")
hosts=${MAP_HOSTS:-20000 40000 80000}
rounds=${ROUNDS:-3}
per=${MAP_OSDS:-4}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# one run: "seconds kilobytes" of the whole process
measure() {
	/usr/bin/time -f "%e %M" -o "$tmp/t" "$@" >/dev/null 2>"$tmp/err" ||
		{ cat "$tmp/err" >&2; return 1; }
	cat "$tmp/t"
}
# median and range of a column of numbers
stats() { sort -n | awk '{a[NR]=$1} END {printf "%s [%s-%s]", a[int((NR+1)/2)], a[1], a[NR]}'; }

"$top/bench/make_bigmap.sh" 3 "$per" >"$tmp/tiny.txt"
for b in "${bins[@]}"; do
	base=$(measure "$b" crush compile "$tmp/tiny.txt" -o /dev/null | cut -d' ' -f2)
	echo "baseline $b: a 3-host map peaks at $((base / 1024)) MB"
done
printf '%-8s %9s  %-28s %-30s %-24s %s\n' hosts "text MB" binary \
	"peak RSS MB med [range]" "RSS/text med [range]" "seconds med [range]"
for n in $hosts; do
	map=$tmp/m$n.txt
	"$top/bench/make_bigmap.sh" "$n" "$per" >"$map"
	size=$(stat -c %s "$map")
	rm -f "$tmp"/r.* "$tmp"/s.*
	for ((r = 0; r < rounds; r++)); do
		for i in "${!bins[@]}"; do
			read -r secs kb < <(measure "${bins[$i]}" crush compile "$map" -o "$tmp/out$i.bin")
			echo "$kb" >>"$tmp/r.$i"
			echo "$secs" >>"$tmp/s.$i"
		done
	done
	for i in "${!bins[@]}"; do
		# the same bytes from every binary, or the figures mean nothing
		cmp -s "$tmp/out0.bin" "$tmp/out$i.bin" ||
			{ echo "binary $i compiles $map differently" >&2; exit 1; }
		rss=$(awk '{printf "%.1f\n", $1 / 1024}' "$tmp/r.$i" | stats)
		ratio=$(awk -v s="$size" '{printf "%.2f\n", $1 * 1024 / s}' "$tmp/r.$i" | stats)
		secs=$(stats <"$tmp/s.$i")
		printf '%-8s %9.1f  %-28s %-30s %-24s %s\n' "$n" \
			"$(awk -v s="$size" 'BEGIN {print s / 1048576}')" \
			"$(basename "$(dirname "${bins[$i]}")")/$(basename "${bins[$i]}")" \
			"$rss" "$ratio" "$secs"
	done
	if [ -n "${CRUSHTOOL:-}" ] && command -v crushtool >/dev/null; then
		if out=$(timeout 300 /usr/bin/time -f "%e %M" crushtool -c "$map" -o "$tmp/ct.bin" 2>&1 >/dev/null); then
			read -r secs kb <<<"$(tail -1 <<<"$out")"
			cmp -s "$tmp/ct.bin" "$tmp/out0.bin" || echo "  (crushtool's binary differs!)"
			printf '%-8s %9s  %-28s %-30s %-24s %s\n' "$n" "" "crushtool -c" \
				"$((kb / 1024))" "$(awk -v k="$kb" -v s="$size" 'BEGIN {printf "%.2f", k * 1024 / s}')" "$secs"
		else
			echo "$n: crushtool -c did not finish in 300 s (skipped)"
		fi
	fi
done
