/*
 * test_striper.c - Ceph Striper::file_to_extents math against extents
 * worked out by hand for several layouts (stripe_count 1 and > 1, and
 * Ceph's stripe_count == 1 quirk), object names, object counts and the
 * per-object size after a truncate.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "objlayer.h"

#define K 1024ULL
#define M (1024ULL * 1024)

struct want {
	uint64_t objectno, obj_off, len, file_off;
};

static void check(const struct ol_layout *l, uint64_t off, uint64_t len,
		  const struct want *w, int n)
{
	struct ol_extent e[64];
	int got = ol_file_to_extents(l, off, len, e, 64);

	assert_int_equal(got, n);
	/* counting only (max == 0) gives the same number */
	assert_int_equal(ol_file_to_extents(l, off, len, NULL, 0), n);
	for (int i = 0; i < n; i++) {
		if (e[i].objectno != w[i].objectno ||
		    e[i].obj_off != w[i].obj_off || e[i].len != w[i].len ||
		    e[i].file_off != w[i].file_off)
			fail_msg("extent %d: got (%llu, %llu, %llu, %llu) want "
				 "(%llu, %llu, %llu, %llu)",
				 i, (unsigned long long)e[i].objectno,
				 (unsigned long long)e[i].obj_off,
				 (unsigned long long)e[i].len,
				 (unsigned long long)e[i].file_off,
				 (unsigned long long)w[i].objectno,
				 (unsigned long long)w[i].obj_off,
				 (unsigned long long)w[i].len,
				 (unsigned long long)w[i].file_off);
	}
}

/* CephFS default: 4 MiB objects, one stripe. */
static void test_default_layout(void **state)
{
	struct ol_layout l = { 4 * M, 1, 4 * M, 1 };
	const struct want a[] = { { 0, 0, 4 * M, 0 },
				  { 1, 0, 4 * M, 4 * M },
				  { 2, 0, 2 * M, 8 * M } };
	const struct want b[] = { { 0, 3 * M, 1 * M, 3 * M },
				  { 1, 0, 1 * M, 4 * M } };
	const struct want c[] = { { 2, 1, 10, 8 * M + 1 } };

	(void)state;
	check(&l, 0, 10 * M, a, 3);
	check(&l, 3 * M, 2 * M, b, 2);
	check(&l, 8 * M + 1, 10, c, 1);
	check(&l, 5 * M, 0, NULL, 0);
}

/* stripe_unit 1M, stripe_count 3, object_size 2M: two stripes per object,
 * blocks go round-robin over objects 0,1,2, then object set 1 (3,4,5). */
static void test_three_stripes(void **state)
{
	struct ol_layout l = { 1 * M, 3, 2 * M, 1 };
	const struct want a[] = {
		{ 0, 0, M, 0 },	    { 1, 0, M, 1 * M }, { 2, 0, M, 2 * M },
		{ 0, M, M, 3 * M }, { 1, M, M, 4 * M }, { 2, M, M, 5 * M },
		{ 3, 0, M, 6 * M },
	};
	/* 1.5M + 1M: the second half of block 1, the first half of 2 */
	const struct want b[] = { { 1, 512 * K, 512 * K, 1536 * K },
				  { 2, 0, 512 * K, 2 * M } };
	/* block 10 = stripe 3, position 1: object set 1, object 4, its
	 * second stripe */
	const struct want c[] = { { 4, M + 100, 200, 10 * M + 100 } };

	(void)state;
	check(&l, 0, 7 * M, a, 7);
	check(&l, 1536 * K, M, b, 2);
	check(&l, 10 * M + 100, 200, c, 1);
}

/* 64K units over 4 objects of 256K: worked from the formulas by hand. */
static void test_small_units(void **state)
{
	struct ol_layout l = { 64 * K, 4, 256 * K, 1 };
	/* off 300K: block 4 (stripe 1, position 0) at offset 45056 in it */
	const struct want a[] = { { 0, 110592, 20480, 307200 },
				  { 1, 65536, 65536, 327680 },
				  { 2, 65536, 16384, 393216 } };
	/* block 16 = stripe 4 = object set 1 (stripes per object: 4) */
	const struct want b[] = { { 4, 0, 64 * K, 1024 * K },
				  { 5, 0, 1, 1088 * K } };

	(void)state;
	check(&l, 300 * K, 100 * K, a, 3);
	check(&l, 1024 * K, 64 * K + 1, b, 2);
}

/* Ceph quirk: with stripe_count 1 the stripe unit is the object size. */
static void test_count_one_quirk(void **state)
{
	struct ol_layout l = { 1 * M, 1, 4 * M, 1 };
	const struct want a[] = { { 0, 0, 4 * M, 0 }, { 1, 0, 1 * M, 4 * M } };

	(void)state;
	check(&l, 0, 5 * M, a, 2);
}

static void test_too_small_and_invalid(void **state)
{
	struct ol_layout l = { 1 * M, 3, 2 * M, 1 };
	struct ol_layout bad = { 3 * M, 1, 4 * M, 1 };
	struct ol_layout zero = { 0, 1, 4 * M, 1 };
	struct ol_extent e[2];

	(void)state;
	assert_int_equal(ol_file_to_extents(&l, 0, 7 * M, e, 2), -E2BIG);
	assert_false(ol_layout_valid(&bad));
	assert_false(ol_layout_valid(&zero));
	assert_true(ol_layout_valid(&l));
	assert_int_equal(ol_file_to_extents(&bad, 0, 1, e, 2), -EINVAL);
	assert_int_equal(ol_file_to_extents(&l, UINT64_MAX, 2, e, 2), -EINVAL);
}

/* The last byte of the largest file (INT64_MAX bytes, fs/vfs.h's
 * VFS_MAX_FILE_SIZE) under the smallest objects and the widest stripe:
 * the striper's sums do not wrap, the object number is what the formula
 * says, and its name fits a 40-byte buffer whole (issue 21). */
static void test_largest_file(void **state)
{
	const uint64_t last = (uint64_t)INT64_MAX - 1;
	struct ol_layout small = { 64 << 10, 1, 64 << 10, 1 };
	struct ol_layout wide = { 64 << 10, 65536, 64 << 10, 1 };
	struct ol_extent e[2];
	char name[40];

	(void)state;
	assert_int_equal(ol_file_to_extents(&small, last, 1, e, 2), 1);
	assert_int_equal(e[0].objectno, last >> 16);
	assert_int_equal(e[0].obj_off, 0xffff - 1);
	assert_int_equal(e[0].file_off, last);
	assert_int_equal(ol_object_count(&small, last + 1), (last >> 16) + 1);
	assert_int_equal(ol_object_bytes(&small, last >> 16, last + 1),
			 0xffff);
	assert_int_equal(ol_file_to_extents(&wide, last, 1, e, 2), 1);
	assert_int_equal(e[0].objectno, last >> 16);
	ol_object_name(0xffffffffffffffffULL, e[0].objectno, name,
		       sizeof(name));
	assert_string_equal(name, "ffffffffffffffff.7fffffffffff");
	/* a range ending past UINT64_MAX is refused, never wrapped */
	assert_int_equal(ol_file_to_extents(&small, last, UINT64_MAX, e, 2),
			 -EINVAL);
}

/* CephFS's file_layout_t::is_valid (src/common/fs_types.cc): 64 KiB
 * multiples, object size a multiple of the unit, count >= 1; plus our
 * bounds: count <= 65536, objects <= 1 GiB. */
static void test_layout_rules(void **state)
{
	static const struct {
		uint32_t su, sc, os;
		int valid;
	} c[] = {
		{ 4 * M, 1, 4 * M, 1 },
		{ 64 * K, 1, 64 * K, 1 },
		{ 64 * K, 65536, 1024 * M, 1 },
		{ 1 * M, 3, 2 * M, 1 },
		{ 4 * K, 1, 4 * M, 0 },		/* unit under 64 KiB */
		{ 96 * K, 1, 192 * K, 0 },	/* not a 64 KiB multiple */
		{ 64 * K, 1, 100 * K, 0 },	/* object likewise */
		{ 128 * K, 1, 64 * K, 0 },	/* object smaller than unit */
		{ 128 * K, 1, 192 * K, 0 },	/* unit does not divide */
		{ 0, 1, 4 * M, 0 },
		{ 4 * M, 1, 0, 0 },
		{ 4 * M, 0, 4 * M, 0 },
		{ 4 * M, 65537, 4 * M, 0 },
		{ 4 * M, UINT32_MAX, 4 * M, 0 }, /* the daemon-hanging one */
		{ 64 * K, 1, 1024 * M + 64 * K, 0 },
		{ 64 * K, 1, 4032 * M, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct ol_layout l = { c[i].su, c[i].sc, c[i].os, 1 };

		if (ol_layout_valid(&l) != c[i].valid)
			fail_msg("layout %u/%u/%u: valid %d, expected %d",
				 c[i].su, c[i].sc, c[i].os, ol_layout_valid(&l),
				 c[i].valid);
		if (!c[i].valid) {
			struct ol_extent e[1];

			assert_int_equal(ol_file_to_extents(&l, 0, 2, e, 1),
					 -EINVAL);
			assert_int_equal(ol_object_count(&l, 2), 0);
		}
	}
	assert_false(ol_layout_valid(NULL));
}

static void test_names(void **state)
{
	char buf[64];

	(void)state;
	ol_object_name(0x10000000000ULL, 2, buf, sizeof(buf));
	assert_string_equal(buf, "10000000000.00000002");
	ol_object_name(0x1234abcdULL, 0x1ffffffffULL, buf, sizeof(buf));
	assert_string_equal(buf, "1234abcd.1ffffffff");
}

static void test_object_count(void **state)
{
	struct ol_layout def = { 4 * M, 1, 4 * M, 1 };
	struct ol_layout three = { 1 * M, 3, 2 * M, 1 };

	(void)state;
	assert_int_equal(ol_object_count(&def, 0), 0);
	assert_int_equal(ol_object_count(&def, 1), 1);
	assert_int_equal(ol_object_count(&def, 4 * M), 1);
	assert_int_equal(ol_object_count(&def, 4 * M + 1), 2);
	/* 7M: last block 6 is in object set 1: a whole set counts */
	assert_int_equal(ol_object_count(&three, 7 * M), 6);
	assert_int_equal(ol_object_count(&three, 6 * M), 3);
}

/* What each object holds for a given file size, by hand for su 1M,
 * count 3, object 2M: object 0 holds blocks 0 and 3, object 1 blocks 1
 * and 4, object 2 blocks 2 and 5, object 3 block 6... */
static void test_object_bytes(void **state)
{
	struct ol_layout three = { 1 * M, 3, 2 * M, 1 };
	struct ol_layout def = { 4 * M, 1, 4 * M, 1 };

	(void)state;
	assert_int_equal(ol_object_bytes(&three, 0, 7 * M), 2 * M);
	assert_int_equal(ol_object_bytes(&three, 1, 7 * M), 2 * M);
	assert_int_equal(ol_object_bytes(&three, 2, 7 * M), 2 * M);
	assert_int_equal(ol_object_bytes(&three, 3, 7 * M), 1 * M);
	assert_int_equal(ol_object_bytes(&three, 4, 7 * M), 0);
	/* 4.5M: block 4 is half there */
	assert_int_equal(ol_object_bytes(&three, 0, 4608 * K), 2 * M);
	assert_int_equal(ol_object_bytes(&three, 1, 4608 * K), 1536 * K);
	assert_int_equal(ol_object_bytes(&three, 2, 4608 * K), 1 * M);
	assert_int_equal(ol_object_bytes(&three, 3, 4608 * K), 0);
	/* 1.5M: only blocks 0 and 1 */
	assert_int_equal(ol_object_bytes(&three, 0, 1536 * K), 1 * M);
	assert_int_equal(ol_object_bytes(&three, 1, 1536 * K), 512 * K);
	assert_int_equal(ol_object_bytes(&three, 2, 1536 * K), 0);
	assert_int_equal(ol_object_bytes(&def, 0, 5 * M), 4 * M);
	assert_int_equal(ol_object_bytes(&def, 1, 5 * M), 1 * M);
	assert_int_equal(ol_object_bytes(&def, 2, 5 * M), 0);
	assert_int_equal(ol_object_bytes(&def, 0, 0), 0);
}

/* Property: the extents of any range tile it exactly, and agree with
 * ol_object_bytes on where each object ends. */
static void test_tiling(void **state)
{
	const struct ol_layout ls[] = { { 4 * M, 1, 4 * M, 1 },
					{ 1 * M, 3, 2 * M, 1 },
					{ 64 * K, 4, 256 * K, 1 },
					{ 64 * K, 7, 192 * K, 1 } };
	struct ol_extent e[4096];

	(void)state;
	for (size_t li = 0; li < sizeof(ls) / sizeof(ls[0]); li++) {
		const struct ol_layout *l = &ls[li];
		uint64_t size = 3 * l->object_size * l->stripe_count + 12345;
		uint64_t end[64] = { 0 };
		int n = ol_file_to_extents(l, 0, size, e, 4096);
		uint64_t pos = 0;

		assert_true(n > 0);
		for (int i = 0; i < n; i++) {
			assert_int_equal(e[i].file_off, pos);
			assert_true(e[i].obj_off + e[i].len <= l->object_size);
			pos += e[i].len;
			assert_true(e[i].objectno < 64);
			if (e[i].obj_off + e[i].len > end[e[i].objectno])
				end[e[i].objectno] = e[i].obj_off + e[i].len;
		}
		assert_int_equal(pos, size);
		for (uint64_t o = 0; o < 64; o++)
			assert_int_equal(ol_object_bytes(l, o, size), end[o]);
		assert_true(ol_object_count(l, size) >= 4);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_layout),
		cmocka_unit_test(test_three_stripes),
		cmocka_unit_test(test_small_units),
		cmocka_unit_test(test_count_one_quirk),
		cmocka_unit_test(test_too_small_and_invalid),
		cmocka_unit_test(test_largest_file),
		cmocka_unit_test(test_layout_rules),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_object_count),
		cmocka_unit_test(test_object_bytes),
		cmocka_unit_test(test_tiling),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
