/*
 * adjust.c - `crushfs rebalance` as a whole: a backfill pass
 * (rebalance.c), then what Ceph's mgr does on each tick of
 * DaemonServer::adjust_pgs (16.2), then a backfill pass after each
 * change it made, until nothing is left to do.
 *
 * Since Nautilus `osd pool set POOL pg_num|pgp_num N` only sets the
 * pool's targets; the mgr moves pg_num and pgp_num there: a split at
 * once, a merge once pgp_num is below the PGs that go, pgp_num in steps
 * small enough that the misplaced share stays under
 * target_max_misplaced_ratio (osdsim adjust_pgs.c decides).  crushfs
 * has no mgr running beside the data: this is its tick, and its
 * recovery waits for each step to be backfilled completely before the
 * next (Ceph steps again as soon as the misplaced ratio is back under
 * the target; crushfs, with no recovery running in the background,
 * finishes each one).  A step is never left half moved: the loop ends
 * after a backfill pass, and it says which pool is short of its
 * targets and why (waiting for degraded PGs, a merge whose PGs are not
 * clean, the round limit) rather than returning as if done.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster.h"
#include "objlayer_i.h"
#include "osdmap.h"
#include "usage.h"
#include "util.h"

/* Steps of one rebalance at most.  A pgp_num step moves at least one
 * placement seed, so a pool under 80 PGs (where pg_num * 0.025 < 2)
 * takes up to pg_num steps, a larger one about 1 / (max_misplaced / 2) =
 * 40; merges follow pgp_num down.  Past this, the next rebalance goes
 * on. */
#define OL_ADJUST_ROUNDS 1024

struct pool_plan {
	int64_t id;
	struct cfs_pgp_adjust a;
	char why[192]; /* what holds it back on this tick, if anything */
};

/* What adjust_pgs reads from the PGMap: the recovery ratios over every
 * pool's PGs (PGMap::get_recovery_stats) and each pool's objects. */
static int snapshot(objlayer *ol, const cfs_osdmap *m, struct pool_plan *pl,
		    int np)
{
	uint64_t copies = 0, misplaced = 0, degraded = 0;
	uint32_t pgs = 0, inactive = 0;

	for (int i = 0; i < np; i++) {
		const struct cfs_pool_info *q = cfs_osdmap_pool_at(m, i);
		uint64_t objects = 0;

		for (uint32_t ps = 0; ps < q->pg_num; ps++) {
			struct ol_pg_stat g;
			int r = ol_pg_stat(ol, m, q->id, ps, &g);

			if (r)
				return r;
			objects += g.objects;
			copies += g.objects * (uint64_t)q->size;
			misplaced += g.misplaced;
			degraded += g.degraded;
			pgs++;
			inactive += !(g.state & OL_PGS_ACTIVE);
		}
		pl[i].id = q->id;
		pl[i].a = (struct cfs_pgp_adjust){
			.pg_num = q->pg_num,
			.pgp_num = q->pgp_num,
			.pg_num_target = q->pg_num_target,
			.pgp_num_target = q->pgp_num_target,
			.objects = objects,
		};
	}
	for (int i = 0; i < np; i++) {
		pl[i].a.misplaced_ratio =
			copies ? (double)misplaced / (double)copies : 0;
		pl[i].a.degraded_ratio =
			copies ? (double)degraded / (double)copies : 0;
		pl[i].a.inactive_ratio = pgs ? (double)inactive / pgs : 0;
	}
	return 0;
}

/* One pool's turn of the tick: a split or merge if one can be made,
 * else a pgp_num step; *changed when the map changed, p->why when
 * something holds the pool back. */
static int adjust_pool(objlayer *ol, struct pool_plan *p,
		       struct ol_rebalance_stats *st, int *changed)
{
	const struct cfs_pgp_adjust *a = &p->a;
	uint32_t to = cfs_pg_num_next(a), next;
	enum cfs_pgp_verdict v;
	char msg[256] = "";
	int r;

	if (to != a->pg_num) {
		if (to < a->pg_num) {
			/* the mgr clears the merging PGs' upmaps first
			 * (adjust_pgs: "has upmap", upmaps_to_clear) and
			 * merges on a later tick, after backfill */
			r = cfs_pool_merge_clear_upmaps(ol->c, p->id, to);
			if (r < 0)
				return r;
			if (r > 0) {
				*changed = 1;
				return 0;
			}
		}
		r = ol_step_pg_num(ol, p->id, to, msg, sizeof(msg));
		if (!r) {
			/* pgp_num on the next tick, from stats of the new
			 * PGs (a child of an upmapped PG is remapped) */
			st->pg_num_changes++;
			*changed = 1;
			return 0;
		}
		if (r != -EBUSY)
			return r;
		/* not clean yet, or not co-located: wait (pgp_num may
		 * still step below) */
		snprintf(p->why, sizeof(p->why), "pg_num %u -> %u waits: %s",
			 a->pg_num, to, msg);
	}
	v = cfs_pgp_next(a, &next);
	if (v == CFS_PGP_STEP) {
		r = cfs_pool_step_pgp_num(ol->c, p->id, a->pgp_num, next, msg,
					  sizeof(msg));
		if (!r) {
			st->pgp_steps++;
			*changed = 1;
		} else if (r == -EAGAIN) {
			*changed = 1; /* a command moved it: decide again */
		} else if (r != -EALREADY) {
			return r;
		}
		return 0;
	}
	if (v != CFS_PGP_DONE && !*p->why)
		snprintf(p->why, sizeof(p->why), "pgp_num %s",
			 cfs_pgp_verdict_str(v));
	if (to == a->pg_num && a->pg_num_target < a->pg_num && !*p->why)
		/* adjust_pgs: "decrease blocked by pgp_num" (a
		 * pgp_num_target the user set apart from pg_num's) */
		snprintf(p->why, sizeof(p->why), "the merge waits for "
			 "pgp_num to come below pg_num");
	return 0;
}

/* One tick over every pool, from one snapshot (as adjust_pgs reads one
 * OSDMap and one PGMap); *plans gets the pools as the tick saw them,
 * with what held each back (free it). */
static int tick(objlayer *ol, struct ol_rebalance_stats *st, int *changed,
		struct pool_plan **plans, int *nplans)
{
	cfs_cluster *c = ol->c;
	double max = cfs_config_double(c, "target_max_misplaced_ratio");
	const cfs_osdmap *m;
	struct pool_plan *pl;
	int np, r;

	*changed = 0;
	/* the PG stats read the folders of the current pg_num */
	cfs_pg_layout_shared(c);
	m = cfs_osdmap_get(c);
	np = cfs_osdmap_npools(m);
	pl = calloc((size_t)np + 1, sizeof(*pl));
	r = pl ? snapshot(ol, m, pl, np) : -ENOMEM;
	cfs_osdmap_put(m);
	cfs_pg_layout_release(c);
	for (int i = 0; !r && i < np; i++) {
		pl[i].a.max_misplaced = max;
		r = adjust_pool(ol, &pl[i], st, changed);
	}
	free(*plans);
	*plans = pl;
	*nplans = pl ? np : 0;
	return r;
}

/* What is left short of its targets once the steps stopped: how many
 * pools, and the first with what holds it back (the last tick's word
 * for it, else why). */
static void pending(objlayer *ol, struct ol_rebalance_stats *st,
		    const struct pool_plan *pl, int np, const char *why)
{
	const cfs_osdmap *m = cfs_osdmap_get(ol->c);

	st->pools_pending = 0;
	st->pending[0] = '\0';
	for (int i = 0; i < cfs_osdmap_npools(m); i++) {
		const struct cfs_pool_info *q = cfs_osdmap_pool_at(m, i);
		uint32_t pgp = q->pgp_num_target < q->pg_num ? q->pgp_num_target
							      : q->pg_num;
		const char *w = why;

		if (q->pg_num == q->pg_num_target && q->pgp_num == pgp)
			continue;
		if (st->pools_pending++)
			continue;
		for (int k = 0; !*w && k < np; k++)
			if (pl[k].id == q->id)
				w = pl[k].why;
		snprintf(st->pending, sizeof(st->pending),
			 "pool '%s' pg_num %u pgp_num %u (pg_num_target %u, "
			 "pgp_num_target %u): %s", q->name, q->pg_num,
			 q->pgp_num, q->pg_num_target, q->pgp_num_target,
			 *w ? w : "waiting");
	}
	cfs_osdmap_put(m);
}

static int settled(const struct ol_rebalance_stats *st)
{
	/* a PG an osdmap flag holds back is not clean either: no pgp_num
	 * step would be backfilled */
	return !st->errors && !st->pgs_toofull && !st->pgs_blocked &&
	       !st->pgs_norebalance && !st->pgs_nobackfill &&
	       !st->pgs_norecover;
}

int ol_rebalance(objlayer *ol, struct ol_rebalance_stats *st,
		 void (*progress)(const struct ol_rebalance_progress *p,
				  void *arg),
		 void *arg)
{
	struct pool_plan *pl = NULL;
	char why[128] = "";
	int r, round = 0, changed = 0, np = 0;

	r = ol_backfill(ol, st, progress, arg);
	for (; !r && settled(st) && round < OL_ADJUST_ROUNDS; round++) {
		struct ol_rebalance_stats one;

		r = tick(ol, st, &changed, &pl, &np);
		if (r || !changed)
			break;
		/* the step is backfilled before anything else moves */
		r = ol_backfill(ol, &one, progress, arg);
		st->objects_copied += one.objects_copied;
		st->bytes_copied += one.bytes_copied;
		st->objects_removed += one.objects_removed;
		st->bytes_removed += one.bytes_removed;
		st->pgs_changed += one.pgs_changed;
		st->pgs_toofull = one.pgs_toofull;
		st->pgs_blocked = one.pgs_blocked;
		st->pgs_norebalance = one.pgs_norebalance;
		st->pgs_nobackfill = one.pgs_nobackfill;
		st->pgs_norecover = one.pgs_norecover;
		st->errors = one.errors;
	}
	if (!r) {
		if (!settled(st))
			snprintf(why, sizeof(why), "backfill left PGs: no "
				 "step until they are clean");
		else if (round == OL_ADJUST_ROUNDS)
			snprintf(why, sizeof(why), "%d steps made: run "
				 "rebalance again", OL_ADJUST_ROUNDS);
		pending(ol, st, pl, np, why);
	}
	free(pl);
	return r;
}
