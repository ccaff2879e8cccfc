/*
 * cmd_crush.c - `crushfs crush test` and `crushfs crush compare`.
 *
 * stdout is byte-identical to Ceph 16.2's
 *   crushtool -i MAP.bin --test [same flags]
 *   crushtool -i A.bin --compare B.bin [same flags]
 * with MAP.bin = `crushtool -c MAP.txt -o MAP.bin`; what crushtool writes to
 * stderr goes to stderr here too.  The behaviour copies CrushTester::test()
 * and CrushTester::compare() of Ceph 16.2 (src/crush/CrushTester.cc) and
 * the option handling of src/tools/crushtool.cc, checked against the
 * installed crushtool.  The quirks kept on purpose:
 *
 *  - x range: min_x and max_x start at -1 and both are reset to 0..1023
 *    if either is still negative, so `--max-x 3` alone maps 0..1023.
 *    --x N sets both.  --rule N sets the first and last rule (negative: all
 *    rules); --num-rep N sets min and max (negative: the rule's min_size..
 *    max_size).  Later options override earlier ones, as in crushtool.
 *  - --show-utilization and --show-utilization-all imply
 *    --show-statistics (crushtool.cc does this before calling test()).
 *  - the reweight vector has max_devices entries: --weight's value if
 *    given, else 0x10000 for a device that sits in some bucket, else 0.
 *    The weight is (int)((float)W * 0x10000) clamped to 0..0x10000, where
 *    the float-to-int conversion of x86 turns NaN and out-of-range values
 *    into INT_MIN, which the clamp makes 0 (so `--weight 3 1e10` is 0).
 *  - "expected" is float arithmetic: weight/total_weight times
 *    min(num_rep, maximum affected by the rule) * objects, printed like a
 *    C++ ostream prints a float (%g, 6 digits).  "Maximum affected by rule"
 *    is CrushTester::get_maximum_affected_by_rule, including its habit of
 *    counting a type's buckets once per step that names the type and of
 *    treating set_* steps (arg2 0) as steps choosing type 0.
 *  - statistics and utilization lines, "rule N dne" (only with
 *    statistics), bad mappings (size != num_rep or a CRUSH_ITEM_NONE hole),
 *    and --pool-id N (x becomes crush_hash32_2(x, (uint32)N), -1 = none).
 *  - --show-choose-tries prints the first choose_total_tries entries of
 *    the retry histogram of the whole run ("%2d: %9u").
 *  - "devices weights (hex): [...]" goes to stderr (utilization-all), as
 *    does the warning when no --show-* flag was given (exit status 0).
 *  - compare: rules and weights come from the first map, the second map
 *    is run with the same rule number; "warning: maps are NOT equivalent"
 *    on stderr and exit status 1 when any mapping differs.
 *
 * Deliberate differences (crushtool crashes or loops there): x is counted
 * in 64 bits, so --max-x 2147483647 ends; a rule that emits a bucket id or
 * a second map without the rule are handled, not undefined.  Numbers are
 * parsed strictly ('abc' is an error here), except --weight's W, which
 * crushtool reads with atof() ("abc" is 0, "0.5x" is 0.5): we do the same
 * and warn on stderr.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "crush_lines.h"
#include "pmap.h"
#include "placement.h"

#define ENOENT_TYPE (-ENOENT) /* CrushWrapper::get_bucket_type of a device */

struct weight_ov {
	int dev;
	uint32_t w;
};

struct crush_opts {
	const char *in;
	const char *cmp;
	int min_rule, max_rule;
	int min_rep, max_rep;
	int min_x, max_x;
	int64_t pool_id;
	int mappings, bad, stats, util, util_all, choose_tries;
	struct weight_ov *ov;
	int nov;
};

/* crushtool's CrushTester::set_device_weight(). */
static uint32_t device_weight(double d)
{
	float f = (float)d;
	float p = f * (float)0x10000;
	int w;

	/* cvttss2si: NaN and values outside int give INT_MIN. */
	if (isnan(p) || p >= 2147483648.0f || p < -2147483648.0f)
		w = INT_MIN;
	else
		w = (int)p;
	if (w < 0)
		w = 0;
	if (w > 0x10000)
		w = 0x10000;
	return (uint32_t)w;
}

/* atof(s) into *d; 1 if s was a whole number (strtod read all of it). */
static int weight_atof(const char *s, double *d)
{
	char *end;

	*d = strtod(s, &end);
	if (end == s)
		*d = 0;
	return end != s && *end == '\0';
}

static int parse_opts(struct cli_ctx *ctx, int argc, char **argv,
		      int compare, struct crush_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->min_rule = o->max_rule = -1;
	o->min_rep = o->max_rep = -1;
	o->min_x = o->max_x = -1;
	o->pool_id = -1;

	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *v;
		int r, x;

		if ((r = cli_opt(ctx, argc, argv, &i, "-i", &v)) ||
		    (r = cli_opt(ctx, argc, argv, &i, "--infn", &v))) {
			if (r < 0)
				return 1;
			o->in = v;
		} else if (compare &&
			   (r = cli_opt(ctx, argc, argv, &i, "--compare", &v))) {
			if (r < 0)
				return 1;
			o->cmp = v;
		} else if ((r = cli_opt(ctx, argc, argv, &i, "--rule", &v))) {
			if (r < 0 || cli_parse_int(ctx, "--rule", v, INT_MIN,
						   INT_MAX, &x))
				return 1;
			o->min_rule = o->max_rule = x;
		} else if ((r = cli_opt(ctx, argc, argv, &i, "--num-rep",
					&v))) {
			if (r < 0 || cli_parse_int(ctx, "--num-rep", v,
						   INT_MIN, INT_MAX, &x))
				return 1;
			o->min_rep = o->max_rep = x;
		} else if ((r = cli_opt(ctx, argc, argv, &i, "--min-x", &v))) {
			if (r < 0 || cli_parse_int(ctx, "--min-x", v, INT_MIN,
						   INT_MAX, &x))
				return 1;
			o->min_x = x;
		} else if ((r = cli_opt(ctx, argc, argv, &i, "--max-x", &v))) {
			if (r < 0 || cli_parse_int(ctx, "--max-x", v, INT_MIN,
						   INT_MAX, &x))
				return 1;
			o->max_x = x;
		} else if ((r = cli_opt(ctx, argc, argv, &i, "--x", &v))) {
			if (r < 0 || cli_parse_int(ctx, "--x", v, INT_MIN,
						   INT_MAX, &x))
				return 1;
			o->min_x = o->max_x = x;
		} else if (!compare && (r = cli_opt(ctx, argc, argv, &i,
						    "--pool-id", &v))) {
			if (r < 0 || cli_parse_i64(ctx, "--pool-id", v,
						   INT64_MIN, INT64_MAX,
						   &o->pool_id))
				return 1;
		} else if ((r = cli_opt(ctx, argc, argv, &i, "--weight", &v))) {
			struct weight_ov *n;
			double d;

			if (r < 0 || cli_parse_int(ctx, "--weight", v, INT_MIN,
						   INT_MAX, &x))
				return 1;
			if (i + 1 >= argc)
				return cli_err(ctx, "--weight: missing weight "
						    "after the device id");
			/* crushtool reads W with atof(): "abc" is 0, "0.5x"
			 * 0.5.  Same numbers (stdout and exit status are the
			 * contract), but say so. */
			v = argv[++i];
			if (!weight_atof(v, &d))
				fprintf(stderr,
					"crushfs: %s: --weight: warning: '%s' is "
					"not a number, using %g as crushtool "
					"does\n",
					ctx->cmd, v, d);
			n = realloc(o->ov, (size_t)(o->nov + 1) * sizeof(*n));
			if (!n)
				return cli_err(ctx, "out of memory");
			o->ov = n;
			o->ov[o->nov].dev = x;
			o->ov[o->nov].w = device_weight(d);
			o->nov++;
		} else if (!compare && cli_flag(a, "--show-mappings")) {
			o->mappings = 1;
		} else if (!compare && cli_flag(a, "--show-bad-mappings")) {
			o->bad = 1;
		} else if (cli_flag(a, "--show-statistics")) {
			o->stats = 1;
		} else if (!compare && cli_flag(a, "--show-utilization")) {
			o->util = 1;
		} else if (!compare && cli_flag(a, "--show-utilization-all")) {
			o->util_all = 1;
		} else if (!compare && cli_flag(a, "--show-choose-tries")) {
			o->choose_tries = 1;
		} else {
			r = cli_common_opt(ctx, argc, argv, &i);
			if (r == 2)
				return 2;
			if (r < 0)
				return 1;
			if (r == 0)
				return cli_err(ctx, "unexpected argument '%s'",
					       a);
		}
	}
	if (!o->in)
		return cli_err(ctx, "missing -i MAP.txt");
	if (compare && !o->cmp)
		return cli_err(ctx, "missing --compare MAP.txt");
	/* crushtool.cc: utilization implies statistics. */
	if (o->util || o->util_all)
		o->stats = 1;
	return 0;
}

static pl_map *load_map(struct cli_ctx *ctx, const char *path)
{
	char err[512] = "";
	pl_map *m = NULL;
	int r = pl_parse_file(path, &m, err, sizeof(err));

	if (r < 0 || !m) {
		fflush(stdout);
		if (err[0])
			fprintf(stderr, "%s\n", err);
		else
			cli_err(ctx, "%s: %s", path, strerror(r < 0 ? -r : EINVAL));
		return NULL;
	}
	return m;
}

/*
 * The reweight vector of CrushTester: --weight if given, else 0x10000 for
 * a device in some bucket (CrushWrapper::check_item_present), else 0.
 */
static uint32_t *make_weights(const pl_map *m, const struct crush_opts *o)
{
	int maxdev = pl_map_max_devices(m), maxb = pl_map_max_buckets(m);
	uint32_t *w = calloc(maxdev > 0 ? (size_t)maxdev : 1, sizeof(*w));

	if (!w)
		return NULL;
	for (int b = 0; b < maxb; b++) {
		int id = -1 - b, size;

		if (!pl_map_bucket_exists(m, id))
			continue;
		size = pl_map_bucket_size(m, id);
		for (int p = 0; p < size; p++) {
			int it = pl_map_bucket_item(m, id, p);

			if (it >= 0 && it < maxdev)
				w[it] = 0x10000;
		}
	}
	for (int k = 0; k < o->nov; k++) /* std::map: the last one wins */
		if (o->ov[k].dev >= 0 && o->ov[k].dev < maxdev)
			w[o->ov[k].dev] = o->ov[k].w;
	return w;
}

/* Number of named items CrushWrapper::get_bucket_type() says are of type
 * t: buckets by their type, devices (and missing buckets) as -ENOENT. */
static int named_of_type(const pl_map *m, int t)
{
	int n = 0, maxb = pl_map_max_buckets(m), maxdev = pl_map_max_devices(m);

	for (int b = 0; b < maxb; b++) {
		int id = -1 - b;

		if (!pl_map_item_name(m, id))
			continue;
		if ((pl_map_bucket_exists(m, id) ? pl_map_bucket_type(m, id) :
						   ENOENT_TYPE) == t)
			n++;
	}
	if (t == ENOENT_TYPE)
		for (int d = 0; d < maxdev; d++)
			if (pl_map_item_name(m, d))
				n++;
	return n;
}

/* CrushTester::get_maximum_affected_by_rule(), faithfully. */
static int max_affected_by_rule(const pl_map *m, int r)
{
	int len = pl_map_rule_len(m, r), n = 0, max_aff;
	int *types, *reps, *counts;

	if (len <= 0)
		len = 0;
	types = calloc((size_t)len + 1, sizeof(int));
	reps = calloc((size_t)len + 1, sizeof(int));
	counts = calloc((size_t)len + 1, sizeof(int));
	max_aff = pl_map_max_buckets(m) > pl_map_max_devices(m) ?
			  pl_map_max_buckets(m) :
			  pl_map_max_devices(m);
	if (!types || !reps || !counts)
		goto out;
	/* affected_types, in step order, duplicates kept; reps is
	 * replications_by_type (per type, the last step wins). */
	for (int i = 0; i < len; i++) {
		const struct pl_rule_step *s = pl_map_rule_step(m, r, i);

		if (!s || s->op < 2 || s->op == PL_RULE_EMIT)
			continue;
		types[n++] = s->arg2;
	}
	for (int i = 0; i < len; i++) {
		const struct pl_rule_step *s = pl_map_rule_step(m, r, i);

		if (!s || s->op < 2 || s->op == PL_RULE_EMIT)
			continue;
		for (int j = 0; j < n; j++)
			if (types[j] == s->arg2)
				reps[j] = s->arg1;
	}
	/* max_devices_of_type[t] is incremented once per occurrence of t. */
	for (int j = 0; j < n; j++) {
		int c = named_of_type(m, types[j]);

		for (int k = 0; k < n; k++)
			if (types[k] == types[j])
				counts[k] += c;
	}
	for (int j = 0; j < n; j++)
		if (reps[j] > 0 && reps[j] < counts[j])
			for (int k = 0; k < n; k++)
				if (types[k] == types[j])
					counts[k] = reps[j];
	for (int j = 0; j < n; j++)
		if (counts[j] > 0 && counts[j] < max_aff)
			max_aff = counts[j];
out:
	free(types);
	free(reps);
	free(counts);
	return max_aff;
}

/* Rule range after CrushTester's defaulting. */
static void rule_range(const pl_map *m, struct crush_opts *o)
{
	if (o->min_rule < 0 || o->max_rule < 0) {
		o->min_rule = 0;
		o->max_rule = pl_map_max_rules(m) - 1;
	}
	if (o->min_x < 0 || o->max_x < 0) {
		o->min_x = 0;
		o->max_x = 1023;
	}
}

static void rep_range(const pl_map *m, const struct crush_opts *o, int r,
		      int *minr, int *maxr)
{
	*minr = o->min_rep;
	*maxr = o->max_rep;
	if (o->min_rep < 0 || o->max_rep < 0) {
		*minr = pl_map_rule_min_size(m, r);
		*maxr = pl_map_rule_max_size(m, r);
	}
}

/* Largest num_rep any tested rule will ask for: the workspace size. */
static int max_result(const pl_map *m, const struct crush_opts *o)
{
	int best = 1;

	for (int r = o->min_rule; r < pl_map_max_rules(m) && r <= o->max_rule;
	     r++) {
		int minr, maxr;

		if (!pl_map_rule_exists(m, r))
			continue;
		rep_range(m, o, r, &minr, &maxr);
		if (maxr > best)
			best = maxr;
	}
	return best;
}

static void *make_work(const pl_map *m, int result_max)
{
	size_t n = pl_work_size(m, result_max); /* 0: map not finalized */
	void *w = n ? malloc(n) : NULL;

	if (w && pl_work_init(m, w, result_max)) {
		free(w);
		w = NULL;
	}
	return w;
}

static const char *rule_name(const pl_map *m, int r)
{
	const char *n = pl_map_rule_name(m, r);

	return n ? n : "";
}

/* One batch's --show-mappings and --show-bad-mappings lines, printed by
 * the threads that mapped it (batch_print), each chunk into its own part
 * of buf, then written in input order. */
struct batch_text {
	char *buf;
	size_t stride; /* room per input */
	size_t first[PMAP_MAX_CHUNKS], len[PMAP_MAX_CHUNKS];
	const int *out, *n;
	int rule, nr, mappings, bad;
	int64_t x0;
};

static void batch_print(void *arg, int chunk, int first, int count)
{
	struct batch_text *bt = arg;
	char *p0 = bt->buf + (size_t)first * bt->stride, *p = p0;

	for (int k = first; k < first + count; k++)
		p += crush_lines_put(p, bt->rule, (int)(bt->x0 + k), bt->nr,
				     bt->out + (size_t)k * (size_t)bt->nr,
				     bt->n[k], bt->mappings, bt->bad);
	bt->first[chunk] = (size_t)first * bt->stride;
	bt->len[chunk] = (size_t)(p - p0);
}

static int run_test(struct cli_ctx *ctx, const pl_map *m,
		    struct crush_opts *o)
{
	int maxdev = pl_map_max_devices(m), res_max, ret = 1;
	uint32_t *weight = make_weights(m, o);
	int *per = NULL, *out = NULL, *sizes = NULL, *counts = NULL;
	float *expected = NULL;
	struct pmap *pm = NULL;
	FILE *f = stdout;
	struct batch_text bt = { 0 };
	int print = o->mappings || o->bad;

	rule_range(m, o);
	res_max = max_result(m, o);
	per = calloc((size_t)(maxdev > 0 ? maxdev : 1), sizeof(*per));
	expected = calloc((size_t)(maxdev > 0 ? maxdev : 1), sizeof(*expected));
	out = calloc((size_t)res_max * PMAP_BATCH, sizeof(*out));
	counts = calloc(PMAP_BATCH, sizeof(*counts));
	sizes = calloc((size_t)res_max + 1, sizeof(*sizes));
	pm = pmap_create(m, res_max);
	bt.stride = crush_lines_max(res_max);
	if (print)
		bt.buf = malloc(bt.stride * PMAP_BATCH);
	if (!weight || !per || !expected || !out || !counts || !sizes || !pm ||
	    (print && !bt.buf)) {
		cli_err(ctx, "out of memory");
		goto done;
	}

	if (o->util_all) {
		fflush(stdout);
		fputs("devices weights (hex): [", stderr);
		for (int i = 0; i < maxdev; i++)
			fprintf(stderr, i ? ",%x" : "%x", weight[i]);
		fputs("]\n", stderr);
	}

	for (int r = o->min_rule; r < pl_map_max_rules(m) && r <= o->max_rule;
	     r++) {
		int minr, maxr, max_aff;

		if (!pl_map_rule_exists(m, r)) {
			if (o->stats)
				fprintf(f, "rule %d dne\n", r);
			continue;
		}
		rep_range(m, o, r, &minr, &maxr);
		if (o->stats)
			fprintf(f, "rule %d (%s), x = %d..%d, numrep = %d..%d\n",
				r, rule_name(m, r), o->min_x, o->max_x, minr,
				maxr);
		max_aff = max_affected_by_rule(m, r);

		for (int nr = minr; nr <= maxr; nr++) {
			/* int arithmetic, as CrushTester */
			int num_objects = (int)((int64_t)o->max_x - o->min_x + 1);
			int32_t total_weight = 0;
			float expected_objects;

			for (int i = 0; i < maxdev; i++)
				total_weight = (int32_t)((uint32_t)total_weight +
							 weight[i]);
			if (total_weight == 0)
				continue;
			expected_objects = (float)((nr < max_aff ? nr : max_aff) *
						   num_objects);
			for (int i = 0; i < maxdev; i++) {
				float prop = (float)weight[i] / (float)total_weight;

				/* CrushTester sizes its expected vector by
				 * (float)max_devices: past 2^24 devices the
				 * last ones fall outside it (read past its
				 * end there; 0 here, so not listed) */
				expected[i] = (double)i < (double)(float)maxdev ?
					prop * expected_objects : 0;
				per[i] = 0;
			}
			memset(sizes, 0, ((size_t)nr + 1) * sizeof(*sizes));

			for (int64_t x0 = o->min_x; x0 <= o->max_x;
			     x0 += PMAP_BATCH) {
				int count = o->max_x - x0 + 1 < PMAP_BATCH ?
					(int)(o->max_x - x0 + 1) : PMAP_BATCH;

				int ns;

				bt = (struct batch_text){ bt.buf, bt.stride,
							  { 0 }, { 0 }, out,
							  counts, r, nr,
							  o->mappings, o->bad,
							  x0 };
				ns = pmap_run(pm, r, x0, count, nr, weight,
					      maxdev, o->pool_id, out, counts,
					      print ? batch_print : NULL, &bt);
				for (int i = 0; print && i < ns; i++)
					fwrite(bt.buf + bt.first[i], 1,
					       bt.len[i], f);
				for (int k = 0; k < count; k++) {
					const int *res = out + (size_t)k * (size_t)nr;
					int n = counts[k];

					for (int i = 0; i < n; i++)
						if (res[i] != PL_ITEM_NONE &&
						    res[i] >= 0 && res[i] < maxdev)
							per[res[i]]++;
					sizes[n]++;
				}
			}

			if (o->stats)
				for (int s = 0; s <= nr; s++)
					if (sizes[s])
						fprintf(f,
							"rule %d (%s) num_rep %d result size == %d:\t%d/%d\n",
							r, rule_name(m, r), nr, s,
							sizes[s], num_objects);
			if (o->stats && (o->util || o->util_all))
				for (int i = 0; i < maxdev; i++) {
					if (o->util &&
					    !(expected[i] > 0 && per[i] > 0))
						continue;
					fprintf(f,
						"  device %d:\t\t stored : %d\t expected : ",
						i, per[i]);
					cli_put_double(f, expected[i]);
					fputc('\n', f);
				}
		}
	}
	if (o->choose_tries) {
		/* The histogram the whole run filled in (Ceph keeps it in the
		 * map, we in the one workspace); choose_total_tries rows. */
		struct pl_tunables t;
		uint32_t v[256];
		int nt = 256;

		pmap_choose_tries(pm, v, nt);

		pl_map_get_tunables(m, &t);
		if ((int)t.choose_total_tries < nt)
			nt = (int)t.choose_total_tries;
		for (int i = 0; i < nt; i++)
			fprintf(f, "%2d: %9u\n", i, v[i]);
	}
	ret = 0;
done:
	free(weight);
	free(per);
	free(expected);
	free(out);
	free(sizes);
	free(counts);
	free(bt.buf);
	pmap_destroy(pm);
	return ret;
}

int cmd_crush_test(struct cli_ctx *ctx, int argc, char **argv)
{
	struct crush_opts o;
	pl_map *m;
	int r = parse_opts(ctx, argc, argv, 0, &o);

	if (r) {
		free(o.ov);
		return r == 2 ? 0 : 1;
	}
	if (!o.mappings && !o.bad && !o.stats && !o.choose_tries)
		cli_err(ctx, "warning: no output selected; use --show-mappings, "
			     "--show-bad-mappings, --show-statistics, "
			     "--show-utilization[-all] or --show-choose-tries");
	m = load_map(ctx, o.in);
	if (!m) {
		free(o.ov);
		return 1;
	}
	r = 0;
	if (o.mappings || o.bad || o.stats || o.choose_tries)
		r = run_test(ctx, m, &o);
	pl_map_destroy(m);
	free(o.ov);
	if (fflush(stdout) || ferror(stdout))
		return cli_err(ctx, "writing output: %s", strerror(errno));
	return r;
}

static int same(const int *a, int na, const int *b, int nb)
{
	return na == nb && memcmp(a, b, (size_t)na * sizeof(*a)) == 0;
}

int cmd_crush_compare(struct cli_ctx *ctx, int argc, char **argv)
{
	struct crush_opts o;
	pl_map *a = NULL, *b = NULL;
	uint32_t *weight = NULL;
	int *out = NULL, *out2 = NULL, res_max, maxdev, any_bad = 0, ret = 1;
	void *wa = NULL, *wb = NULL;
	int r = parse_opts(ctx, argc, argv, 1, &o);

	if (r) {
		free(o.ov);
		return r == 2 ? 0 : 1;
	}
	if (!(a = load_map(ctx, o.in)) || !(b = load_map(ctx, o.cmp)))
		goto done;
	rule_range(a, &o);
	res_max = max_result(a, &o);
	maxdev = pl_map_max_devices(a);
	weight = make_weights(a, &o);
	out = calloc((size_t)res_max, sizeof(*out));
	out2 = calloc((size_t)res_max, sizeof(*out2));
	wa = make_work(a, res_max);
	wb = make_work(b, res_max);
	if (!weight || !out || !out2 || !wa || !wb) {
		cli_err(ctx, "out of memory");
		goto done;
	}
	for (int rn = o.min_rule; rn < pl_map_max_rules(a) && rn <= o.max_rule;
	     rn++) {
		int minr, maxr, bad = 0, max;

		if (!pl_map_rule_exists(a, rn)) {
			if (o.stats)
				printf("rule %d dne\n", rn);
			continue;
		}
		rep_range(a, &o, rn, &minr, &maxr);
		for (int nr = minr; nr <= maxr; nr++)
			for (int64_t x = o.min_x; x <= o.max_x; x++) {
				/* CrushTester::compare: choose_args 0,
				 * falling back to the default set */
				int n1 = pl_do_rule_args(
					a, rn, (int)x, out, nr, weight,
					maxdev, wa,
					pl_map_choose_args_for(a, 0));
				int n2 = pl_do_rule_args(
					b, rn, (int)x, out2, nr, weight,
					maxdev, wb,
					pl_map_choose_args_for(b, 0));

				if (!same(out, n1, out2, n2))
					bad++;
			}
		if (bad)
			any_bad = 1;
		max = (int)((int64_t)(maxr - minr + 1) *
			    (int)((int64_t)o.max_x - o.min_x + 1));
		printf("rule %d had %d/%d mismatched mappings (", rn, bad, max);
		cli_put_double(stdout, (double)bad / (double)max);
		printf(")\n");
	}
	if (any_bad) {
		fflush(stdout);
		fputs("warning: maps are NOT equivalent\n", stderr);
	} else {
		printf("maps appear equivalent\n");
		ret = 0;
	}
done:
	if (fflush(stdout) || ferror(stdout))
		ret = cli_err(ctx, "writing output: %s", strerror(errno));
	free(weight);
	free(out);
	free(out2);
	free(wa);
	free(wb);
	if (a)
		pl_map_destroy(a);
	if (b)
		pl_map_destroy(b);
	free(o.ov);
	return ret;
}
