/*
 * test_decompile.c - pl_map_to_text() against crushtool -d.
 *
 * tests/golden/decompiled/NAME.txt is what `crushtool -d` (Ceph 16.2.15)
 * printed for `crushtool -c maps/NAME.txt` (tests/golden/gen_decompiled.sh),
 * so parsing each golden map and writing it back must reproduce that file
 * byte for byte.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "placement.h"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = 0;
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static void test_golden_maps_round_trip(void **state)
{
	const char *src = getenv("CRUSHFS_SRC");
	char dir[4096], path[8192], expect[8192], err[512];
	struct dirent *de;
	DIR *d;
	int checked = 0;

	(void)state;
	assert_non_null(src);
	snprintf(dir, sizeof(dir), "%s/tests/golden/maps", src);
	d = opendir(dir);
	assert_non_null(d);
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name), flen, tlen;
		char *file, *text;
		pl_map *m;

		if (n < 4 || strcmp(de->d_name + n - 4, ".txt"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		snprintf(expect, sizeof(expect), "%s/../decompiled/%s", dir,
			 de->d_name);
		assert_int_equal(pl_parse_file(path, &m, err, sizeof(err)), 0);
		assert_int_equal(pl_map_to_text(m, &text, &tlen), 0);
		file = slurp(expect, &flen);
		if (tlen != flen || memcmp(text, file, flen))
			fail_msg("%s: pl_map_to_text differs from crushtool -d",
				 de->d_name);
		free(text);
		free(file);
		pl_map_destroy(m);
		checked++;
	}
	closedir(d);
	assert_true(checked >= 30);
}

/* a map without a type 0 gets crushtool's "type 0 osd" line */
static void test_unnamed_type0(void **state)
{
	const char *txt = "device 0 osd.0\ntype 1 host\n"
			  "host h {\n\tid -1\n\talg straw2\n\titem osd.0 weight 1\n}\n";
	char err[256], *out;
	size_t len;
	pl_map *m;

	(void)state;
	assert_int_equal(pl_parse_text(txt, strlen(txt), "t", &m, err,
				       sizeof(err)), 0);
	assert_int_equal(pl_map_to_text(m, &out, &len), 0);
	assert_non_null(strstr(out, "# types\ntype 0 osd\ntype 1 host\n"));
	free(out);
	pl_map_destroy(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden_maps_round_trip),
		cmocka_unit_test(test_unnamed_type0),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
