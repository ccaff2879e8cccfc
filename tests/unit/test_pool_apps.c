/*
 * test_pool_apps.c - a pool's applications (osdsim/pool_apps.c): mkfs
 * tags the data pool cephfs, a new pool has none, a change is checked
 * against OSDMonitor's limits and kept across a reopen, fs add_data_pool
 * adds cephfs beside what the pool had.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "cluster_fixture.h"

static void pool_apps(struct fixture *f, int64_t id, char *buf, size_t len)
{
	const cfs_osdmap *m = cfs_osdmap_get(f->c);
	const struct cfs_pool_info *p = cfs_osdmap_pool_by_id(m, id);

	assert_non_null(p);
	snprintf(buf, len, "%s", p->apps);
	cfs_osdmap_put(m);
}

static int update(struct fixture *f, int64_t id, const char *apps)
{
	const cfs_osdmap *m = cfs_osdmap_get(f->c);
	struct cfs_pool_info want = *cfs_osdmap_pool_by_id(m, id);
	char why[256];

	cfs_osdmap_put(m);
	snprintf(want.apps, sizeof(want.apps), "%s", apps);
	return cfs_pool_update(f->c, &want, why, sizeof(why));
}

static void test_apps_kept_and_checked(void **state)
{
	struct fixture *f = fx_new(NULL);
	struct cfs_pool_info want = { 0 };
	char why[256], buf[CFS_POOL_APPS_LEN], names[256];
	int64_t id = 0;

	(void)state;
	pool_apps(f, 1, buf, sizeof(buf));
	assert_string_equal(buf, "{\"cephfs\":{\"data\":\"crushfs\"}}");

	snprintf(want.name, sizeof(want.name), "rbd");
	want.size = 3;
	want.min_size = 2;
	want.pg_num = want.pgp_num = 8;
	snprintf(want.apps, sizeof(want.apps), "{\"x\":{}}");
	assert_int_equal(cfs_pool_create(f->c, &want, &id, why, sizeof(why)),
			 0);
	/* `osd pool create` enables none, whatever was asked */
	pool_apps(f, id, buf, sizeof(buf));
	assert_string_equal(buf, "");

	assert_int_equal(update(f, id, "{\"rbd\":{\"k\":\"v\"}}"), 0);
	/* OSDMonitor's limits: 4 applications, values are strings */
	assert_int_equal(update(f, id, "{\"a\":{},\"b\":{},\"c\":{},\"d\":{},"
				       "\"e\":{}}"),
			 -EINVAL);
	assert_int_equal(update(f, id, "{\"rbd\":{\"k\":1}}"), -EINVAL);
	assert_int_equal(update(f, id, "[1]"), -EINVAL);
	assert_int_equal(update(f, id, "{\"rbd\":"), -EINVAL);

	/* kept across a reopen, in cluster.json */
	fx_close(f);
	fx_open(f);
	pool_apps(f, id, buf, sizeof(buf));
	assert_string_equal(buf, "{\"rbd\":{\"k\":\"v\"}}");

	/* fs add_data_pool adds cephfs beside rbd */
	assert_int_equal(cfs_fs_add_data_pool(f->c, id, why, sizeof(why)), 0);
	{
		const cfs_osdmap *m = cfs_osdmap_get(f->c);

		assert_int_equal(cfs_pool_app_names(cfs_osdmap_pool_by_id(m,
									  id),
						    names, sizeof(names)),
				 2);
		assert_string_equal(names, "cephfs,rbd");
		cfs_osdmap_put(m);
	}
	fx_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_apps_kept_and_checked),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
