The osdmap flags (`osd set|unset`), as Ceph 16.2's monitor keeps them:
one epoch per change, the `flags` line of `osd dump`, OSDMAP_FLAGS in
health; and what they hold back in `rebalance`.

  $ crushfs --cluster c mkfs --osds 8 --hosts 4 --osd-size 64M --pg-num 16 > /dev/null
  $ for i in 1 2 3 4 5 6; do head -c 100000 /dev/zero | tr '\0' "$i" > f$i; crushfs --cluster c rados put obj$i f$i; done
  $ crushfs --cluster c osd set noout
  noout is set
  $ crushfs --cluster c osd set pause
  pauserd,pausewr is set
  $ crushfs --cluster c osd dump | grep -E '^(epoch|flags)'
  epoch 3
  flags pauserd,pausewr,noout,sortbitwise,recovery_deletes,purged_snapdirs,pglog_hardlimit
  $ crushfs --cluster c health detail
  HEALTH_WARN pauserd,pausewr,noout flag(s) set
  [WRN] OSDMAP_FLAGS: pauserd,pausewr,noout flag(s) set
  $ crushfs --cluster c osd unset pause
  pauserd,pausewr is unset
  $ crushfs --cluster c osd set pausewr
  pausewr is set
  $ crushfs --cluster c osd unset pausewr
  pausewr is unset
  $ crushfs --cluster c -f json osd unset noout
  {"epoch":7,"message":"noout is unset"}
  $ crushfs --cluster c -f json osd dump | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["flags"], d["flags_num"], d["flags_set"])'
  sortbitwise,recovery_deletes,purged_snapdirs,pglog_hardlimit 5799936 ['pglog_hardlimit', 'purged_snapdirs', 'recovery_deletes', 'sortbitwise']
  $ crushfs --cluster c health
  HEALTH_OK

Errors: one line.

  $ crushfs --cluster c osd set nosuchflag
  crushfs: osd set: unrecognized flag 'nosuchflag' (one of pause|pauserd|pausewr|noup|nodown|noout|noin|nobackfill|norebalance|norecover|noscrub|nodeep-scrub)
  [1]
  $ crushfs --cluster c osd unset
  crushfs: osd unset: missing argument (usage: crushfs osd unset FLAG)
  [1]

norebalance: PGs that are only misplaced stay where they are; rebalance
says so and is not clean.  nobackfill holds them too.

  $ crushfs --cluster c osd out 2
  marked out osd.2.
  $ crushfs --cluster c osd set norebalance
  norebalance is set
  $ crushfs --cluster c rebalance
  crushfs: rebalance: 4 pgs left because of osdmap flags: 4 only misplaced (norebalance set); `osd unset` them to go on
  rebalance: moved 0 objects (0 B), removed 0 old copies (0 B), 4 pgs changed
  [1]
  $ crushfs --cluster c pg ls backfill_wait | grep -c backfill_wait
  4
  $ crushfs --cluster c -f json rebalance 2>/dev/null | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["objects_moved"], d["pgs_norebalance"], d["pgs_nobackfill"], d["pgs_norecover"])'
  0 4 0 0
  $ crushfs --cluster c osd set nobackfill
  nobackfill is set
  $ crushfs --cluster c rebalance
  crushfs: rebalance: 4 pgs left because of osdmap flags: 4 to backfill (nobackfill set); `osd unset` them to go on
  rebalance: moved 0 objects (0 B), removed 0 old copies (0 B), 4 pgs changed
  [1]
  $ crushfs --cluster c osd unset nobackfill > /dev/null
  $ crushfs --cluster c osd unset norebalance > /dev/null
  $ crushfs --cluster c rebalance > /dev/null
  $ crushfs --cluster c pg ls | grep -vc active+clean
  1

norecover: writes an OSD missed while down are not recovered; norebalance
does not hold a degraded PG back.

  $ crushfs --cluster c osd in 2 > /dev/null
  $ crushfs --cluster c rebalance > /dev/null
  $ acting=$(crushfs --cluster c -f json osd map obj1 | python3 -c 'import json,sys; print(json.load(sys.stdin)["acting"][1])')
  $ crushfs --cluster c osd down $acting > /dev/null
  $ head -c 100000 /dev/zero | tr '\0' x > g; crushfs --cluster c rados put obj1 g
  $ crushfs --cluster c osd up $acting > /dev/null
  $ crushfs --cluster c osd set norecover
  norecover is set
  $ crushfs --cluster c rebalance
  crushfs: rebalance: 1 pgs left because of osdmap flags: 1 to recover (norecover set); `osd unset` them to go on
  rebalance: moved 0 objects (0 B), removed 0 old copies (0 B), 1 pgs changed
  [1]
  $ crushfs --cluster c pg ls degraded | grep -c degraded
  1
  $ crushfs --cluster c osd unset norecover > /dev/null
  $ crushfs --cluster c osd set norebalance > /dev/null
  $ crushfs --cluster c rebalance
  rebalance: moved 1 objects (98 KiB), removed 0 old copies (0 B), 1 pgs changed
  $ crushfs --cluster c osd unset norebalance > /dev/null
  $ crushfs --cluster c pg ls | grep -vc active+clean
  1

A PG degraded by a down and out OSD is backfilled under norebalance (only
nobackfill holds it):

  $ crushfs --cluster c osd down $acting > /dev/null
  $ crushfs --cluster c osd out $acting > /dev/null
  $ crushfs --cluster c osd set norebalance > /dev/null
  $ crushfs --cluster c osd set nobackfill > /dev/null
  $ crushfs --cluster c rebalance 2>&1 | grep -o 'to backfill (nobackfill set)'
  to backfill (nobackfill set)
  $ crushfs --cluster c osd unset nobackfill > /dev/null
  $ crushfs --cluster c rebalance | sed 's/moved [1-9][0-9]* objects.*/moved some objects/'
  rebalance: moved some objects
  $ crushfs --cluster c pg ls | grep -vc active+clean
  1

noup: an OSD's boot is not accepted (OSDMonitor::preprocess_boot ->
can_mark_up); it stays down and no epoch is made.  nodown holds back
failure reports only: the operator's `osd down`, as Ceph's "osd down"
command, does not ask can_mark_down.

  $ crushfs --cluster c osd in $acting > /dev/null
  $ crushfs --cluster c osd set noup
  noup is set
  $ crushfs --cluster c osd down 5
  marked down osd.5.
  $ e=$(crushfs --cluster c -f json osd dump | python3 -c 'import json,sys; print(json.load(sys.stdin)["epoch"])')
  $ crushfs --cluster c osd up 5
  crushfs: osd up: osd.5 is marked as noup, will not mark it up
  [1]
  $ crushfs --cluster c -f json osd dump | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["epoch"] - '$e', [o["up"] for o in d["osds"] if o["osd"] == 5])'
  0 [0]
  $ crushfs --cluster c osd unset noup
  noup is unset
  $ crushfs --cluster c osd up 5
  marked up osd.5.
  $ crushfs --cluster c osd set nodown
  nodown is set
  $ crushfs --cluster c health detail | grep OSDMAP_FLAGS
  [WRN] OSDMAP_FLAGS: nodown,norebalance flag(s) set
  $ crushfs --cluster c osd down 5
  marked down osd.5.
  $ crushfs --cluster c osd up 5 > /dev/null
  $ crushfs --cluster c osd unset nodown
  nodown is unset
