#!/usr/bin/env bash
# rados_backend.sh - crushfs on the RADOS backend against a real one-node
# Ceph 16.2 (ceph_cluster.sh, 3 OSDs): mkfs --backend rados on a pool,
# mount, copy ~200 MiB of files, remount and compare; the objects in the
# pool (`rados ls`) are exactly the files' objects; `locate` of every
# object equals the cluster's `osd map`, again after an OSD goes out (the
# mounted daemon follows the live osdmap); a full cluster gives the writer
# ENOSPC within seconds (full-try mode, no hang) and loses nothing.
# Needs ceph-mon, ceph-mgr, ceph-osd and /dev/fuse; skips (77) without.
for b in ceph-mon ceph-mgr ceph-osd ceph rados; do
	command -v "$b" >/dev/null || { echo "SKIP: $b not installed"; exit 77; }
done
. "$(dirname "$0")/../integ/lib/mount_common.sh"
here=$(cd "$(dirname "$0")" && pwd)
# ceph_cli, rados_cli: every ceph and rados call, the monitor's transient
# answers asked again, real errors reported (never a silent exit)
. "$here/ceph_cluster.sh"
# unmount before the cluster stops (a daemon would wait for it), then
# mount_common's cleanup
daemons_gone() {
	local p
	for p in "${PIDS[@]}"; do proc_gone "$p" || return 1; done
}
stop_all() {
	local rc=$?
	set +e
	for m in "${MOUNTS[@]}"; do fusermount3 -u -z "$m" 2>/dev/null; done
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
	# (the cluster stops after 10 s whatever: cleanup goes on)
	wait_for -q "the daemons to exit" 10 daemons_gone
	bash "$here/ceph_cluster.sh" stop "$T/ceph" >/dev/null 2>&1
	(exit $rc)
	cleanup
}
trap stop_all EXIT

eval "$(bash "$here/ceph_cluster.sh" start "$T/ceph" 3)"
export CEPH_CONF
c() { ceph_cli "$@"; }
CL=$T/cluster
M=$T/mnt
export CL CRUSHFS
C() { "$CRUSHFS" --cluster "$CL" "$@"; }

c osd pool create fsdata 32 32 >/dev/null
c osd pool create other 8 8 >/dev/null
rados_cli -p other put someone-elses "$CEPH_CONF"

# the refusals first: no such pool, a pool someone else uses
C mkfs --backend rados --ceph-conf "$CEPH_CONF" --pool nosuch 2>"$T/err" &&
	fail "mkfs on a missing pool"
grep -q "pool 'nosuch': no such pool in the cluster" "$T/err" || fail "$(cat "$T/err")"
C mkfs --backend rados --ceph-conf "$CEPH_CONF" --pool other 2>"$T/err" &&
	fail "mkfs on a pool with objects"
grep -q "pool 'other' holds objects already" "$T/err" || fail "$(cat "$T/err")"
[ ! -e "$CL" ] || fail "a refused mkfs left $CL"
C mkfs --backend rados --ceph-conf "$CEPH_CONF" --pool fsdata >"$T/mkfs.out" 2>&1 ||
	fail "mkfs: $(cat "$T/mkfs.out")"
ok "mkfs --backend rados: refuses a missing or used pool, makes the cluster"

# ~200 MiB: 12 files of 16 MiB, 300 of 20 KiB, in folders
mkdir -p "$T/src/big" "$T/src/small/a/b"
for i in $(seq 1 12); do
	head -c $((16 << 20)) /dev/urandom >"$T/src/big/f$i"
done
for i in $(seq 1 300); do
	head -c $((20 << 10)) /dev/urandom >"$T/src/small/a/b/s$i"
done
mount_fg "$CL" "$M"
cp -r "$T/src/." "$M/" || fail "cp into the mount"
umount_fg "$M"
mount_fg "$CL" "$M"
diff -r "$T/src" "$M" || fail "files differ after a remount"
ok "200 MiB copied, remounted, identical"

# the pool holds exactly the files' objects (and the directories'
# backtraces); locate = the cluster's osd map
find "$M" -type f | sort >"$T/allfiles"
# locate every big file and every tenth small one (each object's PG is
# then checked against the cluster's, every PG's sets below)
grep /big/ "$T/allfiles" >"$T/files"
grep /small/ "$T/allfiles" | awk 'NR % 10 == 1' >>"$T/files"
# directories keep their backtrace on an object of their own (CephFS puts
# those in the metadata pool; crushfs's metadata pool is local)
find "$M" -mindepth 1 -type d -printf '%i\n' |
	/usr/bin/python3 -c 'import sys; [print("%x.00000000" % int(l)) for l in sys.stdin]' >"$T/dirobjs"
: >"$T/locate.json"
while read -r f; do C locate "$f" -f json >>"$T/locate.json" || fail "locate $f"; done <"$T/files"
check_placement() {
	/usr/bin/python3 - "$CEPH_CONF" "$T/locate.json" "$1" "$T/dirobjs" <<'PY'
import errno, json, os, subprocess, sys, time
import rados

conf, path, want_listing = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
dirobjs = {l.strip() for l in open(sys.argv[4]) if l.strip()}


def mon(cmd):
    """a monitor command's JSON answer; its transient answers (EAGAIN,
    ETIMEDOUT, EINTR; EPERM "wrong fsid" to a client whose first command
    raced its monmap) asked again for up to 60 s, others said and fatal"""
    t0 = time.monotonic()
    while True:
        r, out, err = cl.mon_command(json.dumps(dict(cmd, format="json")), b"")
        if r == 0:
            return json.loads(out)
        if ((-r not in (errno.EAGAIN, errno.ETIMEDOUT, errno.EINTR) and
             not (-r == errno.EPERM and "wrong fsid" in err)) or
                time.monotonic() - t0 > 60):
            sys.exit("mon command %r: %s (%d)" % (cmd, err, r))
        time.sleep(1)  # the interval between two tries


ours = {}
for line in open(path):
    d = json.loads(line)
    for o in d["objects"]:
        if o["exists"]:
            ours[o["name"]] = o
cl = rados.Rados(conffile=conf)
cl.connect(timeout=30)
bad = []
if want_listing:
    io = cl.open_ioctx("fsdata")
    listed = {o.key for o in io.list_objects()} - dirobjs
    io.close()
    # every file's objects by its inode and size (4 MiB objects)
    files = set()
    for line in open(path.replace("locate.json", "allfiles")):
        st = os.stat(line.rstrip("\n"))
        for n in range(max(1, (st.st_size + (4 << 20) - 1) >> 22)):
            files.add("%x.%08x" % (st.st_ino, n))
    if listed != files:
        bad.append("rados ls: %d objects, the files have %d (only in the "
                   "pool: %s; only in the files: %s)" % (
                       len(listed), len(files), sorted(listed - files)[:5],
                       sorted(files - listed)[:5]))
# every PG of the pool: up and acting as the monitor's osdmap has them
# (`ceph pg map`; the manager's pg dump trails it)
mine = {p["pgid"]: p for p in json.loads(subprocess.run(
    [os.environ["CRUSHFS"], "--cluster", os.environ["CL"], "pg", "dump",
     "-f", "json"], check=True, capture_output=True,
    text=True).stdout)["pg_map"]["pg_stats"]
    if p["pgid"].startswith("%d." % cl.pool_lookup("fsdata"))}
livepg = {}
for pgid in mine:
    livepg[pgid] = mon({"prefix": "pg map", "pgid": pgid})
for pgid in sorted(livepg):
    for k in ("up", "acting"):
        if mine[pgid][k] != livepg[pgid][k]:
            bad.append("pg %s: %s %r, cluster %r" % (
                pgid, k, mine[pgid][k], livepg[pgid][k]))
for name, o in sorted(ours.items()):
    live = mon({"prefix": "osd map", "pool": "fsdata", "object": name})
    for k in ("pgid", "up", "up_primary", "acting", "acting_primary"):
        if o.get(k) != live[k]:
            bad.append("%s: %s %r, cluster %r" % (name, k, o.get(k), live[k]))
cl.shutdown()
for b in bad[:20]:
    print(b)
if bad:
    sys.exit(1)
print("%d objects located, %d PGs placed as the cluster places them" % (
    len(ours), len(livepg)))
PY
}
check_placement 1 || fail "placement or listing differs from the cluster's"
# placed_now LISTING: check_placement until it passes (the cluster
# settling: the PG sets move while backfill runs), at most 120 s
placed() { check_placement "$1" >"$T/check.out" 2>&1; }
placed_now() {
	wait_for -i 2 "the pool's placement to match the cluster's" 120 placed "$1" ||
		{ cat "$T/check.out"; return 1; }
	cat "$T/check.out"
}
ok "rados ls = the files' objects; locate = ceph osd map; every PG's sets = the cluster's"

# the cluster changes; the mounted daemon follows
c osd out 1 >/dev/null || fail "ceph osd out 1"
epoch_of() { /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["epoch"])'; }
want=$(c osd dump -f json | epoch_of) || fail "ceph osd dump"
have=
caught_up() { have=$(C osd dump -f json | epoch_of) && [ "$have" -ge "$want" ]; }
wait_for "the daemon to reach the cluster's epoch $want" 30 caught_up ||
	fail "the daemon stays at epoch $have, the cluster is at $want"
want=$(c osd dump -f json | epoch_of) || fail "ceph osd dump"
# backfill moves the cluster on (pg_temp entries come and go): compare
# until the two agree at one epoch, as the daemon follows within 2 s
# agrees [READY]: (once READY, a function, says so) locate the files
# again and compare with the cluster
agrees() {
	[ -z "${1:-}" ] || "$1" || return 1
	: >"$T/locate.json"
	while read -r f; do C locate "$f" -f json >>"$T/locate.json" || return 1; done <"$T/files"
	check_placement 0 >"$T/check.out" 2>&1
}
# follows LIMIT [READY]: agrees, polled every 2 s for at most LIMIT s
follows() {
	: >"$T/check.out"
	wait_for -i 2 "locate to agree with the cluster" "$1" agrees "${2:-}" ||
		{ cat "$T/check.out"; return 1; }
	cat "$T/check.out"
}
follows 120 || fail "locate does not follow the cluster after osd out"
ok "osd out 1 on the cluster: locate follows (epoch $want)"
c osd in 1 >/dev/null || fail "ceph osd in 1"

# the data pool splits (pg_num 32 -> 64; the manager steps pgp_num up):
# the mounted daemon follows, I/O goes on
c osd pool set fsdata pg_num 64 >/dev/null || fail "ceph osd pool set fsdata pg_num 64"
livepg() { c osd pool get fsdata pg_num -f json | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["pg_num"])'; }
split_done() { [ "$(livepg)" = 64 ]; }
wait_for -i 1 "the cluster to reach pg_num 64" 120 split_done
mine=
split_seen() {
	mine=$(C osd dump -f json | /usr/bin/python3 -c 'import json,sys; print([p["pg_num"] for p in json.load(sys.stdin)["pools"] if p["pool_name"] == "fsdata"][0])')
	[ "$mine" = 64 ]
}
follows 180 split_seen || fail "locate does not follow the split (crushfs pg_num $mine)"
head -c $((6 << 20)) /dev/urandom >"$T/src/after-split"
cp "$T/src/after-split" "$M/" || fail "a write after the split"
diff -r "$T/src" "$M" || fail "files differ after the split"
ok "pg_num 32 -> 64 on the cluster: the daemon follows, files intact"

# a full cluster: ENOSPC at once, nothing lost
c osd set-nearfull-ratio 0.01 >/dev/null
c osd set-backfillfull-ratio 0.01 >/dev/null
c osd set-full-ratio 0.02 >/dev/null
# full once the monitor flags the pool (OSDMonitor sets FLAG_FULL on the
# pools of full OSDs a moment after their statistics say so)
isfull() { c osd pool ls detail | grep "'fsdata'" | grep -q "full"; }
wait_for -i 1 "the monitor to flag the pool full" 60 isfull ||
	fail "the pool never became full: $(c health)"
# a writer keeps writing: the OSDs learn the flag a moment after the
# monitor sets it; from then on every write gets ENOSPC, at once
start=$(date +%s)
for i in $(seq 1 300); do
	timeout 60 dd if=/dev/urandom of="$M/more$i" bs=1M count=1 conv=fsync \
		2>"$T/dd.err" || break
	[ $(($(date +%s) - start)) -lt 30 ] || break
	# not a wait: paces the writer (10 writes a second at most), so
	# that few land while the OSDs learn the flag
	sleep 0.1
done
took=$(($(date +%s) - start))
grep -q "No space left on device" "$T/dd.err" ||
	fail "no ENOSPC after $took s of writes to a full pool: $(cat "$T/dd.err")"
[ "$took" -lt 30 ] || fail "ENOSPC took $took s"
t0=$(date +%s.%N)
timeout 60 dd if=/dev/urandom of="$M/more" bs=1M count=8 conv=fsync 2>"$T/dd.err" &&
	fail "a write to a full cluster succeeded"
grep -q "No space left on device" "$T/dd.err" || fail "dd: $(cat "$T/dd.err")"
took=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
# written back, no fsync: a later write reports it (96 MiB is more than
# the 64 MiB in flight, so the writer waits for a failed one)
timeout 60 dd if=/dev/zero of="$M/more-nosync" bs=1M count=96 2>"$T/dd.err" &&
	fail "96 MiB written back to a full cluster and no error"
grep -q "No space left on device" "$T/dd.err" || fail "dd (no fsync): $(cat "$T/dd.err")"
for f in big/f1 big/f12 small/a/b/s300; do
	cmp "$T/src/$f" "$M/$f" || fail "$f changed while the cluster was full"
done
ok "full cluster: ENOSPC after $took s, earlier files intact"
c osd set-full-ratio 0.95 >/dev/null
c osd set-backfillfull-ratio 0.9 >/dev/null
c osd set-nearfull-ratio 0.85 >/dev/null
notfull() { ! isfull; }
wait_for -i 1 "the monitor to clear the pool's full flag" 60 notfull
rm -f "$M"/more*
umount_fg "$M"
mount_fg "$CL" "$M"
diff -r "$T/src" "$M" || fail "files differ after the full episode"
ok "all files still identical after a remount"

# removed files take their objects with them (removed asynchronously;
# the unmount waits for the last): the pool holds the others' only
rm -rf "$M/big/f1" "$M/big/f2" "$M/big/f3" "$M/small/a/b"
umount_fg "$M"
mount_fg "$CL" "$M"
find "$M" -type f | sort >"$T/allfiles"
find "$M" -mindepth 1 -type d -printf '%i\n' |
	/usr/bin/python3 -c 'import sys; [print("%x.00000000" % int(l)) for l in sys.stdin]' >"$T/dirobjs"
: >"$T/locate.json"
# (the manager may still be stepping pgp_num up after the split: the
# PG sets move meanwhile, compare until they agree)
placed_now 1 || fail "the pool after removals"
ok "after rm: rados ls = the remaining files' objects"

# kill -9 with writes in flight: a file fsync returned for survives
# whole, the one being written reads without error, and once both are
# removed the pool holds no object of theirs (none unknown to the index)
head -c $((24 << 20)) /dev/urandom >"$T/crash1"
dd if="$T/crash1" of="$M/crash1" bs=1M conv=fsync status=none 2>"$T/dd.err" ||
	fail "dd crash1: $(cat "$T/dd.err")"
dd if=/dev/zero of="$M/crash2" bs=1M count=400 status=none 2>/dev/null &
dpid=$!
# the kill comes in the middle of the write: 8 MiB in
wait_for -i 0.05 "crash2's write to pass 8 MiB" 60 size_over "$M/crash2" $((8 << 20))
kill -9 "$MPID"
reap "$MPID" "the daemon killed with -9" 137
# dd fails on the lost mount (1); 0 only if it was already done
reap "$dpid" "the dd cut short" 0 1
fusermount3 -u -z "$M"
mount_fg "$CL" "$M"
cmp "$T/crash1" "$M/crash1" || fail "an fsync'ed file changed after kill -9"
cat "$M/crash2" >/dev/null || fail "the file written at kill -9 reads an error"
rm -f "$M/crash1" "$M/crash2"
umount_fg "$M"
mount_fg "$CL" "$M"
find "$M" -type f | sort >"$T/allfiles"
placed_now 1 || fail "the pool after kill -9 and rm"
umount_fg "$M"
ok "kill -9 mid-write: the fsync'ed file intact, nothing reads EIO, no object left behind"
