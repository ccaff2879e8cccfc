/*
 * pg.c - object name -> placement group -> placement seed, as Ceph 16.2's
 * pg_pool_t (src/osd/osd_types.cc) computes them for replicated pools with
 * the HASHPSPOOL flag (default since Firefly) and object_hash rjenkins.
 */
#include "placement.h"

uint32_t pl_stable_mod(uint32_t x, uint32_t b, uint32_t bmask)
{
	/* Ceph's ceph_stable_mod works on ints; the bit operations are the
	 * same on unsigned values. */
	if ((x & bmask) < b)
		return x & bmask;
	return x & (bmask >> 1);
}

uint32_t pl_pg_mask(uint32_t n)
{
	uint32_t v = n ? n - 1 : 0;
	int bits = 0;

	while (v) {
		bits++;
		v >>= 1;
	}
	return bits >= 32 ? 0xffffffffu : (1u << bits) - 1;
}

uint32_t pl_object_ps(const char *name, size_t len)
{
	return pl_str_hash(name, len);
}

uint32_t pl_pg_seed(uint32_t raw_ps, uint32_t pg_num)
{
	return pl_stable_mod(raw_ps, pg_num, pl_pg_mask(pg_num));
}

uint32_t pl_pg_pps(uint32_t ps, uint32_t pgp_num, int64_t pool_id)
{
	/* HASHPSPOOL: hash the pool id in, so pools do not overlap. */
	return pl_hash32_2(pl_stable_mod(ps, pgp_num, pl_pg_mask(pgp_num)),
			   (uint32_t)pool_id);
}
