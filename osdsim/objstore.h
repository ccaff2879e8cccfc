/*
 * objstore.h - the object copies on one OSD (part of osdsim.h): open,
 * read and write them with their checksum records, copy and remove them,
 * list a PG's folder, and keep attributes with a copy.
 */
#ifndef CRUSHFS_OSDSIM_OBJSTORE_H
#define CRUSHFS_OSDSIM_OBJSTORE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef struct cfs_cluster cfs_cluster;

/* ---- objects on one OSD (osd_store.c): an fd cache under the hood ---- */
typedef struct cfs_obj cfs_obj;
#define CFS_OBJ_CREATE 0x1
/* scrub: the file at the copy's path, even when an open one is cached
 * (a copy deleted or replaced behind the store's back is seen) */
#define CFS_OBJ_VERIFY 0x2
/* -ENOENT when the object (or its PG folder) is not on that OSD. */
int cfs_obj_open(cfs_cluster *c, int osd, int64_t pool, uint32_t ps, const char *name,
		 int flags, cfs_obj **out);
/* A copy the PG state says osd holds was found gone from its folder
 * (deleted behind the store's back: scrub, CFS_OBJ_VERIFY): the store
 * stops counting it (its cached size, else size) and forgets its fd. */
void cfs_obj_vanished(cfs_cluster *c, int osd, int64_t pool, uint32_t ps,
		      const char *name, uint64_t size);
void cfs_obj_put(cfs_obj *o);
uint64_t cfs_obj_size(const cfs_obj *o);
/*
 * Every copy carries a checksum record (crc32c per block) and the object
 * version it holds (objcsum.c).  Reads verify what they return: -EBADMSG
 * when the bytes or the record do not match (the copy is rotten, torn by a
 * crash, or has no record).  Writes and truncates update the record in
 * memory and refuse (-EBADMSG) to change a copy it does not vouch for;
 * cfs_obj_commit() then stores it with the new version, after the data.
 */
/* Short count at end of object. */
ssize_t cfs_obj_pread(cfs_obj *o, void *buf, size_t len, uint64_t off);
/* All or -errno; usage follows the new size. */
int cfs_obj_pwrite(cfs_obj *o, const void *buf, size_t len, uint64_t off);
/* The same, around the page cache (O_DIRECT) when buf, len and off are
 * 4 KiB-aligned and len is at least 128 KiB (else as cfs_obj_pwrite):
 * no copy into page-cache pages, but the caller waits for the device.
 * Same durability (fsync still needed) and checksum record. */
int cfs_obj_pwrite_direct(cfs_obj *o, const void *buf, size_t len,
			  uint64_t off);
/* The same, buffered, with the range's writeback started at once when
 * len is at least 128 KiB (a hint; fsync still needed). */
int cfs_obj_pwrite_wb(cfs_obj *o, const void *buf, size_t len, uint64_t off);
int cfs_obj_truncate(cfs_obj *o, uint64_t size);
int cfs_obj_commit(cfs_obj *o, uint64_t version);
/* Empty the copy with a fresh record (a write_full, or a leftover file
 * of an object that does not exist). */
int cfs_obj_reset(cfs_obj *o);
/*
 * A copy's bytes and checksum record as they are on disk, unchecked, and
 * put back so: what undoes an interrupted erasure-coded change (objlayer
 * ec_io.c stashes both before it, restores both after a crash).  raw
 * record: its length (0: none), -ERANGE when len is too small.
 */
ssize_t cfs_obj_raw_pread(cfs_obj *o, void *buf, size_t len, uint64_t off);
ssize_t cfs_obj_raw_record(cfs_obj *o, void *buf, size_t len);
#define CFS_OBJ_RECORD_MAX 8192
int cfs_obj_raw_restore(cfs_obj *o, const void *buf, size_t n, uint64_t off,
			uint64_t size, const void *rec, size_t reclen);
/* 1 if the copy carries a checksum record (valid or not). */
int cfs_obj_has_record(cfs_obj *o);
/* The version the copy's record names; -EBADMSG without a valid record. */
int cfs_obj_version(cfs_obj *o, uint64_t *version);
/* Read and check every block: 0 or -EBADMSG (deep scrub). */
int cfs_obj_verify(cfs_obj *o);
/* Trust the data as it is: compute a new record (adopting copies made
 * before checksums existed). */
int cfs_obj_rebuild_csum(cfs_obj *o, uint64_t version);
/* crc32c (Castagnoli), chainable: crc of A||B = cfs_crc32c(crc(A), B). */
uint32_t cfs_crc32c(uint32_t crc, const void *buf, size_t len);
int cfs_obj_sync(cfs_obj *o);
struct timespec;
int cfs_obj_mtime(cfs_obj *o, struct timespec *ts);
/* Unlink (0 if absent); usage drops at once. */
int cfs_obj_remove(cfs_cluster *c, int osd, int64_t pool, uint32_t ps, const char *name);
/*
 * Copy an object from src to dst (same PG): a temporary file is written,
 * fsynced, checked against the source's checksums, then renamed over the
 * old copy, so a reader never sees a half-copied object and an interruption
 * leaves the old copy.  The copy carries the source's record and every
 * user.crushfs.* xattr.  -ENOENT if src lacks it, -EBADMSG if the source
 * fails its checksums (a bad copy never spreads).  *bytes gets the object size.  Used by
 * recovery and rebalance; the caller reserves space on dst.
 */
int cfs_obj_copy(cfs_cluster *c, int src, int dst, int64_t pool, uint32_t ps,
		 const char *name, uint64_t *bytes);
/* Path for display (locate). */
int cfs_obj_path(cfs_cluster *c, int osd, int64_t pool, uint32_t ps, const char *name,
		 char *buf, size_t len);

/* Objects of a PG on one OSD: name and size, sorted by name. */
struct cfs_obj_entry {
	char *name;
	uint64_t size;
};
int cfs_pg_list(cfs_cluster *c, int osd, int64_t pool, uint32_t ps,
		struct cfs_obj_entry **out, size_t *n);
/* The same with every size 0: names only, cheaper (no stat per file). */
int cfs_pg_list_names(cfs_cluster *c, int osd, int64_t pool, uint32_t ps,
		      struct cfs_obj_entry **out, size_t *n);
void cfs_obj_entries_free(struct cfs_obj_entry *e, size_t n);
/* Remove an OSD's (empty) PG folder. */
int cfs_pg_remove_dir(cfs_cluster *c, int osd, int64_t pool, uint32_t ps);

/*
 * An erasure pool keeps shard i of its PG ps as a PG of its own: every
 * call here that takes a seed takes ps * width + i for it (width = k+m,
 * the pool's size), its folder Ceph's "POOL.PSs<i>_head".  So holders,
 * missing sets, usage and backfill are per shard, and an OSD holding two
 * shards of one PG keeps them apart.
 */
static inline uint32_t cfs_shard_ps(uint32_t ps, int width, int shard)
{
	return ps * (uint32_t)width + (uint32_t)shard;
}

/* ---- object attributes (obj_xattr.c): named values kept with one
 * copy of an object, as RADOS object xattrs (the CephFS backtrace) ----
 * key: [^/]+, at most 240 bytes.  -ENOENT when the copy is not on that
 * OSD, -ENODATA when it has no such attribute; get returns the value's
 * length (len 0: only the length; too small a buffer: -ERANGE). */
int cfs_obj_setxattr(cfs_cluster *c, int osd, int64_t pool, uint32_t ps, const char *name,
		     const char *key, const void *val, size_t len);
ssize_t cfs_obj_getxattr(cfs_cluster *c, int osd, int64_t pool, uint32_t ps,
			 const char *name, const char *key, void *val,
			 size_t len);
/* A digest of every attribute of the copy (names and values, in name
 * order; 0: it has none), -ENOENT when the copy is not there: scrub
 * compares copies' attributes by it, as Ceph's be_compare_scrubmaps
 * compares their attrs. */
int cfs_obj_attrs_digest(cfs_cluster *c, int osd, int64_t pool, uint32_t ps,
			 const char *name, uint32_t *digest);

#endif
