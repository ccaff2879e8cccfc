#!/usr/bin/env python3
"""make_shadow_maps.py - the device-class maps of shadow/ (issue 20).

Shadow (per-class) copies of straw (v1), tree, list and uniform buckets, as
CrushWrapper::device_class_clone grows them item by item, under hammer,
firefly and jewel tunables with straw_calc_version 0 and 1; weights of 0,
equal weights and devices without a class; indep and firstn class rules.

What the maps avoid, on purpose: a tree bucket whose copy for a class gets
3 items or more.  crush_add_tree_bucket_item (Ceph builder.c) grows the
node array with realloc and never clears it, so from the third item on
crushtool -c adds to (and writes out) whatever the heap held there, and its
own mappings change from run to run.  Copies of 1 or 2 items leave only
node 0 undefined, which no walk reads; gen_shadow.sh records those words
and refuses a map with more.

Two maps cover uniform buckets: a uniform copy refuses any item that weighs
something (crush_add_uniform_bucket_item: the empty copy's item_weight is
0), so populate_classes stops at the first uniform bucket holding a device
of the class, keeping the copies made so far (shadow_uniform_partial), and
uniform buckets whose copies get only weight-0 items are copied whole
(shadow_uniform_classless).

Usage: make_shadow_maps.py OUTDIR   (writes OUTDIR/NAME.txt; no Ceph needed)
"""
import os
import sys

TUNABLES = {
    "hammer": [("choose_local_tries", 0), ("choose_local_fallback_tries", 0),
               ("choose_total_tries", 50), ("chooseleaf_descend_once", 1),
               ("chooseleaf_vary_r", 1), ("straw_calc_version", 1),
               ("allowed_bucket_algs", 54)],
    "firefly": [("choose_local_tries", 0), ("choose_local_fallback_tries", 0),
                ("choose_total_tries", 50), ("chooseleaf_descend_once", 1),
                ("chooseleaf_vary_r", 1)],
    "jewel": [("choose_local_tries", 0), ("choose_local_fallback_tries", 0),
              ("choose_total_tries", 50), ("chooseleaf_descend_once", 1),
              ("chooseleaf_vary_r", 1), ("chooseleaf_stable", 1),
              ("allowed_bucket_algs", 54)],
}


class Map:
    def __init__(self, title, profile, straw_calc=None):
        self.title = title
        self.tun = [t for t in TUNABLES[profile]
                    if straw_calc is None or t[0] != "straw_calc_version"]
        if straw_calc is not None:
            self.tun.insert(5, ("straw_calc_version", straw_calc))
        self.devices = []   # (id, class or None)
        self.buckets = []   # text
        self.rules = []
        self.next_bucket = -1

    def dev(self, cls, weight):
        d = len(self.devices)
        self.devices.append((d, cls))
        return "osd.%d" % d, weight

    def bucket(self, btype, name, alg, items, bid=None, shadow_ids=()):
        if bid is None:
            bid = self.next_bucket
        self.next_bucket = min(self.next_bucket, bid) - 1
        lines = ["%s %s {" % (btype, name), "\tid %d" % bid]
        lines += ["\tid %d class %s" % s for s in shadow_ids]
        lines += ["\talg %s" % alg, "\thash 0\t# rjenkins1"]
        for it, w in items:
            lines.append("\titem %s" % it if w is None
                         else "\titem %s weight %.3f" % (it, w))
        lines.append("}")
        self.buckets.append("\n".join(lines))
        return name

    def rule(self, name, rtype, steps):
        rid = len(self.rules)
        body = ["rule %s {" % name, "\tid %d" % rid, "\ttype %s" % rtype,
                "\tmin_size 1", "\tmax_size 10"]
        body += ["\tstep %s" % s for s in steps] + ["}"]
        self.rules.append("\n".join(body))

    def text(self):
        out = ["# %s" % self.title, "# begin crush map"]
        out += ["tunable %s %d" % t for t in self.tun]
        out += ["", "# devices"]
        out += ["device %d osd.%d%s" % (d, d, " class " + c if c else "")
                for d, c in self.devices]
        out += ["", "# types", "type 0 osd", "type 1 host", "type 2 rack",
                "type 3 root", "", "# buckets"]
        out += self.buckets + ["", "# rules"] + self.rules
        return "\n".join(out) + "\n\n# end crush map\n"


def shadow_hammer():
    """The map of issue 20's kind: straw (v1), tree and list hosts under
    hdd/ssd, hammer tunables, an indep class rule."""
    m = Map("straw (v1), tree and list hosts under classes, hammer",
            "hammer")
    d = m.dev
    hosts = [
        m.bucket("host", "s0", "straw", [d("hdd", 1.0), d("hdd", 1.0),
                                         d("ssd", 0.5), d("hdd", 0.0),
                                         d("ssd", 0.5)]),
        m.bucket("host", "s1", "straw", [d("hdd", 2.0), d("hdd", 3.64),
                                         d("ssd", 0.873), d(None, 1.0)]),
        m.bucket("host", "t0", "tree", [d("hdd", 1.0), d("ssd", 0.5),
                                        d("hdd", 0.0), d("ssd", 0.5),
                                        d(None, 2.0)]),
        m.bucket("host", "t1", "tree", [d("hdd", 1.82), d("ssd", 0.2)]),
        m.bucket("host", "l0", "list", [d("hdd", 1.0), d("hdd", 1.0),
                                        d("ssd", 0.0), d("hdd", 7.3)]),
        m.bucket("host", "l1", "list", [d("ssd", 1.0), d("hdd", 0.5),
                                        d("hdd", 0.5), d("ssd", 1.0)]),
        m.bucket("host", "s2", "straw", [d("hdd", 0.0), d("ssd", 0.0)]),
    ]
    m.bucket("root", "default", "straw", [(h, None) for h in hosts])
    m.rule("ec_hdd", "erasure", ["set_chooseleaf_tries 5",
                                 "set_choose_tries 100",
                                 "take default class hdd",
                                 "chooseleaf indep 0 type host", "emit"])
    m.rule("rep_ssd", "replicated", ["take default class ssd",
                                     "chooseleaf firstn 0 type host",
                                     "emit"])
    m.rule("ec_ssd_osd", "erasure", ["take default class ssd",
                                     "choose indep 0 type osd", "emit"])
    m.rule("rep_all", "replicated", ["take default",
                                     "chooseleaf firstn 0 type host",
                                     "emit"])
    return m


def racks_map(title, profile, straw_calc):
    """Racks of straw hosts with equal and zero weights (where
    straw_calc_version 0 and 1 part), list and tree hosts, straw racks."""
    m = Map(title, profile, straw_calc)
    d = m.dev
    r0 = [
        m.bucket("host", "a0", "straw", [d("hdd", 1.0), d("hdd", 1.0),
                                         d("hdd", 1.0), d("ssd", 0.0),
                                         d("hdd", 2.0), d("ssd", 0.25)]),
        m.bucket("host", "a1", "straw", [d("hdd", 0.0), d("hdd", 0.5),
                                         d("ssd", 0.5), d("hdd", 0.5),
                                         d("ssd", 0.5)]),
        m.bucket("host", "a2", "tree", [d("ssd", 1.0), d("hdd", 3.0),
                                        d(None, 1.0), d("hdd", 3.0)]),
    ]
    r1 = [
        m.bucket("host", "b0", "list", [d("hdd", 4.0), d("hdd", 4.0),
                                        d("ssd", 0.0), d("ssd", 0.9)]),
        m.bucket("host", "b1", "straw", [d("ssd", 1.5), d("ssd", 1.5),
                                         d("hdd", 0.0), d("hdd", 0.0),
                                         d("hdd", 2.5)]),
        m.bucket("host", "b2", "straw", [d(None, 1.0), d(None, 1.0)]),
    ]
    r2 = [
        m.bucket("host", "c0", "straw", [d("hdd", 5.5), d("ssd", 0.75),
                                         d("ssd", 0.75), d("hdd", 5.5)]),
        m.bucket("host", "c1", "tree", [d("hdd", 0.5)]),
    ]
    racks = [m.bucket("rack", "r0", "straw", [(h, None) for h in r0]),
             m.bucket("rack", "r1", "straw", [(h, None) for h in r1]),
             m.bucket("rack", "r2", "list", [(h, None) for h in r2])]
    m.bucket("root", "default", "straw", [(r, None) for r in racks])
    m.rule("ec_hdd_rack", "erasure", ["set_chooseleaf_tries 5",
                                      "take default class hdd",
                                      "chooseleaf indep 0 type rack",
                                      "emit"])
    m.rule("rep_ssd", "replicated", ["take default class ssd",
                                     "chooseleaf firstn 0 type host",
                                     "emit"])
    m.rule("hdd_2x2", "replicated", ["take default class hdd",
                                     "choose firstn 2 type rack",
                                     "chooseleaf firstn 2 type host",
                                     "emit"])
    m.rule("ec_ssd_host", "erasure", ["take default class ssd",
                                      "chooseleaf indep 0 type host",
                                      "emit"])
    return m


def jewel_map(straw_calc):
    """Many hosts of straw, list, tree and straw2 (equal weights mostly),
    a rack of its own class ids given in the text."""
    m = Map("straw, list, tree and straw2 hosts, jewel, straw_calc_version %d"
            % straw_calc, "jewel", straw_calc)
    d = m.dev
    algs = ["straw", "list", "straw", "tree", "straw2", "straw", "list"]
    pattern = [("hdd", 1.0), ("hdd", 1.0), ("ssd", 0.5), ("hdd", 1.0),
               ("nvme", 0.25), ("ssd", 0.5), ("hdd", 0.0)]
    hosts = []
    for i, alg in enumerate(algs):
        items = []
        for k in range(6 if alg != "tree" else 5):
            cls, w = pattern[(i + k) % len(pattern)]
            if alg == "tree" and cls == "hdd" and k > 2:
                cls = None
            items.append(d(cls, w))
        hosts.append(m.bucket("host", "h%d" % i, alg, items))
    ra = m.bucket("rack", "ra", "straw", [(h, None) for h in hosts[:4]],
                  shadow_ids=[(-40, "ssd"), (-41, "hdd")])
    rb = m.bucket("rack", "rb", "straw", [(h, None) for h in hosts[4:]])
    m.bucket("root", "default", "straw", [(ra, None), (rb, None)])
    m.rule("ec_hdd", "erasure", ["take default class hdd",
                                 "chooseleaf indep 0 type host", "emit"])
    m.rule("rep_ssd", "replicated", ["take default class ssd",
                                     "chooseleaf firstn 0 type host",
                                     "emit"])
    m.rule("ec_nvme_osd", "erasure", ["take default class nvme",
                                      "choose indep 0 type osd", "emit"])
    m.rule("rack_hdd", "replicated", ["take ra class hdd",
                                      "chooseleaf firstn 0 type host",
                                      "emit"])
    return m


def shadow_uniform_partial():
    """populate_classes stops at a uniform host holding a device of the
    class: the root `main` (the most negative id, so cloned first) has all
    its copies; of `legacy` only hdd copies of the list host before the
    uniform one are made, and nothing after it."""
    m = Map("a uniform host with class devices: population stops there",
            "hammer")
    d = m.dev
    main = [
        m.bucket("host", "m0", "straw", [d("hdd", 1.0), d("ssd", 0.5),
                                         d("hdd", 1.0)], bid=-2),
        m.bucket("host", "m1", "list", [d("ssd", 0.5), d("hdd", 2.0),
                                        d("hdd", 0.0)], bid=-3),
        m.bucket("host", "m2", "tree", [d("hdd", 1.5), d("ssd", 1.5)],
                 bid=-4),
        m.bucket("host", "m3", "straw", [d("hdd", 1.0), d("hdd", 1.0),
                                         d("ssd", 0.5)], bid=-5),
    ]
    m.bucket("root", "main", "straw", [(h, None) for h in main], bid=-30)
    leg = [
        m.bucket("host", "g0", "list", [d("hdd", 1.0), d("ssd", 1.0)],
                 bid=-6),
        m.bucket("host", "g1", "uniform", [d("hdd", 1.0), d("ssd", 1.0),
                                           d(None, 1.0)], bid=-7),
        m.bucket("host", "g2", "straw", [d("hdd", 2.0), d("ssd", 2.0)],
                 bid=-8),
    ]
    m.bucket("root", "legacy", "straw", [(h, None) for h in leg], bid=-1)
    m.rule("ec_hdd", "erasure", ["take main class hdd",
                                 "chooseleaf indep 0 type host", "emit"])
    m.rule("rep_ssd", "replicated", ["take main class ssd",
                                     "chooseleaf firstn 0 type host",
                                     "emit"])
    m.rule("legacy", "replicated", ["take legacy",
                                    "chooseleaf firstn 0 type host",
                                    "emit"])
    m.rule("g0_hdd", "replicated", ["take g0 class hdd",
                                    "choose firstn 0 type osd", "emit"])
    return m


def shadow_uniform_classless():
    """Uniform buckets whose copies get only items of weight 0 (devices
    without a class, empty hosts' copies): copied whole, item_weight 0."""
    m = Map("uniform hosts and rack of devices without a class", "jewel",
            0)
    d = m.dev
    hosts = [
        m.bucket("host", "s0", "straw", [d("hdd", 1.0), d("ssd", 1.0),
                                         d("hdd", 1.0), d("hdd", 0.0)]),
        m.bucket("host", "s1", "straw", [d("hdd", 2.0), d("ssd", 0.5),
                                         d("ssd", 0.5)]),
        m.bucket("host", "l0", "list", [d("ssd", 1.0), d("hdd", 1.0)]),
    ]
    u = [m.bucket("host", "u%d" % i, "uniform",
                  [d(None, 1.0), d(None, 1.0)]) for i in range(3)]
    uk = m.bucket("rack", "uk", "uniform", [(h, 2.0) for h in u])
    sk = m.bucket("rack", "sk", "straw", [(h, None) for h in hosts])
    m.bucket("root", "default", "straw", [(sk, None), (uk, None)])
    m.rule("ec_hdd", "erasure", ["take default class hdd",
                                 "chooseleaf indep 0 type host", "emit"])
    m.rule("rep_ssd", "replicated", ["take default class ssd",
                                     "chooseleaf firstn 0 type host",
                                     "emit"])
    m.rule("rep_all", "replicated", ["take default",
                                     "chooseleaf firstn 0 type host",
                                     "emit"])
    return m


MAPS = {
    "shadow_hammer": shadow_hammer,
    "shadow_firefly_v0": lambda: racks_map(
        "straw (v0), list and tree hosts in racks, firefly", "firefly", 0),
    "shadow_firefly_v1": lambda: racks_map(
        "straw (v1), list and tree hosts in racks, firefly", "firefly", 1),
    "shadow_jewel_v0": lambda: jewel_map(0),
    "shadow_jewel_v1": lambda: jewel_map(1),
    "shadow_uniform_partial": shadow_uniform_partial,
    "shadow_uniform_classless": shadow_uniform_classless,
}


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make_shadow_maps.py OUTDIR")
    os.makedirs(sys.argv[1], exist_ok=True)
    for name, make in MAPS.items():
        with open(os.path.join(sys.argv[1], name + ".txt"), "w") as f:
            f.write(make().text())


if __name__ == "__main__":
    main()
