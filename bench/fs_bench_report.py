#!/usr/bin/env python3
"""fs_bench_report.py TSV - the summary of a bench/fs_bench.sh run.

Reads only the TSV (its '#' parameter lines and one line per measurement),
so a run can be summarised again later.  Per workload and side: the median
over the rounds and the range; then issue 23's goals as ratios of those
medians, beside each the same ratio taken round by round (median, range),
the goal and a mark; then the crushfs daemons' RSS.  Ratios are
reference time / crushfs time (higher is better; x3 against a third of
ext4's write) or, for "within 2x", crushfs time / ext4 time.
"""
import sys, statistics
from collections import defaultdict

path = sys.argv[1]
params, vals = {}, defaultdict(dict)  # (side, workload, phase) -> {round: value}
for line in open(path):
    line = line.rstrip("\n")
    if line.startswith("#"):
        for kv in line[1:].split():
            if "=" in kv:
                k, v = kv.split("=", 1)
                params[k] = v
        continue
    f = line.split("\t")
    if f[0] == "round":
        continue
    vals[(f[1], f[2], f[3])][int(f[0])] = float(f[4])

sides = params["sides"].split(",")
crush = [s for s in sides if s not in ("ext4", "passthrough_ll")]
label = {"ext4": "ext4", "passthrough_ll": "passthrough_ll",
         "size1": "crushfs size=1", "size2": "crushfs size=2",
         "size3": "crushfs size=3", "ec21": "crushfs EC 2+1"}
# BENCH_CRUSHFS_B's sides: the same configs on a second binary
for s in sides:
    if s.endswith("_B") and s[:-2] in label:
        label[s] = label[s[:-2]] + " B"
size_mb, nfiles = float(params["size_mb"]), float(params["files"])
rounds = int(params["rounds"])

def series(side, wl, phase):
    return dict(vals.get((side, wl, phase), {}))

def tree_part(side, part):
    parts = {"untar+sync": ("untar", "sync"), "read": ("read",), "rm -rf": ("rm",),
             "total": ("untar", "sync", "read", "rm")}[part]
    ss = [series(side, "tree", p) for p in parts]
    common = set.intersection(*(set(s) for s in ss)) if ss else set()
    return {r: sum(s[r] for s in ss) for r in common}

def metric(side, key):
    wl, ph = key
    return tree_part(side, ph) if wl == "tree" else series(side, wl, ph)

def spread(xs):
    return statistics.median(xs), min(xs), max(xs)

def cell(d, conv, num=None):
    if not d:
        return "-"
    num = num or sig
    m, lo, hi = spread([conv(v) for v in d.values()])
    return f"{num(m)} ({num(lo)}-{num(hi)})"

def sig(x):
    if x >= 100000:
        return f"{x / 1000:.0f}k"
    if x >= 100:
        return f"{x:.0f}"
    return f"{x:.1f}" if x >= 10 else f"{x:.2f}" if x >= 1 else f"{x:.3f}"

print()
print(f"fs_bench: medians of {rounds} rounds (min-max), sides alternating, "
      f"{params.get('elapsed', '?')} s, load average at the end {params.get('load_end', '?')}")
print(f"kernel {params['kernel']}, {params['cpus']} CPUs, {params['workdir']} on "
      f"{params['device']}, commit {params['commit']}")
if params.get("fs") == "own":
    print(f"each side on its own ext4: {params.get('image_mb', '?')} MiB image, "
          f"mkfs.ext4 {params.get('mkfs_opts', '').replace('+', ' ') or '(defaults)'}")
elif "fs" in params:
    print("all sides in the work directory's own filesystem (BENCH_FS=shared)")
rows = [
    ("seq write+fsync MiB/s", ("seq", "write"), lambda t: size_mb / t),
    ("seq cold read MiB/s", ("seq", "read"), lambda t: size_mb / t),
    (f"create 4 KiB /s", ("small", "create"), lambda t: nfiles / t),
    ("stat /s", ("small", "stat"), lambda t: nfiles / t),
    ("unlink /s", ("small", "unlink"), lambda t: nfiles / t),
    ("tree untar+sync s", ("tree", "untar+sync"), lambda t: t),
    ("tree cold read s", ("tree", "read"), lambda t: t),
    ("tree rm -rf s", ("tree", "rm -rf"), lambda t: t),
    ("tree total s", ("tree", "total"), lambda t: t),
    ("big create s", ("big", "create"), lambda t: t),
    ("big ls -l s", ("big", "ls_l"), lambda t: t),
    ("big find -type f s", ("big", "find"), lambda t: t),
    ("big rm -rf s", ("big", "rm"), lambda t: t),
]
w = 21
print(f"{'':22}" + "".join(f"{label[s]:>{w}}" for s in sides))
for name, key, conv in rows:
    cells = [cell(metric(s, key), conv) for s in sides]
    if all(c == "-" for c in cells):
        continue
    print(f"{name:22}" + "".join(f"{c:>{w}}" for c in cells))
print(f"(seq {size_mb:.0f} MiB; small {nfiles:.0f} files; tree {params['tree']}: "
      f"{params['tree_files']} files, {int(params['tree_bytes']) / 1048576:.0f} MiB; "
      f"big {params['big_files']} empty files in one directory)")

# goals: ratio = k * ref_time / side_time (higher is better) or, for
# "within", side_time / ref_time (lower is better)
print()
print("goals (issue 23), ratios of the medians; beside them the same ratio round by round: median (min-max)")
big = int(params["big_files"])
bigname = f"{big // 1000}k dir" if big % 1000 == 0 else f"{big}-file dir"
print(f"{'goal':44} {'side':15} {'ratio':>6} {'per round':>20}  {'goal':>6}  mark")
def goal(text, side, key, ref, refkey, k=1.0, within=False, target=1.0, marked=True):
    a, b = metric(side, key), metric(ref, refkey)
    if not a or not b:
        return
    if within:
        rm = statistics.median(a.values()) / statistics.median(b.values())
        per = [a[r] / b[r] for r in a if r in b]
    else:
        rm = k * statistics.median(b.values()) / statistics.median(a.values())
        per = [k * b[r] / a[r] for r in a if r in b]
    m, lo, hi = spread(per) if per else (0, 0, 0)
    op = "<=" if within else ">="
    ok = rm <= target if within else rm >= target
    mark = ("met" if ok else "NOT MET") if marked else "(info)"
    print(f"{text:44} {label[side]:15} {rm:6.2f} {f'{m:.2f} ({lo:.2f}-{hi:.2f})':>20}  "
          f"{op}{target:4.1f}  {mark}")

for ph in ("create", "stat", "unlink"):
    for s in crush:
        goal(f"4 KiB {ph} vs passthrough_ll (speed)", s, ("small", ph), "passthrough_ll",
             ("small", ph), marked=s in ("size1", "size3"))
for s in crush:
    goal("tree total vs passthrough_ll (speed)", s, ("tree", "total"), "passthrough_ll", ("tree", "total"))
    goal("tree total vs ext4 (speed)", s, ("tree", "total"), "ext4", ("tree", "total"), target=0.5)
for ph, nm in (("create", "create"), ("ls_l", "ls -l"), ("find", "find"), ("rm", "rm -rf")):
    for s in crush + ["passthrough_ll"]:
        goal(f"{bigname} {nm}: time / ext4's (within 2x)", s, ("big", ph), "ext4", ("big", ph),
             within=True, target=2.0, marked=s != "passthrough_ll")
for s in crush:
    goal("cold seq read vs ext4 (MiB/s)", s, ("seq", "read"), "ext4", ("seq", "read"), target=0.9)
for s in crush:
    if s == "size1":
        goal("write+fsync vs ext4 (MiB/s)", s, ("seq", "write"), "ext4", ("seq", "write"), target=0.9)
    else:
        goal("write+fsync vs ext4's / 3 (three copies)", s, ("seq", "write"), "ext4",
             ("seq", "write"), k=3.0, target=0.9, marked=s in ("size3", "ec21"))
if "ec21" in crush and "size3" in crush:
    goal("EC 2+1 write+fsync vs size 3 (MiB/s)", "ec21", ("seq", "write"), "size3",
         ("seq", "write"), target=1.5)

print()
print("crushfs daemon RSS (MiB): median (min-max) over rounds; no fixed goal, bounded = no growth")
print(f"{'':15} {'round start':>20} {'after big create':>20} {'after big rm':>20} {'peak in round':>20}  first->last start")
for s in crush:
    c = [cell(series(s, "rss", p), lambda v: v / 1024, lambda x: f"{x:.0f}")
         for p in ("start", "after_big_create", "after_big_rm", "hwm_round")]
    st = series(s, "rss", "start")
    fl = f"{st[min(st)] / 1024:.0f} -> {st[max(st)] / 1024:.0f}" if st else "-"
    print(f"{label[s]:15} " + " ".join(f"{x:>20}" for x in c) + f"  {fl}")
