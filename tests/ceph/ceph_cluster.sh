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
# Facts met with Debian's 16.2.15 (and handled here): under auth none a
# new OSD's first start may die with "wrong fsid" when its first mon
# command races the monmap: the start is retried until `ceph osd stat`
# counts it up; osd_memory_target cannot go below 896 MiB; the CLI can
# answer "EPERM: problem getting command descriptions" right after the mon
# starts: every ceph call retries.
set -euo pipefail

cmd=${1:-}
dir=${2:-}
nosds=${3:-3}
[ -n "$cmd" ] && [ -n "$dir" ] || {
	echo "usage: ceph_cluster.sh start|stop|status DIR [NOSDS]" >&2
	exit 2
}
conf=$dir/ceph.conf

say() { echo "ceph_cluster: $*" >&2; }
die() { say "$*"; exit 1; }

# ceph with retries: a fresh mon refuses commands for a moment
c() {
	local out i
	for i in $(seq 1 30); do
		if out=$(timeout 20 ceph -c "$conf" "$@" 2>&1); then
			printf '%s\n' "$out"
			return 0
		fi
		case $out in
		*"problem getting command descriptions"* | *"error connecting"* | *"timed out"* | *"ObjectNotFound"* | *"wrong fsid"* | "")
			sleep 1 ;;
		*) printf '%s\n' "$out" >&2; return 1 ;;
		esac
	done
	printf '%s\n' "$out" >&2
	return 1
}

free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

stop() {
	local p pid
	[ -d "$dir/run" ] || return 0
	for p in "$dir"/run/*.pid; do
		[ -e "$p" ] || continue
		pid=$(cat "$p" 2>/dev/null || true)
		[ -n "$pid" ] && kill "$pid" 2>/dev/null || true
	done
	for _ in $(seq 1 100); do
		local alive=0
		for p in "$dir"/run/*.pid; do
			[ -e "$p" ] || continue
			pid=$(cat "$p" 2>/dev/null || true)
			[ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && alive=1
		done
		[ $alive = 0 ] && break
		sleep 0.1
	done
	for p in "$dir"/run/*.pid; do
		[ -e "$p" ] || continue
		pid=$(cat "$p" 2>/dev/null || true)
		[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null || true
		rm -f "$p"
	done
}

osd_up_count() {
	c osd stat -f json | python3 -c 'import json,sys; print(json.load(sys.stdin)["num_up_osds"])'
}

start_osd() {
	local id=$1 try log=$dir/log/osd.$id.log off pid
	for try in $(seq 1 8); do
		off=$(stat -c %s "$log" 2>/dev/null || echo 0)
		ceph-osd -c "$conf" -i "$id" 2>>"$dir/log/osd.$id.start.log" || true
		for _ in $(seq 1 120); do
			if c osd dump -f json | python3 -c "
import json,sys
d = json.load(sys.stdin)
sys.exit(0 if any(o['osd'] == $id and o['up'] for o in d['osds']) else 1)"; then
				return 0
			fi
			# its first mon command raced the monmap: it will never
			# boot; start it again at once
			tail -c +$((off + 1)) "$log" 2>/dev/null | grep -q "wrong fsid" && break
			pid=$(cat "$dir/run/osd.$id.pid" 2>/dev/null || true)
			[ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null && break
			sleep 0.5
		done
		say "osd.$id did not boot (start $try): starting it again"
		pid=$(cat "$dir/run/osd.$id.pid" 2>/dev/null || true)
		if [ -n "$pid" ]; then
			kill "$pid" 2>/dev/null || true
			for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
			kill -9 "$pid" 2>/dev/null || true
		fi
	done
	die "osd.$id never came up (see $log)"
}

start() {
	local fsid port id uuid
	command -v ceph-mon >/dev/null && command -v ceph-osd >/dev/null &&
		command -v ceph-mgr >/dev/null ||
		die "needs ceph-mon ceph-mgr ceph-osd (apt-get install -y ceph-mon ceph-mgr ceph-osd)"
	[ ! -e "$conf" ] || die "$dir already holds a cluster (stop and remove it first)"
	mkdir -p "$dir"/{mon,osd,run,log,mgr}
	dir=$(cd "$dir" && pwd)
	conf=$dir/ceph.conf
	fsid=$(uuidgen)
	port=$(free_port)
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
CONF
	ceph-authtool --create-keyring "$dir/keyring" --gen-key -n mon. \
		--cap mon 'allow *' >/dev/null
	monmaptool --create --fsid "$fsid" --addv a "[v1:127.0.0.1:$port]" \
		"$dir/monmap" >/dev/null
	ceph-mon -c "$conf" --mkfs -i a --monmap "$dir/monmap" \
		--keyring "$dir/keyring" 2>"$dir/log/mon.mkfs.log" ||
		die "ceph-mon --mkfs failed (see $dir/log/mon.mkfs.log)"
	ceph-mon -c "$conf" -i a || die "ceph-mon did not start"
	c mon stat >/dev/null || die "the mon does not answer"
	mkdir -p "$dir/mgr/ceph-x"
	ceph-mgr -c "$conf" -i x || die "ceph-mgr did not start"
	for i in $(seq 0 $((nosds - 1))); do
		uuid=$(uuidgen)
		id=$(c osd new "$uuid") || die "osd new failed"
		mkdir -p "$dir/osd/ceph-$id"
		ceph-osd -c "$conf" -i "$id" --mkfs --osd-uuid "$uuid" \
			2>"$dir/log/osd.$id.mkfs.log" >/dev/null ||
			die "ceph-osd --mkfs of osd.$id failed (see $dir/log/osd.$id.mkfs.log)"
		start_osd "$id"
	done
	[ "$(osd_up_count)" = "$nosds" ] || die "not every OSD is up"
	echo "CEPH_CONF=$conf"
}

case $cmd in
start)
	trap 'rc=$?; [ $rc = 0 ] || stop; exit $rc' EXIT
	start
	trap - EXIT ;;
stop) stop ;;
status) c -s ;;
*) die "unknown command '$cmd' (start, stop or status)" ;;
esac
