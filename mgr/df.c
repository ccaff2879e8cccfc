/*
 * df.c - `ceph df`'s figures: the raw totals and one row per pool
 * (PGMapDigest::dump_pool_stats_full and dump_object_stat_sum, Ceph 16.2
 * src/mon/PGMap.cc).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mgr.h"
#include "placement.h"

/* MAX AVAIL of every pool but the data pool (index as
 * cfs_osdmap_pool_at), from the snapshot's one read of each OSD's use. */
static int pools_avail(const struct mgr_snap *s, uint64_t *out)
{
	const cfs_osdmap *m = s->m;
	int n = cfs_osdmap_max_osd(m);
	uint64_t *used = calloc((size_t)n + 1, sizeof(*used));

	if (!used)
		return -ENOMEM;
	for (int o = 0; o < n && o < s->h.max_osd; o++)
		if (s->h.osd[o].info.exists)
			used[o] = s->h.osd[o].used;
	for (int i = 0; i < cfs_osdmap_npools(m); i++)
		out[i] = cfs_pool_max_avail_for(m, cfs_osdmap_pool_at(m, i),
						used);
	free(used);
	return 0;
}

/* PGMapDigest's osd_sum_by_class: the in OSDs' figures summed per device
 * class, as the snapshot totals them. */
static void by_class(const struct mgr_snap *s, struct mgr_df *df)
{
	const pl_map *cm = cfs_osdmap_crush(s->m);

	for (int id = 0; id < s->h.max_osd; id++) {
		const struct cfs_osd_snap *o = &s->h.osd[id];
		const char *cls = pl_map_item_class(cm, id);
		struct mgr_df_class *c = NULL;

		if (!o->info.exists || !o->in || !cls)
			continue;
		for (int k = 0; k < df->nclasses && !c; k++)
			if (!strcmp(df->classes[k].name, cls))
				c = &df->classes[k];
		if (!c) {
			if (df->nclasses == MGR_DF_MAX_CLASSES)
				continue;
			c = &df->classes[df->nclasses++];
			snprintf(c->name, sizeof(c->name), "%s", cls);
		}
		c->total += o->info.capacity;
		c->used += o->used;
	}
	for (int k = 0; k < df->nclasses; k++) {
		struct mgr_df_class *c = &df->classes[k];

		c->avail = c->total > c->used ? c->total - c->used : 0;
		c->used_ratio = c->total ? (double)c->used / (double)c->total
					 : 0;
	}
}

/*
 * STORED and OBJECTS from the pool's PGs; USED its copies' raw bytes (the
 * data pool: what its rule's OSDs hold, other pools' objects not
 * counted, as the health snapshot measured it); %USED used / (used +
 * MAX AVAIL * raw rate), as dump_object_stat_sum divides.
 */
int mgr_df_compute(const struct mgr_snap *s, struct mgr_df *df)
{
	const cfs_osdmap *m = s->m;
	const struct cfs_pool_info *data = cfs_osdmap_pool(m);
	int np = cfs_osdmap_npools(m), r;
	uint64_t *avail;

	memset(df, 0, sizeof(*df));
	df->total = s->h.total;
	df->used = s->h.used;
	df->avail = s->h.raw_avail;
	df->used_ratio = s->h.total ? (double)s->h.used / (double)s->h.total
				    : 0;
	df->pools = calloc((size_t)np + 1, sizeof(*df->pools));
	avail = calloc((size_t)np + 1, sizeof(*avail));
	if (!df->pools || !avail) {
		free(avail);
		mgr_df_free(df);
		return -ENOMEM;
	}
	r = pools_avail(s, avail);
	if (r) {
		free(avail);
		mgr_df_free(df);
		return r;
	}
	df->npools = np;
	by_class(s, df);
	for (int i = 0; i < np; i++) {
		const struct cfs_pool_info *q = cfs_osdmap_pool_at(m, i);
		struct mgr_pool_df *w = &df->pools[i];
		uint32_t n;
		const struct ol_pg_stat *pg = mgr_snap_pool_pgs(s, q->id, &n);
		uint64_t raw_max;

		w->pool = q;
		for (uint32_t ps = 0; pg && ps < n; ps++) {
			w->stored += pg[ps].bytes;
			w->objects += pg[ps].objects;
			w->degraded += pg[ps].degraded;
			w->misplaced += pg[ps].misplaced;
			w->unfound += pg[ps].unfound;
		}
		/* the bytes of its own objects' copies on every OSD: an
		 * imported cluster's prefill (the live cluster's use, no
		 * object of crushfs's) is RAW USED, no pool's USED, as
		 * STORED counts no prefill either */
		for (int o = 0; o < cfs_osdmap_max_osd(m); o++) {
			struct cfs_osd_usage u;

			if (!cfs_osdmap_exists(m, o))
				continue;
			cfs_osd_pool_usage(s->c, o, q->id, &u);
			w->used += u.used;
		}
		w->max_avail = q == data ? s->h.max_avail : avail[i];
		/* crushfs has no cache tiers: every object is "dirty" as
		 * Ceph counts a base pool's (num_objects_dirty) */
		w->dirty = w->objects;
		/* PGMap::dump_object_stat_sum: the pool's raw used rate */
		w->raw_rate = q->size;
		if (q->erasure) {
			const char *k = cfs_ec_profile_get(m, q->ec_profile,
							   "k");
			int kk = k ? atoi(k) : 0;

			if (kk > 0 && kk <= q->size)
				w->raw_rate = (double)q->size / kk;
		}
		raw_max = (uint64_t)((double)w->max_avail * w->raw_rate);
		w->percent_used = w->used + raw_max
				  ? (double)w->used /
					    (double)(w->used + raw_max)
				  : 0;
	}
	free(avail);
	return 0;
}

void mgr_df_free(struct mgr_df *df)
{
	free(df->pools);
	memset(df, 0, sizeof(*df));
}
