#!/usr/bin/env bash
# Admin commands against a mount under write load: `status`, `health
# detail`, `osd df` and `df` (text and -f json) run in a loop through the
# daemon's admin socket while a writer fills osd.0 and its capacity is
# moved below and above its usage, so it crosses nearfull, backfillfull and
# full again and again.  The daemon must survive (it used to read usage
# twice per `status` and crash when an OSD turned full in between), every
# command must exit 0, and every output must agree with itself: a check's
# count, summary and detail lines name the same OSDs, totals are the sums
# of their rows.
. "$(dirname "$0")/lib/mount_common.sh"

CL=$T/cluster
M=$T/mnt
C() { "$CRUSHFS" --cluster "$CL" "$@"; }
mkcluster "$CL" --osds 6 --hosts 3 --osd-size 256M --size 2 --min-size 1 \
	--pg-num 32 --object-size 1M
mount_fg "$CL" "$M"
[ -S "$CL/crushfs.asok" ] || fail "no admin socket"

head -c 1M /dev/urandom >"$T/one"
for i in $(seq 1 16); do cp "$T/one" "$M/base$i"; done
sync
osd_used() {
	C -f json osd df | "$PY" -c "import json,sys; print([n['bytes_used'] for n in json.load(sys.stdin)['nodes'] if n['id']==$1][0])"
}
u0=$(osd_used 0)
[ "$u0" -gt 0 ] || fail "osd.0 holds nothing after 16 MiB"
C osd set-capacity 0 $((u0 + (8 << 20))) >/dev/null || fail "set-capacity"
ok "osd.0 holds $u0 bytes, capacity set to 8 MiB more"

# the load: a writer (ENOSPC on osd.0's PGs once it is full) and a
# capacity mover; both stop when $T/stop appears
writer() {
	local i=0
	while [ ! -e "$T/stop" ]; do
		i=$((i % 24 + 1))
		cp "$T/one" "$M/w$i" 2>/dev/null || rm -f "$M/w$i"
		if [ $((i % 8)) = 0 ]; then
			rm -f "$M/w$((i - 3))"
		fi
	done
}
mover() {
	local k=0 u
	while [ ! -e "$T/stop" ]; do
		u=$(osd_used 0) || u=$u0
		[ "$u" -gt 0 ] || u=$u0
		case $((k % 4)) in
		0) C osd set-capacity 0 "$u" ;;			  # full
		1) C osd set-capacity 0 $((u * 100 / 92)) ;;	  # backfillfull
		2) C osd set-capacity 0 $((u * 100 / 87)) ;;	  # nearfull
		3) C osd set-capacity 0 $((u + (6 << 20))) ;;	  # room again
		esac >/dev/null 2>>"$T/mover.err" || echo "set-capacity failed" >>"$T/mover.err"
		k=$((k + 1))
		# not a wait: paces the changes, so that the commands see
		# osd.0 in each state for a while
		sleep 0.05
	done
}
writer &
PIDS+=($!)
mover &
PIDS+=($!)

# the commands, checked by one python process
"$PY" - "$CRUSHFS" "$CL" "$T" <<'EOF' || fail "admin commands under load"
import json, re, subprocess, sys, time

crushfs, cl, tmp = sys.argv[1:4]
RATIOS = (0.85, 0.90, 0.95)  # nearfull, backfillfull, full (defaults)
OSD_CHECKS = {"OSD_FULL": "is full", "OSD_BACKFILLFULL": "is backfill full",
              "OSD_NEARFULL": "is near full", "OSD_DOWN": "is down"}
seen = {"full": 0, "notfull": 0}

def run(*args):
    p = subprocess.run([crushfs, "--cluster", cl, *args], capture_output=True,
                       text=True, timeout=60)
    if p.returncode != 0:
        sys.exit(f"'{' '.join(args)}' exited {p.returncode}: {p.stderr.strip()}")
    if p.stderr:
        sys.exit(f"'{' '.join(args)}' wrote to stderr: {p.stderr.strip()}")
    return p.stdout

def check_text_health(out, what):
    """HEALTH_x line then [ERR]/[WRN] CODE: summary, detail lines."""
    lines = out.splitlines()
    head = next((i for i, l in enumerate(lines) if l.startswith("HEALTH_")), None)
    if head is None:
        sys.exit(f"{what}: no HEALTH_ line:\n{out}")
    summaries, cur = [], None
    for l in lines[head + 1:]:
        m = re.match(r"\[(ERR|WRN)\] (\w+): (.*)$", l)
        if m:
            cur = [m.group(2), m.group(3), []]
            summaries.append(cur)
        elif l.startswith("    ") and cur:
            cur[2].append(l.strip())
        elif l.strip():
            sys.exit(f"{what}: unexpected line {l!r}")
    first = lines[head]
    want = first.split(" ", 1)[1].split("; ") if " " in first else []
    if want != [s[1] for s in summaries]:
        sys.exit(f"{what}: health line {first!r} does not list the checks {summaries}")
    for code, summ, det in summaries:
        if code in OSD_CHECKS:
            n = int(summ.split()[0])
            if n != len(det) or any(OSD_CHECKS[code] not in d for d in det):
                sys.exit(f"{what}: {code} says {summ!r} but lists {det}")
    return {s[0] for s in summaries}

def check_json_health(h, what):
    worst = "HEALTH_OK"
    order = ["HEALTH_OK", "HEALTH_WARN", "HEALTH_ERR"]
    for code, c in h["checks"].items():
        if c["muted"] is not False:
            sys.exit(f"{what}: {code} muted")
        if order.index(c["severity"]) > order.index(worst):
            worst = c["severity"]
        if code in OSD_CHECKS:
            if c["summary"]["count"] != len(c["detail"]) or \
               not c["summary"]["message"].startswith(f'{c["summary"]["count"]} '):
                sys.exit(f"{what}: {code} count/summary/detail disagree: {c}")
    if h["status"] != worst or h["mutes"] != []:
        sys.exit(f"{what}: status {h['status']} but worst check {worst}")
    return set(h["checks"])

def fullness(used, cap):
    for r, name in zip(reversed(RATIOS), ("full", "backfillfull", "nearfull")):
        if used >= int(cap * r):
            return name
    return ""

deadline = time.time() + 12
it = 0
while time.time() < deadline or it < 8:
    it += 1
    codes = check_text_health(run("health", "detail"), "health detail")
    # `ceph -s`: the health word, then one summary line per check and
    # never the details (those are `health detail`'s)
    st = run("status")
    m = re.search(r"\n    health: (HEALTH_OK|HEALTH_WARN|HEALTH_ERR)\n"
                  r"((?:            \S.*\n)*) \n  services:\n", st)
    if not m or "[WRN]" in st or "[ERR]" in st:
        sys.exit(f"status: not ceph -s's health block: {st!r}")
    if (m.group(1) == "HEALTH_OK") != (m.group(2) == ""):
        sys.exit(f"status: {m.group(1)} with checks {m.group(2)!r}")
    sj = json.loads(run("-f", "json", "status"))
    codes |= check_json_health(sj["health"], "status -f json")
    pm = sj["pgmap"]
    if pm["bytes_avail"] != max(pm["bytes_total"] - pm["bytes_used"], 0):
        sys.exit(f"status: avail {pm['bytes_avail']} != total - used")
    hj = json.loads(run("-f", "json", "health", "detail"))
    codes |= check_json_health(hj, "health -f json")
    od = json.loads(run("-f", "json", "osd", "df"))
    for n in od["nodes"]:
        want = fullness(n["bytes_used"], n["bytes"])
        if n["fullness"] != want:
            sys.exit(f"osd df: osd.{n['id']} used {n['bytes_used']} of {n['bytes']} "
                     f"says {n['fullness']!r}, should be {want!r}")
        if n["bytes_avail"] != max(n["bytes"] - n["bytes_used"], 0):
            sys.exit(f"osd df: osd.{n['id']} avail")
    if od["summary"]["total_objects"] != sum(n["objects"] for n in od["nodes"]):
        sys.exit("osd df: total_objects is not the sum of the rows")
    if not run("osd", "df").rstrip().splitlines()[-1].startswith("MIN/MAX VAR: "):
        sys.exit("osd df: no MIN/MAX VAR line")
    dj = json.loads(run("-f", "json", "df"))
    s = dj["stats"]
    if s["total_avail_bytes"] != max(s["total_bytes"] - s["total_used_raw_bytes"], 0):
        sys.exit(f"df: avail != total - used: {s}")
    if "--- POOLS ---" not in run("df"):
        sys.exit("df: no POOLS table")
    seen["full" if "OSD_FULL" in codes else "notfull"] += 1
print(f"{it} rounds of 9 commands; rounds with osd.0 full: {seen['full']}, "
      f"without: {seen['notfull']}")
if not seen["full"] or not seen["notfull"]:
    sys.exit("the load never moved osd.0 across full: the test proved nothing")
EOF
touch "$T/stop"
wait "${PIDS[-1]}" || fail "the capacity mover"
wait "${PIDS[-2]}" || fail "the writer"
if [ -s "$T/mover.err" ]; then
	cat "$T/mover.err" >&2
	fail "set-capacity failed under load"
fi
kill -0 "$MPID" 2>/dev/null || fail "the daemon died"
is_mounted "$M" || fail "no longer mounted"
for i in $(seq 1 16); do cmp "$T/one" "$M/base$i" || fail "base$i changed"; done
ok "the daemon survived; every earlier file reads back identical"
C osd set-capacity 0 256M >/dev/null || fail "set-capacity back"
umount_fg "$M"
