/*
 * test_rados_dl.c - librados loaded on first use (ceph/rados_dl.c): the
 * process starts without it, the first load resolves every call ceph/
 * makes, a second load is the first one's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "ceph_i.h"

/* whether a library whose name holds what is mapped in this process */
static int mapped(const char *what)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4096];
	int found = 0;

	assert_non_null(f);
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, what) != NULL;
	fclose(f);
	return found;
}

static void test_load(void **state)
{
	char err[512] = "";

	(void)state;
	assert_false(mapped("librados"));
	assert_int_equal(ceph_rados_load(err, sizeof(err)), 0);
	assert_string_equal(err, "");
	assert_true(mapped("librados"));
#define CHECK(f) assert_non_null(ceph_rados.f);
	CEPH_RADOS_CALLS(CHECK)
#undef CHECK
	assert_int_equal(ceph_rados_load(err, sizeof(err)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
