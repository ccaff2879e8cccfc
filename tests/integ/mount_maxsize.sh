#!/usr/bin/env bash
# The largest file (issue 21): VFS_MAX_FILE_SIZE, off_t's maximum (fs/vfs.h
# says why it is not CephFS's 1 TiB max_file_size).  A truncate to
# 2^63 - 1 works and stat shows sane st_blocks (it used to overflow
# (st_size + 511) / 512: the sanitized daemon aborted); CephFS's 1 TiB
# default and past it works; a write, an append and a fallocate past the
# largest size get EFBIG; an allocation of 8 EiB gets ENOSPC at once;
# the daemon lives on, the file reads back, nothing is left behind, and
# the daemon's log is clean (under ASan+UBSan in the suite's second run).
. "$(dirname "$0")/lib/mount_common.sh"

command -v fallocate >/dev/null || { echo "SKIP: fallocate(1) missing (util-linux)"; exit 77; }
CL=$T/cluster
M=$T/mnt
MAX=9223372036854775807
mkcluster "$CL" --osd-size 256M --pg-num 32
mount_fg "$CL" "$M"

alive() { kill -0 "$MPID" 2>/dev/null || { cat "$MLOG" >&2; fail "the daemon died: $*"; }; }
# refused ERRORS WHAT CMD...: CMD fails with one of ERRORS (a regex)
refused() {
	local errs=$1 what=$2
	shift 2
	"$@" 2>"$T/err" && fail "$what succeeded"
	grep -Eq "$errs" "$T/err" || fail "$what: not $errs: $(cat "$T/err")"
	alive "$what"
}

printf hello >"$M/f"
truncate -s $MAX "$M/f" || fail "truncate -s $MAX"
alive "truncate -s $MAX"
[ "$(stat -c %s "$M/f")" = $MAX ] || fail "size after truncate -s $MAX: $(stat -c %s "$M/f")"
b=$(stat -c %b "$M/f")
[ "$b" -ge 1 ] && [ "$b" -le 8192 ] || fail "st_blocks of 5 bytes in a $MAX-byte file: $b"
[ "$(head -c 5 "$M/f")" = hello ] || fail "the file's head after truncate -s $MAX"
got=$(dd if="$M/f" bs=1 skip=$((MAX - 3)) count=3 status=none | od -An -c | tr -d ' ')
[ "$got" = '\0\0\0' ] || fail "its last bytes: $got"
ok "truncate -s 2^63-1: works, st_blocks $b, the data reads back"

EFBIG="File too large"
refused "$EFBIG" "an append at 2^63-1" bash -c "printf x >>'$M/f'"
refused "$EFBIG" "fallocate across 2^63-1" fallocate -o $((MAX - 10)) -l 4096 "$M/f"
# the kernel's rw_verify_area() refuses an offset + count past off_t with
# EINVAL before FUSE sees it (pjdfstest accepts EFBIG or EINVAL)
refused "$EFBIG|Invalid argument" "a write at 2^63-1" \
	dd of="$M/f" bs=1 seek=$MAX conv=notrunc status=none if=/dev/zero count=1
[ "$(stat -c %s "$M/f")" = $MAX ] || fail "size after the refusals: $(stat -c %s "$M/f")"
ok "append, write and fallocate past 2^63-1: refused (EFBIG), the size kept"

truncate -s $(((1 << 40) + 1)) "$M/f" || fail "truncate to 1 TiB + 1"
[ "$(stat -c %s "$M/f")" = $(((1 << 40) + 1)) ] || fail "size 1 TiB + 1: $(stat -c %s "$M/f")"
printf abc | dd of="$M/g" bs=1 seek=$((1 << 62)) conv=notrunc status=none ||
	fail "a write at 2^62"
[ "$(stat -c %s "$M/g")" = $(((1 << 62) + 3)) ] || fail "size after a write at 2^62: $(stat -c %s "$M/g")"
[ "$(stat -c %b "$M/g")" -le 8192 ] || fail "st_blocks after a write at 2^62: $(stat -c %b "$M/g")"
[ "$(dd if="$M/g" bs=1 skip=$((1 << 62)) count=3 status=none)" = abc ] || fail "reading at 2^62"
fallocate -n -o $((MAX - 4096)) -l 4096 "$M/g" || fail "fallocate -n of the last 4 KiB below 2^63-1"
[ "$(stat -c %s "$M/g")" = $(((1 << 62) + 3)) ] || fail "fallocate -n moved the size"
ok "1 TiB + 1, a write at 2^62 and an allocation ending at 2^63-1: work"

fallocate -l $MAX "$M/h" 2>"$T/err" && fail "fallocate of 8 EiB succeeded"
grep -q "No space left" "$T/err" || fail "fallocate of 8 EiB: $(cat "$T/err")"
[ "$(stat -c %s "$M/h")" = 0 ] || fail "a refused fallocate changed the size"
alive "fallocate -l $MAX"
ok "fallocate of 8 EiB: ENOSPC at once, nothing changed"

[ "$(head -c 5 "$M/f")" = hello ] || fail "the file's head at the end"
rm "$M/f" "$M/g" "$M/h"
umount_fg "$M"
"$CRUSHFS" --cluster "$CL" scrub >"$T/s" 2>&1 || fail "scrub: $(cat "$T/s")"
grep -q " 0 objects," "$T/s" || fail "objects left behind: $(cat "$T/s")"
ok "the daemon lived through it all, its log is clean, no object left behind"
