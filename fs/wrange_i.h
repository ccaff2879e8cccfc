/*
 * wrange_i.h - the writeable range of regular files (wrange.c): what
 * keeps bytes written before a crash, past a size that never reached the
 * store, from coming back as "old" data.
 */
#ifndef CRUSHFS_WRANGE_I_H
#define CRUSHFS_WRANGE_I_H

#include <stdint.h>
#include <time.h>

#include "vfs_i.h"

/* Largest step of max_size beyond the end of a write, in object sets
 * (CephFS mds_client_writeable_range_max_inc_objs, default 1024 objects;
 * smaller here: a crashed file's probe and a truncate-up during a write
 * visit at most this many object sets). */
#define WR_MAX_INC_OBJSETS 16

/* ---- pure (also used by fsck) ---- */

/* The max_size to commit for a write ending at `end` (Locker::
 * calc_new_max_size): twice the end, at most WR_MAX_INC_OBJSETS object
 * sets past it, rounded up to a whole object set.  Saturates. */
uint64_t wr_new_max_size(const struct ol_layout *l, uint64_t end);

/* Size and mtime of object `objectno` of the probed file; -ENOENT when it
 * does not exist. */
typedef int (*wr_stat_fn)(void *ctx, uint64_t objectno, uint64_t *size,
			  struct timespec *mtime);

/* Where the data in [from, to) ends (Filer::probe, backwards): the object
 * sets holding that range are visited from the last one down, and the
 * first set with data gives *end (the file offset after its last byte;
 * 0 when none has any) and *mtime (the newest mtime of its objects).
 * Returns 0 or the first stat error other than -ENOENT. */
int wr_probe(const struct ol_layout *l, uint64_t from, uint64_t to,
	     wr_stat_fn st, void *ctx, uint64_t *end, struct timespec *mtime);

/* Bytes past rec->size that a crash may have left, per the record:
 * [from, to) with from < to, else 0. */
int wr_unrecorded(const struct mds_inode *rec, uint64_t *from, uint64_t *to);

/* ---- on live inodes (vfs) ---- */

/* Recover the size of a file loaded from the store whose writeable range
 * is open (RecoveryQueue): probe, then adopt the data found - size and
 * mtime - and close the range, committed before the inode is used.  When
 * the objects cannot be probed, *stale_to says how far stale bytes may
 * lie; they are cleared before the file grows over them. */
int wr_recover(vfs *v, struct mds_inode *rec, uint64_t *stale_to);

/* Before a write of [off, end): commit a larger writeable range when the
 * committed one does not cover it (Locker::check_inode_max_size).  Holds
 * vn->io shared, or exclusively when *excl; switches to exclusive (and
 * sets *excl) when it has work to do. */
int wr_prepare(vfs *v, struct vnode *vn, uint64_t off, uint64_t end,
	       int *excl);

/* A handle that may write was opened / is being released: the last
 * writer's release closes the writeable range (written back lazily with
 * the size it now matches, as CephFS drops a client's range with its
 * caps). */
void wr_open(struct vnode *vn);
void wr_release(vfs *v, struct vnode *vn);

#endif
