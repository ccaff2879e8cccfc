#!/usr/bin/env bash
# Copies you can trust, mounted (issue 8): with the cluster unmounted, the
# primary copy of one file's object is deleted, 16 bytes of another's
# primary copy and of a third's replica are flipped.  Mounted again, every
# file reads back identical; the daemon logs each bad copy with PG, object
# and OSD and rebuilds it on the spot from a good copy; a rotten replica
# the reads never touch is found by `pg deep-scrub` through the admin
# socket, shown by health, and fixed by `pg repair`.
. "$(dirname "$0")/lib/mount_common.sh"

CL=$T/cluster
M=$T/mnt
mkcluster "$CL" --osd-size 512M --pg-num 32
mount_fg "$CL" "$M"
for f in a b c d; do
	head -c $((5 << 20)) /dev/urandom >"$T/$f"
	cp "$T/$f" "$M/$f"
done
sync -f "$M/a"
declare -A INO
for f in a b c d; do INO[$f]=$(stat -c %i "$M/$f"); done
umount_fg "$M"

# where object 0 of a file lives: pgid and acting set
obj() { printf '%x.%08x' "${INO[$1]}" 0; }
pgof() { "$CRUSHFS" --cluster "$CL" osd map "$(obj "$1")" -f json |
	py 'import json,sys; print(json.load(sys.stdin)["pgid"])'; }
actingof() { "$CRUSHFS" --cluster "$CL" osd map "$(obj "$1")" -f json |
	py 'import json,sys; print(" ".join(map(str, json.load(sys.stdin)["acting"])))'; }
copy() { echo "$CL/osd.$2/current/$(pgof "$1")_head/$(obj "$1")"; }
flip() {
	py "f=open('$1','r+b'); f.seek($2); b=bytearray(f.read(16))
for i in range(16): b[i]^=0x5a
f.seek($2); f.write(b)"
}
set -- $(actingof a); PA=$1 RA=$2
set -- $(actingof b); PB=$1
set -- $(actingof c); RC=$2
set -- $(actingof d); PD=$1 RD=$2
rm "$(copy a "$PA")"
rm "$(copy d "$PD")"
flip "$(copy b "$PB")" 1000000
flip "$(copy c "$RC")" 2000000
ok "primary copy of a deleted, b's primary and c's replica rotten (unmounted)"

mount_fg "$CL" "$M"
# d: a 1-byte overwrite lands on the missing primary copy first; it must
# not recreate it as a sparse 101-byte object (the data would be lost)
printf Z | dd of="$M/d" bs=1 seek=100 conv=notrunc status=none
printf Z | dd of="$T/d" bs=1 seek=100 conv=notrunc status=none
cmp "$T/d" "$M/d" || fail "d after a 1-byte overwrite of a missing primary copy"
set -- $(actingof d)
cmp "$(copy d "$1")" "$(copy d "$2")" || fail "d's copies differ after the overwrite"
[ "$(stat -c %s "$(copy d "$PD")")" = $((4 << 20)) ] || fail "d's primary copy rebuilt with the wrong size"
ok "1-byte overwrite of an object whose primary copy is gone: rebuilt first, nothing lost"
for f in a b c d; do
	cmp "$T/$f" "$M/$f" || fail "$f reads back other bytes"
done
grep -q "pg $(pgof a): object '$(obj a)' on osd.$PA: copy is missing" "$MLOG" ||
	fail "no log line for the missing copy: $(cat "$MLOG")"
grep -q "pg $(pgof b): object '$(obj b)' on osd.$PB: data does not match its checksums" "$MLOG" ||
	fail "no log line for the rotten copy: $(cat "$MLOG")"
cmp "$(copy a "$PA")" "$(copy a "$RA")" || fail "a's primary copy not rebuilt on the spot"
set -- $(actingof b)
cmp "$(copy b "$PB")" "$(copy b "$2")" || fail "b's primary copy not rebuilt on the spot"
ok "reads identical; bad primary copies logged and rebuilt on the spot"

# c's replica was never read: deep-scrub finds it, through the daemon
rc=0
"$CRUSHFS" --cluster "$CL" pg deep-scrub "$(pgof c)" >"$T/s" 2>&1 || rc=$?
[ $rc = 1 ] || fail "deep-scrub exit $rc: $(cat "$T/s")"
grep -q "osd.$RC: data does not match its checksums" "$T/s" || fail "$(cat "$T/s")"
"$CRUSHFS" --cluster "$CL" health detail >"$T/h" || fail "health detail: $(cat "$T/h")"
grep -q "HEALTH_ERR" "$T/h" && grep -q "Possible data damage: 1 pg inconsistent" "$T/h" ||
	fail "health: $(cat "$T/h")"
"$CRUSHFS" --cluster "$CL" pg repair "$(pgof c)" >"$T/s" 2>&1 || fail "repair: $(cat "$T/s")"
"$CRUSHFS" --cluster "$CL" health >"$T/h" || fail "health: $(cat "$T/h")"
! grep -q "PG_DAMAGED" "$T/h" || fail "still damaged after repair: $(cat "$T/h")"
set -- $(actingof c)
cmp "$(copy c "$1")" "$(copy c "$RC")" || fail "c's replica not repaired"
cmp "$T/c" "$M/c" || fail "c after repair"
ok "deep-scrub through the admin socket finds the rotten replica; HEALTH_ERR until pg repair"

fusermount3 -u "$M"
wait "$MPID" || fail "daemon exit status"
# the daemon's log holds exactly the damage it reported, nothing else
grep -E "ERROR|AddressSanitizer|LeakSanitizer|runtime error" "$MLOG" |
	grep -v "copy is missing\|data does not match its checksums" && fail "unexpected errors in $MLOG"
"$CRUSHFS" --cluster "$CL" scrub --deep >"$T/s" 2>&1 || fail "final deep scrub: $(cat "$T/s")"
ok "unmounted deep scrub: 0 errors"
