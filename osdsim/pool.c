/*
 * pool.c - the data pool's use as its quotas count it (Ceph's FULL_QUOTA:
 * the monitor flags a pool once its stats reach quota_max_bytes or
 * quota_max_objects, and clients then get EDQUOT).  `osd pool set` is
 * checked in pools.c (pool_check_change).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "osdsim_i.h"
#include "placement.h"

void cfs_pool_usage(cfs_cluster *c, const cfs_osdmap *m,
		    const struct cfs_pool_info *p, uint64_t *bytes,
		    uint64_t *objects)
{
	uint64_t raw = 0, copies = 0;
	int size = p->size > 0 ? p->size : 1;

	for (int osd = 0; osd < m->max_osd; osd++) {
		struct cfs_osd_usage u;

		if (!m->osds[osd].exists)
			continue;
		cfs_osd_pool_usage(c, osd, p->id, &u);
		raw += u.used;
		copies += u.objects;
	}
	if (bytes)
		*bytes = raw / (uint64_t)size;
	if (objects)
		*objects = copies / (uint64_t)size;
}

int cfs_pool_quota_full(cfs_cluster *c, const cfs_osdmap *m,
			const struct cfs_pool_info *p, const char **which)
{
	uint64_t bytes, objects;

	if (!p->quota_max_bytes && !p->quota_max_objects)
		return 0;
	cfs_pool_usage(c, m, p, &bytes, &objects);
	if (p->quota_max_bytes && bytes >= p->quota_max_bytes) {
		if (which)
			*which = "max_bytes";
		return 1;
	}
	if (p->quota_max_objects && objects >= p->quota_max_objects) {
		if (which)
			*which = "max_objects";
		return 1;
	}
	return 0;
}
