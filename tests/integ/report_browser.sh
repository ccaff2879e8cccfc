#!/usr/bin/env bash
# The HTML report in a real browser (issues 11, 22): `crushfs report -o`
# on a cluster of three pools (the data pool, an erasure pool, a size-2
# pool) with data in each, one small OSD (its crush weight left as it
# was) and one OSD down, rendered by headless Chromium.  Checks the DOM
# Chromium built against the CLI's own answers:
#   - every OSD's bar with the bytes `osd df -f json` reports, the hosts;
#   - every pool of `df -f json` listed, with its MAX AVAIL;
#   - the health checks of `health detail -f json`, by code (OSD_DOWN...);
#   - tiles of the weight view proportional to the crush weight, the
#     small OSD flagged (weight != capacity), the down OSD marked;
#   - the outlier list's first OSD the one furthest over its expected PGs
#     per `osd df` (expected from its crush weight);
#   - "fills first" naming the small OSD;
#   - the what-if page of `osd out 3`: the bytes `--dry-run -f json`
#     moves, the backfill time its busiest OSD gives;
# that no page references anything outside itself, and that each
# screenshot is not blank.  Screenshots are kept in
# $CRUSHFS_BUILD/artefacts/report_browser/ (report.png, report-capacity.png,
# report-scrolled.png, whatif.png); CRUSHFS_REPORT_PNG=FILE copies the
# first one there too.
. "$(dirname "$0")/lib/cluster_common.sh"

BROWSER=$(command -v chromium) || BROWSER=$(command -v chromium-browser) ||
	fail "chromium not found (apt-get install -y chromium)"
ART=${CRUSHFS_BUILD:-$T}/artefacts/report_browser
mkdir -p "$ART"
C=$T/cl
cf() { "$CRUSHFS" --cluster "$C" "$@"; }
cf mkfs --osd-size 64M --pg-num 32 >/dev/null
cf osd pool create ecp 16 erasure >/dev/null
cf osd pool create two 16 >/dev/null
cf osd pool set two size 2 >/dev/null
for i in $(seq 1 30); do
	head -c 300000 /dev/urandom >"$T/f"
	cf rados put "obj$i" "$T/f"
	[ $((i % 3)) -ne 0 ] || cf rados -p ecp put "e$i" "$T/f"
	[ $((i % 2)) -ne 0 ] || cf rados -p two put "t$i" "$T/f"
done
cf osd set-capacity 3 16M >/dev/null
cf osd down 7 >/dev/null
(cd "$T" && "$CRUSHFS" --cluster "$C" report -o report.html --osd 3 2>/dev/null)
[ -s "$T/report.html" ] || fail "no report written (relative -o)"
cf report --what-if 'osd out 3' --recovery-rate 10M -o "$T/whatif.html" 2>/dev/null
[ -s "$T/whatif.html" ] || fail "no what-if page written"
ok "report -o report.html, report --what-if 'osd out 3'"

# self-contained: no external reference of any kind
for f in report whatif; do
	if grep -Eio '(src|href)=|<script|<link|url\([^#]|@import|https?:' "$T/$f.html"; then
		fail "$f.html references something outside itself"
	fi
done
ok "nothing fetched"

cf osd df -f json >"$T/osddf.json"
cf df -f json >"$T/df.json"
cf health detail -f json >"$T/health.json" || true
cf -f json osd out 3 --dry-run --recovery-rate 10M >"$T/dry.json"
# the capacity view: the same page with the other radio button checked
sed 's/id="tmv-w" checked/id="tmv-w"/; s/id="tmv-c"/id="tmv-c" checked/' \
	"$T/report.html" >"$T/report-capacity.html"
render() { # html, png, height
	timeout 120 "$BROWSER" --headless --no-sandbox --disable-gpu \
		--user-data-dir="$T/profile" --dump-dom "file://$T/$1" \
		>"$T/$1.dom" 2>/dev/null || fail "chromium could not render $1"
	timeout 120 "$BROWSER" --headless --no-sandbox --disable-gpu \
		--user-data-dir="$T/profile" --window-size=1400,"$3" \
		--screenshot="$ART/$2" "file://$T/$1" >/dev/null 2>&1 ||
		fail "chromium could not take a screenshot of $1"
}
render report.html report.png 1000
render report-capacity.html report-capacity.png 1000
render report.html report-scrolled.png 2600
render whatif.html whatif.png 1300

py '
import json, re, struct, sys, zlib
T, ART = sys.argv[1], sys.argv[2]
dom = open(T + "/report.html.dom").read()
cap = open(T + "/report-capacity.html.dom").read()
wdom = open(T + "/whatif.html.dom").read()
df = json.load(open(T + "/osddf.json"))["nodes"]
pools = json.load(open(T + "/df.json"))["pools"]
health = json.load(open(T + "/health.json"))
dry = json.load(open(T + "/dry.json"))

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

# every pool, its MAX AVAIL as df says it
rows = {m.group(1): int(m.group(2)) for m in re.finditer(
    r"<tr class=\"pool\" data-pool=\"([^\"]+)\"[^>]*data-max-avail=\"(\d+)\"", dom)}
want = {p["name"]: p["stats"]["max_avail"] for p in pools}
if rows != want:
    fail("pools on the page %s, df %s" % (rows, want))
ff = {m.group(1): int(m.group(2)) for m in re.finditer(
    r"data-pool=\"([^\"]+)\"[^>]*data-fills-first=\"(-?\d+)\"", dom)}
if ff.get("crushfs_data") != 3 or any(v < 0 for v in ff.values()):
    fail("fills first per pool %s" % ff)

# the health checks, by code, with their detail lines
codes = re.findall(r"class=\"check\" data-code=\"([A-Z_]+)\"", dom)
if sorted(codes) != sorted(health["checks"]) or "OSD_DOWN" not in codes:
    fail("checks on the page %s, health detail %s" % (codes, sorted(health["checks"])))
if "osd.7 (root=default,host=" not in dom:
    fail("no OSD_DOWN detail line naming osd.7")

# the weight view: area over crush weight the same for every tile
tm = dom[dom.index("id=\"treemap-weight\""):dom.index("id=\"treemap-capacity\"")]
tiles = {int(m.group(2)): (m.group(1), float(m.group(3)), float(m.group(4)))
         for m in re.finditer(r"<g class=\"osd-cell ([^\"]*)\" data-osd=\"(\d+)\" data-pct=\"[\d.]+\" data-weight=\"([\d.]+)\" data-capacity=\"\d+\" data-area=\"([\d.]+)\"", tm)}
if sorted(tiles) != sorted(bars):
    fail("weight view tiles %s" % sorted(tiles))
r = [a / w for _, w, a in tiles.values()]
if max(r) > min(r) * 1.01:
    fail("tile areas not proportional to the weights: %s" % r)
if "down" not in tiles[7][0].split() or "mismatch" not in tiles[3][0].split():
    fail("osd.7 not marked down or osd.3 not flagged: %s %s" % (tiles[7][0], tiles[3][0]))
if any("mismatch" in tiles[i][0] for i in tiles if i != 3):
    fail("a flag on an OSD whose weight matches")
# the capacity view: osd.3 a quarter of the others
tc = cap[cap.index("id=\"treemap-capacity\""):]
ca = {int(a): float(b) for a, b in re.findall(r"data-osd=\"(\d+)\" data-pct=\"[\d.]+\" data-weight=\"[\d.]+\" data-capacity=\"\d+\" data-area=\"([\d.]+)\"", tc)}
if abs(ca[3] * 4 / ca[0] - 1) > 0.01:
    fail("capacity view: osd.3 %s, osd.0 %s" % (ca[3], ca[0]))

# the outliers: the first is the OSD furthest over its expected PGs
tw = sum(n["crush_weight"] for n in df)
tp = sum(p["size"] * p["pg_num"] for p in [
    {"size": 3, "pg_num": 32}, {"size": 4, "pg_num": 16}, {"size": 2, "pg_num": 16}])
over = sorted(((n["pgs"] - tp * n["crush_weight"] / tw) / (tp * n["crush_weight"] / tw), -n["id"]) for n in df)
first = -over[-1][1]
m = re.search(r"<table id=\"outliers\">.*?<tr data-osd=\"(\d+)\" data-pgs=\"(\d+)\"", dom, re.S)
if not m or int(m.group(1)) != first:
    fail("outliers start with %s, osd df says osd.%d" % (m.groups() if m else None, first))
pgs = {int(a): int(b) for a, b in re.findall(r"<tr data-osd=\"(\d+)\" data-pgs=\"(\d+)\"", dom)}
for n in df:
    if pgs.get(n["id"]) != n["pgs"]:
        fail("osd.%d: %s PGs in the report, %s in osd df" % (n["id"], pgs.get(n["id"]), n["pgs"]))
if not re.search(r"id=\"hist-pgs\"", dom) or not re.search(r"id=\"by-host\"", dom):
    fail("no histogram or host summary")
m = re.search(r"id=\"fills-first\" data-osd=\"(-?\d+)\" data-before-nearfull=\"(\d+)\" data-before-full=\"(\d+)\"", dom)
if not m or m.group(1) != "3" or not 0 < int(m.group(2)) < int(m.group(3)):
    fail("fills-first line %s" % (m.groups() if m else None))
if not re.search(r"id=\"files\" data-osd=\"3\" data-files=\"\d+\"", dom):
    fail("no files section for --osd 3")

# the what-if page: the dry run s figures, the busiest OSD bounding the time
m = re.search(r"id=\"whatif\" data-command=\"osd out 3\" data-pgs-changed=\"(\d+)\" data-pg-num=\"\d+\" data-bytes=\"(\d+)\"", wdom)
if not m or (int(m.group(1)), int(m.group(2))) != (dry["pgs_changed"], dry["bytes_to_move"]):
    fail("what-if %s, dry run %s" % (m.groups() if m else None, (dry["pgs_changed"], dry["bytes_to_move"])))
m = re.search(r"id=\"backfill\" data-seconds=\"([\d.]+)\" data-rate=\"(\d+)\" data-max-backfills=\"1\" data-busiest=\"(\d+)\" data-busiest-bytes=\"(\d+)\"", wdom)
moves = {int(a): max(int(b), int(c)) for a, b, c in re.findall(r"<tr data-osd=\"(\d+)\" data-before=\"\d+\" data-after=\"\d+\" data-in=\"(\d+)\" data-out=\"(\d+)\"", wdom)}
if not m or int(m.group(2)) != 10 << 20 or max(moves.values()) != int(m.group(4)) or moves[int(m.group(3))] != int(m.group(4)):
    fail("backfill %s, moves %s" % (m.groups() if m else None, moves))
if abs(float(m.group(1)) - int(m.group(4)) / (10 << 20)) > 0.001 or abs(float(m.group(1)) - dry["backfill"]["seconds"]) > 0.001:
    fail("backfill time %s for %s bytes at 10 MiB/s (dry run: %s)" % (m.group(1), m.group(4), dry["backfill"]["seconds"]))
if not re.search(r"id=\"treemap-before\"", wdom) or not re.search(r"id=\"treemap-after\"[^>]*>.*?data-osd=\"3\" data-pct=\"0.00\"[^>]*data-state=\"out\"", wdom, re.S):
    fail("no before/after treemaps with osd.3 out and empty after")

# the screenshots: PNGs with more than one colour in them
for name, size in (("report.png", (1400, 1000)), ("report-capacity.png", (1400, 1000)),
                   ("report-scrolled.png", (1400, 2600)), ("whatif.png", (1400, 1300))):
    png = open(ART + "/" + name, "rb").read()
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        fail(name + ": not a PNG")
    w, h = struct.unpack(">II", png[16:24])
    if (w, h) != size:
        fail("%s: %dx%d" % (name, w, h))
    raw, i = b"", 8
    while i < len(png):
        n, = struct.unpack(">I", png[i:i+4]); kind = png[i+4:i+8]
        if kind == b"IDAT":
            raw += png[i+8:i+8+n]
        i += 12 + n
    if len(set(zlib.decompress(raw)[::97])) < 8:
        fail(name + " looks blank")
print("ok - the DOM: %d OSD bars equal to osd df, pools %s with df MAX AVAIL, checks %s, tiles by weight, osd.3 flagged, osd.7 down, outliers from osd.%d, osd.3 fills first; what-if moves %d bytes, backfill %s s; 4 screenshots not blank" % (len(bars), sorted(rows), sorted(codes), first, dry["bytes_to_move"], dry["backfill"]["seconds"]))
' "$T" "$ART"

if [ -n "${CRUSHFS_REPORT_PNG:-}" ]; then
	cp "$ART/report.png" "$CRUSHFS_REPORT_PNG"
fi
