/*
 * vfs_i.h - layouts shared by vfs.c, inode_table.c and vxattr.c.
 */
#ifndef CRUSHFS_VFS_I_H
#define CRUSHFS_VFS_I_H

#include <pthread.h>

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
	/* Purged inodes whose records are still to be deleted (in the next
	 * write-back batch: their orphan marks cover a crash meanwhile). */
	pthread_mutex_t plock;
	struct mds_inode *purged;
	size_t npurged, cappurged;
	/* Open handles. */
	pthread_mutex_t hlock;
	struct vfs_handle handles; /* list head */
	/* Backtraces not written yet (bt_queue.c); NULL: none kept. */
	struct btq *btq;
};

struct vfs_file {
	struct vfs_handle h; /* first: handles are listed as vfs_handle */
	struct vnode *vn;
	int flags;
	int privs_killed;	/* setuid/caps cleared for this writer */
	int attr_changed;	/* mode changed behind the kernel's back */
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
 * write-back (vfs_flush_all). */
int vn_purge_rec(vfs *v, const struct mds_inode *rec, int defer);
int itab_flush_all(vfs *v, int sync);
void itab_counts(vfs *v, uint64_t *cached, uint64_t *lookups);

void vfs_fill_stat(const struct mds_inode *r, struct stat *st);

/* ---- backtraces (bt_queue.c): each inode's place, kept with its first
 * object (backtrace.h), written lazily; vfs.c notes link changes after
 * committing them ---- */
int btq_new(vfs *v);
void btq_free(vfs *v);
/* ino's only link is now dir/name (create, mkdir, rename of a file with
 * one link or of a directory) */
void btq_set(vfs *v, uint64_t ino, uint64_t dir, const char *name);
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
/* The inode is being purged: drop what is pending, wait for a write in
 * flight. */
void btq_forget(vfs *v, uint64_t ino);
/* At mount: note again what a crash left pending (the store's marks). */
int btq_resume(vfs *v);

#endif
