/*
 * parse_order.c - the order in which buckets are built:
 * CrushCompiler::adjust_bucket_item_place and its quirks.
 */
#include <stdlib.h>

#include "parse_i.h"

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* Is c in sorted a[0..n)? */
static int has_sorted(const int *a, int n, int c)
{
	return n > 0 &&
	       bsearch(&c, a, (size_t)n, sizeof(int), cmp_int) != NULL;
}

/*
 * CrushCompiler::adjust_bucket_item_place, reproduced with its quirks:
 * for every pair i < j of bucket definitions (by name) where i lists j as
 * an item, the parse-tree nodes found through bucket_itrer[name] are
 * swapped -- iterators that are not updated after a swap, so with several
 * forward references the resulting order can still be wrong, and crushtool
 * then fails.  We fail the same way.  order[k] gets the bucket record to
 * process for the k-th bucket statement.
 */
int pp_adjust_order(struct sem *S, struct bucket_rec **recs, int nb,
			int *order)
{
	struct parser *p = S->p;
	int nn = (int)S->bnames.n, ret = -1;
	int *nid = calloc((size_t)nb + 1, sizeof(int));
	int *slot_of = calloc((size_t)nn + 1, sizeof(int));
	int **cont = calloc((size_t)nn + 1, sizeof(int *));
	int *ncont = calloc((size_t)nn + 1, sizeof(int));
	int *capc = calloc((size_t)nn + 1, sizeof(int));
	int **defs = calloc((size_t)nn + 1, sizeof(int *)); /* k's per name */
	int *ndefs = calloc((size_t)nn + 1, sizeof(int));
	int *capd = calloc((size_t)nn + 1, sizeof(int));
	int *js = NULL, capjs = 0;

	if (!nid || !slot_of || !cont || !ncont || !capc || !defs || !ndefs ||
	    !capd)
		goto nomem;
	for (int k = 0; k < nb; k++) {
		pp_smap_get(&S->bnames, tokp(p, recs[k]->name),
			    recs[k]->name.len, &nid[k]);
		slot_of[nid[k]] = k; /* last definition wins, as in Ceph */
		if (pp_grow((void **)&defs[nid[k]], &capd[nid[k]],
			    ndefs[nid[k]], sizeof(int)))
			goto nomem;
		defs[nid[k]][ndefs[nid[k]]++] = k;
		order[k] = k;
	}
	for (int k = 0; k < nb; k++) {
		int a = nid[k];

		for (int i = 0; i < recs[k]->nitems; i++) {
			int c;
			struct tok t = recs[k]->items[i].name;

			if (!pp_smap_get(&S->bnames, tokp(p, t), t.len, &c))
				continue;
			if (pp_grow((void **)&cont[a], &capc[a], ncont[a],
				    sizeof(int)))
				goto nomem;
			cont[a][ncont[a]++] = c;
		}
	}
	for (int a = 0; a < nn; a++) {
		int n = 0;

		if (!ncont[a])
			continue;
		qsort(cont[a], (size_t)ncont[a], sizeof(int), cmp_int);
		for (int i = 0; i < ncont[a]; i++)
			if (!n || cont[a][n - 1] != cont[a][i])
				cont[a][n++] = cont[a][i];
		ncont[a] = n;
	}
	for (int i = 0; i < nb; i++) {
		int a = nid[i], nj = 0;

		/* the j > i whose name bucket i lists, in increasing order */
		for (int c = 0; c < ncont[a]; c++) {
			int b = cont[a][c];

			for (int d = 0; d < ndefs[b]; d++) {
				if (defs[b][d] <= i)
					continue;
				if (pp_grow((void **)&js, &capjs, nj,
					    sizeof(int)))
					goto nomem;
				js[nj++] = defs[b][d];
			}
		}
		if (nj)
			qsort(js, (size_t)nj, sizeof(int), cmp_int);
		for (int x = 0; x < nj; x++) {
			int j = js[x], b = nid[j], tmp;

			if (has_sorted(cont[b], ncont[b], a)) {
				pp_err_at(p, recs[i]->name.off,
					  "buckets '%.*s' and '%.*s' contain "
					  "each other",
					  TOKF(recs[i]->name),
					  TOKF(recs[j]->name));
				goto out;
			}
			tmp = order[slot_of[a]];
			order[slot_of[a]] = order[slot_of[b]];
			order[slot_of[b]] = tmp;
		}
	}
	ret = 0;
	goto out;
nomem:
	pp_set_nomem(p);
out:
	for (int a = 0; a < nn && cont && defs; a++) {
		free(cont[a]);
		free(defs[a]);
	}
	free(nid);
	free(slot_of);
	free(cont);
	free(ncont);
	free(capc);
	free(defs);
	free(ndefs);
	free(capd);
	free(js);
	return ret;
}
