The filesystem commands without a mount: argument errors, a cluster that
is not there, a filesystem just made (mkfs makes its metadata store), a
clean fsck.  (Mounting itself
is covered by tests/integ/mount_*.sh, which need /dev/fuse.)

  $ crushfs --cluster cl mkfs --osd-size 64M --pg-num 16 > /dev/null
  $ ls cl | grep mds
  mds
  mds.created
  $ crushfs --cluster cl locate /x
  crushfs: locate: /x: No such file or directory (the cluster is not mounted: give the path from the filesystem's root)
  [1]
  $ crushfs --cluster cl locate
  usage: crushfs [--cluster DIR] locate PATH
  [1]
  $ crushfs --cluster cl fsck
  fsck of cl:
  checked 1 inodes, 0 entries, 0 objects
    unlinked files purged 0, dangling entries 0, link counts 0, parents 0, lost inodes 0
    orphan objects 0 (0 B), objects past EOF 0, bad replica copies 0, usage drift 0 OSD(s), stray files 0
  clean
  $ crushfs --cluster cl fsck --bogus
  crushfs: fsck: unknown argument '--bogus'
  [1]
  $ crushfs umount /nonexistent
  crushfs: umount: /nonexistent: not a crushfs mount
  [1]
  $ crushfs umount
  usage: crushfs [--cluster DIR] umount [--timeout S] MNT
  [1]
  $ crushfs umount --timeout abc m
  crushfs: umount: --timeout: 'abc' is not a number of seconds
  [1]
  $ crushfs umount --timeout -1 m
  crushfs: umount: --timeout: '-1' is not a number of seconds
  [1]
  $ crushfs umount --timeout
  crushfs: umount: --timeout: missing value
  [1]
  $ crushfs umount --bogus m
  crushfs: umount: unknown option '--bogus'
  [1]
  $ crushfs umount --timeout 1 /nonexistent
  crushfs: umount: /nonexistent: not a crushfs mount
  [1]

Mount errors are one line and exit 1, before anything is created:

  $ mkdir m; touch f
  $ crushfs --cluster nope mount m -f
  crushfs: cluster nope: No such file or directory
  [1]
  $ crushfs --cluster cl mount f -f
  crushfs: mount point f: Not a directory
  [1]
  $ crushfs --cluster cl mount nodir -f
  crushfs: mount point nodir: No such file or directory
  [1]
  $ crushfs --cluster cl mount m -f -o attr_timeout=x
  crushfs: bad mount option 'attr_timeout=x': must be a number of seconds, 0 or more
  [1]
  $ crushfs --cluster cl mount m -f -o noatime,entry_timeout=-1
  crushfs: bad mount option 'entry_timeout=-1': must be a number of seconds, 0 or more
  [1]
  $ crushfs --cluster cl mount m -f -o negative_timeout=nan
  crushfs: bad mount option 'negative_timeout=nan': must be a number of seconds, 0 or more
  [1]
  $ crushfs --cluster cl mount m -f -o max_threads=0
  crushfs: bad mount option 'max_threads=0': must be an integer from 1 to 1024
  [1]
  $ crushfs --cluster cl mount m -f -o max_threads=8x
  crushfs: bad mount option 'max_threads=8x': must be an integer from 1 to 1024
  [1]
  $ crushfs --cluster cl mount m -f -o readahead_kb=99999999999999999999
  crushfs: bad mount option 'readahead_kb=99999999999999999999': must be an integer from 0 to 1048576
  [1]
  $ crushfs --cluster cl mount m -f -o prefetch_kb=65537
  crushfs: bad mount option 'prefetch_kb=65537': must be an integer from 0 to 65536
  [1]
  $ crushfs --cluster cl mount m -f -o prefetch_kb=-1
  crushfs: bad mount option 'prefetch_kb=-1': must be an integer from 0 to 65536
  [1]
  $ crushfs --cluster cl mount m -f -o bogus
  crushfs: bad mount options: fuse: unknown option(s): `-o bogus'
  [1]
  $ crushfs --cluster cl mount m -q
  crushfs: mount: unknown option '-q'
  [1]
  $ crushfs --cluster cl mount
  usage: crushfs [--cluster DIR] mount MNT [-f] [-d] [-o OPTS]
  [1]
  $ ls cl | grep mds
  mds
  mds.created
