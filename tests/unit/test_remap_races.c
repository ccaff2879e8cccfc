/*
 * test_remap_races.c - where features meet (issue 20): a PG split after
 * upmaps (children keep their copies where they are, as a pg_temp), and an
 * object attribute (a CephFS backtrace) set while a copy is away: the copy
 * that missed it is never taken for current, so the attribute survives the
 * rebalance that drops the copies that had it; a truncate whose only
 * current copy is on a stray; a write that makes stale copies current,
 * cut by a crash.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>
#include <unistd.h>
#include <cmocka.h>

#include "cluster_fixture.h"

#define DATA_POOL 1
#define NOBJ 96

static void obj_name(int i, char *buf, size_t len)
{
	snprintf(buf, len, "10000000000.%08x", i);
}

/* Every PG of the data pool: scrub finds nothing, and every acting OSD
 * holds every object of it (no missing set on an acting member). */
static void assert_acting_holds_all(struct fixture *f, const char *when)
{
	const cfs_osdmap *m = cfs_osdmap_get(f->c);
	const struct cfs_pool_info *p = cfs_osdmap_pool_by_id(m, DATA_POOL);

	for (uint32_t ps = 0; ps < p->pg_num; ps++) {
		const struct cfs_pg_mapping *pg =
			cfs_osdmap_pool_pg(m, DATA_POOL, ps);
		struct ol_scrub_stats sc;

		memset(&sc, 0, sizeof(sc));
		assert_int_equal(ol_scrub_pg(f->ol, DATA_POOL, ps, 0, &sc,
					     NULL, NULL),
				 0);
		if (sc.errors)
			fail_msg("%s: pg 1.%x: scrub finds %llu errors", when,
				 ps, (unsigned long long)sc.errors);
		for (int i = 0; i < pg->nacting; i++) {
			size_t miss;

			cfs_pg_lock(f->c, DATA_POOL, ps);
			miss = cfs_pg_is_holder(f->c, DATA_POOL, ps,
						pg->acting[i])
				       ? cfs_pg_missing_count(f->c, DATA_POOL,
							      ps, pg->acting[i])
				       : (size_t)-1;
			cfs_pg_unlock(f->c, DATA_POOL, ps);
			if (miss && sc.objects)
				fail_msg("%s: pg 1.%x: acting osd.%d misses "
					 "%zd objects",
					 when, ps, pg->acting[i], (ssize_t)miss);
		}
	}
	cfs_osdmap_put(m);
}

/* An upmap entry that clean_pg_upmaps keeps: up[0] of PG ps replaced
 * by an OSD on another host; 1 when one was set. */
static int upmap_one(struct fixture *f, uint32_t ps)
{
	for (int t = 0; t < 12; t++) {
		const cfs_osdmap *m = cfs_osdmap_get(f->c);
		const struct cfs_pg_mapping *pg =
			cfs_osdmap_pool_pg(m, DATA_POOL, ps);
		int pair[2] = { pg->up[0], t }, in = 0;
		char why[256];

		for (int i = 0; i < pg->nup; i++)
			in |= pg->up[i] == t;
		cfs_osdmap_put(m);
		if (in || cfs_osd_pg_upmap_items(f->c, DATA_POOL, ps, pair, 1,
						 why, sizeof(why)))
			continue;
		m = cfs_osdmap_get(f->c);
		pg = cfs_osdmap_pool_pg(m, DATA_POOL, ps);
		in = 0;
		for (int i = 0; i < pg->nup; i++)
			in |= pg->up[i] == t;
		cfs_osdmap_put(m);
		if (in)
			return 1;
	}
	return 0;
}

static void test_split_after_upmap(void **state)
{
	struct fixture *f = fx_new(NULL);
	struct ol_rebalance_stats st;
	char name[64], why[256], buf[64];
	int upmapped = 0, remapped_children = 0;
	const cfs_osdmap *m;

	(void)state;
	for (int i = 0; i < NOBJ; i++) {
		obj_name(i, name, sizeof(name));
		snprintf(buf, sizeof(buf), "object %d", i);
		assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, name, buf,
						   strlen(buf)),
				 0);
	}
	for (uint32_t ps = 0; ps < 32; ps += 3)
		upmapped += upmap_one(f, ps);
	assert_true(upmapped > 3);
	assert_int_equal(ol_rebalance(f->ol, &st, NULL, NULL), 0);
	assert_acting_holds_all(f, "after the upmaps' rebalance");
	/* pgp_num stays: the children are placed by their parent's seed,
	 * without its upmap entry */
	if (ol_set_pg_num(f->ol, DATA_POOL, 64, why, sizeof(why)))
		fail_msg("pg_num 64: %s", why);
	m = cfs_osdmap_get(f->c);
	for (uint32_t ps = 32; ps < 64; ps++) {
		const struct cfs_pg_mapping *pg =
			cfs_osdmap_pool_pg(m, DATA_POOL, ps);

		remapped_children +=
			pg->nup != pg->nacting ||
			memcmp(pg->up, pg->acting, sizeof(int) * (size_t)pg->nup);
	}
	cfs_osdmap_put(m);
	/* an upmapped parent's child keeps the parent's OSDs: remapped */
	assert_true(remapped_children > 0);
	assert_acting_holds_all(f, "after the split");
	for (int i = 0; i < NOBJ; i++) {
		char back[64];

		obj_name(i, name, sizeof(name));
		snprintf(buf, sizeof(buf), "object %d", i);
		assert_int_equal(ol_obj_read(f->ol, DATA_POOL, name, 0, back,
					     sizeof(back)),
				 (ssize_t)strlen(buf));
		assert_memory_equal(back, buf, strlen(buf));
	}
	assert_int_equal(ol_rebalance(f->ol, &st, NULL, NULL), 0);
	assert_int_equal(st.errors + st.pgs_blocked + st.pgs_toofull, 0);
	assert_acting_holds_all(f, "after the split's rebalance");
	fx_assert_usage_exact(f);
	fx_free(f);
}

/* A copy on an OSD that was down when the attribute was set must not
 * become the source of the object's other copies. */
static void test_attr_missed_by_down_copy(void **state)
{
	struct fixture *f = fx_new(NULL);
	struct ol_rebalance_stats st;
	const cfs_osdmap *m;
	uint32_t ps;
	int act[3];
	void *val;
	size_t len;

	(void)state;
	assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, "obj", "data", 4),
			 0);
	m = cfs_osdmap_get(f->c);
	cfs_object_to_pg(m, "obj", NULL, &ps);
	memcpy(act, cfs_osdmap_pg(m, ps)->acting, sizeof(act));
	cfs_osdmap_put(m);
	assert_int_equal(cfs_osd_mark_down(f->c, act[2]), 0);
	assert_int_equal(ol_obj_setattr(f->ol, DATA_POOL, "obj", "parent",
					"backtrace", 9),
			 0);
	assert_int_equal(cfs_osd_mark_up(f->c, act[2]), 0);
	/* the two copies that have it leave: the third and the new ones
	 * must all carry it afterwards */
	assert_int_equal(cfs_osd_mark_out(f->c, act[0]), 0);
	assert_int_equal(cfs_osd_mark_out(f->c, act[1]), 0);
	assert_int_equal(ol_rebalance(f->ol, &st, NULL, NULL), 0);
	assert_int_equal(ol_obj_getattr(f->ol, DATA_POOL, "obj", "parent", &val,
					&len),
			 0);
	assert_int_equal(len, 9);
	assert_memory_equal(val, "backtrace", 9);
	free(val);
	m = cfs_osdmap_get(f->c);
	{
		const struct cfs_pg_mapping *pg = cfs_osdmap_pg(m, ps);

		for (int i = 0; i < pg->nacting; i++) {
			char got[16];

			if (cfs_obj_getxattr(f->c, pg->acting[i], DATA_POOL, ps,
					     "obj", "parent", got,
					     sizeof(got)) != 9)
				fail_msg("osd.%d's copy lacks the attribute",
					 pg->acting[i]);
		}
	}
	cfs_osdmap_put(m);
	fx_free(f);
}

/* A copy that lost its attribute (by hand here; a copy made before the
 * attribute was set, before issue 20's fix) is found by scrub, shallow
 * or deep, and repair puts it back from a copy that has it, even when
 * most copies lack it. */
static void test_scrub_repairs_attr(void **state)
{
	struct fixture *f = fx_new(NULL);
	struct ol_scrub_stats sc;
	const cfs_osdmap *m;
	char path[4096];
	uint32_t ps;
	int act[3];

	(void)state;
	assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, "obj", "data", 4),
			 0);
	assert_int_equal(ol_obj_setattr(f->ol, DATA_POOL, "obj", "parent",
					"backtrace", 9),
			 0);
	m = cfs_osdmap_get(f->c);
	cfs_object_to_pg(m, "obj", NULL, &ps);
	memcpy(act, cfs_osdmap_pg(m, ps)->acting, sizeof(act));
	cfs_osdmap_put(m);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(cfs_obj_path(f->c, act[i], DATA_POOL, ps,
					      "obj", path, sizeof(path)),
				 0);
		assert_int_equal(lremovexattr(path,
					      "user.crushfs.a.parent"),
				 0);
	}
	memset(&sc, 0, sizeof(sc));
	assert_int_equal(ol_scrub_pg(f->ol, DATA_POOL, ps, 0, &sc, NULL, NULL),
			 0);
	assert_int_equal(sc.errors, 2);
	memset(&sc, 0, sizeof(sc));
	assert_int_equal(ol_scrub_pg(f->ol, DATA_POOL, ps,
				     OL_SCRUB_DEEP | OL_SCRUB_REPAIR, &sc,
				     NULL, NULL),
			 0);
	assert_int_equal(sc.repaired, 2);
	for (int i = 0; i < 3; i++) {
		char got[16];

		assert_int_equal(cfs_obj_getxattr(f->c, act[i], DATA_POOL, ps,
						  "obj", "parent", got,
						  sizeof(got)),
				 9);
		assert_memory_equal(got, "backtrace", 9);
	}
	memset(&sc, 0, sizeof(sc));
	assert_int_equal(ol_scrub_pg(f->ol, DATA_POOL, ps, OL_SCRUB_DEEP, &sc,
				     NULL, NULL),
			 0);
	assert_int_equal(sc.errors, 0);
	fx_free(f);
}

/* A truncate whose only current copy is on a stray (a holder outside the
 * acting set; every acting copy missing the object, as after an acting
 * set that moved before backfill) rebuilds the acting copies from the
 * stray before it cuts them: it must not lose the stray as a source when
 * its own start marks the holders outside the acting set as missing the
 * change (a thrash seed met EIO and three copies marked missing). */
static void test_truncate_from_stray(void **state)
{
	struct fixture *f = fx_new(NULL);
	struct ol_layout l;
	const uint64_t ino = 0x10000000000ULL;
	const cfs_osdmap *m;
	char name[64], buf[8192], got[8192];
	uint32_t ps;
	int act[3], stray = -1;

	(void)state;
	ol_default_layout(f->ol, &l);
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (char)(i * 7 + 1);
	assert_int_equal(ol_write(f->ol, ino, &l, 0, buf, sizeof(buf)),
			 (ssize_t)sizeof(buf));
	ol_object_name(ino, 0, name, sizeof(name));
	m = cfs_osdmap_get(f->c);
	cfs_object_to_pg(m, name, NULL, &ps);
	memcpy(act, cfs_osdmap_pg(m, ps)->acting, sizeof(act));
	cfs_osdmap_put(m);
	for (int o = 0; o < 6 && stray < 0; o++)
		if (o != act[0] && o != act[1] && o != act[2])
			stray = o;
	assert_true(stray >= 0);
	cfs_pg_lock(f->c, DATA_POOL, ps);
	assert_int_equal(cfs_pg_add_holder(f->c, DATA_POOL, ps, stray, NULL, 0),
			 0);
	cfs_pg_unlock(f->c, DATA_POOL, ps);
	assert_int_equal(cfs_obj_copy(f->c, act[0], stray, DATA_POOL, ps,
				      name, NULL),
			 0);
	cfs_pg_lock(f->c, DATA_POOL, ps);
	assert_true(cfs_pg_is_holder(f->c, DATA_POOL, ps, stray));
	for (int i = 0; i < 3; i++)
		assert_int_equal(cfs_pg_mark_missing(f->c, DATA_POOL, ps,
						     act[i], name),
				 0);
	cfs_pg_unlock(f->c, DATA_POOL, ps);
	assert_int_equal(ol_truncate(f->ol, ino, &l, sizeof(buf), 1000), 0);
	memset(got, 0, sizeof(got));
	assert_int_equal(ol_read(f->ol, ino, &l, 1000, 0, got, sizeof(got)),
			 1000);
	assert_memory_equal(got, buf, 1000);
	/* the acting copies are current again, and hold the cut object */
	cfs_pg_lock(f->c, DATA_POOL, ps);
	for (int i = 0; i < 3; i++)
		if (cfs_pg_is_missing(f->c, DATA_POOL, ps, act[i], name))
			fail_msg("acting osd.%d still misses the object",
				 act[i]);
	cfs_pg_unlock(f->c, DATA_POOL, ps);
	fx_free(f);
}

/* A write that makes stale copies current again must have that on disk
 * before it is done: the copies it replaced were marked missing (the old
 * holders outside the acting set) on disk at once, and when the acting
 * copies' marks came back after a crash (kill -9: no close), every copy
 * of the object looked stale and a read got EIO (unfound) after the
 * remount (thrash seeds 77 and 302).  The crash: the PG's state file as
 * it was on disk when the write returned, put back after the close
 * (which flushes), and the crash marker; no fork (the sanitizers' thread
 * checks refuse threads in a child of a threaded process). */
static void test_write_clears_missing_across_crash(void **state)
{
	struct fixture *f = fx_new(NULL);
	char buf[4096], got[4096], path[512], *disk = NULL;
	size_t disk_len = 0;
	uint32_t ps;
	int act[3], stray = -1, fd;
	const cfs_osdmap *m;

	(void)state;
	memset(buf, 'a', sizeof(buf));
	assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, "obj", buf,
					   sizeof(buf)),
			 0);
	m = cfs_osdmap_get(f->c);
	cfs_object_to_pg(m, "obj", NULL, &ps);
	memcpy(act, cfs_osdmap_pg(m, ps)->acting, sizeof(act));
	cfs_osdmap_put(m);
	for (int o = 0; o < 6 && stray < 0; o++)
		if (o != act[0] && o != act[1] && o != act[2])
			stray = o;
	/* the current copy on a stray, the acting copies behind */
	cfs_pg_lock(f->c, DATA_POOL, ps);
	assert_int_equal(cfs_pg_add_holder(f->c, DATA_POOL, ps, stray, NULL, 0),
			 0);
	cfs_pg_unlock(f->c, DATA_POOL, ps);
	assert_int_equal(cfs_obj_copy(f->c, act[0], stray, DATA_POOL, ps,
				      "obj", NULL),
			 0);
	cfs_pg_lock(f->c, DATA_POOL, ps);
	for (int i = 0; i < 3; i++)
		assert_int_equal(cfs_pg_mark_missing(f->c, DATA_POOL, ps,
						     act[i], "obj"),
				 0);
	cfs_pg_unlock(f->c, DATA_POOL, ps);
	memset(buf, 'b', 100);
	assert_int_equal(ol_obj_write(f->ol, DATA_POOL, "obj", 0, buf, 100), 0);
	/* what a kill -9 would leave: the state file as it is now */
	snprintf(path, sizeof(path), "%s/pgstate/1.%x.json", f->dir, ps);
	assert_int_equal(cfs_read_file(path, &disk, &disk_len), 0);
	fx_close(f);
	assert_int_equal(cfs_write_atomic(path, disk, disk_len), 0);
	free(disk);
	snprintf(path, sizeof(path), "%s/usage.dirty", f->dir);
	fd = open(path, O_CREAT | O_WRONLY, 0644);
	assert_true(fd >= 0);
	close(fd);
	fx_open(f);
	assert_int_equal(ol_obj_read(f->ol, DATA_POOL, "obj", 0, got,
				     sizeof(got)),
			 (ssize_t)sizeof(got));
	assert_memory_equal(got, buf, sizeof(got));
	fx_free(f);
}

/*
 * A holder added while a new object's write is in flight: the write's
 * intent is in the index, its copies not yet in any folder.  The new
 * holder must miss the object, or once the write lands on the old acting
 * set a read takes the new holder's absent file for a copy that vanished
 * (its accounting dropped an object the store never counted: the CI run
 * of test_concurrent_writers that found osd.4 one object short).
 */
static void test_new_holder_misses_write_in_flight(void **state)
{
	struct fixture *f = fx_new(NULL);
	struct ol_rebalance_stats st;
	struct cfs_objinfo next;
	char c_name[32], buf[3000], got[3000];
	uint32_t ps, cps = 0;
	int act[3], stray = -1, e = 0;
	const cfs_osdmap *m;
	const struct cfs_pg_mapping *pg;

	(void)state;
	m = cfs_osdmap_get(f->c);
	cfs_object_to_pg(m, "b", NULL, &ps);
	memcpy(act, cfs_osdmap_pg(m, ps)->acting, sizeof(act));
	for (int i = 0; i < 10000; i++) {
		snprintf(c_name, sizeof(c_name), "c%d", i);
		cfs_object_to_pg(m, c_name, NULL, &cps);
		if (cps == ps)
			break;
	}
	cfs_osdmap_put(m);
	assert_int_equal(cps, ps);
	/* the write of new object "b" to act, between its intent and its
	 * copies (what ol_begin_change leaves under cfs_pg_lock) */
	cfs_pg_lock(f->c, DATA_POOL, ps);
	for (int i = 0; i < 3; i++)
		assert_int_equal(cfs_pg_add_holder(f->c, DATA_POOL, ps, act[i],
						   NULL, 0),
				 0);
	next.size = sizeof(buf);
	next.version = cfs_index_next_version(f->c, &e);
	assert_int_equal(e, 0);
	assert_int_equal(cfs_index_intent(f->c, DATA_POOL, "b", &next), 0);
	cfs_pg_unlock(f->c, DATA_POOL, ps);
	/* the PG moves off act[2] while it holds no object: the new up set
	 * serves at once, and the next write makes its new member a holder */
	assert_int_equal(cfs_osd_mark_out(f->c, act[2]), 0);
	m = cfs_osdmap_get(f->c);
	pg = cfs_osdmap_pg(m, ps);
	for (int i = 0; i < pg->nacting; i++)
		if (!cfs_in_set(act, 3, pg->acting[i]))
			stray = pg->acting[i];
	cfs_osdmap_put(m);
	assert_true(stray >= 0);
	memset(buf, 'c', sizeof(buf));
	assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, c_name, buf,
					   sizeof(buf)),
			 0);
	cfs_pg_lock(f->c, DATA_POOL, ps);
	assert_true(cfs_pg_is_holder(f->c, DATA_POOL, ps, stray));
	assert_true(cfs_pg_is_missing(f->c, DATA_POOL, ps, stray, "b"));
	cfs_pg_unlock(f->c, DATA_POOL, ps);
	/* the write of "b" lands on its acting set, then its record */
	memset(buf, 'b', sizeof(buf));
	for (int i = 0; i < 3; i++) {
		cfs_obj *o;

		assert_int_equal(cfs_obj_open(f->c, act[i], DATA_POOL, ps, "b",
					      CFS_OBJ_CREATE, &o),
				 0);
		assert_int_equal(cfs_obj_pwrite(o, buf, sizeof(buf), 0), 0);
		assert_int_equal(cfs_obj_commit(o, next.version), 0);
		cfs_obj_put(o);
	}
	assert_int_equal(cfs_index_set(f->c, DATA_POOL, "b", &next), 0);
	assert_int_equal(ol_obj_read(f->ol, DATA_POOL, "b", 0, got,
				     sizeof(got)),
			 (ssize_t)sizeof(got));
	assert_memory_equal(got, buf, sizeof(got));
	fx_assert_usage_exact(f);
	assert_int_equal(ol_rebalance(f->ol, &st, NULL, NULL), 0);
	assert_acting_holds_all(f, "after the rebalance");
	fx_assert_usage_exact(f);
	fx_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split_after_upmap),
		cmocka_unit_test(test_attr_missed_by_down_copy),
		cmocka_unit_test(test_scrub_repairs_attr),
		cmocka_unit_test(test_truncate_from_stray),
		cmocka_unit_test(test_write_clears_missing_across_crash),
		cmocka_unit_test(test_new_holder_misses_write_in_flight),
	};

	cfs_log_set(NULL, CFS_LOG_ERR);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
