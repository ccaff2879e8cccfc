/*
 * snap.c - the snapshot every mgr/ answer is computed from: one osdmap
 * reference, one read of every PG, one health snapshot (Ceph's mgr keeps
 * one PGMap and answers `status`, `df`, `pg stat` from it: PGMapDigest in
 * src/mon/PGMap.cc, Ceph 16.2).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mgr.h"

/* Every pool's PGs, the data pool first (osdsim's order). */
static int gather(objlayer *ol, struct mgr_snap *s)
{
	const cfs_osdmap *m = s->m;
	uint32_t k = 0;

	for (int i = 0; i < cfs_osdmap_npools(m); i++)
		s->npg += cfs_osdmap_pool_at(m, i)->pg_num;
	s->pg = calloc(s->npg + 1, sizeof(*s->pg));
	if (!s->pg)
		return -ENOMEM;
	for (int i = 0; i < cfs_osdmap_npools(m); i++) {
		const struct cfs_pool_info *q = cfs_osdmap_pool_at(m, i);
		int r = ol_pool_pg_stats(ol, m, q->id, &s->pg[k]);

		if (r)
			return r;
		for (uint32_t ps = 0; ps < q->pg_num; ps++, k++) {
			const struct ol_pg_stat *g = &s->pg[k];

			s->t.objects += g->objects;
			s->t.copies += g->objects * (uint64_t)q->size;
			s->bytes += g->bytes;
			s->t.degraded += g->degraded;
			s->t.misplaced += g->misplaced;
			s->t.unfound += g->unfound;
			s->t.scrub_errors += g->scrub_errors;
		}
	}
	return 0;
}

/* What osdsim's PG checks need of each PG, from the states objlayer
 * gave (osdsim cannot include objlayer.h). */
static int take_health(struct mgr_snap *s, int with_pgs)
{
	struct cfs_pg_health *ph;
	int r;

	if (!with_pgs)
		return cfs_health_take(s->c, s->m, NULL, 0, NULL, &s->h);
	ph = calloc(s->npg + 1, sizeof(*ph));
	if (!ph)
		return -ENOMEM;
	for (uint32_t i = 0; i < s->npg; i++) {
		const struct ol_pg_stat *g = &s->pg[i];
		unsigned f = g->state;

		snprintf(ph[i].pgid, sizeof(ph[i].pgid), "%s", g->pgid);
		ol_pg_state_str(f, ph[i].state, sizeof(ph[i].state));
		ph[i].flags =
			(f & OL_PGS_ACTIVE ? 0 : CFS_PGH_INACTIVE) |
			(f & OL_PGS_DOWN ? CFS_PGH_DOWN : 0) |
			(f & OL_PGS_DEGRADED ? CFS_PGH_DEGRADED : 0) |
			(f & OL_PGS_UNDERSIZED ? CFS_PGH_UNDERSIZED : 0) |
			(f & OL_PGS_BACKFILL_TOOFULL ? CFS_PGH_BACKFILL_TOOFULL
						     : 0) |
			(f & OL_PGS_INCONSISTENT ? CFS_PGH_INCONSISTENT : 0);
		ph[i].nacting = g->nacting;
		memcpy(ph[i].acting, g->acting,
		       sizeof(int) * (size_t)g->nacting);
	}
	r = cfs_health_take(s->c, s->m, ph, s->npg, &s->t, &s->h);
	free(ph);
	return r;
}

int mgr_snap_take(cfs_cluster *c, objlayer *ol, unsigned flags,
		  struct mgr_snap *s)
{
	int r = 0;

	memset(s, 0, sizeof(*s));
	if ((flags & MGR_SNAP_PG_HEALTH) && !(flags & MGR_SNAP_PGS))
		return -EINVAL;
	if ((flags & MGR_SNAP_PGS) && !ol)
		return -EINVAL;
	s->c = c;
	s->m = cfs_osdmap_get(c);
	cfs_osdmap_pg_temps(s->m, &s->ntemp);
	if (flags & MGR_SNAP_PGS)
		r = gather(ol, s);
	if (!r)
		r = take_health(s, !!(flags & MGR_SNAP_PG_HEALTH));
	if (r) {
		free(s->pg);
		cfs_osdmap_put(s->m);
		memset(s, 0, sizeof(*s));
	}
	return r;
}

void mgr_snap_free(struct mgr_snap *s)
{
	if (!s->m)
		return;
	cfs_health_free(&s->h);
	free(s->pg);
	cfs_osdmap_put(s->m);
	memset(s, 0, sizeof(*s));
}

const struct ol_pg_stat *mgr_snap_pool_pgs(const struct mgr_snap *s,
					   int64_t pool, uint32_t *n)
{
	uint32_t k = 0;

	*n = 0;
	if (!s->pg)
		return NULL;
	for (int i = 0; i < cfs_osdmap_npools(s->m); i++) {
		const struct cfs_pool_info *q = cfs_osdmap_pool_at(s->m, i);

		if (q->id == pool) {
			*n = q->pg_num;
			return &s->pg[k];
		}
		k += q->pg_num;
	}
	return NULL;
}
