/*
 * rulewalk.c - what Ceph 16.2's CrushWrapper reads off a rule and the
 * hierarchy for the upmap machinery: subtree_contains, get_parent_of_type
 * (with a rule), get_rule_weight_osd_map, verify_upmap and try_remap_rule
 * (with _choose_type_stack).  Used by OSDMap-level code (osdsim's upmap
 * clean-up, the balancer); never on the mapping path.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "crush_i.h"

#define MAX_WALK 64 /* depth guard: a map with a cycle is refused at load */

static const struct pl_bucket *bucket(const pl_map *m, int id)
{
	int i = -1 - id;

	return id < 0 && i < m->max_buckets ? m->buckets[i] : NULL;
}

static int contains(const pl_map *m, int root, int item, int depth)
{
	const struct pl_bucket *b;

	if (root == item)
		return 1;
	b = bucket(m, root);
	if (!b || depth > MAX_WALK)
		return 0;
	for (uint32_t i = 0; i < b->size; i++)
		if (contains(m, b->items[i], item, depth + 1))
			return 1;
	return 0;
}

int pl_subtree_contains(const pl_map *m, int root, int item)
{
	return contains(m, root, item, 0);
}

/* get_children_of_type(root, type) in order, the first that contains
 * item (get_parent_of_type's inner loop) */
static int first_child_of_type(const pl_map *m, int id, int type, int item,
			       int depth)
{
	const struct pl_bucket *b = bucket(m, id);

	if (id >= 0)
		return type == 0 && id == item ? id : 0;
	if (!b || depth > MAX_WALK || b->type < type)
		return 0;
	if (b->type == type)
		return contains(m, id, item, 0) ? id : 0;
	for (uint32_t i = 0; i < b->size; i++) {
		int r = first_child_of_type(m, b->items[i], type, item,
					    depth + 1);

		if (r)
			return r;
	}
	return 0;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

int pl_parent_of_type(const pl_map *m, int rule, int type, int item)
{
	const struct pl_rule *r;
	int roots[64], n = 0;

	if ((uint32_t)rule >= m->max_rules || !(r = m->rules[rule]))
		return 0;
	/* find_takes_by_rule fills a std::set: ascending ids */
	for (uint32_t s = 0; s < r->len && n < 64; s++) {
		int dup = 0;

		if (r->steps[s].op != PL_RULE_TAKE)
			continue;
		for (int k = 0; k < n; k++)
			if (roots[k] == r->steps[s].arg1)
				dup = 1;
		if (!dup)
			roots[n++] = r->steps[s].arg1;
	}
	qsort(roots, (size_t)n, sizeof(int), cmp_int);
	for (int k = 0; k < n; k++) {
		int p = first_child_of_type(m, roots[k], type, item, 0);

		if (p)
			return p;
	}
	return 0;
}

int pl_verify_upmap(const pl_map *m, int rule, int size, const int *up,
		    int nup)
{
	const struct pl_rule *r;
	int root = 0, cursor = 0, nstack = 0;
	int stack_type[32], stack_n[32];

	if ((uint32_t)rule >= m->max_rules || !(r = m->rules[rule]))
		return -ENOENT;
	for (uint32_t s = 0; s < r->len; s++) {
		const struct pl_rule_step *st = &r->steps[s];
		int numrep = st->arg1, type = st->arg2, leaf;

		switch (st->op) {
		case PL_RULE_TAKE:
			root = st->arg1;
			break;
		case PL_RULE_CHOOSELEAF_FIRSTN:
		case PL_RULE_CHOOSELEAF_INDEP:
		case PL_RULE_CHOOSE_FIRSTN:
		case PL_RULE_CHOOSE_INDEP: {
			int parents[PL_MAX_UP_ACTING], np = 0, seen_type = 0;

			leaf = st->op == PL_RULE_CHOOSELEAF_FIRSTN ||
			       st->op == PL_RULE_CHOOSELEAF_INDEP;
			if (numrep <= 0)
				numrep += size;
			/* a std::map emplace: a type already there keeps
			 * its first count */
			for (int k = 0; k < nstack; k++)
				if (stack_type[k] == type)
					seen_type = 1;
			if (!seen_type && nstack < 32) {
				stack_type[nstack] = type;
				stack_n[nstack++] = numrep;
			}
			if (type == 0)
				break;
			for (int i = 0; i < nup; i++) {
				int p = pl_parent_of_type(m, rule, type, up[i]);
				int seen = 0;

				if (p >= 0)
					continue; /* Ceph skips it, for now */
				for (int j = 0; j < np; j++)
					if (parents[j] == p)
						seen = 1;
				if (seen && leaf)
					return -EINVAL; /* one failure domain
							 * twice */
				if (!seen && np < PL_MAX_UP_ACTING)
					parents[np++] = p;
			}
			if (!leaf && np > numrep)
				return -EINVAL;
			break;
		}
		case PL_RULE_EMIT:
			if (root < 0) {
				long num = 1;

				for (int k = 0; k < nstack; k++)
					num *= stack_n[k];
				for (long k = 0; cursor < nup && k < num; k++) {
					if (!contains(m, root, up[cursor], 0))
						return -EINVAL;
					cursor++;
				}
			}
			nstack = 0;
			root = 0;
			break;
		default:
			break;
		}
	}
	return 0;
}

int pl_rule_osd_weights(const pl_map *m, int rule, float *share,
			unsigned char *in_rule, int n)
{
	const struct pl_rule *r;
	int *queue = NULL, cap = 0;
	float *w = NULL;
	int ret = 0;

	memset(share, 0, sizeof(float) * (size_t)(n > 0 ? n : 0));
	if (in_rule)
		memset(in_rule, 0, (size_t)(n > 0 ? n : 0));
	if ((uint32_t)rule >= m->max_rules || !(r = m->rules[rule]))
		return 0;
	w = calloc((size_t)(n > 0 ? n : 1), sizeof(float));
	cap = m->max_buckets + 16;
	queue = malloc(sizeof(int) * (size_t)cap);
	if (!w || !queue) {
		ret = -ENOMEM;
		goto out;
	}
	/* CrushWrapper::get_rule_weight_osd_map: per take, each device's
	 * share of the take's weight, summed over the takes (floats) */
	for (uint32_t s = 0; s < r->len; s++) {
		int head = 0, tail = 0;
		float sum = 0;

		if (r->steps[s].op != PL_RULE_TAKE)
			continue;
		memset(w, 0, sizeof(float) * (size_t)n);
		if (r->steps[s].arg1 >= 0) {
			if (r->steps[s].arg1 < n) {
				w[r->steps[s].arg1] = 1.0f;
				if (in_rule)
					in_rule[r->steps[s].arg1] = 1;
			}
			sum = 1.0f;
		} else if (bucket(m, r->steps[s].arg1)) {
			queue[tail++] = r->steps[s].arg1;
		}
		while (head < tail) {
			const struct pl_bucket *b = bucket(m, queue[head++]);

			for (uint32_t i = 0; b && i < b->size; i++) {
				int item = b->items[i];

				if (item >= 0) {
					float iw = (float)pl_map_bucket_item_weight(
						m, b->id, (int)i);

					if (item < n) {
						w[item] = iw;
						if (in_rule)
							in_rule[item] = 1;
					}
					sum += iw;
				} else if (tail < cap) {
					queue[tail++] = item;
				} else {
					int *nq = realloc(queue, sizeof(int) *
								 (size_t)cap * 2);

					if (!nq) {
						ret = -ENOMEM;
						goto out;
					}
					queue = nq;
					cap *= 2;
					queue[tail++] = item;
				}
			}
		}
		for (int d = 0; d < n; d++)
			if (sum != 0 && w[d] != 0)
				share[d] += w[d] / sum;
	}
out:
	free(w);
	free(queue);
	return ret;
}

/* ---- try_remap_rule ---- */

struct remap_ctx {
	const pl_map *m;
	int rule;
	const uint8_t *overfull; /* by osd id, n entries */
	int n;
	const int *under, *more_under;
	int nunder, nmore;
	const int *orig;
	int norig;
	int i;		 /* the iterator into orig */
	uint8_t *used;	 /* by osd id */
};

static int is_over(const struct remap_ctx *c, int osd)
{
	return osd >= 0 && osd < c->n && c->overfull[osd];
}

static int in_orig(const struct remap_ctx *c, int osd)
{
	for (int k = 0; k < c->norig; k++)
		if (c->orig[k] == osd)
			return 1;
	return 0;
}

/* a replacement for an overfull leaf under `from`, or -1 */
static int pick(struct remap_ctx *c, const int *cand, int ncand, int from)
{
	for (int k = 0; k < ncand; k++) {
		int item = cand[k];

		if (item >= 0 && item < c->n && c->used[item])
			continue;
		if (!contains(c->m, from, item, 0) || in_orig(c, item))
			continue;
		if (item >= 0 && item < c->n)
			c->used[item] = 1;
		return item;
	}
	return -1;
}

static int int_in(const int *v, int n, int x)
{
	for (int k = 0; k < n; k++)
		if (v[k] == x)
			return 1;
	return 0;
}

#define MAXW 64

/* CrushWrapper::_choose_type_stack */
static int choose_type_stack(struct remap_ctx *c, const int (*stack)[2],
			     int nstack, int *w, int *nw, int root)
{
	int cum[32], f = 1;
	/* underfull_buckets[j]: buckets of level j with an underfull leaf */
	int ub[32][MAXW], nub[32];

	if (nstack > 32)
		return -EINVAL;
	for (int j = nstack - 1; j >= 0; j--) {
		cum[j] = f;
		f *= stack[j][1];
	}
	memset(nub, 0, sizeof(nub));
	for (int u = 0; u < c->nunder; u++) {
		int item = c->under[u];

		for (int j = nstack - 2; j >= 0; j--) {
			item = pl_parent_of_type(c->m, c->rule, stack[j][0], item);
			if (!contains(c->m, root, item, 0))
				continue;
			if (!int_in(ub[j], nub[j], item) && nub[j] < MAXW) {
				/* a std::set: kept sorted */
				int k = nub[j]++;

				while (k > 0 && ub[j][k - 1] > item) {
					ub[j][k] = ub[j][k - 1];
					k--;
				}
				ub[j][k] = item;
			}
		}
	}
	for (int j = 0; j < nstack; j++) {
		int type = stack[j][0], fanout = stack[j][1], o[MAXW], no = 0;
		int tmpi = c->i;

		if (c->i >= c->norig)
			break;
		if (fanout > MAXW || fanout < 0)
			return -EINVAL;
		for (int wi = 0; wi < *nw; wi++) {
			int from = w[wi];
			/* leaves[pos]: orig entries below the pos-th choice */
			int lv_start[MAXW], lv_n[MAXW];

			for (int pos = 0; pos < fanout; pos++) {
				lv_start[pos] = tmpi;
				lv_n[pos] = 0;
				if (type > 0) {
					int item = tmpi < c->norig ?
						pl_parent_of_type(c->m, c->rule,
								  type,
								  c->orig[tmpi]) :
						0;
					int k = cum[j];

					if (no < MAXW)
						o[no++] = item;
					while (k-- && tmpi < c->norig) {
						tmpi++;
						lv_n[pos]++;
					}
				} else {
					int got = -1, cur = c->orig[c->i];

					if (is_over(c, cur)) {
						got = pick(c, c->under,
							   c->nunder, from);
						if (got < 0)
							got = pick(c, c->more_under,
								   c->nmore,
								   from);
					}
					if (no < MAXW)
						o[no++] = got >= 0 ? got : cur;
					c->i++;
					if (c->i >= c->norig)
						break;
				}
			}
			if (j + 1 < nstack) {
				for (int pos = 0; pos < fanout && pos < no;
				     pos++) {
					int any = 0;

					if (int_in(ub[j], nub[j], o[pos]))
						continue;
					for (int k = 0; k < lv_n[pos]; k++)
						if (is_over(c, c->orig[lv_start[pos] +
									k]))
							any = 1;
					if (!any)
						continue;
					for (int k = 0; k < nub[j]; k++) {
						int alt = ub[j][k];

						if (int_in(o, no, alt))
							continue;
						if (j == 0 ||
						    pl_parent_of_type(c->m, c->rule,
								      stack[j - 1][0],
								      o[pos]) ==
							    pl_parent_of_type(
								    c->m, c->rule,
								    stack[j - 1][0],
								    alt)) {
							o[pos] = alt;
							break;
						}
					}
				}
			}
			if (c->i >= c->norig)
				break;
		}
		memcpy(w, o, sizeof(int) * (size_t)no);
		*nw = no;
	}
	return 0;
}

int pl_try_remap_rule(const pl_map *m, int rule, int maxout,
		      const uint8_t *overfull, int n, const int *under,
		      int nunder, const int *more_under, int nmore,
		      const int *orig, int norig, int *out, int *nout)
{
	const struct pl_rule *r;
	struct remap_ctx c = { m, rule, overfull, n, under, more_under,
			       nunder, nmore, orig, norig, 0, NULL };
	int w[MAXW], nw = 0, stack[32][2], nstack = 0, root = 0, ret = 0;

	*nout = 0;
	if ((uint32_t)rule >= m->max_rules || !(r = m->rules[rule]))
		return -ENOENT;
	c.used = calloc((size_t)(n > 0 ? n : 1), 1);
	if (!c.used)
		return -ENOMEM;
	for (uint32_t s = 0; s < r->len && !ret; s++) {
		const struct pl_rule_step *st = &r->steps[s];
		int numrep = st->arg1, type = st->arg2;

		switch (st->op) {
		case PL_RULE_TAKE:
			if ((st->arg1 >= 0 && st->arg1 < m->max_devices) ||
			    bucket(m, st->arg1)) {
				w[0] = st->arg1;
				nw = 1;
				root = st->arg1;
			}
			break;
		case PL_RULE_CHOOSELEAF_FIRSTN:
		case PL_RULE_CHOOSELEAF_INDEP:
			if (numrep <= 0)
				numrep += maxout;
			if (nstack < 31) {
				stack[nstack][0] = type;
				stack[nstack++][1] = numrep;
			}
			if (type > 0 && nstack < 32) {
				stack[nstack][0] = 0;
				stack[nstack++][1] = 1;
			}
			if (root < 0)
				ret = choose_type_stack(&c, (const int(*)[2])stack,
							nstack, w, &nw, root);
			nstack = 0;
			break;
		case PL_RULE_CHOOSE_FIRSTN:
		case PL_RULE_CHOOSE_INDEP:
			if (numrep <= 0)
				numrep += maxout;
			if (nstack < 32) {
				stack[nstack][0] = type;
				stack[nstack++][1] = numrep;
			}
			break;
		case PL_RULE_EMIT:
			if (nstack && root < 0)
				ret = choose_type_stack(&c, (const int(*)[2])stack,
							nstack, w, &nw, root);
			nstack = 0;
			for (int k = 0; k < nw && *nout < PL_MAX_UP_ACTING; k++)
				out[(*nout)++] = w[k];
			nw = 0;
			break;
		default:
			break;
		}
	}
	free(c.used);
	return ret;
}
