/*
 * test_parse.c - the crush map text parser (placement/parse.c).
 *
 * Good maps must give the map `crushtool -c` (Ceph 16.2) gives: every
 * expected number below was read back from crushtool's own compilation
 * (`crushtool -c x.txt -o x.bin; crushtool -i x.bin --dump`).  Bad maps
 * must give exactly one "FILE:LINE:COL: error: ..." line and -EINVAL.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <cmocka.h>

#include "placement.h"

#define W1 0x10000u

static pl_map *parse_ok(const char *text)
{
	char err[512] = "";
	pl_map *m = NULL;
	int r = pl_parse_text(text, strlen(text), "good.txt", &m, err,
			      sizeof(err));

	if (r)
		print_error("unexpected parse error: %s\n", err);
	assert_int_equal(r, 0);
	assert_non_null(m);
	assert_string_equal(err, "");
	return m;
}

static void parse_err_n(const char *text, size_t len, const char *expect)
{
	char err[512] = "";
	pl_map *m = NULL;
	int r = pl_parse_text(text, len, "bad.txt", &m, err, sizeof(err));

	if (r == 0)
		pl_map_destroy(m);
	assert_int_equal(r, -EINVAL);
	assert_null(m);
	assert_string_equal(err, expect);
	assert_null(strchr(err, '\n'));
}

static void parse_err(const char *text, const char *expect)
{
	parse_err_n(text, strlen(text), expect);
}

static int item_id(const pl_map *m, const char *name)
{
	int id = 0x7fffffff;

	assert_int_equal(pl_map_item_by_name(m, name, &id), 0);
	return id;
}

/* ------------------------------------------------------------------ */
/* good maps                                                           */

static const char full_map[] =
	"# begin crush map\n"
	"tunable straw_calc_version 1   # trailing comment\n"
	"\n"
	"# devices: ids with gaps, osd.7 in no bucket\n"
	"device 0 osd.0\n"
	"device 1 osd.1\n"
	"device 2 osd.2\n"
	"device 4 osd.4\n"
	"device 7 osd.7\n"
	"\n"
	"type 0 osd\n"
	"type 1 host\n"
	"type 10 root\n"
	"\n"
	"host a {\n"
	"\tid -2\t\t# do not change unnecessarily\n"
	"\talg straw\n"
	"\thash 0\t# rjenkins1\n"
	"\titem osd.0 weight 0.001\n"
	"\titem osd.1 weight 0.123\n"
	"}\n"
	"host b { alg list item osd.2 weight 1.7 item osd.4 weight 1e-5 }\n"
	"root default {\n"
	"\tid -1\n"
	"\talg straw2\n"
	"\thash rjenkins1\n"
	"\titem a\n"
	"\titem b weight 2.5\n"
	"}\n"
	"rule replicated_rule {\n"
	"\tid 0\n"
	"\ttype replicated\n"
	"\tmin_size 1\n"
	"\tmax_size 10\n"
	"\tstep take default\n"
	"\tstep chooseleaf firstn 0 type host\n"
	"\tstep emit\n"
	"}\n"
	"rule ec {\n"
	"\truleset 3\n"
	"\ttype erasure\n"
	"\tmin_size 3\n"
	"\tmax_size 6\n"
	"\tstep set_chooseleaf_tries 5\n"
	"\tstep set_choose_tries 100\n"
	"\tstep take default\n"
	"\tstep chooseleaf indep 0 type host\n"
	"\tstep emit\n"
	"}\n"
	"# end crush map\n";

static void test_full_map(void **state)
{
	pl_map *m = parse_ok(full_map);
	struct pl_tunables t;
	const struct pl_rule_step *s;
	int type;

	(void)state;
	/* legacy tunables (crushtool -c starts from them) + the one line */
	pl_map_get_tunables(m, &t);
	assert_int_equal(t.choose_local_tries, 2);
	assert_int_equal(t.choose_local_fallback_tries, 5);
	assert_int_equal(t.choose_total_tries, 19);
	assert_int_equal(t.chooseleaf_descend_once, 0);
	assert_int_equal(t.chooseleaf_vary_r, 0);
	assert_int_equal(t.chooseleaf_stable, 0);
	assert_int_equal(t.straw_calc_version, 1);
	assert_int_equal(t.allowed_bucket_algs, 22);

	/* devices: max_devices covers the unbucketed osd.7 */
	assert_int_equal(pl_map_max_devices(m), 8);
	assert_string_equal(pl_map_item_name(m, 4), "osd.4");
	assert_null(pl_map_item_name(m, 3));
	assert_true(pl_map_device_declared(m, 7));
	assert_false(pl_map_device_in_buckets(m, 7));
	assert_true(pl_map_device_in_buckets(m, 4));

	assert_string_equal(pl_map_type_name(m, 10), "root");
	assert_int_equal(pl_map_type_by_name(m, "host", &type), 0);
	assert_int_equal(type, 1);

	/* host a: explicit id, straw, fractional weights */
	assert_int_equal(item_id(m, "a"), -2);
	assert_int_equal(pl_map_bucket_alg(m, -2), PL_BUCKET_STRAW);
	assert_int_equal(pl_map_bucket_type(m, -2), 1);
	assert_int_equal(pl_map_bucket_size(m, -2), 2);
	assert_int_equal(pl_map_bucket_item(m, -2, 0), 0);
	assert_int_equal(pl_map_bucket_item(m, -2, 1), 1);
	assert_int_equal(pl_map_bucket_item_weight(m, -2, 0), 65);
	assert_int_equal(pl_map_bucket_item_weight(m, -2, 1), 8060);
	assert_int_equal(pl_map_bucket_weight(m, -2), 8125);

	/* host b: no id; -1 and -2 are reserved by later/earlier id lines */
	assert_int_equal(item_id(m, "b"), -3);
	assert_int_equal(pl_map_bucket_alg(m, -3), PL_BUCKET_LIST);
	assert_int_equal(pl_map_bucket_item(m, -3, 0), 2);
	assert_int_equal(pl_map_bucket_item(m, -3, 1), 4);
	assert_int_equal(pl_map_bucket_item_weight(m, -3, 0), 111411);
	assert_int_equal(pl_map_bucket_item_weight(m, -3, 1), 0);

	/* root: "item a" without weight gets a's weight */
	assert_int_equal(item_id(m, "default"), -1);
	assert_int_equal(pl_map_bucket_alg(m, -1), PL_BUCKET_STRAW2);
	assert_int_equal(pl_map_bucket_type(m, -1), 10);
	assert_int_equal(pl_map_bucket_item(m, -1, 0), -2);
	assert_int_equal(pl_map_bucket_item_weight(m, -1, 0), 8125);
	assert_int_equal(pl_map_bucket_item(m, -1, 1), -3);
	assert_int_equal(pl_map_bucket_item_weight(m, -1, 1), 163840);
	assert_int_equal(pl_map_bucket_weight(m, -1), 171965);

	/* rules */
	assert_int_equal(pl_map_max_rules(m), 4);
	assert_false(pl_map_rule_exists(m, 1));
	assert_string_equal(pl_map_rule_name(m, 0), "replicated_rule");
	assert_int_equal(pl_map_rule_type(m, 0), PL_RULE_TYPE_REPLICATED);
	assert_int_equal(pl_map_rule_min_size(m, 0), 1);
	assert_int_equal(pl_map_rule_max_size(m, 0), 10);
	assert_int_equal(pl_map_rule_len(m, 0), 3);
	s = pl_map_rule_step(m, 0, 0);
	assert_int_equal(s->op, PL_RULE_TAKE);
	assert_int_equal(s->arg1, -1);
	s = pl_map_rule_step(m, 0, 1);
	assert_int_equal(s->op, PL_RULE_CHOOSELEAF_FIRSTN);
	assert_int_equal(s->arg1, 0);
	assert_int_equal(s->arg2, 1);
	assert_int_equal(pl_map_rule_step(m, 0, 2)->op, PL_RULE_EMIT);

	assert_string_equal(pl_map_rule_name(m, 3), "ec");
	assert_int_equal(pl_map_rule_type(m, 3), PL_RULE_TYPE_ERASURE);
	assert_int_equal(pl_map_rule_min_size(m, 3), 3);
	assert_int_equal(pl_map_rule_max_size(m, 3), 6);
	assert_int_equal(pl_map_rule_len(m, 3), 5);
	s = pl_map_rule_step(m, 3, 0);
	assert_int_equal(s->op, PL_RULE_SET_CHOOSELEAF_TRIES);
	assert_int_equal(s->arg1, 5);
	s = pl_map_rule_step(m, 3, 1);
	assert_int_equal(s->op, PL_RULE_SET_CHOOSE_TRIES);
	assert_int_equal(s->arg1, 100);
	s = pl_map_rule_step(m, 3, 3);
	assert_int_equal(s->op, PL_RULE_CHOOSELEAF_INDEP);
	assert_int_equal(s->arg2, 1);
	pl_map_destroy(m);
}

static void test_no_tunables_is_legacy(void **state)
{
	pl_map *m = parse_ok("type 0 osd\ntype 1 host\n");
	struct pl_tunables t, legacy;

	(void)state;
	pl_map_get_tunables(m, &t);
	assert_int_equal(pl_tunables_profile("legacy", &legacy), 0);
	assert_int_equal(t.choose_local_tries, legacy.choose_local_tries);
	assert_int_equal(t.choose_local_fallback_tries,
			 legacy.choose_local_fallback_tries);
	assert_int_equal(t.choose_total_tries, legacy.choose_total_tries);
	assert_int_equal(t.chooseleaf_descend_once,
			 legacy.chooseleaf_descend_once);
	assert_int_equal(t.chooseleaf_vary_r, 0);
	assert_int_equal(t.chooseleaf_stable, 0);
	assert_int_equal(t.straw_calc_version, 0);
	assert_int_equal(t.allowed_bucket_algs, 22);
	pl_map_destroy(m);
}

static void test_tunables(void **state)
{
	pl_map *m = parse_ok("tunable choose_local_tries 0\n"
			     "tunable choose_local_fallback_tries 0\n"
			     "tunable choose_total_tries 50\n"
			     "tunable chooseleaf_descend_once 2\n"
			     "tunable chooseleaf_vary_r 257\n"
			     "tunable chooseleaf_stable 1\n"
			     "tunable straw_calc_version 1\n"
			     "tunable allowed_bucket_algs 54\n");
	struct pl_tunables t;

	(void)state;
	pl_map_get_tunables(m, &t);
	assert_int_equal(t.choose_local_tries, 0);
	assert_int_equal(t.choose_local_fallback_tries, 0);
	assert_int_equal(t.choose_total_tries, 50);
	/* Ceph stores !!n for descend_once and truncates the u8 ones */
	assert_int_equal(t.chooseleaf_descend_once, 1);
	assert_int_equal(t.chooseleaf_vary_r, 1);
	assert_int_equal(t.chooseleaf_stable, 1);
	assert_int_equal(t.straw_calc_version, 1);
	assert_int_equal(t.allowed_bucket_algs, 54);
	pl_map_destroy(m);
}

/* Weight text -> 16.16 as (unsigned)(strtof(text) * (float)0x10000). */
static void test_weights(void **state)
{
	static const struct {
		const char *text;
		uint32_t w;
	} cases[] = {
		{ "0.001", 65 },      { "0.123", 8060 },
		{ "1.7", 111411 },    { "2.5", 163840 },
		{ "1e-5", 0 },        { "1.", 65536 },
		{ ".5", 32768 },      { "+1", 65536 },
		{ "100", 6553600 },   { "3.14159", 205887 },
		{ "-0.00001", 0 },    { "0.0000153", 1 },
		{ "0.99999", 65535 }, { "1E2", 6553600 },
		/* float, not double: double would give 196607 */
		{ "2.99999999", 196608 },
	};
	char text[256];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		pl_map *m;

		snprintf(text, sizeof(text),
			 "device 0 osd.0\ntype 0 osd\ntype 1 host\n"
			 "host h { alg straw2 item osd.0 weight %s }\n",
			 cases[i].text);
		m = parse_ok(text);
		if (pl_map_bucket_item_weight(m, -1, 0) != cases[i].w)
			print_error("weight %s\n", cases[i].text);
		assert_int_equal(pl_map_bucket_item_weight(m, -1, 0),
				 cases[i].w);
		pl_map_destroy(m);
	}
}

/* Ids: every "id" line in the file is reserved up front (the last one of
 * a bucket is its id), the others get the first free id from -1 down. */
static void test_auto_ids(void **state)
{
	pl_map *m = parse_ok(
		"device 0 osd.0\ndevice 1 osd.1\ndevice 2 osd.2\n"
		"device 3 osd.3\ntype 0 osd\ntype 1 host\ntype 2 root\n"
		"host a { alg straw2 item osd.0 }\n"
		"host b { id -1 alg straw2 item osd.1 }\n"
		"host c { alg straw2 item osd.2 }\n"
		"host d { id -5 id -2 alg straw2 item osd.3 }\n"
		"host e { id -0 alg straw2 }\n"
		"root r { alg straw2 item a item b item c item d }\n");

	(void)state;
	assert_int_equal(item_id(m, "a"), -3);
	assert_int_equal(item_id(m, "b"), -1);
	assert_int_equal(item_id(m, "c"), -4);
	assert_int_equal(item_id(m, "d"), -2);
	assert_int_equal(item_id(m, "e"), -6); /* "id -0" means none */
	assert_int_equal(item_id(m, "r"), -7);
	assert_false(pl_map_bucket_exists(m, -5));
	assert_int_equal(pl_map_bucket_weight(m, -7), 4 * W1);
	pl_map_destroy(m);
}

static void test_pos_and_uniform(void **state)
{
	pl_map *m = parse_ok(
		"device 0 osd.0\ndevice 1 osd.1\ndevice 2 osd.2\n"
		"type 0 osd\ntype 1 host\n"
		"host t { alg tree item osd.0 pos 2 item osd.1 "
		"item osd.2 pos 0 }\n"
		"host u { alg uniform item osd.0 weight 2 item osd.1 weight 2 "
		"item osd.2 weight 2.0 }\n");

	(void)state;
	assert_int_equal(pl_map_bucket_alg(m, -1), PL_BUCKET_TREE);
	assert_int_equal(pl_map_bucket_item(m, -1, 0), 2);
	assert_int_equal(pl_map_bucket_item(m, -1, 1), 1);
	assert_int_equal(pl_map_bucket_item(m, -1, 2), 0);
	assert_int_equal(pl_map_bucket_weight(m, -1), 3 * W1);
	assert_int_equal(pl_map_bucket_alg(m, -2), PL_BUCKET_UNIFORM);
	assert_int_equal(pl_map_bucket_size(m, -2), 3);
	assert_int_equal(pl_map_bucket_item_weight(m, -2, 1), 2 * W1);
	assert_int_equal(pl_map_bucket_weight(m, -2), 6 * W1);
	pl_map_destroy(m);
}

/* crushtool moves a bucket defined after its user in front of it. */
static void test_forward_reference(void **state)
{
	pl_map *m = parse_ok(
		"device 0 osd.0\ndevice 1 osd.1\n"
		"type 0 osd\ntype 1 host\ntype 2 root\n"
		"root r { alg straw2 item a item osd.1 }\n"
		"host a { alg straw2 item osd.0 weight 3 }\n");

	(void)state;
	assert_int_equal(item_id(m, "a"), -1);
	assert_int_equal(item_id(m, "r"), -2);
	assert_int_equal(pl_map_bucket_item(m, -2, 0), -1);
	assert_int_equal(pl_map_bucket_item_weight(m, -2, 0), 3 * W1);
	assert_int_equal(pl_map_bucket_weight(m, -2), 4 * W1);
	pl_map_destroy(m);
}

/* Two names for one device id: both work, the last names the device. */
static void test_duplicate_device_id(void **state)
{
	pl_map *m = parse_ok("device 0 osd.0\ndevice 0 osd.9\n"
			     "type 0 osd\ntype 1 host\n"
			     "host h { alg straw2 item osd.0 item osd.9 }\n");

	(void)state;
	assert_string_equal(pl_map_item_name(m, 0), "osd.9");
	assert_int_equal(pl_map_bucket_item(m, -1, 0), 0);
	assert_int_equal(pl_map_bucket_item(m, -1, 1), 0);
	assert_int_equal(pl_map_max_devices(m), 1);
	pl_map_destroy(m);
}

/* Keywords are matched as prefixes, as Boost.Spirit does: crushtool
 * accepts all of this. */
static void test_spirit_quirks(void **state)
{
	pl_map *m = parse_ok(
		"device0 osd.0\r\n"
		"device 1 osd.1#comment right after a name\r\n"
		"type 0osd\n\v\f"
		"type 1host\n"
		"host h {id -1algstraw2 hash0 itemosd.0 weight1pos1 "
		"item osd.1 weight 2 pos 0}\n"
		"ruler{id 0typereplicated min_size1 max_size 10 steptake h "
		"stepchoosefirstn 0typeosd stepemit}\n"
		"rule { id 1 type replicated min_size 300 max_size 2\n"
		"  step take h step choose indep -1 type osd step emit }\n");

	(void)state;
	assert_string_equal(pl_map_item_name(m, 0), "osd.0");
	assert_string_equal(pl_map_type_name(m, 1), "host");
	assert_int_equal(pl_map_bucket_alg(m, -1), PL_BUCKET_STRAW2);
	assert_int_equal(pl_map_bucket_item(m, -1, 0), 1);
	assert_int_equal(pl_map_bucket_item(m, -1, 1), 0);
	assert_int_equal(pl_map_bucket_item_weight(m, -1, 1), W1);
	assert_string_equal(pl_map_rule_name(m, 0), "r");
	assert_int_equal(pl_map_rule_step(m, 0, 1)->op, PL_RULE_CHOOSE_FIRSTN);
	/* unnamed rule; sizes kept in 8 bits as in Ceph */
	assert_null(pl_map_rule_name(m, 1));
	assert_int_equal(pl_map_rule_min_size(m, 1), 300 & 0xff);
	assert_int_equal(pl_map_rule_step(m, 1, 1)->arg1, -1);
	pl_map_destroy(m);
}

/* Type ids are ints; the last "type N name" wins for lookups by name. */
static void test_type_ids(void **state)
{
	pl_map *m = parse_ok("device 0 osd.0\ntype 0 osd\ntype 65535 host\n"
			     "type 1 rack\ntype 2 rack\ntype 70000 unused\n"
			     "host h { alg straw2 item osd.0 }\n"
			     "rack r { alg straw2 item h }\n"
			     "rule x { id 0 type replicated min_size 1 "
			     "max_size 3 step take r step choose firstn 0 "
			     "type unused step emit }\n");

	(void)state;
	assert_int_equal(pl_map_bucket_type(m, -1), 65535);
	assert_int_equal(pl_map_bucket_type(m, -2), 2);
	/* a rule may name a type no bucket can have: it matches nothing */
	assert_int_equal(pl_map_rule_step(m, 0, 1)->arg2, 70000);
	pl_map_destroy(m);
}

static void test_empty_map(void **state)
{
	pl_map *m;

	(void)state;
	m = parse_ok("");
	assert_int_equal(pl_map_max_devices(m), 0);
	assert_int_equal(pl_map_max_rules(m), 0);
	pl_map_destroy(m);
	m = parse_ok("# nothing but a comment\n\n   \t\n");
	assert_int_equal(pl_map_max_buckets(m), 0);
	pl_map_destroy(m);
}

static void test_parse_file(void **state)
{
	char path[] = "/tmp/test_parse_XXXXXX", err[512] = "", want[600];
	pl_map *m = NULL;
	int fd = mkstemp(path);
	FILE *f;

	(void)state;
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(full_map, f);
	fclose(f);
	assert_int_equal(pl_parse_file(path, &m, err, sizeof(err)), 0);
	assert_int_equal(pl_map_bucket_weight(m, -1), 171965);
	pl_map_destroy(m);

	/* errors name the file given */
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("type 0 osd\nhost h {\n", f);
	fclose(f);
	m = (pl_map *)&m;
	assert_int_equal(pl_parse_file(path, &m, err, sizeof(err)), -EINVAL);
	assert_null(m);
	snprintf(want, sizeof(want), "%s:2:9: error: unexpected end of file "
		 "in bucket 'h' (expected 'id' or 'alg')", path);
	assert_string_equal(err, want);
	unlink(path);

	assert_int_equal(pl_parse_file(path, &m, err, sizeof(err)), -ENOENT);
	snprintf(want, sizeof(want), "%s: cannot read: %s", path,
		 strerror(ENOENT));
	assert_string_equal(err, want);
	assert_int_equal(pl_parse_file("/", &m, err, sizeof(err)), -EISDIR);
	assert_string_equal(err, "/: cannot read: Is a directory");
}

/* ------------------------------------------------------------------ */
/* malformed input: one exact line each                                */

#define HDR "device 0 osd.0\ndevice 1 osd.1\n" \
	    "type 0 osd\ntype 1 host\ntype 2 root\n"
#define HOST_A "host a { alg straw2 item osd.0 }\n"
#define RULE(body) "rule x { id 0 type replicated min_size 1 max_size 3 " \
		   body " }\n"

static void test_err_expected_brace(void **state)
{
	(void)state;
	parse_err(HDR "host h alg straw2 }\n",
		  "bad.txt:6:8: error: expected '{'");
	parse_err(HDR "host a { item osd.0 }\n",
		  "bad.txt:6:10: error: expected 'id' or 'alg'");
	parse_err(HDR "host a { alg straw2 item osd.0 weight 1.0 pos 0 "
		  "weight 2 }\n",
		  "bad.txt:6:49: error: expected 'item' or '}'");
}

static void test_err_unexpected_eof(void **state)
{
	(void)state;
	parse_err(HDR "host a {\n\talg straw2\n\titem osd.0 weight 1.0\n",
		  "bad.txt:8:23: error: unexpected end of file in bucket 'a' "
		  "(expected 'pos', 'item' or '}')");
	parse_err(HDR HOST_A "rule x { id 0 type replicated min_size 1 "
		  "max_size 3 step take a step emit\n",
		  "bad.txt:7:74: error: unexpected end of file in rule 'x' "
		  "(expected 'step' or '}')");
	parse_err("device 0 osd.0\ntype 0 osd\nhost broken\n",
		  "bad.txt:3:12: error: unexpected end of file "
		  "(expected '{')");
}

static void test_err_statement(void **state)
{
	(void)state;
	parse_err(HDR "{\n",
		  "bad.txt:6:1: error: expected a tunable, device, type, "
		  "bucket or rule");
	parse_err(HDR HOST_A "}\n",
		  "bad.txt:7:1: error: expected a bucket or rule");
	parse_err(HDR "device x osd.5\n",
		  "bad.txt:6:8: error: expected a non-negative integer");
	parse_err(HDR "host a { alg straw2 item osd.0 weight abc }\n",
		  "bad.txt:6:39: error: expected a number");
	parse_err(HDR "host a { id 5 alg straw2 }\n",
		  "bad.txt:6:13: error: expected a negative integer");
}

static void test_err_section_order(void **state)
{
	(void)state;
	parse_err(HDR HOST_A "device 2 osd.2\n",
		  "bad.txt:7:1: error: 'device' lines must come before "
		  "buckets and rules");
	parse_err(HDR HOST_A "tunable choose_total_tries 50\n",
		  "bad.txt:7:1: error: 'tunable' lines must come before "
		  "buckets and rules");
	parse_err(HDR HOST_A RULE("step take a step emit")
		  "host b { alg straw2 item osd.1 }\n",
		  "bad.txt:8:1: error: bucket 'b' must be defined before the "
		  "rules");
}

static void test_err_unknown_names(void **state)
{
	(void)state;
	parse_err(HDR "root r { alg straw2 item host9 }\n",
		  "bad.txt:6:26: error: unknown bucket or device 'host9'");
	parse_err(HDR "rack r { alg straw2 item osd.0 }\n",
		  "bad.txt:6:1: error: unknown type 'rack'");
	parse_err(HDR HOST_A RULE("step take a step chooseleaf firstn 0 "
				  "type rack step emit"),
		  "bad.txt:7:95: error: unknown type 'rack'");
	parse_err(HDR HOST_A RULE("step take nope step emit"),
		  "bad.txt:7:63: error: unknown bucket or device 'nope'");
	parse_err("tunable foo 1\ndevice 0 osd.0\n",
		  "bad.txt:1:9: error: unknown tunable 'foo'");
	parse_err(HDR "host a { alg straw3 item osd.0 }\n",
		  "bad.txt:6:14: error: unknown alg 'straw3' (expected "
		  "uniform, list, tree, straw or straw2)");
	parse_err(HDR HOST_A RULE("step take a step chose firstn 0 type osd "
				  "step emit"),
		  "bad.txt:7:70: error: unknown rule step 'chose'");
}

/* crushtool's reordering cannot fix every forward reference. */
static void test_err_bucket_order(void **state)
{
	(void)state;
	parse_err(HDR "root r { alg straw2 item a item b }\n"
		  "host a { alg straw2 item osd.0 }\n"
		  "host b { alg straw2 item osd.1 }\n",
		  "bad.txt:6:26: error: bucket 'a' must be defined before "
		  "bucket 'r'");
	parse_err(HDR "host a { alg straw2 item b }\n"
		  "host b { alg straw2 item a }\n",
		  "bad.txt:6:6: error: buckets 'a' and 'b' contain each other");
}

static void test_err_duplicates(void **state)
{
	(void)state;
	parse_err(HDR "host a { id -3 alg straw2 item osd.0 }\n"
		  "host b { id -3 alg straw2 item osd.1 }\n",
		  "bad.txt:7:13: error: duplicate bucket id -3");
	parse_err(HDR HOST_A "host a { alg straw2 item osd.1 }\n",
		  "bad.txt:7:6: error: bucket 'a' defined twice");
	parse_err(HDR "host osd.0 { alg straw2 item osd.1 }\n",
		  "bad.txt:6:6: error: bucket name 'osd.0' is already used by "
		  "a device");
	parse_err(HDR "device 2 osd.1\n",
		  "bad.txt:6:10: error: device 'osd.1' defined twice");
	parse_err(HDR HOST_A RULE("step take a step emit")
		  "rule y { id 0 type replicated min_size 1 max_size 3 "
		  "step take a step emit }\n",
		  "bad.txt:8:13: error: duplicate rule id 0");
	parse_err(HDR HOST_A RULE("step take a step emit")
		  "rule x { id 1 type replicated min_size 1 max_size 3 "
		  "step take a step emit }\n",
		  "bad.txt:8:6: error: rule 'x' defined twice");
	parse_err(HDR "host a { alg tree item osd.0 pos 1 item osd.1 pos 1 }\n",
		  "bad.txt:6:51: error: pos 1 is already used in bucket 'a'");
}

/*
 * A device line that renames a device keeps the old name usable, as
 * crushtool's item_id does (the map itself knows only the last name):
 * the parser looks items up in the map's own index plus its aliases.
 */
static void test_device_renamed(void **state)
{
	pl_map *m;

	(void)state;
	m = parse_ok("device 0 a\ndevice 0 b\ntype 0 osd\ntype 1 host\n"
		     "host h { alg straw2 item a item b weight 2 }\n");
	assert_string_equal(pl_map_item_name(m, 0), "b");
	assert_int_equal(pl_map_bucket_size(m, -1), 2);
	assert_int_equal(pl_map_bucket_item(m, -1, 0), 0);
	assert_int_equal(pl_map_bucket_item(m, -1, 1), 0);
	assert_int_equal(pl_map_bucket_weight(m, -1), 3 * W1);
	pl_map_destroy(m);
	parse_err("device 0 a\ndevice 0 b\ndevice 1 a\n",
		  "bad.txt:3:10: error: device 'a' defined twice");
	parse_err("device 0 a\ndevice 0 b\ntype 0 osd\ntype 1 host\n"
		  "host a { alg straw2 item b }\n",
		  "bad.txt:5:6: error: bucket name 'a' is already used by a "
		  "device");
}

/*
 * A map of 16 MiB or more is mapped and its pages given back as the
 * compiler passes them (parse.c release_text): a bucket built out of order
 * reads released text again, and an error's line is still counted right.
 * The result must equal the same text parsed from memory.
 */
static void test_parse_file_big(void **state)
{
	char path[] = "/tmp/test_parse_big_XXXXXX", err[512] = "", want[600];
	const int ndev = 800000;
	pl_map *m = NULL, *ref = NULL;
	int fd = mkstemp(path);
	char *text;
	size_t len;
	FILE *f;

	(void)state;
	assert_true(fd >= 0);
	f = fdopen(fd, "w+");
	assert_non_null(f);
	for (int i = 0; i < ndev; i++)
		fprintf(f, "device %d osd.%d\n", i, i);
	/* the root first: adjust_bucket_item_place builds h before it, and
	 * a comment of 2 MiB between has r's page given back before */
	fprintf(f, "type 0 osd\ntype 1 host\ntype 2 root\n"
		"root r { alg straw2 item h }\n");
	for (int i = 0; i < 32768; i++)
		fprintf(f, "# %060d\n", i);
	fprintf(f, "host h { alg straw2 item osd.0 item osd.%d weight 2 }\n"
		"rule x { id 0 type replicated min_size 1 max_size 3 "
		"step take r step chooseleaf firstn 0 type host step emit }\n",
		ndev - 1);
	fflush(f);
	len = (size_t)ftell(f);
	assert_true(len >= 16u << 20);
	text = malloc(len + 1);
	assert_non_null(text);
	rewind(f);
	assert_int_equal(fread(text, 1, len, f), len);
	text[len] = 0;
	fclose(f);

	assert_int_equal(pl_parse_file(path, &m, err, sizeof(err)), 0);
	ref = parse_ok(text);
	assert_int_equal(pl_map_max_devices(m), pl_map_max_devices(ref));
	for (int id = -1; id >= -2; id--) {
		assert_string_equal(pl_map_item_name(m, id),
				    pl_map_item_name(ref, id));
		assert_int_equal(pl_map_bucket_size(m, id),
				 pl_map_bucket_size(ref, id));
		assert_int_equal(pl_map_bucket_weight(m, id),
				 pl_map_bucket_weight(ref, id));
		for (int i = 0; i < pl_map_bucket_size(m, id); i++)
			assert_int_equal(pl_map_bucket_item(m, id, i),
					 pl_map_bucket_item(ref, id, i));
	}
	assert_string_equal(pl_map_item_name(m, -1), "h");
	assert_int_equal(pl_map_bucket_weight(m, -2), 3 * W1);
	pl_map_destroy(m);
	pl_map_destroy(ref);

	/* an unknown item at the end, after the devices' pages went */
	f = fopen(path, "a");
	assert_non_null(f);
	fputs("rule y { id 1 type replicated min_size 1 max_size 3 "
	      "step take nosuch step emit }\n", f);
	fclose(f);
	m = (pl_map *)&m;
	assert_int_equal(pl_parse_file(path, &m, err, sizeof(err)), -EINVAL);
	assert_null(m);
	snprintf(want, sizeof(want), "%s:%d:63: error: unknown bucket or "
		 "device 'nosuch'", path, ndev + 32768 + 7);
	assert_string_equal(err, want);
	unlink(path);
	free(text);
}

/*
 * A bucket of type 0 is taken for a device by the mapper, which then reads
 * the device reweight at weight[<bucket id>], a negative index (issue 8:
 * ASan heap-buffer-overflow in is_out; the release build printed []).
 * crushtool 16.2 compiles such maps and maps them by whatever lies before
 * its weight vector (empty sets, bucket ids, duplicates, a segfault), so
 * they are refused, as `ceph osd crush add-bucket` refuses type 0.
 */
static void test_err_device_type_bucket(void **state)
{
	(void)state;
	/* the map: two names for type 0 */
	parse_err("device 0 osd.0\ndevice 1 osd.1\n"
		  "type 0 osd\ntype 0 host\ntype 1 root\n"
		  "host h { alg straw2 item osd.0 item osd.1 }\n"
		  "root r { alg straw2 item h }\n"
		  RULE("step take r step chooseleaf firstn 0 type host "
		       "step emit"),
		  "bad.txt:6:1: error: bucket 'h': type 'host' is for devices, "
		  "not buckets (its id is 0)");
	parse_err(HDR "osd a { alg straw2 item osd.0 }\n",
		  "bad.txt:6:1: error: bucket 'a': type 'osd' is for devices, "
		  "not buckets (its id is 0)");
}

/*
 * A bucket keeps 16 bits of its type (crush_make_bucket): crushtool
 * compiles a larger type id, truncated, and then decompiles the bucket as
 * "type65526 host0 {", which neither it nor crushfs reads back (found by
 * fuzz_cluster_json: the map of a cluster.json did not survive a write).
 */
static void test_err_type_too_big(void **state)
{
	(void)state;
	parse_err(HDR "type 655350 big\nbig a { alg straw2 item osd.0 }\n",
		  "bad.txt:7:1: error: bucket 'a': type 'big' has id 655350, "
		  "more than a bucket's 16 bits hold (at most 65535)");
	parse_err(HDR "type 65536 big\nbig a { alg straw2 item osd.0 }\n",
		  "bad.txt:7:1: error: bucket 'a': type 'big' has id 65536, "
		  "more than a bucket's 16 bits hold (at most 65535)");
}

/* Two names for type 0 are fine while no bucket has it (crushtool: both
 * names work in rules, the last one is printed). */
static void test_two_names_for_type_zero(void **state)
{
	pl_map *m = parse_ok("device 0 osd.0\ntype 0 osd\ntype 0 device\n"
			     "type 1 host\nhost h { alg straw2 item osd.0 }\n"
			     RULE("step take h step choose firstn 0 type osd "
				  "step emit"));
	int t = -1;

	(void)state;
	assert_string_equal(pl_map_type_name(m, 0), "device");
	/* the map keeps one name per id, as crushtool's type_map does */
	assert_int_equal(pl_map_type_by_name(m, "device", &t), 0);
	assert_int_equal(t, 0);
	assert_int_equal(pl_map_type_by_name(m, "osd", &t), -ENOENT);
	/* "type osd" in the rule is type 0 */
	assert_int_equal(pl_map_rule_step(m, 0, 1)->arg2, 0);
	pl_map_destroy(m);
}

static void test_err_self_reference(void **state)
{
	(void)state;
	/* crushtool: "item 'a' in bucket 'a' is not defined" */
	parse_err(HDR "host a { alg straw2 item osd.0 item a }\n",
		  "bad.txt:6:37: error: bucket 'a' contains itself");
	/* a longer cycle is a forward reference crushtool cannot order */
	parse_err(HDR "host a { alg straw2 item b }\n"
		  "host b { alg straw2 item c }\n"
		  "host c { alg straw2 item a }\n",
		  "bad.txt:7:26: error: bucket 'c' must be defined before "
		  "bucket 'b'");
}

/* An item used in two buckets, or twice in one, is fine for crushtool. */
static void test_item_reuse_allowed(void **state)
{
	pl_map *m = parse_ok(HDR "host a { alg straw2 item osd.0 item osd.0 }\n"
			     "host b { alg straw2 item osd.0 }\n"
			     "root r { alg straw2 item a item b item a }\n");

	(void)state;
	assert_int_equal(pl_map_bucket_weight(m, -3), 5 * W1);
	pl_map_destroy(m);
}

static void test_err_weights(void **state)
{
	(void)state;
	parse_err(HDR "host a { alg straw2 item osd.0 weight -1 }\n",
		  "bad.txt:6:39: error: weight must be a non-negative number");
	parse_err(HDR HOST_A "host b { alg straw2 item a weight -0.5 }\n",
		  "bad.txt:7:35: error: weight must be a non-negative number");
	parse_err(HDR "host a { alg straw2 item osd.0 weight 100.5 }\n",
		  "bad.txt:6:39: error: device weight limited to 100");
	parse_err(HDR HOST_A "host b { alg straw2 item a weight 65535.5 }\n",
		  "bad.txt:7:35: error: bucket weight limited to 65535");
	parse_err(HDR HOST_A "host b { alg straw2 item a weight 70000 }\n",
		  "bad.txt:7:35: error: weight 70000 is out of range");
	parse_err(HDR "host a { alg straw2 item osd.0 weight 1e39 }\n",
		  "bad.txt:6:39: error: weight 1e39 is out of range");
	parse_err(HDR "host a { alg uniform item osd.0 weight 1 "
		  "item osd.1 weight 2 }\n",
		  "bad.txt:6:60: error: item 'osd.1' in uniform bucket 'a' has "
		  "weight 2 but previous items have 1; uniform bucket items "
		  "must all have the same weight");
	/* implicit weights count too: a bucket item defaults to its weight */
	parse_err(HDR "host a { alg straw2 item osd.0 item osd.1 }\n"
		  "root r { alg uniform item osd.0 item a }\n",
		  "bad.txt:7:38: error: item 'a' in uniform bucket 'r' has "
		  "weight 2 but previous items have 1; uniform bucket items "
		  "must all have the same weight");
	/* crush_make_uniform_bucket refuses weight 0 items: crushtool 16.2
	 * aborts (ceph_assert(b) in CrushWrapper::add_bucket) */
	parse_err(HDR "host a { alg uniform item osd.0 weight 0 "
		  "item osd.1 weight 0 }\n",
		  "bad.txt:6:6: error: uniform bucket 'a' has items of weight "
		  "0, which Ceph cannot build");
	parse_err(HDR "host a { alg straw2 }\nroot r { alg uniform item a }\n",
		  "bad.txt:7:6: error: uniform bucket 'r' has items of weight "
		  "0, which Ceph cannot build");
}

/* ...while an empty uniform bucket is fine */
static void test_empty_uniform(void **state)
{
	pl_map *m = parse_ok(HDR "host a { alg uniform }\n");

	(void)state;
	assert_int_equal(pl_map_bucket_size(m, -1), 0);
	pl_map_destroy(m);
}

static void test_err_numbers(void **state)
{
	(void)state;
	parse_err(HDR "host a { id -99999999999 alg straw2 item osd.0 }\n",
		  "bad.txt:6:13: error: number -99999999999 is out of range "
		  "(integer overflow)");
	parse_err("tunable choose_total_tries 4294967296\n",
		  "bad.txt:1:28: error: number 4294967296 is out of range "
		  "(integer overflow)");
	parse_err(HDR "host a { alg tree item osd.0 pos 2 item osd.1 }\n",
		  "bad.txt:6:34: error: pos 2 is out of range: bucket 'a' has "
		  "2 items");
	parse_err(HDR "host a { id -2000000 alg straw2 }\n",
		  "bad.txt:6:13: error: bucket id -2000000 is out of range "
		  "(at least -1048576)");
	/* crushtool takes 2000000 (it maps such ids); the top two are the
	 * mapper's CRUSH_ITEM_UNDEF and CRUSH_ITEM_NONE */
	pl_map_destroy(parse_ok("device 2000000 osd.0\ntype 0 osd\n"));
	parse_err("device 2147483646 osd.0\ntype 0 osd\n",
		  "bad.txt:1:8: error: device id 2147483646 is out of range "
		  "(at most 2147483645)");
	parse_err(HDR HOST_A "rule x { id 300 type replicated min_size 1 "
		  "max_size 3 step take a step emit }\n",
		  "bad.txt:7:13: error: rule id 300 is out of range "
		  "(at most 255)");
}

static void test_err_rule_syntax(void **state)
{
	(void)state;
	parse_err(HDR HOST_A "rule x { id 0 type replicated max_size 3 "
		  "step take a step emit }\n",
		  "bad.txt:7:31: error: expected 'min_size'");
	parse_err(HDR HOST_A "rule x { id 0 type 2 min_size 1 max_size 3 "
		  "step take a step emit }\n",
		  "bad.txt:7:20: error: expected 'replicated' or 'erasure'");
	parse_err(HDR HOST_A "rule x { id 0 type replicated min_size 1 "
		  "max_size 3 }\n",
		  "bad.txt:7:53: error: expected 'step'");
	parse_err(HDR HOST_A "rule x { type replicated min_size 1 "
		  "max_size 3 step emit }\n",
		  "bad.txt:7:10: error: expected 'id' or 'ruleset'");
}

/* Device classes as CrushCompiler takes them: the errors crushtool also
 * refuses, and choose_args (not supported yet). */
static void test_err_classes(void **state)
{
	(void)state;
	parse_err("device 0 osd.0 class hdd\ndevice 1 osd.1 class ssd\n"
		  "type 0 osd\ntype 1 host\ntype 2 root\n" HOST_A
		  RULE("step take a class nvme step emit"),
		  "bad.txt:7:71: error: in rule 'x' step take a: device class "
		  "'nvme' does not exist");
	parse_err("device 0 osd.0 class hdd\ndevice 1 osd.1 class ssd\n"
		  "type 0 osd\ntype 1 host\ntype 2 root\n" HOST_A
		  RULE("step take osd.0 class hdd step emit"),
		  "bad.txt:7:63: error: in rule 'x' step take osd.0 has no "
		  "class information");
	parse_err(HDR "host a { id -1 id -5 class hdd id -6 class hdd alg "
		  "straw2 item osd.0 }\n",
		  "bad.txt:6:44: error: duplicate device class hdd for bucket "
		  "a");
	parse_err(HDR HOST_A RULE("step take a step emit")
		  "choose_args 1 {\n  { bucket_id -1 weight_set [ [ 1.0 2 ] ] }\n"
		  "}\n",
		  "bad.txt:9:18: error: bucket -1 needs exactly 1 weights but "
		  "weight_set row 1 has 2");
}

/* Shadow trees as CrushWrapper::populate_classes builds them: ids given
 * by `id N class C` kept, the others taken from -1 down past every used
 * one, depth first per root and class; weights of the class's devices
 * only; the text printed again as crushtool -d prints it. */
static void test_classes(void **state)
{
	static const char text[] =
		"device 0 osd.0 class hdd\ndevice 1 osd.1 class ssd\n"
		"device 2 osd.2 class hdd\n"
		"type 0 osd\ntype 1 host\ntype 2 root\n"
		"host a { id -2 alg straw2 hash 0 item osd.0 weight 1.0 "
		"item osd.1 weight 2.0 }\n"
		"host b { id -3 id -9 class ssd alg straw2 hash 0 "
		"item osd.2 weight 3.0 }\n"
		"root r { id -1 alg straw2 hash 0 item a weight 3.0 "
		"item b weight 3.0 }\n"
		"rule x { id 0 type replicated min_size 1 max_size 3 "
		"step take r class hdd step chooseleaf firstn 0 type host "
		"step emit }\n";
	pl_map *m = NULL;
	char err[256], *out = NULL;
	size_t len;
	int id;

	(void)state;
	assert_int_equal(pl_parse_text(text, strlen(text), "c.txt", &m, err,
				       sizeof(err)),
			 0);
	/* hdd (class 0) first, then ssd; a~hdd -4, b~hdd -5, r~hdd -6,
	 * a~ssd -7, b~ssd -9 (given), r~ssd -8 */
	assert_int_equal(pl_map_item_by_name(m, "a~hdd", &id), 0);
	assert_int_equal(id, -4);
	assert_int_equal(pl_map_item_by_name(m, "r~hdd", &id), 0);
	assert_int_equal(id, -6);
	assert_int_equal(pl_map_bucket_weight(m, -6), 3 * 0x10000 + 0x10000);
	assert_int_equal(pl_map_item_by_name(m, "b~ssd", &id), 0);
	assert_int_equal(id, -9);
	assert_int_equal(pl_map_bucket_size(m, -9), 0); /* kept, empty */
	assert_int_equal(pl_map_item_by_name(m, "r~ssd", &id), 0);
	assert_int_equal(id, -8);
	assert_int_equal(pl_map_rule_step(m, 0, 0)->arg1, -6);
	/* the user's tree: a shadow is no bucket's parent */
	assert_int_equal(pl_map_parent(m, 0), -2);
	assert_int_equal(pl_map_parent(m, -4), 0);
	assert_int_equal(pl_map_to_text(m, &out, &len), 0);
	assert_non_null(strstr(out, "device 1 osd.1 class ssd\n"));
	assert_non_null(strstr(out, "\tid -2\t\t# do not change unnecessarily\n"
				    "\tid -4 class hdd\t\t# do not change "
				    "unnecessarily\n\tid -7 class ssd"));
	assert_non_null(strstr(out, "step take r class hdd\n"));
	assert_null(strstr(out, "a~hdd"));
	free(out);
	pl_map_destroy(m);
}

/* Uniform buckets under classes (issue 20), as crushtool 16.2 -c builds
 * them: device_class_clone grows a copy with crush_bucket_add_item, and
 * crush_add_uniform_bucket_item takes an item only at the empty copy's
 * item_weight, 0.  Copies of weight-0 items are made whole (item_weight
 * 0); the first uniform bucket holding a device of the class ends
 * populate_classes, which CrushCompiler ignores: the copies made so far
 * stay, and only a rule taking a missing copy fails.  Ids and errors as
 * crushtool -c / --dump gave them. */
#define UHDR "device 0 osd.0 class hdd\ndevice 1 osd.1 class ssd\n" \
	     "device 2 osd.2 class hdd\ndevice 3 osd.3\n" \
	     "type 0 osd\ntype 1 host\ntype 2 root\n" \
	     "host a { id -2 alg list hash 0 item osd.0 weight 1.0 " \
	     "item osd.1 weight 2.0 }\n" \
	     "host u { id -3 alg uniform hash 0 item osd.2 weight 1.0 }\n" \
	     "host c { id -4 alg uniform hash 0 item osd.3 weight 1.0 }\n" \
	     "root k { id -5 alg uniform hash 0 item c }\n" \
	     "root r { id -1 alg straw2 hash 0 item a item u }\n"
static void test_classes_uniform(void **state)
{
	static const char text[] = UHDR
		"rule x { id 0 type replicated min_size 1 max_size 3 "
		"step take k class ssd step chooseleaf firstn 0 type host "
		"step emit }\n"
		"rule y { id 1 type replicated min_size 1 max_size 3 "
		"step take a class hdd step choose firstn 0 type osd "
		"step emit }\n";
	pl_map *m;
	int id;

	(void)state;
	m = parse_ok(text);
	/* k (-5) first: c holds no classed device, so its copies are empty
	 * and k's hold them at weight 0, item_weight 0 */
	assert_int_equal(pl_map_item_by_name(m, "c~hdd", &id), 0);
	assert_int_equal(id, -6);
	assert_int_equal(pl_map_bucket_size(m, -6), 0);
	assert_int_equal(pl_map_item_by_name(m, "k~ssd", &id), 0);
	assert_int_equal(id, -9);
	assert_int_equal(pl_map_bucket_alg(m, -9), PL_BUCKET_UNIFORM);
	assert_int_equal(pl_map_bucket_size(m, -9), 1);
	assert_int_equal(pl_map_bucket_item(m, -9, 0), -8);
	assert_int_equal(pl_map_bucket_weight(m, -9), 0);
	assert_int_equal(pl_map_bucket_item_weight(m, -9, 0), 0);
	/* then r: a~hdd is made, u~hdd refuses osd.2 and nothing else is */
	assert_int_equal(pl_map_item_by_name(m, "a~hdd", &id), 0);
	assert_int_equal(id, -10);
	assert_int_equal(pl_map_bucket_weight(m, -10), W1);
	assert_int_not_equal(pl_map_item_by_name(m, "u~hdd", &id), 0);
	assert_int_not_equal(pl_map_item_by_name(m, "r~hdd", &id), 0);
	assert_int_not_equal(pl_map_item_by_name(m, "a~ssd", &id), 0);
	assert_int_equal(pl_map_max_buckets(m), 16);
	assert_int_equal(pl_map_bucket_exists(m, -11), 0);
	assert_int_equal(pl_map_rule_step(m, 0, 0)->arg1, -9);
	assert_int_equal(pl_map_rule_step(m, 1, 0)->arg1, -10);
	pl_map_destroy(m);

	parse_err(UHDR RULE("step take r class hdd step emit"),
		  "bad.txt:13:63: error: in rule 'x' step take r has no "
		  "class information");
	/* the hdd copy of v is made (u2 holds no hdd device), its ssd copy
	 * is not */
	parse_err("device 0 osd.0 class hdd\ndevice 1 osd.1 class ssd\n"
		  "type 0 osd\ntype 1 host\ntype 2 root\n"
		  "host u2 { id -2 alg uniform hash 0 item osd.1 }\n"
		  "root v { id -1 alg straw2 hash 0 item osd.0 item u2 }\n"
		  RULE("step take v class ssd step emit"),
		  "bad.txt:8:71: error: in rule 'x' step take v no matching "
		  "bucket for class ssd");
}

/* Any hash number compiles, kept in 8 bits as crush_bucket keeps it
 * (crushtool: `hash 300` decompiles as `hash 44`). */
static void test_hash_numbers(void **state)
{
	static const int in[] = { 0, 1, 255, 300, -1 }, kept[] = { 0, 1, 255,
								   44, 255 };
	char text[512];

	(void)state;
	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		pl_map *m = NULL;
		char err[256];

		snprintf(text, sizeof(text),
			 HDR "host a { id -1 alg straw2 hash %d item osd.0 }\n",
			 in[i]);
		assert_int_equal(pl_parse_text(text, strlen(text), "h.txt", &m,
					       err, sizeof(err)), 0);
		assert_int_equal(pl_map_bucket_hash(m, -1), kept[i]);
		pl_map_destroy(m);
	}
}

/* crushtool asserts on these; we refuse them cleanly. */
static void test_err_tree_too_big(void **state)
{
	char text[8192];
	size_t n = 0;

	(void)state;
	n += (size_t)snprintf(text + n, sizeof(text) - n,
			      "type 0 osd\ntype 1 host\n");
	for (int i = 0; i < 65; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n,
				      "device %d osd.%d\n", i, i);
	n += (size_t)snprintf(text + n, sizeof(text) - n, "host t { alg tree");
	for (int i = 0; i < 65; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n,
				      " item osd.%d", i);
	snprintf(text + n, sizeof(text) - n, " }\n");
	parse_err(text, "bad.txt:68:6: error: tree bucket 't' has 65 items; "
		  "at most 64 are supported");
}

/* A NUL stops crushtool's reader (a binary map "compiles" to an empty
 * one); we refuse it, except inside a comment. */
static void test_err_nul_byte(void **state)
{
	static const char bin[] = "device 0 osd.0\ntype 0 osd\n\0junk\n";
	static const char comment[] = "device 0 osd.0\n# x\0y\ntype 0 osd\n";
	char err[256];
	pl_map *m = NULL;

	(void)state;
	parse_err_n(bin, sizeof(bin) - 1, "bad.txt:3:1: error: NUL byte in "
		    "map text (binary crush maps are not supported)");
	assert_int_equal(pl_parse_text(comment, sizeof(comment) - 1, "c.txt",
				       &m, err, sizeof(err)), 0);
	pl_map_destroy(m);
}

/* Truncated error buffers stay NUL-terminated; none at all is fine. */
static void test_err_buffer(void **state)
{
	char err[16];
	pl_map *m = NULL;

	(void)state;
	memset(err, 'x', sizeof(err));
	assert_int_equal(pl_parse_text("{", 1, "bad.txt", &m, err,
				       sizeof(err)), -EINVAL);
	assert_string_equal(err, "bad.txt:1:1: er");
	assert_int_equal(pl_parse_text("{", 1, "bad.txt", &m, NULL, 0),
			 -EINVAL);
	assert_null(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_map),
		cmocka_unit_test(test_no_tunables_is_legacy),
		cmocka_unit_test(test_tunables),
		cmocka_unit_test(test_weights),
		cmocka_unit_test(test_auto_ids),
		cmocka_unit_test(test_pos_and_uniform),
		cmocka_unit_test(test_forward_reference),
		cmocka_unit_test(test_duplicate_device_id),
		cmocka_unit_test(test_spirit_quirks),
		cmocka_unit_test(test_type_ids),
		cmocka_unit_test(test_empty_map),
		cmocka_unit_test(test_parse_file),
		cmocka_unit_test(test_item_reuse_allowed),
		cmocka_unit_test(test_err_expected_brace),
		cmocka_unit_test(test_err_unexpected_eof),
		cmocka_unit_test(test_err_statement),
		cmocka_unit_test(test_err_section_order),
		cmocka_unit_test(test_err_unknown_names),
		cmocka_unit_test(test_err_bucket_order),
		cmocka_unit_test(test_err_duplicates),
		cmocka_unit_test(test_err_device_type_bucket),
		cmocka_unit_test(test_err_type_too_big),
		cmocka_unit_test(test_two_names_for_type_zero),
		cmocka_unit_test(test_err_self_reference),
		cmocka_unit_test(test_err_weights),
		cmocka_unit_test(test_empty_uniform),
		cmocka_unit_test(test_err_numbers),
		cmocka_unit_test(test_err_rule_syntax),
		cmocka_unit_test(test_err_classes),
		cmocka_unit_test(test_classes),
		cmocka_unit_test(test_classes_uniform),
		cmocka_unit_test(test_hash_numbers),
		cmocka_unit_test(test_err_tree_too_big),
		cmocka_unit_test(test_err_nul_byte),
		cmocka_unit_test(test_err_buffer),
		cmocka_unit_test(test_device_renamed),
		cmocka_unit_test(test_parse_file_big),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
