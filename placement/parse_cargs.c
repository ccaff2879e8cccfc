/*
 * parse_cargs.c - choose_args sections of the text format: their grammar
 * (Ceph 16.2 grammar.h) and their meaning (CrushCompiler::
 * parse_choose_args and friends).
 *
 *   choose_args = "choose_args" posint '{' *choose_arg '}'
 *   choose_arg = '{' "bucket_id" negint !weight_set !choose_arg_ids '}'
 *   weight_set = "weight_set" '[' *('[' *real ']') ']'
 *   choose_arg_ids = "ids" '[' *integer ']'
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "parse_i.h"

void pp_cargs_free(struct cargs_rec *c)
{
	if (!c)
		return;
	for (int i = 0; i < c->nargs; i++) {
		free(c->args[i].w);
		free(c->args[i].rowlen);
		free(c->args[i].ids);
	}
	free(c->args);
	free(c);
}

static int push_tok(struct parser *p, struct tok **arr, int *cap, int *n,
		    struct tok t)
{
	if (pp_grow((void **)arr, cap, *n, sizeof(**arr))) {
		pp_set_nomem(p);
		return 0;
	}
	(*arr)[(*n)++] = t;
	return 1;
}

static int g_weight_set(struct parser *p, struct carg_rec *a)
{
	size_t s2;
	struct tok t;

	if (!pp_lit(p, "weight_set", &a->ws_kw) || !pp_lit(p, "[", NULL))
		return 0;
	for (;;) {
		int n = 0;

		s2 = p->pos;
		if (!pp_lit(p, "[", NULL)) {
			p->pos = s2;
			break;
		}
		while (pp_real(p, &t)) {
			if (!push_tok(p, &a->w, &a->capw, &a->nw, t))
				return 0;
			n++;
		}
		if (stopped(p))
			return 0;
		if (!pp_lit(p, "]", NULL)) {
			/* a row that does not close ends the repetition
			 * (PEG), and the outer ']' then fails */
			p->pos = s2;
			a->nw -= n;
			break;
		}
		if (pp_grow((void **)&a->rowlen, &a->caprows, a->nrows,
			    sizeof(*a->rowlen))) {
			pp_set_nomem(p);
			return 0;
		}
		a->rowlen[a->nrows++] = n;
	}
	return pp_lit(p, "]", NULL);
}

static int g_ids(struct parser *p, struct carg_rec *a)
{
	struct tok t;

	if (!pp_lit(p, "ids", &a->ids_kw) || !pp_lit(p, "[", NULL))
		return 0;
	while (pp_int(p, &t))
		if (!push_tok(p, &a->ids, &a->capids, &a->nids, t))
			return 0;
	if (stopped(p))
		return 0;
	return pp_lit(p, "]", NULL);
}

static void carg_reset_ws(struct carg_rec *a)
{
	a->nw = a->nrows = 0;
	a->ws_kw.len = 0;
}

static int g_choose_arg(struct parser *p, struct carg_rec *a)
{
	size_t s2;

	if (!pp_lit(p, "{", &a->open) || !pp_lit(p, "bucket_id", NULL) ||
	    !pp_negint(p, &a->bucket))
		return 0;
	s2 = p->pos;
	if (!g_weight_set(p, a)) {
		if (stopped(p))
			return 0;
		p->pos = s2;
		carg_reset_ws(a);
	}
	s2 = p->pos;
	if (!g_ids(p, a)) {
		if (stopped(p))
			return 0;
		p->pos = s2;
		a->nids = 0;
		a->ids_kw.len = 0;
	}
	return pp_lit(p, "}", NULL);
}

int pp_g_choose_args(struct parser *p)
{
	size_t save = p->pos, s2;
	struct cargs_rec *c = calloc(1, sizeof(*c));
	struct stmt st = { .kind = ST_CHOOSE_ARGS };

	if (!c) {
		pp_set_nomem(p);
		return 0;
	}
	if (!pp_lit(p, "choose_args", &c->kw) || !pp_uint(p, &c->id) ||
	    !pp_lit(p, "{", NULL))
		goto fail;
	p->opened = 1;
	for (;;) {
		struct carg_rec a;

		memset(&a, 0, sizeof(a));
		s2 = p->pos;
		if (!g_choose_arg(p, &a)) {
			free(a.w);
			free(a.rowlen);
			free(a.ids);
			if (stopped(p))
				goto fail;
			p->pos = s2;
			break;
		}
		if (pp_grow((void **)&c->args, &c->capargs, c->nargs,
			    sizeof(*c->args))) {
			free(a.w);
			free(a.rowlen);
			free(a.ids);
			pp_set_nomem(p);
			goto fail;
		}
		c->args[c->nargs++] = a;
	}
	if (!pp_lit(p, "}", NULL))
		goto fail;
	st.cargs = c;
	if (pp_push_stmt(p, &st))
		return 1;
fail:
	pp_cargs_free(c);
	p->pos = save;
	return 0;
}

/* ---- semantics ---- */

/*
 * CrushCompiler::int_node: strtol (saturating at LONG_MIN/LONG_MAX), then
 * an int, which keeps the low 32 bits: "18446744073709551615" (how
 * crushtool -d prints the default set's id) reads as -1.
 */
static int int_node(struct parser *p, struct tok t)
{
	const char *s = tokp(p, t);
	size_t i = 0;
	int neg = 0;
	unsigned long long v = 0;
	long l;

	if (i < t.len && s[i] == '-') {
		neg = 1;
		i++;
	}
	for (; i < t.len; i++) {
		if (v > (unsigned long long)LONG_MAX + 1)
			continue; /* saturated: the rest cannot bring it back */
		if (v > (ULLONG_MAX - 9) / 10) {
			/* one more digit is past LONG_MAX (strtol's ERANGE):
			 * saturate before v * 10 wraps */
			v = (unsigned long long)LONG_MAX + 2;
			continue;
		}
		v = v * 10 + (unsigned)(s[i] - '0');
	}
	if (neg)
		l = v > (unsigned long long)LONG_MAX ? LONG_MIN : -(long)v;
	else
		l = v > (unsigned long long)LONG_MAX ? LONG_MAX : (long)v;
	return (int)(uint32_t)(unsigned long)l;
}

static int sem_arg(struct sem *S, struct pl_choose_args *ca,
		   const struct carg_rec *a)
{
	struct parser *p = S->p;
	int id = int_node(p, a->bucket);
	uint32_t idx, size, *w = NULL;
	int32_t *ids = NULL;
	int err = 0;

	if (-1 - (long long)id < 0 ||
	    -1 - (long long)id >= pl_map_max_buckets(S->m)) {
		pp_err_at(p, a->bucket.off, "choose_args bucket_id %d is out "
			  "of range", id);
		return -1;
	}
	if (!pl_map_bucket_exists(S->m, id)) {
		pp_err_at(p, a->bucket.off, "choose_args bucket_id %d does "
			  "not exist", id);
		return -1;
	}
	idx = (uint32_t)(-1 - id);
	size = (uint32_t)pl_map_bucket_size(S->m, id);
	if (a->ws_kw.len) {
		int at = 0;

		for (int r = 0; r < a->nrows; r++) {
			if ((uint32_t)a->rowlen[r] != size) {
				pp_err_at(p, a->ws_kw.off, "bucket %d needs "
					  "exactly %u weights but weight_set "
					  "row %d has %d", id, size, r + 1,
					  a->rowlen[r]);
				return -1;
			}
		}
		w = calloc((size_t)a->nw + 1, sizeof(*w));
		if (!w) {
			pp_set_nomem(p);
			return -1;
		}
		for (at = 0; at < a->nw; at++)
			if (pp_tok_weight(p, a->w[at], &w[at])) {
				free(w);
				return -1;
			}
		err = pl_cargs_set_weights(ca, idx, (uint32_t)a->nrows, size,
					   w);
		free(w);
		if (err) {
			pp_set_nomem(p);
			return -1;
		}
	}
	if (a->ids_kw.len) {
		if ((uint32_t)a->nids != size) {
			pp_err_at(p, a->ids_kw.off, "bucket %d needs exactly "
				  "%u ids but got %d", id, size, a->nids);
			return -1;
		}
		ids = calloc((size_t)a->nids + 1, sizeof(*ids));
		if (!ids) {
			pp_set_nomem(p);
			return -1;
		}
		for (int i = 0; i < a->nids; i++)
			ids[i] = int_node(p, a->ids[i]);
		err = pl_cargs_set_ids(ca, idx, (uint32_t)a->nids, ids);
		free(ids);
		if (err) {
			pp_set_nomem(p);
			return -1;
		}
	}
	return 0;
}

int pp_sem_choose_args(struct sem *S, const struct cargs_rec *c)
{
	struct parser *p = S->p;
	int64_t id = int_node(p, c->id);
	struct pl_choose_args *ca;
	int err = pl_cargs_create(S->m, id, &ca);

	if (err == -EEXIST) {
		pp_err_at(p, c->id.off, "choose_args %lld defined twice",
			  (long long)id);
		return -1;
	}
	if (err) {
		pp_set_nomem(p);
		return -1;
	}
	for (int i = 0; i < c->nargs; i++)
		if (sem_arg(S, ca, &c->args[i]))
			return -1;
	return 0;
}
