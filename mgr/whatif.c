/*
 * whatif.c - what a placement change would move (mgr.h): the map
 * now against the map a command would install (osdsim's dry run).
 * "Before" is the acting set (where the data is now, a pg_temp included),
 * "after" the new map's up set (where backfill takes it: the acting set
 * once the pg_temp goes).  Each PG's objects move once per OSD that joins
 * its acting set; the primary now sends them (Ceph's backfill: the primary
 * pushes to each backfill target, PrimaryLogPG::recover_backfill, 16.2).
 * The move counts are what `rebalance` then copies.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mgr.h"
#include "objlayer.h"
#include "osdmap.h"
#include "usage.h"
#include "util.h"

static const char *crossing(const cfs_osdmap *m, int osd, uint64_t before,
			    uint64_t after)
{
	if (after >= cfs_osdmap_full_limit(m, osd) &&
	    before < cfs_osdmap_full_limit(m, osd))
		return "full";
	if (after >= cfs_osdmap_backfillfull_limit(m, osd) &&
	    before < cfs_osdmap_backfillfull_limit(m, osd))
		return "backfillfull";
	if (after >= cfs_osdmap_nearfull_limit(m, osd) &&
	    before < cfs_osdmap_nearfull_limit(m, osd))
		return "nearfull";
	return NULL;
}

static int valid(const struct mgr_whatif *w, int osd)
{
	return osd >= 0 && osd < w->max_osd;
}

/* One PG that changes: its moves into the OSDs' tallies, and into g
 * (the data pool's list) unless NULL. */
static void move_pg(struct mgr_whatif *w, const struct cfs_pg_mapping *o,
		    const struct cfs_pg_mapping *n, const struct ol_pg_stat *st,
		    struct mgr_whatif_pg *g)
{
	int src = -1;

	/* the sender: the acting primary now */
	for (int i = 0; i < o->nacting && src < 0; i++)
		if (valid(w, o->acting[i]))
			src = o->acting[i];
	for (int i = 0; i < n->nup; i++) {
		int d = n->up[i];

		if (!valid(w, d) || cfs_in_set(o->acting, o->nacting, d))
			continue;
		w->osd[d].after += st->bytes;
		w->osd[d].bytes_in += st->bytes;
		if (src >= 0)
			w->osd[src].bytes_out += st->bytes;
	}
	for (int i = 0; i < o->nacting; i++) {
		int s = o->acting[i];

		if (!valid(w, s) || cfs_in_set(n->up, n->nup, s))
			continue;
		w->osd[s].after -= st->bytes < w->osd[s].after ?
					   st->bytes : w->osd[s].after;
	}
	if (!g)
		return;
	memcpy(g->pgid, st->pgid, sizeof(g->pgid));
	g->nbefore = o->nacting < 16 ? o->nacting : 16;
	memcpy(g->before, o->acting, sizeof(int) * (size_t)g->nbefore);
	g->nafter = n->nup < 16 ? n->nup : 16;
	memcpy(g->after, n->up, sizeof(int) * (size_t)g->nafter);
	g->objects = st->objects;
	g->bytes = st->bytes;
}

/*
 * Every PG of pool p (id in both maps) whose acting set changes: its
 * moves into the tallies; the data pool's PGs listed in w->pgs, the
 * others counted in o.  A pool new in the map moves nothing.
 */
static int pool_moves(struct mgr_whatif *w, objlayer *ol,
		      const cfs_osdmap *old, const cfs_osdmap *new,
		      const struct cfs_pool_info *p, struct mgr_whatif_pool *o)
{
	const struct cfs_pool_info *op = cfs_osdmap_pool_by_id(old, p->id);

	for (uint32_t ps = 0; op && ps < p->pg_num && ps < op->pg_num; ps++) {
		const struct cfs_pg_mapping *a =
			cfs_osdmap_pool_pg(old, p->id, ps);
		const struct cfs_pg_mapping *b =
			cfs_osdmap_pool_pg(new, p->id, ps);
		struct ol_pg_stat st;
		int joins = 0, moved = 0, r;

		if (!a || !b)
			continue;
		for (int i = 0; i < b->nup; i++)
			joins += !cfs_in_set(a->acting, a->nacting, b->up[i]);
		for (int i = 0; i < a->nacting; i++)
			moved |= !cfs_in_set(b->up, b->nup, a->acting[i]);
		if (!joins && !moved && a->nacting == b->nup)
			continue;
		r = ol_pg_stat(ol, old, p->id, ps, &st);
		if (r && o) { /* another pool's PG: counted, not read */
			o->pgs_changed++;
			continue;
		}
		if (r)
			return r;
		if (o) {
			o->pgs_changed++;
			o->copies += st.objects * (uint64_t)joins;
			o->bytes += st.bytes * (uint64_t)joins;
			move_pg(w, a, b, &st, NULL);
		} else {
			w->copies += st.objects * (uint64_t)joins;
			w->bytes += st.bytes * (uint64_t)joins;
			move_pg(w, a, b, &st, &w->pgs[w->pgs_changed++]);
		}
	}
	return 0;
}

/* Fills first by the PG mapping for the data pool of map m with use u. */
static uint64_t pg_first(const cfs_osdmap *m, int max, const uint64_t *u,
			 int *first)
{
	const struct cfs_pool_info *p = cfs_osdmap_pool(m);
	int n = cfs_osdmap_max_osd(m);
	double *share = calloc((size_t)max + 1, sizeof(double));
	uint64_t *lim = calloc((size_t)max + 1, sizeof(uint64_t)), r = 0;
	const char *ks = p->erasure ?
		cfs_ec_profile_get(m, p->ec_profile, "k") : NULL;
	int k = ks && atoi(ks) > 0 ? atoi(ks) : 1;

	*first = -1;
	if (share && lim && p->pg_num) {
		for (uint32_t ps = 0; ps < p->pg_num; ps++) {
			const struct cfs_pg_mapping *g = cfs_osdmap_pg(m, ps);

			for (int i = 0; i < g->nup; i++)
				if (g->up[i] >= 0 && g->up[i] < n)
					share[g->up[i]] += 1.0 / p->pg_num / k;
		}
		for (int i = 0; i < n; i++)
			lim[i] = cfs_osdmap_exists(m, i) ?
				cfs_osdmap_full_limit(m, i) : 0;
		r = mgr_writable_by_share(n, share, u, lim, first);
	}
	free(share);
	free(lim);
	return r;
}

int mgr_whatif_compute(cfs_cluster *c, objlayer *ol, const cfs_osdmap *old,
		       const cfs_osdmap *new, struct mgr_whatif *w)
{
	const struct cfs_pool_info *p = cfs_osdmap_pool(old);
	int mo = cfs_osdmap_max_osd(old), mn = cfs_osdmap_max_osd(new), r = 0;
	uint64_t *before = NULL, *after = NULL;

	memset(w, 0, sizeof(*w));
	w->max_osd = mn > mo ? mn : mo;
	w->pg_num = p->pg_num;
	w->busiest = -1;
	w->osd = calloc((size_t)w->max_osd + 1, sizeof(*w->osd));
	w->pgs = calloc((size_t)p->pg_num + 1, sizeof(*w->pgs));
	before = calloc((size_t)w->max_osd + 1, sizeof(uint64_t));
	after = calloc((size_t)w->max_osd + 1, sizeof(uint64_t));
	if (!w->osd || !w->pgs || !before || !after) {
		r = -ENOMEM;
		goto out;
	}
	for (int osd = 0; osd < w->max_osd; osd++) {
		struct cfs_osd_usage u = { 0, 0 };

		if (osd < mo && cfs_osdmap_exists(old, osd))
			cfs_osd_usage(c, osd, &u);
		w->osd[osd].before = w->osd[osd].after = u.used;
	}
	r = pool_moves(w, ol, old, new, p, NULL);
	w->others = calloc((size_t)cfs_osdmap_npools(new) + 1,
			   sizeof(*w->others));
	if (!r && !w->others)
		r = -ENOMEM;
	for (int i = 0; !r && i < cfs_osdmap_npools(new); i++) {
		const struct cfs_pool_info *q = cfs_osdmap_pool_at(new, i);
		struct mgr_whatif_pool *o;

		if (q->id == p->id)
			continue;
		o = &w->others[w->nothers++];
		o->pool = q;
		r = pool_moves(w, ol, old, new, q, o);
	}
	if (r)
		goto out;
	for (int osd = 0; osd < w->max_osd; osd++) {
		struct mgr_whatif_osd *x = &w->osd[osd];
		struct cfs_osd_info oi = { 0 };
		uint64_t busy = x->bytes_in > x->bytes_out ? x->bytes_in :
							     x->bytes_out;

		before[osd] = x->before;
		after[osd] = x->after;
		if (busy > w->busiest_bytes) {
			w->busiest_bytes = busy;
			w->busiest = osd;
		}
		if (osd >= mn || cfs_osdmap_osd(new, osd, &oi) || !oi.exists)
			continue;
		x->exists = 1;
		x->capacity = oi.capacity;
		x->crosses = crossing(new, osd, x->before, x->after);
		w->ncross += x->crosses != NULL;
	}
	w->avail_before = cfs_pool_max_avail_with(old, before,
						  &w->first_before);
	w->avail_after = cfs_pool_max_avail_with(new, after, &w->first_after);
	w->pg_full_before = pg_first(old, w->max_osd, before,
				     &w->pg_first_before);
	w->pg_full_after = pg_first(new, w->max_osd, after,
				    &w->pg_first_after);
out:
	free(before);
	free(after);
	if (r)
		mgr_whatif_free(w);
	return r;
}

void mgr_whatif_free(struct mgr_whatif *w)
{
	free(w->osd);
	free(w->pgs);
	free(w->others);
	memset(w, 0, sizeof(*w));
}

double mgr_backfill_seconds(const struct mgr_whatif *w, uint64_t rate,
			    int max_backfills)
{
	double per_osd = (double)(rate ? rate : 1) *
			 (max_backfills > 0 ? max_backfills : 1);

	return (double)w->busiest_bytes / per_osd;
}
