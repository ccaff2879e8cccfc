# wait.sh - waiting on a condition instead of sleeping a guessed time
# (issue 20): a sleep long enough on an idle machine is too short on a
# loaded one (ASan, two cores shared), and too long everywhere else.
# Sourced by mount_common.sh, cluster_common.sh and tests/ceph; sets no
# shell options of its own.
#
#   wait_for [-q] [-i SECONDS] WHAT LIMIT CMD [ARGS...]
#
# runs CMD until it succeeds, every 0.1 s (or -i SECONDS), for at most
# LIMIT seconds (a whole number); returns 0 as soon as it succeeds.  If
# it never does, prints "FAIL: timed out after LIMIT s waiting for WHAT"
# on stderr (not with -q: for a caller that has a way out, such as a
# stop that kills what did not stop) and returns 1, so that under
# `set -e` the test stops there with that line (in a condition, the
# caller decides).  The last poll
# ends after the time is up, so a slow poll is not cut short.  CMD is a
# command or a function (for `!`, pipes or `&&`, write a function); its
# output is not captured.  Limits are generous on purpose: they only
# cost time when something is wrong.

# wait_now_us: the wall clock in microseconds (bash 5's EPOCHREALTIME,
# whatever the locale's decimal point)
wait_now_us() {
	local t=$EPOCHREALTIME
	echo "${t//[!0-9]/}"
}

wait_for() {
	local every=0.1 quiet= what limit deadline
	if [ "${1:-}" = -q ]; then
		quiet=1
		shift
	fi
	if [ "${1:-}" = -i ]; then
		every=$2
		shift 2
	fi
	what=$1
	limit=$2
	shift 2
	deadline=$(($(wait_now_us) + limit * 1000000))
	while :; do
		if "$@"; then
			return 0
		fi
		[ "$(wait_now_us)" -lt "$deadline" ] || break
		# the poll interval, not a guess at how long the wait takes
		sleep "$every"
	done
	[ -n "$quiet" ] || echo "FAIL: timed out after $limit s waiting for $what" >&2
	return 1
}

# proc_gone PID: the process has exited (and, if it was this shell's
# child, been reaped: bash reaps a finished background job at once)
proc_gone() {
	! kill -0 "$1" 2>/dev/null
}

# reap PID WHAT STATUS...: wait for a background job; its exit status
# must be one of STATUS (137: killed by SIGKILL, 143: by SIGTERM), else
# the test fails naming WHAT and the status it got
reap() {
	local pid=$1 what=$2 rc=0 s
	shift 2
	wait "$pid" 2>/dev/null || rc=$?
	for s in "$@"; do
		[ "$rc" = "$s" ] && return 0
	done
	echo "FAIL: $what exited with status $rc, expected one of: $*" >&2
	return 1
}
