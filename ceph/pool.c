/*
 * pool.c - one pool's objects through librados: the RADOS backend's
 * object I/O on one I/O context (librados is thread safe; many FUSE
 * threads call at once): synchronous calls, and asynchronous writes for
 * the backend's write-back (objlayer/rados_wb.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ceph_i.h"

struct ceph_pool {
	rados_ioctx_t io;
	int64_t id;
};

int ceph_pool_open(ceph_conn *c, const char *pool, ceph_pool **out,
		   char *err, size_t errlen)
{
	ceph_pool *p = calloc(1, sizeof(*p));
	int r;

	if (!p)
		return -ENOMEM;
	r = ceph_rados.ioctx_create(ceph_conn_rados(c), pool, &p->io);
	if (r) {
		snprintf(err, errlen, "pool '%s': %s", pool,
			 r == -ENOENT ? "no such pool in the cluster"
				      : strerror(-r));
		free(p);
		return r;
	}
	/* ENOSPC/EDQUOT to the writer of a full pool, never a hang */
	ceph_rados.set_pool_full_try(p->io);
	p->id = ceph_rados.ioctx_get_id(p->io);
	*out = p;
	return 0;
}

void ceph_pool_close(ceph_pool *p)
{
	if (!p)
		return;
	ceph_rados.ioctx_destroy(p->io);
	free(p);
}

int64_t ceph_pool_id(const ceph_pool *p)
{
	return p ? p->id : -1;
}

int ceph_obj_write(ceph_pool *p, const char *name, uint64_t off,
		   const void *buf, size_t len)
{
	return ceph_rados.write(p->io, name, buf, len, off);
}

int ceph_obj_write_full(ceph_pool *p, const char *name, const void *buf,
			size_t len)
{
	return ceph_rados.write_full(p->io, name, buf, len);
}

struct aio_op {
	void (*done)(void *arg, int r);
	void *arg;
};

/* librados' finisher thread: the completion is released here (its
 * finisher holds its own reference while the callback runs) */
static void aio_done(rados_completion_t comp, void *arg)
{
	struct aio_op *op = arg;
	int r = ceph_rados.aio_get_return_value(comp);

	ceph_rados.aio_release(comp);
	op->done(op->arg, r > 0 ? 0 : r);
	free(op);
}

static int aio_start(void (*done)(void *arg, int r), void *arg,
		     struct aio_op **op, rados_completion_t *comp)
{
	int r;

	*op = malloc(sizeof(**op));
	if (!*op)
		return -ENOMEM;
	(*op)->done = done;
	(*op)->arg = arg;
	r = ceph_rados.aio_create_completion2(*op, aio_done, comp);
	if (r)
		free(*op);
	return r;
}

static int aio_submitted(int r, struct aio_op *op, rados_completion_t comp)
{
	if (r) {
		ceph_rados.aio_release(comp);
		free(op);
	}
	return r;
}

int ceph_obj_aio_write(ceph_pool *p, const char *name, uint64_t off,
		       const void *buf, size_t len, int full,
		       void (*done)(void *arg, int r), void *arg)
{
	struct aio_op *op;
	rados_completion_t comp;
	int r = aio_start(done, arg, &op, &comp);

	if (r)
		return r;
	/* librados copies buf into its own buffer before returning */
	r = full ? ceph_rados.aio_write_full(p->io, name, comp, buf, len)
		 : ceph_rados.aio_write(p->io, name, comp, buf, len, off);
	return aio_submitted(r, op, comp);
}

int ceph_obj_aio_remove(ceph_pool *p, const char *name,
			void (*done)(void *arg, int r), void *arg)
{
	struct aio_op *op;
	rados_completion_t comp;
	int r = aio_start(done, arg, &op, &comp);

	if (r)
		return r;
	return aio_submitted(ceph_rados.aio_remove(p->io, name, comp), op,
			     comp);
}

ssize_t ceph_obj_read(ceph_pool *p, const char *name, uint64_t off, void *buf,
		      size_t len)
{
	size_t done = 0;

	/* librados reads at most INT_MAX bytes a call */
	while (done < len) {
		size_t n = len - done > (1u << 30) ? (1u << 30) : len - done;
		int r = ceph_rados.read(p->io, name, (char *)buf + done, n,
					off + done);

		if (r < 0)
			return r;
		done += (size_t)r;
		if ((size_t)r < n)
			break;
	}
	return (ssize_t)done;
}

int ceph_obj_stat(ceph_pool *p, const char *name, uint64_t *size,
		  struct timespec *mtime)
{
	time_t t = 0;
	uint64_t s = 0;
	int r = ceph_rados.stat(p->io, name, &s, &t);

	if (r)
		return r;
	if (size)
		*size = s;
	if (mtime) {
		mtime->tv_sec = t;
		mtime->tv_nsec = 0;
	}
	return 0;
}

int ceph_obj_truncate(ceph_pool *p, const char *name, uint64_t size)
{
	return ceph_rados.trunc(p->io, name, size);
}

int ceph_obj_remove(ceph_pool *p, const char *name)
{
	return ceph_rados.remove(p->io, name);
}

int ceph_obj_setxattr(ceph_pool *p, const char *name, const char *key,
		      const void *val, size_t len)
{
	return ceph_rados.setxattr(p->io, name, key, val, len);
}

int ceph_obj_getxattr(ceph_pool *p, const char *name, const char *key,
		      void **val, size_t *len)
{
	size_t cap = 4096;

	for (;;) {
		char *b = malloc(cap + 1);
		int r;

		if (!b)
			return -ENOMEM;
		r = ceph_rados.getxattr(p->io, name, key, b, cap);
		if (r == -ERANGE && cap < (64u << 20)) {
			free(b);
			cap *= 16;
			continue;
		}
		if (r < 0) {
			free(b);
			return r;
		}
		b[r] = 0;
		*val = b;
		*len = (size_t)r;
		return 0;
	}
}

int ceph_obj_rmxattr(ceph_pool *p, const char *name, const char *key)
{
	return ceph_rados.rmxattr(p->io, name, key);
}

int ceph_obj_list(ceph_pool *p, int (*fn)(const char *name, void *arg),
		  void *arg)
{
	rados_list_ctx_t ctx;
	const char *entry;
	int r = ceph_rados.nobjects_list_open(p->io, &ctx);

	if (r)
		return r;
	while (!(r = ceph_rados.nobjects_list_next(ctx, &entry, NULL, NULL))) {
		r = fn(entry, arg);
		if (r)
			break;
	}
	ceph_rados.nobjects_list_close(ctx);
	return r == -ENOENT ? 0 : r;
}
