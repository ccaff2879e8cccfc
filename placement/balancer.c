/*
 * balancer.c - the upmap balancer: OSDMap::calc_pg_upmaps of Ceph 16.2
 * (with build_pool_pgs_info, calc_deviations, fill_overfull_underfull,
 * try_drop_remap_overfull/underfull, try_pg_upmap, find_best_remap,
 * add_remap_pair) for one pool (replicated, or erasure with its shard
 * positions kept), in aggressive mode with its local
 * fallback retries.  Ceph shuffles the PGs it tries with a random seed;
 * here the shuffle takes the caller's seed, so a plan can be reproduced.
 *
 * Like Ceph, the PG-per-OSD bookkeeping moves a PG from one OSD to the
 * other as each pair is added or dropped (it does not re-run CRUSH), and
 * a change is kept only when it lowers the sum of squared deviations.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "crush_i.h"

struct bal {
	const pl_map *m;
	int rule, size, n; /* n: OSD ids 0..n-1 */
	int can_shift;	   /* replicated: a gone OSD's place closes up */
	const struct pl_osd_view *v;
	struct pl_balance_pg *pgs;
	int npgs;
	size_t words; /* per OSD: a bitset of PG indexes */
	uint64_t *by_osd, *tmp;
	int *count, *tcount;
	float *weight; /* rule share x reweight; 0: not in the rule */
	float per_weight;
	float *dev;	/* deviation per OSD */
	int *order;	/* OSDs with weight, by deviation ascending */
	int norder;
	uint64_t rng;
};

static int has(const uint64_t *set, size_t words, int osd, int pg)
{
	return (set[(size_t)osd * words + (size_t)pg / 64] >> (pg % 64)) & 1;
}

static void put(uint64_t *set, int *count, size_t words, int osd, int pg,
		int on)
{
	uint64_t *w = &set[(size_t)osd * words + (size_t)pg / 64];
	uint64_t bit = 1ull << (pg % 64);

	if (!!(*w & bit) == !!on)
		return;
	*w ^= bit;
	count[osd] += on ? 1 : -1;
}

/* the PG's raw set with its current upmap applied (pg_to_raw_upmap) */
static int raw_upmap(const struct bal *b, const struct pl_balance_pg *p,
		     int *out)
{
	struct pl_pg_overrides o = { .items = (const int(*)[2])p->items,
				     .nitems = p->nitems,
				     .primary_temp = -1 };

	memcpy(out, p->raw, sizeof(int) * (size_t)p->nraw);
	if (p->nupmap) {
		o.upmap = p->upmap;
		o.nupmap = p->nupmap;
	}
	return pl_pg_apply_upmap(b->v, &o, out, p->nraw);
}

static int cmp_dev(const void *a, const void *b, void *ctx)
{
	const struct bal *s = ctx;
	int x = *(const int *)a, y = *(const int *)b;

	/* std::multimap<float,int> filled in OSD order: ties keep it */
	if (s->dev[x] != s->dev[y])
		return s->dev[x] < s->dev[y] ? -1 : 1;
	return (x > y) - (x < y);
}

/* insertion sort (qsort_r is not C11); OSD counts are small */
static void sort_order(struct bal *b)
{
	for (int i = 1; i < b->norder; i++) {
		int x = b->order[i], j = i;

		while (j > 0 && cmp_dev(&b->order[j - 1], &x, b) > 0) {
			b->order[j] = b->order[j - 1];
			j--;
		}
		b->order[j] = x;
	}
}

/* calc_deviations over counts: the sum of squares; *maxdev the largest
 * |deviation|; fills dev[] */
static float deviations(struct bal *b, const int *count, float *dev,
			float *maxdev)
{
	float ss = 0;

	*maxdev = 0;
	for (int o = 0; o < b->n; o++) {
		float d;

		if (b->weight[o] == 0) {
			dev[o] = 0;
			continue;
		}
		d = (float)count[o] - b->weight[o] * b->per_weight;
		dev[o] = d;
		ss += d * d;
		if (fabsf(d) > *maxdev)
			*maxdev = fabsf(d);
	}
	return ss;
}

static uint32_t rnd(struct bal *b)
{
	/* xorshift64*: a reproducible stand-in for Ceph's shuffle engine */
	b->rng ^= b->rng >> 12;
	b->rng ^= b->rng << 25;
	b->rng ^= b->rng >> 27;
	return (uint32_t)((b->rng * 2685821657736338717ull) >> 32);
}

static void shuffle(struct bal *b, int *v, int n)
{
	for (int i = n - 1; i > 0; i--) {
		int j = (int)(rnd(b) % (uint32_t)(i + 1)), t = v[i];

		v[i] = v[j];
		v[j] = t;
	}
}

/* one proposed change: a PG's new items (nitems 0: drop them all) */
struct change {
	int pg;
	int nitems;
	int items[PL_MAX_UP_ACTING][2];
};

/* try_drop_remap_overfull / _underfull: drop the pairs of one PG that
 * map into (to == osd) or out of (from == osd) the OSD */
static int try_drop(struct bal *b, const int *cand, int ncand, int osd,
		    int into, struct change *ch)
{
	for (int k = 0; k < ncand; k++) {
		struct pl_balance_pg *p = &b->pgs[cand[k]];
		int kept = 0;

		if (!p->nitems)
			continue;
		for (int i = 0; i < p->nitems; i++) {
			int from = p->items[i][0], to = p->items[i][1];

			if ((into ? to : from) == osd) {
				if (to >= 0 && to < b->n)
					put(b->tmp, b->tcount, b->words, to,
					    cand[k], 0);
				if (from >= 0 && from < b->n)
					put(b->tmp, b->tcount, b->words, from,
					    cand[k], 1);
			} else {
				ch->items[kept][0] = from;
				ch->items[kept][1] = to;
				kept++;
			}
		}
		if (kept != p->nitems) {
			ch->pg = cand[k];
			ch->nitems = kept;
			return 1;
		}
	}
	return 0;
}

/* try_pg_upmap + find_best_remap + add_remap_pair for one PG */
static int try_upmap(struct bal *b, int pg, const uint8_t *over,
		     const int *under, int nunder, const int *more,
		     int nmore, struct change *ch)
{
	struct pl_balance_pg *p = &b->pgs[pg];
	int orig[PL_MAX_UP_ACTING], norig, out[PL_MAX_UP_ACTING], nout;
	int any = 0, best = -1;
	float maxdev = 0;

	if (p->nupmap || p->nitems >= b->size)
		return 0; /* an admin's pg_upmap, or full items: left alone */
	norig = raw_upmap(b, p, orig);
	for (int i = 0; i < norig; i++)
		if (orig[i] >= 0 && orig[i] < b->n && over[orig[i]])
			any = 1;
	if (!any)
		return 0;
	if (pl_try_remap_rule(b->m, b->rule, b->size, over, b->n, under,
			      nunder, more, nmore, orig, norig, out, &nout) ||
	    nout != norig || !memcmp(orig, out, sizeof(int) * (size_t)norig))
		return 0;
	for (int i = 0; i < nout; i++) {
		int dup = 0;

		if (orig[i] == out[i])
			continue;
		for (int k = 0; k < p->nitems; k++)
			if (p->items[k][0] == orig[i] ||
			    p->items[k][1] == orig[i] ||
			    p->items[k][0] == out[i] ||
			    p->items[k][1] == out[i])
				dup = 1;
		if (dup || orig[i] < 0 || orig[i] >= b->n)
			continue; /* new remappings only */
		if (b->dev[orig[i]] > maxdev) {
			maxdev = b->dev[orig[i]];
			best = i;
		}
	}
	if (best < 0)
		return 0;
	put(b->tmp, b->tcount, b->words, orig[best], pg, 0);
	if (out[best] >= 0 && out[best] < b->n)
		put(b->tmp, b->tcount, b->words, out[best], pg, 1);
	ch->pg = pg;
	memcpy(ch->items, p->items, sizeof(p->items[0]) * (size_t)p->nitems);
	ch->items[p->nitems][0] = orig[best];
	ch->items[p->nitems][1] = out[best];
	ch->nitems = p->nitems + 1;
	return 1;
}

static int setup(struct bal *b)
{
	int *up = NULL;
	float total = 0, *share = calloc((size_t)b->n + 1, sizeof(float));
	int total_pgs = b->size * b->npgs, r;

	b->words = ((size_t)b->npgs + 63) / 64;
	b->by_osd = calloc((size_t)b->n * b->words + 1, sizeof(uint64_t));
	b->tmp = calloc((size_t)b->n * b->words + 1, sizeof(uint64_t));
	b->count = calloc((size_t)b->n + 1, sizeof(int));
	b->tcount = calloc((size_t)b->n + 1, sizeof(int));
	b->weight = calloc((size_t)b->n + 1, sizeof(float));
	b->dev = calloc((size_t)b->n + 1, sizeof(float));
	b->order = calloc((size_t)b->n + 1, sizeof(int));
	up = calloc(PL_MAX_UP_ACTING, sizeof(int));
	if (!share || !b->by_osd || !b->tmp || !b->count || !b->tcount ||
	    !b->weight || !b->dev || !b->order || !up) {
		free(share);
		free(up);
		return -ENOMEM;
	}
	r = pl_rule_osd_weights(b->m, b->rule, share, NULL, b->n);
	if (r) {
		free(share);
		free(up);
		return r;
	}
	/* get_osds_weight: the rule's share times the reweight */
	for (int o = 0; o < b->n; o++) {
		float w = o < b->v->max_osd ?
			(float)b->v->weight[o] / (float)0x10000 * share[o] : 0;

		b->weight[o] = w;
		total += w;
		if (w != 0)
			b->order[b->norder++] = o;
	}
	free(share);
	/* build_pool_pgs_info: each PG's up set */
	for (int i = 0; i < b->npgs; i++) {
		struct pl_balance_pg *p = &b->pgs[i];
		struct pl_pg_overrides o = { .items = (const int(*)[2])p->items,
					     .nitems = p->nitems,
					     .upmap = p->nupmap ? p->upmap : NULL,
					     .nupmap = p->nupmap,
					     .primary_temp = -1 };
		struct pl_up_acting ua;

		pl_pg_up_acting(b->v, b->can_shift, 0, p->raw, p->nraw, &o,
				&ua);
		for (int k = 0; k < ua.nup; k++)
			if (ua.up[k] >= 0 && ua.up[k] < b->n &&
			    b->weight[ua.up[k]] != 0)
				put(b->by_osd, b->count, b->words, ua.up[k], i,
				    1);
	}
	free(up);
	if (total == 0)
		return -ENODATA;
	b->per_weight = (float)total_pgs / total;
	return 0;
}

static void teardown(struct bal *b)
{
	free(b->by_osd);
	free(b->tmp);
	free(b->count);
	free(b->tcount);
	free(b->weight);
	free(b->dev);
	free(b->order);
}

static int balance_once(const pl_map *m, int rule, int size,
			const struct pl_osd_view *v, struct pl_balance_pg *pgs,
			int npgs, const struct pl_balance_opts *opts,
			struct pl_balance_stats *st)
{
	struct bal b = { .m = m, .rule = rule, .size = size, .v = v,
			 .pgs = pgs, .npgs = npgs,
			 .can_shift = !opts->erasure };
	float ss, maxdev, *tdev = NULL;
	int max = opts->max, max_dev = opts->max_deviation < 1 ? 1 :
						opts->max_deviation;
	int changed = 0, skip_overfull = 0, r;
	uint8_t *over = NULL, *skip = NULL;
	int *under = NULL, *more = NULL, *cand = NULL;

	b.n = v->max_osd;
	b.rng = opts->seed ? opts->seed : 0x9e3779b97f4a7c15ull;
	for (int i = 0; i < npgs; i++)
		pgs[i].changed = 0;
	r = setup(&b);
	if (r) {
		teardown(&b);
		return r == -ENODATA ? 0 : r;
	}
	over = calloc((size_t)b.n + 1, 1);
	skip = calloc((size_t)npgs + 1, 1);
	under = calloc((size_t)b.n + 1, sizeof(int));
	more = calloc((size_t)b.n + 1, sizeof(int));
	cand = calloc((size_t)npgs + 1, sizeof(int));
	tdev = calloc((size_t)b.n + 1, sizeof(float));
	if (!over || !skip || !under || !more || !cand || !tdev) {
		r = -ENOMEM;
		goto out;
	}
	ss = deviations(&b, b.count, b.dev, &maxdev);
	st->stddev_before = sqrtf(ss / (float)(b.norder ? b.norder : 1));
	st->maxdev_before = maxdev;
	if (maxdev <= (float)max_dev || max <= 0)
		goto done;

	while (max-- > 0) {
		int nunder = 0, nmore = 0, using_more_over = 0, any_over = 0;
		int retried = 0;
		struct change ch;

		sort_order(&b);
		/* fill_overfull_underfull */
		memset(over, 0, (size_t)b.n);
		for (int k = b.norder - 1; k >= 0; k--) {
			int o = b.order[k];

			if (b.dev[o] <= 0)
				break;
			if (b.dev[o] > (float)max_dev) {
				over[o] = 1;
				any_over = 1;
			}
		}
		for (int k = 0; k < b.norder; k++) {
			int o = b.order[k];

			if (b.dev[o] >= 0)
				break;
			if (b.dev[o] < -(float)max_dev)
				under[nunder++] = o;
			else
				more[nmore++] = o;
		}
		if (!any_over && !nunder)
			break;
		if (!any_over && nunder) {
			/* use the slightly overfull ones too */
			for (int k = b.norder - 1; k >= 0; k--) {
				int o = b.order[k];

				if (b.dev[o] <= 0)
					break;
				over[o] = 1;
			}
			using_more_over = 1;
		}
		memset(skip, 0, (size_t)npgs);
retry:
		memcpy(b.tmp, b.by_osd, sizeof(uint64_t) * (size_t)b.n * b.words);
		memcpy(b.tcount, b.count, sizeof(int) * (size_t)b.n);
		memset(&ch, 0, sizeof(ch));
		ch.pg = -1;
		/* overfull OSDs, fullest first */
		for (int k = b.norder - 1; k >= 0 && ch.pg < 0; k--) {
			int o = b.order[k], nc = 0;

			if (skip_overfull && nunder)
				break;
			if (b.dev[o] < 0)
				break;
			if (!using_more_over && b.dev[o] <= (float)max_dev)
				break;
			for (int pg = 0; pg < npgs; pg++)
				if (!skip[pg] && has(b.by_osd, b.words, o, pg))
					cand[nc++] = pg;
			if (opts->aggressive)
				shuffle(&b, cand, nc);
			if (try_drop(&b, cand, nc, o, 1, &ch))
				break;
			for (int c = 0; c < nc; c++)
				if (try_upmap(&b, cand[c], over, under, nunder,
					      more, nmore, &ch))
					break;
		}
		/* underfull OSDs: drop remaps that took PGs away */
		if (ch.pg < 0) {
			for (int k = 0; k < nunder && ch.pg < 0; k++) {
				int o = under[k], nc = 0;

				if (fabsf(b.dev[o]) < (float)max_dev)
					break;
				for (int pg = 0; pg < npgs; pg++)
					if (!skip[pg] && pgs[pg].nitems)
						cand[nc++] = pg;
				if (opts->aggressive)
					shuffle(&b, cand, nc);
				try_drop(&b, cand, nc, o, 0, &ch);
			}
		}
		if (ch.pg < 0) {
			if (!opts->aggressive || !skip_overfull)
				break;
			skip_overfull = 0;
			continue;
		}
		/* test the change: keep it only if it helps */
		{
			float nss = deviations(&b, b.tcount, tdev, &maxdev);

			if (nss >= ss) {
				if (!opts->aggressive)
					break;
				if (++retried >= opts->local_fallback_retries) {
					skip_overfull = !skip_overfull;
					continue;
				}
				skip[ch.pg] = 1;
				goto retry;
			}
			ss = nss;
			memcpy(b.by_osd, b.tmp,
			       sizeof(uint64_t) * (size_t)b.n * b.words);
			memcpy(b.count, b.tcount, sizeof(int) * (size_t)b.n);
			memcpy(b.dev, tdev, sizeof(float) * (size_t)b.n);
		}
		/* pack_upmap_results */
		pgs[ch.pg].nitems = ch.nitems;
		memcpy(pgs[ch.pg].items, ch.items,
		       sizeof(ch.items[0]) * (size_t)ch.nitems);
		pgs[ch.pg].changed = 1;
		changed++;
		if (maxdev <= (float)max_dev)
			break;
	}
done:
	{
		float md;

		ss = deviations(&b, b.count, b.dev, &md);
		st->stddev_after = sqrtf(ss / (float)(b.norder ? b.norder :
								  1));
		st->maxdev_after = md;
	}
	r = changed;
out:
	free(over);
	free(skip);
	free(under);
	free(more);
	free(cand);
	free(tdev);
	teardown(&b);
	return r;
}

static int entries(const struct pl_balance_pg *pgs, int npgs)
{
	int n = 0;

	for (int i = 0; i < npgs; i++)
		n += pgs[i].nitems > 0;
	return n;
}

/* a better plan: lower max deviation, then fewer entries, then stddev */
static int better(const struct pl_balance_stats *a, int ea,
		  const struct pl_balance_stats *b, int eb)
{
	if (a->maxdev_after != b->maxdev_after)
		return a->maxdev_after < b->maxdev_after;
	if (ea != eb)
		return ea < eb;
	return a->stddev_after < b->stddev_after;
}

int pl_balance_upmaps(const pl_map *m, int rule, int size,
		      const struct pl_osd_view *v, struct pl_balance_pg *pgs,
		      int npgs, const struct pl_balance_opts *opts,
		      struct pl_balance_stats *st)
{
	struct pl_balance_pg *orig = NULL, *best = NULL;
	struct pl_balance_stats bst = { 0 }, cur;
	struct pl_balance_opts o = *opts;
	int trials = opts->trials > 1 ? opts->trials : 1, bn = -1, be = 0;
	size_t bytes = sizeof(*pgs) * (size_t)(npgs > 0 ? npgs : 1);

	if (trials == 1)
		return balance_once(m, rule, size, v, pgs, npgs, opts,
				    st ? st : &cur);
	orig = malloc(bytes);
	best = malloc(bytes);
	if (!orig || !best) {
		free(orig);
		free(best);
		return -ENOMEM;
	}
	memcpy(orig, pgs, bytes);
	/* Ceph's plan depends on its shuffles; several seeds, the best
	 * plan kept */
	for (int t = 0; t < trials; t++) {
		int n;

		memcpy(pgs, orig, bytes);
		o.seed = opts->seed + (uint64_t)t * 0x9e3779b97f4a7c15ull;
		n = balance_once(m, rule, size, v, pgs, npgs, &o, &cur);
		if (n < 0) {
			bn = n;
			break;
		}
		if (bn < 0 || better(&cur, entries(pgs, npgs), &bst, be)) {
			bn = n;
			bst = cur;
			be = entries(pgs, npgs);
			memcpy(best, pgs, bytes);
		}
	}
	if (bn >= 0)
		memcpy(pgs, best, bytes);
	else
		memcpy(pgs, orig, bytes);
	if (st)
		*st = bst;
	free(orig);
	free(best);
	return bn;
}
