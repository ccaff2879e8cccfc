Limits a user cannot get past: file layouts bounded as CephFS bounds them
(file_layout_t::is_valid: 64 KiB multiples, the object size a multiple of
the stripe unit, a stripe count of at least 1) plus our own bounds (stripe
count at most 65536, objects at most 1 GiB), and crush weights from OSD
sizes (TiB, as Ceph sets them; crush map text allows 100 at most).

  $ crushfs --cluster l1 mkfs --object-size 4K
  crushfs: mkfs: --object-size 4096: must be a non-zero multiple of 64 KiB (65536)
  [1]
  $ crushfs --cluster l1 mkfs --object-size 100000
  crushfs: mkfs: --object-size 100000: must be a non-zero multiple of 64 KiB (65536)
  [1]
  $ crushfs --cluster l1 mkfs --object-size 2G
  crushfs: mkfs: --object-size 2147483648: must be at most 1 GiB
  [1]
  $ crushfs --cluster l1 mkfs --object-size 5G
  crushfs: mkfs: --object-size: '5G' is out of range
  [1]
  $ crushfs --cluster l1 mkfs --stripe-unit 4K
  crushfs: mkfs: --stripe-unit 4096: must be a non-zero multiple of 64 KiB (65536)
  [1]
  $ crushfs --cluster l1 mkfs --stripe-unit 3M
  crushfs: mkfs: --stripe-unit 3145728: must divide the object size 4194304
  [1]
  $ crushfs --cluster l1 mkfs --stripe-unit 8M
  crushfs: mkfs: --stripe-unit 8388608: must divide the object size 4194304
  [1]
  $ crushfs --cluster l1 mkfs --stripe-count 0
  crushfs: mkfs: --stripe-count 0: must be 1..65536
  [1]
  $ crushfs --cluster l1 mkfs --stripe-count 65537
  crushfs: mkfs: --stripe-count 65537: must be 1..65536
  [1]
  $ crushfs --cluster l1 mkfs --stripe-count 4294967295
  crushfs: mkfs: --stripe-count 4294967295: must be 1..65536
  [1]
  $ crushfs --cluster l1 mkfs --stripe-count 4294967296
  crushfs: mkfs: --stripe-count: '4294967296' is out of range (0..4294967295)
  [1]
  $ ls l1
  ls: cannot access 'l1': No such file or directory
  [2]
  $ crushfs --cluster l2 mkfs --osd-size 64M --pg-num 8 --object-size 64K --stripe-count 65536 | grep pool
    pool 'crushfs_data' (1): size 3, min_size 2, pg_num 8, object size 64 KiB, full policy osd
  $ crushfs --cluster l3 mkfs --osd-size 64M --pg-num 8 --object-size 1G --stripe-unit 64K | grep pool
    pool 'crushfs_data' (1): size 3, min_size 2, pg_num 8, object size 1 GiB, full policy osd

A cluster.json edited by hand to a layout nothing could use is refused:

  $ python3 -c "import json; p='l2/cluster.json'; d=json.load(open(p)); d['pool']['stripe_count']=4294967295; json.dump(d, open(p,'w'))"
  $ crushfs --cluster l2 status
  crushfs: status: l2/cluster.json: pool.stripe_count 4294967295: must be 1..65536
  [1]
  $ python3 -c "import json; p='l2/cluster.json'; d=json.load(open(p)); d['pool']['stripe_count']=1; d['pool']['stripe_unit']=4096; json.dump(d, open(p,'w'))"
  $ crushfs --cluster l2 status
  crushfs: status: l2/cluster.json: pool.stripe_unit 4096: must be a non-zero multiple of 64 KiB (65536)
  [1]

Crush weights from sizes: TiB in 16.16, at least 0.001; 512 TiB used to
overflow to 0.00099.  Over 100 the map could not be read back (crushtool:
"device weight limited to 100"), so it is refused with a way out:

  $ crushfs --cluster w mkfs --osds 3 --hosts 3 --osd-size 64G --pg-num 8 > /dev/null
  $ crushfs --cluster w osd add --host big --size 2T
  added osd.3 on host big (capacity 2 TiB, crush weight 2.00000)
  $ crushfs --cluster w osd add --host big --size 100T
  added osd.4 on host big (capacity 100 TiB, crush weight 100.00000)
  $ crushfs --cluster w osd add --host big --size 101T
  crushfs: osd add: --size 101 TiB: its crush weight (the size in TiB) would be over 100, the most a crush map allows; weights are relative: add it with --size 100T or less, then 'osd set-capacity'
  [1]
  $ crushfs --cluster w osd add --host big --size 256T
  crushfs: osd add: --size 256 TiB: its crush weight (the size in TiB) would be over 100, the most a crush map allows; weights are relative: add it with --size 100T or less, then 'osd set-capacity'
  [1]
  $ crushfs --cluster w osd add --host big --size 512T
  crushfs: osd add: --size 512 TiB: its crush weight (the size in TiB) would be over 100, the most a crush map allows; weights are relative: add it with --size 100T or less, then 'osd set-capacity'
  [1]
  $ crushfs --cluster w osd add --host big --size 1P
  crushfs: osd add: --size 1 PiB: its crush weight (the size in TiB) would be over 100, the most a crush map allows; weights are relative: add it with --size 100T or less, then 'osd set-capacity'
  [1]
  $ crushfs --cluster w osd add --host big --size 64P
  crushfs: osd add: --size 64 PiB: its crush weight (the size in TiB) would be over 100, the most a crush map allows; weights are relative: add it with --size 100T or less, then 'osd set-capacity'
  [1]
  $ crushfs --cluster w osd tree
  ID  CLASS  WEIGHT     TYPE NAME       STATUS  REWEIGHT  PRI-AFF
  -1         102.18750  root default
  -2           0.06250      host host0
   0           0.06250          osd.0       up   1.00000  1.00000
  -3           0.06250      host host1
   1           0.06250          osd.1       up   1.00000  1.00000
  -4           0.06250      host host2
   2           0.06250          osd.2       up   1.00000  1.00000
  -5         102.00000      host big
   3           2.00000          osd.3       up   1.00000  1.00000
   4         100.00000          osd.4       up   1.00000  1.00000
  $ crushfs --cluster w osd set-capacity 4 512T
  set osd.4 capacity to 512 TiB
  $ crushfs --cluster w osd crush reweight osd.3 512
  crushfs: osd crush reweight: weight: 512 is out of range [0, 100]
  [1]
  $ crushfs --cluster w mkfs --force --osd-size 512T
  crushfs: mkfs: --osd-size 512 TiB: its crush weight (the size in TiB) would be over 100, the most a crush map allows; weights are relative: use 100T or less, or a --crush-map with --osd-size
  [1]
  $ crushfs --cluster w2 mkfs --osd-size 100T --osds 1000 --hosts 10
  crushfs: mkfs: --osd-size: 1000 OSDs of this size weigh over 65535 (TiB), more than a crush bucket allows
  [1]
  $ crushfs --cluster w3 mkfs --osds 2 --hosts 2 --osd-size 100T --pg-num 8 | grep osds
    2 osds (capacity 100 TiB each), crush map in w3/crushmap.txt
