/*
 * test_falloc.c - ol_fallocate (objlayer/falloc.c): each mode against a
 * model of the file's bytes, with plain and striped layouts; allocation
 * takes space on every replica (and nothing twice), a punch removes the
 * objects it covers whole and never allocates, a full OSD refuses an
 * allocation with ENOSPC and no replica changed, a hopeless request fails
 * before writing, and OSD accounting stays exact throughout.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cluster_fixture.h"

#define DATA_POOL 1 /* the pool mkfs makes */

#define KB 1024
#define MB (1024 * 1024)
#define INO 0x10000000000ULL

static struct ol_layout layout(struct fixture *f, uint32_t su, uint32_t sc,
			       uint32_t os)
{
	struct ol_layout l;

	ol_default_layout(f->ol, &l);
	l.stripe_unit = su;
	l.stripe_count = sc;
	l.object_size = os;
	return l;
}

static uint64_t obj_size(struct fixture *f, uint64_t ino, uint64_t objno)
{
	char name[64];
	uint64_t s = 0;

	ol_object_name(ino, objno, name, sizeof(name));
	if (ol_obj_stat(f->ol, DATA_POOL, name, &s) == -ENOENT)
		return UINT64_MAX;
	return s;
}

static uint64_t used_total(struct fixture *f)
{
	struct ol_space s;

	assert_int_equal(ol_space(f->ol, &s), 0);
	return s.used;
}

static void assert_reads(struct fixture *f, const struct ol_layout *l,
			 const char *model, uint64_t size)
{
	char *got = malloc(size + 1);

	assert_int_equal(ol_read(f->ol, INO, l, size, 0, got, size),
			 (ssize_t)size);
	for (uint64_t i = 0; i < size; i++)
		if (got[i] != model[i])
			fail_msg("byte %llu: %d, model %d",
				 (unsigned long long)i, got[i], model[i]);
	free(got);
}

static void test_allocate(void **state)
{
	struct fixture *f = fx_new(NULL);
	struct ol_layout l = layout(f, MB, 1, MB);
	char *model = calloc(1, 4 * MB);
	uint64_t u0, u1;

	(void)state;
	fx_pattern(model, 100, 1);
	assert_int_equal(ol_write(f->ol, INO, &l, 0, model, 100), 100);
	u0 = used_total(f);
	/* [0, 3.5 MiB): object 0 grows past its data, 1..3 appear */
	assert_int_equal(ol_fallocate(f->ol, INO, &l, 0, 3 * MB + MB / 2,
				      OL_FALLOC_ALLOCATE),
			 0);
	assert_int_equal(obj_size(f, INO, 0), MB);
	assert_int_equal(obj_size(f, INO, 1), MB);
	assert_int_equal(obj_size(f, INO, 2), MB);
	assert_int_equal(obj_size(f, INO, 3), MB / 2);
	u1 = used_total(f);
	/* the pool's logical bytes: what was added, once */
	assert_int_equal(u1 - u0, 3 * MB + MB / 2 - 100);
	assert_reads(f, &l, model, 4 * MB);
	/* again, and over part of it: nothing more is taken */
	assert_int_equal(ol_fallocate(f->ol, INO, &l, MB / 2, 2 * MB,
				      OL_FALLOC_ALLOCATE),
			 0);
	assert_int_equal(used_total(f), u1);
	assert_reads(f, &l, model, 4 * MB);
	/* inside an object, below its end: nothing to do either */
	assert_int_equal(ol_write(f->ol, INO, &l, 3 * MB + MB / 2, "z", 1), 1);
	model[3 * MB + MB / 2] = 'z';
	assert_int_equal(ol_fallocate(f->ol, INO, &l, 3 * MB, 100 * KB,
				      OL_FALLOC_ALLOCATE),
			 0);
	assert_int_equal(obj_size(f, INO, 3), MB / 2 + 1);
	assert_reads(f, &l, model, 4 * MB);
	fx_assert_usage_exact(f);
	/* bad arguments */
	assert_int_equal(ol_fallocate(f->ol, INO, &l, 0, 0, OL_FALLOC_ALLOCATE),
			 -EINVAL);
	assert_int_equal(ol_fallocate(f->ol, INO, &l, 0, 1,
				      (enum ol_falloc_mode)7),
			 -EOPNOTSUPP);
	free(model);
	fx_free(f);
}

static void test_punch(void **state)
{
	struct fixture *f = fx_new(NULL);
	struct ol_layout l = layout(f, MB, 1, MB);
	char *model = malloc(4 * MB);
	uint64_t u0;

	(void)state;
	fx_pattern(model, 3 * MB, 2);
	memset(model + 3 * MB, 0, MB);
	assert_int_equal(ol_write(f->ol, INO, &l, 0, model, 3 * MB), 3 * MB);
	/* a whole object: removed */
	assert_int_equal(ol_fallocate(f->ol, INO, &l, MB, MB, OL_FALLOC_PUNCH),
			 0);
	memset(model + MB, 0, MB);
	assert_int_equal(obj_size(f, INO, 1), UINT64_MAX);
	/* to an object's end: truncated */
	assert_int_equal(ol_fallocate(f->ol, INO, &l, 2 * MB + MB / 2, MB,
				      OL_FALLOC_PUNCH),
			 0);
	memset(model + 2 * MB + MB / 2, 0, MB / 2);
	assert_int_equal(obj_size(f, INO, 2), MB / 2);
	/* inside: zeroed, size kept */
	u0 = used_total(f);
	assert_int_equal(ol_fallocate(f->ol, INO, &l, 100, 200,
				      OL_FALLOC_PUNCH),
			 0);
	memset(model + 100, 0, 200);
	assert_int_equal(obj_size(f, INO, 0), MB);
	assert_int_equal(used_total(f), u0);
	/* holes and past the end: nothing appears */
	assert_int_equal(ol_fallocate(f->ol, INO, &l, MB, 3 * MB,
				      OL_FALLOC_PUNCH),
			 0);
	memset(model + 2 * MB, 0, MB / 2);
	assert_int_equal(obj_size(f, INO, 1), UINT64_MAX);
	assert_int_equal(obj_size(f, INO, 2), UINT64_MAX);
	assert_int_equal(obj_size(f, INO, 3), UINT64_MAX);
	assert_reads(f, &l, model, 4 * MB);
	fx_assert_usage_exact(f);
	free(model);
	fx_free(f);
}

static void test_zero(void **state)
{
	struct fixture *f = fx_new(NULL);
	struct ol_layout l = layout(f, MB, 1, MB);
	char *model = malloc(4 * MB);

	(void)state;
	fx_pattern(model, 4 * MB, 3);
	assert_int_equal(ol_write(f->ol, INO, &l, 0, model, 2 * MB), 2 * MB);
	memset(model + 2 * MB, 0, 2 * MB);
	/* over data and past it: zeros, allocated */
	assert_int_equal(ol_fallocate(f->ol, INO, &l, MB / 2, 3 * MB,
				      OL_FALLOC_ZERO),
			 0);
	memset(model + MB / 2, 0, 3 * MB);
	assert_int_equal(obj_size(f, INO, 0), MB);
	assert_int_equal(obj_size(f, INO, 1), MB);
	assert_int_equal(obj_size(f, INO, 2), MB);
	assert_int_equal(obj_size(f, INO, 3), MB / 2);
	assert_reads(f, &l, model, 4 * MB);
	fx_assert_usage_exact(f);
	free(model);
	fx_free(f);
}

/* Random writes, allocations, zeroings and punches against a model, on a
 * plain and a striped layout (pieces of one object far apart in the
 * file: a punch removes an object only when every byte it holds is in
 * the range). */
static void random_against_model(struct ol_layout l, unsigned seed)
{
	struct fixture *f = fx_new(NULL);
	const uint64_t max = 3 * MB;
	char *model = calloc(1, max), *buf = malloc(max);
	uint64_t size = 0;
	uint32_t x = seed;

	{
		struct ol_layout d;

		ol_default_layout(f->ol, &d);
		l.pool = d.pool;
	}
	for (int i = 0; i < 300; i++) {
		uint64_t off, len;
		int op;

		x = x * 1103515245u + 12345u;
		op = (x >> 16) % 4;
		x = x * 1103515245u + 12345u;
		off = (x >> 4) % max;
		x = x * 1103515245u + 12345u;
		len = 1 + (x >> 4) % (max - off);
		if ((x & 3) == 0)
			len = 1 + (len % 1000);
		switch (op) {
		case 0:
			fx_pattern(buf, len, (unsigned)i);
			assert_int_equal(ol_write(f->ol, INO, &l, off, buf, len),
					 (ssize_t)len);
			memcpy(model + off, buf, len);
			break;
		case 1:
			assert_int_equal(ol_fallocate(f->ol, INO, &l, off, len,
						      OL_FALLOC_ALLOCATE),
					 0);
			break;
		case 2:
			assert_int_equal(ol_fallocate(f->ol, INO, &l, off, len,
						      OL_FALLOC_ZERO),
					 0);
			memset(model + off, 0, len);
			break;
		default:
			assert_int_equal(ol_fallocate(f->ol, INO, &l, off, len,
						      OL_FALLOC_PUNCH),
					 0);
			memset(model + off, 0, len);
			break;
		}
		if (op != 3 && off + len > size)
			size = off + len;
		if (i % 50 == 49)
			assert_reads(f, &l, model, size);
	}
	assert_reads(f, &l, model, size);
	/* a punch of everything leaves no object at all */
	assert_int_equal(ol_fallocate(f->ol, INO, &l, 0, max, OL_FALLOC_PUNCH),
			 0);
	for (uint64_t o = 0; o < ol_object_count(&l, max); o++)
		assert_int_equal(obj_size(f, INO, o), UINT64_MAX);
	fx_assert_usage_exact(f);
	free(model);
	free(buf);
	fx_free(f);
}

static void test_random_plain(void **state)
{
	struct ol_layout l = { MB / 4, 1, MB / 4, 0 };

	(void)state;
	random_against_model(l, 7);
}

static void test_random_striped(void **state)
{
	struct ol_layout l = { 64 * KB, 4, 256 * KB, 0 };

	(void)state;
	random_against_model(l, 8);
}

/* The pieces of one striped object: a punch over all of them removes it,
 * over some of them only truncates or zeroes. */
static void test_punch_striped(void **state)
{
	struct fixture *f = fx_new(NULL);
	struct ol_layout l = layout(f, 64 * KB, 4, 256 * KB);
	char *model = malloc(2 * MB);

	(void)state;
	fx_pattern(model, 2 * MB, 4);
	assert_int_equal(ol_write(f->ol, INO, &l, 0, model, 2 * MB), 2 * MB);
	/* object 0 holds file [0,64K) [256K,320K) [512K,576K) [768K,832K) */
	assert_int_equal(ol_fallocate(f->ol, INO, &l, 64 * KB, 960 * KB,
				      OL_FALLOC_PUNCH),
			 0);
	memset(model + 64 * KB, 0, 960 * KB);
	assert_int_equal(obj_size(f, INO, 0), 64 * KB); /* truncated */
	for (int o = 1; o < 4; o++) /* every byte in the range: removed */
		assert_int_equal(obj_size(f, INO, o), UINT64_MAX);
	for (int o = 4; o < 8; o++)
		assert_int_equal(obj_size(f, INO, o), 256 * KB);
	assert_reads(f, &l, model, 2 * MB);
	fx_assert_usage_exact(f);
	free(model);
	fx_free(f);
}

/* An allocation that would push an OSD over full_ratio: ENOSPC, no
 * replica changed; within the limit it takes the space. */
static void test_full_osd(void **state)
{
	struct fixture *f = fx_new(NULL);
	struct ol_layout l;
	char name[64];
	uint64_t ino = 0;
	struct cfs_osd_usage u0, u1;

	(void)state;
	ol_default_layout(f->ol, &l);
	for (uint64_t i = INO; i < INO + 10000 && !ino; i++) {
		int a[16], na;

		ol_object_name(i, 0, name, sizeof(name));
		fx_acting(f, name, a, &na, NULL);
		for (int k = 0; k < na; k++)
			if (a[k] == 5)
				ino = i;
	}
	assert_true(ino != 0);
	ol_object_name(ino, 0, name, sizeof(name));
	/* osd.5: 4 MiB, full at 3.8 MiB */
	assert_int_equal(cfs_osd_set_capacity(f->c, 5, 4 * MB), 0);
	cfs_osd_usage(f->c, 5, &u0);
	assert_int_equal(ol_fallocate(f->ol, ino, &l, 0, 4 * MB,
				      OL_FALLOC_ALLOCATE),
			 -ENOSPC);
	assert_int_equal(obj_size(f, ino, 0), UINT64_MAX);
	cfs_osd_usage(f->c, 5, &u1);
	assert_int_equal(u1.used, u0.used);
	assert_int_equal(ol_fallocate(f->ol, ino, &l, 0, 4 * MB,
				      OL_FALLOC_ZERO),
			 -ENOSPC);
	assert_int_equal(obj_size(f, ino, 0), UINT64_MAX);
	/* 3 MiB fits, and a write into it later needs nothing more */
	assert_int_equal(ol_fallocate(f->ol, ino, &l, 0, 3 * MB,
				      OL_FALLOC_ALLOCATE),
			 0);
	cfs_osd_usage(f->c, 5, &u1);
	assert_int_equal(u1.used - u0.used, 3 * MB);
	assert_int_equal(ol_write(f->ol, ino, &l, 3 * MB - 10, "0123456789",
				  10),
			 10);
	/* deletes always work and free it */
	assert_int_equal(ol_remove(f->ol, ino, &l, 3 * MB), 0);
	cfs_osd_usage(f->c, 5, &u1);
	assert_int_equal(u1.used, u0.used);
	fx_assert_usage_exact(f);
	fx_free(f);
}

static int count_cb(const char *name, void *arg)
{
	(void)name;
	++*(int *)arg;
	return 0;
}

/* Far beyond MAX AVAIL: refused before a byte is written. */
static void test_hopeless(void **state)
{
	struct fixture *f = fx_new(NULL);
	struct ol_layout l;
	int n = 0;

	(void)state;
	ol_default_layout(f->ol, &l);
	assert_int_equal(ol_fallocate(f->ol, INO, &l, 0, 1ULL << 40,
				      OL_FALLOC_ALLOCATE),
			 -ENOSPC);
	assert_int_equal(ol_fallocate(f->ol, INO, &l, 1ULL << 50, 1ULL << 40,
				      OL_FALLOC_ZERO),
			 -ENOSPC);
	assert_int_equal(ol_obj_list(f->ol, DATA_POOL, count_cb, &n), 0);
	assert_int_equal(n, 0);
	assert_int_equal(used_total(f), 0);
	fx_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_allocate),
		cmocka_unit_test(test_punch),
		cmocka_unit_test(test_zero),
		cmocka_unit_test(test_random_plain),
		cmocka_unit_test(test_random_striped),
		cmocka_unit_test(test_punch_striped),
		cmocka_unit_test(test_full_osd),
		cmocka_unit_test(test_hopeless),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
