#!/usr/bin/env bash
# oracle.sh: the crushfs golden commands, answered by Ceph's own tools.
#
# It takes exactly the arguments `crushfs` takes for the four commands the
# golden corpus covers and runs crushtool/osdmaptool (Ceph 16.2) instead:
#
#   oracle.sh crush test -i MAP.txt [crushtool --test flags...]
#       = crushtool -i MAP.bin --test FLAGS            (MAP.bin = crushtool -c MAP.txt)
#   oracle.sh crush compare -i A.txt --compare B.txt [flags...]
#       = crushtool -i A.bin --compare B.bin FLAGS
#   oracle.sh osdmap test-map-object NAME --crush MAP.txt --pool ID --pg-num N
#                                    [--pgp-num N] [--size R]
#       = the " object 'NAME' -> ID.ps -> [osds]" line of
#         osdmaptool OM --mark-up-in --test-map-object NAME --pool ID
#   oracle.sh osdmap test-map-pgs-dump --crush MAP.txt --pool ID --pg-num N
#                                    [--pgp-num N] [--size R] [--overrides F]
#       = stdout of osdmaptool OM --mark-up-in --test-map-pgs-dump --pool ID
#
# OM is an osdmap with max_osd = the crush map's max_devices, the crush map
# imported, and one replicated pool (hashpspool, crush_rule 0) with the given
# id, pg_num, pgp_num (default pg_num) and size (default 3). osdmaptool can
# only create pool 1 with pg_num = max_osd << bits, so the pool id, pg_num,
# pgp_num (and their _target/_pending copies) are patched into the encoded
# map and its crc32c is recomputed (see patch_osdmap below); gen_golden.sh
# checks the patch against crushtool --pool-id.
#
# gen_golden.sh records this script's output as the expected output, and
# `check_golden.sh tests/golden/oracle.sh` must pass (harness self-test).
# Needs crushtool, osdmaptool, python3, sha256sum. Compiled maps and osdmaps
# are cached in $ORACLE_CACHE (default /tmp/crushfs-oracle-$UID).
set -u

die() { echo "oracle.sh: $*" >&2; exit 2; }

CACHE=${ORACLE_CACHE:-/tmp/crushfs-oracle-$(id -u)}
mkdir -p "$CACHE" || die "cannot create $CACHE"

# compile MAP.txt (cached by content); prints the .bin path
compiled() {
    local txt=$1 key bin
    [[ -r $txt ]] || die "cannot read $txt"
    key=$(sha256sum <"$txt" | cut -c1-32)
    bin=$CACHE/$key.bin
    if [[ ! -s $bin ]]; then
        crushtool -c "$txt" -o "$bin.tmp.$$" >/dev/null 2>"$CACHE/$key.err" ||
            { cat "$CACHE/$key.err" >&2; rm -f "$bin.tmp.$$"; return 1; }
        mv -f "$bin.tmp.$$" "$bin"
    fi
    echo "$bin"
}

patch_osdmap() {  # FILE POOL PG_NUM PGP_NUM
    python3 - "$@" <<'PY'
import struct, sys
fn, pool, pg, pgp = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
d = bytearray(open(fn, 'rb').read())
T = []
for i in range(256):
    c = i
    for _ in range(8):
        c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
    T.append(c)
def crc32c(b, crc=0xffffffff):       # ceph_crc32c(-1, ...): no final xor
    for x in b:
        crc = T[(crc ^ x) & 0xff] ^ (crc >> 8)
    return crc
def u32(o): return struct.unpack_from('<I', d, o)[0]
def fail(m): sys.exit('patch_osdmap: ' + m)
if crc32c(d[:-4]) != u32(len(d) - 4):
    fail('crc is not the last 4 bytes of the map; layout changed?')
# OSDMap::encode: [v compat len] [client: v compat len] fsid(16) epoch(4)
# created(8) modified(8) pools: count(4) {key(8) pg_pool_t: v compat len body}
P = 48
if u32(P) != 1 or struct.unpack_from('<q', d, P + 4)[0] != 1:
    fail('expected exactly pool 1 at offset 48')
plen = u32(P + 14)
body = P + 18
old = u32(body + 4)
if d[body] != 1 or u32(body + 8) != old:
    fail('pool 1 is not replicated with pg_num == pgp_num')
# pg_num_target, pgp_num_target, pg_num_pending
tgt = None
for o in range(body + 12, body + plen - 11):
    if struct.unpack_from('<III', d, o) == (old, old, old):
        if tgt is not None:
            fail('pg_num_target ambiguous')
        tgt = o
if tgt is None:
    fail('pg_num_target not found')
struct.pack_into('<II', d, body + 4, pg, pgp)
struct.pack_into('<III', d, tgt, pg, pgp, pg)
struct.pack_into('<q', d, P + 4, pool)
N = body + plen                          # pool_name map, then pool_max
if u32(N) != 1 or struct.unpack_from('<q', d, N + 4)[0] != 1 or \
        u32(N + 12) != 3 or d[N + 16:N + 19] != b'rbd' or u32(N + 19) != 1:
    fail('unexpected pool_name/pool_max layout')
struct.pack_into('<q', d, N + 4, pool)
struct.pack_into('<i', d, N + 19, pool)
struct.pack_into('<I', d, len(d) - 4, crc32c(d[:-4]))
open(fn, 'wb').write(bytes(d))
PY
}

# build (cached) the osdmap for MAP.txt POOL PG PGP SIZE; prints its path
osdmap_for() {
    local txt=$1 pool=$2 pg=$3 pgp=$4 size=$5 bin key om maxdev
    bin=$(compiled "$txt") || return 1
    key=$(basename "$bin" .bin)-p$pool-n$pg-m$pgp-s$size
    om=$CACHE/$key.osdmap
    if [[ ! -s $om ]]; then
        # max_devices = highest device id + 1 (at least 1 osd)
        maxdev=$(crushtool -d "$bin" | awk '$1=="device"{ if ($2+1>m) m=$2+1 } END{ print (m>0?m:1) }')
        local tmp=$om.tmp.$$
        osdmaptool --createsimple "$maxdev" --with-default-pool --pg-bits 0 \
            --pgp-bits 0 --osd_pool_default_size "$size" --clobber "$tmp" \
            >/dev/null 2>&1 || die "osdmaptool --createsimple failed"
        osdmaptool "$tmp" --import-crush "$bin" >/dev/null 2>&1 ||
            die "osdmaptool --import-crush failed"
        patch_osdmap "$tmp" "$pool" "$pg" "$pgp" || die "patch failed"
        osdmaptool "$tmp" --print 2>/dev/null |
            grep -q "^pool $pool 'rbd' replicated size $size min_size [0-9]* crush_rule 0 object_hash rjenkins pg_num $pg pgp_num $pgp .*flags hashpspool" ||
            die "patched osdmap does not show pool $pool pg_num $pg pgp_num $pgp size $size"
        mv -f "$tmp" "$om"
    fi
    echo "$om"
}

# OM with the entries of an --overrides FILE written in (osdmap_overrides.py;
# cached by content); prints its path
with_overrides() {
    local om=$1 ovr=$2 key out
    [[ -z $ovr ]] && { echo "$om"; return 0; }
    [[ -r $ovr ]] || die "cannot read $ovr"
    key=$(cat "$om" "$ovr" | sha256sum | cut -c1-32)
    out=$CACHE/$key-ovr.osdmap
    if [[ ! -s $out ]]; then
        cp "$om" "$out.tmp.$$" &&
            python3 "$(dirname "$0")/osdmap_overrides.py" "$out.tmp.$$" "$ovr" ||
            { rm -f "$out.tmp.$$"; die "cannot write the overrides into the osdmap"; }
        mv -f "$out.tmp.$$" "$out"
    fi
    echo "$out"
}

# parse --crush/--pool/--pg-num/--pgp-num/--size/--overrides into globals
parse_pool_args() {
    CRUSH= POOL= PGNUM= PGPNUM= SIZE=3 OVR=
    while (($#)); do
        case $1 in
            --overrides) OVR=$2; shift 2 ;;
            --crush) CRUSH=$2; shift 2 ;;
            --pool) POOL=$2; shift 2 ;;
            --pg-num) PGNUM=$2; shift 2 ;;
            --pgp-num) PGPNUM=$2; shift 2 ;;
            --size) SIZE=$2; shift 2 ;;
            *) die "unknown osdmap argument '$1'" ;;
        esac
    done
    [[ -n $CRUSH && -n $POOL && -n $PGNUM ]] || die "need --crush, --pool and --pg-num"
    [[ -n $PGPNUM ]] || PGPNUM=$PGNUM
}

case "${1:-} ${2:-}" in
"crush test"|"crush compare")
    sub=$2; shift 2
    args=()
    while (($#)); do
        case $1 in
            -i|--compare)
                bin=$(compiled "$2") || exit 1
                args+=("$1" "$bin"); shift 2 ;;
            *) args+=("$1"); shift ;;
        esac
    done
    if [[ $sub == test ]]; then
        exec crushtool "${args[@]}" --test
    else
        exec crushtool "${args[@]}"
    fi
    ;;
"osdmap test-map-object")
    name=$3; shift 3
    parse_pool_args "$@"
    om=$(osdmap_for "$CRUSH" "$POOL" "$PGNUM" "$PGPNUM" "$SIZE") || exit 1
    om=$(with_overrides "$om" "$OVR") || exit 1
    out=$(osdmaptool "$om" --mark-up-in --test-map-object "$name" --pool "$POOL" 2>/dev/null)
    rc=$?
    # keep only the object line (stdout also has "marking all OSDs up and in")
    while IFS= read -r line; do
        [[ $line == " object '"* ]] && printf '%s\n' "$line"
    done <<<"$out"
    exit $rc
    ;;
"osdmap test-map-pgs-dump")
    shift 2
    parse_pool_args "$@"
    om=$(osdmap_for "$CRUSH" "$POOL" "$PGNUM" "$PGPNUM" "$SIZE") || exit 1
    om=$(with_overrides "$om" "$OVR") || exit 1
    exec osdmaptool "$om" --mark-up-in --test-map-pgs-dump --pool "$POOL" 2>/dev/null
    ;;
*)
    die "usage: oracle.sh crush test|crush compare|osdmap test-map-object|osdmap test-map-pgs-dump ..."
    ;;
esac
