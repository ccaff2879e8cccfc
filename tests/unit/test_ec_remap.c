/*
 * test_ec_remap.c - erasure-coded objects written while the map changes
 * (issue 20: EC files lost or read back wrong when writes meet remaps).
 *
 * The acting set of an erasure pool's PG keeps each shard where it is
 * until up[i] has it (PeeringState::calc_ec_acting as a pg_temp), writes
 * note every other holder of a shard as missing it, and rebalance backfills
 * before the acting sets move and purges only after.  Checked against a
 * byte model: remaps one after another before any backfill, rebalances in
 * between, and writers running while another thread marks OSDs out and in
 * and rebalances; at the end every object reads back as the model says,
 * every PG is clean with acting = up, scrub finds nothing and the usage
 * accounting equals the disk.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cluster_fixture.h"

#define NOBJ 24
#define MAXLEN (96 * 1024)

struct model {
	unsigned char *v[NOBJ];
	size_t len[NOBJ];
};

static uint32_t rnd(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static void name_of(int i, char *buf, size_t len)
{
	snprintf(buf, len, "10000000000.%08x", i);
}

/* One write (overwrite, extension or whole object) applied to the
 * object and the model; returns what ol said. */
static int change(struct fixture *f, int64_t pool, struct model *md, int i,
		  uint32_t *seed)
{
	char name[64];
	size_t off = rnd(seed) % (md->len[i] + 1);
	size_t len = 1 + rnd(seed) % 20000;
	unsigned char buf[20000];
	int r;

	if (off + len > MAXLEN)
		len = MAXLEN - off;
	if (!len)
		return 0;
	for (size_t k = 0; k < len; k++)
		buf[k] = (unsigned char)rnd(seed);
	name_of(i, name, sizeof(name));
	r = ol_obj_write(f->ol, pool, name, off, buf, len);
	if (r)
		return r;
	memcpy(md->v[i] + off, buf, len);
	if (off + len > md->len[i])
		md->len[i] = off + len;
	return 0;
}

static void check_all(struct fixture *f, int64_t pool,
		      const struct model *md, const char *when)
{
	unsigned char *back = malloc(MAXLEN + 1);

	for (int i = 0; i < NOBJ; i++) {
		char name[64];
		ssize_t n;

		name_of(i, name, sizeof(name));
		n = ol_obj_read(f->ol, pool, name, 0, back, MAXLEN + 1);
		if (n != (ssize_t)md->len[i])
			fail_msg("%s: object %s read %zd bytes, want %zu", when,
				 name, n, md->len[i]);
		if (memcmp(back, md->v[i], md->len[i]))
			fail_msg("%s: object %s reads other bytes", when, name);
	}
	free(back);
}

/* Every PG of the pool: active+clean, acting = up, deep scrub clean. */
static void check_clean(struct fixture *f, int64_t pool)
{
	const cfs_osdmap *m = cfs_osdmap_get(f->c);
	const struct cfs_pool_info *p = cfs_osdmap_pool_by_id(m, pool);

	for (uint32_t ps = 0; ps < p->pg_num; ps++) {
		struct ol_pg_stat st;
		struct ol_scrub_stats sc;
		char state[128];

		assert_int_equal(ol_pg_stat(f->ol, m, pool, ps, &st), 0);
		ol_pg_state_str(st.state, state, sizeof(state));
		if (strcmp(state, "active+clean") || st.nup != st.nacting ||
		    memcmp(st.up, st.acting, sizeof(int) * (size_t)st.nup))
			fail_msg("pg %s is %s (up %d,%d,%d acting %d,%d,%d)",
				 st.pgid, state, st.up[0], st.up[1], st.up[2],
				 st.acting[0], st.acting[1], st.acting[2]);
		memset(&sc, 0, sizeof(sc));
		assert_int_equal(ol_scrub_pg(f->ol, pool, ps, OL_SCRUB_DEEP,
					     &sc, NULL, NULL),
				 0);
		if (sc.errors)
			fail_msg("pg %s: deep scrub finds %llu errors", st.pgid,
				 (unsigned long long)sc.errors);
	}
	cfs_osdmap_put(m);
	fx_assert_usage_exact(f);
}

static void model_init(struct fixture *f, int64_t pool, struct model *md,
		       uint32_t *seed)
{
	for (int i = 0; i < NOBJ; i++) {
		char name[64];

		md->v[i] = calloc(MAXLEN, 1);
		md->len[i] = 1 + rnd(seed) % (MAXLEN / 2);
		for (size_t k = 0; k < md->len[i]; k++)
			md->v[i][k] = (unsigned char)rnd(seed);
		name_of(i, name, sizeof(name));
		assert_int_equal(ol_obj_write_full(f->ol, pool, name, md->v[i],
						   md->len[i]),
				 0);
	}
}

static void model_free(struct model *md)
{
	for (int i = 0; i < NOBJ; i++)
		free(md->v[i]);
}

/* Remap after remap with writes between and no backfill: each shard
 * stays readable where it is (pg_temp), then rebalance makes it clean. */
static void test_remaps_before_backfill(void **state)
{
	struct fixture *f = fx_new(NULL);
	int64_t pool = fx_make_ec_pool(f);
	struct ol_rebalance_stats st;
	struct model md;
	uint32_t seed = 20;
	int remapped = 0;

	(void)state;
	model_init(f, pool, &md, &seed);
	for (int round = 0; round < 6; round++) {
		const cfs_osdmap *m;
		int osd = (int)(rnd(&seed) % 12);

		/* out, in, out ...: shards move before any backfill */
		if (round % 2 == 0)
			assert_int_equal(cfs_osd_mark_out(f->c, osd), 0);
		else
			assert_int_equal(cfs_osd_mark_in(f->c, osd), 0);
		m = cfs_osdmap_get(f->c);
		for (uint32_t ps = 0; ps < 8; ps++) {
			const struct cfs_pg_mapping *pg =
				cfs_osdmap_pool_pg(m, pool, ps);

			remapped |= memcmp(pg->up, pg->acting,
					   sizeof(int) * 3) != 0;
		}
		cfs_osdmap_put(m);
		for (int i = 0; i < NOBJ; i++)
			assert_int_equal(change(f, pool, &md, i, &seed), 0);
		check_all(f, pool, &md, "after a remap");
		if (round == 3) {
			assert_int_equal(ol_rebalance(f->ol, &st, NULL, NULL),
					 0);
			check_all(f, pool, &md, "after a rebalance");
		}
	}
	for (int osd = 0; osd < 12; osd++)
		assert_int_equal(cfs_osd_mark_in(f->c, osd), 0);
	assert_int_equal(ol_rebalance(f->ol, &st, NULL, NULL), 0);
	assert_int_equal(st.errors + st.pgs_blocked + st.pgs_toofull, 0);
	check_all(f, pool, &md, "after the last rebalance");
	check_clean(f, pool);
	/* a PG kept its shards where they were: a pg_temp */
	assert_true(remapped);
	model_free(&md);
	fx_free(f);
}

/* Two shards of one PG move, one after the other, with writes between
 * and no backfill: both stay served where they are (the "fewer
 * than k=2 good shards ... read refused" while the shards were on
 * disk). */
static void test_two_shards_move(void **state)
{
	struct fixture *f = fx_new(NULL);
	int64_t pool = fx_make_ec_pool(f);
	struct ol_rebalance_stats st;
	const cfs_osdmap *m;
	struct model md;
	uint32_t seed = 11, ps;
	int act[3];
	char name[64];

	(void)state;
	model_init(f, pool, &md, &seed);
	name_of(0, name, sizeof(name));
	m = cfs_osdmap_get(f->c);
	assert_int_equal(cfs_pool_object_to_pg(m, pool, name, NULL, &ps), 0);
	memcpy(act, cfs_osdmap_pool_pg(m, pool, ps)->acting, sizeof(act));
	cfs_osdmap_put(m);
	for (int k = 0; k < 2; k++) {
		assert_int_equal(cfs_osd_mark_out(f->c, act[k]), 0);
		for (int i = 0; i < NOBJ; i++)
			assert_int_equal(change(f, pool, &md, i, &seed), 0);
		check_all(f, pool, &md, "after a shard moved");
	}
	assert_int_equal(ol_rebalance(f->ol, &st, NULL, NULL), 0);
	check_all(f, pool, &md, "after the rebalance");
	check_clean(f, pool);
	model_free(&md);
	fx_free(f);
}

/* A down OSD that missed writes comes back: its shards are known to be
 * behind (missing, not damaged), recovered by rebalance. */
static void test_down_osd_returns(void **state)
{
	struct fixture *f = fx_new(NULL);
	int64_t pool = fx_make_ec_pool(f);
	struct ol_rebalance_stats st;
	struct model md;
	uint32_t seed = 7;

	(void)state;
	model_init(f, pool, &md, &seed);
	for (int round = 0; round < 4; round++) {
		int osd = (int)(rnd(&seed) % 12);

		assert_int_equal(cfs_osd_mark_down(f->c, osd), 0);
		for (int i = 0; i < NOBJ; i++) {
			/* min_size 2: a PG with one shard down writes */
			assert_int_equal(change(f, pool, &md, i, &seed), 0);
		}
		assert_int_equal(cfs_osd_mark_up(f->c, osd), 0);
		check_all(f, pool, &md, "after an OSD came back");
	}
	assert_int_equal(ol_rebalance(f->ol, &st, NULL, NULL), 0);
	check_all(f, pool, &md, "after the rebalance");
	check_clean(f, pool);
	model_free(&md);
	fx_free(f);
}

/*
 * An OSD down before any object of its PG was written (a new cluster),
 * so it never held that shard: objects are written around it, it comes
 * back, and a partial overwrite goes on.  Its shard PG had no holder at
 * all, which once read as "new and empty": the OSD became a holder with
 * nothing missing, the overwrite wrote its stripes there, and the shard -
 * zeros but for them - passed for current (the thrasher's seed 303: a
 * read got zeros).  Every object must read back as written.
 */
static void test_down_before_first_write(void **state)
{
	struct fixture *f = fx_new(NULL);
	int64_t pool = fx_make_ec_pool(f);
	unsigned char *back = malloc(MAXLEN + 1), *want = malloc(MAXLEN);
	uint32_t seed = 11;

	(void)state;
	assert_non_null(back);
	assert_non_null(want);
	for (int pos = 0; pos < 3; pos++) {
		const cfs_osdmap *m = cfs_osdmap_get(f->c);
		const struct cfs_pg_mapping *pg;
		char name[64];
		uint32_t ps;
		ssize_t n;
		int osd;

		/* object pos: its PG is new, nothing of it written yet */
		name_of(pos, name, sizeof(name));
		assert_int_equal(cfs_pool_object_to_pg(m, pool, name, NULL, &ps),
				 0);
		pg = cfs_osdmap_pool_pg(m, pool, ps);
		assert_non_null(pg);
		osd = pg->acting[pos];
		cfs_osdmap_put(m);
		assert_int_equal(cfs_osd_mark_down(f->c, osd), 0);
		for (size_t k = 0; k < 40000; k++)
			want[k] = (unsigned char)rnd(&seed);
		assert_int_equal(ol_obj_write(f->ol, pool, name, 0, want, 40000),
				 0);
		assert_int_equal(cfs_osd_mark_up(f->c, osd), 0);
		/* past the end, as an append after a gap */
		memset(want + 40000, 0, 20000);
		for (size_t k = 60000; k < 60100; k++)
			want[k] = (unsigned char)rnd(&seed);
		assert_int_equal(ol_obj_write(f->ol, pool, name, 60000,
					      want + 60000, 100),
				 0);
		n = ol_obj_read(f->ol, pool, name, 0, back, MAXLEN + 1);
		if (n != 60100)
			fail_msg("object %s (shard %d's osd.%d down at its first "
				 "write) read %zd bytes, want 60100",
				 name, pos, osd, n);
		if (memcmp(back, want, 60100)) {
			size_t at = 0;

			while (back[at] == want[at])
				at++;
			fail_msg("object %s (shard %d's osd.%d down at its first "
				 "write) reads other bytes from %zu on",
				 name, pos, osd, at);
		}
	}
	{
		/* one more, which no op touches after its OSD is back:
		 * recovery alone has to rebuild the shard it lacks */
		struct ol_rebalance_stats st;
		const cfs_osdmap *m = cfs_osdmap_get(f->c);
		char name[64];
		uint32_t ps;
		int osd;

		name_of(3, name, sizeof(name));
		assert_int_equal(cfs_pool_object_to_pg(m, pool, name, NULL, &ps),
				 0);
		osd = cfs_osdmap_pool_pg(m, pool, ps)->acting[2];
		cfs_osdmap_put(m);
		assert_int_equal(ol_rebalance(f->ol, &st, NULL, NULL), 0);
		assert_int_equal(cfs_osd_mark_down(f->c, osd), 0);
		assert_int_equal(ol_obj_write(f->ol, pool, name, 0, want, 30000),
				 0);
		assert_int_equal(cfs_osd_mark_up(f->c, osd), 0);
		assert_int_equal(ol_rebalance(f->ol, &st, NULL, NULL), 0);
		check_clean(f, pool);
	}
	free(back);
	free(want);
	fx_free(f);
}

struct writer {
	struct fixture *f;
	int64_t pool;
	struct model md; /* objects i with i % nw == id */
	int id, nw, errors;
	uint32_t seed;
	char what[160];
};

static void *write_loop(void *arg)
{
	struct writer *w = arg;

	for (int round = 0; round < 12; round++)
		for (int i = w->id; i < NOBJ; i += w->nw) {
			int r = change(w->f, w->pool, &w->md, i, &w->seed);

			if (r && !w->errors++)
				snprintf(w->what, sizeof(w->what),
					 "round %d object %d: %s", round, i,
					 cfs_strerror(r));
		}
	return NULL;
}

struct thrash {
	struct fixture *f;
	int rebalance_errors;
};

static void *thrash_loop(void *arg)
{
	struct thrash *t = arg;
	uint32_t seed = 99;

	for (int i = 0; i < 10; i++) {
		struct ol_rebalance_stats st;
		int osd = (int)(rnd(&seed) % 12);

		cfs_osd_mark_out(t->f->c, osd);
		if (ol_rebalance(t->f->ol, &st, NULL, NULL) || st.errors)
			t->rebalance_errors++;
		cfs_osd_mark_in(t->f->c, osd);
	}
	return NULL;
}

/* Writers while another thread marks OSDs out and in and rebalances:
 * the race the issue saw lose EC files (pool -1: an EC pool) and leave
 * replicated PGs inconsistent. */
static void writers_during_rebalance(int64_t which)
{
	struct fixture *f = fx_new(NULL);
	int64_t pool = which < 0 ? fx_make_ec_pool(f) : which;
	struct writer w[3];
	struct thrash th = { f, 0 };
	struct ol_rebalance_stats st;
	struct model all;
	pthread_t t[3], tt;
	uint32_t seed = 3;

	model_init(f, pool, &all, &seed);
	for (int k = 0; k < 3; k++) {
		memset(&w[k], 0, sizeof(w[k]));
		w[k].f = f;
		w[k].pool = pool;
		w[k].id = k;
		w[k].nw = 3;
		w[k].seed = 1000u + (uint32_t)k;
		w[k].md = all; /* each changes only its own objects */
	}
	pthread_create(&tt, NULL, thrash_loop, &th);
	for (int k = 0; k < 3; k++)
		pthread_create(&t[k], NULL, write_loop, &w[k]);
	for (int k = 0; k < 3; k++)
		pthread_join(t[k], NULL);
	pthread_join(tt, NULL);
	for (int k = 0; k < 3; k++) {
		if (w[k].errors)
			fail_msg("writer %d: %d errors, first %s", k,
				 w[k].errors, w[k].what);
		for (int i = k; i < NOBJ; i += 3)
			all.len[i] = w[k].md.len[i];
	}
	assert_int_equal(th.rebalance_errors, 0);
	check_all(f, pool, &all, "after the storm");
	assert_int_equal(ol_rebalance(f->ol, &st, NULL, NULL), 0);
	check_all(f, pool, &all, "after the last rebalance");
	check_clean(f, pool);
	model_free(&all);
	fx_free(f);
}

/* The PG of name in pool: its ps and acting set (3 wide). */
static uint32_t pg_of(struct fixture *f, int64_t pool, const char *name,
		      int act[3])
{
	const cfs_osdmap *m = cfs_osdmap_get(f->c);
	uint32_t ps;

	assert_int_equal(cfs_pool_object_to_pg(m, pool, name, NULL, &ps), 0);
	memcpy(act, cfs_osdmap_pool_pg(m, pool, ps)->acting,
	       sizeof(int) * 3);
	cfs_osdmap_put(m);
	return ps;
}

/* The PG's statistics, alone and as the whole pool's (which also counts
 * the objects no OSD has a file of): clean, holding objects objects. */
static void stat_is(struct fixture *f, int64_t pool, uint32_t ps,
		    uint64_t objects, const char *when)
{
	const cfs_osdmap *m = cfs_osdmap_get(f->c);
	const struct cfs_pool_info *p = cfs_osdmap_pool_by_id(m, pool);
	struct ol_pg_stat *all = calloc(p->pg_num, sizeof(*all)), *st;
	char state[128];

	assert_non_null(all);
	assert_int_equal(ol_pool_pg_stats(f->ol, m, pool, all), 0);
	for (int k = 0; k < 2; k++) {
		st = &all[ps];
		if (k)
			assert_int_equal(ol_pg_stat(f->ol, m, pool, ps, st),
					 0);
		ol_pg_state_str(st->state, state, sizeof(state));
		if (strcmp(state, "active+clean") || st->degraded ||
		    st->unfound || st->objects != objects)
			fail_msg("%s: pg %s (%s) is %s, %llu objects (want "
				 "%llu), %llu degraded, %llu unfound",
				 when, st->pgid, k ? "alone" : "in the pool's",
				 state, (unsigned long long)st->objects,
				 (unsigned long long)objects,
				 (unsigned long long)st->degraded,
				 (unsigned long long)st->unfound);
	}
	free(all);
	cfs_osdmap_put(m);
}

/* The copy of name on osd (PG ps) recorded at version, its bytes kept. */
static void shard_at(struct fixture *f, int osd, int64_t pool, uint32_t ps,
		     const char *name, uint64_t version)
{
	cfs_obj *o;

	assert_int_equal(cfs_obj_open(f->c, osd, pool, ps, name, 0, &o), 0);
	assert_int_equal(cfs_obj_rebuild_csum(o, version), 0);
	cfs_obj_put(o);
}

/*
 * A PG's statistics met while a change is half done: the purge worker's
 * removal (copies gone one by one, the record last) or a write (shards
 * at the new version one by one).  Ceph applies a transaction to a PG at
 * once, so neither is degraded or unfound; the thrasher's self-test saw
 * "pg 2.5: active+degraded, degraded 1" at the end of a run while the
 * purge worker drained the unlinks, and clean a moment later.  The half
 * done states are made here by hand, from the intent on.
 */
static void test_stat_mid_change(void **state)
{
	struct fixture *f = fx_new(NULL);
	int64_t ec = fx_make_ec_pool(f), rep = 1;
	unsigned char buf[10000];
	struct cfs_objinfo oi, next;
	const char *name = "10000000000.00000000";
	int act[3], err = 0;
	uint32_t ps;

	(void)state;
	fx_pattern(buf, sizeof(buf), 3);
	/* an erasure pool's write, one shard at the new version */
	assert_int_equal(ol_obj_write_full(f->ol, ec, name, buf, sizeof(buf)),
			 0);
	ps = pg_of(f, ec, name, act);
	stat_is(f, ec, ps, 1, "ec, written");
	assert_int_equal(cfs_index_get(f->c, ec, name, &oi), 0);
	next = oi;
	next.version = cfs_index_next_version(f->c, &err);
	assert_int_equal(err, 0);
	assert_int_equal(cfs_index_intent(f->c, ec, name, &next), 0);
	shard_at(f, act[0], ec, cfs_shard_ps(ps, 3, 0), name, next.version);
	stat_is(f, ec, ps, 1, "ec, a write half done");
	assert_int_equal(cfs_index_set(f->c, ec, name, &oi), 0);
	shard_at(f, act[0], ec, cfs_shard_ps(ps, 3, 0), name, oi.version);
	/* its removal: one shard gone, then all, the record still there */
	assert_int_equal(cfs_index_intent(f->c, ec, name, NULL), 0);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(cfs_obj_remove(f->c, act[i], ec,
						cfs_shard_ps(ps, 3, i), name),
				 0);
		stat_is(f, ec, ps, 0, "ec, a removal half done");
	}
	assert_int_equal(cfs_index_set(f->c, ec, name, NULL), 0);
	stat_is(f, ec, ps, 0, "ec, removed");

	/* a replicated pool's removal */
	assert_int_equal(ol_obj_write_full(f->ol, rep, name, buf, sizeof(buf)),
			 0);
	ps = pg_of(f, rep, name, act);
	stat_is(f, rep, ps, 1, "replicated, written");
	assert_int_equal(cfs_index_intent(f->c, rep, name, NULL), 0);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(cfs_obj_remove(f->c, act[i], rep, ps, name),
				 0);
		stat_is(f, rep, ps, 0, "replicated, a removal half done");
	}
	assert_int_equal(cfs_index_set(f->c, rep, name, NULL), 0);
	stat_is(f, rep, ps, 0, "replicated, removed");
	fx_free(f);
}

static void test_writers_during_rebalance(void **state)
{
	(void)state;
	writers_during_rebalance(-1);
}

static void test_replicated_writers_during_rebalance(void **state)
{
	(void)state;
	writers_during_rebalance(1); /* the data pool mkfs makes */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_remaps_before_backfill),
		cmocka_unit_test(test_two_shards_move),
		cmocka_unit_test(test_down_osd_returns),
		cmocka_unit_test(test_down_before_first_write),
		cmocka_unit_test(test_stat_mid_change),
		cmocka_unit_test(test_writers_during_rebalance),
		cmocka_unit_test(test_replicated_writers_during_rebalance),
	};

	cfs_log_set(NULL, CFS_LOG_ERR);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
