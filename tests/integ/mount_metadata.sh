#!/usr/bin/env bash
# Metadata that cannot silently vanish (issue 8), every failure of the
# issue reproduced on a real mount:
#  - `rm -rf CLUSTER/mds`, then mount: refused with one line naming the
#    rebuild (it used to mount an empty filesystem whose new files got the
#    old inode numbers and read the old bytes); fsck refuses too and
#    deletes nothing (it used to delete every data object, exit 0);
#  - 4 KiB of garbage in the store's newest log (at its start, and in the
#    middle of a long one): refused the same way;
#  - fsck --dry-run on an unreadable store: an error, exit 1 (it said
#    "0 problem(s) found", exit 0);
#  - a rule that places nothing: fsck says what it could not check and
#    exits 1 (it printed refusals, then "clean");
#  - `fsck --rebuild-metadata` brings back the names, the tree, modes,
#    owners, symlinks, hard links, layouts and every byte (checksums of
#    every file compared), and new files get new inode numbers;
#  - fsck adopts objects no inode owns in /lost+found instead of deleting
#    them;
#  - backtraces still pending when the daemon is killed are written by the
#    next mount.
. "$(dirname "$0")/lib/mount_common.sh"

CL=$T/cluster
M=$T/mnt
mkcluster "$CL" --osds 6 --hosts 3 --osd-size 1G --pg-num 64 --size 2 --min-size 1 \
	--object-size 1M

# ---- a tree worth losing ----
mount_fg "$CL" "$M"
"$PY" - "$M" "$CL" <<'PYEOF'
import glob, os, random, sys, time
m, cl = sys.argv[1], sys.argv[2]
rnd = random.Random(11)
def w(p, n, mode=0o644):
    with open(p, "wb") as f:
        f.write(rnd.randbytes(n))
    os.chmod(p, mode)
os.makedirs(f"{m}/a/b/c/d")
os.makedirs(f"{m}/empty/dir")
os.makedirs(f"{m}/old/place")
for i, n in enumerate([0, 1, 4095, 65536, 1 << 20, (3 << 20) + 7, 300000]):
    w(f"{m}/a/f{i}", n)
w(f"{m}/a/b/c/d/deep", 12345, 0o600)
w(f"{m}/top", 777, 0o755)
# a striped layout (set while the file is empty), several objects
open(f"{m}/striped", "w").close()
os.setxattr(f"{m}/striped", "crushfs.layout",
            b"stripe_unit=65536 stripe_count=3 object_size=262144 pool=1")
with open(f"{m}/striped", "wb") as f:
    f.write(rnd.randbytes(1000000))
# a sparse file whose last byte is data
with open(f"{m}/sparse", "wb") as f:
    f.seek(5 << 20)
    f.write(b"end")
# the flusher writes the backtraces within 12 s: what follows changes
# backtraces already stored, so wait until every inode's is (the xattr
# "parent" of its object 0 on an OSD, backtrace.h)
def stored(ino):
    for p in glob.glob(f"{cl}/osd.*/current/*/{ino:x}.00000000"):
        try:
            if "user.crushfs.a.parent" in os.listxattr(p):
                return True
        except OSError:
            pass
    return False
inos = {os.lstat(os.path.join(d, n)).st_ino
        for d, ds, fs in os.walk(m) for n in ds + fs}
deadline = time.monotonic() + 60
while not all(stored(i) for i in inos):
    if time.monotonic() > deadline:
        sys.exit("FAIL: timed out after 60 s waiting for the flusher to "
                 "store the backtraces of %d inodes" % len(inos))
    time.sleep(0.1)  # the poll interval
# symlinks, hard links, a fifo, modes
os.symlink("a/b/c/d/deep", f"{m}/link-to-deep")
os.symlink("/nowhere/at/all", f"{m}/a/dangling")
os.link(f"{m}/a/f3", f"{m}/a/b/f3-again")
os.link(f"{m}/a/f3", f"{m}/hard3")
os.mkfifo(f"{m}/a/fifo", 0o640)
os.chmod(f"{m}/a/b", 0o750)
os.chmod(f"{m}/empty", 0o711)
# moves after the files were made: directories and files
w(f"{m}/old/place/moved", 4242)
os.rename(f"{m}/old/place", f"{m}/a/b/c/place")
os.rename(f"{m}/a/b/c/place/moved", f"{m}/a/moved-file")
os.rename(f"{m}/old", f"{m}/renamed-old")
# a file whose first link went away
w(f"{m}/first", 2000)
os.link(f"{m}/first", f"{m}/a/second")
os.unlink(f"{m}/first")
# ownership
os.chown(f"{m}/top", 1234, 5678)
PYEOF
# what must come back: every entry's type, mode, size, links, owner,
# symlink target; every file's checksum; which names share an inode
snapshot() {
	(cd "$1" && find . -mindepth 1 | LC_ALL=C sort | while read -r p; do
		stat -c '%n %F %a %s %h %u %g' "$p"
		[ -L "$p" ] && echo "  -> $(readlink "$p")"
		[ -f "$p" ] && [ ! -L "$p" ] && sha256sum "$p"
	done
	find . -type f -links +1 -printf '%i %p\n' | LC_ALL=C sort -k2 |
		awk '{ if (!($1 in g)) g[$1] = $2; print $2, "=", g[$1] }')
}
snapshot "$M" >"$T/before"
lay_before=$(py "import os; print(os.getxattr('$M/striped', 'crushfs.layout').decode())")
maxino=$(find "$M" -mindepth 1 -printf '%i\n' | sort -n | tail -1)
umount_fg "$M"
nobj=$("$CRUSHFS" --cluster "$CL" rados ls | wc -l)
[ "$nobj" -gt 20 ] || fail "only $nobj objects"
cp -a "$CL" "$T/pristine"
ok "a tree of $(wc -l <"$T/before") lines, $nobj objects, unmounted"

# refused: one line on stderr naming the rebuild, exit 1, nothing changed
refused() {
	local pat=$1 rc=0
	shift
	"$@" >"$T/r.out" 2>"$T/r.err" || rc=$?
	[ $rc -eq 1 ] || { cat "$T/r.out" "$T/r.err"; fail "exit $rc, not 1: $*"; }
	[ "$(wc -l <"$T/r.err")" = 1 ] || fail "not one line from '$*': $(cat "$T/r.err")"
	grep -Eq -- "$pat" "$T/r.err" || fail "'$*' said: $(cat "$T/r.err")"
	grep -q -- "fsck --rebuild-metadata" "$T/r.err" || fail "no pointer to the rebuild: $(cat "$T/r.err")"
	! grep -q "problem(s) found\|^clean" "$T/r.out" || fail "a verdict after all: $(cat "$T/r.out")"
}
objects_intact() {
	[ "$("$CRUSHFS" --cluster "$CL" rados ls | wc -l)" = "$nobj" ] ||
		fail "objects changed: $("$CRUSHFS" --cluster "$CL" rados ls | wc -l) of $nobj"
}
# rebuild, mount, compare everything; new files get new numbers
rebuild_and_compare() {
	local what=$1
	"$CRUSHFS" --cluster "$CL" fsck --rebuild-metadata >"$T/rb.out" 2>"$T/rb.err" ||
		{ cat "$T/rb.out" "$T/rb.err"; fail "rebuild ($what)"; }
	grep -q "^rebuild: " "$T/rb.err" || fail "no progress on stderr"
	grep -q "0 inode(s) without a backtrace" "$T/rb.out" || { cat "$T/rb.out"; fail "backtraces missing"; }
	mount_fg "$CL" "$M"
	snapshot "$M" >"$T/after"
	diff "$T/before" "$T/after" >&2 || fail "the rebuilt tree differs ($what)"
	lay=$(py "import os; print(os.getxattr('$M/striped', 'crushfs.layout').decode())")
	[ "$lay" = "$lay_before" ] || fail "layout $lay, was $lay_before"
	echo "new bytes" >"$M/new-file"
	[ "$(cat "$M/new-file")" = "new bytes" ] || fail "a new file reads old bytes"
	ino=$(stat -c %i "$M/new-file")
	[ "$ino" -gt "$maxino" ] || fail "new inode $ino reuses a number <= $maxino"
	rm "$M/new-file"
	umount_fg "$M"
	"$CRUSHFS" --cluster "$CL" fsck >"$T/fsck" || { cat "$T/fsck"; fail "fsck after the rebuild ($what)"; }
	grep -q '^clean$' "$T/fsck" || { cat "$T/fsck"; fail "not clean after the rebuild ($what)"; }
}
restore() {
	rm -rf "$CL"
	cp -a "$T/pristine" "$CL"
}

# ---- 1: the store deleted ----
rm -rf "$CL/mds"
mkdir -p "$M"
refused "metadata store missing, but the cluster holds a filesystem \([0-9]+ objects of files\); refusing to mount" \
	"$CRUSHFS" --cluster "$CL" mount "$M" -f
refused "refusing to mount" "$CRUSHFS" --cluster "$CL" mount "$M"
is_mounted "$M" && fail "mounted anyway"
[ ! -e "$CL/mds" ] || fail "the refused mount made a store"
refused "metadata store missing.*nothing checked" "$CRUSHFS" --cluster "$CL" fsck
refused "metadata store missing.*nothing checked" "$CRUSHFS" --cluster "$CL" fsck --dry-run
objects_intact
ok "store deleted: mount (foreground and background) and fsck refuse, no object touched"
rebuild_and_compare "store deleted"
ok "store deleted: --rebuild-metadata brings back every name, mode, link and byte"

# ---- 2: 4 KiB of garbage in the newest log ----
restore
log=$(ls "$CL"/mds/*.log | sort | tail -1)
head -c 4096 /dev/urandom | dd of="$log" conv=notrunc status=none
refused "metadata store (unreadable|empty|older than the filesystem)" \
	"$CRUSHFS" --cluster "$CL" mount "$M" -f
refused "metadata store (unreadable|empty|older than the filesystem)" \
	"$CRUSHFS" --cluster "$CL" fsck --dry-run
objects_intact
rebuild_and_compare "garbage at the start of the log"
ls -d "$CL"/mds.damaged-* >/dev/null || fail "the damaged store was not kept"
ok "garbage at the start of the newest log: refused; rebuilt, the damaged store kept aside"

# a long log (a session of many changes), garbage in its middle
restore
mount_fg "$CL" "$M"
mkdir "$M/many"
for i in $(seq 1 400); do : >"$M/many/file-with-a-long-name-$i"; done
rm -rf "$M/many"
umount_fg "$M"
log=$(ls "$CL"/mds/*.log | sort | tail -1)
sz=$(stat -c %s "$log")
[ "$sz" -gt 65536 ] || fail "log of $sz bytes only"
head -c 4096 /dev/urandom | dd of="$log" bs=4096 seek=$((sz / 8192)) conv=notrunc status=none
refused "metadata store unreadable \(Corruption" "$CRUSHFS" --cluster "$CL" mount "$M" -f
refused "metadata store unreadable \(Corruption" "$CRUSHFS" --cluster "$CL" fsck
rm -rf "$CL"/mds.damaged-*
rebuild_and_compare "garbage in the middle of a long log"
ok "garbage in the middle of a $sz-byte log: refused (RocksDB corruption), rebuilt"

# an older store (a backup put back): refused, not taken for the current one
restore
cp -a "$CL/mds" "$T/mds.old"
mount_fg "$CL" "$M"
echo later >"$M/later"
umount_fg "$M"
rm -rf "$CL/mds"
cp -a "$T/mds.old" "$CL/mds"
refused "metadata store older than the filesystem" "$CRUSHFS" --cluster "$CL" mount "$M" -f
ok "an older copy of the store: refused"

# ---- 3: fsck --dry-run on an unreadable store ----
restore
rm "$CL/mds/CURRENT"
refused "metadata store unreadable \(not a RocksDB store\); nothing checked" \
	"$CRUSHFS" --cluster "$CL" fsck --dry-run
grep -q "problem(s) found" "$T/r.out" && fail "a verdict on an unreadable store"
ok "fsck --dry-run on an unreadable store: an error, exit 1"

# ---- 4: a rule that places nothing ----
restore
for i in 0 1 2 3 4 5; do "$CRUSHFS" --cluster "$CL" osd out $i >/dev/null; done
rc=0
"$CRUSHFS" --cluster "$CL" fsck >"$T/fsck" 2>"$T/fsck.err" || rc=$?
[ $rc -eq 1 ] || { cat "$T/fsck"; fail "fsck with nothing placed: exit $rc"; }
grep -q '^clean$' "$T/fsck" && fail "clean although nothing was checked"
grep -q "NOT CHECKED: $nobj object(s)" "$T/fsck" || { cat "$T/fsck"; fail "unchecked objects not counted"; }
[ -s "$T/fsck.err" ] && fail "refusals on stderr: $(head -3 "$T/fsck.err")"
rc=0
"$CRUSHFS" --cluster "$CL" fsck --dry-run >"$T/fsck" 2>&1 || rc=$?
[ $rc -eq 1 ] || fail "fsck --dry-run with nothing placed: exit $rc"
for i in 0 1 2 3 4 5; do "$CRUSHFS" --cluster "$CL" osd in $i >/dev/null; done
"$CRUSHFS" --cluster "$CL" fsck >"$T/fsck" || { cat "$T/fsck"; fail "fsck with the OSDs back"; }
grep -q '^clean$' "$T/fsck" || fail "not clean with the OSDs back"
objects_intact
ok "a rule that places nothing: fsck reports what it cannot check, exit 1; clean once the OSDs are back"

# ---- 5: objects no inode owns go to lost+found, not away ----
# (the objects of a file copied under an inode number the store never
# handed out, without backtrace: what a store that lost records leaves)
restore
ghost=$(printf '%x' $((0x10000000000 + 0x123456)))
mount_fg "$CL" "$M"
srcino=$(printf '%x' "$(stat -c %i "$M/a/f5")")
cp "$M/a/f5" "$T/f5"
umount_fg "$M"
for o in $("$CRUSHFS" --cluster "$CL" rados ls | grep "^$srcino\."); do
	"$CRUSHFS" --cluster "$CL" rados get "$o" "$T/obj"
	"$CRUSHFS" --cluster "$CL" rados put "$ghost.${o#*.}" "$T/obj"
done
rc=0
"$CRUSHFS" --cluster "$CL" fsck --dry-run >"$T/fsck" || rc=$?
[ $rc -eq 1 ] || fail "dry run: exit $rc"
grep -q "of inode $ghost .*no such inode (no backtrace): would go to /lost+found/#$ghost" "$T/fsck" ||
	{ cat "$T/fsck"; fail "dry run did not find the ghost objects"; }
"$CRUSHFS" --cluster "$CL" fsck >"$T/fsck" || { cat "$T/fsck"; fail "fsck adopting"; }
grep -q "moved to /lost+found/#$ghost" "$T/fsck" || { cat "$T/fsck"; fail "not adopted"; }
"$CRUSHFS" --cluster "$CL" fsck >"$T/fsck" || { cat "$T/fsck"; fail "second fsck"; }
grep -q '^clean$' "$T/fsck" || { cat "$T/fsck"; fail "not clean after the adoption"; }
mount_fg "$CL" "$M"
cmp "$T/f5" "$M/lost+found/#$ghost" || fail "the adopted file's bytes"
echo x >"$M/after-adoption"
[ "$(stat -c %i "$M/after-adoption")" -gt $((0x10000000000 + 0x123456)) ] ||
	fail "a new inode number below the adopted one"
umount_fg "$M"
ok "objects of no inode: adopted as /lost+found/#$ghost with their bytes, never deleted"

# ---- 6: kill -9 before the lazy backtrace writes ----
restore
mount_fg "$CL" "$M"
mkdir -p "$M/crash/sub"
# sizes are durable with fsync only; the names and places below are not
# written to any backtrace yet when the daemon dies
py "
import os
for i in (1, 2, 3):
    fd = os.open('$M/crash/sub/c%d' % i, os.O_CREAT | os.O_WRONLY, 0o644)
    os.write(fd, os.urandom(i * 70000))
    os.fsync(fd)
    os.close(fd)
"
mv "$M/crash/sub/c1" "$M/crash/c1-moved"
mkdir "$M/crash/late" "$M/crash/sub/later"
mv "$M/crash/sub/c3" "$M/crash/late/c3"
kill -9 "$MPID"
reap "$MPID" "the daemon killed with -9" 137
fusermount3 -u -z "$M"
mount_fg "$CL" "$M"
(cd "$M/crash" && find . | LC_ALL=C sort; find . -type f | LC_ALL=C sort | xargs sha256sum) >"$T/crash.sums"
umount_fg "$M"
grep -q "backtrace(s) pending from before a crash" "$MLOG" ||
	fail "the remount did not pick up the pending backtraces"
rm -rf "$CL/mds"
"$CRUSHFS" --cluster "$CL" fsck --rebuild-metadata >"$T/rb.out" 2>&1 || { cat "$T/rb.out"; fail "rebuild after the crash"; }
grep -q "0 inode(s) without a backtrace" "$T/rb.out" || { cat "$T/rb.out"; fail "backtraces lost in the crash"; }
mount_fg "$CL" "$M"
(cd "$M/crash" && find . | LC_ALL=C sort; find . -type f | LC_ALL=C sort | xargs sha256sum) >"$T/crash.sums2"
diff "$T/crash.sums" "$T/crash.sums2" >&2 || fail "the crashed files after the rebuild"
umount_fg "$M"
ok "kill -9 before the lazy backtrace writes: the next mount writes them, a rebuild finds every name"

# ---- the rebuild refuses a mounted cluster ----
mount_fg "$CL" "$M"
rc=0
"$CRUSHFS" --cluster "$CL" fsck --rebuild-metadata --force >"$T/r.out" 2>"$T/r.err" || rc=$?
[ $rc -eq 1 ] && grep -q "is mounted at" "$T/r.err" || fail "rebuild while mounted: $rc $(cat "$T/r.err")"
umount_fg "$M"
ok "the rebuild refuses a mounted cluster"
