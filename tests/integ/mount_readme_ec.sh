#!/usr/bin/env bash
# README's erasure-coding walkthrough runs as written (issue 22): the
# block is taken from README.md, run on a fresh cluster (its paths and
# cluster moved into the test folder), and what its comments say it prints
# is found in what it printed.
. "$(dirname "$0")/lib/mount_common.sh"

SRC=${CRUSHFS_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
CL=$T/c
M=$T/mnt_cl
awk '/^# a fresh cluster .*mounted on \/mnt\/cl$/ { on = 1; next }
     on && /^```$/ { exit }
     on' "$SRC/README.md" >"$T/walk.txt"
[ "$(grep -c '^crushfs ' "$T/walk.txt")" -ge 8 ] || fail "walkthrough not found in README.md"

mkcluster "$CL"
mount_fg "$CL" "$M"
# the commands, with the test's cluster, mount and binary; comments kept
# apart to check the output against
sed -e '/^#/d' -e "s#/mnt/cl#$M#g" -e "s#/tmp/a.bin#$T/a.bin#g" \
	-e "s#--cluster c #--cluster $CL #g" \
	-e "s#^crushfs #\"\$CRUSHFS\" #" -e "s#; crushfs #; \"\$CRUSHFS\" #g" \
	"$T/walk.txt" >"$T/walk.sh"
(cd "$T" && CRUSHFS=$CRUSHFS bash -e -x "$T/walk.sh") >"$T/out" 2>"$T/err" ||
	fail "the walkthrough failed: $(tail -5 "$T/err")"

# what the comments say
want_loc=$(sed -n 's/^#   \(10000000001\.00000000 -> pg .*\)$/\1/p' "$T/walk.txt")
[ -n "$want_loc" ] && grep -qF "$want_loc" "$T/out" ||
	fail "locate: README says '$want_loc', printed: $(grep ' -> pg ' "$T/out")"
down=$(sed -n 's/^crushfs --cluster c osd down \([0-9]*\) .*/\1/p' "$T/walk.txt")
pg0=$(echo "$want_loc" | sed 's/.* -> pg \([0-9a-f.]*\) .*/\1/')
acting0=$(echo "$want_loc" | sed 's/.* acting (\[\([0-9]*\),.*/\1/')
[ "$down" = "$acting0" ] || fail "the OSD taken down ($down) is not shard 0 of $pg0 ($acting0)"
# "2.7 up [NONE,8,6]p8, 2.2f up [8,5,NONE]p8": pg ls's PG and UP columns
sed -n 's/^crushfs --cluster c pg ls-by-pool ecdata degraded *# *//p' "$T/walk.txt" |
	sed 's/, /\n/g' >"$T/want_pgs"
[ -s "$T/want_pgs" ] || fail "no pg ls comment in the walkthrough"
while read -r pg _ up; do
	awk -v pg="$pg" -v up="$up" '$1 == pg && $8 == up { f = 1 } END { exit !f }' "$T/out" ||
		fail "pg ls: README says $pg up $up: $(grep -A3 '^PG ' "$T/out")"
done <"$T/want_pgs"
want_map=$(sed -n 's/^crushfs --cluster c pg map [0-9a-f.]* *# *//p' "$T/walk.txt")
grep -qxF "$want_map" "$T/out" || fail "pg map: README says '$want_map': $(grep '^osdmap' "$T/out")"
grep -q '^deep-scrub: 1 pg, 1 object, 0 errors' "$T/out" || fail "deep-scrub: $(tail -3 "$T/out")"
ok "README's EC walkthrough prints what it says ($pg0 on $acting0, NONE holes, rebuilt)"
umount_fg "$M"
