/*
 * classes.c - device classes as Ceph 16.2 keeps them (CrushWrapper
 * class_map / class_name / class_bucket): every device may carry a class,
 * and every root gets, per class, a "shadow" copy of its tree holding only
 * that class's devices (CrushWrapper::populate_classes,
 * device_class_clone).  Rules reach a class by taking a shadow bucket
 * (`step take default class hdd`); the mapper needs nothing else.
 *
 * Tables are small arrays: a map has a few classes and shadow trees the
 * size of its tree; lookups scan them, once per clone step.
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

int pl_class_of_item(const pl_map *m, int item)
{
	for (int i = 0; i < m->nitem_class; i++)
		if (m->item_class[i].item == item)
			return m->item_class[i].cls;
	return -1;
}

int pl_class_set_item(pl_map *m, int item, int cls)
{
	for (int i = 0; i < m->nitem_class; i++)
		if (m->item_class[i].item == item) {
			m->item_class[i].cls = cls;
			return 0;
		}
	if (grow((void **)&m->item_class, &m->capitem_class, m->nitem_class,
		 sizeof(*m->item_class)))
		return -ENOMEM;
	m->item_class[m->nitem_class].item = item;
	m->item_class[m->nitem_class].cls = cls;
	m->nitem_class++;
	return 0;
}

int pl_class_bucket_get(const pl_map *m, int bucket, int cls)
{
	for (int i = 0; i < m->nclass_bucket; i++)
		if (m->class_bucket[i].bucket == bucket &&
		    m->class_bucket[i].cls == cls)
			return m->class_bucket[i].shadow;
	return 0;
}

int pl_class_bucket_has(const pl_map *m, int bucket)
{
	for (int i = 0; i < m->nclass_bucket; i++)
		if (m->class_bucket[i].bucket == bucket)
			return 1;
	return 0;
}

int pl_class_bucket_set(pl_map *m, int bucket, int cls, int shadow)
{
	for (int i = 0; i < m->nclass_bucket; i++)
		if (m->class_bucket[i].bucket == bucket &&
		    m->class_bucket[i].cls == cls) {
			m->class_bucket[i].shadow = shadow;
			return 0;
		}
	if (grow((void **)&m->class_bucket, &m->capclass_bucket,
		 m->nclass_bucket, sizeof(*m->class_bucket)))
		return -ENOMEM;
	m->class_bucket[m->nclass_bucket++] =
		(struct pl_class_bucket){ bucket, cls, shadow };
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

static int pending_get(const struct pl_class_bucket *p, int n, int bucket,
		       int cls)
{
	for (int i = 0; i < n; i++)
		if (p[i].bucket == bucket && p[i].cls == cls)
			return p[i].shadow;
	return 0;
}

static int pending_used(const struct pl_class_bucket *p, int n, int id)
{
	for (int i = 0; i < n; i++)
		if (p[i].shadow == id)
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
static int clone_bucket(pl_map *m, int orig, int cls,
			const struct pl_class_bucket *pending, int npending,
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

			r = clone_bucket(m, item, cls, pending, npending,
					 depth + 1, &child);
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
	bno = pending_get(pending, npending, orig, cls);
	if (!bno) {
		/* a new shadow id: free in the map and not given to another
		 * shadow by the text */
		bno = -1;
		while (bucket_of(m, bno) || pending_used(pending, npending, bno))
			bno--;
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
	for (int i = 0; i < nroots && !r; i++)
		for (int c = 0; c < m->nclasses && !r; c++) {
			int clone;

			if (m->class_names[c])
				r = clone_bucket(m, roots[i], c, pending, n, 0,
						 &clone);
		}
	free(roots);
	m->finalized = 0;
	return r;
}

int pl_class_clone_new(pl_map *m, int parent, int bucket)
{
	struct pl_class_bucket *used;
	int r = 0, n = m->nclass_bucket;

	if (!m->nclasses || bucket >= 0 || pl_class_bucket_has(m, bucket))
		return 0;
	/* new ids avoid every shadow id in use, as populate_classes'
	 * used_ids do (a copy: cloning grows m->class_bucket) */
	used = malloc(sizeof(*used) * (size_t)(n ? n : 1));
	if (!used)
		return -ENOMEM;
	memcpy(used, m->class_bucket, sizeof(*used) * (size_t)n);
	for (int c = 0; c < m->nclasses && !r; c++) {
		int pc = pl_class_bucket_get(m, parent, c), clone;

		if (!m->class_names[c] || !pc)
			continue;
		r = clone_bucket(m, bucket, c, used, n, 0, &clone);
		if (!r)
			r = pl_map_bucket_add_item(m, pc, clone,
						   pl_map_bucket_weight(m,
									clone));
	}
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
