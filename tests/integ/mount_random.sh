#!/usr/bin/env bash
# A random sequence of at least 10,000 operations (write/read/truncate/
# rename/link/unlink/fallocate in every mode FUSE passes/... at random
# offsets, through short- and long-lived descriptors) applied to the
# mount and to a plain reference directory;
# every result and errno, and at the end every byte, must agree.  Small
# objects (256 KiB) so that operations cross many object boundaries.
. "$(dirname "$0")/lib/mount_common.sh"

CL=$T/cluster
M=$T/mnt
mkcluster "$CL" --osd-size 1G --object-size 256K
mount_fg "$CL" "$M"
mkdir "$T/ref"
"$PY" "$(dirname "$0")/lib/randops.py" "$M" "$T/ref" --ops "${RANDOPS:-10000}" \
	${RANDOPS_SEED:+--seed "$RANDOPS_SEED"} || fail "random operations diverged"
ok "random operations agree with the reference directory"
# and four sequences at once, each in a directory of its own: the daemon
# serves them concurrently
pids=()
for i in 1 2 3 4; do
	mkdir "$M/p$i" "$T/refp$i"
	"$PY" "$(dirname "$0")/lib/randops.py" "$M/p$i" "$T/refp$i" --ops 2500 \
		>"$T/par$i.log" 2>&1 &
	pids+=($!)
done
for i in 1 2 3 4; do
	wait "${pids[$((i - 1))]}" || { cat "$T/par$i.log"; fail "parallel sequence $i diverged"; }
done
for i in 1 2 3 4; do mv "$T/refp$i" "$T/ref/p$i"; done
ok "four concurrent sequences agree too"
umount_fg "$M"
# and after a remount, from a cold start
mount_fg "$CL" "$M"
diff -r "$T/ref" "$M" || fail "contents differ after a remount"
umount_fg "$M"
"$CRUSHFS" --cluster "$CL" fsck >"$T/fsck" || { cat "$T/fsck"; fail "fsck"; }
grep -q '^clean$' "$T/fsck" || { cat "$T/fsck"; fail "fsck not clean"; }
ok "same after a remount; fsck clean"
