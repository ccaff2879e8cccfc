/*
 * test_flags.c - the osdmap flags and the monitor's tick (osdsim
 * osdflags.c, montick.c) and health mutes' durations (mutes.c): flags
 * persist with the map, the down->out timer counts from the later of the
 * down stamp and the tick's start, noout holds, mon_osd_min_in_ratio
 * stops it, AUTOOUT comes back in at boot unless noin.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <time.h>

#include <cmocka.h>

#include "cluster_fixture.h"

static int in(cfs_cluster *c, int osd)
{
	const cfs_osdmap *m = cfs_osdmap_get(c);
	int r = cfs_osdmap_is_in(m, osd);

	cfs_osdmap_put(m);
	return r;
}

static uint32_t epoch(cfs_cluster *c)
{
	const cfs_osdmap *m = cfs_osdmap_get(c);
	uint32_t e = cfs_osdmap_epoch(m);

	cfs_osdmap_put(m);
	return e;
}

static void test_flags_persist(void **state)
{
	struct fixture *f = fx_new(NULL);
	uint32_t e0 = epoch(f->c);
	const cfs_osdmap *m;
	char s[128];

	(void)state;
	assert_int_equal(cfs_osd_flag_parse("pause"),
			 CFS_OSDMAP_PAUSERD | CFS_OSDMAP_PAUSEWR);
	assert_int_equal(cfs_osd_flag_parse("nodeep-scrub"),
			 CFS_OSDMAP_NODEEP_SCRUB);
	assert_int_equal(cfs_osd_flag_parse("sortbitwise"), 0);
	assert_int_equal(cfs_osd_flag_parse("bogus"), 0);
	assert_int_equal(cfs_osd_set_flags(f->c, CFS_OSDMAP_SORTBITWISE, 0),
			 -EINVAL);
	assert_int_equal(cfs_osd_set_flags(f->c, CFS_OSDMAP_NOREBALANCE |
						 CFS_OSDMAP_PAUSEWR, 0), 0);
	/* set again: one more epoch all the same, as Ceph proposes one */
	assert_int_equal(cfs_osd_set_flags(f->c, CFS_OSDMAP_NOREBALANCE, 0), 0);
	assert_int_equal(epoch(f->c), e0 + 2);
	fx_close(f);
	fx_open(f);
	m = cfs_osdmap_get(f->c);
	assert_int_equal(cfs_osdmap_flags(m),
			 CFS_OSDMAP_NOREBALANCE | CFS_OSDMAP_PAUSEWR);
	cfs_osd_flag_string(cfs_osdmap_flags(m) | CFS_OSDMAP_ALWAYS, s,
			    sizeof(s));
	assert_string_equal(s, "pausewr,norebalance,sortbitwise,"
			       "recovery_deletes,purged_snapdirs,"
			       "pglog_hardlimit");
	cfs_osdmap_put(m);
	assert_int_equal(cfs_osd_set_flags(f->c, 0, CFS_OSDMAP_PAUSEWR), 0);
	m = cfs_osdmap_get(f->c);
	assert_int_equal(cfs_osdmap_flags(m), CFS_OSDMAP_NOREBALANCE);
	cfs_osdmap_put(m);
	fx_free(f);
}

static void test_down_out_timer(void **state)
{
	struct fixture *f = fx_new(NULL);
	char why[128];
	int64_t t0 = (int64_t)time(NULL), since = t0 - 10000;
	int held;

	(void)state;
	assert_int_equal(cfs_config_set(f->c, "mon_osd_down_out_interval",
					"100", why, sizeof(why)), 0);
	assert_int_equal(cfs_osd_mark_down(f->c, 3), 0);
	/* not yet: 99 s of the 100 */
	assert_int_equal(cfs_mon_tick(f->c, t0 + 99, since, NULL, NULL, &held),
			 0);
	assert_true(in(f->c, 3));
	/* the tick started after the down: it counts from its start */
	assert_int_equal(cfs_mon_tick(f->c, t0 + 150, t0 + 60, NULL, NULL,
				      &held), 0);
	assert_true(in(f->c, 3));
	/* noout holds it, and says so */
	assert_int_equal(cfs_osd_set_flags(f->c, CFS_OSDMAP_NOOUT, 0), 0);
	assert_int_equal(cfs_mon_tick(f->c, t0 + 200, since, NULL, NULL,
				      &held), 0);
	assert_int_equal(held, 1);
	assert_true(in(f->c, 3));
	assert_int_equal(cfs_osd_set_flags(f->c, 0, CFS_OSDMAP_NOOUT), 0);
	assert_int_equal(cfs_mon_tick(f->c, t0 + 200, since, NULL, NULL,
				      &held), 1);
	assert_int_equal(held, 0);
	assert_false(in(f->c, 3));
	/* back up: in again (AUTOOUT), unless noin */
	assert_int_equal(cfs_osd_set_flags(f->c, CFS_OSDMAP_NOIN, 0), 0);
	assert_int_equal(cfs_osd_mark_up(f->c, 3), 0);
	assert_false(in(f->c, 3));
	assert_int_equal(cfs_osd_set_flags(f->c, 0, CFS_OSDMAP_NOIN), 0);
	assert_int_equal(cfs_osd_mark_down(f->c, 3), 0);
	assert_int_equal(cfs_osd_mark_up(f->c, 3), 0);
	assert_true(in(f->c, 3));
	/* an OSD marked in by hand is no longer AUTOOUT: marked out by hand,
	 * it stays out when it comes up */
	assert_int_equal(cfs_osd_mark_out(f->c, 3), 0);
	assert_int_equal(cfs_osd_mark_down(f->c, 3), 0);
	assert_int_equal(cfs_osd_mark_up(f->c, 3), 0);
	assert_false(in(f->c, 3));
	fx_free(f);
}

static void test_min_in_ratio(void **state)
{
	struct fixture *f = fx_new(NULL); /* 12 OSDs */
	int64_t t0 = (int64_t)time(NULL), since = t0 - 10000;
	char why[128];
	int held, n = 0;

	(void)state;
	assert_int_equal(cfs_config_set(f->c, "mon_osd_down_out_interval",
					"10", why, sizeof(why)), 0);
	for (int o = 0; o < 6; o++)
		assert_int_equal(cfs_osd_mark_down(f->c, o), 0);
	/* 12 in; each marked out while in/12 >= 0.75: 12, 11, 10, 9 */
	assert_int_equal(cfs_mon_tick(f->c, t0 + 20, since, NULL, NULL, &held),
			 4);
	for (int o = 0; o < 12; o++)
		n += !in(f->c, o);
	assert_int_equal(n, 4);
	/* 0: never */
	assert_int_equal(cfs_config_set(f->c, "mon_osd_down_out_interval", "0",
					why, sizeof(why)), 0);
	assert_int_equal(cfs_config_set(f->c, "mon_osd_min_in_ratio", "0", why,
					sizeof(why)), 0);
	assert_int_equal(cfs_mon_tick(f->c, t0 + 20, since, NULL, NULL, &held),
			 0);
	fx_free(f);
}

static int up(cfs_cluster *c, int osd)
{
	const cfs_osdmap *m = cfs_osdmap_get(c);
	int r = cfs_osdmap_is_up(m, osd);

	cfs_osdmap_put(m);
	return r;
}

/* noup drops a boot (preprocess_boot/can_mark_up); nodown holds back a
 * failure report (check_failure/can_mark_down) but not the operator's
 * `osd down`; mon_osd_min_up_ratio stops failure reports too */
static void test_noup_nodown(void **state)
{
	struct fixture *f = fx_new(NULL); /* 12 OSDs */
	uint32_t e;

	(void)state;
	assert_int_equal(cfs_osd_set_flags(f->c, CFS_OSDMAP_NOUP, 0), 0);
	assert_int_equal(cfs_osd_mark_down(f->c, 2), 0);
	e = epoch(f->c);
	assert_int_equal(cfs_osd_mark_up(f->c, 2), -EBUSY);
	assert_false(up(f->c, 2));
	assert_int_equal(epoch(f->c), e);
	assert_int_equal(cfs_osd_set_flags(f->c, 0, CFS_OSDMAP_NOUP), 0);
	assert_int_equal(cfs_osd_mark_up(f->c, 2), 0);
	assert_true(up(f->c, 2));

	assert_int_equal(cfs_osd_set_flags(f->c, CFS_OSDMAP_NODOWN, 0), 0);
	e = epoch(f->c);
	assert_int_equal(cfs_osd_report_failure(f->c, 2), -EBUSY);
	assert_true(up(f->c, 2));
	assert_int_equal(epoch(f->c), e);
	assert_int_equal(cfs_osd_mark_down(f->c, 2), 0);
	assert_false(up(f->c, 2));
	assert_int_equal(cfs_osd_mark_up(f->c, 2), 0);
	assert_int_equal(cfs_osd_set_flags(f->c, 0, CFS_OSDMAP_NODOWN), 0);
	assert_int_equal(cfs_osd_report_failure(f->c, 2), 0);
	assert_false(up(f->c, 2));

	/* 0.3 of 12: failures stop once 4 are up (3/12 < 0.3) */
	for (int o = 3; o < 11; o++)
		assert_int_equal(cfs_osd_report_failure(f->c, o), 0);
	assert_int_equal(cfs_osd_report_failure(f->c, 11), -EBUSY);
	assert_true(up(f->c, 11));
	fx_free(f);
}

static void test_timespan(void **state)
{
	int64_t s;

	(void)state;
	assert_int_equal(cfs_parse_timespan("90", &s), 0);
	assert_int_equal(s, 90);
	assert_int_equal(cfs_parse_timespan("10m", &s), 0);
	assert_int_equal(s, 600);
	assert_int_equal(cfs_parse_timespan("1h30m", &s), 0);
	assert_int_equal(s, 5400);
	assert_int_equal(cfs_parse_timespan("2 days", &s), 0);
	assert_int_equal(s, 172800);
	assert_int_equal(cfs_parse_timespan("5q", &s), -EINVAL);
	assert_int_equal(cfs_parse_timespan("0", &s), -EINVAL);
	assert_int_equal(cfs_parse_timespan("", &s), -EINVAL);
	assert_int_equal(cfs_parse_timespan("1h 5", &s), 0);
	assert_int_equal(s, 3605);
	assert_int_equal(cfs_parse_timespan("h", &s), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flags_persist),
		cmocka_unit_test(test_down_out_timer),
		cmocka_unit_test(test_min_in_ratio),
		cmocka_unit_test(test_noup_nodown),
		cmocka_unit_test(test_timespan),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
