/*
 * test_wrange.c - the pure part of the writeable range (fs/wrange.c):
 * max_size steps as Ceph's Locker::calc_new_max_size takes them, and the
 * backwards probe that finds where a crashed file's data ends, for many
 * layouts (stripe units, counts, object sizes) and write patterns.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <cmocka.h>

#include "objlayer.h"
#include "wrange_i.h"

static void test_new_max_size(void **state)
{
	struct ol_layout l = { 4 << 20, 1, 4 << 20, 1 };
	struct ol_layout s = { 65536, 4, 1 << 20, 1 }; /* 4 MiB sets */
	uint64_t big = 1ULL << 40;

	(void)state;
	/* (end + 1) * 2, rounded up to an object set */
	assert_int_equal(wr_new_max_size(&l, 0), 4 << 20);
	assert_int_equal(wr_new_max_size(&l, 65536), 4 << 20);
	assert_int_equal(wr_new_max_size(&l, 2 << 20), 8 << 20);
	assert_int_equal(wr_new_max_size(&l, (4 << 20) + 65536), 12 << 20);
	assert_int_equal(wr_new_max_size(&s, (4 << 20) + 1), 12 << 20);
	/* at most WR_MAX_INC_OBJSETS sets past the end */
	assert_int_equal(wr_new_max_size(&l, big),
			 big + WR_MAX_INC_OBJSETS * (4ULL << 20));
	assert_int_equal(wr_new_max_size(&l, big + 1),
			 big + (WR_MAX_INC_OBJSETS + 1) * (4ULL << 20));
	/* saturates instead of wrapping */
	assert_true(wr_new_max_size(&l, INT64_MAX) > (uint64_t)INT64_MAX);
	assert_int_equal(wr_new_max_size(&l, UINT64_MAX - 5), UINT64_MAX);
}

/* A fake pool: object sizes from a list of file writes. */
#define MAXOBJ 4096
struct pool {
	const struct ol_layout *l;
	uint64_t size[MAXOBJ];
	int stats, fail_at;
};

static void pool_write(struct pool *p, uint64_t off, uint64_t len)
{
	int n = ol_file_to_extents(p->l, off, len, NULL, 0);
	struct ol_extent *e = calloc((size_t)n, sizeof(*e));

	assert_true(n > 0);
	assert_int_equal(ol_file_to_extents(p->l, off, len, e, n), n);
	for (int i = 0; i < n; i++) {
		assert_true(e[i].objectno < MAXOBJ);
		if (p->size[e[i].objectno] < e[i].obj_off + e[i].len)
			p->size[e[i].objectno] = e[i].obj_off + e[i].len;
	}
	free(e);
}

static int pool_stat(void *arg, uint64_t objectno, uint64_t *size,
		     struct timespec *mtime)
{
	struct pool *p = arg;

	p->stats++;
	if (p->fail_at && p->stats == p->fail_at)
		return -EIO;
	if (objectno >= MAXOBJ || !p->size[objectno])
		return -ENOENT;
	*size = p->size[objectno];
	mtime->tv_sec = (time_t)objectno;
	mtime->tv_nsec = 0;
	return 0;
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void test_probe_layouts(void **state)
{
	static const uint32_t sus[] = { 65536, 131072, 1 << 20 };
	uint64_t seed = 88172645463325252ULL;
	struct pool *p = calloc(1, sizeof(*p));

	(void)state;
	for (int round = 0; round < 3000; round++) {
		struct ol_layout l;
		uint64_t period, span, from, to, end, want = 0;
		struct timespec mt;
		int nw;

		l.stripe_unit = sus[rnd(&seed) % 3];
		l.stripe_count = 1 + (uint32_t)(rnd(&seed) % 5);
		l.object_size = l.stripe_unit * (1 + (uint32_t)(rnd(&seed) % 4));
		l.pool = 1;
		period = (uint64_t)l.object_size * l.stripe_count;
		memset(p, 0, sizeof(*p));
		p->l = &l;
		/* writes inside [from, to), which spans a few object sets */
		span = period * (1 + rnd(&seed) % 6);
		from = rnd(&seed) % (3 * period);
		to = from + span;
		nw = (int)(rnd(&seed) % 5);
		for (int i = 0; i < nw; i++) {
			uint64_t off = from + rnd(&seed) % span;
			uint64_t len = 1 + rnd(&seed) % (to - off);

			if (len > 3 * (uint64_t)l.stripe_unit)
				len = 1 + len % (3 * (uint64_t)l.stripe_unit);
			pool_write(p, off, len);
			if (off + len > want)
				want = off + len;
		}
		assert_int_equal(wr_probe(&l, from, to, pool_stat, p, &end, &mt),
				 0);
		assert_int_equal(end, want);
		/* data below `from` in the same object set counts as well,
		 * never data past `to` */
		if (want == 0)
			assert_int_equal(mt.tv_sec, 0);
		/* at most the object sets of [from, to) were visited */
		assert_true((uint64_t)p->stats <=
			    ((to - 1) / period - from / period + 1) *
				    l.stripe_count);
	}
	free(p);
}

static void test_probe_stops_at_data(void **state)
{
	struct ol_layout l = { 1 << 20, 1, 1 << 20, 1 };
	struct pool *p = calloc(1, sizeof(*p));
	struct timespec mt;
	uint64_t end;

	(void)state;
	p->l = &l;
	pool_write(p, 0, 100);
	pool_write(p, (5 << 20) + 10, 90); /* object 5 */
	pool_write(p, (2 << 20), 7);
	/* backwards from object 9: 9, 8, 7, 6, 5 - and stop */
	assert_int_equal(wr_probe(&l, 0, 10 << 20, pool_stat, p, &end, &mt), 0);
	assert_int_equal(end, (5 << 20) + 100);
	assert_int_equal(mt.tv_sec, 5);
	assert_int_equal(p->stats, 5);
	/* nothing in range: end 0 */
	p->stats = 0;
	assert_int_equal(wr_probe(&l, 6 << 20, 9 << 20, pool_stat, p, &end,
				  &mt), 0);
	assert_int_equal(end, 0);
	assert_int_equal(p->stats, 3);
	/* an empty range probes nothing */
	p->stats = 0;
	assert_int_equal(wr_probe(&l, 7, 7, pool_stat, p, &end, &mt), 0);
	assert_int_equal(p->stats, 0);
	/* an error other than "no such object" is returned */
	p->stats = 0;
	p->fail_at = 2;
	assert_int_equal(wr_probe(&l, 0, 10 << 20, pool_stat, p, &end, &mt),
			 -EIO);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_new_max_size),
		cmocka_unit_test(test_probe_layouts),
		cmocka_unit_test(test_probe_stops_at_data),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
