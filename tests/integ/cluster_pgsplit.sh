#!/usr/bin/env bash
# PG split and merge (issue 10 item 4): `osd pool set pg_num` moves each
# object into the PG stable_mod picks, on the OSDs that hold it, and sets
# pgp_num_target; then rebalance steps pgp_num there, spreading the new
# PGs (each step a map change: pg_temp, then backfill).  A merge waits for
# pgp_num (issue 20): the command keeps the targets, rebalance lowers
# pgp_num and merges.
# The cluster maps as osdmaptool does for the new pg_num/pgp_num; an
# interrupted change (the new pg_num committed, files not moved yet) is
# refused by read-only commands and finished by the next writing one;
# kill -9 in the middle of a split loses nothing.
. "$(dirname "$0")/lib/cluster_common.sh"

CL=$T/cl
cf "$CL" mkfs --osd-size 256M --pg-num 16 >/dev/null || fail mkfs
for i in $(seq 1 12); do
	head -c $((i * 3001)) /dev/urandom >"$T/in.$i"
	cf "$CL" rados put "o$i" "$T/in.$i" || fail "put o$i"
done
cf "$CL" rados bench write --total 6M --object-size 4K --threads 4 --prefix b --no-cleanup >/dev/null ||
	fail "bench objects"

verify() { # what
	for i in $(seq 1 12); do
		cf "$CL" rados get "o$i" "$T/out" 2>"$T/e" || fail "$1: get o$i: $(cat "$T/e")"
		cmp -s "$T/in.$i" "$T/out" || fail "$1: o$i differs"
	done
	cf "$CL" check --deep >"$T/ck" 2>&1 || fail "$1: check --deep: $(cat "$T/ck")"
	cf "$CL" scrub --deep >"$T/sc" 2>&1 || fail "$1: scrub --deep: $(tail -2 "$T/sc")"
}
# every PG's up set against `osdmap test-map-pgs-dump` (golden-tested
# against osdmaptool) for the map's pg_num / pgp_num
same_as_osdmaptool() { # pg_num pgp_num
	cf "$CL" osdmap test-map-pgs-dump --crush "$CL/crushmap.txt" --pool 1 \
		--pg-num "$1" --pgp-num "$2" --size 3 | awk '/^1\./ {print $1, $2}' >"$T/want"
	cf "$CL" -f json pg dump | py '
import json, sys
for p in json.load(sys.stdin)["pg_map"]["pg_stats"]:
    print(p["pgid"], "[" + ",".join(map(str, p["up"])) + "]")' | sort >"$T/got"
	sort "$T/want" | diff - "$T/got" >/dev/null || fail "pg_num $1 pgp_num $2: up sets differ from osdmap test-map-pgs-dump"
}

cf "$CL" osd pool set crushfs_data pg_num 64 >/dev/null || fail "split to 64"
[ "$(cf "$CL" -f json pg dump | py 'import json,sys; print(len(json.load(sys.stdin)["pg_map"]["pg_stats"]))')" = 64 ] ||
	fail "not 64 PGs"
same_as_osdmaptool 64 16
verify "split 16 -> 64"
cf "$CL" osd pool get crushfs_data pgp_num | grep -qx 'pgp_num: 16' || fail "pgp_num moved before rebalance"
cf "$CL" osd pool ls detail | grep -q 'pg_num 64 pgp_num 16 pgp_num_target 64 ' || fail "no pgp_num_target 64"
cf "$CL" rebalance >"$T/o" 2>&1 || fail "rebalance: $(cat "$T/o")"
grep -q "pgp_num 16 -> 64" "$T/o" || fail "rebalance did not step pgp_num: $(cat "$T/o")"
same_as_osdmaptool 64 64
verify "pgp_num stepped to 64 by rebalance"
ok "split 16 -> 64 in place, pgp_num stepped to 64 by rebalance: data intact, maps as osdmaptool"

cf "$CL" osd pool set crushfs_data pg_num 32 >"$T/o" 2>&1 || fail "merge to 32: $(cat "$T/o")"
grep -q 'lowers pgp_num to 32 step by step, then merges' "$T/o" || fail "$(cat "$T/o")"
cf "$CL" osd pool get crushfs_data pg_num | grep -qx 'pg_num: 64' || fail "merged before pgp_num came down"
cf "$CL" rebalance >"$T/o" 2>&1 || fail "rebalance merging: $(cat "$T/o")"
grep -q "pg_num 64 -> 32, pgp_num 64 -> 32" "$T/o" || fail "$(cat "$T/o")"
same_as_osdmaptool 32 32
verify "merge 64 -> 32"
ok "merge 64 -> 32 through the targets: rebalance lowers pgp_num, then merges"

# an interrupted change, as a crash right after the commit leaves it
py "
import json
p = '$CL/cluster.json'
d = json.load(open(p))
d['pool']['pg_num'] = 128
d['pg_num_change_from'] = 32
json.dump(d, open(p, 'w'))"
cf "$CL" status >/dev/null 2>"$T/e" && fail "status on an interrupted change"
grep -q "a change of pool 1's pg_num from 32 to 128 was interrupted" "$T/e" || fail "$(cat "$T/e")"
cf "$CL" rebalance >/dev/null 2>"$T/e" || fail "rebalance finishing it: $(cat "$T/e")"
grep -q pg_num_change_from "$CL/cluster.json" && fail "the marker stayed"
same_as_osdmaptool 128 32
verify "an interrupted split finished"
ok "an interrupted split: read-only commands say so, the next writing one finishes it"

kills=0
for delay in 0.01 0.03 0.05 0.08 0.12; do
	cur=$(cf "$CL" osd pool get crushfs_data pg_num | awk '{print $2}')
	next=$((cur == 128 ? 256 : 128))
	[ "$next" -lt "$cur" ] && { cf "$CL" osd pool set crushfs_data pgp_num "$next" >/dev/null && cf "$CL" rebalance >/dev/null || fail "pgp_num $next"; }
	"$CRUSHFS" --cluster "$CL" osd pool set crushfs_data pg_num "$next" >/dev/null 2>&1 &
	pid=$!
	# not a wait: the moment of the kill, a different one each round
	sleep "$delay"
	kill -9 "$pid" 2>/dev/null && kills=$((kills + 1))
	# killed (137), or it had finished (0) before the kill came
	reap "$pid" "pg_num $cur -> $next" 0 137
	cf "$CL" rebalance >/dev/null 2>"$T/e" || fail "after a kill at ${delay}s: $(cat "$T/e")"
	verify "a kill at ${delay}s during pg_num $cur -> $next"
done
ok "kill -9 during $kills of 5 pg_num changes: nothing lost, each finished or undone cleanly"
