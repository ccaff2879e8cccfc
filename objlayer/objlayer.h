/*
 * objlayer.h - the striped, replicated object layer: RADOS in miniature.
 *
 * The only interface fs/ and the rados commands use to store data.  It
 * speaks in (inode, file layout, offset, length) and object names, never in
 * OSD paths.  Files are cut into objects named "%llx.%08llx" (inode, object
 * number), exactly as CephFS names them; each object goes to the PG its name
 * hashes to and is replicated on that PG's acting set.
 *
 * Errors: 0 / byte counts, or -errno.  ENOSPC (full OSD), ENOENT and EDQUOT
 * pass through; PGs with fewer than min_size OSDs up give -EIO promptly
 * with one log line naming the PG; unexpected failures become -EIO with one
 * log line.  A refused write changes no replica.
 *
 * Thread safety: every call may be made from many threads at once; writes
 * to one object are serialized, writes to different objects run in
 * parallel.
 */
#ifndef CRUSHFS_OBJLAYER_H
#define CRUSHFS_OBJLAYER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef struct cfs_cluster cfs_cluster; /* osdsim/cluster.h */
typedef struct cfs_osdmap cfs_osdmap;   /* osdsim/osdmap.h */
struct cfs_pool_info;                   /* osdsim/osdmap.h */
typedef struct objlayer objlayer;

/* CephFS file layout (ceph_file_layout).  Defaults 4 MiB / 1 / 4 MiB. */
struct ol_layout {
	uint32_t stripe_unit;
	uint32_t stripe_count;
	uint32_t object_size;
	int64_t pool;
};

/* One piece of a file extent inside one object (Ceph Striper). */
struct ol_extent {
	uint64_t objectno;
	uint64_t obj_off;
	uint64_t len;
	uint64_t file_off;
};

/* ---- striping math (pure) ---- */
/* Valid as CephFS's file_layout_t::is_valid (stripe_unit and object_size
 * multiples of 64 KiB, object_size a multiple of stripe_unit, count >= 1),
 * count <= CFS_MAX_STRIPE_COUNT, object_size <= 1 GiB (cfs_layout_check). */
int ol_layout_valid(const struct ol_layout *l);
/* Split [off, off+len) into per-object extents in file order; returns the
 * number of extents written (at most max), or -E2BIG if max is too small
 * (call with max == 0 to count). */
int ol_file_to_extents(const struct ol_layout *l, uint64_t off, uint64_t len,
		       struct ol_extent *ext, int max);
/* Object name of (ino, objectno): "%llx.%08llx".  buf >= 40 bytes. */
void ol_object_name(uint64_t ino, uint64_t objectno, char *buf, size_t len);
/* Number of objects a file of `size` bytes can touch (upper bound). */
uint64_t ol_object_count(const struct ol_layout *l, uint64_t size);
/* Bytes object `objectno` holds in a file of file_size bytes (what a
 * truncate to file_size leaves of it). */
uint64_t ol_object_bytes(const struct ol_layout *l, uint64_t objectno,
			 uint64_t file_size);

/* ---- the layer ---- */
int ol_open(cfs_cluster *c, objlayer **out);
void ol_close(objlayer *ol);
/* Ops on a PG that cannot serve them (below min_size, no OSD up) wait
 * for a map that makes it active, as a Ceph client's ops do, up to the
 * option rados_osd_op_timeout (0: no limit; then -ETIMEDOUT), listed as
 * SLOW_OPS meanwhile; set by a mounted daemon, whose map others change.
 * Without it (a lone CLI process) such ops fail at once with -EIO.
 * stopping(arg), asked about once a second while an op waits, ends every
 * wait (-EIO) once it says the daemon is going away (libfuse joins its
 * workers before its loop returns). */
void ol_set_wait(objlayer *ol, int on, int (*stopping)(void *arg),
		 void *arg);
/* Waiting ops give up (-EIO): the daemon is going away. */
void ol_stop_waiting(objlayer *ol);
/* Per thread: a waiting op asks fn(arg) about once a second whether its
 * request was interrupted (FUSE_INTERRUPT: the caller was killed), and
 * then ends with -EINTR.  NULL: never. */
void ol_set_interrupt_check(int (*fn)(void *arg), void *arg);
/* A cluster on the RADOS backend (mkfs --backend rados): follow the live
 * cluster's osdmap while open (polled every 2 s; a mounted daemon calls
 * it).  0 (also for the OSD folders), or -errno. */
int ol_follow_cluster(objlayer *ol);
/* 1 when the objects live in a live Ceph pool (RADOS backend). */
int ol_is_rados(const objlayer *ol);
/* The pool's default layout (from the cluster's pool settings). */
void ol_default_layout(objlayer *ol, struct ol_layout *l);
/* The filesystem's default data pool: where new files go unless a layout
 * says otherwise, and where every inode's backtrace is (CephFS). */
int64_t ol_data_pool(const objlayer *ol);
/* `osd pool set NAME pg_num N`: PG split or merge (osdsim's
 * cfs_pool_set_pg_num) with I/O held off meanwhile, also on a mounted
 * cluster; the per-PG locks follow.  Errors as cfs_pool_set_pg_num. */
/* Rebalance's own split or merge towards pg_num_target (osdsim's
 * cfs_pool_step_pg_num), I/O held off the same way. */
int ol_step_pg_num(objlayer *ol, int64_t pool, uint32_t pg_num, char *why,
		   size_t whylen);
int ol_set_pg_num(objlayer *ol, int64_t pool, uint32_t pg_num, char *why,
		  size_t whylen);
/* A pool named by key (its name, or its id in decimal): *id and its name
 * (name may be NULL).  -ENOENT when there is no such pool. */
int ol_pool_lookup(objlayer *ol, const char *key, int64_t *id, char *name,
		   size_t len);

/* Write len bytes at file offset off.  Returns len, or the number of bytes
 * written before a refusal (> 0), or -errno if nothing was written. */
ssize_t ol_write(objlayer *ol, uint64_t ino, const struct ol_layout *l,
		 uint64_t off, const void *buf, size_t len);
/* Read up to len bytes at off from a file of file_size bytes; holes and
 * missing objects read as zeros; returns bytes read (0 at/after EOF). */
ssize_t ol_read(objlayer *ol, uint64_t ino, const struct ol_layout *l,
		uint64_t file_size, uint64_t off, void *buf, size_t len);
/* Shrink or grow a file from old_size to new_size: what objects hold past
 * min(old_size, new_size) is cut (objects left empty are removed), so a
 * grown range reads as zeros.  Visits the objects the file has, not its
 * size.  Always allowed, even when full. */
int ol_truncate(objlayer *ol, uint64_t ino, const struct ol_layout *l,
		uint64_t old_size, uint64_t new_size);
/* Remove every object of the file (size is ignored: the object index
 * knows them, past the size too).  Always allowed.  The RADOS backend
 * removes asynchronously: the objects are gone once ol_removed(ino)
 * returns 0 (keep the file's orphan mark until then). */
int ol_remove(objlayer *ol, uint64_t ino, const struct ol_layout *l,
	      uint64_t size);
int ol_removed(objlayer *ol, uint64_t ino);
/* Make the file's objects durable (fsync on every replica). */
int ol_sync(objlayer *ol, uint64_t ino, const struct ol_layout *l,
	    uint64_t size);
/* close(2)'s part: 0, or the first error met by the file's writes that
 * were acknowledged before they were stored (the RADOS backend writes
 * back) and not yet reported, reported now.  Does not wait for writes
 * still on their way (ol_sync does), as ceph-fuse's flush.  0 at once
 * for the OSD folders: their writes are synchronous. */
int ol_flush(objlayer *ol, uint64_t ino);

/* ---- fallocate (falloc.c) ----
 * The object side of fallocate(2) on [off, off+len); file sizes are the
 * caller's business (KEEP_SIZE or not).  ALLOCATE: the range's holes
 * (missing objects, space past an object's end) become stored zeros on
 * every replica, space reserved as for a write: -ENOSPC when an OSD would
 * cross full_ratio, or at once when the range needs more than the pool's
 * MAX AVAIL.  ZERO: the range reads zeros and is allocated (a write of
 * zeros).  PUNCH: the range reads zeros and takes no new space: objects
 * it covers whole are removed, ranges reaching an object's end truncate
 * it, others are overwritten with zeros (refused on a full OSD, as any
 * write).  Returns 0 or -errno; a failure may leave a prefix done. */
enum ol_falloc_mode {
	OL_FALLOC_ALLOCATE,
	OL_FALLOC_PUNCH,
	OL_FALLOC_ZERO,
};
int ol_fallocate(objlayer *ol, uint64_t ino, const struct ol_layout *l,
		 uint64_t off, uint64_t len, enum ol_falloc_mode mode);

/* ---- whole objects by name (rados put/get/stat/rm/ls) ---- */
/* Every call names its pool (an id): -ENOENT when there is no such pool. */
int ol_obj_write_full(objlayer *ol, int64_t pool, const char *name,
		      const void *buf, size_t len);
/* Write len bytes at off inside an object (created when missing). */
int ol_obj_write(objlayer *ol, int64_t pool, const char *name, uint64_t off,
		 const void *buf, size_t len);
ssize_t ol_obj_read(objlayer *ol, int64_t pool, const char *name,
		    uint64_t off, void *buf, size_t len);
int ol_obj_stat(objlayer *ol, int64_t pool, const char *name,
		uint64_t *size);
struct timespec;
/* Size and modification time (of the copy read). */
int ol_obj_stat_mtime(objlayer *ol, int64_t pool, const char *name,
		      uint64_t *size, struct timespec *mtime);
int ol_obj_remove(objlayer *ol, int64_t pool, const char *name);
/* Calls fn for each object of the pool (each name once). */
int ol_obj_list(objlayer *ol, int64_t pool,
		int (*fn)(const char *name, void *arg), void *arg);

/* ---- object attributes (obj_attr.c): RADOS object xattrs ----
 * Set on the copy of every acting OSD, making a 0-byte object first when
 * there is none (the write path's rules apply: min_size, full OSDs); get
 * from the first current copy that has it, *val malloc'ed (NUL added,
 * not counted).  -ENOENT: no such object; -ENODATA: no such attribute. */
int ol_obj_setattr(objlayer *ol, int64_t pool, const char *name,
		   const char *key, const void *val, size_t len);
int ol_obj_getattr(objlayer *ol, int64_t pool, const char *name,
		   const char *key, void **val, size_t *len);

/* ---- placement, for `locate` and the crushfs.placement xattr ---- */
struct ol_placement {
	char name[64];       /* object name */
	char pgid[32];       /* e.g. "1.1f" */
	uint32_t epoch;
	int up[16], nup, up_primary;
	int acting[16], nacting, acting_primary;
	int exists;          /* object present on the primary */
	uint64_t size;       /* object size on the primary */
};
/* -ENOENT when the pool does not exist. */
int ol_locate(objlayer *ol, int64_t pool, const char *objname,
	      struct ol_placement *p);
/* Path of the object's file on one OSD, for display only (locate). */
int ol_object_path(objlayer *ol, int64_t pool, const char *objname, int osd,
		   char *buf, size_t len);

/* ---- space, for statfs / df ---- */
struct ol_space {
	uint64_t total;     /* raw capacity / pool size */
	uint64_t used;      /* logical bytes stored (raw used / size) */
	uint64_t max_avail; /* ceph df MAX AVAIL for the pool */
};
int ol_space(objlayer *ol, struct ol_space *s);

/* Largest object the layer writes (Ceph's osd_max_object_size is 128 MiB;
 * we allow layouts up to 1 GiB objects). */
#define OL_MAX_OBJECT_SIZE (1ULL << 30)

/* ---- PG statistics (pgstats.c), for status and pg dump ----
 * Object copies are counted as Ceph counts them: each object should have
 * pool-size copies on its acting set; a missing copy that exists on an OSD
 * that no longer should hold it is misplaced, otherwise degraded. */
#define OL_PGS_ACTIVE 0x001
#define OL_PGS_CLEAN 0x002
#define OL_PGS_DOWN 0x004	      /* no up OSD holds its data */
#define OL_PGS_UNDERSIZED 0x008	      /* fewer OSDs than the pool size */
#define OL_PGS_DEGRADED 0x010
#define OL_PGS_REMAPPED 0x020	      /* data still on OSDs it left */
#define OL_PGS_BACKFILL_WAIT 0x040    /* acting OSDs lack objects */
#define OL_PGS_BACKFILL_TOOFULL 0x080 /* ... and one is backfillfull */
#define OL_PGS_PEERED 0x100	      /* below min_size: no I/O */
#define OL_PGS_UNFOUND 0x200	      /* objects with no current copy */
#define OL_PGS_INCONSISTENT 0x400     /* copies found bad, not repaired */
#define OL_PGS_RECOVERY_WAIT 0x800    /* an acting OSD missed some writes */

struct ol_pg_stat {
	uint32_t ps;
	char pgid[32];
	uint64_t objects, bytes;
	uint64_t degraded, misplaced, unfound; /* object copies */
	uint64_t scrub_errors;		       /* damaged copies */
	unsigned state;
	int up[16], nup, up_primary;
	int acting[16], nacting, acting_primary;
};
/* Stats of PG pool.ps in map m (cfs_osdmap_get).  Reads the PG's
 * folders (a pool that holds no objects: ol_pg_stat_placed). */
int ol_pg_stat(objlayer *ol, const cfs_osdmap *m, int64_t pool, uint32_t ps,
	       struct ol_pg_stat *st);
/* Stats of every PG of pool (st: pg_num entries), with one scan of the
 * object index: objects it holds that no OSD has a file of count as
 * unfound there (ol_pg_stat alone cannot see them). */
int ol_pool_pg_stats(objlayer *ol, const cfs_osdmap *m, int64_t pool,
		     struct ol_pg_stat *st);
/* A PG of a pool holding no object of crushfs's (any but the data pool):
 * its sets, and the state its acting OSDs give an empty PG. */
void ol_pg_stat_placed(const cfs_osdmap *m, const struct cfs_pool_info *p,
		       uint32_t ps, struct ol_pg_stat *st);
/* "active+clean", in Ceph's pg_state_string order. */
void ol_pg_state_str(unsigned state, char *buf, size_t len);

/* ---- scrub and repair (scrub.c), Ceph's PG scrub / deep-scrub / repair ----
 * A scrub compares every copy of every object of a PG with the object
 * index: presence, version, size (and, deep, every block's crc32c).  Bad
 * copies are marked damaged (health: OSD_SCRUB_ERRORS, PG_DAMAGED, state
 * +inconsistent).  A repair then picks the authoritative copy - the
 * copies that verify, newest version first, then the majority of equal
 * contents; never "the primary" by default - and rebuilds every other
 * acting copy from it; a copy that does not verify is never the source. */
struct ol_scrub_stats {
	uint64_t objects, copies, bytes;
	uint64_t errors;   /* bad copies found */
	uint64_t repaired; /* copies rebuilt */
	uint64_t unfound;  /* objects with no good copy left */
	uint64_t stray;	   /* copies of objects the index does not know */
	uint32_t pgs;
};
#define OL_SCRUB_DEEP 0x1
#define OL_SCRUB_REPAIR 0x2
int ol_scrub_pg(objlayer *ol, int64_t pool, uint32_t ps, int flags,
		struct ol_scrub_stats *st,
		void (*msg)(const char *line, void *arg), void *arg);
/* Repair one object now (a reader found a bad copy). */
int ol_repair_object(objlayer *ol, int64_t pool, const char *name,
		     struct ol_scrub_stats *st);
/* Which copy is authoritative: among those that verify, the wanted
 * version if any has it, else the newest; among equals the majority of
 * identical contents (digest), ties to the first (acting order).  -1 if
 * none verifies.  Pure: unit-tested on every combination. */
struct ol_copy_view {
	int present, verifies;
	uint64_t version;
	uint32_t digest; /* crc32c of the data */
};
int ol_choose_auth(const struct ol_copy_view *v, int n, uint64_t want);
/* Bytes the file's objects hold (st_blocks: what is allocated). */
int ol_file_bytes(objlayer *ol, uint64_t ino, uint64_t *bytes);
/* The same for a file of layout l whose objects hold nothing past size
 * (no preallocation, no bytes a crash left unprobed): point reads of
 * the few objects that can hold data.  size UINT64_MAX: not known. */
int ol_file_bytes_upto(objlayer *ol, uint64_t ino, const struct ol_layout *l,
		       uint64_t size, uint64_t *bytes);
/* Objects of inode ino that exist in pool (from the index), in name
 * order. */
int ol_file_objects(objlayer *ol, int64_t pool, uint64_t ino,
		    int (*fn)(uint64_t objectno, uint64_t size, void *arg),
		    void *arg);

/* ---- the cluster underneath, for fs/ (ol_cluster.c) ----
 * fs/ speaks to the object layer only (../shared/DESIGN.md): these hand
 * it what it needs of the cluster an objlayer sits on - opening and
 * closing it, its directory and fsid, the check of its OSD folders - and
 * of one epoch's map: the pools and the PG an object maps to, for fsck
 * and the metadata rebuild, which skip PGs too small to serve I/O. */
/* osdsim's cfs_cluster_open (rdonly: a shared lock, nothing written) and
 * cfs_cluster_close; errors as there. */
int ol_cluster_open(const char *dir, int rdonly, cfs_cluster **out,
		    char *err, size_t errlen);
void ol_cluster_close(cfs_cluster *c);
const char *ol_cluster_dir(const cfs_cluster *c);
/* The cluster's fsid into buf (37 bytes hold it). */
void ol_cluster_fsid(cfs_cluster *c, char *buf, size_t len);
/* The same for the cluster an object layer sits on (the mount's
 * ceph.cluster_fsid vxattr). */
void ol_fsid(objlayer *ol, char *buf, size_t len);
/* What the cluster check finds wrong in the OSD folders (copies are not
 * compared: fsck does that through the object layer). */
struct ol_cluster_report {
	int usage_mismatches; /* OSDs whose accounting differs from disk */
	int stray_files;      /* files outside the layout */
	int misfiled;	      /* objects in a folder of the wrong PG */
};
/* osdsim's cfs_cluster_check, not deep: msg gets each problem. */
int ol_cluster_check(cfs_cluster *c, struct ol_cluster_report *r,
		     void (*msg)(const char *line, void *arg), void *arg);

/* The current map, held until ol_map_put (cfs_osdmap_get/put). */
const cfs_osdmap *ol_map_get(objlayer *ol);
void ol_map_put(const cfs_osdmap *m);
/* What fs/ needs to know of a pool in one epoch. */
struct ol_pool_info {
	int64_t id;
	char name[64];
	int min_size;
	uint32_t pg_num;
	int remapped; /* PGs with a pg_temp entry: their data still sits on
		       * the OSDs they left (rebalance's work) */
};
/* Pool i of m (the data pool first, then by id), or the pool of that id:
 * 0, or -ENOENT past the last pool / for no such pool. */
int ol_map_pool_at(const cfs_osdmap *m, int i, struct ol_pool_info *p);
int ol_map_pool(const cfs_osdmap *m, int64_t id, struct ol_pool_info *p);
/* The PG (seed) an object of the pool maps to in m; -ENOENT: no pool. */
int ol_map_object_pg(const cfs_osdmap *m, int64_t pool, const char *name,
		     uint32_t *ps);
/* How many OSDs PG pool.ps has in its acting set in m (an op needs
 * min_size of them); -ENOENT: no such pool or PG. */
int ol_map_pg_nacting(const cfs_osdmap *m, int64_t pool, uint32_t ps);

/* ---- rebalance (rebalance.c, adjust.c) ----
 * Moves every object to where the current map puts it: copies to acting
 * OSDs that lack it (to a temporary file, fsynced, verified, renamed), and
 * only once every acting OSD of a PG holds all of it, deletes the copies on
 * OSDs that left the PG.  An interruption at any point leaves at least one
 * complete copy.  Never writes into an OSD at or past backfillfull_ratio
 * (the PG is left for later, counted in pgs_toofull).
 * Then, as Ceph's mgr does (DaemonServer::adjust_pgs), it walks each
 * pool's pg_num and pgp_num to their targets: a split or merge once the
 * pool is clean, pgp_num in steps sized by target_max_misplaced_ratio,
 * each step a new epoch followed by a whole backfill pass, until every
 * target is reached or something waits (pools_pending, pending: which and
 * why) - never leaving a step half moved.  The PG layout gate is taken
 * shared for each pass, exclusively for a split or merge. */
struct ol_rebalance_stats {
	uint64_t objects_copied, bytes_copied;	 /* copies made */
	uint64_t objects_removed, bytes_removed; /* old copies deleted */
	uint32_t pgs_changed;	/* PGs that needed work, summed over passes */
	uint32_t pgs_toofull;			 /* left: target backfillfull */
	uint32_t pgs_blocked;			 /* left: no up source / down */
	/* left because of an osdmap flag (`osd set`): PGs with only
	 * misplaced copies to backfill (norebalance), with a backfill
	 * target (nobackfill), with objects to recover (norecover) */
	uint32_t pgs_norebalance, pgs_nobackfill, pgs_norecover;
	uint32_t errors;
	uint32_t pgp_steps;	 /* pgp_num changes made (new epochs) */
	uint32_t pg_num_changes; /* splits and merges made */
	uint32_t pools_pending;	 /* pools short of pg_num/pgp_num_target */
	char pending[256];	 /* the first of them: what, and why */
};
struct ol_rebalance_progress {
	uint32_t pg, pg_num;		 /* PGs done / all */
	uint64_t objects_done, objects_todo; /* copies */
	uint64_t bytes_done;
};
int ol_rebalance(objlayer *ol, struct ol_rebalance_stats *st,
		 void (*progress)(const struct ol_rebalance_progress *p,
				  void *arg),
		 void *arg);
/* The rebalance running in this process (a mounted daemon's), if any:
 * 1 with its progress and the seconds since it started; 0 when none. */
int ol_recovery_progress(objlayer *ol, struct ol_rebalance_progress *p,
			 double *seconds);

/* ---- the mounted daemon's tick (montick.c) ----
 * Once a second: OSDs down for mon_osd_down_out_interval are marked out
 * (OSDMonitor::tick; not while noout is set, *held then counts them).
 * since: when the daemon started (down time counts from then at most).
 * Also drops the write intents kept since the tick before last (kept.c).
 * Returns how many were marked out, or -errno. */
int ol_tick(objlayer *ol, int64_t now, int64_t since, int *held);

#endif
