/*
 * wrange.c - the writeable range of regular files, after CephFS (Ceph
 * v16.2 src/mds/Locker.cc check_inode_max_size / calc_new_max_size,
 * RecoveryQueue.cc, src/osdc/Filer.cc probe).
 *
 * The data path writes objects at once but the size reaches the store
 * lazily (vfs.c).  Without more, a crash leaves objects holding bytes past
 * the recorded size, and a later truncate-up or seek-write would expose
 * them as file data.  CephFS solves this with max_size: a client may
 * write only below the max_size the MDS granted and journaled, and when a
 * client dies the MDS "recovers" the file: it probes the objects up to
 * max_size and adopts the real end as the size.  crushfs does the same:
 *
 *  - Each inode record carries a writeable range [wr_first, max_size).
 *    Invariant of the store: objects hold bytes only below the recorded
 *    size or inside that range.  A write that would put bytes elsewhere
 *    first commits a new range (wr_prepare), together with the size of
 *    everything written so far; the range grows in steps
 *    (wr_new_max_size), so one commit serves many writes.
 *    wr_first is CephFS's range.first, which is always 0 there; here it
 *    is the first object set the write touches at or past the size, so
 *    that a write far past the end (a sparse file) leaves a range of a
 *    few objects to probe, not the whole hole.
 *  - Loading an inode whose range reaches past its size probes the
 *    objects of [max(size, wr_first), max_size) backwards, takes the end
 *    of the data found as the size (CephFS's choice: the bytes were
 *    written, so they are kept, as "file recovery" keeps them), and
 *    closes the range (wr_recover).
 *    A file created to be opened starts with one object set of range,
 *    committed with its creation (Server::handle_client_openc), so small
 *    files cost no commit of their own.
 *  - The last writer's release closes the range; so does the unmount's
 *    write-back.  A clean unmount leaves nothing to probe.
 *
 * In memory the stronger invariant holds: no object holds bytes past the
 * in-memory size (vn->rec.size) once no write is in flight, preallocated
 * zeros aside (vfs_falloc.c).  Growing a file (truncate-up) also cuts
 * whatever objects hold past the old end (ol_truncate walks the objects
 * the index knows), so stale bytes left by anything else cannot come back
 * either.
 *
 * Preallocation (fallocate with KEEP_SIZE) leaves objects holding zeros
 * past the size, up to the preallocated end: there an object's size
 * cannot tell written bytes from preallocated ones.  When the data found
 * ends inside the preallocation, recovery keeps the recorded size and
 * drops the preallocation past it instead (objects cut, then the record),
 * since a later truncate-up keeps preallocated bytes and must not find
 * unsynced writes there.  Data found past the preallocated end is
 * adopted as usual.
 *
 * Durability: ranges are committed to RocksDB's WAL without fsync, like
 * every other metadata change of the data path; they survive a kill of
 * the daemon.  An operating-system crash can lose them (as it loses the
 * unsynced size); the truncate-up cut still keeps such bytes from showing
 * in a grown range.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>

#include "util.h"
#include "wrange_i.h"

/* ---- striping helpers ---- */

/* Bytes of file per object set (Ceph's layout period,
 * get_layout_size_increment()). */
static uint64_t period(const struct ol_layout *l)
{
	return (uint64_t)l->object_size * l->stripe_count;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t round_up(uint64_t x, uint64_t to)
{
	uint64_t r = x % to;

	return r ? sat_add(x, to - r) : x;
}

/* The file offset just after byte obj_size - 1 of object objectno
 * (Striper::extent_to_file, for the last byte).  obj_size > 0. */
static uint64_t object_end_in_file(const struct ol_layout *l,
				   uint64_t objectno, uint64_t obj_size)
{
	uint64_t sc = l->stripe_count;
	uint64_t su = sc == 1 ? l->object_size : l->stripe_unit;
	uint64_t spo = l->object_size / su;
	uint64_t last = obj_size - 1;
	uint64_t stripeno = (objectno / sc) * spo + last / su;
	uint64_t blockno = stripeno * sc + objectno % sc;

	return blockno * su + last % su + 1;
}

/* ---- pure ---- */

uint64_t wr_new_max_size(const struct ol_layout *l, uint64_t end)
{
	uint64_t max_inc = (uint64_t)WR_MAX_INC_OBJSETS * period(l);
	/* (end + 1) * 2, but at most end + max_inc */
	uint64_t inc = sat_add(end, 2);

	if (inc > max_inc)
		inc = max_inc;
	return round_up(sat_add(end, inc), period(l));
}

int wr_probe(const struct ol_layout *l, uint64_t from, uint64_t to,
	     wr_stat_fn st, void *ctx, uint64_t *end, struct timespec *mtime)
{
	uint64_t p = period(l), sc = l->stripe_count;

	*end = 0;
	memset(mtime, 0, sizeof(*mtime));
	if (!ol_layout_valid(l))
		return -EINVAL;
	if (from >= to)
		return 0;
	for (uint64_t set = (to - 1) / p + 1; set-- > from / p;) {
		int found = 0;

		for (uint64_t i = 0; i < sc; i++) {
			uint64_t o = set * sc + i, size = 0, e;
			struct timespec mt = { 0, 0 };
			int rc = st(ctx, o, &size, &mt);

			if (rc == -ENOENT)
				continue;
			if (rc)
				return rc;
			if (size == 0)
				continue;
			/* an object never holds more than object_size */
			if (size > l->object_size)
				size = l->object_size;
			e = object_end_in_file(l, o, size);
			if (e > *end)
				*end = e;
			if (mt.tv_sec > mtime->tv_sec ||
			    (mt.tv_sec == mtime->tv_sec &&
			     mt.tv_nsec > mtime->tv_nsec))
				*mtime = mt;
			found = 1;
		}
		if (found)
			break;
	}
	return 0;
}

int wr_unrecorded(const struct mds_inode *rec, uint64_t *from, uint64_t *to)
{
	uint64_t f = rec->wr_first > rec->size ? rec->wr_first : rec->size;

	if (!S_ISREG(rec->mode) || rec->max_size <= f)
		return 0;
	*from = f;
	*to = rec->max_size;
	return 1;
}

/* ---- live inodes ---- */

struct stat_ctx {
	vfs *v;
	uint64_t ino;
	const struct ol_layout *l;
};

static int stat_obj(void *arg, uint64_t objectno, uint64_t *size,
		    struct timespec *mtime)
{
	struct stat_ctx *c = arg;

	return c->v->d->obj_stat(c->v->dctx, c->ino, c->l, objectno, size,
				 mtime);
}

static int ts_lt(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec ||
	       (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

int wr_recover(vfs *v, struct mds_inode *rec, uint64_t *stale_to)
{
	struct mds_inode r = *rec;
	struct stat_ctx c = { v, rec->ino, &r.layout };
	struct timespec mt;
	uint64_t from, to, end, pend;
	kv_batch *b;
	int rc, drop = 0;

	*stale_to = 0;
	if (!wr_unrecorded(rec, &from, &to))
		return 0;
	/* Tools reading the metadata alone cannot look at objects. */
	if (!v->d || !v->d->obj_stat)
		return 0;
	rc = wr_probe(&r.layout, from, to, stat_obj, &c, &end, &mt);
	if (rc) {
		cfs_log(CFS_LOG_ERR,
			"inode %llx: probing its objects past byte %llu "
			"after a crash: %s; the bytes there are cleared "
			"before the file grows over them",
			(unsigned long long)r.ino, (unsigned long long)from,
			cfs_strerror(rc));
		*stale_to = to;
		return 0;
	}
	pend = (r.flags & MDS_F_PREALLOC) ? vn_data_end(v, &r) : r.size;
	if (end > r.size && end <= pend) {
		/* inside the preallocation: written or preallocated bytes
		 * cannot be told apart.  Keep the size, drop what lies past
		 * it (a truncate-up keeps preallocated bytes). */
		if (!v->opts.readonly) {
			uint64_t reach = pend > to ? pend : to;

			rc = v->d->truncate(v->dctx, r.ino, &r.layout, reach,
					    r.size);
			if (rc) {
				cfs_log(CFS_LOG_ERR,
					"inode %llx: cutting its objects past "
					"byte %llu after a crash: %s",
					(unsigned long long)r.ino,
					(unsigned long long)r.size,
					cfs_strerror(rc));
				*stale_to = reach;
				return 0;
			}
			cfs_log(CFS_LOG_INFO,
				"inode %llx: preallocation past byte %llu "
				"dropped after a crash (unsynced writes into "
				"it cannot be told from its zeros)",
				(unsigned long long)r.ino,
				(unsigned long long)r.size);
			drop = 1;
		}
		end = r.size;
	}
	if (end > r.size) {
		cfs_log(CFS_LOG_INFO,
			"inode %llx: size %llu recovered from its objects "
			"(%llu recorded before a crash)",
			(unsigned long long)r.ino, (unsigned long long)end,
			(unsigned long long)r.size);
		r.size = end;
		/* RecoveryQueue::_recovered: the newest object mtime */
		if (ts_lt(&r.mtime, &mt))
			r.mtime = mt;
		if (ts_lt(&r.ctime, &r.mtime))
			r.ctime = r.mtime;
	}
	r.wr_first = r.max_size = 0;
	if (v->opts.readonly) {
		/* seen as recovered, left for a writable mount to commit */
		*rec = r;
		return 0;
	}
	b = kv_batch_new();
	if (!b)
		return -ENOMEM;
	if (drop) {
		r.flags &= ~MDS_F_PREALLOC;
		mds_del_prealloc(b, r.ino);
	}
	mds_put_inode(b, &r);
	rc = kv_batch_commit(v->db, b, 0);
	kv_batch_free(b);
	if (rc) {
		cfs_log(CFS_LOG_ERR, "inode %llx: committing its recovered "
			"size: %s", (unsigned long long)r.ino,
			cfs_strerror(rc));
		return rc;
	}
	*rec = r;
	return 0;
}

/* The committed state allows bytes in [off, end) (vn->m held): below the
 * committed size, or inside the committed range. */
static int covered(const struct vnode *vn, uint64_t off, uint64_t end)
{
	uint64_t lo = off > vn->dsize ? off : vn->dsize;

	if (end <= vn->dsize)
		return 1;
	return lo >= vn->rec.wr_first && end <= vn->rec.max_size;
}

/* Stale bytes that a write ending at `end` would bring inside the file
 * (vn->m held): only after a failed probe. */
static int stale_exposed(const struct vnode *vn, uint64_t end)
{
	return vn->stale_to > vn->rec.size && end > vn->rec.size;
}

/* Clear [rec.size, bound) of the objects (vn->io exclusive). */
static int clear_to(vfs *v, struct vnode *vn, uint64_t bound)
{
	uint64_t size;
	int rc;

	pthread_mutex_lock(&vn->m);
	size = vn->rec.size;
	pthread_mutex_unlock(&vn->m);
	if (bound <= size)
		return 0;
	rc = v->d->truncate(v->dctx, vn->ino, &vn->rec.layout, bound, size);
	if (rc == 0) {
		pthread_mutex_lock(&vn->m);
		if (vn->stale_to <= bound)
			vn->stale_to = 0;
		pthread_mutex_unlock(&vn->m);
	}
	return rc;
}

/* Commit a writeable range that covers [off, end) (vn->io exclusive, so
 * every write done so far is inside the in-memory size, which is
 * committed with it). */
static int grant(vfs *v, struct vnode *vn, uint64_t off, uint64_t end)
{
	struct mds_inode r;
	uint64_t p = period(&vn->rec.layout), first;
	kv_batch *b = kv_batch_new();
	int rc;

	if (!b)
		return -ENOMEM;
	pthread_mutex_lock(&vn->m);
	r = vn->rec;
	first = off - off % p;
	r.wr_first = first > r.size ? first : r.size;
	r.max_size = wr_new_max_size(&r.layout, end);
	mds_put_inode(b, &r);
	rc = kv_batch_commit(v->db, b, 0);
	if (rc == 0) {
		vn->rec = r;
		vn->dirty = 0;
		vn->dsize = r.size;
	} else {
		cfs_log(CFS_LOG_ERR, "inode %llx: committing max_size %llu: "
			"%s", (unsigned long long)r.ino,
			(unsigned long long)r.max_size, cfs_strerror(rc));
	}
	pthread_mutex_unlock(&vn->m);
	kv_batch_free(b);
	return rc;
}

int wr_prepare(vfs *v, struct vnode *vn, uint64_t off, uint64_t end,
	       int *excl)
{
	uint64_t stale = 0;
	int ok, rc = 0;

	pthread_mutex_lock(&vn->m);
	ok = covered(vn, off, end) && !stale_exposed(vn, end);
	pthread_mutex_unlock(&vn->m);
	if (ok)
		return 0;
	if (!*excl) {
		/* No upgrade of a rwlock: let go, wait for the writes in
		 * flight, and look again. */
		pthread_rwlock_unlock(&vn->io);
		pthread_rwlock_wrlock(&vn->io);
		*excl = 1;
	}
	pthread_mutex_lock(&vn->m);
	if (stale_exposed(vn, end))
		stale = vn->stale_to;
	ok = covered(vn, off, end);
	pthread_mutex_unlock(&vn->m);
	if (stale)
		rc = clear_to(v, vn, stale);
	if (rc == 0 && !ok)
		rc = grant(v, vn, off, end);
	return rc;
}

void wr_open(struct vnode *vn)
{
	pthread_mutex_lock(&vn->m);
	vn->nwriters++;
	pthread_mutex_unlock(&vn->m);
}

void wr_release(vfs *v, struct vnode *vn)
{
	(void)v;
	/* exclusive: no write of this inode is in flight, so everything
	 * written is inside the in-memory size */
	pthread_rwlock_wrlock(&vn->io);
	pthread_mutex_lock(&vn->m);
	if (vn->nwriters > 0 && --vn->nwriters == 0 && !vn->stale_to &&
	    (vn->rec.wr_first || vn->rec.max_size)) {
		vn->rec.wr_first = vn->rec.max_size = 0;
		vn->dirty = 1;
	}
	pthread_mutex_unlock(&vn->m);
	pthread_rwlock_unlock(&vn->io);
}
