/*
 * cmd_status.c - `status`, `health [detail]`, `df`, `pg dump`, `check` and
 * `rebalance`: the commands that look at (or move) the data as a whole.
 * Text follows Ceph 16.2 (`ceph status`, `ceph health detail`, `ceph df`,
 * `ceph pg dump pgs_brief`).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "cluster_cmds.h"
#include "objlayer.h"
#include "osdsim.h"
#include "placement.h"
#include "util.h"

/* ---- gathering ---- */

struct pgsum {
	struct ol_pg_stat *pg; /* pg_num */
	uint32_t n;
	uint64_t objects, bytes, copies;
	uint64_t degraded, misplaced, unfound;
};

static int gather(struct cmd_ctx *ctx, const cfs_osdmap *m, struct pgsum *s)
{
	const struct cfs_pool_info *p = cfs_osdmap_pool(m);

	memset(s, 0, sizeof(*s));
	s->n = p->pg_num;
	s->pg = calloc(s->n, sizeof(*s->pg));
	if (!s->pg)
		return -ENOMEM;
	for (uint32_t ps = 0; ps < s->n; ps++) {
		int r = ol_pg_stat(ctx->ol, m, ps, &s->pg[ps]);

		if (r)
			return r;
		s->objects += s->pg[ps].objects;
		s->bytes += s->pg[ps].bytes;
		s->degraded += s->pg[ps].degraded;
		s->misplaced += s->pg[ps].misplaced;
		s->unfound += s->pg[ps].unfound;
	}
	s->copies = s->objects * (uint64_t)p->size;
	return 0;
}

/* ---- health ---- */

#define SEV_WARN 1
#define SEV_ERR 2

struct check {
	const char *code;
	int sev;
	char summary[256];
	char **detail;
	int nd;
};

struct health {
	struct check c[16];
	int n;
	int status;
};

/* "3/36 objects degraded (8.333%)", as ceph status words it. */
static const char *objects_of(char *buf, size_t len, uint64_t n,
			      uint64_t of, const char *what)
{
	snprintf(buf, len, "%llu/%llu objects %s (%.3f%%)",
		 (unsigned long long)n, (unsigned long long)of, what,
		 of ? 100.0 * (double)n / (double)of : 0.0);
	return buf;
}

static struct check *add_check(struct health *h, const char *code, int sev)
{
	struct check *c = &h->c[h->n++];

	memset(c, 0, sizeof(*c));
	c->code = code;
	c->sev = sev;
	if (sev > h->status)
		h->status = sev;
	return c;
}

static void detail(struct check *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void detail(struct check *c, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL, **nv;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (!s)
		return;
	nv = realloc(c->detail, sizeof(*nv) * (size_t)(c->nd + 1));
	if (!nv) {
		free(s);
		return;
	}
	c->detail = nv;
	c->detail[c->nd++] = s;
}

static void health_free(struct health *h)
{
	for (int i = 0; i < h->n; i++) {
		for (int k = 0; k < h->c[i].nd; k++)
			free(h->c[i].detail[k]);
		free(h->c[i].detail);
	}
}

static const char *status_name(int s)
{
	return s == SEV_ERR ? "HEALTH_ERR" : s == SEV_WARN ? "HEALTH_WARN"
							   : "HEALTH_OK";
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

static int cmp_check(const void *a, const void *b)
{
	return strcmp(((const struct check *)a)->code,
		      ((const struct check *)b)->code);
}

static void health_compute(struct cmd_ctx *ctx, const cfs_osdmap *m,
			   const struct pgsum *s, struct health *h)
{
	const struct cfs_pool_info *p = cfs_osdmap_pool(m);
	int ndown = 0, nfull = 0, nbf = 0, nnf = 0, fo;
	int inactive = 0, down = 0, degraded = 0, undersized = 0, toofull = 0;
	double nr = cfs_osdmap_nearfull_ratio(m);
	double br = cfs_osdmap_backfillfull_ratio(m);
	double fr = cfs_osdmap_full_ratio(m);
	struct check *c;
	char v[128], st[128];

	memset(h, 0, sizeof(*h));
	for (int id = 0; id < cfs_osdmap_max_osd(m); id++) {
		struct cfs_osd_info oi;
		struct cfs_osd_usage u;

		if (cfs_osdmap_osd(m, id, &oi))
			continue;
		if (!oi.up) {
			ndown++;
			continue;
		}
		cfs_osd_usage(ctx->cluster, id, &u);
		if (u.used >= cfs_osdmap_full_limit(m, id))
			nfull++;
		else if (u.used >= cfs_osdmap_backfillfull_limit(m, id))
			nbf++;
		else if (u.used >= cfs_osdmap_nearfull_limit(m, id))
			nnf++;
	}
	if (ndown) {
		c = add_check(h, "OSD_DOWN", SEV_WARN);
		snprintf(c->summary, sizeof(c->summary), "%d osds down", ndown);
		for (int id = 0; id < cfs_osdmap_max_osd(m); id++) {
			struct cfs_osd_info oi;
			const pl_map *cm = cfs_osdmap_crush(m);
			int parent, root = 0;
			const char *rn;

			if (cfs_osdmap_osd(m, id, &oi) || oi.up)
				continue;
			parent = pl_map_parent(cm, id);
			for (int b = parent; b; b = pl_map_parent(cm, b))
				root = b;
			rn = root ? pl_map_item_name(cm, root) : NULL;
			if (parent)
				detail(c, "osd.%d (root=%s,host=%s) is down", id,
				       rn ? rn : "?", oi.host);
			else
				detail(c, "osd.%d is down", id);
		}
	}
	if (nfull || nbf || nnf) {
		struct check *cf = NULL, *cb = NULL, *cn = NULL;

		if (nfull) {
			cf = add_check(h, "OSD_FULL", SEV_ERR);
			snprintf(cf->summary, sizeof(cf->summary),
				 "%d full osd(s)", nfull);
		}
		if (nbf) {
			cb = add_check(h, "OSD_BACKFILLFULL", SEV_WARN);
			snprintf(cb->summary, sizeof(cb->summary),
				 "%d backfillfull osd(s)", nbf);
		}
		if (nnf) {
			cn = add_check(h, "OSD_NEARFULL", SEV_WARN);
			snprintf(cn->summary, sizeof(cn->summary),
				 "%d nearfull osd(s)", nnf);
		}
		for (int id = 0; id < cfs_osdmap_max_osd(m); id++) {
			struct cfs_osd_usage u;

			if (!cfs_osdmap_is_up(m, id))
				continue;
			cfs_osd_usage(ctx->cluster, id, &u);
			if (u.used >= cfs_osdmap_full_limit(m, id))
				detail(cf, "osd.%d is full", id);
			else if (u.used >= cfs_osdmap_backfillfull_limit(m, id))
				detail(cb, "osd.%d is backfill full", id);
			else if (u.used >= cfs_osdmap_nearfull_limit(m, id))
				detail(cn, "osd.%d is near full", id);
		}
	}
	if (br < nr || fr < br) {
		c = add_check(h, "OSD_OUT_OF_ORDER_FULL", SEV_ERR);
		snprintf(c->summary, sizeof(c->summary),
			 "full ratio(s) out of order");
		if (br < nr)
			detail(c, "backfillfull_ratio (%g) < nearfull_ratio (%g), "
				  "increased",
			       br, nr);
		if (fr < br)
			detail(c, "full_ratio (%g) < backfillfull_ratio (%g), "
				  "increased",
			       fr, br);
	}
	if (cfs_osdmap_full_policy(m) == CFS_FULL_POOL &&
	    cfs_pool_is_full(ctx->cluster, m, &fo)) {
		c = add_check(h, "POOL_FULL", SEV_WARN);
		snprintf(c->summary, sizeof(c->summary), "1 pool(s) full");
		detail(c, "pool '%s' is full (osd.%d is full; full policy pool)",
		       p->name, fo);
	}
	for (uint32_t ps = 0; ps < s->n; ps++) {
		unsigned f = s->pg[ps].state;

		if (!(f & OL_PGS_ACTIVE))
			inactive++;
		if (f & OL_PGS_DOWN)
			down++;
		if (f & OL_PGS_DEGRADED)
			degraded++;
		if (f & OL_PGS_UNDERSIZED)
			undersized++;
		if (f & OL_PGS_BACKFILL_TOOFULL)
			toofull++;
	}
	if (inactive) {
		c = add_check(h, "PG_AVAILABILITY", SEV_WARN);
		if (down)
			snprintf(c->summary, sizeof(c->summary),
				 "Reduced data availability: %d pgs inactive, "
				 "%d pgs down",
				 inactive, down);
		else
			snprintf(c->summary, sizeof(c->summary),
				 "Reduced data availability: %d pgs inactive",
				 inactive);
		for (uint32_t ps = 0; ps < s->n; ps++) {
			if (s->pg[ps].state & OL_PGS_ACTIVE)
				continue;
			ol_pg_state_str(s->pg[ps].state, st, sizeof(st));
			vec_str(v, sizeof(v), s->pg[ps].acting,
				s->pg[ps].nacting);
			detail(c, "pg %s is %s, acting %s", s->pg[ps].pgid, st,
			       v);
		}
	}
	if (s->degraded || degraded) {
		size_t o = 0;

		c = add_check(h, "PG_DEGRADED", SEV_WARN);
		o += (size_t)snprintf(c->summary, sizeof(c->summary),
				      "Degraded data redundancy: ");
		if (s->degraded)
			o += (size_t)snprintf(
				c->summary + o, sizeof(c->summary) - o, "%s, ",
				objects_of(v, sizeof(v), s->degraded,
					   s->copies, "degraded"));
		if (o < sizeof(c->summary))
			o += (size_t)snprintf(c->summary + o,
					      sizeof(c->summary) - o,
					      "%d pgs degraded", degraded);
		if (undersized && o < sizeof(c->summary))
			snprintf(c->summary + o, sizeof(c->summary) - o,
				 ", %d pgs undersized", undersized);
		for (uint32_t ps = 0; ps < s->n; ps++) {
			if (!(s->pg[ps].state & OL_PGS_DEGRADED))
				continue;
			ol_pg_state_str(s->pg[ps].state, st, sizeof(st));
			vec_str(v, sizeof(v), s->pg[ps].acting,
				s->pg[ps].nacting);
			detail(c, "pg %s is %s, acting %s", s->pg[ps].pgid, st,
			       v);
		}
	}
	if (s->misplaced) {
		c = add_check(h, "OBJECT_MISPLACED", SEV_WARN);
		objects_of(c->summary, sizeof(c->summary), s->misplaced,
			   s->copies, "misplaced");
	}
	if (s->unfound) {
		c = add_check(h, "OBJECT_UNFOUND", SEV_WARN);
		objects_of(c->summary, sizeof(c->summary), s->unfound,
			   s->objects, "unfound");
	}
	{
		uint64_t errs = 0;
		int bad = 0;

		for (uint32_t ps = 0; ps < s->n; ps++) {
			errs += s->pg[ps].scrub_errors;
			bad += !!(s->pg[ps].state & OL_PGS_INCONSISTENT);
		}
		if (errs) {
			/* Ceph: "N scrub errors" and "Possible data damage:
			 * N pgs inconsistent" (PGMap::get_health_checks) */
			c = add_check(h, "OSD_SCRUB_ERRORS", SEV_ERR);
			snprintf(c->summary, sizeof(c->summary),
				 "%llu scrub errors", (unsigned long long)errs);
			c = add_check(h, "PG_DAMAGED", SEV_ERR);
			snprintf(c->summary, sizeof(c->summary),
				 "Possible data damage: %d pg%s inconsistent",
				 bad, bad == 1 ? "" : "s");
			for (uint32_t ps = 0; ps < s->n; ps++) {
				if (!(s->pg[ps].state & OL_PGS_INCONSISTENT))
					continue;
				ol_pg_state_str(s->pg[ps].state, st,
						sizeof(st));
				vec_str(v, sizeof(v), s->pg[ps].acting,
					s->pg[ps].nacting);
				detail(c, "pg %s is %s, acting %s",
				       s->pg[ps].pgid, st, v);
			}
		}
	}
	if (toofull) {
		c = add_check(h, "PG_BACKFILL_FULL", SEV_WARN);
		snprintf(c->summary, sizeof(c->summary),
			 "Low space hindering backfill (add storage if this "
			 "doesn't resolve itself): %d pgs backfill_toofull",
			 toofull);
		for (uint32_t ps = 0; ps < s->n; ps++) {
			if (!(s->pg[ps].state & OL_PGS_BACKFILL_TOOFULL))
				continue;
			ol_pg_state_str(s->pg[ps].state, st, sizeof(st));
			vec_str(v, sizeof(v), s->pg[ps].acting,
				s->pg[ps].nacting);
			detail(c, "pg %s is %s, acting %s", s->pg[ps].pgid, st,
			       v);
		}
	}
	qsort(h->c, (size_t)h->n, sizeof(h->c[0]), cmp_check);
}

static json_t *health_json(const struct health *h)
{
	json_t *checks = json_object();

	for (int i = 0; i < h->n; i++) {
		json_t *d = json_array();

		for (int k = 0; k < h->c[i].nd; k++)
			json_array_append_new(
				d, json_pack("{s:s}", "message",
					     h->c[i].detail[k]));
		json_object_set_new(
			checks, h->c[i].code,
			json_pack("{s:s, s:{s:s}, s:o}", "severity",
				  status_name(h->c[i].sev), "summary",
				  "message", h->c[i].summary, "detail", d));
	}
	return json_pack("{s:s, s:o}", "status", status_name(h->status),
			 "checks", checks);
}

static void health_detail_text(FILE *f, const struct health *h)
{
	for (int i = 0; i < h->n; i++) {
		fprintf(f, "[%s] %s: %s\n", h->c[i].sev == SEV_ERR ? "ERR" : "WRN",
			h->c[i].code, h->c[i].summary);
		for (int k = 0; k < h->c[i].nd; k++)
			fprintf(f, "    %s\n", h->c[i].detail[k]);
	}
}

static void health_line(FILE *f, const struct health *h)
{
	fputs(status_name(h->status), f);
	for (int i = 0; i < h->n; i++)
		fprintf(f, "%s%s", i ? "; " : " ", h->c[i].summary);
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

int ccmd_status(struct cmd_ctx *ctx, int argc, char **argv)
{
	const cfs_osdmap *m;
	const struct cfs_pool_info *p;
	struct pgsum s;
	struct health h;
	struct state_count sc[64];
	uint64_t total = 0, used = 0;
	int nosd = 0, nup = 0, nin = 0, nst, r;
	char a[32], b[32], c[32], ob[96];

	if (cc_nargs(ctx, argc, argv, 0))
		return 1;
	m = cfs_osdmap_get(ctx->cluster);
	p = cfs_osdmap_pool(m);
	r = gather(ctx, m, &s);
	if (r) {
		free(s.pg);
		cfs_osdmap_put(m);
		return cc_err(ctx, "cannot read the PGs: %s", cfs_strerror(r));
	}
	health_compute(ctx, m, &s, &h);
	for (int id = 0; id < cfs_osdmap_max_osd(m); id++) {
		struct cfs_osd_info oi;
		struct cfs_osd_usage u;

		if (cfs_osdmap_osd(m, id, &oi))
			continue;
		nosd++;
		nup += oi.up;
		nin += oi.reweight > 0;
		cfs_osd_usage(ctx->cluster, id, &u);
		total += oi.capacity;
		used += u.used;
	}
	nst = count_states(&s, sc);
	if (ctx->json) {
		json_t *states = json_array();

		for (int i = 0; i < nst; i++)
			json_array_append_new(
				states, json_pack("{s:s, s:i}", "state_name",
						  sc[i].name, "count",
						  sc[i].count));
		cc_json_out(
			ctx,
			json_pack(
				"{s:s, s:o, s:{s:i, s:i, s:i, s:i}, s:{s:o, "
				"s:i, s:i, s:I, s:I, s:I, s:I, s:I, s:I, s:I, "
				"s:I, s:I, s:I}, s:s}",
				"fsid", cfs_osdmap_fsid(m), "health",
				health_json(&h), "osdmap", "epoch",
				(int)cfs_osdmap_epoch(m), "num_osds", nosd,
				"num_up_osds", nup, "num_in_osds", nin,
				"pgmap", "pgs_by_state", states, "num_pgs",
				(int)s.n, "num_pools", 1, "num_objects",
				(json_int_t)s.objects, "data_bytes",
				(json_int_t)s.bytes, "bytes_used",
				(json_int_t)used, "bytes_avail",
				(json_int_t)(total > used ? total - used : 0),
				"bytes_total", (json_int_t)total,
				"degraded_objects", (json_int_t)s.degraded,
				"degraded_total", (json_int_t)s.copies,
				"misplaced_objects", (json_int_t)s.misplaced,
				"misplaced_total", (json_int_t)s.copies,
				"unfound_objects", (json_int_t)s.unfound,
				"full_policy",
				cfs_full_policy_name(cfs_osdmap_full_policy(m))));
	} else {
		FILE *f = ctx->out;
		int w = 0;

		fprintf(f, "  cluster:\n    id:     %s\n    health: %s\n",
			cfs_osdmap_fsid(m), status_name(h.status));
		for (int i = 0; i < h.n; i++)
			fprintf(f, "            %s\n", h.c[i].summary);
		fprintf(f, "\n  services:\n    osd: %d osds: %d up, %d in; "
			   "epoch e%u\n",
			nosd, nup, nin, cfs_osdmap_epoch(m));
		fprintf(f, "\n  data:\n    pools:   1 pools, %u pgs\n",
			p->pg_num);
		fprintf(f, "    objects: %llu objects, %s\n",
			(unsigned long long)s.objects,
			cfs_format_size(s.bytes, a, sizeof(a)));
		fprintf(f, "    usage:   %s used, %s / %s avail\n",
			cfs_format_size(used, a, sizeof(a)),
			cfs_format_size(total > used ? total - used : 0, b,
					sizeof(b)),
			cfs_format_size(total, c, sizeof(c)));
		fprintf(f, "    pgs:     ");
		{
			int first = 1;

			if (s.degraded) {
				fprintf(f, "%s\n",
					objects_of(ob, sizeof(ob), s.degraded,
						   s.copies, "degraded"));
				first = 0;
			}
			if (s.misplaced) {
				fprintf(f, "%s%s\n",
					first ? "" : "             ",
					objects_of(ob, sizeof(ob), s.misplaced,
						   s.copies, "misplaced"));
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
		if (h.n) {
			fprintf(f, "\n");
			health_line(f, &h);
			health_detail_text(f, &h);
		}
	}
	health_free(&h);
	free(s.pg);
	cfs_osdmap_put(m);
	return 0;
}

int ccmd_health(struct cmd_ctx *ctx, int argc, char **argv)
{
	const cfs_osdmap *m;
	struct pgsum s;
	struct health h;
	int det = 0, r;

	if (argc == 1 && !strcmp(argv[0], "detail"))
		det = 1;
	else if (cc_nargs(ctx, argc, argv, 0))
		return 1;
	m = cfs_osdmap_get(ctx->cluster);
	r = gather(ctx, m, &s);
	if (r) {
		free(s.pg);
		cfs_osdmap_put(m);
		return cc_err(ctx, "cannot read the PGs: %s", cfs_strerror(r));
	}
	health_compute(ctx, m, &s, &h);
	if (ctx->json) {
		cc_json_out(ctx, health_json(&h));
	} else {
		health_line(ctx->out, &h);
		if (det)
			health_detail_text(ctx->out, &h);
	}
	health_free(&h);
	free(s.pg);
	cfs_osdmap_put(m);
	return 0;
}

/* ---- df ---- */

int ccmd_df(struct cmd_ctx *ctx, int argc, char **argv)
{
	static const char *const rh[] = { "CLASS", "SIZE", "AVAIL",
					  "USED",  "RAW USED", "%RAW USED" };
	static const int rr[] = { 0, 1, 1, 1, 1, 1 };
	static const char *const ph[] = { "POOL",    "ID",   "PGS",
					  "STORED",  "OBJECTS", "USED",
					  "%USED", "MAX AVAIL" };
	static const int pr[] = { 0, 1, 1, 1, 1, 1, 1, 1 };
	const cfs_osdmap *m;
	const struct cfs_pool_info *p;
	struct pgsum s;
	uint64_t total = 0, used = 0, pool_used = 0, max_avail;
	double pct, raw_pct;
	char a[32];
	int r;

	if (cc_nargs(ctx, argc, argv, 0))
		return 1;
	m = cfs_osdmap_get(ctx->cluster);
	p = cfs_osdmap_pool(m);
	r = gather(ctx, m, &s);
	if (r) {
		free(s.pg);
		cfs_osdmap_put(m);
		return cc_err(ctx, "cannot read the PGs: %s", cfs_strerror(r));
	}
	for (int id = 0; id < cfs_osdmap_max_osd(m); id++) {
		struct cfs_osd_info oi;
		struct cfs_osd_usage u;

		if (cfs_osdmap_osd(m, id, &oi))
			continue;
		cfs_osd_usage(ctx->cluster, id, &u);
		total += oi.capacity;
		used += u.used;
		if (cfs_osdmap_osd_in_rule(m, id))
			pool_used += u.used;
	}
	max_avail = cfs_pool_max_avail(ctx->cluster, m);
	raw_pct = total ? 100.0 * (double)used / (double)total : 0;
	/* PGMapDigest::dump_object_stat_sum: used / (used + avail), raw */
	pct = (pool_used + max_avail * (uint64_t)p->size)
		      ? 100.0 * (double)pool_used /
				(double)(pool_used +
					 max_avail * (uint64_t)p->size)
		      : 0;
	if (ctx->json) {
		cc_json_out(
			ctx,
			json_pack("{s:{s:I, s:I, s:I, s:f}, s:[{s:s, s:I, "
				  "s:{s:I, s:I, s:f, s:I, s:I}}]}",
				  "stats", "total_bytes", (json_int_t)total,
				  "total_avail_bytes",
				  (json_int_t)(total > used ? total - used : 0),
				  "total_used_raw_bytes", (json_int_t)used,
				  "total_used_raw_ratio",
				  total ? (double)used / (double)total : 0.0,
				  "pools", "name", p->name, "id",
				  (json_int_t)p->id, "stats", "stored",
				  (json_int_t)s.bytes, "objects",
				  (json_int_t)s.objects, "percent_used",
				  pct / 100.0, "max_avail",
				  (json_int_t)max_avail, "bytes_used",
				  (json_int_t)pool_used));
	} else {
		struct cc_table *t = cc_table_new(6, rh, rr);

		fprintf(ctx->out, "--- RAW STORAGE ---\n");
		cc_table_cell(t, "TOTAL");
		cc_table_cell(t, "%s", cfs_format_size(total, a, sizeof(a)));
		cc_table_cell(t, "%s",
			      cfs_format_size(total > used ? total - used : 0,
					      a, sizeof(a)));
		cc_table_cell(t, "%s", cfs_format_size(used, a, sizeof(a)));
		cc_table_cell(t, "%s", cfs_format_size(used, a, sizeof(a)));
		cc_table_cell(t, "%.2f", raw_pct);
		cc_table_print(t, ctx->out);
		cc_table_free(t);
		fprintf(ctx->out, "\n--- POOLS ---\n");
		t = cc_table_new(8, ph, pr);
		cc_table_cell(t, "%s", p->name);
		cc_table_cell(t, "%lld", (long long)p->id);
		cc_table_cell(t, "%u", p->pg_num);
		cc_table_cell(t, "%s", cfs_format_size(s.bytes, a, sizeof(a)));
		cc_table_cell(t, "%llu", (unsigned long long)s.objects);
		cc_table_cell(t, "%s",
			      cfs_format_size(pool_used, a, sizeof(a)));
		cc_table_cell(t, "%.2f", pct);
		cc_table_cell(t, "%s",
			      cfs_format_size(max_avail, a, sizeof(a)));
		cc_table_print(t, ctx->out);
		cc_table_free(t);
	}
	free(s.pg);
	cfs_osdmap_put(m);
	return 0;
}

/* ---- pg dump ---- */

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
	int r;

	if (argc == 1 && (!strcmp(argv[0], "pgs_brief") ||
			  !strcmp(argv[0], "pgs")))
		argc = 0; /* ceph's dump kinds: all show the same here */
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

		for (uint32_t ps = 0; ps < s.n; ps++) {
			const struct ol_pg_stat *g = &s.pg[ps];
			json_t *up = json_array(), *act = json_array();
			char st[128];

			for (int i = 0; i < g->nup; i++)
				json_array_append_new(up, json_integer(g->up[i]));
			for (int i = 0; i < g->nacting; i++)
				json_array_append_new(act,
						      json_integer(g->acting[i]));
			ol_pg_state_str(g->state, st, sizeof(st));
			json_array_append_new(
				arr,
				json_pack("{s:s, s:s, s:{s:I, s:I, s:I, s:I, "
					  "s:I}, s:o, s:i, s:o, s:i}",
					  "pgid", g->pgid, "state", st,
					  "stat_sum", "num_objects",
					  (json_int_t)g->objects, "num_bytes",
					  (json_int_t)g->bytes,
					  "num_objects_degraded",
					  (json_int_t)g->degraded,
					  "num_objects_misplaced",
					  (json_int_t)g->misplaced,
					  "num_objects_unfound",
					  (json_int_t)g->unfound, "up", up,
					  "up_primary", g->up_primary, "acting",
					  act, "acting_primary",
					  g->acting_primary));
		}
		cc_json_out(ctx, json_pack("{s:i, s:o}", "epoch",
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

/* ---- rebalance ---- */

static void progress(const struct ol_rebalance_progress *p, void *arg)
{
	static struct timespec last;
	struct cmd_ctx *ctx = arg;
	struct timespec now;
	char b[32];

	if (!ctx->tty || ctx->json)
		return;
	/* ten times a second at most, and the last state */
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (p->pg != p->pg_num && p->pg != 0 &&
	    (now.tv_sec - last.tv_sec) * 1000000000L +
			    (now.tv_nsec - last.tv_nsec) <
		    100000000L)
		return;
	last = now;
	fprintf(ctx->err, "\rrebalance: pg %u/%u, %llu/%llu objects, %s   ",
		p->pg, p->pg_num, (unsigned long long)p->objects_done,
		(unsigned long long)p->objects_todo,
		cfs_format_size(p->bytes_done, b, sizeof(b)));
	fflush(ctx->err);
}

int ccmd_rebalance(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct ol_rebalance_stats st;
	char a[32], b[32];
	int r;

	if (cc_nargs(ctx, argc, argv, 0))
		return 1;
	r = ol_rebalance(ctx->ol, &st, progress, ctx);
	if (ctx->tty && !ctx->json)
		fprintf(ctx->err, "\r%*s\r", 70, "");
	if (r)
		return cc_err(ctx, "%s", cfs_strerror(r));
	if (ctx->json) {
		cc_json_out(ctx,
			    json_pack("{s:I, s:I, s:I, s:I, s:i, s:i, s:i, s:i}",
				      "objects_moved",
				      (json_int_t)st.objects_copied,
				      "bytes_moved", (json_int_t)st.bytes_copied,
				      "old_copies_removed",
				      (json_int_t)st.objects_removed,
				      "bytes_freed",
				      (json_int_t)st.bytes_removed,
				      "pgs_changed", (int)st.pgs_changed,
				      "pgs_backfill_toofull",
				      (int)st.pgs_toofull, "pgs_blocked",
				      (int)st.pgs_blocked, "errors",
				      (int)st.errors));
	} else {
		fprintf(ctx->out,
			"rebalance: moved %llu objects (%s), removed %llu old "
			"copies (%s), %u pgs changed\n",
			(unsigned long long)st.objects_copied,
			cfs_format_size(st.bytes_copied, a, sizeof(a)),
			(unsigned long long)st.objects_removed,
			cfs_format_size(st.bytes_removed, b, sizeof(b)),
			st.pgs_changed);
		if (st.pgs_toofull)
			fprintf(ctx->out,
				"rebalance: %u pgs left: a target OSD is at "
				"backfillfull_ratio (backfill_toofull)\n",
				st.pgs_toofull);
		if (st.pgs_blocked)
			fprintf(ctx->out,
				"rebalance: %u pgs left: no up OSD has a "
				"current copy of some objects\n",
				st.pgs_blocked);
	}
	if (st.errors)
		return cc_err(ctx, "%u pgs had I/O errors (see above)",
			      st.errors);
	return 0;
}
