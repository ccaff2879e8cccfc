#!/usr/bin/env bash
# check_import.sh CRUSHFS [FIXDIR...] - `mkfs --from-ceph` against the live
# cluster's own answers recorded with each snapshot (make_import_fixtures.sh):
#   osd map POOL OBJ -f json   every entry of osd_map.json, every field
#   pg dump -f json            up, acting and both primaries of every PG
#                              of pg_dump.json (and no PG more or less)
#   osd df -f json             crush weight, reweight, kb, kb_used (with
#                              --prefill) and PG count of every OSD
#   df -f json                 every pool's MAX AVAIL (to 10 ppm: Ceph sums KiB)
# Needs no Ceph: the fixtures are committed.
set -euo pipefail
crushfs=${1:?usage: check_import.sh CRUSHFS [FIXDIR...]}
here=$(cd "$(dirname "$0")" && pwd)
shift
fixtures=("$@")
[ ${#fixtures[@]} -gt 0 ] || fixtures=("$here"/fixtures/*/)
work=$(mktemp -d /tmp/crushfs-import.XXXXXX)
trap 'rm -rf "$work"' EXIT

for fix in "${fixtures[@]}"; do
	fix=${fix%/}
	name=$(basename "$fix")
	"$crushfs" --cluster "$work/$name" mkfs --from-ceph "$fix" --prefill \
		-f json >"$work/$name.mkfs.json" 2>"$work/$name.mkfs.err"
	/usr/bin/env python3 - "$crushfs" "$work/$name" "$fix" <<'PY'
import concurrent.futures, json, subprocess, sys

crushfs, cluster, fix = sys.argv[1:4]
fails = []

def run(*args):
    out = subprocess.run([crushfs, "--cluster", cluster, *args, "-f", "json"],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)

# osd map: every answer the live cluster gave (four commands at a time)
want = json.load(open(f"{fix}/osd_map.json"))
keys = ("epoch", "pool", "pool_id", "objname", "raw_pgid", "pgid", "up",
        "up_primary", "acting", "acting_primary")
with concurrent.futures.ThreadPoolExecutor(4) as ex:
    answers = list(ex.map(lambda w: run("osd", "map", w["pool"],
                                        w["objname"]), want))
for w, got in zip(want, answers):
    for k in keys:
        if got.get(k) != w[k]:
            fails.append(f"osd map {w['pool']} {w['objname']}: {k} "
                         f"{got.get(k)!r}, live cluster {w[k]!r}")
pools = sorted({w["pool"] for w in want})

# pg dump: up/acting per PG, every pool
live = {p["pgid"]: p for p in json.load(open(f"{fix}/pg_dump.json"))["pg_stats"]}
ours = {p["pgid"]: p for p in run("pg", "dump")["pg_map"]["pg_stats"]}
if set(live) != set(ours):
    fails.append(f"pg dump: PGs {sorted(set(live) ^ set(ours))} "
                 "are in one dump only")
for pgid in sorted(set(live) & set(ours)):
    for k in ("up", "up_primary", "acting", "acting_primary"):
        if live[pgid][k] != ours[pgid][k]:
            fails.append(f"pg {pgid}: {k} {ours[pgid][k]!r}, live "
                         f"cluster {live[pgid][k]!r}")

# osd df: sizes, fill (prefilled) and PG counts
live = {n["id"]: n for n in json.load(open(f"{fix}/osd_df.json"))["nodes"]}
ours = {n["id"]: n for n in run("osd", "df")["nodes"]}
nosd = len(live)
for i in sorted(live):
    for k in ("crush_weight", "reweight", "kb", "kb_used", "pgs"):
        if i not in ours or live[i][k] != ours[i].get(k):
            fails.append(f"osd df osd.{i}: {k} "
                         f"{ours.get(i, {}).get(k)!r}, live cluster "
                         f"{live[i][k]!r}")

# df: MAX AVAIL of every pool (PGMap::get_rule_avail on the prefilled
# OSDs); Ceph works in KiB with floats, so a few hundred bytes apart
try:
    live = {p["name"]: p["stats"] for p in json.load(open(f"{fix}/df.json"))["pools"]}
except FileNotFoundError:
    live = {}
ours = {p["name"]: p["stats"] for p in run("df")["pools"]}
for name in sorted(live):
    a, b = ours.get(name, {}).get("max_avail"), live[name]["max_avail"]
    if a is None or abs(a - b) > max(65536, b * 1e-5):
        fails.append(f"df {name}: max_avail {a!r}, live cluster {b!r}")

for f in fails[:40]:
    print(f)
if fails:
    print(f"{fix}: {len(fails)} differences from the live cluster")
    sys.exit(1)
print(f"{fix}: {len(want)} osd map answers ({len(pools)} pools), "
      f"{nosd} OSDs, every PG and every pool's MAX AVAIL equal to the live "
      "cluster's")
PY
done
