Backfill with honest acting sets (Ceph's pg_temp): after a map change the
up set follows CRUSH at once, the acting set stays on the OSDs that hold
the data until rebalance (backfill) has copied it.

  $ crushfs --cluster c mkfs --osd-size 64M --pg-num 16 > /dev/null
  $ for i in 1 2 3 4 5 6 7 8; do head -c $((i * 100000)) /dev/zero | tr '\0' "$i" > f$i; crushfs --cluster c rados put obj$i f$i; done

osd.4 weighs next to nothing: its PGs move.  The ones holding data get a
pg_temp (an empty PG has nothing to backfill and follows CRUSH at once):

  $ crushfs --cluster c osd crush reweight osd.4 0.0001
  reweighted item id 4 name 'osd.4' to 0.0001 in crush map
  $ crushfs --cluster c pg ls remapped
  PG   OBJECTS  DEGRADED  MISPLACED  UNFOUND  BYTES   STATE                          UP           ACTING
  1.4        1         0          2        0  600000  active+remapped+backfill_wait  [0,3,6]p0    [4,6,7]p4
  1.8        1         0          1        0  200000  active+remapped+backfill_wait  [11,2,5]p11  [11,2,0]p11
  $ crushfs --cluster c osd dump | grep pg_temp
  pg_temp 1.4 [4,6,7]
  pg_temp 1.8 [11,2,0]
  $ crushfs --cluster c osd map obj6
  osdmap e2 pool 'crushfs_data' (1) object 'obj6' -> pg 1.83425cc4 (1.4) -> up ([0,3,6], p0) acting ([4,6,7], p4)
  $ crushfs --cluster c -f json osd dump | python3 -c 'import json,sys; print(json.load(sys.stdin)["pg_temp"])'
  [{'pgid': '1.4', 'osds': [4, 6, 7]}, {'pgid': '1.8', 'osds': [11, 2, 0]}]
  $ crushfs --cluster c status | grep -E 'osd:|misplaced|remapped' | sed -E 's/ \(since [0-9]+[smhdwMy]\)/ (since T)/g'
              3/24 objects misplaced (12.500%)
      osd: 12 osds: 12 up (since T), 12 in (since T); 2 remapped pgs
      pgs:     3/24 objects misplaced (12.500%)
               2  active+remapped+backfill_wait

The data is read from where it is, and a write goes there too (the up
set's new members get it from backfill):

  $ crushfs --cluster c rados get obj6 back && cmp back f6 && echo same
  same
  $ crushfs --cluster c rados put obj6 f7
  $ crushfs --cluster c rados get obj6 back && cmp back f7 && echo same
  same
  $ ls c/osd.*/current/1.4_head/obj6 | sort
  c/osd.4/current/1.4_head/obj6
  c/osd.6/current/1.4_head/obj6
  c/osd.7/current/1.4_head/obj6

fsck does not take misplaced data for a problem, and moves nothing:

  $ crushfs --cluster c fsck --dry-run | tail -2
    2 PG(s) remapped: their data is served from the OSDs it is on until `crushfs rebalance` moves it (not a problem)
  clean
  $ crushfs --cluster c fsck | tail -2
    2 PG(s) remapped: their data is served from the OSDs it is on until `crushfs rebalance` moves it (not a problem)
  clean
  $ crushfs --cluster c pg ls remapped | wc -l
  3

rebalance copies to the up set, drops the pg_temp entries (one epoch),
then removes the old copies:

  $ crushfs --cluster c rebalance
  rebalance: moved 3 objects (1.5 MiB), removed 3 old copies (1.5 MiB), 2 pgs changed
  $ crushfs --cluster c osd dump | grep -c pg_temp
  0
  [1]
  $ crushfs --cluster c osd map obj6
  osdmap e3 pool 'crushfs_data' (1) object 'obj6' -> pg 1.83425cc4 (1.4) -> up ([0,3,6], p0) acting ([0,3,6], p0)
  $ ls c/osd.*/current/1.4_head/obj6 | sort
  c/osd.0/current/1.4_head/obj6
  c/osd.3/current/1.4_head/obj6
  c/osd.6/current/1.4_head/obj6
  $ crushfs --cluster c health
  HEALTH_OK
  $ crushfs --cluster c rebalance
  rebalance: moved 0 objects (0 B), removed 0 old copies (0 B), 0 pgs changed

A lost OSD: down, then out.  Undersized and degraded while it is only
down; after out the new up member waits for backfill:

  $ crushfs --cluster c osd down 6
  marked down osd.6.
  $ crushfs --cluster c pg ls | grep -v 'active+clean '
  PG   OBJECTS  DEGRADED  MISPLACED  UNFOUND  BYTES   STATE                       UP            ACTING
  1.2        0         0          0        0       0  active+undersized+degraded  [7,9]p7       [7,9]p7
  1.3        1         1          0        0  500000  active+undersized+degraded  [1,7]p1       [1,7]p1
  1.4        1         1          0        0  700000  active+undersized+degraded  [0,3]p0       [0,3]p0
  1.6        0         0          0        0       0  active+undersized+degraded  [1,8]p1       [1,8]p1
  1.c        0         0          0        0       0  active+undersized+degraded  [5,11]p5      [5,11]p5
  1.d        0         0          0        0       0  active+undersized+degraded  [7,5]p7       [7,5]p7
  $ crushfs --cluster c osd out 6
  marked out osd.6.
  $ crushfs --cluster c pg ls | grep -v 'active+clean '
  PG   OBJECTS  DEGRADED  MISPLACED  UNFOUND  BYTES   STATE                                              UP            ACTING
  1.3        1         1          0        0  500000  active+undersized+degraded+remapped+backfill_wait  [1,10,7]p1    [1,7]p1
  1.4        1         1          0        0  700000  active+undersized+degraded+remapped+backfill_wait  [0,3,10]p0    [0,3]p0
  $ crushfs --cluster c rebalance
  rebalance: moved 2 objects (1.1 MiB), removed 0 old copies (0 B), 2 pgs changed
  $ crushfs --cluster c pg ls | grep -v 'active+clean '
  PG   OBJECTS  DEGRADED  MISPLACED  UNFOUND  BYTES   STATE         UP            ACTING
  $ crushfs --cluster c health
  HEALTH_WARN 1 osds down

An OSD that only missed some writes (down, then up again) stays acting
and is recovered from the log: recovery_wait, not backfill:

  $ crushfs --cluster r mkfs --osd-size 64M --pg-num 16 > /dev/null
  $ for i in 1 2 3 4 5 6; do crushfs --cluster r rados put o$i f1; done
  $ crushfs --cluster r osd down 6 > /dev/null
  $ for i in 1 2 3 4 5 6; do crushfs --cluster r rados put o$i f2; done
  $ crushfs --cluster r osd up 6 > /dev/null
  $ crushfs --cluster r pg ls | grep -v 'active+clean '
  PG   OBJECTS  DEGRADED  MISPLACED  UNFOUND  BYTES   STATE                          UP            ACTING
  1.d        1         1          0        0  200000  active+recovery_wait+degraded  [7,6,5]p7     [7,6,5]p7
  $ crushfs --cluster r osd dump | grep -c pg_temp
  0
  [1]
  $ crushfs --cluster r rebalance
  rebalance: moved 1 objects (195 KiB), removed 0 old copies (0 B), 1 pgs changed
  $ crushfs --cluster r pg ls | grep -v 'active+clean '
  PG   OBJECTS  DEGRADED  MISPLACED  UNFOUND  BYTES   STATE         UP            ACTING

A damaged pg_temp entry in cluster.json is one error line:

  $ cp c/cluster.json good.json
  $ python3 -c 'import json; d=json.load(open("c/cluster.json")); d["pg_temp"]=[{"pgid":"1.3","osds":[1,99]}]; json.dump(d, open("c/cluster.json","w"))'
  $ crushfs --cluster c osd dump
  crushfs: osd dump: c/cluster.json: field 'pg_temp[0] (an osd id)' is missing or invalid
  [1]
  $ cp good.json c/cluster.json

backfill_toofull: an OSD too small for what the map sends it.  rebalance
leaves the PG (exit 1, one error line), `pg ls backfill_toofull` and health
name it (PG_BACKFILL_FULL) for as long as the target would still refuse it,
and more capacity lets the next rebalance finish:

  $ crushfs --cluster t mkfs --osd-size 64M --pg-num 16 > /dev/null
  $ head -c 1000000 /dev/zero > mb
  $ for i in $(seq 1 40); do crushfs --cluster t rados put obj$i mb; done
  $ crushfs --cluster t osd out 5 > /dev/null && crushfs --cluster t rebalance > /dev/null
  $ crushfs --cluster t osd set-capacity 5 3M > /dev/null
  $ crushfs --cluster t osd in 5 > /dev/null
  $ crushfs --cluster t rebalance 2> err; echo "exit $?"; cat err
  rebalance: moved 2 objects (1.9 MiB), removed 1 old copies (977 KiB), 2 pgs changed
  rebalance: 1 pgs left: a target OSD is at backfillfull_ratio (backfill_toofull)
  exit 1
  crushfs: rebalance: 1 pgs left (1 backfill_toofull, 0 without an up source): not clean
  $ crushfs --cluster t pg ls backfill_toofull
  PG   OBJECTS  DEGRADED  MISPLACED  UNFOUND  BYTES    STATE                             UP         ACTING
  1.d        3         0          2        0  3000000  active+remapped+backfill_toofull  [7,6,5]p7  [7,6,0]p7
  $ crushfs --cluster t health detail | grep -A1 PG_BACKFILL_FULL
  [WRN] PG_BACKFILL_FULL: Low space hindering backfill (add storage if this doesn't resolve itself): 1 pgs backfill_toofull
      pg 1.d is active+remapped+backfill_toofull, acting [7,6,0]
  $ crushfs --cluster t -f json rebalance 2> err; echo "exit $?"
  {"objects_moved":0,"bytes_moved":0,"old_copies_removed":0,"bytes_freed":0,"pgs_changed":1,"pgs_backfill_toofull":1,"pgs_blocked":0,"errors":0,"pgp_num_steps":0,"pg_num_changes":0,"pools_pending":0,"pending":""}
  exit 1
  $ crushfs --cluster t osd set-capacity 5 64M > /dev/null
  $ crushfs --cluster t pg ls backfill_toofull | wc -l
  1
  $ crushfs --cluster t pg ls remapped | grep -c backfill_wait
  1
  $ crushfs --cluster t rebalance
  rebalance: moved 2 objects (1.9 MiB), removed 3 old copies (2.9 MiB), 1 pgs changed
  $ crushfs --cluster t health
  HEALTH_OK
