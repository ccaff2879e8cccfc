#!/usr/bin/env bash
# fallocate through the mount: every mode FUSE passes (fallocate(1) -l,
# -n, -p, -z), real space taken (osd df moves, and an allocation that
# would push an OSD over full_ratio fails with "No space left on device"
# changing nothing, as a write does), space preallocated past the end
# (KEEP_SIZE) freed by rm and by a truncate, fsck clean with
# preallocations in place, and df -i counting the inodes.
. "$(dirname "$0")/lib/mount_common.sh"

command -v fallocate >/dev/null || { echo "SKIP: fallocate(1) missing (util-linux)"; exit 77; }
CL=$T/cluster
M=$T/mnt
mkcluster "$CL" --osds 6 --hosts 3 --osd-size 512M --size 2 --min-size 1 --pg-num 32 --object-size 1M
mount_fg "$CL" "$M"

pool_used() {
	"$CRUSHFS" --cluster "$CL" -f json osd df |
		"$PY" -c "import json,sys; print(sum(n['bytes_used'] for n in json.load(sys.stdin)['nodes']))"
}
osd_used() {
	"$CRUSHFS" --cluster "$CL" -f json osd df |
		"$PY" -c "import json,sys; print([n['bytes_used'] for n in json.load(sys.stdin)['nodes'] if n['id']==$1][0])"
}
acting_has() { # OBJECT OSD
	"$CRUSHFS" --cluster "$CL" -f json osd map "$1" |
		"$PY" -c "import json,sys; sys.exit(0 if $2 in json.load(sys.stdin)['acting'] else 1)"
}

# mode 0: size and space (2 copies of 8 MiB)
u0=$(pool_used)
fallocate -l 8M "$M/a"
[ "$(stat -c %s "$M/a")" = $((8 << 20)) ] || fail "fallocate -l 8M: size $(stat -c %s "$M/a")"
u1=$(pool_used)
[ $((u1 - u0)) -eq $((16 << 20)) ] || fail "fallocate -l 8M took $((u1 - u0)) bytes, not 16 MiB"
cmp -n $((8 << 20)) "$M/a" /dev/zero || fail "an allocated file does not read zeros"
ok "fallocate -l 8M: 8 MiB of zeros, 2 x 8 MiB taken"

# KEEP_SIZE past the end: space taken, size kept; rm frees all of it
printf hello >"$M/k"
fallocate -n -l 6M "$M/k"
[ "$(stat -c %s "$M/k")" = 5 ] || fail "fallocate -n changed the size"
u2=$(pool_used)
[ $((u2 - u1)) -ge $((12 << 20)) ] || fail "fallocate -n -l 6M took only $((u2 - u1)) bytes"
[ "$(cat "$M/k")" = hello ] || fail "fallocate -n changed the data"
rm "$M/k"
# the purge of its objects runs in the background
purged() { u3=$(pool_used) && [ "$u3" -eq "$u1" ]; }
wait_for "rm to free the preallocated bytes" 30 purged ||
	fail "rm left $((u3 - u1)) preallocated bytes behind"
ok "fallocate -n: space past the end taken, size kept; rm frees it"

# truncate to the size drops what lies past it; truncate up keeps it
printf hello >"$M/t"
fallocate -n -o 0 -l 4M "$M/t"
truncate -s 1M "$M/t"
u4=$(pool_used)
[ $((u4 - u1)) -ge $((8 << 20)) ] || fail "truncate up dropped the preallocation"
truncate -s 3 "$M/t"
u5=$(pool_used)
[ $((u5 - u1)) -eq 6 ] || fail "truncate down left $((u5 - u1)) bytes (want 2 x 3)"
[ "$(cat "$M/t")" = hel ] || fail "truncate down changed the data"
ok "truncate drops the preallocation past the new size"

# punch and zero, compared with the same on a plain file
head -c 3M /dev/urandom >"$T/ref"
cp "$T/ref" "$M/p"
for f in "$T/ref" "$M/p"; do
	fallocate -p -o 1M -l 1M "$f"       # a whole object: removed
	fallocate -p -o 100 -l 1000 "$f"    # inside an object: zeros
	fallocate -z -o 2500K -l 1M "$f"    # zeros, grows the file
	fallocate -z -n -o 5M -l 1M "$f"    # zeros past the end, size kept
done
cmp "$T/ref" "$M/p" || fail "punch/zero differ from a plain file"
[ "$(stat -c %s "$M/p")" = "$(stat -c %s "$T/ref")" ] || fail "sizes differ after punch/zero"
obj1=$(printf '%x.%08x' "$(stat -c %i "$M/p")" 1)
obj2=$(printf '%x.%08x' "$(stat -c %i "$M/p")" 2)
"$CRUSHFS" --cluster "$CL" rados stat "$obj2" >/dev/null 2>&1 || fail "rados stat of an object that exists fails"
"$CRUSHFS" --cluster "$CL" rados stat "$obj1" >/dev/null 2>&1 && fail "the punched object $obj1 still exists"
ok "punch and zero agree with a plain file; a punched object is removed"

# a full OSD: the allocation is refused, nothing changes.  osd.0 gets
# room for 768 KiB more before full_ratio (0.95).
used0=$(osd_used 0)
cap=$("$PY" -c "print(int(($used0 + (768 << 10)) / 0.95) + 1)")
"$CRUSHFS" --cluster "$CL" osd set-capacity 0 "$cap" >/dev/null || fail "osd set-capacity"
n=0
for i in $(seq 1 40); do
	: >"$M/x$i"
	obj=$(printf '%x.%08x' "$(stat -c %i "$M/x$i")" 0)
	acting_has "$obj" 0 || continue
	# object 0 of x$i lands on osd.0: 512 KiB fit, 1 MiB does not
	fallocate -l 512K "$M/x$i" || fail "512 KiB on osd.0 refused"
	for opt in "-n" "-z" "-z -n" ""; do
		if fallocate $opt -o 0 -l 1M "$M/x$i" 2>"$T/err"; then
			fail "fallocate $opt over full_ratio succeeded"
		fi
		grep -q "No space left on device" "$T/err" || { cat "$T/err"; fail "fallocate $opt: not ENOSPC"; }
	done
	[ "$(stat -c %s "$M/x$i")" = $((512 << 10)) ] || fail "a refused fallocate changed the size"
	cmp -n $((512 << 10)) "$M/x$i" /dev/zero || fail "a refused fallocate changed the data"
	[ "$(osd_used 0)" -eq $((used0 + (512 << 10))) ] || fail "a refused fallocate changed osd.0's usage"
	n=1
	break
done
[ $n -eq 1 ] || fail "no file with an object on osd.0 among 40"
"$CRUSHFS" --cluster "$CL" osd set-capacity 0 512M >/dev/null
ok "an allocation over full_ratio fails with ENOSPC, changing nothing"

# df -i: the inodes in use, counted as they come and go
iused() { df --output=iused "$M" | tail -1 | tr -d ' '; }
i0=$(iused)
mkdir "$M/many"
for i in $(seq 1 50); do : >"$M/many/f$i"; done
ln -s f1 "$M/many/sl"
ln "$M/many/f1" "$M/many/hl" # no new inode
[ "$(iused)" -eq $((i0 + 52)) ] || fail "df -i: $(iused) used, want $((i0 + 52))"
rm "$M/many/f1" "$M/many/f2" "$M/many/f3" # f1 lives on as hl
# the inode goes when the kernel forgets it (soon after the unlink)
forgotten() { [ "$(iused)" -eq $((i0 + 50)) ]; }
wait_for "df -i to count the removed inodes out" 30 forgotten ||
	fail "df -i after rm: $(iused), want $((i0 + 50))"
ok "df -i counts inodes: $(df --output=itotal,iused,iavail "$M" | tail -1)"

umount_fg "$M"
mount_fg "$CL" "$M"
[ "$(iused)" -eq $((i0 + 50)) ] || fail "df -i after a remount: $(iused)"
cmp "$T/ref" "$M/p" || fail "contents differ after a remount"
fallocate -n -o 4M -l 2M "$M/p" # a preallocation left in place for fsck
umount_fg "$M"
"$CRUSHFS" --cluster "$CL" fsck >"$T/fsck" || { cat "$T/fsck"; fail "fsck"; }
grep -q '^clean$' "$T/fsck" || { cat "$T/fsck"; fail "fsck not clean"; }
ok "same after a remount; fsck clean with preallocations in place"
