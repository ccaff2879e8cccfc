#!/usr/bin/env bash
# Layering rules of ../shared/DESIGN.md, checked on #include lines:
# placement/ uses libc only and its mapping path never allocates; fs/
# speaks to objlayer/ only, never to osdsim/.
set -u
top=${1:-$(cd "$(dirname "$0")/.." && pwd)}
fail=0

bad=$(grep -nE '#include +"' "$top"/placement/*.c "$top"/placement/*.h |
	grep -vE '"(placement|crush_i|crush_ln_table|crush_negln_table|hash_i|ln_i|parse_i|spec_i|straw2_i)\.h"' |
	grep -vE 'mapper_avx(2|512)\.c:.*"mapper\.c"')
if [ -n "$bad" ]; then
	echo "placement/ includes a project header outside placement/:"
	echo "$bad"
	fail=1
fi
for f in mapper.c mapper_avx2.c mapper_avx512.c spec_i.h straw2_i.h buckets.c ln.c hash.c pg.c; do
	if grep -nE '#include +<(stdlib|malloc)\.h>|\b(malloc|calloc|realloc|free)\(' \
		"$top/placement/$f"; then
		echo "placement/$f is on the mapping path and must not allocate"
		fail=1
	fi
done
# fs/ reaches the cluster through objlayer.h alone: no osdsim/ header,
# neither the umbrella osdsim.h nor any of its parts (fs/'s own header
# of the same name, were there one, is not meant)
osdsim_h=$(cd "$top/osdsim" && for h in *.h; do
	[ -e "$top/fs/$h" ] || echo "$h"; done | sed 's/\./\\./' | paste -sd'|')
bad=$(grep -nE "#include +[\"<](osdsim/)?($osdsim_h)[\">]" \
	"$top"/fs/*.c "$top"/fs/*.h)
if [ -n "$bad" ]; then
	echo "fs/ includes an osdsim/ header (use objlayer.h):"
	echo "$bad"
	fail=1
fi
# mgr/ reads objlayer/ and osdsim/ (and what they read), never the layers
# above it: fs/, report/, cli/
above_h=$(cd "$top" && for d in fs report cli; do
	for h in "$d"/*.h; do [ -e "$h" ] && basename "$h"; done; done |
	while read -r h; do [ -e "$top/mgr/$h" ] || echo "$h"; done |
	sed 's/\./\\./' | paste -sd'|')
if [ -d "$top/mgr" ] && [ -n "$above_h" ]; then
	bad=$(grep -nE "#include +[\"<]((fs|report|cli)/)?($above_h)[\">]" \
		"$top"/mgr/*.c "$top"/mgr/*.h 2>/dev/null)
	if [ -n "$bad" ]; then
		echo "mgr/ includes a header of a layer above it (fs/, report/, cli/):"
		echo "$bad"
		fail=1
	fi
fi
[ $fail -eq 0 ] && echo "includes: ok"
exit $fail
