/*
 * parse_sets.c - the parser's small containers: a growable array, a map
 * from string slices (pointing into the map text) to ints, and a set of
 * ints, both open addressing.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "parse_i.h"

int pp_grow(void **arr, int *cap, int n, size_t elem)
{
	void *na;
	int ncap;

	if (n < *cap)
		return 0;
	/* from one: most buckets have one id, one hash line and a few
	 * items, and a big map has a million of them */
	ncap = *cap ? *cap * 2 : 1;
	na = realloc(*arr, (size_t)ncap * elem);
	if (!na)
		return -ENOMEM;
	*arr = na;
	*cap = ncap;
	return 0;
}

static uint32_t str_hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static struct smap_ent *smap_slot(const struct smap *m, const char *s,
				  size_t n)
{
	size_t i = str_hash(s, n) & (m->cap - 1);

	while (m->e[i].s) {
		if (m->e[i].len == n && memcmp(m->e[i].s, s, n) == 0)
			return &m->e[i];
		i = (i + 1) & (m->cap - 1);
	}
	return &m->e[i];
}

int pp_smap_get(const struct smap *m, const char *s, size_t n, int *val)
{
	struct smap_ent *e;

	if (!m->cap)
		return 0;
	e = smap_slot(m, s, n);
	if (!e->s)
		return 0;
	if (val)
		*val = e->val;
	return 1;
}

/* insert or overwrite (std::map operator[] semantics) */
int pp_smap_put(struct smap *m, const char *s, size_t n, int val)
{
	struct smap_ent *e;

	if ((m->n + 1) * 2 > m->cap) {
		struct smap old = *m;
		size_t ncap = m->cap ? m->cap * 2 : 64;

		m->e = calloc(ncap, sizeof(*m->e));
		if (!m->e) {
			m->e = old.e;
			return -ENOMEM;
		}
		m->cap = ncap;
		m->n = 0;
		for (size_t i = 0; i < old.cap; i++) {
			if (old.e[i].s) {
				*smap_slot(m, old.e[i].s, old.e[i].len) =
					old.e[i];
				m->n++;
			}
		}
		free(old.e);
	}
	e = smap_slot(m, s, n);
	if (!e->s) {
		e->s = s;
		e->len = (uint32_t)n;
		m->n++;
	}
	e->val = val;
	return 0;
}

static size_t iset_slot(const struct iset *s, int32_t x)
{
	size_t i = ((uint32_t)x * 2654435761u) & (s->cap - 1);

	while (s->used[i] && s->v[i] != x)
		i = (i + 1) & (s->cap - 1);
	return i;
}

int pp_iset_has(const struct iset *s, int32_t x)
{
	return s->cap && s->used[iset_slot(s, x)];
}

int pp_iset_add(struct iset *s, int32_t x)
{
	size_t i;

	if ((s->n + 1) * 2 > s->cap) {
		struct iset old = *s;
		size_t ncap = s->cap ? s->cap * 2 : 64;

		s->v = calloc(ncap, sizeof(*s->v));
		s->used = calloc(ncap, 1);
		if (!s->v || !s->used) {
			free(s->v);
			free(s->used);
			*s = old;
			return -ENOMEM;
		}
		s->cap = ncap;
		s->n = 0;
		for (size_t j = 0; j < old.cap; j++)
			if (old.used[j])
				pp_iset_add(s, old.v[j]);
		free(old.v);
		free(old.used);
	}
	i = iset_slot(s, x);
	if (!s->used[i]) {
		s->used[i] = 1;
		s->v[i] = x;
		s->n++;
	}
	return 0;
}

void pp_iset_free(struct iset *s)
{
	free(s->v);
	free(s->used);
}
