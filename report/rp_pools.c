/*
 * rp_pools.c - the health checks with their causes (as `health detail`
 * has them: osdsim's checks, code, summary and detail lines) and every
 * pool's room: stored, raw use, %USED and MAX AVAIL (`df`'s rows, from
 * the page's snapshot, so the page and `df -f json` agree), and the OSD
 * that fills it first by the real PG mapping (mgr.h's analysis), with
 * the bytes writable before nearfull and full.
 */
#include <inttypes.h>
#include <stdio.h>

#include "report_i.h"

/* detail lines kept per check; the rest is "N more" */
#define RP_DETAIL_MAX 12

void rp_health_section(struct buf *b, const struct cfs_health *h)
{
	put(b, "<section id=\"health-checks\" data-checks=\"%d\"><h2>Health: "
	       "<span class=\"status %s\">%s</span></h2>\n",
	    h->nchecks, cfs_health_status_name(h->status),
	    cfs_health_status_name(h->status));
	if (!h->nchecks)
		put(b, "<p>no health check fails.</p>\n");
	for (int i = 0; i < h->nchecks; i++) {
		const struct cfs_health_check *k = &h->checks[i];
		const char *sev = cfs_health_status_name(k->severity);

		put(b, "<div class=\"check\" data-code=\"%s\" data-severity=\"%s\""
		       " data-count=\"%" PRId64 "\"><span class=\"status %s\">"
		       "[%s]</span> <span class=\"code\">%s</span>: ",
		    k->code, sev, k->count, sev,
		    k->severity == CFS_HEALTH_ERR ? "ERR" : "WRN", k->code);
		put_text(b, k->summary);
		put(b, "<ul>");
		for (int d = 0; d < k->ndetail && d < RP_DETAIL_MAX; d++) {
			put(b, "<li>");
			put_text(b, k->detail[d]);
			put(b, "</li>");
		}
		put(b, "</ul>");
		put_more(b, k->ndetail - RP_DETAIL_MAX, "detail lines");
		put(b, "</div>\n");
	}
	put(b, "</section>\n");
}

static void pool_row(struct buf *b, const struct rp_page *pg,
		     const struct mgr_pool_fill *f, const struct mgr_pool_df *d)
{
	const struct cfs_pool_info *p = f->pool;
	double pct = 100.0 * d->percent_used;
	char s1[32], s2[32], s3[32], s4[32], s5[32], col[32];

	put(b, "<tr class=\"pool\" data-pool=\"");
	put_text(b, p->name);
	put(b, "\" data-pool-id=\"%" PRId64 "\" data-stored=\"%" PRIu64 "\" "
	       "data-raw-used=\"%" PRIu64 "\" data-max-avail=\"%" PRIu64 "\" "
	       "data-fills-first=\"%d\" data-before-nearfull=\"%" PRIu64 "\" "
	       "data-before-full=\"%" PRIu64 "\" data-pct=\"%.2f\"><td class="
	       "\"l\">",
	    p->id, d->stored, d->used, d->max_avail, f->fills_first,
	    f->before_nearfull, f->before_full, pct);
	put_text(b, p->name);
	put(b, " (%" PRId64 ")</td><td class=\"l\">", p->id);
	if (p->erasure)
		put(b, "erasure %d+%d", f->k, f->shares - f->k);
	else
		put(b, "replicated &times;%d", p->size);
	put(b, "</td><td>%u</td><td>%s</td><td>%s</td><td><svg width=\"80\" "
	       "height=\"10\" role=\"img\"><rect class=\"bg\" width=\"80\" "
	       "height=\"10\"/><rect width=\"%.1f\" height=\"10\" fill=\"%s\"/>"
	       "</svg> %.1f%%</td><td>%s</td>",
	    p->pg_num, human(d->stored, s1, sizeof(s1)),
	    human(d->used, s2, sizeof(s2)), 0.8 * pct,
	    ramp(pct, pg->full_pct, col, sizeof(col)), pct,
	    human(d->max_avail, s3, sizeof(s3)));
	if (f->fills_first >= 0)
		put(b, "<td class=\"l\"><b>osd.%d</b> (%d PGs, %.1f expected)"
		       "</td><td>%s</td><td>%s</td></tr>\n",
		    f->fills_first, f->pgs[f->fills_first],
		    f->expected[f->fills_first],
		    human(f->before_nearfull, s4, sizeof(s4)),
		    human(f->before_full, s5, sizeof(s5)));
	else
		put(b, "<td class=\"l\">no OSD takes its data</td><td></td>"
		       "<td></td></tr>\n");
}

void rp_pools_section(struct buf *b, const struct rp_page *pg)
{
	const struct mgr_analysis *a = pg->a;
	const struct mgr_pool_fill *d = NULL;
	char s1[32], s2[32];

	for (int i = 0; i < a->npools; i++)
		if (a->pools[i].pool == cfs_osdmap_pool(pg->m))
			d = &a->pools[i];
	put(b, "<section id=\"pools\" data-pools=\"%d\"><h2>Pools</h2>\n"
	       "<p class=\"legend\">stored, raw used, %%USED and MAX AVAIL as "
	       "<code>df</code> (MAX AVAIL by the crush weights); fills first by the real PG mapping: new data lands "
	       "by PG, each PG taking 1/pg_num of a pool's writes, so the OSD "
	       "whose room over its share of the pool's PGs is smallest "
	       "fills first.</p>\n<table><thead><tr><th class=\"l\">pool</th>"
	       "<th class=\"l\">type</th><th>PGs</th><th>stored</th>"
	       "<th>raw used</th><th>%%USED</th><th>MAX AVAIL</th>"
	       "<th class=\"l\">fills first</th><th>before nearfull</th>"
	       "<th>before full</th></tr></thead><tbody>\n",
	    a->npools);
	/* the df rows and the analysis are both pool by pool in the
	 * snapshot's osdmap order */
	for (int i = 0; i < a->npools && i < pg->df->npools; i++)
		pool_row(b, pg, &a->pools[i], &pg->df->pools[i]);
	put(b, "</tbody></table>\n");
	if (d && d->fills_first >= 0)
		put(b, "<p id=\"fills-first\" data-osd=\"%d\" data-before-"
		       "nearfull=\"%" PRIu64 "\" data-before-full=\"%" PRIu64
		       "\" data-weight-first=\"%d\"><b>osd.%d fills first</b> "
		       "in '%s': %s can still be written before it is "
		       "nearfull, %s before it is full (it holds %d of the "
		       "pool's PG positions where the weights predict %.1f)."
		       "%s</p>\n",
		    d->fills_first, d->before_nearfull, d->before_full,
		    d->weight_first, d->fills_first, d->pool->name,
		    human(d->before_nearfull, s1, sizeof(s1)),
		    human(d->before_full, s2, sizeof(s2)),
		    d->pgs[d->fills_first], d->expected[d->fills_first],
		    d->weight_first >= 0 && d->weight_first != d->fills_first ?
			    " The crush weights alone would point at another "
			    "OSD (MAX AVAIL's)." : "");
	else
		put(b, "<p id=\"fills-first\" data-osd=\"-1\">no OSD of the "
		       "data pool's rule can take data.</p>\n");
	put(b, "</section>\n");
}
