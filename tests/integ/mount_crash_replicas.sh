#!/usr/bin/env bash
# A crash across replica writes (issue 8): kill -9 the daemon while it
# overwrites existing files (not only appends), each overwrite fsync'ed.
# After a remount every file holds the state of its last completed fsync
# (plus, for the one write in flight, any of its pages, old or new: an
# unsynced write may land in part), never bytes of another state; and
# every object's copies are identical afterwards (a deep scrub finds 0
# errors), whichever replica the kill interrupted.
. "$(dirname "$0")/lib/mount_common.sh"

CL=$T/cluster
M=$T/mnt
mkcluster "$CL" --osd-size 512M --pg-num 32
# ops_done: the writer logged 5 completed overwrites (or more)
ops_done() {
	awk '/"ok"/ { n++ } END { exit !(n >= 5) }' "$T/done" 2>/dev/null
}
for trial in 1 2 3; do
	mount_fg "$CL" "$M"
	rm -f "$T/done" "$T/ready"
	"$PY" - "$M" "$T" "$trial" 2>/dev/null <<'PYEOF' &
import hashlib, os, random, sys, json
m, t, trial = sys.argv[1], sys.argv[2], int(sys.argv[3])
rnd = random.Random(trial)
N, SIZE = 12, 9 << 20          # three objects per file: overwrites cross them
state = {}
if trial == 1:
    for i in range(N):
        data = rnd.randbytes(SIZE)
        fd = os.open(f"{m}/f{i}", os.O_CREAT | os.O_WRONLY, 0o644)
        os.write(fd, data); os.fsync(fd); os.close(fd)
log = open(f"{t}/done", "a")
open(f"{t}/ready", "w").close()
k = 0
while True:
    i = rnd.randrange(N)
    off = rnd.randrange(SIZE - (2 << 20))
    data = rnd.randbytes(rnd.choice([1, 4096, 100000, 2 << 20]))
    # record the op before it runs: the checker replays it
    log.write(json.dumps({"f": i, "off": off, "len": len(data),
                          "seed": None}) + "\n")
    log.flush()
    with open(f"{t}/op.{k}", "wb") as o:
        o.write(data)
    fd = os.open(f"{m}/f{i}", os.O_WRONLY)
    os.pwrite(fd, data, off)
    os.fsync(fd)
    os.close(fd)
    log.write(json.dumps({"ok": k}) + "\n")
    log.flush()
    k += 1
PYEOF
	W=$!
	# the kill comes once overwrites are going on: a few completed
	# (fsync'ed), one in flight
	wait_for "trial $trial's writer to complete 5 overwrites" 120 ops_done
	kill -9 "$MPID"
	reap "$MPID" "the daemon killed with -9" 137
	# the writer dies of the lost mount (an OSError: status 1) or is
	# killed here, so this kill may find it gone already
	kill -9 "$W" 2>/dev/null || true
	reap "$W" "trial $trial's writer" 1 137
	fusermount3 -u -z "$M"
	mount_fg "$CL" "$M"
	# replay the logged ops on the reference copies: every completed op
	# must be in the file; the one in flight may or may not be
	"$PY" - "$M" "$T" "$trial" <<'PYEOF' || fail "trial $trial: a file is not in a state it was fsync'ed to"
import json, os, random, sys
m, t, trial = sys.argv[1], sys.argv[2], int(sys.argv[3])
N, SIZE = 12, 9 << 20
ref = f"{t}/ref"
if trial == 1:
    os.makedirs(ref, exist_ok=True)
    rnd = random.Random(1)
    for i in range(N):
        open(f"{ref}/f{i}", "wb").write(rnd.randbytes(SIZE))
ops, done, k = [], set(), 0
for line in open(f"{t}/done"):
    line = line.strip()
    if not line:
        continue
    try:
        e = json.loads(line)
    except ValueError:
        break
    if "ok" in e:
        done.add(e["ok"])
    else:
        ops.append(e)
pending = None
for k, e in enumerate(ops):
    data = open(f"{t}/op.{k}", "rb").read() if os.path.exists(f"{t}/op.{k}") else None
    if k in done:
        with open(f"{ref}/f{e['f']}", "r+b") as r:
            r.seek(e["off"]); r.write(data)
    else:
        pending = (e, data)
bad = 0
for i in range(N):
    got = open(f"{m}/f{i}", "rb").read()
    want = open(f"{ref}/f{i}", "rb").read()
    if got == want:
        continue
    e, data = pending if pending else (None, None)
    if e and e["f"] == i and data is not None and len(got) == len(want):
        # the write in flight was not fsync'ed: it may have landed in
        # part (the kernel splits it into requests), but every byte is
        # the old or the new one, and nothing outside it changed
        o, n = e["off"], len(data)
        ok = got[:o] == want[:o] and got[o + n:] == want[o + n:]
        p = o
        while ok and p < o + n:
            q = min((p // 4096 + 1) * 4096, o + n)  # one page of the file
            g = got[p:q]
            ok = g == want[p:q] or g == data[p - o:q - o]
            p = q
        if ok:
            open(f"{ref}/f{i}", "wb").write(got)
            continue
    diff = [k for k in range(0, len(want), 4096) if got[k:k + 4096] != want[k:k + 4096]]
    print(f"f{i}: differs from its last fsync'ed state: {len(diff)} pages "
          f"from {diff[:1]} to {diff[-1:]}; pending {e and (e['f'], e['off'], e['len'])}",
          file=sys.stderr)
    bad += 1
print(f"trial {trial}: {len(done)} fsync'ed overwrites checked", file=sys.stderr)
os.rename(f"{t}/done", f"{t}/done.{trial}")
for k in range(len(ops)):
    try: os.unlink(f"{t}/op.{k}")
    except FileNotFoundError: pass
sys.exit(1 if bad else 0)
PYEOF
	umount_fg "$M"
	"$CRUSHFS" --cluster "$CL" scrub --deep >"$T/s" 2>&1 || fail "trial $trial: deep scrub after the crash: $(cat "$T/s")"
	grep -q " 0 errors," "$T/s" || fail "trial $trial: $(cat "$T/s")"
	ok "trial $trial: kill -9 during fsync'ed overwrites: every file at its last fsync (or the write in flight), copies identical"
done
