#!/usr/bin/env bash
# The cluster's PG -> up/acting table against Ceph's own osdmaptool (16.2),
# when installed: a fresh cluster, an OSD out, a crush reweight, and an
# added OSD on a new host.  `pg dump` must list exactly osdmaptool's
# `--test-map-pgs-dump` lines (pgid, acting, primary).  (osdmaptool takes
# one --mark-out and has no way to mark an OSD down or set primary
# affinity; the unit tests cover those against Ceph's definitions.)
. "$(dirname "$0")/lib/cluster_common.sh"

if ! command -v osdmaptool >/dev/null || ! command -v crushtool >/dev/null; then
	echo "SKIP: osdmaptool/crushtool (Debian ceph-base) not installed"
	exit 77
fi

CL=$T/cl
# osdmaptool --createsimple makes pool 1 with pg_num = osds << pg-bits:
# 17 OSDs (the 17th is added below) << 2 = 68 PGs (not a power of two)
cf "$CL" mkfs --osds 16 --hosts 4 --pg-num 68 --osd-size 64M >/dev/null || fail mkfs
osdmaptool --createsimple 17 --pg-bits 2 --pgp-bits 2 --with-default-pool \
	--clobber "$T/om" >/dev/null 2>&1 || fail "osdmaptool --createsimple"

# compare NAME [osdmaptool marks...]
compare() {
	local name=$1
	shift
	crushtool -c "$CL/crushmap.txt" -o "$T/crush.bin" 2>"$T/ct.err" ||
		fail "$name: crushtool cannot compile our crushmap.txt: $(cat "$T/ct.err")"
	osdmaptool "$T/om" --import-crush "$T/crush.bin" >/dev/null 2>&1 ||
		fail "$name: import-crush"
	osdmaptool "$T/om" "$@" --test-map-pgs-dump --pool 1 2>/dev/null |
		grep '^1\.' >"$T/want"
	[ "$(wc -l <"$T/want")" = 68 ] || fail "$name: osdmaptool gave $(wc -l <"$T/want") PGs"
	cf "$CL" pg dump | awk 'NR > 1 { print $1 "\t" $10 "\t" $11 }' >"$T/got"
	diff "$T/want" "$T/got" >"$T/diff" ||
		fail "$name: pg dump differs from osdmaptool: $(head -5 "$T/diff")"
	ok "$name: 68 PGs map as osdmaptool maps them"
}

compare "all up and in" --mark-up-in
cf "$CL" osd out 3 >/dev/null
compare "osd.3 out" --mark-up-in --mark-out 3
cf "$CL" osd crush reweight 5 0.003 >/dev/null
compare "crush reweight osd.5, osd.3 out" --mark-up-in --mark-out 3
cf "$CL" osd in 3 >/dev/null
cf "$CL" osd add --host newhost --size 128M >/dev/null
compare "osd.16 added on a new host" --mark-up-in
cf "$CL" osd out 16 >/dev/null
compare "osd.16 out again" --mark-up-in --mark-out 16
