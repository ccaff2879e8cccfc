#!/usr/bin/env bash
# The disk under the cluster fills before its OSDs (issue 21): six 1 GiB
# OSDs on a 200 MiB tmpfs.  Health warns before anything is written
# (OSD_DISK_OVERCOMMITTED); copying 4 MiB files until the disk is at its
# failsafe margin gives ENOSPC and never EIO, the refusal names the
# filesystem (OSD_TOO_FULL_FOR_WRITE); every file written reads back; a
# delete and the purge of a file unlinked while open still work at the
# margin and give the space back; nothing is unfound, and status, `rados
# ls` and fsck agree on the objects after a remount.
. "$(dirname "$0")/lib/mount_common.sh"

if [ "$(id -u)" -ne 0 ]; then
	echo "SKIP: mounting a tmpfs under the cluster needs root"
	exit 77
fi
DISK=$(mktemp -d /tmp/crushfs-disk.XXXXXX)
mount -t tmpfs -o size=200M tmpfs "$DISK" || {
	rmdir "$DISK"
	echo "SKIP: cannot mount a tmpfs here"
	exit 77
}
# the tmpfs goes once the daemons that use it are gone
AFTER+=("umount -l '$DISK'; rmdir '$DISK'")

CL=$DISK/cluster
M=$T/mnt
mkcluster "$CL" --osds 6 --hosts 3 --osd-size 1G --pg-num 32

"$CRUSHFS" --cluster "$CL" health detail >"$T/h0" || fail "health detail"
grep -q "OSD_DISK_OVERCOMMITTED" "$T/h0" || { cat "$T/h0"; fail "no OSD_DISK_OVERCOMMITTED"; }
grep -q "$CL: osd.0, osd.1, osd.2, osd.3, osd.4, osd.5 may still take" "$T/h0" ||
	{ cat "$T/h0"; fail "the warning does not name the filesystem and its OSDs"; }
ok "health warns before a byte is written: $(sed -n 3p "$T/h0")"

mount_fg "$CL" "$M"
head -c 4M /dev/urandom >"$T/src"

# df of the mount promises what the disk holds, not the OSDs' 6 GiB
mavail=$(( $(stat -f -c '%a * %S' "$M") ))
davail=$(( $(stat -f -c '%a * %S' "$DISK") ))
[ "$mavail" -le $((davail / 3)) ] ||
	fail "df of the mount says $mavail bytes free, the disk holds $davail for 3 copies"
ok "df of the mount: $((mavail >> 20)) MiB free (the disk: $((davail >> 20)) MiB for 3 copies)"

# write 4 MiB files (one object each) until well past the margin; every
# errno is recorded
py "
import errno, os, subprocess, sys
src = open('$T/src', 'rb').read()
res = []
for i in range(40):
    p = '$M/f%d' % i
    try:
        fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            done = 0
            while done < len(src):  # a short write, then its error
                done += os.write(fd, src[done:])
            os.fsync(fd)
        finally:
            os.close(fd)
        res.append('ok')
    except OSError as e:
        res.append(errno.errorcode.get(e.errno, str(e.errno)))
        if len(res) - res.count('ok') == 1:
            # while the refused write's part is still there
            with open('$T/h1', 'w') as h:
                subprocess.run(['$CRUSHFS', '--cluster', '$CL', 'health',
                                'detail'], stdout=h, check=True)
        try:
            os.unlink(p)
        except OSError as e2:
            print('unlink of a failed file:', e2, file=sys.stderr)
            sys.exit(1)
open('$T/res', 'w').write('\n'.join(res) + '\n')
"
nok=$(grep -c '^ok$' "$T/res" || true)
nspc=$(grep -c '^ENOSPC$' "$T/res" || true)
[ "$nok" -gt 0 ] || fail "no file could be written"
[ "$nspc" -gt 0 ] || fail "40 x 4 MiB fit on a 200 MiB disk?"
if grep -v -e '^ok$' -e '^ENOSPC$' "$T/res" | sort | uniq -c | grep .; then
	fail "errors other than ENOSPC"
fi
ok "$nok files written, $nspc refused with ENOSPC, no other error"

for i in $(seq 0 39); do
	[ -e "$M/f$i" ] || continue
	cmp -s "$T/src" "$M/f$i" || fail "f$i does not read back"
done
ok "every written file reads back"

grep -q "OSD_TOO_FULL_FOR_WRITE" "$T/h1" || { cat "$T/h1"; fail "the refusal is not in health"; }
grep -q "refused a write to pg .* the filesystem under it ($CL)" "$T/h1" ||
	{ cat "$T/h1"; fail "the refusal does not name the filesystem"; }
grep -q "unfound" "$T/h1" && { cat "$T/h1"; fail "objects unfound after refused writes"; }
ok "health named the disk behind the first ENOSPC"

# at the margin: a purge (unlinked while open) and a delete
first=$(grep -n '^ok$' "$T/res" | head -1 | cut -d: -f1)
second=$(grep -n '^ok$' "$T/res" | sed -n 2p | cut -d: -f1)
[ -n "$second" ] || fail "need two written files"
py "
import os
fd = os.open('$M/f$((first - 1))', os.O_RDONLY)
os.unlink('$M/f$((first - 1))')
assert len(os.read(fd, 4096)) == 4096
os.close(fd)
"
rm "$M/f$((second - 1))" || fail "rm at the margin"
ok "a purge and a delete work at the margin"

# the space is back: a new 4 MiB file fits again
cp "$T/src" "$M/again" || fail "no room after two 4 MiB files were removed"
cmp -s "$T/src" "$M/again" || fail "the new file does not read back"
ok "space back after rm: a new file written"

files=$(find "$M" -maxdepth 1 -type f | wc -l)
umount_fg "$M"

"$CRUSHFS" --cluster "$CL" -f json status >"$T/st.json"
objs=$(py "import json; print(json.load(open('$T/st.json'))['pgmap']['num_objects'])")
[ "$objs" -eq "$files" ] || { cat "$T/st.json"; fail "status says $objs objects for $files one-object files"; }
listed=$("$CRUSHFS" --cluster "$CL" rados ls | wc -l)
[ "$listed" -eq "$files" ] || fail "rados ls lists $listed objects for $files files"
"$CRUSHFS" --cluster "$CL" status >"$T/st"
grep -q unfound "$T/st" && { cat "$T/st"; fail "status shows unfound objects"; }
"$CRUSHFS" --cluster "$CL" fsck --dry-run >"$T/fsck" || { cat "$T/fsck"; fail "fsck is not clean"; }
tail -n 1 "$T/fsck" | grep -qx clean || { cat "$T/fsck"; fail "fsck verdict"; }
ok "after a remount: status, rados ls and fsck agree ($files objects, clean)"

# A crash can leave removed objects' files in the OSDs' spare/ folders
# still full (osdsim/spares.c empties them in the background); they must
# never make the disk look full: a write that finds no room empties them
# first.  Two files go, then spares a crash left take the disk under its
# 64 MiB margin; a new 4 MiB file must still be written.
mount_fg "$CL" "$M"
for f in $(find "$M" -maxdepth 1 -name 'f*' -type f | head -2); do
	rm "$f" || fail "rm $f"
done
umount_fg "$M"
avail=$(( $(stat -f -c '%a * %S' "$DISK") ))
[ "$avail" -ge $(( (64 + 24) << 20 )) ] || fail "setup: only $((avail >> 20)) MiB free on the disk"
each=$(( (avail - (60 << 20)) / 6 ))
for i in 0 1 2 3 4 5; do
	mkdir -p "$CL/osd.$i/spare"
	head -c "$each" /dev/urandom >"$CL/osd.$i/spare/7f00000$i"
done
"$CRUSHFS" --cluster "$CL" health detail >"$T/h2" || true
grep -q "writes stop at" "$T/h2" || { cat "$T/h2"; fail "the full spares did not take the disk to its margin"; }
mount_fg "$CL" "$M"
cp "$T/src" "$M/after-crash" || fail "full spares a crash left kept a 4 MiB file out"
cmp -s "$T/src" "$M/after-crash" || fail "the file written past the spares does not read back"
umount_fg "$M"
full=$(find "$CL"/osd.*/spare -type f -size +0 | wc -l)
[ "$full" -eq 0 ] || fail "$full spares still hold bytes after the write that needed their room"
ok "spares a crash left full are emptied when a write needs their room"
