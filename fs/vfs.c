/*
 * vfs.c - POSIX semantics over mds.h records and a data store (vfs.h):
 * the helpers shared by the vfs_*.c files, setup and teardown.  The
 * calls themselves live in vfs_attr.c (lookup, attributes, access,
 * statfs, paths), vfs_names.c (creating names, links), vfs_rename.c
 * (removing and moving names), vfs_file.c (open, read, write, sync),
 * vfs_dir.c (listings) and vfs_xattr.c (extended attributes).
 *
 * Every namespace change is built as one kv batch and committed before
 * the in-memory records are updated, so a failed commit changes nothing
 * and a crash leaves either the old or the new state (STYLE.md 9, issue 4).
 * The data path writes the store only to commit a larger writeable range
 * before a write extends a file past it (wrange.c); sizes and times are
 * updated in memory and written back on flush/fsync/release and by
 * vfs_flush_all().
 */
#include <errno.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "vfs_i.h"

/* ---- helpers shared by the vfs_*.c files ---- */

void vfs_fill_stat(const struct mds_inode *r, struct stat *st)
{
	memset(st, 0, sizeof(*st));
	st->st_ino = r->ino;
	st->st_mode = r->mode;
	st->st_nlink = r->nlink;
	st->st_uid = r->uid;
	st->st_gid = r->gid;
	st->st_rdev = r->rdev;
	/* a record past the largest size (never written by vfs, but the
	 * store is read back) shows as that size, not a negative one */
	st->st_size = S_ISDIR(r->mode)		 ? 4096 :
		      r->size > VFS_MAX_FILE_SIZE ? (off_t)VFS_MAX_FILE_SIZE :
						    (off_t)r->size;
	st->st_blocks = vfs_blocks_of((uint64_t)st->st_size);
	st->st_blksize = 4096;
	if (S_ISREG(r->mode) && r->layout.object_size)
		st->st_blksize = r->layout.object_size > (4u << 20) ?
					 (4u << 20) :
					 r->layout.object_size;
	st->st_atim = r->atime;
	st->st_mtim = r->mtime;
	st->st_ctim = r->ctime;
}

/* 512-byte units, rounded up, without the (size + 511) that overflows
 * off_t for a file of VFS_MAX_FILE_SIZE bytes (issue 21: UBSan aborted
 * the daemon there, the release build showed 0 blocks).  Any uint64_t
 * fits: UINT64_MAX / 512 + 1 is far below INT64_MAX. */
blkcnt_t vfs_blocks_of(uint64_t bytes)
{
	return (blkcnt_t)(bytes / 512 + (bytes % 512 != 0));
}

void vfs_fill_blocks(vfs *v, struct stat *st)
{
	uint64_t bytes, upto = UINT64_MAX;
	struct ol_layout l;
	struct vnode *vn;

	if (!S_ISREG(st->st_mode) || !v->d->allocated)
		return;
	/* the caller just had it: in the table */
	if (vn_get(v, st->st_ino, 0, &vn))
		return;
	pthread_mutex_lock(&vn->m);
	l = vn->rec.layout;
	/* wrange.c's in-memory invariant: no object holds bytes past the
	 * size, preallocated zeros and what a failed probe left aside */
	if (!(vn->rec.flags & MDS_F_PREALLOC) && !vn->stale_to)
		upto = vn->rec.size;
	pthread_mutex_unlock(&vn->m);
	vn_put(v, vn);
	if (v->d->allocated(v->dctx, st->st_ino, &l, upto, &bytes) == 0)
		st->st_blocks = vfs_blocks_of(bytes);
}

void fill_entry(struct vnode *vn, struct vfs_entry *e)
{
	pthread_mutex_lock(&vn->m);
	e->ino = vn->ino;
	e->generation = vn->rec.generation;
	/* size 0 and no range that may hold data past it (a KEEP_SIZE
	 * fallocate, writes not yet sized: wr_first/max_size) */
	e->made_empty = S_ISREG(vn->rec.mode) && vn->rec.size == 0 &&
			!(vn->rec.flags & MDS_F_PREALLOC) &&
			!vn->rec.wr_first && !vn->rec.max_size;
	vfs_fill_stat(&vn->rec, &e->attr);
	pthread_mutex_unlock(&vn->m);
}

/* Lock the record mutexes of up to 4 vnodes in inode order (no dups). */
int lock_set(struct vnode **in, int n, struct vnode **out)
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

/* Parent of a directory (from its record). */
uint64_t dir_parent(struct vnode *dv)
{
	uint64_t p;

	pthread_mutex_lock(&dv->m);
	p = dv->rec.parent ? dv->rec.parent : MDS_ROOT_INO;
	pthread_mutex_unlock(&dv->m);
	return p;
}

int get_dir(vfs *v, uint64_t ino, struct vnode **out)
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

/* ---- setup ---- */

/*
 * An inode unlinked before a crash (its orphan mark): handed to the purge
 * queue as any dead inode is, so that a mount after a crash that left
 * many does not wait for them (up to the ring's 65,536, 7-20 s, were
 * purged here before the mount went on); beyond the ring, pq_add purges
 * it here (back-pressure).  CephFS's MDS likewise resumes its journaled
 * PurgeQueue in the background after a restart.
 */
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
	/* A store written before unlinks committed the link count 0 with
	 * the orphan mark may still show the old count: the orphan mark
	 * alone says the inode is dead. */
	cfs_log(CFS_LOG_INFO, "purging inode %llx, unlinked before a crash",
		(unsigned long long)ino);
	if (rec.nlink == 0)
		pq_add(v, &rec);
	else /* the worker refuses a record with links: purged here */
		vn_purge_rec(v, &rec, 0);
	return 0;
}

void handle_add(vfs *v, struct vfs_handle *h, int is_dir)
{
	h->is_dir = is_dir;
	pthread_mutex_lock(&v->hlock);
	h->next = v->handles.next;
	h->prev = &v->handles;
	h->next->prev = h;
	v->handles.next = h;
	pthread_mutex_unlock(&v->hlock);
}

void handle_del(vfs *v, struct vfs_handle *h)
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
	atomic_init(&v->layout_gen, 1); /* a new vnode's 0 never matches */
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
		rc = pq_start(v);
		if (rc == 0)
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
	pq_stop(v);
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
	/* every removed file's objects gone before the unmount is over
	 * (PurgeQueue::drain at MDS shutdown) */
	pq_stop(v);
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

/* Once this many cached inodes have gone since the most there were, the
 * memory they held goes back to the system. */
#define TRIM_AFTER 4096

/* glibc keeps what a directory of 100,000 inodes freed (vnodes, records,
 * names, pending backtraces, spread over the FUSE workers' arenas) as
 * free heap: the daemon's RSS stayed 50-90 MiB above what it used after
 * an rm -rf, and grew round after round.  malloc_trim (glibc: every
 * arena, free pages inside the heaps too) hands it back; rarely, so its
 * arena locks cost nothing measurable. */
static void trim_if_shrunk(vfs *v)
{
	size_t cached;
	int trim = 0;

	pthread_mutex_lock(&v->tlock);
	cached = v->count;
	if (cached > v->trim_most) {
		v->trim_most = cached;
	} else if (v->trim_most - cached >= TRIM_AFTER) {
		v->trim_most = cached;
		trim = 1;
	}
	pthread_mutex_unlock(&v->tlock);
	if (trim)
		malloc_trim(0);
}

int vfs_flush_periodic(vfs *v)
{
	int rc = itab_flush_all(v, 0);

	btq_flush_old(v);
	trim_if_shrunk(v);
	return rc;
}

void vfs_counts(vfs *v, uint64_t *cached, uint64_t *lookups)
{
	itab_counts(v, cached, lookups);
}
