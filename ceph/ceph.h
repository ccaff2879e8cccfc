/*
 * ceph.h - a live Ceph cluster through librados: the connection, its
 * monitor and manager commands, and the snapshot `mkfs --from-ceph`
 * imports (`import-ceph --live`).  The RADOS backend will share the
 * connection.  Depends on util/ and librados only.
 */
#ifndef CRUSHFS_CEPH_H
#define CRUSHFS_CEPH_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct timespec;
typedef struct ceph_conn ceph_conn;
typedef struct ceph_pool ceph_pool;

/* Connect as client.ID (NULL: admin) with the config file conf (NULL:
 * librados' default search, $CEPH_CONF then /etc/ceph/ceph.conf),
 * waiting at most timeout seconds for the monitors.  0, or -errno with
 * one line in err. */
int ceph_connect(const char *conf, const char *id, int timeout,
		 ceph_conn **out, char *err, size_t errlen);
void ceph_disconnect(ceph_conn *c);

/* A monitor command (JSON, e.g. {"prefix": "osd dump", "format":
 * "json"}), or a manager one when mgr: *out gets the reply (malloc'ed,
 * NUL added, not counted).  0, or -errno with the cluster's message in
 * err. */
int ceph_command(ceph_conn *c, int mgr, const char *cmd, char **out,
		 size_t *outlen, char *err, size_t errlen);

/* Write what `mkfs --from-ceph` reads into dir (made when missing):
 * osd_dump.json, crushmap.bin, osd_df.json, df.json - read-only
 * commands only, the osd dump taken last of the osdmap ones... and again
 * when the epoch moved meanwhile, so the files describe one epoch. */
int ceph_snapshot(ceph_conn *c, const char *dir, char *err, size_t errlen);

/* ---- objects of one pool (pool.c): the RADOS backend's I/O ----
 * Opened in librados' full-try mode (rados_set_pool_full_try): a write to
 * a full pool or OSD fails with -ENOSPC (or -EDQUOT past a quota) instead
 * of waiting for space, as ceph-fuse's writes do.  Errors are -errno;
 * -ENOENT: no such object, -ENODATA: no such attribute. */
int ceph_pool_open(ceph_conn *c, const char *pool, ceph_pool **out,
		   char *err, size_t errlen);
void ceph_pool_close(ceph_pool *p);
/* The pool's id, -1 when unknown. */
int64_t ceph_pool_id(const ceph_pool *p);
int ceph_obj_write(ceph_pool *p, const char *name, uint64_t off,
		   const void *buf, size_t len);
int ceph_obj_write_full(ceph_pool *p, const char *name, const void *buf,
			size_t len);
/* The same write, asynchronous: 0 when submitted (buf may be reused at
 * once), then done(arg, 0 or -errno) from librados' thread when the
 * cluster has it (on every replica: RADOS acknowledges durable writes).
 * Writes to one object from one client are applied in the order
 * submitted. */
int ceph_obj_aio_write(ceph_pool *p, const char *name, uint64_t off,
		       const void *buf, size_t len, int full,
		       void (*done)(void *arg, int r), void *arg);
/* A remove, asynchronous likewise (done gets -ENOENT for no object). */
int ceph_obj_aio_remove(ceph_pool *p, const char *name,
			void (*done)(void *arg, int r), void *arg);
/* bytes read (short at the object's end) */
ssize_t ceph_obj_read(ceph_pool *p, const char *name, uint64_t off, void *buf,
		      size_t len);
int ceph_obj_stat(ceph_pool *p, const char *name, uint64_t *size,
		  struct timespec *mtime);
int ceph_obj_truncate(ceph_pool *p, const char *name, uint64_t size);
int ceph_obj_remove(ceph_pool *p, const char *name);
int ceph_obj_setxattr(ceph_pool *p, const char *name, const char *key,
		      const void *val, size_t len);
/* *val malloc'ed, NUL added (not counted) */
int ceph_obj_getxattr(ceph_pool *p, const char *name, const char *key,
		      void **val, size_t *len);
int ceph_obj_rmxattr(ceph_pool *p, const char *name, const char *key);
/* fn for every object of the pool (its default namespace); fn returning
 * non-zero stops and is returned */
int ceph_obj_list(ceph_pool *p, int (*fn)(const char *name, void *arg),
		  void *arg);

#endif
