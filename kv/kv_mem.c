/*
 * kv_mem.c - in-memory engine for kv.h: a sorted array under a rwlock.
 * Meant for tests (O(n) inserts), but complete: atomic batches, ordered
 * prefix scans over a snapshot (the callback may call back into the store).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "kv_i.h"

struct mem_ent {
	void *key, *val;
	size_t klen, vlen;
};

struct kv_mem {
	struct kv base;
	pthread_rwlock_t lock;
	struct mem_ent *ents;
	size_t n, cap;
};

static int ent_cmp(const struct mem_ent *e, const void *key, size_t klen)
{
	return kv_keycmp(e->key, e->klen, key, klen);
}

/* Index of the first entry >= key. */
static size_t lower_bound(struct kv_mem *m, const void *key, size_t klen)
{
	size_t lo = 0, hi = m->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ent_cmp(&m->ents[mid], key, klen) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void *dup_bytes(const void *p, size_t len)
{
	void *d = malloc(len + 1);

	if (d) {
		if (len)
			memcpy(d, p, len);
		((char *)d)[len] = '\0';
	}
	return d;
}

static int mem_get(kv *db, const void *key, size_t klen, void **val,
		   size_t *vlen)
{
	struct kv_mem *m = (struct kv_mem *)db;
	int rc = -ENOENT;
	size_t i;

	pthread_rwlock_rdlock(&m->lock);
	i = lower_bound(m, key, klen);
	if (i < m->n && !ent_cmp(&m->ents[i], key, klen)) {
		rc = 0;
		if (val) {
			*val = dup_bytes(m->ents[i].val, m->ents[i].vlen);
			if (!*val)
				rc = -ENOMEM;
		}
		if (vlen)
			*vlen = m->ents[i].vlen;
	}
	pthread_rwlock_unlock(&m->lock);
	return rc;
}

static int mem_scan(kv *db, const void *prefix, size_t plen,
		    const void *after, size_t alen, kv_scan_fn fn, void *arg)
{
	struct kv_mem *m = (struct kv_mem *)db;
	struct mem_ent *snap = NULL;
	size_t n = 0, cap = 0, i;
	int rc = 0;

	pthread_rwlock_rdlock(&m->lock);
	i = after ? lower_bound(m, after, alen) : lower_bound(m, prefix, plen);
	for (; i < m->n; i++) {
		struct mem_ent *e = &m->ents[i];

		if (e->klen < plen || memcmp(e->key, prefix, plen))
			break;
		if (after && !ent_cmp(e, after, alen))
			continue;
		if (n == cap) {
			size_t nc = cap ? cap * 2 : 16;
			struct mem_ent *s = realloc(snap, nc * sizeof(*s));

			if (!s) {
				rc = -ENOMEM;
				break;
			}
			snap = s;
			cap = nc;
		}
		snap[n].key = dup_bytes(e->key, e->klen);
		snap[n].val = dup_bytes(e->val, e->vlen);
		snap[n].klen = e->klen;
		snap[n].vlen = e->vlen;
		n++;
		if (!snap[n - 1].key || !snap[n - 1].val) {
			rc = -ENOMEM;
			break;
		}
	}
	pthread_rwlock_unlock(&m->lock);
	/* `after` may sort before the prefix: skip what does not match. */
	for (i = 0; rc == 0 && i < n; i++) {
		if (snap[i].klen < plen || memcmp(snap[i].key, prefix, plen))
			continue;
		rc = fn(snap[i].key, snap[i].klen, snap[i].val, snap[i].vlen,
			arg);
	}
	for (i = 0; i < n; i++) {
		free(snap[i].key);
		free(snap[i].val);
	}
	free(snap);
	return rc;
}

static int mem_apply(struct kv_mem *m, const struct kv_batch_op *op)
{
	size_t i = lower_bound(m, op->key, op->klen);
	int found = i < m->n &&
		    !ent_cmp(&m->ents[i], op->key, op->klen);

	if (op->del) {
		if (found) {
			free(m->ents[i].key);
			free(m->ents[i].val);
			memmove(&m->ents[i], &m->ents[i + 1],
				(m->n - i - 1) * sizeof(m->ents[0]));
			m->n--;
		}
		return 0;
	}
	void *v = dup_bytes(op->val, op->vlen);

	if (!v)
		return -ENOMEM;
	if (found) {
		free(m->ents[i].val);
		m->ents[i].val = v;
		m->ents[i].vlen = op->vlen;
		return 0;
	}
	void *k = dup_bytes(op->key, op->klen);

	if (!k) {
		free(v);
		return -ENOMEM;
	}
	memmove(&m->ents[i + 1], &m->ents[i], (m->n - i) * sizeof(m->ents[0]));
	m->ents[i] = (struct mem_ent){ k, v, op->klen, op->vlen };
	m->n++;
	return 0;
}

static int mem_commit(kv *db, const kv_batch *b, int sync)
{
	struct kv_mem *m = (struct kv_mem *)db;
	int rc = 0;

	(void)sync;
	pthread_rwlock_wrlock(&m->lock);
	/* Reserve room first; only a failed value copy (tests only) could
	 * leave a batch half-applied. */
	if (m->n + b->n > m->cap) {
		size_t nc = (m->n + b->n) * 2;
		struct mem_ent *e = realloc(m->ents, nc * sizeof(*e));

		if (!e)
			rc = -ENOMEM;
		else {
			m->ents = e;
			m->cap = nc;
		}
	}
	for (int i = 0; rc == 0 && i < b->n; i++)
		rc = mem_apply(m, &b->ops[i]);
	pthread_rwlock_unlock(&m->lock);
	return rc;
}

static int mem_sync(kv *db)
{
	(void)db;
	return 0;
}

static void mem_close(kv *db)
{
	struct kv_mem *m = (struct kv_mem *)db;

	for (size_t i = 0; i < m->n; i++) {
		free(m->ents[i].key);
		free(m->ents[i].val);
	}
	free(m->ents);
	pthread_rwlock_destroy(&m->lock);
	free(m);
}

static const struct kv_engine mem_engine = {
	.get = mem_get,
	.scan = mem_scan,
	.commit = mem_commit,
	.sync = mem_sync,
	.close = mem_close,
};

int kv_open_mem(kv **out)
{
	struct kv_mem *m = calloc(1, sizeof(*m));

	if (!m)
		return -ENOMEM;
	m->base.e = &mem_engine;
	pthread_rwlock_init(&m->lock, NULL);
	kv_neg_init(&m->base);
	*out = &m->base;
	return 0;
}
