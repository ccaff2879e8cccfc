/*
 * rp_tree.c - the crush tree as a treemap: every bucket a frame, every OSD
 * a tile whose area is its share of the root's crush weight (or of the
 * capacity, the other view), coloured on the %USE ramp with %USE written
 * in.  Squarified layout (Bruls, Huizing, van Wijk 2000) keeps tiles near
 * square at any size, from 6 OSDs to 10,000; no space is taken for
 * labels, so areas stay exactly proportional.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "placement.h"
#include "report_i.h"

struct item {
	int id;
	double size; /* weight or capacity */
	double x, y, w, h;
};

/* a bucket's size in the capacity view: its OSDs' capacities summed */
static double cap_of(const struct rp_page *pg, const pl_map *cm, int id,
		     int depth)
{
	double s = 0;

	if (id >= 0)
		return id < pg->n && pg->osd[id].exists ?
			(double)pg->osd[id].capacity : 0;
	if (depth > 12 || !pl_map_bucket_exists(cm, id))
		return 0;
	for (int i = 0; i < pl_map_bucket_size(cm, id); i++)
		s += cap_of(pg, cm, pl_map_bucket_item(cm, id, i), depth + 1);
	return s;
}

static double worst(const struct item *v, int n, double sum, double side)
{
	double mx = 0, mn = -1, s2 = side * side, r1, r2;

	for (int i = 0; i < n; i++) {
		if (v[i].size > mx)
			mx = v[i].size;
		if (mn < 0 || v[i].size < mn)
			mn = v[i].size;
	}
	if (sum <= 0 || mn <= 0)
		return 1e300;
	r1 = s2 * mx / (sum * sum);
	r2 = sum * sum / (s2 * mn);
	return r1 > r2 ? r1 : r2;
}

/* sizes already scaled to areas summing to w*h */
static void squarify(struct item *v, int n, double x, double y, double w,
		     double h)
{
	while (n > 0) {
		double side = w < h ? w : h, sum = v[0].size, at = 0, thick;
		int k = 1;

		while (k < n && worst(v, k + 1, sum + v[k].size, side) <=
					worst(v, k, sum, side)) {
			sum += v[k].size;
			k++;
		}
		if (w >= h) { /* a column on the left */
			thick = h > 0 ? sum / h : 0;
			if (k == n) /* the last takes what is left */
				thick = w;
			for (int i = 0; i < k; i++) {
				double len = thick > 0 ? v[i].size / thick : 0;

				v[i] = (struct item){ v[i].id, v[i].size, x,
						      y + at, thick, len };
				at += len;
			}
			x += thick;
			w -= thick;
		} else { /* a row on top */
			thick = w > 0 ? sum / w : 0;
			if (k == n)
				thick = h;
			for (int i = 0; i < k; i++) {
				double len = thick > 0 ? v[i].size / thick : 0;

				v[i] = (struct item){ v[i].id, v[i].size,
						      x + at, y, len, thick };
				at += len;
			}
			y += thick;
			h -= thick;
		}
		v += k;
		n -= k;
	}
}

static void tile(struct buf *b, const struct rp_page *pg, const double *pct,
		 const struct item *it)
{
	const struct rp_osd *o = it->id < pg->n ? &pg->osd[it->id] : NULL;
	double p = pct ? pct[it->id] : o ? o->pct : 0;
	char col[32];
	const char *st = !o || !o->exists ? "none" :
			 !o->up ? "down" : !o->in ? "out" : "up";

	put(b, "<g class=\"osd-cell %s%s%s\" data-osd=\"%d\" data-pct=\"%.2f\""
	       " data-weight=\"%.6f\" data-capacity=\"%" PRIu64 "\" data-area="
	       "\"%.2f\" data-state=\"%s\"%s><rect x=\"%.2f\" y=\"%.2f\" "
	       "width=\"%.2f\" height=\"%.2f\" fill=\"%s\"/>",
	    st, o && o->fullness >= CFS_FULLNESS_FULL ? " full" :
		o && o->fullness >= CFS_FULLNESS_NEARFULL ? " nearfull" : "",
	    o && o->mismatch ? " mismatch" : "", it->id, p,
	    o ? o->weight / 65536.0 : 0, o ? o->capacity : 0, it->w * it->h,
	    st, o && o->mismatch ? " data-mismatch=\"1\"" : "",
	    it->x + 0.5, it->y + 0.5, it->w > 1 ? it->w - 1 : it->w,
	    it->h > 1 ? it->h - 1 : it->h, ramp(p, pg->full_pct, col,
						   sizeof(col)));
	if (it->w >= 38 && it->h >= 24)
		put(b, "<text x=\"%.1f\" y=\"%.1f\">osd.%d</text>"
		       "<text x=\"%.1f\" y=\"%.1f\">%.0f%%%s</text>",
		    it->x + 3, it->y + 11, it->id, it->x + 3, it->y + 22, p,
		    st[0] == 'd' ? " down" : st[0] == 'o' ? " out" : "");
	else if (it->w >= 22 && it->h >= 12)
		put(b, "<text x=\"%.1f\" y=\"%.1f\">%.0f%%</text>",
		    it->x + 2, it->y + 10, p);
	if (o && o->mismatch && it->w >= 12 && it->h >= 12)
		put(b, "<text class=\"flag\" x=\"%.1f\" y=\"%.1f\">&#9888;"
		       "</text>", it->x + it->w - 11, it->y + 11);
	put(b, "<title>osd.%d %.1f%% %s%s</title></g>", it->id, p, st,
	    o && o->mismatch ? ", crush weight does not match the capacity" :
			       "");
}

static void bucket(struct buf *b, const struct rp_page *pg, const pl_map *cm,
		   int by_cap, const double *pct, const struct item *self,
		   int depth)
{
	int n = pl_map_bucket_size(cm, self->id), k = 0;
	struct item *v = calloc((size_t)n + 1, sizeof(*v));
	double total = 0;

	if (!v) {
		b->err = -ENOMEM;
		return;
	}
	for (int i = 0; i < n; i++) {
		int c = pl_map_bucket_item(cm, self->id, i);
		double s = by_cap ? cap_of(pg, cm, c, depth + 1) :
			   pl_map_bucket_item_weight(cm, self->id, i);

		if (s > 0)
			v[k++] = (struct item){ .id = c, .size = s };
		total += s;
	}
	for (int i = 0; i < k; i++)
		v[i].size = v[i].size / total * self->w * self->h;
	squarify(v, k, self->x, self->y, self->w, self->h);
	put(b, "<g class=\"bucket\" data-type=\"");
	put_text(b, pl_map_type_name(cm, pl_map_bucket_type(cm, self->id)));
	put(b, "\" data-name=\"");
	put_text(b, pl_map_item_name(cm, self->id));
	put(b, "\" data-area=\"%.2f\">", self->w * self->h);
	for (int i = 0; i < k; i++) {
		if (v[i].id >= 0)
			tile(b, pg, pct, &v[i]);
		else if (depth < 12 && pl_map_bucket_exists(cm, v[i].id))
			bucket(b, pg, cm, by_cap, pct, &v[i], depth + 1);
	}
	put(b, "<rect class=\"frame\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
	       "height=\"%.2f\"/>",
	    self->x, self->y, self->w, self->h);
	if (depth > 0 && self->w > 40 && self->h > 14) {
		put(b, "<text class=\"label\" x=\"%.1f\" y=\"%.1f\">",
		    self->x + 3, self->y + self->h - 4);
		put_text(b, pl_map_item_name(cm, self->id));
		put(b, "</text>");
	}
	put(b, "</g>");
	free(v);
}

void rp_treemap(struct buf *b, const struct rp_page *pg, int by_capacity,
		const double *pct, const char *id, double w, double h)
{
	const pl_map *cm = cfs_osdmap_crush(pg->m);
	int maxb = pl_map_max_buckets(cm), k = 0;
	struct item *roots = calloc((size_t)maxb + 1, sizeof(*roots));
	double total = 0;

	if (!roots) {
		b->err = -ENOMEM;
		return;
	}
	for (int i = 0; i < maxb; i++) {
		int bid = -1 - i;
		double s;

		if (!pl_map_bucket_exists(cm, bid) ||
		    pl_map_bucket_is_shadow(cm, bid) || pl_map_parent(cm, bid))
			continue;
		s = by_capacity ? cap_of(pg, cm, bid, 0) :
				  pl_map_bucket_weight(cm, bid);
		if (s <= 0)
			continue;
		roots[k++] = (struct item){ .id = bid, .size = s };
		total += s;
	}
	for (int i = 0; i < k; i++)
		roots[i].size = roots[i].size / total * w * h;
	squarify(roots, k, 0, 0, w, h);
	put(b, "<svg class=\"treemap\" id=\"%s\" data-view=\"%s\" width=\"%.0f\""
	       " height=\"%.0f\" role=\"img\">",
	    id, by_capacity ? "capacity" : "weight", w, h);
	for (int i = 0; i < k; i++)
		bucket(b, pg, cm, by_capacity, pct, &roots[i], 0);
	put(b, "</svg>");
	free(roots);
}

/* the ramp's legend: 0 to full_ratio */
static void legend(struct buf *b, const struct rp_page *pg)
{
	char c[32];

	put(b, "<svg width=\"320\" height=\"26\" role=\"img\" class=\"ramp\">"
	       "<defs><linearGradient id=\"rampg\">");
	for (int i = 0; i <= 10; i++)
		put(b, "<stop offset=\"%d%%\" stop-color=\"%s\"/>", i * 10,
		    ramp(pg->full_pct * i / 10.0, pg->full_pct, c, sizeof(c)));
	put(b, "</linearGradient></defs><rect width=\"300\" height=\"10\" "
	       "fill=\"url(#rampg)\"/><text x=\"0\" y=\"23\" font-size=\"10\">"
	       "0%%</text><text x=\"270\" y=\"23\" font-size=\"10\">%.0f%% "
	       "full</text></svg>",
	    pg->full_pct);
}

/* an OSD of crush weight 0 has no area in the weight view: name it */
static void zero_weight(struct buf *b, const struct rp_page *pg)
{
	int n = 0;

	for (int i = 0; i < pg->n; i++) {
		if (!pg->osd[i].exists || pg->osd[i].weight)
			continue;
		if (n < RP_LIST_MAX)
			put(b, "%sosd.%d", n ? ", " : "<p class=\"legend\" "
			    "id=\"zero-weight\">crush weight 0, no tile in this "
			    "view: ", i);
		n++;
	}
	if (n > RP_LIST_MAX)
		put(b, " and %d more", n - RP_LIST_MAX);
	if (n)
		put(b, "</p>");
}

void rp_tree_section(struct buf *b, const struct rp_page *pg)
{
	/* about 900 px^2 a tile, within 1200 x 360..1400 */
	double W = 1200, H = pg->h->num_osds * 900.0 / W;

	H = H < 360 ? 360 : H > 1400 ? 1400 : H;
	put(b, "<section id=\"tree\"><h2>Crush tree: tiles sized by crush "
	       "weight or capacity, coloured by %%USE</h2>\n<p class=\"legend"
	       "\">");
	legend(b, pg);
	put(b, " grey: down; dashed white: out; thick outline: nearfull "
	       "(orange) or full (black); &#9888;: the crush weight does not "
	       "match the capacity</p>\n<div class=\"views\">"
	       "<input type=\"radio\" name=\"tmv\" id=\"tmv-w\" checked>"
	       "<label for=\"tmv-w\">by crush weight</label>"
	       "<input type=\"radio\" name=\"tmv\" id=\"tmv-c\">"
	       "<label for=\"tmv-c\">by capacity</label>\n<div class=\"tmv "
	       "tmv-w\">");
	rp_treemap(b, pg, 0, NULL, "treemap-weight", W, H);
	zero_weight(b, pg);
	put(b, "</div>\n<div class=\"tmv tmv-c\">");
	rp_treemap(b, pg, 1, NULL, "treemap-capacity", W, H);
	put(b, "</div></div></section>\n");
}
