/*
 * codec_enc.c - a map in Ceph's binary crush map format, byte-identical to
 * what `crushtool -c` of Ceph 16.2 writes: CrushWrapper::encode with the
 * features crushtool passes (CEPH_FEATURES_SUPPORTED_DEFAULT), i.e. with
 * chooseleaf_stable (CRUSH_TUNABLES5) and the Luminous sections (device
 * classes, choose_args).  Everything is little-endian, as Ceph's encoders.
 *
 * The layout, in order:
 *   u32 magic 0x00010000, s32 max_buckets, u32 max_rules, s32 max_devices
 *   per bucket slot: u32 alg (0: empty slot), then s32 id, u16 type,
 *     u8 alg, u8 hash, u32 weight, u32 size, s32 items[size], and by alg:
 *     uniform u32 item_weight; list (u32 weight, u32 sum)[size];
 *     tree u8 num_nodes, u32 node_weights[num_nodes];
 *     straw (u32 weight, u32 straw)[size]; straw2 u32 weights[size]
 *   per rule slot: u32 exists, then u32 len, u8 ruleset, u8 type,
 *     u8 min_size, u8 max_size, (u32 op, s32 arg1, s32 arg2)[len]
 *   type, item and rule names: u32 count, (s32 key, u32 len, bytes)[count]
 *     by increasing key (std::map<int32_t, string>)
 *   tunables: u32 choose_local_tries, choose_local_fallback_tries,
 *     choose_total_tries, chooseleaf_descend_once; u8 chooseleaf_vary_r,
 *     straw_calc_version; u32 allowed_bucket_algs; u8 chooseleaf_stable
 *   class_map, class_name, class_bucket, choose_args (u32 counts, then
 *     entries; a map without classes writes four zero counts)
 *   choose_args, by increasing id: s64 id, u32 count of the args that
 *     have a weight set or ids, then each: u32 bucket index (-1 - id),
 *     u32 positions, (u32 size, u32 weights[size])[positions],
 *     u32 ids_size, s32 ids[ids_size]
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "crush_i.h"

struct wbuf {
	uint8_t *p;
	size_t len, cap;
	int err;
};

static void put(struct wbuf *w, const void *src, size_t n)
{
	if (w->err)
		return;
	if (w->cap - w->len < n) {
		size_t ncap = w->cap ? w->cap : 4096;
		uint8_t *np;

		while (ncap - w->len < n) {
			if (ncap > SIZE_MAX / 2) {
				w->err = -ENOMEM;
				return;
			}
			ncap *= 2;
		}
		np = realloc(w->p, ncap);
		if (!np) {
			w->err = -ENOMEM;
			return;
		}
		w->p = np;
		w->cap = ncap;
	}
	memcpy(w->p + w->len, src, n);
	w->len += n;
}

static void put8(struct wbuf *w, uint8_t v)
{
	put(w, &v, 1);
}

static void put16(struct wbuf *w, uint16_t v)
{
	uint8_t b[2] = { (uint8_t)v, (uint8_t)(v >> 8) };

	put(w, b, 2);
}

static void put32(struct wbuf *w, uint32_t v)
{
	uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16),
			 (uint8_t)(v >> 24) };

	put(w, b, 4);
}

static void put_name(struct wbuf *w, int32_t key, const char *s)
{
	size_t n = strlen(s);

	put32(w, (uint32_t)key);
	put32(w, (uint32_t)n);
	put(w, s, n);
}

static int cmp_name_id(const void *a, const void *b)
{
	const struct pl_name *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/* A std::map<int32_t, string>: entries by increasing key. */
static void put_names(struct wbuf *w, const struct pl_name *v, int n)
{
	struct pl_name *s;

	if (w->err)
		return;
	s = malloc(sizeof(*s) * (size_t)(n ? n : 1));
	if (!s) {
		w->err = -ENOMEM;
		return;
	}
	if (n)
		memcpy(s, v, sizeof(*s) * (size_t)n);
	qsort(s, (size_t)n, sizeof(*s), cmp_name_id);
	put32(w, (uint32_t)n);
	for (int i = 0; i < n; i++)
		put_name(w, s[i].id, s[i].name);
	free(s);
}

static void put_bucket(struct wbuf *w, const struct pl_bucket *b)
{
	put32(w, b->alg);
	put32(w, (uint32_t)b->id);
	put16(w, b->type);
	put8(w, b->alg);
	put8(w, b->hash);
	put32(w, b->weight);
	put32(w, b->size);
	for (uint32_t j = 0; j < b->size; j++)
		put32(w, (uint32_t)b->items[j]);
	switch (b->alg) {
	case PL_BUCKET_UNIFORM:
		put32(w, b->item_weight);
		break;
	case PL_BUCKET_LIST:
		for (uint32_t j = 0; j < b->size; j++) {
			put32(w, b->item_weights[j]);
			put32(w, b->sum_weights[j]);
		}
		break;
	case PL_BUCKET_TREE:
		put8(w, b->num_nodes);
		for (uint32_t j = 0; j < b->num_nodes; j++)
			put32(w, b->node_weights[j]);
		break;
	case PL_BUCKET_STRAW:
		for (uint32_t j = 0; j < b->size; j++) {
			put32(w, b->item_weights[j]);
			put32(w, b->straws[j]);
		}
		break;
	case PL_BUCKET_STRAW2:
		for (uint32_t j = 0; j < b->size; j++)
			put32(w, b->item_weights[j]);
		break;
	}
}

static void put_rule(struct wbuf *w, uint32_t ruleno, const struct pl_rule *r)
{
	put32(w, 1);
	put32(w, r->len);
	/* the legacy crush_rule_mask: ruleset is the rule id since
	 * Luminous (CrushWrapper::encode) */
	put8(w, (uint8_t)ruleno);
	put8(w, r->type);
	put8(w, r->min_size);
	put8(w, r->max_size);
	for (uint32_t j = 0; j < r->len; j++) {
		put32(w, r->steps[j].op);
		put32(w, (uint32_t)r->steps[j].arg1);
		put32(w, (uint32_t)r->steps[j].arg2);
	}
}

static int cmp_pair3(const void *a, const void *b)
{
	const int32_t *x = a, *y = b;

	if (x[0] != y[0])
		return (x[0] > y[0]) - (x[0] < y[0]);
	return (x[1] > y[1]) - (x[1] < y[1]);
}

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return (x > y) - (x < y);
}

/* class_map<int32,int32>, class_name<int32,string>,
 * class_bucket<int32, map<int32,int32>> as Ceph's encode(std::map) */
static void put_classes(struct wbuf *w, const pl_map *m)
{
	int n = m->nitem_class, nb = m->nclass_bucket, nn = 0;
	int32_t (*ic)[2] = malloc(sizeof(*ic) * (size_t)(n + 1));
	int32_t (*cb)[3] = malloc(sizeof(*cb) * (size_t)(nb + 1));

	if (!ic || !cb) {
		free(ic);
		free(cb);
		w->err = -ENOMEM;
		return;
	}
	for (int i = 0; i < n; i++) {
		ic[i][0] = m->item_class[i].item;
		ic[i][1] = m->item_class[i].cls;
	}
	qsort(ic, (size_t)n, sizeof(*ic), cmp_i32);
	put32(w, (uint32_t)n);
	for (int i = 0; i < n; i++) {
		put32(w, (uint32_t)ic[i][0]);
		put32(w, (uint32_t)ic[i][1]);
	}
	for (int c = 0; c < m->nclasses; c++)
		nn += m->class_names[c] != NULL;
	put32(w, (uint32_t)nn);
	for (int c = 0; c < m->nclasses; c++)
		if (m->class_names[c])
			put_name(w, c, m->class_names[c]);
	/* sorted by bucket, then class: bucket is the first key */
	for (int i = 0; i < nb; i++) {
		cb[i][0] = m->class_bucket[i].bucket;
		cb[i][1] = m->class_bucket[i].cls;
		cb[i][2] = m->class_bucket[i].shadow;
	}
	qsort(cb, (size_t)nb, sizeof(*cb), cmp_pair3);
	{
		int outer = 0;

		for (int i = 0; i < nb; i++)
			outer += i == 0 || cb[i][0] != cb[i - 1][0];
		put32(w, (uint32_t)outer);
		for (int i = 0; i < nb;) {
			int j = i;

			while (j < nb && cb[j][0] == cb[i][0])
				j++;
			put32(w, (uint32_t)cb[i][0]);
			put32(w, (uint32_t)(j - i));
			for (int k = i; k < j; k++) {
				put32(w, (uint32_t)cb[k][1]);
				put32(w, (uint32_t)cb[k][2]);
			}
			i = j;
		}
	}
	free(ic);
	free(cb);
}

static void put_choose_args(struct wbuf *w, const pl_map *m)
{
	put32(w, (uint32_t)m->ncargs);
	for (int c = 0; c < m->ncargs; c++) {
		const struct pl_choose_args *ca = &m->cargs[c];
		uint32_t n = 0;
		uint64_t id = (uint64_t)ca->id;

		put32(w, (uint32_t)id);
		put32(w, (uint32_t)(id >> 32));
		for (uint32_t i = 0; i < ca->size; i++)
			if (ca->args[i].weight_set_positions ||
			    ca->args[i].ids_size)
				n++;
		put32(w, n);
		for (uint32_t i = 0; i < ca->size; i++) {
			const struct pl_choose_arg *a = &ca->args[i];

			if (!a->weight_set_positions && !a->ids_size)
				continue;
			put32(w, i);
			put32(w, a->weight_set_positions);
			for (uint32_t p = 0; p < a->weight_set_positions; p++) {
				const struct pl_weight_set *ws =
					&a->weight_set[p];

				put32(w, ws->size);
				for (uint32_t k = 0; k < ws->size; k++)
					put32(w, ws->weights[k]);
			}
			put32(w, a->ids_size);
			for (uint32_t k = 0; k < a->ids_size; k++)
				put32(w, (uint32_t)a->ids[k]);
		}
	}
}

int pl_map_encode(const pl_map *m, void **out, size_t *len)
{
	struct wbuf w = { NULL, 0, 0, 0 };
	uint32_t nrnames = 0;

	*out = NULL;
	*len = 0;
	/* max_devices is finalize's (crush_finalize + the name map) */
	if (!m->finalized)
		return -EINVAL;
	put32(&w, PL_CRUSH_MAGIC);
	put32(&w, (uint32_t)m->max_buckets);
	put32(&w, m->max_rules);
	put32(&w, (uint32_t)m->max_devices);
	for (int32_t i = 0; i < m->max_buckets; i++) {
		if (m->buckets[i])
			put_bucket(&w, m->buckets[i]);
		else
			put32(&w, 0);
	}
	for (uint32_t i = 0; i < m->max_rules; i++) {
		if (m->rules[i])
			put_rule(&w, i, m->rules[i]);
		else
			put32(&w, 0);
	}
	put_names(&w, m->types, m->ntypes);
	put_names(&w, m->items, m->nitems);
	for (uint32_t i = 0; i < m->max_rules; i++)
		if (m->rules[i] && m->rules[i]->name)
			nrnames++;
	put32(&w, nrnames);
	for (uint32_t i = 0; i < m->max_rules; i++)
		if (m->rules[i] && m->rules[i]->name)
			put_name(&w, (int32_t)i, m->rules[i]->name);

	put32(&w, m->choose_local_tries);
	put32(&w, m->choose_local_fallback_tries);
	put32(&w, m->choose_total_tries);
	put32(&w, m->chooseleaf_descend_once);
	put8(&w, m->chooseleaf_vary_r);
	put8(&w, m->straw_calc_version);
	put32(&w, m->allowed_bucket_algs);
	put8(&w, m->chooseleaf_stable);

	/* Luminous sections: class_map, class_name, class_bucket (each a
	 * std::map, so in key order), then choose_args; present and empty
	 * for a map without them, as crushtool writes it */
	put_classes(&w, m);
	put_choose_args(&w, m);
	if (w.err) {
		free(w.p);
		return w.err;
	}
	*out = w.p;
	*len = w.len;
	return 0;
}
