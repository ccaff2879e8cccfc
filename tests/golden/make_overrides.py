#!/usr/bin/env python3
"""make_overrides.py - the osdmap override files of the golden corpus
(overrides/*.txt, read by `crushfs osdmap test-map-pgs-dump --overrides`).

For each (map, pool, pg_num) below, the PGs' acting sets come from the
oracle (osdmaptool through oracle.sh), and a seeded generator writes
entries of every kind Ceph's _pg_to_up_acting_osds handles, with the edge
cases it treats specially:
  pg_upmap_items  a valid swap, a target already in the set (skipped), a
                  source not in the set (skipped), chains (a->b then b->c),
                  a swap attempt (a->b, b->a), a target that is not an OSD
  pg_upmap        a full set, duplicates, CRUSH_ITEM_NONE, shorter and
                  longer than the pool, a missing OSD
  pg_temp         shorter and longer than the pool, a missing OSD
  primary_temp    with and without a pg_temp, an OSD outside the set
  primary-affinity 0, 0.25, 0.5, 0.75 and 1 on a third of the OSDs
  and PGs carrying several kinds at once.

Usage: make_overrides.py   (from tests/golden; needs crushtool, osdmaptool)
"""
import os
import random
import re
import subprocess

CASES = [  # map, pool, pg_num
    ("default_12osd", 1, 64),
    ("real_cluster", 3, 128),
    ("class_real_3", 2, 64),
    ("cargs_pools", 1, 64),
]
NONE = 2147483647


def acting_sets(mapf, pool, pg_num):
    out = subprocess.run(
        ["bash", "oracle.sh", "osdmap", "test-map-pgs-dump", "--crush",
         "maps/%s.txt" % mapf, "--pool", str(pool), "--pg-num", str(pg_num)],
        check=True, capture_output=True, text=True).stdout
    sets = {}
    for m in re.finditer(r"^%d\.([0-9a-f]+)\t\[([0-9,]*)\]" % pool, out,
                         re.M):
        sets[int(m.group(1), 16)] = [int(x) for x in m.group(2).split(",")
                                     if x]
    osds = sorted({o for s in sets.values() for o in s})
    return sets, osds


def main():
    os.makedirs("overrides", exist_ok=True)
    for mapf, pool, pg_num in CASES:
        rng = random.Random("%s-%d-%d" % (mapf, pool, pg_num))
        sets, osds = acting_sets(mapf, pool, pg_num)
        hi = max(osds) + 1
        pgs = list(range(pg_num))
        rng.shuffle(pgs)
        lines = ["# %s, pool %d, pg_num %d (make_overrides.py)" %
                 (mapf, pool, pg_num)]

        def pg(ps):
            return "%d.%x" % (pool, ps)

        def other(s):
            return rng.choice([o for o in osds if o not in s])

        take = iter(pgs)
        for _ in range(6):                       # valid swaps
            ps = next(take)
            s = sets[ps]
            if not s:
                continue
            pairs = []
            for a in rng.sample(s, min(len(s), rng.randint(1, 2))):
                pairs += [a, other(s + pairs[1::2])]
            lines.append("osd pg-upmap-items %s %s" %
                         (pg(ps), " ".join(map(str, pairs))))
        ps = next(take)                          # target already there
        s = sets[ps]
        if len(s) >= 2:
            lines.append("osd pg-upmap-items %s %d %d" % (pg(ps), s[0], s[1]))
        ps = next(take)                          # source not in the set
        lines.append("osd pg-upmap-items %s %d %d" %
                     (pg(ps), other(sets[ps]), other(sets[ps])))
        ps = next(take)                          # chain a->b, b->c
        s = sets[ps]
        if s:
            b = other(s)
            c = other(s + [b])
            lines.append("osd pg-upmap-items %s %d %d %d %d" %
                         (pg(ps), s[-1], b, b, c))
        ps = next(take)                          # swap attempt
        s = sets[ps]
        if len(s) >= 2:
            lines.append("osd pg-upmap-items %s %d %d %d %d" %
                         (pg(ps), s[0], s[1], s[1], s[0]))
        ps = next(take)                          # target is no OSD
        if sets[ps]:
            lines.append("osd pg-upmap-items %s %d %d" %
                         (pg(ps), sets[ps][0], hi + 7))
        for n in (3, 3, 1, 4):                   # pg_upmap sizes
            ps = next(take)
            lines.append("osd pg-upmap %s %s" %
                         (pg(ps), " ".join(map(str, rng.sample(osds, n)))))
        ps = next(take)
        a = rng.choice(osds)
        lines.append("osd pg-upmap %s %d %d %d" % (pg(ps), a, a, other([a])))
        ps = next(take)
        lines.append("osd pg-upmap %s %d %d %d" %
                     (pg(ps), NONE, rng.choice(osds), hi + 3))
        for n in (2, 3, 5):                      # pg_temp
            ps = next(take)
            lines.append("osd pg-temp %s %s" %
                         (pg(ps), " ".join(map(str, rng.sample(osds, n)))))
        ps = next(take)
        lines.append("osd pg-temp %s %d %d %d" %
                     (pg(ps), hi + 1, rng.choice(osds), other([])))
        ps = next(take)                          # primary_temp, no pg_temp
        lines.append("osd primary-temp %s %d" % (pg(ps), other(sets[ps])))
        ps = next(take)
        if sets[ps]:
            lines.append("osd primary-temp %s %d" % (pg(ps), sets[ps][-1]))
        ps = next(take)                          # everything at once
        s = sets[ps]
        if s:
            lines.append("osd pg-upmap %s %s" %
                         (pg(ps), " ".join(map(str, rng.sample(osds, 3)))))
            lines.append("osd pg-upmap-items %s %d %d" %
                         (pg(ps), rng.choice(osds), rng.choice(osds)))
            t = rng.sample(osds, 3)
            lines.append("osd pg-temp %s %s" % (pg(ps), " ".join(map(str, t))))
            lines.append("osd primary-temp %s %d" % (pg(ps), t[1]))
        for o in rng.sample(osds, max(1, len(osds) // 3)):
            lines.append("osd primary-affinity osd.%d %s" %
                         (o, rng.choice(["0", "0.25", "0.5", "0.75", "1"])))
        with open("overrides/%s.txt" % mapf, "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
