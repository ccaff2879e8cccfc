/*
 * kv.c - engine-independent part of kv.h: batches and single-key helpers.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kv_i.h"

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
	return db->e->get(db, key, klen, val, vlen);
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
	if (db)
		db->e->close(db);
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
	if (b->oom)
		return -ENOMEM;
	if (b->n == 0)
		return sync ? db->e->sync(db) : 0;
	return db->e->commit(db, b, sync);
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
