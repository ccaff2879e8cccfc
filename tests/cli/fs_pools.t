The filesystem's data pools, as `ceph fs` keeps them: the first data
pool, then those `fs add_data_pool` adds (an erasure-coded one once
`allow_ec_overwrites` is set, as CephFS asks: mount_ec.sh).  File layouts may name
any of them (mount_pools.sh); `rados -p` reaches every replicated pool;
a pool leaves the filesystem only once empty; its pg_num changes move
its objects as the first data pool's do.

  $ crushfs --cluster p mkfs --osd-size 256M > /dev/null
  $ crushfs --cluster p osd pool create fast 16
  pool 'fast' created
  $ crushfs --cluster p osd pool create ecp 8 erasure
  pool 'ecp' created
  $ crushfs --cluster p fs ls
  name: crushfs, metadata pool: none (RocksDB), data pools: [crushfs_data ]
  $ crushfs --cluster p fs add_data_pool cephfs fast
  crushfs: fs add_data_pool: Filesystem not found: 'cephfs' (the filesystem is 'crushfs')
  [1]
  $ crushfs --cluster p fs add_data_pool crushfs nosuch
  crushfs: fs add_data_pool: unrecognized pool 'nosuch'
  [1]
  $ crushfs --cluster p fs add_data_pool crushfs ecp
  crushfs: fs add_data_pool: pool 'ecp' (id '3') is an erasure-coded pool, with no overwrite support
  [1]
  $ crushfs --cluster p fs add_data_pool crushfs fast
  added data pool 2 to fsmap
  $ crushfs --cluster p fs add_data_pool crushfs 2
  data pool 2 is already used by filesystem crushfs
  $ crushfs --cluster p fs ls -f json
  [{"name":"crushfs","metadata_pool":null,"data_pool_ids":[1,2],"data_pools":["crushfs_data","fast"]}]
  $ crushfs --cluster p osd pool ls detail | grep -c "application cephfs"
  2

Objects by name in any replicated pool, each pool's placement its own:

  $ printf abc > obj
  $ crushfs --cluster p rados -p fast put o1 obj
  $ crushfs --cluster p rados -p fast ls
  o1
  $ crushfs --cluster p rados ls
  $ crushfs --cluster p rados -p ecp ls
  $ crushfs --cluster p rados -p nope ls
  crushfs: rados ls: error opening pool nope: (2) No such file or directory
  [1]
  $ crushfs --cluster p osd map fast o1
  osdmap e5 pool 'fast' (2) object 'o1' -> pg 2.cf0d001e (2.e) -> up ([1,2,3], p1) acting ([1,2,3], p1)
  $ crushfs --cluster p pg ls-by-pool fast | awk 'NR > 1 && $2 > 0'
  2.e        1         0          0        0      3  active+clean  [1,2,3]p1    [1,2,3]p1
  $ crushfs --cluster p df | sed -n '/POOLS/,$p'
  --- POOLS ---
  POOL          ID  PGS  STORED  OBJECTS  USED  %USED  MAX AVAIL
  crushfs_data   1  128     0 B        0   0 B   0.00    973 MiB
  fast           2   16     3 B        1   9 B   0.00    973 MiB
  ecp            3    8     0 B        0   0 B   0.00    1.4 GiB
  $ crushfs --cluster p osd pool set-quota fast max_objects 1
  set-quota max_objects = 1 for pool fast
  $ crushfs --cluster p rados -p fast put o2 obj
  crushfs: rados put: error putting fast/o2: (122) Disk quota exceeded
  [1]
  $ crushfs --cluster p osd pool set-quota fast max_objects 0
  set-quota max_objects = 0 for pool fast
  $ crushfs --cluster p check
  check: 12 osds, 3 object copies, 9 B on disk: usage matches the disk

A pool holding objects splits its PGs as the first data pool does
(stable_mod files o1 in a child PG on the same OSDs), and stays in the
filesystem until it is empty; the first data pool never leaves:

  $ crushfs --cluster p osd pool set fast pg_num 32 --dry-run
  dry run of 'osd pool set fast pg_num 32': pg_num 16 -> 32, pgp_num 16 (pgp_num_target 32)
  split: 16 new PGs, each born on its parent's OSDs
  1 of 1 objects (3 B of 3 B) change PG; they stay on their OSDs: nothing moves between OSDs
  then `rebalance` steps pgp_num to 32; 'osd pool set fast pgp_num 32 --dry-run' shows what that moves
  $ crushfs --cluster p osd pool set fast pg_num 32
  set pool 2 pg_num to 32 (pgp_num 16; `rebalance` steps it to 32)
  $ crushfs --cluster p osd map fast o1
  osdmap e8 pool 'fast' (2) object 'o1' -> pg 2.cf0d001e (2.1e) -> up ([1,2,3], p1) acting ([1,2,3], p1)
  $ crushfs --cluster p rados -p fast get o1 -
  abc (no-eol)
  $ crushfs --cluster p check
  check: 12 osds, 3 object copies, 9 B on disk: usage matches the disk
  $ crushfs --cluster p fs rm_data_pool crushfs fast
  crushfs: fs rm_data_pool: pool 'fast' still holds 1 object(s) of the filesystem's files: remove or move them first
  [1]
  $ crushfs --cluster p osd pool rm fast fast --yes-i-really-really-mean-it
  crushfs: osd pool rm: pool 'fast' is in use by CephFS
  [1]
  $ crushfs --cluster p rados -p fast rm o1
  $ crushfs --cluster p fs rm_data_pool crushfs fast
  removed data pool 2 from fsmap
  $ crushfs --cluster p fs rm_data_pool crushfs fast
  crushfs: fs rm_data_pool: pool is not a data pool of the filesystem
  [1]
  $ crushfs --cluster p fs rm_data_pool crushfs crushfs_data
  crushfs: fs rm_data_pool: cannot remove default data pool
  [1]

A merge waits for pgp_num to come down (Ceph merges only co-located
PGs): the command keeps the targets, and rebalance lowers pgp_num, then
merges:

  $ crushfs --cluster p osd pool set fast pg_num 8
  set pool 2 pg_num to 8 (pg_num 32, pgp_num 16 for now: `rebalance` lowers pgp_num to 8 step by step, then merges)
  $ crushfs --cluster p osd pool ls detail | grep -o "'fast'.*pgp_num_target [0-9]*"
  'fast' replicated size 3 min_size 2 crush_rule 0 object_hash rjenkins pg_num 32 pgp_num 16 pg_num_target 8 pgp_num_target 8
  $ crushfs --cluster p rebalance
  rebalance: moved 0 objects (0 B), removed 0 old copies (0 B), 1 pgs changed
  rebalance: pool 'fast' pg_num 32 -> 8, pgp_num 16 -> 8
  $ crushfs --cluster p osd pool set fast pg_num 8
  pool 'fast' pg_num is already 8
  $ crushfs --cluster p pg ls-by-pool fast | wc -l
  9
  $ crushfs --cluster p check
  check: 12 osds, 0 object copies, 0 B on disk: usage matches the disk

