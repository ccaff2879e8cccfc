#!/usr/bin/env bash
# kill -9 in the middle of rebalance (backfill, the pg_temp epoch, the
# purge of old copies), again and again: every object reads back with its
# bytes after each kill, and the rebalance that finally runs through
# leaves acting = up, no pg_temp, copies that verify, nothing stray.
. "$(dirname "$0")/lib/cluster_common.sh"

CL=$T/cl
cf "$CL" mkfs --osd-size 256M --pg-num 32 >/dev/null || fail mkfs
N=36
for i in $(seq 1 $N); do
	head -c $(((i * 7919) % 400000 + 1000)) /dev/urandom >"$T/in.$i"
	cf "$CL" rados put "o$i" "$T/in.$i" || fail "put o$i"
done
cf "$CL" osd out 3 >/dev/null || fail "osd out"
cf "$CL" osd crush reweight osd.5 0.0002 >/dev/null || fail "crush reweight"
cf "$CL" osd reweight 8 0.5 >/dev/null || fail "reweight"
t0=$(cf "$CL" osd dump | grep -c '^pg_temp') || fail "no pg_temp after the changes"

readback() {
	for i in $(seq 1 $N); do
		cf "$CL" rados get "o$i" "$T/out" 2>"$T/get.err" || fail "$1: get o$i: $(cat "$T/get.err")"
		cmp -s "$T/in.$i" "$T/out" || fail "$1: o$i differs"
	done
}

kills=0
for delay in 0.02 0.05 0.08 0.11 0.15 0.2 0.03 0.25; do
	"$CRUSHFS" --cluster "$CL" rebalance >/dev/null 2>&1 &
	pid=$!
	# not a wait: the moment of the kill, a different one each round
	sleep "$delay"
	if kill -9 "$pid" 2>/dev/null; then
		kills=$((kills + 1))
	fi
	# killed (137), or it had finished (0) before the kill came
	reap "$pid" "the rebalance killed at ${delay}s" 0 137
	readback "after a kill at ${delay}s"
done
[ "$kills" -gt 0 ] || fail "rebalance always ended before the kill"
ok "$kills rebalances killed with -9 ($t0 pg_temp entries to start): every object reads back"

cf "$CL" rebalance >"$T/rb" || fail "rebalance: $(cat "$T/rb")"
[ "$(cf "$CL" osd dump | grep -c '^pg_temp')" = 0 ] || fail "pg_temp left: $(cf "$CL" osd dump | grep pg_temp)"
cf "$CL" pg ls remapped | grep -q '^1\.' && fail "remapped PGs left: $(cf "$CL" pg ls remapped)"
cf "$CL" -f json pg dump | py '
import json, sys
for p in json.load(sys.stdin)["pg_map"]["pg_stats"]:
    if p["up"] != p["acting"] or p["state"] != "active+clean":
        sys.exit("%s: up %s acting %s %s" % (p["pgid"], p["up"], p["acting"], p["state"]))' ||
	fail "PGs not clean"
readback "after the last rebalance"
cf "$CL" check --deep >"$T/ck" 2>&1 || fail "check --deep: $(cat "$T/ck")"
cf "$CL" scrub --deep >"$T/sc" 2>&1 || fail "scrub --deep: $(tail -3 "$T/sc")"
ok "then one rebalance ends it: acting = up everywhere, every PG active+clean, replicas agree, scrub clean"
