/*
 * osdmap.h - the osdmap (part of osdsim.h): pools, OSD states and
 * weights, ratios, the epoch, each epoch's PG mappings and pg_temp, the
 * erasure-code profiles, the changes that make a new epoch, and the
 * options beside it.
 *
 * Snapshots.  An osdmap is immutable once installed and reference counted:
 * cfs_osdmap_get() returns the current one, cfs_osdmap_put() releases it.
 * Every change (cfs_osd_mark_out() ...) builds the next epoch from the
 * current one, computes its PG -> up/acting table once (a preallocated
 * workspace, no allocation per mapping), persists it, then swaps it in; a
 * live daemon sees the change at once and I/O already running finishes on
 * the map it started with.
 *
 * Errors: 0 or -errno; functions taking (err, errlen) or (why, whylen)
 * also write one line saying what was wrong.  Thread safety: every
 * function may be called from many threads at once unless noted.
 */
#ifndef CRUSHFS_OSDSIM_OSDMAP_H
#define CRUSHFS_OSDSIM_OSDMAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct cfs_cluster cfs_cluster;
typedef struct cfs_osdmap cfs_osdmap;
typedef struct pl_map pl_map; /* placement.h */

#define CFS_MAX_OSD 65536 /* OSD ids are 0 .. CFS_MAX_OSD-1 */
/* The largest OSD capacity, whole KiB: the sum over CFS_MAX_OSD of
 * them stays an int64_t (raw totals, df's and osd df's JSON integers),
 * so just under 2^63 / 2^16 = 128 TiB, past the largest devices made
 * (about 100 TB). */
#define CFS_MAX_OSD_CAPACITY (((uint64_t)INT64_MAX / CFS_MAX_OSD) & ~1023ULL)
#define CFS_MAX_REP 16	  /* pool size limit (and ol_placement's arrays) */
#define CFS_WEIGHT_ONE 0x10000 /* 16.16 fixed point 1.0 */

enum cfs_full_policy {
	CFS_FULL_OSD = 0,  /* refuse writes whose acting set holds a full OSD */
	CFS_FULL_POOL = 1, /* one full OSD in the rule refuses all writes */
};

/* ---- dry runs (osdmap_change.c) ----
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

/* OSDMonitor's limits on a pool's applications (Ceph 16.2
 * MAX_POOL_APPLICATIONS, MAX_POOL_APPLICATION_KEYS, _LENGTH); the text
 * crushfs keeps them in */
#define CFS_POOL_MAX_APPS 4
#define CFS_POOL_APP_KEYS 64
#define CFS_POOL_APP_LEN 128
#define CFS_POOL_APPS_LEN 1024
struct cfs_pool_info {
	int64_t id;
	char name[64];
	int size, min_size;
	/* what the PGs are split and placed by now (Ceph's pg_num and
	 * pgp_num "actual") */
	uint32_t pg_num, pgp_num;
	/* what they are moving to (pg_pool_t pg_num_target, pgp_num_target,
	 * Ceph 14+): `osd pool set` sets these, and rebalance - crushfs's
	 * DaemonServer::adjust_pgs - walks pg_num and pgp_num to them
	 * (adjust_pgs.c).  Equal to pg_num / pgp_num when nothing is under
	 * way. */
	uint32_t pg_num_target, pgp_num_target;
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
	/* pg_pool_t::application_metadata (`osd pool application`), compact
	 * JSON sorted by name: {"cephfs":{"data":"crushfs"}}; "" = none
	 * (pool_apps.c) */
	char apps[CFS_POOL_APPS_LEN];
};
/* 0 when apps is a valid applications text (cfs_pool_info.apps), else
 * -EINVAL with why */
int cfs_pool_apps_check(const char *apps, char *why, size_t whylen);
/* The pool's application names, "cephfs,rbd" (pg_pool_t's operator<<);
 * returns their count. */
struct cfs_pool_info;
int cfs_pool_app_names(const struct cfs_pool_info *p, char *buf, size_t len);

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

/* ---- names and profiles as Ceph checks them (ecprofile_check.c) ----
 * Each returns 0 or -EINVAL with one line in why. */
/* What cfs_ec_profile_check adds to what crushfs itself needs (k, m,
 * k + m <= 32, a stripe_unit that parses, is positive and fits): */
#define CFS_ECP_CEPH 1	 /* Ceph's: the name's characters, w, the
			  * stripe_unit's alignment */
#define CFS_ECP_PERF 2	 /* stripe_unit a multiple of 4096 (what
			  * --force lifts) */
#define CFS_ECP_ENCODE 4 /* a plugin and technique crushfs encodes */
int cfs_ec_profile_check(const char *name, const char *const *keys,
			 const char *const *vals, int n, int how, char *why,
			 size_t whylen);
/* Ceph's goodchars for a profile name, [A-Za-z0-9-_.], and its length */
int cfs_ec_profile_name_check(const char *name, char *why, size_t whylen);
/* Non-empty, no control character, fits cfs_pool_info's name. */
int cfs_pool_name_check(const char *name, char *why, size_t whylen);
/* name with control bytes as \xNN, cut to len */
void cfs_name_quote(const char *name, char *buf, size_t len);

/* ---- changing the map (osdmap_change.c): each call is one new epoch,
 * persisted ---- */
/*
 * `osd pool set` / `osd pool set-quota` on the pool: want is the pool as
 * it should be (from cfs_osdmap_pool, fields changed).  Checked (pools.c)
 * as Ceph 16.2's OSDMonitor checks them (why gets its message): size
 * 1..10 (and at most CFS_MAX_REP), min_size 1..size, the crush rule must
 * exist, be replicated and accept the size.  A size change sets min_size
 * to Ceph's default for it (size - size/2) unless min_size changes too.
 * pgp_num_target 1..pg_num_target (Ceph's `pgp_num`: rebalance steps
 * pgp_num to it), pgp_num 1..pg_num (Ceph's `pgp_num_actual`: placement
 * at once, backfill follows; a later rebalance steps it back to the
 * target when they differ); pg_num changes go through
 * cfs_pool_set_pg_num.  A dry run shows the map pgp_num_target leads to
 * (the steps' end).
 */
int cfs_pool_update(cfs_cluster *c, const struct cfs_pool_info *want,
		    char *why, size_t whylen);

int cfs_osd_mark_out(cfs_cluster *c, int osd);
int cfs_osd_mark_in(cfs_cluster *c, int osd);
/* The operator's `osd down`: as Ceph 16.2's "osd down" command
 * (OSDMonitor::prepare_command_impl), it does not ask can_mark_down, so
 * the nodown flag does not hold it back. */
int cfs_osd_mark_down(cfs_cluster *c, int osd);
/* A failure report (OSDMonitor::check_failure): the OSD is marked down
 * only when can_mark_down allows it; -EBUSY, no new epoch, when the
 * nodown flag is set or fewer than mon_osd_min_up_ratio of the OSDs
 * would stay up. */
int cfs_osd_report_failure(cfs_cluster *c, int osd);
/* The OSD boots (OSDMonitor::preprocess_boot): with the noup flag set the
 * boot is ignored (can_mark_up): -EBUSY, the OSD stays down, no new
 * epoch. */
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

/*
 * ---- OSD map flags (osdflags.c): `osd set|unset FLAG` ----
 * Ceph's CEPH_OSDMAP_* bits (include/rados.h, the same values), kept in
 * the osdmap and persisted with it.  What each one stops is done where
 * the work is: noout/noin by the down->out tick and `osd up`
 * (cfs_mon_tick, OSDMonitor::tick / prepare_boot), nobackfill /
 * norebalance / norecover by rebalance (objlayer), pauserd / pausewr by
 * the op gate (objlayer: ops wait), noscrub / nodeep-scrub by scheduled
 * scrubs only (an explicit `pg scrub` still runs, as in Ceph).
 */
#define CFS_OSDMAP_PAUSERD (1u << 2)
#define CFS_OSDMAP_PAUSEWR (1u << 3)
#define CFS_OSDMAP_NOUP (1u << 5)
#define CFS_OSDMAP_NODOWN (1u << 6)
#define CFS_OSDMAP_NOOUT (1u << 7)
#define CFS_OSDMAP_NOIN (1u << 8)
#define CFS_OSDMAP_NOBACKFILL (1u << 9)
#define CFS_OSDMAP_NORECOVER (1u << 10)
#define CFS_OSDMAP_NOSCRUB (1u << 11)
#define CFS_OSDMAP_NODEEP_SCRUB (1u << 12)
#define CFS_OSDMAP_NOREBALANCE (1u << 14)
#define CFS_OSDMAP_SORTBITWISE (1u << 15)
#define CFS_OSDMAP_RECOVERY_DELETES (1u << 19)
#define CFS_OSDMAP_PURGED_SNAPDIRS (1u << 20)
#define CFS_OSDMAP_PGLOG_HARDLIMIT (1u << 22)
/* what `osd set` may set */
#define CFS_OSDMAP_SETTABLE                                                   \
	(CFS_OSDMAP_PAUSERD | CFS_OSDMAP_PAUSEWR | CFS_OSDMAP_NOUP |          \
	 CFS_OSDMAP_NODOWN | CFS_OSDMAP_NOOUT | CFS_OSDMAP_NOIN |             \
	 CFS_OSDMAP_NOBACKFILL | CFS_OSDMAP_NORECOVER | CFS_OSDMAP_NOSCRUB |  \
	 CFS_OSDMAP_NODEEP_SCRUB | CFS_OSDMAP_NOREBALANCE)
/* what every Pacific map carries (a new cluster's `osd dump` flags) */
#define CFS_OSDMAP_ALWAYS                                                     \
	(CFS_OSDMAP_SORTBITWISE | CFS_OSDMAP_RECOVERY_DELETES |               \
	 CFS_OSDMAP_PURGED_SNAPDIRS | CFS_OSDMAP_PGLOG_HARDLIMIT)
/* the flags `osd set` set (CFS_OSDMAP_SETTABLE bits only) */
uint32_t cfs_osdmap_flags(const cfs_osdmap *m);
/* OSDMap::last_up_change / last_in_change: epoch seconds of the last
 * epoch that changed an OSD's up (in) state; 0: not known */
int64_t cfs_osdmap_last_up_change(const cfs_osdmap *m);
int64_t cfs_osdmap_last_in_change(const cfs_osdmap *m);
/* "noout" -> its bit, "pause" -> pauserd|pausewr; 0: not a flag */
uint32_t cfs_osd_flag_parse(const char *name);
/* OSDMap::get_flag_string: the names in Ceph's order, comma-separated
 * ("pauserd,pausewr"), "" for none; returns the length */
int cfs_osd_flag_string(uint32_t flags, char *buf, size_t len);
/* Each name alone, in the same order (flags_set in `osd dump -f json`
 * is sorted by the caller); returns how many (at most max). */
int cfs_osd_flag_names(uint32_t flags, const char **names, int max);
/* Set the bits `set` and clear `clear`: one new epoch, always (Ceph's
 * prepare_set_flag proposes one even when the flag is set already). */
int cfs_osd_set_flags(cfs_cluster *c, uint32_t set, uint32_t clear);

/*
 * ---- the monitor's tick (montick.c): OSDMonitor::tick's down->out ----
 * An OSD down and in for mon_osd_down_out_interval seconds (config, 600;
 * 0: never) is marked out, AUTOOUT with its weight remembered, unless
 * noout is set or the in ratio would fall below mon_osd_min_in_ratio
 * (0.75).  Down time counts from its down stamp, but not from before
 * `since` (the daemon's start: Ceph's monitor keeps down_pending_out in
 * memory and starts counting when it learns of the down OSD).  One epoch
 * for all those marked; each is reported to cb (osd, seconds down).
 * *held gets how many are kept in by noout only.  Returns how many were
 * marked out, or -errno.
 */
int cfs_mon_tick(cfs_cluster *c, int64_t now, int64_t since,
		 void (*cb)(int osd, int64_t secs, void *arg), void *arg,
		 int *held);

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
 * `osd pool set NAME pg_num N` done at once (pgsplit.c) on any pool that
 * can hold objects: PG split or merge as Ceph's stable_mod assigns
 * objects, on a clean cluster, the caller holding the PG layout gate
 * exclusively (objlayer's ol_set_pg_num); a merge needs pgp_num <= N
 * first (and the PGs co-located).  pgp_num stays: the same epoch sets
 * pg_num_target to N and, when pgp_num_target followed pg_num_target,
 * pgp_num_target too (OSDMonitor::prepare_command_pool_set), so that
 * rebalance then spreads the new PGs step by step.  Crash-safe: an
 * interrupted change is finished by the next open for writing.
 * -EALREADY when pg_num is N already; -EBUSY / -ERANGE with the reason
 * in why (-EBUSY: cfs_pool_set_pg_num_target leaves it to rebalance).
 * cfs_pool_step_pg_num is the same change without the targets: one of
 * rebalance's steps towards them (Ceph's `pg_num_actual`).
 */
int cfs_pool_set_pg_num(cfs_cluster *c, int64_t pool, uint32_t pg_num,
			char *why, size_t whylen);
int cfs_pool_step_pg_num(cfs_cluster *c, int64_t pool, uint32_t pg_num,
			 char *why, size_t whylen);
/*
 * `osd pool set NAME pg_num N` when the change waits (the pool not clean,
 * a merge whose PGs are not yet co-located): as Ceph 14+'s monitor, only
 * pg_num_target = N (and pgp_num_target with it when it followed), one
 * epoch (none when pg_num_target is N already); rebalance splits or
 * merges once it can.  -EALREADY when both pg_num and pg_num_target are
 * N; -ERANGE outside 1..65536.
 */
int cfs_pool_set_pg_num_target(cfs_cluster *c, int64_t pool, uint32_t pg_num,
			       char *why, size_t whylen);
/*
 * One pgp_num step of rebalance (Ceph's mgr sends `pgp_num_actual`): the
 * pool's pgp_num from `expect` to n, one epoch; -EAGAIN when pgp_num is no
 * longer `expect` (a command changed it meanwhile), -EINVAL when n is not
 * 1..pg_num.
 */
int cfs_pool_step_pgp_num(cfs_cluster *c, int64_t pool, uint32_t expect,
			  uint32_t n, char *why, size_t whylen);
/*
 * Ceph's mgr clears the upmap entries of the PGs a merge joins (the
 * source would not be co-located with its target otherwise): the entries
 * of pool's PGs >= to and of those they merge into, one epoch; returns
 * how many went (0: none, no epoch).
 */
int cfs_pool_merge_clear_upmaps(cfs_cluster *c, int64_t pool, uint32_t to);
/* What that change would do, changing nothing: the same refusals, and
 * how many objects (of how many) stable_mod files into another PG
 * (counted also when the change would wait, -EBUSY). */
struct cfs_pg_num_plan {
	uint32_t from, to;
	uint64_t objects, bytes;   /* every object of the pool */
	uint64_t refiled, refiled_bytes;
};
int cfs_pool_pg_num_plan(cfs_cluster *c, int64_t pool, uint32_t pg_num,
			 struct cfs_pg_num_plan *plan, char *why,
			 size_t whylen);

/* ---- options (config.c), as `ceph config set WHO KEY VALUE`:
 * mon_allow_pool_delete (false), mon_max_pg_per_osd (250),
 * osd_failsafe_full_ratio (0.97: writes stop while the filesystem
 * under an OSD is fuller, disk.c), osd_op_complaint_time (30 s),
 * rados_osd_op_timeout (0: ops on an
 * inactive PG wait for ever), target_max_misplaced_ratio (0.05: the
 * misplaced share rebalance's pgp_num steps stay under).  Kept in
 * DIR/config.json; not osdmap state (no epoch). */
#define CFS_CONFIG_NOPTS 16
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
/* A floating-point option's value (0 for an option crushfs lacks). */
double cfs_config_double(cfs_cluster *c, const char *name);
/* The Ceph daemon an option belongs to, as `config dump` shows it:
 * "mon", "mgr", "osd" or "client". */
const char *cfs_config_section(const char *name);

/* ---- the balancer's last run (balstate.c): what `balancer status`
 * shows, kept in memory by the process that runs it (Ceph's mgr module
 * keeps it the same way) ---- */
struct cfs_balancer_status {
	char last_optimize_started[64];	 /* time.asctime() form; "" never */
	char last_optimize_duration[32]; /* str(timedelta): "0:00:00.001045" */
	char optimize_result[256];
	int no_optimization_needed;
	int64_t last_run_ms; /* CLOCK_MONOTONIC ms of the last start; 0 never */
};
void cfs_balancer_status_get(cfs_cluster *c, struct cfs_balancer_status *out);
void cfs_balancer_status_set(cfs_cluster *c,
			     const struct cfs_balancer_status *in);

/*
 * ---- pgp_num and pg_num steps (adjust_pgs.c): Ceph's
 * DaemonServer::adjust_pgs (16.2), which rebalance runs between backfill
 * passes ----
 * One pool at one moment: its numbers, its object count, and the
 * cluster's recovery ratios (PGMap::get_recovery_stats: misplaced and
 * degraded object copies over all copies, inactive PGs over all PGs).
 */
struct cfs_pgp_adjust {
	uint32_t pg_num, pgp_num, pg_num_target, pgp_num_target;
	uint64_t objects;	/* the pool's (pool_stat_t num_objects) */
	double misplaced_ratio, degraded_ratio, inactive_ratio;
	double max_misplaced;	/* target_max_misplaced_ratio */
};
enum cfs_pgp_verdict {
	CFS_PGP_DONE = 0,	  /* pgp_num is where it should be */
	CFS_PGP_STEP,		  /* *next is the next pgp_num */
	CFS_PGP_WAIT_UNHEALTHY,	  /* inactive or degraded PGs: wait */
	CFS_PGP_WAIT_MISPLACED,	  /* misplaced_ratio > max_misplaced */
	CFS_PGP_WAIT_MERGE,	  /* following a merge: pg_num first */
};
/* The next pgp_num of the pool (CFS_PGP_STEP), or why none. */
enum cfs_pgp_verdict cfs_pgp_next(const struct cfs_pgp_adjust *a,
				  uint32_t *next);
/* Where a pg_num change goes now: a split to pg_num_target at once
 * (crushfs splits in one go, files renamed on their OSDs), a merge down
 * to max(pg_num_target, pgp_num) (Ceph merges only PGs below pgp_num,
 * one at a time; crushfs merges them together).  Returns pg_num itself
 * when nothing can change. */
uint32_t cfs_pg_num_next(const struct cfs_pgp_adjust *a);
/* One line on why pgp_num does not move, for a verdict that waits. */
const char *cfs_pgp_verdict_str(enum cfs_pgp_verdict v);

#endif
