/*
 * recovery_flags.c - what the osdmap flags norebalance, nobackfill and
 * norecover hold back of rebalance's work (rebalance.c asks, PG by PG),
 * as Ceph 16.2's OSDs check them before they reserve backfill or
 * recovery (PeeringState, OSD::do_recovery).
 */
#include <string.h>

#include "objlayer_i.h"
#include "objstore.h"
#include "osdmap.h"
#include "pgstate.h"
#include "placement.h"

/*
 * The osdmap flags that hold a PG's targets back, each target's flag in
 * deferred[] (0: go on), as Ceph's OSDs check them before they reserve
 * the work (16.2 PeeringState / OSD::do_recovery): nobackfill stops
 * backfill (a target that lacks the PG, or has not caught up on it),
 * norebalance stops the backfill of a PG that is not degraded (its
 * copies are only misplaced), norecover stops the recovery of objects a
 * holder missed.
 */
void ol_defer_targets(objlayer *ol, const cfs_osdmap *m, int64_t pool,
		      uint32_t ps, const int *tg, int ntg, uint32_t *deferred)
{
	uint32_t f = cfs_osdmap_flags(m);
	int degraded = -1;

	if (!(f & (CFS_OSDMAP_NOBACKFILL | CFS_OSDMAP_NOREBALANCE |
		   CFS_OSDMAP_NORECOVER)))
		return;
	for (int i = 0; i < ntg; i++) {
		int bf, work, holder, h[1];

		cfs_pg_lock(ol->c, pool, ps);
		holder = cfs_pg_is_holder(ol->c, pool, ps, tg[i]);
		bf = !holder || cfs_pg_is_backfill(ol->c, pool, ps, tg[i]);
		/* nothing to hold back: a complete holder, or a PG nobody
		 * holds yet */
		work = holder ? cfs_pg_missing_count(ol->c, pool, ps, tg[i]) > 0
			      : cfs_pg_holders(ol->c, pool, ps, h, 1) > 0;
		cfs_pg_unlock(ol->c, pool, ps);
		if (!work)
			continue;
		if (bf && (f & CFS_OSDMAP_NOBACKFILL)) {
			deferred[i] = CFS_OSDMAP_NOBACKFILL;
		} else if (bf && (f & CFS_OSDMAP_NOREBALANCE)) {
			if (degraded < 0) {
				struct ol_pg_stat s;

				degraded = ol_pg_stat(ol, m, pool, ps, &s) ||
					   s.degraded || s.unfound;
			}
			if (!degraded)
				deferred[i] = CFS_OSDMAP_NOREBALANCE;
		} else if (!bf && (f & CFS_OSDMAP_NORECOVER)) {
			deferred[i] = CFS_OSDMAP_NORECOVER;
		}
	}
}

/*
 * An erasure PG's shards are backfilled together (ec_backfill_pg): the
 * flag that holds the whole PG back, 0 when it may go on.  A shard whose
 * up OSD lacks it (or has not caught up) is backfill, one that missed
 * writes is recovery; norebalance holds the PG when it is not degraded.
 */
uint32_t ol_ec_held(objlayer *ol, int64_t pool, uint32_t ps)
{
	const cfs_osdmap *m = cfs_osdmap_get(ol->c);
	const struct cfs_pool_info *p = cfs_osdmap_pool_by_id(m, pool);
	const struct cfs_pg_mapping *pg = cfs_osdmap_pool_pg(m, pool, ps);
	uint32_t f = cfs_osdmap_flags(m), held = 0;
	int bf = 0, rec = 0;

	if (!p || !pg || !(f & (CFS_OSDMAP_NOBACKFILL |
				CFS_OSDMAP_NOREBALANCE |
				CFS_OSDMAP_NORECOVER))) {
		cfs_osdmap_put(m);
		return 0;
	}
	for (int i = 0; i < pg->nup && i < p->size; i++) {
		uint32_t sps = cfs_shard_ps(ps, p->size, i);
		int t = pg->up[i], h[1];

		if (t < 0 || t == PL_ITEM_NONE || t >= cfs_osdmap_max_osd(m) ||
		    !cfs_osdmap_is_up(m, t))
			continue;
		cfs_pg_lock(ol->c, pool, sps);
		if (!cfs_pg_is_holder(ol->c, pool, sps, t))
			bf |= cfs_pg_holders(ol->c, pool, sps, h, 1) > 0;
		else if (cfs_pg_missing_count(ol->c, pool, sps, t)) {
			if (cfs_pg_is_backfill(ol->c, pool, sps, t))
				bf = 1;
			else
				rec = 1;
		}
		cfs_pg_unlock(ol->c, pool, sps);
	}
	if (bf && (f & CFS_OSDMAP_NOBACKFILL)) {
		held = CFS_OSDMAP_NOBACKFILL;
	} else if (bf && (f & CFS_OSDMAP_NOREBALANCE)) {
		struct ol_pg_stat s;

		if (!ol_pg_stat(ol, m, pool, ps, &s) && !s.degraded &&
		    !s.unfound)
			held = CFS_OSDMAP_NOREBALANCE;
	} else if (rec && (f & CFS_OSDMAP_NORECOVER)) {
		held = CFS_OSDMAP_NORECOVER;
	}
	cfs_osdmap_put(m);
	return held;
}

/* a PG held back, counted under its first flag in get_flag_string's
 * order */
void ol_count_held(struct ol_rebalance_stats *st, uint32_t held)
{
	if (held & CFS_OSDMAP_NOBACKFILL)
		st->pgs_nobackfill++;
	else if (held & CFS_OSDMAP_NOREBALANCE)
		st->pgs_norebalance++;
	else if (held & CFS_OSDMAP_NORECOVER)
		st->pgs_norecover++;
}
