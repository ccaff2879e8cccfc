#!/usr/bin/env bash
# gen_balancer.sh - five osdmaptool --upmap plans per case of
# balancer/cases.txt (Ceph 16.2.15), kept as balancer/MAP-POOL-PGNUM-MAX-DEV.K.txt:
# osdmaptool shuffles with a random seed, so each run may differ.  The
# osdmap is oracle.sh's (the map's crush map, the pool, every OSD up and
# in).  check_balancer.sh compares crushfs's plan with the best of them.
# Needs crushtool, osdmaptool, python3 (apt-get install ceph-base).
set -euo pipefail
cd "$(dirname "$0")"
CACHE=${ORACLE_CACHE:-/tmp/crushfs-oracle-$(id -u)}
mkdir -p "$CACHE"
# oracle.sh's osdmap builder, without running its command dispatch
source <(sed -n '/^die()/p;/^compiled()/,/^}/p;/^patch_osdmap()/,/^}/p;/^osdmap_for()/,/^}/p' oracle.sh)
rm -f balancer/*.[0-9].txt
while read -r m p n mx dv; do
    [[ -z $m || $m == \#* ]] && continue
    om=$(osdmap_for "maps/$m.txt" "$p" "$n" "$n" 3)
    for k in 1 2 3 4 5; do
        out=balancer/$m-$p-$n-$mx-$dv.$k.txt
        timeout 300 osdmaptool "$om" --mark-up-in --upmap "$out" \
            --upmap-max "$mx" --upmap-deviation "$dv" --upmap-pool rbd \
            >/dev/null 2>&1
    done
done < balancer/cases.txt
echo "gen_balancer.sh: $(ls balancer/*.[0-9].txt | wc -l) plans"
