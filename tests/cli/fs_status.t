`fs status` as Ceph 16.2's mgr status module prints it: the filesystem
and its clients, the MDS ranks (none while the cluster is not mounted;
tests/integ/mount_locate.sh shows the mounted daemon's active rank), the
data pools with their raw use and MAX AVAIL (the numbers `df` gives, in
mgr_util.format_bytes's five characters), the standbys and the versions.

  $ crushfs --cluster c mkfs --osds 4 --hosts 4 --pg-num 8 --osd-size 256M > /dev/null
  $ head -c 3000000 /dev/zero > obj
  $ crushfs --cluster c rados put o1 obj
  $ crushfs --cluster c osd pool create p2 8 > /dev/null 2>&1
  $ crushfs --cluster c fs add_data_pool crushfs p2
  added data pool 2 to fsmap
  $ crushfs --cluster c fs status | sed 's/ *$/$/'
  crushfs - 0 clients$
  =======$
  RANK  STATE  MDS  ACTIVITY  DNS  INOS  DIRS  CAPS$
      POOL      TYPE   USED  AVAIL$
  crushfs_data  data  8789k   320M$
       p2       data     0    320M$
  $
  STANDBY MDS$
  VERSION  DAEMONS$

The same numbers as df (USED 8.6 MiB = 9,000,000 bytes, MAX AVAIL 320
MiB), in JSON as the module sorts it:

  $ crushfs --cluster c df | grep -E '^(crushfs_data|p2) '
  crushfs_data   1    8  2.9 MiB        1  8.6 MiB   0.88    320 MiB
  p2             2    8      0 B        0      0 B   0.00    320 MiB
  $ crushfs --cluster c -f json fs status
  {"clients": [{"clients": 0, "fs": "crushfs"}], "mds_version": [], "mdsmap": [], "pools": [{"avail": 336017813, "id": 1, "name": "crushfs_data", "type": "data", "used": 9000000}, {"avail": 336017813, "id": 2, "name": "p2", "type": "data", "used": 0}]}
  $ crushfs --cluster c fs status crushfs | head -1
  crushfs - 0 clients
  $ crushfs --cluster c fs status cephfs
  crushfs: fs status: Invalid filesystem: cephfs
  [1]
