#!/usr/bin/env bash
# Sparse files cost what they hold, not what their size allows (issue 8):
# a 1 PiB file holding 3 bytes is created, written, fsync'ed, read around
# its data, truncated, grown again and removed; pjdfstest's
# 999,999,999,999,999-byte file too.  The object index lists the objects
# a file has, so each step visits one object, not 268 million; a step that
# walked the size would run for hours, so a 60 s limit is a functional
# check here, not a timing one.
. "$(dirname "$0")/lib/mount_common.sh"

CL=$T/cluster
M=$T/mnt
mkcluster "$CL" --osd-size 256M --pg-num 32
mount_fg "$CL" "$M"
off=$((1 << 49))
timeout 60 bash -c "
	set -e
	truncate -s 1P '$M/big'
	printf abc | dd of='$M/big' bs=1 seek=$off conv=notrunc status=none
	'$PY' -c \"import os; fd = os.open('$M/big', os.O_RDWR); os.fsync(fd); os.close(fd)\"
	[ \$(stat -c %s '$M/big') = $((1 << 50)) ]
	[ \$(stat -c %b '$M/big') = 1 ]
	got=\$(dd if='$M/big' bs=1 skip=$((off - 2)) count=7 status=none | od -An -c | tr -d ' ')
	[ \"\$got\" = '\\0\\0abc\\0\\0' ] || { echo \"read around the data: \$got\" >&2; exit 1; }
	truncate -s $((off + 1)) '$M/big'
	truncate -s 1P '$M/big'
	got=\$(dd if='$M/big' bs=1 skip=$off count=3 status=none | od -An -c | tr -d ' ')
	[ \"\$got\" = 'a\\0\\0' ] || { echo \"after cut and regrow: \$got\" >&2; exit 1; }
	rm '$M/big'
	truncate -s 999999999999999 '$M/pjd'
	echo x >>'$M/pjd'
	sync '$M/pjd'
	rm '$M/pjd'
" || fail "sparse 1 PiB file: a step failed or took over 60 s"
ok "1 PiB sparse file: write, fsync, read, cut, regrow, remove; pjdfstest's huge file"

# du counts data, not size: a dense 1 MiB file, a 1 GiB file with 64 KiB
head -c $((1 << 20)) /dev/urandom >"$M/dense"
truncate -s 1G "$M/holey"
# at the start of object 100: the objects hold 64 KiB (an object is
# counted by its size, as OSD usage is)
head -c 65536 /dev/urandom | dd of="$M/holey" bs=64K seek=6400 conv=notrunc status=none
[ "$(stat -c %b "$M/dense")" = 2048 ] || fail "st_blocks of a 1 MiB file: $(stat -c %b "$M/dense")"
[ "$(stat -c %b "$M/holey")" = 128 ] || fail "st_blocks of a 1 GiB file with 64 KiB of data: $(stat -c %b "$M/holey")"
[ "$(du -k "$M/holey" | cut -f1)" = 64 ] || fail "du of the holey file: $(du -k "$M/holey")"
rm "$M/dense" "$M/holey"
ok "st_blocks and du count the bytes objects hold"
umount_fg "$M"
"$CRUSHFS" --cluster "$CL" scrub >"$T/s" 2>&1 || fail "scrub: $(cat "$T/s")"
grep -q " 0 objects," "$T/s" || fail "objects left behind: $(cat "$T/s")"
ok "no object left behind"
