#!/usr/bin/env bash
# The README's first command: install what is missing, build, create a
# default cluster (12 OSDs of 1 GiB on 4 hosts, pool size 3), mount it,
# copy in a generated sample of files of various sizes (~300 MiB), then
# show where the data went: `osd df` and the `locate` of one large file.
#
#   bash scripts/quickstart.sh
#
# Environment: CRUSHFS_CLUSTER (default ./cluster in the checkout),
# CRUSHFS_MNT (default /mnt/crushfs).  Run it again: an existing cluster
# is reused, a mounted one is unmounted first.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
CL=${CRUSHFS_CLUSTER:-$top/cluster}
MNT=${CRUSHFS_MNT:-/mnt/crushfs}
BIN=$top/build/crushfs
SAMPLE=$top/build/sample

step() { printf '\n==> %s\n' "$*"; }

step "dependencies"
bash "$top/scripts/install-deps.sh"
echo "ok"

step "build (build/, log in build/build.log)"
mkdir -p "$top/build"
if ! bash "$top/scripts/build.sh" "$top/build" >"$top/build/build.log" 2>&1; then
	tail -n 30 "$top/build/build.log"
	exit 1
fi
echo "ok: $BIN"

step "install: crushfs, its man page and bash completion under /usr/local"
cmake --install "$top/build" --prefix /usr/local >/dev/null
echo "ok: man crushfs; crushfs <TAB> completes in new shells"

if awk -v m="$MNT" '$2 == m { f = 1 } END { exit !f }' /proc/mounts; then
	step "unmounting the previous mount at $MNT"
	"$BIN" umount "$MNT" || fusermount3 -u -z "$MNT"
fi

step "cluster at $CL"
if [ -e "$CL/cluster.json" ]; then
	echo "reusing the existing cluster (remove $CL to start from scratch)"
else
	"$BIN" --cluster "$CL" mkfs
fi

step "mounting on $MNT"
mkdir -p "$MNT"
"$BIN" --cluster "$CL" mount "$MNT"
df -h "$MNT"

step "generating a sample set of files in $SAMPLE"
rm -rf "$SAMPLE"
mkdir -p "$SAMPLE/photos" "$SAMPLE/docs/notes" "$SAMPLE/video"
head -c 100M /dev/urandom >"$SAMPLE/video/big.bin"
for i in 1 2 3 4 5 6; do head -c 24M /dev/urandom >"$SAMPLE/video/clip$i.bin"; done
for i in $(seq 1 40); do head -c $((i * 37 * 1024)) /dev/urandom >"$SAMPLE/photos/img$i.jpg"; done
for i in $(seq 1 200); do head -c $((i * 97 % 8191 + 1)) /dev/urandom >"$SAMPLE/docs/notes/n$i.txt"; done
cp -r "$top/placement" "$top/fs" "$SAMPLE/docs/"
du -sh "$SAMPLE"

step "copying the sample into the mount"
rm -rf "$MNT/sample"
time cp -r "$SAMPLE" "$MNT/sample"
diff -r "$SAMPLE" "$MNT/sample" && echo "read back identical"

step "crushfs osd df: where the bytes went"
"$BIN" --cluster "$CL" osd df

step "crushfs locate $MNT/sample/video/big.bin: its objects, PGs and OSDs"
"$BIN" --cluster "$CL" locate "$MNT/sample/video/big.bin"

step "done"
cat <<EOF
The cluster in $CL is mounted on $MNT.  Try:
  $BIN --cluster $CL status
  getfattr -n crushfs.placement $MNT/sample/video/clip1.bin   (package attr)
  $BIN --cluster $CL osd set-capacity 3 64M      # make osd.3 small, then copy more
To unmount:
  $BIN umount $MNT          (or: fusermount3 -u $MNT)
EOF
