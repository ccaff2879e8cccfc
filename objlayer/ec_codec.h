/*
 * ec_codec.h - Reed-Solomon over k data and m coding chunks, as Ceph's isa
 * plugin computes it (ErasureCodeIsaDefault, technique reed_sol_van:
 * ISA-L's Vandermonde generator gf_gen_rs_matrix, w = 8).  Internal to
 * objlayer/: the layer that knows erasure coding.
 *
 * A stripe is k data chunks of `chunk` bytes; encoding adds m coding
 * chunks; any k of the k+m chunks give the stripe back.  Chunk i of every
 * stripe lives on shard i (acting[i] of the PG), shards k..k+m-1 hold the
 * coding chunks.
 */
#ifndef CRUSHFS_EC_CODEC_H
#define CRUSHFS_EC_CODEC_H

#include <stddef.h>
#include <stdint.h>

#define EC_MAX_K 32
#define EC_MAX_M 32
#define EC_MAX_CHUNKS (EC_MAX_K + EC_MAX_M)

struct ec_codec;

/* k >= 1, m >= 1, k + m <= 32 (Ceph's isa plugin limits: k <= 32, m <= 32,
 * k + m <= 32 for the Vandermonde matrix to stay invertible in GF(2^8)).
 * -EINVAL outside, -ENOMEM. */
int ec_codec_new(int k, int m, struct ec_codec **out);
void ec_codec_free(struct ec_codec *c);
int ec_codec_k(const struct ec_codec *c);
int ec_codec_m(const struct ec_codec *c);

/* coding[0..m) = the coding chunks of data[0..k), each len bytes. */
void ec_encode(const struct ec_codec *c, unsigned char *const *data,
	       unsigned char **coding, size_t len);

/*
 * Rebuild the chunks marked missing.  chunks[0..k+m) point at len-byte
 * buffers; present[i] says whether chunks[i] holds its chunk.  Every
 * missing chunk (data or coding) is written.  0, or -EIO when fewer than
 * k chunks are present.  Thread-safe for one codec (decode tables are
 * built per call, on the stack).
 */
int ec_decode(const struct ec_codec *c, unsigned char **chunks,
	      const int *present, size_t len);

#endif
