What-if: --dry-run on the commands that change placement says what would
move and changes nothing; the move it predicts is the one rebalance then
makes.

  $ crushfs --cluster c mkfs --osds 6 --hosts 3 --pg-num 32 --osd-size 64M > /dev/null
  $ head -c 300000 /dev/zero | tr '\0' 'x' > obj
  $ for i in $(seq 40); do crushfs --cluster c rados put o$i obj; done
  $ cp c/cluster.json before.json

  $ crushfs --cluster c osd out 2 --dry-run > dry.txt
  $ head -3 dry.txt
  dry run of 'osd out 2': nothing changed (the cluster stays at epoch 1)
  pgs whose acting set changes: 11 of 32
  object copies to move: 10 (2.9 MiB)
  $ grep -c 'osd.2: 2.9 MiB -> 0 B' dry.txt
  1

The backfill takes as long as the busiest OSD needs (osd.5 receives all
2.9 MiB; 3,000,000 B at 2 x 100 KiB/s is 14.6 s):

  $ tail -1 dry.txt
  backfill: under 1 s at 100 MiB/s per backfill, osd_max_backfills 1 (osd.5 is the busiest: 2.9 MiB in or out)
  $ crushfs --cluster c osd out 2 --dry-run --recovery-rate 100K --max-backfills 2 | tail -1
  backfill: about 15 s at 100 KiB/s per backfill, osd_max_backfills 2 (osd.5 is the busiest: 2.9 MiB in or out)
  $ crushfs --cluster c osd out 2 --dry-run --recovery-rate fast
  crushfs: osd out: --recovery-rate: 'fast' is not a size per second (e.g. 100M)
  [1]
  $ cmp c/cluster.json before.json && echo unchanged
  unchanged

The real change moves exactly that:

  $ crushfs --cluster c -f json osd out 2 --dry-run | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["object_copies_to_move"], d["bytes_to_move"], d["pgs_changed"])' > predicted
  $ cat predicted
  10 3000000 11
  $ crushfs --cluster c osd out 2
  marked out osd.2.
  $ crushfs --cluster c -f json rebalance | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["objects_moved"], d["bytes_moved"])'
  10 3000000

Adding an OSD: no folder is made, the map stays:

  $ crushfs --cluster c osd add --host host9 --size 64M --dry-run | head -2
  dry run of 'osd add --host host9 --size 64M': nothing changed (the cluster stays at epoch 3)
  pgs whose acting set changes: 21 of 32
  $ ls -d c/osd.6 2>&1 | sed 's/.*No such.*/no osd.6/'
  no osd.6
  $ crushfs --cluster c osd tree | grep -c host9
  0
  [1]

Crossing a ratio is said, with the OSD that fills first (osd.1 takes
osd.4's share of its PGs):

  $ crushfs --cluster c osd set-capacity 1 13M > /dev/null
  $ crushfs --cluster c osd reweight 4 0 --dry-run | grep -E 'osd.1:|would cross|fills first'
    osd.1: 5.1 MiB -> 11 MiB (39.6% -> 88.0%): would cross nearfull
  max avail: 14 MiB now (osd.1 fills first), 1.8 MiB after the move (osd.1 fills first)
  $ crushfs --cluster c -f json osd reweight 4 0 --dry-run | python3 -c 'import json,sys; d=json.load(sys.stdin); print([(o["osd"], o["crosses"]) for o in d["osds"] if o["crosses"]], d["fills_first_after"])'
  [(1, 'nearfull')] 1

Errors:

  $ crushfs --cluster c status --dry-run
  crushfs: status: --dry-run is not supported here (only commands that change placement take it)
  [1]
  $ crushfs --cluster c osd out 2 --dry-run
  crushfs: osd out: dry run of 'osd out 2': the command would change nothing
  [1]

A whole new crush map (`osd setcrushmap -i`, text or binary, as Ceph's):
the dry run predicts what `rebalance` then moves.

  $ crushfs --cluster sc mkfs --osd-size 64M --pg-num 32 > /dev/null
  $ for i in $(seq 1 20); do head -c 100000 /dev/zero > f; crushfs --cluster sc rados put o$i f; done
  $ sed 's/item osd.0 weight 0.001/item osd.0 weight 0.003/' sc/crushmap.txt > new.txt
  $ crushfs --cluster sc osd setcrushmap -i new.txt --dry-run | sed -n 3p
  object copies to move: 4 (391 KiB)
  $ crushfs --cluster sc osd setcrushmap -i new.txt
  set crush map
  $ crushfs --cluster sc rebalance
  rebalance: moved 4 objects (391 KiB), removed 4 old copies (391 KiB), 3 pgs changed
  $ crushfs --cluster sc osd setcrushmap -i nosuch.txt
  crushfs: osd setcrushmap: nosuch.txt: cannot read: No such file or directory
  [1]
  $ sed 's/^\tid 0$/\tid 5/' sc/crushmap.txt > norule.txt
  $ crushfs --cluster sc osd setcrushmap -i norule.txt
  crushfs: osd setcrushmap: pool 1 references crush_rule 0 but it is not present (or not replicated)
  [1]
