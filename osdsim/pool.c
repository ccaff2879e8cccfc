/*
 * pool.c - `osd pool set` and quotas on the cluster's pool, checked as
 * Ceph 16.2's OSDMonitor::prepare_command_pool_set checks them, and the
 * pool's use as quotas count it (Ceph's FULL_QUOTA: the monitor flags a
 * pool once its stats reach quota_max_bytes or quota_max_objects, and
 * clients then get EDQUOT).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "osdsim_i.h"
#include "placement.h"

/* CrushWrapper::check_crush_rule: a rule of the pool's type whose
 * min_size..max_size holds the size. */
static int rule_ok(const pl_map *cm, int rule, int size, char *why,
		   size_t whylen)
{
	if (!pl_map_rule_exists(cm, rule)) {
		snprintf(why, whylen, "crush rule %d does not exist", rule);
		return -ENOENT;
	}
	if (pl_map_rule_type(cm, rule) != PL_RULE_TYPE_REPLICATED) {
		snprintf(why, whylen, "crush rule %d (%s) is not a replicated "
			 "rule", rule, pl_map_rule_name(cm, rule) ?
			 pl_map_rule_name(cm, rule) : "?");
		return -EINVAL;
	}
	if (size < pl_map_rule_min_size(cm, rule) ||
	    size > pl_map_rule_max_size(cm, rule)) {
		snprintf(why, whylen, "crush rule %d (%s) does not accept "
			 "size %d (min_size %d, max_size %d)", rule,
			 pl_map_rule_name(cm, rule) ?
			 pl_map_rule_name(cm, rule) : "?", size,
			 pl_map_rule_min_size(cm, rule),
			 pl_map_rule_max_size(cm, rule));
		return -EINVAL;
	}
	return 0;
}

int pool_check_update(struct cfs_osdmap *m, const struct cfs_pool_info *want,
		      char *why, size_t whylen)
{
	struct cfs_pool_info p = m->pool;
	int r;

	if (want->id != p.id || strcmp(want->name, p.name) ||
	    want->object_size != p.object_size ||
	    want->stripe_unit != p.stripe_unit ||
	    want->stripe_count != p.stripe_count) {
		snprintf(why, whylen, "only size, min_size, crush_rule and "
			 "the quotas can change");
		return -EINVAL;
	}
	if (want->pg_num != p.pg_num) {
		snprintf(why, whylen, "pg_num changes go through "
			 "cfs_pool_set_pg_num (files move)");
		return -EINVAL;
	}
	if (want->pgp_num != p.pgp_num) {
		/* OSDMonitor: placement only, at most pg_num */
		if (want->pgp_num == 0 || want->pgp_num > (uint32_t)INT32_MAX) {
			snprintf(why, whylen, "specified pgp_num must > 0, but "
				 "you set to %d", (int)want->pgp_num);
			return -EINVAL;
		}
		if (want->pgp_num > p.pg_num) {
			snprintf(why, whylen, "specified pgp_num %u > pg_num %u",
				 want->pgp_num, p.pg_num);
			return -EINVAL;
		}
		p.pgp_num = want->pgp_num;
	}
	if (want->size != p.size) {
		/* Ceph: 1..10; a size of 1 needs mon_allow_pool_size_one */
		if (want->size <= 0 || want->size > 10 ||
		    want->size > CFS_MAX_REP) {
			snprintf(why, whylen,
				 "pool size must be between 1 and 10");
			return -EINVAL;
		}
		r = rule_ok(m->crush, p.crush_rule, want->size, why, whylen);
		if (r)
			return r;
		p.size = want->size;
		/* the monitor resets min_size to the default for the new
		 * size (osd_pool_default_min_size 0: size - size/2) */
		if (want->min_size == m->pool.min_size)
			p.min_size = p.size - p.size / 2;
	}
	if (want->min_size != m->pool.min_size) {
		if (want->min_size < 1 || want->min_size > p.size) {
			snprintf(why, whylen, "pool min_size must be between 1 "
				 "and size, which is set to %d", p.size);
			return -EINVAL;
		}
		p.min_size = want->min_size;
	}
	if (want->crush_rule != p.crush_rule) {
		r = rule_ok(m->crush, want->crush_rule, p.size, why, whylen);
		if (r)
			return r;
		p.crush_rule = want->crush_rule;
	}
	p.quota_max_bytes = want->quota_max_bytes;
	p.quota_max_objects = want->quota_max_objects;
	m->pool = p;
	return 0;
}

void cfs_pool_usage(cfs_cluster *c, const cfs_osdmap *m, uint64_t *bytes,
		    uint64_t *objects)
{
	uint64_t raw = 0, copies = 0;
	int size = m->pool.size > 0 ? m->pool.size : 1;

	for (int osd = 0; osd < m->max_osd; osd++) {
		struct cfs_osd_usage u;

		if (!m->osds[osd].exists)
			continue;
		cfs_osd_usage(c, osd, &u);
		raw += u.used;
		copies += u.objects;
	}
	if (bytes)
		*bytes = raw / (uint64_t)size;
	if (objects)
		*objects = copies / (uint64_t)size;
}

int cfs_pool_quota_full(cfs_cluster *c, const cfs_osdmap *m,
			const char **which)
{
	uint64_t bytes, objects;

	if (!m->pool.quota_max_bytes && !m->pool.quota_max_objects)
		return 0;
	cfs_pool_usage(c, m, &bytes, &objects);
	if (m->pool.quota_max_bytes && bytes >= m->pool.quota_max_bytes) {
		if (which)
			*which = "max_bytes";
		return 1;
	}
	if (m->pool.quota_max_objects &&
	    objects >= m->pool.quota_max_objects) {
		if (which)
			*which = "max_objects";
		return 1;
	}
	return 0;
}
