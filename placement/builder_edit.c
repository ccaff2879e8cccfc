/*
 * builder_edit.c - changing a built map, as the cluster's `osd crush
 * reweight` and `osd add` do (Ceph CrushWrapper::adjust_item_weight,
 * insert_item): a changed bucket is rebuilt from its items and weights, so
 * its derived data equals what building it from scratch gives, and bucket
 * weights stay consistent up to the root.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "crush_i.h"

static struct pl_bucket *bucket_at(const pl_map *m, int id)
{
	if (id >= 0 || -1 - id >= m->max_buckets)
		return NULL;
	return m->buckets[-1 - id];
}


/* Rebuild bucket b in place with new items/weights: derived data (sums,
 * tree nodes, straws) then equals what building from scratch gives, which
 * is what Ceph's incremental add/adjust functions produce too. */
static int bucket_rebuild(pl_map *m, struct pl_bucket *b, uint32_t size,
			  const int32_t *items, const uint32_t *weights)
{
	struct pl_bucket nb = { 0 };
	int err;

	nb.id = b->id;
	nb.type = b->type;
	nb.alg = b->alg;
	nb.hash = b->hash;
	nb.size = size;
	err = pl_bucket_build(m, &nb, items, weights);
	if (err)
		return err;
	pl_bucket_free_arrays(b);
	*b = nb;
	m->finalized = 0; /* items may have changed: parents are stale */
	return 0;
}

static int bucket_weights(const pl_map *m, const struct pl_bucket *b,
			  uint32_t **out)
{
	uint32_t *w = calloc((size_t)b->size + 2, sizeof(uint32_t));

	if (!w)
		return -ENOMEM;
	for (uint32_t i = 0; i < b->size; i++)
		w[i] = pl_map_bucket_item_weight(m, b->id, (int)i);
	*out = w;
	return 0;
}

int pl_map_adjust_item_weight(pl_map *m, int id, uint32_t weight)
{
	int found = 0;

	/* Ceph rewrites every weight set on the way up (CrushWrapper::
	 * adjust_item_weight_in_bucket and choose_args_adjust_item_weight);
	 * until that is mirrored, a map with choose_args is not edited */
	if (m->ncargs)
		return -ENOTSUP;

	for (int32_t pos = 0; pos < m->max_buckets; pos++) {
		struct pl_bucket *b = m->buckets[pos];
		uint32_t *w;
		int err, hit = 0;

		if (!b)
			continue;
		err = bucket_weights(m, b, &w);
		if (err)
			return err;
		for (uint32_t i = 0; i < b->size; i++) {
			if (b->items[i] == id || b->alg == PL_BUCKET_UNIFORM) {
				/* a uniform bucket has one weight for all */
				if (b->items[i] == id)
					hit = 1;
				w[i] = weight;
			}
		}
		if (hit) {
			uint32_t old = b->weight;

			err = bucket_rebuild(m, b, b->size, b->items, w);
			free(w);
			if (err)
				return err;
			found = 1;
			if (b->weight != old) {
				err = pl_map_adjust_item_weight(m, b->id,
								b->weight);
				if (err && err != -ENOENT)
					return err;
			}
		} else {
			free(w);
		}
	}
	pl_map_finalize(m);
	return found ? 0 : -ENOENT;
}

int pl_map_bucket_add_item(pl_map *m, int bucket, int item, uint32_t weight)
{
	struct pl_bucket *b = bucket_at(m, bucket);
	int32_t *items;
	uint32_t *w;
	int err;

	if (!b)
		return -ENOENT;
	if (item < 0 && !bucket_at(m, item))
		return -ENOENT;
	/* a weight set must grow with its bucket (CrushWrapper::
	 * bucket_add_item): not mirrored yet */
	if (m->ncargs)
		return -ENOTSUP;
	if (b->size >= PL_MAX_BUCKET_SIZE)
		return -E2BIG;
	for (uint32_t i = 0; i < b->size; i++)
		if (b->items[i] == item)
			return -EEXIST;
	err = bucket_weights(m, b, &w);
	if (err)
		return err;
	items = calloc((size_t)b->size + 2, sizeof(int32_t));
	if (!items) {
		free(w);
		return -ENOMEM;
	}
	memcpy(items, b->items, sizeof(int32_t) * b->size);
	items[b->size] = item;
	if (b->alg == PL_BUCKET_UNIFORM && b->size)
		weight = b->item_weight;
	w[b->size] = weight;
	err = bucket_rebuild(m, b, b->size + 1, items, w);
	free(items);
	free(w);
	if (err)
		return err;
	err = pl_map_adjust_item_weight(m, b->id, b->weight);
	if (err == -ENOENT) /* a root: nothing above it */
		err = 0;
	pl_map_finalize(m);
	return err;
}

