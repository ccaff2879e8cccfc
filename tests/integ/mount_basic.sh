#!/usr/bin/env bash
# Mounting: a 100 MiB copy read back identical, df/statfs, files past
# 4 GiB, sparse files, virtual xattrs, locate; a second mount refused, a
# missing or damaged cluster refused with one clear line; daemon mode with
# `crushfs umount` and `fusermount3 -u`; data still there after a remount.
. "$(dirname "$0")/lib/mount_common.sh"

CL=$T/cluster
M=$T/mnt
mkcluster "$CL" --osd-size 2G

mount_fg "$CL" "$M"
head -c 100M /dev/urandom >"$T/big"
cp "$T/big" "$M/big"
cmp "$T/big" "$M/big" || fail "100 MiB copy differs"
[ "$(stat -c %s "$M/big")" = 104857600 ] || fail "size of big"
ok "100 MiB copy + cmp"

# big writes: the kernel and the daemon agreed on 1 MiB requests
mw=$(sed -n 's/.*max_write \([0-9]*\).*/\1/p' "$MLOG" | head -1)
[ -n "$mw" ] && [ "$mw" -ge 1048576 ] || fail "FUSE max_write '${mw}' below 1 MiB"
ok "FUSE max_write $mw"

# df: the pool's size (24 GiB raw / 3), used, MAX AVAIL
read -r size used avail < <(df -B1 --output=size,used,avail "$M" | tail -1)
[ "$size" -gt $((7 << 30)) ] && [ "$size" -le $((8 << 30)) ] || fail "df size $size"
[ "$used" -ge $((100 << 20)) ] || fail "df used $used"
[ "$avail" -lt "$size" ] && [ "$avail" -gt $((6 << 30)) ] || fail "df avail $avail"
ok "df: size $size used $used avail $avail"

# sparse and > 4 GiB
printf 'tail' | dd of="$M/sparse" bs=1 seek=$((5 << 30)) conv=notrunc status=none
[ "$(stat -c %s "$M/sparse")" = $(((5 << 30) + 4)) ] || fail "sparse size"
[ "$(dd if="$M/sparse" bs=1 skip=$((5 << 30)) count=4 status=none)" = tail ] ||
	fail "tail of the sparse file"
[ "$(dd if="$M/sparse" bs=4096 skip=1000 count=1 status=none | tr -d '\0' | wc -c)" = 0 ] ||
	fail "hole is not zeros"
truncate -s 1M "$M/sparse"
[ "$(stat -c %s "$M/sparse")" = 1048576 ] || fail "truncate"
ok "sparse file past 4 GiB, truncate"

# O_APPEND, O_TRUNC
printf 'a' >"$M/app"
printf 'b' >>"$M/app"
printf 'c' >>"$M/app"
[ "$(cat "$M/app")" = abc ] || fail "append"
printf 'new' >"$M/app"
[ "$(cat "$M/app")" = new ] || fail "O_TRUNC"
ok "O_APPEND, O_TRUNC"

# virtual xattrs and locate
lay=$(py "import os; print(os.getxattr('$M/big', 'crushfs.layout').decode())")
[ "$lay" = "stripe_unit=4194304 stripe_count=1 object_size=4194304 pool=1" ] ||
	fail "crushfs.layout: $lay"
n=$(py "import os; print(len(os.getxattr('$M/big', 'crushfs.placement').decode().splitlines()))")
[ "$n" = 25 ] || fail "crushfs.placement lists $n objects, not 25"
"$CRUSHFS" --cluster "$CL" locate "$M/big" >"$T/loc"
grep -q '^10000000000.00000018 -> pg 1\.' "$T/loc" || fail "locate output"
[ "$(grep -c ' -> pg ' "$T/loc")" = 25 ] || fail "locate lists 25 objects"
grep -q 'objects per OSD' "$T/loc" || fail "locate summary"
"$CRUSHFS" --cluster "$CL" -f json locate "$M/big" |
	py "import json,sys; d=json.load(sys.stdin); assert len(d['objects'])==25 and d['size']==104857600" ||
	fail "locate -f json"
ok "crushfs.layout, crushfs.placement, locate"

# a second mount of the same cluster is refused
mkdir -p "$T/m2"
if "$CRUSHFS" --cluster "$CL" mount "$T/m2" -f 2>"$T/err2"; then
	fail "second mount succeeded"
fi
grep -q "already mounted at $M" "$T/err2" || { cat "$T/err2"; fail "second mount message"; }
[ "$(wc -l <"$T/err2")" = 1 ] || fail "second mount: more than one line"
ok "second mount refused: $(cat "$T/err2")"

# cluster commands go through the daemon's admin socket
"$CRUSHFS" --cluster "$CL" osd df >"$T/osddf" || fail "osd df while mounted"
grep -q '^ID' "$T/osddf" || fail "osd df output"
ok "osd df through the admin socket"

umount_fg "$M"
ok "unmounted cleanly"

# missing and damaged clusters
if "$CRUSHFS" --cluster "$T/nope" mount "$M" -f 2>"$T/err3"; then
	fail "mounting a missing cluster succeeded"
fi
[ "$(wc -l <"$T/err3")" = 1 ] || { cat "$T/err3"; fail "missing cluster: not one line"; }
ok "missing cluster: $(cat "$T/err3")"
cp -a "$CL" "$T/damaged"
echo garbage >"$T/damaged/cluster.json"
if "$CRUSHFS" --cluster "$T/damaged" mount "$M" -f 2>"$T/err4"; then
	fail "mounting a damaged cluster succeeded"
fi
[ "$(wc -l <"$T/err4")" = 1 ] || { cat "$T/err4"; fail "damaged cluster: not one line"; }
ok "damaged cluster: $(cat "$T/err4")"
cp -a "$CL" "$T/damaged2"
rm -f "$T"/damaged2/mds/CURRENT
if "$CRUSHFS" --cluster "$T/damaged2" mount "$M" -f 2>"$T/err5"; then
	fail "mounting with damaged metadata succeeded"
fi
[ "$(wc -l <"$T/err5")" = 1 ] || { cat "$T/err5"; fail "damaged metadata: not one line"; }
ok "damaged metadata: $(cat "$T/err5")"
! is_mounted "$M" || fail "still mounted"

# daemon mode: returns once mounted; crushfs umount waits for the daemon
"$CRUSHFS" --cluster "$CL" mount "$M" || fail "daemon mount"
MOUNTS+=("$M")
is_mounted "$M" || fail "not mounted after crushfs mount returned"
cmp "$T/big" "$M/big" || fail "data after remount"
[ "$(stat -c %s "$M/sparse")" = 1048576 ] || fail "size after remount"
"$CRUSHFS" umount "$M" || fail "crushfs umount"
! is_mounted "$M" || fail "still mounted after crushfs umount"
[ ! -e "$CL/crushfs.asok" ] || fail "admin socket left behind"
ok "daemon mode + crushfs umount"
"$CRUSHFS" --cluster "$CL" mount "$M" -o attr_timeout=2,noatime || fail "daemon mount 2"
fusermount3 -u "$M" || fail "fusermount3 -u"
asok_gone() { [ ! -e "$CL/crushfs.asok" ]; }
wait_for "the daemon to exit (its admin socket to go) after fusermount3 -u" 30 asok_gone
ok "daemon mode + fusermount3 -u"
grep -E "ERROR|Sanitizer|runtime error" "$CL/crushfs.log" && fail "errors in crushfs.log"

# a read-only mount (a standard FUSE option passed through)
mount_fg "$CL" "$M" -o ro
cmp "$T/big" "$M/big" || fail "read on a ro mount"
touch "$M/new" 2>/dev/null && fail "created a file on a ro mount"
grep -q "Read-only" <(touch "$M/new" 2>&1) || fail "ro mount: not EROFS"
umount_fg "$M"
ok "-o ro: reads work, writes fail with EROFS"

# offline: locate from the filesystem root, fsck clean
"$CRUSHFS" --cluster "$CL" locate /big | grep -q ' 25 objects' || fail "offline locate"
"$CRUSHFS" --cluster "$CL" fsck >"$T/fsck" || { cat "$T/fsck"; fail "fsck"; }
grep -q '^clean$' "$T/fsck" || { cat "$T/fsck"; fail "fsck not clean"; }
ok "offline locate, fsck clean"
