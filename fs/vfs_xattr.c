/*
 * vfs_xattr.c - extended attributes (virtual layout xattrs in vxattr.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>

#include "util.h"
#include "vfs_i.h"

/* ---- extended attributes ---- */

/*
 * security.selinux on a host without SELinux: "not supported" for an
 * inode that never had an xattr.  ls -l (coreutils 9.1 ls.c,
 * getfilecon_cache) asks for every entry's label with lgetxattr and,
 * after one EOPNOTSUPP, no more on that st_dev: one FUSE GETXATTR round
 * trip per entry less (the other, system.posix_acl_access, must stay:
 * the kernel enforces ACLs, and fuse_direntplus_link() forgets the
 * inode's cached ACLs on every READDIRPLUS).  It is what the kernel says
 * itself where SELinux labels this mount by genfscon (the default
 * policy's for fuse): selinux_inode_setxattr() refuses a label with
 * EOPNOTSUPP, and a get never reaches the filesystem.  A label stored
 * all the same (setfattr, rsync -X, tar --selinux) marks the inode
 * MDS_F_XATTRS, and from then on it is read back as any xattr, as is
 * every name on an inode with xattrs (ENODATA when absent).
 */
#define XATTR_SELINUX "security.selinux"

int vfs_setxattr(vfs *v, uint64_t ino, const char *name, const void *val,
		 size_t size, int flags)
{
	return vfs_setxattr_as(v, NULL, ino, name, val, size, flags);
}

int vfs_setxattr_as(vfs *v, const struct vfs_cred *c, uint64_t ino,
		    const char *name, const void *val, size_t size, int flags)
{
	struct vnode *vn;
	struct mds_inode r;
	kv_batch *b = NULL;
	size_t nlen = strlen(name);
	int rc;

	if (v->opts.readonly)
		return -EROFS;
	if (nlen == 0 || nlen > MDS_XATTR_NAME_MAX)
		return -ERANGE;
	if (size > MDS_XATTR_SIZE_MAX)
		return -E2BIG;
	if (flags & ~(XATTR_CREATE | XATTR_REPLACE))
		return -EINVAL;
	rc = vn_get(v, ino, 0, &vn);
	if (rc)
		return rc;
	if (vxattr_is_virtual(name)) {
		struct ol_layout l;

		/* Layouts change only while a file has no data. */
		pthread_rwlock_wrlock(&vn->io);
		pthread_mutex_lock(&vn->m);
		rc = vxattr_set_layout(v, &vn->rec, name, val, size, &l);
		if (rc == 0) {
			vn->rec.layout = l;
			now(&vn->rec.ctime);
			vn->dirty = 1;
			rc = vn_persist_locked(v, vn, 0);
			if (rc == 0 && S_ISREG(vn->rec.mode))
				btq_touch(v, ino); /* it records the layout */
			else if (rc == 0)
				vx_layouts_changed(v);
		}
		pthread_mutex_unlock(&vn->m);
		pthread_rwlock_unlock(&vn->io);
		goto out;
	}
	if (acl_name_type(name)) {
		rc = acl_set(v, c, vn, acl_name_type(name), val, size, flags);
		goto out;
	}
	b = kv_batch_new();
	if (!b) {
		rc = -ENOMEM;
		goto out;
	}
	/* The record mutex serializes read-modify-write of this inode's
	 * attributes. */
	pthread_mutex_lock(&vn->m);
	if (flags) {
		rc = mds_get_xattr(v->m, ino, name, NULL, NULL);
		if (rc == 0)
			rc = (flags & XATTR_CREATE) ? -EEXIST : 0;
		else if (rc == -ENODATA)
			rc = (flags & XATTR_REPLACE) ? -ENODATA : 0;
	}
	if (rc == 0) {
		r = vn->rec;
		now(&r.ctime);
		r.flags |= MDS_F_XATTRS;
		mds_put_xattr(b, ino, name, val, size);
		mds_put_inode(b, &r);
		rc = commit(v, b);
		if (rc == 0) {
			vn->rec = r;
			vn->dirty = 0;
		}
	}
	pthread_mutex_unlock(&vn->m);
out:
	kv_batch_free(b);
	vn_put(v, vn);
	return rc;
}

ssize_t vfs_getxattr(vfs *v, uint64_t ino, const char *name, void *buf,
		     size_t size)
{
	struct mds_inode r;
	void *val;
	size_t len;
	int rc;

	if (strlen(name) > MDS_XATTR_NAME_MAX)
		return -ERANGE;
	rc = vfs_stat_inode(v, ino, &r);
	if (rc)
		return rc;
	if (vxattr_is_virtual(name))
		return vxattr_get(v, &r, name, buf, size);
	/* The kernel asks for security.capability before a file's first
	 * write(2) (S_NOSEC then, FUSE_HANDLE_KILLPRIV_V2) and ls -l asks
	 * two names per entry: answer from memory for inodes that never had
	 * an xattr. */
	if (!(r.flags & MDS_F_XATTRS))
		return v->opts.no_selinux && !strcmp(name, XATTR_SELINUX) ?
			       -EOPNOTSUPP : -ENODATA;
	rc = mds_get_xattr(v->m, ino, name, &val, &len);
	if (rc)
		return rc;
	if (size == 0) {
		free(val);
		return (ssize_t)len;
	}
	if (len > size) {
		free(val);
		return -ERANGE;
	}
	memcpy(buf, val, len);
	free(val);
	return (ssize_t)len;
}

struct list_ctx {
	char *buf;
	size_t size, len;
};

static int list_cb(const char *name, size_t nlen, const void *val,
		   size_t vlen, void *arg)
{
	struct list_ctx *c = arg;

	(void)val, (void)vlen;
	if (c->size && c->len + nlen + 1 <= c->size) {
		memcpy(c->buf + c->len, name, nlen);
		c->buf[c->len + nlen] = '\0';
	}
	c->len += nlen + 1;
	return 0;
}

ssize_t vfs_listxattr(vfs *v, uint64_t ino, char *buf, size_t size)
{
	struct list_ctx c = { buf, size, 0 };
	struct mds_inode r;
	int rc = vfs_stat_inode(v, ino, &r);

	if (rc)
		return rc;
	if (!(r.flags & MDS_F_XATTRS))
		return 0;
	rc = mds_list_xattrs(v->m, ino, list_cb, &c);
	if (rc)
		return rc;
	if (size && c.len > size)
		return -ERANGE;
	return (ssize_t)c.len;
}

int vfs_removexattr(vfs *v, uint64_t ino, const char *name)
{
	struct vnode *vn;
	struct mds_inode r;
	kv_batch *b;
	int rc;

	if (v->opts.readonly)
		return -EROFS;
	if (strlen(name) > MDS_XATTR_NAME_MAX)
		return -ERANGE;
	rc = vn_get(v, ino, 0, &vn);
	if (rc)
		return rc;
	if (vxattr_is_virtual(name)) {
		/* only a directory's ceph.dir.layout goes */
		pthread_mutex_lock(&vn->m);
		rc = vxattr_remove(v, &vn->rec, name);
		if (rc == 0) {
			memset(&vn->rec.layout, 0, sizeof(vn->rec.layout));
			now(&vn->rec.ctime);
			vn->dirty = 1;
			rc = vn_persist_locked(v, vn, 0);
			if (rc == 0)
				vx_layouts_changed(v);
		}
		pthread_mutex_unlock(&vn->m);
		vn_put(v, vn);
		return rc;
	}
	if (acl_name_type(name)) {
		rc = acl_set(v, NULL, vn, acl_name_type(name), NULL, 0, 0);
		vn_put(v, vn);
		return rc;
	}
	b = kv_batch_new();
	if (!b) {
		vn_put(v, vn);
		return -ENOMEM;
	}
	pthread_mutex_lock(&vn->m);
	rc = (vn->rec.flags & MDS_F_XATTRS) ?
		     mds_get_xattr(v->m, ino, name, NULL, NULL) :
		     -ENODATA;
	if (rc == 0) {
		r = vn->rec;
		now(&r.ctime);
		mds_del_xattr(b, ino, name);
		mds_put_inode(b, &r);
		rc = commit(v, b);
		if (rc == 0) {
			vn->rec = r;
			vn->dirty = 0;
		}
	}
	pthread_mutex_unlock(&vn->m);
	kv_batch_free(b);
	vn_put(v, vn);
	return rc;
}
