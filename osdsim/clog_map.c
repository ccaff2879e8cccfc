/*
 * clog_map.c - what a new osdmap epoch changed, in the cluster log.  Ceph's
 * monitor logs each change as it commits it (OSDMonitor, Ceph 16.2:
 * "osd.3 marked itself down", "osd.3 [v2:...] boot", "Client ... marked
 * osd.3 out", and the "osdmap e42: 12 total, 11 up, 12 in" summary at DBG);
 * crushfs derives the lines from the old and new maps, so that every path
 * that makes an epoch (commands, rebalance, pg_temp) is covered by the one
 * commit point.
 */
#include <stdio.h>
#include <string.h>

#include "clog.h"
#include "osdsim_i.h"

#define W(x) ((double)(x) / 0x10000)

static void osd_changes(cfs_cluster *c, const struct cfs_osdmap *a,
			const struct cfs_osdmap *b)
{
	for (int i = 0; i < b->max_osd; i++) {
		const struct cfs_osd_state *n = &b->osds[i];
		struct cfs_osd_state none = { 0 };
		const struct cfs_osd_state *o = i < a->max_osd ? &a->osds[i]
							       : &none;
		struct cfs_osd_info oi, ni;
		char who[24];

		snprintf(who, sizeof(who), "osd.%d", i);
		if (n->exists && !o->exists)
			cfs_clog(c, CFS_CLOG_INFO, "cluster", "mon.a",
				 "osd.%d created", i);
		if (!n->exists) {
			if (o->exists)
				cfs_clog(c, CFS_CLOG_INFO, "cluster", "mon.a",
					 "osd.%d destroyed", i);
			continue;
		}
		if (o->up && !n->up)
			cfs_clog(c, CFS_CLOG_INFO, "cluster", "mon.a",
				 "osd.%d marked down", i);
		if (!o->up && n->up && o->exists)
			cfs_clog(c, CFS_CLOG_INFO, "cluster", who, "osd.%d boot",
				 i);
		if (o->reweight && !n->reweight)
			cfs_clog(c, CFS_CLOG_INFO, "cluster", "mon.a",
				 "osd.%d marked out", i);
		else if (!o->reweight && n->reweight && o->exists)
			cfs_clog(c, CFS_CLOG_INFO, "cluster", "mon.a",
				 "osd.%d marked in", i);
		else if (o->reweight != n->reweight)
			cfs_clog(c, CFS_CLOG_INFO, "cluster", "mon.a",
				 "osd.%d reweight %.5f -> %.5f", i,
				 W(o->reweight), W(n->reweight));
		if (o->capacity != n->capacity && o->exists)
			cfs_clog(c, CFS_CLOG_INFO, "cluster", "mon.a",
				 "osd.%d capacity %llu -> %llu bytes", i,
				 (unsigned long long)o->capacity,
				 (unsigned long long)n->capacity);
		if (o->exists && !cfs_osdmap_osd(a, i, &oi) &&
		    !cfs_osdmap_osd(b, i, &ni) &&
		    oi.crush_weight != ni.crush_weight)
			cfs_clog(c, CFS_CLOG_INFO, "cluster", "mon.a",
				 "osd.%d crush weight %.5f -> %.5f", i,
				 W(oi.crush_weight), W(ni.crush_weight));
	}
}

static const struct cfs_pool_info *pool_in(const struct cfs_osdmap *m,
					   int64_t id)
{
	if (m->pool.id == id)
		return &m->pool;
	for (int i = 0; i < m->nxpools; i++)
		if (m->xpools[i].info.id == id)
			return &m->xpools[i].info;
	return NULL;
}

static void pool_diff(cfs_cluster *c, const struct cfs_pool_info *o,
		      const struct cfs_pool_info *n)
{
#define FIELD(f)                                                          \
	if (o->f != n->f)                                                 \
		cfs_clog(c, CFS_CLOG_INFO, "cluster", "mon.a",            \
			 "pool '%s' " #f " %lld -> %lld", n->name,        \
			 (long long)o->f, (long long)n->f);
	FIELD(size)
	FIELD(min_size)
	FIELD(pg_num)
	FIELD(pgp_num)
	FIELD(pg_num_target)
	FIELD(pgp_num_target)
	FIELD(crush_rule)
	FIELD(quota_max_bytes)
	FIELD(quota_max_objects)
#undef FIELD
}

static void pool_changes(cfs_cluster *c, const struct cfs_osdmap *a,
			 const struct cfs_osdmap *b)
{
	for (int i = -1; i < b->nxpools; i++) {
		const struct cfs_pool_info *n = i < 0 ? &b->pool
						      : &b->xpools[i].info;
		const struct cfs_pool_info *o = pool_in(a, n->id);

		if (!o)
			cfs_clog(c, CFS_CLOG_INFO, "cluster", "mon.a",
				 "pool '%s' created (id %lld)", n->name,
				 (long long)n->id);
		else
			pool_diff(c, o, n);
	}
	for (int i = -1; i < a->nxpools; i++) {
		const struct cfs_pool_info *o = i < 0 ? &a->pool
						      : &a->xpools[i].info;

		if (!pool_in(b, o->id))
			cfs_clog(c, CFS_CLOG_INFO, "cluster", "mon.a",
				 "pool '%s' removed", o->name);
	}
}

void clog_map_change(cfs_cluster *c, const struct cfs_osdmap *a,
		     const struct cfs_osdmap *b)
{
	int total = 0, up = 0, in = 0;

	osd_changes(c, a, b);
	pool_changes(c, a, b);
	if (a->nupmaps != b->nupmaps)
		cfs_clog(c, CFS_CLOG_INFO, "cluster", "mon.a",
			 "pg upmap entries %d -> %d", a->nupmaps, b->nupmaps);
	if (a->full_ratio != b->full_ratio)
		cfs_clog(c, CFS_CLOG_INFO, "cluster", "mon.a",
			 "full_ratio %g -> %g", a->full_ratio, b->full_ratio);
	if (a->nearfull_ratio != b->nearfull_ratio)
		cfs_clog(c, CFS_CLOG_INFO, "cluster", "mon.a",
			 "nearfull_ratio %g -> %g", a->nearfull_ratio,
			 b->nearfull_ratio);
	if (a->backfillfull_ratio != b->backfillfull_ratio)
		cfs_clog(c, CFS_CLOG_INFO, "cluster", "mon.a",
			 "backfillfull_ratio %g -> %g", a->backfillfull_ratio,
			 b->backfillfull_ratio);
	for (int i = 0; i < b->max_osd; i++) {
		total += b->osds[i].exists;
		up += b->osds[i].exists && b->osds[i].up;
		in += b->osds[i].exists && b->osds[i].reweight;
	}
	/* OSDMonitor::update_logger's summary line, Ceph's wording */
	cfs_clog(c, CFS_CLOG_DEBUG, "cluster", "mon.a",
		 "osdmap e%u: %d total, %d up, %d in", b->epoch, total, up,
		 in);
}
