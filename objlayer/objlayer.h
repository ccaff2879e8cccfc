/*
 * objlayer.h - the striped, replicated object layer: RADOS in miniature.
 *
 * The only interface fs/ and the rados commands use to store data.  It
 * speaks in (inode, file layout, offset, length) and object names, never in
 * OSD paths.  Files are cut into objects named "%llx.%08llx" (inode, object
 * number), exactly as CephFS names them; each object goes to the PG its name
 * hashes to and is replicated on that PG's acting set.
 *
 * Errors: 0 / byte counts, or -errno.  ENOSPC (full OSD), ENOENT and EDQUOT
 * pass through; PGs with fewer than min_size OSDs up give -EIO promptly
 * with one log line naming the PG; unexpected failures become -EIO with one
 * log line.  A refused write changes no replica.
 *
 * Thread safety: every call may be made from many threads at once; writes
 * to one object are serialized, writes to different objects run in
 * parallel.
 */
#ifndef CRUSHFS_OBJLAYER_H
#define CRUSHFS_OBJLAYER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef struct cfs_cluster cfs_cluster; /* osdsim/osdsim.h */
typedef struct objlayer objlayer;

/* CephFS file layout (ceph_file_layout).  Defaults 4 MiB / 1 / 4 MiB. */
struct ol_layout {
	uint32_t stripe_unit;
	uint32_t stripe_count;
	uint32_t object_size;
	int64_t pool;
};

/* One piece of a file extent inside one object (Ceph Striper). */
struct ol_extent {
	uint64_t objectno;
	uint64_t obj_off;
	uint64_t len;
	uint64_t file_off;
};

/* ---- striping math (pure) ---- */
/* Valid: stripe_unit > 0, object_size % stripe_unit == 0, count >= 1. */
int ol_layout_valid(const struct ol_layout *l);
/* Split [off, off+len) into per-object extents in file order; returns the
 * number of extents written (at most max), or -E2BIG if max is too small
 * (call with max == 0 to count). */
int ol_file_to_extents(const struct ol_layout *l, uint64_t off, uint64_t len,
		       struct ol_extent *ext, int max);
/* Object name of (ino, objectno): "%llx.%08llx".  buf >= 40 bytes. */
void ol_object_name(uint64_t ino, uint64_t objectno, char *buf, size_t len);
/* Number of objects a file of `size` bytes can touch (upper bound). */
uint64_t ol_object_count(const struct ol_layout *l, uint64_t size);

/* ---- the layer ---- */
int ol_open(cfs_cluster *c, objlayer **out);
void ol_close(objlayer *ol);
/* The pool's default layout (from the cluster's pool settings). */
void ol_default_layout(objlayer *ol, struct ol_layout *l);

/* Write len bytes at file offset off.  Returns len, or the number of bytes
 * written before a refusal (> 0), or -errno if nothing was written. */
ssize_t ol_write(objlayer *ol, uint64_t ino, const struct ol_layout *l,
		 uint64_t off, const void *buf, size_t len);
/* Read up to len bytes at off from a file of file_size bytes; holes and
 * missing objects read as zeros; returns bytes read (0 at/after EOF). */
ssize_t ol_read(objlayer *ol, uint64_t ino, const struct ol_layout *l,
		uint64_t file_size, uint64_t off, void *buf, size_t len);
/* Shrink or grow a file from old_size to new_size: objects past the end are
 * removed, the last one truncated.  Always allowed, even when full. */
int ol_truncate(objlayer *ol, uint64_t ino, const struct ol_layout *l,
		uint64_t old_size, uint64_t new_size);
/* Remove every object of a file of `size` bytes.  Always allowed. */
int ol_remove(objlayer *ol, uint64_t ino, const struct ol_layout *l,
	      uint64_t size);
/* Make the file's objects durable (fsync on every replica). */
int ol_sync(objlayer *ol, uint64_t ino, const struct ol_layout *l,
	    uint64_t size);

/* ---- whole objects by name (rados put/get/stat/rm/ls) ---- */
int ol_obj_write_full(objlayer *ol, const char *name, const void *buf,
		      size_t len);
ssize_t ol_obj_read(objlayer *ol, const char *name, uint64_t off, void *buf,
		    size_t len);
int ol_obj_stat(objlayer *ol, const char *name, uint64_t *size);
int ol_obj_remove(objlayer *ol, const char *name);
/* Calls fn for each object of the pool (each name once). */
int ol_obj_list(objlayer *ol, int (*fn)(const char *name, void *arg),
		void *arg);

/* ---- placement, for `locate` and the crushfs.placement xattr ---- */
struct ol_placement {
	char name[64];       /* object name */
	char pgid[32];       /* e.g. "1.1f" */
	uint32_t epoch;
	int up[16], nup, up_primary;
	int acting[16], nacting, acting_primary;
	int exists;          /* object present on the primary */
	uint64_t size;       /* object size on the primary */
};
int ol_locate(objlayer *ol, const char *objname, struct ol_placement *p);
/* Path of the object's file on one OSD, for display only (locate). */
int ol_object_path(objlayer *ol, const char *objname, int osd, char *buf,
		   size_t len);

/* ---- space, for statfs / df ---- */
struct ol_space {
	uint64_t total;     /* raw capacity / pool size */
	uint64_t used;      /* logical bytes stored (raw used / size) */
	uint64_t max_avail; /* ceph df MAX AVAIL for the pool */
};
int ol_space(objlayer *ol, struct ol_space *s);

#endif
