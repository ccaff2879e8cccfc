#!/usr/bin/env bash
# gen_golden.sh: regenerate the golden vectors of tests/golden/vectors/ from
# Ceph 16.2's crushtool and osdmaptool (Debian: apt-get install ceph-base).
#
#   tests/golden/gen_golden.sh           vectors from the committed maps
#   tests/golden/gen_golden.sh --maps    first rebuild maps/ (make_maps.py,
#                                        crushtool --build, derived variants)
#
# Each case is run through oracle.sh, which takes the crushfs arguments and
# answers with crushtool/osdmaptool; check_golden.sh later runs the same
# arguments against crushfs. Vectors files (tab-separated, one case a line):
#
#   crush_test.tsv, compare.tsv, pgs_dump.tsv:
#     id  family  mappings  exit  lines  sha256  args  =head
#   map_object.tsv:
#     id  family  mappings  exit  lines  sha256  =name  args  =head
#
# args: the words after `crushfs crush test`, `crushfs crush compare`,
# `crushfs osdmap test-map-pgs-dump` or `crushfs osdmap test-map-object NAME`,
# with map paths relative to tests/golden. sha256/lines/exit: of the oracle's
# stdout and exit status. head: its first 3 lines; name: the object name; both
# after '=' with \\ \t \n and \xHH escapes (bash `printf %b` undoes them).
# mappings: crush rule evaluations the case covers (x values * num_rep values
# * rules; pairs for compare; PGs for pgs_dump; 1 per object).
set -euo pipefail
export LC_ALL=C

G=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$G"
ORACLE=$G/oracle.sh
# crushtool 16.2 now and then hangs on a futex as it exits: each oracle run
# gets 120 s and is retried (the same computation); a third hang stops
# everything rather than record a killed run as a golden answer
orc() {
    local try rc
    for try in 1 2 3; do
        rc=0
        timeout -k 5 120 "$ORACLE" "$@" || rc=$?
        [ "$rc" != 124 ] && [ "$rc" != 137 ] && return "$rc"
        echo "gen_golden.sh: oracle hung (try $try): $*" >&2
    done
    echo "gen_golden.sh: the oracle hung three times: $*" >&2
    kill -TERM $$
    exit 1
}
for t in crushtool osdmaptool python3 sha256sum; do
    command -v "$t" >/dev/null || { echo "gen_golden.sh: needs $t" >&2; exit 1; }
done
CEPH_VERSION=$(dpkg-query -W -f '${Version}' ceph-base 2>/dev/null ||
               ceph --version 2>/dev/null || echo unknown)
[[ $CEPH_VERSION == 16.2.* || $CEPH_VERSION == *"version 16.2."* ]] ||
    echo "gen_golden.sh: warning: the corpus was made with Ceph 16.2.15, this is $CEPH_VERSION" >&2

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# ---------------------------------------------------------------- maps ----
KEEP_RAW=" handwritten weights_odd "
rebuild_maps() {
    rm -f maps/*.txt
    mkdir -p maps "$TMP/raw"
    python3 make_maps.py "$TMP/raw"
    local f n
    for f in "$TMP"/raw/*.txt; do
        n=$(basename "$f" .txt)
        crushtool -c "$f" -o "$TMP/$n.bin" >/dev/null
        if [[ $KEEP_RAW == *" $n "* ]]; then
            cp "$f" "maps/$n.txt"
        else
            crushtool -d "$TMP/$n.bin" -o "maps/$n.txt"
        fi
    done
    # maps as `crushtool --build` makes them
    crushtool --build --num_osds 64 host straw2 4 rack straw2 4 root straw2 0 \
        -o "$TMP/b1.bin" >/dev/null
    crushtool -d "$TMP/b1.bin" -o maps/built_64_straw2.txt
    crushtool --build --num_osds 30 host uniform 3 rack list 5 root tree 0 \
        -o "$TMP/b2.bin" >/dev/null
    crushtool -d "$TMP/b2.bin" -o maps/built_30_uniform_list_tree.txt
    crushtool --build --num_osds 17 host straw 4 root straw 0 \
        -o "$TMP/b3.bin" >/dev/null
    crushtool -d "$TMP/b3.bin" -o maps/built_17_straw.txt
    # variants of default_12osd / real_cluster for crush compare
    local d=$TMP/default_12osd.bin
    crushtool -i "$d" --reweight-item osd.4 0.5 -o "$TMP/c1.bin" >/dev/null
    crushtool -d "$TMP/c1.bin" -o maps/cmp_default_reweight.txt
    crushtool -i "$d" --add-item 12 1.0 osd.12 --loc root default \
        --loc host default-h0 -o "$TMP/c2.bin" >/dev/null
    crushtool -d "$TMP/c2.bin" -o maps/cmp_default_add.txt
    crushtool -i "$d" --remove-item osd.7 -o "$TMP/c3.bin" >/dev/null
    crushtool -d "$TMP/c3.bin" -o maps/cmp_default_remove.txt
    crushtool -i "$d" --set-chooseleaf-vary-r 0 -o "$TMP/c4.bin" >/dev/null
    crushtool -d "$TMP/c4.bin" -o maps/cmp_default_vary0.txt
    sed 's/^\talg straw2$/\talg straw/' maps/default_12osd.txt >"$TMP/c5.txt"
    crushtool -c "$TMP/c5.txt" -o "$TMP/c5.bin"
    crushtool -d "$TMP/c5.bin" -o maps/cmp_default_straw.txt
    crushtool -i "$TMP/real_cluster.bin" --reweight-item osd.50 3.0 \
        --reweight-item osd.80 0 -o "$TMP/c6.bin" >/dev/null 2>&1
    crushtool -d "$TMP/c6.bin" -o maps/cmp_real_reweight.txt
    echo "maps: $(ls maps/*.txt | wc -l) files"
}
[[ ${1:-} == --maps ]] && rebuild_maps

MAPS=()
for f in maps/*.txt; do MAPS+=("$(basename "$f" .txt)"); done

# rule ids of a map (rules are `id N` or the old `ruleset N`)
rule_ids() {
    awk '/^rule /{r=1} r && $1 ~ /^(id|ruleset)$/ {print $2; r=0}' "maps/$1.txt" | sort -n | tr '\n' ' '
}

# ------------------------------------------------------------- helpers ----
esc() {  # stdin bytes -> one line with \\ \t \n \xHH escapes
    od -An -v -tx1 | awk '
        BEGIN { for (i = 0; i < 256; i++) v[sprintf("%02x", i)] = i }
        { for (i = 1; i <= NF; i++) { b = v[$i]
            if (b == 92) printf "\\\\"; else if (b == 9) printf "\\t";
            else if (b == 10) printf "\\n";
            else if (b >= 32 && b < 127) printf "%c", b;
            else printf "\\x%s", $i } }'
}
head_of() {  # FILE -> escaped first 3 lines (without the last newline)
    local h
    h=$(head -n 3 "$1" | head -c 3000 | esc)
    printf '%s' "${h%\\n}"
}

CASES_CT=() CASES_CMP=() CASES_PG=() CASES_OBJ=()
US=$'\x1f'   # field separator inside the case arrays (names may hold tabs)
ct()  { local f=$1; shift; CASES_CT+=("$f$US$*"); }
cmp() { local f=$1; shift; CASES_CMP+=("$f$US$*"); }
pg()  { local f=$1; shift; CASES_PG+=("$f$US$*"); }
obj() { local f=$1 n=$2; shift 2; CASES_OBJ+=("$f$US$n$US$*"); }

# ------------------------------------------------------- crush test ----
# (the cmp_* maps are only used by crush compare)
CT_MAPS=()
for m in "${MAPS[@]}"; do [[ $m == cmp_* ]] || CT_MAPS+=("$m"); done
# default range: every rule, x 0..1023, num_rep min_size..max_size. Rules
# asked for more replicas than they have failure domains retry up to
# choose_total_tries/set_choose_tries times per missing replica, so this is
# the costliest family: it runs on a few maps only.
for m in alg_list alg_tree alg_uniform alg_straw_v0 mixed_algs handwritten \
         built_17_straw rule_sizes rule0_indep; do
    ct default "-i maps/$m.txt --show-mappings"
done
for m in default_12osd real_cluster tunables_legacy deep_hierarchy; do
    ct default "-i maps/$m.txt --rule 0 --show-mappings"
done
for m in "${CT_MAPS[@]}"; do
    M="-i maps/$m.txt"
    for n in 1 2 3 4 6 12; do
        ct numrep "$M --num-rep $n --min-x 0 --max-x 127 --show-mappings"
    done
    ids=$(rule_ids "$m")
    last=0
    for r in $ids; do
        ct rule "$M --rule $r --min-x 0 --max-x 49 --show-mappings"
        last=$r
    done
    ct rule "$M --rule $((last + 1)) --show-mappings --show-statistics"   # no such rule
    ct xrange "$M --x 0 --show-mappings"
    ct xrange "$M --x 2147483646 --show-mappings"
    ct xrange "$M --min-x 1000000 --max-x 1000511 --num-rep 3 --show-mappings"
    ct stats "$M --show-utilization --num-rep 3 --min-x 0 --max-x 511"
    ct stats "$M --show-bad-mappings --num-rep 12 --min-x 0 --max-x 31"
    ct stats "$M --show-mappings --show-bad-mappings --show-statistics --num-rep 4 --min-x 100 --max-x 227"
    ct stats "$M --show-utilization --show-statistics --show-mappings --min-x 0 --max-x 49"
done
ct stats "-i maps/default_12osd.txt --show-utilization"
ct stats "-i maps/real_cluster.txt --show-statistics --show-bad-mappings"
ct stats "-i maps/alg_uniform.txt --show-statistics --min-x 0 --max-x 63"
ct stats "-i maps/mixed_algs.txt --show-bad-mappings --min-x 0 --max-x 63"
for m in default_12osd real_cluster deep_hierarchy ids_gaps; do
    ct xrange "-i maps/$m.txt --x 12345 --num-rep 3 --show-mappings"
    ct xrange "-i maps/$m.txt --min-x 2147483135 --max-x 2147483646 --num-rep 2 --show-mappings"
done

# big ranges (straw2 ln table coverage, realistic cluster)
ct big "-i maps/straw2_flat200.txt --min-x 0 --max-x 2047 --num-rep 3 --show-mappings"
ct big "-i maps/straw2_flat200.txt --min-x 0 --max-x 8191 --num-rep 2 --rule 0 --show-utilization"
ct big "-i maps/straw2_flat200.txt --min-x 0 --max-x 4095 --num-rep 6 --rule 1 --show-statistics --show-bad-mappings"
ct big "-i maps/real_cluster.txt --min-x 0 --max-x 16383 --num-rep 3 --rule 0 --show-mappings"
ct big "-i maps/real_cluster.txt --min-x 0 --max-x 8191 --num-rep 6 --rule 1 --show-mappings"
ct big "-i maps/built_64_straw2.txt --min-x 0 --max-x 16383 --num-rep 3 --show-utilization"
ct big "-i maps/deep_hierarchy.txt --min-x 0 --max-x 4095 --num-rep 5 --show-mappings"
ct big "-i maps/tunables_legacy.txt --min-x 0 --max-x 4095 --num-rep 3 --show-mappings"
ct big "-i maps/rule_steps.txt --min-x 0 --max-x 1023 --num-rep 7 --show-mappings"

# command-line quirks of crushtool --test
for m in default_12osd rule_sizes real_cluster edge_buckets rule_steps; do
    M="-i maps/$m.txt"
    ct quirk "$M --max-x 10 --rule 0 --show-mappings"        # = 0..1023
    ct quirk "$M --min-x 10 --rule 0 --num-rep 3 --show-mappings"   # = 0..1023
    ct quirk "$M --min-x 5 --max-x 4 --show-mappings --show-statistics"   # empty range
    ct quirk "$M --x -1 --num-rep 2 --rule 0 --show-mappings"  # = 0..1023
    ct quirk "$M --min-x -3 --max-x 5 --num-rep 2 --rule 0 --show-mappings"
    ct quirk "$M --x 5 --min-x 7 --max-x 9 --show-mappings"   # last flag wins
    ct quirk "$M --min-x 7 --max-x 9 --x 5 --show-mappings"
    ct quirk "$M --min-x 0 --max-x 0 --show-mappings"
    ct quirk "$M --num-rep 0 --min-x 0 --max-x 9 --show-mappings --show-statistics"
    ct quirk "$M --num-rep -1 --min-x 0 --max-x 9 --show-mappings"     # = rule sizes
    ct quirk "$M --num-rep 2 --num-rep 4 --min-x 0 --max-x 9 --show-mappings"
    ct quirk "$M --rule 0 --rule 1 --min-x 0 --max-x 9 --show-mappings"
    ct quirk "$M --rule -1 --min-x 0 --max-x 9 --show-mappings"         # = all rules
    ct quirk "$M --rule 99 --show-statistics"
    ct quirk "$M --num-rep 20 --min-x 0 --max-x 7 --show-mappings --show-bad-mappings"
    ct quirk "$M --num-rep 3 --min-x 0 --max-x 9"                       # no --show-*
    ct quirk "$M --show-statistics --show-statistics --num-rep 3 --x 1"
done

# --weight DEV W: (int)(atof(W) * 65536) clamped to [0, 0x10000]
W_SETS=(
    "--weight 0 0"
    "--weight 0 0.5"
    "--weight 1 0.25 --weight 2 0.123 --weight 3 0.001"
    "--weight 4 0 --weight 5 0 --weight 6 0"
    "--weight 0 1 --weight 1 2 --weight 2 -1"
    "--weight 3 0.99999 --weight 4 0.00001 --weight 5 0.0000153"
    "--weight 8 0.7 --weight 8 0.3"
    "--weight 11 0.5 --weight 199 0.5 --weight 5000 0"
    "--weight 2 .5 --weight 9 1e-1"
)
for m in default_12osd real_cluster alg_straw_v0 alg_list alg_tree alg_uniform \
         mixed_algs tunables_legacy straw2_flat200 ids_gaps weights_odd edge_buckets; do
    for w in "${W_SETS[@]}"; do
        ct weight "-i maps/$m.txt --num-rep 3 --min-x 0 --max-x 127 --show-mappings $w"
    done
    # W is read with atof(): garbage reads as 0, a numeric prefix is used
    ct weightparse "-i maps/$m.txt --num-rep 3 --min-x 0 --max-x 127 --show-mappings --weight 6 abc --weight 7 0.5x"
    ct weight "-i maps/$m.txt --show-utilization --show-bad-mappings --min-x 0 --max-x 31 --weight 0 0.5 --weight 3 0 --weight 7 0.123"
    ct weight "-i maps/$m.txt --show-statistics --num-rep 5 --max-x 255 --min-x 0 --weight 1 0 --weight 2 0 --weight 3 0 --weight 4 0"
done

# ---------------------------------------------------------- compare ----
PAIRS=(
    "default_12osd cmp_default_reweight" "default_12osd cmp_default_add"
    "cmp_default_add default_12osd" "default_12osd cmp_default_remove"
    "default_12osd cmp_default_vary0" "default_12osd cmp_default_straw"
    "alg_straw_v0 alg_straw_v1" "tunables_legacy tunables_bobtail"
    "tunables_bobtail tunables_firefly" "tunables_firefly tunables_hammer"
    "tunables_hammer tunables_jewel" "tunables_legacy tunables_jewel"
    "default_12osd default_12osd" "real_cluster cmp_real_reweight"
    "alg_straw2 alg_list" "alg_tree alg_straw2" "alg_straw2 alg_straw_v1"
    "rule_steps rule_steps" "default_12osd rule_sizes" "rule_sizes default_12osd"
    "tunables_jewel rule_steps" "cmp_default_straw cmp_default_straw"
)
for p in "${PAIRS[@]}"; do
    read -r a b <<<"$p"
    C="-i maps/$a.txt --compare maps/$b.txt"
    case $p in "default_12osd cmp_default_add"|"alg_straw_v0 alg_straw_v1")
        cmp default "$C" ;;                       # rules' min..max sizes, x 0..1023
    esac
    cmp flags "$C --num-rep 3"
    cmp flags "$C --rule 0 --num-rep 2 --min-x 0 --max-x 99"
    cmp flags "$C --min-x 500 --max-x 999 --num-rep 2"
    cmp flags "$C --x 42 --num-rep 4"
    cmp flags "$C --rule 1 --max-x 63 --min-x 0"
    cmp weight "$C --num-rep 3 --min-x 0 --max-x 511 --weight 4 0.5 --weight 0 0"
    cmp quirk "$C --max-x 9 --num-rep 1"          # = 0..1023
    cmp quirk "$C --rule 77"                      # no such rule
done

# ----------------------------------------------------- osdmap pgs dump ----
P() { pg "$1" "--crush maps/$2.txt --pool $3 --pg-num $4${5:+ --pgp-num $5}${6:+ --size $6}"; }
for s in 1 2 3 4 5; do
    P sizes default_12osd 1 128 128 "$s"
    P sizes real_cluster 3 256 256 "$s"
    P sizes rule_sizes 1 64 64 "$s"            # rule 0 has min_size 2 max_size 4
    P sizes rule0_indep 2 64 64 "$s"           # indep rule 0: NONE holes dropped
done
P sizes default_12osd 1 32 32 10               # size > number of hosts
P pgnum default_12osd 1 1 1 3
P pgnum default_12osd 1 2 2 3
P pgnum default_12osd 1 3 3 3
P pgnum default_12osd 1 12 12 3
P pgnum default_12osd 1 96 48 3
P pgnum default_12osd 1 100 100 3
P pgnum default_12osd 1 100 50 3
P pgnum default_12osd 1 100 37 3
P pgnum default_12osd 1 1000 999 3
P pgnum default_12osd 1 4096 4096 3
P pgnum default_12osd 1 4095 2049 3
P pgnum default_12osd 1 128 1 3
P pgnum default_12osd 1 256 200 4
P pgnum default_12osd 1 12 5 5
P defaults default_12osd 1 128                 # pgp_num = pg_num, size = 3
P defaults real_cluster 5 300
P defaults default_12osd 1 64 16
P pool default_12osd 2 64 64 3
P pool default_12osd 7 64 64 3
P pool default_12osd 42 256 200 4
P pool default_12osd 1000 100 100 3
P pool default_12osd 123456 128 128 2
P pool default_12osd 2147483647 32 32 3
P pool real_cluster 17 1024 1024 3
P pool real_cluster 9 2048 1024 3
for m in "${MAPS[@]}"; do
    case $m in rule_sizes|rule0_indep|default_12osd) continue ;; esac
    P maps "$m" 1 512 512 3
done
P maps straw2_flat200 11 8192 8192 5
P maps deep_hierarchy 4 1000 1000 3
P maps mixed_algs 3 333 333 4
P maps tiny 1 16 16 1
P maps tiny 1 16 16 3
# zero crush weights: --mark-up-in sets them to 1.0 (see README)
P zeroweight weights_odd 2 256 256 2
P zeroweight edge_buckets 1 128 128 3
P zeroweight handwritten 1 128 128 3
P zeroweight tunables_legacy 1 256 256 3
P zeroweight alg_straw_v0 1 256 256 3
P zeroweight alg_tree 1 256 256 3
P zeroweight alg_list 1 256 256 3

# -------------------------------------------------- osdmap map object ----
NAMES=()
s=abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOP
for ((n = 1; n <= 40; n++)); do NAMES+=("${s:0:n}"); done
for n in 48 60 72 96 100 255 1024; do
    x=$(printf '%*s' "$n" '' | tr ' ' 'z'); NAMES+=("obj_${x:4}")
done
NAMES+=(
    10000000000.00000000 10000000000.00000001 10000000000.00000002
    1000000000a.0000000f 10000000001.00000000 100000003e8.000003ff
    10000000000.ffffffff 1ffffffffff.00000000
    rbd_data.1234abcd.0000000000000001 rbd_data.1234abcd.0000000000000000
    rbd_data.10d2ae8944a.00000000000003ff rbd_header.1234abcd rbd_id.myimage
    rbd_directory rbd_object_map.10d2ae8944a rbd_info
    default.4142.1__shadow_.x_1 .dir.default.4142.1 benchmark_data_host_1234_object0
    "hello world" " leading" "trailing " "  " "a b c d e f g h i j k l"
    "it's" 'say "hi"' '$HOME' '*' '[a-z]?' 'back\slash' '%s%d%n' 'a=b' 'x;y|z&'
    $'tab\there' $'caf\xc3\xa9' $'\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xe3\x82\xaa\xe3\x83\x96\xe3\x82\xb8\xe3\x82\xa7\xe3\x82\xaf\xe3\x83\x88'
    $'\xd0\xbe\xd0\xb1\xd1\x8a\xd0\xb5\xd0\xba\xd1\x82' $'\xf0\x9f\x98\x80' $'na\xc3\xafve file.txt'
    $'\xff' $'\x80\x81' $'abc\xfe\xfd' $'\x7f' $'\x01\x02\x03' $'\xc3' $'10000000000.0000000\xc2\xa0'
)
O() {  # family map pool pg pgp size names...
    local f=$1 m=$2 p=$3 n=$4 q=$5 z=$6 nm; shift 6
    for nm in "$@"; do
        obj "$f" "$nm" "--crush maps/$m.txt --pool $p --pg-num $n${q:+ --pgp-num $q}${z:+ --size $z}"
    done
}
# osdmaptool cannot map the empty name: it prints its usage on stdout and
# exits 1 (the object line is absent), so crushfs is expected to refuse it too
O quirk default_12osd 1 128 128 3 ""
O quirk real_cluster 7 1000 "" "" ""
O names default_12osd 1 128 128 3 "${NAMES[@]}"
O names real_cluster 7 1000 500 3 "${NAMES[@]}"
O names weights_odd 2 100 100 2 "${NAMES[@]}"
SOME=(a foo bar 10000000000.00000002 rbd_data.1234abcd.0000000000000001
      "hello world" $'caf\xc3\xa9' $'\xff' abcdefghijkl abcdefghijklm "${s:0:24}")
O params straw2_flat200 1000 4096 4096 5 "${SOME[@]}"
O params default_12osd 1 128 "" "" "${SOME[@]}"
O params default_12osd 1 96 48 3 "${SOME[@]}"
O params default_12osd 1 1 1 3 "${SOME[@]}"
O params default_12osd 3 12 5 1 "${SOME[@]}"
O params default_12osd 2147483647 64 64 4 "${SOME[@]}"
O params rule_sizes 1 64 64 5 "${SOME[@]}"
O params rule_sizes 1 64 64 2 "${SOME[@]}"
O params rule0_indep 1 64 64 5 "${SOME[@]}"
O params rule0_erasure 1 16 16 3 "${SOME[@]}"
O params tunables_legacy 4 256 256 3 "${SOME[@]}"
O params handwritten 1 100 100 3 "${SOME[@]}"
O params ids_gaps 42 200 100 3 "${SOME[@]}"
O params deep_hierarchy 5 1024 1024 3 "${SOME[@]}"
O params edge_buckets 1 32 32 3 "${SOME[@]}"
O params mixed_algs 6 500 250 4 "${SOME[@]}"
O params alg_uniform 8 64 64 3 "${SOME[@]}"
O params tiny 1 8 8 2 "${SOME[@]}"

# ---------------------------------------------------------------- run ----
set -f   # no globbing of the unquoted $args below
mkdir -p vectors
total_cases=0 total_maps=0
run_kind() {  # kind file array-name
    local kind=$1 file=$2 arr=$3[@] i=0 line fam args name out rc n sha lines id
    local hdr="# id	family	mappings	exit	lines	sha256	args	=head"
    [[ $kind == obj ]] && hdr="# id	family	mappings	exit	lines	sha256	=name	args	=head"
    {
        echo "# generated by gen_golden.sh with Ceph $CEPH_VERSION (crushtool, osdmaptool); see README.md"
        echo "$hdr"
        for line in "${!arr}"; do
            i=$((i + 1))
            out=$TMP/out
            case $kind in
            ct)
                IFS=$US read -r fam args <<<"$line"; id=$(printf 'ct%04d' "$i")
                # shellcheck disable=SC2086
                rc=0; orc crush test $args >"$out" 2>/dev/null || rc=$?
                # (a case that fails on purpose, its rc kept above, fails
                # here too: pipefail's status is allowed, n is then 0)
                # shellcheck disable=SC2086
                n=$(orc crush test $args --show-statistics 2>/dev/null |
                    awk -F'\t' '/ result size == /{split($2, a, "/"); s += a[1]} END{print s + 0}' || true)
                ;;
            cmp)
                IFS=$US read -r fam args <<<"$line"; id=$(printf 'cmp%04d' "$i")
                # shellcheck disable=SC2086
                rc=0; orc crush compare $args >"$out" 2>/dev/null || rc=$?
                n=$(awk '/ mismatched mappings /{split($4, a, "/"); s += a[2]} END{print s + 0}' "$out")
                ;;
            pg)
                IFS=$US read -r fam args <<<"$line"; id=$(printf 'pg%04d' "$i")
                # shellcheck disable=SC2086
                rc=0; orc osdmap test-map-pgs-dump $args >"$out" || rc=$?
                n=$(awk '/^pool [0-9]+ pg_num /{s += $4} END{print s + 0}' "$out")
                ;;
            obj)
                IFS=$US read -r fam name args <<<"$line"; id=$(printf 'obj%04d' "$i")
                # shellcheck disable=SC2086
                rc=0; orc osdmap test-map-object "$name" $args >"$out" || rc=$?
                n=1
                ;;
            esac
            sha=$(sha256sum <"$out" | cut -c1-64)
            lines=$(wc -l <"$out")
            if [[ $kind == obj ]]; then
                printf '%s\t%s\t%s\t%s\t%s\t%s\t=%s\t%s\t=%s\n' "$id" "$fam" "$n" "$rc" \
                    "$lines" "$sha" "$(printf '%s' "$name" | esc)" "$args" "$(head_of "$out")"
            else
                printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t=%s\n' "$id" "$fam" "$n" "$rc" \
                    "$lines" "$sha" "$args" "$(head_of "$out")"
            fi
        done
    } >"vectors/$file.tmp"
    mv -f "vectors/$file.tmp" "vectors/$file"
    local c m
    c=$(grep -vc '^#' "vectors/$file")
    m=$(awk -F'\t' '!/^#/{s += $3} END{print s + 0}' "vectors/$file")
    echo "$file: $c cases, $m mappings"
    total_cases=$((total_cases + c)) total_maps=$((total_maps + m))
}
run_kind ct crush_test.tsv CASES_CT
run_kind cmp compare.tsv CASES_CMP
run_kind pg pgs_dump.tsv CASES_PG
run_kind obj map_object.tsv CASES_OBJ
echo "total: $total_cases cases, $total_maps mappings"
du -sh vectors
