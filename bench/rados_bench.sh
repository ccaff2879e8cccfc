#!/usr/bin/env bash
# rados_bench.sh - 1 GiB in 4 MiB objects through the object layer, with
# pool size 1 and size 3, against writing/reading the same bytes as plain
# files in one directory (the disk's limit).  Prints MiB/s and ratios; the
# goal is size 1 at >= 0.8x plain.
#
#   bench/rados_bench.sh [BUILD_DIR]     (default: build/)
#
# Two ways to drive it, each compared with the same way for plain files:
#  - one process for all objects: `crushfs rados bench write|read` against
#    a python loop over the files (this is the layer's throughput);
#  - one process per object: `crushfs rados put|get` in a shell loop
#    against `dd` per file (this adds crushfs's start-up: ~10 ms a process,
#    most of it loading librocksdb, linked in for the filesystem).
#
# Environment: BENCH_DIR (data directory, default a fresh one under /tmp;
# must be a real disk), BENCH_MB (1024), BENCH_OBJ_MB (4), BENCH_ROUNDS (5:
# the one-process runs are interleaved; medians and bests are reported,
# since a virtual disk's write speed swings by 5x from one run to the next), BENCH_LOOP=0
# to skip the per-process runs.  Writes are timed up to `sync`; before each
# read the page cache is dropped when we may (root), else reads come from
# memory (said so).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
C=$build/crushfs
[ -x "$C" ] || { echo "no crushfs at $C (build first)" >&2; exit 1; }
MB=${BENCH_MB:-1024}
OBJ=${BENCH_OBJ_MB:-4}
N=$((MB / OBJ))
LOOP=${BENCH_LOOP:-1}
B=${BENCH_DIR:-$(mktemp -d /tmp/crushfs-bench.XXXXXX)}
mkdir -p "$B"
trap 'rm -rf "$B"' EXIT
PY=python3

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { print b - a }'; }
rate() { awk -v mb="$MB" -v t="$1" 'BEGIN { printf "%7.1f", mb / t }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

drop=no
drop_caches() {
	sync
	if echo 3 >/proc/sys/vm/drop_caches 2>/dev/null; then drop=yes; fi
}

# seconds taken by `crushfs rados bench` (it reports its own time)
bench_secs() {
	"$C" --cluster "$1" -f json rados bench "$2" --total "${MB}M" \
		--object-size "${OBJ}M" --no-cleanup |
		$PY -c "import json,sys; print(json.load(sys.stdin)['seconds'])"
}

echo "crushfs rados bench: $N objects x $OBJ MiB = $MB MiB in $B ($(df -T "$B" | awk 'NR==2 { print $2 }'))"
head -c $((OBJ << 20)) /dev/urandom >"$B/src"

# ---- one process ----
plain_round() {
	mkdir "$B/plain"
	sync
	$PY - "$B" "$N" <<'PYEOF'
import os, sys, time
d, n = sys.argv[1], int(sys.argv[2])
buf = open(d + "/src", "rb").read()
t = time.monotonic()
for i in range(n):
    fd = os.open("%s/plain/obj.%d" % (d, i), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.write(fd, buf)
    os.close(fd)
os.sync()
print(time.monotonic() - t, end=" ")
PYEOF
	drop_caches
	$PY - "$B" "$N" <<'PYEOF'
import os, sys, time
d, n = sys.argv[1], int(sys.argv[2])
t = time.monotonic()
for i in range(n):
    with open("%s/plain/obj.%d" % (d, i), "rb") as f:
        f.read()
print(time.monotonic() - t)
PYEOF
	rm -rf "$B/plain"
	sync
}

rados_round() {
	local size=$1 cl=$B/cl$1 w r
	"$C" --cluster "$cl" mkfs --size "$size" --min-size 1 --osd-size 2G \
		--pg-num 128 >/dev/null
	sync
	w=$(bench_secs "$cl" write)
	drop_caches
	r=$(bench_secs "$cl" read)
	"$C" --cluster "$cl" check >/dev/null
	rm -rf "$cl"
	sync
	echo "$w $r"
}

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
best() { sort -g | head -1; }

# rounds interleaved, medians reported: a virtual disk's speed drifts
ROUNDS=${BENCH_ROUNDS:-5}
: >"$B/t.plain"
: >"$B/t.1"
: >"$B/t.3"
for k in $(seq 1 "$ROUNDS"); do
	plain_round >>"$B/t.plain"
	rados_round 1 >>"$B/t.1"
	rados_round 3 >>"$B/t.3"
done
declare -A W R
for stat in median best; do
	plain_w=$(cut -d' ' -f1 "$B/t.plain" | $stat)
	plain_r=$(cut -d' ' -f2 "$B/t.plain" | $stat)
	for size in 1 3; do
		W[$size]=$(cut -d' ' -f1 "$B/t.$size" | $stat)
		R[$size]=$(cut -d' ' -f2 "$B/t.$size" | $stat)
	done
	echo
	echo "one process for all objects (rados bench / a python loop), $stat of $ROUNDS rounds:"
	printf '  %-16s %8s %13s\n' "" "write" "read"
	printf '  %-16s %s MiB/s %s MiB/s\n' "plain files" "$(rate "$plain_w")" "$(rate "$plain_r")"
	printf '  %-16s %s MiB/s %s MiB/s   ratio %sx / %sx\n' "rados, size 1" \
		"$(rate "${W[1]}")" "$(rate "${R[1]}")" "$(ratio "$plain_w" "${W[1]}")" "$(ratio "$plain_r" "${R[1]}")"
	printf '  %-16s %s MiB/s %s MiB/s   ratio %sx / %sx (writes 3 copies)\n' "rados, size 3" \
		"$(rate "${W[3]}")" "$(rate "${R[3]}")" "$(ratio "$plain_w" "${W[3]}")" "$(ratio "$plain_r" "${R[3]}")"
done

if [ "$LOOP" = 1 ]; then
	# ---- one process per object ----
	mkdir "$B/plain"
	sync
	t0=$(now)
	for i in $(seq 1 $N); do
		dd if="$B/src" of="$B/plain/obj.$i" bs=${OBJ}M status=none
	done
	sync
	lw=$(since "$t0")
	drop_caches
	t0=$(now)
	for i in $(seq 1 $N); do
		dd if="$B/plain/obj.$i" of=/dev/null bs=${OBJ}M status=none
	done
	lr=$(since "$t0")
	rm -rf "$B/plain"
	for size in 1 3; do
		cl=$B/cl$size
		"$C" --cluster "$cl" mkfs --size $size --min-size 1 \
			--osd-size 2G --pg-num 128 >/dev/null
		sync
		t0=$(now)
		for i in $(seq 1 $N); do
			"$C" --cluster "$cl" rados put "obj.$i" "$B/src"
		done
		sync
		W[$size]=$(since "$t0")
		drop_caches
		t0=$(now)
		for i in $(seq 1 $N); do
			"$C" --cluster "$cl" rados get "obj.$i" /dev/null
		done
		R[$size]=$(since "$t0")
		rm -rf "$cl"
	done
	echo "one process per object (crushfs rados put/get / dd):"
	printf '  %-16s %s MiB/s %s MiB/s\n' "plain files" "$(rate "$lw")" "$(rate "$lr")"
	printf '  %-16s %s MiB/s %s MiB/s   ratio %sx / %sx\n' "rados, size 1" \
		"$(rate "${W[1]}")" "$(rate "${R[1]}")" "$(ratio "$lw" "${W[1]}")" "$(ratio "$lr" "${R[1]}")"
	printf '  %-16s %s MiB/s %s MiB/s   ratio %sx / %sx (writes 3 copies)\n' "rados, size 3" \
		"$(rate "${W[3]}")" "$(rate "${R[3]}")" "$(ratio "$lw" "${W[3]}")" "$(ratio "$lr" "${R[3]}")"
fi
[ $drop = yes ] || echo "note: could not drop the page cache (not root): reads came from memory"
