/*
 * parse_sem.c - the semantic phase for tokens and the simple statements:
 * numbers and weights as CrushCompiler reads them, tunables, devices,
 * types and rules (CrushCompiler::parse_tunable, parse_device,
 * parse_bucket_type, parse_rule).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse_i.h"

char *pp_cstr(struct parser *p, struct tok t)
{
	if (t.len + 1 > p->scratchcap) {
		char *n = realloc(p->scratch, t.len + 1);

		if (!n) {
			pp_set_nomem(p);
			return NULL;
		}
		p->scratch = n;
		p->scratchcap = t.len + 1;
	}
	memcpy(p->scratch, p->src + t.off, t.len);
	p->scratch[t.len] = 0;
	return p->scratch;
}

/*
 * int_node: crushtool reads numbers with strtol and stores them in an int;
 * anything that does not fit would wrap silently, so we refuse it.
 */
int pp_tok_int(struct parser *p, struct tok t, int *out)
{
	const char *s = tokp(p, t);
	size_t i = 0;
	int neg = 0;
	long long v = 0;

	if (i < t.len && s[i] == '-') {
		neg = 1;
		i++;
	}
	for (; i < t.len; i++) {
		v = v * 10 + (s[i] - '0');
		if (v > (long long)INT_MAX + 1)
			break;
	}
	if (neg)
		v = -v;
	if (v > INT_MAX || v < INT_MIN) {
		pp_err_at(p, t.off, "number %.*s is out of range (integer "
			  "overflow)", (int)(t.len > 40 ? 40 : t.len), s);
		return -1;
	}
	*out = (int)v;
	return 0;
}

/*
 * Item weights: CrushCompiler computes
 *   unsigned weight = strtof(text) * (float)0x10000;
 * in float.  Products that do not fit an unsigned (negative, >= 2^32,
 * inf) are undefined behaviour there (x86 gives e.g. 0xffff0000 for -1,
 * 65536 for 65537, 0 for 1e999): refused here.
 */
int pp_tok_weight(struct parser *p, struct tok t, uint32_t *out)
{
	char *s = pp_cstr(p, t);
	float f, w;

	if (!s)
		return -1;
	f = strtof(s, NULL);
	w = f * (float)0x10000;
	if (!(w > -1.0f)) {
		pp_err_at(p, t.off, "weight must be a non-negative number");
		return -1;
	}
	if (!(w < 4294967296.0f)) {
		pp_err_at(p, t.off, "weight %.*s is out of range", TOKF(t));
		return -1;
	}
	*out = (uint32_t)w;
	return 0;
}

static int tok_is(const struct parser *p, struct tok t, const char *s)
{
	return t.len == strlen(s) && memcmp(tokp(p, t), s, t.len) == 0;
}

int pp_sem_tunable(struct sem *S, const struct stmt *st)
{
	struct parser *p = S->p;
	struct pl_tunables t;
	int v;

	if (pp_tok_int(p, st->b, &v))
		return -1;
	pl_map_get_tunables(S->m, &t);
	/* Ceph's setters take an int; the u8 fields truncate it */
	if (tok_is(p, st->a, "choose_local_tries"))
		t.choose_local_tries = (uint32_t)v;
	else if (tok_is(p, st->a, "choose_local_fallback_tries"))
		t.choose_local_fallback_tries = (uint32_t)v;
	else if (tok_is(p, st->a, "choose_total_tries"))
		t.choose_total_tries = (uint32_t)v;
	else if (tok_is(p, st->a, "chooseleaf_descend_once"))
		t.chooseleaf_descend_once = !!v; /* CrushWrapper stores !!n */
	else if (tok_is(p, st->a, "chooseleaf_vary_r"))
		t.chooseleaf_vary_r = (uint8_t)v;
	else if (tok_is(p, st->a, "chooseleaf_stable"))
		t.chooseleaf_stable = (uint8_t)v;
	else if (tok_is(p, st->a, "straw_calc_version"))
		t.straw_calc_version = (uint8_t)v;
	else if (tok_is(p, st->a, "allowed_bucket_algs"))
		t.allowed_bucket_algs = (uint32_t)v;
	else {
		pp_err_at(p, st->a.off, "unknown tunable '%.*s'", TOKF(st->a));
		return -1;
	}
	pl_map_set_tunables(S->m, &t);
	return 0;
}

int pp_item_lookup(struct sem *S, struct tok t, int *id)
{
	struct parser *p = S->p;
	const char *name;
	int v;

	if (pp_smap_get(&S->alias, tokp(p, t), t.len, id))
		return 1;
	name = pp_cstr(p, t);
	if (!name || pl_map_item_by_name(S->m, name, &v))
		return 0;
	if (id)
		*id = v;
	return 1;
}

/*
 * Keep a device's current name reachable before a later `device` line
 * renames it: crushtool's item_id keeps every name given.
 */
static int keep_alias(struct sem *S, int id)
{
	const char *old = pl_map_item_name(S->m, id);
	size_t n;
	char *copy;

	if (!old)
		return 0;
	n = strlen(old);
	copy = malloc(n + 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, old, n + 1);
	if (pp_smap_put(&S->alias, copy, n, id)) {
		free(copy);
		return -ENOMEM;
	}
	return 0;
}

int pp_sem_device(struct sem *S, const struct stmt *st)
{
	struct parser *p = S->p;
	int id, err;
	char *name;

	if (pp_tok_int(p, st->a, &id))
		return -1;
	if (id > MAX_DEVICE_ID) {
		pp_err_at(p, st->a.off, "device id %d is out of range (at most "
			  "%d)", id, MAX_DEVICE_ID);
		return -1;
	}
	if (pp_item_lookup(S, st->b, NULL)) {
		pp_err_at(p, st->b.off, "device '%.*s' defined twice",
			  TOKF(st->b));
		return -1;
	}
	if (stopped(p))
		return -1;
	name = pp_cstr(p, st->b);
	if (!name)
		return -1;
	err = pl_map_add_device(S->m, id, name);
	/* Two names for one id: crushtool keeps both usable and names the
	 * device after the last one. */
	if (err == -EEXIST) {
		err = keep_alias(S, id);
		if (!err)
			err = pl_map_set_item_name(S->m, id, name);
	}
	if (err) {
		if (err == -ENOMEM)
			pp_set_nomem(p);
		else
			pp_err_at(p, st->a.off, "cannot add device %d: %s", id,
				  strerror(-err));
		return -1;
	}
	if (st->cname.len) {
		/* CrushCompiler::parse_device: set_item_class (the class id
		 * made on first sight) */
		const char *c = pp_cstr(p, st->cname);
		int cls;

		if (!c)
			return -1;
		if (pl_class_get_or_create(S->m, c, &cls) ||
		    pl_class_set_item(S->m, id, cls)) {
			pp_set_nomem(p);
			return -1;
		}
	}
	return 0;
}

int pp_sem_type(struct sem *S, const struct stmt *st)
{
	struct parser *p = S->p;
	int id, err;
	char *name;

	if (pp_tok_int(p, st->a, &id))
		return -1;
	if (pp_smap_put(&S->types, tokp(p, st->b), st->b.len, id)) {
		pp_set_nomem(p);
		return -1;
	}
	name = pp_cstr(p, st->b);
	if (!name)
		return -1;
	err = pl_map_set_type_name(S->m, id, name);
	if (err) {
		pp_set_nomem(p);
		return -1;
	}
	return 0;
}

/* An item name that is unknown at this point: say why. */
void pp_unknown_item(struct sem *S, struct tok t, const char *user)
{
	struct parser *p = S->p;

	if (pp_smap_get(&S->bnames, tokp(p, t), t.len, NULL))
		pp_err_at(p, t.off, "bucket '%.*s' must be defined before %s",
			  TOKF(t), user);
	else
		pp_err_at(p, t.off, "unknown bucket or device '%.*s'", TOKF(t));
}

/* CrushCompiler::parse_rule */
int pp_sem_rule(struct sem *S, const struct rule_rec *r)
{
	struct parser *p = S->p;
	struct pl_rule_step *steps;
	int ruleno, type, minsz, maxsz, err, out, ret = -1;
	char user[96];

	if (!S->saw_rule) {
		/* CrushCompiler::parse_crush: the shadow trees are built when
		 * the first rule is met (a map without rules has none).  It
		 * ignores what populate_classes returns: a clone that fails (a
		 * uniform bucket holding a device of the class, see
		 * classes.c) ends the population there, the copies made so far
		 * stay, and only a rule that takes a missing copy fails */
		err = pl_class_populate(S->m, S->pend, S->npend);
		if (err == -ENOMEM) {
			pp_set_nomem(p);
			return -1;
		}
	}
	S->saw_rule = 1;
	if (r->name.len &&
	    pp_smap_get(&S->rules, tokp(p, r->name), r->name.len, NULL)) {
		pp_err_at(p, r->name.off, "rule '%.*s' defined twice",
			  TOKF(r->name));
		return -1;
	}
	if (pp_tok_int(p, r->id, &ruleno) || pp_tok_int(p, r->min, &minsz) ||
	    pp_tok_int(p, r->max, &maxsz))
		return -1;
	type = tokp(p, r->type)[0] == 'r' ? PL_RULE_TYPE_REPLICATED :
					    PL_RULE_TYPE_ERASURE;
	if (pl_map_rule_exists(S->m, ruleno)) {
		pp_err_at(p, r->id.off, "duplicate rule id %d", ruleno);
		return -1;
	}
	/* Ceph accepts more (up to its quirky max_rules growth) but keeps
	 * only 8 bits of the ruleset: not representable here. */
	if (ruleno >= PL_MAX_RULES) {
		pp_err_at(p, r->id.off,
			  "rule id %d is out of range (at most %d)", ruleno,
			  PL_MAX_RULES - 1);
		return -1;
	}
	if (r->name.len)
		snprintf(user, sizeof(user), "rule '%.*s'",
			 (int)(r->name.len > 60 ? 60 : r->name.len),
			 tokp(p, r->name));
	else
		snprintf(user, sizeof(user), "rule %d", ruleno);

	steps = calloc((size_t)r->nsteps, sizeof(*steps));
	if (!steps) {
		pp_set_nomem(p);
		return -1;
	}
	for (int i = 0; i < r->nsteps; i++) {
		const struct step_rec *sr = &r->steps[i];
		struct pl_rule_step *s = &steps[i];

		s->op = (uint32_t)sr->op;
		switch (sr->kind) {
		case SK_TAKE:
			if (!pp_item_lookup(S, sr->arg, &s->arg1)) {
				if (!stopped(p))
					pp_unknown_item(S, sr->arg, user);
				goto out;
			}
			if (sr->cls.len) {
				/* CrushCompiler::parse_rule: the take goes to
				 * the item's shadow for that class */
				const char *c = pp_cstr(p, sr->cname);
				int cls = c ? pl_class_id(S->m, c) : -1, sh;

				if (!c)
					goto out;
				if (cls < 0) {
					pp_err_at(p, sr->cname.off,
						  "in %s step take %.*s: device "
						  "class '%s' does not exist",
						  user, TOKF(sr->arg), c);
					goto out;
				}
				if (!pl_class_bucket_has(S->m, s->arg1)) {
					pp_err_at(p, sr->arg.off,
						  "in %s step take %.*s has no "
						  "class information",
						  user, TOKF(sr->arg));
					goto out;
				}
				sh = pl_class_bucket_get(S->m, s->arg1, cls);
				if (!sh) {
					pp_err_at(p, sr->cname.off,
						  "in %s step take %.*s no "
						  "matching bucket for class "
						  "%s",
						  user, TOKF(sr->arg), c);
					goto out;
				}
				s->arg1 = sh;
			}
			break;
		case SK_SET:
			if (pp_tok_int(p, sr->arg, &s->arg1))
				goto out;
			break;
		case SK_CHOOSE:
			if (!pp_smap_get(&S->types, tokp(p, sr->type),
					 sr->type.len, &s->arg2)) {
				pp_err_at(p, sr->type.off,
					  "unknown type '%.*s'",
					  TOKF(sr->type));
				goto out;
			}
			if (pp_tok_int(p, sr->arg, &s->arg1))
				goto out;
			break;
		default:
			break;
		}
	}
	/* min_size/max_size are kept in 8 bits, as in Ceph */
	err = pl_map_add_rule(S->m, ruleno, type, minsz, maxsz, r->nsteps,
			      steps, &out);
	if (err) {
		if (err == -ENOMEM)
			pp_set_nomem(p);
		else
			pp_err_at(p, r->id.off, "cannot add rule %d: %s",
				  ruleno, strerror(-err));
		goto out;
	}
	if (r->name.len) {
		if (pp_smap_put(&S->rules, tokp(p, r->name), r->name.len,
				ruleno) || !pp_cstr(p, r->name) ||
		    pl_map_set_rule_name(S->m, ruleno, p->scratch)) {
			pp_set_nomem(p);
			goto out;
		}
	}
	ret = 0;
out:
	free(steps);
	return ret;
}
