/*
 * pgtable.c - the PG -> up/acting table of one epoch, computed once when
 * the epoch is made (never per I/O), as Ceph 16.2's
 * OSDMap::_pg_to_up_acting_osds does for a replicated pool:
 *
 *   raw    = CRUSH(rule, pps, size, osd_weight)   (_pg_to_raw_osds, with the
 *            pool's choose_args) minus nonexistent OSDs
 *   then the PG's pg_upmap / pg_upmap_items       (_apply_upmap)
 *   up     = raw minus down OSDs, order kept      (_raw_to_up_osds)
 *   primary = up[0], then primary affinity may pick another one and move
 *            it to the front                      (_apply_primary_affinity)
 *   acting = the PG's pg_temp while it has one (_get_temp_osds: down
 *            members dropped), else up             (pgtemp.c chooses them)
 * (placement's pl_pg_up_acting does the steps after CRUSH.)
 *
 * One workspace, allocated here for the whole table, serves every mapping
 * (STYLE.md 3): the mapper itself never allocates.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "osdsim_i.h"
#include "placement.h"

/* CrushWrapper::get_rule_weight_osd_map for the pool's rule, and which
 * OSDs sit below its takes at all (placement/rulewalk.c) */
static int rule_shares(struct cfs_osdmap *m)
{
	m->rule_share = calloc((size_t)m->max_osd + 1, sizeof(float));
	m->in_rule = calloc((size_t)m->max_osd + 1, 1);
	if (!m->rule_share || !m->in_rule)
		return -ENOMEM;
	return pl_rule_osd_weights(m->crush, m->pool.crush_rule,
				   m->rule_share, m->in_rule, m->max_osd);
}

/* OSDMap::_pg_to_raw_osds: the pool's placement seed through its rule,
 * with the pool's choose_args (else the default set); *pps gets the seed */
static int pool_raw(const struct cfs_osdmap *m, const struct cfs_pool_info *pool,
		    uint32_t ps, uint32_t *pps, int *raw, void *work)
{
	*pps = pl_pg_pps(ps, pool->pgp_num, pool->id);
	if (!pl_map_rule_exists(m->crush, pool->crush_rule))
		return 0;
	return pl_do_rule_args(m->crush, pool->crush_rule, (int)*pps, raw,
			       pool->size, m->weights, m->max_osd, work,
			       pl_map_choose_args_for(m->crush, pool->id));
}

static void store_sets(struct cfs_pg_mapping *pg, const struct pl_up_acting *ua)
{
	pg->nup = ua->nup > CFS_MAX_REP ? CFS_MAX_REP : ua->nup;
	memcpy(pg->up, ua->up, sizeof(int) * (size_t)pg->nup);
	pg->up_primary = ua->up_primary;
	pg->nacting = ua->nacting > CFS_MAX_REP ? CFS_MAX_REP : ua->nacting;
	memcpy(pg->acting, ua->acting, sizeof(int) * (size_t)pg->nacting);
	pg->acting_primary = ua->acting_primary;
}

/* The PG's entries of pool arrays as placement takes them. */
static void overrides(const struct cfs_pg_upmap *u, const struct cfs_pg_temp *t,
		      const struct cfs_pg_ptemp *pt, struct pl_pg_overrides *o)
{
	*o = (struct pl_pg_overrides){ .primary_temp = -1 };
	if (u) {
		o->upmap = u->osds;
		o->nupmap = u->n;
		o->items = (const int(*)[2])u->items;
		o->nitems = u->nitems;
	}
	if (t) {
		o->temp = t->osds;
		o->ntemp = t->n;
	}
	if (pt)
		o->primary_temp = pt->osd;
}

/* Every PG of a pool (its override arrays in po): CRUSH, then OSDMap's
 * _remove_nonexistent_osds (a replicated pool shifts, an erasure pool
 * keeps each shard's position, holes as PL_ITEM_NONE), the upmaps, and
 * up/acting with pg_temp and primary_temp. */
static void map_pgs(const struct cfs_osdmap *m, const struct pl_osd_view *view,
		    const struct cfs_pool_info *pool, const struct pool_ovr *po,
		    struct cfs_pg_mapping *pgs, void *work)
{
	int raw[CFS_MAX_REP];

	for (uint32_t ps = 0; ps < pool->pg_num; ps++) {
		struct cfs_pg_mapping *pg = &pgs[ps];
		struct pl_pg_overrides o;
		struct pl_up_acting ua;
		uint32_t pps;
		int n = pool_raw(m, pool, ps, &pps, raw, work);

		overrides(psarr_find(*po->upmaps, *po->nupmaps,
				     sizeof(**po->upmaps), ps),
			  psarr_find(*po->temps, *po->ntemps,
				     sizeof(**po->temps), ps),
			  psarr_find(*po->ptemps, *po->nptemps,
				     sizeof(**po->ptemps), ps),
			  &o);
		pg->ps = ps;
		pg->nraw = 0;
		for (int k = 0; k < n && pg->nraw < CFS_MAX_REP; k++) {
			if (raw[k] >= 0 && raw[k] < m->max_osd &&
			    view->exists[raw[k]])
				pg->raw[pg->nraw++] = raw[k];
			else if (pool->erasure)
				pg->raw[pg->nraw++] = PL_ITEM_NONE;
		}
		memcpy(pg->raw_upmap, pg->raw, sizeof(pg->raw));
		pg->nraw_upmap = pl_pg_apply_upmap(view, &o, pg->raw_upmap,
						   pg->nraw);
		if (pg->nraw_upmap > CFS_MAX_REP)
			pg->nraw_upmap = CFS_MAX_REP;
		pl_pg_up_acting(view, !pool->erasure, pps, raw, n, &o, &ua);
		store_sets(pg, &ua);
	}
}

/* The other pools' PGs (pools.c), each with its own workspace size. */
static int map_xpools(struct cfs_osdmap *m, const struct pl_osd_view *view)
{
	for (int i = 0; i < m->nxpools; i++) {
		struct cfs_xpool *x = &m->xpools[i];
		const struct cfs_pool_info *pool = &x->info;
		size_t wsize = pl_work_size(m->crush, pool->size);
		void *work = wsize ? malloc(wsize) : NULL;
		struct pool_ovr po;

		free(x->pgs);
		x->pgs = calloc(pool->pg_num, sizeof(*x->pgs));
		if (!work || !x->pgs || pl_work_init(m->crush, work,
						     pool->size)) {
			free(work);
			return -ENOMEM;
		}
		pool_ovr(m, pool->id, &po);
		map_pgs(m, view, pool, &po, x->pgs, work);
		free(work);
	}
	return 0;
}

int osdmap_finish(struct cfs_osdmap *m)
{
	const struct cfs_pool_info *pool = &m->pool;
	int size = pool->size;
	struct pl_osd_view view;
	uint8_t *exists = NULL, *up = NULL;
	uint32_t *reweight = NULL, *aff = NULL;
	void *work = NULL;
	size_t wsize;
	int r;

	free(m->weights);
	free(m->pgs);
	free(m->rule_share);
	free(m->in_rule);
	m->weights = NULL;
	m->pgs = NULL;
	m->rule_share = NULL;
	m->in_rule = NULL;
	r = pl_map_finalize(m->crush);
	if (r)
		return r;
	m->weights = calloc((size_t)m->max_osd + 1, sizeof(uint32_t));
	m->pgs = calloc(pool->pg_num, sizeof(*m->pgs));
	wsize = pl_work_size(m->crush, size); /* finalized just above */
	work = wsize ? malloc(wsize) : NULL;
	exists = calloc((size_t)m->max_osd + 1, 1);
	up = calloc((size_t)m->max_osd + 1, 1);
	reweight = calloc((size_t)m->max_osd + 1, sizeof(*reweight));
	aff = calloc((size_t)m->max_osd + 1, sizeof(*aff));
	if (!m->weights || !m->pgs || !work || !exists || !up || !reweight ||
	    !aff) {
		r = wsize ? -ENOMEM : -EINVAL;
		goto out;
	}
	for (int i = 0; i < m->max_osd; i++)
		m->weights[i] = m->osds[i].exists ? m->osds[i].reweight : 0;
	r = pl_work_init(m->crush, work, size);
	if (r)
		goto out;

	view.max_osd = m->max_osd;
	view.exists = exists;
	view.up = up;
	view.weight = reweight;
	view.primary_affinity = aff;
	for (int i = 0; i < m->max_osd; i++) {
		exists[i] = m->osds[i].exists != 0;
		up[i] = exists[i] && m->osds[i].up;
		reweight[i] = m->osds[i].reweight;
		aff[i] = m->osds[i].primary_affinity;
	}
	{
		struct pool_ovr po;

		pool_ovr(m, pool->id, &po);
		map_pgs(m, &view, pool, &po, m->pgs, work);
	}
	r = rule_shares(m);
	if (!r)
		r = map_xpools(m, &view);
out:
	free(work);
	free(exists);
	free(up);
	free(reweight);
	free(aff);
	return r;
}

void cfs_object_to_pg(const cfs_osdmap *m, const char *name, uint32_t *raw,
		      uint32_t *ps)
{
	uint32_t h = pl_object_ps(name, strlen(name));

	if (raw)
		*raw = h;
	if (ps)
		*ps = pl_pg_seed(h, m->pool.pg_num);
}

const struct cfs_pg_mapping *cfs_osdmap_pg(const cfs_osdmap *m, uint32_t ps)
{
	if (ps >= m->pool.pg_num)
		return NULL;
	return &m->pgs[ps];
}

void cfs_pgid_str(const cfs_osdmap *m, uint32_t ps, char *buf, size_t len)
{
	snprintf(buf, len, "%lld.%x", (long long)m->pool.id, ps);
}

int cfs_pgid_parse(const cfs_osdmap *m, const char *s, uint32_t *ps)
{
	char *end;
	long long pool;
	unsigned long v;

	pool = strtoll(s, &end, 10);
	if (end == s || *end != '.')
		return -EINVAL;
	s = end + 1;
	if (!*s)
		return -EINVAL;
	v = strtoul(s, &end, 16);
	if (*end)
		return -EINVAL;
	if (pool != m->pool.id || v >= m->pool.pg_num)
		return -ENOENT;
	*ps = (uint32_t)v;
	return 0;
}
