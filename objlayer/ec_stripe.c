/*
 * ec_stripe.c - the stripe layout of an erasure-coded object (ec_stripe.h),
 * after Ceph 16.2's ECUtil::stripe_info_t and ECTransaction's
 * read-modify-write of partial stripes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ec_codec.h"
#include "ec_stripe.h"

uint64_t ec_stripe_width(const struct ec_stripe *s)
{
	return (uint64_t)s->k * s->chunk;
}

uint64_t ec_shard_len(const struct ec_stripe *s, uint64_t size)
{
	uint64_t sw = ec_stripe_width(s);

	return (size / sw + (size % sw != 0)) * s->chunk;
}

void ec_locate(const struct ec_stripe *s, uint64_t off, int *shard,
	       uint64_t *shard_off)
{
	uint64_t sw = ec_stripe_width(s);

	*shard = (int)((off % sw) / s->chunk);
	*shard_off = off / sw * s->chunk + off % s->chunk;
}

void ec_stripe_span(const struct ec_stripe *s, uint64_t off, uint64_t len,
		    uint64_t *first, uint64_t *count)
{
	uint64_t sw = ec_stripe_width(s);

	*first = off / sw;
	*count = len ? (off + len - 1) / sw - *first + 1 : 0;
}

void ec_rmw_plan(const struct ec_stripe *s, uint64_t size, uint64_t off,
		 uint64_t len, struct ec_rmw *p)
{
	uint64_t sw = ec_stripe_width(s), end = off + len;

	ec_stripe_span(s, off, len, &p->first, &p->count);
	/* old bytes before off in the first stripe, after end in the last:
	 * only where the object has them */
	p->read_head = p->count && off % sw && p->first * sw < size;
	p->read_tail = p->count && end % sw && end < size;
}

void ec_stripes_gather(const struct ec_stripe *s, const unsigned char *data,
		       uint64_t n, int i, unsigned char *out)
{
	uint64_t sw = ec_stripe_width(s);

	for (uint64_t st = 0; st < n; st++)
		memcpy(out + st * s->chunk, data + st * sw + (uint64_t)i * s->chunk,
		       s->chunk);
}

void ec_stripes_parity(const struct ec_codec *c, const struct ec_stripe *s,
		       const unsigned char *data, uint64_t n,
		       unsigned char *const *shards)
{
	uint64_t sw = ec_stripe_width(s);

	/* the codec reads the data chunks where they are in the stripe */
	for (uint64_t st = 0; st < n; st++) {
		unsigned char *d[EC_MAX_K], *cod[EC_MAX_M];

		for (int i = 0; i < s->k; i++)
			d[i] = (unsigned char *)data + st * sw +
			       (uint64_t)i * s->chunk;
		for (int j = 0; j < s->m; j++)
			cod[j] = shards[s->k + j] + st * s->chunk;
		ec_encode(c, d, cod, s->chunk);
	}
}

void ec_stripes_encode(const struct ec_codec *c, const struct ec_stripe *s,
		       const unsigned char *data, uint64_t n,
		       unsigned char *const *shards)
{
	for (int i = 0; i < s->k; i++)
		ec_stripes_gather(s, data, n, i, shards[i]);
	ec_stripes_parity(c, s, data, n, shards);
}

int ec_stripes_decode(const struct ec_codec *c, const struct ec_stripe *s,
		      unsigned char *const *shards, uint64_t n,
		      unsigned char *data, unsigned char *const *rebuild)
{
	int km = s->k + s->m, have = 0, present[EC_MAX_CHUNKS];
	uint64_t sw = ec_stripe_width(s);
	unsigned char *scratch = NULL;

	int need = 0; /* the codec runs only for a chunk someone wants */

	for (int i = 0; i < km; i++) {
		present[i] = shards[i] != NULL;
		have += present[i];
		if (!present[i] && (i < s->k || (rebuild && rebuild[i])))
			need = 1;
	}
	if (have < s->k)
		return -EIO;
	if (need) {
		/* the missing coding chunks nobody asked for go here */
		scratch = malloc((size_t)s->m * s->chunk);
		if (!scratch)
			return -ENOMEM;
	}
	for (uint64_t st = 0; st < n; st++) {
		unsigned char *ch[EC_MAX_CHUNKS];
		unsigned char *out = data + st * sw;
		int r;

		for (int i = 0; i < km; i++) {
			if (present[i])
				ch[i] = shards[i] + st * s->chunk;
			else if (i < s->k)
				ch[i] = out + (uint64_t)i * s->chunk;
			else if (rebuild && rebuild[i])
				ch[i] = rebuild[i] + st * s->chunk;
			else
				ch[i] = scratch ? scratch + (size_t)(i - s->k) *
							      s->chunk
						: NULL;
		}
		if (need) {
			r = ec_decode(c, ch, present, s->chunk);
			if (r) {
				free(scratch);
				return r;
			}
		}
		for (int i = 0; i < s->k; i++) {
			if (present[i])
				memcpy(out + (uint64_t)i * s->chunk, ch[i],
				       s->chunk);
			else if (rebuild && rebuild[i])
				memcpy(rebuild[i] + st * s->chunk, ch[i],
				       s->chunk);
		}
	}
	free(scratch);
	return 0;
}
