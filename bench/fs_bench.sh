#!/usr/bin/env bash
# fs_bench.sh - crushfs against libfuse's passthrough_ll example, in one go,
# on the same disk: 1 GiB sequential write ending in fsync, 1 GiB
# sequential read with a cold cache, 5,000 files of 4 KiB created,
# stat'ed and deleted; crushfs with pool size 1 and 3, and with the files
# in an erasure-coded pool (k=2 m=1; BENCH_SIZES token ec21).  Prints each
# figure, the ratio crushfs/passthrough_ll, and the crushfs daemon's peak
# RSS (VmHWM) over the run.  Needs root (FUSE mounts, drop_caches).
#
#   bench/fs_bench.sh [WORKDIR]     (default /var/tmp/crushfs-bench)
#
# Environment: CRUSHFS (binary, default build/crushfs), BENCH_SIZE_MB
# (default 1024), BENCH_SIZES (pool sizes and ec21, default "1 3 ec21"), BENCH_FILES (default 5000), BENCH_REPEAT (best of N,
# default 2), BENCH_SETTLE (seconds to wait before each small-file round,
# default: vm.dirty_expire_centisecs / 100 + 1) and each sequential write.
#
# Why the wait: without a journal, ext4 will not reuse an inode freed less
# than dirty_expire ago (recently_deleted() in ialloc.c), and every create
# then walks past all of them: a round of creates right after a round of
# deletes is several times slower, whichever filesystem runs on top.  Each
# round starts once the previous round's deletes have aged.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
CRUSHFS=${CRUSHFS:-$top/build/crushfs}
W=${1:-/var/tmp/crushfs-bench}
SIZE_MB=${BENCH_SIZE_MB:-1024}
NFILES=${BENCH_FILES:-5000}
REPEAT=${BENCH_REPEAT:-2}
SETTLE=${BENCH_SETTLE:-$(($(cat /proc/sys/vm/dirty_expire_centisecs 2>/dev/null || echo 3000) / 100 + 1))}
EX=/usr/share/doc/libfuse3-dev/examples
PY=/usr/bin/python3

[ -x "$CRUSHFS" ] || { echo "no crushfs binary at $CRUSHFS (run scripts/build.sh)" >&2; exit 1; }
[ -c /dev/fuse ] || { echo "no /dev/fuse" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "run as root (mounts, drop_caches)" >&2; exit 1; }
[ -f $EX/passthrough_ll.c ] || { echo "no $EX/passthrough_ll.c (apt-get install libfuse3-dev)" >&2; exit 1; }

rm -rf "$W"
mkdir -p "$W"
PIDS=()
cleanup() {
	set +e
	for m in "$W"/mnt*; do fusermount3 -u -z "$m" 2>/dev/null; done
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	rm -rf "$W"
}
trap cleanup EXIT

gcc -O2 -o "$W/passthrough_ll" $EX/passthrough_ll.c -I$EX \
	$(pkg-config --cflags --libs fuse3)

now() { date +%s.%N; }
calc() { awk "BEGIN { printf \"%.3f\", ($1) }"; }
mounted() { awk -v m="$1" '$2 == m { f = 1 } END { exit !f }' /proc/mounts; }
wait_mount() {
	for _ in $(seq 1 300); do mounted "$1" && return 0; sleep 0.1; done
	echo "mount of $1 did not appear" >&2
	exit 1
}
drop_caches() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
}

# run_workloads MNT TAG: prints "write read create stat delete" figures
run_workloads() {
	local m=$1 t0 t1 best_w=0 best_r=0 w r
	for _ in $(seq 1 "$REPEAT"); do
		rm -f "$m/seq"
		drop_caches
		sleep "$SETTLE" # new objects are new inodes too
		t0=$(now)
		dd if=/dev/zero of="$m/seq" bs=1M count="$SIZE_MB" conv=fsync status=none
		t1=$(now)
		w=$(calc "$SIZE_MB / ($t1 - $t0)")
		drop_caches
		t0=$(now)
		dd if="$m/seq" of=/dev/null bs=1M status=none
		t1=$(now)
		r=$(calc "$SIZE_MB / ($t1 - $t0)")
		best_w=$(calc "$w > $best_w ? $w : $best_w")
		best_r=$(calc "$r > $best_r ? $r : $best_r")
	done
	rm -f "$m/seq"
	mkdir -p "$m/small"
	"$PY" - "$m/small" "$NFILES" "$REPEAT" "$SETTLE" <<'EOF'
import os, sys, time
d, n, rep, settle = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
buf = b"x" * 4096
best = [0.0, 0.0, 0.0]
for r in range(rep):
    os.sync()
    time.sleep(settle)
    names = [os.path.join(d, f"f{r}_{i:05d}") for i in range(n)]
    t = time.perf_counter()
    for p in names:
        fd = os.open(p, os.O_CREAT | os.O_WRONLY | os.O_EXCL, 0o644)
        os.write(fd, buf)
        os.close(fd)
    t1 = time.perf_counter()
    for p in names:
        os.stat(p)
    t2 = time.perf_counter()
    for p in names:
        os.unlink(p)
    t3 = time.perf_counter()
    for k, v in enumerate((n / (t1 - t), n / (t2 - t1), n / (t3 - t2))):
        best[k] = max(best[k], v)
print(" ".join(f"{x:.0f}" for x in best))
EOF
	printf '%.0f %.0f ' "$best_w" "$best_r"
}

# ---- passthrough_ll (its source directory on the same disk) ----
mkdir -p "$W/pt_src" "$W/mnt_pt"
"$W/passthrough_ll" -f -o source="$W/pt_src" "$W/mnt_pt" 2>"$W/pt.log" &
PIDS+=($!)
wait_mount "$W/mnt_pt"
read -r pw pr pc ps pd < <(run_workloads "$W/mnt_pt" | tr '\n' ' ' |
	awk '{ print $(NF-1), $NF, $1, $2, $3 }')
fusermount3 -u "$W/mnt_pt"

declare -A R
for size in ${BENCH_SIZES:-1 3 ec21}; do
	cl=$W/cluster$size
	"$CRUSHFS" --cluster "$cl" mkfs --size ${size/ec21/3} --min-size 1 \
		--osd-size $(((SIZE_MB * 3 / 12 + 512) ))M >/dev/null
	if [ "$size" = ec21 ]; then
		# the files in an erasure-coded pool, k=2 m=1 over hosts
		# (Ceph's reed_sol_van, stripe_unit 4 KiB), a data pool of
		# the filesystem named by the root's layout
		C() { "$CRUSHFS" --cluster "$cl" "$@" >/dev/null; }
		C osd erasure-code-profile set k2m1 k=2 m=1 \
			crush-failure-domain=host
		C osd pool create ecdata 128 128 erasure k2m1
		C osd pool set ecdata allow_ec_overwrites true
		C fs add_data_pool crushfs ecdata 2>/dev/null
	fi
	mkdir -p "$W/mnt$size"
	"$CRUSHFS" --cluster "$cl" mount "$W/mnt$size" -f 2>"$W/crushfs$size.log" &
	pid=$!
	PIDS+=($pid)
	wait_mount "$W/mnt$size"
	[ "$size" = ec21 ] &&
		setfattr -n ceph.dir.layout.pool -v ecdata "$W/mnt$size"
	read -r cw cr cc cs cd < <(run_workloads "$W/mnt$size" | tr '\n' ' ' |
		awk '{ print $(NF-1), $NF, $1, $2, $3 }')
	rss=$(awk '/VmHWM/ { print $2 }' /proc/$pid/status)
	fusermount3 -u "$W/mnt$size"
	wait $pid || true
	R[$size]="$cw $cr $cc $cs $cd $rss"
done

ratio() { awk "BEGIN { printf \"%.2f\", $1 / $2 }"; }
read -r w1 r1 c1 s1 d1 rss1 <<<"${R[1]:-0 0 0 0 0 0}"
read -r w3 r3 c3 s3 d3 rss3 <<<"${R[3]:-0 0 0 0 0 0}"
read -r we re ce se de rsse <<<"${R[ec21]:-0 0 0 0 0 0}"
echo
echo "crushfs vs passthrough_ll: ${SIZE_MB} MiB sequential, $NFILES x 4 KiB files, best of $REPEAT"
echo "kernel $(uname -r), $(nproc) CPUs, workdir $W ($(df --output=source "$W" | tail -1))"
printf '%-28s %16s %14s %7s %14s %7s\n' "workload" "passthrough_ll" "crushfs size=1" "ratio" "crushfs size=3" "ratio"
printf '%-28s %16s %14s %7s %14s %7s\n' "seq write + fsync (MiB/s)" "$pw" "$w1" "$(ratio "$w1" "$pw")" "$w3" "$(ratio "$w3" "$pw")"
printf '%-28s %16s %14s %7s %14s %7s\n' "cold seq read (MiB/s)" "$pr" "$r1" "$(ratio "$r1" "$pr")" "$r3" "$(ratio "$r3" "$pr")"
printf '%-28s %16s %14s %7s %14s %7s\n' "create 4 KiB files (/s)" "$pc" "$c1" "$(ratio "$c1" "$pc")" "$c3" "$(ratio "$c3" "$pc")"
printf '%-28s %16s %14s %7s %14s %7s\n' "stat (/s)" "$ps" "$s1" "$(ratio "$s1" "$ps")" "$s3" "$(ratio "$s3" "$ps")"
printf '%-28s %16s %14s %7s %14s %7s\n' "delete (/s)" "$pd" "$d1" "$(ratio "$d1" "$pd")" "$d3" "$(ratio "$d3" "$pd")"
printf '%-28s %16s %14s %7s %14s %7s\n' "daemon peak RSS (MiB)" "-" "$((rss1 / 1024))" "" "$((rss3 / 1024))" ""
if [ "$we" != 0 ]; then
	echo
	echo "erasure-coded k=2 m=1 (1.5x raw) against size 3 (3x raw), same run"
	printf '%-28s %14s %14s %7s %7s\n' "workload" "crushfs size=3" "crushfs EC 2+1" "EC/3x" "EC/pt"
	printf '%-28s %14s %14s %7s %7s\n' "seq write + fsync (MiB/s)" "$w3" "$we" "$(ratio "$we" "$w3")" "$(ratio "$we" "$pw")"
	printf '%-28s %14s %14s %7s %7s\n' "cold seq read (MiB/s)" "$r3" "$re" "$(ratio "$re" "$r3")" "$(ratio "$re" "$pr")"
	printf '%-28s %14s %14s %7s %7s\n' "create 4 KiB files (/s)" "$c3" "$ce" "$(ratio "$ce" "$c3")" "$(ratio "$ce" "$pc")"
	printf '%-28s %14s %14s %7s %7s\n' "stat (/s)" "$s3" "$se" "$(ratio "$se" "$s3")" "$(ratio "$se" "$ps")"
	printf '%-28s %14s %14s %7s %7s\n' "delete (/s)" "$d3" "$de" "$(ratio "$de" "$d3")" "$(ratio "$de" "$pd")"
	printf '%-28s %14s %14s\n' "daemon peak RSS (MiB)" "$((rss3 / 1024))" "$((rsse / 1024))"
fi
