/*
 * test_health.c - the health snapshot (osdsim/health.c): every figure and
 * check of one snapshot comes from one read of the OSDs' usage, so a
 * check's summary, count and detail lines always agree, whatever the
 * writers do meanwhile.
 *
 * The race `crushfs status` had (usage read once to count full OSDs, again
 * to list them: an OSD crossing full_ratio in between left a detail line
 * for a check that did not exist, and the daemon crashed) is reproduced
 * deterministically: a snapshot is taken, the usage changes, and the
 * snapshot must still describe one consistent moment; then a writer thread
 * moves an OSD across full_ratio over and over while snapshots are taken.
 */
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cluster_fixture.h"

#define DATA_POOL 1 /* the pool mkfs makes */

#define MIB (1ULL << 20)
#define OSD 3 /* the OSD the tests fill */

static const struct cfs_health_check *find(const struct cfs_health *h,
					   const char *code)
{
	for (int i = 0; i < h->nchecks; i++)
		if (!strcmp(h->checks[i].code, code))
			return &h->checks[i];
	return NULL;
}

/* The snapshot agrees with itself: totals are the sums of its rows, each
 * OSD fullness check counts, summarizes and lists the same OSDs. */
static void assert_consistent(const struct cfs_health *h)
{
	static const struct {
		const char *code, *line, *word;
		int fullness;
	} fc[] = {
		{ "OSD_FULL", "is full", "full", CFS_FULLNESS_FULL },
		{ "OSD_BACKFILLFULL", "is backfill full", "backfillfull",
		  CFS_FULLNESS_BACKFILLFULL },
		{ "OSD_NEARFULL", "is near full", "nearfull",
		  CFS_FULLNESS_NEARFULL },
	};
	uint64_t total = 0, used = 0;
	int worst = CFS_HEALTH_OK;

	for (int id = 0; id < h->max_osd; id++)
		if (h->osd[id].info.exists) {
			total += h->osd[id].info.capacity;
			used += h->osd[id].used;
		}
	assert_int_equal(total, h->total);
	assert_int_equal(used, h->used);
	for (size_t k = 0; k < sizeof(fc) / sizeof(fc[0]); k++) {
		const struct cfs_health_check *c = find(h, fc[k].code);
		int n = 0;

		for (int id = 0; id < h->max_osd; id++)
			n += h->osd[id].info.exists && h->osd[id].info.up &&
			     h->osd[id].fullness == fc[k].fullness;
		if (!n) {
			assert_null(c);
			continue;
		}
		assert_non_null(c);
		assert_int_equal(c->count, n);
		assert_int_equal(c->ndetail, n);
		assert_int_equal(c->muted, 0);
		{
			char want[64];

			snprintf(want, sizeof(want), "%d %s osd(s)", n,
				 fc[k].word);
			assert_string_equal(c->summary, want);
		}
		for (int i = 0; i < c->ndetail; i++) {
			int id = -1;
			char rest[32] = "";

			assert_int_equal(sscanf(c->detail[i], "osd.%d %31[a-z ]",
						&id, rest),
					 2);
			assert_true(id >= 0 && id < h->max_osd);
			assert_int_equal(h->osd[id].fullness, fc[k].fullness);
			assert_string_equal(rest, fc[k].line);
		}
	}
	for (int i = 0; i < h->nchecks; i++) {
		if (h->checks[i].severity > worst)
			worst = h->checks[i].severity;
		if (i)
			assert_true(strcmp(h->checks[i - 1].code,
					   h->checks[i].code) < 0);
	}
	assert_int_equal(h->status, worst);
}

/* Make OSD hold exactly `bytes` (one sparse object written directly to its
 * store: usage follows the file size). */
static void set_used(struct fixture *f, cfs_obj *o, uint64_t bytes)
{
	(void)f;
	assert_int_equal(cfs_obj_truncate(o, bytes), 0);
}

static cfs_obj *filler(struct fixture *f)
{
	const cfs_osdmap *m = cfs_osdmap_get(f->c);
	cfs_obj *o = NULL;
	uint32_t ps;

	/* a copy of an object of its own on OSD, wherever CRUSH puts it:
	 * health looks at usage only */
	cfs_object_to_pg(m, "filler", NULL, &ps);
	cfs_osdmap_put(m);
	cfs_pg_lock(f->c, DATA_POOL, ps);
	assert_int_equal(cfs_pg_add_holder(f->c, DATA_POOL, ps, OSD, NULL, 0), 0);
	cfs_pg_unlock(f->c, DATA_POOL, ps);
	assert_int_equal(cfs_obj_open(f->c, OSD, DATA_POOL, ps, "filler", CFS_OBJ_CREATE,
				      &o),
			 0);
	return o;
}

static void test_snapshot_outlives_usage_change(void **state)
{
	struct fixture *f = fx_new(NULL);
	const cfs_osdmap *m = cfs_osdmap_get(f->c);
	uint64_t cap = 64 * MIB, near = (uint64_t)(0.87 * (double)cap);
	struct cfs_health h1, h2, h3;
	cfs_obj *o = filler(f);

	(void)state;
	set_used(f, o, near);
	assert_int_equal(cfs_health_take(f->c, m, NULL, 0, NULL, &h1), 0);
	assert_consistent(&h1);
	assert_int_equal(h1.osd[OSD].fullness, CFS_FULLNESS_NEARFULL);
	assert_int_equal(h1.osd[OSD].used, near);
	assert_non_null(find(&h1, "OSD_NEARFULL"));
	assert_null(find(&h1, "OSD_FULL"));
	assert_int_equal(h1.status, CFS_HEALTH_WARN);

	/* the OSD crosses full_ratio after the snapshot was taken */
	set_used(f, o, cap - MIB);
	assert_int_equal(h1.osd[OSD].used, near);
	assert_int_equal(h1.osd[OSD].avail, cap - near);
	assert_consistent(&h1); /* still the moment it was taken */
	assert_null(find(&h1, "OSD_FULL"));

	assert_int_equal(cfs_health_take(f->c, m, NULL, 0, NULL, &h2), 0);
	assert_consistent(&h2);
	assert_int_equal(h2.osd[OSD].fullness, CFS_FULLNESS_FULL);
	assert_int_equal(h2.used - h1.used, cap - MIB - near);
	assert_int_equal(find(&h2, "OSD_FULL")->count, 1);
	assert_string_equal(find(&h2, "OSD_FULL")->detail[0], "osd.3 is full");
	assert_null(find(&h2, "OSD_NEARFULL"));
	assert_int_equal(h2.status, CFS_HEALTH_ERR);
	/* the pool's MAX AVAIL is 0 once a rule OSD is full */
	assert_int_equal(h2.max_avail, 0);
	assert_true(h1.max_avail > 0);

	/* and back: a delete frees at once */
	set_used(f, o, 0);
	assert_int_equal(cfs_health_take(f->c, m, NULL, 0, NULL, &h3), 0);
	assert_consistent(&h3);
	assert_int_equal(h3.status, CFS_HEALTH_OK);
	assert_int_equal(h3.nchecks, 0);
	assert_int_equal(h3.max_avail, cfs_pool_max_avail(f->c, m));

	cfs_health_free(&h1);
	cfs_health_free(&h2);
	cfs_health_free(&h3);
	cfs_obj_put(o);
	cfs_osdmap_put(m);
	fx_free(f);
}

struct flipper {
	struct fixture *f;
	cfs_obj *o;
	atomic_int stop;
	atomic_int flips;
};

static void *flip(void *arg)
{
	struct flipper *fl = arg;
	/* around every ratio: nearfull 0.85, backfillfull 0.90, full 0.95 */
	static const double at[] = { 0.5, 0.86, 0.91, 0.96, 1.2, 0.0 };

	while (!atomic_load(&fl->stop)) {
		for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++)
			if (cfs_obj_truncate(fl->o,
					     (uint64_t)(at[i] * 64.0 * MIB)))
				return NULL;
		atomic_fetch_add(&fl->flips, 1);
	}
	return NULL;
}

static void test_snapshots_under_writes(void **state)
{
	struct fixture *f = fx_new(NULL);
	const cfs_osdmap *m = cfs_osdmap_get(f->c);
	struct flipper fl = { f, filler(f), 0, 0 };
	pthread_t th;

	(void)state;
	assert_int_equal(pthread_create(&th, NULL, flip, &fl), 0);
	while (atomic_load(&fl.flips) == 0)
		sched_yield(); /* snapshots while the usage moves, not before */
	/* until the writer went round many times, and at least 400 */
	for (int i = 0; i < 400 || atomic_load(&fl.flips) < 100; i++) {
		struct cfs_health h;

		assert_int_equal(cfs_health_take(f->c, m, NULL, 0, NULL, &h),
				 0);
		assert_consistent(&h);
		cfs_health_free(&h);
	}
	atomic_store(&fl.stop, 1);
	assert_int_equal(pthread_join(th, NULL), 0);
	assert_true(atomic_load(&fl.flips) >= 100);
	cfs_obj_put(fl.o);
	cfs_osdmap_put(m);
	fx_free(f);
}

/* Down OSDs, ratios out of order and the PG checks, with their counts. */
static void test_checks_and_counts(void **state)
{
	struct fixture *f = fx_new(NULL);
	const cfs_osdmap *m;
	struct cfs_pg_health pg[3];
	struct cfs_pg_totals t = { 10, 30, 4, 2, 1, 0 };
	const struct cfs_health_check *c;
	struct cfs_health h;

	(void)state;
	assert_int_equal(cfs_osd_mark_down(f->c, 5), 0);
	assert_int_equal(cfs_set_backfillfull_ratio(f->c, 0.8), 0);
	memset(pg, 0, sizeof(pg));
	snprintf(pg[0].pgid, sizeof(pg[0].pgid), "1.0");
	snprintf(pg[0].state, sizeof(pg[0].state), "active+clean");
	snprintf(pg[1].pgid, sizeof(pg[1].pgid), "1.1");
	snprintf(pg[1].state, sizeof(pg[1].state),
		 "active+undersized+degraded");
	pg[1].flags = CFS_PGH_DEGRADED | CFS_PGH_UNDERSIZED;
	pg[1].nacting = 2;
	pg[1].acting[0] = 4;
	pg[1].acting[1] = 7;
	snprintf(pg[2].pgid, sizeof(pg[2].pgid), "1.2");
	snprintf(pg[2].state, sizeof(pg[2].state), "down");
	pg[2].flags = CFS_PGH_INACTIVE | CFS_PGH_DOWN;

	m = cfs_osdmap_get(f->c);
	assert_int_equal(cfs_health_take(f->c, m, pg, 3, &t, &h), 0);
	assert_consistent(&h);
	assert_int_equal(h.num_osds, 12);
	assert_int_equal(h.num_up, 11);
	assert_int_equal(h.num_in, 12);

	c = find(&h, "OSD_DOWN");
	assert_non_null(c);
	assert_int_equal(c->count, 1);
	assert_string_equal(c->summary, "1 osds down");
	assert_string_equal(c->detail[0],
			    "osd.5 (root=default,host=host1) is down");
	c = find(&h, "OSD_OUT_OF_ORDER_FULL");
	assert_non_null(c);
	assert_int_equal(c->severity, CFS_HEALTH_ERR);
	assert_int_equal(c->count, 1);
	assert_int_equal(c->ndetail, 1);
	c = find(&h, "PG_DEGRADED");
	assert_non_null(c);
	assert_int_equal(c->count, 1);
	assert_string_equal(c->summary,
			    "Degraded data redundancy: 4/30 objects degraded "
			    "(13.333%), 1 pgs degraded, 1 pgs undersized");
	assert_string_equal(c->detail[0],
			    "pg 1.1 is active+undersized+degraded, acting [4,7]");
	c = find(&h, "PG_AVAILABILITY");
	assert_non_null(c);
	assert_int_equal(c->count, 1);
	assert_string_equal(c->summary, "Reduced data availability: 1 pgs "
					"inactive, 1 pgs down");
	assert_string_equal(c->detail[0], "pg 1.2 is down, acting []");
	c = find(&h, "OBJECT_MISPLACED");
	assert_non_null(c);
	assert_int_equal(c->count, 2);
	assert_string_equal(c->summary, "2/30 objects misplaced (6.667%)");
	c = find(&h, "OBJECT_UNFOUND");
	assert_non_null(c);
	assert_int_equal(c->count, 1);
	assert_string_equal(c->summary, "1/10 objects unfound (10.000%)");
	assert_int_equal(h.status, CFS_HEALTH_ERR);
	assert_string_equal(cfs_health_status_name(h.status), "HEALTH_ERR");
	cfs_health_free(&h);
	cfs_osdmap_put(m);
	fx_free(f);
}

/* PG_DEGRADED lists every PG it counts: an undersized PG whose objects
 * are all there (an EC PG with an empty slot, 2147483647 as Ceph's
 * vector operator<< prints CRUSH_ITEM_NONE) has its line beside the
 * degraded ones, and an undersized-only cluster is not "0 pgs
 * degraded" (PGMap::get_health_checks, 16.2). */
static void test_undersized_details(void **state)
{
	struct fixture *f = fx_new(NULL);
	const cfs_osdmap *m;
	struct cfs_pg_health pg[3];
	struct cfs_pg_totals t = { 10, 30, 2, 0, 0, 0 };
	const struct cfs_health_check *c;
	struct cfs_health h;

	(void)state;
	memset(pg, 0, sizeof(pg));
	snprintf(pg[0].pgid, sizeof(pg[0].pgid), "2.0");
	snprintf(pg[0].state, sizeof(pg[0].state),
		 "active+undersized+degraded");
	pg[0].flags = CFS_PGH_DEGRADED | CFS_PGH_UNDERSIZED;
	pg[0].nacting = 3;
	pg[0].acting[0] = 1;
	pg[0].acting[1] = 2147483647;
	pg[0].acting[2] = 4;
	snprintf(pg[1].pgid, sizeof(pg[1].pgid), "2.3");
	snprintf(pg[1].state, sizeof(pg[1].state), "active+undersized");
	pg[1].flags = CFS_PGH_UNDERSIZED;
	pg[1].nacting = 3;
	pg[1].acting[0] = 2147483647;
	pg[1].acting[1] = 0;
	pg[1].acting[2] = 2;
	snprintf(pg[2].pgid, sizeof(pg[2].pgid), "2.4");
	snprintf(pg[2].state, sizeof(pg[2].state), "active+clean");

	m = cfs_osdmap_get(f->c);
	assert_int_equal(cfs_health_take(f->c, m, pg, 3, &t, &h), 0);
	c = find(&h, "PG_DEGRADED");
	assert_non_null(c);
	assert_int_equal(c->count, 2);
	assert_string_equal(c->summary,
			    "Degraded data redundancy: 2/30 objects degraded "
			    "(6.667%), 1 pgs degraded, 2 pgs undersized");
	assert_int_equal(c->ndetail, 2);
	assert_string_equal(c->detail[0], "pg 2.0 is active+undersized+"
					  "degraded, acting [1,2147483647,4]");
	assert_string_equal(c->detail[1], "pg 2.3 is active+undersized, "
					  "acting [2147483647,0,2]");
	cfs_health_free(&h);

	/* undersized only, no object degraded */
	t.degraded = 0;
	assert_int_equal(cfs_health_take(f->c, m, pg + 1, 2, &t, &h), 0);
	c = find(&h, "PG_DEGRADED");
	assert_non_null(c);
	assert_int_equal(c->count, 1);
	assert_string_equal(c->summary,
			    "Degraded data redundancy: 1 pgs undersized");
	assert_int_equal(c->ndetail, 1);
	assert_string_equal(c->detail[0], "pg 2.3 is active+undersized, "
					  "acting [2147483647,0,2]");
	cfs_health_free(&h);
	cfs_osdmap_put(m);
	fx_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_snapshot_outlives_usage_change),
		cmocka_unit_test(test_snapshots_under_writes),
		cmocka_unit_test(test_checks_and_counts),
		cmocka_unit_test(test_undersized_details),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
