/*
 * cmd_status.c - `status`, `health [detail]`, `df [detail]`, `pg dump` and
 * `check`: the commands that look at the data as a whole.  mgr/ takes the
 * snapshot and computes the figures; this prints them as Ceph 16.2 does
 * (`ceph -s`, `ceph health detail`, `ceph df [detail]`, `ceph pg dump
 * pgs_brief`).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "cluster_cmds.h"
#include "objlayer.h"
#include "osdmap.h"
#include "mgr.h"
#include "placement.h"
#include "progress.h"
#include "usage.h"
#include "util.h"

/* ---- health ---- */

/* PGMap.cc pg_vector_string (16.2), shared by the text of pg dump, pg ls
 * and pg dump_stuck: an empty EC slot is NONE (JSON keeps 2147483647) */
void cc_pg_vector_string(char *buf, size_t len, const int *v, int n)
{
	size_t o = 0;

	o += (size_t)snprintf(buf, len, "[");
	for (int i = 0; i < n && o < len; i++)
		o += (size_t)(v[i] == 0x7fffffff ?
			snprintf(buf + o, len - o, "%sNONE", i ? "," : "") :
			snprintf(buf + o, len - o, "%s%d", i ? "," : "", v[i]));
	if (o < len)
		snprintf(buf + o, len - o, "]");
}

static void health_detail_text(FILE *f, const struct cfs_health *h)
{
	for (int i = 0; i < h->nchecks; i++) {
		const struct cfs_health_check *c = &h->checks[i];

		cc_mute_prefix(f, h, c->code); /* "(MUTED ...) " */
		fprintf(f, "[%s] %s: %s\n",
			c->severity == CFS_HEALTH_ERR ? "ERR" : "WRN", c->code,
			c->summary);
		for (int k = 0; k < c->ndetail; k++)
			fprintf(f, "    %s\n", c->detail[k]);
	}
}

static void health_line(FILE *f, const struct cfs_health *h)
{
	int n = 0;

	fputs(cfs_health_status_name(h->status), f);
	for (int i = 0; i < h->nchecks; i++)
		if (!h->checks[i].muted)
			fprintf(f, "%s%s", n++ ? "; " : " ",
				h->checks[i].summary);
	cc_mutes_line(f, h); /* " (muted: CODE ...)" */
	fputc('\n', f);
}

/* ---- status ---- */

/* Take the snapshot; 0, or the exit status after one error line. */
int cc_snap(struct cmd_ctx *ctx, unsigned flags, struct mgr_snap *s)
{
	int r = mgr_snap_take(ctx->cluster, ctx->ol, flags, s);

	if (r)
		return cc_err(ctx, "cannot take the cluster snapshot: %s",
			      cfs_strerror(r));
	return 0;
}

/* Ceph's si_u_t (include/types.h format_u): counts over 1000 as "12.3k",
 * the precision the widest that fits 5 characters. */
const char *cc_si_u(char *buf, size_t len, uint64_t v)
{
	static const char *const u[] = { "", "k", "M", "G", "T", "P", "E" };
	uint64_t n = v, mult = 1;
	int i = 0;

	while (n >= 1000 && i < 6) {
		n /= 1000;
		mult *= 1000;
		i++;
	}
	if (i == 0 || v % mult == 0) {
		snprintf(buf, len, "%llu%s", (unsigned long long)n, u[i]);
		return buf;
	}
	for (int p = 2; p >= 0; p--)
		if (snprintf(buf, len, "%.*f%s", p, (double)v / (double)mult,
			     u[i]) <= 7)
			break;
	return buf;
}

/* "3/36 objects degraded (8.333%)", as PGMapDigest words it. */
static const char *objects_of(char *buf, size_t len, uint64_t n,
			      uint64_t of, const char *what)
{
	snprintf(buf, len, "%llu/%llu objects %s (%.3f%%)",
		 (unsigned long long)n, (unsigned long long)of, what,
		 of ? 100.0 * (double)n / (double)of : 0.0);
	return buf;
}

/* PGMapDigest::print_summary's "pgs:" lines: the PGs not active, the
 * objects degraded, misplaced and unfound, then the count of each state,
 * each count padded to the widest, on the left (setf(ios::left)). */
static void pgs_lines(FILE *f, const struct mgr_snap *s,
		      const struct mgr_pg_state *sc, int nst)
{
	const char *pad = "             ";
	int first = 1, w = 0, inactive = 0;
	char ob[96];

	fprintf(f, "    pgs:     ");
	for (uint32_t i = 0; i < s->npg; i++)
		inactive += !(s->pg[i].state & OL_PGS_ACTIVE);
	if (inactive) {
		fprintf(f, "%.3f%% pgs not active\n",
			100.0 * inactive / (double)s->npg);
		first = 0;
	}
	if (s->t.degraded) {
		fprintf(f, "%s%s\n", first ? "" : pad,
			objects_of(ob, sizeof(ob), s->t.degraded, s->t.copies,
				   "degraded"));
		first = 0;
	}
	if (s->t.misplaced) {
		fprintf(f, "%s%s\n", first ? "" : pad,
			objects_of(ob, sizeof(ob), s->t.misplaced,
				   s->t.copies, "misplaced"));
		first = 0;
	}
	if (s->t.unfound) {
		fprintf(f, "%s%s\n", first ? "" : pad,
			objects_of(ob, sizeof(ob), s->t.unfound, s->t.objects,
				   "unfound"));
		first = 0;
	}
	for (int i = 0; i < nst; i++) {
		int l = snprintf(ob, sizeof(ob), "%d", sc[i].count);

		if (l > w)
			w = l;
	}
	for (int i = 0; i < nst; i++) {
		fprintf(f, "%s%-*d %s\n", first ? "" : pad, w, sc[i].count,
			sc[i].name);
		first = 0;
	}
	if (first)
		fputc('\n', f);
}

/* Ceph's "io: recovery" and "progress" sections of a rebalance the
 * mounted daemon runs. */
static void recovery_lines(FILE *f, const struct ol_rebalance_progress *rp,
			   double rsec)
{
	double frac = rp->objects_todo ? (double)rp->objects_done /
						 (double)rp->objects_todo
				       : 0;
	int bar = (int)(frac * 28 + 0.5);
	char a[32];

	if (rp->objects_done)
		fprintf(f, " \n  io:\n    recovery: %s/s, %.0f objects/s\n",
			cfs_format_size((uint64_t)(rp->bytes_done /
						   (rsec > 0 ? rsec : 1)),
					a, sizeof(a)),
			(double)rp->objects_done / (rsec > 0 ? rsec : 1));
	fprintf(f, " \n  progress:\n    Rebalance (%.0fs)\n      [", rsec);
	for (int i = 0; i < 28; i++)
		fputc(i < bar ? '=' : '.', f);
	fprintf(f, "] (%llu/%llu object copies)\n",
		(unsigned long long)rp->objects_done,
		(unsigned long long)rp->objects_todo);
}

/* OSDMap::print_summary: "6 osds: 5 up (since 2h), 6 in (since 3d); 3
 * remapped pgs"; with epoch (`osd stat`) "; epoch: e12" before the
 * remapped PGs.  No "(since ...)" when the stamp is not known (a map
 * written before crushfs kept it), as Ceph skips a zero utime_t. */
static void since(FILE *f, int64_t now, int64_t stamp)
{
	char t[32];

	if (!stamp)
		return;
	cc_timespan(t, sizeof(t), now > stamp ? now - stamp : 0);
	fprintf(f, " (since %s)", t);
}

void cc_osd_summary(FILE *f, const struct mgr_snap *s, int epoch)
{
	int64_t now = s->h.now ? s->h.now : (int64_t)time(NULL);

	fprintf(f, "%d osds: %d up", s->h.num_osds, s->h.num_up);
	since(f, now, cfs_osdmap_last_up_change(s->m));
	fprintf(f, ", %d in", s->h.num_in);
	since(f, now, cfs_osdmap_last_in_change(s->m));
	if (epoch)
		fprintf(f, "; epoch: e%u", cfs_osdmap_epoch(s->m));
	if (s->ntemp)
		fprintf(f, "; %d remapped pgs", s->ntemp);
}

/*
 * `ceph -s` (Monitor::get_cluster_status, Ceph 16.2): the health with one
 * summary line per check (the details are `health detail`'s), the
 * services, the data, then recovery io and progress when a rebalance
 * runs.  Sections are separated by a line of one space, as Ceph's are.
 * No mon or mgr line: crushfs runs neither daemon.
 */
int ccmd_status(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct mgr_snap s;
	struct mgr_pg_state *sc;
	struct ol_rebalance_progress rp;
	double rsec = 0;
	int nst, r, rec_active;
	char a[32], b[32], c[32];
	FILE *f = ctx->out;

	if (cc_nargs(ctx, argc, argv, 0))
		return 1;
	/* a rebalance the mounted daemon runs meanwhile */
	rec_active = ctx->ol && ol_recovery_progress(ctx->ol, &rp, &rsec);
	r = cc_snap(ctx, MGR_SNAP_PGS | MGR_SNAP_PG_HEALTH, &s);
	if (r)
		return r;
	nst = mgr_pg_states(&s, &sc);
	if (nst < 0) {
		mgr_snap_free(&s);
		return cc_err(ctx, "%s", cfs_strerror(nst));
	}
	if (ctx->json) {
		cc_json_out(ctx, mgr_status_json(&s, sc, nst,
						 rec_active ? &rp : NULL,
						 rsec));
		goto out;
	}
	fprintf(f, "  cluster:\n    id:     %s\n    health: %s",
		cfs_osdmap_fsid(s.m), cfs_health_status_name(s.h.status));
	/* Monitor::get_health_status: muted checks left out, " (muted:
	 * ...)" after the word */
	cc_mutes_line(f, &s.h);
	fputc('\n', f);
	for (int i = 0; i < s.h.nchecks; i++)
		if (!s.h.checks[i].muted)
			fprintf(f, "            %s\n", s.h.checks[i].summary);
	fprintf(f, " \n  services:\n    osd: ");
	cc_osd_summary(f, &s, 0);
	fprintf(f, "\n \n  data:\n    pools:   %d pools, %u pgs\n",
		cfs_osdmap_npools(s.m), s.npg);
	fprintf(f, "    objects: %s objects, %s\n",
		cc_si_u(c, sizeof(c), s.t.objects),
		cfs_format_size(s.bytes, a, sizeof(a)));
	fprintf(f, "    usage:   %s used, %s / %s avail\n",
		cfs_format_size(s.h.used, a, sizeof(a)),
		cfs_format_size(s.h.raw_avail, b, sizeof(b)),
		cfs_format_size(s.h.total, c, sizeof(c)));
	pgs_lines(f, &s, sc, nst);
	if (rec_active)
		recovery_lines(f, &rp, rsec);
	fprintf(f, " \n");
out:
	free(sc);
	mgr_snap_free(&s);
	return 0;
}

int ccmd_health(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct mgr_snap s;
	int det = 0, r;

	if (argc == 1 && !strcmp(argv[0], "detail"))
		det = 1;
	else if (cc_nargs(ctx, argc, argv, 0))
		return 1;
	r = cc_snap(ctx, MGR_SNAP_PGS | MGR_SNAP_PG_HEALTH, &s);
	if (r)
		return r;
	if (ctx->json) {
		cc_json_out(ctx, mgr_health_json(&s.h));
	} else {
		health_line(ctx->out, &s.h);
		if (det)
			health_detail_text(ctx->out, &s.h);
	}
	mgr_snap_free(&s);
	return 0;
}

/* ---- df ---- */

static json_t *df_json(const struct mgr_df *df, int detail)
{
	json_t *root = json_pack("{s:{s:I, s:I, s:I, s:I, s:f}, s:[]}",
				 "stats", "total_bytes", (json_int_t)df->total,
				 "total_avail_bytes", (json_int_t)df->avail,
				 "total_used_bytes", (json_int_t)df->used,
				 "total_used_raw_bytes", (json_int_t)df->used,
				 "total_used_raw_ratio", df->used_ratio,
				 "pools");
	json_t *cls = json_object();

	/* PGMapDigest::dump_cluster_stats: stats_by_class */
	for (int k = 0; cls && k < df->nclasses; k++) {
		const struct mgr_df_class *c = &df->classes[k];

		json_object_set_new(
			cls, c->name,
			json_pack("{s:I, s:I, s:I, s:I, s:f}", "total_bytes",
				  (json_int_t)c->total, "total_avail_bytes",
				  (json_int_t)c->avail, "total_used_bytes",
				  (json_int_t)c->used, "total_used_raw_bytes",
				  (json_int_t)c->used, "total_used_raw_ratio",
				  c->used_ratio));
	}
	if (root)
		json_object_set_new(root, "stats_by_class", cls);
	else
		json_decref(cls);

	for (int i = 0; root && i < df->npools; i++) {
		const struct mgr_pool_df *w = &df->pools[i];
		const struct cfs_pool_info *q = w->pool;
		/* PGMapDigest::dump_object_stat_sum: no omap in crushfs, so
		 * stored_data = stored and stored_omap = 0 */
		json_t *st = json_pack(
			"{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:f, s:I}",
			"stored", (json_int_t)w->stored, "stored_data",
			(json_int_t)w->stored, "stored_omap", (json_int_t)0,
			"objects", (json_int_t)w->objects, "kb_used",
			(json_int_t)((w->used + 1023) >> 10), "bytes_used",
			(json_int_t)w->used, "data_bytes_used",
			(json_int_t)w->used, "omap_bytes_used", (json_int_t)0,
			"percent_used", w->percent_used, "max_avail",
			(json_int_t)w->max_avail);

		if (st && detail) {
			json_object_update_new(
				st,
				json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, "
					  "s:I, s:I}",
					  "quota_objects",
					  (json_int_t)q->quota_max_objects,
					  "quota_bytes",
					  (json_int_t)q->quota_max_bytes,
					  "dirty", (json_int_t)w->dirty,
					  "compress_bytes_used", (json_int_t)0,
					  "compress_under_bytes", (json_int_t)0,
					  "stored_raw",
					  (json_int_t)((double)w->stored *
						       w->raw_rate),
					  "avail_raw",
					  (json_int_t)((double)w->max_avail *
						       w->raw_rate),
					  "degraded", (json_int_t)w->degraded,
					  "misplaced",
					  (json_int_t)w->misplaced));
		}
		json_array_append_new(json_object_get(root, "pools"),
				      json_pack("{s:s, s:I, s:o}", "name",
						q->name, "id",
						(json_int_t)q->id, "stats",
						st));
	}
	return root;
}

/*
 * `ceph df [detail]` (PGMapDigest::dump_pool_stats_full, Ceph 16.2): the
 * raw storage, then one row per pool; detail adds (DATA)/(OMAP) splits
 * and QUOTA OBJECTS, QUOTA BYTES, DIRTY, USED COMPR, UNDER COMPR.
 * crushfs stores no omap and compresses nothing: those read 0 B.
 */
int ccmd_df(struct cmd_ctx *ctx, int argc, char **argv)
{
	static const char *const rh[] = { "CLASS", "SIZE", "AVAIL",
					  "USED",  "RAW USED", "%RAW USED" };
	static const int rr[] = { 0, 1, 1, 1, 1, 1 };
	static const char *const ph[] = {
		"POOL",	  "ID",	    "PGS",	     "STORED",	    "(DATA)",
		"(OMAP)", "OBJECTS", "USED",	     "(DATA)",	    "(OMAP)",
		"%USED",  "MAX AVAIL", "QUOTA OBJECTS", "QUOTA BYTES",
		"DIRTY",  "USED COMPR", "UNDER COMPR"
	};
	static const int pr[] = { 0, 1, 1, 1, 1, 1, 1, 1, 1,
				  1, 1, 1, 1, 1, 1, 1, 1 };
	/* the plain form's columns, out of ph */
	static const int plain[] = { 0, 1, 2, 3, 6, 7, 10, 11 };
	const char *heads[17];
	int right[17], ncol, detail = 0, r;
	struct mgr_snap s;
	struct mgr_df df;
	struct cc_table *t;
	char a[32];

	if (argc >= 1 && !strcmp(argv[0], "detail")) {
		detail = 1;
		argc--;
		argv++;
	}
	if (cc_nargs(ctx, argc, argv, 0))
		return 1;
	r = cc_snap(ctx, MGR_SNAP_PGS, &s);
	if (r)
		return r;
	r = mgr_df_compute(&s, &df);
	if (r) {
		mgr_snap_free(&s);
		return cc_err(ctx, "%s", cfs_strerror(r));
	}
	if (ctx->json) {
		cc_json_out(ctx, df_json(&df, detail));
		goto out;
	}
	t = cc_table_new(6, rh, rr);
	fprintf(ctx->out, "--- RAW STORAGE ---\n");
	for (int k = 0; k < df.nclasses; k++) {
		const struct mgr_df_class *c = &df.classes[k];

		cc_table_cell(t, "%s", c->name);
		cc_table_cell(t, "%s", cfs_format_size(c->total, a, sizeof(a)));
		cc_table_cell(t, "%s", cfs_format_size(c->avail, a, sizeof(a)));
		cc_table_cell(t, "%s", cfs_format_size(c->used, a, sizeof(a)));
		cc_table_cell(t, "%s", cfs_format_size(c->used, a, sizeof(a)));
		cc_table_cell(t, "%.2f", 100.0 * c->used_ratio);
	}
	cc_table_cell(t, "TOTAL");
	cc_table_cell(t, "%s", cfs_format_size(df.total, a, sizeof(a)));
	cc_table_cell(t, "%s", cfs_format_size(df.avail, a, sizeof(a)));
	cc_table_cell(t, "%s", cfs_format_size(df.used, a, sizeof(a)));
	cc_table_cell(t, "%s", cfs_format_size(df.used, a, sizeof(a)));
	cc_table_cell(t, "%.2f", 100.0 * df.used_ratio);
	cc_table_print(t, ctx->out);
	cc_table_free(t);
	fprintf(ctx->out, "\n--- POOLS ---\n");
	ncol = detail ? 17 : 8;
	for (int k = 0; k < ncol; k++) {
		heads[k] = ph[detail ? k : plain[k]];
		right[k] = pr[detail ? k : plain[k]];
	}
	t = cc_table_new(ncol, heads, right);
	for (int i = 0; i < df.npools; i++) {
		const struct mgr_pool_df *w = &df.pools[i];
		const struct cfs_pool_info *q = w->pool;

		cc_table_cell(t, "%s", q->name);
		cc_table_cell(t, "%lld", (long long)q->id);
		cc_table_cell(t, "%u", q->pg_num);
		cc_table_cell(t, "%s", cfs_format_size(w->stored, a, sizeof(a)));
		if (detail) {
			cc_table_cell(t, "%s",
				      cfs_format_size(w->stored, a, sizeof(a)));
			cc_table_cell(t, "0 B");
		}
		cc_table_cell(t, "%s", cc_si_u(a, sizeof(a), w->objects));
		cc_table_cell(t, "%s", cfs_format_size(w->used, a, sizeof(a)));
		if (detail) {
			cc_table_cell(t, "%s",
				      cfs_format_size(w->used, a, sizeof(a)));
			cc_table_cell(t, "0 B");
		}
		cc_table_cell(t, "%.2f", 100.0 * w->percent_used);
		cc_table_cell(t, "%s",
			      cfs_format_size(w->max_avail, a, sizeof(a)));
		if (!detail)
			continue;
		/* Ceph: N/A for no quota */
		if (q->quota_max_objects)
			cc_table_cell(t, "%s", cc_si_u(a, sizeof(a),
						    q->quota_max_objects));
		else
			cc_table_cell(t, "N/A");
		if (q->quota_max_bytes)
			cc_table_cell(t, "%s",
				      cfs_format_size(q->quota_max_bytes, a,
						      sizeof(a)));
		else
			cc_table_cell(t, "N/A");
		cc_table_cell(t, "%s", cc_si_u(a, sizeof(a), w->dirty));
		cc_table_cell(t, "0 B");
		cc_table_cell(t, "0 B");
	}
	cc_table_print(t, ctx->out);
	cc_table_free(t);
out:
	mgr_df_free(&df);
	mgr_snap_free(&s);
	return 0;
}

/* ---- pg dump ---- */

/* One PG as `ceph pg dump -f json` lists it (pg_stat_t::dump, the
 * fields crushfs models). */
json_t *cc_pg_json(const struct ol_pg_stat *g)
{
	json_t *up = json_array(), *act = json_array();
	char st[128];

	for (int i = 0; i < g->nup; i++)
		json_array_append_new(up, json_integer(g->up[i]));
	for (int i = 0; i < g->nacting; i++)
		json_array_append_new(act, json_integer(g->acting[i]));
	ol_pg_state_str(g->state, st, sizeof(st));
	return json_pack("{s:s, s:s, s:{s:I, s:I, s:I, s:I, s:I}, s:o, s:i, "
			 "s:o, s:i}",
			 "pgid", g->pgid, "state", st, "stat_sum",
			 "num_objects", (json_int_t)g->objects, "num_bytes",
			 (json_int_t)g->bytes, "num_objects_degraded",
			 (json_int_t)g->degraded, "num_objects_misplaced",
			 (json_int_t)g->misplaced, "num_objects_unfound",
			 (json_int_t)g->unfound, "up", up, "up_primary",
			 g->up_primary, "acting", act, "acting_primary",
			 g->acting_primary);
}

int ccmd_pg_dump(struct cmd_ctx *ctx, int argc, char **argv)
{
	static const char *const heads[] = {
		"PG_STAT", "OBJECTS", "DEGRADED", "MISPLACED", "UNFOUND",
		"BYTES",   "STATE",   "UP",	    "UP_PRIMARY", "ACTING",
		"ACTING_PRIMARY"
	};
	static const int right[] = { 0, 1, 1, 1, 1, 1, 0, 0, 1, 0, 1 };
	const cfs_osdmap *m;
	struct mgr_snap s;
	int r, kind = 0;

	/* ceph's dump kinds: the text is pgs_brief's for all; JSON nests
	 * the list in pg_map for a whole dump, as PGMap::dump does */
	if (argc == 1 && (!strcmp(argv[0], "pgs_brief") ||
			  !strcmp(argv[0], "pgs"))) {
		argc = 0;
		kind = 1;
	}
	if (cc_nargs(ctx, argc, argv, 0))
		return 1;
	r = cc_snap(ctx, MGR_SNAP_PGS, &s);
	if (r)
		return r;
	m = s.m;
	if (ctx->json) {
		json_t *arr = json_array();

		for (uint32_t ps = 0; ps < s.npg; ps++)
			json_array_append_new(arr, cc_pg_json(&s.pg[ps]));
		if (kind)
			cc_json_out(ctx, json_pack("{s:b, s:o}", "pg_ready", 1,
						   "pg_stats", arr));
		else
			cc_json_out(ctx,
				    json_pack("{s:b, s:{s:i, s:i, s:o}}",
					      "pg_ready", 1, "pg_map", "version",
					      (int)cfs_osdmap_epoch(m),
					      "last_osdmap_epoch",
					      (int)cfs_osdmap_epoch(m),
					      "pg_stats", arr));
	} else {
		struct cc_table *t = cc_table_new(11, heads, right);

		for (uint32_t ps = 0; ps < s.npg; ps++) {
			const struct ol_pg_stat *g = &s.pg[ps];
			char st[128], v[128];

			ol_pg_state_str(g->state, st, sizeof(st));
			cc_table_cell(t, "%s", g->pgid);
			cc_table_cell(t, "%llu", (unsigned long long)g->objects);
			cc_table_cell(t, "%llu",
				      (unsigned long long)g->degraded);
			cc_table_cell(t, "%llu",
				      (unsigned long long)g->misplaced);
			cc_table_cell(t, "%llu", (unsigned long long)g->unfound);
			cc_table_cell(t, "%llu", (unsigned long long)g->bytes);
			cc_table_cell(t, "%s", st);
			cc_pg_vector_string(v, sizeof(v), g->up, g->nup);
			cc_table_cell(t, "%s", v);
			cc_table_cell(t, "%d", g->up_primary);
			cc_pg_vector_string(v, sizeof(v), g->acting, g->nacting);
			cc_table_cell(t, "%s", v);
			cc_table_cell(t, "%d", g->acting_primary);
		}
		cc_table_print(t, ctx->out);
		cc_table_free(t);
	}
	mgr_snap_free(&s);
	return 0;
}

/* ---- check ---- */

static void check_msg(const char *line, void *arg)
{
	struct cmd_ctx *ctx = arg;

	if (!ctx->json)
		fprintf(ctx->out, "%s\n", line);
}

int ccmd_check(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct cfs_check_report rep;
	int deep = 0, r, bad;
	char a[32];

	if (argc == 1 && !strcmp(argv[0], "--deep"))
		deep = 1;
	else if (cc_nargs(ctx, argc, argv, 0))
		return 1;
	r = cfs_cluster_check(ctx->cluster, deep, &rep, check_msg, ctx);
	if (r)
		return cc_err(ctx, "%s", cfs_strerror(r));
	bad = rep.usage_mismatches + rep.stray_files + rep.misfiled +
	      rep.replica_mismatches;
	if (ctx->json) {
		cc_json_out(ctx,
			    json_pack("{s:b, s:i, s:I, s:I, s:i, s:i, s:i, "
				      "s:i, s:b}",
				      "ok", !bad, "osds", rep.osds_checked,
				      "objects", (json_int_t)rep.objects,
				      "bytes", (json_int_t)rep.bytes,
				      "usage_mismatches", rep.usage_mismatches,
				      "stray_files", rep.stray_files,
				      "misfiled", rep.misfiled,
				      "replica_mismatches",
				      rep.replica_mismatches, "deep", deep));
	} else {
		fprintf(ctx->out,
			"check: %d osds, %llu object copies, %s on disk: %s\n",
			rep.osds_checked, (unsigned long long)rep.objects,
			cfs_format_size(rep.bytes, a, sizeof(a)),
			bad ? "PROBLEMS FOUND"
			    : deep ? "usage matches the disk, replicas agree"
				   : "usage matches the disk");
	}
	return bad ? 1 : 0;
}

