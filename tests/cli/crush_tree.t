The crush map as the monitor shows it: `osd crush tree [--show-shadow]`,
`osd crush ls`, `osd crush dump`, `osd getcrushmap`, and `pg map`, on the
cluster imported from a real Ceph 16.2 cluster (tests/ceph/fixtures), whose
own `osd crush dump` and `pg dump` answers are kept beside it.

  $ SNAP=$TESTDIR/../ceph/fixtures/import1
  $ crushfs --cluster c mkfs --from-ceph "$SNAP" > /dev/null 2>&1

osd crush tree: ID CLASS WEIGHT TYPE NAME, children sorted by class and
name; the per-class shadow trees only with --show-shadow, roots in id order:

  $ crushfs --cluster c osd crush tree
  ID  CLASS  WEIGHT   TYPE NAME
  -1         0.02335  root default
  -3         0.02335      host vm
   0    hdd  0.00389          osd.0
   1    hdd  0.00389          osd.1
   2    hdd  0.00389          osd.2
   3    hdd  0.00389          osd.3
   4    ssd  0.00389          osd.4
   5    ssd  0.00389          osd.5
  $ crushfs --cluster c osd crush tree --show-shadow
  ID  CLASS  WEIGHT   TYPE NAME
  -6    ssd  0.00778  root default~ssd
  -5    ssd  0.00778      host vm~ssd
   4    ssd  0.00389          osd.4
   5    ssd  0.00389          osd.5
  -2    hdd  0.01556  root default~hdd
  -4    hdd  0.01556      host vm~hdd
   0    hdd  0.00389          osd.0
   1    hdd  0.00389          osd.1
   2    hdd  0.00389          osd.2
   3    hdd  0.00389          osd.3
  -1         0.02335  root default
  -3         0.02335      host vm
   0    hdd  0.00389          osd.0
   1    hdd  0.00389          osd.1
   2    hdd  0.00389          osd.2
   3    hdd  0.00389          osd.3
   4    ssd  0.00389          osd.4
   5    ssd  0.00389          osd.5
  $ crushfs --cluster c osd crush tree --show-all
  crushfs: osd crush tree: unexpected argument '--show-all' (usage: crushfs osd crush tree [--show-shadow])
  [1]

Its JSON is CrushTreeDumper's: children last first, pool_weights under a
parent, crush_weight and depth for devices:

  $ crushfs --cluster c -f json osd crush tree | python3 -c '
  > import json, sys
  > d = json.load(sys.stdin)
  > print(sorted(d), len(d["nodes"]), d["stray"])
  > for n in d["nodes"][:3]: print(json.dumps(n, sort_keys=True))'
  ['nodes', 'stray'] 8 []
  {"children": [-3], "id": -1, "name": "default", "type": "root", "type_id": 11}
  {"children": [5, 4, 3, 2, 1, 0], "id": -3, "name": "vm", "pool_weights": {}, "type": "host", "type_id": 1}
  {"crush_weight": 0.0038909912109375, "depth": 2, "device_class": "hdd", "id": 0, "name": "osd.0", "pool_weights": {}, "type": "osd", "type_id": 0}

osd crush ls: a bucket's items, or the device itself:

  $ crushfs --cluster c osd crush ls default
  vm
  $ crushfs --cluster c osd crush ls vm~ssd
  osd.4
  osd.5
  $ crushfs --cluster c osd crush ls osd.3
  osd.3
  $ crushfs --cluster c -f json osd crush ls vm
  ["osd.0","osd.1","osd.2","osd.3","osd.4","osd.5"]
  $ crushfs --cluster c osd crush ls nowhere
  crushfs: osd crush ls: node 'nowhere' does not exist
  [1]
  $ crushfs --cluster c osd crush ls
  crushfs: osd crush ls: no node specified (usage: crushfs osd crush ls NODE)
  [1]

osd crush dump equals what the real cluster's `ceph osd crush dump`
printed, key for key (devices, types, buckets, rules, tunables,
choose_args), and is json-pretty unless -f json:

  $ crushfs --cluster c osd crush dump > dump.json
  $ head -3 dump.json
  {
      "devices": [
          {
  $ python3 -c 'import json, sys; a = json.load(open("dump.json")); b = json.load(open(sys.argv[1])); print(a == b, list(a))' "$SNAP/crush_dump.json"
  True ['devices', 'types', 'buckets', 'rules', 'tunables', 'choose_args']
  $ crushfs --cluster c -f json osd crush dump | wc -l
  1

choose_args sets get a column each in the tree (the default set is
"(compat)", a pool's set its pool's name) and their weights in the dump:

  $ crushfs --cluster cl mkfs --osd-size 64M --pg-num 32 --crush-map "$TESTDIR/../golden/maps/cargs_pools.txt" > /dev/null
  $ crushfs --cluster cl osd crush tree | head -4
  ID  CLASS  WEIGHT    (compat)  crushfs_data  3        TYPE NAME
  -7         18.00000                                   root default
  -1          2.50000   1.54199       0.82700  2.62900      host h0
   0          1.00000   4.68799       1.07399  3.76299          osd.0
  $ crushfs --cluster cl -f json osd crush dump | python3 -c 'import json, sys; c = json.load(sys.stdin)["choose_args"]; print(sorted(c), c["-1"][0])'
  ['-1', '1', '3'] {'bucket_id': -1, 'weight_set': [[4.68798828125, 0.5419921875]]}

osd getcrushmap -o FILE writes the binary map, byte for byte the one the
real cluster's `ceph osd getcrushmap` wrote, and its version on stderr,
as Ceph 16.2's monitor answers:

  $ crushfs --cluster c osd getcrushmap -o map.bin
  44
  $ cmp map.bin "$SNAP/crushmap.bin" && echo identical
  identical
  $ crushfs crush decompile map.bin | grep -c '^device '
  6
  $ crushfs --cluster c osd getcrushmap 2>/dev/null | cmp - map.bin && echo same
  same
  $ crushfs --cluster c osd getcrushmap -o /nonexistent/map.bin
  crushfs: osd getcrushmap: /nonexistent/map.bin: No such file or directory
  [1]

pg map: the up and acting sets the real cluster had for each of its PGs
(pg_dump.json); a raw seed past pg_num folds onto its PG:

  $ crushfs --cluster c pg map 2.1b
  osdmap e44 pg 2.1b (2.1b) -> up [3,0,1] acting [3,0,1]
  $ crushfs --cluster c pg map 2.3b
  osdmap e44 pg 2.3b (2.1b) -> up [3,0,1] acting [3,0,1]
  $ python3 -c '
  > import json, subprocess, sys
  > bad = 0
  > for p in json.load(open(sys.argv[1]))["pg_stats"]:
  >     out = subprocess.run(["crushfs", "--cluster", "c", "-f", "json", "pg", "map", p["pgid"]], capture_output=True, text=True).stdout
  >     m = json.loads(out)
  >     bad += (m["up"], m["acting"], m["pgid"]) != (p["up"], p["acting"], p["pgid"])
  > print("PGs differing:", bad)' "$SNAP/pg_dump.json"
  PGs differing: 0
  $ crushfs --cluster c -f json pg map 2.3b
  {"epoch":44,"raw_pgid":"2.3b","pgid":"2.1b","up":[3,0,1],"acting":[3,0,1]}
  $ crushfs --cluster c pg map 9.1
  crushfs: pg map: pg '9.1' does not exist
  [1]
  $ crushfs --cluster c pg map 2.zz
  crushfs: pg map: invalid pgid '2.zz'
  [1]
