"""report_df.py PAGE.html DF.json: each pool row of the report against
`df -f json`'s pool (stored, bytes_used, max_avail, percent_used): one line
a pool, "same" or both figures (used by report_df.t)."""
import json
import re
import sys

page = open(sys.argv[1]).read()
df = json.load(open(sys.argv[2]))
rows = {m.group(1): m.group(0) for m in
        re.finditer(r'<tr class="pool" data-pool="([^"]*)"[^>]*>', page)}
for p in df["pools"]:
    r, s = rows.get(p["name"]), p["stats"]
    if r is None:
        print(p["name"], "not on the page")
        continue

    def attr(k):
        return re.search(k + r'="([^"]*)"', r).group(1)
    got = (int(attr("data-stored")), int(attr("data-raw-used")),
           int(attr("data-max-avail")), attr("data-pct"))
    want = (s["stored"], s["bytes_used"], s["max_avail"],
            "%.2f" % (100 * s["percent_used"]))
    print(p["name"], "same" if got == want else "page %s df %s" % (got, want))
print(len(rows), "pool rows,", len(df["pools"]), "pools in df")
