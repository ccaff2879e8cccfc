/*
 * names.c - the map's name tables and item indexes: type names, item
 * (device and bucket) names, declared devices, and each item's first
 * parent.  Items are indexed by id and by name with open addressing, so a
 * map of a million buckets loads and answers lookups in linear time (the
 * linear scans this replaces made loading quadratic: 80k buckets took
 * 5.75 s).  Ceph keeps these as std::map (CrushWrapper name_map,
 * rmaps); only the answers matter, not the structure.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "crush_i.h"

static uint32_t mix32(uint32_t x)
{
	/* murmur3's finalizer: ids are often consecutive */
	x ^= x >> 16;
	x *= 0x85ebca6bu;
	x ^= x >> 13;
	x *= 0xc2b2ae35u;
	x ^= x >> 16;
	return x;
}

static uint32_t str_hash(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return mix32(h);
}

static void ix_free(struct pl_index *ix)
{
	free(ix->slot);
	memset(ix, 0, sizeof(*ix));
}

/*
 * Make room for one more entry, rehashing with hash(i) for every array
 * index i listed.  0 or -ENOMEM (the index is unchanged then).
 */
static int ix_grow(struct pl_index *ix, uint32_t (*hash)(const void *, int),
		   const void *arr)
{
	struct pl_index n;

	if ((ix->used + 1) * 2 <= ix->cap)
		return 0;
	n.cap = ix->cap ? ix->cap * 2 : 64;
	if (n.cap < ix->cap) /* 2^31 entries: no more */
		return -ENOMEM;
	n.slot = calloc(n.cap, sizeof(*n.slot));
	if (!n.slot)
		return -ENOMEM;
	n.used = 0;
	for (uint32_t i = 0; i < ix->cap; i++) {
		int32_t v = ix->slot[i];
		uint32_t h;

		if (!v)
			continue;
		h = hash(arr, v - 1) & (n.cap - 1);
		while (n.slot[h])
			h = (h + 1) & (n.cap - 1);
		n.slot[h] = v;
		n.used++;
	}
	free(ix->slot);
	*ix = n;
	return 0;
}

/* Insert array index i with hash h (room made by ix_grow). */
static void ix_put(struct pl_index *ix, uint32_t h, int i)
{
	h &= ix->cap - 1;
	while (ix->slot[h])
		h = (h + 1) & (ix->cap - 1);
	ix->slot[h] = i + 1;
	ix->used++;
}

int pl_ix_reserve(struct pl_index *ix, uint32_t (*hash)(const void *, int),
		  const void *arr)
{
	return ix_grow(ix, hash, arr);
}

void pl_ix_insert(struct pl_index *ix, uint32_t h, int i)
{
	ix_put(ix, h, i);
}

void pl_ix_release(struct pl_index *ix)
{
	ix_free(ix);
}

uint32_t pl_ix_mix32(uint32_t x)
{
	return mix32(x);
}

/* ---- items: names by id and by name ---- */

static uint32_t name_id_hash(const void *arr, int i)
{
	return mix32((uint32_t)((const struct pl_name *)arr)[i].id);
}

static uint32_t name_str_hash(const void *arr, int i)
{
	return str_hash(((const struct pl_name *)arr)[i].name);
}

static int item_index(const pl_map *m, int id)
{
	const struct pl_index *ix = &m->item_by_id;
	uint32_t h;

	if (!ix->cap)
		return -1;
	for (h = mix32((uint32_t)id) & (ix->cap - 1); ix->slot[h];
	     h = (h + 1) & (ix->cap - 1))
		if (m->items[ix->slot[h] - 1].id == id)
			return ix->slot[h] - 1;
	return -1;
}

/* The first item (in insertion order) that has this name, or -1.  An
 * overwritten name leaves a stale slot behind; the compare skips it. */
static int item_index_by_name(const pl_map *m, const char *name)
{
	const struct pl_index *ix = &m->item_by_name;
	int best = -1;
	uint32_t h;

	if (!ix->cap)
		return -1;
	for (h = str_hash(name) & (ix->cap - 1); ix->slot[h];
	     h = (h + 1) & (ix->cap - 1)) {
		int i = ix->slot[h] - 1;

		if (strcmp(m->items[i].name, name) == 0 &&
		    (best < 0 || i < best))
			best = i;
	}
	return best;
}

int pl_map_set_item_name(pl_map *m, int id, const char *name)
{
	int i = item_index(m, id);
	char *copy;

	if (i >= 0 && strcmp(m->items[i].name, name) == 0)
		return 0;
	copy = strdup(name);
	if (!copy)
		return -ENOMEM;
	/* make all the room first, so a failure changes nothing */
	if (i < 0 && m->nitems == m->capitems) {
		int ncap = m->capitems ? m->capitems * 2 : 16;
		struct pl_name *n = realloc(m->items, sizeof(*n) * (size_t)ncap);

		if (!n)
			goto nomem;
		m->items = n;
		m->capitems = ncap;
	}
	if ((i < 0 && ix_grow(&m->item_by_id, name_id_hash, m->items)) ||
	    ix_grow(&m->item_by_name, name_str_hash, m->items))
		goto nomem;
	if (i < 0) {
		i = m->nitems++;
		m->items[i].id = id;
		m->items[i].name = NULL;
		ix_put(&m->item_by_id, mix32((uint32_t)id), i);
	}
	/* the old name's slot stays behind, stale: lookups compare */
	free(m->items[i].name);
	m->items[i].name = copy;
	ix_put(&m->item_by_name, str_hash(copy), i);
	return 0;
nomem:
	free(copy);
	return -ENOMEM;
}

const char *pl_map_item_name(const pl_map *m, int id)
{
	int i = item_index(m, id);

	return i < 0 ? NULL : m->items[i].name;
}

int pl_map_item_by_name(const pl_map *m, const char *name, int *id)
{
	int i = item_index_by_name(m, name);

	if (i < 0)
		return -ENOENT;
	*id = m->items[i].id;
	return 0;
}

/* ---- types: a handful, linear ---- */

int pl_map_set_type_name(pl_map *m, int type, const char *name)
{
	char *copy = strdup(name);
	struct pl_name *na;

	if (!copy)
		return -ENOMEM;
	for (int i = 0; i < m->ntypes; i++) {
		if (m->types[i].id == type) {
			free(m->types[i].name);
			m->types[i].name = copy;
			return 0;
		}
	}
	na = realloc(m->types, sizeof(*na) * (size_t)(m->ntypes + 1));
	if (!na) {
		free(copy);
		return -ENOMEM;
	}
	na[m->ntypes].id = type;
	na[m->ntypes].name = copy;
	m->types = na;
	m->ntypes++;
	return 0;
}

const char *pl_map_type_name(const pl_map *m, int type)
{
	for (int i = 0; i < m->ntypes; i++)
		if (m->types[i].id == type)
			return m->types[i].name;
	return NULL;
}

int pl_map_type_by_name(const pl_map *m, const char *name, int *type)
{
	for (int i = 0; i < m->ntypes; i++) {
		if (strcmp(m->types[i].name, name) == 0) {
			*type = m->types[i].id;
			return 0;
		}
	}
	return -ENOENT;
}

/* ---- declared devices ---- */

static uint32_t dev_hash(const void *arr, int i)
{
	return mix32((uint32_t)((const int32_t *)arr)[i]);
}

int pl_map_device_declared(const pl_map *m, int id)
{
	const struct pl_index *ix = &m->dev_by_id;

	if (!ix->cap)
		return 0;
	for (uint32_t h = mix32((uint32_t)id) & (ix->cap - 1); ix->slot[h];
	     h = (h + 1) & (ix->cap - 1))
		if (m->devices[ix->slot[h] - 1] == id)
			return 1;
	return 0;
}

int pl_map_add_device(pl_map *m, int id, const char *name)
{
	int err;

	if (id < 0 || id == PL_ITEM_NONE || id == PL_ITEM_UNDEF)
		return -EINVAL;
	if (pl_map_device_declared(m, id))
		return -EEXIST;
	if (m->ndevices == m->capdevices) {
		int ncap = m->capdevices ? m->capdevices * 2 : 16;
		int32_t *nd = realloc(m->devices, sizeof(*nd) * (size_t)ncap);

		if (!nd)
			return -ENOMEM;
		m->devices = nd;
		m->capdevices = ncap;
	}
	err = ix_grow(&m->dev_by_id, dev_hash, m->devices);
	if (err)
		return err;
	if (name) {
		err = pl_map_set_item_name(m, id, name);
		if (err)
			return err;
	}
	m->devices[m->ndevices] = id;
	ix_put(&m->dev_by_id, mix32((uint32_t)id), m->ndevices);
	m->ndevices++;
	m->finalized = 0;
	return 0;
}

/* ---- parents ---- */

static uint32_t parent_hash(const void *arr, int i)
{
	return mix32((uint32_t)((const int32_t(*)[2])arr)[i][0]);
}

static int parent_index(const pl_map *m, int id)
{
	const struct pl_index *ix = &m->parent_by_item;

	for (uint32_t h = mix32((uint32_t)id) & (ix->cap - 1); ix->slot[h];
	     h = (h + 1) & (ix->cap - 1))
		if (m->parents[ix->slot[h] - 1][0] == id)
			return ix->slot[h] - 1;
	return -1;
}

/*
 * Each item's first bucket by position, as the scan it replaces found it.
 * Without memory the index is simply absent and the getters scan.
 */
void pl_parents_rebuild(pl_map *m)
{
	size_t total = 0;

	free(m->parents);
	m->parents = NULL;
	m->nparents = 0;
	ix_free(&m->parent_by_item);
	for (int32_t pos = 0; pos < m->max_buckets; pos++)
		if (m->buckets[pos])
			total += m->buckets[pos]->size;
	if (total == 0 || total > INT32_MAX / 2)
		return;
	m->parents = malloc(sizeof(*m->parents) * total);
	if (!m->parents)
		return;
	for (int32_t pos = 0; pos < m->max_buckets; pos++) {
		const struct pl_bucket *b = m->buckets[pos];

		/* a shadow copy is nobody's parent in the user's tree */
		if (!b || b->shadow)
			continue;
		for (uint32_t i = 0; i < b->size; i++) {
			int it = b->items[i];

			if (m->parent_by_item.cap && parent_index(m, it) >= 0)
				continue;
			if (ix_grow(&m->parent_by_item, parent_hash,
				    m->parents))
				goto fail;
			m->parents[m->nparents][0] = it;
			m->parents[m->nparents][1] = b->id;
			ix_put(&m->parent_by_item, mix32((uint32_t)it),
			       m->nparents);
			m->nparents++;
		}
	}
	return;
fail:
	free(m->parents);
	m->parents = NULL;
	m->nparents = 0;
	ix_free(&m->parent_by_item);
}

static int indexed_parents(const pl_map *m)
{
	return m->finalized && m->parent_by_item.cap;
}

int pl_map_parent(const pl_map *m, int id)
{
	if (indexed_parents(m)) {
		int i = parent_index(m, id);

		return i < 0 ? 0 : m->parents[i][1];
	}
	for (int32_t pos = 0; pos < m->max_buckets; pos++) {
		const struct pl_bucket *b = m->buckets[pos];

		if (!b || b->shadow)
			continue;
		for (uint32_t i = 0; i < b->size; i++)
			if (b->items[i] == id)
				return b->id;
	}
	return 0;
}

int pl_map_device_in_buckets(const pl_map *m, int id)
{
	return pl_map_parent(m, id) != 0;
}

void pl_names_free(pl_map *m)
{
	for (int i = 0; i < m->ntypes; i++)
		free(m->types[i].name);
	free(m->types);
	for (int i = 0; i < m->nitems; i++)
		free(m->items[i].name);
	free(m->items);
	ix_free(&m->item_by_id);
	ix_free(&m->item_by_name);
	free(m->devices);
	ix_free(&m->dev_by_id);
	free(m->parents);
	ix_free(&m->parent_by_item);
}
