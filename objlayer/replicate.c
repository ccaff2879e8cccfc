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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cluster.h"
#include "objindex.h"
#include "objlayer_i.h"
#include "objstore.h"
#include "osdmap.h"
#include "pgstate.h"
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
	int r;

	if (!ol)
		return -ENOMEM;
	m = cfs_osdmap_get(c);
	ol->c = c;
	ol->pool = cfs_osdmap_pool(m)->id;
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
	pthread_mutex_init(&ol->bytes_lock, NULL);
	pthread_mutex_init(&ol->recs_lock, NULL);
	ol_workers_init(ol);
	pthread_mutex_init(&ol->rec_lock, NULL);
	pthread_mutex_init(&ol->ec_lock, NULL);
	ol_kept_init(ol);
	r = ol_rados_open(ol);
	if (r < 0) {
		ol_close(ol);
		return r;
	}
	/* what a crash left in flight is settled before any I/O (the OSD
	 * folders'; a RADOS pool settles its own) */
	r = r ? 0 : ol_settle(ol);
	if (r) {
		cfs_log(CFS_LOG_ERR, "%s: cannot settle interrupted object "
			"changes: %s", cfs_cluster_dir(c), cfs_strerror(r));
		ol_close(ol);
		return r;
	}
	*out = ol;
	return 0;
}

int ol_is_rados(const objlayer *ol)
{
	return ol && ol->rb;
}

void ol_set_wait(objlayer *ol, int on, int (*stopping)(void *arg),
		 void *arg)
{
	ol->wait = on;
	ol->stop_fn = stopping;
	ol->stop_arg = arg;
}

void ol_stop_waiting(objlayer *ol)
{
	ol->closing = 1;
	cfs_osdmap_wake_waiters(ol->c);
}

void ol_close(objlayer *ol)
{
	if (!ol)
		return;
	/* a clean close leaves no intent for the next open to settle */
	if (ol_kept_drop(ol, OL_KEPT_ALL))
		cfs_log(CFS_LOG_WARN, "%s: some write intents stay in the "
			"object index; the next open settles their objects",
			cfs_cluster_dir(ol->c));
	ol_kept_fini(ol);
	ol_rados_close(ol);
	for (uint32_t i = 0; i < ol->pg_num; i++)
		pthread_rwlock_destroy(&ol->pgio[i]);
	for (int i = 0; i < OL_LOCK_STRIPES; i++)
		pthread_rwlock_destroy(&ol->objlock[i]);
	pthread_mutex_destroy(&ol->bytes_lock);
	pthread_mutex_destroy(&ol->recs_lock);
	ol_workers_stop(ol);
	pthread_mutex_destroy(&ol->rec_lock);
	free(ol->tf);
	ol_ec_codecs_free(ol);
	pthread_mutex_destroy(&ol->ec_lock);
	free(ol->pgio);
	free(ol);
}

int ol_relayout(objlayer *ol, int (*change)(cfs_cluster *c, void *arg),
		void *arg)
{
	uint32_t n = 0;
	pthread_rwlock_t *np = NULL;
	int r;

	/* every operation on a PG seed has ended, none starts until the
	 * change is made and the locks are per new PG */
	cfs_pg_layout_exclusive(ol->c);
	r = change(ol->c, arg);
	if (!r) {
		const cfs_osdmap *m = cfs_osdmap_get(ol->c);

		n = cfs_osdmap_pool(m)->pg_num;
		cfs_osdmap_put(m);
	}
	if (!r && n != ol->pg_num) {
		np = calloc(n ? n : 1, sizeof(*np));
		if (np) {
			pthread_rwlock_t *old = ol->pgio;
			uint32_t on = ol->pg_num;

			for (uint32_t i = 0; i < n; i++)
				pthread_rwlock_init(&np[i], NULL);
			ol->pgio = np;
			ol->pg_num = n;
			np = old;
			n = on;
		} else {
			cfs_log(CFS_LOG_WARN, "no memory for %u PG locks: "
				"%u shared among the PGs", n, ol->pg_num);
			n = 0;
		}
	} else {
		n = 0;
	}
	cfs_pg_layout_release(ol->c);
	for (uint32_t i = 0; np && i < n; i++)
		pthread_rwlock_destroy(&np[i]);
	free(np);
	return r;
}

struct set_pg_num {
	int64_t pool;
	uint32_t pg_num;
	char *why;
	size_t whylen;
	int step; /* rebalance's, towards the targets (not the command) */
};

static int set_pg_num(cfs_cluster *c, void *arg)
{
	struct set_pg_num *a = arg;

	if (a->step)
		return cfs_pool_step_pg_num(c, a->pool, a->pg_num, a->why,
					    a->whylen);
	return cfs_pool_set_pg_num(c, a->pool, a->pg_num, a->why, a->whylen);
}

int ol_set_pg_num(objlayer *ol, int64_t pool, uint32_t pg_num, char *why,
		  size_t whylen)
{
	struct set_pg_num a = { pool, pg_num, why, whylen, 0 };

	return ol_relayout(ol, set_pg_num, &a);
}

int ol_step_pg_num(objlayer *ol, int64_t pool, uint32_t pg_num, char *why,
		   size_t whylen)
{
	struct set_pg_num a = { pool, pg_num, why, whylen, 1 };

	return ol_relayout(ol, set_pg_num, &a);
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

int64_t ol_data_pool(const objlayer *ol)
{
	return ol->pool;
}

int ol_pool_lookup(objlayer *ol, const char *key, int64_t *id, char *name,
		   size_t len)
{
	const cfs_osdmap *m = cfs_osdmap_get(ol->c);
	const struct cfs_pool_info *p = cfs_osdmap_pool_by_name(m, key);
	char *end;
	long long n = strtoll(key, &end, 10);
	int r = -ENOENT;

	/* by name, or by id; the filesystem's data pools only (CephFS:
	 * a layout naming another pool is EINVAL) */
	if (!p && *key >= '0' && *key <= '9' && !*end)
		p = cfs_osdmap_pool_by_id(m, n);
	if (p && cfs_fs_is_data_pool(m, p->id)) {
		*id = p->id;
		if (name)
			snprintf(name, len, "%s", p->name);
		r = 0;
	}
	cfs_osdmap_put(m);
	return r;
}

/* ---- PG state helpers ---- */

static int add_missing(const char *name, void *arg)
{
	ol_names_add(arg, name);
	return 0;
}

int ol_pg_pick(const char *name, const struct cfs_objinfo *oi, int op,
	       void *arg)
{
	struct ol_pg_pick *p = arg;
	uint32_t ps;

	(void)oi;
	(void)op;
	if (!cfs_pool_object_to_pg(p->m, p->pool, name, NULL, &ps) &&
	    ps == p->ps)
		ol_names_add(p->a, name);
	return 0;
}

int ol_pg_all_names(objlayer *ol, int64_t pool, uint32_t ps, char ***names,
		    size_t *n)
{
	int h[256], nh = cfs_pg_holders(ol->c, pool, ps, h, 256);
	struct ol_names a = { 0 };

	/* The PG's log knows every object; our stand-in is the union of
	 * the holders' folders (down ones too) and their missing sets.  A
	 * name too many only costs a look at the source. */
	for (int i = 0; i < nh && !a.err; i++) {
		struct cfs_obj_entry *e;
		size_t ne;
		int r = cfs_pg_list_names(ol->c, h[i], pool, ps, &e, &ne);

		if (r) {
			ol_names_free(a.v, a.n);
			return r;
		}
		for (size_t k = 0; k < ne; k++)
			ol_names_add(&a, e[k].name);
		cfs_obj_entries_free(e, ne);
		cfs_pg_missing_foreach(ol->c, pool, ps, h[i], add_missing, &a);
	}
	/* A change in flight (its intent is written under cfs_pg_lock,
	 * which the caller holds) may not have reached any folder yet: a
	 * new object being written.  Its name goes in too, or a holder
	 * added now would be taken for having it once the write lands on
	 * the old acting set (Ceph: the PG log's entries a peer lacks). */
	if (nh > 0 && !a.err) {
		const cfs_osdmap *m = cfs_osdmap_get(ol->c);
		const struct cfs_pool_info *p = cfs_osdmap_pool_by_id(m, pool);
		int r = 0;

		if (p) {
			/* the object's PG: a shard PG's seed / width */
			struct ol_pg_pick x = { m, pool,
						p->erasure ? ps / (uint32_t)p->size
							   : ps,
						&a };

			r = cfs_index_foreach(ol->c, pool, "", 1, ol_pg_pick,
					      &x);
		}
		cfs_osdmap_put(m);
		if (r && !a.err)
			a.err = r;
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

int ol_ensure_holder(objlayer *ol, int64_t pool, uint32_t ps, int t)
{
	char **names = NULL;
	size_t n = 0;
	int r, nh, h[256];

	if (cfs_pg_is_holder(ol->c, pool, ps, t))
		return 0;
	nh = cfs_pg_holders(ol->c, pool, ps, h, 256);
	if (nh == 0) /* a new PG: empty is complete */
		return cfs_pg_add_holder(ol->c, pool, ps, t, NULL, 0);
	r = ol_pg_all_names(ol, pool, ps, &names, &n);
	if (r)
		return r;
	r = cfs_pg_add_holder(ol->c, pool, ps, t, names, n);
	ol_names_free(names, n);
	return r;
}

