/*
 * osdmap.c - osdmap snapshots: made, copied, installed and released, and
 * what one says (the accessors of osdmap.h).  A map is read from and
 * written to DIR/cluster.json by osdmap_json.c; the changes that make
 * the next epoch are osdmap_change.c's (a pg_num change is pgsplit.c's).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "osdsim_i.h"
#include "placement.h"
#include "util.h"

struct cfs_osdmap *osdmap_alloc(void)
{
	struct cfs_osdmap *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	atomic_init(&m->ref, 1);
	m->full_ratio = 0.95;
	m->backfillfull_ratio = 0.90;
	m->nearfull_ratio = 0.85;
	return m;
}

void osdmap_free(struct cfs_osdmap *m)
{
	if (!m)
		return;
	free(m->osds);
	if (m->crush)
		pl_map_destroy(m->crush);
	free(m->weights);
	free(m->pgs);
	free(m->rule_share);
	free(m->in_rule);
	free(m->upmaps);
	free(m->temps);
	free(m->ptemps);
	xpools_free(m);
	json_decref(m->ec_profiles);
	free(m);
}

int osdmap_ensure_osd(struct cfs_osdmap *m, int id)
{
	struct cfs_osd_state *n;

	if (id < 0 || id >= CFS_MAX_OSD)
		return -EINVAL;
	if (id < m->max_osd)
		return 0;
	n = realloc(m->osds, sizeof(*n) * (size_t)(id + 1));
	if (!n)
		return -ENOMEM;
	memset(n + m->max_osd, 0, sizeof(*n) * (size_t)(id + 1 - m->max_osd));
	m->osds = n;
	m->max_osd = id + 1;
	return 0;
}

/* A deep copy through the binary encoding, which keeps every weight as
 * the 16.16 value Ceph holds (the text form rounds them to three
 * decimals: a live cluster's 0.00389 would read back as 0.004 and map
 * differently). */
static int crush_clone(const pl_map *src, pl_map **out)
{
	void *bin = NULL;
	char err[256];
	size_t len = 0;
	int r = pl_map_encode(src, &bin, &len);

	if (r)
		return r;
	r = pl_map_decode(bin, len, "crushmap", out, err, sizeof(err));
	if (!r)
		r = pl_map_finalize(*out);
	if (r)
		cfs_log(CFS_LOG_ERR, "crush map does not read back: %s", err);
	free(bin);
	return r;
}

int osdmap_canon_crush(struct cfs_osdmap *m)
{
	pl_map *canon;
	int r = pl_map_finalize(m->crush);

	if (!r)
		r = crush_clone(m->crush, &canon);
	if (r)
		return r;
	pl_map_destroy(m->crush);
	m->crush = canon;
	return 0;
}

int osdmap_clone(const struct cfs_osdmap *m, struct cfs_osdmap **out)
{
	struct cfs_osdmap *n = osdmap_alloc();
	int r;

	if (!n)
		return -ENOMEM;
	n->epoch = m->epoch;
	memcpy(n->fsid, m->fsid, sizeof(n->fsid));
	n->full_ratio = m->full_ratio;
	n->backfillfull_ratio = m->backfillfull_ratio;
	n->nearfull_ratio = m->nearfull_ratio;
	n->full_policy = m->full_policy;
	n->flags = m->flags;
	n->pool = m->pool;
	n->pg_num_from = m->pg_num_from;
	n->created = m->created;
	n->modified = m->modified;
	n->last_up_change = m->last_up_change;
	n->last_in_change = m->last_in_change;
	if (m->max_osd) {
		r = osdmap_ensure_osd(n, m->max_osd - 1);
		if (r)
			goto err;
		memcpy(n->osds, m->osds, sizeof(*n->osds) * (size_t)m->max_osd);
	}
	r = crush_clone(m->crush, &n->crush);
	if (!r)
		r = upmap_copy(m, n);
	if (!r)
		r = pgtemp_copy(m, n);
	if (!r)
		r = psarr_dup((void **)&n->ptemps, &n->nptemps, m->ptemps,
			      m->nptemps, sizeof(*m->ptemps));
	if (!r && m->ec_profiles &&
	    !(n->ec_profiles = json_deep_copy(m->ec_profiles)))
		r = -ENOMEM;
	if (!r)
		r = xpools_copy(m, n);
	if (r)
		goto err;
	*out = n;
	return 0;
err:
	osdmap_free(n);
	return r;
}

/* ---- getters ---- */

const cfs_osdmap *cfs_osdmap_get(cfs_cluster *c)
{
	struct cfs_osdmap *m;

	pthread_mutex_lock(&c->map_lock);
	m = c->cur;
	atomic_fetch_add(&m->ref, 1);
	pthread_mutex_unlock(&c->map_lock);
	return m;
}

void cfs_osdmap_put(const cfs_osdmap *cm)
{
	struct cfs_osdmap *m = (struct cfs_osdmap *)cm;

	if (m && atomic_fetch_sub(&m->ref, 1) == 1)
		osdmap_free(m);
}

void osdmap_install(cfs_cluster *c, struct cfs_osdmap *m)
{
	struct cfs_osdmap *old;

	pthread_mutex_lock(&c->map_lock);
	old = c->cur;
	c->cur = m;
	/* ops waiting for an inactive PG look again (slowops.c) */
	pthread_cond_broadcast(&c->map_cond);
	pthread_mutex_unlock(&c->map_lock);
	cfs_osdmap_put(old);
}

uint32_t cfs_osdmap_epoch(const cfs_osdmap *m) { return m->epoch; }
int64_t cfs_osdmap_created(const cfs_osdmap *m) { return m->created; }
int64_t cfs_osdmap_modified(const cfs_osdmap *m) { return m->modified; }
const char *cfs_osdmap_fsid(const cfs_osdmap *m) { return m->fsid; }
const pl_map *cfs_osdmap_crush(const cfs_osdmap *m) { return m->crush; }
int cfs_osdmap_max_osd(const cfs_osdmap *m) { return m->max_osd; }
const struct cfs_pool_info *cfs_osdmap_pool(const cfs_osdmap *m)
{
	return &m->pool;
}
double cfs_osdmap_full_ratio(const cfs_osdmap *m) { return m->full_ratio; }
double cfs_osdmap_backfillfull_ratio(const cfs_osdmap *m)
{
	return m->backfillfull_ratio;
}
double cfs_osdmap_nearfull_ratio(const cfs_osdmap *m)
{
	return m->nearfull_ratio;
}
int cfs_osdmap_full_policy(const cfs_osdmap *m) { return m->full_policy; }

const char *cfs_full_policy_name(int policy)
{
	return policy == CFS_FULL_POOL ? "pool" : "osd";
}

int cfs_osdmap_exists(const cfs_osdmap *m, int id)
{
	return id >= 0 && id < m->max_osd && m->osds[id].exists;
}

int cfs_osdmap_is_up(const cfs_osdmap *m, int id)
{
	return cfs_osdmap_exists(m, id) && m->osds[id].up;
}

int cfs_osdmap_is_in(const cfs_osdmap *m, int id)
{
	return cfs_osdmap_exists(m, id) && m->osds[id].reweight > 0;
}

static uint64_t ratio_limit(const cfs_osdmap *m, int osd, double r)
{
	if (!cfs_osdmap_exists(m, osd))
		return 0;
	return (uint64_t)((long double)m->osds[osd].capacity * r);
}

uint64_t cfs_osdmap_full_limit(const cfs_osdmap *m, int osd)
{
	return ratio_limit(m, osd, m->full_ratio);
}

uint64_t cfs_osdmap_write_limit(const cfs_osdmap *m, int osd)
{
	if (m->full_policy == CFS_FULL_POOL)
		return osd >= 0 && osd < m->max_osd ? m->osds[osd].capacity : 0;
	return cfs_osdmap_full_limit(m, osd);
}

uint64_t cfs_osdmap_backfillfull_limit(const cfs_osdmap *m, int osd)
{
	return ratio_limit(m, osd, m->backfillfull_ratio);
}

uint64_t cfs_osdmap_nearfull_limit(const cfs_osdmap *m, int osd)
{
	return ratio_limit(m, osd, m->nearfull_ratio);
}

int cfs_osdmap_osd_in_rule(const cfs_osdmap *m, int osd)
{
	return osd >= 0 && osd < m->max_osd && m->in_rule && m->in_rule[osd];
}

/* The weight of id in the first bucket holding it (16.16), 0 if none. */
static uint32_t crush_item_weight(const pl_map *cm, int id)
{
	int parent = pl_map_parent(cm, id);

	if (!parent)
		return 0;
	for (int i = 0; i < pl_map_bucket_size(cm, parent); i++)
		if (pl_map_bucket_item(cm, parent, i) == id)
			return pl_map_bucket_item_weight(cm, parent, i);
	return 0;
}

int cfs_osdmap_osd(const cfs_osdmap *m, int id, struct cfs_osd_info *out)
{
	const struct cfs_osd_state *s;
	int parent;

	if (!cfs_osdmap_exists(m, id))
		return -ENOENT;
	s = &m->osds[id];
	memset(out, 0, sizeof(*out));
	out->id = id;
	out->exists = 1;
	out->up = s->up;
	out->reweight = s->reweight;
	out->primary_affinity = s->primary_affinity;
	out->capacity = s->capacity;
	out->prefill = s->prefill;
	memcpy(out->uuid, s->uuid, sizeof(out->uuid));
	out->crush_weight = crush_item_weight(m->crush, id);
	parent = pl_map_parent(m->crush, id);
	if (parent && pl_map_item_name(m->crush, parent))
		snprintf(out->host, sizeof(out->host), "%s",
			 pl_map_item_name(m->crush, parent));
	return 0;
}
