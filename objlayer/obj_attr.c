/*
 * obj_attr.c - object attributes over the acting set (objlayer.h
 * ol_obj_setattr/getattr): RADOS's setxattr/getxattr on an object, which
 * CephFS uses for the "parent" backtrace of a file's first object.
 *
 * A set goes to the copy on every acting OSD, creating the object with 0
 * bytes where it does not exist yet (as the MDS's backtrace write creates
 * object 0 of an empty file); a get reads the first current copy that has
 * the attribute, in the order reads use (primary, replicas, then older
 * holders).  Copies made later by recovery or rebalance carry the
 * attributes with them (objstore.h cfs_obj_copy).
 */
#include <errno.h>
#include <stdlib.h>

#include "objlayer_i.h"
#include "opgate.h"
#include "objstore.h"
#include "osdmap.h"
#include "pgstate.h"
#include "util.h"

static int has_copy(objlayer *ol, int64_t pool, const char *name)
{
	uint64_t size;
	int r = ol_obj_stat(ol, pool, name, &size);

	return r == 0 ? 1 : r == -ENOENT ? 0 : r;
}

/* The object's PG in m: -ENOENT when the pool is gone. */
static int pg_of(const cfs_osdmap *m, int64_t pool, const char *name,
		 uint32_t *ps, const struct cfs_pg_mapping **pg)
{
	if (cfs_pool_object_to_pg(m, pool, name, NULL, ps) ||
	    !(*pg = cfs_osdmap_pool_pg(m, pool, *ps)))
		return -ENOENT;
	return 0;
}

static int obj_setattr(objlayer *ol, int64_t pool, const char *name,
		       const char *key, const void *val, size_t len)
{
	if (ol->rb)
		return pool != ol->pool ? -ENOENT
					: rb_setattr(ol, name, key, val, len);
	const cfs_osdmap *m;
	const struct cfs_pg_mapping *pg;
	pthread_rwlock_t *lk;
	uint32_t ps;
	int r = has_copy(ol, pool, name), done = 0, first = 0;

	if (r < 0)
		return r;
	/* a 0-byte write makes the object on the whole acting set, with
	 * the write path's rules (min_size, holders, full OSDs) */
	if (r == 0 && (r = ol_obj_write(ol, pool, name, 0, NULL, 0)) != 0)
		return r;
	r = 0;
	m = cfs_osdmap_get(ol->c);
	if (pg_of(m, pool, name, &ps, &pg)) {
		cfs_osdmap_put(m);
		return -ENOENT;
	}
	lk = ol_objlock(ol, name);
	pthread_rwlock_rdlock(ol_pgio(ol, pool, ps));
	pthread_rwlock_wrlock(lk);
	/* the acting set as it stands once the PG is held (a rebalance
	 * purges the OSDs a PG left under its pgio exclusive) */
	cfs_osdmap_put(m);
	m = cfs_osdmap_get(ol->c);
	if (pg_of(m, pool, name, &ps, &pg)) {
		r = -ENOENT;
		goto out;
	}
	/* holders outside the acting set (a backfill target, a stray) miss
	 * the change: noted first, so that no copy without the attribute is
	 * taken for current when the acting set moves (a backtrace would be
	 * lost with the stray that had it) */
	cfs_pg_lock(ol->c, pool, ps);
	{
		int h[256], nh = cfs_pg_holders(ol->c, pool, ps, h, 256);

		for (int i = 0; i < nh && !r; i++)
			if (!cfs_in_set(pg->acting, pg->nacting, h[i]))
				r = cfs_pg_mark_missing(ol->c, pool, ps, h[i],
							name);
	}
	cfs_pg_unlock(ol->c, pool, ps);
	if (r)
		goto out;
	for (int i = 0; i < pg->nacting; i++) {
		int e = cfs_obj_setxattr(ol->c, pg->acting[i], pool, ps, name,
					 key, val, len);

		if (e == 0)
			done++;
		else if (!first)
			first = e;
		if (e) { /* recovery brings it with the data */
			cfs_pg_lock(ol->c, pool, ps);
			cfs_pg_mark_missing(ol->c, pool, ps, pg->acting[i],
					    name);
			cfs_pg_unlock(ol->c, pool, ps);
		}
		if (e && e != -ENOENT)
			cfs_log(CFS_LOG_WARN,
				"object '%s' on osd.%d: setting attribute "
				"'%s': %s",
				name, pg->acting[i], key, cfs_strerror(e));
	}
out:
	pthread_rwlock_unlock(lk);
	pthread_rwlock_unlock(ol_pgio(ol, pool, ps));
	cfs_osdmap_put(m);
	if (r)
		return r;
	/* a copy still to be recovered gets the attribute with its data */
	return done ? 0 : first ? first : -EIO;
}

/* Up OSDs with a current copy of name, in read order (cfs_pg_lock). */
static int candidates(objlayer *ol, const cfs_osdmap *m, int64_t pool,
		      const struct cfs_pg_mapping *pg, const char *name,
		      int *cand)
{
	int h[256], nh = cfs_pg_holders(ol->c, pool, pg->ps, h, 256), nc = 0;

	for (int i = 0; i < pg->nacting; i++)
		if (cfs_pg_is_holder(ol->c, pool, pg->ps, pg->acting[i]) &&
		    !cfs_pg_is_missing(ol->c, pool, pg->ps, pg->acting[i],
				       name))
			cand[nc++] = pg->acting[i];
	for (int i = 0; i < nh; i++) {
		int in = 0;

		for (int k = 0; k < pg->nacting; k++)
			in |= pg->acting[k] == h[i];
		if (!in && cfs_osdmap_is_up(m, h[i]) &&
		    !cfs_pg_is_missing(ol->c, pool, pg->ps, h[i], name))
			cand[nc++] = h[i];
	}
	return nc;
}

static int obj_getattr(objlayer *ol, int64_t pool, const char *name,
		       const char *key, void **val, size_t *len)
{
	if (ol->rb)
		return pool != ol->pool ? -ENOENT
					: rb_getattr(ol, name, key, val, len);
	const cfs_osdmap *m = cfs_osdmap_get(ol->c);
	const struct cfs_pg_mapping *pg;
	pthread_rwlock_t *lk;
	int cand[CFS_MAX_REP + 256], nc, r = -ENOENT;
	uint32_t ps;

	if (pg_of(m, pool, name, &ps, &pg)) {
		cfs_osdmap_put(m);
		return -ENOENT;
	}
	lk = ol_objlock(ol, name);
	pthread_rwlock_rdlock(ol_pgio(ol, pool, ps));
	pthread_rwlock_rdlock(lk);
	cfs_osdmap_put(m); /* the acting set current under the lock */
	m = cfs_osdmap_get(ol->c);
	if (pg_of(m, pool, name, &ps, &pg)) {
		pthread_rwlock_unlock(lk);
		pthread_rwlock_unlock(ol_pgio(ol, pool, ps));
		cfs_osdmap_put(m);
		return -ENOENT;
	}
	cfs_pg_lock(ol->c, pool, ps);
	nc = candidates(ol, m, pool, pg, name, cand);
	cfs_pg_unlock(ol->c, pool, ps);
	for (int i = 0; i < nc; i++) {
		ssize_t n = cfs_obj_getxattr(ol->c, cand[i], pool, ps, name,
					     key, NULL, 0);
		char *buf;

		if (n < 0) {
			/* a copy without it: try the next one */
			if (r == -ENOENT || n != -ENOENT)
				r = (int)n;
			continue;
		}
		buf = malloc((size_t)n + 1);
		if (!buf) {
			r = -ENOMEM;
			break;
		}
		n = cfs_obj_getxattr(ol->c, cand[i], pool, ps, name, key, buf,
				     (size_t)n);
		if (n < 0) {
			free(buf);
			r = (int)n;
			continue;
		}
		buf[n] = '\0';
		*val = buf;
		*len = (size_t)n;
		r = 0;
		break;
	}
	pthread_rwlock_unlock(lk);
	pthread_rwlock_unlock(ol_pgio(ol, pool, ps));
	cfs_osdmap_put(m);
	return r;
}

/* The PG seeds above hold while no pg_num change runs (the layout gate;
 * ol_obj_write inside takes it again). */
int ol_obj_setattr(objlayer *ol, int64_t pool, const char *name,
		   const char *key, const void *val, size_t len)
{
	int r;

	/* pausewr waited for outside the gate (op_pause_wait says why) */
	if (!ol->rb && (r = op_pause_wait(ol, pool, name, "write to")))
		return r;
	cfs_pg_layout_shared(ol->c);
	r = obj_setattr(ol, pool, name, key, val, len);
	cfs_pg_layout_release(ol->c);
	return r;
}

int ol_obj_getattr(objlayer *ol, int64_t pool, const char *name,
		   const char *key, void **val, size_t *len)
{
	int r;

	cfs_pg_layout_shared(ol->c);
	r = obj_getattr(ol, pool, name, key, val, len);
	cfs_pg_layout_release(ol->c);
	return r;
}
