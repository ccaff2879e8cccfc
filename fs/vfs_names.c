/*
 * vfs_names.c - creating names: mknod, mkdir, symlink, create (make_node)
 * and hard links; readlink.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "vfs_i.h"
#include "wrange_i.h"

/* ---- creating names ---- */

/* A name that may be created on this mount (before any lock). */
static int new_name_ok(vfs *v, const char *name)
{
	int rc;

	if (v->opts.readonly)
		return -EROFS;
	rc = check_name(name);
	if (rc)
		return rc;
	return is_dot(name) ? -EEXIST : 0;
}

/* 0 if parent has no entry name (namespace lock held), else -EEXIST or
 * the store's error. */
static int name_is_free(vfs *v, uint64_t parent, const char *name)
{
	struct mds_dentry d;
	int rc = mds_lookup(v->m, parent, name, &d);

	return rc == 0 ? -EEXIST : rc == -ENOENT ? 0 : rc;
}

int make_node(vfs *v, const struct vfs_cred *c, uint64_t parent,
		     const char *name, mode_t mode, dev_t rdev,
		     const char *target, uint32_t nopen, struct vfs_entry *e,
		     struct vnode **out)
{
	struct vnode *dv = NULL, *vn = NULL;
	struct mds_inode r, pr;
	struct mds_dentry d;
	kv_batch *b = NULL;
	int rc;

	rc = new_name_ok(v, name);
	if (rc)
		return rc;
	ns_wr(v);
	rc = get_dir(v, parent, &dv);
	if (!rc)
		rc = name_is_free(v, parent, name);
	if (rc)
		goto out;
	memset(&r, 0, sizeof(r));
	rc = mds_alloc_ino(v->m, &r.ino);
	if (rc)
		goto out;
	b = kv_batch_new();
	if (!b) {
		rc = -ENOMEM;
		goto out;
	}

	pthread_mutex_lock(&dv->m);
	pr = dv->rec;
	if (S_ISDIR(mode) && pr.nlink >= VFS_LINK_MAX) {
		pthread_mutex_unlock(&dv->m);
		rc = -EMLINK;
		goto out;
	}
	/* the umask, or the parent's default ACL, comes below */
	r.mode = (mode & S_IFMT) | (mode & 07777);
	r.uid = c->uid;
	r.gid = c->gid;
	if (pr.mode & S_ISGID) {
		/* BSD group semantics for setgid directories (ext4). */
		r.gid = pr.gid;
		if (S_ISDIR(mode))
			r.mode |= S_ISGID;
	}
	if (!S_ISDIR(mode) && (r.mode & S_ISGID) && (r.mode & S_IXGRP) &&
	    c->uid != 0 && !in_group(c, r.gid))
		r.mode &= ~S_ISGID;
	r.nlink = S_ISDIR(mode) ? 2 : 1;
	r.rdev = (S_ISCHR(mode) || S_ISBLK(mode)) ? rdev : 0;
	r.parent = S_ISDIR(mode) ? parent : 0;
	r.generation = 1;
	now(&r.btime);
	r.atime = r.mtime = r.ctime = r.btime;
	if (S_ISREG(mode))
		vx_new_file_layout(v, dv, &r.layout);
	/* A file created to be opened (vfs_create) gets one object set of
	 * writeable range with its creation, as CephFS's openc grants
	 * get_layout_size_increment(): a small file's writes need no
	 * commit of their own (wrange.c). */
	if (S_ISREG(mode) && out)
		r.max_size = wr_new_max_size(&r.layout, 0);
	rc = acl_inherit(v, &pr, &r, c->umask, b);
	if (rc) {
		pthread_mutex_unlock(&dv->m);
		goto out;
	}
	if (S_ISLNK(mode)) {
		r.size = strlen(target);
		mds_put_symlink(b, r.ino, target, r.size);
	}
	mds_put_inode(b, &r);
	d.ino = r.ino;
	d.type = mds_mode_to_dt(r.mode);
	mds_put_dentry(b, parent, name, &d);
	btq_mark_new(v, b, r.ino, parent, name);
	pr.mtime = pr.ctime = r.btime;
	/* The parent's link count changes with a subdirectory and goes in
	 * the batch; its times alone are written back lazily. */
	if (S_ISDIR(mode)) {
		pr.nlink++;
		mds_put_inode(b, &pr);
	}
	rc = commit_counted(v, b, 1);
	if (rc == 0) {
		dv->dirty = !S_ISDIR(mode);
		dv->rec = pr;
		/* its backtrace, lazily */
		btq_set_marked(v, r.ino, parent, name);
	}
	pthread_mutex_unlock(&dv->m);
	if (rc)
		goto out;
	rc = vn_insert_new(v, &r, 1, nopen, &vn);
	if (rc) {
		/* Created but unreachable from memory: the kernel gets an
		 * error; the entry is visible to a later lookup. */
		goto out;
	}
	fill_entry(vn, e);
	e->made_empty = S_ISREG(r.mode);
out:
	ns_un(v);
	kv_batch_free(b);
	vn_put(v, dv);
	if (out && rc == 0)
		*out = vn;
	else
		vn_put(v, vn);
	return rc;
}

int vfs_mknod(vfs *v, const struct vfs_cred *c, uint64_t parent,
	      const char *name, mode_t mode, dev_t rdev, struct vfs_entry *e)
{
	switch (mode & S_IFMT) {
	case 0:
		mode |= S_IFREG;
		break;
	case S_IFREG:
	case S_IFIFO:
	case S_IFCHR:
	case S_IFBLK:
	case S_IFSOCK:
		break;
	case S_IFDIR:
		return -EPERM;
	default:
		return -EINVAL;
	}
	return make_node(v, c, parent, name, mode, rdev, NULL, 0, e, NULL);
}

int vfs_mkdir(vfs *v, const struct vfs_cred *c, uint64_t parent,
	      const char *name, mode_t mode, struct vfs_entry *e)
{
	return make_node(v, c, parent, name, S_IFDIR | (mode & 07777), 0, NULL,
			 0, e, NULL);
}

int vfs_symlink(vfs *v, const struct vfs_cred *c, const char *target,
		uint64_t parent, const char *name, struct vfs_entry *e)
{
	struct vfs_cred c2 = *c;
	size_t n = strlen(target);

	if (n == 0)
		return -ENOENT;
	if (n > MDS_SYMLINK_MAX)
		return -ENAMETOOLONG;
	c2.umask = 0;
	return make_node(v, &c2, parent, name, S_IFLNK | 0777, 0, target, 0, e,
			 NULL);
}

ssize_t vfs_readlink(vfs *v, uint64_t ino, char *buf, size_t size)
{
	struct mds_inode r;
	char *t;
	size_t len;
	int rc = vfs_stat_inode(v, ino, &r);

	if (rc)
		return rc;
	if (!S_ISLNK(r.mode))
		return -EINVAL;
	rc = mds_get_symlink(v->m, ino, &t, &len);
	if (rc)
		return rc == -ENOENT ? -EIO : rc;
	if (len > size)
		len = size;
	memcpy(buf, t, len);
	free(t);
	return (ssize_t)len;
}

int vfs_link(vfs *v, uint64_t ino, uint64_t newparent, const char *newname,
	     struct vfs_entry *e)
{
	struct vnode *dv = NULL, *vn = NULL, *set[2];
	struct mds_inode r, pr;
	struct mds_dentry d;
	kv_batch *b = NULL;
	struct timespec t;
	int rc, k;

	rc = new_name_ok(v, newname);
	if (rc)
		return rc;
	ns_wr(v);
	rc = get_dir(v, newparent, &dv);
	if (!rc)
		rc = vn_get(v, ino, 0, &vn);
	if (!rc)
		rc = name_is_free(v, newparent, newname);
	if (rc)
		goto out;
	b = kv_batch_new();
	if (!b) {
		rc = -ENOMEM;
		goto out;
	}
	set[0] = dv;
	set[1] = vn;
	k = lock_set(set, 2, set);
	r = vn->rec;
	pr = dv->rec;
	if (S_ISDIR(r.mode))
		rc = -EPERM;
	else if (r.nlink == 0)
		rc = -ENOENT;
	else if (r.nlink >= VFS_LINK_MAX)
		rc = -EMLINK;
	if (rc == 0) {
		now(&t);
		r.nlink++;
		r.ctime = t;
		pr.mtime = pr.ctime = t;
		d.ino = ino;
		d.type = mds_mode_to_dt(r.mode);
		mds_put_dentry(b, newparent, newname, &d);
		mds_put_inode(b, &r);
		mds_put_inode(b, &pr);
		rc = commit(v, b);
	}
	if (rc == 0) {
		vn->rec = r;
		vn->dirty = 0;
		dv->rec = pr;
		dv->dirty = 0;
		btq_add(v, ino, newparent, newname);
	}
	unlock_set(set, k);
	if (rc == 0) {
		vn_ref(v, vn, 1, 0);
		fill_entry(vn, e);
	}
out:
	ns_un(v);
	kv_batch_free(b);
	vn_put(v, vn);
	vn_put(v, dv);
	return rc;
}
