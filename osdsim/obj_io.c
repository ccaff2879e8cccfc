/*
 * obj_io.c - reads and writes through an open object copy (a cfs_obj of
 * fdcache.c): reads the copy's checksums vouch for, buffered, direct and
 * write-behind writes with the record following them, truncation, the
 * record's commit and version, and the raw access repair uses.  Split
 * from fdcache.c, which keeps the files open.
 *
 * Callers serialize access to one object (the object layer's
 * per-object locks); csum_lock guards the record against concurrent
 * readers loading it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "osdsim_i.h"
#include "util.h"

uint64_t cfs_obj_size(const cfs_obj *o)
{
	return o->size;
}

/* big reads and writes of whole 4 KiB blocks from an aligned buffer go
 * around the page cache (direct_rw) */
#define DIRECT_MIN (128 * 1024)
#define DIRECT_ALIGN 4096

/* The filesystem refused O_DIRECT for o's file (tmpfs, alignment rules
 * of its own): o goes the buffered way from now on. */
static void direct_refused(cfs_obj *o)
{
	__atomic_store_n(&o->no_direct, 1, __ATOMIC_RELAXED);
}

/* A second descriptor of o's file with O_DIRECT, opened per I/O through
 * /proc/self/fd (the same inode, whatever its path is now), which keeps
 * the fd cache's budget; -1 when there is none (not taken). */
static int direct_open(cfs_obj *o, int flags)
{
	char p[64];
	int fd;

	if (__atomic_load_n(&o->no_direct, __ATOMIC_RELAXED))
		return -1;
	snprintf(p, sizeof(p), "/proc/self/fd/%d", o->fd);
	fd = open(p, flags | O_DIRECT | O_CLOEXEC);
	if (fd < 0 && errno == EINVAL)
		direct_refused(o);
	return fd;
}

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
 * overwrite.  Writes: write_direct.
 *
 * direct_rw: one direct read or write (wr) of len bytes at off through
 * the second descriptor, when len, off and buf are whole 4 KiB blocks.
 * *done gets the bytes moved; 1: not taken (do it buffered), 0 or -errno.
 */
static int direct_rw(cfs_obj *o, int wr, void *buf, size_t len, uint64_t off,
		     size_t *done)
{
	ssize_t r;
	int fd;

	if (len < DIRECT_MIN || ((uintptr_t)buf | len | off) % DIRECT_ALIGN ||
	    (fd = direct_open(o, wr ? O_WRONLY : O_RDONLY)) < 0)
		return 1;
	r = wr ? cfs_write_full(fd, buf, len, (int64_t)off)
	       : cfs_read_full(fd, buf, len, (int64_t)off);
	close(fd);
	if (r == -EINVAL) {
		/* refused before a byte moved */
		direct_refused(o);
		return 1;
	}
	if (r < 0)
		return (int)r;
	*done = wr ? len : (size_t)r;
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
	r = direct_rw(o, 0, buf, len & ~(size_t)(DIRECT_ALIGN - 1), off,
		      &done);
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

/* The record loaded, and vouching for what the copy holds (a copy is
 * changed only then: a partial write would otherwise bless rotten bytes
 * with fresh checksums).  Needs csum_lock. */
static int csum_writable(cfs_obj *o)
{
	int r = csum_load(o);

	if (!r && !o->cs.valid)
		r = -EBADMSG;
	return r;
}

int cfs_obj_version(cfs_obj *o, uint64_t *version)
{
	int r;

	pthread_mutex_lock(&o->csum_lock);
	r = csum_writable(o);
	if (!r)
		*version = o->cs.version;
	pthread_mutex_unlock(&o->csum_lock);
	return r;
}

/* The record from fill (loaded, or rebuilt from the file), stored with
 * version. */
static int record_store(cfs_obj *o, uint64_t version,
			int (*fill)(cfs_obj *o))
{
	int r;

	pthread_mutex_lock(&o->csum_lock);
	r = fill(o);
	if (!r)
		r = csum_store(o, version);
	pthread_mutex_unlock(&o->csum_lock);
	return r;
}

int cfs_obj_commit(cfs_obj *o, uint64_t version)
{
	return record_store(o, version, csum_load);
}

int cfs_obj_rebuild_csum(cfs_obj *o, uint64_t version)
{
	return record_store(o, version, csum_rebuild);
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
 * It goes through a second descriptor (direct_open).
 * 1: not taken (write buffered), 0 or -errno.
 */
static int write_direct(cfs_obj *o, const void *buf, size_t len,
			uint64_t off)
{
	size_t done;

	/* direct_rw only reads buf when it writes */
	return direct_rw(o, 1, (void *)buf, len, off, &done);
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

/* The start of a change of o's bytes (a write, a truncate; too_big: its
 * end is past what a file can hold): the usage marked dirty, then
 * csum_lock taken and the record writable.  0 with csum_lock held, or
 * -errno without it. */
static int change_begin(cfs_obj *o, int too_big)
{
	int r = usage_mark_dirty(fdcache_cluster(o->fc));

	if (r)
		return r;
	if (too_big)
		return -EFBIG;
	pthread_mutex_lock(&o->csum_lock);
	r = csum_writable(o);
	if (r)
		pthread_mutex_unlock(&o->csum_lock);
	return r;
}

/* direct: 0 buffered, 1 O_DIRECT when it qualifies, 2 buffered with the
 * writeback started */
static int obj_pwrite(cfs_obj *o, const void *buf, size_t len, uint64_t off,
		      int direct)
{
	uint64_t old;
	int r = change_begin(o, off + len < off ||
				     off + len > (uint64_t)INT64_MAX);

	if (r)
		return r;
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
	uint64_t old;
	int r = change_begin(o, size > (uint64_t)INT64_MAX);

	if (r)
		return r;
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
	cfs_cluster *c = fdcache_cluster(o->fc);
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
	cfs_cluster *c = fdcache_cluster(o->fc);
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
