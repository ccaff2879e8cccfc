The commands an operator types to see the cluster at a glance, answered by
mgr/ from one snapshot in Ceph 16.2's form: `status` as `ceph -s` (one line
per health check, the details stay in `health detail`), `osd stat`,
`pg stat`, `pg dump_stuck`, `osd pool stats`, `df detail`.

  $ crushfs --cluster c mkfs --osds 6 --hosts 3 --osd-size 64M --pg-num 16 > /dev/null
  $ for i in 1 2 3 4 5 6; do head -c $((i * 100000)) /dev/zero | tr '\0' "$i" > f$i; crushfs --cluster c rados put obj$i f$i; done

A healthy cluster:

  $ crushfs --cluster c status | grep -v ' id: ' | sed -E 's/ \(since [0-9]+[smhdwMy]\)/ (since T)/g'
    cluster:
      health: HEALTH_OK
   
    services:
      osd: 6 osds: 6 up (since T), 6 in (since T)
   
    data:
      pools:   1 pools, 16 pgs
      objects: 6 objects, 2.0 MiB
      usage:   6.0 MiB used, 378 MiB / 384 MiB avail
      pgs:     16 active+clean
   
  $ crushfs --cluster c osd stat | sed -E 's/ \(since [0-9]+[smhdwMy]\)/ (since T)/g'
  6 osds: 6 up (since T), 6 in (since T); epoch: e1
  $ crushfs --cluster c pg stat
  16 pgs: 16 active+clean; 2.0 MiB data, 6.0 MiB used, 378 MiB / 384 MiB avail
  $ crushfs --cluster c pg dump_stuck
  ok
  $ crushfs --cluster c osd pool stats
  pool crushfs_data id 1
    nothing is going on
  
  $ crushfs --cluster c df detail
  --- RAW STORAGE ---
  CLASS  SIZE     AVAIL    USED     RAW USED  %RAW USED
  TOTAL  384 MiB  378 MiB  6.0 MiB   6.0 MiB       1.56
  
  --- POOLS ---
  POOL          ID  PGS  STORED   (DATA)   (OMAP)  OBJECTS  USED     (DATA)   (OMAP)  %USED  MAX AVAIL  QUOTA OBJECTS  QUOTA BYTES  DIRTY  USED COMPR  UNDER COMPR
  crushfs_data   1   16  2.0 MiB  2.0 MiB     0 B        6  6.0 MiB  6.0 MiB     0 B   1.65    119 MiB            N/A          N/A      6         0 B          0 B

An OSD goes down: its PGs are undersized and degraded.  `status` says so in
one line per check; the PGs are listed by `health detail` and
`pg dump_stuck`:

  $ crushfs --cluster c osd down 2
  marked down osd.2.
  $ crushfs --cluster c status | grep -v ' id: ' | sed -E 's/ \(since [0-9]+[smhdwMy]\)/ (since T)/g'
    cluster:
      health: HEALTH_WARN
              1 osds down
              Degraded data redundancy: 2/18 objects degraded (11.111%), 7 pgs degraded, 7 pgs undersized
   
    services:
      osd: 6 osds: 5 up (since T), 6 in (since T)
   
    data:
      pools:   1 pools, 16 pgs
      objects: 6 objects, 2.0 MiB
      usage:   6.0 MiB used, 378 MiB / 384 MiB avail
      pgs:     2/18 objects degraded (11.111%)
               9 active+clean
               7 active+undersized+degraded
   
  $ crushfs --cluster c health detail | wc -l
  11
  $ crushfs --cluster c osd stat | sed -E 's/ \(since [0-9]+[smhdwMy]\)/ (since T)/g'
  6 osds: 5 up (since T), 6 in (since T); epoch: e2
  $ crushfs --cluster c pg stat
  16 pgs: 9 active+clean, 7 active+undersized+degraded; 2.0 MiB data, 6.0 MiB used, 378 MiB / 384 MiB avail; 2/18 objects degraded (11.111%)
  $ crushfs --cluster c pg dump_stuck degraded
  PG_STAT  STATE                       UP     UP_PRIMARY  ACTING  ACTING_PRIMARY
  1.0      active+undersized+degraded  [1,0]           1   [1,0]               1
  1.2      active+undersized+degraded  [4,0]           4   [4,0]               4
  1.3      active+undersized+degraded  [4,0]           4   [4,0]               4
  1.5      active+undersized+degraded  [4,3]           4   [4,3]               4
  1.6      active+undersized+degraded  [4,3]           4   [4,3]               4
  1.b      active+undersized+degraded  [0,1]           0   [0,1]               0
  1.d      active+undersized+degraded  [4,3]           4   [4,3]               4
  ok
  $ crushfs --cluster c pg dump_stuck inactive stale
  ok
  $ crushfs --cluster c osd pool stats crushfs_data
  pool crushfs_data id 1
    2/18 objects degraded (11.111%)
  
  $ crushfs --cluster c -f json osd pool stats | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["recovery"])'
  {'degraded_objects': 2, 'degraded_total': 18, 'degraded_ratio': 0.1111111111111111}
  $ crushfs --cluster c -f json pg stat | python3 -c 'import json,sys; d=json.load(sys.stdin)["pg_summary"]; print(d["num_pgs"], sum(s["num"] for s in d["num_pg_by_state"]), d["degraded_objects"], d["degraded_total"])'
  16 16 2 18
  $ crushfs --cluster c -f json status | python3 -c 'import json,sys,time; d=json.load(sys.stdin); o=d["osdmap"]; ok=[0 <= time.time() - o.pop(k) < 600 for k in ("osd_up_since", "osd_in_since")]; print(o, ok, d["pgmap"]["num_pools"], d["pgmap"]["degraded_objects"], sorted(d["health"]["checks"]))'
  {'epoch': 2, 'num_osds': 6, 'num_up_osds': 5, 'num_in_osds': 6, 'num_remapped_pgs': 0} [True, True] 1 2 ['OSD_DOWN', 'PG_DEGRADED']

The stamps are OSDMap's last_up_change / last_in_change, kept with the map
(cluster.json); `osd stat -f json` gives them in epoch seconds, the text
form their age as utimespan_str writes it.  A map from before crushfs kept
them prints no "(since ...)".

  $ cp -r c old
  $ python3 -c 'import json,time; p="old/cluster.json"; d=json.load(open(p)); d["last_up_change"]=int(time.time())-7300; d["last_in_change"]=int(time.time())-3*86400-60; json.dump(d, open(p, "w"))'
  $ crushfs --cluster old osd stat
  6 osds: 5 up (since 2h), 6 in (since 3d); epoch: e2
  $ crushfs --cluster old -f json osd stat | python3 -c 'import json,sys,time; d=json.load(sys.stdin); print(round((time.time() - d["osd_up_since"]) / 100), round((time.time() - d["osd_in_since"]) / 3600))'
  73 72
  $ python3 -c 'import json; p="old/cluster.json"; d=json.load(open(p)); del d["last_up_change"], d["last_in_change"]; json.dump(d, open(p, "w"))'
  $ crushfs --cluster old osd stat
  6 osds: 5 up, 6 in; epoch: e2
  $ crushfs --cluster old -f json osd stat
  {"epoch":2,"num_osds":6,"num_up_osds":5,"osd_up_since":0,"num_in_osds":6,"osd_in_since":0,"num_remapped_pgs":0}
  $ crushfs --cluster old osd up 2 > /dev/null
  $ crushfs --cluster old osd stat | sed -E 's/\(since [0-9]+s\)/(since Ns)/'
  6 osds: 6 up (since Ns), 6 in; epoch: e3
  $ rm -rf old

Marked out as well: the data is misplaced until rebalance moves it.

  $ crushfs --cluster c osd out 2
  marked out osd.2.
  $ crushfs --cluster c osd stat | sed -E 's/ \(since [0-9]+[smhdwMy]\)/ (since T)/g'
  6 osds: 5 up (since T), 5 in (since T); epoch: e3; 2 remapped pgs
  $ crushfs --cluster c pg stat
  16 pgs: 14 active+clean, 2 active+undersized+degraded+remapped+backfill_wait; 2.0 MiB data, 5.1 MiB used, 315 MiB / 320 MiB avail; 2/18 objects degraded (11.111%)
  $ crushfs --cluster c osd df | head -4
  ID  CLASS  WEIGHT   REWEIGHT  SIZE     RAW USE  DATA     OMAP  META  AVAIL    %USE  VAR   PGS  STATUS
   0         0.00099   1.00000   64 MiB  1.1 MiB  1.1 MiB   0 B   0 B   63 MiB  1.79  1.11    7        up
   3         0.00099   1.00000   64 MiB  879 KiB  879 KiB   0 B   0 B   63 MiB  1.34  0.83    9        up
   1         0.00099   1.00000   64 MiB  1.1 MiB  1.1 MiB   0 B   0 B   63 MiB  1.79  1.11    4        up

Bad words get one line and a non-zero exit:

  $ crushfs --cluster c pg dump_stuck clean
  crushfs: pg dump_stuck: unknown type 'clean' (inactive, unclean, stale, undersized or degraded)
  [1]
  $ crushfs --cluster c osd pool stats nosuchpool
  crushfs: osd pool stats: unrecognized pool 'nosuchpool'
  [1]
  $ crushfs --cluster c osd stat extra
  crushfs: osd stat: unexpected argument 'extra' (usage: crushfs osd stat)
  [1]
  $ crushfs --cluster c df details
  crushfs: df: unexpected argument 'details' (usage: crushfs df [detail])
  [1]

Applications (`osd pool application`): the filesystem's data pool is
tagged cephfs as `fs new` tags it; a pool gets others with Ceph's checks:

  $ crushfs --cluster c osd pool application get crushfs_data
  {
      "cephfs": {
          "data": "crushfs"
      }
  }
  $ crushfs --cluster c osd pool create p2 8 > /dev/null
  $ crushfs --cluster c osd pool application get p2
  {}
  $ crushfs --cluster c osd pool application enable p2 rbd
  enabled application 'rbd' on pool 'p2'
  $ crushfs --cluster c osd pool application enable p2 rbd
  enabled application 'rbd' on pool 'p2'
  $ crushfs --cluster c osd pool application enable p2 rgw
  crushfs: osd pool application enable: Are you SURE? Pool 'p2' already has an enabled application; pass --yes-i-really-mean-it to proceed anyway
  [1]
  $ crushfs --cluster c osd pool application set p2 rbd mirror on
  set application 'rbd' key 'mirror' to 'on' on pool 'p2'
  $ crushfs --cluster c osd pool application get p2 rbd mirror
  on
  $ crushfs --cluster c osd pool application set p2 rgw k v
  crushfs: osd pool application set: application 'rgw' is not enabled on pool 'p2'
  [1]
  $ crushfs --cluster c osd pool application rm p2 rbd nokey
  application 'rbd' on pool 'p2' does not have key 'nokey'
  $ crushfs --cluster c osd pool application rm p2 rbd mirror
  removed application 'rbd' key 'mirror' on pool 'p2'
  $ crushfs --cluster c osd pool application disable p2 rbd
  crushfs: osd pool application disable: Are you SURE? Disabling an application within a pool might result in loss of application functionality; pass --yes-i-really-mean-it to proceed anyway
  [1]
  $ crushfs --cluster c osd pool application disable p2 rgw --yes-i-really-mean-it
  application 'rgw' is not enabled on pool 'p2'
  $ crushfs --cluster c osd pool application enable p2 $(printf 'a%.0s' $(seq 129)) --yes-i-really-mean-it
  crushfs: osd pool application enable: application name 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' too long; max length 128
  [1]
  $ crushfs --cluster c osd pool ls detail | grep -o "'.*application.*"
  'crushfs_data' replicated size 3 min_size 2 crush_rule 0 object_hash rjenkins pg_num 16 pgp_num 16 autoscale_mode off last_change 7 flags hashpspool stripe_width 0 application cephfs
  'p2' replicated size 3 min_size 2 crush_rule 0 object_hash rjenkins pg_num 8 pgp_num 8 autoscale_mode off last_change 7 flags hashpspool stripe_width 0 application rbd
  $ crushfs --cluster c -f json osd pool application get p2
  {"rbd":{}}
  $ crushfs --cluster c fs add_data_pool crushfs p2 > /dev/null
  added data pool 2 to fsmap
  $ crushfs --cluster c osd pool application get p2
  {
      "cephfs": {
          "data": "crushfs"
      },
      "rbd": {}
  }

An imported cluster keeps the applications of its osd_dump.json (rbd is
rbd's, although crushfs's files go there), `df` lists its device classes,
and no pool's USED counts the live cluster's use (the prefill): that is raw
use, as STORED counts none of it either:

  $ cp -r "$TESTDIR/../ceph/fixtures/import1" snap
  $ crushfs --cluster i mkfs --from-ceph snap --prefill > /dev/null 2>&1
  $ crushfs --cluster i osd pool ls detail | grep -o "^pool [0-9] '[a-z_]*'\|application.*"
  pool 1 'device_health_metrics'
  application mgr_devicehealth
  pool 2 'rbd'
  pool 3 'fast'
  pool 4 'ecpool'
  $ crushfs --cluster i df detail
  --- RAW STORAGE ---
  CLASS  SIZE    AVAIL    USED     RAW USED  %RAW USED
  hdd    16 GiB   15 GiB  1.3 GiB   1.3 GiB       8.12
  ssd     8 GiB  7.4 GiB  581 MiB   581 MiB       7.09
  TOTAL  24 GiB   22 GiB  1.9 GiB   1.9 GiB       7.78
  
  --- POOLS ---
  POOL                   ID  PGS  STORED  (DATA)  (OMAP)  OBJECTS  USED  (DATA)  (OMAP)  %USED  MAX AVAIL  QUOTA OBJECTS  QUOTA BYTES  DIRTY  USED COMPR  UNDER COMPR
  device_health_metrics   1    1     0 B     0 B     0 B        0   0 B     0 B     0 B   0.00    6.9 GiB            N/A          N/A      0         0 B          0 B
  rbd                     2   32     0 B     0 B     0 B        0   0 B     0 B     0 B   0.00    4.6 GiB            N/A          N/A      0         0 B          0 B
  fast                    3   16     0 B     0 B     0 B        0   0 B     0 B     0 B   0.00    3.5 GiB            N/A          N/A      0         0 B          0 B
  ecpool                  4   16     0 B     0 B     0 B        0   0 B     0 B     0 B   0.00    9.2 GiB            N/A          N/A      0         0 B          0 B
  $ crushfs --cluster i -f json df | python3 -c 'import json,sys; d=json.load(sys.stdin); print(sorted(d["stats_by_class"]), [p["stats"]["bytes_used"] for p in d["pools"]])'
  ['hdd', 'ssd'] [0, 0, 0, 0]
  $ crushfs --cluster i osd df | head -3
  ID  CLASS  WEIGHT   REWEIGHT  SIZE    RAW USE  DATA     OMAP  META  AVAIL    %USE  VAR   PGS  STATUS
   0    hdd  0.00389   1.00000   4 GiB  342 MiB  342 MiB   0 B   0 B  3.7 GiB  8.34  1.07   39      up
   1    hdd  0.00389   1.00000   4 GiB  335 MiB  335 MiB   0 B   0 B  3.7 GiB  8.17  1.05   42      up

Back to the first cluster: with two hosts' OSDs down as well, no PG has
min_size copies: they are inactive (peered), and `ceph -s` says what share:

  $ for o in 0 1 3 4; do crushfs --cluster c osd down $o > /dev/null; done
  $ crushfs --cluster c status | sed -n '/health:/,/^ $/p;/data:/,$p'
      health: HEALTH_WARN
              5 osds down
              Reduced data availability: 24 pgs inactive, 2 pgs down
              Degraded data redundancy: 14/18 objects degraded (77.778%), 24 pgs degraded, 24 pgs undersized
   
    data:
      pools:   2 pools, 24 pgs
      objects: 6 objects, 2.0 MiB
      usage:   5.1 MiB used, 315 MiB / 320 MiB avail
      pgs:     100.000% pgs not active
               14/18 objects degraded (77.778%)
               22 undersized+degraded+peered
               2  down+undersized+degraded+backfill_wait
   
  $ crushfs --cluster c pg dump_stuck inactive 2>&1 | head -3
  PG_STAT  STATE                                   UP   UP_PRIMARY  ACTING  ACTING_PRIMARY
  1.0      down+undersized+degraded+backfill_wait  [5]           5     [5]               5
  1.1                  undersized+degraded+peered  [5]           5     [5]               5
  $ crushfs --cluster c osd stat | sed -E 's/ \(since [0-9]+[smhdwMy]\)/ (since T)/g'
  6 osds: 1 up (since T), 5 in (since T); epoch: e12

The last OSD down: no OSD reports the PGs, they are stale as well:

  $ crushfs --cluster c osd down 5
  marked down osd.5.
  $ crushfs --cluster c pg dump_stuck stale 2>&1 | head -3
  PG_STAT  STATE                       UP  UP_PRIMARY  ACTING  ACTING_PRIMARY
  1.0        down+undersized+degraded  []          -1      []              -1
  1.1        down+undersized+degraded  []          -1      []              -1
  $ crushfs --cluster c pg dump_stuck stale 2>&1 | grep -c '^[0-9]'
  24

`df detail` shows the quotas (N/A for none), `-f json` Ceph's fields:

  $ crushfs --cluster c osd pool set-quota p2 max_objects 1500 > /dev/null
  $ crushfs --cluster c osd pool set-quota p2 max_bytes 10M > /dev/null
  $ crushfs --cluster c df detail | sed -n '/POOLS/,$p'
  --- POOLS ---
  POOL          ID  PGS  STORED   (DATA)   (OMAP)  OBJECTS  USED     (DATA)   (OMAP)  %USED  MAX AVAIL  QUOTA OBJECTS  QUOTA BYTES  DIRTY  USED COMPR  UNDER COMPR
  crushfs_data   1   16  2.0 MiB  2.0 MiB     0 B        6  6.0 MiB  6.0 MiB     0 B   1.65    119 MiB            N/A          N/A      6         0 B          0 B
  p2             2    8      0 B      0 B     0 B        0      0 B      0 B     0 B   0.00    119 MiB          1.50k       10 MiB      0         0 B          0 B
  $ crushfs --cluster c -f json df detail | python3 -c 'import json,sys; d=json.load(sys.stdin)["pools"][1]["stats"]; print(d["quota_objects"], d["quota_bytes"], d["dirty"], d["stored_omap"])'
  1500 10485760 0 0
  $ crushfs --cluster c -f json osd df | python3 -c 'import json,sys; n=json.load(sys.stdin)["nodes"][0]; print(sorted(k for k in n if k.startswith("kb")), n["device_class"])'
  ['kb', 'kb_avail', 'kb_used', 'kb_used_data', 'kb_used_meta', 'kb_used_omap'] 
