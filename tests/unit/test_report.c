/*
 * test_report.c - the HTML report (report/): the page carries every OSD,
 * the tree's hosts and the OSD that fills first, with the figures of the
 * cluster it was built from, and nothing that points outside itself.
 * (The browser's view of it is tests/integ/report_browser.sh.)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cluster_fixture.h"
#include "report.h"

#define DATA_POOL 1 /* the pool mkfs makes */

static void test_page(void **state)
{
	struct fixture *f = fx_new(NULL);
	char buf[65536], needle[128], *html = NULL;
	size_t len = 0;

	(void)state;
	fx_pattern(buf, sizeof(buf), 7);
	for (int i = 0; i < 20; i++) {
		snprintf(needle, sizeof(needle), "obj%d", i);
		assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, needle, buf,
						   sizeof(buf)),
				 0);
	}
	/* a small OSD: it fills first */
	assert_int_equal(cfs_osd_set_capacity(f->c, 5, 8ULL << 20), 0);
	assert_int_equal(rp_html(f->c, -1, NULL, 0, &html, &len), 0);
	assert_int_equal(strlen(html), len);
	assert_non_null(strstr(html, "<!DOCTYPE html>"));
	for (int i = 0; i < 12; i++) {
		snprintf(needle, sizeof(needle),
			 "class=\"osd\" data-osd=\"%d\" data-used=", i);
		assert_non_null(strstr(html, needle));
		snprintf(needle, sizeof(needle),
			 "class=\"osd-cell\" data-osd=\"%d\"", i);
		assert_non_null(strstr(html, needle));
	}
	for (int h = 0; h < 4; h++) {
		snprintf(needle, sizeof(needle),
			 "data-type=\"host\" data-name=\"host%d\"", h);
		assert_non_null(strstr(html, needle));
	}
	assert_non_null(strstr(html, "id=\"fills-first\" data-osd=\"5\""));
	assert_non_null(strstr(html, "osd.5 fills first"));
	assert_null(strstr(html, "src="));
	assert_null(strstr(html, "href="));
	assert_null(strstr(html, "<script"));
	assert_null(strstr(html, "id=\"files\""));
	free(html);
	/* with an OSD: its files, most objects first */
	{
		const struct rp_file files[] = { { "/a", 1 }, { "/b/c", 3 },
						  { "/d", 2 } };
		const char *p1, *p2, *p3;

		assert_int_equal(rp_html(f->c, 5, files, 3, &html, &len), 0);
		assert_non_null(strstr(html, "id=\"files\" data-osd=\"5\" "
					     "data-files=\"3\""));
		p1 = strstr(html, "<td style=\"text-align:left\">/b/c<");
		p2 = strstr(html, "<td style=\"text-align:left\">/d<");
		p3 = strstr(html, "<td style=\"text-align:left\">/a<");
		assert_true(p1 && p2 && p3 && p1 < p2 && p2 < p3);
		free(html);
	}
	fx_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_page),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
