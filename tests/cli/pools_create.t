More pools, as Ceph 16.2's monitor makes them: `osd pool create` with its
defaults (pg_num 32, pgp_num = pg_num, size 3 / min_size 2 on the first
replicated rule; erasure: k+m wide, min_size k+1, on the rule named after
the pool - "erasure-code" for the default profile - made from the profile
when missing).  They are placed every epoch like the filesystem's data
pool; `fs add_data_pool` lets file layouts use a replicated one
(fs_pools.t), `rados -p` writes objects in any replicated one.

  $ crushfs --cluster p mkfs --osd-size 256M > /dev/null
  $ crushfs --cluster p osd pool create rbd
  pool 'rbd' created
  $ crushfs --cluster p osd pool create rbd 64
  pool 'rbd' already exists
  $ crushfs --cluster p osd pool get rbd all
  size: 3
  min_size: 2
  pg_num: 32
  pgp_num: 32
  crush_rule: replicated_rule
  $ crushfs --cluster p osd pool create ecp 16 erasure
  pool 'ecp' created
  $ crushfs --cluster p osd pool get ecp all
  size: 4
  min_size: 3
  pg_num: 16
  pgp_num: 16
  crush_rule: erasure-code
  allow_ec_overwrites: false
  erasure_code_profile: default
  $ crushfs --cluster p osd erasure-code-profile set k4m2 k=4 m=2
  $ crushfs --cluster p osd pool create wide 8 8 erasure k4m2
  pool 'wide' created
  $ crushfs --cluster p osd crush rule ls
  replicated_rule
  erasure-code
  wide
  $ crushfs --cluster p osd pool ls detail
  pool 1 'crushfs_data' replicated size 3 min_size 2 crush_rule 0 object_hash rjenkins pg_num 128 pgp_num 128 autoscale_mode off last_change 7 flags hashpspool stripe_width 0 application cephfs
  
  pool 2 'rbd' replicated size 3 min_size 2 crush_rule 0 object_hash rjenkins pg_num 32 pgp_num 32 autoscale_mode off last_change 7 flags hashpspool stripe_width 0
  
  pool 3 'ecp' erasure profile default size 4 min_size 3 crush_rule 1 object_hash rjenkins pg_num 16 pgp_num 16 autoscale_mode off last_change 7 flags hashpspool stripe_width 8192
  
  pool 4 'wide' erasure profile k4m2 size 6 min_size 5 crush_rule 2 object_hash rjenkins pg_num 8 pgp_num 8 autoscale_mode off last_change 7 flags hashpspool stripe_width 16384
  

A replicated pool maps as osdmaptool maps a pool of that id (the
`osdmap test-map-object` model, golden-tested against osdmaptool):

  $ crushfs --cluster p osd map rbd hello
  osdmap e7 pool 'rbd' (2) object 'hello' -> pg 2.b706399e (2.1e) -> up ([5,6,4], p5) acting ([5,6,4], p5)
  $ for o in a b c d e f g h i j; do crushfs --cluster p osd map rbd obj$o | sed 's/.*-> pg [^ ]* (\([^)]*\)) -> up (\[\([^]]*\)\].*/\1 [\2]/'; done > ours
  $ for o in a b c d e f g h i j; do crushfs osdmap test-map-object obj$o --crush p/crushmap.txt --pool 2 --pg-num 32 | sed "s/.*-> \([^ ]*\) -> \[\(.*\)\]/\1 [\2]/"; done > theirs
  $ diff ours theirs && echo same
  same

An erasure pool keeps each shard's position: with 4 hosts, a 4+2 profile
(failure domain host) leaves two holes, CRUSH_ITEM_NONE as Ceph prints it;
the 2+2 pool's shards sit on four different hosts.

  $ crushfs --cluster p osd map wide hello
  osdmap e7 pool 'wide' (4) object 'hello' -> pg 4.b706399e (4.6) -> up ([0,1,2,11,2147483647,2147483647], p0) acting ([0,1,2,11,2147483647,2147483647], p0)
  $ crushfs --cluster p -f json osd map ecp hello | grep -o '"up":\[[^]]*\]' | tr -d '"up:[]' | tr ',' '\n' | while read o; do crushfs --cluster p osd find $o | grep -o '"host": *"[^"]*"'; done | sort -u | wc -l
  4

The monitor's refusals:

  $ crushfs --cluster p osd pool create bad 0
  crushfs: osd pool create: 'pg_num' must be greater than 0 and less than or equal to 65536 (you may adjust 'mon max pool pg num' for higher values)
  [1]
  $ crushfs --cluster p osd pool create bad 16 32
  crushfs: osd pool create: 'pgp_num' must be greater than 0 and lower or equal than 'pg_num', which in this case is 16
  [1]
  $ crushfs --cluster p osd pool create bad 16 16 replicated nosuchrule
  crushfs: osd pool create: specified rule nosuchrule doesn't exist
  [1]
  $ crushfs --cluster p osd pool create bad 16 16 replicated erasure-code
  crushfs: osd pool create: crush rule 1 (erasure-code) is not a replicated rule
  [1]
  $ crushfs --cluster p osd pool create bad 16 16 erasure nosuchprofile
  crushfs: osd pool create: specified erasure code profile nosuchprofile doesn't exist
  [1]
  $ crushfs --cluster p osd pool create bad 16 16 mirrored
  crushfs: osd pool create: unknown pool type 'mirrored'
  [1]
  $ crushfs --cluster p osd pool create bad 4096
  crushfs: osd pool create:  pg_num 4096 size 3 would mean 12880 total pgs, which exceeds max 3000 (mon_max_pg_per_osd 250 * num_in_osds 12)
  [1]
  $ crushfs --cluster p config set mon mon_max_pg_per_osd 30
  $ crushfs --cluster p osd pool create bad 64
  crushfs: osd pool create:  pg_num 64 size 3 would mean 784 total pgs, which exceeds max 360 (mon_max_pg_per_osd 30 * num_in_osds 12)
  [1]
  $ crushfs --cluster p config rm mon mon_max_pg_per_osd
  $ crushfs --cluster p config get mon mon_max_pg_per_osd
  250
  $ crushfs --cluster p osd pool ls
  crushfs_data
  rbd
  ecp
  wide

`osd pool set` works on them all (pg_num of a replicated pool is a PG
split, as the data pool's), with the same checks:

  $ crushfs --cluster p osd pool set rbd pg_num 64
  set pool 2 pg_num to 64 (pgp_num 32; `rebalance` steps it to 64)
  $ crushfs --cluster p osd pool set rbd size 2
  set pool 2 size to 2
  $ crushfs --cluster p osd pool get rbd min_size
  min_size: 1
  $ crushfs --cluster p osd pool set ecp size 5
  crushfs: osd pool set: can not change the size of an erasure-coded pool
  [1]
  $ crushfs --cluster p osd pool set rbd crush_rule erasure-code
  crushfs: osd pool set: crush rule 1 (erasure-code) is not a replicated rule
  [1]
  $ crushfs --cluster p osd pool set ecp pgp_num 32
  crushfs: osd pool set: specified pgp_num 32 > pg_num 16
  [1]

Every listing covers them: `osd dump`, `df` (MAX AVAIL by each pool's
rule and raw used rate: (k+m)/k for erasure), `status`; a map change's
dry run says what their PGs do:

  $ crushfs --cluster p osd dump | grep '^pool' | cut -d' ' -f1-4
  pool 1 'crushfs_data' replicated
  pool 2 'rbd' replicated
  pool 3 'ecp' erasure
  pool 4 'wide' erasure
  $ crushfs --cluster p df | sed -n '/POOLS/,$p'
  --- POOLS ---
  POOL          ID  PGS  STORED  OBJECTS  USED  %USED  MAX AVAIL
  crushfs_data   1  128     0 B        0   0 B   0.00    973 MiB
  rbd            2   64     0 B        0   0 B   0.00    1.4 GiB
  ecp            3   16     0 B        0   0 B   0.00    1.4 GiB
  wide           4    8     0 B        0   0 B   0.00    1.9 GiB
  $ crushfs --cluster p status | grep pools:
      pools:   4 pools, 216 pgs
  $ crushfs --cluster p osd out 3 --dry-run | grep "^pool '"
  pool 'rbd': 16 of 64 pgs change their up set (no object of it moves)
  pool 'ecp': 3 of 16 pgs change their up set (no object of it moves)
  pool 'wide': 2 of 8 pgs change their up set (no object of it moves)

Removing: the pool name twice and the flag, and (as Ceph 16.2) the
monitor option mon_allow_pool_delete set first; never the filesystem's
pool; ids are not reused.

  $ crushfs --cluster p osd pool rm rbd
  crushfs: osd pool rm: WARNING: this will *PERMANENTLY DESTROY* all data stored in pool rbd.  If you are *ABSOLUTELY CERTAIN* that is what you want, pass the pool name *twice*, followed by --yes-i-really-really-mean-it.
  [1]
  $ crushfs --cluster p osd pool rm rbd rbd --yes-i-really-really-mean-it
  crushfs: osd pool rm: pool deletion is disabled; you must first set the mon_allow_pool_delete config option to true before you can destroy a pool
  [1]
  $ crushfs --cluster p config get mon mon_allow_pool_delete
  false
  $ crushfs --cluster p config set mon mon_allow_pool_delete maybe
  crushfs: config set: error parsing value: 'maybe' is not a boolean (true or false)
  [1]
  $ crushfs --cluster p config set mon mon_allow_pool_deletes true
  crushfs: config set: unrecognized config option 'mon_allow_pool_deletes'
  [1]
  $ crushfs --cluster p config set osdd mon_allow_pool_delete true
  crushfs: config set: unrecognized config target 'osdd'
  [1]
  $ crushfs --cluster p config set mon mon_allow_pool_delete true
  $ crushfs --cluster p config dump
  WHO    MASK LEVEL     OPTION                   VALUE    RO
  mon         advanced  mon_allow_pool_delete    true    
  $ crushfs --cluster p osd pool rm rbd rbd --yes-i-really-really-mean-it
  pool 'rbd' removed
  $ crushfs --cluster p osd pool rm rbd rbd --yes-i-really-really-mean-it
  pool 'rbd' does not exist
  $ crushfs --cluster p osd pool rm crushfs_data crushfs_data --yes-i-really-really-mean-it
  crushfs: osd pool rm: pool 'crushfs_data' is in use by CephFS
  [1]
  $ crushfs --cluster p osd pool create rbd2 8
  pool 'rbd2' created
  $ crushfs --cluster p osd pool ls detail | grep rbd2 | cut -d' ' -f1-3
  pool 5 'rbd2'
  $ crushfs --cluster p fsck --dry-run > /dev/null && echo clean
  clean

Upmaps work on every pool's PGs (with the pool's size and min_size):

  $ crushfs --cluster p osd map rbd2 x
  osdmap e11 pool 'rbd2' (5) object 'x' -> pg 5.d6d9af33 (5.3) -> up ([9,10,11], p9) acting ([9,10,11], p9)
  $ crushfs --cluster p osd pg-upmap-items 5.3 9 0
  set 5.3 pg_upmap_items mapping to [9->0]
  $ crushfs --cluster p osd dump | grep '^pg_upmap'
  pg_upmap_items 5.3 [9,0]
  $ crushfs --cluster p osd map rbd2 x
  osdmap e12 pool 'rbd2' (5) object 'x' -> pg 5.d6d9af33 (5.3) -> up ([0,10,11], p0) acting ([0,10,11], p0)
  $ crushfs --cluster p osd pg-upmap 4.1 1
  crushfs: osd pg-upmap: num of osds (1) < pool min size (5)
  [1]
  $ crushfs --cluster p osd rm-pg-upmap-items 5.3
  clear 5.3 pg_upmap_items mapping
  $ crushfs --cluster p osd map rbd2 x | grep -o 'up (.*'
  up ([9,10,11], p9) acting ([9,10,11], p9)

Scrub works on an erasure pool's PGs too (shard by shard; this one is
empty):

  $ crushfs --cluster p pg deep-scrub 4.0
  deep-scrub: 1 pg, 0 objects, 0 errors, 0 repaired, 0 unfound

The upmap balancer works on every pool, as the mgr's does in upmap mode
(calc_pg_upmaps pool after pool, --max the budget of all); an erasure
pool's shards keep their positions:

  $ crushfs --cluster p balancer eval ecp | tail -1
  max deviation 2.67 PGs (osd.1), stddev 1.80
  $ crushfs --cluster p balancer optimize --deviation 1 --max 40 2>&1 >/dev/null
  pool 'crushfs_data': planned 22 change(s) in 21 PG(s) (max 40, deviation 1): PGs per OSD off target, stddev 4.43 -> 0.00, max 10.00 -> 0.00
  pool 'ecp': planned 7 change(s) in 4 PG(s) (max 18, deviation 1): PGs per OSD off target, stddev 1.80 -> 0.47, max 2.67 -> 0.67
  pool 'wide': planned 1 change(s) in 1 PG(s) (max 11, deviation 1): PGs per OSD off target, stddev 1.78 -> 1.63, max 3.00 -> 3.00
  pool 'rbd2': planned 8 change(s) in 5 PG(s) (max 10, deviation 1): PGs per OSD off target, stddev 1.58 -> 0.00, max 3.00 -> 0.00
  $ crushfs --cluster p pg dump -f json > before.json
  $ crushfs --cluster p balancer optimize --pool ecp --deviation 1 --max 40 --apply
  applied 7 change(s) in 4 PG(s) (max 40, deviation 1): PGs per OSD off target, stddev 1.80 -> 0.47, max 2.67 -> 0.67; `crushfs rebalance` moves the data
  $ crushfs --cluster p balancer eval ecp | tail -1
  max deviation 0.67 PGs (osd.1), stddev 0.47
  $ crushfs --cluster p pg dump -f json > after.json
  $ crushfs --cluster p osd dump -f json > dump.json
  $ python3 - <<'EOF'
  > import json
  > up = lambda f: {p["pgid"]: p["up"] for p in json.load(open(f))["pg_map"]["pg_stats"]}
  > b, a = up("before.json"), up("after.json")
  > items = {u["pgid"]: u["mappings"] for u in json.load(open("dump.json"))["pg_upmap_items"]}
  > moved = 0
  > for pg in sorted(b):
  >     swap = {m["from"]: m["to"] for m in items.get(pg, [])} if pg.startswith("3.") else {}
  >     assert a[pg] == [swap.get(o, o) for o in b[pg]], (pg, b[pg], a[pg])
  >     moved += a[pg] != b[pg]
  > print(moved, "PGs changed, every shard in its place")
  > EOF
  4 PGs changed, every shard in its place
  $ crushfs --cluster p balancer optimize --pool nosuch
  crushfs: balancer optimize: pool 'nosuch' does not exist
  [1]
  $ crushfs --cluster p balancer eval nosuch
  crushfs: balancer eval: pool 'nosuch' does not exist
  [1]
  $ crushfs --cluster p analyze --pool ecp | sed -n '1p;/^osd.1 /p;$p'
  pool 'ecp' (3): 16 PGs x 4 shards on 12 OSDs, 0 B stored (raw 0 B)
  osd.1      8.3%        6      5.3     +12.5%        0 B        0 B   +0.0%
    as the PGs are spread:        1.1 GiB / 1.3 GiB; osd.1 fills first
  $ crushfs --cluster p -f json analyze > an.json
  $ crushfs --cluster p -f json df > df.json
  $ python3 -c 'import json; a = {p["name"]: p["max_avail"] for p in json.load(open("an.json"))["pools"]}; d = {p["name"]: p["stats"]["max_avail"] for p in json.load(open("df.json"))["pools"]}; print(sorted(a), a == d)'
  ['crushfs_data', 'ecp', 'rbd2', 'wide'] True
  $ crushfs --cluster p pg ls-by-pool wide | head -2 | cut -c1-60 | sed "s/ *$//"
  PG   OBJECTS  DEGRADED  MISPLACED  UNFOUND  BYTES  STATE
  4.0        0         0          0        0      0  undersize
  $ crushfs --cluster p health
  HEALTH_WARN Reduced data availability: 8 pgs inactive; Degraded data redundancy: 8 pgs undersized

The options live in DIR/config.json; a damaged one is named, not guessed:

  $ cp p/config.json saved.json
  $ echo '{"mon_allow_pool_delete": "perhaps"}' > p/config.json
  $ crushfs --cluster p osd pool ls
  crushfs: osd pool ls: p/config.json: field 'mon_allow_pool_delete' is not a valid value
  [1]
  $ echo '{"mon_allow_pool_delete": ' > p/config.json
  $ crushfs --cluster p osd pool ls
  crushfs: osd pool ls: p/config.json:2:0: unexpected token near end of file
  [1]
  $ mv saved.json p/config.json
  $ crushfs --cluster p config get mon mon_allow_pool_delete
  true
