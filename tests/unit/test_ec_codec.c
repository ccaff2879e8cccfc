/*
 * test_ec_codec.c - Reed-Solomon as Ceph's isa plugin computes it
 * (objlayer/ec_codec.c): coding chunks equal an independent GF(2^8)
 * evaluation of the Vandermonde rows (coding row i = powers of 2^i,
 * polynomial 0x11d), and every pattern of up to m lost chunks decodes back
 * to the stripe, while m+1 lost chunks are refused.
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

/* GF(2^8) with x^8+x^4+x^3+x^2+1, the bit loop: a reference, not speed */
static unsigned char gmul(unsigned char a, unsigned char b)
{
	unsigned char p = 0;

	while (b) {
		if (b & 1)
			p ^= a;
		a = (unsigned char)((a << 1) ^ (a & 0x80 ? 0x1d : 0));
		b >>= 1;
	}
	return p;
}

struct stripe {
	int k, m;
	size_t len;
	unsigned char *buf[EC_MAX_CHUNKS], *orig[EC_MAX_CHUNKS];
};

static void stripe_new(struct stripe *s, int k, int m, size_t len,
		       unsigned seed)
{
	s->k = k;
	s->m = m;
	s->len = len;
	srand(seed);
	for (int i = 0; i < k + m; i++) {
		s->buf[i] = malloc(len);
		s->orig[i] = malloc(len);
		for (size_t b = 0; b < len; b++)
			s->buf[i][b] = i < k ? (unsigned char)rand() : 0;
	}
}

static void stripe_free(struct stripe *s)
{
	for (int i = 0; i < s->k + s->m; i++) {
		free(s->buf[i]);
		free(s->orig[i]);
	}
}

static void test_coding_is_vandermonde(void **state)
{
	static const int km[][2] = { { 2, 1 }, { 2, 2 }, { 4, 2 }, { 8, 3 },
				     { 6, 3 }, { 10, 4 } };

	(void)state;
	for (size_t t = 0; t < sizeof(km) / sizeof(km[0]); t++) {
		int k = km[t][0], m = km[t][1];
		struct ec_codec *c;
		struct stripe s;

		assert_int_equal(ec_codec_new(k, m, &c), 0);
		stripe_new(&s, k, m, 4096, (unsigned)t + 1);
		ec_encode(c, s.buf, s.buf + k, s.len);
		for (int i = 0; i < m; i++) {
			unsigned char g = 1; /* 2^i */

			for (int r = 0; r < i; r++)
				g = gmul(g, 2);
			for (size_t b = 0; b < s.len; b++) {
				unsigned char want = 0, p = 1;

				for (int j = 0; j < k; j++) {
					want ^= gmul(p, s.buf[j][b]);
					p = gmul(p, g);
				}
				if (want != s.buf[k + i][b])
					fail_msg("k=%d m=%d coding %d byte %zu: "
						 "%u, want %u",
						 k, m, i, b, s.buf[k + i][b],
						 want);
			}
		}
		stripe_free(&s);
		ec_codec_free(c);
	}
}

/* Every set of lost chunks, as a bit mask over k+m chunks. */
static void check_all_losses(int k, int m, size_t len)
{
	struct ec_codec *c;
	struct stripe s;
	int n = k + m, present[EC_MAX_CHUNKS];

	assert_int_equal(ec_codec_new(k, m, &c), 0);
	stripe_new(&s, k, m, len, (unsigned)(k * 100 + m));
	ec_encode(c, s.buf, s.buf + k, len);
	for (int i = 0; i < n; i++)
		memcpy(s.orig[i], s.buf[i], len);
	for (unsigned mask = 1; mask < (1u << n); mask++) {
		int lost = __builtin_popcount(mask);

		for (int i = 0; i < n; i++) {
			present[i] = !(mask & (1u << i));
			if (!present[i])
				memset(s.buf[i], 0xa5, len);
		}
		if (lost > m) {
			assert_int_equal(ec_decode(c, s.buf, present, len), -EIO);
		} else {
			assert_int_equal(ec_decode(c, s.buf, present, len), 0);
			for (int i = 0; i < n; i++)
				if (memcmp(s.buf[i], s.orig[i], len))
					fail_msg("k=%d m=%d lost mask %#x: chunk "
						 "%d wrong",
						 k, m, mask, i);
		}
		for (int i = 0; i < n; i++)
			memcpy(s.buf[i], s.orig[i], len);
	}
	stripe_free(&s);
	ec_codec_free(c);
}

static void test_every_loss_pattern(void **state)
{
	(void)state;
	check_all_losses(2, 1, 4096);
	check_all_losses(2, 2, 4096);
	check_all_losses(3, 2, 1000); /* a length ISA-L's vectors don't favour */
	check_all_losses(4, 2, 65536);
	check_all_losses(5, 3, 4096);
	check_all_losses(8, 3, 512);
}

static void test_limits(void **state)
{
	struct ec_codec *c;
	int present[4] = { 1, 1, 1, 1 };
	unsigned char a[8], b[8], x[8], y[8], *ch[4] = { a, b, x, y };

	(void)state;
	assert_int_equal(ec_codec_new(0, 2, &c), -EINVAL);
	assert_int_equal(ec_codec_new(2, 0, &c), -EINVAL);
	assert_int_equal(ec_codec_new(20, 13, &c), -EINVAL);
	assert_int_equal(ec_codec_new(32, 1, &c), -EINVAL);
	assert_int_equal(ec_codec_new(31, 1, &c), 0);
	assert_int_equal(ec_codec_k(c), 31);
	assert_int_equal(ec_codec_m(c), 1);
	ec_codec_free(c);
	/* nothing lost: nothing to do, nothing touched */
	assert_int_equal(ec_codec_new(2, 2, &c), 0);
	memset(a, 1, 8);
	memset(b, 2, 8);
	memset(x, 7, 8);
	memset(y, 9, 8);
	assert_int_equal(ec_decode(c, ch, present, 8), 0);
	assert_int_equal(x[0], 7);
	ec_codec_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_coding_is_vandermonde),
		cmocka_unit_test(test_every_loss_pattern),
		cmocka_unit_test(test_limits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
