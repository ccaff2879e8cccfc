#!/usr/bin/env bash
# check_golden.sh CRUSHFS_BIN [FILTER]
#
# Runs every golden case (tests/golden/vectors/*.tsv, made by gen_golden.sh
# from Ceph's crushtool/osdmaptool) against CRUSHFS_BIN and compares the
# sha256, line count and exit status of its stdout with the oracle's.
# FILTER (optional) keeps the cases whose "file family id" line contains it,
# e.g. `crush_test`, `compare`, `map_object`, `pgs_dump`, ` weight `, `ct0042`.
#
# Environment: GOLDEN_JOBS (parallel cases, default nproc), GOLDEN_TIMEOUT
# (seconds per case, default 60), GOLDEN_SHOW (mismatches shown, default 10),
# GOLDEN_KEEP=1 keeps the outputs directory.
#
# Needs only bash and coreutils. Works from any directory. Exit status 0 when
# every case passes, 1 on any mismatch, 2 on usage errors.
set -u
set -f
export LC_ALL=C

usage() { echo "usage: check_golden.sh CRUSHFS_BIN [FILTER]" >&2; exit 2; }
[[ $# -ge 1 && -n $1 ]] || usage
BIN=$1
FILTER=${2:-}
if [[ $BIN == */* ]]; then
    [[ -x $BIN && ! -d $BIN ]] || { echo "check_golden.sh: $BIN is not an executable" >&2; exit 2; }
    BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
else
    BIN=$(type -P "$BIN") || { echo "check_golden.sh: $1 not found" >&2; exit 2; }
fi
G=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$G" || exit 2

JOBS=${GOLDEN_JOBS:-$(nproc 2>/dev/null || echo 2)}
TIMEOUT=${GOLDEN_TIMEOUT:-60}
SHOW=${GOLDEN_SHOW:-10}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/golden.XXXXXX") || exit 2
if [[ ${GOLDEN_KEEP:-0} == 1 ]]; then
    echo "check_golden.sh: outputs kept in $TMP"
else
    trap 'rm -rf "$TMP"' EXIT
fi
TO=()
type -P timeout >/dev/null && TO=(timeout -k 5 "$TIMEOUT")

IDS=() FILE=() FAM=() MAPS=() EXIT=() LINES=() SHA=() ARGS=() NAME=() HEAD=()
CMD=()

load() {  # FILE CMDWORDS...
    local f=$1 id fam n ex ln sha a b c
    shift
    [[ -r vectors/$f ]] || { echo "check_golden.sh: missing vectors/$f" >&2; exit 2; }
    while IFS=$'\t' read -r id fam n ex ln sha a b c; do
        [[ -z $id || $id == \#* ]] && continue
        [[ -n $FILTER && "$f $fam $id" != *"$FILTER"* ]] && continue
        IDS+=("$id") FILE+=("$f") FAM+=("$fam") MAPS+=("$n") EXIT+=("$ex")
        LINES+=("$ln") SHA+=("$sha") CMD+=("$*")
        if [[ $f == map_object.tsv ]]; then
            NAME+=("${a#=}") ARGS+=("$b") HEAD+=("${c#=}")
        else
            NAME+=("") ARGS+=("$a") HEAD+=("${b#=}")
        fi
    done <"vectors/$f"
}
load crush_test.tsv crush test
load compare.tsv crush compare
load pgs_dump.tsv osdmap test-map-pgs-dump
load map_object.tsv osdmap test-map-object
load crush_test_classes.tsv crush test
load pgs_dump_classes.tsv osdmap test-map-pgs-dump
load crush_test_cargs.tsv crush test
load pgs_dump_cargs.tsv osdmap test-map-pgs-dump
load pgs_dump_overrides.tsv osdmap test-map-pgs-dump

N=${#IDS[@]}
((N > 0)) || { echo "check_golden.sh: no case matches '$FILTER'" >&2; exit 2; }

run_case() {  # index
    local i=$1 id=${IDS[$1]} name
    # shellcheck disable=SC2086  # CMD and ARGS are word lists
    if [[ ${FILE[$i]} == map_object.tsv ]]; then
        printf -v name '%b' "${NAME[$i]}"
        "${TO[@]}" "$BIN" ${CMD[$i]} "$name" ${ARGS[$i]} \
            >"$TMP/$id.out" 2>"$TMP/$id.err" </dev/null
    else
        "${TO[@]}" "$BIN" ${CMD[$i]} ${ARGS[$i]} \
            >"$TMP/$id.out" 2>"$TMP/$id.err" </dev/null
    fi
    echo $? >"$TMP/$id.rc"
}

start=$SECONDS
running=0
for ((i = 0; i < N; i++)); do
    run_case "$i" &
    running=$((running + 1))
    if ((running >= JOBS)); then
        wait -n
        running=$((running - 1))
    fi
done
wait

# hashes and line counts of all outputs at once
declare -A GOT_SHA GOT_LINES
cd "$TMP" || exit 2
while read -r h f; do GOT_SHA[${f%.out}]=$h; done < <(sha256sum -- "${IDS[@]/%/.out}")
while read -r l f; do [[ $f == total ]] || GOT_LINES[${f%.out}]=$l; done < <(wc -l -- "${IDS[@]/%/.out}")
cd "$G" || exit 2

show_case() {  # index why
    local i=$1 id=${IDS[$1]} name q rc
    rc=$(<"$TMP/$id.rc")
    echo "---- FAIL $id (${FILE[$i]%.tsv}, family ${FAM[$i]}): $2"
    if [[ ${FILE[$i]} == map_object.tsv ]]; then
        printf -v name '%b' "${NAME[$i]}"
        printf -v q '%q' "$name"
        echo "  reproduce: cd $G && $BIN ${CMD[$i]} $q ${ARGS[$i]}"
    else
        echo "  reproduce: cd $G && $BIN ${CMD[$i]} ${ARGS[$i]}"
    fi
    echo "  expected: exit ${EXIT[$i]}, ${LINES[$i]} lines, sha256 ${SHA[$i]:0:16}..."
    echo "  actual:   exit $rc, ${GOT_LINES[$id]:-?} lines, sha256 ${GOT_SHA[$id]:0:16}..."
    echo "  expected first lines:"
    printf '%b\n' "${HEAD[$i]}" | sed_free_indent
    echo "  actual first lines:"
    head -n 3 "$TMP/$id.out" | head -c 3000 | sed_free_indent
    if [[ -s $TMP/$id.err ]]; then
        echo "  actual stderr:"
        head -n 3 "$TMP/$id.err" | head -c 1000 | sed_free_indent
    fi
}
sed_free_indent() { local l; while IFS= read -r l || [[ -n $l ]]; do printf '    |%s\n' "$l"; done; }

pass=0 fail=0 maps=0 shown=0
declare -A FAMFAIL
for ((i = 0; i < N; i++)); do
    id=${IDS[$i]}
    maps=$((maps + MAPS[i]))
    rc=$(<"$TMP/$id.rc")
    why=
    [[ $rc == "${EXIT[$i]}" ]] || why+="exit $rc != ${EXIT[$i]}; "
    [[ ${GOT_LINES[$id]:-} == "${LINES[$i]}" ]] || why+="lines ${GOT_LINES[$id]:-?} != ${LINES[$i]}; "
    [[ ${GOT_SHA[$id]:-} == "${SHA[$i]}" ]] || why+="sha256 differs; "
    [[ $rc == 124 || $rc == 137 ]] && why+="timed out after ${TIMEOUT}s; "
    if [[ -z $why ]]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        k="${FILE[$i]%.tsv}/${FAM[$i]}"
        FAMFAIL[$k]=$((${FAMFAIL[$k]:-0} + 1))
        if ((shown < SHOW)); then
            show_case "$i" "${why%; }"
            shown=$((shown + 1))
        fi
    fi
done

if ((fail > 0)); then
    echo "---- failures by file/family:"
    for k in "${!FAMFAIL[@]}"; do echo "  $k: ${FAMFAIL[$k]}"; done | sort
    ((fail > shown)) && echo "  ($((fail - shown)) more not shown; GOLDEN_SHOW=N shows more, FILTER=id runs one)"
fi
echo "check_golden.sh: $BIN, $((SECONDS - start))s, $JOBS jobs"
echo "golden: $N cases, $maps mappings, $pass passed, $fail failed"
((fail == 0))
