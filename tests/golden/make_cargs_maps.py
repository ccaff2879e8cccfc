#!/usr/bin/env python3
"""make_cargs_maps.py - the choose_args golden maps (maps/cargs_*.txt).

Each map is a plain map (make_maps.Map) with choose_args sections appended
the way a Ceph cluster carries them: weight sets for straw2 buckets, shadow
(per-class) buckets included, 1 to 3 positions, some with replacement ids,
sets for the default id (printed 18446744073709551615 by crushtool -d), for
pool ids and for id 0 (the one crushtool --test uses).  Weights come from a
seeded generator, so the maps are the same on every run.

Usage: make_cargs_maps.py OUTDIR
Needs crushtool (the maps are normalised with crushtool -c / -d, and the
shadow buckets of the class map are read from crushtool's output).
"""
import os
import random
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_maps import Map, fmt, std_rules, std_types  # noqa: E402

DEFAULT = 18446744073709551615


def crushtool_roundtrip(text):
    with tempfile.TemporaryDirectory() as d:
        src, binf = os.path.join(d, "m.txt"), os.path.join(d, "m.bin")
        with open(src, "w") as f:
            f.write(text)
        subprocess.run(["crushtool", "-c", src, "-o", binf], check=True)
        return subprocess.run(["crushtool", "-d", binf], check=True,
                              capture_output=True, text=True).stdout


def buckets_of(text):
    """(id, alg, size) of every bucket crushtool -d printed, plus the shadow
    buckets: (shadow id, 'straw2'-or-alg, size) from the 'id N class C'
    lines, sized as CrushWrapper::device_class_clone builds them."""
    out, dev_class, blocks = [], {}, []
    for m in re.finditer(r"^device (\d+) \S+(?: class (\S+))?$", text, re.M):
        dev_class[m.group(1)] = m.group(2)
    for m in re.finditer(r"^\S+ (\S+) \{\n(.*?)^\}", text, re.M | re.S):
        if "\talg " in m.group(2):
            blocks.append((m.group(1), m.group(2)))
    names = {name for name, _ in blocks}
    for name, body in blocks:
        bid = int(re.search(r"^\tid (-\d+)\t", body, re.M).group(1))
        alg = re.search(r"^\talg (\S+)", body, re.M).group(1)
        items = re.findall(r"^\titem (\S+) ", body, re.M)
        out.append((bid, alg, len(items)))
        for sid, cls in re.findall(r"^\tid (-\d+) class (\S+)", body, re.M):
            n = 0
            for it in items:
                if it in names:
                    n += 1
                elif dev_class.get(it.split(".")[1]) == cls:
                    n += 1
            out.append((int(sid), alg, n))
    return out


def weight_sets(rng, buckets, positions, ids_for=(), zero_some=False):
    lines = []
    for bid, alg, size in sorted(buckets, reverse=True):
        if alg != "straw2" and not ids_for:
            continue
        lines.append("  {")
        lines.append("    bucket_id %d" % bid)
        if positions:
            lines.append("    weight_set [")
            for _ in range(positions):
                ws = []
                for _ in range(size):
                    w = rng.choice([0.25, 0.5, 1, 1.5, 2, 3.25, 4.75]) * \
                        rng.uniform(0.7, 1.3)
                    if zero_some and rng.random() < 0.15:
                        w = 0
                    ws.append("%.3f" % w)
                lines.append("      [ %s ]" % " ".join(ws))
            lines.append("    ]")
        if bid in ids_for:
            lines.append("    ids [ %s ]" % " ".join(
                str(-1000 - 10 * k + bid) for k in range(size)))
        lines.append("  }")
    return lines


def section(cid, body):
    return ["choose_args %d {" % cid] + body + ["}"]


def hosts_map(nhosts, per, rules=True, classes=None, alg="straw2"):
    m = Map("jewel")
    std_types(m, ["osd", "host", "rack", "root"])
    o, hitems = 0, []
    for h in range(nhosts):
        items = []
        for k in range(per):
            items.append((m.dev(o), fmt(1 + (o % 3) * 0.5)))
            o += 1
        hitems.append((m.bucket("host", "h%d" % h, alg, items), None))
    m.bucket("root", "default", "straw2", hitems)
    if rules:
        std_rules(m)
    text = m.text()
    if classes:
        text = re.sub(r"^device (\d+) (\S+)$",
                      lambda mm: "device %s %s class %s" % (
                          mm.group(1), mm.group(2),
                          classes[int(mm.group(1)) % len(classes)]),
                      text, flags=re.M)
    return text


def finish(text, sections):
    body = text.rstrip("\n").replace("# end crush map", "").rstrip("\n")
    return body + "\n" + "\n".join(sections) + "\n"


def main():
    outdir = sys.argv[1]
    rng = random.Random(20261125)
    maps = {}

    # the balancer's crush-compat result: one default set, one position
    base = crushtool_roundtrip(hosts_map(4, 3))
    b = buckets_of(base)
    maps["cargs_default_1pos"] = finish(
        base, section(DEFAULT, weight_sets(rng, b, 1)))

    # a set per replica position, replacement ids on two buckets, and a
    # set for id 0 (crushtool --test's) next to the default
    base = crushtool_roundtrip(hosts_map(5, 4))
    b = buckets_of(base)
    ids = {b[0][0], b[-1][0]}
    maps["cargs_positions_ids"] = finish(
        base,
        section(0, weight_sets(rng, b, 3, ids_for=ids)) +
        section(DEFAULT, weight_sets(rng, b, 2, zero_some=True)))

    # per-pool sets (OSDMap uses the pool id's, else the default's)
    base = crushtool_roundtrip(hosts_map(6, 2))
    b = buckets_of(base)
    maps["cargs_pools"] = finish(
        base,
        section(DEFAULT, weight_sets(rng, b, 1)) +
        section(1, weight_sets(rng, b, 2)) +
        section(3, weight_sets(rng, b, 1, zero_some=True)))

    # a device-class map as a Luminous+ cluster prints it: weight sets for
    # the shadow buckets too
    base = crushtool_roundtrip(hosts_map(4, 4, classes=["hdd", "ssd",
                                                        "hdd"]))
    base = re.sub(r"step take default$", "step take default class hdd",
                  base, count=2, flags=re.M)
    base = crushtool_roundtrip(base)
    b = buckets_of(base)
    maps["cargs_classes"] = finish(
        base, section(DEFAULT, weight_sets(rng, b, 1)) +
        section(2, weight_sets(rng, b, 3)))

    # straw and list hosts: their args are carried but never used, and
    # crushtool -d drops them (update_choose_args)
    base = crushtool_roundtrip(hosts_map(3, 3, alg="straw"))
    b = buckets_of(base)
    straw_ids = {bid for bid, alg, _ in b if alg == "straw"}
    maps["cargs_non_straw2"] = finish(
        base, section(DEFAULT, weight_sets(rng, b, 1, ids_for=straw_ids)))

    for name, text in maps.items():
        if name != "cargs_non_straw2":  # keeps what crushtool -d drops
            text = crushtool_roundtrip(text)
        with open(os.path.join(outdir, name + ".txt"), "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
