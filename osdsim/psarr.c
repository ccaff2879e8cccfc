/*
 * psarr.c - the per-PG override arrays of every pool (pg_upmap[_items],
 * pg_temp, primary_temp): records sorted by PG seed, found by bisection,
 * and which pool a "POOL.PS" names.  Ceph keeps these as maps keyed by
 * pg_t across all pools; crushfs keeps one array per pool.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "osdsim_i.h"

static uint32_t ps_at(const void *v, size_t size, int i)
{
	uint32_t ps;

	memcpy(&ps, (const char *)v + size * (size_t)i, sizeof(ps));
	return ps;
}

static int bisect(const void *v, int n, size_t size, uint32_t ps, int *at)
{
	int lo = 0, hi = n;

	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (ps_at(v, size, mid) < ps)
			lo = mid + 1;
		else
			hi = mid;
	}
	*at = lo;
	return lo < n && ps_at(v, size, lo) == ps;
}

void *psarr_find(const void *v, int n, size_t size, uint32_t ps)
{
	int at;

	return v && bisect(v, n, size, ps, &at)
		       ? (char *)v + size * (size_t)at
		       : NULL;
}

void *psarr_slot(void **v, int *n, size_t size, uint32_t ps)
{
	char *a;
	int at;

	if (*v && bisect(*v, *n, size, ps, &at))
		return (char *)*v + size * (size_t)at;
	if (!*v)
		at = 0;
	a = realloc(*v, size * (size_t)(*n + 1));
	if (!a)
		return NULL;
	*v = a;
	memmove(a + size * (size_t)(at + 1), a + size * (size_t)at,
		size * (size_t)(*n - at));
	memset(a + size * (size_t)at, 0, size);
	memcpy(a + size * (size_t)at, &ps, sizeof(ps));
	(*n)++;
	return a + size * (size_t)at;
}

int psarr_dup(void **to, int *nto, const void *from, int n, size_t size)
{
	free(*to);
	*to = NULL;
	*nto = 0;
	if (!n)
		return 0;
	*to = malloc(size * (size_t)n);
	if (!*to)
		return -ENOMEM;
	memcpy(*to, from, size * (size_t)n);
	*nto = n;
	return 0;
}

int pool_ovr(struct cfs_osdmap *m, int64_t id, struct pool_ovr *o)
{
	struct cfs_xpool *x;

	if (id == m->pool.id) {
		*o = (struct pool_ovr){ &m->pool,   m->pgs,	   &m->upmaps,
					&m->nupmaps, &m->temps,	   &m->ntemps,
					&m->ptemps,  &m->nptemps,
					&m->pg_num_from };
		return 0;
	}
	x = xpool_find(m, id);
	if (!x)
		return -ENOENT;
	*o = (struct pool_ovr){ &x->info,   x->pgs,	&x->upmaps,
				&x->nupmaps, &x->temps,	&x->ntemps,
				&x->ptemps,  &x->nptemps, &x->pg_num_from };
	return 0;
}

int pgid_parse_any(struct cfs_osdmap *m, const char *s, struct pool_ovr *o,
		   uint32_t *ps)
{
	char *end;
	long long pool = strtoll(s, &end, 10);
	unsigned long v;

	if (end == s || *end != '.' || pool_ovr(m, pool, o))
		return -EINVAL;
	s = end + 1;
	v = strtoul(s, &end, 16);
	if (end == s || *end || v >= o->info->pg_num)
		return -EINVAL;
	*ps = (uint32_t)v;
	return 0;
}

/* ---- the public views ---- */

const struct cfs_pg_upmap *cfs_pool_upmaps(const cfs_osdmap *m, int64_t pool,
					   int *n)
{
	struct pool_ovr o;

	if (pool_ovr((struct cfs_osdmap *)m, pool, &o)) {
		*n = 0;
		return NULL;
	}
	*n = *o.nupmaps;
	return *o.upmaps;
}

const struct cfs_pg_temp *cfs_pool_pg_temps(const cfs_osdmap *m, int64_t pool,
					    int *n)
{
	struct pool_ovr o;

	if (pool_ovr((struct cfs_osdmap *)m, pool, &o)) {
		*n = 0;
		return NULL;
	}
	*n = *o.ntemps;
	return *o.temps;
}

const struct cfs_pg_ptemp *cfs_pool_primary_temps(const cfs_osdmap *m,
						  int64_t pool, int *n)
{
	struct pool_ovr o;

	if (pool_ovr((struct cfs_osdmap *)m, pool, &o)) {
		*n = 0;
		return NULL;
	}
	*n = *o.nptemps;
	return *o.ptemps;
}

/* ---- OSDMap::clean_temps ---- */

static int is_up(const struct cfs_osdmap *m, int osd)
{
	return osd >= 0 && osd < m->max_osd && m->osds[osd].exists &&
	       m->osds[osd].up;
}

/* Ceph 16.2 OSDMap::clean_temps: a pg_temp goes when its PG is gone, no
 * member is up, or it equals the PG's up set without it (pg_to_raw_up);
 * a primary_temp when its PG is gone, its OSD is down, or the PG's
 * primary is the same without it. */
static int clean_pool(struct cfs_osdmap *m, struct pool_ovr *o, int temps)
{
	int gone = 0, k = 0;

	for (int i = 0; temps && i < *o->ntemps; i++) {
		struct cfs_pg_temp *t = &(*o->temps)[i];
		const struct cfs_pg_mapping *pg =
			t->ps < o->info->pg_num ? &o->pgs[t->ps] : NULL;
		int any_up = 0;

		for (int j = 0; j < t->n; j++)
			any_up |= is_up(m, t->osds[j]);
		if (!pg || !any_up ||
		    (pg->nup == t->n &&
		     !memcmp(pg->up, t->osds, sizeof(int) * (size_t)t->n))) {
			gone++;
			continue;
		}
		(*o->temps)[k++] = *t;
	}
	if (temps)
		*o->ntemps = k;
	k = 0;
	for (int i = 0; i < *o->nptemps; i++) {
		struct cfs_pg_ptemp *t = &(*o->ptemps)[i];
		const struct cfs_pg_mapping *pg =
			t->ps < o->info->pg_num ? &o->pgs[t->ps] : NULL;

		if (!pg || !is_up(m, t->osd) ||
		    pg->acting_primary == pg->up_primary) {
			gone++;
			continue;
		}
		(*o->ptemps)[k++] = *t;
	}
	*o->nptemps = k;
	return gone;
}

int temps_clean(struct cfs_osdmap *m)
{
	struct pool_ovr o;
	int gone = 0;

	pool_ovr(m, m->pool.id, &o);
	gone += clean_pool(m, &o, 0); /* pg_temp: pgtemp.c chooses it */
	for (int i = 0; i < m->nxpools; i++) {
		pool_ovr(m, m->xpools[i].info.id, &o);
		gone += clean_pool(m, &o, 1);
	}
	return gone;
}
