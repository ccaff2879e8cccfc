/*
 * classes.c - device classes as Ceph 16.2 keeps them (CrushWrapper
 * class_map / class_name / class_bucket): every device may carry a class,
 * and every root gets, per class, a "shadow" copy of its tree holding only
 * that class's devices (CrushWrapper::populate_classes,
 * device_class_clone).  Rules reach a class by taking a shadow bucket
 * (`step take default class hdd`); the mapper needs nothing else.
 *
 * The class of each item and each bucket's copies are arrays in
 * insertion order (the encoder sorts them) with a hash index each: they
 * have an entry per device and per shadow bucket, and loading a map looks
 * one up per device and per clone step (scanning them made an 80k-host map
 * with classes take 63 s, quadratic).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crush_i.h"

static int grow(void **v, int *cap, int n, size_t elem)
{
	void *nv;
	int nc;

	if (n < *cap)
		return 0;
	nc = *cap ? *cap * 2 : 8;
	nv = realloc(*v, elem * (size_t)nc);
	if (!nv)
		return -ENOMEM;
	*v = nv;
	*cap = nc;
	return 0;
}

int pl_class_id(const pl_map *m, const char *name)
{
	for (int i = 0; i < m->nclasses; i++)
		if (m->class_names[i] && !strcmp(m->class_names[i], name))
			return i;
	return -ENOENT;
}

int pl_class_get_or_create(pl_map *m, const char *name, int *cls)
{
	int c = pl_class_id(m, name);
	char *copy;

	if (c >= 0) {
		*cls = c;
		return 0;
	}
	/* _alloc_class_id: one past the highest id, 0 for the first */
	if (grow((void **)&m->class_names, &m->capclasses, m->nclasses,
		 sizeof(*m->class_names)))
		return -ENOMEM;
	copy = strdup(name);
	if (!copy)
		return -ENOMEM;
	m->class_names[m->nclasses] = copy;
	*cls = m->nclasses++;
	return 0;
}

static uint32_t item_class_hash(const void *arr, int i)
{
	return pl_ix_mix32((uint32_t)((const struct pl_item_class *)arr)[i]
				   .item);
}

static uint32_t class_bucket_hash(const void *arr, int i)
{
	return pl_ix_mix32((uint32_t)((const struct pl_class_bucket *)arr)[i]
				   .bucket);
}

static int item_class_at(const pl_map *m, int item)
{
	const struct pl_index *ix = &m->item_class_ix;

	if (!ix->cap)
		return -1;
	for (uint32_t h = pl_ix_mix32((uint32_t)item) & (ix->cap - 1);
	     ix->slot[h]; h = (h + 1) & (ix->cap - 1))
		if (m->item_class[ix->slot[h] - 1].item == item)
			return ix->slot[h] - 1;
	return -1;
}

/* the entry of (bucket, cls), or with any, any entry of bucket */
static int class_bucket_at(const pl_map *m, int bucket, int cls, int any)
{
	const struct pl_index *ix = &m->class_bucket_ix;

	if (!ix->cap)
		return -1;
	for (uint32_t h = pl_ix_mix32((uint32_t)bucket) & (ix->cap - 1);
	     ix->slot[h]; h = (h + 1) & (ix->cap - 1)) {
		const struct pl_class_bucket *e =
			&m->class_bucket[ix->slot[h] - 1];

		if (e->bucket == bucket && (any || e->cls == cls))
			return ix->slot[h] - 1;
	}
	return -1;
}

int pl_class_of_item(const pl_map *m, int item)
{
	int i = item_class_at(m, item);

	return i < 0 ? -1 : m->item_class[i].cls;
}

int pl_class_set_item(pl_map *m, int item, int cls)
{
	int i = item_class_at(m, item);

	if (i >= 0) {
		m->item_class[i].cls = cls;
		return 0;
	}
	if (grow((void **)&m->item_class, &m->capitem_class, m->nitem_class,
		 sizeof(*m->item_class)) ||
	    pl_ix_reserve(&m->item_class_ix, item_class_hash, m->item_class))
		return -ENOMEM;
	m->item_class[m->nitem_class].item = item;
	m->item_class[m->nitem_class].cls = cls;
	pl_ix_insert(&m->item_class_ix, pl_ix_mix32((uint32_t)item),
		     m->nitem_class);
	m->nitem_class++;
	return 0;
}

int pl_class_bucket_get(const pl_map *m, int bucket, int cls)
{
	int i = class_bucket_at(m, bucket, cls, 0);

	return i < 0 ? 0 : m->class_bucket[i].shadow;
}

int pl_class_bucket_has(const pl_map *m, int bucket)
{
	return class_bucket_at(m, bucket, 0, 1) >= 0;
}

int pl_class_bucket_set(pl_map *m, int bucket, int cls, int shadow)
{
	int i = class_bucket_at(m, bucket, cls, 0);

	if (i >= 0) {
		m->class_bucket[i].shadow = shadow;
		return 0;
	}
	if (grow((void **)&m->class_bucket, &m->capclass_bucket,
		 m->nclass_bucket, sizeof(*m->class_bucket)) ||
	    pl_ix_reserve(&m->class_bucket_ix, class_bucket_hash,
			  m->class_bucket))
		return -ENOMEM;
	m->class_bucket[m->nclass_bucket] =
		(struct pl_class_bucket){ bucket, cls, shadow };
	pl_ix_insert(&m->class_bucket_ix, pl_ix_mix32((uint32_t)bucket),
		     m->nclass_bucket);
	m->nclass_bucket++;
	return 0;
}

int pl_class_split(const pl_map *m, int shadow, int *orig, int *cls)
{
	for (int i = 0; i < m->nclass_bucket; i++)
		if (m->class_bucket[i].shadow == shadow) {
			*orig = m->class_bucket[i].bucket;
			*cls = m->class_bucket[i].cls;
			return 0;
		}
	return -ENOENT;
}

static struct pl_bucket *bucket_of(const pl_map *m, int id)
{
	int pos = -1 - id;

	return id < 0 && pos < m->max_buckets ? m->buckets[pos] : NULL;
}

/*
 * The shadow ids a clone may take or must avoid (the text's `id N class
 * C` lines, populate_classes' old_class_bucket and used_ids), indexed by
 * bucket and by shadow id, and the highest id that may still be free: ids
 * above it are all buckets or reserved, and a clone only adds buckets.
 */
struct pending {
	const struct pl_class_bucket *p;
	int n;
	struct pl_index by_bucket, by_shadow;
	int free_from;
};

static uint32_t pend_bucket_hash(const void *arr, int i)
{
	return pl_ix_mix32((uint32_t)((const struct pl_class_bucket *)arr)[i]
				   .bucket);
}

static uint32_t pend_shadow_hash(const void *arr, int i)
{
	return pl_ix_mix32((uint32_t)((const struct pl_class_bucket *)arr)[i]
				   .shadow);
}

static int pending_init(struct pending *pd, const struct pl_class_bucket *p,
			int n)
{
	memset(pd, 0, sizeof(*pd));
	pd->p = p;
	pd->n = n;
	pd->free_from = -1;
	for (int i = 0; i < n; i++) {
		if (pl_ix_reserve(&pd->by_bucket, pend_bucket_hash, p) ||
		    pl_ix_reserve(&pd->by_shadow, pend_shadow_hash, p)) {
			pl_ix_release(&pd->by_bucket);
			pl_ix_release(&pd->by_shadow);
			return -ENOMEM;
		}
		pl_ix_insert(&pd->by_bucket, pend_bucket_hash(p, i), i);
		pl_ix_insert(&pd->by_shadow, pend_shadow_hash(p, i), i);
	}
	return 0;
}

static void pending_free(struct pending *pd)
{
	pl_ix_release(&pd->by_bucket);
	pl_ix_release(&pd->by_shadow);
}

/* the first entry's shadow for (bucket, cls), as a scan finds it; 0 */
static int pending_get(const struct pending *pd, int bucket, int cls)
{
	const struct pl_index *ix = &pd->by_bucket;
	int best = -1;

	if (!ix->cap)
		return 0;
	for (uint32_t h = pl_ix_mix32((uint32_t)bucket) & (ix->cap - 1);
	     ix->slot[h]; h = (h + 1) & (ix->cap - 1)) {
		int i = ix->slot[h] - 1;

		if (pd->p[i].bucket == bucket && pd->p[i].cls == cls &&
		    (best < 0 || i < best))
			best = i;
	}
	return best < 0 ? 0 : pd->p[best].shadow;
}

static int pending_used(const struct pending *pd, int id)
{
	const struct pl_index *ix = &pd->by_shadow;

	if (!ix->cap)
		return 0;
	for (uint32_t h = pl_ix_mix32((uint32_t)id) & (ix->cap - 1);
	     ix->slot[h]; h = (h + 1) & (ix->cap - 1))
		if (pd->p[ix->slot[h] - 1].shadow == id)
			return 1;
	return 0;
}

/*
 * CrushWrapper::device_class_clone (16.2): the copy of `orig` for class
 * cls, named "orig~class", same alg, hash and type; devices of that class
 * keep their weight in orig, child buckets are cloned first (depth first,
 * so ids without a given one are taken in that order) and weigh what their
 * copy weighs.  An existing copy (by name) is reused.
 *
 * Ceph grows the copy item by item (crush_bucket_add_item, see
 * pl_map_add_bucket_grown): a uniform copy refuses the first item that
 * weighs anything, and the clone fails there, after the child clones made
 * so far (they stay in the map, the copy and its ancestors are not made).
 */
static int clone_bucket(pl_map *m, int orig, int cls, struct pending *pd,
			int depth, int *clone)
{
	const struct pl_bucket *o = bucket_of(m, orig);
	const char *oname = pl_map_item_name(m, orig);
	const char *cname = m->class_names[cls];
	char *name;
	int *items = NULL, n = 0, bno, r, id;
	uint32_t *weights = NULL;
	size_t nl;

	if (!o || !oname)
		return -ECHILD;
	if (depth > 64)
		return -ELOOP;
	nl = strlen(oname) + strlen(cname) + 2;
	name = malloc(nl);
	if (!name)
		return -ENOMEM;
	snprintf(name, nl, "%s~%s", oname, cname);
	if (pl_map_item_by_name(m, name, &id) == 0) {
		free(name);
		*clone = id;
		return 0;
	}
	items = malloc(sizeof(*items) * (o->size + 1));
	weights = malloc(sizeof(*weights) * (o->size + 1));
	if (!items || !weights) {
		r = -ENOMEM;
		goto out;
	}
	for (uint32_t i = 0; i < o->size; i++) {
		/* o may move when buckets grow below: read by id each time */
		const struct pl_bucket *ob = bucket_of(m, orig);
		int item = ob->items[i];

		if (item >= 0) {
			if (pl_class_of_item(m, item) != cls)
				continue;
			items[n] = item;
			weights[n++] = pl_map_bucket_item_weight(m, orig, (int)i);
		} else {
			int child;

			r = clone_bucket(m, item, cls, pd, depth + 1, &child);
			if (r)
				goto out;
			items[n] = child;
			weights[n++] = pl_map_bucket_weight(m, child);
		}
		/* crush_add_uniform_bucket_item: the empty copy's item_weight
		 * is 0, and an item of another weight is refused */
		if (bucket_of(m, orig)->alg == PL_BUCKET_UNIFORM &&
		    weights[n - 1] != 0) {
			r = -EINVAL;
			goto out;
		}
	}
	bno = pending_get(pd, orig, cls);
	if (!bno) {
		/* a new shadow id: the highest free in the map and not given
		 * to another shadow by the text */
		bno = pd->free_from;
		while (bucket_of(m, bno) || pending_used(pd, bno))
			bno--;
		pd->free_from = bno;
	}
	o = bucket_of(m, orig);
	r = pl_map_add_bucket_grown(m, bno, o->alg, o->hash, o->type, n,
				    items, weights, clone);
	if (r)
		goto out;
	bucket_of(m, *clone)->shadow = 1;
	r = pl_class_set_item(m, *clone, cls);
	if (!r)
		r = pl_map_set_item_name(m, *clone, name);
	if (!r)
		r = pl_class_bucket_set(m, orig, cls, *clone);
out:
	free(name);
	free(items);
	free(weights);
	return r;
}

int pl_class_populate(pl_map *m, const struct pl_class_bucket *pending,
		      int n)
{
	int *roots, nroots = 0, r = 0;
	struct pending pd;
	char *held;

	if (m->nclasses == 0)
		return 0;
	/* find_nonshadow_roots: buckets no other bucket holds, in a
	 * std::set<int>, so the most negative id first */
	roots = malloc(sizeof(*roots) * (size_t)(m->max_buckets + 1));
	held = calloc((size_t)m->max_buckets + 1, 1);
	if (!roots || !held) {
		free(roots);
		free(held);
		return -ENOMEM;
	}
	for (int q = 0; q < m->max_buckets; q++) {
		const struct pl_bucket *c = m->buckets[q];

		if (!c || c->shadow)
			continue;
		for (uint32_t i = 0; i < c->size; i++)
			if (c->items[i] < 0 && -1 - c->items[i] < m->max_buckets)
				held[-1 - c->items[i]] = 1;
	}
	for (int pos = m->max_buckets - 1; pos >= 0; pos--)
		if (m->buckets[pos] && !m->buckets[pos]->shadow && !held[pos])
			roots[nroots++] = m->buckets[pos]->id;
	free(held);
	if (pending_init(&pd, pending, n)) {
		free(roots);
		return -ENOMEM;
	}
	for (int i = 0; i < nroots && !r; i++)
		for (int c = 0; c < m->nclasses && !r; c++) {
			int clone;

			if (m->class_names[c])
				r = clone_bucket(m, roots[i], c, &pd, 0,
						 &clone);
		}
	pending_free(&pd);
	free(roots);
	m->finalized = 0;
	return r;
}

int pl_class_clone_new(pl_map *m, int parent, int bucket)
{
	struct pl_class_bucket *used;
	struct pending pd;
	int r = 0, n = m->nclass_bucket;

	if (!m->nclasses || bucket >= 0 || pl_class_bucket_has(m, bucket))
		return 0;
	/* new ids avoid every shadow id in use, as populate_classes'
	 * used_ids do (a copy: cloning grows m->class_bucket) */
	used = malloc(sizeof(*used) * (size_t)(n ? n : 1));
	if (!used)
		return -ENOMEM;
	memcpy(used, m->class_bucket, sizeof(*used) * (size_t)n);
	if (pending_init(&pd, used, n)) {
		free(used);
		return -ENOMEM;
	}
	for (int c = 0; c < m->nclasses && !r; c++) {
		int pc = pl_class_bucket_get(m, parent, c), clone;

		if (!m->class_names[c] || !pc)
			continue;
		r = clone_bucket(m, bucket, c, &pd, 0, &clone);
		if (!r)
			r = pl_map_bucket_add_item(m, pc, clone,
						   pl_map_bucket_weight(m,
									clone));
	}
	pending_free(&pd);
	free(used);
	return r;
}

void pl_classes_free(pl_map *m)
{
	for (int i = 0; i < m->nclasses; i++)
		free(m->class_names[i]);
	free(m->class_names);
	free(m->item_class);
	free(m->class_bucket);
	pl_ix_release(&m->item_class_ix);
	pl_ix_release(&m->class_bucket_ix);
}

const char *pl_map_item_class(const pl_map *m, int id)
{
	int c = pl_class_of_item(m, id);

	return c >= 0 && c < m->nclasses ? m->class_names[c] : NULL;
}

int pl_map_bucket_is_shadow(const pl_map *m, int id)
{
	const struct pl_bucket *b = bucket_of(m, id);

	return b && b->shadow;
}
