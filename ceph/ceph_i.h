/*
 * ceph_i.h - shared inside ceph/ (not public).
 */
#ifndef CRUSHFS_CEPH_I_H
#define CRUSHFS_CEPH_I_H

#include <rados/librados.h>

#include "ceph.h"

/* the connection's librados handle (live.c) */
rados_t ceph_conn_rados(ceph_conn *c);

/*
 * librados is loaded when a command first connects (rados_dl.c), not
 * when crushfs starts: its libceph-common runs its static initialisers
 * at load, about 8 ms of CPU that every command paid, a `crush test` of
 * a million mappings included, though only the ceph backend and
 * `import-ceph --live` use it.  The headers still give the types; ceph/
 * calls librados through this table (ceph_rados.create for
 * rados_create): the link fails on a call made around it.
 */
#define CEPH_RADOS_CALLS(X)                                                  \
	X(aio_create_completion2) X(aio_get_return_value) X(aio_release)    \
	X(aio_remove) X(aio_write) X(aio_write_full) X(buffer_free)         \
	X(conf_parse_env) X(conf_read_file) X(conf_set) X(connect)          \
	X(create) X(getxattr) X(ioctx_create) X(ioctx_destroy)              \
	X(ioctx_get_id) X(mgr_command) X(mon_command)                       \
	X(nobjects_list_close) X(nobjects_list_next) X(nobjects_list_open)  \
	X(read) X(remove) X(rmxattr) X(set_pool_full_try) X(setxattr)       \
	X(shutdown) X(stat) X(trunc) X(write) X(write_full)

struct ceph_rados_api {
#define CEPH_RADOS_MEMBER(f) __typeof__(rados_##f) *f;
	CEPH_RADOS_CALLS(CEPH_RADOS_MEMBER)
#undef CEPH_RADOS_MEMBER
};
extern struct ceph_rados_api ceph_rados;

/* 0 once librados is loaded (once per process), else -ENOENT and err
 * says what is missing */
int ceph_rados_load(char *err, size_t errlen);

#endif
