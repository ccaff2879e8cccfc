/*
 * vfs_acl.c - POSIX ACLs kept consistent with the mode, as ext4 does.
 *
 * The daemon asks for FUSE_CAP_POSIX_ACL, so the kernel enforces ACLs in
 * its permission checks (it reads them with getxattr and caches them) and
 * leaves the rest to the filesystem (fs/fuse/acl.c: "Fuse userspace is
 * responsible for updating access permissions in the inode"):
 *  - setting an access ACL sets the mode's owner/group/other bits from
 *    it (posix_acl_update_mode()); an ACL the mode says entirely is not
 *    stored, and setgid goes when the caller is not in the file's group;
 *  - chmod updates the stored access ACL's USER_OBJ, MASK (or GROUP_OBJ)
 *    and OTHER entries (posix_acl_chmod());
 *  - a new entry in a directory with a default ACL gets it as its access
 *    ACL, masked by the mode asked for, and directories keep it as their
 *    default too; the umask is ignored then (posix_acl_create()).
 *    Otherwise the umask applies: with ACLs on the kernel leaves it to us
 *    (FUSE_CAP_DONT_MASK).
 * The values are the kernel's xattr format (posix_acl_xattr_header,
 * version 2, then 8-byte entries: le16 tag, le16 perm, le32 id), stored
 * as the xattrs "system.posix_acl_access" / "system.posix_acl_default".
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>

#include "util.h"
#include "vfs_i.h"

#define ACL_VERSION 2
#define TAG_USER_OBJ 0x01
#define TAG_USER 0x02
#define TAG_GROUP_OBJ 0x04
#define TAG_GROUP 0x08
#define TAG_MASK 0x10
#define TAG_OTHER 0x20

struct acl {
	size_t n;
	unsigned char *raw; /* the xattr value; entries at raw + 4 + 8 * i */
};

static unsigned get16(const unsigned char *p)
{
	return p[0] | (unsigned)p[1] << 8;
}

static void put16(unsigned char *p, unsigned v)
{
	p[0] = v & 0xff;
	p[1] = (v >> 8) & 0xff;
}

static unsigned tag(const struct acl *a, size_t i)
{
	return get16(a->raw + 4 + 8 * i);
}

static unsigned perm(const struct acl *a, size_t i)
{
	return get16(a->raw + 6 + 8 * i);
}

static void set_perm(struct acl *a, size_t i, unsigned p)
{
	put16(a->raw + 6 + 8 * i, p & 7);
}

int acl_name_type(const char *name)
{
	if (!strcmp(name, ACL_XATTR_ACCESS))
		return ACL_T_ACCESS;
	if (!strcmp(name, ACL_XATTR_DEFAULT))
		return ACL_T_DEFAULT;
	return 0;
}

/* posix_acl_valid(): USER_OBJ, USER..., GROUP_OBJ, GROUP..., [MASK],
 * OTHER, a mask whenever there are named entries.  raw is not copied. */
static int acl_view(const void *val, size_t size, struct acl *a)
{
	enum { S_UOBJ, S_USER, S_GROUP, S_OTHER, S_DONE } st = S_UOBJ;
	int needs_mask = 0;

	a->raw = (unsigned char *)val;
	if (size < 4 || (size - 4) % 8 || get16(a->raw) != ACL_VERSION ||
	    get16(a->raw + 2) != 0)
		return -EINVAL;
	a->n = (size - 4) / 8;
	for (size_t i = 0; i < a->n; i++) {
		if (perm(a, i) & ~7u)
			return -EINVAL;
		switch (tag(a, i)) {
		case TAG_USER_OBJ:
			if (st != S_UOBJ)
				return -EINVAL;
			st = S_USER;
			break;
		case TAG_USER:
			if (st != S_USER)
				return -EINVAL;
			needs_mask = 1;
			break;
		case TAG_GROUP_OBJ:
			if (st != S_USER)
				return -EINVAL;
			st = S_GROUP;
			break;
		case TAG_GROUP:
			if (st != S_GROUP)
				return -EINVAL;
			needs_mask = 1;
			break;
		case TAG_MASK:
			if (st != S_GROUP)
				return -EINVAL;
			st = S_OTHER;
			break;
		case TAG_OTHER:
			if (st != S_OTHER && !(st == S_GROUP && !needs_mask))
				return -EINVAL;
			st = S_DONE;
			break;
		default:
			return -EINVAL;
		}
	}
	return st == S_DONE ? 0 : -EINVAL;
}

/* posix_acl_equiv_mode(): the permission bits the ACL implies; returns 1
 * when the mode says it all (no named entries, no mask). */
static int acl_mode(const struct acl *a, uint32_t *mode)
{
	uint32_t m = 0;
	int equiv = 1, mask = -1;

	for (size_t i = 0; i < a->n; i++) {
		switch (tag(a, i)) {
		case TAG_USER_OBJ:
			m |= perm(a, i) << 6;
			break;
		case TAG_GROUP_OBJ:
			m |= perm(a, i) << 3;
			break;
		case TAG_OTHER:
			m |= perm(a, i);
			break;
		case TAG_MASK:
			mask = (int)perm(a, i);
			equiv = 0;
			break;
		default:
			equiv = 0;
		}
	}
	if (mask >= 0)
		m = (m & ~(uint32_t)070) | (uint32_t)mask << 3;
	*mode = m;
	return equiv;
}

/* posix_acl_chmod_masq() */
static void acl_chmod_masq(struct acl *a, uint32_t mode)
{
	size_t group = a->n, mask = a->n;

	for (size_t i = 0; i < a->n; i++) {
		switch (tag(a, i)) {
		case TAG_USER_OBJ:
			set_perm(a, i, mode >> 6);
			break;
		case TAG_GROUP_OBJ:
			group = i;
			break;
		case TAG_MASK:
			mask = i;
			break;
		case TAG_OTHER:
			set_perm(a, i, mode);
			break;
		}
	}
	if (mask < a->n)
		set_perm(a, mask, mode >> 3);
	else if (group < a->n)
		set_perm(a, group, mode >> 3);
}

/* posix_acl_create_masq(): the ACL masked by the mode asked for, the
 * mode's permission bits narrowed to the ACL's; 1 when it must be
 * stored (named entries or a mask). */
static int acl_create_masq(struct acl *a, uint32_t *mode_p)
{
	uint32_t mode = *mode_p;
	size_t group = a->n, mask = a->n;
	int not_equiv = 0;

	for (size_t i = 0; i < a->n; i++) {
		switch (tag(a, i)) {
		case TAG_USER_OBJ:
			set_perm(a, i, perm(a, i) & (mode >> 6));
			mode &= (perm(a, i) << 6) | ~(uint32_t)0700;
			break;
		case TAG_USER:
		case TAG_GROUP:
			not_equiv = 1;
			break;
		case TAG_GROUP_OBJ:
			group = i;
			break;
		case TAG_OTHER:
			set_perm(a, i, perm(a, i) & mode);
			mode &= perm(a, i) | ~(uint32_t)07;
			break;
		case TAG_MASK:
			mask = i;
			not_equiv = 1;
			break;
		}
	}
	if (mask == a->n)
		mask = group;
	if (mask < a->n) {
		set_perm(a, mask, perm(a, mask) & (mode >> 3));
		mode &= (perm(a, mask) << 3) | ~(uint32_t)070;
	}
	*mode_p = (*mode_p & ~(uint32_t)0777) | (mode & 0777);
	return not_equiv;
}

int acl_set(vfs *v, const struct vfs_cred *c, struct vnode *vn, int type,
	    const void *val, size_t size, int flags)
{
	const char *name = type == ACL_T_ACCESS ? ACL_XATTR_ACCESS :
						  ACL_XATTR_DEFAULT;
	struct mds_inode r;
	struct acl a;
	kv_batch *b;
	int store = val != NULL, had, rc;

	/* a header alone is "no ACL" (posix_acl_from_xattr() gives NULL) */
	if (val && size == 4 && get16(val) == ACL_VERSION)
		store = 0;
	else if (val && (rc = acl_view(val, size, &a)))
		return rc;
	b = kv_batch_new();
	if (!b)
		return -ENOMEM;
	pthread_mutex_lock(&vn->m);
	r = vn->rec;
	rc = 0;
	if (type == ACL_T_DEFAULT && !S_ISDIR(r.mode))
		rc = val ? -EACCES : 0;
	else if (S_ISLNK(r.mode))
		rc = -EOPNOTSUPP;
	if (rc)
		goto out;
	had = (r.flags & MDS_F_XATTRS) &&
	      mds_get_xattr(v->m, r.ino, name, NULL, NULL) == 0;
	if ((flags & XATTR_CREATE) && had)
		rc = -EEXIST;
	else if (((flags & XATTR_REPLACE) || !val) && !had)
		rc = -ENODATA;
	if (rc)
		goto out;
	if (store && type == ACL_T_ACCESS) {
		uint32_t m;

		/* posix_acl_update_mode() */
		if (acl_mode(&a, &m))
			store = 0;
		r.mode = (r.mode & ~(uint32_t)0777) | m;
		if (c && c->uid != 0 && !in_group(c, r.gid))
			r.mode &= ~(uint32_t)S_ISGID;
	}
	if (store) {
		r.flags |= MDS_F_XATTRS;
		mds_put_xattr(b, r.ino, name, val, size);
	} else if (had) {
		mds_del_xattr(b, r.ino, name);
	}
	now(&r.ctime);
	mds_put_inode(b, &r);
	rc = commit(v, b);
	if (rc == 0) {
		if (r.mode != vn->rec.mode)
			btq_touch(v, r.ino); /* the backtrace records it */
		vn->rec = r;
		vn->dirty = 0;
	}
out:
	pthread_mutex_unlock(&vn->m);
	kv_batch_free(b);
	return rc;
}

int acl_chmod(vfs *v, const struct mds_inode *r, kv_batch *b)
{
	void *val;
	size_t len;
	struct acl a;
	int rc;

	if (!(r->flags & MDS_F_XATTRS) || S_ISLNK(r->mode))
		return 0;
	rc = mds_get_xattr(v->m, r->ino, ACL_XATTR_ACCESS, &val, &len);
	if (rc)
		return rc == -ENODATA ? 0 : rc;
	rc = acl_view(val, len, &a);
	if (rc == 0) {
		acl_chmod_masq(&a, r->mode);
		mds_put_xattr(b, r->ino, ACL_XATTR_ACCESS, val, len);
		rc = 1;
	} else {
		/* a stored value the kernel never checked: leave it */
		cfs_log(CFS_LOG_WARN, "inode %llx: invalid access ACL kept",
			(unsigned long long)r->ino);
		rc = 0;
	}
	free(val);
	return rc;
}

int acl_inherit(vfs *v, const struct mds_inode *dir, struct mds_inode *r,
		uint32_t umask, kv_batch *b)
{
	void *val;
	size_t len;
	struct acl a;
	int rc;

	if (S_ISLNK(r->mode))
		return 0;
	rc = (dir->flags & MDS_F_XATTRS) ?
		     mds_get_xattr(v->m, dir->ino, ACL_XATTR_DEFAULT, &val,
				   &len) :
		     -ENODATA;
	if (rc == -ENODATA) {
		r->mode &= ~(umask & 0777);
		return 0;
	}
	if (rc)
		return rc;
	rc = acl_view(val, len, &a);
	if (rc) {
		/* unusable: as if there were none */
		cfs_log(CFS_LOG_WARN, "directory %llx: invalid default ACL "
			"ignored", (unsigned long long)dir->ino);
		free(val);
		r->mode &= ~(umask & 0777);
		return 0;
	}
	if (S_ISDIR(r->mode)) {
		mds_put_xattr(b, r->ino, ACL_XATTR_DEFAULT, val, len);
		r->flags |= MDS_F_XATTRS;
	}
	/* the default becomes the access ACL, masked; the umask is not
	 * applied (posix_acl_create()) */
	if (acl_create_masq(&a, &r->mode)) {
		mds_put_xattr(b, r->ino, ACL_XATTR_ACCESS, val, len);
		r->flags |= MDS_F_XATTRS;
	}
	free(val);
	return 0;
}
