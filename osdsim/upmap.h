/*
 * upmap.h - pg_upmap and pg_upmap_items (part of osdsim.h): the entries
 * of each epoch, their changes, and the upmap balancer with the figures
 * it is judged by (upmap.c).
 */
#ifndef CRUSHFS_OSDSIM_UPMAP_H
#define CRUSHFS_OSDSIM_UPMAP_H

#include <stddef.h>
#include <stdint.h>

#include "osdmap.h"

/*
 * The osdmap's upmap entries for a PG of the pool (Ceph's pg_upmap and
 * pg_upmap_items): an explicit raw set, and (from, to) replacements.
 */
struct cfs_pg_upmap {
	uint32_t ps;
	int n;			     /* pg_upmap; 0: none */
	int osds[CFS_MAX_REP];
	int nitems;		     /* pg_upmap_items; 0: none */
	int items[CFS_MAX_REP][2];
};
/* The entries by PG seed (ascending), *n of them. */
const struct cfs_pg_upmap *cfs_osdmap_upmaps(const cfs_osdmap *m, int *n);
/* The PG's entries, NULL when it has none. */
const struct cfs_pg_upmap *cfs_osdmap_pg_upmap(const cfs_osdmap *m,
					       uint32_t ps);
/* Pool `pool`'s entries by PG seed (*n of them; NULL and 0 when none or
 * no such pool). */
const struct cfs_pg_upmap *cfs_pool_upmaps(const cfs_osdmap *m, int64_t pool,
					   int *n);

/*
 * `osd pg-upmap PGID OSD...` / `osd pg-upmap-items PGID FROM TO...` and
 * their rm- forms (n == 0) on a PG of any pool, checked as Ceph's
 * OSDMonitor checks them
 * (osds exist; pool min_size <= n <= size; pairs <= size; from != to,
 * duplicates skipped).  On refusal -EINVAL/-ENOENT with the reason in
 * why; on success why says what was set, as Ceph does.  -ENODATA: rm of
 * an entry that is not there (not an error in Ceph: nothing changes).
 */
int cfs_osd_pg_upmap(cfs_cluster *c, int64_t pool, uint32_t ps,
		     const int *osds, int n, char *why, size_t whylen);
int cfs_osd_pg_upmap_items(cfs_cluster *c, int64_t pool, uint32_t ps,
			   const int *pairs, int npairs, char *why,
			   size_t whylen);

struct pl_balance_opts;
struct pl_balance_pg;
struct pl_balance_stats;
/*
 * The upmap balancer (placement's pl_balance_upmaps, OSDMap::
 * calc_pg_upmaps) on one pool of this map, replicated or erasure: *pgs
 * gets pg_num entries (free()), those with .changed set make the plan.
 * Returns the number of changes, -ENOENT for no such pool, or -errno.
 */
int cfs_osdmap_balance(const cfs_osdmap *m, int64_t pool,
		       const struct pl_balance_opts *o,
		       struct pl_balance_pg **pgs,
		       struct pl_balance_stats *st);
/* PGs per OSD against one pool's crush-weight targets (up sets): count
 * and target per OSD (max_osd entries each, target 0: not in the rule);
 * -ENOENT for no such pool */
int cfs_osdmap_pg_spread(const cfs_osdmap *m, int64_t pool, int *count,
			 float *target);

/* What OSDMap::summarize_mapping_stats (16.2) counts if the OSDs had
 * these reweights (max_osd entries, 16.16), the map otherwise as it is
 * (upmaps and primary affinity included): up-set copies per OSD now
 * (base) and after (next), max_osd entries each or NULL; *moved: copies
 * that leave their OSD (a replicated pool's up OSDs missing from the new
 * up set), *total: pg_num x size. */
int cfs_osdmap_mapping_stats(const cfs_osdmap *m, const uint32_t *reweight,
			     unsigned *base, unsigned *next, unsigned *moved,
			     unsigned *total);

#endif
