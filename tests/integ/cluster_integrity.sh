#!/usr/bin/env bash
# Copies you can trust (issue 8): a deleted or rotten copy - on the primary
# or a replica - is never returned, is reported by scrub and health, and a
# repair rebuilds it from a good copy (never the other way round).  A crash
# between replica writes settles on the newest copy that verifies.  An
# object whose every copy vanished is an error, not a hole of zeros.
. "$(dirname "$0")/lib/cluster_common.sh"

CL=$T/cl
cf "$CL" mkfs --osd-size 256M --pg-num 32 >/dev/null || fail mkfs
head -c 300000 /dev/urandom >"$T/data"
cf "$CL" rados put obj "$T/data" || fail put
pg=$(cf "$CL" osd map obj -f json | py 'import json,sys; print(json.load(sys.stdin)["pgid"])')
set -- $(acting "$CL" obj | tr , ' ')
prim=$1 rep=$2
path() { echo "$CL/osd.$1/current/${pg}_head/obj"; }

healthy() {
	cf "$CL" health >"$T/h" || fail "health: $(cat "$T/h")"
	! grep -q "OSD_SCRUB_ERRORS\|PG_DAMAGED" "$T/h" ||
		fail "health still damaged: $(cat "$T/h")"
}

# 1. the primary's copy deleted: the read is served from a replica
rm "$(path "$prim")"
cf "$CL" rados get obj "$T/out" 2>"$T/err" || fail "get with the primary copy gone: $(cat "$T/err")"
cmp "$T/data" "$T/out" || fail "read returned other bytes than written"
grep -q "pg $pg: object 'obj' on osd.$prim: copy is missing" "$T/err" ||
	fail "no log line naming pg, object and osd: $(cat "$T/err")"
# a read-only reader cannot rebuild it and says how (the mounted daemon
# rebuilds on the spot: mount_integrity.sh)
grep -q "run 'crushfs pg repair $pg'" "$T/err" || fail "no repair hint: $(cat "$T/err")"
cf "$CL" pg repair "$pg" >"$T/s" 2>&1 || fail "repair: $(cat "$T/s")"
cmp "$T/data" "$(path "$prim")" || fail "primary copy not rebuilt"
healthy
ok "deleted primary copy: read from a replica, logged, rebuilt by repair"

# 2. 16 bytes flipped inside the primary's copy (unmounted, behind our back)
flip() { # flip FILE OFFSET: xor 16 bytes
	py "import sys
f=open('$1','r+b'); f.seek($2); b=bytearray(f.read(16))
for i in range(len(b)): b[i]^=0xff
f.seek($2); f.write(b); f.close()"
}
flip "$(path "$prim")" 70000
cf "$CL" rados get obj "$T/out" 2>"$T/err" || fail "get with a rotten primary"
cmp "$T/data" "$T/out" || fail "rotten bytes returned"
grep -q "osd.$prim: data does not match its checksums" "$T/err" ||
	fail "rot not logged: $(cat "$T/err")"
cf "$CL" scrub --repair >"$T/s" 2>&1 || fail "scrub --repair: $(cat "$T/s")"
cmp "$T/data" "$(path "$prim")" || fail "rotten primary not repaired"
ok "rotten primary copy: never returned, logged, repaired from a replica"

# 3. a rotten replica is found by deep-scrub (a shallow scrub cannot see
# it), shown by health and pg dump until repaired, and repair never copies
# it over the good ones
flip "$(path "$rep")" 1000
cf "$CL" pg scrub "$pg" >"$T/s" 2>&1 || fail "shallow scrub: $(cat "$T/s")"
grep -q " 0 errors," "$T/s" || fail "shallow scrub saw data: $(cat "$T/s")"
rc=0
cf "$CL" pg deep-scrub "$pg" >"$T/s" 2>&1 || rc=$?
[ $rc = 1 ] || fail "deep-scrub with a bad copy exited $rc"
grep -q "osd.$rep: data does not match its checksums" "$T/s" ||
	fail "deep-scrub did not name the copy: $(cat "$T/s")"
# what to run names the PG (issue 22), counted as Ceph counts
grep -qx "crushfs: pg deep-scrub: 1 inconsistent copy in pg $pg: run 'crushfs pg repair $pg'" "$T/s" ||
	fail "deep-scrub did not say what to run: $(cat "$T/s")"
cf "$CL" health detail >"$T/h" || fail "health detail: $(cat "$T/h")"
grep -q "OSD_SCRUB_ERRORS" "$T/h" && grep -q "Possible data damage: 1 pg inconsistent" "$T/h" ||
	fail "health: $(cat "$T/h")"
cf "$CL" pg dump | grep "^$pg " | grep -q inconsistent || fail "pg dump state not +inconsistent"
cf "$CL" pg repair "$pg" >"$T/s" 2>&1 || fail "repair: $(cat "$T/s")"
grep -q "1 repaired" "$T/s" || fail "repair: $(cat "$T/s")"
for o in $(acting "$CL" obj | tr , ' '); do
	cmp "$T/data" "$(path "$o")" || fail "copy on osd.$o differs after repair"
done
healthy
cf "$CL" scrub --deep >"$T/s" 2>&1 || fail "clean cluster deep scrub: $(cat "$T/s")"
grep -q " 0 errors," "$T/s" || fail "scrub after repair: $(cat "$T/s")"
ok "rotten replica: deep-scrub finds it, health ERR + pg inconsistent, repair fixes it"

# 4. two copies rotten the same way cannot outvote the good one: copies
# that do not verify are never chosen, whatever their number
flip "$(path "$prim")" 5000
flip "$(path "$rep")" 5000
cf "$CL" pg repair "$pg" >"$T/s" 2>&1 || fail "repair of 2 bad copies: $(cat "$T/s")"
for o in $(acting "$CL" obj | tr , ' '); do
	cmp "$T/data" "$(path "$o")" || fail "osd.$o not repaired from the one good copy"
done
ok "two bad copies repaired from the single good one"

# 5. a stale copy (an older version put back) is not current
cp "$(path "$rep")" "$T/old"
cp --preserve=xattr "$(path "$rep")" "$T/old"
head -c 1000 /dev/urandom >"$T/data2"
cf "$CL" rados put obj "$T/data2" || fail "overwrite"
cp --preserve=xattr "$T/old" "$(path "$prim")"
cf "$CL" rados get obj "$T/out" 2>"$T/err" || fail "get with a stale primary"
cmp "$T/data2" "$T/out" || fail "stale copy returned"
grep -q "copy is stale" "$T/err" || fail "stale copy not logged: $(cat "$T/err")"
ok "stale copy with a valid checksum of an older version is not served"

# 6. every copy gone: an error, never zeros
for o in $(acting "$CL" obj | tr , ' '); do rm "$(path "$o")"; done
rc=0
cf "$CL" rados get obj "$T/out" 2>"$T/err" || rc=$?
[ $rc -ne 0 ] || fail "read of an object with no copy left succeeded"
grep -q "no good copy" "$T/err" || fail "no clear error: $(cat "$T/err")"
ok "object with every copy gone: read fails (EIO), no zeros"

# 7. the index lost: rebuilt from the copies' versions at the next open
cf "$CL" rados put obj2 "$T/data" || fail put2
rm -rf "$CL/pglog"
cf "$CL" rados get obj2 "$T/out" 2>"$T/err" && fail "read-only open without an index"
grep -q "object index missing" "$T/err" || fail "$(cat "$T/err")"
cf "$CL" scrub >"$T/scrub" 2>&1 || fail "scrub rebuilding the index: $(cat "$T/scrub")"
cf "$CL" rados get obj2 "$T/out" || fail "get after index rebuild"
cmp "$T/data" "$T/out" || fail "obj2 after index rebuild"
ok "lost object index rebuilt from the copies"
