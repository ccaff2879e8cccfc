#!/usr/bin/env bash
# The purge queue and a crash (fs/purge_queue.c): a removed file's objects
# go in the background after its last reference, so a kill -9 right after
# an `rm -rf` of many files finds some still queued.  Nothing is lost by
# that: each removed inode carries its orphan mark from the unlink on, and
# the next mount purges them.  After the remount and an unmount every
# object of a removed file is gone, the kept files read back, `check`
# (usage equals the disk) and `fsck --dry-run` are clean.  How many were
# still queued at the kill depends on the machine: it is printed, not
# asserted; what must hold after the remount holds either way.
. "$(dirname "$0")/lib/mount_common.sh"

CL=$T/cluster
M=$T/mnt
mkcluster "$CL" --osd-size 1G --pg-num 32
mount_fg "$CL" "$M"

# kept: fsync'ed, must survive; doomed: 1500 small files and 3 of 5 MiB
mkdir "$M/keep" "$M/doomed"
head -c 3000000 /dev/urandom >"$T/k"
cp "$T/k" "$M/keep/k"
"$PY" - "$M/doomed" <<'PYEOF'
import os, sys
d = sys.argv[1]
small, big = b"s" * 4096, os.urandom(5 << 20)
for i in range(1500):
    with open(os.path.join(d, f"f{i}"), "wb") as f:
        f.write(small)
for i in range(3):
    with open(os.path.join(d, f"big{i}"), "wb") as f:
        f.write(big)
PYEOF
sync
"$PY" -c "
import os
for p in ('$M/keep/k', '$M/keep', '$M'):
    fd = os.open(p, os.O_RDONLY)
    os.fsync(fd)
    os.close(fd)
"
ok "1500 small and 3 big files written, one kept file fsync'ed"

# the removed inodes' numbers, as object names start (%llx.%08llx)
find "$M/doomed" -printf '%i\n' | "$PY" -c "
import sys
for l in sys.stdin:
    print('%x.' % int(l))" | sort -u >"$T/doomed"
[ "$(wc -l <"$T/doomed")" -eq 1504 ] || fail "1504 inodes expected under doomed/"
# doomed_objects: how many objects of removed inodes the OSDs hold
doomed_objects() {
	"$CRUSHFS" --cluster "$CL" rados ls | cut -d. -f1 | sed 's/$/./' |
		grep -cxFf "$T/doomed" || true
}

rm -rf "$M/doomed"
kill -9 "$MPID"
reap "$MPID" "the daemon killed with -9 right after rm -rf" 137
fusermount3 -u -z "$M"
ok "killed right after rm -rf: $(doomed_objects) objects of removed files still on the OSDs"

mount_fg "$CL" "$M"
cmp "$T/k" "$M/keep/k" || fail "the kept file changed"
[ ! -e "$M/doomed" ] || fail "the removed directory is back"
purged=$(grep -c "unlinked before a crash" "$MLOG" || true)
umount_fg "$M"
ok "the remount purged $purged inodes the crash left unpurged"

n=$(doomed_objects)
[ "$n" -eq 0 ] || fail "$n objects of removed files are left after the remount"
"$CRUSHFS" --cluster "$CL" rados ls | grep -q . || fail "the kept file's object is gone"
"$CRUSHFS" --cluster "$CL" check >"$T/check" || { cat "$T/check"; fail "check: usage differs from the disk"; }
"$CRUSHFS" --cluster "$CL" fsck --dry-run >"$T/fsck" || { cat "$T/fsck"; fail "fsck"; }
tail -n 1 "$T/fsck" | grep -qx clean || { cat "$T/fsck"; fail "fsck verdict"; }
ok "after the remount: no object of a removed file left, check and fsck clean"
