#!/usr/bin/env python3
"""Write the raw crush maps of the golden corpus (tests/golden/maps/).

This helper is only needed to change the corpus: the maps it produced are
committed. Every map except those in KEEP_RAW is then normalised by
`crushtool -c` + `crushtool -d` (see gen_golden.sh --maps), so the committed
files are exactly what `crushtool -d` prints. handwritten.txt is kept as
written (comments, missing weights, `ruleset`, no tunables) to exercise the
parser on input a user might paste; weights_odd.txt is kept as written
because `crushtool -d` prints weights with 3 decimals and its point is the
parsing of weights such as 0.999999, 1.23456789, 0.00001 and 4.097.

Usage: make_maps.py OUTDIR      (writes OUTDIR/*.txt, raw)
"""
import os
import random
import sys

KEEP_RAW = ["handwritten", "weights_odd"]

PROFILES = {
    # as CrushWrapper::set_tunables_<profile>() sets them (Ceph 16.2)
    "legacy": dict(choose_local_tries=2, choose_local_fallback_tries=5,
                   choose_total_tries=19, chooseleaf_descend_once=0,
                   chooseleaf_vary_r=0, chooseleaf_stable=0,
                   straw_calc_version=0, allowed_bucket_algs=22),
    "bobtail": dict(choose_local_tries=0, choose_local_fallback_tries=0,
                    choose_total_tries=50, chooseleaf_descend_once=1,
                    chooseleaf_vary_r=0, chooseleaf_stable=0,
                    straw_calc_version=0, allowed_bucket_algs=22),
    "firefly": dict(choose_local_tries=0, choose_local_fallback_tries=0,
                    choose_total_tries=50, chooseleaf_descend_once=1,
                    chooseleaf_vary_r=1, chooseleaf_stable=0,
                    straw_calc_version=1, allowed_bucket_algs=22),
    "hammer": dict(choose_local_tries=0, choose_local_fallback_tries=0,
                   choose_total_tries=50, chooseleaf_descend_once=1,
                   chooseleaf_vary_r=1, chooseleaf_stable=0,
                   straw_calc_version=1, allowed_bucket_algs=54),
    "jewel": dict(choose_local_tries=0, choose_local_fallback_tries=0,
                  choose_total_tries=50, chooseleaf_descend_once=1,
                  chooseleaf_vary_r=1, chooseleaf_stable=1,
                  straw_calc_version=1, allowed_bucket_algs=54),
}
TUNABLE_ORDER = ["choose_local_tries", "choose_local_fallback_tries",
                 "choose_total_tries", "chooseleaf_descend_once",
                 "chooseleaf_vary_r", "chooseleaf_stable",
                 "straw_calc_version", "allowed_bucket_algs"]


class Map:
    def __init__(self, profile="jewel", **over):
        self.tun = dict(PROFILES[profile]) if profile else None
        if over:
            self.tun.update(over)
        self.devices = []          # (id, name)
        self.types = []            # (id, name)
        self.buckets = []          # (type, name, id, alg, items)
        self.rules = []            # (name, id, type, min, max, steps)
        self.next_bid = -1

    def dev(self, i):
        self.devices.append((i, "osd.%d" % i))
        return "osd.%d" % i

    def bucket(self, typ, name, alg, items, bid=None):
        if bid is None:
            bid = self.next_bid
            self.next_bid -= 1
        self.buckets.append((typ, name, bid, alg, items))
        return name

    def rule(self, name, rid, steps, typ="replicated", mn=1, mx=10):
        self.rules.append((name, rid, typ, mn, mx, steps))

    def text(self):
        out = []
        if self.tun:
            for k in TUNABLE_ORDER:
                out.append("tunable %s %d" % (k, self.tun[k]))
        out.append("")
        for i, n in sorted(self.devices):
            out.append("device %d %s" % (i, n))
        out.append("")
        for i, n in self.types:
            out.append("type %d %s" % (i, n))
        out.append("")
        for typ, name, bid, alg, items in self.buckets:
            out.append("%s %s {" % (typ, name))
            out.append("\tid %d" % bid)
            out.append("\talg %s" % alg)
            out.append("\thash 0")
            for it, w in items:
                if w is None:
                    out.append("\titem %s" % it)
                else:
                    out.append("\titem %s weight %s" % (it, w))
            out.append("}")
        for name, rid, typ, mn, mx, steps in self.rules:
            out.append("rule %s {" % name)
            out.append("\tid %d" % rid)
            out.append("\ttype %s" % typ)
            out.append("\tmin_size %d" % mn)
            out.append("\tmax_size %d" % mx)
            for s in steps:
                out.append("\tstep %s" % s)
            out.append("}")
        return "\n".join(out) + "\n"


def fmt(w):
    return ("%.5f" % w).rstrip("0").rstrip(".") if w != int(w) else "%d.000" % w


def std_types(m, names):
    for i, n in enumerate(names):
        m.types.append((i, n))


def two_level(m, hosts, host_alg, root_alg, root="default", osd_base=0,
              explicit_parent=True):
    """hosts: list of per-host weight lists. Returns next osd id."""
    o = osd_base
    hitems = []
    for hi, ws in enumerate(hosts):
        items = []
        for w in ws:
            items.append((m.dev(o), fmt(w)))
            o += 1
        hn = m.bucket("host", "%s-h%d" % (root, hi), host_alg, items)
        hitems.append((hn, fmt(sum(ws)) if explicit_parent else None))
    m.bucket("root", root, root_alg, hitems)
    return o


def std_rules(m, root="default", leaf="host", extra=True):
    m.rule("replicated_rule", 0, ["take %s" % root,
                                  "chooseleaf firstn 0 type %s" % leaf, "emit"])
    m.rule("ec_rule", 1, ["set_chooseleaf_tries 5", "set_choose_tries 100",
                          "take %s" % root,
                          "chooseleaf indep 0 type %s" % leaf, "emit"],
           typ="erasure", mn=3, mx=6)
    if extra:
        m.rule("choose_osd_firstn", 2, ["take %s" % root,
                                        "choose firstn 0 type osd", "emit"])
        m.rule("choose_osd_indep", 3, ["take %s" % root,
                                       "choose indep 0 type osd", "emit"])
        m.rule("host_then_osd", 4, ["take %s" % root,
                                    "choose firstn 0 type %s" % leaf,
                                    "choose firstn 1 type osd", "emit"])


def maps():
    M = {}

    # ---- crushfs defaults: 12 osds on 4 hosts, straw2 ---------------
    m = Map("jewel")
    std_types(m, ["osd", "host", "root"])
    two_level(m, [[1.0] * 3] * 4, "straw2", "straw2")
    std_rules(m)
    M["default_12osd"] = m

    # ---- one map per bucket algorithm ---------------------------------
    m = Map("jewel")
    std_types(m, ["osd", "host", "root"])
    o = 0
    hitems = []
    for hi, (n, w) in enumerate([(3, 1.0), (4, 2.5), (5, 0.5), (1, 3.0),
                                 (2, 1.0), (7, 0.25), (6, 0.123)]):
        items = []
        for _ in range(n):
            items.append((m.dev(o), fmt(w)))
            o += 1
        hitems.append((m.bucket("host", "u%d" % hi, "uniform", items),
                       fmt(n * w)))
    m.bucket("root", "default", "straw2", hitems)
    flat = []
    for _ in range(9):
        flat.append((m.dev(o), "1.000"))
        o += 1
    m.bucket("root", "flatu", "uniform", flat)
    std_rules(m)
    m.rule("flatu_firstn", 5, ["take flatu", "choose firstn 0 type osd", "emit"])
    m.rule("flatu_indep", 6, ["take flatu", "choose indep 0 type osd", "emit"])
    M["alg_uniform"] = m

    weights_sets = [
        [1.0, 2.0, 0.5, 3.0],
        [1.0, 0.0, 1.0],
        [0.001, 4.0, 2.5, 0.123, 1.0],
        [5.0],
        [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
        [2.0, 2.0, 0.75, 0.75, 9.5, 0.25, 1.0, 3.0],
        [0.5, 0.25],
        [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0],
    ]
    for alg in ["list", "tree", "straw2"]:
        m = Map("jewel")
        std_types(m, ["osd", "host", "root"])
        two_level(m, weights_sets, alg, alg)
        std_rules(m)
        M["alg_%s" % alg] = m
    for v in (0, 1):
        m = Map("jewel", straw_calc_version=v)
        std_types(m, ["osd", "host", "root"])
        two_level(m, weights_sets + [[1.0, 1.0, 2.0, 2.0, 0.0, 3.0, 0.5, 0.5]],
                  "straw", "straw")
        std_rules(m)
        M["alg_straw_v%d" % v] = m

    # ---- 200 osds in one flat straw2 bucket -----------------------------
    m = Map("jewel")
    std_types(m, ["osd", "root"])
    rnd = random.Random(200)
    items = []
    for i in range(200):
        if i % 37 == 5:
            w = 0.0
        elif i % 11 == 0:
            w = rnd.choice([0.001, 0.01, 0.123, 0.5])
        else:
            w = round(rnd.uniform(0.1, 10.0), 3)
        items.append((m.dev(i), fmt(w)))
    m.bucket("root", "default", "straw2", items)
    m.rule("flat_firstn", 0, ["take default", "choose firstn 0 type osd", "emit"],
           mx=12)
    m.rule("flat_indep", 1, ["take default", "choose indep 0 type osd", "emit"],
           typ="erasure", mx=12)
    M["straw2_flat200"] = m

    # ---- mixed algorithms in one hierarchy -------------------------------
    m = Map("hammer")
    std_types(m, ["osd", "host", "rack", "row", "root"])
    o = 0
    host_algs = ["straw2", "straw", "list", "tree", "uniform"]
    rows = []
    for ri, row_alg in enumerate(["list", "tree"]):
        racks = []
        for ki, rack_alg in enumerate(["straw", "uniform", "straw2"]):
            hosts = []
            nh = 2 if rack_alg == "uniform" else 3
            for hi in range(nh):
                halg = host_algs[(ri * 7 + ki * 3 + hi) % 5]
                n = 2 + (ri + ki + hi) % 4
                items = []
                for j in range(n):
                    w = 1.0 if halg == "uniform" or rack_alg == "uniform" else \
                        [1.0, 0.5, 2.0, 1.5, 0.0, 3.25][(o + j) % 6]
                    items.append((m.dev(o), fmt(w)))
                    o += 1
                if rack_alg == "uniform":
                    # uniform rack: every host must weigh the same
                    items = [(it, "1.000") for it, _ in items[:2]]
                hn = m.bucket("host", "r%dk%dh%d" % (ri, ki, hi), halg, items)
                hosts.append((hn, None))
            racks.append((m.bucket("rack", "r%dk%d" % (ri, ki), rack_alg, hosts),
                          None))
        rows.append((m.bucket("row", "row%d" % ri, row_alg, racks), None))
    m.bucket("root", "default", "straw2", rows)
    std_rules(m)
    m.rule("rack_leaf", 5, ["take default", "chooseleaf firstn 0 type rack",
                            "emit"])
    m.rule("row_rack_host", 6, ["take default", "choose firstn 2 type row",
                                "choose firstn 2 type rack",
                                "chooseleaf firstn 1 type host", "emit"])
    m.rule("row_indep", 7, ["take default", "choose indep 2 type row",
                            "chooseleaf indep 3 type host", "emit"],
           typ="erasure", mn=1, mx=6)
    M["mixed_algs"] = m

    # ---- tunables profiles on one hierarchy ---------------------------
    for prof in ["legacy", "bobtail", "firefly", "hammer", "jewel"]:
        m = Map(prof)
        std_types(m, ["osd", "host", "rack", "root"])
        o = 0
        racks = []
        spec = [  # (rack alg, [(host alg, weights)])
            ("straw2", [("straw2", [1.0, 1.0, 0.0, 2.0]), ("straw", [3.0]),
                        ("list", [0.5, 0.5, 1.0])]),
            ("straw", [("tree", [1.0, 2.0, 0.0, 1.0, 0.25]),
                       ("uniform", [1.0, 1.0]),
                       ("straw2", [0.0, 0.0, 1.0])]),
            ("list", [("straw", [1.0, 1.0, 1.0, 0.1]), ("straw2", [6.0, 0.01])]),
        ]
        for ki, (ralg, hosts) in enumerate(spec):
            hs = []
            for hi, (halg, ws) in enumerate(hosts):
                items = []
                for w in ws:
                    items.append((m.dev(o), fmt(w)))
                    o += 1
                hs.append((m.bucket("host", "k%dh%d" % (ki, hi), halg, items),
                           None))
            racks.append((m.bucket("rack", "rack%d" % ki, ralg, hs), None))
        m.bucket("root", "default", "straw2", racks)
        std_rules(m)
        m.rule("rack_leaf", 5, ["take default", "chooseleaf firstn 0 type rack",
                                "emit"])
        m.rule("rack_then_host", 6, ["take default", "choose firstn 0 type rack",
                                     "chooseleaf firstn 2 type host", "emit"])
        m.rule("indep_rack_host", 7, ["take default", "choose indep 3 type rack",
                                      "chooseleaf indep 2 type host", "emit"],
               typ="erasure", mn=1, mx=8)
        M["tunables_%s" % prof] = m

    # ---- rule steps ---------------------------------------------------
    m = Map("firefly")
    std_types(m, ["osd", "host", "rack", "root"])
    o = 0
    racks = []
    for ki in range(4):
        hs = []
        for hi in range(2 + ki % 3):
            items = []
            for j in range(1 + (ki + hi) % 4):
                items.append((m.dev(o), fmt([1.0, 2.0, 0.5, 1.5][(o) % 4])))
                o += 1
            hs.append((m.bucket("host", "k%dh%d" % (ki, hi), "straw2", items),
                       None))
        racks.append((m.bucket("rack", "rack%d" % ki, "straw2", hs), None))
    m.bucket("root", "default", "straw2", racks)
    ssd = []
    for hi in range(3):
        items = [(m.dev(o), "0.500"), (m.dev(o + 1), "0.500")]
        o += 2
        ssd.append((m.bucket("host", "ssd-h%d" % hi, "straw2", items), None))
    m.bucket("root", "ssdroot", "straw2", ssd)
    R = [
        ("basic", ["take default", "chooseleaf firstn 0 type host", "emit"]),
        ("rack_then_hostleaf", ["take default", "choose firstn 0 type rack",
                                "chooseleaf firstn 1 type host", "emit"]),
        ("choose_choose_choose", ["take default", "choose firstn 2 type rack",
                                  "choose firstn 2 type host",
                                  "choose firstn 1 type osd", "emit"]),
        ("ssd_primary", ["take ssdroot", "chooseleaf firstn 1 type host", "emit",
                         "take default", "chooseleaf firstn -1 type host",
                         "emit"]),
        ("ec_tries", ["set_chooseleaf_tries 5", "set_choose_tries 100",
                      "take default", "chooseleaf indep 0 type host", "emit"]),
        ("local_tries", ["set_choose_local_tries 3",
                         "set_choose_local_fallback_tries 4", "take default",
                         "choose firstn 0 type osd", "emit"]),
        ("vary_r_0", ["set_chooseleaf_vary_r 0", "take default",
                      "chooseleaf firstn 0 type host", "emit"]),
        ("stable_1", ["set_chooseleaf_stable 1", "take default",
                      "chooseleaf firstn 0 type host", "emit"]),
        ("vary_r_2", ["set_chooseleaf_vary_r 2", "take default",
                      "chooseleaf firstn 0 type rack", "emit"]),
        ("few_tries", ["set_choose_tries 1", "take default",
                       "chooseleaf firstn 0 type host", "emit"]),
        ("minus_counts", ["take default", "choose firstn -1 type rack",
                          "chooseleaf firstn -2 type host", "emit"]),
        ("fixed_count", ["take default", "chooseleaf firstn 3 type rack",
                         "emit"]),
        ("take_host", ["take k3h1", "choose firstn 0 type osd", "emit"]),
        ("take_device", ["take osd.4", "emit"]),
        ("deep_choose_osd", ["take default", "choose firstn 0 type osd", "emit"]),
        ("indep_two_level", ["take default", "choose indep 3 type rack",
                             "chooseleaf indep 2 type host", "emit"]),
        ("leaf_type_osd", ["take default", "chooseleaf firstn 0 type osd",
                           "emit"]),
        ("emit_only", ["emit"]),
        ("fallback_only", ["set_choose_local_fallback_tries 2", "take default",
                           "choose firstn 0 type host",
                           "choose firstn 1 type osd", "emit"]),
        ("indep_minus", ["set_chooseleaf_tries 2", "take default",
                         "chooseleaf indep -1 type host", "emit"]),
        ("leaf_tries_firstn", ["set_chooseleaf_tries 3", "set_chooseleaf_vary_r 0",
                               "take default", "chooseleaf firstn 0 type rack",
                               "emit"]),
        ("stable_0_vary_1", ["set_chooseleaf_stable 0", "set_chooseleaf_vary_r 1",
                             "take default", "chooseleaf firstn 0 type host",
                             "emit"]),
        ("two_takes_indep", ["take ssdroot", "choose indep 2 type osd", "emit",
                             "take default", "chooseleaf indep 0 type rack",
                             "emit"]),
        ("choose_root_type", ["take default", "choose firstn 0 type root",
                              "emit"]),
    ]
    for i, (n, steps) in enumerate(R):
        m.rule(n, i, steps, typ="erasure" if "indep" in n or n == "ec_tries"
               else "replicated")
    M["rule_steps"] = m

    # ---- deep hierarchy ---------------------------------------------------
    m = Map("jewel")
    std_types(m, ["osd", "host", "rack", "row", "datacenter", "root"])
    o = 0
    dcs = []
    rnd = random.Random(5)
    for di in range(2):
        rows = []
        for wi in range(2 + di):
            racks = []
            for ki in range(2 + (wi % 2)):
                hosts = []
                for hi in range(1 + (di + wi + ki) % 4):
                    items = []
                    for _ in range(1 + (hi + ki) % 5):
                        items.append((m.dev(o), fmt(rnd.choice(
                            [1.0, 1.819, 3.639, 7.277, 0.5]))))
                        o += 1
                    hosts.append((m.bucket("host", "d%dw%dk%dh%d" % (di, wi, ki, hi),
                                           "straw2", items), None))
                racks.append((m.bucket("rack", "d%dw%dk%d" % (di, wi, ki),
                                       "straw2", hosts), None))
            rows.append((m.bucket("row", "d%dw%d" % (di, wi), "straw2", racks),
                         None))
        dcs.append((m.bucket("datacenter", "dc%d" % di, "straw2", rows), None))
    m.bucket("root", "default", "straw2", dcs)
    std_rules(m)
    m.rule("dc_rack", 5, ["take default", "choose firstn 0 type datacenter",
                          "chooseleaf firstn 2 type rack", "emit"])
    m.rule("dc_row_host", 6, ["take default", "choose firstn 2 type datacenter",
                              "choose firstn 2 type row",
                              "chooseleaf firstn 1 type host", "emit"])
    m.rule("dc_indep", 7, ["take default", "choose indep 2 type datacenter",
                           "chooseleaf indep 3 type rack", "emit"],
           typ="erasure", mn=1, mx=6)
    m.rule("row_leaf", 8, ["take default", "chooseleaf firstn 0 type row", "emit"])
    M["deep_hierarchy"] = m

    # ---- non-contiguous ids, unused devices, odd type ids ---------------
    m = Map("jewel")
    m.types = [(0, "osd"), (2, "host"), (5, "rack"), (11, "root")]
    ids = [0, 2, 3, 7, 8, 15, 16, 23, 31, 42, 63, 64, 99]
    for i in ids:
        m.dev(i)
    for i in [50, 77, 98, 5]:
        m.dev(i)   # declared, in no bucket
    def items(lst, w="1.000"):
        return [("osd.%d" % i, w) for i in lst]
    m.bucket("host", "hA", "straw2", items([0, 99, 31]), bid=-3)
    m.bucket("host", "hB", "straw2", items([2, 63]), bid=-10)
    m.bucket("host", "hC", "straw2", items([3, 7, 8, 15]), bid=-42)
    m.bucket("host", "hD", "straw2", items([16]), bid=-7)
    m.bucket("host", "hE", "straw2", items([23, 42, 64], "2.000"), bid=-20)
    m.bucket("rack", "rk1", "straw2", [("hA", None), ("hB", None)], bid=-5)
    m.bucket("rack", "rk2", "straw2", [("hC", None), ("hD", None), ("hE", None)],
             bid=-12)
    m.bucket("root", "default", "straw2", [("rk1", None), ("rk2", None)], bid=-1)
    m.rule("replicated_rule", 0, ["take default", "chooseleaf firstn 0 type host",
                                  "emit"])
    m.rule("rack_rule", 4, ["take default", "chooseleaf firstn 0 type rack",
                            "emit"])
    m.rule("osd_indep", 9, ["take default", "choose indep 0 type osd", "emit"],
           typ="erasure")
    M["ids_gaps"] = m

    # ---- odd weights ----------------------------------------------------
    m = Map("jewel")
    std_types(m, ["osd", "host", "root"])
    hw = [
        [0.123, 2.5, 0.001],
        [4.097, 64.3, 7.722],          # float(w)*65536 != w*65536 truncation
        [0.00001, 0.999999, 1.23456789],
        [0.0, 0.0],                     # all-zero host
        [100.0, 0.5],
        [3.63869, 1.81929, 0.90970, 0.45479],
    ]
    o = 0
    hitems = []
    for hi, ws in enumerate(hw):
        its = []
        for w in ws:
            its.append((m.dev(o), ("%.8f" % w).rstrip("0").rstrip(".")
                        if w != 0 else "0.000"))
            o += 1
        hn = m.bucket("host", "w%d" % hi, "straw2", its)
        hitems.append((hn, None))
    # explicit parent weights that disagree with the children's sums
    hitems[0] = ("w0", "5.000")
    hitems[3] = ("w3", "1.000")
    m.bucket("root", "default", "straw2", hitems)
    std_rules(m)
    M["weights_odd"] = m

    # ---- a realistic cluster ---------------------------------------------
    m = Map("jewel")
    std_types(m, ["osd", "host", "chassis", "rack", "row", "pdu", "pod", "room",
                  "datacenter", "zone", "region", "root"])
    rnd = random.Random(42)
    racks = []
    o = 0
    host_specs = [
        ("ceph-a01", 12, 7.27739), ("ceph-a02", 12, 7.27739),
        ("ceph-a03", 12, 7.27739), ("ceph-b01", 8, 3.63869),
        ("ceph-b02", 8, 3.63869), ("ceph-b03", 10, 3.63869),
        ("ceph-c01", 6, 1.81940), ("ceph-c02", 6, 1.81940),
        ("ceph-c03", 4, 14.55269), ("ceph-d01", 5, 0.0),   # being drained
        ("ceph-d02", 9, 5.45799),
    ]
    hosts = []
    order = list(range(sum(n for _, n, _ in host_specs)))
    for name, n, w in host_specs:
        its = []
        for _ in range(n):
            ww = w
            if w and rnd.random() < 0.08:
                ww = round(w * rnd.choice([0.5, 0.8, 0.9]), 5)
            its.append((m.dev(order[o]), fmt(ww) if ww else "0.000"))
            o += 1
        hosts.append(m.bucket("host", name, "straw2", its))
    rk = {"rack1": hosts[0:4], "rack2": hosts[4:8], "rack3": hosts[8:11]}
    rnames = []
    for r, hs in rk.items():
        rnames.append((m.bucket("rack", r, "straw2", [(h, None) for h in hs]),
                       None))
    m.bucket("root", "default", "straw2", rnames)
    m.rule("replicated_rule", 0, ["take default", "chooseleaf firstn 0 type host",
                                  "emit"])
    m.rule("ec42", 1, ["set_chooseleaf_tries 5", "set_choose_tries 100",
                       "take default", "chooseleaf indep 0 type host", "emit"],
           typ="erasure", mn=3, mx=6)
    m.rule("rack_rule", 2, ["take default", "chooseleaf firstn 0 type rack",
                            "emit"])
    m.rule("ec_rack_host", 3, ["set_chooseleaf_tries 5", "set_choose_tries 100",
                               "take default", "choose indep 3 type rack",
                               "chooseleaf indep 2 type host", "emit"],
           typ="erasure", mn=3, mx=6)
    M["real_cluster"] = m

    # ---- tiny ---------------------------------------------------------------
    m = Map("jewel")
    std_types(m, ["osd", "host", "root"])
    m.bucket("host", "lone", "straw2", [(m.dev(0), "1.000")])
    m.bucket("root", "default", "straw2", [("lone", None)])
    m.bucket("host", "pair", "list", [(m.dev(1), "1.000"), (m.dev(2), "0.500")])
    m.bucket("root", "pairroot", "tree", [("pair", None)])
    m.rule("one_host", 0, ["take default", "chooseleaf firstn 0 type host",
                           "emit"])
    m.rule("one_indep", 1, ["take default", "chooseleaf indep 0 type host",
                            "emit"], typ="erasure")
    m.rule("pair_osd", 2, ["take pairroot", "choose firstn 0 type osd", "emit"])
    m.rule("pair_indep", 3, ["take pairroot", "choose indep 0 type osd", "emit"],
           typ="erasure")
    M["tiny"] = m

    # ---- empty buckets, duplicated items, take of a device -----------------
    m = Map("jewel")
    std_types(m, ["osd", "host", "root"])
    for i in range(6):
        m.dev(i)
    m.bucket("host", "ha", "straw2", [("osd.0", "1.000"), ("osd.1", "1.000")])
    m.bucket("host", "hb", "straw2", [("osd.1", "1.000"), ("osd.2", "1.000")])
    m.bucket("host", "hempty", "straw2", [])
    m.bucket("host", "hzero", "straw2", [("osd.3", "0.000"), ("osd.4", "0.000")])
    m.bucket("host", "hc", "list", [("osd.5", "2.000")])
    m.bucket("root", "default", "straw2", [("ha", None), ("hb", None),
                                           ("hempty", None), ("hzero", None),
                                           ("hc", None)])
    m.bucket("root", "nothing", "straw2", [])
    m.rule("replicated_rule", 0, ["take default", "chooseleaf firstn 0 type host",
                                  "emit"])
    m.rule("indep", 1, ["take default", "chooseleaf indep 0 type host", "emit"],
           typ="erasure")
    m.rule("empty_root", 2, ["take nothing", "chooseleaf firstn 0 type host",
                             "emit"])
    m.rule("empty_host", 3, ["take hempty", "choose firstn 0 type osd", "emit"])
    m.rule("take_dev", 4, ["take osd.2", "emit", "take ha",
                           "choose firstn 0 type osd", "emit"])
    m.rule("choose_osd", 5, ["take default", "choose firstn 0 type osd", "emit"])
    M["edge_buckets"] = m

    # ---- rule 0 is indep (osdmap drops NONE holes for replicated pools) ----
    m = Map("jewel")
    std_types(m, ["osd", "host", "root"])
    two_level(m, [[1.0, 1.0], [2.0], [1.0, 0.5, 0.5]], "straw2", "straw2")
    m.rule("indep_replicated", 0, ["take default", "chooseleaf indep 0 type host",
                                   "emit"], mn=1, mx=5)
    m.rule("firstn", 1, ["take default", "chooseleaf firstn 0 type host", "emit"])
    M["rule0_indep"] = m

    # ---- rule 0 restricted to sizes 2..4 (osdmap gives [] outside) --------
    m = Map("jewel")
    std_types(m, ["osd", "host", "root"])
    two_level(m, [[1.0, 1.0], [1.0, 0.5], [2.0], [1.0, 1.0, 1.0], [0.75]],
              "straw2", "straw2")
    m.rule("sized", 0, ["take default", "chooseleaf firstn 0 type host", "emit"],
           mn=2, mx=4)
    m.rule("wide", 1, ["take default", "chooseleaf firstn 0 type host", "emit"],
           mn=5, mx=10)
    M["rule_sizes"] = m

    # ---- map with no rule 0 at all (osdmap: every PG maps to []) -----------
    m = Map("jewel")
    std_types(m, ["osd", "host", "root"])
    two_level(m, [[1.0, 1.0], [1.0, 1.0], [1.0, 1.0]], "straw2", "straw2")
    m.rule("only_rule_2", 2, ["take default", "chooseleaf firstn 0 type host",
                              "emit"])
    m.rule("ec_rule_0", 0, ["take default", "chooseleaf indep 0 type host",
                            "emit"], typ="erasure")
    M["rule0_erasure"] = m

    return M


HANDWRITTEN = """\
# A crush map as a user might paste it: comments everywhere, no tunables
# (so the legacy/argonaut tunables apply), items without weights (1.0),
# the old `ruleset` keyword, blank lines and odd spacing.

# devices
device 0 osd.0
device 1 osd.1   # trailing comment
device 2 osd.2
device 3 osd.3
device 4 osd.4
device 5 osd.5
device 6 osd.6
device 7 osd.7

# types
type 0 osd
type 1 host
type 2 root

host node-a {
	id -2		# do not change unnecessarily
	alg straw
	hash 0	# rjenkins1
	item osd.0
	item osd.1 weight 2.000
	item osd.2
}

host node-b {
	id -3
	alg straw
	hash 0
	item osd.3 weight 0.500
	item osd.4 weight 0.500
}
host node-c {
    id -4
    alg list
    hash 0
    item osd.5 weight 1.5
    item osd.6 weight 1
    item osd.7 weight 0
}

root default {
	id -1
	alg straw
	hash 0
	item node-a weight 4.000
	item node-b
	item node-c weight 2.500
}

rule data {
	ruleset 0
	type replicated
	min_size 1
	max_size 10
	step take default
	step chooseleaf firstn 0 type host
	step emit
}
rule metadata {
	ruleset 1
	type replicated
	min_size 1
	max_size 10
	step take default
	step choose firstn 0 type osd
	step emit
}

# end crush map
"""


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, m in maps().items():
        with open(os.path.join(out, name + ".txt"), "w") as f:
            f.write(m.text())
    with open(os.path.join(out, "handwritten.txt"), "w") as f:
        f.write(HANDWRITTEN)


if __name__ == "__main__":
    main()
