/*
 * osdsim.h - the simulated cluster: one directory holding the osdmap, the
 * crush map and one object store per OSD.  The one public header of
 * osdsim/ (STYLE.md 11).
 *
 * On disk (../shared/DESIGN.md, "On-disk cluster"):
 *
 *   DIR/cluster.json     fsid, epoch, pool, ratios, full policy, per-OSD
 *                        state, and the crush map text: the commit point of
 *                        every osdmap change (written atomically, so a crash
 *                        leaves the old map or the new one)
 *   DIR/crushmap.txt     the crush map in crushtool's text format (a copy of
 *                        what cluster.json holds, rewritten before it)
 *   DIR/cluster.lock     flock: one writer (exclusive), or many readers
 *   DIR/usage.json       per-OSD bytes/objects at the last clean close
 *   DIR/usage.dirty      exists while a writer may have changed OSD data
 *                        since usage.json was written: the next open rescans
 *   DIR/pgstate/P.json   per-PG recovery state (see "PG state" below)
 *   DIR/osd.N/whoami, DIR/osd.N/fsid
 *   DIR/osd.N/current/<pool>.<ps hex>_head/<object name>
 *
 * Snapshots.  An osdmap is immutable once installed and reference counted:
 * cfs_osdmap_get() returns the current one, cfs_osdmap_put() releases it.
 * Every change (cfs_osd_mark_out() ...) builds the next epoch from the
 * current one, computes its PG -> up/acting table once (a preallocated
 * workspace, no allocation per mapping), persists it, then swaps it in; a
 * live daemon sees the change at once and I/O already running finishes on
 * the map it started with.
 *
 * Errors: 0 or -errno; functions taking (err, errlen) also write one line
 * saying what was wrong and where.  Thread safety: every function may be
 * called from many threads at once unless noted.
 */
#ifndef CRUSHFS_OSDSIM_H
#define CRUSHFS_OSDSIM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

typedef struct cfs_cluster cfs_cluster;
typedef struct cfs_osdmap cfs_osdmap;
typedef struct pl_map pl_map; /* placement.h */

#define CFS_MAX_OSD 65536 /* OSD ids are 0 .. CFS_MAX_OSD-1 */
#define CFS_MAX_REP 16	  /* pool size limit (and ol_placement's arrays) */
#define CFS_WEIGHT_ONE 0x10000 /* 16.16 fixed point 1.0 */

enum cfs_full_policy {
	CFS_FULL_OSD = 0,  /* refuse writes whose acting set holds a full OSD */
	CFS_FULL_POOL = 1, /* one full OSD in the rule refuses all writes */
};

/* ---- creating a cluster (cluster.c) ---- */
struct cfs_mkfs_opts {
	int nosds;		/* default 12 */
	int nhosts;		/* default 4 */
	uint64_t osd_size;	/* default 1 GiB */
	int osd_size_set;	/* osd_size given (else crush weights decide
				 * capacities with --crush-map) */
	uint32_t pg_num;	/* default 128 */
	uint32_t pgp_num;	/* 0: = pg_num */
	int size, min_size;	/* default 3 / 2; min_size 0: size - size/2 */
	uint32_t object_size;	/* default 4 MiB */
	uint32_t stripe_unit;	/* 0: = object_size */
	uint32_t stripe_count;	/* default 1 */
	const char *crush_map;	/* text map file, or NULL for the default map */
	int crush_rule;		/* -1: first replicated rule */
	int full_policy;	/* enum cfs_full_policy */
	int force;		/* replace an existing cluster */
	const char *pool_name;	/* default "crushfs_data" */
	/* `mkfs --from-ceph SNAPDIR` (import.c): a live cluster's osdmap
	 * instead of a made one; nosds, nhosts, pg_num, pgp_num, size,
	 * min_size, crush_map, crush_rule and pool_name do not apply */
	const char *from_ceph;
	const char *data_pool;	/* the pool for the filesystem (NULL: pick) */
	int prefill;		/* OSDs start with their kb_used accounted */
	char *warnings;		/* out: what was not modelled, one line */
	size_t warnlen;
	/* written as DIR/backend.json when set: which object store holds
	 * the data (objlayer reads it; absent: these OSD folders) */
	const char *backend_json;
};
void cfs_mkfs_opts_init(struct cfs_mkfs_opts *o);
/* The cluster follows a new snapshot of the live Ceph cluster it was
 * imported from (import.c): its osdmap replaces the current one when the
 * epoch moved (*changed 1), keeping the data pool and the local settings
 * (layout, full policy, prefill).  When the data pool's pg_num changed,
 * -EAGAIN unless the caller holds the PG layout exclusively (layout_held:
 * cfs_pg_layout_exclusive), since the per-PG state is then remade;
 * -EBUSY when the data pool was made again (a new id); else import's
 * errors. */
int cfs_import_refresh(cfs_cluster *c, const char *snapdir, int layout_held,
		       int *changed, char *err, size_t errlen);
/* Builds DIR.tmp-XXXXXX completely, then renames it to DIR (exchanging an
 * old cluster atomically with --force), so DIR is never half made. */
int cfs_mkfs(const char *dir, const struct cfs_mkfs_opts *o, char *err,
	     size_t errlen);

/* ---- file layouts (layout.c) ---- */
#define CFS_MIN_STRIPE_UNIT 65536u	   /* CephFS CEPH_MIN_STRIPE_UNIT */
#define CFS_MAX_STRIPE_COUNT 65536	   /* ours: see layout.c */
#define CFS_MAX_OBJECT_SIZE (1ULL << 30) /* = objlayer's OL_MAX_OBJECT_SIZE */
/*
 * CephFS's file_layout_t::is_valid plus our two bounds: stripe_unit and
 * object_size non-zero multiples of 64 KiB, object_size a multiple of
 * stripe_unit and at most 1 GiB, stripe_count 1..CFS_MAX_STRIPE_COUNT.
 * 0, or -EINVAL with one line in err (if err) naming the field as names[]
 * calls them (stripe unit, count, object size; NULL: "stripe_unit"...).
 */
int cfs_layout_check(uint64_t stripe_unit, uint64_t stripe_count,
		     uint64_t object_size, const char *const names[3],
		     char *err, size_t errlen);

/* ---- opening ---- */
#define CFS_OPEN_RDONLY 0x1 /* shared lock, never writes anything */
int cfs_cluster_open(const char *dir, int flags, cfs_cluster **out,
		     char *err, size_t errlen);
/* Writes usage.json and drops usage.dirty (writers), closes every fd. */
void cfs_cluster_close(cfs_cluster *c);
const char *cfs_cluster_dir(const cfs_cluster *c);
int cfs_cluster_rdonly(const cfs_cluster *c);

/* ---- dry runs (osdmap.c) ----
 * Between begin and end, this thread's osdmap changes (cfs_osd_mark_out,
 * cfs_osd_reweight, cfs_osd_crush_reweight, cfs_osd_add, ...) compute the
 * map they would install and stop there: nothing is written, nothing is
 * installed, no OSD folder is made.  end returns the last such map (a
 * reference: cfs_osdmap_put it), or NULL when no change got that far. */
void cfs_dry_run_begin(void);
const cfs_osdmap *cfs_dry_run_end(void);

/* ---- osdmap snapshots (osdmap.c) ---- */
const cfs_osdmap *cfs_osdmap_get(cfs_cluster *c);
void cfs_osdmap_put(const cfs_osdmap *m);

struct cfs_osd_info {
	int id;
	int exists;
	int up;
	uint32_t reweight;	   /* 16.16; 0 = out (Ceph osd_weight) */
	uint32_t crush_weight;	   /* 16.16, from the crush map */
	uint32_t primary_affinity; /* 16.16 */
	uint64_t capacity;	   /* virtual size in bytes */
	uint64_t prefill;	   /* bytes counted used before any object */
	char uuid[37];
	char host[64];		   /* parent bucket name in the crush map */
};

struct cfs_pool_info {
	int64_t id;
	char name[64];
	int size, min_size;
	uint32_t pg_num, pgp_num;
	int crush_rule;
	uint32_t object_size, stripe_unit, stripe_count;
	/* `osd pool set-quota`: 0 = none (Ceph's quota_max_bytes/objects) */
	uint64_t quota_max_bytes, quota_max_objects;
	/* pg_pool_t::TYPE_ERASURE (else replicated) and its profile */
	int erasure;
	char ec_profile[64];
	/* a data pool of the filesystem (`fs add_data_pool`; the first
	 * one always): layouts may name it */
	int fs_data;
	/* an erasure pool's FLAG_EC_OVERWRITES (`osd pool set P
	 * allow_ec_overwrites true`): partial writes allowed, as CephFS
	 * needs of a data pool */
	int ec_overwrites;
};

uint32_t cfs_osdmap_epoch(const cfs_osdmap *m);
/* When the cluster was made and this epoch installed (seconds). */
int64_t cfs_osdmap_created(const cfs_osdmap *m);
int64_t cfs_osdmap_modified(const cfs_osdmap *m);
const char *cfs_osdmap_fsid(const cfs_osdmap *m);
const pl_map *cfs_osdmap_crush(const cfs_osdmap *m);
/* One past the highest OSD id in use. */
int cfs_osdmap_max_osd(const cfs_osdmap *m);
/* -ENOENT when id does not exist. */
int cfs_osdmap_osd(const cfs_osdmap *m, int id, struct cfs_osd_info *out);
int cfs_osdmap_exists(const cfs_osdmap *m, int id);
int cfs_osdmap_is_up(const cfs_osdmap *m, int id);
int cfs_osdmap_is_in(const cfs_osdmap *m, int id);
const struct cfs_pool_info *cfs_osdmap_pool(const cfs_osdmap *m);
double cfs_osdmap_full_ratio(const cfs_osdmap *m);
double cfs_osdmap_backfillfull_ratio(const cfs_osdmap *m);
double cfs_osdmap_nearfull_ratio(const cfs_osdmap *m);
int cfs_osdmap_full_policy(const cfs_osdmap *m);
const char *cfs_full_policy_name(int policy);
/* Bytes at which an OSD counts as full (capacity * full_ratio). */
uint64_t cfs_osdmap_full_limit(const cfs_osdmap *m, int osd);
uint64_t cfs_osdmap_backfillfull_limit(const cfs_osdmap *m, int osd);
uint64_t cfs_osdmap_nearfull_limit(const cfs_osdmap *m, int osd);
/* 1 if osd is a device under one of the pool rule's `take` roots. */
int cfs_osdmap_osd_in_rule(const cfs_osdmap *m, int osd);

/* ---- PGs (pgtable.c): computed once per epoch ---- */
struct cfs_pg_mapping {
	uint32_t ps;		/* PG seed: the PG is pool.ps */
	/* CRUSH's set minus OSDs that do not exist, then with the PG's
	 * upmap entries applied (OSDMap::pg_to_raw_upmap) */
	int raw[CFS_MAX_REP], nraw;
	int raw_upmap[CFS_MAX_REP], nraw_upmap;
	int up[CFS_MAX_REP], nup, up_primary;
	int acting[CFS_MAX_REP], nacting, acting_primary;
};
/* Object name -> raw hash and PG seed (stable_mod by pg_num). */
void cfs_object_to_pg(const cfs_osdmap *m, const char *name, uint32_t *raw,
		      uint32_t *ps);
/* The PG's mapping in this epoch (ps < pg_num). */
const struct cfs_pg_mapping *cfs_osdmap_pg(const cfs_osdmap *m, uint32_t ps);
/* "1.1f" */
void cfs_pgid_str(const cfs_osdmap *m, uint32_t ps, char *buf, size_t len);
/* Parse "1.1f" into ps for this map's pool; -EINVAL / -ENOENT. */
int cfs_pgid_parse(const cfs_osdmap *m, const char *s, uint32_t *ps);

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

/*
 * pg_temp (pgtemp.c): while a PG's up set lacks its objects (after out,
 * reweight, a crush change...), its acting set stays on complete holders,
 * as Ceph's primary asks for a pg_temp after peering; rebalance
 * (backfill) completes the up set, then cfs_pg_temp_refresh() drops the
 * entry and acting = up again.
 */
struct cfs_pg_temp {
	uint32_t ps;
	int n;
	int osds[CFS_MAX_REP];
};
/* primary_temp: the primary a PG is given instead of its acting set's
 * first (Ceph 16.2 keeps such entries from older releases' monitors and
 * `osd primary-temp`; crushfs has them only from an imported osdmap). */
struct cfs_pg_ptemp {
	uint32_t ps;
	int osd;
};
/* Pool `pool`'s entries by PG seed (*n of them; NULL and 0 when none or
 * no such pool). */
const struct cfs_pg_upmap *cfs_pool_upmaps(const cfs_osdmap *m, int64_t pool,
					   int *n);
const struct cfs_pg_temp *cfs_pool_pg_temps(const cfs_osdmap *m, int64_t pool,
					    int *n);
const struct cfs_pg_ptemp *cfs_pool_primary_temps(const cfs_osdmap *m,
						  int64_t pool, int *n);
/* Every pool's entries as `ceph osd dump -f json` prints them: an object
 * with "pg_upmap", "pg_upmap_items", "pg_temp" and "primary_temp" lists
 * (a new jansson reference; NULL when out of memory). */
struct json_t;
struct json_t *cfs_osdmap_overrides_json(const cfs_osdmap *m);
/* The PG's entry, NULL when it has none. */
const struct cfs_pg_temp *cfs_osdmap_pg_temp(const cfs_osdmap *m,
					     uint32_t ps);
/* Every entry, by PG seed, *n of them. */
const struct cfs_pg_temp *cfs_osdmap_pg_temps(const cfs_osdmap *m, int *n);
/* Choose the entries again from who holds what now: a new epoch when
 * they change (*changed 1), none otherwise. */
int cfs_pg_temp_refresh(cfs_cluster *c, int *changed);

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

/* How many of the pool's PGs would change their up set if the OSDs had
 * these reweights (max_osd entries, 16.16), the map otherwise as it is
 * (upmaps and primary affinity included). */
int cfs_osdmap_pgs_moved_by(const cfs_osdmap *m, const uint32_t *reweight,
			    int *moved);

/* What OSDMap::summarize_mapping_stats (16.2) counts for those reweights:
 * up-set copies per OSD now (base) and after (next), max_osd entries each
 * or NULL; *moved: copies that leave their OSD (a replicated pool's up
 * OSDs missing from the new up set), *total: pg_num x size. */
int cfs_osdmap_mapping_stats(const cfs_osdmap *m, const uint32_t *reweight,
			     unsigned *base, unsigned *next, unsigned *moved,
			     unsigned *total);

/* ---- erasure-code profiles (ecprofile.c), as the osdmap keeps them ----
 * A profile is a set of key=value strings; every cluster has "default"
 * (k=2 m=2 plugin=jerasure technique=reed_sol_van). */
int cfs_ec_profile_exists(const cfs_osdmap *m, const char *name);
/* A value, NULL when the profile or key is missing. */
const char *cfs_ec_profile_get(const cfs_osdmap *m, const char *name,
			       const char *key);
/* The profiles' names (up to max), returns how many there are. */
int cfs_ec_profile_names(const cfs_osdmap *m, const char **names, int max);
/* A profile's keys and values (up to max), how many; -ENOENT. */
int cfs_ec_profile_keys(const cfs_osdmap *m, const char *name,
			const char **keys, const char **vals, int max);
/* Set a profile (a new epoch): -EEXIST when it is already exactly that,
 * -EPERM (why says so) when it differs and !force. */
int cfs_ec_profile_set(cfs_cluster *c, const char *name,
		       const char *const *keys, const char *const *vals,
		       int n, int force, char *why, size_t whylen);
int cfs_ec_profile_rm(cfs_cluster *c, const char *name);

/* ---- changing the map: each call is one new epoch, persisted ---- */
/*
 * `osd pool set` / `osd pool set-quota` on the pool (pool.c): want is the
 * pool as it should be (from cfs_osdmap_pool, fields changed).  Checked
 * as Ceph 16.2's OSDMonitor checks them (why gets its message): size
 * 1..10 (and at most CFS_MAX_REP), min_size 1..size, the crush rule must
 * exist, be replicated and accept the size.  A size change sets min_size
 * to Ceph's default for it (size - size/2) unless min_size changes too.
 * pgp_num 1..pg_num (placement only: backfill follows); pg_num changes go
 * through cfs_pool_set_pg_num.
 */
int cfs_pool_update(cfs_cluster *c, const struct cfs_pool_info *want,
		    char *why, size_t whylen);

/*
 * ---- the pools beside the filesystem's data pool (pools.c) ----
 * Placed every epoch like the data pool (replicated, or erasure-coded on
 * an indep rule whose holes stay), holding no object of crushfs's: the
 * filesystem lives in the data pool.  Pools are listed data pool first,
 * then by id; cfs_pool_update takes any of them (pg_num too, for these:
 * nothing to move).
 */
int cfs_osdmap_npools(const cfs_osdmap *m);
const struct cfs_pool_info *cfs_osdmap_pool_at(const cfs_osdmap *m, int i);
const struct cfs_pool_info *cfs_osdmap_pool_by_name(const cfs_osdmap *m,
						    const char *name);
const struct cfs_pool_info *cfs_osdmap_pool_by_id(const cfs_osdmap *m,
						  int64_t id);
/* Object name -> raw hash and PG seed in any pool; -ENOENT: no pool. */
int cfs_pool_object_to_pg(const cfs_osdmap *m, int64_t pool,
			  const char *name, uint32_t *raw, uint32_t *ps);
/* A PG of any pool in this epoch (NULL: no such pool or PG). */
const struct cfs_pg_mapping *cfs_osdmap_pool_pg(const cfs_osdmap *m,
					       int64_t pool, uint32_t ps);
/* `osd pool create`: want's name, type (ec_profile for erasure), size,
 * min_size, pg_num, pgp_num and crush_rule, checked as OSDMonitor does
 * (the rule's type and sizes, mon_max_pg_per_osd); *id gets the new id
 * (pool_max + 1).  -EEXIST when the name is taken. */
int cfs_pool_create(cfs_cluster *c, const struct cfs_pool_info *want,
		    int64_t *id, char *why, size_t whylen);
/* `osd pool rm`: -ENOENT, -EBUSY for a data pool of the filesystem. */
int cfs_pool_remove(cfs_cluster *c, int64_t id, char *why, size_t whylen);
/*
 * The filesystem's data pools (CephFS's FSMap data_pools; crushfs keeps
 * them with the pools): the first data pool, then those added.
 * `fs add_data_pool`: -ENOENT no such pool, -EEXIST already one,
 * -EOPNOTSUPP an erasure-coded pool (crushfs keeps no file data in one
 * yet; Ceph needs allow_ec_overwrites), -EROFS/CFS_ELIVE as any change.
 * `fs rm_data_pool`: -EINVAL for the first (Ceph: "cannot remove default
 * data pool"), -ENOENT not a data pool, -EBUSY while the pool holds
 * objects (Ceph lets files lose their data; crushfs refuses).
 */
int cfs_fs_is_data_pool(const cfs_osdmap *m, int64_t pool);
int cfs_fs_add_data_pool(cfs_cluster *c, int64_t pool, char *why,
			 size_t whylen);
int cfs_fs_rm_data_pool(cfs_cluster *c, int64_t pool, char *why,
			size_t whylen);
/* "P.S" of any pool: -EINVAL malformed, -ENOENT no such pool or PG. */
int cfs_pool_pgid_parse(const cfs_osdmap *m, const char *s, int64_t *pool,
			uint32_t *ps);

/*
 * The PG layout gate: taken shared by everything that works with PG seeds
 * of the current pg_num (object I/O, scrub, rebalance, PG statistics, the
 * cluster check) - it may be taken again by the same thread - and
 * exclusively around a pg_num change, which moves objects between PGs.
 */
void cfs_pg_layout_shared(cfs_cluster *c);
void cfs_pg_layout_exclusive(cfs_cluster *c);
void cfs_pg_layout_release(cfs_cluster *c);

/*
 * `osd pool set NAME pg_num N` (pgsplit.c) on any pool that can hold
 * objects: PG split or merge as Ceph's
 * stable_mod assigns objects, on a clean cluster, the caller holding the
 * PG layout gate exclusively (objlayer's ol_set_pg_num); a merge needs
 * pgp_num <= N first (and the PGs co-located).  pgp_num stays (lowered to
 * N on a merge): `pgp_num` then spreads the new PGs.  Crash-safe: an
 * interrupted change is finished by the next open for writing.  -EALREADY
 * when pg_num is N already; -EBUSY / -ERANGE with the reason in why.
 */
int cfs_pool_set_pg_num(cfs_cluster *c, int64_t pool, uint32_t pg_num,
			char *why, size_t whylen);
/* What that change would do, changing nothing: the same refusals, and
 * how many objects (of how many) stable_mod files into another PG. */
struct cfs_pg_num_plan {
	uint32_t from, to;
	uint64_t objects, bytes;   /* every object of the pool */
	uint64_t refiled, refiled_bytes;
};
int cfs_pool_pg_num_plan(cfs_cluster *c, int64_t pool, uint32_t pg_num,
			 struct cfs_pg_num_plan *plan, char *why,
			 size_t whylen);
/* A pool's use as quotas count it: logical bytes and objects (its raw
 * use and object copies over the pool size, as `df` STORED). */
void cfs_pool_usage(cfs_cluster *c, const cfs_osdmap *m,
		    const struct cfs_pool_info *p, uint64_t *bytes,
		    uint64_t *objects);
/* 1 when the pool reached a quota (Ceph's FULL_QUOTA flag: writes get
 * EDQUOT, deletes go on); *which gets "max_bytes" or "max_objects". */
int cfs_pool_quota_full(cfs_cluster *c, const cfs_osdmap *m,
			const struct cfs_pool_info *p, const char **which);

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
int cfs_osd_mark_out(cfs_cluster *c, int osd);
int cfs_osd_mark_in(cfs_cluster *c, int osd);
int cfs_osd_mark_down(cfs_cluster *c, int osd);
int cfs_osd_mark_up(cfs_cluster *c, int osd);
int cfs_osd_reweight(cfs_cluster *c, int osd, uint32_t weight);
int cfs_osd_crush_reweight(cfs_cluster *c, int osd, uint32_t weight);
/* `osd setcrushmap`: install crush (taken, also on error) as the map;
 * -EINVAL with the reason in why when the pool's rule is missing.  Devices
 * the osdmap has no OSD for map as nonexistent (Ceph: OSD_ORPHAN). */
int cfs_osd_setcrushmap(cfs_cluster *c, pl_map *crush, char *why,
			size_t whylen);
int cfs_osd_primary_affinity(cfs_cluster *c, int osd, uint32_t aff);
int cfs_osd_set_capacity(cfs_cluster *c, int osd, uint64_t bytes);
/*
 * The crush weight (16.16) of a device of `bytes`: its size in TiB, as a
 * Ceph OSD sets it when it first boots (osd_crush_initial_weight = -1:
 * statfs total / 2^40, OSD::update_crush_location), computed without
 * overflow for any size; at least 0.001 (CFS_MIN_CRUSH_WEIGHT), the
 * smallest weight crushtool's three-decimal text keeps.  -ERANGE over 100
 * TiB: the cluster keeps its map as crushtool text, and crushtool refuses
 * a device weight over 100 ("device weight limited to 100",
 * CRUSH_MAX_DEVICE_WEIGHT), so such a map could not be read back.
 */
#define CFS_MAX_DEVICE_WEIGHT (100u * CFS_WEIGHT_ONE)
#define CFS_MAX_BUCKET_WEIGHT (65535u * CFS_WEIGHT_ONE)
int cfs_size_crush_weight(uint64_t bytes, uint32_t *weight);
/* New OSD (lowest free id) under host bucket `host` (created under the
 * first root when missing), crush weight cfs_size_crush_weight(size):
 * -ERANGE past 100 TiB. */
int cfs_osd_add(cfs_cluster *c, const char *host, uint64_t size, int *id);
/* Ratios in (0, 1]. */
int cfs_set_full_ratio(cfs_cluster *c, double r);
int cfs_set_backfillfull_ratio(cfs_cluster *c, double r);
int cfs_set_nearfull_ratio(cfs_cluster *c, double r);
int cfs_set_full_policy(cfs_cluster *c, int policy);

/* ---- OSD usage (osd_store.c) ---- */
struct cfs_osd_usage {
	uint64_t used;	  /* bytes of object data held (sum of file sizes) */
	uint64_t objects; /* object files held */
};
void cfs_osd_usage(cfs_cluster *c, int osd, struct cfs_osd_usage *u);
/* The part of it in one pool's PGs. */
void cfs_osd_pool_usage(cfs_cluster *c, int osd, int64_t pool,
			struct cfs_osd_usage *u);

/*
 * Space reservation: before writing, reserve the bytes a write adds on each
 * OSD; fails with -ENOSPC if used + reserved + bytes > limit or the OSD is
 * already at/over the limit.  After the write, cfs_osd_unreserve() the
 * reservation (the store has then accounted what really changed).
 */
int cfs_osd_reserve(cfs_cluster *c, int osd, uint64_t bytes, uint64_t limit);
void cfs_osd_unreserve(cfs_cluster *c, int osd, uint64_t bytes);

/*
 * The byte count past which a write to osd is refused: full_ratio of its
 * capacity under policy osd (a write that would push the OSD over is
 * refused), the capacity itself under policy pool (writes go on until an
 * OSD of the rule reaches full_ratio, then the pool refuses them all, as
 * Ceph's monitor sets the pool FULL when an OSD reports full).
 */
uint64_t cfs_osdmap_write_limit(const cfs_osdmap *m, int osd);

/* ---- refused writes (refused.c): the cause of every ENOSPC ---- */
struct cfs_refused {
	int osd;
	int64_t pool;
	uint32_t ps;	/* the PG written to */
	uint64_t bytes; /* what the write needed on the OSD */
	uint64_t used;	/* the OSD's use when it refused */
	int64_t when;
};
/* A write refused with -ENOSPC because osd lacked room (the caller's
 * cfs_osd_reserve against cfs_osdmap_write_limit failed): kept per OSD
 * (the last one) in memory and DIR/refused.json. */
void cfs_osd_note_refused(cfs_cluster *c, int osd, int64_t pool,
			  uint32_t ps, uint64_t bytes);
/* The kept refusals, at most max; returns the count. */
int cfs_osd_refused(cfs_cluster *c, struct cfs_refused *out, int max);

/*
 * ---- backfill_toofull (toofull.c) ----
 * The PGs a rebalance left because a backfill target could not take
 * their objects without crossing backfillfull_ratio (Ceph: the target
 * refuses the backfill reservation): which target, and how many bytes it
 * refused.  Each rebalance replaces the whole list.  Kept in memory and
 * DIR/backfill_toofull.json.
 */
struct cfs_toofull {
	int64_t pool;
	uint32_t ps;
	int osd;
	uint64_t bytes;
};
int cfs_toofull_set(cfs_cluster *c, const struct cfs_toofull *v, int n);
/* 1 with *out when PG pool.ps is on the list, else 0. */
int cfs_toofull_get(cfs_cluster *c, int64_t pool, uint32_t ps,
		    struct cfs_toofull *out);

/*
 * ---- ops waiting for an inactive PG (slowops.c) ----
 * A Ceph client's op to a PG that cannot serve (fewer than min_size of
 * its acting set up, or none) is not failed: the Objecter keeps it until
 * an osdmap makes the PG active, and the OSDs report such ops as SLOW_OPS
 * once they are older than osd_op_complaint_time.  objlayer registers an
 * op here while it waits, so that health can name it.
 */
struct cfs_slow_op {
	uint64_t id;
	int64_t pool;
	uint32_t ps;
	int osd;	       /* the PG's up primary, -1 if none */
	char what[16];	       /* "write", "read", "truncate" ... */
	char name[96];	       /* the object */
	struct timespec since; /* CLOCK_MONOTONIC */
	int up, min_size;      /* of the acting set, when it began */
};
/* Register a waiting op and wait until an epoch newer than `epoch` is
 * installed: 0; -ETIMEDOUT once *deadline (CLOCK_MONOTONIC; NULL: none)
 * has passed; -ECANCELED after cfs_osdmap_wake_waiters().  Safe to
 * cancel (pthread_cancel) while it waits. */
int cfs_pg_wait_active(cfs_cluster *c, uint32_t epoch,
		       const struct timespec *deadline,
		       const struct cfs_slow_op *op);
/* Every waiter gives up with -ECANCELED (the daemon is going away). */
void cfs_osdmap_wake_waiters(cfs_cluster *c);
/* The ops waiting now, oldest first, at most max; returns the count. */
int cfs_slow_ops(cfs_cluster *c, struct cfs_slow_op *out, int max);

/* ---- options (config.c), as `ceph config set WHO KEY VALUE`:
 * mon_allow_pool_delete (false), mon_max_pg_per_osd (250),
 * osd_op_complaint_time (30 s), rados_osd_op_timeout (0: ops on an
 * inactive PG wait for ever).  Kept in DIR/config.json; not osdmap state
 * (no epoch). */
#define CFS_CONFIG_NOPTS 4
struct cfs_config_entry {
	const char *name, *desc;
	char value[32];
	int is_default;
};
/* The option's value as text; -ENOENT for an option crushfs lacks. */
int cfs_config_get(cfs_cluster *c, const char *name, char *buf, size_t len);
/* Set (value NULL: back to the default); -EINVAL with Ceph's message for
 * an unknown option or a value of the wrong type. */
int cfs_config_set(cfs_cluster *c, const char *name, const char *value,
		   char *why, size_t whylen);
/* Every option (CFS_CONFIG_NOPTS entries); returns their count. */
int cfs_config_list(cfs_cluster *c, struct cfs_config_entry *out);

/* ---- objects on one OSD (osd_store.c): an fd cache under the hood ---- */
typedef struct cfs_obj cfs_obj;
#define CFS_OBJ_CREATE 0x1
/* -ENOENT when the object (or its PG folder) is not on that OSD. */
int cfs_obj_open(cfs_cluster *c, int osd, int64_t pool, uint32_t ps, const char *name,
		 int flags, cfs_obj **out);
void cfs_obj_put(cfs_obj *o);
uint64_t cfs_obj_size(const cfs_obj *o);
/*
 * Every copy carries a checksum record (crc32c per block) and the object
 * version it holds (objcsum.c).  Reads verify what they return: -EBADMSG
 * when the bytes or the record do not match (the copy is rotten, torn by a
 * crash, or has no record).  Writes and truncates update the record in
 * memory and refuse (-EBADMSG) to change a copy it does not vouch for;
 * cfs_obj_commit() then stores it with the new version, after the data.
 */
/* Short count at end of object. */
ssize_t cfs_obj_pread(cfs_obj *o, void *buf, size_t len, uint64_t off);
/* All or -errno; usage follows the new size. */
int cfs_obj_pwrite(cfs_obj *o, const void *buf, size_t len, uint64_t off);
int cfs_obj_truncate(cfs_obj *o, uint64_t size);
int cfs_obj_commit(cfs_obj *o, uint64_t version);
/* Empty the copy with a fresh record (a write_full, or a leftover file
 * of an object that does not exist). */
int cfs_obj_reset(cfs_obj *o);
/*
 * A copy's bytes and checksum record as they are on disk, unchecked, and
 * put back so: what undoes an interrupted erasure-coded change (objlayer
 * ec_io.c stashes both before it, restores both after a crash).  raw
 * record: its length (0: none), -ERANGE when len is too small.
 */
ssize_t cfs_obj_raw_pread(cfs_obj *o, void *buf, size_t len, uint64_t off);
ssize_t cfs_obj_raw_record(cfs_obj *o, void *buf, size_t len);
#define CFS_OBJ_RECORD_MAX 8192
int cfs_obj_raw_restore(cfs_obj *o, const void *buf, size_t n, uint64_t off,
			uint64_t size, const void *rec, size_t reclen);
/* 1 if the copy carries a checksum record (valid or not). */
int cfs_obj_has_record(cfs_obj *o);
/* The version the copy's record names; -EBADMSG without a valid record. */
int cfs_obj_version(cfs_obj *o, uint64_t *version);
/* Read and check every block: 0 or -EBADMSG (deep scrub). */
int cfs_obj_verify(cfs_obj *o);
/* Trust the data as it is: compute a new record (adopting copies made
 * before checksums existed). */
int cfs_obj_rebuild_csum(cfs_obj *o, uint64_t version);
/* crc32c (Castagnoli), chainable: crc of A||B = cfs_crc32c(crc(A), B). */
uint32_t cfs_crc32c(uint32_t crc, const void *buf, size_t len);
int cfs_obj_sync(cfs_obj *o);
struct timespec;
int cfs_obj_mtime(cfs_obj *o, struct timespec *ts);
/* Unlink (0 if absent); usage drops at once. */
int cfs_obj_remove(cfs_cluster *c, int osd, int64_t pool, uint32_t ps, const char *name);
/*
 * Copy an object from src to dst (same PG): a temporary file is written,
 * fsynced, checked against the source's checksums, then renamed over the
 * old copy, so a reader never sees a half-copied object and an interruption
 * leaves the old copy.  The copy carries the source's record and every
 * user.crushfs.* xattr.  -ENOENT if src lacks it, -EBADMSG if the source
 * fails its checksums (a bad copy never spreads).  *bytes gets the object size.  Used by
 * recovery and rebalance; the caller reserves space on dst.
 */
int cfs_obj_copy(cfs_cluster *c, int src, int dst, int64_t pool, uint32_t ps,
		 const char *name, uint64_t *bytes);
/* Path for display (locate). */
int cfs_obj_path(cfs_cluster *c, int osd, int64_t pool, uint32_t ps, const char *name,
		 char *buf, size_t len);

/* Objects of a PG on one OSD: name and size, sorted by name. */
struct cfs_obj_entry {
	char *name;
	uint64_t size;
};
int cfs_pg_list(cfs_cluster *c, int osd, int64_t pool, uint32_t ps,
		struct cfs_obj_entry **out, size_t *n);
void cfs_obj_entries_free(struct cfs_obj_entry *e, size_t n);
/* Remove an OSD's (empty) PG folder. */
int cfs_pg_remove_dir(cfs_cluster *c, int osd, int64_t pool, uint32_t ps);

/*
 * An erasure pool keeps shard i of its PG ps as a PG of its own: every
 * call here that takes a seed takes ps * width + i for it (width = k+m,
 * the pool's size), its folder Ceph's "POOL.PSs<i>_head".  So holders,
 * missing sets, usage and backfill are per shard, and an OSD holding two
 * shards of one PG keeps them apart.
 */
static inline uint32_t cfs_shard_ps(uint32_t ps, int width, int shard)
{
	return ps * (uint32_t)width + (uint32_t)shard;
}

/*
 * ---- PG state (pgstate.c): who holds what, like Ceph's peering info ----
 *
 * A holder of PG p is an OSD with a folder for p.  A holder is complete for
 * p unless it has a missing set: the objects whose copy there is stale (a
 * write or delete it missed while it was down or mapped elsewhere) or
 * absent (a backfill target that did not get them yet), as Ceph's
 * pg_missing_t.  Missing sets are persisted before the data they protect
 * changes, so a restart never serves a stale copy.
 *
 * cfs_pg_lock() serializes state changes of one PG; every pg_* call below
 * needs it held, and it may be held over object I/O.
 */
void cfs_pg_lock(cfs_cluster *c, int64_t pool, uint32_t ps);
void cfs_pg_unlock(cfs_cluster *c, int64_t pool, uint32_t ps);
/* OSDs holding p (ascending); returns the count (<= max). */
int cfs_pg_holders(cfs_cluster *c, int64_t pool, uint32_t ps, int *osds, int max);
int cfs_pg_is_holder(cfs_cluster *c, int64_t pool, uint32_t ps, int osd);
/* Make osd a holder (creates the folder); with names, it starts with that
 * missing set (a backfill target), persisted first. */
int cfs_pg_add_holder(cfs_cluster *c, int64_t pool, uint32_t ps, int osd,
		      char *const *names, size_t n);
/* Forget a holder (its folder must be empty or gone). */
int cfs_pg_drop_holder(cfs_cluster *c, int64_t pool, uint32_t ps, int osd);
/* 1 if name is in osd's missing set for p. */
int cfs_pg_is_missing(cfs_cluster *c, int64_t pool, uint32_t ps, int osd,
		      const char *name);
/* 1 while osd is a backfill target of p that has not caught up (made a
 * holder with every object missing): it cannot serve the PG, unlike a
 * holder that only missed some writes (Ceph's log recovery). */
int cfs_pg_is_backfill(cfs_cluster *c, int64_t pool, uint32_t ps, int osd);
/* Size of osd's missing set (0 = complete). */
size_t cfs_pg_missing_count(cfs_cluster *c, int64_t pool, uint32_t ps, int osd);
/* Calls fn for each name missing on osd; stop when fn returns non-zero. */
int cfs_pg_missing_foreach(cfs_cluster *c, int64_t pool, uint32_t ps, int osd,
			   int (*fn)(const char *name, void *arg), void *arg);
/* Add a name, persisted before returning (call it before changing data). */
int cfs_pg_mark_missing(cfs_cluster *c, int64_t pool, uint32_t ps, int osd,
			const char *name);
/* Remove a name (after the copy is current).  Persisted lazily: by
 * cfs_pg_flush() or at close; a crash in between only means one more copy. */
int cfs_pg_clear_missing(cfs_cluster *c, int64_t pool, uint32_t ps, int osd,
			 const char *name);
int cfs_pg_flush(cfs_cluster *c, int64_t pool, uint32_t ps);
/* A copy found bad (checksum, version or size wrong, or absent while the
 * object exists): missing, and counted as damaged (health's "scrub
 * errors", the PG "inconsistent") until cfs_pg_clear_missing() after it
 * was repaired.  Persisted before returning. */
int cfs_pg_mark_damaged(cfs_cluster *c, int64_t pool, uint32_t ps, int osd,
			const char *name);
int cfs_pg_is_damaged(cfs_cluster *c, int64_t pool, uint32_t ps, int osd,
		      const char *name);
/* Damaged copies in the PG, over all holders. */
size_t cfs_pg_damaged_count(cfs_cluster *c, int64_t pool, uint32_t ps);

/* Every object of a PG on any of its holders, in name order (a merge of
 * the holders' sorted listings).  Load with cfs_pg_lock held; each
 * cfs_pg_copies_next() sets name and, per holder i, at[i]: its entry for
 * that object, or NULL when the holder has no file of it. */
#define CFS_PG_MAX_HOLDERS 256
struct cfs_pg_copies {
	int n;
	int osd[CFS_PG_MAX_HOLDERS];
	const struct cfs_obj_entry *at[CFS_PG_MAX_HOLDERS];
	const char *name;
	struct cfs_obj_entry *list_[CFS_PG_MAX_HOLDERS];
	size_t count_[CFS_PG_MAX_HOLDERS], pos_[CFS_PG_MAX_HOLDERS];
};
int cfs_pg_copies_load(cfs_cluster *c, int64_t pool, uint32_t ps, struct cfs_pg_copies *pc);
int cfs_pg_copies_next(struct cfs_pg_copies *pc); /* 1, or 0 at the end */
void cfs_pg_copies_free(struct cfs_pg_copies *pc);

/* ---- object attributes (obj_xattr.c): named values kept with one
 * copy of an object, as RADOS object xattrs (the CephFS backtrace) ----
 * key: [^/]+, at most 240 bytes.  -ENOENT when the copy is not on that
 * OSD, -ENODATA when it has no such attribute; get returns the value's
 * length (len 0: only the length; too small a buffer: -ERANGE). */
int cfs_obj_setxattr(cfs_cluster *c, int osd, int64_t pool, uint32_t ps, const char *name,
		     const char *key, const void *val, size_t len);
ssize_t cfs_obj_getxattr(cfs_cluster *c, int osd, int64_t pool, uint32_t ps,
			 const char *name, const char *key, void *val,
			 size_t len);
int cfs_obj_removexattr(cfs_cluster *c, int osd, int64_t pool, uint32_t ps,
			const char *name, const char *key);
/* A digest of every attribute of the copy (names and values, in name
 * order; 0: it has none), -ENOENT when the copy is not there: scrub
 * compares copies' attributes by it, as Ceph's be_compare_scrubmaps
 * compares their attrs. */
int cfs_obj_attrs_digest(cfs_cluster *c, int osd, int64_t pool, uint32_t ps,
			 const char *name, uint32_t *digest);

/*
 * ---- the object index (objindex.c): which objects exist ----
 * Ceph's PG log in miniature: every object of the pool with its current
 * version and size.  A copy is current when its checksum record names that
 * version; an object absent here does not exist (a hole), whatever files
 * say.  Intents record a change in flight before any copy is touched, so
 * an interrupted change is found and settled at the next open.
 */
struct cfs_objinfo {
	uint64_t version;
	uint64_t size;
};
#define CFS_INTENT_WRITE 1
#define CFS_INTENT_REMOVE 2
/* -ENOENT when the object does not exist. */
int cfs_index_get(cfs_cluster *c, int64_t pool, const char *name, struct cfs_objinfo *oi);
/* A new version, larger than every one handed out before (0 + *err on
 * failure). */
uint64_t cfs_index_next_version(cfs_cluster *c, int *err);
/* Record a change in flight (next NULL: a remove). */
int cfs_index_intent(cfs_cluster *c, int64_t pool, const char *name,
		     const struct cfs_objinfo *next);
/* A write in flight with what undoes it (undo: len bytes, the caller's
 * format), in one batch; cfs_index_set drops both.  get: *undo
 * malloc'ed, -ENOENT when there is none. */
int cfs_index_intent_undo(cfs_cluster *c, int64_t pool, const char *name,
			  const struct cfs_objinfo *next, const void *undo,
			  size_t len);
int cfs_index_get_undo(cfs_cluster *c, int64_t pool, const char *name,
		       void **undo, size_t *len);
/* The change in flight for name (-ENOENT: none); op is CFS_INTENT_*. */
int cfs_index_get_intent(cfs_cluster *c, int64_t pool, const char *name,
			 struct cfs_objinfo *next, int *op);
/* Record the object's state (NULL: it no longer exists) and drop its
 * intent, in one batch. */
int cfs_index_set(cfs_cluster *c, int64_t pool, const char *name,
		  const struct cfs_objinfo *oi);
/* Objects (or, with intents, changes in flight; op is CFS_INTENT_*) whose
 * name starts with prefix, in name order; fn returning non-zero stops. */
int cfs_index_foreach(cfs_cluster *c, int64_t pool, const char *prefix, int intents,
		      int (*fn)(const char *name,
				const struct cfs_objinfo *oi, int op,
				void *arg),
		      void *arg);
/* A counter that grows after every record change of a name starting with
 * stem + '.' (and, sharing its slot, a few other stems): equal before and
 * after a scan of that prefix means the scan saw the current records. */
uint64_t cfs_index_stem_gen(cfs_cluster *c, const char *stem);
/* Make every index change durable (WAL fsync). */
int cfs_index_sync(cfs_cluster *c);
/* 1 when this open created the index (it must be rebuilt from copies). */
int cfs_index_is_new(const cfs_cluster *c);

/* ---- health and space (health.c, health_checks.c) ---- */
/* `ceph df` MAX AVAIL of the pool (PGMap::get_rule_avail / raw used rate):
 * bytes writable before the first OSD of the rule reaches full_ratio. */
uint64_t cfs_pool_max_avail(cfs_cluster *c, const cfs_osdmap *m);
/* The same for given per-OSD usage (used[0..max_osd) of m, e.g. after a
 * move that has not happened); *limit (may be NULL) gets the OSD whose
 * room bounds it, the one that fills first, or -1. */
uint64_t cfs_pool_max_avail_with(const cfs_osdmap *m, const uint64_t *used,
				 int *limit);
/* The same up to another ratio (e.g. nearfull_ratio): bytes writable
 * before the first OSD of the rule reaches it, that OSD in *limit. */
uint64_t cfs_pool_avail_before(const cfs_osdmap *m, const uint64_t *used,
			       double ratio, int *limit);
/* MAX AVAIL of any pool (used: bytes per OSD of m): its rule's room
 * before full_ratio over its raw used rate (size; (k+m)/k erasure). */
uint64_t cfs_pool_max_avail_for(const cfs_osdmap *m,
				const struct cfs_pool_info *p,
				const uint64_t *used);
/* 1 if pool p (NULL: the data pool) refuses writes under policy `pool`
 * (a full OSD in its rule); *osd gets that OSD. */
int cfs_pool_is_full(cfs_cluster *c, const cfs_osdmap *m,
		     const struct cfs_pool_info *p, int *osd);

/*
 * A health snapshot: what `status`, `health [detail]`, `osd df` and `df`
 * show, computed from ONE read of every OSD's usage on one osdmap.  Writes
 * go on meanwhile, so reading usage twice could disagree with itself (an
 * OSD crossing full_ratio between a count and its detail lines); every
 * figure and check here comes from the same reads, as Ceph's monitor
 * computes health from one PGMap and OSDMap pair.
 *
 * PG checks need PG states, which objlayer computes (ol_pg_stat); the
 * caller passes them as struct cfs_pg_health, or none (npgs 0).
 */
enum cfs_health_status { CFS_HEALTH_OK = 0, CFS_HEALTH_WARN = 1,
			 CFS_HEALTH_ERR = 2 };
enum cfs_fullness { CFS_FULLNESS_NONE = 0, CFS_FULLNESS_NEARFULL,
		    CFS_FULLNESS_BACKFILLFULL, CFS_FULLNESS_FULL };

/* What the checks need of one PG. */
#define CFS_PGH_INACTIVE 0x01	      /* not active (peered or down) */
#define CFS_PGH_DOWN 0x02
#define CFS_PGH_DEGRADED 0x04
#define CFS_PGH_UNDERSIZED 0x08
#define CFS_PGH_BACKFILL_TOOFULL 0x10
#define CFS_PGH_INCONSISTENT 0x20     /* damaged copies not repaired */
struct cfs_pg_health {
	char pgid[32];	 /* "1.1f" */
	char state[128]; /* "active+undersized+degraded" */
	unsigned flags;	 /* CFS_PGH_* */
	int acting[CFS_MAX_REP], nacting;
};
/* Object totals over all PGs (copies = objects * pool size). */
struct cfs_pg_totals {
	uint64_t objects, copies, degraded, misplaced, unfound;
	uint64_t scrub_errors; /* damaged copies (cfs_pg_mark_damaged) */
};

struct cfs_osd_snap {
	struct cfs_osd_info info; /* info.exists 0: no such OSD id */
	int in;			  /* reweight > 0 */
	int in_rule;		  /* under the pool rule's take roots */
	uint64_t used, objects;	  /* the one read of its usage */
	uint64_t avail;		  /* capacity - used, 0 when over */
	int fullness;		  /* enum cfs_fullness of used */
};

/* One health check (Ceph health_check_t, with the `muted` flag its JSON
 * carries; crushfs has no `health mute`, so it is always 0). */
struct cfs_health_check {
	const char *code;  /* "OSD_FULL" */
	int severity;	   /* CFS_HEALTH_WARN or CFS_HEALTH_ERR */
	char summary[256];
	int64_t count;	   /* what the check is about: OSDs, PGs, objects */
	int muted;
	char **detail;	   /* ndetail lines */
	int ndetail;
};

#define CFS_HEALTH_MAX_CHECKS 20
struct cfs_health {
	int status; /* worst severity: enum cfs_health_status */
	struct cfs_health_check checks[CFS_HEALTH_MAX_CHECKS]; /* by code */
	int nchecks;

	int max_osd;
	struct cfs_osd_snap *osd; /* max_osd entries, indexed by id */
	int num_osds, num_up, num_in;
	uint64_t total, used, objects; /* over existing OSDs */
	uint64_t avail;	    /* the sum of each OSD's avail (osd df) */
	uint64_t raw_avail; /* total - used, 0 when over (status, df) */
	uint64_t rule_used; /* used by the OSDs under the pool's rule, the
			     * other pools' objects not counted */
	uint64_t max_avail; /* cfs_pool_max_avail() of these reads */
	int pool_full, pool_full_osd; /* cfs_pool_is_full() of them */
	const char *quota_full;	      /* cfs_pool_quota_full(): which */
	/* writes refused by OSDs below full_ratio that would still be
	 * refused with these reads (OSD_TOO_FULL_FOR_WRITE) */
	struct cfs_refused *refused;
	int nrefused;
	/* ops waiting for an inactive PG longer than
	 * osd_op_complaint_time (SLOW_OPS), oldest first */
	struct cfs_slow_op *slow;
	int nslow;
};
/* Take a snapshot on m (which the caller keeps referenced); pgs may be
 * NULL with npgs 0, tot NULL.  -ENOMEM; free with cfs_health_free(). */
int cfs_health_take(cfs_cluster *c, const cfs_osdmap *m,
		    const struct cfs_pg_health *pgs, uint32_t npgs,
		    const struct cfs_pg_totals *tot, struct cfs_health *h);
void cfs_health_free(struct cfs_health *h);
const char *cfs_health_status_name(int status); /* "HEALTH_WARN" */

/* ---- cluster check (check.c) ---- */
struct cfs_check_report {
	int osds_checked;
	int usage_mismatches; /* accounted != on disk */
	int stray_files;      /* files outside the layout */
	int misfiled;	      /* objects in a folder of the wrong PG */
	int replica_mismatches;
	uint64_t objects, bytes;
};
/* Scans every OSD; calls msg for each problem found.  deep: also compare
 * the replicas of every object byte for byte. */
int cfs_cluster_check(cfs_cluster *c, int deep, struct cfs_check_report *r,
		      void (*msg)(const char *line, void *arg), void *arg);

#endif
