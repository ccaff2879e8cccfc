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

static int report(struct cmd_ctx *ctx, const char *what,
		  const struct ol_scrub_stats *st, int flags)
{
	int left = st->errors > st->repaired || st->unfound;

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
			"%s%s: %u pg(s), %llu object(s), %llu error(s), %llu "
			"repaired, %llu unfound\n",
			what, flags & OL_SCRUB_REPAIR ? " (repair)" : "",
			st->pgs, (unsigned long long)st->objects,
			(unsigned long long)st->errors,
			(unsigned long long)st->repaired,
			(unsigned long long)st->unfound);
	}
	if (left)
		return cc_err(ctx,
			      "%llu inconsistent cop(ies) left%s: run 'crushfs "
			      "pg repair PGID' or 'crushfs scrub --repair'",
			      (unsigned long long)(st->errors - st->repaired),
			      st->unfound ? ", objects with no good copy" : "");
	return 0;
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
	return report(ctx, what, &st, flags);
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
			r = ol_scrub_pg(ctx->ol, q->id, ps, flags, &st, line,
					&o);
			cli_progress_update(&o.pr, ++done, pg_num, st.bytes);
		}
	}
	cfs_osdmap_put(m);
	cli_progress_done(&o.pr);
	if (r)
		return cc_err(ctx, "%s", cfs_strerror(r));
	return report(ctx, flags & OL_SCRUB_DEEP ? "deep-scrub" : "scrub",
		      &st, flags);
}
