#!/usr/bin/env bash
# The live dashboard (issue 11 item 2): `crushfs dashboard` on a mounted
# cluster serves the report page and JSON over loopback (libmicrohttpd);
# fetched while a copy into the mount runs, the used bytes grow between
# fetches; it is read-only (POST refused, unknown paths 404) and refuses a
# non-loopback address without a password (tests/integ/dashboard_auth.sh
# tests the password).
. "$(dirname "$0")/lib/mount_common.sh"

CL=$T/cluster
M=$T/mnt
C() { "$CRUSHFS" --cluster "$CL" "$@"; }
mkcluster "$CL" --osds 6 --hosts 3 --osd-size 512M --pg-num 32
mount_fg "$CL" "$M"

C dashboard --listen 0.0.0.0:0 2>"$T/remote.err" && fail "a non-loopback bind was accepted"
grep -q 'without a password' "$T/remote.err" || fail "no reason: $(cat "$T/remote.err")"
ok "non-loopback refused without a password"

# the process itself in the background, not the function C (its subshell
# would be the one killed, leaving the dashboard running)
"$CRUSHFS" --cluster "$CL" dashboard --listen 127.0.0.1:0 >"$T/dash.out" 2>&1 &
DPID=$!
PIDS+=("$DPID") # cleanup stops it
dash_up() { grep -q 'http://' "$T/dash.out" || proc_gone "$DPID"; }
wait_for "the dashboard to print its address (or exit)" 30 dash_up
PORT=$(grep -o 'http://127.0.0.1:[0-9]*' "$T/dash.out" | cut -d: -f3)
[ -n "$PORT" ] || fail "the dashboard did not start: $(cat "$T/dash.out")"

get() { py 'import sys, urllib.request; sys.stdout.write(urllib.request.urlopen("http://127.0.0.1:%s%s" % (sys.argv[1], sys.argv[2]), timeout=30).read().decode())' "$PORT" "$1"; }
used() { get /api/df | py 'import json, sys; print(json.load(sys.stdin)["summary"]["total_kb_used"])'; }

u0=$(used)
get / >"$T/page.html"
grep -q 'http-equiv="refresh"' "$T/page.html" || fail "the page does not reload itself"
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
ok "read-only: 404 off the three paths, POST refused"
