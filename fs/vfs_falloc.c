/*
 * vfs_falloc.c - fallocate(2) and the preallocated end of a file.
 *
 * The modes are the ones the kernel's FUSE client passes on
 * (fuse_file_fallocate: KEEP_SIZE, PUNCH_HOLE, ZERO_RANGE); the object
 * work is ol_fallocate's.  Unlike ceph-fuse (Client::_fallocate, which
 * only moves the size), an allocation here takes real space, so a later
 * write into it cannot fail with ENOSPC, and an allocation that would
 * push an OSD over full_ratio fails like a write.
 *
 * An allocation past the size leaves objects holding zeros past the end
 * of the file (for good with KEEP_SIZE, until the size catches up
 * otherwise).  Its end is recorded first (the inode's 'P' record, flag
 * MDS_F_PREALLOC), before any object is touched, so that delete, truncate
 * and fsck reach those objects, even after a crash in the middle.  As in
 * ext4, a truncate to the size or below drops the preallocation
 * (ext4_setattr() truncates the blocks past EOF), a truncate up keeps it.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>

#include "util.h"
#include "vfs_i.h"

uint64_t vn_data_end(vfs *v, const struct mds_inode *r)
{
	uint64_t end;
	int rc;

	if (!(r->flags & MDS_F_PREALLOC))
		return r->size;
	rc = mds_get_prealloc(v->m, r->ino, &end);
	if (rc) {
		if (rc != -ENOENT)
			cfs_log(CFS_LOG_WARN,
				"inode %llx: reading its preallocated end: %s",
				(unsigned long long)r->ino, cfs_strerror(rc));
		return r->size;
	}
	return end > r->size ? end : r->size;
}

/* Record that objects may hold bytes up to end (vn->m held), before they
 * do. */
static int record_prealloc(vfs *v, struct vnode *vn, uint64_t end)
{
	struct mds_inode r = vn->rec;
	kv_batch *b;
	uint64_t cur;
	int rc;

	if ((r.flags & MDS_F_PREALLOC) &&
	    mds_get_prealloc(v->m, r.ino, &cur) == 0 && cur >= end)
		return 0;
	b = kv_batch_new();
	if (!b)
		return -ENOMEM;
	r.flags |= MDS_F_PREALLOC;
	mds_put_prealloc(b, r.ino, end);
	mds_put_inode(b, &r);
	rc = commit(v, b);
	kv_batch_free(b);
	if (rc == 0) {
		vn->rec = r;
		vn->dirty = 0;
	}
	return rc;
}

int vn_trim_prealloc(vfs *v, struct vnode *vn, uint64_t size)
{
	struct mds_inode r;
	kv_batch *b;
	int rc;

	pthread_mutex_lock(&vn->m);
	r = vn->rec;
	pthread_mutex_unlock(&vn->m);
	rc = v->d->truncate(v->dctx, vn->ino, &r.layout, vn_data_end(v, &r),
			    size);
	if (rc)
		return rc;
	/* objects first, then the record: a crash between leaves a record
	 * that reaches too far, never one that falls short */
	b = kv_batch_new();
	if (!b)
		return -ENOMEM;
	pthread_mutex_lock(&vn->m);
	r = vn->rec;
	r.flags &= ~MDS_F_PREALLOC;
	mds_del_prealloc(b, r.ino);
	mds_put_inode(b, &r);
	rc = commit(v, b);
	if (rc == 0) {
		vn->rec = r;
		vn->dirty = 0;
	}
	pthread_mutex_unlock(&vn->m);
	kv_batch_free(b);
	return rc;
}

/* fallocate(2)'s flags -> the object layer's mode; -EOPNOTSUPP for the
 * rest (COLLAPSE_RANGE, INSERT_RANGE, UNSHARE_RANGE and punching without
 * KEEP_SIZE, as vfs_fallocate() in Linux refuses it). */
static int falloc_mode(int mode, enum ol_falloc_mode *om)
{
	if (mode & ~(FALLOC_FL_KEEP_SIZE | FALLOC_FL_PUNCH_HOLE |
		     FALLOC_FL_ZERO_RANGE))
		return -EOPNOTSUPP;
	if (mode & FALLOC_FL_PUNCH_HOLE) {
		if (!(mode & FALLOC_FL_KEEP_SIZE) ||
		    (mode & FALLOC_FL_ZERO_RANGE))
			return -EOPNOTSUPP;
		*om = OL_FALLOC_PUNCH;
	} else if (mode & FALLOC_FL_ZERO_RANGE) {
		*om = OL_FALLOC_ZERO;
	} else {
		*om = OL_FALLOC_ALLOCATE;
	}
	return 0;
}

static int falloc_once(vfs *v, const struct vfs_cred *c, vfs_file *f,
		       int mode, uint64_t off, uint64_t len)
{
	struct vnode *vn = f->vn;
	enum ol_falloc_mode om;
	uint64_t size, end, data_end = 0;
	int grown = 0, rc;

	rc = falloc_mode(mode, &om);
	if (rc)
		return rc;
	if ((f->flags & O_ACCMODE) == O_RDONLY)
		return -EBADF;
	if (v->opts.readonly)
		return -EROFS;
	if (len == 0)
		return -EINVAL;
	if (off > VFS_MAX_FILE_SIZE || len > VFS_MAX_FILE_SIZE - off)
		return -EFBIG;
	if (!v->d->fallocate)
		return -EOPNOTSUPP;
	/* setuid/setgid and capabilities go as for a write (Linux:
	 * file_modified() in the filesystems' fallocate) */
	rc = kill_privs(v, c, f);
	if (rc)
		return rc;
	end = off + len;
	/* exclusive, as truncate: an allocation reads each object's size
	 * and writes past it, which no write may race */
	pthread_rwlock_wrlock(&vn->io);
	pthread_mutex_lock(&vn->m);
	size = vn->rec.size;
	data_end = vn_data_end(v, &vn->rec);
	if (om != OL_FALLOC_PUNCH && end > size) {
		/* nothing is stored past the data's end: that much is needed
		 * for certain.  Refused here when the pool cannot have it, so
		 * that no absurd end is ever recorded (delete and truncate
		 * walk the objects up to it). */
		uint64_t from = off > data_end ? off : data_end;
		struct ol_space s;

		if (end > from && v->d->space(v->dctx, &s) == 0 &&
		    end - from > s.max_avail)
			rc = -ENOSPC;
		else
			rc = record_prealloc(v, vn, end);
	}
	pthread_mutex_unlock(&vn->m);
	if (rc)
		goto out;
	if (om == OL_FALLOC_PUNCH) {
		/* nothing is stored past the data's end: no work there, so a
		 * punch to "the end of everything" costs nothing extra */
		if (end > data_end)
			end = data_end;
		if (off < end)
			rc = v->d->fallocate(v->dctx, vn->ino, &vn->rec.layout,
					     off, end - off, om);
	} else {
		rc = v->d->fallocate(v->dctx, vn->ino, &vn->rec.layout, off,
				     len, om);
	}
	if (rc)
		goto out;
	pthread_mutex_lock(&vn->m);
	if (!(mode & FALLOC_FL_KEEP_SIZE) && end > vn->rec.size) {
		vn->rec.size = end;
		grown = 1;
	}
	/* ext4: ctime always, mtime when the size or the content changed */
	now(&vn->rec.ctime);
	if (grown || om != OL_FALLOC_ALLOCATE)
		vn->rec.mtime = vn->rec.ctime;
	vn->dirty = 1;
	rc = vn_persist_locked(v, vn, 0);
	pthread_mutex_unlock(&vn->m);
out:
	pthread_rwlock_unlock(&vn->io);
	return rc;
}

/* Refused for want of room while removed files wait for their purge:
 * once more after a drain, as vfs_write (vfs_file.c). */
int vfs_fallocate(vfs *v, const struct vfs_cred *c, vfs_file *f, int mode,
		  uint64_t off, uint64_t len)
{
	int rc = falloc_once(v, c, f, mode, off, len);

	if (rc == -ENOSPC && pq_drain(v))
		rc = falloc_once(v, c, f, mode, off, len);
	return rc;
}
