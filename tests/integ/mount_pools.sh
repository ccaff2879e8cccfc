#!/usr/bin/env bash
# The filesystem on several pools (issue 10 item 2): `fs add_data_pool`
# while mounted, a directory's ceph.dir.layout.pool choosing it, files'
# data objects placed in that pool's PGs (its own size and pg_num) while
# their backtraces stay in the default data pool, as CephFS keeps them;
# df, locate, rados -p and pg ls per pool; an `osd out` remaps the second
# pool's PGs too (pg_temp, backfill, rebalance), and a split of it while
# mounted moves its objects; a remount, check --deep
# and fsck agree; the metadata rebuilt from the objects finds the file in
# its pool; rm frees the pool, and only then may it leave the filesystem.
. "$(dirname "$0")/lib/mount_common.sh"

CL=$T/cluster
M=$T/mnt
C() { "$CRUSHFS" --cluster "$CL" "$@"; }
gx() { getfattr --only-values -n "$1" "$2" 2>"$T/gx.err"; }
mkcluster "$CL" --osds 6 --hosts 3 --osd-size 256M --pg-num 32 --object-size 1M
C osd pool create fast 16 >/dev/null || fail "osd pool create"
C osd pool set fast size 2 >/dev/null || fail "size 2"
mount_fg "$CL" "$M"

mkdir -p "$M/hot" "$M/cold"
setfattr -n ceph.dir.layout.pool -v fast "$M/hot" 2>"$T/e" && fail "a pool not added to the filesystem accepted"
grep -q 'Invalid argument' "$T/e" || fail "$(cat "$T/e")"
C fs add_data_pool crushfs fast 2>"$T/add" || fail "fs add_data_pool: $(cat "$T/add")"
grep -q "added data pool 2" "$T/add" || fail "$(cat "$T/add")"
C fs ls | grep -q 'data pools: \[crushfs_data fast \]' || fail "fs ls: $(C fs ls)"
C osd pool ls detail | grep "^pool 2 'fast'" | grep -q "application cephfs" ||
	fail "not tagged cephfs: $(C osd pool ls detail | grep fast)"
setfattr -n ceph.dir.layout.pool -v fast "$M/hot" || fail "dir layout pool"
[ "$(gx ceph.dir.layout.pool "$M/hot")" = fast ] || fail "dir pool: $(gx ceph.dir.layout.pool "$M/hot")"
ok "fs add_data_pool while mounted; a directory's layout names the pool"

head -c $((5 * 1024 * 1024 + 777)) /dev/urandom >"$T/a"
head -c $((3 * 1024 * 1024)) /dev/urandom >"$T/b"
cp "$T/a" "$M/hot/a"
cp "$T/b" "$M/cold/b"
# fsync each: its backtrace is written now, not by the 2-second flusher
sync "$M/hot/a" "$M/cold/b"
[ "$(gx ceph.file.layout.pool "$M/hot/a")" = fast ] || fail "file pool: $(gx ceph.file.layout.pool "$M/hot/a")"
[ "$(gx ceph.file.layout.pool "$M/cold/b")" = crushfs_data ] || fail "cold file pool"
C locate "$M/hot/a" -f json | py '
import json, sys
d = json.load(sys.stdin)
objs = [o for o in d["objects"] if o["exists"]]
if len(objs) != 6:
    sys.exit("%d objects, want 6" % len(objs))
for o in objs:
    if not o["pgid"].startswith("2."):
        sys.exit("%s in pg %s, not pool 2" % (o["name"], o["pgid"]))
    if len(o["acting"]) != 2:
        sys.exit("%s: acting %s, pool size is 2" % (o["name"], o["acting"]))
    held = [c for c in o["copies"] if c["exists"]]
    if len(held) != 2:
        sys.exit("%s: %d copies on disk" % (o["name"], len(held)))' || fail "locate in pool fast"
ino=$(printf '%x' "$(stat -c %i "$M/hot/a")")
C rados -p fast ls | sort >"$T/fast.ls"
[ "$(grep -c "^$ino\." "$T/fast.ls")" = 6 ] || fail "rados -p fast ls: $(cat "$T/fast.ls")"
C rados -p crushfs_data ls | grep -qx "$ino.00000000" || fail "no backtrace object in the default pool"
C rados -p crushfs_data ls | grep -q "^$ino\.00000001" && fail "data of a fast file in the default pool"
C rados -p fast stat "$ino.00000005" | grep -q "size 777" || fail "rados stat: $(C rados -p fast stat "$ino.00000005")"
ok "the file's 6 objects are in pool 2 (2 copies each), its backtrace in the default pool"

C df -f json | py '
import json, sys
d = {p["name"]: p["stats"] for p in json.load(sys.stdin)["pools"]}
f, c = d["fast"], d["crushfs_data"]
if f["objects"] != 6 or f["stored"] != 5 * 1048576 + 777:
    sys.exit("fast: %s" % f)
if f["bytes_used"] != 2 * f["stored"]:
    sys.exit("fast used %d, want 2 x stored" % f["bytes_used"])
if c["stored"] < 3 * 1048576:
    sys.exit("crushfs_data: %s" % c)' || fail "df per pool"
C pg ls-by-pool fast | awk 'NR > 1 && $2 > 0' | wc -l >"$T/n"
[ "$(cat "$T/n")" -ge 1 ] || fail "pg ls-by-pool fast: no objects"
ok "df: fast holds 6 objects, 5 MiB + 777 stored, 2x raw; pg ls shows them"

# a split of pool 2 while mounted: its objects move to the child PGs
C osd pool set fast pg_num 32 >"$T/split" 2>&1 || fail "split of pool 2: $(cat "$T/split")"
cmp "$T/a" "$M/hot/a" || fail "read after the split"
C locate "$M/hot/a" -f json | py '
import json, sys
seeds = {int(o["pgid"].split(".")[1], 16) for o in json.load(sys.stdin)["objects"] if o["exists"]}
if max(seeds) < 16:
    sys.exit("no object in a child PG: %s" % sorted(seeds))' || fail "locate after the split"
C check >"$T/ck" 2>&1 || fail "check after the split: $(cat "$T/ck")"
ok "pool 2 split to pg_num 32 while mounted: objects in child PGs, bytes intact"

# an OSD of the fast file's PGs goes out: its PGs remap (pg_temp) and
# rebalance moves them, the second pool like the first
osd=$(C locate "$M/hot/a" -f json | py '
import json, sys
print(json.load(sys.stdin)["objects"][0]["acting"][0])')
C osd out "$osd" >/dev/null || fail "osd out"
C osd dump | grep -q '^pg_temp 2\.' || fail "no pg_temp for pool 2: $(C osd dump | grep pg_temp)"
C pg ls-by-pool fast remapped | grep -q '^2\.' || fail "no remapped PG in pool 2"
cmp "$T/a" "$M/hot/a" || fail "read while remapped"
C rebalance >"$T/rb" || fail "rebalance: $(cat "$T/rb")"
C osd dump | grep -q '^pg_temp' && fail "pg_temp left: $(C osd dump | grep pg_temp)"
C locate "$M/hot/a" -f json | py '
import json, sys, os
osd = int(sys.argv[1])
for o in json.load(sys.stdin)["objects"]:
    if osd in o["acting"]:
        sys.exit("%s still on osd.%d" % (o["name"], osd))
    for c in o["copies"]:
        if c["osd"] == osd and c["exists"]:
            sys.exit("%s: copy left on osd.%d" % (o["name"], osd))' "$osd" || fail "after rebalance"
cmp "$T/a" "$M/hot/a" || fail "read after rebalance"
ok "osd.$osd out: pool 2 remapped (pg_temp), rebalanced off it, bytes intact"

"$CRUSHFS" umount "$M" >/dev/null || fail "umount"
C check --deep >"$T/ck" 2>&1 || fail "check --deep: $(cat "$T/ck")"
C fsck >"$T/fsck" 2>&1 || fail "fsck: $(cat "$T/fsck")"
mount_fg "$CL" "$M"
cmp "$T/a" "$M/hot/a" || fail "hot/a differs after remount"
cmp "$T/b" "$M/cold/b" || fail "cold/b differs after remount"
ok "remounted: both files read back; check --deep and fsck are clean"

# kill -9 in the middle of a copy into pool 2: the next mount settles
# what was in flight there (intents per pool); the fsync'ed file is whole
head -c 60M /dev/urandom >"$T/big"
dd if="$T/big" of="$M/hot/big" bs=1M status=none 2>/dev/null &
DD=$!
# the kill comes in the middle of the copy: 12 MiB in
wait_for -i 0.05 "the copy to pass 12 MiB" 60 size_over "$M/hot/big" $((12 << 20))
kill -9 "$MPID"
reap "$MPID" "the daemon killed with -9" 137
# dd fails on the lost mount (1); 0 only if it was already done
reap "$DD" "the dd cut short" 0 1
fusermount3 -u -z "$M"
mount_fg "$CL" "$M"
cmp "$T/a" "$M/hot/a" || fail "fsync'ed hot/a after kill -9"
sz=$(stat -c %s "$M/hot/big")
cmp -n "$sz" "$T/big" "$M/hot/big" || fail "the cut-short copy is not a prefix of the source"
rm "$M/hot/big"
"$CRUSHFS" umount "$M" >/dev/null || fail "umount"
C check --deep >"$T/ck" 2>&1 || fail "check --deep after kill -9: $(cat "$T/ck")"
C fsck >"$T/fsck" 2>&1 || fail "fsck after kill -9: $(cat "$T/fsck")"
mount_fg "$CL" "$M"
ok "kill -9 mid-copy into pool 2: a clean prefix of $sz bytes, check and fsck clean"

# the metadata lost: the rebuild finds the file's data in pool 2 by the
# backtrace in the default pool (its layout names the pool)
"$CRUSHFS" umount "$M" >/dev/null || fail "umount"
rm -rf "$CL/mds"
C fsck --rebuild-metadata >"$T/rb.out" 2>"$T/rb.err" || { cat "$T/rb.out" "$T/rb.err"; fail "rebuild"; }
mount_fg "$CL" "$M"
cmp "$T/a" "$M/hot/a" || fail "hot/a after the rebuild"
cmp "$T/b" "$M/cold/b" || fail "cold/b after the rebuild"
[ "$(gx ceph.file.layout.pool "$M/hot/a")" = fast ] || fail "rebuilt layout: $(gx ceph.file.layout.pool "$M/hot/a")"
ok "fsck --rebuild-metadata: the pool-2 file comes back whole with its layout"

C osd pool rm fast fast --yes-i-really-really-mean-it 2>"$T/e" && fail "a data pool removed"
grep -q "in use by CephFS" "$T/e" || fail "$(cat "$T/e")"
C fs rm_data_pool crushfs fast 2>"$T/e" && fail "a pool holding files left the filesystem"
grep -q "holds 6 object" "$T/e" || fail "$(cat "$T/e")"
rm "$M/hot/a"
# the purge runs in the background
pool_empty() { local l; l=$(C rados -p "$1" ls) && [ -z "$l" ]; }
wait_for "pool fast to be emptied by the purge" 60 pool_empty fast ||
	fail "objects left in fast: $(C rados -p fast ls)"
C rados -p crushfs_data ls | grep -q "^$ino\." && fail "the backtrace object stayed"
C fs rm_data_pool crushfs fast 2>"$T/e" || fail "fs rm_data_pool: $(cat "$T/e")"
C fs rm_data_pool crushfs crushfs_data 2>"$T/e" && fail "the default data pool removed"
grep -q "cannot remove default data pool" "$T/e" || fail "$(cat "$T/e")"
ok "rm empties pool 2 (and the backtrace); then it leaves the filesystem"
