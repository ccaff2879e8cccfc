/*
 * parse_grammar.c - the syntax phase: crush_grammar of Ceph 16.2
 * (src/crush/grammar.h) as a hand-written PEG with ordered choice and
 * greedy repetition.  Statements are recorded (struct stmt), nothing is
 * built yet.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse_i.h"

void pp_bucket_free(struct bucket_rec *b)
{
	if (!b)
		return;
	free(b->ids);
	free(b->hashes);
	free(b->items);
	free(b);
}

void pp_rule_free(struct rule_rec *r)
{
	if (!r)
		return;
	free(r->steps);
	free(r);
}

int pp_push_stmt(struct parser *p, const struct stmt *s)
{
	if (pp_grow((void **)&p->st, &p->capst, p->nst, sizeof(*p->st))) {
		pp_set_nomem(p);
		return 0;
	}
	p->st[p->nst++] = *s;
	return 1;
}

/* tunable = "tunable" name posint */
static int g_tunable(struct parser *p)
{
	size_t save = p->pos;
	struct stmt s = { .kind = ST_TUNABLE };

	if (pp_lit(p, "tunable", NULL) && pp_name(p, &s.a, "a tunable name") &&
	    pp_uint(p, &s.b))
		return pp_push_stmt(p, &s);
	p->pos = save;
	return 0;
}

/* device = "device" posint name !("class" name) */
static int g_device(struct parser *p)
{
	size_t save = p->pos, s2;
	struct stmt s = { .kind = ST_DEVICE };
	struct tok cname;

	if (!pp_lit(p, "device", NULL) || !pp_uint(p, &s.a) ||
	    !pp_name(p, &s.b, "a device name")) {
		p->pos = save;
		return 0;
	}
	s2 = p->pos;
	if (!pp_lit(p, "class", NULL) ||
	    !pp_name(p, &cname, "a class name")) {
		p->pos = s2;
	} else {
		s.cname = cname;
	}
	return pp_push_stmt(p, &s);
}

/* bucket_type = "type" posint name */
static int g_type(struct parser *p)
{
	size_t save = p->pos;
	struct stmt s = { .kind = ST_TYPE };

	if (pp_lit(p, "type", NULL) && pp_uint(p, &s.a) &&
	    pp_name(p, &s.b, "a type name"))
		return pp_push_stmt(p, &s);
	p->pos = save;
	return 0;
}

/*
 * bucket = name name '{' *bucket_id bucket_alg *bucket_hash *bucket_item '}'
 * bucket_id = "id" negint !("class" name)
 * bucket_alg = "alg" name
 * bucket_hash = "hash" (integer | "rjenkins1")
 * bucket_item = "item" name !("weight" real) !("pos" posint)
 */
static int g_bucket(struct parser *p)
{
	size_t save = p->pos, s2, s3;
	const char *octx_kind = p->ctx_kind;
	struct tok octx = p->ctx;
	struct bucket_rec *b = calloc(1, sizeof(*b));
	struct stmt st = { .kind = ST_BUCKET };
	struct tok t;

	if (!b) {
		pp_set_nomem(p);
		return 0;
	}
	if (!pp_name(p, &b->type, "a bucket type name") ||
	    !pp_name(p, &b->name, "a bucket name") || !pp_lit(p, "{", NULL))
		goto fail;
	p->opened = 1;
	p->ctx_kind = "bucket";
	p->ctx = b->name;
	for (;;) {
		struct id_rec r = { { 0, 0 }, { 0, 0 }, { 0, 0 } };

		s2 = p->pos;
		if (!pp_lit(p, "id", NULL) || !pp_negint(p, &r.val)) {
			p->pos = s2;
			break;
		}
		s3 = p->pos;
		if (!pp_lit(p, "class", &r.cls) ||
		    !pp_name(p, &t, "a class name")) {
			p->pos = s3;
			r.cls.len = 0;
		} else {
			r.cname = t;
		}
		if (pp_grow((void **)&b->ids, &b->capids, b->nids,
			    sizeof(*b->ids))) {
			pp_set_nomem(p);
			goto fail;
		}
		b->ids[b->nids++] = r;
	}
	if (!pp_lit(p, "alg", NULL) || !pp_name(p, &b->alg, "a bucket alg"))
		goto fail;
	for (;;) {
		s2 = p->pos;
		if (!pp_lit(p, "hash", NULL) ||
		    (!pp_int(p, &t) && !pp_lit(p, "rjenkins1", &t))) {
			p->pos = s2;
			break;
		}
		if (pp_grow((void **)&b->hashes, &b->caphashes, b->nhashes,
			    sizeof(*b->hashes))) {
			pp_set_nomem(p);
			goto fail;
		}
		b->hashes[b->nhashes++] = t;
	}
	for (;;) {
		struct item_rec it;

		memset(&it, 0, sizeof(it));
		s2 = p->pos;
		if (!pp_lit(p, "item", NULL) ||
		    !pp_name(p, &it.name, "an item name")) {
			p->pos = s2;
			break;
		}
		s3 = p->pos;
		if (!pp_lit(p, "weight", NULL) || !pp_real(p, &it.weight)) {
			p->pos = s3;
			it.weight.len = 0;
		}
		s3 = p->pos;
		if (!pp_lit(p, "pos", NULL) || !pp_uint(p, &it.pos)) {
			p->pos = s3;
			it.pos.len = 0;
		}
		if (pp_grow((void **)&b->items, &b->capitems, b->nitems,
			    sizeof(*b->items))) {
			pp_set_nomem(p);
			goto fail;
		}
		b->items[b->nitems++] = it;
	}
	if (!pp_lit(p, "}", NULL))
		goto fail;
	p->ctx_kind = octx_kind;
	p->ctx = octx;
	st.bucket = b;
	if (pp_push_stmt(p, &st))
		return 1;
fail:
	pp_bucket_free(b);
	p->ctx_kind = octx_kind;
	p->ctx = octx;
	p->pos = save;
	return 0;
}

/* "firstn" or "indep" */
static int g_mode(struct parser *p, int *indep)
{
	if (pp_lit(p, "indep", NULL)) {
		*indep = 1;
		return 1;
	}
	if (pp_lit(p, "firstn", NULL)) {
		*indep = 0;
		return 1;
	}
	return 0;
}

static const struct {
	const char *kw;
	int op;
} set_steps[] = {
	/* grammar order: literals are prefix-matched, order matters */
	{ "set_choose_tries", PL_RULE_SET_CHOOSE_TRIES },
	{ "set_choose_local_tries", PL_RULE_SET_CHOOSE_LOCAL_TRIES },
	{ "set_choose_local_fallback_tries",
	  PL_RULE_SET_CHOOSE_LOCAL_FALLBACK_TRIES },
	{ "set_chooseleaf_tries", PL_RULE_SET_CHOOSELEAF_TRIES },
	{ "set_chooseleaf_vary_r", PL_RULE_SET_CHOOSELEAF_VARY_R },
	{ "set_chooseleaf_stable", PL_RULE_SET_CHOOSELEAF_STABLE },
};

/*
 * step = "step" (step_take | set_* posint | step_choose | step_chooseleaf
 *                | "emit")
 * step_take = "take" name !("class" name)
 * step_choose(leaf) = "choose"("leaf") ("indep"|"firstn") integer
 *                     "type" name
 */
static int g_step(struct parser *p, struct step_rec *sr)
{
	size_t save = p->pos, at, s2;
	struct tok t;
	int indep;

	memset(sr, 0, sizeof(*sr));
	if (!pp_lit(p, "step", NULL))
		return 0;
	at = pp_skip(p, p->pos);
	s2 = p->pos;

	if (pp_lit(p, "take", &sr->kw) &&
	    pp_name(p, &sr->arg, "a bucket or device name")) {
		size_t s3 = p->pos;

		sr->kind = SK_TAKE;
		sr->op = PL_RULE_TAKE;
		if (!pp_lit(p, "class", &sr->cls) ||
		    !pp_name(p, &t, "a class name")) {
			p->pos = s3;
			sr->cls.len = 0;
		} else {
			sr->cname = t;
		}
		return 1;
	}
	p->pos = s2;
	for (size_t i = 0; i < sizeof(set_steps) / sizeof(set_steps[0]); i++) {
		if (pp_lit(p, set_steps[i].kw, &sr->kw) &&
		    pp_uint(p, &sr->arg)) {
			sr->kind = SK_SET;
			sr->op = set_steps[i].op;
			return 1;
		}
		p->pos = s2;
	}
	if (pp_lit(p, "choose", &sr->kw) && g_mode(p, &indep) &&
	    pp_int(p, &sr->arg) && pp_lit(p, "type", NULL) &&
	    pp_name(p, &sr->type, "a type name")) {
		sr->kind = SK_CHOOSE;
		sr->op = indep ? PL_RULE_CHOOSE_INDEP : PL_RULE_CHOOSE_FIRSTN;
		return 1;
	}
	p->pos = s2;
	if (pp_lit(p, "chooseleaf", &sr->kw) && g_mode(p, &indep) &&
	    pp_int(p, &sr->arg) && pp_lit(p, "type", NULL) &&
	    pp_name(p, &sr->type, "a type name")) {
		sr->kind = SK_CHOOSE;
		sr->op = indep ? PL_RULE_CHOOSELEAF_INDEP :
				 PL_RULE_CHOOSELEAF_FIRSTN;
		return 1;
	}
	p->pos = s2;
	if (pp_lit(p, "emit", &sr->kw)) {
		sr->kind = SK_EMIT;
		sr->op = PL_RULE_EMIT;
		return 1;
	}
	p->pos = save;
	/* Nothing matched right after "step": name the word, not the
	 * dozen keywords that could have been there. */
	if (!stopped(p) && p->fs.far == at && at < p->len) {
		size_t e = at;

		while (e < p->len && is_name_char(p->src[e]))
			e++;
		if (e > at)
			snprintf(p->fs.custom, sizeof(p->fs.custom),
				 "unknown rule step '%.*s'",
				 (int)(e - at > 60 ? 60 : e - at),
				 p->src + at);
		else
			snprintf(p->fs.custom, sizeof(p->fs.custom),
				 "expected a rule step (take, choose, "
				 "chooseleaf, emit or set_*)");
	}
	return 0;
}

/*
 * crushrule = "rule" !name '{' ("id" | "ruleset") posint
 *             "type" ("replicated" | "erasure")
 *             "min_size" posint "max_size" posint +step '}'
 */
static int g_rule(struct parser *p)
{
	size_t save = p->pos, s2;
	const char *octx_kind = p->ctx_kind;
	struct tok octx = p->ctx;
	struct rule_rec *r = calloc(1, sizeof(*r));
	struct stmt st = { .kind = ST_RULE };
	struct step_rec sr;

	if (!r) {
		pp_set_nomem(p);
		return 0;
	}
	if (!pp_lit(p, "rule", &r->kw))
		goto fail;
	s2 = p->pos;
	if (!pp_name(p, &r->name, "a rule name")) {
		p->pos = s2;
		r->name.len = 0;
	}
	if (!pp_lit(p, "{", NULL))
		goto fail;
	p->opened = 1;
	p->ctx_kind = "rule";
	p->ctx = r->name;
	if (!(pp_lit(p, "id", NULL) || pp_lit(p, "ruleset", NULL)) ||
	    !pp_uint(p, &r->id))
		goto fail;
	if (!pp_lit(p, "type", NULL) ||
	    !(pp_lit(p, "replicated", &r->type) ||
	      pp_lit(p, "erasure", &r->type)))
		goto fail;
	if (!pp_lit(p, "min_size", NULL) || !pp_uint(p, &r->min) ||
	    !pp_lit(p, "max_size", NULL) || !pp_uint(p, &r->max))
		goto fail;
	for (;;) {
		s2 = p->pos;
		if (!g_step(p, &sr)) {
			p->pos = s2;
			break;
		}
		if (pp_grow((void **)&r->steps, &r->capsteps, r->nsteps,
			    sizeof(*r->steps))) {
			pp_set_nomem(p);
			goto fail;
		}
		r->steps[r->nsteps++] = sr;
	}
	if (!r->nsteps || !pp_lit(p, "}", NULL))
		goto fail;
	p->ctx_kind = octx_kind;
	p->ctx = octx;
	st.rule = r;
	if (pp_push_stmt(p, &st))
		return 1;
fail:
	pp_rule_free(r);
	p->ctx_kind = octx_kind;
	p->ctx = octx;
	p->pos = save;
	return 0;
}

/* Is the word at `at` exactly kw (followed by a non-name character)? */
static int word_is(const struct parser *p, size_t at, const char *kw)
{
	size_t n = strlen(kw);

	return p->len - at >= n && memcmp(p->src + at, kw, n) == 0 &&
	       (at + n == p->len || !is_name_char(p->src[at + n]));
}

/* Try one alternative with a fresh failure state, saved to *f. */
static int attempt(struct parser *p, int (*g)(struct parser *),
		   struct fstate *f, int *opened)
{
	int ok;

	pp_fs_reset(&p->fs);
	p->opened = 0;
	ok = g(p);
	*f = p->fs;
	if (opened)
		*opened = p->opened;
	return ok;
}

/*
 * crushmap = *(tunable | device | bucket_type) *(bucket | crushrule)
 *            *choose_args
 * Returns 0 when the whole text matched.
 */
int pp_parse_syntax(struct parser *p)
{
	static const char *const kw1[] = { "tunable", "device", "type" };
	int (*const g1[])(struct parser *) = { g_tunable, g_device, g_type };
	int section = 1;
	size_t s;

	for (;;) {
		struct fstate f1[3], fb, fr, fc, fall;
		int ob = 0, orr = 0, oc = 0, ok = 0, tried1 = 0;

		s = pp_skip(p, p->pos);
		if (stopped(p))
			return -1;
		if (s >= p->len)
			return 0;
		for (int i = 0; i < 3; i++)
			pp_fs_reset(&f1[i]);
		pp_fs_reset(&fb);
		pp_fs_reset(&fr);
		if (section == 1) {
			tried1 = 1;
			for (int i = 0; i < 3 && !ok; i++)
				ok = attempt(p, g1[i], &f1[i], NULL);
			if (ok)
				continue;
			if (stopped(p))
				return -1;
			section = 2;
		}
		if (section < 3) {
			if (attempt(p, g_bucket, &fb, &ob))
				continue;
			if (stopped(p))
				return -1;
			if (attempt(p, g_rule, &fr, &orr))
				continue;
			if (stopped(p))
				return -1;
		}
		if (attempt(p, pp_g_choose_args, &fc, &oc)) {
			section = 3;
			continue;
		}
		if (stopped(p))
			return -1;
		if (section == 3 || oc || word_is(p, s, "choose_args")) {
			/* only choose_args may follow choose_args */
			p->pos = s;
			if (section == 3 && !oc && fc.far == s &&
			    !fc.custom[0])
				snprintf(fc.custom, sizeof(fc.custom),
					 "expected choose_args (nothing else "
					 "may follow choose_args)");
			pp_report_syntax(p, &fc);
			return -1;
		}
		p->pos = s;
		for (int i = 0; i < 3; i++) {
			if (!word_is(p, s, kw1[i]))
				continue;
			if (!tried1) {
				int nst = p->nst;

				/* a section-1 line after buckets/rules */
				if (attempt(p, g1[i], &f1[i], NULL)) {
					p->nst = nst;
					pp_err_at(p, s, "'%s' lines must come "
						  "before buckets and rules",
						  kw1[i]);
					return -1;
				}
			}
			if (!ob) {
				pp_report_syntax(p, &f1[i]);
				return -1;
			}
		}
		if (word_is(p, s, "rule") && (orr || !ob)) {
			pp_report_syntax(p, &fr);
			return -1;
		}
		fall = fb;
		pp_fs_merge(&fall, &fr);
		pp_fs_merge(&fall, &fc);
		for (int i = 0; i < 3; i++)
			pp_fs_merge(&fall, &f1[i]);
		if (fall.far == NOFAR)
			fall.far = s;
		if (fall.far == s && !fall.custom[0])
			snprintf(fall.custom, sizeof(fall.custom), "%s",
				 tried1 ?
				 "expected a tunable, device, type, bucket "
				 "or rule" :
				 "expected a bucket or rule");
		pp_report_syntax(p, &fall);
		return -1;
	}
}
