The cluster log (Ceph's clog, `ceph log last`): map changes, a refused
write naming file, PG and OSD, scrub results, each an entry of
DIR/cluster.log (one JSON line, 0600).  Stamps vary: they are checked for
their form, then replaced.

  $ stamp() { sed -E 's/^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}\+0000 /STAMP /; s/mkfs [0-9a-f-]{36}:/mkfs FSID:/'; }
  $ crushfs --cluster c mkfs --osd-size 64M --pg-num 16 > /dev/null
  $ crushfs --cluster c log last | stamp
  STAMP mon.a (mon.0) 1 : cluster [INF] mkfs FSID: 12 osds, pool 'crushfs_data' size 3 pg_num 16
  $ crushfs --cluster c osd out 3
  marked out osd.3.
  $ crushfs --cluster c osd in 3
  marked in osd.3.
  $ crushfs --cluster c osd down 5
  marked down osd.5.
  $ crushfs --cluster c osd reweight 2 0.5 > /dev/null
  $ crushfs --cluster c osd pool create p2 8 > /dev/null
  $ crushfs --cluster c osd pool set p2 size 2 > /dev/null
  $ stat -c %a c/cluster.log
  600
  $ crushfs --cluster c log last | stamp
  STAMP mon.a (mon.0) 1 : cluster [INF] mkfs FSID: 12 osds, pool 'crushfs_data' size 3 pg_num 16
  STAMP mon.a (mon.0) 3 : cluster [INF] osd.3 marked out
  STAMP mon.a (mon.0) 7 : cluster [INF] osd.3 marked in
  STAMP mon.a (mon.0) 11 : cluster [INF] osd.5 marked down
  STAMP mon.a (mon.0) 15 : cluster [INF] osd.2 reweight 1.00000 -> 0.50000
  STAMP mon.a (mon.0) 19 : cluster [INF] pool 'p2' created (id 2)
  STAMP mon.a (mon.0) 23 : cluster [INF] pool 'p2' size 3 -> 2
  STAMP mon.a (mon.0) 24 : cluster [INF] pool 'p2' min_size 2 -> 1

N, level and channel as `ceph log last` takes them; debug shows the
osdmap summaries:

  $ crushfs --cluster c log last 3 debug | stamp
  STAMP mon.a (mon.0) 23 : cluster [INF] pool 'p2' size 3 -> 2
  STAMP mon.a (mon.0) 24 : cluster [INF] pool 'p2' min_size 2 -> 1
  STAMP mon.a (mon.0) 25 : cluster [DBG] osdmap e7: 12 total, 11 up, 12 in
  $ crushfs --cluster c log last 2 warn '*'
  $ crushfs --cluster c log last 2 audit | stamp
  STAMP mon.a (mon.0) 22 : audit [INF] from='client.admin' entity='client.admin' cmd=[{"prefix": "osd pool set", "args": ["p2", "size", "2"]}]: dispatch
  STAMP mon.a (mon.0) 26 : audit [INF] from='client.admin' entity='client.admin' cmd='[{"prefix": "osd pool set", "args": ["p2", "size", "2"]}]': finished
  $ crushfs --cluster c -f json log last 1 | python3 -c 'import json,sys; e=json.load(sys.stdin)[0]; print(e["name"], e["rank"], e["seq"], e["channel"], e["priority"], e["message"])'
  mon.a mon.0 24 cluster [INF] pool 'p2' min_size 2 -> 1

A refused write: the file's inode and object, the PG and the full OSD,
at WRN from that OSD:

  $ crushfs --cluster c osd set-capacity 7 3M > /dev/null
  $ head -c 2000000 /dev/zero > f2
  $ crushfs --cluster c rados put o1 f2
  $ crushfs --cluster c rados put o4 f2
  crushfs: rados put: error putting crushfs_data/o4: (28) No space left on device
  [1]
  $ crushfs --cluster c log last 1 warn | stamp
  STAMP osd.7 (osd.7) 31 : cluster [WRN] pg 1.d: write of 2000000 bytes to o4 refused (ENOSPC): osd.7 is full (1.9 MiB used, limit 2.8 MiB)

Scrub: an ok PG at DBG, a damaged copy as an ERR from the primary:

  $ crushfs --cluster c pg deep-scrub 1.d > /dev/null
  $ crushfs --cluster c log last 1 debug | stamp
  STAMP osd.7 (osd.7) 33 : cluster [DBG] 1.d deep-scrub ok

A damaged copy (the last of o9's copies): the deep scrub's errors, then
the repair's, from the PG's primary:

  $ head -c 100000 /dev/zero > f
  $ crushfs --cluster c rados put o9 f
  $ copy=$(find c -path '*_head/o9' | sort | tail -1)
  $ pg=$(basename $(dirname $copy) _head)
  $ printf X | dd of=$copy bs=1 seek=10 conv=notrunc 2> /dev/null
  $ crushfs --cluster c pg deep-scrub $pg > /dev/null 2>&1
  [1]
  $ crushfs --cluster c pg repair $pg > /dev/null 2>&1
  $ crushfs --cluster c log last 2 error | stamp | sed "s/ $pg / PG /"
  STAMP osd.* (osd.*) * : cluster [ERR] PG deep-scrub 1 errors (glob)
  STAMP osd.* (osd.*) * : cluster [ERR] PG repair 1 errors, 1 fixed (glob)

Bad arguments: one line, status 1:

  $ crushfs --cluster c log last 0
  crushfs: log last: N must be 1..100000, got '0'
  [1]
  $ crushfs --cluster c log last 5 5
  crushfs: log last: unexpected argument '5' (want [N] [debug|info|sec|warn|error] [*|cluster|audit])
  [1]
  $ crushfs --cluster nowhere log last
  crushfs: log last: nowhere: no cluster there
  [1]
