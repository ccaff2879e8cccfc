/*
 * vfs_i.h - layouts and helpers shared by the vfs*.c files, inode_table.c
 * and vxattr.c.
 */
#ifndef CRUSHFS_VFS_I_H
#define CRUSHFS_VFS_I_H

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "kv.h"
#include "util.h"
#include "vfs.h"

/* Every open file and directory handle is on its vfs's list, so that an
 * unmount with handles the kernel never released (it drops pending
 * RELEASEs when the connection goes) still closes them. */
struct vfs_handle {
	struct vfs_handle *prev, *next;
	int is_dir;
};

/* A live inode: referenced by the kernel (lookup count), by open handles
 * or by a call in progress (pins).  The record in memory is the truth; it
 * is written back whole, under m, whenever it changes in ways that must
 * persist, and lazily (dirty) for size/time updates of the data path. */
struct vnode {
	uint64_t ino;
	struct vnode *hnext;
	/* under vfs.tlock */
	uint64_t nlookup;
	uint32_t nopen;
	uint32_t pins;
	/* Serializes data I/O (shared) against truncate and O_APPEND
	 * writes (exclusive); taken before m. */
	pthread_rwlock_t io;
	/* under m */
	pthread_mutex_t m;
	struct mds_inode rec;
	int dirty;
	/* Regular files (wrange.c): a size the store holds or held last (a
	 * lower bound of the committed size); handles that may write; where
	 * stale bytes may lie past the size when a crashed file could not be
	 * probed (0: none). */
	uint64_t dsize;
	uint32_t nwriters;
	uint64_t stale_to;
	/* Directories (vx_new_file_layout): the layout of the nearest
	 * ancestor that has one, valid while lay_gen equals the vfs's
	 * layout_gen (0: never computed); lay_own 0: none, the default. */
	uint64_t lay_gen;
	struct ol_layout lay;
	int lay_own;
};

struct vfs {
	mds *m;
	kv *db;
	const struct vfs_data_ops *d;
	void *dctx;
	struct vfs_opts opts;
	/* Namespace lock: shared for lookups and listings, exclusive for
	 * changes of directory entries and link counts. */
	pthread_rwlock_t ns;
	/* Inode table. */
	pthread_mutex_t tlock;
	struct vnode **tab;
	size_t nbuckets, count;
	/* the most inodes cached since memory was last trimmed (vfs.c) */
	size_t trim_most;
	/* Serializes the loading of inodes whose size must be recovered
	 * from their objects (wrange.c), so that a second loader finds the
	 * first one's result. */
	pthread_mutex_t rlock;
	/* Purged inodes whose records are still to be deleted (in the next
	 * write-back batch: their orphan marks cover a crash meanwhile). */
	pthread_mutex_t plock;
	struct mds_inode *purged;
	size_t npurged, cappurged;
	/* held over a deletion of those records, taking the list to the
	 * commit: whoever flushes after another finds the other's done
	 * (the purge queue's worker flushes too) */
	pthread_mutex_t pflock;
	/* Open handles. */
	pthread_mutex_t hlock;
	struct vfs_handle handles; /* list head */
	/* Backtraces not written yet (bt_queue.c); NULL: none kept. */
	struct btq *btq;
	/* Dead inodes waiting for their purge (purge_queue.c); NULL: purged
	 * by whoever drops the last reference (read-only views, teardown). */
	struct pq *pq;
	/* Moves on every change that can change which layout a new file
	 * takes (a directory's layout set or removed, a directory moved
	 * under another parent): the directories' kept layouts go stale. */
	_Atomic uint64_t layout_gen;
};

/* vxattr.c: a directory's layout is set (else its files take the nearest
 * ancestor's); the layout a new file in dir takes */
int vx_layout_set(const struct ol_layout *l);
void vx_effective_layout(vfs *v, const struct mds_inode *dir,
			 struct ol_layout *l);
/* The same for a new file in dv (dv->m held), kept in dv. */
void vx_new_file_layout(vfs *v, struct vnode *dv, struct ol_layout *l);
/* After a change that layout_gen counts, once it is committed. */
static inline void vx_layouts_changed(vfs *v)
{
	atomic_fetch_add(&v->layout_gen, 1);
}

struct vfs_file {
	struct vfs_handle h; /* first: handles are listed as vfs_handle */
	struct vnode *vn;
	int flags;
	int privs_killed;	/* setuid/caps cleared for this writer */
	int attr_changed;	/* mode changed behind the kernel's back
				 * (__atomic: set under vn->m, taken by the
				 * replying thread) */
};

struct vfs_dent {
	char *name;
	uint64_t ino;
	uint8_t type;
};

struct vfs_dir {
	struct vfs_handle h; /* first */
	struct vnode *vn;
	pthread_mutex_t lock;
	struct vfs_dent *ents;
	size_t n;
	int loaded;
};

/* ---- inode table (inode_table.c) ---- */
int itab_init(vfs *v);
/* Drop everything: persist dirty records, purge unlinked inodes. */
void itab_destroy(vfs *v);
/* Find or load ino; pins it; adds `lookup` to its lookup count. */
int vn_get(vfs *v, uint64_t ino, uint64_t lookup, struct vnode **out);
/* A vnode for a record just created (not in the table yet); pinned. */
int vn_insert_new(vfs *v, const struct mds_inode *rec, uint64_t lookup,
		  uint32_t nopen, struct vnode **out);
void vn_put(vfs *v, struct vnode *vn);
void vn_forget(vfs *v, uint64_t ino, uint64_t n);
void vn_ref(vfs *v, struct vnode *vn, uint64_t lookup, uint32_t nopen);
/* Release one open handle (and the pin it implied). */
void vn_close(vfs *v, struct vnode *vn);
/* Write the record back if dirty (sync: WAL synced too, dirty or not).
 * Caller holds vn->m. */
int vn_persist_locked(vfs *v, struct vnode *vn, int sync);
/* Remove a dead inode's objects and records (nlink 0, unreferenced).
 * With defer, the objects go at once and the records with the next
 * write-back (vfs_flush_all) or vn_flush_purged. */
int vn_purge_rec(vfs *v, const struct mds_inode *rec, int defer);
/* Delete the records of the inodes purged with defer, in one batch. */
int vn_flush_purged(vfs *v);
int itab_flush_all(vfs *v, int sync);
void itab_counts(vfs *v, uint64_t *cached, uint64_t *lookups);

void vfs_fill_stat(const struct mds_inode *r, struct stat *st);

/* ---- the purge queue (purge_queue.c): dead inodes (nlink 0, no
 * lookups, not open) purged by a background worker ---- */
/* Start the worker (nothing on a read-only view or one without data). */
int pq_start(vfs *v);
/* Queue rec's inode (by number); purged here when there is no queue or
 * it is full (back-pressure).  No table or namespace lock held. */
void pq_add(vfs *v, const struct mds_inode *rec);
/* Purge what is queued now and wait for the worker's purge in flight:
 * how many inodes that was (0: nothing was pending).  Any thread that
 * holds no namespace lock; vnodes of live inodes may be locked. */
size_t pq_drain(vfs *v);
/* Drain, stop the worker, free; later removals are purged at once. */
void pq_stop(vfs *v);

/* ---- backtraces (bt_queue.c, bt_flush.c, bt_resume.c): each inode's
 * place, kept with its first object (backtrace.h), written lazily; vfs.c
 * notes link changes after committing them ---- */
int btq_new(vfs *v);
void btq_free(vfs *v);
/* ino's only link is now dir/name (create, mkdir, rename of a file with
 * one link or of a directory) */
void btq_set(vfs *v, uint64_t ino, uint64_t dir, const char *name);
/* The same for an inode number never used before (make_node), in two
 * steps: btq_mark_new puts its crash mark in the caller's batch, so the
 * create costs one store write, not two; btq_set_marked notes it once
 * that batch is committed. */
void btq_mark_new(vfs *v, kv_batch *b, uint64_t ino, uint64_t dir,
		  const char *name);
void btq_set_marked(vfs *v, uint64_t ino, uint64_t dir, const char *name);
/* a link added / removed (the inode has others) */
void btq_add(vfs *v, uint64_t ino, uint64_t dir, const char *name);
void btq_del(vfs *v, uint64_t ino, uint64_t dir, const char *name);
/* mode or owner changed: rewrite with the links it has */
void btq_touch(vfs *v, uint64_t ino);
/* a rename: set when only_link, else del + add */
void btq_move(vfs *v, uint64_t ino, int only_link, uint64_t odir,
	      const char *oname, uint64_t ndir, const char *nname);
/* Write what is pending: of ino (0: every inode); sync makes it durable;
 * final: failures are logged and dropped instead of kept for a retry. */
int btq_flush(vfs *v, uint64_t ino, int sync, int final);
/* The daemon's periodic pass: backtraces unchanged for a while only. */
int btq_flush_old(vfs *v);
/* The inode is being purged: drop what is pending, wait for a write in
 * flight. */
void btq_forget(vfs *v, uint64_t ino);
/* At mount: note again what a crash left pending (the store's marks). */
int btq_resume(vfs *v);

/* ---- helpers shared by the vfs*.c files (vfs.c) ---- */
void fill_entry(struct vnode *vn, struct vfs_entry *e);
/* Lock the record mutexes of up to 4 vnodes in inode order (no dups). */
int lock_set(struct vnode **in, int n, struct vnode **out);
/* Parent of a directory (from its record). */
uint64_t dir_parent(struct vnode *dv);
/* A live directory, pinned: -ENOTDIR, -ENOENT (removed) otherwise. */
int get_dir(vfs *v, uint64_t ino, struct vnode **out);
void handle_add(vfs *v, struct vfs_handle *h, int is_dir);
void handle_del(vfs *v, struct vfs_handle *h);
/* vfs_names.c: a new inode and its entry in parent (create, mknod,
 * mkdir, symlink); *out, when given, gets it pinned. */
int make_node(vfs *v, const struct vfs_cred *c, uint64_t parent,
	      const char *name, mode_t mode, dev_t rdev, const char *target,
	      uint32_t nopen, struct vfs_entry *e, struct vnode **out);
/* vfs_file.c: change the size of a regular file (setattr, O_TRUNC). */
int do_truncate(vfs *v, struct vnode *vn, uint64_t size, int touch);
/* vfs_file.c: what a write by c through f clears (setuid/setgid, file
 * capabilities). */
int kill_privs(vfs *v, const struct vfs_cred *c, vfs_file *f);
/* vfs_acl.c: POSIX ACLs (the xattrs below) kept consistent with the
 * mode. */
#define ACL_XATTR_ACCESS "system.posix_acl_access"
#define ACL_XATTR_DEFAULT "system.posix_acl_default"
#define ACL_T_ACCESS 1
#define ACL_T_DEFAULT 2
/* ACL_T_* of an xattr name, 0 for other names. */
int acl_name_type(const char *name);
/* setxattr (val != NULL) or removexattr of an ACL; c: the caller (NULL:
 * root), for the setgid rule.  Takes vn->m. */
int acl_set(vfs *v, const struct vfs_cred *c, struct vnode *vn, int type,
	    const void *val, size_t size, int flags);
/* chmod to r->mode: the stored access ACL, updated, goes into b; 1 when
 * it did, 0 when r has none, -errno. */
int acl_chmod(vfs *v, const struct mds_inode *r, kv_batch *b);
/* A new inode r in directory dir: inherit dir's default ACL into b
 * (r->mode and r->flags adjusted), or apply umask when it has none. */
int acl_inherit(vfs *v, const struct mds_inode *dir, struct mds_inode *r,
		uint32_t umask, kv_batch *b);
/* vfs_falloc.c: where a file's object bytes may end: its size, or past
 * it up to a preallocated end (MDS_F_PREALLOC). */
uint64_t vn_data_end(vfs *v, const struct mds_inode *r);
/* Truncate to size <= the current size of a file with a preallocated
 * end: objects trimmed from that end, the record dropped.  I/O lock held
 * exclusively, vn->m not held. */
int vn_trim_prealloc(vfs *v, struct vnode *vn, uint64_t size);

#define VFS_LINK_MAX 65000

static inline void now(struct timespec *ts)
{
	clock_gettime(CLOCK_REALTIME, ts);
}

static inline int ts_le(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec ||
	       (a->tv_sec == b->tv_sec && a->tv_nsec <= b->tv_nsec);
}

static inline int check_name(const char *name)
{
	size_t n = strlen(name);

	if (n == 0)
		return -ENOENT;
	if (n > MDS_NAME_MAX)
		return -ENAMETOOLONG;
	if (strchr(name, '/'))
		return -EINVAL;
	return 0;
}

static inline int is_dot(const char *name)
{
	return !strcmp(name, ".") || !strcmp(name, "..");
}

static inline void ns_rd(vfs *v)
{
	pthread_rwlock_rdlock(&v->ns);
}

static inline void ns_wr(vfs *v)
{
	pthread_rwlock_wrlock(&v->ns);
}

static inline void ns_un(vfs *v)
{
	pthread_rwlock_unlock(&v->ns);
}

/* 0 if directory ino is empty (it may be removed or replaced), else
 * -ENOTEMPTY or the store's error. */
static inline int dir_emptiness(struct vfs *v, uint64_t ino)
{
	int rc = mds_dir_empty(v->m, ino);

	return rc < 0 ? rc : rc == 0 ? -ENOTEMPTY : 0;
}

static inline void unlock_set(struct vnode **set, int k)
{
	for (int i = k - 1; i >= 0; i--)
		pthread_mutex_unlock(&set[i]->m);
}

static inline int in_group(const struct vfs_cred *c, uint32_t gid)
{
	if (c->gid == gid)
		return 1;
	for (int i = 0; i < c->ngroups; i++)
		if (c->groups[i] == gid)
			return 1;
	return 0;
}

/* Commit b, which adds (delta > 0) or deletes inode records, with the
 * inode count (statfs). */
static inline int commit_counted(vfs *v, kv_batch *b, int64_t delta)
{
	int rc = mds_commit_counted(v->m, b, delta, 0);

	if (rc)
		cfs_log(CFS_LOG_ERR, "metadata commit failed: %s",
			cfs_strerror(rc));
	return rc;
}

/* Commit b; on success the new records become the in-memory truth and
 * are clean. */
static inline int commit(vfs *v, kv_batch *b)
{
	int rc = kv_batch_commit(v->db, b, 0);

	if (rc)
		cfs_log(CFS_LOG_ERR, "metadata commit failed: %s",
			cfs_strerror(rc));
	return rc;
}

/* Mode bits a write/chown/truncate by an unprivileged user clears
 * (should_remove_suid() in Linux). */
static inline uint32_t kill_bits(uint32_t mode)
{
	uint32_t k = 0;

	if (!S_ISREG(mode))
		return 0;
	if (mode & S_ISUID)
		k |= S_ISUID;
	if ((mode & S_ISGID) && (mode & S_IXGRP))
		k |= S_ISGID;
	return k;
}

#define XATTR_CAPS "security.capability"

#endif
