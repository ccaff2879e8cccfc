`mkfs --from-ceph SNAPDIR` brings a live Ceph cluster's osdmap into crushfs:
its pools (replicated and erasure), OSD states, reweights, primary
affinities, upmaps, EC profiles and ratios, with capacities (and, with
--prefill, the use) from `osd df`.  The snapshot here was taken from a
real one-node Ceph 16.2 cluster (tests/ceph/make_import_fixtures.sh);
tests/ceph/check_import.sh compares 800 of its `osd map` answers, its PGs
and its `osd df` with crushfs's.

  $ cp -r "$TESTDIR/../ceph/fixtures/import1" snap
  $ crushfs --cluster c mkfs --from-ceph snap --prefill
  crushfs: warning: snap: not modelled: df.json's per-pool STORED and OBJECTS (crushfs counts its own objects; --prefill takes the OSDs' use)
  imported cluster c from snap
    fsid dab905ea-9cf6-49af-923b-6893b47b15bd, epoch 44
    6 osds (24 GiB raw, 1.9 GiB used as prefilled), 4 pools, crush map in c/crushmap.txt
    filesystem data in pool 'rbd' (2): size 3, min_size 2, pg_num 32, object size 4 MiB, full policy osd
  $ crushfs --cluster c osd pool ls
  device_health_metrics
  rbd
  fast
  ecpool
  $ crushfs --cluster c osd map fast obj-1
  osdmap e44 pool 'fast' (3) object 'obj-1' -> pg 3.9b148003 (3.3) -> up ([4,5], p4) acting ([4,5], p4)
  $ crushfs --cluster c osd map ecpool obj-1
  osdmap e44 pool 'ecpool' (4) object 'obj-1' -> pg 4.9b148003 (4.3) -> up ([0,3,1], p0) acting ([0,3,1], p0)
  $ crushfs --cluster c osd dump | grep -E '^(pg_|primary_temp|osd\.[12] )'
  osd.1 up   in  weight 1 primary_affinity 0.5 up_from 0 up_thru 0 down_at 0 last_clean_interval [0,0) [] [] exists,up f5aa440c-25ab-4ad5-9c72-be034503a4c3
  osd.2 up   in  weight 0.799988 up_from 0 up_thru 0 down_at 0 last_clean_interval [0,0) [] [] exists,up d6f99752-03ce-4345-9717-54d5d0087d1b
  pg_upmap 3.2 [5,4]
  pg_upmap_items 2.1 [0,3]

The imported weights stay exact (the binary map; crushmap.txt rounds them):

  $ crushfs --cluster c osd df -f json | python3 -c 'import json,sys; print([n["crush_weight"] for n in json.load(sys.stdin)["nodes"]][:2])'
  [0.0038909912109375, 0.0038909912109375]

The imported cluster is a cluster like any: marking the ssd osd.5 out
cancels the pg_upmap that names it (OSDMap::clean_pg_upmaps), and the
prefilled use counts against the full ratio.

  $ crushfs --cluster c osd out 5
  marked out osd.5.
  $ crushfs --cluster c osd dump | grep -E '^pg_'
  pg_upmap_items 2.1 [0,3]
  $ crushfs --cluster c osd map fast obj-1
  osdmap e45 pool 'fast' (3) object 'obj-1' -> pg 3.9b148003 (3.3) -> up ([4], p4) acting ([4], p4)

Another pool may hold the filesystem; erasure pools cannot yet.

  $ crushfs --cluster d mkfs --from-ceph snap --data-pool fast | tail -1
  crushfs: warning: snap: not modelled: df.json's per-pool STORED and OBJECTS (crushfs counts its own objects; --prefill takes the OSDs' use)
    filesystem data in pool 'fast' (3): size 2, min_size 2, pg_num 16, object size 4 MiB, full policy osd
  $ crushfs --cluster d mkfs --from-ceph snap --data-pool ecpool --force
  crushfs: mkfs: --data-pool ecpool: an erasure pool cannot hold the filesystem's data yet; name a replicated pool
  [1]
  $ crushfs --cluster e mkfs --from-ceph snap --data-pool nosuch
  crushfs: mkfs: --data-pool nosuch: no such pool in snap/osd_dump.json
  [1]

Bad snapshots and command lines: one line, exit 1, no cluster left behind.

  $ crushfs --cluster e mkfs --from-ceph nodir
  crushfs: mkfs: nodir/osd_dump.json: cannot read: No such file or directory (collect it with ceph osd dump -f json)
  [1]
  $ crushfs --cluster e mkfs --from-ceph snap --osds 3
  crushfs: mkfs: --osds does not go with --from-ceph (the live cluster's own is imported)
  [1]
  $ crushfs --cluster e mkfs --prefill
  crushfs: mkfs: --prefill needs --from-ceph SNAPDIR
  [1]
  $ cp -r snap bad && head -c 3000 snap/osd_dump.json > bad/osd_dump.json
  $ crushfs --cluster e mkfs --from-ceph bad
  crushfs: mkfs: bad/osd_dump.json:2:2999: premature end of input
  [1]
  $ cp snap/osd_dump.json bad/ && rm bad/crushmap.bin
  $ crushfs --cluster e mkfs --from-ceph bad
  crushfs: mkfs: bad/crushmap.bin: missing: collect the exact crush map with ceph osd getcrushmap -o crushmap.bin (crushfs reads the binary map, not crush_dump.json: its weight sets are printed as decimals)
  [1]
  $ head -c 500 snap/crushmap.bin > bad/crushmap.bin
  $ crushfs --cluster e mkfs --from-ceph bad
  crushfs: mkfs: bad/crushmap.bin: truncated at byte 484: type names (96 bytes needed, 16 left)
  [1]
  $ cp snap/crushmap.bin bad/ && rm bad/osd_df.json
  $ crushfs --cluster e mkfs --from-ceph bad --prefill
  crushfs: mkfs: bad/osd_df.json: missing; --prefill needs it (ceph osd df -f json)
  [1]
  $ edit() { python3 -c "import json,sys; d=json.load(open('snap/osd_dump.json')); $1; json.dump(d, open('bad/osd_dump.json','w'))"; }
  $ edit "d['pools'][2]['flags_names']=''"
  $ crushfs --cluster e mkfs --from-ceph bad
  crushfs: mkfs: pool 3 'fast': no hashpspool flag: the seed of such a pool (pre-firefly placement) is not modelled
  [1]
  $ edit "d['pools'][2]['type']=2"
  $ crushfs --cluster e mkfs --from-ceph bad
  crushfs: mkfs: pool 3 'fast': type 2 is neither replicated (1) nor erasure (3)
  [1]
  $ edit "d['pools'][1]['crush_rule']=3"
  $ crushfs --cluster e mkfs --from-ceph bad
  crushfs: mkfs: pool 2 'rbd': crush rule 3 (ecpool) is not a replicated rule
  [1]
  $ edit "d['pools'][1]['size']=0"
  $ crushfs --cluster e mkfs --from-ceph bad
  crushfs: mkfs: bad/osd_dump.json: pool 2 'rbd': size is missing or out of range
  [1]
  $ edit "d['pg_upmap'][0]['pgid']='9.2'"
  $ crushfs --cluster e mkfs --from-ceph bad
  crushfs: mkfs: bad/osd_dump.json: pg_upmap[0]
  [1]
  $ edit "d['osds'][1]['weight']=2"
  $ crushfs --cluster e mkfs --from-ceph bad
  crushfs: mkfs: bad/osd_dump.json: osds[1] is missing a field or has one out of range (osd, up, in, weight, primary_affinity, uuid)
  [1]
  $ edit "del d['fsid']"
  $ crushfs --cluster e mkfs --from-ceph bad
  crushfs: mkfs: bad/osd_dump.json: not ceph osd dump -f json (epoch, fsid or a full ratio missing or invalid)
  [1]
  $ ls -d e* 2>/dev/null
  [2]

What crushfs does not model is named, never dropped silently:

  $ edit "d['flags_set'].append('noout'); d['pools'][1]['pg_num_target']=64; d['pools'][1]['pg_autoscale_mode']='on'"
  $ rm bad/df.json
  $ crushfs --cluster e mkfs --from-ceph bad 2>&1 >/dev/null
  crushfs: warning: bad: not modelled: 6 OSD(s) without a size in osd_df.json: capacity from the crush weight (1.0 = 1 TiB) (no osd_df.json); pool 'rbd' pg_num 32 -> 64 in progress (imported at 32); pool 'rbd' pg_autoscale_mode on (crushfs changes pg_num only when told); cluster flags noout

librados is loaded only by the commands that connect to a Ceph cluster
(every other command starts without it); one that cannot be loaded, or
that is not a librados, is named, and nothing is made:

  $ CRUSHFS_LIBRADOS=libcrushfs-none.so.0 crushfs --cluster nolib import-ceph --live
  crushfs: import-ceph: cannot load librados (libcrushfs-none.so.0: cannot open shared object file: No such file or directory): apt-get install -y librados2
  [1]
  $ CRUSHFS_LIBRADOS=libm.so.6 crushfs --cluster nolib import-ceph --live
  crushfs: import-ceph: libm.so.6 has no rados_aio_create_completion2: not the librados of Ceph 16.2 or later
  [1]
  $ test -e nolib
  [1]
  $ ldd "$(command -v crushfs)" | grep -c rados
  0
  [1]
