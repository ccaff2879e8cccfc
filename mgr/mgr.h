/*
 * mgr.h - what the cluster knows about itself, computed beside the data
 * path (Ceph's mgr in miniature, ../shared/DESIGN.md): one snapshot per
 * answer, then plain structs for `status`, `df`, `osd df`, `pg stat`,
 * `pg dump_stuck`, `osd pool stats`.  cli/, report/ and the daemon print
 * them; nothing here prints.
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

#endif
