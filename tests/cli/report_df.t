The report's pool rows are `df`'s: STORED, USED, %USED and MAX AVAIL come
from mgr's df rows of the page's one snapshot, so the page and
`df -f json` agree for a replicated pool, an erasure pool, a size-2 pool
and an imported cluster (whose prefilled use is RAW USED, no pool's
STORED).  report_df.py compares the rows' data- attributes.

  $ crushfs --cluster c mkfs --osds 6 --hosts 3 --pg-num 16 --osd-size 256M > /dev/null
  $ crushfs --cluster c osd erasure-code-profile set p21 k=2 m=1 crush-failure-domain=host
  $ crushfs --cluster c osd pool create ecp 8 8 erasure p21
  pool 'ecp' created
  $ crushfs --cluster c osd pool create two 8
  pool 'two' created
  $ crushfs --cluster c osd pool set two size 2
  set pool 3 size to 2
  $ python3 -c 'import sys; sys.stdout.buffer.write(bytes(range(256)) * 11719)' > f
  $ for p in crushfs_data ecp two; do crushfs --cluster c rados -p $p put o1 f; done
  $ crushfs --cluster c report -o page.html
  report written to page.html (* bytes) (glob)
  $ crushfs --cluster c -f json df > df.json
  $ python3 "$TESTDIR/report_df.py" page.html df.json
  crushfs_data same
  ecp same
  two same
  3 pool rows, 3 pools in df

The imported cluster: `df` says rbd stores 0 B (crushfs counts its own
objects), and so does the page.

  $ cp -r "$TESTDIR/../ceph/fixtures/import1" snap
  $ crushfs --cluster i mkfs --from-ceph snap --prefill > /dev/null 2>&1
  $ crushfs --cluster i report -o ipage.html 2> /dev/null
  $ crushfs --cluster i -f json df > idf.json
  $ python3 "$TESTDIR/report_df.py" ipage.html idf.json
  device_health_metrics same
  rbd same
  fast same
  ecpool same
  4 pool rows, 4 pools in df
  $ grep -o 'data-pool="rbd" data-pool-id="2" data-stored="[0-9]*"' ipage.html
  data-pool="rbd" data-pool-id="2" data-stored="0"
