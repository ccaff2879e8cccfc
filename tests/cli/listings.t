Ceph's listing commands: pg ls (by state, OSD, primary, pool), osd ls,
osd find.

  $ crushfs --cluster c mkfs --osds 6 --hosts 3 --pg-num 16 > /dev/null
  $ echo data > f
  $ for i in 1 2 3 4 5 6 7 8; do crushfs --cluster c rados put o$i f; done

Every PG once; by OSD: exactly the PGs whose up or acting set holds it,
the same the JSON dump says:

  $ crushfs --cluster c pg ls | head -1
  PG   OBJECTS  DEGRADED  MISPLACED  UNFOUND  BYTES  STATE         UP         ACTING
  $ crushfs --cluster c pg ls | tail -n +2 | wc -l
  16
  $ crushfs --cluster c pg ls-by-osd 2 | tail -n +2 | awk '{print $1}' > by2
  $ crushfs --cluster c -f json pg dump | python3 -c '
  > import json,sys
  > for p in json.load(sys.stdin)["pg_map"]["pg_stats"]:
  >     if 2 in p["up"] or 2 in p["acting"]: print(p["pgid"])' > want2
  $ cmp by2 want2 && test -s by2 && echo same
  same
  $ crushfs --cluster c pg ls-by-osd osd.2 | tail -n +2 | awk '{print $1}' | cmp - by2 && echo osd.N-too
  osd.N-too
  $ crushfs --cluster c pg ls-by-primary 2 | tail -n +2 | awk '$9 !~ /p2$/' | wc -l
  0
  $ crushfs --cluster c pg ls-by-pool crushfs_data | tail -n +2 | wc -l
  16
  $ crushfs --cluster c -f json pg ls-by-osd 0 | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["pg_ready"], all(0 in p["up"] or 0 in p["acting"] for p in d["pg_stats"]))'
  True True

By state: a PG of an out OSD's is remapped until rebalance:

  $ crushfs --cluster c pg ls remapped | tail -n +2 | wc -l
  0
  $ crushfs --cluster c osd out 2 > /dev/null
  $ test "$(crushfs --cluster c pg ls remapped | tail -n +2 | wc -l)" -gt 0 && echo some-remapped
  some-remapped
  $ crushfs --cluster c pg ls clean remapped | tail -n +2 | wc -l
  16

Errors:

  $ crushfs --cluster c pg ls bogus
  crushfs: pg ls: unknown state 'bogus'
  [1]
  $ crushfs --cluster c pg ls-by-osd 99
  crushfs: pg ls-by-osd: osd.99 does not exist
  [1]
  $ crushfs --cluster c pg ls-by-osd
  crushfs: pg ls-by-osd: missing argument (usage: crushfs pg ls-by-osd OSD [STATE...])
  [1]
  $ crushfs --cluster c pg ls-by-pool rbd
  crushfs: pg ls-by-pool: pool 'rbd' does not exist
  [1]

osd ls, osd find:

  $ crushfs --cluster c osd ls | tr '\n' ' '
  0 1 2 3 4 5  (no-eol)
  $ crushfs --cluster c -f json osd ls
  [0,1,2,3,4,5]
  $ crushfs --cluster c osd find 4 | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["osd"], d["host"], d["crush_location"], d["path"].endswith("/c/osd.4"))'
  4 host1 {'host': 'host1', 'root': 'default'} True
  $ crushfs --cluster c osd find osd.9
  crushfs: osd find: osd.9 does not exist
  [1]

The HTML report (one self-contained page; tests/integ/report_browser.sh
renders it in Chromium):

  $ crushfs --cluster rep mkfs --osd-size 64M --pg-num 16 > /dev/null
  $ crushfs --cluster rep report -o rep.html
  report written to rep.html (* bytes) (glob)
  $ grep -c 'class="osd" data-osd=' rep.html
  12
  $ crushfs --cluster rep report | head -1
  <!DOCTYPE html>
  $ crushfs --cluster rep report -o nosuchdir/rep.html
  crushfs: report: nosuchdir/rep.html: No such file or directory
  [1]
  $ crushfs --cluster rep report --html
  crushfs: report: unexpected argument '--html' (usage: crushfs report [-o FILE.html] [--osd N | --what-if 'CMD' [--recovery-rate SIZE] [--max-backfills N]])
  [1]

The what-if page of a placement change (tests/integ/report_browser.sh
checks it in a browser); nothing changes:

  $ crushfs --cluster rep report --what-if 'osd out 3' -o wi.html
  report written to wi.html (* bytes) (glob)
  $ grep -o 'data-command="osd out 3"' wi.html
  data-command="osd out 3"
  $ crushfs --cluster rep osd tree | grep -c ' osd.3 .* up   1.00000'
  1
  $ crushfs --cluster rep report --what-if 'status'
  crushfs: report: --what-if: 'status' is not a command that changes placement (e.g. 'osd out 3', 'osd reweight 3 0.5', 'osd crush reweight osd.3 0')
  [1]
  $ crushfs --cluster rep report --what-if 'osd out 99'
  crushfs: report --what-if: osd.99 does not exist
  [1]
  $ crushfs --cluster rep report --what-if 'osd out 3' --recovery-rate 0
  crushfs: report: --recovery-rate: '0' is not a size per second (e.g. 100M)
  [1]
  $ crushfs --cluster rep report --what-if 'osd out 3' --osd 3
  crushfs: report: --what-if and --osd make different pages: give one
  [1]

`osd dump` as Ceph prints it (upmap entries: upmap.t):

  $ crushfs --cluster rep osd dump | sed -n '1p;5,9p;14p'
  epoch * (glob)
  flags sortbitwise,recovery_deletes,purged_snapdirs,pglog_hardlimit
  crush_version * (glob)
  full_ratio 0.95
  backfillfull_ratio 0.9
  nearfull_ratio 0.85
  pool 1 'crushfs_data' replicated size 3 min_size 2 crush_rule 0 object_hash rjenkins pg_num 16 pgp_num 16 autoscale_mode off last_change * flags hashpspool stripe_width 0 application cephfs (glob)
  $ crushfs --cluster rep osd dump | grep -c '^osd\.[0-9]* up   in  weight 1 '
  12
  $ crushfs --cluster rep osd dump -f json | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["max_osd"], len(d["osds"]), d["pools"][0]["pg_num"])'
  12 12 16

`analyze`: each OSD's PGs and bytes against its weight, and what fills
first (tests/integ/cluster_analyze.sh checks the prediction against a
write to ENOSPC):

  $ crushfs --cluster rep analyze | head -3
  pool 'crushfs_data' (1): 16 PGs x 3 copies on 12 OSDs, 0 B stored (raw 0 B)
  
  OSD      WEIGHT      PGS      EXP OVER/UNDER      BYTES      EXP    OVER
  $ crushfs --cluster rep analyze | tail -2 | sed 's/osd\.[0-9]*/osd.N/'
    as the crush weights predict: * / *; osd.N fills first (MAX AVAIL *) (glob)
    as the PGs are spread:        * / *; osd.N fills first (glob)
  $ crushfs --cluster rep analyze --pool nosuch
  crushfs: analyze: pool 'nosuch' does not exist
  [1]
