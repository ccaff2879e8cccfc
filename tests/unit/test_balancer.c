/*
 * test_balancer.c - the upmap balancer (pl_balance_upmaps) and the rule
 * walks it uses: its plan only ever lowers the spread, never breaks the
 * rule's failure domains, respects its limits and is reproducible.  (How
 * good it is next to osdmaptool is tests/golden/check_balancer.sh.)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "placement.h"

#define NOSD 12
#define NPG 128

struct fx {
	pl_map *m;
	uint8_t exists[NOSD], up[NOSD];
	uint32_t weight[NOSD];
	struct pl_osd_view v;
	struct pl_balance_pg pgs[NPG];
};

static void setup_fx(struct fx *f)
{
	uint32_t w[NOSD];
	void *work;
	int out[3];

	for (int i = 0; i < NOSD; i++) {
		/* uneven weights make an uneven spread to fix */
		w[i] = 0x10000 + (uint32_t)(i % 3) * 0x8000;
		f->exists[i] = f->up[i] = 1;
		f->weight[i] = 0x10000;
	}
	assert_int_equal(pl_map_build_simple(NOSD, 4, w, &f->m), 0);
	f->v = (struct pl_osd_view){ NOSD, f->exists, f->up, f->weight, NULL };
	work = malloc(pl_work_size(f->m, 3));
	assert_non_null(work);
	assert_int_equal(pl_work_init(f->m, work, 3), 0);
	memset(f->pgs, 0, sizeof(f->pgs));
	for (int ps = 0; ps < NPG; ps++) {
		int n = pl_do_rule(f->m, 0, (int)pl_pg_pps((uint32_t)ps, NPG, 1),
				   out, 3, f->weight, NOSD, work);

		f->pgs[ps].nraw = n;
		memcpy(f->pgs[ps].raw, out, sizeof(int) * (size_t)n);
	}
	free(work);
}

/* the PG's up set with its (new) items */
static int up_of(const struct fx *f, const struct pl_balance_pg *p, int *up)
{
	struct pl_pg_overrides o = { .items = (const int(*)[2])p->items,
				     .nitems = p->nitems, .primary_temp = -1 };
	struct pl_up_acting ua;

	pl_pg_up_acting(&f->v, 1, 0, p->raw, p->nraw, &o, &ua);
	memcpy(up, ua.up, sizeof(int) * (size_t)ua.nup);
	return ua.nup;
}

static void test_plan_is_valid_and_better(void **state)
{
	struct fx f;
	struct pl_balance_opts o = { 20, 1, 1, 100, 7, 4, 0 };
	struct pl_balance_stats st;
	int n, touched = 0;

	(void)state;
	setup_fx(&f);
	n = pl_balance_upmaps(f.m, 0, 3, &f.v, f.pgs, NPG, &o, &st);
	assert_true(n > 0 && n <= o.max);
	assert_true(st.maxdev_after < st.maxdev_before);
	assert_true(st.stddev_after < st.stddev_before);
	for (int ps = 0; ps < NPG; ps++) {
		int up[PL_MAX_UP_ACTING], nup;

		if (!f.pgs[ps].changed)
			continue;
		touched++;
		nup = up_of(&f, &f.pgs[ps], up);
		assert_int_equal(nup, 3);
		/* chooseleaf firstn 0 type host: one OSD per host */
		assert_int_equal(pl_verify_upmap(f.m, 0, 3, up, nup), 0);
		for (int k = 0; k < f.pgs[ps].nitems; k++) {
			assert_in_range(f.pgs[ps].items[k][0], 0, NOSD - 1);
			assert_in_range(f.pgs[ps].items[k][1], 0, NOSD - 1);
			assert_int_not_equal(f.pgs[ps].items[k][0],
					     f.pgs[ps].items[k][1]);
		}
	}
	assert_true(touched > 0 && touched <= n);
	pl_map_destroy(f.m);
}

/* the same seed gives the same plan; a tighter limit, a shorter one */
static void test_reproducible_and_limited(void **state)
{
	struct fx a, b;
	struct pl_balance_opts o = { 20, 1, 1, 100, 42, 2, 0 };
	struct pl_balance_opts one = { 1, 1, 1, 100, 42, 1, 0 };
	int changed = 0;

	(void)state;
	setup_fx(&a);
	setup_fx(&b);
	assert_int_equal(pl_balance_upmaps(a.m, 0, 3, &a.v, a.pgs, NPG, &o,
					   NULL),
			 pl_balance_upmaps(b.m, 0, 3, &b.v, b.pgs, NPG, &o,
					   NULL));
	assert_memory_equal(a.pgs, b.pgs, sizeof(a.pgs));
	pl_map_destroy(b.m);
	setup_fx(&b);
	assert_int_equal(pl_balance_upmaps(b.m, 0, 3, &b.v, b.pgs, NPG, &one,
					   NULL), 1);
	for (int ps = 0; ps < NPG; ps++)
		changed += b.pgs[ps].changed;
	assert_int_equal(changed, 1);
	pl_map_destroy(a.m);
	pl_map_destroy(b.m);
}

/* try_remap_rule swaps an overfull OSD for an underfull one of another
 * host only where the rule allows: never two OSDs of one host */
static void test_try_remap_rule(void **state)
{
	struct fx f;
	uint8_t over[NOSD] = { 0 };
	int under[] = { 5 }, orig[] = { 0, 1, 2 }, out[PL_MAX_UP_ACTING], n;

	(void)state;
	setup_fx(&f);
	/* osd i is on host i % 4: 0, 1, 2 are on hosts 0, 1, 2 */
	over[0] = 1;
	/* osd.5 is on host 1, where osd.1 already is: no swap */
	assert_int_equal(pl_try_remap_rule(f.m, 0, 3, over, NOSD, under, 1,
					   NULL, 0, orig, 3, out, &n), 0);
	assert_int_equal(n, 3);
	assert_memory_equal(out, orig, sizeof(orig));
	/* osd.7 is on host 3: 0 -> 7 */
	under[0] = 7;
	assert_int_equal(pl_try_remap_rule(f.m, 0, 3, over, NOSD, under, 1,
					   NULL, 0, orig, 3, out, &n), 0);
	assert_int_equal(n, 3);
	assert_int_equal(out[0], 7);
	assert_int_equal(out[1], 1);
	assert_int_equal(out[2], 2);
	pl_map_destroy(f.m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_is_valid_and_better),
		cmocka_unit_test(test_reproducible_and_limited),
		cmocka_unit_test(test_try_remap_rule),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
