/*
 * test_ec_stripe.c - an erasure-coded object's stripe layout
 * (objlayer/ec_stripe.c) against a byte-by-byte model of ECUtil's: every
 * logical byte on its shard and offset, shard lengths padded to whole
 * stripes, the stripes a write rewrites and which of them it must read
 * first; n stripes encoded then decoded back with every pattern of up to
 * m lost shards (the lost ones rebuilt byte for byte), m + 1 refused.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ec_codec.h"
#include "ec_stripe.h"

static void test_layout(void **state)
{
	static const struct ec_stripe cases[] = {
		{ 2, 1, 4096 }, { 4, 2, 4096 }, { 3, 2, 512 }, { 8, 3, 64 },
	};

	(void)state;
	for (size_t t = 0; t < sizeof(cases) / sizeof(cases[0]); t++) {
		const struct ec_stripe *s = &cases[t];
		uint64_t sw = (uint64_t)s->k * s->chunk;
		uint64_t seen[8] = { 0 };

		assert_int_equal(ec_stripe_width(s), sw);
		/* walking the logical bytes in order fills each shard in
		 * order, chunk after chunk, stripe after stripe */
		for (uint64_t off = 0; off < 5 * sw; off++) {
			int shard;
			uint64_t so;

			ec_locate(s, off, &shard, &so);
			assert_int_equal(shard, (int)(off / s->chunk % (uint64_t)s->k));
			assert_int_equal(so, seen[shard]);
			seen[shard]++;
		}
		assert_int_equal(ec_shard_len(s, 0), 0);
		assert_int_equal(ec_shard_len(s, 1), s->chunk);
		assert_int_equal(ec_shard_len(s, sw), s->chunk);
		assert_int_equal(ec_shard_len(s, sw + 1), 2 * s->chunk);
		assert_int_equal(ec_shard_len(s, 7 * sw), 7 * s->chunk);
	}
}

static void test_span_and_rmw(void **state)
{
	const struct ec_stripe s = { 2, 1, 4096 };
	const uint64_t sw = 8192;
	struct ec_rmw p;
	uint64_t first, count;

	(void)state;
	ec_stripe_span(&s, 0, 0, &first, &count);
	assert_int_equal(count, 0);
	ec_stripe_span(&s, sw - 1, 2, &first, &count);
	assert_int_equal(first, 0);
	assert_int_equal(count, 2);
	ec_stripe_span(&s, 3 * sw, sw, &first, &count);
	assert_int_equal(first, 3);
	assert_int_equal(count, 1);

	/* whole stripes: nothing to read */
	ec_rmw_plan(&s, 10 * sw, 2 * sw, 3 * sw, &p);
	assert_int_equal(p.first, 2);
	assert_int_equal(p.count, 3);
	assert_false(p.read_head);
	assert_false(p.read_tail);
	/* inside one stripe of an object that has it: both sides */
	ec_rmw_plan(&s, 10 * sw, 2 * sw + 100, 50, &p);
	assert_int_equal(p.first, 2);
	assert_int_equal(p.count, 1);
	assert_true(p.read_head);
	assert_true(p.read_tail);
	/* appending: the head of the last stripe is old data, no tail */
	ec_rmw_plan(&s, sw + 100, sw + 100, 5000, &p);
	assert_int_equal(p.first, 1);
	assert_true(p.read_head);
	assert_false(p.read_tail);
	/* past the end: zeros, nothing to read */
	ec_rmw_plan(&s, sw, 3 * sw + 10, 10, &p);
	assert_int_equal(p.first, 3);
	assert_false(p.read_head);
	assert_false(p.read_tail);
	/* the tail ends exactly at a stripe boundary: nothing after it */
	ec_rmw_plan(&s, 10 * sw, 10, sw - 10, &p);
	assert_true(p.read_head);
	assert_false(p.read_tail);
}

/* Every subset of at most m lost shards: decode gives the data back and
 * rebuilds the lost shards exactly. */
static void check_losses(int k, int m, uint32_t chunk, uint64_t n)
{
	const struct ec_stripe s = { k, m, chunk };
	struct ec_codec *c;
	size_t dlen = (size_t)(n * ec_stripe_width(&s)), slen = chunk * n;
	unsigned char *data = malloc(dlen), *back = malloc(dlen);
	unsigned char *sh[EC_MAX_CHUNKS], *rb[EC_MAX_CHUNKS];
	int km = k + m, tried = 0;

	assert_non_null(data);
	assert_non_null(back);
	assert_int_equal(ec_codec_new(k, m, &c), 0);
	srand((unsigned)(k * 131 + m));
	for (size_t i = 0; i < dlen; i++)
		data[i] = (unsigned char)rand();
	for (int i = 0; i < km; i++) {
		sh[i] = malloc(slen);
		rb[i] = malloc(slen);
		assert_non_null(sh[i]);
		assert_non_null(rb[i]);
	}
	ec_stripes_encode(c, &s, data, n, sh);
	/* the data shards hold the data as the layout places it */
	for (uint64_t off = 0; off < dlen; off += 97) {
		int shard;
		uint64_t so;

		ec_locate(&s, off, &shard, &so);
		assert_int_equal(sh[shard][so], data[off]);
	}
	for (unsigned mask = 0; mask < (1u << km); mask++) {
		unsigned char *in[EC_MAX_CHUNKS];
		int lost = __builtin_popcount(mask);

		if (lost > m + 1)
			continue;
		for (int i = 0; i < km; i++) {
			in[i] = mask >> i & 1 ? NULL : sh[i];
			memset(rb[i], 0xee, slen);
		}
		memset(back, 0xee, dlen);
		if (lost > m) {
			assert_int_equal(ec_stripes_decode(c, &s, in, n, back,
							   rb),
					 -EIO);
			continue;
		}
		assert_int_equal(ec_stripes_decode(c, &s, in, n, back, rb), 0);
		assert_memory_equal(back, data, dlen);
		for (int i = 0; i < km; i++)
			if (mask >> i & 1)
				assert_memory_equal(rb[i], sh[i], slen);
		/* without rebuild buffers too */
		memset(back, 0xee, dlen);
		assert_int_equal(ec_stripes_decode(c, &s, in, n, back, NULL),
				 0);
		assert_memory_equal(back, data, dlen);
		tried++;
	}
	assert_true(tried > 0);
	for (int i = 0; i < km; i++) {
		free(sh[i]);
		free(rb[i]);
	}
	free(data);
	free(back);
	ec_codec_free(c);
}

static void test_every_loss(void **state)
{
	(void)state;
	check_losses(2, 1, 4096, 3);
	check_losses(2, 2, 512, 5);
	check_losses(4, 2, 1024, 4);
	check_losses(3, 3, 64, 7);
	check_losses(8, 3, 128, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_span_and_rmw),
		cmocka_unit_test(test_every_loss),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
