/*
 * upmap.c - the osdmap's pg_upmap and pg_upmap_items entries: set and
 * removed as Ceph 16.2's OSDMonitor does (`osd pg-upmap`, `osd
 * pg-upmap-items`, `osd rm-pg-upmap[-items]`), kept valid across map
 * changes as OSDMap::clean_pg_upmaps keeps them (with CrushWrapper::
 * verify_upmap), and persisted in cluster.json in the shape `ceph osd
 * dump -f json` prints them.  pgtable.c applies them (placement's
 * pl_pg_up_acting).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "osdsim_i.h"
#include "placement.h"

/* ---- storage ---- */

const struct cfs_pg_upmap *cfs_osdmap_upmaps(const cfs_osdmap *m, int *n)
{
	*n = m->nupmaps;
	return m->upmaps;
}

static int find(const struct cfs_osdmap *m, uint32_t ps, int *at)
{
	int lo = 0, hi = m->nupmaps;

	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (m->upmaps[mid].ps < ps)
			lo = mid + 1;
		else
			hi = mid;
	}
	*at = lo;
	return lo < m->nupmaps && m->upmaps[lo].ps == ps;
}

const struct cfs_pg_upmap *cfs_osdmap_pg_upmap(const cfs_osdmap *m,
					       uint32_t ps)
{
	int at;

	return find(m, ps, &at) ? &m->upmaps[at] : NULL;
}

struct cfs_pg_upmap *upmap_slot(struct cfs_osdmap *m, uint32_t ps,
				int create, int *nomem)
{
	struct cfs_pg_upmap *v;
	int at;

	if (nomem)
		*nomem = 0;
	if (find(m, ps, &at))
		return &m->upmaps[at];
	if (!create)
		return NULL;
	v = realloc(m->upmaps, sizeof(*v) * (size_t)(m->nupmaps + 1));
	if (!v) {
		if (nomem)
			*nomem = 1;
		return NULL;
	}
	m->upmaps = v;
	memmove(&v[at + 1], &v[at], sizeof(*v) * (size_t)(m->nupmaps - at));
	memset(&v[at], 0, sizeof(*v));
	v[at].ps = ps;
	m->nupmaps++;
	return &v[at];
}

static void compact(struct cfs_pg_upmap *v, int *n)
{
	int k = 0;

	for (int i = 0; i < *n; i++)
		if (v[i].n || v[i].nitems)
			v[k++] = v[i];
	*n = k;
}

void upmap_compact(struct cfs_osdmap *m)
{
	compact(m->upmaps, &m->nupmaps);
}

void upmap_compact_ovr(struct pool_ovr *o)
{
	compact(*o->upmaps, o->nupmaps);
}

int upmap_copy(const struct cfs_osdmap *from, struct cfs_osdmap *to)
{
	free(to->upmaps);
	to->upmaps = NULL;
	to->nupmaps = 0;
	if (!from->nupmaps)
		return 0;
	to->upmaps = malloc(sizeof(*to->upmaps) * (size_t)from->nupmaps);
	if (!to->upmaps)
		return -ENOMEM;
	memcpy(to->upmaps, from->upmaps,
	       sizeof(*to->upmaps) * (size_t)from->nupmaps);
	to->nupmaps = from->nupmaps;
	return 0;
}

/* ---- validity (OSDMap::check_pg_upmaps) ---- */

static int same_set(const int *a, int na, const int *b, int nb)
{
	return na == nb && !memcmp(a, b, sizeof(*a) * (size_t)na);
}

static int clean_pool(struct cfs_osdmap *m, struct pool_ovr *o)
{
	const struct cfs_pool_info *pool = o->info;
	int changed = 0;

	for (int i = 0; i < *o->nupmaps; i++) {
		struct cfs_pg_upmap *u = &(*o->upmaps)[i];
		const struct cfs_pg_mapping *pg;
		int raw[PL_MAX_UP_ACTING], nraw = 0, k = 0;

		if (u->ps >= pool->pg_num) {
			u->n = u->nitems = 0;
			changed++;
			continue;
		}
		pg = &o->pgs[u->ps];
		nraw = pg->nraw;
		memcpy(raw, pg->raw, sizeof(int) * (size_t)nraw);
		if (u->n && (same_set(u->osds, u->n, raw, nraw) ||
			     u->n != pool->size)) {
			u->n = 0;
			changed++;
		}
		/* check_pg_upmaps: a pg_upmap naming an OSD that is gone or
		 * out (adjusted weight 0) is cancelled whole */
		for (int j = 0; u->n && j < u->n; j++) {
			int t = u->osds[j];

			if (t != PL_ITEM_NONE &&
			    (t < 0 || t >= m->max_osd || !m->osds[t].exists ||
			     m->osds[t].reweight == 0)) {
				u->n = 0;
				changed++;
			}
		}
		for (int p = 0; p < u->nitems; p++) {
			int from = u->items[p][0], to = u->items[p][1];
			int in_raw = 0;

			for (int j = 0; j < nraw; j++)
				if (raw[j] == from)
					in_raw = 1;
			if (!in_raw ||
			    (to >= 0 && to < m->max_osd &&
			     m->osds[to].reweight == 0))
				continue;
			u->items[k][0] = from;
			u->items[k][1] = to;
			k++;
		}
		if (k != u->nitems) {
			u->nitems = k;
			changed++;
		}
		/* the rule must be able to give the upmapped raw set
		 * (computed before this clean-up, as Ceph checks it) */
		if ((u->n || u->nitems) &&
		    pl_verify_upmap(m->crush, pool->crush_rule, pool->size,
				    pg->raw_upmap, pg->nraw_upmap)) {
			u->n = u->nitems = 0;
			changed++;
		}
	}
	compact(*o->upmaps, o->nupmaps);
	return changed;
}

int upmap_clean(struct cfs_osdmap *m)
{
	struct pool_ovr o;
	int changed = 0;

	for (int i = 0; i < cfs_osdmap_npools(m); i++) {
		pool_ovr(m, cfs_osdmap_pool_at(m, i)->id, &o);
		if (*o.nupmaps)
			changed += clean_pool(m, &o);
	}
	return changed;
}

/* ---- the commands ---- */

static int exists(const struct cfs_osdmap *m, int osd)
{
	return osd >= 0 && osd < m->max_osd && m->osds[osd].exists;
}

int upmap_set(struct cfs_osdmap *m, int64_t pool, uint32_t ps, const int *osds,
	      int n, char *why, size_t whylen)
{
	struct pool_ovr po;
	struct cfs_pg_upmap *u;
	int set[CFS_MAX_REP], k = 0, off;

	if (pool_ovr(m, pool, &po) || ps >= po.info->pg_num)
		return -ENOENT;
	if (n == 0) {
		u = psarr_find(*po.upmaps, *po.nupmaps, sizeof(*u), ps);
		if (!u || !u->n)
			return -ENODATA;
		u->n = 0;
		compact(*po.upmaps, po.nupmaps);
		return 0;
	}
	if (n < po.info->min_size) {
		snprintf(why, whylen, "num of osds (%d) < pool min size (%d)",
			 n, po.info->min_size);
		return -EINVAL;
	}
	if (n > po.info->size) {
		snprintf(why, whylen, "num of osds (%d) > pool size (%d)", n,
			 po.info->size);
		return -EINVAL;
	}
	for (int i = 0; i < n; i++) {
		int dup = 0;

		if (osds[i] != PL_ITEM_NONE && !exists(m, osds[i])) {
			snprintf(why, whylen, "osd.%d does not exist", osds[i]);
			return -ENOENT;
		}
		for (int j = 0; j < k; j++)
			if (set[j] == osds[i])
				dup = 1;
		if (!dup)
			set[k++] = osds[i];
	}
	u = psarr_slot((void **)po.upmaps, po.nupmaps, sizeof(*u), ps);
	if (!u)
		return -ENOMEM;
	memcpy(u->osds, set, sizeof(int) * (size_t)k);
	u->n = k;
	off = snprintf(why, whylen, "set %lld.%x pg_upmap mapping to [",
		       (long long)pool, ps);
	for (int i = 0; i < k && off > 0 && (size_t)off < whylen; i++)
		off += snprintf(why + off, whylen - (size_t)off, "%s%d",
				i ? "," : "", set[i]);
	if (off > 0 && (size_t)off < whylen)
		snprintf(why + off, whylen - (size_t)off, "]");
	return 0;
}

int upmap_set_items(struct cfs_osdmap *m, int64_t pool, uint32_t ps,
		    const int *pairs, int npairs, char *why, size_t whylen)
{
	struct pool_ovr po;
	struct cfs_pg_upmap *u;
	int items[CFS_MAX_REP][2], k = 0, off;

	if (pool_ovr(m, pool, &po) || ps >= po.info->pg_num)
		return -ENOENT;
	if (npairs == 0) {
		u = psarr_find(*po.upmaps, *po.nupmaps, sizeof(*u), ps);
		if (!u || !u->nitems)
			return -ENODATA;
		u->nitems = 0;
		compact(*po.upmaps, po.nupmaps);
		return 0;
	}
	if (npairs > po.info->size) {
		snprintf(why, whylen, "num of osd pairs (%d) > pool size (%d)",
			 npairs, po.info->size);
		return -EINVAL;
	}
	for (int i = 0; i < npairs; i++) {
		int from = pairs[2 * i], to = pairs[2 * i + 1], dup = 0;

		if (from == to)
			continue; /* Ceph notes it and goes on */
		if (!exists(m, from)) {
			snprintf(why, whylen, "osd.%d does not exist", from);
			return -ENOENT;
		}
		if (to != PL_ITEM_NONE && !exists(m, to)) {
			snprintf(why, whylen, "osd.%d does not exist", to);
			return -ENOENT;
		}
		for (int j = 0; j < k; j++)
			if (items[j][0] == from && items[j][1] == to)
				dup = 1;
		if (dup)
			continue;
		items[k][0] = from;
		items[k][1] = to;
		k++;
	}
	if (!k) {
		snprintf(why, whylen, "no valid upmap items(pairs) is specified");
		return -EINVAL;
	}
	u = psarr_slot((void **)po.upmaps, po.nupmaps, sizeof(*u), ps);
	if (!u)
		return -ENOMEM;
	memcpy(u->items, items, sizeof(items[0]) * (size_t)k);
	u->nitems = k;
	off = snprintf(why, whylen, "set %lld.%x pg_upmap_items mapping to [",
		       (long long)pool, ps);
	for (int i = 0; i < k && off > 0 && (size_t)off < whylen; i++)
		off += snprintf(why + off, whylen - (size_t)off, "%s%d->%d",
				i ? "," : "", items[i][0], items[i][1]);
	if (off > 0 && (size_t)off < whylen)
		snprintf(why + off, whylen - (size_t)off, "]");
	return 0;
}

/* ---- cluster.json: Ceph's `osd dump` shapes ---- */

json_t *upmap_to_json(const struct cfs_osdmap *m)
{
	json_t *o = json_object(), *up = json_array(), *items = json_array();
	char pgid[32];

	if (!o || !up || !items)
		goto err;
	/* Ceph's maps are keyed by pg_t: pool, then seed */
	for (int p = 0; p < cfs_osdmap_npools(m); p++) {
		int64_t id = cfs_osdmap_pool_at(m, p)->id;
		int n;
		const struct cfs_pg_upmap *v = cfs_pool_upmaps(m, id, &n);

		for (int i = 0; i < n; i++) {
			const struct cfs_pg_upmap *u = &v[i];

			snprintf(pgid, sizeof(pgid), "%lld.%x", (long long)id,
				 u->ps);
			if (u->n) {
				json_t *osds = json_array();

				for (int j = 0; j < u->n; j++)
					json_array_append_new(
						osds, json_integer(u->osds[j]));
				json_array_append_new(
					up, json_pack("{s:s, s:o}", "pgid", pgid,
						      "osds", osds));
			}
			if (u->nitems) {
				json_t *mp = json_array();

				for (int j = 0; j < u->nitems; j++)
					json_array_append_new(
						mp,
						json_pack("{s:i, s:i}", "from",
							  u->items[j][0], "to",
							  u->items[j][1]));
				json_array_append_new(
					items, json_pack("{s:s, s:o}", "pgid",
							 pgid, "mappings", mp));
			}
		}
	}
	json_object_set_new(o, "pg_upmap", up);
	json_object_set_new(o, "pg_upmap_items", items);
	return o;
err:
	json_decref(o);
	json_decref(up);
	json_decref(items);
	return NULL;
}

static int osd_id_ok(const struct cfs_osdmap *m, json_t *v, int *out)
{
	json_int_t x;

	if (!json_is_integer(v))
		return 0;
	x = json_integer_value(v);
	if (x != PL_ITEM_NONE && (x < 0 || x >= m->max_osd))
		return 0;
	*out = (int)x;
	return 1;
}

int upmap_from_json(struct cfs_osdmap *m, json_t *root, char *err,
		    size_t errlen)
{
	static const char *const keys[] = { "pg_upmap", "pg_upmap_items" };

	for (int k = 0; k < 2; k++) {
		json_t *arr = json_object_get(root, keys[k]), *e;
		size_t i;

		if (!arr)
			continue; /* written before upmaps existed */
		if (!json_is_array(arr)) {
			snprintf(err, errlen, "%s: not an array", keys[k]);
			return -EINVAL;
		}
		json_array_foreach(arr, i, e) {
			json_t *pg = json_object_get(e, "pgid");
			json_t *list = json_object_get(e, k ? "mappings" :
							      "osds");
			struct cfs_pg_upmap *u;
			struct pool_ovr po;
			uint32_t ps;
			size_t j;
			json_t *x;

			if (!json_is_string(pg) ||
			    pgid_parse_any(m, json_string_value(pg), &po,
					   &ps) ||
			    !json_is_array(list) || !json_array_size(list) ||
			    json_array_size(list) > CFS_MAX_REP) {
				snprintf(err, errlen, "%s[%zu]",
					 keys[k], i);
				return -EINVAL;
			}
			u = psarr_slot((void **)po.upmaps, po.nupmaps,
				       sizeof(*u), ps);
			if (!u) {
				snprintf(err, errlen, "out of memory");
				return -ENOMEM;
			}
			json_array_foreach(list, j, x) {
				int ok = k ? osd_id_ok(m, json_object_get(x, "from"),
						       &u->items[j][0]) &&
						     osd_id_ok(m, json_object_get(x, "to"),
							       &u->items[j][1]) :
					     osd_id_ok(m, x, &u->osds[j]);

				if (!ok) {
					snprintf(err, errlen, "%s[%zu] (an osd id)",
						 keys[k], i);
					return -EINVAL;
				}
			}
			if (k)
				u->nitems = (int)json_array_size(list);
			else
				u->n = (int)json_array_size(list);
		}
	}
	return 0;
}

/* ---- the balancer on the cluster's pool ---- */

struct view_bufs {
	uint8_t *exists, *up;
	uint32_t *weight, *aff;
};

static int make_view(const struct cfs_osdmap *m, struct pl_osd_view *v,
		     struct view_bufs *b)
{
	size_t n = (size_t)m->max_osd + 1;

	b->exists = calloc(n, 1);
	b->up = calloc(n, 1);
	b->weight = calloc(n, sizeof(uint32_t));
	b->aff = calloc(n, sizeof(uint32_t));
	if (!b->exists || !b->up || !b->weight || !b->aff)
		return -ENOMEM;
	for (int i = 0; i < m->max_osd; i++) {
		b->exists[i] = m->osds[i].exists != 0;
		b->up[i] = b->exists[i] && m->osds[i].up;
		b->weight[i] = m->osds[i].reweight;
		b->aff[i] = m->osds[i].primary_affinity;
	}
	*v = (struct pl_osd_view){ m->max_osd, b->exists, b->up, b->weight,
				   b->aff };
	return 0;
}

static void free_view(struct view_bufs *b)
{
	free(b->exists);
	free(b->up);
	free(b->weight);
	free(b->aff);
}

int cfs_osdmap_balance(const cfs_osdmap *m, int64_t pool,
		       const struct pl_balance_opts *o,
		       struct pl_balance_pg **out, struct pl_balance_stats *st)
{
	struct pl_balance_pg *pgs;
	struct pl_balance_opts po = *o;
	struct pl_osd_view v;
	struct view_bufs b = { 0 };
	struct pool_ovr ov;
	uint32_t pg_num;
	int r;

	*out = NULL;
	/* read only: pool_ovr hands out its arrays for changes too */
	if (pool_ovr((struct cfs_osdmap *)m, pool, &ov) || !ov.pgs)
		return -ENOENT;
	pg_num = ov.info->pg_num;
	pgs = calloc(pg_num ? pg_num : 1, sizeof(*pgs));
	r = pgs ? make_view(m, &v, &b) : -ENOMEM;
	if (r) {
		free(pgs);
		free_view(&b);
		return r;
	}
	for (uint32_t ps = 0; ps < pg_num; ps++) {
		const struct cfs_pg_mapping *pg = &ov.pgs[ps];
		const struct cfs_pg_upmap *u =
			psarr_find(*ov.upmaps, *ov.nupmaps, sizeof(**ov.upmaps),
				   ps);

		pgs[ps].nraw = pg->nraw;
		memcpy(pgs[ps].raw, pg->raw, sizeof(int) * (size_t)pg->nraw);
		if (u) {
			pgs[ps].nupmap = u->n;
			memcpy(pgs[ps].upmap, u->osds, sizeof(int) * (size_t)u->n);
			pgs[ps].nitems = u->nitems;
			memcpy(pgs[ps].items, u->items,
			       sizeof(u->items[0]) * (size_t)u->nitems);
		}
	}
	/* an erasure pool's shards keep their positions (can_shift 0) */
	po.erasure = ov.info->erasure;
	r = pl_balance_upmaps(m->crush, ov.info->crush_rule, ov.info->size, &v,
			      pgs, (int)pg_num, &po, st);
	free_view(&b);
	if (r < 0) {
		free(pgs);
		return r;
	}
	*out = pgs;
	return r;
}

int cfs_osdmap_pg_spread(const cfs_osdmap *m, int64_t pool, int *count,
			 float *target)
{
	struct pool_ovr ov;
	float total = 0;
	int r;

	if (pool_ovr((struct cfs_osdmap *)m, pool, &ov) || !ov.pgs)
		return -ENOENT;
	memset(count, 0, sizeof(int) * (size_t)m->max_osd);
	r = pl_rule_osd_weights(m->crush, ov.info->crush_rule, target, NULL,
				m->max_osd);
	if (r)
		return r;
	/* get_osds_weight: the rule's share times the reweight */
	for (int i = 0; i < m->max_osd; i++) {
		target[i] *= m->osds[i].exists ?
			(float)m->osds[i].reweight / (float)CFS_WEIGHT_ONE : 0;
		total += target[i];
	}
	for (int i = 0; i < m->max_osd; i++)
		target[i] = total > 0 ? target[i] * (float)ov.info->size *
						(float)ov.info->pg_num / total :
					0;
	for (uint32_t ps = 0; ps < ov.info->pg_num; ps++)
		for (int k = 0; k < ov.pgs[ps].nup; k++)
			if (ov.pgs[ps].up[k] >= 0 &&
			    ov.pgs[ps].up[k] < m->max_osd)
				count[ov.pgs[ps].up[k]]++;
	return 0;
}

static int map_with_reweights(const cfs_osdmap *m, const uint32_t *reweight,
			      int *moved, unsigned *base, unsigned *next,
			      unsigned *copies_moved)
{
	struct pl_osd_view v;
	struct view_bufs b = { 0 };
	uint32_t *w = calloc((size_t)m->max_osd + 1, sizeof(uint32_t));
	size_t wsize = pl_work_size(m->crush, m->pool.size);
	void *work = wsize ? malloc(wsize) : NULL;
	int r = w && work ? make_view(m, &v, &b) : -ENOMEM;

	*moved = 0;
	*copies_moved = 0;
	if (!r)
		r = pl_work_init(m->crush, work, m->pool.size);
	if (r)
		goto out;
	for (int i = 0; i < m->max_osd; i++) {
		b.weight[i] = reweight[i];
		w[i] = m->osds[i].exists ? reweight[i] : 0;
	}
	for (uint32_t ps = 0; ps < m->pool.pg_num; ps++) {
		uint32_t pps = pl_pg_pps(ps, m->pool.pgp_num, m->pool.id);
		const struct cfs_pg_upmap *u = cfs_osdmap_pg_upmap(m, ps);
		const struct cfs_pg_mapping *cur = &m->pgs[ps];
		struct pl_pg_overrides o = { .primary_temp = -1 };
		struct pl_up_acting ua;
		int raw[CFS_MAX_REP], n = 0;

		if (pl_map_rule_exists(m->crush, m->pool.crush_rule))
			n = pl_do_rule_args(m->crush, m->pool.crush_rule,
					    (int)pps, raw, m->pool.size, w,
					    m->max_osd, work,
					    pl_map_choose_args_for(m->crush,
								   m->pool.id));
		if (u) {
			o.upmap = u->osds;
			o.nupmap = u->n;
			o.items = (const int(*)[2])u->items;
			o.nitems = u->nitems;
		}
		pl_pg_up_acting(&v, 1, pps, raw, n, &o, &ua);
		if (ua.nup != cur->nup ||
		    memcmp(ua.up, cur->up, sizeof(int) * (size_t)ua.nup))
			(*moved)++;
		for (int k = 0; k < cur->nup; k++) {
			int osd = cur->up[k], found = 0;

			if (base && osd >= 0 && osd < m->max_osd)
				base[osd]++;
			for (int j = 0; j < ua.nup && !found; j++)
				found = ua.up[j] == osd;
			if (!found)
				(*copies_moved)++;
		}
		for (int k = 0; next && k < ua.nup; k++)
			if (ua.up[k] >= 0 && ua.up[k] < m->max_osd)
				next[ua.up[k]]++;
	}
out:
	free(w);
	free(work);
	free_view(&b);
	return r;
}

int cfs_osdmap_mapping_stats(const cfs_osdmap *m, const uint32_t *reweight,
			     unsigned *base, unsigned *next, unsigned *moved,
			     unsigned *total)
{
	int pgs;

	if (base)
		memset(base, 0, sizeof(*base) * (size_t)m->max_osd);
	if (next)
		memset(next, 0, sizeof(*next) * (size_t)m->max_osd);
	*total = m->pool.pg_num * m->pool.size;
	return map_with_reweights(m, reweight, &pgs, base, next, moved);
}
