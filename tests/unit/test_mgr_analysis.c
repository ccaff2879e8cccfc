/*
 * test_mgr_analysis.c - mgr/'s analysis and what-if (mgr.h):
 * the OSD that fills first is the one whose room over its share of new
 * data (its PG positions over pg_num) is smallest, not the one the crush
 * weights point at; erasure pools count shards of 1/k; the what-if's
 * moves, and the backfill time bound by the busiest OSD.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cluster_fixture.h"
#include "mgr.h"

#define DATA_POOL 1 /* the pool mkfs makes */

/* The hand-checked core: room 100 and 60 against shares 0.5 and 0.25:
 * the first takes 200 stored bytes, the second 240: the first fills
 * first although it has more room. */
static void test_by_share(void **state)
{
	double share[3] = { 0.5, 0.25, 0 };
	uint64_t used[3] = { 0, 40, 0 }, limit[3] = { 100, 100, 1 };
	int first;

	(void)state;
	assert_int_equal(mgr_writable_by_share(3, share, used, limit, &first),
			 200);
	assert_int_equal(first, 0);
	/* more use on osd.1: 60 -> 90 used, room 10, 40 bytes */
	used[1] = 90;
	assert_int_equal(mgr_writable_by_share(3, share, used, limit, &first),
			 40);
	assert_int_equal(first, 1);
	/* over its limit: nothing */
	used[1] = 150;
	assert_int_equal(mgr_writable_by_share(3, share, used, limit, &first),
			 0);
	assert_int_equal(first, 1);
	/* no share anywhere: no OSD fills */
	share[0] = share[1] = 0;
	assert_int_equal(mgr_writable_by_share(3, share, used, limit, &first),
			 0);
	assert_int_equal(first, -1);
}

/* PG positions per OSD in the pool's acting sets, counted here */
static void count_acting(const cfs_osdmap *m, int64_t pool, int *pgs, int n)
{
	const struct cfs_pool_info *p = cfs_osdmap_pool_by_id(m, pool);

	memset(pgs, 0, sizeof(int) * (size_t)n);
	for (uint32_t ps = 0; ps < p->pg_num; ps++) {
		const struct cfs_pg_mapping *g = cfs_osdmap_pool_pg(m, pool, ps);

		for (int k = 0; k < g->nacting; k++)
			if (g->acting[k] >= 0 && g->acting[k] < n)
				pgs[g->acting[k]]++;
	}
}

/* An empty cluster of equal OSDs: the OSD with the most PGs fills first
 * (the lowest id among ties), and the bytes before full are its limit
 * over its share; the weights (MAX AVAIL) name osd.0, as all weigh the
 * same. */
static void test_most_pgs_fills_first(void **state)
{
	struct fixture *f = fx_new(NULL);
	const cfs_osdmap *m = cfs_osdmap_get(f->c);
	struct mgr_snap sn;
	struct mgr_analysis a;
	int pgs[64], most = -1, n = cfs_osdmap_max_osd(m);
	const struct mgr_pool_fill *pf;

	(void)state;
	assert_true(n <= 64);
	count_acting(m, DATA_POOL, pgs, n);
	for (int i = 0; i < n; i++)
		if (most < 0 || pgs[i] > pgs[most])
			most = i;
	/* the snapshot's map is m: nothing changes the cluster between */
	assert_int_equal(mgr_snap_take(f->c, NULL, 0, &sn), 0);
	assert_int_equal(mgr_analysis_take(&sn, &a), 0);
	assert_int_equal(a.npools, 1);
	pf = &a.pools[0];
	assert_ptr_equal(pf->pool, cfs_osdmap_pool(m));
	for (int i = 0; i < n; i++)
		assert_int_equal(pf->pgs[i], pgs[i]);
	assert_int_equal(pf->fills_first, most);
	/* 32 PGs x 3 copies on 12 equal OSDs: 8 each expected; the one
	 * with the most holds more than that, so it fills before the
	 * weights say */
	assert_true(pgs[most] > 8);
	assert_true(pf->before_full <
		    (uint64_t)((double)cfs_osdmap_full_limit(m, most) * 32 / 8));
	{
		uint64_t want = (uint64_t)((double)cfs_osdmap_full_limit(m, most) /
					   ((double)pgs[most] / 32));

		assert_true(pf->before_full + 1 >= want &&
			    pf->before_full <= want + 1);
	}
	assert_int_equal(pf->weight_first, 0);
	assert_int_equal(pf->max_avail, sn.h.max_avail);
	assert_true(pf->before_nearfull < pf->before_full);
	/* the outliers: the most PGs over expected first */
	{
		int out[64];

		assert_int_equal(mgr_outliers(&a, out, 64), n);
		assert_int_equal(out[0], most);
		assert_true(a.pgs[out[n - 1]] <= a.pgs[out[0]]);
	}
	mgr_analysis_free(&a);
	mgr_snap_free(&sn);
	cfs_osdmap_put(m);
	fx_free(f);
}

/* A small OSD fills first whatever its PGs; every pool is listed, each
 * with its own PG counts (a size-2 pool here; an erasure pool's shards
 * of 1/k are checked by tests/cli/pools_create.t). */
static void test_small_osd_and_ec(void **state)
{
	struct fixture *f = fx_new(NULL);
	const cfs_osdmap *m;
	struct mgr_snap sn;
	struct mgr_analysis a;
	struct cfs_pool_info want;
	char err[256] = "";
	int pgs[64], n;
	int64_t id;

	(void)state;
	assert_int_equal(cfs_osd_set_capacity(f->c, 5, 4ULL << 20), 0);
	m = cfs_osdmap_get(f->c);
	memset(&want, 0, sizeof(want));
	snprintf(want.name, sizeof(want.name), "two");
	want.size = 2;
	want.min_size = 1;
	want.pg_num = want.pgp_num = 16;
	want.crush_rule = cfs_osdmap_pool(m)->crush_rule;
	cfs_osdmap_put(m);
	if (cfs_pool_create(f->c, &want, &id, err, sizeof(err)))
		fail_msg("pool create: %s", err);
	m = cfs_osdmap_get(f->c);
	n = cfs_osdmap_max_osd(m);
	/* the snapshot's map is m: nothing changes the cluster between */
	assert_int_equal(mgr_snap_take(f->c, NULL, 0, &sn), 0);
	assert_int_equal(mgr_analysis_take(&sn, &a), 0);
	assert_int_equal(a.npools, 2);
	assert_int_equal(a.pools[0].fills_first, 5);
	assert_int_equal(a.pools[0].weight_first, 5);
	{
		const struct mgr_pool_fill *e = &a.pools[1];
		int most = -1;
		uint64_t want_full;

		assert_string_equal(e->pool->name, "two");
		assert_int_equal(e->pool->id, id);
		assert_int_equal(e->k, 1);
		assert_int_equal(e->shares, 2);
		count_acting(m, e->pool->id, pgs, n);
		/* osd.5 has a sixteenth of a 64 MiB OSD's room */
		if (pgs[5]) {
			assert_int_equal(e->fills_first, 5);
			most = 5;
		} else {
			for (int i = 0; i < n; i++)
				if (most < 0 || pgs[i] > pgs[most])
					most = i;
			assert_int_equal(e->fills_first, most);
		}
		want_full = (uint64_t)((double)cfs_osdmap_full_limit(m, most) /
				       ((double)pgs[most] / 16));
		assert_true(e->before_full + 1 >= want_full &&
			    e->before_full <= want_full + 1);
		assert_true(e->max_avail > 0);
	}
	mgr_analysis_free(&a);
	mgr_snap_free(&sn);
	cfs_osdmap_put(m);
	fx_free(f);
}

/* Marking an OSD out (dry run): its bytes leave it, the others receive
 * exactly what it sends, and the backfill time is the busiest OSD's
 * bytes over the rate times the backfills. */
static void test_whatif_out(void **state)
{
	struct fixture *f = fx_new(NULL);
	const cfs_osdmap *old, *new;
	struct mgr_whatif w;
	char buf[65536], name[32];
	uint64_t in = 0, out = 0, most = 0;

	(void)state;
	fx_pattern(buf, sizeof(buf), 3);
	for (int i = 0; i < 24; i++) {
		snprintf(name, sizeof(name), "obj%d", i);
		assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, name, buf,
						   sizeof(buf)),
				 0);
	}
	old = cfs_osdmap_get(f->c);
	cfs_dry_run_begin();
	assert_int_equal(cfs_osd_mark_out(f->c, 2), 0);
	new = cfs_dry_run_end();
	assert_non_null(new);
	assert_int_equal(mgr_whatif_compute(f->c, f->ol, old, new, &w), 0);
	assert_true(w.pgs_changed > 0);
	assert_int_equal(w.osd[2].after, 0);
	assert_int_equal(w.osd[2].bytes_in, 0);
	for (int i = 0; i < w.max_osd; i++) {
		uint64_t b = w.osd[i].bytes_in > w.osd[i].bytes_out ?
				     w.osd[i].bytes_in : w.osd[i].bytes_out;

		in += w.osd[i].bytes_in;
		out += w.osd[i].bytes_out;
		if (b > most)
			most = b;
	}
	assert_int_equal(in, w.bytes);
	assert_int_equal(out, w.bytes);
	assert_int_equal(w.busiest_bytes, most);
	assert_true(most > 0);
	assert_true(mgr_backfill_seconds(&w, 1000, 2) * 2000 > most - 1);
	assert_true(mgr_backfill_seconds(&w, 1000, 2) * 2000 < most + 1);
	/* the map now is the map still */
	{
		const cfs_osdmap *now = cfs_osdmap_get(f->c);

		assert_int_equal(cfs_osdmap_epoch(now), cfs_osdmap_epoch(old));
		cfs_osdmap_put(now);
	}
	mgr_whatif_free(&w);
	cfs_osdmap_put(new);
	cfs_osdmap_put(old);
	fx_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_by_share),
		cmocka_unit_test(test_most_pgs_fills_first),
		cmocka_unit_test(test_small_osd_and_ec),
		cmocka_unit_test(test_whatif_out),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
