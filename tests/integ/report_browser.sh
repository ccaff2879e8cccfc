#!/usr/bin/env bash
# The HTML report in a real browser (issue 11): `crushfs report -o` on a
# cluster with data and one small OSD, rendered by headless Chromium.
# Checks the DOM Chromium built (every OSD's bar with the bytes `osd df -f
# json` reports, the crush tree's hosts, the "fills first" line naming the
# small OSD, the PG table against `osd df`'s PG counts), that the page
# references nothing outside itself, and that a 1400x1000 screenshot is not
# blank.  With CRUSHFS_REPORT_PNG=FILE the screenshot is kept there.
. "$(dirname "$0")/lib/cluster_common.sh"

BROWSER=$(command -v chromium) || BROWSER=$(command -v chromium-browser) ||
	fail "chromium not found (apt-get install -y chromium)"
C=$T/cl
"$CRUSHFS" --cluster "$C" mkfs --osd-size 64M --pg-num 32 >/dev/null
for i in $(seq 1 30); do
	head -c 300000 /dev/urandom >"$T/f"
	"$CRUSHFS" --cluster "$C" rados put "obj$i" "$T/f"
done
"$CRUSHFS" --cluster "$C" osd set-capacity 3 16M >/dev/null
(cd "$T" && "$CRUSHFS" --cluster "$C" report -o report.html --osd 3 2>/dev/null)
[ -s "$T/report.html" ] || fail "no report written (relative -o)"
ok "report -o report.html"

# self-contained: no external reference of any kind
if grep -Eio '(src|href)=|<script|<link|url\(|@import|https?:' "$T/report.html"; then
	fail "the report references something outside itself"
fi
ok "nothing fetched"

"$CRUSHFS" --cluster "$C" osd df -f json >"$T/df.json"
# the DOM as the browser built it (its own profile dir: no user state)
timeout 120 "$BROWSER" --headless --no-sandbox --disable-gpu \
	--user-data-dir="$T/profile" --dump-dom "file://$T/report.html" \
	>"$T/dom.html" 2>/dev/null || fail "chromium could not render the report"
timeout 120 "$BROWSER" --headless --no-sandbox --disable-gpu \
	--user-data-dir="$T/profile" --window-size=1400,1000 \
	--screenshot="$T/shot.png" "file://$T/report.html" >/dev/null 2>&1 ||
	fail "chromium could not take a screenshot"

py '
import json, re, struct, sys, zlib
T = sys.argv[1]
dom = open(T + "/dom.html").read()
df = json.load(open(T + "/df.json"))["nodes"]

def fail(m):
    print("FAIL:", m); sys.exit(1)

bars = {int(m.group(1)): (int(m.group(2)), int(m.group(3)))
        for m in re.finditer(r"class=\"osd\" data-osd=\"(\d+)\" data-used=\"(\d+)\" data-capacity=\"(\d+)\"", dom)}
if sorted(bars) != sorted(n["id"] for n in df):
    fail("bars for %s, osd df lists %s" % (sorted(bars), [n["id"] for n in df]))
for n in df:
    if bars[n["id"]] != (n["bytes_used"], n["bytes"]):
        fail("osd.%d: bar %s, osd df %s" % (n["id"], bars[n["id"]], (n["bytes_used"], n["bytes"])))
hosts = set(re.findall(r"class=\"bucket\" data-type=\"host\" data-name=\"([^\"]+)\"", dom))
if hosts != {"host0", "host1", "host2", "host3"}:
    fail("tree hosts %s" % sorted(hosts))
cells = re.findall(r"class=\"osd-cell\" data-osd=\"(\d+)\"", dom)
if sorted(map(int, cells)) != sorted(bars):
    fail("tree cells %s" % cells)
m = re.search(r"id=\"fills-first\" data-osd=\"(-?\d+)\" data-before-nearfull=\"(\d+)\" data-before-full=\"(\d+)\"", dom)
if not m or m.group(1) != "3" or not 0 < int(m.group(2)) < int(m.group(3)):
    fail("fills-first line %s" % (m.groups() if m else None))
if "osd.3 fills first" not in dom:
    fail("no readable fills-first text")
m = re.search(r"id=\"files\" data-osd=\"3\" data-files=\"(\d+)\"", dom)
if not m:
    fail("no files section for --osd 3")
pgs = {int(a): int(b) for a, b in re.findall(r"<tr data-osd=\"(\d+)\" data-pgs=\"(\d+)\"", dom)}
for n in df:
    if pgs.get(n["id"]) != n["pgs"]:
        fail("osd.%d: %s PGs in the report, %s in osd df" % (n["id"], pgs.get(n["id"]), n["pgs"]))

# the screenshot: a 1400x1000 PNG with more than one colour in it
png = open(T + "/shot.png", "rb").read()
if png[:8] != b"\x89PNG\r\n\x1a\n":
    fail("not a PNG")
w, h = struct.unpack(">II", png[16:24])
if (w, h) != (1400, 1000):
    fail("screenshot %dx%d" % (w, h))
raw, i = b"", 8
while i < len(png):
    n, = struct.unpack(">I", png[i:i+4]); kind = png[i+4:i+8]
    if kind == b"IDAT":
        raw += png[i+8:i+8+n]
    i += 12 + n
data = zlib.decompress(raw)
if len(set(data[::97])) < 8:
    fail("the screenshot looks blank")
print("ok - the DOM: %d OSD bars equal to osd df, hosts %s, osd.3 fills first, PGs per OSD; screenshot not blank" % (len(bars), sorted(hosts)))
' "$T"

if [ -n "${CRUSHFS_REPORT_PNG:-}" ]; then
	cp "$T/shot.png" "$CRUSHFS_REPORT_PNG"
fi
