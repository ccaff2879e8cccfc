#!/usr/bin/env bash
# make_import_fixtures.sh OUTDIR - the snapshot of a real Ceph 16.2 cluster
# that `crushfs mkfs --from-ceph` imports (issue 12), with the cluster's own
# answers to check the import against.  Starts a one-node cluster
# (ceph_cluster.sh, 6 OSDs), gives it what real clusters carry - device
# classes (4 hdd, 2 ssd), class rules, a replicated pool per class, an
# erasure pool (k=2 m=1 on hdd), a reweight, a primary affinity,
# pg_upmap_items and pg_upmap entries, some data - waits for the PGs to
# settle, then writes with read-only commands only:
#   osd_dump.json  crush_dump.json  crushmap.bin  osd_df.json  df.json
#   (what an operator collects: ceph osd dump / osd crush dump / osd
#   getcrushmap / osd df / df, -f json)
#   osd_map.json   the cluster's `osd map POOL OBJ -f json` for 200 objects
#                  of every pool
#   pg_dump.json   `pg dump pgs_brief -f json` (up and acting per PG)
# and stops every daemon it started.  With OUTDIR2, a second snapshot of
# the same cluster in the middle of things (see below).  Needs Debian's ceph-mon, ceph-mgr,
# ceph-osd and python3-rados (/usr/bin/python3).
set -euo pipefail
out=${1:?usage: make_import_fixtures.sh OUTDIR [OUTDIR2]}
out2=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
# ceph_cli, rados_cli (the monitor's transient answers asked again, real
# errors reported), ceph_wait_fresh_stats, wait_for
. "$here/ceph_cluster.sh"
work=$(mktemp -d /tmp/crushfs-ceph.XXXXXX)
cleanup() {
	local rc=$?
	# (a stop never fails: it kills what does not stop)
	bash "$here/ceph_cluster.sh" stop "$work/c"
	rm -rf "$work"
	exit $rc
}
trap cleanup EXIT

eval "$(bash "$here/ceph_cluster.sh" start "$work/c" 6)"
export CEPH_CONF
c() { ceph_cli "$@"; }

# classes: osd.4 and osd.5 are the ssds
c osd crush rm-device-class osd.4 osd.5 >/dev/null
c osd crush set-device-class ssd osd.4 osd.5 >/dev/null
c osd crush rule create-replicated hdd_rule default osd hdd
c osd crush rule create-replicated ssd_rule default osd ssd
c osd erasure-code-profile set ec21 k=2 m=1 crush-failure-domain=osd \
	crush-device-class=hdd
c osd pool create rbd 32 32 replicated hdd_rule
c osd pool create fast 16 16 replicated ssd_rule
c osd pool set fast size 2
c osd pool create ecpool 16 16 erasure ec21
# what the balancer and an operator leave behind
c osd reweight 2 0.8
c osd primary-affinity osd.1 0.5
c osd pg-upmap-items 2.1 0 3
c osd pg-upmap-items 2.7 1 2
c osd pg-upmap 3.2 5 4

dd if=/dev/urandom of="$work/blob" bs=1M count=2 status=none
for i in $(seq 1 24); do
	rados_cli -p rbd put "data-$i" "$work/blob"
done
for i in $(seq 1 8); do
	rados_cli -p ecpool put "ec-$i" "$work/blob"
done

# pgs_are WHAT: every PG is active and clean (WHAT=clean: remapped, on a
# pg_temp, is allowed), or past peering
# (WHAT=peered: in no passing state; degraded, remapped, backfill_wait
# or undersized and only peered are states that stay), as the manager
# has it
pgs_are() {
	c pg stat -f json | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)
s = d.get("pg_summary", d)
n = s["num_pgs"]
passing = {"peering", "activating", "unknown", "creating", "wait"}
if sys.argv[1] == "clean":
    ok = sum(x["num"] for x in s["num_pg_by_state"]
             if {"active", "clean"} <= set(x["name"].split("+")))
else:
    ok = sum(x["num"] for x in s["num_pg_by_state"]
             if not passing & set(x["name"].split("+")))
sys.exit(0 if n and ok == n else 1)' "$1"
}
# settle WHAT: the manager's view of after the last change (a report of
# every up OSD since), every PG as WHAT says, then the statistics (osd
# df, df) of that state: one more report of every up OSD
settle() {
	ceph_wait_fresh_stats
	wait_for -i 1 "every PG to be $1" 180 pgs_are "$1"
	ceph_wait_fresh_stats
}
settle clean

# snapshot DEST: what an operator collects, then the live answers; taken
# again when the osdmap epoch moved meanwhile (the answers must all be of
# the epoch osd_dump.json shows; the `sleep 3` is this retry loop's
# interval)
snapshot() {
	local dest=$1 before after
	for _ in 1 2 3 4 5; do
		before=$(c osd dump -f json | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["epoch"])')
		take "$dest"
		after=$(c osd dump -f json | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["epoch"])')
		[ "$before" != "$after" ] || return 0
		sleep 3
	done
	echo "make_import_fixtures: the osdmap keeps changing" >&2
	exit 1
}

take() {
	local dest=$1
	mkdir -p "$dest"
	c osd dump -f json >"$dest/osd_dump.json"
	c osd crush dump -f json >"$dest/crush_dump.json"
	c osd getcrushmap -o "$dest/crushmap.bin" 2>/dev/null
	c osd df -f json >"$dest/osd_df.json"
	c df -f json >"$dest/df.json"
	/usr/bin/python3 "$here/record_answers.py" "$CEPH_CONF" "$dest" >/dev/null
}

snapshot "$out"
echo "make_import_fixtures: $(ls "$out" | wc -l) files in $out"
[ -n "$out2" ] || exit 0

# The second snapshot: a cluster in the middle of things.  A compat
# weight-set (choose_args) as the balancer's crush-compat mode leaves,
# a primary_temp, osd.5 (an ssd) dead but still in, osd.3 out with
# backfill held (nobackfill), so PGs keep pg_temp entries.
c osd crush weight-set create-compat >/dev/null
c osd crush weight-set reweight-compat osd.0 0.0030 >/dev/null
c osd crush weight-set reweight-compat osd.2 0.0050 >/dev/null
c osd set nobackfill >/dev/null 2>&1
c osd set norebalance >/dev/null 2>&1
kill "$(cat "$work/c/run/osd.5.pid")"
# osd.5 down in the osdmap; until then it is marked down by hand (the
# monitor learns of a dead OSD from its peers only after a grace time)
osd5_down() {
	c osd dump -f json | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)
sys.exit(0 if [o for o in d["osds"] if o["osd"] == 5 and not o["up"]] else 1)' && return 0
	c osd down 5 >/dev/null
	return 1
}
wait_for -i 1 "osd.5 to be down" 60 osd5_down
c osd out 3
# peering: the primaries ask for their pg_temp
settle peered
c osd primary-temp 2.5 0 >/dev/null
settle peered
snapshot "$out2"
echo "make_import_fixtures: $(ls "$out2" | wc -l) files in $out2"
