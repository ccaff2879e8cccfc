#!/usr/bin/env bash
# Crash safety: kill -9 of the daemon in the middle of a copy, with a file
# unlinked while open.  After a remount the metadata is consistent and
# every file fsync'ed before the kill is intact, and the cut-short copy is
# a clean prefix (its size recovered from its objects, see
# mount_crash_extend.sh); `crushfs fsck` then finds and repairs what the
# crash left (copies that differ) and usage drift, reports it, and a
# second fsck finds the filesystem clean.
. "$(dirname "$0")/lib/mount_common.sh"

CL=$T/cluster
M=$T/mnt
mkcluster "$CL" --osd-size 1G
mount_fg "$CL" "$M"

# files made durable with fsync, and their checksums
mkdir "$M/safe"
"$PY" - "$M/safe" "$T/sums" <<'PYEOF'
import hashlib, os, random, sys
d, sums = sys.argv[1], sys.argv[2]
rnd = random.Random(7)
with open(sums, "w") as out:
    for i in range(30):
        data = rnd.randbytes(rnd.choice([0, 1, 4095, 65536, 1 << 20, 5 << 20 | 3]))
        p = os.path.join(d, f"s{i}")
        fd = os.open(p, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o644)
        os.write(fd, data)
        os.fsync(fd)
        os.close(fd)
        out.write(f"{hashlib.sha256(data).hexdigest()}  {p}\n")
    dfd = os.open(d, os.O_RDONLY)
    os.fsync(dfd)
    os.close(dfd)
PYEOF
ok "30 files written and fsync'ed"

# a file unlinked while a process holds it open
"$PY" -c "
import os, time
fd = os.open('$M/ghost', os.O_CREAT | os.O_RDWR, 0o600)
os.write(fd, b'g' * 3000000)
os.unlink('$M/ghost')
open('$T/ghost.ready', 'w').close()
time.sleep(60)  # not a wait: holds the file open until killed below
" 2>/dev/null &
GHOST=$!
ghost_ready() { [ -e "$T/ghost.ready" ]; }
wait_for "the ghost file to be open and unlinked" 30 ghost_ready

# the copy that gets cut short
head -c 300M /dev/urandom >"$T/big"
dd if="$T/big" of="$M/big" bs=1M status=none 2>/dev/null &
DD=$!
# the kill comes in the middle of the copy: 40 MiB in
wait_for -i 0.05 "the copy to pass 40 MiB" 60 size_over "$M/big" $((40 << 20))
kill -9 "$MPID"
reap "$MPID" "the daemon killed with -9" 137
# dd fails on the lost mount (1); 0 only if it was already done
reap "$DD" "the dd cut short" 0 1
kill "$GHOST"
reap "$GHOST" "the ghost file's holder" 143
fusermount3 -u -z "$M"
ok "daemon killed with -9 in the middle of a 300 MiB copy"

# remount: consistent metadata, fsync'ed files intact
mount_fg "$CL" "$M"
(cd / && sha256sum -c --quiet "$T/sums") || fail "an fsync'ed file changed"
find "$M" >/dev/null || fail "find after the crash"
ls -la "$M" "$M/safe" >/dev/null
sz=$(stat -c %s "$M/big")
cmp -n "$sz" "$T/big" "$M/big" || fail "the cut-short copy is not a prefix of the source"
echo after >"$M/after-crash"
cmp <(echo after) "$M/after-crash" || fail "writing after the crash"
umount_fg "$M"
ok "remount: fsync'ed files intact, big has a clean prefix of $sz bytes"

# usage drift on top: the accounting of one OSD is wrong
"$PY" -c "
import json
p = '$CL/usage.json'
u = json.load(open(p))
e = u['osds'].setdefault('3', {'used': 0, 'objects': 0})
e['used'] += 123456789
json.dump(u, open(p, 'w'))
"
"$CRUSHFS" --cluster "$CL" fsck >"$T/fsck1" || { cat "$T/fsck1"; fail "fsck did not repair"; }
cat "$T/fsck1"
grep -q "usage drift 1 OSD" "$T/fsck1" || fail "fsck missed the usage drift"
grep -q "repair(s) made" "$T/fsck1" || fail "fsck made no repairs"
"$CRUSHFS" --cluster "$CL" fsck >"$T/fsck2" || { cat "$T/fsck2"; fail "second fsck"; }
grep -q '^clean$' "$T/fsck2" || { cat "$T/fsck2"; fail "not clean after the repairs"; }
ok "fsck repaired, a second fsck finds it clean"

mount_fg "$CL" "$M"
(cd / && sha256sum -c --quiet "$T/sums") || fail "an fsync'ed file changed after fsck"
sz2=$(stat -c %s "$M/big")
cmp -n "$sz2" "$T/big" "$M/big" || fail "big after fsck"
umount_fg "$M"
ok "after fsck: fsync'ed files intact"
