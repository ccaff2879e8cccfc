/*
 * objio_read.c - a replicated object's reads: the first candidate copy
 * that verifies against the index and its checksums answers; bad ones
 * are marked and rebuilt once the read's locks are dropped.  Split from
 * objio.c (whose head comment says what makes a copy good): a read takes
 * the object's lock shared and begins no change, its repairs going
 * through ol_repair_object afterwards.
 */
#include <errno.h>
#include <stdint.h>
#include <time.h>

#include "cluster.h"
#include "objindex.h"
#include "objlayer_i.h"
#include "objstore.h"
#include "opgate.h"
#include "osdmap.h"
#include "pgstate.h"
#include "util.h"

/* Rebuild the damaged acting copies of an object found by a reader. */
static void repair_acting(objlayer *ol, int64_t pool, const char *name)
{
	struct ol_scrub_stats st = { 0 };

	ol_repair_object(ol, pool, name, &st);
}

/*
 * A copy newer than the index is current when a write of that version was
 * in flight (its intent is still there): a crash after the copies were
 * written and before the index was; only a read-only process meets it,
 * the next read-write open settles it (settle.c) the same way.  A kept
 * intent (kept.c) names the first of the writes it covers: any version
 * from it on.
 */
static int unsettled(cfs_cluster *c, int64_t pool, const char *name,
		     uint64_t v)
{
	struct cfs_objinfo next;
	int op;

	return cfs_index_get_intent(c, pool, name, &next, &op) == 0 &&
	       op == CFS_INTENT_WRITE && next.version <= v;
}

static void oi_copy_newer(struct cfs_objinfo *oi, cfs_obj *o, uint64_t v)
{
	oi->version = v;
	oi->size = cfs_obj_size(o);
}

/*
 * Read up to len bytes at off of object `name`.  Returns bytes read (short
 * at the object's end), -ENOENT if the object does not exist; *size gets
 * the object's size.
 */
static ssize_t obj_read_once(objlayer *ol, int64_t pool, const char *name,
			     uint64_t off, void *buf, size_t len,
			     uint64_t *size, struct timespec *mtime)
{
	if (ol->rb)
		return pool != ol->pool ? -ENOENT
					: rb_read(ol, name, off, buf, len, size,
						  mtime);
	cfs_cluster *c = ol->c;
	struct objop op;
	pthread_rwlock_t *lk;
	int cand[CFS_MAX_REP + 256], nc, bad_acting = 0, maybe_hole = 0;
	struct cfs_objinfo oi;
	ssize_t r;

	if ((r = ol_check_name(name)))
		return r;
	if ((r = op_begin(ol, pool, name, &op)))
		return r;
	bad_acting = op.pool->erasure;
	op_end(&op);
	if (bad_acting) {
		struct ec_call a = { EC_READ, 0, 0, off, NULL, buf, len, size,
				     mtime };

		r = ec_op(ol, pool, name, 0, NEED_MIN_SIZE, "read of", &a);
		/* shards that missed changes are rebuilt on the spot (under
		 * the object's lock exclusive), as Ceph recovers an object an
		 * op needs first */
		if (a.recover && r >= 0 && !cfs_cluster_rdonly(c) &&
		    !op_lock(ol, pool, name, &op, 1, NEED_NONE, "recovery of")) {
			struct ec_call rc = { EC_RECOVER, 0, 0, 0, NULL, NULL,
					      0, NULL, NULL };

			(void)ec_dispatch(ol, &op, name, &rc);
		}
		return r;
	}
	if ((r = op_lock(ol, pool, name, &op, 0, NEED_MIN_SIZE, "read of")))
		return r;
	lk = ol_objlock(ol, name);

	r = cfs_index_get(c, op.pid, name, &oi);
	if (r == -ENOENT && cfs_cluster_rdonly(c) &&
	    unsettled(c, op.pid, name, UINT64_MAX)) {
		/* a new object's first writes, covered by a kept intent
		 * whose process died before it committed their record
		 * (osdsim objindex_kept.c): its copies, or a hole */
		oi.version = 0;
		oi.size = 0;
		maybe_hole = 1;
		r = 0;
	}
	if (r) {
		if (r != -ENOENT)
			r = -EIO;
		goto out; /* -ENOENT: a hole */
	}
	cfs_pg_lock(c, op.pid, op.ps);
	nc = ol_candidates(ol, &op, name, cand);
	cfs_pg_unlock(c, op.pid, op.ps);

	r = -EIO;
	for (int i = 0; i < nc; i++) {
		cfs_obj *o;
		const char *why = NULL;
		uint64_t v = 0;
		int e = cfs_obj_open(c, cand[i], op.pid, op.ps, name, 0, &o);

		if (e == -ENOENT) {
			why = ol_why_absent;
		} else if (e) {
			cfs_log(CFS_LOG_WARN,
				"pg %s: read of '%s' on osd.%d failed: %s",
				op.pgid, name, cand[i], cfs_strerror(e));
			continue;
		} else {
			e = cfs_obj_version(o, &v);
			if (!e && v > oi.version && unsettled(c, op.pid, name, v)) {
				oi_copy_newer(&oi, o, v);
				maybe_hole = 0;
			}
			if (e)
				why = "checksum record missing or damaged";
			else if (v != oi.version)
				why = v < oi.version
					      ? "copy is stale (older version)"
					      : "copy has an unknown newer "
						"version";
			else if (cfs_obj_size(o) != oi.size)
				why = "copy has the wrong size";
			if (!why) {
				if (size)
					*size = oi.size;
				if (mtime)
					cfs_obj_mtime(o, mtime);
				r = len ? cfs_obj_pread(o, buf, len, off) : 0;
				if (r == -EBADMSG)
					why = "data does not match its "
					      "checksums";
			}
			cfs_obj_put(o);
		}
		if (why && maybe_hole) /* no copy of it; not damage */
			continue;
		if (why) {
			ol_note_damage(ol, &op, cand[i], name, why, 0);
			bad_acting |= cfs_in_set(op.pg->acting, op.pg->nacting,
					     cand[i]);
			r = -EIO;
			continue;
		}
		if (r >= 0)
			break;
		cfs_log(CFS_LOG_WARN, "pg %s: read of '%s' on osd.%d failed: %s",
			op.pgid, name, cand[i], cfs_strerror((int)r));
	}
	if (maybe_hole) /* no copy was the intent's */
		r = -ENOENT;
	if (r < 0 && r != -ENOENT) {
		cfs_pg_lock(c, op.pid, op.ps);
		r = no_copy_up(&op, name, "read");
		cfs_pg_unlock(c, op.pid, op.ps);
	}
out:
	pthread_rwlock_unlock(lk);
	pthread_rwlock_unlock(ol_pgio(ol, op.pid, op.ps));
	op_end(&op);
	/* repaired on the spot (outside the read lock) when a good copy
	 * was found: Ceph's read error handling rewrites the bad copy too */
	if (bad_acting && r >= 0 && !cfs_cluster_rdonly(c))
		repair_acting(ol, pool, name);
	return r;
}

/* tried again while the object's current copies are on down OSDs
 * (no_copy_up) */
ssize_t obj_read(objlayer *ol, int64_t pool, const char *name, uint64_t off,
		 void *buf, size_t len, uint64_t *size,
		 struct timespec *mtime)
{
	struct op_waiting w = { { 0, 0 }, 0, 0 };
	ssize_t r;

	while ((r = obj_read_once(ol, pool, name, off, buf, len, size,
				  mtime)) == -EAGAIN)
		if ((r = again(ol, &w, pool, name, "read of")))
			return r;
	return r;
}
