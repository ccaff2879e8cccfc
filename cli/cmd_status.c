/*
 * cmd_status.c - `status`, `health [detail]`, `df`, `pg dump`, `check` and
 * `rebalance`: the commands that look at (or move) the data as a whole.
 * Text follows Ceph 16.2 (`ceph status`, `ceph health detail`, `ceph df`,
 * `ceph pg dump pgs_brief`).
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
#include "placement.h"
#include "progress.h"
#include "usage.h"
#include "util.h"

/* ---- gathering ---- */

struct pgsum {
	struct ol_pg_stat *pg; /* pg_num */
	uint32_t n;
	uint64_t bytes;
	struct cfs_pg_totals t;
};

static int gather(struct cmd_ctx *ctx, const cfs_osdmap *m, struct pgsum *s)
{
	uint32_t k = 0;

	memset(s, 0, sizeof(*s));
	for (int i = 0; i < cfs_osdmap_npools(m); i++)
		s->n += cfs_osdmap_pool_at(m, i)->pg_num;
	s->pg = calloc(s->n + 1, sizeof(*s->pg));
	if (!s->pg)
		return -ENOMEM;
	/* every pool's PGs, the data pool first (osdsim's order) */
	for (int i = 0; i < cfs_osdmap_npools(m); i++) {
		const struct cfs_pool_info *q = cfs_osdmap_pool_at(m, i);
		int r = ol_pool_pg_stats(ctx->ol, m, q->id, &s->pg[k]);

		if (r)
			return r;
		for (uint32_t ps = 0; ps < q->pg_num; ps++, k++) {
			struct ol_pg_stat *g = &s->pg[k];
			s->t.objects += g->objects;
			s->t.copies += g->objects * (uint64_t)q->size;
			s->bytes += g->bytes;
			s->t.degraded += g->degraded;
			s->t.misplaced += g->misplaced;
			s->t.unfound += g->unfound;
			s->t.scrub_errors += g->scrub_errors;
		}
	}
	return 0;
}

/*
 * The health snapshot (osdsim computes every check from one read of the
 * OSDs' usage); the PG states objlayer gave go in as they are.
 */
static int take_health(struct cmd_ctx *ctx, const cfs_osdmap *m,
		       const struct pgsum *s, struct cfs_health *h)
{
	struct cfs_pg_health *ph = calloc(s->n + 1, sizeof(*ph));
	int r;

	if (!ph)
		return -ENOMEM;
	for (uint32_t ps = 0; ps < s->n; ps++) {
		const struct ol_pg_stat *g = &s->pg[ps];
		unsigned f = g->state;

		snprintf(ph[ps].pgid, sizeof(ph[ps].pgid), "%s", g->pgid);
		ol_pg_state_str(f, ph[ps].state, sizeof(ph[ps].state));
		ph[ps].flags =
			(f & OL_PGS_ACTIVE ? 0 : CFS_PGH_INACTIVE) |
			(f & OL_PGS_DOWN ? CFS_PGH_DOWN : 0) |
			(f & OL_PGS_DEGRADED ? CFS_PGH_DEGRADED : 0) |
			(f & OL_PGS_UNDERSIZED ? CFS_PGH_UNDERSIZED : 0) |
			(f & OL_PGS_BACKFILL_TOOFULL ? CFS_PGH_BACKFILL_TOOFULL
						     : 0) |
			(f & OL_PGS_INCONSISTENT ? CFS_PGH_INCONSISTENT : 0);
		ph[ps].nacting = g->nacting;
		memcpy(ph[ps].acting, g->acting,
		       sizeof(int) * (size_t)g->nacting);
	}
	r = cfs_health_take(ctx->cluster, m, ph, s->n, &s->t, h);
	free(ph);
	return r;
}

/* ---- health ---- */

/* "3/36 objects degraded (8.333%)", as ceph status words it. */
static const char *objects_of(char *buf, size_t len, uint64_t n,
			      uint64_t of, const char *what)
{
	snprintf(buf, len, "%llu/%llu objects %s (%.3f%%)",
		 (unsigned long long)n, (unsigned long long)of, what,
		 of ? 100.0 * (double)n / (double)of : 0.0);
	return buf;
}

static void vec_str(char *buf, size_t len, const int *v, int n)
{
	size_t o = 0;

	o += (size_t)snprintf(buf, len, "[");
	for (int i = 0; i < n && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%d", i ? "," : "",
				      v[i]);
	if (o < len)
		snprintf(buf + o, len - o, "]");
}

/* Ceph 16.2 (Monitor::get_health_status, health_check_t::dump): each
 * check has severity, summary {message, count}, detail and muted; the
 * health has the list of mutes (none here). */
static json_t *health_json(const struct cfs_health *h)
{
	json_t *checks = json_object();

	for (int i = 0; i < h->nchecks; i++) {
		const struct cfs_health_check *c = &h->checks[i];
		json_t *d = json_array();

		for (int k = 0; k < c->ndetail; k++)
			json_array_append_new(
				d, json_pack("{s:s}", "message", c->detail[k]));
		json_object_set_new(
			checks, c->code,
			json_pack("{s:s, s:{s:s, s:I}, s:o, s:b}", "severity",
				  cfs_health_status_name(c->severity),
				  "summary", "message", c->summary, "count",
				  (json_int_t)c->count, "detail", d, "muted",
				  c->muted));
	}
	return json_pack("{s:s, s:o, s:o}", "status",
			 cfs_health_status_name(h->status), "checks", checks,
			 "mutes", cc_mutes_json(h));
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

struct state_count {
	char name[128];
	int count;
};

static int cmp_state(const void *a, const void *b)
{
	const struct state_count *x = a, *y = b;

	if (x->count != y->count)
		return y->count - x->count;
	return strcmp(x->name, y->name);
}

static int count_states(const struct pgsum *s, struct state_count *sc)
{
	int n = 0;

	for (uint32_t ps = 0; ps < s->n; ps++) {
		char st[128];
		int k;

		ol_pg_state_str(s->pg[ps].state, st, sizeof(st));
		for (k = 0; k < n; k++)
			if (!strcmp(sc[k].name, st))
				break;
		if (k == n) {
			snprintf(sc[n].name, sizeof(sc[n].name), "%s", st);
			sc[n++].count = 0;
		}
		sc[k].count++;
	}
	qsort(sc, (size_t)n, sizeof(*sc), cmp_state);
	return n;
}

/* Gather the PGs and take the health snapshot; 0, or the exit status
 * after one error line. */
static int load(struct cmd_ctx *ctx, const cfs_osdmap *m, struct pgsum *s,
		struct cfs_health *h, int with_pgs)
{
	int r = gather(ctx, m, s);

	if (r) {
		free(s->pg);
		s->pg = NULL;
		return cc_err(ctx, "cannot read the PGs: %s", cfs_strerror(r));
	}
	r = with_pgs ? take_health(ctx, m, s, h)
		     : cfs_health_take(ctx->cluster, m, NULL, 0, NULL, h);
	if (r) {
		free(s->pg);
		s->pg = NULL;
		return cc_err(ctx, "cannot take the health snapshot: %s",
			      cfs_strerror(r));
	}
	return 0;
}

int ccmd_status(struct cmd_ctx *ctx, int argc, char **argv)
{
	const cfs_osdmap *m;
	struct pgsum s;
	struct cfs_health h;
	struct state_count sc[64];
	int nst, r, ntemp, rec_active;
	struct ol_rebalance_progress rp;
	double rsec = 0;
	char a[32], b[32], c[32], ob[96];

	if (cc_nargs(ctx, argc, argv, 0))
		return 1;
	m = cfs_osdmap_get(ctx->cluster);
	cfs_osdmap_pg_temps(m, &ntemp);
	/* a rebalance the mounted daemon runs meanwhile */
	rec_active = ctx->ol && ol_recovery_progress(ctx->ol, &rp, &rsec);
	r = load(ctx, m, &s, &h, 1);
	if (r) {
		cfs_osdmap_put(m);
		return r;
	}
	nst = count_states(&s, sc);
	if (ctx->json) {
		json_t *states = json_array();

		for (int i = 0; i < nst; i++)
			json_array_append_new(
				states, json_pack("{s:s, s:i}", "state_name",
						  sc[i].name, "count",
						  sc[i].count));
		json_t *st = json_pack(
				"{s:s, s:o, s:{s:i, s:i, s:i, s:i, s:i}, s:{s:o, "
				"s:i, s:i, s:I, s:I, s:I, s:I, s:I, s:I, s:I, "
				"s:I, s:I, s:I}, s:s}",
				"fsid", cfs_osdmap_fsid(m), "health",
				health_json(&h), "osdmap", "epoch",
				(int)cfs_osdmap_epoch(m), "num_osds",
				h.num_osds, "num_up_osds", h.num_up,
				"num_in_osds", h.num_in, "num_remapped_pgs",
				ntemp, "pgmap",
				"pgs_by_state", states, "num_pgs", (int)s.n,
				"num_pools", 1, "num_objects",
				(json_int_t)s.t.objects, "data_bytes",
				(json_int_t)s.bytes, "bytes_used",
				(json_int_t)h.used, "bytes_avail",
				(json_int_t)h.raw_avail, "bytes_total",
				(json_int_t)h.total, "degraded_objects",
				(json_int_t)s.t.degraded, "degraded_total",
				(json_int_t)s.t.copies, "misplaced_objects",
				(json_int_t)s.t.misplaced, "misplaced_total",
				(json_int_t)s.t.copies, "unfound_objects",
				(json_int_t)s.t.unfound, "full_policy",
				cfs_full_policy_name(cfs_osdmap_full_policy(m)));
		json_t *pe = json_object();

		if (st && rec_active) {
			json_t *pgmap = json_object_get(st, "pgmap");
			double secs = rsec > 0 ? rsec : 1;

			json_object_set_new(
				pgmap, "recovering_objects_per_sec",
				json_integer((json_int_t)(rp.objects_done / secs)));
			json_object_set_new(
				pgmap, "recovering_bytes_per_sec",
				json_integer((json_int_t)(rp.bytes_done / secs)));
			json_object_set_new(
				pe, "rebalance",
				json_pack("{s:s, s:f}", "message", "Rebalance",
					  "progress",
					  rp.objects_todo ?
						  (double)rp.objects_done /
							  (double)rp.objects_todo :
						  0.0));
		}
		if (st)
			json_object_set_new(st, "progress_events", pe);
		else
			json_decref(pe);
		cc_json_out(ctx, st);
	} else {
		FILE *f = ctx->out;
		int w = 0;

		fprintf(f, "  cluster:\n    id:     %s\n    health: %s",
			cfs_osdmap_fsid(m), cfs_health_status_name(h.status));
		/* get_health_status's separators; muted checks left out,
		 * " (muted: ...)" at the end */
		for (int i = 0; i < h.nchecks; i++)
			if (!h.checks[i].muted)
				fprintf(f, "\n            %s",
					h.checks[i].summary);
		cc_mutes_line(f, &h);
		fputc('\n', f);
		fprintf(f, "\n  services:\n    osd: %d osds: %d up, %d in; ",
			h.num_osds, h.num_up, h.num_in);
		/* OSDMap::print_summary: the pg_temp entries */
		if (ntemp)
			fprintf(f, "%d remapped pgs; ", ntemp);
		fprintf(f, "epoch e%u\n", cfs_osdmap_epoch(m));
		{
			unsigned pgs = 0;

			for (int i = 0; i < cfs_osdmap_npools(m); i++)
				pgs += cfs_osdmap_pool_at(m, i)->pg_num;
			fprintf(f, "\n  data:\n    pools:   %d pools, %u "
				"pgs\n", cfs_osdmap_npools(m), pgs);
		}
		fprintf(f, "    objects: %llu objects, %s\n",
			(unsigned long long)s.t.objects,
			cfs_format_size(s.bytes, a, sizeof(a)));
		fprintf(f, "    usage:   %s used, %s / %s avail\n",
			cfs_format_size(h.used, a, sizeof(a)),
			cfs_format_size(h.raw_avail, b, sizeof(b)),
			cfs_format_size(h.total, c, sizeof(c)));
		fprintf(f, "    pgs:     ");
		{
			int first = 1;

			if (s.t.degraded) {
				fprintf(f, "%s\n",
					objects_of(ob, sizeof(ob), s.t.degraded,
						   s.t.copies, "degraded"));
				first = 0;
			}
			if (s.t.misplaced) {
				fprintf(f, "%s%s\n",
					first ? "" : "             ",
					objects_of(ob, sizeof(ob),
						   s.t.misplaced, s.t.copies,
						   "misplaced"));
				first = 0;
			}
			for (int i = 0; i < nst; i++) {
				int l = snprintf(a, sizeof(a), "%d",
						 sc[i].count);

				if (l > w)
					w = l;
			}
			for (int i = 0; i < nst; i++) {
				fprintf(f, "%s%-*d %s\n",
					first ? "" : "             ", w,
					sc[i].count, sc[i].name);
				first = 0;
			}
			if (first)
				fputc('\n', f);
		}
		if (rec_active) {
			/* Ceph's "io: recovery" and "progress" sections */
			double frac = rp.objects_todo ?
				(double)rp.objects_done / (double)rp.objects_todo : 0;
			int bar = (int)(frac * 28 + 0.5);

			if (rp.objects_done)
				fprintf(f, "\n  io:\n    recovery: %s/s, %.0f objects/s\n",
					cfs_format_size(
						(uint64_t)(rp.bytes_done /
							   (rsec > 0 ? rsec : 1)),
						a, sizeof(a)),
					(double)rp.objects_done /
						(rsec > 0 ? rsec : 1));
			fprintf(f, "\n  progress:\n    Rebalance (%.0fs)\n      [",
				rsec);
			for (int i = 0; i < 28; i++)
				fputc(i < bar ? '=' : '.', f);
			fprintf(f, "] (%llu/%llu object copies)\n",
				(unsigned long long)rp.objects_done,
				(unsigned long long)rp.objects_todo);
		}
		if (h.nchecks) {
			fprintf(f, "\n");
			health_line(f, &h);
			health_detail_text(f, &h);
		}
	}
	cfs_health_free(&h);
	free(s.pg);
	cfs_osdmap_put(m);
	return 0;
}

int ccmd_health(struct cmd_ctx *ctx, int argc, char **argv)
{
	const cfs_osdmap *m;
	struct pgsum s;
	struct cfs_health h;
	int det = 0, r;

	if (argc == 1 && !strcmp(argv[0], "detail"))
		det = 1;
	else if (cc_nargs(ctx, argc, argv, 0))
		return 1;
	m = cfs_osdmap_get(ctx->cluster);
	r = load(ctx, m, &s, &h, 1);
	if (r) {
		cfs_osdmap_put(m);
		return r;
	}
	if (ctx->json) {
		cc_json_out(ctx, health_json(&h));
	} else {
		health_line(ctx->out, &h);
		if (det)
			health_detail_text(ctx->out, &h);
	}
	cfs_health_free(&h);
	free(s.pg);
	cfs_osdmap_put(m);
	return 0;
}

/* ---- df ---- */

/* MAX AVAIL of every pool (index as cfs_osdmap_pool_at; NULL when out
 * of memory, which prints 0 B), from one read of each OSD's use. */
static uint64_t *other_pools_avail(struct cmd_ctx *ctx, const cfs_osdmap *m)
{
	int n = cfs_osdmap_max_osd(m), np = cfs_osdmap_npools(m);
	uint64_t *used = calloc((size_t)n + 1, sizeof(*used));
	uint64_t *out = calloc((size_t)np + 1, sizeof(*out));

	if (!used || !out) {
		free(used);
		free(out);
		return NULL;
	}
	for (int o = 0; o < n; o++) {
		struct cfs_osd_usage u;

		if (!cfs_osdmap_exists(m, o))
			continue;
		cfs_osd_usage(ctx->cluster, o, &u);
		used[o] = u.used;
	}
	for (int i = 0; i < np; i++)
		out[i] = cfs_pool_max_avail_for(m, cfs_osdmap_pool_at(m, i),
						used);
	free(used);
	return out;
}

/* One pool's line of `df`. */
struct pool_row {
	uint64_t stored, objects, used, max_avail;
	double pct;
};

/*
 * Every pool's figures (PGMapDigest::dump_object_stat_sum): STORED and
 * OBJECTS from its PGs; USED its copies' raw bytes (the data pool: what
 * its rule's OSDs hold, as before several pools held data); %USED used /
 * (used + raw avail).  s->pg lists the PGs pool by pool.
 */
static void pool_rows(struct cmd_ctx *ctx, const cfs_osdmap *m,
		      const struct pgsum *s, const struct cfs_health *h,
		      const uint64_t *others, struct pool_row *rows)
{
	const struct cfs_pool_info *data = cfs_osdmap_pool(m);
	uint32_t k = 0;

	for (int i = 0; i < cfs_osdmap_npools(m); i++) {
		const struct cfs_pool_info *q = cfs_osdmap_pool_at(m, i);
		struct pool_row *w = &rows[i];
		uint64_t raw_max;

		for (uint32_t ps = 0; ps < q->pg_num && k < s->n; ps++, k++) {
			w->stored += s->pg[k].bytes;
			w->objects += s->pg[k].objects;
		}
		if (q == data) {
			w->used = h->rule_used;
			w->max_avail = h->max_avail;
		} else {
			for (int o = 0; o < cfs_osdmap_max_osd(m); o++) {
				struct cfs_osd_usage u;

				cfs_osd_pool_usage(ctx->cluster, o, q->id, &u);
				w->used += u.used;
			}
			w->max_avail = others ? others[i] : 0;
		}
		raw_max = w->max_avail * (uint64_t)q->size;
		w->pct = w->used + raw_max
				 ? 100.0 * (double)w->used /
					   (double)(w->used + raw_max)
				 : 0;
	}
}

int ccmd_df(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct pool_row *pools = NULL;
	uint64_t *others;
	static const char *const rh[] = { "CLASS", "SIZE", "AVAIL",
					  "USED",  "RAW USED", "%RAW USED" };
	static const int rr[] = { 0, 1, 1, 1, 1, 1 };
	static const char *const ph[] = { "POOL",    "ID",   "PGS",
					  "STORED",  "OBJECTS", "USED",
					  "%USED", "MAX AVAIL" };
	static const int pr[] = { 0, 1, 1, 1, 1, 1, 1, 1 };
	const cfs_osdmap *m;
	struct pgsum s;
	struct cfs_health h;
	double raw_pct;
	char a[32];
	int r;

	if (cc_nargs(ctx, argc, argv, 0))
		return 1;
	m = cfs_osdmap_get(ctx->cluster);
	r = load(ctx, m, &s, &h, 0);
	if (r) {
		cfs_osdmap_put(m);
		return r;
	}
	raw_pct = h.total ? 100.0 * (double)h.used / (double)h.total : 0;
	others = other_pools_avail(ctx, m);
	pools = calloc((size_t)cfs_osdmap_npools(m) + 1, sizeof(*pools));
	if (!pools) {
		r = cc_err(ctx, "%s", cfs_strerror(-ENOMEM));
		goto out;
	}
	pool_rows(ctx, m, &s, &h, others, pools);
	if (ctx->json) {
		json_t *root = json_pack("{s:{s:I, s:I, s:I, s:f}, s:[]}",
				  "stats", "total_bytes", (json_int_t)h.total,
				  "total_avail_bytes", (json_int_t)h.raw_avail,
				  "total_used_raw_bytes", (json_int_t)h.used,
				  "total_used_raw_ratio",
				  h.total ? (double)h.used / (double)h.total
					  : 0.0,
				  "pools");

		for (int i = 0; root && i < cfs_osdmap_npools(m); i++) {
			const struct cfs_pool_info *q = cfs_osdmap_pool_at(m, i);
			const struct pool_row *w = &pools[i];

			json_array_append_new(
				json_object_get(root, "pools"),
				json_pack("{s:s, s:I, s:{s:I, s:I, s:f, s:I, "
					  "s:I}}", "name", q->name, "id",
					  (json_int_t)q->id, "stats", "stored",
					  (json_int_t)w->stored, "objects",
					  (json_int_t)w->objects,
					  "percent_used", w->pct / 100.0,
					  "max_avail", (json_int_t)w->max_avail,
					  "bytes_used", (json_int_t)w->used));
		}
		cc_json_out(ctx, root);
	} else {
		struct cc_table *t = cc_table_new(6, rh, rr);

		fprintf(ctx->out, "--- RAW STORAGE ---\n");
		cc_table_cell(t, "TOTAL");
		cc_table_cell(t, "%s", cfs_format_size(h.total, a, sizeof(a)));
		cc_table_cell(t, "%s",
			      cfs_format_size(h.raw_avail, a, sizeof(a)));
		cc_table_cell(t, "%s", cfs_format_size(h.used, a, sizeof(a)));
		cc_table_cell(t, "%s", cfs_format_size(h.used, a, sizeof(a)));
		cc_table_cell(t, "%.2f", raw_pct);
		cc_table_print(t, ctx->out);
		cc_table_free(t);
		fprintf(ctx->out, "\n--- POOLS ---\n");
		t = cc_table_new(8, ph, pr);
		for (int i = 0; i < cfs_osdmap_npools(m); i++) {
			const struct cfs_pool_info *q = cfs_osdmap_pool_at(m, i);
			const struct pool_row *w = &pools[i];

			cc_table_cell(t, "%s", q->name);
			cc_table_cell(t, "%lld", (long long)q->id);
			cc_table_cell(t, "%u", q->pg_num);
			cc_table_cell(t, "%s",
				      cfs_format_size(w->stored, a, sizeof(a)));
			cc_table_cell(t, "%llu",
				      (unsigned long long)w->objects);
			cc_table_cell(t, "%s",
				      cfs_format_size(w->used, a, sizeof(a)));
			cc_table_cell(t, "%.2f", w->pct);
			cc_table_cell(t, "%s", cfs_format_size(w->max_avail, a,
							       sizeof(a)));
		}
		cc_table_print(t, ctx->out);
		cc_table_free(t);
	}
out:
	free(pools);
	cfs_health_free(&h);
	free(s.pg);
	free(others);
	cfs_osdmap_put(m);
	return r;
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
	struct pgsum s;
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
	m = cfs_osdmap_get(ctx->cluster);
	r = gather(ctx, m, &s);
	if (r) {
		free(s.pg);
		cfs_osdmap_put(m);
		return cc_err(ctx, "cannot read the PGs: %s", cfs_strerror(r));
	}
	if (ctx->json) {
		json_t *arr = json_array();

		for (uint32_t ps = 0; ps < s.n; ps++)
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

		for (uint32_t ps = 0; ps < s.n; ps++) {
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
			vec_str(v, sizeof(v), g->up, g->nup);
			cc_table_cell(t, "%s", v);
			cc_table_cell(t, "%d", g->up_primary);
			vec_str(v, sizeof(v), g->acting, g->nacting);
			cc_table_cell(t, "%s", v);
			cc_table_cell(t, "%d", g->acting_primary);
		}
		cc_table_print(t, ctx->out);
		cc_table_free(t);
	}
	free(s.pg);
	cfs_osdmap_put(m);
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

/* The health snapshot `health` shows, PG states included (cmd_mute.c's
 * `health mute` checks the code against it). */
int cc_health_snapshot(struct cmd_ctx *ctx, struct cfs_health *h)
{
	const cfs_osdmap *m = cfs_osdmap_get(ctx->cluster);
	struct pgsum s;
	int r = load(ctx, m, &s, h, 1);

	if (!r)
		free(s.pg);
	cfs_osdmap_put(m);
	return r;
}
