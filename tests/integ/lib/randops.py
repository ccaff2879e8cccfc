#!/usr/bin/env python3
"""randops.py - apply the same random sequence of file operations to two
directory trees (a crushfs mount and a plain reference directory) and
check that every result and, at the end, every byte agree.

usage: randops.py MOUNT_DIR REF_DIR [--ops N] [--seed S] [--max-off BYTES]

Operations: pwrite/pread at random offsets (crossing object boundaries),
append, truncate (up and down), create, rename (over existing names too),
link, unlink, mkdir/rmdir, fsync, fallocate in every mode FUSE passes
(0, KEEP_SIZE, PUNCH_HOLE|KEEP_SIZE, ZERO_RANGE with and without
KEEP_SIZE), and the same through long-lived open descriptors, so that
files renamed or unlinked while open are exercised.  Errors must match
too (same errno on both sides).
"""
import argparse
import ctypes
import errno
import os
import random
import sys

FALLOC_FL_KEEP_SIZE, FALLOC_FL_PUNCH_HOLE, FALLOC_FL_ZERO_RANGE = 1, 2, 0x10
_libc = ctypes.CDLL(None, use_errno=True)
_libc.fallocate.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_longlong,
                            ctypes.c_longlong]


def fallocate(fd, mode, off, ln):
    """fallocate(2) with a mode (os.posix_fallocate has none); the size
    after it, so that both sides' sizes are compared too."""
    if _libc.fallocate(fd, mode, off, ln) != 0:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e))
    return os.fstat(fd).st_size


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mnt")
    ap.add_argument("ref")
    ap.add_argument("--ops", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--max-off", type=int, default=6 << 20)
    ap.add_argument("--falloc-weight", type=int, default=6,
                    help="weight of fallocate among the operations (0: none)")
    a = ap.parse_args()
    seed = a.seed if a.seed is not None else random.randrange(1 << 30)
    print(f"randops: seed {seed}, {a.ops} operations")
    rnd = random.Random(seed)
    roots = (a.mnt, a.ref)
    names = [f"f{i}" for i in range(12)] + [f"d/g{i}" for i in range(6)]
    fds = {}  # slot -> (fd_mnt, fd_ref)
    counts = {}

    for root in roots:
        os.makedirs(os.path.join(root, "d"), exist_ok=True)

    # every mode FUSE passes on; ZERO_RANGE only where the reference
    # filesystem has it (ext4 does, tmpfs does not)
    fmodes = [0, FALLOC_FL_KEEP_SIZE, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE]
    probe = os.path.join(a.ref, ".falloc-probe")
    fd = os.open(probe, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fallocate(fd, FALLOC_FL_ZERO_RANGE, 0, 4096)
        fmodes += [FALLOC_FL_ZERO_RANGE, FALLOC_FL_ZERO_RANGE | FALLOC_FL_KEEP_SIZE]
    except OSError as e:
        print(f"randops: no ZERO_RANGE in the reference directory ({e.strerror}); not tried")
    os.close(fd)
    os.unlink(probe)

    def both(fn):
        """Run fn(root, side) on both trees; results (or errnos) must agree."""
        out = []
        for side, root in enumerate(roots):
            try:
                out.append(("ok", fn(root, side)))
            except OSError as e:
                out.append(("err", e.errno))
        if out[0] != out[1]:
            a0 = out[0] if out[0][0] == "err" or not isinstance(out[0][1], bytes) else ("ok", f"{len(out[0][1])} bytes")
            a1 = out[1] if out[1][0] == "err" or not isinstance(out[1][1], bytes) else ("ok", f"{len(out[1][1])} bytes")
            if isinstance(out[0][1], bytes) and isinstance(out[1][1], bytes):
                x, y = out[0][1], out[1][1]
                first = next((i for i in range(min(len(x), len(y))) if x[i] != y[i]), min(len(x), len(y)))
                a0 = (a0, f"first difference at byte {first}")
            raise SystemExit(f"op {i} ({op}): mount {a0} != reference {a1}")
        return out[0]

    def data(n):
        # compressible but position-dependent bytes, cheap to make
        b = rnd.randrange(256)
        return bytes((b + k * 7) & 0xFF for k in range(min(n, 4096))) * (n // 4096 + 1)

    for i in range(a.ops):
        op = rnd.choices(
            ["write", "read", "append", "trunc", "create", "rename", "link",
             "unlink", "mkdir", "rmdir", "fsync", "open", "fdwrite",
             "fdread", "close", "stat", "falloc", "fdfalloc"],
            weights=[20, 15, 5, 6, 4, 5, 2, 4, 1, 1, 1, 3, 6, 4, 3, 5,
                     a.falloc_weight, a.falloc_weight // 2])[0]
        counts[op] = counts.get(op, 0) + 1
        n = rnd.choice(names)
        m = rnd.choice(names)
        off = rnd.randrange(a.max_off)
        ln = rnd.choice([1, 17, 4096, 65536, 131072 + 5, 1 << 20, rnd.randrange(300000)])
        if op == "write":
            buf = data(ln)[:ln]

            def f(root, side):
                fd = os.open(os.path.join(root, n), os.O_WRONLY | os.O_CREAT, 0o644)
                try:
                    return os.pwrite(fd, buf, off)
                finally:
                    os.close(fd)
            both(f)
        elif op == "read":
            def f(root, side):
                fd = os.open(os.path.join(root, n), os.O_RDONLY)
                try:
                    return os.pread(fd, ln, off)
                finally:
                    os.close(fd)
            both(f)
        elif op == "append":
            buf = data(ln)[:ln]

            def f(root, side):
                fd = os.open(os.path.join(root, n), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
                try:
                    return os.write(fd, buf)
                finally:
                    os.close(fd)
            both(f)
        elif op == "trunc":
            size = rnd.choice([0, off, off // 7, rnd.randrange(4096)])
            both(lambda root, side: os.truncate(os.path.join(root, n), size))
        elif op == "create":
            def f(root, side):
                fd = os.open(os.path.join(root, n), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
                os.close(fd)
            both(f)
        elif op == "rename":
            both(lambda root, side: os.rename(os.path.join(root, n), os.path.join(root, m)))
        elif op == "link":
            both(lambda root, side: os.link(os.path.join(root, n), os.path.join(root, m)))
        elif op == "unlink":
            both(lambda root, side: os.unlink(os.path.join(root, n)))
        elif op == "mkdir":
            both(lambda root, side: os.mkdir(os.path.join(root, "d", f"sub{off % 3}")))
        elif op == "rmdir":
            both(lambda root, side: os.rmdir(os.path.join(root, "d", f"sub{off % 3}")))
        elif op == "fsync":
            def f(root, side):
                fd = os.open(os.path.join(root, n), os.O_RDONLY)
                try:
                    os.fsync(fd)
                finally:
                    os.close(fd)
            both(f)
        elif op == "open":
            slot = rnd.randrange(4)
            if slot in fds:
                continue
            res = []
            for root in roots:
                try:
                    res.append(os.open(os.path.join(root, n), os.O_RDWR))
                except OSError as e:
                    res.append(-e.errno)
            if (res[0] < 0) != (res[1] < 0) or (res[0] < 0 and res[0] != res[1]):
                raise SystemExit(f"op {i} (open {n}): {res}")
            if res[0] >= 0:
                fds[slot] = tuple(res)
        elif op == "falloc":
            mode = rnd.choice(fmodes)
            # now and then a punch to "the end of everything"
            fl = (1 << 40) if mode & FALLOC_FL_PUNCH_HOLE and rnd.random() < 0.1 else max(ln, 1)

            def f(root, side):
                fd = os.open(os.path.join(root, n), os.O_RDWR)
                try:
                    return fallocate(fd, mode, off, fl)
                finally:
                    os.close(fd)
            both(f)
        elif op == "fdfalloc" and fds:
            slot = rnd.choice(sorted(fds))
            fdpair = fds[slot]
            mode = rnd.choice(fmodes)
            both(lambda root, side: fallocate(fdpair[side], mode, off, max(ln, 1)))
        elif op in ("fdwrite", "fdread", "close") and fds:
            slot = rnd.choice(sorted(fds))
            fdpair = fds[slot]
            if op == "fdwrite":
                buf = data(ln)[:ln]
                both(lambda root, side: os.pwrite(fdpair[side], buf, off))
            elif op == "fdread":
                both(lambda root, side: os.pread(fdpair[side], ln, off))
            else:
                for fd in fdpair:
                    os.close(fd)
                del fds[slot]
        elif op == "stat":
            def f(root, side):
                st = os.lstat(os.path.join(root, n))
                return (st.st_size, st.st_nlink, oct(st.st_mode))
            both(f)

    for pair in fds.values():
        for fd in pair:
            os.close(fd)
    # every file, byte for byte; the same names everywhere
    for dirpath, dirnames, filenames in os.walk(a.ref):
        rel = os.path.relpath(dirpath, a.ref)
        mdir = os.path.join(a.mnt, rel)
        if sorted(os.listdir(dirpath)) != sorted(os.listdir(mdir)):
            raise SystemExit(f"listing of {rel} differs: {sorted(os.listdir(mdir))} vs {sorted(os.listdir(dirpath))}")
        for fn in filenames:
            with open(os.path.join(dirpath, fn), "rb") as x, open(os.path.join(mdir, fn), "rb") as y:
                if x.read() != y.read():
                    raise SystemExit(f"final contents of {rel}/{fn} differ")
    print("randops: all results and final contents agree;",
          ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))


if __name__ == "__main__":
    main()
