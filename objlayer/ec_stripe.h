/*
 * ec_stripe.h - how an object of an erasure-coded pool lies on its shards,
 * as Ceph's ECUtil::stripe_info_t lays it out: the object is cut into
 * stripes of k chunks of `chunk` bytes (stripe_width = k x chunk, the
 * pool's stripe_width; chunk is the profile's stripe_unit); shard i < k
 * holds chunk i of every stripe, one stripe after the other, and coding
 * shard k + j holds coding chunk j of every stripe at the same offsets.
 * Logical byte L is on shard (L mod stripe_width) / chunk at offset
 * (L / stripe_width) x chunk + L mod chunk.  Every shard is as long as
 * the object's stripes, the last stripe padded with zeros
 * (ECUtil::logical_to_next_stripe_offset).  Pure computation over the
 * codec (ec_codec.h); internal to objlayer/.
 */
#ifndef CRUSHFS_EC_STRIPE_H
#define CRUSHFS_EC_STRIPE_H

#include <stddef.h>
#include <stdint.h>

struct ec_codec;

struct ec_stripe {
	int k, m;
	uint32_t chunk;
};

/* k x chunk */
uint64_t ec_stripe_width(const struct ec_stripe *s);
/* A shard's length for an object of size bytes (whole stripes). */
uint64_t ec_shard_len(const struct ec_stripe *s, uint64_t size);
/* Where logical byte off lies: its data shard and the offset there. */
void ec_locate(const struct ec_stripe *s, uint64_t off, int *shard,
	       uint64_t *shard_off);
/* The whole stripes covering [off, off + len): the first, how many
 * (0 for len 0). */
void ec_stripe_span(const struct ec_stripe *s, uint64_t off, uint64_t len,
		    uint64_t *first, uint64_t *count);

/*
 * A write of [off, off + len) to an object of size bytes rewrites whole
 * stripes [first, first + count): the bytes of them it does not cover
 * come from the object as it is (read_head: the first stripe's bytes
 * before off; read_tail: the last stripe's after off + len), unless they
 * lie past size (zeros).  Ceph's ECTransaction read-modify-write plan.
 */
struct ec_rmw {
	uint64_t first, count;
	int read_head, read_tail;
};
void ec_rmw_plan(const struct ec_stripe *s, uint64_t size, uint64_t off,
		 uint64_t len, struct ec_rmw *p);

/* Encode n whole stripes: data holds n x stripe_width bytes in logical
 * order; shards[0..k+m) get n x chunk bytes each. */
void ec_stripes_encode(const struct ec_codec *c, const struct ec_stripe *s,
		       const unsigned char *data, uint64_t n,
		       unsigned char *const *shards);
/* The two halves of it, each on its own (ec_object.c does them on the
 * shards' writer threads): data shard i's n x chunk bytes gathered into
 * out; the coding shards' into shards[k..k+m), straight from data. */
void ec_stripes_gather(const struct ec_stripe *s, const unsigned char *data,
		       uint64_t n, int i, unsigned char *out);
void ec_stripes_parity(const struct ec_codec *c, const struct ec_stripe *s,
		       const unsigned char *data, uint64_t n,
		       unsigned char *const *shards);
/*
 * The logical bytes of n stripes from their shards: shards[i] holds shard
 * i's n x chunk bytes, or is NULL when that shard is missing; data gets
 * n x stripe_width bytes.  With rebuild set, the missing shards' bytes go
 * to rebuild[i] (where non-NULL) too, for recovery.  0, or -EIO when
 * fewer than k shards are present; -ENOMEM.
 */
int ec_stripes_decode(const struct ec_codec *c, const struct ec_stripe *s,
		      unsigned char *const *shards, uint64_t n,
		      unsigned char *data, unsigned char *const *rebuild);

#endif
