/*
 * pgtemp.c - pg_temp: the acting set a PG keeps while its up set cannot
 * serve it yet, as Ceph 16.2's primary asks the monitor for one after
 * peering (PeeringState::choose_acting -> calc_replicated_acting, then
 * queue_want_pg_temp).
 *
 * A map change moves a PG's up set at once (CRUSH), but the OSDs it now
 * names may not hold its objects.  Ceph keeps I/O on the OSDs that do:
 * the acting set becomes the complete members of up, then the complete
 * members of the old acting set, then any other complete holder, up to
 * the pool size, and stays so (a pg_temp entry in the osdmap) until
 * backfill has made the up set complete.  The PG then shows
 * active+remapped+backfill_wait and its objects count as misplaced, not
 * missing.  "Complete" is Ceph's "not a backfill target": an up OSD that
 * holds the PG's folder and is not a backfill target still catching up
 * (one that only missed some writes or holds a damaged copy stays: Ceph
 * recovers it from the log and keeps it acting), or any up OSD when the
 * PG holds no object at all.
 *
 * An erasure pool's shards are not interchangeable: its acting set is
 * chosen position by position (calc_ec_acting, choose_acting_ec), with
 * holes where no OSD can serve a shard.
 *
 * Entries are chosen whenever an epoch is made (osdmap_update_commit)
 * and when rebalance asks after backfilling (cfs_pg_temp_refresh); they
 * live in cluster.json as `ceph osd dump -f json` prints them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "osdsim_i.h"
#include "placement.h"
#include "util.h"

static int find(const struct cfs_osdmap *m, uint32_t ps, int *at)
{
	int lo = 0, hi = m->ntemps;

	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (m->temps[mid].ps < ps)
			lo = mid + 1;
		else
			hi = mid;
	}
	*at = lo;
	return lo < m->ntemps && m->temps[lo].ps == ps;
}

const struct cfs_pg_temp *cfs_osdmap_pg_temp(const cfs_osdmap *m,
					     uint32_t ps)
{
	int at;

	return find(m, ps, &at) ? &m->temps[at] : NULL;
}

const struct cfs_pg_temp *cfs_osdmap_pg_temps(const cfs_osdmap *m, int *n)
{
	*n = m->ntemps;
	return m->temps;
}

int pgtemp_copy(const struct cfs_osdmap *from, struct cfs_osdmap *to)
{
	free(to->temps);
	to->temps = NULL;
	to->ntemps = 0;
	if (!from->ntemps)
		return 0;
	to->temps = malloc(sizeof(*to->temps) * (size_t)from->ntemps);
	if (!to->temps)
		return -ENOMEM;
	memcpy(to->temps, from->temps, sizeof(*to->temps) * (size_t)from->ntemps);
	to->ntemps = from->ntemps;
	return 0;
}

/* Does any holder of the PG have an object (or miss one)?  Needs
 * cfs_pg_lock. */
static int pg_has_data(cfs_cluster *c, int64_t pool, uint32_t ps,
		       const int *h, int nh)
{
	for (int i = 0; i < nh; i++) {
		struct cfs_obj_entry *e;
		size_t ne;

		if (cfs_pg_missing_count(c, pool, ps, h[i]))
			return 1;
		if (cfs_pg_list_names(c, h[i], pool, ps, &e, &ne))
			return 1; /* unreadable: assume data, keep it safe */
		cfs_obj_entries_free(e, ne);
		if (ne)
			return 1;
	}
	return 0;
}

/*
 * The acting set the PG wants on map m, want[] with room for CFS_MAX_REP;
 * returns its length, 0 when there is nothing to choose from (no complete
 * OSD: acting stays the up set).  old: the acting set the PG had.
 */
static int choose_acting(cfs_cluster *c, const struct cfs_osdmap *m,
			 const struct cfs_pool_info *pi,
			 const struct cfs_pg_mapping *pg, uint32_t ps,
			 const int *old, int nold, int temp_primary, int *want)
{
	int64_t pool = pi->id;
	int size = pi->size, nw = 0, h[256], nh, data = -1;
	int cand[CFS_MAX_REP * 2 + 256], ncand = 0, complete[CFS_MAX_REP * 2 + 256];
	int primary = -1;

	/* an empty up set has no primary to ask for one (Ceph: the PG goes
	 * stale); a PG nobody holds is empty and up serves it */
	if (pg->nup == 0)
		return 0;
	nh = cfs_pg_holders(c, pool, ps, h, 256);
	if (nh == 0)
		return 0;
	/* candidates in Ceph's order of preference: up, acting, strays */
	for (int i = 0; i < pg->nup; i++)
		cand[ncand++] = pg->up[i];
	for (int i = 0; i < nold; i++)
		if (!cfs_in_set(cand, ncand, old[i]))
			cand[ncand++] = old[i];
	for (int i = 0; i < nh; i++)
		if (!cfs_in_set(cand, ncand, h[i]))
			cand[ncand++] = h[i];
	for (int i = 0; i < ncand; i++) {
		int o = cand[i];

		complete[i] = 0;
		if (o < 0 || o >= m->max_osd || !m->osds[o].exists ||
		    !m->osds[o].up)
			continue;
		if (cfs_pg_is_holder(c, pool, ps, o)) {
			complete[i] = !cfs_pg_is_backfill(c, pool, ps, o);
		} else {
			if (data < 0)
				data = pg_has_data(c, pool, ps, h, nh);
			complete[i] = !data;
		}
	}
	/* calc_replicated_acting: the up primary if it can serve, else
	 * auth_log_shard, find_best_info's pick among complete copies (all
	 * with the same log here): one missing nothing, then the OSD doing
	 * the peering (the primary a pg_temp already gave the PG), then the
	 * first in OSD id order */
	for (int i = 0; i < ncand; i++)
		if (cand[i] == pg->up_primary && complete[i])
			primary = cand[i];
	if (primary < 0) {
		int best_rank = -1;

		for (int i = 0; i < ncand; i++) {
			int rank;

			if (!complete[i])
				continue;
			rank = (cfs_pg_missing_count(c, pool, ps, cand[i]) == 0) * 2 +
			       (cand[i] == temp_primary);
			if (rank > best_rank ||
			    (rank == best_rank && cand[i] < primary)) {
				primary = cand[i];
				best_rank = rank;
			}
		}
	}
	if (primary < 0)
		return 0;
	want[nw++] = primary;
	for (int i = 0; i < ncand && nw < size && nw < CFS_MAX_REP; i++)
		if (complete[i] && cand[i] != primary)
			want[nw++] = cand[i];
	return nw;
}

/* Can osd serve shard PG sps (an erasure pool's shard position)?  Up,
 * and a holder that is not a backfill target still catching up, or any
 * up OSD when no holder has data of it.  Needs cfs_pg_lock on sps. */
static int shard_serves(cfs_cluster *c, const struct cfs_osdmap *m,
			int64_t pool, uint32_t sps, int o, const int *h,
			int nh, int *data)
{
	if (o < 0 || o == PL_ITEM_NONE || o >= m->max_osd ||
	    !m->osds[o].exists || !m->osds[o].up)
		return 0;
	if (cfs_pg_is_holder(c, pool, sps, o))
		return !cfs_pg_is_backfill(c, pool, sps, o);
	if (*data < 0)
		*data = pg_has_data(c, pool, sps, h, nh);
	return !*data;
}

/*
 * An erasure pool's acting set, position by position as Ceph 16.2's
 * PeeringState::calc_ec_acting chooses it: up[i] when it can serve shard
 * i, else the old acting[i] when it can, else another holder of shard i
 * that can (a stray with the shard), else a hole.  A position nobody can
 * serve keeps up[i] when no holder has data of it (a new PG).  Returns
 * the pool size; want[] has holes as PL_ITEM_NONE.
 */
static int choose_acting_ec(cfs_cluster *c, const struct cfs_osdmap *m,
			    const struct cfs_pool_info *pi,
			    const struct cfs_pg_mapping *pg, uint32_t ps,
			    const int *old, int nold, int *want)
{
	int width = pi->size;

	if (pg->nup == 0 || width > CFS_MAX_REP)
		return 0;
	for (int i = 0; i < width; i++) {
		uint32_t sps = cfs_shard_ps(ps, width, i);
		int u = i < pg->nup ? pg->up[i] : PL_ITEM_NONE;
		int h[256], nh, data = -1;

		cfs_pg_lock(c, pi->id, sps);
		nh = cfs_pg_holders(c, pi->id, sps, h, 256);
		want[i] = PL_ITEM_NONE;
		if (shard_serves(c, m, pi->id, sps, u, h, nh, &data))
			want[i] = u;
		else if (i < nold &&
			 shard_serves(c, m, pi->id, sps, old[i], h, nh, &data))
			want[i] = old[i];
		else
			for (int k = 0; k < nh && want[i] == PL_ITEM_NONE; k++)
				if (shard_serves(c, m, pi->id, sps, h[k], h, nh,
						 &data))
					want[i] = h[k];
		cfs_pg_unlock(c, pi->id, sps);
	}
	return width;
}

/* One pool's entries: 1 when they change (o's installed), 0, -errno. */
static int choose_pool(cfs_cluster *c, const struct cfs_osdmap *prev,
		       struct cfs_osdmap *next, struct pool_ovr *o)
{
	const struct cfs_pool_info *pi = o->info;
	uint32_t pg_num = pi->pg_num;
	struct pool_pgs *pp = pgstate_pool(c, pi->id);
	struct pool_ovr po;
	const struct cfs_pg_mapping *prev_pgs = NULL;
	struct cfs_pg_temp *v = NULL;
	int nv = 0, cap = 0, changed = 0;

	/* the PG state must describe these PGs (not a pg_num ago) */
	if (!pp || pg_num != pp->pg_num || !o->pgs)
		return 0;
	if (prev && !pool_ovr((struct cfs_osdmap *)prev, pi->id, &po) &&
	    po.info->pg_num == pg_num)
		prev_pgs = po.pgs;
	for (uint32_t ps = 0; ps < pg_num; ps++) {
		const struct cfs_pg_mapping *pg = &o->pgs[ps];
		const struct cfs_pg_mapping *was =
			prev_pgs ? &prev_pgs[ps] : NULL;
		const struct cfs_pg_temp *cur =
			psarr_find(*o->temps, *o->ntemps, sizeof(**o->temps),
				   ps);
		int want[CFS_MAX_REP], nw;

		if (pi->erasure) {
			nw = choose_acting_ec(c, next, pi, pg, ps,
					      was ? was->acting : NULL,
					      was ? was->nacting : 0, want);
		} else {
			cfs_pg_lock(c, pi->id, ps);
			nw = choose_acting(c, next, pi, pg, ps,
					   was ? was->acting : NULL,
					   was ? was->nacting : 0,
					   cur ? cur->osds[0] : -1, want);
			cfs_pg_unlock(c, pi->id, ps);
		}
		/* the up set serves: no entry (Ceph clears it) */
		if (nw == 0 || (nw == pg->nup &&
				!memcmp(want, pg->up, sizeof(int) * (size_t)nw)))
			nw = 0;
		if (!cur != !nw || (cur && (cur->n != nw ||
					    memcmp(cur->osds, want,
						   sizeof(int) * (size_t)nw))))
			changed = 1;
		if (!nw)
			continue;
		if (nv == cap) {
			int nc = cap ? cap * 2 : 16;
			struct cfs_pg_temp *nvv =
				realloc(v, sizeof(*v) * (size_t)nc);

			if (!nvv) {
				free(v);
				return -ENOMEM;
			}
			v = nvv;
			cap = nc;
		}
		memset(&v[nv], 0, sizeof(v[nv]));
		v[nv].ps = ps;
		v[nv].n = nw;
		memcpy(v[nv].osds, want, sizeof(int) * (size_t)nw);
		nv++;
	}
	if (!changed) {
		free(v);
		return 0;
	}
	free(*o->temps);
	*o->temps = v;
	*o->ntemps = nv;
	return 1;
}

int pgtemp_choose(cfs_cluster *c, const struct cfs_osdmap *prev,
		  struct cfs_osdmap *next)
{
	int changed = 0;

	/* every pool that can hold objects, replicated or erasure */
	for (int i = 0; i < cfs_osdmap_npools(next); i++) {
		struct pool_ovr o;
		int r;

		if (pool_ovr(next, cfs_osdmap_pool_at(next, i)->id, &o))
			continue;
		r = choose_pool(c, prev, next, &o);
		if (r < 0)
			return r;
		changed |= r;
	}
	return changed;
}

/* ---- cluster.json: `ceph osd dump -f json`'s "pg_temp" ---- */

/* pg_temp and primary_temp of every pool, by pool then seed (Ceph's
 * maps keyed by pg_t) */
int temps_to_json(const struct cfs_osdmap *m, json_t **temps, json_t **ptemps)
{
	char pgid[32];

	*temps = json_array();
	*ptemps = json_array();
	for (int p = 0; *temps && *ptemps && p < cfs_osdmap_npools(m); p++) {
		int64_t id = cfs_osdmap_pool_at(m, p)->id;
		int n, np;
		const struct cfs_pg_temp *t = cfs_pool_pg_temps(m, id, &n);
		const struct cfs_pg_ptemp *pt =
			cfs_pool_primary_temps(m, id, &np);

		for (int i = 0; i < n; i++) {
			json_t *osds = json_array();

			for (int j = 0; j < t[i].n; j++)
				json_array_append_new(osds,
						      json_integer(t[i].osds[j]));
			snprintf(pgid, sizeof(pgid), "%lld.%x", (long long)id,
				 t[i].ps);
			json_array_append_new(*temps,
					      json_pack("{s:s, s:o}", "pgid",
							pgid, "osds", osds));
		}
		for (int i = 0; i < np; i++) {
			snprintf(pgid, sizeof(pgid), "%lld.%x", (long long)id,
				 pt[i].ps);
			json_array_append_new(*ptemps,
					      json_pack("{s:s, s:i}", "pgid",
							pgid, "osd", pt[i].osd));
		}
	}
	if (*temps && *ptemps)
		return 0;
	json_decref(*temps);
	json_decref(*ptemps);
	return -ENOMEM;
}

json_t *cfs_osdmap_overrides_json(const cfs_osdmap *m)
{
	json_t *o = upmap_to_json(m), *t, *pt;

	if (!o || temps_to_json(m, &t, &pt)) {
		json_decref(o);
		return NULL;
	}
	json_object_set_new(o, "pg_temp", t);
	json_object_set_new(o, "primary_temp", pt);
	return o;
}

/* An osd id of m (or, for an erasure pool's pg_temp, a hole) */
static int temp_osd(const struct cfs_osdmap *m, json_t *x, int hole_ok,
		    int *out)
{
	json_int_t id = json_is_integer(x) ? json_integer_value(x) : -2;

	if (!(hole_ok && id == PL_ITEM_NONE) && (id < 0 || id >= m->max_osd))
		return -1;
	*out = (int)id;
	return 0;
}

int pgtemp_from_json(struct cfs_osdmap *m, json_t *root, char *err,
		     size_t errlen)
{
	json_t *arr = json_object_get(root, "pg_temp"), *e;
	size_t i;

	if (!arr)
		return 0; /* written before pg_temp existed */
	if (!json_is_array(arr)) {
		snprintf(err, errlen, "pg_temp: not an array");
		return -EINVAL;
	}
	json_array_foreach(arr, i, e) {
		json_t *pg = json_object_get(e, "pgid");
		json_t *list = json_object_get(e, "osds"), *x;
		struct cfs_pg_temp *t;
		struct pool_ovr po;
		uint32_t ps;
		int had;
		size_t j;

		if (!json_is_string(pg) ||
		    pgid_parse_any(m, json_string_value(pg), &po, &ps) ||
		    !json_is_array(list) || !json_array_size(list) ||
		    json_array_size(list) > CFS_MAX_REP) {
			snprintf(err, errlen, "pg_temp[%zu]", i);
			return -EINVAL;
		}
		had = *po.ntemps;
		t = psarr_slot((void **)po.temps, po.ntemps, sizeof(*t), ps);
		if (!t) {
			snprintf(err, errlen, "out of memory");
			return -ENOMEM;
		}
		if (had == *po.ntemps) {
			snprintf(err, errlen, "pg_temp[%zu] (a second entry "
				 "for %s)", i, json_string_value(pg));
			return -EINVAL;
		}
		json_array_foreach(list, j, x) {
			if (temp_osd(m, x, po.info->erasure, &t->osds[j])) {
				snprintf(err, errlen, "pg_temp[%zu] (an osd id)",
					 i);
				return -EINVAL;
			}
		}
		t->n = (int)json_array_size(list);
	}
	return 0;
}

int ptemp_from_json(struct cfs_osdmap *m, json_t *root, char *err,
		    size_t errlen)
{
	json_t *arr = json_object_get(root, "primary_temp"), *e;
	size_t i;

	if (!arr)
		return 0;
	if (!json_is_array(arr)) {
		snprintf(err, errlen, "primary_temp: not an array");
		return -EINVAL;
	}
	json_array_foreach(arr, i, e) {
		json_t *pg = json_object_get(e, "pgid");
		struct cfs_pg_ptemp *t;
		struct pool_ovr po;
		uint32_t ps;
		int had, osd;

		if (!json_is_string(pg) ||
		    pgid_parse_any(m, json_string_value(pg), &po, &ps) ||
		    temp_osd(m, json_object_get(e, "osd"), 0, &osd)) {
			snprintf(err, errlen, "primary_temp[%zu]", i);
			return -EINVAL;
		}
		had = *po.nptemps;
		t = psarr_slot((void **)po.ptemps, po.nptemps, sizeof(*t), ps);
		if (!t) {
			snprintf(err, errlen, "out of memory");
			return -ENOMEM;
		}
		if (had == *po.nptemps) {
			snprintf(err, errlen, "primary_temp[%zu] (a second "
				 "entry for %s)", i, json_string_value(pg));
			return -EINVAL;
		}
		t->osd = osd;
	}
	return 0;
}
