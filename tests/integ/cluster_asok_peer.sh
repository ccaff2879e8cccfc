#!/usr/bin/env bash
# The CLI talks only to an admin socket it can trust (issue 21): a
# listener at CLUSTER/crushfs.asok that runs as another user (who could
# write the cluster folder), or a symbolic link there to some other
# daemon's socket, is refused with one line before any descriptor is
# sent or any answer believed; the command neither "succeeds" nor runs.
. "$(dirname "$0")/lib/cluster_common.sh"

if [ "$(id -u)" != 0 ] || ! id nobody >/dev/null 2>&1 ||
	! command -v setpriv >/dev/null; then
	echo "SKIP: needs root, the user nobody and setpriv (util-linux)"
	exit 77
fi
NOBODY=$(id -u nobody)
FAKE=$(cd "$(dirname "$0")" && pwd)/lib/fake_asok.py
LPIDS=()
stop_listeners() {
	local rc=$? p
	for p in "${LPIDS[@]}"; do
		kill "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
	(exit "$rc")
	cleanup # cluster_common.sh's, with our status
}
trap stop_listeners EXIT

# nobody must reach its folders under $T
chmod 755 "$T"
CL=$T/cl
cf "$CL" mkfs --osds 3 --hosts 3 >/dev/null || fail "mkfs"
# a cluster folder the user nobody may write (theirs, or shared)
chown "$NOBODY" "$CL"
mkdir "$T/rec" && chown "$NOBODY" "$T/rec"

ready() { [ -e "$1.ready" ]; }
recorded() { [ -e "$1" ]; }
osd1_reweight() {
	cf "$CL" osd tree -f json |
		py 'import json,sys; print([n["reweight"] for n in json.load(sys.stdin)["nodes"] if n["id"] == 1][0])'
}

# start_fake AS PATH RECORD: a fake admin socket at PATH, run as AS
# (a uid, or "root"); returns once it listens
start_fake() {
	local as=$1 path=$2 rec=$3
	if [ "$as" = root ]; then
		"$PY" "$FAKE" "$path" "$rec" &
	else
		setpriv --reuid="$as" --regid="$as" --clear-groups \
			"$PY" "$FAKE" "$path" "$rec" &
	fi
	LPIDS+=($!)
	wait_for "the fake admin socket at $path" 30 ready "$rec"
}

# ---- a listener of another user at the socket path ----
start_fake "$NOBODY" "$CL/crushfs.asok" "$T/rec/foreign"
must_fail "^crushfs: $CL/crushfs.asok: the process listening there runs as uid $NOBODY, not root or you \(uid 0\): not talking to it$" \
	cf "$CL" osd out 1
# the CLI hung up without a word: the listener got no descriptor and no
# request (it records what it got once the client is gone)
wait_for "the fake listener to record what it got" 30 recorded "$T/rec/foreign"
[ "$(cat "$T/rec/foreign")" = "fds=0 bytes=0 argv=" ] ||
	fail "the foreign listener got: $(cat "$T/rec/foreign")"
wait "${LPIDS[-1]}" || fail "the fake listener failed"
# its socket is left behind, with nobody listening: commands run here
[ "$(osd1_reweight)" = 1.0 ] || fail "osd.1 is out: $(osd1_reweight)"
ok "a listener running as uid $NOBODY is refused and gets no descriptor; osd.1 stays in"

# ---- a symbolic link to a socket of root's (another daemon's) ----
rm -f "$CL/crushfs.asok"
start_fake root "$T/other.asok" "$T/rec/link"
ln -s "$T/other.asok" "$CL/crushfs.asok"
must_fail "^crushfs: $CL/crushfs.asok: a symbolic link, not a socket: not talking to it$" \
	cf "$CL" osd out 1
[ ! -e "$T/rec/link" ] || fail "the linked listener was reached: $(cat "$T/rec/link")"
rm -f "$CL/crushfs.asok"
[ "$(osd1_reweight)" = 1.0 ] || fail "osd.1 is out: $(osd1_reweight)"
ok "a symbolic link at the socket path is refused"

# ---- root's own listener is talked to (what a mounted daemon gets) ----
# the same fake, now as root at the path itself: it gets the request and
# its descriptors, and its "done" is believed
start_fake root "$CL/crushfs.asok" "$T/rec/root"
cf "$CL" osd out 1 >/dev/null 2>&1 </dev/null || fail "root's listener was refused"
wait_for "root's listener to record what it got" 30 recorded "$T/rec/root"
grep -q '^fds=3 .* argv=osd,out,1$' "$T/rec/root" ||
	fail "root's listener got: $(cat "$T/rec/root")"
ok "a listener running as root gets the request"
