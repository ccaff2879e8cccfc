/*
 * adjust_pgs.c - pg_num and pgp_num moving to their targets, as Ceph
 * 14+ does it (Nautilus made `osd pool set POOL pg_num|pgp_num N` set
 * pg_pool_t's pg_num_target / pgp_num_target; the mgr's
 * DaemonServer::adjust_pgs then walks the actual values there).
 *
 * crushfs has no mgr ticking in the background: `rebalance` (objlayer's
 * ol_rebalance) is its tick, between backfill passes.  This file holds
 * what the tick decides - cfs_pgp_next and cfs_pg_num_next, pure, after
 * Ceph 16.2's adjust_pgs - and the map changes it makes: the monitor's
 * side of `pg_num` when the change waits (cfs_pool_set_pg_num_target),
 * one `pgp_num_actual` step (cfs_pool_step_pgp_num), and the upmap
 * entries a merge clears (cfs_pool_merge_clear_upmaps).
 *
 * How far a pgp_num step goes (adjust_pgs, "adjust pgp_num?"): Ceph
 * assumes objects spread evenly over the PGs, so moving k of a pool's
 * pg_num placement seeds misplaces about k / pg_num of the data.  A step
 * may use what is left under target_max_misplaced_ratio, but never more
 * than half of that ratio (to bound the error of the estimate): at most
 * max(1, pg_num * min(max - misplaced, max / 2)) seeds, truncated.  No
 * step at all while PGs are inactive or degraded, or while the misplaced
 * ratio is over the target (the mgr waits for recovery); a pool holding
 * no more objects than pgp_num_target jumps straight to it (Ceph PR
 * 27875); and while pgp_num follows a merge, it keeps within max(8,
 * pg_num * max) of pg_num, so as not to pile unmerged PGs onto a few
 * OSDs (PR 27473).  Steps are not rounded to powers of two or any other
 * boundary: Ceph sends whatever integer this gives.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "osdsim_i.h"
#include "placement.h"

/* A non-negative double's integer part (C leaves converting a value the
 * type cannot hold undefined, and a ratio set to 1e300 must not crash). */
static uint32_t trunc_u32(double x)
{
	if (!(x > 0)) /* also NaN */
		return 0;
	if (x >= 4294967295.0)
		return UINT32_MAX;
	return (uint32_t)x;
}

enum cfs_pgp_verdict cfs_pgp_next(const struct cfs_pgp_adjust *a,
				  uint32_t *next)
{
	/* adjust_pgs aims at min(pg_num_pending, pgp_num_target); crushfs
	 * has no pg_num_pending apart from pg_num (a merge here is done in
	 * one map change, not announced an epoch before) */
	uint32_t target = a->pgp_num_target < a->pg_num ? a->pgp_num_target
							 : a->pg_num;
	uint32_t cur = a->pgp_num, est, lo, hi, n;
	double max = a->max_misplaced, room;

	/* (adjust_pgs also refuses an increase while pgp_num == pg_num:
	 * with the target at most pg_num, none is asked for here) */
	*next = cur;
	if (target == cur)
		return CFS_PGP_DONE;
	if (a->inactive_ratio > 0 || a->degraded_ratio > 0)
		return CFS_PGP_WAIT_UNHEALTHY;
	if (!(a->misplaced_ratio <= max)) /* NaN waits too */
		return CFS_PGP_WAIT_MISPLACED;
	/* an (almost) empty pool: at most one object per PG moves */
	if (target > cur && a->objects <= (uint64_t)a->pgp_num_target) {
		*next = target;
		return CFS_PGP_STEP;
	}
	room = max - a->misplaced_ratio;
	if (room > max / 2)
		room = max / 2;
	est = trunc_u32((double)a->pg_num * room);
	if (est < 1)
		est = 1;
	lo = cur > est ? cur - est : 0;
	hi = est > UINT32_MAX - cur ? UINT32_MAX : cur + est;
	n = target < lo ? lo : target > hi ? hi : target;
	if (a->pgp_num_target == a->pg_num_target &&
	    a->pgp_num_target < a->pg_num) {
		/* pgp_num follows a merge: not too far ahead of it */
		uint32_t ahead = trunc_u32((double)a->pg_num * max);

		if (ahead < 8)
			ahead = 8;
		if ((uint64_t)n + ahead < a->pg_num)
			n = a->pg_num - ahead;
	}
	*next = n;
	/* the mgr sends no step that changes nothing (PR 42105) */
	return n == cur ? CFS_PGP_WAIT_MERGE : CFS_PGP_STEP;
}

uint32_t cfs_pg_num_next(const struct cfs_pgp_adjust *a)
{
	uint32_t to;

	if (a->pg_num_target >= a->pg_num)
		return a->pg_num_target;
	/* adjust_pgs merges the last PG into its parent only while pgp_num
	 * is below pg_num ("decrease blocked by pgp_num"); every PG from
	 * pgp_num up can go, and crushfs takes them in one change */
	to = a->pgp_num > a->pg_num_target ? a->pgp_num : a->pg_num_target;
	return to < a->pg_num ? to : a->pg_num;
}

const char *cfs_pgp_verdict_str(enum cfs_pgp_verdict v)
{
	switch (v) {
	case CFS_PGP_DONE:
		return "at its target";
	case CFS_PGP_STEP:
		return "stepping";
	case CFS_PGP_WAIT_UNHEALTHY:
		return "waiting: inactive or degraded PGs";
	case CFS_PGP_WAIT_MISPLACED:
		return "waiting: misplaced objects over "
		       "target_max_misplaced_ratio";
	case CFS_PGP_WAIT_MERGE:
		return "waiting for the merges to catch up";
	}
	return "?";
}

/* ---- the map changes ---- */

int cfs_pool_set_pg_num_target(cfs_cluster *c, int64_t pool, uint32_t pg_num,
			       char *why, size_t whylen)
{
	struct cfs_osdmap *n;
	struct cfs_pool_info *p;
	struct pool_ovr o;
	int r;

	/* OSDMonitor: 'pg_num' must be greater than 0 and at most
	 * mon_max_pool_pg_num (65536) */
	if (pg_num == 0 || pg_num > 65536) {
		snprintf(why, whylen, "'pg_num' must be greater than 0 and "
			 "less than or equal to 65536");
		return -ERANGE;
	}
	r = osdmap_update_begin(c, &n);
	if (r)
		return r;
	if (pool_ovr(n, pool, &o)) {
		osdmap_update_abort(c, n);
		return -ENOENT;
	}
	p = (struct cfs_pool_info *)o.info; /* n is this change's own copy */
	if (p->pg_num_target == pg_num) {
		/* nothing to change (Ceph: "n == pg_num_target: return
		 * 0"); -EALREADY when nothing is under way either */
		r = p->pg_num == pg_num ? -EALREADY : 0;
		osdmap_update_abort(c, n); /* p goes with n */
		return r;
	}
	/* "make pgp_num track pg_num if it already matches; if it is set
	 * differently, leave it different and let the user control it"
	 * (prepare_command_pool_set) */
	if (p->pg_num_target == p->pgp_num_target)
		p->pgp_num_target = pg_num;
	p->pg_num_target = pg_num;
	return osdmap_update_commit(c, n);
}

int cfs_pool_step_pgp_num(cfs_cluster *c, int64_t pool, uint32_t expect,
			  uint32_t v, char *why, size_t whylen)
{
	struct cfs_osdmap *n;
	struct cfs_pool_info *p;
	struct pool_ovr o;
	int r = osdmap_update_begin(c, &n);

	if (r)
		return r;
	if (pool_ovr(n, pool, &o)) {
		osdmap_update_abort(c, n);
		return -ENOENT;
	}
	p = (struct cfs_pool_info *)o.info;
	if (p->pgp_num != expect) {
		osdmap_update_abort(c, n);
		return -EAGAIN; /* a command moved it: decide again */
	}
	/* the monitor's checks of `pgp_num_actual` */
	if (v == 0 || v > p->pg_num) {
		snprintf(why, whylen, "specified pgp_num %u > pg_num %u", v,
			 p->pg_num);
		osdmap_update_abort(c, n);
		return -EINVAL;
	}
	if (v == p->pgp_num) {
		osdmap_update_abort(c, n);
		return -EALREADY;
	}
	p->pgp_num = v;
	return osdmap_update_commit(c, n);
}

int cfs_pool_merge_clear_upmaps(cfs_cluster *c, int64_t pool, uint32_t to)
{
	struct cfs_osdmap *n;
	struct pool_ovr o;
	int r = osdmap_update_begin(c, &n), gone = 0;

	if (r)
		return r;
	if (pool_ovr(n, pool, &o)) {
		osdmap_update_abort(c, n);
		return -ENOENT;
	}
	/* every source (ps >= to) and the target it joins */
	for (int i = 0; i < *o.nupmaps; i++) {
		struct cfs_pg_upmap *u = &(*o.upmaps)[i];
		int joins = u->ps >= to;

		for (uint32_t q = to; !joins && q < o.info->pg_num; q++)
			joins = pl_pg_seed(q, to) == u->ps;
		if (joins && (u->n || u->nitems)) {
			u->n = u->nitems = 0;
			gone++;
		}
	}
	if (!gone) {
		osdmap_update_abort(c, n);
		return 0;
	}
	upmap_compact_ovr(&o);
	r = osdmap_update_commit(c, n);
	return r ? r : gone;
}
