/*
 * kv.c - engine-independent part of kv.h: batches, single-key helpers and
 * a small cache of keys just found absent.
 *
 * Why the cache: a file's create asks for the same absent key twice, the
 * kernel's LOOKUP (a negative entry) and then the CREATE's own check of
 * the name under the namespace lock; the second costs a RocksDB get that
 * walks the memtable and every SST's filter (a get was 17.5% of the
 * daemon's CPU in 100,000 creates, docs/performance.md).  The cache
 * answers only "absent", and only for a key no commit has touched since
 * it was found absent:
 *   - a get that misses remembers its key in the key's slot, unless a
 *     commit touched that slot since the get began (the slot's epoch,
 *     read before the engine's get);
 *   - every commit, after the engine applied it, clears the slot of
 *     each of its keys and moves the slot's epoch on.
 * So a get that comes after a commit returned never sees a key it
 * wrote as absent; a get concurrent with the commit may, as it may from
 * the engine itself.  Every change to a store goes through
 * kv_batch_commit (kv_put and kv_delete included); a process opens a
 * store for writing once (RocksDB's LOCK), and a read-only open
 * (kv_open_rocksdb_rdonly) sees the store as it was when opened, so its
 * misses stay true for it.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "kv_i.h"
#include "util.h"

/* 256 slots of at most 96-byte keys: a dentry key of a name up to ~80
 * bytes, an object index key; longer keys are not cached */
#define KV_NEG_SLOTS 256
#define KV_NEG_KEYMAX 96

struct kv_neg_slot {
	uint32_t epoch; /* moved on by every commit touching the slot */
	uint8_t valid;
	uint8_t klen;
	unsigned char key[KV_NEG_KEYMAX];
};

struct kv_neg {
	pthread_mutex_t lock;
	struct kv_neg_slot s[KV_NEG_SLOTS];
};

void kv_neg_init(kv *db)
{
	struct kv_neg *n = calloc(1, sizeof(*n));

	if (n)
		pthread_mutex_init(&n->lock, NULL);
	db->neg = n;
}

static void neg_free(kv *db)
{
	if (db->neg) {
		pthread_mutex_destroy(&db->neg->lock);
		free(db->neg);
		db->neg = NULL;
	}
}

static struct kv_neg_slot *neg_slot(struct kv_neg *n, const void *key,
				    size_t klen)
{
	return &n->s[cfs_fnv1a(key, klen) % KV_NEG_SLOTS];
}

/* 1 when key is known absent */
static int neg_known(struct kv_neg *n, const void *key, size_t klen,
		     uint32_t *epoch)
{
	struct kv_neg_slot *sl = neg_slot(n, key, klen);
	int r;

	pthread_mutex_lock(&n->lock);
	r = sl->valid && sl->klen == klen && !memcmp(sl->key, key, klen);
	*epoch = sl->epoch;
	pthread_mutex_unlock(&n->lock);
	return r;
}

static void neg_note(struct kv_neg *n, const void *key, size_t klen,
		     uint32_t epoch)
{
	struct kv_neg_slot *sl = neg_slot(n, key, klen);

	pthread_mutex_lock(&n->lock);
	if (sl->epoch == epoch) {
		memcpy(sl->key, key, klen);
		sl->klen = (uint8_t)klen;
		sl->valid = 1;
	}
	pthread_mutex_unlock(&n->lock);
}

static void neg_forget(struct kv_neg *n, const kv_batch *b)
{
	pthread_mutex_lock(&n->lock);
	for (int i = 0; i < b->n; i++) {
		struct kv_neg_slot *sl =
			neg_slot(n, b->ops[i].key, b->ops[i].klen);

		sl->valid = 0;
		sl->epoch++;
	}
	pthread_mutex_unlock(&n->lock);
}

int kv_keycmp(const void *a, size_t alen, const void *b, size_t blen)
{
	size_t m = alen < blen ? alen : blen;
	int c = m ? memcmp(a, b, m) : 0;

	if (c)
		return c;
	return alen < blen ? -1 : alen > blen ? 1 : 0;
}

int kv_get(kv *db, const void *key, size_t klen, void **val, size_t *vlen)
{
	struct kv_neg *n = klen <= KV_NEG_KEYMAX ? db->neg : NULL;
	uint32_t epoch = 0;
	int rc;

	if (n && neg_known(n, key, klen, &epoch))
		return -ENOENT;
	rc = db->e->get(db, key, klen, val, vlen);
	if (rc == -ENOENT && n)
		neg_note(n, key, klen, epoch);
	return rc;
}

int kv_scan(kv *db, const void *prefix, size_t plen, const void *after,
	    size_t alen, kv_scan_fn fn, void *arg)
{
	return db->e->scan(db, prefix, plen, after, alen, fn, arg);
}

int kv_sync(kv *db)
{
	return db->e->sync(db);
}

uint64_t kv_seq(kv *db)
{
	return db->e->seq ? db->e->seq(db) : 0;
}

void kv_close(kv *db)
{
	if (db) {
		neg_free(db);
		db->e->close(db);
	}
}

kv_batch *kv_batch_new(void)
{
	return calloc(1, sizeof(kv_batch));
}

static struct kv_batch_op *batch_add(kv_batch *b, const void *key,
				     size_t klen)
{
	struct kv_batch_op *op;

	if (b->oom)
		return NULL;
	if (b->n == b->cap) {
		int cap = b->cap ? b->cap * 2 : 8;
		struct kv_batch_op *ops = realloc(b->ops, cap * sizeof(*ops));

		if (!ops) {
			b->oom = 1;
			return NULL;
		}
		b->ops = ops;
		b->cap = cap;
	}
	op = &b->ops[b->n];
	memset(op, 0, sizeof(*op));
	op->key = malloc(klen ? klen : 1);
	if (!op->key) {
		b->oom = 1;
		return NULL;
	}
	memcpy(op->key, key, klen);
	op->klen = klen;
	b->n++;
	return op;
}

void kv_batch_put(kv_batch *b, const void *key, size_t klen, const void *val,
		  size_t vlen)
{
	struct kv_batch_op *op = batch_add(b, key, klen);

	if (!op)
		return;
	op->val = malloc(vlen ? vlen : 1);
	if (!op->val) {
		b->oom = 1;
		return;
	}
	memcpy(op->val, val, vlen);
	op->vlen = vlen;
}

void kv_batch_delete(kv_batch *b, const void *key, size_t klen)
{
	struct kv_batch_op *op = batch_add(b, key, klen);

	if (op)
		op->del = 1;
}

int kv_batch_count(const kv_batch *b)
{
	return b->n;
}

int kv_batch_commit(kv *db, kv_batch *b, int sync)
{
	int rc;

	if (b->oom)
		return -ENOMEM;
	if (b->n == 0)
		return sync ? db->e->sync(db) : 0;
	rc = db->e->commit(db, b, sync);
	/* after the engine applied it, and whether or not it says it did:
	 * a failed commit may still have applied (a sync that failed) */
	if (db->neg)
		neg_forget(db->neg, b);
	return rc;
}

void kv_batch_free(kv_batch *b)
{
	if (!b)
		return;
	for (int i = 0; i < b->n; i++) {
		free(b->ops[i].key);
		free(b->ops[i].val);
	}
	free(b->ops);
	free(b);
}

int kv_put(kv *db, const void *key, size_t klen, const void *val, size_t vlen)
{
	kv_batch *b = kv_batch_new();
	int rc;

	if (!b)
		return -ENOMEM;
	kv_batch_put(b, key, klen, val, vlen);
	rc = kv_batch_commit(db, b, 0);
	kv_batch_free(b);
	return rc;
}

int kv_delete(kv *db, const void *key, size_t klen)
{
	kv_batch *b = kv_batch_new();
	int rc;

	if (!b)
		return -ENOMEM;
	kv_batch_delete(b, key, klen);
	rc = kv_batch_commit(db, b, 0);
	kv_batch_free(b);
	return rc;
}
