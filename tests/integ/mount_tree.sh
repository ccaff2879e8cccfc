#!/usr/bin/env bash
# Namespace through the kernel: directory trees, hard links and nlink,
# rename cases (replace, RENAME_NOREPLACE, RENAME_EXCHANGE, directories,
# into itself), symlinks, xattrs, unlinked-but-open files, errnos.
. "$(dirname "$0")/lib/mount_common.sh"

CL=$T/cluster
M=$T/mnt
mkcluster "$CL" --osd-size 1G --size 2 --min-size 1
mount_fg "$CL" "$M"

# ---- a directory tree, copied in, compared, removed ----
SRC=${CRUSHFS_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
mkdir "$T/ref"
cp -a "$SRC/placement" "$SRC/fs" "$SRC/tests" "$T/ref/"
mkdir -p "$T/ref/deep/a/b/c/d/e/f/g/h"
for i in $(seq 1 200); do echo "$i" >"$T/ref/deep/a/b/f$i"; done
cp -a "$T/ref" "$M/tree"
diff -r "$T/ref" "$M/tree" || fail "tree differs"
n1=$(find "$T/ref" | wc -l)
n2=$(find "$M/tree" | wc -l)
[ "$n1" = "$n2" ] || fail "find counts $n1 vs $n2"
# directory link counts: 2 + subdirectories
[ "$(stat -c %h "$M/tree/deep/a/b")" = 3 ] || fail "nlink of a dir"
[ "$(stat -c %h "$M/tree/deep/a/b/c/d/e/f/g/h")" = 2 ] || fail "nlink of a leaf dir"
ls -la "$M/tree/deep/a/b" >/dev/null
rm -rf "$M/tree"
[ -z "$(ls -A "$M")" ] || fail "rm -rf left something"
ok "tree of $n1 entries: copy, diff -r, rm -rf"

# ---- hard links ----
echo data >"$M/f"
ln "$M/f" "$M/g"
mkdir "$M/d"
ln "$M/f" "$M/d/h"
[ "$(stat -c %h "$M/f")" = 3 ] || fail "nlink 3"
[ "$(stat -c %i "$M/f")" = "$(stat -c %i "$M/d/h")" ] || fail "same inode"
rm "$M/f"
[ "$(stat -c %h "$M/g")" = 2 ] || fail "nlink 2 after rm"
[ "$(cat "$M/d/h")" = data ] || fail "data through a link"
ln "$M/d" "$M/dl" 2>/dev/null && fail "hard link to a directory"
ln "$M/g" "$M/d/h" 2>/dev/null && fail "link over an existing name"
rm "$M/g" "$M/d/h"
ok "hard links and nlink"

# ---- renames ----
echo one >"$M/r1"
echo two >"$M/r2"
mv "$M/r1" "$M/r2"
[ "$(cat "$M/r2")" = one ] && [ ! -e "$M/r1" ] || fail "rename over a file"
mkdir -p "$M/x/y" "$M/z"
mv "$M/x" "$M/z/"
[ -d "$M/z/x/y" ] || fail "rename a directory"
[ "$(stat -c %h "$M/z")" = 3 ] || fail "nlink of new parent"
mkdir "$M/empty"
mv -T "$M/z/x" "$M/empty" || fail "rename a dir over an empty dir"
[ -d "$M/empty/y" ] || fail "contents after dir-over-dir"
mkdir -p "$M/full/sub"
mv -T "$M/empty" "$M/full" 2>/dev/null && fail "rename over a non-empty dir"
mv "$M/empty" "$M/empty/y/" 2>/dev/null && fail "rename into itself"
py "
import ctypes, os, errno
libc = ctypes.CDLL(None, use_errno=True)
AT = -100
def renameat2(a, b, flags):
    r = libc.renameat2(AT, a.encode(), AT, b.encode(), flags)
    return 0 if r == 0 else ctypes.get_errno()
M = '$M'
open(M + '/a', 'w').write('A')
open(M + '/b', 'w').write('B')
assert renameat2(M + '/a', M + '/b', 1) == errno.EEXIST       # NOREPLACE
assert renameat2(M + '/a', M + '/c', 1) == 0
assert renameat2(M + '/c', M + '/b', 2) == 0                  # EXCHANGE
assert open(M + '/c').read() == 'B' and open(M + '/b').read() == 'A'
assert renameat2(M + '/c', M + '/nope', 2) == errno.ENOENT
# exchange a file and a directory across directories
os.mkdir(M + '/ex')
assert renameat2(M + '/c', M + '/ex', 2) == 0
assert os.path.isdir(M + '/c') and open(M + '/ex').read() == 'B'
assert os.stat(M).st_nlink == 2 + sum(1 for e in os.scandir(M) if e.is_dir(follow_symlinks=False))
# file over directory, directory over file
try:
    os.rename(M + '/b', M + '/c'); raise SystemExit('file over dir')
except IsADirectoryError: pass
try:
    os.rename(M + '/c', M + '/b'); raise SystemExit('dir over file')
except NotADirectoryError: pass
# two names of one file
os.link(M + '/b', M + '/b2')
os.rename(M + '/b', M + '/b2')
assert os.path.exists(M + '/b') and os.path.exists(M + '/b2')
for n in ('b', 'b2', 'ex'): os.unlink(M + '/' + n)
os.rmdir(M + '/c')
" || fail "rename cases"
ok "renames: replace, dirs, NOREPLACE, EXCHANGE, into itself, type errors"

# ---- symlinks ----
ln -s r2 "$M/sl"
ln -s /no/where "$M/dangling"
[ "$(readlink "$M/sl")" = r2 ] && [ "$(cat "$M/sl")" = one ] || fail "symlink"
[ "$(stat -c %s "$M/dangling")" = 9 ] || fail "symlink size"
[ ! -e "$M/dangling" ] || fail "dangling symlink resolves"
ok "symlinks"

# ---- xattrs ----
py "
import os, errno
f = '$M/r2'
os.setxattr(f, 'user.a', b'1')
os.setxattr(f, 'user.b', b'\x00binary\xff')
assert sorted(os.listxattr(f)) == ['user.a', 'user.b']
assert os.getxattr(f, 'user.b') == b'\x00binary\xff'
try: os.setxattr(f, 'user.a', b'2', os.XATTR_CREATE); raise SystemExit('XATTR_CREATE')
except FileExistsError: pass
try: os.setxattr(f, 'user.c', b'2', os.XATTR_REPLACE); raise SystemExit('XATTR_REPLACE')
except OSError as e: assert e.errno == errno.ENODATA
os.setxattr(f, 'user.a', b'x' * 65536)
assert len(os.getxattr(f, 'user.a')) == 65536
os.removexattr(f, 'user.a')
try: os.getxattr(f, 'user.a'); raise SystemExit('removed')
except OSError as e: assert e.errno == errno.ENODATA
d = '$M/full'
os.setxattr(d, 'user.dir', b'yes')
assert os.getxattr(d, 'user.dir') == b'yes'
os.setxattr(f, 'trusted.t', b'root only')
assert os.getxattr(f, 'trusted.t') == b'root only'
assert os.getxattr(f, 'crushfs.layout.object_size') == b'4194304'
" || fail "xattrs"
ok "xattrs: set/get/list/remove, CREATE/REPLACE, 64 KiB values, dirs"

# ---- layouts are bounded as CephFS bounds them (EINVAL), so no layout
# can make one small file cost the daemon minutes ----
py "
import errno, os, time
f = '$M/lay'
open(f, 'w').close()
for name, v in [('stripe_count', b'4294967295'), ('stripe_count', b'0'),
                ('stripe_count', b'65537'), ('stripe_unit', b'4096'),
                ('object_size', b'2147483648'), ('stripe_unit', b'3145728')]:
    try:
        os.setxattr(f, 'crushfs.layout.' + name, v)
        raise SystemExit('%s=%s accepted' % (name, v))
    except OSError as e:
        assert e.errno == errno.EINVAL, (name, v, e)
assert os.getxattr(f, 'crushfs.layout') == b'stripe_unit=4194304 stripe_count=1 object_size=4194304 pool=1'
os.setxattr(f, 'crushfs.layout.stripe_count', b'65536')
t = time.time()
fd = os.open(f, os.O_WRONLY)
os.write(fd, b'ab')
os.fsync(fd)
os.close(fd)
os.unlink(f)
took = time.time() - t
assert took < 10, 'a 2-byte file with the largest stripe_count took %.1f s' % took
print('largest stripe_count: write+fsync+unlink of 2 bytes in %.2f s' % took)
" || fail "layout bounds"
ok "layout xattrs: out-of-bounds values EINVAL, the largest stripe_count stays cheap"

# ---- unlinked but open: data stays until the last close ----
py "
import os
p = '$M/tmpfile'
fd = os.open(p, os.O_CREAT | os.O_RDWR, 0o600)
os.write(fd, b'x' * 3000000)
os.unlink(p)
assert not os.path.exists(p)
os.lseek(fd, 0, 0)
assert os.read(fd, 3000000) == b'x' * 3000000
assert os.fstat(fd).st_nlink == 0
os.write(fd, b'more')
os.close(fd)
" || fail "unlinked open file"
ok "unlinked-but-open file keeps its data"

# ---- errnos ----
py "
import os, errno
M = '$M'
def err(f, *a):
    try: f(*a)
    except OSError as e: return e.errno
    return 0
assert err(os.mkdir, M + '/full') == errno.EEXIST
assert err(os.rmdir, M + '/full') == errno.ENOTEMPTY
assert err(os.rmdir, M + '/r2') == errno.ENOTDIR
assert err(os.unlink, M + '/full') == errno.EISDIR
assert err(os.stat, M + '/nope') == errno.ENOENT
assert err(os.stat, M + '/r2/x') == errno.ENOTDIR
assert err(os.open, M + '/' + 'n' * 256, os.O_CREAT | os.O_WRONLY) == errno.ENAMETOOLONG
assert err(os.open, M + '/r2', os.O_CREAT | os.O_EXCL | os.O_WRONLY) == errno.EEXIST
os.mkfifo(M + '/fifo')
import stat
assert stat.S_ISFIFO(os.stat(M + '/fifo').st_mode)
os.unlink(M + '/fifo')
" || fail "errnos"
ok "errnos: EEXIST ENOTEMPTY ENOTDIR EISDIR ENOENT ENAMETOOLONG, mkfifo"

# ---- times ----
touch -d '2001-02-03 04:05:06.123456789' "$M/r2"
[ "$(stat -c %y "$M/r2")" = "2001-02-03 04:05:06.123456789 +0000" ] ||
	[ "$(TZ=UTC stat -c %y "$M/r2" | cut -c1-29)" = "$(TZ=UTC date -d '2001-02-03 04:05:06.123456789' '+%Y-%m-%d %H:%M:%S.%N')" ] ||
	fail "nanosecond mtime: $(stat -c %y "$M/r2")"
ok "nanosecond times"

umount_fg "$M"
"$CRUSHFS" --cluster "$CL" fsck >"$T/fsck" || { cat "$T/fsck"; fail "fsck"; }
grep -q '^clean$' "$T/fsck" || { cat "$T/fsck"; fail "fsck not clean"; }
ok "fsck clean after all that"
