Pool and crush rule commands in Ceph's forms, on the cluster's pool.

  $ crushfs --cluster c mkfs --osd-size 64M --pg-num 16 > /dev/null
  $ crushfs --cluster c osd pool ls
  crushfs_data
  $ crushfs --cluster c osd pool ls detail
  pool 1 'crushfs_data' replicated size 3 min_size 2 crush_rule 0 object_hash rjenkins pg_num 16 pgp_num 16 autoscale_mode off last_change 1 flags hashpspool stripe_width 0 application cephfs
  
  $ crushfs --cluster c -f json osd pool ls
  ["crushfs_data"]
  $ crushfs --cluster c osd pool get crushfs_data all
  size: 3
  min_size: 2
  pg_num: 16
  pgp_num: 16
  crush_rule: replicated_rule
  $ crushfs --cluster c -f json osd pool get 1 size
  {"pool":"crushfs_data","pool_id":1,"size":3}
  $ crushfs --cluster c osd map crushfs_data obj1
  osdmap e1 pool 'crushfs_data' (1) object 'obj1' -> pg 1.6cf8deff (1.f) -> up ([11,10,9], p11) acting ([11,10,9], p11)
  $ crushfs --cluster c osd map obj1
  osdmap e1 pool 'crushfs_data' (1) object 'obj1' -> pg 1.6cf8deff (1.f) -> up ([11,10,9], p11) acting ([11,10,9], p11)

size and min_size, with the monitor's checks (a size change sets min_size
to its default):

  $ crushfs --cluster c osd pool set crushfs_data size 2
  set pool 1 size to 2
  $ crushfs --cluster c osd pool get crushfs_data min_size
  min_size: 1
  $ crushfs --cluster c osd map crushfs_data obj1
  osdmap e2 pool 'crushfs_data' (1) object 'obj1' -> pg 1.6cf8deff (1.f) -> up ([11,10], p11) acting ([11,10], p11)
  $ crushfs --cluster c osd pool set crushfs_data min_size 3
  crushfs: osd pool set: pool min_size must be between 1 and size, which is set to 2
  [1]
  $ crushfs --cluster c osd pool set crushfs_data size 11
  crushfs: osd pool set: pool size must be between 1 and 10
  [1]
  $ crushfs --cluster c osd pool set crushfs_data size two
  crushfs: osd pool set: error parsing integer value 'two'
  [1]
  $ crushfs --cluster c osd pool set crushfs_data size 3
  set pool 1 size to 3
  $ crushfs --cluster c osd pool set crushfs_data pg_num 32
  set pool 1 pg_num to 32 (pgp_num 16; `rebalance` steps it to 32)
  $ crushfs --cluster c osd pool set crushfs_data pgp_num 33
  crushfs: osd pool set: specified pgp_num 33 > pg_num 32
  [1]
  $ crushfs --cluster c osd pool set crushfs_data pg_num 16
  set pool 1 pg_num to 16 (pgp_num 16)
  $ crushfs --cluster c osd pool set crushfs_data pg_num 16
  pool 'crushfs_data' pg_num is already 16
  $ crushfs --cluster c osd pool set crushfs_data stripe_width 8
  crushfs: osd pool set: unrecognized variable 'stripe_width' (crushfs sets size, min_size, pg_num, pgp_num, pgp_num_actual, crush_rule, allow_ec_overwrites)
  [1]
  $ crushfs --cluster c osd pool set nope size 2
  crushfs: osd pool set: unrecognized pool 'nope'
  [1]
  $ crushfs --cluster c osd pool get crushfs_data color
  crushfs: osd pool get: unrecognized variable 'color' (crushfs knows size, min_size, pg_num, pgp_num, crush_rule, all)
  [1]
  $ crushfs --cluster c osd map nope obj1
  crushfs: osd map: pool nope does not exist
  [1]

Rules: list, dump, create one, use it:

  $ crushfs --cluster c osd crush rule ls
  replicated_rule
  $ crushfs --cluster c osd crush rule dump replicated_rule
  {
      "rule_id": 0,
      "rule_name": "replicated_rule",
      "ruleset": 0,
      "type": 1,
      "min_size": 1,
      "max_size": 10,
      "steps": [
          {
              "op": "take",
              "item": -1,
              "item_name": "default"
          },
          {
              "op": "chooseleaf_firstn",
              "num": 0,
              "type": "host"
          },
          {
              "op": "emit"
          }
      ]
  }
  $ crushfs --cluster c osd crush rule create-replicated by_osd default osd
  created rule by_osd at 1
  $ crushfs --cluster c osd crush rule create-replicated by_osd default osd
  rule by_osd already exists
  $ crushfs --cluster c osd crush rule create-replicated x nowhere host
  crushfs: osd crush rule create-replicated: root item nowhere does not exist
  [1]
  $ crushfs --cluster c osd crush rule create-replicated x default rack
  crushfs: osd crush rule create-replicated: unknown type rack
  [1]
  $ crushfs --cluster c osd crush rule create-replicated x default host ssd
  crushfs: osd crush rule create-replicated: device class ssd does not exist
  [1]
  $ crushfs --cluster c osd crush rule create-replicated 'x y' default host
  crushfs: osd crush rule create-replicated: 'x y' is not a valid crush name (letters, digits, '_', '-', '.')
  [1]
  $ crushfs --cluster c osd crush rule ls
  replicated_rule
  by_osd
  $ crushfs --cluster c osd crush rule dump | python3 -c 'import json,sys; print([(r["rule_id"], r["rule_name"], [s["op"] for s in r["steps"]]) for r in json.load(sys.stdin)])'
  [(0, 'replicated_rule', ['take', 'chooseleaf_firstn', 'emit']), (1, 'by_osd', ['take', 'choose_firstn', 'emit'])]
  $ grep -A8 'rule by_osd' c/crushmap.txt
  rule by_osd {
  \tid 1 (esc)
  \ttype replicated (esc)
  \tmin_size 1 (esc)
  \tmax_size 10 (esc)
  \tstep take default (esc)
  \tstep choose firstn 0 type osd (esc)
  \tstep emit (esc)
  }
  $ crushfs --cluster c osd pool set crushfs_data crush_rule by_osd
  set pool 1 crush_rule to by_osd
  $ crushfs --cluster c osd pool get crushfs_data crush_rule
  crush_rule: by_osd
  $ crushfs --cluster c osd pool set crushfs_data crush_rule 7
  crushfs: osd pool set: crush rule 7 does not exist
  [1]
  $ crushfs --cluster c osd pool set crushfs_data crush_rule replicated_rule
  set pool 1 crush_rule to replicated_rule

Quotas: once the pool's use reaches one, writes get EDQUOT (Ceph's
FULL_QUOTA flag), deletes go on.  As in Ceph the check is on the pool's
stats before a write, so the write that crosses the quota lands:

  $ head -c 1000000 /dev/zero | tr '\0' q > f1
  $ crushfs --cluster c osd pool set-quota crushfs_data max_bytes 2M
  set-quota max_bytes = 2097152 for pool crushfs_data
  $ for i in 1 2 3; do crushfs --cluster c rados put q$i f1; done
  $ crushfs --cluster c osd pool get-quota crushfs_data
  quotas for pool 'crushfs_data':
    max objects: N/A
    max bytes  : 2 MiB  (current num bytes: 2.9 MiB)
  $ crushfs --cluster c health detail
  HEALTH_WARN 1 pool(s) full
  [WRN] POOL_FULL: 1 pool(s) full
      pool 'crushfs_data' is full (reached quota's max_bytes: 2 MiB)
  $ crushfs --cluster c osd pool ls detail
  pool 1 'crushfs_data' replicated size 3 min_size 2 crush_rule 0 object_hash rjenkins pg_num 16 pgp_num 16 autoscale_mode off last_change 9 flags hashpspool,full,full_quota max_bytes 2097152 stripe_width 0 application cephfs
  
  $ crushfs --cluster c rados rm q1
  $ crushfs --cluster c rados put q1 f1
  $ crushfs --cluster c osd pool set-quota crushfs_data max_bytes 0
  set-quota max_bytes = 0 for pool crushfs_data
  $ crushfs --cluster c osd pool set-quota crushfs_data max_objects 3
  set-quota max_objects = 3 for pool crushfs_data
  $ crushfs --cluster c rados put q4 f1
  crushfs: rados put: error putting crushfs_data/q4: (122) Disk quota exceeded
  [1]
  $ crushfs --cluster c rados put q5 f1
  crushfs: rados put: error putting crushfs_data/q5: (122) Disk quota exceeded
  [1]
  $ crushfs --cluster c -f json osd pool get-quota crushfs_data
  {"pool_name":"crushfs_data","pool_id":1,"quota_max_objects":3,"quota_max_bytes":0,"current_num_objects":3,"current_num_bytes":3000000}
  $ crushfs --cluster c osd pool set-quota crushfs_data max_objects -1
  crushfs: osd pool set-quota: error parsing integer value '-1'
  [1]
  $ crushfs --cluster c osd pool set-quota crushfs_data max_files 3
  crushfs: osd pool set-quota: field must be max_bytes or max_objects
  [1]
  $ crushfs --cluster c osd pool set-quota crushfs_data max_objects 0
  set-quota max_objects = 0 for pool crushfs_data
  $ crushfs --cluster c rados put q5 f1
  $ crushfs --cluster c health
  HEALTH_OK

A pg_num change has a dry run: how many objects stable_mod files into
another PG (the same count the real split re-files, checked against `osd
map` before and after), with the change's refusals; nothing moves
between OSDs until pgp_num follows, whose own dry run says what then moves.

  $ crushfs --cluster d mkfs --osd-size 256M --pg-num 16 > /dev/null
  $ head -c 4096 /dev/zero > small
  $ for i in $(seq 1 60); do crushfs --cluster d rados put o$i small; done
  $ for i in $(seq 1 60); do crushfs --cluster d osd map crushfs_data o$i; done > before
  $ crushfs --cluster d osd pool set crushfs_data pg_num 64 --dry-run > plan
  $ cat plan | sed 's/[0-9]* of 60 objects/N of 60 objects/'
  dry run of 'osd pool set crushfs_data pg_num 64': pg_num 16 -> 64, pgp_num 16 (pgp_num_target 64)
  split: 48 new PGs, each born on its parent's OSDs
  N of 60 objects (192 KiB of 240 KiB) change PG; they stay on their OSDs: nothing moves between OSDs
  then `rebalance` steps pgp_num to 64; 'osd pool set crushfs_data pgp_num 64 --dry-run' shows what that moves
  $ crushfs --cluster d osd pool get crushfs_data pg_num
  pg_num: 16
  $ crushfs --cluster d osd pool set crushfs_data pg_num 64
  set pool 1 pg_num to 64 (pgp_num 16; `rebalance` steps it to 64)
  $ for i in $(seq 1 60); do crushfs --cluster d osd map crushfs_data o$i; done > after
  $ changed=$(paste -d'|' before after | awk -F'|' '{split($1, a, " "); split($2, b, " "); if (a[11] != b[11]) n++} END {print n + 0}')
  $ grep -q "^$changed of 60 objects" plan && echo "dry run counted the $changed re-filed"
  dry run counted the 48 re-filed
  $ paste -d'|' before after | awk -F'|' '{split($1, a, "->"); split($2, b, "->"); sub(/.*up /, "", a[3]); sub(/.*up /, "", b[3]); if (a[3] != b[3]) n++} END {print n + 0, "objects changed OSDs"}'
  0 objects changed OSDs
  $ crushfs --cluster d osd pool set crushfs_data pg_num 8 --dry-run
  dry run of 'osd pool set crushfs_data pg_num 8': pg_num 64 -> 8, pgp_num 16 (pgp_num_target 8)
  not now (pgp_num 16 is above 8: Ceph merges PGs once pgp_num is lowered and they are on the same OSDs): pg_num_target 8 is kept, and `rebalance` lowers pgp_num step by step, then merges
  54 of 60 objects (216 KiB of 240 KiB) change PG; they stay on their OSDs: nothing moves between OSDs
  then `rebalance` steps pgp_num to 8; 'osd pool set crushfs_data pgp_num 8 --dry-run' shows what that moves
  $ crushfs --cluster d osd pool set crushfs_data pg_num 64 --dry-run
  pool 'crushfs_data' pg_num is already 64
  $ crushfs --cluster d osd pool set crushfs_data pg_num 0 --dry-run
  crushfs: osd pool set: 'pg_num' must be greater than 0 and less than or equal to 65536
  [1]
