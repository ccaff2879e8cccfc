#!/usr/bin/env bash
# Files on an erasure-coded pool (issue 10 item 3) on a mounted
# filesystem: a k=2 m=1 pool becomes a data pool once allow_ec_overwrites
# is set (refused before, with CephFS's words); files written through a
# directory layout read back whole, their objects in pool 2's PGs as 3
# shards; with the OSD of a shard down (m OSDs) every byte still reads
# back (decoded); a split moves the shards with their PGs; `osd out` of a
# shard's OSD then `rebalance` moves the
# shards (copied or rebuilt); a kill -9 in the middle of a copy leaves a
# clean prefix; remount, check --deep and fsck are clean; rm frees it all.
. "$(dirname "$0")/lib/mount_common.sh"

CL=$T/cluster
M=$T/mnt
C() { "$CRUSHFS" --cluster "$CL" "$@"; }
gx() { getfattr --only-values -n "$1" "$2" 2>"$T/gx.err"; }
mkcluster "$CL" --osds 8 --hosts 4 --osd-size 256M --pg-num 32 --object-size 1M
C osd erasure-code-profile set k2m1 k=2 m=1 crush-failure-domain=host || fail "profile"
C osd pool create ecdata 16 16 erasure k2m1 >/dev/null || fail "pool create"
C fs add_data_pool crushfs ecdata 2>"$T/e" && fail "an EC pool without overwrites added"
grep -q "is an erasure-coded pool, with no overwrite support" "$T/e" || fail "$(cat "$T/e")"
C osd pool set ecdata allow_ec_overwrites true >/dev/null || fail "allow_ec_overwrites"
C osd pool set ecdata allow_ec_overwrites false 2>"$T/e" && fail "overwrites disabled"
grep -q "cannot be disabled once enabled" "$T/e" || fail "$(cat "$T/e")"
C fs add_data_pool crushfs ecdata 2>/dev/null || fail "fs add_data_pool"
C osd pool ls detail | grep "'ecdata'" | grep -q "ec_overwrites" || fail "no ec_overwrites flag"
mount_fg "$CL" "$M"
mkdir -p "$M/ec"
setfattr -n ceph.dir.layout.pool -v ecdata "$M/ec" || fail "dir layout"
ok "an EC pool is a data pool once allow_ec_overwrites is set"

head -c $((9 * 1024 * 1024 + 4321)) /dev/urandom >"$T/a"
head -c 5000 /dev/urandom >"$T/small"
cp "$T/a" "$M/ec/a"
cp "$T/small" "$M/ec/small"
# overwrites inside stripes and a sparse tail
"$PY" - "$M/ec/a" "$T/a" <<'PYEOF'
import os, sys
for path in sys.argv[1:]:
    fd = os.open(path, os.O_RDWR)
    for off in (1000, 4096 * 3 + 7, 1048576 - 100, 5 * 1048576 + 12345):
        os.pwrite(fd, b"overwrite!" * 50, off)
    os.pwrite(fd, b"tail", 12 * 1048576)
    os.fsync(fd)
    os.close(fd)
PYEOF
sync "$M/ec/a" "$M/ec/small"
cmp "$T/a" "$M/ec/a" || fail "a differs"
cmp "$T/small" "$M/ec/small" || fail "small differs"
C locate "$M/ec/a" -f json | py '
import json, sys
d = json.load(sys.stdin)
objs = [o for o in d["objects"] if o["exists"]]
if len(objs) < 10:
    sys.exit("%d objects" % len(objs))
for o in objs:
    if not o["pgid"].startswith("2."):
        sys.exit("%s in pg %s" % (o["name"], o["pgid"]))
    if len(o["acting"]) != 3:
        sys.exit("%s: acting %s" % (o["name"], o["acting"]))' || fail "locate"
C df -f json | py '
import json, sys
d = {p["name"]: p["stats"] for p in json.load(sys.stdin)["pools"]}
e = d["ecdata"]
if e["objects"] != 12 or e["stored"] < 9 * 1048576:
    sys.exit("ecdata: %s" % e)
# k=2 m=1: 1.5x raw, a little more for the padded stripes
if not 1.45 * e["stored"] <= e["bytes_used"] <= 1.6 * e["stored"]:
    sys.exit("ecdata used %d for %d stored" % (e["bytes_used"], e["stored"]))' || { C df; fail "df"; }
ok "files round-trip on the EC pool (overwrites, holes); 3 shards per object; df 1.5x"

# a split of the EC pool while mounted: every shard moves with its PG
C osd pool set ecdata pg_num 32 >"$T/split" 2>&1 || fail "split: $(cat "$T/split")"
echo 3 >/proc/sys/vm/drop_caches
cmp "$T/a" "$M/ec/a" || fail "read after the split"
C check >"$T/ck" 2>&1 || fail "check after the split: $(cat "$T/ck")"
ok "ecdata split to pg_num 32 while mounted: shards moved, bytes intact"

# m = 1 OSD down: every byte still reads, decoded from the other shards
osd=$(C locate "$M/ec/a" -f json | py '
import json, sys
print(json.load(sys.stdin)["objects"][0]["acting"][0])')
echo 3 >/proc/sys/vm/drop_caches
C osd down "$osd" >/dev/null || fail "osd down"
cmp "$T/a" "$M/ec/a" || fail "degraded read"
C pg ls-by-pool ecdata degraded | grep -q '^2\.' || fail "no degraded PG: $(C pg ls-by-pool ecdata | head -5)"
C osd up "$osd" >/dev/null || fail "osd up"
ok "osd.$osd down: the file reads back whole from the other shards"

C osd out "$osd" >/dev/null || fail "osd out"
cmp "$T/a" "$M/ec/a" || fail "read after osd out"
C rebalance >"$T/rb" 2>&1 || fail "rebalance: $(cat "$T/rb")"
C locate "$M/ec/a" -f json | py '
import json, sys
osd = int(sys.argv[1])
for o in json.load(sys.stdin)["objects"]:
    if osd in o["acting"]:
        sys.exit("%s still on osd.%d" % (o["name"], osd))' "$osd" || fail "after rebalance"
C pg ls-by-pool ecdata | awk 'NR > 1 && $7 != "active+clean" {bad = 1} END {exit bad}' ||
	fail "not clean after rebalance: $(C pg ls-by-pool ecdata | grep -v active+clean)"
echo 3 >/proc/sys/vm/drop_caches
cmp "$T/a" "$M/ec/a" || fail "read after rebalance"
ok "osd.$osd out: its shards rebuilt or copied elsewhere, every PG active+clean"

# kill -9 in the middle of a copy into the EC pool
head -c 40M /dev/urandom >"$T/big"
dd if="$T/big" of="$M/ec/big" bs=1M status=none 2>/dev/null &
DD=$!
# the kill comes in the middle of the copy: 8 MiB in
wait_for -i 0.05 "the copy to pass 8 MiB" 60 size_over "$M/ec/big" $((8 << 20))
kill -9 "$MPID"
reap "$MPID" "the daemon killed with -9" 137
# dd fails on the lost mount (1); 0 only if it was already done
reap "$DD" "the dd cut short" 0 1
fusermount3 -u -z "$M"
mount_fg "$CL" "$M"
cmp "$T/a" "$M/ec/a" || fail "a after kill -9"
sz=$(stat -c %s "$M/ec/big")
cmp -n "$sz" "$T/big" "$M/ec/big" || fail "the cut-short copy is not a prefix"
"$CRUSHFS" umount "$M" >/dev/null || fail "umount"
C check --deep >"$T/ck" 2>&1 || fail "check --deep: $(cat "$T/ck")"
C fsck >"$T/fsck" 2>&1 || fail "fsck: $(cat "$T/fsck")"
mount_fg "$CL" "$M"
cmp "$T/small" "$M/ec/small" || fail "small after remount"
ok "kill -9 mid-copy: a clean prefix of $sz bytes; check --deep and fsck clean"

# a rotten shard: pg deep-scrub finds it, pg repair rebuilds it from the
# others (the read meanwhile decodes around it)
sh=$(C locate "$M/ec/small" -f json | py '
import json, sys
o = json.load(sys.stdin)["objects"][0]
c = [c for c in o["copies"] if c["exists"]][1]
print(o["pgid"], c["path"])')
pgid=${sh%% *}
path=${sh#* }
[ -f "$path" ] || fail "no shard file at $path"
printf 'rot' | dd of="$path" bs=1 seek=100 conv=notrunc status=none
C pg deep-scrub "$pgid" >"$T/ds" 2>&1 && fail "deep-scrub found nothing: $(cat "$T/ds")"
grep -q "does not match its checksums" "$T/ds" || fail "deep-scrub: $(cat "$T/ds")"
echo 3 >/proc/sys/vm/drop_caches
cmp "$T/small" "$M/ec/small" || fail "read with a rotten shard"
C pg repair "$pgid" >"$T/rp" 2>&1 || fail "repair: $(cat "$T/rp")"
C pg deep-scrub "$pgid" >"$T/ds2" 2>&1 || fail "deep-scrub after repair: $(cat "$T/ds2")"
C pg ls-by-pool ecdata inconsistent | grep -q '^2\.' && fail "still inconsistent"
ok "a rotten shard: deep-scrub finds it, reads decode around it, repair rebuilds it"

rm -f "$M/ec/a" "$M/ec/small" "$M/ec/big"
# the purge runs in the background
pool_empty() { local l; l=$(C rados -p "$1" ls) && [ -z "$l" ]; }
wait_for "the EC pool to be emptied by the purge" 60 pool_empty ecdata ||
	fail "objects left: $(C rados -p ecdata ls | head)"
ok "rm frees the EC pool"
