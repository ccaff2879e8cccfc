`osd ok-to-stop` and `osd safe-to-destroy`, with Ceph 16.2's answers and
exit statuses (0; EBUSY 16: not safe; EAGAIN 11: cannot tell).

  $ crushfs --cluster s mkfs --osds 6 --hosts 3 --osd-size 64M --pg-num 16 > /dev/null
  $ for i in 1 2 3 4; do head -c 20000 /dev/zero | tr '\0' "$i" > f$i; crushfs --cluster s rados put obj$i f$i; done
  $ crushfs --cluster s pg ls-by-osd 1 | awk 'NR > 1 { print $1, $8 }'
  1.0 [1,0,2]p1
  1.4 [3,5,1]p3
  1.8 [5,3,1]p5
  1.b [0,1,2]p0

One OSD: every PG keeps min_size (2 of 3) without it.

  $ crushfs --cluster s osd ok-to-stop 1
  OSD(s) 1 are ok to stop without reducing availability or risking data, provided there are no other concurrent failures or interventions.
  4 PGs are likely to be degraded (but remain available) as a result.
  $ crushfs --cluster s -f json osd ok-to-stop osd.1
  {"ok_to_stop":true,"osds":[1],"num_ok_pgs":4,"num_not_ok_pgs":0,"ok_become_degraded":["1.0","1.4","1.8","1.b"]}

Two OSDs of 1.0 and 1.b: those two would go offline.

  $ crushfs --cluster s osd ok-to-stop 1 0
  crushfs: osd ok-to-stop: unsafe to stop osd(s) at this time (2 PGs are or would become offline)
  [16]
  $ crushfs --cluster s -f json osd ok-to-stop 0 1 | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["ok_to_stop"], d["osds"], d["num_not_ok_pgs"], d["bad_become_inactive"])'
  crushfs: osd ok-to-stop: unsafe to stop osd(s) at this time (2 PGs are or would become offline)
  False [0, 1] 2 ['1.0', '1.b']

A PG already degraded counts only its OSDs that miss nothing: with osd.0
down and obj1 written meanwhile, 1.0 and 1.b have one OSD left after 1.

  $ crushfs --cluster s osd down 0
  marked down osd.0.
  $ crushfs --cluster s rados put obj1 f2
  $ crushfs --cluster s osd ok-to-stop 1
  crushfs: osd ok-to-stop: unsafe to stop osd(s) at this time (2 PGs are or would become offline)
  [16]
  $ crushfs --cluster s osd up 0 > /dev/null
  $ crushfs --cluster s rebalance > /dev/null

safe-to-destroy: not while PGs map to the OSD, nor while it may hold data
needed; an OSD that does not exist is safe.

  $ crushfs --cluster s osd safe-to-destroy 1
  crushfs: osd safe-to-destroy: OSD(s) 1 have 4 pgs currently mapped to them.
  [16]
  $ crushfs --cluster s osd safe-to-destroy 9
  OSD(s) 9 are safe to destroy without reducing data durability.
  $ crushfs --cluster s osd out 1
  marked out osd.1.
  $ crushfs --cluster s osd safe-to-destroy 1
  crushfs: osd safe-to-destroy: OSD(s) 1 have 2 pgs currently mapped to them.
  [16]
  $ crushfs --cluster s rebalance > /dev/null
  $ crushfs --cluster s osd safe-to-destroy 1 9
  OSD(s) 1,9 are safe to destroy without reducing data durability.
  $ crushfs --cluster s osd down 1 > /dev/null
  $ crushfs --cluster s osd out 2 > /dev/null
  $ crushfs --cluster s osd safe-to-destroy 1 2 9
  crushfs: osd safe-to-destroy: OSD(s) 9 are safe to destroy without reducing data durability. OSD(s) 2 have * pgs currently mapped to them. OSD(s) 1 have no reported stats, and not all PGs are active+clean; we cannot draw any conclusions. (glob)
  [16]
  $ crushfs --cluster s osd safe-to-destroy 1
  crushfs: osd safe-to-destroy: OSD(s) 1 have no reported stats, and not all PGs are active+clean; we cannot draw any conclusions.
  [11]
  $ crushfs --cluster s -f json osd safe-to-destroy 1 2 9
  {"safe_to_destroy":[9],"active":[2],"missing_stats":[1],"stored_pgs":[]}

Bad input: one line.

  $ crushfs --cluster s osd ok-to-stop
  crushfs: osd ok-to-stop: must specify one or more OSDs
  [1]
  $ crushfs --cluster s osd safe-to-destroy osd.x
  crushfs: osd safe-to-destroy: invalid osd id 'osd.x'
  [1]
