/*
 * test_upacting.c - pl_pg_up_acting: the cases the golden vectors cannot
 * reach through osdmaptool --mark-up-in (which makes every OSD up and in):
 * out and down OSDs against upmaps and pg_temp, and erasure pools, whose
 * sets keep their positions.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "placement.h"

#define N 8

struct fixture {
	uint8_t exists[N], up[N];
	uint32_t weight[N], aff[N];
	struct pl_osd_view v;
};

static void init(struct fixture *f)
{
	for (int i = 0; i < N; i++) {
		f->exists[i] = f->up[i] = 1;
		f->weight[i] = f->aff[i] = 0x10000;
	}
	f->v = (struct pl_osd_view){ N, f->exists, f->up, f->weight, f->aff };
}

static void expect(const int *got, int n, const int *want, int nwant)
{
	assert_int_equal(n, nwant);
	for (int i = 0; i < n; i++)
		assert_int_equal(got[i], want[i]);
}

/* An upmap naming an out OSD is ignored whole; an items pair whose target
 * is out is skipped, the others still apply. */
static void test_out_targets(void **state)
{
	struct fixture f;
	const int raw[] = { 0, 1, 2 }, up[] = { 5, 6, 7 };
	const int items[][2] = { { 0, 4 }, { 1, 5 } };
	struct pl_pg_overrides o = { .upmap = up, .nupmap = 3,
				     .primary_temp = -1 };
	struct pl_up_acting ua;

	(void)state;
	init(&f);
	pl_pg_up_acting(&f.v, 1, 7, raw, 3, &o, &ua);
	expect(ua.up, ua.nup, (int[]){ 5, 6, 7 }, 3);
	f.weight[6] = 0; /* out */
	pl_pg_up_acting(&f.v, 1, 7, raw, 3, &o, &ua);
	expect(ua.up, ua.nup, raw, 3);

	o = (struct pl_pg_overrides){ .items = items, .nitems = 2,
				      .primary_temp = -1 };
	f.weight[4] = 0;
	pl_pg_up_acting(&f.v, 1, 7, raw, 3, &o, &ua);
	expect(ua.up, ua.nup, (int[]){ 0, 5, 2 }, 3);
	assert_int_equal(ua.up_primary, 0);
}

/* Replicated sets close up over down OSDs; erasure sets keep the slot
 * (PL_ITEM_NONE), and the primary is the first real one. */
static void test_down_and_erasure(void **state)
{
	struct fixture f;
	const int raw[] = { 3, 1, 2 };
	struct pl_up_acting ua;

	(void)state;
	init(&f);
	f.up[3] = 0;
	pl_pg_up_acting(&f.v, 1, 1, raw, 3, NULL, &ua);
	expect(ua.up, ua.nup, (int[]){ 1, 2 }, 2);
	assert_int_equal(ua.up_primary, 1);
	pl_pg_up_acting(&f.v, 0, 1, raw, 3, NULL, &ua);
	expect(ua.up, ua.nup, (int[]){ PL_ITEM_NONE, 1, 2 }, 3);
	assert_int_equal(ua.up_primary, 1);
	expect(ua.acting, ua.nacting, ua.up, 3);
	assert_int_equal(ua.acting_primary, 1);
	/* an erasure pool does not move the primary to the front */
	f.up[3] = 1;
	f.aff[3] = 0;
	pl_pg_up_acting(&f.v, 0, 1, raw, 3, NULL, &ua);
	expect(ua.up, ua.nup, raw, 3);
	assert_int_equal(ua.up_primary, 1);
	pl_pg_up_acting(&f.v, 1, 1, raw, 3, NULL, &ua);
	expect(ua.up, ua.nup, (int[]){ 1, 3, 2 }, 3);
}

/* pg_temp drops down OSDs (or leaves holes in an erasure pool); its
 * primary is its first, unless primary_temp says otherwise; with every
 * temp OSD down the acting set falls back to up. */
static void test_temp(void **state)
{
	struct fixture f;
	const int raw[] = { 0, 1, 2 }, temp[] = { 4, 5, 6 };
	struct pl_pg_overrides o = { .temp = temp, .ntemp = 3,
				     .primary_temp = -1 };
	struct pl_up_acting ua;

	(void)state;
	init(&f);
	f.up[4] = 0;
	pl_pg_up_acting(&f.v, 1, 3, raw, 3, &o, &ua);
	expect(ua.up, ua.nup, raw, 3);
	expect(ua.acting, ua.nacting, (int[]){ 5, 6 }, 2);
	assert_int_equal(ua.acting_primary, 5);
	pl_pg_up_acting(&f.v, 0, 3, raw, 3, &o, &ua);
	expect(ua.acting, ua.nacting, (int[]){ PL_ITEM_NONE, 5, 6 }, 3);
	assert_int_equal(ua.acting_primary, 5);
	o.primary_temp = 6;
	pl_pg_up_acting(&f.v, 1, 3, raw, 3, &o, &ua);
	assert_int_equal(ua.acting_primary, 6);
	f.up[5] = f.up[6] = 0;
	o.primary_temp = -1;
	pl_pg_up_acting(&f.v, 1, 3, raw, 3, &o, &ua);
	expect(ua.acting, ua.nacting, raw, 3);
	assert_int_equal(ua.acting_primary, 0);
	/* primary_temp alone: acting is up, its primary the named OSD */
	o = (struct pl_pg_overrides){ .primary_temp = 2 };
	pl_pg_up_acting(&f.v, 1, 3, raw, 3, &o, &ua);
	expect(ua.acting, ua.nacting, raw, 3);
	assert_int_equal(ua.acting_primary, 2);
}

/* Items apply in order: a->b then b->a does not swap back, and a target
 * already in the set is skipped. */
static void test_items_order(void **state)
{
	struct fixture f;
	const int raw[] = { 0, 1, 2 };
	const int swap[][2] = { { 0, 1 }, { 1, 0 } }, chain[][2] = {
		{ 2, 5 }, { 5, 6 } };
	struct pl_pg_overrides o = { .items = swap, .nitems = 2,
				     .primary_temp = -1 };
	struct pl_up_acting ua;

	(void)state;
	init(&f);
	pl_pg_up_acting(&f.v, 1, 3, raw, 3, &o, &ua);
	/* 0->1: 1 is there, skipped; 1->0: 0 is there, skipped */
	expect(ua.up, ua.nup, raw, 3);
	o.items = chain;
	pl_pg_up_acting(&f.v, 1, 3, raw, 3, &o, &ua);
	expect(ua.up, ua.nup, (int[]){ 0, 1, 6 }, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_out_targets),
		cmocka_unit_test(test_down_and_erasure),
		cmocka_unit_test(test_temp),
		cmocka_unit_test(test_items_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
