/*
 * mapper.c - run a CRUSH rule: Ceph 16.2's crush_do_rule() with
 * crush_choose_firstn() and crush_choose_indep(), step for step, so the
 * output is bit-identical (including its retry and collision quirks).
 *
 * Contract (Ceph mapper.h): no allocation, no locks, no writes to the map.
 * All mutable state lives in the caller's workspace, so one map serves any
 * number of threads.  There is no error path: a rule that cannot place
 * everything returns fewer items (firstn) or PL_ITEM_NONE holes (indep).
 *
 * This file must not include an allocator header (CI greps for it).
 */
#include <errno.h>
#include <string.h>

#include "crush_i.h"
#include "hash_i.h"
#include "straw2_i.h"
#include "spec_i.h"

/*
 * The mapping core (everything down to MAPPER_ENTRY) is compiled twice:
 * here for the baseline CPU and in mapper_avx2.c with -mavx2, where the
 * straw2 hash pass (four items at a time) takes fewer instructions (VEX's
 * three operands): about 4% of a mapping in bench/crush_bench.sh.
 * pl_do_rule_args picks one by the CPU it runs on.
 */
#if defined(PL_MAPPER_AVX512)
#define MAPPER_ENTRY int pl_do_rule_args_avx512
#define BATCH_ENTRY void pl_do_rule_batch_avx512
#elif defined(PL_MAPPER_AVX2)
#define MAPPER_ENTRY int pl_do_rule_args_avx2
#define BATCH_ENTRY void pl_do_rule_batch_avx2
#else
#define MAPPER_ENTRY static int do_rule_args
#define BATCH_ENTRY static void do_rule_batch
#endif

/* Device is "out" for input x: reweights below 1.0 keep a fraction of the
 * inputs, chosen by hashing x with the device id. */
static int is_out(const uint32_t *weight, int weight_max, int item, int x)
{
	if (item >= weight_max)
		return 1;
	if (weight[item] >= 0x10000)
		return 0;
	if (weight[item] == 0)
		return 1;
	if ((crush_hash32_2((uint32_t)x, (uint32_t)item) & 0xffff) <
	    weight[item])
		return 0;
	return 1;
}

/* Ceph's crush_bucket_choose: straw2 inline, the others in buckets.c */
static inline int bucket_choose(const struct choose_ctx *cx,
				const struct pl_bucket *in, int r, int outpos)
{
	if (in->alg == PL_BUCKET_STRAW2) {
		const struct pl_choose_arg *arg = arg_of(cx, in);
		int pos = memo_pos(arg, outpos), item;
		struct pl_memo *e = memo_find(cx->memo, in->id, r, pos);

		/* drawn ahead by spec_step, or earlier in this mapping */
		if (memo_hit(cx->memo, e))
			return e->item;
		item = pl_straw2_choose(in, cx->x, r, arg, outpos);
		memo_fill(cx->memo, e, in->id, r, pos, item);
		return item;
	}
	return pl_bucket_choose(in, cx->work->work[-1 - in->id], cx->x, r);
}

static void count_tries(struct pl_work *w, const pl_map *m,
			unsigned int ftotal)
{
	if (ftotal <= m->choose_total_tries && ftotal < PL_CHOOSE_TRIES_MAX)
		w->choose_tries[ftotal]++;
}

static int choose_firstn(const struct choose_ctx *cx,
			 const struct pl_bucket *bucket, int numrep, int type,
			 int *out, int outpos, int out_size,
			 unsigned int tries, unsigned int recurse_tries,
			 unsigned int local_retries,
			 unsigned int local_fallback_retries,
			 int recurse_to_leaf, unsigned int vary_r,
			 unsigned int stable, int *out2, int parent_r)
{
	const pl_map *map = cx->map;
	int rep;
	unsigned int ftotal, flocal;
	int retry_descent, retry_bucket, skip_rep;
	const struct pl_bucket *in = bucket;
	int r, i, item = 0, itemtype, collide, reject;
	int count = out_size;

	for (rep = stable ? 0 : outpos; rep < numrep && count > 0; rep++) {
		ftotal = 0;
		skip_rep = 0;
		do {
			retry_descent = 0;
			in = bucket;
			flocal = 0;
			do {
				collide = 0;
				retry_bucket = 0;
				r = rep + parent_r + (int)ftotal;

				if (in->size == 0) {
					reject = 1;
					goto reject;
				}
				if (local_fallback_retries > 0 &&
				    flocal >= (in->size >> 1) &&
				    flocal > local_fallback_retries)
					item = pl_bucket_perm_choose(
						in, cx->work->work[-1 - in->id],
						cx->x, r);
				else
					item = bucket_choose(
						cx, in, r, outpos);
				if (item >= map->max_devices) {
					skip_rep = 1;
					break;
				}

				if (item < 0) {
					if (-1 - item >= map->max_buckets ||
					    !map->buckets[-1 - item]) {
						skip_rep = 1;
						break;
					}
					itemtype = map->buckets[-1 - item]->type;
				} else {
					itemtype = 0;
				}

				if (itemtype != type) {
					if (item >= 0) {
						skip_rep = 1;
						break;
					}
					in = map->buckets[-1 - item];
					retry_bucket = 1;
					continue;
				}

				for (i = 0; i < outpos; i++) {
					if (out[i] == item) {
						collide = 1;
						break;
					}
				}

				reject = 0;
				if (!collide && recurse_to_leaf) {
					if (item < 0) {
						/* Ceph shifts by vary_r - 1
						 * unchecked; x86 (where
						 * crushtool runs) masks the
						 * count to 5 bits: the same,
						 * defined, for any u8 */
						int sub_r = vary_r ?
							r >> ((vary_r - 1) & 31) :
							0;
						if (choose_firstn(
							    cx,
							    map->buckets[-1 - item],
							    stable ? 1 : outpos + 1,
							    0, out2, outpos,
							    count, recurse_tries,
							    0, local_retries,
							    local_fallback_retries,
							    0, vary_r, stable,
							    NULL, sub_r) <=
						    outpos)
							reject = 1;
					} else {
						out2[outpos] = item;
					}
				}

				if (!reject && !collide && itemtype == 0)
					reject = is_out(cx->weight,
							cx->weight_max, item,
							cx->x);
reject:
				if (reject || collide) {
					ftotal++;
					flocal++;
					if (collide && flocal <= local_retries)
						retry_bucket = 1;
					else if (local_fallback_retries > 0 &&
						 flocal <= in->size +
							 local_fallback_retries)
						retry_bucket = 1;
					else if (ftotal < tries)
						retry_descent = 1;
					else
						skip_rep = 1;
				}
			} while (retry_bucket);
		} while (retry_descent);

		if (skip_rep)
			continue;

		out[outpos] = item;
		outpos++;
		count--;
		count_tries(cx->work, map, ftotal);
	}
	return outpos;
}

static void choose_indep(const struct choose_ctx *cx,
			 const struct pl_bucket *bucket, int left, int numrep,
			 int type, int *out, int outpos, unsigned int tries,
			 unsigned int recurse_tries, int recurse_to_leaf,
			 int *out2, int parent_r)
{
	const pl_map *map = cx->map;
	const struct pl_bucket *in = bucket;
	int endpos = outpos + left;
	int rep, r, i, item = 0, itemtype, collide;
	unsigned int ftotal;

	for (rep = outpos; rep < endpos; rep++) {
		out[rep] = PL_ITEM_UNDEF;
		if (out2)
			out2[rep] = PL_ITEM_UNDEF;
	}

	for (ftotal = 0; left > 0 && ftotal < tries; ftotal++) {
		for (rep = outpos; rep < endpos; rep++) {
			if (out[rep] != PL_ITEM_UNDEF)
				continue;
			in = bucket;
			for (;;) {
				/* the choice depends on the position, even in
				 * the nested call, so a bucket chosen at a
				 * different position picks a different item */
				r = rep + parent_r;
				if (in->alg == PL_BUCKET_UNIFORM &&
				    in->size % numrep == 0)
					r += (numrep + 1) * (int)ftotal;
				else
					r += numrep * (int)ftotal;

				if (in->size == 0)
					break;

				item = bucket_choose(cx, in, r, outpos);
				if (item >= map->max_devices) {
					out[rep] = PL_ITEM_NONE;
					if (out2)
						out2[rep] = PL_ITEM_NONE;
					left--;
					break;
				}

				if (item < 0) {
					if (-1 - item >= map->max_buckets ||
					    !map->buckets[-1 - item]) {
						out[rep] = PL_ITEM_NONE;
						if (out2)
							out2[rep] = PL_ITEM_NONE;
						left--;
						break;
					}
					itemtype = map->buckets[-1 - item]->type;
				} else {
					itemtype = 0;
				}

				if (itemtype != type) {
					if (item >= 0) {
						out[rep] = PL_ITEM_NONE;
						if (out2)
							out2[rep] = PL_ITEM_NONE;
						left--;
						break;
					}
					in = map->buckets[-1 - item];
					continue;
				}

				collide = 0;
				for (i = outpos; i < endpos; i++) {
					if (out[i] == item) {
						collide = 1;
						break;
					}
				}
				if (collide)
					break;

				if (recurse_to_leaf) {
					if (item < 0) {
						choose_indep(cx,
							     map->buckets[-1 - item],
							     1, numrep, 0, out2,
							     rep, recurse_tries,
							     0, 0, NULL, r);
						if (out2[rep] == PL_ITEM_NONE)
							break;
					} else {
						out2[rep] = item;
					}
				}

				if (itemtype == 0 &&
				    is_out(cx->weight, cx->weight_max, item,
					   cx->x))
					break;

				out[rep] = item;
				left--;
				break;
			}
		}
	}
	for (rep = outpos; rep < endpos; rep++) {
		if (out[rep] == PL_ITEM_UNDEF)
			out[rep] = PL_ITEM_NONE;
		if (out2 && out2[rep] == PL_ITEM_UNDEF)
			out2[rep] = PL_ITEM_NONE;
	}
	count_tries(cx->work, map, ftotal);
}

/*
 * The first choose step of the rule (after take and set_* steps, as
 * run_rule reads them), speculated for inputs cx[0 .. ncx-1] together:
 * spec_step with more walkers, so more independent hash chains per pass.
 * 1 if it did (run_rule need not guess that step again).
 */
static int spec_rule_start(const struct choose_ctx *cx, int ncx,
			   const struct pl_rule *rule, int result_max)
{
	const pl_map *map = cx->map;
	struct spec_leaf lf = { 0, map->chooseleaf_vary_r,
				map->chooseleaf_stable };
	int take = 0, have = 0;

	for (uint32_t step = 0; step < rule->len; step++) {
		const struct pl_rule_step *cur = &rule->steps[step];
		int numrep = cur->arg1, nrep;

		switch (cur->op) {
		case PL_RULE_TAKE:
			take = cur->arg1;
			have = -1 - take >= 0 && -1 - take < map->max_buckets &&
			       map->buckets[-1 - take];
			break;
		case PL_RULE_SET_CHOOSELEAF_VARY_R:
			if (cur->arg1 >= 0)
				lf.vary_r = (unsigned)cur->arg1;
			break;
		case PL_RULE_SET_CHOOSELEAF_STABLE:
			if (cur->arg1 >= 0)
				lf.stable = (unsigned)cur->arg1;
			break;
		case PL_RULE_CHOOSELEAF_FIRSTN:
		case PL_RULE_CHOOSE_FIRSTN:
		case PL_RULE_CHOOSELEAF_INDEP:
		case PL_RULE_CHOOSE_INDEP:
			if (!have)
				return 0;
			if (numrep <= 0)
				numrep += result_max;
			if (numrep <= 0)
				return 0;
			nrep = numrep < result_max ? numrep : result_max;
			lf.indep = cur->op == PL_RULE_CHOOSELEAF_INDEP ||
				   cur->op == PL_RULE_CHOOSE_INDEP;
			spec_step(cx, ncx, map->buckets[-1 - take], nrep,
				  numrep, cur->arg2,
				  cur->op == PL_RULE_CHOOSELEAF_FIRSTN ||
					  cur->op == PL_RULE_CHOOSELEAF_INDEP,
				  &lf);
			return 1;
		case PL_RULE_EMIT:
			return 0;
		default:
			break;
		}
	}
	return 0;
}

/* Ceph's crush_do_rule for one input; `drawn`: spec_rule_start guessed
 * the first choose step already. */
static int run_rule(const struct choose_ctx *ccx, const struct pl_rule *rule,
		    int *result, int result_max, int drawn)
{
	const pl_map *map = ccx->map;
	struct pl_work *cw = ccx->work;
	struct choose_ctx cx = *ccx;
	int *w, *o, *c, *tmp;
	int result_len = 0, wsize = 0, osize, recurse_to_leaf;
	uint32_t step;
	int i, numrep;
	/* Ceph counted choose_total_tries as retries, not tries: add one.
	 * The local tries were always retries and need no adjustment. */
	int choose_tries = (int)map->choose_total_tries + 1;
	int choose_leaf_tries = 0;
	int choose_local_retries = (int)map->choose_local_tries;
	int choose_local_fallback_retries =
		(int)map->choose_local_fallback_tries;
	int vary_r = map->chooseleaf_vary_r;
	int stable = map->chooseleaf_stable;

	w = cw->a;
	o = cw->b;
	c = cw->c;

	for (step = 0; step < rule->len; step++) {
		int firstn = 0;
		const struct pl_rule_step *cur = &rule->steps[step];

		switch (cur->op) {
		case PL_RULE_TAKE:
			if ((cur->arg1 >= 0 && cur->arg1 < map->max_devices) ||
			    (-1 - cur->arg1 >= 0 &&
			     -1 - cur->arg1 < map->max_buckets &&
			     map->buckets[-1 - cur->arg1])) {
				w[0] = cur->arg1;
				wsize = 1;
			}
			break;
		case PL_RULE_SET_CHOOSE_TRIES:
			if (cur->arg1 > 0)
				choose_tries = cur->arg1;
			break;
		case PL_RULE_SET_CHOOSELEAF_TRIES:
			if (cur->arg1 > 0)
				choose_leaf_tries = cur->arg1;
			break;
		case PL_RULE_SET_CHOOSE_LOCAL_TRIES:
			if (cur->arg1 >= 0)
				choose_local_retries = cur->arg1;
			break;
		case PL_RULE_SET_CHOOSE_LOCAL_FALLBACK_TRIES:
			if (cur->arg1 >= 0)
				choose_local_fallback_retries = cur->arg1;
			break;
		case PL_RULE_SET_CHOOSELEAF_VARY_R:
			if (cur->arg1 >= 0)
				vary_r = cur->arg1;
			break;
		case PL_RULE_SET_CHOOSELEAF_STABLE:
			if (cur->arg1 >= 0)
				stable = cur->arg1;
			break;
		case PL_RULE_CHOOSELEAF_FIRSTN:
		case PL_RULE_CHOOSE_FIRSTN:
			firstn = 1;
			/* fall through */
		case PL_RULE_CHOOSELEAF_INDEP:
		case PL_RULE_CHOOSE_INDEP:
			if (wsize == 0)
				break;
			recurse_to_leaf = cur->op == PL_RULE_CHOOSELEAF_FIRSTN ||
					  cur->op == PL_RULE_CHOOSELEAF_INDEP;
			osize = 0;
			for (i = 0; i < wsize; i++) {
				int bno;

				numrep = cur->arg1;
				if (numrep <= 0) {
					numrep += result_max;
					if (numrep <= 0)
						continue;
				}
				bno = -1 - w[i];
				if (bno < 0 || bno >= map->max_buckets ||
				    !map->buckets[bno])
					continue; /* e.g. PL_ITEM_NONE */
				if (firstn) {
					int recurse_tries;
					struct spec_leaf lf = { 0, (unsigned)vary_r,
								(unsigned)stable };

					if (!drawn)
						spec_step(&cx, 1, map->buckets[bno],
							  numrep < result_max - osize ?
								  numrep : result_max - osize,
							  numrep, cur->arg2,
							  recurse_to_leaf, &lf);
					drawn = 0;

					if (choose_leaf_tries)
						recurse_tries = choose_leaf_tries;
					else if (map->chooseleaf_descend_once)
						recurse_tries = 1;
					else
						recurse_tries = choose_tries;
					osize += choose_firstn(
						&cx, map->buckets[bno], numrep,
						cur->arg2, o + osize, 0,
						result_max - osize,
						(unsigned)choose_tries,
						(unsigned)recurse_tries,
						(unsigned)choose_local_retries,
						(unsigned)choose_local_fallback_retries,
						recurse_to_leaf,
						(unsigned)vary_r,
						(unsigned)stable, c + osize, 0);
				} else {
					int out_size = numrep < result_max - osize ?
						numrep : result_max - osize;
					struct spec_leaf lf = { 1, 0, 0 };

					if (!drawn)
						spec_step(&cx, 1, map->buckets[bno],
							  out_size, numrep, cur->arg2,
							  recurse_to_leaf, &lf);
					drawn = 0;
					choose_indep(&cx, map->buckets[bno],
						     out_size, numrep, cur->arg2,
						     o + osize, 0,
						     (unsigned)choose_tries,
						     choose_leaf_tries ?
							(unsigned)choose_leaf_tries : 1,
						     recurse_to_leaf, c + osize,
						     0);
					osize += out_size;
				}
			}
			if (recurse_to_leaf)
				memcpy(o, c, (size_t)osize * sizeof(*o));
			tmp = o;
			o = w;
			w = tmp;
			wsize = osize;
			break;
		case PL_RULE_EMIT:
			for (i = 0; i < wsize && result_len < result_max; i++)
				result[result_len++] = w[i];
			wsize = 0;
			break;
		default:
			break;
		}
	}
	return result_len;
}

/* The rule, if the workspace fits the map: a map changed since the
 * workspace was laid out (or never finalized) could need more permutation
 * space than it has, so nothing is mapped rather than memory
 * overwritten. */
static const struct pl_rule *rule_for(const pl_map *map, int ruleno,
				      const struct pl_work *cw)
{
	if ((uint32_t)ruleno >= map->max_rules || !map->rules[ruleno])
		return NULL;
	if (!map->finalized || cw->map != map ||
	    cw->generation != map->generation)
		return NULL;
	return map->rules[ruleno];
}

MAPPER_ENTRY(const pl_map *map, int ruleno, int x, int *result,
	     int result_max, const uint32_t *weight, int weight_max,
	     void *work, const pl_choose_args *ca)
{
	struct pl_work *cw = work;
	struct choose_ctx cx = { map, cw, weight, weight_max, x, ca,
				 &cw->memo[0] };
	const struct pl_rule *rule = rule_for(map, ruleno, cw);

	if (!rule)
		return 0;
	if (result_max > cw->result_max)
		result_max = cw->result_max;
	memo_begin(cx.memo);
	return run_rule(&cx, rule, result, result_max, 0);
}

BATCH_ENTRY(const pl_map *map, int ruleno, const int *xs, int n,
	    int *results, int result_max, int *lens, const uint32_t *weight,
	    int weight_max, void *work, const pl_choose_args *ca)
{
	struct pl_work *cw = work;
	const struct pl_rule *rule = rule_for(map, ruleno, cw);
	int rmax = result_max < cw->result_max ? result_max : cw->result_max;

	for (int i = 0; i < n; i += PL_MEMO_TABS) {
		struct choose_ctx cx[PL_MEMO_TABS];
		int k = n - i < PL_MEMO_TABS ? n - i : PL_MEMO_TABS, drawn;

		if (!rule) {
			for (int j = 0; j < k; j++)
				lens[i + j] = 0;
			continue;
		}
		for (int j = 0; j < k; j++) {
			cx[j] = (struct choose_ctx){ map, cw, weight,
						     weight_max, xs[i + j], ca,
						     &cw->memo[j] };
			memo_begin(cx[j].memo);
		}
		drawn = spec_rule_start(cx, k, rule, rmax);
		for (int j = 0; j < k; j++)
			lens[i + j] = run_rule(
				&cx[j], rule,
				results + (size_t)(i + j) * (size_t)result_max,
				rmax, drawn);
	}
}

#if !defined(PL_MAPPER_AVX2) && !defined(PL_MAPPER_AVX512)
/* Only a finalized map knows its workspace size (Ceph's crush_work_size
 * reads map->working_size, which crush_finalize computes); an unfinalized
 * one may have buckets larger than working_size says. */
size_t pl_work_size(const pl_map *m, int result_max)
{
	if (!m || !m->finalized)
		return 0;
	if (result_max < 0)
		result_max = 0;
	return sizeof(struct pl_work) + m->working_size +
	       3 * (size_t)result_max * sizeof(int);
}

int pl_work_init(const pl_map *m, void *v, int result_max)
{
	struct pl_work *w = v;
	char *p = (char *)v + sizeof(struct pl_work);
	int32_t b;

	if (!m || !m->finalized || !v)
		return -EINVAL; /* nothing written */
	memset(w, 0, sizeof(*w));
	w->map = m;
	w->generation = m->generation;
	/* same 8-byte aligned layout pl_map_finalize sized */
	w->work = (struct pl_work_bucket **)p;
	p += ALIGN8((size_t)m->max_buckets * sizeof(struct pl_work_bucket *));
	for (b = 0; b < m->max_buckets; b++) {
		if (!m->buckets[b]) {
			w->work[b] = NULL;
			continue;
		}
		w->work[b] = (struct pl_work_bucket *)p;
		w->work[b]->perm_x = 0;
		w->work[b]->perm_n = 0;
		w->work[b]->perm = (uint32_t *)(p + sizeof(struct pl_work_bucket));
		p += ALIGN8(sizeof(struct pl_work_bucket) +
			    m->buckets[b]->size * sizeof(uint32_t));
	}
	w->result_max = result_max < 0 ? 0 : result_max;
	w->a = (int *)p;
	w->b = w->a + w->result_max;
	w->c = w->b + w->result_max;
	return 0;
}

const uint32_t *pl_work_choose_tries(const void *work, int *n)
{
	const struct pl_work *w = work;

	*n = PL_CHOOSE_TRIES_MAX;
	return w->choose_tries;
}

int pl_do_rule(const pl_map *map, int ruleno, int x, int *result,
	       int result_max, const uint32_t *weight, int weight_max,
	       void *work)
{
	return pl_do_rule_args(map, ruleno, x, result, result_max, weight,
			       weight_max, work, NULL);
}

int pl_do_rule_args(const pl_map *map, int ruleno, int x, int *result,
		    int result_max, const uint32_t *weight, int weight_max,
		    void *work, const pl_choose_args *ca)
{
#ifdef PL_HAVE_MAPPER_AVX512
	/* GCC caches the CPU's features at startup: one load and a test */
	if (__builtin_cpu_supports("avx512f") &&
	    __builtin_cpu_supports("avx512vl"))
		return pl_do_rule_args_avx512(map, ruleno, x, result,
					      result_max, weight, weight_max,
					      work, ca);
#endif
#ifdef PL_HAVE_MAPPER_AVX2
	if (__builtin_cpu_supports("avx2"))
		return pl_do_rule_args_avx2(map, ruleno, x, result, result_max,
					    weight, weight_max, work, ca);
#endif
	return do_rule_args(map, ruleno, x, result, result_max, weight,
			    weight_max, work, ca);
}

void pl_do_rule_batch(const pl_map *map, int ruleno, const int *xs, int n,
		      int *results, int result_max, int *lens,
		      const uint32_t *weight, int weight_max, void *work,
		      const pl_choose_args *ca)
{
#ifdef PL_HAVE_MAPPER_AVX512
	if (__builtin_cpu_supports("avx512f") &&
	    __builtin_cpu_supports("avx512vl")) {
		pl_do_rule_batch_avx512(map, ruleno, xs, n, results,
					result_max, lens, weight, weight_max,
					work, ca);
		return;
	}
#endif
#ifdef PL_HAVE_MAPPER_AVX2
	if (__builtin_cpu_supports("avx2")) {
		pl_do_rule_batch_avx2(map, ruleno, xs, n, results, result_max,
				      lens, weight, weight_max, work, ca);
		return;
	}
#endif
	do_rule_batch(map, ruleno, xs, n, results, result_max, lens, weight,
		      weight_max, work, ca);
}
#endif
