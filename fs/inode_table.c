/*
 * inode_table.c - live inodes: lookup and open counts, cached records,
 * deferred deletion (STYLE.md 5).
 *
 * An inode stays in the table while the kernel holds lookup references,
 * while it is open, or while a call uses it (pins).  When all three reach
 * zero it is dropped; if its link count is 0 it goes to the purge queue
 * (purge_queue.c), whose worker removes its objects through the data
 * store, then deletes its records in one batch with others (the orphan
 * mark written by the unlink goes with them, so a crash in between is
 * finished by the next mount).  A record with unwritten
 * size/time changes is written back before the inode leaves the table.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "vfs_i.h"
#include "wrange_i.h"

static size_t bucket(const vfs *v, uint64_t ino)
{
	return (size_t)((ino * 0x9e3779b97f4a7c15ULL) >> 20) &
	       (v->nbuckets - 1);
}

int itab_init(vfs *v)
{
	v->nbuckets = 1024;
	v->tab = calloc(v->nbuckets, sizeof(*v->tab));
	if (!v->tab)
		return -ENOMEM;
	pthread_mutex_init(&v->tlock, NULL);
	pthread_mutex_init(&v->plock, NULL);
	pthread_mutex_init(&v->pflock, NULL);
	pthread_mutex_init(&v->rlock, NULL);
	return 0;
}

static struct vnode *find_locked(vfs *v, uint64_t ino)
{
	struct vnode *vn = v->tab[bucket(v, ino)];

	while (vn && vn->ino != ino)
		vn = vn->hnext;
	return vn;
}

static void grow_locked(vfs *v)
{
	size_t nb = v->nbuckets * 2, old = v->nbuckets;
	struct vnode **tab = calloc(nb, sizeof(*tab)), **otab = v->tab;

	if (!tab)
		return; /* chains just get longer */
	v->tab = tab;
	v->nbuckets = nb;
	for (size_t i = 0; i < old; i++) {
		struct vnode *vn = otab[i], *next;

		for (; vn; vn = next) {
			size_t b = bucket(v, vn->ino);

			next = vn->hnext;
			vn->hnext = tab[b];
			tab[b] = vn;
		}
	}
	free(otab);
}

static void insert_locked(vfs *v, struct vnode *vn)
{
	size_t b;

	if (v->count >= v->nbuckets * 2)
		grow_locked(v);
	b = bucket(v, vn->ino);
	vn->hnext = v->tab[b];
	v->tab[b] = vn;
	v->count++;
}

static void remove_locked(vfs *v, struct vnode *vn)
{
	struct vnode **p = &v->tab[bucket(v, vn->ino)];

	while (*p != vn)
		p = &(*p)->hnext;
	*p = vn->hnext;
	v->count--;
}

static struct vnode *vn_alloc(const struct mds_inode *rec)
{
	struct vnode *vn = calloc(1, sizeof(*vn));
	pthread_rwlockattr_t a;

	if (!vn)
		return NULL;
	vn->ino = rec->ino;
	vn->rec = *rec;
	vn->dsize = rec->size;
	pthread_mutex_init(&vn->m, NULL);
	/* Writers (truncate) must not starve behind a stream of reads. */
	pthread_rwlockattr_init(&a);
	pthread_rwlockattr_setkind_np(
		&a, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	pthread_rwlock_init(&vn->io, &a);
	pthread_rwlockattr_destroy(&a);
	return vn;
}

static void vn_free(struct vnode *vn)
{
	pthread_mutex_destroy(&vn->m);
	pthread_rwlock_destroy(&vn->io);
	free(vn);
}

/* Pin the cached vnode of ino, if there is one. */
static struct vnode *find_pin(vfs *v, uint64_t ino, uint64_t lookup)
{
	struct vnode *vn;

	pthread_mutex_lock(&v->tlock);
	vn = find_locked(v, ino);
	if (vn) {
		vn->pins++;
		vn->nlookup += lookup;
	}
	pthread_mutex_unlock(&v->tlock);
	return vn;
}

/* Under rlock, for a file whose writeable range was open: read the
 * record again (another loader may have recovered it meanwhile), then
 * recover it (wrange.c). */
static int reload_recover(vfs *v, uint64_t ino, struct mds_inode *rec,
			  uint64_t *stale_to)
{
	int rc = mds_get_inode(v->m, ino, rec);

	if (rc == 0 && rec->nlink == 0)
		rc = -ENOENT;
	if (rc == 0)
		rc = wr_recover(v, rec, stale_to);
	return rc;
}

int vn_get(vfs *v, uint64_t ino, uint64_t lookup, struct vnode **out)
{
	struct mds_inode rec;
	struct vnode *vn, *nvn;
	uint64_t stale_to = 0, from, to;
	int rc, rlocked = 0;

	vn = find_pin(v, ino, lookup);
	if (vn) {
		*out = vn;
		return 0;
	}

	/* purged, its records not deleted yet: gone all the same */
	pthread_mutex_lock(&v->plock);
	for (size_t i = 0; i < v->npurged; i++)
		if (v->purged[i].ino == ino) {
			pthread_mutex_unlock(&v->plock);
			return -ENOENT;
		}
	pthread_mutex_unlock(&v->plock);
	rc = mds_get_inode(v->m, ino, &rec);
	if (rc)
		return rc;
	/* Link count 0: an orphan (unlinked, being purged, or left by a
	 * crash for the next mount to purge).  Never brought back. */
	if (rec.nlink == 0)
		return -ENOENT;
	if (wr_unrecorded(&rec, &from, &to)) {
		/* One recovery at a time; a loader that waited finds the
		 * inode cached, or its record recovered. */
		pthread_mutex_lock(&v->rlock);
		rlocked = 1;
		vn = find_pin(v, ino, lookup);
		if (vn) {
			pthread_mutex_unlock(&v->rlock);
			*out = vn;
			return 0;
		}
		rc = reload_recover(v, ino, &rec, &stale_to);
		if (rc) {
			pthread_mutex_unlock(&v->rlock);
			return rc;
		}
	}
	nvn = vn_alloc(&rec);
	if (!nvn) {
		if (rlocked)
			pthread_mutex_unlock(&v->rlock);
		return -ENOMEM;
	}
	nvn->stale_to = stale_to;
	pthread_mutex_lock(&v->tlock);
	vn = find_locked(v, ino);
	if (!vn) {
		vn = nvn;
		nvn = NULL;
		insert_locked(v, vn);
	}
	vn->pins++;
	vn->nlookup += lookup;
	pthread_mutex_unlock(&v->tlock);
	if (rlocked)
		pthread_mutex_unlock(&v->rlock);
	if (nvn)
		vn_free(nvn);
	*out = vn;
	return 0;
}

int vn_insert_new(vfs *v, const struct mds_inode *rec, uint64_t lookup,
		  uint32_t nopen, struct vnode **out)
{
	struct vnode *vn = vn_alloc(rec);

	if (!vn)
		return -ENOMEM;
	vn->pins = 1;
	vn->nlookup = lookup;
	vn->nopen = nopen;
	pthread_mutex_lock(&v->tlock);
	insert_locked(v, vn);
	pthread_mutex_unlock(&v->tlock);
	*out = vn;
	return 0;
}

void vn_ref(vfs *v, struct vnode *vn, uint64_t lookup, uint32_t nopen)
{
	pthread_mutex_lock(&v->tlock);
	vn->nlookup += lookup;
	vn->nopen += nopen;
	pthread_mutex_unlock(&v->tlock);
}

int vn_persist_locked(vfs *v, struct vnode *vn, int sync)
{
	kv_batch *b;
	int rc;

	if (!vn->dirty)
		return sync ? kv_sync(v->db) : 0;
	b = kv_batch_new();
	if (!b)
		return -ENOMEM;
	mds_put_inode(b, &vn->rec);
	rc = kv_batch_commit(v->db, b, sync);
	kv_batch_free(b);
	if (rc == 0) {
		vn->dirty = 0;
		vn->dsize = vn->rec.size;
	}
	return rc;
}

/* Delete the records of the purged inodes waiting for it. */
int vn_flush_purged(vfs *v)
{
	struct mds_inode *list;
	size_t n;
	kv_batch *b;
	int64_t gone = 0;
	int rc = 0;

	pthread_mutex_lock(&v->pflock);
	pthread_mutex_lock(&v->plock);
	list = v->purged;
	n = v->npurged;
	v->purged = NULL;
	v->npurged = v->cappurged = 0;
	pthread_mutex_unlock(&v->plock);
	if (!n) {
		pthread_mutex_unlock(&v->pflock);
		return 0;
	}
	b = kv_batch_new();
	if (!b)
		rc = -ENOMEM;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		/* objects removed asynchronously (RADOS) must be gone before
		 * the orphan mark goes: else kept for the next mount */
		if (S_ISREG(list[i].mode) && v->d->removed &&
		    v->d->removed(v->dctx, list[i].ino)) {
			cfs_log(CFS_LOG_ERR, "inode %llx: removing its "
				"objects failed; left on the orphan list",
				(unsigned long long)list[i].ino);
			continue;
		}
		rc = mds_inode_exists(v->m, list[i].ino);
		if (rc > 0)
			gone++;
		if (rc >= 0)
			rc = mds_del_inode_all(v->m, b, &list[i]);
	}
	if (rc == 0)
		rc = mds_commit_counted(v->m, b, -gone, 0);
	kv_batch_free(b);
	if (rc)
		cfs_log(CFS_LOG_ERR, "deleting the records of %zu purged "
			"inodes: %s (their orphan marks stay for the next "
			"mount)", n, cfs_strerror(rc));
	free(list);
	pthread_mutex_unlock(&v->pflock);
	return rc;
}

#define MAX_PURGED 1024

int vn_purge_rec(vfs *v, const struct mds_inode *rec, int defer)
{
	kv_batch *b;
	int rc = 0;

	/* A read-only view (tools) never changes anything; the next
	 * writable mount finishes the job from the orphan list. */
	if (v->opts.readonly || !v->d)
		return 0;
	btq_forget(v, rec->ino);
	if (S_ISREG(rec->mode)) {
		rc = v->d->remove(v->dctx, rec->ino, &rec->layout,
				  vn_data_end(v, rec));
		if (!rc && !defer && v->d->removed)
			rc = v->d->removed(v->dctx, rec->ino);
		if (rc) {
			cfs_log(CFS_LOG_ERR,
				"inode %llx: removing its objects failed: %s; "
				"left on the orphan list",
				(unsigned long long)rec->ino, cfs_strerror(rc));
			return rc;
		}
	}
	/* object 0 of a directory, symlink or device holds its backtrace
	 * (a file's goes with its objects above: all that exist) */
	if (!S_ISREG(rec->mode) &&
	    v->d->remove_backtrace &&
	    (rc = v->d->remove_backtrace(v->dctx, rec->ino)) != 0) {
		cfs_log(CFS_LOG_ERR,
			"inode %llx: removing its backtrace object failed: "
			"%s; left on the orphan list",
			(unsigned long long)rec->ino, cfs_strerror(rc));
		return rc;
	}
	if (defer) {
		int full = 0;

		pthread_mutex_lock(&v->plock);
		if (v->npurged == v->cappurged) {
			size_t nc = v->cappurged ? v->cappurged * 2 : 64;
			struct mds_inode *p =
				realloc(v->purged, nc * sizeof(*p));

			if (p) {
				v->purged = p;
				v->cappurged = nc;
			}
		}
		if (v->npurged < v->cappurged) {
			v->purged[v->npurged++] = *rec;
			full = v->npurged >= MAX_PURGED;
			pthread_mutex_unlock(&v->plock);
			return full ? vn_flush_purged(v) : 0;
		}
		pthread_mutex_unlock(&v->plock);
	}
	b = kv_batch_new();
	if (!b)
		return -ENOMEM;
	rc = mds_inode_exists(v->m, rec->ino);
	if (rc >= 0) {
		int64_t gone = rc;

		rc = mds_del_inode_all(v->m, b, rec);
		if (rc == 0)
			rc = mds_commit_counted(v->m, b, -gone, 0);
	}
	kv_batch_free(b);
	if (rc)
		cfs_log(CFS_LOG_ERR, "inode %llx: deleting its records: %s",
			(unsigned long long)rec->ino, cfs_strerror(rc));
	return rc;
}

static int idle(const struct vnode *vn)
{
	return vn->pins == 0 && vn->nopen == 0 && vn->nlookup == 0 &&
	       vn->ino != MDS_ROOT_INO;
}

/* Called with tlock held; releases it.  Drops vn if it is idle. */
static void release_locked(vfs *v, struct vnode *vn)
{
	for (;;) {
		int dead, dirty;

		if (!idle(vn)) {
			pthread_mutex_unlock(&v->tlock);
			return;
		}
		pthread_mutex_lock(&vn->m);
		dead = vn->rec.nlink == 0;
		/* Nothing is open: a writeable range left open (a handle
		 * the kernel never released) closes with the size - unless
		 * a failed probe left it for the next load to retry, or
		 * this is a read-only view that never probed. */
		if (!dead && !vn->stale_to && !v->opts.readonly &&
		    (vn->rec.wr_first || vn->rec.max_size)) {
			vn->rec.wr_first = vn->rec.max_size = 0;
			vn->dirty = 1;
		}
		dirty = vn->dirty;
		pthread_mutex_unlock(&vn->m);
		if (dead || !dirty) {
			remove_locked(v, vn);
			pthread_mutex_unlock(&v->tlock);
			if (dead)
				pq_add(v, &vn->rec);
			vn_free(vn);
			return;
		}
		/* Write back outside the table lock, then look again. */
		vn->pins++;
		pthread_mutex_unlock(&v->tlock);
		pthread_mutex_lock(&vn->m);
		int rc = vn_persist_locked(v, vn, 0);
		pthread_mutex_unlock(&vn->m);
		pthread_mutex_lock(&v->tlock);
		vn->pins--;
		if (rc) {
			/* Keep it; vfs_flush_all() retries. */
			pthread_mutex_unlock(&v->tlock);
			return;
		}
	}
}

void vn_put(vfs *v, struct vnode *vn)
{
	if (!vn)
		return;
	pthread_mutex_lock(&v->tlock);
	vn->pins--;
	release_locked(v, vn);
}

void vn_close(vfs *v, struct vnode *vn)
{
	pthread_mutex_lock(&v->tlock);
	vn->nopen--;
	release_locked(v, vn);
}

void vn_forget(vfs *v, uint64_t ino, uint64_t n)
{
	struct vnode *vn;

	pthread_mutex_lock(&v->tlock);
	vn = find_locked(v, ino);
	if (!vn) {
		pthread_mutex_unlock(&v->tlock);
		return;
	}
	vn->nlookup = n > vn->nlookup ? 0 : vn->nlookup - n;
	release_locked(v, vn);
}

static int by_ino(const void *a, const void *b)
{
	const struct vnode *x = *(struct vnode *const *)a;
	const struct vnode *y = *(struct vnode *const *)b;

	return x->ino < y->ino ? -1 : x->ino > y->ino;
}

#define FLUSH_BATCH 512

/*
 * Write back every dirty record, FLUSH_BATCH per commit.  The record
 * mutexes of a batch stay held until it is committed (taken in inode
 * order, as lock_set() in vfs.c takes them), so a record cannot change -
 * and be written by someone else - between being copied here and
 * reaching the store: the store never goes back to an older record.
 */
int itab_flush_all(vfs *v, int sync)
{
	struct vnode **list = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;

	pthread_mutex_lock(&v->tlock);
	for (size_t i = 0; i < v->nbuckets; i++) {
		for (struct vnode *vn = v->tab[i]; vn; vn = vn->hnext) {
			int dirty;

			pthread_mutex_lock(&vn->m);
			dirty = vn->dirty;
			pthread_mutex_unlock(&vn->m);
			/* idle ones too: they leave the table below */
			if (!dirty && !idle(vn))
				continue;
			if (n == cap) {
				size_t nc = cap ? cap * 2 : 64;
				struct vnode **l =
					realloc(list, nc * sizeof(*l));

				if (!l)
					break;
				list = l;
				cap = nc;
			}
			vn->pins++;
			list[n++] = vn;
		}
	}
	pthread_mutex_unlock(&v->tlock);
	if (n)
		qsort(list, n, sizeof(*list), by_ino);
	for (size_t s = 0; s < n; s += FLUSH_BATCH) {
		size_t e = s + FLUSH_BATCH < n ? s + FLUSH_BATCH : n;
		kv_batch *b = v->opts.readonly ? NULL : kv_batch_new();
		int r = b ? 0 : -ENOMEM;

		for (size_t i = s; i < e; i++) {
			pthread_mutex_lock(&list[i]->m);
			if (b && list[i]->dirty && list[i]->rec.nlink > 0)
				mds_put_inode(b, &list[i]->rec);
		}
		if (b && kv_batch_count(b))
			r = kv_batch_commit(v->db, b, 0);
		for (size_t i = s; i < e; i++) {
			if (r == 0 && b) {
				if (list[i]->dirty)
					list[i]->dsize = list[i]->rec.size;
				list[i]->dirty = 0;
			}
			pthread_mutex_unlock(&list[i]->m);
		}
		kv_batch_free(b);
		if (r && !rc)
			rc = r;
	}
	for (size_t i = 0; i < n; i++)
		vn_put(v, list[i]);
	free(list);
	{
		int r = vn_flush_purged(v);

		if (r && !rc)
			rc = r;
	}
	if (sync && !v->opts.readonly) {
		int r = kv_sync(v->db);

		if (r && !rc)
			rc = r;
	}
	return rc;
}

void itab_counts(vfs *v, uint64_t *cached, uint64_t *lookups)
{
	uint64_t l = 0;

	pthread_mutex_lock(&v->tlock);
	for (size_t i = 0; i < v->nbuckets; i++)
		for (struct vnode *vn = v->tab[i]; vn; vn = vn->hnext)
			l += vn->nlookup;
	if (cached)
		*cached = v->count;
	if (lookups)
		*lookups = l;
	pthread_mutex_unlock(&v->tlock);
}

void itab_destroy(vfs *v)
{
	if (!v->tab)
		return;
	/* The mount is gone: the kernel's references are gone with it. */
	for (size_t i = 0; i < v->nbuckets; i++) {
		struct vnode *vn = v->tab[i], *next;

		for (; vn; vn = next) {
			next = vn->hnext;
			if (vn->rec.nlink == 0) {
				vn_purge_rec(v, &vn->rec, 0);
				vn_free(vn);
				continue;
			}
			if (!vn->stale_to && !v->opts.readonly &&
			    (vn->rec.wr_first || vn->rec.max_size)) {
				/* the mount is over: no write in flight */
				vn->rec.wr_first = vn->rec.max_size = 0;
				vn->dirty = 1;
			}
			if (vn->dirty && !v->opts.readonly) {
				int rc = vn_persist_locked(v, vn, 0);

				if (rc)
					cfs_log(CFS_LOG_ERR,
						"inode %llx: writing back its "
						"record: %s",
						(unsigned long long)vn->ino,
						cfs_strerror(rc));
			}
			vn_free(vn);
		}
	}
	vn_flush_purged(v);
	free(v->tab);
	v->tab = NULL;
	v->count = 0;
	pthread_mutex_destroy(&v->tlock);
	pthread_mutex_destroy(&v->plock);
	pthread_mutex_destroy(&v->pflock);
	pthread_mutex_destroy(&v->rlock);
}
