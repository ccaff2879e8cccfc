#!/usr/bin/env bash
# live_import.sh - `crushfs import-ceph --live` against a real one-node Ceph
# 16.2 (ceph_cluster.sh, 4 OSDs): a replicated pool with a reweight and a
# pg_upmap_items entry, an erasure pool (k=2 m=1, failure domain osd); the
# import must answer `osd map` as the cluster does for 100 objects of each
# pool, every PG's up/acting, `osd df` and each pool's MAX AVAIL
# (check_import.sh on the snapshot plus the cluster's answers, recorded
# by record_answers.py); then an OSD goes out on the cluster, a new import
# must follow.  Needs Debian's ceph-mon, ceph-mgr, ceph-osd (and the
# python3-rados they bring); skips (77) without them.
set -euo pipefail
crushfs=${CRUSHFS:?CRUSHFS=path/to/crushfs}
here=$(cd "$(dirname "$0")" && pwd)
for b in ceph-mon ceph-mgr ceph-osd ceph; do
	command -v "$b" >/dev/null || { echo "SKIP: $b not installed"; exit 77; }
done
work=$(mktemp -d /tmp/crushfs-live.XXXXXX)
cleanup() { bash "$here/ceph_cluster.sh" stop "$work/c" || true; rm -rf "$work"; }
trap cleanup EXIT

eval "$(bash "$here/ceph_cluster.sh" start "$work/c" 4)"
# the ceph CLI; a monitor busy under load (ASan builds) sometimes answers
# "problem getting command descriptions" (EPERM) to a new client: that
# one is asked again, any other error stands
c() {
	local i rc out
	for i in 1 2 3 4 5; do
		rc=0
		out=$(ceph -c "$CEPH_CONF" "$@" 2>"$work/c.err") || rc=$?
		[ $rc -ne 0 ] && grep -q "problem getting command descriptions" "$work/c.err" &&
			{ sleep 1; continue; }
		break
	done
	cat "$work/c.err" >&2
	[ -z "$out" ] || printf '%s\n' "$out"
	return $rc
}

settle() {
	for _ in $(seq 1 180); do
		if c pg stat -f json | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)
s = d.get("pg_summary", d)
clean = sum(x["num"] for x in s["num_pg_by_state"] if x["name"] == "active+clean")
sys.exit(0 if s["num_pgs"] and clean == s["num_pgs"] else 1)'; then
			sleep 6 # one more mgr stats report (osd df, df)
			return 0
		fi
		sleep 1
	done
	echo "live_import: the PGs did not settle" >&2
	c -s >&2
	return 1
}

# import DEST: the cluster's answers, then the import of the same epoch
import() {
	local dest=$1 epoch
	for _ in 1 2 3; do
		rm -rf "$dest" "$dest.cluster"
		mkdir -p "$dest"
		epoch=$(/usr/bin/python3 "$here/record_answers.py" "$CEPH_CONF" \
			"$dest" 100 2>"$dest.check") || { sleep 10; continue; }
		# a fresh cluster's monitor may still answer "wrong fsid" to a
		# new client (the race ceph_cluster.sh meets with OSDs): retry
		"$crushfs" --cluster "$dest.cluster" import-ceph --live \
			--conf "$CEPH_CONF" --save "$dest" --prefill \
			>"$dest.import" 2>&1 || {
			cat "$dest.import" >"$dest.check"
			sleep 10
			continue
		}
		# the manager's statistics (pg dump, osd df) trail the osdmap
		# by a few seconds after a change: compare again a little later
		if /usr/bin/python3 -c 'import json,sys; sys.exit(json.load(open(sys.argv[1]))["epoch"] != int(sys.argv[2]))' \
			"$dest/osd_dump.json" "$epoch" &&
			bash "$here/check_import.sh" "$crushfs" "$dest" >"$dest.check" 2>&1; then
			cat "$dest.check"
			return
		fi
		sleep 10
	done
	cat "$dest.check" >&2
	echo "live_import: no consistent snapshot in 3 tries" >&2
	return 1
}

c osd pool create data 32 32 replicated >/dev/null
c osd erasure-code-profile set ec21 k=2 m=1 crush-failure-domain=osd
c osd pool create ec 16 16 erasure ec21 >/dev/null
c osd reweight 1 0.7 >/dev/null
c osd pg-upmap-items 2.3 0 3 >/dev/null 2>&1 || c osd pg-upmap-items 2.3 1 3 >/dev/null
settle
import "$work/s1"

# the cluster changes; a new import follows it
c osd out 2
settle
import "$work/s2"
echo "live_import: ok"
