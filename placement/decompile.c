/*
 * decompile.c - a map back to crushtool's text format, byte-identical to
 * `crushtool -d` of Ceph 16.2 (CrushCompiler::decompile), so the cluster's
 * crushmap.txt reads like any decompiled Ceph map and diffs cleanly.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crush_i.h"

struct sbuf {
	char *p;
	size_t len, cap;
	int err;
};

static void sb_printf(struct sbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void sb_printf(struct sbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (sb->err)
		return;
	for (;;) {
		size_t room = sb->cap - sb->len;

		va_start(ap, fmt);
		n = vsnprintf(sb->p + sb->len, room, fmt, ap);
		va_end(ap);
		if (n < 0) {
			sb->err = -EINVAL;
			return;
		}
		if ((size_t)n < room) {
			sb->len += (size_t)n;
			return;
		}
		size_t ncap = sb->cap * 2 + (size_t)n + 1;
		char *np = realloc(sb->p, ncap);
		if (!np) {
			sb->err = -ENOMEM;
			return;
		}
		sb->p = np;
		sb->cap = ncap;
	}
}

static void item_name(struct sbuf *sb, const pl_map *m, int id)
{
	const char *n = pl_map_item_name(m, id);

	if (n)
		sb_printf(sb, "%s", n);
	else if (id >= 0)
		sb_printf(sb, "device%d", id);
	else
		sb_printf(sb, "bucket%d", -1 - id);
}

static void type_name(struct sbuf *sb, const pl_map *m, int type)
{
	const char *n = pl_map_type_name(m, type);

	if (n)
		sb_printf(sb, "%s", n);
	else
		sb_printf(sb, "type%d", type);
}

/* Ceph prints 16.16 weights as float with three decimals. */
static void fixedpoint(struct sbuf *sb, uint32_t w)
{
	sb_printf(sb, "%.3f", (double)((float)w / (float)0x10000));
}

static const char *alg_name(int alg)
{
	static const char *names[] = { "", "uniform", "list", "tree",
				       "straw", "straw2" };
	return alg >= 1 && alg <= 5 ? names[alg] : "unknown";
}

/* CrushWrapper::is_valid_crush_name: [A-Za-z0-9_.-]+ ("a~hdd" is not) */
int pl_valid_name(const char *n)
{
	if (!*n)
		return 0;
	for (; *n; n++)
		if (!((*n >= 'a' && *n <= 'z') || (*n >= 'A' && *n <= 'Z') ||
		      (*n >= '0' && *n <= '9') || *n == '-' || *n == '_' ||
		      *n == '.'))
			return 0;
	return 1;
}

static void bucket_text(struct sbuf *sb, const pl_map *m,
			const struct pl_bucket *b)
{
	const char *bn = pl_map_item_name(m, b->id);
	int dopos = 0;

	/* decompile_bucket_impl: a bucket with an invalid name (a shadow
	 * copy) is not printed; the parser makes it again */
	if (bn && !pl_valid_name(bn))
		return;
	type_name(sb, m, b->type);
	sb_printf(sb, " ");
	item_name(sb, m, b->id);
	sb_printf(sb, " {\n\tid %d\t\t# do not change unnecessarily\n",
		  b->id);
	/* print_bucket_class_ids: its shadow ids, by class id */
	for (int c = 0; c < m->nclasses; c++) {
		int sh = pl_class_bucket_get(m, b->id, c);

		if (sh && m->class_names[c])
			sb_printf(sb,
				  "\tid %d class %s\t\t# do not change "
				  "unnecessarily\n",
				  sh, m->class_names[c]);
	}
	sb_printf(sb, "\t# weight ");
	fixedpoint(sb, b->weight);
	sb_printf(sb, "\n\talg %s", alg_name(b->alg));
	switch (b->alg) {
	case PL_BUCKET_UNIFORM:
		sb_printf(sb, "\t# do not change bucket size (%u) unnecessarily",
			  b->size);
		dopos = 1;
		break;
	case PL_BUCKET_LIST:
		sb_printf(sb, "\t# add new items at the end; do not change order unnecessarily");
		break;
	case PL_BUCKET_TREE:
		sb_printf(sb, "\t# do not change pos for existing items unnecessarily");
		dopos = 1;
		break;
	}
	sb_printf(sb, "\n\thash %d\t# %s\n", b->hash,
		  b->hash == 0 ? "rjenkins1" : "unknown");
	for (uint32_t j = 0; j < b->size; j++) {
		sb_printf(sb, "\titem ");
		item_name(sb, m, b->items[j]);
		sb_printf(sb, " weight ");
		fixedpoint(sb, pl_map_bucket_item_weight(m, b->id, (int)j));
		if (dopos)
			sb_printf(sb, " pos %u", j);
		sb_printf(sb, "\n");
	}
	sb_printf(sb, "}\n");
}

/* Children before parents, each bucket once (Ceph's dcb_state walk). */
static void bucket_tree_text(struct sbuf *sb, const pl_map *m, int id,
			     char *done)
{
	const struct pl_bucket *b = m->buckets[-1 - id];

	if (done[-1 - id])
		return;
	done[-1 - id] = 1;
	for (uint32_t j = 0; j < b->size; j++) {
		int it = b->items[j];

		if (it < 0 && -1 - it < m->max_buckets && m->buckets[-1 - it])
			bucket_tree_text(sb, m, it, done);
	}
	bucket_text(sb, m, b);
}

static const char *step_name(uint32_t op)
{
	switch (op) {
	case PL_RULE_CHOOSE_FIRSTN: return "choose firstn";
	case PL_RULE_CHOOSE_INDEP: return "choose indep";
	case PL_RULE_CHOOSELEAF_FIRSTN: return "chooseleaf firstn";
	case PL_RULE_CHOOSELEAF_INDEP: return "chooseleaf indep";
	case PL_RULE_SET_CHOOSE_TRIES: return "set_choose_tries";
	case PL_RULE_SET_CHOOSELEAF_TRIES: return "set_chooseleaf_tries";
	case PL_RULE_SET_CHOOSE_LOCAL_TRIES: return "set_choose_local_tries";
	case PL_RULE_SET_CHOOSE_LOCAL_FALLBACK_TRIES:
		return "set_choose_local_fallback_tries";
	case PL_RULE_SET_CHOOSELEAF_VARY_R: return "set_chooseleaf_vary_r";
	case PL_RULE_SET_CHOOSELEAF_STABLE: return "set_chooseleaf_stable";
	default: return NULL;
	}
}

static void rule_text(struct sbuf *sb, const pl_map *m, uint32_t r)
{
	const struct pl_rule *rule = m->rules[r];

	sb_printf(sb, "rule ");
	if (rule->name)
		sb_printf(sb, "%s", rule->name);
	sb_printf(sb, " {\n\tid %u\n", r);
	if (rule->type == PL_RULE_TYPE_REPLICATED)
		sb_printf(sb, "\ttype replicated\n");
	else if (rule->type == PL_RULE_TYPE_ERASURE)
		sb_printf(sb, "\ttype erasure\n");
	else
		sb_printf(sb, "\ttype %d\n", rule->type);
	sb_printf(sb, "\tmin_size %d\n\tmax_size %d\n", rule->min_size,
		  rule->max_size);
	for (uint32_t j = 0; j < rule->len; j++) {
		const struct pl_rule_step *s = &rule->steps[j];

		switch (s->op) {
		case PL_RULE_NOOP:
			sb_printf(sb, "\tstep noop\n");
			break;
		case PL_RULE_TAKE: {
			int orig, cls;

			/* split_id_class: a shadow is its bucket + class */
			sb_printf(sb, "\tstep take ");
			if (pl_class_split(m, s->arg1, &orig, &cls) == 0) {
				item_name(sb, m, orig);
				if (cls >= 0 && cls < m->nclasses &&
				    m->class_names[cls])
					sb_printf(sb, " class %s",
						  m->class_names[cls]);
				else
					sb_printf(sb, " # unexpected class %d",
						  cls);
			} else {
				item_name(sb, m, s->arg1);
			}
			sb_printf(sb, "\n");
			break;
		}
		case PL_RULE_EMIT:
			sb_printf(sb, "\tstep emit\n");
			break;
		case PL_RULE_CHOOSE_FIRSTN:
		case PL_RULE_CHOOSE_INDEP:
		case PL_RULE_CHOOSELEAF_FIRSTN:
		case PL_RULE_CHOOSELEAF_INDEP:
			sb_printf(sb, "\tstep %s %d type ", step_name(s->op),
				  s->arg1);
			type_name(sb, m, s->arg2);
			sb_printf(sb, "\n");
			break;
		default:
			if (step_name(s->op))
				sb_printf(sb, "\tstep %s %d\n",
					  step_name(s->op), s->arg1);
			break;
		}
	}
	sb_printf(sb, "}\n");
}

static int cmp_name_id(const void *a, const void *b)
{
	const struct pl_name *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/*
 * CrushCompiler::decompile_choose_args.  crushtool decompiles a decoded
 * map, whose decoder dropped the args of non-straw2 buckets
 * (update_choose_args): they are skipped here too.  The id prints as the
 * unsigned 64-bit number Ceph's std::pair conversion makes of it.
 */
static void choose_args_text(struct sbuf *sb, const pl_map *m,
			     const struct pl_choose_args *ca)
{
	sb_printf(sb, "choose_args %llu {\n", (unsigned long long)ca->id);
	for (uint32_t i = 0; i < ca->size; i++) {
		const struct pl_choose_arg *a = &ca->args[i];
		const struct pl_bucket *b =
			(int32_t)i < m->max_buckets ? m->buckets[i] : NULL;

		if (!a->ids_size && !a->weight_set_positions)
			continue;
		if (!b || b->alg != PL_BUCKET_STRAW2)
			continue;
		sb_printf(sb, "  {\n    bucket_id %d\n", -1 - (int)i);
		if (a->weight_set_positions) {
			sb_printf(sb, "    weight_set [\n");
			for (uint32_t p = 0; p < a->weight_set_positions; p++) {
				const struct pl_weight_set *ws =
					&a->weight_set[p];

				sb_printf(sb, "      [ ");
				for (uint32_t k = 0; k < ws->size; k++) {
					fixedpoint(sb, ws->weights[k]);
					sb_printf(sb, " ");
				}
				sb_printf(sb, "]\n");
			}
			sb_printf(sb, "    ]\n");
		}
		if (a->ids_size) {
			sb_printf(sb, "    ids [ ");
			for (uint32_t k = 0; k < a->ids_size; k++)
				sb_printf(sb, "%d ", a->ids[k]);
			sb_printf(sb, "]\n");
		}
		sb_printf(sb, "  }\n");
	}
	sb_printf(sb, "}\n");
}

int pl_map_to_text(const pl_map *m, char **out, size_t *len)
{
	struct sbuf sb = { NULL, 0, 0, 0 };
	struct pl_name *types = NULL;
	char *done = NULL;

	sb.cap = 4096;
	sb.p = malloc(sb.cap);
	if (!sb.p)
		return -ENOMEM;
	sb.p[0] = 0;

	sb_printf(&sb, "# begin crush map\n");
	/* Only tunables that differ from the legacy (argonaut) values are
	 * written; a map without tunable lines compiles to legacy. */
	if (m->choose_local_tries != 2)
		sb_printf(&sb, "tunable choose_local_tries %u\n",
			  m->choose_local_tries);
	if (m->choose_local_fallback_tries != 5)
		sb_printf(&sb, "tunable choose_local_fallback_tries %u\n",
			  m->choose_local_fallback_tries);
	if (m->choose_total_tries != 19)
		sb_printf(&sb, "tunable choose_total_tries %u\n",
			  m->choose_total_tries);
	if (m->chooseleaf_descend_once != 0)
		sb_printf(&sb, "tunable chooseleaf_descend_once %u\n",
			  m->chooseleaf_descend_once);
	if (m->chooseleaf_vary_r != 0)
		sb_printf(&sb, "tunable chooseleaf_vary_r %u\n",
			  m->chooseleaf_vary_r);
	if (m->chooseleaf_stable != 0)
		sb_printf(&sb, "tunable chooseleaf_stable %u\n",
			  m->chooseleaf_stable);
	if (m->straw_calc_version != 0)
		sb_printf(&sb, "tunable straw_calc_version %u\n",
			  m->straw_calc_version);
	if (m->allowed_bucket_algs != 22)
		sb_printf(&sb, "tunable allowed_bucket_algs %u\n",
			  m->allowed_bucket_algs);

	sb_printf(&sb, "\n# devices\n");
	{
		/* the named devices in id order (crushtool walks 0 ..
		 * max_devices; a decoded map may claim 2^31 of them, so walk
		 * the names instead: the same lines) */
		struct pl_name *dev = malloc(sizeof(*dev) *
					     (size_t)(m->nitems + 1));
		int nd = 0;

		if (!dev) {
			sb.err = -ENOMEM;
			goto out;
		}
		for (int i = 0; i < m->nitems; i++)
			if (m->items[i].id >= 0 &&
			    m->items[i].id < m->max_devices &&
			    m->items[i].name &&
			    pl_map_item_name(m, m->items[i].id) ==
				    m->items[i].name)
				dev[nd++] = m->items[i];
		qsort(dev, (size_t)nd, sizeof(*dev), cmp_name_id);
		for (int i = 0; i < nd; i++)
		{
			int c = pl_class_of_item(m, dev[i].id);

			sb_printf(&sb, "device %d %s", dev[i].id, dev[i].name);
			if (c >= 0 && c < m->nclasses && m->class_names[c])
				sb_printf(&sb, " class %s", m->class_names[c]);
			sb_printf(&sb, "\n");
		}
		free(dev);
	}

	sb_printf(&sb, "\n# types\n");
	if (m->ntypes) {
		types = malloc(sizeof(*types) * (size_t)m->ntypes);
		if (!types) {
			sb.err = -ENOMEM;
			goto out;
		}
		memcpy(types, m->types, sizeof(*types) * (size_t)m->ntypes);
		qsort(types, (size_t)m->ntypes, sizeof(*types), cmp_name_id);
		/* crushtool -d names an unnamed type 0 "osd" */
		if (types[0].id != 0)
			sb_printf(&sb, "type 0 osd\n");
		for (int i = 0; i < m->ntypes; i++)
			sb_printf(&sb, "type %d %s\n", types[i].id,
				  types[i].name);
	}

	sb_printf(&sb, "\n# buckets\n");
	done = calloc((size_t)m->max_buckets + 1, 1);
	if (!done) {
		sb.err = -ENOMEM;
		goto out;
	}
	for (int pos = 0; pos < m->max_buckets; pos++)
		if (m->buckets[pos])
			bucket_tree_text(&sb, m, -1 - pos, done);

	sb_printf(&sb, "\n# rules\n");
	for (uint32_t r = 0; r < m->max_rules; r++)
		if (m->rules[r])
			rule_text(&sb, m, r);
	if (m->ncargs) {
		sb_printf(&sb, "\n# choose_args\n");
		for (int i = 0; i < m->ncargs; i++)
			choose_args_text(&sb, m, &m->cargs[i]);
	}
	sb_printf(&sb, "\n# end crush map\n");
out:
	free(types);
	free(done);
	if (sb.err) {
		free(sb.p);
		return sb.err;
	}
	*out = sb.p;
	if (len)
		*len = sb.len;
	return 0;
}
