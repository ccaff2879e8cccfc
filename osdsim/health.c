/*
 * health.c - space figures of the pool (`ceph df` MAX AVAIL, the pool full
 * flag of policy `pool`) and the health snapshot that `status`, `health`,
 * `osd df` and `df` format: every OSD's usage read once, every figure
 * computed from those reads (the checks themselves: health_checks.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "osdsim_i.h"
#include "placement.h"

/* used[osd] for every OSD of m, read once each (0 for absent ids). */
static void read_usage(cfs_cluster *c, const cfs_osdmap *m, uint64_t *used,
		       uint64_t *objects)
{
	for (int osd = 0; osd < m->max_osd; osd++) {
		struct cfs_osd_usage u = { 0, 0 };

		if (cfs_osdmap_exists(m, osd))
			cfs_osd_usage(c, osd, &u);
		used[osd] = u.used;
		if (objects)
			objects[osd] = u.objects;
	}
}

/*
 * PGMap::get_rule_avail (Ceph 16.2): for each OSD under the rule, the bytes
 * it can still take before full_ratio, divided by its share of the rule's
 * CRUSH weight, is how much the whole rule could take before that OSD is
 * full; the smallest such projection wins.  Out OSDs report no stats and
 * are skipped, as are OSDs with no weight.  PGMapDigest::get_pool_free_space
 * then divides by the pool's raw used rate (its size, replicated).  The
 * float/double mix is Ceph's.
 */
static int64_t rule_avail(const cfs_osdmap *m, const uint64_t *used,
			  double ratio, const float *shares,
			  const unsigned char *in_rule, int *limit)
{
	float fratio = (float)ratio;
	int64_t min = -1;

	if (limit)
		*limit = -1;

	for (int osd = 0; osd < m->max_osd; osd++) {
		int64_t kb, kb_avail, proj;
		double unusable, avail;
		float share = shares ? shares[osd] : 0;

		if (!in_rule || !in_rule[osd] ||
		    !cfs_osdmap_exists(m, osd))
			continue;
		if (m->osds[osd].reweight == 0 || m->osds[osd].capacity == 0 ||
		    share == 0)
			continue;
		kb = (int64_t)(m->osds[osd].capacity >> 10);
		kb_avail = used[osd] >= m->osds[osd].capacity
				   ? 0
				   : (int64_t)((m->osds[osd].capacity -
						used[osd]) >>
					       10);
		unusable = (double)kb * (1.0 - fratio);
		avail = (double)kb_avail - unusable;
		if (avail < 0.0)
			avail = 0.0;
		avail *= 1024.0;
		proj = (int64_t)(avail / (double)share);
		if (min < 0 || proj < min) {
			min = proj;
			if (limit)
				*limit = osd;
		}
	}
	return min;
}

static uint64_t avail_before(const cfs_osdmap *m, const uint64_t *used,
			     double ratio, int *limit)
{
	int64_t min = rule_avail(m, used, ratio, m->rule_share, m->in_rule,
				 limit);

	if (min < 0)
		return 0;
	return (uint64_t)min / (uint64_t)m->pool.size;
}

uint64_t cfs_pool_max_avail_for(const cfs_osdmap *m,
				const struct cfs_pool_info *p,
				const uint64_t *used)
{
	float *share = calloc((size_t)m->max_osd + 1, sizeof(*share));
	unsigned char *in = calloc((size_t)m->max_osd + 1, 1);
	int64_t min = -1;

	if (share && in && !pl_rule_osd_weights(m->crush, p->crush_rule,
						share, in, m->max_osd))
		min = rule_avail(m, used, m->full_ratio, share, in, NULL);
	free(share);
	free(in);
	if (min < 0 || p->size <= 0)
		return 0;
	if (p->erasure) {
		/* the raw used rate of an erasure pool: (k + m) / k */
		const char *k = cfs_ec_profile_get(m, p->ec_profile, "k");
		int kk = k ? atoi(k) : 0;

		if (kk > 0 && kk <= p->size)
			return (uint64_t)((double)min * kk / p->size);
	}
	return (uint64_t)min / (uint64_t)p->size;
}

static uint64_t max_avail_of(const cfs_osdmap *m, const uint64_t *used,
			     int *limit)
{
	return avail_before(m, used, m->full_ratio, limit);
}

/* The first up+in OSD of the rule at or over full_ratio, or -1. */
static int pool_full_osd_of(const cfs_osdmap *m, const uint64_t *used)
{
	for (int osd = 0; osd < m->max_osd; osd++) {
		if (!m->in_rule || !m->in_rule[osd] ||
		    !cfs_osdmap_is_up(m, osd) || !cfs_osdmap_is_in(m, osd))
			continue;
		if (used[osd] >= cfs_osdmap_full_limit(m, osd))
			return osd;
	}
	return -1;
}

/* MAX AVAIL no larger than what the filesystems under the OSDs still
 * hold above their failsafe margins (disk.c), as the pool stores it: a
 * df of the mount must not promise the virtual capacities of OSDs on a
 * smaller disk. */
static uint64_t disks_room(const struct cfs_disk *d, int n)
{
	uint64_t room = 0;

	for (int i = 0; i < n; i++)
		if (d[i].nosds && d[i].avail > d[i].margin)
			room += d[i].avail - d[i].margin;
	return room;
}

static uint64_t disk_capped(const cfs_osdmap *m, uint64_t room,
			    uint64_t avail)
{
	const struct cfs_pool_info *p = &m->pool;

	if (p->size > 0)
		room /= (uint64_t)p->size;
	if (p->erasure) {
		const char *k = cfs_ec_profile_get(m, p->ec_profile, "k");
		int kk = k ? atoi(k) : 0;

		if (kk > 0 && kk <= p->size)
			room *= (uint64_t)kk;
	}
	return room < avail ? room : avail;
}

uint64_t cfs_pool_max_avail(cfs_cluster *c, const cfs_osdmap *m)
{
	uint64_t *used = calloc((size_t)m->max_osd + 1, sizeof(*used));
	int64_t room;
	uint64_t r;

	if (!used)
		return 0; /* no memory: claim no room rather than room */
	read_usage(c, m, used, NULL);
	r = max_avail_of(m, used, NULL);
	free(used);
	/* statfs and fallocate ask this: the guards of the open stores
	 * know their filesystems; a command that opened none looks */
	room = disk_room_guarded(c);
	if (room < 0) {
		struct cfs_disk d[CFS_MAX_DISKS];

		room = (int64_t)disks_room(
			d, cfs_disks(c, m, NULL, d, CFS_MAX_DISKS, NULL));
	}
	return disk_capped(m, (uint64_t)room, r);
}

uint64_t cfs_pool_max_avail_with(const cfs_osdmap *m, const uint64_t *used,
				 int *limit)
{
	return max_avail_of(m, used, limit);
}

uint64_t cfs_pool_avail_before(const cfs_osdmap *m, const uint64_t *used,
			       double ratio, int *limit)
{
	return avail_before(m, used, ratio, limit);
}

int cfs_pool_is_full(cfs_cluster *c, const cfs_osdmap *m,
		     const struct cfs_pool_info *p, int *osdout)
{
	const unsigned char *in_rule = m->in_rule;
	unsigned char *own = NULL;
	float *share = NULL;
	int full = 0;

	if (p && p->id != m->pool.id) {
		/* another pool's rule: its OSDs (OSDMap's per-rule map) */
		own = calloc((size_t)m->max_osd + 1, 1);
		share = calloc((size_t)m->max_osd + 1, sizeof(*share));
		if (own && share &&
		    pl_rule_osd_weights(m->crush, p->crush_rule, share, own,
					m->max_osd))
			memset(own, 0, (size_t)m->max_osd);
		in_rule = own;
	}
	/* one OSD at a time: the write path calls this, and needs no
	 * consistent picture, only whether some OSD is full now */
	for (int osd = 0; osd < m->max_osd && !full; osd++) {
		struct cfs_osd_usage u;

		if (!in_rule || !in_rule[osd] ||
		    !cfs_osdmap_is_up(m, osd) || !cfs_osdmap_is_in(m, osd))
			continue;
		cfs_osd_usage(c, osd, &u);
		if (u.used >= cfs_osdmap_full_limit(m, osd)) {
			if (osdout)
				*osdout = osd;
			full = 1;
		}
	}
	free(own);
	free(share);
	return full;
}

static int fullness_of(const cfs_osdmap *m, int osd, uint64_t used)
{
	if (used >= cfs_osdmap_full_limit(m, osd))
		return CFS_FULLNESS_FULL;
	if (used >= cfs_osdmap_backfillfull_limit(m, osd))
		return CFS_FULLNESS_BACKFILLFULL;
	if (used >= cfs_osdmap_nearfull_limit(m, osd))
		return CFS_FULLNESS_NEARFULL;
	return CFS_FULLNESS_NONE;
}

/* The refusals that still stand: an up OSD below full_ratio (a full one
 * is OSD_FULL) that would refuse the same write with the snapshot's use. */
static int refused_of(cfs_cluster *c, const cfs_osdmap *m,
		      struct cfs_health *h)
{
	struct cfs_refused all[64];
	int n = cfs_osd_refused(c, all, 64);

	h->refused = calloc((size_t)n + 1, sizeof(*h->refused));
	if (!h->refused)
		return -ENOMEM;
	for (int i = 0; i < n; i++) {
		const struct cfs_osd_snap *o;
		uint64_t lim;

		if (all[i].osd >= h->max_osd)
			continue;
		o = &h->osd[all[i].osd];
		lim = cfs_osdmap_write_limit(m, all[i].osd);
		if (!o->info.exists || !o->info.up)
			continue;
		if (all[i].disk) {
			/* stands while the filesystem still lacks room */
			const struct cfs_disk *d;
			uint64_t room;

			if (o->disk < 0)
				continue;
			d = &h->disks[o->disk];
			room = d->avail > d->margin ? d->avail - d->margin : 0;
			if (room > 0 && all[i].bytes <= room)
				continue;
		} else if (o->fullness == CFS_FULLNESS_FULL ||
			   (o->used < lim && all[i].bytes <= lim - o->used)) {
			continue;
		}
		h->refused[h->nrefused++] = all[i];
	}
	return 0;
}

/* The ops that waited past osd_op_complaint_time (Ceph's OSDs count
 * theirs the same way). */
static int slow_of(cfs_cluster *c, struct cfs_health *h)
{
	uint32_t complain = config_uint(c, "osd_op_complaint_time");
	struct cfs_slow_op all[64];
	int n = cfs_slow_ops(c, all, 64);
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	h->slow = calloc((size_t)n + 1, sizeof(*h->slow));
	if (!h->slow)
		return -ENOMEM;
	for (int i = 0; i < n; i++)
		if (now.tv_sec - all[i].since.tv_sec >= (time_t)complain)
			h->slow[h->nslow++] = all[i];
	return 0;
}

int cfs_health_take(cfs_cluster *c, const cfs_osdmap *m,
		    const struct cfs_pg_health *pgs, uint32_t npgs,
		    const struct cfs_pg_totals *tot, struct cfs_health *h)
{
	uint64_t *used, *objs, all_used = 0;
	int r;

	memset(h, 0, sizeof(*h));
	h->pool_full_osd = -1;
	h->max_osd = m->max_osd;
	h->osd = calloc((size_t)m->max_osd + 1, sizeof(*h->osd));
	used = calloc((size_t)m->max_osd + 1, sizeof(*used));
	objs = calloc((size_t)m->max_osd + 1, sizeof(*objs));
	if (!h->osd || !used || !objs) {
		r = -ENOMEM;
		goto out;
	}
	/* the one read: everything below uses used[] and objs[] */
	read_usage(c, m, used, objs);
	for (int id = 0; id < m->max_osd; id++) {
		struct cfs_osd_snap *o = &h->osd[id];

		if (cfs_osdmap_osd(m, id, &o->info))
			continue;
		o->in = o->info.reweight > 0;
		o->in_rule = cfs_osdmap_osd_in_rule(m, id);
		o->used = used[id];
		o->objects = objs[id];
		o->avail = o->used < o->info.capacity
				   ? o->info.capacity - o->used
				   : 0;
		o->fullness = fullness_of(m, id, o->used);
		h->num_osds++;
		h->num_up += o->info.up;
		h->num_in += o->in;
		/* PGMap's osd_sum, as `ceph df` and `osd df` total it: an
		 * out OSD reports nothing (Ceph 16.2 shows it as 0 bytes) */
		if (o->in) {
			h->total += o->info.capacity;
			h->used += o->used;
			h->avail += o->avail;
		}
		all_used += o->used;
		h->objects += o->objects;
		if (o->in_rule)
			h->rule_used += o->used;
	}
	{
		int *od = calloc((size_t)m->max_osd + 1, sizeof(*od));

		if (!od) {
			r = -ENOMEM;
			goto out;
		}
		h->ndisks = cfs_disks(c, m, used, h->disks, CFS_MAX_DISKS, od);
		for (int id = 0; id < m->max_osd; id++)
			h->osd[id].disk = od[id];
		free(od);
	}
	h->raw_avail = h->total > h->used ? h->total - h->used : 0;
	h->max_avail = disk_capped(m, disks_room(h->disks, h->ndisks),
				   max_avail_of(m, used, NULL));
	h->pool_full_osd = pool_full_osd_of(m, used);
	h->pool_full = h->pool_full_osd >= 0;
	{
		/* quotas count the data pool's share of what this snapshot
		 * read (as df's STORED): the whole when it is the only pool
		 * with objects */
		const struct cfs_pool_info *p = cfs_osdmap_pool(m);
		uint64_t size = p->size > 0 ? (uint64_t)p->size : 1;
		uint64_t pbytes = all_used, pobjs = h->objects;

		for (int i = 0; i < cfs_osdmap_npools(m); i++) {
			const struct cfs_pool_info *q = cfs_osdmap_pool_at(m, i);

			for (int id = 0; q != p && id < m->max_osd; id++) {
				struct cfs_osd_usage u;

				cfs_osd_pool_usage(c, id, q->id, &u);
				pbytes -= u.used < pbytes ? u.used : pbytes;
				pobjs -= u.objects < pobjs ? u.objects : pobjs;
				if (cfs_osdmap_osd_in_rule(m, id))
					h->rule_used -= u.used < h->rule_used
								? u.used
								: h->rule_used;
			}
		}
		if (p->quota_max_bytes && pbytes / size >= p->quota_max_bytes)
			h->quota_full = "max_bytes";
		else if (p->quota_max_objects &&
			 pobjs / size >= p->quota_max_objects)
			h->quota_full = "max_objects";
	}
	r = refused_of(c, m, h);
	if (!r)
		r = slow_of(c, h);
	if (!r)
		r = health_checks(h, m, pgs, npgs, tot);
	if (!r)
		health_apply_mutes(c, h);
out:
	free(used);
	free(objs);
	if (r)
		cfs_health_free(h);
	return r;
}

void cfs_health_free(struct cfs_health *h)
{
	free(h->refused);
	h->refused = NULL;
	free(h->slow);
	h->slow = NULL;
	h->nslow = 0;
	for (int i = 0; i < h->nchecks; i++) {
		for (int k = 0; k < h->checks[i].ndetail; k++)
			free(h->checks[i].detail[k]);
		free(h->checks[i].detail);
	}
	h->nchecks = 0;
	free(h->osd);
	h->osd = NULL;
}

const char *cfs_health_status_name(int s)
{
	return s == CFS_HEALTH_ERR	? "HEALTH_ERR"
	       : s == CFS_HEALTH_WARN ? "HEALTH_WARN"
				      : "HEALTH_OK";
}
