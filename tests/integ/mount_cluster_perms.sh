#!/usr/bin/env bash
# Nothing in the mount is readable around its permissions (issue 21): a
# file that is 0600 in the mount is bytes in object files of the cluster
# folder, and those, the metadata store and cluster.json must be closed
# to other local users.  The daemon's admin socket is 0600 and made
# without touching the process's umask.  A cluster of an older crushfs
# (0755 folders, 0644 files) has its top folder made 0700 by the mount.
. "$(dirname "$0")/lib/mount_common.sh"

if ! id nobody >/dev/null 2>&1 || [ "$(id -u)" != 0 ]; then
	echo "SKIP: needs root and the user nobody"
	exit 77
fi
CL=$T/cluster
M=$T/mnt
MARK=crushfs-secret-$RANDOM$RANDOM-marker
# as nobody, from /; stdout only (the refusals go to stderr)
as_nobody() {
	(cd / && runuser -u nobody -- sh -c "$1") 2>/dev/null
}

mkcluster "$CL" --osds 3 --hosts 3 --size 2 --min-size 1
mount_fg "$CL" "$M"
# one object whole, one beside a second file's
printf '%s\n' "$MARK" >"$M/secret"
chmod 600 "$M/secret"
mkdir "$M/d"
head -c 100000 /dev/urandom >"$M/d/big"
printf '%s\n' "$MARK" >>"$M/d/big"
chmod 600 "$M/d/big"
setfattr -n user.note -v "$MARK" "$M/secret" 2>/dev/null || true

[ "$(stat -c %a "$CL/crushfs.asok")" = 600 ] ||
	fail "admin socket mode $(stat -c %a "$CL/crushfs.asok")"
tmpdirs=$(find "$CL" -maxdepth 1 -name '.asok-*')
[ -z "$tmpdirs" ] || fail "the socket's private folder was left: $tmpdirs"
ok "admin socket 0600, its private folder gone"
umount_fg "$M"

# the data is there (the check below is not vacuous) ...
grep -rlq -- "$MARK" "$CL/osd."* || fail "the marker is in no object file"
# ... and closed to other users
out=$(as_nobody "grep -r -l -- '$MARK' '$CL'" || true)
[ -z "$out" ] || fail "nobody found the marker in: $out"
as_nobody "cat '$CL/cluster.json'" >/dev/null &&
	fail "nobody read cluster.json"
as_nobody "ls '$CL/mds'" >/dev/null && fail "nobody listed mds/"
# Everything crushfs makes is 0700 / 0600, except RocksDB's own files
# (0644, its C API sets no mode), which the 0700 folders mds/ and pglog/
# close.
open=$(find "$CL" -perm /077 ! -path "$CL/mds/*" ! -path "$CL/pglog/*")
[ -z "$open" ] || fail "open to others: $open"
[ "$(stat -c %a "$CL/mds") $(stat -c %a "$CL/pglog")" = "700 700" ] ||
	fail "mds/ or pglog/ are not 0700"
ok "a 0600 file's data, the metadata and cluster.json are closed to nobody"

# A cluster as an older crushfs left it: the mount closes its top folder
# and says so once.
chmod -R go+rX "$CL"
as_nobody "grep -r -l -- '$MARK' '$CL'" >/dev/null ||
	fail "the old-style cluster is not readable (the test is vacuous)"
mount_fg "$CL" "$M"
[ "$(stat -c %a "$CL")" = 700 ] || fail "mount left the top folder $(stat -c %a "$CL")"
grep -q "made the cluster folder 0700 (it was 0755)" "$MLOG" ||
	fail "no note in the daemon's log: $(cat "$MLOG")"
out=$(as_nobody "grep -r -l -- '$MARK' '$CL'" || true)
[ -z "$out" ] || fail "nobody found the marker in: $out"
[ "$(cat "$M/secret")" = "$MARK" ] || fail "the file changed"
umount_fg "$M"
mount_fg "$CL" "$M"
! grep -q "made the cluster folder" "$MLOG" || fail "the note again on a second mount"
umount_fg "$M"
ok "an old-style cluster's top folder is made 0700 by the mount, with one note"
