#!/usr/bin/env bash
# The dashboard beyond loopback (issue 21): `crushfs dashboard` binds
# 127.0.0.1 unless told an address; any other address (0.0.0.0, ::, a LAN
# address) needs a password, read from a file (as Ceph's `ceph dashboard
# ac-user-create -i FILE`) that only its owner may read (as ssh insists for
# a key).  Without one it exits 1 with one line and binds nothing.  With
# one, every request needs HTTP Basic auth (or a Bearer token): a wrong or
# missing one gets 401 with `WWW-Authenticate: Basic realm="crushfs"` and
# no figure of the cluster.  Loopback without a password still serves.
# No mount: the dashboard of an unmounted cluster runs the commands itself.
. "$(dirname "$0")/lib/cluster_common.sh"

CL=$T/cl
C() { "$CRUSHFS" --cluster "$CL" "$@"; }
C mkfs --osds 4 --hosts 2 --osd-size 64M --pg-num 16 >/dev/null
head -c 300000 /dev/urandom >"$T/obj"
C rados put obj1 "$T/obj"

PIDS=()
cleanup() {
	local rc=$? p
	for p in "${PIDS[@]}"; do
		kill "$p" 2>/dev/null || true
	done
	for p in "${PIDS[@]}"; do
		wait "$p" 2>/dev/null || true
	done
	rm -rf "$T"
	exit $rc
}

# a port nothing listens on now (the kernel's pick, then let go)
free_port() {
	py 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# nothing_listens PORT: a connection to the port is refused, on IPv4 and
# IPv6 loopback (a bind to 0.0.0.0 or :: answers on those)
nothing_listens() {
	py '
import socket, sys
for fam, host in ((socket.AF_INET, "127.0.0.1"), (socket.AF_INET6, "::1")):
    s = socket.socket(fam)
    s.settimeout(10)
    try:
        s.connect((host, int(sys.argv[1])))
        sys.exit("something listens on %s port %s" % (host, sys.argv[1]))
    except ConnectionRefusedError:
        pass
    except OSError as e:
        if fam == socket.AF_INET:
            raise
    finally:
        s.close()
' "$1"
}

# refused PATTERN ARGS...: `dashboard ARGS` exits 1 (not a crash, not
# still serving after 60 s) with exactly one stderr line matching PATTERN
refused() {
	local pat=$1 rc=0
	shift
	timeout 60 "$CRUSHFS" --cluster "$CL" dashboard "$@" \
		>"$T/r.out" 2>"$T/r.err" || rc=$?
	[ $rc = 1 ] || fail "dashboard $*: status $rc, want 1 ($(cat "$T/r.err"))"
	[ "$(wc -l <"$T/r.err")" = 1 ] ||
		fail "dashboard $*: want one line, got: $(cat "$T/r.err")"
	grep -Eq -- "$pat" "$T/r.err" ||
		fail "dashboard $*: '$(cat "$T/r.err")' does not match /$pat/"
	[ ! -s "$T/r.out" ] || fail "dashboard $*: printed $(cat "$T/r.out")"
}

P=$(free_port)
refused "^crushfs: dashboard: refusing to listen on 0\.0\.0\.0:$P without a password: give --password-file FILE \(or listen on 127\.0\.0\.1\)$" \
	--listen "0.0.0.0:$P"
nothing_listens "$P" || fail "port $P bound by a refused dashboard"
refused "refusing to listen on \[::\]:$P without a password" --listen "[::]:$P"
refused "refusing to listen on 10\.1\.2\.3:$P without a password" \
	--listen "10.1.2.3:$P"
refused "^crushfs: dashboard: --allow-remote is gone: a non-loopback --listen needs --password-file FILE$" \
	--listen "0.0.0.0:$P" --allow-remote
nothing_listens "$P" || fail "port $P bound by a refused dashboard"
ok "0.0.0.0, :: and a LAN address refused without a password (--allow-remote is not enough), one line, nothing bound"

printf 's3cret:pw\n' >"$T/pw"
chmod 0644 "$T/pw"
refused "$T/pw: readable by others \(mode 0644\): chmod 600 it" \
	--listen "0.0.0.0:$P" --password-file "$T/pw"
chmod 0640 "$T/pw"
refused "readable by others \(mode 0640\)" --listen "0.0.0.0:$P" \
	--password-file "$T/pw"
: >"$T/empty"
chmod 0600 "$T/empty"
refused "$T/empty: the first line is empty" --listen "0.0.0.0:$P" \
	--password-file "$T/empty"
refused "$T/none: " --listen "0.0.0.0:$P" --password-file "$T/none"
refused "--user: a name without ':'" --listen "0.0.0.0:$P" \
	--password-file "$T/pw" --user "a:b"
nothing_listens "$P" || fail "port $P bound by a refused dashboard"
ok "a password file readable by others, empty or missing refused, one line"

# start ARGS...: a dashboard in the background, its port in $PORT (the
# process itself, not the function C: its subshell would be the one killed)
start() {
	local out=$T/dash.$#.out
	"$CRUSHFS" --cluster "$CL" dashboard "$@" >"$out" 2>&1 &
	DPID=$!
	PIDS+=("$DPID")
	up() { grep -q 'http://' "$out" || proc_gone "$DPID"; }
	wait_for "the dashboard to print its address (or exit)" 60 up
	PORT=$(grep -o 'http://[^ ]*:[0-9]*/' "$out" | grep -o '[0-9]*/$' | tr -d /)
	[ -n "$PORT" ] || fail "the dashboard did not start: $(cat "$out")"
	DOUT=$out
}

# get PATH [basic USER PASS | bearer TOKEN]: "STATUS\nWWW-Authenticate\n"
# then the body, from 127.0.0.1:$PORT
get() {
	py '
import base64, sys, urllib.request, urllib.error
port, path = sys.argv[1], sys.argv[2]
req = urllib.request.Request("http://127.0.0.1:%s%s" % (port, path))
if len(sys.argv) > 3 and sys.argv[3] == "basic":
    tok = base64.b64encode(("%s:%s" % (sys.argv[4], sys.argv[5])).encode()).decode()
    req.add_header("Authorization", "Basic " + tok)
elif len(sys.argv) > 3 and sys.argv[3] == "bearer":
    req.add_header("Authorization", "Bearer " + sys.argv[4])
try:
    r = urllib.request.urlopen(req, timeout=60)
except urllib.error.HTTPError as e:
    r = e
print(r.status if hasattr(r, "status") else r.code)
print(r.headers.get("WWW-Authenticate", "-"))
sys.stdout.write(r.read().decode())
' "$PORT" "$@"
}

# denied PATH [AUTH...]: 401, the Basic challenge, and no cluster figure
denied() {
	get "$@" >"$T/resp"
	[ "$(sed -n 1p "$T/resp")" = 401 ] ||
		fail "GET $1 ${2:-} ${3:-}: $(sed -n 1p "$T/resp"), want 401"
	[ "$(sed -n 2p "$T/resp")" = 'Basic realm="crushfs"' ] ||
		fail "GET $1: challenge '$(sed -n 2p "$T/resp")'"
	if sed 1,2d "$T/resp" | grep -Eqi 'osd|kb_used|host|fills|pg'; then
		fail "GET $1 unauthenticated leaked: $(sed 1,2d "$T/resp" | head -c 300)"
	fi
}

chmod 0600 "$T/pw"
start --listen 0.0.0.0:0 --password-file "$T/pw"
grep -q 'plain HTTP' "$DOUT" || fail "no plain-HTTP note: $(cat "$DOUT")"
for path in / /events /api/df /api/status /api/logs /api/history; do
	denied "$path"
	denied "$path" basic admin wrong
	denied "$path" basic admin 's3cret:p'
	denied "$path" basic admin 's3cret:pwx'
	denied "$path" basic root 's3cret:pw'
	denied "$path" bearer wrong
done
ok "0.0.0.0 with a 0600 password file: 401 and the Basic challenge without, or with a wrong, user, password or token; no data"

get / basic admin 's3cret:pw' >"$T/resp"
[ "$(sed -n 1p "$T/resp")" = 200 ] || fail "right password: $(head -1 "$T/resp")"
grep -q 'fills first' "$T/resp" || fail "right password: not the page"
get /api/df bearer 's3cret:pw' >"$T/resp"
[ "$(sed -n 1p "$T/resp")" = 200 ] || fail "bearer: $(head -1 "$T/resp")"
sed 1,2d "$T/resp" | py 'import json, sys; json.load(sys.stdin)["summary"]["total_kb_used"]' ||
	fail "bearer: /api/df is not osd df's JSON"
# the event stream needs the password as the page does
"$PY" "$CRUSHFS_SRC/tests/integ/lib/sse.py" "$PORT" /events --basic admin \
	's3cret:pw' --until '^status\t' --timeout 60 >"$T/sse" ||
	fail "/events with the password: $(head -c 300 "$T/sse")"
grep -q '^status	{"status":{"fsid"' "$T/sse" || fail "/events: no status event"
ok "the right password (Basic, user admin) or token (Bearer) gets 200, the page and /events"

start --listen 127.0.0.1:0 --password-file "$T/pw" --user ops
grep -q 'plain HTTP' "$DOUT" && fail "plain-HTTP note on loopback: $(cat "$DOUT")"
denied / basic admin 's3cret:pw'
get / basic ops 's3cret:pw' | head -1 | grep -qx 200 || fail "--user ops refused"
ok "with a password, loopback asks for it too (--user names the user)"

start --listen 127.0.0.1:0
get / >"$T/resp"
[ "$(sed -n 1p "$T/resp")" = 200 ] || fail "loopback: $(head -1 "$T/resp")"
grep -q 'fills first' "$T/resp" || fail "loopback: not the page"
ok "loopback without a password serves without auth"
