An erasure-coded PG's empty slot (no OSD left for a shard) is NONE in the
text of `pg ls` and `pg dump`, as Ceph 16.2's PGMap pg_vector_string
prints it; JSON keeps CRUSH_ITEM_NONE (2147483647) as Ceph's does.  `pg
map` prints the vector as the monitor does (the number).

  $ crushfs --cluster c mkfs --osds 3 --hosts 3 --pg-num 8 --osd-size 64M > /dev/null
  $ crushfs --cluster c osd erasure-code-profile set p21 k=2 m=1 crush-failure-domain=host
  $ crushfs --cluster c osd pool create ecp 4 4 erasure p21
  pool 'ecp' created
  $ crushfs --cluster c pg ls-by-pool ecp | awk '{print $1, $8}'
  PG UP
  2.0 [0,2,1]p0
  2.1 [0,1,2]p0
  2.2 [0,1,2]p0
  2.3 [2,1,0]p2

With osd.2 out, no third host is left: each PG has a hole where its
shard was.

  $ crushfs --cluster c osd out 2
  marked out osd.2.
  $ crushfs --cluster c pg ls-by-pool ecp | awk '{print $1, $8}'
  PG UP
  2.0 [0,NONE,1]p0
  2.1 [0,1,NONE]p0
  2.2 [0,1,NONE]p0
  2.3 [1,NONE,0]p1
  $ crushfs --cluster c pg dump | awk '/^2\./ {print $1, $8}'
  2.0 [0,NONE,1]
  2.1 [0,1,NONE]
  2.2 [0,1,NONE]
  2.3 [1,NONE,0]
  $ crushfs --cluster c -f json pg ls-by-pool ecp | python3 -c 'import json, sys; print([p["up"] for p in json.load(sys.stdin)["pg_stats"]])'
  [[0, 2147483647, 1], [0, 1, 2147483647], [0, 1, 2147483647], [1, 2147483647, 0]]
  $ crushfs --cluster c pg map 2.1
  osdmap e5 pg 2.1 (2.1) -> up [0,1,2147483647] acting [0,1,2]

`health detail` is not `pg ls`: Ceph 16.2's PGMap::get_health_checks
writes the acting set with the plain vector operator<< (include/types.h),
not pg_vector_string, so an empty slot stays CRUSH_ITEM_NONE's number
there, as on a real cluster.

  $ crushfs --cluster c osd in 2
  marked in osd.2.
  $ for i in 1 2 3 4 5 6; do echo hi$i | crushfs --cluster c rados -p ecp put o$i -; done
  $ crushfs --cluster c osd down 2
  marked down osd.2.
PG_DEGRADED counts undersized PGs as well as degraded ones, and each has
its line: pg 2.0 holds no object, so nothing in it is degraded, but it
is undersized.

  $ crushfs --cluster c health detail | grep -E 'PG_DEGRADED|pg 2\.'
  [WRN] PG_DEGRADED: Degraded data redundancy: 6/18 objects degraded (33.333%), 11 pgs degraded, 12 pgs undersized
      pg 2.0 is active+undersized, acting [0,2147483647,1]
      pg 2.1 is active+undersized+degraded, acting [0,1,2147483647]
      pg 2.2 is active+undersized+degraded, acting [0,1,2147483647]
      pg 2.3 is active+undersized+degraded, acting [2147483647,1,0]

Every PG the summary counts (12) has its line:

  $ crushfs --cluster c health detail | sed -n '/PG_DEGRADED/,$p' | grep -c '^    pg '
  12
