# mount_common.sh - helpers for the FUSE mount tests (tests/integ/mount_*.sh),
# in libfuse's test style: skip visibly without /dev/fuse, poll for the
# mount, clean up with `fusermount3 -u -z`, fail on errors in the daemon's
# stderr.  Source it; it sets `set -eu` and an EXIT trap.
#
# Environment (from ctest): CRUSHFS (the binary), CRUSHFS_SRC, CRUSHFS_BUILD.

set -eu
# wait_for, proc_gone, reap
. "$(dirname "${BASH_SOURCE[0]}")/wait.sh"

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
AFTER=()    # commands run once the mounts and daemons are gone

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
	for a in "${AFTER[@]}"; do
		eval "$a"
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
	wait_for "the daemon to mount $mnt (or exit)" 60 mounted_or_gone "$mnt" "$MPID"
	is_mounted "$mnt" || { cat "$MLOG" >&2; fail "daemon for $mnt exited"; }
}

# mounted_or_gone MNT PID: the mount is there, or its daemon exited
mounted_or_gone() {
	is_mounted "$1" || proc_gone "$2"
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
	wait_for "daemon $pid to exit after the unmount of $mnt" 60 proc_gone "$pid"
	wait "$pid" || rc=$?
	[ $rc -eq 0 ] || { cat "$log" >&2; fail "daemon exited with $rc"; }
	check_log "$log"
}

# size_over FILE BYTES: FILE exists and holds more than BYTES (a copy in
# progress has got that far)
size_over() {
	[ "$(stat -c %s "$1" 2>/dev/null || echo 0)" -gt "$2" ]
}

# python helper for syscalls the shell lacks
py() {
	"$PY" -c "$@"
}
