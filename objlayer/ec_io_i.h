/*
 * ec_io_i.h - shared by ec_io.c (an erasure-coded object's shards: the
 * callbacks, reads, recovery), ec_write.c (its changes: writes and
 * truncates under undo records) and ec_pg.c (PG-wide work: statistics,
 * backfill, purge, scrub).  Not public.
 */
#ifndef CRUSHFS_EC_IO_I_H
#define CRUSHFS_EC_IO_I_H

#include <stdint.h>

#include "ec_object.h"
#include "objindex.h"
#include "objlayer_i.h"
#include "objstore.h"
#include "placement.h"

#define EC_MAX_WIDTH CFS_MAX_REP

/* One operation's view of the object's shards. */
struct ecx {
	objlayer *ol;
	cfs_cluster *c;
	const struct objop *op;
	const char *name;
	int width;
	struct ec_stripe s;
	struct ec_codec *codec;
	int osd[EC_MAX_WIDTH];	  /* acting[i] when usable, else -1 */
	cfs_obj *o[EC_MAX_WIDTH]; /* shard files opened to be written */
	uint64_t version;	  /* what a good shard holds (reads) */
	uint64_t bad_acting;	  /* acting shards read around via a stray */
	uint64_t known_stale;	  /* ecx_stale_shards(): behind, not damaged */
	uint64_t rotten;	  /* shards the store refused to change */
};

static inline uint32_t sps_of(const struct ecx *x, int i)
{
	return cfs_shard_ps(x->op->ps, x->width, i);
}

static inline uint64_t usable(const struct ecx *x)
{
	uint64_t mask = 0;

	for (int i = 0; i < x->width; i++)
		if (x->osd[i] >= 0)
			mask |= 1ULL << i;
	return mask;
}

static inline int popcount64(uint64_t v)
{
	return __builtin_popcountll(v);
}

int ecx_init(struct ecx *x, objlayer *ol, const struct objop *op,
	     const char *name);
void ecx_done(struct ecx *x);
/* the ops' common start (min_size checked); _existing: *oi from the
 * index, -ENOENT (nothing begun) when the object is not there */
int ecx_begin(objlayer *ol, const struct objop *op, const char *name,
	      struct ecx *x, const char *what);
int ecx_begin_existing(objlayer *ol, const struct objop *op, const char *name,
		       struct ecx *x, const char *what,
		       struct cfs_objinfo *oi);
int ecx_shard_file(struct ecx *x, int i, cfs_obj **out);
int ecx_shard_truncate(void *arg, int i, uint64_t len);
void ecx_object_of(struct ecx *x, uint64_t avoid, struct ec_object *o,
		   struct ec_shard_io *io);
int ecx_stale_shards(struct ecx *x, uint64_t *stale);
void ecx_recover_stale(struct ecx *x, const struct cfs_objinfo *oi,
		       uint64_t *stale);
int ecx_short_of_shards(struct ecx *x, const char *what);
void ecx_note_bad(struct ecx *x, uint64_t bad);
/* ec_pg.c: shard i of the object rebuilt on osd t by decode from k
 * current shards, wherever they are */
int ecx_rebuild_shard(objlayer *ol, const struct objop *op, const char *name,
		      const struct cfs_objinfo *oi, int i, int t);
/* ec_write.c: an interrupted change undone from its record */
int ecx_undo_apply(cfs_cluster *c, int64_t pool, uint32_t ps,
		   const char *name, const void *record, size_t len);

#endif
