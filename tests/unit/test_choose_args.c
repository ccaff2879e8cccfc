/*
 * test_choose_args.c - choose_args: which set a mapping uses, what the
 * weight sets and ids do to a straw2 draw, and the binary form.  (Byte-
 * exact agreement with crushtool is the golden vectors' job; these pin the
 * behaviour each piece is responsible for.)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "placement.h"

/* modern tunables: no local fallback, whose permutation ignores weights */
static const char HDR[] =
	"tunable choose_local_tries 0\ntunable choose_local_fallback_tries 0\n"
	"tunable choose_total_tries 50\n"
	"device 0 osd.0\ndevice 1 osd.1\ndevice 2 osd.2\n"
	"type 0 osd\ntype 1 host\n"
	"host a { alg straw2 item osd.0 item osd.1 item osd.2 }\n"
	"host l { id -2 alg list item osd.0 item osd.1 }\n"
	"rule r { id 0 type replicated min_size 1 max_size 3 "
	"step take a step choose firstn 0 type osd step emit }\n"
	"rule lr { id 1 type replicated min_size 1 max_size 3 "
	"step take l step choose firstn 0 type osd step emit }\n";

static pl_map *parse(const char *tail)
{
	char text[4096], err[256];
	pl_map *m = NULL;
	int r;

	snprintf(text, sizeof(text), "%s%s", HDR, tail);
	r = pl_parse_text(text, strlen(text), "t.txt", &m, err, sizeof(err));
	if (r)
		fail_msg("%s", err);
	return m;
}

struct mapper {
	void *work;
	uint32_t w[3];
};

static int map_x(const pl_map *m, struct mapper *mp, int rule, int x,
		 int *out, int n, const pl_choose_args *ca)
{
	size_t sz = pl_work_size(m, 3);

	if (!mp->work) {
		mp->work = malloc(sz);
		assert_non_null(mp->work);
		assert_int_equal(pl_work_init(m, mp->work, 3), 0);
		mp->w[0] = mp->w[1] = mp->w[2] = 0x10000;
	}
	return pl_do_rule_args(m, rule, x, out, n, mp->w, 3, mp->work, ca);
}

/* crushtool reads a choose_args id with strtol (saturating at LONG_MAX)
 * into an int: every id past LONG_MAX is -1, also one past ULLONG_MAX,
 * whose digits must not wrap on the way (a fuzzer found a 20-digit id
 * that printed as another number than it read back as). */
static void test_huge_ids(void **state)
{
	static const char *const ids[] = { "18446794073709551615",
					   "18446744073709551615",
					   "99999999999999999999999",
					   "9223372036854775808" };

	(void)state;
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		char text[128];
		pl_map *m;

		snprintf(text, sizeof(text), "choose_args %s { }\n", ids[i]);
		m = parse(text);
		assert_int_equal(pl_map_choose_args_count(m), 1);
		assert_int_equal(pl_map_choose_args_id(m, 0), -1);
		pl_map_destroy(m);
	}
}

/* Ceph's choose_args_get_with_fallback: the id's set, else the default. */
static void test_lookup_and_fallback(void **state)
{
	pl_map *m = parse("choose_args 18446744073709551615 { }\n"
			  "choose_args 5 { }\n");
	pl_map *plain = parse("");

	(void)state;
	assert_int_equal(pl_map_choose_args_count(m), 2);
	/* signed order, as Ceph's std::map<int64_t, ...> */
	assert_int_equal(pl_map_choose_args_id(m, 0), -1);
	assert_int_equal(pl_map_choose_args_id(m, 1), 5);
	assert_ptr_equal(pl_map_choose_args_for(m, 5),
			 pl_map_choose_args(m, 5));
	assert_ptr_equal(pl_map_choose_args_for(m, 7),
			 pl_map_choose_args(m, PL_DEFAULT_CHOOSE_ARGS));
	assert_non_null(pl_map_choose_args(m, -1));
	assert_null(pl_map_choose_args(m, 7));
	assert_null(pl_map_choose_args_for(plain, 0));
	pl_map_destroy(m);
	pl_map_destroy(plain);
}

/* Position p draws with weight_set[p]; positions past the last use the
 * last one. */
static void test_positions(void **state)
{
	pl_map *m = parse("choose_args 1 { { bucket_id -1 weight_set [\n"
			  "  [ 0 0 1 ] [ 0 1 0 ] ] } }\n");
	pl_map *one = parse("choose_args 1 { { bucket_id -1 weight_set [\n"
			    "  [ 0 0 1 ] ] } }\n");
	struct mapper a = { 0 }, b = { 0 };
	int out[3];

	(void)state;
	for (int x = 0; x < 200; x++) {
		int n = map_x(m, &a, 0, x, out, 3,
			      pl_map_choose_args(m, 1));

		/* 0: osd.2 only; 1: osd.1 only; 2 (uses set 1): osd.1
		 * collides, so two items at most */
		assert_int_equal(n, 2);
		assert_int_equal(out[0], 2);
		assert_int_equal(out[1], 1);
		/* one position serves all: only osd.2 can be drawn */
		n = map_x(one, &b, 0, x, out, 3,
			  pl_map_choose_args(one, 1));
		assert_int_equal(n, 1);
		assert_int_equal(out[0], 2);
	}
	free(a.work);
	free(b.work);
	pl_map_destroy(m);
	pl_map_destroy(one);
}

/* ids replace the items in the hash only: the items themselves as ids
 * change nothing, other ids change the draw but still return items. */
static void test_ids(void **state)
{
	pl_map *same = parse("choose_args 1 { { bucket_id -1 ids [ 0 1 2 ] } }\n");
	pl_map *other = parse("choose_args 1 { { bucket_id -1 ids [ -7 9 "
			      "1000 ] } }\n");
	struct mapper ms = { 0 }, mo = { 0 }, mp = { 0 };
	int o1[3], o2[3], o3[3], differ = 0;

	(void)state;
	for (int x = 0; x < 500; x++) {
		int n1 = map_x(same, &mp, 0, x, o1, 3, NULL);
		int n2 = map_x(same, &ms, 0, x, o2, 3,
			       pl_map_choose_args(same, 1));
		int n3 = map_x(other, &mo, 0, x, o3, 3,
			       pl_map_choose_args(other, 1));

		assert_int_equal(n1, 3);
		assert_int_equal(n2, 3);
		assert_memory_equal(o1, o2, sizeof(o1));
		assert_int_equal(n3, 3);
		for (int i = 0; i < 3; i++)
			assert_in_range(o3[i], 0, 2);
		if (memcmp(o1, o3, sizeof(o1)))
			differ++;
	}
	assert_true(differ > 100);
	free(ms.work);
	free(mo.work);
	free(mp.work);
	pl_map_destroy(same);
	pl_map_destroy(other);
}

/* The read-only accessors the dumps use (osd crush dump / tree) give back
 * what the text set: positions, weights (16.16) and ids; a bucket without
 * an entry, a device id or an absent set has none. */
static void test_accessors(void **state)
{
	pl_map *m = parse("choose_args 1 { { bucket_id -1 weight_set [\n"
			  "  [ 0.5 1 2 ] [ 3 0 1.25 ] ] ids [ -7 9 1000 ] } }\n");
	const pl_choose_args *ca = pl_map_choose_args(m, 1);
	int npos, nw, nids;

	(void)state;
	assert_non_null(ca);
	assert_int_equal(pl_choose_args_entry(ca, -1, &npos, &nw, &nids), 1);
	assert_int_equal(npos, 2);
	assert_int_equal(nw, 3);
	assert_int_equal(nids, 3);
	assert_int_equal(pl_choose_args_weight(ca, -1, 0, 0), 0x8000);
	assert_int_equal(pl_choose_args_weight(ca, -1, 0, 2), 0x20000);
	assert_int_equal(pl_choose_args_weight(ca, -1, 1, 2), 0x14000);
	assert_int_equal(pl_choose_args_weight(ca, -1, 2, 0), 0);
	assert_int_equal(pl_choose_args_id(ca, -1, 0), -7);
	assert_int_equal(pl_choose_args_id(ca, -1, 2), 1000);
	assert_int_equal(pl_choose_args_entry(ca, -2, &npos, &nw, &nids), 0);
	assert_int_equal(npos + nw + nids, 0);
	assert_int_equal(pl_choose_args_entry(ca, 0, &npos, &nw, &nids), 0);
	assert_int_equal(pl_choose_args_entry(NULL, -1, &npos, &nw, &nids),
			 0);
	pl_map_destroy(m);
}

/* A list bucket ignores its args (only straw2 reads them), and crushtool
 * -d does not print them (Ceph's decoder drops them). */
static void test_non_straw2_ignored(void **state)
{
	pl_map *m = parse("choose_args 1 { { bucket_id -2 weight_set [\n"
			  "  [ 0 1 ] ] } }\n");
	struct mapper a = { 0 }, b = { 0 };
	int o1[3], o2[3];
	char *text;

	(void)state;
	for (int x = 0; x < 200; x++) {
		int n1 = map_x(m, &a, 1, x, o1, 2, NULL);
		int n2 = map_x(m, &b, 1, x, o2, 2, pl_map_choose_args(m, 1));

		assert_int_equal(n1, n2);
		assert_memory_equal(o1, o2, (size_t)n1 * sizeof(int));
	}
	assert_int_equal(pl_map_to_text(m, &text, NULL), 0);
	assert_non_null(strstr(text, "choose_args 1 {\n}\n"));
	assert_null(strstr(text, "bucket_id -2"));
	free(text);
	free(a.work);
	free(b.work);
	pl_map_destroy(m);
}

/* The binary form reads back to the same map (and the same bytes);
 * damaged sets are refused with the byte offset. */
static void test_binary(void **state)
{
	pl_map *m = parse("choose_args 18446744073709551615 { { bucket_id -1 "
			  "weight_set [ [ 1 2 3 ] [ 3 2 1 ] ] ids [ 5 6 7 ] } }\n");
	pl_map *d = NULL;
	void *bin, *bin2;
	size_t len, len2, at;
	char err[256];
	uint8_t *p;
	char *t1, *t2;

	(void)state;
	assert_int_equal(pl_map_encode(m, &bin, &len), 0);
	assert_int_equal(pl_map_decode(bin, len, "m.bin", &d, err, sizeof(err)),
			 0);
	assert_int_equal(pl_map_encode(d, &bin2, &len2), 0);
	assert_int_equal(len, len2);
	assert_memory_equal(bin, bin2, len);
	assert_int_equal(pl_map_to_text(m, &t1, NULL), 0);
	assert_int_equal(pl_map_to_text(d, &t2, NULL), 0);
	assert_string_equal(t1, t2);
	assert_non_null(strstr(t1, "choose_args 18446744073709551615 {"));
	pl_map_destroy(d);
	d = NULL;

	/* the layout's tail: ... u32 index 0, u32 positions 2, (u32 3,
	 * 3 weights) x 2, u32 ids_size 3, 3 ids = 56 bytes from the end */
	p = bin;
	at = len - 56;
	assert_int_equal(p[at], 0);
	p[at] = 200; /* bucket index past max_buckets */
	assert_int_not_equal(pl_map_decode(bin, len, "m.bin", &d, err,
					   sizeof(err)), 0);
	assert_null(d);
	assert_non_null(strstr(err, "past max_buckets"));
	p[at] = 0;
	p[len - 16] = 2; /* ids_size 3 -> 2 for a bucket of 3 */
	assert_int_not_equal(pl_map_decode(bin, len, "m.bin", &d, err,
					   sizeof(err)), 0);
	assert_non_null(strstr(err, "2 ids for 3 items"));
	p[len - 16] = 3;
	assert_int_not_equal(pl_map_decode(bin, len - 3, "m.bin", &d, err,
					   sizeof(err)), 0);
	assert_non_null(strstr(err, "truncated at byte"));
	free(t1);
	free(t2);
	free(bin);
	free(bin2);
	pl_map_destroy(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_huge_ids),
		cmocka_unit_test(test_lookup_and_fallback),
		cmocka_unit_test(test_positions),
		cmocka_unit_test(test_ids),
		cmocka_unit_test(test_non_straw2_ignored),
		cmocka_unit_test(test_accessors),
		cmocka_unit_test(test_binary),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
