/*
 * replicate.c - replicated object I/O over the acting set, RADOS style.
 *
 * Writes go to every OSD of the PG's acting set; reads come from the
 * primary, or the next OSD holding a current copy.  The rules:
 *
 *  - min_size: a PG with fewer acting OSDs than min_size is inactive;
 *    reads and writes fail at once with -EIO and one log line naming the
 *    PG (Ceph would block; we never hang).  Deletes and truncates go on
 *    with whatever OSDs are up, so space can always be freed.
 *  - Full OSDs: before any replica is touched, the bytes the write adds
 *    are reserved on every acting OSD against full_ratio; one refusal
 *    releases the others and fails the write with -ENOSPC, so a refused
 *    write changes no replica.  Policy `pool` also refuses every write
 *    while any up+in OSD of the pool's rule is at/over full_ratio.
 *  - Copies that missed a change: an OSD holding the PG but not in the
 *    acting set (down, or the PG moved) gets the object added to its
 *    missing set before the change is made; an acting OSD whose copy is
 *    missing is brought up to date from a current copy before a partial
 *    write lands on it (Ceph's recover-before-write of degraded objects).
 *
 * Locks, always in this order: the PG's pgio (shared), the object's stripe
 * lock, then cfs_pg_lock for short state decisions (never held over data
 * I/O except where noted).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "objlayer_i.h"
#include "util.h"

static uint64_t name_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ULL;
	}
	return h;
}

pthread_rwlock_t *ol_objlock(objlayer *ol, const char *name)
{
	return &ol->objlock[name_hash(name) % OL_LOCK_STRIPES];
}

int ol_open(cfs_cluster *c, objlayer **out)
{
	objlayer *ol = calloc(1, sizeof(*ol));
	const cfs_osdmap *m;

	if (!ol)
		return -ENOMEM;
	m = cfs_osdmap_get(c);
	ol->c = c;
	ol->pg_num = cfs_osdmap_pool(m)->pg_num;
	cfs_osdmap_put(m);
	ol->pgio = calloc(ol->pg_num, sizeof(*ol->pgio));
	if (!ol->pgio) {
		free(ol);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < ol->pg_num; i++)
		pthread_rwlock_init(&ol->pgio[i], NULL);
	for (int i = 0; i < OL_LOCK_STRIPES; i++)
		pthread_rwlock_init(&ol->objlock[i], NULL);
	*out = ol;
	return 0;
}

void ol_close(objlayer *ol)
{
	if (!ol)
		return;
	for (uint32_t i = 0; i < ol->pg_num; i++)
		pthread_rwlock_destroy(&ol->pgio[i]);
	for (int i = 0; i < OL_LOCK_STRIPES; i++)
		pthread_rwlock_destroy(&ol->objlock[i]);
	free(ol->pgio);
	free(ol);
}

cfs_cluster *ol_cluster(objlayer *ol)
{
	return ol->c;
}

void ol_default_layout(objlayer *ol, struct ol_layout *l)
{
	const cfs_osdmap *m = cfs_osdmap_get(ol->c);
	const struct cfs_pool_info *p = cfs_osdmap_pool(m);

	l->stripe_unit = p->stripe_unit;
	l->stripe_count = p->stripe_count;
	l->object_size = p->object_size;
	l->pool = p->id;
	cfs_osdmap_put(m);
}

/* ---- PG state helpers ---- */

static int in_set(const int *v, int n, int x)
{
	for (int i = 0; i < n; i++)
		if (v[i] == x)
			return 1;
	return 0;
}

int ol_pick_source(objlayer *ol, const cfs_osdmap *m,
		   const struct cfs_pg_mapping *pg, const char *name,
		   int *nholders)
{
	int h[256], nh = cfs_pg_holders(ol->c, pg->ps, h, 256);

	if (nholders)
		*nholders = nh;
	for (int i = 0; i < pg->nacting; i++) {
		int a = pg->acting[i];

		if (cfs_pg_is_holder(ol->c, pg->ps, a) &&
		    !cfs_pg_is_missing(ol->c, pg->ps, a, name))
			return a;
	}
	for (int i = 0; i < nh; i++)
		if (cfs_osdmap_is_up(m, h[i]) &&
		    !in_set(pg->acting, pg->nacting, h[i]) &&
		    !cfs_pg_is_missing(ol->c, pg->ps, h[i], name))
			return h[i];
	return -1;
}

static int add_missing(const char *name, void *arg)
{
	ol_names_add(arg, name);
	return 0;
}

int ol_pg_all_names(objlayer *ol, uint32_t ps, char ***names, size_t *n)
{
	int h[256], nh = cfs_pg_holders(ol->c, ps, h, 256);
	struct ol_names a = { 0 };

	/* The PG's log knows every object; our stand-in is the union of
	 * the holders' folders (down ones too) and their missing sets.  A
	 * name too many only costs a look at the source. */
	for (int i = 0; i < nh && !a.err; i++) {
		struct cfs_obj_entry *e;
		size_t ne;
		int r = cfs_pg_list(ol->c, h[i], ps, &e, &ne);

		if (r) {
			ol_names_free(a.v, a.n);
			return r;
		}
		for (size_t k = 0; k < ne; k++)
			ol_names_add(&a, e[k].name);
		cfs_obj_entries_free(e, ne);
		cfs_pg_missing_foreach(ol->c, ps, h[i], add_missing, &a);
	}
	if (a.err) {
		ol_names_free(a.v, a.n);
		return a.err;
	}
	ol_names_sort_unique(&a);
	*names = a.v;
	*n = a.n;
	return 0;
}

int ol_ensure_holder(objlayer *ol, uint32_t ps, int t)
{
	char **names = NULL;
	size_t n = 0;
	int r, nh, h[256];

	if (cfs_pg_is_holder(ol->c, ps, t))
		return 0;
	nh = cfs_pg_holders(ol->c, ps, h, 256);
	if (nh == 0) /* a new PG: empty is complete */
		return cfs_pg_add_holder(ol->c, ps, t, NULL, 0);
	r = ol_pg_all_names(ol, ps, &names, &n);
	if (r)
		return r;
	r = cfs_pg_add_holder(ol->c, ps, t, names, n);
	ol_names_free(names, n);
	return r;
}

/* ---- one object ---- */

struct objop {
	const cfs_osdmap *m;
	const struct cfs_pool_info *pool;
	const struct cfs_pg_mapping *pg;
	uint32_t ps;
	char pgid[32];
};

static void op_begin(objlayer *ol, const char *name, struct objop *op)
{
	op->m = cfs_osdmap_get(ol->c);
	op->pool = cfs_osdmap_pool(op->m);
	cfs_object_to_pg(op->m, name, NULL, &op->ps);
	op->pg = cfs_osdmap_pg(op->m, op->ps);
	cfs_pgid_str(op->m, op->ps, op->pgid, sizeof(op->pgid));
}

static void op_end(struct objop *op)
{
	cfs_osdmap_put(op->m);
}

static int check_name(const char *name)
{
	size_t n = name ? strlen(name) : 0;

	if (n == 0)
		return -EINVAL;
	if (n > 200)
		return -ENAMETOOLONG;
	return 0;
}

/* Size of the object on osd, 0 if absent. */
static uint64_t size_on(cfs_cluster *c, int osd, uint32_t ps, const char *name,
			int *exists)
{
	cfs_obj *o;
	uint64_t s;

	if (cfs_obj_open(c, osd, ps, name, 0, &o)) {
		if (exists)
			*exists = 0;
		return 0;
	}
	s = cfs_obj_size(o);
	cfs_obj_put(o);
	if (exists)
		*exists = 1;
	return s;
}

/*
 * Write len bytes at off of object `name` (with F_FULL: make the object
 * exactly buf).  0 or -errno; nothing is changed on -ENOSPC.
 */
int obj_write(objlayer *ol, const char *name, uint64_t off,
		     const void *buf, size_t len, int flags)
{
	cfs_cluster *c = ol->c;
	struct objop op;
	pthread_rwlock_t *ol_lock;
	int t[CFS_MAX_REP], nt, recover[CFS_MAX_REP] = { 0 };
	int failed[CFS_MAX_REP] = { 0 };
	uint64_t resv[CFS_MAX_REP] = { 0 };
	int h[256], nh, src = -1, src_has = 0, r = 0, fo;
	uint64_t src_size = 0;
	int full = flags & F_FULL;

	if ((r = check_name(name)))
		return r;
	if (off + len < off || off + len > OL_MAX_OBJECT_SIZE)
		return -EFBIG;
	op_begin(ol, name, &op);
	nt = op.pg->nacting;
	if (nt < op.pool->min_size) {
		cfs_log(CFS_LOG_ERR,
			"pg %s is inactive: %d OSD(s) up in its acting set, "
			"min_size %d; write to '%s' refused",
			op.pgid, nt, op.pool->min_size, name);
		op_end(&op);
		return -EIO;
	}
	memcpy(t, op.pg->acting, sizeof(int) * (size_t)nt);
	ol_lock = ol_objlock(ol, name);
	pthread_rwlock_rdlock(&ol->pgio[op.ps]);
	pthread_rwlock_wrlock(ol_lock);

	cfs_pg_lock(c, op.ps);
	if (cfs_osdmap_full_policy(op.m) == CFS_FULL_POOL &&
	    cfs_pool_is_full(c, op.m, &fo)) {
		cfs_log(CFS_LOG_INFO,
			"pool '%s' is full (osd.%d); write to '%s' refused",
			op.pool->name, fo, name);
		r = -ENOSPC;
		goto unlock_state;
	}
	src = ol_pick_source(ol, op.m, op.pg, name, &nh);
	if (src >= 0)
		src_size = size_on(c, src, op.ps, name, &src_has);
	for (int i = 0; i < nt; i++) {
		int holder = cfs_pg_is_holder(c, op.ps, t[i]);

		/* a target that needs an old copy brought up to date first */
		recover[i] = !full &&
			     ((holder && cfs_pg_is_missing(c, op.ps, t[i], name)) ||
			      (!holder && nh > 0));
		if (recover[i] && src < 0) {
			cfs_log(CFS_LOG_ERR,
				"pg %s: no up OSD has a current copy of '%s'; "
				"write refused",
				op.pgid, name);
			r = -EIO;
			goto unlock_state;
		}
	}
	/* space on every replica first: a refused write changes nothing */
	for (int i = 0; i < nt; i++) {
		uint64_t cur = t[i] == src ? src_size
					   : size_on(c, t[i], op.ps, name, NULL);
		uint64_t base, fin;

		base = recover[i] ? (src_has ? src_size : 0) : cur;
		fin = full ? len : (off + len > base ? off + len : base);
		resv[i] = fin > cur ? fin - cur : 0;
		r = cfs_osd_reserve(c, t[i], resv[i],
				    cfs_osdmap_full_limit(op.m, t[i]));
		if (r) {
			cfs_log(CFS_LOG_INFO,
				"pg %s: osd.%d is full; write to '%s' refused",
				op.pgid, t[i], name);
			for (int k = 0; k < i; k++)
				cfs_osd_unreserve(c, t[k], resv[k]);
			memset(resv, 0, sizeof(resv));
			goto unlock_state;
		}
	}
	/* holders outside the acting set miss this write: note it first */
	nh = cfs_pg_holders(c, op.ps, h, 256);
	for (int i = 0; i < nh && !r; i++)
		if (!in_set(t, nt, h[i]))
			r = cfs_pg_mark_missing(c, op.ps, h[i], name);
	for (int i = 0; i < nt && !r; i++)
		r = ol_ensure_holder(ol, op.ps, t[i]);
	if (r)
		goto unreserve_state;
	cfs_pg_unlock(c, op.ps);

	/* the data */
	for (int i = 0; i < nt; i++) {
		cfs_obj *o;
		int e = 0;

		if (recover[i]) {
			if (src_has)
				e = cfs_obj_copy(c, src, t[i], op.ps, name,
						 NULL);
			else
				e = cfs_obj_remove(c, t[i], op.ps, name);
		}
		if (!e)
			e = cfs_obj_open(c, t[i], op.ps, name, CFS_OBJ_CREATE,
					 &o);
		if (!e) {
			if (len)
				e = cfs_obj_pwrite(o, buf, len, off);
			if (!e && full && cfs_obj_size(o) != len)
				e = cfs_obj_truncate(o, len);
			cfs_obj_put(o);
		}
		if (e) {
			failed[i] = 1;
			if (!r)
				r = e;
		}
	}
	for (int i = 0; i < nt; i++)
		cfs_osd_unreserve(c, t[i], resv[i]);

	cfs_pg_lock(c, op.ps);
	for (int i = 0; i < nt; i++) {
		if (failed[i]) {
			/* this copy is in an unknown state now */
			cfs_pg_mark_missing(c, op.ps, t[i], name);
			cfs_log(CFS_LOG_ERR,
				"pg %s: write of '%s' on osd.%d failed: %s",
				op.pgid, name, t[i], cfs_strerror(r));
		} else {
			cfs_pg_clear_missing(c, op.ps, t[i], name);
		}
	}
	if (r && r != -ENOSPC && r != -EDQUOT)
		r = -EIO;
	goto unlock_state;

unreserve_state:
	for (int i = 0; i < nt; i++)
		cfs_osd_unreserve(c, t[i], resv[i]);
unlock_state:
	cfs_pg_unlock(c, op.ps);
	pthread_rwlock_unlock(ol_lock);
	pthread_rwlock_unlock(&ol->pgio[op.ps]);
	op_end(&op);
	return r;
}

/*
 * Read up to len bytes at off of object `name`.  Returns bytes read (short
 * at the object's end), -ENOENT if the object does not exist; *size gets
 * the object's size.
 */
ssize_t obj_read(objlayer *ol, const char *name, uint64_t off, void *buf,
		 size_t len, uint64_t *size, struct timespec *mtime)
{
	cfs_cluster *c = ol->c;
	struct objop op;
	pthread_rwlock_t *lk;
	int cand[CFS_MAX_REP + 256], nc = 0, nh, h[256];
	ssize_t r = -EIO;

	if ((r = check_name(name)))
		return r;
	op_begin(ol, name, &op);
	if (op.pg->nacting < op.pool->min_size) {
		cfs_log(CFS_LOG_ERR,
			"pg %s is inactive: %d OSD(s) up in its acting set, "
			"min_size %d; read of '%s' refused",
			op.pgid, op.pg->nacting, op.pool->min_size, name);
		op_end(&op);
		return -EIO;
	}
	lk = ol_objlock(ol, name);
	pthread_rwlock_rdlock(&ol->pgio[op.ps]);
	pthread_rwlock_rdlock(lk);

	cfs_pg_lock(c, op.ps);
	nh = cfs_pg_holders(c, op.ps, h, 256);
	/* the primary first, then the other replicas, then old holders */
	for (int i = 0; i < op.pg->nacting; i++) {
		int a = op.pg->acting[i];

		if (cfs_pg_is_holder(c, op.ps, a) &&
		    !cfs_pg_is_missing(c, op.ps, a, name))
			cand[nc++] = a;
	}
	for (int i = 0; i < nh; i++)
		if (cfs_osdmap_is_up(op.m, h[i]) &&
		    !in_set(op.pg->acting, op.pg->nacting, h[i]) &&
		    !cfs_pg_is_missing(c, op.ps, h[i], name))
			cand[nc++] = h[i];
	cfs_pg_unlock(c, op.ps);

	if (nh == 0) {
		r = -ENOENT; /* the PG never held anything */
	} else if (nc == 0) {
		cfs_log(CFS_LOG_ERR,
			"pg %s: no up OSD has a current copy of '%s'; read "
			"refused",
			op.pgid, name);
		r = -EIO;
	}
	for (int i = 0; i < nc; i++) {
		cfs_obj *o;
		int e = cfs_obj_open(c, cand[i], op.ps, name, 0, &o);

		if (e == -ENOENT) {
			r = -ENOENT; /* a current copy says: no such object */
			break;
		}
		if (e) {
			r = e;
			continue;
		}
		if (size)
			*size = cfs_obj_size(o);
		if (mtime)
			cfs_obj_mtime(o, mtime);
		r = len ? cfs_obj_pread(o, buf, len, off) : 0;
		cfs_obj_put(o);
		if (r >= 0)
			break;
		cfs_log(CFS_LOG_WARN, "pg %s: read of '%s' on osd.%d failed: %s",
			op.pgid, name, cand[i], cfs_strerror((int)r));
	}
	pthread_rwlock_unlock(lk);
	pthread_rwlock_unlock(&ol->pgio[op.ps]);
	op_end(&op);
	if (r < 0 && r != -ENOENT && r != -EIO)
		r = -EIO;
	return r;
}

/* Delete an object everywhere it can be reached.  -ENOENT if it does not
 * exist.  Allowed when full and below min_size (one up OSD suffices). */
int obj_remove(objlayer *ol, const char *name, int quiet_enoent)
{
	cfs_cluster *c = ol->c;
	struct objop op;
	pthread_rwlock_t *lk;
	int h[256], nh, src, exists = 1, r = 0;

	if ((r = check_name(name)))
		return r;
	op_begin(ol, name, &op);
	if (op.pg->nacting == 0) {
		cfs_log(CFS_LOG_ERR,
			"pg %s has no OSD up; remove of '%s' refused",
			op.pgid, name);
		op_end(&op);
		return -EIO;
	}
	lk = ol_objlock(ol, name);
	pthread_rwlock_rdlock(&ol->pgio[op.ps]);
	pthread_rwlock_wrlock(lk);
	cfs_pg_lock(c, op.ps);
	src = ol_pick_source(ol, op.m, op.pg, name, &nh);
	if (nh == 0)
		exists = 0;
	else if (src >= 0)
		size_on(c, src, op.ps, name, &exists);
	if (!exists) {
		r = quiet_enoent ? 0 : -ENOENT;
		goto out;
	}
	nh = cfs_pg_holders(c, op.ps, h, 256);
	/* down holders keep their copy: note that it is stale, first */
	for (int i = 0; i < nh && !r; i++)
		if (!cfs_osdmap_is_up(op.m, h[i]))
			r = cfs_pg_mark_missing(c, op.ps, h[i], name);
	for (int i = 0; i < nh && !r; i++) {
		if (!cfs_osdmap_is_up(op.m, h[i]))
			continue;
		r = cfs_obj_remove(c, h[i], op.ps, name);
		if (!r)
			cfs_pg_clear_missing(c, op.ps, h[i], name);
		else
			cfs_pg_mark_missing(c, op.ps, h[i], name);
	}
	if (r && r != -ENOENT) {
		cfs_log(CFS_LOG_ERR, "pg %s: remove of '%s' failed: %s",
			op.pgid, name, cfs_strerror(r));
		r = -EIO;
	}
out:
	cfs_pg_unlock(c, op.ps);
	pthread_rwlock_unlock(lk);
	pthread_rwlock_unlock(&ol->pgio[op.ps]);
	op_end(&op);
	return r;
}

/* Shrink an object to size (never grows it).  Allowed when full. */
int obj_truncate(objlayer *ol, const char *name, uint64_t size)
{
	cfs_cluster *c = ol->c;
	struct objop op;
	pthread_rwlock_t *lk;
	int h[256], nh, src, src_has = 0, r = 0;
	int t[CFS_MAX_REP], nt, recover[CFS_MAX_REP] = { 0 };
	uint64_t resv[CFS_MAX_REP] = { 0 };

	if ((r = check_name(name)))
		return r;
	op_begin(ol, name, &op);
	nt = op.pg->nacting;
	if (nt == 0) {
		cfs_log(CFS_LOG_ERR,
			"pg %s has no OSD up; truncate of '%s' refused",
			op.pgid, name);
		op_end(&op);
		return -EIO;
	}
	memcpy(t, op.pg->acting, sizeof(int) * (size_t)nt);
	lk = ol_objlock(ol, name);
	pthread_rwlock_rdlock(&ol->pgio[op.ps]);
	pthread_rwlock_wrlock(lk);
	cfs_pg_lock(c, op.ps);
	src = ol_pick_source(ol, op.m, op.pg, name, &nh);
	if (nh == 0)
		goto out; /* nothing there */
	if (src < 0) {
		cfs_log(CFS_LOG_ERR,
			"pg %s: no up OSD has a current copy of '%s'; truncate "
			"refused",
			op.pgid, name);
		r = -EIO;
		goto out;
	}
	size_on(c, src, op.ps, name, &src_has);
	if (!src_has)
		goto out; /* no such object: a hole already */
	for (int i = 0; i < nt; i++) {
		int holder = cfs_pg_is_holder(c, op.ps, t[i]);

		recover[i] = (holder && cfs_pg_is_missing(c, op.ps, t[i], name)) ||
			     !holder;
	}
	/* a recovered copy is the truncated size at most: reserve that
	 * (truncate frees space, so no full check beyond the hard limit) */
	for (int i = 0; i < nt; i++) {
		uint64_t cur = size_on(c, t[i], op.ps, name, NULL);
		uint64_t s = size_on(c, src, op.ps, name, NULL);

		if (s > size)
			s = size;
		if (recover[i] && s > cur) {
			resv[i] = s - cur;
			r = cfs_osd_reserve(c, t[i], resv[i], UINT64_MAX);
			if (r) {
				resv[i] = 0;
				goto unreserve;
			}
		}
	}
	nh = cfs_pg_holders(c, op.ps, h, 256);
	for (int i = 0; i < nh && !r; i++) {
		if (in_set(t, nt, h[i]))
			continue;
		/* an up old holder with a current copy is trimmed too (it
		 * stays current and frees space); others miss the change */
		if (cfs_osdmap_is_up(op.m, h[i]) &&
		    !cfs_pg_is_missing(c, op.ps, h[i], name)) {
			cfs_obj *o;

			if (cfs_obj_open(c, h[i], op.ps, name, 0, &o) == 0) {
				if (cfs_obj_size(o) > size &&
				    cfs_obj_truncate(o, size))
					r = cfs_pg_mark_missing(c, op.ps, h[i],
								name);
				cfs_obj_put(o);
			}
		} else {
			r = cfs_pg_mark_missing(c, op.ps, h[i], name);
		}
	}
	for (int i = 0; i < nt && !r; i++)
		r = ol_ensure_holder(ol, op.ps, t[i]);
	for (int i = 0; i < nt && !r; i++) {
		cfs_obj *o;
		int e = 0;

		if (recover[i])
			e = cfs_obj_copy(c, src, t[i], op.ps, name, NULL);
		if (!e)
			e = cfs_obj_open(c, t[i], op.ps, name, CFS_OBJ_CREATE,
					 &o);
		if (!e) {
			if (cfs_obj_size(o) > size)
				e = cfs_obj_truncate(o, size);
			cfs_obj_put(o);
		}
		if (e) {
			cfs_pg_mark_missing(c, op.ps, t[i], name);
			r = e;
		} else {
			cfs_pg_clear_missing(c, op.ps, t[i], name);
		}
	}
	if (r) {
		cfs_log(CFS_LOG_ERR, "pg %s: truncate of '%s' failed: %s",
			op.pgid, name, cfs_strerror(r));
		r = -EIO;
	}
unreserve:
	for (int i = 0; i < nt; i++)
		cfs_osd_unreserve(c, t[i], resv[i]);
out:
	cfs_pg_unlock(c, op.ps);
	pthread_rwlock_unlock(lk);
	pthread_rwlock_unlock(&ol->pgio[op.ps]);
	op_end(&op);
	return r;
}

int obj_sync(objlayer *ol, const char *name)
{
	cfs_cluster *c = ol->c;
	struct objop op;
	int r = 0;

	op_begin(ol, name, &op);
	for (int i = 0; i < op.pg->nacting; i++) {
		cfs_obj *o;

		if (cfs_obj_open(c, op.pg->acting[i], op.ps, name, 0, &o))
			continue;
		if (!r)
			r = cfs_obj_sync(o);
		cfs_obj_put(o);
	}
	op_end(&op);
	return r ? -EIO : 0;
}

