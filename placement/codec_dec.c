/*
 * codec_dec.c - Ceph's binary crush map (what `ceph osd getcrushmap` and
 * `crushtool -c` write) read as CrushWrapper::decode of Ceph 16.2 reads it;
 * the layout is described in codec_enc.c.
 *
 * What the map holds is kept as it is, derived data included (straw
 * lengths, list sums, tree node weights, bucket weights): a cluster's
 * straws may come from an older straw_calc_version, and mapping must use
 * them, not recompute them.  The optional tail (each tunable, then the
 * Luminous sections) is read only while bytes remain, and bytes past the
 * end are ignored, both as Ceph does.
 *
 * Ceph trusts the map; a malformed one can make its mapper read out of
 * bounds or loop.  Here every count is checked against the bytes left
 * before anything is allocated (a map never costs more memory than a small
 * multiple of its size), and what would break mapping is refused: bucket
 * ids that do not match their slot, items that name no bucket, cycles,
 * buckets of type 0, tree node counts other than Ceph's, rules with a
 * ruleset other than their id.  Every refusal is one line:
 *   "FILE: truncated at byte N: what was being read"
 *   "FILE: bad crush map at byte N: what is wrong"
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crush_i.h"

struct rd {
	const uint8_t *p;
	size_t len, off;
	const char *fname;
	char *err;
	size_t errlen;
	int failed; /* -EINVAL or -ENOMEM once an error is in err */
};

static void fail_at(struct rd *r, size_t off, const char *kind,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void fail_at(struct rd *r, size_t off, const char *kind,
		    const char *fmt, ...)
{
	va_list ap;
	int n;

	if (r->failed)
		return;
	r->failed = -EINVAL;
	if (!r->err || !r->errlen)
		return;
	n = snprintf(r->err, r->errlen, "%s: %s at byte %zu: ", r->fname, kind,
		     off);
	if (n < 0 || (size_t)n >= r->errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(r->err + n, r->errlen - (size_t)n, fmt, ap);
	va_end(ap);
}

#define BAD(r, off, ...) fail_at(r, off, "bad crush map", __VA_ARGS__)

static void nomem(struct rd *r)
{
	if (r->failed)
		return;
	r->failed = -ENOMEM;
	if (r->err && r->errlen)
		snprintf(r->err, r->errlen, "%s: out of memory", r->fname);
}

static size_t left(const struct rd *r)
{
	return r->len - r->off;
}

/*
 * Is there room for n elements of size sz?  If not, the map is truncated:
 * the field that does not fit starts at the current byte.
 */
static int room(struct rd *r, uint64_t n, size_t sz, const char *what)
{
	if (r->failed)
		return 0;
	if (n > left(r) / sz) {
		fail_at(r, r->off, "truncated", "%s (%llu bytes needed, %zu "
			"left)", what, (unsigned long long)(n * sz), left(r));
		return 0;
	}
	return 1;
}

static int get(struct rd *r, void *dst, size_t n, const char *what)
{
	if (!room(r, n, 1, what))
		return 0;
	memcpy(dst, r->p + r->off, n);
	r->off += n;
	return 1;
}

static int get8(struct rd *r, uint8_t *v, const char *what)
{
	return get(r, v, 1, what);
}

static int get16(struct rd *r, uint16_t *v, const char *what)
{
	uint8_t b[2];

	if (!get(r, b, 2, what))
		return 0;
	*v = (uint16_t)(b[0] | b[1] << 8);
	return 1;
}

static int get32(struct rd *r, uint32_t *v, const char *what)
{
	uint8_t b[4];

	if (!get(r, b, 4, what))
		return 0;
	*v = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
	     (uint32_t)b[3] << 24;
	return 1;
}

/* n little-endian u32 into a fresh zeroed array of pl_id_slots(max(n, slots)) */
static uint32_t *get32s(struct rd *r, uint32_t n, uint32_t slots,
			const char *what)
{
	uint32_t *v;

	if (!room(r, n, 4, what))
		return NULL;
	v = calloc(pl_id_slots(n > slots ? n : slots), sizeof(*v));
	if (!v) {
		nomem(r);
		return NULL;
	}
	for (uint32_t i = 0; i < n; i++)
		get32(r, &v[i], what);
	return v;
}

/* ---- buckets ---- */

/* pairs (a[i], b[i]) stored interleaved, as list and straw buckets are */
static int get_pairs(struct rd *r, uint32_t n, uint32_t **a, uint32_t **b,
		     const char *what)
{
	if (!room(r, n, 8, what))
		return 0;
	*a = calloc((size_t)n + 1, sizeof(**a));
	*b = calloc((size_t)n + 1, sizeof(**b));
	if (!*a || !*b) {
		nomem(r);
		return 0;
	}
	for (uint32_t i = 0; i < n; i++) {
		get32(r, &(*a)[i], what);
		get32(r, &(*b)[i], what);
	}
	return 1;
}

/* CrushWrapper::decode_crush_bucket, for slot pos; 0 and *out NULL for an
 * empty slot, -1 on error. */
static int get_bucket(struct rd *r, pl_map *m, int32_t pos,
		      struct pl_bucket **out)
{
	struct pl_bucket *b;
	uint32_t alg, size;
	size_t at = r->off;
	int32_t id;
	char what[96];

	*out = NULL;
	if (!get32(r, &alg, "bucket slot"))
		return -1;
	if (alg == 0)
		return 0;
	if (alg > PL_BUCKET_STRAW2) {
		BAD(r, at, "bucket slot %d: unsupported bucket algorithm %u",
		    pos, alg);
		return -1;
	}
	b = calloc(1, sizeof(*b));
	if (!b) {
		nomem(r);
		return -1;
	}
	snprintf(what, sizeof(what), "bucket slot %d header", pos);
	if (!get32(r, (uint32_t *)&id, what) || !get16(r, &b->type, what) ||
	    !get8(r, &b->alg, what) || !get8(r, &b->hash, what) ||
	    !get32(r, &b->weight, what) || !get32(r, &size, what))
		goto err;
	b->id = id;
	if (b->alg != alg) {
		BAD(r, at + 10, "bucket %d: algorithm %u, after %u", id,
		    b->alg, alg);
		goto err;
	}
	/* the mapper finds a bucket at slot -1-id and hashes with its id */
	if (id != -1 - pos) {
		BAD(r, at + 4, "bucket slot %d holds bucket id %d (expected "
		    "%d)", pos, id, -1 - pos);
		goto err;
	}
	/* the mapper would take it for a device (see parse_bucket.c) */
	if (b->type == 0) {
		BAD(r, at + 8, "bucket %d has type 0, the devices' type", id);
		goto err;
	}
	if (size > PL_MAX_BUCKET_SIZE) {
		BAD(r, at + 16, "bucket %d has %u items; at most %d are "
		    "supported", id, size, PL_MAX_BUCKET_SIZE);
		goto err;
	}
	b->size = size;
	if (b->alg == PL_BUCKET_TREE) {
		/* a tree walk may end on any leaf: slots for all of them */
		int nn = pl_tree_num_nodes(size);

		if (size && !nn) {
			BAD(r, at + 16, "tree bucket %d has %u items; at most "
			    "64 are supported", id, size);
			goto err;
		}
		b->num_nodes = (uint8_t)nn;
	}
	snprintf(what, sizeof(what), "bucket %d items", id);
	b->items = (int32_t *)get32s(r, size, b->alg == PL_BUCKET_TREE ?
				     pl_tree_item_slots(b) : 0, what);
	if (!b->items)
		goto err;
	snprintf(what, sizeof(what), "bucket %d weights", id);
	switch (b->alg) {
	case PL_BUCKET_UNIFORM:
		if (!get32(r, &b->item_weight, what))
			goto err;
		break;
	case PL_BUCKET_LIST:
		if (!get_pairs(r, size, &b->item_weights, &b->sum_weights,
			       what))
			goto err;
		break;
	case PL_BUCKET_TREE: {
		uint8_t nn;
		size_t nat = r->off;

		if (!get8(r, &nn, what))
			goto err;
		/* crush_make_tree_bucket's count; the walk trusts it */
		if (nn != b->num_nodes) {
			BAD(r, nat, "tree bucket %d has %u nodes for %u items "
			    "(Ceph builds %u)", id, nn, size, b->num_nodes);
			goto err;
		}
		b->node_weights = get32s(r, nn, 0, what);
		if (!b->node_weights)
			goto err;
		break;
	}
	case PL_BUCKET_STRAW:
		if (!get_pairs(r, size, &b->item_weights, &b->straws, what))
			goto err;
		break;
	case PL_BUCKET_STRAW2:
		b->item_weights = get32s(r, size, 0, what);
		if (!b->item_weights)
			goto err;
		break;
	}
	*out = b;
	(void)m;
	return 0;
err:
	pl_bucket_free(b);
	return -1;
}

/* Every bucket item must be a device or an existing bucket, and the
 * buckets must form no cycle (the mapper descends without a depth
 * limit).  Iterative, so a chain of a million buckets is fine. */
static int check_items(struct rd *r, const pl_map *m, const size_t *at)
{
	uint8_t *state = calloc((size_t)m->max_buckets + 1, 1);
	int32_t (*stack)[2] = NULL;
	int32_t n = 0, ret = -1;

	stack = malloc(sizeof(*stack) * ((size_t)m->max_buckets + 1));
	if (!state || !stack) {
		nomem(r);
		goto out;
	}
	for (int32_t pos = 0; pos < m->max_buckets; pos++) {
		const struct pl_bucket *b = m->buckets[pos];

		if (!b)
			continue;
		for (uint32_t i = 0; i < b->size; i++) {
			int32_t it = b->items[i];

			if (it >= 0 && (it == PL_ITEM_NONE ||
					it == PL_ITEM_UNDEF)) {
				BAD(r, at[pos], "bucket %d: item %d is "
				    "reserved (CRUSH_ITEM_%s)", b->id, it,
				    it == PL_ITEM_NONE ? "NONE" : "UNDEF");
				goto out;
			}
			if (it < 0 && (-1 - it >= m->max_buckets ||
				       !m->buckets[-1 - it])) {
				BAD(r, at[pos], "bucket %d: item %d is no "
				    "bucket", b->id, it);
				goto out;
			}
		}
	}
	/* depth-first: state 1 = on the path, 2 = done */
	for (int32_t root = 0; root < m->max_buckets; root++) {
		if (!m->buckets[root] || state[root])
			continue;
		stack[n][0] = root;
		stack[n][1] = 0;
		n = 1;
		state[root] = 1;
		while (n) {
			int32_t pos = stack[n - 1][0];
			const struct pl_bucket *b = m->buckets[pos];
			int32_t i = stack[n - 1][1]++;

			if ((uint32_t)i >= b->size) {
				state[pos] = 2;
				n--;
				continue;
			}
			if (b->items[i] >= 0)
				continue;
			int32_t c = -1 - b->items[i];

			if (state[c] == 1) {
				BAD(r, at[pos], "bucket %d contains bucket %d, "
				    "which contains it", b->id, -1 - c);
				goto out;
			}
			if (state[c] == 0) {
				state[c] = 1;
				stack[n][0] = c;
				stack[n][1] = 0;
				n++;
			}
		}
	}
	ret = 0;
out:
	free(state);
	free(stack);
	return ret;
}

/* ---- rules ---- */

static int get_rule(struct rd *r, pl_map *m, uint32_t ruleno)
{
	uint32_t yes, len;
	uint8_t mask[4];
	size_t at = r->off, mat;
	struct pl_rule_step *steps;
	char what[64];
	int err;

	snprintf(what, sizeof(what), "rule %u", ruleno);
	if (!get32(r, &yes, what))
		return -1;
	if (!yes)
		return 0;
	if (!get32(r, &len, what))
		return -1;
	mat = r->off;
	if (!get(r, mask, 4, what))
		return -1;
	if (mask[0] != ruleno) {
		/* Ceph since Luminous renumbers rulesets to rule ids */
		BAD(r, mat, "rule %u has ruleset %u; only maps with ruleset "
		    "== rule id (Luminous and later) are supported", ruleno,
		    mask[0]);
		return -1;
	}
	snprintf(what, sizeof(what), "rule %u steps", ruleno);
	if (!room(r, len, 12, what))
		return -1;
	steps = calloc((size_t)len + 1, sizeof(*steps));
	if (!steps) {
		nomem(r);
		return -1;
	}
	for (uint32_t j = 0; j < len; j++) {
		get32(r, &steps[j].op, what);
		get32(r, (uint32_t *)&steps[j].arg1, what);
		get32(r, (uint32_t *)&steps[j].arg2, what);
	}
	err = pl_map_add_rule(m, (int)ruleno, mask[1], mask[2], mask[3],
			      (int)len, steps, NULL);
	free(steps);
	if (err == -ENOMEM)
		nomem(r);
	else if (err)
		BAD(r, at, "rule %u with %u steps cannot be kept (%s)", ruleno,
		    len, strerror(-err));
	return err ? -1 : 0;
}

/* ---- names: decode_32_or_64_string_map ---- */

enum name_kind { NK_TYPE, NK_ITEM, NK_RULE };

static int get_names(struct rd *r, pl_map *m, enum name_kind kind)
{
	static const char *const what[] = { "type names", "item names",
					    "rule names" };
	uint32_t n;
	char *s = NULL;
	int ret = -1;

	if (!get32(r, &n, what[kind]) || !room(r, n, 8, what[kind]))
		return -1;
	for (uint32_t i = 0; i < n; i++) {
		size_t at = r->off;
		uint32_t key, slen;
		int32_t id;
		int err = 0;

		if (!get32(r, &key, what[kind]) ||
		    !get32(r, &slen, what[kind]))
			goto out;
		/* Ceph once wrote 64-bit keys: a 0 length is the key's
		 * high half, and the length follows */
		if (slen == 0 && !get32(r, &slen, what[kind]))
			goto out;
		if (!room(r, slen, 1, what[kind]))
			goto out;
		free(s);
		s = malloc((size_t)slen + 1);
		if (!s) {
			nomem(r);
			goto out;
		}
		get(r, s, slen, what[kind]);
		s[slen] = 0;
		if (strlen(s) != slen) {
			BAD(r, at, "a name in %s holds a NUL byte",
			    what[kind]);
			goto out;
		}
		id = (int32_t)key;
		switch (kind) {
		case NK_TYPE:
			err = pl_map_set_type_name(m, id, s);
			break;
		case NK_ITEM:
			if (id >= 0) {
				err = pl_map_add_device(m, id, s);
				if (err == -EEXIST) /* a repeated key */
					err = pl_map_set_item_name(m, id, s);
				if (err == -EINVAL) {
					BAD(r, at, "device id %d is reserved "
					    "(CRUSH_ITEM_%s)", id,
					    id == PL_ITEM_NONE ? "NONE" :
								 "UNDEF");
					goto out;
				}
			} else {
				err = pl_map_set_item_name(m, id, s);
			}
			break;
		case NK_RULE:
			/* a name without its rule: nothing shows it */
			if (pl_map_rule_exists(m, id))
				err = pl_map_set_rule_name(m, id, s);
			break;
		}
		if (err) {
			nomem(r);
			goto out;
		}
	}
	ret = 0;
out:
	free(s);
	return ret;
}

/* ---- the Luminous sections ---- */

/*
 * Device classes (class_map, class_name, class_bucket: std::maps, counts
 * first) are kept as the map's; the shadow buckets they name are marked.
 * choose_args are read as CrushWrapper::decode reads them, then cleaned as
 * its update_choose_args cleans them; where Ceph would assert or read past
 * an array, the map is refused.
 */
#define MAX_CLASS_ID 1023

static int get_one_arg(struct rd *r, pl_map *m, struct pl_choose_args *ca)
{
	uint32_t idx, npos, nids;
	size_t at = r->off;
	uint32_t *w = NULL, size = 0;
	int32_t *ids = NULL;
	int ret = -1;

	if (!get32(r, &idx, "choose_args bucket index"))
		return -1;
	if (idx >= ca->size) {
		BAD(r, at, "choose_args %lld: bucket index %u past max_buckets "
		    "%d", (long long)ca->id, idx, m->max_buckets);
		return -1;
	}
	if (!get32(r, &npos, "choose_args weight_set positions"))
		return -1;
	for (uint32_t p = 0; p < npos; p++) {
		uint32_t n;
		size_t wat = r->off;

		if (!get32(r, &n, "choose_args weight_set size") ||
		    !room(r, n, 4, "choose_args weights"))
			goto out;
		if (p == 0) {
			size = n;
			if (!room(r, (uint64_t)npos * n, 4,
				  "choose_args weights")) {
				goto out;
			}
			w = calloc((size_t)npos * n + 1, sizeof(*w));
			if (!w) {
				nomem(r);
				goto out;
			}
		} else if (n != size) {
			/* kept per position in Ceph; equal sizes here */
			fail_at(r, wat, "unsupported", "choose_args %lld "
				"bucket %d: weight_set positions of different "
				"sizes (%u, %u)", (long long)ca->id,
				-1 - (int32_t)idx, size, n);
			goto out;
		}
		for (uint32_t k = 0; k < n; k++)
			if (!get32(r, &w[(size_t)p * size + k],
				   "choose_args weights"))
				goto out;
	}
	at = r->off;
	if (!get32(r, &nids, "choose_args ids size"))
		goto out;
	if (nids) {
		const struct pl_bucket *b =
			(int32_t)idx < m->max_buckets ? m->buckets[idx] : NULL;

		if (!b || b->size != nids) {
			BAD(r, at, "choose_args %lld bucket %d: %u ids for "
			    "%u items", (long long)ca->id, -1 - (int32_t)idx,
			    nids, b ? b->size : 0);
			goto out;
		}
		if (!room(r, nids, 4, "choose_args ids"))
			goto out;
		ids = calloc(nids, sizeof(*ids));
		if (!ids) {
			nomem(r);
			goto out;
		}
		for (uint32_t k = 0; k < nids; k++)
			if (!get32(r, (uint32_t *)&ids[k], "choose_args ids"))
				goto out;
	}
	if (pl_cargs_set_weights(ca, idx, npos, size, w) ||
	    pl_cargs_set_ids(ca, idx, nids, ids)) {
		nomem(r);
		goto out;
	}
	ret = 0;
out:
	free(w);
	free(ids);
	return ret;
}

static int get_choose_args(struct rd *r, pl_map *m)
{
	uint32_t n;
	size_t at = r->off;
	int32_t bad = 0;
	int err;

	if (!get32(r, &n, "choose_args"))
		return -1;
	/* each set takes at least 12 bytes */
	if (!room(r, n, 12, "choose_args"))
		return -1;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t lo, hi, nargs;
		struct pl_choose_args *ca;

		at = r->off;
		if (!get32(r, &lo, "choose_args id") ||
		    !get32(r, &hi, "choose_args id"))
			return -1;
		err = pl_cargs_create(m, (int64_t)((uint64_t)hi << 32 | lo),
				      &ca);
		if (err == -EEXIST) {
			BAD(r, at, "choose_args %lld twice",
			    (long long)((uint64_t)hi << 32 | lo));
			return -1;
		}
		if (err) {
			nomem(r);
			return -1;
		}
		if (!get32(r, &nargs, "choose_args size") ||
		    !room(r, nargs, 12, "choose_args"))
			return -1;
		for (uint32_t j = 0; j < nargs; j++)
			if (get_one_arg(r, m, ca))
				return -1;
	}
	err = pl_cargs_normalize(m, &bad);
	if (err == -ENOMEM) {
		nomem(r);
		return -1;
	}
	if (err) {
		fail_at(r, at, "unsupported", "choose_args: bucket %d's weight "
			"set does not match its size and positions", bad);
		return -1;
	}
	return 0;
}

static int get_luminous(struct rd *r, pl_map *m)
{
	uint32_t n;

	if (!get32(r, &n, "class_map") || !room(r, n, 8, "class_map"))
		return -1;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t item, cls;
		size_t at = r->off;

		if (!get32(r, &item, "class_map") || !get32(r, &cls, "class_map"))
			return -1;
		if (cls > MAX_CLASS_ID) {
			BAD(r, at, "class_map: class id %d out of range (at "
			    "most %d)", (int32_t)cls, MAX_CLASS_ID);
			return -1;
		}
		if (pl_class_set_item(m, (int32_t)item, (int)cls)) {
			nomem(r);
			return -1;
		}
	}
	if (!get32(r, &n, "class_name") || !room(r, n, 8, "class_name"))
		return -1;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t key, slen;
		size_t at = r->off;
		char *s;

		if (!get32(r, &key, "class_name") ||
		    !get32(r, &slen, "class_name") ||
		    !room(r, slen, 1, "class_name"))
			return -1;
		if (key > MAX_CLASS_ID) {
			BAD(r, at, "class_name: class id %d out of range (at "
			    "most %d)", (int32_t)key, MAX_CLASS_ID);
			return -1;
		}
		s = malloc((size_t)slen + 1);
		if (!s) {
			nomem(r);
			return -1;
		}
		get(r, s, slen, "class_name");
		s[slen] = 0;
		if (strlen(s) != slen || !slen) {
			free(s);
			BAD(r, at, "class_name: class %u has an empty name or "
			    "a NUL byte", key);
			return -1;
		}
		while (m->nclasses <= (int)key) {
			char **nv = realloc(m->class_names,
					    sizeof(*nv) *
						    (size_t)(m->nclasses + 1));

			if (!nv) {
				free(s);
				nomem(r);
				return -1;
			}
			m->class_names = nv;
			m->capclasses = m->nclasses + 1;
			m->class_names[m->nclasses++] = NULL;
		}
		free(m->class_names[key]);
		m->class_names[key] = s;
	}
	if (!get32(r, &n, "class_bucket") || !room(r, n, 8, "class_bucket"))
		return -1;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t bucket, k;

		if (!get32(r, &bucket, "class_bucket") ||
		    !get32(r, &k, "class_bucket") ||
		    !room(r, k, 8, "class_bucket"))
			return -1;
		for (uint32_t j = 0; j < k; j++) {
			uint32_t cls, sh;
			size_t at = r->off;
			int pos;

			if (!get32(r, &cls, "class_bucket") ||
			    !get32(r, &sh, "class_bucket"))
				return -1;
			pos = -1 - (int32_t)sh;
			if ((int32_t)sh >= 0 || pos >= m->max_buckets ||
			    !m->buckets[pos]) {
				BAD(r, at, "class_bucket: shadow %d of bucket %d "
				    "is not a bucket", (int32_t)sh,
				    (int32_t)bucket);
				return -1;
			}
			m->buckets[pos]->shadow = 1;
			if (pl_class_bucket_set(m, (int32_t)bucket, (int)cls,
						(int32_t)sh)) {
				nomem(r);
				return -1;
			}
		}
	}
	if (left(r))
		return get_choose_args(r, m);
	return 0;
}

/* ---- the map ---- */

int pl_is_binary(const void *buf, size_t len)
{
	const uint8_t *b = buf;

	return len >= 4 && b[0] == (PL_CRUSH_MAGIC & 0xff) &&
	       b[1] == ((PL_CRUSH_MAGIC >> 8) & 0xff) &&
	       b[2] == ((PL_CRUSH_MAGIC >> 16) & 0xff) &&
	       b[3] == PL_CRUSH_MAGIC >> 24;
}

static int get_tunables(struct rd *r, pl_map *m)
{
	struct pl_tunables t;

	/* legacy unless the map says otherwise (CrushWrapper::decode) */
	pl_tunables_profile("legacy", &t);
	if (left(r) && (!get32(r, &t.choose_local_tries, "tunables") ||
			!get32(r, &t.choose_local_fallback_tries, "tunables") ||
			!get32(r, &t.choose_total_tries, "tunables")))
		return -1;
	if (left(r) && !get32(r, &t.chooseleaf_descend_once, "tunables"))
		return -1;
	if (left(r) && !get8(r, &t.chooseleaf_vary_r, "tunables"))
		return -1;
	if (left(r) && !get8(r, &t.straw_calc_version, "tunables"))
		return -1;
	if (left(r) && !get32(r, &t.allowed_bucket_algs, "tunables"))
		return -1;
	if (left(r) && !get8(r, &t.chooseleaf_stable, "tunables"))
		return -1;
	pl_map_set_tunables(m, &t);
	return 0;
}

int pl_map_decode(const void *buf, size_t len, const char *filename,
		  pl_map **out, char *err, size_t errlen)
{
	struct rd r = { buf, len, 0, filename ? filename : "<input>", err,
			errlen, 0 };
	uint32_t magic, maxb, maxr, maxd;
	size_t *at = NULL;
	pl_map *m;

	*out = NULL;
	if (err && errlen)
		err[0] = 0;
	m = pl_map_create();
	if (!m) {
		nomem(&r);
		return r.failed;
	}
	if (!get32(&r, &magic, "magic"))
		goto fail;
	if (magic != PL_CRUSH_MAGIC) {
		BAD(&r, 0, "bad magic 0x%08x (a crush map starts with "
		    "0x%08x)", magic, PL_CRUSH_MAGIC);
		goto fail;
	}
	if (!get32(&r, &maxb, "max_buckets") ||
	    !get32(&r, &maxr, "max_rules") ||
	    !get32(&r, &maxd, "max_devices"))
		goto fail;
	/* each slot takes 4 bytes at least: no more slots than bytes */
	if (!room(&r, maxb, 4, "bucket slots"))
		goto fail;
	if (maxb > INT32_MAX) {
		BAD(&r, 4, "max_buckets %u is negative", maxb);
		goto fail;
	}
	at = calloc((size_t)maxb + 1, sizeof(*at));
	if (!at || pl_map_reserve_buckets(m, (int32_t)maxb)) {
		nomem(&r);
		goto fail;
	}
	for (int32_t pos = 0; pos < (int32_t)maxb; pos++) {
		struct pl_bucket *b;

		at[pos] = r.off;
		if (get_bucket(&r, m, pos, &b))
			goto fail;
		if (b && pl_map_put_bucket(m, b)) {
			nomem(&r);
			goto fail;
		}
	}
	if (check_items(&r, m, at))
		goto fail;

	if (maxr > PL_MAX_RULES) {
		BAD(&r, 8, "max_rules %u is over Ceph's %d", maxr,
		    PL_MAX_RULES);
		goto fail;
	}
	if (pl_map_reserve_rules(m, maxr)) {
		nomem(&r);
		goto fail;
	}
	for (uint32_t i = 0; i < maxr; i++)
		if (get_rule(&r, m, i))
			goto fail;
	if (get_names(&r, m, NK_TYPE) || get_names(&r, m, NK_ITEM) ||
	    get_names(&r, m, NK_RULE))
		goto fail;
	if (get_tunables(&r, m))
		goto fail;
	if (left(&r) && get_luminous(&r, m))
		goto fail;
	/* max_devices is recomputed, as CrushWrapper::decode's finalize()
	 * does; maxd is only read past */
	(void)maxd;
	pl_map_finalize(m);
	free(at);
	*out = m;
	return 0;
fail:
	free(at);
	pl_map_destroy(m);
	return r.failed ? r.failed : -EINVAL;
}
