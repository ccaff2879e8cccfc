/*
 * fsck.c - the filesystem check (fs_fsck in fs.h), for an unmounted
 * cluster.
 *
 * Passes, each repairing what it finds when asked to:
 *  1. the orphan list: files unlinked while open when the daemon died are
 *     purged (what the next mount would do; the inodes are loaded first
 *     so that the later passes skip them);
 *  2. entries: an entry naming a missing inode, or living in something
 *     that is not a directory, is removed;
 *  3. sizes: a file whose writeable range was open when the daemon died
 *     gets the size its objects show, as the next mount would give it
 *     (wrange.c, CephFS's file recovery);
 *  4. inodes: link counts are recounted from the entries (directories:
 *     2 + subdirectories), directory parent pointers follow their entry;
 *     an inode no entry names is purged when its link count says it was
 *     unlinked, else given a name in /lost+found;
 *  5. objects: objects of an inode the metadata does not know are never
 *     deleted: the inode is remade from them (its backtrace, else a file)
 *     in /lost+found, named #<ino>; an object past the end of its file is
 *     removed, one that holds bytes past the end is trimmed (a size that
 *     never reached the store before a crash); object 0 stays (it carries
 *     the backtrace); data objects of a directory or symlink are reported
 *     and left alone (fsck_lost.c adopts); the copies of every object are scrubbed against the
 *     authoritative one (ol_scrub_object) - a kill in the middle of a
 *     replicated write leaves copies that differ.  Objects of PGs with
 *     fewer OSDs than min_size cannot be checked: reported per PG and
 *     counted, so the verdict is never "clean";
 *  5b. backtraces (fsck_bt.c): each inode's, on its object 0, must name
 *     its entries and say its type, mode, owner and layout; missing,
 *     damaged and stale ones are rewritten;
 *  6. the cluster underneath (ol_cluster_check): usage accounting against
 *     the disk, stray files, objects filed under the wrong PG.
 * Metadata repairs are committed as one batch per pass, synced.
 *
 * A metadata store that is missing or unreadable (while a filesystem was
 * made here, meta_i.h) stops fsck before anything is looked at or
 * changed: the objects are then all that is left of the files, and
 * `fsck --rebuild-metadata` (rebuild.c) is the way back.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsck_i.h"
#include "fsd_i.h"
#include "ol_scan.h"
#include "util.h"
#include "wrange_i.h"

void fsck_say(struct fck *f, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	if (!f->msg)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	f->msg(buf, f->arg);
}

static const char *fixed(struct fck *f)
{
	return f->repair ? ": repaired" : "";
}

/* ---- the inode table (open addressing) ---- */

static size_t slot(const struct fck *f, uint64_t ino)
{
	return (size_t)((ino * 0x9e3779b97f4a7c15ULL) >> 17) & (f->cap - 1);
}

struct fent *fsck_find(struct fck *f, uint64_t ino)
{
	for (size_t i = slot(f, ino);; i = (i + 1) & (f->cap - 1)) {
		if (!f->tab[i].used)
			return NULL;
		if (f->tab[i].ino == ino)
			return &f->tab[i];
	}
}

int fsck_grow(struct fck *f)
{
	struct fent *old = f->tab;
	size_t ocap = f->cap;

	f->cap = ocap ? ocap * 2 : 4096;
	f->tab = calloc(f->cap, sizeof(*f->tab));
	if (!f->tab) {
		f->tab = old;
		f->cap = ocap;
		return -ENOMEM;
	}
	for (size_t i = 0; i < ocap; i++) {
		if (!old[i].used)
			continue;
		size_t s = slot(f, old[i].ino);

		while (f->tab[s].used)
			s = (s + 1) & (f->cap - 1);
		f->tab[s] = old[i];
	}
	free(old);
	return 0;
}

static int add_inode(const struct mds_inode *in, void *arg)
{
	struct fck *f = arg;
	size_t s;

	if ((f->n + 1) * 2 > f->cap && fsck_grow(f))
		return -ENOMEM;
	s = slot(f, in->ino);
	while (f->tab[s].used)
		s = (s + 1) & (f->cap - 1);
	memset(&f->tab[s], 0, sizeof(f->tab[s]));
	f->tab[s].used = 1;
	f->tab[s].ino = in->ino;
	f->tab[s].rec = *in;
	f->n++;
	f->r->inodes++;
	return 0;
}

int fsck_commit(struct fck *f)
{
	int rc = 0;

	if (f->b && kv_batch_count(f->b))
		rc = kv_batch_commit(f->db, f->b, 1);
	kv_batch_free(f->b);
	f->b = kv_batch_new();
	if (rc) {
		fsck_say(f, "writing the repairs failed: %s", cfs_strerror(rc));
		f->r->errors++;
	}
	return f->b ? rc : -ENOMEM;
}

/* Where a file's object bytes may end: its size, or its preallocated end
 * (fallocate with KEEP_SIZE; vn_data_end() in the daemon). */
uint64_t fsck_data_end(struct fck *f, const struct mds_inode *rec)
{
	uint64_t end;

	if (!(rec->flags & MDS_F_PREALLOC) ||
	    mds_get_prealloc(f->m, rec->ino, &end) || end < rec->size)
		return rec->size;
	return end;
}

/* The inode count statfs reports against a count of the records. */
static void check_count(struct fck *f)
{
	uint64_t stored, actual;
	int rc = mds_recount_inodes(f->m, f->repair, &stored, &actual);

	if (rc) {
		fsck_say(f, "counting the inodes failed: %s", cfs_strerror(rc));
		f->r->errors++;
		return;
	}
	stored += (uint64_t)f->ino_delta; /* what the repairs changed */
	if (stored == actual)
		return;
	f->r->count_drift++;
	fsck_say(f, "inode count: %" PRIu64 " stored, %" PRIu64 " counted%s",
	    stored, actual, fixed(f));
	if (f->repair)
		f->r->repaired++;
}

/* ---- pass 1: the orphan list ---- */

static int purge(struct fck *f, const struct mds_inode *rec)
{
	int rc = 0;

	if (S_ISREG(rec->mode))
		rc = ol_remove(f->ol, rec->ino, &rec->layout,
			       fsck_data_end(f, rec));
	if (rc == 0 && !S_ISREG(rec->mode)) {
		char name[64];

		/* object 0 of a directory or symlink holds its backtrace */
		ol_object_name(rec->ino, 0, name, sizeof(name));
		rc = ol_obj_remove(f->ol, f->pool, name);
		if (rc == -ENOENT)
			rc = 0;
	}
	if (rc == 0) {
		/* whatever the record says: leave nothing behind */
		struct mds_inode all = *rec;

		all.flags |= MDS_F_XATTRS | MDS_F_PREALLOC;
		mds_del_symlink(f->b, rec->ino);
		rc = mds_inode_exists(f->m, rec->ino);
		if (rc > 0)
			f->ino_delta--;
		if (rc >= 0)
			rc = mds_del_inode_all(f->m, f->b, &all);
	}
	if (rc) {
		fsck_say(f, "inode %" PRIx64 ": purge failed: %s", rec->ino,
		    cfs_strerror(rc));
		f->r->errors++;
	}
	return rc;
}

static int orphan_cb(uint64_t ino, void *arg)
{
	struct fck *f = arg;
	struct fent *e = fsck_find(f, ino);
	struct mds_inode rec;
	int rc = mds_get_inode(f->m, ino, &rec);

	f->r->orphans_purged++;
	if (e)
		e->used = 2; /* handled here: the later passes skip it */
	if (rc == -ENOENT) {
		fsck_say(f, "orphan mark of inode %" PRIx64 " without its inode%s",
		    ino, fixed(f));
		if (f->repair)
			mds_del_orphan(f->b, ino);
		return 0;
	}
	if (rc)
		return rc;
	fsck_say(f, "inode %" PRIx64 ": unlinked while open (%" PRIu64
	    " bytes), left by a crash%s",
	    ino, rec.size, f->repair ? ": purged" : "");
	if (f->repair && purge(f, &rec) == 0)
		f->r->repaired++;
	return 0;
}

/* ---- pass 2: entries ---- */

static int dentry_cb(uint64_t parent, const char *name, size_t nlen,
		     const struct mds_dentry *d, void *arg)
{
	struct fck *f = arg;
	struct fent *p = fsck_find(f, parent), *c = fsck_find(f, d->ino);
	char nm[MDS_NAME_MAX + 1];

	if (p && p->used != 1)
		p = NULL;
	if (c && c->used != 1)
		c = NULL;

	snprintf(nm, sizeof(nm), "%.*s", (int)nlen, name);
	f->r->dentries++;
	if (!p || !S_ISDIR(p->rec.mode) || !c) {
		f->r->dangling_dentries++;
		fsck_say(f, "entry '%s' in %" PRIx64 " names %s inode %" PRIx64 "%s",
		    nm, parent, p && S_ISDIR(p->rec.mode) ? "a missing" :
							     "(bad parent)",
		    d->ino, f->repair ? ": removed" : "");
		if (f->repair) {
			mds_del_dentry(f->b, parent, nm);
			f->r->repaired++;
		}
		return 0;
	}
	if (d->type != mds_mode_to_dt(c->rec.mode)) {
		struct mds_dentry nd = { d->ino, mds_mode_to_dt(c->rec.mode) };

		fsck_say(f, "entry '%s' in %" PRIx64 ": wrong file type%s", nm,
		    parent, fixed(f));
		if (f->repair) {
			mds_put_dentry(f->b, parent, nm, &nd);
			f->r->repaired++;
		}
	}
	c->links++;
	if (S_ISDIR(c->rec.mode)) {
		if (c->links > 1) {
			fsck_say(f, "directory %" PRIx64 " has a second entry '%s' "
			    "in %" PRIx64 "%s",
			    d->ino, nm, parent, f->repair ? ": removed" : "");
			f->r->dangling_dentries++;
			c->links--;
			if (f->repair) {
				mds_del_dentry(f->b, parent, nm);
				f->r->repaired++;
			}
			return 0;
		}
		p->subdirs++;
		if (c->rec.parent != parent) {
			f->r->bad_parent++;
			fsck_say(f, "directory %" PRIx64 ": parent %" PRIx64
			    ", its entry is in %" PRIx64 "%s",
			    d->ino, c->rec.parent, parent, fixed(f));
			c->rec.parent = parent;
			c->changed = 1;
		}
	}
	return fsck_add_link(c, parent, name, nlen);
}

/* ---- pass 3: sizes ---- */

struct probe_ctx {
	objlayer *ol;
	int64_t pool;
	uint64_t ino;
};

static int probe_stat(void *arg, uint64_t objectno, uint64_t *size,
		      struct timespec *mtime)
{
	struct probe_ctx *c = arg;
	char name[64];

	ol_object_name(c->ino, objectno, name, sizeof(name));
	return ol_obj_stat_mtime(c->ol, c->pool, name, size, mtime);
}

static void recover_sizes(struct fck *f)
{
	for (size_t i = 0; i < f->cap; i++) {
		struct fent *e = &f->tab[i];
		struct probe_ctx c = { f->ol, e->rec.layout.pool, e->ino };
		struct timespec mt;
		uint64_t from, to, end, pend;
		int rc;

		if (e->used != 1 || !wr_unrecorded(&e->rec, &from, &to))
			continue;
		if (!ol_layout_valid(&e->rec.layout))
			continue; /* pass 5 says so */
		rc = wr_probe(&e->rec.layout, from, to, probe_stat, &c, &end,
			      &mt);
		if (rc) {
			fsck_say(f, "inode %" PRIx64 ": probing its objects past "
			    "byte %" PRIu64 " failed: %s; they are left alone",
			    e->ino, from, cfs_strerror(rc));
			f->r->errors++;
			e->keep_to = to;
			continue;
		}
		pend = fsck_data_end(f, &e->rec);
		if (end > e->rec.size && end <= pend) {
			/* inside a preallocation: written or preallocated
			 * bytes cannot be told apart; as the mount does
			 * (wrange.c), keep the size, drop what is past it */
			uint64_t reach = pend > to ? pend : to;

			f->r->beyond_eof++;
			fsck_say(f, "inode %" PRIx64 ": data past its recorded size "
			    "%" PRIu64 " inside its preallocation after a "
			    "crash%s", e->ino, e->rec.size,
			    f->repair ? ": preallocation dropped" : "");
			if (f->repair) {
				rc = ol_truncate(f->ol, e->ino, &e->rec.layout,
						 reach, e->rec.size);
				if (rc) {
					fsck_say(f, "inode %" PRIx64 ": cutting its "
					    "objects failed: %s", e->ino,
					    cfs_strerror(rc));
					f->r->errors++;
					e->keep_to = reach;
					continue;
				}
				e->rec.flags &= ~MDS_F_PREALLOC;
				mds_del_prealloc(f->b, e->ino);
				f->r->repaired++;
			}
			end = e->rec.size;
		}
		if (end > e->rec.size) {
			f->r->beyond_eof++;
			fsck_say(f, "inode %" PRIx64 ": %" PRIu64 " bytes written "
			    "past its recorded size %" PRIu64 " before a crash"
			    "%s",
			    e->ino, end - e->rec.size, e->rec.size,
			    f->repair ? ": size recovered" : "");
			e->rec.size = end;
			if (mt.tv_sec > e->rec.mtime.tv_sec ||
			    (mt.tv_sec == e->rec.mtime.tv_sec &&
			     mt.tv_nsec > e->rec.mtime.tv_nsec))
				e->rec.mtime = mt;
			if (f->repair)
				f->r->repaired++;
		}
		e->rec.wr_first = e->rec.max_size = 0;
		/* pass 4 may write the record again, with this in it */
		if (f->repair)
			mds_put_inode(f->b, &e->rec);
	}
}

/* ---- pass 4: inodes ---- */

int fsck_lost_found(struct fck *f, uint64_t *ino)
{
	struct mds_dentry d;
	struct fent *root, *lf;
	struct mds_inode r;
	int rc = mds_lookup(f->m, MDS_ROOT_INO, "lost+found", &d);

	if (rc == 0 && (lf = fsck_find(f, d.ino)) && S_ISDIR(lf->rec.mode)) {
		*ino = d.ino;
		return 0;
	}
	if (rc == 0)
		return -EEXIST; /* a file of that name: leave it */
	memset(&r, 0, sizeof(r));
	rc = mds_alloc_ino(f->m, &r.ino);
	if (rc)
		return rc;
	r.mode = S_IFDIR | 0700;
	r.nlink = 2;
	r.parent = MDS_ROOT_INO;
	r.generation = 1;
	clock_gettime(CLOCK_REALTIME, &r.btime);
	r.atime = r.mtime = r.ctime = r.btime;
	rc = add_inode(&r, f);
	if (rc)
		return rc;
	f->ino_delta++;
	lf = fsck_find(f, r.ino);
	lf->changed = 1;
	lf->links = 1;
	root = fsck_find(f, MDS_ROOT_INO);
	root->subdirs++;
	d.ino = r.ino;
	d.type = mds_mode_to_dt(r.mode);
	mds_put_dentry(f->b, MDS_ROOT_INO, "lost+found", &d);
	*ino = r.ino;
	rc = fsck_add_link(lf, MDS_ROOT_INO, "lost+found", 10);
	/* made here: its backtrace too (a failure shows in the check) */
	if (rc == 0)
		fsck_write_backtrace(f, &lf->rec, lf->lnk, lf->nlnk);
	return rc;
}

int fsck_add_link(struct fent *e, uint64_t dir, const char *name,
		  size_t nlen)
{
	struct fsck_link *n = realloc(e->lnk, (e->nlnk + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	e->lnk = n;
	n[e->nlnk].dir = dir;
	n[e->nlnk].name = strndup(name, nlen);
	if (!n[e->nlnk].name)
		return -ENOMEM;
	e->nlnk++;
	return 0;
}

static int check_inodes(struct fck *f)
{
	uint64_t lf = 0;
	int have_lf = 0;

	/* room for /lost+found now: the table must not move under e */
	if ((f->n + 2) * 2 > f->cap && fsck_grow(f))
		return -ENOMEM;
	/* unreachable inodes first: they change counts */
	for (size_t i = 0; i < f->cap; i++) {
		struct fent *e = &f->tab[i];

		if (e->used != 1 || e->ino == MDS_ROOT_INO || e->links)
			continue;
		if (e->rec.nlink == 0) {
			fsck_say(f, "inode %" PRIx64 ": unlinked, not on the orphan "
			    "list%s",
			    e->ino, f->repair ? ": purged" : "");
			f->r->orphans_purged++;
			if (f->repair && purge(f, &e->rec) == 0) {
				f->r->repaired++;
				e->used = 2; /* gone, keep the probe chain */
			}
			continue;
		}
		f->r->lost_inodes++;
		fsck_say(f, "inode %" PRIx64 " (%s, %" PRIu64 " bytes) has no name%s",
		    e->ino, S_ISDIR(e->rec.mode) ? "directory" : "file",
		    e->rec.size, f->repair ? ": moved to /lost+found" : "");
		if (!f->repair) {
			e->links = 1; /* as it would be: one finding, not two */
			continue;
		}
		if (!have_lf) {
			int rc = fsck_lost_found(f, &lf);

			if (rc) {
				fsck_say(f, "cannot make /lost+found: %s",
				    cfs_strerror(rc));
				f->r->errors++;
				return rc;
			}
			have_lf = 1;
		}
		{
			char name[32];
			struct mds_dentry d = { e->ino,
						mds_mode_to_dt(e->rec.mode) };
			struct fent *l = fsck_find(f, lf);

			snprintf(name, sizeof(name), "#%" PRIx64, e->ino);
			mds_put_dentry(f->b, lf, name, &d);
			e->links = 1;
			/* its backtrace says where it is now */
			if (fsck_add_link(e, lf, name, strlen(name)) == 0)
				fsck_write_backtrace(f, &e->rec, e->lnk,
						     e->nlnk);
			if (S_ISDIR(e->rec.mode)) {
				e->rec.parent = lf;
				e->changed = 1;
				l->subdirs++;
			}
			f->r->repaired++;
		}
	}
	for (size_t i = 0; i < f->cap; i++) {
		struct fent *e = &f->tab[i];
		uint32_t want;

		if (e->used != 1)
			continue;
		want = S_ISDIR(e->rec.mode) ? 2 + e->subdirs : e->links;
		if (e->rec.nlink != want) {
			f->r->bad_nlink++;
			fsck_say(f, "inode %" PRIx64 ": link count %u, should be "
			    "%u%s",
			    e->ino, e->rec.nlink, want, fixed(f));
			e->rec.nlink = want;
			e->changed = 1;
		}
		if (e->changed && f->repair) {
			mds_put_inode(f->b, &e->rec);
			f->r->repaired++;
		}
	}
	return 0;
}

/* ---- pass 6: the cluster ---- */

static void cluster_msg(const char *line, void *arg)
{
	struct fck *f = arg;

	fsck_say(f, "cluster: %s", line);
}

int fs_fsck(cfs_cluster *c, objlayer *ol, int repair, int deep,
	    void (*msg)(const char *line, void *arg), void *arg,
	    struct fs_fsck_report *r)
{
	struct fs_fsck_opts o = { repair, deep, msg, NULL, arg };

	return fs_fsck_opts(c, ol, &o, r);
}

int fs_fsck_opts(cfs_cluster *c, objlayer *ol, const struct fs_fsck_opts *o,
		 struct fs_fsck_report *r)
{
	struct ol_cluster_report cr;
	struct fck f;
	char err[1200];
	int rc, state;

	memset(r, 0, sizeof(*r));
	memset(&f, 0, sizeof(f));
	f.c = c;
	f.ol = ol;
	f.pool = ol_data_pool(ol);
	f.repair = o->repair;
	f.deep = o->deep;
	f.msg = o->msg;
	f.progress = o->progress;
	f.arg = o->arg;
	f.r = r;
	rc = meta_open_store(c, 0, &f.db, &f.m, &state, err, sizeof(err));
	if (rc && state == META_NONE) {
		fsck_say(&f, "no filesystem metadata yet (never mounted): checking "
		    "the objects and the cluster only");
	} else if (rc) {
		/* nothing can be checked against a store that is gone or
		 * unreadable, and nothing is touched: the objects are all
		 * that is left of the files */
		snprintf(r->fatal, sizeof(r->fatal), "%s", err);
		r->errors++;
		return rc;
	}
	f.b = kv_batch_new();
	if (!f.b) {
		rc = -ENOMEM;
		goto out;
	}
	if (f.m) {
		rc = fsck_grow(&f);
		if (rc == 0)
			rc = mds_list_inodes(f.m, add_inode, &f);
		if (rc == 0)
			rc = mds_list_orphans(f.m, orphan_cb, &f);
		if (rc == 0)
			rc = fsck_commit(&f);
		if (rc == 0 && !fsck_find(&f, MDS_ROOT_INO)) {
			fsck_say(&f, "the root directory is missing: cannot check "
			    "the namespace");
			r->errors++;
			rc = CFS_ECORRUPT;
		}
		if (rc == 0)
			rc = mds_list_dentries(f.m, dentry_cb, &f);
		if (rc == 0)
			recover_sizes(&f);
		if (rc == 0)
			rc = check_inodes(&f);
		if (rc == 0)
			rc = fsck_commit(&f);
		if (rc == 0)
			check_count(&f);
		if (rc) {
			fsck_say(&f, "checking the metadata failed: %s",
			    cfs_strerror(rc));
			r->errors++;
			goto out;
		}
	}
	fsck_check_objects(&f);
	if (f.m)
		fsck_backtraces(&f);

	memset(&cr, 0, sizeof(cr));
	/* replicas were compared above (deep or not): the cluster check
	 * looks at accounting and layout only */
	rc = ol_cluster_check(c, &cr, cluster_msg, &f);
	if (rc) {
		fsck_say(&f, "cluster check failed: %s", cfs_strerror(rc));
		r->errors++;
	}
	r->usage_drift = (uint64_t)cr.usage_mismatches;
	r->cluster_problems = (uint64_t)(cr.stray_files + cr.misfiled);
	rc = 0;
out:
	kv_batch_free(f.b);
	for (size_t i = 0; i < f.nobjs; i++)
		free(f.objs[i]);
	free(f.objs);
	for (size_t i = 0; i < f.cap; i++) {
		for (uint32_t k = 0; k < f.tab[i].nlnk; k++)
			free(f.tab[i].lnk[k].name);
		free(f.tab[i].lnk);
	}
	free(f.tab);
	mds_close(f.m);
	if (f.db) {
		kv_sync(f.db);
		kv_close(f.db);
	}
	return rc;
}
