/*
 * straw2_i.h - straw2's choice, Ceph 16.2's bucket_straw2_choose, inline
 * in the mapper (mapper.c) because nearly every mapping of a modern map
 * spends most of its time here: inlined into choose_firstn/choose_indep
 * it saves a call and a dispatch per bucket visited (measured in
 * bench/crush_bench.sh).  The other four algorithms are in buckets.c.
 * spec_i.h draws several buckets at once with the same two halves
 * (straw2_arrays, straw2_pick).
 */
#ifndef CRUSHFS_STRAW2_I_H
#define CRUSHFS_STRAW2_I_H

#include <stdint.h>

#include "crush_i.h"
#include "hash_i.h"
#include "crush_negln_table.h"

/*
 * straw2: every item draws ln(u)/weight and the longest straw wins.  The
 * hashes are computed in a separate pass over a chunk of items: that loop
 * is branch-free 32-bit arithmetic the compiler vectorizes, and it is where
 * mapping spends most of its time.  Hashing zero-weight items too changes
 * nothing (the hash is pure).
 */
#define STRAW2_CHUNK 64

/* The arrays a draw reads: Ceph's get_choose_arg_weights (weight_set at
 * position, the last one past the end) and get_choose_arg_ids. */
struct straw2_arrays {
	const uint32_t *weights;
	const uint64_t *magic;
	const uint8_t *shift;
	const int32_t *ids;
};

static inline __attribute__((always_inline)) void
straw2_arrays(const struct pl_bucket *b, const struct pl_choose_arg *arg,
	      int position, struct straw2_arrays *a)
{
	a->weights = b->item_weights;
	a->magic = b->div_magic;
	a->shift = b->div_shift;
	a->ids = b->items;
	if (arg && arg->weight_set) {
		const struct pl_weight_set *ws;

		if ((uint32_t)position >= arg->weight_set_positions)
			position = (int)arg->weight_set_positions - 1;
		ws = &arg->weight_set[position];
		a->weights = ws->weights;
		a->magic = ws->div_magic;
		a->shift = ws->div_shift;
	}
	if (arg && arg->ids)
		a->ids = arg->ids;
}

/* Items base .. base+n-1 draw with hashes u[0 .. n-1]; the longest straw
 * so far is *high (*high_draw). */
static inline __attribute__((always_inline)) void
straw2_pick(const struct straw2_arrays *a, const uint32_t *u,
	    unsigned int base, unsigned int n, unsigned int *high,
	    int64_t *high_draw)
{
	for (unsigned int i = 0; i < n; i++) {
		uint32_t w = a->weights[base + i];
		int64_t draw;

		if (w) {
			/* -ln(u/0x10000) in 2^44 units (Ceph's 2^48 -
			 * crush_ln(u), one load from the generated table):
			 * a larger weight gives a larger draw */
			uint64_t neg_ln = pl_negln_tbl[u[i]];
			/* Ceph: ln / w, truncating toward zero */
			draw = -(int64_t)pl_div_apply(neg_ln, a->magic[base + i],
						      a->shift[base + i]);
		} else {
			draw = INT64_MIN;
		}
		if (draw > *high_draw) {
			*high = base + i;
			*high_draw = draw;
		}
	}
}

static inline __attribute__((always_inline)) int
pl_straw2_choose(const struct pl_bucket *b, int x, int r,
			 const struct pl_choose_arg *arg, int position)
{
	uint32_t u[STRAW2_CHUNK];
	/* Ceph takes item 0 first (i == 0 || draw > high_draw): starting
	 * from item 0 at the lowest draw is the same, without the test */
	unsigned int i, base, n, high = 0;
	int64_t high_draw = INT64_MIN;
	struct straw2_arrays a;

	straw2_arrays(b, arg, position, &a);
	for (base = 0; base < b->size; base += n) {
		n = b->size - base;
		if (n > STRAW2_CHUNK)
			n = STRAW2_CHUNK;
		/* whole groups of four (pl_id_slots pads the ids): one
		 * fixed-width vector body, no remainder loop whose trip
		 * count changes from bucket to bucket */
		for (i = 0; i < n; i += 4)
			for (unsigned int k = 0; k < 4; k++)
				u[i + k] = crush_hash32_3(
					(uint32_t)x, (uint32_t)a.ids[base + i + k],
					(uint32_t)r) & 0xffff;
		if (b->hash != PL_HASH_RJENKINS1) /* outside the hot loop */
			for (i = 0; i < n; i++)
				u[i] = 0;
		straw2_pick(&a, u, base, n, &high, &high_draw);
	}
	return b->items[high];
}

#endif
