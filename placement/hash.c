/*
 * hash.c - the hashes placement depends on, bit-exact with Ceph 16.2:
 * CRUSH's rjenkins1 mixing hash with 1..5 inputs (src/crush/hash.c) and the
 * object-name hash of `object_hash rjenkins` pools (src/common/ceph_hash.cc,
 * Bob Jenkins' lookup2).  Both use the same 96-bit mix step.
 */
#include "placement.h"

#include "hash_i.h"

uint32_t pl_hash32(uint32_t a) { return crush_hash32_1(a); }
uint32_t pl_hash32_2(uint32_t a, uint32_t b) { return crush_hash32_2(a, b); }
uint32_t pl_hash32_3(uint32_t a, uint32_t b, uint32_t c)
{
	return crush_hash32_3(a, b, c);
}
uint32_t pl_hash32_4(uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
	return crush_hash32_4(a, b, c, d);
}
uint32_t pl_hash32_5(uint32_t a, uint32_t b, uint32_t c, uint32_t d,
		     uint32_t e)
{
	return crush_hash32_5(a, b, c, d, e);
}

static uint32_t le32(const unsigned char *k)
{
	return (uint32_t)k[0] | (uint32_t)k[1] << 8 | (uint32_t)k[2] << 16 |
	       (uint32_t)k[3] << 24;
}

uint32_t pl_str_hash(const char *s, size_t length)
{
	const unsigned char *k = (const unsigned char *)s;
	uint32_t a = 0x9e3779b9u, b = a, c = 0;
	size_t len = length;

	while (len >= 12) {
		a += le32(k);
		b += le32(k + 4);
		c += le32(k + 8);
		MIX(a, b, c);
		k += 12;
		len -= 12;
	}
	/* lookup2 folds the length into c; Ceph truncates it to 32 bits. */
	c += (uint32_t)length;
	/* the low byte of c is reserved for the length, hence the shifts */
	switch (len) {
	case 11: c += (uint32_t)k[10] << 24; /* fall through */
	case 10: c += (uint32_t)k[9] << 16;  /* fall through */
	case 9:  c += (uint32_t)k[8] << 8;   /* fall through */
	case 8:  b += (uint32_t)k[7] << 24;  /* fall through */
	case 7:  b += (uint32_t)k[6] << 16;  /* fall through */
	case 6:  b += (uint32_t)k[5] << 8;   /* fall through */
	case 5:  b += k[4];                  /* fall through */
	case 4:  a += (uint32_t)k[3] << 24;  /* fall through */
	case 3:  a += (uint32_t)k[2] << 16;  /* fall through */
	case 2:  a += (uint32_t)k[1] << 8;   /* fall through */
	case 1:  a += k[0];                  /* fall through */
	default: break;
	}
	MIX(a, b, c);
	return c;
}
