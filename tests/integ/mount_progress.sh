#!/usr/bin/env bash
# Progress of long commands, and Ctrl-C on a mounted one (issue 11 item 5):
# a rebalance run through the mounted daemon prints progress lines (the
# daemon's CRUSHFS_PROGRESS=0: a line per step off a terminal), nothing
# but one JSON document with -f json; interrupted with SIGINT, the client
# says plainly that the daemon carries on and how to watch it, exits
# 128+2, and `status` meanwhile answers (the admin socket serves each
# client on its own thread) until the data has moved; fsck and scrub
# print progress lines too.
. "$(dirname "$0")/lib/mount_common.sh"

CL=$T/cluster
M=$T/mnt
C() { "$CRUSHFS" --cluster "$CL" "$@"; }
mkcluster "$CL" --osds 6 --hosts 3 --osd-size 512M --size 2 --min-size 1 \
	--pg-num 32 --object-size 1M
export CRUSHFS_PROGRESS=0
mount_fg "$CL" "$M"
head -c 1M /dev/urandom >"$T/one"
for i in $(seq 1 96); do cp "$T/one" "$M/f$i"; done
sync

C osd out 1 >/dev/null || fail "osd out"
C rebalance >"$T/rb.out" 2>"$T/rb.err" || fail "rebalance: $(cat "$T/rb.err")"
grep -qE '^rebalance: [0-9]+/[0-9]+ object copies, .* ETA' "$T/rb.err" ||
	fail "no progress lines from a mounted rebalance: $(head -3 "$T/rb.err")"
grep -q '^rebalance: moved' "$T/rb.out" || fail "no rebalance summary"
ok "mounted rebalance: $(grep -c '^rebalance: ' "$T/rb.err") progress lines"

C osd in 1 >/dev/null || fail "osd in"
C -f json rebalance >"$T/rbj.out" 2>"$T/rbj.err" || fail "rebalance -f json"
[ ! -s "$T/rbj.err" ] || fail "progress with -f json: $(head -2 "$T/rbj.err")"
"$PY" -c "import json; json.load(open('$T/rbj.out'))" || fail "rebalance json"
ok "-f json: one document, no progress"

# status shows the rebalance the daemon runs (Ceph's "io: recovery" and
# "progress" sections), and nothing of it once it ended
# (a poller asks status all along, started before the rebalance, and
# two OSDs go out: a rebalance of a few tenths of a second is caught
# whatever the timing; each answer is kept, the first that shows it used)
C osd out 3 >/dev/null || fail "osd out 3"
C osd out 4 >/dev/null || fail "osd out 4"
# (a status that fails is noted in poll.failed, checked below)
(
	i=0
	while [ ! -e "$T/stop-poll" ]; do
		C status >"$T/poll.$i" 2>"$T/poll.err" ||
			{ echo "status $i:"; cat "$T/poll.err"; } >>"$T/poll.failed"
		i=$((i + 1))
	done
) &
ppid=$!
# the poller is at work before the rebalance starts: its first answer is in
polled() { [ -e "$T/poll.1" ]; }
wait_for "the status poller's first answer" 60 polled
C rebalance >/dev/null 2>&1 || fail "rebalance"
touch "$T/stop-poll"
wait $ppid || fail "the status poller"
[ ! -e "$T/poll.failed" ] || fail "status failed while a rebalance ran: $(cat "$T/poll.failed")"
seen=
for f in $(ls "$T"/poll.* | sort -t. -k2 -n); do
	if grep -q '^    Rebalance ([0-9]*s)$' "$f"; then
		cp "$f" "$T/st2"
		seen=1
		break
	fi
done
[ -n "$seen" ] || fail "status never showed the running rebalance ($(ls "$T"/poll.* | wc -l) answers)"
grep -qE '^      \[[=.]{28}\] \([0-9]+/[0-9]+ object copies\)$' "$T/st2" ||
	fail "no progress bar: $(cat "$T/st2")"
# the rate shows once something moved
if ! grep -q '(0/[0-9]* object copies)' "$T/st2"; then
	grep -qE '^    recovery: .*/s, [0-9]+ objects/s$' "$T/st2" || fail "no recovery rate: $(cat "$T/st2")"
fi
C -f json status | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
assert "recovering_bytes_per_sec" not in d["pgmap"] and d["progress_events"] == {}, d' ||
	fail "status still shows a recovery after it ended"
C osd in 3 >/dev/null && C osd in 4 >/dev/null && C rebalance >/dev/null 2>&1 ||
	fail "osd in 3 4"
ok "status shows the daemon's rebalance while it runs: $(grep -A1 'Rebalance (' "$T/st2" | tail -1 | sed 's/^ *//')"

# Ctrl-C: the daemon goes on, the client says so
C osd out 2 >/dev/null || fail "osd out 2"
# the client's stderr through a fifo: SIGINT as soon as its first
# progress line arrives, the rest kept for the checks
mkfifo "$T/fifo"
"$CRUSHFS" --cluster "$CL" rebalance >/dev/null 2>"$T/fifo" &
pid=$!
{ read -r first; kill -INT $pid; echo "$first"; cat; } <"$T/fifo" >"$T/int.err"
rc=0
wait $pid || rc=$?
[ "$rc" = 130 ] || fail "interrupted client exit status $rc, not 130"
grep -q "interrupted here; the mounted daemon carries on with it (watch with 'crushfs --cluster $CL status')" "$T/int.err" ||
	fail "no plain word on Ctrl-C: $(tail -2 "$T/int.err")"
C status >"$T/st.out" || fail "status while the daemon rebalances"
ok "Ctrl-C: the client says the daemon carries on; status answers"
moved_off_2() {
	C -f json pg dump | "$PY" -c "
import json,sys
d = json.load(sys.stdin)['pg_map']['pg_stats']
sys.exit(0 if all(p['stat_sum']['num_objects_misplaced'] == 0 and 2 not in p['acting'] for p in d) else 1)"
}
wait_for "the daemon to move everything off osd.2" 60 moved_off_2
cmp "$T/one" "$M/f7" || fail "data after the interrupted rebalance"
ok "the daemon finished the move on its own"

# a dry run through the daemon changes nothing either
e0=$(C -f json status | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["osdmap"]["epoch"])')
C osd out 3 --dry-run >"$T/dry.out" || fail "mounted dry run"
grep -q "^dry run of 'osd out 3': nothing changed" "$T/dry.out" || fail "dry run text: $(head -2 "$T/dry.out")"
e1=$(C -f json status | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["osdmap"]["epoch"])')
[ "$e0" = "$e1" ] || fail "a dry run moved the epoch from $e0 to $e1"
ok "mounted dry run: epoch stays $e0"

umount_fg "$M"
C scrub --deep >/dev/null 2>"$T/scrub.err" || fail "scrub: $(cat "$T/scrub.err")"
grep -qE '^deep-scrub: [0-9]+/32 pgs' "$T/scrub.err" || fail "no scrub progress"
C fsck >/dev/null 2>"$T/fsck.err" || fail "fsck: $(cat "$T/fsck.err")"
grep -qE '^fsck: [0-9]+/[0-9]+ objects, -, [0-9]+/s, ETA' "$T/fsck.err" || fail "no fsck progress: $(head -2 "$T/fsck.err")"
ok "scrub and fsck progress lines"
