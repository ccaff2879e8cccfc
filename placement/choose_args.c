/*
 * choose_args.c - the choose_args a map carries (Ceph 16.2 CrushWrapper's
 * std::map<int64_t, crush_choose_arg_map>): storage, lookup with Ceph's
 * fallback to the default set, and the clean-up Ceph's decoder runs
 * (update_choose_args).  The mapper reads these through buckets.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "crush_i.h"

static void ws_free(struct pl_weight_set *ws)
{
	free(ws->weights);
	free(ws->div_magic);
	free(ws->div_shift);
	memset(ws, 0, sizeof(*ws));
}

static void arg_free_weights(struct pl_choose_arg *a)
{
	for (uint32_t p = 0; p < a->weight_set_positions; p++)
		ws_free(&a->weight_set[p]);
	free(a->weight_set);
	a->weight_set = NULL;
	a->weight_set_positions = 0;
}

static void arg_free_ids(struct pl_choose_arg *a)
{
	free(a->ids);
	a->ids = NULL;
	a->ids_size = 0;
}

static void cargs_free_one(struct pl_choose_args *ca)
{
	for (uint32_t i = 0; i < ca->size; i++) {
		arg_free_weights(&ca->args[i]);
		arg_free_ids(&ca->args[i]);
	}
	free(ca->args);
}

void pl_cargs_free(pl_map *m)
{
	for (int i = 0; i < m->ncargs; i++)
		cargs_free_one(&m->cargs[i]);
	free(m->cargs);
	m->cargs = NULL;
	m->ncargs = m->capcargs = 0;
}

/* first index whose id >= id (the sets are few: a linear scan) */
static int lower_bound(const pl_map *m, int64_t id)
{
	int i = 0;

	while (i < m->ncargs && m->cargs[i].id < id)
		i++;
	return i;
}

struct pl_choose_args *pl_cargs_find(const pl_map *m, int64_t id)
{
	int i = lower_bound(m, id);

	return i < m->ncargs && m->cargs[i].id == id ? &m->cargs[i] : NULL;
}

int pl_cargs_create(pl_map *m, int64_t id, struct pl_choose_args **out)
{
	int i = lower_bound(m, id);
	struct pl_choose_args ca = { .id = id };

	if (i < m->ncargs && m->cargs[i].id == id)
		return -EEXIST;
	if (m->ncargs == m->capcargs) {
		int cap = m->capcargs ? m->capcargs * 2 : 4;
		struct pl_choose_args *n =
			realloc(m->cargs, (size_t)cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		m->cargs = n;
		m->capcargs = cap;
	}
	ca.size = m->max_buckets > 0 ? (uint32_t)m->max_buckets : 0;
	ca.args = calloc(ca.size ? ca.size : 1, sizeof(*ca.args));
	if (!ca.args)
		return -ENOMEM;
	memmove(&m->cargs[i + 1], &m->cargs[i],
		(size_t)(m->ncargs - i) * sizeof(*m->cargs));
	m->cargs[i] = ca;
	m->ncargs++;
	*out = &m->cargs[i];
	return 0;
}

void pl_ws_reciprocals(struct pl_weight_set *ws)
{
	for (uint32_t i = 0; i < ws->size; i++) {
		if (ws->weights[i])
			pl_div_magic(ws->weights[i], &ws->div_magic[i],
				     &ws->div_shift[i]);
		else
			ws->div_magic[i] = ws->div_shift[i] = 0;
	}
}

static int ws_fill(struct pl_weight_set *ws, uint32_t size,
		   const uint32_t *w)
{
	size_t n = size ? size : 1;

	ws->size = size;
	ws->weights = malloc(n * sizeof(*ws->weights));
	ws->div_magic = malloc(n * sizeof(*ws->div_magic));
	ws->div_shift = malloc(n);
	if (!ws->weights || !ws->div_magic || !ws->div_shift) {
		ws_free(ws);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < size; i++)
		ws->weights[i] = w ? w[i] : 0;
	pl_ws_reciprocals(ws);
	return 0;
}

int pl_cargs_set_weights(struct pl_choose_args *ca, uint32_t index,
			 uint32_t positions, uint32_t size, const uint32_t *w)
{
	struct pl_choose_arg *a;
	struct pl_weight_set *sets;

	if (index >= ca->size)
		return -EINVAL;
	a = &ca->args[index];
	if (!positions) {
		arg_free_weights(a);
		return 0;
	}
	sets = calloc(positions, sizeof(*sets));
	if (!sets)
		return -ENOMEM;
	for (uint32_t p = 0; p < positions; p++) {
		if (ws_fill(&sets[p], size, w ? w + (size_t)p * size : NULL)) {
			while (p--)
				ws_free(&sets[p]);
			free(sets);
			return -ENOMEM;
		}
	}
	arg_free_weights(a);
	a->weight_set = sets;
	a->weight_set_positions = positions;
	return 0;
}

int pl_cargs_set_ids(struct pl_choose_args *ca, uint32_t index, uint32_t n,
		     const int32_t *ids)
{
	struct pl_choose_arg *a;
	int32_t *v = NULL;

	if (index >= ca->size)
		return -EINVAL;
	a = &ca->args[index];
	if (n) {
		v = calloc(pl_id_slots(n), sizeof(*v));
		if (!v)
			return -ENOMEM;
		memcpy(v, ids, (size_t)n * sizeof(*v));
	}
	arg_free_ids(a);
	a->ids = v;
	a->ids_size = n;
	return 0;
}

/* CrushWrapper::get_choose_args_positions: the first set's, else 1 */
static uint32_t positions_of(const struct pl_choose_args *ca)
{
	for (uint32_t j = 0; j < ca->size; j++)
		if (ca->args[j].weight_set_positions)
			return ca->args[j].weight_set_positions;
	return 1;
}

static int resize_ws(struct pl_weight_set *ws, uint32_t size)
{
	struct pl_weight_set n = { 0 };
	uint32_t *w = calloc(size ? size : 1, sizeof(*w));
	int err;

	if (!w)
		return -ENOMEM;
	memcpy(w, ws->weights,
	       (size_t)(ws->size < size ? ws->size : size) * sizeof(*w));
	err = ws_fill(&n, size, w);
	free(w);
	if (err)
		return err;
	ws_free(ws);
	*ws = n;
	return 0;
}

int pl_cargs_normalize(pl_map *m, int32_t *bad_bucket)
{
	for (int c = 0; c < m->ncargs; c++) {
		struct pl_choose_args *ca = &m->cargs[c];
		uint32_t positions = positions_of(ca);

		for (uint32_t j = 0; j < ca->size; j++) {
			struct pl_choose_arg *a = &ca->args[j];
			const struct pl_bucket *b =
				(int32_t)j < m->max_buckets ? m->buckets[j] :
							      NULL;

			if (!b || b->alg != PL_BUCKET_STRAW2) {
				arg_free_ids(a);
				arg_free_weights(a);
				continue;
			}
			if (a->ids_size && a->ids_size != b->size) {
				*bad_bucket = b->id;
				return -EINVAL;
			}
			if (!a->weight_set_positions)
				continue;
			for (uint32_t p = 0; p < a->weight_set_positions;
			     p++) {
				struct pl_weight_set *ws = &a->weight_set[p];

				if (ws->size == b->size)
					continue;
				/* Ceph fixes sizes only when the positions
				 * agree with the map's; it would read past a
				 * short set otherwise */
				if (a->weight_set_positions != positions) {
					*bad_bucket = b->id;
					return -EINVAL;
				}
				if (resize_ws(ws, b->size))
					return -ENOMEM;
			}
		}
	}
	return 0;
}

/* ---- public ---- */

int pl_map_choose_args_count(const pl_map *m)
{
	return m->ncargs;
}

int64_t pl_map_choose_args_id(const pl_map *m, int i)
{
	return i >= 0 && i < m->ncargs ? m->cargs[i].id : 0;
}

const pl_choose_args *pl_map_choose_args(const pl_map *m, int64_t id)
{
	return pl_cargs_find(m, id);
}

const pl_choose_args *pl_map_choose_args_for(const pl_map *m, int64_t id)
{
	const pl_choose_args *ca = pl_cargs_find(m, id);

	return ca ? ca : pl_cargs_find(m, PL_DEFAULT_CHOOSE_ARGS);
}

static const struct pl_choose_arg *entry_of(const pl_choose_args *ca,
					    int bucket)
{
	uint32_t b = (uint32_t)(-1 - bucket);

	if (!ca || bucket >= 0 || b >= ca->size)
		return NULL;
	return &ca->args[b];
}

int pl_choose_args_entry(const pl_choose_args *ca, int bucket, int *npos,
			 int *nw, int *nids)
{
	const struct pl_choose_arg *a = entry_of(ca, bucket);

	*npos = a && a->weight_set ? (int)a->weight_set_positions : 0;
	*nw = *npos ? (int)a->weight_set[0].size : 0;
	*nids = a && a->ids ? (int)a->ids_size : 0;
	return *npos || *nids;
}

uint32_t pl_choose_args_weight(const pl_choose_args *ca, int bucket, int pos,
			       int k)
{
	const struct pl_choose_arg *a = entry_of(ca, bucket);

	if (!a || !a->weight_set || pos < 0 ||
	    (uint32_t)pos >= a->weight_set_positions || k < 0 ||
	    (uint32_t)k >= a->weight_set[pos].size)
		return 0;
	return a->weight_set[pos].weights[k];
}

int pl_choose_args_id(const pl_choose_args *ca, int bucket, int k)
{
	const struct pl_choose_arg *a = entry_of(ca, bucket);

	if (!a || !a->ids || k < 0 || (uint32_t)k >= a->ids_size)
		return 0;
	return a->ids[k];
}
