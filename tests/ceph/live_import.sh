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
# ceph_cli (every ceph call: the monitor's transient answers asked again,
# real errors reported), ceph_wait_fresh_stats, wait_for
. "$here/ceph_cluster.sh"
work=$(mktemp -d /tmp/crushfs-live.XXXXXX)
cleanup() {
	local rc=$?
	# (a stop never fails: it kills what does not stop)
	bash "$here/ceph_cluster.sh" stop "$work/c"
	rm -rf "$work"
	exit $rc
}
trap cleanup EXIT

eval "$(bash "$here/ceph_cluster.sh" start "$work/c" 4)"
export CEPH_CONF
c() { ceph_cli "$@"; }

# all_clean: every PG active and clean, as the manager has it; remapped
# too is a state that stays (after `osd out 2` CRUSH finds no third OSD
# for some PGs on the one host: active+clean+remapped, on their pg_temp)
all_clean() {
	c pg stat -f json | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)
s = d.get("pg_summary", d)
clean = sum(x["num"] for x in s["num_pg_by_state"]
            if {"active", "clean"} <= set(x["name"].split("+")))
sys.exit(0 if s["num_pgs"] and clean == s["num_pgs"] else 1)'
}
# settle: the manager's view of after the last change (a report of every
# up OSD since), every PG active and clean, then the statistics (osd df,
# df) of the clean cluster: one more report of every up OSD
settle() {
	ceph_wait_fresh_stats || return 1
	wait_for -i 1 "every PG to be active and clean" 180 all_clean ||
		{ c -s >&2; return 1; }
	ceph_wait_fresh_stats
}

# import DEST: the cluster's answers, then the import of the same epoch;
# a try that fails says why and is tried again 10 s later (each `sleep
# 10` below is the interval of this retry loop, whose condition is the
# comparison)
import() {
	local dest=$1 epoch try
	for try in 1 2 3; do
		rm -rf "$dest" "$dest.cluster"
		mkdir -p "$dest"
		epoch=$(/usr/bin/python3 "$here/record_answers.py" "$CEPH_CONF" \
			"$dest" 100 2>"$dest.check") || {
			echo "live_import: try $try: record_answers.py: $(tail -3 "$dest.check")" >&2
			sleep 10
			continue
		}
		# a new client may still be told "wrong fsid" (its first command
		# raced its monmap, see ceph_cluster.sh): crushfs does not ask
		# again on that answer itself, this loop does
		"$crushfs" --cluster "$dest.cluster" import-ceph --live \
			--conf "$CEPH_CONF" --save "$dest" --prefill \
			>"$dest.import" 2>&1 || {
			cat "$dest.import" >"$dest.check"
			echo "live_import: try $try: import-ceph: $(tail -3 "$dest.import")" >&2
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
		echo "live_import: try $try: the import differs or moved on: $(tail -3 "$dest.check")" >&2
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
# the first upmap item may be refused, depending on where PG 2.3 maps
# (an expected refusal: quiet); then the second must work
c osd pg-upmap-items 2.3 0 3 >/dev/null 2>&1 || c osd pg-upmap-items 2.3 1 3 >/dev/null
settle
import "$work/s1"

# the cluster changes; a new import follows it
c osd out 2
settle
import "$work/s2"
echo "live_import: ok"
