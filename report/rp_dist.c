/*
 * rp_dist.c - how the data is spread: every OSD's fill bar (the fullest
 * first past RP_ALL_OSDS OSDs), histograms of PGs per OSD and of %USE,
 * the OSDs furthest over what their weights predict first, and the
 * per-host and per-device-class summaries.  Long lists end in "N more".
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "placement.h"
#include "report_i.h"

/* ---- fill bars ---- */

static int by_pct(const void *x, const void *y, void *arg)
{
	const struct rp_page *pg = arg;
	const struct rp_osd *a = &pg->osd[*(const int *)x];
	const struct rp_osd *b = &pg->osd[*(const int *)y];

	if (a->pct != b->pct)
		return a->pct < b->pct ? 1 : -1;
	return *(const int *)x - *(const int *)y;
}

static void bar(struct buf *b, const struct rp_page *pg, int i)
{
	const double W = 300, H = 14;
	const struct rp_osd *s = &pg->osd[i];
	double lines[3] = { cfs_osdmap_nearfull_ratio(pg->m),
			    cfs_osdmap_backfillfull_ratio(pg->m),
			    cfs_osdmap_full_ratio(pg->m) };
	static const char *const lname[3] = { "nearfull", "backfillfull",
					      "full" };
	double w = W * (s->pct > 100 ? 100 : s->pct) / 100;
	char u[32], c[32], col[32];

	put(b, "<div class=\"osd\" data-osd=\"%d\" data-used=\"%" PRIu64
	       "\" data-capacity=\"%" PRIu64 "\" data-objects=\"%" PRIu64
	       "\" data-pct=\"%.2f\"><span class=\"name\">osd.%d</span>"
	       "<svg width=\"%.0f\" height=\"%.0f\" role=\"img\">"
	       "<rect class=\"bg\" width=\"%.0f\" height=\"%.0f\"/>"
	       "<rect class=\"fill\" width=\"%.1f\" height=\"%.0f\" "
	       "fill=\"%s\"/>",
	    i, s->used, s->capacity, pg->h->osd[i].objects, s->pct, i, W, H,
	    W, H, w, H, ramp(s->pct, pg->full_pct, col, sizeof(col)));
	for (int k = 0; k < 3; k++)
		put(b, "<line class=\"ratio %s\" x1=\"%.1f\" x2=\"%.1f\" "
		       "y1=\"0\" y2=\"%.0f\"/>",
		    lname[k], W * lines[k], W * lines[k], H);
	put(b, "</svg><span class=\"figs\">%.1f%% &middot; %s of %s%s%s%s"
	       "</span></div>\n",
	    s->pct, human(s->used, u, sizeof(u)),
	    human(s->capacity, c, sizeof(c)), s->up ? "" : " &middot; down",
	    s->in ? "" : " &middot; out",
	    s->mismatch ? " &middot; weight &ne; capacity" : "");
}

void rp_osd_bars(struct buf *b, const struct rp_page *pg)
{
	int *v = calloc((size_t)pg->n + 1, sizeof(int)), k = 0, show;

	if (!v) {
		b->err = -ENOMEM;
		return;
	}
	for (int i = 0; i < pg->n; i++)
		if (pg->osd[i].exists)
			v[k++] = i;
	show = k <= RP_ALL_OSDS ? k : RP_LIST_MAX;
	if (k > RP_ALL_OSDS) {
		qsort_r(v, (size_t)k, sizeof(int), by_pct, (void *)pg);
	}
	put(b, "<section id=\"osds\"><h2>OSD fill%s</h2>\n<p class=\"legend\">"
	       "bars: used of capacity; lines: nearfull %.0f%%, backfillfull "
	       "%.0f%%, full %.0f%%</p>\n",
	    k > RP_ALL_OSDS ? ", the fullest first" : "",
	    cfs_osdmap_nearfull_ratio(pg->m) * 100,
	    cfs_osdmap_backfillfull_ratio(pg->m) * 100, pg->full_pct);
	for (int i = 0; i < show; i++)
		bar(b, pg, v[i]);
	put_more(b, k - show, "OSDs (the treemap shows them all)");
	put(b, "</section>\n");
	free(v);
}

/* ---- histograms ---- */

static void histogram(struct buf *b, const char *id, const char *title,
		      const int *count, int nbins, double lo, double width,
		      const char *unit)
{
	const double W = 520, H = 120, bw = W / nbins;
	int mx = 1;

	for (int i = 0; i < nbins; i++)
		if (count[i] > mx)
			mx = count[i];
	put(b, "<div class=\"hist\" id=\"%s\"><h3>%s</h3><svg width=\"%.0f\" "
	       "height=\"%.0f\" role=\"img\">",
	    id, title, W, H + 16);
	for (int i = 0; i < nbins; i++) {
		double h = H * count[i] / mx;

		put(b, "<g class=\"bin\" data-lo=\"%g\" data-hi=\"%g\" "
		       "data-count=\"%d\"><rect x=\"%.1f\" y=\"%.1f\" width="
		       "\"%.1f\" height=\"%.1f\"/><title>%g-%g%s: %d OSDs"
		       "</title></g>",
		    lo + i * width, lo + (i + 1) * width, count[i], i * bw + 1,
		    H - h, bw - 2, h, lo + i * width, lo + (i + 1) * width,
		    unit, count[i]);
	}
	put(b, "<text x=\"0\" y=\"%.0f\">%g%s</text><text x=\"%.0f\" y=\"%.0f"
	       "\" text-anchor=\"end\">%g%s</text></svg></div>\n",
	    H + 13, lo, unit, W, H + 13, lo + nbins * width, unit);
}

static void histograms(struct buf *b, const struct rp_page *pg)
{
	const struct mgr_analysis *a = pg->a;
	int pcount[20] = { 0 }, ucount[20] = { 0 }, lo = -1, hi = 0, wd, nb;

	for (int i = 0; i < a->max_osd && i < pg->n; i++) {
		if (!pg->osd[i].exists || (a->expected[i] <= 0 && !a->pgs[i]))
			continue;
		if (lo < 0 || a->pgs[i] < lo)
			lo = a->pgs[i];
		if (a->pgs[i] > hi)
			hi = a->pgs[i];
	}
	if (lo < 0)
		lo = 0;
	wd = (hi - lo + 20) / 20;
	nb = (hi - lo) / wd + 1;
	for (int i = 0; i < a->max_osd && i < pg->n; i++) {
		int u;

		if (!pg->osd[i].exists)
			continue;
		u = (int)(pg->osd[i].pct / 5);
		ucount[u > 19 ? 19 : u < 0 ? 0 : u]++;
		if (a->expected[i] > 0 || a->pgs[i])
			pcount[(a->pgs[i] - lo) / wd]++;
	}
	put(b, "<div id=\"histograms\">");
	histogram(b, "hist-pgs", "PGs per OSD (all pools)", pcount, nb, lo,
		  wd, "");
	histogram(b, "hist-use", "%USE per OSD", ucount, 20, 0, 5, "%");
	put(b, "</div>\n");
}

/* ---- the OSDs furthest over their weights, first ---- */

static void outliers(struct buf *b, const struct rp_page *pg)
{
	const struct mgr_analysis *a = pg->a;
	int *v = calloc((size_t)a->max_osd + 1, sizeof(int)), k, show;

	if (!v) {
		b->err = -ENOMEM;
		return;
	}
	k = mgr_outliers(a, v, a->max_osd);
	show = k <= RP_ALL_OSDS ? k : RP_LIST_MAX;
	put(b, "<section id=\"pgs\"><h2>PGs per OSD against the weights, the "
	       "furthest over first</h2>\n<table id=\"outliers\"><thead><tr>"
	       "<th>OSD</th><th class=\"l\">host</th><th>PGs</th><th>expected"
	       "</th><th>over/under</th><th>%%USE</th></tr></thead><tbody>\n");
	for (int j = 0; j < show; j++) {
		int i = v[j];
		double t = a->expected[i], dp;
		struct cfs_osd_info oi = { 0 };

		dp = t > 0 ? 100.0 * (a->pgs[i] - t) / t : 0;
		if (dp > -0.05 && dp < 0.05) /* no "-0.0%" */
			dp = 0;
		cfs_osdmap_osd(pg->m, i, &oi);
		put(b, "<tr data-osd=\"%d\" data-pgs=\"%d\" data-expected-pgs="
		       "\"%.2f\"><td>osd.%d</td><td class=\"l\">",
		    i, a->pgs[i], t, i);
		put_text(b, oi.host);
		put(b, "</td><td>%d</td><td>%.1f</td><td class=\"%s\">%+.1f%%"
		       "</td><td>%.1f%%</td></tr>\n",
		    a->pgs[i], t, dp >= 0 ? "over" : "under", dp,
		    i < pg->n ? pg->osd[i].pct : 0);
	}
	put(b, "</tbody></table>\n");
	put_more(b, k - show, "OSDs");
	put(b, "</section>\n");
	free(v);
}

/* ---- per host and per class ---- */

struct group {
	char name[64];
	int osds, up, in, pgs;
	uint64_t used, capacity;
	double min_pct, max_pct;
};

static struct group *group_of(struct group *g, int *n, const char *name)
{
	for (int i = 0; i < *n; i++)
		if (!strcmp(g[i].name, name))
			return &g[i];
	memset(&g[*n], 0, sizeof(g[*n]));
	snprintf(g[*n].name, sizeof(g[*n].name), "%s", name);
	g[*n].min_pct = 1e9;
	return &g[(*n)++];
}

static int by_pct_desc(const void *x, const void *y)
{
	const struct group *a = x, *b = y;
	double pa = a->capacity ? (double)a->used / a->capacity : 0;
	double pb = b->capacity ? (double)b->used / b->capacity : 0;

	if (pa != pb)
		return pa < pb ? 1 : -1;
	return strcmp(a->name, b->name);
}

static void groups(struct buf *b, const struct rp_page *pg, int by_class)
{
	struct group *g = calloc((size_t)pg->n + 1, sizeof(*g));
	int n = 0, show;
	char s1[32], s2[32];

	if (!g) {
		b->err = -ENOMEM;
		return;
	}
	for (int i = 0; i < pg->n; i++) {
		const struct rp_osd *o = &pg->osd[i];
		struct cfs_osd_info oi = { 0 };
		struct group *x;

		if (!o->exists)
			continue;
		cfs_osdmap_osd(pg->m, i, &oi);
		x = group_of(g, &n, by_class ? (*o->cls ? o->cls : "(none)") :
					       oi.host);
		x->osds++;
		x->up += o->up;
		x->in += o->in;
		x->pgs += i < pg->a->max_osd ? pg->a->pgs[i] : 0;
		x->used += o->used;
		x->capacity += o->capacity;
		if (o->pct < x->min_pct)
			x->min_pct = o->pct;
		if (o->pct > x->max_pct)
			x->max_pct = o->pct;
	}
	qsort(g, (size_t)n, sizeof(*g), by_pct_desc);
	show = n <= RP_LIST_MAX ? n : RP_LIST_MAX;
	put(b, "<div><h3>Per %s%s</h3><table id=\"%s\"><thead><tr><th class="
	       "\"l\">%s</th><th>OSDs</th><th>up</th><th>in</th><th>PGs</th>"
	       "<th>used</th><th>size</th><th>%%USE</th><th>min</th>"
	       "<th>max</th></tr></thead><tbody>\n",
	    by_class ? "device class" : "host",
	    n > 1 ? ", the fullest first" : "",
	    by_class ? "by-class" : "by-host", by_class ? "class" : "host");
	for (int i = 0; i < show; i++) {
		put(b, "<tr data-%s=\"", by_class ? "class" : "host");
		put_text(b, g[i].name);
		put(b, "\" data-osds=\"%d\"><td class=\"l\">", g[i].osds);
		put_text(b, g[i].name);
		put(b, "</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td>"
		       "<td>%s</td><td>%s</td><td>%.1f%%</td><td>%.1f%%</td>"
		       "<td>%.1f%%</td></tr>\n",
		    g[i].osds, g[i].up, g[i].in, g[i].pgs,
		    human(g[i].used, s1, sizeof(s1)),
		    human(g[i].capacity, s2, sizeof(s2)),
		    g[i].capacity ? 100.0 * (double)g[i].used / g[i].capacity :
				    0,
		    g[i].min_pct, g[i].max_pct);
	}
	put(b, "</tbody></table>\n");
	put_more(b, n - show, by_class ? "classes" : "hosts");
	put(b, "</div>\n");
	free(g);
}

void rp_dist_section(struct buf *b, const struct rp_page *pg)
{
	put(b, "<section id=\"dist\"><h2>Distribution</h2>\n");
	histograms(b, pg);
	put(b, "</section>\n");
	outliers(b, pg);
	put(b, "<section id=\"groups\" class=\"side\">");
	groups(b, pg, 0);
	groups(b, pg, 1);
	put(b, "</section>\n");
}
