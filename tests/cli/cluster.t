A small cluster through the CLI: mkfs, rados objects, where they go, a map
change seen as misplaced objects, rebalance, and the listings.

  $ crushfs --cluster cl mkfs --osd-size 64M --pg-num 16 | sed 's/fsid .*/fsid FSID/'
  created cluster cl
    fsid FSID
    12 osds (capacity 64 MiB each), crush map in cl/crushmap.txt
    pool 'crushfs_data' (1): size 3, min_size 2, pg_num 16, object size 4 MiB, full policy osd
  $ crushfs --cluster cl osd tree
  ID  CLASS  WEIGHT   TYPE NAME       STATUS  REWEIGHT  PRI-AFF
  -1         0.01190  root default
  -2         0.00298      host host0
   0         0.00099          osd.0       up   1.00000  1.00000
   4         0.00099          osd.4       up   1.00000  1.00000
   8         0.00099          osd.8       up   1.00000  1.00000
  -3         0.00298      host host1
   1         0.00099          osd.1       up   1.00000  1.00000
   5         0.00099          osd.5       up   1.00000  1.00000
   9         0.00099          osd.9       up   1.00000  1.00000
  -4         0.00298      host host2
   2         0.00099          osd.2       up   1.00000  1.00000
   6         0.00099          osd.6       up   1.00000  1.00000
  10         0.00099          osd.10      up   1.00000  1.00000
  -5         0.00298      host host3
   3         0.00099          osd.3       up   1.00000  1.00000
   7         0.00099          osd.7       up   1.00000  1.00000
  11         0.00099          osd.11      up   1.00000  1.00000
  $ for i in 1 2 3 4 5 6; do head -c $((i * 300000)) /dev/zero | tr '\0' "$i" > f$i; crushfs --cluster cl rados put obj$i f$i; done
  $ crushfs --cluster cl rados ls
  obj1
  obj2
  obj3
  obj4
  obj5
  obj6
  $ crushfs --cluster cl rados get obj3 back && cmp back f3 && echo same
  same
  $ crushfs --cluster cl rados stat obj2 | sed 's/mtime .*,/mtime T,/'
  crushfs_data/obj2 mtime T, size 600000
  $ crushfs --cluster cl osd map obj1
  osdmap e1 pool 'crushfs_data' (1) object 'obj1' -> pg 1.6cf8deff (1.f) -> up ([11,10,9], p11) acting ([11,10,9], p11)
  $ crushfs --cluster cl -f json osd map obj1
  {"epoch":1,"pool":"crushfs_data","pool_id":1,"objname":"obj1","raw_pgid":"1.6cf8deff","pgid":"1.f","up":[11,10,9],"up_primary":11,"acting":[11,10,9],"acting_primary":11}
  $ ls cl/osd.11/current/1.f_head cl/osd.10/current/1.f_head cl/osd.9/current/1.f_head
  cl/osd.10/current/1.f_head:
  obj1
  
  cl/osd.11/current/1.f_head:
  obj1
  
  cl/osd.9/current/1.f_head:
  obj1
  $ crushfs --cluster cl osd out 4
  marked out osd.4.
  $ crushfs --cluster cl osd out 4
  osd.4 is already out.
  $ crushfs --cluster cl health detail
  HEALTH_WARN 1/18 objects misplaced (5.556%)
  [WRN] OBJECT_MISPLACED: 1/18 objects misplaced (5.556%)
  $ crushfs --cluster cl status | grep -v ' id: ' | sed -E 's/ \(since [0-9]+[smhdwMy]\)/ (since T)/g'
    cluster:
      health: HEALTH_WARN
              1/18 objects misplaced (5.556%)
   
    services:
      osd: 12 osds: 12 up (since T), 11 in (since T); 1 remapped pgs
   
    data:
      pools:   1 pools, 16 pgs
      objects: 6 objects, 6.0 MiB
      usage:   16 MiB used, 688 MiB / 704 MiB avail
      pgs:     1/18 objects misplaced (5.556%)
               15 active+clean
               1  active+remapped+backfill_wait
   
  $ crushfs --cluster cl pg dump | head -4
  PG_STAT  OBJECTS  DEGRADED  MISPLACED  UNFOUND  BYTES    STATE                          UP         UP_PRIMARY  ACTING     ACTING_PRIMARY
  1.0            1         0          0        0  1200000  active+clean                   [11,0,10]          11  [11,0,10]              11
  1.1            1         0          0        0   900000  active+clean                   [7,2,9]             7  [7,2,9]                 7
  1.2            0         0          0        0        0  active+clean                   [7,9,6]             7  [7,9,6]                 7
  $ crushfs --cluster cl rebalance
  rebalance: moved 1 objects (1.7 MiB), removed 1 old copies (1.7 MiB), 1 pgs changed
  $ crushfs --cluster cl health
  HEALTH_OK
  $ crushfs --cluster cl osd in 4
  marked in osd.4.
  $ crushfs --cluster cl -f json rebalance
  {"objects_moved":1,"bytes_moved":1800000,"old_copies_removed":1,"bytes_freed":1800000,"pgs_changed":1,"pgs_backfill_toofull":0,"pgs_blocked":0,"errors":0,"pgp_num_steps":0,"pg_num_changes":0,"pools_pending":0,"pending":""}
  $ crushfs --cluster cl osd df
  ID  CLASS  WEIGHT   REWEIGHT  SIZE     RAW USE  DATA     OMAP  META  AVAIL    %USE  VAR   PGS  STATUS
   0         0.00099   1.00000   64 MiB  1.7 MiB  1.7 MiB   0 B   0 B   62 MiB  2.68  1.14    2      up
   4         0.00099   1.00000   64 MiB  1.7 MiB  1.7 MiB   0 B   0 B   62 MiB  2.68  1.14    4      up
   8         0.00099   1.00000   64 MiB      0 B      0 B   0 B   0 B   64 MiB     0     0    2      up
   1         0.00099   1.00000   64 MiB  1.4 MiB  1.4 MiB   0 B   0 B   63 MiB  2.24  0.95    5      up
   5         0.00099   1.00000   64 MiB      0 B      0 B   0 B   0 B   64 MiB     0     0    2      up
   9         0.00099   1.00000   64 MiB  1.1 MiB  1.1 MiB   0 B   0 B   63 MiB  1.79  0.76    5      up
   2         0.00099   1.00000   64 MiB  1.4 MiB  1.4 MiB   0 B   0 B   63 MiB  2.24  0.95    4      up
   6         0.00099   1.00000   64 MiB  3.1 MiB  3.1 MiB   0 B   0 B   61 MiB  4.92  2.10    6      up
  10         0.00099   1.00000   64 MiB  1.4 MiB  1.4 MiB   0 B   0 B   63 MiB  2.24  0.95    5      up
   3         0.00099   1.00000   64 MiB      0 B      0 B   0 B   0 B   64 MiB     0     0    1      up
   7         0.00099   1.00000   64 MiB  4.0 MiB  4.0 MiB   0 B   0 B   60 MiB  6.26  2.67    7      up
  11         0.00099   1.00000   64 MiB  2.0 MiB  2.0 MiB   0 B   0 B   62 MiB  3.13  1.33    5      up
                         TOTAL  768 MiB   18 MiB   18 MiB   0 B   0 B  750 MiB  2.35
  MIN/MAX VAR: 0/2.67  STDDEV: 1.82
  $ crushfs --cluster cl df
  --- RAW STORAGE ---
  CLASS  SIZE     AVAIL    USED    RAW USED  %RAW USED
  TOTAL  768 MiB  750 MiB  18 MiB    18 MiB       2.35
  
  --- POOLS ---
  POOL          ID  PGS  STORED   OBJECTS  USED    %USED  MAX AVAIL
  crushfs_data   1   16  6.0 MiB        6  18 MiB   2.58    227 MiB
  $ crushfs --cluster cl check --deep
  check: 12 osds, 18 object copies, 18 MiB on disk: usage matches the disk, replicas agree

Changing weights and capacities, each a new epoch:

  $ crushfs --cluster cl osd reweight 2 0.5
  reweighted osd.2 to 0.5 (8000)
  $ crushfs --cluster cl osd crush reweight osd.3 0.002
  reweighted item id 3 name 'osd.3' to 0.002 in crush map
  $ crushfs --cluster cl osd set-capacity 7 2M
  set osd.7 capacity to 2 MiB
  $ crushfs --cluster cl osd primary-affinity 11 0
  set osd.11 primary-affinity to 0 (0)
  $ crushfs --cluster cl set-nearfull-ratio 0.8
  nearfull_ratio is now 0.8
  $ crushfs --cluster cl osd add --host host9 --size 128M
  added osd.12 on host host9 (capacity 128 MiB, crush weight 0.00099)
  $ crushfs --cluster cl osd tree | grep -E 'host9|osd.12 |osd.3 |osd.2 '
   2         0.00099          osd.2       up   0.50000  1.00000
   3         0.00200          osd.3       up   1.00000  1.00000
  -6         0.00099      host host9
  12         0.00099          osd.12      up   1.00000  1.00000
  $ crushfs --cluster cl osd map obj1
  osdmap e11 pool 'crushfs_data' (1) object 'obj1' -> pg 1.6cf8deff (1.f) -> up ([10,11,9], p10) acting ([10,11,9], p10)
  $ crushfs --cluster cl health detail
  HEALTH_ERR 1/18 objects misplaced (5.556%); 1 full osd(s)
  [WRN] OBJECT_MISPLACED: 1/18 objects misplaced (5.556%)
  [ERR] OSD_FULL: 1 full osd(s)
      osd.7 is full
  $ crushfs --cluster cl -f json health detail
  {"status":"HEALTH_ERR","checks":{"OBJECT_MISPLACED":{"severity":"HEALTH_WARN","summary":{"message":"1/18 objects misplaced (5.556%)","count":1},"detail":[],"muted":false},"OSD_FULL":{"severity":"HEALTH_ERR","summary":{"message":"1 full osd(s)","count":1},"detail":[{"message":"osd.7 is full"}],"muted":false}},"mutes":[]}

An OSD past full_ratio (osd.7: 2 MiB, holding more) refuses the writes of
its PGs; other PGs go on; deleting frees space at once:

  $ crushfs --cluster cl osd map big4
  osdmap e11 pool 'crushfs_data' (1) object 'big4' -> pg 1.9421bede (1.e) -> up ([7,9,2], p7) acting ([7,9,2], p7)
  $ crushfs --cluster cl rados put big4 f1
  crushfs: rados put: error putting crushfs_data/big4: (28) No space left on device
  [1]
  $ crushfs --cluster cl rados stat big4
  crushfs: rados stat: error stat-ing crushfs_data/big4: (2) No such file or directory
  [1]
  $ crushfs --cluster cl rados put obj4 f1
  $ crushfs --cluster cl -f json osd df | python3 -c "import json,sys; print([n['bytes_used'] for n in json.load(sys.stdin)['nodes'] if n['id']==7])"
  [4200000]
  $ for o in obj1 obj2 obj3 obj4 obj5 obj6; do crushfs --cluster cl osd map $o | grep -q 'acting (\[.*7' && crushfs --cluster cl rados rm $o; done; true
  $ crushfs --cluster cl rebalance
  rebalance: moved 0 objects (0 B), removed 0 old copies (0 B), 1 pgs changed
  $ crushfs --cluster cl -f json osd df | python3 -c "import json,sys; print([n['bytes_used'] for n in json.load(sys.stdin)['nodes'] if n['id']==7])"
  [0]
  $ crushfs --cluster cl rados put big4 f1
  $ crushfs --cluster cl health
  HEALTH_OK

Errors are one line:

  $ crushfs --cluster cl osd out 42
  crushfs: osd out: osd.42 does not exist
  [1]
  $ crushfs --cluster cl osd reweight 1 2
  crushfs: osd reweight: weight: 2 is out of range [0, 1]
  [1]
  $ crushfs --cluster cl osd set-capacity 1 lots
  crushfs: osd set-capacity: size: 'lots' is not a size (expected e.g. 512M, 1.5G, 100K, 4096)
  [1]
  $ crushfs --cluster cl mkfs
  crushfs: mkfs: cl: a cluster already exists there; use --force to replace it (all its data is lost)
  [1]
  $ crushfs --cluster nowhere status
  crushfs: status: no cluster at nowhere (nowhere/cluster.json: No such file or directory); create one with 'crushfs --cluster nowhere mkfs'
  [1]
  $ crushfs --cluster cl rados get nosuch out
  crushfs: rados get: error getting crushfs_data/nosuch: (2) No such file or directory
  [1]
