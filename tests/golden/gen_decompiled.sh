#!/usr/bin/env bash
# Regenerate decompiled/NAME.txt = `crushtool -d` of `crushtool -c maps/NAME.txt`
# for every golden map: the oracle for pl_map_to_text (tests/unit/
# test_decompile.c).  Needs Ceph's crushtool (apt-get install ceph-base).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$here/decompiled"
rm -f "$here"/decompiled/*.txt
for f in "$here"/maps/*.txt; do
	n=$(basename "$f")
	crushtool -c "$f" -o "$tmp/m.bin"
	crushtool -d "$tmp/m.bin" -o "$here/decompiled/$n"
done
echo "decompiled $(ls "$here"/decompiled | wc -l) maps"
