/*
 * osdsafety.c - `osd ok-to-stop` and `osd safe-to-destroy` as Ceph 16.2's
 * mgr decides them (src/mgr/DaemonServer.cc: _check_offlines_pgs and the
 * safe-to-destroy branch of _handle_command), over one osdmap snapshot and
 * the PG states objlayer computes (ol_pool_pg_stats).
 *
 * Where crushfs differs from a running Ceph: its acting sets may name a
 * down OSD (Ceph's peering drops it), so only up members count; and an
 * OSD's "stats" are the PG folders it holds (Ceph's osd_stat num_pgs).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mgr_osdsafety.h"
#include "objlayer.h"
#include "objstore.h"
#include "osdmap.h"
#include "pgstate.h"
#include "placement.h"

static int list_add(struct mgr_pg_list *l, const char *pgid)
{
	if (l->n == l->cap) {
		int nc = l->cap ? l->cap * 2 : 16;
		char(*nv)[32] = realloc(l->v, sizeof(*l->v) * (size_t)nc);

		if (!nv)
			return -ENOMEM;
		l->v = nv;
		l->cap = nc;
	}
	strncpy(l->v[l->n], pgid, sizeof(l->v[0]) - 1);
	l->v[l->n][sizeof(l->v[0]) - 1] = 0;
	l->n++;
	return 0;
}

static int has(const int *v, int n, int x)
{
	for (int i = 0; i < n; i++)
		if (v[i] == x)
			return 1;
	return 0;
}

static int osd_up(const cfs_osdmap *m, int o)
{
	return o >= 0 && o != PL_ITEM_NONE && o < cfs_osdmap_max_osd(m) &&
	       cfs_osdmap_is_up(m, o);
}

/* A degraded PG's acting OSD i that misses nothing (Ceph's
 * avail_no_missing): a holder of its PG (its shard's, for an erasure
 * pool) with an empty missing set, or any OSD of a PG nobody holds yet
 * (an empty PG has nothing to miss). */
static int no_missing(cfs_cluster *c, const struct cfs_pool_info *p,
		      uint32_t ps, int i, int o)
{
	uint32_t sps = p->erasure ? cfs_shard_ps(ps, p->size, i) : ps;
	int r, h[1];

	cfs_pg_lock(c, p->id, sps);
	if (cfs_pg_is_holder(c, p->id, sps, o))
		r = !cfs_pg_missing_count(c, p->id, sps, o);
	else
		r = !cfs_pg_holders(c, p->id, sps, h, 1);
	cfs_pg_unlock(c, p->id, sps);
	return r;
}

/* One PG against the OSDs to stop (_check_offlines_pgs' loop body). */
static int one_pg(cfs_cluster *c, const cfs_osdmap *m,
		  const struct cfs_pool_info *p, const struct ol_pg_stat *g,
		  const int *osds, int n, struct mgr_ok_to_stop *r)
{
	int found = 0, left = 0, degraded = !!(g->state & OL_PGS_DEGRADED);
	int e = 0;

	if (!g->state)
		return list_add(&r->unknown, g->pgid);
	for (int i = 0; i < g->nacting; i++) {
		int o = g->acting[i];

		if (!osd_up(m, o))
			continue;
		if (degraded && !no_missing(c, p, g->ps, i, o))
			continue;
		if (has(osds, n, o))
			found = 1;
		else
			left++;
	}
	if (!found)
		return 0;
	if (!(g->state & OL_PGS_ACTIVE))
		e = list_add(&r->bad_already_inactive, g->pgid);
	if (!e && left < p->min_size)
		e = list_add(&r->bad_become_inactive, g->pgid);
	if (e)
		return e;
	if (!(g->state & OL_PGS_ACTIVE) || left < p->min_size)
		return list_add(&r->not_ok, g->pgid);
	e = list_add(&r->ok, g->pgid);
	if (!e)
		e = list_add(degraded ? &r->ok_become_more_degraded
				      : &r->ok_become_degraded,
			     g->pgid);
	return e;
}

int mgr_ok_to_stop(cfs_cluster *c, objlayer *ol, const int *osds, int n,
		   struct mgr_ok_to_stop *r)
{
	const cfs_osdmap *m = cfs_osdmap_get(c);
	int e = 0;

	memset(r, 0, sizeof(*r));
	r->osds = malloc(sizeof(int) * (size_t)(n ? n : 1));
	if (!r->osds) {
		cfs_osdmap_put(m);
		return -ENOMEM;
	}
	memcpy(r->osds, osds, sizeof(int) * (size_t)n);
	r->nosds = n;
	for (int pi = 0; pi < cfs_osdmap_npools(m) && !e; pi++) {
		const struct cfs_pool_info *p = cfs_osdmap_pool_at(m, pi);
		struct ol_pg_stat *st = calloc(p->pg_num, sizeof(*st));

		if (!st) {
			e = -ENOMEM;
			break;
		}
		e = ol_pool_pg_stats(ol, m, p->id, st);
		for (uint32_t ps = 0; !e && ps < p->pg_num; ps++)
			e = one_pg(c, m, p, &st[ps], osds, n, r);
		free(st);
	}
	cfs_osdmap_put(m);
	if (e)
		mgr_ok_to_stop_free(r);
	return e;
}

int mgr_ok_to_stop_ok(const struct mgr_ok_to_stop *r)
{
	return !r->not_ok.n && !r->unknown.n;
}

void mgr_ok_to_stop_free(struct mgr_ok_to_stop *r)
{
	struct mgr_pg_list *l[] = { &r->ok, &r->not_ok, &r->unknown,
				    &r->bad_no_pool, &r->bad_already_inactive,
				    &r->bad_become_inactive,
				    &r->ok_become_degraded,
				    &r->ok_become_more_degraded };

	for (size_t i = 0; i < sizeof(l) / sizeof(l[0]); i++)
		free(l[i]->v);
	free(r->osds);
	memset(r, 0, sizeof(*r));
}

/* ---- safe-to-destroy ---- */

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* 1 when o holds a folder of some PG (Ceph: osd_stat num_pgs > 0) */
static int holds_pgs(cfs_cluster *c, const cfs_osdmap *m, int o)
{
	for (int pi = 0; pi < cfs_osdmap_npools(m); pi++) {
		const struct cfs_pool_info *p = cfs_osdmap_pool_at(m, pi);
		uint32_t n = p->pg_num * (uint32_t)(p->erasure ? p->size : 1);

		for (uint32_t sps = 0; sps < n; sps++) {
			int h;

			cfs_pg_lock(c, p->id, sps);
			h = cfs_pg_is_holder(c, p->id, sps, o);
			cfs_pg_unlock(c, p->id, sps);
			if (h)
				return 1;
		}
	}
	return 0;
}

int mgr_safe_to_destroy(cfs_cluster *c, objlayer *ol, const int *osds, int n,
			struct mgr_safe_to_destroy *r)
{
	const cfs_osdmap *m = cfs_osdmap_get(c);
	int *pgs = calloc((size_t)(n ? n : 1), sizeof(int));
	int all_clean = 1, e = 0;

	memset(r, 0, sizeof(*r));
	r->safe = calloc((size_t)(n ? n : 1), sizeof(int));
	r->active = calloc((size_t)(n ? n : 1), sizeof(int));
	r->missing_stats = calloc((size_t)(n ? n : 1), sizeof(int));
	r->stored = calloc((size_t)(n ? n : 1), sizeof(int));
	if (!pgs || !r->safe || !r->active || !r->missing_stats ||
	    !r->stored)
		e = -ENOMEM;
	/* PGs with each OSD in their up or acting set (num_pg_by_osd's
	 * acting + up_not_acting), and whether every PG is active+clean */
	for (int pi = 0; pi < cfs_osdmap_npools(m) && !e; pi++) {
		const struct cfs_pool_info *p = cfs_osdmap_pool_at(m, pi);
		struct ol_pg_stat *st = calloc(p->pg_num, sizeof(*st));

		if (!st) {
			e = -ENOMEM;
			break;
		}
		e = ol_pool_pg_stats(ol, m, p->id, st);
		for (uint32_t ps = 0; !e && ps < p->pg_num; ps++) {
			const struct ol_pg_stat *g = &st[ps];

			if ((g->state & (OL_PGS_ACTIVE | OL_PGS_CLEAN)) !=
			    (OL_PGS_ACTIVE | OL_PGS_CLEAN))
				all_clean = 0;
			for (int k = 0; k < n; k++)
				if ((has(g->acting, g->nacting, osds[k]) ||
				     has(g->up, g->nup, osds[k])) &&
				    osd_up(m, osds[k]))
					pgs[k]++;
		}
		free(st);
	}
	for (int k = 0; k < n && !e; k++) {
		int o = osds[k];

		if (!cfs_osdmap_exists(m, o))
			r->safe[r->nsafe++] = o;
		else if (pgs[k]) {
			r->active[r->nactive++] = o;
			r->affected_pgs += pgs[k];
		} else if (!all_clean && !cfs_osdmap_is_up(m, o))
			r->missing_stats[r->nmissing++] = o;
		else if (!all_clean && holds_pgs(c, m, o))
			r->stored[r->nstored++] = o;
		else
			r->safe[r->nsafe++] = o;
	}
	qsort(r->safe, (size_t)r->nsafe, sizeof(int), cmp_int);
	qsort(r->active, (size_t)r->nactive, sizeof(int), cmp_int);
	qsort(r->missing_stats, (size_t)r->nmissing, sizeof(int), cmp_int);
	qsort(r->stored, (size_t)r->nstored, sizeof(int), cmp_int);
	free(pgs);
	cfs_osdmap_put(m);
	if (e)
		mgr_safe_to_destroy_free(r);
	return e;
}

void mgr_safe_to_destroy_free(struct mgr_safe_to_destroy *r)
{
	free(r->safe);
	free(r->active);
	free(r->missing_stats);
	free(r->stored);
	memset(r, 0, sizeof(*r));
}
