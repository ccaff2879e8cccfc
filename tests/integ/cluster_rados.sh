#!/usr/bin/env bash
# rados put/get round trips through the CLI (cmp), stat, ls, rm; every
# replica on the acting set; status/osd df/pg dump/df agree with what was
# stored; `check --deep` proves the accounting; JSON output parses.
. "$(dirname "$0")/lib/cluster_common.sh"

CL=$T/cl
cf "$CL" mkfs --osd-size 256M --pg-num 32 >/dev/null || fail mkfs

sizes="0 1 4095 4096 65537 4194303 4194304 4194305 9999999"
for s in $sizes; do
	head -c "$s" /dev/urandom >"$T/in.$s"
	cf "$CL" rados put "obj.$s" "$T/in.$s" || fail "put $s"
done
for s in $sizes; do
	cf "$CL" rados get "obj.$s" "$T/out.$s" || fail "get $s"
	cmp "$T/in.$s" "$T/out.$s" || fail "round trip of $s bytes"
	st=$(cf "$CL" rados stat "obj.$s")
	[[ $st == "crushfs_data/obj.$s mtime "*", size $s" ]] || fail "stat: $st"
done
ok "put/get round trips ($sizes bytes)"

# stdin / stdout, names with odd characters, overwrite with a smaller object
head -c 123456 /dev/urandom >"$T/pipe"
cf "$CL" rados put 'dir/with slash' - <"$T/pipe" || fail "put from stdin"
cf "$CL" rados get 'dir/with slash' - >"$T/pipe.out" || fail "get to stdout"
cmp "$T/pipe" "$T/pipe.out" || fail "stdin/stdout round trip"
cf "$CL" rados put .hidden "$T/in.1" || fail "put .hidden"
cf "$CL" rados put obj.9999999 "$T/in.4096" || fail "overwrite"
cf "$CL" rados get obj.9999999 "$T/o" && cmp "$T/o" "$T/in.4096" ||
	fail "overwrite with a smaller object"
ok "stdin/stdout, odd names, overwrite"

# every copy on exactly the acting set
for o in obj.4194305 'dir/with slash' .hidden; do
	a=$(acting "$CL" "$o" | tr , '\n' | sort -n | paste -sd, -)
	esc=$(printf '%s' "$o" | sed -e 's#\\#\\\\#g' -e 's#/#\\s#g' -e 's#^\.#\\d#')
	w=$(where "$CL" "$esc")
	[ "$a" = "$w" ] || fail "$o: acting $a, files on $w"
	[ "$(echo "$a" | tr , '\n' | wc -l)" = 3 ] || fail "$o: not 3 copies"
done
ok "three copies, on the acting set"

n=$(cf "$CL" rados ls | wc -l)
[ "$n" = 11 ] || fail "rados ls lists $n objects, not 11"
cf "$CL" rados ls | grep -qx 'dir/with slash' || fail "ls name"
cf "$CL" -f json rados ls | py "import json,sys; d=json.load(sys.stdin); assert len(d)==11 and {'namespace':'','name':'.hidden'} in d" ||
	fail "rados ls -f json"
ok "rados ls"

bytes=$(cf "$CL" -f json status | py "import json,sys; d=json.load(sys.stdin); print(d['pgmap']['data_bytes'], d['pgmap']['num_objects'], d['pgmap']['bytes_used'], d['health']['status'])")
exp=0
for f in "$T"/in.* "$T/pipe"; do exp=$((exp + $(stat -c %s "$f"))); done
exp=$((exp - 9999999 + 4096 + 1)) # obj.9999999 was overwritten; .hidden
[ "$bytes" = "$exp 11 $((exp * 3)) HEALTH_OK" ] ||
	fail "status: '$bytes', want '$exp 11 $((exp * 3)) HEALTH_OK'"
cf "$CL" status | grep -q "objects: 11 objects" || fail "status text"
cf "$CL" osd df | grep -q '^MIN/MAX VAR: ' || fail "osd df summary line"
cf "$CL" osd df | head -1 | grep -q '^ID  CLASS  WEIGHT   REWEIGHT  SIZE     RAW USE  DATA' || fail "osd df header"
used=$(cf "$CL" -f json osd df | py "import json,sys; d=json.load(sys.stdin); print(sum(n['bytes_used'] for n in d['nodes']), sum(n['objects'] for n in d['nodes']))")
[ "$used" = "$((exp * 3)) 33" ] || fail "osd df used/objects: $used"
pg=$(cf "$CL" -f json pg dump | py "import json,sys; d=json.load(sys.stdin); print(sum(p['stat_sum']['num_objects'] for p in d['pg_map']['pg_stats']), sum(p['stat_sum']['num_bytes'] for p in d['pg_map']['pg_stats']), len(d['pg_map']['pg_stats']))")
[ "$pg" = "11 $exp 32" ] || fail "pg dump: $pg"
cf "$CL" pg dump | head -1 | grep -q '^PG_STAT  OBJECTS' || fail "pg dump header"
cf "$CL" df | grep -q 'MAX AVAIL' || fail "df"
ok "status, osd df, pg dump, df agree ($exp bytes x 3)"

# osd map matches where the files are
m=$(cf "$CL" osd map obj.1)
[[ $m =~ ^osdmap\ e1\ pool\ \'crushfs_data\'\ \(1\)\ object\ \'obj.1\'\ -\>\ pg\ 1\.[0-9a-f]+\ \(1\.[0-9a-f]+\)\ -\>\ up\ \(\[[0-9]+,[0-9]+,[0-9]+\],\ p[0-9]+\)\ acting\ \(\[[0-9]+,[0-9]+,[0-9]+\],\ p[0-9]+\)$ ]] ||
	fail "osd map: $m"
cf "$CL" -f json osd map obj.1 | py "import json,sys; d=json.load(sys.stdin); assert d['pool']=='crushfs_data' and len(d['acting'])==3 and d['acting_primary']==d['acting'][0]" ||
	fail "osd map -f json"
ok "osd map"

# rm, and errors for what is not there
cf "$CL" rados rm obj.0 || fail "rm"
must_fail 'error getting crushfs_data/obj.0: \(2\) No such file or directory' \
	cf "$CL" rados get obj.0 "$T/x"
[ ! -e "$T/x" ] || fail "get of a missing object created the file"
must_fail 'error removing crushfs_data>obj.0: \(2\) No such file' cf "$CL" rados rm obj.0
must_fail 'error stat-ing crushfs_data/nope' cf "$CL" rados stat nope
must_fail 'nosuchfile: No such file or directory' cf "$CL" rados put a "$T/nosuchfile"
ok "rm; missing objects give one clear line"

out=$(cf "$CL" check --deep) || fail "check: $out"
[[ $out == "check: 12 osds, 30 object copies, "*"usage matches the disk, replicas agree" ]] ||
	fail "check: $out"
cf "$CL" -f json check | py "import json,sys; d=json.load(sys.stdin); assert d['ok'] and d['objects']==30" ||
	fail "check -f json"
ok "check --deep: accounting equals the disk"

# stdin/stdout: pipes both ways with an object bigger than any pipe buffer
# and than one put piece (64 MiB), 0 bytes, closed descriptors
head -c 67112961 /dev/urandom >"$T/big"
cat "$T/big" | cf "$CL" rados put big - || fail "put 64 MiB + 4097 from a pipe"
cf "$CL" rados get big - | cat >"$T/big.out" || fail "get 64 MiB + 4097 to a pipe"
cmp "$T/big" "$T/big.out" || fail "64 MiB + 4097 pipe round trip"
[[ $(cf "$CL" rados stat big) == *", size 67112961" ]] || fail "stat big"
cf "$CL" rados put empty - </dev/null || fail "put 0 bytes from stdin"
[[ $(cf "$CL" rados stat empty) == *", size 0" ]] || fail "stat empty"
[ "$(cf "$CL" rados get empty - | wc -c)" = 0 ] || fail "get 0 bytes to stdout"
must_fail '^crushfs: rados get: error getting crushfs_data/nope: \(2\) No such file or directory$' \
	cf "$CL" rados get nope -
[ ! -s "$T/mf.out" ] || fail "get of a missing object wrote to stdout"
must_fail '^crushfs: rados put: stdin: Bad file descriptor$' cf "$CL" rados put closed - <&-
must_fail '^crushfs: rados get: stdout: Bad file descriptor$' \
	bash -c '"$@" >&-' _ "$CRUSHFS" --cluster "$CL" rados get big -
cf "$CL" rados stat closed 2>/dev/null && fail "put from a closed stdin stored an object"
ok "stdin/stdout: 64 MiB + 4097 through pipes, 0 bytes, closed descriptors"
