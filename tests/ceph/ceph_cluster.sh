#!/usr/bin/env bash
# ceph_cluster.sh - a one-node Ceph 16.2 from Debian's packages, for the
# tests that need a real cluster (issue 12): one mon, one mgr, 3 bluestore
# OSDs on sparse files, loopback only, no cephx, msgr v1, one host (pool
# default size 3 with `osd crush chooseleaf type 0`), PG autoscale off.
# Everything lives in DIR; every daemon started is stopped by its pid.
#
#   tests/ceph/ceph_cluster.sh start DIR [NOSDS]   prints CEPH_CONF=DIR/ceph.conf
#   tests/ceph/ceph_cluster.sh stop DIR
#   tests/ceph/ceph_cluster.sh status DIR
#
# `start` returns once the monitor has quorum, the manager is available
# and every OSD is up (each waited for with a time limit, and a failure
# that says which and where its log is).
#
# Sourced (`. tests/ceph/ceph_cluster.sh`, with CEPH_CONF set), it gives
# the tests the one way to ask the cluster (issue 20):
#   ceph_cli ARGS...     `ceph ARGS`, asked again on the monitor's transient
#                        answers, any other failure reported and passed on
#   rados_cli ARGS...    `rados ARGS`, the same way
#   ceph_wait_ready N    quorum, an available manager, N OSDs up
#   ceph_wait_fresh_stats  every up OSD has sent the manager a statistics
#                        report since the call (osd df, df are current)
# Sourcing defines ceph_* functions (and wait.sh's) and nothing else: no
# shell options, no variables (CEPH_SEQS is set by ceph_read_seqs).
#
# Facts met with Debian's 16.2.15 (and handled here): under auth none a
# client may send its first mon command before it has the monmap, with a
# zero fsid, and be told EPERM "wrong fsid" (the mon's log: "handle_command
# on fsid 00000000-... != ..."); an OSD told so at its start (setting its
# device class and crush location) dies: so the OSDs do not send those
# (osd crush/class update on start = false), this script sets the same
# values through the CLI, which asks again; a start is still retried if
# the daemon dies.  osd_memory_target cannot go below 896 MiB; the CLI can
# answer "EPERM: problem getting command descriptions" right after the
# mon starts, and again under load (ASan builds): every ceph call retries.

# wait_for, proc_gone
. "$(dirname "${BASH_SOURCE[0]}")/../integ/lib/wait.sh"

ceph_say() { echo "ceph_cluster: $*" >&2; }

# ceph_transient RC ERRFILE: is this failure one of the passing answers a
# monitor gives while it starts, elects or is busy, or a call that hung?
# Asking again is right for those only; anything else is a real answer.
ceph_transient() {
	[ "$1" -ge 124 ] && return 0 # timeout(1) or a signal: the call hung
	grep -Eqi 'problem getting command descriptions|error connecting to the cluster|EAGAIN|Resource temporarily unavailable|ETIMEDOUT|timed out|monclient|wrong fsid' \
		"$2"
}

# ceph_retry CMD ARGS...: run a Ceph client command; while it fails with
# a transient answer (ceph_transient), ask again, 2 s apart, for up to
# 120 s.  Its stdout and stderr are passed on (with CEPH_QUIET=1, its
# stderr only when it fails: "marked out osd.1." is not worth a line); a
# failure that stands adds one line saying which command failed and
# how, so that a test under `set -e` never stops without a word.  Each
# call may take 60 s.
ceph_retry() {
	local errf out rc tries=0 t0=$SECONDS
	errf=$(mktemp "${TMPDIR:-/tmp}/ceph_retry.XXXXXX")
	while :; do
		tries=$((tries + 1))
		rc=0
		out=$(timeout -k 5 60 "$@" 2>"$errf") || rc=$?
		[ $rc -ne 0 ] && ceph_transient $rc "$errf" &&
			[ $((SECONDS - t0)) -lt 120 ] || break
		# the interval between two tries: the monitor needs a moment
		sleep 2
	done
	[ $rc -eq 0 ] && [ -n "${CEPH_QUIET:-}" ] || cat "$errf" >&2
	rm -f "$errf"
	[ -z "$out" ] || printf '%s\n' "$out"
	if [ $rc -ne 0 ]; then
		ceph_say "'$*' failed (exit $rc$([ $tries -eq 1 ] || echo ", $tries tries in $((SECONDS - t0)) s"))"
	fi
	return $rc
}

ceph_cli() { ceph_retry ceph -c "${CEPH_CONF:?}" "$@"; }
rados_cli() { ceph_retry rados -c "${CEPH_CONF:?}" "$@"; }

# ceph_json EXPR: reads JSON on stdin, true if the python expression EXPR
# (of d, the document) is; false (quietly) on no or broken input
ceph_json() {
	/usr/bin/python3 -c "
import json, sys
try:
    d = json.load(sys.stdin)
except ValueError:
    sys.exit(1)
sys.exit(0 if ($1) else 1)"
}

# the conditions ceph_wait_ready waits for, each asked once (a failed
# call is "not yet": the wait's time limit is the judge)
ceph_has_quorum() {
	# the monitor's own admin socket: it answers before any quorum
	ceph --admin-daemon "$(dirname "$CEPH_CONF")/run/ceph-mon.a.asok" \
		mon_status 2>/dev/null |
		ceph_json 'd["state"] in ("leader", "peon") and d["quorum"]'
}
ceph_mgr_available() {
	timeout -k 5 30 ceph -c "$CEPH_CONF" mgr stat -f json 2>/dev/null |
		ceph_json 'd["available"]'
}
ceph_osds_up() {
	timeout -k 5 30 ceph -c "$CEPH_CONF" osd stat -f json 2>/dev/null |
		ceph_json "d['num_up_osds'] == $1"
}
ceph_osd_up() {
	timeout -k 5 30 ceph -c "$CEPH_CONF" osd dump -f json 2>/dev/null |
		ceph_json "any(o['osd'] == $1 and o['up'] for o in d['osds'])"
}

# ceph_wait_ready NOSDS: the monitor has quorum, the manager is available,
# NOSDS OSDs are up; 1 (and a line naming what did not happen and the
# log to read) if one does not come within its time limit
ceph_wait_ready() {
	local d
	d=$(dirname "${CEPH_CONF:?}")
	wait_for "the monitor's quorum (see $d/log/mon.a.log)" 60 \
		ceph_has_quorum || return 1
	wait_for -i 0.5 "the manager to be available (see $d/log/mgr.x.log)" 120 \
		ceph_mgr_available || return 1
	wait_for -i 0.5 "$1 OSDs up (see $d/log/osd.*.log)" 120 \
		ceph_osds_up "$1" || return 1
}

# ceph_read_seqs: CEPH_SEQS = each up OSD's statistics report counter as
# the manager has it (`pg dump osds`: seq), as "id:seq" words; false if
# the manager has none to give yet
ceph_read_seqs() {
	local up
	up=$(timeout -k 5 30 ceph -c "$CEPH_CONF" osd dump -f json 2>/dev/null |
		/usr/bin/python3 -c '
import json, sys
print(" ".join(str(o["osd"]) for o in json.load(sys.stdin)["osds"] if o["up"]))' 2>/dev/null) &&
		[ -n "$up" ] || return 1
	CEPH_SEQS=$(timeout -k 5 30 ceph -c "$CEPH_CONF" pg dump osds -f json 2>/dev/null |
		/usr/bin/python3 -c '
import json, sys
up = {int(i) for i in sys.argv[1].split()}
s = {o["osd"]: o["seq"] for o in json.load(sys.stdin)["osd_stats"]}
if up - set(s):
    sys.exit(1)
print(" ".join("%d:%d" % (i, s[i]) for i in sorted(up)))' "$up" 2>/dev/null) &&
		[ -n "$CEPH_SEQS" ]
}
# ceph_stats_after SEQS: every OSD of SEQS has sent a newer report
ceph_stats_after() {
	timeout -k 5 30 ceph -c "$CEPH_CONF" pg dump osds -f json 2>/dev/null |
		ceph_json "all(any(o['osd'] == int(w.split(':')[0]) and o['seq'] > int(w.split(':')[1]) for o in d['osd_stats']) for w in '$1'.split())"
}
# ceph_wait_fresh_stats: wait until the manager's statistics (osd df, df,
# pg dump) are of now or later: a report of every up OSD (each sends
# one every 5 s) newer than the ones it has now
ceph_wait_fresh_stats() {
	wait_for -i 1 "the manager's OSD statistics" 60 ceph_read_seqs ||
		return 1
	wait_for -i 1 "a statistics report of every up OSD newer than $CEPH_SEQS (id:seq)" 60 \
		ceph_stats_after "$CEPH_SEQS"
}

# ---- the command (not when sourced) ----

ceph_die() { ceph_say "$*"; exit 1; }

ceph_free_port() {
	/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# ceph_pids DIR: the pids of the daemons started in DIR
ceph_pids() {
	local p
	for p in "$1"/run/*.pid; do
		[ -e "$p" ] && cat "$p" 2>/dev/null
	done
	return 0
}
ceph_all_gone() {
	local pid
	for pid in $(ceph_pids "$1"); do
		proc_gone "$pid" || return 1
	done
}

ceph_stop() {
	local dir=$1 pid
	[ -d "$dir/run" ] || return 0
	for pid in $(ceph_pids "$dir"); do
		# (one that exited already cannot be signalled: nothing to do)
		kill "$pid" 2>/dev/null || true
	done
	# a daemon that does not stop in 10 s is killed (one may be gone
	# by then: that kill fails, as it may): a stop never fails
	wait_for -q "the daemons of $dir to stop" 10 ceph_all_gone "$dir" ||
		for pid in $(ceph_pids "$dir"); do kill -9 "$pid" 2>/dev/null || true; done
	rm -f "$dir"/run/*.pid
}

ceph_start_osd() {
	local dir=$1 id=$2 try log=$1/log/osd.$2.log off pid
	for try in $(seq 1 8); do
		off=$(stat -c %s "$log" 2>/dev/null || echo 0)
		# (its own start may fail, as the race below: the loop sees it)
		ceph-osd -c "$CEPH_CONF" -i "$id" 2>>"$dir/log/osd.$id.start.log" || true
		for _ in $(seq 1 120); do
			ceph_osd_up "$id" && return 0
			# a mon command raced its monmap (see above): it will
			# never boot; start it again at once
			tail -c +$((off + 1)) "$log" 2>/dev/null | grep -q "wrong fsid" && break
			pid=$(cat "$dir/run/osd.$id.pid" 2>/dev/null) || pid=
			[ -n "$pid" ] && proc_gone "$pid" && break
			# the poll interval of this wait (60 s per start)
			sleep 0.5
		done
		ceph_say "osd.$id did not boot (start $try): starting it again"
		pid=$(cat "$dir/run/osd.$id.pid" 2>/dev/null) || pid=
		# (the kills may find it gone meanwhile: nothing to do then)
		if [ -n "$pid" ] && ! proc_gone "$pid"; then
			kill "$pid" 2>/dev/null || true
			wait_for -q "osd.$id ($pid) to stop" 10 proc_gone "$pid" ||
				kill -9 "$pid" 2>/dev/null || true
		fi
	done
	ceph_die "osd.$id never came up (see $log)"
}

ceph_start() {
	local dir=$1 nosds=$2 conf fsid port id uuid i
	command -v ceph-mon >/dev/null && command -v ceph-osd >/dev/null &&
		command -v ceph-mgr >/dev/null ||
		ceph_die "needs ceph-mon ceph-mgr ceph-osd (apt-get install -y ceph-mon ceph-mgr ceph-osd)"
	[ ! -e "$dir/ceph.conf" ] || ceph_die "$dir already holds a cluster (stop and remove it first)"
	mkdir -p "$dir"/{mon,osd,run,log,mgr}
	dir=$(cd "$dir" && pwd)
	conf=$dir/ceph.conf
	CEPH_CONF=$conf
	fsid=$(uuidgen)
	port=$(ceph_free_port)
	cat >"$conf" <<CONF
[global]
fsid = $fsid
mon initial members = a
mon host = v1:127.0.0.1:$port
public network = 127.0.0.1/32
ms bind msgr2 = false
ms bind ipv6 = false
auth cluster required = none
auth service required = none
auth client required = none
auth supported = none
osd pool default size = 3
osd pool default min size = 2
osd crush chooseleaf type = 0
osd pool default pg autoscale mode = off
mon allow pool delete = true
mon warn on pool no redundancy = false
mon max pg per osd = 1000
run dir = $dir/run
pid file = $dir/run/\$type.\$id.pid
admin socket = $dir/run/\$cluster-\$name.asok
log file = $dir/log/\$name.log
mon data = $dir/mon/\$cluster-\$id
mgr data = $dir/mgr/\$cluster-\$id
osd data = $dir/osd/\$cluster-\$id
keyring = $dir/keyring
osd objectstore = bluestore
bluestore block create = true
bluestore block size = 4294967296
bluestore fsck on mount = false
osd memory target = 939524096
osd max object size = 134217728
debug ms = 0
mgr initial modules =
mon_pg_warn_min_per_osd = 0
mon warn on insecure global id reclaim allowed = false
mon warn on insecure global id reclaim = false
osd crush update on start = false
osd class update on start = false
CONF
	ceph-authtool --create-keyring "$dir/keyring" --gen-key -n mon. \
		--cap mon 'allow *' >/dev/null
	monmaptool --create --fsid "$fsid" --addv a "[v1:127.0.0.1:$port]" \
		"$dir/monmap" >/dev/null
	ceph-mon -c "$conf" --mkfs -i a --monmap "$dir/monmap" \
		--keyring "$dir/keyring" 2>"$dir/log/mon.mkfs.log" ||
		ceph_die "ceph-mon --mkfs failed (see $dir/log/mon.mkfs.log)"
	ceph-mon -c "$conf" -i a || ceph_die "ceph-mon did not start"
	wait_for "the monitor's quorum (see $dir/log/mon.a.log)" 60 ceph_has_quorum ||
		ceph_die "no monitor"
	mkdir -p "$dir/mgr/ceph-x"
	ceph-mgr -c "$conf" -i x || ceph_die "ceph-mgr did not start"
	for i in $(seq 0 $((nosds - 1))); do
		uuid=$(uuidgen)
		id=$(ceph_cli osd new "$uuid") || ceph_die "osd new failed"
		mkdir -p "$dir/osd/ceph-$id"
		ceph-osd -c "$conf" -i "$id" --mkfs --osd-uuid "$uuid" \
			2>"$dir/log/osd.$id.mkfs.log" >/dev/null ||
			ceph_die "ceph-osd --mkfs of osd.$id failed (see $dir/log/osd.$id.mkfs.log)"
		# what the OSD would set at its start (OSD::init): its class
		# (hdd, as bluestore on a file here says), then its place,
		# weighted by its size in TiB as "%.4lf" (4 GiB: 0.0039)
		CEPH_QUIET=1 ceph_cli osd crush set-device-class hdd "osd.$id" ||
			ceph_die "osd.$id: set-device-class failed"
		CEPH_QUIET=1 ceph_cli osd crush create-or-move "osd.$id" 0.0039 \
			root=default "host=$(hostname -s)" ||
			ceph_die "osd.$id: crush create-or-move failed"
		ceph_start_osd "$dir" "$id"
	done
	ceph_wait_ready "$nosds" || ceph_die "the cluster in $dir is not ready"
	echo "CEPH_CONF=$conf"
}

ceph_cluster_main() {
	local cmd=${1:-} dir=${2:-} nosds=${3:-3}
	[ -n "$cmd" ] && [ -n "$dir" ] || {
		echo "usage: ceph_cluster.sh start|stop|status DIR [NOSDS]" >&2
		exit 2
	}
	case $cmd in
	start)
		# a start that fails stops what it started
		trap "rc=\$?; [ \$rc = 0 ] || ceph_stop $(printf %q "$dir"); exit \$rc" EXIT
		ceph_start "$dir" "$nosds"
		trap - EXIT ;;
	stop) ceph_stop "$dir" ;;
	status) CEPH_CONF=$dir/ceph.conf ceph_cli -s ;;
	*) ceph_die "unknown command '$cmd' (start, stop or status)" ;;
	esac
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	set -euo pipefail
	ceph_cluster_main "$@"
fi
