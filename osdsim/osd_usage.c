/*
 * osd_usage.c - what each OSD store holds and may still take: the usage
 * kept in memory by every change of a file (store_account), reservations
 * before a write against the OSD's limit and the failsafe margin of the
 * filesystem under it (disk.c), and usage.json / usage.dirty across
 * restarts, with a rescan of the stores after a crash.
 *
 * Usage (bytes = sum of object file sizes, and object count) is kept in
 * memory and changed by every operation that changes a file, so it always
 * equals the disk.  It survives restarts through usage.json, written at a
 * clean close; usage.dirty exists from the first change of a writer
 * session until then, and when an open finds it (a crash) or cannot parse
 * usage.json, the stores are rescanned.  `crushfs check` compares memory
 * against a scan.
 *
 * Neither file is fsynced, so a command that stores one object does not
 * force a journal commit (which on ext4's ordered mode also flushes the
 * object's data: 4 fsyncs made `rados put` twice as slow).  What makes this
 * safe across a power loss is that journaling filesystems (ext4, xfs) make
 * metadata changes durable in the order they were made: usage.dirty is
 * created before any object size, creation or deletion of the session, so
 * if one of those survived, so did the marker; and usage.dirty is removed
 * after usage.json was renamed into place.  A usage.json whose data did not
 * make it reads as invalid JSON and is rescanned too.
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

static void add_clamped(uint64_t *v, int64_t d)
{
	if (d < 0 && (uint64_t)-d > *v)
		*v = 0;
	else
		*v += (uint64_t)d;
}

/* The store's entry for pool, made when missing (s->lock held); NULL
 * only when out of memory. */
static struct pool_use *pool_use(struct osd_store *s, int64_t pool)
{
	struct pool_use *nv;

	for (int i = 0; i < s->npu; i++)
		if (s->pu[i].pool == pool)
			return &s->pu[i];
	nv = realloc(s->pu, sizeof(*nv) * (size_t)(s->npu + 1));
	if (!nv)
		return NULL;
	s->pu = nv;
	nv[s->npu] = (struct pool_use){ pool, 0, 0 };
	return &nv[s->npu++];
}

void store_account(struct osd_store *s, int64_t pool, int64_t dbytes,
		   int64_t dobjects)
{
	struct pool_use *pu;

	pthread_mutex_lock(&s->lock);
	add_clamped(&s->used, dbytes);
	add_clamped(&s->objects, dobjects);
	pu = pool_use(s, pool);
	if (pu) {
		add_clamped(&pu->used, dbytes);
		add_clamped(&pu->objects, dobjects);
	}
	pthread_mutex_unlock(&s->lock);
}

void cfs_osd_pool_usage(cfs_cluster *c, int osd, int64_t pool,
			struct cfs_osd_usage *u)
{
	struct osd_store *s = store_get(c, osd);

	u->used = u->objects = 0;
	if (!s)
		return;
	pthread_mutex_lock(&s->lock);
	for (int i = 0; i < s->npu; i++)
		if (s->pu[i].pool == pool) {
			u->used = s->pu[i].used;
			u->objects = s->pu[i].objects;
		}
	pthread_mutex_unlock(&s->lock);
}

void cfs_osd_usage(cfs_cluster *c, int osd, struct cfs_osd_usage *u)
{
	struct osd_store *s = store_get(c, osd);

	u->used = u->objects = 0;
	if (!s)
		return;
	pthread_mutex_lock(&s->lock);
	u->used = s->used + s->prefill;
	u->objects = s->objects;
	pthread_mutex_unlock(&s->lock);
}

int cfs_osd_reserve(cfs_cluster *c, int osd, uint64_t bytes, uint64_t limit)
{
	struct osd_store *s = store_get(c, osd);
	int r = 0, drained = 0;

	if (!s)
		return -ENOENT;
again:
	pthread_mutex_lock(&s->lock);
	{
		uint64_t now = s->used + s->prefill + s->reserved, need;

		/* at or over the limit: refuse even an overwrite (a full OSD
		 * takes no writes); otherwise refuse what would cross it.
		 * Then the real disk: limit UINT64_MAX is a change that
		 * frees space (a truncate's rebuilt copy), which may use
		 * the failsafe margin as deletes do */
		if (now >= limit || bytes > limit - now) {
			s->refused_disk = 0;
			r = -ENOSPC;
		} else if (disk_reserve(c, s->disk, bytes,
					limit != UINT64_MAX, &need)) {
			/* removed objects' files not emptied yet hold room:
			 * freed first, then asked again (once) */
			if (!drained) {
				pthread_mutex_unlock(&s->lock);
				drained = 1;
				if (spares_drain(c, s->disk) > 0)
					goto again;
				pthread_mutex_lock(&s->lock);
			}
			s->refused_disk = 1;
			s->refused_need = need;
			r = -ENOSPC;
		} else {
			s->reserved += bytes;
		}
	}
	pthread_mutex_unlock(&s->lock);
	return r;
}

void cfs_osd_refusal_text(cfs_cluster *c, int osd, uint64_t limit, char *buf,
			  size_t len)
{
	struct osd_store *s = store_get(c, osd);
	char a[32], b[32];
	uint64_t used;
	int disk;

	if (!s) {
		snprintf(buf, len, "no such OSD");
		return;
	}
	pthread_mutex_lock(&s->lock);
	used = s->used + s->prefill;
	disk = s->refused_disk;
	pthread_mutex_unlock(&s->lock);
	if (disk)
		disk_refusal_text(c, s->disk, buf, len);
	else
		snprintf(buf, len, "%s used, limit %s",
			 cfs_format_size(used, a, sizeof(a)),
			 cfs_format_size(limit, b, sizeof(b)));
}

void cfs_osd_unreserve(cfs_cluster *c, int osd, uint64_t bytes)
{
	struct osd_store *s = store_get(c, osd);

	if (!s)
		return;
	pthread_mutex_lock(&s->lock);
	s->reserved = bytes > s->reserved ? 0 : s->reserved - bytes;
	pthread_mutex_unlock(&s->lock);
	disk_unreserve(s->disk, bytes);
}

/* Scan one PG folder (d, closed here). */
static void scan_pgdir(DIR *d, int cleanup, struct cfs_osd_usage *u)
{
	struct dirent *de;

	while ((de = readdir(d)) != NULL) {
		struct stat st;

		if (de->d_name[0] == '.') {
			/* a temporary copy left by a crash */
			if (cleanup && !strncmp(de->d_name, ".tmp.", 5))
				unlinkat(dirfd(d), de->d_name, 0);
			continue;
		}
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) <
			    0 ||
		    !S_ISREG(st.st_mode))
			continue;
		u->used += (uint64_t)st.st_size;
		u->objects++;
	}
	closedir(d);
}

/* The store's use from its PG folders (every pool's), into s. */
static int scan_store(struct osd_store *s, int cleanup)
{
	struct dirent *de;
	int r = 0;
	DIR *d = cfs_opendirat(s->dirfd, ".", &r);

	pthread_mutex_lock(&s->lock);
	s->used = s->objects = 0;
	s->npu = 0;
	pthread_mutex_unlock(&s->lock);
	if (!d)
		return r;
	while ((de = readdir(d)) != NULL) {
		struct cfs_osd_usage u = { 0, 0 };
		int64_t pool;
		uint32_t ps;
		int shard;
		DIR *pd;

		if (pg_dirname_parse_any(de->d_name, &pool, &ps, &shard))
			continue;
		pd = cfs_opendirat(dirfd(d), de->d_name, &r);
		if (!pd) {
			if (r != -ENOENT && r != -ENOTDIR)
				break;
			r = 0;
			continue;
		}
		scan_pgdir(pd, cleanup, &u);
		store_account(s, pool, (int64_t)u.used, (int64_t)u.objects);
	}
	closedir(d);
	return r;
}

/* ---- usage persistence ---- */

int usage_mark_dirty(cfs_cluster *c)
{
	int r = 0;

	if (atomic_load(&c->usage_dirty))
		return 0;
	if (c->rdonly)
		return -EROFS;
	pthread_mutex_lock(&c->dirty_lock);
	if (!atomic_load(&c->usage_dirty)) {
		int fd = openat(c->dirfd, "usage.dirty",
				O_WRONLY | O_CREAT | O_CLOEXEC, CFS_FILE_MODE);

		if (fd < 0)
			r = -errno;
		if (fd >= 0)
			close(fd);
		if (!r)
			atomic_store(&c->usage_dirty, 1);
	}
	pthread_mutex_unlock(&c->dirty_lock);
	return r;
}

/* usage.json's per-pool figures of one OSD (pools: {"id": [used,
 * objects]}); before pools held objects there were none: all of it is
 * the data pool's.  -EINVAL when they are unreadable (rescan). */
static int load_pool_use(cfs_cluster *c, struct osd_store *s, json_t *pools,
			 uint64_t used, uint64_t objects)
{
	const char *key;
	json_t *v;

	s->npu = 0;
	if (!pools) {
		store_account(s, c->pool_id, (int64_t)used, (int64_t)objects);
		return 0;
	}
	if (!json_is_object(pools))
		return -EINVAL;
	json_object_foreach(pools, key, v) {
		char *end;
		long long id = strtoll(key, &end, 10);
		json_int_t u, o;

		if (*end || json_unpack(v, "[II]", &u, &o) || u < 0 || o < 0)
			return -EINVAL;
		store_account(s, id, u, o);
	}
	s->used = s->objects = 0; /* set by the caller */
	return 0;
}

int usage_load(cfs_cluster *c)
{
	const struct cfs_osdmap *m = c->cur;
	char *text = NULL;
	json_t *root = NULL, *osds = NULL;
	int dirty = faccessat(c->dirfd, "usage.dirty", F_OK, 0) == 0;
	char path[PATH_MAX];
	int r = 0;

	snprintf(path, sizeof(path), "%s/usage.json", c->dir);
	if (!dirty && cfs_read_file(path, &text, NULL) == 0) {
		root = json_loads(text, 0, NULL);
		osds = json_object_get(root, "osds");
		if (!json_is_object(osds))
			osds = NULL; /* unreadable: rescan every OSD */
	}
	for (int i = 0; i < m->max_osd; i++) {
		struct osd_store *s = store_get(c, i);
		char key[16];
		json_t *e, *used, *objs;

		if (!s)
			continue;
		snprintf(key, sizeof(key), "%d", i);
		e = osds ? json_object_get(osds, key) : NULL;
		used = json_object_get(e, "used");
		objs = json_object_get(e, "objects");
		if (json_is_integer(used) && json_is_integer(objs) &&
		    json_integer_value(used) >= 0 &&
		    json_integer_value(objs) >= 0 &&
		    !load_pool_use(c, s, json_object_get(e, "pools"),
				   (uint64_t)json_integer_value(used),
				   (uint64_t)json_integer_value(objs))) {
			s->used = (uint64_t)json_integer_value(used);
			s->objects = (uint64_t)json_integer_value(objs);
		} else {
			r = scan_store(s, !c->rdonly);
			if (r)
				break;
		}
	}
	json_decref(root);
	free(text);
	return r;
}

int usage_save(cfs_cluster *c)
{
	json_t *root = json_object(), *osds = json_object();
	char path[PATH_MAX], *text;
	int r;

	if (!root || !osds) {
		json_decref(root);
		json_decref(osds);
		return -ENOMEM;
	}
	for (int i = 0; i < CFS_MAX_OSD; i++) {
		struct osd_store *s = store_get(c, i);
		json_t *pools;
		char key[16];

		if (!s)
			continue;
		snprintf(key, sizeof(key), "%d", i);
		pools = json_object();
		pthread_mutex_lock(&s->lock);
		for (int k = 0; pools && k < s->npu; k++) {
			char id[32];

			snprintf(id, sizeof(id), "%lld",
				 (long long)s->pu[k].pool);
			json_object_set_new(
				pools, id,
				json_pack("[II]", (json_int_t)s->pu[k].used,
					  (json_int_t)s->pu[k].objects));
		}
		json_object_set_new(osds, key,
				    json_pack("{s:I, s:I, s:o*}", "used",
					      (json_int_t)s->used, "objects",
					      (json_int_t)s->objects, "pools",
					      pools));
		pthread_mutex_unlock(&s->lock);
	}
	json_object_set_new(root, "osds", osds);
	text = json_dumps(root, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(root);
	if (!text)
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s/usage.json", c->dir);
	r = cfs_write_replace(path, text, strlen(text));
	free(text);
	if (r)
		return r;
	if (unlinkat(c->dirfd, "usage.dirty", 0) < 0 && errno != ENOENT)
		return -errno;
	atomic_store(&c->usage_dirty, 0);
	return 0;
}

