#!/usr/bin/env bash
# `rados put/get` on a mounted cluster: the CLI hands its stdin/stdout to
# the daemon over the admin socket (SCM_RIGHTS), so `put NAME -` and
# `get NAME -` move the real bytes: pipes and redirected files, 0 bytes,
# an object far larger than any socket or pipe buffer (and than one put
# piece), named files relative to the caller's directory; what the daemon
# stored reads back the same unmounted and the other way round; errors
# are one line and a non-zero exit; a client killed in the middle of a put
# leaves the daemon free.  Issue 8 item 5: `put NAME -` stored 0 bytes and
# exited 0, `get NAME -` failed with "Bad file descriptor".
. "$(dirname "$0")/lib/mount_common.sh"

CL=$T/cl
M=$T/mnt
mkcluster "$CL" --osd-size 512M --pg-num 32
C=("$CRUSHFS" --cluster "$CL")

# must_fail PATTERN CMD...: non-zero exit (no crash), exactly one line on
# stderr matching PATTERN, nothing on stdout
must_fail() {
	local pat=$1 rc=0
	shift
	"$@" >"$T/mf.out" 2>"$T/mf.err" || rc=$?
	[ $rc -ne 0 ] || fail "expected failure: $*"
	[ $rc -lt 128 ] || fail "crashed (status $rc): $*"
	[ "$(wc -l <"$T/mf.err")" = 1 ] ||
		fail "expected one error line from '$*', got: $(cat "$T/mf.err")"
	grep -Eq -- "$pat" "$T/mf.err" ||
		fail "error of '$*' does not match /$pat/: $(cat "$T/mf.err")"
	[ ! -s "$T/mf.out" ] || fail "'$*' wrote to stdout on failure"
}

sizes="0 1 4096 123457 67112961" # the last: 64 MiB + 4097, two put pieces
for s in $sizes; do head -c "$s" /dev/urandom >"$T/in.$s"; done
# written unmounted, read mounted below
"${C[@]}" rados put offline "$T/in.123457" || fail "put offline"

mount_fg "$CL" "$M"
[ -S "$CL/crushfs.asok" ] || fail "no admin socket"

for s in $sizes; do
	# stdin a pipe, stdout a pipe
	cat "$T/in.$s" | "${C[@]}" rados put "p.$s" - || fail "put $s from a pipe"
	"${C[@]}" rados get "p.$s" - | cat >"$T/p.$s" || fail "get $s to a pipe"
	cmp "$T/in.$s" "$T/p.$s" || fail "pipe round trip of $s bytes"
	st=$("${C[@]}" rados stat "p.$s")
	[[ $st == "crushfs_data/p.$s mtime "*", size $s" ]] || fail "stat: $st"
	# stdin and stdout redirected files
	"${C[@]}" rados put "r.$s" - <"$T/in.$s" || fail "put $s from <file"
	"${C[@]}" rados get "r.$s" - >"$T/r.$s" || fail "get $s to >file"
	cmp "$T/in.$s" "$T/r.$s" || fail "redirect round trip of $s bytes"
done
ok "put/get - through pipes and redirections ($sizes bytes)"

# named files, relative to the caller's working directory
mkdir "$T/wd"
(cd "$T/wd" && cp "$T/in.67112961" rel.in &&
	"${C[@]}" rados put named rel.in && "${C[@]}" rados get named rel.out) ||
	fail "put/get of named relative files"
cmp "$T/in.67112961" "$T/wd/rel.out" || fail "named file round trip"
"${C[@]}" rados get offline "$T/off" && cmp "$T/in.123457" "$T/off" ||
	fail "object written unmounted, read mounted"
# get - to a file opened for appending: the daemon writes where we are
printf 'head:' >"$T/app"
"${C[@]}" rados get p.1 - >>"$T/app" || fail "get >> file"
[ "$(head -c 5 "$T/app")" = head: ] && [ "$(stat -c %s "$T/app")" = 6 ] &&
	cmp -s <(tail -c 1 "$T/app") "$T/in.1" || fail "get - >> file: $(od -c "$T/app")"
out=$("${C[@]}" -f json rados put j - <"$T/in.4096") || fail "put -f json"
[ "$out" = '{"pool":"crushfs_data","name":"j","size":4096}' ] ||
	fail "put -f json: $out"
ok "named files, appending stdout, -f json"

# errors: one line, non-zero, no bytes
must_fail '^crushfs: rados get: error getting crushfs_data/nope: \(2\) No such file or directory$' \
	"${C[@]}" rados get nope -
must_fail 'error getting crushfs_data/nope: \(2\) No such file' \
	"${C[@]}" rados get nope "$T/nope.out"
[ ! -e "$T/nope.out" ] || fail "get of a missing object created the file"
must_fail '^crushfs: rados put: stdin: Bad file descriptor$' \
	"${C[@]}" rados put closed - <&-
must_fail '^crushfs: rados get: stdout: Bad file descriptor$' \
	bash -c '"$@" >&-; rc=$?; exit $rc' _ "${C[@]}" rados get p.1 -
"${C[@]}" rados stat closed 2>/dev/null && fail "put from a closed stdin stored an object"
must_fail 'rados put: .*/wd/nosuch: No such file or directory' \
	"${C[@]}" rados put x "$T/wd/nosuch"
must_fail 'rados put: .*: Is a directory' "${C[@]}" rados put x "$T/wd"
must_fail 'rados get: .*/no/such/dir/f: No such file or directory' \
	"${C[@]}" rados get p.1 "$T/no/such/dir/f"
# a reader that stops early: the daemon sees EPIPE, not a signal
# (the pipeline's status is head's; get's is not asked for: it is
# expected to fail, its stderr is the check)
"${C[@]}" rados get p.67112961 - 2>"$T/epipe.err" | head -c 10 >/dev/null
grep -q 'stdout: Broken pipe' "$T/epipe.err" || fail "get | head: $(cat "$T/epipe.err")"
ok "errors: one line each, non-zero exit, nothing stored or created"

# A client killed in the middle of a put from a pipe that never ends: the
# daemon drops the request (nothing stored) and serves the next ones.
mkfifo "$T/fifo"
# not a wait: a writer that holds the fifo open and never writes (the
# pipe that never ends), bounded so that it cannot outlive the test
sleep 60 >"$T/fifo" &
HOLD=$!
"${C[@]}" rados put stalled - <"$T/fifo" &
CLI=$!
# killed once the daemon has the request in hand
wait_for "the stalled put to reach the daemon" 30 \
	grep -q 'admin socket: rados put stalled -' "$MLOG"
kill "$CLI"
reap "$CLI" "the killed rados put" 143
kill "$HOLD"
reap "$HOLD" "the fifo's writer" 143
wait_for "the daemon to notice the client leaving" 30 \
	grep -q 'admin socket: rados: the client left before the answer' "$MLOG"
"${C[@]}" rados stat stalled 2>/dev/null && fail "a cancelled put stored an object"
"${C[@]}" rados get p.4096 - | cmp - "$T/in.4096" || fail "daemon after a cancelled put"
ok "a killed client does not hold the daemon"

# What the daemon stored, read unmounted.
umount_fg "$M"
for s in $sizes; do
	"${C[@]}" rados get "p.$s" - | cmp - "$T/in.$s" || fail "p.$s read unmounted"
	"${C[@]}" rados get "r.$s" "$T/u" && cmp "$T/u" "$T/in.$s" ||
		fail "r.$s read unmounted"
done
"${C[@]}" check --deep >/dev/null || fail "check --deep after the mounted puts"
ok "objects put through the daemon read back unmounted; check --deep clean"
