/*
 * pgstate.c - who holds each PG and what each holder misses: the part of
 * Ceph's peering state (pg_info_t / pg_missing_t) the simulation needs so
 * that a copy which missed a write is never served, and so that rebalance
 * knows what to copy.
 *
 * Holders are derived from the disk (an OSD holds PG p when it has p's
 * folder), so only missing sets are persisted: DIR/pgstate/<pgid>.json,
 * {"missing": {"<osd>": ["name", ...]}}, present only while some set is
 * non-empty.  Every change is written atomically before the call returns,
 * and callers change missing sets before the data they describe.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "osdsim_i.h"
#include "util.h"

/* ---- sorted name sets ---- */

int nameset_find(const struct name_set *s, const char *name, size_t *pos)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(s->v[mid], name);

		if (c == 0) {
			if (pos)
				*pos = mid;
			return 1;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (pos)
		*pos = lo;
	return 0;
}

int nameset_add(struct name_set *s, const char *name)
{
	size_t pos;
	char *copy;

	if (nameset_find(s, name, &pos))
		return 0;
	if (s->n == s->cap) {
		size_t nc = s->cap ? s->cap * 2 : 8;
		char **nv = realloc(s->v, nc * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		s->v = nv;
		s->cap = nc;
	}
	copy = strdup(name);
	if (!copy)
		return -ENOMEM;
	memmove(s->v + pos + 1, s->v + pos, (s->n - pos) * sizeof(*s->v));
	s->v[pos] = copy;
	s->n++;
	return 1;
}

int nameset_del(struct name_set *s, const char *name)
{
	size_t pos;

	if (!nameset_find(s, name, &pos))
		return 0;
	free(s->v[pos]);
	memmove(s->v + pos, s->v + pos + 1, (s->n - pos - 1) * sizeof(*s->v));
	s->n--;
	return 1;
}

void nameset_free(struct name_set *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	s->v = NULL;
	s->n = s->cap = 0;
}

/* ---- state ---- */

static void pgs_free(struct pg_state *pgs, uint32_t pg_num)
{
	if (!pgs)
		return;
	for (uint32_t i = 0; i < pg_num; i++) {
		struct pg_state *p = &pgs[i];

		for (int k = 0; k < p->nh; k++) {
			nameset_free(&p->h[k].missing);
			nameset_free(&p->h[k].damaged);
		}
		free(p->h);
		pthread_mutex_destroy(&p->lock);
	}
	free(pgs);
}

static struct pg_state *pgs_alloc(uint32_t pg_num)
{
	struct pg_state *pgs = calloc(pg_num ? pg_num : 1, sizeof(*pgs));

	if (!pgs)
		return NULL;
	for (uint32_t i = 0; i < pg_num; i++)
		pthread_mutex_init(&pgs[i].lock, NULL);
	return pgs;
}

struct pool_pgs *pgstate_pool(cfs_cluster *c, int64_t pool)
{
	int n = atomic_load(&c->npp);

	for (int i = 0; i < n; i++) {
		struct pool_pgs *pp = atomic_load(&c->pp[i]);

		if (pp->pool == pool)
			return pp;
	}
	return NULL;
}

/* The PG's state; a PG of no pool with state (a caller's bad seed, a
 * pool just removed) reads as one without holders, its lock real. */
static struct pg_state *pgst(cfs_cluster *c, int64_t pool, uint32_t ps)
{
	struct pool_pgs *pp = pgstate_pool(c, pool);

	if (!pp || ps >= pp->npgs)
		return &c->nopg;
	return &pp->pgs[ps];
}

void pgstate_free(cfs_cluster *c)
{
	int n = atomic_load(&c->npp);

	for (int i = 0; i < n; i++) {
		struct pool_pgs *pp = atomic_load(&c->pp[i]);

		pgs_free(pp->pgs, pp->npgs);
		free(pp);
		atomic_store(&c->pp[i], NULL);
	}
	atomic_store(&c->npp, 0);
}
static struct pg_holder *holder_find(struct pg_state *p, int osd)
{
	for (int k = 0; k < p->nh; k++)
		if (p->h[k].osd == osd)
			return &p->h[k];
	return NULL;
}

/* Insert keeping ascending osd order. */
static struct pg_holder *holder_insert(struct pg_state *p, int osd)
{
	struct pg_holder *h = holder_find(p, osd);
	int pos = 0;

	if (h)
		return h;
	if (p->nh == p->caph) {
		int nc = p->caph ? p->caph * 2 : 4;
		struct pg_holder *nh = realloc(p->h, sizeof(*nh) * (size_t)nc);

		if (!nh)
			return NULL;
		p->h = nh;
		p->caph = nc;
	}
	while (pos < p->nh && p->h[pos].osd < osd)
		pos++;
	memmove(p->h + pos + 1, p->h + pos,
		sizeof(*p->h) * (size_t)(p->nh - pos));
	memset(&p->h[pos], 0, sizeof(p->h[pos]));
	p->h[pos].osd = osd;
	p->nh++;
	return &p->h[pos];
}

static int pgstate_path(cfs_cluster *c, int64_t pool, uint32_t ps, char *buf,
			size_t len)
{
	char pgd[80];

	/* the PG folder's name, "_head" off: "1.1f", or a shard's "3.5s2" */
	pg_folder(c, pool, ps, pgd, sizeof(pgd));
	pgd[strlen(pgd) - 5] = '\0';
	return (size_t)snprintf(buf, len, "%s/pgstate/%s.json", c->dir, pgd) >=
			       len
		       ? -ENAMETOOLONG
		       : 0;
}

/* Write (or remove) DIR/pgstate/<pgid>.json from the in-memory state. */
static int pgstate_persist(cfs_cluster *c, int64_t pool, uint32_t ps)
{
	struct pg_state *p = pgst(c, pool, ps);
	char path[PATH_MAX], *text;
	json_t *root, *miss, *dmg, *bf;
	int any = 0, r;

	if (c->rdonly)
		return -EROFS;
	r = pgstate_path(c, pool, ps, path, sizeof(path));
	if (r)
		return r;
	root = json_object();
	miss = json_object();
	dmg = json_object();
	bf = json_array();
	if (!root || !miss || !dmg || !bf) {
		json_decref(root);
		json_decref(miss);
		json_decref(dmg);
		json_decref(bf);
		return -ENOMEM;
	}
	for (int k = 0; k < p->nh; k++) {
		json_t *arr;
		char key[16];

		snprintf(key, sizeof(key), "%d", p->h[k].osd);
		if (p->h[k].missing.n) {
			any = 1;
			arr = json_array();
			for (size_t i = 0; i < p->h[k].missing.n; i++)
				json_array_append_new(
					arr, json_string(p->h[k].missing.v[i]));
			json_object_set_new(miss, key, arr);
			if (p->h[k].backfill)
				json_array_append_new(
					bf, json_integer(p->h[k].osd));
		}
		if (p->h[k].damaged.n) {
			arr = json_array();
			for (size_t i = 0; i < p->h[k].damaged.n; i++)
				json_array_append_new(
					arr, json_string(p->h[k].damaged.v[i]));
			json_object_set_new(dmg, key, arr);
		}
	}
	json_object_set_new(root, "missing", miss);
	json_object_set_new(root, "damaged", dmg);
	json_object_set_new(root, "backfill", bf);
	p->dirty = 0;
	if (!any) {
		json_decref(root);
		if (unlink(path) < 0 && errno != ENOENT)
			return -errno;
		return 0;
	}
	text = json_dumps(root, JSON_INDENT(1) | JSON_SORT_KEYS);
	json_decref(root);
	if (!text)
		return -ENOMEM;
	{
		char d[PATH_MAX];

		snprintf(d, sizeof(d), "%s/pgstate", c->dir);
		r = cfs_mkdirs(d, CFS_DIR_MODE);
	}
	if (!r)
		r = cfs_write_atomic(path, text, strlen(text));
	free(text);
	return r;
}

static int load_sets(struct pg_state *p, json_t *obj, int damaged,
		     const char *path, char *err, size_t errlen)
{
	const char *key;
	json_t *arr;

	json_object_foreach(obj, key, arr)
	{
		char *end;
		long osd = strtol(key, &end, 10);
		struct pg_holder *h;
		size_t i;
		json_t *v;

		if (*end || osd < 0 || osd >= CFS_MAX_OSD ||
		    !json_is_array(arr)) {
			snprintf(err, errlen, "%s: bad entry '%s'", path, key);
			return CFS_ECORRUPT;
		}
		h = holder_find(p, (int)osd);
		if (!h)
			continue; /* folder gone: nothing to protect */
		json_array_foreach(arr, i, v)
		{
			if (!json_is_string(v))
				continue;
			if (nameset_add(damaged ? &h->damaged : &h->missing,
					json_string_value(v)) < 0)
				return -ENOMEM;
		}
	}
	return 0;
}

static int load_missing(struct pg_state *p, const char *path, char *err,
			size_t errlen)
{
	json_error_t je;
	json_t *root = json_load_file(path, 0, &je), *miss, *dmg, *bf, *v;
	size_t i;
	int r;

	if (!root) {
		json_error_line(err, errlen, path, je.line, je.column,
				je.text);
		return CFS_ECORRUPT;
	}
	miss = json_object_get(root, "missing");
	if (!json_is_object(miss)) {
		json_decref(root);
		snprintf(err, errlen, "%s: field 'missing' is missing", path);
		return CFS_ECORRUPT;
	}
	dmg = json_object_get(root, "damaged");
	r = load_sets(p, miss, 0, path, err, errlen);
	if (!r && json_is_object(dmg))
		r = load_sets(p, dmg, 1, path, err, errlen);
	/* written before backfill targets were told apart: none */
	bf = json_object_get(root, "backfill");
	if (!r && json_is_array(bf))
		json_array_foreach(bf, i, v) {
			struct pg_holder *h =
				json_is_integer(v) &&
						json_integer_value(v) >= 0 &&
						json_integer_value(v) < CFS_MAX_OSD
					? holder_find(p, (int)json_integer_value(v))
					: NULL;

			if (h && h->missing.n)
				h->backfill = 1;
		}
	json_decref(root);
	return r;
}

/* Holders from the OSD folders, missing sets from pgstate/: into pgs
 * (pg_num of them) for one pool, or (pool < 0) every pool with state. */
static int pgstate_load(cfs_cluster *c, int64_t only, char *err,
			size_t errlen)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d;
	int r;

	for (int osd = 0; osd < CFS_MAX_OSD; osd++) {
		struct osd_store *s = store_get(c, osd);

		if (!s)
			continue;
		d = cfs_opendirat(s->dirfd, ".", &r);
		if (!d)
			return r;
		while ((de = readdir(d)) != NULL) {
			struct pool_pgs *pp;
			int64_t pool;
			uint32_t ps;

			if (pg_folder_parse(c, de->d_name, &pool, &ps) ||
			    (only >= 0 && pool != only))
				continue;
			pp = pgstate_pool(c, pool);
			if (!pp || ps >= pp->npgs)
				continue;
			if (!holder_insert(&pp->pgs[ps], osd)) {
				closedir(d);
				return -ENOMEM;
			}
		}
		closedir(d);
	}
	snprintf(path, sizeof(path), "%s/pgstate", c->dir);
	d = opendir(path);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(d)) != NULL) {
		char pgid[64], file[PATH_MAX];
		size_t n = strlen(de->d_name);
		struct pool_pgs *pp;
		int64_t pool;
		uint32_t ps;

		if (de->d_name[0] == '.' || n < 6 || n > 40 ||
		    strcmp(de->d_name + n - 5, ".json"))
			continue;
		memcpy(pgid, de->d_name, n - 5);
		strcpy(pgid + n - 5, "_head");
		if (pg_folder_parse(c, pgid, &pool, &ps) ||
		    (only >= 0 && pool != only))
			continue;
		pp = pgstate_pool(c, pool);
		if (!pp || ps >= pp->npgs)
			continue;
		if (cfs_pathf(file, sizeof(file), "%s/%s", path, de->d_name))
			continue;
		r = load_missing(&pp->pgs[ps], file, err, errlen);
		if (r) {
			closedir(d);
			return r;
		}
	}
	closedir(d);
	return 0;
}

/* A new entry for pool at pg_num (width: k+m of an erasure pool, else
 * 0), published (c->pp_lock held). */
static int pool_add(cfs_cluster *c, int64_t pool, uint32_t pg_num, int width)
{
	int n = atomic_load(&c->npp);
	uint32_t npgs = width > 0 ? pg_num * (uint32_t)width : pg_num;
	struct pool_pgs *pp;

	if (n >= CFS_MAX_POOL_STATES)
		return -ENOSPC;
	pp = calloc(1, sizeof(*pp));
	if (!pp || !(pp->pgs = pgs_alloc(npgs))) {
		free(pp);
		return -ENOMEM;
	}
	pp->pool = pool;
	pp->pg_num = pg_num;
	pp->width = width;
	pp->npgs = npgs;
	atomic_store(&c->pp[n], pp);
	atomic_store(&c->npp, n + 1);
	return 0;
}

int pgstate_init(cfs_cluster *c, char *err, size_t errlen)
{
	const struct cfs_osdmap *m = c->cur;
	int r = pool_add(c, m->pool.id, m->pool.pg_num, 0);

	for (int i = 0; !r && i < m->nxpools; i++) {
		const struct cfs_pool_info *p = &m->xpools[i].info;

		r = pool_add(c, p->id, p->pg_num, p->erasure ? p->size : 0);
	}
	if (!r)
		r = pgstate_load(c, -1, err, errlen);
	return r;
}

int pgstate_reload(cfs_cluster *c, int64_t pool, uint32_t pg_num, char *err,
		   size_t errlen)
{
	struct pool_pgs *pp;
	int r = 0;

	pthread_mutex_lock(&c->pp_lock);
	pp = pgstate_pool(c, pool);
	if (!pp) {
		const struct cfs_pool_info *p =
			cfs_osdmap_pool_by_id(c->cur, pool);

		r = pool_add(c, pool, pg_num,
			     p && p->erasure ? p->size : 0);
	} else {
		/* the caller holds every PG user off (the layout gate) */
		uint32_t npgs = pp->width > 0 ? pg_num * (uint32_t)pp->width
					      : pg_num;
		struct pg_state *fresh = pgs_alloc(npgs);

		if (!fresh) {
			r = -ENOMEM;
		} else {
			pgs_free(pp->pgs, pp->npgs);
			pp->pgs = fresh;
			pp->pg_num = pg_num;
			pp->npgs = npgs;
		}
	}
	pthread_mutex_unlock(&c->pp_lock);
	if (!r)
		r = pgstate_load(c, pool, err, errlen);
	return r;
}

void pgstate_flush_all(cfs_cluster *c)
{
	int n = atomic_load(&c->npp);

	for (int i = 0; i < n; i++) {
		struct pool_pgs *pp = atomic_load(&c->pp[i]);

		for (uint32_t ps = 0; ps < pp->npgs; ps++)
			if (pp->pgs[ps].dirty &&
			    cfs_pg_flush(c, pp->pool, ps))
				cfs_log(CFS_LOG_WARN,
					"cannot write the state of pg %lld.%x",
					(long long)pp->pool, ps);
	}
}

/* ---- the API ---- */

void cfs_pg_lock(cfs_cluster *c, int64_t pool, uint32_t ps)
{
	pthread_mutex_lock(&pgst(c, pool, ps)->lock);
}

void cfs_pg_unlock(cfs_cluster *c, int64_t pool, uint32_t ps)
{
	pthread_mutex_unlock(&pgst(c, pool, ps)->lock);
}

int cfs_pg_holders(cfs_cluster *c, int64_t pool, uint32_t ps, int *osds, int max)
{
	struct pg_state *p = pgst(c, pool, ps);
	int n = 0;

	for (int k = 0; k < p->nh && n < max; k++)
		osds[n++] = p->h[k].osd;
	return n;
}

int cfs_pg_is_holder(cfs_cluster *c, int64_t pool, uint32_t ps, int osd)
{
	return holder_find(pgst(c, pool, ps), osd) != NULL;
}

int cfs_pg_add_holder(cfs_cluster *c, int64_t pool, uint32_t ps, int osd,
		      char *const *names, size_t n)
{
	struct pg_state *p = pgst(c, pool, ps);
	struct osd_store *s = store_get(c, osd);
	struct pg_holder *h;
	char pgd[64];
	int r;

	if (c->rdonly)
		return -EROFS;
	if (!s || p == &c->nopg)
		return -ENOENT;
	if (holder_find(p, osd))
		return 0;
	h = holder_insert(p, osd);
	if (!h)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		if (nameset_add(&h->missing, names[i]) < 0) {
			r = -ENOMEM;
			goto undo;
		}
	}
	/* the missing set is on disk before the folder exists */
	h->backfill = n > 0;
	if (n) {
		r = pgstate_persist(c, pool, ps);
		if (r)
			goto undo;
	}
	pg_folder(c, pool, ps, pgd, sizeof(pgd));
	/* not fsynced: a folder lost to a power loss held nothing durable,
	 * and its missing set (if any) was written first */
	if (mkdirat(s->dirfd, pgd, CFS_DIR_MODE) < 0 && errno != EEXIST) {
		r = -errno;
		goto undo;
	}
	return 0;
undo:
	nameset_free(&h->missing);
	nameset_free(&h->damaged);
	{
		int pos = (int)(h - p->h);

		memmove(p->h + pos, p->h + pos + 1,
			sizeof(*p->h) * (size_t)(p->nh - pos - 1));
		p->nh--;
	}
	if (n)
		pgstate_persist(c, pool, ps);
	return r;
}

int cfs_pg_drop_holder(cfs_cluster *c, int64_t pool, uint32_t ps, int osd)
{
	struct pg_state *p = pgst(c, pool, ps);
	struct pg_holder *h = holder_find(p, osd);
	int had, r, pos;

	if (!h)
		return 0;
	r = cfs_pg_remove_dir(c, osd, pool, ps);
	if (r)
		return r;
	had = h->missing.n > 0 || h->damaged.n > 0;
	nameset_free(&h->missing);
	nameset_free(&h->damaged);
	pos = (int)(h - p->h);
	memmove(p->h + pos, p->h + pos + 1,
		sizeof(*p->h) * (size_t)(p->nh - pos - 1));
	p->nh--;
	return had ? pgstate_persist(c, pool, ps) : 0;
}

int cfs_pg_is_missing(cfs_cluster *c, int64_t pool, uint32_t ps, int osd, const char *name)
{
	struct pg_holder *h = holder_find(pgst(c, pool, ps), osd);

	return h && h->missing.n && nameset_find(&h->missing, name, NULL);
}

size_t cfs_pg_missing_count(cfs_cluster *c, int64_t pool, uint32_t ps, int osd)
{
	struct pg_holder *h = holder_find(pgst(c, pool, ps), osd);

	return h ? h->missing.n : 0;
}

int cfs_pg_is_backfill(cfs_cluster *c, int64_t pool, uint32_t ps, int osd)
{
	struct pg_holder *h = holder_find(pgst(c, pool, ps), osd);

	return h && h->backfill && h->missing.n;
}

int cfs_pg_missing_foreach(cfs_cluster *c, int64_t pool, uint32_t ps, int osd,
			   int (*fn)(const char *name, void *arg), void *arg)
{
	struct pg_holder *h = holder_find(pgst(c, pool, ps), osd);

	if (!h)
		return 0;
	for (size_t i = 0; i < h->missing.n; i++) {
		int r = fn(h->missing.v[i], arg);

		if (r)
			return r;
	}
	return 0;
}

int cfs_pg_mark_missing(cfs_cluster *c, int64_t pool, uint32_t ps, int osd,
			const char *name)
{
	struct pg_holder *h = holder_find(pgst(c, pool, ps), osd);
	int r;

	if (!h)
		return -ENOENT;
	r = nameset_add(&h->missing, name);
	if (r <= 0)
		return r;
	r = pgstate_persist(c, pool, ps);
	if (r)
		nameset_del(&h->missing, name);
	return r;
}

int cfs_pg_clear_missing_lazy(cfs_cluster *c, int64_t pool, uint32_t ps,
			      int osd, const char *name)
{
	struct pg_holder *h = holder_find(pgst(c, pool, ps), osd);
	int r;

	if (!h)
		return 0;
	if (nameset_del(&h->damaged, name) > 0)
		pgst(c, pool, ps)->dirty = 1;
	r = nameset_del(&h->missing, name);
	if (r <= 0)
		return r;
	if (!h->missing.n)
		h->backfill = 0; /* caught up */
	pgst(c, pool, ps)->dirty = 1;
	return 0;
}

int cfs_pg_clear_missing(cfs_cluster *c, int64_t pool, uint32_t ps, int osd,
			 const char *name)
{
	int r = cfs_pg_clear_missing_lazy(c, pool, ps, osd, name);

	return r ? r : cfs_pg_flush(c, pool, ps);
}

int cfs_pg_flush(cfs_cluster *c, int64_t pool, uint32_t ps)
{
	int r;

	if (!pgst(c, pool, ps)->dirty)
		return 0;
	r = pgstate_persist(c, pool, ps);
	if (!r)
		pgst(c, pool, ps)->dirty = 0;
	return r;
}

int cfs_pg_mark_damaged(cfs_cluster *c, int64_t pool, uint32_t ps, int osd,
			const char *name)
{
	struct pg_holder *h = holder_find(pgst(c, pool, ps), osd);
	int r1, r2, r;

	if (!h)
		return -ENOENT;
	r1 = nameset_add(&h->missing, name);
	r2 = nameset_add(&h->damaged, name);
	if (r1 < 0 || r2 < 0)
		return -ENOMEM;
	if (!r1 && !r2)
		return 0;
	r = pgstate_persist(c, pool, ps);
	if (r) {
		if (r1)
			nameset_del(&h->missing, name);
		if (r2)
			nameset_del(&h->damaged, name);
	}
	return r;
}

int cfs_pg_is_damaged(cfs_cluster *c, int64_t pool, uint32_t ps, int osd, const char *name)
{
	struct pg_holder *h = holder_find(pgst(c, pool, ps), osd);

	return h && h->damaged.n && nameset_find(&h->damaged, name, NULL);
}

size_t cfs_pg_damaged_count(cfs_cluster *c, int64_t pool, uint32_t ps)
{
	struct pg_state *p = pgst(c, pool, ps);
	size_t n = 0;

	for (int k = 0; k < p->nh; k++)
		n += p->h[k].damaged.n;
	return n;
}
