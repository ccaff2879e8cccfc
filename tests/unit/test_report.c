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
	assert_int_equal(rp_html(f->c, f->ol, -1, NULL, 0, &html, &len), 0);
	assert_int_equal(strlen(html), len);
	assert_non_null(strstr(html, "<!DOCTYPE html>"));
	for (int i = 0; i < 12; i++) {
		snprintf(needle, sizeof(needle),
			 "class=\"osd\" data-osd=\"%d\" data-used=", i);
		assert_non_null(strstr(html, needle));
		/* a tile in each view, the weight's and the capacity's */
		snprintf(needle, sizeof(needle), "\" data-osd=\"%d\" data-pct=",
			 i);
		assert_non_null(strstr(html, needle));
		assert_non_null(strstr(strstr(html, needle) + 1, needle));
	}
	for (int h = 0; h < 4; h++) {
		snprintf(needle, sizeof(needle),
			 "data-type=\"host\" data-name=\"host%d\"", h);
		assert_non_null(strstr(html, needle));
	}
	assert_non_null(strstr(html, "id=\"fills-first\" data-osd=\"5\""));
	assert_non_null(strstr(html, "osd.5 fills first"));
	/* its weight is a 64 MiB OSD's: flagged; the others are not */
	assert_non_null(strstr(html, "mismatch\" data-osd=\"5\""));
	assert_null(strstr(html, "mismatch\" data-osd=\"4\""));
	assert_non_null(strstr(html, "<tr class=\"pool\" data-pool="
				     "\"crushfs_data\""));
	assert_non_null(strstr(html, "id=\"health-checks\""));
	assert_null(strstr(html, "data-code=\"OSD_DOWN\""));
	assert_null(strstr(html, "src="));
	assert_null(strstr(html, "href="));
	assert_null(strstr(html, "<script"));
	assert_null(strstr(html, "id=\"files\""));
	free(html);
	/* nearfull: osd.6 given 100/88 of what it holds (between nearfull
	 * 0.85 and backfillfull 0.90): its tile outlined, its check listed */
	{
		struct cfs_osd_usage u;

		cfs_osd_usage(f->c, 6, &u);
		assert_true(u.used > 0);
		assert_int_equal(cfs_osd_set_capacity(f->c, 6,
						      u.used * 100 / 88), 0);
		assert_int_equal(rp_html(f->c, f->ol, -1, NULL, 0, &html, &len), 0);
		/* (and flagged: its weight is a 64 MiB OSD's) */
		assert_non_null(strstr(html, "class=\"osd-cell up nearfull "
					     "mismatch\" data-osd=\"6\""));
		assert_non_null(strstr(html, "data-code=\"OSD_NEARFULL\""));
		assert_non_null(strstr(html, "class=\"osd-cell up\" "
					     "data-osd=\"4\""));
		free(html);
	}
	/* down: its check with its detail line, its tile marked */
	assert_int_equal(cfs_osd_mark_down(f->c, 7), 0);
	assert_int_equal(rp_html(f->c, f->ol, -1, NULL, 0, &html, &len), 0);
	assert_non_null(strstr(html, "data-code=\"OSD_DOWN\""));
	assert_non_null(strstr(html, "<li>osd.7 ("));
	assert_non_null(strstr(html, "class=\"osd-cell down\" data-osd=\"7\""));
	free(html);
	/* with an OSD: its files, most objects first */
	{
		const struct rp_file files[] = { { "/a", 1 }, { "/b/c", 3 },
						  { "/d", 2 } };
		const char *p1, *p2, *p3;

		assert_int_equal(rp_html(f->c, f->ol, 5, files, 3, &html, &len), 0);
		assert_non_null(strstr(html, "id=\"files\" data-osd=\"5\" "
					     "data-files=\"3\""));
		p1 = strstr(html, "<td class=\"l\">/b/c<");
		p2 = strstr(html, "<td class=\"l\">/d<");
		p3 = strstr(html, "<td class=\"l\">/a<");
		assert_true(p1 && p2 && p3 && p1 < p2 && p2 < p3);
		free(html);
	}
	fx_free(f);
}

/* the weight view's tiles: area over crush weight the same for all, a
 * heavier OSD a bigger tile; every pool listed */
static void test_tiles_and_pools(void **state)
{
	struct fixture *f = fx_new(NULL);
	struct cfs_pool_info want;
	char err[256] = "", *html = NULL;
	const char *p, *end;
	double ratio[16] = { 0 };
	int64_t id;
	size_t len;
	int n = 0;
	const cfs_osdmap *m = cfs_osdmap_get(f->c);

	(void)state;
	memset(&want, 0, sizeof(want));
	snprintf(want.name, sizeof(want.name), "two");
	want.size = 2;
	want.min_size = 1;
	want.pg_num = want.pgp_num = 8;
	want.crush_rule = cfs_osdmap_pool(m)->crush_rule;
	cfs_osdmap_put(m);
	if (cfs_pool_create(f->c, &want, &id, err, sizeof(err)))
		fail_msg("pool create: %s", err);
	assert_int_equal(cfs_osd_crush_reweight(f->c, 2, 3 * 65), 0);
	assert_int_equal(rp_html(f->c, f->ol, -1, NULL, 0, &html, &len), 0);
	assert_non_null(strstr(html, "data-pool=\"crushfs_data\""));
	assert_non_null(strstr(html, "data-pool=\"two\""));
	p = strstr(html, "id=\"treemap-weight\"");
	end = strstr(html, "id=\"treemap-capacity\"");
	assert_true(p && end && p < end);
	while ((p = strstr(p, "data-osd=\"")) && p < end) {
		int osd;
		double w, area;

		assert_int_equal(sscanf(p, "data-osd=\"%d\" data-pct=\"%*f\" "
					   "data-weight=\"%lf\" data-capacity="
					   "\"%*u\" data-area=\"%lf\"",
					&osd, &w, &area),
				 3);
		assert_true(osd >= 0 && osd < 16 && w > 0);
		ratio[osd] = area / w;
		n++;
		p++;
	}
	assert_int_equal(n, 12);
	for (int i = 1; i < 12; i++)
		assert_true(ratio[i] > ratio[0] * 0.99 &&
			    ratio[i] < ratio[0] * 1.01);
	free(html);
	/* weight 0: no area, named under the view */
	assert_int_equal(cfs_osd_crush_reweight(f->c, 11, 0), 0);
	assert_int_equal(rp_html(f->c, f->ol, -1, NULL, 0, &html, &len), 0);
	p = strstr(html, "id=\"treemap-weight\"");
	end = strstr(html, "id=\"treemap-capacity\"");
	assert_true(p && end && p < end);
	assert_true(!strstr(p, "data-osd=\"11\"") ||
		    strstr(p, "data-osd=\"11\"") > end);
	assert_non_null(strstr(html, "id=\"zero-weight\">crush weight 0, "
				     "no tile in this view: osd.11<"));
	free(html);
	fx_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_page),
		cmocka_unit_test(test_tiles_and_pools),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
