/*
 * spec_i.h - speculative straw2 draws for the mapper (mapper.c only).
 *
 * One straw2 draw is a chain of rjenkins mixes (hash_i.h) some 130
 * dependent operations long, and a mapping is a dozen such draws one after
 * the other: root, rack, host, then the device in the host, for each
 * replica (bench/crush_bench.sh, perf: 85% of the time in the draw, the
 * core waiting on the chain).  But the replicas do not depend on each
 * other until a collision: replica k starts its descent with r = k.  So
 * before a choose step runs we walk every replica's likely path at once,
 * level by level, hashing all their items in one pass (independent
 * chains, which the core overlaps), and keep each draw in a small memo.
 * The step then runs exactly as Ceph's crush_choose_firstn/indep do; a
 * draw it asks for is read from the memo when the guess was right, and
 * computed as before when not.  A draw is a pure function of (bucket, x,
 * r, weight-set position), which is the memo's key, so a wrong guess
 * costs time, never a different answer.
 */
#ifndef CRUSHFS_SPEC_I_H
#define CRUSHFS_SPEC_I_H

#include <stdint.h>
#include <string.h>

#include "crush_i.h"
#include "hash_i.h"
#include "straw2_i.h"

struct choose_ctx {
	const pl_map *map;
	struct pl_work *work;
	const uint32_t *weight;
	int weight_max;
	int x;
	const struct pl_choose_args *ca; /* NULL: plain weights */
	struct pl_memo_tab *memo;	 /* this input's draws */
};

/* the bucket's choose_arg (Ceph: &choose_args[-1 - in->id]); a set made
 * before a bucket was added has no slot for it */
static inline const struct pl_choose_arg *
arg_of(const struct choose_ctx *cx, const struct pl_bucket *in)
{
	uint32_t i = (uint32_t)(-1 - in->id);

	return cx->ca && i < cx->ca->size ? &cx->ca->args[i] : NULL;
}

/* ---- the memo: valid for one input x (one pl_do_rule call) ---- */

static inline void memo_begin(struct pl_memo_tab *t)
{
	/* a stamp reused after 2^32 mappings must not revive old entries */
	if (++t->stamp == 0) {
		memset(t->e, 0, sizeof(t->e));
		t->stamp = 1;
	}
	t->used = 0;
}

/* The position a draw depends on: the weight set straw2_arrays picks, or
 * none (0) without weight sets. */
static inline int memo_pos(const struct pl_choose_arg *arg, int outpos)
{
	if (!arg || !arg->weight_set)
		return 0;
	if ((uint32_t)outpos >= arg->weight_set_positions)
		return (int)arg->weight_set_positions - 1;
	return outpos;
}

/*
 * Open addressing, linear probing: the slot holding (id, r, pos), or the
 * free (stale) slot where it would go.  At most half the slots are filled
 * per mapping (memo_fill), so a probe always ends.
 */
static inline struct pl_memo *memo_find(struct pl_memo_tab *t, int32_t id,
					int r, int pos)
{
	uint32_t h = (uint32_t)id + ((uint32_t)r << 8) + ((uint32_t)pos << 16);
	/* a multiplicative hash: its top bits depend on all of the key */
	uint32_t i = (h * 0x9e3779b1u) >> (32 - PL_MEMO_BITS);

	for (;; i = (i + 1) % PL_MEMO_SLOTS) {
		struct pl_memo *e = &t->e[i];

		if (e->stamp != t->stamp ||
		    (e->id == id && e->r == r && e->pos == pos))
			return e;
	}
}

static inline int memo_hit(const struct pl_memo_tab *t,
			   const struct pl_memo *e)
{
	return e->stamp == t->stamp;
}

/* e from memo_find, not a hit */
static inline void memo_fill(struct pl_memo_tab *t, struct pl_memo *e,
			     int32_t id, int r, int pos, int item)
{
	if (t->used >= PL_MEMO_SLOTS / 2)
		return;
	t->used++;
	e->stamp = t->stamp;
	e->id = id;
	e->r = r;
	e->pos = pos;
	e->item = item;
}

/* ---- several straw2 draws in one hash pass ---- */

#define SPEC_LANES 256	   /* items hashed per pass */
#define SPEC_BLOCK 16	   /* items per vector body */
#define SPEC_MAX_SIZE 32   /* larger buckets are drawn the ordinary way */
#define SPEC_WALKERS 32
#define SPEC_STEPS 16	   /* bound on a guessed descent */

struct spec_q {
	const struct pl_bucket *b;
	struct straw2_arrays a;
	int x, r, lane0;
	int pos;	   /* memo key: (b->id, r, pos) */
	struct pl_memo *e; /* where memo_find would put it */
};

/* items[k] = straw2 draw of q[k]: pl_straw2_choose's result, the hashes
 * of all the draws computed side by side */
static void spec_draw(struct spec_q *q, int nq, int *items)
{
	uint32_t xs[SPEC_LANES], ids[SPEC_LANES], rs[SPEC_LANES];
	uint32_t u[SPEC_LANES];
	int lanes = 0;

	/* the items side by side, no padding between buckets */
	for (int k = 0; k < nq; k++) {
		int n = (int)q[k].b->size;

		for (int i = 0; i < n; i++) {
			xs[lanes + i] = (uint32_t)q[k].x;
			ids[lanes + i] = (uint32_t)q[k].a.ids[i];
			rs[lanes + i] = (uint32_t)q[k].r;
		}
		q[k].lane0 = lanes;
		lanes += n;
	}
	for (; lanes % SPEC_BLOCK; lanes++)
		xs[lanes] = ids[lanes] = rs[lanes] = 0;
	for (int base = 0; base < lanes; base += SPEC_BLOCK)
		for (int i = 0; i < SPEC_BLOCK; i++)
			u[base + i] = crush_hash32_3(xs[base + i], ids[base + i],
						     rs[base + i]) & 0xffff;
	for (int k = 0; k < nq; k++) {
		unsigned int high = 0;
		int64_t high_draw = INT64_MIN;
		uint32_t *uk = u + q[k].lane0;

		if (q[k].b->hash != PL_HASH_RJENKINS1)
			memset(uk, 0, q[k].b->size * sizeof(*uk));
		straw2_pick(&q[k].a, uk, 0, q[k].b->size, &high, &high_draw);
		items[k] = q[k].b->items[high];
	}
}

/* ---- guessed descents ---- */

struct spec_walker {
	const struct choose_ctx *cx; /* its input */
	const struct pl_bucket *in;
	int r, pos;  /* the next draw: its r and its outpos */
	int rep;     /* the replica it guesses */
	int type;    /* the type it descends to */
	int leaf;    /* then on to a device (chooseleaf) */
	int live;
};

/* How the chooseleaf recursion derives its draw from the step's: firstn
 * (crush_choose_firstn: rep (0 when stable, else outpos) + sub_r, where
 * sub_r = r >> (vary_r - 1)) or indep (crush_choose_indep: rep + r, at
 * position rep). */
struct spec_leaf {
	int indep;
	unsigned int vary_r, stable;
};

/* Follow the item w drew, as the choose loops would. */
static void spec_advance(const pl_map *map, struct spec_walker *w, int item,
			 const struct spec_leaf *lf)
{
	const struct pl_bucket *b = NULL;
	int itemtype = 0;

	if (item >= map->max_devices) {
		w->live = 0;
		return;
	}
	if (item < 0) {
		if (-1 - item >= map->max_buckets ||
		    !(b = map->buckets[-1 - item])) {
			w->live = 0;
			return;
		}
		itemtype = b->type;
	}
	if (itemtype != w->type) {
		if (!b)
			w->live = 0;
		w->in = b;
		return;
	}
	if (!w->leaf || !b) {
		w->live = 0;
		return;
	}
	w->leaf = 0;
	w->type = 0;
	w->in = b;
	if (lf->indep) {
		w->r = w->rep + w->r;
		w->pos = w->rep;
	} else {
		w->r = (lf->stable ? 0 : w->pos) +
		       (lf->vary_r ? w->r >> ((lf->vary_r - 1) & 31) : 0);
	}
}

/* Walk the walkers down, drawing every live one's next bucket in one pass
 * per level, and leave the draws in their inputs' memos. */
static void spec_walk(struct spec_walker *ws, int nw,
		      const struct spec_leaf *lf)
{
	struct spec_q q[SPEC_WALKERS];
	int qw[SPEC_WALKERS], items[SPEC_WALKERS];

	for (int step = 0; step < SPEC_STEPS; step++) {
		int nq = 0, lanes = 0;

		for (int i = 0; i < nw; i++) {
			struct spec_walker *w = &ws[i];
			const struct choose_ctx *cx = w->cx;

			for (int hop = 0; w->live && hop < SPEC_STEPS; hop++) {
				const struct pl_bucket *in = w->in;
				const struct pl_choose_arg *arg = arg_of(cx, in);
				int pos = memo_pos(arg, w->pos), n;
				struct pl_memo *e;

				if (in->alg != PL_BUCKET_STRAW2 ||
				    in->size == 0 || in->size > SPEC_MAX_SIZE) {
					w->live = 0;
					break;
				}
				e = memo_find(cx->memo, in->id, w->r, pos);
				if (memo_hit(cx->memo, e)) {
					spec_advance(cx->map, w, e->item, lf);
					continue;
				}
				n = (int)in->size;
				if (lanes + n <= SPEC_LANES) {
					q[nq].b = in;
					q[nq].x = cx->x;
					q[nq].r = w->r;
					q[nq].pos = pos;
					q[nq].e = e;
					straw2_arrays(in, arg, w->pos, &q[nq].a);
					qw[nq++] = i;
					lanes += n;
				}
				break;
			}
		}
		if (!nq)
			return;
		spec_draw(q, nq, items);
		for (int k = 0; k < nq; k++) {
			struct spec_walker *w = &ws[qw[k]];
			const struct choose_ctx *cx = w->cx;

			/* the free slot found before the draw is still on the
			 * key's probe path (slots only fill up); if another
			 * walker of the input took it meanwhile, this draw is
			 * not kept, and will be drawn again if asked for */
			if (!memo_hit(cx->memo, q[k].e))
				memo_fill(cx->memo, q[k].e, q[k].b->id, q[k].r,
					  q[k].pos, items[k]);
			spec_advance(cx->map, w, items[k], lf);
		}
	}
}

/*
 * Guess a choose step on bucket for inputs cx[0 .. ncx-1]: replica k
 * (k < nrep) draws with r = k at outpos k (firstn) or 0 (indep), and
 * SPEC_EXTRA more walkers take the first retries: firstn's r = rep +
 * ftotal, so r = nrep ... (guessed at the last replica's position);
 * indep's r = rep + numrep * ftotal.
 */
#define SPEC_EXTRA 1

static void spec_step(const struct choose_ctx *cx, int ncx,
		      const struct pl_bucket *bucket, int nrep, int numrep,
		      int type, int recurse_to_leaf,
		      const struct spec_leaf *lf)
{
	struct spec_walker ws[SPEC_WALKERS];
	int nw = 0;

	for (int c = 0; c < ncx; c++)
		for (int i = 0; i < nrep + SPEC_EXTRA && nw < SPEC_WALKERS;
		     i++) {
			int rep = i, r = i, pos = lf->indep ? 0 : i;

			if (i >= nrep && lf->indep) {
				rep = i - nrep;
				r = rep + numrep;
			} else if (i >= nrep) {
				rep = pos = nrep - 1;
			}
			ws[nw++] = (struct spec_walker){ &cx[c], bucket, r,
							 pos, rep, type,
							 recurse_to_leaf, 1 };
		}
	spec_walk(ws, nw, lf);
}

#endif
