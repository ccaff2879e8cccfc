/*
 * pgstate.h - what the cluster knows of each PG beside the map (part of
 * osdsim.h): its holders and their missing and damaged copies, the
 * copies of all its holders side by side, the PGs a rebalance left
 * backfill_toofull, and the ops waiting for an inactive PG.
 */
#ifndef CRUSHFS_OSDSIM_PGSTATE_H
#define CRUSHFS_OSDSIM_PGSTATE_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "objstore.h"

typedef struct cfs_cluster cfs_cluster;

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
/* Remove a name (after the copy is current).  Persisted before it
 * returns: a name left listed after a crash makes a current copy look
 * stale, and when every holder's copy does, the object is unfound. */
int cfs_pg_clear_missing(cfs_cluster *c, int64_t pool, uint32_t ps, int osd,
			 const char *name);
/* The same, persisted lazily (by cfs_pg_flush() or at close): for a
 * backfill, which flushes once per PG and keeps its sources until then,
 * so that a crash in between only means one more copy. */
int cfs_pg_clear_missing_lazy(cfs_cluster *c, int64_t pool, uint32_t ps,
			      int osd, const char *name);
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
/* The same without the files' sizes (each at[i]->size 0): no stat per
 * file, for those that need only who has which name. */
int cfs_pg_copies_load_names(cfs_cluster *c, int64_t pool, uint32_t ps,
			     struct cfs_pg_copies *pc);
int cfs_pg_copies_next(struct cfs_pg_copies *pc); /* 1, or 0 at the end */
void cfs_pg_copies_free(struct cfs_pg_copies *pc);

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
	/* "pauserd" / "pausewr": it waits for that flag to go, not for
	 * the PG ("": the PG is inactive) */
	char paused[8];
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

#endif
