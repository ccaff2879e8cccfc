/*
 * osdsim_i.h - layouts shared by the osdsim/ sources (not public).
 */
#ifndef CRUSHFS_OSDSIM_I_H
#define CRUSHFS_OSDSIM_I_H

#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include <jansson.h>

#include "osdsim.h"

struct pool_ovr; /* psarr.c */

/* slots of cfs_cluster.stem_gen (objindex.c), as many as objlayer's
 * st_blocks cache holds files */
#define CFS_STEM_GENS 65536

struct cfs_osd_state {
	int exists;
	int up;
	uint32_t reweight;
	uint32_t primary_affinity;
	uint64_t capacity;
	/* bytes counted as used before any object (an imported OSD's real
	 * use, `mkfs --from-ceph --prefill`): space only, no file */
	uint64_t prefill;
	char uuid[37];
	/* osd_xinfo_t down_stamp: when it was last marked down (seconds;
	 * the down->out timer counts from it, montick.c) */
	int64_t down_stamp;
	/* CEPH_OSD_AUTOOUT with osd_xinfo_t old_weight: the down->out
	 * timer marked it out, and it had this reweight (0: not auto-out) */
	uint32_t autoout_weight;
};

/* A pool beside the filesystem's data pool (pools.c): placed like any
 * pool, holding no object of crushfs's yet. */
struct cfs_xpool {
	struct cfs_pool_info info;
	struct cfs_pg_mapping *pgs; /* derived (pgtable.c), pg_num */
	/* its pg_upmap[_items], pg_temp and primary_temp entries (from a
	 * live cluster's osdmap, import.c), each sorted by ps; kept as the
	 * monitor keeps them (upmap_clean, temps_clean) */
	struct cfs_pg_upmap *upmaps;
	int nupmaps;
	struct cfs_pg_temp *temps;
	int ntemps;
	struct cfs_pg_ptemp *ptemps;
	int nptemps;
	/* a pg_num change in progress (pgsplit.c), as the data pool's */
	uint32_t pg_num_from;
};

struct cfs_osdmap {
	atomic_int ref;
	uint32_t epoch;
	char fsid[37];
	double full_ratio, backfillfull_ratio, nearfull_ratio;
	int full_policy;
	/* CEPH_OSDMAP_* flags set by `osd set` (osdflags.c) */
	uint32_t flags;
	int max_osd;
	struct cfs_osd_state *osds; /* max_osd entries */
	pl_map *crush;
	struct cfs_pool_info pool;
	time_t created, modified;
	/* OSDMap::last_up_change / last_in_change (Ceph 16.2): when an
	 * epoch last changed any OSD's up state, or took one in or out;
	 * 0 when not known (maps written before crushfs kept them) */
	int64_t last_up_change, last_in_change;
	/* pg_upmap / pg_upmap_items (upmap.c), sorted by ps */
	struct cfs_pg_upmap *upmaps;
	int nupmaps;
	/* a pg_num change in progress (pgsplit.c): the pg_num the object
	 * files may still be filed by; 0 when none */
	uint32_t pg_num_from;
	/* erasure-code profiles (ecprofile.c): name -> {key: value} */
	json_t *ec_profiles;
	/* pg_temp (pgtemp.c), sorted by ps */
	struct cfs_pg_temp *temps;
	int ntemps;
	/* primary_temp (imported only: Ceph 16.2 sets none itself), by ps */
	struct cfs_pg_ptemp *ptemps;
	int nptemps;
	/* the other pools (pools.c), by id; pool_max: the highest pool id
	 * ever given (Ceph's pool_max: ids are not reused) */
	struct cfs_xpool *xpools;
	int nxpools;
	int64_t pool_max;

	/* derived when the epoch is installed (pgtable.c) */
	uint32_t *weights;		/* crush reweight vector, max_osd */
	struct cfs_pg_mapping *pgs;	/* pg_num */
	float *rule_share;		/* normalized crush weight per OSD in
					 * the pool's rule (get_rule_weight_osd_map),
					 * max_osd entries, 0 outside */
	unsigned char *in_rule;		/* max_osd */
};

/* One OSD's object store. */
/* One filesystem under the cluster (disk.c): the failsafe margin's
 * bookkeeping, shared by the OSD folders on it. */
struct disk_guard {
	dev_t dev;
	int fd; /* a directory on it, for fstatvfs */
	pthread_mutex_t lock;
	uint64_t inflight; /* reserved on its OSDs, not yet unreserved */
	/* the last statvfs: bytes, when (CLOCK_MONOTONIC ms), and what was
	 * reserved since */
	uint64_t size, avail, margin, since;
	int64_t when;
};

/* spare object files of one OSD (spares.c) */
struct spares {
	pthread_mutex_t lock;
	int state; /* 0: not loaded yet, 1: usable, -1: not usable */
	int dirfd; /* DIR/osd.N/spare */
	uint64_t next; /* the next file name */
	uint64_t *v; /* ready spares' names, the last one used first */
	size_t n;
	/* renamed out of current/, not emptied yet (the cleaner's work);
	 * n + nd <= SPARE_MAX */
	uint64_t *d;
	size_t nd;
	int queued; /* on the cleaner's queue */
};

struct spare_cleaner; /* spares.c */

struct osd_store {
	int id;
	int dirfd; /* DIR/osd.N/current */
	struct disk_guard *disk; /* the filesystem it is on; NULL: unknown */
	/* the last refusal was the disk's, which lacked room for this
	 * (under lock) */
	int refused_disk;
	uint64_t refused_need;
	pthread_mutex_t lock;
	uint64_t used, objects, reserved;
	uint64_t prefill; /* the map's, set when the store opens */
	/* used and objects by pool (under lock) */
	struct pool_use *pu;
	int npu;
	struct spares spares;
};

/* A sorted set of object names. */
struct name_set {
	char **v;
	size_t n, cap;
};

struct pg_holder {
	int osd;
	struct name_set missing;
	/* copies found bad (checksum, version, size, absent): a subset of
	 * missing, kept apart so health can say "inconsistent" until they
	 * are repaired (Ceph's scrub errors) */
	struct name_set damaged;
	/* a backfill target: made a holder with every object missing, and
	 * not caught up yet (Ceph: last_backfill short of the end).  Such an
	 * OSD cannot serve the PG; one that only missed some writes can
	 * (log recovery) */
	int backfill;
};

struct pg_state {
	pthread_mutex_t lock;
	struct pg_holder *h;
	int nh, caph;
	int dirty; /* missing sets shrank since the last write */
};

/* The PG state of one pool (pgstate.c): every pool of the map has one,
 * made at open or when the pool is created; pg_num follows the pool's
 * (remade under the PG layout gate). */
#define CFS_MAX_POOL_STATES 512
struct pool_pgs {
	int64_t pool;
	uint32_t pg_num;
	/* an erasure pool: k+m, its shard i of PG ps being PG ps * width
	 * + i here (cfs_shard_ps); 0 for a replicated one */
	int width;
	uint32_t npgs; /* pg_num, or pg_num * width */
	struct pg_state *pgs;
};

/* One pool's share of an OSD store's use. */
struct pool_use {
	int64_t pool;
	uint64_t used, objects;
};

struct fdcache;

/* One open object copy (fdcache.c), with its checksum record
 * (objcsum.c). */
struct obj_csum {
	int loaded;	  /* the xattr was read (or the file is new) */
	int valid;	  /* ... and described this copy */
	int present;	  /* the copy has a record at all (else: made
			   * before checksums existed, or just created) */
	unsigned shift;	  /* checksum block = 1 << shift bytes */
	uint64_t version; /* object version this copy holds */
	uint32_t n, cap;  /* blocks in use / allocated */
	uint32_t *crc;	  /* crc32c of each block (the last may be short) */
};

struct cfs_obj {
	struct fdcache *fc;
	struct osd_store *store;
	int osd;
	int64_t pool;
	uint32_t ps;
	char *name;
	uint64_t hash;
	int fd;
	/* the filesystem refused O_DIRECT for it (obj_io.c read_direct,
	 * write_direct) */
	int no_direct;
	uint64_t size;
	int ref;
	int doomed; /* forgotten while referenced: close at last put */
	struct cfs_obj *hnext;
	struct cfs_obj *prev, *next; /* LRU, only while ref == 0 */
	pthread_mutex_t csum_lock;   /* readers load the record lazily */
	struct obj_csum cs;
};

struct cfs_cluster {
	char *dir;
	int dirfd;
	int lockfd;
	int rdonly;
	/* DIR/backend.json names a live cluster: its osdmap is followed
	 * (cfs_import_refresh), never changed here */
	int live;

	pthread_mutex_t map_lock; /* guards cur (pointer swap) */
	struct cfs_osdmap *cur;
	pthread_mutex_t update_lock; /* one osdmap change at a time */

	struct osd_store *_Atomic *stores; /* CFS_MAX_OSD slots */

	/* per pool PG state (pgstate.c): entries published in order, npp
	 * last; a pool's entry stays until close (ids are never reused) */
	struct pool_pgs *_Atomic pp[CFS_MAX_POOL_STATES];
	atomic_int npp;
	pthread_mutex_t pp_lock;
	struct pg_state nopg; /* what a PG of no known pool reads as */
	int64_t pool_id;  /* the filesystem's data pool, fixed */

	pthread_mutex_t dirty_lock;
	atomic_int usage_dirty; /* usage.dirty written in this session */

	struct fdcache *fdc;

	/* the object index (objindex.c) */
	struct kv *index;
	int index_new; /* created by this open: rebuild from the OSDs */
	pthread_mutex_t version_lock;
	uint64_t version_next, version_hw;
	/* bumped after each record change, per name stem (the part before
	 * the first '.', a file's inode): what lets objlayer cache a file's
	 * allocated bytes until one of its objects changes */
	_Atomic uint64_t stem_gen[CFS_STEM_GENS];
	/* the same slots' last change in one sequence of all record changes
	 * (index_seq): what tells a whole-pool scan's record from a newer
	 * one without reading it again (cfs_index_changed_since) */
	_Atomic uint64_t index_seq;
	_Atomic uint64_t stem_seq[CFS_STEM_GENS];
	/* the intents left in the index after their write's record
	 * (cfs_index_intent_kept), by owner: in memory only, as the open
	 * after a crash settles every intent the index holds */
	pthread_mutex_t kept_lock;
	struct index_kept **kept;

	/* the PG layout gate: shared by whatever works with PG seeds,
	 * exclusive while pg_num changes (cfs_pg_layout_*) */
	pthread_rwlock_t layout;
	/* the monitor options set (config.c; NULL: the default) */
	pthread_mutex_t config_lock;
	/* the balancer's last run (balstate.c), under config_lock */
	struct cfs_balancer_status bal;
	/* the health mutes (mutes.c), under config_lock; loaded at the
	 * first use */
	struct cfs_health_mute mutes[CFS_HEALTH_MAX_MUTES];
	int nmutes, mutes_loaded;
	char *config[CFS_CONFIG_NOPTS];
	/* the last write each OSD refused for want of room (refused.c) */
	pthread_mutex_t refused_lock;
	struct cfs_refused *refused;
	int nrefused;
	/* a new epoch installed (osdmap_install), or the waiters told to
	 * give up (cfs_osdmap_wake_waiters): map_cond under map_lock */
	pthread_cond_t map_cond;
	unsigned wake_gen;
	/* the PGs the last rebalance left backfill_toofull (toofull.c) */
	pthread_mutex_t toofull_lock;
	struct cfs_toofull *toofull;
	int ntoofull, toofull_loaded;
	/* the filesystems under the OSD folders (disk.c) */
	pthread_mutex_t disk_lock;
	struct disk_guard *disks[CFS_MAX_DISKS];
	int ndisks;
	/* ops waiting for an inactive PG (slowops.c) */
	pthread_mutex_t slow_lock;
	struct cfs_slow_op *slow;
	int nslow, slow_cap;
	uint64_t slow_next;
	/* empties removed objects' files in the background (spares.c) */
	pthread_mutex_t spare_lock;
	struct spare_cleaner *spare_cleaner;
};

/* osdmap.c */
struct cfs_osdmap *osdmap_alloc(void);
void osdmap_free(struct cfs_osdmap *m);
/* Deep copy (crush map cloned through its text form). */
int osdmap_clone(const struct cfs_osdmap *m, struct cfs_osdmap **out);
/* Replace m->crush by what its crushtool text reads back as. */
int osdmap_canon_crush(struct cfs_osdmap *m);
/* The smallest crush weight the text form keeps non-zero: 0.001. */
#define CFS_MIN_CRUSH_WEIGHT 65
/* Derived tables: weights, PG table, rule shares. */
int osdmap_finish(struct cfs_osdmap *m);
/* Grow the OSD array to hold id. */
int osdmap_ensure_osd(struct cfs_osdmap *m, int id);
void osdmap_install(cfs_cluster *c, struct cfs_osdmap *m);

/* osdmap_json.c */
int osdmap_to_json(const struct cfs_osdmap *m, char **out, size_t *len);
int osdmap_from_json(const char *text, size_t len, const char *path,
		     struct cfs_osdmap **out, char *err, size_t errlen);
/* "PATH:LINE:COL: TEXT" for a JSON syntax error, control bytes escaped */
void json_error_line(char *err, size_t errlen, const char *path, int line,
		     int col, const char *text);
/* Persist crushmap.txt then cluster.json in dir. */
int osdmap_persist(const char *dir, const struct cfs_osdmap *m);

/* osdmap_change.c: one change of the map, under c->update_lock from
 * begin to abort or commit.  begin clones the current map into *next
 * (-EROFS read-only, CFS_ELIVE a live cluster's); commit makes it the
 * next epoch (derived tables, upmaps and temps cleaned, pg_temp chosen),
 * persists and installs it - or, in a dry run, hands it to
 * cfs_dry_run_end. */
int osdmap_update_begin(cfs_cluster *c, struct cfs_osdmap **next);
void osdmap_update_abort(cfs_cluster *c, struct cfs_osdmap *next);
int osdmap_update_commit(cfs_cluster *c, struct cfs_osdmap *next);
/* clog_map.c: the cluster log lines of the change from a to b */
void clog_map_change(cfs_cluster *c, const struct cfs_osdmap *a,
		     const struct cfs_osdmap *b);
/* 1 between this thread's cfs_dry_run_begin and cfs_dry_run_end */
int osdmap_dry_run(void);

/* osd_store.c */
struct osd_store *store_get(cfs_cluster *c, int osd);
int store_open(cfs_cluster *c, int osd, struct osd_store **out);
void store_close(struct osd_store *s);
/* Spare object files (spares.c).  take: a spare renamed to rel (never
 * over an existing file), opened with oflags: its fd; -EEXIST when rel
 * exists, -ENOENT when there is no spare to take.  give: the object
 * file at rel moved out of its folder and kept as a spare (*size: what
 * it held); -ENOENT when absent, another -errno when it was not taken
 * (the caller unlinks it). */
int spare_take(cfs_cluster *c, struct osd_store *s, const char *rel,
	       int oflags);
int spare_give(cfs_cluster *c, struct osd_store *s, const char *rel,
	       uint64_t *size);
/* How many spares of osd are ready to take (emptied and offered): what a
 * test waits for, the cleaner offering a file only after emptying it. */
int spares_ready(cfs_cluster *c, int osd);
void spares_close(struct osd_store *s);
/* Empty now every spare of the OSDs on disk g that still holds bytes
 * (queued for the cleaner, or left full by a crash): how many. */
int spares_drain(cfs_cluster *c, struct disk_guard *g);
/* Stop the cleaner thread of this process (cluster close): spares not
 * emptied yet stay on disk and are emptied before their first use. */
void spares_stop(cfs_cluster *c);
int osd_store_create(const char *dir, int id, const char *uuid);
int obj_escape(const char *name, char *buf, size_t len);
int obj_unescape(const char *file, char *buf, size_t len);
/* "1.1f_head/<escaped name>" relative to the store's current/ */
int obj_relpath(cfs_cluster *c, int64_t pool, uint32_t ps, const char *name,
		char *buf, size_t len, char *dirbuf, size_t dirlen);
int obj_relpath_tmp(cfs_cluster *c, int64_t pool, uint32_t ps,
		    const char *name, char *buf, size_t len);
void store_account(struct osd_store *s, int64_t pool, int64_t dbytes,
		   int64_t dobjects);
int usage_load(cfs_cluster *c);
int usage_save(cfs_cluster *c);
int usage_mark_dirty(cfs_cluster *c);
/* "1.1f_head" */
void pg_dirname(int64_t pool, uint32_t ps, char *buf, size_t len);
/* Any pool's "P.S_head" or shard folder "P.SsI_head": its pool, seed
 * and shard (-1: none); canonical spelling only. */
int pg_dirname_parse_any(const char *s, int64_t *pool, uint32_t *ps,
			 int *shard);
/* The folder of PG ps of pool as c keeps it: "P.PS_head", or for an
 * erasure pool's shard PG (cfs_shard_ps) Ceph's "P.SEEDsI_head". */
void pg_folder(cfs_cluster *c, int64_t pool, uint32_t ps, char *buf,
	       size_t len);
/* A folder's PG as c keeps it (a shard folder of an erasure pool: its
 * shard PG); -EINVAL when it is none of c's PGs. */
int pg_folder_parse(cfs_cluster *c, const char *s, int64_t *pool,
		    uint32_t *ps);

/* health_checks.c: fill h->checks and h->status from the snapshot's
 * OSD figures (h->osd) and the PG states given. */
int health_checks(struct cfs_health *h, const cfs_osdmap *m,
		  const struct cfs_pg_health *pgs, uint32_t npgs,
		  const struct cfs_pg_totals *tot);

/* fdcache.c */
int fdcache_create(cfs_cluster *c, struct fdcache **out);
/* the cluster whose files it keeps open (obj_io.c) */
cfs_cluster *fdcache_cluster(const struct fdcache *fc);
void fdcache_destroy(struct fdcache *fc);
/* Drop the cached fd of one object (it is being replaced or removed).
 * Returns the size the store counted for it while cached, -1 when it was
 * not: a file removed behind the store's back is still counted. */
int64_t fdcache_forget(struct fdcache *fc, int osd, int64_t pool,
		       uint32_t ps, const char *name);
/* The same; *busy: someone still uses the entry's fd (it is closed at
 * their last put), so the file must not be reused while they do. */
int64_t fdcache_forget_busy(struct fdcache *fc, int osd, int64_t pool,
			    uint32_t ps, const char *name, int *busy);

/* objcsum.c: per-copy checksums (see there) */
void csum_reset(struct obj_csum *cs);
/* Record state after the file was created empty. */
void csum_init_new(struct obj_csum *cs);
int csum_load(cfs_obj *o);
/* Blocks touched by a write of [off, off+len) (buf) to a copy that was
 * old_size bytes, now o->size: recompute their checksums. */
int csum_after_write(cfs_obj *o, uint64_t old_size, const void *buf,
		     size_t len, uint64_t off);
int csum_after_truncate(cfs_obj *o, uint64_t old_size);
/* The old blocks a change of [off, end) to new_size recomputes from the
 * file still match (-EBADMSG: a rotten copy, not to be laundered). */
int csum_before_change(cfs_obj *o, uint64_t off, uint64_t end,
		       uint64_t new_size);
/* Write the record (version) to the copy's xattr. */
int csum_store(cfs_obj *o, uint64_t version);
/* Verify [off, off+len) of a copy (buf holds those bytes when not NULL,
 * else they are read).  -EBADMSG on mismatch or no record. */
int csum_verify_range(cfs_obj *o, const void *buf, size_t len, uint64_t off);
/* A new record computed from the data (the copy is trusted). */
int csum_rebuild(cfs_obj *o);
/* Copy every user.crushfs.* xattr of sfd to dfd. */
int csum_copy_xattrs(int sfd, int dfd);
/* Verify a copy while streaming it: load the record of sfd (size bytes),
 * then feed the data in order; -EBADMSG at the first bad block. */
int csum_copy_begin(int sfd, uint64_t size, struct obj_csum *cs);
int csum_copy_check(const struct obj_csum *cs, uint64_t size,
		    const void *buf, size_t len, uint64_t off, uint32_t *run);

/* objindex.c */
int index_open(cfs_cluster *c, char *err, size_t errlen);
void index_close(cfs_cluster *c);
/* the key of (tag, pool, name) in k (0: too long) */
size_t index_key(char tag, int64_t pool, const char *name, char *k,
		 size_t len);
void index_put64(unsigned char *p, uint64_t v);
int index_put_intent(cfs_cluster *c, int64_t pool, const char *name,
		     const struct cfs_objinfo *next);

/* objindex_kept.c: the kept intents and their pending records */
struct kv_batch;
int kept_open(cfs_cluster *c);
/* Commits every pending record and drops every kept intent (no owner
 * dropped them: the process is closing the index). */
void kept_close(cfs_cluster *c);
/* name's pending record (1), or 0 */
int kept_record(cfs_cluster *c, int64_t pool, const char *name,
		struct cfs_objinfo *oi);
/* oi becomes name's pending record when name has a kept intent (1) */
int kept_set_record(cfs_cluster *c, int64_t pool, const char *name,
		    const struct cfs_objinfo *oi);
/* A change of the object's intent or record: its pending record (if
 * any) into b, and, once b is committed, the entry forgotten (never
 * before: a reader without the object's lock would find no record). */
void kept_batch_pending(cfs_cluster *c, struct kv_batch *b, int64_t pool,
			const char *name);
void kept_forget(cfs_cluster *c, int64_t pool, const char *name);
/* The pending records of pool whose names start with prefix, in the
 * index's key order. */
struct index_pend {
	char *name;
	struct cfs_objinfo oi;
};
int kept_pending(cfs_cluster *c, int64_t pool, const char *prefix,
		 struct index_pend **out, size_t *n);
void kept_pending_free(struct index_pend *p, size_t n);

/* pgstate.c */
/* One entry per pool of c->cur, holders and missing sets loaded. */
int pgstate_init(cfs_cluster *c, char *err, size_t errlen);
void pgstate_free(cfs_cluster *c);
/* The pool's entry (NULL: none) */
struct pool_pgs *pgstate_pool(cfs_cluster *c, int64_t pool);
/* Make (or remake, at pg_num) one pool's state and load it from the OSD
 * folders and pgstate/: for a new pool, after a pg_num change (the PG
 * layout gate held). */
int pgstate_reload(cfs_cluster *c, int64_t pool, uint32_t pg_num, char *err,
		   size_t errlen);
/* Flush every PG's lazily kept changes (close). */
void pgstate_flush_all(cfs_cluster *c);

/* name sets (pgstate.c) */
int nameset_find(const struct name_set *s, const char *name, size_t *pos);
int nameset_add(struct name_set *s, const char *name);
int nameset_del(struct name_set *s, const char *name);
void nameset_free(struct name_set *s);

/* disk.c: the guard of the filesystem fd is on (made at the first
 * call; NULL past CFS_MAX_DISKS or on error: unguarded) */
struct disk_guard *disk_guard_for(cfs_cluster *c, int fd);
void disk_guards_free(cfs_cluster *c);
/* Count bytes as in flight on g; with check, -ENOSPC (nothing counted)
 * when they do not fit above the failsafe margin, *need then being what
 * the filesystem lacked room for: bytes and the writes in flight. */
int disk_reserve(cfs_cluster *c, struct disk_guard *g, uint64_t bytes,
		 int check, uint64_t *need);
void disk_unreserve(struct disk_guard *g, uint64_t bytes);
/* Room above the failsafe margins of the filesystems the open stores are
 * on, less what is in flight there (statvfs at most once a second while
 * far from a margin): what df needs, without a look at every OSD folder;
 * -1 while no store is open. */
int64_t disk_room_guarded(cfs_cluster *c);
/* Why g refused: its free space against the margin, one phrase. */
void disk_refusal_text(cfs_cluster *c, struct disk_guard *g, char *buf,
		       size_t len);

/* refused.c: DIR/refused.json into c (absent: nothing refused) */
int refused_load(cfs_cluster *c, char *err, size_t errlen);

/* pgsplit.c: move every OSD's object files of one pool from pg_num
 * `from` folders to pg_num `to` ones (idempotent, fsynced) */
int pgsplit_finish(cfs_cluster *c, const struct cfs_osdmap *m, int64_t pool,
		   uint32_t from, uint32_t to);
/* Finish every pg_num change c's map marks (files, per-PG state,
 * markers). */
int pgsplit_settle(cfs_cluster *c, char *why, size_t whylen);
/* 1 when a pool's pg_num change was cut short: which, from, to. */
int pgsplit_pending(const struct cfs_osdmap *m, int64_t *pool,
		    uint32_t *from, uint32_t *to);

/* import.c: `mkfs --from-ceph`: the osdmap of o->from_ceph's snapshot
 * (derived tables made) */
int import_map(const struct cfs_mkfs_opts *o, struct cfs_osdmap **out,
	       char *err, size_t errlen);

/* ecprofile.c */
json_t *ecprofile_defaults(void);
/* The profiles of an osd dump / cluster.json, each checked with
 * cfs_ec_profile_check(how) (cluster.json: 0, what crushfs needs; an
 * import: CFS_ECP_CEPH too). */
int ecprofile_from_json(struct cfs_osdmap *m, json_t *root, int how,
			char *err, size_t errlen);

/* pools.c: the pools beside the data pool */
void xpools_free(struct cfs_osdmap *m);
int xpools_copy(const struct cfs_osdmap *from, struct cfs_osdmap *to);
json_t *xpools_to_json(const struct cfs_osdmap *m);
int xpools_from_json(struct cfs_osdmap *m, json_t *root, char *err,
		     size_t errlen);
int pool_rule_ok(const pl_map *cm, int rule, int erasure, int size,
		 char *why, size_t whylen);
int xpool_check_create(const struct cfs_osdmap *m,
		       const struct cfs_pool_info *p, uint32_t per_osd,
		       char *why, size_t whylen);
/* pool_apps.c: the applications text as a JSON object (new reference,
 * {} for none); set from one (checked; -EINVAL, -E2BIG with why); add app
 * (and key=value when key) */
json_t *pool_apps_json(const char *apps);
int pool_apps_set(char *apps, size_t len, json_t *v, char *why,
		  size_t whylen);
int pool_apps_enable(char *apps, size_t len, const char *app,
		     const char *key, const char *value);
int pool_check_change(const struct cfs_osdmap *m,
		      const struct cfs_pool_info *cur,
		      const struct cfs_pool_info *want, int pg_num_ok,
		      uint32_t per_osd, struct cfs_pool_info *out, char *why,
		      size_t whylen);
struct cfs_xpool *xpool_find(struct cfs_osdmap *m, int64_t id);
int xpool_add(struct cfs_osdmap *m, const struct cfs_pool_info *p,
	      int64_t *id);
void xpool_remove(struct cfs_osdmap *m, int64_t id);

/* pgtemp.c */
int pgtemp_copy(const struct cfs_osdmap *from, struct cfs_osdmap *to);
/* Choose next's pg_temp entries (next->pgs computed; prev: the map it
 * follows, may be NULL): 1 when they changed, 0, or -ENOMEM. */
int pgtemp_choose(cfs_cluster *c, const struct cfs_osdmap *prev,
		  struct cfs_osdmap *next);
/* every pool's pg_temp and primary_temp lists: 0 or -ENOMEM */
int temps_to_json(const struct cfs_osdmap *m, json_t **temps, json_t **ptemps);
int pgtemp_from_json(struct cfs_osdmap *m, json_t *root, char *err,
		     size_t errlen);

/* config.c: DIR/config.json into c (absent: every default) */
int config_load(cfs_cluster *c, char *err, size_t errlen);
void config_free(cfs_cluster *c);
/* a bool option (1 when true) / a uint option's value */
int config_flag(cfs_cluster *c, const char *name);
uint32_t config_uint(cfs_cluster *c, const char *name);

/* jsonget.c: field k of object o as an integer in [lo, hi] / a finite
 * number in [lo, hi]: 0, or -1 when missing, mistyped or out of range */
int jget_int(json_t *o, const char *k, int64_t lo, int64_t hi, int64_t *v);
int jget_real(json_t *o, const char *k, double lo, double hi, double *v);

/* psarr.c: arrays of records whose first member is a uint32_t ps,
 * sorted by it (upmaps, pg_temp, primary_temp) */
void *psarr_find(const void *v, int n, size_t size, uint32_t ps);
/* the record for ps, added zeroed (ps set) when missing; NULL: no memory */
void *psarr_slot(void **v, int *n, size_t size, uint32_t ps);
int psarr_dup(void **to, int *nto, const void *from, int n, size_t size);

/* One pool's override arrays, the data pool's or another's. */
struct pool_ovr {
	const struct cfs_pool_info *info;
	const struct cfs_pg_mapping *pgs; /* derived; NULL before finish */
	struct cfs_pg_upmap **upmaps;
	int *nupmaps;
	struct cfs_pg_temp **temps;
	int *ntemps;
	struct cfs_pg_ptemp **ptemps;
	int *nptemps;
	uint32_t *pg_num_from; /* the pool's pg_num change marker */
};
/* -ENOENT when m has no pool id */
int pool_ovr(struct cfs_osdmap *m, int64_t id, struct pool_ovr *o);
/* "POOL.PS" of one of m's pools: 0, or -EINVAL */
int pgid_parse_any(struct cfs_osdmap *m, const char *s, struct pool_ovr *o,
		   uint32_t *ps);
/* OSDMap::clean_temps for what crushfs does not choose itself (the
 * other pools' pg_temp, every primary_temp): entries of gone PGs, with
 * no member up, or equal to what the map gives anyway go.  Needs the
 * derived tables; returns how many went. */
int temps_clean(struct cfs_osdmap *m);
int ptemp_from_json(struct cfs_osdmap *m, json_t *root, char *err,
		    size_t errlen);

/* upmap.c */
int upmap_copy(const struct cfs_osdmap *from, struct cfs_osdmap *to);
/* the entry for ps, created empty when create and missing; NULL if none
 * (or out of memory when create: *nomem set) */
struct cfs_pg_upmap *upmap_slot(struct cfs_osdmap *m, uint32_t ps,
				int create, int *nomem);
/* the OSDMonitor checks and changes (upmap.c); n == 0 removes */
int upmap_set(struct cfs_osdmap *m, int64_t pool, uint32_t ps, const int *osds,
	      int n, char *why, size_t whylen);
int upmap_set_items(struct cfs_osdmap *m, int64_t pool, uint32_t ps,
		    const int *pairs, int npairs, char *why, size_t whylen);
/* drop entries left with neither pg_upmap nor items */
void upmap_compact(struct cfs_osdmap *m);
void upmap_compact_ovr(struct pool_ovr *o);
/* OSDMap::clean_pg_upmaps: entries made invalid by a map change go (PG
 * gone, redundant, wrong size, source not in the raw set, target out, or
 * a set the crush rule would not produce).  Needs the derived tables.
 * Returns how many entries changed. */
int upmap_clean(struct cfs_osdmap *m);
json_t *upmap_to_json(const struct cfs_osdmap *m);
/* 0, or -EINVAL with a message in err */
int upmap_from_json(struct cfs_osdmap *m, json_t *root, char *err,
		    size_t errlen);

/* osdflags.c: OSD state changes as OSDMap::apply_incremental and
 * OSDMonitor::prepare_boot make them (down stamp, AUTOOUT, noin) */
void osd_set_weight(struct cfs_osdmap *n, int osd, uint32_t w);
void osd_note_down(struct cfs_osdmap *n, int osd);
void osd_note_boot(cfs_cluster *c, struct cfs_osdmap *n, int osd);

/* mutes.c: apply the mutes to a snapshot's checks (check_mutes: expire
 * and clear them first, persisted when they changed), then the status
 * from the checks not muted */
void health_apply_mutes(cfs_cluster *c, struct cfs_health *h);

#endif
