#!/usr/bin/env bash
# Build and run every test: first a normal build (build/), then the whole
# suite again under AddressSanitizer + UBSan (build-asan/), then the unit
# tests under ThreadSanitizer (build-tsan/; suppressions, each explained,
# in tests/tsan.supp; about a minute and a half on two cores).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
bash "$top/scripts/install-deps.sh"

bash "$top/scripts/build.sh" "$top/build"
(cd "$top/build" && ctest --output-on-failure -j 2)

bash "$top/scripts/build.sh" "$top/build-asan" -DCRUSHFS_SANITIZE=ON
(cd "$top/build-asan" && ASAN_OPTIONS=detect_leaks=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	ctest --output-on-failure -j 2)

bash "$top/scripts/build.sh" "$top/build-tsan" -DCRUSHFS_TSAN=ON
(cd "$top/build-tsan" && ctest --output-on-failure -j 2 -R 'unit/')
