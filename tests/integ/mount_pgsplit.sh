#!/usr/bin/env bash
# PG split and merge while mounted (issue 10 item 4): `osd pool set
# pg_num` through the daemon holds I/O off while the objects move (the PG
# layout gate), so a copy running meanwhile just waits; rebalance steps
# pgp_num to spread the new PGs online (and merges back through the
# targets, issue 20); a kill -9 of the daemon in the
# middle of a split is finished by the next mount, nothing lost.
. "$(dirname "$0")/lib/mount_common.sh"

CL=$T/cluster
M=$T/mnt
C() { "$CRUSHFS" --cluster "$CL" "$@"; }
mkcluster "$CL" --osds 6 --hosts 3 --osd-size 512M --pg-num 16 --object-size 1M
mount_fg "$CL" "$M"
mkdir -p "$M/d"
for i in $(seq 1 40); do head -c $((i * 37))K /dev/urandom >"$M/d/f$i"; done
sync
(cd "$M/d" && sha256sum f*) >"$T/sums"

npgs() { C -f json pg dump | py 'import json,sys; print(len(json.load(sys.stdin)["pg_map"]["pg_stats"]))'; }

# a copy runs while the PGs split under it
head -c 24M /dev/urandom >"$T/big"
(for k in 1 2 3 4 5 6; do cp "$T/big" "$M/d/big$k"; done) &
cpid=$!
copying() { [ -s "$M/d/big1" ]; }
wait_for "the copy to start" 60 copying
C osd pool set crushfs_data pg_num 64 >"$T/out" 2>&1 || fail "split while mounted: $(cat "$T/out")"
wait $cpid || fail "the copy during the split"
for k in 1 2 3 4 5 6; do cmp -s "$T/big" "$M/d/big$k" || fail "big$k differs"; done
(cd "$M/d" && sha256sum -c --quiet "$T/sums") || fail "files after the split"
[ "$(npgs)" = 64 ] || fail "not 64 PGs"
C check --deep >"$T/ck" 2>&1 || fail "check --deep: $(cat "$T/ck")"
ok "split 16 -> 64 under a running copy: $(cat "$T/out")"

# the split set pgp_num_target 64: rebalance steps pgp_num there; a
# merge keeps its target and rebalance lowers pgp_num, then merges
C rebalance >"$T/rb" 2>&1 || fail "rebalance: $(cat "$T/rb")"
grep -q "pgp_num 16 -> 64" "$T/rb" || fail "rebalance did not step pgp_num: $(cat "$T/rb")"
C osd pool set crushfs_data pg_num 32 >/dev/null || fail "merge to 32"
[ "$(npgs)" = 64 ] || fail "merged before pgp_num came down"
C rebalance >"$T/rb" 2>&1 || fail "rebalance merging: $(cat "$T/rb")"
(cd "$M/d" && sha256sum -c --quiet "$T/sums") || fail "files after the merge"
[ "$(npgs)" = 32 ] || fail "not 32 PGs"
ok "pgp_num stepped to 64 by rebalance, then a merge back to 32 through the targets, all online"

# kill -9 of the daemon while it splits: the next mount finishes it
"$CRUSHFS" --cluster "$CL" osd pool set crushfs_data pg_num 128 >/dev/null 2>&1 &
spid=$!
# the kill comes once the files move (the marker is in cluster.json), or
# right after the split if it was too quick to be seen at it
splitting() { grep -q pg_num_change_from "$CL/cluster.json" || proc_gone "$spid"; }
wait_for -i 0.01 "the split to 128 to start" 60 splitting
kill -9 "$MPID"
reap "$MPID" "the daemon killed with -9" 137
# done (0), or cut off by the kill (1)
reap "$spid" "the pg_num change to 128" 0 1
fusermount3 -u -z "$M"
mount_fg "$CL" "$M"
(cd "$M/d" && sha256sum -c --quiet "$T/sums") || fail "files after the kill"
for k in 1 2 3 4 5 6; do cmp -s "$T/big" "$M/d/big$k" || fail "big$k differs after the kill"; done
n=$(npgs)
[ "$n" = 32 ] || [ "$n" = 128 ] || fail "$n PGs after the kill"
grep -q pg_num_change_from "$CL/cluster.json" && fail "the marker survived the remount"
C check --deep >"$T/ck" 2>&1 || fail "check --deep after the kill: $(cat "$T/ck")"
umount_fg "$M"
ok "daemon killed with -9 during a split to 128: remounted with $n PGs, nothing lost"
