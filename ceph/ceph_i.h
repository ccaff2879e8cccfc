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
 * `import-ceph --live` use it.  The headers still give the types; every
 * rados_* call of ceph/ goes through this table.
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

#define rados_aio_create_completion2 ceph_rados.aio_create_completion2
#define rados_aio_get_return_value ceph_rados.aio_get_return_value
#define rados_aio_release ceph_rados.aio_release
#define rados_aio_remove ceph_rados.aio_remove
#define rados_aio_write ceph_rados.aio_write
#define rados_aio_write_full ceph_rados.aio_write_full
#define rados_buffer_free ceph_rados.buffer_free
#define rados_conf_parse_env ceph_rados.conf_parse_env
#define rados_conf_read_file ceph_rados.conf_read_file
#define rados_conf_set ceph_rados.conf_set
#define rados_connect ceph_rados.connect
#define rados_create ceph_rados.create
#define rados_getxattr ceph_rados.getxattr
#define rados_ioctx_create ceph_rados.ioctx_create
#define rados_ioctx_destroy ceph_rados.ioctx_destroy
#define rados_ioctx_get_id ceph_rados.ioctx_get_id
#define rados_mgr_command ceph_rados.mgr_command
#define rados_mon_command ceph_rados.mon_command
#define rados_nobjects_list_close ceph_rados.nobjects_list_close
#define rados_nobjects_list_next ceph_rados.nobjects_list_next
#define rados_nobjects_list_open ceph_rados.nobjects_list_open
#define rados_read ceph_rados.read
#define rados_remove ceph_rados.remove
#define rados_rmxattr ceph_rados.rmxattr
#define rados_set_pool_full_try ceph_rados.set_pool_full_try
#define rados_setxattr ceph_rados.setxattr
#define rados_shutdown ceph_rados.shutdown
#define rados_stat ceph_rados.stat
#define rados_trunc ceph_rados.trunc
#define rados_write ceph_rados.write
#define rados_write_full ceph_rados.write_full

#endif
