/*
 * osd_df.c - `osd df` and `osd df tree`: each OSD's row, each bucket's
 * sums, and the summary (OSDUtilizationDumper in Ceph 16.2
 * src/osd/OSDMap.cc), all from the snapshot's one read of the OSDs.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mgr.h"
#include "placement.h"

static int tree_push(struct mgr_tree *t, int id, int depth, uint32_t w)
{
	if (t->n == t->cap) {
		int nc = t->cap ? t->cap * 2 : 64;
		struct mgr_tree_item *nv =
			realloc(t->v, sizeof(*nv) * (size_t)nc);

		if (!nv)
			return -ENOMEM;
		t->v = nv;
		t->cap = nc;
	}
	t->v[t->n].id = id;
	t->v[t->n].depth = depth;
	t->v[t->n].weight = w;
	t->n++;
	return 0;
}

static int tree_dfs(const pl_map *cm, struct mgr_tree *t, int id, int depth,
		    uint32_t w)
{
	int r = tree_push(t, id, depth, w);

	/* crush maps are acyclic (the parser refuses loops); the depth
	 * bound only guards a damaged one */
	if (r || id >= 0 || depth > 32)
		return r;
	for (int i = 0; i < pl_map_bucket_size(cm, id) && !r; i++)
		r = tree_dfs(cm, t, pl_map_bucket_item(cm, id, i), depth + 1,
			     pl_map_bucket_item_weight(cm, id, i));
	return r;
}

int mgr_crush_tree(const pl_map *cm, struct mgr_tree *t)
{
	int r = 0;

	memset(t, 0, sizeof(*t));
	for (int pos = 0; pos < pl_map_max_buckets(cm) && !r; pos++) {
		int id = -1 - pos;

		/* shadow trees (default~hdd) are not the user's: osd tree
		 * does not show them */
		if (pl_map_bucket_exists(cm, id) && !pl_map_parent(cm, id) &&
		    !pl_map_bucket_is_shadow(cm, id))
			r = tree_dfs(cm, t, id, 0,
				     pl_map_bucket_weight(cm, id));
	}
	if (r)
		mgr_tree_free(t);
	return r;
}

int mgr_tree_has(const struct mgr_tree *t, int id)
{
	for (int i = 0; i < t->n; i++)
		if (t->v[i].id == id)
			return 1;
	return 0;
}

void mgr_tree_free(struct mgr_tree *t)
{
	free(t->v);
	memset(t, 0, sizeof(*t));
}

const char *mgr_fullness_name(int f)
{
	return f == CFS_FULLNESS_FULL		? "full"
	       : f == CFS_FULLNESS_BACKFILLFULL ? "backfillfull"
	       : f == CFS_FULLNESS_NEARFULL	? "nearfull"
					       : NULL;
}

static double w16(uint32_t w)
{
	return (double)((float)w / (float)0x10000);
}

/* PGs whose acting set holds each OSD, every pool's (PGMap's num_pg by
 * OSD), in one walk of the osdmap's PG table. */
static void count_pgs(const cfs_osdmap *m, int max, struct mgr_osd_row *osd)
{
	for (int p = 0; p < cfs_osdmap_npools(m); p++) {
		const struct cfs_pool_info *q = cfs_osdmap_pool_at(m, p);

		for (uint32_t ps = 0; ps < q->pg_num; ps++) {
			const struct cfs_pg_mapping *pg =
				cfs_osdmap_pool_pg(m, q->id, ps);

			for (int i = 0; pg && i < pg->nacting; i++)
				if (pg->acting[i] >= 0 && pg->acting[i] < max)
					osd[pg->acting[i]].pgs++;
		}
	}
}

static void sum_add(struct mgr_osd_row *s, const struct mgr_osd_row *r)
{
	s->size += r->size;
	s->used += r->used;
	s->avail += r->avail;
	s->data += r->data;
	s->omap += r->omap;
	s->meta += r->meta;
	s->objects += r->objects;
	s->pgs += r->pgs;
}

/* OSDs in crush tree order (each once), then the ones outside it. */
static void order_osds(const cfs_osdmap *m, struct mgr_osd_df *d, int max)
{
	for (int i = 0; i < d->tree.n; i++) {
		int id = d->tree.v[i].id, dup = 0;

		if (id < 0 || id >= max || !cfs_osdmap_exists(m, id))
			continue;
		for (int k = 0; k < d->n; k++)
			dup |= d->order[k] == id;
		if (!dup)
			d->order[d->n++] = id;
	}
	for (int id = 0; id < max; id++)
		if (cfs_osdmap_exists(m, id) && !mgr_tree_has(&d->tree, id))
			d->order[d->n++] = id;
}

/* The bucket rows of `osd df tree`: what follows each bucket in tree
 * order, deeper than it, summed; util and var of their own. */
static void tree_sums(struct mgr_osd_df *d, int max)
{
	for (int i = 0; i < d->tree.n; i++) {
		int id = d->tree.v[i].id, depth = d->tree.v[i].depth;
		struct mgr_osd_row *s = &d->node[i];

		if (id >= 0) {
			if (id < max && d->osd[id].o)
				*s = d->osd[id];
			s->id = id;
			continue;
		}
		s->id = id;
		for (int k = i + 1;
		     k < d->tree.n && d->tree.v[k].depth > depth; k++) {
			int o = d->tree.v[k].id;

			if (o >= 0 && o < max && d->osd[o].o)
				sum_add(s, &d->osd[o]);
		}
		s->util = s->size ? 100.0 * (double)s->used / (double)s->size
				  : 0;
		s->var = d->avg ? s->util / d->avg : 1.0;
	}
}

int mgr_osd_df_compute(const struct mgr_snap *s, struct mgr_osd_df *d)
{
	const cfs_osdmap *m = s->m;
	const pl_map *cm = cfs_osdmap_crush(m);
	int max = cfs_osdmap_max_osd(m), r;
	uint64_t in_kb = 0, in_used = 0;
	double wsum = 0;

	memset(d, 0, sizeof(*d));
	if (max > s->h.max_osd)
		max = s->h.max_osd;
	r = mgr_crush_tree(cm, &d->tree);
	if (r)
		return r;
	d->osd = calloc((size_t)max + 1, sizeof(*d->osd));
	d->order = calloc((size_t)max + 1, sizeof(*d->order));
	d->node = calloc((size_t)d->tree.n + 1, sizeof(*d->node));
	if (!d->osd || !d->order || !d->node) {
		mgr_osd_df_free(d);
		return -ENOMEM;
	}
	order_osds(m, d, max);
	count_pgs(m, max, d->osd);
	for (int k = 0; k < d->n; k++) {
		int id = d->order[k];
		struct mgr_osd_row *w = &d->osd[id];

		w->id = id;
		w->o = &s->h.osd[id];
		w->device_class = pl_map_item_class(cm, id);
		w->objects = w->o->objects;
		if (w->o->in) {
			w->size = w->o->info.capacity;
			w->used = w->o->used;
			w->avail = w->o->avail;
		}
		/* An OSD folder holds object files only: no omap (crushfs
		 * keeps object attributes in the files and the filesystem's
		 * metadata in the cluster's RocksDB, not on OSDs) and no
		 * BlueStore metadata, so DATA is all of RAW USE and OMAP and
		 * META are 0 (Ceph: used = data + omap + meta, osd_stat_t
		 * statfs).  An imported OSD's prefill (the live OSD's use,
		 * which had all three) cannot be split: it counts as DATA. */
		w->data = w->used;
		w->util = w->size ? 100.0 * (double)w->used / (double)w->size
				  : 0;
		if (w->o->info.reweight && w->o->info.capacity) {
			in_kb += w->o->info.capacity;
			in_used += w->o->used;
		}
	}
	/* OSDUtilizationDumper: the average over in OSDs; VAR relative to
	 * it; STDDEV weighted by reweight */
	d->avg = in_kb ? 100.0 * (double)in_used / (double)in_kb : 0;
	d->min_var = d->max_var = -1;
	for (int k = 0; k < d->n; k++) {
		struct mgr_osd_row *w = &d->osd[d->order[k]];
		double rw = w16(w->o->info.reweight), dv;

		w->var = !w->o->in ? 0 : d->avg ? w->util / d->avg : 1.0;
		if (rw > 0) {
			if (d->min_var < 0 || w->var < d->min_var)
				d->min_var = w->var;
			if (d->max_var < 0 || w->var > d->max_var)
				d->max_var = w->var;
			dv = w->util - d->avg;
			d->dev += rw * dv * dv;
			wsum += rw;
		}
	}
	d->dev = wsum > 0 ? sqrt(d->dev / wsum) : 0;
	d->total = s->h.total;
	d->used = s->h.used;
	d->avail = s->h.avail;
	d->objects = s->h.objects;
	tree_sums(d, max);
	return 0;
}

void mgr_osd_df_free(struct mgr_osd_df *d)
{
	mgr_tree_free(&d->tree);
	free(d->osd);
	free(d->order);
	free(d->node);
	memset(d, 0, sizeof(*d));
}
