#!/usr/bin/env bash
# Malformed input through the CLI: bad sizes and numbers, unknown OSDs, a
# missing or damaged cluster, malformed crush maps, mkfs over an existing
# cluster or a foreign directory.  Each gives a non-zero exit and one line
# on stderr saying what and where; nothing crashes, no cluster is half
# made, and the cluster is unchanged afterwards.
. "$(dirname "$0")/lib/cluster_common.sh"

CL=$T/cl
cf "$CL" mkfs --osd-size 64M --pg-num 16 >/dev/null || fail mkfs
head -c 1000 /dev/urandom >"$T/data"
cf "$CL" rados put keep "$T/data" || fail put
fsid=$(cf "$CL" -f json status | py "import json,sys; print(json.load(sys.stdin)['fsid'])")

# no cluster
must_fail "status: no cluster at $T/none \\($T/none/cluster.json: No such file or directory\\)" \
	cf "$T/none" status
must_fail 'no cluster at' cf "$T/none" rados put x "$T/data"
[ ! -e "$T/none" ] || fail "a command on a missing cluster created it"
ok "missing cluster: one line naming the directory"

# mkfs: bad sizes and numbers, nothing created
M=$T/new
must_fail "mkfs: --osd-size: '12Q' is not a size" cf "$M" mkfs --osd-size 12Q
must_fail "mkfs: --osd-size: '-1' is not a size" cf "$M" mkfs --osd-size -1
must_fail "mkfs: --osd-size: '0' is out of range" cf "$M" mkfs --osd-size 0
must_fail "mkfs: --object-size 3000: must be a non-zero multiple of 64 KiB" cf "$M" mkfs --object-size 3000
must_fail "mkfs: --object-size 2147483648: must be at most 1 GiB" cf "$M" mkfs --object-size 2G
must_fail "mkfs: --stripe-unit 4096: must be a non-zero multiple of 64 KiB" cf "$M" mkfs --stripe-unit 4K
must_fail "mkfs: --stripe-count 0: must be 1..65536" cf "$M" mkfs --stripe-count 0
must_fail "mkfs: --stripe-count 4294967295: must be 1..65536" cf "$M" mkfs --stripe-count 4294967295
must_fail "mkfs: --stripe-count 65537: must be 1..65536" cf "$M" mkfs --stripe-count 65537
must_fail "mkfs: --stripe-count: '4294967296' is out of range" cf "$M" mkfs --stripe-count 4294967296
must_fail "mkfs: --pg-num: 'abc' is not a number" cf "$M" mkfs --pg-num abc
must_fail "mkfs: --size: '0' is out of range" cf "$M" mkfs --size 0
must_fail "mkfs: --min-size 4: must be 1..3" cf "$M" mkfs --min-size 4
must_fail "mkfs: --hosts 13: must be 1..12" cf "$M" mkfs --hosts 13
must_fail "mkfs: --full-policy: 'most' is not osd or pool" cf "$M" mkfs --full-policy most
must_fail "mkfs: --stripe-unit 3145728: must divide the object size 4194304" cf "$M" mkfs --stripe-unit 3M
must_fail "mkfs: --osds: missing value" cf "$M" mkfs --osds
[ ! -e "$M" ] || fail "a refused mkfs created $M"
ok "mkfs: bad options refused, nothing created"

# mkfs over a cluster, over a foreign directory
must_fail "mkfs: $CL: a cluster already exists there; use --force" cf "$CL" mkfs
mkdir "$T/foreign"
echo precious >"$T/foreign/file"
must_fail "exists, is not empty and is not a crushfs cluster" cf "$T/foreign" mkfs --force
[ "$(cat "$T/foreign/file")" = precious ] || fail "foreign directory touched"
echo x >"$T/plainfile"
must_fail "exists and is not a directory" cf "$T/plainfile" mkfs
ok "mkfs refuses to overwrite without --force, never touches a foreign directory"

# malformed crush maps: file:line:col, no cluster, no temporary left
printf 'device 0 osd.0\nhost h {\n\tid -2\n\talg straw2\n\titem osd.9 weight 1.0\n}\n' >"$T/bad1.txt"
must_fail "^crushfs: mkfs: $T/bad1.txt:[0-9]+:[0-9]+: error: " cf "$M" mkfs --crush-map "$T/bad1.txt"
printf 'device 0 osd.0\ntype 0 osd\ntype 1 root\nroot r {\n\tid -1\n\talg straw2\n\thash 0\n\titem osd.0 weight 1.0\n}\nrule x {\n\tid 0\n\ttype replicated\n\tstep take r\n\tstep choose firstn 0 type osd\n\tstep emit\n' >"$T/bad2.txt"
must_fail "^crushfs: mkfs: $T/bad2.txt:[0-9]+:[0-9]+: error: " cf "$M" mkfs --crush-map "$T/bad2.txt"
must_fail "$T/nomap.txt: " cf "$M" mkfs --crush-map "$T/nomap.txt"
printf 'device 0 osd.0\ntype 0 osd\ntype 1 root\nroot r {\n\tid -1\n\talg straw2\n\thash 0\n\titem osd.0 weight 1.0\n}\n' >"$T/norule.txt"
must_fail "norule.txt: no replicated rule for the pool" cf "$M" mkfs --crush-map "$T/norule.txt"
[ ! -e "$M" ] || fail "a bad map left $M"
ls "$T" | grep -q 'tmp-' && fail "a temporary cluster was left behind"
ok "malformed crush maps: file:line:col, nothing left behind"

# commands on the cluster
must_fail "osd out: osd.99 does not exist" cf "$CL" osd out 99
must_fail "osd out: 'abc' is not an OSD id" cf "$CL" osd out abc
must_fail "osd in: '-3' is not an OSD id" cf "$CL" osd in -3
must_fail "osd reweight: weight: 1.5 is out of range" cf "$CL" osd reweight 1 1.5
must_fail "osd reweight: weight: 'x' is not a number" cf "$CL" osd reweight 1 x
must_fail "osd crush reweight: weight: -1 is out of range" cf "$CL" osd crush reweight osd.1 -1
must_fail "osd set-capacity: size: '12Q' is not a size" cf "$CL" osd set-capacity 1 12Q
must_fail "osd set-capacity: osd.12 does not exist" cf "$CL" osd set-capacity 12 1G
must_fail "set-full-ratio: ratio: must be more than 0" cf "$CL" set-full-ratio 0
must_fail "set-full-ratio: ratio: 2 is out of range" cf "$CL" set-full-ratio 2
must_fail "set-full-policy: 'most' is not a policy" cf "$CL" set-full-policy most
must_fail "osd add: --host is required \\(usage: crushfs osd add --host HOST" cf "$CL" osd add
must_fail "osd add: --size: 'big' is not a size" cf "$CL" osd add --host h --size big
must_fail "osd out: missing argument \\(usage: crushfs osd out ID\\)" cf "$CL" osd out
must_fail "osd out: unexpected argument '2'" cf "$CL" osd out 1 2
must_fail "rados put: missing argument" cf "$CL" rados put onlyname
must_fail "rados get: empty object name" cf "$CL" rados get '' "$T/x"
must_fail "osd map: unknown option '--bogus'" cf "$CL" osd map --bogus
must_fail "check: unexpected argument 'now'" cf "$CL" check now
ok "bad arguments: one line each, naming what was wrong"

e=$(cf "$CL" -f json status | py "import json,sys; d=json.load(sys.stdin); print(d['osdmap']['epoch'], d['fsid'])")
[ "$e" = "1 $fsid" ] || fail "the refused commands changed the cluster: $e"
cf "$CL" rados get keep "$T/back" && cmp -s "$T/back" "$T/data" || fail "data changed"
cf "$CL" check --deep >/dev/null || fail "check"
ok "the cluster is unchanged (epoch 1, same fsid, data intact)"

# a damaged cluster: a clear line, no crash
cp "$CL/cluster.json" "$T/cluster.json.bak"
printf '{"fsid": "x",\n  "epoch": ' >"$CL/cluster.json"
must_fail "status: $CL/cluster.json:2:[0-9]+: " cf "$CL" status
printf '{"fsid": "%s", "epoch": 0}\n' "$fsid" >"$CL/cluster.json"
must_fail "status: $CL/cluster.json: field 'epoch' is missing or invalid" cf "$CL" status
cp "$T/cluster.json.bak" "$CL/cluster.json"
mv "$CL/osd.3" "$T/osd.3"
must_fail "status: $CL/osd.3/current: No such file or directory \\(the OSD's store is gone\\)" cf "$CL" status
mv "$T/osd.3" "$CL/osd.3"
cf "$CL" status >/dev/null || fail "repaired cluster does not open"
ok "damaged cluster files: one line naming the file"
