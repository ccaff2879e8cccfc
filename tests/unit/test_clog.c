/*
 * test_clog.c - the cluster log (osdsim/clog.c, mgr/events.c) and the fill
 * history (mgr/history.c): entries numbered without gaps by several
 * processes at once, rotation bounded and followed by a tail, `log last`'s
 * filters and order, the forms Ceph prints; history read from an offset,
 * re-read after a trim, thinned keeping the newest; and the daemon's tick
 * turning an OSD going down and up into HealthMonitor's lines.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include <jansson.h>

#include "cluster_fixture.h"
#include "mgr_events.h"

static char *tmpdir(void)
{
	char *d = strdup("/tmp/crushfs-clog.XXXXXX");

	assert_non_null(mkdtemp(d));
	return d;
}

static void test_seq_many_writers(void **state)
{
	char *d = tmpdir();
	struct mgr_log_entry *v;
	struct stat st;
	char path[512];
	int n;

	(void)state;
	cfs_clog_set_limit(64 << 20);
	for (int w = 0; w < 4; w++) {
		pid_t p = fork();

		assert_true(p >= 0);
		if (p == 0) {
			for (int i = 0; i < 100; i++)
				if (cfs_clog_dir(d, CFS_CLOG_INFO, "cluster",
						 "osd.1", "writer entry"))
					_exit(1);
			_exit(0);
		}
	}
	for (int w = 0; w < 4; w++) {
		int status;

		assert_true(wait(&status) > 0);
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	assert_int_equal(mgr_log_last(d, 1000, CFS_CLOG_DEBUG, "*", &v, &n), 0);
	assert_int_equal(n, 400);
	for (int i = 0; i < n; i++)
		assert_int_equal(v[i].seq, (uint64_t)i + 1);
	free(v);
	snprintf(path, sizeof(path), "%s/cluster.log", d);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	cfs_rmtree(d);
	free(d);
}

static int collect(const struct mgr_log_entry *e, void *arg)
{
	uint64_t *next = arg;

	assert_int_equal(e->seq, *next);
	(*next)++;
	return 0;
}

static void test_rotation_and_tail(void **state)
{
	char *d = tmpdir(), path[512];
	struct mgr_log_entry *v;
	mgr_log_tail *t;
	uint64_t next = 1;
	struct stat st;
	int n;

	(void)state;
	cfs_clog_set_limit(4096);
	assert_int_equal(mgr_log_tail_open(d, &t), 0); /* before the file */
	for (int i = 0; i < 200; i++) {
		assert_int_equal(cfs_clog_dir(d, i % 5, i % 7 ? "cluster"
							      : "audit",
					      "mon.a", "an entry of some length "
					      "to fill the file"), 0);
		if (i % 13 == 0)
			assert_int_equal(mgr_log_tail_read(t, collect, &next),
					 0);
	}
	assert_int_equal(mgr_log_tail_read(t, collect, &next), 0);
	/* every entry once, in order, across the rotations */
	assert_int_equal(next, 201);
	mgr_log_tail_close(t);
	/* absent right after a rotation, until the next entry */
	snprintf(path, sizeof(path), "%s/cluster.log", d);
	assert_true(stat(path, &st) ? errno == ENOENT
				    : st.st_size <= 4096 + 200);
	snprintf(path, sizeof(path), "%s/cluster.log.1", d);
	assert_int_equal(stat(path, &st), 0);
	assert_true(st.st_size <= 4096 + 200);
	/* log last: level and channel filters, oldest first */
	assert_int_equal(mgr_log_last(d, 5, CFS_CLOG_WARN, "cluster", &v, &n),
			 0);
	assert_int_equal(n, 5);
	for (int i = 0; i < n; i++) {
		assert_true(v[i].prio >= CFS_CLOG_WARN);
		assert_string_equal(v[i].channel, "cluster");
		if (i)
			assert_true(v[i].seq > v[i - 1].seq);
	}
	assert_int_equal(v[4].seq, 200); /* i = 199: prio 4, cluster */
	free(v);
	cfs_clog_set_limit(0);
	cfs_rmtree(d);
	free(d);
}

static void test_forms(void **state)
{
	static const char line[] =
		"{\"stamp\":\"2026-11-27T22:20:01.123456+0000\",\"name\":"
		"\"mon.a\",\"rank\":\"mon.0\",\"seq\":12,\"channel\":"
		"\"cluster\",\"prio\":\"WRN\",\"msg\":\"Health check failed: "
		"1 osds down (OSD_DOWN)\"}";
	struct mgr_log_entry e;
	char buf[1400];

	(void)state;
	assert_int_equal(mgr_log_parse(line, sizeof(line) - 1, &e), 0);
	mgr_log_format(&e, buf, sizeof(buf));
	assert_string_equal(buf, "2026-11-27T22:20:01.123456+0000 mon.a "
			    "(mon.0) 12 : cluster [WRN] Health check failed: "
			    "1 osds down (OSD_DOWN)");
	mgr_log_format_watch(&e, buf, sizeof(buf));
	assert_string_equal(buf, "2026-11-27T22:20:01.123456+0000 mon.a [WRN] "
			    "Health check failed: 1 osds down (OSD_DOWN)");
	snprintf(e.channel, sizeof(e.channel), "audit");
	mgr_log_format_watch(&e, buf, sizeof(buf));
	assert_non_null(strstr(buf, " mon.a audit [WRN] "));
	assert_int_equal(mgr_log_parse("{\"prio\":\"XXX\",\"msg\":\"m\"}", 25,
				       &e), -EINVAL);
	assert_int_equal(mgr_log_parse("not json", 8, &e), -EINVAL);
	assert_int_equal(mgr_log_level_parse("warning"), CFS_CLOG_WARN);
	assert_int_equal(mgr_log_level_parse("ERR"), CFS_CLOG_ERROR);
	assert_int_equal(mgr_log_level_parse("loud"), -1);
}

static void append(const char *path, double t)
{
	FILE *f = fopen(path, "a");

	assert_non_null(f);
	fprintf(f, "{\"t\":%.3f,\"used\":1,\"total\":2}\n", t);
	fclose(f);
}

static void test_history_read(void **state)
{
	char *d = tmpdir(), path[512], tmp[520];
	struct mgr_history_pos pos = { 0, 0, 0 };
	json_t *a;

	(void)state;
	snprintf(path, sizeof(path), "%s/" MGR_HISTORY_FILE, d);
	for (int i = 1; i <= 10; i++)
		append(path, 1000 + i);
	a = mgr_history_read_new(d, &pos);
	assert_int_equal(json_array_size(a), 10);
	json_decref(a);
	a = mgr_history_read_new(d, &pos);
	assert_int_equal(json_array_size(a), 0);
	json_decref(a);
	append(path, 1011);
	a = mgr_history_read_new(d, &pos);
	assert_int_equal(json_array_size(a), 1);
	assert_true(json_number_value(json_object_get(json_array_get(a, 0),
						      "t")) == 1011.0);
	json_decref(a);
	/* a trim: a new file with the last samples and one more */
	snprintf(tmp, sizeof(tmp), "%s.new", path);
	for (int i = 9; i <= 12; i++)
		append(tmp, 1000 + i);
	assert_int_equal(rename(tmp, path), 0);
	a = mgr_history_read_new(d, &pos);
	assert_int_equal(json_array_size(a), 1); /* only 1012 is new */
	json_decref(a);
	/* thinned to 3, the newest kept */
	a = mgr_history_read(d, 0, 3);
	assert_int_equal(json_array_size(a), 3);
	assert_true(json_number_value(json_object_get(json_array_get(a, 2),
						      "t")) == 1012.0);
	json_decref(a);
	cfs_rmtree(d);
	free(d);
}

/* the daemon's tick: an OSD down and up again, in HealthMonitor's words */
static void test_tick_health(void **state)
{
	struct fixture *f = fx_new(NULL);
	struct mgr_log_entry *v;
	struct mgr_tick *t;
	int n, found = 0;

	(void)state;
	assert_int_equal(mgr_tick_create(f->c, f->ol, &t), 0);
	assert_true(mgr_tick_run(t) > 0); /* the baseline: HEALTH_OK */
	assert_int_equal(cfs_osd_mark_down(f->c, 3), 0);
	mgr_tick_run(t);
	assert_int_equal(cfs_osd_mark_up(f->c, 3), 0);
	mgr_tick_run(t);
	assert_int_equal(mgr_log_last(f->dir, 100, CFS_CLOG_INFO, "cluster",
				      &v, &n), 0);
	for (int i = 0; i < n; i++) {
		if (!strcmp(v[i].msg, "osd.3 marked down"))
			assert_int_equal(found++, 0);
		else if (!strcmp(v[i].msg, "Health check failed: 1 osds down "
				 "(OSD_DOWN)")) {
			assert_int_equal(found++, 1);
			assert_int_equal(v[i].prio, CFS_CLOG_WARN);
		} else if (!strcmp(v[i].msg, "osd.3 boot"))
			assert_int_equal(found++, 2);
		else if (!strcmp(v[i].msg, "Health check cleared: OSD_DOWN "
				 "(was: 1 osds down)"))
			assert_int_equal(found++, 3);
		else if (!strcmp(v[i].msg, "Cluster is now healthy"))
			assert_int_equal(found++, 4);
	}
	assert_int_equal(found, 5);
	free(v);
	/* a sample of the fill history was taken on the first tick */
	{
		json_t *a = mgr_history_read(f->dir, 0, 0);

		assert_true(json_array_size(a) >= 1);
		assert_true(json_integer_value(json_object_get(
				    json_array_get(a, 0), "total")) > 0);
		json_decref(a);
	}
	mgr_tick_destroy(t);
	fx_free(f);
}

/* 24 hours of samples at the interval: 864 s keeps 100, rewritten when a
 * quarter over */
static void test_history_trim(void **state)
{
	struct fixture *f = fx_new(NULL);
	const cfs_osdmap *m = cfs_osdmap_get(f->c);
	struct mgr_history *h;
	struct cfs_health hs;
	char why[256], path[600];
	double last = 0;
	json_t *a;
	FILE *fp;
	int lines = 0, ch;

	(void)state;
	assert_int_equal(cfs_config_set(f->c, "mgr_history_interval", "864",
					why, sizeof(why)), 0);
	assert_int_equal(mgr_history_interval(f->c), 864);
	assert_int_equal(cfs_health_take(f->c, m, NULL, 0, NULL, &hs), 0);
	assert_int_equal(mgr_history_open(f->dir, &h), 0);
	for (int i = 0; i < 130; i++)
		assert_int_equal(mgr_history_sample(h, f->c, m, &hs), 0);
	mgr_history_close(h);
	cfs_health_free(&hs);
	cfs_osdmap_put(m);
	snprintf(path, sizeof(path), "%s/" MGR_HISTORY_FILE, f->dir);
	fp = fopen(path, "r");
	assert_non_null(fp);
	while ((ch = getc(fp)) != EOF)
		lines += ch == '\n';
	fclose(fp);
	/* trimmed to 100 at the 126th, then 4 more */
	assert_int_equal(lines, 104);
	/* read back: samples of one millisecond count once, in order */
	a = mgr_history_read(f->dir, 0, 0);
	assert_true(json_array_size(a) >= 1 && json_array_size(a) <= 104);
	for (size_t i = 0; i < json_array_size(a); i++) {
		double t = json_number_value(
			json_object_get(json_array_get(a, i), "t"));

		assert_true(t > last);
		last = t;
	}
	json_decref(a);
	fx_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seq_many_writers),
		cmocka_unit_test(test_rotation_and_tail),
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_history_read),
		cmocka_unit_test(test_tick_health),
		cmocka_unit_test(test_history_trim),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
