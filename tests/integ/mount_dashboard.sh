#!/usr/bin/env bash
# The live dashboard (issue 11 item 2, issue 22): `crushfs dashboard` on a
# mounted cluster serves the report page and JSON over loopback
# (libmicrohttpd); fetched while a copy into the mount runs, the used bytes
# grow between fetches; the page is live without reloading: /events pushes
# the cluster log (an OSD marked down, the health check the daemon's tick
# logs for it), status snapshots and the fill history the daemon keeps (in
# the page again after a dashboard restart); 20 clients that connect and
# leave leave the dashboard's descriptors and threads as they were; it is
# read-only (POST refused, unknown paths 404) and refuses a non-loopback
# address without a password (tests/integ/dashboard_auth.sh tests the
# password).
. "$(dirname "$0")/lib/mount_common.sh"

CL=$T/cluster
M=$T/mnt
C() { "$CRUSHFS" --cluster "$CL" "$@"; }
mkcluster "$CL" --osds 6 --hosts 3 --osd-size 512M --pg-num 32
C config set mgr mgr_history_interval 1
mount_fg "$CL" "$M"

C dashboard --listen 0.0.0.0:0 2>"$T/remote.err" && fail "a non-loopback bind was accepted"
grep -q 'without a password' "$T/remote.err" || fail "no reason: $(cat "$T/remote.err")"
ok "non-loopback refused without a password"

# the process itself in the background, not the function C (its subshell
# would be the one killed, leaving the dashboard running)
start_dash() {
	"$CRUSHFS" --cluster "$CL" dashboard --listen 127.0.0.1:0 >"$T/dash.out" 2>&1 &
	DPID=$!
	PIDS+=("$DPID") # cleanup stops it
	dash_up() { grep -q 'http://' "$T/dash.out" || proc_gone "$DPID"; }
	wait_for "the dashboard to print its address (or exit)" 30 dash_up
	PORT=$(grep -o 'http://127.0.0.1:[0-9]*' "$T/dash.out" | cut -d: -f3)
	[ -n "$PORT" ] || fail "the dashboard did not start: $(cat "$T/dash.out")"
}
start_dash
SSE=("$PY" "$CRUSHFS_SRC/tests/integ/lib/sse.py")

get() { py 'import sys, urllib.request; sys.stdout.write(urllib.request.urlopen("http://127.0.0.1:%s%s" % (sys.argv[1], sys.argv[2]), timeout=30).read().decode())' "$PORT" "$1"; }
used() { get /api/df | py 'import json, sys; print(json.load(sys.stdin)["summary"]["total_kb_used"])'; }

u0=$(used)
get / >"$T/page.html"
grep -q 'http-equiv="refresh"' "$T/page.html" && fail "the page still reloads itself"
grep -q 'new EventSource(' "$T/page.html" || fail "the page does not follow /events"
grep -q 'id="live-events"' "$T/page.html" || fail "no event log panel"
grep -q 'fills first' "$T/page.html" || fail "no fills-first line in the served page"
# a copy in progress: fetch between pieces of it
for i in 1 2 3; do
	head -c 8M /dev/urandom >"$M/big$i"
	sync
	u=$(used)
	[ "$u" -gt "$u0" ] || fail "used did not grow during the copy ($u0 -> $u KiB)"
	u0=$u
done
ok "numbers move while data is copied (now $u0 KiB used)"

py '
import sys, urllib.request, urllib.error
base = "http://127.0.0.1:%s" % sys.argv[1]
for path, method, want in (("/x", "GET", 404), ("/", "POST", 405)):
    try:
        urllib.request.urlopen(urllib.request.Request(base + path, data=b"x" if method == "POST" else None, method=method), timeout=30)
        print("FAIL: %s %s answered 200" % (method, path)); sys.exit(1)
    except urllib.error.HTTPError as e:
        if e.code != want:
            print("FAIL: %s %s: %d, want %d" % (method, path, e.code, want)); sys.exit(1)
' "$PORT" || fail "not read-only"
ok "read-only: 404 off its paths, POST refused"

# pushed: an OSD marked down reaches a stream as it happens, the map
# change at once and the health check from the daemon's next tick
"${SSE[@]}" "$PORT" /events --until 'Health check failed: 1 osds down \(OSD_DOWN\)' \
	--timeout 60 >"$T/sse.out" &
SPID=$!
has_status() { grep -q '^status	' "$T/sse.out"; }
wait_for "the first status event" 30 has_status
C osd down 4 >/dev/null
wait "$SPID" || fail "no OSD_DOWN event within 60 s: $(cut -c1-160 "$T/sse.out")"
grep -q '^log	.*"message":"osd.4 marked down"' "$T/sse.out" || fail "no 'osd.4 marked down' event"
grep -q '"priority":"\[WRN\]","message":"Health check failed: 1 osds down (OSD_DOWN)"' "$T/sse.out" ||
	fail "the OSD_DOWN event is not a [WRN]"
ok "/events pushes the map change and the health check it raised"
C osd up 4 >/dev/null

# the fill history: kept by the daemon, in the page after a restart of
# the dashboard (samples every second here)
samples() { [ "$(wc -l <"$CL/fill_history.jsonl")" -ge 3 ]; }
wait_for "3 fill samples from the daemon" 60 samples
py 'import json, sys
s = [json.loads(l) for l in open(sys.argv[1])][-1]
assert s["total"] > 0 and s["used"] > 0, s
assert s["pools"][0]["name"] == "crushfs_data" and s["pools"][0]["stored"] >= 24 << 20, s
assert 0 < s["fullest_pct"] < 100 and s["full_ratio"] == 0.95, s
' "$CL/fill_history.jsonl" || fail "a fill sample is not what the cluster holds"
[ "$(stat -c %a "$CL/fill_history.jsonl")" = 600 ] || fail "history mode $(stat -c %a "$CL/fill_history.jsonl")"
kill "$DPID"
wait "$DPID" 2>/dev/null || true
start_dash
get / >"$T/page2.html"
n=$(py 'import json, re, sys
m = re.search(r"<script type=\"application/json\" id=\"live-init\">(.*?)</script>", open(sys.argv[1]).read())
print(len(json.loads(m.group(1))["history"]))' "$T/page2.html")
[ "$n" -ge 3 ] || fail "the restarted dashboard's page has $n samples"
ok "fill history kept by the daemon: $n samples in the page of a restarted dashboard"
get /api/history | py 'import json, sys
a = json.load(sys.stdin)
assert len(a) >= 3 and all(a[i]["t"] < a[i + 1]["t"] for i in range(len(a) - 1)), a' ||
	fail "/api/history"
get /api/logs | py 'import json, sys
d = json.load(sys.stdin)
assert any(e["message"] == "osd.4 marked down" for e in d["clog"]), d["clog"][-5:]
assert any("\"prefix\": \"osd down\"" in e["message"] for e in d["audit_log"]), d["audit_log"][-5:]' ||
	fail "/api/logs"
ok "/api/history and /api/logs (clog and audit_log, as Ceph's /api/logs/all)"

# 20 clients that connect and leave: no descriptor, no thread left
fds() { ls "/proc/$DPID/fd" | wc -l; }
threads() { ls "/proc/$DPID/task" | wc -l; }
"${SSE[@]}" "$PORT" /events --count 1 --timeout 30 >/dev/null || fail "no first event"
# at most as many as before (a stream of the first client may still have
# been closing when they were counted); 20 leaked streams are 40 fds
settled() { [ "$(fds)" -le "$1" ] && [ "$(threads)" -le "$2" ]; }
f0=$(fds)
t0=$(threads)
for i in $(seq 1 20); do
	"${SSE[@]}" "$PORT" /events --count 1 --timeout 30 >/dev/null ||
		fail "stream $i: no event"
done
wait_for "the dashboard back to $f0 fds and $t0 threads (now $(fds), $(threads))" 30 settled "$f0" "$t0"
ok "20 streams opened and dropped: $(fds) descriptors and $(threads) threads (before: $f0, $t0)"

# 20 at once, each given its first event, then all dropped together
py '
import socket, sys
port = int(sys.argv[1])
socks = []
for i in range(20):
    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    s.sendall(b"GET /events HTTP/1.0\r\nHost: x\r\n\r\n")
    socks.append(s)
for i, s in enumerate(socks):
    got = b""
    while b"\nevent: " not in got and b"\n\nevent:" not in got:
        c = s.recv(4096)
        if not c:
            sys.exit("stream %d closed before its first event" % i)
        got += c
for s in socks:
    s.close()
' "$PORT" || fail "20 streams at once"
wait_for "the dashboard back to $f0 fds and $t0 threads after 20 at once (now $(fds), $(threads))" 30 settled "$f0" "$t0"
ok "20 streams at once, dropped together: $(fds) descriptors, $(threads) threads"

# Ctrl-C stops it cleanly (streams ended, threads joined; under ASan, no
# report)
kill -INT "$DPID"
rc=0
wait "$DPID" || rc=$?
[ $rc = 0 ] || fail "the dashboard exited $rc on SIGINT: $(tail -5 "$T/dash.out")"
grep -qiE 'sanitizer|leak' "$T/dash.out" && fail "sanitizer report: $(cat "$T/dash.out")"
ok "the dashboard stops on SIGINT with status 0"
