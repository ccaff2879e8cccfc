Full OSDs that explain themselves: every ENOSPC has a cause that health
names.

  $ crushfs --cluster c mkfs --osd-size 64M --pg-num 16 > /dev/null
  $ crushfs --cluster c osd set-capacity 7 3M
  set osd.7 capacity to 3 MiB
  $ head -c 2000000 /dev/zero | tr '\0' a > f2
  $ head -c 1000000 /dev/zero | tr '\0' b > f1
  $ head -c 500000 /dev/zero | tr '\0' c > f05
  $ for i in 1 4 5 6 7 10; do crushfs --cluster c osd map o$i | grep -q 'acting (\[[0-9,]*\b7\b' || echo "o$i misses osd.7"; done

Policy osd (the default): a write that would push osd.7 past full_ratio is
refused while osd.7 is below it; health says which OSD and why:

  $ crushfs --cluster c rados put o1 f2
  $ crushfs --cluster c rados put o4 f2
  crushfs: rados put: error putting crushfs_data/o4: (28) No space left on device
  [1]
  $ crushfs --cluster c health detail
  HEALTH_ERR 1 osd(s) too full for a write
  [ERR] OSD_TOO_FULL_FOR_WRITE: 1 osd(s) too full for a write
      osd.7 refused a write of 1.9 MiB to pg 1.d: 1.9 MiB used, writes refused past 2.8 MiB (full_ratio)
  $ crushfs --cluster c -f json health | python3 -c 'import json,sys; c=json.load(sys.stdin)["checks"]["OSD_TOO_FULL_FOR_WRITE"]; print(c["severity"], c["summary"]["count"])'
  HEALTH_ERR 1

A smaller write still fits; room again (a delete) clears the check:

  $ crushfs --cluster c rados put o5 f05
  $ crushfs --cluster c health | head -1
  HEALTH_ERR 1 osd(s) too full for a write
  $ crushfs --cluster c rados rm o1
  $ crushfs --cluster c health
  HEALTH_OK
  $ crushfs --cluster c rados rm o5

Policy pool switches on through writes: any up+in OSD of the pool's rule
at or over full_ratio makes the pool FULL (Ceph's monitor does the same),
and a write may take an OSD past full_ratio up to its capacity:

  $ crushfs --cluster c set-full-policy pool
  full policy is now pool
  $ crushfs --cluster c rados put o6 f2
  $ crushfs --cluster c rados put o7 f1
  $ crushfs --cluster c osd df | grep -E '^ +7 ' | awk '{print $16, $NF}'
  95.37 up,full
  $ crushfs --cluster c health detail
  HEALTH_ERR 1 full osd(s); 1 pool(s) full
  [ERR] OSD_FULL: 1 full osd(s)
      osd.7 is full
  [WRN] POOL_FULL: 1 pool(s) full
      pool 'crushfs_data' is full (osd.7 is full; full policy pool)
  $ crushfs --cluster c osd dump | grep -o 'flags hashpspool[a-z,]*'
  flags hashpspool,full
  $ crushfs --cluster c osd map o20 | grep -o 'acting.*'
  acting ([11,1,10], p11)
  $ crushfs --cluster c rados put o20 f1
  crushfs: rados put: error putting crushfs_data/o20: (28) No space left on device
  [1]
  $ crushfs --cluster c rados rm o6
  $ crushfs --cluster c rados put o20 f1
  $ crushfs --cluster c osd dump | grep -o 'flags hashpspool[a-z,]*'
  flags hashpspool

A damaged refused.json is one error line:

  $ echo '{"refused": [{"osd": -1}]}' > c/refused.json
  $ crushfs --cluster c health
  crushfs: health: c/refused.json: refused[0] is invalid
  [1]
  $ rm c/refused.json
  $ crushfs --cluster c health | head -1
  HEALTH_OK
