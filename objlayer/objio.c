/*
 * objio.c - one object's I/O over its PG's acting set: write, read,
 * truncate, remove, sync.
 *
 * What makes a copy good: the object index (osdsim objindex.c) names the
 * object's current version and size; a copy is good when its checksum
 * record names that version, its size matches and (on every read) the
 * bytes returned match their crc32c.  A copy that is absent, stale or
 * rotten is never returned: the read goes to the next good copy, the bad
 * one is marked damaged (logged with PG, object and OSD; health shows it
 * as Ceph's OSD_SCRUB_ERRORS / PG_DAMAGED) and rebuilt from a good copy
 * at once when it belongs to the acting set.  An object the index does
 * not know is a hole, whatever files say: zeros only come from holes.
 *
 * A change: (1) decide per acting OSD whether its copy can take the change
 * in place, must first be rebuilt from a good copy, or starts fresh;
 * (2) reserve space on all of them (a refusal changes nothing); (3) write
 * the intent (new version and size) to the index; (4) change the copies,
 * each one's data before its record; (5) record the new version and drop
 * the intent in one batch.  A crash anywhere leaves copies that each
 * verify as the old or the new version (or not at all), and the intent
 * says which object to settle at the next open (settle.c): the newest
 * version that verifies wins, as Ceph's peering takes the newest log.
 *
 * min_size: a PG with fewer acting OSDs than min_size is inactive.  Reads
 * and writes to it wait, as a Ceph client's ops wait (the Objecter resends
 * them on each new osdmap), until an epoch makes the PG active again, or
 * until rados_osd_op_timeout (then -ETIMEDOUT); the waiting ops show as
 * SLOW_OPS.  Only a mounted daemon waits (ol_set_wait): a lone CLI process
 * would wait for a map nobody can change, so it fails at once with -EIO.
 * Deletes and truncates go on with whatever OSDs are up (one suffices), so
 * space can always be freed.
 *
 * When an op may run, and its waiting, is opgate.c's.  Locks, always in
 * this order: the PG's pgio (shared), the object's stripe lock, then
 * cfs_pg_lock for short state decisions.  The acting set an op
 * uses is read from the map current once pgio is held (op_lock): rebalance
 * empties the OSDs a PG left under pgio exclusive, after the acting sets
 * have moved, so an op can never write to an OSD being emptied.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cluster.h"
#include "objindex.h"
#include "objlayer_i.h"
#include "objstore.h"
#include "opgate.h"
#include "osdmap.h"
#include "pgstate.h"
#include "placement.h"
#include "usage.h"
#include "util.h"

static int check_name(const char *name)
{
	size_t n = name ? strlen(name) : 0;

	if (n == 0)
		return -EINVAL;
	if (n > 200)
		return -ENAMETOOLONG;
	return 0;
}

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

int ol_copy_check(cfs_cluster *c, int osd, int64_t pool, uint32_t ps,
		  const char *name, const struct cfs_objinfo *oi, int deep,
		  const char **why)
{
	cfs_obj *o;
	uint64_t v;
	int r = cfs_obj_open(c, osd, pool, ps, name,
			     deep & OL_COPY_PATH ? CFS_OBJ_VERIFY : 0, &o);

	*why = NULL;
	if (r == -ENOENT) {
		*why = ol_why_absent;
		return OL_COPY_ABSENT;
	}
	if (r)
		return r;
	r = cfs_obj_version(o, &v);
	if (r == -EBADMSG) {
		*why = "checksum record missing or damaged";
		r = OL_COPY_BAD;
	} else if (!r && v != oi->version) {
		*why = v < oi->version ? "copy is stale (older version)"
				       : "copy has an unknown newer version";
		r = OL_COPY_BAD;
	} else if (!r && cfs_obj_size(o) != oi->size) {
		*why = "copy has the wrong size";
		r = OL_COPY_BAD;
	} else if (!r && (deep & 1)) {
		r = cfs_obj_verify(o);
		if (r == -EBADMSG) {
			*why = "data does not match its checksums";
			r = OL_COPY_BAD;
		}
	}
	cfs_obj_put(o);
	return r ? r : OL_COPY_GOOD;
}

const char ol_why_absent[] = "copy is missing";

void ol_note_damage(objlayer *ol, const struct objop *op, int osd,
		    const char *name, const char *why, int pg_locked)
{
	struct cfs_objinfo oi;
	int r;

	if (!pg_locked)
		cfs_pg_lock(ol->c, op->pid, op->ps);
	/* a copy the PG state counts as there (a holder, not missing it)
	 * whose file is gone went behind the store's back: the store stops
	 * counting it before it is marked (as scrub does), or its rebuild
	 * would be counted twice */
	if (why == ol_why_absent &&
	    cfs_pg_is_holder(ol->c, op->pid, op->ps, osd) &&
	    !cfs_pg_is_missing(ol->c, op->pid, op->ps, osd, name) &&
	    !cfs_index_get(ol->c, op->pid, name, &oi))
		cfs_obj_vanished(ol->c, osd, op->pid, op->ps, name, oi.size);
	r = cfs_pg_mark_damaged(ol->c, op->pid, op->ps, osd, name);
	if (!pg_locked)
		cfs_pg_unlock(ol->c, op->pid, op->ps);
	cfs_log(CFS_LOG_ERR, "pg %s: object '%s' on osd.%d: %s%s%s%s",
		op->pgid, name, osd, why,
		!r ? "; copy not used, marked for repair"
		: cfs_cluster_rdonly(ol->c)
			? "; copy not used (read-only: run 'crushfs pg repair "
			: "; copy not used (cannot record it: run 'crushfs pg "
			  "repair ",
		r ? op->pgid : "", r ? "')" : "");
}

/* The OSDs that may hold a current copy, best first: acting (primary
 * first) then up holders outside it; none in its missing set.  Needs
 * cfs_pg_lock.  Returns the count. */
static int candidates(objlayer *ol, const struct objop *op, const char *name,
		      int *cand, int *nholders)
{
	int h[256], nh = cfs_pg_holders(ol->c, op->pid, op->ps, h, 256), nc = 0;

	if (nholders)
		*nholders = nh;
	for (int i = 0; i < op->pg->nacting; i++) {
		int a = op->pg->acting[i];

		if (cfs_pg_is_holder(ol->c, op->pid, op->ps, a) &&
		    !cfs_pg_is_missing(ol->c, op->pid, op->ps, a, name))
			cand[nc++] = a;
	}
	for (int i = 0; i < nh; i++)
		if (cfs_osdmap_is_up(op->m, h[i]) &&
		    !cfs_in_set(op->pg->acting, op->pg->nacting, h[i]) &&
		    !cfs_pg_is_missing(ol->c, op->pid, op->ps, h[i], name))
			cand[nc++] = h[i];
	return nc;
}

int ol_candidates(objlayer *ol, const struct objop *op, const char *name,
		  int *cand)
{
	return candidates(ol, op, name, cand, NULL);
}

/*
 * Make dst's copy a good one, copied from the first candidate that
 * verifies (each source is checked against the index and, while copying,
 * against its checksums, so a bad copy never spreads).  Sources found bad
 * are marked damaged.  Called with the object's lock held exclusively,
 * without cfs_pg_lock.
 */
int ol_recover_copy(objlayer *ol, const struct objop *op, const char *name,
		    const struct cfs_objinfo *oi, int dst, const int *cand,
		    int nc)
{
	int r = -EIO;

	for (int i = 0; i < nc; i++) {
		const char *why;
		int st;

		if (cand[i] == dst)
			continue;
		st = ol_copy_check(ol->c, cand[i], op->pid, op->ps, name, oi, 0, &why);
		if (st == OL_COPY_ABSENT || st == OL_COPY_BAD) {
			ol_note_damage(ol, op, cand[i], name, why, 0);
			continue;
		}
		if (st < 0) {
			r = st;
			continue;
		}
		r = cfs_obj_copy(ol->c, cand[i], dst, op->pid, op->ps, name, NULL);
		if (r == -EBADMSG) {
			ol_note_damage(ol, op, cand[i], name,
				       "data does not match its checksums", 0);
			continue;
		}
		if (r == 0 || r == -ENOSPC)
			return r;
	}
	if (r == -EBADMSG)
		r = -EIO;
	return r;
}

/*
 * The start of a change to the acting set t (cfs_pg_lock held): holders
 * outside it miss the change (noted first), every target becomes a
 * holder, and the intent with a new version goes to the index before any
 * copy is touched.  next->size is set by the caller; next->version here.
 */
static int begin_change(objlayer *ol, const struct objop *op,
			const char *name, const int *t, int nt,
			struct cfs_objinfo *next)
{
	int h[256], nh = cfs_pg_holders(ol->c, op->pid, op->ps, h, 256), r = 0;

	for (int i = 0; i < nh && !r; i++)
		if (!cfs_in_set(t, nt, h[i]))
			r = cfs_pg_mark_missing(ol->c, op->pid, op->ps, h[i], name);
	for (int i = 0; i < nt && !r; i++)
		r = ol_ensure_holder(ol, op->pid, op->ps, t[i]);
	if (!r)
		next->version = cfs_index_next_version(ol->c, &r);
	if (!r)
		r = cfs_index_intent(ol->c, op->pid, name, next);
	return r;
}

enum { ACT_WRITE, ACT_RECOVER, ACT_FRESH };

/*
 * Rebuild the copies that need it before any copy changes: a source the
 * change already touched holds the new version, which the index does not
 * name yet, and would be taken for a damaged copy.  rec[i] gets each
 * rebuild's result (0 for copies that needed none).
 */
static void recover_first(objlayer *ol, const struct objop *op,
			  const char *name, const struct cfs_objinfo *oi,
			  const int *t, const int *act, int nt, const int *cand,
			  int nc, int *rec)
{
	for (int i = 0; i < nt; i++)
		if (act[i] == ACT_RECOVER)
			rec[i] = ol_recover_copy(ol, op, name, oi, t[i], cand,
						 nc);
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

		if (j->act[i] == ACT_FRESH &&
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

	if ((r = check_name(name)))
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

	r = cfs_index_get(c, op.pid, name, &oi);
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
			act[i] = ACT_FRESH; /* a leftover file is no data */
			continue;
		}
		if (!holder || cfs_pg_is_missing(c, op.pid, op.ps, t[i], name)) {
			act[i] = ACT_RECOVER;
			continue;
		}
		st = ol_copy_check(c, t[i], op.pid, op.ps, name, &oi, 0, &why);
		if (st == OL_COPY_GOOD) {
			act[i] = ACT_WRITE;
		} else if (st == OL_COPY_ABSENT || st == OL_COPY_BAD) {
			ol_note_damage(ol, &op, t[i], name, why, 1);
			act[i] = ACT_RECOVER;
		} else {
			r = -EIO;
			goto unlock_state;
		}
	}
	nc = candidates(ol, &op, name, cand, NULL);
	for (int i = 0; i < nt; i++)
		if (act[i] == ACT_RECOVER && nc == 0) {
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
	r = begin_change(ol, &op, name, t, nt, &next);
	if (r)
		goto unreserve_state;
	cfs_pg_unlock(c, op.pid, op.ps);

	recover_first(ol, &op, name, &oi, t, act, nt, cand, nc, rec);
	/* the data, then each copy's record: every copy at once */
	{
		struct copy_job j = { c, t, op.pid, op.ps, name, act, rec,
				      resv, buf,
				      len, off, next.size, next.version, 0,
				      { 0 } };

		/*
		 * Replicas of a big write go around the page cache
		 * (cfs_obj_pwrite_direct), from one aligned copy of the
		 * data (FUSE's lies 80 bytes into a page): a buffered write
		 * copies the bytes once per replica into fresh page-cache
		 * pages, and on a 2-core machine those copies, not the
		 * disk, set a size-3 write's pace (65% of the daemon's CPU;
		 * docs/performance.md).  A single copy stays buffered: it
		 * is one copy either way, and the page cache lets the write
		 * return before the disk has it; its writeback starts at
		 * once (cfs_obj_pwrite_wb) so that the closing fsync does
		 * not write it all while the caller waits.
		 */
		if (nt > 1 && len >= OL_PARALLEL_MIN &&
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
		int e = cfs_index_set(c, op.pid, name,
				      nok ? &next : exists ? &oi : NULL);

		if (e && !r)
			r = e;
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
	return r;
}

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
 * the next read-write open settles it (settle.c) the same way.
 */
static int unsettled(cfs_cluster *c, int64_t pool, const char *name,
		     uint64_t v)
{
	struct cfs_objinfo next;
	int op;

	return cfs_index_get_intent(c, pool, name, &next, &op) == 0 &&
	       op == CFS_INTENT_WRITE && next.version == v;
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
	int cand[CFS_MAX_REP + 256], nc, bad_acting = 0;
	struct cfs_objinfo oi;
	ssize_t r;

	if ((r = check_name(name)))
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
	if (r) {
		if (r != -ENOENT)
			r = -EIO;
		goto out; /* -ENOENT: a hole */
	}
	cfs_pg_lock(c, op.pid, op.ps);
	nc = candidates(ol, &op, name, cand, NULL);
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
			if (!e && v > oi.version && unsettled(c, op.pid, name, v))
				oi_copy_newer(&oi, o, v);
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

	if ((r = check_name(name)))
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
		r = cfs_index_set(c, op.pid, name, NULL);
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

	if ((r = check_name(name)))
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
	nc = candidates(ol, &op, name, cand, NULL);
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
			act[i] = ACT_WRITE;
			continue;
		}
		if (st < 0) {
			r = -EIO;
			goto out;
		}
		if (why)
			ol_note_damage(ol, &op, t[i], name, why, 1);
		act[i] = ACT_RECOVER;
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
	 * begin_change marks the holders outside the acting set as missing
	 * it, and one of those may hold the only current copy */
	r = begin_change(ol, &op, name, t, nt, &next);
	if (r)
		goto unreserve;
	cfs_pg_unlock(c, op.pid, op.ps);
	recover_first(ol, &op, name, &oi, t, act, nt, cand, nc, rec);
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
	r = cfs_index_set(c, op.pid, name, nok ? &next : &oi);
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

/* The three above, tried again while the object's current copies are on
 * down OSDs (no_copy_up). */
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
