/*
 * objindex.h - the object index (part of osdsim.h).
 */
#ifndef CRUSHFS_OSDSIM_OBJINDEX_H
#define CRUSHFS_OSDSIM_OBJINDEX_H

#include <stddef.h>
#include <stdint.h>

typedef struct cfs_cluster cfs_cluster;

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
/*
 * A replicated write's intent that may stay after the write (a kept
 * intent): the next write of the object by the same owner finds it there
 * and commits none of its own, so a run of writes costs one commit each
 * (the record) instead of two.  Written only when owner has no kept
 * intent for the object (*wrote = 1: the owner must drop it later with
 * cfs_index_drop_kept).  A kept intent names the version of the first
 * write it covers: a copy newer than the index and not older than that is
 * a write in flight.  The caller holds the object's lock over the whole
 * write, and so does anyone else who changes the object's intent (every
 * other intent or record change here forgets the kept one).
 */
int cfs_index_intent_kept(cfs_cluster *c, int64_t pool, const char *name,
			  const struct cfs_objinfo *next, const void *owner,
			  int *wrote);
/* Record the object's state and keep its intent (one put). */
int cfs_index_set_kept(cfs_cluster *c, int64_t pool, const char *name,
		       const struct cfs_objinfo *oi);
/* Drop owner's kept intents of these n objects, in one batch (those that
 * another change dropped already are skipped).  The caller holds each
 * object's lock. */
int cfs_index_drop_kept(cfs_cluster *c, const void *owner, size_t n,
			const int64_t *pools, char *const *names);
/* Record the object's state (NULL: it no longer exists) and drop its
 * intent, in one batch. */
int cfs_index_set(cfs_cluster *c, int64_t pool, const char *name,
		  const struct cfs_objinfo *oi);
/* The same for a change recorded by cfs_index_intent, which never has an
 * undo record (a replicated pool's). */
int cfs_index_set_noundo(cfs_cluster *c, int64_t pool, const char *name,
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
 * after a scan of that prefix means the scan saw the current records.
 * Given an object's name, the counter of its stem (up to the '.'). */
uint64_t cfs_index_stem_gen(cfs_cluster *c, const char *stem);
/* The sequence of record changes: read before a scan, then
 * cfs_index_changed_since(name, seq) == 0 means no record of name's stem
 * (or of a stem sharing its slot) has changed since, so the scan's
 * record of name is current.  A change counts once its commit is done:
 * a caller that must not miss one in flight holds what the writer holds
 * over its commit (cfs_pg_lock for objlayer's replicated writes). */
uint64_t cfs_index_seq(cfs_cluster *c);
int cfs_index_changed_since(cfs_cluster *c, const char *name, uint64_t seq);
/* Make every index change durable (WAL fsync). */
int cfs_index_sync(cfs_cluster *c);
/* 1 when this open created the index (it must be rebuilt from copies). */
int cfs_index_is_new(const cfs_cluster *c);

#endif
