/*
 * pgsplit.c - pg_num changes: PG split and merge, as Ceph 16.2 does them.
 *
 * An object's PG is stable_mod(hash, pg_num): a split moves into each new
 * child PG the objects whose hash now selects it, a merge moves a source
 * PG's objects into its target.  Both happen where the data is: the child
 * is born on its parent's OSDs (with pgp_num unchanged its placement seed
 * is the parent's, stable_mod(ps, pgp_num)), and Ceph merges only PGs that
 * are clean and co-located (pgp_num lowered first, backfill done).  So a
 * change is a rename of object files between PG folders of the same OSD;
 * spreading the new PGs is then pgp_num's move to pgp_num_target, which
 * rebalance makes step by step (adjust_pgs.c), each step an ordinary map
 * change that backfill follows.  The command sets the targets in the same
 * epoch as the change (cfs_pool_set_pg_num); rebalance's own splits and
 * merges towards them leave them be (cfs_pool_step_pg_num).
 *
 * Crash safety: the new pg_num is committed first with a marker
 * (pg_num_change_from in cluster.json), then the files move, the folders
 * are fsynced, and the marker goes.  A crash in between leaves the marker:
 * the next open (for writing) moves whatever is still in an old folder -
 * renames are atomic, and an object not yet moved is found where it was.
 *
 * crushfs changes pg_num on a clean cluster, mounted or not: a running
 * daemon holds I/O off with the PG layout gate while the files move and
 * then resizes its per-PG state (objlayer's ol_set_pg_num).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "osdsim_i.h"
#include "placement.h"
#include "util.h"

/* A PG's folder: "P.PS_head", or an erasure pool's shard folder
 * "P.PSsI_head" (shard >= 0). */
static void folder(int64_t pool, uint32_t ps, int shard, char *buf,
		   size_t len)
{
	if (shard < 0)
		pg_dirname(pool, ps, buf, len);
	else
		snprintf(buf, len, "%lld.%xs%d_head", (long long)pool, ps,
			 shard);
}

/* fsync a PG folder of an OSD (the renames into or out of it). */
static int sync_folder(struct osd_store *s, int64_t pool, uint32_t ps,
		       int shard)
{
	char pgd[64];
	int fd, r = 0;

	folder(pool, ps, shard, pgd, sizeof(pgd));
	fd = openat(s->dirfd, pgd, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	if (fsync(fd) < 0)
		r = -errno;
	close(fd);
	return r;
}

/* Move the objects of folder ps on one OSD that pg_num `to` places in
 * another PG (their folder made when missing); touched[] marks the PG
 * folders that changed. */
static int move_folder(cfs_cluster *c, struct osd_store *s, int64_t pool,
		       uint32_t ps, int shard, int width, uint32_t to,
		       unsigned char *touched)
{
	char pgd[64], dst[64 + 256 + 2];
	struct dirent *de;
	int r = 0;
	DIR *d;

	folder(pool, ps, shard, pgd, sizeof(pgd));
	d = cfs_opendirat(s->dirfd, pgd, &r);
	if (!d)
		return r == -ENOENT ? 0 : r;
	while ((de = readdir(d)) != NULL) {
		char name[256];
		uint32_t np;
		int n;

		if (de->d_name[0] == '.' ||
		    obj_unescape(de->d_name, name, sizeof(name)))
			continue;
		np = pl_pg_seed(pl_object_ps(name, strlen(name)), to);
		if (np == ps)
			continue;
		folder(pool, np, shard, dst, sizeof(dst));
		n = (int)strlen(dst);
		if (!touched[np] && mkdirat(s->dirfd, dst, CFS_DIR_MODE) < 0 &&
		    errno != EEXIST) {
			r = -errno;
			break;
		}
		touched[np] = touched[ps] = 1;
		snprintf(dst + n, sizeof(dst) - (size_t)n, "/%s", de->d_name);
		if (renameat(dirfd(d), de->d_name, s->dirfd, dst) < 0) {
			r = -errno;
			break;
		}
		fdcache_forget(c->fdc, s->id, pool,
			       shard < 0 ? ps : cfs_shard_ps(ps, width, shard),
			       name);
	}
	closedir(d);
	return r;
}

int pgsplit_finish(cfs_cluster *c, const struct cfs_osdmap *m, int64_t pool,
		   uint32_t from, uint32_t to)
{
	const struct cfs_pool_info *pi = cfs_osdmap_pool_by_id(m, pool);
	int width = pi && pi->erasure ? pi->size : 0;
	uint32_t most = from > to ? from : to;
	unsigned char *touched = calloc(most, 1);
	int r = 0;

	if (!touched)
		return -ENOMEM;
	for (int osd = 0; osd < m->max_osd && !r; osd++) {
		struct osd_store *s = store_get(c, osd);

		if (!m->osds[osd].exists || !s)
			continue;
		/* a replicated pool's PG folders, or each shard's */
		for (int sh = width ? 0 : -1; sh < width && !r; sh++) {
			memset(touched, 0, most);
			for (uint32_t ps = 0; ps < most && !r; ps++)
				r = move_folder(c, s, pool, ps, sh, width, to,
						touched);
			/* the renames are durable before the marker goes */
			for (uint32_t ps = 0; ps < most && !r; ps++)
				if (touched[ps])
					r = sync_folder(s, pool, ps, sh);
			/* a merge's sources are empty now */
			for (uint32_t ps = to; ps < from && !r; ps++) {
				char pgd[64];

				folder(pool, ps, sh, pgd, sizeof(pgd));
				if (unlinkat(s->dirfd, pgd, AT_REMOVEDIR) < 0 &&
				    errno != ENOENT)
					cfs_log(CFS_LOG_WARN,
						"osd.%d: %s left (%s): not a "
						"PG of pg_num %u",
						osd, pgd, strerror(errno), to);
			}
		}
		if (!r && fsync(s->dirfd) < 0)
			r = -errno;
	}
	free(touched);
	return r;
}

/* Ceph changes pg_num on a clean pool (a merge needs its PGs co-located);
 * crushfs asks the same of a split: no pg_temp, every PG held exactly by
 * its acting set with nothing missing. */
/* Is PG ps (or, shard >= 0, its shard PG) held exactly by its acting
 * set (shard: acting[shard]) with nothing missing? */
static int held_clean(cfs_cluster *c, int64_t pool,
		      const struct cfs_pg_mapping *pg, uint32_t ps, int shard,
		      int width)
{
	uint32_t sps = shard < 0 ? ps : cfs_shard_ps(ps, width, shard);
	int h[256], nh, ok;

	cfs_pg_lock(c, pool, sps);
	nh = cfs_pg_holders(c, pool, sps, h, 256);
	if (shard < 0) {
		ok = nh == 0 || nh == pg->nacting;
		for (int i = 0; ok && i < nh; i++) {
			int in = 0;

			for (int k = 0; k < pg->nacting; k++)
				in |= pg->acting[k] == h[i];
			ok = in && cfs_pg_missing_count(c, pool, sps, h[i]) == 0;
		}
	} else {
		ok = nh == 0 ||
		     (nh == 1 && shard < pg->nacting &&
		      h[0] == pg->acting[shard] &&
		      cfs_pg_missing_count(c, pool, sps, h[0]) == 0);
	}
	cfs_pg_unlock(c, pool, sps);
	return ok;
}

static int pgsplit_check_clean(cfs_cluster *c, const struct cfs_osdmap *m,
			const struct pool_ovr *o, char *why, size_t whylen)
{
	int64_t pool = o->info->id;
	int width = o->info->erasure ? o->info->size : 0;

	(void)m;
	if (*o->ntemps) {
		snprintf(why, whylen, "%d PG(s) are remapped (pg_num changes "
			 "on a clean pool: rebalance backfills them first)",
			 *o->ntemps);
		return -EBUSY;
	}
	for (uint32_t ps = 0; ps < o->info->pg_num; ps++) {
		int ok = 1;

		for (int sh = width ? 0 : -1; ok && sh < width; sh++)
			ok = held_clean(c, pool, &o->pgs[ps], ps, sh, width);
		if (!ok) {
			snprintf(why, whylen, "pg %lld.%x is not clean (copies "
				 "off its acting set, or missing; pg_num "
				 "changes on a clean pool: rebalance backfills "
				 "it first)",
				 (long long)pool, ps);
			return -EBUSY;
		}
	}
	return 0;
}

/* A merge's source q goes into target p: Ceph waits until they are on
 * the same OSDs (pgp_num lowered, backfill done). */
static int pgsplit_check_colocated(const struct pool_ovr *o, uint32_t to,
			    char *why, size_t whylen)
{
	for (uint32_t q = to; q < o->info->pg_num; q++) {
		uint32_t p = pl_pg_seed(q, to);
		const struct cfs_pg_mapping *a = &o->pgs[q], *b = &o->pgs[p];
		int same = a->nacting == b->nacting;

		/* an erasure pool's shard i merges into shard i */
		for (int i = 0; same && o->info->erasure && i < a->nacting;
		     i++)
			same = a->acting[i] == b->acting[i];
		for (int i = 0; same && !o->info->erasure && i < a->nacting;
		     i++) {
			int in = 0;

			for (int k = 0; k < b->nacting; k++)
				in |= b->acting[k] == a->acting[i];
			same = in;
		}
		if (!same) {
			snprintf(why, whylen, "pg %lld.%x would merge into "
				 "%lld.%x on other OSDs: they must be "
				 "backfilled to the same ones first",
				 (long long)o->info->id, q,
				 (long long)o->info->id, p);
			return -EBUSY;
		}
	}
	return 0;
}

/* ---- the change itself, and its plan ---- */

/* The refusals of a pg_num change (OSDMonitor's range, then crushfs's
 * clean and co-located checks): 0, -EALREADY, or an error with why. */
static int pg_num_check(cfs_cluster *c, const struct cfs_osdmap *cur,
			int64_t pool, uint32_t pg_num, char *why,
			size_t whylen)
{
	struct pool_ovr o;
	uint32_t from;
	int r;

	if (pool_ovr((struct cfs_osdmap *)cur, pool, &o))
		return -ENOENT;
	from = o.info->pg_num;
	/* OSDMonitor: 'pg_num' must be greater than 0 and at most
	 * mon_max_pool_pg_num (65536) */
	if (pg_num == 0 || pg_num > 65536) {
		snprintf(why, whylen, "'pg_num' must be greater than 0 and "
			 "less than or equal to 65536");
		return -ERANGE;
	}
	r = pg_num == from ? -EALREADY : pgsplit_check_clean(c, cur, &o, why,
							     whylen);
	if (!r && pg_num < from) {
		if (o.info->pgp_num > pg_num) {
			snprintf(why, whylen, "pgp_num %u is above %u: Ceph "
				 "merges PGs once pgp_num is lowered and they "
				 "are on the same OSDs", o.info->pgp_num,
				 pg_num);
			r = -EBUSY;
		} else {
			r = pgsplit_check_colocated(&o, pg_num, why, whylen);
		}
	}
	return r;
}

struct refile {
	uint32_t from, from_mask, to, to_mask;
	struct cfs_pg_num_plan *plan;
};

static int count_refiled(const char *name, const struct cfs_objinfo *oi,
			 int op, void *arg)
{
	struct refile *f = arg;
	uint32_t h = pl_str_hash(name, strlen(name));

	(void)op;
	f->plan->objects++;
	f->plan->bytes += oi->size;
	if (pl_stable_mod(h, f->from, f->from_mask) !=
	    pl_stable_mod(h, f->to, f->to_mask)) {
		f->plan->refiled++;
		f->plan->refiled_bytes += oi->size;
	}
	return 0;
}

int cfs_pool_pg_num_plan(cfs_cluster *c, int64_t pool, uint32_t pg_num,
			 struct cfs_pg_num_plan *plan, char *why,
			 size_t whylen)
{
	const cfs_osdmap *cur = cfs_osdmap_get(c);
	const struct cfs_pool_info *p = cfs_osdmap_pool_by_id(cur, pool);
	struct refile f;
	int r;

	memset(plan, 0, sizeof(*plan));
	if (!p) {
		cfs_osdmap_put(cur);
		return -ENOENT;
	}
	plan->from = p->pg_num;
	plan->to = pg_num;
	r = pg_num_check(c, cur, pool, pg_num, why, whylen);
	/* a change that waits (-EBUSY: rebalance makes it later) re-files
	 * the same objects then */
	if (!r || r == -EBUSY) {
		int e;

		f = (struct refile){ plan->from, pl_pg_mask(plan->from),
				     pg_num, pl_pg_mask(pg_num), plan };
		e = cfs_index_foreach(c, pool, "", 0, count_refiled, &f);
		if (e)
			r = e;
	}
	cfs_osdmap_put(cur);
	return r;
}

/* The change; command: `osd pool set pg_num`, which sets the targets too
 * (else one of rebalance's steps towards them). */
static int change_pg_num(cfs_cluster *c, int64_t pool, uint32_t pg_num,
			 int command, char *why, size_t whylen)
{
	struct cfs_osdmap *n;
	struct pool_ovr o;
	uint32_t from;
	int r;

	if (osdmap_dry_run()) { /* cfs_pool_pg_num_plan says what it would do */
		snprintf(why, whylen, "a pg_num change has no dry run here");
		return -EINVAL;
	}
	r = osdmap_update_begin(c, &n);
	if (r)
		return r;
	if (pool_ovr(n, pool, &o)) {
		osdmap_update_abort(c, n);
		return -ENOENT;
	}
	from = o.info->pg_num;
	r = pg_num_check(c, c->cur, pool, pg_num, why, whylen);
	if (r) {
		osdmap_update_abort(c, n);
		return r;
	}
	/* n is this change's own copy */
	{
		struct cfs_pool_info *p = (struct cfs_pool_info *)o.info;

		p->pg_num = pg_num;
		/* OSDMonitor::prepare_command_pool_set: pgp_num_target
		 * follows pg_num_target when it was equal to it */
		if (command && p->pg_num_target == p->pgp_num_target)
			p->pgp_num_target = pg_num;
		if (command)
			p->pg_num_target = pg_num;
	}
	*o.pg_num_from = from;
	for (int i = 0; i < *o.nupmaps; i++)
		if ((*o.upmaps)[i].ps >= pg_num)
			(*o.upmaps)[i].n = (*o.upmaps)[i].nitems = 0;
	upmap_compact_ovr(&o);
	n->epoch = c->cur->epoch + 1;
	n->modified = time(NULL);
	/* the new pg_num with its marker on disk first (a crash from here
	 * on is finished by the next open), then the files, then the state
	 * in memory; map changes wait (update_lock) and the caller holds
	 * I/O off (the PG layout gate) */
	r = osdmap_canon_crush(n);
	if (!r)
		r = osdmap_finish(n);
	if (!r)
		r = osdmap_persist(c->dir, n);
	if (r) {
		snprintf(why, whylen, "writing the new map: %s",
			 cfs_strerror(r));
		osdmap_persist(c->dir, c->cur);
		osdmap_update_abort(c, n);
		return r;
	}
	r = pgsplit_finish(c, n, pool, from, pg_num);
	if (r) {
		/* put back what moved, and the map as it was */
		int back = pgsplit_finish(c, c->cur, pool, pg_num, from);

		if (!back)
			back = osdmap_persist(c->dir, c->cur);
		snprintf(why, whylen, "moving objects from pg_num %u to %u: "
			 "%s%s", from, pg_num, cfs_strerror(r),
			 back ? "; could not put them back either: the next "
				"open finishes the change" : "; nothing changed");
		if (back)
			c->rdonly = 1; /* no writes on a half-moved layout */
		osdmap_update_abort(c, n);
		return r;
	}
	/* the per-PG state follows (the pool was clean: nothing is lost) */
	r = pgstate_reload(c, pool, pg_num, why, whylen);
	pool_ovr(n, pool, &o);
	*o.pg_num_from = 0;
	if (!r)
		r = osdmap_persist(c->dir, n);
	if (r) {
		/* the files are where the new map wants them, and the marker
		 * on disk says so: the next open settles it */
		c->rdonly = 1;
		osdmap_update_abort(c, n);
		return r;
	}
	osdmap_install(c, n);
	pthread_mutex_unlock(&c->update_lock);
	/* A child is born on its parent's OSDs, but its up set is CRUSH's
	 * for its seed, without the parent's upmap entries: its primary
	 * asks for a pg_temp where the copies are, as after any map change
	 * (PeeringState::choose_acting on the child's first epoch).  The
	 * caller still holds I/O off, so no op sees the epoch before. */
	{
		int changed;

		r = cfs_pg_temp_refresh(c, &changed);
		if (r)
			snprintf(why, whylen, "choosing the new PGs' acting "
				 "sets: %s", cfs_strerror(r));
	}
	return r;
}

int cfs_pool_set_pg_num(cfs_cluster *c, int64_t pool, uint32_t pg_num,
			char *why, size_t whylen)
{
	return change_pg_num(c, pool, pg_num, 1, why, whylen);
}

int cfs_pool_step_pg_num(cfs_cluster *c, int64_t pool, uint32_t pg_num,
			 char *why, size_t whylen)
{
	return change_pg_num(c, pool, pg_num, 0, why, whylen);
}

/* One pool's interrupted change, finished. */
static int settle_pool(cfs_cluster *c, int64_t pool, char *why,
		       size_t whylen)
{
	struct cfs_osdmap *n;
	struct pool_ovr o;
	uint32_t from, to;
	int r;

	if (pool_ovr(c->cur, pool, &o))
		return 0;
	from = *o.pg_num_from;
	to = o.info->pg_num;
	r = pgsplit_finish(c, c->cur, pool, from, to);
	if (r) {
		snprintf(why, whylen, "pool %lld: moving objects from pg_num "
			 "%u to %u: %s (the next write command finishes it)",
			 (long long)pool, from, to, cfs_strerror(r));
		return r;
	}
	/* the per-PG state follows the new pg_num (the pool was clean, so
	 * nothing of it is lost); map changes, which choose pg_temp from
	 * it, wait meanwhile */
	pthread_mutex_lock(&c->update_lock);
	r = pgstate_reload(c, pool, to, why, whylen);
	pthread_mutex_unlock(&c->update_lock);
	if (r)
		return r;
	r = osdmap_update_begin(c, &n);
	if (r)
		return r;
	if (!pool_ovr(n, pool, &o))
		*o.pg_num_from = 0;
	return osdmap_update_commit(c, n);
}

int pgsplit_settle(cfs_cluster *c, char *why, size_t whylen)
{
	int r = 0;

	for (int i = 0; !r && i < cfs_osdmap_npools(c->cur); i++) {
		struct pool_ovr o;
		int64_t id = cfs_osdmap_pool_at(c->cur, i)->id;

		if (!pool_ovr(c->cur, id, &o) && *o.pg_num_from)
			r = settle_pool(c, id, why, whylen);
	}
	return r;
}

/* 1 when some pool's pg_num change was cut short (its pool, from, to). */
int pgsplit_pending(const struct cfs_osdmap *m, int64_t *pool,
		    uint32_t *from, uint32_t *to)
{
	for (int i = 0; i < cfs_osdmap_npools(m); i++) {
		struct pool_ovr o;
		int64_t id = cfs_osdmap_pool_at(m, i)->id;

		if (!pool_ovr((struct cfs_osdmap *)m, id, &o) &&
		    *o.pg_num_from) {
			*pool = id;
			*from = *o.pg_num_from;
			*to = o.info->pg_num;
			return 1;
		}
	}
	return 0;
}
