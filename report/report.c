/*
 * report.c - the HTML report (report.h): figures from one health snapshot
 * (cfs_health_take: one read of every OSD's usage), the PG spread of the
 * pool (cfs_osdmap_pg_spread) and the crush tree (placement's accessors).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "osdmap.h"
#include "placement.h"
#include "report.h"
#include "upmap.h"
#include "usage.h"

struct buf {
	char *p;
	size_t len, cap;
	int err;
};

static void put(struct buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void put(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->err)
		return;
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->p ? b->p + b->len : NULL,
			      b->p ? b->cap - b->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0) {
			b->err = -EINVAL;
			return;
		}
		if (b->p && (size_t)n < b->cap - b->len) {
			b->len += (size_t)n;
			return;
		}
		{
			size_t cap = b->cap ? b->cap * 2 : 65536;
			char *np;

			while (cap - b->len <= (size_t)n)
				cap *= 2;
			np = realloc(b->p, cap);
			if (!np) {
				b->err = -ENOMEM;
				return;
			}
			b->p = np;
			b->cap = cap;
		}
	}
}

/* names in the map are [A-Za-z0-9_.-~]: nothing to escape, but stay safe */
static void put_text(struct buf *b, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '<')
			put(b, "&lt;");
		else if (*s == '>')
			put(b, "&gt;");
		else if (*s == '&')
			put(b, "&amp;");
		else if (*s == '"')
			put(b, "&quot;");
		else
			put(b, "%c", *s);
	}
}

static const char *human(uint64_t v, char *out, size_t n)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB",
					     "PiB" };
	double d = (double)v;
	int u = 0;

	while (d >= 1024 && u < 5) {
		d /= 1024;
		u++;
	}
	snprintf(out, n, u ? "%.1f %s" : "%.0f %s", d, unit[u]);
	return out;
}

/* %USE to a colour: green under nearfull, amber to full, red past it */
static const char *colour(double pct, const cfs_osdmap *m)
{
	double nf = cfs_osdmap_nearfull_ratio(m) * 100;
	double bf = cfs_osdmap_backfillfull_ratio(m) * 100;
	double f = cfs_osdmap_full_ratio(m) * 100;

	if (pct >= f)
		return "#c62828";
	if (pct >= bf)
		return "#ef6c00";
	if (pct >= nf)
		return "#f9a825";
	if (pct >= nf / 2)
		return "#7cb342";
	return "#2e7d32";
}

static double pct_of(const struct cfs_osd_snap *s)
{
	return s->info.capacity ?
		100.0 * (double)s->used / (double)s->info.capacity : 0;
}

static void osd_bars(struct buf *b, const cfs_osdmap *m,
		     const struct cfs_health *h)
{
	const double W = 300, H = 14;
	double lines[3] = { cfs_osdmap_nearfull_ratio(m),
			    cfs_osdmap_backfillfull_ratio(m),
			    cfs_osdmap_full_ratio(m) };
	static const char *const lname[3] = { "nearfull", "backfillfull",
					      "full" };
	char u[32], c[32];

	put(b, "<section id=\"osds\"><h2>OSD fill</h2>\n"
	       "<p class=\"legend\">bars: used of capacity; lines: nearfull "
	       "%.0f%%, backfillfull %.0f%%, full %.0f%%</p>\n",
	    lines[0] * 100, lines[1] * 100, lines[2] * 100);
	for (int i = 0; i < h->max_osd; i++) {
		const struct cfs_osd_snap *s = &h->osd[i];
		double p = pct_of(s), w = W * (p > 100 ? 100 : p) / 100;

		if (!s->info.exists)
			continue;
		put(b, "<div class=\"osd\" data-osd=\"%d\" data-used=\"%" PRIu64
		       "\" data-capacity=\"%" PRIu64 "\" data-objects=\"%" PRIu64
		       "\" data-pct=\"%.2f\"><span class=\"name\">osd.%d</span>"
		       "<svg width=\"%.0f\" height=\"%.0f\" role=\"img\">"
		       "<rect class=\"bg\" width=\"%.0f\" height=\"%.0f\"/>"
		       "<rect class=\"fill\" width=\"%.1f\" height=\"%.0f\" "
		       "fill=\"%s\"/>",
		    i, s->used, s->info.capacity, s->objects, p, i, W, H, W, H,
		    w, H, colour(p, m));
		for (int k = 0; k < 3; k++)
			put(b, "<line class=\"ratio %s\" x1=\"%.1f\" x2=\"%.1f\" "
			       "y1=\"0\" y2=\"%.0f\"/>",
			    lname[k], W * lines[k], W * lines[k], H);
		put(b, "</svg><span class=\"figs\">%.1f%% &middot; %s of %s%s%s"
		       "</span></div>\n",
		    p, human(s->used, u, sizeof(u)),
		    human(s->info.capacity, c, sizeof(c)),
		    s->info.up ? "" : " &middot; down",
		    s->in ? "" : " &middot; out");
	}
	put(b, "</section>\n");
}

/* ---- the crush tree as a treemap (slice and dice by crush weight) ---- */

static void treemap(struct buf *b, const pl_map *cm, const cfs_osdmap *m,
		    const struct cfs_health *h, int id, double x, double y,
		    double w, double hh, int depth)
{
	uint32_t total = 0;
	double at = 0;
	int n;

	if (id >= 0) {
		const struct cfs_osd_snap *s =
			id < h->max_osd ? &h->osd[id] : NULL;
		double p = s ? pct_of(s) : 0;

		put(b, "<g class=\"osd-cell\" data-osd=\"%d\" data-pct=\"%.2f\">"
		       "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\""
		       " fill=\"%s\"/>",
		    id, p, x + 1, y + 1, w > 2 ? w - 2 : w, hh > 2 ? hh - 2 : hh,
		    colour(p, m));
		if (w > 34 && hh > 14)
			put(b, "<text x=\"%.1f\" y=\"%.1f\">%d</text>", x + 4,
			    y + 12, id);
		put(b, "<title>osd.%d %.1f%%</title></g>", id, p);
		return;
	}
	if (depth > 12 || !pl_map_bucket_exists(cm, id))
		return;
	n = pl_map_bucket_size(cm, id);
	for (int i = 0; i < n; i++)
		total += pl_map_bucket_item_weight(cm, id, i);
	put(b, "<g class=\"bucket\" data-type=\"");
	put_text(b, pl_map_type_name(cm, pl_map_bucket_type(cm, id)));
	put(b, "\" data-name=\"");
	put_text(b, pl_map_item_name(cm, id));
	put(b, "\"><rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
	       "height=\"%.1f\"/>",
	    x, y, w, hh);
	if (depth > 0 && w > 40 && hh > 20) {
		put(b, "<text class=\"label\" x=\"%.1f\" y=\"%.1f\">", x + 3,
		    y + 11);
		put_text(b, pl_map_item_name(cm, id));
		put(b, "</text>");
		y += 14;
		hh -= 14;
	}
	for (int i = 0; i < n; i++) {
		uint32_t iw = pl_map_bucket_item_weight(cm, id, i);
		double f = total ? (double)iw / total : 1.0 / n, len;

		len = (depth % 2 ? hh : w) * f;
		if (depth % 2)
			treemap(b, cm, m, h, pl_map_bucket_item(cm, id, i), x,
				y + at, w, len, depth + 1);
		else
			treemap(b, cm, m, h, pl_map_bucket_item(cm, id, i),
				x + at, y, len, hh, depth + 1);
		at += len;
	}
	put(b, "</g>");
}

static void tree(struct buf *b, const cfs_osdmap *m,
		 const struct cfs_health *h)
{
	const pl_map *cm = cfs_osdmap_crush(m);
	int maxb = pl_map_max_buckets(cm), roots = 0;
	double W = 1100, H = 360;

	put(b, "<section id=\"tree\"><h2>Crush tree, coloured by %%USE</h2>\n"
	       "<svg class=\"treemap\" width=\"%.0f\" height=\"%.0f\" "
	       "role=\"img\">",
	    W, H);
	for (int i = 0; i < maxb; i++) {
		int id = -1 - i;

		if (pl_map_bucket_exists(cm, id) &&
		    !pl_map_bucket_is_shadow(cm, id) &&
		    pl_map_parent(cm, id) == 0)
			roots++;
	}
	for (int i = 0, k = 0; i < maxb; i++) {
		int id = -1 - i;

		if (!pl_map_bucket_exists(cm, id) ||
		    pl_map_bucket_is_shadow(cm, id) || pl_map_parent(cm, id))
			continue;
		treemap(b, cm, m, h, id, 0, H * k / roots, W, H / roots, 0);
		k++;
	}
	put(b, "</svg></section>\n");
}

/* ---- PGs and objects against the weights ---- */

static void spread(struct buf *b, const cfs_osdmap *m,
		   const struct cfs_health *h, const int *count,
		   const float *target)
{
	uint64_t objects = 0;
	double wsum = 0;

	for (int i = 0; i < h->max_osd; i++)
		if (h->osd[i].info.exists && target[i] > 0) {
			objects += h->osd[i].objects;
			wsum += target[i];
		}
	put(b, "<section id=\"pgs\"><h2>PGs and objects per OSD against the "
	       "weights</h2>\n<table><thead><tr><th>OSD</th><th>PGs</th>"
	       "<th>expected</th><th>over/under</th><th>objects</th>"
	       "<th>expected</th><th>over/under</th></tr></thead><tbody>\n");
	for (int i = 0; i < h->max_osd; i++) {
		double exp_obj, dp, dobj;

		if (!h->osd[i].info.exists || (target[i] <= 0 && !count[i]))
			continue;
		exp_obj = wsum > 0 ? (double)objects * target[i] / wsum : 0;
		dp = target[i] > 0 ? 100.0 * (count[i] - target[i]) / target[i]
				   : 0;
		/* no "-0.0%" */
		if (dp > -0.05 && dp < 0.05)
			dp = 0;
		dobj = exp_obj > 0 ?
			100.0 * ((double)h->osd[i].objects - exp_obj) / exp_obj :
			0;
		if (dobj > -0.05 && dobj < 0.05)
			dobj = 0;
		put(b, "<tr data-osd=\"%d\" data-pgs=\"%d\" data-expected-pgs="
		       "\"%.2f\"><td>osd.%d</td><td>%d</td><td>%.1f</td>"
		       "<td class=\"%s\">%+.1f%%</td><td>%" PRIu64 "</td>"
		       "<td>%.1f</td><td class=\"%s\">%+.1f%%</td></tr>\n",
		    i, count[i], target[i], i, count[i], target[i],
		    dp >= 0 ? "over" : "under", dp, h->osd[i].objects, exp_obj,
		    dobj >= 0 ? "over" : "under", dobj);
	}
	put(b, "</tbody></table></section>\n");
	(void)m;
}

/* ---- the pool's room ---- */

static void pool(struct buf *b, const cfs_osdmap *m,
		 const struct cfs_health *h, const uint64_t *used)
{
	const struct cfs_pool_info *pi = cfs_osdmap_pool(m);
	int lim_full = -1, lim_near = -1;
	uint64_t full = cfs_pool_avail_before(m, used, cfs_osdmap_full_ratio(m),
					      &lim_full);
	uint64_t near = cfs_pool_avail_before(
		m, used, cfs_osdmap_nearfull_ratio(m), &lim_near);
	char s1[32], s2[32], s3[32], s4[32];

	put(b, "<section id=\"pool\"><h2>Pool '");
	put_text(b, pi->name);
	put(b, "' (%" PRId64 "): size %d, pg_num %u</h2>\n"
	       "<table><tr><th>stored</th><th>used (raw)</th>"
	       "<th>MAX AVAIL</th></tr><tr><td data-stored=\"%" PRIu64
	       "\">%s</td><td data-used=\"%" PRIu64 "\">%s</td>"
	       "<td data-max-avail=\"%" PRIu64 "\">%s</td></tr></table>\n",
	    pi->id, pi->size, pi->pg_num, h->rule_used / (uint64_t)pi->size,
	    human(h->rule_used / (uint64_t)pi->size, s1, sizeof(s1)),
	    h->rule_used, human(h->rule_used, s2, sizeof(s2)), h->max_avail,
	    human(h->max_avail, s3, sizeof(s3)));
	if (lim_full >= 0)
		put(b, "<p id=\"fills-first\" data-osd=\"%d\" data-before-"
		       "nearfull=\"%" PRIu64 "\" data-before-full=\"%" PRIu64
		       "\"><b>osd.%d fills first</b>: %s can still be written "
		       "before it is nearfull, %s before it is full (new data "
		       "spread as the crush weights predict).</p>\n",
		    lim_full, near, full, lim_full, human(near, s4, sizeof(s4)),
		    human(full, s3, sizeof(s3)));
	else
		put(b, "<p id=\"fills-first\" data-osd=\"-1\">no OSD of the "
		       "pool's rule can take data.</p>\n");
	(void)lim_near;
	put(b, "</section>\n");
}

/* the files with the most objects on one OSD (the top 25) */
static int by_objects(const void *a, const void *b)
{
	const struct rp_file *x = a, *y = b;

	if (x->objects != y->objects)
		return x->objects < y->objects ? 1 : -1;
	return strcmp(x->path, y->path);
}

static void files_on(struct buf *b, int osd, const struct rp_file *files,
		     size_t n)
{
	struct rp_file *v = n ? malloc(n * sizeof(*v)) : NULL;
	uint64_t total = 0;

	if (n && !v) {
		b->err = -ENOMEM;
		return;
	}
	if (n)
		memcpy(v, files, n * sizeof(*v));
	for (size_t i = 0; i < n; i++)
		total += v[i].objects;
	if (n)
		qsort(v, n, sizeof(*v), by_objects);
	put(b, "<section id=\"files\" data-osd=\"%d\" data-files=\"%zu\">"
	       "<h2>Files with the most objects on osd.%d (%zu files, %" PRIu64
	       " objects: what is hit if it dies)</h2>\n<table><thead><tr>"
	       "<th>objects</th><th style=\"text-align:left\">file</th></tr>"
	       "</thead><tbody>\n",
	    osd, n, osd, n, total);
	for (size_t i = 0; i < n && i < 25; i++) {
		put(b, "<tr data-objects=\"%" PRIu64 "\"><td>%" PRIu64
		       "</td><td style=\"text-align:left\">",
		    v[i].objects, v[i].objects);
		put_text(b, v[i].path);
		put(b, "</td></tr>\n");
	}
	put(b, "</tbody></table></section>\n");
	free(v);
}

static const char STYLE[] =
	"body{font:14px/1.35 system-ui,sans-serif;margin:16px 24px;"
	"color:#222;max-width:1200px}h1{font-size:20px;margin:0 0 4px}"
	"h2{font-size:16px;margin:18px 0 6px}.legend{color:#666;margin:0 0 6px}"
	".osd{display:flex;align-items:center;gap:8px;height:18px;white-space:nowrap}"
	".osd .name{width:64px;text-align:right;font-family:monospace}"
	".osd .figs{color:#444;font-size:12px}rect.bg{fill:#eceff1}"
	"line.ratio{stroke-width:2.5}line.nearfull{stroke:#f9a825}"
	"line.backfillfull{stroke:#ef6c00}line.full{stroke:#c62828}"
	".treemap rect.frame{fill:none;stroke:#90a4ae}"
	".treemap text{font:11px sans-serif;fill:#111}"
	".treemap .label{fill:#37474f;font-weight:600}"
	"table{border-collapse:collapse}td,th{padding:2px 10px;"
	"text-align:right;border-bottom:1px solid #eee}"
	"td.over{color:#b71c1c}td.under{color:#1b5e20}"
	"#layout{display:grid;grid-template-columns:1fr 1fr;gap:12px}"
	".status{font-weight:600}.HEALTH_OK{color:#2e7d32}"
	".HEALTH_WARN{color:#ef6c00}.HEALTH_ERR{color:#c62828}";

int rp_html(cfs_cluster *c, int osd, const struct rp_file *files,
	    size_t nfiles, char **html, size_t *len)
{
	const cfs_osdmap *m = cfs_osdmap_get(c);
	struct cfs_health h;
	struct buf b = { 0 };
	int n = cfs_osdmap_max_osd(m), r, *count = NULL;
	float *target = NULL;
	uint64_t *used = NULL;
	static const char *const st[] = { "HEALTH_OK", "HEALTH_WARN",
					  "HEALTH_ERR" };
	char t[64];
	time_t now = time(NULL);

	r = cfs_health_take(c, m, NULL, 0, NULL, &h);
	if (r) {
		cfs_osdmap_put(m);
		return r;
	}
	count = calloc((size_t)n + 1, sizeof(int));
	target = calloc((size_t)n + 1, sizeof(float));
	used = calloc((size_t)n + 1, sizeof(uint64_t));
	r = count && target && used ? cfs_osdmap_pg_spread(m, cfs_osdmap_pool(m)->id, count, target) :
				      -ENOMEM;
	if (r)
		goto out;
	for (int i = 0; i < n && i < h.max_osd; i++)
		used[i] = h.osd[i].used;
	strftime(t, sizeof(t), "%Y-%m-%d %H:%M:%S UTC", gmtime(&now));
	put(&b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		"<title>crushfs report</title><style>%s</style></head><body>\n"
		"<h1>crushfs cluster %s</h1>\n<p>epoch %u &middot; %d OSDs, %d "
		"up, %d in &middot; <span class=\"status %s\" id=\"health\">%s"
		"</span> &middot; %s</p>\n",
	    STYLE, cfs_osdmap_fsid(m), cfs_osdmap_epoch(m), h.num_osds, h.num_up,
	    h.num_in, st[h.status], st[h.status], t);
	pool(&b, m, &h, used);
	tree(&b, m, &h);
	put(&b, "<div id=\"layout\"><div>");
	osd_bars(&b, m, &h);
	put(&b, "</div><div>");
	spread(&b, m, &h, count, target);
	put(&b, "</div></div>\n");
	if (osd >= 0)
		files_on(&b, osd, files, nfiles);
	put(&b, "</body></html>\n");
	r = b.err;
out:
	cfs_health_free(&h);
	cfs_osdmap_put(m);
	free(count);
	free(target);
	free(used);
	if (r) {
		free(b.p);
		return r;
	}
	*html = b.p;
	if (len)
		*len = b.len;
	return 0;
}
