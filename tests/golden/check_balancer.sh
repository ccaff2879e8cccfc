#!/usr/bin/env bash
# check_balancer.sh CRUSHFS - the upmap balancer against osdmaptool's: for
# each case of balancer/cases.txt, `crushfs osdmap upmap` with the same
# limits must leave a PG-per-OSD max deviation (measured by `crushfs
# osdmap eval`) no worse than the best of the five committed osdmaptool
# plans, with no more entries than osdmaptool used for that result (its
# runs differ by a few entries; the largest of the runs that reached the
# best deviation is the bound).  Needs only bash and awk.
set -uo pipefail
crushfs=$1
cd "$(dirname "$0")"
fail=0 n=0
while read -r m p n_pg mx dv; do
    [[ -z $m || $m == \#* ]] && continue
    args=(--crush "maps/$m.txt" --pool "$p" --pg-num "$n_pg")
    dev() { "$crushfs" osdmap eval "${args[@]}" "$@" | awk '/^max deviation/{print $3}'; }
    best= bound=0
    for f in balancer/$m-$p-$n_pg-$mx-$dv.[0-9].txt; do
        d=$(dev --overrides "$f") e=$(grep -c . "$f")
        if [[ -z $best ]] || awk -v a="$d" -v b="$best" 'BEGIN{exit !(a < b - 0.005)}'; then
            best=$d bound=$e
        elif awk -v a="$d" -v b="$best" 'BEGIN{exit !(a <= b + 0.005)}' && ((e > bound)); then
            bound=$e
        fi
    done
    tmp=$(mktemp)
    "$crushfs" osdmap upmap "${args[@]}" --upmap-max "$mx" --upmap-deviation "$dv" >"$tmp" 2>/dev/null || { echo "FAIL $m: osdmap upmap failed"; fail=1; rm -f "$tmp"; continue; }
    ours=$(dev --overrides "$tmp") oe=$(grep -c . "$tmp")
    before=$(dev)
    rm -f "$tmp"
    n=$((n + 1))
    if awk -v a="$ours" -v b="$best" 'BEGIN{exit !(a <= b + 0.005)}' && ((oe <= bound)); then
        echo "ok   $m pool $p pg_num $n_pg max $mx dev $dv: max deviation $before -> $ours with $oe entries (osdmaptool best $best, $bound entries)"
    else
        echo "FAIL $m pool $p pg_num $n_pg max $mx dev $dv: max deviation $before -> $ours with $oe entries (osdmaptool best $best, $bound entries)"
        fail=1
    fi
done < balancer/cases.txt
echo "balancer: $n cases, $([[ $fail == 0 ]] && echo all passed || echo FAILED)"
exit $fail
