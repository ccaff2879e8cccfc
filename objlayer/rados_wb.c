/*
 * rados_wb.c - the RADOS backend's write-back: a file's data writes are
 * acknowledged to the writer once submitted to librados (aio), as
 * ceph-fuse's ObjectCacher acknowledges them once buffered, so that one
 * writer keeps many writes in flight instead of waiting a round trip to
 * three OSDs per FUSE write.  What stays true:
 *
 * - order: operations on one object from one client are applied in the
 *   order submitted (RADOS), and every synchronous one (read, stat,
 *   truncate, xattrs) waits for the object's asynchronous ones first;
 * - durability: fsync waits for the inode's writes (RADOS acknowledges
 *   a write once every replica has it); close does not wait but returns
 *   an error already known, as ceph-fuse's flush (Client::_flush takes
 *   the file's async_err) - so a file's last writes are reported by
 *   fsync, not by close;
 * - the object index follows what RADOS acknowledged (sizes updated in
 *   the completion, before the operation counts as done), never what
 *   was only asked: bytes the index counts are bytes the pool has, so a
 *   missing object with bytes is a loss (EIO); a new object enters the
 *   index with size 0 before its first write goes out, so a daemon
 *   killed meanwhile leaves no object unknown (RocksDB's log outlives
 *   the process; fsync makes it durable);
 * - errors: a write that fails (ENOSPC, EDQUOT, EIO) is kept against its
 *   inode and returned by the inode's next write, close or fsync;
 * - removes: a purged file's objects go asynchronously too; the purge
 *   keeps the inode's orphan mark until they are acknowledged
 *   (ol_removed), so a crash or a failed remove leaves nothing unknown;
 * - memory: at most WB_MAX_BYTES / WB_MAX_OPS in flight (librados holds
 *   a copy of each); a writer past that waits for completions.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ceph.h"
#include "objindex.h"
#include "objlayer_i.h"
#include "util.h"

#define WB_BUCKETS 1024
#define WB_MAX_BYTES (64u << 20)
#define WB_MAX_OPS 256

/* An object with writes in flight or a failed write not yet reported. */
struct wb_obj {
	struct wb_obj *next;
	pthread_mutex_t ilock; /* its index entry's updates */
	uint64_t ino;
	unsigned inflight;
	int err;
	int rm; /* err came from a remove */
	char name[];
};

struct ol_rados_wb {
	objlayer *ol;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct wb_obj *b[WB_BUCKETS];
	uint64_t bytes;
	unsigned ops, nerr;
};

struct wb_op {
	struct ol_rados_wb *wb;
	struct wb_obj *o;
	uint64_t off;
	size_t len;
	int remove;
};

static unsigned bucket(const char *name)
{
	return cfs_fnv1a(name, strlen(name)) % WB_BUCKETS;
}

static struct wb_obj **find(struct ol_rados_wb *wb, const char *name)
{
	struct wb_obj **p = &wb->b[bucket(name)];

	while (*p && strcmp((*p)->name, name))
		p = &(*p)->next;
	return p;
}

/* a file object's inode (`%llx.%08llx`); others (rados put, directory
 * backtraces) are written synchronously and never get here */
static uint64_t ino_of(const char *name)
{
	return strtoull(name, NULL, 16);
}

struct ol_rados_wb *rb_wb_new(objlayer *ol)
{
	struct ol_rados_wb *wb = calloc(1, sizeof(*wb));

	if (!wb)
		return NULL;
	wb->ol = ol;
	pthread_mutex_init(&wb->lock, NULL);
	pthread_cond_init(&wb->cond, NULL);
	return wb;
}

/* Wait for every write, log what nobody was told (a daemon killed
 * between a failed write and the file's close), free. */
void rb_wb_free(struct ol_rados_wb *wb)
{
	if (!wb)
		return;
	pthread_mutex_lock(&wb->lock);
	while (wb->ops)
		pthread_cond_wait(&wb->cond, &wb->lock);
	for (unsigned i = 0; i < WB_BUCKETS; i++)
		while (wb->b[i]) {
			struct wb_obj *o = wb->b[i];

			cfs_log(CFS_LOG_ERR, "rados write to '%s' failed and "
				"was never reported to a writer: %s", o->name,
				cfs_strerror(o->err));
			wb->b[i] = o->next;
			pthread_mutex_destroy(&o->ilock);
			free(o);
		}
	pthread_mutex_unlock(&wb->lock);
	pthread_mutex_destroy(&wb->lock);
	pthread_cond_destroy(&wb->cond);
	free(wb);
}

static void unlink_obj(struct ol_rados_wb *wb, struct wb_obj *o)
{
	struct wb_obj **p = find(wb, o->name);

	if (*p == o)
		*p = o->next;
	pthread_mutex_destroy(&o->ilock);
	free(o);
}

/* The index entry as RADOS now has the object.  Only completions touch
 * an object's entry while it has operations in flight (the synchronous
 * ones wait first), and each holds the object's entry lock. */
static int index_update(struct ol_rados_wb *wb, const struct wb_op *op)
{
	cfs_cluster *c = wb->ol->c;
	struct cfs_objinfo oi = { 0, 0 };
	int exists;

	if (op->remove)
		return cfs_index_set(c, wb->ol->pool, op->o->name, NULL);
	exists = !cfs_index_get(c, wb->ol->pool, op->o->name, &oi);
	if (exists && oi.size >= op->off + op->len)
		return 0; /* an overwrite: nothing to record */
	return rb_index_size(wb->ol, op->o->name, exists, oi.size,
			     op->off + op->len);
}

static void op_done(void *arg, int r)
{
	struct wb_op *op = arg;
	struct ol_rados_wb *wb = op->wb;
	struct wb_obj *o = op->o;

	if (op->remove && r == -ENOENT)
		r = 0;
	if (!r) {
		pthread_mutex_lock(&o->ilock);
		r = index_update(wb, op);
		pthread_mutex_unlock(&o->ilock);
		if (r)
			cfs_log(CFS_LOG_ERR, "'%s': recording it in the object "
				"index: %s", o->name, cfs_strerror(r));
	}
	pthread_mutex_lock(&wb->lock);
	wb->bytes -= op->len;
	wb->ops--;
	o->inflight--;
	if (r && !o->err) {
		o->err = r;
		o->rm = op->remove;
		wb->nerr++;
		/* a full pool is the cluster's state, not a fault here */
		cfs_log(r == -ENOSPC || r == -EDQUOT ? CFS_LOG_WARN
						     : CFS_LOG_ERR,
			"rados %s of '%s': %s (reported at the file's next "
			"write, close or fsync)", op->remove ? "remove" : "write",
			o->name, strerror(-r));
	}
	if (!o->inflight && !o->err)
		unlink_obj(wb, o);
	pthread_cond_broadcast(&wb->cond);
	pthread_mutex_unlock(&wb->lock);
	free(op);
}

/* The first unreported error of ino's objects from a write (rm 0) or a
 * remove (rm 1), 0 if none; with take, reported: those entries go once
 * nothing is in flight for them (with rm, the write errors too: a purged
 * file's writes concern nobody).  wb->lock held. */
static int inode_error(struct ol_rados_wb *wb, uint64_t ino, int take,
		       int rm)
{
	int err = 0;

	if (!wb->nerr)
		return 0;
	for (unsigned i = 0; i < WB_BUCKETS; i++)
		for (struct wb_obj **p = &wb->b[i]; *p;) {
			struct wb_obj *o = *p;

			if (o->ino != ino || !o->err || (!rm && o->rm)) {
				p = &o->next;
				continue;
			}
			if (!err && o->rm == rm)
				err = o->err;
			if (!take || o->inflight) {
				p = &o->next;
				continue;
			}
			wb->nerr--;
			*p = o->next;
			pthread_mutex_destroy(&o->ilock);
			free(o);
		}
	return err;
}

/* Submit one write (buf) or remove (!buf) of name. */
static int submit(struct ol_rados_wb *wb, ceph_pool *pool, const char *name,
		  uint64_t off, const void *buf, size_t len, int full)
{
	uint64_t ino = ino_of(name);
	struct wb_obj **p, *o;
	struct wb_op *op;
	int r;

	pthread_mutex_lock(&wb->lock);
	/* a failure not yet reported ends the writer's run here */
	r = buf ? inode_error(wb, ino, 0, 0) : 0;
	while (!r && wb->ops &&
	       (wb->bytes + len > WB_MAX_BYTES || wb->ops >= WB_MAX_OPS)) {
		pthread_cond_wait(&wb->cond, &wb->lock);
		r = buf ? inode_error(wb, ino, 0, 0) : 0;
	}
	if (r) {
		pthread_mutex_unlock(&wb->lock);
		return r;
	}
	p = find(wb, name);
	o = *p;
	if (!o) {
		size_t nl = strlen(name) + 1;

		o = calloc(1, sizeof(*o) + nl);
		if (!o) {
			pthread_mutex_unlock(&wb->lock);
			return -ENOMEM;
		}
		memcpy(o->name, name, nl);
		pthread_mutex_init(&o->ilock, NULL);
		o->ino = ino;
		*p = o;
	}
	op = malloc(sizeof(*op));
	if (!op) {
		if (!o->inflight && !o->err)
			unlink_obj(wb, o);
		pthread_mutex_unlock(&wb->lock);
		return -ENOMEM;
	}
	*op = (struct wb_op){ wb, o, off, len, !buf };
	o->inflight++;
	wb->ops++;
	wb->bytes += len;
	pthread_mutex_unlock(&wb->lock);
	r = buf ? ceph_obj_aio_write(pool, name, off, buf, len, full, op_done,
				     op)
		: ceph_obj_aio_remove(pool, name, op_done, op);
	if (r) {
		pthread_mutex_lock(&wb->lock);
		wb->ops--;
		wb->bytes -= len;
		if (!--o->inflight && !o->err)
			unlink_obj(wb, o);
		pthread_cond_broadcast(&wb->cond);
		pthread_mutex_unlock(&wb->lock);
		free(op);
	}
	return r;
}

int rb_wb_write(struct ol_rados_wb *wb, ceph_pool *pool, const char *name,
		uint64_t off, const void *buf, size_t len, int full)
{
	return submit(wb, pool, name, off, buf ? buf : "", len, full);
}

int rb_wb_remove(struct ol_rados_wb *wb, ceph_pool *pool, const char *name)
{
	return submit(wb, pool, name, 0, NULL, 0, 0);
}

void rb_wb_wait_object(struct ol_rados_wb *wb, const char *name)
{
	struct wb_obj *o;

	pthread_mutex_lock(&wb->lock);
	while ((o = *find(wb, name)) && o->inflight)
		pthread_cond_wait(&wb->cond, &wb->lock);
	pthread_mutex_unlock(&wb->lock);
}

/* Until ino has nothing in flight.  wb->lock held. */
static void wait_inode(struct ol_rados_wb *wb, uint64_t ino)
{
	int busy;

	do {
		busy = 0;
		for (unsigned i = 0; i < WB_BUCKETS && !busy; i++)
			for (struct wb_obj *o = wb->b[i]; o && !busy;
			     o = o->next)
				busy = o->ino == ino && o->inflight;
		if (busy)
			pthread_cond_wait(&wb->cond, &wb->lock);
	} while (busy);
}

int rb_wb_flush_inode(struct ol_rados_wb *wb, uint64_t ino, int wait,
		      int removed)
{
	int err;

	pthread_mutex_lock(&wb->lock);
	if (wait || removed)
		wait_inode(wb, ino);
	err = inode_error(wb, ino, 1, removed);
	pthread_mutex_unlock(&wb->lock);
	return err;
}

void rb_wb_wait_inode(struct ol_rados_wb *wb, uint64_t ino)
{
	pthread_mutex_lock(&wb->lock);
	wait_inode(wb, ino);
	pthread_mutex_unlock(&wb->lock);
}
