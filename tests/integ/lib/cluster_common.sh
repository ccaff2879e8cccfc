# cluster_common.sh - helpers for the cluster integration tests
# (tests/integ/cluster_*.sh): a temporary directory, the crushfs binary,
# ok/fail lines, and checks that a command failed with one clear line.
# Source it; it sets `set -eu` and an EXIT trap.
#
# Environment (from ctest): CRUSHFS (the binary), CRUSHFS_SRC, CRUSHFS_BUILD.

set -eu
# wait_for, proc_gone, reap
. "$(dirname "${BASH_SOURCE[0]}")/wait.sh"

CRUSHFS=${CRUSHFS:-$(cd "$(dirname "$0")/../.." && pwd)/build/crushfs}
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
if [ ! -x "$CRUSHFS" ]; then
	echo "FAIL: no crushfs binary at $CRUSHFS" >&2
	exit 1
fi
# keep lock waits short: the tests never run two commands at once
export CRUSHFS_LOCK_WAIT_MS=200
unset CRUSHFS_CLUSTER

T=$(mktemp -d /tmp/crushfs-cluster-test.XXXXXX)
cleanup() {
	local rc=$?
	rm -rf "$T"
	exit $rc
}
trap cleanup EXIT

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

ok() {
	echo "ok - $*"
}

py() {
	"$PY" -c "$@"
}

# cf CLUSTER ARGS...: run crushfs on a cluster
cf() {
	local cl=$1
	shift
	"$CRUSHFS" --cluster "$cl" "$@"
}

# must_fail PATTERN CMD...: the command exits non-zero, prints exactly one
# line on stderr matching PATTERN (grep -E), and nothing that smells of a
# crash.
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
	grep -Eqi 'sanitizer|segmentation|assert' "$T/mf.err" &&
		fail "crash report from '$*'"
	return 0
}

# acting CLUSTER OBJ: the acting set of an object, e.g. "3,8,1"
acting() {
	cf "$1" osd map "$2" | sed -E 's/.*acting \(\[([0-9,]*)\].*/\1/'
}

# where CLUSTER OBJ: the OSDs whose folders hold the object, sorted
where() {
	(cd "$1" && ls -d osd.*/current/*/"$2" 2>/dev/null) |
		sed -E 's#osd\.([0-9]+)/.*#\1#' | sort -n | paste -sd, -
}
