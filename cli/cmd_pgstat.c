/*
 * cmd_pgstat.c - the one-line and per-pool summaries operators type:
 * `osd stat`, `pg stat`, `pg dump_stuck`, `osd pool stats`.  mgr/ takes
 * the snapshot; the text is Ceph 16.2's (OSDMap::print_summary,
 * PGMapDigest::print_oneline_summary, PGMap::dump_stuck_plain,
 * PGMap::dump_pool_stats_and_io).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cluster_cmds.h"
#include "mgr.h"
#include "osdmap.h"
#include "util.h"

/* ---- osd stat ---- */

int ccmd_osd_stat(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct mgr_snap s;

	if (cc_nargs(ctx, argc, argv, 0) || cc_snap(ctx, 0, &s))
		return 1;
	if (ctx->json) {
		/* print_summary's fields: the stamps in epoch seconds (0:
		 * not known, as Ceph's zero utime_t) */
		cc_json_out(ctx, json_pack("{s:i, s:i, s:i, s:I, s:i, s:I, "
					   "s:i}",
					   "epoch", (int)cfs_osdmap_epoch(s.m),
					   "num_osds", s.h.num_osds,
					   "num_up_osds", s.h.num_up,
					   "osd_up_since",
					   (json_int_t)cfs_osdmap_last_up_change(s.m),
					   "num_in_osds", s.h.num_in,
					   "osd_in_since",
					   (json_int_t)cfs_osdmap_last_in_change(s.m),
					   "num_remapped_pgs", s.ntemp));
	} else {
		cc_osd_summary(ctx->out, &s, 1);
		fputc('\n', ctx->out);
	}
	mgr_snap_free(&s);
	return 0;
}

/* ---- pg stat ---- */

/* "3/36 objects degraded (8.333%)" and its JSON fields, when n > 0
 * (PGMapDigest::recovery_summary). */
static void recovery_part(FILE *f, json_t *o, const char *what, uint64_t n,
			  uint64_t of)
{
	double ratio = of ? (double)n / (double)of : 0;
	char k[64];

	if (!n)
		return;
	if (f)
		fprintf(f, "; %llu/%llu objects %s (%.3f%%)",
			(unsigned long long)n, (unsigned long long)of, what,
			100.0 * ratio);
	if (o) {
		snprintf(k, sizeof(k), "%s_objects", what);
		json_object_set_new(o, k, json_integer((json_int_t)n));
		snprintf(k, sizeof(k), "%s_total", what);
		json_object_set_new(o, k, json_integer((json_int_t)of));
		snprintf(k, sizeof(k), "%s_ratio", what);
		json_object_set_new(o, k, json_real(ratio));
	}
}

int ccmd_pg_stat(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct mgr_snap s;
	struct mgr_pg_state *sc;
	int nst;
	char a[32], b[32], c[32], d[32];

	if (cc_nargs(ctx, argc, argv, 0) || cc_snap(ctx, MGR_SNAP_PGS, &s))
		return 1;
	nst = mgr_pg_states(&s, &sc);
	if (nst < 0) {
		mgr_snap_free(&s);
		return cc_err(ctx, "%s", cfs_strerror(nst));
	}
	mgr_pg_states_ceph_order(sc, nst);
	if (ctx->json) {
		json_t *st = json_array(), *o;

		for (int i = 0; i < nst; i++)
			json_array_append_new(st, json_pack("{s:s, s:i}",
							    "name", sc[i].name,
							    "num",
							    sc[i].count));
		o = json_pack("{s:o, s:i, s:I, s:I, s:I, s:I, s:I}",
			      "num_pg_by_state", st, "num_pgs", (int)s.npg,
			      "num_bytes", (json_int_t)s.bytes, "total_bytes",
			      (json_int_t)s.h.total, "total_avail_bytes",
			      (json_int_t)s.h.raw_avail, "total_used_bytes",
			      (json_int_t)s.h.used, "total_used_raw_bytes",
			      (json_int_t)s.h.used);
		recovery_part(NULL, o, "degraded", s.t.degraded, s.t.copies);
		recovery_part(NULL, o, "misplaced", s.t.misplaced,
			      s.t.copies);
		recovery_part(NULL, o, "unfound", s.t.unfound, s.t.objects);
		cc_json_out(ctx, json_pack("{s:o}", "pg_summary", o));
	} else {
		FILE *f = ctx->out;

		fprintf(f, "%u pgs: ", s.npg);
		for (int i = 0; i < nst; i++)
			fprintf(f, "%s%d %s", i ? ", " : "", sc[i].count,
				sc[i].name);
		fprintf(f, "; %s data, %s used, %s / %s avail",
			cfs_format_size(s.bytes, a, sizeof(a)),
			cfs_format_size(s.h.used, b, sizeof(b)),
			cfs_format_size(s.h.raw_avail, c, sizeof(c)),
			cfs_format_size(s.h.total, d, sizeof(d)));
		recovery_part(f, NULL, "degraded", s.t.degraded, s.t.copies);
		recovery_part(f, NULL, "misplaced", s.t.misplaced,
			      s.t.copies);
		recovery_part(f, NULL, "unfound", s.t.unfound, s.t.objects);
		fputc('\n', f);
	}
	free(sc);
	mgr_snap_free(&s);
	return 0;
}

/* ---- pg dump_stuck ---- */

/*
 * `pg dump_stuck [inactive|unclean|stale|undersized|degraded]...`: the
 * PGs in any of the kinds (unclean when none is named, as Ceph's
 * DaemonServer defaults), in dump_pg_stats_plain's brief table; "ok" on
 * stderr as Ceph's status string says.  Ceph lists a PG once it has been
 * so for mon_pg_stuck_threshold (60 s); crushfs keeps no PG history and
 * lists every PG in the state now.
 */
int ccmd_pg_dump_stuck(struct cmd_ctx *ctx, int argc, char **argv)
{
	static const char *const kinds[] = { "inactive", "unclean", "stale",
					     "undersized", "degraded" };
	static const char *const heads[] = { "PG_STAT",	   "STATE",
					     "UP",	   "UP_PRIMARY",
					     "ACTING",	   "ACTING_PRIMARY" };
	static const int right[] = { 0, 1, 1, 1, 1, 1 };
	unsigned want = 0;
	struct mgr_snap s;
	json_t *arr = NULL;
	struct cc_table *t = NULL;
	int n = 0;

	for (int i = 0; i < argc; i++) {
		int k;

		for (k = 0; k < 5; k++)
			if (!strcmp(argv[i], kinds[k]))
				break;
		if (k == 5)
			return cc_err(ctx,
				      "unknown type '%s' (inactive, unclean, "
				      "stale, undersized or degraded)",
				      argv[i]);
		want |= 1u << k; /* MGR_STUCK_* in kinds' order */
	}
	if (!want)
		want = MGR_STUCK_UNCLEAN;
	if (cc_snap(ctx, MGR_SNAP_PGS, &s))
		return 1;
	if (ctx->json)
		arr = json_array();
	else
		t = cc_table_new(6, heads, right);
	for (uint32_t i = 0; i < s.npg; i++) {
		const struct ol_pg_stat *g = &s.pg[i];
		char st[128], v[128];

		if (!(mgr_pg_stuck(g) & want))
			continue;
		n++;
		if (arr) {
			json_array_append_new(arr, cc_pg_json(g));
			continue;
		}
		ol_pg_state_str(g->state, st, sizeof(st));
		cc_table_cell(t, "%s", g->pgid);
		cc_table_cell(t, "%s", st);
		cc_pg_vector_string(v, sizeof(v), g->up, g->nup);
		cc_table_cell(t, "%s", v);
		cc_table_cell(t, "%d", g->up_primary);
		cc_pg_vector_string(v, sizeof(v), g->acting, g->nacting);
		cc_table_cell(t, "%s", v);
		cc_table_cell(t, "%d", g->acting_primary);
	}
	if (arr) {
		cc_json_out(ctx, json_pack("{s:o}", "stuck_pg_stats", arr));
	} else {
		if (n)
			cc_table_print(t, ctx->out);
		cc_table_free(t);
		/* after the table, as the ceph tool prints its status */
		fflush(ctx->out);
		fprintf(ctx->err, "ok\n");
	}
	mgr_snap_free(&s);
	return 0;
}

/* ---- osd pool stats ---- */

/*
 * `osd pool stats [POOL]` (PGMap::dump_pool_stats_and_io): per pool its
 * recovery: objects degraded, misplaced, unfound; "nothing is going on"
 * when none.  crushfs keeps no client io or recovery rates per pool.
 */
int ccmd_osd_pool_stats(struct cmd_ctx *ctx, int argc, char **argv)
{
	const struct cfs_pool_info *only = NULL;
	struct mgr_snap s;
	struct mgr_df df;
	json_t *arr = NULL;
	int r;

	if (argc > 1)
		return cc_usage(ctx, "unexpected argument '%s'", argv[1]);
	if (cc_snap(ctx, MGR_SNAP_PGS, &s))
		return 1;
	if (argc == 1 && !(only = cc_pool_arg(ctx, s.m, argv[0]))) {
		mgr_snap_free(&s);
		return 1;
	}
	r = mgr_df_compute(&s, &df);
	if (r) {
		mgr_snap_free(&s);
		return cc_err(ctx, "%s", cfs_strerror(r));
	}
	if (ctx->json)
		arr = json_array();
	for (int i = 0; i < df.npools; i++) {
		const struct mgr_pool_df *w = &df.pools[i];
		uint64_t copies = w->objects * (uint64_t)w->pool->size;

		if (only && w->pool != only)
			continue;
		if (arr) {
			json_t *rec = json_object();

			recovery_part(NULL, rec, "degraded", w->degraded,
				      copies);
			recovery_part(NULL, rec, "misplaced", w->misplaced,
				      copies);
			recovery_part(NULL, rec, "unfound", w->unfound,
				      w->objects);
			json_array_append_new(
				arr, json_pack("{s:s, s:I, s:o, s:{}, s:{}}",
					       "pool_name", w->pool->name,
					       "pool_id",
					       (json_int_t)w->pool->id,
					       "recovery", rec,
					       "recovery_rate",
					       "client_io_rate"));
			continue;
		}
		fprintf(ctx->out, "pool %s id %lld\n", w->pool->name,
			(long long)w->pool->id);
		if (!w->degraded && !w->misplaced && !w->unfound) {
			fprintf(ctx->out, "  nothing is going on\n\n");
			continue;
		}
		if (w->degraded)
			fprintf(ctx->out, "  %llu/%llu objects degraded "
				"(%.3f%%)\n", (unsigned long long)w->degraded,
				(unsigned long long)copies,
				100.0 * (double)w->degraded / (double)copies);
		if (w->misplaced)
			fprintf(ctx->out, "  %llu/%llu objects misplaced "
				"(%.3f%%)\n", (unsigned long long)w->misplaced,
				(unsigned long long)copies,
				100.0 * (double)w->misplaced / (double)copies);
		if (w->unfound)
			fprintf(ctx->out, "  %llu/%llu objects unfound "
				"(%.3f%%)\n", (unsigned long long)w->unfound,
				(unsigned long long)w->objects,
				100.0 * (double)w->unfound /
					(double)w->objects);
		fputc('\n', ctx->out);
	}
	if (arr)
		cc_json_out(ctx, arr);
	mgr_df_free(&df);
	mgr_snap_free(&s);
	return 0;
}
