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
 * spreading the new PGs is then `osd pool set pgp_num`, an ordinary map
 * change that backfill (rebalance) follows.
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
		if (!touched[np] && mkdirat(s->dirfd, dst, 0755) < 0 &&
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

int pgsplit_check_clean(cfs_cluster *c, const struct cfs_osdmap *m,
			const struct pool_ovr *o, char *why, size_t whylen)
{
	int64_t pool = o->info->id;
	int width = o->info->erasure ? o->info->size : 0;

	(void)m;
	if (*o->ntemps) {
		snprintf(why, whylen, "%d PG(s) are remapped: run rebalance "
			 "first (pg_num changes on a clean pool)", *o->ntemps);
		return -EBUSY;
	}
	for (uint32_t ps = 0; ps < o->info->pg_num; ps++) {
		int ok = 1;

		for (int sh = width ? 0 : -1; ok && sh < width; sh++)
			ok = held_clean(c, pool, &o->pgs[ps], ps, sh, width);
		if (!ok) {
			snprintf(why, whylen, "pg %lld.%x is not clean (copies "
				 "off its acting set, or missing): run "
				 "rebalance first (pg_num changes on a clean "
				 "pool)",
				 (long long)pool, ps);
			return -EBUSY;
		}
	}
	return 0;
}

/* A merge's source q goes into target p: Ceph waits until they are on
 * the same OSDs (pgp_num lowered, backfill done). */
int pgsplit_check_colocated(const struct pool_ovr *o, uint32_t to,
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
				 "%lld.%x on other OSDs: set pgp_num to %u "
				 "and rebalance first",
				 (long long)o->info->id, q,
				 (long long)o->info->id, p, to);
			return -EBUSY;
		}
	}
	return 0;
}
