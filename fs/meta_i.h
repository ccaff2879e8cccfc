/*
 * meta_i.h - the metadata store of a cluster, DIR/mds (meta.c), for the
 * daemon, the offline tools, fsck and the rebuild (not public).
 *
 * A store that is missing, empty or unreadable while the cluster had a
 * filesystem is never replaced by a new empty one: a mount would then
 * hand out the old inode numbers again and new files would read the old
 * files' bytes (issue 8).  "Had a filesystem" means: the marker
 * DIR/mds.created (written by mkfs, the first mount and the rebuild) or
 * any object named like a file's in the pool.  A store older than the
 * marker says (meta_marker_seq) is refused too.
 */
#ifndef CRUSHFS_META_I_H
#define CRUSHFS_META_I_H

#include <stddef.h>
#include <stdint.h>

#include "kv.h"
#include "mds.h"

typedef struct cfs_cluster cfs_cluster;

#define META_MARKER "mds.created"

enum meta_state {
	META_OK,
	META_NONE,    /* no filesystem was ever made here */
	META_MISSING, /* DIR/mds is gone, the filesystem existed */
	META_EMPTY,   /* the store opens but holds no filesystem, one existed */
	META_DAMAGED, /* the store cannot be read */
};

/* Open DIR/mds of the cluster c.  create (the daemon): make it when no
 * filesystem was ever made here.  On failure err gets one line (for a
 * lost or damaged store, with the rebuild command) and *state (may be
 * NULL) says which case it is. */
int meta_open_store(cfs_cluster *c, int create, kv **db, mds **m,
		    int *state, char *err, size_t errlen);

int meta_marker_exists(const char *cluster_dir);
/* The marker records the store's sequence number (kv_seq) at the last
 * clean unmount: a store that comes back with a smaller one lost
 * committed changes (a damaged or lost newest log) and is refused. */
int meta_marker_write(const char *cluster_dir, const char *fsid,
		      uint64_t seq);
/* 1 (and *seq, 0 if none recorded) when the marker exists. */
int meta_marker_seq(const char *cluster_dir, uint64_t *seq);
/* A clean unmount: the store synced, its sequence number recorded. */
int meta_mark_clean(cfs_cluster *c, kv *db);

/* "%llx.%08llx" with a file's inode number (>= MDS_FIRST_INO). */
int meta_objname_parse(const char *name, uint64_t *ino, uint64_t *objno);
/* Objects named like a file's in the pool, and the highest inode. */
int meta_file_objects(cfs_cluster *c, uint64_t *n, uint64_t *max_ino);

#endif
