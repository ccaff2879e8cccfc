/*
 * analysis.c - every pool's fill and the OSD that fills it first by the
 * real PG mapping (mgr.h): the PG positions each OSD holds in
 * each pool's acting sets, against what the crush weights predict
 * (cfs_osdmap_pg_spread, OSDMap::get_osds_weight's reasoning), turned into
 * bytes writable before nearfull and full.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mgr.h"
#include "osdmap.h"
#include "upmap.h"
#include "usage.h"

uint64_t mgr_writable_by_share(int n, const double *share,
			       const uint64_t *used, const uint64_t *limit,
			       int *first)
{
	double best = -1;

	*first = -1;
	for (int i = 0; i < n; i++) {
		double room, w;

		if (share[i] <= 0)
			continue;
		room = limit[i] > used[i] ? (double)(limit[i] - used[i]) : 0;
		w = room / share[i];
		/* ties: the lower id, as Ceph's loops over OSDs find it */
		if (best < 0 || w < best) {
			best = w;
			*first = i;
		}
	}
	return best < 0 ? 0 : (uint64_t)best;
}

/* data shards of a pool: k of an erasure profile, 1 replicated */
static int pool_k(const cfs_osdmap *m, const struct cfs_pool_info *p)
{
	const char *k;
	int kk;

	if (!p->erasure)
		return 1;
	k = cfs_ec_profile_get(m, p->ec_profile, "k");
	kk = k ? atoi(k) : 0;
	return kk > 0 && kk <= p->size ? kk : 1;
}

/* One pool: PG positions, prediction, usage, room both ways. */
static int pool_fill(const struct mgr_snap *s, const struct cfs_pool_info *p,
		     const uint64_t *used, const uint64_t *lim_near,
		     const uint64_t *lim_full, double *share,
		     struct mgr_pool_fill *f)
{
	const cfs_osdmap *m = s->m;
	int n = cfs_osdmap_max_osd(m), r;

	f->pool = p;
	f->shares = p->size;
	f->k = pool_k(m, p);
	f->pgs = calloc((size_t)n + 1, sizeof(int));
	f->up_pgs = calloc((size_t)n + 1, sizeof(int));
	f->expected = calloc((size_t)n + 1, sizeof(float));
	if (!f->pgs || !f->up_pgs || !f->expected)
		return -ENOMEM;
	r = cfs_osdmap_pg_spread(m, p->id, f->up_pgs, f->expected);
	if (r)
		return r;
	for (uint32_t ps = 0; ps < p->pg_num; ps++) {
		const struct cfs_pg_mapping *g = cfs_osdmap_pool_pg(m, p->id,
								    ps);

		/* an erasure hole is CRUSH_ITEM_NONE, out of range here */
		for (int k = 0; g && k < g->nacting; k++)
			if (g->acting[k] >= 0 && g->acting[k] < n)
				f->pgs[g->acting[k]]++;
	}
	for (int i = 0; i < n; i++) {
		struct cfs_osd_usage u = { 0, 0 };

		if (cfs_osdmap_exists(m, i))
			cfs_osd_pool_usage(s->c, i, p->id, &u);
		f->raw_used += u.used;
		f->objects += u.objects;
		/* raw bytes landing on i per stored byte written */
		share[i] = p->pg_num ? (double)f->pgs[i] / p->pg_num / f->k : 0;
	}
	/* `df`'s MAX AVAIL: the data pool's is the snapshot's (disk-capped,
	 * as statfs says it), the others' their rule's room (cmd_status.c) */
	if (p == cfs_osdmap_pool(m)) {
		f->max_avail = s->h.max_avail;
		cfs_pool_max_avail_with(m, used, &f->weight_first);
	} else {
		f->max_avail = cfs_pool_max_avail_for(m, p, used);
		f->weight_first = -1;
	}
	f->before_nearfull = mgr_writable_by_share(n, share, used, lim_near,
						   &f->nearfull_first);
	f->before_full = mgr_writable_by_share(n, share, used, lim_full,
					       &f->fills_first);
	return 0;
}

int mgr_analysis_take(const struct mgr_snap *s, struct mgr_analysis *a)
{
	const cfs_osdmap *m = s->m;
	const struct cfs_health *h = &s->h;
	int n = cfs_osdmap_max_osd(m), r = -ENOMEM;
	uint64_t *used = calloc((size_t)n + 1, sizeof(uint64_t));
	uint64_t *ln = calloc((size_t)n + 1, sizeof(uint64_t));
	uint64_t *lf = calloc((size_t)n + 1, sizeof(uint64_t));
	double *share = calloc((size_t)n + 1, sizeof(double));

	memset(a, 0, sizeof(*a));
	a->max_osd = n;
	a->npools = cfs_osdmap_npools(m);
	a->pools = calloc((size_t)a->npools + 1, sizeof(*a->pools));
	a->pgs = calloc((size_t)n + 1, sizeof(int));
	a->expected = calloc((size_t)n + 1, sizeof(float));
	if (!used || !ln || !lf || !share || !a->pools || !a->pgs ||
	    !a->expected)
		goto out;
	for (int i = 0; i < n; i++) {
		used[i] = i < h->max_osd ? h->osd[i].used : 0;
		/* an out or missing OSD holds no acting position: its limit
		 * never matters */
		if (cfs_osdmap_exists(m, i)) {
			ln[i] = cfs_osdmap_nearfull_limit(m, i);
			lf[i] = cfs_osdmap_full_limit(m, i);
		}
	}
	for (int k = 0; k < a->npools; k++) {
		struct mgr_pool_fill *f = &a->pools[k];

		r = pool_fill(s, cfs_osdmap_pool_at(m, k), used, ln, lf, share,
			      f);
		if (r)
			goto out;
		for (int i = 0; i < n; i++) {
			a->pgs[i] += f->up_pgs[i];
			a->expected[i] += f->expected[i];
		}
	}
	r = 0;
out:
	free(used);
	free(ln);
	free(lf);
	free(share);
	if (r)
		mgr_analysis_free(a);
	return r;
}

void mgr_analysis_free(struct mgr_analysis *a)
{
	for (int k = 0; a->pools && k < a->npools; k++) {
		free(a->pools[k].pgs);
		free(a->pools[k].up_pgs);
		free(a->pools[k].expected);
	}
	free(a->pools);
	free(a->pgs);
	free(a->expected);
	memset(a, 0, sizeof(*a));
}

/* qsort has no context argument: the analysis rides in the keys */
struct okey {
	int osd;
	double over; /* PGs over expected, relative */
};

static int by_over(const void *x, const void *y)
{
	const struct okey *a = x, *b = y;

	if (a->over != b->over)
		return a->over < b->over ? 1 : -1;
	return a->osd - b->osd;
}

int mgr_outliers(const struct mgr_analysis *a, int *out, int max)
{
	struct okey *k = calloc((size_t)a->max_osd + 1, sizeof(*k));
	int n = 0;

	if (!k)
		return 0;
	for (int i = 0; i < a->max_osd; i++) {
		if (a->expected[i] <= 0 && !a->pgs[i])
			continue;
		k[n].osd = i;
		/* no weight but PGs (an upmap to it): over by all of them */
		k[n].over = a->expected[i] > 0 ?
			(a->pgs[i] - a->expected[i]) / a->expected[i] :
			(double)a->pgs[i];
		n++;
	}
	qsort(k, (size_t)n, sizeof(*k), by_over);
	for (int i = 0; i < n && i < max; i++)
		out[i] = k[i].osd;
	free(k);
	return n < max ? n : max;
}
