/*
 * mgr_analysis.h - where new data lands and what fills first, by the real
 * PG mapping, and what a placement change would move (part of mgr/, the
 * library below cli/, report/ and the daemon's dashboard).
 *
 * Fills first: objects hash evenly over a pool's PGs, so each PG takes
 * 1/pg_num of the pool's new data, once per copy (replicated) or as one
 * shard of 1/k per position (erasure k+m).  An OSD therefore takes, per
 * stored byte written to the pool, (its PG shares in the pool's acting
 * sets) / pg_num bytes (/ k for erasure), and the OSD whose room divided
 * by that share is smallest fills first - python-crush's `crush analyze`
 * reasoning (it compares each device's PG count with what its weight
 * predicts), with bytes.  MAX AVAIL stays Ceph's (PGMap::get_rule_avail,
 * by the crush weights): the two differ as much as CRUSH's placement
 * differs from the weights, and the page shows both.
 *
 * What-if: given the map now and the map a command would install (osdsim's
 * dry run), every PG whose acting set changes, the bytes each OSD would
 * receive and send, every OSD's use after, MAX AVAIL and fills-first before
 * and after, and the time the backfill takes at a stated recovery rate.
 */
#ifndef CRUSHFS_MGR_ANALYSIS_H
#define CRUSHFS_MGR_ANALYSIS_H

#include <stddef.h>
#include <stdint.h>

typedef struct cfs_cluster cfs_cluster;
typedef struct cfs_osdmap cfs_osdmap;
typedef struct objlayer objlayer;
struct cfs_health;
struct cfs_pool_info;

/* ---- analysis (analysis.c) ---- */

/* One pool: its fill, MAX AVAIL and what fills it first. */
struct mgr_pool_fill {
	const struct cfs_pool_info *pool; /* in the map analysed */
	int shares;	  /* PG positions: size (replicated) or k+m */
	int k;		  /* data shards (erasure), 1 replicated */
	uint64_t raw_used; /* bytes its PGs hold on the OSDs */
	uint64_t stored;   /* raw_used over the raw used rate */
	uint64_t objects;  /* object copies (or shards) held */
	uint64_t max_avail; /* `df` MAX AVAIL: by the crush weights */
	int weight_first;   /* the OSD that bounds MAX AVAIL, -1 */
	/* by the PG mapping: stored bytes writable before the first OSD
	 * reaches nearfull_ratio / full_ratio, and which OSD that is (-1:
	 * no OSD of the pool takes data) */
	uint64_t before_nearfull, before_full;
	int nearfull_first, fills_first;
	int *pgs;	  /* max_osd: PG positions held, acting sets */
	float *expected;  /* max_osd: what the weights predict (up sets) */
	int *up_pgs;	  /* max_osd: PG positions in the up sets */
};

struct mgr_analysis {
	int max_osd;
	int npools;
	struct mgr_pool_fill *pools; /* cfs_osdmap_pool_at order */
	int *pgs;		     /* max_osd: up-set positions, all pools */
	float *expected;	     /* max_osd: predicted, all pools */
};

/*
 * Analyse m with the usage of snapshot h (cfs_health_take on m): 0 or
 * -ENOMEM.  Reads each OSD's per-pool use (c).  Free with
 * mgr_analysis_free.
 */
int mgr_analysis_take(cfs_cluster *c, const cfs_osdmap *m,
		      const struct cfs_health *h, struct mgr_analysis *a);
void mgr_analysis_free(struct mgr_analysis *a);

/*
 * Stored bytes writable to a pool before the first OSD reaches its limit,
 * if each OSD i takes share[i] raw bytes per stored byte and holds used[i]
 * against limit[i]; *first gets the OSD (or -1 when no share is > 0).
 * The core of fills-first, exposed for tests and the what-if.
 */
uint64_t mgr_writable_by_share(int n, const double *share,
			       const uint64_t *used, const uint64_t *limit,
			       int *first);

/* The health snapshot on m with every pool's PG states (PG_DEGRADED,
 * PG_AVAILABILITY, ... with their detail lines), as `health detail` has
 * them; ol NULL: the OSD checks only.  Free with cfs_health_free. */
int mgr_analysis_health(cfs_cluster *c, objlayer *ol, const cfs_osdmap *m,
			struct cfs_health *h);

/* The OSDs sorted by PGs over what the weights predict (most over first,
 * then by id), all pools summed: out gets up to max ids, returns the
 * count. */
int mgr_outliers(const struct mgr_analysis *a, int *out, int max);

/* ---- what-if (whatif.c) ---- */

struct mgr_whatif_osd {
	int exists;	/* in the new map */
	uint64_t capacity;
	/* used now and after the move, and the backfill it takes and sends
	 * (as the acting primary now), every pool's PGs counted */
	uint64_t before, after;
	uint64_t bytes_in, bytes_out;
	const char *crosses;	   /* "nearfull", "backfillfull", "full", NULL */
};

struct mgr_whatif_pg {
	char pgid[32];
	int before[16], nbefore; /* acting now */
	int after[16], nafter;	 /* up in the new map */
	uint64_t objects, bytes;
};

struct mgr_whatif_pool {
	const struct cfs_pool_info *pool; /* in the new map */
	uint32_t pgs_changed;
	uint64_t copies, bytes; /* object copies that would move */
};

struct mgr_whatif {
	int max_osd; /* the larger of the two maps' */
	struct mgr_whatif_osd *osd;
	/* the data pool (the filesystem's first): its PGs, moves and room */
	uint32_t pg_num, pgs_changed;
	struct mgr_whatif_pg *pgs; /* the changed ones */
	uint64_t copies, bytes;	   /* object copies (and bytes) to move */
	uint64_t avail_before, avail_after; /* MAX AVAIL */
	int first_before, first_after;	    /* OSD bounding it, -1 */
	/* fills first by the PG mapping, the data pool */
	int pg_first_before, pg_first_after;
	uint64_t pg_full_before, pg_full_after;
	int ncross;
	/* the other pools */
	struct mgr_whatif_pool *others;
	int nothers;
	/* backfill: the busiest OSD's bytes (in or out) and its id */
	uint64_t busiest_bytes;
	int busiest;
};

/*
 * Compare old (now) with new (what a command would install): 0, or -errno
 * when a PG cannot be read.  ol reads each changed PG's objects.  Free
 * with mgr_whatif_free.
 */
int mgr_whatif_compute(cfs_cluster *c, objlayer *ol, const cfs_osdmap *old,
		       const cfs_osdmap *new, struct mgr_whatif *w);
void mgr_whatif_free(struct mgr_whatif *w);

/*
 * Seconds the backfill takes when each OSD moves at most rate bytes/s per
 * backfill and runs max_backfills of them at once (osd_max_backfills,
 * Ceph's default 1): the busiest OSD bounds it, as the others finish
 * sooner.  0 when nothing moves; rate 0 counts as 1 byte/s.
 */
double mgr_backfill_seconds(const struct mgr_whatif *w, uint64_t rate,
			    int max_backfills);

/* Ceph's default recovery figures stated with the estimate */
#define MGR_DEFAULT_RECOVERY_RATE (100ull << 20) /* bytes/s per backfill */
#define MGR_DEFAULT_MAX_BACKFILLS 1		 /* osd_max_backfills */

#endif
