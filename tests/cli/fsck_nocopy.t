An object the index holds that no OSD has a file of (issue 21): a write
that never reached a copy (the disk under the cluster filled in the middle
of it), or every copy lost.  status counts it unfound as fsck does; fsck
clears the entry when no file holds it, and reports (never clears) one it
cannot tell from lost data.

  $ crushfs --cluster cl mkfs --osd-size 64M --pg-num 8 --osds 3 --hosts 3 > /dev/null
  $ echo hello > data
  $ crushfs --cluster cl rados put 10000000123.00000000 data
  $ crushfs --cluster cl rados put user_obj data
  $ find cl/osd.* \( -name 10000000123.00000000 -o -name user_obj \) -delete

status and fsck see the same two objects:

  $ crushfs --cluster cl status | grep -E 'unfound|objects:'
              2/2 objects unfound (100.000%)
      objects: 2 objects, 12 B
      pgs:     2/2 objects unfound (100.000%)
               2 active+recovery_unfound
  $ crushfs --cluster cl fsck --dry-run
  fsck of cl (dry run):
    object 10000000123.00000000: in the object index, on no OSD, and no file holds it: a write that never reached a copy
    object user_obj: no copy on any OSD: its data is lost (unfound); left for the file's owner to rewrite or remove
    cluster: osd.0: usage accounted 12 bytes in 2 objects, on disk 0 bytes in 0 objects
    cluster: osd.1: usage accounted 12 bytes in 2 objects, on disk 0 bytes in 0 objects
    cluster: osd.2: usage accounted 12 bytes in 2 objects, on disk 0 bytes in 0 objects
  checked 1 inodes, 0 entries, 2 objects
    unlinked files purged 0, dangling entries 0, link counts 0, parents 0, lost inodes 0
    orphan objects 0 (0 B), objects past EOF 0, bad replica copies 0, usage drift 3 OSD(s), stray files 0
    index entries of objects that never reached an OSD 1
    objects lost (no copy on any OSD) 1
  4 problem(s) found; run without --dry-run to repair; the check is incomplete (see above)
  [1]

The repair clears the entry no file holds; the lost one stays, unfound:

  $ crushfs --cluster cl fsck | grep cleared
    object 10000000123.00000000: in the object index, on no OSD, and no file holds it: a write that never reached a copy: entry cleared
  $ crushfs --cluster cl rados ls
  user_obj
  $ crushfs --cluster cl status | grep -E 'unfound|objects:'
              1/1 objects unfound (100.000%)
      objects: 1 objects, 6 B
      pgs:     1/1 objects unfound (100.000%)
               1 active+recovery_unfound

Removing it is the owner's choice, and then everything agrees again:

  $ crushfs --cluster cl rados rm user_obj
  $ crushfs --cluster cl status | grep -c unfound
  0
  [1]
  $ crushfs --cluster cl fsck --dry-run | tail -n 1
  clean
