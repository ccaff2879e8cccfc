pgp_num follows pg_num step by step, as Ceph 14+ does it (crushfs issue
20): `osd pool set POOL pg_num N` splits at once and sets pgp_num_target
(OSDMonitor::prepare_command_pool_set); `rebalance`, crushfs's mgr tick
(DaemonServer::adjust_pgs), walks pgp_num there in steps of at most
max(1, pg_num * target_max_misplaced_ratio / 2) placement seeds, each one
backfilled before the next.

  $ crushfs --cluster c mkfs --osd-size 256M --pg-num 16 > /dev/null
  $ head -c 4096 /dev/zero | tr '\0' x > small
  $ for i in $(seq 1 60); do crushfs --cluster c rados put o$i small; done
  $ crushfs --cluster c osd pool set crushfs_data pg_num 32
  set pool 1 pg_num to 32 (pgp_num 16; `rebalance` steps it to 32)

The children were born on their parents' OSDs; pgp_num is still 16 (what
`osd pool get` shows), the target is printed beside it as Ceph prints it,
and nothing is misplaced yet:

  $ crushfs --cluster c osd pool ls detail | grep -o 'pg_num.*autoscale_mode'
  pg_num 32 pgp_num 16 pgp_num_target 32 autoscale_mode
  $ crushfs --cluster c osd pool get crushfs_data pgp_num
  pgp_num: 16
  $ crushfs --cluster c -f json osd pool ls detail | python3 -c 'import json,sys; p=json.load(sys.stdin)[0]; print(p["pg_num"], p["pg_placement_num"], p["pg_placement_num_target"], p["pg_num_target"])'
  32 16 32 32
  $ crushfs --cluster c health
  HEALTH_OK
  $ crushfs --cluster c config get mgr target_max_misplaced_ratio
  0.050000

While a PG is degraded the mgr does not step; rebalance says so and fails
rather than return as if done:

  $ crushfs --cluster c osd down 3
  marked down osd.3.
  $ crushfs --cluster c rebalance 2> err; echo "exit $?"; cat err
  rebalance: moved 0 objects (0 B), removed 0 old copies (0 B), 0 pgs changed
  exit 1
  crushfs: rebalance: 1 pool(s) short of their pg_num/pgp_num targets: pool 'crushfs_data' pg_num 32 pgp_num 16 (pg_num_target 32, pgp_num_target 32): pgp_num waiting: inactive or degraded PGs
  $ crushfs --cluster c osd up 3
  marked up osd.3.

With every PG clean it steps: 32 * 0.025 rounds down to one seed a step,
sixteen steps, each a new epoch backfilled before the next:

  $ crushfs --cluster c -f json rebalance > out
  $ python3 -c 'import json; d=json.load(open("out")); print(d["pgp_num_steps"], d["pools_pending"], d["errors"], d["objects_moved"] > 0)'
  16 0 0 True
  $ crushfs --cluster c osd pool get crushfs_data pgp_num
  pgp_num: 32
  $ crushfs --cluster c osd pool ls detail | grep -o 'pg_num.*autoscale_mode'
  pg_num 32 pgp_num 32 autoscale_mode
  $ crushfs --cluster c pg ls | tail -n +2 | awk '{print $7}' | sort | uniq -c
       32 active+clean
  $ crushfs --cluster c status | grep -E 'health|pgs:'
      health: HEALTH_OK
      pgs:     32 active+clean
  $ crushfs --cluster c check --deep
  check: 12 osds, 180 object copies, 720 KiB on disk: usage matches the disk, replicas agree
  $ crushfs --cluster c scrub --deep | tail -1
  deep-scrub: 32 pgs, 60 objects, 0 errors, 0 repaired, 0 unfound
  $ for i in $(seq 1 60); do crushfs --cluster c rados get o$i - | cmp -s - small || echo "o$i differs"; done
  $ crushfs --cluster c rebalance
  rebalance: moved 0 objects (0 B), removed 0 old copies (0 B), 0 pgs changed

`osd pool set POOL pgp_num N` sets the target only (the monitor's
`pgp_num` since Nautilus, at most pg_num_target); its dry run shows where
the steps end.  A larger target_max_misplaced_ratio makes larger steps:
32 * 0.25 = 8 seeds, 32 -> 24 -> 16 -> 8.

  $ crushfs --cluster c config set mgr target_max_misplaced_ratio 0.5
  $ crushfs --cluster c config get mgr target_max_misplaced_ratio
  0.500000
  $ crushfs --cluster c config dump | grep misplaced
  mgr         advanced  target_max_misplaced_ratio 0.500000
  $ crushfs --cluster c config set mgr target_max_misplaced_ratio lots
  crushfs: config set: error parsing value: strict_strtod: expected double, got: 'lots'
  [1]
  $ crushfs --cluster c osd pool set crushfs_data pgp_num 33
  crushfs: osd pool set: specified pgp_num 33 > pg_num 32
  [1]
  $ crushfs --cluster c osd pool set crushfs_data pgp_num 8 --dry-run | head -1
  dry run of 'osd pool set crushfs_data pgp_num 8': * (glob)
  $ crushfs --cluster c osd pool set crushfs_data pgp_num 8
  set pool 1 pgp_num to 8 (pgp_num 32 for now: `rebalance` steps it there)
  $ crushfs --cluster c osd pool get crushfs_data pgp_num
  pgp_num: 32
  $ crushfs --cluster c -f json rebalance | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["pgp_num_steps"], d["pools_pending"])'
  3 0
  $ crushfs --cluster c osd pool get crushfs_data pgp_num
  pgp_num: 8

`pgp_num_actual` (what the mgr itself sends) changes pgp_num at once and
leaves the target; the next rebalance steps back to it:

  $ crushfs --cluster c osd pool set crushfs_data pgp_num_actual 33
  crushfs: osd pool set: specified pgp_num 33 > pg_num 32
  [1]
  $ crushfs --cluster c osd pool set crushfs_data pgp_num_actual 16
  set pool 1 pgp_num_actual to 16
  $ crushfs --cluster c osd pool ls detail | grep -o 'pg_num.*autoscale_mode'
  pg_num 32 pgp_num 16 pgp_num_target 8 autoscale_mode
  $ crushfs --cluster c rebalance | tail -1
  rebalance: pool 'crushfs_data' pgp_num 16 -> 8

A merge waits for pgp_num, as Ceph merges only PGs that are co-located:
with pgp_num 8, `pg_num 8` merges at once.  pgp_num_target follows
pg_num_target only while they are equal (Ceph's rule): set apart to 6, a
merge to 4 goes as far as pgp_num goes and waits there:

  $ crushfs --cluster c osd pool set crushfs_data pg_num 8
  set pool 1 pg_num to 8 (pgp_num 8)
  $ crushfs --cluster c osd pool set crushfs_data pgp_num 6
  set pool 1 pgp_num to 6 (pgp_num 8 for now: `rebalance` steps it there)
  $ crushfs --cluster c osd pool set crushfs_data pg_num 4
  set pool 1 pg_num to 4 (pg_num 8, pgp_num 8 for now: `rebalance` merges down to pgp_num_target 6, no further)
  $ crushfs --cluster c osd pool ls detail | grep -o 'pg_num.*autoscale_mode'
  pg_num 8 pgp_num 8 pg_num_target 4 pgp_num_target 6 autoscale_mode
  $ crushfs --cluster c rebalance 2> err; echo "exit $?"; cat err
  rebalance: moved * (glob)
  rebalance: pool 'crushfs_data' pg_num 8 -> 6, pgp_num 8 -> 6
  exit 1
  crushfs: rebalance: 1 pool(s) short of their pg_num/pgp_num targets: pool 'crushfs_data' pg_num 6 pgp_num 6 (pg_num_target 4, pgp_num_target 6): the merge waits for pgp_num to come below pg_num
  $ crushfs --cluster c osd pool set crushfs_data pgp_num 4
  set pool 1 pgp_num to 4 (pgp_num 6 for now: `rebalance` steps it there)
  $ crushfs --cluster c rebalance | tail -1
  rebalance: pool 'crushfs_data' pg_num 6 -> 4, pgp_num 6 -> 4

With targets that follow each other (a fresh pool), the split and the
merge back are both a command and a rebalance; the deferred merge lowers
pgp_num first, then merges, every step backfilled:

  $ crushfs --cluster c config rm mgr target_max_misplaced_ratio
  $ crushfs --cluster c osd pool set crushfs_data pg_num 16
  set pool 1 pg_num to 16 (pgp_num 4; `rebalance` steps it to 16)
  $ crushfs --cluster c rebalance | tail -1
  rebalance: pool 'crushfs_data' pgp_num 4 -> 16
  $ crushfs --cluster c osd pool set crushfs_data pg_num 8
  set pool 1 pg_num to 8 (pg_num 16, pgp_num 16 for now: `rebalance` lowers pgp_num to 8 step by step, then merges)
  $ crushfs --cluster c -f json rebalance | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["pgp_num_steps"], d["pg_num_changes"], d["pools_pending"])'
  8 8 0
  $ crushfs --cluster c osd pool ls detail | grep -o 'pg_num.*autoscale_mode'
  pg_num 8 pgp_num 8 autoscale_mode
  $ crushfs --cluster c pg ls | tail -n +2 | awk '{print $7}' | sort | uniq -c
        8 active+clean
  $ crushfs --cluster c check --deep
  check: 12 osds, 180 object copies, 720 KiB on disk: usage matches the disk, replicas agree
  $ for i in $(seq 1 60); do crushfs --cluster c rados get o$i - | cmp -s - small || echo "o$i differs"; done

The targets live in cluster.json while a change is under way; a cluster
written before they were kept (no such field) has its targets equal to
pg_num and pgp_num; a bad one is named:

  $ crushfs --cluster c osd pool set crushfs_data pgp_num 4 > /dev/null
  $ grep -c '"pgp_num_target": 4' c/cluster.json
  1
  $ python3 -c 'import json; p="c/cluster.json"; d=json.load(open(p)); del d["pool"]["pgp_num_target"]; json.dump(d, open(p, "w"), indent=1)'
  $ crushfs --cluster c osd pool ls detail | grep -o 'pg_num.*autoscale_mode'
  pg_num 8 pgp_num 8 autoscale_mode
  $ python3 -c 'import json; p="c/cluster.json"; d=json.load(open(p)); d["pool"]["pgp_num_target"]=0; json.dump(d, open(p, "w"), indent=1)'
  $ crushfs --cluster c osd pool ls detail
  crushfs: osd pool ls: c/cluster.json: field 'pool.pgp_num_target' is missing or invalid
  [1]
