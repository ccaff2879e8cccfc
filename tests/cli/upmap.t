pg-upmap and pg-upmap-items, as Ceph 16.2's monitor takes them: an entry
changes a PG's up set at once (objects become misplaced), `rebalance`
moves the data, and a later map change drops entries it made invalid
(OSDMap::clean_pg_upmaps).  OSD i sits on host i % 4.

  $ crushfs --cluster cl mkfs --osd-size 64M --pg-num 16 > /dev/null
  $ head -c 100000 /dev/zero > f
  $ crushfs --cluster cl rados put obj1 f
  $ crushfs --cluster cl osd map obj1
  osdmap e1 pool 'crushfs_data' (1) object 'obj1' -> pg 1.6cf8deff (1.f) -> up ([11,10,9], p11) acting ([11,10,9], p11)
  $ crushfs --cluster cl osd pg-upmap-items 1.f 11 4
  set 1.f pg_upmap_items mapping to [11->4]
  $ crushfs --cluster cl osd map obj1
  osdmap e2 pool 'crushfs_data' (1) object 'obj1' -> pg 1.6cf8deff (1.f) -> up ([4,10,9], p4) acting ([9,10,11], p9)
  $ crushfs --cluster cl pg ls remapped | awk '{print $1, $2, $7}'
  PG OBJECTS STATE
  1.f 1 active+remapped+backfill_wait
  $ crushfs --cluster cl rebalance
  rebalance: moved 1 objects (98 KiB), removed 1 old copies (98 KiB), 1 pgs changed
  $ ls cl/osd.4/current/*/ | grep -c 'obj1'
  1
  $ crushfs --cluster cl rados get obj1 - | cmp - f

The entry is kept in cluster.json in `ceph osd dump -f json`'s shape:

  $ python3 -c 'import json; d = json.load(open("cl/cluster.json")); print(d["pg_upmap_items"])'
  [{'pgid': '1.f', 'mappings': [{'from': 11, 'to': 4}]}]

Marking the target out cancels the pair; the PG goes back to CRUSH's set:

  $ crushfs --cluster cl osd out 4
  marked out osd.4.
  $ crushfs --cluster cl osd map obj1
  osdmap e4 pool 'crushfs_data' (1) object 'obj1' -> pg 1.6cf8deff (1.f) -> up ([11,10,9], p11) acting ([4,10,9], p4)
  $ crushfs --cluster cl osd in 4 > /dev/null

A full pg-upmap, and one the rule could never give (two OSDs of host1),
which the clean-up drops at once:

  $ crushfs --cluster cl osd pg-upmap 1.f 0 1 2
  set 1.f pg_upmap mapping to [0,1,2]
  $ crushfs --cluster cl osd map obj1 | sed 's/.*-> up/up/'
  up ([0,1,2], p0) acting ([4,10,9], p4)
  $ crushfs --cluster cl osd pg-upmap 1.f 1 5 2
  set 1.f pg_upmap mapping to [1,5,2] (then cleaned away: the set is the crush one, not the pool's size, or one the crush rule would not give)
  $ crushfs --cluster cl osd map obj1 | sed 's/.*-> up/up/'
  up ([11,10,9], p11) acting ([4,10,9], p4)
  $ crushfs --cluster cl osd pg-upmap 1.f 0 1 2 > /dev/null
  $ crushfs --cluster cl osd rm-pg-upmap 1.f
  clear 1.f pg_upmap mapping
  $ crushfs --cluster cl osd rm-pg-upmap-items 1.f
  clear 1.f pg_upmap_items mapping
  $ crushfs --cluster cl osd map obj1 | sed 's/.*-> up/up/'
  up ([11,10,9], p11) acting ([4,10,9], p4)

What the monitor refuses:

  $ crushfs --cluster cl osd pg-upmap-items 1.f 11
  crushfs: osd pg-upmap-items: you must specify pairs of osd ids to be remapped
  [1]
  $ crushfs --cluster cl osd pg-upmap-items 1.f 11 99
  crushfs: osd pg-upmap-items: osd.99 does not exist
  [1]
  $ crushfs --cluster cl osd pg-upmap-items 1.f 11 11
  crushfs: osd pg-upmap-items: no valid upmap items(pairs) is specified
  [1]
  $ crushfs --cluster cl osd pg-upmap 1.f 1
  crushfs: osd pg-upmap: num of osds (1) < pool min size (2)
  [1]
  $ crushfs --cluster cl osd pg-upmap 1.f 0 1 2 3
  crushfs: osd pg-upmap: num of osds (4) > pool size (3)
  [1]
  $ crushfs --cluster cl osd pg-upmap 1.99 0 1 2
  crushfs: osd pg-upmap: pg 1.99 does not exist
  [1]
  $ crushfs --cluster cl osd pg-upmap 2.1 0 1 2
  crushfs: osd pg-upmap: pg 2.1 does not exist
  [1]
  $ crushfs --cluster cl osd pg-upmap x 0 1 2
  crushfs: osd pg-upmap: invalid pgid 'x' (expected e.g. 1.1f) (usage: crushfs osd pg-upmap PGID OSD...)
  [1]

`osdmap test-map-pgs-dump --overrides` maps a pool with such entries
(pg_temp, primary_temp and primary affinity too) as osdmaptool maps an
osdmap that holds them; the golden vectors compare the two:

  $ printf 'ceph osd pg-upmap-items 1.0 11 3\nosd pg-temp 1.2 1 2 3 4\nosd primary-temp 1.3 2\n' > ov.txt
  $ crushfs osdmap test-map-pgs-dump --crush cl/crushmap.txt --pool 1 --pg-num 4 --overrides ov.txt | sed -n 3,6p
  1.0\t[3,0,10]\t3 (esc)
  1.1\t[7,2,9]\t7 (esc)
  1.2\t[1,2,3,4]\t1 (esc)
  1.3\t[1,6,7]\t2 (esc)
  $ printf 'osd pg-upmap 1.9 1\n' > bad.txt
  $ crushfs osdmap test-map-pgs-dump --crush cl/crushmap.txt --pool 1 --pg-num 4 --overrides bad.txt
  crushfs: osdmap test-map-pgs-dump: bad.txt:1: pg 1.9 does not exist (pg_num 4)
  [1]

`osd dump` lists the entries as Ceph does:

  $ crushfs --cluster cl osd pg-upmap-items 1.f 11 4 > /dev/null
  $ crushfs --cluster cl osd dump | grep '^pg_upmap'
  pg_upmap_items 1.f [11,4]
