/*
 * test_adjust_pgs.c - pgp_num following pg_num step by step, as Ceph 14+
 * does it (osdsim adjust_pgs.c after DaemonServer::adjust_pgs, objlayer
 * adjust.c running it between backfill passes).
 *
 * The step computation first, on numbers whose answers are worked out by
 * hand from adjust_pgs: a step is max(1, pg_num * min(max - misplaced,
 * max / 2)) placement seeds, truncated; no step while PGs are degraded or
 * inactive, or the misplaced ratio is over target_max_misplaced_ratio; an
 * empty pool leaps; pgp_num following a merge keeps within max(8, pg_num
 * * max) of pg_num.  Then a cluster: a split's pgp_num_target reached by
 * rebalance in those steps, every object where the map puts it; a merge
 * through the targets; and a rebalance that cannot step (an OSD down)
 * saying so instead of returning as if done.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cluster_fixture.h"

#define DATA_POOL 1 /* the pool mkfs makes */

/* A pool at pgp_num cur of pg_num pg, growing to pgp_num target (pg_num
 * already there), with plenty of objects and nothing misplaced. */
static struct cfs_pgp_adjust grow(uint32_t pg, uint32_t cur, uint32_t target)
{
	return (struct cfs_pgp_adjust){
		.pg_num = pg,
		.pgp_num = cur,
		.pg_num_target = pg,
		.pgp_num_target = target,
		.objects = 1000000,
		.max_misplaced = 0.05,
	};
}

static uint32_t step(const struct cfs_pgp_adjust *a)
{
	uint32_t next = 0;

	assert_int_equal(cfs_pgp_next(a, &next), CFS_PGP_STEP);
	return next;
}

/* The size of a step: pg_num * max/2 seeds, at least one. */
static void test_step_size(void **state)
{
	struct cfs_pgp_adjust a;

	(void)state;
	/* 32 * 0.025 = 0.8: one seed */
	a = grow(32, 16, 32);
	assert_int_equal(step(&a), 17);
	/* 256 * 0.025 = 6.4: six */
	a = grow(256, 128, 256);
	assert_int_equal(step(&a), 134);
	/* 1024 * 0.025 = 25.6: 25 */
	a = grow(1024, 512, 1024);
	assert_int_equal(step(&a), 537);
	/* never past the target */
	a = grow(1024, 1020, 1024);
	assert_int_equal(step(&a), 1024);
	/* a larger ratio, larger steps: 1024 * 0.25 */
	a = grow(1024, 512, 1024);
	a.max_misplaced = 0.5;
	assert_int_equal(step(&a), 768);
	/* the room left under the ratio, when it is less than half */
	a = grow(1024, 512, 1024);
	a.misplaced_ratio = 0.04; /* room 0.01: 10 seeds */
	assert_int_equal(step(&a), 522);
	/* at the ratio exactly: no room, one seed (the mgr waits only
	 * above it) */
	a = grow(1024, 512, 1024);
	a.misplaced_ratio = 0.05;
	assert_int_equal(step(&a), 513);
	/* downwards the same way */
	a = grow(1024, 1024, 512);
	assert_int_equal(step(&a), 999);
	/* the target is at most pg_num */
	a = grow(32, 20, 64);
	assert_int_equal(step(&a), 21);
}

/* When the mgr does not step. */
static void test_waits(void **state)
{
	struct cfs_pgp_adjust a;
	uint32_t next;

	(void)state;
	a = grow(64, 32, 64);
	a.misplaced_ratio = 0.06;
	assert_int_equal(cfs_pgp_next(&a, &next), CFS_PGP_WAIT_MISPLACED);
	assert_int_equal(next, 32);
	a.misplaced_ratio = NAN;
	assert_int_equal(cfs_pgp_next(&a, &next), CFS_PGP_WAIT_MISPLACED);
	a = grow(64, 32, 64);
	a.degraded_ratio = 0.001;
	assert_int_equal(cfs_pgp_next(&a, &next), CFS_PGP_WAIT_UNHEALTHY);
	assert_int_equal(next, 32);
	a = grow(64, 32, 64);
	a.inactive_ratio = 1.0 / 64;
	assert_int_equal(cfs_pgp_next(&a, &next), CFS_PGP_WAIT_UNHEALTHY);
	/* a negative ratio (Ceph takes one) waits for ever, no crash */
	a = grow(64, 32, 64);
	a.max_misplaced = -1;
	assert_int_equal(cfs_pgp_next(&a, &next), CFS_PGP_WAIT_MISPLACED);
	/* and nothing to do */
	a = grow(64, 64, 64);
	assert_int_equal(cfs_pgp_next(&a, &next), CFS_PGP_DONE);
	a = grow(32, 32, 64); /* the target waits for pg_num */
	assert_int_equal(cfs_pgp_next(&a, &next), CFS_PGP_DONE);
	assert_int_equal(next, 32);
}

/* A pool holding at most one object per PG of the target goes there at
 * once; one more object and it steps. */
static void test_empty_pool_leaps(void **state)
{
	struct cfs_pgp_adjust a = grow(64, 16, 64);

	(void)state;
	a.objects = 0;
	assert_int_equal(step(&a), 64);
	a.objects = 64;
	assert_int_equal(step(&a), 64);
	a.objects = 65;
	assert_int_equal(step(&a), 17);
	/* never downwards */
	a = grow(64, 64, 16);
	a.objects = 0;
	assert_int_equal(step(&a), 63);
}

/* pgp_num following a merge (pgp_num_target == pg_num_target < pg_num)
 * stays within max(8, pg_num * max) of pg_num. */
static void test_merge_pace(void **state)
{
	struct cfs_pgp_adjust a = grow(64, 64, 8);
	uint32_t next;

	(void)state;
	a.pg_num_target = 8;
	assert_int_equal(step(&a), 63);
	/* far ahead already: wait for the merges */
	a.pgp_num = 56;
	assert_int_equal(cfs_pgp_next(&a, &next), CFS_PGP_WAIT_MERGE);
	assert_int_equal(next, 56);
	/* a large ratio: the step (16) is cut to pg_num - 32 */
	a.pgp_num = 40;
	a.max_misplaced = 0.5;
	assert_int_equal(step(&a), 32);
	/* a pgp_num_target set apart from pg_num's is the user's: no pace */
	a = grow(64, 40, 16);
	a.pg_num_target = 8;
	a.max_misplaced = 0.5;
	assert_int_equal(step(&a), 24);
}

/* Where pg_num goes: a split to the target at once, a merge down to
 * pgp_num (never below what pgp_num places). */
static void test_pg_num_next(void **state)
{
	struct cfs_pgp_adjust a = grow(32, 32, 32);

	(void)state;
	assert_int_equal(cfs_pg_num_next(&a), 32);
	a.pg_num_target = 128;
	assert_int_equal(cfs_pg_num_next(&a), 128);
	a.pg_num_target = 8;
	assert_int_equal(cfs_pg_num_next(&a), 32); /* pgp_num first */
	a.pgp_num = 20;
	assert_int_equal(cfs_pg_num_next(&a), 20);
	a.pgp_num = 4;
	assert_int_equal(cfs_pg_num_next(&a), 8);
}

/* Absurd ratios stay defined (no float to integer overflow). */
static void test_extremes(void **state)
{
	struct cfs_pgp_adjust a = grow(65536, 1, 65536);

	(void)state;
	a.max_misplaced = 1e300;
	assert_int_equal(step(&a), 65536);
	a = grow(65536, 65536, 1);
	a.max_misplaced = 1e300;
	assert_int_equal(step(&a), 1);
	a = grow(65536, 30000, 65536);
	a.max_misplaced = 0;
	assert_int_equal(step(&a), 30001);
}

/* The steps from 16 to 32 of a 32-PG pool: sixteen of one. */
static void test_walk(void **state)
{
	struct cfs_pgp_adjust a = grow(32, 16, 32);
	int n = 0;
	uint32_t next;

	(void)state;
	while (cfs_pgp_next(&a, &next) == CFS_PGP_STEP) {
		assert_int_equal(next, a.pgp_num + 1);
		a.pgp_num = next;
		n++;
	}
	assert_int_equal(n, 16);
	assert_int_equal(a.pgp_num, 32);
}

static void put_objects(struct fixture *f, int n, const char *data)
{
	char name[32];

	for (int i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "pgp%d", i);
		assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, name,
						   data + i, 3000),
				 0);
	}
}

static void assert_objects(struct fixture *f, int n, const char *data)
{
	char name[32], got[3001];

	for (int i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "pgp%d", i);
		assert_int_equal(ol_obj_read(f->ol, DATA_POOL, name, 0, got,
					     sizeof(got)),
				 3000);
		assert_memory_equal(got, data + i, 3000);
	}
}

/* Every PG of the data pool active+clean, acting == up. */
static void assert_clean(struct fixture *f)
{
	const cfs_osdmap *m = cfs_osdmap_get(f->c);
	const struct cfs_pool_info *p = cfs_osdmap_pool(m);

	for (uint32_t ps = 0; ps < p->pg_num; ps++) {
		struct ol_pg_stat g;

		assert_int_equal(ol_pg_stat(f->ol, m, DATA_POOL, ps, &g), 0);
		assert_true(g.state & OL_PGS_CLEAN);
		assert_int_equal(g.nup, g.nacting);
		assert_memory_equal(g.up, g.acting, sizeof(int) * g.nup);
	}
	cfs_osdmap_put(m);
}

static void pool_nums(struct fixture *f, uint32_t *pg, uint32_t *pgp,
		      uint32_t *pgt, uint32_t *pgpt)
{
	const cfs_osdmap *m = cfs_osdmap_get(f->c);
	const struct cfs_pool_info *p = cfs_osdmap_pool(m);

	*pg = p->pg_num;
	*pgp = p->pgp_num;
	*pgt = p->pg_num_target;
	*pgpt = p->pgp_num_target;
	cfs_osdmap_put(m);
}

/* A split sets pgp_num_target; rebalance reaches it one seed a step
 * (32 PGs: 0.8 rounds down to 1), backfilled after each, and ends clean;
 * the targets survive a reopen in between. */
static void test_split_steps(void **state)
{
	struct cfs_mkfs_opts o;
	struct fixture *f;
	struct ol_rebalance_stats st;
	char *data = malloc(4096), why[256] = "";
	uint32_t pg, pgp, pgt, pgpt;

	(void)state;
	cfs_mkfs_opts_init(&o);
	o.osd_size = 64ULL << 20;
	o.pg_num = 16;
	f = fx_new(&o);
	fx_pattern(data, 4096, 7);
	put_objects(f, 100, data);
	assert_int_equal(ol_set_pg_num(f->ol, DATA_POOL, 32, why, sizeof(why)),
			 0);
	pool_nums(f, &pg, &pgp, &pgt, &pgpt);
	assert_int_equal(pg, 32);
	assert_int_equal(pgp, 16);
	assert_int_equal(pgt, 32);
	assert_int_equal(pgpt, 32);
	fx_close(f);
	fx_open(f);
	pool_nums(f, &pg, &pgp, &pgt, &pgpt);
	assert_int_equal(pgp, 16);
	assert_int_equal(pgpt, 32);
	assert_int_equal(ol_rebalance(f->ol, &st, NULL, NULL), 0);
	assert_int_equal(st.pgp_steps, 16);
	assert_int_equal(st.pools_pending, 0);
	assert_int_equal(st.errors, 0);
	assert_true(st.objects_copied > 0);
	pool_nums(f, &pg, &pgp, &pgt, &pgpt);
	assert_int_equal(pgp, 32);
	assert_int_equal(pgpt, 32);
	assert_clean(f);
	assert_objects(f, 100, data);
	fx_assert_usage_exact(f);
	/* a larger ratio: fewer, larger steps (32 * 0.25 = 8 seeds) */
	assert_int_equal(cfs_config_set(f->c, "target_max_misplaced_ratio",
					"0.5", why, sizeof(why)),
			 0);
	{
		const cfs_osdmap *m = cfs_osdmap_get(f->c);
		struct cfs_pool_info want = *cfs_osdmap_pool(m);

		cfs_osdmap_put(m);
		want.pgp_num_target = 8;
		assert_int_equal(cfs_pool_update(f->c, &want, why, sizeof(why)),
				 0);
	}
	pool_nums(f, &pg, &pgp, &pgt, &pgpt);
	assert_int_equal(pgp, 32); /* the target only */
	assert_int_equal(pgpt, 8);
	assert_int_equal(ol_rebalance(f->ol, &st, NULL, NULL), 0);
	assert_int_equal(st.pgp_steps, 3); /* 32 -> 24 -> 16 -> 8 */
	pool_nums(f, &pg, &pgp, &pgt, &pgpt);
	assert_int_equal(pgp, 8);
	assert_clean(f);
	assert_objects(f, 100, data);
	fx_assert_usage_exact(f);
	free(data);
	fx_free(f);
}

/* A merge the command cannot make yet (pgp_num above it) keeps its
 * target; rebalance lowers pgp_num and merges; with an OSD down the
 * steps wait and rebalance says so. */
static void test_merge_through_targets(void **state)
{
	struct cfs_mkfs_opts o;
	struct fixture *f;
	struct ol_rebalance_stats st;
	char *data = malloc(4096), why[256] = "";
	uint32_t pg, pgp, pgt, pgpt;

	(void)state;
	cfs_mkfs_opts_init(&o);
	o.osd_size = 64ULL << 20;
	o.pg_num = 32;
	f = fx_new(&o);
	fx_pattern(data, 4096, 9);
	put_objects(f, 100, data);
	assert_int_equal(ol_set_pg_num(f->ol, DATA_POOL, 16, why, sizeof(why)),
			 -EBUSY);
	assert_int_equal(cfs_pool_set_pg_num_target(f->c, DATA_POOL, 16, why,
						    sizeof(why)),
			 0);
	assert_int_equal(cfs_pool_set_pg_num_target(f->c, DATA_POOL, 16, why,
						    sizeof(why)),
			 0); /* pg_num is still 32: not "already" */
	pool_nums(f, &pg, &pgp, &pgt, &pgpt);
	assert_int_equal(pg, 32);
	assert_int_equal(pgp, 32);
	assert_int_equal(pgt, 16);
	assert_int_equal(pgpt, 16);
	/* an OSD down: its PGs degraded, no step */
	assert_int_equal(cfs_osd_mark_down(f->c, 3), 0);
	assert_int_equal(ol_rebalance(f->ol, &st, NULL, NULL), 0);
	assert_int_equal(st.pgp_steps, 0);
	assert_int_equal(st.pools_pending, 1);
	assert_non_null(strstr(st.pending, "degraded"));
	assert_int_equal(cfs_osd_mark_up(f->c, 3), 0);
	assert_int_equal(ol_rebalance(f->ol, &st, NULL, NULL), 0);
	assert_int_equal(st.pools_pending, 0);
	assert_true(st.pgp_steps >= 16);
	assert_true(st.pg_num_changes >= 1);
	pool_nums(f, &pg, &pgp, &pgt, &pgpt);
	assert_int_equal(pg, 16);
	assert_int_equal(pgp, 16);
	assert_clean(f);
	assert_objects(f, 100, data);
	fx_assert_usage_exact(f);
	free(data);
	fx_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_step_size),
		cmocka_unit_test(test_waits),
		cmocka_unit_test(test_empty_pool_leaps),
		cmocka_unit_test(test_merge_pace),
		cmocka_unit_test(test_pg_num_next),
		cmocka_unit_test(test_extremes),
		cmocka_unit_test(test_walk),
		cmocka_unit_test(test_split_steps),
		cmocka_unit_test(test_merge_through_targets),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
