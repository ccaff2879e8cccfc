/*
 * test_ec_object.c - an erasure-coded object (objlayer/ec_object.c) over
 * shards kept in memory, against a plain byte array: random writes
 * (partial stripes, holes past the end), truncations down and up, and
 * reads with every pattern of up to m failing shards (missing or rotten)
 * give the model's bytes; every shard is as long as the object's stripes
 * and any k of them decode the whole object (the parity stays right);
 * m + 1 failing shards give -EIO, never wrong bytes; a failing shard met
 * by a read is reported.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <cmocka.h>

#include "ec_codec.h"
#include "ec_object.h"

#define MAXLEN (256u << 10)

struct mem {
	unsigned char *b[EC_MAX_CHUNKS];
	size_t len[EC_MAX_CHUNKS];
	uint64_t missing, rotten; /* shards failing reads */
};

static ssize_t m_read(void *arg, int i, uint64_t off, void *buf, size_t len)
{
	struct mem *m = arg;

	if (m->missing >> i & 1)
		return -ENOENT;
	if (m->rotten >> i & 1)
		return -EBADMSG;
	if (off >= m->len[i])
		return 0;
	if (len > m->len[i] - off)
		len = m->len[i] - (size_t)off;
	memcpy(buf, m->b[i] + off, len);
	return (ssize_t)len;
}

static int m_grow(struct mem *m, int i, size_t len)
{
	if (len <= m->len[i])
		return 0;
	m->b[i] = realloc(m->b[i], len);
	assert_non_null(m->b[i]);
	memset(m->b[i] + m->len[i], 0, len - m->len[i]);
	m->len[i] = len;
	return 0;
}

static int m_write(void *arg, int i, uint64_t off, const void *buf,
		   size_t len)
{
	struct mem *m = arg;

	m_grow(m, i, (size_t)off + len);
	memcpy(m->b[i] + off, buf, len);
	return 0;
}

static int m_truncate(void *arg, int i, uint64_t len)
{
	struct mem *m = arg;

	if (len > m->len[i])
		return m_grow(m, i, (size_t)len);
	m->len[i] = (size_t)len;
	return 0;
}

/* every k-subset of the shards decodes the model */
static void check_consistent(const struct ec_object *o, struct mem *m,
			     const unsigned char *model, uint64_t size)
{
	int km = o->s.k + o->s.m;
	unsigned char *got = malloc(size + 1);

	for (int i = 0; i < km; i++)
		assert_int_equal(m->len[i], ec_shard_len(&o->s, size));
	for (unsigned mask = 0; mask < (1u << km); mask++) {
		if (__builtin_popcount(mask) != o->s.m)
			continue;
		m->missing = mask;
		assert_int_equal(ec_object_read(o, size, 0, got, (size_t)size,
						NULL),
				 (ssize_t)size);
		if (size)
			assert_memory_equal(got, model, size);
	}
	m->missing = 0;
	free(got);
}

static void run(int k, int mm, uint32_t chunk, unsigned seed, int steps)
{
	struct mem m = { 0 };
	struct ec_shard_io io = { m_read, m_write, m_truncate, &m, NULL, NULL };
	struct ec_codec *c;
	struct ec_object o;
	unsigned char *model = calloc(MAXLEN, 1), *buf = malloc(MAXLEN);
	uint64_t size = 0;
	int km = k + mm;

	assert_int_equal(ec_codec_new(k, mm, &c), 0);
	o = (struct ec_object){ c, { k, mm, chunk }, &io, 0 };
	srand(seed);
	for (int step = 0; step < steps; step++) {
		int what = rand() % 10;
		uint64_t bad = 0;

		if (what < 6) {
			/* a write anywhere below MAXLEN, often past the end */
			size_t len = (size_t)(rand() % (3 * (int)(k * chunk)) + 1);
			uint64_t off = (uint64_t)rand() % (MAXLEN - len), ns;

			for (size_t i = 0; i < len; i++)
				buf[i] = (unsigned char)rand();
			assert_int_equal(ec_object_write(&o, size, off, buf, len,
							 &ns, &bad),
					 0);
			memcpy(model + off, buf, len);
			assert_int_equal(ns, off + len > size ? off + len : size);
			size = ns;
		} else if (what < 8) {
			uint64_t ns = (uint64_t)rand() % MAXLEN;

			if (rand() % 2)
				ns = size ? (uint64_t)rand() % size : 0;
			assert_int_equal(ec_object_truncate(&o, size, ns, &bad),
					 0);
			if (ns < size)
				memset(model + ns, 0, (size_t)(size - ns));
			size = ns;
		} else {
			/* a read with up to m shards failing, then m + 1 */
			uint64_t off = size ? (uint64_t)rand() % size : 0;
			size_t len = (size_t)(rand() % 20000);
			uint64_t fail = 0, sw = (uint64_t)k * chunk;
			int nf = rand() % (mm + 1);
			ssize_t got, want;

			/* a third of them whole stripes (decoded straight
			 * into buf), some past the end */
			if (rand() % 3 == 0) {
				off -= off % sw;
				len = (size_t)((len / sw + 1) * sw);
			}

			while (__builtin_popcount((unsigned)fail) < nf)
				fail |= 1ull << (rand() % km);
			m.missing = fail & 0x5555555555555555ull;
			m.rotten = fail & ~m.missing;
			want = off >= size ? 0
			       : (ssize_t)(len < size - off ? len : size - off);
			got = ec_object_read(&o, size, off, buf, len, &bad);
			assert_int_equal(got, want);
			if (want)
				assert_memory_equal(buf, model + off,
						    (size_t)want);
			/* what was in the way was reported, nothing else */
			assert_int_equal(bad & ~fail, 0);
			while (__builtin_popcount((unsigned)fail) <= mm)
				fail |= 1ull << (rand() % km);
			m.missing = fail;
			m.rotten = 0;
			if (want)
				assert_int_equal(ec_object_read(&o, size, off, buf,
								len, NULL),
						 -EIO);
			m.missing = 0;
		}
		assert_true(bad == 0 || what >= 8);
		if (step % 8 == 7)
			check_consistent(&o, &m, model, size);
	}
	check_consistent(&o, &m, model, size);
	for (int i = 0; i < km; i++)
		free(m.b[i]);
	free(model);
	free(buf);
	ec_codec_free(c);
}

static void test_random_ops(void **state)
{
	(void)state;
	run(2, 1, 4096, 1, 120);
	run(4, 2, 512, 2, 120);
	run(3, 2, 256, 3, 120);
	run(2, 2, 64, 4, 200);
}

/* A write reads the stripes it covers partly, and decodes them when a
 * shard fails; the failure is reported and the new stripes are right. */
static void test_degraded_rmw(void **state)
{
	struct mem m = { 0 };
	struct ec_shard_io io = { m_read, m_write, m_truncate, &m, NULL, NULL };
	struct ec_codec *c;
	struct ec_object o;
	unsigned char a[10000], b[300], back[10000];
	uint64_t size, bad;

	(void)state;
	assert_int_equal(ec_codec_new(2, 1, &c), 0);
	o = (struct ec_object){ c, { 2, 1, 1024 }, &io, 0 };
	for (size_t i = 0; i < sizeof(a); i++)
		a[i] = (unsigned char)(i * 7);
	assert_int_equal(ec_object_write(&o, 0, 0, a, sizeof(a), &size, &bad),
			 0);
	memset(b, 0xab, sizeof(b));
	m.rotten = 1; /* shard 0 fails its checksum */
	assert_int_equal(ec_object_write(&o, size, 3000, b, sizeof(b), &size,
					 &bad),
			 0);
	assert_int_equal(bad, 1);
	m.rotten = 0;
	memcpy(a + 3000, b, sizeof(b));
	m.missing = 2; /* now decode without shard 1 */
	assert_int_equal(ec_object_read(&o, size, 0, back, sizeof(back), &bad),
			 (ssize_t)sizeof(back));
	assert_int_equal(bad, 2);
	assert_memory_equal(back, a, sizeof(a));
	/* with more shards failing than m, the write refuses and changes
	 * nothing */
	m.missing = 3;
	assert_int_equal(ec_object_write(&o, size, 5000, b, 10, &size, &bad),
			 -EIO);
	m.missing = 0;
	assert_int_equal(ec_object_read(&o, size, 0, back, sizeof(back), NULL),
			 (ssize_t)sizeof(back));
	assert_memory_equal(back, a, sizeof(a));
	for (int i = 0; i < 3; i++)
		free(m.b[i]);
	ec_codec_free(c);
}

/* The caller's kept scratch and its all-shards-at-once write (ec_io.c:
 * ol_bounce, O_DIRECT shards in parallel): long shard runs go there, from
 * an aligned buffer, to every shard but the avoided ones, and the parity
 * stays right. */
static struct {
	unsigned char *p;
	size_t cap;
	int calls, k, m;
	uint64_t masks;
} tm;

static void *t_scratch(size_t len)
{
	if (len > tm.cap) {
		free(tm.p);
		assert_int_equal(posix_memalign((void **)&tm.p, 4096, len), 0);
		tm.cap = len;
	}
	return tm.p;
}

/* As the writer threads may: each shard made and written on its own,
 * the coding shards first (they must not need the gathered data ones),
 * every buffer poisoned before its fill. */
static int t_many(void *arg, uint64_t mask, uint64_t off,
		  unsigned char *const *buf, size_t len,
		  void (*fill)(void *farg, int shard), void *farg)
{
	tm.calls++;
	tm.masks |= mask;
	for (int i = EC_MAX_CHUNKS - 1; i >= 0; i--)
		if (mask >> i & 1) {
			assert_int_equal((uintptr_t)buf[i] % 4096, 0);
			/* one coding shard is made on its writer's thread;
			 * several, by the caller beforehand */
			if (fill && (i < tm.k || tm.m == 1))
				memset(buf[i], 0xee, len);
			if (fill)
				fill(farg, i);
			assert_int_equal(m_write(arg, i, off, buf[i], len), 0);
		}
	return 0;
}

static void write_many_case(int k, int mm)
{
	struct mem m = { 0 };
	struct ec_shard_io io = { m_read, m_write, m_truncate, &m, t_scratch,
				  t_many };
	struct ec_codec *c;
	struct ec_object o;
	uint64_t sw = (uint64_t)k * 4096, all = (1ULL << (k + mm)) - 1;
	/* three batches of 1 MiB of stripes (ec_object.c BATCH) */
	size_t len = (size_t)((1u << 20) / sw * sw * 3);
	unsigned char *a = malloc(len), *back = malloc(len);
	uint64_t size, bad;

	memset(&tm, 0, sizeof(tm));
	tm.k = k;
	tm.m = mm;
	assert_int_equal(ec_codec_new(k, mm, &c), 0);
	o = (struct ec_object){ c, { k, mm, 4096 }, &io, 0 };
	for (size_t i = 0; i < len; i++)
		a[i] = (unsigned char)(i * 13 + (i >> 12));
	assert_int_equal(ec_object_write(&o, 0, 0, a, len, &size, &bad), 0);
	assert_int_equal(tm.calls, 3);
	assert_int_equal(tm.masks, all);
	check_consistent(&o, &m, a, size);
	/* the first coding shard avoided: the data ones still go whole */
	tm.masks = 0;
	o.avoid = 1ULL << k;
	memset(a, 0x3c, 1u << 20);
	assert_int_equal(ec_object_write(&o, size, 0, a, 1u << 20, &size,
					 &bad),
			 0);
	assert_int_equal(tm.masks, all & ~(1ULL << k));
	o.avoid = 0;
	assert_int_equal(ec_object_read(&o, size, 0, back, len, NULL),
			 (ssize_t)len);
	assert_memory_equal(back, a, len);
	/* the coding shard made whole again (recovery's part, here) */
	assert_int_equal(ec_object_write(&o, size, 0, a, len, &size, &bad), 0);
	check_consistent(&o, &m, a, size);
	/* data shard 1 avoided: written to the others only, read back
	 * decoded */
	tm.masks = 0;
	o.avoid = 2;
	memset(a + sw, 0x5a, 1u << 20);
	assert_int_equal(ec_object_write(&o, size, sw, a + sw, 1u << 20, &size,
					 &bad),
			 0);
	assert_int_equal(tm.masks, all & ~2ULL);
	o.avoid = 0;
	m.missing = 2;
	assert_int_equal(ec_object_read(&o, size, 0, back, len, NULL),
			 (ssize_t)len);
	assert_memory_equal(back, a, len);
	m.missing = 0;
	for (int i = 0; i < k + mm; i++)
		free(m.b[i]);
	free(tm.p);
	free(a);
	free(back);
	ec_codec_free(c);
}

static void test_write_many(void **state)
{
	(void)state;
	write_many_case(2, 1);
	write_many_case(4, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_ops),
		cmocka_unit_test(test_degraded_rmw),
		cmocka_unit_test(test_write_many),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
