/*
 * hash_i.h - CRUSH's rjenkins1 hashes as inline functions, so the bucket
 * loops (where mapping spends most of its time) can inline and vectorize
 * them.  hash.c exports the same functions for everyone else.
 */
#ifndef CRUSHFS_HASH_I_H
#define CRUSHFS_HASH_I_H

#include <stdint.h>

#define HASH_SEED 1315423911u

/* Jenkins' 96-bit mix; every operation is on 32-bit unsigned values. */
#define MIX(a, b, c)                                    \
	do {                                            \
		a -= b; a -= c; a ^= (c >> 13);         \
		b -= c; b -= a; b ^= (a << 8);          \
		c -= a; c -= b; c ^= (b >> 13);         \
		a -= b; a -= c; a ^= (c >> 12);         \
		b -= c; b -= a; b ^= (a << 16);         \
		c -= a; c -= b; c ^= (b >> 5);          \
		a -= b; a -= c; a ^= (c >> 3);          \
		b -= c; b -= a; b ^= (a << 10);         \
		c -= a; c -= b; c ^= (b >> 15);         \
	} while (0)

static inline uint32_t crush_hash32_1(uint32_t a)
{
	uint32_t hash = HASH_SEED ^ a;
	uint32_t b = a, x = 231232, y = 1232;

	MIX(b, x, hash);
	MIX(y, a, hash);
	return hash;
}

static inline uint32_t crush_hash32_2(uint32_t a, uint32_t b)
{
	uint32_t hash = HASH_SEED ^ a ^ b;
	uint32_t x = 231232, y = 1232;

	MIX(a, b, hash);
	MIX(x, a, hash);
	MIX(b, y, hash);
	return hash;
}

static inline uint32_t crush_hash32_3(uint32_t a, uint32_t b, uint32_t c)
{
	uint32_t hash = HASH_SEED ^ a ^ b ^ c;
	uint32_t x = 231232, y = 1232;

	MIX(a, b, hash);
	MIX(c, x, hash);
	MIX(y, a, hash);
	MIX(b, x, hash);
	MIX(y, c, hash);
	return hash;
}

static inline uint32_t crush_hash32_4(uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
	uint32_t hash = HASH_SEED ^ a ^ b ^ c ^ d;
	uint32_t x = 231232, y = 1232;

	MIX(a, b, hash);
	MIX(c, d, hash);
	MIX(a, x, hash);
	MIX(y, b, hash);
	MIX(c, x, hash);
	MIX(y, d, hash);
	return hash;
}

static inline uint32_t crush_hash32_5(uint32_t a, uint32_t b, uint32_t c, uint32_t d,
		     uint32_t e)
{
	uint32_t hash = HASH_SEED ^ a ^ b ^ c ^ d ^ e;
	uint32_t x = 231232, y = 1232;

	MIX(a, b, hash);
	MIX(c, d, hash);
	MIX(e, x, hash);
	MIX(y, a, hash);
	MIX(b, x, hash);
	MIX(y, c, hash);
	MIX(d, x, hash);
	MIX(y, e, hash);
	return hash;
}

#endif
