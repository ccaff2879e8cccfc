#!/usr/bin/env bash
# The live dashboard in a real browser (issue 22): headless Chromium,
# driven over the DevTools protocol (tests/integ/lib/cdp.py), opens the
# dashboard of a mounted cluster; then an OSD made nearly full refuses a
# copy (ENOSPC) and another OSD is marked down.  Polling the live DOM (with
# limits), the event log panel shows the refusal (file, PG, OSD) and the
# down OSD, the health line and the OSD counts change, the fill chart has
# samples, and all of it without a reload (the page-load counter the page
# keeps in sessionStorage stays 1, a marker set in the window stays).
# Screenshots are kept in $CRUSHFS_BUILD/artefacts/dashboard-*.png.
. "$(dirname "$0")/lib/mount_common.sh"

BROWSER=$(command -v chromium) || BROWSER=$(command -v chromium-browser) ||
	fail "chromium not found (apt-get install -y chromium)"
ART=${CRUSHFS_BUILD:-$T}/artefacts
mkdir -p "$ART"

CL=$T/cluster
M=$T/mnt
C() { "$CRUSHFS" --cluster "$CL" "$@"; }
mkcluster "$CL" --osds 6 --hosts 3 --osd-size 256M --pg-num 32
C config set mgr mgr_history_interval 1
mount_fg "$CL" "$M"
for i in 1 2 3 4; do
	head -c 3M /dev/urandom >"$M/early$i"
done
sync

"$CRUSHFS" --cluster "$CL" dashboard --listen 127.0.0.1:0 >"$T/dash.out" 2>&1 &
DPID=$!
PIDS+=("$DPID")
dash_up() { grep -q 'http://' "$T/dash.out" || proc_gone "$DPID"; }
wait_for "the dashboard to print its address (or exit)" 30 dash_up
PORT=$(grep -o 'http://127.0.0.1:[0-9]*' "$T/dash.out" | cut -d: -f3)
[ -n "$PORT" ] || fail "the dashboard did not start: $(cat "$T/dash.out")"

PYTHONPATH="$CRUSHFS_SRC/tests/integ/lib" "$PY" - "$BROWSER" "$T" "$PORT" \
	"$CRUSHFS" "$CL" "$M" "$ART" <<'PYEOF' || fail "the browser test failed"
import json, os, subprocess, sys, time
from cdp import Browser

exe, T, port, crushfs, cl, mnt, art = sys.argv[1:]

def ok(m):
    print("ok - " + m, flush=True)

def C(*a):
    return subprocess.run([crushfs, "--cluster", cl] + list(a), check=True,
                          capture_output=True, text=True).stdout

def texts(sel):
    return "Array.from(document.querySelectorAll(%s)).map(e => e.textContent)" % json.dumps(sel)

b = Browser(exe, T + "/profile")
try:
    p = b.page()
    p.navigate("http://127.0.0.1:%s/" % port)
    p.wait("the page to connect to /events and get a status",
           "document.getElementById('live-conn') && "
           "document.getElementById('live-conn').textContent === 'live' && "
           "+document.getElementById('live-updates').textContent >= 1", 60)
    p.eval("window.__crushfs_mark = 42")
    assert p.eval("document.getElementById('live-health').textContent") == "HEALTH_OK"
    p.wait("fill samples in the chart",
           "+document.getElementById('live-chart').getAttribute('data-samples') >= 2 && "
           "document.querySelector('#live-chart path.raw') !== null", 60)
    samples0 = int(p.eval("document.getElementById('live-chart').getAttribute('data-samples')"))
    p.screenshot(art + "/dashboard-1-healthy.png")
    ok("the page is live: HEALTH_OK, fill chart with samples")

    # fill osd.1: 6 MiB of room left, then a copy that needs more
    df = json.loads(C("-f", "json", "osd", "df"))
    used = [n["bytes_used"] for n in df["nodes"] if n["id"] == 1][0]
    C("osd", "set-capacity", "1", str(used + (6 << 20)))
    with open(T + "/big", "wb") as f:
        f.write(os.urandom(64 << 20))
    r = subprocess.run(["cp", T + "/big", mnt + "/big"], capture_output=True, text=True)
    assert r.returncode != 0 and "No space left on device" in r.stderr, r
    line = p.wait("the refused write in the event log panel",
                  "Array.from(document.querySelectorAll('#live-events li.lv-WRN'))"
                  ".map(e => e.textContent).find(t => /refused \\(ENOSPC\\): osd\\.1 is full/.test(t))", 60)
    assert "osd.1 (osd.1)" not in line and " osd.1 [WRN] pg 1." in line, line
    assert "(file inode 0x" in line, line
    p.wait("a health check about osd.1 in the live panel",
           "document.querySelector('#live-checks li') !== null && "
           "document.getElementById('live-health').textContent !== 'HEALTH_OK'", 60)
    p.screenshot(art + "/dashboard-2-enospc.png")
    ok("ENOSPC shown: " + line)

    t0 = time.monotonic()
    C("osd", "down", "4")
    p.wait("'osd.4 marked down' in the event log panel",
           texts("#live-events li") + ".some(t => / mon\\.a \\[INF\\] osd\\.4 marked down$/.test(t))", 60)
    shown = time.monotonic() - t0
    p.wait("the OSD_DOWN check and 5 OSDs up",
           "document.querySelector('#live-checks li[data-code=OSD_DOWN]') !== null && "
           "document.getElementById('live-summary').getAttribute('data-up') === '5'", 60)
    p.wait("the health check failure in the panel",
           texts("#live-events li") + ".some(t => /\\[WRN\\] Health check failed: 1 osds down \\(OSD_DOWN\\)/.test(t))", 60)
    first = p.eval("document.querySelector('#live-events li').textContent")
    assert "OSD_DOWN" in first or "osd.4" in first or "pgmap" in first or "Health" in first, first
    p.screenshot(art + "/dashboard-3-osd-down.png")
    ok("osd.4 down shown: the log line %.2f s after the command, OSD_DOWN, 5 up" % shown)

    # the report's own views follow too: its header counts the OSD up
    p.wait("the report body refreshed in place (5 up)",
           "/6 OSDs, 5 up/.test(document.getElementById('report-body').textContent)", 60)
    loads = p.eval("document.getElementById('live-loads').textContent")
    mark = p.eval("window.__crushfs_mark")
    navs = p.eval("performance.getEntriesByType('navigation').length")
    assert (loads, mark, navs) == ("1", 42, 1), (loads, mark, navs)
    seqs = p.eval("Array.from(document.querySelectorAll('#live-events li')).map(e => +e.getAttribute('data-seq'))")
    assert seqs == sorted(seqs, reverse=True) and len(seqs) >= 4, seqs
    p.wait("new fill samples pushed to the chart",
           "+document.getElementById('live-chart').getAttribute('data-samples') > %d" % samples0, 60)
    ok("no reload: page loads %s, the window marker kept, %d navigation; "
       "log newest first (%d entries); chart %d -> %s samples" %
       (loads, navs, len(seqs), samples0,
        p.eval("document.getElementById('live-chart').getAttribute('data-samples')")))
    C("osd", "up", "4")
    p.wait("the health back without OSD_DOWN",
           "document.querySelector('#live-checks li[data-code=OSD_DOWN]') === null", 60)
finally:
    b.close()
PYEOF
for f in 1-healthy 2-enospc 3-osd-down; do
	[ -s "$ART/dashboard-$f.png" ] || fail "no screenshot $f"
done
ok "screenshots in $ART: $(cd "$ART" && ls dashboard-*.png | paste -sd' ')"

# Ctrl-C stops it cleanly (streams ended, threads joined; under ASan, no
# report)
kill -INT "$DPID"
rc=0
wait "$DPID" || rc=$?
[ $rc = 0 ] || fail "the dashboard exited $rc on SIGINT: $(tail -5 "$T/dash.out")"
grep -qiE 'sanitizer|leak' "$T/dash.out" && fail "sanitizer report: $(cat "$T/dash.out")"
ok "the dashboard stops on SIGINT with status 0"
