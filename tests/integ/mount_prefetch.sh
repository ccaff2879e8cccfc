#!/usr/bin/env bash
# The daemon's read-ahead (fs/readahead.c) never serves bytes a change
# made stale: a file read in 1 MiB direct READs (each goes to the daemon,
# which reads the next 8 MiB ahead of them) is overwritten, cut and
# regrown, and punched ahead of its reader, between two reads, and every
# byte read afterwards is the file's current one; more sequential readers
# at once than the daemon keeps streams for all read their own files;
# with prefetch_kb=0 the same reads come out the same.
. "$(dirname "$0")/lib/mount_common.sh"

CL=$T/cluster
M=$T/mnt
MIB=1048576
mkcluster "$CL" --osd-size 1G --pg-num 32

# check_from N: the file from N MiB on, read in direct 1 MiB READs, is
# the model's
check_from() {
	dd if="$M/f" of="$T/got" bs=1M skip="$1" iflag=direct status=none ||
		fail "direct read from $1 MiB"
	tail -c +$(($1 * MIB + 1)) "$T/model" | cmp -s - "$T/got" ||
		fail "$2: $(tail -c +$(($1 * MIB + 1)) "$T/model" | cmp - "$T/got" 2>&1)"
}

# read_to N: the first N MiB, read the same way (the read-ahead runs
# ahead of them)
read_to() {
	dd if="$M/f" of="$T/got" bs=1M count="$1" iflag=direct status=none ||
		fail "direct read to $1 MiB"
	head -c $(($1 * MIB)) "$T/model" | cmp -s - "$T/got" ||
		fail "first $1 MiB: $(head -c $(($1 * MIB)) "$T/model" | cmp - "$T/got" 2>&1)"
}

run() {
	head -c $((48 * MIB)) /dev/urandom >"$T/model"
	cp "$T/model" "$M/f"
	check_from 0 "a fresh file"

	# overwritten ahead of the reader
	read_to 6
	head -c $((2 * MIB + 5)) /dev/urandom >"$T/new"
	dd if="$T/new" of="$M/f" bs=4096 seek=$((7 * 256 + 1)) conv=notrunc status=none
	dd if="$T/new" of="$T/model" bs=4096 seek=$((7 * 256 + 1)) conv=notrunc status=none
	check_from 6 "after an overwrite ahead of the reader"

	# cut and regrown ahead of the reader: zeros from the cut
	read_to 10
	truncate -s $((13 * MIB + 77)) "$M/f" "$T/model"
	truncate -s $((48 * MIB)) "$M/f" "$T/model"
	check_from 10 "after a cut and regrowth ahead of the reader"

	# a hole punched ahead of the reader
	read_to 20
	fallocate -p -o $((22 * MIB)) -l $((MIB + 4096)) "$M/f"
	fallocate -p -o $((22 * MIB)) -l $((MIB + 4096)) "$T/model"
	check_from 20 "after a punch ahead of the reader"
	rm "$M/f"

	# six readers at once, each on its own file (the daemon keeps four
	# streams): each reads its own bytes
	for i in 1 2 3 4 5 6; do
		head -c $((24 * MIB)) /dev/urandom >"$T/m$i"
		cp "$T/m$i" "$M/r$i"
	done
	pids=()
	for i in 1 2 3 4 5 6; do
		dd if="$M/r$i" of="$T/g$i" bs=1M iflag=direct status=none &
		pids+=($!)
	done
	for p in "${pids[@]}"; do
		wait "$p" || fail "a concurrent reader failed"
	done
	for i in 1 2 3 4 5 6; do
		cmp -s "$T/m$i" "$T/g$i" || fail "concurrent reader $i: $(cmp "$T/m$i" "$T/g$i" 2>&1)"
		rm "$M/r$i"
	done
}

mount_fg "$CL" "$M"
run
umount_fg "$M"
ok "read-ahead: overwrite, cut and regrow, punch ahead of a reader; six readers at once"

mount_fg "$CL" "$M" -o prefetch_kb=0
run
umount_fg "$M"
ok "the same with prefetch_kb=0"
