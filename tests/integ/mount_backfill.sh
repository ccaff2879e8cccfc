#!/usr/bin/env bash
# Backfill with honest acting sets (issue 10 item 5) on a mounted
# filesystem: after `osd crush reweight` the up sets follow CRUSH while the
# acting sets stay on the OSDs that hold the data (pg_temp); locate shows
# every acting copy present (never "MISSING" for data that only has to
# move), reads and writes go on, and `rebalance` through the daemon makes
# acting = up with every copy where locate says.
. "$(dirname "$0")/lib/mount_common.sh"

CL=$T/cluster
M=$T/mnt
C() { "$CRUSHFS" --cluster "$CL" "$@"; }
mkcluster "$CL" --osds 6 --hosts 3 --osd-size 256M --pg-num 32 --object-size 1M
mount_fg "$CL" "$M"
mkdir -p "$M/d"
for i in 1 2 3 4 5 6; do head -c $((i * 700))K /dev/urandom >"$M/d/f$i"; done
# fsync each file: its backtrace too is written now, not by the daemon's
# 2-second flusher in the middle of a later rebalance (crushfs sends a
# write to the acting set only: a backfilled target would miss it)
sync "$M"/d/f*
(cd "$M/d" && sha256sum f*) >"$T/sums"

# every object of every file: acting copies present; up members outside
# acting are backfill targets; prints "remapped-objects"
check_locate() { # want: "pgtemp" (some acting != up) or "clean"
	for i in 1 2 3 4 5 6; do C locate "$M/d/f$i" -f json; echo; done | py '
import json, sys
want = sys.argv[1]; remapped = 0
for line in sys.stdin:
    if not line.strip():
        continue
    d = json.loads(line)
    for o in d["objects"]:
        if o["up"] != o["acting"]:
            remapped += 1
        for c in o["copies"]:
            if c["role"] == "acting" and not c["exists"]:
                sys.exit("%s: acting copy on osd.%d missing" % (o["name"], c["osd"]))
            if c["role"] == "backfill_target" and want == "clean":
                sys.exit("%s: backfill target osd.%d after rebalance" % (o["name"], c["osd"]))
if want == "clean" and remapped:
    sys.exit("%d objects with acting != up after rebalance" % remapped)
if want == "pgtemp" and not remapped:
    sys.exit("no object remapped")
print(remapped)' "$1"
}

C osd crush reweight osd.4 0.0001 >/dev/null || fail "crush reweight"
n=$(check_locate pgtemp) || fail "remapped: $n"
C locate "$M/d/f6" | grep -q MISSING && fail "locate shows MISSING: $(C locate "$M/d/f6" | grep MISSING)"
t=$(C osd dump | grep -c '^pg_temp') || fail "no pg_temp in osd dump"
C status | grep -q "$t remapped pgs" || fail "status: $(C status | grep osd:)"
ok "crush reweight: $n objects keep acting on their data ($t pg_temp entries), no copy MISSING"

(cd "$M/d" && sha256sum -c --quiet "$T/sums") || fail "read while remapped"
head -c 300K /dev/urandom >>"$M/d/f6"
sync
(cd "$M/d" && sha256sum f*) >"$T/sums"
check_locate pgtemp >/dev/null || fail "after a write while remapped"
ok "reads and an append while remapped"

C rebalance >"$T/rb" || fail "rebalance: $(cat "$T/rb")"
check_locate clean >/dev/null || fail "after rebalance ($(tr '\n' ' ' <"$T/rb"))"
[ "$(C osd dump | grep -c '^pg_temp')" = 0 ] || fail "pg_temp left: $(C osd dump | grep pg_temp)"
C pg ls remapped | grep -q '^1\.' && fail "remapped PGs left: $(C pg ls remapped)"
ok "rebalance through the daemon: acting = up, every copy in place ($(cat "$T/rb"))"

# pgp_num is a map change like the others (pg_temp, then rebalance):
# `pgp_num` sets the target (nothing moves yet), `pgp_num_actual` (the
# mgr's step, issue 20) changes it at once
C osd pool set crushfs_data pgp_num 16 >/dev/null || fail "pgp_num 16"
check_locate clean >/dev/null || fail "pgp_num 16 moved something before rebalance"
C osd pool set crushfs_data pgp_num_actual 16 >/dev/null || fail "pgp_num_actual 16"
check_locate pgtemp >/dev/null || fail "pgp_num_actual 16: nothing remapped"
(cd "$M/d" && sha256sum -c --quiet "$T/sums") || fail "read after pgp_num 16"
C rebalance >/dev/null 2>&1 || fail "rebalance after pgp_num"
check_locate clean >/dev/null || fail "after pgp_num 16 and rebalance"
ok "mounted: pgp_num 16 remaps and rebalance settles it"

# and back up to 32 in steps, through the daemon
C osd pool set crushfs_data pgp_num 32 >/dev/null || fail "pgp_num 32"
C rebalance >"$T/rb" 2>&1 || fail "rebalance stepping pgp_num: $(cat "$T/rb")"
grep -q "pgp_num 16 -> 32" "$T/rb" || fail "rebalance did not step: $(cat "$T/rb")"
check_locate clean >/dev/null || fail "after the steps to pgp_num 32"
(cd "$M/d" && sha256sum -c --quiet "$T/sums") || fail "read after the steps"
ok "mounted: rebalance steps pgp_num 16 -> 32 ($(tail -1 "$T/rb"))"

"$CRUSHFS" umount "$M" >/dev/null || fail "umount"
mount_fg "$CL" "$M"
(cd "$M/d" && sha256sum -c --quiet "$T/sums") || fail "read after remount"
C check --deep >"$T/ck" 2>&1 || fail "check --deep: $(cat "$T/ck")"
ok "remounted: every byte read back, replicas agree"
