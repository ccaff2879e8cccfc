#!/usr/bin/env bash
# The osdmap flags on a mounted cluster (issue 22): `osd set pause` makes a
# write wait (listed in SLOW_OPS as waiting for pausewr) until `osd unset
# pause`, then it completes with the right content; the daemon's monitor
# tick marks an OSD out after mon_osd_down_out_interval, not while noout
# is set; an OSD so marked out comes back in when it is marked up, not
# while noin is set; `balancer on` makes the daemon apply the upmap
# balancer's plan every sleep_interval, `balancer off` stops it.
. "$(dirname "$0")/lib/mount_common.sh"

CL=$T/cluster
M=$T/mnt
c() { "$CRUSHFS" --cluster "$CL" "$@"; }

# wait_until LIMIT_S WHAT CMD...: poll CMD until it succeeds, or fail
wait_until() {
	local limit=$1 what=$2 i
	shift 2
	for i in $(seq 1 $((limit * 20))); do
		"$@" && return 0
		sleep 0.05 # the poll interval
	done
	fail "$what: not within $limit s"
}
# osd_in ID: 1 or 0 as `osd dump -f json` says
osd_in() {
	c -f json osd dump | "$PY" -c 'import json,sys
d = json.load(sys.stdin)
print([o["in"] for o in d["osds"] if o["osd"] == int(sys.argv[1])][0])' "$1"
}
is_out() { [ "$(osd_in "$1")" = 0 ]; }
is_in() { [ "$(osd_in "$1")" = 1 ]; }

mkcluster "$CL" --osds 8 --hosts 4 --osd-size 256M --pg-num 16
mount_fg "$CL" "$M"
c config set osd osd_op_complaint_time 0 >/dev/null

# ---- pause: a write waits, then completes ----
head -c 300000 /dev/urandom >"$T/a"
head -c 300000 /dev/urandom >"$T/b"
cp "$T/a" "$M/f"
sync "$M/f" # its backtrace written now, not under the pause
[ "$(c osd set pause)" = "pauserd,pausewr is set" ] || fail "osd set pause"
dd if="$T/b" of="$M/f" bs=300000 count=1 conv=notrunc 2>"$T/dd.err" &
wpid=$!
slow() { c health detail >"$T/h" 2>&1; grep -q "has pausewr set" "$T/h"; }
wait_until 20 "the write listed as waiting for pausewr" slow
kill -0 "$wpid" 2>/dev/null || fail "the write did not wait for pause"
grep -q "OSDMAP_FLAGS: pauserd,pausewr flag(s) set" "$T/h" ||
	{ cat "$T/h"; fail "no OSDMAP_FLAGS while paused"; }
ok "paused: the write waits ($(grep -m1 'has pausewr' "$T/h" | sed 's/^ *//'))"
# a new file's data waits, and its backtrace too (written by the
# flusher, every 2 s, once 10 s old; its object made first); meanwhile a pg_num
# split goes through: nothing waiting on the flag holds the PG layout
cp "$T/a" "$M/g" &
cpid=$!
gobj=
both() {
	gobj=$(printf '%x.%08x' "$(stat -c %i "$M/g" 2>/dev/null || echo 0)" 0)
	[ "$(grep -c "has pausewr set; write to '$gobj' waits" "$MLOG")" -ge 2 ]
}
wait_until 20 "g's data and backtrace waiting for pausewr" both
timeout 60 "$CRUSHFS" --cluster "$CL" osd pool set crushfs_data pg_num 32 >/dev/null ||
	fail "osd pool set pg_num while paused did not complete"
kill -0 "$wpid" 2>/dev/null || fail "the write did not wait for pause"
c osd unset pause >/dev/null
wait "$wpid" || { cat "$T/dd.err"; fail "the write failed after unpause"; }
wait "$cpid" || fail "the copy failed after unpause"
cmp "$T/b" "$M/f" || fail "f does not read back as written after unpause"
cmp "$T/a" "$M/g" || fail "g does not read back as written after unpause"
ok "unpaused: the writes completed (a pg_num split meanwhile), f and g read back right"

# ---- the balancer module, run by the daemon when on ----
bstat() { c -f json balancer status | "$PY" -c "import json,sys; print(json.load(sys.stdin)['$1'])"; }
upmaps() { c -f json osd dump | "$PY" -c 'import json,sys; print(len(json.load(sys.stdin)["pg_upmap_items"]))'; }
[ "$(upmaps)" = 0 ] || fail "upmaps before the balancer ran"
for i in $(seq 1 24); do head -c 20000 /dev/urandom >"$M/s$i"; done
c config set mgr mgr/balancer/sleep_interval 1 >/dev/null
c config set mgr mgr/balancer/upmap_max_deviation 1 >/dev/null
c config set mgr target_max_misplaced_ratio 0.001 >/dev/null
c balancer on
ran() { [ "$(bstat optimize_result)" = "Optimization plan created successfully" ]; }
wait_until 20 "a balancer run that applies a plan" ran
[ "$(upmaps)" -gt 0 ] || fail "the balancer's plan left no pg_upmap_items"
grep -q "balancer: applied [0-9]* upmap change(s)" "$MLOG" || fail "no log line of the balancer's run"
# its upmaps left objects misplaced: the next run waits for them
misplaced() { bstat optimize_result | grep -q "^Too many objects (.*) are misplaced; try again later$"; }
wait_until 20 "the balancer waiting for misplaced objects" misplaced
ok "balancer on: $(upmaps) PG(s) upmapped, then '$(bstat optimize_result)'"
c balancer off
last=$(bstat last_optimize_started)
c rebalance >/dev/null
c config rm mgr target_max_misplaced_ratio >/dev/null
# off: no run within three sleep intervals (a bounded poll for a change)
changed() { [ "$(bstat last_optimize_started)" != "$last" ]; }
for i in $(seq 1 30); do
	changed && fail "the balancer ran after balancer off"
	sleep 0.1 # the poll interval
done
[ "$(bstat active)" = False ] || fail "balancer status still active after off"
ok "balancer off: no more runs"

# ---- the down->out timer, held by noout ----
c config set mon mon_osd_down_out_interval 1 >/dev/null
c osd set noout >/dev/null
c osd down 1 >/dev/null
held() { grep -q "down osd(s) stay in: noout flag set" "$MLOG"; }
wait_until 20 "the tick holding osd.1 in for noout" held
is_in 1 || fail "osd.1 marked out although noout is set"
ok "noout: osd.1 down past the interval stays in"
c osd unset noout >/dev/null
wait_until 20 "osd.1 marked out after unset noout" is_out 1
grep -q "Marking osd.1 out (has been down for" "$MLOG" ||
	fail "no log line for osd.1 marked out"
ok "osd.1 marked out by the timer once noout went"

# ---- back up: in again, unless noin ----
c osd set noin >/dev/null
c osd up 1 >/dev/null
is_out 1 || fail "osd.1 marked in at boot although noin is set"
c osd unset noin >/dev/null
c osd down 2 >/dev/null
wait_until 20 "osd.2 marked out by the timer" is_out 2
c osd up 2 >/dev/null
is_in 2 || fail "osd.2, auto-marked out, not marked in when up"
is_out 1 || fail "osd.1 went in by itself"
ok "noin: osd.1 stays out when up; osd.2 (no noin) comes back in"

c osd in 1 >/dev/null
umount_fg "$M"
