/*
 * rebalance.c - backfill and stray removal, the way Ceph moves data after
 * a map change, but on demand (`crushfs rebalance`: one backfill pass
 * here, ol_backfill; the pg_num / pgp_num steps between passes, adjust.c).
 *
 * After a map change a PG's up set follows CRUSH while its acting set
 * stays on the OSDs holding its data (a pg_temp, osdsim pgtemp.c).  Per
 * PG, with the current map:
 *  1. every up (and acting) OSD becomes a holder; one that was not gets
 *     every object of the PG in its missing set (persisted first);
 *  2. each missing object is copied from a current copy (temporary file,
 *     fsync, verify, rename: cfs_obj_copy) or, if it was deleted, removed;
 *     space is reserved against backfillfull_ratio first, and a target
 *     that would cross it is left alone (backfill_toofull);
 * then, once for all PGs, the pg_temp entries are chosen again
 * (cfs_pg_temp_refresh: one new epoch, acting = up where up is complete),
 * and
 *  3. only where acting = up, complete and full-sized, are the copies on
 *     OSDs the PG left deleted (down OSDs keep theirs until they come
 *     back).
 * Whatever the moment of an interruption, some OSD still holds a complete
 * current copy of every object: copies are made before anything is
 * deleted, missing sets are written before the data they describe, and
 * nothing outside the acting set is deleted while a pg_temp keeps I/O
 * away from the up set.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cluster.h"
#include "objindex.h"
#include "objlayer_i.h"
#include "objstore.h"
#include "osdmap.h"
#include "pgstate.h"
#include "usage.h"
#include "util.h"

/* rounds of one rebalance at most (each ends sooner when all is done) */
#define OL_REBALANCE_ROUNDS 5

struct item {
	int t; /* index in the PG's targets */
	char *name;
};

struct worklist {
	struct item *v;
	size_t n, cap;
	int t;
};

static int collect(const char *name, void *arg)
{
	struct worklist *w = arg;

	if (w->n == w->cap) {
		size_t nc = w->cap ? w->cap * 2 : 64;
		struct item *nv = realloc(w->v, nc * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		w->v = nv;
		w->cap = nc;
	}
	w->v[w->n].t = w->t;
	w->v[w->n].name = strdup(name);
	if (!w->v[w->n].name)
		return -ENOMEM;
	w->n++;
	return 0;
}

/* The OSDs that must hold the PG: up, then acting members outside it. */
static int targets(const struct cfs_pg_mapping *pg, int *t)
{
	int n = 0;

	for (int i = 0; i < pg->nup; i++)
		t[n++] = pg->up[i];
	for (int i = 0; i < pg->nacting; i++) {
		int dup = 0;

		for (int k = 0; k < pg->nup; k++)
			dup |= pg->up[k] == pg->acting[i];
		if (!dup)
			t[n++] = pg->acting[i];
	}
	return n;
}

/* How many copies the current map still needs (for progress). */
static uint64_t count_todo(objlayer *ol, const cfs_osdmap *m, int64_t pool,
			   uint32_t pg_num)
{
	uint64_t todo = 0;

	for (uint32_t ps = 0; ps < pg_num; ps++) {
		const struct cfs_pg_mapping *pg =
			cfs_osdmap_pool_pg(m, pool, ps);
		int h[256], nh, tg[CFS_MAX_REP * 2], ntg = targets(pg, tg);
		size_t all = (size_t)-1;

		cfs_pg_lock(ol->c, pool, ps);
		nh = cfs_pg_holders(ol->c, pool, ps, h, 256);
		for (int i = 0; nh && i < ntg; i++) {
			int t = tg[i];

			if (cfs_pg_is_holder(ol->c, pool, ps, t)) {
				todo += cfs_pg_missing_count(ol->c, pool, ps, t);
			} else {
				if (all == (size_t)-1) {
					char **names;
					size_t n;

					all = 0;
					if (!ol_pg_all_names(ol, pool, ps, &names,
							     &n)) {
						all = n;
						ol_names_free(names, n);
					}
				}
				todo += all;
			}
		}
		cfs_pg_unlock(ol->c, pool, ps);
	}
	return todo;
}

/* Delete the copies held by OSDs the PG left, once its acting set is its
 * up set (no pg_temp), complete and full-sized.  Returns 1 if strays were
 * removed. */
static int purge_strays(objlayer *ol, int64_t pool, uint32_t ps,
			struct ol_rebalance_stats *st)
{
	cfs_cluster *c = ol->c;
	const cfs_osdmap *m;
	const struct cfs_pool_info *pi;
	const struct cfs_pg_mapping *pg;
	int h[256], nh, ok, r = 0, did = 0;

	/* no I/O in flight here, and the map read under the lock: an op
	 * waiting for it reads the same map after it (objio op_lock), so
	 * none can write to an OSD emptied here */
	pthread_rwlock_wrlock(ol_pgio(ol, pool, ps));
	m = cfs_osdmap_get(c);
	pi = cfs_osdmap_pool_by_id(m, pool);
	pg = pi && ps < pi->pg_num ? cfs_osdmap_pool_pg(m, pool, ps) : NULL;
	if (!pi || !pg) {
		pthread_rwlock_unlock(ol_pgio(ol, pool, ps));
		cfs_osdmap_put(m);
		return 0;
	}
	cfs_pg_lock(c, pool, ps);
	ok = pg->nacting == pi->size && pg->nup == pg->nacting &&
	     !memcmp(pg->up, pg->acting, sizeof(int) * (size_t)pg->nup);
	for (int i = 0; ok && i < pg->nacting; i++)
		ok = cfs_pg_is_holder(c, pool, ps, pg->acting[i]) &&
		     cfs_pg_missing_count(c, pool, ps, pg->acting[i]) == 0;
	nh = ok ? cfs_pg_holders(c, pool, ps, h, 256) : 0;
	for (int i = 0; i < nh && !r; i++) {
		struct cfs_obj_entry *e;
		size_t ne;
		int in = 0;

		for (int k = 0; k < pg->nacting; k++)
			in |= pg->acting[k] == h[i];
		if (in || !cfs_osdmap_is_up(m, h[i]))
			continue;
		r = cfs_pg_list(c, h[i], pool, ps, &e, &ne);
		if (r)
			break;
		for (size_t k = 0; k < ne && !r; k++) {
			r = cfs_obj_remove(c, h[i], pool, ps, e[k].name);
			if (!r) {
				st->objects_removed++;
				st->bytes_removed += e[k].size;
			}
		}
		cfs_obj_entries_free(e, ne);
		if (!r)
			r = cfs_pg_drop_holder(c, pool, ps, h[i]);
		did = 1;
	}
	if (r) {
		st->errors++;
		cfs_log(CFS_LOG_ERR, "rebalance: pg %lld.%x: removing old "
			"copies failed: %s",
			(long long)pool, ps, cfs_strerror(r));
	}
	cfs_pg_unlock(c, pool, ps);
	pthread_rwlock_unlock(ol_pgio(ol, pool, ps));
	cfs_osdmap_put(m);
	return did;
}

void ol_note_toofull(objlayer *ol, int64_t pool, uint32_t ps, int osd,
		     uint64_t bytes)
{
	pthread_mutex_lock(&ol->rec_lock);
	for (int i = 0; i < ol->ntf; i++)
		if (ol->tf[i].pool == pool && ol->tf[i].ps == ps) {
			pthread_mutex_unlock(&ol->rec_lock);
			return; /* one target names the PG */
		}
	if (ol->ntf == ol->captf) {
		int nc = ol->captf ? ol->captf * 2 : 16;
		struct cfs_toofull *v =
			realloc(ol->tf, sizeof(*v) * (size_t)nc);

		if (!v) { /* only the display loses it */
			pthread_mutex_unlock(&ol->rec_lock);
			return;
		}
		ol->tf = v;
		ol->captf = nc;
	}
	ol->tf[ol->ntf++] = (struct cfs_toofull){ pool, ps, osd, bytes };
	pthread_mutex_unlock(&ol->rec_lock);
}

/* The caller's progress, and the one `status` shows (Ceph's "io:
 * recovery" line) while this rebalance runs. */
static void publish(objlayer *ol, const struct ol_rebalance_progress *pr,
		    void (*progress)(const struct ol_rebalance_progress *p,
				     void *arg),
		    void *arg)
{
	pthread_mutex_lock(&ol->rec_lock);
	ol->rec = *pr;
	pthread_mutex_unlock(&ol->rec_lock);
	if (progress)
		progress(pr, arg);
}

int ol_recovery_progress(objlayer *ol, struct ol_rebalance_progress *p,
			 double *seconds)
{
	struct timespec now;
	int active;

	clock_gettime(CLOCK_MONOTONIC, &now);
	pthread_mutex_lock(&ol->rec_lock);
	active = ol->rec_active > 0;
	if (active) {
		*p = ol->rec;
		*seconds = (double)(now.tv_sec - ol->rec_start.tv_sec) +
			   (double)(now.tv_nsec - ol->rec_start.tv_nsec) / 1e9;
	}
	pthread_mutex_unlock(&ol->rec_lock);
	return active;
}

static void recovery_begin(objlayer *ol)
{
	pthread_mutex_lock(&ol->rec_lock);
	if (ol->rec_active++ == 0) {
		memset(&ol->rec, 0, sizeof(ol->rec));
		clock_gettime(CLOCK_MONOTONIC, &ol->rec_start);
	}
	pthread_mutex_unlock(&ol->rec_lock);
}

static void recovery_end(objlayer *ol)
{
	pthread_mutex_lock(&ol->rec_lock);
	ol->rec_active--;
	pthread_mutex_unlock(&ol->rec_lock);
}

static int rebalance(objlayer *ol, struct ol_rebalance_stats *st,
		     void (*progress)(const struct ol_rebalance_progress *p,
				      void *arg),
		     void *arg);

int ol_backfill(objlayer *ol, struct ol_rebalance_stats *st,
		void (*progress)(const struct ol_rebalance_progress *p,
				 void *arg),
		void *arg)
{
	int r;

	memset(st, 0, sizeof(*st));
	if (cfs_cluster_rdonly(ol->c))
		return -EROFS;
	recovery_begin(ol);
	/* PG by PG: no pg_num change meanwhile */
	cfs_pg_layout_shared(ol->c);
	/* Writes during a round leave the OSDs it filled missing what they
	 * changed, and an op begun before the acting sets moved keeps the
	 * old ones: a PG a round could not finish is taken up by the next,
	 * until a round has nothing to do (Ceph's recovery never stops
	 * while a PG is not clean) */
	for (int round = 0; round < OL_REBALANCE_ROUNDS; round++) {
		struct ol_rebalance_stats one;

		memset(&one, 0, sizeof(one));
		pthread_mutex_lock(&ol->rec_lock);
		ol->ntf = 0;
		pthread_mutex_unlock(&ol->rec_lock);
		r = rebalance(ol, &one, progress, arg);
		st->objects_copied += one.objects_copied;
		st->bytes_copied += one.bytes_copied;
		st->objects_removed += one.objects_removed;
		st->bytes_removed += one.bytes_removed;
		if (round == 0)
			st->pgs_changed = one.pgs_changed;
		st->pgs_toofull = one.pgs_toofull;
		st->pgs_blocked = one.pgs_blocked;
		st->pgs_norebalance = one.pgs_norebalance;
		st->pgs_nobackfill = one.pgs_nobackfill;
		st->pgs_norecover = one.pgs_norecover;
		st->errors = one.errors;
		if (r || one.errors || one.pgs_toofull || one.pgs_blocked ||
		    (!one.objects_copied && !one.objects_removed))
			break;
	}
	/* what this rebalance leaves backfill_toofull (pg ls, health) */
	if (!r) {
		int e;

		pthread_mutex_lock(&ol->rec_lock);
		e = cfs_toofull_set(ol->c, ol->tf, ol->ntf);
		pthread_mutex_unlock(&ol->rec_lock);
		if (e)
			cfs_log(CFS_LOG_WARN, "rebalance: recording the "
				"backfill_toofull PGs: %s", cfs_strerror(e));
	}
	cfs_pg_layout_release(ol->c);
	recovery_end(ol);
	return r;
}

static int rebalance(objlayer *ol, struct ol_rebalance_stats *st,
		 void (*progress)(const struct ol_rebalance_progress *p,
				  void *arg),
		 void *arg)
{
	cfs_cluster *c = ol->c;
	struct ol_rebalance_progress pr = { 0 };
	const cfs_osdmap *m0 = cfs_osdmap_get(c);
	int npools = cfs_osdmap_npools(m0), rc = 0;
	/* the replicated pools (the erasure ones, after) */
	int64_t *pools = calloc((size_t)npools + 1, sizeof(*pools));
	uint32_t *pgn = calloc((size_t)npools + 1, sizeof(*pgn));
	int64_t *epools = calloc((size_t)npools + 1, sizeof(*epools));
	uint32_t *epgn = calloc((size_t)npools + 1, sizeof(*epgn));
	int np = 0, ne = 0;

	if (!pools || !pgn || !epools || !epgn) {
		free(pools);
		free(pgn);
		free(epools);
		free(epgn);
		cfs_osdmap_put(m0);
		return -ENOMEM;
	}
	for (int i = 0; i < npools; i++) {
		const struct cfs_pool_info *pi = cfs_osdmap_pool_at(m0, i);

		if (pi->erasure) {
			epools[ne] = pi->id;
			epgn[ne++] = pi->pg_num;
			continue;
		}
		pools[np] = pi->id;
		pgn[np++] = pi->pg_num;
		pr.pg_num += pi->pg_num;
		pr.objects_todo += count_todo(ol, m0, pi->id, pi->pg_num);
	}
	cfs_osdmap_put(m0);
	publish(ol, &pr, progress, arg);

	for (int pi = 0; pi < np && !rc; pi++) {
	int64_t pool = pools[pi];

	for (uint32_t ps = 0; ps < pgn[pi] && !rc; ps++) {
		const cfs_osdmap *m = cfs_osdmap_get(c);
		const struct cfs_pg_mapping *pg =
			cfs_osdmap_pool_pg(m, pool, ps);

		if (!pg) { /* the pool went meanwhile */
			cfs_osdmap_put(m);
			break;
		}
		struct worklist w = { 0 };
		int toofull[CFS_MAX_REP * 2] = { 0 }, blocked = 0, errors = 0;
		int nh, h[256], changed = 0, round, held = 0;
		int tg[CFS_MAX_REP * 2], ntg = targets(pg, tg);
		uint32_t deferred[CFS_MAX_REP * 2] = { 0 };

		ol_defer_targets(ol, m, pool, ps, tg, ntg, deferred);
		pthread_rwlock_rdlock(ol_pgio(ol, pool, ps));
		cfs_pg_lock(c, pool, ps);
		nh = cfs_pg_holders(c, pool, ps, h, 256);
		for (int i = 0; nh && i < ntg && !rc; i++) {
			if (!cfs_pg_is_holder(c, pool, ps, tg[i]))
				changed = 1;
			if (deferred[i]) {
				held |= (int)deferred[i];
				continue;
			}
			rc = ol_ensure_holder(ol, pool, ps, tg[i]);
			w.t = i;
			if (!rc)
				rc = cfs_pg_missing_foreach(c, pool, ps, tg[i],
							    collect, &w);
		}
		for (int i = 0; i < nh; i++) {
			int in = 0;

			for (int k = 0; k < ntg; k++)
				in |= tg[k] == h[i];
			if (!in && cfs_osdmap_is_up(m, h[i]))
				changed = 1;
		}
		if (pg->nup != pg->nacting ||
		    memcmp(pg->up, pg->acting, sizeof(int) * (size_t)pg->nup))
			changed = 1;
		cfs_pg_unlock(c, pool, ps);
		if (w.n || changed || held)
			st->pgs_changed++;

		round = 0;
again:
		for (size_t k = 0; k < w.n && !rc; k++) {
			int ti = w.v[k].t, t = tg[ti], nc, exists;
			int cand[CFS_MAX_REP + 256];
			const char *name = w.v[k].name;
			pthread_rwlock_t *lk = ol_objlock(ol, name);
			uint64_t cur = 0, bytes = 0;
			struct cfs_objinfo oi;
			struct objop op;
			cfs_obj *o;
			int r = 0;

			if (toofull[ti])
				continue;
			/* the locks in objio's order: the op (layout gate),
			 * the object, then the PG state */
			if (ol_op_begin(ol, pool, name, &op))
				continue; /* the pool went meanwhile */
			pthread_rwlock_wrlock(lk);
			cfs_pg_lock(c, pool, ps);
			if (!cfs_pg_is_missing(c, pool, ps, t, name)) {
				cfs_pg_unlock(c, pool, ps);
				pthread_rwlock_unlock(lk);
				ol_op_end(&op);
				continue; /* a write brought it up to date */
			}
			nc = ol_candidates(ol, &op, name, cand);
			cfs_pg_unlock(c, pool, ps);
			/* the index says whether the object exists: a copy
			 * is rebuilt from a good one, or a stale one goes */
			exists = cfs_index_get(c, pool, name, &oi) == 0;
			if (exists && nc == 0) {
				blocked = 1;
				ol_op_end(&op);
				pthread_rwlock_unlock(lk);
				continue;
			}
			if (cfs_obj_open(c, t, pool, ps, name, 0, &o) == 0) {
				cur = cfs_obj_size(o);
				cfs_obj_put(o);
			}
			if (exists) {
				uint64_t grow = oi.size > cur ? oi.size - cur : 0;

				r = cfs_osd_reserve(
					c, t, grow,
					cfs_osdmap_backfillfull_limit(m, t));
				if (r) {
					toofull[ti] = 1;
					ol_note_toofull(ol, pool, ps, t, grow);
					ol_op_end(&op);
					pthread_rwlock_unlock(lk);
					char why[256];

					cfs_osd_refusal_text(
						c, t,
						cfs_osdmap_backfillfull_limit(
							m, t),
						why, sizeof(why));
					cfs_log(CFS_LOG_INFO,
						"rebalance: osd.%d is "
						"backfillfull (%s), leaving "
						"pg %lld.%x",
						t, why, (long long)pool, ps);
					continue;
				}
				r = ol_recover_copy(ol, &op, name, &oi, t, cand,
						    nc);
				bytes = oi.size;
				cfs_osd_unreserve(c, t, grow);
			} else {
				r = cfs_obj_remove(c, t, pool, ps, name);
			}
			ol_op_end(&op);
			if (r) {
				errors = 1;
				cfs_log(CFS_LOG_ERR,
					"rebalance: pg %lld.%x: copying '%s' "
					"to osd.%d failed: %s",
					(long long)pool, ps,
					name, t, cfs_strerror(r));
			} else {
				cfs_pg_lock(c, pool, ps);
				cfs_pg_clear_missing_lazy(c, pool, ps, t,
							  name);
				cfs_pg_unlock(c, pool, ps);
				if (exists) {
					st->objects_copied++;
					st->bytes_copied += bytes;
				}
			}
			pthread_rwlock_unlock(lk);
			pr.objects_done++;
			pr.bytes_done += bytes;
			publish(ol, &pr, progress, arg);
		}
		/* writes to this PG while it was backfilled (the daemon's
		 * own, a backtrace, a client's) left its targets missing
		 * what they changed: a few more rounds, as Ceph's backfill
		 * keeps up with writes to objects it has passed */
		if (!rc && !errors && w.n && round++ < 3) {
			for (size_t k = 0; k < w.n; k++)
				free(w.v[k].name);
			w.n = 0;
			cfs_pg_lock(c, pool, ps);
			for (int i = 0; i < ntg && !rc; i++) {
				if (toofull[i] || deferred[i])
					continue;
				w.t = i;
				rc = cfs_pg_missing_foreach(c, pool, ps, tg[i],
							    collect, &w);
			}
			cfs_pg_unlock(c, pool, ps);
			if (w.n && !rc && !blocked) {
				pr.objects_todo += w.n;
				goto again;
			}
		}
		cfs_pg_lock(c, pool, ps);
		if (cfs_pg_flush(c, pool, ps))
			errors = 1;
		cfs_pg_unlock(c, pool, ps);
		pthread_rwlock_unlock(ol_pgio(ol, pool, ps));
		for (size_t k = 0; k < w.n; k++)
			free(w.v[k].name);
		free(w.v);

		for (int i = 0; i < CFS_MAX_REP * 2; i++)
			if (toofull[i]) {
				st->pgs_toofull++;
				break;
			}
		if (blocked)
			st->pgs_blocked++;
		ol_count_held(st, (uint32_t)held);
		if (errors)
			st->errors++;
		cfs_osdmap_put(m);
		pr.pg++;
		publish(ol, &pr, progress, arg);
	}
	}
	/* the erasure pools, shard by shard, before the acting sets are
	 * chosen again (their pg_temp keeps each shard where it is until
	 * up[i] has it: PeeringState::calc_ec_acting) */
	for (int pi = 0; pi < ne && !rc; pi++)
		for (uint32_t ps = 0; ps < epgn[pi]; ps++) {
			uint32_t held = ol_ec_held(ol, epools[pi], ps);

			ol_count_held(st, held);
			if (!held)
				rc = ec_backfill_pg(ol, epools[pi], ps, st);
		}
	/* the up sets are complete where backfill went through: the
	 * primaries drop their pg_temp (one epoch for them all), and only
	 * then may the copies outside the new acting sets go */
	if (!rc) {
		int changed, r = cfs_pg_temp_refresh(c, &changed);

		if (r) {
			st->errors++;
			cfs_log(CFS_LOG_ERR,
				"rebalance: choosing the acting sets failed: %s",
				cfs_strerror(r));
			rc = 0;
			np = ne = 0; /* no acting set is sure: nothing goes */
		}
	}
	for (int pi = 0; pi < np && !rc; pi++)
		for (uint32_t ps = 0; ps < pgn[pi]; ps++)
			purge_strays(ol, pools[pi], ps, st);
	for (int pi = 0; pi < ne && !rc; pi++)
		for (uint32_t ps = 0; ps < epgn[pi]; ps++)
			ec_purge_pg(ol, epools[pi], ps, st);
	free(pools);
	free(pgn);
	free(epools);
	free(epgn);
	return rc;
}
