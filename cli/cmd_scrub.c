/*
 * cmd_scrub.c - `pg scrub|deep-scrub|repair PGID` and `scrub [--deep]
 * [--repair]`: Ceph's PG scrub commands (ceph pg scrub / deep-scrub /
 * repair), run at once rather than scheduled, and a whole-cluster pass
 * with progress.  Exit 1 when errors remain (found and not repaired, or
 * objects with no good copy).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "cli.h"
#include "cluster_cmds.h"
#include "objlayer.h"
#include "osdmap.h"
#include "progress.h"
#include "util.h"

/* What a scrub says about each damaged copy, between progress redraws. */
struct scrub_out {
	struct cmd_ctx *ctx;
	struct cli_progress pr;
};

static void line(const char *l, void *arg)
{
	struct scrub_out *o = arg;

	cli_progress_line(&o->pr, l);
}

/* "1 copy", "3 copies": counts are written as Ceph writes them
 * ("1 scrub error", "3 scrub errors"), not "cop(ies)" */
static const char *pl(uint64_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* The PGs a scrub left damaged, for the line that says what to run. */
struct bad_pgs {
	char ids[8][24];
	int n, more;
};

static void bad_add(struct bad_pgs *b, int64_t pool, uint32_t ps)
{
	if (b->n < 8)
		snprintf(b->ids[b->n++], sizeof(b->ids[0]), "%lld.%x",
			 (long long)pool, ps);
	else
		b->more++;
}

static int report(struct cmd_ctx *ctx, const char *what,
		  const struct ol_scrub_stats *st, int flags,
		  const struct bad_pgs *bad)
{
	uint64_t left = st->errors > st->repaired ? st->errors - st->repaired
						  : 0;
	char pgs[256] = "";
	size_t o = 0;

	if (ctx->json) {
		cc_json_out(ctx,
			    json_pack("{s:s, s:i, s:I, s:I, s:I, s:I, s:I, "
				      "s:I, s:I}",
				      "scrub", what, "pgs", (int)st->pgs,
				      "objects", (json_int_t)st->objects,
				      "copies", (json_int_t)st->copies,
				      "bytes", (json_int_t)st->bytes,
				      "errors", (json_int_t)st->errors,
				      "repaired", (json_int_t)st->repaired,
				      "unfound", (json_int_t)st->unfound,
				      "stray", (json_int_t)st->stray));
	} else {
		fprintf(ctx->out,
			"%s%s: %u %s, %llu %s, %llu %s, %llu repaired, %llu "
			"unfound\n",
			what, flags & OL_SCRUB_REPAIR ? " (repair)" : "",
			st->pgs, pl(st->pgs, "pg", "pgs"),
			(unsigned long long)st->objects,
			pl(st->objects, "object", "objects"),
			(unsigned long long)st->errors,
			pl(st->errors, "error", "errors"),
			(unsigned long long)st->repaired,
			(unsigned long long)st->unfound);
	}
	if (!left && !st->unfound)
		return 0;
	for (int i = 0; i < bad->n && o < sizeof(pgs); i++)
		o += (size_t)snprintf(pgs + o, sizeof(pgs) - o, "%s%s",
				      i ? ", " : "", bad->ids[i]);
	if (bad->more && o < sizeof(pgs))
		snprintf(pgs + o, sizeof(pgs) - o, " and %d more", bad->more);
	if (left && !(flags & OL_SCRUB_REPAIR)) {
		/* what to run, the PGs named: each one's repair when they
		 * are few, else the whole pass */
		char run[256] = "";
		int npg = bad->n + bad->more;

		o = 0;
		for (int i = 0; npg <= 3 && i < bad->n && o < sizeof(run); i++)
			o += (size_t)snprintf(run + o, sizeof(run) - o,
					      "%s'crushfs pg repair %s'",
					      i ? ", " : "", bad->ids[i]);
		if (npg > 1 && o < sizeof(run))
			snprintf(run + o, sizeof(run) - o, "%s'crushfs scrub "
				 "--repair'", o ? " or " : "");
		return cc_err(ctx, "%llu inconsistent %s in %s %s%s: run %s",
			      (unsigned long long)left,
			      pl(left, "copy", "copies"),
			      pl((uint64_t)npg, "pg", "pgs"), pgs,
			      st->unfound ? " (and objects with no good copy)"
					  : "",
			      run);
	}
	/* a repair that could not repair: no good copy to rebuild from */
	return cc_err(ctx, "%llu %s with no good copy in %s %s%s",
		      (unsigned long long)st->unfound,
		      pl(st->unfound, "object", "objects"),
		      pl((uint64_t)(bad->n + bad->more), "pg", "pgs"), pgs,
		      left ? "; their copies could not be rebuilt" : "");
}

static int pg_cmd(struct cmd_ctx *ctx, int argc, char **argv, int flags,
		  const char *what)
{
	struct ol_scrub_stats st = { 0 };
	struct scrub_out o = { ctx, { 0 } };
	const cfs_osdmap *m;
	int64_t pool;
	uint32_t ps;
	int r;

	if (cc_nargs(ctx, argc, argv, 1))
		return 1;
	m = cfs_osdmap_get(ctx->cluster);
	r = cfs_pool_pgid_parse(m, argv[0], &pool, &ps);
	cfs_osdmap_put(m);
	if (r)
		return cc_err(ctx, "%s: no such pg (expected e.g. 1.1f)",
			      argv[0]);
	cli_progress_init(&o.pr, ctx->err, ctx->tty, 1, what, "pgs");
	r = ol_scrub_pg(ctx->ol, pool, ps, flags, &st, line, &o);
	if (r)
		return cc_err(ctx, "pg %s: %s", argv[0], cfs_strerror(r));
	{
		struct bad_pgs bad = { .n = 0 };

		bad_add(&bad, pool, ps);
		return report(ctx, what, &st, flags, &bad);
	}
}

int ccmd_pg_scrub(struct cmd_ctx *ctx, int argc, char **argv)
{
	return pg_cmd(ctx, argc, argv, 0, "scrub");
}

int ccmd_pg_deep_scrub(struct cmd_ctx *ctx, int argc, char **argv)
{
	return pg_cmd(ctx, argc, argv, OL_SCRUB_DEEP, "deep-scrub");
}

int ccmd_pg_repair(struct cmd_ctx *ctx, int argc, char **argv)
{
	/* Ceph's repair is a deep scrub that fixes what it finds */
	return pg_cmd(ctx, argc, argv, OL_SCRUB_DEEP | OL_SCRUB_REPAIR,
		      "repair");
}

int ccmd_scrub(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct ol_scrub_stats st = { 0 };
	struct scrub_out o = { ctx, { 0 } };
	struct bad_pgs bad = { .n = 0 };
	const cfs_osdmap *m;
	uint32_t pg_num = 0, done = 0;
	int flags = 0, r = 0;

	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--deep"))
			flags |= OL_SCRUB_DEEP;
		else if (!strcmp(argv[i], "--repair"))
			flags |= OL_SCRUB_REPAIR | OL_SCRUB_DEEP;
		else
			return cc_err(ctx, "unknown argument '%s' (usage: "
				      "scrub [--deep] [--repair])",
				      argv[i]);
	}
	/* every pool that holds objects, PG by PG */
	m = cfs_osdmap_get(ctx->cluster);
	for (int i = 0; i < cfs_osdmap_npools(m); i++)
		pg_num += cfs_osdmap_pool_at(m, i)->pg_num;
	cli_progress_init(&o.pr, ctx->err, ctx->tty, ctx->json,
			  flags & OL_SCRUB_DEEP ? "deep-scrub" : "scrub",
			  "pgs");
	for (int i = 0; i < cfs_osdmap_npools(m) && !r; i++) {
		const struct cfs_pool_info *q = cfs_osdmap_pool_at(m, i);

		for (uint32_t ps = 0; ps < q->pg_num && !r; ps++) {
			uint64_t was = st.errors - st.repaired + st.unfound;

			r = ol_scrub_pg(ctx->ol, q->id, ps, flags, &st, line,
					&o);
			if (st.errors - st.repaired + st.unfound > was)
				bad_add(&bad, q->id, ps);
			cli_progress_update(&o.pr, ++done, pg_num, st.bytes);
		}
	}
	cfs_osdmap_put(m);
	cli_progress_done(&o.pr);
	if (r)
		return cc_err(ctx, "%s", cfs_strerror(r));
	return report(ctx, flags & OL_SCRUB_DEEP ? "deep-scrub" : "scrub",
		      &st, flags, &bad);
}
