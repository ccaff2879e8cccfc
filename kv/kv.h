/*
 * kv.h - the small ordered key-value interface the metadata server uses
 * (STYLE.md 9, after JuiceFS tkv.go): get, put, delete, prefix scan and
 * atomic batches.  Two engines: RocksDB (kv_rocksdb.c, DIR/mds/) and an
 * in-memory ordered map for tests (kv_mem.c).  The conformance suite in
 * tests/unit/test_mds.c runs against both.
 *
 * Keys and values are byte strings; keys sort by memcmp (shorter first on a
 * common prefix), as RocksDB's default comparator does.
 *
 * Errors: 0 or -errno (-ENOENT when a key is absent, -EIO for engine
 * failures, with one log line).
 *
 * Thread safety: every call may be made from many threads at once.  A batch
 * belongs to one thread until it is committed or freed.  Scans see a
 * consistent snapshot.
 */
#ifndef CRUSHFS_KV_H
#define CRUSHFS_KV_H

#include <stddef.h>
#include <stdint.h>

typedef struct kv kv;
typedef struct kv_batch kv_batch;

/* Open (creating when `create`) a RocksDB store at path.  -ENOENT when the
 * store is missing and !create; CFS_ECORRUPT when it cannot be read. */
int kv_open_rocksdb(const char *path, int create, kv **out);
/* The same; when the open fails, RocksDB's status text goes to msg
 * (nothing is logged). */
int kv_open_rocksdb_msg(const char *path, int create, kv **out, char *msg,
			size_t msglen);
/* Open for reading only (no lock; writes fail). */
int kv_open_rocksdb_rdonly(const char *path, kv **out);
/* A fresh, empty in-memory store. */
int kv_open_mem(kv **out);
void kv_close(kv *db);

/* *val is malloc'ed (NUL-terminated for convenience, not counted in
 * *vlen); the caller frees it.  val may be NULL to test existence. */
int kv_get(kv *db, const void *key, size_t klen, void **val, size_t *vlen);
/* Single-key changes, applied at once (not synced). */
int kv_put(kv *db, const void *key, size_t klen, const void *val,
	   size_t vlen);
int kv_delete(kv *db, const void *key, size_t klen);

/* Calls fn for every key starting with prefix whose key is > after (when
 * after != NULL), in key order, until fn returns non-zero; that value is
 * returned (0 when the scan ran to the end, -errno on engine failure). */
typedef int (*kv_scan_fn)(const void *key, size_t klen, const void *val,
			  size_t vlen, void *arg);
int kv_scan(kv *db, const void *prefix, size_t plen, const void *after,
	    size_t alen, kv_scan_fn fn, void *arg);

/* Batches: all or nothing.  `sync` makes the commit durable (WAL fsync)
 * before returning. */
kv_batch *kv_batch_new(void);
void kv_batch_put(kv_batch *b, const void *key, size_t klen, const void *val,
		  size_t vlen);
void kv_batch_delete(kv_batch *b, const void *key, size_t klen);
int kv_batch_count(const kv_batch *b);
int kv_batch_commit(kv *db, kv_batch *b, int sync);
void kv_batch_free(kv_batch *b);

/* Make every change committed so far durable. */
int kv_sync(kv *db);

/* A number that grows with every commit and survives a reopen: RocksDB's
 * latest sequence number (0 for the in-memory engine).  A store that
 * comes back with a smaller one than it had lost committed changes. */
uint64_t kv_seq(kv *db);

#endif
