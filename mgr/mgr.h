/*
 * mgr.h - what the cluster knows about itself, computed beside the data
 * path (Ceph's mgr in miniature, ../shared/DESIGN.md): one snapshot per
 * answer, then plain structs for `status`, `df`, `osd df`, `pg stat`,
 * `pg dump_stuck`, `osd pool stats`.  cli/, report/ and the daemon print
 * them; nothing here prints.  The analysis (fills first by the PG
 * mapping) and the what-if are this header's last section.
 *
 * A snapshot holds one reference to the osdmap, one read of every PG
 * (ol_pool_pg_stats: one scan of the object index per pool) and the
 * health osdsim computes from one read of every OSD's usage
 * (cfs_health_take), so every figure of one answer agrees with the
 * others, as Ceph's mgr answers from one PGMap and OSDMap pair
 * (PGMapDigest, OSDMap in Ceph 16.2).
 *
 * Errors: 0 or -errno.  Reads only objlayer/ and osdsim/.
 */
#ifndef CRUSHFS_MGR_H
#define CRUSHFS_MGR_H

#include <stddef.h>
#include <stdint.h>

#include "objlayer.h"
#include "osdsim.h"

/* ---- the snapshot (snap.c) ---- */

#define MGR_SNAP_PGS 0x1       /* read every pool's PGs */
#define MGR_SNAP_PG_HEALTH 0x2 /* ... and give their states to the health
				* (PG_DEGRADED, PG_AVAILABILITY, ...) */

struct mgr_snap {
	cfs_cluster *c;
	const cfs_osdmap *m;   /* referenced until mgr_snap_free */
	struct ol_pg_stat *pg; /* every pool's PGs, pool by pool in the
				* osdmap's order (MGR_SNAP_PGS), else NULL */
	uint32_t npg;
	uint64_t bytes;	       /* object bytes over those PGs */
	struct cfs_pg_totals t;
	struct cfs_health h;
	int ntemp;	       /* pg_temp entries: "remapped pgs" */
};

/* ol may be NULL without MGR_SNAP_PGS.  -ENOMEM, or the PG read's error. */
int mgr_snap_take(cfs_cluster *c, objlayer *ol, unsigned flags,
		  struct mgr_snap *s);
void mgr_snap_free(struct mgr_snap *s);
/* The PGs of pool (a slice of s->pg), *n of them; NULL if none. */
const struct ol_pg_stat *mgr_snap_pool_pgs(const struct mgr_snap *s,
					   int64_t pool, uint32_t *n);

/* ---- PG states (pgstate.c) ---- */

struct mgr_pg_state {
	char name[128]; /* "active+undersized+degraded" */
	unsigned state; /* OL_PGS_* */
	int count;
};
/* The PGs by state, most first then by name (PGMapDigest's
 * num_pg_by_state as `ceph -s` lists it); *out malloc'ed.  Returns the
 * count of states, or -ENOMEM. */
int mgr_pg_states(const struct mgr_snap *s, struct mgr_pg_state **out);
/* Sort them as Ceph's num_pg_by_state map is (`pg stat`): by the state's
 * value in Ceph's PG_STATE_* bits (osd_types.h, Ceph 16.2). */
void mgr_pg_states_ceph_order(struct mgr_pg_state *sc, int n);
/* OL_PGS_* state as Ceph's PG_STATE_* bits */
uint64_t mgr_pg_state_ceph_bits(unsigned state);

/* Ceph's PGMap::get_stuck_stats kinds (`pg dump_stuck`). */
#define MGR_STUCK_INACTIVE 0x1
#define MGR_STUCK_UNCLEAN 0x2
#define MGR_STUCK_STALE 0x4
#define MGR_STUCK_UNDERSIZED 0x8
#define MGR_STUCK_DEGRADED 0x10
/* Which of the kinds PG g is in now (crushfs keeps no state history: a
 * PG is "stuck" as long as it is in the state; Ceph waits
 * mon_pg_stuck_threshold, 60 s, first). */
unsigned mgr_pg_stuck(const struct ol_pg_stat *g);

/* ---- JSON (json.c) ---- */

struct json_t;
/* health_check_t::dump of every check, and the (empty) mutes */
struct json_t *mgr_health_json(const struct cfs_health *h);
/* `status -f json`: fsid, health, osdmap, pgmap (sc: mgr_pg_states),
 * progress_events; rp (NULL: none) a rebalance running rsec seconds. */
struct json_t *mgr_status_json(const struct mgr_snap *s,
			       const struct mgr_pg_state *sc, int nst,
			       const struct ol_rebalance_progress *rp,
			       double rsec);

/* ---- df (df.c) ---- */

struct mgr_pool_df {
	const struct cfs_pool_info *pool; /* in s->m */
	uint64_t stored;    /* logical bytes (PGs' num_bytes) */
	uint64_t objects;
	uint64_t used;	    /* raw bytes its copies (shards) take */
	uint64_t max_avail; /* PGMap::get_rule_avail over the raw used rate */
	double raw_rate;     /* raw bytes per stored byte: size, or
			      * (k + m) / k for an erasure pool */
	double percent_used; /* used / (used + max_avail * rate), 0..1 */
	uint64_t dirty;	     /* Ceph's DIRTY (cache tiers): the objects */
	uint64_t degraded, misplaced, unfound; /* object copies */
};
/* RAW STORAGE's row of one device class */
struct mgr_df_class {
	char name[32];
	uint64_t total, avail, used;
	double used_ratio;
};
#define MGR_DF_MAX_CLASSES 16
struct mgr_df {
	uint64_t total, avail, used; /* raw, over the in OSDs */
	double used_ratio;
	/* by device class, in order of first OSD id (none when the crush
	 * map has no classes) */
	struct mgr_df_class classes[MGR_DF_MAX_CLASSES];
	int nclasses;
	int npools;
	struct mgr_pool_df *pools; /* in the osdmap's order */
};
/* Needs a snapshot with MGR_SNAP_PGS. */
int mgr_df_compute(const struct mgr_snap *s, struct mgr_df *df);
void mgr_df_free(struct mgr_df *df);

/* ---- osd df and the crush tree (osd_df.c) ---- */

struct mgr_tree_item {
	int id;
	int depth;
	uint32_t weight; /* 16.16: the item's weight in its parent */
};
struct mgr_tree {
	struct mgr_tree_item *v;
	int n, cap;
};
/* The crush tree in `ceph osd tree` order: roots first (-1 first), each
 * subtree depth first in bucket order, shadow trees left out.  -ENOMEM. */
int mgr_crush_tree(const pl_map *cm, struct mgr_tree *t);
int mgr_tree_has(const struct mgr_tree *t, int id);
void mgr_tree_free(struct mgr_tree *t);

/* One row of `osd df` (an OSD, or with `osd df tree` a bucket: the sums of
 * the OSDs below it). */
struct mgr_osd_row {
	int id;
	const struct cfs_osd_snap *o; /* OSDs only, in s->h */
	const char *device_class;     /* "hdd", or NULL */
	/* what Ceph reports: an out OSD's statistics read 0 (Ceph 16.2's
	 * mgr keeps none for it), whatever it still holds */
	uint64_t size, used, avail;
	uint64_t data, omap, meta; /* used = data + omap + meta */
	uint64_t objects;
	double util, var; /* %USE (0..100), against the average */
	int pgs;
};
struct mgr_osd_df {
	struct mgr_tree tree;
	struct mgr_osd_row *osd; /* max_osd entries; osd[id].o NULL: none */
	int *order, n;		 /* OSD ids in tree order, then the strays */
	struct mgr_osd_row *node; /* tree.n entries: each tree item's sums */
	/* OSDUtilizationDumper's summary */
	double avg, min_var, max_var, dev;
	uint64_t total, used, avail, objects;
};
/* From s->h (any snapshot).  -ENOMEM. */
int mgr_osd_df_compute(const struct mgr_snap *s, struct mgr_osd_df *d);
void mgr_osd_df_free(struct mgr_osd_df *d);
/* "full", "backfillfull", "nearfull" or NULL */
const char *mgr_fullness_name(int fullness);

/* ==== the analysis and the what-if (analysis.c, whatif.c) ====
 *
 * Where new data lands and what fills first, by the real PG mapping, and
 * what a placement change would move.
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

/* ---- analysis (analysis.c) ---- */

/* One pool: its fill, MAX AVAIL and what fills it first. */
struct mgr_pool_fill {
	const struct cfs_pool_info *pool; /* in the map analysed */
	int shares;	  /* PG positions: size (replicated) or k+m */
	int k;		  /* data shards (erasure), 1 replicated */
	uint64_t raw_used; /* bytes its PGs hold on the OSDs (`df` USED) */
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
 * Analyse the snapshot s (its map, its one read of every OSD's usage): 0
 * or -ENOMEM.  Reads each OSD's per-pool use.  A pool's STORED is not
 * here: it is `df`'s (mgr_df_compute on the same snapshot), the PGs'
 * bytes, so every page and command says the same.  Free with
 * mgr_analysis_free.
 */
int mgr_analysis_take(const struct mgr_snap *s, struct mgr_analysis *a);
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
