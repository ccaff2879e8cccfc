Metadata that cannot silently vanish (issue 8): fsck and the mount refuse
a metadata store that is missing, unreadable or empty, and point at the
rebuild; the rebuild makes the tree again from the objects; fsck never
deletes objects it cannot account for, it adopts them in /lost+found;
what could not be checked is never "clean".

mkfs makes the metadata store and the marker that a filesystem lives here:

  $ crushfs --cluster cl mkfs --osd-size 64M --pg-num 16 --osds 6 --hosts 3 > /dev/null
  $ ls cl | grep mds
  mds
  mds.created
  $ grep -c '^seq ' cl/mds.created
  1

Objects of a file the metadata does not know (written with rados: no
backtrace), then the store gone: fsck (with or without --dry-run) and the
mount refuse, change nothing, and name the way back:

  $ head -c 5000 /dev/zero | tr '\0' x > data
  $ crushfs --cluster cl rados put 10000000123.00000000 data
  $ crushfs --cluster cl rados put 10000000123.00000001 data
  $ mv cl/mds mds.saved
  $ crushfs --cluster cl fsck
  fsck of cl:
  crushfs: fsck: cl/mds: metadata store missing, but the cluster holds a filesystem (2 objects of files); nothing checked: rebuild it from the objects with 'crushfs --cluster cl fsck --rebuild-metadata'
  [1]
  $ crushfs --cluster cl fsck --dry-run
  fsck of cl (dry run):
  crushfs: fsck: cl/mds: metadata store missing, but the cluster holds a filesystem (2 objects of files); nothing checked: rebuild it from the objects with 'crushfs --cluster cl fsck --rebuild-metadata'
  [1]
  $ mkdir m
  $ crushfs --cluster cl mount m -f
  crushfs: */cl/mds: metadata store missing, but the cluster holds a filesystem (2 objects of files); refusing to mount: rebuild it from the objects with 'crushfs --cluster */cl fsck --rebuild-metadata' (glob)
  [1]
  $ ls cl | grep mds
  mds.created
  $ crushfs --cluster cl rados ls
  10000000123.00000000
  10000000123.00000001

Unreadable stores: not a RocksDB store, a damaged MANIFEST, a log that is
all garbage (the store then looks empty):

  $ cp -a mds.saved cl/mds && rm cl/mds/CURRENT
  $ crushfs --cluster cl fsck -n
  fsck of cl (dry run):
  crushfs: fsck: cl/mds: metadata store unreadable (not a RocksDB store); nothing checked: rebuild it from the objects with 'crushfs --cluster cl fsck --rebuild-metadata'
  [1]
  $ rm -rf cl/mds && cp -a mds.saved cl/mds
  $ for f in cl/mds/MANIFEST-*; do printf 'garbage%.0s' $(seq 600) | dd of=$f conv=notrunc status=none; done
  $ crushfs --cluster cl fsck -n 2>&1 | sed 's/MANIFEST-[0-9]*/MANIFEST-N/'
  fsck of cl (dry run):
  crushfs: fsck: cl/mds: metadata store unreadable (Corruption: no log_file_number, next_file_number, last_sequence entry in MANIFEST in file cl/mds/MANIFEST-N); nothing checked: rebuild it from the objects with 'crushfs --cluster cl fsck --rebuild-metadata'
  $ crushfs --cluster cl2 mkfs --osd-size 64M --pg-num 16 --osds 6 --hosts 3 > /dev/null
  $ for f in cl2/mds/*.log; do printf 'garbage%.0s' $(seq 600) | dd of=$f conv=notrunc status=none; done
  $ crushfs --cluster cl2 fsck
  fsck of cl2:
  crushfs: fsck: cl2/mds: metadata store empty (its log lost?), but the cluster holds a filesystem (mds.created); nothing checked: rebuild it from the objects with 'crushfs --cluster cl2 fsck --rebuild-metadata'
  [1]

The rebuild moves a damaged store aside (never deletes it) and makes the
filesystem again from the objects; an inode without a backtrace goes to
/lost+found, named by its number, with the size its objects say; new
numbers start above it; fsck finds the result clean:

  $ crushfs --cluster cl fsck --rebuild-metadata 2>&1 | sed 's/damaged-[0-9-]*/damaged-T/'
  rebuild: listing the objects of cl
  rebuild: scanned 2 objects, 2 of files
  rebuild: 1 inodes in the objects, 0 with a backtrace: placing them
  rebuild: the old store is kept as cl/mds.damaged-T
  rebuild: wrote 2 backtraces where the tree differs from them
  metadata of cl rebuilt from 2 objects (2 of files):
    2 directories, 1 files, 0 others, 2 entries
    1 inode(s) without a backtrace, 0 directories known only from their contents, 0 stale name(s), 0 cycle(s)
    1 entry in /lost+found, named by inode number
    the old metadata store is kept as cl/mds.damaged-T
    new inode numbers start at 10000000125
  done; `crushfs fsck` checks the result
  $ ls cl | grep -c 'mds.damaged-'
  1
  $ crushfs --cluster cl locate '/lost+found/#10000000123' | head -1
  /lost+found/#10000000123: inode 10000000123, 4199304 bytes, 2 objects (stripe_unit=4194304 stripe_count=1 object_size=4194304 pool=1)
  $ crushfs --cluster cl fsck | tail -1
  clean
  $ crushfs --cluster cl fsck --rebuild-metadata
  crushfs: fsck: cl/mds: the metadata store is readable: nothing to rebuild (fsck checks it; --force rebuilds it anyway, keeping it aside)
  [1]
  $ crushfs --cluster cl fsck --rebuild-metadata --dry-run
  crushfs: fsck: --rebuild-metadata takes no --dry-run or --deep (run fsck afterwards)
  [1]
  $ crushfs --cluster cl fsck --force
  crushfs: fsck: --force goes with --rebuild-metadata
  [1]

Objects of no inode found by fsck are adopted, not deleted; a missing
backtrace is rewritten:

  $ crushfs --cluster cl rados put 10000000999.00000000 data
  $ crushfs --cluster cl fsck --dry-run
  fsck of cl (dry run):
    1 object(s) of inode 10000000999 (5000 bytes): no such inode (no backtrace): would go to /lost+found/#10000000999
  checked 3 inodes, 2 entries, 4 objects
    unlinked files purged 0, dangling entries 0, link counts 0, parents 0, lost inodes 0
    orphan objects 1 (4.9 KiB), objects past EOF 0, bad replica copies 0, usage drift 0 OSD(s), stray files 0
  1 problem(s) found; run without --dry-run to repair
  [1]
  $ crushfs --cluster cl fsck
  fsck of cl:
    1 object(s) of inode 10000000999 (5000 bytes): no such inode (no backtrace): moved to /lost+found/#10000000999
  checked 3 inodes, 2 entries, 4 objects
    unlinked files purged 0, dangling entries 0, link counts 0, parents 0, lost inodes 0
    orphan objects 1 (4.9 KiB), objects past EOF 0, bad replica copies 0, usage drift 0 OSD(s), stray files 0
    1 inode(s) remade in /lost+found from objects no inode owned
  1 problem(s) found, 1 repair(s) made
  $ crushfs --cluster cl rados ls | grep -c 10000000999
  1
  $ crushfs --cluster cl fsck | tail -1
  clean
  $ crushfs --cluster cl rados rm 10000000123.00000000
  $ crushfs --cluster cl fsck | grep backtrace
    inode 10000000123 (file): backtrace missing: rewritten
    backtraces missing, damaged or stale 1 (of 3)
  $ crushfs --cluster cl fsck | tail -1
  clean

A rule that places nothing (every OSD out): nothing can be checked, and
fsck says so instead of "clean"; the rebuild refuses to leave files out:

  $ for i in 0 1 2 3 4 5; do crushfs --cluster cl osd out $i > /dev/null; done
  $ crushfs --cluster cl fsck 2>&1 | grep -v '^  pg '
  fsck of cl:
  checked 4 inodes, 3 entries, 4 objects
    unlinked files purged 0, dangling entries 0, link counts 0, parents 0, lost inodes 0
    orphan objects 0 (0 B), objects past EOF 0, bad replica copies 0, usage drift 0 OSD(s), stray files 0
    NOT CHECKED: 4 object(s) in 4 PG(s) with fewer OSDs than min_size, 3 backtrace(s)
  0 problem(s) found, 0 repair(s) made; the check is incomplete (see above)
  $ crushfs --cluster cl fsck > /dev/null
  [1]
  $ crushfs --cluster cl fsck | grep -c 'cannot be checked'
  4
  $ crushfs --cluster cl fsck --dry-run | tail -1
  0 problem(s) found; the check is incomplete (see above)
  $ crushfs --cluster cl fsck --dry-run > /dev/null
  [1]
  $ rm -rf cl/mds
  $ crushfs --cluster cl fsck --rebuild-metadata 2>&1 | grep -v '^rebuild: pg '
  rebuild: listing the objects of cl
  rebuild: scanned 4 objects, 4 of files
  crushfs: fsck: 4 object(s) of files cannot be read (see above): nothing changed; bring their OSDs back first (or --force: rebuild without them)

A cluster made before mkfs made the store, never mounted, no files:
nothing is lost, fsck checks the objects only:

  $ crushfs --cluster old mkfs --osd-size 64M --pg-num 16 --osds 6 --hosts 3 > /dev/null
  $ rm -rf old/mds old/mds.created
  $ crushfs --cluster old fsck | head -2
  fsck of old:
    no filesystem metadata yet (never mounted): checking the objects and the cluster only
  $ crushfs --cluster old locate /x
  crushfs: locate: old/mds: No such file or directory (the filesystem was never mounted)
  [1]
