#!/usr/bin/env bash
# I/O to a PG below min_size waits, as a Ceph client's does (issue 20):
# with two of a PG's three OSDs down, a write into the mount blocks (no
# EIO), health shows PG_AVAILABILITY and SLOW_OPS naming it, admin commands
# keep working, and the write goes on when an OSD comes back; the file
# then reads back right.  With rados_osd_op_timeout set the write ends
# with ETIMEDOUT instead; a blocked writer killed with -9 goes away; the
# daemon unmounts cleanly afterwards.
. "$(dirname "$0")/lib/mount_common.sh"

CL=$T/cluster
M=$T/mnt
c() { "$CRUSHFS" --cluster "$CL" "$@"; }

# wait_until LIMIT_S WHAT CMD...: poll CMD until it succeeds, or fail
# naming WHAT after LIMIT_S seconds
wait_until() {
	local limit=$1 what=$2 i
	shift 2
	for i in $(seq 1 $((limit * 20))); do
		"$@" && return 0
		sleep 0.05 # the poll interval
	done
	fail "$what: not within $limit s"
}

mkcluster "$CL" --osd-size 256M --pg-num 16
mount_fg "$CL" "$M"
c config set osd osd_op_complaint_time 0 >/dev/null

head -c 300000 /dev/urandom >"$T/a"
head -c 300000 /dev/urandom >"$T/b"
cp "$T/a" "$M/f"
obj=$(printf '%x.%08x' "$(stat -c %i "$M/f")" 0)
read -r o1 o2 o3 < <(c -f json osd map "$obj" |
	"$PY" -c 'import json,sys; print(*json.load(sys.stdin)["acting"])')
[ -n "$o3" ] || fail "acting set of $obj: '$o1 $o2 $o3'"

# two of three down: the PG is inactive
c osd down "$o1" >/dev/null
c osd down "$o2" >/dev/null
dd if="$T/b" of="$M/f" bs=300000 count=1 conv=notrunc 2>"$T/dd.err" &
wpid=$!
slow() { c health detail >"$T/h" 2>&1 && grep -q "SLOW_OPS" "$T/h"; }
wait_until 20 "SLOW_OPS in health while the write waits" slow
kill -0 "$wpid" 2>/dev/null || { cat "$T/dd.err"; fail "the write did not wait"; }
grep -q "PG_AVAILABILITY" "$T/h" || { cat "$T/h"; fail "no PG_AVAILABILITY"; }
grep -q "write to '$obj'" "$T/h" || { cat "$T/h"; fail "SLOW_OPS does not name $obj"; }
c status >/dev/null || fail "status while an op waits"
ok "the write waits: $(grep -m1 'slow ops' "$T/h" | sed 's/^ *//')"

# an OSD back: min_size again, the write goes on
c osd up "$o2" >/dev/null
wait "$wpid" || { cat "$T/dd.err"; fail "the write failed after the PG came back"; }
cmp "$T/b" "$M/f" || fail "f does not read back as written"
c health detail >"$T/h" 2>&1 || true # HEALTH_WARN exits 0; keep the text
grep -q "SLOW_OPS" "$T/h" && { cat "$T/h"; fail "SLOW_OPS stays after the write"; }
ok "osd.$o2 up: the write went on, f reads back right"

# with rados_osd_op_timeout the wait ends with ETIMEDOUT
c config set client rados_osd_op_timeout 1 >/dev/null
c osd down "$o2" >/dev/null
if dd if="$T/a" of="$M/f" bs=300000 count=1 conv=notrunc 2>"$T/dd.err"; then
	fail "a write to an inactive PG succeeded"
fi
grep -q "Connection timed out" "$T/dd.err" || { cat "$T/dd.err"; fail "not ETIMEDOUT"; }
c config rm client rados_osd_op_timeout >/dev/null
ok "rados_osd_op_timeout 1: $(tail -1 "$T/dd.err")"

# a blocked writer killed with -9 goes away (FUSE_INTERRUPT ends the wait)
dd if="$T/a" of="$M/f" bs=300000 count=1 conv=notrunc 2>/dev/null &
wpid=$!
wait_until 20 "the second write waits" slow
kill -9 "$wpid"
gone() { ! kill -0 "$wpid" 2>/dev/null; }
wait_until 20 "the killed writer goes" gone
wait "$wpid" 2>/dev/null && fail "the killed writer exited 0"
ok "a waiting writer killed with -9 is gone"

c osd up "$o1" >/dev/null
c osd up "$o2" >/dev/null
cmp "$T/b" "$M/f" || fail "f changed by writes that failed"
ok "f still holds what the last successful write wrote"
# the copies on the OSDs that were down missed the write: recovery
c rebalance >/dev/null || fail "rebalance after the OSDs came back"
umount_fg "$M"
c fsck --dry-run >"$T/fsck" 2>&1 || { cat "$T/fsck"; fail "fsck"; }
ok "unmounted cleanly, fsck clean"

# the daemon stops on SIGTERM while a writer waits (libfuse joins its
# workers: the wait must end), and the writer is not left hanging
mount_fg "$CL" "$M"
c osd down "$o1" >/dev/null
c osd down "$o2" >/dev/null
dd if="$T/a" of="$M/f" bs=300000 count=1 conv=notrunc 2>/dev/null &
wpid=$!
wait_until 20 "a third write waits" slow
kill -TERM "$MPID"
dgone() { ! kill -0 "$MPID" 2>/dev/null; }
wait_until 20 "the daemon exits on SIGTERM while an op waits" dgone
wait_until 20 "the waiting writer ends with the daemon" gone
wait "$wpid" 2>/dev/null && fail "the write succeeded without its PG"
ok "SIGTERM: the daemon exits, the waiting writer gets an error"
