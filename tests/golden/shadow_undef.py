#!/usr/bin/env python3
"""shadow_undef.py MAP.bin - the words of a crushtool -c binary that Ceph
16.2 leaves undefined: the node weights of a tree shadow bucket that
crush_add_tree_bucket_item never sets before writing them out.

device_class_clone grows each copy with crush_bucket_add_item; for a tree
that realloc()s node_weights to 1 << depth entries and never clears what
it adds, so node 0 (no walk reads it) and, from the third item on, inner
nodes of a grown array (added to while uninitialised) and leaves past the
last item hold heap memory.  Prints `BYTE inner|node0` per undefined byte,
BYTE 1-based as `cmp -l` counts, one line per byte of each 32-bit word.
"""
import struct
import sys


def height(n):
    h = 0
    while n & 1 == 0:
        h += 1
        n >>= 1
    return h


def parent(n):
    h = height(n)
    return n - (1 << h) if n & (1 << (h + 1)) else n + (1 << h)


def depth(size):
    if size == 0:
        return 0
    d, t = 1, size - 1
    while t:
        t >>= 1
        d += 1
    return d


def undefined_nodes(size):
    """Nodes crush_add_tree_bucket_item leaves (or adds to) uninitialised
    when a tree grows from empty to size items (none when it stays
    empty: no node array then)."""
    if size == 0:
        return []
    init, bad = set(), set()
    for k in range(size):
        d = depth(k + 1)
        node = 2 * k + 1
        init.add(node)
        root = (1 << d) // 2
        if d >= 2 and node - 1 == root:
            init.add(root)          # copied from the old root
        for _ in range(1, d):
            node = parent(node)
            if node not in init:    # += on what realloc left there
                bad.add(node)
                init.add(node)
    return sorted(bad | {i for i in range(1 << depth(size))
                         if i not in init})


def main():
    data = open(sys.argv[1], "rb").read()
    off = 0

    def get(fmt):
        nonlocal off
        v = struct.unpack_from("<" + fmt, data, off)
        off += struct.calcsize("<" + fmt)
        return v[0] if len(v) == 1 else v

    get("I")
    max_buckets, max_rules, _ = get("iIi")
    trees = []                      # (id, size, offset of node_weights)
    for _ in range(max_buckets):
        alg = get("I")
        if not alg:
            continue
        bid, _, _, _, _, size = get("iHBBII")
        off += 4 * size
        if alg == 1:
            off += 4
        elif alg in (2, 4):
            off += 8 * size
        elif alg == 3:
            nn = get("B")
            trees.append((bid, size, off))
            off += 4 * nn
        elif alg == 5:
            off += 4 * size
    for _ in range(max_rules):
        if get("I"):
            n = get("I")
            off += 4 + 12 * n
    names = {}
    for table in range(2):
        for _ in range(get("I")):
            key, ln = get("iI")
            if table == 1:
                names[key] = data[off:off + ln].decode()
            off += ln
    for bid, size, nodes in trees:
        if "~" not in names.get(bid, ""):
            continue                # crush_make_tree_bucket clears its own
        for node in undefined_nodes(size):
            kind = "node0" if node == 0 else "inner"
            for b in range(4):
                print(nodes + 4 * node + b + 1, kind)


if __name__ == "__main__":
    main()
