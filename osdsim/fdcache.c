/*
 * fdcache.c - open object files, kept open between I/Os (an fd cache).
 * What is read and written through an open one is obj_io.c.
 *
 * An entry is one (osd, pg, object) with its fd and size.  cfs_obj_open()
 * returns a referenced entry; cfs_obj_put() releases it, and unreferenced
 * entries sit on an LRU list and are closed when the cache is over its
 * limit (half the fd limit, at most 4096).  Removing or replacing an object
 * forgets its entry first so nobody keeps using the old inode.
 *
 * The cached size is the file's size: every change of the file goes
 * through these functions, and callers serialize access to one object (the
 * object layer's per-object locks), which is also what keeps the usage
 * accounting exact.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "osdsim_i.h"
#include "util.h"


struct fdcache {
	cfs_cluster *c;
	pthread_mutex_t lock;
	struct cfs_obj **tab;
	size_t nbuckets;
	size_t count, max;
	struct cfs_obj lru; /* sentinel: lru.next is the oldest */
};

static uint64_t key_hash(int osd, int64_t pool, uint32_t ps,
			 const char *name)
{
	uint64_t h = 1469598103934665603ULL;

	for (const char *p = name; *p; p++) {
		h ^= (unsigned char)*p;
		h *= 1099511628211ULL;
	}
	h ^= (uint64_t)(uint32_t)osd * 0x9e3779b97f4a7c15ULL;
	h ^= (uint64_t)ps << 17;
	h ^= (uint64_t)pool * 0xc2b2ae3d27d4eb4fULL;
	return h * 0xff51afd7ed558ccdULL;
}

int fdcache_create(cfs_cluster *c, struct fdcache **out)
{
	struct fdcache *fc = calloc(1, sizeof(*fc));
	struct rlimit rl;
	size_t max = 256;

	if (!fc)
		return -ENOMEM;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
		/* like most servers, take the hard limit when allowed */
		if (rl.rlim_cur < rl.rlim_max && rl.rlim_max != RLIM_INFINITY) {
			rl.rlim_cur = rl.rlim_max;
			setrlimit(RLIMIT_NOFILE, &rl);
			getrlimit(RLIMIT_NOFILE, &rl);
		}
		if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur / 2 > 64)
			max = (size_t)(rl.rlim_cur / 2 - 64);
		else if (rl.rlim_cur == RLIM_INFINITY)
			max = 4096;
		else
			max = 16;
	}
	if (max > 4096)
		max = 4096;
	fc->c = c;
	fc->max = max;
	fc->nbuckets = 1024;
	fc->tab = calloc(fc->nbuckets, sizeof(*fc->tab));
	if (!fc->tab) {
		free(fc);
		return -ENOMEM;
	}
	pthread_mutex_init(&fc->lock, NULL);
	fc->lru.next = fc->lru.prev = &fc->lru;
	*out = fc;
	return 0;
}

static void lru_del(struct cfs_obj *o)
{
	o->prev->next = o->next;
	o->next->prev = o->prev;
	o->prev = o->next = NULL;
}

static void lru_add(struct fdcache *fc, struct cfs_obj *o)
{
	o->prev = fc->lru.prev;
	o->next = &fc->lru;
	fc->lru.prev->next = o;
	fc->lru.prev = o;
}

static void hash_del(struct fdcache *fc, struct cfs_obj *o)
{
	struct cfs_obj **pp = &fc->tab[o->hash % fc->nbuckets];

	while (*pp && *pp != o)
		pp = &(*pp)->hnext;
	if (*pp)
		*pp = o->hnext;
	o->hnext = NULL;
	fc->count--;
}

static void obj_free(struct cfs_obj *o)
{
	if (o->fd >= 0)
		close(o->fd);
	csum_reset(&o->cs);
	pthread_mutex_destroy(&o->csum_lock);
	free(o->name);
	free(o);
}

/* Close unreferenced entries, oldest first, until under the limit (or
 * `force` of them when we ran out of fds).  Called with the lock held. */
static void evict(struct fdcache *fc, size_t force)
{
	while ((fc->count > fc->max || force) && fc->lru.next != &fc->lru) {
		struct cfs_obj *o = fc->lru.next;

		lru_del(o);
		hash_del(fc, o);
		obj_free(o);
		if (force)
			force--;
	}
}

void fdcache_destroy(struct fdcache *fc)
{
	if (!fc)
		return;
	for (size_t b = 0; b < fc->nbuckets; b++) {
		struct cfs_obj *o = fc->tab[b];

		while (o) {
			struct cfs_obj *n = o->hnext;

			obj_free(o);
			o = n;
		}
	}
	free(fc->tab);
	pthread_mutex_destroy(&fc->lock);
	free(fc);
}

static struct cfs_obj *lookup(struct fdcache *fc, uint64_t h, int osd,
			      int64_t pool, uint32_t ps, const char *name)
{
	for (struct cfs_obj *o = fc->tab[h % fc->nbuckets]; o; o = o->hnext)
		if (o->hash == h && o->osd == osd && o->ps == ps &&
		    o->pool == pool &&
		    !strcmp(o->name, name))
			return o;
	return NULL;
}

/* Out of the cache: closed now, or at its last put when in use.  Needs
 * fc->lock. */
static void drop_entry(struct fdcache *fc, struct cfs_obj *o)
{
	hash_del(fc, o);
	if (o->ref == 0) {
		lru_del(o);
		obj_free(o);
	} else {
		o->doomed = 1;
	}
}

int64_t fdcache_forget_busy(struct fdcache *fc, int osd, int64_t pool,
			    uint32_t ps, const char *name, int *busy)
{
	uint64_t h = key_hash(osd, pool, ps, name);
	struct cfs_obj *o;
	int64_t counted = -1;

	*busy = 0;
	pthread_mutex_lock(&fc->lock);
	o = lookup(fc, h, osd, pool, ps, name);
	if (o) {
		counted = (int64_t)o->size;
		*busy = o->ref > 0;
		drop_entry(fc, o);
	}
	pthread_mutex_unlock(&fc->lock);
	return counted;
}

int64_t fdcache_forget(struct fdcache *fc, int osd, int64_t pool,
		       uint32_t ps, const char *name)
{
	int busy;

	return fdcache_forget_busy(fc, osd, pool, ps, name, &busy);
}

static int same_inode(int fd, const struct stat *st)
{
	struct stat o;

	return !fstat(fd, &o) && o.st_ino == st->st_ino &&
	       o.st_dev == st->st_dev;
}

static int open_retry(struct fdcache *fc, int dirfd, const char *rel,
		      int flags)
{
	for (int tries = 0;; tries++) {
		int fd = openat(dirfd, rel, flags, CFS_FILE_MODE);

		if (fd >= 0 || (errno != EMFILE && errno != ENFILE) ||
		    tries > 2)
			return fd < 0 ? -errno : fd;
		pthread_mutex_lock(&fc->lock);
		evict(fc, 64);
		pthread_mutex_unlock(&fc->lock);
	}
}

int cfs_obj_open(cfs_cluster *c, int osd, int64_t pool, uint32_t ps,
		 const char *name,
		 int flags, cfs_obj **out)
{
	struct fdcache *fc = c->fdc;
	struct osd_store *s = store_get(c, osd);
	uint64_t h = key_hash(osd, pool, ps, name);
	struct cfs_obj *o, *other;
	char rel[PATH_MAX];
	struct stat st;
	int fd, r, created = 0;
	int oflags = (c->rdonly ? O_RDONLY : O_RDWR) | O_CLOEXEC;

	if (!s)
		return -ENOENT;
	if (flags & CFS_OBJ_VERIFY) {
		/* what the folder holds now: a cached fd of a file unlinked
		 * or replaced by hand would hide it */
		r = obj_relpath(c, pool, ps, name, rel, sizeof(rel), NULL, 0);
		if (r)
			return r;
		if (fstatat(s->dirfd, rel, &st, AT_SYMLINK_NOFOLLOW))
			return -ENOENT; /* gone: cfs_obj_vanished settles it */
		pthread_mutex_lock(&fc->lock);
		o = lookup(fc, h, osd, pool, ps, name);
		if (o && !same_inode(o->fd, &st))
			drop_entry(fc, o);
		pthread_mutex_unlock(&fc->lock);
	}
	pthread_mutex_lock(&fc->lock);
	o = lookup(fc, h, osd, pool, ps, name);
	if (o) {
		if (o->ref++ == 0)
			lru_del(o);
		pthread_mutex_unlock(&fc->lock);
		*out = o;
		return 0;
	}
	pthread_mutex_unlock(&fc->lock);

	r = obj_relpath(c, pool, ps, name, rel, sizeof(rel), NULL, 0);
	if (r)
		return r;
	if ((flags & CFS_OBJ_CREATE) && !c->rdonly) {
		/* an uncached object opened to be written is most often a
		 * new one: create first, one openat instead of two */
		r = usage_mark_dirty(c);
		if (r)
			return r;
		fd = spare_take(c, s, rel, oflags);
		if (fd == -ENOENT)
			fd = open_retry(fc, s->dirfd, rel,
					oflags | O_CREAT | O_EXCL);
		if (fd >= 0)
			created = 1;
		else if (fd == -EEXIST)
			fd = open_retry(fc, s->dirfd, rel, oflags);
	} else {
		fd = open_retry(fc, s->dirfd, rel, oflags);
		if (fd == -ENOENT && (flags & CFS_OBJ_CREATE))
			return -EROFS;
	}
	if (fd == -ENOTDIR)
		fd = -ENOENT;
	if (fd < 0)
		return fd;
	if (created)
		store_account(s, pool, 0, 1);
	/* a file just made (or a spare, emptied) holds nothing */
	if (created)
		st.st_size = 0;
	else if (fstat(fd, &st) < 0) {
		r = -errno;
		close(fd);
		return r;
	}
	o = calloc(1, sizeof(*o));
	if (!o || !(o->name = strdup(name))) {
		free(o);
		close(fd);
		return -ENOMEM;
	}
	o->fc = fc;
	o->store = s;
	o->osd = osd;
	o->pool = pool;
	o->ps = ps;
	o->hash = h;
	o->fd = fd;
	o->size = (uint64_t)st.st_size;
	o->ref = 1;
	pthread_mutex_init(&o->csum_lock, NULL);
	if (created)
		csum_init_new(&o->cs);

	pthread_mutex_lock(&fc->lock);
	other = lookup(fc, h, osd, pool, ps, name);
	if (other) {
		/* someone opened it meanwhile: use theirs */
		if (other->ref++ == 0)
			lru_del(other);
		pthread_mutex_unlock(&fc->lock);
		obj_free(o);
		*out = other;
		return 0;
	}
	o->hnext = fc->tab[h % fc->nbuckets];
	fc->tab[h % fc->nbuckets] = o;
	fc->count++;
	evict(fc, 0);
	pthread_mutex_unlock(&fc->lock);
	*out = o;
	return 0;
}

void cfs_obj_put(cfs_obj *o)
{
	struct fdcache *fc;

	if (!o)
		return;
	fc = o->fc;
	pthread_mutex_lock(&fc->lock);
	if (--o->ref == 0) {
		if (o->doomed) {
			obj_free(o);
		} else {
			lru_add(fc, o);
			evict(fc, 0);
		}
	}
	pthread_mutex_unlock(&fc->lock);
}

cfs_cluster *fdcache_cluster(const struct fdcache *fc)
{
	return fc->c;
}

void cfs_obj_vanished(cfs_cluster *c, int osd, int64_t pool, uint32_t ps,
		      const char *name, uint64_t size)
{
	struct fdcache *fc = c->fdc;
	struct osd_store *s = store_get(c, osd);
	uint64_t h = key_hash(osd, pool, ps, name);
	struct cfs_obj *o;

	if (!s)
		return;
	pthread_mutex_lock(&fc->lock);
	o = lookup(fc, h, osd, pool, ps, name);
	if (o) { /* the size the store counted for it */
		size = o->size;
		drop_entry(fc, o);
	}
	pthread_mutex_unlock(&fc->lock);
	store_account(s, pool, -(int64_t)size, -1);
}
