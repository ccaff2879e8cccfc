#!/usr/bin/env bash
# rados_bench.sh - crushfs on the RADOS backend against ceph-fuse mounting
# CephFS, on the same one-node Ceph 16.2 cluster in the same run (3 OSDs
# on this disk, tests/ceph/ceph_cluster.sh, plus one MDS): sequential
# write ending in fsync, sequential read with a cold page cache, and
# small files created, stat'ed and deleted.  Both write 3 copies (pool
# size 3).  BENCH_ROUNDS rounds, the side going first alternating; prints
# medians, min-max and the ratio crushfs/ceph-fuse with its range.  Needs
# root, /dev/fuse, ceph-mon ceph-mgr ceph-osd ceph-mds ceph-fuse.
#
#   bench/rados_bench.sh            BENCH_SIZE_MB (256), BENCH_FILES (1000),
#                                   BENCH_ROUNDS (5; the first side alternates)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
CRUSHFS=${CRUSHFS:-$top/build/crushfs}
SIZE_MB=${BENCH_SIZE_MB:-256}
NFILES=${BENCH_FILES:-1000}
ROUNDS=${BENCH_ROUNDS:-5}
for b in ceph-mon ceph-mgr ceph-osd ceph-mds ceph-fuse; do
	command -v "$b" >/dev/null || { echo "need $b (apt-get install -y $b)" >&2; exit 1; }
done
[ "$(id -u)" = 0 ] || { echo "run as root (mounts, drop_caches)" >&2; exit 1; }
W=$(mktemp -d /var/tmp/crushfs-rbench.XXXXXX)
cleanup() {
	set +e
	for m in "$W"/mnt*; do fusermount3 -u -z "$m" 2>/dev/null; umount -l "$m" 2>/dev/null; done
	[ -f "$W/mds.pid" ] && kill "$(cat "$W/mds.pid")" 2>/dev/null
	bash "$top/tests/ceph/ceph_cluster.sh" stop "$W/c" >/dev/null 2>&1
	rm -rf "$W"
}
trap cleanup EXIT

eval "$(bash "$top/tests/ceph/ceph_cluster.sh" start "$W/c" 3)"
c() { ceph -c "$CEPH_CONF" "$@"; }
# CephFS: one MDS, a metadata and a data pool
mkdir -p "$W/c/mds/ceph-a"
c osd pool create cephfs_meta 16 16 >/dev/null 2>&1
c osd pool create cephfs_data 32 32 >/dev/null 2>&1
c fs new cfs cephfs_meta cephfs_data >/dev/null 2>&1
ceph-mds -c "$CEPH_CONF" -i a --pid-file "$W/mds.pid" --mds-data "$W/c/mds/ceph-a"
for _ in $(seq 1 120); do
	c mds stat 2>/dev/null | grep -q "up:active" && break
	sleep 1
done
c mds stat | grep -q "up:active" || { echo "the MDS never became active" >&2; exit 1; }
c osd pool create crushfs_data 32 32 >/dev/null 2>&1

mkdir -p "$W/mnt-fuse" "$W/mnt-crushfs"
ceph-fuse -c "$CEPH_CONF" "$W/mnt-fuse" >/dev/null 2>&1
"$CRUSHFS" --cluster "$W/cl" mkfs --backend rados --pool crushfs_data \
	--ceph-conf "$CEPH_CONF" >/dev/null 2>&1
"$CRUSHFS" --cluster "$W/cl" mount "$W/mnt-crushfs"

now() { date +%s.%N; }
calc() { awk "BEGIN { printf \"%.3f\", ($1) }"; }
drop() { sync; echo 3 >/proc/sys/vm/drop_caches; }

# run MNT: "write_MiB/s read_MiB/s files/s create/s stat/s unlink/s".
# The small files go through bench/fs_bench_ops.py's timed loops (one
# process, perf_counter), as in bench/fs_bench.sh: a cp per file timed
# process start-up, 1 ms a file on either side, and hid both filesystems.
run() {
	local m=$1 t0 t1 w r tc ts tu
	drop
	t0=$(now)
	dd if=/dev/zero of="$m/big" bs=4M count=$((SIZE_MB / 4)) conv=fsync status=none
	t1=$(now)
	w=$(calc "$SIZE_MB / ($t1 - $t0)")
	drop
	t0=$(now)
	dd if="$m/big" of=/dev/null bs=4M status=none
	t1=$(now)
	r=$(calc "$SIZE_MB / ($t1 - $t0)")
	rm -f "$m/big"
	mkdir "$m/small"
	tc=$(python3 "$top/bench/fs_bench_ops.py" create "$m/small" "$NFILES")
	ts=$(python3 "$top/bench/fs_bench_ops.py" stat "$m/small" "$NFILES")
	tu=$(python3 "$top/bench/fs_bench_ops.py" unlink "$m/small" "$NFILES")
	rmdir "$m/small"
	echo "$w $r $(calc "3 * $NFILES / ($tc + $ts + $tu)") $(calc "$NFILES / $tc") $(calc "$NFILES / $ts") $(calc "$NFILES / $tu")"
}

# rounds, the side that goes first alternating; medians and min-max
: >"$W/res"
for i in $(seq 1 "$ROUNDS"); do
	if [ $((i % 2)) = 1 ]; then order="fuse crushfs"; else order="crushfs fuse"; fi
	for s in $order; do
		echo "$i $s $(run "$W/mnt-$s")" >>"$W/res"
	done
	echo "round $i/$ROUNDS done" >&2
done
python3 - "$W/res" "$SIZE_MB" "$NFILES" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
names = ["seq write + fsync (MiB/s)", "seq read, cold cache (MiB/s)",
         "4 KiB files create+stat+unlink (/s)", "  create (/s)", "  stat (/s)",
         "  unlink (/s)"]
print("%-38s %20s %20s %7s %13s" % ("rados_bench (%s MiB, %s files, %d rounds)" %
      (sys.argv[2], sys.argv[3], len(rows) // 2), "ceph-fuse", "crushfs", "ratio",
      "round ratios"))
for k, name in enumerate(names):
    f = {int(r[0]): float(r[2 + k]) for r in rows if r[1] == "fuse"}
    c = {int(r[0]): float(r[2 + k]) for r in rows if r[1] == "crushfs"}
    mf, mc = statistics.median(f.values()), statistics.median(c.values())
    rr = [c[i] / f[i] for i in f if i in c and f[i] > 0]
    cell = lambda m, v: "%.0f (%.0f-%.0f)" % (m, min(v), max(v))
    print("%-38s %20s %20s %6.2fx %5.2f-%.2fx%s" % (name, cell(mf, f.values()),
          cell(mc, c.values()), mc / mf, min(rr), max(rr),
          "" if name.startswith(" ") else ("  met" if mc / mf >= 1.2 else "  NOT MET (goal 1.2x)")))
PY
