/*
 * kept.c - the intents a replicated write leaves in the object index for
 * the object's next writes (objindex.h cfs_index_intent_kept), and their
 * dropping in batches.
 *
 * Why: a write commits its intent before the first copy changes and its
 * record after the last, two RocksDB commits for each WRITE request; in
 * an untar of /usr/include those were 6.9 of the 9.1 commits per file
 * and the whole of the gap to passthrough_ll (docs/performance.md).  A
 * file is written in a run of WRITEs, and while the first one's intent is
 * still in the index it covers the others: their copies can only be
 * newer than the record, which is what the open after a crash settles
 * (the newest copy that verifies wins, scrub.c settle_object).  So the
 * later writes commit no intent, and their records need not be committed
 * one by one either: they wait in memory (osdsim objindex_kept.c), and
 * the intent goes later with the last of them, in one batch with other
 * objects' (one commit for up to OL_KEPT_HIGH - OL_KEPT_LOW objects).
 * Measured in an untar of /usr/include: 6.7 commits per file with the
 * intent kept, 9.1 before (docs/performance.md).
 *
 * The cost is at the open after a kill -9: every kept intent is an object
 * to settle (its copies read and verified).  So few are kept, of small
 * objects only (OL_KEPT_MAX_SIZE; a big write's two commits are a small
 * part of its cost): a writer that finds OL_KEPT_HIGH drops the oldest
 * down to OL_KEPT_LOW, and the mounted daemon's tick (about once a
 * second) those older than its last tick.  Dropping takes the object's lock, as every change of an intent
 * does, but only by trylock: an object being written keeps its intent
 * for the next round, and the dropper never waits on a lock order.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "objindex.h"
#include "objlayer_i.h"

/* objects one drop holds locked at once */
#define KEPT_LOCKS 32

struct ol_kept {
	int64_t pool;
	uint64_t tick;
	char *name;
};

void ol_kept_init(objlayer *ol)
{
	pthread_mutex_init(&ol->kept_lock, NULL);
}

void ol_kept_fini(objlayer *ol)
{
	for (size_t i = 0; i < ol->nkept; i++)
		free(ol->kept[i].name);
	free(ol->kept);
	ol->kept = NULL;
	ol->nkept = ol->capkept = 0;
	pthread_mutex_destroy(&ol->kept_lock);
}

/* Append under kept_lock; name is taken over (freed on failure). */
static int push(objlayer *ol, int64_t pool, uint64_t tick, char *name)
{
	if (ol->nkept == ol->capkept) {
		size_t cap = ol->capkept ? 2 * ol->capkept : 64;
		struct ol_kept *v = realloc(ol->kept, cap * sizeof(*v));

		if (!v) {
			free(name);
			return -ENOMEM;
		}
		ol->kept = v;
		ol->capkept = cap;
	}
	ol->kept[ol->nkept].pool = pool;
	ol->kept[ol->nkept].tick = tick;
	ol->kept[ol->nkept++].name = name;
	return 0;
}

int ol_kept_note(objlayer *ol, int64_t pool, const char *name)
{
	char *n = strdup(name);
	int r;

	pthread_mutex_lock(&ol->kept_lock);
	/* out of memory: the intent stays until the open after the next
	 * crash settles it, or is dropped by the object's next change */
	r = n ? push(ol, pool, ol->kept_tick, n) : -ENOMEM;
	r = !r && ol->nkept >= OL_KEPT_HIGH;
	pthread_mutex_unlock(&ol->kept_lock);
	return r;
}

/* Put back the entries of v still named (in use, or not attempted) at
 * the front, in their order: the next round tries them first, and the
 * ticks stay in order. */
static void put_back(objlayer *ol, struct ol_kept *v, size_t n)
{
	size_t m = 0;

	for (size_t i = 0; i < n; i++)
		if (v[i].name)
			v[m++] = v[i];
	if (!m)
		return;
	pthread_mutex_lock(&ol->kept_lock);
	if (ol->nkept + m > ol->capkept) {
		size_t cap = ol->nkept + m;
		struct ol_kept *w = realloc(ol->kept, cap * sizeof(*w));

		if (!w) { /* these intents wait for the open after a crash,
			   * or the objects' next change */
			pthread_mutex_unlock(&ol->kept_lock);
			for (size_t i = 0; i < m; i++)
				free(v[i].name);
			return;
		}
		ol->kept = w;
		ol->capkept = cap;
	}
	memmove(ol->kept + m, ol->kept, ol->nkept * sizeof(*v));
	memcpy(ol->kept, v, m * sizeof(*v));
	ol->nkept += m;
	pthread_mutex_unlock(&ol->kept_lock);
}

int ol_kept_drop(objlayer *ol, int which)
{
	pthread_rwlock_t *held[KEPT_LOCKS];
	struct ol_kept *v;
	int64_t *pools = NULL;
	char **names = NULL;
	size_t n = 0, nok = 0;
	int r = 0;

	pthread_mutex_lock(&ol->kept_lock);
	if (which == OL_KEPT_ALL)
		n = ol->nkept;
	else if (which == OL_KEPT_OLDEST)
		n = ol->nkept > OL_KEPT_LOW ? ol->nkept - OL_KEPT_LOW : 0;
	else /* entries are in tick order: the aged ones are a prefix */
		while (n < ol->nkept && ol->kept[n].tick < ol->kept_tick)
			n++;
	if (which == OL_KEPT_AGED)
		ol->kept_tick++;
	v = n ? malloc(n * sizeof(*v)) : NULL;
	if (v) {
		memcpy(v, ol->kept, n * sizeof(*v));
		memmove(ol->kept, ol->kept + n,
			(ol->nkept - n) * sizeof(*v));
		ol->nkept -= n;
	}
	pthread_mutex_unlock(&ol->kept_lock);
	if (!v)
		return n ? -ENOMEM : 0;
	pools = malloc(n * sizeof(*pools));
	names = malloc(n * sizeof(*names));
	if (!pools || !names)
		r = -ENOMEM;
	/* in chunks of at most KEPT_LOCKS objects locked at once (a thread
	 * holding more trips ThreadSanitizer's deadlock detector, which
	 * tracks 64); one commit per chunk */
	for (size_t i = 0; !r && i < n;) {
		size_t nheld = 0;

		nok = 0;
		for (; i < n && nheld < KEPT_LOCKS; i++) {
			pthread_rwlock_t *lk = ol_objlock(ol, v[i].name);
			size_t h = 0;

			/* two names may share a stripe: locked once */
			while (h < nheld && held[h] != lk)
				h++;
			if (h == nheld) {
				if (pthread_rwlock_trywrlock(lk))
					continue; /* being read or written */
				held[nheld++] = lk;
			}
			pools[nok] = v[i].pool;
			names[nok++] = v[i].name;
			v[i].name = NULL;
		}
		if (nok)
			r = cfs_index_drop_kept(ol->c, ol, nok, pools, names);
		while (nheld)
			pthread_rwlock_unlock(held[--nheld]);
		for (size_t k = 0; k < nok; k++)
			free(names[k]);
	}
	put_back(ol, v, n);
	free(pools);
	free(names);
	free(v);
	return r;
}
