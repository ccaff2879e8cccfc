/*
 * names.c - growable lists of object names: what listings, backfill
 * missing sets and `rados ls` collect.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "objlayer_i.h"

void ol_names_add(struct ol_names *a, const char *name)
{
	if (a->err)
		return;
	if (a->n == a->cap) {
		size_t nc = a->cap ? a->cap * 2 : 64;
		char **nv = realloc(a->v, nc * sizeof(*nv));

		if (!nv) {
			a->err = -ENOMEM;
			return;
		}
		a->v = nv;
		a->cap = nc;
	}
	if (!(a->v[a->n] = strdup(name))) {
		a->err = -ENOMEM;
		return;
	}
	a->n++;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void ol_names_sort_unique(struct ol_names *a)
{
	size_t w = 0;

	if (a->n)
		qsort(a->v, a->n, sizeof(*a->v), str_cmp);
	for (size_t i = 0; i < a->n; i++) {
		if (w && !strcmp(a->v[w - 1], a->v[i])) {
			free(a->v[i]);
			continue;
		}
		a->v[w++] = a->v[i];
	}
	a->n = w;
}

void ol_names_free(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}
