#!/usr/bin/env bash
# `crushfs analyze` against what then happens (issue 11): a cluster with
# one small OSD (osd.3 at a quarter of the others' capacity, same crush
# weight), empty; analyze names osd.3 as the OSD that fills first and
# predicts how much can be stored before it is full; 64 KiB objects are
# then written until the first ENOSPC.  The bytes written must be within
# 5% of the prediction by the PGs (objects hash evenly over PGs), and the
# refusal must come from osd.3.
. "$(dirname "$0")/lib/cluster_common.sh"

C=$T/cl
"$CRUSHFS" --cluster "$C" mkfs --osd-size 16M --pg-num 128 >/dev/null
"$CRUSHFS" --cluster "$C" osd set-capacity 3 4M >/dev/null
"$CRUSHFS" --cluster "$C" analyze >"$T/an.txt"
grep -q 'osd.3 fills first' "$T/an.txt" || fail "analyze: $(cat "$T/an.txt")"
"$CRUSHFS" --cluster "$C" analyze -f json >"$T/an.json"
pred=$(py 'import json, sys; d = json.load(open(sys.argv[1])); assert d["by_pgs"]["fills_first"] == 3; print(d["by_pgs"]["before_full"])' "$T/an.json")
ok "analyze: osd.3 fills first, $pred bytes before full (by the PGs)"

head -c 65536 /dev/urandom >"$T/obj"
i=0
while "$CRUSHFS" --cluster "$C" rados put "o$i" "$T/obj" 2>"$T/err"; do
	i=$((i + 1))
	[ $i -lt 100000 ] || fail "no ENOSPC"
done
grep -q 'No space left on device' "$T/err" || fail "stopped by: $(cat "$T/err")"
wrote=$((i * 65536))
"$CRUSHFS" --cluster "$C" health detail >"$T/health.txt" ||
	fail "health detail: $(cat "$T/health.txt")"
py 'import sys; w, p = int(sys.argv[1]), int(sys.argv[2]); d = abs(w - p) / p
print("wrote %d bytes, predicted %d: %.1f%% off" % (w, p, 100 * d)); sys.exit(d > 0.05)' "$wrote" "$pred" ||
	fail "the prediction is off by more than 5%"
grep -q 'osd.3' "$T/health.txt" || fail "the full OSD is not osd.3: $(cat "$T/health.txt")"
ok "ENOSPC after $wrote bytes, within 5% of the prediction, at osd.3"
