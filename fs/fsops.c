/*
 * fsops.c - the libfuse low-level operations: thin adapters (STYLE.md 7).
 *
 * Each handler unpacks its request, calls one vfs_*() function, and
 * replies exactly once (STYLE.md 6).  vfs returns -errno; the sign flips
 * only here.  Replies that hand the kernel a reference (entry, create,
 * open) undo it when the reply cannot be delivered (an interrupted
 * request), so lookup and open counts stay exact.
 */
#define FUSE_USE_VERSION 314
#include <errno.h>
#include <fuse_lowlevel.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>

#include "fsd_i.h"
#include "util.h"

static struct fsd *fsd_of(fuse_req_t req)
{
	return fuse_req_userdata(req);
}

static vfs *vfs_of(fuse_req_t req)
{
	return fsd_of(req)->v;
}

/* A data op waiting for an inactive PG (objlayer op_lock) ends with
 * EINTR once its caller is killed (FUSE_INTERRUPT), as a blocked op of a
 * killed ceph-fuse client does, or once the session ends; the hook lives
 * for one handler. */
static int req_interrupted(void *req)
{
	/* or the daemon is going away (SIGTERM, umount): libfuse joins its
	 * workers, whose requests it never cancels, before it returns */
	return fuse_req_interrupted(req) ||
	       fuse_session_exited(fsd_of(req)->se);
}

static void watch(fuse_req_t req)
{
	ol_set_interrupt_check(req_interrupted, req);
}

static void unwatch(void)
{
	ol_set_interrupt_check(NULL, NULL);
}

static void cred_of(fuse_req_t req, struct vfs_cred *c)
{
	const struct fuse_ctx *ctx = fuse_req_ctx(req);

	memset(c, 0, sizeof(*c));
	c->uid = ctx->uid;
	c->gid = ctx->gid;
	/* With DONT_MASK the umask is ours to apply (a parent's default
	 * ACL replaces it); otherwise the kernel applied it already. */
	c->umask = fsd_of(req)->dont_mask ? ctx->umask : 0;
}

/* The caller's supplementary groups too (in g32, 64 at most). */
static void cred_groups(fuse_req_t req, struct vfs_cred *c, uint32_t *g32)
{
	gid_t groups[64];
	int n = fuse_req_getgroups(req, 64, groups);

	if (n > 64)
		n = 64;
	for (int i = 0; i < n; i++)
		g32[i] = groups[i];
	c->ngroups = n > 0 ? n : 0;
	c->groups = g32;
}

static void to_fuse_entry(fuse_req_t req, const struct vfs_entry *e,
			  struct fuse_entry_param *fe)
{
	struct fsd *d = fsd_of(req);

	memset(fe, 0, sizeof(*fe));
	fe->ino = e->ino;
	fe->generation = e->generation;
	fe->attr = e->attr;
	if (!e->made_empty)
		vfs_fill_blocks(vfs_of(req), &fe->attr);
	fe->attr_timeout = d->attr_timeout;
	fe->entry_timeout = d->entry_timeout;
}

/* Reply with an entry; the lookup reference goes back when the kernel
 * does not take it. */
static void reply_entry(fuse_req_t req, int rc, const struct vfs_entry *e)
{
	struct fuse_entry_param fe;

	if (rc) {
		fuse_reply_err(req, -rc);
		return;
	}
	to_fuse_entry(req, e, &fe);
	if (fuse_reply_entry(req, &fe) != 0)
		vfs_forget(vfs_of(req), e->ino, 1);
}

static void fsops_init(void *userdata, struct fuse_conn_info *conn)
{
	struct fsd *d = userdata;

	/* Big writes: libfuse already offers all its buffer takes (1 MiB,
	 * the kernel's 256-page limit); max_readahead is what the kernel
	 * offered. */
	/* Data written goes through us synchronously (so that ENOSPC and
	 * short writes reach the application): no writeback cache. */
	conn->want &= ~FUSE_CAP_WRITEBACK_CACHE;
	if (conn->capable & FUSE_CAP_CACHE_SYMLINKS)
		conn->want |= FUSE_CAP_CACHE_SYMLINKS;
	if (conn->capable & FUSE_CAP_PARALLEL_DIROPS)
		conn->want |= FUSE_CAP_PARALLEL_DIROPS;
	/* setuid/setgid and capabilities are cleared here on write,
	 * truncate and chown (kill_privs, vfs_setattr): the kernel need not
	 * GETATTR before a chown to work out the mode itself */
	if (conn->capable & FUSE_CAP_HANDLE_KILLPRIV)
		conn->want |= FUSE_CAP_HANDLE_KILLPRIV;
	fsd_init_flags_want(!!(conn->want & FUSE_CAP_PARALLEL_DIROPS),
			    !!(conn->want & FUSE_CAP_HANDLE_KILLPRIV));
	if (conn->capable & FUSE_CAP_ATOMIC_O_TRUNC)
		conn->want |= FUSE_CAP_ATOMIC_O_TRUNC;
	if (conn->capable & FUSE_CAP_READDIRPLUS)
		conn->want |= FUSE_CAP_READDIRPLUS;
	/* The umask is ours: a parent's default ACL replaces it
	 * (posix_acl_create(), vfs_acl.c). */
	if (conn->capable & FUSE_CAP_DONT_MASK) {
		conn->want |= FUSE_CAP_DONT_MASK;
		d->dont_mask = 1;
	}
	/* POSIX ACLs, enforced by the kernel, kept consistent with the mode
	 * here (vfs_acl.c).  Asking for them turns default_permissions on,
	 * so only a mount that has it asks: on root's own mount they could
	 * restrict no caller, and stay stored xattrs the kernel passes
	 * through (daemon.c parse_options). */
	if (d->kernel_perms && (conn->capable & FUSE_CAP_POSIX_ACL) &&
	    d->dont_mask)
		conn->want |= FUSE_CAP_POSIX_ACL;
	else if (d->kernel_perms)
		cfs_log(CFS_LOG_WARN, "the kernel offers no POSIX ACLs: "
			"ACL xattrs are stored but not enforced");
	conn->want &= ~FUSE_CAP_SPLICE_READ;
	conn->want &= ~FUSE_CAP_SPLICE_WRITE;
	conn->want &= ~FUSE_CAP_SPLICE_MOVE;
	d->max_write = conn->max_write;
	cfs_log(CFS_LOG_INFO, "FUSE protocol %u.%u, max_write %u, "
		"max_readahead %u", conn->proto_major, conn->proto_minor,
		conn->max_write, conn->max_readahead);
}

static void fsops_destroy(void *userdata)
{
	struct fsd *d = userdata;

	vfs_flush_all(d->v, 1);
}

static void fsops_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct fsd *d = fsd_of(req);
	struct vfs_entry e;
	int rc;

	fsd_after_init(d);
	rc = vfs_lookup(d->v, parent, name, &e);

	if (rc == -ENOENT && d->negative_timeout > 0) {
		/* A negative entry the kernel may cache: ino 0. */
		struct fuse_entry_param fe;

		memset(&fe, 0, sizeof(fe));
		fe.entry_timeout = d->negative_timeout;
		fuse_reply_entry(req, &fe);
		return;
	}
	reply_entry(req, rc, &e);
}

static void fsops_forget(fuse_req_t req, fuse_ino_t ino, uint64_t nlookup)
{
	vfs_forget(vfs_of(req), ino, nlookup);
	fuse_reply_none(req);
}

static void fsops_forget_multi(fuse_req_t req, size_t count,
			       struct fuse_forget_data *forgets)
{
	for (size_t i = 0; i < count; i++)
		vfs_forget(vfs_of(req), forgets[i].ino, forgets[i].nlookup);
	fuse_reply_none(req);
}

static void fsops_getattr(fuse_req_t req, fuse_ino_t ino,
			  struct fuse_file_info *fi)
{
	struct stat st;
	int rc;

	(void)fi;
	fsd_after_init(fsd_of(req));
	rc = vfs_getattr(vfs_of(req), ino, &st);
	if (rc) {
		fuse_reply_err(req, -rc);
		return;
	}
	vfs_fill_blocks(vfs_of(req), &st);
	fuse_reply_attr(req, &st, fsd_of(req)->attr_timeout);
}

static void fsops_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr,
			  int to_set, struct fuse_file_info *fi)
{
	struct vfs_cred c;
	struct stat st;
	int set = 0, rc;

	(void)fi;
	if (to_set & FUSE_SET_ATTR_MODE)
		set |= VFS_SET_MODE;
	if (to_set & FUSE_SET_ATTR_UID)
		set |= VFS_SET_UID;
	if (to_set & FUSE_SET_ATTR_GID)
		set |= VFS_SET_GID;
	if (to_set & FUSE_SET_ATTR_SIZE)
		set |= VFS_SET_SIZE;
	if (to_set & FUSE_SET_ATTR_ATIME)
		set |= VFS_SET_ATIME;
	if (to_set & FUSE_SET_ATTR_MTIME)
		set |= VFS_SET_MTIME;
	if (to_set & FUSE_SET_ATTR_ATIME_NOW)
		set |= VFS_SET_ATIME_NOW;
	if (to_set & FUSE_SET_ATTR_MTIME_NOW)
		set |= VFS_SET_MTIME_NOW;
	if (to_set & FUSE_SET_ATTR_CTIME)
		set |= VFS_SET_CTIME;
	cred_of(req, &c);
	watch(req);
	rc = vfs_setattr(vfs_of(req), &c, ino, attr, set, &st);
	unwatch();
	if (rc) {
		fuse_reply_err(req, -rc);
		return;
	}
	vfs_fill_blocks(vfs_of(req), &st);
	fuse_reply_attr(req, &st, fsd_of(req)->attr_timeout);
}

static void fsops_readlink(fuse_req_t req, fuse_ino_t ino)
{
	char buf[MDS_SYMLINK_MAX + 1];
	ssize_t n = vfs_readlink(vfs_of(req), ino, buf, sizeof(buf) - 1);

	if (n < 0) {
		fuse_reply_err(req, (int)-n);
		return;
	}
	buf[n] = '\0';
	fuse_reply_readlink(req, buf);
}

static void fsops_mknod(fuse_req_t req, fuse_ino_t parent, const char *name,
			mode_t mode, dev_t rdev)
{
	struct vfs_cred c;
	struct vfs_entry e;
	int rc;

	cred_of(req, &c);
	rc = vfs_mknod(vfs_of(req), &c, parent, name, mode, rdev, &e);
	reply_entry(req, rc, &e);
}

static void fsops_mkdir(fuse_req_t req, fuse_ino_t parent, const char *name,
			mode_t mode)
{
	struct vfs_cred c;
	struct vfs_entry e;
	int rc;

	cred_of(req, &c);
	rc = vfs_mkdir(vfs_of(req), &c, parent, name, mode, &e);
	reply_entry(req, rc, &e);
}

static void fsops_symlink(fuse_req_t req, const char *link, fuse_ino_t parent,
			  const char *name)
{
	struct vfs_cred c;
	struct vfs_entry e;
	int rc;

	cred_of(req, &c);
	rc = vfs_symlink(vfs_of(req), &c, link, parent, name, &e);
	reply_entry(req, rc, &e);
}

static void fsops_link(fuse_req_t req, fuse_ino_t ino, fuse_ino_t newparent,
		       const char *newname)
{
	struct vfs_entry e;
	int rc = vfs_link(vfs_of(req), ino, newparent, newname, &e);

	reply_entry(req, rc, &e);
}

static void fsops_unlink(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	fuse_reply_err(req, -vfs_unlink(vfs_of(req), parent, name));
}

static void fsops_rmdir(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	fuse_reply_err(req, -vfs_rmdir(vfs_of(req), parent, name));
}

static void fsops_rename(fuse_req_t req, fuse_ino_t parent, const char *name,
			 fuse_ino_t newparent, const char *newname,
			 unsigned int flags)
{
	fuse_reply_err(req, -vfs_rename(vfs_of(req), parent, name, newparent,
					newname, flags));
}

static void fill_open(fuse_req_t req, struct fuse_file_info *fi,
		      vfs_file *f)
{
	fi->fh = (uint64_t)(uintptr_t)f;
	/* All changes come through this mount (a second mount is refused),
	 * so cached pages stay valid across opens. */
	fi->keep_cache = 1;
	/* A close with nothing to report (a read-only open, or a store that
	 * writes through: every write's error was its own reply) costs no
	 * FLUSH round trip, one of the six requests of a small file's
	 * create and one of the four of its read (kernel 5.16's
	 * FOPEN_NOFLUSH; POSIX locks are the kernel's own here, so no
	 * lock owner needs the FLUSH either). */
	fi->noflush = vfs_file_noflush(vfs_of(req), f);
}

static void fsops_create(fuse_req_t req, fuse_ino_t parent, const char *name,
			 mode_t mode, struct fuse_file_info *fi)
{
	struct vfs_cred c;
	struct vfs_entry e;
	struct fuse_entry_param fe;
	vfs_file *f;
	int rc;

	cred_of(req, &c);
	rc = vfs_create(vfs_of(req), &c, parent, name, mode, fi->flags, &e, &f);
	if (rc) {
		fuse_reply_err(req, -rc);
		return;
	}
	fill_open(req, fi, f);
	to_fuse_entry(req, &e, &fe);
	if (fuse_reply_create(req, &fe, fi) != 0) {
		vfs_release(vfs_of(req), f);
		vfs_forget(vfs_of(req), e.ino, 1);
	}
}

static void fsops_open(fuse_req_t req, fuse_ino_t ino,
		       struct fuse_file_info *fi)
{
	vfs_file *f;
	int rc;

	fsd_after_init(fsd_of(req));
	rc = vfs_open(vfs_of(req), ino, fi->flags, &f);

	if (rc) {
		fuse_reply_err(req, -rc);
		return;
	}
	fill_open(req, fi, f);
	if (fuse_reply_open(req, fi) != 0)
		vfs_release(vfs_of(req), f);
}

static vfs_file *file_of(struct fuse_file_info *fi)
{
	return (vfs_file *)(uintptr_t)fi->fh;
}

static void fsops_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		       struct fuse_file_info *fi)
{
	vfs *v = vfs_of(req); /* req is gone once replied */
	const void *data;
	void *ref;
	char *buf;
	ssize_t n;

	(void)ino;
	/* the thread's kept buffer, page-aligned (on huge pages when big),
	 * so that the store can read a big one straight into it around its
	 * page cache in few block-layer segments (osdsim obj_io.c
	 * read_direct, util tbuf.c); replied before the thread's next use */
	buf = cfs_tbuf(CFS_TBUF_FUSE, size);
	if (!buf) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	watch(req);
	/* what was read ahead is replied from where it lies (readahead.c) */
	n = vfs_read_ref(v, file_of(fi), (uint64_t)off, buf, size, &data,
			 &ref);
	unwatch();
	if (n < 0)
		fuse_reply_err(req, (int)-n);
	else
		fuse_reply_buf(req, data, (size_t)n);
	vfs_read_done(v, ref);
}

static void fsops_write(fuse_req_t req, fuse_ino_t ino, const char *buf,
			size_t size, off_t off, struct fuse_file_info *fi)
{
	struct fuse_session *se = fsd_of(req)->se;
	struct vfs_cred c;
	int changed;
	ssize_t n;

	cred_of(req, &c);
	watch(req);
	n = vfs_write(vfs_of(req), &c, file_of(fi), (uint64_t)off, buf, size);
	unwatch();
	/* Read before replying: once the reply is out, a release may free
	 * the handle. */
	changed = vfs_file_attr_changed(file_of(fi));
	/* setuid/setgid went: the kernel still caches the old mode (a
	 * write invalidates only size and times).  Before the reply, or the
	 * writer's next stat may beat the notice and see the old mode.
	 * Attributes only (off < 0): takes no inode lock, so the writer
	 * holding i_rwsem cannot deadlock it. */
	if (changed)
		fuse_lowlevel_notify_inval_inode(se, ino, -1, 0);
	if (n < 0)
		fuse_reply_err(req, (int)-n);
	else
		fuse_reply_write(req, (size_t)n);
}

static void fsops_flush(fuse_req_t req, fuse_ino_t ino,
			struct fuse_file_info *fi)
{
	(void)ino;
	fuse_reply_err(req, -vfs_flush(vfs_of(req), file_of(fi)));
}

static void fsops_release(fuse_req_t req, fuse_ino_t ino,
			  struct fuse_file_info *fi)
{
	(void)ino;
	fuse_reply_err(req, -vfs_release(vfs_of(req), file_of(fi)));
}

static void fsops_fsync(fuse_req_t req, fuse_ino_t ino, int datasync,
			struct fuse_file_info *fi)
{
	int rc;

	(void)ino;
	watch(req);
	rc = vfs_fsync(vfs_of(req), file_of(fi), datasync);
	unwatch();
	fuse_reply_err(req, -rc);
}

static void fsops_fallocate(fuse_req_t req, fuse_ino_t ino, int mode,
			    off_t offset, off_t length,
			    struct fuse_file_info *fi)
{
	struct fuse_session *se = fsd_of(req)->se;
	struct vfs_cred c;
	int rc, changed;

	cred_of(req, &c);
	watch(req);
	if (offset < 0 || length <= 0)
		rc = -EINVAL;
	else
		rc = vfs_fallocate(vfs_of(req), &c, file_of(fi), mode,
				   (uint64_t)offset, (uint64_t)length);
	unwatch();
	changed = vfs_file_attr_changed(file_of(fi));
	/* setuid/setgid went: as in a write, before the reply */
	if (changed)
		fuse_lowlevel_notify_inval_inode(se, ino, -1, 0);
	fuse_reply_err(req, -rc);
}

static void fsops_opendir(fuse_req_t req, fuse_ino_t ino,
			  struct fuse_file_info *fi)
{
	vfs_dir *dh;
	int rc = vfs_opendir(vfs_of(req), ino, &dh);

	if (rc) {
		fuse_reply_err(req, -rc);
		return;
	}
	fi->fh = (uint64_t)(uintptr_t)dh;
	fi->cache_readdir = 0;
	if (fuse_reply_open(req, fi) != 0)
		vfs_releasedir(vfs_of(req), dh);
}

struct dirbuf {
	fuse_req_t req;
	char *buf;
	size_t size, used;
	int plus;
};

static int dir_fill(void *arg, const char *name, const struct vfs_entry *e,
		    uint64_t next_off)
{
	struct dirbuf *b = arg;
	size_t rem = b->size - b->used, n;

	if (b->plus) {
		struct fuse_entry_param fe;

		to_fuse_entry(b->req, e, &fe);
		n = fuse_add_direntry_plus(b->req, b->buf + b->used, rem, name,
					   &fe, (off_t)next_off);
	} else {
		n = fuse_add_direntry(b->req, b->buf + b->used, rem, name,
				      &e->attr, (off_t)next_off);
	}
	if (n > rem)
		return 1; /* did not fit: not taken */
	b->used += n;
	return 0;
}

static void do_readdir(fuse_req_t req, size_t size, off_t off,
		       struct fuse_file_info *fi, int plus)
{
	struct dirbuf b = { req, NULL, size, 0, plus };
	int rc;

	b.buf = malloc(size ? size : 1);
	if (!b.buf) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	rc = vfs_readdir(vfs_of(req), (vfs_dir *)(uintptr_t)fi->fh,
			 (uint64_t)off, plus, dir_fill, &b);
	if (rc < 0)
		fuse_reply_err(req, -rc);
	else
		fuse_reply_buf(req, b.buf, b.used);
	free(b.buf);
}

static void fsops_readdir(fuse_req_t req, fuse_ino_t ino, size_t size,
			  off_t off, struct fuse_file_info *fi)
{
	(void)ino;
	do_readdir(req, size, off, fi, 0);
}

static void fsops_readdirplus(fuse_req_t req, fuse_ino_t ino, size_t size,
			      off_t off, struct fuse_file_info *fi)
{
	(void)ino;
	do_readdir(req, size, off, fi, 1);
}

static void fsops_releasedir(fuse_req_t req, fuse_ino_t ino,
			     struct fuse_file_info *fi)
{
	(void)ino;
	fuse_reply_err(req, -vfs_releasedir(vfs_of(req),
					    (vfs_dir *)(uintptr_t)fi->fh));
}

static void fsops_fsyncdir(fuse_req_t req, fuse_ino_t ino, int datasync,
			   struct fuse_file_info *fi)
{
	(void)ino, (void)datasync;
	fuse_reply_err(req, -vfs_fsyncdir(vfs_of(req),
					  (vfs_dir *)(uintptr_t)fi->fh));
}

static void fsops_statfs(fuse_req_t req, fuse_ino_t ino)
{
	struct statvfs st;
	int rc = vfs_statfs(vfs_of(req), &st);

	(void)ino;
	if (rc)
		fuse_reply_err(req, -rc);
	else
		fuse_reply_statfs(req, &st);
}

/* An ACL set or removed may have changed the mode.  With POSIX ACLs on
 * the kernel drops the attributes it caches itself (fuse_set_acl);
 * without them (root's own mount, daemon.c) it keeps them, and stat
 * would show the old mode until attr_timeout.  Sent before the reply:
 * after it, setfacl's caller could stat before the kernel read the
 * notice (seen in CI).  Attributes only (off < 0): no inode lock taken,
 * so the caller holding i_rwsem in vfs_setxattr cannot deadlock it. */
static void acl_changed(struct fsd *d, fuse_ino_t ino, int changed)
{
	if (changed && !d->kernel_perms)
		fuse_lowlevel_notify_inval_inode(d->se, ino, -1, 0);
}

static void fsops_setxattr(fuse_req_t req, fuse_ino_t ino, const char *name,
			   const char *value, size_t size, int flags)
{
	struct fsd *d = fsd_of(req);
	int acl = !strncmp(name, "system.posix_acl_", 17), rc;
	struct vfs_cred c;
	uint32_t g32[64];

	cred_of(req, &c);
	if (acl)
		cred_groups(req, &c, g32); /* the setgid rule needs them */
	rc = vfs_setxattr_as(d->v, &c, ino, name, value, size, flags);
	acl_changed(d, ino, acl && !rc);
	fuse_reply_err(req, -rc);
}

static void fsops_getxattr(fuse_req_t req, fuse_ino_t ino, const char *name,
			   size_t size)
{
	char *buf = NULL;
	ssize_t n;

	if (size) {
		buf = malloc(size);
		if (!buf) {
			fuse_reply_err(req, ENOMEM);
			return;
		}
	}
	n = vfs_getxattr(vfs_of(req), ino, name, buf, size);
	if (n < 0)
		fuse_reply_err(req, (int)-n);
	else if (size == 0)
		fuse_reply_xattr(req, (size_t)n);
	else
		fuse_reply_buf(req, buf, (size_t)n);
	free(buf);
}

static void fsops_listxattr(fuse_req_t req, fuse_ino_t ino, size_t size)
{
	char *buf = NULL;
	ssize_t n;

	if (size) {
		buf = malloc(size);
		if (!buf) {
			fuse_reply_err(req, ENOMEM);
			return;
		}
	}
	n = vfs_listxattr(vfs_of(req), ino, buf, size);
	if (n < 0)
		fuse_reply_err(req, (int)-n);
	else if (size == 0)
		fuse_reply_xattr(req, (size_t)n);
	else
		fuse_reply_buf(req, buf, (size_t)n);
	free(buf);
}

static void fsops_removexattr(fuse_req_t req, fuse_ino_t ino,
			      const char *name)
{
	struct fsd *d = fsd_of(req);
	int rc = vfs_removexattr(d->v, ino, name);

	acl_changed(d, ino, !rc && !strncmp(name, "system.posix_acl_", 17));
	fuse_reply_err(req, -rc);
}

static void fsops_access(fuse_req_t req, fuse_ino_t ino, int mask)
{
	struct vfs_cred c;
	uint32_t g32[64];

	cred_of(req, &c);
	cred_groups(req, &c, g32);
	fuse_reply_err(req, -vfs_access(vfs_of(req), &c, ino, mask));
}

const struct fuse_lowlevel_ops fsd_ops = {
	.init = fsops_init,
	.destroy = fsops_destroy,
	.lookup = fsops_lookup,
	.forget = fsops_forget,
	.forget_multi = fsops_forget_multi,
	.getattr = fsops_getattr,
	.setattr = fsops_setattr,
	.readlink = fsops_readlink,
	.mknod = fsops_mknod,
	.mkdir = fsops_mkdir,
	.symlink = fsops_symlink,
	.link = fsops_link,
	.unlink = fsops_unlink,
	.rmdir = fsops_rmdir,
	.rename = fsops_rename,
	.create = fsops_create,
	.open = fsops_open,
	.read = fsops_read,
	.write = fsops_write,
	.flush = fsops_flush,
	.release = fsops_release,
	.fsync = fsops_fsync,
	.fallocate = fsops_fallocate,
	.opendir = fsops_opendir,
	.readdir = fsops_readdir,
	.readdirplus = fsops_readdirplus,
	.releasedir = fsops_releasedir,
	.fsyncdir = fsops_fsyncdir,
	.statfs = fsops_statfs,
	.setxattr = fsops_setxattr,
	.getxattr = fsops_getxattr,
	.listxattr = fsops_listxattr,
	.removexattr = fsops_removexattr,
	.access = fsops_access,
};
