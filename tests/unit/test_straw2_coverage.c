/*
 * test_straw2_coverage.c - the golden vectors exercise every entry of both
 * straw2 log tables.
 *
 * Golden case ct0571 maps x = 0..2047 with 3 replicas through the flat
 * 200-item straw2 bucket of tests/golden/maps/straw2_flat200.txt, and the
 * output matched crushtool's byte for byte.  Every such mapping draws all
 * 200 items for r = 0, 1, 2 at least; this test recomputes those draws'
 * table indices (as crush_ln computes them) and checks that every entry of
 * __RH_LH_tbl (129 pairs) and __LL_tbl (256) was used, so a wrong entry
 * anywhere would have changed some draw the golden case checked.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "crush_ln_table.h"
#include "placement.h"

static void indices(unsigned int xin, int *rh, int *ll)
{
	unsigned int x = xin + 1;
	int index1;
	uint64_t xl64;

	if (!(x & 0x18000)) {
		int bits = __builtin_clz(x & 0x1FFFF) - 16;

		x <<= bits;
	}
	index1 = (x >> 8) << 1;
	*rh = (index1 - 256) / 2;
	xl64 = ((uint64_t)x * (uint64_t)pl_rh_lh_tbl[index1 - 256]) >> 48;
	*ll = (int)(xl64 & 0xff);
}

static void test_golden_case_uses_every_entry(void **state)
{
	const char *src = getenv("CRUSHFS_SRC");
	char path[4096], err[512];
	pl_map *m;
	int root, size, rh_seen[129] = { 0 }, ll_seen[256] = { 0 };
	int rh_count = 0, ll_count = 0;

	(void)state;
	assert_non_null(src);
	snprintf(path, sizeof(path), "%s/tests/golden/maps/straw2_flat200.txt",
		 src);
	assert_int_equal(pl_parse_file(path, &m, err, sizeof(err)), 0);
	assert_int_equal(pl_map_item_by_name(m, "default", &root), 0);
	assert_int_equal(pl_map_bucket_alg(m, root), PL_BUCKET_STRAW2);
	size = pl_map_bucket_size(m, root);
	assert_int_equal(size, 200);

	for (uint32_t x = 0; x <= 2047; x++) {
		for (uint32_t r = 0; r < 3; r++) {
			for (int i = 0; i < size; i++) {
				int item = pl_map_bucket_item(m, root, i), a, b;
				unsigned u = pl_hash32_3(x, (uint32_t)item, r) &
					     0xffff;

				indices(u, &a, &b);
				rh_count += !rh_seen[a]++;
				ll_count += !ll_seen[b]++;
			}
		}
	}
	assert_int_equal(rh_count, 129);
	assert_int_equal(ll_count, 256);
	pl_map_destroy(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden_case_uses_every_entry),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
