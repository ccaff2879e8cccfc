#!/usr/bin/env bash
# Build the libFuzzer harnesses (tests/fuzz/) with clang into build-fuzz/
# and run each for SECONDS (default 60) on a copy of its seed corpus
# (tests/fuzz/corpus/NAME), with its dictionary when it has one.
# Fails on any crash, sanitizer report, leak or timeout; the input is kept
# as build-fuzz/fuzz-out/NAME/crash-* (or leak-*, timeout-*), and
#   build-fuzz/tests/fuzz/fuzz_NAME FILE
# replays it.  New inputs found go to build-fuzz/fuzz-out/NAME/corpus.
#
# usage: scripts/fuzz.sh [SECONDS] [NAME...]   NAME: crushmap cluster_json adminsock
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-60}
shift || true
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(crushmap cluster_json adminsock)
dir=${CRUSHFS_FUZZ_BUILD:-$top/build-fuzz}
cc=${CRUSHFS_FUZZ_CC:-clang-14}

if ! command -v "$cc" >/dev/null; then
	echo "fuzz: $cc not found (apt-get install clang-14 libfuzzer-14-dev)" >&2
	exit 1
fi
targets=()
for n in "${names[@]}"; do
	[ -d "$top/tests/fuzz/corpus/$n" ] || {
		echo "fuzz: no harness '$n'" >&2
		exit 2
	}
	targets+=("fuzz_$n")
done
CC=$cc cmake -S "$top" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	-DCRUSHFS_FUZZ=ON >/dev/null
cmake --build "$dir" -j "$(nproc)" --target "${targets[@]}" -- \
	--no-print-directory >/dev/null

fail=0
for n in "${names[@]}"; do
	out=$dir/fuzz-out/$n
	rm -rf "$out"
	mkdir -p "$out/corpus"
	cp "$top/tests/fuzz/corpus/$n/"* "$out/corpus/"
	opts=(-max_total_time="$secs" -timeout=30 -rss_limit_mb=2048
	      -print_final_stats=1 -artifact_prefix="$out/")
	[ -f "$top/tests/fuzz/$n.dict" ] && opts+=(-dict="$top/tests/fuzz/$n.dict")
	if "$dir/tests/fuzz/fuzz_$n" "${opts[@]}" "$out/corpus" >"$out/log" 2>&1; then
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/log")
		echo "fuzz_$n: ok, ${runs:-?} runs in ${secs} s"
	else
		echo "fuzz_$n: FAILED (log: $out/log)" >&2
		grep -E '^(==[0-9]+== ?ERROR|SUMMARY|fuzz_[a-z_]+:|artifact_prefix|Test unit written)' \
			"$out/log" | head -n 20 >&2 || true
		fail=1
	fi
done
exit $fail
