/*
 * vfs.h - POSIX semantics of crushfs, without FUSE (STYLE.md 7).
 *
 * fsops.c unpacks FUSE requests and calls these; cmocka tests call them
 * directly against kv_mem / RocksDB and a fake or real object layer.  Every
 * function returns 0 (or a byte count) or -errno.
 *
 * Inode numbers are the FUSE node ids (root is 1).  Calls that return an
 * entry (lookup, create, mknod, mkdir, symlink, link, readdirplus) add 1 to
 * the inode's lookup count; vfs_forget() subtracts (STYLE.md 5).  An inode
 * whose link count reached 0 keeps its data while it is looked up or open,
 * and goes to the purge queue (objects removed, records deleted in the
 * background, purge_queue.c) on the last forget/release.
 *
 * Permission checks: a mount other users may enter is mounted with
 * default_permissions, so the kernel checks permission bits, ACLs, sticky
 * directories and chown/chmod rights itself before calling us; root's own
 * mount has no caller but root, whom those checks all pass (fs.h).
 * vfs_access() serves access(2) for callers that ask.  setgid directories
 * are handled here (the kernel leaves that to the filesystem).
 *
 * Thread safety: all calls may run concurrently.  Lock order: the
 * namespace lock, then per-inode I/O locks, then the inode table lock,
 * then per-inode record mutexes (by inode number).
 */
#ifndef CRUSHFS_VFS_H
#define CRUSHFS_VFS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/types.h>

#include "mds.h"
#include "objlayer.h"

typedef struct vfs vfs;
typedef struct vfs_file vfs_file;
typedef struct vfs_dir vfs_dir;

/* File data store: objlayer in the daemon (vfs_objlayer_ops, ctx = the
 * objlayer), an in-memory fake in tests.  Same contracts as objlayer.h. */
struct vfs_data_ops {
	ssize_t (*write)(void *ctx, uint64_t ino, const struct ol_layout *l,
			 uint64_t off, const void *buf, size_t len);
	ssize_t (*read)(void *ctx, uint64_t ino, const struct ol_layout *l,
			uint64_t size, uint64_t off, void *buf, size_t len);
	/* optional: read, but the bytes may be left where the store keeps
	 * them (saves a copy of each megabyte of a big read): *data is them
	 * (buf, or memory of the store's), and when *ref is not NULL they
	 * stay there, unchanged, until read_done(ref) */
	ssize_t (*read_ref)(void *ctx, uint64_t ino,
			    const struct ol_layout *l, uint64_t size,
			    uint64_t off, void *buf, size_t len,
			    const void **data, void **ref);
	void (*read_done)(void *ctx, void *ref);
	int (*truncate)(void *ctx, uint64_t ino, const struct ol_layout *l,
			uint64_t old_size, uint64_t new_size);
	int (*remove)(void *ctx, uint64_t ino, const struct ol_layout *l,
		      uint64_t size);
	int (*sync)(void *ctx, uint64_t ino, const struct ol_layout *l,
		    uint64_t size);
	/* optional: an error written-back data met (ol_flush) */
	int (*flush)(void *ctx, uint64_t ino);
	/* optional: 0 when flush never has anything to report (a store
	 * that writes through); NULL: flush is asked whenever it is set */
	int (*flush_needed)(void *ctx);
	/* optional: remove's work done (ol_removed): 0 or its error */
	int (*removed)(void *ctx, uint64_t ino);
	int (*space)(void *ctx, struct ol_space *s);
	void (*default_layout)(void *ctx, struct ol_layout *l);
	/* ol_pool_lookup: a pool by name or id (layouts name pools) */
	int (*pool_lookup)(void *ctx, const char *key, int64_t *id,
			   char *name, size_t len);
	int (*locate)(void *ctx, int64_t pool, const char *objname,
		      struct ol_placement *p);
	/* The inode's backtrace (backtrace.h) on its object 0, made when
	 * missing; data, when not NULL, becomes the object's bytes (a
	 * symlink's target); sync: durable before returning.  get: *bt
	 * malloc'ed.  remove: object 0 of an inode that has no data objects
	 * (0 if absent).  NULL in stores that keep no backtraces. */
	int (*set_backtrace)(void *ctx, uint64_t ino, const void *bt,
			     size_t len, const void *data, size_t dlen,
			     int sync);
	int (*get_backtrace)(void *ctx, uint64_t ino, void **bt, size_t *len);
	int (*remove_backtrace)(void *ctx, uint64_t ino);
	/* Size and mtime of object `objectno` of a file, -ENOENT when it
	 * does not exist: the probe of a file whose size must be recovered
	 * after a crash (wrange.c). */
	int (*obj_stat)(void *ctx, uint64_t ino, const struct ol_layout *l,
			uint64_t objectno, uint64_t *size,
			struct timespec *mtime);
	/* ol_fallocate's contract */
	int (*fallocate)(void *ctx, uint64_t ino, const struct ol_layout *l,
			 uint64_t off, uint64_t len, enum ol_falloc_mode mode);
	/* bytes the file's objects hold (ol_file_bytes_upto: size is where
	 * its data ends, UINT64_MAX when that is not known); NULL: size */
	int (*allocated)(void *ctx, uint64_t ino, const struct ol_layout *l,
			 uint64_t size, uint64_t *bytes);
	/* optional: the cluster's fsid (the ceph.cluster_fsid vxattr) */
	void (*fsid)(void *ctx, char *buf, size_t len);
};
extern const struct vfs_data_ops vfs_objlayer_ops;

/* Who is asking (FUSE request context). */
struct vfs_cred {
	uint32_t uid, gid;
	int ngroups;		/* supplementary groups, may be 0 */
	const uint32_t *groups;
	uint32_t umask;		/* applied to new modes; 0 when the kernel did */
};

struct vfs_entry {
	uint64_t ino;
	uint64_t generation;
	struct stat attr;
	/* a regular file that holds no data (empty, nothing preallocated,
	 * no write range open; its object 0 may hold just the backtrace):
	 * its st_blocks (0) needs no look at the store (vfs_fill_blocks) */
	int made_empty;
};

struct vfs_opts {
	int noatime;		/* never update atime on read (else relatime) */
	int readonly;		/* refuse every change with -EROFS */
	/* No SELinux on this host (the daemon looks in /proc/filesystems):
	 * security.selinux of an inode that never had an xattr answers
	 * -EOPNOTSUPP, not -ENODATA (vfs_xattr.c says why). */
	int no_selinux;
	/* The purge queue's capacity in inodes (0: purge_queue.c's
	 * PQ_MAX); tests set a small one to reach its back-pressure. */
	unsigned purge_max;
	/* How long removals must pause before its worker starts (ms; 0:
	 * purge_queue.c's PQ_QUIET_MS); tests set a long one to see the
	 * start at half the ring alone. */
	unsigned purge_quiet_ms;
};

/* Takes no ownership of m / data ctx.  Purges the orphans left by a
 * crash (inodes unlinked while open) before returning. */
int vfs_new(mds *m, const struct vfs_data_ops *ops, void *data_ctx,
	    const struct vfs_opts *opts, vfs **out);
/* Unmount: persists every pending size/time change, purges unlinked
 * inodes (the kernel's references end with the mount), frees. */
void vfs_free(vfs *v);
/* Persist pending size/time changes of every cached inode (they are
 * also written on flush/fsync/release) and every pending backtrace. */
int vfs_flush_all(vfs *v, int sync);
/* The daemon's periodic pass: the same, but only the backtraces whose
 * inode has not changed links for a while (bt_flush.c). */
int vfs_flush_periodic(vfs *v);

/* The purge queue (purge_queue.c): a removed file's objects go in the
 * background after its last reference.  Drain: purge every inode queued
 * now and wait for the one in flight; returns how many there were.  The
 * unmount (vfs_free), a write refused with ENOSPC and tests drain. */
size_t vfs_purge_drain(vfs *v);
struct vfs_purge_stats {
	uint64_t pending;	/* queued or being purged now */
	uint64_t queued;	/* ever queued */
	uint64_t by_worker, by_drain;	/* purged from the queue */
	uint64_t by_caller;	/* queue full: purged by the releasing call */
	uint64_t capacity;	/* queued beyond this: purged by the caller */
};
void vfs_purge_stats(vfs *v, struct vfs_purge_stats *s);
/* Tests: hold (1) or free (0) the queue's worker, so that what is queued
 * stays queued until a drain (deterministic backlogs). */
void vfs_purge_hold(vfs *v, int hold);

/* ---- namespace ---- */
int vfs_lookup(vfs *v, uint64_t parent, const char *name,
	       struct vfs_entry *e);
void vfs_forget(vfs *v, uint64_t ino, uint64_t nlookup);
int vfs_getattr(vfs *v, uint64_t ino, struct stat *st);
/* st_blocks of a regular file from what its objects hold, not its size
 * (a sparse file's du is its data), as a local filesystem reports it. */
void vfs_fill_blocks(vfs *v, struct stat *st);
/*
 * The largest file: no byte at or past this offset (EFBIG for a write,
 * truncate or fallocate that would put one there, as CephFS's
 * Client::_write and Client::_setattr refuse a size past the MDS map's
 * max_file_size).  CephFS defaults to 1 TiB because its MDS walks object
 * numbers up to the size to recover a file's size and to purge it; here
 * the object index lists the objects a file has, so neither depends on
 * the size (tests/integ/mount_sparse.sh: a 1 PiB file; pjdfstest's
 * 999,999,999,999,999 bytes), and the limit is what the layout and the
 * names can address: off_t's maximum, which is also the FUSE kernel
 * client's s_maxbytes (MAX_LFS_FILESIZE).  Every layout addresses it:
 * with the smallest object (64 KiB, cfs_layout_check) the last object
 * number is below 2^47, 12 hex digits of the "%llx.%08llx" name, and
 * the striper's uint64_t sums of offset and length cannot wrap below it.
 */
#define VFS_MAX_FILE_SIZE ((uint64_t)INT64_MAX)
/* st_blocks (512-byte units, rounded up) of `bytes`, without overflow. */
blkcnt_t vfs_blocks_of(uint64_t bytes);
/* to_set: VFS_SET_* bits; st supplies the values; the result in out. */
#define VFS_SET_MODE (1 << 0)
#define VFS_SET_UID (1 << 1)
#define VFS_SET_GID (1 << 2)
#define VFS_SET_SIZE (1 << 3)
#define VFS_SET_ATIME (1 << 4)
#define VFS_SET_MTIME (1 << 5)
#define VFS_SET_ATIME_NOW (1 << 7)
#define VFS_SET_MTIME_NOW (1 << 8)
#define VFS_SET_CTIME (1 << 10)
/* c: who asks (NULL: root).  The filesystem clears setuid/setgid itself
 * on chown, and on truncate/write by others than root (libfuse's default
 * FUSE_CAP_HANDLE_KILLPRIV, which spares the kernel a getxattr of
 * security.capability before every write). */
int vfs_setattr(vfs *v, const struct vfs_cred *c, uint64_t ino,
		const struct stat *st, int to_set, struct stat *out);
int vfs_mknod(vfs *v, const struct vfs_cred *c, uint64_t parent,
	      const char *name, mode_t mode, dev_t rdev, struct vfs_entry *e);
int vfs_mkdir(vfs *v, const struct vfs_cred *c, uint64_t parent,
	      const char *name, mode_t mode, struct vfs_entry *e);
int vfs_symlink(vfs *v, const struct vfs_cred *c, const char *target,
		uint64_t parent, const char *name, struct vfs_entry *e);
int vfs_link(vfs *v, uint64_t ino, uint64_t newparent, const char *newname,
	     struct vfs_entry *e);
int vfs_unlink(vfs *v, uint64_t parent, const char *name);
int vfs_rmdir(vfs *v, uint64_t parent, const char *name);
/* flags: 0, RENAME_NOREPLACE or RENAME_EXCHANGE (linux/fs.h values). */
int vfs_rename(vfs *v, uint64_t parent, const char *name, uint64_t newparent,
	       const char *newname, unsigned int flags);
/* Copies the target (not NUL-terminated when it fills buf); returns its
 * length. */
ssize_t vfs_readlink(vfs *v, uint64_t ino, char *buf, size_t size);
int vfs_access(vfs *v, const struct vfs_cred *c, uint64_t ino, int mask);
int vfs_statfs(vfs *v, struct statvfs *st);

/* ---- files ---- */
/* Create and open (O_EXCL honoured: -EEXIST; an existing file is opened
 * otherwise, truncated when O_TRUNC). */
int vfs_create(vfs *v, const struct vfs_cred *c, uint64_t parent,
	       const char *name, mode_t mode, int flags, struct vfs_entry *e,
	       vfs_file **f);
int vfs_open(vfs *v, uint64_t ino, int flags, vfs_file **f);
ssize_t vfs_read(vfs *v, vfs_file *f, uint64_t off, void *buf, size_t len);
/* vfs_read that may leave the bytes in the store (vfs_data_ops read_ref):
 * *data is them; a *ref not NULL goes to vfs_read_done once they are
 * used (replied).  Use them soon: they hold memory of the store's. */
ssize_t vfs_read_ref(vfs *v, vfs_file *f, uint64_t off, void *buf,
		     size_t len, const void **data, void **ref);
void vfs_read_done(vfs *v, void *ref);
/* Returns len, or the bytes written before a refusal, or -errno.  c: the
 * writer (NULL: root), for clearing setuid/setgid/capabilities. */
ssize_t vfs_write(vfs *v, const struct vfs_cred *c, vfs_file *f,
		  uint64_t off, const void *buf, size_t len);
int vfs_flush(vfs *v, vfs_file *f);
/* 1 when vfs_flush(f) can only return 0: the kernel need not send a
 * FLUSH on each close of f (FOPEN_NOFLUSH). */
int vfs_file_noflush(vfs *v, const vfs_file *f);
int vfs_fsync(vfs *v, vfs_file *f, int datasync);
int vfs_release(vfs *v, vfs_file *f);
/* fallocate(2) (vfs_falloc.c).  mode: 0, FALLOC_FL_KEEP_SIZE,
 * FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, FALLOC_FL_ZERO_RANGE with or
 * without KEEP_SIZE (the modes FUSE passes); others -EOPNOTSUPP.  Space is
 * really allocated (-ENOSPC as for a write); without KEEP_SIZE the file
 * grows to off + len.  c: the caller (NULL: root), as for vfs_write. */
int vfs_fallocate(vfs *v, const struct vfs_cred *c, vfs_file *f, int mode,
		  uint64_t off, uint64_t len);
/* 1 (once) when a write through f changed the inode's mode (setuid
 * cleared): the kernel's cached attributes must be dropped.  Safe
 * against concurrent writes through f. */
int vfs_file_attr_changed(vfs_file *f);

/* ---- directories ---- */
int vfs_opendir(vfs *v, uint64_t ino, vfs_dir **d);
/* Calls fill for each entry from offset off ("." and ".." first); fill
 * returns non-zero when the reply buffer is full (the entry was not
 * taken).  With plus, every entry but "." and ".." passed to fill holds a
 * lookup reference, dropped again here when fill refuses it.  Returns the
 * number of entries taken or -errno. */
typedef int (*vfs_fill_fn)(void *arg, const char *name,
			   const struct vfs_entry *e, uint64_t next_off);
int vfs_readdir(vfs *v, vfs_dir *d, uint64_t off, int plus, vfs_fill_fn fill,
		void *arg);
int vfs_fsyncdir(vfs *v, vfs_dir *d);
int vfs_releasedir(vfs *v, vfs_dir *d);

/* ---- extended attributes ---- */
/* flags: 0, XATTR_CREATE, XATTR_REPLACE.  "system.posix_acl_access" and
 * "system.posix_acl_default" are POSIX ACLs kept consistent with the mode
 * (vfs_acl.c); c (the caller, NULL: root) decides whether setting an
 * access ACL keeps setgid. */
int vfs_setxattr(vfs *v, uint64_t ino, const char *name, const void *val,
		 size_t size, int flags);
int vfs_setxattr_as(vfs *v, const struct vfs_cred *c, uint64_t ino,
		    const char *name, const void *val, size_t size, int flags);
/* size 0: return the value's length; too small: -ERANGE. */
ssize_t vfs_getxattr(vfs *v, uint64_t ino, const char *name, void *buf,
		     size_t size);
ssize_t vfs_listxattr(vfs *v, uint64_t ino, char *buf, size_t size);
int vfs_removexattr(vfs *v, uint64_t ino, const char *name);

/* ---- introspection (locate, admin socket, tests) ---- */
/* Resolve an absolute path inside the filesystem ("/a/b"), without
 * following a final symlink; no lookup reference is taken. */
int vfs_resolve(vfs *v, const char *path, uint64_t *ino);
/* The inode record as the daemon sees it (pending size included). */
int vfs_stat_inode(vfs *v, uint64_t ino, struct mds_inode *out);
/* Cached inodes and the sum of their lookup counts (tests). */
void vfs_counts(vfs *v, uint64_t *cached, uint64_t *lookups);

/* Virtual xattrs (vxattr.c): CephFS's ceph.file.layout[.field] and
 * ceph.dir.layout[.field], crushfs.layout[.field] and crushfs.placement.
 * Return -ENODATA when name is not one of them. */
ssize_t vxattr_get(vfs *v, const struct mds_inode *in, const char *name,
		   void *buf, size_t size);
/* The new layout of an empty regular file or of a directory (*out). */
int vxattr_set_layout(vfs *v, const struct mds_inode *in, const char *name,
		      const char *val, size_t len, struct ol_layout *out);
/* 0 when a directory's layout may be dropped (then clear it), -errno. */
int vxattr_remove(vfs *v, const struct mds_inode *in, const char *name);
int vxattr_is_virtual(const char *name);

#endif
