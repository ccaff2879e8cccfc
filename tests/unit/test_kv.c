/*
 * test_kv.c - one conformance suite for every kv.h engine (STYLE.md 17,
 * after JuiceFS's testMeta): each test runs on kv_mem and on RocksDB in a
 * temporary directory.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <pthread.h>
#include <cmocka.h>

#include "kv.h"
#include "kv_i.h"
#include "util.h"

struct fixture {
	int rocks;
	char dir[64];
	kv *db;
};

static int setup_mem(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_int_equal(kv_open_mem(&f->db), 0);
	*state = f;
	return 0;
}

static int setup_rocks(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	f->rocks = 1;
	strcpy(f->dir, "/tmp/test_kv.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	assert_int_equal(kv_open_rocksdb(f->dir, 1, &f->db), 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	kv_close(f->db);
	if (f->rocks)
		cfs_rmtree(f->dir);
	free(f);
	return 0;
}

static void test_get_put_delete(void **state)
{
	struct fixture *f = *state;
	void *v;
	size_t len;

	assert_int_equal(kv_get(f->db, "a", 1, &v, &len), -ENOENT);
	assert_int_equal(kv_put(f->db, "a", 1, "hello", 5), 0);
	assert_int_equal(kv_get(f->db, "a", 1, &v, &len), 0);
	assert_int_equal(len, 5);
	assert_memory_equal(v, "hello", 5);
	assert_int_equal(((char *)v)[5], '\0');
	free(v);
	assert_int_equal(kv_get(f->db, "a", 1, NULL, NULL), 0);
	/* overwrite with an empty value */
	assert_int_equal(kv_put(f->db, "a", 1, "", 0), 0);
	assert_int_equal(kv_get(f->db, "a", 1, &v, &len), 0);
	assert_int_equal(len, 0);
	free(v);
	/* binary keys with NULs are distinct */
	assert_int_equal(kv_put(f->db, "a\0b", 3, "x", 1), 0);
	assert_int_equal(kv_get(f->db, "a\0c", 3, NULL, NULL), -ENOENT);
	assert_int_equal(kv_delete(f->db, "a", 1), 0);
	assert_int_equal(kv_get(f->db, "a", 1, NULL, NULL), -ENOENT);
	assert_int_equal(kv_get(f->db, "a\0b", 3, NULL, NULL), 0);
	/* deleting an absent key is fine */
	assert_int_equal(kv_delete(f->db, "zz", 2), 0);
}

struct collect {
	char keys[64][16];
	int n, stop_at;
};

static int collect_cb(const void *k, size_t kl, const void *v, size_t vl,
		      void *arg)
{
	struct collect *c = arg;

	(void)v, (void)vl;
	assert_true(kl < 16);
	memcpy(c->keys[c->n], k, kl);
	c->keys[c->n][kl] = '\0';
	c->n++;
	if (c->stop_at && c->n == c->stop_at)
		return 42;
	return 0;
}

static void test_scan_order(void **state)
{
	struct fixture *f = *state;
	const char *keys[] = { "b2", "a", "b", "b10", "b1", "c", "ba", "b\xff" };
	struct collect c;

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		assert_int_equal(kv_put(f->db, keys[i], strlen(keys[i]), "v", 1),
				 0);
	memset(&c, 0, sizeof(c));
	assert_int_equal(kv_scan(f->db, "b", 1, NULL, 0, collect_cb, &c), 0);
	assert_int_equal(c.n, 6);
	assert_string_equal(c.keys[0], "b");
	assert_string_equal(c.keys[1], "b1");
	assert_string_equal(c.keys[2], "b10");
	assert_string_equal(c.keys[3], "b2");
	assert_string_equal(c.keys[4], "ba");
	assert_string_equal(c.keys[5], "b\xff");
	/* after: strictly greater */
	memset(&c, 0, sizeof(c));
	assert_int_equal(kv_scan(f->db, "b", 1, "b10", 3, collect_cb, &c), 0);
	assert_int_equal(c.n, 3);
	assert_string_equal(c.keys[0], "b2");
	/* after a key that is absent */
	memset(&c, 0, sizeof(c));
	assert_int_equal(kv_scan(f->db, "b", 1, "b11", 3, collect_cb, &c), 0);
	assert_int_equal(c.n, 3);
	/* early stop returns the callback's value */
	memset(&c, 0, sizeof(c));
	c.stop_at = 2;
	assert_int_equal(kv_scan(f->db, "b", 1, NULL, 0, collect_cb, &c), 42);
	assert_int_equal(c.n, 2);
	/* whole store */
	memset(&c, 0, sizeof(c));
	assert_int_equal(kv_scan(f->db, "", 0, NULL, 0, collect_cb, &c), 0);
	assert_int_equal(c.n, 8);
	/* a prefix ending in 0xff */
	assert_int_equal(kv_put(f->db, "\xff\xff", 2, "v", 1), 0);
	assert_int_equal(kv_put(f->db, "\xff\xff\x01", 3, "v", 1), 0);
	memset(&c, 0, sizeof(c));
	assert_int_equal(kv_scan(f->db, "\xff", 1, NULL, 0, collect_cb, &c), 0);
	assert_int_equal(c.n, 2);
}

struct order {
	uint64_t prev;
	int n;
};

static int order_cb(const void *k, size_t kl, const void *v, size_t vl,
		    void *arg)
{
	struct order *o = arg;
	const unsigned char *p = k;
	uint64_t x = 0;

	(void)v, (void)vl;
	assert_int_equal(kl, 9);
	for (int j = 0; j < 8; j++)
		x = (x << 8) | p[1 + j];
	assert_true(o->n == 0 || x > o->prev);
	o->prev = x;
	o->n++;
	return 0;
}

/* Inode numbers encoded big-endian scan in numeric order. */
static void test_big_endian_numeric_order(void **state)
{
	struct fixture *f = *state;
	uint64_t vals[] = { 1, 0x10000000000ULL, 255, 256, 0x10000000001ULL,
			    65536 };
	struct order o = { 0, 0 };

	for (size_t i = 0; i < 6; i++) {
		unsigned char k[9];

		k[0] = 'I';
		for (int j = 0; j < 8; j++)
			k[1 + j] = (vals[i] >> (56 - 8 * j)) & 0xff;
		assert_int_equal(kv_put(f->db, k, 9, "", 0), 0);
	}
	assert_int_equal(kv_scan(f->db, "I", 1, NULL, 0, order_cb, &o), 0);
	assert_int_equal(o.n, 6);
}

static void test_batch(void **state)
{
	struct fixture *f = *state;
	kv_batch *b = kv_batch_new();
	void *v;
	size_t len;

	assert_int_equal(kv_put(f->db, "old", 3, "1", 1), 0);
	kv_batch_put(b, "x", 1, "1", 1);
	kv_batch_put(b, "y", 1, "2", 1);
	kv_batch_delete(b, "old", 3);
	kv_batch_put(b, "x", 1, "3", 1); /* later op wins */
	assert_int_equal(kv_batch_count(b), 4);
	/* nothing visible before the commit */
	assert_int_equal(kv_get(f->db, "x", 1, NULL, NULL), -ENOENT);
	assert_int_equal(kv_batch_commit(f->db, b, 1), 0);
	kv_batch_free(b);
	assert_int_equal(kv_get(f->db, "x", 1, &v, &len), 0);
	assert_memory_equal(v, "3", 1);
	free(v);
	assert_int_equal(kv_get(f->db, "y", 1, NULL, NULL), 0);
	assert_int_equal(kv_get(f->db, "old", 3, NULL, NULL), -ENOENT);
	/* an empty batch commits */
	b = kv_batch_new();
	assert_int_equal(kv_batch_commit(f->db, b, 0), 0);
	assert_int_equal(kv_batch_commit(f->db, b, 1), 0);
	kv_batch_free(b);
	assert_int_equal(kv_sync(f->db), 0);
}

static int put_during_scan(const void *k, size_t kl, const void *v, size_t vl,
			   void *arg)
{
	kv *db = arg;

	(void)v, (void)vl;
	/* writing from inside a scan must not deadlock, and the scan keeps
	 * its snapshot */
	char key[32];

	assert_true(kl < 16);
	memcpy(key, k, kl);
	memcpy(key + kl, "z", 1);
	return kv_put(db, key, kl + 1, "n", 1);
}

static void test_scan_snapshot(void **state)
{
	struct fixture *f = *state;
	struct collect c;

	assert_int_equal(kv_put(f->db, "s1", 2, "v", 1), 0);
	assert_int_equal(kv_put(f->db, "s2", 2, "v", 1), 0);
	assert_int_equal(kv_scan(f->db, "s", 1, NULL, 0, put_during_scan,
				 f->db), 0);
	memset(&c, 0, sizeof(c));
	assert_int_equal(kv_scan(f->db, "s", 1, NULL, 0, collect_cb, &c), 0);
	assert_int_equal(c.n, 4);
}

struct thr {
	kv *db;
	int id;
};

static void *writer(void *arg)
{
	struct thr *t = arg;

	for (int i = 0; i < 500; i++) {
		char k[32];
		kv_batch *b = kv_batch_new();

		snprintf(k, sizeof(k), "t%d.%04d", t->id, i);
		kv_batch_put(b, k, strlen(k), k, strlen(k));
		snprintf(k, sizeof(k), "u%d.%04d", t->id, i);
		kv_batch_put(b, k, strlen(k), k, strlen(k));
		if (kv_batch_commit(t->db, b, 0))
			abort();
		kv_batch_free(b);
	}
	return NULL;
}

static int count_cb(const void *k, size_t kl, const void *v, size_t vl,
		    void *arg)
{
	(void)k, (void)kl, (void)v, (void)vl;
	(*(int *)arg)++;
	return 0;
}

static void test_threads(void **state)
{
	struct fixture *f = *state;
	pthread_t th[4];
	struct thr t[4];
	int n = 0;

	for (int i = 0; i < 4; i++) {
		t[i].db = f->db;
		t[i].id = i;
		pthread_create(&th[i], NULL, writer, &t[i]);
	}
	for (int i = 0; i < 4; i++)
		pthread_join(th[i], NULL);
	assert_int_equal(kv_scan(f->db, "t", 1, NULL, 0, count_cb, &n), 0);
	assert_int_equal(n, 2000);
	n = 0;
	assert_int_equal(kv_scan(f->db, "u", 1, NULL, 0, count_cb, &n), 0);
	assert_int_equal(n, 2000);
}

static void test_rocks_persistence(void **state)
{
	struct fixture *f = *state;
	kv *db2;

	if (!f->rocks)
		skip();
	assert_int_equal(kv_put(f->db, "persist", 7, "yes", 3), 0);
	/* a second open of the same store is refused (the daemon relies on
	 * RocksDB's LOCK as a second line of defence) */
	assert_int_equal(kv_open_rocksdb(f->dir, 1, &db2), -EBUSY);
	kv_close(f->db);
	f->db = NULL;
	assert_int_equal(kv_open_rocksdb(f->dir, 0, &f->db), 0);
	assert_int_equal(kv_get(f->db, "persist", 7, NULL, NULL), 0);
}

static void test_rocks_missing(void **state)
{
	kv *db;

	(void)state;
	assert_int_equal(kv_open_rocksdb("/tmp/crushfs-no-such-kv", 0, &db),
			 -ENOENT);
}

/* kv.c's cache of absent keys: a key found absent is served from it
 * until a commit touches it, by every path that changes a store. */
static void test_absent_then_written(void **state)
{
	struct fixture *f = *state;
	char big[200];
	kv_batch *b;

	/* twice absent (the second from the cache), then a put */
	for (int i = 0; i < 2; i++)
		assert_int_equal(kv_get(f->db, "k", 1, NULL, NULL), -ENOENT);
	assert_int_equal(kv_put(f->db, "k", 1, "1", 1), 0);
	assert_int_equal(kv_get(f->db, "k", 1, NULL, NULL), 0);
	/* a delete, then a batch that writes it among others */
	assert_int_equal(kv_delete(f->db, "k", 1), 0);
	for (int i = 0; i < 2; i++)
		assert_int_equal(kv_get(f->db, "k", 1, NULL, NULL), -ENOENT);
	b = kv_batch_new();
	for (int i = 0; i < 40; i++) {
		char k[8];

		snprintf(k, sizeof(k), "o%d", i);
		assert_int_equal(kv_get(f->db, k, strlen(k), NULL, NULL),
				 -ENOENT);
		kv_batch_put(b, k, strlen(k), "v", 1);
	}
	kv_batch_put(b, "k", 1, "2", 1);
	assert_int_equal(kv_batch_commit(f->db, b, 0), 0);
	kv_batch_free(b);
	assert_int_equal(kv_get(f->db, "k", 1, NULL, NULL), 0);
	for (int i = 0; i < 40; i++) {
		char k[8];

		snprintf(k, sizeof(k), "o%d", i);
		assert_int_equal(kv_get(f->db, k, strlen(k), NULL, NULL), 0);
	}
	/* a key longer than the cache holds, and keys that differ only
	 * past a NUL */
	memset(big, 'x', sizeof(big));
	assert_int_equal(kv_get(f->db, big, sizeof(big), NULL, NULL), -ENOENT);
	assert_int_equal(kv_put(f->db, big, sizeof(big), "v", 1), 0);
	assert_int_equal(kv_get(f->db, big, sizeof(big), NULL, NULL), 0);
	assert_int_equal(kv_put(f->db, "n\0b", 3, "v", 1), 0);
	for (int i = 0; i < 2; i++)
		assert_int_equal(kv_get(f->db, "n\0a", 3, NULL, NULL), -ENOENT);
	assert_int_equal(kv_get(f->db, "n\0b", 3, NULL, NULL), 0);
}

/* A commit that lands while a get is in the engine (after the engine
 * looked, before the miss is remembered): the miss must not be kept. An
 * engine that wraps kv_mem and commits the key from inside its get. */
struct racing {
	struct kv base;
	kv *inner;
	int commit_in_get;
};

static int racing_get(kv *db, const void *key, size_t klen, void **val,
		      size_t *vlen)
{
	struct racing *r = (struct racing *)db;
	int rc = r->inner->e->get(r->inner, key, klen, val, vlen);

	if (r->commit_in_get) {
		r->commit_in_get = 0;
		assert_int_equal(kv_put(db, key, klen, "late", 4), 0);
	}
	return rc;
}

static int racing_commit(kv *db, const kv_batch *b, int sync)
{
	struct racing *r = (struct racing *)db;

	return r->inner->e->commit(r->inner, b, sync);
}

static int racing_scan(kv *db, const void *prefix, size_t plen,
		       const void *after, size_t alen, kv_scan_fn fn,
		       void *arg)
{
	struct racing *r = (struct racing *)db;

	return kv_scan(r->inner, prefix, plen, after, alen, fn, arg);
}

static int racing_sync(kv *db)
{
	(void)db;
	return 0;
}

static void racing_close(kv *db)
{
	(void)db;
}

static void test_absent_racing_commit(void **state)
{
	static const struct kv_engine eng = {
		.get = racing_get,
		.scan = racing_scan,
		.commit = racing_commit,
		.sync = racing_sync,
		.close = racing_close,
	};
	struct racing r = { { &eng, NULL }, NULL, 0 };

	(void)state;
	assert_int_equal(kv_open_mem(&r.inner), 0);
	kv_neg_init(&r.base);
	assert_non_null(r.base.neg);
	r.commit_in_get = 1;
	/* the engine saw no key; the commit inside made it exist */
	assert_int_equal(kv_get(&r.base, "d", 1, NULL, NULL), -ENOENT);
	assert_int_equal(kv_get(&r.base, "d", 1, NULL, NULL), 0);
	kv_close(&r.base);
	assert_null(r.base.neg);
	kv_close(r.inner);
}

#define BOTH(t)                                                    \
	{ #t "/mem", t, setup_mem, teardown, NULL },               \
	{ #t "/rocksdb", t, setup_rocks, teardown, NULL }

int main(void)
{
	const struct CMUnitTest tests[] = {
		BOTH(test_get_put_delete),
		BOTH(test_scan_order),
		BOTH(test_big_endian_numeric_order),
		BOTH(test_batch),
		BOTH(test_scan_snapshot),
		BOTH(test_threads),
		BOTH(test_absent_then_written),
		cmocka_unit_test(test_absent_racing_commit),
		cmocka_unit_test_setup_teardown(test_rocks_persistence,
						setup_rocks, teardown),
		cmocka_unit_test(test_rocks_missing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
