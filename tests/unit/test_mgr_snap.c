/*
 * test_mgr_snap.c - mgr/'s answers from one snapshot: the PG state counts,
 * df's pool rows and osd df's rows and bucket sums agree with each other
 * and with what was written; an OSD down makes exactly the PGs it held
 * degraded (and stuck), an OSD out reads 0 in osd df as Ceph's does.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "cluster_fixture.h"
#include "mgr.h"

#define NOBJ 24

/* NOBJ objects of different sizes in the data pool; their byte total */
static uint64_t fill(struct fixture *f)
{
	const cfs_osdmap *m = cfs_osdmap_get(f->c);
	int64_t pool = cfs_osdmap_pool(m)->id;
	static char buf[200000];
	uint64_t total = 0;

	cfs_osdmap_put(m);
	for (int i = 0; i < NOBJ; i++) {
		char name[32];
		size_t len = 1000 + (size_t)i * 7919;

		snprintf(name, sizeof(name), "obj%d", i);
		fx_pattern(buf, len, (unsigned)i);
		assert_int_equal(
			ol_obj_write_full(f->ol, pool, name, buf, len), 0);
		total += len;
	}
	return total;
}

static int count_states(const struct mgr_snap *s, const char *name)
{
	struct mgr_pg_state *sc;
	int n = mgr_pg_states(s, &sc), c = 0, sum = 0;

	assert_true(n > 0);
	for (int i = 0; i < n; i++) {
		sum += sc[i].count;
		if (!strcmp(sc[i].name, name))
			c = sc[i].count;
		/* most first */
		if (i)
			assert_true(sc[i - 1].count >= sc[i].count);
	}
	assert_int_equal(sum, (int)s->npg);
	free(sc);
	return c;
}

static void test_healthy_sums_agree(void **state)
{
	struct fixture *f = fx_new(NULL);
	uint64_t total = fill(f), used = 0, size = 0;
	struct mgr_snap s;
	struct mgr_df df;
	struct mgr_osd_df d;
	int pgs = 0;

	(void)state;
	assert_int_equal(mgr_snap_take(f->c, f->ol,
				       MGR_SNAP_PGS | MGR_SNAP_PG_HEALTH, &s),
			 0);
	assert_int_equal(s.npg, 32);
	assert_int_equal(count_states(&s, "active+clean"), 32);
	assert_int_equal(s.t.objects, NOBJ);
	assert_int_equal(s.bytes, total);
	assert_int_equal(s.h.status, CFS_HEALTH_OK);

	assert_int_equal(mgr_df_compute(&s, &df), 0);
	assert_int_equal(df.npools, 1);
	assert_int_equal(df.pools[0].stored, total);
	assert_int_equal(df.pools[0].objects, NOBJ);
	/* three copies of every byte */
	assert_int_equal(df.pools[0].used, 3 * total);
	assert_int_equal(df.used, 3 * total);
	assert_int_equal(df.total, 12 * (64ULL << 20));
	assert_true(df.pools[0].max_avail > 0);
	assert_float_equal(df.pools[0].percent_used,
			   (double)(3 * total) /
				   (double)(3 * total +
					    3 * df.pools[0].max_avail),
			   1e-12);

	assert_int_equal(mgr_osd_df_compute(&s, &d), 0);
	assert_int_equal(d.n, 12);
	for (int k = 0; k < d.n; k++) {
		const struct mgr_osd_row *r = &d.osd[d.order[k]];

		used += r->used;
		size += r->size;
		pgs += r->pgs;
		assert_int_equal(r->data + r->omap + r->meta, r->used);
		assert_float_equal(r->var, r->util / d.avg, 1e-9);
	}
	assert_int_equal(used, 3 * total);
	assert_int_equal(size, d.total);
	/* every PG has 3 acting OSDs */
	assert_int_equal(pgs, 32 * 3);
	/* the root (first tree item) sums every OSD */
	assert_true(d.tree.n > 12);
	assert_int_equal(d.tree.v[0].id, -1);
	assert_int_equal(d.node[0].used, used);
	assert_int_equal(d.node[0].size, size);
	assert_int_equal(d.node[0].pgs, pgs);
	assert_float_equal(d.node[0].util, d.avg, 1e-9);

	mgr_osd_df_free(&d);
	mgr_df_free(&df);
	mgr_snap_free(&s);
	fx_free(f);
}

static void test_down_osd_degrades_its_pgs(void **state)
{
	struct fixture *f = fx_new(NULL);
	int osd = 5, held = 0, pgs_held = 0;
	uint32_t seen[NOBJ], nseen = 0;
	struct mgr_snap s;
	struct mgr_df df;

	(void)state;
	fill(f);
	/* the objects, and the PGs with data, whose acting set holds it */
	for (int i = 0; i < NOBJ; i++) {
		char name[32];
		int a[16], n, dup = 0;
		uint32_t ps;

		snprintf(name, sizeof(name), "obj%d", i);
		fx_acting(f, name, a, &n, &ps);
		for (int k = 0; k < n; k++)
			if (a[k] == osd) {
				held++;
				for (uint32_t j = 0; j < nseen; j++)
					dup |= seen[j] == ps;
				if (!dup) {
					seen[nseen++] = ps;
					pgs_held++;
				}
			}
	}
	assert_true(held > 0);
	assert_int_equal(cfs_osd_mark_down(f->c, osd), 0);
	assert_int_equal(mgr_snap_take(f->c, f->ol,
				       MGR_SNAP_PGS | MGR_SNAP_PG_HEALTH, &s),
			 0);
	/* one missing copy of each object it held */
	assert_int_equal(s.t.degraded, held);
	assert_int_equal(s.t.copies, 3 * NOBJ);
	assert_int_equal(s.h.num_up, 11);
	assert_int_equal(s.h.status, CFS_HEALTH_WARN);
	{
		int degraded = 0, stuck = 0, with_data = 0;

		for (uint32_t i = 0; i < s.npg; i++) {
			unsigned k = mgr_pg_stuck(&s.pg[i]);
			int has = 0;

			for (int j = 0; j < s.pg[i].nacting; j++)
				has |= s.pg[i].acting[j] == osd;
			assert_false(has); /* down: out of the acting set */
			if (s.pg[i].state & OL_PGS_DEGRADED)
				degraded++;
			if (k & MGR_STUCK_DEGRADED) {
				stuck++;
				assert_true(k & MGR_STUCK_UNCLEAN);
				assert_true(k & MGR_STUCK_UNDERSIZED);
				assert_false(k & MGR_STUCK_INACTIVE);
				with_data += s.pg[i].objects > 0;
			} else {
				assert_int_equal(k, 0);
			}
		}
		assert_int_equal(stuck, degraded);
		assert_int_equal(with_data, pgs_held);
		assert_true(degraded >= pgs_held);
	}
	assert_int_equal(mgr_df_compute(&s, &df), 0);
	assert_int_equal(df.pools[0].degraded, held);
	mgr_df_free(&df);
	mgr_snap_free(&s);
	fx_free(f);
}

static void test_out_osd_reads_zero(void **state)
{
	struct fixture *f = fx_new(NULL);
	struct mgr_snap s;
	struct mgr_osd_df d;
	int osd = 7;

	(void)state;
	fill(f);
	assert_int_equal(cfs_osd_mark_out(f->c, osd), 0);
	/* osd df needs no PG read */
	assert_int_equal(mgr_snap_take(f->c, NULL, 0, &s), 0);
	assert_null(s.pg);
	assert_int_equal(mgr_osd_df_compute(&s, &d), 0);
	assert_non_null(d.osd[osd].o);
	assert_int_equal(d.osd[osd].size, 0);
	assert_int_equal(d.osd[osd].used, 0);
	assert_float_equal(d.osd[osd].var, 0, 0);
	/* the average is over the in OSDs only */
	{
		uint64_t cap = 0, used = 0;

		for (int k = 0; k < d.n; k++) {
			const struct mgr_osd_row *r = &d.osd[d.order[k]];

			if (r->id == osd)
				continue;
			cap += r->size;
			used += r->used;
		}
		assert_float_equal(d.avg, 100.0 * (double)used / (double)cap,
				   1e-9);
	}
	mgr_osd_df_free(&d);
	mgr_snap_free(&s);
	/* PG health without PGs read is refused */
	assert_int_equal(mgr_snap_take(f->c, f->ol, MGR_SNAP_PG_HEALTH, &s),
			 -EINVAL);
	fx_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_healthy_sums_agree),
		cmocka_unit_test(test_down_osd_degrades_its_pgs),
		cmocka_unit_test(test_out_osd_reads_zero),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
