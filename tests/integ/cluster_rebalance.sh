#!/usr/bin/env bash
# Map changes and rebalance through the CLI: out, in, reweight, crush
# reweight, down/up and add; after each rebalance every object is still
# there with the same bytes (count and total conserved), its copies sit on
# exactly its acting set, and only objects whose PG mapping changed were
# copied (the others keep their very files, same inodes).
. "$(dirname "$0")/lib/cluster_common.sh"

CL=$T/cl
cf "$CL" mkfs --osd-size 256M --pg-num 64 >/dev/null || fail mkfs
N=40
for i in $(seq 1 $N); do
	head -c $(((i * 7919) % 300000 + 1)) /dev/urandom >"$T/in.$i"
	cf "$CL" rados put "o$i" "$T/in.$i" || fail "put o$i"
done
total=$(cat "$T"/in.* | wc -c)

# snapshot FILE: "name acting(sorted) files(sorted) inodes" per object,
# from `pg dump -f json` and a walk of the OSD folders
snapshot() {
	cf "$CL" -f json pg dump >"$T/pgs.json" || fail "pg dump"
	py "
import json, os, re
pgs = {p['pgid']: sorted(p['acting']) for p in json.load(open('$T/pgs.json'))['pg_map']['pg_stats']}
objs = {}
for d in os.listdir('$CL'):
    m = re.fullmatch(r'osd\\.(\\d+)', d)
    if not m:
        continue
    cur = os.path.join('$CL', d, 'current')
    for pg in os.listdir(cur):
        for o in os.listdir(os.path.join(cur, pg)):
            st = os.stat(os.path.join(cur, pg, o))
            objs.setdefault(o, []).append((int(m.group(1)), st.st_ino, pg[:-5]))
with open('$1', 'w') as f:
    for i in range(1, $N + 1):
        n = 'o%d' % i
        c = sorted(objs.get(n, []))
        pgid = c[0][2] if c else '?'
        f.write('%s %s %s %s\\n' % (n, ','.join(map(str, pgs.get(pgid, []))),
                ','.join(str(x[0]) for x in c) or '-', ','.join(str(x[1]) for x in c) or '-'))
" || fail "snapshot"
}

# conserved: every object there, same bytes, copies on the acting set
conserved() {
	local sum=0 s name a w rest
	[ "$(cf "$CL" rados ls | wc -l)" = $N ] || fail "$1: object count changed"
	for i in $(seq 1 $N); do
		cf "$CL" rados get "o$i" "$T/o" || fail "$1: get o$i"
		cmp -s "$T/o" "$T/in.$i" || fail "$1: o$i changed"
		s=$(stat -c %s "$T/o")
		sum=$((sum + s))
	done
	[ $sum = "$total" ] || fail "$1: $sum bytes, not $total"
	while read -r name a w rest; do
		[ "$a" = "$w" ] || fail "$1: $name has acting $a but copies on $w"
	done <"$T/after"
}

# moved_ok BEFORE AFTER JSON: only objects whose acting set changed were
# touched; the copy/removal counts match the set differences
moved_ok() {
	py "
import json, sys
b = {l.split()[0]: l.split()[1:] for l in open('$1')}
a = {l.split()[0]: l.split()[1:] for l in open('$2')}
r = json.load(open('$3'))
copied = removed = 0
for n in b:
    ba, bw, bi = b[n][0].split(','), b[n][1], b[n][2]
    aa, aw, ai = a[n][0].split(','), a[n][1], a[n][2]
    if ba == aa:
        assert (bw, bi) == (aw, ai), (n, 'rewritten although its PG did not move')
    new = set(aa) - set(ba)
    gone = set(ba) - set(aa)
    copied += len(new)
    removed += len(gone)
    # copies that stayed keep their inode
assert r['objects_moved'] == copied, (r, copied)
assert r['old_copies_removed'] == removed, (r, removed)
assert r['errors'] == 0 and r['pgs_blocked'] == 0 and r['pgs_backfill_toofull'] == 0, r
print(copied)
" || fail "$4: moves do not match the map change"
}

step() {
	local name=$1 moved h
	shift
	snapshot "$T/before"
	"$@" >/dev/null || fail "$name: $*"
	cf "$CL" -f json rebalance >"$T/reb.json" || fail "$name: rebalance"
	snapshot "$T/after"
	conserved "$name"
	moved=$(moved_ok "$T/before" "$T/after" "$T/reb.json" "$name")
	h=$(cf "$CL" health)
	[ "$h" = HEALTH_OK ] || fail "$name: after rebalance: $h"
	ok "$name: $moved copies moved, $N objects and $total bytes conserved"
}

# before rebalancing, an out OSD makes objects misplaced, not degraded
snapshot "$T/start"
cf "$CL" osd out 3 >/dev/null
s=$(cf "$CL" -f json status)
py "import json,sys; d=json.loads(sys.argv[1])['pgmap']; assert d['misplaced_objects']>0 and d['degraded_objects']==0, d" "$s" ||
	fail "out: not misplaced: $s"
cf "$CL" status | grep -Eq 'objects misplaced' || fail "status text misplaced"
cf "$CL" osd in 3 >/dev/null
ok "out: objects counted misplaced until rebalanced"

step "osd out 3" cf "$CL" osd out 3
step "osd in 3" cf "$CL" osd in 3
cmp -s <(cut -d' ' -f1-3 "$T/start") <(cut -d' ' -f1-3 "$T/after") ||
	fail "out + in did not bring every object back where it was"
ok "out + in: every object back on its first OSDs"
step "osd reweight 7 0.5" cf "$CL" osd reweight 7 0.5
step "osd crush reweight 10 0.003" cf "$CL" osd crush reweight 10 0.003
step "osd add --host host4" cf "$CL" osd add --host host4 --size 256M
cf "$CL" osd tree | grep -q 'host host4' || fail "osd tree lacks host4"

# down, write, up: the copy that missed the write is never served, and
# rebalance repairs it
victims=""
for i in $(seq 1 $N); do
	[[ ,$(acting "$CL" "o$i"), == *,2,* ]] && victims="$victims $i"
done
[ -n "$victims" ] || fail "no object on osd.2"
cf "$CL" osd down 2 >/dev/null
cf "$CL" health | grep -q 'Degraded data redundancy' || fail "down: not degraded"
for i in $victims; do
	head -c 5000 /dev/urandom >"$T/in.$i"
	cf "$CL" rados put "o$i" "$T/in.$i" || fail "put o$i with osd.2 down"
done
cf "$CL" osd up 2 >/dev/null
for i in $victims; do
	cf "$CL" rados get "o$i" "$T/o" && cmp -s "$T/o" "$T/in.$i" ||
		fail "o$i: a stale copy was served after osd.2 came back"
done
total=$(cat "$T"/in.* | wc -c)
cf "$CL" health | grep -q 'degraded' || fail "up: stale copies not reported degraded"
cf "$CL" rebalance >/dev/null || fail "rebalance after down/up"
snapshot "$T/after"
conserved "down/up"
cf "$CL" check --deep >/dev/null || fail "replicas differ after down/up + rebalance"
ok "down, write, up: no stale read; rebalance repairs $(echo $victims | wc -w) objects"

out=$(cf "$CL" rebalance)
[ "$out" = "rebalance: moved 0 objects (0 B), removed 0 old copies (0 B), 0 pgs changed" ] ||
	fail "second rebalance: $out"
ok "nothing left to move"
