/*
 * kv_rocksdb.c - RocksDB engine for kv.h (the C API, rocksdb/c.h).
 *
 * Writes go to the WAL without fsync unless the caller asks for sync; a
 * kill -9 of the daemon loses nothing that reached RocksDB (the WAL is
 * written to the kernel on every commit), a power cut loses what was not
 * synced, which is what fsync() is for.  kv_sync() syncs the WAL
 * (DB::FlushWAL(true)).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <rocksdb/c.h>

#include "kv_i.h"
#include "util.h"

struct kv_rocks {
	struct kv base;
	rocksdb_t *db;
	rocksdb_options_t *opts;
	rocksdb_block_based_table_options_t *topts;
	rocksdb_writeoptions_t *wo_async, *wo_sync;
	rocksdb_readoptions_t *ro;
	char *path;
};

/* The -errno of a RocksDB status string. */
static int rocks_code(const char *err)
{
	int rc = -EIO;

	if (strstr(err, "Corruption") || strstr(err, "corrupt"))
		rc = CFS_ECORRUPT;
	else if (strstr(err, "/LOCK") || strstr(err, "lock hold"))
		rc = -EBUSY; /* another process (or handle) has it open */
	else if (strstr(err, "does not exist"))
		rc = -ENOENT;
	else if (strstr(err, "No space"))
		rc = -ENOSPC;
	return rc;
}

/* Map a RocksDB status string to -errno (and log it). */
static int rocks_err(const char *what, const char *path, char *err)
{
	int rc = rocks_code(err);

	if (rc != -ENOENT && rc != -EBUSY)
		cfs_log(CFS_LOG_ERR, "rocksdb %s %s: %s", what, path, err);
	rocksdb_free(err);
	return rc;
}

/*
 * RocksDB counts every key comparison and block read into a per-thread
 * perf_context by default (PerfLevel kEnableCount, monitoring/perf_level.cc
 * in 7.8); in a shared library each count is a __tls_get_addr call, and a
 * memtable insert makes dozens of comparisons.  crushfs never reads those
 * counters, so each thread turns them off before its first call (the
 * level is thread-local: FUSE and worker threads each set their own).
 */
static void perf_off(void)
{
	static _Thread_local int done;

	if (!done) {
		rocksdb_set_perf_level(rocksdb_disable);
		done = 1;
	}
}

static int rocks_get(kv *db, const void *key, size_t klen, void **val,
		     size_t *vlen)
{
	struct kv_rocks *r = (struct kv_rocks *)db;
	char *err = NULL;
	size_t len = 0;
	char *v;

	perf_off();
	v = rocksdb_get(r->db, r->ro, key, klen, &len, &err);

	if (err)
		return rocks_err("get", r->path, err);
	if (!v)
		return -ENOENT;
	if (vlen)
		*vlen = len;
	if (val) {
		char *d = malloc(len + 1);

		if (!d) {
			rocksdb_free(v);
			return -ENOMEM;
		}
		memcpy(d, v, len);
		d[len] = '\0';
		*val = d;
	}
	rocksdb_free(v);
	return 0;
}

static int rocks_scan(kv *db, const void *prefix, size_t plen,
		      const void *after, size_t alen, kv_scan_fn fn, void *arg)
{
	struct kv_rocks *r = (struct kv_rocks *)db;
	rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
	rocksdb_iterator_t *it;
	unsigned char *upper = NULL;
	size_t ulen = plen;
	char *err = NULL;
	int rc = 0;

	if (!ro)
		return -ENOMEM;
	/* Upper bound: the prefix with its last non-0xff byte incremented. */
	if (plen) {
		upper = malloc(plen);
		if (!upper) {
			rocksdb_readoptions_destroy(ro);
			return -ENOMEM;
		}
		memcpy(upper, prefix, plen);
		while (ulen && upper[ulen - 1] == 0xff)
			ulen--;
		if (ulen) {
			upper[ulen - 1]++;
			rocksdb_readoptions_set_iterate_upper_bound(
				ro, (const char *)upper, ulen);
		}
	}
	perf_off();
	it = rocksdb_create_iterator(r->db, ro);
	if (after && kv_keycmp(after, alen, prefix, plen) > 0)
		rocksdb_iter_seek(it, after, alen);
	else
		rocksdb_iter_seek(it, prefix, plen);
	for (; rocksdb_iter_valid(it); rocksdb_iter_next(it)) {
		size_t kl, vl;
		const char *k = rocksdb_iter_key(it, &kl);
		const char *v = rocksdb_iter_value(it, &vl);

		if (kl < plen || memcmp(k, prefix, plen))
			break;
		if (after && kl == alen && !memcmp(k, after, alen))
			continue;
		rc = fn(k, kl, v, vl, arg);
		if (rc)
			break;
	}
	if (rc == 0) {
		rocksdb_iter_get_error(it, &err);
		if (err)
			rc = rocks_err("scan", r->path, err);
	}
	rocksdb_iter_destroy(it);
	rocksdb_readoptions_destroy(ro);
	free(upper);
	return rc;
}

static int rocks_commit(kv *db, const kv_batch *b, int sync)
{
	struct kv_rocks *r = (struct kv_rocks *)db;
	rocksdb_writebatch_t *wb = rocksdb_writebatch_create();
	char *err = NULL;

	if (!wb)
		return -ENOMEM;
	for (int i = 0; i < b->n; i++) {
		const struct kv_batch_op *op = &b->ops[i];

		if (op->del)
			rocksdb_writebatch_delete(wb, op->key, op->klen);
		else
			rocksdb_writebatch_put(wb, op->key, op->klen, op->val,
					       op->vlen);
	}
	perf_off();
	rocksdb_write(r->db, sync ? r->wo_sync : r->wo_async, wb, &err);
	rocksdb_writebatch_destroy(wb);
	if (err)
		return rocks_err("write", r->path, err);
	return 0;
}

static int rocks_sync(kv *db)
{
	struct kv_rocks *r = (struct kv_rocks *)db;
	char *err = NULL;

	rocksdb_flush_wal(r->db, 1, &err);
	if (err)
		return rocks_err("sync", r->path, err);
	return 0;
}

static uint64_t rocks_seq(kv *db)
{
	return rocksdb_get_latest_sequence_number(((struct kv_rocks *)db)->db);
}

static void rocks_free(struct kv_rocks *r)
{
	if (r->db)
		rocksdb_close(r->db);
	if (r->wo_async)
		rocksdb_writeoptions_destroy(r->wo_async);
	if (r->wo_sync)
		rocksdb_writeoptions_destroy(r->wo_sync);
	if (r->ro)
		rocksdb_readoptions_destroy(r->ro);
	if (r->opts)
		rocksdb_options_destroy(r->opts);
	if (r->topts)
		rocksdb_block_based_options_destroy(r->topts);
	free(r->path);
	free(r);
}

static void rocks_close(kv *db)
{
	rocks_free((struct kv_rocks *)db);
}

/* One block cache for every store a process opens (the metadata, the
 * PG logs, the object index): the daemon's memory is bounded by one
 * cache, not one per store.  Never freed: the table factories of open
 * stores share it (a shared_ptr inside RocksDB), and it lives as long as
 * the process. */
static rocksdb_cache_t *shared_cache;
static pthread_once_t shared_cache_once = PTHREAD_ONCE_INIT;

static void shared_cache_make(void)
{
	shared_cache = rocksdb_cache_create_lru(32 << 20);
}

static const struct kv_engine rocks_engine = {
	.get = rocks_get,
	.scan = rocks_scan,
	.commit = rocks_commit,
	.sync = rocks_sync,
	.close = rocks_close,
	.seq = rocks_seq,
};

static int open_rocks(const char *path, int create, int rdonly, kv **out,
		      char *msg, size_t msglen)
{
	struct kv_rocks *r = calloc(1, sizeof(*r));
	char *err = NULL;
	int rc = -ENOMEM;

	if (!r)
		return -ENOMEM;
	r->base.e = &rocks_engine;
	r->path = strdup(path);
	r->opts = rocksdb_options_create();
	r->topts = rocksdb_block_based_options_create();
	/* Metadata is small: a modest cache and memtable keep the daemon's
	 * footprint low (the RSS budget is 200 MiB). */
	pthread_once(&shared_cache_once, shared_cache_make);
	r->wo_async = rocksdb_writeoptions_create();
	r->wo_sync = rocksdb_writeoptions_create();
	r->ro = rocksdb_readoptions_create();
	if (!r->path || !r->opts || !r->topts || !shared_cache || !r->wo_async ||
	    !r->wo_sync || !r->ro)
		goto err;
	rocksdb_block_based_options_set_block_cache(r->topts, shared_cache);
	/* Lookups of names that do not exist (every create) stop at the
	 * bloom filter instead of reading blocks. */
	rocksdb_block_based_options_set_filter_policy(
		r->topts, rocksdb_filterpolicy_create_bloom(10));
	rocksdb_options_set_block_based_table_factory(r->opts, r->topts);
	rocksdb_options_set_create_if_missing(r->opts, create);
	rocksdb_options_set_write_buffer_size(r->opts, 16 << 20);
	rocksdb_options_set_max_write_buffer_number(r->opts, 2);
	rocksdb_options_set_max_background_jobs(r->opts, 2);
	rocksdb_options_set_keep_log_file_num(r->opts, 2);
	rocksdb_options_set_max_log_file_size(r->opts, 1 << 20);
	rocksdb_options_set_info_log_level(r->opts, 3 /* ERROR */);
	rocksdb_options_set_paranoid_checks(r->opts, 1);
	/* kTolerateCorruptedTailRecords (0): a record cut short at the end
	 * of the newest log (a kill in the middle of a write) is dropped,
	 * any other damage fails the open.  RocksDB's default,
	 * kPointInTimeRecovery, silently stops the replay at the first bad
	 * record: 4 KiB of garbage at the start of the log then opened as
	 * an empty store and the filesystem came up empty (issue 8). */
	rocksdb_options_set_wal_recovery_mode(r->opts, 0);
	rocksdb_writeoptions_set_sync(r->wo_sync, 1);
	/* read-only: no LOCK taken, so a reader can look while a writer
	 * elsewhere holds the store (it sees what was flushed) */
	/* RocksDB makes a missing folder 0755 (CreateDirIfMissing) and its
	 * files 0644: the folder made here first, 0700, is what keeps the
	 * metadata (names, xattrs) and the object index from other users */
	if (create && !rdonly && mkdir(path, CFS_DIR_MODE) < 0 &&
	    errno != EEXIST) {
		rc = -errno;
		if (msg)
			snprintf(msg, msglen, "%s: %s", path, strerror(errno));
		goto err;
	}
	r->db = rdonly ? rocksdb_open_for_read_only(r->opts, path, 0, &err)
		       : rocksdb_open(r->opts, path, &err);
	if (err) {
		/* the caller says what it means (one line): with msg, the
		 * engine's words go there instead of the log */
		if (msg) {
			snprintf(msg, msglen, "%s", err);
			rc = rocks_code(err);
			rocksdb_free(err);
		} else {
			rc = rocks_err("open", path, err);
		}
		goto err;
	}
	kv_neg_init(&r->base);
	*out = &r->base;
	return 0;
err:
	rocks_free(r);
	return rc;
}

int kv_open_rocksdb(const char *path, int create, kv **out)
{
	return open_rocks(path, create, 0, out, NULL, 0);
}

int kv_open_rocksdb_msg(const char *path, int create, kv **out, char *msg,
			size_t msglen)
{
	return open_rocks(path, create, 0, out, msg, msglen);
}

int kv_open_rocksdb_rdonly(const char *path, kv **out)
{
	return open_rocks(path, 0, 1, out, NULL, 0);
}
