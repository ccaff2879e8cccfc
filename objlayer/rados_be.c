/*
 * rados_be.c - the RADOS backend: a cluster whose DIR/backend.json says
 * {"backend": "rados", "conf": FILE, "pool": NAME, "id": CLIENT} keeps its
 * objects in that pool of a live Ceph cluster (librados, through ceph/)
 * instead of OSD folders.  Everything above the object operations is
 * objlayer's as for the simulated store: striping, the object index (so a
 * file's objects are known without listing the pool: one mounted client,
 * crushfs's, writes them), attributes.  Replication, checksums, scrub and
 * recovery are the cluster's own.  The local osdmap follows the live one
 * (cfs_import_refresh): at open, and in a mounted daemon whenever the
 * cluster's epoch moves (polled every 2 s), so locate and osd map show
 * where Ceph really put each object.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "ceph.h"
#include "cluster.h"
#include "objindex.h"
#include "objlayer_i.h"
#include "osdmap.h"
#include "util.h"

struct ol_rados {
	ceph_conn *conn;
	ceph_pool *pool;
	struct ol_rados_wb *wb;
	pthread_t poller;
	int polling;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int stop;
	/* objects and bytes per PG of the data pool (rb_pg_stat) */
	uint64_t *counts_objects, *counts_bytes;
	uint32_t counts_pg_num;
	time_t counts_time;
};

struct follow {
	const char *snapdir;
	int *changed;
	char *err;
	size_t errlen;
};

static int follow_pg_num(cfs_cluster *c, void *arg)
{
	struct follow *f = arg;

	return cfs_import_refresh(c, f->snapdir, 1, f->changed, f->err,
				  f->errlen);
}

/* Take a snapshot of the live cluster and follow it. */
static int refresh(objlayer *ol, char *err, size_t errlen)
{
	char tmp[] = "/tmp/crushfs-refresh.XXXXXX";
	int changed = 0, r;

	if (!mkdtemp(tmp)) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		return -errno;
	}
	r = ceph_snapshot(ol->rb->conn, tmp, err, errlen);
	if (!r)
		r = cfs_import_refresh(ol->c, tmp, 0, &changed, err, errlen);
	if (r == -EAGAIN) {
		/* the data pool's pg_num moved: again, PG I/O held off */
		struct follow f = { tmp, &changed, err, errlen };

		r = ol_relayout(ol, follow_pg_num, &f);
	}
	cfs_rmtree(tmp);
	if (!r && changed) {
		const cfs_osdmap *m = cfs_osdmap_get(ol->c);

		cfs_log(CFS_LOG_INFO, "following the live cluster's osdmap, "
			"epoch %u", cfs_osdmap_epoch(m));
		cfs_osdmap_put(m);
	}
	return r;
}

static uint32_t live_epoch(objlayer *ol)
{
	char *out = NULL, err[256];
	size_t len;
	json_t *j;
	uint32_t e = 0;

	if (ceph_command(ol->rb->conn, 0,
			 "{\"prefix\": \"osd dump\", \"format\": \"json\"}",
			 &out, &len, err, sizeof(err)))
		return 0;
	j = json_loadb(out, len, 0, NULL);
	e = (uint32_t)json_integer_value(json_object_get(j, "epoch"));
	json_decref(j);
	free(out);
	return e;
}

static void *poll_epochs(void *arg)
{
	objlayer *ol = arg;
	struct ol_rados *rb = ol->rb;

	pthread_mutex_lock(&rb->lock);
	while (!rb->stop) {
		struct timespec t;
		const cfs_osdmap *m;
		uint32_t mine, live;

		clock_gettime(CLOCK_REALTIME, &t);
		t.tv_sec += 2;
		pthread_cond_timedwait(&rb->cond, &rb->lock, &t);
		if (rb->stop)
			break;
		pthread_mutex_unlock(&rb->lock);
		m = cfs_osdmap_get(ol->c);
		mine = cfs_osdmap_epoch(m);
		cfs_osdmap_put(m);
		live = live_epoch(ol);
		if (live && live != mine) {
			char err[512] = "";

			if (refresh(ol, err, sizeof(err)))
				cfs_log(CFS_LOG_WARN, "cannot follow the live "
					"cluster's osdmap e%u: %s", live, err);
		}
		pthread_mutex_lock(&rb->lock);
	}
	pthread_mutex_unlock(&rb->lock);
	return NULL;
}

int ol_rados_open(objlayer *ol)
{
	char path[4096], *text = NULL, err[512] = "";
	const char *conf, *pool, *id, *kind;
	struct ol_rados *rb;
	json_error_t je;
	json_t *j;
	size_t len;
	int r;

	if (cfs_pathf(path, sizeof(path), "%s/backend.json",
		      cfs_cluster_dir(ol->c)))
		return -ENAMETOOLONG;
	r = cfs_read_file(path, &text, &len);
	if (r == -ENOENT)
		return 0; /* the OSD folders */
	if (r) {
		cfs_log(CFS_LOG_ERR, "%s: %s", path, cfs_strerror(r));
		return r;
	}
	j = json_loadb(text, len, 0, &je);
	free(text);
	conf = json_string_value(json_object_get(j, "conf"));
	pool = json_string_value(json_object_get(j, "pool"));
	id = json_string_value(json_object_get(j, "id"));
	kind = json_string_value(json_object_get(j, "backend"));
	if (!j || !pool || !kind || strcmp(kind, "rados")) {
		cfs_log(CFS_LOG_ERR, "%s: not a backend description (backend "
			"\"rados\", pool, conf)", path);
		json_decref(j);
		return CFS_ECORRUPT;
	}
	rb = calloc(1, sizeof(*rb));
	if (!rb) {
		json_decref(j);
		return -ENOMEM;
	}
	pthread_mutex_init(&rb->lock, NULL);
	pthread_cond_init(&rb->cond, NULL);
	ol->rb = rb;
	rb->wb = rb_wb_new(ol);
	if (!rb->wb) {
		json_decref(j);
		return -ENOMEM;
	}
	r = ceph_connect(conf, id, 30, &rb->conn, err, sizeof(err));
	if (!r)
		r = ceph_pool_open(rb->conn, pool, &rb->pool, err, sizeof(err));
	json_decref(j);
	if (r) {
		cfs_log(CFS_LOG_ERR, "%s: %s", cfs_cluster_dir(ol->c), err);
		return r;
	}
	/* placement as the cluster has it now */
	r = refresh(ol, err, sizeof(err));
	if (r == -EROFS)
		r = 0; /* a read-only look shows the last map followed */
	if (r) {
		cfs_log(CFS_LOG_ERR, "%s: cannot follow the live cluster's "
			"osdmap: %s", cfs_cluster_dir(ol->c), err);
		return r;
	}
	return 1;
}

int ol_follow_cluster(objlayer *ol)
{
	struct ol_rados *rb = ol->rb;

	if (!rb || rb->polling || cfs_cluster_rdonly(ol->c))
		return 0;
	if (pthread_create(&rb->poller, NULL, poll_epochs, ol))
		return -EAGAIN;
	rb->polling = 1;
	return 0;
}

void ol_rados_close(objlayer *ol)
{
	struct ol_rados *rb = ol->rb;

	if (!rb)
		return;
	if (rb->polling) {
		pthread_mutex_lock(&rb->lock);
		rb->stop = 1;
		pthread_cond_signal(&rb->cond);
		pthread_mutex_unlock(&rb->lock);
		pthread_join(rb->poller, NULL);
	}
	rb_wb_free(rb->wb);
	ceph_pool_close(rb->pool);
	ceph_disconnect(rb->conn);
	free(rb->counts_objects);
	free(rb->counts_bytes);
	pthread_mutex_destroy(&rb->lock);
	pthread_cond_destroy(&rb->cond);
	free(rb);
	ol->rb = NULL;
}

/* librados' errors as objlayer's: ENOSPC/EDQUOT/ENOENT/ENODATA pass, a
 * timeout (PGs inactive, the cluster gone) is EIO with one line */
static int err_of(const char *op, const char *name, int r)
{
	if (r == -ETIMEDOUT || r == -ESHUTDOWN || r == -ENOTCONN) {
		cfs_log(CFS_LOG_ERR, "rados %s of '%s': %s", op, name,
			strerror(-r));
		return -EIO;
	}
	return r;
}

/* The index entry follows the object's size (what lists a file's
 * objects); no index write when an overwrite leaves it. */
int rb_index_size(objlayer *ol, const char *name, int exists, uint64_t old,
		  uint64_t size)
{
	struct cfs_objinfo oi;
	int e = 0;

	if (exists && old == size)
		return 0;
	oi.version = cfs_index_next_version(ol->c, &e);
	oi.size = size;
	return e ? e : cfs_index_set(ol->c, ol->pool, name, &oi);
}

int rb_write(objlayer *ol, const char *name, uint64_t off, const void *buf,
	     size_t len, int flags)
{
	pthread_rwlock_t *lk = ol_objlock(ol, name);
	struct cfs_objinfo oi = { 0, 0 };
	int r, exists, full = flags & F_FULL;

	pthread_rwlock_wrlock(lk);
	if (flags & F_ASYNC) {
		/* the index follows in the completion (rados_wb.c), but a new
		 * object is known first, with size 0: a daemon killed while
		 * the write is in flight leaves no object it does not know
		 * (RADOS may still apply the write) */
		r = cfs_index_get(ol->c, ol->pool, name, &oi) ? rb_index_size(ol, name, 0,
								 0, 0)
						      : 0;
		if (!r)
			r = rb_wb_write(ol->rb->wb, ol->rb->pool, name, off,
					buf, len, full);
		pthread_rwlock_unlock(lk);
		return err_of("write", name, r);
	}
	/* the index as it is once the object's writes are done */
	rb_wb_wait_object(ol->rb->wb, name);
	exists = cfs_index_get(ol->c, ol->pool, name, &oi) == 0;
	r = full ? ceph_obj_write_full(ol->rb->pool, name, buf, len)
		 : ceph_obj_write(ol->rb->pool, name, off, buf, len);
	if (!r)
		r = rb_index_size(ol, name, exists, oi.size,
			       full ? len
			       : off + len > oi.size || !exists
				       ? off + len
				       : oi.size);
	pthread_rwlock_unlock(lk);
	return err_of("write", name, r);
}

int rb_removed(objlayer *ol, uint64_t ino)
{
	return err_of("remove", "(purged file)",
		      rb_wb_flush_inode(ol->rb->wb, ino, 1, 1));
}

int rb_flush(objlayer *ol, uint64_t ino, int wait)
{
	int r = rb_wb_flush_inode(ol->rb->wb, ino, wait, 0);

	if (r) {
		char what[48];

		snprintf(what, sizeof(what), "inode %" PRIx64, ino);
		r = err_of("write back", what, r);
	}
	return r;
}

void rb_wait_inode(objlayer *ol, uint64_t ino)
{
	rb_wb_wait_inode(ol->rb->wb, ino);
}

ssize_t rb_read(objlayer *ol, const char *name, uint64_t off, void *buf,
		size_t len, uint64_t *size, struct timespec *mtime)
{
	pthread_rwlock_t *lk = ol_objlock(ol, name);
	ssize_t n = 0;
	int r = 0;

	/* shared: no remove or truncate between the read and the index's
	 * word on a missing object */
	pthread_rwlock_rdlock(lk);
	rb_wb_wait_object(ol->rb->wb, name);
	if (size || mtime)
		r = ceph_obj_stat(ol->rb->pool, name, size, mtime);
	if (!r && len)
		n = ceph_obj_read(ol->rb->pool, name, off, buf, len);
	if (!r && n == -ENOENT) {
		struct cfs_objinfo oi;

		/* a hole only if crushfs never wrote it: an object its index
		 * knows with bytes RADOS acknowledged is lost, and zeros
		 * would hide that (size 0: a write that never made it) */
		if (!cfs_index_get(ol->c, ol->pool, name, &oi) && oi.size) {
			cfs_log(CFS_LOG_ERR, "rados read of '%s': the object "
				"is gone from the pool (crushfs wrote %llu "
				"bytes to it)", name,
				(unsigned long long)oi.size);
			n = -EIO;
		}
	}
	pthread_rwlock_unlock(lk);
	if (r)
		return err_of("stat", name, r);
	return n < 0 ? err_of("read", name, (int)n) : n;
}

int rb_remove(objlayer *ol, const char *name, int quiet_enoent)
{
	pthread_rwlock_t *lk = ol_objlock(ol, name);
	int r;

	pthread_rwlock_wrlock(lk);
	rb_wb_wait_object(ol->rb->wb, name);
	r = ceph_obj_remove(ol->rb->pool, name);
	if (r == -ENOENT && quiet_enoent)
		r = 0;
	if (!r || r == -ENOENT) {
		int e = cfs_index_set(ol->c, ol->pool, name, NULL);

		r = r ? r : e;
	}
	pthread_rwlock_unlock(lk);
	return err_of("remove", name, r);
}

int rb_remove_async(objlayer *ol, const char *name)
{
	pthread_rwlock_t *lk = ol_objlock(ol, name);
	int r;

	/* the index forgets it when RADOS has (rados_wb.c) */
	pthread_rwlock_wrlock(lk);
	r = rb_wb_remove(ol->rb->wb, ol->rb->pool, name);
	pthread_rwlock_unlock(lk);
	return err_of("remove", name, r);
}

int rb_truncate(objlayer *ol, const char *name, uint64_t size)
{
	pthread_rwlock_t *lk = ol_objlock(ol, name);
	struct cfs_objinfo oi = { 0, 0 };
	int r, exists;

	pthread_rwlock_wrlock(lk);
	rb_wb_wait_object(ol->rb->wb, name);
	exists = cfs_index_get(ol->c, ol->pool, name, &oi) == 0;
	r = ceph_obj_truncate(ol->rb->pool, name, size);
	if (!r)
		r = rb_index_size(ol, name, exists, oi.size, size);
	pthread_rwlock_unlock(lk);
	return err_of("truncate", name, r);
}

int rb_setattr(objlayer *ol, const char *name, const char *key,
	       const void *val, size_t len)
{
	pthread_rwlock_t *lk = ol_objlock(ol, name);
	struct cfs_objinfo oi = { 0, 0 };
	int r;

	/* as for the OSD folders: a 0-byte object first when missing */
	pthread_rwlock_wrlock(lk);
	rb_wb_wait_object(ol->rb->wb, name);
	if (cfs_index_get(ol->c, ol->pool, name, &oi)) {
		r = ceph_obj_write(ol->rb->pool, name, 0, "", 0);
		if (!r)
			r = rb_index_size(ol, name, 0, 0, 0);
		if (r) {
			pthread_rwlock_unlock(lk);
			return err_of("create", name, r);
		}
	}
	r = ceph_obj_setxattr(ol->rb->pool, name, key, val, len);
	pthread_rwlock_unlock(lk);
	return err_of("setxattr", name, r);
}

int rb_getattr(objlayer *ol, const char *name, const char *key, void **val,
	       size_t *len)
{
	rb_wb_wait_object(ol->rb->wb, name);
	return err_of("getxattr", name,
		      ceph_obj_getxattr(ol->rb->pool, name, key, val, len));
}

/* ---- PG statistics: what crushfs wrote, by PG, from the index ---- */

struct count_arg {
	const cfs_osdmap *m;
	uint64_t *objects, *bytes;
	uint32_t pg_num;
};

static int count_one(const char *name, const struct cfs_objinfo *oi, int op,
		     void *arg)
{
	struct count_arg *a = arg;
	uint32_t ps;

	(void)op;
	cfs_object_to_pg(a->m, name, NULL, &ps);
	if (ps < a->pg_num) {
		a->objects[ps]++;
		a->bytes[ps] += oi->size;
	}
	return 0;
}

int rb_pg_stat(objlayer *ol, const cfs_osdmap *m, uint32_t ps,
	       struct ol_pg_stat *st)
{
	struct ol_rados *rb = ol->rb;
	const struct cfs_pool_info *pool = cfs_osdmap_pool(m);
	struct timespec now;
	int r = 0, have = 0;

	ol_pg_stat_placed(m, pool, ps, st);
	clock_gettime(CLOCK_MONOTONIC, &now);
	pthread_mutex_lock(&rb->lock);
	/* one index scan serves a whole `pg dump` (a second's worth) */
	if (!rb->counts_objects || rb->counts_pg_num != pool->pg_num ||
	    now.tv_sec > rb->counts_time) {
		struct count_arg a = { m, calloc(pool->pg_num, 8),
				       calloc(pool->pg_num, 8), pool->pg_num };

		if (!a.objects || !a.bytes) {
			free(a.objects);
			free(a.bytes);
			r = -ENOMEM;
		} else {
			r = cfs_index_foreach(ol->c, ol->pool, "", 0, count_one, &a);
		}
		if (!r) {
			free(rb->counts_objects);
			free(rb->counts_bytes);
			rb->counts_objects = a.objects;
			rb->counts_bytes = a.bytes;
			rb->counts_pg_num = pool->pg_num;
			rb->counts_time = now.tv_sec;
		} else if (a.objects) {
			free(a.objects);
			free(a.bytes);
		}
	}
	if (!r && ps < rb->counts_pg_num) {
		st->objects = rb->counts_objects[ps];
		st->bytes = rb->counts_bytes[ps];
		have = 1;
	}
	pthread_mutex_unlock(&rb->lock);
	if (have) {
		int copies = 0;

		for (int i = 0; i < st->nacting; i++)
			copies += st->acting[i] >= 0;
		if (copies < pool->size)
			st->degraded = st->objects *
				       (uint64_t)(pool->size - copies);
	}
	return r;
}
