/*
 * ec_object.h - one erasure-coded object over its k+m shards: reads that
 * decode around missing or rotten shards, writes that read-modify-write
 * the stripes they touch, truncation.  The shards are reached through
 * callbacks (the store's shard files, or a test's memory), so this is the
 * coding logic alone: where shards live, their versions and the crash
 * safety of a multi-shard change belong to the caller.  Internal to
 * objlayer/.
 */
#ifndef CRUSHFS_EC_OBJECT_H
#define CRUSHFS_EC_OBJECT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "ec_stripe.h"

struct ec_codec;

struct ec_shard_io {
	/* Up to len bytes of shard i at off: the count (short or 0 past
	 * the shard's end), -ENOENT when the shard is missing, -EBADMSG
	 * when its bytes fail their checksum, another -errno. */
	ssize_t (*read)(void *arg, int shard, uint64_t off, void *buf,
			size_t len);
	/* All len bytes at off, or -errno. */
	int (*write)(void *arg, int shard, uint64_t off, const void *buf,
		     size_t len);
	/* The shard cut or extended (zeros) to len bytes. */
	int (*truncate)(void *arg, int shard, uint64_t len);
	void *arg;
	/* Optional: the calling thread's scratch of at least len bytes,
	 * 4 KiB-aligned and kept between calls (ol_bounce), for the encoded
	 * shards; NULL: one allocation per batch. */
	void *(*scratch)(size_t len);
	/* Optional: write(shard i, off, buf[i], len) for every shard in
	 * mask at once (the shards' devices in parallel), each after
	 * fill(farg, i) made buf[i] on the thread that writes it (fill may
	 * be NULL); the first error. */
	int (*write_many)(void *arg, uint64_t mask, uint64_t off,
			  unsigned char *const *buf, size_t len,
			  void (*fill)(void *farg, int shard), void *farg);
};

struct ec_object {
	const struct ec_codec *codec;
	struct ec_stripe s;
	const struct ec_shard_io *io;
	/* shards known bad before the call (skipped), bit i = shard i */
	uint64_t avoid;
};

/*
 * Read [off, off + len) of an object of size bytes into buf (short at
 * size).  Data shards first; a shard that fails (missing, rotten) is
 * replaced by the next coding shard and the stripes decoded.  *bad gets
 * the shards that failed (to be marked and rebuilt), may be NULL.
 * Bytes read, or -EIO when fewer than k shards give the stripes.
 */
ssize_t ec_object_read(const struct ec_object *o, uint64_t size,
		       uint64_t off, void *buf, size_t len, uint64_t *bad);

/*
 * Write len bytes at off of an object of size bytes: the stripes touched
 * are read where the write does not cover them (ec_rmw_plan), changed,
 * re-encoded and written to every shard not in o->avoid.  *new_size gets
 * max(size, off + len); *bad (may be NULL) the shards the reads found
 * failing.  0, -EIO when the old stripes cannot be decoded, or the first
 * shard write's error (shards then hold a mix: the caller decides, as
 * for any multi-shard change).
 */
int ec_object_write(const struct ec_object *o, uint64_t size, uint64_t off,
		    const void *buf, size_t len, uint64_t *new_size,
		    uint64_t *bad);

/*
 * Cut or extend the object from size to new_size: shards become
 * ec_shard_len(new_size) long, and a cut inside a stripe re-encodes that
 * stripe with zeros past new_size (so a later extension reads zeros).
 */
int ec_object_truncate(const struct ec_object *o, uint64_t size,
		       uint64_t new_size, uint64_t *bad);

#endif
