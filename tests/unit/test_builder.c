/*
 * test_builder.c - derived bucket data (list sums, tree node weights,
 * straw lengths), map edits and the builder's error codes.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "crush_i.h"

#define W1 0x10000u

static pl_map *map_with_devices(int n)
{
	pl_map *m = pl_map_create();

	for (int i = 0; i < n; i++)
		assert_int_equal(pl_map_add_device(m, i, NULL), 0);
	return m;
}

static void test_list_sums(void **state)
{
	pl_map *m = map_with_devices(4);
	int items[4] = { 0, 1, 2, 3 }, id;
	uint32_t w[4] = { W1, 2 * W1, 0, W1 / 2 };
	const struct pl_bucket *b;

	(void)state;
	assert_int_equal(pl_map_add_bucket(m, 0, PL_BUCKET_LIST, 0, 1, 4,
					   items, w, &id), 0);
	assert_int_equal(id, -1);
	b = m->buckets[0];
	assert_int_equal(b->sum_weights[0], W1);
	assert_int_equal(b->sum_weights[1], 3 * W1);
	assert_int_equal(b->sum_weights[2], 3 * W1);
	assert_int_equal(b->sum_weights[3], 3 * W1 + W1 / 2);
	assert_int_equal(b->weight, 3 * W1 + W1 / 2);
	pl_map_destroy(m);
}

/* in-order numbering: leaves at odd nodes 1,3,5,..., parents above */
static void test_tree_nodes(void **state)
{
	pl_map *m = map_with_devices(5);
	int items[5] = { 0, 1, 2, 3, 4 }, id;
	uint32_t w[5] = { 1, 2, 4, 8, 16 };
	const struct pl_bucket *b;

	(void)state;
	assert_int_equal(pl_map_add_bucket(m, 0, PL_BUCKET_TREE, 0, 1, 5,
					   items, w, &id), 0);
	b = m->buckets[0];
	assert_int_equal(b->num_nodes, 16); /* depth 4 */
	assert_int_equal(b->node_weights[1], 1);
	assert_int_equal(b->node_weights[3], 2);
	assert_int_equal(b->node_weights[2], 3);
	assert_int_equal(b->node_weights[5], 4);
	assert_int_equal(b->node_weights[7], 8);
	assert_int_equal(b->node_weights[6], 12);
	assert_int_equal(b->node_weights[4], 15);
	assert_int_equal(b->node_weights[9], 16);
	assert_int_equal(b->node_weights[8], 31);
	assert_int_equal(b->weight, 31);
	pl_map_destroy(m);
}

/* Ceph keeps the tree's node count in 8 bits: more than 64 items cannot
 * be represented, so they are refused rather than corrupted. */
static void test_tree_too_big(void **state)
{
	pl_map *m = map_with_devices(65);
	int items[65], id;
	uint32_t w[65];

	(void)state;
	for (int i = 0; i < 65; i++) {
		items[i] = i;
		w[i] = W1;
	}
	assert_int_equal(pl_map_add_bucket(m, 0, PL_BUCKET_TREE, 0, 1, 64,
					   items, w, &id), 0);
	assert_int_equal(pl_map_add_bucket(m, 0, PL_BUCKET_TREE, 0, 1, 65,
					   items, w, &id), -E2BIG);
	pl_map_destroy(m);
}

static void test_straw_lengths(void **state)
{
	pl_map *m = map_with_devices(4);
	struct pl_tunables t;
	int items[4] = { 0, 1, 2, 3 }, id;
	uint32_t eq[4] = { W1, W1, W1, W1 }, mixed[4] = { W1, 0, 2 * W1, W1 };
	const struct pl_bucket *b;

	(void)state;
	/* equal weights: equal straws, the lightest gets 1.0 */
	assert_int_equal(pl_map_add_bucket(m, 0, PL_BUCKET_STRAW, 0, 1, 4,
					   items, eq, &id), 0);
	b = m->buckets[-1 - id];
	for (int i = 0; i < 4; i++)
		assert_int_equal(b->straws[i], W1);
	/* zero weight: zero straw; heavier items longer straws */
	assert_int_equal(pl_map_add_bucket(m, 0, PL_BUCKET_STRAW, 0, 1, 4,
					   items, mixed, &id), 0);
	b = m->buckets[-1 - id];
	assert_int_equal(b->straws[1], 0);
	assert_int_equal(b->straws[0], W1);
	assert_int_equal(b->straws[3], W1);
	assert_true(b->straws[2] > W1);
	/* version 0 computes a different length when weights repeat
	 * (the bug version 1 fixed) */
	{
		uint32_t v1 = b->straws[2];

		pl_map_get_tunables(m, &t);
		t.straw_calc_version = 0;
		pl_map_set_tunables(m, &t);
		assert_int_equal(pl_map_add_bucket(m, 0, PL_BUCKET_STRAW, 0, 1,
						   4, items, mixed, &id), 0);
		b = m->buckets[-1 - id];
		assert_int_not_equal(b->straws[2], v1);
	}
	pl_map_destroy(m);
}

static void test_errors(void **state)
{
	pl_map *m = map_with_devices(3);
	int items[3] = { 0, 1, 2 }, bad[1] = { -7 }, id;
	uint32_t w[3] = { W1, W1, W1 }, big[2] = { 0xffffffffu, 2 };
	struct pl_rule_step s[1] = { { PL_RULE_EMIT, 0, 0 } };

	(void)state;
	assert_int_equal(pl_map_add_bucket(m, -1, PL_BUCKET_STRAW2, 0, 1, 3,
					   items, w, &id), 0);
	assert_int_equal(pl_map_add_bucket(m, -1, PL_BUCKET_STRAW2, 0, 1, 3,
					   items, w, &id), -EEXIST);
	assert_int_equal(pl_map_add_bucket(m, 0, 9, 0, 1, 3, items, w, &id),
			 -EINVAL);
	/* any 8-bit hash is kept (Ceph maps unknown ones with a 0 hash) */
	assert_int_equal(pl_map_add_bucket(m, 0, PL_BUCKET_STRAW2, 256, 1, 3,
					   items, w, &id), -EINVAL);
	assert_int_equal(pl_map_add_bucket(m, 0, PL_BUCKET_STRAW2, -1, 1, 3,
					   items, w, &id), -EINVAL);
	/* type 0 is the devices' type, never a bucket's (parse.c) */
	assert_int_equal(pl_map_add_bucket(m, 0, PL_BUCKET_STRAW2, 0, 0, 3,
					   items, w, &id), -EINVAL);
	assert_int_equal(pl_map_add_bucket(m, 0, PL_BUCKET_STRAW2, 0, 1, 1,
					   bad, w, &id), -ENOENT);
	assert_int_equal(pl_map_add_bucket(m, 0, PL_BUCKET_STRAW2, 0, 1, 2,
					   items, big, &id), -ERANGE);
	assert_int_equal(pl_map_add_rule(m, 0, 1, 1, 10, 1, s, NULL), 0);
	assert_int_equal(pl_map_add_rule(m, 0, 1, 1, 10, 1, s, NULL), -EEXIST);
	assert_int_equal(pl_map_add_device(m, 1, NULL), -EEXIST);
	assert_int_equal(pl_map_add_device(m, -1, NULL), -EINVAL);
	assert_int_equal(pl_map_adjust_item_weight(m, 42, W1), -ENOENT);
	/* uniform items of weight 0: crush_make_uniform_bucket refuses
	 * them, so neither building nor reweighting may make one */
	w[0] = 0;
	assert_int_equal(pl_map_add_bucket(m, 0, PL_BUCKET_UNIFORM, 0, 1, 2,
					   items, w, &id), -ERANGE);
	w[0] = W1;
	assert_int_equal(pl_map_add_bucket(m, -5, PL_BUCKET_UNIFORM, 0, 1, 2,
					   items, w, &id), 0);
	assert_int_equal(pl_map_adjust_item_weight(m, 1, 0), -ERANGE);
	assert_int_equal(pl_map_bucket_weight(m, -5), 2 * W1);
	assert_int_equal(pl_map_add_bucket(m, -6, PL_BUCKET_UNIFORM, 0, 1, 0,
					   NULL, NULL, &id), 0);
	pl_map_destroy(m);
}

/* reweighting a device updates every ancestor, as ceph osd crush reweight */
static void test_adjust_and_add(void **state)
{
	pl_map *m;
	int host;

	(void)state;
	assert_int_equal(pl_map_build_simple(6, 2, NULL, &m), 0);
	host = pl_map_parent(m, 4);
	assert_int_equal(host, -2); /* osd 4 on host0 */
	assert_int_equal(pl_map_parent(m, host), -1);
	assert_int_equal(pl_map_adjust_item_weight(m, 4, 3 * W1), 0);
	assert_int_equal(pl_map_bucket_weight(m, host), 5 * W1);
	assert_int_equal(pl_map_bucket_weight(m, -1), 8 * W1);
	assert_int_equal(pl_map_bucket_item_weight(m, -1, 0), 5 * W1);

	assert_int_equal(pl_map_add_device(m, 9, "osd.9"), 0);
	assert_int_equal(pl_map_bucket_add_item(m, -3, 9, W1 / 2), 0);
	assert_int_equal(pl_map_bucket_weight(m, -3), 3 * W1 + W1 / 2);
	assert_int_equal(pl_map_bucket_weight(m, -1), 8 * W1 + W1 / 2);
	assert_int_equal(pl_map_max_devices(m), 10);
	assert_int_equal(pl_map_bucket_add_item(m, -3, 9, W1), -EEXIST);
	assert_int_equal(pl_map_bucket_add_item(m, -8, 9, W1), -ENOENT);
	pl_map_destroy(m);
}

/* max_devices counts devices declared outside any bucket */
static void test_max_devices(void **state)
{
	pl_map *m = map_with_devices(2);
	int items[1] = { 1 }, id;
	uint32_t w[1] = { W1 };

	(void)state;
	assert_int_equal(pl_map_add_device(m, 17, "osd.17"), 0);
	assert_int_equal(pl_map_add_bucket(m, 0, PL_BUCKET_STRAW2, 0, 1, 1,
					   items, w, &id), 0);
	pl_map_finalize(m);
	assert_int_equal(pl_map_max_devices(m), 18);
	assert_true(pl_map_device_in_buckets(m, 1));
	assert_false(pl_map_device_in_buckets(m, 17));
	assert_true(pl_map_device_declared(m, 17));
	pl_map_destroy(m);
}

/* straw2's reciprocal division must equal the hardware division for every
 * weight and every numerator it can meet (0 <= n < 2^49) */
static void test_div_magic_exact(void **state)
{
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	uint32_t ds[] = { 1, 2, 3, 7, 0x10000, 0x10001, 0xffff, 0x12345,
			  0x7fffffff, 0x80000000u, 0xfffffffeu, 0xffffffffu };

	(void)state;
	for (int k = 0; k < 200000; k++) {
		uint32_t d;
		uint64_t n, magic, lim = (uint64_t)1 << PL_DIV_BITS;
		uint8_t shift;

		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		d = k < 12 * 16 ? ds[k % 12] : (uint32_t)(seed >> 32) >> (seed % 32);
		if (!d)
			d = 1;
		pl_div_magic(d, &magic, &shift);
		switch (k % 4) {
		case 0: n = seed % lim; break;
		case 1: n = lim - 1 - (seed % 1000); break;
		case 2: n = (seed % (lim / d)) * d; break;   /* exact multiple */
		default: n = (seed % (lim / d)) * d + d - 1; break;
		}
		if (n >= lim)
			n = lim - 1;
		assert_int_equal(pl_div_apply(n, magic, shift), n / d);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_list_sums),
		cmocka_unit_test(test_tree_nodes),
		cmocka_unit_test(test_tree_too_big),
		cmocka_unit_test(test_straw_lengths),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_adjust_and_add),
		cmocka_unit_test(test_max_devices),
		cmocka_unit_test(test_div_magic_exact),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
