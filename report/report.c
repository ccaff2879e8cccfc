/*
 * report.c - the report page (report.h): one mgr snapshot (one osdmap
 * reference, one read of every PG and of every OSD's usage, the health
 * checks with the PG states: mgr_snap_take), and from it `df`'s rows
 * (mgr_df_compute) and the analysis of every pool (mgr_analysis_take),
 * laid out by the parts in rp_pools.c, rp_tree.c and rp_dist.c.  The
 * page therefore says what `status`, `health detail` and `df` say.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "placement.h"
#include "report.h"
#include "report_i.h"

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
	       "<th>objects</th><th class=\"l\">file</th></tr>"
	       "</thead><tbody>\n",
	    osd, n, osd, n, total);
	for (size_t i = 0; i < n && i < 25; i++) {
		put(b, "<tr data-objects=\"%" PRIu64 "\"><td>%" PRIu64
		       "</td><td class=\"l\">",
		    v[i].objects, v[i].objects);
		put_text(b, v[i].path);
		put(b, "</td></tr>\n");
	}
	put(b, "</tbody></table>\n");
	put_more(b, n > 25 ? (int)(n - 25) : 0, "files");
	put(b, "</section>\n");
	free(v);
}

/* Every OSD as drawn: state, fill, and whether its crush weight still
 * matches its capacity (`osd set-capacity` leaves the weight: the map
 * then sends it data for the size it had).  Weights are compared as
 * shares, the OSD's share of the crush weight against its share of the
 * capacity: small OSDs all get Ceph's minimum weight (0.001, 16.16 is
 * coarse there), so the absolute weight of a 48 MiB OSD says little. */
static int page_osds(struct rp_page *pg)
{
	const pl_map *cm = cfs_osdmap_crush(pg->m);
	double tw = 0, tc = 0;

	pg->n = pg->h->max_osd;
	pg->osd = calloc((size_t)pg->n + 1, sizeof(*pg->osd));
	if (!pg->osd)
		return -ENOMEM;
	pg->full_pct = cfs_osdmap_full_ratio(pg->m) * 100;
	for (int i = 0; i < pg->n; i++) {
		const struct cfs_osd_snap *s = &pg->h->osd[i];
		struct rp_osd *o = &pg->osd[i];
		const char *cls;

		if (!s->info.exists)
			continue;
		o->exists = 1;
		o->up = s->info.up;
		o->in = s->in;
		o->used = s->used;
		o->capacity = s->info.capacity;
		o->pct = o->capacity ?
			100.0 * (double)o->used / (double)o->capacity : 0;
		o->weight = s->info.crush_weight;
		o->fullness = s->fullness;
		cls = pl_map_item_class(cm, i);
		o->cls = cls ? cls : "";
		if (o->weight && o->capacity) {
			tw += o->weight;
			tc += (double)o->capacity;
		}
	}
	/* a weight of 0 is a choice (drained), not a mismatch */
	for (int i = 0; i < pg->n && tw > 0 && tc > 0; i++) {
		struct rp_osd *o = &pg->osd[i];
		double r;

		if (!o->exists || !o->weight || !o->capacity)
			continue;
		r = (o->weight / tw) / ((double)o->capacity / tc);
		o->mismatch = r > 1.25 || r < 0.8;
	}
	return 0;
}

void rp_header(struct buf *b, const cfs_osdmap *m, const struct cfs_health *h,
	       const char *title)
{
	char t[64];
	time_t now = time(NULL);
	const char *st = cfs_health_status_name(h->status);

	strftime(t, sizeof(t), "%Y-%m-%d %H:%M:%S UTC", gmtime(&now));
	put(b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8"
	       "\"><title>%s</title><style>%s</style></head><body>\n"
	       "<h1>%s &middot; cluster %s</h1>\n<p>epoch %u &middot; %d OSDs, "
	       "%d up, %d in &middot; <span class=\"status %s\" id=\"health\">"
	       "%s</span> &middot; %s</p>\n",
	    title, rp_style, title, cfs_osdmap_fsid(m), cfs_osdmap_epoch(m),
	    h->num_osds, h->num_up, h->num_in, st, st, t);
}

int rp_html_opts(cfs_cluster *c, const struct rp_opts *o, char **html,
		 size_t *len)
{
	struct mgr_snap s;
	struct mgr_analysis a = { 0 };
	struct mgr_df df = { 0 };
	struct rp_page pg = { 0 };
	struct buf b = { 0 };
	int r;

	if (!o->ol)
		return -EINVAL;
	r = mgr_snap_take(c, o->ol, MGR_SNAP_PGS | MGR_SNAP_PG_HEALTH, &s);
	if (r)
		return r;
	r = rp_page_init(&s, &a, &df, &pg);
	if (r)
		goto out;
	rp_header(&b, s.m, &s.h, "crushfs report");
	rp_health_section(&b, &s.h);
	rp_pools_section(&b, &pg);
	rp_tree_section(&b, &pg);
	rp_dist_section(&b, &pg);
	rp_osd_bars(&b, &pg);
	if (o->osd >= 0)
		files_on(&b, o->osd, o->files, o->nfiles);
	put(&b, "</body></html>\n");
	r = b.err;
out:
	free(pg.osd);
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

int rp_html(cfs_cluster *c, objlayer *ol, int osd, const struct rp_file *files,
	    size_t nfiles, char **html, size_t *len)
{
	struct rp_opts o = { osd, files, nfiles, ol };

	return rp_html_opts(c, &o, html, len);
}

int rp_page_init(const struct mgr_snap *s, struct mgr_analysis *a,
		 struct mgr_df *df, struct rp_page *pg)
{
	int r;

	memset(pg, 0, sizeof(*pg));
	pg->m = s->m;
	pg->h = &s->h;
	pg->a = a;
	pg->df = df;
	r = mgr_df_compute(s, df);
	if (!r)
		r = mgr_analysis_take(s, a);
	return r ? r : page_osds(pg);
}
