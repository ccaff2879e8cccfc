#!/usr/bin/env bash
# Full OSDs through the CLI: an OSD made small fills up; the writes that
# need it fail with ENOSPC while the others succeed; every earlier object
# reads back identical; a full OSD shows in status/health; deleting frees
# space at once and the refused write then works; policy `pool` refuses
# every write while one OSD of the rule is full.
. "$(dirname "$0")/lib/cluster_common.sh"

CL=$T/cl
cf "$CL" mkfs --osd-size 256M --pg-num 32 >/dev/null || fail mkfs
for i in $(seq 1 8); do
	head -c $((100000 * i)) /dev/urandom >"$T/early.$i"
	cf "$CL" rados put "early.$i" "$T/early.$i" || fail "put early.$i"
done

out=$(cf "$CL" osd set-capacity 5 8M) || fail "set-capacity"
[ "$out" = "set osd.5 capacity to 8 MiB" ] || fail "set-capacity said: $out"
head -c 1048576 /dev/urandom >"$T/mb"
: >"$T/ok"
: >"$T/refused"
for i in $(seq 1 60); do
	a=$(acting "$CL" "f$i")
	on5=no
	[[ ,$a, == *,5,* ]] && on5=yes
	if cf "$CL" rados put "f$i" "$T/mb" 2>"$T/err"; then
		echo "f$i $on5" >>"$T/ok"
	else
		grep -qx "crushfs: rados put: error putting crushfs_data/f$i: (28) No space left on device" "$T/err" ||
			fail "f$i: unexpected error: $(cat "$T/err")"
		[ $on5 = yes ] || fail "f$i refused, but osd.5 is not in its acting set [$a]"
		echo "f$i" >>"$T/refused"
	fi
done
nref=$(wc -l <"$T/refused")
nok5=$(awk '/ yes$/ { n++ } END { print n + 0 }' "$T/ok")
[ "$nref" -gt 0 ] || fail "nothing refused"
# osd.5 holds the early objects on it plus at most its 95% of 8 MiB
used5=$(cf "$CL" -f json osd df | py "import json,sys; d=json.load(sys.stdin); print([n['bytes_used'] for n in d['nodes'] if n['id']==5][0])")
[ "$used5" -le $((8 * 1048576 * 95 / 100)) ] || fail "osd.5 holds $used5 bytes, over 95% of 8 MiB"
ok "writes needing osd.5 refused with ENOSPC ($nref), the others succeed ($(wc -l <"$T/ok"), $nok5 of them on osd.5)"

for i in $(seq 1 8); do
	cf "$CL" rados get "early.$i" "$T/o" && cmp -s "$T/o" "$T/early.$i" ||
		fail "early.$i changed"
done
while read -r name _; do
	cf "$CL" rados get "$name" "$T/o" && cmp -s "$T/o" "$T/mb" ||
		fail "$name changed"
done <"$T/ok"
while read -r name; do
	must_fail 'No such file' cf "$CL" rados stat "$name"
done <"$T/refused"
ok "every earlier object reads back identical; refused ones do not exist"

# over full_ratio: OSD_FULL, HEALTH_ERR; even overwrites of its PGs refused
cf "$CL" set-full-ratio 0.5 >/dev/null
h=$(cf "$CL" health detail)
[[ $h == HEALTH_ERR* ]] || fail "health: $h"
grep -q '^\[ERR\] OSD_FULL: 1 full osd(s)$' <<<"$h" || fail "no OSD_FULL: $h"
grep -q '^    osd.5 is full$' <<<"$h" || fail "OSD_FULL detail: $h"
grep -q 'OSD_OUT_OF_ORDER_FULL' <<<"$h" || fail "ratios out of order not reported: $h"
cf "$CL" osd df | grep -Eq '^ 5 .* up,full$' || fail "osd df status of osd.5"
victim=$(grep ' yes$' "$T/ok" | head -1 | cut -d' ' -f1)
if [ -n "$victim" ]; then
	must_fail 'No space left on device' cf "$CL" rados put "$victim" "$T/early.1"
	cf "$CL" rados get "$victim" "$T/o" && cmp -s "$T/o" "$T/mb" ||
		fail "$victim changed by a refused overwrite"
fi
other=$(grep ' no$' "$T/ok" | head -1 | cut -d' ' -f1)
cf "$CL" rados put "$other" "$T/early.1" || fail "write to another PG"
cf "$CL" set-full-ratio 0.95 >/dev/null
ok "full OSD: HEALTH_ERR, its PGs refuse writes, other PGs go on"

# deleting frees space at once; the refused write then fits
before=$used5
while read -r name on5; do
	[ "$on5" = yes ] && cf "$CL" rados rm "$name"
done <"$T/ok"
for i in $(seq 1 8); do
	[[ ,$(acting "$CL" "early.$i"), == *,5,* ]] && cf "$CL" rados rm "early.$i"
done
after=$(cf "$CL" -f json osd df | py "import json,sys; d=json.load(sys.stdin); print([n['bytes_used'] for n in d['nodes'] if n['id']==5][0])")
[ "$after" -lt "$before" ] || fail "deletes freed nothing on osd.5 ($before -> $after)"
first=$(head -1 "$T/refused")
cf "$CL" rados put "$first" "$T/mb" || fail "$first still refused after deletes"
ok "deletes free space at once ($before -> $after bytes on osd.5); $first now written"

# policy pool: one full OSD stops the whole pool
cf "$CL" set-full-policy pool >/dev/null
cf "$CL" osd set-capacity 5 1M >/dev/null
must_fail '\(28\) No space left on device' cf "$CL" rados put "$other" "$T/early.1"
h=$(cf "$CL" health detail)
grep -q 'POOL_FULL' <<<"$h" || fail "no POOL_FULL: $h"
cf "$CL" rados rm "$other" || fail "rm under policy pool"
cf "$CL" osd set-capacity 5 256M >/dev/null
cf "$CL" rados put "$other" "$T/early.1" || fail "pool still refuses"
ok "policy pool: every write refused while osd.5 is full; deletes work"

cf "$CL" check --deep >/dev/null || fail "check"
ok "check --deep"
