/*
 * parse_bucket.c - one bucket statement built as CrushCompiler::parse_bucket
 * builds it: ids, alg, hash, item positions, default and explicit weights,
 * and the same refusals.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse_i.h"

static int alg_by_name(const char *s, size_t n)
{
	static const char *const names[] = { "uniform", "list", "tree",
					     "straw", "straw2" };
	static const int algs[] = { PL_BUCKET_UNIFORM, PL_BUCKET_LIST,
				    PL_BUCKET_TREE, PL_BUCKET_STRAW,
				    PL_BUCKET_STRAW2 };

	for (int i = 0; i < 5; i++)
		if (strlen(names[i]) == n && !memcmp(names[i], s, n))
			return algs[i];
	return -1;
}

/* CrushCompiler::parse_bucket */
int pp_sem_bucket(struct sem *S, const struct bucket_rec *b)
{
	struct parser *p = S->p;
	struct iset posused = { 0 };
	int type, id = 0, alg = -1, hash = 0, size, err, idout;
	int *items = NULL;
	uint32_t *weights = NULL;
	char *filled = NULL;
	int maxpos = -1, curpos = 0, have_uniform = 0, ret = -1;
	uint32_t uniform_w = 0, bucketweight = 0;
	struct tok idtok = { 0, 0 };
	char user[96];
	int clsv[64][2], ncls = 0; /* (class, shadow id) of `id N class C` */

	if (S->saw_rule) {
		pp_err_at(p, b->type.off, "bucket '%.*s' must be defined "
			  "before the rules", TOKF(b->name));
		return -1;
	}
	if (!pp_smap_get(&S->types, tokp(p, b->type), b->type.len, &type)) {
		pp_err_at(p, b->type.off, "unknown type '%.*s'", TOKF(b->type));
		return -1;
	}
	/*
	 * Type 0 is the devices' type: Ceph's mapper takes an item of type 0
	 * for a device and reads its reweight at weight[item], so a bucket of
	 * type 0 is read at a negative index.  crushtool 16.2 compiles such a
	 * map and then maps by whatever lies before its weight vector (in our
	 * trials: empty sets, bucket ids as results, duplicates in indep
	 * results, and a segfault in CrushTester::test).  `type 0 osd` plus
	 * `type 0 host` makes one unawares.  Refused, as `ceph osd crush
	 * add-bucket` refuses it (OSDMonitor: "type '...' is for devices,
	 * not buckets").
	 */
	if (type == 0) {
		pp_err_at(p, b->type.off, "bucket '%.*s': type '%.*s' is for "
			  "devices, not buckets (its id is 0)", TOKF(b->name),
			  TOKF(b->type));
		return -1;
	}
	/*
	 * crush_make_bucket keeps 16 bits of the type: crushtool compiles
	 * `type 655350 host` and a host bucket gets type 65526, for which
	 * `crushtool -d` prints "type65526 host0 {", a map neither crushtool
	 * nor crushfs reads back (and 65536 would even be 0, see above).
	 * crushfs keeps every map as text, so such a type is refused for
	 * buckets (rules may name it: it then matches no bucket).
	 */
	if (type > 0xffff) {
		pp_err_at(p, b->type.off, "bucket '%.*s': type '%.*s' has id "
			  "%d, more than a bucket's 16 bits hold (at most "
			  "65535)", TOKF(b->name), TOKF(b->type), type);
		return -1;
	}
	if (pp_item_lookup(S, b->name, &id)) {
		if (id >= 0)
			pp_err_at(p, b->name.off, "bucket name '%.*s' is "
				  "already used by a device", TOKF(b->name));
		else
			pp_err_at(p, b->name.off, "bucket '%.*s' defined twice",
				  TOKF(b->name));
		return -1;
	}
	if (stopped(p))
		return -1;
	id = 0;

	/* first pass: ids, alg, hash, explicit positions */
	for (int i = 0; i < b->nids; i++) {
		int v;

		if (pp_tok_int(p, b->ids[i].val, &v))
			return -1;
		if (v < MIN_BUCKET_ID) {
			pp_err_at(p, b->ids[i].val.off, "bucket id %d is out "
				  "of range (at least %d)", v, MIN_BUCKET_ID);
			return -1;
		}
		if (b->ids[i].cls.len) {
			/* `id -5 class hdd`: this bucket's shadow id for the
			 * class (made on first sight, even with no device of
			 * it: an empty shadow tree a rule still takes) */
			const char *c = pp_cstr(p, b->ids[i].cname);
			int cls;

			if (!c)
				return -1;
			if (pl_class_get_or_create(S->m, c, &cls)) {
				pp_set_nomem(p);
				return -1;
			}
			for (int k = 0; k < ncls; k++)
				if (clsv[k][0] == cls) {
					pp_err_at(p, b->ids[i].cname.off,
						  "duplicate device class %s "
						  "for bucket %.*s",
						  c, TOKF(b->name));
					return -1;
				}
			if (ncls == (int)(sizeof(clsv) / sizeof(clsv[0]))) {
				pp_err_at(p, b->ids[i].cname.off,
					  "bucket %.*s: more than %d device "
					  "classes",
					  TOKF(b->name), ncls);
				return -1;
			}
			clsv[ncls][0] = cls;
			clsv[ncls++][1] = v;
			continue;
		}
		id = v;
		idtok = b->ids[i].val;
	}
	alg = alg_by_name(tokp(p, b->alg), b->alg.len);
	if (alg < 0) {
		pp_err_at(p, b->alg.off, "unknown alg '%.*s' (expected "
			  "uniform, list, tree, straw or straw2)",
			  TOKF(b->alg));
		return -1;
	}
	for (int i = 0; i < b->nhashes; i++) {
		struct tok h = b->hashes[i];

		if (h.len == 9 && !memcmp(tokp(p, h), "rjenkins1", 9)) {
			hash = PL_HASH_RJENKINS1;
			continue;
		}
		if (pp_tok_int(p, h, &hash))
			return -1;
	}
	/* crush_bucket keeps 8 bits: `hash 300` is 44, `hash -1` is 255;
	 * any but 0 hashes to 0 when mapping, as in Ceph (buckets.c) */
	hash &= 0xff;
	for (int i = 0; i < b->nitems; i++) {
		int pos;

		if (!b->items[i].pos.len)
			continue;
		if (pp_tok_int(p, b->items[i].pos, &pos))
			goto out;
		if (pp_iset_has(&posused, pos)) {
			pp_err_at(p, b->items[i].pos.off, "pos %d is already "
				  "used in bucket '%.*s'", pos, TOKF(b->name));
			goto out;
		}
		if (pp_iset_add(&posused, pos)) {
			pp_set_nomem(p);
			goto out;
		}
		if (pos > maxpos)
			maxpos = pos;
	}

	/* Ceph: size = MAX(items, largest explicit pos) -- one short for a
	 * pos past the end, so such a map always fails below. */
	size = b->nitems > maxpos ? b->nitems : maxpos;
	items = calloc((size_t)b->nitems + 1, sizeof(*items));
	weights = calloc((size_t)b->nitems + 1, sizeof(*weights));
	filled = calloc((size_t)b->nitems + 1, 1);
	if (!items || !weights || !filled) {
		pp_set_nomem(p);
		goto out;
	}
	snprintf(user, sizeof(user), "bucket '%.*s'",
		 (int)(b->name.len > 60 ? 60 : b->name.len), tokp(p, b->name));

	/* second pass: the items */
	for (int i = 0; i < b->nitems; i++) {
		const struct item_rec *it = &b->items[i];
		int itemid, pos = -1;
		uint32_t w = 0x10000;

		if (it->name.len == b->name.len &&
		    !memcmp(tokp(p, it->name), tokp(p, b->name),
			    b->name.len)) {
			/* crushtool: "item 'a' in bucket 'a' is not defined" */
			pp_err_at(p, it->name.off, "bucket '%.*s' contains "
				  "itself", TOKF(b->name));
			goto out;
		}
		if (!pp_item_lookup(S, it->name, &itemid)) {
			if (!stopped(p))
				pp_unknown_item(S, it->name, user);
			goto out;
		}
		if (itemid < 0)
			w = pl_map_bucket_weight(S->m, itemid);
		if (it->weight.len) {
			if (pp_tok_weight(p, it->weight, &w))
				goto out;
			if (itemid >= 0 && w > MAX_DEVICE_WEIGHT) {
				pp_err_at(p, it->weight.off, "device weight "
					  "limited to %u", MAX_DEVICE_WEIGHT /
					  0x10000);
				goto out;
			}
			if (itemid < 0 && w > MAX_BUCKET_WEIGHT) {
				pp_err_at(p, it->weight.off, "bucket weight "
					  "limited to %u", MAX_BUCKET_WEIGHT /
					  0x10000);
				goto out;
			}
		}
		if (alg == PL_BUCKET_UNIFORM) {
			if (!have_uniform) {
				have_uniform = 1;
				uniform_w = w;
			} else if (uniform_w != w) {
				pp_err_at(p, it->weight.len ? it->weight.off :
					  it->name.off, "item '%.*s' in "
					  "uniform bucket '%.*s' has weight "
					  "%.5g but previous items have %.5g; "
					  "uniform bucket items must all have "
					  "the same weight", TOKF(it->name),
					  TOKF(b->name), (double)w / 0x10000,
					  (double)uniform_w / 0x10000);
				goto out;
			}
		}
		if (it->pos.len) {
			if (pp_tok_int(p, it->pos, &pos))
				goto out;
			if (pos >= size) {
				pp_err_at(p, it->pos.off, "pos %d is out of "
					  "range: bucket '%.*s' has %d items",
					  pos, TOKF(b->name), b->nitems);
				goto out;
			}
		} else {
			while (pp_iset_has(&posused, curpos))
				curpos++;
			pos = curpos++;
		}
		/* a pos in [items, size) only happens when a later item
		 * fails the check above: nothing to store */
		if (pos < b->nitems) {
			items[pos] = itemid;
			weights[pos] = w;
			filled[pos] = 1;
		}
		if (UINT32_MAX - bucketweight < w) {
			pp_err_at(p, it->weight.len ? it->weight.off :
				  it->name.off,
				  "bucket '%.*s' weight overflows",
				  TOKF(b->name));
			goto out;
		}
		bucketweight += w;
	}
	for (int i = 0; i < b->nitems; i++) {
		if (!filled[i]) { /* cannot happen, see above */
			pp_err_at(p, b->name.off, "bucket '%.*s' has a hole at "
				  "pos %d", TOKF(b->name), i);
			goto out;
		}
	}

	/* CrushCompiler: the first id from -1 down that no bucket uses and
	 * no "id" line anywhere in the file reserved */
	if (id == 0) {
		while (pp_iset_has(&S->used, S->next_free))
			S->next_free--;
		id = S->next_free;
	}
	if (pp_iset_add(&S->used, id)) {
		pp_set_nomem(p);
		goto out;
	}
	for (int k = 0; k < ncls; k++) {
		if (pp_grow((void **)&S->pend, &S->cappend, S->npend,
			    sizeof(*S->pend))) {
			pp_set_nomem(p);
			goto out;
		}
		S->pend[S->npend++] =
			(struct pl_class_bucket){ id, clsv[k][0], clsv[k][1] };
	}
	if (b->nitems > PL_MAX_BUCKET_SIZE) {
		pp_err_at(p, b->name.off, "bucket '%.*s' has %d items; at most "
			  "%d are supported", TOKF(b->name), b->nitems,
			  PL_MAX_BUCKET_SIZE);
		goto out;
	}
	if (alg == PL_BUCKET_TREE && b->nitems > MAX_TREE_SIZE) {
		pp_err_at(p, b->name.off, "tree bucket '%.*s' has %d items; at "
			  "most %d are supported", TOKF(b->name), b->nitems,
			  MAX_TREE_SIZE);
		goto out;
	}
	/* crush_make_uniform_bucket refuses items of weight 0 and crushtool
	 * then aborts (ceph_assert in CrushWrapper::add_bucket) */
	if (alg == PL_BUCKET_UNIFORM && b->nitems && uniform_w == 0) {
		pp_err_at(p, b->name.off, "uniform bucket '%.*s' has items of "
			  "weight 0, which Ceph cannot build", TOKF(b->name));
		goto out;
	}
	err = pl_map_add_bucket(S->m, id, alg, hash, type,
				b->nitems, items, weights, &idout);
	if (err) {
		if (err == -EEXIST)
			pp_err_at(p, idtok.len ? idtok.off : b->name.off,
				  "duplicate bucket id %d", id);
		else if (err == -ENOMEM)
			pp_set_nomem(p);
		else
			pp_err_at(p, b->name.off,
				  "cannot add bucket '%.*s': %s",
				  TOKF(b->name), strerror(-err));
		goto out;
	}
	if (!pp_cstr(p, b->name))
		goto out;
	err = pl_map_set_item_name(S->m, id, p->scratch);
	if (err) {
		pp_set_nomem(p);
		goto out;
	}
	ret = 0;
out:
	pp_iset_free(&posused);
	free(items);
	free(weights);
	free(filled);
	return ret;
}
