#!/usr/bin/env bash
# `crushfs umount` returns only when the daemon is gone, so the cluster is
# free for the next command (issue 8 item 7: umount returned while the
# daemon was still purging and `fsck` was refused as "mounted").  The
# daemon is kept busy after the kernel unmount by what it must finish
# first: an admin command in progress (a `rados put NAME -` whose input
# arrives late) and a removed sparse file whose objects it purges.
# Right after umount returns, an exclusive command (fsck) must work with
# no lock wait at all.  --timeout says plainly that the daemon is still
# at work and exits 1; a foreground daemon that nobody reaped (a zombie)
# counts as gone; fusermount3 -u keeps working (mount_basic.sh).
. "$(dirname "$0")/lib/mount_common.sh"

CL=$T/cl
M=$T/mnt
mkcluster "$CL" --osd-size 512M --pg-num 32
mkdir -p "$M"
C=("$CRUSHFS" --cluster "$CL")
head -c 1048576 /dev/urandom >"$T/late"

# fsck_now: fsck of the cluster, not waiting for its lock at all
fsck_now() {
	CRUSHFS_LOCK_WAIT_MS=0 "${C[@]}" fsck >"$T/fsck.out" 2>"$T/fsck.err" ||
		fail "fsck right after umount: $(cat "$T/fsck.err" "$T/fsck.out")"
	tail -1 "$T/fsck.out" | grep -qx clean || fail "fsck: $(cat "$T/fsck.out")"
}

daemon_mount() {
	"${C[@]}" mount "$M" || fail "crushfs mount"
	MOUNTS+=("$M")
	is_mounted "$M" || fail "not mounted"
}

# put_pending NAME: a `rados put NAME -` in the daemon whose input (the
# fifo, open on fd 7 here) comes only when the test says so.  Sets PUT.
put_pending() {
	rm -f "$T/fifo"
	mkfifo "$T/fifo"
	"${C[@]}" rados put "$1" - <"$T/fifo" &
	PUT=$!
	exec 7>"$T/fifo"
	wait_for "the put of $1 to reach the daemon" 30 \
		grep -q "admin socket: rados put $1 -" "$CL/crushfs.log"
}

# 1. An admin command in progress: the daemon leaves the mount at once but
# must finish the put before it can exit; umount waits, with progress.
daemon_mount
put_pending late
"$CRUSHFS" umount "$M" 2>"$T/umount.err" 7>&- &
UM=$!
# its first progress line (after 3 s of waiting) shows umount still waits
# for the daemon, which waits for the put
progress_line() {
	grep -Eq '^crushfs: umount: waiting for crushfs daemon \(pid [0-9]+\) to finish: [0-9]+ s; its log: waiting for 1 admin socket command\(s\) to finish$' \
		"$T/umount.err"
}
wait_for "umount's progress line" 60 progress_line
kill -0 "$UM" 2>/dev/null || fail "umount returned while the daemon was still at work"
! is_mounted "$M" || fail "still mounted while umount waits"
cat "$T/late" >&7
exec 7>&-
wait "$UM" || fail "crushfs umount: $(cat "$T/umount.err")"
fsck_now
wait "$PUT" || fail "the put in progress at umount failed"
progress_line || fail "no progress line: $(cat "$T/umount.err")"
"${C[@]}" rados get late - | cmp - "$T/late" || fail "the put finished during umount lost data"
ok "umount waits for an admin command in progress, with progress; fsck right after: clean"

# 2. A big sparse file removed just before the unmount: its purge is the
# daemon's last work.
daemon_mount
printf 'abc' >"$M/sparse"
truncate -s 1T "$M/sparse"
printf 'xyz' | dd of="$M/sparse" bs=1 seek=$((1 << 39)) conv=notrunc status=none
keep=$(head -c 100000 /dev/urandom | tee "$T/keep" | wc -c)
cp "$T/keep" "$M/keep"
rm "$M/sparse"
t0=$(date +%s.%N)
"$CRUSHFS" umount "$M" 2>"$T/umount.err" || fail "crushfs umount: $(cat "$T/umount.err")"
t1=$(date +%s.%N)
fsck_now
took=$(py "print(round($t1 - $t0, 1))")
grep -q '^ *orphan objects 0 ' "$T/fsck.out" ||
	fail "objects of the removed file left behind: $(cat "$T/fsck.out")"
daemon_mount
cmp "$T/keep" "$M/keep" || fail "keep ($keep bytes) after remount"
[ ! -e "$M/sparse" ] || fail "the removed sparse file is back"
"$CRUSHFS" umount "$M" || fail "umount 3"
fsck_now
ok "a 1 TiB sparse file removed just before umount: umount $took s, fsck right after: clean"

# 3. --timeout: said plainly, exit 1, the mount gone all the same; the
# cluster is free once the daemon is done.
daemon_mount
put_pending late2
rc=0
t0=$(date +%s.%N)
"$CRUSHFS" umount --timeout 1 "$M" 2>"$T/umount.err" 7>&- || rc=$?
t1=$(date +%s.%N)
[ $rc = 1 ] || fail "umount --timeout 1 with work pending: exit $rc"
[ "$(wc -l <"$T/umount.err")" = 1 ] || fail "umount --timeout: $(cat "$T/umount.err")"
grep -Eq "^crushfs: umount: $M is unmounted, but its daemon \(pid [0-9]+\) is still finishing after 1 s; cluster .*/cl stays busy until it exits \(see .*/crushfs.log\)$" \
	"$T/umount.err" || fail "umount --timeout: $(cat "$T/umount.err")"
py "import sys; sys.exit(0 if $t1 - $t0 < 5 else 1)" || fail "umount --timeout 1 took too long"
! is_mounted "$M" || fail "still mounted after umount --timeout"
pid=$(sed -E 's/.*pid ([0-9]+).*/\1/' "$T/umount.err")
kill -0 "$pid" 2>/dev/null || fail "the daemon said to be finishing is not there"
cat "$T/late" >&7
exec 7>&-
wait "$PUT" || fail "the put in progress at umount --timeout failed"
wait_for "daemon $pid to exit once its put is done" 30 proc_gone "$pid"
fsck_now
"${C[@]}" rados get late2 - | cmp - "$T/late" || fail "late2"
ok "umount --timeout 1: one line saying the daemon is still finishing, exit 1"
"$CRUSHFS" umount --timeout x "$M" 2>"$T/e" && fail "--timeout x accepted"
grep -q "timeout" "$T/e" || fail "--timeout x: $(cat "$T/e")"

# 4. A foreground daemon is the test shell's child: once it exits it is a
# zombie until reaped, and holds nothing; umount must not wait for the
# reaping.
mount_fg "$CL" "$M"
t0=$(date +%s.%N)
"$CRUSHFS" umount "$M" || fail "crushfs umount of a foreground mount"
t1=$(date +%s.%N)
fsck_now
py "import sys; sys.exit(0 if $t1 - $t0 < 10 else 1)" ||
	fail "umount waited for the shell to reap its foreground daemon"
wait "$MPID" || fail "foreground daemon exit status"
check_log "$MLOG"
grep -E "ERROR|Sanitizer|runtime error" "$CL/crushfs.log" && fail "errors in crushfs.log"
ok "umount of a foreground daemon returns when it exits, reaped or not"
