#!/usr/bin/env bash
# rados_bench.sh - crushfs on the RADOS backend against ceph-fuse mounting
# CephFS, on the same one-node Ceph 16.2 cluster in the same run (3 OSDs
# on this disk, tests/ceph/ceph_cluster.sh, plus one MDS): sequential
# write ending in fsync, sequential read with a cold page cache, and
# small files created, stat'ed and deleted.  Both write 3 copies (pool
# size 3).  Prints each figure and the ratio crushfs/ceph-fuse.  Needs
# root, /dev/fuse, ceph-mon ceph-mgr ceph-osd ceph-mds ceph-fuse.
#
#   bench/rados_bench.sh            BENCH_SIZE_MB (256), BENCH_FILES (1000)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
CRUSHFS=${CRUSHFS:-$top/build/crushfs}
SIZE_MB=${BENCH_SIZE_MB:-256}
NFILES=${BENCH_FILES:-1000}
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

# run MNT: "write_MiB/s read_MiB/s files/s"
run() {
	local m=$1 t0 t1 w r f
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
	mkdir "$m/small"
	head -c 4096 /dev/urandom >"$W/4k"
	t0=$(now)
	for i in $(seq 1 "$NFILES"); do cp "$W/4k" "$m/small/f$i"; done
	tc=$(now)
	stat "$m"/small/* >/dev/null
	ts=$(now)
	rm -rf "$m/small"
	t1=$(now)
	f=$(calc "$NFILES / ($t1 - $t0)")
	# the phases, seconds: create, stat, rm
	p="$(calc "$tc - $t0")/$(calc "$ts - $tc")/$(calc "$t1 - $ts")"
	rm -f "$m/big"
	echo "$w $r $f $p"
}

read -r fw fr ff fp < <(run "$W/mnt-fuse")
read -r cw cr cf cp < <(run "$W/mnt-crushfs")
printf "%-34s %12s %12s %8s\n" "rados_bench ($SIZE_MB MiB, $NFILES files)" ceph-fuse crushfs ratio
printf "%-34s %12s %12s %8s\n" "seq write + fsync (MiB/s)" "$fw" "$cw" "$(calc "$cw / $fw")"
printf "%-34s %12s %12s %8s\n" "seq read, cold cache (MiB/s)" "$fr" "$cr" "$(calc "$cr / $fr")"
printf "%-34s %12s %12s %8s\n" "4 KiB files create+stat+rm (/s)" "$ff" "$cf" "$(calc "$cf / $ff")"
printf "%-34s %12s %12s\n" "  create/stat/rm phases (s)" "$fp" "$cp"
