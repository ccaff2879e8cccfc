#!/usr/bin/env bash
# locate answers for the cluster that serves the path (issue 22): two
# clusters mounted side by side; a path on the other's mount and a path on
# no crushfs mount are refused with one line each, mounted or not; the
# mount's ceph.cluster_fsid vxattr is the cluster's fsid.  Also `fs status`
# and `osd getcrushmap -o` through the mounted daemon.
. "$(dirname "$0")/lib/mount_common.sh"

A=$T/a
B=$T/b
MA=$T/mnt_a
MB=$T/mnt_b
mkcluster "$A" --osds 3 --hosts 3 --pg-num 8 --osd-size 64M
mkcluster "$B" --osds 3 --hosts 3 --pg-num 8 --osd-size 64M
mount_fg "$A" "$MA"
PA=$MPID LA=$MLOG
mount_fg "$B" "$MB"
PB=$MPID LB=$MLOG
C() { "$CRUSHFS" "$@"; }

fsid() { C --cluster "$1" -f json osd dump | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["fsid"])'; }
FA=$(fsid "$A")
FB=$(fsid "$B")
[ "$FA" != "$FB" ] || fail "two clusters with one fsid"

# the same first inode number in both, different sizes
head -c 5000 /dev/urandom >"$MA/f"
head -c 9000000 /dev/urandom >"$MB/f"
[ "$(stat -c %i "$MA/f")" = "$(stat -c %i "$MB/f")" ] || fail "expected the same inode number"

[ "$(getfattr --only-values -n ceph.cluster_fsid "$MA/f" 2>/dev/null || "$PY" -c 'import os,sys; print(os.getxattr(sys.argv[1], "ceph.cluster_fsid").decode(), end="")' "$MA/f")" = "$FA" ] ||
	fail "ceph.cluster_fsid of A's mount"
"$PY" -c 'import os,sys; sys.exit(os.getxattr(sys.argv[1], "ceph.cluster_fsid").decode() != sys.argv[2])' "$MB" "$FB" ||
	fail "ceph.cluster_fsid of B's mount root"
ok "ceph.cluster_fsid names the cluster serving the path"

# each cluster answers for its own mount
C --cluster "$A" -f json locate "$MA/f" | "$PY" -c 'import json,sys; d=json.load(sys.stdin); sys.exit(d["size"] != 5000)' ||
	fail "A locate of A's file"
C --cluster "$B" -f json locate "$MB/f" | "$PY" -c 'import json,sys; d=json.load(sys.stdin); sys.exit(d["size"] != 9000000)' ||
	fail "B locate of B's file"

# another cluster's mount: one line naming both, exit 1
rc=0
C --cluster "$A" locate "$MB/f" >"$T/out" 2>"$T/err" || rc=$?
[ $rc = 1 ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" = 1 ] ||
	fail "A locate of B's file: rc $rc, $(cat "$T/out" "$T/err")"
grep -q "^crushfs: locate: $MB/f is on the mount of another cluster (fsid $FB), not of .*$A (fsid $FA)\$" "$T/err" ||
	fail "message: $(cat "$T/err")"

# a path on no crushfs mount, while A is mounted
echo plain >"$T/plain"
rc=0
C --cluster "$A" locate "$T/plain" 2>"$T/err" || rc=$?
[ $rc = 1 ] && [ "$(wc -l <"$T/err")" = 1 ] &&
	grep -q "^crushfs: locate: $T/plain is not on a crushfs mount (.*$A is mounted on $MA)\$" "$T/err" ||
	fail "plain path while mounted: rc $rc, $(cat "$T/err")"
ok "mounted: own mount answered, other cluster's mount and plain path refused"

# through the mounted daemon: fs status shows its MDS, getcrushmap writes
# the client's file
C --cluster "$A" fs status >"$T/fss"
head -1 "$T/fss" | grep -qx 'crushfs - 1 clients' || fail "fs status: $(cat "$T/fss")"
grep -Eq '^ *0 +active +[^ ]+ +Reqs: +0 /s' "$T/fss" || fail "fs status rank: $(cat "$T/fss")"
grep -q '^MDS version: crushfs version ' "$T/fss" || fail "fs status version: $(cat "$T/fss")"
(cd "$T" && C --cluster "$A" osd getcrushmap -o live.bin 2>"$T/epoch")
grep -qx '[0-9]*' "$T/epoch" || fail "getcrushmap stderr: $(cat "$T/epoch")"
C crush decompile "$T/live.bin" | grep -q '^host host2 {' || fail "getcrushmap through the daemon"
ok "fs status and osd getcrushmap through the daemon"

umount_fg "$MA" "$PA" "$LA"
C --cluster "$A" fs status | head -1 | grep -qx 'crushfs - 0 clients' || fail "fs status unmounted"

# A not mounted: B's mount still refused, a plain path too, a path from
# the filesystem's root answered
rc=0
C --cluster "$A" locate "$MB/f" 2>"$T/err" || rc=$?
[ $rc = 1 ] && grep -q "is on the mount of another cluster (fsid $FB)" "$T/err" ||
	fail "unmounted A locate of B's file: rc $rc, $(cat "$T/err")"
rc=0
C --cluster "$A" locate "$T/plain" 2>"$T/err" || rc=$?
[ $rc = 1 ] && grep -q "^crushfs: locate: $T/plain is not on a crushfs mount, nor in the filesystem of .*$A (it is not mounted" "$T/err" ||
	fail "unmounted plain path: rc $rc, $(cat "$T/err")"
C --cluster "$A" -f json locate /f | "$PY" -c 'import json,sys; d=json.load(sys.stdin); sys.exit(d["size"] != 5000)' ||
	fail "unmounted A locate /f"
ok "unmounted: other cluster's mount and plain path refused, root path answered"

umount_fg "$MB" "$PB" "$LB"
