/*
 * classes_cargs.c - the shadow trees' choose_args after a change that makes
 * Ceph re-clone them.  CrushWrapper::insert_item (16.2) ends with
 * rebuild_roots_with_classes: every shadow bucket is dropped and cloned
 * again (same ids) by device_class_clone, which also gives each clone a
 * fresh choose_arg in every choose_args set, whatever the map said before:
 *
 *  - as many positions as the original bucket's weight set has (none when
 *    it has none: the clone then has no entry at all);
 *  - a device weighs, per position, what it weighs in the original's set;
 *  - a child shadow bucket weighs what its own clone summed, but only in
 *    the last position: device_class_clone keeps a fresh sum vector per
 *    position and stores the last one, so every earlier position sees 0
 *    (a parent with more positions than the child reads past the vector in
 *    Ceph; 0 here);
 *  - no replacement ids ("FIXME: implement me someday").
 *
 * The shadow buckets themselves (items, weights) come out as they were:
 * the caller has already moved the original trees, and a new device has
 * no class yet.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "crush_i.h"

struct rebuild {
	pl_map *m;
	struct pl_choose_args *ca;
	/* per bucket slot: the sums a clone leaves its parent (NULL: none
	 * stored, which is what a parent reads as 0), and their count */
	uint32_t **sums;
	uint32_t *nsums;
	uint8_t *done;
};

static struct pl_bucket *bucket_of(const pl_map *m, int id)
{
	int pos = -1 - id;

	return id < 0 && pos < m->max_buckets ? m->buckets[pos] : NULL;
}

static const struct pl_choose_arg *arg_of(const struct pl_choose_args *ca,
					  int id)
{
	uint32_t i = (uint32_t)(-1 - id);

	return i < ca->size ? &ca->args[i] : NULL;
}

static int rebuild_one(struct rebuild *R, int shadow, int depth)
{
	pl_map *m = R->m;
	const struct pl_bucket *s = bucket_of(m, shadow), *o;
	const struct pl_choose_arg *oa;
	uint32_t slot = (uint32_t)(-1 - shadow), npos, *w = NULL, *sum;
	uint32_t *pos = NULL;
	int orig, cls, r;

	if (R->done[slot])
		return 0;
	if (depth > 64)
		return -ELOOP;
	R->done[slot] = 1;
	if (pl_class_split(m, shadow, &orig, &cls) || !(o = bucket_of(m, orig)))
		return 0; /* not a clone crushfs knows the origin of */
	/* children first, as device_class_clone recurses */
	for (uint32_t i = 0; i < s->size; i++)
		if (s->items[i] < 0 && bucket_of(m, s->items[i])) {
			r = rebuild_one(R, s->items[i], depth + 1);
			if (r)
				return r;
		}
	oa = arg_of(R->ca, orig);
	npos = oa && oa->weight_set ? oa->weight_set_positions : 0;
	r = pl_cargs_set_ids(R->ca, slot, 0, NULL);
	if (r || !npos)
		return r ? r : pl_cargs_set_weights(R->ca, slot, 0, 0, NULL);

	/* item_orig_pos: where each of the clone's items sits in the
	 * original (devices of other classes are skipped there) */
	pos = calloc(s->size ? s->size : 1, sizeof(*pos));
	w = calloc((size_t)npos * (s->size ? s->size : 1), sizeof(*w));
	sum = calloc(npos, sizeof(*sum));
	if (!pos || !w || !sum) {
		free(pos);
		free(w);
		free(sum);
		return -ENOMEM;
	}
	for (uint32_t i = 0, k = 0; i < s->size; i++) {
		int item = s->items[i];

		while (k < o->size &&
		       !(item >= 0 ? o->items[k] == item
				   : pl_class_bucket_get(m, o->items[k], cls) ==
					     item))
			k++;
		pos[i] = k < o->size ? k++ : UINT32_MAX;
	}
	for (uint32_t p = 0; p < npos; p++) {
		const struct pl_weight_set *ws = &oa->weight_set[p];

		for (uint32_t i = 0; i < s->size; i++) {
			int item = s->items[i];
			uint32_t v = 0;

			if (item >= 0) {
				if (pos[i] < ws->size)
					v = ws->weights[pos[i]];
			} else {
				uint32_t cs = (uint32_t)(-1 - item);

				if (R->sums[cs] && p < R->nsums[cs])
					v = R->sums[cs][p];
			}
			w[(size_t)p * s->size + i] = v;
		}
	}
	/* what the parent will read: the last position's sum only (Ceph
	 * adds the u32 weights into an int: modulo 2^32, as here) */
	for (uint32_t i = 0; i < s->size; i++)
		sum[npos - 1] += w[(size_t)(npos - 1) * s->size + i];
	R->sums[slot] = sum;
	R->nsums[slot] = npos;
	r = pl_cargs_set_weights(R->ca, slot, npos, s->size, w);
	free(pos);
	free(w);
	return r;
}

/* Ceph grows every choose_args map to max_buckets before cloning. */
static int reserve(struct pl_choose_args *ca, int32_t max_buckets)
{
	struct pl_choose_arg *n;

	if (max_buckets <= 0 || ca->size >= (uint32_t)max_buckets)
		return 0;
	n = realloc(ca->args, sizeof(*n) * (size_t)max_buckets);
	if (!n)
		return -ENOMEM;
	memset(n + ca->size, 0,
	       sizeof(*n) * ((size_t)max_buckets - ca->size));
	ca->args = n;
	ca->size = (uint32_t)max_buckets;
	return 0;
}

int pl_class_rebuild_cargs(pl_map *m)
{
	struct rebuild R = { .m = m };
	size_t nb = m->max_buckets > 0 ? (size_t)m->max_buckets : 1;
	int r = 0;

	if (!m->nclasses || !m->ncargs)
		return 0;
	R.sums = calloc(nb, sizeof(*R.sums));
	R.nsums = calloc(nb, sizeof(*R.nsums));
	R.done = calloc(nb, 1);
	if (!R.sums || !R.nsums || !R.done)
		r = -ENOMEM;
	for (int c = 0; c < m->ncargs && !r; c++) {
		R.ca = &m->cargs[c];
		r = reserve(R.ca, m->max_buckets);
		for (size_t i = 0; i < nb; i++) {
			free(R.sums[i]);
			R.sums[i] = NULL;
			R.nsums[i] = 0;
		}
		memset(R.done, 0, nb);
		for (int32_t b = 0; b < m->max_buckets && !r; b++)
			if (m->buckets[b] && m->buckets[b]->shadow)
				r = rebuild_one(&R, m->buckets[b]->id, 0);
	}
	if (R.sums)
		for (size_t i = 0; i < nb; i++)
			free(R.sums[i]);
	free(R.sums);
	free(R.nsums);
	free(R.done);
	m->finalized = 0;
	return r;
}
