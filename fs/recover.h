/*
 * recover.h - inodes rebuilt from their objects alone, as
 * cephfs-data-scan does (src/tools/cephfs/DataScan.cc): scan_extents
 * finds each inode's objects and the end of its data, scan_inodes reads
 * the backtrace of object 0 and makes the inode.  Used by fsck (objects
 * of no inode go to /lost+found) and by the metadata rebuild (rebuild.c).
 * Not public.
 */
#ifndef CRUSHFS_RECOVER_H
#define CRUSHFS_RECOVER_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "backtrace.h"
#include "mds.h"
#include "objlayer.h"

/* One object of a file-like name. */
struct rc_obj {
	uint64_t ino, objno, size;
	struct timespec mtime;
	int64_t pool; /* the file's data, or (default pool, object 0) the
		       * backtrace of an inode whose data is elsewhere */
};

/* An inode's objects (a run of a sorted rc_obj array) and what object 0
 * says of it. */
struct rc_inode {
	uint64_t ino;
	const struct rc_obj *objs;
	size_t nobjs;
	int has_bt;
	struct backtrace bt;
	char *target; /* a symlink's, from object 0's bytes */
	size_t tlen;
};

/* Sort objs by (ino, objno) and cut them into inodes: *out (malloc'ed)
 * points into objs. */
int rc_group(struct rc_obj *objs, size_t n, struct rc_inode **out,
	     size_t *nout);
/* Read the backtrace (and a symlink's target) of ri from object 0.
 * 0 also when there is none (has_bt stays 0); -errno for failures to
 * read that are not "absent"; a damaged value is logged and ignored. */
int rc_load(objlayer *ol, struct rc_inode *ri);
void rc_inode_free(struct rc_inode *ri);

/* File offset one past the last of `size` bytes at the start of object
 * objno (the inverse of the striping of objlayer/striper.c). */
uint64_t rc_file_end(const struct ol_layout *l, uint64_t objno,
		     uint64_t size);

/* The inode record ri's objects and backtrace say: type, mode, owner,
 * times and layout from the backtrace, else a regular file 0644 of
 * uid/gid with the default layout in the pool its data objects are in;
 * the size of a file from its objects in its layout's pool
 * (scan_extents).  nlink and parent are the caller's. */
void rc_make_inode(const struct rc_inode *ri, const struct ol_layout *deflt,
		   uint32_t uid, uint32_t gid, struct mds_inode *out);

#endif
