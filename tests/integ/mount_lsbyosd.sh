#!/usr/bin/env bash
# `crushfs ls-by-osd OSD [PATH]` (issue 11): "which files are hit if
# osd.N dies?".  For every OSD, the files it lists (mounted: the daemon
# answers; unmounted: the CLI reads the metadata) must be exactly the files
# for which `locate` shows osd.N in an object's acting set, with the same
# object counts; PATH keeps a subtree (in the mount, or from the root).
. "$(dirname "$0")/lib/mount_common.sh"

CL=$T/cluster
M=$T/mnt
C() { "$CRUSHFS" --cluster "$CL" "$@"; }
mkcluster "$CL" --osds 6 --hosts 3 --osd-size 256M --pg-num 32 --object-size 1M
mount_fg "$CL" "$M"
mkdir -p "$M/a/b" "$M/c"
head -c 5M /dev/urandom >"$M/a/big"
head -c 300K /dev/urandom >"$M/a/b/small"
echo x >"$M/c/tiny"
: >"$M/c/empty"
ln "$M/a/big" "$M/c/biglink"
sync

# the reference, from locate -f json
expect() { # OSD: "count path" lines, sorted, for regular files
	for f in /a/big /a/b/small /c/tiny /c/empty; do
		C locate "$M$f" -f json | py '
import json, sys
d = json.load(sys.stdin); osd = int(sys.argv[1]); n = 0
for o in d.get("objects", []):
    if osd in o["acting"]:
        n += 1
if n:
    print("%d\t%s" % (n, sys.argv[2]))' "$1" "$f"
	done | sort -k2
}
for o in 0 1 2 3 4 5; do
	C ls-by-osd "$o" 2>/dev/null | sed 's#\t/c/biglink$#\t/a/big#' | sort -u -k2 >"$T/got.$o"
	expect "$o" >"$T/want.$o"
	diff "$T/want.$o" "$T/got.$o" >/dev/null ||
		fail "osd.$o mounted: $(diff "$T/want.$o" "$T/got.$o")"
done
ok "mounted: every OSD's files equal what locate shows"

# the report's files section for an OSD lists the same files
(cd "$T" && C report -o rep.html --osd 1 2>/dev/null) || fail "report --osd 1"
n=$(grep -o 'id="files" data-osd="1" data-files="[0-9]*"' "$T/rep.html" | grep -o '[0-9]*"$' | tr -d '"')
[ "$n" = "$(C ls-by-osd 1 2>/dev/null | wc -l)" ] || fail "report lists $n files on osd.1, ls-by-osd $(C ls-by-osd 1 2>/dev/null | wc -l)"
ok "report --osd 1 (through the daemon): the same $n files"

C ls-by-osd 0 "$M/a" 2>/dev/null | awk -F'\t' '{print $2}' | grep -v '^/a/' && fail "a path outside /a"
C ls-by-osd 99 2>"$T/err" && fail "osd.99 accepted"
grep -q 'osd.99 does not exist' "$T/err" || fail "$(cat "$T/err")"
ok "PATH keeps a subtree; a missing OSD is refused"

"$CRUSHFS" umount "$M" >/dev/null || fail "umount"
for o in 0 1 2 3 4 5; do
	C ls-by-osd "$o" 2>/dev/null | sed 's#\t/c/biglink$#\t/a/big#' | sort -u -k2 >"$T/off.$o"
	diff "$T/want.$o" "$T/off.$o" >/dev/null ||
		fail "osd.$o unmounted: $(diff "$T/want.$o" "$T/off.$o")"
done
C ls-by-osd 1 /c -f json | py 'import json, sys; d = json.load(sys.stdin); assert all(f["path"].startswith("/c/") for f in d["files"])' ||
	fail "JSON or /c filter"
ok "unmounted: the same answers from the metadata store"
