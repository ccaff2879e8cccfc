/*
 * builder.c - make and inspect maps: buckets of the five algorithms with
 * their derived data (list sums, tree node weights, straw lengths), rules,
 * names, and the finalize step that sizes workspaces.  This is the only
 * place in placement/ that allocates.  Arithmetic follows Ceph 16.2's
 * builder.c, since derived values (straw lengths above all) are part of
 * placement.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crush_i.h"


pl_map *pl_map_create(void)
{
	pl_map *m = calloc(1, sizeof(*m));
	struct pl_tunables t;

	if (!m)
		return NULL;
	pl_tunables_profile("optimal", &t);
	pl_map_set_tunables(m, &t);
	return m;
}

void pl_bucket_free(struct pl_bucket *b)
{
	if (!b)
		return;
	pl_bucket_free_arrays(b);
	free(b);
}

void pl_div_magic(uint32_t d, uint64_t *magic, uint8_t *shift)
{
	__extension__ typedef unsigned __int128 u128;
	unsigned l = 0;
	u128 num;

	while (l < 32 && ((uint64_t)1 << l) < d)
		l++;
	num = (u128)1 << (PL_DIV_BITS + l);
	*magic = (uint64_t)((num + d - 1) / d);
	*shift = (uint8_t)(PL_DIV_BITS + l);
}

void pl_map_destroy(pl_map *m)
{
	if (!m)
		return;
	for (int32_t b = 0; b < m->max_buckets; b++)
		pl_bucket_free(m->buckets[b]);
	free(m->buckets);
	for (uint32_t r = 0; r < m->max_rules; r++) {
		if (!m->rules[r])
			continue;
		free(m->rules[r]->steps);
		free(m->rules[r]->name);
		free(m->rules[r]);
	}
	free(m->rules);
	pl_names_free(m);
	pl_classes_free(m);
	pl_cargs_free(m);
	free(m);
}

void pl_map_set_tunables(pl_map *m, const struct pl_tunables *t)
{
	m->choose_local_tries = t->choose_local_tries;
	m->choose_local_fallback_tries = t->choose_local_fallback_tries;
	m->choose_total_tries = t->choose_total_tries;
	m->chooseleaf_descend_once = t->chooseleaf_descend_once;
	m->chooseleaf_vary_r = t->chooseleaf_vary_r;
	m->chooseleaf_stable = t->chooseleaf_stable;
	m->straw_calc_version = t->straw_calc_version;
	m->allowed_bucket_algs = t->allowed_bucket_algs;
}

void pl_map_get_tunables(const pl_map *m, struct pl_tunables *t)
{
	t->choose_local_tries = m->choose_local_tries;
	t->choose_local_fallback_tries = m->choose_local_fallback_tries;
	t->choose_total_tries = m->choose_total_tries;
	t->chooseleaf_descend_once = m->chooseleaf_descend_once;
	t->chooseleaf_vary_r = m->chooseleaf_vary_r;
	t->chooseleaf_stable = m->chooseleaf_stable;
	t->straw_calc_version = m->straw_calc_version;
	t->allowed_bucket_algs = m->allowed_bucket_algs;
}

static int add_is_unsafe(uint32_t a, uint32_t b)
{
	return (UINT32_MAX - b) < a;
}

/*
 * Straw lengths (Ceph crush_calc_straw).  Items are visited from lightest
 * to heaviest and each straw is scaled so that the chance of drawing the
 * longest matches the weight.  Version 0 mishandles equal and zero weights
 * (it is what old clusters still run); version 1 fixes that.  The double
 * arithmetic, including the unsigned products, is Ceph's to the letter:
 * changing it changes placement.
 */
int pl_calc_straw(const pl_map *m, struct pl_bucket *b)
{
	int size = (int)b->size;
	const uint32_t *weights = b->item_weights;
	int *reverse;
	int i, j, k, numleft;
	double straw, wbelow, lastw, wnext, pbelow;

	reverse = malloc(sizeof(int) * (size ? (size_t)size : 1));
	if (!reverse)
		return -ENOMEM;
	if (size)
		reverse[0] = 0;
	for (i = 1; i < size; i++) {
		for (j = 0; j < i; j++) {
			if (weights[i] < weights[reverse[j]]) {
				for (k = i; k > j; k--)
					reverse[k] = reverse[k - 1];
				reverse[j] = i;
				break;
			}
		}
		if (j == i)
			reverse[i] = i;
	}

	numleft = size;
	straw = 1.0;
	wbelow = 0;
	lastw = 0;
	i = 0;
	while (i < size) {
		if (m->straw_calc_version == 0) {
			if (weights[reverse[i]] == 0) {
				b->straws[reverse[i]] = 0;
				i++;
				continue;
			}
			b->straws[reverse[i]] = (uint32_t)(straw * 0x10000);
			i++;
			if (i == size)
				break;
			if (weights[reverse[i]] == weights[reverse[i - 1]])
				continue;
			wbelow += ((double)weights[reverse[i - 1]] - lastw) *
				  numleft;
			for (j = i; j < size; j++) {
				if (weights[reverse[j]] == weights[reverse[i]])
					numleft--;
				else
					break;
			}
			wnext = (uint32_t)numleft *
				(weights[reverse[i]] - weights[reverse[i - 1]]);
			pbelow = wbelow / (wbelow + wnext);
			straw *= pow(1.0 / pbelow, 1.0 / (double)numleft);
			lastw = weights[reverse[i - 1]];
		} else {
			if (weights[reverse[i]] == 0) {
				b->straws[reverse[i]] = 0;
				i++;
				numleft--;
				continue;
			}
			b->straws[reverse[i]] = (uint32_t)(straw * 0x10000);
			i++;
			if (i == size)
				break;
			wbelow += ((double)weights[reverse[i - 1]] - lastw) *
				  numleft;
			numleft--;
			wnext = (uint32_t)numleft *
				(weights[reverse[i]] - weights[reverse[i - 1]]);
			pbelow = wbelow / (wbelow + wnext);
			straw *= pow(1.0 / pbelow, 1.0 / (double)numleft);
			lastw = weights[reverse[i - 1]];
		}
	}
	free(reverse);
	return 0;
}

/* Tree buckets number nodes in-order; see buckets.c. */
static int tree_height(int n)
{
	int h = 0;

	while ((n & 1) == 0) {
		h++;
		n >>= 1;
	}
	return h;
}

static int tree_parent(int n)
{
	int h = tree_height(n);

	if (n & (1 << (h + 1)))
		return n - (1 << h);
	return n + (1 << h);
}

static int tree_depth(int size)
{
	int depth = 1, t = size - 1;

	if (size == 0)
		return 0;
	while (t) {
		t >>= 1;
		depth++;
	}
	return depth;
}

int pl_tree_num_nodes(uint32_t size)
{
	int depth = tree_depth((int)size);

	/* Ceph stores the node count in 8 bits. */
	if (depth > 7)
		return 0;
	return size ? 1 << depth : 0;
}

/*
 * A tree walk ends on any leaf below num_nodes, and leaves past the last
 * item (weight 0) are reached when a whole subtree weighs 0: Ceph then
 * reads items[] past its end.  Those slots exist here and hold 0.
 */
uint32_t pl_tree_item_slots(const struct pl_bucket *b)
{
	uint32_t leaves = (uint32_t)b->num_nodes / 2;

	return b->size > leaves ? b->size : leaves;
}

static int fill_bucket(struct pl_bucket *b, const uint32_t *weights)
{
	uint32_t i, w = 0;
	int j, depth, node;

	switch (b->alg) {
	case PL_BUCKET_UNIFORM:
		/* crush_make_uniform_bucket: crush_multiplication_is_unsafe
		 * also refuses items of weight 0 (crushtool then aborts on a
		 * ceph_assert; parse.c says so instead) */
		b->item_weight = b->size ? weights[0] : 0;
		if (b->size && (b->item_weight == 0 ||
				b->item_weight > UINT32_MAX / b->size))
			return -ERANGE;
		b->weight = b->size * b->item_weight;
		return 0;
	case PL_BUCKET_LIST:
		b->item_weights = calloc(b->size + 1, sizeof(uint32_t));
		b->sum_weights = calloc(b->size + 1, sizeof(uint32_t));
		if (!b->item_weights || !b->sum_weights)
			return -ENOMEM;
		for (i = 0; i < b->size; i++) {
			b->item_weights[i] = weights[i];
			if (add_is_unsafe(w, weights[i]))
				return -ERANGE;
			w += weights[i];
			b->sum_weights[i] = w;
		}
		b->weight = w;
		return 0;
	case PL_BUCKET_TREE:
		depth = tree_depth((int)b->size);
		if (b->size && !pl_tree_num_nodes(b->size))
			return -E2BIG;
		b->num_nodes = (uint8_t)pl_tree_num_nodes(b->size);
		b->node_weights = calloc((size_t)b->num_nodes + 1,
					 sizeof(uint32_t));
		if (!b->node_weights)
			return -ENOMEM;
		for (i = 0; i < b->size; i++) {
			node = (int)((i + 1) << 1) - 1;
			b->node_weights[node] = weights[i];
			if (add_is_unsafe(b->weight, weights[i]))
				return -ERANGE;
			b->weight += weights[i];
			for (j = 1; j < depth; j++) {
				node = tree_parent(node);
				if (add_is_unsafe(b->node_weights[node],
						  weights[i]))
					return -ERANGE;
				b->node_weights[node] += weights[i];
			}
		}
		return 0;
	case PL_BUCKET_STRAW:
	case PL_BUCKET_STRAW2:
		b->item_weights = calloc(b->size + 1, sizeof(uint32_t));
		if (!b->item_weights)
			return -ENOMEM;
		for (i = 0; i < b->size; i++) {
			b->item_weights[i] = weights[i];
			if (add_is_unsafe(w, weights[i]))
				return -ERANGE;
			w += weights[i];
		}
		b->weight = w;
		if (b->alg == PL_BUCKET_STRAW) {
			b->straws = calloc(b->size + 1, sizeof(uint32_t));
			if (!b->straws)
				return -ENOMEM;
		} else {
			b->div_magic = calloc(b->size + 1, sizeof(uint64_t));
			b->div_shift = calloc(b->size + 1, 1);
			if (!b->div_magic || !b->div_shift)
				return -ENOMEM;
			for (i = 0; i < b->size; i++)
				if (weights[i])
					pl_div_magic(weights[i],
						     &b->div_magic[i],
						     &b->div_shift[i]);
		}
		return 0;
	default:
		return -EINVAL;
	}
}

static struct pl_bucket *bucket_at(const pl_map *m, int id)
{
	if (id >= 0 || -1 - id >= m->max_buckets)
		return NULL;
	return m->buckets[-1 - id];
}

void pl_bucket_free_arrays(struct pl_bucket *b)
{
	free(b->items);
	free(b->item_weights);
	free(b->sum_weights);
	free(b->straws);
	free(b->node_weights);
	free(b->div_magic);
	free(b->div_shift);
	b->items = NULL;
	b->item_weights = b->sum_weights = b->straws = b->node_weights = NULL;
	b->div_magic = NULL;
	b->div_shift = NULL;
}

int pl_bucket_build(const pl_map *m, struct pl_bucket *b, const int32_t *items,
		    const uint32_t *weights)
{
	uint32_t slots = b->size;
	int err;

	if (b->alg == PL_BUCKET_TREE && pl_tree_num_nodes(b->size) / 2 >
					(int)slots)
		slots = (uint32_t)pl_tree_num_nodes(b->size) / 2;
	b->items = calloc(pl_id_slots(slots), sizeof(int32_t));
	if (!b->items)
		return -ENOMEM;
	if (b->size)
		memcpy(b->items, items, sizeof(int32_t) * b->size);
	err = fill_bucket(b, weights);
	if (!err && b->alg == PL_BUCKET_STRAW)
		err = pl_calc_straw(m, b);
	if (err)
		pl_bucket_free_arrays(b);
	return err;
}

/* Ceph's crush_add_bucket: the slot array starts at 8 and doubles. */
static int grow_buckets(pl_map *m, int pos)
{
	int32_t newmax = m->max_buckets ? m->max_buckets : 8;

	if (pos < m->max_buckets)
		return 0;
	while (newmax <= pos) {
		if (newmax > INT32_MAX / 2)
			return -ENOSPC;
		newmax *= 2;
	}
	return pl_map_reserve_buckets(m, newmax);
}

int pl_map_reserve_buckets(pl_map *m, int32_t n)
{
	struct pl_bucket **nb;

	if (n < m->max_buckets)
		return -EINVAL;
	if (n == m->max_buckets)
		return 0;
	nb = realloc(m->buckets, sizeof(*nb) * (size_t)n);
	if (!nb)
		return -ENOMEM;
	memset(nb + m->max_buckets, 0,
	       sizeof(*nb) * (size_t)(n - m->max_buckets));
	m->buckets = nb;
	m->max_buckets = n;
	m->finalized = 0;
	return 0;
}

int pl_map_put_bucket(pl_map *m, struct pl_bucket *b)
{
	int pos = -1 - b->id, err;

	if (b->id >= 0 || b->id == INT32_MIN) {
		err = -EINVAL;
		goto err;
	}
	err = grow_buckets(m, pos);
	if (err)
		goto err;
	if (m->buckets[pos]) {
		err = -EEXIST;
		goto err;
	}
	if (b->alg == PL_BUCKET_STRAW2) {
		free(b->div_magic);
		free(b->div_shift);
		b->div_magic = calloc((size_t)b->size + 1, sizeof(uint64_t));
		b->div_shift = calloc((size_t)b->size + 1, 1);
		if (!b->div_magic || !b->div_shift) {
			err = -ENOMEM;
			goto err;
		}
		for (uint32_t i = 0; i < b->size; i++)
			if (b->item_weights[i])
				pl_div_magic(b->item_weights[i],
					     &b->div_magic[i],
					     &b->div_shift[i]);
	}
	m->buckets[pos] = b;
	m->finalized = 0;
	return 0;
err:
	pl_bucket_free(b);
	return err;
}

int pl_map_add_bucket(pl_map *m, int id, int alg, int hash, int type,
		      int size, const int *items, const uint32_t *weights,
		      int *idout)
{
	struct pl_bucket *b;
	int pos, err;

	/* type 0 is the devices' type: the mapper would take such a bucket
	 * for a device (see parse_bucket.c).  Any hash is kept, as Ceph keeps
	 * it; only rjenkins1 hashes (crush_hash32_* give 0 for the others) */
	if (alg < PL_BUCKET_UNIFORM || alg > PL_BUCKET_STRAW2 ||
	    hash < 0 || hash > 255 || size < 0 ||
	    size > PL_MAX_BUCKET_SIZE || type <= 0 || type > 0xffff || id > 0)
		return -EINVAL;
	for (int i = 0; i < size; i++) {
		if (items[i] < 0 && !bucket_at(m, items[i]))
			return -ENOENT;
		if (items[i] == PL_ITEM_NONE || items[i] == PL_ITEM_UNDEF)
			return -EINVAL;
	}

	if (id == 0) {
		for (pos = 0; pos < m->max_buckets; pos++)
			if (!m->buckets[pos])
				break;
	} else {
		pos = -1 - id;
		if (pos < m->max_buckets && m->buckets[pos])
			return -EEXIST;
	}
	err = grow_buckets(m, pos);
	if (err)
		return err;

	b = calloc(1, sizeof(*b));
	if (!b)
		return -ENOMEM;
	b->id = -1 - pos;
	b->alg = (uint8_t)alg;
	b->hash = (uint8_t)hash;
	b->type = (uint16_t)type;
	b->size = (uint32_t)size;
	err = pl_bucket_build(m, b, items, weights);
	if (err) {
		free(b);
		return err;
	}
	m->buckets[pos] = b;
	m->finalized = 0;
	if (idout)
		*idout = b->id;
	return 0;
}

/*
 * A bucket as device_class_clone (CrushWrapper, 16.2) builds its copies:
 * crush_make_bucket with no items, then crush_bucket_add_item for each
 * item in order.  For list, straw and straw2 buckets that ends where
 * building from all the items at once does (crush_calc_straw runs again
 * after every add, over all the items so far).  Two algorithms differ:
 *
 *  - uniform: the empty bucket's item_weight is 0 and
 *    crush_add_uniform_bucket_item never changes it: it refuses (-EINVAL)
 *    an item of any other weight, so a copy takes only items of weight 0
 *    and weighs 0 (crush_make_uniform_bucket would refuse those items);
 *  - tree: crush_add_tree_bucket_item grows node_weights with realloc and
 *    never clears what it adds: node 0 (which no walk reads) and, from 3
 *    items on, inner nodes of a grown array are added to or left as they
 *    come from the heap, so crushtool -c writes whatever memory held there
 *    (it changes from run to run, and with it some mappings).  Taking that
 *    memory as zeros gives what crush_make_tree_bucket computes, which is
 *    what this does: the only defined choice.
 */
int pl_map_add_bucket_grown(pl_map *m, int id, int alg, int hash, int type,
			    int size, const int *items,
			    const uint32_t *weights, int *idout)
{
	struct pl_bucket *b;
	int32_t *ni;
	int err, bid;

	if (alg != PL_BUCKET_UNIFORM)
		return pl_map_add_bucket(m, id, alg, hash, type, size, items,
					 weights, idout);
	if (size < 0 || size > PL_MAX_BUCKET_SIZE)
		return -EINVAL;
	for (int i = 0; i < size; i++) {
		if (weights[i] != 0) /* crush_add_uniform_bucket_item */
			return -EINVAL;
		if (items[i] < 0 && !bucket_at(m, items[i]))
			return -ENOENT;
		if (items[i] == PL_ITEM_NONE || items[i] == PL_ITEM_UNDEF)
			return -EINVAL;
	}
	err = pl_map_add_bucket(m, id, alg, hash, type, 0, NULL, NULL, &bid);
	if (err)
		return err;
	b = bucket_at(m, bid);
	ni = calloc(pl_id_slots((size_t)size), sizeof(int32_t));
	if (!ni) {
		m->buckets[-1 - bid] = NULL;
		pl_bucket_free(b);
		return -ENOMEM;
	}
	if (size)
		memcpy(ni, items, sizeof(int32_t) * (size_t)size);
	free(b->items);
	b->items = ni;
	b->size = (uint32_t)size; /* item_weight and weight stay 0 */
	if (idout)
		*idout = bid;
	return 0;
}

int pl_map_reserve_rules(pl_map *m, uint32_t n)
{
	struct pl_rule **nr;

	if (n < m->max_rules || n > PL_MAX_RULES)
		return -EINVAL;
	if (n == m->max_rules)
		return 0;
	nr = realloc(m->rules, sizeof(*nr) * n);
	if (!nr)
		return -ENOMEM;
	memset(nr + m->max_rules, 0, sizeof(*nr) * (n - m->max_rules));
	m->rules = nr;
	m->max_rules = n;
	return 0;
}

int pl_map_add_rule(pl_map *m, int ruleno, int type, int min_size,
		    int max_size, int nsteps, const struct pl_rule_step *steps,
		    int *ruleout)
{
	struct pl_rule *rule;
	uint32_t r;

	if (nsteps < 0 || nsteps > 1024 || ruleno >= PL_MAX_RULES)
		return -EINVAL;
	if (ruleno < 0) {
		for (r = 0; r < m->max_rules; r++)
			if (!m->rules[r])
				break;
		if (r >= PL_MAX_RULES)
			return -ENOSPC;
	} else {
		r = (uint32_t)ruleno;
		if (r < m->max_rules && m->rules[r])
			return -EEXIST;
	}
	if (r >= m->max_rules) {
		int err = pl_map_reserve_rules(m, r + 1);

		if (err)
			return err;
	}
	rule = calloc(1, sizeof(*rule));
	if (!rule)
		return -ENOMEM;
	rule->steps = calloc((size_t)nsteps + 1, sizeof(*steps));
	if (!rule->steps) {
		free(rule);
		return -ENOMEM;
	}
	if (nsteps)
		memcpy(rule->steps, steps, sizeof(*steps) * (size_t)nsteps);
	rule->len = (uint32_t)nsteps;
	/* Ceph keeps these in 8 bits (struct crush_rule_mask). */
	rule->type = (uint8_t)type;
	rule->min_size = (uint8_t)min_size;
	rule->max_size = (uint8_t)max_size;
	m->rules[r] = rule;
	if (ruleout)
		*ruleout = (int)r;
	return 0;
}

int pl_map_set_rule_name(pl_map *m, int ruleno, const char *name)
{
	char *copy;

	if (!pl_map_rule_exists(m, ruleno))
		return -ENOENT;
	copy = strdup(name);
	if (!copy)
		return -ENOMEM;
	free(m->rules[ruleno]->name);
	m->rules[ruleno]->name = copy;
	return 0;
}

int pl_map_finalize(pl_map *m)
{
	size_t ws = ALIGN8((size_t)m->max_buckets * sizeof(void *));
	int32_t maxdev = 0;

	for (int32_t b = 0; b < m->max_buckets; b++) {
		const struct pl_bucket *bk = m->buckets[b];

		if (!bk)
			continue;
		for (uint32_t i = 0; i < bk->size; i++)
			if (bk->items[i] >= maxdev)
				maxdev = bk->items[i] + 1;
		ws += ALIGN8(sizeof(struct pl_work_bucket) +
			     bk->size * sizeof(uint32_t));
	}
	/* Declared devices count even when no bucket holds them
	 * (CrushWrapper::finalize looks at the name map). */
	for (int i = 0; i < m->ndevices; i++)
		if (m->devices[i] >= maxdev)
			maxdev = m->devices[i] + 1;
	m->max_devices = maxdev;
	m->working_size = ws;
	pl_parents_rebuild(m);
	m->finalized = 1;
	m->generation++; /* workspaces laid out before are stale */
	return 0;
}

int pl_map_build_simple(int nosds, int nhosts, const uint32_t *osd_weights,
			pl_map **out)
{
	pl_map *m;
	int *items = NULL, *hosts = NULL, err = -ENOMEM, id, rid;
	uint32_t *w = NULL, *hw = NULL;
	char name[32];
	struct pl_rule_step steps[3] = {
		{ PL_RULE_TAKE, 0, 0 },
		{ PL_RULE_CHOOSELEAF_FIRSTN, 0, 1 },
		{ PL_RULE_EMIT, 0, 0 },
	};

	if (nosds <= 0 || nhosts <= 0 || nhosts > nosds)
		return -EINVAL;
	m = pl_map_create();
	items = calloc((size_t)nosds, sizeof(int));
	w = calloc((size_t)nosds, sizeof(uint32_t));
	hosts = calloc((size_t)nhosts, sizeof(int));
	hw = calloc((size_t)nhosts, sizeof(uint32_t));
	if (!m || !items || !w || !hosts || !hw)
		goto err;
	if ((err = pl_map_set_type_name(m, 0, "osd")) ||
	    (err = pl_map_set_type_name(m, 1, "host")) ||
	    (err = pl_map_set_type_name(m, 2, "root")))
		goto err;
	for (int i = 0; i < nosds; i++) {
		snprintf(name, sizeof(name), "osd.%d", i);
		if ((err = pl_map_add_device(m, i, name)))
			goto err;
	}
	for (int h = 0; h < nhosts; h++) {
		int n = 0;

		for (int i = h; i < nosds; i += nhosts) {
			items[n] = i;
			w[n++] = osd_weights ? osd_weights[i] : 0x10000;
		}
		err = pl_map_add_bucket(m, -2 - h, PL_BUCKET_STRAW2,
					PL_HASH_RJENKINS1, 1, n, items, w, &id);
		if (err)
			goto err;
		snprintf(name, sizeof(name), "host%d", h);
		if ((err = pl_map_set_item_name(m, id, name)))
			goto err;
		hosts[h] = id;
		hw[h] = pl_map_bucket_weight(m, id);
	}
	err = pl_map_add_bucket(m, -1, PL_BUCKET_STRAW2, PL_HASH_RJENKINS1, 2,
				nhosts, hosts, hw, &id);
	if (err || (err = pl_map_set_item_name(m, id, "default")))
		goto err;
	steps[0].arg1 = id;
	err = pl_map_add_rule(m, 0, PL_RULE_TYPE_REPLICATED, 1, 10, 3, steps,
			      &rid);
	if (err || (err = pl_map_set_rule_name(m, rid, "replicated_rule")))
		goto err;
	pl_map_finalize(m);
	free(items);
	free(w);
	free(hosts);
	free(hw);
	*out = m;
	return 0;
err:
	free(items);
	free(w);
	free(hosts);
	free(hw);
	pl_map_destroy(m);
	return err;
}

/* ---- getters ---- */

int pl_map_max_devices(const pl_map *m) { return m->max_devices; }
int pl_map_max_buckets(const pl_map *m) { return m->max_buckets; }
int pl_map_max_rules(const pl_map *m) { return (int)m->max_rules; }

int pl_map_rule_exists(const pl_map *m, int ruleno)
{
	return ruleno >= 0 && (uint32_t)ruleno < m->max_rules &&
	       m->rules[ruleno] != NULL;
}

#define RULE_GET(fn, field)                                      \
	int fn(const pl_map *m, int ruleno)                      \
	{                                                        \
		if (!pl_map_rule_exists(m, ruleno))              \
			return -ENOENT;                          \
		return (int)m->rules[ruleno]->field;             \
	}
RULE_GET(pl_map_rule_type, type)
RULE_GET(pl_map_rule_min_size, min_size)
RULE_GET(pl_map_rule_max_size, max_size)
RULE_GET(pl_map_rule_len, len)

const struct pl_rule_step *pl_map_rule_step(const pl_map *m, int ruleno,
					    int step)
{
	if (!pl_map_rule_exists(m, ruleno) || step < 0 ||
	    (uint32_t)step >= m->rules[ruleno]->len)
		return NULL;
	return &m->rules[ruleno]->steps[step];
}

const char *pl_map_rule_name(const pl_map *m, int ruleno)
{
	return pl_map_rule_exists(m, ruleno) ? m->rules[ruleno]->name : NULL;
}

int pl_map_bucket_exists(const pl_map *m, int id)
{
	return bucket_at(m, id) != NULL;
}

#define BUCKET_GET(fn, expr)                                     \
	int fn(const pl_map *m, int id)                          \
	{                                                        \
		const struct pl_bucket *b = bucket_at(m, id);    \
		if (!b)                                          \
			return -ENOENT;                          \
		return (int)(expr);                              \
	}
BUCKET_GET(pl_map_bucket_alg, b->alg)
BUCKET_GET(pl_map_bucket_type, b->type)
BUCKET_GET(pl_map_bucket_hash, b->hash)
BUCKET_GET(pl_map_bucket_size, b->size)

uint32_t pl_map_bucket_weight(const pl_map *m, int id)
{
	const struct pl_bucket *b = bucket_at(m, id);

	return b ? b->weight : 0;
}

int pl_map_bucket_item(const pl_map *m, int id, int pos)
{
	const struct pl_bucket *b = bucket_at(m, id);

	if (!b || pos < 0 || (uint32_t)pos >= b->size)
		return PL_ITEM_NONE;
	return b->items[pos];
}

uint32_t pl_map_bucket_item_weight(const pl_map *m, int id, int pos)
{
	const struct pl_bucket *b = bucket_at(m, id);

	if (!b || pos < 0 || (uint32_t)pos >= b->size)
		return 0;
	switch (b->alg) {
	case PL_BUCKET_UNIFORM:
		return b->item_weight;
	case PL_BUCKET_TREE:
		return b->node_weights[((pos + 1) << 1) - 1];
	default:
		return b->item_weights[pos];
	}
}

