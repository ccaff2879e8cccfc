/*
 * ec_pg.c - the PG-wide work of an erasure pool over its shard PGs: the
 * statistics ol_pg_stat reports, backfill and recovery of shards
 * (rebalance), purge, and scrub with repair.  Object operations are in
 * ec_io.c and ec_write.c; what they share is ec_io_i.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ec_codec.h"
#include "ec_io_i.h"
#include "objindex.h"
#include "objstore.h"
#include "osdmap.h"
#include "pgstate.h"
#include "placement.h"
#include "usage.h"
#include "util.h"

static int osd_usable(const cfs_osdmap *m, int osd)
{
	return osd >= 0 && osd != PL_ITEM_NONE && osd < cfs_osdmap_max_osd(m) &&
	       cfs_osdmap_is_up(m, osd);
}

/* ---- PG statistics of an erasure pool (ol_pg_stat) ---- */

static int ec_name_add(const char *name, void *arg)
{
	ol_names_add(arg, name);
	return 0;
}

int ec_pg_stat(objlayer *ol, const cfs_osdmap *m,
	       const struct cfs_pool_info *p, uint32_t ps,
	       const struct ol_names *idx, struct ol_pg_stat *st)
{
	cfs_cluster *c = ol->c;
	const struct cfs_pg_mapping *pg = cfs_osdmap_pool_pg(m, p->id, ps);
	const char *kk = cfs_ec_profile_get(m, p->ec_profile, "k");
	int width = p->size, k = kk ? atoi(kk) : 2, backfill = 0;
	struct ol_names all = { 0 };
	uint64_t damaged = 0;
	size_t j = 0;

	/* the sets and the state an empty PG of them has */
	ol_pg_stat_placed(m, p, ps, st);
	if (!pg || width > EC_MAX_WIDTH)
		return 0;
	/* every object any holder of any shard has, or misses */
	for (int i = 0; i < width && !all.err; i++) {
		uint32_t sps = cfs_shard_ps(ps, width, i);
		int h[256], nh;

		cfs_pg_lock(c, p->id, sps);
		nh = cfs_pg_holders(c, p->id, sps, h, 256);
		for (int j = 0; j < nh && !all.err; j++) {
			struct cfs_obj_entry *e;
			size_t ne;

			if (cfs_pg_list_names(c, h[j], p->id, sps, &e, &ne))
				continue;
			for (size_t q = 0; q < ne; q++)
				ol_names_add(&all, e[q].name);
			cfs_obj_entries_free(e, ne);
			cfs_pg_missing_foreach(c, p->id, sps, h[j],
					       ec_name_add, &all);
			if (i < pg->nacting && h[j] == pg->acting[i] &&
			    cfs_pg_is_backfill(c, p->id, sps, h[j]))
				backfill = 1;
		}
		damaged += cfs_pg_damaged_count(c, p->id, sps);
		cfs_pg_unlock(c, p->id, sps);
	}
	if (all.err) {
		ol_names_free(all.v, all.n);
		return all.err;
	}
	ol_names_sort_unique(&all);
	for (size_t q = 0; q <= all.n; q++) {
		struct cfs_objinfo oi;
		uint64_t ver[EC_MAX_WIDTH], next = 0;
		int good = 0, nver = 0, op;

		ol_pg_index_only(c, p->id, idx, &j, q < all.n ? all.v[q] : NULL,
				 st);
		if (q == all.n)
			break;

		if (ol_pg_index_record(c, p->id, idx, j, all.v[q], &oi))
			continue; /* removed; old shard files linger */
		for (int i = 0; i < width && i < pg->nacting; i++) {
			uint32_t sps = cfs_shard_ps(ps, width, i);
			int a = pg->acting[i];
			cfs_obj *o;
			uint64_t v;

			if (a < 0 || a == PL_ITEM_NONE ||
			    !cfs_osdmap_is_up(m, a))
				continue;
			cfs_pg_lock(c, p->id, sps);
			if (cfs_pg_is_holder(c, p->id, sps, a) &&
			    !cfs_pg_is_missing(c, p->id, sps, a, all.v[q]) &&
			    !cfs_obj_open(c, a, p->id, sps, all.v[q], 0, &o)) {
				if (!cfs_obj_version(o, &v)) {
					good += v == oi.version;
					ver[nver++] = v;
				}
				cfs_obj_put(o);
			}
			cfs_pg_unlock(c, p->id, sps);
		}
		/* a change half done (ol_pg_in_flight): a removal is no
		 * object any more; a write's new shards are current */
		op = good < width ? ol_pg_in_flight(c, p->id, all.v[q], &next)
				  : 0;
		if (op == CFS_INTENT_REMOVE)
			continue;
		for (int i = 0; op == CFS_INTENT_WRITE && i < nver; i++)
			good += ver[i] == next && next != oi.version;
		st->objects++;
		st->bytes += oi.size;
		st->degraded += (uint64_t)(width - good);
		if (good < k)
			st->unfound++;
	}
	ol_names_free(all.v, all.n);
	/* a shard whose up OSD is not acting yet (a pg_temp keeps it where
	 * it is): remapped, backfill pending (backfill_toofull when its
	 * target refused it in the last rebalance and still would) */
	for (int i = 0; i < width && i < pg->nup; i++) {
		int u = pg->up[i];
		struct cfs_toofull tf;
		struct cfs_osd_usage us;

		if (!osd_usable(m, u) ||
		    (i < pg->nacting && pg->acting[i] == u))
			continue;
		st->state |= OL_PGS_REMAPPED;
		if (!st->objects)
			continue;
		backfill = 1;
		cfs_osd_usage(c, u, &us);
		if (cfs_toofull_get(c, p->id, ps, &tf) && tf.osd == u) {
			uint64_t lim = cfs_osdmap_backfillfull_limit(m, u);

			if (us.used > lim || tf.bytes > lim - us.used)
				backfill = 2;
		}
	}
	st->scrub_errors = damaged;
	if (st->degraded) {
		st->state &= ~(unsigned)OL_PGS_CLEAN;
		st->state |= OL_PGS_DEGRADED;
	}
	if (backfill) {
		st->state &= ~(unsigned)OL_PGS_CLEAN;
		st->state |= backfill == 2 ? OL_PGS_BACKFILL_TOOFULL
					   : OL_PGS_BACKFILL_WAIT;
	}
	if (st->state & OL_PGS_REMAPPED)
		st->state &= ~(unsigned)OL_PGS_CLEAN;
	if (st->unfound) {
		st->state &= ~(unsigned)OL_PGS_CLEAN;
		st->state |= OL_PGS_UNFOUND;
	}
	if (damaged) {
		st->state &= ~(unsigned)OL_PGS_CLEAN;
		st->state |= OL_PGS_INCONSISTENT;
	}
	if ((st->state & OL_PGS_UNDERSIZED) && st->objects)
		st->state |= OL_PGS_DEGRADED;
	return 0;
}

/* ---- backfill and recovery of an erasure pool's shards (rebalance) ---- */

/* Shard i of the object rebuilt from the others (decode, then encode the
 * stripes again) onto osd t.  The object's lock held. */
int ecx_rebuild_shard(objlayer *ol, const struct objop *op, const char *name,
		      const struct cfs_objinfo *oi, int i, int t)
{
	unsigned char *data = NULL, *sh[EC_MAX_WIDTH] = { 0 };
	struct ec_shard_io io;
	struct ec_object o;
	uint64_t stale, bad = 0, n, sw;
	struct ecx x;
	cfs_obj *f;
	ssize_t got;
	int r = ecx_init(&x, ol, op, name);

	if (r)
		return -EIO;
	x.version = oi->version;
	r = ecx_stale_shards(&x, &stale);
	sw = ec_stripe_width(&x.s);
	n = ec_shard_len(&x.s, oi->size) / x.s.chunk;
	data = calloc(n ? n * sw : 1, 1);
	for (int j = 0; data && j < x.width; j++)
		if (!(sh[j] = malloc(n ? n * x.s.chunk : 1)))
			r = -ENOMEM;
	if (!data)
		r = -ENOMEM;
	if (!r) {
		ecx_object_of(&x, 1ULL << i, &o, &io);
		got = ec_object_read(&o, oi->size, 0, data, oi->size, &bad);
		if (got != (ssize_t)oi->size)
			r = got < 0 ? (int)got : -EIO;
	}
	if (!r) {
		ec_stripes_encode(x.codec, &x.s, data, n, sh);
		r = cfs_obj_open(ol->c, t, op->pid, sps_of(&x, i), name,
				 CFS_OBJ_CREATE, &f);
		if (!r) {
			r = cfs_obj_reset(f);
			if (!r && n)
				r = cfs_obj_pwrite(f, sh[i], n * x.s.chunk, 0);
			if (!r)
				r = cfs_obj_commit(f, oi->version);
			if (!r)
				r = cfs_obj_sync(f);
			cfs_obj_put(f);
		}
	}
	ecx_note_bad(&x, bad);
	for (int j = 0; j < x.width; j++)
		free(sh[j]);
	free(data);
	ecx_done(&x);
	return r;
}

/* A good copy of shard i on another holder of its shard PG copied to t,
 * else a rebuild.  The object's lock held. */
static int recover_shard(objlayer *ol, const struct objop *op,
			 const char *name, const struct cfs_objinfo *oi,
			 int i, int t)
{
	uint32_t sps = cfs_shard_ps(op->ps, op->pool->size, i);
	int h[256], nh;

	cfs_pg_lock(ol->c, op->pid, sps);
	nh = cfs_pg_holders(ol->c, op->pid, sps, h, 256);
	{
		int w = 0;

		/* up holders that do not miss it, the target aside */
		for (int k = 0; k < nh; k++)
			if (h[k] != t && cfs_osdmap_is_up(op->m, h[k]) &&
			    !cfs_pg_is_missing(ol->c, op->pid, sps, h[k],
					       name))
				h[w++] = h[k];
		nh = w;
	}
	cfs_pg_unlock(ol->c, op->pid, sps);
	for (int k = 0; k < nh; k++) {
		struct ecx x;
		struct cfs_objinfo want;
		const char *why;

		/* a shard is good at the object's version and its shard
		 * length (the copy checks its checksums as it goes) */
		if (ecx_init(&x, ol, op, name))
			break;
		want.version = oi->version;
		want.size = ec_shard_len(&x.s, oi->size);
		ecx_done(&x);
		if (ol_copy_check(ol->c, h[k], op->pid, sps, name, &want, 0,
				  &why) != OL_COPY_GOOD)
			continue;
		if (!cfs_obj_copy(ol->c, h[k], t, op->pid, sps, name, NULL))
			return 0;
	}
	return ecx_rebuild_shard(ol, op, name, oi, i, t);
}

static int collect_name(const char *name, void *arg)
{
	ol_names_add(arg, name);
	return 0;
}

/*
 * Backfill and recovery of PG ps, shard by shard: each shard's targets are
 * up[i] (where CRUSH wants it: backfill) and acting[i] (the pg_temp's
 * holder of it, when it missed writes: recovery); every object a target
 * misses is copied from a holder with a good shard, else rebuilt by
 * decode.  Nothing is deleted here: ec_purge_pg does that once the acting
 * set is the up set.  Counts into st.
 */
int ec_backfill_pg(objlayer *ol, int64_t pool, uint32_t ps,
		   struct ol_rebalance_stats *st)
{
	cfs_cluster *c = ol->c;
	const cfs_osdmap *m = cfs_osdmap_get(c);
	const struct cfs_pool_info *p = cfs_osdmap_pool_by_id(m, pool);
	const struct cfs_pg_mapping *pg = cfs_osdmap_pool_pg(m, pool, ps);
	int width = p ? p->size : 0, changed = 0, errors = 0, toofull = 0;

	if (!p || !pg || width > EC_MAX_WIDTH) {
		cfs_osdmap_put(m);
		return 0;
	}
	pthread_rwlock_rdlock(ol_pgio(ol, pool, ps));
	for (int j = 0; j < 2 * width && !toofull; j++) {
		int i = j % width;
		uint32_t sps = cfs_shard_ps(ps, width, i);
		struct ol_names todo = { 0 };
		int t = j < width ? (i < pg->nup ? pg->up[i] : -1)
				  : (i < pg->nacting ? pg->acting[i] : -1);
		int nh, h[256], r;

		if (!osd_usable(m, t) ||
		    (j >= width && i < pg->nup && pg->up[i] == t))
			continue;
		if (pg->nup != pg->nacting ||
		    (i < pg->nup && i < pg->nacting &&
		     pg->up[i] != pg->acting[i]))
			changed = 1;
		cfs_pg_lock(c, pool, sps);
		nh = cfs_pg_holders(c, pool, sps, h, 256);
		r = nh ? ol_ensure_holder(ol, pool, sps, t) : 0;
		if (!r)
			cfs_pg_missing_foreach(c, pool, sps, t, collect_name,
					       &todo);
		cfs_pg_unlock(c, pool, sps);
		if (r || todo.err) {
			errors = 1;
			ol_names_free(todo.v, todo.n);
			continue;
		}
		changed |= todo.n > 0;
		for (size_t q = 0; q < todo.n && !toofull; q++) {
			const char *name = todo.v[q];
			pthread_rwlock_t *lk = ol_objlock(ol, name);
			struct cfs_objinfo oi;
			struct objop op;
			int still, e;

			if (ol_op_begin(ol, pool, name, &op))
				continue;
			pthread_rwlock_wrlock(lk);
			ol_op_refresh(&op);
			cfs_pg_lock(c, pool, sps);
			still = cfs_pg_is_missing(c, pool, sps, t, name);
			cfs_pg_unlock(c, pool, sps);
			e = 0;
			if (!still) {
				;
			} else if (cfs_index_get(c, pool, name, &oi)) {
				/* gone: a stale file of it goes too */
				e = cfs_obj_remove(c, t, pool, sps, name);
			} else {
				/* a shard is at most the object's size */
				e = cfs_osd_reserve(
					c, t, oi.size,
					cfs_osdmap_backfillfull_limit(m, t));
				if (e) {
					toofull = 1;
					ol_note_toofull(ol, pool, ps, t,
							oi.size);
				} else {
					e = recover_shard(ol, &op, name, &oi,
							  i, t);
					cfs_osd_unreserve(c, t, oi.size);
					if (!e) {
						st->objects_copied++;
						st->bytes_copied += oi.size;
					}
				}
			}
			if (still && !e && !toofull) {
				cfs_pg_lock(c, pool, sps);
				cfs_pg_clear_missing_lazy(c, pool, sps, t,
							  name);
				cfs_pg_unlock(c, pool, sps);
			} else if (e && !toofull) {
				errors = 1;
				cfs_log(CFS_LOG_ERR, "rebalance: pg %ss%d: "
					"'%s' to osd.%d failed: %s", op.pgid,
					i, name, t, cfs_strerror(e));
			}
			pthread_rwlock_unlock(lk);
			ol_op_end(&op);
		}
		ol_names_free(todo.v, todo.n);
		cfs_pg_lock(c, pool, sps);
		if (cfs_pg_flush(c, pool, sps))
			errors = 1;
		cfs_pg_unlock(c, pool, sps);
	}
	pthread_rwlock_unlock(ol_pgio(ol, pool, ps));
	if (changed)
		st->pgs_changed++;
	if (toofull)
		st->pgs_toofull++;
	if (errors)
		st->errors++;
	cfs_osdmap_put(m);
	return 0;
}

/*
 * Once PG ps's acting set is its up set (no pg_temp), position by
 * position, and every up[i] holds every object of shard i, the shards
 * other OSDs keep go (down OSDs keep theirs until they come back).  Under
 * the PG's pgio exclusive, with the map read under it: no op is in flight
 * and none can still use an acting set that named those OSDs.  1 if
 * strays went.
 */
int ec_purge_pg(objlayer *ol, int64_t pool, uint32_t ps,
		struct ol_rebalance_stats *st)
{
	cfs_cluster *c = ol->c;
	const cfs_osdmap *m;
	const struct cfs_pool_info *p;
	const struct cfs_pg_mapping *pg;
	int width, ok, did = 0, r = 0;

	pthread_rwlock_wrlock(ol_pgio(ol, pool, ps));
	m = cfs_osdmap_get(c);
	p = cfs_osdmap_pool_by_id(m, pool);
	pg = p && ps < p->pg_num ? cfs_osdmap_pool_pg(m, pool, ps) : NULL;
	width = p ? p->size : 0;
	ok = pg && width <= EC_MAX_WIDTH && pg->nup == width &&
	     pg->nacting == width &&
	     !memcmp(pg->up, pg->acting, sizeof(int) * (size_t)width);
	for (int i = 0; ok && i < width; i++) {
		uint32_t sps = cfs_shard_ps(ps, width, i);
		int t = pg->up[i];

		cfs_pg_lock(c, pool, sps);
		ok = osd_usable(m, t) && cfs_pg_is_holder(c, pool, sps, t) &&
		     !cfs_pg_missing_count(c, pool, sps, t);
		cfs_pg_unlock(c, pool, sps);
	}
	for (int i = 0; ok && !r && i < width; i++) {
		uint32_t sps = cfs_shard_ps(ps, width, i);
		int t = pg->up[i], h[256], nh;

		cfs_pg_lock(c, pool, sps);
		nh = cfs_pg_holders(c, pool, sps, h, 256);
		for (int k = 0; k < nh && !r; k++) {
			struct cfs_obj_entry *e;
			size_t ne;

			if (h[k] == t || !cfs_osdmap_is_up(m, h[k]))
				continue;
			r = cfs_pg_list(c, h[k], pool, sps, &e, &ne);
			if (r)
				break;
			for (size_t q = 0; !r && q < ne; q++) {
				r = cfs_obj_remove(c, h[k], pool, sps,
						   e[q].name);
				if (!r) {
					st->objects_removed++;
					st->bytes_removed += e[q].size;
				}
			}
			cfs_obj_entries_free(e, ne);
			if (!r)
				r = cfs_pg_drop_holder(c, pool, sps, h[k]);
			did = 1;
		}
		cfs_pg_unlock(c, pool, sps);
	}
	if (r) {
		st->errors++;
		cfs_log(CFS_LOG_ERR, "rebalance: pg %lld.%x: removing old "
			"shards failed: %s", (long long)pool, ps,
			cfs_strerror(r));
	}
	pthread_rwlock_unlock(ol_pgio(ol, pool, ps));
	cfs_osdmap_put(m);
	return did;
}

/* ---- scrub and repair of an erasure pool's shards ---- */

/*
 * Every object of PG ps, every shard on its acting OSD: present, at the
 * object's version and shard length, and (deep) its bytes against their
 * checksums.  A bad shard is marked damaged; with repair it is rebuilt
 * from the others (decode), never from itself.
 */
int ec_scrub_pg(objlayer *ol, int64_t pool, uint32_t ps, int flags,
		struct ol_scrub_stats *st,
		void (*msg)(const char *line, void *arg), void *arg)
{
	cfs_cluster *c = ol->c;
	const cfs_osdmap *m = cfs_osdmap_get(c);
	const struct cfs_pool_info *p = cfs_osdmap_pool_by_id(m, pool);
	const struct cfs_pg_mapping *pg = cfs_osdmap_pool_pg(m, pool, ps);
	struct ol_names all = { 0 };
	int width = p ? p->size : 0, r = 0;

	if (!p || !pg || width > EC_MAX_WIDTH) {
		cfs_osdmap_put(m);
		return -ENOENT;
	}
	st->pgs++;
	for (int i = 0; i < width; i++) {
		uint32_t sps = cfs_shard_ps(ps, width, i);
		char **v;
		size_t n;

		cfs_pg_lock(c, pool, sps);
		if (!ol_pg_all_names(ol, pool, sps, &v, &n)) {
			for (size_t q = 0; q < n; q++)
				ol_names_add(&all, v[q]);
			ol_names_free(v, n);
		}
		cfs_pg_unlock(c, pool, sps);
	}
	ol_names_sort_unique(&all);
	for (size_t q = 0; q < all.n && !r; q++) {
		const char *name = all.v[q];
		pthread_rwlock_t *lk = ol_objlock(ol, name);
		struct cfs_objinfo oi;
		struct objop op;
		struct ecx x;
		uint64_t bad = 0, slen;

		if (ol_op_begin(ol, pool, name, &op))
			continue;
		pthread_rwlock_rdlock(ol_pgio(ol, pool, ps));
		pthread_rwlock_wrlock(lk);
		ol_op_refresh(&op);
		if (cfs_index_get(c, pool, name, &oi) || ecx_init(&x, ol, &op,
								   name)) {
			pthread_rwlock_unlock(lk);
			pthread_rwlock_unlock(ol_pgio(ol, pool, ps));
			ol_op_end(&op);
			continue; /* removed meanwhile (strays: rebalance) */
		}
		slen = ec_shard_len(&x.s, oi.size);
		st->objects++;
		st->bytes += oi.size;
		for (int i = 0; i < width; i++) {
			cfs_obj *o;
			uint64_t v;
			const char *why = NULL;

			if (x.osd[i] < 0)
				continue;
			st->copies++;
			if (cfs_obj_open(c, x.osd[i], pool, sps_of(&x, i), name,
					 CFS_OBJ_VERIFY, &o)) {
				why = "shard is missing";
				/* gone behind the store's back? */
				cfs_pg_lock(c, pool, sps_of(&x, i));
				if (cfs_pg_is_holder(c, pool, sps_of(&x, i),
						     x.osd[i]) &&
				    !cfs_pg_is_missing(c, pool, sps_of(&x, i),
						       x.osd[i], name))
					cfs_obj_vanished(c, x.osd[i], pool,
							 sps_of(&x, i), name,
							 slen);
				cfs_pg_unlock(c, pool, sps_of(&x, i));
			} else {
				if (cfs_obj_version(o, &v) || v != oi.version)
					why = "shard is stale or unvouched";
				else if (cfs_obj_size(o) != slen)
					why = "shard has the wrong length";
				else if ((flags & OL_SCRUB_DEEP) &&
					 cfs_obj_verify(o))
					why = "shard does not match its "
					      "checksums";
				cfs_obj_put(o);
			}
			if (why) {
				char line[300];

				bad |= 1ULL << i;
				st->errors++;
				snprintf(line, sizeof(line),
					 "pg %ss%d: object '%s' on osd.%d: %s",
					 op.pgid, i, name, x.osd[i], why);
				if (msg)
					msg(line, arg);
			}
		}
		if (bad)
			ecx_note_bad(&x, bad);
		for (int i = 0; bad && (flags & OL_SCRUB_REPAIR) && i < width;
		     i++) {
			uint32_t sps = sps_of(&x, i);

			if (!(bad >> i & 1))
				continue;
			if (!ecx_rebuild_shard(ol, &op, name, &oi, i,
					       x.osd[i])) {
				cfs_pg_lock(c, pool, sps);
				cfs_pg_clear_missing(c, pool, sps, x.osd[i],
						     name);
				cfs_pg_unlock(c, pool, sps);
				st->repaired++;
			} else {
				st->unfound++;
			}
		}
		ecx_done(&x);
		pthread_rwlock_unlock(lk);
		pthread_rwlock_unlock(ol_pgio(ol, pool, ps));
		ol_op_end(&op);
	}
	ol_names_free(all.v, all.n);
	cfs_osdmap_put(m);
	return r;
}
