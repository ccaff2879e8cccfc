/*
 * montick.c - what Ceph's monitor does on its own as time passes
 * (OSDMonitor::tick, 16.2): an OSD down for mon_osd_down_out_interval is
 * marked out, so that its PGs are remapped and backfilled elsewhere,
 * unless noout says the operator will bring it back.  The mounted
 * daemon calls cfs_mon_tick() about once a second.
 */
#include <errno.h>

#include "osdsim_i.h"
#include "util.h"

int cfs_mon_tick(cfs_cluster *c, int64_t now, int64_t since,
		 void (*cb)(int osd, int64_t secs, void *arg), void *arg,
		 int *held)
{
	uint32_t grace = config_uint(c, "mon_osd_down_out_interval");
	double min_in = cfs_config_double(c, "mon_osd_min_in_ratio");
	const cfs_osdmap *m = cfs_osdmap_get(c);
	struct cfs_osdmap *n = NULL;
	int nosds = 0, nin = 0, marked = 0, r = 0;

	*held = 0;
	if (!grace) {
		cfs_osdmap_put(m);
		return 0;
	}
	for (int o = 0; o < m->max_osd; o++)
		if (m->osds[o].exists) {
			nosds++;
			nin += m->osds[o].reweight > 0;
		}
	for (int o = 0; o < m->max_osd; o++) {
		const struct cfs_osd_state *s = &m->osds[o];
		int64_t from = s->down_stamp > since ? s->down_stamp : since;

		if (!s->exists || s->up || !s->reweight || now - from < grace)
			continue;
		/* OSDMonitor::can_mark_out */
		if (m->flags & CFS_OSDMAP_NOOUT) {
			(*held)++;
			continue;
		}
		if (!nosds || (float)(nin - marked) / (float)nosds < min_in)
			continue;
		if (!n) {
			r = osdmap_update_begin(c, &n);
			if (r)
				break;
		}
		/* the map may have moved since m was taken */
		if (o >= n->max_osd || !n->osds[o].exists || n->osds[o].up ||
		    !n->osds[o].reweight)
			continue;
		n->osds[o].autoout_weight = n->osds[o].reweight;
		n->osds[o].reweight = 0;
		marked++;
	}
	if (n && marked)
		r = osdmap_update_commit(c, n);
	else if (n)
		osdmap_update_abort(c, n);
	/* reported once the epoch is in (Ceph's clog line follows the
	 * proposal) */
	if (!r && marked && cb) {
		const cfs_osdmap *now_m = cfs_osdmap_get(c);

		for (int o = 0; o < m->max_osd && o < now_m->max_osd; o++) {
			const struct cfs_osd_state *s = &m->osds[o];
			int64_t from = s->down_stamp > since ? s->down_stamp
							     : since;

			if (s->exists && s->reweight &&
			    !now_m->osds[o].reweight &&
			    now_m->osds[o].autoout_weight)
				cb(o, now - from, arg);
		}
		cfs_osdmap_put(now_m);
	}
	cfs_osdmap_put(m);
	return r ? r : marked;
}
