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

/* ---- weight sets follow a reweight (Ceph 16.2 CrushWrapper) ---- */


static int cargs_adjust(pl_map *m, struct pl_choose_args *ca, int id,
			const int *w, uint32_t nw);

/* _choose_args_adjust_item_weight_in_bucket: a bucket without a weight
 * set gets one (its item weights, as many positions as the set uses);
 * id's entries become w; the bucket's sums then go up the tree */
static int cargs_adjust_in_bucket(pl_map *m, struct pl_choose_args *ca,
				  struct pl_bucket *b, int id, const int *w,
				  uint32_t nw)
{
	uint32_t bidx = (uint32_t)(-1 - b->id);
	struct pl_choose_arg *a;
	int changed = 0;

	if (bidx >= ca->size)
		return 0;
	a = &ca->args[bidx];
	if (!a->weight_set) {
		uint32_t pos = 1, *iw;
		int err;

		for (uint32_t j = 0; j < ca->size; j++)
			if (ca->args[j].weight_set_positions) {
				pos = ca->args[j].weight_set_positions;
				break;
			}
		iw = calloc((size_t)pos * b->size + 1, sizeof(*iw));
		if (!iw)
			return -ENOMEM;
		for (uint32_t p = 0; p < pos; p++)
			for (uint32_t i = 0; i < b->size; i++)
				iw[(size_t)p * b->size + i] =
					pl_map_bucket_item_weight(m, b->id,
								  (int)i);
		err = pl_cargs_set_weights(ca, bidx, pos, b->size, iw);
		free(iw);
		if (err)
			return err;
		changed++;
	}
	if (a->weight_set_positions != nw)
		return 0;
	for (uint32_t i = 0; i < b->size; i++) {
		if (b->items[i] != id)
			continue;
		for (uint32_t j = 0; j < nw; j++)
			a->weight_set[j].weights[i] = (uint32_t)w[j];
		changed++;
	}
	if (changed) {
		int sums[32] = { 0 };

		if (nw > 32)
			return -E2BIG;
		for (uint32_t j = 0; j < nw; j++) {
			pl_ws_reciprocals(&a->weight_set[j]);
			for (uint32_t i = 0; i < b->size; i++)
				sums[j] += (int)a->weight_set[j].weights[i];
		}
		return cargs_adjust(m, ca, b->id, sums, nw) < 0 ? -ENOMEM :
								 changed;
	}
	return 0;
}

/* CrushWrapper::choose_args_adjust_item_weight over every bucket */
static int cargs_adjust(pl_map *m, struct pl_choose_args *ca, int id,
			const int *w, uint32_t nw)
{
	int changed = 0;

	for (int32_t pos = 0; pos < m->max_buckets; pos++) {
		int r;

		if (!m->buckets[pos])
			continue;
		r = cargs_adjust_in_bucket(m, ca, m->buckets[pos], id, w, nw);
		if (r < 0)
			return r;
		changed += r;
	}
	return changed;
}

static int adjust(pl_map *m, int id, uint32_t weight, int update_ws);

/* CrushWrapper::adjust_item_weight_in_bucket */
static int adjust_in_bucket(pl_map *m, int id, uint32_t weight,
			    struct pl_bucket *b, int update_ws)
{
	uint32_t *w;
	int err, hit = 0, changed = 0;

	err = bucket_weights(m, b, &w);
	if (err)
		return err;
	for (uint32_t i = 0; i < b->size; i++) {
		if (b->items[i] == id || b->alg == PL_BUCKET_UNIFORM) {
			/* a uniform bucket has one weight for all */
			if (b->items[i] == id) {
				hit = 1;
				/* bucket_adjust_item_weight: every position
				 * of the item's weight sets takes it too */
				for (int c = 0; update_ws && c < m->ncargs;
				     c++) {
					struct pl_choose_args *ca = &m->cargs[c];
					uint32_t bi = (uint32_t)(-1 - b->id);

					if (bi >= ca->size)
						continue;
					for (uint32_t j = 0;
					     j < ca->args[bi].weight_set_positions;
					     j++) {
						struct pl_weight_set *ws =
							&ca->args[bi].weight_set[j];

						if (i < ws->size) {
							ws->weights[i] = weight;
							pl_ws_reciprocals(ws);
						}
					}
				}
			}
			w[i] = weight;
		}
	}
	if (hit) {
		uint32_t old = b->weight;

		err = bucket_rebuild(m, b, b->size, b->items, w);
		free(w);
		if (err)
			return err;
		changed = 1;
		if (b->weight != old || m->ncargs) {
			err = adjust(m, b->id, b->weight, 0);
			if (err && err != -ENOENT)
				return err;
		}
	} else {
		free(w);
	}
	/* update weight sets so they continue to sum */
	for (int c = 0; c < m->ncargs; c++) {
		struct pl_choose_args *ca = &m->cargs[c];
		uint32_t bi = (uint32_t)(-1 - b->id);
		struct pl_choose_arg *a;
		int sums[32] = { 0 };

		if (bi >= ca->size)
			continue;
		a = &ca->args[bi];
		if (!a->weight_set || a->weight_set_positions > 32)
			continue;
		for (uint32_t i = 0; i < b->size; i++)
			for (uint32_t j = 0; j < a->weight_set_positions; j++)
				if (i < a->weight_set[j].size)
					sums[j] += (int)a->weight_set[j].weights[i];
		err = cargs_adjust(m, ca, b->id, sums, a->weight_set_positions);
		if (err < 0)
			return err;
	}
	return changed;
}

static int adjust(pl_map *m, int id, uint32_t weight, int update_ws)
{
	int found = 0;

	for (int32_t pos = 0; pos < m->max_buckets; pos++) {
		int r;

		if (!m->buckets[pos])
			continue;
		r = adjust_in_bucket(m, id, weight, m->buckets[pos], update_ws);
		if (r < 0)
			return r;
		found |= r;
	}
	return found ? 0 : -ENOENT;
}

int pl_map_adjust_item_weight(pl_map *m, int id, uint32_t weight)
{
	int r;

	r = adjust(m, id, weight, 1);
	pl_map_finalize(m);
	return r;
}

/* CrushWrapper::bucket_add_item: the bucket's weight sets and ids grow
 * with it (weight 0, the item's own id), b already holding the item
 * last. */
static int cargs_grow(pl_map *m, struct pl_bucket *b, int item)
{
	uint32_t bi = (uint32_t)(-1 - b->id), n = b->size;

	for (int c = 0; c < m->ncargs; c++) {
		struct pl_choose_args *ca = &m->cargs[c];
		struct pl_choose_arg *a;

		if (bi >= ca->size)
			continue;
		a = &ca->args[bi];
		for (uint32_t j = 0; j < a->weight_set_positions; j++) {
			struct pl_weight_set *ws = &a->weight_set[j];
			uint32_t *nw = realloc(ws->weights, sizeof(*nw) * n);
			uint64_t *nm;
			uint8_t *ns;

			if (!nw)
				return -ENOMEM;
			ws->weights = nw;
			nm = realloc(ws->div_magic, sizeof(*nm) * n);
			if (!nm)
				return -ENOMEM;
			ws->div_magic = nm;
			ns = realloc(ws->div_shift, sizeof(*ns) * n);
			if (!ns)
				return -ENOMEM;
			ws->div_shift = ns;
			/* Ceph asserts the set had the bucket's old size */
			if (ws->size + 1 != n)
				return -EINVAL;
			ws->weights[ws->size] = 0;
			ws->size = n;
			pl_ws_reciprocals(ws);
		}
		if (a->ids_size) {
			int32_t *ni = realloc(a->ids, sizeof(*ni) *
							 pl_id_slots(n));

			if (!ni)
				return -ENOMEM;
			for (size_t k = n; k < pl_id_slots(n); k++)
				ni[k] = 0;
			a->ids = ni;
			if (a->ids_size + 1 != n)
				return -EINVAL;
			a->ids[a->ids_size] = item;
			a->ids_size = n;
		}
	}
	return 0;
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
	/* with weight sets, Ceph's insert_item adds the item at weight 0
	 * (bucket_add_item: every weight set and ids list grows by it),
	 * then adjusts it to its weight, weight sets included */
	w[b->size] = m->ncargs ? 0 : weight;
	err = bucket_rebuild(m, b, b->size + 1, items, w);
	free(items);
	free(w);
	if (!err && m->ncargs)
		err = cargs_grow(m, b, item);
	if (err)
		return err;
	/* a new bucket under a tree with classes: its shadow copies, as
	 * insert_item's rebuild_roots_with_classes makes them */
	if (item < 0 && !b->shadow && m->nclasses) {
		err = pl_class_clone_new(m, b->id, item);
		if (err)
			return err;
		b = bucket_at(m, bucket); /* the array may have moved */
	}
	if (m->ncargs) {
		err = weight && b->alg != PL_BUCKET_UNIFORM
			      ? adjust(m, item, weight, 1)
			      : 0;
		/* insert_item's rebuild_roots_with_classes re-clones the
		 * shadow trees and their weight sets */
		if (!err)
			err = pl_class_rebuild_cargs(m);
		pl_map_finalize(m);
		return err;
	}
	err = pl_map_adjust_item_weight(m, b->id, b->weight);
	if (err == -ENOENT) /* a root: nothing above it */
		err = 0;
	pl_map_finalize(m);
	return err;
}

