# mount_common.sh - helpers for the FUSE mount tests (tests/integ/mount_*.sh),
# in libfuse's test style: skip visibly without /dev/fuse, poll for the
# mount, clean up with `fusermount3 -u -z`, fail on errors in the daemon's
# stderr.  Source it; it sets `set -eu` and an EXIT trap.
#
# Environment (from ctest): CRUSHFS (the binary), CRUSHFS_SRC, CRUSHFS_BUILD.

set -eu

CRUSHFS=${CRUSHFS:-$(cd "$(dirname "$0")/../.." && pwd)/build/crushfs}
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

if [ ! -c /dev/fuse ]; then
	echo "SKIP: no /dev/fuse (FUSE mount tests need it)"
	exit 77
fi
if ! command -v fusermount3 >/dev/null; then
	echo "SKIP: fusermount3 not installed (apt-get install fuse3)"
	exit 77
fi
if [ ! -x "$CRUSHFS" ]; then
	echo "FAIL: no crushfs binary at $CRUSHFS" >&2
	exit 1
fi

T=$(mktemp -d /tmp/crushfs-test.XXXXXX)
chmod 755 "$T"
MOUNTS=()   # mount points to clean up
PIDS=()     # daemons started with -f
LOGS=()

cleanup() {
	local rc=$?
	set +e
	for m in "${MOUNTS[@]}"; do
		fusermount3 -u -z "$m" 2>/dev/null
	done
	for p in "${PIDS[@]}"; do
		kill "$p" 2>/dev/null
	done
	for p in "${PIDS[@]}"; do
		wait "$p" 2>/dev/null
	done
	if [ $rc -ne 0 ]; then
		for l in "${LOGS[@]}"; do
			[ -s "$l" ] && { echo "--- $l"; tail -n 40 "$l"; }
		done
	fi
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

# mkcluster DIR [mkfs options...]
mkcluster() {
	local dir=$1
	shift
	"$CRUSHFS" --cluster "$dir" mkfs "$@" >/dev/null ||
		fail "mkfs $dir $*"
}

is_mounted() {
	awk -v m="$1" '$2 == m && $3 == "fuse.crushfs" { f = 1 } END { exit !f }' \
		/proc/mounts
}

# mount_fg CLUSTER MNT [-o OPTS]: start a foreground daemon, wait for the
# mount.  Sets MPID (the daemon) and MLOG (its stderr).
mount_fg() {
	local cl=$1 mnt=$2
	shift 2
	mkdir -p "$mnt"
	MLOG=$T/daemon.$(basename "$mnt").$RANDOM.log
	LOGS+=("$MLOG")
	"$CRUSHFS" --cluster "$cl" mount "$mnt" -f "$@" 2>"$MLOG" &
	MPID=$!
	PIDS+=("$MPID")
	MOUNTS+=("$mnt")
	for _ in $(seq 1 300); do
		is_mounted "$mnt" && return 0
		kill -0 "$MPID" 2>/dev/null || { cat "$MLOG" >&2; fail "daemon for $mnt exited"; }
		sleep 0.1
	done
	fail "$mnt not mounted after 30 s"
}

# check_log LOG: no errors, sanitizer reports or leaks in the daemon's stderr
check_log() {
	if grep -E "ERROR|AddressSanitizer|LeakSanitizer|runtime error|Assertion" "$1" >&2; then
		fail "errors in the daemon's log $1"
	fi
}

# umount_fg MNT [PID LOG]: unmount, wait for the daemon, check its exit and log
umount_fg() {
	local mnt=$1 pid=${2:-$MPID} log=${3:-$MLOG} rc=0
	fusermount3 -u "$mnt" || fail "fusermount3 -u $mnt"
	for _ in $(seq 1 600); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	wait "$pid" || rc=$?
	[ $rc -eq 0 ] || { cat "$log" >&2; fail "daemon exited with $rc"; }
	check_log "$log"
}

# python helper for syscalls the shell lacks
py() {
	"$PY" -c "$@"
}
