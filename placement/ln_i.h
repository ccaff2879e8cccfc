/*
 * ln_i.h - straw2's fixed-point logarithm, Ceph's crush_ln() (mapper.c,
 * v16.2), inline for the straw2 loop.  Result: 2^44 * log2(x + 1) for x in
 * [0, 0xffff], from two lookup tables generated at build time by
 * ln_table_gen.c (see docs/straw2-tables.md).
 */
#ifndef CRUSHFS_LN_I_H
#define CRUSHFS_LN_I_H

#include <stdint.h>

#include "crush_ln_table.h"

static inline uint64_t crush_ln(unsigned int xin)
{
	unsigned int x = xin + 1;
	int iexpon = 15;
	int index1, index2;
	uint64_t RH, LH, LL, xl64, result;

	/* normalize so bit 15 or 16 is the top bit */
	if (!(x & 0x18000)) {
		int bits = __builtin_clz(x & 0x1FFFF) - 16;
		x <<= bits;
		iexpon = 15 - bits;
	}

	index1 = (x >> 8) << 1;
	RH = (uint64_t)pl_rh_lh_tbl[index1 - 256];     /* ~ 2^56 / index1 */
	LH = (uint64_t)pl_rh_lh_tbl[index1 + 1 - 256]; /* ~ 2^48 log2(index1/256) */

	/* Ceph multiplies (__s64)x by the unsigned RH: an unsigned product */
	xl64 = (uint64_t)x * RH;
	xl64 >>= 48;

	result = (uint64_t)iexpon;
	result <<= (12 + 32);

	index2 = xl64 & 0xff;
	LL = (uint64_t)pl_ll_tbl[index2]; /* ~ 2^48 log2(1 + index2/2^15) */

	LH = LH + LL;
	LH >>= (48 - 12 - 32);
	result += LH;
	return result;
}

#endif
