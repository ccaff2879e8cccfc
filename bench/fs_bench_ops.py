#!/usr/bin/env python3
"""fs_bench_ops.py OP DIR [N] - the timed loops of bench/fs_bench.sh.

Prints the seconds the loop took (perf_counter, so the interpreter's start
is not counted); 'read' adds the bytes read, 'tarsize' prints only bytes.
  create DIR N   N files f000000.. of 4 KiB: open O_CREAT|O_EXCL, write, close
  touch DIR N    the same, empty
  stat DIR N     stat each of them
  unlink DIR N   unlink each of them
  walk DIR       lstat everything under DIR (what ls -lR leaves cached)
  read DIR       read every regular file under DIR through, 1 MiB at a time
  tarsize TAR    bytes of the regular files in TAR, hard links counted again
"""
import os, sys, time
op, d = sys.argv[1], sys.argv[2]
n = int(sys.argv[3]) if len(sys.argv) > 3 else 0
names = [os.path.join(d, f"f{i:06d}") for i in range(n)]
buf = b"x" * 4096
t = time.perf_counter()
if op in ("create", "touch"):
    data = buf if op == "create" else b""
    for p in names:
        fd = os.open(p, os.O_CREAT | os.O_WRONLY | os.O_EXCL, 0o644)
        if data:
            os.write(fd, data)
        os.close(fd)
elif op == "stat":
    for p in names:
        os.stat(p)
elif op == "unlink":
    for p in names:
        os.unlink(p)
elif op in ("walk", "read"):
    # walk: lstat everything (what an ls -lR leaves in the dcache);
    # read: every regular file read through, the bytes printed after the time
    nbytes, stack = 0, [d]
    while stack:
        with os.scandir(stack.pop()) as it:
            for e in it:
                if e.is_dir(follow_symlinks=False):
                    stack.append(e.path)
                elif op == "walk":
                    os.lstat(e.path)
                elif e.is_file(follow_symlinks=False):
                    with open(e.path, "rb", buffering=0) as f:
                        while True:
                            b = f.read(1 << 20)
                            if not b:
                                break
                            nbytes += len(b)
    if op == "read":
        print(f"{time.perf_counter() - t:.6f} {nbytes}")
        sys.exit(0)
elif op == "tarsize":
    # bytes of the regular files in tarball d, hard links counted again
    import tarfile
    sizes, total = {}, 0
    with tarfile.open(d) as tf:
        for m in tf:
            if m.isreg():
                sizes[m.name] = m.size
                total += m.size
            elif m.islnk():
                total += sizes.get(m.linkname, 0)
    print(total)
    sys.exit(0)
else:
    sys.exit(f"fsb.py: unknown op {op}")
print(f"{time.perf_counter() - t:.6f}")
