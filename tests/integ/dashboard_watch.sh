#!/usr/bin/env bash
# `crushfs -w` as `ceph -w` (issue 22): the status, then each cluster log
# entry as it is logged, by another process, in Ceph's watch form
# ("STAMP mon.a [INF] osd.3 marked down"); entries below info are not
# shown; SIGINT ends it with status 0, and so does its reader going away
# (`crushfs -w | head -1` returns without another event).
. "$(dirname "$0")/lib/cluster_common.sh"

CL=$T/cl
cf "$CL" mkfs --osds 4 --hosts 2 --osd-size 64M --pg-num 16 >/dev/null
cf "$CL" osd out 1 >/dev/null # logged before the watch: not shown

"$CRUSHFS" --cluster "$CL" -w >"$T/w.out" 2>"$T/w.err" &
W=$!
trap 'kill $W 2>/dev/null || true; cleanup' EXIT
status_shown() { grep -q '^  cluster:' "$T/w.out" && grep -qx '' "$T/w.out"; }
wait_for "the status from -w" 30 status_shown
cf "$CL" osd down 3 >/dev/null
cf "$CL" osd reweight 2 0.5 >/dev/null
has() { grep -Eq "$1" "$T/w.out"; }
stamp='^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}\+0000'
wait_for "osd.3's down in -w" 30 has "$stamp mon\.a \[INF\] osd\.3 marked down$"
wait_for "the reweight in -w" 30 has "$stamp mon\.a \[INF\] osd\.2 reweight 1\.00000 -> 0\.50000$"
ok "-w shows entries as other processes log them"
has 'osd\.1 marked out' && fail "-w showed an entry from before it started"
has 'osdmap e' && fail "-w showed a debug entry"
[ "$(grep -c '^[0-9]' "$T/w.out")" = 2 ] ||
	fail "want two entries, got: $(grep '^[0-9]' "$T/w.out")"
ok "only new entries, info and above"

kill -INT $W
rc=0
wait $W || rc=$?
[ $rc = 0 ] || fail "-w exited $rc on SIGINT ($(cat "$T/w.err"))"
[ ! -s "$T/w.err" ] || fail "-w printed on stderr: $(cat "$T/w.err")"
ok "SIGINT ends -w with status 0"

# the reader leaves: -w ends without waiting for another entry
timeout 30 "$CRUSHFS" --cluster "$CL" -w | head -1 >"$T/h.out"
[ "${PIPESTATUS[0]}" = 0 ] || fail "-w | head -1: status ${PIPESTATUS[0]}"
grep -q '^  cluster:' "$T/h.out" || fail "-w | head -1 printed $(cat "$T/h.out")"
ok "-w | head -1 returns at once"

# -f json: the status as JSON, then each entry a JSON object on a line
"$CRUSHFS" --cluster "$CL" -f json -w >"$T/j.out" 2>&1 &
J=$!
trap 'kill $W $J 2>/dev/null || true; cleanup' EXIT
first_line() { [ -s "$T/j.out" ]; }
wait_for "the JSON status from -f json -w" 30 first_line
cf "$CL" osd in 1 >/dev/null
json_entry() { grep -q '"message":"osd.1 marked in"' "$T/j.out"; }
wait_for "osd.1 marked in as JSON" 30 json_entry
kill -TERM $J
rc=0
wait $J || rc=$?
[ $rc = 0 ] || fail "-f json -w exited $rc on SIGTERM"
py 'import json, sys
lines = [l for l in open(sys.argv[1]).read().split("\n") if l]
assert json.loads(lines[0])["health"]["status"], lines[0]
e = json.loads(lines[-1])
assert e["priority"] == "[INF]" and e["name"] == "mon.a", e
' "$T/j.out" || fail "-f json -w: $(cat "$T/j.out")"
ok "-f json -w: the status and each entry as JSON; SIGTERM ends it with 0"

must_fail "^crushfs: -w: takes no command \('status' given\)$" "$CRUSHFS" --cluster "$CL" -w status
ok "-w with a command: one line, status 1"
