/*
 * rp_whatif.c - the what-if page (report.h): a placement change before
 * and after, side by side (the treemap coloured by %USE now and after the
 * move, MAX AVAIL and fills-first both ways), the data each OSD would
 * receive and send, and how long the backfill takes at the stated
 * recovery rate: the busiest OSD bounds it (mgr_backfill_seconds), as
 * operators reason by hand.  The figures are mgr_whatif_compute's, the
 * ones `--dry-run` prints; the "now" side is one mgr snapshot, as the
 * report's page.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "report_i.h"

struct mv {
	int osd;
	int64_t delta;
};

static int by_delta(const void *x, const void *y)
{
	const struct mv *a = x, *b = y;
	int64_t da = a->delta < 0 ? -a->delta : a->delta;
	int64_t db = b->delta < 0 ? -b->delta : b->delta;

	if (da != db)
		return da < db ? 1 : -1;
	return a->osd - b->osd;
}

static void moves(struct buf *b, const struct mgr_whatif *w)
{
	struct mv *v = calloc((size_t)w->max_osd + 1, sizeof(*v));
	int n = 0, show;
	char s[6][32];

	if (!v) {
		b->err = -ENOMEM;
		return;
	}
	for (int i = 0; i < w->max_osd; i++)
		if (w->osd[i].bytes_in || w->osd[i].bytes_out ||
		    w->osd[i].before != w->osd[i].after || w->osd[i].crosses)
			v[n++] = (struct mv){ i, (int64_t)w->osd[i].after -
						     (int64_t)w->osd[i].before };
	qsort(v, (size_t)n, sizeof(*v), by_delta);
	show = n <= RP_ALL_OSDS ? n : RP_LIST_MAX;
	put(b, "<section id=\"moves\" data-osds=\"%d\"><h2>Data moved per OSD, "
	       "the largest change first</h2>\n<table><thead><tr><th>OSD</th>"
	       "<th>used now</th><th>after</th><th>%%USE now</th><th>after</th>"
	       "<th>receives</th><th>sends</th><th class=\"l\">crosses</th>"
	       "</tr></thead><tbody>\n",
	    n);
	for (int j = 0; j < show; j++) {
		const struct mgr_whatif_osd *o = &w->osd[v[j].osd];
		double c = o->capacity ? (double)o->capacity : 1;

		put(b, "<tr data-osd=\"%d\" data-before=\"%" PRIu64 "\" data-"
		       "after=\"%" PRIu64 "\" data-in=\"%" PRIu64 "\" data-out=\""
		       "%" PRIu64 "\"><td>osd.%d</td><td>%s</td><td>%s</td>"
		       "<td>%.1f%%</td><td>%.1f%%</td><td>%s</td><td>%s</td>"
		       "<td class=\"l\">%s</td></tr>\n",
		    v[j].osd, o->before, o->after, o->bytes_in, o->bytes_out,
		    v[j].osd, human(o->before, s[0], 32),
		    human(o->after, s[1], 32), 100.0 * (double)o->before / c,
		    100.0 * (double)o->after / c, human(o->bytes_in, s[2], 32),
		    human(o->bytes_out, s[3], 32),
		    o->crosses ? o->crosses : "");
	}
	put(b, "</tbody></table>\n");
	put_more(b, n - show, "OSDs");
	put(b, "</section>\n");
	free(v);
}

/* "under 1 s", "42 s", "12.5 min", "3.2 h" */
static const char *span(double s, char *out, size_t n)
{
	if (s < 1)
		snprintf(out, n, "under 1 s");
	else if (s < 60)
		snprintf(out, n, "about %.0f s", s);
	else if (s < 3600)
		snprintf(out, n, "about %.1f min", s / 60);
	else
		snprintf(out, n, "about %.1f h", s / 3600);
	return out;
}

static void side(struct buf *b, const char *id, const char *title,
		 uint64_t avail, int wfirst, int pfirst, uint64_t pfull)
{
	char s1[32], s2[32];

	put(b, "<div id=\"%s\" data-max-avail=\"%" PRIu64 "\" data-weight-"
	       "first=\"%d\" data-fills-first=\"%d\" data-before-full=\"%"
	       PRIu64 "\"><h3>%s</h3><p>MAX AVAIL %s%s; by the PG mapping "
	       "<b>osd.%d fills first</b>, %s before it is full</p>",
	    id, avail, wfirst, pfirst, pfull, title,
	    human(avail, s1, sizeof(s1)), wfirst >= 0 ? "" : " (no OSD)",
	    pfirst, human(pfull, s2, sizeof(s2)));
}

int rp_whatif_html(cfs_cluster *c, objlayer *ol, const cfs_osdmap *old,
		   const cfs_osdmap *new, const char *what, uint64_t rate,
		   int max_backfills, char **html, size_t *len)
{
	struct mgr_snap s;
	struct mgr_analysis a = { 0 };
	struct mgr_df df = { 0 };
	struct mgr_whatif w = { 0 };
	struct rp_page pg = { 0 }, apg = { 0 };
	struct buf b = { 0 };
	double *after = NULL, sec, th;
	char s1[32], s2[32], s3[32], s4[32];
	int r;

	/* "now" is the snapshot's map: the current one, as old (the dry
	 * run's base) was taken just before */
	r = mgr_snap_take(c, ol, MGR_SNAP_PGS | MGR_SNAP_PG_HEALTH, &s);
	if (r)
		return r;
	r = rp_page_init(&s, &a, &df, &pg);
	if (!r)
		r = mgr_whatif_compute(c, ol, old, new, &w);
	if (!r && !(after = calloc((size_t)w.max_osd + 1, sizeof(double))))
		r = -ENOMEM;
	if (!r && !(apg.osd = calloc((size_t)w.max_osd + 1, sizeof(*apg.osd))))
		r = -ENOMEM;
	if (r)
		goto out;
	/* after: the new map's tree, states and ratios, the moved use */
	apg.m = new;
	apg.h = &s.h;
	apg.a = &a;
	apg.df = &df;
	apg.n = w.max_osd;
	apg.full_pct = cfs_osdmap_full_ratio(new) * 100;
	for (int i = 0; i < w.max_osd; i++) {
		struct rp_osd *o = &apg.osd[i];

		if (i < pg.n)
			*o = pg.osd[i];
		o->exists = w.osd[i].exists;
		if (!o->exists)
			continue;
		o->up = cfs_osdmap_is_up(new, i);
		o->in = cfs_osdmap_is_in(new, i);
		o->used = w.osd[i].after;
		o->capacity = w.osd[i].capacity;
		o->pct = after[i] = o->capacity ?
			100.0 * (double)o->used / (double)o->capacity : 0;
		o->fullness = o->used >= cfs_osdmap_full_limit(new, i) ?
			CFS_FULLNESS_FULL :
			o->used >= cfs_osdmap_nearfull_limit(new, i) ?
			CFS_FULLNESS_NEARFULL : CFS_FULLNESS_NONE;
	}
	sec = mgr_backfill_seconds(&w, rate, max_backfills);
	/* about 300 px^2 a tile, 360 to 1400 high: 10,000 OSDs stay
	 * visible as tiles */
	th = s.h.num_osds * 300.0 / 600;
	th = th < 360 ? 360 : th > 1400 ? 1400 : th;
	rp_header(&b, old, &s.h, "crushfs what-if");
	put(&b, "<section id=\"whatif\" data-command=\"");
	put_text(&b, what);
	put(&b, "\" data-pgs-changed=\"%u\" data-pg-num=\"%u\" data-bytes=\"%"
		PRIu64 "\" data-copies=\"%" PRIu64 "\"><h2>What if: <code>",
	    w.pgs_changed, w.pg_num, w.bytes, w.copies);
	put_text(&b, what);
	put(&b, "</code></h2>\n<p>nothing was changed: the cluster stays at "
		"epoch %u. In the data pool '%s', %u of %u PGs change their "
		"acting set; %" PRIu64 " object copies (%s) would move.</p>\n",
	    cfs_osdmap_epoch(old), cfs_osdmap_pool(old)->name, w.pgs_changed,
	    w.pg_num, w.copies, human(w.bytes, s1, sizeof(s1)));
	for (int i = 0; i < w.nothers; i++) {
		put(&b, "<p class=\"other-pool\" data-pool=\"");
		put_text(&b, w.others[i].pool->name);
		put(&b, "\" data-pgs-changed=\"%u\">pool '", w.others[i].pgs_changed);
		put_text(&b, w.others[i].pool->name);
		put(&b, "': %u of %u PGs change their up set, %s move</p>\n",
		    w.others[i].pgs_changed, w.others[i].pool->pg_num,
		    human(w.others[i].bytes, s1, sizeof(s1)));
	}
	put(&b, "<p id=\"backfill\" data-seconds=\"%.3f\" data-rate=\"%" PRIu64
		"\" data-max-backfills=\"%d\" data-busiest=\"%d\" data-busiest-"
		"bytes=\"%" PRIu64 "\">",
	    sec, rate, max_backfills, w.busiest, w.busiest_bytes);
	if (w.busiest < 0)
		put(&b, "<b>Backfill: nothing moves.</b></p>\n");
	else
		put(&b, "<b>Backfill: %s</b> at %s/s per backfill and "
			"osd_max_backfills %d (Ceph's default 1; set with "
			"--recovery-rate and --max-backfills): osd.%d is the "
			"busiest, with %s to receive or send; the others "
			"finish sooner.</p>\n",
		    span(sec, s4, sizeof(s4)), human(rate, s2, sizeof(s2)),
		    max_backfills, w.busiest,
		    human(w.busiest_bytes, s3, sizeof(s3)));
	put(&b, "<div class=\"side\">");
	side(&b, "before", "Now", w.avail_before, w.first_before,
	     w.pg_first_before, w.pg_full_before);
	rp_treemap(&b, &pg, 0, NULL, "treemap-before", 600, th);
	put(&b, "</div>");
	side(&b, "after", "After the move", w.avail_after, w.first_after,
	     w.pg_first_after, w.pg_full_after);
	rp_treemap(&b, &apg, 0, NULL, "treemap-after", 600, th);
	put(&b, "</div></div></section>\n");
	moves(&b, &w);
	put(&b, "</body></html>\n");
	r = b.err;
out:
	free(after);
	free(apg.osd);
	free(pg.osd);
	mgr_whatif_free(&w);
	mgr_analysis_free(&a);
	mgr_df_free(&df);
	mgr_snap_free(&s);
	if (r) {
		free(b.p);
		return r;
	}
	*html = b.p;
	if (len)
		*len = b.len;
	return 0;
}
