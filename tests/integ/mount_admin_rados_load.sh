#!/usr/bin/env bash
# Admin commands against a mount under write load (issue 8 item 8: "a test
# that runs admin commands against a mount under write load"): while a
# writer creates, overwrites and removes files without pause, the admin
# socket serves status, osd df, pg dump (text and JSON), osd out/in
# (placement changes under the writer's feet) and rados put/get through
# stdin/stdout and files.  Every command must succeed, the daemon must not
# crash or log an error, the writer must see no error, and afterwards
# every file and object reads back exactly as written.
. "$(dirname "$0")/lib/mount_common.sh"

CL=$T/cl
M=$T/mnt
mkcluster "$CL" --osd-size 512M --pg-num 32
C=("$CRUSHFS" --cluster "$CL")
mount_fg "$CL" "$M"

# First, alone: a partial overwrite and a truncate of a file right after
# an OSD of its object's acting set went out, then again after it came
# back.  Each change rebuilds the new acting member's copy; it must do so
# before it changes any copy (the load below found writes that changed
# the primary first and then took its new version, not yet in the index,
# for damage: "copy has an unknown newer version", PG_DAMAGED).
head -c 1048576 /dev/urandom >"$T/f0"
cp "$T/f0" "$M/f0"
obj=$(printf '%x.00000000' "$(stat -c %i "$M/f0")")
act=$("${C[@]}" osd map "$obj" | sed -E 's/.*acting \(\[([0-9,]+)\].*/\1/')
last=${act##*,}
"${C[@]}" osd out "$last" >/dev/null || fail "osd out $last"
printf XYZ | dd of="$M/f0" bs=1 seek=100 conv=notrunc status=none
truncate -s 500000 "$M/f0"
"${C[@]}" osd in "$last" >/dev/null || fail "osd in $last"
printf ABC | dd of="$M/f0" bs=1 seek=200 conv=notrunc status=none
py "
d = bytearray(open('$T/f0', 'rb').read()[:500000])
d[100:103] = b'XYZ'; d[200:203] = b'ABC'
import sys; sys.exit(0 if open('$M/f0', 'rb').read() == bytes(d) else 1)" ||
	fail "f0 after writes across osd out/in"
grep ERROR "$MLOG" && fail "a write across osd out/in called good copies damaged"
"${C[@]}" status | grep -Eq 'PG_DAMAGED|inconsistent|scrub error' &&
	fail "health after writes across osd out/in: $("${C[@]}" status)"
ok "writes across osd out/in of $obj (acting $act): no copy called damaged"

# The writer: files of 64 KiB .. 3 MiB whose bytes follow from their name
# and generation; it keeps at most 12 files, overwrites in place, appends,
# removes; stops when $T/stop exists and leaves $T/expect (name gen size).
cat >"$T/writer.py" <<'EOF'
import os, random, sys
mnt, stopf, out = sys.argv[1:4]
def data(name, gen, size):
    r = random.Random("%s/%d" % (name, gen))
    return r.randbytes(size)
files, n, rng = {}, 0, random.Random(8)
while not os.path.exists(stopf) or n < 20:
    name = "w%d" % rng.randrange(12)
    size = rng.choice([65536, 1 << 20, 3 << 20, 12345])
    path = os.path.join(mnt, name)
    op = rng.random()
    if name in files and op < 0.15:
        os.unlink(path)
        del files[name]
    else:
        gen = n
        buf = data(name, gen, size)
        with open(path, "wb") as f:
            # in pieces, so the admin commands land between writes
            for o in range(0, size, 256 << 10):
                f.write(buf[o:o + (256 << 10)])
            if op > 0.9:
                f.flush()
                os.fsync(f.fileno())
        files[name] = (gen, size)
    n += 1
with open(out, "w") as f:
    for name, (gen, size) in sorted(files.items()):
        f.write("%s %d %d\n" % (name, gen, size))
print(n)
EOF
"$PY" "$T/writer.py" "$M" "$T/stop" "$T/expect" >"$T/writer.out" 2>"$T/writer.err" &
WRITER=$!

head -c 1048576 /dev/urandom >"$T/obj1"
head -c 16777216 /dev/urandom >"$T/obj16"
# run NAME CMD...: the command must succeed while the writer runs
run() {
	local what=$1
	shift
	"$@" >"$T/run.out" 2>"$T/run.err" ||
		fail "$what failed under write load: $(cat "$T/run.err")"
	[ ! -s "$T/run.err" ] || fail "$what wrote to stderr: $(cat "$T/run.err")"
}
n=0
end=$((SECONDS + 8))
while [ $SECONDS -lt $end ] || [ $n -lt 5 ]; do
	kill -0 "$WRITER" 2>/dev/null || fail "the writer stopped: $(cat "$T/writer.err")"
	run status "${C[@]}" status
	grep -q 'HEALTH_' "$T/run.out" || fail "status: $(cat "$T/run.out")"
	run "status -f json" "${C[@]}" -f json status
	py "import json; json.load(open('$T/run.out'))" || fail "status -f json"
	run "osd df" "${C[@]}" osd df
	grep -q '^MIN/MAX VAR: ' "$T/run.out" || fail "osd df: $(cat "$T/run.out")"
	run "pg dump" "${C[@]}" pg dump
	run "pg dump -f json" "${C[@]}" -f json pg dump
	py "import json; d=json.load(open('$T/run.out')); assert len(d['pg_map']['pg_stats']) == 32" ||
		fail "pg dump -f json"
	osd=$((n % 12))
	run "osd out $osd" "${C[@]}" osd out "$osd"
	run "rados put o$n -" "${C[@]}" rados put "o$n" - <"$T/obj1"
	"${C[@]}" rados get "o$n" - 2>"$T/run.err" | cmp - "$T/obj1" ||
		fail "rados get o$n - under load: $(cat "$T/run.err")"
	run "osd in $osd" "${C[@]}" osd in "$osd"
	cat "$T/obj16" | "${C[@]}" rados put "big$((n % 3))" - 2>"$T/run.err" ||
		fail "rados put big (pipe) under load: $(cat "$T/run.err")"
	run "rados get big to a file" "${C[@]}" rados get "big$((n % 3))" "$T/big.out"
	cmp "$T/big.out" "$T/obj16" || fail "big$((n % 3)) read back differs"
	n=$((n + 1))
done
touch "$T/stop"
wait "$WRITER" || fail "writer: $(cat "$T/writer.err")"
kill -0 "$MPID" 2>/dev/null || fail "the daemon died"
ok "$n rounds of status/osd df/pg dump/osd out+in/rados put+get while $(cat "$T/writer.out") files were written"

# Everything reads back: the writer's files, the objects.
while read -r name gen size; do
	py "
import random, sys
r = random.Random('$name/$gen')
want = r.randbytes($size)
got = open('$M/$name', 'rb').read()
sys.exit(0 if got == want else 1)" || fail "$name (gen $gen, $size bytes) reads back wrong"
done <"$T/expect"
for i in $(seq 0 $((n - 1))); do
	"${C[@]}" rados get "o$i" - | cmp - "$T/obj1" || fail "o$i after the load"
done
"${C[@]}" status >/dev/null || fail "status after the load"
umount_fg "$M"
ok "$(wc -l <"$T/expect") files and $n objects read back; daemon log clean"
