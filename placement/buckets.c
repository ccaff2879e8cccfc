/*
 * buckets.c - choose one item of a bucket for input x and replica rank r,
 * for each of CRUSH's five bucket algorithms, exactly as Ceph 16.2's
 * mapper.c.  Nothing here allocates: uniform buckets keep their permutation
 * in the caller's workspace (Luminous moved it out of the map).
 */
#include <stdint.h>

#include "crush_i.h"
#include "hash_i.h"

/*
 * A bucket hashes with its own hash type; Ceph's crush_hash32_3/4 return
 * 0 for any type but rjenkins1 (crushtool compiles `hash 1` .. `hash 255`
 * and maps with that 0), so such a bucket draws 0 everywhere.
 */
#define BHASH3(b, x, y, z) \
	((b)->hash == PL_HASH_RJENKINS1 ? crush_hash32_3(x, y, z) : 0u)
#define BHASH4(b, x, y, z, w) \
	((b)->hash == PL_HASH_RJENKINS1 ? crush_hash32_4(x, y, z, w) : 0u)

/*
 * Uniform buckets pick by a lazily built pseudo-random permutation of the
 * items, cached per x.  perm_n == 0xffff marks "only perm[0] is valid" (the
 * common r == 0 case, which avoids building the permutation at all).
 */
int pl_bucket_perm_choose(const struct pl_bucket *b, struct pl_work_bucket *w,
			  int x, int r)
{
	unsigned int pr = (unsigned int)r % b->size;
	unsigned int i, s;

	if (w->perm_x != (uint32_t)x || w->perm_n == 0) {
		w->perm_x = (uint32_t)x;
		if (pr == 0) {
			s = BHASH3(b, (uint32_t)x, (uint32_t)b->id, 0) %
			    b->size;
			w->perm[0] = s;
			w->perm_n = 0xffff;
			return b->items[s];
		}
		for (i = 0; i < b->size; i++)
			w->perm[i] = i;
		w->perm_n = 0;
	} else if (w->perm_n == 0xffff) {
		/* expand the r == 0 shortcut into a real permutation prefix */
		for (i = 1; i < b->size; i++)
			w->perm[i] = i;
		w->perm[w->perm[0]] = 0;
		w->perm_n = 1;
	}

	while (w->perm_n <= pr) {
		unsigned int p = w->perm_n;

		if (p < b->size - 1) {
			i = BHASH3(b, (uint32_t)x, (uint32_t)b->id, p) %
			    (b->size - p);
			if (i) {
				unsigned int t = w->perm[p + i];

				w->perm[p + i] = w->perm[p];
				w->perm[p] = t;
			}
		}
		w->perm_n++;
	}
	s = w->perm[pr];
	return b->items[s];
}

static int list_choose(const struct pl_bucket *b, int x, int r)
{
	int i;

	/* walk from the tail: newest items first, so adding items at the
	 * end only moves data onto them */
	for (i = (int)b->size - 1; i >= 0; i--) {
		uint64_t w = BHASH4(b, (uint32_t)x, (uint32_t)b->items[i],
				    (uint32_t)r, (uint32_t)b->id);
		w &= 0xffff;
		w *= b->sum_weights[i];
		w >>= 16;
		if (w < b->item_weights[i])
			return b->items[i];
	}
	return b->items[0];
}

/* Tree nodes are numbered in-order: leaves odd, a node's height is its
 * number of trailing zero bits. */
static int tree_height(int n)
{
	int h = 0;

	while ((n & 1) == 0) {
		h++;
		n >>= 1;
	}
	return h;
}

static int tree_left(int x)
{
	return x - (1 << (tree_height(x) - 1));
}

static int tree_right(int x)
{
	return x + (1 << (tree_height(x) - 1));
}

static int tree_choose(const struct pl_bucket *b, int x, int r)
{
	int n = b->num_nodes >> 1;

	while (!(n & 1)) {
		uint32_t w = b->node_weights[n];
		uint64_t t = (uint64_t)BHASH4(b, (uint32_t)x, (uint32_t)n,
					      (uint32_t)r, (uint32_t)b->id) *
			     (uint64_t)w;
		int l;

		t >>= 32;
		l = tree_left(n);
		if (t < b->node_weights[l])
			n = l;
		else
			n = tree_right(n);
	}
	return b->items[n >> 1];
}

static int straw_choose(const struct pl_bucket *b, int x, int r)
{
	uint32_t i;
	int high = 0;
	uint64_t high_draw = 0, draw;

	for (i = 0; i < b->size; i++) {
		draw = BHASH3(b, (uint32_t)x, (uint32_t)b->items[i],
			      (uint32_t)r);
		draw &= 0xffff;
		draw *= b->straws[i];
		if (i == 0 || draw > high_draw) {
			high = (int)i;
			high_draw = draw;
		}
	}
	return b->items[high];
}

int pl_bucket_choose(const struct pl_bucket *b, struct pl_work_bucket *w,
		     int x, int r)
{
	switch (b->alg) {
	case PL_BUCKET_UNIFORM:
		return pl_bucket_perm_choose(b, w, x, r);
	case PL_BUCKET_LIST:
		return list_choose(b, x, r);
	case PL_BUCKET_TREE:
		return tree_choose(b, x, r);
	case PL_BUCKET_STRAW:
		return straw_choose(b, x, r);
	default:
		return b->items[0];
	}
}
