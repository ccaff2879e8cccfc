/*
 * reccache.c - the index record a replicated write last set, per object,
 * for the next write of the same object.
 *
 * A write reads the object's record first (its version, for the copy
 * check, and its size); tar writes a small file in 10 KiB blocks, so
 * all but the first of those reads fetched the record the write before
 * had just set (a RocksDB read per WRITE, 5.7% of the daemon in an
 * untar, docs/performance.md).  An entry is valid while the name stem's
 * generation (objindex.h cfs_index_stem_gen) has not moved since it was
 * stored; every record change bumps it after its commit, under the
 * object's write lock, so a writer holding that lock that finds the
 * generation unmoved knows the record is the one stored.  An entry is
 * stored only when the write's own record was the stem's one change
 * since gen0 (ol_bytes_noted's rule): a change racing in leaves none.
 */
#include <string.h>

#include "objlayer_i.h"
#include "util.h"

static struct ol_rec_slot *slot_of(objlayer *ol, const char *name)
{
	return &ol->recs[cfs_fnv1a(name, strlen(name)) % OL_REC_SLOTS];
}

int ol_rec_get(objlayer *ol, int64_t pool, const char *name,
	       struct cfs_objinfo *oi)
{
	struct ol_rec_slot *s = slot_of(ol, name);
	uint64_t gen = cfs_index_stem_gen(ol->c, name);
	int hit;

	pthread_mutex_lock(&ol->recs_lock);
	hit = s->valid && s->pool == pool && s->gen == gen &&
	      !strcmp(s->name, name);
	if (hit)
		*oi = s->oi;
	pthread_mutex_unlock(&ol->recs_lock);
	return hit ? 0 : cfs_index_get(ol->c, pool, name, oi);
}

void ol_rec_noted(objlayer *ol, int64_t pool, const char *name,
		  const struct cfs_objinfo *oi, uint64_t gen0)
{
	struct ol_rec_slot *s = slot_of(ol, name);

	if (strlen(name) >= sizeof(s->name))
		return;
	pthread_mutex_lock(&ol->recs_lock);
	if (cfs_index_stem_gen(ol->c, name) == gen0 + 1) {
		s->pool = pool;
		s->gen = gen0 + 1;
		s->oi = *oi;
		strcpy(s->name, name);
		s->valid = 1;
	}
	pthread_mutex_unlock(&ol->recs_lock);
}
