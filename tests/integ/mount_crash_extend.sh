#!/usr/bin/env bash
# Crash then extend (issue 8): write (fsync'ed or not), kill -9 the daemon,
# remount, then truncate up and write past the end.  Each file must read
# back as a prefix of what was written (CephFS-style size recovery keeps
# bytes that reached the objects), the fsync'ed part whole, and every byte
# of the new range as zero - never the "old" bytes that the objects held
# past a size that never reached the store.  Afterwards no object holds
# bytes past the end of its file (fsck: no objects past EOF, none
# orphaned).  Trials: a kill right after the writes; a kill in the middle
# of streaming and sparse writes; a kill followed by fsck before the next
# mount (fsck recovers the sizes as the mount would).
. "$(dirname "$0")/lib/mount_common.sh"

CL=$T/cluster
M=$T/mnt
mkcluster "$CL" --osd-size 512M --object-size 1M

# The writer: files/specs are in the python below; each file's intended
# content is deterministic (seeded), so the checker can rebuild it.
cat >"$T/files.py" <<'PYEOF'
import os, random, sys, time

def blob(name, n):
    return random.Random(name).randbytes(n)

# name -> list of (offset, length) writes, in order; "fsync" marks where
# the file was fsync'ed
SPECS = {
    "nosync64k": [(0, 65536)],
    "sync64k": [(0, 65536), "fsync", (65536, 65536)],
    "multi": [(0, 3 << 20 | 12345)],
    "sparse": [(5 << 20, 4096)],
    "tail": [(0, 200000), ("trunc", 10000), (10000, 7)],
}

def expected(name, ops):
    out = bytearray()
    for op in ops:
        if op == "fsync":
            continue
        if op[0] == "trunc":
            del out[op[1]:]
            continue
        off, n = op
        data = blob(f"{name}@{off}", n)
        if len(out) < off + n:
            out.extend(b"\0" * (off + n - len(out)))
        out[off:off + n] = data
    return bytes(out)

def synced_len(name, ops):
    n = 0
    cur = bytearray()
    for op in ops:
        if op == "fsync":
            n = len(cur)
            continue
        if op[0] == "trunc":
            del cur[op[1]:]
            continue
        off, ln = op
        if len(cur) < off + ln:
            cur.extend(b"\0" * (off + ln - len(cur)))
    return n

def write(d, prefix):
    for name, ops in SPECS.items():
        fd = os.open(os.path.join(d, prefix + name),
                     os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o644)
        for op in ops:
            if op == "fsync":
                os.fsync(fd)
            elif op[0] == "trunc":
                os.ftruncate(fd, op[1])
            else:
                off, n = op
                os.pwrite(fd, blob(f"{name}@{off}", n), off)
        os.close(fd)

def stream(d, ready):
    # appends and sparse writes until the daemon dies under them
    a = os.open(os.path.join(d, "stream"), os.O_CREAT | os.O_WRONLY, 0o644)
    s = os.open(os.path.join(d, "holes"), os.O_CREAT | os.O_WRONLY, 0o644)
    open(ready, "w").close()
    i = 0
    try:
        while True:
            os.pwrite(a, blob(f"stream@{i}", 65536), i * 65536)
            os.pwrite(s, blob(f"holes@{i}", 3000), i * (1 << 17) + 777)
            i += 1
    except OSError:
        pass

def stream_expected(name, size):
    out = bytearray(size)
    i = 0
    while True:
        off = i * 65536 if name == "stream" else i * (1 << 17) + 777
        n = 65536 if name == "stream" else 3000
        if off >= size:
            return bytes(out)
        out[off:off + n] = blob(f"{name}@{i}", n)[:max(0, size - off)]
        i += 1

def check(path, want, synced):
    with open(path, "rb") as f:
        got = f.read()
    size = len(got)
    if size > len(want):
        sys.exit(f"{path}: {size} bytes, more than the {len(want)} written")
    if size < synced:
        sys.exit(f"{path}: {size} bytes, less than the {synced} fsync'ed")
    if got != want[:size]:
        bad = next(i for i in range(size) if got[i] != want[i])
        sys.exit(f"{path}: differs from what was written at byte {bad} "
                 f"(size {size})")
    # grow it: truncate up, then write past the new end
    fd = os.open(path, os.O_RDWR)
    os.ftruncate(fd, size + 100000)
    os.pwrite(fd, b"Z", size + 300000)
    os.close(fd)
    with open(path, "rb") as f:
        got = f.read()
    if len(got) != size + 300001 or got[-1:] != b"Z":
        sys.exit(f"{path}: wrong size {len(got)} after extending from {size}")
    tail = got[size:size + 300000]
    if tail.count(0) != len(tail):
        bad = next(i for i in range(len(tail)) if tail[i])
        sys.exit(f"{path}: old bytes at {size + bad} after extending from "
                 f"{size} (truncate up / write past the end)")
    return size

if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "write":
        write(sys.argv[2], sys.argv[3])
    elif cmd == "stream":
        stream(sys.argv[2], sys.argv[3])
    elif cmd == "check":
        d, prefix = sys.argv[2], sys.argv[3]
        sizes = []
        for name, ops in SPECS.items():
            sizes.append(check(os.path.join(d, prefix + name),
                               expected(name, ops), synced_len(name, ops)))
        print(" ".join(map(str, sizes)))
    elif cmd == "check-stream":
        d = sys.argv[2]
        sizes = []
        for name in ("stream", "holes"):
            p = os.path.join(d, name)
            size = os.stat(p).st_size
            sizes.append(check(p, stream_expected(name, size), 0))
        print(" ".join(map(str, sizes)))
PYEOF

crash() {
	kill -9 "$MPID"
	reap "$MPID" "the daemon killed with -9" 137
	fusermount3 -u -z "$M"
}

no_past_eof() {
	"$CRUSHFS" --cluster "$CL" fsck --dry-run >"$T/fsck.out" 2>&1 ||
		{ cat "$T/fsck.out"; fail "fsck --dry-run finds problems ($1)"; }
	grep -q "orphan objects 0 (0 B), objects past EOF 0," "$T/fsck.out" ||
		{ cat "$T/fsck.out"; fail "objects hold bytes past the end of a file ($1)"; }
}

# 1. kill -9 right after the writes (well inside the 2 s write-back)
mount_fg "$CL" "$M"
"$PY" "$T/files.py" write "$M" a-
crash
mount_fg "$CL" "$M"
sizes=$("$PY" "$T/files.py" check "$M" a-) || fail "trial 1"
# every write had returned: all of it is recovered
ALL="65536 131072 3158073 5246976 10007"
[ "$sizes" = "$ALL" ] || fail "trial 1: sizes $sizes, not $ALL"
umount_fg "$M"
no_past_eof "trial 1"
ok "kill after writes: prefixes kept (sizes $sizes), extended ranges read zeros"

# 2. kill -9 in the middle of appends and sparse writes
mount_fg "$CL" "$M"
"$PY" "$T/files.py" stream "$M" "$T/ready" 2>/dev/null &
W=$!
# the kill comes in the middle of the stream: a few objects in
streaming() { size_over "$M/stream" $((4 << 20)); }
wait_for -i 0.05 "the stream to pass 4 MiB" 60 streaming
crash
# the writer stops on the lost mount's error, and says nothing
reap "$W" "the stream writer" 0
mount_fg "$CL" "$M"
sizes=$("$PY" "$T/files.py" check-stream "$M") || fail "trial 2"
[ "${sizes%% *}" -gt 0 ] || fail "trial 2: nothing of the stream survived"
umount_fg "$M"
no_past_eof "trial 2"
ok "kill during streaming/sparse writes: prefixes kept (sizes $sizes), extended ranges read zeros"

# 3. kill -9, then fsck before the next mount: it recovers the sizes
mount_fg "$CL" "$M"
"$PY" "$T/files.py" write "$M" c-
crash
"$CRUSHFS" --cluster "$CL" fsck >"$T/fsck3" 2>&1 || { cat "$T/fsck3"; fail "fsck after the crash"; }
grep -q "objects past EOF" "$T/fsck3" || { cat "$T/fsck3"; fail "fsck output"; }
if grep -E "past the end of its file|: trimmed" "$T/fsck3"; then
	fail "fsck threw away data a crashed file had written"
fi
mount_fg "$CL" "$M"
sizes=$("$PY" "$T/files.py" check "$M" c-) || fail "trial 3"
[ "$sizes" = "$ALL" ] || fail "trial 3: sizes $sizes, not $ALL"
umount_fg "$M"
no_past_eof "trial 3"
ok "kill then fsck: sizes recovered ($sizes), extended ranges read zeros"
