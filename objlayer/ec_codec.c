/*
 * ec_codec.c - Reed-Solomon with ISA-L, laid out as Ceph 16.2's isa plugin
 * lays it out (src/erasure-code/isa/ErasureCodeIsa.cc): the (k+m) x k
 * generator is gf_gen_rs_matrix's Vandermonde matrix, the encode tables
 * come from its last m rows, and a decode inverts the k x k matrix of the
 * rows of k surviving chunks.  ISA-L was chosen by measurement
 * (bench/ec_bench.sh: 3.4-7.8x jerasure's encode, 5.7-7.1x its decode).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <isa-l/erasure_code.h>

#include "ec_codec.h"

struct ec_codec {
	int k, m;
	unsigned char gen[EC_MAX_CHUNKS * EC_MAX_K];
	unsigned char enc_tables[EC_MAX_M * EC_MAX_K * 32];
};

int ec_codec_new(int k, int m, struct ec_codec **out)
{
	struct ec_codec *c;

	if (k < 1 || m < 1 || k > EC_MAX_K || m > EC_MAX_M || k + m > 32)
		return -EINVAL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->k = k;
	c->m = m;
	gf_gen_rs_matrix(c->gen, k + m, k);
	ec_init_tables(k, m, &c->gen[k * k], c->enc_tables);
	*out = c;
	return 0;
}

void ec_codec_free(struct ec_codec *c)
{
	free(c);
}

int ec_codec_k(const struct ec_codec *c)
{
	return c->k;
}

int ec_codec_m(const struct ec_codec *c)
{
	return c->m;
}

void ec_encode(const struct ec_codec *c, unsigned char *const *data,
	       unsigned char **coding, size_t len)
{
	/* ISA-L takes non-const tables it only reads */
	ec_encode_data((int)len, c->k, c->m, (unsigned char *)c->enc_tables,
		       (unsigned char **)data, coding);
}

int ec_decode(const struct ec_codec *c, unsigned char **chunks,
	      const int *present, size_t len)
{
	unsigned char sub[EC_MAX_K * EC_MAX_K], inv[EC_MAX_K * EC_MAX_K];
	unsigned char rows[EC_MAX_CHUNKS * EC_MAX_K];
	unsigned char tables[EC_MAX_CHUNKS * EC_MAX_K * 32];
	unsigned char *src[EC_MAX_K], *dst[EC_MAX_CHUNKS];
	int k = c->k, n = c->k + c->m, nsrc = 0, nlost = 0, lost[EC_MAX_CHUNKS];

	for (int i = 0; i < n; i++) {
		if (present[i]) {
			if (nsrc < k) {
				memcpy(&sub[nsrc * k], &c->gen[i * k],
				       (size_t)k);
				src[nsrc++] = chunks[i];
			}
		} else {
			lost[nlost++] = i;
		}
	}
	if (nlost == 0)
		return 0;
	if (nsrc < k)
		return -EIO;
	/* the surviving rows of a Vandermonde generator are independent
	 * (any k of them: MDS), so the inverse exists */
	if (gf_invert_matrix(sub, inv, k) != 0)
		return -EIO;
	/* row of a lost chunk in terms of the survivors: a data chunk is
	 * its row of the inverse; a coding chunk is its generator row times
	 * the inverse (what the survivors would encode to) */
	for (int e = 0; e < nlost; e++) {
		int i = lost[e];

		if (i < k) {
			memcpy(&rows[e * k], &inv[i * k], (size_t)k);
			continue;
		}
		for (int j = 0; j < k; j++) {
			unsigned char s = 0;

			for (int l = 0; l < k; l++)
				s ^= gf_mul(c->gen[i * k + l], inv[l * k + j]);
			rows[e * k + j] = s;
		}
	}
	for (int e = 0; e < nlost; e++)
		dst[e] = chunks[lost[e]];
	ec_init_tables(k, nlost, rows, tables);
	ec_encode_data((int)len, k, nlost, tables, src, dst);
	return 0;
}
