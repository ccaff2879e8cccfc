/*
 * vfs.c - POSIX semantics over mds.h records and a data store (vfs.h).
 *
 * Every namespace change is built as one kv batch and committed before
 * the in-memory records are updated, so a failed commit changes nothing
 * and a crash leaves either the old or the new state (STYLE.md 9, issue 4).
 * The data path never writes the store: sizes and times are updated in
 * memory and written back on flush/fsync/release and by vfs_flush_all().
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "util.h"
#include "vfs_i.h"

#define VFS_LINK_MAX 65000
/* Files may not end past this offset (ext4's s_maxbytes is smaller). */
#define VFS_MAX_FILE_SIZE ((uint64_t)INT64_MAX)

/* ---- helpers ---- */

static void now(struct timespec *ts)
{
	clock_gettime(CLOCK_REALTIME, ts);
}

static int ts_le(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec ||
	       (a->tv_sec == b->tv_sec && a->tv_nsec <= b->tv_nsec);
}

void vfs_fill_stat(const struct mds_inode *r, struct stat *st)
{
	memset(st, 0, sizeof(*st));
	st->st_ino = r->ino;
	st->st_mode = r->mode;
	st->st_nlink = r->nlink;
	st->st_uid = r->uid;
	st->st_gid = r->gid;
	st->st_rdev = r->rdev;
	st->st_size = S_ISDIR(r->mode) ? 4096 : (off_t)r->size;
	st->st_blocks = (st->st_size + 511) / 512;
	st->st_blksize = 4096;
	if (S_ISREG(r->mode) && r->layout.object_size)
		st->st_blksize = r->layout.object_size > (4u << 20) ?
					 (4u << 20) :
					 r->layout.object_size;
	st->st_atim = r->atime;
	st->st_mtim = r->mtime;
	st->st_ctim = r->ctime;
}

static void fill_entry(struct vnode *vn, struct vfs_entry *e)
{
	pthread_mutex_lock(&vn->m);
	e->ino = vn->ino;
	e->generation = vn->rec.generation;
	vfs_fill_stat(&vn->rec, &e->attr);
	pthread_mutex_unlock(&vn->m);
}

static int check_name(const char *name)
{
	size_t n = strlen(name);

	if (n == 0)
		return -ENOENT;
	if (n > MDS_NAME_MAX)
		return -ENAMETOOLONG;
	if (strchr(name, '/'))
		return -EINVAL;
	return 0;
}

static int is_dot(const char *name)
{
	return !strcmp(name, ".") || !strcmp(name, "..");
}

static void ns_rd(vfs *v)
{
	pthread_rwlock_rdlock(&v->ns);
}

static void ns_wr(vfs *v)
{
	pthread_rwlock_wrlock(&v->ns);
}

static void ns_un(vfs *v)
{
	pthread_rwlock_unlock(&v->ns);
}

/* Lock the record mutexes of up to 4 vnodes in inode order (no dups). */
static int lock_set(struct vnode **in, int n, struct vnode **out)
{
	int k = 0;

	for (int i = 0; i < n; i++) {
		int dup = 0;

		if (!in[i])
			continue;
		for (int j = 0; j < k; j++)
			dup |= out[j] == in[i];
		if (!dup)
			out[k++] = in[i];
	}
	for (int i = 1; i < k; i++)
		for (int j = i; j > 0 && out[j - 1]->ino > out[j]->ino; j--) {
			struct vnode *t = out[j];

			out[j] = out[j - 1];
			out[j - 1] = t;
		}
	for (int i = 0; i < k; i++)
		pthread_mutex_lock(&out[i]->m);
	return k;
}

/* 0 if directory ino is empty (it may be removed or replaced), else
 * -ENOTEMPTY or the store's error. */
static int dir_emptiness(struct vfs *v, uint64_t ino)
{
	int rc = mds_dir_empty(v->m, ino);

	return rc < 0 ? rc : rc == 0 ? -ENOTEMPTY : 0;
}

static void unlock_set(struct vnode **set, int k)
{
	for (int i = k - 1; i >= 0; i--)
		pthread_mutex_unlock(&set[i]->m);
}

static int in_group(const struct vfs_cred *c, uint32_t gid)
{
	if (c->gid == gid)
		return 1;
	for (int i = 0; i < c->ngroups; i++)
		if (c->groups[i] == gid)
			return 1;
	return 0;
}

/* Commit b; on success the new records become the in-memory truth and
 * are clean. */
static int commit(vfs *v, kv_batch *b)
{
	int rc = kv_batch_commit(v->db, b, 0);

	if (rc)
		cfs_log(CFS_LOG_ERR, "metadata commit failed: %s",
			cfs_strerror(rc));
	return rc;
}

/* ---- setup ---- */

static int purge_orphan(uint64_t ino, void *arg)
{
	vfs *v = arg;
	struct mds_inode rec;
	int rc = mds_get_inode(v->m, ino, &rec);

	if (rc == -ENOENT) {
		kv_batch *b = kv_batch_new();

		if (!b)
			return -ENOMEM;
		mds_del_orphan(b, ino);
		rc = kv_batch_commit(v->db, b, 0);
		kv_batch_free(b);
		return rc;
	}
	if (rc)
		return rc;
	/* The record may still show the link count from before the unlink:
	 * the orphan mark alone says the inode is dead. */
	cfs_log(CFS_LOG_INFO, "purging inode %llx, unlinked before a crash",
		(unsigned long long)ino);
	vn_purge_rec(v, &rec, 0);
	return 0;
}

static void handle_add(vfs *v, struct vfs_handle *h, int is_dir)
{
	h->is_dir = is_dir;
	pthread_mutex_lock(&v->hlock);
	h->next = v->handles.next;
	h->prev = &v->handles;
	h->next->prev = h;
	v->handles.next = h;
	pthread_mutex_unlock(&v->hlock);
}

static void handle_del(vfs *v, struct vfs_handle *h)
{
	pthread_mutex_lock(&v->hlock);
	h->prev->next = h->next;
	h->next->prev = h->prev;
	pthread_mutex_unlock(&v->hlock);
}

int vfs_new(mds *m, const struct vfs_data_ops *ops, void *data_ctx,
	    const struct vfs_opts *opts, vfs **out)
{
	vfs *v = calloc(1, sizeof(*v));
	pthread_rwlockattr_t a;
	struct vnode *root;
	int rc;

	if (!v)
		return -ENOMEM;
	v->m = m;
	v->db = mds_kv(m);
	v->d = ops;
	v->dctx = data_ctx;
	if (opts)
		v->opts = *opts;
	pthread_rwlockattr_init(&a);
	pthread_rwlockattr_setkind_np(
		&a, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	pthread_rwlock_init(&v->ns, &a);
	pthread_rwlockattr_destroy(&a);
	pthread_mutex_init(&v->hlock, NULL);
	v->handles.next = v->handles.prev = &v->handles;
	rc = itab_init(v);
	if (rc)
		goto err;
	rc = btq_new(v);
	if (rc)
		goto err_tab;
	if (!v->opts.readonly) {
		rc = mds_list_orphans(m, purge_orphan, v);
		if (rc == 0)
			rc = btq_resume(v);
		if (rc)
			goto err_tab;
	}
	/* The root stays in the table for the whole mount. */
	rc = vn_get(v, MDS_ROOT_INO, 0, &root);
	if (rc)
		goto err_tab;
	vn_put(v, root);
	*out = v;
	return 0;
err_tab:
	itab_destroy(v);
	btq_free(v);
err:
	pthread_rwlock_destroy(&v->ns);
	pthread_mutex_destroy(&v->hlock);
	free(v);
	return rc;
}

void vfs_free(vfs *v)
{
	if (!v)
		return;
	/* handles still open are closed as their release would have: data
	 * flushed, and an unlinked file purged with its last close */
	while (v->handles.next != &v->handles) {
		struct vfs_handle *h = v->handles.next;

		if (h->is_dir)
			vfs_releasedir(v, (vfs_dir *)h);
		else
			vfs_release(v, (vfs_file *)h);
	}
	btq_flush(v, 0, 0, 1);
	itab_destroy(v);
	btq_free(v);
	kv_sync(v->db);
	pthread_rwlock_destroy(&v->ns);
	pthread_mutex_destroy(&v->hlock);
	free(v);
}

int vfs_flush_all(vfs *v, int sync)
{
	int rc = itab_flush_all(v, sync);

	/* backtraces are for disaster recovery: a failure is logged and
	 * retried, never an error of the caller's */
	btq_flush(v, 0, 0, 0);
	return rc;
}

void *vfs_data_ctx(vfs *v)
{
	return v->dctx;
}

const struct vfs_data_ops *vfs_data(vfs *v)
{
	return v->d;
}

mds *vfs_mds(vfs *v)
{
	return v->m;
}

void vfs_counts(vfs *v, uint64_t *cached, uint64_t *lookups)
{
	itab_counts(v, cached, lookups);
}

/* ---- lookup / attributes ---- */

/* Parent of a directory (from its record). */
static uint64_t dir_parent(struct vnode *dv)
{
	uint64_t p;

	pthread_mutex_lock(&dv->m);
	p = dv->rec.parent ? dv->rec.parent : MDS_ROOT_INO;
	pthread_mutex_unlock(&dv->m);
	return p;
}

static int get_dir(vfs *v, uint64_t ino, struct vnode **out)
{
	struct vnode *dv;
	int rc = vn_get(v, ino, 0, &dv);

	if (rc)
		return rc;
	pthread_mutex_lock(&dv->m);
	if (!S_ISDIR(dv->rec.mode))
		rc = -ENOTDIR;
	else if (dv->rec.nlink == 0)
		rc = -ENOENT;
	pthread_mutex_unlock(&dv->m);
	if (rc) {
		vn_put(v, dv);
		return rc;
	}
	*out = dv;
	return 0;
}

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

/* Change the size of a regular file: objects first, then the record, so
 * that a crash in between never lets old data reappear past the end. */
static int do_truncate(vfs *v, struct vnode *vn, uint64_t size, int touch)
{
	uint64_t old;
	int rc = 0;

	if (size > VFS_MAX_FILE_SIZE)
		return -EFBIG;
	pthread_rwlock_wrlock(&vn->io);
	pthread_mutex_lock(&vn->m);
	old = vn->rec.size;
	pthread_mutex_unlock(&vn->m);
	if (old != size)
		rc = v->d->truncate(v->dctx, vn->ino, &vn->rec.layout, old,
				    size);
	if (rc == 0) {
		pthread_mutex_lock(&vn->m);
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

/* Mode bits a write/chown/truncate by an unprivileged user clears
 * (should_remove_suid() in Linux). */
static uint32_t kill_bits(uint32_t mode)
{
	uint32_t k = 0;

	if (!S_ISREG(mode))
		return 0;
	if (mode & S_ISUID)
		k |= S_ISUID;
	if ((mode & S_ISGID) && (mode & S_IXGRP))
		k |= S_ISGID;
	return k;
}

#define XATTR_CAPS "security.capability"

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
	if (rc == 0 && memcmp(&r, &vn->rec, sizeof(r))) {
		int owner = r.mode != vn->rec.mode || r.uid != vn->rec.uid ||
			    r.gid != vn->rec.gid;

		vn->rec = r;
		vn->dirty = 1;
		rc = vn_persist_locked(v, vn, 0);
		if (rc == 0 && owner)
			btq_touch(v, ino);
	}
	if (out)
		vfs_fill_stat(&vn->rec, out);
	pthread_mutex_unlock(&vn->m);
out:
	vn_put(v, vn);
	return rc;
}

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

static int make_node(vfs *v, const struct vfs_cred *c, uint64_t parent,
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
	r.mode = (mode & S_IFMT) | (mode & 07777 & ~(c->umask & 0777));
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
		v->d->default_layout(v->dctx, &r.layout);
	if (S_ISLNK(mode)) {
		r.size = strlen(target);
		mds_put_symlink(b, r.ino, target, r.size);
	}
	mds_put_inode(b, &r);
	d.ino = r.ino;
	d.type = mds_mode_to_dt(r.mode);
	mds_put_dentry(b, parent, name, &d);
	pr.mtime = pr.ctime = r.btime;
	/* The parent's link count changes with a subdirectory and goes in
	 * the batch; its times alone are written back lazily. */
	if (S_ISDIR(mode)) {
		pr.nlink++;
		mds_put_inode(b, &pr);
	}
	rc = commit(v, b);
	if (rc == 0) {
		dv->dirty = !S_ISDIR(mode);
		dv->rec = pr;
		btq_set(v, r.ino, parent, name);
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

/* ---- removing names ---- */

/* Drop one link of r (in a batch being built); a directory loses both.
 * At 0 the inode goes on the orphan list in the same batch. */
static void drop_link(kv_batch *b, struct mds_inode *r,
		      const struct timespec *t)
{
	if (S_ISDIR(r->mode))
		r->nlink = 0;
	else if (r->nlink > 0)
		r->nlink--;
	r->ctime = *t;
	mds_put_inode(b, r);
	if (r->nlink == 0)
		mds_put_orphan(b, r->ino);
}

static int remove_name(vfs *v, uint64_t parent, const char *name, int dir)
{
	struct vnode *dv = NULL, *vn = NULL, *set[2];
	struct mds_inode r, pr;
	struct mds_dentry d;
	kv_batch *b = NULL;
	struct timespec t;
	int rc, k;

	if (v->opts.readonly)
		return -EROFS;
	if (strlen(name) > MDS_NAME_MAX)
		return -ENAMETOOLONG;
	if (dir && !strcmp(name, "."))
		return -EINVAL;
	if (dir && !strcmp(name, ".."))
		return -ENOTEMPTY;
	if (!dir && is_dot(name))
		return -EISDIR;
	ns_wr(v);
	rc = get_dir(v, parent, &dv);
	if (rc)
		goto out;
	rc = mds_lookup(v->m, parent, name, &d);
	if (rc)
		goto out;
	rc = vn_get(v, d.ino, 0, &vn);
	if (rc) {
		rc = rc == -ENOENT ? -EIO : rc;
		goto out;
	}
	pthread_mutex_lock(&vn->m);
	if (dir && !S_ISDIR(vn->rec.mode))
		rc = -ENOTDIR;
	else if (!dir && S_ISDIR(vn->rec.mode))
		rc = -EISDIR;
	pthread_mutex_unlock(&vn->m);
	if (rc)
		goto out;
	if (dir && (rc = dir_emptiness(v, d.ino)))
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
	now(&t);
	mds_del_dentry(b, parent, name);
	if (!dir && r.nlink <= 1) {
		/* The last name of a file: the orphan mark is what counts
		 * (a crash before the purge finishes it at the next mount);
		 * the record itself goes with the purge, unwritten. */
		r.nlink = 0;
		r.ctime = t;
		mds_put_orphan(b, r.ino);
	} else {
		drop_link(b, &r, &t);
	}
	pr.mtime = pr.ctime = t;
	if (dir) {
		if (pr.nlink > 2)
			pr.nlink--;
		mds_put_inode(b, &pr);
	}
	rc = commit(v, b);
	if (rc == 0) {
		vn->rec = r;
		vn->dirty = 0;
		dv->rec = pr;
		dv->dirty = dir ? 0 : 1;
		if (r.nlink > 0 && !dir)
			btq_del(v, r.ino, parent, name);
	}
	unlock_set(set, k);
out:
	ns_un(v);
	kv_batch_free(b);
	/* Last reference gone: the purge happens here, outside the
	 * namespace lock. */
	vn_put(v, vn);
	vn_put(v, dv);
	return rc;
}

int vfs_unlink(vfs *v, uint64_t parent, const char *name)
{
	return remove_name(v, parent, name, 0);
}

int vfs_rmdir(vfs *v, uint64_t parent, const char *name)
{
	return remove_name(v, parent, name, 1);
}

/* 1 when dir `anc` is dir `ino` or one of its ancestors. */
static int is_ancestor(vfs *v, uint64_t anc, uint64_t ino, int *err)
{
	struct mds_inode r;
	int depth = 0;

	*err = 0;
	while (1) {
		if (ino == anc)
			return 1;
		if (ino == MDS_ROOT_INO)
			return 0;
		*err = vfs_stat_inode(v, ino, &r);
		if (*err)
			return 0;
		if (++depth > 100000) {
			*err = -ELOOP;
			return 0;
		}
		ino = r.parent ? r.parent : MDS_ROOT_INO;
	}
}

int vfs_rename(vfs *v, uint64_t parent, const char *name, uint64_t newparent,
	       const char *newname, unsigned int flags)
{
	struct vnode *sp = NULL, *dp = NULL, *sv = NULL, *dv = NULL;
	struct vnode *set[4], *lk[4];
	struct mds_inode spr, dpr, sr, dr;
	struct mds_dentry sd, dd;
	int have_dst = 0, k = 0, rc, err;
	int exchange = flags & RENAME_EXCHANGE;
	kv_batch *b = NULL;
	struct timespec t;

	if (v->opts.readonly)
		return -EROFS;
	if (flags & ~(RENAME_NOREPLACE | RENAME_EXCHANGE))
		return -EINVAL;
	if ((flags & RENAME_NOREPLACE) && exchange)
		return -EINVAL;
	rc = check_name(name);
	if (rc == 0)
		rc = check_name(newname);
	if (rc)
		return rc;
	if (is_dot(name) || is_dot(newname))
		return -EBUSY;
	ns_wr(v);
	rc = get_dir(v, parent, &sp);
	if (rc == 0)
		rc = get_dir(v, newparent, &dp);
	if (rc)
		goto out;
	rc = mds_lookup(v->m, parent, name, &sd);
	if (rc)
		goto out;
	rc = mds_lookup(v->m, newparent, newname, &dd);
	if (rc == 0)
		have_dst = 1;
	else if (rc != -ENOENT)
		goto out;
	rc = 0;
	if (exchange && !have_dst) {
		rc = -ENOENT;
		goto out;
	}
	if ((flags & RENAME_NOREPLACE) && have_dst) {
		rc = -EEXIST;
		goto out;
	}
	/* Two names of one inode: POSIX says do nothing. */
	if (have_dst && dd.ino == sd.ino)
		goto out;
	rc = vn_get(v, sd.ino, 0, &sv);
	if (rc == 0 && have_dst)
		rc = vn_get(v, dd.ino, 0, &dv);
	if (rc) {
		rc = rc == -ENOENT ? -EIO : rc;
		goto out;
	}
	pthread_mutex_lock(&sv->m);
	sr = sv->rec;
	pthread_mutex_unlock(&sv->m);
	if (S_ISDIR(sr.mode) && parent != newparent) {
		/* Not into itself or below. */
		if (is_ancestor(v, sd.ino, newparent, &err)) {
			rc = -EINVAL;
			goto out;
		}
		if (err) {
			rc = err;
			goto out;
		}
	}
	if (have_dst) {
		pthread_mutex_lock(&dv->m);
		dr = dv->rec;
		pthread_mutex_unlock(&dv->m);
		if (exchange) {
			if (S_ISDIR(dr.mode) && parent != newparent) {
				if (is_ancestor(v, dd.ino, parent, &err)) {
					rc = -EINVAL;
					goto out;
				}
				if (err) {
					rc = err;
					goto out;
				}
			}
		} else if (S_ISDIR(sr.mode) && !S_ISDIR(dr.mode)) {
			rc = -ENOTDIR;
			goto out;
		} else if (!S_ISDIR(sr.mode) && S_ISDIR(dr.mode)) {
			rc = -EISDIR;
			goto out;
		} else if (S_ISDIR(dr.mode) && (rc = dir_emptiness(v, dd.ino))) {
			goto out;
		}
	}
	b = kv_batch_new();
	if (!b) {
		rc = -ENOMEM;
		goto out;
	}
	set[0] = sp;
	set[1] = dp;
	set[2] = sv;
	set[3] = dv;
	k = lock_set(set, 4, lk);
	spr = sp->rec;
	dpr = dp->rec;
	sr = sv->rec;
	if (have_dst)
		dr = dv->rec;
	now(&t);
	if (exchange) {
		mds_put_dentry(b, parent, name, &dd);
		mds_put_dentry(b, newparent, newname, &sd);
		if (parent != newparent) {
			if (S_ISDIR(sr.mode)) {
				sr.parent = newparent;
				spr.nlink--;
				dpr.nlink++;
			}
			if (S_ISDIR(dr.mode)) {
				dr.parent = parent;
				dpr.nlink--;
				spr.nlink++;
			}
		}
		sr.ctime = dr.ctime = t;
		mds_put_inode(b, &sr);
		mds_put_inode(b, &dr);
	} else {
		mds_del_dentry(b, parent, name);
		mds_put_dentry(b, newparent, newname, &sd);
		if (have_dst) {
			drop_link(b, &dr, &t);
			if (S_ISDIR(dr.mode)) {
				/* the replaced directory leaves newparent */
				if (parent != newparent)
					dpr.nlink--;
				else
					spr.nlink--;
			}
		}
		if (S_ISDIR(sr.mode) && parent != newparent) {
			sr.parent = newparent;
			spr.nlink--;
			dpr.nlink++;
		}
		sr.ctime = t;
		mds_put_inode(b, &sr);
	}
	spr.mtime = spr.ctime = t;
	if (parent != newparent) {
		dpr.mtime = dpr.ctime = t;
		mds_put_inode(b, &dpr);
	}
	mds_put_inode(b, &spr);
	rc = commit(v, b);
	if (rc == 0) {
		sp->rec = spr;
		sp->dirty = 0;
		if (parent != newparent) {
			dp->rec = dpr;
			dp->dirty = 0;
		}
		sv->rec = sr;
		sv->dirty = 0;
		if (have_dst) {
			dv->rec = dr;
			dv->dirty = 0;
		}
		btq_move(v, sd.ino, S_ISDIR(sr.mode) || sr.nlink <= 1, parent,
			 name, newparent, newname);
		if (exchange)
			btq_move(v, dd.ino, S_ISDIR(dr.mode) || dr.nlink <= 1,
				 newparent, newname, parent, name);
		else if (have_dst && dr.nlink > 0 && !S_ISDIR(dr.mode))
			btq_del(v, dd.ino, newparent, newname);
	}
	unlock_set(lk, k);
out:
	ns_un(v);
	kv_batch_free(b);
	vn_put(v, dv);
	vn_put(v, sv);
	vn_put(v, dp);
	vn_put(v, sp);
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
	st->f_files = 1ULL << 32;
	st->f_ffree = 1ULL << 32;
	st->f_favail = st->f_ffree;
	st->f_namemax = MDS_NAME_MAX;
	return 0;
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

uint64_t vfs_file_ino(const vfs_file *f)
{
	return f->vn->ino;
}

int vfs_file_attr_changed(vfs_file *f)
{
	int c = f->attr_changed;

	f->attr_changed = 0;
	return c;
}

ssize_t vfs_read(vfs *v, vfs_file *f, uint64_t off, void *buf, size_t len)
{
	struct vnode *vn = f->vn;
	uint64_t size;
	ssize_t n;

	if ((f->flags & O_ACCMODE) == O_WRONLY)
		return -EBADF;
	pthread_rwlock_rdlock(&vn->io);
	pthread_mutex_lock(&vn->m);
	size = vn->rec.size;
	pthread_mutex_unlock(&vn->m);
	if (off >= size)
		n = 0;
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

/* An unprivileged write clears setuid/setgid (every time: the mode is in
 * memory) and file capabilities (looked up once per handle). */
static int kill_privs(vfs *v, const struct vfs_cred *c, vfs_file *f)
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
		f->attr_changed = 1;
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

ssize_t vfs_write(vfs *v, const struct vfs_cred *c, vfs_file *f,
		  uint64_t off, const void *buf, size_t len)
{
	struct vnode *vn = f->vn;
	int append = f->flags & O_APPEND;
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
	if (off > VFS_MAX_FILE_SIZE || len > VFS_MAX_FILE_SIZE - off) {
		n = -EFBIG;
		goto out;
	}
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

/* close(2): nothing to do.  Data went through synchronously; the new
 * size and times reach the store with the next vfs_flush_all() (the
 * daemon's flusher, every 2 s), fsync, or when the inode leaves the
 * table - one write for a whole copy, none for a file deleted at once. */
int vfs_flush(vfs *v, vfs_file *f)
{
	(void)v, (void)f;
	return 0;
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
	vn_close(v, f->vn);
	free(f);
	return rc;
}

/* ---- directories ---- */

int vfs_opendir(vfs *v, uint64_t ino, vfs_dir **out)
{
	struct vnode *vn;
	vfs_dir *d;
	int rc = vn_get(v, ino, 0, &vn);

	if (rc)
		return rc;
	pthread_mutex_lock(&vn->m);
	if (!S_ISDIR(vn->rec.mode))
		rc = -ENOTDIR;
	pthread_mutex_unlock(&vn->m);
	if (rc) {
		vn_put(v, vn);
		return rc;
	}
	d = calloc(1, sizeof(*d));
	if (!d) {
		vn_put(v, vn);
		return -ENOMEM;
	}
	pthread_mutex_init(&d->lock, NULL);
	d->vn = vn;
	vn_ref(v, vn, 0, 1);
	vn_put(v, vn);
	handle_add(v, &d->h, 1);
	*out = d;
	return 0;
}

static void dir_clear(vfs_dir *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->ents[i].name);
	free(d->ents);
	d->ents = NULL;
	d->n = 0;
	d->loaded = 0;
}

struct snap_ctx {
	vfs_dir *d;
	size_t cap;
};

static int snap_cb(const char *name, size_t nlen, const struct mds_dentry *de,
		   void *arg)
{
	struct snap_ctx *s = arg;
	vfs_dir *d = s->d;
	char *n;

	if (d->n == s->cap) {
		size_t nc = s->cap ? s->cap * 2 : 64;
		struct vfs_dent *e = realloc(d->ents, nc * sizeof(*e));

		if (!e)
			return -ENOMEM;
		d->ents = e;
		s->cap = nc;
	}
	n = malloc(nlen + 1);
	if (!n)
		return -ENOMEM;
	memcpy(n, name, nlen);
	n[nlen] = '\0';
	d->ents[d->n].name = n;
	d->ents[d->n].ino = de->ino;
	d->ents[d->n].type = de->type;
	d->n++;
	return 0;
}

/* Directory offsets index a snapshot taken at offset 0 (opendir or
 * rewinddir): stable for the whole pass, as POSIX requires. */
int vfs_readdir(vfs *v, vfs_dir *d, uint64_t off, int plus, vfs_fill_fn fill,
		void *arg)
{
	int taken = 0, rc = 0;

	pthread_mutex_lock(&d->lock);
	if (off == 0 || !d->loaded) {
		struct snap_ctx s = { d, 0 };

		dir_clear(d);
		ns_rd(v);
		rc = mds_readdir(v->m, d->vn->ino, NULL, snap_cb, &s);
		ns_un(v);
		if (rc) {
			dir_clear(d);
			goto out;
		}
		d->loaded = 1;
	}
	for (uint64_t i = off; i < d->n + 2; i++) {
		struct vfs_entry e;
		const char *name;
		struct vnode *vn = NULL;

		memset(&e, 0, sizeof(e));
		if (i < 2) {
			name = i == 0 ? "." : "..";
			e.attr.st_ino = i == 0 ? d->vn->ino : dir_parent(d->vn);
			e.attr.st_mode = S_IFDIR;
			/* no lookup reference for . and .. (e.ino == 0) */
		} else {
			struct vfs_dent *de = &d->ents[i - 2];

			name = de->name;
			if (plus) {
				rc = vn_get(v, de->ino, 1, &vn);
				if (rc == -ENOENT) {
					rc = 0; /* removed since the snapshot */
					continue;
				}
				if (rc)
					break;
				fill_entry(vn, &e);
			} else {
				e.attr.st_ino = de->ino;
				e.attr.st_mode = (mode_t)de->type << 12;
			}
		}
		if (fill(arg, name, &e, i + 1)) {
			if (vn)
				vn_forget(v, vn->ino, 1);
			vn_put(v, vn);
			break;
		}
		vn_put(v, vn);
		taken++;
	}
out:
	pthread_mutex_unlock(&d->lock);
	if (rc && taken == 0)
		return rc;
	return taken;
}

int vfs_fsyncdir(vfs *v, vfs_dir *d)
{
	(void)d;
	return kv_sync(v->db);
}

int vfs_releasedir(vfs *v, vfs_dir *d)
{
	handle_del(v, &d->h);
	dir_clear(d);
	pthread_mutex_destroy(&d->lock);
	vn_close(v, d->vn);
	free(d);
	return 0;
}

/* ---- extended attributes ---- */

int vfs_setxattr(vfs *v, uint64_t ino, const char *name, const void *val,
		 size_t size, int flags)
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
			if (rc == 0)
				btq_touch(v, ino); /* it records the layout */
		}
		pthread_mutex_unlock(&vn->m);
		pthread_rwlock_unlock(&vn->io);
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
	/* The kernel asks for security.capability before every write(2)
	 * (FUSE filesystems never get S_NOSEC): answer from memory for
	 * inodes that never had an xattr. */
	if (!(r.flags & MDS_F_XATTRS))
		return -ENODATA;
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
	if (vxattr_is_virtual(name))
		return -EPERM;
	rc = vn_get(v, ino, 0, &vn);
	if (rc)
		return rc;
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
