/*
 * health.c - space figures of the pool: `ceph df` MAX AVAIL and the pool
 * full flag of policy `pool`.
 */
#include <errno.h>

#include "osdsim_i.h"

/*
 * PGMap::get_rule_avail (Ceph 16.2): for each OSD under the rule, the bytes
 * it can still take before full_ratio, divided by its share of the rule's
 * CRUSH weight, is how much the whole rule could take before that OSD is
 * full; the smallest such projection wins.  Out OSDs report no stats and
 * are skipped, as are OSDs with no weight.  PGMapDigest::get_pool_free_space
 * then divides by the pool's raw used rate (its size, replicated).  The
 * float/double mix is Ceph's.
 */
uint64_t cfs_pool_max_avail(cfs_cluster *c, const cfs_osdmap *m)
{
	float fratio = (float)m->full_ratio;
	int64_t min = -1;

	for (int osd = 0; osd < m->max_osd; osd++) {
		struct cfs_osd_usage u;
		int64_t kb, kb_avail, proj;
		double unusable, avail;
		float share = m->rule_share ? m->rule_share[osd] : 0;

		if (!m->in_rule || !m->in_rule[osd] ||
		    !cfs_osdmap_exists(m, osd))
			continue;
		if (m->osds[osd].reweight == 0 || m->osds[osd].capacity == 0 ||
		    share == 0)
			continue;
		cfs_osd_usage(c, osd, &u);
		kb = (int64_t)(m->osds[osd].capacity >> 10);
		kb_avail = u.used >= m->osds[osd].capacity
				   ? 0
				   : (int64_t)((m->osds[osd].capacity - u.used) >>
					       10);
		unusable = (double)kb * (1.0 - fratio);
		avail = (double)kb_avail - unusable;
		if (avail < 0.0)
			avail = 0.0;
		avail *= 1024.0;
		proj = (int64_t)(avail / (double)share);
		if (min < 0 || proj < min)
			min = proj;
	}
	if (min < 0)
		return 0;
	return (uint64_t)min / (uint64_t)m->pool.size;
}

int cfs_pool_is_full(cfs_cluster *c, const cfs_osdmap *m, int *osdout)
{
	for (int osd = 0; osd < m->max_osd; osd++) {
		struct cfs_osd_usage u;

		if (!m->in_rule || !m->in_rule[osd] ||
		    !cfs_osdmap_is_up(m, osd) || !cfs_osdmap_is_in(m, osd))
			continue;
		cfs_osd_usage(c, osd, &u);
		if (u.used >= cfs_osdmap_full_limit(m, osd)) {
			if (osdout)
				*osdout = osd;
			return 1;
		}
	}
	return 0;
}
