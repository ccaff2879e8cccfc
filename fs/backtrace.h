/*
 * backtrace.h - where an inode lives, kept with its data: CephFS's
 * inode_backtrace_t (src/include/fs_types.h, src/mds/inode_backtrace.h),
 * which the MDS stores as the "parent" xattr of a file's object 0 so that
 * cephfs-data-scan can rebuild the namespace from the data pool alone.
 *
 * crushfs stores one for every inode (files, directories, symlinks,
 * devices: Ceph keeps directory backtraces in the metadata pool, which
 * crushfs does not have) as the xattr "parent" of object "<ino>.00000000"
 * (objlayer.h ol_obj_setattr; a 0-byte object when the file has no data
 * there).  A symlink's object 0 holds its target as data.
 *
 * What it records: the inode's number, type and mode, owner, rdev, mtime
 * and layout; its ancestry: anc[0] = (parent directory, name) of its
 * primary link, anc[1] = where that directory lives, ... up to the root
 * (CephFS's inode_backpointer_t list); and its other hard links.  Only
 * anc[0] and the links are kept exact (every directory has a backtrace of
 * its own, updated when it moves); the rest is a fallback for a directory
 * whose own backtrace is lost, as in Ceph, where a rename of a directory
 * leaves the ancestry of what lies below it stale.  `stamp` (ns since the
 * epoch, taken when the link change happened) orders two claims of one
 * name: the newer wins.
 *
 * Encoding (little-endian), versioned like Ceph's ENCODE_START: a reader
 * takes any struct_v whose struct_compat it knows and skips payload it
 * does not; the crc32c at the end rejects damaged values.
 *
 *   0  "CFBT"   4  struct_v u8 (1)   5  struct_compat u8 (1)
 *   6  u16 0    8  payload length u32   12 payload   12+len crc32c u32
 *   payload v1: ino u64, mode u32, uid u32, gid u32, rdev u64,
 *     mtime s i64, ns u32, stamp u64, stripe_unit u32, stripe_count u32,
 *     object_size u32, pool i64, flags u32,
 *     nanc u16, nanc x (dirino u64, nlen u8, name),
 *     nlinks u16, nlinks x (dirino u64, nlen u8, name)
 *
 * At most BT_MAX_ENCODED bytes (it shares the object file's xattr space
 * with the copy's checksums): ancestry beyond what fits is cut from the
 * top (BT_F_ANC_CUT), links beyond it dropped (BT_F_LINKS_CUT).
 */
#ifndef CRUSHFS_BACKTRACE_H
#define CRUSHFS_BACKTRACE_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "objlayer.h"

#define BT_XATTR "parent"
#define BT_MAX_ENCODED 2048
#define BT_F_ANC_CUT 0x1
#define BT_F_LINKS_CUT 0x2

struct bt_dentry {
	uint64_t dirino;
	const char *name; /* NUL-terminated, 1..255 bytes, no '/' */
};

struct backtrace {
	uint64_t ino;
	uint32_t mode, uid, gid;
	uint64_t rdev;
	struct timespec mtime;
	uint64_t stamp;
	struct ol_layout layout;
	uint32_t flags;
	size_t nanc, nlinks;
	struct bt_dentry *anc;	 /* anc[0]: the primary link */
	struct bt_dentry *links; /* the other hard links */
	void *mem_;		 /* decoded: one allocation for all */
};

/* Encode into buf (cap >= 64); *len gets the size.  -EINVAL for a record
 * that is not one (no ino, a bad name), -ENOSPC when not even the fixed
 * part and anc[0] fit. */
int bt_encode(const struct backtrace *bt, void *buf, size_t cap,
	      size_t *len);
/* Decode; CFS_ECORRUPT for damaged or foreign bytes, -EPROTO for a
 * struct_compat newer than this code.  Free with bt_free. */
int bt_decode(const void *buf, size_t len, struct backtrace *out);
void bt_free(struct backtrace *bt);

#endif
