The upmap balancer (Ceph's OSDMap::calc_pg_upmaps, as the mgr balancer
runs it in upmap mode): `balancer eval` shows PGs per OSD against the
crush-weight targets, `balancer optimize` prints the plan as ceph commands,
--apply sets it, and `rebalance` moves the data.

  $ crushfs --cluster cl mkfs --osd-size 64M --pg-num 64 > /dev/null
  $ for i in $(seq 1 20); do head -c 20000 /dev/zero > f; crushfs --cluster cl rados put o$i f; done
  $ crushfs --cluster cl balancer eval | tail -1
  max deviation 7.00 PGs (osd.8), stddev 3.76
  $ crushfs --cluster cl balancer optimize --deviation 1 --max 20 > plan.txt
  planned 18 change(s) in 16 PG(s) (max 20, deviation 1): PGs per OSD off target, stddev 3.76 -> 0.00, max 7.00 -> 0.00
  $ grep -c '^ceph osd pg-upmap-items 1\.' plan.txt
  16
  $ crushfs --cluster cl balancer optimize --deviation 1 --max 20 --apply
  applied 18 change(s) in 16 PG(s) (max 20, deviation 1): PGs per OSD off target, stddev 3.76 -> 0.00, max 7.00 -> 0.00; `crushfs rebalance` moves the data
  $ crushfs --cluster cl balancer eval | tail -1
  max deviation 0.00 PGs (osd.0), stddev 0.00
  $ crushfs --cluster cl rebalance > /dev/null
  $ crushfs --cluster cl check | tail -1 | sed 's/,.*//'
  check: 12 osds
  $ crushfs --cluster cl balancer optimize --deviation 1
  planned 0 change(s) in 0 PG(s) (max 10, deviation 1): PGs per OSD off target, stddev 0.00 -> 0.00, max 0.00 -> 0.00
  $ crushfs --cluster cl balancer optimize --max 0
  crushfs: balancer optimize: --max: expected an integer in 1..100000, got '0' (usage: crushfs balancer optimize [--max N] [--deviation D] [--pool P] [--apply])
  [1]
  $ crushfs --cluster cl balancer optimize --pool nosuch
  crushfs: balancer optimize: pool 'nosuch' does not exist
  [1]

Without a cluster, `osdmap upmap` is osdmaptool --mark-up-in --upmap
(tests/golden/check_balancer.sh compares its plans with osdmaptool's), and
`osdmap eval` measures a plan:

  $ M=$TESTDIR/../golden/maps/default_12osd.txt
  $ crushfs osdmap eval --crush $M --pool 1 --pg-num 128 | tail -1
  max deviation 10.00 (osd.1), stddev 5.49
  $ crushfs osdmap upmap --crush $M --pool 1 --pg-num 128 --upmap-max 50 --upmap-deviation 1 > up.txt 2> summary.txt
  $ crushfs osdmap eval --crush $M --pool 1 --pg-num 128 --overrides up.txt | tail -1
  max deviation 0.00 (osd.0), stddev 0.00
  $ crushfs osdmap test-map-pgs-dump --crush $M --pool 1 --pg-num 128 --upmap-max 3
  crushfs: osdmap test-map-pgs-dump: --upmap-* options are for osdmap upmap
  [1]

Reweight by utilization or by PGs, with Ceph's formula, defaults and
refusals (reweight::by_utilization): the test- forms only report.

  $ crushfs --cluster rw mkfs --osd-size 1G --pg-num 64 > /dev/null
  $ crushfs --cluster rw osd test-reweight-by-utilization
  crushfs: osd test-reweight-by-utilization: Refusing to reweight: we only have 0 kb used across all osds!
  [1]
  $ crushfs --cluster rw osd test-reweight-by-pg 100
  crushfs: osd test-reweight-by-pg: You must give a percentage higher than 100. The reweighting threshold will be calculated as <average-utilization> times <input-percentage>. For example, an argument of 200 would reweight OSDs which are twice as utilized as the average OSD.
  [1]
  $ crushfs --cluster rw osd test-reweight-by-pg 110 0.1 2
  moved 6 / 192 (3.125%)
  avg 16
  stddev 3.76386 -> 2.88675 (expected baseline 3.82971)
  min osd.8 with 9 -> 9 pgs (0.5625 -> 0.5625 * mean)
  max osd.7 with 23 -> 19 pgs (1.4375 -> 1.1875 * mean)
  
  oload 110
  max_change 0.1
  max_change_osds 2
  average_utilization 16131.9385
  overload_utilization 17745.1323
  osd.7 weight 1.0000 -> 0.9000
  osd.10 weight 1.0000 -> 0.9000
  $ crushfs --cluster rw osd tree | grep -c ' 1.00000  1.00000'
  12
  $ crushfs --cluster rw osd reweight-by-pg 110 0.1 2 > /dev/null
  $ crushfs --cluster rw osd tree | grep -E 'osd\.(7|10) '
  10         0.00099          osd.10      up   0.90001  1.00000
   7         0.00099          osd.7       up   0.90001  1.00000
