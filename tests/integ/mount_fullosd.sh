#!/usr/bin/env bash
# The full-OSD scenario, live: one OSD made small with `osd set-capacity`
# (through the daemon's admin socket).  cp of a big file fails with
# "No space left on device"; files whose objects map to PGs without that
# OSD still write; every earlier file reads back identical; deleting frees
# the space at once, and writes to the full OSD's PGs work again.
. "$(dirname "$0")/lib/mount_common.sh"

CL=$T/cluster
M=$T/mnt
mkcluster "$CL" --osds 6 --hosts 3 --osd-size 512M --size 2 --min-size 1 --pg-num 32
mount_fg "$CL" "$M"

# earlier files
for i in $(seq 1 8); do
	head -c $((i * 300000)) /dev/urandom >"$T/early$i"
	cp "$T/early$i" "$M/early$i"
done
sync
ok "8 earlier files written"

osd_used() {
	"$CRUSHFS" --cluster "$CL" -f json osd df |
		"$PY" -c "import json,sys; print([n['bytes_used'] for n in json.load(sys.stdin)['nodes'] if n['id']==$1][0])"
}
acting_has() { # OBJECT OSD: is OSD in the object's acting set?
	"$CRUSHFS" --cluster "$CL" -f json osd map "$1" |
		"$PY" -c "import json,sys; sys.exit(0 if $2 in json.load(sys.stdin)['acting'] else 1)"
}

used0=$(osd_used 0)
"$CRUSHFS" --cluster "$CL" osd set-capacity 0 $((used0 + (6 << 20))) >/dev/null ||
	fail "osd set-capacity on a mounted cluster"
ok "osd.0 capacity set to used + 6 MiB (used $used0)"

# a big copy runs into the full OSD
head -c 96M /dev/urandom >"$T/big"
if cp "$T/big" "$M/big" 2>"$T/cperr"; then
	fail "cp of 96 MiB succeeded with a full OSD"
fi
grep -q "No space left on device" "$T/cperr" || { cat "$T/cperr"; fail "cp error is not ENOSPC"; }
part=$(stat -c %s "$M/big")
[ "$part" -lt $((96 << 20)) ] || fail "partial file is complete?"
cmp -n "$part" "$T/big" "$M/big" || fail "the written prefix differs"
ok "cp fails: $(cat "$T/cperr") (wrote $part bytes, identical prefix)"

# now make osd.0 exactly full: every write that needs it is refused
"$CRUSHFS" --cluster "$CL" osd set-capacity 0 "$(osd_used 0)" >/dev/null ||
	fail "osd set-capacity (2)"

# small files: those in PGs without osd.0 still write, the others fail
good=0 bad=0 refused=()
head -c 200000 /dev/urandom >"$T/small"
for i in $(seq 1 24); do
	f=$M/small$i
	: >"$f"
	obj=$(printf '%x.%08x' "$(stat -c %i "$f")" 0)
	if cp "$T/small" "$f" 2>/dev/null; then
		acting_has "$obj" 0 && fail "small$i ($obj) wrote to a PG holding the full osd.0"
		cmp "$T/small" "$f" || fail "small$i differs"
		good=$((good + 1))
	else
		acting_has "$obj" 0 || fail "small$i ($obj) refused though its PG lacks osd.0"
		bad=$((bad + 1))
		refused+=("$i")
	fi
done
[ $good -gt 0 ] && [ $bad -gt 0 ] || fail "expected both outcomes: $good written, $bad refused"
ok "$good small files on other PGs written, $bad on osd.0's PGs refused"

for i in $(seq 1 8); do
	cmp "$T/early$i" "$M/early$i" || fail "early$i changed"
done
ok "every earlier file reads back identical"

# deleting frees space at once
before=$(osd_used 0)
rm -f "$M/big" "$M"/small?*
# (the purge of the removed files' objects runs in the background)
freed() { after=$(osd_used 0) && [ "$after" -lt "$before" ]; }
wait_for "osd.0's usage to drop below $before bytes after rm" 30 freed
ok "rm freed osd.0: $before -> $after bytes"
# the same file names land on new inodes: find one on osd.0 again
n=0
for i in $(seq 1 40); do
	f=$M/again$i
	: >"$f"
	obj=$(printf '%x.%08x' "$(stat -c %i "$f")" 0)
	acting_has "$obj" 0 || continue
	cp "$T/small" "$f" || fail "writing to osd.0's PG after the delete"
	cmp "$T/small" "$f" || fail "again$i differs"
	n=$((n + 1))
	[ $n -ge 3 ] && break
done
[ $n -ge 1 ] || fail "no file landed on osd.0"
ok "writes to osd.0's PGs work again after the delete ($n files)"

umount_fg "$M"
