/*
 * ln_table_gen.c - host tool: writes the two lookup tables of straw2's
 * fixed-point logarithm (crush_ln(), ln.c) as a C header.
 *
 *   usage: ln_table_gen OUT.h NEGLN.h
 *
 * NEGLN.h holds 2^48 - crush_ln(u) for every 16-bit u, computed from those
 * tables with crush_ln's own steps: straw2 draws read it in one load
 * instead of running crush_ln (tests/unit/test_ln_table.c checks every
 * entry against crush_ln).
 *
 * The tables must equal Ceph's __RH_LH_tbl and __LL_tbl
 * (src/crush/crush_ln_table.h, unchanged from 2015 through v16.2) bit for
 * bit: every straw2 draw goes through them, so one wrong entry moves data.
 * Ceph's tables do not follow the formulas its comments state, so each
 * table here is "formula + correction list", and tests/unit/test_ln_table.c
 * compares the result with a digest of Ceph's shipped values.  The formulas
 * and corrections are explained in docs/straw2-tables.md.
 *
 * For k = 0..128 (index1/2 - 128 in crush_ln):
 *   pl_rh_lh_tbl[2k]   RH = ceil(2^55 / (128 + k))      ~ 2^48 / (1 + k/128)
 *   pl_rh_lh_tbl[2k+1] LH = floor(2^48 * log2(1 + k/128)), except k = 128
 * For k = 0..255:
 *   pl_ll_tbl[k]       LL = floor(2^48 * log2(1 + k/2^15)) + correction
 */
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RH_LH_N 258
#define LL_N 256

/*
 * Precision.  A table entry is floor(2^48 * log2l(a)) with `a` exact in long
 * double (1 + k/128 and 1 + k/2^15 need at most 16 significant bits) and a
 * product by 2^48 that is exact, so the only rounding is log2l's own: glibc
 * documents at most 1-2 ulp for log2l on x86_64, i.e. an error below 2^-15
 * in units of the entry (the value is < 2^48, one ulp there is <= 2^-16).
 * The true values lie at least 3.2e-4 (~2^-11.6, LL) and 3.9e-3 (LH) from
 * an integer (checked with 300-bit arithmetic), so floor() cannot tip.
 * gcc and clang on x86_64 both use the 64-bit-mantissa x87 format and the
 * same libm, so the output is identical with either.  As a guard, an entry
 * whose computed value lies within FLOOR_GUARD of an integer aborts the
 * generator rather than risking a silently wrong table; a long double
 * narrower than 64 bits (e.g. MSVC, where it is double) cannot pass it.
 */
#if LDBL_MANT_DIG < 64
#error "ln_table_gen needs a long double with at least 64 mantissa bits"
#endif
#define FLOOR_GUARD (1.0L / 8192.0L) /* 2^-13: 4x the worst libm error */

/* The last LH entry, k = 128, would be exactly 2^48 (log2 2 = 1).  Ceph
 * ships 0xffff00000000 instead; then crush_ln(0xffff) = 0xfffff0000000 < 2^48
 * and straw2's draw for u = 0xffff stays a (weight-dependent) negative number
 * instead of 0 for every weight. */
#define LH_LAST_CLAMPED INT64_C(0xffff00000000)

/*
 * The LL correction list.  It exists only to reproduce Ceph's shipped
 * __LL_tbl, on which placement compatibility depends: those values, not the
 * formula, decide where every straw2 bucket puts data, and every one of the
 * 256 entries is reachable from crush_ln() for some 16-bit input.
 *
 * 212 of 256 entries are the formula plus LL_OFFSET; the 21 in ll_exact are
 * the plain formula; the 23 in ll_irregular follow no pattern we found (13 of
 * them share their low 36 bits with one another in five groups - 56/134/184,
 * 199/210/227, 200/228, 212/229/240, 225/236 - which looks like damage done
 * when the table was produced, not a formula).  Counts and deltas were
 * derived by comparing Ceph's table with the formula at 300-bit precision.
 */
#define LL_OFFSET INT64_C(0x147700000)

static const uint8_t ll_exact[] = {
	0, 1, 203, 216, 222, 233, 237, 238, 239, 243, 244,
	245, 246, 248, 249, 250, 251, 252, 253, 254, 255,
};

/* Ceph's value minus floor(2^48 * log2(1 + k/2^15)). */
static const struct {
	uint8_t k;
	int64_t delta;
} ll_irregular[] = {
	{ 56, INT64_C(0x13ed9b9b0) },  { 127, INT64_C(0x3a4f4285) },
	{ 134, INT64_C(0xd5e895a5) },  { 181, INT64_C(0xeee4abc5) },
	{ 184, INT64_C(0x14340b8bf) }, { 188, INT64_C(0x833eb34b) },
	{ 193, INT64_C(0xe43eed13) },  { 198, INT64_C(0x95ad3c32) },
	{ 199, INT64_C(0x9f2a5b80) },  { 200, INT64_C(0xe2f45e65) },
	{ 207, INT64_C(0x12cbacd37) }, { 210, INT64_C(0x1144d0710) },
	{ 212, INT64_C(0xdac5961c) },  { 225, INT64_C(0xbf46f5f9) },
	{ 227, INT64_C(0x5a42d14a) },  { 228, INT64_C(0x9eac5357) },
	{ 229, INT64_C(0x217cfafc) },  { 231, INT64_C(0xd2d5723c) },
	{ 235, INT64_C(0x121cb06eb) }, { 236, INT64_C(0x13ac6617a) },
	{ 240, INT64_C(0x9df6bfdd) },  { 241, INT64_C(0xfa8d3579) },
	{ 247, INT64_C(0x15955a58) },
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* floor(2^48 * log2(a)) for 1 <= a < 2, or -1 if too close to call. */
static int64_t fixed_log2(long double a)
{
	long double v = ldexpl(log2l(a), 48);
	long double f = floorl(v);

	if (v - f < FLOOR_GUARD || f + 1.0L - v < FLOOR_GUARD) {
		/* a == 1 gives exactly 0, which is fine */
		if (v != 0.0L)
			return -1;
	}
	return (int64_t)f;
}

static int build_rh_lh(int64_t *t)
{
	for (int k = 0; k <= 128; k++) {
		uint64_t d = 128u + (uint64_t)k;

		t[2 * k] = (int64_t)(((UINT64_C(1) << 55) + d - 1) / d);
		if (k == 128) {
			t[2 * k + 1] = LH_LAST_CLAMPED;
			continue;
		}
		t[2 * k + 1] = fixed_log2(1.0L + (long double)k / 128.0L);
		if (t[2 * k + 1] < 0) {
			fprintf(stderr, "ln_table_gen: LH[%d] too close to an "
				"integer for this libm's log2l\n", k);
			return -1;
		}
	}
	return 0;
}

static int build_ll(int64_t *t)
{
	signed char kind[LL_N]; /* 0 offset, 1 exact, 2 irregular */
	int64_t delta[LL_N];
	int n_offset = 0;

	memset(kind, 0, sizeof(kind));
	for (size_t i = 0; i < ARRAY_SIZE(ll_exact); i++)
		kind[ll_exact[i]] = 1;
	for (size_t i = 0; i < ARRAY_SIZE(ll_irregular); i++) {
		if (kind[ll_irregular[i].k] != 0) {
			fprintf(stderr, "ln_table_gen: LL[%d] listed twice\n",
				ll_irregular[i].k);
			return -1;
		}
		kind[ll_irregular[i].k] = 2;
		delta[ll_irregular[i].k] = ll_irregular[i].delta;
	}

	for (int k = 0; k < LL_N; k++) {
		int64_t f = fixed_log2(1.0L + (long double)k / 32768.0L);

		if (f < 0) {
			fprintf(stderr, "ln_table_gen: LL[%d] too close to an "
				"integer for this libm's log2l\n", k);
			return -1;
		}
		switch (kind[k]) {
		case 0:
			t[k] = f + LL_OFFSET;
			n_offset++;
			break;
		case 1:
			t[k] = f;
			break;
		default:
			t[k] = f + delta[k];
			break;
		}
	}
	if (n_offset != LL_N - (int)ARRAY_SIZE(ll_exact) -
			(int)ARRAY_SIZE(ll_irregular)) {
		fprintf(stderr, "ln_table_gen: LL correction list has "
			"duplicate indices\n");
		return -1;
	}
	return 0;
}

static void emit(FILE *f, const char *name, const int64_t *t, int n,
		 int per_line)
{
	fprintf(f, "static const int64_t %s[%d] = {\n", name, n);
	for (int i = 0; i < n; i++) {
		if (i % per_line == 0)
			fprintf(f, "\t/* %3d */", i);
		fprintf(f, " INT64_C(0x%016" PRIx64 "),", (uint64_t)t[i]);
		if (i % per_line == per_line - 1 || i == n - 1)
			fputc('\n', f);
	}
	fprintf(f, "};\n");
}

/* crush_ln (ln_i.h, Ceph's mapper.c) on the tables just built */
static uint64_t ln_of(const int64_t *rh_lh, const int64_t *ll, unsigned xin)
{
	unsigned x = xin + 1;
	int iexpon = 15, index1, index2;
	uint64_t RH, LH, LL, xl64, result;

	if (!(x & 0x18000)) {
		int bits = __builtin_clz(x & 0x1FFFF) - 16;

		x <<= bits;
		iexpon = 15 - bits;
	}
	index1 = (int)((x >> 8) << 1);
	RH = (uint64_t)rh_lh[index1 - 256];
	LH = (uint64_t)rh_lh[index1 + 1 - 256];
	xl64 = ((uint64_t)x * RH) >> 48;
	result = (uint64_t)iexpon << (12 + 32);
	index2 = (int)(xl64 & 0xff);
	LL = (uint64_t)ll[index2];
	LH = (LH + LL) >> (48 - 12 - 32);
	return result + LH;
}

static int write_negln(const char *path, const int64_t *rh_lh,
		       const int64_t *ll)
{
	char tmp[4096];
	FILE *f;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp))
		return -1;
	f = fopen(tmp, "w");
	if (!f)
		return -1;
	fprintf(f,
		"/* generated by ln_table_gen.c; do not edit.\n"
		" * pl_negln_tbl[u] = 2^48 - crush_ln(u): straw2's -ln(u/2^16) in"
		" 2^44 units. */\n"
		"#ifndef CRUSHFS_CRUSH_NEGLN_TABLE_H\n"
		"#define CRUSHFS_CRUSH_NEGLN_TABLE_H\n\n"
		"#include <stdint.h>\n\n"
		"static const uint64_t pl_negln_tbl[65536] = {\n");
	for (unsigned u = 0; u < 65536; u++)
		fprintf(f, "0x%" PRIx64 ",%s",
			(uint64_t)0x1000000000000ull - ln_of(rh_lh, ll, u),
			u % 8 == 7 ? "\n" : "");
	fprintf(f, "};\n\n#endif\n");
	if (ferror(f) | (fclose(f) != 0) || rename(tmp, path) != 0) {
		remove(tmp);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int64_t rh_lh[RH_LH_N], ll[LL_N];
	char tmp[4096];
	FILE *f;

	if (argc != 3) {
		fprintf(stderr, "usage: ln_table_gen OUT.h NEGLN.h\n");
		return 2;
	}
	if (build_rh_lh(rh_lh) < 0 || build_ll(ll) < 0)
		return 1;
	if (write_negln(argv[2], rh_lh, ll)) {
		fprintf(stderr, "ln_table_gen: cannot write %s: %s\n", argv[2],
			strerror(errno));
		return 1;
	}

	/* Write beside the target and rename, so an interrupted build never
	 * leaves a truncated header that make would consider up to date. */
	if (snprintf(tmp, sizeof(tmp), "%s.tmp", argv[1]) >= (int)sizeof(tmp)) {
		fprintf(stderr, "ln_table_gen: %s: path too long\n", argv[1]);
		return 1;
	}
	f = fopen(tmp, "w");
	if (!f) {
		fprintf(stderr, "ln_table_gen: cannot write %s: %s\n", tmp,
			strerror(errno));
		return 1;
	}
	fprintf(f,
		"/* generated by ln_table_gen.c; do not edit.\n"
		" * straw2 log tables, equal to Ceph's __RH_LH_tbl and "
		"__LL_tbl (src/crush/crush_ln_table.h);\n"
		" * see docs/straw2-tables.md. */\n"
		"#ifndef CRUSHFS_CRUSH_LN_TABLE_H\n"
		"#define CRUSHFS_CRUSH_LN_TABLE_H\n\n"
		"#include <stdint.h>\n\n"
		"/* [2k] = ceil(2^55/(128+k)), [2k+1] = floor(2^48*log2(1+k/128)),"
		" k = 0..128;\n"
		" * [257] clamped to 0xffff00000000 as in Ceph. */\n");
	emit(f, "pl_rh_lh_tbl", rh_lh, RH_LH_N, 2);
	fprintf(f,
		"\n/* [k] = floor(2^48*log2(1+k/2^15)) + Ceph's correction "
		"(see ln_table_gen.c). */\n");
	emit(f, "pl_ll_tbl", ll, LL_N, 4);
	fprintf(f, "\n#endif /* CRUSHFS_CRUSH_LN_TABLE_H */\n");

	if (ferror(f) | (fclose(f) != 0)) {
		fprintf(stderr, "ln_table_gen: cannot write %s: %s\n", tmp,
			strerror(errno));
		remove(tmp);
		return 1;
	}
	if (rename(tmp, argv[1]) != 0) {
		fprintf(stderr, "ln_table_gen: cannot rename %s to %s: %s\n",
			tmp, argv[1], strerror(errno));
		remove(tmp);
		return 1;
	}
	return 0;
}
