/*
 * fdcache.c - open object files, kept open between I/Os (an fd cache), and
 * the object operations on them.
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
#include <sys/xattr.h>
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

uint64_t cfs_obj_size(const cfs_obj *o)
{
	return o->size;
}

/* big reads and writes of whole 4 KiB blocks from an aligned buffer go
 * around the page cache (read_direct, write_direct) */
#define DIRECT_MIN (128 * 1024)
#define DIRECT_ALIGN 4096

/*
 * A big read's whole blocks come around the page cache (O_DIRECT), as
 * BlueStore reads its data: the disk puts them in the caller's buffer,
 * where a buffered read fills the object file's pages first and copies
 * them out.  Those pages were a second cache of the same bytes (the
 * kernel keeps the file's pages above FUSE, keep_cache), and the 1 MiB
 * READs that arrive several at a time on one object were slow through
 * them: a 1 GiB cold read right after its write ran at 542 MiB/s
 * buffered, 1,428 direct (fs_bench A/B, medians of 3;
 * docs/performance.md).  The range's dirty pages are written back first
 * (kiocb_write_and_wait), so a read sees every buffered write.  Only the
 * aligned prefix goes direct: the bytes past len are not the caller's to
 * overwrite.  *done gets the bytes read; 1: not taken (read it
 * buffered), 0 or -errno.
 */
static int read_direct(cfs_obj *o, void *buf, size_t len, uint64_t off,
		       size_t *done)
{
	size_t n = len & ~(size_t)(DIRECT_ALIGN - 1);
	char p[64];
	ssize_t got;
	int fd;

	if (__atomic_load_n(&o->no_direct, __ATOMIC_RELAXED) ||
	    n < DIRECT_MIN || ((uintptr_t)buf | off) % DIRECT_ALIGN)
		return 1;
	snprintf(p, sizeof(p), "/proc/self/fd/%d", o->fd);
	fd = open(p, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0) {
		if (errno == EINVAL)
			__atomic_store_n(&o->no_direct, 1, __ATOMIC_RELAXED);
		return 1;
	}
	got = cfs_read_full(fd, buf, n, (int64_t)off);
	close(fd);
	if (got == -EINVAL) {
		__atomic_store_n(&o->no_direct, 1, __ATOMIC_RELAXED);
		return 1;
	}
	if (got < 0)
		return (int)got;
	*done = (size_t)got;
	return 0;
}

ssize_t cfs_obj_pread(cfs_obj *o, void *buf, size_t len, uint64_t off)
{
	size_t done = 0;
	ssize_t got;
	int r;

	if (off >= o->size)
		return 0;
	if (len > o->size - off)
		len = (size_t)(o->size - off);
	r = read_direct(o, buf, len, off, &done);
	if (r < 0)
		return r;
	got = (ssize_t)done;
	if (done < len) {
		/* the unaligned tail, or all of it buffered */
		ssize_t more = cfs_read_full(o->fd, (char *)buf + done,
					     len - done,
					     (int64_t)(off + done));

		if (more < 0)
			return more;
		got += more;
	}
	if (got < 0)
		return got;
	if ((size_t)got != len)
		return -EBADMSG; /* the file is shorter than its record */
	/* never return bytes the copy's checksums do not vouch for */
	pthread_mutex_lock(&o->csum_lock);
	r = csum_verify_range(o, buf, len, off);
	pthread_mutex_unlock(&o->csum_lock);
	return r ? r : got;
}

int cfs_obj_verify(cfs_obj *o)
{
	int r;

	pthread_mutex_lock(&o->csum_lock);
	r = csum_verify_range(o, NULL, o->size, 0);
	pthread_mutex_unlock(&o->csum_lock);
	return r;
}

int cfs_obj_version(cfs_obj *o, uint64_t *version)
{
	int r;

	pthread_mutex_lock(&o->csum_lock);
	r = csum_load(o);
	if (!r && !o->cs.valid)
		r = -EBADMSG;
	if (!r)
		*version = o->cs.version;
	pthread_mutex_unlock(&o->csum_lock);
	return r;
}

int cfs_obj_commit(cfs_obj *o, uint64_t version)
{
	int r;

	pthread_mutex_lock(&o->csum_lock);
	r = csum_load(o);
	if (!r)
		r = csum_store(o, version);
	pthread_mutex_unlock(&o->csum_lock);
	return r;
}

int cfs_obj_rebuild_csum(cfs_obj *o, uint64_t version)
{
	int r;

	pthread_mutex_lock(&o->csum_lock);
	r = csum_rebuild(o);
	if (!r)
		r = csum_store(o, version);
	pthread_mutex_unlock(&o->csum_lock);
	return r;
}

/* After a failed write the file may have grown partly: account what the
 * disk says, so usage stays equal to the disk. */
static void resync_size(cfs_obj *o)
{
	struct stat st;

	if (fstat(o->fd, &st) == 0 && (uint64_t)st.st_size != o->size) {
		store_account(o->store, o->pool, (int64_t)st.st_size - (int64_t)o->size,
			      0);
		o->size = (uint64_t)st.st_size;
	}
}

/* A copy is changed only when its record vouches for what it holds: a
 * partial write would otherwise bless rotten bytes with fresh checksums. */
static int csum_writable(cfs_obj *o)
{
	int r = csum_load(o);

	if (!r && !o->cs.valid)
		r = -EBADMSG;
	return r;
}

/*
 * cfs_obj_pwrite_direct: the write bypasses the page cache (O_DIRECT):
 * the disk takes the bytes from the caller's buffer, where a buffered
 * write first copies them into new page-cache pages.  For a size-3 write
 * those copies, one per replica, were 65% of the daemon's CPU
 * (docs/performance.md).  Only whole 4 KiB blocks from a 4 KiB-aligned
 * buffer qualify (ext4 wants the device's logical block, 4 KiB covers
 * it); the rest stay buffered, and so does a filesystem without O_DIRECT
 * (tmpfs: EINVAL).  Durability is the same: fdatasync still flushes the
 * device cache and the new size (ext4_sync_file).  No stale blocks show
 * after a crash: ext4 fills a hole through unwritten extents and moves
 * i_size past an extension only once its data is written, the inode on
 * the orphan list meanwhile (ext4_dio_write_iter,
 * ext4_handle_inode_extension).  The page cache stays coherent: the
 * kernel writes back and drops the range first (kiocb_invalidate_pages).
 * A second descriptor, opened per write through /proc/self/fd (the same
 * inode, whatever its path is now), keeps the fd cache's budget.
 * 1: not taken (write buffered), 0 or -errno.
 */
static int write_direct(cfs_obj *o, const void *buf, size_t len,
			uint64_t off)
{
	char p[64];
	int fd, r;

	if (__atomic_load_n(&o->no_direct, __ATOMIC_RELAXED) ||
	    len < DIRECT_MIN || ((uintptr_t)buf | len | off) % DIRECT_ALIGN)
		return 1;
	snprintf(p, sizeof(p), "/proc/self/fd/%d", o->fd);
	fd = open(p, O_WRONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0) {
		if (errno == EINVAL)
			__atomic_store_n(&o->no_direct, 1, __ATOMIC_RELAXED);
		return 1;
	}
	r = cfs_write_full(fd, buf, len, (int64_t)off);
	close(fd);
	if (r == -EINVAL) {
		/* refused before a byte moved: alignment rules of its own */
		__atomic_store_n(&o->no_direct, 1, __ATOMIC_RELAXED);
		return 1;
	}
	return r;
}

/*
 * cfs_obj_pwrite_wb: a buffered write whose writeback starts now
 * (sync_file_range SYNC_FILE_RANGE_WRITE: the pages are submitted, not
 * waited for), as Ceph FileStore's WBThrottle starts flushing what it
 * wrote instead of leaving it all to the final fsync.  An erasure-coded
 * big write left 1.5 GiB dirty per GiB under the background threshold of
 * a large machine, and the closing fdatasync then wrote it all while the
 * caller waited (0.1-0.7 s of a 1.7 s dd).  Only a hint: a failure is
 * ignored, fdatasync still gives the durability and reports the error.
 */
static void start_writeback(cfs_obj *o, size_t len, uint64_t off)
{
	if (len >= DIRECT_MIN)
		(void)sync_file_range(o->fd, (off_t)off, (off_t)len,
				      SYNC_FILE_RANGE_WRITE);
}

/* direct: 0 buffered, 1 O_DIRECT when it qualifies, 2 buffered with the
 * writeback started */
static int obj_pwrite(cfs_obj *o, const void *buf, size_t len, uint64_t off,
		      int direct)
{
	cfs_cluster *c = o->fc->c;
	uint64_t old;
	int r = usage_mark_dirty(c);

	if (r)
		return r;
	if (off + len < off || off + len > (uint64_t)INT64_MAX)
		return -EFBIG;
	pthread_mutex_lock(&o->csum_lock);
	r = csum_writable(o);
	if (r)
		goto out;
	old = o->size;
	r = csum_before_change(o, off, off + len,
			       off + len > old ? off + len : old);
	if (r)
		goto out;
	r = direct == 1 ? write_direct(o, buf, len, off) : 1;
	if (r == 1)
		r = cfs_write_full(o->fd, buf, len, (int64_t)off);
	if (!r && direct == 2)
		start_writeback(o, len, off);
	if (r) {
		resync_size(o);
		o->cs.valid = 0;
		goto out;
	}
	if (off + len > o->size) {
		store_account(o->store, o->pool, (int64_t)(off + len - o->size), 0);
		o->size = off + len;
	}
	r = csum_after_write(o, old, buf, len, off);
out:
	pthread_mutex_unlock(&o->csum_lock);
	return r;
}

int cfs_obj_pwrite(cfs_obj *o, const void *buf, size_t len, uint64_t off)
{
	return obj_pwrite(o, buf, len, off, 0);
}

int cfs_obj_pwrite_direct(cfs_obj *o, const void *buf, size_t len,
			  uint64_t off)
{
	return obj_pwrite(o, buf, len, off, 1);
}

int cfs_obj_pwrite_wb(cfs_obj *o, const void *buf, size_t len, uint64_t off)
{
	return obj_pwrite(o, buf, len, off, 2);
}

int cfs_obj_truncate(cfs_obj *o, uint64_t size)
{
	cfs_cluster *c = o->fc->c;
	uint64_t old;
	int r = usage_mark_dirty(c);

	if (r)
		return r;
	if (size > (uint64_t)INT64_MAX)
		return -EFBIG;
	pthread_mutex_lock(&o->csum_lock);
	r = csum_writable(o);
	if (r)
		goto out;
	old = o->size;
	if (size < old)
		r = csum_before_change(o, size, size, size);
	else
		r = csum_before_change(o, old, size, size);
	if (r)
		goto out;
	if (ftruncate(o->fd, (off_t)size) < 0) {
		r = -errno;
		resync_size(o);
		o->cs.valid = 0;
		goto out;
	}
	store_account(o->store, o->pool, (int64_t)size - (int64_t)o->size, 0);
	o->size = size;
	r = csum_after_truncate(o, old);
out:
	pthread_mutex_unlock(&o->csum_lock);
	return r;
}

ssize_t cfs_obj_raw_pread(cfs_obj *o, void *buf, size_t len, uint64_t off)
{
	return cfs_read_full(o->fd, buf, len, (int64_t)off);
}

ssize_t cfs_obj_raw_record(cfs_obj *o, void *buf, size_t len)
{
	ssize_t n = fgetxattr(o->fd, "user.crushfs.csum", buf, len);

	if (n < 0)
		return errno == ENODATA ? 0 : -errno;
	return n;
}

int cfs_obj_raw_restore(cfs_obj *o, const void *buf, size_t n, uint64_t off,
			uint64_t size, const void *rec, size_t reclen)
{
	cfs_cluster *c = o->fc->c;
	int r = usage_mark_dirty(c);

	if (r)
		return r;
	pthread_mutex_lock(&o->csum_lock);
	if (n)
		r = cfs_write_full(o->fd, buf, n, (int64_t)off);
	if (!r && ftruncate(o->fd, (off_t)size) < 0)
		r = -errno;
	if (!r) {
		if (reclen)
			r = fsetxattr(o->fd, "user.crushfs.csum", rec, reclen,
				      0) < 0 ? -errno : 0;
		else if (fremovexattr(o->fd, "user.crushfs.csum") < 0 &&
			 errno != ENODATA)
			r = -errno;
	}
	resync_size(o);
	/* what the file says now is read again at the next use */
	csum_reset(&o->cs);
	pthread_mutex_unlock(&o->csum_lock);
	return r;
}

int cfs_obj_reset(cfs_obj *o)
{
	cfs_cluster *c = o->fc->c;
	int r = usage_mark_dirty(c);

	if (r)
		return r;
	pthread_mutex_lock(&o->csum_lock);
	if (ftruncate(o->fd, 0) < 0) {
		r = -errno;
		resync_size(o);
		o->cs.valid = 0;
	} else {
		store_account(o->store, o->pool, -(int64_t)o->size, 0);
		o->size = 0;
		csum_init_new(&o->cs);
	}
	pthread_mutex_unlock(&o->csum_lock);
	return r;
}

int cfs_obj_has_record(cfs_obj *o)
{
	int r;

	pthread_mutex_lock(&o->csum_lock);
	r = csum_load(o);
	if (!r)
		r = o->cs.present;
	pthread_mutex_unlock(&o->csum_lock);
	return r;
}

int cfs_obj_sync(cfs_obj *o)
{
	return fdatasync(o->fd) < 0 ? -errno : 0;
}

int cfs_obj_mtime(cfs_obj *o, struct timespec *ts)
{
	struct stat st;

	if (fstat(o->fd, &st) < 0)
		return -errno;
	*ts = st.st_mtim;
	return 0;
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
