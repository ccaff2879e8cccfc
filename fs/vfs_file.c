/*
 * vfs_file.c - regular files: truncate, open/create, read, write, fsync,
 * release.  The data path writes the store only to grow a writeable
 * range (wrange.c, see vfs.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>

#include "util.h"
#include "vfs_i.h"
#include "wrange_i.h"

/* Change the size of a regular file: objects first, then the record, so
 * that a crash in between never lets old data reappear past the end.
 * Growing cuts what objects hold past the old end (ol_truncate's
 * contract), so the new range reads as zeros whatever a crash left. */
int do_truncate(vfs *v, struct vnode *vn, uint64_t size, int touch)
{
	uint64_t old, end;
	int rc = 0, prealloc;

	if (size > VFS_MAX_FILE_SIZE)
		return -EFBIG;
	pthread_rwlock_wrlock(&vn->io);
	pthread_mutex_lock(&vn->m);
	old = vn->rec.size;
	/* from here the committed size may be the smaller one (wrange.c) */
	if (size < vn->dsize)
		vn->dsize = size;
	prealloc = vn->rec.flags & MDS_F_PREALLOC;
	end = prealloc ? vn_data_end(v, &vn->rec) : old;
	pthread_mutex_unlock(&vn->m);
	/* a truncate to the size or below drops what was preallocated past
	 * it (ext4_setattr() truncates blocks past EOF then) */
	if (prealloc && size <= old) {
		rc = vn_trim_prealloc(v, vn, size);
	} else if (prealloc) {
		/* growing: what lies past the size up to the preallocated
		 * end is zeros put there on purpose and stays (ext4 keeps
		 * it too); only past that end can bytes be stale (a growing
		 * truncate cuts objects at the smaller of the two sizes) */
		rc = v->d->truncate(v->dctx, vn->ino, &vn->rec.layout, end,
				    end > size ? end : size);
	} else if (old != size)
		rc = v->d->truncate(v->dctx, vn->ino, &vn->rec.layout, old,
				    size);
	if (rc == 0) {
		pthread_mutex_lock(&vn->m);
		/* everything past min(old, size) was cut: no stale bytes
		 * left by a failed probe either */
		if (!prealloc)
			vn->stale_to = 0;
		vn->rec.size = size;
		if (touch || old != size) {
			now(&vn->rec.mtime);
			vn->rec.ctime = vn->rec.mtime;
		}
		vn->dirty = 1;
		rc = vn_persist_locked(v, vn, 0);
		pthread_mutex_unlock(&vn->m);
	}
	pthread_rwlock_unlock(&vn->io);
	return rc;
}

/* ---- files ---- */

static int open_vnode(vfs *v, struct vnode *vn, int flags, vfs_file **out)
{
	vfs_file *f;
	uint32_t mode;
	int rc = 0;

	pthread_mutex_lock(&vn->m);
	mode = vn->rec.mode;
	pthread_mutex_unlock(&vn->m);
	if (S_ISDIR(mode))
		return -EISDIR;
	if (S_ISLNK(mode))
		return -ELOOP;
	if (!S_ISREG(mode))
		return -ENXIO; /* the kernel opens fifos/devices itself */
	if (v->opts.readonly &&
	    ((flags & O_ACCMODE) != O_RDONLY || (flags & O_TRUNC)))
		return -EROFS;
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	if (flags & O_TRUNC)
		rc = do_truncate(v, vn, 0, 1);
	if (rc) {
		free(f);
		return rc;
	}
	f->vn = vn;
	f->flags = flags;
	if ((flags & O_ACCMODE) != O_RDONLY)
		wr_open(vn);
	handle_add(v, &f->h, 0);
	*out = f;
	return 0;
}

int vfs_open(vfs *v, uint64_t ino, int flags, vfs_file **f)
{
	struct vnode *vn;
	int rc = vn_get(v, ino, 0, &vn);

	if (rc)
		return rc;
	rc = open_vnode(v, vn, flags, f);
	if (rc == 0)
		vn_ref(v, vn, 0, 1);
	vn_put(v, vn);
	return rc;
}

int vfs_create(vfs *v, const struct vfs_cred *c, uint64_t parent,
	       const char *name, mode_t mode, int flags, struct vfs_entry *e,
	       vfs_file **f)
{
	struct vnode *vn = NULL;
	int rc;

	rc = make_node(v, c, parent, name, S_IFREG | (mode & 07777), 0, NULL, 0,
		       e, &vn);
	if (rc == 0) {
		/* A new file: nothing to truncate. */
		rc = open_vnode(v, vn, flags & ~O_TRUNC, f);
		if (rc == 0)
			vn_ref(v, vn, 0, 1);
		else
			vn_forget(v, vn->ino, 1);
		vn_put(v, vn);
		return rc;
	}
	if (rc != -EEXIST || (flags & O_EXCL))
		return rc;
	/* Lost a race with another creator: open what is there. */
	rc = vfs_lookup(v, parent, name, e);
	if (rc)
		return rc;
	rc = vfs_open(v, e->ino, flags, f);
	if (rc)
		vfs_forget(v, e->ino, 1);
	else if (flags & O_TRUNC)
		vfs_getattr(v, e->ino, &e->attr);
	return rc;
}

int vfs_file_attr_changed(vfs_file *f)
{
	/* set by kill_privs() under the record mutex, read here by the
	 * thread that replies to the write: one atomic exchange */
	return __atomic_exchange_n(&f->attr_changed, 0, __ATOMIC_ACQ_REL);
}

ssize_t vfs_read(vfs *v, vfs_file *f, uint64_t off, void *buf, size_t len)
{
	return vfs_read_ref(v, f, off, buf, len, NULL, NULL);
}

/* data NULL: into buf (vfs_read) */
ssize_t vfs_read_ref(vfs *v, vfs_file *f, uint64_t off, void *buf,
		     size_t len, const void **data, void **ref)
{
	struct vnode *vn = f->vn;
	uint64_t size;
	ssize_t n;

	if (data) {
		*data = buf;
		*ref = NULL;
	}
	if ((f->flags & O_ACCMODE) == O_WRONLY)
		return -EBADF;
	pthread_rwlock_rdlock(&vn->io);
	pthread_mutex_lock(&vn->m);
	size = vn->rec.size;
	pthread_mutex_unlock(&vn->m);
	if (off >= size)
		n = 0;
	else if (data && v->d->read_ref)
		n = v->d->read_ref(v->dctx, vn->ino, &vn->rec.layout, size,
				   off, buf, len, data, ref);
	else
		n = v->d->read(v->dctx, vn->ino, &vn->rec.layout, size, off,
			       buf, len);
	pthread_rwlock_unlock(&vn->io);
	if (n >= 0 && !v->opts.noatime && !v->opts.readonly &&
	    !(f->flags & O_NOATIME)) {
		struct timespec t;

		now(&t);
		pthread_mutex_lock(&vn->m);
		/* relatime: only when atime is not newer than m/ctime, or a
		 * day old.  Written back lazily with the record. */
		if (ts_le(&vn->rec.atime, &vn->rec.mtime) ||
		    ts_le(&vn->rec.atime, &vn->rec.ctime) ||
		    t.tv_sec - vn->rec.atime.tv_sec >= 24 * 3600) {
			vn->rec.atime = t;
			vn->dirty = 1;
		}
		pthread_mutex_unlock(&vn->m);
	}
	return n;
}

void vfs_read_done(vfs *v, void *ref)
{
	if (ref)
		v->d->read_done(v->dctx, ref);
}

/* An unprivileged write clears setuid/setgid (every time: the mode is in
 * memory) and file capabilities (looked up once per handle). */
int kill_privs(vfs *v, const struct vfs_cred *c, vfs_file *f)
{
	struct vnode *vn = f->vn;
	int rc = 0;

	if (!c || c->uid == 0)
		return 0;
	pthread_mutex_lock(&vn->m);
	if (kill_bits(vn->rec.mode)) {
		vn->rec.mode &= ~kill_bits(vn->rec.mode);
		now(&vn->rec.ctime);
		vn->dirty = 1;
		rc = vn_persist_locked(v, vn, 0);
		__atomic_store_n(&f->attr_changed, 1, __ATOMIC_RELEASE);
	}
	if (rc == 0 && !f->privs_killed) {
		if ((vn->rec.flags & MDS_F_XATTRS) &&
		    mds_get_xattr(v->m, vn->ino, XATTR_CAPS, NULL, NULL) == 0) {
			kv_batch *b = kv_batch_new();

			rc = -ENOMEM;
			if (b) {
				mds_del_xattr(b, vn->ino, XATTR_CAPS);
				rc = kv_batch_commit(v->db, b, 0);
				kv_batch_free(b);
			}
		}
		if (rc == 0)
			f->privs_killed = 1;
	}
	pthread_mutex_unlock(&vn->m);
	return rc;
}

static ssize_t write_once(vfs *v, const struct vfs_cred *c, vfs_file *f,
			  uint64_t off, const void *buf, size_t len)
{
	struct vnode *vn = f->vn;
	int append = f->flags & O_APPEND, excl = append != 0;
	ssize_t n;

	if ((f->flags & O_ACCMODE) == O_RDONLY)
		return -EBADF;
	if (v->opts.readonly)
		return -EROFS;
	if (len == 0)
		return 0;
	n = kill_privs(v, c, f);
	if (n)
		return n;
	/* Appends take the I/O lock exclusively so that the end does not
	 * move between reading it and writing there. */
	if (append)
		pthread_rwlock_wrlock(&vn->io);
	else
		pthread_rwlock_rdlock(&vn->io);
	if (append) {
		pthread_mutex_lock(&vn->m);
		off = vn->rec.size;
		pthread_mutex_unlock(&vn->m);
	}
	/* Linux's generic_write_check_limits(): nothing fits at or past
	 * the largest size (EFBIG), a write across it is cut short there
	 * (POSIX: "only as many bytes as there is room for") */
	if (off >= VFS_MAX_FILE_SIZE) {
		n = -EFBIG;
		goto out;
	}
	if (len > VFS_MAX_FILE_SIZE - off)
		len = (size_t)(VFS_MAX_FILE_SIZE - off);
	/* the committed writeable range must cover the bytes first */
	n = wr_prepare(v, vn, off, off + len, &excl);
	if (n)
		goto out;
	n = v->d->write(v->dctx, vn->ino, &vn->rec.layout, off, buf, len);
	if (n > 0) {
		pthread_mutex_lock(&vn->m);
		if (off + (uint64_t)n > vn->rec.size)
			vn->rec.size = off + (uint64_t)n;
		now(&vn->rec.mtime);
		vn->rec.ctime = vn->rec.mtime;
		vn->dirty = 1;
		pthread_mutex_unlock(&vn->m);
	}
out:
	pthread_rwlock_unlock(&vn->io);
	return n;
}

/* A write refused for want of room while removed files still wait for
 * their purge (purge_queue.c) is asked again once they are gone: an rm
 * followed by a write must find the room, as it did when the purge ran
 * in the rm's FORGET.  Once: a second refusal is the pool's answer. */
ssize_t vfs_write(vfs *v, const struct vfs_cred *c, vfs_file *f,
		  uint64_t off, const void *buf, size_t len)
{
	ssize_t n = write_once(v, c, f, off, buf, len);

	if (n == -ENOSPC && pq_drain(v))
		n = write_once(v, c, f, off, buf, len);
	return n;
}

/* close(2): nothing to do.  Data went through synchronously; the new
 * size and times reach the store with the next vfs_flush_all() (the
 * daemon's flusher, every 2 s), fsync, or when the inode leaves the
 * table - one write for a whole copy, none for a file deleted at once. */
int vfs_flush(vfs *v, vfs_file *f)
{
	/* close(2) returns what a written-back write met (ENOSPC, EIO) */
	if (vfs_file_noflush(v, f))
		return 0;
	return v->d->flush(v->dctx, f->vn->ino);
}

int vfs_file_noflush(vfs *v, const vfs_file *f)
{
	return (f->flags & O_ACCMODE) == O_RDONLY || !v->d->flush ||
	       (v->d->flush_needed && !v->d->flush_needed(v->dctx));
}

int vfs_fsync(vfs *v, vfs_file *f, int datasync)
{
	struct vnode *vn = f->vn;
	uint64_t size;
	int rc;

	struct ol_layout l;

	(void)datasync; /* the size is needed metadata: same work */
	pthread_mutex_lock(&vn->m);
	size = vn->rec.size;
	l = vn->rec.layout;
	pthread_mutex_unlock(&vn->m);
	rc = v->d->sync(v->dctx, vn->ino, &l, size);
	if (rc)
		return rc;
	/* its place too (logged, not failed: it serves a rebuild only) */
	btq_flush(v, vn->ino, 1, 0);
	pthread_mutex_lock(&vn->m);
	rc = vn_persist_locked(v, vn, 1);
	pthread_mutex_unlock(&vn->m);
	return rc;
}

int vfs_release(vfs *v, vfs_file *f)
{
	int rc = vfs_flush(v, f);

	handle_del(v, &f->h);
	if ((f->flags & O_ACCMODE) != O_RDONLY)
		wr_release(v, f->vn);
	vn_close(v, f->vn);
	free(f);
	return rc;
}
