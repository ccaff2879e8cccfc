/*
 * test_mapper.c - properties of CRUSH mapping that hold for any correct
 * implementation (after Ceph's src/test/crush/crush.cc), plus the meaning
 * of each rule step.  Bit-exactness against Ceph is the golden vectors'
 * job; these tests catch logic errors with a precise message.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <pthread.h>
#include <cmocka.h>

#include "placement.h"

#define W1 0x10000u

struct mapper {
	pl_map *m;
	void *work;
	uint32_t weights[256];
	int nweights;
};

static void mapper_init(struct mapper *mp, pl_map *m, int result_max)
{
	mp->m = m;
	mp->work = malloc(pl_work_size(m, result_max));
	assert_non_null(mp->work);
	assert_int_equal(pl_work_init(m, mp->work, result_max), 0);
	mp->nweights = pl_map_max_devices(m);
	assert_true(mp->nweights <= 256);
	for (int i = 0; i < mp->nweights; i++)
		mp->weights[i] = W1;
}

static void mapper_free(struct mapper *mp)
{
	free(mp->work);
	pl_map_destroy(mp->m);
}

static int map_x(struct mapper *mp, int rule, int x, int *out, int n)
{
	return pl_do_rule(mp->m, rule, x, out, n, mp->weights, mp->nweights,
			  mp->work);
}

/* flat map: one straw2 (or given alg) root holding n devices */
static pl_map *flat_map(int alg, int n, const uint32_t *w, int op, int count)
{
	pl_map *m = pl_map_create();
	int items[64], id, r;
	uint32_t ws[64];
	struct pl_rule_step steps[3] = {
		{ PL_RULE_TAKE, 0, 0 }, { (uint32_t)op, count, 0 },
		{ PL_RULE_EMIT, 0, 0 } };

	for (int i = 0; i < n; i++) {
		items[i] = i;
		ws[i] = w ? w[i] : W1;
		assert_int_equal(pl_map_add_device(m, i, NULL), 0);
	}
	assert_int_equal(pl_map_add_bucket(m, -1, alg, 0, 1, n, items, ws,
					   &id), 0);
	steps[0].arg1 = id;
	assert_int_equal(pl_map_add_rule(m, 0, 1, 1, 10, 3, steps, &r), 0);
	pl_map_finalize(m);
	return m;
}

static void test_firstn_no_duplicates(void **state)
{
	(void)state;
	for (int alg = PL_BUCKET_UNIFORM; alg <= PL_BUCKET_STRAW2; alg++) {
		struct mapper mp;
		int out[8];

		mapper_init(&mp, flat_map(alg, 10, NULL,
					  PL_RULE_CHOOSE_FIRSTN, 0), 8);
		mp.weights[3] = 0x8000; /* half out */
		mp.weights[7] = 0;      /* out */
		for (int x = 0; x < 2000; x++) {
			int n = map_x(&mp, 0, x, out, 8);

			assert_true(n >= 1 && n <= 8);
			for (int i = 0; i < n; i++) {
				assert_true(out[i] >= 0 && out[i] < 10);
				assert_int_not_equal(out[i], 7);
				for (int j = 0; j < i; j++)
					assert_int_not_equal(out[i], out[j]);
			}
		}
		mapper_free(&mp);
	}
}

static void test_hierarchy_distinct_hosts(void **state)
{
	struct mapper mp;
	pl_map *m;
	int out[4];

	(void)state;
	assert_int_equal(pl_map_build_simple(12, 4, NULL, &m), 0);
	mapper_init(&mp, m, 4);
	for (int x = 0; x < 5000; x++) {
		int n = map_x(&mp, 0, x, out, 3);

		assert_int_equal(n, 3);
		for (int i = 0; i < n; i++)
			for (int j = 0; j < i; j++)
				/* osd i lives on host i % 4 */
				assert_int_not_equal(out[i] % 4, out[j] % 4);
	}
	/* asking for more replicas than hosts yields one per host */
	for (int x = 0; x < 500; x++)
		assert_int_equal(map_x(&mp, 0, x, out, 4), 4);
	mapper_free(&mp);
}

/* straw2's promise: changing one item's weight moves inputs only to or
 * from that item (Ceph crush.cc straw2_reweight). */
static void test_straw2_reweight_moves_only_that_item(void **state)
{
	uint32_t w[10];

	(void)state;
	for (int i = 0; i < 10; i++)
		w[i] = W1 * (uint32_t)(1 + i % 3);
	for (int victim = 0; victim < 10; victim += 3) {
		struct mapper a, b;
		uint32_t w2[10];
		int moved = 0;

		memcpy(w2, w, sizeof(w));
		w2[victim] = w[victim] * 3 / 2;
		mapper_init(&a, flat_map(PL_BUCKET_STRAW2, 10, w,
					 PL_RULE_CHOOSE_FIRSTN, 1), 1);
		mapper_init(&b, flat_map(PL_BUCKET_STRAW2, 10, w2,
					 PL_RULE_CHOOSE_FIRSTN, 1), 1);
		for (int x = 0; x < 20000; x++) {
			int o1, o2;

			assert_int_equal(map_x(&a, 0, x, &o1, 1), 1);
			assert_int_equal(map_x(&b, 0, x, &o2, 1), 1);
			if (o1 != o2) {
				assert_int_equal(o2, victim);
				moved++;
			}
		}
		assert_true(moved > 0); /* heavier: it gains inputs */
		mapper_free(&a);
		mapper_free(&b);
	}
}

static void test_zero_weight_never_chosen(void **state)
{
	uint32_t w[8] = { W1, 0, W1, W1 / 2, 0, W1, 3 * W1, W1 };

	(void)state;
	for (int alg = PL_BUCKET_LIST; alg <= PL_BUCKET_STRAW2; alg++) {
		struct mapper mp;
		int out[3];

		mapper_init(&mp, flat_map(alg, 8, w, PL_RULE_CHOOSE_FIRSTN, 3),
			    3);
		for (int x = 0; x < 5000; x++) {
			int n = map_x(&mp, 0, x, out, 3);

			for (int i = 0; i < n; i++)
				assert_true(out[i] != 1 && out[i] != 4);
		}
		mapper_free(&mp);
	}
}

/* reweight 0 (out) behaves like weight 0 for every algorithm */
static void test_out_device_never_chosen(void **state)
{
	(void)state;
	for (int alg = PL_BUCKET_UNIFORM; alg <= PL_BUCKET_STRAW2; alg++) {
		struct mapper mp;
		int out[3];

		mapper_init(&mp, flat_map(alg, 6, NULL, PL_RULE_CHOOSE_FIRSTN,
					  3), 3);
		mp.weights[2] = 0;
		for (int x = 0; x < 3000; x++) {
			int n = map_x(&mp, 0, x, out, 3);

			assert_int_equal(n, 3);
			for (int i = 0; i < n; i++)
				assert_int_not_equal(out[i], 2);
		}
		mapper_free(&mp);
	}
}

/* indep keeps positions: a device going out changes its own slot, and
 * another slot only when a retry collides (rare) */
static void test_indep_positions_stable(void **state)
{
	struct mapper a, b;
	int o1[4], o2[4], others_moved = 0, own_moved = 0;

	(void)state;
	mapper_init(&a, flat_map(PL_BUCKET_STRAW2, 8, NULL,
				 PL_RULE_CHOOSE_INDEP, 4), 4);
	mapper_init(&b, flat_map(PL_BUCKET_STRAW2, 8, NULL,
				 PL_RULE_CHOOSE_INDEP, 4), 4);
	b.weights[5] = 0;
	for (int x = 0; x < 3000; x++) {
		assert_int_equal(map_x(&a, 0, x, o1, 4), 4);
		assert_int_equal(map_x(&b, 0, x, o2, 4), 4);
		for (int i = 0; i < 4; i++) {
			if (o1[i] != 5) {
				others_moved += o1[i] != o2[i];
			} else {
				assert_int_not_equal(o2[i], 5);
				own_moved++;
			}
		}
	}
	assert_true(own_moved > 1000);
	assert_true(others_moved * 8 < own_moved); /* measured: 87 vs 1508 */
	mapper_free(&a);
	mapper_free(&b);
}

/* indep leaves PL_ITEM_NONE holes when it cannot fill a slot */
static void test_indep_holes(void **state)
{
	struct mapper mp;
	int out[5];

	(void)state;
	mapper_init(&mp, flat_map(PL_BUCKET_STRAW2, 3, NULL,
				  PL_RULE_CHOOSE_INDEP, 5), 5);
	for (int x = 0; x < 200; x++) {
		int none = 0;

		assert_int_equal(map_x(&mp, 0, x, out, 5), 5);
		for (int i = 0; i < 5; i++)
			none += out[i] == PL_ITEM_NONE;
		assert_int_equal(none, 2);
	}
	mapper_free(&mp);
}

/* count 0 and negative counts mean "result_max minus n" */
static void test_relative_counts(void **state)
{
	struct mapper mp;
	int out[6];

	(void)state;
	mapper_init(&mp, flat_map(PL_BUCKET_STRAW2, 8, NULL,
				  PL_RULE_CHOOSE_FIRSTN, -1), 6);
	assert_int_equal(map_x(&mp, 0, 1, out, 4), 3);
	assert_int_equal(map_x(&mp, 0, 1, out, 1), 0);
	mapper_free(&mp);
	mapper_init(&mp, flat_map(PL_BUCKET_STRAW2, 8, NULL,
				  PL_RULE_CHOOSE_FIRSTN, 0), 6);
	assert_int_equal(map_x(&mp, 0, 1, out, 5), 5);
	mapper_free(&mp);
}

/* several take/emit blocks in one rule, and take of a device */
static void test_multi_take_emit(void **state)
{
	pl_map *m;
	struct mapper mp;
	struct pl_rule_step steps[] = {
		{ PL_RULE_TAKE, -2, 0 },
		{ PL_RULE_CHOOSE_FIRSTN, 1, 0 },
		{ PL_RULE_EMIT, 0, 0 },
		{ PL_RULE_TAKE, 7, 0 },
		{ PL_RULE_EMIT, 0, 0 },
		{ PL_RULE_TAKE, -3, 0 },
		{ PL_RULE_CHOOSE_FIRSTN, 2, 0 },
		{ PL_RULE_EMIT, 0, 0 },
	};
	int out[6], r;

	(void)state;
	assert_int_equal(pl_map_build_simple(12, 4, NULL, &m), 0);
	/* hosts are -2..-5 in build_simple: host0 = -2 holds 0,4,8 */
	assert_int_equal(pl_map_add_rule(m, 1, 1, 1, 10, 8, steps, &r), 0);
	pl_map_finalize(m);
	mapper_init(&mp, m, 6);
	for (int x = 0; x < 500; x++) {
		assert_int_equal(map_x(&mp, 1, x, out, 6), 4);
		assert_int_equal(out[0] % 4, 0);
		assert_int_equal(out[1], 7);
		assert_int_equal(out[2] % 4, 1);
		assert_int_equal(out[3] % 4, 1);
		assert_int_not_equal(out[2], out[3]);
	}
	/* result_max caps the total */
	assert_int_equal(map_x(&mp, 1, 3, out, 2), 2);
	mapper_free(&mp);
}

/* choose host then chooseleaf/choose osd inside each */
static void test_choose_then_choose(void **state)
{
	pl_map *m;
	struct mapper mp;
	struct pl_rule_step steps[] = {
		{ PL_RULE_TAKE, -1, 0 },
		{ PL_RULE_CHOOSE_FIRSTN, 2, 1 },
		{ PL_RULE_CHOOSE_FIRSTN, 2, 0 },
		{ PL_RULE_EMIT, 0, 0 },
	};
	int out[8], r;

	(void)state;
	assert_int_equal(pl_map_build_simple(12, 4, NULL, &m), 0);
	assert_int_equal(pl_map_add_rule(m, 1, 1, 1, 10, 4, steps, &r), 0);
	pl_map_finalize(m);
	mapper_init(&mp, m, 8);
	for (int x = 0; x < 1000; x++) {
		assert_int_equal(map_x(&mp, 1, x, out, 8), 4);
		assert_int_equal(out[0] % 4, out[1] % 4);
		assert_int_equal(out[2] % 4, out[3] % 4);
		assert_int_not_equal(out[0] % 4, out[2] % 4);
	}
	mapper_free(&mp);
}

/* set_choose_tries 1 with most devices out: firstn gives up early */
static void test_set_choose_tries(void **state)
{
	pl_map *m = flat_map(PL_BUCKET_STRAW2, 10, NULL, PL_RULE_CHOOSE_FIRSTN,
			     3);
	struct pl_rule_step steps[] = {
		{ PL_RULE_SET_CHOOSE_TRIES, 1, 0 },
		{ PL_RULE_TAKE, -1, 0 },
		{ PL_RULE_CHOOSE_FIRSTN, 3, 0 },
		{ PL_RULE_EMIT, 0, 0 },
	};
	struct mapper mp;
	int out[3], r, short_many = 0, short_one = 0;

	(void)state;
	assert_int_equal(pl_map_add_rule(m, 1, 1, 1, 10, 4, steps, &r), 0);
	pl_map_finalize(m);
	mapper_init(&mp, m, 3);
	for (int i = 0; i < 7; i++)
		mp.weights[i] = 0;
	for (int x = 0; x < 1000; x++) {
		short_many += map_x(&mp, 0, x, out, 3) < 3;
		short_one += map_x(&mp, 1, x, out, 3) < 3;
	}
	assert_true(short_one > short_many);
	assert_true(short_one > 500);
	mapper_free(&mp);
}

/* unknown rule numbers map to nothing, never crash */
static void test_bad_rule(void **state)
{
	struct mapper mp;
	int out[3];

	(void)state;
	mapper_init(&mp, flat_map(PL_BUCKET_STRAW2, 4, NULL,
				  PL_RULE_CHOOSE_FIRSTN, 3), 3);
	assert_int_equal(map_x(&mp, 5, 1, out, 3), 0);
	assert_int_equal(map_x(&mp, -1, 1, out, 3), 0);
	mapper_free(&mp);
}

struct thread_arg {
	const pl_map *m;
	const int *expect;
	int ok;
};

static void *map_thread(void *p)
{
	struct thread_arg *ta = p;
	void *work = malloc(pl_work_size(ta->m, 3));
	uint32_t w[12];
	int out[3];

	for (int i = 0; i < 12; i++)
		w[i] = W1;
	if (!work || pl_work_init(ta->m, work, 3)) {
		free(work);
		ta->ok = 0; /* no cmocka asserts off the main thread */
		return NULL;
	}
	ta->ok = 1;
	for (int x = 0; x < 20000; x++) {
		pl_do_rule(ta->m, 0, x, out, 3, w, 12, work);
		if (memcmp(out, ta->expect + 3 * x, sizeof(out)))
			ta->ok = 0;
	}
	free(work);
	return NULL;
}

/* one immutable map, many threads, each with its own workspace */
static void test_threads_share_map(void **state)
{
	pl_map *m;
	struct mapper mp;
	int *expect = calloc(3 * 20000, sizeof(int));
	pthread_t th[4];
	struct thread_arg ta[4];

	(void)state;
	assert_int_equal(pl_map_build_simple(12, 4, NULL, &m), 0);
	mapper_init(&mp, m, 3);
	for (int x = 0; x < 20000; x++)
		map_x(&mp, 0, x, expect + 3 * x, 3);
	for (int i = 0; i < 4; i++) {
		ta[i] = (struct thread_arg){ m, expect, 0 };
		pthread_create(&th[i], NULL, map_thread, &ta[i]);
	}
	for (int i = 0; i < 4; i++) {
		pthread_join(th[i], NULL);
		assert_true(ta[i].ok);
	}
	free(expect);
	mapper_free(&mp);
}

static void test_tunables_profiles(void **state)
{
	struct pl_tunables t;

	(void)state;
	memset(&t, 0xff, sizeof(t));
	assert_int_equal(pl_tunables_profile("legacy", &t), 0);
	assert_int_equal(t.choose_local_tries, 2);
	assert_int_equal(t.choose_local_fallback_tries, 5);
	assert_int_equal(t.choose_total_tries, 19);
	assert_int_equal(t.chooseleaf_descend_once, 0);
	assert_int_equal(t.chooseleaf_vary_r, 0);
	assert_int_equal(t.straw_calc_version, 0);
	assert_int_equal(t.allowed_bucket_algs, 22);
	assert_int_equal(pl_tunables_profile("bobtail", &t), 0);
	assert_int_equal(t.choose_total_tries, 50);
	assert_int_equal(t.chooseleaf_descend_once, 1);
	assert_int_equal(t.chooseleaf_vary_r, 0);
	assert_int_equal(t.straw_calc_version, 0); /* untouched */
	assert_int_equal(pl_tunables_profile("firefly", &t), 0);
	assert_int_equal(t.chooseleaf_vary_r, 1);
	assert_int_equal(t.chooseleaf_stable, 0);
	assert_int_equal(pl_tunables_profile("hammer", &t), 0);
	assert_int_equal(t.allowed_bucket_algs, 54);
	assert_int_equal(t.chooseleaf_stable, 0);
	assert_int_equal(pl_tunables_profile("jewel", &t), 0);
	assert_int_equal(t.chooseleaf_stable, 1);
	assert_int_equal(pl_tunables_profile("optimal", &t), 0);
	assert_int_equal(t.straw_calc_version, 1);
	assert_int_equal(pl_tunables_profile("nautilus", &t), -EINVAL);
}

/* legacy tunables (local retries) still never return duplicates */
static void test_legacy_tunables_no_duplicates(void **state)
{
	pl_map *m;
	struct pl_tunables t;
	struct mapper mp;
	int out[3];

	(void)state;
	assert_int_equal(pl_map_build_simple(12, 4, NULL, &m), 0);
	pl_map_get_tunables(m, &t);
	pl_tunables_profile("legacy", &t);
	pl_map_set_tunables(m, &t);
	mapper_init(&mp, m, 3);
	mp.weights[0] = mp.weights[5] = 0;
	for (int x = 0; x < 3000; x++) {
		int n = map_x(&mp, 0, x, out, 3);

		for (int i = 0; i < n; i++) {
			assert_true(out[i] != 0 && out[i] != 5);
			for (int j = 0; j < i; j++)
				assert_int_not_equal(out[i] % 4, out[j] % 4);
		}
	}
	mapper_free(&mp);
}

/*
 * The `finalized` flag (Ceph crush_finalize): a workspace is sized from the
 * map's working_size, which only pl_map_finalize computes.  An unfinalized
 * map gets no workspace (size 0, -EINVAL, nothing written), and a
 * workspace laid out before the map changed maps nothing instead of
 * writing past its end (a uniform bucket's permutation grows with it; run
 * under ASan, the old code overflowed here).
 */
static void test_unfinalized_workspace(void **state)
{
	pl_map *m = pl_map_create(), *other;
	int items[6] = { 0, 1, 2, 3, 4, 5 }, id, r, out[3];
	uint32_t w[6] = { W1, W1, W1, W1, W1, W1 };
	struct pl_rule_step steps[3] = { { PL_RULE_TAKE, 0, 0 },
					 { PL_RULE_CHOOSE_FIRSTN, 0, 0 },
					 { PL_RULE_EMIT, 0, 0 } };
	unsigned char buf[256];
	void *old, *fresh;
	size_t n;

	(void)state;
	for (int i = 0; i < 6; i++)
		assert_int_equal(pl_map_add_device(m, i, NULL), 0);
	assert_int_equal(pl_map_add_bucket(m, -1, PL_BUCKET_UNIFORM, 0, 1, 3,
					   items, w, &id),
			 0);
	steps[0].arg1 = id;
	assert_int_equal(pl_map_add_rule(m, 0, 1, 1, 10, 3, steps, &r), 0);

	/* never finalized: no size, no layout, nothing written */
	assert_int_equal(pl_work_size(m, 3), 0);
	memset(buf, 0xab, sizeof(buf));
	assert_int_equal(pl_work_init(m, buf, 3), -EINVAL);
	for (size_t i = 0; i < sizeof(buf); i++)
		assert_int_equal(buf[i], 0xab);
	assert_int_equal(pl_work_size(NULL, 3), 0);
	assert_int_equal(pl_work_init(NULL, buf, 3), -EINVAL);

	assert_int_equal(pl_map_finalize(m), 0);
	n = pl_work_size(m, 3);
	assert_true(n > 0);
	old = malloc(n);
	assert_non_null(old);
	assert_int_equal(pl_work_init(m, old, 3), 0);
	assert_int_equal(pl_do_rule(m, 0, 7, out, 3, w, 6, old), 3);

	/* a new bucket unfinalizes the map: nothing sizes or maps */
	assert_int_equal(pl_map_add_bucket(m, -2, PL_BUCKET_UNIFORM, 0, 1, 3,
					   items + 3, w, NULL),
			 0);
	assert_int_equal(pl_work_size(m, 3), 0);
	assert_int_equal(pl_do_rule(m, 0, 7, out, 3, w, 6, old), 0);

	/* finalized again, and the root grown by one (its permutation is
	 * one longer than the old workspace holds): the old workspace
	 * maps nothing, a fresh one maps */
	assert_int_equal(pl_map_finalize(m), 0);
	assert_int_equal(pl_do_rule(m, 0, 7, out, 3, w, 6, old), 0);
	assert_int_equal(pl_map_bucket_add_item(m, id, 3, W1), 0);
	assert_int_equal(pl_do_rule(m, 0, 7, out, 3, w, 6, old), 0);
	n = pl_work_size(m, 3);
	fresh = malloc(n);
	assert_non_null(fresh);
	assert_int_equal(pl_work_init(m, fresh, 3), 0);
	assert_int_equal(pl_do_rule(m, 0, 7, out, 3, w, 6, fresh), 3);

	/* a workspace of one map is no workspace for another */
	assert_int_equal(pl_map_build_simple(6, 3, NULL, &other), 0);
	assert_int_equal(pl_do_rule(other, 0, 7, out, 3, w, 6, fresh), 0);
	pl_map_destroy(other);
	free(old);
	free(fresh);
	pl_map_destroy(m);
}

/* pl_do_rule_batch (several inputs' draws side by side, and each input's
 * draws guessed ahead) gives what pl_do_rule gives one input at a time,
 * whatever the batch size, through retries (reweighted devices) and holes
 * (indep). */
static void batch_vs_single(struct mapper *mp, int rule, int nr)
{
	int xs[7], res[7 * 8], lens[7], one[8];

	assert_true(nr <= 8);
	for (int x0 = 0; x0 < 3000; x0 += 7) {
		for (int j = 0; j < 7; j++)
			xs[j] = x0 + j * 1000003;
		pl_do_rule_batch(mp->m, rule, xs, 7, res, nr, lens,
				 mp->weights, mp->nweights, mp->work, NULL);
		for (int j = 0; j < 7; j++) {
			int n = map_x(mp, rule, xs[j], one, nr);

			assert_int_equal(lens[j], n);
			assert_memory_equal(res + j * nr, one,
					    (size_t)n * sizeof(int));
		}
	}
}

static void test_batch_matches_single(void **state)
{
	struct mapper mp;
	pl_map *m;
	int res[3], lens[1], x = 5;

	(void)state;
	assert_int_equal(pl_map_build_simple(12, 4, NULL, &m), 0);
	mapper_init(&mp, m, 8);
	batch_vs_single(&mp, 0, 3);
	mp.weights[1] = W1 / 3; /* out for most inputs: retries */
	mp.weights[6] = 0;
	batch_vs_single(&mp, 0, 3);
	batch_vs_single(&mp, 0, 5);
	/* no such rule: nothing, as pl_do_rule */
	lens[0] = -1;
	pl_do_rule_batch(m, 9, &x, 1, res, 3, lens, mp.weights, mp.nweights,
			 mp.work, NULL);
	assert_int_equal(lens[0], 0);
	mapper_free(&mp);

	mapper_init(&mp, flat_map(PL_BUCKET_STRAW2, 8, NULL,
				  PL_RULE_CHOOSE_INDEP, 4), 8);
	mp.weights[2] = W1 / 2;
	mp.weights[5] = 0;
	batch_vs_single(&mp, 0, 4);
	batch_vs_single(&mp, 0, 8); /* more than the bucket: holes */
	mapper_free(&mp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unfinalized_workspace),
		cmocka_unit_test(test_firstn_no_duplicates),
		cmocka_unit_test(test_hierarchy_distinct_hosts),
		cmocka_unit_test(test_straw2_reweight_moves_only_that_item),
		cmocka_unit_test(test_zero_weight_never_chosen),
		cmocka_unit_test(test_out_device_never_chosen),
		cmocka_unit_test(test_indep_positions_stable),
		cmocka_unit_test(test_indep_holes),
		cmocka_unit_test(test_relative_counts),
		cmocka_unit_test(test_multi_take_emit),
		cmocka_unit_test(test_choose_then_choose),
		cmocka_unit_test(test_set_choose_tries),
		cmocka_unit_test(test_bad_rule),
		cmocka_unit_test(test_threads_share_map),
		cmocka_unit_test(test_tunables_profiles),
		cmocka_unit_test(test_legacy_tunables_no_duplicates),
		cmocka_unit_test(test_batch_matches_single),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
