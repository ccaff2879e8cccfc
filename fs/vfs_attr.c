/*
 * vfs_attr.c - lookup, attributes, access(2), statfs and path resolution.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "vfs_i.h"

/* ---- lookup / attributes ---- */

int vfs_lookup(vfs *v, uint64_t parent, const char *name,
	       struct vfs_entry *e)
{
	struct vnode *dv = NULL, *vn;
	struct mds_dentry d;
	uint64_t ino;
	int rc;

	if (strlen(name) > MDS_NAME_MAX)
		return -ENAMETOOLONG;
	ns_rd(v);
	rc = get_dir(v, parent, &dv);
	if (rc)
		goto out;
	if (!strcmp(name, ".")) {
		ino = parent;
	} else if (!strcmp(name, "..")) {
		ino = dir_parent(dv);
	} else {
		rc = mds_lookup(v->m, parent, name, &d);
		if (rc)
			goto out;
		ino = d.ino;
	}
	rc = vn_get(v, ino, 1, &vn);
	if (rc) {
		if (rc == -ENOENT)
			cfs_log(CFS_LOG_ERR,
				"entry '%s' in %llx points at missing inode "
				"%llx (run fsck)",
				name, (unsigned long long)parent,
				(unsigned long long)ino);
		rc = rc == -ENOENT ? -EIO : rc;
		goto out;
	}
	fill_entry(vn, e);
	vn_put(v, vn);
out:
	ns_un(v);
	vn_put(v, dv);
	return rc;
}

void vfs_forget(vfs *v, uint64_t ino, uint64_t nlookup)
{
	vn_forget(v, ino, nlookup);
}

int vfs_getattr(vfs *v, uint64_t ino, struct stat *st)
{
	struct vnode *vn;
	int rc = vn_get(v, ino, 0, &vn);

	if (rc)
		return rc;
	pthread_mutex_lock(&vn->m);
	vfs_fill_stat(&vn->rec, st);
	pthread_mutex_unlock(&vn->m);
	vn_put(v, vn);
	return 0;
}

int vfs_stat_inode(vfs *v, uint64_t ino, struct mds_inode *out)
{
	struct vnode *vn;
	int rc = vn_get(v, ino, 0, &vn);

	if (rc)
		return rc;
	pthread_mutex_lock(&vn->m);
	*out = vn->rec;
	pthread_mutex_unlock(&vn->m);
	vn_put(v, vn);
	return 0;
}


int vfs_setattr(vfs *v, const struct vfs_cred *c, uint64_t ino,
		const struct stat *st, int to_set, struct stat *out)
{
	struct vnode *vn;
	struct mds_inode r;
	struct timespec t;
	int privileged = !c || c->uid == 0;
	int kill = 0, rc;

	if (v->opts.readonly)
		return -EROFS;
	rc = vn_get(v, ino, 0, &vn);
	if (rc)
		return rc;
	if (to_set & VFS_SET_SIZE) {
		pthread_mutex_lock(&vn->m);
		rc = S_ISDIR(vn->rec.mode) ? -EISDIR :
		     !S_ISREG(vn->rec.mode) ? -EINVAL : 0;
		pthread_mutex_unlock(&vn->m);
		if (rc == 0 && st->st_size < 0)
			rc = -EINVAL;
		if (rc == 0)
			rc = do_truncate(v, vn, (uint64_t)st->st_size, 0);
		if (rc)
			goto out;
	}
	now(&t);
	pthread_mutex_lock(&vn->m);
	r = vn->rec;
	if (to_set & VFS_SET_MODE)
		r.mode = (r.mode & S_IFMT) | (st->st_mode & 07777);
	if (to_set & VFS_SET_UID)
		r.uid = st->st_uid;
	if (to_set & VFS_SET_GID)
		r.gid = st->st_gid;
	if (to_set & VFS_SET_ATIME_NOW)
		r.atime = t;
	else if (to_set & VFS_SET_ATIME)
		r.atime = st->st_atim;
	if (to_set & VFS_SET_MTIME_NOW)
		r.mtime = t;
	else if (to_set & VFS_SET_MTIME)
		r.mtime = st->st_mtim;
	if (to_set & VFS_SET_CTIME)
		r.ctime = st->st_ctim;
	else if (to_set & ~VFS_SET_SIZE)
		r.ctime = t;
	/* chown of a non-directory (anyone), truncate by a non-root user:
	 * setuid/setgid and file capabilities go (Linux chown_common(),
	 * do_truncate()). */
	if ((to_set & (VFS_SET_UID | VFS_SET_GID)) && !(to_set & VFS_SET_MODE))
		kill = 1;
	if ((to_set & VFS_SET_SIZE) && !privileged)
		kill = 1;
	if (kill && S_ISREG(r.mode)) {
		r.mode &= ~kill_bits(r.mode);
		if ((r.flags & MDS_F_XATTRS) &&
		    mds_get_xattr(v->m, ino, XATTR_CAPS, NULL, NULL) == 0) {
			kv_batch *b = kv_batch_new();

			rc = -ENOMEM;
			if (b) {
				mds_del_xattr(b, ino, XATTR_CAPS);
				mds_put_inode(b, &r);
				rc = commit(v, b);
				kv_batch_free(b);
			}
			if (rc == 0) {
				vn->rec = r;
				vn->dirty = 0;
			}
		}
	}
	/* chmod: a stored access ACL follows the mode, in one batch with
	 * the record (posix_acl_chmod()) */
	if (rc == 0 && (to_set & VFS_SET_MODE) && (r.flags & MDS_F_XATTRS)) {
		kv_batch *b = kv_batch_new();

		rc = b ? acl_chmod(v, &r, b) : -ENOMEM;
		if (rc == 1) {
			mds_put_inode(b, &r);
			rc = commit(v, b);
			if (rc == 0) {
				vn->rec = r;
				vn->dirty = 0;
			}
		}
		kv_batch_free(b);
	}
	if (rc == 0 && memcmp(&r, &vn->rec, sizeof(r))) {
		/* Times alone are written back lazily, as a write's mtime
		 * and a parent's times are (itab_flush_all, an fsync, the
		 * inode's release): tar's utimensat and its chown to the
		 * owner it has were one RocksDB write each per file.  A
		 * mode or an owner is committed before the reply. */
		struct mds_inode same = r;
		int times_only;

		same.atime = vn->rec.atime;
		same.mtime = vn->rec.mtime;
		same.ctime = vn->rec.ctime;
		times_only = !memcmp(&same, &vn->rec, sizeof(same));
		vn->rec = r;
		vn->dirty = 1;
		if (!times_only)
			rc = vn_persist_locked(v, vn, 0);
	}
	/* the backtrace records mode and owner */
	if (rc == 0 && (to_set & (VFS_SET_MODE | VFS_SET_UID | VFS_SET_GID)))
		btq_touch(v, ino);
	if (out)
		vfs_fill_stat(&vn->rec, out);
	pthread_mutex_unlock(&vn->m);
out:
	vn_put(v, vn);
	return rc;
}

/* ---- access / statfs ---- */

int vfs_access(vfs *v, const struct vfs_cred *c, uint64_t ino, int mask)
{
	struct mds_inode r;
	int rc = vfs_stat_inode(v, ino, &r);
	unsigned int bits;

	if (rc)
		return rc;
	if (mask == F_OK)
		return 0;
	if ((mask & W_OK) && v->opts.readonly)
		return -EROFS;
	if (c->uid == 0) {
		/* Root may execute only what someone may execute. */
		if ((mask & X_OK) && !S_ISDIR(r.mode) && !(r.mode & 0111))
			return -EACCES;
		return 0;
	}
	if (c->uid == r.uid)
		bits = (r.mode >> 6) & 7;
	else if (in_group(c, r.gid))
		bits = (r.mode >> 3) & 7;
	else
		bits = r.mode & 7;
	if ((mask & R_OK) && !(bits & 4))
		return -EACCES;
	if ((mask & W_OK) && !(bits & 2))
		return -EACCES;
	if ((mask & X_OK) && !(bits & 1))
		return -EACCES;
	return 0;
}

int vfs_statfs(vfs *v, struct statvfs *st)
{
	struct ol_space s;
	const unsigned long bs = 4096;
	uint64_t used;
	int rc = v->d->space(v->dctx, &s);

	if (rc)
		return rc;
	memset(st, 0, sizeof(*st));
	st->f_bsize = bs;
	st->f_frsize = bs;
	/* df shows Size = blocks, Used = blocks - bfree, Avail = bavail:
	 * the pool's size, its used bytes and ceph df's MAX AVAIL. */
	st->f_blocks = s.total / bs;
	st->f_bfree = s.used >= s.total ? 0 : (s.total - s.used) / bs;
	st->f_bavail = s.max_avail / bs;
	if (st->f_bavail > st->f_bfree)
		st->f_bavail = st->f_bfree;
	/* df -i: used = the inode records (a counter kept with them, as
	 * CephFS reports its root's rstat file count); inode numbers are
	 * 64-bit, so the total is a round 2^32 until more are used. */
	used = mds_inode_count(v->m);
	/* purged inodes whose records go with the next write-back are
	 * gone already; queued ones (purge_queue.c) still count, as bytes
	 * do, until the worker gets to them: CephFS's strays count in its
	 * rstats until the PurgeQueue is through with them */
	pthread_mutex_lock(&v->plock);
	used = used > v->npurged ? used - v->npurged : 0;
	pthread_mutex_unlock(&v->plock);
	st->f_files = used < (1ULL << 32) ? 1ULL << 32 : used;
	st->f_ffree = st->f_files - used;
	st->f_favail = st->f_ffree;
	st->f_namemax = MDS_NAME_MAX;
	return 0;
}

/* ---- paths ---- */

int vfs_resolve(vfs *v, const char *path, uint64_t *out)
{
	uint64_t ino = MDS_ROOT_INO;
	char comp[MDS_NAME_MAX + 1];
	const char *p = path;
	int rc = 0;

	ns_rd(v);
	while (*p) {
		struct mds_inode r;
		struct mds_dentry d;
		size_t n;

		while (*p == '/')
			p++;
		if (!*p)
			break;
		n = strcspn(p, "/");
		if (n > MDS_NAME_MAX) {
			rc = -ENAMETOOLONG;
			break;
		}
		memcpy(comp, p, n);
		comp[n] = '\0';
		p += n;
		rc = vfs_stat_inode(v, ino, &r);
		if (rc)
			break;
		if (!S_ISDIR(r.mode)) {
			rc = -ENOTDIR;
			break;
		}
		if (!strcmp(comp, "."))
			continue;
		if (!strcmp(comp, "..")) {
			ino = r.parent ? r.parent : MDS_ROOT_INO;
			continue;
		}
		rc = mds_lookup(v->m, ino, comp, &d);
		if (rc)
			break;
		ino = d.ino;
	}
	ns_un(v);
	if (rc == 0)
		*out = ino;
	return rc;
}
