/*
 * fsck_lost.c - objects no inode accounts for (fsck pass 4): never
 * deleted, they are adopted by /lost+found.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsck_i.h"
#include "util.h"

const char *fsck_type_name(uint32_t mode)
{
	return S_ISDIR(mode) ? "directory" : S_ISLNK(mode) ? "symlink" :
	       S_ISREG(mode) ? "file" : "special file";
}

int fsck_lost_add(struct fsck_lost *l, int64_t pool, uint64_t ino,
		  uint64_t objno, uint64_t size, const struct timespec *mt)
{
	if (l->n == l->cap) {
		size_t nc = l->cap ? l->cap * 2 : 64;
		struct rc_obj *nv = realloc(l->v, nc * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		l->v = nv;
		l->cap = nc;
	}
	l->v[l->n].ino = ino;
	l->v[l->n].objno = objno;
	l->v[l->n].size = size;
	l->v[l->n].mtime = *mt;
	l->v[l->n].pool = pool;
	l->n++;
	return 0;
}

/*
 * Objects no inode accounts for are never deleted: each inode they name
 * becomes an entry /lost+found/#<ino> that adopts them (a file, or what
 * the backtrace of its object 0 says), as cephfs-data-scan's scan_inodes
 * links what it cannot place into lost+found.
 */
void fsck_adopt_lost(struct fck *f, struct fsck_lost *l)
{
	struct rc_inode *inos = NULL;
	struct ol_layout deflt;
	struct fent *lfe, *root;
	uint64_t lf = 0, maxino = 0, lf_links = 0;
	size_t n = 0;
	int rc, made = 0;

	if (l->n == 0)
		return;
	rc = rc_group(l->v, l->n, &inos, &n);
	if (rc) {
		fsck_say(f, "gathering the objects of unknown inodes: %s",
		    cfs_strerror(rc));
		f->r->errors++;
		return;
	}
	ol_default_layout(f->ol, &deflt);
	for (size_t i = 0; i < n; i++)
		if (inos[i].ino > maxino)
			maxino = inos[i].ino;
	if (f->repair && f->m) {
		/* numbers of those inodes are never handed out again */
		rc = mds_alloc_above(f->m, maxino);
		if (rc == 0 && (f->n + 2) * 2 > f->cap)
			rc = fsck_grow(f);
		if (rc == 0) {
			struct mds_dentry d;

			made = mds_lookup(f->m, MDS_ROOT_INO, "lost+found",
					  &d) == -ENOENT;
			rc = fsck_lost_found(f, &lf);
		}
		if (rc) {
			fsck_say(f, "cannot make /lost+found: %s; the objects are "
			    "left alone", cfs_strerror(rc));
			f->r->errors++;
			free(inos);
			return;
		}
	}
	for (size_t i = 0; i < n; i++) {
		struct rc_inode *ri = &inos[i];
		struct mds_inode rec;
		uint64_t bytes = 0;
		char nm[32];

		rc = rc_load(f->ol, ri);
		if (rc) {
			fsck_say(f, "inode %" PRIx64 ": reading its backtrace: %s; "
			    "its objects are left alone", ri->ino,
			    cfs_strerror(rc));
			f->r->errors++;
			continue;
		}
		rc_make_inode(ri, &deflt, getuid(), getgid(), &rec);
		for (size_t k = 0; k < ri->nobjs; k++)
			bytes += ri->objs[k].size;
		snprintf(nm, sizeof(nm), "#%" PRIx64, ri->ino);
		fsck_say(f, "%zu object(s) of inode %" PRIx64 " (%" PRIu64
		    " bytes): no such inode (%s%s): %s /lost+found/%s",
		    ri->nobjs, ri->ino, bytes, ri->has_bt ? "a " : "no ",
		    ri->has_bt ? fsck_type_name(rec.mode) : "backtrace",
		    f->repair ? "moved to" : "would go to", nm);
		if (f->repair) {
			struct mds_dentry d = { rec.ino,
						mds_mode_to_dt(rec.mode) };

			rec.nlink = S_ISDIR(rec.mode) ? 2 : 1;
			rec.parent = S_ISDIR(rec.mode) ? lf : 0;
			lf_links += S_ISDIR(rec.mode);
			mds_put_inode(f->b, &rec);
			if (S_ISLNK(rec.mode))
				mds_put_symlink(f->b, rec.ino, ri->target,
						ri->tlen);
			mds_put_dentry(f->b, lf, nm, &d);
			{
				/* where the metadata now has it */
				struct fsck_link l = { lf, nm };

				rc = fsck_write_backtrace(f, &rec, &l, 1);
				if (rc)
					fsck_say(f, "inode %" PRIx64 ": writing "
						 "its backtrace: %s", rec.ino,
						 cfs_strerror(rc));
			}
			f->r->adopted++;
			f->r->repaired += ri->nobjs;
		}
		rc_inode_free(ri);
	}
	free(inos);
	if (!f->repair || !f->m)
		return;
	/* the link counts the earlier pass wrote do not know of these */
	lfe = fsck_find(f, lf);
	lfe->rec.nlink += (uint32_t)lf_links;
	mds_put_inode(f->b, &lfe->rec);
	if (made) {
		root = fsck_find(f, MDS_ROOT_INO);
		root->rec.nlink++;
		mds_put_inode(f->b, &root->rec);
	}
	/* the inode count (statfs) was settled before this pass: the new
	 * records go in with it */
	rc = mds_commit_counted(f->m, f->b, (int64_t)f->r->adopted + made, 1);
	kv_batch_free(f->b);
	f->b = kv_batch_new();
	if (rc) {
		fsck_say(f, "writing the repairs failed: %s", cfs_strerror(rc));
		f->r->errors++;
	}
}

