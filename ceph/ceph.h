/*
 * ceph.h - a live Ceph cluster through librados: the connection, its
 * monitor and manager commands, and the snapshot `mkfs --from-ceph`
 * imports (`import-ceph --live`).  The RADOS backend will share the
 * connection.  Depends on util/ and librados only.
 */
#ifndef CRUSHFS_CEPH_H
#define CRUSHFS_CEPH_H

#include <stddef.h>

typedef struct ceph_conn ceph_conn;

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

#endif
