/*
 * kv_i.h - layouts shared by the KV front end (kv.c) and its engines
 * (kv_rocksdb.c, kv_mem.c).  Not for users of kv.h.
 */
#ifndef CRUSHFS_KV_I_H
#define CRUSHFS_KV_I_H

#include <stdint.h>

#include "kv.h"

struct kv_batch_op {
	int del;
	void *key, *val;
	size_t klen, vlen;
};

struct kv_batch {
	struct kv_batch_op *ops;
	int n, cap;
	int oom; /* an allocation failed: commit returns -ENOMEM */
};

struct kv_engine {
	int (*get)(kv *db, const void *key, size_t klen, void **val,
		   size_t *vlen);
	int (*scan)(kv *db, const void *prefix, size_t plen, const void *after,
		    size_t alen, kv_scan_fn fn, void *arg);
	int (*commit)(kv *db, const kv_batch *b, int sync);
	int (*sync)(kv *db);
	void (*close)(kv *db);
	uint64_t (*seq)(kv *db); /* may be NULL: kv_seq() is 0 */
};

/* Bytewise key order (RocksDB's default comparator): memcmp, then the
 * shorter key first. */
int kv_keycmp(const void *a, size_t alen, const void *b, size_t blen);

struct kv_neg;

struct kv {
	const struct kv_engine *e;
	struct kv_neg *neg; /* kv.c: the keys just found absent; NULL: none */
};

/* An engine's open calls this once the store is open (kv.c's cache of
 * absent keys; without memory the store works uncached); kv_close undoes
 * it before the engine's close. */
void kv_neg_init(kv *db);

#endif
