#!/usr/bin/env bash
# CephFS's layout vxattrs on a mounted filesystem (issue 10 item 2):
# ceph.dir.layout handed to new files below (nearest ancestor wins),
# ceph.file.layout on empty files only, invalid values refused with the
# MDS's errors, crushfs.layout kept; and striping with stripe_count > 1
# end to end: bytes back after a remount, objects where the layout puts
# them (stripe_unit rounds over stripe_count objects).
. "$(dirname "$0")/lib/mount_common.sh"

CL=$T/cluster
M=$T/mnt
C() { "$CRUSHFS" --cluster "$CL" "$@"; }
gx() { getfattr --only-values -n "$1" "$2" 2>"$T/gx.err"; }
mkcluster "$CL" --osds 6 --hosts 3 --osd-size 256M --pg-num 32
# a pool beside the filesystem's: not one of its data pools (CephFS
# refuses a layout naming a pool not added to the filesystem)
C osd pool create rbd 8 >/dev/null || fail "osd pool create"
mount_fg "$CL" "$M"

root=$(gx ceph.dir.layout "$M") || fail "root layout: $(cat "$T/gx.err")"
[ "$root" = "stripe_unit=4194304 stripe_count=1 object_size=4194304 pool=crushfs_data" ] ||
	fail "root layout: $root"
mkdir -p "$M/s/deep/er" "$M/plain"
gx ceph.dir.layout "$M/s" && fail "a directory without a layout shows one"
grep -q 'No such attribute' "$T/gx.err" || fail "$(cat "$T/gx.err")"
setfattr -n ceph.dir.layout -v "stripe_unit=65536 stripe_count=4 object_size=1048576 pool=crushfs_data" "$M/s" ||
	fail "set dir layout"
ok "root shows the default; a directory's layout is set"

head -c $((5 * 1024 * 1024 + 12345)) /dev/urandom >"$T/src"
cp "$T/src" "$M/s/deep/er/f"
cp "$T/src" "$M/plain/f"
lay=$(gx ceph.file.layout "$M/s/deep/er/f")
[ "$lay" = "stripe_unit=65536 stripe_count=4 object_size=1048576 pool=crushfs_data" ] ||
	fail "inherited layout: $lay"
[ "$(gx ceph.file.layout.stripe_count "$M/plain/f")" = 1 ] || fail "plain/f is striped"
[ "$(gx crushfs.layout "$M/s/deep/er/f")" = "stripe_unit=65536 stripe_count=4 object_size=1048576 pool=1" ] ||
	fail "crushfs.layout: $(gx crushfs.layout "$M/s/deep/er/f")"
ok "a file two levels below takes the layout; crushfs.layout agrees"

# 5 MiB + 12345 over stripe sets of 4 x 1 MiB: objects 0-3 full, then
# the next set's 4 objects share 1 MiB + 12345 in 64 KiB rounds
C locate "$M/s/deep/er/f" -f json | py '
import json, sys
d = json.load(sys.stdin)
sizes = [o["copies"][0]["size"] for o in d["objects"] if o["exists"]]
size, su, sc, osz = 5*1024*1024 + 12345, 65536, 4, 1 << 20
want = {}
for off in range(0, size, su):
    blk = off // su
    stripe, pos = blk // sc, blk % sc
    objset = stripe // (osz // su)
    ono = objset * sc + pos
    inobj = (stripe % (osz // su)) * su
    want[ono] = max(want.get(ono, 0), inobj + min(su, size - off))
got = {int(o["name"].split(".")[1], 16): o["copies"][0]["size"] for o in d["objects"] if o["exists"]}
if got != want:
    sys.exit("objects %s, want %s" % (sorted(got.items()), sorted(want.items())))' ||
	fail "object sizes do not follow the layout"
ok "objects hold what stripe_unit 64K x stripe_count 4 x object_size 1M gives"

touch "$M/s/empty"
setfattr -n ceph.file.layout.stripe_count -v 2 "$M/s/deep/er/f" 2>"$T/e1" && fail "layout of a file with data changed"
grep -q 'Directory not empty' "$T/e1" || fail "$(cat "$T/e1")"
for bad in "pool=nope" "pool=rbd" "pool=2" "pool_namespace=ns" "object_size=100" "stripe_unit=65537"; do
	setfattr -n "ceph.file.layout.${bad%%=*}" -v "${bad#*=}" "$M/s/empty" 2>"$T/e2" && fail "$bad accepted"
	grep -q 'Invalid argument' "$T/e2" || fail "$bad: $(cat "$T/e2")"
done
setfattr -n ceph.file.layout.pool -v 1 "$M/s/empty" || fail "pool by id"
setfattr -n ceph.file.layout.object_size -v 8388608 "$M/s/empty" || fail "object_size on an empty file"
[ "$(gx ceph.file.layout.object_size "$M/s/empty")" = 8388608 ] || fail "object_size not kept"
ok "file layouts: only while empty (ENOTEMPTY), bad values EINVAL"

setfattr -x ceph.dir.layout "$M/s" || fail "remove the dir layout"
cp "$T/src" "$M/s/later"
[ "$(gx ceph.file.layout.stripe_count "$M/s/later")" = 1 ] || fail "a removed dir layout still applies"
setfattr -x ceph.dir.layout "$M" 2>/dev/null && fail "the root's layout removed"
ok "setfattr -x drops a directory's layout (not the root's)"

"$CRUSHFS" umount "$M" >/dev/null || fail "umount"
mount_fg "$CL" "$M"
cmp "$T/src" "$M/s/deep/er/f" || fail "striped file differs after remount"
cmp "$T/src" "$M/plain/f" || fail "plain file differs after remount"
[ "$(gx ceph.file.layout.stripe_unit "$M/s/deep/er/f")" = 65536 ] || fail "layout lost"
C check --deep >"$T/ck" 2>&1 || fail "check --deep: $(cat "$T/ck")"
ok "remounted: the striped file reads back whole, replicas agree"
