#!/usr/bin/env python3
"""thrash.py - crushfs's own ceph_test_rados + thrashosds (issue 20).

A seeded model-checking stress test of a mounted crushfs cluster, after
Ceph's qa/tasks/thrashosds.py (the OSDThrasher of ceph_manager.py: out/in,
down/up, reweight, pg_num up and down, upmaps, a cluster pushed towards
full, objects damaged on an OSD's store then repaired, everything brought
back up/in and clean at the end) and src/test/osd/RadosModel.h (writers
that keep a model of what every object must hold and check every read
against it), with FoundationDB's rule for simulation tests: every run is
derived from one seed, and every failure prints the command that replays
it.

One run (one seed):
  setup      mkfs a cluster in a temporary directory (8-10 OSDs on 4-5
             hosts, 256 MiB each, 1 MiB objects, pg_num 32), an EC k=2 m=1
             pool with allow_ec_overwrites and a size-2/min_size-1 pool,
             both added with `fs add_data_pool`; mount it (`mount -f`);
             directories /rep3 (the default pool), /rep2, /ec by layout.
  thrash     W writer threads (each its own RNG from the seed, its own
             names in every pool's directory) do writes at random offsets
             across object boundaries, overwrites, appends, truncates up
             and down, fallocate (every mode), renames, unlinks, hard
             links, fsync of files and directories, reads and whole-file
             checks against the model; one thrasher thread (its own RNG)
             changes the map live through the CLI (forwarded to the
             daemon): osd out/in, down/up (at most one down), reweight,
             crush reweight, osd add, set-capacity towards full and back,
             pg-upmap-items, balancer optimize --apply, pg_num/pgp_num up
             and down, rebalance, scrub/deep-scrub, damage to an object
             copy on an OSD's disk (then deep-scrub must see it and pg
             repair must fix it), and kill -9 of the daemon then a
             remount (after which only fsync'ed state is guaranteed).
  quiesce    writers stop; every OSD up, in, reweight 1, capacity back;
             damage repaired; pgp_num = pg_num (the target: rebalance
             steps pgp_num there and makes the merges still waiting,
             as Ceph 14+'s mgr does); rebalance until it moves
             nothing; then the invariants: every file equals the model,
             every PG active+clean with acting == up, a deep scrub finds
             nothing, usage accounting equals the disk (`check`), health
             is HEALTH_OK (and names every PG that is not clean), the
             daemon unmounts cleanly with no error in its log, `fsck
             --dry-run` is clean, and after a remount every file still
             equals the model.

Every operation must succeed as on a local filesystem: an error (EIO
above all) or a read that differs from the model is a violation, except
ENOSPC while the thrasher holds an OSD near full (Ceph's behaviour, and
truncates/unlinks must still work then) and operations cut short by the
thrasher's own kill -9.  After a kill the model accepts, per file, any
size between the smallest and the largest it had since its last fsync,
and for every 4 KiB page any content the page had since that fsync (an
unsynced write may land in part); a name may be in any state it had
since its directory's last fsync.

Determinism: each writer's and the thrasher's choices come from RNGs
derived from the seed; with threads, the interleaving depends on timing,
so a replay runs the same operation streams, not the same schedule.
--serial runs writers and thrasher in one thread, stepped by a seeded
scheduler, and with --ops (instead of --duration) the whole run is a
function of the seed.

usage: thrash.py [--seed S ...] [--duration SEC | --ops N] [--writers W]
                 [--no-down] [--no-kill] [--no-damage] [--serial] ...
Exit status: 0 no violation, 1 violations, 2 the harness itself failed.
"""
import argparse
import collections
import ctypes
import errno
import hashlib
import json
import os
import random
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback

PAGE = 4096
KiB, MiB = 1024, 1024 * 1024
OBJ = 1 * MiB                       # --object-size of the cluster
ZERO_PAGE = bytes(PAGE)

FALLOC_FL_KEEP_SIZE, FALLOC_FL_PUNCH_HOLE, FALLOC_FL_ZERO_RANGE = 1, 2, 0x10
FMODES = {0: "alloc", 1: "keep_size", 3: "punch_hole", 0x10: "zero_range",
          0x11: "zero_range|keep_size"}
_libc = ctypes.CDLL(None, use_errno=True)
_libc.fallocate.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_longlong,
                            ctypes.c_longlong]

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(os.path.dirname(HERE))

# the pools: directory, pool name
POOLS = [("rep3", "crushfs_data"), ("rep2", "rep2"), ("ec", "ecdata")]


def fallocate(fd, mode, off, ln):
    if _libc.fallocate(fd, mode, off, ln) != 0:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e))


def ename(e):
    return errno.errorcode.get(e, str(e))


def page(buf, p):
    """Page p of buf, zero-padded past its end."""
    chunk = bytes(buf[p * PAGE:(p + 1) * PAGE])
    if len(chunk) < PAGE:
        chunk += bytes(PAGE - len(chunk))
    return chunk


def phash(buf, p):
    return hashlib.blake2b(page(buf, p), digest_size=16).digest()


ZH = hashlib.blake2b(ZERO_PAGE, digest_size=16).digest()


class Ever:
    """Every page content the writers ever made (by hash), and by which
    operation: a page that differs from the model is then named as stale
    data of an older write, data of another file, or never written."""

    def __init__(self):
        self.lock = threading.Lock()
        self.d = {}

    def note(self, h, tag, ino, p):
        with self.lock:
            if len(self.d) > 2_000_000:
                self.d.clear()
            self.d[h] = (tag, ino, p)

    def where(self, content, ino, p):
        if len(content) < PAGE:
            content = content + bytes(PAGE - len(content))
        if content == ZERO_PAGE:
            return "zeros"
        nz = PAGE - content.count(0)
        if nz < 64:
            return f"{nz} non-zero byte(s), zeros elsewhere"
        h = hashlib.blake2b(content, digest_size=16).digest()
        with self.lock:
            w = self.d.get(h)
        if not w:
            return "bytes no writer ever wrote to any page (garbage, or a wrong decode)"
        tag, wino, wp = w
        if wino == ino and wp == p:
            return f"an older content of this page, written by {tag}"
        if wino == ino:
            return f"what page {wp} of this file held after {tag} (misplaced)"
        return f"what page {wp} of ino {wino:#x} held after {tag} (another file's data)"


EVER = Ever()


def npages(n):
    return (n + PAGE - 1) // PAGE


def first_diff(a, b):
    n = min(len(a), len(b))
    if a[:n] == b[:n]:
        return n
    lo, hi = 0, n
    while hi - lo > 64:         # bisect on slices: fast for MiBs
        mid = (lo + hi) // 2
        if a[lo:mid] != b[lo:mid]:
            hi = mid
        else:
            lo = mid
    for i in range(lo, hi):
        if a[i] != b[i]:
            return i
    return hi


def describe_bytes(b):
    if not b:
        return "nothing"
    if b.count(0) == len(b):
        return "zeros"
    return b[:16].hex() + ("..." if len(b) > 16 else "")


class Abort(Exception):
    """The harness cannot go on (not a finding about crushfs by itself)."""


# ---------------------------------------------------------------------------
# the model of one file (one inode)

class FileM:
    __slots__ = ("ino", "data", "synced", "cands", "lo", "hi", "uncertain", "broken",
                 "hist", "links")

    def __init__(self, ino):
        self.ino = ino
        self.data = bytearray()     # what it holds now (every op that returned)
        self.synced = b""           # what it held at its last fsync
        self.cands = {}             # page -> {hash: content} it had since that fsync
        self.lo = self.hi = 0       # sizes it had since that fsync
        self.uncertain = False      # an op on it ended in an error: read it back
        self.broken = False         # a violation was reported on it: no more checks
        self.hist = collections.deque(maxlen=10)   # its last operations
        self.links = set()          # its names (relative paths)

    def touch(self, a, b, tag=None):
        """Pages [a, b) changed: their new contents are candidates after
        a crash (so is every earlier content since the fsync)."""
        for p in range(a // PAGE, npages(b)):
            c = page(self.data, p)
            h = hashlib.blake2b(c, digest_size=16).digest()
            self.cands.setdefault(p, {})[h] = c
            if tag and h != ZH:
                EVER.note(h, tag, self.ino, p)

    def sized(self):
        n = len(self.data)
        self.lo = min(self.lo, n)
        self.hi = max(self.hi, n)

    def sync(self):
        self.synced = bytes(self.data)
        self.cands = {}
        self.lo = self.hi = len(self.data)
        self.uncertain = False

    def segments(self, got, allc, p):
        """Which byte ranges of a page come from which of its contents."""
        def label(k):
            if k == 0:
                return "fsync'ed"
            h = hashlib.blake2b(allc[k], digest_size=16).digest()
            w = EVER.d.get(h)
            return f"after {w[0]}" if w and w[1] == self.ino else "zeros" \
                if allc[k] == ZERO_PAGE else f"content #{k}"
        segs = []
        cur = None
        for i in range(len(got)):
            if cur is None or allc[cur][i] != got[i]:
                cur = next(k for k in range(len(allc)) if allc[k][i] == got[i])
                segs.append([i, i, cur])
            segs[-1][1] = i
        out = [f"+{a}..+{b} {label(k)}" for a, b, k in segs[:8]]
        return ", ".join(out) + (", ..." if len(segs) > 8 else "")

    def cand_bytes(self):
        return sum(len(s) for s in self.cands.values()) * PAGE

    def accepts(self, actual):
        """None if `actual` is a state the file may be in after a crash or a
        failed operation (see the module doc), else why not."""
        n = len(actual)
        if not self.lo <= n <= self.hi:
            return (f"size {n}, not between {self.lo} and {self.hi} (the sizes "
                    f"it had since its last fsync, at size {len(self.synced)})")
        for p in range(npages(n)):
            got = bytes(actual[p * PAGE:(p + 1) * PAGE])
            cp = self.cands.get(p, {})
            if len(got) == PAGE:
                h = hashlib.blake2b(got, digest_size=16).digest()
                if h in cp or got == page(self.synced, p):
                    continue
            else:
                # the end of the file: its size may be older than its data
                # (an unsynced write that extended it landed, its size not)
                m = len(got)
                if page(self.synced, p)[:m] == got or any(c[:m] == got for c in cp.values()):
                    continue
            syn = self.synced[p * PAGE:(p + 1) * PAGE]
            now = bytes(self.data[p * PAGE:(p + 1) * PAGE])
            allc = [page(self.synced, p)] + list(cp.values())
            odd = [i for i in range(len(got)) if all(c[i] != got[i] for c in allc)]
            if not odd:
                mix = ("; every byte of it is one of those contents' at that place, a "
                       "page torn between versions: " + self.segments(got, allc, p))
            else:
                mix = (f"; {len(odd)} of its bytes (first at +{odd[0]}, last at "
                       f"+{odd[-1]}) match none of them")
            return (f"page {p} (bytes {p * PAGE}..{p * PAGE + len(got)}, object "
                    f"{p * PAGE // OBJ}) holds {describe_bytes(got)} "
                    f"[{EVER.where(got, self.ino, p)}]: neither its "
                    f"fsync'ed content ({describe_bytes(syn)}) nor any of the "
                    f"{len(self.cands.get(p, ()))} it had since (now "
                    f"{describe_bytes(now)}){mix}")
        return None


# ---------------------------------------------------------------------------

class Run:
    """One seed: setup, thrash, quiesce, invariants."""

    def __init__(self, a, seed):
        self.a = a
        self.seed = seed
        EVER.d = {}
        self.rng = random.Random(f"{seed}:setup")
        self.crushfs = a.crushfs
        self.t0 = time.monotonic()
        self.lock = threading.RLock()
        self.violations = []
        self.notes = []
        self.counts = collections.Counter()
        self.refusals = collections.Counter()
        self.slow = []              # ops that blocked
        self.events = collections.deque(maxlen=12)   # recent thrash actions
        self.stop = threading.Event()
        self.gate = Gate()
        self.crash_epoch = 0
        self.crashing = False
        self.squeeze_seq = 0        # odd while an OSD is squeezed towards full
        self.damage = []            # injected and not yet repaired
        self.known_bad = set()      # PGs already reported inconsistent
        self.down = None            # the OSD marked down
        self.daemon = None
        self.incarnation = 0
        self.daemon_logs = []
        self.mounted = False
        self.harness_error = None
        self.work = tempfile.mkdtemp(prefix=f"crushfs-thrash.{seed}.", dir=a.tmpdir)
        os.chmod(self.work, 0o755)
        self.cl = os.path.join(self.work, "cluster")
        self.mnt = os.path.join(self.work, "mnt")
        self.logf = open(os.path.join(self.work, "thrash.log"), "w")

    # -- output ------------------------------------------------------------
    def now(self):
        return time.monotonic() - self.t0

    def log(self, msg, echo=False):
        line = f"[{self.seed} +{self.now():7.2f}s] {msg}"
        with self.lock:
            self.logf.write(line + "\n")
            self.logf.flush()
            if echo or self.a.verbose:
                print(line, flush=True)

    def violation(self, kind, msg, detail=None):
        with self.lock:
            self.violations.append((kind, msg))
            n = len(self.violations)
            if n > self.a.max_report:
                self.log(f"VIOLATION {kind}: {msg}")
                if detail:
                    self.logf.write(detail.rstrip() + "\n")
                return
            print(f"VIOLATION #{n} [seed {self.seed}, +{self.now():.1f}s] {kind}: {msg}",
                  flush=True)
            if detail:
                for line in detail.rstrip().splitlines():
                    print(f"    {line}", flush=True)
            if self.events:
                print("    recent thrash: " + "; ".join(self.events), flush=True)
            print(f"    replay: {replay_cmd(self.a, self.seed)}", flush=True)
            self.logf.write(f"VIOLATION {kind}: {msg}\n{detail or ''}\n")
            self.logf.flush()

    def note(self, msg):
        with self.lock:
            self.notes.append(msg)
        self.log("NOTE " + msg)

    # -- the CLI -------------------------------------------------------------
    def cli(self, *args, js=False, timeout=None, quiet=False):
        """Run `crushfs --cluster CL [-f json] ARGS`; returns (rc, out, err).
        A crash of the CLI (a signal) or a hang is a violation."""
        cmd = [self.crushfs, "--cluster", self.cl] + (["-f", "json"] if js else []) + \
            [str(x) for x in args]
        t = time.monotonic()
        try:
            p = subprocess.run(cmd, capture_output=True, text=True,
                               timeout=timeout or self.a.cli_timeout)
        except subprocess.TimeoutExpired:
            self.violation("cli-hang", f"`crushfs {' '.join(map(str, args))}` did not "
                           f"return in {timeout or self.a.cli_timeout} s")
            return 124, "", "timeout"
        dt = time.monotonic() - t
        if not quiet:
            self.log(f"cli {' '.join(map(str, args))} -> rc {p.returncode} ({dt:.2f}s)"
                     + (f": {p.stderr.strip()[:300]}" if p.stderr.strip() else ""))
        if p.returncode < 0:
            self.violation("cli-crash", f"`crushfs {' '.join(map(str, args))}` died of "
                           f"signal {-p.returncode}", p.stderr[-2000:])
        return p.returncode, p.stdout, p.stderr

    def cli_json(self, *args, timeout=None):
        rc, out, err = self.cli(*args, js=True, timeout=timeout, quiet=True)
        try:
            return rc, json.loads(out) if out.strip() else None, err
        except ValueError:
            self.violation("cli-json", f"`crushfs -f json {' '.join(map(str, args))}` "
                           f"printed no valid JSON (rc {rc})", out[:500] + err[:500])
            return rc, None, err

    def must(self, *args):
        rc, out, err = self.cli(*args)
        if rc != 0:
            raise Abort(f"setup: `crushfs {' '.join(map(str, args))}` failed (rc {rc}): "
                        f"{err.strip()}")
        return out

    # -- mounting ------------------------------------------------------------
    def is_mounted(self):
        with open("/proc/mounts") as f:
            for line in f:
                p = line.split()
                if len(p) > 2 and p[1] == self.mnt and p[2] == "fuse.crushfs":
                    return True
        return False

    def mount(self):
        self.incarnation += 1
        path = os.path.join(self.work, f"daemon.{self.incarnation}.log")
        self.daemon_logs.append(path)
        os.makedirs(self.mnt, exist_ok=True)
        with open(path, "w") as lf:
            self.daemon = subprocess.Popen(
                [self.crushfs, "--cluster", self.cl, "mount", self.mnt, "-f"],
                stdout=lf, stderr=lf, stdin=subprocess.DEVNULL)
        t = time.monotonic()
        while not self.is_mounted():
            if self.daemon.poll() is not None:
                with open(path) as f:
                    tail = f.read()[-3000:]
                self.violation("mount-failed", f"the daemon (mount #{self.incarnation}) "
                               f"exited with {self.daemon.returncode} before mounting", tail)
                raise Abort("cannot mount")
            if time.monotonic() - t > 60:
                raise Abort("not mounted after 60 s")
            time.sleep(0.05)
        self.mounted = True
        self.log(f"mounted (daemon pid {self.daemon.pid}, incarnation {self.incarnation}, "
                 f"{time.monotonic() - t:.2f}s)")

    def daemon_died(self):
        """The daemon exited on its own: a violation, and the end of the run."""
        with self.lock:
            if getattr(self, "_died", False):
                return
            self._died = True
        with open(self.daemon_logs[-1], errors="replace") as f:
            tail = f.read()[-3000:]
        self.violation("daemon-exit", f"the daemon (pid {self.daemon.pid}) exited with "
                       f"{self.daemon.returncode} in the middle of the run", tail)
        self.stop.set()
        raise Abort("the daemon died")

    def kill9(self):
        self.daemon.send_signal(signal.SIGKILL)
        self.daemon.wait()
        subprocess.run(["fusermount3", "-u", "-z", self.mnt], capture_output=True)
        self.mounted = False

    def umount(self):
        """A clean unmount: `crushfs umount`, the daemon exits 0."""
        rc, out, err = self.cli("umount", self.mnt, timeout=300)
        if rc != 0:
            self.violation("umount", f"`crushfs umount` failed (rc {rc})", err)
            subprocess.run(["fusermount3", "-u", "-z", self.mnt], capture_output=True)
        try:
            drc = self.daemon.wait(timeout=120)
        except subprocess.TimeoutExpired:
            self.violation("umount", "the daemon did not exit within 120 s of the unmount")
            self.daemon.kill()
            drc = self.daemon.wait()
        self.mounted = False
        if drc != 0:
            self.violation("daemon-exit", f"the daemon exited with {drc} after the unmount",
                           open(self.daemon_logs[-1]).read()[-2000:])

    def scan_daemon_logs(self):
        """Sanitizer reports and assertions in the daemon's stderr are
        violations; its ERROR and WARN lines are listed (they are the
        daemon's side of what the writers saw, or of injected damage)."""
        fatal = re.compile(r"AddressSanitizer|LeakSanitizer|ThreadSanitizer|runtime error|"
                           r"Assertion|Segmentation|Aborted")
        seen = collections.OrderedDict()
        for path in self.daemon_logs:
            with open(path, errors="replace") as f:
                for line in f:
                    msg = re.sub(r"^\S+ \S+ crushfs\[\d+\]: ", "", line.strip())
                    if fatal.search(line):
                        self.violation("daemon-crash", f"{os.path.basename(path)}: {msg}")
                        continue
                    level = "ERROR" if "ERROR" in line else "WARN" if "WARN" in line else None
                    if not level:
                        continue
                    key = (level, re.sub(r"[0-9a-f]*\d[0-9a-f]*", "N", msg)[:140])
                    if key not in seen:
                        seen[key] = [msg, 0]
                    seen[key][1] += 1
        self.daemon_errors = sorted(((k[0], v[1], v[0]) for k, v in seen.items()),
                                    key=lambda x: (x[0] != "ERROR", -x[1]))

    # -- setup -------------------------------------------------------------
    def setup(self):
        r = self.rng
        self.nosds = r.choice([8, 9, 10])
        self.nhosts = r.choice([4, 5])
        self.osd_size = 256 * MiB
        self.must("mkfs", "--osds", self.nosds, "--hosts", self.nhosts, "--osd-size", "256M",
                  "--pg-num", 32, "--object-size", "1M")
        self.must("osd", "erasure-code-profile", "set", "k2m1", "k=2", "m=1",
                  "crush-failure-domain=host")
        self.must("osd", "pool", "create", "ecdata", 16, 16, "erasure", "k2m1")
        self.must("osd", "pool", "set", "ecdata", "allow_ec_overwrites", "true")
        self.must("fs", "add_data_pool", "crushfs", "ecdata")
        self.must("osd", "pool", "create", "rep2", 16)
        self.must("osd", "pool", "set", "rep2", "size", 2)
        self.must("osd", "pool", "set", "rep2", "min_size", 1)
        self.must("fs", "add_data_pool", "crushfs", "rep2")
        self.pg_num = {"crushfs_data": 32, "ecdata": 16, "rep2": 16}
        self.pgp_num = dict(self.pg_num)
        self.pool_ids = {}
        rc, d, _ = self.cli_json("osd", "pool", "ls", "detail")
        for p in d:
            self.pool_ids[p["pool_id"]] = p["pool_name"]
            if p["pool_name"] == "ecdata":
                self.note(f"pool ecdata (EC k=2 m=1): size {p['size']}, min_size "
                          f"{p['min_size']}")
        self.capacity = {i: self.osd_size for i in range(self.nosds)}
        rc, d, _ = self.cli_json("osd", "df")
        self.crush_weight = {n["id"]: n["crush_weight"] for n in d["nodes"]}
        self.hosts = [f"host{i}" for i in range(self.nhosts)]
        self.mount()
        for d, pool in POOLS:
            path = os.path.join(self.mnt, d)
            os.mkdir(path)
            os.setxattr(path, "ceph.dir.layout.pool", pool.encode())
            for w in range(self.a.writers):
                os.mkdir(os.path.join(path, f"w{w}"))
            # a file made there lands in the pool
            probe = os.path.join(path, "w0", ".probe")
            open(probe, "w").close()
            got = os.getxattr(probe, "ceph.file.layout.pool").decode()
            os.unlink(probe)
            if got != pool:
                raise Abort(f"a file in /{d}/w0 is in pool {got}, not {pool}")
        self.log(f"cluster: {self.nosds} OSDs on {self.nhosts} hosts, pools "
                 f"{self.pg_num}, {self.a.writers} writers", echo=True)

    # -- the run -------------------------------------------------------------
    def go(self):
        print(f"thrash: seed {self.seed}: work dir {self.work}", flush=True)
        ok = False
        try:
            self.setup()
            self.writers = [Writer(self, i) for i in range(self.a.writers)]
            self.thrasher = Thrasher(self)
            self.thrash_phase()
            self.quiesce()
            ok = True
        except Abort as e:
            self.harness_error = str(e)
            print(f"thrash: seed {self.seed}: ABORTED: {e}", flush=True)
            self.log(f"ABORT {e}")
        except KeyboardInterrupt:
            self.harness_error = "interrupted"
            raise
        except Exception:
            self.harness_error = traceback.format_exc()
            print(f"thrash: seed {self.seed}: harness error:\n{self.harness_error}", flush=True)
        finally:
            self.stop.set()
            self.gate.open()
            if self.daemon and self.daemon.poll() is None:
                subprocess.run(["fusermount3", "-u", "-z", self.mnt], capture_output=True)
                try:
                    self.daemon.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    self.daemon.kill()
                    self.daemon.wait()
            if self.daemon_logs:
                self.scan_daemon_logs()
        self.report()
        failed = bool(self.violations) or self.harness_error
        if self.a.selftest and not self.harness_error:
            failed = False
        if failed or self.a.keep:
            print(f"thrash: seed {self.seed}: kept {self.work} (thrash.log, daemon.*.log, "
                  f"cluster/)", flush=True)
        else:
            self.logf.close()
            shutil.rmtree(self.work, ignore_errors=True)
        return ok

    def thrash_phase(self):
        a = self.a
        self.log(f"thrash for {a.duration} s" if not a.ops else f"thrash for {a.ops} ops",
                 echo=True)
        deadline = time.monotonic() + a.duration
        if a.serial:
            sched = random.Random(f"{self.seed}:schedule")
            actors = self.writers + [self.thrasher]
            weights = [1.0] * len(self.writers) + [a.thrash_weight]
            while not self.stop.is_set():
                if a.ops and self.counts["ops"] >= a.ops:
                    break
                if not a.ops and time.monotonic() > deadline:
                    break
                sched.choices(actors, weights)[0].step()
        else:
            threads = [threading.Thread(target=w.loop, name=f"w{w.i}") for w in self.writers]
            threads.append(threading.Thread(target=self.thrasher.loop, name="thrasher"))
            for t in threads:
                t.start()
            try:
                while any(t.is_alive() for t in threads):
                    if a.ops and self.counts["ops"] >= a.ops:
                        break
                    if not a.ops and time.monotonic() > deadline:
                        break
                    time.sleep(0.2)
            finally:
                self.stop.set()         # the thrasher reopens the gate if it closed it
                t_stop = time.monotonic()
                for t in threads:
                    t.join(timeout=max(1, 180 - (time.monotonic() - t_stop)))
                stuck = [t.name for t in threads if t.is_alive()]
                if stuck:
                    what = "; ".join(f"{w.i}: {w.current}" for w in self.writers
                                     if f"w{w.i}" in stuck)
                    self.violation("hang", f"thread(s) {stuck} still blocked 180 s after the "
                                   f"stop: {what} (thrasher: {self.thrasher.current})")
                    raise Abort("threads blocked")
        for w in self.writers:
            if w.error:
                raise Abort(f"writer {w.i}: {w.error}")
        if self.thrasher.error:
            raise Abort(f"thrasher: {self.thrasher.error}")

    # -- quiesce and the invariants -----------------------------------------------
    def quiesce(self):
        self.log("quiesce: every OSD up and in, damage repaired, rebalance", echo=True)
        th = self.thrasher
        th.restore_all()
        # settle: rebalance until nothing moves
        settled = False
        for i in range(self.a.settle_tries):
            rc, d, err = self.cli_json("rebalance", timeout=600)
            self.log(f"quiesce rebalance #{i + 1}: rc {rc} {d} {err.strip()[:200]}")
            if rc == 0 and d and d.get("objects_moved") == 0 and d.get("pgs_changed") == 0 \
                    and d.get("old_copies_removed") == 0:
                settled = True
                break
        if not settled:
            self.violation("rebalance-unsettled", f"rebalance still had work after "
                           f"{self.a.settle_tries} rounds: last {d} {err.strip()[:300]}")
        if self.a.selftest:
            # one rogue write that nothing can overwrite before the check
            # (those made during the thrash may be, on a loaded machine)
            w = self.writers[0]
            for rel, fm in sorted(w.names.items()):
                if fm.data and not fm.uncertain:
                    w.rogue_write("selftest-final", rel, fm)
                    break
        self.check_invariants("end of thrash, mounted")
        t = time.monotonic()
        self.umount()
        rc, out, err = self.cli("check", "--deep", timeout=600)
        if rc != 0:
            self.violation("check-deep", "`crushfs check --deep` after the unmount found "
                           "problems", (out + err)[-3000:])
        rc, out, err = self.cli("fsck", "--dry-run", timeout=600)
        lines = [l for l in out.splitlines() if l.strip()]
        if rc != 0 or not lines or lines[-1].strip() != "clean":
            self.violation("fsck", f"`crushfs fsck --dry-run` is not clean (rc {rc})",
                           (out + err)[-3000:])
        self.mount()
        self.check_files("after a remount")
        self.umount()
        self.log(f"post-thrash checks took {time.monotonic() - t:.1f}s")

    def all_files(self):
        for w in self.writers:
            yield from w.ns_files()

    def check_files(self, when):
        """Every name of every writer exists as the model says and every file
        equals its model, byte for byte (cold: page cache dropped)."""
        nfiles = nbytes = 0
        for w in self.writers:
            bad = w.verify_all(when)
            nfiles += bad[0]
            nbytes += bad[1]
        self.log(f"{when}: {nfiles} files, {nbytes} bytes compared with the model",
                 echo=True)

    def check_invariants(self, when):
        self.check_files(when)
        # pg_num and pgp_num where the thrasher's last commands asked
        # (rebalance walked them there: issue 20), pgp_num = pg_num
        rc, d, err = self.cli_json("osd", "pool", "ls", "detail")
        for p in d or []:
            name = p.get("pool_name")
            want = self.pg_num.get(name)
            got = (p["pg_num"], p["pg_placement_num"], p["pg_num_target"],
                   p["pg_placement_num_target"])
            if want is not None and got != (want, want, want, want):
                self.violation("pg-num", f"{when}: pool {name}: pg_num, pgp_num and their "
                               f"targets are {got}, not all {want}")
        # PG states
        rc, d, err = self.cli_json("pg", "dump")
        bad = {}
        if d:
            for pg in d["pg_map"]["pg_stats"]:
                why = []
                if pg["state"] != "active+clean":
                    why.append(pg["state"])
                if pg["up"] != pg["acting"]:
                    why.append(f"acting {pg['acting']} != up {pg['up']}")
                s = pg["stat_sum"]
                for k in ("num_objects_degraded", "num_objects_misplaced",
                          "num_objects_unfound"):
                    if s.get(k):
                        why.append(f"{k[12:]} {s[k]}")
                if why:
                    bad[pg["pgid"]] = ", ".join(why)
        if bad:
            self.violation("pg-state", f"{when}: {len(bad)} PG(s) not active+clean with "
                           f"acting == up after quiesce",
                           "\n".join(f"pg {k}: {v}" for k, v in sorted(bad.items())[:20]))
        # deep scrub of everything
        rc, d, err = self.cli_json("scrub", "--deep", timeout=900)
        if rc != 0 or not d or d.get("errors") or d.get("unfound") or d.get("stray"):
            self.violation("scrub", f"{when}: `scrub --deep` rc {rc}: {d}", err[-3000:])
        # usage accounting
        rc, d, err = self.cli_json("check")
        if rc != 0 or not d or not d.get("ok"):
            time.sleep(3)           # nothing is written now: does it hold?
            rc2, out2, err2 = self.cli("check")
            self.violation("check" if rc2 else "check-racy",
                           f"{when}: `check` (usage accounting vs disk): {d}"
                           + ("" if rc2 else "; 3 s later it found the usage right: "
                              "it races with the daemon's own writes"),
                           (out2 + err2)[-3000:])
        # health: OK, and names every PG that is not clean
        rc, d, err = self.cli_json("health", "detail")
        status = d.get("status") if d else None
        text = json.dumps(d) if d else ""
        if status != "HEALTH_OK":
            lines = []
            for k, c in (d or {}).get("checks", {}).items():
                lines.append(f"{k}: {c['summary']['message']}")
                lines += ["  " + x["message"] for x in c.get("detail", [])[:8]]
            self.violation("health", f"{when}: health is {status}", "\n".join(lines))
        missing = [pg for pg in bad if not re.search(r"pg %s\b" % re.escape(pg), text)]
        if missing:
            self.violation("health-silent", f"{when}: health does not name {len(missing)} "
                           f"PG(s) that are not clean: {missing[:10]}")

    # -- summary -------------------------------------------------------------
    def report(self):
        c = self.counts
        ops = ", ".join(f"{k} {v}" for k, v in sorted(c.items()) if k.startswith("op."))
        print(f"thrash: seed {self.seed}: {c['ops']} operations ({ops.replace('op.', '')})",
              flush=True)
        print(f"thrash: seed {self.seed}: {c['map_changes']} map changes, {c['kills']} "
              f"kill -9, {c['damage']} damage injected, {c['enospc']} expected ENOSPC, "
              f"{c['interrupted']} ops cut by a kill, {sum(self.refusals.values())} "
              f"refusals, {c['retired']} file(s) no longer checked after a violation",
              flush=True)
        for (k, msg), n in sorted(self.refusals.items(), key=lambda x: -x[1])[:8]:
            print(f"    refused {n}x: {k}: {msg}", flush=True)
        if self.slow:
            self.slow.sort(key=lambda s: -s[0])
            print(f"thrash: seed {self.seed}: {len(self.slow)} op(s) blocked more than "
                  f"{self.a.slow} s; the longest:", flush=True)
            for dt, t, who, op, ctx in self.slow[:8]:
                print(f"    {dt:6.2f}s at +{t:.1f}s {who} {op} (while: {ctx})", flush=True)
        for n in self.notes[:12]:
            print(f"    note: {n}", flush=True)
        errs = getattr(self, "daemon_errors", [])
        if errs:
            print(f"thrash: seed {self.seed}: daemon log: "
                  f"{sum(c for l, c, _ in errs if l == 'ERROR')} ERROR line(s), "
                  f"{sum(c for l, c, _ in errs if l == 'WARN')} WARN line(s); the most "
                  f"common:", flush=True)
            for level, c, msg in errs[:8]:
                print(f"    {c:5d}x {msg[:220]}", flush=True)
        kinds = collections.Counter(k for k, _ in self.violations)
        first = {}
        for k, m in self.violations:
            first.setdefault(k, m)
        for k, n in kinds.most_common():
            print(f"    {n:4d}x {k}: e.g. {first[k][:300]}", flush=True)
        print(f"thrash: seed {self.seed}: {len(self.violations)} violation(s)"
              + (f" ({', '.join(f'{k} {v}' for k, v in kinds.items())})" if kinds else "")
              + (f"; harness: {self.harness_error.splitlines()[-1]}" if self.harness_error
                 else "") + f"; {self.now():.0f}s", flush=True)


class Gate:
    """Writers pass it around each operation; the thrasher closes it (and
    waits for the operations in flight) to remount after a kill -9."""

    def __init__(self):
        self.cv = threading.Condition()
        self.active = 0
        self.closed = False

    def enter(self, stop):
        """False once the run stops: no new operation then."""
        with self.cv:
            while self.closed and not stop.is_set():
                self.cv.wait(0.5)
            if stop.is_set():
                return False
            self.active += 1
            return True

    def leave(self):
        with self.cv:
            self.active -= 1
            self.cv.notify_all()

    def shut(self):
        """No new operation from now on (those in flight go on)."""
        with self.cv:
            self.closed = True

    def close(self, timeout=120):
        """Shut, and wait for the operations in flight to end."""
        with self.cv:
            self.closed = True
            end = time.monotonic() + timeout
            while self.active and time.monotonic() < end:
                self.cv.wait(0.5)
            return self.active == 0

    def open(self):
        with self.cv:
            self.closed = False
            self.cv.notify_all()


# ---------------------------------------------------------------------------

class Writer:
    """One writer: its own names f0..fN in /rep3/wI, /rep2/wI, /ec/wI."""

    OPS = ["write", "overwrite", "append", "trunc", "falloc", "create", "rename",
           "link", "unlink", "fsync", "dirsync", "read", "verify", "stat"]
    WEIGHTS = [18, 10, 7, 6, 5, 4, 3, 2, 3, 6, 1, 12, 3, 3]

    def __init__(self, run, i):
        self.run = run
        self.i = i
        self.rng = random.Random(f"{run.seed}:writer:{i}")
        self.dirs = [f"{d}/w{i}" for d, _ in POOLS]
        self.names = {}             # rel -> FileM
        self.ncands = {}            # rel -> {ino, None, "NEW"} since its dir's fsync
        self.byino = {}             # ino -> FileM: every file a name has or may have
        self.nops = 0
        self.current = "idle"
        self.error = None
        self.max_file = run.a.max_file

    def path(self, rel):
        return os.path.join(self.run.mnt, rel)

    def ns_files(self):
        seen = {}
        for fm in self.names.values():
            seen[fm.ino] = fm
        return seen.values()

    # -- name bookkeeping --------------------------------------------------------
    def ncand(self, rel):
        if rel not in self.ncands:
            self.ncands[rel] = {self.names[rel].ino if rel in self.names else None}
        return self.ncands[rel]

    def bind(self, rel, fm):
        self.ncand(rel)
        old = self.names.get(rel)
        if old is not None:
            old.links.discard(rel)
        if fm is None:
            self.names.pop(rel, None)
            self.ncands[rel].add(None)
        else:
            self.names[rel] = fm
            fm.links.add(rel)
            self.ncands[rel].add(fm.ino)

    # -- the loop ------------------------------------------------------------
    def loop(self):
        try:
            while not self.run.stop.is_set():
                if self.run.a.ops and self.run.counts["ops"] >= self.run.a.ops:
                    break
                self.step()
        except Abort as e:
            self.error = str(e)
            self.run.stop.set()
        except Exception:
            self.error = traceback.format_exc()
            self.run.stop.set()

    def step(self):
        run = self.run
        if not run.gate.enter(run.stop):
            return
        try:
            self.step_in_gate()
        finally:
            run.gate.leave()

    def step_in_gate(self):
        r = self.rng
        op = r.choices(self.OPS, self.WEIGHTS)[0]
        d = r.choice(self.dirs)
        rel = f"{d}/f{r.randrange(self.run.a.files)}"
        rel2 = f"{r.choice(self.dirs)}/f{r.randrange(self.run.a.files)}"
        fm = self.names.get(rel)
        if fm is None and op not in ("rename", "link", "unlink", "dirsync"):
            op = "create"
        self.nops += 1
        tag = f"w{self.i}#{self.nops}"
        if fm is not None and fm.uncertain and not self.run.crashing:
            self.reconcile(tag, fm)         # its read back failed before: again
            if fm.uncertain and op not in ("rename", "link", "unlink", "dirsync"):
                # what it holds is unknown (an O_APPEND would land at its real
                # end, a partial page would keep its real bytes): leave its
                # data alone until it reads back
                with self.run.lock:
                    self.run.counts["skipped"] += 1
                return
        # too much unsynced history: fsync it (bounds the model's memory)
        if fm is not None and fm.cand_bytes() > self.run.a.max_unsynced:
            op = "fsync"
        if self.run.a.selftest and self.i == 0 and self.nops % 150 == 0 and fm and fm.data:
            return self.rogue_write(tag, rel, fm)
        run = self.run
        epoch, sq = run.crash_epoch, run.squeeze_seq
        t = time.monotonic()
        try:
            getattr(self, "op_" + op)(tag, rel, rel2, fm, epoch, sq)
        except OSError as e:
            # an error where the operation did not expect one (a read back,
            # a listing): a violation unless the kill -9 explains it
            if not (run.crashing or run.crash_epoch != epoch):
                run.violation(ename(e.errno), f"{tag} {op} {rel}: {e.strerror} "
                              f"({e.filename or ''})")
            if fm is not None:
                fm.uncertain = True
        finally:
            dt = time.monotonic() - t
            self.current = "idle"
        with run.lock:
            run.counts["ops"] += 1
            run.counts["op." + op] += 1
        if dt > run.a.slow:
            ctx = f"osd.{run.down} down" if run.down is not None else "no OSD down"
            ctx += f"; thrasher: {run.thrasher.current}"
            run.slow.append((dt, run.now(), f"w{self.i}", f"{op} {rel}", ctx))
            run.log(f"SLOW {tag} {op} {rel} took {dt:.2f}s ({ctx})")

    def rogue_write(self, tag, rel, fm):
        """--selftest: change a byte behind the model's back; the checker
        must report it (as a data-mismatch)."""
        off = self.rng.randrange(len(fm.data))
        fd = os.open(self.path(rel), os.O_WRONLY)
        try:
            os.pwrite(fd, bytes([fm.data[off] ^ 0x5A]), off)
        finally:
            os.close(fd)
        self.run.counts["selftest_rogue"] += 1
        self.run.log(f"{tag} SELFTEST: byte {off} of {rel} changed behind the model")

    # -- error handling ----------------------------------------------------------
    def failed(self, tag, what, e, fm, epoch, sq, enospc_ok=False):
        """An operation raised OSError e.  Returns normally; decides whether it
        is a violation, and marks fm (if any) for a read-back."""
        run = self.run
        if fm is not None:
            fm.uncertain = True
        if not run.crashing and run.daemon.poll() is not None:
            run.daemon_died()
        if run.crashing or run.crash_epoch != epoch:
            with run.lock:
                run.counts["interrupted"] += 1
            run.log(f"{tag} {what}: {ename(e.errno)} (cut by the kill -9; reconciled "
                    f"after the remount)")
            return
        if e.errno == errno.ENOSPC and enospc_ok and (sq % 2 == 1 or run.squeeze_seq != sq):
            with run.lock:
                run.counts["enospc"] += 1
            run.log(f"{tag} {what}: ENOSPC while an OSD is held near full (expected)")
        else:
            ctx = f"osd.{run.down} down" if run.down is not None else "no OSD down"
            if sq % 2 == 1 or run.squeeze_seq != sq:
                ctx += ", an OSD held near full"
            if run.damage:
                ctx += f", damage outstanding in pg {[d['pgid'] for d in run.damage]}"
            ctx += f"; thrasher: {run.thrasher.current}"
            detail = None
            if e.errno == errno.EIO:
                detail = self.locate_info(what.split()[1] if " " in what else None)
            elif e.errno == errno.ENOSPC:
                rc, d, _ = run.cli_json("osd", "df")
                if d:
                    top = sorted(d["nodes"], key=lambda n: -n["utilization"])[:3]
                    detail = "fullest OSDs: " + ", ".join(
                        f"osd.{n['id']} {n['utilization']:.1f}% of {n['bytes'] >> 20} MiB"
                        for n in top)
            self.run.violation(f"{ename(e.errno)}",
                               f"{tag} {what}: {e.strerror} ({ename(e.errno)}) ({ctx})", detail)
        if fm is not None and not (run.crashing or run.crash_epoch != epoch):
            self.reconcile(tag, fm)

    def reconcile(self, tag, fm):
        """Read back a file whose last operation failed: it must hold, page by
        page, old or new contents; adopt what it holds."""
        if not fm.links:
            return
        rel = sorted(fm.links)[0]
        try:
            actual = self.read_all(rel)
        except OSError as e:
            # the same fault as the operation's, most likely: say it once
            self.run.log(f"{tag} reading back {rel} after a failed operation: "
                         f"{ename(e.errno)}; tried again later")
            return
        why = None if fm.broken else fm.accepts(actual)
        if why:
            self.run.violation("torn-state", f"{tag} {rel} (ino {fm.ino:#x}) after a failed "
                               f"operation: {why}", self.hist(fm))
            self.retire(fm)
        fm.data = bytearray(actual)
        fm.touch(0, len(actual))
        fm.sized()
        fm.uncertain = False

    def retire(self, fm):
        """After a violation on a file, it is not checked again (one report
        per loss; writers still use it)."""
        if not fm.broken:
            fm.broken = True
            with self.run.lock:
                self.run.counts["retired"] += 1

    def trace(self, fm, what, rel=None):
        """An operation, in the file's history and in thrash.log."""
        fm.hist.append(what)
        self.run.log(f"op {what}" + (f" {rel}" if rel else "") + f" [ino {fm.ino:#x}]")

    def hist(self, fm):
        return "last ops on the file: " + "; ".join(fm.hist) if fm.hist else ""

    def locate_info(self, rel, off=None):
        """Where the object at `off` of rel lives (for a report)."""
        if not rel:
            return None
        rc, d, err = self.run.cli_json("locate", self.path(rel))
        if not d:
            return f"locate {rel}: {err.strip()[:200]}"
        objs = d.get("objects", [])
        if off is not None:
            objs = [o for o in objs if o["name"].endswith(".%08x" % (off // OBJ))]
        out = []
        for o in objs[:6]:
            copies = ", ".join(f"osd.{c['osd']}{'' if c['exists'] else ' MISSING'}"
                               f"({c.get('role', '?')}, {c.get('size', '?')} B)"
                               for c in o.get("copies", []))
            out.append(f"object {o['name']}: pg {o['pgid']} up {o['up']} acting "
                       f"{o['acting']}; copies: {copies}")
        return "\n".join(out)

    # -- helpers -----------------------------------------------------------------
    def read_all(self, rel):
        fd = os.open(self.path(rel), os.O_RDONLY)
        try:
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            out = bytearray()
            while True:
                b = os.read(fd, 4 * MiB)
                if not b:
                    return bytes(out)
                out += b
        finally:
            os.close(fd)

    def length(self):
        r = self.rng
        return r.choice([1, 100, 4095, PAGE, 65536, 131072 + 5, MiB, MiB + 3000,
                         r.randrange(1, 2 * MiB), r.randrange(1, 300000)])

    def offset(self, n, size=None):
        r = self.rng
        top = self.max_file if size is None else size
        top = max(0, top - n)
        k = r.random()
        if k < 0.35:   # straddle an object boundary
            b = OBJ * r.randrange(1, max(2, self.max_file // OBJ + 1))
            return max(0, min(top, b - r.randrange(0, max(1, min(n, 8192)))))
        return r.randrange(0, top + 1)

    def data(self, n):
        return self.rng.randbytes(n)

    def wop(self, tag, rel, fm, epoch, sq, off, buf, how):
        """pwrite buf at off (model first: the new pages become candidates)."""
        self.trace(fm, f"{tag} {how} {len(buf)}@{off}", rel)
        old = len(fm.data)
        if off > old:
            fm.data.extend(bytes(off - old))
        fm.data[off:off + len(buf)] = buf
        fm.touch(off, off + len(buf), tag)
        fm.sized()
        self.current = f"{how} {len(buf)}@{off} {rel}"
        flags = os.O_WRONLY | (os.O_APPEND if how == "append" else 0)
        try:
            fd = os.open(self.path(rel), flags)
            try:
                done = 0
                while done < len(buf):
                    if how == "append":
                        n = os.write(fd, buf[done:])
                    else:
                        n = os.pwrite(fd, buf[done:], off + done)
                    if n <= 0:
                        raise OSError(errno.EIO, "write returned 0")
                    if n < len(buf) - done:
                        # a short write: only after ENOSPC (the next call says)
                        self.run.log(f"{tag} short write {n} of {len(buf) - done}")
                    done += n
            finally:
                os.close(fd)
        except OSError as e:
            self.failed(tag, f"{how} {rel} {len(buf)}@{off}", e, fm, epoch, sq, enospc_ok=True)

    # -- operations ---------------------------------------------------------------
    def op_create(self, tag, rel, rel2, fm, epoch, sq):
        if rel in self.names:
            return
        self.current = f"create {rel}"
        self.ncand(rel).add("NEW")
        try:
            fd = os.open(self.path(rel), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            ino = os.fstat(fd).st_ino
            os.close(fd)
        except OSError as e:
            self.failed(tag, f"create {rel}", e, None, epoch, sq)
            if not (self.run.crashing or self.run.crash_epoch != epoch):
                self.ncands[rel].discard("NEW")
            return
        self.ncands[rel].discard("NEW")
        fm = FileM(ino)
        self.byino[ino] = fm
        self.trace(fm, f"{tag} create {rel}")
        self.bind(rel, fm)
        # give it some data at once, most of the time
        if self.rng.random() < 0.8:
            n = self.length()
            self.wop(tag, rel, fm, epoch, sq, 0, self.data(n), "write")

    def op_write(self, tag, rel, rel2, fm, epoch, sq):
        n = self.length()
        off = self.offset(n)
        self.wop(tag, rel, fm, epoch, sq, off, self.data(n), "write")

    def op_overwrite(self, tag, rel, rel2, fm, epoch, sq):
        size = len(fm.data)
        if size == 0:
            return self.op_write(tag, rel, rel2, fm, epoch, sq)
        n = min(self.length(), size)
        off = self.offset(n, size)
        self.wop(tag, rel, fm, epoch, sq, off, self.data(n), "overwrite")

    def op_append(self, tag, rel, rel2, fm, epoch, sq):
        size = len(fm.data)
        n = min(self.length(), max(1, self.max_file - size))
        if size + n > self.max_file + 2 * MiB:
            return self.op_trunc(tag, rel, rel2, fm, epoch, sq)
        self.wop(tag, rel, fm, epoch, sq, size, self.data(n), "append")

    def op_trunc(self, tag, rel, rel2, fm, epoch, sq):
        r = self.rng
        size = len(fm.data)
        n = r.choice([0, r.randrange(size + 1), r.randrange(self.max_file),
                      OBJ * r.randrange(1, 5) + r.randrange(-3, 4) * 1000,
                      size + r.randrange(1, MiB)])
        n = max(0, min(n, self.max_file + MiB))
        self.trace(fm, f"{tag} truncate {size}->{n}", rel)
        if n < size:
            del fm.data[n:]
            fm.touch(n, size)
        else:
            fm.data.extend(bytes(n - size))
        fm.sized()
        self.current = f"truncate {rel} {size}->{n}"
        try:
            os.truncate(self.path(rel), n)
        except OSError as e:
            # a truncate must work even when full (DESIGN: deletes and
            # truncates always work); growing one too (no data)
            self.failed(tag, f"truncate {rel} {size}->{n}", e, fm, epoch, sq)

    def op_falloc(self, tag, rel, rel2, fm, epoch, sq):
        r = self.rng
        mode = r.choice(list(FMODES))
        size = len(fm.data)
        n = self.length()
        off = self.offset(n)
        if mode & FALLOC_FL_PUNCH_HOLE and r.random() < 0.1:
            n = (1 << 40) - off
        end = off + n
        self.trace(fm, f"{tag} fallocate {FMODES[mode]} {n}@{off} (size {size})", rel)
        if mode in (0, 1):
            if mode == 0 and end > size:
                fm.data.extend(bytes(end - size))
        elif mode == FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE:
            e = min(end, size)
            if off < e:
                fm.data[off:e] = bytes(e - off)
                fm.touch(off, e)
        else:   # zero range, with or without keep_size
            e = min(end, size) if mode & FALLOC_FL_KEEP_SIZE else end
            if e > size:
                fm.data.extend(bytes(e - size))
            if off < e:
                fm.data[off:e] = bytes(e - off)
                fm.touch(off, e)
        fm.sized()
        self.current = f"fallocate {FMODES[mode]} {n}@{off} {rel}"
        try:
            fd = os.open(self.path(rel), os.O_RDWR)
            try:
                fallocate(fd, mode, off, n)
            finally:
                os.close(fd)
        except OSError as e:
            # a hole punch too: partial objects are zeroed by a write, which
            # Ceph's OSDs refuse when full (only deletes pass)
            self.failed(tag, f"fallocate {rel} {FMODES[mode]} {n}@{off}", e, fm, epoch, sq,
                        enospc_ok=True)

    def op_rename(self, tag, rel, rel2, fm, epoch, sq):
        if fm is None or rel == rel2:
            return
        other = self.names.get(rel2)
        self.trace(fm, f"{tag} rename {rel} -> {rel2}")
        self.current = f"rename {rel} {rel2}"
        self.ncand(rel)
        self.ncand(rel2)
        try:
            os.rename(self.path(rel), self.path(rel2))
        except OSError as e:
            self.ncands[rel2].add(fm.ino)
            self.ncands[rel].add(None)
            self.failed(tag, f"rename {rel} {rel2}", e, None, epoch, sq)
            self.fix_names(tag, [rel, rel2], epoch)
            return
        if other is fm:       # both names of one inode: POSIX does nothing
            return
        self.bind(rel, None)
        self.bind(rel2, fm)

    def op_link(self, tag, rel, rel2, fm, epoch, sq):
        if fm is None or rel2 in self.names:
            return
        self.trace(fm, f"{tag} link {rel} -> {rel2}")
        self.current = f"link {rel} {rel2}"
        self.ncand(rel2)
        try:
            os.link(self.path(rel), self.path(rel2))
        except OSError as e:
            self.ncands[rel2].add(fm.ino)
            self.failed(tag, f"link {rel} {rel2}", e, None, epoch, sq)
            self.fix_names(tag, [rel2], epoch)
            return
        self.bind(rel2, fm)

    def op_unlink(self, tag, rel, rel2, fm, epoch, sq):
        if fm is None:
            return
        self.trace(fm, f"{tag} unlink {rel}")
        self.current = f"unlink {rel}"
        self.ncand(rel)
        try:
            os.unlink(self.path(rel))
        except OSError as e:
            self.ncands[rel].add(None)
            self.failed(tag, f"unlink {rel}", e, None, epoch, sq)
            self.fix_names(tag, [rel], epoch)
            return
        self.bind(rel, None)

    def fix_names(self, tag, rels, epoch):
        """After a failed namespace operation on a live mount: take the names'
        actual bindings (each must be one it may have)."""
        if self.run.crashing or self.run.crash_epoch != epoch:
            return
        byino = {fm.ino: fm for fm in self.ns_files()}
        for rel in rels:
            try:
                ino = os.lstat(self.path(rel)).st_ino
            except FileNotFoundError:
                ino = None
            if ino not in self.ncands.get(rel, {None}):
                self.run.violation("namespace", f"{tag} after a failed operation {rel} is "
                                   f"{ino}, not one of {self.ncands.get(rel)}")
            self.bind(rel, byino.get(ino) if ino is not None else None)

    def op_fsync(self, tag, rel, rel2, fm, epoch, sq):
        self.trace(fm, f"{tag} fsync", rel)
        self.current = f"fsync {rel}"
        try:
            fd = os.open(self.path(rel), os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError as e:
            self.failed(tag, f"fsync {rel}", e, None, epoch, sq)
            return
        if fm.uncertain:
            return
        fm.sync()

    def op_dirsync(self, tag, rel, rel2, fm, epoch, sq):
        d = rel.rsplit("/", 1)[0]
        self.current = f"fsync dir {d}"
        self.run.log(f"op {tag} fsync-dir {d}")
        try:
            fd = os.open(self.path(d), os.O_RDONLY | os.O_DIRECTORY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError as e:
            self.failed(tag, f"fsync-dir {d}", e, None, epoch, sq)
            return
        for k in list(self.ncands):
            if k.rsplit("/", 1)[0] == d:
                del self.ncands[k]
        live = {fm.ino for fm in self.names.values()}
        for c in self.ncands.values():
            live |= c
        for ino in list(self.byino):
            if ino not in live:
                del self.byino[ino]

    def op_read(self, tag, rel, rel2, fm, epoch, sq):
        if fm.uncertain or fm.broken:
            return
        size = len(fm.data)
        n = self.length()
        off = self.offset(n, size + 1000)
        self.current = f"read {n}@{off} {rel}"
        self.run.log(f"op {tag} read {n}@{off} {rel}")
        try:
            fd = os.open(self.path(rel), os.O_RDONLY)
            try:
                if self.rng.random() < 0.9:
                    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
                got = os.pread(fd, n, off)
            finally:
                os.close(fd)
        except OSError as e:
            self.failed(tag, f"read {rel} {n}@{off}", e, None, epoch, sq)
            return
        want = bytes(fm.data[off:off + n])
        if got != want:
            self.mismatch(tag, rel, fm, got, want, off, f"read {n}@{off}", epoch)

    def op_verify(self, tag, rel, rel2, fm, epoch, sq):
        if fm.uncertain or fm.broken:
            return
        self.current = f"verify {rel}"
        self.run.log(f"op {tag} verify {rel}")
        try:
            got = self.read_all(rel)
        except OSError as e:
            self.failed(tag, f"verify {rel}", e, None, epoch, sq)
            return
        if got != fm.data:
            self.mismatch(tag, rel, fm, got, bytes(fm.data), 0, "whole-file read", epoch)

    def op_stat(self, tag, rel, rel2, fm, epoch, sq):
        self.current = f"stat {rel}"
        try:
            st = os.lstat(self.path(rel))
        except OSError as e:
            self.failed(tag, f"stat {rel}", e, None, epoch, sq)
            return
        if fm.uncertain or fm.broken:
            return
        if st.st_ino != fm.ino or st.st_size != len(fm.data) or \
                st.st_nlink != len(fm.links):
            if self.run.crashing or self.run.crash_epoch != epoch:
                return
            self.run.violation("stat", f"{tag} stat {rel}: ino {st.st_ino:#x} size "
                               f"{st.st_size} nlink {st.st_nlink}, model ino {fm.ino:#x} "
                               f"size {len(fm.data)} nlink {len(fm.links)}", self.hist(fm))

    def mismatch(self, tag, rel, fm, got, want, off, what, epoch):
        if self.run.crashing or self.run.crash_epoch != epoch:
            return          # the mount went away under the read
        i = first_diff(got, want)
        at = off + i
        if len(got) != len(want) and i == min(len(got), len(want)):
            sym = f"{len(got)} bytes instead of {len(want)}"
        else:
            sym = (f"first difference at byte {at} (object {at // OBJ}, offset "
                   f"{at % OBJ} in it): got {describe_bytes(got[i:i + 4096])}, want "
                   f"{describe_bytes(want[i:i + 4096])}")
            nd = sum(1 for p in range(i // PAGE, npages(min(len(got), len(want))))
                     if got[p * PAGE:(p + 1) * PAGE] != want[p * PAGE:(p + 1) * PAGE])
            sym += f"; {nd} page(s) differ"
        # what is there instead? (the whole file read again)
        try:
            actual = self.read_all(rel)
        except OSError:
            actual = None
        p = at // PAGE
        if actual is not None and len(actual) >= (p + 1) * PAGE:
            sym += f"; page {p} holds {EVER.where(actual[p * PAGE:(p + 1) * PAGE], fm.ino, p)}"
        run = self.run
        ctx = f"osd.{run.down} down" if run.down is not None else "no OSD down"
        if run.damage:
            ctx += f", damage outstanding in pg {[d['pgid'] for d in run.damage]}"
        ctx += f"; thrasher: {run.thrasher.current}"
        self.run.violation("data-mismatch", f"{tag} {what} of /{rel} (ino {fm.ino:#x}, "
                           f"{len(fm.data)} bytes): {sym} ({ctx})",
                           "\n".join(x for x in (self.locate_info(rel, at), self.hist(fm))
                                     if x))
        # adopt what the file holds, and check it no more: one loss, one report
        self.retire(fm)
        if actual is not None:
            fm.data = bytearray(actual)
            fm.touch(0, len(actual))
            fm.sized()
        else:
            fm.uncertain = True

    # -- whole-namespace checks ------------------------------------------------------
    def listing(self):
        """The names the mount holds in this writer's directories."""
        out = {}
        for d in self.dirs:
            for n in os.listdir(self.path(d)):
                rel = f"{d}/{n}"
                out[rel] = os.lstat(self.path(rel)).st_ino
        return out

    def verify_all(self, when):
        """Strict: names and contents equal the model (no crash pending)."""
        nf = nb = 0
        try:
            actual = self.listing()
        except OSError as e:
            self.run.violation(ename(e.errno), f"{when}: listing w{self.i}'s directories: "
                               f"{e.strerror}")
            return 0, 0
        want = {rel: fm.ino for rel, fm in self.names.items()}
        if actual != want:
            self.run.violation("namespace", f"{when}: w{self.i}'s names differ from the "
                               f"model: mount has {sorted(set(actual.items()) - set(want.items()))}"
                               f", model has {sorted(set(want.items()) - set(actual.items()))}")
        for fm in list(self.ns_files()):
            rel = sorted(fm.links)[0]
            if rel not in actual:
                continue
            try:
                got = self.read_all(rel)
            except OSError as e:
                self.run.violation(ename(e.errno), f"{when}: reading /{rel}: {e.strerror}",
                                   self.locate_info(rel))
                continue
            nf += 1
            nb += len(got)
            if fm.broken:
                fm.data = bytearray(got)
                fm.uncertain = False
            elif fm.uncertain:
                why = fm.accepts(got)
                if why:
                    self.run.violation("torn-state", f"{when}: /{rel}: {why}", self.hist(fm))
                    self.retire(fm)
                fm.data = bytearray(got)
                fm.uncertain = False
            elif got != fm.data:
                self.mismatch(f"w{self.i}", rel, fm, got, bytes(fm.data), 0,
                              f"{when}: whole-file check", self.run.crash_epoch)
        return nf, nb

    def after_crash(self):
        """After a kill -9 and a remount: every name in a state it had since
        its directory's fsync, every file in a state it had since its own;
        then adopt what is there as the new baseline (fsync'ed)."""
        run = self.run
        actual = self.listing()
        # every file a name may refer to (unlinked since the directory's
        # fsync included)
        known = dict(self.byino)
        newnames = {}
        for rel in sorted(set(actual) | set(self.ncands) | set(self.names)):
            cands = self.ncand(rel)
            got = actual.get(rel)
            if got is None:
                if None not in cands:
                    run.violation("lost-name", f"after kill -9: /{rel} is gone, but it was "
                                  f"{cands} since its directory's last fsync")
                continue
            if got in cands and got in known:
                newnames[rel] = known[got]
            elif "NEW" in cands and got not in known:
                fm = FileM(got)
                newnames[rel] = fm
                known[got] = fm         # a create cut by the kill: empty
            else:
                run.violation("wrong-name", f"after kill -9: /{rel} is ino {got:#x}, not "
                              f"one of {cands}")
                fm = known.get(got) or FileM(got)
                fm.uncertain = True
                fm.lo, fm.hi = 0, 1 << 62
                known[got] = fm
                newnames[rel] = fm
        # contents
        unreadable = set()
        for ino, fm in {fm.ino: fm for fm in newnames.values()}.items():
            rel = sorted(r for r, f in newnames.items() if f is fm)[0]
            try:
                got = self.read_all(rel)
            except OSError as e:
                run.violation(ename(e.errno), f"after kill -9: reading /{rel} (ino {ino:#x}): "
                              f"{e.strerror}", self.locate_info(rel))
                fm.uncertain = True
                unreadable.add(ino)
                continue
            why = None if fm.broken else fm.accepts(got)
            if why:
                run.violation("crash-state", f"after kill -9: /{rel} (ino {ino:#x}): {why}",
                              self.hist(fm))
                self.retire(fm)
            fm.data = bytearray(got)
        # the new baseline: fsync every file and directory
        self.names = {}
        for fm in known.values():
            fm.links = set()
        for rel, fm in newnames.items():
            self.names[rel] = fm
            fm.links.add(rel)
        self.ncands = {}
        self.byino = {fm.ino: fm for fm in newnames.values()}
        for fm in {fm.ino: fm for fm in newnames.values()}.values():
            if fm.ino in unreadable:
                continue        # read back again by its next operation
            rel = sorted(fm.links)[0]
            try:
                fd = os.open(self.path(rel), os.O_RDONLY)
                try:
                    os.fsync(fd)
                finally:
                    os.close(fd)
            except OSError as e:
                run.violation(ename(e.errno), f"after kill -9: fsync of /{rel}: {e.strerror}")
                fm.uncertain = True
                continue
            fm.sync()
            fm.hist.append(f"(kill -9 #{run.counts['kills']}: {len(fm.data)} bytes adopted)")
        for d in self.dirs:
            try:
                fd = os.open(self.path(d), os.O_RDONLY | os.O_DIRECTORY)
                try:
                    os.fsync(fd)
                finally:
                    os.close(fd)
            except OSError as e:
                run.violation(ename(e.errno), f"after kill -9: fsync of /{d}: {e.strerror}")


# ---------------------------------------------------------------------------

class Thrasher:
    """The map changes, kills and damage, from the thrasher's own RNG."""

    def __init__(self, run):
        self.run = run
        self.rng = random.Random(f"{run.seed}:thrasher")
        self.osds = list(range(run.nosds))
        self.out = set()
        self.added = 0
        self.reweighted = {}
        self.squeezed = None
        self.upmaps = set()
        self.flag = None            # the osdmap flag set now (osd set), if any
        self.current = "idle"
        self.error = None
        self.nact = 0

    def loop(self):
        try:
            r = self.rng
            while not self.run.stop.is_set():
                self.run.stop.wait(r.uniform(0.2, 1.2) * self.run.a.thrash_delay)
                if self.run.stop.is_set():
                    break
                self.step()
            # writers still in flight may wait for the down OSD (an EC
            # object with fewer than k shards up, a PG below min_size:
            # Ceph's ops wait, they do not fail); like thrashosds at its
            # end, revive it, so they finish before the harness joins them
            if self.run.down is not None:
                self.event(f"(the stop: osd.{self.run.down} back up for the "
                           f"writers waiting on it)")
                self.do_up()
            # ... and a paused map unpaused: their ops wait on it too
            if self.flag is not None:
                self.event(f"(the stop: {self.flag} unset for the writers)")
                self.do_unflag()
        except Abort as e:
            self.error = str(e)
            self.run.stop.set()
        except Exception:
            self.error = traceback.format_exc()
            self.run.stop.set()

    def event(self, msg):
        run = self.run
        with run.lock:
            run.events.append(f"+{run.now():.1f}s {msg}")
        run.log(f"THRASH {msg}")

    def act(self, *args, change=True, timeout=None):
        """A CLI command of the thrasher.  rc 0: a map change (counted); rc 1
        with a message: a refusal (recorded); anything else: a violation."""
        run = self.run
        rc, out, err = run.cli(*args, timeout=timeout)
        if rc == 0:
            if change:
                run.counts["map_changes"] += 1
            self.event(" ".join(map(str, args)))
            return True, out, err
        msg = (err.strip().splitlines() or [""])[-1]
        msg = re.sub(r"\b\d+\.[0-9a-f]+\b", "PG", msg)
        msg = re.sub(r"\b\d+\b", "N", msg)
        run.refusals[(" ".join(map(str, args[:3])), msg[:150])] += 1
        self.event(f"{' '.join(map(str, args))} REFUSED (rc {rc})")
        if rc not in (1, 2):
            run.violation("cli-status", f"`crushfs {' '.join(map(str, args))}` exited {rc}",
                          (out + err)[-1500:])
        return False, out, err

    def up_in(self):
        return [o for o in self.osds if o not in self.out and o != self.run.down]

    def choices(self):
        run, a = self.run, self.run.a
        acts = []
        if len(self.out) < 2 and len(self.up_in()) > 6:
            acts.append((self.do_out, 1.0))
        if self.out:
            acts.append((self.do_in, 1.5))
        if not a.no_down and run.down is None and not run.damage:
            acts.append((self.do_down, 0.8))
        if run.down is not None:
            acts.append((self.do_up, 1.6))
        acts.append((self.do_reweight, 0.8))
        acts.append((self.do_crush_reweight, 0.5))
        if self.added < 2:
            acts.append((self.do_add, 0.2))
        if self.squeezed is None:
            acts.append((self.do_squeeze, 0.35))
        else:
            acts.append((self.do_unsqueeze, 1.2))
        acts.append((self.do_upmap, 0.6))
        if self.upmaps:
            acts.append((self.do_rm_upmap, 0.3))
        acts.append((self.do_balancer, 0.3))
        acts.append((self.do_pg_num, 0.4))
        acts.append((self.do_pgp_num, 0.2))
        acts.append((self.do_rebalance, 1.2))
        acts.append((self.do_scrub, 0.6))
        if not a.no_damage and not run.damage and run.down is None:
            acts.append((self.do_damage, 0.5))
        if run.damage:
            acts.append((self.do_repair, 1.0))
        # an osdmap flag for a while: set by one step, unset by a later one
        # (pause makes the writers wait: not in --serial, where the one
        # thread would wait for itself)
        if self.flag is None:
            acts.append((self.do_flag, 0.4))
        else:
            acts.append((self.do_unflag, 1.0))
        # a remount reads every file back: not while reads are paused
        if not a.no_kill and self.flag != "pause":
            acts.append((self.do_kill, a.kill_weight))
        return acts

    def step(self):
        if self.run.daemon.poll() is not None:
            self.run.daemon_died()
        acts = self.choices()
        if self.run.a.actions is not None:
            acts = [(f, w) for f, w in acts if f.__name__[3:] in self.run.a.actions]
        if not acts:
            return
        fn = self.rng.choices([f for f, _ in acts], [w for _, w in acts])[0]
        self.nact += 1
        self.current = fn.__name__[3:]
        try:
            fn()
        finally:
            self.current = "idle"

    # -- actions -----------------------------------------------------------------
    def do_out(self):
        o = self.rng.choice(self.up_in())
        ok, _, _ = self.act("osd", "out", o)
        if ok:
            self.out.add(o)

    def do_in(self):
        o = self.rng.choice(sorted(self.out))
        ok, _, _ = self.act("osd", "in", o)
        if ok:
            self.out.discard(o)
            self.auto_recover()

    def do_down(self):
        o = self.rng.choice(self.up_in())
        ok, _, _ = self.act("osd", "down", o)
        if ok:
            self.run.down = o

    def do_up(self):
        o = self.run.down
        ok, _, _ = self.act("osd", "up", o)
        if ok:
            self.run.down = None
            self.auto_recover()

    def auto_recover(self):
        """--auto-recover: Ceph recovers a returning OSD at once, by itself;
        crushfs recovers on `rebalance`: run it now."""
        if self.run.a.auto_recover:
            self.act("rebalance", change=False, timeout=600)

    def do_reweight(self):
        r = self.rng
        o = r.choice(self.osds)
        w = r.choice([1.0, 1.0, 0.5, 0.7, 0.85, round(r.uniform(0.3, 1.0), 3)])
        ok, _, _ = self.act("osd", "reweight", o, w)
        if ok:
            self.reweighted[o] = w

    def do_crush_reweight(self):
        r = self.rng
        o = r.choice(self.osds)
        w = round(self.run.crush_weight.get(o, 0.001) *
                  r.choice([1.0, 1.0, 0.5, 1.5, 2.0, 0.25]), 6)
        self.act("osd", "crush", "reweight", f"osd.{o}", w)

    def do_add(self):
        host = self.rng.choice(self.run.hosts)
        ok, out, _ = self.act("osd", "add", "--host", host, "--size", "256M")
        if ok:
            m = re.search(r"added osd\.(\d+)", out)
            if m:
                o = int(m.group(1))
                self.osds.append(o)
                self.run.capacity[o] = 256 * MiB
                self.run.crush_weight[o] = self.run.crush_weight[0]
                self.added += 1

    def do_squeeze(self):
        """An OSD's capacity just above what it holds: towards full (nearfull,
        backfillfull, full); writes that need it may get ENOSPC meanwhile.
        Or, one time in three, the disk under the cluster: its failsafe
        margin raised to just under what is free (issue 21), so that every
        OSD on it refuses writes soon, whatever its capacity."""
        run = self.run
        if self.rng.random() < 1 / 3 and self.squeeze_disk():
            return
        rc, d, _ = run.cli_json("osd", "df")
        if not d:
            return
        nodes = [n for n in d["nodes"] if n["id"] in self.osds and n["bytes_used"] > 2 * MiB]
        if not nodes:
            return
        n = self.rng.choice(nodes)
        ratio = self.rng.choice([0.80, 0.87, 0.92, 0.96])
        cap = int(n["bytes_used"] / ratio) // KiB * KiB
        with run.lock:
            run.squeeze_seq += 1           # odd: squeezed (before the change)
        ok, _, _ = self.act("osd", "set-capacity", n["id"], cap)
        if ok:
            self.squeezed = n["id"]
            self.event(f"(osd.{n['id']} at {ratio:.0%} of its capacity)")
        else:
            with run.lock:
                run.squeeze_seq += 1

    def squeeze_disk(self):
        run = self.run
        v = os.statvfs(run.cl)
        size, avail = v.f_blocks * v.f_frsize, v.f_bavail * v.f_frsize
        # crushfs's margin: (1 - ratio) of the filesystem, at most half
        margin = avail - self.rng.choice([0, 2, 8, 24]) * MiB
        if margin <= 64 * MiB or margin > size // 2:
            return False
        ratio = 1 - margin / size
        with run.lock:
            run.squeeze_seq += 1
        ok, _, _ = self.act("config", "set", "osd", "osd_failsafe_full_ratio",
                            f"{ratio:.6f}")
        if ok:
            self.squeezed = "disk"
            self.event(f"(the disk's failsafe margin {margin >> 20} MiB, "
                       f"{avail >> 20} MiB free)")
        else:
            with run.lock:
                run.squeeze_seq += 1
        return True

    def do_unsqueeze(self):
        run = self.run
        o = self.squeezed
        if o == "disk":
            ok, _, _ = self.act("config", "rm", "osd", "osd_failsafe_full_ratio")
            if ok:
                self.squeezed = None
                with run.lock:
                    run.squeeze_seq += 1
            return
        ok, _, _ = self.act("osd", "set-capacity", o, run.capacity[o])
        if ok:
            self.squeezed = None
            with run.lock:
                run.squeeze_seq += 1       # even: not squeezed

    def pgs(self):
        rc, d, _ = self.run.cli_json("pg", "dump")
        return d["pg_map"]["pg_stats"] if d else []

    def do_upmap(self):
        r = self.rng
        pgs = self.pgs()
        if not pgs:
            return
        pg = r.choice(pgs)
        up = [o for o in pg["up"] if o in self.osds]
        cand = [o for o in self.up_in() if o not in pg["up"]]
        if not up or not cand:
            return
        ok, _, _ = self.act("osd", "pg-upmap-items", pg["pgid"], r.choice(up), r.choice(cand))
        if ok:
            self.upmaps.add(pg["pgid"])

    def do_rm_upmap(self):
        pg = self.rng.choice(sorted(self.upmaps))
        self.upmaps.discard(pg)
        self.act("osd", "rm-pg-upmap-items", pg)

    def do_balancer(self):
        self.act("balancer", "optimize", "--max", self.rng.choice([3, 10]), "--apply")

    def targets(self, pool):
        """The pool's (pg_num_target, pgp_num_target): what `osd pool set`
        asked for; pg_num and pgp_num get there on rebalance (Ceph 14+'s
        mgr steps; crushfs issue 20)."""
        rc, d, _ = self.run.cli_json("osd", "pool", "ls", "detail")
        for p in d or []:
            if p.get("pool_name") == pool:
                return p["pg_num_target"], p["pg_placement_num_target"]
        return None, None

    def do_pg_num(self):
        """pg_num up or down: a split is made at once when the pool is
        clean; a merge, or a split of an unclean pool, only sets the
        targets, and a later rebalance lowers pgp_num and merges (as Ceph's
        monitor takes the target and its mgr does the rest)."""
        r = self.rng
        run = self.run
        pool = r.choice(sorted(run.pg_num))
        cur = run.pg_num[pool]
        new = r.choice([n for n in (cur // 2, cur * 2) if 8 <= n <= 64] or [cur])
        ok, _, _ = self.act("osd", "pool", "set", pool, "pg_num", new, timeout=600)
        if ok:
            run.pg_num[pool] = new
            pgt, pgpt = self.targets(pool)
            if pgpt is not None:
                run.pgp_num[pool] = pgpt

    def do_pgp_num(self):
        """pgp_num_target (the monitor's `pgp_num`); rebalance steps to it."""
        r = self.rng
        run = self.run
        pool = r.choice(sorted(run.pg_num))
        opts = [n for n in (8, 16, 32, 64) if n <= run.pg_num[pool]]
        new = r.choice(opts)
        ok, _, _ = self.act("osd", "pool", "set", pool, "pgp_num", new, timeout=600)
        if ok:
            run.pgp_num[pool] = new

    def do_rebalance(self):
        self.act("rebalance", timeout=600)

    def do_scrub(self):
        r = self.rng
        run = self.run
        kind = r.choice(["scrub", "deep-scrub"])
        pgs = self.pgs()
        if not pgs:
            return
        pg = r.choice(pgs)["pgid"]
        rc, d, err = run.cli_json("pg", kind, pg)
        self.event(f"pg {kind} {pg}: {d}")
        if d and d.get("errors") and not any(x["pgid"] == pg for x in run.damage) \
                and pg not in run.known_bad:
            run.known_bad.add(pg)
            recent = run.counts["kills"]
            run.violation("scrub-error", f"pg {kind} {pg} found {d['errors']} error(s) with "
                          f"no damage injected there ({recent} kill -9 so far)", err[-2000:])

    # damage on an OSD's store, as ceph-objectstore-tool does on a stopped OSD
    def do_damage(self):
        run = self.run
        r = self.rng
        o = r.choice(self.osds)
        base = os.path.join(run.cl, f"osd.{o}", "current")
        files = []
        try:
            for pgdir in sorted(os.listdir(base)):
                if not pgdir.endswith("_head"):
                    continue
                for n in sorted(os.listdir(os.path.join(base, pgdir))):
                    if re.fullmatch(r"[0-9a-f]+\.[0-9a-f]{8}", n):
                        files.append((pgdir, n))
        except OSError:
            return
        if not files:
            return
        pgdir, obj = r.choice(files)
        path = os.path.join(base, pgdir, obj)
        m = re.fullmatch(r"(\d+)\.([0-9a-f]+)(s\d+)?_head", pgdir)
        pgid = f"{m.group(1)}.{m.group(2)}"
        pool = run.pool_ids.get(int(m.group(1)), m.group(1))
        try:
            size = os.path.getsize(path)
        except OSError:
            return
        kind = "delete" if size == 0 or r.random() < 0.4 else "corrupt"
        if kind not in self.run.a.damage_kinds:
            kind = self.run.a.damage_kinds[0]
            if kind == "corrupt" and size == 0:
                return  # nothing to corrupt in an empty copy
        dmg = {"osd": o, "pgid": pgid, "pool": pool, "obj": obj, "path": path,
               "kind": kind, "shard": m.group(3) or ""}
        if kind == "corrupt":
            off = r.randrange(size)
            junk = r.randbytes(r.randint(1, 64))
            with open(path, "r+b") as f:
                f.seek(off)
                old = f.read(len(junk))
                if old == junk[:len(old)]:
                    junk = bytes(b ^ 0xFF for b in junk)
                f.seek(off)
                f.write(junk[:len(old)])
            dmg.update(off=off, junk=junk[:len(old)])
        else:
            os.unlink(path)
        run.damage.append(dmg)
        run.counts["damage"] += 1
        self.event(f"DAMAGE {kind} {obj} on osd.{o} (pg {pgid}{dmg['shard']}, pool {pool})")
        # deep-scrub must find it (when the damage is still there)
        if r.random() < 0.7:
            rc, d, err = run.cli_json("pg", "deep-scrub", pgid)
            self.event(f"pg deep-scrub {pgid}: {d}")
            if d and not d.get("errors") and self.still_damaged(dmg):
                run.violation("scrub-missed", f"pg deep-scrub {pgid} found no error, but "
                              f"{obj}'s copy on osd.{o} ({pgdir}) is "
                              f"{'missing (deleted)' if kind == 'delete' else 'corrupt'} "
                              f"and the other copies are there", self.copies(dmg))
            elif d and d.get("errors"):
                rc, h, _ = run.cli_json("health", "detail")
                # a read may have repaired it meanwhile (reads rebuild a
                # bad copy they meet): only damage still there must show
                if h and pgid not in json.dumps(h) and self.still_damaged(dmg):
                    run.violation("health-silent", f"pg {pgid} has scrub errors but "
                                  f"`health detail` does not name it: {h.get('status')}")

    def copies(self, dmg):
        out = []
        for o in self.osds:
            base = os.path.join(self.run.cl, f"osd.{o}", "current")
            try:
                for pgdir in os.listdir(base):
                    p = os.path.join(base, pgdir, dmg["obj"])
                    if pgdir.startswith(dmg["pgid"] + "_") or \
                            pgdir.startswith(dmg["pgid"] + "s"):
                        if os.path.exists(p):
                            out.append(f"osd.{o}/{pgdir}: {os.path.getsize(p)} B")
            except OSError:
                pass
        return "copies on disk: " + ", ".join(out)

    def still_damaged(self, dmg):
        """The damage is still there (no write replaced the copy) and another
        copy of the object exists."""
        others = 0
        for o in self.osds:
            if o == dmg["osd"]:
                continue
            base = os.path.join(self.run.cl, f"osd.{o}", "current")
            try:
                for pgdir in os.listdir(base):
                    if pgdir.split("_")[0].split("s")[0] == dmg["pgid"] and \
                            os.path.exists(os.path.join(base, pgdir, dmg["obj"])):
                        others += 1
            except OSError:
                pass
        if not others:
            return False
        if dmg["kind"] == "delete":
            return not os.path.exists(dmg["path"])
        try:
            with open(dmg["path"], "rb") as f:
                f.seek(dmg["off"])
                return f.read(len(dmg["junk"])) == dmg["junk"]
        except OSError:
            return False

    def do_repair(self):
        run = self.run
        dmg = run.damage[0]
        # the object's PG now (a split or merge may have moved it)
        rc, d, _ = run.cli_json("osd", "map", dmg["pool"], dmg["obj"])
        pgid = d["pgid"] if d else dmg["pgid"]
        ok, out, err = self.act("pg", "repair", pgid, change=False)
        rc, d, err2 = run.cli_json("pg", "deep-scrub", pgid)
        self.event(f"pg deep-scrub {pgid} after repair: {d}")
        if not ok or not d or d.get("errors"):
            run.known_bad.add(pgid)
            run.violation("repair", f"pg repair {pgid} after the {dmg['kind']} of "
                          f"{dmg['obj']} on osd.{dmg['osd']} left errors: repair said "
                          f"{(out + err).strip()[-300:]!r}; deep-scrub then {d}",
                          self.copies(dmg))
        run.damage.pop(0)

    def do_kill(self):
        """kill -9 of the daemon with writers in flight, a remount, then every
        writer's files and names checked against what they may be."""
        run = self.run
        run.crashing = True
        run.crash_epoch += 1
        run.counts["kills"] += 1
        self.event(f"KILL -9 daemon pid {run.daemon.pid}")
        run.gate.shut()         # the operations in flight are cut, no new ones start
        run.kill9()
        if not run.gate.close(timeout=120):
            run.violation("hang", "writers still in an operation 120 s after the kill -9")
            raise Abort("writers blocked after the kill")
        try:
            run.mount()
            # The read-back waits on an object whose only current copy is
            # on the down OSD (its PG was not recovered before the OSD
            # went down: Ceph's ops wait, they do not fail), and only this
            # thread could bring it back: revive it first, as the stop
            # does for the writers (seed 71129 hung here 180 s).
            if run.down is not None:
                self.event(f"(after the kill: osd.{run.down} back up for the "
                           f"read-back)")
                self.do_up()
            for w in run.writers:
                w.after_crash()
        finally:
            run.crashing = False
            run.gate.open()
        self.event("remounted; writers' states checked and adopted")

    # -- osdmap flags (issue 22) ---------------------------------------------------
    FLAGS = ["noout", "norebalance", "nobackfill", "norecover", "pause"]

    def do_flag(self):
        """`osd set` one flag; what it holds back (rebalance's backfill and
        recovery, the writers' ops for pause) must resume once unset."""
        flags = [f for f in self.FLAGS if f != "pause" or not self.run.a.serial]
        f = self.rng.choice(flags)
        ok, out, _ = self.act("osd", "set", f)
        if ok:
            self.flag = f

    def do_unflag(self):
        """`osd unset` it; then no flag may be left in the map."""
        run = self.run
        f = self.flag
        ok, _, _ = self.act("osd", "unset", f)
        if not ok:
            run.violation("flag-unset", f"`osd unset {f}` was refused")
            return
        self.flag = None
        rc, d, err = run.cli_json("osd", "dump")
        left = [x for x in (d or {}).get("flags_set", []) if x in self.FLAGS +
                ["pauserd", "pausewr"]]
        if rc != 0 or left:
            run.violation("flag-left", f"after `osd unset {f}` osd dump has flags "
                          f"{left} (rc {rc})", err[-1500:])

    # -- back to normal ----------------------------------------------------------
    def restore_all(self):
        """Ceph's all_up_in(): every OSD up and in, reweight 1; capacities
        back; damage repaired; pgp_num = pg_num; no osdmap flag."""
        run = self.run
        if self.flag is not None:
            self.do_unflag()
        if run.down is not None:
            self.do_up()
        for o in sorted(self.out):
            ok, _, _ = self.act("osd", "in", o)
            if ok:
                self.out.discard(o)
        for o, w in sorted(self.reweighted.items()):
            if w != 1.0:
                self.act("osd", "reweight", o, 1.0)
        self.reweighted = {}
        if self.squeezed is not None:
            self.do_unsqueeze()
        while run.damage:
            self.do_repair()
        for pool in sorted(run.pg_num):
            if run.pgp_num.get(pool) != run.pg_num[pool]:
                # the target; the quiesce's rebalance steps pgp_num there
                ok, _, _ = self.act("osd", "pool", "set", pool, "pgp_num",
                                    run.pg_num[pool], timeout=600)
                if ok:
                    run.pgp_num[pool] = run.pg_num[pool]


# ---------------------------------------------------------------------------

ACTIONS = ["out", "in", "down", "up", "reweight", "crush_reweight", "add", "squeeze",
           "unsqueeze", "upmap", "rm_upmap", "balancer", "pg_num", "pgp_num", "rebalance",
           "scrub", "damage", "repair", "kill", "flag", "unflag"]


def replay_cmd(a, seed):
    argv = ["python3", "tests/thrash/thrash.py", "--seed", str(seed)]
    if a.ops:
        argv += ["--ops", str(a.ops)]
    else:
        argv += ["--duration", str(a.duration)]
    for flag, val, default in (("--writers", a.writers, 3), ("--files", a.files, 5),
                               ("--max-file", a.max_file, 4 * MiB),
                               ("--kill-weight", a.kill_weight, 0.15),
                               ("--thrash-delay", a.thrash_delay, 1.0)):
        if val != default:
            argv += [flag, str(val)]
    if a.actions is not None:
        argv += ["--actions", ",".join(sorted(a.actions))]
    if a.damage_kinds != ["corrupt", "delete"]:
        argv += ["--damage-kinds", ",".join(a.damage_kinds)]
    for flag in ("no_down", "no_kill", "no_damage", "auto_recover", "serial", "selftest"):
        if getattr(a, flag):
            argv.append("--" + flag.replace("_", "-"))
    if a.serial:
        argv += ["--thrash-weight", str(a.thrash_weight)]
    return " ".join(shlex.quote(x) for x in argv)


def main():
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, action="append",
                    help="a seed (repeatable); default: one random seed")
    ap.add_argument("--seeds", help="seeds, comma-separated")
    ap.add_argument("--duration", type=float, default=60, help="thrash seconds per seed")
    ap.add_argument("--ops", type=int, default=0,
                    help="stop after this many writer operations instead")
    ap.add_argument("--writers", type=int, default=3)
    ap.add_argument("--files", type=int, default=5, help="names per writer and pool dir")
    ap.add_argument("--max-file", type=int, default=4 * MiB)
    ap.add_argument("--max-unsynced", type=int, default=8 * MiB,
                    help="fsync a file whose unsynced page history exceeds this")
    ap.add_argument("--no-down", action="store_true", help="no osd down/up")
    ap.add_argument("--no-kill", action="store_true", help="no kill -9 of the daemon")
    ap.add_argument("--no-damage", action="store_true", help="no damage to object copies")
    ap.add_argument("--damage-kinds", default="corrupt,delete",
                    help="damage injected: corrupt (bytes of a copy changed), delete (a "
                         "copy's file removed behind the daemon)")
    ap.add_argument("--kill-weight", type=float, default=0.15)
    ap.add_argument("--auto-recover", action="store_true",
                    help="rebalance right after every osd up / osd in (Ceph recovers "
                    "by itself; crushfs on rebalance)")
    ap.add_argument("--actions", default=None,
                    help="only these thrasher actions, comma-separated (of: " +
                    ", ".join(ACTIONS) + "); empty: none (writers alone)")
    ap.add_argument("--thrash-delay", type=float, default=1.0,
                    help="scale of the thrasher's pauses between actions")
    ap.add_argument("--serial", action="store_true",
                    help="one thread, a seeded scheduler (deterministic with --ops)")
    ap.add_argument("--thrash-weight", type=float, default=0.1,
                    help="--serial: the thrasher's share against one writer's")
    ap.add_argument("--slow", type=float, default=2.0,
                    help="report ops that take longer than this (s)")
    ap.add_argument("--settle-tries", type=int, default=8)
    ap.add_argument("--cli-timeout", type=float, default=300)
    ap.add_argument("--max-report", type=int, default=25,
                    help="print at most this many violations per seed in full")
    ap.add_argument("--crushfs", default=os.environ.get("CRUSHFS",
                                                          os.path.join(SRC, "build", "crushfs")))
    ap.add_argument("--tmpdir", default=None)
    ap.add_argument("--keep", action="store_true", help="keep the work dir of passing seeds")
    ap.add_argument("--selftest", action="store_true",
                    help="check the checker: writer 0 changes a byte behind the model "
                    "every 150 ops; exit 0 only if that is reported as a data-mismatch")
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args()
    a.damage_kinds = [x for x in a.damage_kinds.split(",") if x]
    if not a.damage_kinds or set(a.damage_kinds) - {"corrupt", "delete"}:
        ap.error(f"--damage-kinds: corrupt and/or delete, not {a.damage_kinds}")
    if a.actions is not None:
        a.actions = set(x for x in a.actions.split(",") if x)
        bad = a.actions - set(ACTIONS)
        if bad:
            ap.error(f"unknown thrasher action(s) {sorted(bad)}")
    seeds = list(a.seed or [])
    if a.seeds:
        seeds += [int(x) for x in a.seeds.split(",") if x.strip()]
    if not seeds:
        seeds = [random.SystemRandom().randrange(1, 1 << 31)]
    if not os.access(a.crushfs, os.X_OK):
        print(f"thrash: no crushfs binary at {a.crushfs}", file=sys.stderr)
        return 2

    def on_term(signum, frame):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, on_term)

    t0 = time.monotonic()
    totals = collections.Counter()
    failed = []
    harness = []
    for s in seeds:
        run = Run(a, s)
        try:
            run.go()
        except KeyboardInterrupt:
            print(f"thrash: interrupted during seed {s}", flush=True)
            return 2
        for k in ("ops", "map_changes", "kills", "damage", "enospc", "interrupted"):
            totals[k] += run.counts[k]
        totals["violations"] += len(run.violations)
        if a.selftest:
            found = sum(1 for k, _ in run.violations if k == "data-mismatch")
            other = [k for k, _ in run.violations if k != "data-mismatch"]
            print(f"thrash: selftest seed {s}: {run.counts['selftest_rogue']} rogue "
                  f"write(s), {found} data-mismatch report(s), other violations {other}",
                  flush=True)
            if run.counts["selftest_rogue"] == 0 or found == 0 or other or \
                    run.harness_error:
                print("thrash: SELFTEST FAILED: the checker missed a change behind "
                      "the model, or saw something else", flush=True)
                return 1
            continue
        if run.violations:
            failed.append((s, len(run.violations),
                           sorted(collections.Counter(k for k, _ in run.violations).items())))
        if run.harness_error:
            harness.append(s)
    print(f"thrash: SUMMARY {len(seeds)} seed(s) {seeds}: {totals['ops']} operations, "
          f"{totals['map_changes']} map changes, {totals['kills']} crashes (kill -9), "
          f"{totals['damage']} damage injected, {totals['violations']} violation(s) in "
          f"{len(failed)} seed(s){' ' + str(failed) if failed else ''}"
          f"{'; harness aborted on ' + str(harness) if harness else ''}; "
          f"{time.monotonic() - t0:.0f}s", flush=True)
    for s, n, kinds in failed:
        print(f"thrash: replay seed {s}: {replay_cmd(a, s)}", flush=True)
    if failed:
        return 1
    return 2 if harness else 0


if __name__ == "__main__":
    sys.exit(main())
