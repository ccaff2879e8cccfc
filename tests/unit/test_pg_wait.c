/*
 * test_pg_wait.c - I/O to a PG that cannot serve waits, as a Ceph client's
 * does: a write and a read to a PG below min_size block (listed as slow
 * ops, SLOW_OPS in health), and go on when an OSD comes back; with
 * rados_osd_op_timeout they end with ETIMEDOUT; ol_stop_waiting ends them
 * with EIO; without ol_set_wait (a lone CLI process) they fail at once;
 * a thread whose interrupt check already says so (the daemon's
 * read-ahead) gets EINTR at once, logged nowhere, listed nowhere.
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
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "cluster_fixture.h"

#define DATA_POOL 1

struct job {
	struct fixture *f;
	int write; /* else a read */
	char buf[64];
	ssize_t r;
	_Atomic int done;
};

static void *run(void *arg)
{
	struct job *j = arg;

	if (j->write)
		j->r = ol_obj_write_full(j->f->ol, DATA_POOL, "victim", "fresh",
					 5);
	else
		j->r = ol_obj_read(j->f->ol, DATA_POOL, "victim", 0, j->buf,
				   sizeof(j->buf));
	j->done = 1;
	return NULL;
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Wait (10 s at most) until n ops are listed as waiting. */
static void wait_slow(struct fixture *f, int n)
{
	struct cfs_slow_op s[8];
	double until = now_s() + 10;

	while (cfs_slow_ops(f->c, s, 8) != n) {
		if (now_s() > until)
			fail_msg("%d waiting op(s) expected within 10 s, have %d",
				 n, cfs_slow_ops(f->c, s, 8));
		usleep(1000); /* a poll interval, not a synchronization */
	}
}

static void wait_done(struct job *j)
{
	double until = now_s() + 10;

	while (!j->done) {
		if (now_s() > until)
			fail_msg("the op did not end within 10 s");
		usleep(1000);
	}
}

static struct fixture *victim_below_min_size(int *act)
{
	struct fixture *f = fx_new(NULL);
	const cfs_osdmap *m;
	uint32_t ps;
	int na;

	assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, "victim", "data",
					   4),
			 0);
	m = cfs_osdmap_get(f->c);
	cfs_object_to_pg(m, "victim", NULL, &ps);
	na = cfs_osdmap_pg(m, ps)->nacting;
	memcpy(act, cfs_osdmap_pg(m, ps)->acting, sizeof(int) * (size_t)na);
	cfs_osdmap_put(m);
	assert_int_equal(na, 3);
	assert_int_equal(cfs_osd_mark_down(f->c, act[0]), 0);
	assert_int_equal(cfs_osd_mark_down(f->c, act[1]), 0);
	return f;
}

static void test_write_waits_then_goes_on(void **state)
{
	int act[16];
	struct fixture *f = victim_below_min_size(act);
	struct job w = { f, 1, "", 0, 0 }, r = { f, 0, "", 0, 0 };
	struct cfs_health h;
	char why[256];
	const cfs_osdmap *m;
	pthread_t tw, tr;
	int slow = 0;

	(void)state;
	ol_set_wait(f->ol, 1, NULL, NULL);
	assert_int_equal(pthread_create(&tw, NULL, run, &w), 0);
	wait_slow(f, 1);
	assert_int_equal(pthread_create(&tr, NULL, run, &r), 0);
	wait_slow(f, 2);
	assert_false(w.done);
	assert_false(r.done);
	/* health names them once they are older than the complaint time */
	assert_int_equal(cfs_config_set(f->c, "osd_op_complaint_time", "0",
					why, sizeof(why)),
			 0);
	m = cfs_osdmap_get(f->c);
	assert_int_equal(cfs_health_take(f->c, m, NULL, 0, NULL, &h), 0);
	for (int i = 0; i < h.nchecks; i++)
		if (!strcmp(h.checks[i].code, "SLOW_OPS")) {
			slow = 1;
			assert_int_equal(h.checks[i].count, 2);
			assert_non_null(strstr(h.checks[i].summary,
					       "2 slow ops"));
			assert_int_equal(h.checks[i].ndetail, 2);
			assert_non_null(strstr(h.checks[i].detail[0],
					       "victim"));
		}
	assert_true(slow);
	cfs_health_free(&h);
	cfs_osdmap_put(m);
	/* another map that leaves the PG inactive: still waiting */
	assert_int_equal(cfs_osd_mark_out(f->c, act[0]), 0);
	wait_slow(f, 2);
	assert_false(w.done);
	/* one OSD back: min_size again, both ops go on */
	assert_int_equal(cfs_osd_mark_up(f->c, act[1]), 0);
	pthread_join(tw, NULL);
	pthread_join(tr, NULL);
	assert_int_equal(w.r, 0);
	/* the read ran before or after the write: either version, whole */
	assert_true((r.r == 4 && !memcmp(r.buf, "data", 4)) ||
		    (r.r == 5 && !memcmp(r.buf, "fresh", 5)));
	assert_int_equal(cfs_slow_ops(f->c, (struct cfs_slow_op[1]){ 0 }, 1),
			 0);
	{
		char buf[16];

		assert_int_equal(ol_obj_read(f->ol, DATA_POOL, "victim", 0,
					     buf, sizeof(buf)),
				 5);
		assert_memory_equal(buf, "fresh", 5);
	}
	fx_free(f);
}

static void test_op_timeout(void **state)
{
	int act[16];
	struct fixture *f = victim_below_min_size(act);
	char why[256], buf[16];
	double t0;

	(void)state;
	ol_set_wait(f->ol, 1, NULL, NULL);
	assert_int_equal(cfs_config_set(f->c, "rados_osd_op_timeout", "1",
					why, sizeof(why)),
			 0);
	t0 = now_s();
	assert_int_equal(ol_obj_read(f->ol, DATA_POOL, "victim", 0, buf,
				     sizeof(buf)),
			 -ETIMEDOUT);
	assert_true(now_s() - t0 >= 0.99);
	assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, "victim", "x", 1),
			 -ETIMEDOUT);
	/* the data is still there, and served once the PG is active */
	assert_int_equal(cfs_osd_mark_up(f->c, act[0]), 0);
	assert_int_equal(ol_obj_read(f->ol, DATA_POOL, "victim", 0, buf,
				     sizeof(buf)),
			 4);
	assert_memory_equal(buf, "data", 4);
	fx_free(f);
}

static void test_stop_waiting(void **state)
{
	int act[16];
	struct fixture *f = victim_below_min_size(act);
	struct job w = { f, 1, "", 0, 0 };
	pthread_t tw;

	(void)state;
	ol_set_wait(f->ol, 1, NULL, NULL);
	assert_int_equal(pthread_create(&tw, NULL, run, &w), 0);
	wait_slow(f, 1);
	ol_stop_waiting(f->ol);
	wait_done(&w);
	pthread_join(tw, NULL);
	assert_int_equal(w.r, -EIO);
	fx_free(f);
}

/* A lone CLI process: nobody else changes its map, so no waiting. */
static void test_no_wait_without_daemon(void **state)
{
	int act[16];
	struct fixture *f = victim_below_min_size(act);
	char buf[16];

	(void)state;
	assert_int_equal(ol_obj_read(f->ol, DATA_POOL, "victim", 0, buf,
				     sizeof(buf)),
			 -EIO);
	assert_int_equal(cfs_slow_ops(f->c, (struct cfs_slow_op[1]){ 0 }, 1),
			 0);
	fx_free(f);
}

static int always(void *arg)
{
	(void)arg;
	return 1;
}

struct logged {
	int lines;
};

static struct logged logged;

static void count_log(int level, const char *msg)
{
	(void)level;
	if (strstr(msg, "waits"))
		logged.lines++;
}

/* The daemon's read-ahead: an op that may not wait gives up at once,
 * without a "waits" line or a slow op; the same op may wait once the
 * check is gone. */
static void test_may_not_wait(void **state)
{
	int act[16];
	struct fixture *f = victim_below_min_size(act);
	char buf[16];

	(void)state;
	ol_set_wait(f->ol, 1, NULL, NULL);
	cfs_log_set(count_log, CFS_LOG_DEBUG);
	ol_set_interrupt_check(always, NULL);
	assert_int_equal(ol_obj_read(f->ol, DATA_POOL, "victim", 0, buf,
				     sizeof(buf)),
			 -EINTR);
	ol_set_interrupt_check(NULL, NULL);
	cfs_log_set(NULL, CFS_LOG_ERR);
	assert_int_equal(logged.lines, 0);
	assert_int_equal(cfs_slow_ops(f->c, (struct cfs_slow_op[1]){ 0 }, 1),
			 0);
	assert_int_equal(cfs_osd_mark_up(f->c, act[0]), 0);
	assert_int_equal(ol_obj_read(f->ol, DATA_POOL, "victim", 0, buf,
				     sizeof(buf)),
			 4);
	fx_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_waits_then_goes_on),
		cmocka_unit_test(test_op_timeout),
		cmocka_unit_test(test_stop_waiting),
		cmocka_unit_test(test_no_wait_without_daemon),
		cmocka_unit_test(test_may_not_wait),
	};

	cfs_log_set(NULL, CFS_LOG_ERR);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
