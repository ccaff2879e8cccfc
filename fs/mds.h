/*
 * mds.h - filesystem metadata records on top of kv.h: inodes, directory
 * entries, symlink targets, xattrs, the orphan list and the inode number
 * allocator.  It knows the key schema and the record encodings and nothing
 * of POSIX rules (vfs.c) or FUSE (fsops.c).
 *
 * Errors: 0 or -errno; a record that does not decode is CFS_ECORRUPT.
 * Thread safety: all calls may run concurrently; callers serialize the
 * read-modify-write of a record themselves (vfs.c's namespace lock and
 * per-inode mutexes).
 */
#ifndef CRUSHFS_MDS_H
#define CRUSHFS_MDS_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "kv.h"
#include "objlayer.h"

#define MDS_ROOT_INO 1ULL
/* First inode number handed out, as CephFS (MDS_INO_SYSTEM_BASE). */
#define MDS_FIRST_INO 0x10000000000ULL
#define MDS_NAME_MAX 255
#define MDS_XATTR_NAME_MAX 255
#define MDS_XATTR_SIZE_MAX 65536
#define MDS_SYMLINK_MAX 4095

struct mds_inode {
	uint64_t ino;
	uint32_t mode, uid, gid, nlink;
	uint64_t size;
	uint64_t rdev;
	uint64_t parent;	/* directories: the parent directory */
	uint64_t generation;
	struct timespec atime, mtime, ctime, btime;
	uint32_t flags;		/* MDS_F_* */
	struct ol_layout layout; /* regular files: fixed at creation */
	/* Regular files: the writeable range [wr_first, max_size).  Objects
	 * may hold bytes past `size` only inside it (CephFS's
	 * client_writeable_range_t, whose range.last is the inode's
	 * max_size): it is committed before a write may extend the file
	 * past it, and a crash is recovered by probing the objects in it
	 * (wrange.c).  0, 0 when no write is in progress. */
	uint64_t wr_first, max_size;
};

/* The inode has (or had) extended attributes: deleting it must look for
 * them.  Spares the common delete a key scan. */
#define MDS_F_XATTRS 0x1
/* Objects may hold (zero) bytes past the size, up to the end in the
 * inode's 'P' record (fallocate with KEEP_SIZE): truncate and delete
 * must reach that far. */
#define MDS_F_PREALLOC 0x2

/* Directory entry as stored: the child and its DT_* type. */
struct mds_dentry {
	uint64_t ino;
	uint8_t type;
};

typedef struct mds mds;

/* Open the metadata in db: check the format version and the fsid the
 * store was made for (NULL skips the check); -ENOENT when the store was
 * never formatted. */
int mds_open(kv *db, const char *fsid, mds **out);
void mds_close(mds *m);
kv *mds_kv(mds *m);
/* Format an empty store: version, fsid, root directory (mode 0755 | dir,
 * owned by uid/gid), allocator.  -EEXIST when already formatted. */
int mds_format(kv *db, const char *fsid, uint32_t uid, uint32_t gid);

/* A fresh inode number (never reused; ranges are reserved in the store
 * 4096 at a time, so a crash only skips numbers). */
int mds_alloc_ino(mds *m, uint64_t *ino);
/* Hand out only numbers above ino from now on (objects of inode ino were
 * found: fsck, the metadata rebuild).  Persisted before returning. */
int mds_alloc_above(mds *m, uint64_t ino);
/* The next number mds_alloc_ino would return (tests). */
uint64_t mds_next_ino(mds *m);

/* ---- reads ---- */
int mds_get_inode(mds *m, uint64_t ino, struct mds_inode *out);
int mds_lookup(mds *m, uint64_t parent, const char *name,
	       struct mds_dentry *out);
/* 1 when dir has no entries, 0 when it has, -errno. */
int mds_dir_empty(mds *m, uint64_t dir);
/* Entries of dir in name order, starting after `after` (NULL: from the
 * start); fn returns non-zero to stop (that value is returned). */
typedef int (*mds_dirent_fn)(const char *name, size_t nlen,
			     const struct mds_dentry *d, void *arg);
int mds_readdir(mds *m, uint64_t dir, const char *after, mds_dirent_fn fn,
		void *arg);
/* *target is malloc'ed and NUL-terminated. */
int mds_get_symlink(mds *m, uint64_t ino, char **target, size_t *len);
/* -ENODATA when absent; *val malloc'ed. */
int mds_get_xattr(mds *m, uint64_t ino, const char *name, void **val,
		  size_t *len);
typedef int (*mds_xattr_fn)(const char *name, size_t nlen, const void *val,
			    size_t vlen, void *arg);
int mds_list_xattrs(mds *m, uint64_t ino, mds_xattr_fn fn, void *arg);
/* Inodes on the orphan list (nlink 0, data not yet purged). */
int mds_list_orphans(mds *m, int (*fn)(uint64_t ino, void *arg), void *arg);
/* Every inode record, in inode order (fsck). */
int mds_list_inodes(mds *m, int (*fn)(const struct mds_inode *ino, void *arg),
		    void *arg);
/* Every dentry of the filesystem (fsck). */
int mds_list_dentries(mds *m,
		      int (*fn)(uint64_t parent, const char *name, size_t nlen,
				const struct mds_dentry *d, void *arg),
		      void *arg);

/* ---- changes, added to a batch the caller commits ---- */
void mds_put_inode(kv_batch *b, const struct mds_inode *ino);
void mds_put_dentry(kv_batch *b, uint64_t parent, const char *name,
		    const struct mds_dentry *d);
void mds_del_dentry(kv_batch *b, uint64_t parent, const char *name);
void mds_put_symlink(kv_batch *b, uint64_t ino, const char *target,
		     size_t len);
void mds_del_symlink(kv_batch *b, uint64_t ino);
void mds_put_xattr(kv_batch *b, uint64_t ino, const char *name,
		   const void *val, size_t len);
void mds_del_xattr(kv_batch *b, uint64_t ino, const char *name);
void mds_put_orphan(kv_batch *b, uint64_t ino);
void mds_del_orphan(kv_batch *b, uint64_t ino);
/* Backtrace pending (bt_queue.c): a link to start from (name NULL: none). */
void mds_put_btmark(kv_batch *b, uint64_t ino, uint64_t parent,
		    const char *name);
void mds_del_btmark(kv_batch *b, uint64_t ino);
/* Every pending mark; name is not NUL-terminated (NULL: none). */
int mds_list_btmarks(mds *m,
		     int (*fn)(uint64_t ino, uint64_t parent, const char *name,
			       size_t nlen, void *arg),
		     void *arg);
/* Delete the inode record, its symlink target, xattrs and orphan mark
 * (rec tells which of them can exist). */
int mds_del_inode_all(mds *m, kv_batch *b, const struct mds_inode *rec);

/* ---- the inode count (statfs), kept with the records ---- */
/* Inode records in the store, from memory. */
uint64_t mds_inode_count(mds *m);
/* 1 when ino has a record, 0 when not, -errno: a purge counts only the
 * records it really deletes. */
int mds_inode_exists(mds *m, uint64_t ino);
/* Commit b, which adds (delta > 0) or deletes (delta < 0) that many inode
 * records, with the count updated in the same batch.  Use it for every
 * batch that creates or deletes inode records. */
int mds_commit_counted(mds *m, kv_batch *b, int64_t delta, int sync);
/* Count the records (a scan: fsck); with fix, store the true count when
 * the stored one differs.  *stored is 0 when none was stored. */
int mds_recount_inodes(mds *m, int fix, uint64_t *stored, uint64_t *actual);

/* ---- preallocated ends (MDS_F_PREALLOC) ---- */
int mds_get_prealloc(mds *m, uint64_t ino, uint64_t *end);
void mds_put_prealloc(kv_batch *b, uint64_t ino, uint64_t end);
void mds_del_prealloc(kv_batch *b, uint64_t ino);

/* ---- encodings (exposed for tests and fsck) ---- */
#define MDS_INODE_REC_LEN 144
/* Records of format 1 (before the writeable range) are still read. */
#define MDS_INODE_REC_LEN_V1 128
void mds_encode_inode(const struct mds_inode *ino,
		      unsigned char buf[MDS_INODE_REC_LEN]);
int mds_decode_inode(const void *buf, size_t len, struct mds_inode *out);
/* DT_* type of a mode. */
uint8_t mds_mode_to_dt(uint32_t mode);

#endif
