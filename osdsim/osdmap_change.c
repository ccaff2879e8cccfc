/*
 * osdmap_change.c - the changes that each make a new epoch (`osd out`,
 * `osd crush reweight`, `osd pool create`, ...), and their dry runs.
 *
 * A change clones the current map, edits the clone, recomputes the derived
 * tables (pgtable.c), writes crushmap.txt and then cluster.json (the commit
 * point) atomically, and only then swaps the clone in.  A failure anywhere
 * leaves the installed map and the files as they were.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <jansson.h>
#include <uuid/uuid.h>

#include "osdsim_i.h"
#include "placement.h"
#include "util.h"

/* ---- dry runs ---- */

/* Per thread: the daemon runs admin commands on several threads, and a
 * dry run on one must not swallow another's real change. */
static _Thread_local int dry_on;
static _Thread_local struct cfs_osdmap *dry_result;

void cfs_dry_run_begin(void)
{
	dry_on = 1;
	cfs_osdmap_put(dry_result);
	dry_result = NULL;
}

const cfs_osdmap *cfs_dry_run_end(void)
{
	struct cfs_osdmap *m = dry_result;

	dry_on = 0;
	dry_result = NULL;
	return m;
}

int osdmap_dry_run(void)
{
	return dry_on;
}

/* ---- one change: begin, then abort or commit ---- */

int osdmap_update_begin(cfs_cluster *c, struct cfs_osdmap **next)
{
	int r;

	if (c->rdonly)
		return -EROFS;
	if (c->live)
		return CFS_ELIVE; /* cfs_import_refresh follows it instead */
	pthread_mutex_lock(&c->update_lock);
	r = osdmap_clone(c->cur, next);
	if (r)
		pthread_mutex_unlock(&c->update_lock);
	return r;
}

void osdmap_update_abort(cfs_cluster *c, struct cfs_osdmap *next)
{
	osdmap_free(next);
	pthread_mutex_unlock(&c->update_lock);
}

/* OSDMonitor::encode_pending (16.2): an epoch that changes any OSD's up
 * state (or brings a new one up) stamps last_up_change; one that takes
 * an OSD in or out (or adds one in) stamps last_in_change */
static void stamp_changes(const struct cfs_osdmap *cur, struct cfs_osdmap *next)
{
	int up = 0, in = 0;

	for (int o = 0; o < next->max_osd; o++) {
		const struct cfs_osd_state *n = &next->osds[o];
		int was = o < cur->max_osd && cur->osds[o].exists;
		int was_up = was && cur->osds[o].up;
		int was_in = was && cur->osds[o].reweight > 0;

		if (!n->exists && !was)
			continue;
		up |= (n->exists && n->up) != was_up;
		in |= (n->exists && n->reweight > 0) != was_in;
	}
	if (up)
		next->last_up_change = (int64_t)next->modified;
	if (in)
		next->last_in_change = (int64_t)next->modified;
}

int osdmap_update_commit(cfs_cluster *c, struct cfs_osdmap *next)
{
	int r;

	next->epoch = c->cur->epoch + 1;
	next->modified = time(NULL);
	stamp_changes(c->cur, next);
	/* The crush map lives as crushtool text, whose weights have three
	 * decimals: install what the text says, so that a restart maps
	 * exactly as the live map did. */
	r = osdmap_canon_crush(next);
	if (!r)
		r = osdmap_finish(next);
	/* OSDMap::clean_pg_upmaps, as the monitor runs it on each new
	 * epoch: entries the change made invalid go */
	if (!r && upmap_clean(next))
		r = osdmap_finish(next);
	/* the primaries' pg_temp requests after peering on the new map:
	 * acting stays where the data is until backfill */
	if (!r) {
		int ch = pgtemp_choose(c, c->cur, next);

		if (ch < 0)
			r = ch;
		else if (ch)
			r = osdmap_finish(next);
	}
	/* OSDMap::clean_temps for the entries crushfs does not choose (the
	 * other pools' pg_temp, primary_temp): those the change made moot */
	if (!r && temps_clean(next))
		r = osdmap_finish(next);
	if (!r && dry_on) {
		/* what would be installed, handed to cfs_dry_run_end */
		cfs_osdmap_put(dry_result);
		dry_result = next;
		pthread_mutex_unlock(&c->update_lock);
		return 0;
	}
	if (!r)
		r = osdmap_persist(c->dir, next);
	if (r) {
		osdmap_update_abort(c, next);
		return r;
	}
	/* committed: said once, in epoch order (update_lock is held and
	 * c->cur is still the map it replaces) */
	clog_map_change(c, c->cur, next);
	osdmap_install(c, next);
	pthread_mutex_unlock(&c->update_lock);
	return 0;
}

/* ---- pools ---- */

int cfs_pool_create(cfs_cluster *c, const struct cfs_pool_info *want,
		    int64_t *id, char *why, size_t whylen)
{
	struct cfs_osdmap *n;
	int r = osdmap_update_begin(c, &n);

	if (r)
		return r;
	r = xpool_check_create(n, want,
			       config_uint(c, "mon_max_pg_per_osd"), why,
			       whylen);
	if (!r)
		r = xpool_add(n, want, id);
	if (r) {
		osdmap_update_abort(c, n);
		return r;
	}
	r = osdmap_update_commit(c, n);
	/* its PGs' state, before anything can write to it */
	if (!r && !dry_on)
		r = pgstate_reload(c, *id, want->pg_num, why, whylen);
	return r;
}

/* Objects the pool holds (every copy over its size, as `df`). */
static uint64_t pool_objects(cfs_cluster *c, const struct cfs_osdmap *m,
			     const struct cfs_pool_info *p)
{
	uint64_t copies = 0;

	for (int o = 0; o < m->max_osd; o++) {
		struct cfs_osd_usage u;

		cfs_osd_pool_usage(c, o, p->id, &u);
		copies += u.objects;
	}
	return p->size > 0 ? (copies + (uint64_t)p->size - 1) /
				     (uint64_t)p->size
			   : copies;
}

int cfs_fs_add_data_pool(cfs_cluster *c, int64_t pool, char *why,
			 size_t whylen)
{
	struct cfs_osdmap *n;
	struct cfs_xpool *x;
	int r = osdmap_update_begin(c, &n);

	if (r)
		return r;
	x = xpool_find(n, pool);
	if (pool == n->pool.id || (x && x->info.fs_data)) {
		snprintf(why, whylen, "pool '%s' is already a data pool of "
			 "the filesystem",
			 x ? x->info.name : n->pool.name);
		r = -EEXIST;
	} else if (!x) {
		r = -ENOENT;
	} else if (x->info.erasure && !x->info.ec_overwrites) {
		/* FSMonitor::check_pool's words */
		snprintf(why, whylen, "pool '%s' (id '%lld') is an "
			 "erasure-coded pool, with no overwrite support",
			 x->info.name, (long long)x->info.id);
		r = -EINVAL;
	}
	if (r) {
		osdmap_update_abort(c, n);
		return r;
	}
	x->info.fs_data = 1;
	/* FileSystemCommands' add_data_pool enables cephfs on it */
	r = pool_apps_enable(x->info.apps, sizeof(x->info.apps), "cephfs",
			     "data", "crushfs");
	if (r) {
		osdmap_update_abort(c, n);
		return r;
	}
	return osdmap_update_commit(c, n);
}

int cfs_fs_rm_data_pool(cfs_cluster *c, int64_t pool, char *why,
			size_t whylen)
{
	struct cfs_osdmap *n;
	struct cfs_xpool *x;
	uint64_t objs;
	int r = osdmap_update_begin(c, &n);

	if (r)
		return r;
	x = xpool_find(n, pool);
	if (pool == n->pool.id) {
		snprintf(why, whylen, "cannot remove default data pool");
		r = -EINVAL;
	} else if (!x || !x->info.fs_data) {
		snprintf(why, whylen, "pool is not a data pool of the "
			 "filesystem");
		r = -ENOENT;
	} else if ((objs = pool_objects(c, n, &x->info)) > 0) {
		snprintf(why, whylen, "pool '%s' still holds %llu object(s) "
			 "of the filesystem's files: remove or move them "
			 "first", x->info.name, (unsigned long long)objs);
		r = -EBUSY;
	}
	if (r) {
		osdmap_update_abort(c, n);
		return r;
	}
	x->info.fs_data = 0;
	return osdmap_update_commit(c, n);
}

int cfs_pool_remove(cfs_cluster *c, int64_t id, char *why, size_t whylen)
{
	struct cfs_osdmap *n;
	int r = osdmap_update_begin(c, &n);

	if (r)
		return r;
	/* OSDMonitor::_check_remove_pool's order */
	if (cfs_fs_is_data_pool(n, id)) {
		snprintf(why, whylen, "pool '%s' is in use by CephFS",
			 cfs_osdmap_pool_by_id(n, id)->name);
		r = -EBUSY;
	} else if (!xpool_find(n, id)) {
		r = -ENOENT;
	} else if (!config_flag(c, "mon_allow_pool_delete")) {
		snprintf(why, whylen, "pool deletion is disabled; you must "
			 "first set the mon_allow_pool_delete config option to "
			 "true before you can destroy a pool");
		r = -EPERM;
	}
	if (r) {
		osdmap_update_abort(c, n);
		return r;
	}
	xpool_remove(n, id);
	return osdmap_update_commit(c, n);
}

static int pool_update(cfs_cluster *c, const struct cfs_pool_info *want,
		       char *why, size_t whylen)
{
	struct cfs_osdmap *n;
	struct cfs_xpool *x;
	uint32_t old_target = 0;
	int r = osdmap_update_begin(c, &n);

	if (r)
		return r;
	x = want->id == n->pool.id ? NULL : xpool_find(n, want->id);
	if (x || want->id == n->pool.id)
		old_target = x ? x->info.pgp_num_target : n->pool.pgp_num_target;
	if (want->id != n->pool.id && !x)
		r = -ENOENT;
	else if (x && want->pg_num != x->info.pg_num &&
		 pool_objects(c, n, &x->info)) {
		/* objects would move between PGs: that is a split
		 * (cfs_pool_set_pg_num, under the PG layout gate) */
		snprintf(why, whylen, "pool '%s' holds objects: its pg_num "
			 "changes by a PG split or merge (ol_set_pg_num)",
			 x->info.name);
		r = -EBUSY;
	} else if (x)
		r = pool_check_change(n, &x->info, want, 1,
				      config_uint(c, "mon_max_pg_per_osd"),
				      &x->info, why,
				      whylen);
	else
		r = pool_check_change(n, &n->pool, want, 0,
				      config_uint(c, "mon_max_pg_per_osd"),
				      &n->pool, why,
				      whylen);
	if (r) {
		osdmap_update_abort(c, n);
		return r;
	}
	if (dry_on && want->pgp_num_target != old_target) {
		/* a dry run of `pgp_num N` shows where rebalance's steps
		 * end (adjust_pgs.c), not the unchanged map of this epoch */
		struct cfs_pool_info *p = x ? &x->info : &n->pool;

		p->pgp_num = p->pgp_num_target < p->pg_num ? p->pgp_num_target
							    : p->pg_num;
	}
	return osdmap_update_commit(c, n);
}

int cfs_pool_update(cfs_cluster *c, const struct cfs_pool_info *want,
		    char *why, size_t whylen)
{
	const cfs_osdmap *m = cfs_osdmap_get(c);
	const struct cfs_pool_info *cur = cfs_osdmap_pool_by_id(m, want->id);
	int relayout = cur && cur->id != m->pool.id &&
		       cur->pg_num != want->pg_num;
	uint32_t from = cur ? cur->pg_num : 0;
	int r;

	cfs_osdmap_put(m);
	if (!relayout || dry_on)
		return pool_update(c, want, why, whylen);
	/* another pool's PGs are remade: nobody works with them meanwhile
	 * (the PG layout gate; the pool holds no object, pool_update
	 * checks); the (empty) folders of PGs a merge ends go */
	cfs_pg_layout_exclusive(c);
	r = pool_update(c, want, why, whylen);
	if (!r)
		r = pgsplit_finish(c, c->cur, want->id, from, want->pg_num);
	if (!r)
		r = pgstate_reload(c, want->id, want->pg_num, why, whylen);
	cfs_pg_layout_release(c);
	return r;
}

/* ---- EC profiles, pg_temp, OSDs, upmaps, crush, ratios ---- */

int cfs_ec_profile_set(cfs_cluster *c, const char *name,
		       const char *const *keys, const char *const *vals,
		       int n, int force, char *why, size_t whylen)
{
	struct cfs_osdmap *nm;
	json_t *kv = json_object(), *old;
	int r;

	if (!kv)
		return -ENOMEM;
	for (int i = 0; i < n; i++)
		json_object_set_new(kv, keys[i], json_string(vals[i]));
	r = osdmap_update_begin(c, &nm);
	if (r) {
		json_decref(kv);
		return r;
	}
	if (!nm->ec_profiles)
		nm->ec_profiles = json_object();
	old = json_object_get(nm->ec_profiles, name);
	if (old && json_equal(old, kv)) {
		json_decref(kv);
		osdmap_update_abort(c, nm);
		return -EEXIST; /* the same: nothing to do */
	}
	if (old && !force) {
		/* OSDMonitor::normalize_profile / "will not override" */
		snprintf(why, whylen, "will not override erasure code profile "
			 "%s because the existing profile is different from "
			 "the proposed one (--force overrides it)", name);
		json_decref(kv);
		osdmap_update_abort(c, nm);
		return -EPERM;
	}
	json_object_set_new(nm->ec_profiles, name, kv);
	return osdmap_update_commit(c, nm);
}

int cfs_ec_profile_rm(cfs_cluster *c, const char *name)
{
	struct cfs_osdmap *nm;
	int r = osdmap_update_begin(c, &nm);

	if (r)
		return r;
	if (!nm->ec_profiles || !json_object_get(nm->ec_profiles, name)) {
		osdmap_update_abort(c, nm);
		return -ENOENT;
	}
	json_object_del(nm->ec_profiles, name);
	return osdmap_update_commit(c, nm);
}

int cfs_pg_temp_refresh(cfs_cluster *c, int *changed)
{
	struct cfs_osdmap *next;
	int r = osdmap_update_begin(c, &next), ch;

	*changed = 0;
	if (r)
		return r;
	r = osdmap_finish(next);
	ch = r ? r : pgtemp_choose(c, c->cur, next);
	if (ch <= 0) {
		osdmap_update_abort(c, next);
		return ch;
	}
	*changed = 1;
	return osdmap_update_commit(c, next);
}

#define CHANGE_OSD(c, osd, next, body)                                        \
	do {                                                                  \
		int r_ = osdmap_update_begin(c, &next);                       \
		if (r_)                                                       \
			return r_;                                            \
		if (!cfs_osdmap_exists(next, osd)) {                          \
			osdmap_update_abort(c, next);                         \
			return -ENOENT;                                       \
		}                                                             \
		body;                                                         \
		return osdmap_update_commit(c, next);                         \
	} while (0)

int cfs_osd_mark_out(cfs_cluster *c, int osd)
{
	struct cfs_osdmap *n;

	CHANGE_OSD(c, osd, n, n->osds[osd].reweight = 0);
}

int cfs_osd_mark_in(cfs_cluster *c, int osd)
{
	struct cfs_osdmap *n;

	/* Ceph: `osd in` sets the weight back to 1.0 (CEPH_OSD_IN). */
	CHANGE_OSD(c, osd, n, osd_set_weight(n, osd, CFS_WEIGHT_ONE));
}

int cfs_osd_mark_down(cfs_cluster *c, int osd)
{
	struct cfs_osdmap *n;

	CHANGE_OSD(c, osd, n, osd_note_down(n, osd));
}

/* OSDMonitor::can_mark_down (16.2): not under nodown (OSDMap::is_nodown
 * tests the flag first), and never below mon_osd_min_up_ratio of the
 * OSDs up */
static int can_mark_down(cfs_cluster *c, const struct cfs_osdmap *m, int osd)
{
	int nosds = 0, up = 0;

	if (m->flags & CFS_OSDMAP_NODOWN) {
		cfs_log(CFS_LOG_INFO, "can_mark_down osd.%d is marked as "
			"nodown, will not mark it down", osd);
		return 0;
	}
	for (int o = 0; o < m->max_osd; o++)
		if (m->osds[o].exists) {
			nosds++;
			up += m->osds[o].up;
		}
	if (!nosds)
		return 0;
	/* Ceph compares the share up before this change, not after */
	if ((float)up / (float)nosds <
	    (float)cfs_config_double(c, "mon_osd_min_up_ratio")) {
		cfs_log(CFS_LOG_INFO, "can_mark_down current up_ratio %g < "
			"min %g, will not mark osd.%d down",
			(double)((float)up / (float)nosds),
			cfs_config_double(c, "mon_osd_min_up_ratio"), osd);
		return 0;
	}
	return 1;
}

int cfs_osd_report_failure(cfs_cluster *c, int osd)
{
	struct cfs_osdmap *n;

	CHANGE_OSD(c, osd, n, {
		if (n->osds[osd].up && !can_mark_down(c, n, osd)) {
			osdmap_update_abort(c, n);
			return -EBUSY;
		}
		osd_note_down(n, osd);
	});
}

int cfs_osd_mark_up(cfs_cluster *c, int osd)
{
	struct cfs_osdmap *n;

	/* preprocess_boot -> can_mark_up: OSDMap::is_noup is the flag (we
	 * keep no per-OSD noup); the boot is dropped, the OSD stays down */
	CHANGE_OSD(c, osd, n, {
		if (!n->osds[osd].up && (n->flags & CFS_OSDMAP_NOUP)) {
			cfs_log(CFS_LOG_INFO, "can_mark_up osd.%d is marked "
				"as noup, will not mark it up", osd);
			osdmap_update_abort(c, n);
			return -EBUSY;
		}
		osd_note_boot(c, n, osd);
	});
}

int cfs_osd_reweight(cfs_cluster *c, int osd, uint32_t weight)
{
	struct cfs_osdmap *n;

	if (weight > CFS_WEIGHT_ONE)
		return -EINVAL;
	CHANGE_OSD(c, osd, n, osd_set_weight(n, osd, weight));
}

/* one upmap change: items picks pg_upmap_items over pg_upmap */
static int change_upmap(cfs_cluster *c, int items, int64_t pool, uint32_t ps,
			const int *ids, int n, char *why, size_t whylen)
{
	struct cfs_osdmap *next;
	int r = osdmap_update_begin(c, &next);

	if (r)
		return r;
	if (items)
		r = upmap_set_items(next, pool, ps, ids, n, why, whylen);
	else
		r = upmap_set(next, pool, ps, ids, n, why, whylen);
	if (r) {
		osdmap_update_abort(c, next);
		return r;
	}
	return osdmap_update_commit(c, next);
}

int cfs_osd_pg_upmap(cfs_cluster *c, int64_t pool, uint32_t ps,
		     const int *osds, int n, char *why, size_t whylen)
{
	return change_upmap(c, 0, pool, ps, osds, n, why, whylen);
}

int cfs_osd_pg_upmap_items(cfs_cluster *c, int64_t pool, uint32_t ps,
			   const int *pairs, int npairs, char *why,
			   size_t whylen)
{
	return change_upmap(c, 1, pool, ps, pairs, npairs, why, whylen);
}

int cfs_osd_primary_affinity(cfs_cluster *c, int osd, uint32_t aff)
{
	struct cfs_osdmap *n;

	if (aff > CFS_WEIGHT_ONE)
		return -EINVAL;
	CHANGE_OSD(c, osd, n, n->osds[osd].primary_affinity = aff);
}

int cfs_osd_set_capacity(cfs_cluster *c, int osd, uint64_t bytes)
{
	struct cfs_osdmap *n;

	if (bytes > (uint64_t)INT64_MAX)
		return -ERANGE;
	CHANGE_OSD(c, osd, n, n->osds[osd].capacity = bytes);
}

int cfs_osd_crush_reweight(cfs_cluster *c, int osd, uint32_t weight)
{
	struct cfs_osdmap *n;
	int r = osdmap_update_begin(c, &n);

	if (r)
		return r;
	if (!cfs_osdmap_exists(n, osd)) {
		osdmap_update_abort(c, n);
		return -ENOENT;
	}
	r = pl_map_adjust_item_weight(n->crush, osd, weight);
	if (r) {
		osdmap_update_abort(c, n);
		return r == -ENOENT ? -ENXIO : r; /* not in the crush tree */
	}
	return osdmap_update_commit(c, n);
}

int cfs_osd_setcrushmap(cfs_cluster *c, pl_map *crush, char *why,
			size_t whylen)
{
	struct cfs_osdmap *n;
	int r, rule;

	if (!crush)
		return -EINVAL;
	r = osdmap_update_begin(c, &n);
	if (r) {
		pl_map_destroy(crush);
		return r;
	}
	/* OSDMap::validate_crush_rules: the pool's rule must be there and
	 * be a replicated one */
	rule = n->pool.crush_rule;
	if (!pl_map_rule_exists(crush, rule) ||
	    pl_map_rule_type(crush, rule) != PL_RULE_TYPE_REPLICATED) {
		snprintf(why, whylen, "pool %lld references crush_rule %d but "
			 "it is not present (or not replicated)",
			 (long long)n->pool.id, rule);
		pl_map_destroy(crush);
		osdmap_update_abort(c, n);
		return -EINVAL;
	}
	pl_map_destroy(n->crush);
	n->crush = crush;
	return osdmap_update_commit(c, n);
}

static int set_ratio(cfs_cluster *c, int which, double v)
{
	struct cfs_osdmap *n;
	int r;

	if (!(v > 0 && v <= 1.0))
		return -EINVAL;
	r = osdmap_update_begin(c, &n);
	if (r)
		return r;
	if (which == 0)
		n->full_ratio = v;
	else if (which == 1)
		n->backfillfull_ratio = v;
	else
		n->nearfull_ratio = v;
	return osdmap_update_commit(c, n);
}

int cfs_set_full_ratio(cfs_cluster *c, double r) { return set_ratio(c, 0, r); }
int cfs_set_backfillfull_ratio(cfs_cluster *c, double r)
{
	return set_ratio(c, 1, r);
}
int cfs_set_nearfull_ratio(cfs_cluster *c, double r)
{
	return set_ratio(c, 2, r);
}

int cfs_set_full_policy(cfs_cluster *c, int policy)
{
	struct cfs_osdmap *n;
	int r;

	if (policy != CFS_FULL_OSD && policy != CFS_FULL_POOL)
		return -EINVAL;
	r = osdmap_update_begin(c, &n);
	if (r)
		return r;
	n->full_policy = policy;
	return osdmap_update_commit(c, n);
}

int cfs_size_crush_weight(uint64_t bytes, uint32_t *weight)
{
	/* (bytes << 16) >> 40 without the overflow of bytes << 16 past
	 * 256 TiB: the weight truncated to 16.16, as the mon's float
	 * conversion truncates */
	uint64_t w = bytes >> 24;

	if (w > CFS_MAX_DEVICE_WEIGHT)
		return -ERANGE;
	*weight = w < CFS_MIN_CRUSH_WEIGHT ? CFS_MIN_CRUSH_WEIGHT : (uint32_t)w;
	return 0;
}

/* The first bucket that no other bucket holds (a root), 0 if none. */
static int first_root(const pl_map *cm)
{
	for (int pos = 0; pos < pl_map_max_buckets(cm); pos++) {
		int id = -1 - pos;

		if (pl_map_bucket_exists(cm, id) && !pl_map_parent(cm, id) &&
		    !pl_map_bucket_is_shadow(cm, id))
			return id;
	}
	return 0;
}

int cfs_osd_add(cfs_cluster *c, const char *host, uint64_t size, int *idout)
{
	struct cfs_osdmap *n;
	struct osd_store *s;
	char name[32];
	int r, id, hid, htype, root;
	uint32_t w;
	uuid_t u;

	if (!host || !*host || strlen(host) > 60)
		return -EINVAL;
	if (size == 0 || cfs_size_crush_weight(size, &w))
		return -ERANGE;
	r = osdmap_update_begin(c, &n);
	if (r)
		return r;
	/* Ceph gives a new OSD the lowest free id (OSDMonitor::prepare_new). */
	for (id = 0; id < CFS_MAX_OSD; id++)
		if (!cfs_osdmap_exists(n, id) &&
		    !pl_map_device_in_buckets(n->crush, id))
			break;
	if (id >= CFS_MAX_OSD) {
		r = -ENOSPC;
		goto fail;
	}
	if (pl_map_item_by_name(n->crush, host, &hid) == 0) {
		if (hid >= 0) {
			r = -ENOTDIR; /* the name is a device, not a bucket */
			goto fail;
		}
	} else {
		if (pl_map_type_by_name(n->crush, "host", &htype))
			htype = 1;
		root = first_root(n->crush);
		if (!root) {
			r = -ENOENT;
			goto fail;
		}
		r = pl_map_add_bucket(n->crush, 0, PL_BUCKET_STRAW2,
				      PL_HASH_RJENKINS1, htype, 0, NULL, NULL,
				      &hid);
		if (!r)
			r = pl_map_set_item_name(n->crush, hid, host);
		if (!r)
			r = pl_map_bucket_add_item(n->crush, root, hid, 0);
		if (r)
			goto fail;
	}
	snprintf(name, sizeof(name), "osd.%d", id);
	if (!pl_map_device_declared(n->crush, id)) {
		r = pl_map_add_device(n->crush, id, name);
		if (r)
			goto fail;
	}
	r = pl_map_bucket_add_item(n->crush, hid, id, w);
	if (r)
		goto fail;
	r = pl_map_finalize(n->crush);
	if (r)
		goto fail;
	r = osdmap_ensure_osd(n, id);
	if (r)
		goto fail;
	uuid_generate(u);
	uuid_unparse_lower(u, n->osds[id].uuid);
	n->osds[id].exists = 1;
	n->osds[id].up = 1;
	n->osds[id].reweight = CFS_WEIGHT_ONE;
	n->osds[id].primary_affinity = CFS_WEIGHT_ONE;
	n->osds[id].capacity = size;
	/* The OSD's folder first: a crash before the map commits leaves an
	 * empty osd.N that the next `osd add` reuses. */
	if (!dry_on) {
		r = osd_store_create(c->dir, id, n->osds[id].uuid);
		if (r)
			goto fail;
		r = store_open(c, id, &s);
		if (r)
			goto fail;
	}
	r = osdmap_update_commit(c, n);
	if (!r && idout)
		*idout = id;
	return r;
fail:
	osdmap_update_abort(c, n);
	return r;
}
