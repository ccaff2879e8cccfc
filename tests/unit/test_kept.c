/*
 * test_kept.c - the write intents a replicated write keeps for the
 * object's next writes (objindex.c cfs_index_intent_kept, objlayer
 * kept.c): a run of writes commits one intent, a crash in a later write
 * of the run is settled by it, every other change of the object forgets
 * it, and it is dropped at a clean close, by the tick and past
 * OL_KEPT_HIGH.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "cluster_fixture.h"
#include "objindex.h"
#include "objlayer_i.h"

#define DATA_POOL 1 /* the pool mkfs makes */

static int count_one(const char *name, const struct cfs_objinfo *oi, int op,
		     void *arg)
{
	(void)name;
	(void)oi;
	(void)op;
	++*(size_t *)arg;
	return 0;
}

static size_t intents(cfs_cluster *c)
{
	size_t n = 0;

	assert_int_equal(cfs_index_foreach(c, DATA_POOL, "", 1, count_one, &n),
			 0);
	return n;
}

/* The intents in the index as the next open would find them (read-only:
 * no settling). */
static size_t intents_on_disk(struct fixture *f)
{
	cfs_cluster *ro;
	char err[256];
	size_t n;

	assert_int_equal(cfs_cluster_open(f->dir, CFS_OPEN_RDONLY, &ro, err,
					  sizeof(err)),
			 0);
	n = intents(ro);
	cfs_cluster_close(ro);
	return n;
}

/* A run of writes: the first one's intent stays and covers the others
 * (none of them writes its own); a remove and a truncate, changes of
 * their own, and a repair leave none kept, so the next write writes a
 * new one. */
static void test_run_of_writes(void **state)
{
	struct fixture *f = fx_new(NULL);
	struct cfs_objinfo oi, next;
	uint64_t v1;
	int op;

	(void)state;
	assert_int_equal(ol_obj_write(f->ol, DATA_POOL, "a.0", 0, "aaaa", 4), 0);
	assert_int_equal(cfs_index_get(f->c, DATA_POOL, "a.0", &oi), 0);
	assert_int_equal(cfs_index_get_intent(f->c, DATA_POOL, "a.0", &next,
					      &op),
			 0);
	assert_int_equal(op, CFS_INTENT_WRITE);
	assert_int_equal(next.version, oi.version);
	v1 = oi.version;
	for (int i = 1; i < 5; i++)
		assert_int_equal(ol_obj_write(f->ol, DATA_POOL, "a.0",
					      4 * (uint64_t)i, "bbbb", 4),
				 0);
	assert_int_equal(cfs_index_get(f->c, DATA_POOL, "a.0", &oi), 0);
	assert_true(oi.version > v1);
	assert_int_equal(oi.size, 20);
	assert_int_equal(cfs_index_get_intent(f->c, DATA_POOL, "a.0", &next,
					      &op),
			 0);
	assert_int_equal(next.version, v1); /* the first write's, still */

	/* a truncate writes and drops its own intent */
	assert_int_equal(obj_truncate(f->ol, DATA_POOL, "a.0", 8), 0);
	assert_int_equal(cfs_index_get_intent(f->c, DATA_POOL, "a.0", &next,
					      &op),
			 -ENOENT);
	assert_int_equal(ol_obj_write(f->ol, DATA_POOL, "a.0", 8, "cc", 2), 0);
	assert_int_equal(cfs_index_get(f->c, DATA_POOL, "a.0", &oi), 0);
	assert_int_equal(cfs_index_get_intent(f->c, DATA_POOL, "a.0", &next,
					      &op),
			 0);
	assert_int_equal(next.version, oi.version);

	/* so does a remove; the object written again is a new run */
	assert_int_equal(ol_obj_remove(f->ol, DATA_POOL, "a.0"), 0);
	assert_int_equal(cfs_index_get_intent(f->c, DATA_POOL, "a.0", &next,
					      &op),
			 -ENOENT);
	assert_int_equal(ol_obj_write(f->ol, DATA_POOL, "a.0", 0, "dd", 2), 0);
	assert_int_equal(cfs_index_get(f->c, DATA_POOL, "a.0", &oi), 0);
	assert_int_equal(cfs_index_get_intent(f->c, DATA_POOL, "a.0", &next,
					      &op),
			 0);
	assert_int_equal(next.version, oi.version);

	/* a repair records the object again and drops any intent */
	{
		struct ol_scrub_stats st = { 0 };

		assert_int_equal(ol_repair_object(f->ol, DATA_POOL, "a.0",
						  &st),
				 0);
	}
	assert_int_equal(cfs_index_get_intent(f->c, DATA_POOL, "a.0", &next,
					      &op),
			 -ENOENT);
	assert_int_equal(ol_obj_write(f->ol, DATA_POOL, "a.0", 2, "ee", 2), 0);
	assert_int_equal(cfs_index_get(f->c, DATA_POOL, "a.0", &oi), 0);
	assert_int_equal(cfs_index_get_intent(f->c, DATA_POOL, "a.0", &next,
					      &op),
			 0);
	assert_int_equal(next.version, oi.version);

	/* a clean close leaves no intent for the next open to settle */
	fx_close(f);
	assert_int_equal(intents_on_disk(f), 0);
	fx_open(f);
	fx_free(f);
}

/* Killed in the second write of a run, after every copy took it and
 * before its record: the kept intent of the first write is all the index
 * has, and it is enough.  A read-only reader serves the new bytes, and
 * the next read-write open settles the index on them. */
static void test_crash_in_run(void **state)
{
#ifdef __SANITIZE_THREAD__
	/* ThreadSanitizer cannot follow a fork of a threaded process (the
	 * child starts objlayer's workers): the other builds run it */
	(void)state;
	skip();
#else
	struct fixture *f = fx_new(NULL);
	char got[16], err[256];
	struct cfs_objinfo oi, next;
	uint64_t vnew = 0;
	int status, op;
	pid_t pid;

	(void)state;
	fx_close(f);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct ol_placement p;
		uint32_t ps;
		int e;

		fx_open(f);
		if (ol_obj_write(f->ol, DATA_POOL, "b.0", 0, "old!", 4) ||
		    ol_locate(f->ol, DATA_POOL, "b.0", &p))
			_exit(2);
		{
			const cfs_osdmap *m = cfs_osdmap_get(f->c);

			cfs_object_to_pg(m, "b.0", NULL, &ps);
			cfs_osdmap_put(m);
		}
		/* the second write, as obj_write_once makes it when the
		 * object's intent is kept: no intent, the copies, then the
		 * process dies before the record */
		vnew = cfs_index_next_version(f->c, &e);
		for (int i = 0; i < p.nacting; i++) {
			cfs_obj *o;

			if (cfs_obj_open(f->c, p.acting[i], DATA_POOL, ps, "b.0",
					 0, &o) ||
			    cfs_obj_pwrite(o, "new!", 4, 4) ||
			    cfs_obj_commit(o, vnew))
				_exit(3);
			cfs_obj_put(o);
		}
		_exit(0); /* as a kill -9: nothing is closed */
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(intents_on_disk(f), 1);
	{
		cfs_cluster *ro;
		objlayer *rol;

		assert_int_equal(cfs_cluster_open(f->dir, CFS_OPEN_RDONLY, &ro,
						  err, sizeof(err)),
				 0);
		assert_int_equal(ol_open(ro, &rol), 0);
		assert_int_equal(ol_obj_read(rol, DATA_POOL, "b.0", 0, got,
					     sizeof(got)),
				 8);
		assert_memory_equal(got, "old!new!", 8);
		ol_close(rol);
		cfs_cluster_close(ro);
	}
	fx_open(f); /* settles */
	assert_int_equal(cfs_index_get(f->c, DATA_POOL, "b.0", &oi), 0);
	assert_int_equal(oi.size, 8);
	assert_int_equal(cfs_index_get_intent(f->c, DATA_POOL, "b.0", &next,
					      &op),
			 -ENOENT);
	assert_int_equal(ol_obj_read(f->ol, DATA_POOL, "b.0", 0, got,
				     sizeof(got)),
			 8);
	assert_memory_equal(got, "old!new!", 8);
	(void)vnew;
	fx_free(f);
#endif
}

/* The mounted daemon's tick drops what was kept before the tick before
 * (an idle daemon keeps none), and a writer that finds OL_KEPT_HIGH kept
 * drops the oldest down to OL_KEPT_LOW; an object being read keeps its
 * intent for the next round. */
static void test_dropping(void **state)
{
	struct fixture *f = fx_new(NULL);
	struct cfs_objinfo next;
	char name[32];
	pthread_rwlock_t *lk;
	int held, op;

	(void)state;
	assert_int_equal(ol_obj_write(f->ol, DATA_POOL, "c.0", 0, "x", 1), 0);
	assert_int_equal(ol_obj_write(f->ol, DATA_POOL, "c.1", 0, "x", 1), 0);
	assert_int_equal(ol_tick(f->ol, 1000, 1000, &held), 0);
	assert_int_equal(intents(f->c), 2); /* kept in the tick they came */
	lk = ol_objlock(f->ol, "c.1");
	pthread_rwlock_rdlock(lk); /* a reader of c.1 */
	assert_int_equal(ol_tick(f->ol, 1001, 1000, &held), 0);
	assert_int_equal(cfs_index_get_intent(f->c, DATA_POOL, "c.0", &next,
					      &op),
			 -ENOENT);
	assert_int_equal(cfs_index_get_intent(f->c, DATA_POOL, "c.1", &next,
					      &op),
			 0);
	pthread_rwlock_unlock(lk);
	assert_int_equal(ol_tick(f->ol, 1002, 1000, &held), 0);
	assert_int_equal(intents(f->c), 0);

	for (int i = 0; i < OL_KEPT_HIGH - 1; i++) {
		snprintf(name, sizeof(name), "d.%d", i);
		assert_int_equal(ol_obj_write(f->ol, DATA_POOL, name, 0, "y",
					      1),
				 0);
	}
	assert_int_equal(intents(f->c), OL_KEPT_HIGH - 1);
	assert_int_equal(ol_obj_write(f->ol, DATA_POOL, "d.last", 0, "y", 1),
			 0);
	assert_int_equal(intents(f->c), OL_KEPT_LOW);
	/* the oldest went */
	assert_int_equal(cfs_index_get_intent(f->c, DATA_POOL, "d.0", &next,
					      &op),
			 -ENOENT);
	assert_int_equal(cfs_index_get_intent(f->c, DATA_POOL, "d.last",
					      &next, &op),
			 0);
	fx_close(f);
	assert_int_equal(intents_on_disk(f), 0);
	fx_open(f);
	fx_free(f);
}

/* The records of writes under a kept intent wait in memory, and every
 * read of the index sees them: a point read, and a scan, in name order,
 * among the committed ones, within its prefix; a stop from the callback
 * stops.  They reach RocksDB with the drop of the intent. */
static int stop_at_two(const char *name, const struct cfs_objinfo *oi, int op,
		       void *arg)
{
	(void)name;
	(void)oi;
	(void)op;
	return ++*(int *)arg == 2 ? 42 : 0;
}

static void test_pending_records(void **state)
{
	struct fixture *f = fx_new(NULL);
	struct cfs_objinfo oi;
	struct fx_seen s = { 0 };
	int n = 0;

	(void)state;
	/* committed: g.1 and h.0 */
	assert_int_equal(ol_obj_write(f->ol, DATA_POOL, "g.1", 0, "gggg", 4), 0);
	assert_int_equal(ol_obj_write(f->ol, DATA_POOL, "h.0", 0, "h", 1), 0);
	assert_int_equal(ol_kept_drop(f->ol, OL_KEPT_ALL), 0);
	/* pending: g.0 and g.2 (new), g.1 grown to 6 */
	assert_int_equal(ol_obj_write(f->ol, DATA_POOL, "g.2", 0, "22", 2), 0);
	assert_int_equal(ol_obj_write(f->ol, DATA_POOL, "g.0", 0, "0", 1), 0);
	assert_int_equal(ol_obj_write(f->ol, DATA_POOL, "g.1", 4, "gg", 2), 0);
	assert_int_equal(cfs_index_get(f->c, DATA_POOL, "g.1", &oi), 0);
	assert_int_equal(oi.size, 6);
	assert_int_equal(cfs_index_get(f->c, DATA_POOL, "g.2", &oi), 0);
	assert_int_equal(oi.size, 2);
	assert_int_equal(cfs_index_foreach(f->c, DATA_POOL, "g.", 0, fx_see, &s),
			 0);
	assert_int_equal(s.n, 3);
	assert_string_equal(s.names[0], "g.0");
	assert_string_equal(s.names[1], "g.1");
	assert_string_equal(s.names[2], "g.2");
	assert_int_equal(s.size[0], 1);
	assert_int_equal(s.size[1], 6);
	assert_int_equal(s.size[2], 2);
	s.n = 0;
	assert_int_equal(cfs_index_foreach(f->c, DATA_POOL, "", 0, fx_see, &s), 0);
	assert_int_equal(s.n, 4);
	assert_string_equal(s.names[3], "h.0");
	assert_int_equal(cfs_index_foreach(f->c, DATA_POOL, "", 0, stop_at_two,
					   &n),
			 42);
	assert_int_equal(n, 2);
	fx_free(f);
}

/* Pending records reach RocksDB with the drop of their intent, not
 * before: a process killed with one of each. */
static void test_pending_not_committed(void **state)
{
#ifdef __SANITIZE_THREAD__
	/* ThreadSanitizer cannot follow a fork of a threaded process (the
	 * child starts objlayer's workers): the other builds run it */
	(void)state;
	skip();
#else
	struct fixture *f = fx_new(NULL);
	struct cfs_objinfo oi;

	(void)state;
	fx_close(f);
	{
		pid_t pid = fork();
		int status;
		cfs_cluster *ro;
		char err[256];
		struct cfs_objinfo next;
		int op;

		assert_true(pid >= 0);
		if (pid == 0) {
			fx_open(f);
			if (ol_obj_write(f->ol, DATA_POOL, "x.0", 0, "xx", 2) ||
			    ol_kept_drop(f->ol, OL_KEPT_ALL) ||
			    ol_obj_write(f->ol, DATA_POOL, "y.0", 0, "y", 1))
				_exit(2);
			_exit(0);
		}
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 0);
		assert_int_equal(cfs_cluster_open(f->dir, CFS_OPEN_RDONLY, &ro,
						  err, sizeof(err)),
				 0);
		assert_int_equal(cfs_index_get(ro, DATA_POOL, "x.0", &oi), 0);
		assert_int_equal(oi.size, 2);
		assert_int_equal(cfs_index_get_intent(ro, DATA_POOL, "x.0",
						      &next, &op),
				 -ENOENT);
		assert_int_equal(cfs_index_get(ro, DATA_POOL, "y.0", &oi),
				 -ENOENT);
		assert_int_equal(cfs_index_get_intent(ro, DATA_POOL, "y.0",
						      &next, &op),
				 0);
		cfs_cluster_close(ro);
	}
	fx_open(f); /* settles y.0 */
	assert_int_equal(cfs_index_get(f->c, DATA_POOL, "y.0", &oi), 0);
	assert_int_equal(oi.size, 1);
	fx_free(f);
#endif
}

/* A write that leaves its object bigger than OL_KEPT_MAX_SIZE keeps no
 * intent (the open after a crash would read it all), also when the
 * object's smaller writes before it did. */
static void test_big_not_kept(void **state)
{
	struct fixture *f = fx_new(NULL);
	size_t big = OL_KEPT_MAX_SIZE + 4096;
	char *buf = calloc(1, big);
	struct cfs_objinfo next;
	int op;

	(void)state;
	assert_non_null(buf);
	assert_int_equal(ol_obj_write(f->ol, DATA_POOL, "e.0", 0, buf, big), 0);
	assert_int_equal(cfs_index_get_intent(f->c, DATA_POOL, "e.0", &next,
					      &op),
			 -ENOENT);
	assert_int_equal(ol_obj_write(f->ol, DATA_POOL, "e.1", 0, buf, 4096), 0);
	assert_int_equal(cfs_index_get_intent(f->c, DATA_POOL, "e.1", &next,
					      &op),
			 0);
	assert_int_equal(ol_obj_write(f->ol, DATA_POOL, "e.1", 4096, buf,
				      big - 4096),
			 0);
	assert_int_equal(cfs_index_get_intent(f->c, DATA_POOL, "e.1", &next,
					      &op),
			 -ENOENT);
	assert_int_equal(intents(f->c), 0);
	free(buf);
	fx_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run_of_writes),
		cmocka_unit_test(test_crash_in_run),
		cmocka_unit_test(test_dropping),
		cmocka_unit_test(test_big_not_kept),
		cmocka_unit_test(test_pending_records),
		cmocka_unit_test(test_pending_not_committed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
