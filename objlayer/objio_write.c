/*
 * objio_write.c - a replicated object's writes and syncs: the full and
 * quota checks, what each acting copy needs before the change, the space
 * reserved on every copy first, the data written to all copies at once
 * (ol_parallel), and the version recorded in the index.  Split from
 * objio.c, whose head comment holds the crash-safety argument, as the
 * path that carries nearly all the bytes.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <string.h>

#include "cluster.h"
#include "objindex.h"
#include "objlayer_i.h"
#include "objstore.h"
#include "opgate.h"
#include "osdmap.h"
#include "pgstate.h"
#include "usage.h"
#include "util.h"

/* Size of the object's file on osd, 0 if absent. */
static uint64_t size_on(cfs_cluster *c, int osd, int64_t pool, uint32_t ps,
		       const char *name)
{
	cfs_obj *o;
	uint64_t s;

	if (cfs_obj_open(c, osd, pool, ps, name, 0, &o))
		return 0;
	s = cfs_obj_size(o);
	cfs_obj_put(o);
	return s;
}

/* One change's data for all its copies (ol_parallel: one copy per call). */
struct copy_job {
	cfs_cluster *c;
	const int *t;
	int64_t pid;
	uint32_t ps;
	const char *name;
	const int *act, *rec;
	uint64_t *resv;
	const void *buf;
	size_t len;
	uint64_t off, size, version;
	int direct; /* buf is aligned for cfs_obj_pwrite_direct */
	int err[CFS_MAX_REP];
};

static void write_copy(void *arg, int i)
{
	struct copy_job *j = arg;
	cfs_obj *o;
	int e = j->rec[i];

	if (!e)
		e = cfs_obj_open(j->c, j->t[i], j->pid, j->ps, j->name, CFS_OBJ_CREATE,
				 &o);
	if (!e) {
		uint64_t v;

		if (j->act[i] == OL_ACT_FRESH &&
		    (cfs_obj_size(o) > 0 || cfs_obj_version(o, &v)))
			e = cfs_obj_reset(o);
		if (!e && j->len)
			e = j->direct ? cfs_obj_pwrite_direct(o, j->buf, j->len,
							      j->off)
			    : j->len >= OL_PARALLEL_MIN
				? cfs_obj_pwrite_wb(o, j->buf, j->len, j->off)
				: cfs_obj_pwrite(o, j->buf, j->len, j->off);
		if (!e && cfs_obj_size(o) < j->size)
			e = cfs_obj_truncate(o, j->size);
		if (!e)
			e = cfs_obj_commit(o, j->version);
		cfs_obj_put(o);
	}
	/* the store has accounted what it wrote: release now, so concurrent
	 * writers do not see these bytes twice */
	cfs_osd_unreserve(j->c, j->t[i], j->resv[i]);
	j->resv[i] = 0;
	j->err[i] = e;
}


/*
 * Write len bytes at off of object `name` (with F_FULL: make the object
 * exactly buf).  0 or -errno; nothing is changed on -ENOSPC.
 */
static int obj_write_once(objlayer *ol, int64_t pool, const char *name, uint64_t off,
	      const void *buf, size_t len, int flags)
{
	/* the RADOS backend holds the data pool only */
	if (ol->rb)
		return pool != ol->pool ? -ENOENT
		       : off + len < off || off + len > OL_MAX_OBJECT_SIZE
			       ? -EFBIG
			       : rb_write(ol, name, off, buf, len, flags);
	cfs_cluster *c = ol->c;
	struct objop op;
	pthread_rwlock_t *ol_lock;
	int t[CFS_MAX_REP], nt, act[CFS_MAX_REP] = { 0 };
	int failed[CFS_MAX_REP] = { 0 }, cand[CFS_MAX_REP + 256], nc;
	int cerr[CFS_MAX_REP];
	uint64_t resv[CFS_MAX_REP] = { 0 };
	int r = 0, fo, exists, nok = 0;
	struct cfs_objinfo oi = { 0, 0 }, next;
	int full = flags & F_FULL;
	int rec[CFS_MAX_REP] = { 0 };
	int keep, kept = 0;

	if ((r = ol_check_name(name)))
		return r;
	if (off + len < off || off + len > OL_MAX_OBJECT_SIZE)
		return -EFBIG;
	if ((r = op_begin(ol, pool, name, &op)))
		return r;
	fo = op.pool->erasure;
	r = op.pool->erasure && !full && !op.pool->ec_overwrites;
	op_end(&op);
	if (r) /* Ceph: an EC pool without FLAG_EC_OVERWRITES takes whole
		* objects (and appends) only */
		return -EOPNOTSUPP;
	if (fo) {
		struct ec_call a = { EC_WRITE, full, 0, off, buf, NULL, len,
				     NULL, NULL };

		return (int)ec_op(ol, pool, name, 1, NEED_MIN_SIZE, "write to",
				  &a);
	}
	if ((r = op_lock(ol, pool, name, &op, 1, NEED_MIN_SIZE, "write to")))
		return r;
	nt = op.pg->nacting;
	memcpy(t, op.pg->acting, sizeof(int) * (size_t)nt);
	ol_lock = ol_objlock(ol, name);

	r = ol_rec_get(ol, op.pid, name, &oi);
	exists = r == 0;
	if (r && r != -ENOENT) {
		r = -EIO;
		goto unlock;
	}
	r = 0;
	cfs_pg_lock(c, op.pid, op.ps);
	if (cfs_osdmap_full_policy(op.m) == CFS_FULL_POOL &&
	    cfs_pool_is_full(c, op.m, op.pool, &fo)) {
		cfs_log(CFS_LOG_INFO,
			"pool '%s' is full (osd.%d); write to '%s' refused",
			op.pool->name, fo, name);
		r = -ENOSPC;
		goto unlock_state;
	}
	{
		const char *which;

		/* Ceph's FULL_QUOTA pool flag: writes get EDQUOT */
		if (cfs_pool_quota_full(c, op.m, op.pool, &which)) {
			cfs_log(CFS_LOG_INFO,
				"pool '%s' reached its quota's %s; write to "
				"'%s' refused",
				op.pool->name, which, name);
			r = -EDQUOT;
			goto unlock_state;
		}
	}
	/* what each acting copy needs before it can take the change */
	for (int i = 0; i < nt; i++) {
		int holder = cfs_pg_is_holder(c, op.pid, op.ps, t[i]);
		const char *why;
		int st;

		if (full || !exists) {
			act[i] = OL_ACT_FRESH; /* a leftover file is no data */
			continue;
		}
		if (!holder || cfs_pg_is_missing(c, op.pid, op.ps, t[i], name)) {
			act[i] = OL_ACT_RECOVER;
			continue;
		}
		st = ol_copy_check(c, t[i], op.pid, op.ps, name, &oi, 0, &why);
		if (st == OL_COPY_GOOD) {
			act[i] = OL_ACT_WRITE;
		} else if (st == OL_COPY_ABSENT || st == OL_COPY_BAD) {
			ol_note_damage(ol, &op, t[i], name, why, 1);
			act[i] = OL_ACT_RECOVER;
		} else {
			r = -EIO;
			goto unlock_state;
		}
	}
	nc = ol_candidates(ol, &op, name, cand);
	for (int i = 0; i < nt; i++)
		if (act[i] == OL_ACT_RECOVER && nc == 0) {
			r = no_copy_up(&op, name, "write");
			goto unlock_state;
		}
	next.size = full ? len : off + len;
	if (exists && !full && oi.size > next.size)
		next.size = oi.size;
	/* space on every replica first: a refused write changes nothing */
	for (int i = 0; i < nt; i++) {
		/* a new object's copies start empty (a leftover file is
		 * reset): no open of a file that is most often absent */
		uint64_t cur = exists ? size_on(c, t[i], op.pid, op.ps, name)
				      : 0;
		uint64_t fin = next.size;

		resv[i] = fin > cur ? fin - cur : 0;
		r = cfs_osd_reserve(c, t[i], resv[i],
				    cfs_osdmap_write_limit(op.m, t[i]));
		if (r) {
			char why[256];

			cfs_osd_refusal_text(c, t[i],
					     cfs_osdmap_write_limit(op.m, t[i]),
					     why, sizeof(why));
			cfs_log(CFS_LOG_INFO,
				"pg %s: osd.%d is too full for a write of "
				"%" PRIu64 " bytes to '%s' (%s): refused",
				op.pgid, t[i], resv[i], name, why);
			cfs_osd_note_refused(c, t[i], op.pid, op.ps, resv[i]);
			ol_clog_refused(c, op.pgid, t[i], resv[i], name, why);
			for (int k = 0; k < i; k++)
				cfs_osd_unreserve(c, t[k], resv[k]);
			memset(resv, 0, sizeof(resv));
			goto unlock_state;
		}
	}
	keep = next.size <= OL_KEPT_MAX_SIZE;
	r = ol_begin_change(ol, &op, name, t, nt, &next, keep ? &kept : NULL);
	if (r)
		goto unreserve_state;
	cfs_pg_unlock(c, op.pid, op.ps);

	ol_recover_first(ol, &op, name, &oi, t, act, nt, cand, nc, rec);
	/* the data, then each copy's record: every copy at once */
	{
		struct copy_job j = { c, t, op.pid, op.ps, name, act, rec,
				      resv, buf,
				      len, off, next.size, next.version, 0,
				      { 0 } };

		/*
		 * Every copy of a big aligned write goes around the page
		 * cache (cfs_obj_pwrite_direct), from one aligned copy of
		 * the data (FUSE's lies 80 bytes into a page), as
		 * BlueStore writes its data.  A buffered write copies the
		 * bytes once per copy into fresh page-cache pages: on a
		 * 2-core machine those copies, not the disk, set a size-3
		 * write's pace (65% of the daemon's CPU), and on a VM
		 * whose host takes freed pages back a fresh page's first
		 * touch swings several-fold (a size-1 GiB took 0.8-3.5 s
		 * buffered, 1.2-1.5 s direct with a third of the CPU;
		 * docs/performance.md).  The kernel keeps the file's pages
		 * above FUSE anyway: a second cached copy below bought
		 * only memory.  Unaligned big writes stay buffered with
		 * their writeback started at once (cfs_obj_pwrite_wb).
		 */
		if (len >= OL_PARALLEL_MIN &&
		    !((off | len) % OL_DIO_ALIGN)) {
			void *b = (uintptr_t)buf % OL_DIO_ALIGN ? ol_bounce(len)
								: (void *)buf;

			if (b) {
				if (b != buf)
					memcpy(b, buf, len);
				j.buf = b;
				j.direct = 1;
			}
		}

		/* handing a copy to a thread costs more than a small
		 * write: those stay here */
		if (len >= OL_PARALLEL_MIN)
			ol_parallel(ol, write_copy, &j, nt);
		else
			for (int i = 0; i < nt; i++)
				write_copy(&j, i);
		memcpy(cerr, j.err, sizeof(cerr));
	}
	for (int i = 0; i < nt; i++) {
		int e = cerr[i];

		if (e == -EBADMSG) {
			/* the copy was rotten next to the change (its store
			 * refused to vouch for it): damaged, rebuilt from a
			 * good one; the write itself stands on the others */
			failed[i] = 1;
			cfs_pg_lock(c, op.pid, op.ps);
			cfs_pg_mark_damaged(c, op.pid, op.ps, t[i], name);
			cfs_pg_unlock(c, op.pid, op.ps);
		} else if (e) {
			failed[i] = 1;
			if (!r)
				r = e;
		} else {
			nok++;
		}
	}
	if (!nok && !r)
		r = -EIO; /* no copy took it */

	cfs_pg_lock(c, op.pid, op.ps);
	for (int i = 0; i < nt; i++) {
		if (!nok && !exists) {
			/* no copy took the first write of the object: it
			 * never was, and what the failed copies left is no
			 * copy of anything (the disk filled mid-write) */
			cfs_obj_remove(c, t[i], op.pid, op.ps, name);
			cfs_pg_clear_missing(c, op.pid, op.ps, t[i], name);
			if (failed[i])
				cfs_log(CFS_LOG_WARN,
					"pg %s: first write of '%s' on osd.%d "
					"failed: %s",
					op.pgid, name, t[i],
					cfs_strerror(cerr[i]));
		} else if (failed[i]) {
			/* this copy is in an unknown state now */
			cfs_pg_mark_missing(c, op.pid, op.ps, t[i], name);
			cfs_log(CFS_LOG_ERR,
				"pg %s: write of '%s' on osd.%d failed: %s",
				op.pgid, name, t[i], cfs_strerror(cerr[i]));
		} else {
			cfs_pg_clear_missing(c, op.pid, op.ps, t[i], name);
		}
	}
	{
		/* one good copy makes the write: the others are missing
		 * and get rebuilt from it; none leaves the old version */
		uint64_t gen0 = cfs_index_stem_gen(c, name);
		/* a write that took keeps its intent for the next ones
		 * (kept.c); one that did not settles it here */
		int e = nok && keep
				? cfs_index_set_kept(c, op.pid, name, &next)
				: cfs_index_set_noundo(c, op.pid, name,
						       nok     ? &next
						       : exists ? &oi
								: NULL);

		if (e && !r)
			r = e;
		if (!e && nok) {
			ol_bytes_noted(ol, pool, name, next.size, gen0);
			ol_rec_noted(ol, op.pid, name, &next, gen0);
		}
	}
	if (r && r != -ENOSPC && r != -EDQUOT)
		r = -EIO;
	goto unlock_state;

unreserve_state:
	for (int i = 0; i < nt; i++)
		cfs_osd_unreserve(c, t[i], resv[i]);
unlock_state:
	cfs_pg_unlock(c, op.pid, op.ps);
unlock:
	pthread_rwlock_unlock(ol_lock);
	pthread_rwlock_unlock(ol_pgio(ol, op.pid, op.ps));
	op_end(&op);
	/* the kept intent this write made, to drop later; enough of them:
	 * the oldest go now, with no lock held */
	if (kept && ol_kept_note(ol, pool, name))
		ol_kept_drop(ol, OL_KEPT_OLDEST);
	return r;
}

int obj_sync(objlayer *ol, int64_t pool, const char *name)
{
	if (ol->rb)
		return 0; /* RADOS acknowledges a write once it is durable */
	cfs_cluster *c = ol->c;
	struct objop op;
	int r = 0;

	if ((r = op_lock(ol, pool, name, &op, 0, NEED_NONE, "sync of")))
		return r;
	if (op.pool->erasure) {
		struct ec_call a = { EC_SYNC, 0, 0, 0, NULL, NULL, 0,
				     NULL, NULL };

		return (int)ec_dispatch(ol, &op, name, &a);
	}
	for (int i = 0; i < op.pg->nacting; i++) {
		cfs_obj *o;

		if (cfs_obj_open(c, op.pg->acting[i], op.pid, op.ps, name, 0, &o))
			continue;
		if (!r)
			r = cfs_obj_sync(o);
		cfs_obj_put(o);
	}
	op_unlock(ol, &op, name);
	return r ? -EIO : 0;
}

/* A write, tried again while the object's current copies are on down
 * OSDs (no_copy_up). */
int obj_write(objlayer *ol, int64_t pool, const char *name, uint64_t off,
	      const void *buf, size_t len, int flags)
{
	struct op_waiting w = { { 0, 0 }, 0, 0 };
	int r;

	while ((r = obj_write_once(ol, pool, name, off, buf, len, flags)) ==
	       -EAGAIN)
		if ((r = again(ol, &w, pool, name, "write to")))
			return r;
	return r;
}
