/*
 * test_ln_table.c - the generated straw2 log tables (crush_ln_table.h, from
 * placement/ln_table_gen.c) must equal Ceph's __RH_LH_tbl and __LL_tbl bit
 * for bit.  A digest covers every entry, so one wrong entry fails; the spot
 * values say which kind of entry (formula, offset, irregular, clamp) broke.
 * See docs/straw2-tables.md.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "crush_ln_table.h"
#include "crush_negln_table.h"
#include "crush_i.h" /* pl_crush_ln(), the tables' one user */

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Expected digests: 64-bit FNV-1a over each entry as 8 little-endian bytes,
 * entries in index order, one digest per table.  Computed once from Ceph's
 * src/crush/crush_ln_table.h as read from github.com/ceph/ceph (blob of
 * commit 0ef29e46c1ee802b21d1b6c308c30785415e07a0), and cross-checked
 * against the raw bytes of the two arrays in Debian's Ceph 16.2.15
 * libceph-common.so.2 (the oracle crushtool links); both gave these values.
 */
#define CEPH_RH_LH_FNV1A64 UINT64_C(0x40922be981f125f7)
#define CEPH_LL_FNV1A64 UINT64_C(0x4fb0480592de8de5)

/*
 * The tables as crush_ln() uses them: FNV-1a (as above) over pl_crush_ln(u)
 * for u = 0..0xffff, the whole domain straw2 feeds it.  Computed by running
 * a model of Ceph 16.2's crush_ln() (src/crush/mapper.c) over Ceph's own
 * tables, the values the digests above describe.
 */
#define CEPH_CRUSH_LN_FNV1A64 UINT64_C(0xf2dc9fa8d124387e)

#define FNV64_OFFSET UINT64_C(0xcbf29ce484222325)
#define FNV64_PRIME UINT64_C(0x100000001b3)

static uint64_t fnv1a64_bytes(uint64_t h, const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= FNV64_PRIME;
	}
	return h;
}

/* Byte order fixed by shifts, so the digest does not depend on the host. */
static uint64_t fnv1a64_table(const int64_t *t, size_t n)
{
	uint64_t h = FNV64_OFFSET;

	for (size_t i = 0; i < n; i++) {
		unsigned char b[8];
		uint64_t v = (uint64_t)t[i];

		for (int j = 0; j < 8; j++)
			b[j] = (unsigned char)(v >> (8 * j));
		h = fnv1a64_bytes(h, b, sizeof(b));
	}
	return h;
}

struct spot {
	int idx;
	int64_t val;
};

/* The digest helper itself, against the published FNV-1a test vectors. */
static void test_fnv1a64_vectors(void **state)
{
	(void)state;
	assert_int_equal(fnv1a64_bytes(FNV64_OFFSET, NULL, 0),
			 UINT64_C(0xcbf29ce484222325));
	assert_int_equal(fnv1a64_bytes(FNV64_OFFSET,
				       (const unsigned char *)"a", 1),
			 UINT64_C(0xaf63dc4c8601ec8c));
	assert_int_equal(fnv1a64_bytes(FNV64_OFFSET,
				       (const unsigned char *)"foobar", 6),
			 UINT64_C(0x85944171f73967e8));
}

static void test_rh_lh_digest(void **state)
{
	(void)state;
	assert_int_equal(ARRAY_SIZE(pl_rh_lh_tbl), 258);
	assert_int_equal(fnv1a64_table(pl_rh_lh_tbl, ARRAY_SIZE(pl_rh_lh_tbl)),
			 CEPH_RH_LH_FNV1A64);
}

static void test_ll_digest(void **state)
{
	(void)state;
	assert_int_equal(ARRAY_SIZE(pl_ll_tbl), 256);
	assert_int_equal(fnv1a64_table(pl_ll_tbl, ARRAY_SIZE(pl_ll_tbl)),
			 CEPH_LL_FNV1A64);
}

/* Ceph's values at chosen indices ([2k] = RH, [2k+1] = LH). */
static void test_rh_lh_spots(void **state)
{
	static const struct spot spots[] = {
		{ 0, INT64_C(0x0001000000000000) },   /* RH k=0: 2^48 exact */
		{ 1, INT64_C(0x0000000000000000) },   /* LH k=0: log2 1 */
		{ 2, INT64_C(0x0000fe03f80fe040) },   /* RH k=1, rounded up */
		{ 3, INT64_C(0x000002dfca16dde1) },   /* LH k=1 */
		{ 128, INT64_C(0x0000aaaaaaaaaaab) }, /* RH k=64: 2^55/192 */
		{ 129, INT64_C(0x000095c01a39fbd6) }, /* LH k=64 */
		{ 254, INT64_C(0x0000808080808081) }, /* RH k=127 */
		{ 255, INT64_C(0x0000fe8df263f957) }, /* LH k=127 */
		{ 256, INT64_C(0x0000800000000000) }, /* RH k=128: 2^47 */
		{ 257, INT64_C(0x0000ffff00000000) }, /* LH k=128: clamped */
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(spots); i++) {
		if (pl_rh_lh_tbl[spots[i].idx] != spots[i].val)
			print_message("pl_rh_lh_tbl[%d] differs\n", spots[i].idx);
		assert_int_equal(pl_rh_lh_tbl[spots[i].idx], spots[i].val);
	}
}

static void test_ll_spots(void **state)
{
	static const struct spot spots[] = {
		{ 0, INT64_C(0x0000000000000000) },   /* formula (0) */
		{ 1, INT64_C(0x00000002e2a60a00) },   /* formula, no offset */
		{ 2, INT64_C(0x000000070cb64ec5) },   /* formula + offset */
		{ 56, INT64_C(0x000000a2b07f3458) },  /* irregular */
		{ 127, INT64_C(0x0000016df6ca19bd) }, /* irregular */
		{ 128, INT64_C(0x00000171e3b6d7aa) }, /* formula + offset */
		{ 184, INT64_C(0x00000212b07f3458) }, /* irregular */
		{ 203, INT64_C(0x00000247ed646bfe) }, /* formula, no offset */
		{ 247, INT64_C(0x000002c61a5e8f4c) }, /* irregular */
		{ 254, INT64_C(0x000002da102d63b0) }, /* formula, no offset */
		{ 255, INT64_C(0x000002dced24f814) }, /* last, formula */
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(spots); i++) {
		if (pl_ll_tbl[spots[i].idx] != spots[i].val)
			print_message("pl_ll_tbl[%d] differs\n", spots[i].idx);
		assert_int_equal(pl_ll_tbl[spots[i].idx], spots[i].val);
	}
}

/* Every RH is ceil(2^55 / (128 + k)); exact integers, so checked in full. */
static void test_rh_formula(void **state)
{
	(void)state;
	for (uint64_t k = 0; k <= 128; k++) {
		uint64_t d = 128 + k;
		uint64_t rh = ((UINT64_C(1) << 55) + d - 1) / d;

		assert_int_equal((uint64_t)pl_rh_lh_tbl[2 * k], rh);
	}
}

static void test_crush_ln_all_inputs(void **state)
{
	uint64_t h = FNV64_OFFSET;

	(void)state;
	assert_int_equal(pl_crush_ln(0), 0);
	assert_int_equal(pl_crush_ln(0x7fff), UINT64_C(0xf00000000000));
	assert_int_equal(pl_crush_ln(0x1234), UINT64_C(0xc2fb9e09ec18));
	/* 15 << 44 plus the clamped LH >> 4: just under 2^48 */
	assert_int_equal(pl_crush_ln(0xffff), UINT64_C(0xfffff0000000));
	for (unsigned int u = 0; u <= 0xffff; u++) {
		uint64_t v = pl_crush_ln(u);
		unsigned char b[8];

		for (int j = 0; j < 8; j++)
			b[j] = (unsigned char)(v >> (8 * j));
		h = fnv1a64_bytes(h, b, sizeof(b));
	}
	assert_int_equal(h, CEPH_CRUSH_LN_FNV1A64);
}

/* straw2 reads 2^48 - crush_ln(u) from the generated table: every entry
 * must be what crush_ln gives */
static void test_negln_table(void **state)
{
	(void)state;
	for (unsigned u = 0; u < 65536; u++)
		if (pl_negln_tbl[u] != 0x1000000000000ull - pl_crush_ln(u))
			fail_msg("pl_negln_tbl[%u] differs from crush_ln", u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fnv1a64_vectors),
		cmocka_unit_test(test_rh_lh_digest),
		cmocka_unit_test(test_ll_digest),
		cmocka_unit_test(test_rh_lh_spots),
		cmocka_unit_test(test_ll_spots),
		cmocka_unit_test(test_rh_formula),
		cmocka_unit_test(test_crush_ln_all_inputs),
		cmocka_unit_test(test_negln_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
