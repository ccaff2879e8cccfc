/*
 * objlayer_i.h - shared inside objlayer/ (not public).
 */
#ifndef CRUSHFS_OBJLAYER_I_H
#define CRUSHFS_OBJLAYER_I_H

#include <pthread.h>
#include <stdatomic.h>
#include <sys/types.h>
#include <time.h>

#include "objlayer.h"
#include "objindex.h" /* struct cfs_objinfo: reccache.c's slots */
#include "osdmap.h"

struct cfs_toofull; /* osdsim/pgstate.h */

#define OL_LOCK_STRIPES 4096
/* by inode: 1024 let the 2,000 files of a create+stat run evict each
 * other's st_blocks (48 bytes a slot, touched as files are) */
#define OL_BYTES_SLOTS 65536
#define OL_WORKERS 4
#define OL_EC_CODECS 16
#define OL_PARALLEL_MIN (64 * 1024) /* smaller writes do their copies inline */
/* buffer alignment for the object store's direct writes (osdsim obj_io.c) */
#define OL_DIO_ALIGN 4096

/* One file's allocated bytes as of index stem generation gen: counted
 * over every pool (cover UINT64_MAX), or over its first cover objects in
 * pool (point reads; a write of object 0 notes cover 1, ol_bytes_noted). */
struct ol_bytes_slot {
	uint64_t ino, bytes, gen, cover;
	int64_t pool;
	int valid;
};

/* reccache.c: the record a write set, for the object's next write */
#define OL_REC_SLOTS 4096
struct ol_rec_slot {
	int64_t pool;
	uint64_t gen;
	struct cfs_objinfo oi;
	char name[40]; /* "%llx.%08llx" and the like; longer: not kept */
	int valid;
};

struct ol_task;
struct ol_rados;

struct objlayer {
	cfs_cluster *c;
	/* the RADOS backend (rados_be.c) when the cluster's objects live in
	 * a live Ceph pool; NULL: the OSD folders */
	struct ol_rados *rb;
	int64_t pool; /* the filesystem's (first) data pool */
	uint32_t pg_num; /* its pg_num: the PG locks (pgio) */
	/* Per PG (ol_pgio): I/O takes it shared, deleting a PG's old copies
	 * takes it exclusive (so no write is in flight to an OSD being
	 * emptied).  pg_num of them, remade by ol_relayout. */
	pthread_rwlock_t *pgio;
	/* Per object (striped by name hash): writers exclusive, readers
	 * shared.  Order: pgio, then object lock, then cfs_pg_lock. */
	pthread_rwlock_t objlock[OL_LOCK_STRIPES];
	/* st_blocks of every stat would otherwise be an index scan */
	pthread_mutex_t bytes_lock;
	struct ol_bytes_slot bytes[OL_BYTES_SLOTS];
	pthread_mutex_t recs_lock;
	struct ol_rec_slot recs[OL_REC_SLOTS];
	/* the rebalance running here, for `status` (rebalance.c) */
	pthread_mutex_t rec_lock;
	int rec_active;
	struct ol_rebalance_progress rec;
	/* the PGs this rebalance round leaves backfill_toofull (under
	 * rec_lock; saved with cfs_toofull_set at its end) */
	struct cfs_toofull *tf;
	int ntf, captf;
	struct timespec rec_start;
	/* replica I/O in parallel (workers.c) */
	pthread_mutex_t wq_lock;
	pthread_cond_t wq_work, wq_done;
	struct ol_task *wq_head, *wq_tail;
	int wq_stop, wq_nthreads;
	pid_t wq_pid; /* the process that started the threads */
	pthread_t wq_threads[OL_WORKERS];
	/* erasure codecs by (k, m), made once (ec_io.c ol_ec_codec) */
	pthread_mutex_t ec_lock;
	struct ec_codec *codecs[OL_EC_CODECS];
	int ncodecs;
	/* ops on an inactive PG wait for a map that activates it (the
	 * mounted daemon: ol_set_wait); closing: they give up */
	int wait;
	_Atomic int closing;
	/* the kept intents this objlayer must drop, oldest first (kept.c) */
	pthread_mutex_t kept_lock;
	struct ol_kept *kept;
	size_t nkept, capkept;
	uint64_t kept_tick;
	int (*stop_fn)(void *arg); /* ol_set_wait: the daemon is going */
	void *stop_arg;
};

/* Run fn(arg, i) for i in 0..n-1: i = 0 here, the others on the worker
 * threads (or here when none is free); returns when all are done.  fn
 * must take no lock the caller holds, nor call ol_parallel. */
void ol_parallel(objlayer *ol, void (*fn)(void *arg, int i), void *arg,
		 int n);
/* This thread's buffer of at least len bytes, OL_DIO_ALIGN-aligned,
 * reused by its next call (workers.c); NULL when it cannot grow. */
void *ol_bounce(size_t len);
void ol_workers_init(objlayer *ol);
void ol_workers_stop(objlayer *ol);

/* PG ps's lock; modulo, so that a pg_num change whose new locks could not
 * be allocated keeps correct (coarser) ones */
static inline pthread_rwlock_t *ol_pgio(objlayer *ol, int64_t pool,
				       uint32_t ps)
{
	/* the data pool's PGs each their own; another pool's share them
	 * (coarser, still correct: nobody holds two at once) */
	uint64_t k = pool == ol->pool ? ps
				      : ps + (uint64_t)pool * 2654435761u;

	return &ol->pgio[k % ol->pg_num];
}
/* Run change (which may change the data pool's pg_num) with every PG
 * operation held off (the PG layout gate), then remake the PG locks. */
int ol_relayout(objlayer *ol, int (*change)(cfs_cluster *c, void *arg),
		void *arg);
pthread_rwlock_t *ol_objlock(objlayer *ol, const char *name);
/* One backfill pass of rebalance (rebalance.c): the rounds that copy,
 * choose the acting sets again and purge, as ol_rebalance documents;
 * ol_rebalance (adjust.c) runs one, then one after each pg_num/pgp_num
 * step. */
int ol_backfill(objlayer *ol, struct ol_rebalance_stats *st,
		void (*progress)(const struct ol_rebalance_progress *p,
				 void *arg),
		void *arg);

/*
 * Every object name the PG may hold (the union of its holders' folders and
 * missing sets): the missing set of a new backfill target.  Needs
 * cfs_pg_lock.  Free with ol_names_free.
 */
int ol_pg_all_names(objlayer *ol, int64_t pool, uint32_t ps, char ***names,
		    size_t *n);
void ol_names_free(char **names, size_t n);
/* A list being collected (names.c); err sticks at the first failure. */
struct ol_names {
	char **v;
	size_t n, cap;
	int err;
	/* optional, beside v: each name's record as an index scan read it,
	 * the scan having started after cfs_index_seq() was seq */
	struct cfs_objinfo *oi;
	size_t oi_cap;
	uint64_t seq;
};
void ol_names_add(struct ol_names *a, const char *name);
void ol_names_sort_unique(struct ol_names *a);
/* A cfs_index_foreach callback: the names whose PG in m is ps (of pool)
 * go to a. */
struct ol_pg_pick {
	const cfs_osdmap *m;
	int64_t pool;
	uint32_t ps;
	struct ol_names *a;
};
/* The object's record: the one the last write of it set while the name
 * stem has not changed since, else the index's (reccache.c).  Only under
 * the object's write lock. */
int ol_rec_get(objlayer *ol, int64_t pool, const char *name,
	       struct cfs_objinfo *oi);
/* A write set oi for name; gen0: the stem's generation before it. */
void ol_rec_noted(objlayer *ol, int64_t pool, const char *name,
		  const struct cfs_objinfo *oi, uint64_t gen0);
/* files.c: a write's new size of object name (in pool) for the cache of
 * file bytes; gen0 the name's stem generation before its index record. */
void ol_bytes_noted(objlayer *ol, int64_t pool, const char *name,
		    uint64_t size, uint64_t gen0);
int ol_pg_pick(const char *name, const struct cfs_objinfo *oi, int op,
	       void *arg);
/* Make acting OSD t a holder of the PG (a backfill target with every
 * object missing when the PG has data elsewhere).  Needs cfs_pg_lock. */
int ol_ensure_holder(objlayer *ol, int64_t pool, uint32_t ps, int t);

/* One object operation's view of the map (objio.c). */
struct objop {
	cfs_cluster *c;
	const cfs_osdmap *m;
	const struct cfs_pool_info *pool;
	const struct cfs_pg_mapping *pg;
	int64_t pid; /* pool->id */
	uint32_t ps;
	char pgid[32];
};
/* -ENOENT (nothing begun) when the pool does not exist. */
int ol_op_begin(objlayer *ol, int64_t pool, const char *name,
		struct objop *op);
void ol_op_end(struct objop *op);
/* The map again once the caller holds the PG's pgio: the acting set
 * current under the lock (what a purge or a new pg_temp respects). */
void ol_op_refresh(struct objop *op);

/* A copy against the index entry oi: good, absent, or bad (*why says
 * how); deep also reads every block.  -errno for other failures. */
#define OL_COPY_GOOD 0
#define OL_COPY_ABSENT 1
#define OL_COPY_BAD 2
/* with deep: OL_COPY_PATH also looks at the file the copy's path names now
 * (scrub: a copy changed behind the store's back) */
#define OL_COPY_PATH 2
int ol_copy_check(cfs_cluster *c, int osd, int64_t pool, uint32_t ps,
		  const char *name,
		  const struct cfs_objinfo *oi, int deep, const char **why);
/* the why of a copy whose file is absent (ol_note_damage then settles the
 * store's count of it) */
extern const char ol_why_absent[];
/* Log a bad copy and mark it damaged (missing until repaired). */
void ol_note_damage(objlayer *ol, const struct objop *op, int osd,
		    const char *name, const char *why, int pg_locked);
/* OSDs that may hold a current copy, best first (acting, then up old
 * holders), none missing it; cand has room for CFS_MAX_REP + 256.  Needs
 * cfs_pg_lock. */
int ol_candidates(objlayer *ol, const struct objop *op, const char *name,
		  int *cand);
/* Rebuild dst's copy from the first good one among cand. */
int ol_recover_copy(objlayer *ol, const struct objop *op, const char *name,
		    const struct cfs_objinfo *oi, int dst, const int *cand,
		    int nc);
/* 0, or -EINVAL (no name) / -ENAMETOOLONG (over 200 bytes). */
int ol_check_name(const char *name);
/* A replicated change, started (cfs_pg_lock held): holders outside the
 * acting set t noted as missing it, every t[i] a holder, the intent with
 * next->version (set here) in the index.  kept non-NULL: a write's intent
 * that stays for the object's next writes (cfs_index_intent_kept; *kept
 * = 1 when this write made it, and ol_kept_note must follow). */
int ol_begin_change(objlayer *ol, const struct objop *op, const char *name,
		    const int *t, int nt, struct cfs_objinfo *next, int *kept);
/* kept.c: the kept intents this objlayer made, dropped in batches: by a
 * writer once OL_KEPT_HIGH wait (ol_kept_note returns 1: call
 * ol_kept_drop(ol, OL_KEPT_OLDEST) holding no object lock), by the
 * daemon's tick those older than the last tick, all at ol_close. */
#define OL_KEPT_HIGH 128
#define OL_KEPT_LOW 64
/* Only a write that leaves the object this small makes a kept intent:
 * the open after a kill -9 reads every copy of each kept object, and a
 * big write's commit is a small part of its cost anyway. */
#define OL_KEPT_MAX_SIZE (1u << 20)
enum { OL_KEPT_OLDEST, OL_KEPT_AGED, OL_KEPT_ALL };
int ol_kept_note(objlayer *ol, int64_t pool, const char *name);
int ol_kept_drop(objlayer *ol, int which);
void ol_kept_init(objlayer *ol);
void ol_kept_fini(objlayer *ol);
/* What acting copy t[i] needs before a change: it takes the change in
 * place, is rebuilt first, or starts empty. */
enum { OL_ACT_WRITE, OL_ACT_RECOVER, OL_ACT_FRESH };
/* rec[i] = ol_recover_copy of each t[i] whose act[i] is OL_ACT_RECOVER,
 * before any copy changes (without cfs_pg_lock). */
void ol_recover_first(objlayer *ol, const struct objop *op,
		      const char *name, const struct cfs_objinfo *oi,
		      const int *t, const int *act, int nt, const int *cand,
		      int nc, int *rec);
/* Settle every interrupted change and, on a new index, rebuild it from
 * the copies (settle.c).  At open, before any I/O. */
int ol_settle(objlayer *ol);
/* Scrub one object (flags OL_SCRUB_*); *auth_osd gets the copy taken as
 * authoritative (-1 if none was needed or found). */
int ol_scrub_one(objlayer *ol, int64_t pool, const char *name, int flags,
		 struct ol_scrub_stats *st,
		 void (*msg)(const char *line, void *arg), void *arg,
		 int *auth_osd);

/* Object operations (objio_write.c, objio_read.c, objio_remove.c): 0 /
 * bytes, or -errno. */
#define F_FULL 0x1 /* replace the whole object (write_full) */
#define F_ASYNC 0x2 /* a file's data: the RADOS backend may write back */
int obj_write(objlayer *ol, int64_t pool, const char *name, uint64_t off,
	      const void *buf, size_t len, int flags);
struct timespec;
ssize_t obj_read(objlayer *ol, int64_t pool, const char *name, uint64_t off,
		 void *buf, size_t len, uint64_t *size,
		 struct timespec *mtime);
int obj_remove(objlayer *ol, int64_t pool, const char *name,
	       int quiet_enoent);
int obj_truncate(objlayer *ol, int64_t pool, const char *name,
		 uint64_t size);
int obj_sync(objlayer *ol, int64_t pool, const char *name);

/* An erasure pool's objects as k+m shards (ec_io.c); op begun, the
 * object's lock held by the caller (objio_*.c).  Returns as obj_*. */
int ec_write(objlayer *ol, const struct objop *op, const char *name,
	     uint64_t off, const void *buf, size_t len, int full);
ssize_t ec_read(objlayer *ol, const struct objop *op, const char *name,
		uint64_t off, void *buf, size_t len, uint64_t *size,
		struct timespec *mtime, int *recover);
/* Rebuild the object's acting shards that missed changes (its lock held
 * exclusive), when k current shards are there. */
int ec_recover_object(objlayer *ol, const struct objop *op,
		      const char *name);
int ec_remove(objlayer *ol, const struct objop *op, const char *name);
int ec_truncate(objlayer *ol, const struct objop *op, const char *name,
		uint64_t size);
int ec_sync(objlayer *ol, const struct objop *op, const char *name);
/* The codec for k+m, made at first use and kept until ol_close (its
 * tables are read-only: shared by every thread); NULL on failure. */
struct ec_codec *ol_ec_codec(objlayer *ol, int k, int m);
void ol_ec_codecs_free(objlayer *ol);
/* Rebalance leaves PG pool.ps: target osd refused bytes of backfill
 * (backfillfull_ratio).  Thread-safe. */
void ol_note_toofull(objlayer *ol, int64_t pool, uint32_t ps, int osd,
		     uint64_t bytes);
/* Backfill and recovery of an erasure pool's PG (rebalance): shard i
 * copied or rebuilt onto up[i] and acting[i] where they miss objects. */
int ec_backfill_pg(objlayer *ol, int64_t pool, uint32_t ps,
		   struct ol_rebalance_stats *st);
/* Then, where acting = up and every up[i] is complete, the shards other
 * OSDs hold go (1 if some did). */
int ec_purge_pg(objlayer *ol, int64_t pool, uint32_t ps,
		struct ol_rebalance_stats *st);
/* ol_scrub_pg of an erasure pool's PG: every shard checked (version,
 * length; deep: checksums), bad ones marked, with repair rebuilt. */
int ec_scrub_pg(objlayer *ol, int64_t pool, uint32_t ps, int flags,
		struct ol_scrub_stats *st,
		void (*msg)(const char *line, void *arg), void *arg);
/* ol_pg_stat of an erasure pool's PG: objects, degraded shards, states. */
int ec_pg_stat(objlayer *ol, const cfs_osdmap *m,
	       const struct cfs_pool_info *p, uint32_t ps,
	       const struct ol_names *idx, struct ol_pg_stat *st);
/* pgstats.c: count idx's names from *j up to name (NULL: the end) that
 * the index still holds though no OSD has a file of them (unfound), and
 * step *j past name. */
void ol_pg_index_only(cfs_cluster *c, int64_t pool,
		      const struct ol_names *idx, size_t *j, const char *name,
		      struct ol_pg_stat *st);
/* pgstats.c: the record of name just passed by ol_pg_index_only (*j
 * after it), from idx's scan while no record of its stem changed since,
 * else from the index.  0 or -ENOENT. */
int ol_pg_index_record(cfs_cluster *c, int64_t pool,
		       const struct ol_names *idx, size_t j, const char *name,
		       struct cfs_objinfo *oi);
/* pgstats.c: the change in flight for name that a PG's statistics may
 * meet half done (CFS_INTENT_WRITE with *next_version, CFS_INTENT_REMOVE),
 * or 0. */
int ol_pg_in_flight(cfs_cluster *c, int64_t pool, const char *name,
		    uint64_t *next_version);
/* A change of it cut short (an intent of op CFS_INTENT_*): undone (a
 * write, by its undo record) or finished (a remove). */
int ec_settle_object(objlayer *ol, const struct objop *op, const char *name,
		     int intent_op);

/* The RADOS backend (rados_be.c): open returns 1 when DIR/backend.json
 * names one (connected, the osdmap followed once), 0 when there is none;
 * the object operations below go to it when ol->rb is set. */
int ol_rados_open(objlayer *ol);
void ol_rados_close(objlayer *ol);
int rb_write(objlayer *ol, const char *name, uint64_t off, const void *buf,
	     size_t len, int flags);
/* (With wait: ino's written-back data stored, its removes done.)  0 or
 * the first error not yet reported. */
int rb_flush(objlayer *ol, uint64_t ino, int wait);
/* A purged inode's asynchronous removes done: 0 or the first error of
 * one (its write errors no longer matter). */
int rb_removed(objlayer *ol, uint64_t ino);
/* The object's index entry at size (a new version), unless it exists
 * with that size already. */
int rb_index_size(objlayer *ol, const char *name, int exists, uint64_t old,
		  uint64_t size);
/* Until ino's asynchronous operations are done (and in the index). */
void rb_wait_inode(objlayer *ol, uint64_t ino);
/* The file's object, removed asynchronously (ol_remove). */
int rb_remove_async(objlayer *ol, const char *name);
ssize_t rb_read(objlayer *ol, const char *name, uint64_t off, void *buf,
		size_t len, uint64_t *size, struct timespec *mtime);
int rb_remove(objlayer *ol, const char *name, int quiet_enoent);
int rb_truncate(objlayer *ol, const char *name, uint64_t size);
int rb_setattr(objlayer *ol, const char *name, const char *key,
	       const void *val, size_t len);
int rb_getattr(objlayer *ol, const char *name, const char *key, void **val,
	       size_t *len);
/* A data pool PG's sets and state as the osdmap gives them, with the
 * objects and bytes crushfs keeps there (the index's) */
int rb_pg_stat(objlayer *ol, const cfs_osdmap *m, uint32_t ps,
	       struct ol_pg_stat *st);

/* The write-back window (rados_wb.c), its own lock. */
struct ol_rados_wb;
struct ceph_pool;
struct ol_rados_wb *rb_wb_new(objlayer *ol);
void rb_wb_free(struct ol_rados_wb *wb);
/* Submit; 0, -errno, or the error of an earlier write to the inode not
 * yet reported (nothing submitted then). */
int rb_wb_write(struct ol_rados_wb *wb, struct ceph_pool *pool,
		const char *name, uint64_t off, const void *buf, size_t len,
		int full);
int rb_wb_remove(struct ol_rados_wb *wb, struct ceph_pool *pool,
		 const char *name);
/* Until the object has no write in flight. */
void rb_wb_wait_object(struct ol_rados_wb *wb, const char *name);
/* (With wait: until ino has none in flight.)  Its first write error,
 * reported now; with removed (waits too), its first remove error, every
 * error of the purged inode reported. */
int rb_wb_flush_inode(struct ol_rados_wb *wb, uint64_t ino, int wait,
		      int removed);
/* Until ino has none in flight (its objects all in the index). */
void rb_wb_wait_inode(struct ol_rados_wb *wb, uint64_t ino);

/* Walking the pieces of a file extent one by one (striper.c), so a huge
 * extent needs no array. */
struct ol_piece_iter {
	uint64_t cur, left, su, sc, spo;
};
int ol_piece_begin(struct ol_piece_iter *it, const struct ol_layout *l,
		   uint64_t off, uint64_t len);
int ol_piece_next(struct ol_piece_iter *it, struct ol_extent *e);

/* clog_events.c: the cluster log's lines for a refused write (pgid as
 * "1.1a" or "2.3s1") and a finished scrub of a PG (primary -1: none) */
void ol_clog_refused(cfs_cluster *c, const char *pgid, int osd,
		     uint64_t bytes, const char *name, const char *why);
void ol_clog_scrub(cfs_cluster *c, const char *pgid, int primary, int deep,
		   int repair, uint64_t errors, uint64_t repaired);

/* recovery_flags.c: the osdmap flags that hold rebalance's work back.
 * Each target of PG pool.ps (tg, ntg) gets in deferred[] the flag that
 * holds it (0: go on); an erasure PG is held as a whole (ol_ec_held:
 * its flag, or 0); ol_count_held counts a held PG under its flag. */
struct ol_rebalance_stats;
void ol_defer_targets(objlayer *ol, const cfs_osdmap *m, int64_t pool,
		      uint32_t ps, const int *tg, int ntg, uint32_t *deferred);
uint32_t ol_ec_held(objlayer *ol, int64_t pool, uint32_t ps);
void ol_count_held(struct ol_rebalance_stats *st, uint32_t held);

#endif
