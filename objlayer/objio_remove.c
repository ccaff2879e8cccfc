/*
 * objio_remove.c - a replicated object's removes and truncates: the
 * changes that free space, which go on when the cluster is full and with
 * a single up OSD, so space can always be freed.  Split from objio.c,
 * whose head comment holds the crash-safety argument; unlike a write they
 * never ask for room beyond the hard limit.
 */
#include <errno.h>
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

/* Delete an object everywhere it can be reached.  -ENOENT if it does not
 * exist.  Allowed when full and below min_size (one up OSD suffices). */
int obj_remove(objlayer *ol, int64_t pool, const char *name,
	       int quiet_enoent)
{
	if (ol->rb)
		return pool != ol->pool ? -ENOENT
					: rb_remove(ol, name, quiet_enoent);
	cfs_cluster *c = ol->c;
	struct objop op;
	pthread_rwlock_t *lk;
	struct cfs_objinfo oi;
	int h[256], nh, r = 0;

	if ((r = ol_check_name(name)))
		return r;
	if ((r = op_begin(ol, pool, name, &op)))
		return r;
	r = op.pool->erasure;
	op_end(&op);
	/* an erasure pool's shards go wherever they are; a replicated
	 * pool's object needs one up OSD */
	if ((r = op_lock(ol, pool, name, &op, 1, r ? NEED_NONE : NEED_ONE,
			 "remove of")))
		return r;
	if (op.pool->erasure) {
		struct ec_call a = { EC_REMOVE, 0, 0, 0, NULL, NULL, 0,
				     NULL, NULL };

		r = (int)ec_dispatch(ol, &op, name, &a);
		return r == -ENOENT && quiet_enoent ? 0 : r;
	}
	lk = ol_objlock(ol, name);
	r = cfs_index_get(c, op.pid, name, &oi);
	if (r) {
		r = r == -ENOENT ? (quiet_enoent ? 0 : -ENOENT) : -EIO;
		goto out_nolock;
	}
	cfs_pg_lock(c, op.pid, op.ps);
	r = cfs_index_intent(c, op.pid, name, NULL);
	nh = cfs_pg_holders(c, op.pid, op.ps, h, 256);
	/* down holders keep their copy: note that it is stale, first */
	for (int i = 0; i < nh && !r; i++)
		if (!cfs_osdmap_is_up(op.m, h[i]))
			r = cfs_pg_mark_missing(c, op.pid, op.ps, h[i], name);
	for (int i = 0; i < nh && !r; i++) {
		if (!cfs_osdmap_is_up(op.m, h[i]))
			continue;
		r = cfs_obj_remove(c, h[i], op.pid, op.ps, name);
		if (!r)
			cfs_pg_clear_missing(c, op.pid, op.ps, h[i], name);
		else
			cfs_pg_mark_missing(c, op.pid, op.ps, h[i], name);
	}
	if (!r)
		r = cfs_index_set_noundo(c, op.pid, name, NULL);
	if (r && r != -ENOENT) {
		cfs_log(CFS_LOG_ERR, "pg %s: remove of '%s' failed: %s",
			op.pgid, name, cfs_strerror(r));
		r = -EIO;
	}
	cfs_pg_unlock(c, op.pid, op.ps);
out_nolock:
	pthread_rwlock_unlock(lk);
	pthread_rwlock_unlock(ol_pgio(ol, op.pid, op.ps));
	op_end(&op);
	return r;
}

/* Shrink an object to size (never grows it).  Allowed when full. */
static int obj_truncate_once(objlayer *ol, int64_t pool, const char *name,
			     uint64_t size)
{
	if (ol->rb)
		return pool != ol->pool ? -ENOENT
					: rb_truncate(ol, name, size);
	cfs_cluster *c = ol->c;
	struct objop op;
	pthread_rwlock_t *lk;
	int r = 0, nok = 0, cand[CFS_MAX_REP + 256], nc;
	int t[CFS_MAX_REP], nt, act[CFS_MAX_REP] = { 0 };
	int rec[CFS_MAX_REP] = { 0 };
	uint64_t resv[CFS_MAX_REP] = { 0 };
	struct cfs_objinfo oi, next;

	if ((r = ol_check_name(name)))
		return r;
	if ((r = op_begin(ol, pool, name, &op)))
		return r;
	r = op.pool->erasure;
	op_end(&op);
	if (r) { /* re-encodes a stripe: min_size */
		struct ec_call a = { EC_TRUNCATE, 0, 0, size, NULL, NULL,
				     0, NULL, NULL };

		return (int)ec_op(ol, pool, name, 1, NEED_MIN_SIZE,
				  "truncate of", &a);
	}
	if ((r = op_lock(ol, pool, name, &op, 1, NEED_ONE, "truncate of")))
		return r;
	nt = op.pg->nacting;
	memcpy(t, op.pg->acting, sizeof(int) * (size_t)nt);
	lk = ol_objlock(ol, name);
	r = cfs_index_get(c, op.pid, name, &oi);
	if (r || oi.size <= size) {
		/* no such object (a hole already), or nothing to cut */
		r = r == -ENOENT ? 0 : r ? -EIO : 0;
		goto out_nolock;
	}
	cfs_pg_lock(c, op.pid, op.ps);
	nc = ol_candidates(ol, &op, name, cand);
	if (nc == 0) {
		r = no_copy_up(&op, name, "truncate");
		goto out;
	}
	for (int i = 0; i < nt; i++) {
		const char *why;
		int st = OL_COPY_ABSENT;

		if (cfs_pg_is_holder(c, op.pid, op.ps, t[i]) &&
		    !cfs_pg_is_missing(c, op.pid, op.ps, t[i], name))
			st = ol_copy_check(c, t[i], op.pid, op.ps, name, &oi, 0, &why);
		else
			why = NULL;
		if (st == OL_COPY_GOOD) {
			act[i] = OL_ACT_WRITE;
			continue;
		}
		if (st < 0) {
			r = -EIO;
			goto out;
		}
		if (why)
			ol_note_damage(ol, &op, t[i], name, why, 1);
		act[i] = OL_ACT_RECOVER;
		/* a rebuilt copy is the old size until it is cut: it frees
		 * space, so only the hard limit applies */
		resv[i] = oi.size;
		r = cfs_osd_reserve(c, t[i], resv[i], UINT64_MAX);
		if (r) {
			resv[i] = 0;
			goto unreserve;
		}
	}
	next.size = size;
	/* the sources are the candidates from before the change began:
	 * ol_begin_change marks the holders outside the acting set as missing
	 * it, and one of those may hold the only current copy */
	r = ol_begin_change(ol, &op, name, t, nt, &next, NULL);
	if (r)
		goto unreserve;
	cfs_pg_unlock(c, op.pid, op.ps);
	ol_recover_first(ol, &op, name, &oi, t, act, nt, cand, nc, rec);
	for (int i = 0; i < nt; i++) {
		cfs_obj *o;
		int e = rec[i];

		cfs_osd_unreserve(c, t[i], resv[i]);
		resv[i] = 0;
		if (!e)
			e = cfs_obj_open(c, t[i], op.pid, op.ps, name, 0, &o);
		if (!e) {
			e = cfs_obj_truncate(o, size);
			if (!e)
				e = cfs_obj_commit(o, next.version);
			cfs_obj_put(o);
		}
		cfs_pg_lock(c, op.pid, op.ps);
		if (e) {
			cfs_pg_mark_missing(c, op.pid, op.ps, t[i], name);
			cfs_log(CFS_LOG_ERR,
				"pg %s: truncate of '%s' on osd.%d failed: %s",
				op.pgid, name, t[i], cfs_strerror(e));
		} else {
			cfs_pg_clear_missing(c, op.pid, op.ps, t[i], name);
			nok++;
		}
		cfs_pg_unlock(c, op.pid, op.ps);
	}
	cfs_pg_lock(c, op.pid, op.ps);
	r = cfs_index_set_noundo(c, op.pid, name, nok ? &next : &oi);
	if (!r && !nok)
		r = -EIO;
unreserve:
	for (int i = 0; i < nt; i++)
		cfs_osd_unreserve(c, t[i], resv[i]);
out:
	cfs_pg_unlock(c, op.pid, op.ps);
out_nolock:
	pthread_rwlock_unlock(lk);
	pthread_rwlock_unlock(ol_pgio(ol, op.pid, op.ps));
	op_end(&op);
	return r;
}

/* tried again while the object's current copies are on down OSDs
 * (no_copy_up) */
int obj_truncate(objlayer *ol, int64_t pool, const char *name,
		 uint64_t size)
{
	struct op_waiting w = { { 0, 0 }, 0, 0 };
	int r;

	while ((r = obj_truncate_once(ol, pool, name, size)) == -EAGAIN)
		if ((r = again(ol, &w, pool, name, "truncate of")))
			return r;
	return r;
}
