/*
 * readahead.h - the daemon's own read-ahead of files read in sequence.
 *
 * A data store (vfs_data_ops) wrapped so that a file read from start to
 * end has its next megabytes read by a few threads of its own while the
 * kernel is still taking the last ones, as ceph-fuse's ObjectCacher reads
 * ahead (readahead_max_bytes, 16.2) and a disk's own readahead does.
 * The kernel's readahead alone asks for the next window only once the
 * reader reaches it, and waits for all of it: the store's disk was idle
 * about 40% of a cold 1 GiB read (docs/performance.md).
 *
 * What is read ahead is verified as every read is (the store's checksums)
 * and is served only while no write, truncate, fallocate or removal of
 * that inode came through the wrapper since it was read; a read-ahead
 * that fails is dropped, and the request reads again itself, so errors
 * and waits stay the request's.
 */
#ifndef CRUSHFS_READAHEAD_H
#define CRUSHFS_READAHEAD_H

#include "vfs.h"

typedef struct fs_ra fs_ra;

/*
 * Wrap ops/ctx: *out_ops and the returned ctx go to vfs_new in their
 * place.  window: bytes read ahead of a sequential reader (rounded to
 * whole megabytes, at most 64 MiB; 0: none, every call passes through).
 * thread_init, when not NULL, runs first on each read-ahead thread (the
 * daemon makes their reads give up instead of waiting for a PG).  NULL
 * when out of memory.
 */
fs_ra *ra_new(const struct vfs_data_ops *ops, void *ctx, size_t window,
		  void (*thread_init)(void), const struct vfs_data_ops **out_ops);
/* After the vfs is gone: stops the threads (waits for their reads). */
void ra_free(fs_ra *ra);

struct ra_stats {
	uint64_t hits;	      /* requests served from what was read ahead */
	uint64_t misses;      /* sequential requests that read themselves */
	uint64_t issued;      /* read-aheads started */
	uint64_t dropped;     /* read-aheads that failed or went stale */
};
void ra_stats(fs_ra *ra, struct ra_stats *s);

#endif
