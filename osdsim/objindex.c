/*
 * objindex.c - the object index: which objects exist, at which version and
 * size.  Ceph's PG log in miniature (pg_log_t / the object_info_t each
 * write bumps): it is what tells a missing copy from a hole, and which of
 * several differing copies is current.
 *
 * A RocksDB store at DIR/pglog (kv.h).  All keys:
 *
 *   "o" <pool be64> <object name>  -> <version le64> <size le64>
 *   "i" <pool be64> <object name>  -> <version le64> <size le64> <op u8>
 *                                     an intent: a change in flight (op 1
 *                                     write, 2 remove), written before the
 *                                     first copy is touched and deleted in
 *                                     the batch that records the result;
 *                                     a replicated write's may stay for
 *                                     the next writes of the object (kept,
 *                                     then dropped in batches by its
 *                                     owner: objlayer's kept.c)
 *   "u" <pool be64> <object name>  -> what undoes the intent's change
 *                                     (an erasure-coded object's shard
 *                                     sizes and overwritten bytes),
 *                                     written with the intent and
 *                                     deleted with it
 *   "v"                            -> <version le64>: versions below it
 *                                     may have been handed out
 *
 * Names sort by bytes, so the objects of one inode ("%llx." prefix) are one
 * range: removing a sparse 1 PiB file visits the objects it has, not the
 * 268 million it could have.
 *
 * Versions are cluster-wide and only grow (Ceph's eversion_t also never
 * goes back): a copy left on a down OSD before an object was removed and
 * recreated can never pass for the new one.  They are handed out from
 * memory and the high-water mark is persisted a block ahead, so a write
 * costs no extra RocksDB write for its version.
 *
 * Changes are not synced; cfs_index_sync() is (the fs's fsync calls it).
 * A kill -9 loses nothing (RocksDB's WAL is written at each commit).
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kv.h"
#include "osdsim_i.h"
#include "util.h"

#define VERSION_BLOCK 65536

size_t index_key(char tag, int64_t pool, const char *name, char *k,
		       size_t len)
{
	size_t n = name ? strlen(name) : 0;

	if (9 + n > len)
		return 0;
	k[0] = tag;
	for (int i = 0; i < 8; i++)
		k[1 + i] = (char)((uint64_t)pool >> (56 - 8 * i));
	memcpy(k + 9, name, n);
	return 9 + n;
}

static size_t stem_slot(const char *s, size_t n)
{
	char *end;
	unsigned long long ino;

	/* A file's stem is its inode in hex, and inodes are handed out in
	 * order: the inode itself spreads the files made together over
	 * distinct slots, where a hash let one in seven of 20,000 new files
	 * share a slot with a later one (and lose its cached st_blocks).
	 * Any stem maps to one slot always; that is all a slot needs. */
	errno = 0;
	ino = strtoull(s, &end, 16);
	if (n && !errno && (size_t)(end - s) == n)
		return ino % CFS_STEM_GENS;
	return cfs_fnv1a(s, n) % CFS_STEM_GENS;
}

void index_put64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

int index_open(cfs_cluster *c, char *err, size_t errlen)
{
	char path[4096];
	void *v = NULL;
	size_t vl;
	int r, existed;

	snprintf(path, sizeof(path), "%s/pglog", c->dir);
	existed = access(path, F_OK) == 0;
	if (c->rdonly) {
		if (!existed) {
			snprintf(err, errlen,
				 "%s: object index missing; open the cluster "
				 "read-write once (e.g. 'crushfs --cluster %s "
				 "scrub') to rebuild it from the OSDs",
				 path, c->dir);
			return CFS_ECORRUPT;
		}
		r = kv_open_rocksdb_rdonly(path, &c->index);
	} else {
		r = kv_open_rocksdb(path, 1, &c->index);
	}
	if (r) {
		snprintf(err, errlen, "%s: cannot open the object index: %s",
			 path, cfs_strerror(r));
		return r;
	}
	c->index_new = !existed;
	if (kept_open(c)) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	r = kv_get(c->index, "v", 1, &v, &vl);
	if (r == 0 && vl == 8)
		c->version_next = get64(v);
	else if (r && r != -ENOENT) {
		free(v);
		snprintf(err, errlen, "%s: cannot read the object index: %s",
			 path, cfs_strerror(r));
		return r;
	}
	free(v);
	if (c->version_next == 0)
		c->version_next = 1;
	c->version_hw = c->version_next;
	pthread_mutex_init(&c->version_lock, NULL);
	return 0;
}

void index_close(cfs_cluster *c)
{
	if (!c->index)
		return;
	kept_close(c);
	kv_close(c->index);
	c->index = NULL;
	pthread_mutex_destroy(&c->version_lock);
}

int cfs_index_is_new(const cfs_cluster *c)
{
	return c->index_new;
}

uint64_t cfs_index_next_version(cfs_cluster *c, int *err)
{
	uint64_t v;

	*err = 0;
	pthread_mutex_lock(&c->version_lock);
	if (c->version_next >= c->version_hw) {
		unsigned char b[8];
		int r;

		index_put64(b, c->version_hw + VERSION_BLOCK);
		r = kv_put(c->index, "v", 1, b, 8);
		if (r) {
			pthread_mutex_unlock(&c->version_lock);
			*err = r;
			return 0;
		}
		c->version_hw += VERSION_BLOCK;
	}
	v = c->version_next++;
	pthread_mutex_unlock(&c->version_lock);
	return v;
}

/* The value of key (tag, name), which must be vlen bytes. */
static int get_value(cfs_cluster *c, char tag, int64_t pool, const char *name,
		     unsigned char *out, size_t want)
{
	char k[300];
	size_t kl = index_key(tag, pool, name, k, sizeof(k));
	void *v = NULL;
	size_t vl = 0;
	int r;

	if (!kl)
		return -ENAMETOOLONG;
	r = kv_get(c->index, k, kl, &v, &vl);
	if (r)
		return r;
	if (vl != want) {
		free(v);
		cfs_log(CFS_LOG_ERR, "%s/pglog: damaged entry for '%s'",
			c->dir, name);
		return CFS_ECORRUPT;
	}
	memcpy(out, v, want);
	free(v);
	return 0;
}

int cfs_index_get(cfs_cluster *c, int64_t pool, const char *name, struct cfs_objinfo *oi)
{
	unsigned char v[16];
	int r;

	if (kept_record(c, pool, name, oi))
		return 0;
	r = get_value(c, 'o', pool, name, v, sizeof(v));

	if (r)
		return r;
	oi->version = get64(v);
	oi->size = get64(v + 8);
	return 0;
}

int cfs_index_get_intent(cfs_cluster *c, int64_t pool, const char *name,
			 struct cfs_objinfo *next, int *op)
{
	unsigned char v[17];
	int r = get_value(c, 'i', pool, name, v, sizeof(v));

	if (r)
		return r;
	next->version = get64(v);
	next->size = get64(v + 8);
	*op = v[16];
	return 0;
}

/* An intent's key and value (next NULL: a remove); 0 or -errno. */
static int intent_kv(cfs_cluster *c, int64_t pool, const char *name,
		     const struct cfs_objinfo *next, char *k, size_t *kl,
		     unsigned char v[17])
{
	*kl = index_key('i', pool, name, k, 300);
	if (!*kl)
		return -ENAMETOOLONG;
	if (c->rdonly)
		return -EROFS;
	index_put64(v, next ? next->version : 0);
	index_put64(v + 8, next ? next->size : 0);
	v[16] = next ? CFS_INTENT_WRITE : CFS_INTENT_REMOVE;
	return 0;
}

int index_put_intent(cfs_cluster *c, int64_t pool, const char *name,
		     const struct cfs_objinfo *next)
{
	char k[300];
	unsigned char v[17];
	size_t kl;
	int r = intent_kv(c, pool, name, next, k, &kl, v);

	return r ? r : kv_put(c->index, k, kl, v, sizeof(v));
}

/* An intent (next NULL: a remove) with its undo record (undo NULL: none)
 * in one batch, and the record a kept intent covered with them. */
static int intent_batch(cfs_cluster *c, int64_t pool, const char *name,
			const struct cfs_objinfo *next, const void *undo,
			size_t len)
{
	char k[300];
	unsigned char v[17];
	size_t kl;
	kv_batch *b;
	int r = intent_kv(c, pool, name, next, k, &kl, v);

	if (r)
		return r;
	b = kv_batch_new();
	if (!b)
		return -ENOMEM;
	kept_batch_pending(c, b, pool, name);
	kv_batch_put(b, k, kl, v, sizeof(v));
	if (undo) {
		/* an intent is never there without its undo record */
		k[0] = 'u';
		kv_batch_put(b, k, kl, undo, len);
	}
	r = kv_batch_commit(c->index, b, 0);
	kv_batch_free(b);
	if (!r)
		kept_forget(c, pool, name);
	return r;
}

int cfs_index_intent(cfs_cluster *c, int64_t pool, const char *name,
		     const struct cfs_objinfo *next)
{
	return intent_batch(c, pool, name, next, NULL, 0);
}

/* keep: INDEX_KEEP (the intent stays), INDEX_DROP (it goes) or
 * INDEX_DROP_UNDO (it and its undo record go). */
enum { INDEX_KEEP, INDEX_DROP, INDEX_DROP_UNDO };

static int index_set(cfs_cluster *c, int64_t pool, const char *name,
		     const struct cfs_objinfo *oi, int how)
{
	char k[300];
	unsigned char v[16];
	size_t kl = index_key('o', pool, name, k, sizeof(k));
	kv_batch *b;
	int r;

	if (!kl)
		return -ENAMETOOLONG;
	if (c->rdonly)
		return -EROFS;
	/* covered by its kept intent: the record waits in memory for the
	 * batch that drops the intent (objindex_kept.c) */
	if (how == INDEX_KEEP && oi && kept_set_record(c, pool, name, oi)) {
		r = 0;
		goto counted;
	}
	b = kv_batch_new();
	if (!b)
		return -ENOMEM;
	if (oi) {
		index_put64(v, oi->version);
		index_put64(v + 8, oi->size);
		kv_batch_put(b, k, kl, v, sizeof(v));
	} else {
		kv_batch_delete(b, k, kl);
	}
	if (how != INDEX_KEEP) {
		k[0] = 'i';
		kv_batch_delete(b, k, kl);
	}
	if (how == INDEX_DROP_UNDO) {
		k[0] = 'u';
		kv_batch_delete(b, k, kl);
	}
	r = kv_batch_commit(c->index, b, 0);
	kv_batch_free(b);
	/* this record replaces a pending one: forgotten once committed,
	 * so a reader without the object's lock never finds neither */
	if (!r && how != INDEX_KEEP)
		kept_forget(c, pool, name);
counted:
	/* after the commit: a scan that read the counter before it either
	 * saw this record or sees the counter move */
	{
		size_t slot = stem_slot(name, strcspn(name, "."));
		uint64_t s = atomic_fetch_add(&c->index_seq, 1) + 1;
		uint64_t was = atomic_load(&c->stem_seq[slot]);

		atomic_fetch_add(&c->stem_gen[slot], 1);
		/* the highest wins: a slower writer of the same slot must
		 * not put an older sequence back */
		while (was < s && !atomic_compare_exchange_weak(
					  &c->stem_seq[slot], &was, s))
			;
	}
	return r;
}

int cfs_index_set(cfs_cluster *c, int64_t pool, const char *name,
		  const struct cfs_objinfo *oi)
{
	return index_set(c, pool, name, oi, INDEX_DROP_UNDO);
}

/* A delete is a tombstone in the memtable whether or not the key is
 * there: one insert of the four a replicated write made (memtable
 * inserts were 17-18% of the daemon in an untar, docs/performance.md). */
int cfs_index_set_noundo(cfs_cluster *c, int64_t pool, const char *name,
			 const struct cfs_objinfo *oi)
{
	return index_set(c, pool, name, oi, INDEX_DROP);
}

int cfs_index_set_kept(cfs_cluster *c, int64_t pool, const char *name,
		       const struct cfs_objinfo *oi)
{
	return index_set(c, pool, name, oi, INDEX_KEEP);
}

int cfs_index_intent_undo(cfs_cluster *c, int64_t pool, const char *name,
			  const struct cfs_objinfo *next, const void *undo,
			  size_t len)
{
	return intent_batch(c, pool, name, next, undo ? undo : "", len);
}

int cfs_index_get_undo(cfs_cluster *c, int64_t pool, const char *name,
		       void **undo, size_t *len)
{
	char k[300];
	size_t kl = index_key('u', pool, name, k, sizeof(k));

	if (!kl)
		return -ENAMETOOLONG;
	return kv_get(c->index, k, kl, undo, len);
}

uint64_t cfs_index_stem_gen(cfs_cluster *c, const char *stem)
{
	return atomic_load(&c->stem_gen[stem_slot(stem, strcspn(stem, "."))]);
}

uint64_t cfs_index_seq(cfs_cluster *c)
{
	return atomic_load(&c->index_seq);
}

int cfs_index_changed_since(cfs_cluster *c, const char *name, uint64_t seq)
{
	return atomic_load(&c->stem_seq[stem_slot(name, strcspn(name, "."))]) >
	       seq;
}

struct scan_ctx {
	int (*fn)(const char *name, const struct cfs_objinfo *oi, int op,
		  void *arg);
	void *arg;
	int intents;
	struct index_pend *p; /* sorted by name; p[ip..] not passed yet */
	size_t np, ip;
};

/* The pending records before name (all of them: NULL), and whether the
 * next one is name's (*same). */
static int pend_before(struct scan_ctx *s, const char *name, int *same)
{
	*same = 0;
	while (s->ip < s->np) {
		int d = name ? strcmp(s->p[s->ip].name, name) : -1;
		int r;

		if (d > 0)
			break;
		if (d == 0) {
			*same = 1;
			break;
		}
		r = s->fn(s->p[s->ip].name, &s->p[s->ip].oi, 0, s->arg);
		s->ip++;
		if (r)
			return r;
	}
	return 0;
}

static int scan_one(const void *key, size_t klen, const void *val,
		    size_t vlen, void *arg)
{
	struct scan_ctx *s = arg;
	struct cfs_objinfo oi;
	char name[300];
	int op = 0, same, r;

	if (klen <= 9 || klen - 9 >= sizeof(name) ||
	    vlen != (s->intents ? 17u : 16u))
		return CFS_ECORRUPT;
	memcpy(name, (const char *)key + 9, klen - 9);
	name[klen - 9] = '\0';
	oi.version = get64(val);
	oi.size = get64((const unsigned char *)val + 8);
	if (s->intents)
		op = ((const unsigned char *)val)[16];
	if ((r = pend_before(s, name, &same)))
		return r;
	if (same) /* newer than what the index holds */
		oi = s->p[s->ip++].oi;
	return s->fn(name, &oi, op, s->arg);
}

int cfs_index_foreach(cfs_cluster *c, int64_t pool, const char *prefix, int intents,
		      int (*fn)(const char *name,
				const struct cfs_objinfo *oi, int op,
				void *arg),
		      void *arg)
{
	char k[300];
	size_t kl = index_key(intents ? 'i' : 'o', pool, prefix, k,
			     sizeof(k));
	struct scan_ctx s = { fn, arg, intents, NULL, 0, 0 };
	int r, same;

	if (!kl)
		return -ENAMETOOLONG;
	if (!intents && (r = kept_pending(c, pool, prefix, &s.p, &s.np)))
		return r;
	r = kv_scan(c->index, k, kl, NULL, 0, scan_one, &s);
	if (!r) /* the pending records of objects the index lacks, last */
		r = pend_before(&s, NULL, &same);
	kept_pending_free(s.p, s.np);
	return r;
}

int cfs_index_sync(cfs_cluster *c)
{
	return c->rdonly ? 0 : kv_sync(c->index);
}
