/*
 * meta.c - opening the metadata store DIR/mds, for the daemon and for
 * offline tools (fs_meta_*: locate), see fs.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsd_i.h"
#include "osdsim.h"
#include "util.h"

int meta_open_store(const char *cluster_dir, const char *fsid, int create,
		    kv **dbp, mds **mp, char *err, size_t errlen)
{
	char path[4096];
	struct stat st;
	kv *db = NULL;
	mds *m = NULL;
	int rc, fresh = 0;

	snprintf(path, sizeof(path), "%s/mds", cluster_dir);
	if (stat(path, &st) != 0) {
		if (errno != ENOENT || !create) {
			rc = -errno;
			snprintf(err, errlen, "%s: %s%s", path, strerror(errno),
				 errno == ENOENT ? " (the filesystem was never "
						   "mounted)" : "");
			return rc;
		}
		fresh = 1;
	} else if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: not a directory", path);
		return -ENOTDIR;
	}
	rc = kv_open_rocksdb(path, fresh, &db);
	if (rc) {
		if (rc == -EBUSY)
			snprintf(err, errlen, "%s: in use by another process "
				 "(is the cluster mounted?)", path);
		else if (rc == -ENOENT)
			snprintf(err, errlen, "%s: not a metadata store "
				 "(damaged or not made by crushfs)", path);
		else
			snprintf(err, errlen, "%s: cannot open the metadata "
				 "store: %s", path, cfs_strerror(rc));
		return rc;
	}
	rc = mds_open(db, fsid, &m);
	if (rc == -ENOENT && create) {
		/* First mount (or a crash during it): make the root. */
		rc = mds_format(db, fsid, getuid(), getgid());
		if (rc == 0) {
			cfs_log(CFS_LOG_INFO, "created the filesystem metadata "
				"in %s", path);
			rc = mds_open(db, fsid, &m);
		}
	}
	if (rc) {
		if (rc == -ENOENT)
			snprintf(err, errlen, "%s: no filesystem in the metadata "
				 "store (never mounted)", path);
		else if (rc == CFS_ECORRUPT)
			snprintf(err, errlen, "%s: damaged metadata store (or one "
				 "from another cluster)", path);
		else
			snprintf(err, errlen, "%s: %s", path, cfs_strerror(rc));
		kv_close(db);
		return rc;
	}
	*dbp = db;
	*mp = m;
	return 0;
}

int fs_meta_open(cfs_cluster *c, fs_meta **out, char *err, size_t errlen)
{
	const cfs_osdmap *map = cfs_osdmap_get(c);
	struct vfs_opts vo = { .readonly = 1, .noatime = 1 };
	fs_meta *fm = calloc(1, sizeof(*fm));
	int rc;

	if (!fm) {
		cfs_osdmap_put(map);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	rc = meta_open_store(cfs_cluster_dir(c), cfs_osdmap_fsid(map), 0,
			     &fm->db, &fm->m, err, errlen);
	cfs_osdmap_put(map);
	if (rc) {
		free(fm);
		return rc;
	}
	rc = vfs_new(fm->m, NULL, NULL, &vo, &fm->v);
	if (rc) {
		snprintf(err, errlen, "%s/mds: %s", cfs_cluster_dir(c),
			 cfs_strerror(rc));
		mds_close(fm->m);
		kv_close(fm->db);
		free(fm);
		return rc;
	}
	fm->owned = 1;
	*out = fm;
	return 0;
}

void fs_meta_close(fs_meta *fm)
{
	if (!fm || !fm->owned)
		return;
	vfs_free(fm->v);
	mds_close(fm->m);
	kv_close(fm->db);
	free(fm);
}

int fs_meta_resolve(fs_meta *fm, const char *path, uint64_t *ino)
{
	return vfs_resolve(fm->v, path, ino);
}

int fs_meta_stat(fs_meta *fm, uint64_t ino, struct fs_inode_info *out)
{
	struct mds_inode r;
	int rc = vfs_stat_inode(fm->v, ino, &r);

	if (rc)
		return rc;
	memset(out, 0, sizeof(*out));
	out->ino = ino;
	out->mode = r.mode;
	out->nlink = r.nlink;
	out->uid = r.uid;
	out->gid = r.gid;
	out->size = r.size;
	out->layout = r.layout;
	return 0;
}

const char *fs_meta_mountpoint(const fs_meta *fm)
{
	return fm->mountpoint;
}
