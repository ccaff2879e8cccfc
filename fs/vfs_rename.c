/*
 * vfs_rename.c - names that go away or move: unlink, rmdir, rename.
 */
#include <errno.h>
#include <linux/fs.h>
#include <string.h>

#include "util.h"
#include "vfs_i.h"

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
	/* The entry, the link count (0 for the last name) and the orphan
	 * mark go in one batch: a record in the store never shows a link
	 * count its entries do not have, and an inode loaded in the window
	 * before the purge deletes its records is seen as dead (vn_get). */
	mds_del_dentry(b, parent, name);
	drop_link(b, &r, &t);
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
		/* the backtraces follow, lazily */
		btq_move(v, sd.ino, S_ISDIR(sr.mode) || sr.nlink <= 1, parent,
			 name, newparent, newname);
		if (exchange)
			btq_move(v, dd.ino, S_ISDIR(dr.mode) || dr.nlink <= 1,
				 newparent, newname, parent, name);
		else if (have_dst && dr.nlink > 0 && !S_ISDIR(dr.mode))
			btq_del(v, dd.ino, newparent, newname);
		/* a directory under another parent: other ancestors */
		if (parent != newparent &&
		    (S_ISDIR(sr.mode) || (exchange && S_ISDIR(dr.mode))))
			vx_layouts_changed(v);
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
