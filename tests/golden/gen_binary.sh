#!/usr/bin/env bash
# Regenerate binary/NAME.bin = `crushtool -c maps/NAME.txt` for every
# golden map: the oracle of crushfs's binary codec (check_binary.sh).
# Needs Ceph's crushtool (apt-get install ceph-base).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$here/binary"
rm -f "$here"/binary/*.bin
for f in "$here"/maps/*.txt; do
	crushtool -c "$f" -o "$here/binary/$(basename "$f" .txt).bin"
done
echo "compiled $(ls "$here"/binary | wc -l) maps"
