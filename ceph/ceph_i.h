/*
 * ceph_i.h - shared inside ceph/ (not public).
 */
#ifndef CRUSHFS_CEPH_I_H
#define CRUSHFS_CEPH_I_H

#include <rados/librados.h>

#include "ceph.h"

/* the connection's librados handle (live.c) */
rados_t ceph_conn_rados(ceph_conn *c);

#endif
