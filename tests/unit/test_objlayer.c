/*
 * test_objlayer.c - replicated object I/O: round trips and holes, both
 * full policies (refusals change no replica, other PGs go on, partial
 * multi-object writes, deletes free space at once), min_size, stale
 * copies of a down OSD never served, rebalance conserving every object and
 * moving only what changed, backfillfull, and concurrent writers while the
 * map changes.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cluster_fixture.h"
#include "objindex.h"
#include "objlayer_i.h"
#include "placement.h"

#define DATA_POOL 1 /* the pool mkfs makes */

#define MB (1024 * 1024)

static int has(const int *v, int n, int x)
{
	for (int i = 0; i < n; i++)
		if (v[i] == x)
			return 1;
	return 0;
}

/* Names "p<i>" whose acting set holds (want = 1) or lacks osd. */
static void names_for(struct fixture *f, int osd, int want, char out[][32],
		      int n)
{
	int got = 0;

	for (int i = 0; got < n && i < 100000; i++) {
		int a[16], na;

		snprintf(out[got], 32, "p%d", i);
		fx_acting(f, out[got], a, &na, NULL);
		if (has(a, na, osd) == want)
			got++;
	}
	assert_int_equal(got, n);
}

/* The copy of name on osd equals buf (or is absent when buf is NULL). */
static void assert_copy(struct fixture *f, int osd, const char *name,
			const void *buf, size_t len)
{
	const cfs_osdmap *m = cfs_osdmap_get(f->c);
	cfs_obj *o;
	uint32_t ps;
	char *got;

	cfs_object_to_pg(m, name, NULL, &ps);
	cfs_osdmap_put(m);
	if (!buf) {
		assert_int_equal(cfs_obj_open(f->c, osd, DATA_POOL, ps, name, 0, &o),
				 -ENOENT);
		return;
	}
	assert_int_equal(cfs_obj_open(f->c, osd, DATA_POOL, ps, name, 0, &o), 0);
	assert_int_equal(cfs_obj_size(o), len);
	got = malloc(len + 1);
	assert_int_equal(cfs_obj_pread(o, got, len, 0), (ssize_t)len);
	assert_memory_equal(got, buf, len);
	free(got);
	cfs_obj_put(o);
}

static void test_roundtrip_and_holes(void **state)
{
	struct fixture *f = fx_new(NULL);
	struct ol_layout l;
	char *w = malloc(6 * MB), *r = malloc(12 * MB);
	uint64_t size;

	(void)state;
	ol_default_layout(f->ol, &l);
	assert_int_equal(l.object_size, 4 * MB);
	fx_pattern(w, 6 * MB, 1);
	/* write 6 MiB at 5 MiB: object 0 is never written (a hole) */
	assert_int_equal(ol_write(f->ol, 0x10000000000ULL, &l, 5 * MB, w,
				  6 * MB),
			 6 * MB);
	assert_int_equal(ol_read(f->ol, 0x10000000000ULL, &l, 11 * MB, 0, r,
				 12 * MB),
			 11 * MB);
	for (int i = 0; i < 5 * MB; i++)
		if (r[i])
			fail_msg("hole byte %d is %d", i, r[i]);
	assert_memory_equal(r + 5 * MB, w, 6 * MB);
	/* read past EOF */
	assert_int_equal(ol_read(f->ol, 0x10000000000ULL, &l, 11 * MB,
				 11 * MB, r, 10),
			 0);
	assert_int_equal(ol_obj_stat(f->ol, DATA_POOL, "10000000000.00000000", &size),
			 -ENOENT);
	assert_int_equal(ol_obj_stat(f->ol, DATA_POOL, "10000000000.00000002", &size), 0);
	assert_int_equal(size, 3 * MB);

	/* truncate to 6 MiB: object 2 goes, object 1 shrinks to 2 MiB */
	assert_int_equal(ol_truncate(f->ol, 0x10000000000ULL, &l, 11 * MB,
				     6 * MB),
			 0);
	assert_int_equal(ol_obj_stat(f->ol, DATA_POOL, "10000000000.00000002", &size),
			 -ENOENT);
	assert_int_equal(ol_obj_stat(f->ol, DATA_POOL, "10000000000.00000001", &size), 0);
	assert_int_equal(size, 2 * MB);
	fx_assert_usage_exact(f);
	/* remove frees everything */
	assert_int_equal(ol_remove(f->ol, 0x10000000000ULL, &l, 6 * MB), 0);
	assert_int_equal(ol_obj_stat(f->ol, DATA_POOL, "10000000000.00000001", &size),
			 -ENOENT);
	{
		struct ol_space s;

		ol_space(f->ol, &s);
		assert_int_equal(s.used, 0);
		assert_true(s.max_avail > 0);
	}
	fx_assert_usage_exact(f);

	/* whole objects, every replica written */
	{
		int a[16], na;

		assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, "obj", w, 1000), 0);
		assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, "obj", w + 7, 10), 0);
		fx_acting(f, "obj", a, &na, NULL);
		assert_int_equal(na, 3);
		for (int i = 0; i < na; i++)
			assert_copy(f, a[i], "obj", w + 7, 10);
		assert_int_equal(ol_obj_read(f->ol, DATA_POOL, "obj", 2, r, 100), 8);
		assert_memory_equal(r, w + 9, 8);
		assert_int_equal(ol_obj_remove(f->ol, DATA_POOL, "obj"), 0);
		assert_int_equal(ol_obj_remove(f->ol, DATA_POOL, "obj"), -ENOENT);
		for (int i = 0; i < na; i++)
			assert_copy(f, a[i], "obj", NULL, 0);
	}
	free(w);
	free(r);
	fx_free(f);
}

/* A file's allocated bytes (st_blocks) follow every change, though they
 * are cached between changes; inodes sharing a cache slot do not mix. */
static void test_file_bytes(void **state)
{
	struct fixture *f = fx_new(NULL);
	struct ol_layout l;
	char *w = malloc(6 * MB);
	uint64_t a = 0x10000000000ULL, b = a + 1024 * 4, got;
	const uint64_t ino[2] = { a, b }; /* same slot (ino % 1024) */

	(void)state;
	ol_default_layout(f->ol, &l);
	fx_pattern(w, 6 * MB, 3);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(ol_file_bytes(f->ol, ino[i], &got), 0);
		assert_int_equal(got, 0);
	}
	assert_int_equal(ol_write(f->ol, a, &l, 5 * MB, w, 6 * MB), 6 * MB);
	assert_int_equal(ol_file_bytes(f->ol, a, &got), 0);
	assert_int_equal(got, 7 * MB); /* object 0 a hole, 1 whole */
	assert_int_equal(ol_file_bytes(f->ol, a, &got), 0); /* cached */
	assert_int_equal(got, 7 * MB);
	assert_int_equal(ol_file_bytes(f->ol, b, &got), 0);
	assert_int_equal(got, 0);
	assert_int_equal(ol_write(f->ol, b, &l, 0, w, 100), 100);
	assert_int_equal(ol_file_bytes(f->ol, b, &got), 0);
	assert_int_equal(got, 100);
	assert_int_equal(ol_file_bytes(f->ol, a, &got), 0);
	assert_int_equal(got, 7 * MB);
	/* a write inside what exists keeps the count; one past grows it */
	assert_int_equal(ol_write(f->ol, a, &l, 6 * MB, w, 10), 10);
	assert_int_equal(ol_file_bytes(f->ol, a, &got), 0);
	assert_int_equal(got, 7 * MB);
	assert_int_equal(ol_write(f->ol, a, &l, 0, w, 10), 10);
	assert_int_equal(ol_file_bytes(f->ol, a, &got), 0);
	assert_int_equal(got, 7 * MB + 10);
	assert_int_equal(ol_truncate(f->ol, a, &l, 11 * MB, 6 * MB), 0);
	assert_int_equal(ol_file_bytes(f->ol, a, &got), 0);
	assert_int_equal(got, 2 * MB + 10);
	assert_int_equal(ol_remove(f->ol, a, &l, 6 * MB), 0);
	assert_int_equal(ol_file_bytes(f->ol, a, &got), 0);
	assert_int_equal(got, 0);
	assert_int_equal(ol_file_bytes(f->ol, b, &got), 0);
	assert_int_equal(got, 100);
	free(w);
	fx_free(f);
}

/* The point reads of a file known to end at its size give what the scan
 * gives, striped or not, and the scan's answer past a few objects. */
static int sum_size(uint64_t objectno, uint64_t size, void *arg)
{
	(void)objectno;
	*(uint64_t *)arg += size;
	return 0;
}

static uint64_t bytes_upto(struct fixture *f, uint64_t ino,
			   const struct ol_layout *l, uint64_t size)
{
	uint64_t scan = 0, point, again;

	/* the index itself, past ol_file_bytes's cache */
	assert_int_equal(ol_file_objects(f->ol, l->pool, ino, sum_size, &scan),
			 0);
	assert_int_equal(ol_file_bytes_upto(f->ol, ino, l, size, &point), 0);
	assert_int_equal(point, scan);
	assert_int_equal(ol_file_bytes(f->ol, ino, &again), 0); /* cached */
	assert_int_equal(again, scan);
	return point;
}

static void test_file_bytes_upto(void **state)
{
	struct fixture *f = fx_new(NULL);
	struct ol_layout l, st;
	char *w = malloc(6 * MB);
	uint64_t a = 0x10000000000ULL, b = a + 1, c = a + 2, got;

	(void)state;
	ol_default_layout(f->ol, &l);
	st = l;
	st.stripe_unit = 65536;
	st.stripe_count = 3;
	fx_pattern(w, 6 * MB, 5);
	assert_int_equal(bytes_upto(f, a, &l, 0), 0);
	assert_int_equal(ol_write(f->ol, a, &l, 0, w, 4096), 4096);
	assert_int_equal(bytes_upto(f, a, &l, 4096), 4096);
	/* a hole first: object 0 absent, object 1 sparse up to its data */
	assert_int_equal(ol_write(f->ol, b, &l, 5 * MB, w, 100), 100);
	assert_int_equal(bytes_upto(f, b, &l, 5 * MB + 100), MB + 100);
	/* striped over three objects, the last one short */
	assert_int_equal(ol_write(f->ol, c, &st, 0, w, 200000), 200000);
	assert_int_equal(bytes_upto(f, c, &st, 200000), 200000);
	assert_int_equal(ol_truncate(f->ol, c, &st, 200000, 70000), 0);
	assert_int_equal(bytes_upto(f, c, &st, 70000), 70000);
	/* past OL_BYTES_POINT objects: the scan */
	assert_int_equal(ol_write(f->ol, a, &l, 20 * MB, w, 10), 10);
	assert_int_equal(bytes_upto(f, a, &l, 20 * MB + 10), 4096 + 10);
	/* not known: the scan */
	assert_int_equal(ol_file_bytes_upto(f->ol, b, &l, UINT64_MAX, &got),
			 0);
	assert_int_equal(got, MB + 100);
	free(w);
	fx_free(f);
}

/* A write of object 0 notes its size for the next st_blocks
 * (ol_bytes_noted): the object's whole size after the write, in its own
 * pool, never another pool's object 0 (a file's backtrace lives in the
 * default pool while its data may not). */
static void test_file_bytes_noted(void **state)
{
	struct fixture *f = fx_new(NULL);
	const cfs_osdmap *m = cfs_osdmap_get(f->c);
	struct cfs_pool_info want = *cfs_osdmap_pool(m);
	struct ol_layout l, other;
	char w[8192], why[256] = "", name[64];
	uint64_t ino = 0x10000000100ULL, got;
	int64_t id;

	(void)state;
	cfs_osdmap_put(m);
	snprintf(want.name, sizeof(want.name), "other");
	want.pg_num = want.pgp_num = 8;
	assert_int_equal(cfs_pool_create(f->c, &want, &id, why, sizeof(why)),
			 0);
	ol_default_layout(f->ol, &l);
	other = l;
	other.pool = id;
	fx_pattern(w, sizeof(w), 7);
	assert_int_equal(ol_write(f->ol, ino, &other, 0, w, 100), 100);
	assert_int_equal(bytes_upto(f, ino, &other, 100), 100);
	/* an overwrite inside: the object keeps its size */
	assert_int_equal(ol_write(f->ol, ino, &other, 50, w, 10), 10);
	assert_int_equal(ol_file_bytes_upto(f->ol, ino, &other, 100, &got), 0);
	assert_int_equal(got, 100);
	assert_int_equal(ol_write(f->ol, ino, &other, 4000, w, 96), 96);
	assert_int_equal(ol_file_bytes_upto(f->ol, ino, &other, 4096, &got), 0);
	assert_int_equal(got, 4096);
	/* the backtrace's empty object 0 in the default pool */
	ol_object_name(ino, 0, name, sizeof(name));
	assert_int_equal(ol_obj_write(f->ol, l.pool, name, 0, NULL, 0), 0);
	assert_int_equal(ol_file_bytes_upto(f->ol, ino, &other, 4096, &got), 0);
	assert_int_equal(got, 4096);
	assert_int_equal(bytes_upto(f, ino, &other, 4096), 4096);
	/* a truncate is no write of object 0: counted again */
	assert_int_equal(ol_truncate(f->ol, ino, &other, 4096, 1000), 0);
	assert_int_equal(bytes_upto(f, ino, &other, 1000), 1000);
	assert_int_equal(ol_write(f->ol, ino, &other, 0, w, 8192), 8192);
	assert_int_equal(ol_file_bytes_upto(f->ol, ino, &other, 8192, &got), 0);
	assert_int_equal(got, 8192);
	fx_free(f);
}

/* A write starts from the record the write before it set (reccache.c)
 * only while nothing else changed the object: a removal, a truncate or a
 * write of another object of the file in between are seen. */
/* The health round's PG stats take an object's record from their index
 * scan while no change of its stem came after the scan began, else read
 * it again: a record changed since is never taken from the scan. */
static void test_pg_index_record(void **state)
{
	struct fixture *f = fx_new(NULL);
	char w[4096], name[64], other[64];
	char *v[1] = { name };
	struct cfs_objinfo scanned = { 999999, 1 }, oi;
	struct ol_names idx = { v, 1, 1, 0, &scanned, 1, 0 };
	struct ol_layout l;

	(void)state;
	ol_default_layout(f->ol, &l);
	ol_object_name(0x10000000300ULL, 0, name, sizeof(name));
	ol_object_name(0x10000000301ULL, 0, other, sizeof(other));
	fx_pattern(w, sizeof(w), 6);
	assert_int_equal(ol_obj_write(f->ol, l.pool, name, 0, w, 100), 0);
	idx.seq = cfs_index_seq(f->c);
	/* unchanged since the scan: the scan's record, no read */
	assert_int_equal(ol_pg_index_record(f->c, l.pool, &idx, 1, name, &oi),
			 0);
	assert_true(oi.version == 999999 && oi.size == 1);
	/* another file's change leaves it so */
	assert_int_equal(ol_obj_write(f->ol, l.pool, other, 0, w, 10), 0);
	assert_int_equal(ol_pg_index_record(f->c, l.pool, &idx, 1, name, &oi),
			 0);
	assert_true(oi.version == 999999);
	/* the position must name it: else the index */
	assert_int_equal(ol_pg_index_record(f->c, l.pool, &idx, 0, name, &oi),
			 0);
	assert_true(oi.size == 100);
	/* its own change after the scan: the index's record */
	assert_int_equal(ol_obj_write(f->ol, l.pool, name, 100, w, 100), 0);
	assert_int_equal(ol_pg_index_record(f->c, l.pool, &idx, 1, name, &oi),
			 0);
	assert_true(oi.version != 999999 && oi.size == 200);
	/* and its removal: gone, whatever the scan saw */
	assert_int_equal(ol_obj_remove(f->ol, l.pool, name), 0);
	assert_int_equal(ol_pg_index_record(f->c, l.pool, &idx, 1, name, &oi),
			 -ENOENT);
	fx_free(f);
}

static void test_write_after_change(void **state)
{
	struct fixture *f = fx_new(NULL);
	char w[4096], r[4096], name[64];
	uint64_t ino = 0x10000000200ULL, size;
	struct ol_layout l;

	(void)state;
	ol_default_layout(f->ol, &l);
	ol_object_name(ino, 0, name, sizeof(name));
	fx_pattern(w, sizeof(w), 5);
	assert_int_equal(ol_obj_write(f->ol, l.pool, name, 0, w, 100), 0);
	assert_int_equal(ol_obj_write(f->ol, l.pool, name, 100, w, 100), 0);
	assert_int_equal(ol_obj_stat(f->ol, l.pool, name, &size), 0);
	assert_int_equal(size, 200);
	/* removed, then written again: a new object of 10 bytes */
	assert_int_equal(ol_obj_remove(f->ol, l.pool, name), 0);
	assert_int_equal(ol_obj_write(f->ol, l.pool, name, 0, w, 10), 0);
	assert_int_equal(ol_obj_stat(f->ol, l.pool, name, &size), 0);
	assert_int_equal(size, 10);
	assert_int_equal(ol_obj_write(f->ol, l.pool, name, 0, w, 4096), 0);
	/* truncated under the cached record: the next write keeps 50 */
	assert_int_equal(ol_truncate(f->ol, ino, &l, 4096, 50), 0);
	assert_int_equal(ol_obj_write(f->ol, l.pool, name, 0, w, 10), 0);
	assert_int_equal(ol_obj_stat(f->ol, l.pool, name, &size), 0);
	assert_int_equal(size, 50);
	/* and reads back what was written, the copies' version checked
	 * against the record a stale cache would have got wrong */
	assert_int_equal(ol_obj_read(f->ol, l.pool, name, 0, r, 50), 50);
	assert_memory_equal(r, w, 50);
	fx_free(f);
}

/* Policy osd: a full OSD refuses the writes of its PGs only. */
static void test_full_policy_osd(void **state)
{
	struct fixture *f = fx_new(NULL);
	char in5[4][32], out5[6][32];
	char *a = malloc(4 * MB), *b = malloc(4 * MB);
	struct cfs_osd_usage u;
	int act[16], na;

	(void)state;
	fx_pattern(a, 4 * MB, 2);
	fx_pattern(b, 4 * MB, 3);
	names_for(f, 5, 1, in5, 4);
	names_for(f, 5, 0, out5, 6);
	/* osd.5: 10 MiB, full at 9.5 MiB */
	assert_int_equal(cfs_osd_set_capacity(f->c, 5, 10 * MB), 0);
	assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, in5[0], a, 4 * MB), 0);
	assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, in5[1], a, 4 * MB), 0);
	/* the third would push osd.5 over: refused */
	assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, in5[2], a, 4 * MB), -ENOSPC);
	fx_acting(f, in5[2], act, &na, NULL);
	for (int i = 0; i < na; i++)
		assert_copy(f, act[i], in5[2], NULL, 0);
	/* other PGs go on */
	for (int i = 0; i < 6; i++)
		assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, out5[i], b, 4 * MB),
				 0);
	/* a refused write changes no replica: growing in5[0] past the limit */
	assert_int_equal(ol_obj_write(f->ol, DATA_POOL, in5[0], 4 * MB, b, 2 * MB),
			 -ENOSPC);
	fx_acting(f, in5[0], act, &na, NULL);
	for (int i = 0; i < na; i++)
		assert_copy(f, act[i], in5[0], a, 4 * MB);
	/* an overwrite that adds nothing is fine while below the limit */
	assert_int_equal(ol_obj_write(f->ol, DATA_POOL, in5[0], 0, b, 4 * MB), 0);
	for (int i = 0; i < na; i++)
		assert_copy(f, act[i], in5[0], b, 4 * MB);
	/* delete frees at once, and the refused write now fits */
	cfs_osd_usage(f->c, 5, &u);
	assert_int_equal(u.used, 8 * MB);
	assert_int_equal(ol_obj_remove(f->ol, DATA_POOL, in5[1]), 0);
	cfs_osd_usage(f->c, 5, &u);
	assert_int_equal(u.used, 4 * MB);
	assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, in5[2], a, 4 * MB), 0);

	/* at/over full_ratio: even overwrites are refused; deletes and
	 * truncates still work */
	assert_int_equal(cfs_set_full_ratio(f->c, 0.5), 0);
	assert_int_equal(ol_obj_write(f->ol, DATA_POOL, in5[0], 0, a, 10), -ENOSPC);
	assert_copy(f, 5, in5[0], b, 4 * MB);
	{
		struct ol_layout l;
		uint64_t s;

		ol_default_layout(f->ol, &l);
		assert_int_equal(ol_obj_write(f->ol, DATA_POOL, out5[0], 0, a, 10), 0);
		/* truncate an object of osd.5 through the file API */
		(void)l;
		assert_int_equal(ol_obj_remove(f->ol, DATA_POOL, in5[2]), 0);
		assert_int_equal(ol_obj_stat(f->ol, DATA_POOL, in5[0], &s), 0);
	}
	fx_assert_usage_exact(f);
	free(a);
	free(b);
	fx_free(f);
}

/* A write over several objects reports the bytes before the refusal. */
static void test_partial_multi_object_write(void **state)
{
	struct fixture *f = fx_new(NULL);
	struct ol_layout l;
	char n0[64], n1[64], *buf = malloc(12 * MB), *back = malloc(12 * MB);
	uint64_t ino = 0, s;
	int a0[16], a1[16], na0, na1;

	(void)state;
	ol_default_layout(f->ol, &l);
	fx_pattern(buf, 12 * MB, 4);
	/* an inode whose object 0 avoids osd.5 and object 1 uses it */
	for (uint64_t i = 0x10000000000ULL; i < 0x10000000000ULL + 10000; i++) {
		ol_object_name(i, 0, n0, sizeof(n0));
		ol_object_name(i, 1, n1, sizeof(n1));
		fx_acting(f, n0, a0, &na0, NULL);
		fx_acting(f, n1, a1, &na1, NULL);
		if (!has(a0, na0, 5) && has(a1, na1, 5)) {
			ino = i;
			break;
		}
	}
	assert_true(ino != 0);
	assert_int_equal(cfs_osd_set_capacity(f->c, 5, 3 * MB), 0);
	assert_int_equal(ol_write(f->ol, ino, &l, 0, buf, 12 * MB), 4 * MB);
	assert_int_equal(ol_obj_stat(f->ol, DATA_POOL, n0, &s), 0);
	assert_int_equal(s, 4 * MB);
	assert_int_equal(ol_obj_stat(f->ol, DATA_POOL, n1, &s), -ENOENT);
	assert_int_equal(ol_read(f->ol, ino, &l, 4 * MB, 0, back, 4 * MB),
			 4 * MB);
	assert_memory_equal(back, buf, 4 * MB);
	/* nothing at all written: the error itself */
	assert_int_equal(ol_write(f->ol, ino, &l, 4 * MB, buf, 3 * MB),
			 -ENOSPC);
	free(buf);
	free(back);
	fx_free(f);
}

/* Policy pool: one full OSD in the rule stops every write. */
static void test_full_policy_pool(void **state)
{
	struct fixture *f = fx_new(NULL);
	char in5[2][32], out5[3][32], *a = malloc(4 * MB);

	(void)state;
	fx_pattern(a, 4 * MB, 5);
	names_for(f, 5, 1, in5, 2);
	names_for(f, 5, 0, out5, 3);
	assert_int_equal(cfs_set_full_policy(f->c, CFS_FULL_POOL), 0);
	assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, in5[0], a, 4 * MB), 0);
	assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, out5[0], a, 4 * MB), 0);
	/* shrink osd.5 under its data: it is full now */
	assert_int_equal(cfs_osd_set_capacity(f->c, 5, 4 * MB), 0);
	{
		const cfs_osdmap *m = cfs_osdmap_get(f->c);

		assert_true(cfs_pool_is_full(f->c, m, NULL, NULL));
		cfs_osdmap_put(m);
	}
	assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, out5[1], a, 10), -ENOSPC);
	assert_int_equal(ol_obj_write(f->ol, DATA_POOL, out5[0], 0, a, 10), -ENOSPC);
	assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, in5[1], a, 10), -ENOSPC);
	/* under policy osd the same state refuses only osd.5's PGs */
	assert_int_equal(cfs_set_full_policy(f->c, CFS_FULL_OSD), 0);
	assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, out5[1], a, 10), 0);
	assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, in5[1], a, 10), -ENOSPC);
	assert_int_equal(cfs_set_full_policy(f->c, CFS_FULL_POOL), 0);
	/* deleting always works and frees at once: the pool writes again */
	assert_int_equal(ol_obj_remove(f->ol, DATA_POOL, in5[0]), 0);
	assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, out5[2], a, 10), 0);
	fx_assert_usage_exact(f);
	free(a);
	fx_free(f);
}

/* The health check naming the OSD behind an ENOSPC, or NULL. */
static const struct cfs_health_check *too_full(struct cfs_health *h)
{
	for (int i = 0; i < h->nchecks; i++)
		if (!strcmp(h->checks[i].code, "OSD_TOO_FULL_FOR_WRITE"))
			return &h->checks[i];
	return NULL;
}

/* Policy osd: a write that would push an OSD past full_ratio is refused
 * while the OSD is below it; health names the OSD until the same write
 * would fit again. */
static void test_full_refusal_explained(void **state)
{
	struct fixture *f = fx_new(NULL);
	char in5[3][32], *a = malloc(4 * MB);
	const struct cfs_health_check *c;
	const cfs_osdmap *m;
	struct cfs_health h;

	(void)state;
	fx_pattern(a, 4 * MB, 8);
	names_for(f, 5, 1, in5, 3);
	/* osd.5: 8 MiB, writes refused past 7.6 MiB */
	assert_int_equal(cfs_osd_set_capacity(f->c, 5, 8 * MB), 0);
	assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, in5[0], a, 4 * MB), 0);
	assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, in5[1], a, 4 * MB), -ENOSPC);
	m = cfs_osdmap_get(f->c);
	assert_int_equal(cfs_health_take(f->c, m, NULL, 0, NULL, &h), 0);
	c = too_full(&h);
	assert_non_null(c);
	assert_int_equal(h.status, CFS_HEALTH_ERR);
	assert_int_equal(c->count, 1);
	assert_int_equal(c->ndetail, 1);
	assert_non_null(strstr(c->detail[0], "osd.5 refused a write of 4 MiB"));
	assert_int_equal(h.osd[5].fullness, CFS_FULLNESS_NONE);
	cfs_health_free(&h);
	/* a smaller write fits: the refusal of 4 MiB still stands */
	assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, in5[2], a, 1 * MB), 0);
	assert_int_equal(cfs_health_take(f->c, m, NULL, 0, NULL, &h), 0);
	assert_non_null(too_full(&h));
	cfs_health_free(&h);
	/* room again: the check goes */
	assert_int_equal(ol_obj_remove(f->ol, DATA_POOL, in5[0]), 0);
	assert_int_equal(cfs_health_take(f->c, m, NULL, 0, NULL, &h), 0);
	assert_null(too_full(&h));
	assert_int_equal(h.status, CFS_HEALTH_OK);
	cfs_health_free(&h);
	cfs_osdmap_put(m);
	free(a);
	fx_free(f);
}

/* Policy pool switches on through writes: a write may take an OSD past
 * full_ratio (up to its capacity), and from then on the pool refuses
 * every write, whatever OSDs it needs. */
static void test_full_policy_pool_by_writes(void **state)
{
	struct fixture *f = fx_new(NULL);
	char in5[3][32], out5[2][32], *a = malloc(4 * MB);
	const cfs_osdmap *m;
	struct cfs_osd_usage u;
	int fo = -1;

	(void)state;
	fx_pattern(a, 4 * MB, 9);
	names_for(f, 5, 1, in5, 3);
	names_for(f, 5, 0, out5, 2);
	assert_int_equal(cfs_set_full_policy(f->c, CFS_FULL_POOL), 0);
	/* osd.5: 8 MiB, full at 7.6 MiB */
	assert_int_equal(cfs_osd_set_capacity(f->c, 5, 8 * MB), 0);
	assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, in5[0], a, 4 * MB), 0);
	assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, out5[0], a, 10), 0);
	m = cfs_osdmap_get(f->c);
	assert_false(cfs_pool_is_full(f->c, m, NULL, NULL));
	/* 4 + 3.8 MiB: past full_ratio, within the capacity: admitted */
	assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, in5[1], a, 3800 * 1024), 0);
	cfs_osd_usage(f->c, 5, &u);
	assert_true(u.used >= cfs_osdmap_full_limit(m, 5));
	assert_true(cfs_pool_is_full(f->c, m, NULL, &fo));
	assert_int_equal(fo, 5);
	/* now the whole pool refuses, osd.5 or not */
	assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, out5[1], a, 10), -ENOSPC);
	assert_int_equal(ol_obj_write(f->ol, DATA_POOL, out5[0], 0, a, 10), -ENOSPC);
	cfs_osdmap_put(m);
	/* deleting frees at once: the pool writes again */
	assert_int_equal(ol_obj_remove(f->ol, DATA_POOL, in5[1]), 0);
	assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, out5[1], a, 10), 0);
	/* the capacity is the hard limit: a write past it is refused */
	assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, in5[2], a, 4 * MB + 1),
			 -ENOSPC);
	fx_assert_usage_exact(f);
	free(a);
	fx_free(f);
}

/* Every copy of name sits in the folder of the PG stable_mod picks for
 * the map's pg_num, on each acting OSD, and reads back as buf. */
static void assert_filed(struct fixture *f, const char *name,
			 const void *buf, size_t len)
{
	const cfs_osdmap *m = cfs_osdmap_get(f->c);
	uint32_t raw, ps;
	const struct cfs_pg_mapping *pg;
	char *got = malloc(len + 1);

	cfs_object_to_pg(m, name, &raw, &ps);
	assert_int_equal(ps, pl_pg_seed(raw, cfs_osdmap_pool(m)->pg_num));
	pg = cfs_osdmap_pg(m, ps);
	assert_int_equal(pg->nacting, 3);
	for (int i = 0; i < pg->nacting; i++)
		assert_copy(f, pg->acting[i], name, buf, len);
	assert_int_equal(ol_obj_read(f->ol, DATA_POOL, name, 0, got, len + 1),
			 (ssize_t)len);
	assert_memory_equal(got, buf, len);
	free(got);
	cfs_osdmap_put(m);
}

/* PG split and merge: each object moves to the PG stable_mod picks for
 * the new pg_num, on the OSDs that held it (pgp_num unchanged); a merge
 * waits for pgp_num <= the new pg_num. */
static void test_pg_split_merge(void **state)
{
	struct fixture *f = fx_new(NULL); /* 32 PGs */
	char names[120][32], why[256];
	char *data = malloc(8192);

	(void)state;
	fx_pattern(data, 8192, 11);
	for (int i = 0; i < 120; i++) {
		snprintf(names[i], 32, "sp%d", i);
		assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, names[i], data + i,
						   (size_t)(100 + i * 50)),
				 0);
	}
	assert_int_equal(ol_set_pg_num(f->ol, DATA_POOL, 32, why, sizeof(why)),
			 -EALREADY);
	assert_int_equal(ol_set_pg_num(f->ol, DATA_POOL, 0, why, sizeof(why)), -ERANGE);
	assert_int_equal(ol_set_pg_num(f->ol, DATA_POOL, 100, why, sizeof(why)), 0);
	{
		const cfs_osdmap *m = cfs_osdmap_get(f->c);

		assert_int_equal(cfs_osdmap_pool(m)->pg_num, 100);
		assert_int_equal(cfs_osdmap_pool(m)->pgp_num, 32);
		cfs_osdmap_put(m);
	}
	for (int i = 0; i < 120; i++)
		assert_filed(f, names[i], data + i, (size_t)(100 + i * 50));
	fx_assert_usage_exact(f);
	/* a merge below pgp_num (32) waits (the command leaves it to
	 * rebalance, test_adjust_pgs.c); one above it is co-located */
	assert_int_equal(ol_set_pg_num(f->ol, DATA_POOL, 16, why, sizeof(why)), -EBUSY);
	assert_non_null(strstr(why, "pgp_num 32 is above 16"));
	assert_int_equal(ol_set_pg_num(f->ol, DATA_POOL, 40, why, sizeof(why)), 0);
	for (int i = 0; i < 120; i++)
		assert_filed(f, names[i], data + i, (size_t)(100 + i * 50));
	fx_assert_usage_exact(f);
	/* the next open of the cluster finds them where they are */
	fx_close(f);
	fx_open(f);
	for (int i = 0; i < 120; i++)
		assert_filed(f, names[i], data + i, (size_t)(100 + i * 50));
	free(data);
	fx_free(f);
}

static char logged[8][512];
static int nlogged;

static void capture(int level, const char *msg)
{
	(void)level;
	if (nlogged < 8)
		snprintf(logged[nlogged++], sizeof(logged[0]), "%s", msg);
}

static void test_min_size(void **state)
{
	struct fixture *f = fx_new(NULL);
	int act[16], na, other[16], no;
	char pgid[32], buf[64];
	uint32_t ps;
	const cfs_osdmap *m;

	(void)state;
	assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, "victim", "data", 4), 0);
	fx_acting(f, "victim", act, &na, &ps);
	m = cfs_osdmap_get(f->c);
	cfs_pgid_str(m, ps, pgid, sizeof(pgid));
	cfs_osdmap_put(m);
	assert_int_equal(cfs_osd_mark_down(f->c, act[0]), 0);
	/* one down: 2 >= min_size, still fine */
	assert_int_equal(ol_obj_read(f->ol, DATA_POOL, "victim", 0, buf, 64), 4);
	assert_int_equal(cfs_osd_mark_down(f->c, act[1]), 0);
	nlogged = 0;
	cfs_log_set(capture, CFS_LOG_DEBUG);
	assert_int_equal(ol_obj_read(f->ol, DATA_POOL, "victim", 0, buf, 64), -EIO);
	assert_int_equal(nlogged, 1);
	assert_non_null(strstr(logged[0], pgid));
	assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, "victim", "x", 1), -EIO);
	assert_int_equal(nlogged, 2);
	assert_non_null(strstr(logged[1], pgid));
	cfs_log_set(NULL, CFS_LOG_WARN);
	/* a PG without those two OSDs works */
	for (int i = 0;; i++) {
		snprintf(buf, sizeof(buf), "ok%d", i);
		fx_acting(f, buf, other, &no, NULL);
		if (no >= 2)
			break;
	}
	assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, buf, "y", 1), 0);
	/* back up: the object is readable again */
	assert_int_equal(cfs_osd_mark_up(f->c, act[1]), 0);
	assert_int_equal(ol_obj_read(f->ol, DATA_POOL, "victim", 0, buf, 64), 4);
	assert_memory_equal(buf, "data", 4);
	fx_free(f);
}

/* A copy that missed a write while its OSD was down is never served. */
static void test_stale_copy(void **state)
{
	struct fixture *f = fx_new(NULL);
	int act[16], na;
	char buf[64];
	struct cfs_check_report rep;
	struct ol_rebalance_stats st;

	(void)state;
	assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, "s", "old", 3), 0);
	fx_acting(f, "s", act, &na, NULL);
	assert_int_equal(cfs_osd_mark_down(f->c, act[0]), 0);
	assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, "s", "newer", 5), 0);
	/* the primary's file still says "old" */
	assert_copy(f, act[0], "s", "old", 3);
	assert_int_equal(cfs_osd_mark_up(f->c, act[0]), 0);
	/* ... and survives a restart as stale */
	fx_close(f);
	fx_open(f);
	assert_int_equal(ol_obj_read(f->ol, DATA_POOL, "s", 0, buf, 64), 5);
	assert_memory_equal(buf, "newer", 5);
	/* a partial write on the stale primary first brings it up to date */
	assert_int_equal(ol_obj_write(f->ol, DATA_POOL, "s", 5, "!", 1), 0);
	for (int i = 0; i < na; i++)
		assert_copy(f, act[i], "s", "newer!", 6);
	/* a delete while one copy is down: it must not come back */
	assert_int_equal(cfs_osd_mark_down(f->c, act[1]), 0);
	assert_int_equal(ol_obj_remove(f->ol, DATA_POOL, "s"), 0);
	assert_int_equal(cfs_osd_mark_up(f->c, act[1]), 0);
	assert_int_equal(ol_obj_read(f->ol, DATA_POOL, "s", 0, buf, 64), -ENOENT);
	assert_int_equal(ol_rebalance(f->ol, &st, NULL, NULL), 0);
	for (int i = 0; i < na; i++)
		assert_copy(f, act[i], "s", NULL, 0);
	assert_int_equal(cfs_cluster_check(f->c, 1, &rep, NULL, NULL), 0);
	assert_int_equal(rep.replica_mismatches + rep.usage_mismatches, 0);
	fx_free(f);
}

#define NOBJ 60

/* out / reweight / crush reweight, then rebalance: every object still
 * there and identical, on exactly its new acting set, and only objects
 * whose PG moved were copied. */
static void test_rebalance_conserves(void **state)
{
	struct fixture *f = fx_new(NULL);
	char names[NOBJ][32];
	int before[NOBJ][3], nb[NOBJ], copies = 0;
	char *data = malloc(300000), *buf = malloc(300000);
	struct ol_rebalance_stats st;
	struct cfs_check_report rep;

	(void)state;
	fx_pattern(data, 300000, 6);
	for (int i = 0; i < NOBJ; i++) {
		snprintf(names[i], 32, "r%d", i);
		assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, names[i], data + i,
						   (size_t)(1000 + i * 4000)),
				 0);
		fx_acting(f, names[i], before[i], &nb[i], NULL);
	}
	assert_int_equal(cfs_osd_mark_out(f->c, 3), 0);
	assert_int_equal(cfs_osd_reweight(f->c, 7, 0x4000), 0);
	assert_int_equal(cfs_osd_crush_reweight(f->c, 10, 0x100), 0);
	for (int i = 0; i < NOBJ; i++) {
		int a[16], na;

		fx_up(f, names[i], a, &na);
		for (int k = 0; k < na; k++)
			copies += !has(before[i], nb[i], a[k]);
		/* until backfill, I/O stays on OSDs that hold the data (a
		 * pg_temp): every acting OSD is one the object was on */
		fx_acting(f, names[i], a, &na, NULL);
		for (int k = 0; k < na; k++)
			assert_true(has(before[i], nb[i], a[k]));
	}
	assert_true(copies > 0);
	assert_int_equal(ol_rebalance(f->ol, &st, NULL, NULL), 0);
	assert_int_equal(st.objects_copied, copies);
	assert_int_equal(st.objects_removed, copies);
	assert_int_equal(st.pgs_toofull + st.pgs_blocked + st.errors, 0);
	for (int i = 0; i < NOBJ; i++) {
		size_t len = (size_t)(1000 + i * 4000);
		int a[16], na;

		assert_int_equal(ol_obj_read(f->ol, DATA_POOL, names[i], 0, buf, 300000),
				 (ssize_t)len);
		assert_memory_equal(buf, data + i, len);
		fx_acting(f, names[i], a, &na, NULL);
		{
			int u[16], nu;

			/* backfill done: the pg_temp went, acting = up */
			fx_up(f, names[i], u, &nu);
			assert_int_equal(nu, na);
			assert_memory_equal(u, a, sizeof(int) * (size_t)na);
		}
		for (int osd = 0; osd < 12; osd++)
			if (has(a, na, osd))
				assert_copy(f, osd, names[i], data + i, len);
			else
				assert_copy(f, osd, names[i], NULL, 0);
	}
	/* nothing left to do */
	assert_int_equal(ol_rebalance(f->ol, &st, NULL, NULL), 0);
	assert_int_equal(st.objects_copied + st.objects_removed, 0);
	assert_int_equal(cfs_cluster_check(f->c, 1, &rep, NULL, NULL), 0);
	assert_int_equal(rep.objects, NOBJ * 3);
	assert_int_equal(rep.replica_mismatches + rep.usage_mismatches +
				 rep.stray_files + rep.misfiled,
			 0);
	free(data);
	free(buf);
	fx_free(f);
}

/* A target at backfillfull_ratio gets nothing; old copies stay. */
static void test_backfill_toofull(void **state)
{
	struct fixture *f = fx_new(NULL);
	char *a = malloc(4 * MB);
	struct ol_rebalance_stats st;
	struct cfs_osd_usage u;
	char names[40][32];
	int n = 0;

	(void)state;
	fx_pattern(a, 4 * MB, 7);
	for (int i = 0; i < 40; i++) {
		snprintf(names[i], 32, "t%d", i);
		assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, names[i], a, 1 * MB),
				 0);
	}
	/* osd.2 leaves; the OSDs that take its data are made tiny */
	int before[40][16], nb[40], newt[12] = { 0 };
	uint64_t used_before[12];

	for (int i = 0; i < 40; i++)
		fx_acting(f, names[i], before[i], &nb[i], NULL);
	assert_int_equal(cfs_osd_mark_out(f->c, 2), 0);
	for (int i = 0; i < 40; i++) {
		int act[16], na;

		fx_up(f, names[i], act, &na);
		for (int k = 0; k < na; k++)
			if (!has(before[i], nb[i], act[k]))
				newt[act[k]] = 1;
	}
	for (int osd = 0; osd < 12; osd++) {
		cfs_osd_usage(f->c, osd, &u);
		used_before[osd] = u.used;
		if (newt[osd])
			assert_int_equal(cfs_osd_set_capacity(
						 f->c, osd,
						 u.used + 512 * 1024),
					 0);
	}
	assert_int_equal(ol_rebalance(f->ol, &st, NULL, NULL), 0);
	assert_true(st.pgs_toofull > 0);
	for (int osd = 0; osd < 12; osd++) {
		if (!newt[osd])
			continue;
		cfs_osd_usage(f->c, osd, &u);
		assert_int_equal(u.used, used_before[osd]);
	}
	/* every object still readable, and osd.2 still holds copies */
	for (int i = 0; i < 40; i++) {
		char b[16];

		assert_int_equal(ol_obj_read(f->ol, DATA_POOL, names[i], 0, b, 16), 16);
		assert_memory_equal(b, a, 16);
	}
	cfs_osd_usage(f->c, 2, &u);
	n = (int)u.objects;
	assert_true(n > 0);
	fx_assert_usage_exact(f);
	free(a);
	fx_free(f);
}

struct worker {
	struct fixture *f;
	int id;
	int errors;
};

static void *writer(void *arg)
{
	struct worker *w = arg;
	char name[32], *buf = malloc(256 * 1024), *back = malloc(256 * 1024);

	for (int round = 0; round < 6; round++) {
		for (int k = 0; k < 8; k++) {
			size_t len = 1000 + (size_t)((w->id * 7 + k * 13 + round) %
						     200) * 1000;
			ssize_t r;

			snprintf(name, sizeof(name), "w%d.%d", w->id, k);
			fx_pattern(buf, len, (unsigned)(w->id * 100 + k + round));
			if (ol_obj_write_full(w->f->ol, DATA_POOL, name, buf, len)) {
				w->errors++;
				continue;
			}
			r = ol_obj_read(w->f->ol, DATA_POOL, name, 0, back, 256 * 1024);
			if (r != (ssize_t)len || memcmp(buf, back, len))
				w->errors++;
		}
	}
	free(buf);
	free(back);
	return NULL;
}

static void *flapper(void *arg)
{
	struct fixture *f = arg;

	for (int i = 0; i < 6; i++) {
		cfs_osd_mark_out(f->c, 4);
		cfs_osd_mark_in(f->c, 4);
		cfs_osd_mark_down(f->c, 9);
		cfs_osd_mark_up(f->c, 9);
	}
	return NULL;
}

static void test_concurrent_writers(void **state)
{
	struct fixture *f = fx_new(NULL);
	pthread_t t[8], fl;
	struct worker w[8];
	struct ol_rebalance_stats st;
	struct cfs_check_report rep;

	(void)state;
	pthread_create(&fl, NULL, flapper, f);
	for (int i = 0; i < 8; i++) {
		w[i].f = f;
		w[i].id = i;
		w[i].errors = 0;
		pthread_create(&t[i], NULL, writer, &w[i]);
	}
	for (int i = 0; i < 8; i++)
		pthread_join(t[i], NULL);
	pthread_join(fl, NULL);
	for (int i = 0; i < 8; i++)
		assert_int_equal(w[i].errors, 0);
	fx_assert_usage_exact(f);
	assert_int_equal(ol_rebalance(f->ol, &st, NULL, NULL), 0);
	assert_int_equal(cfs_cluster_check(f->c, 1, &rep, NULL, NULL), 0);
	assert_int_equal(rep.replica_mismatches + rep.usage_mismatches, 0);
	assert_int_equal(rep.objects, 8 * 8 * 3);
	fx_free(f);
}

static void test_max_avail(void **state)
{
	struct fixture *f = fx_new(NULL);
	const cfs_osdmap *m = cfs_osdmap_get(f->c);
	uint64_t a0 = cfs_pool_max_avail(f->c, m), a1;
	char *buf = malloc(4 * MB);
	int act[16], na;

	(void)state;
	cfs_osdmap_put(m);
	/* 12 x 64 MiB, equal weights: (0.95 * 64 MiB) * 12 / 3 */
	assert_true(a0 > (uint64_t)(0.95 * 64 * MB * 4) - 4096 &&
		    a0 <= (uint64_t)(0.95 * 64 * MB * 4));
	fx_pattern(buf, 4 * MB, 8);
	assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, "m", buf, 4 * MB), 0);
	fx_acting(f, "m", act, &na, NULL);
	m = cfs_osdmap_get(f->c);
	a1 = cfs_pool_max_avail(f->c, m);
	cfs_osdmap_put(m);
	/* the fullest OSD lost 4 MiB: the projection drops by 12 x 4 / 3 */
	assert_true(a0 - a1 >= 16 * MB - 8192 && a0 - a1 <= 16 * MB + 8192);
	free(buf);
	fx_free(f);
}


/*
 * Two pools side by side: the same object name in each is two objects,
 * each placed in its own pool's PG with its own size, accounted to its
 * pool (usage, index), surviving a reopen (usage.json, per-pool PG
 * state), and a pg_num change of a pool that holds objects is refused
 * while an empty one's goes through.
 */
static void test_two_pools(void **state)
{
	struct fixture *f = fx_new(NULL);
	struct cfs_pool_info want;
	const cfs_osdmap *m = cfs_osdmap_get(f->c);
	const struct cfs_pg_mapping *pg;
	struct cfs_osd_usage u;
	char a[3000], b[5000], got[5000], why[256] = "";
	uint64_t copies1 = 0, copies2 = 0, bytes2 = 0;
	int64_t id;
	uint32_t ps;

	(void)state;
	want = *cfs_osdmap_pool(m);
	cfs_osdmap_put(m);
	snprintf(want.name, sizeof(want.name), "two");
	want.size = 2;
	want.min_size = 1;
	want.pg_num = want.pgp_num = 8;
	assert_int_equal(cfs_pool_create(f->c, &want, &id, why, sizeof(why)),
			 0);
	fx_pattern(a, sizeof(a), 1);
	fx_pattern(b, sizeof(b), 2);
	assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, "same", a,
					   sizeof(a)), 0);
	assert_int_equal(ol_obj_write_full(f->ol, id, "same", b, sizeof(b)),
			 0);
	assert_int_equal(ol_obj_write_full(f->ol, 99, "same", b, sizeof(b)),
			 -ENOENT);
	assert_int_equal(ol_obj_read(f->ol, DATA_POOL, "same", 0, got,
				     sizeof(got)), (ssize_t)sizeof(a));
	assert_memory_equal(got, a, sizeof(a));
	assert_int_equal(ol_obj_read(f->ol, id, "same", 0, got, sizeof(got)),
			 (ssize_t)sizeof(b));
	assert_memory_equal(got, b, sizeof(b));

	/* pool 2's copies: where its own PG puts them, 2 of them */
	m = cfs_osdmap_get(f->c);
	assert_int_equal(cfs_pool_object_to_pg(m, id, "same", NULL, &ps), 0);
	assert_true(ps < 8);
	pg = cfs_osdmap_pool_pg(m, id, ps);
	assert_int_equal(pg->nacting, 2);
	for (int i = 0; i < pg->nacting; i++) {
		cfs_obj *o;

		assert_int_equal(cfs_obj_open(f->c, pg->acting[i], id, ps,
					      "same", 0, &o), 0);
		assert_int_equal(cfs_obj_size(o), sizeof(b));
		cfs_obj_put(o);
	}
	for (int osd = 0; osd < cfs_osdmap_max_osd(m); osd++) {
		cfs_osd_pool_usage(f->c, osd, DATA_POOL, &u);
		copies1 += u.objects;
		cfs_osd_pool_usage(f->c, osd, id, &u);
		copies2 += u.objects;
		bytes2 += u.used;
	}
	assert_int_equal(copies1, 3);
	assert_int_equal(copies2, 2);
	assert_int_equal(bytes2, 2 * sizeof(b));
	{
		uint64_t sb, so;

		cfs_pool_usage(f->c, m, cfs_osdmap_pool_by_id(m, id), &sb,
			       &so);
		assert_int_equal(sb, sizeof(b));
		assert_int_equal(so, 1);
	}
	cfs_osdmap_put(m);

	/* a pool with objects keeps its pg_num; the data pool's name is
	 * not in pool 2's index */
	m = cfs_osdmap_get(f->c);
	want = *cfs_osdmap_pool_by_id(m, id);
	cfs_osdmap_put(m);
	want.pg_num = 16;
	assert_int_equal(cfs_pool_update(f->c, &want, why, sizeof(why)),
			 -EBUSY);
	/* ... a split does it: the object moves to its child PG */
	if (ol_set_pg_num(f->ol, id, 16, why, sizeof(why)))
		fail_msg("split of pool 2: %s", why);
	assert_int_equal(ol_obj_read(f->ol, id, "same", 0, got, sizeof(got)),
			 (ssize_t)sizeof(b));
	assert_memory_equal(got, b, sizeof(b));
	m = cfs_osdmap_get(f->c);
	assert_int_equal(cfs_osdmap_pool_by_id(m, id)->pg_num, 16);
	assert_int_equal(cfs_osdmap_pool(m)->pg_num, 32);
	cfs_osdmap_put(m);
	assert_int_equal(ol_obj_remove(f->ol, id, "same"), 0);
	assert_int_equal(ol_obj_stat(f->ol, id, "same", NULL), -ENOENT);
	assert_int_equal(ol_obj_stat(f->ol, DATA_POOL, "same", NULL), 0);
	assert_int_equal(ol_obj_write_full(f->ol, id, "again", b, 100), 0);

	/* reopened: usage.json and the PG state keep the pools apart */
	fx_close(f);
	fx_open(f);
	assert_int_equal(ol_obj_read(f->ol, id, "again", 0, got, sizeof(got)),
			 100);
	assert_memory_equal(got, b, 100);
	assert_int_equal(ol_obj_read(f->ol, DATA_POOL, "same", 0, got,
				     sizeof(got)), (ssize_t)sizeof(a));
	m = cfs_osdmap_get(f->c);
	copies2 = 0;
	for (int osd = 0; osd < cfs_osdmap_max_osd(m); osd++) {
		cfs_osd_pool_usage(f->c, osd, id, &u);
		copies2 += u.objects;
	}
	cfs_osdmap_put(m);
	assert_int_equal(copies2, 2);
	assert_int_equal(ol_obj_remove(f->ol, id, "again"), 0);
	m = cfs_osdmap_get(f->c);
	want = *cfs_osdmap_pool_by_id(m, id);
	cfs_osdmap_put(m);
	want.pg_num = 4;
	want.pgp_num = 4;
	if (cfs_pool_update(f->c, &want, why, sizeof(why)))
		fail_msg("pg_num of an empty pool: %s", why);
	assert_int_equal(ol_obj_write_full(f->ol, id, "after", b, 10), 0);
	assert_int_equal(ol_obj_read(f->ol, id, "after", 0, got, 10), 10);
	{
		struct cfs_check_report cr;

		assert_int_equal(cfs_cluster_check(f->c, 1, &cr, NULL, NULL),
				 0);
		assert_int_equal(cr.usage_mismatches, 0);
		assert_int_equal(cr.misfiled, 0);
		assert_int_equal(cr.stray_files, 0);
	}
	fx_free(f);
}

/*
 * An erasure pool's shard PGs (osdsim): shard i of PG ps is PG
 * cfs_shard_ps(ps, k+m, i) to every PG call, kept in Ceph's
 * "POOL.PSs<i>_head" folder; holders, usage and the cluster check work
 * per shard, survive a reopen, and two shards of one PG on one OSD stay
 * apart.
 */
/* An erasure pool k=2 m=1 over hosts (the rule its profile makes), 8
 * PGs: its id. */
static void test_ec_shard_pgs(void **state)
{
	struct fixture *f = fx_new(NULL);
	int64_t id = fx_make_ec_pool(f);
	const struct cfs_pg_mapping *pg;
	const cfs_osdmap *m;
	char path[4096];
	uint32_t ps;
	int acting[3];

	(void)state;
	m = cfs_osdmap_get(f->c);
	assert_int_equal(cfs_pool_object_to_pg(m, id, "obj", NULL, &ps), 0);
	pg = cfs_osdmap_pool_pg(m, id, ps);
	assert_int_equal(pg->nacting, 3);
	memcpy(acting, pg->acting, sizeof(acting));
	cfs_osdmap_put(m);
	for (int i = 0; i < 3; i++) {
		uint32_t sps = cfs_shard_ps(ps, 3, i);
		char data[64], want_dir[64];
		cfs_obj *o;

		cfs_pg_lock(f->c, id, sps);
		assert_int_equal(cfs_pg_add_holder(f->c, id, sps, acting[i],
						   NULL, 0), 0);
		cfs_pg_unlock(f->c, id, sps);
		assert_int_equal(cfs_obj_open(f->c, acting[i], id, sps, "obj",
					      CFS_OBJ_CREATE, &o), 0);
		snprintf(data, sizeof(data), "shard %d", i);
		assert_int_equal(cfs_obj_pwrite(o, data, strlen(data), 0), 0);
		assert_int_equal(cfs_obj_commit(o, 1), 0);
		cfs_obj_put(o);
		assert_int_equal(cfs_obj_path(f->c, acting[i], id, sps, "obj",
					      path, sizeof(path)), 0);
		snprintf(want_dir, sizeof(want_dir), "/%lld.%xs%d_head/",
			 (long long)id, ps, i);
		if (!strstr(path, want_dir))
			fail_msg("shard %d at %s, not in %s", i, path,
				 want_dir);
	}
	/* shard 0 also on shard 1's OSD (a backfill in flight): apart */
	{
		uint32_t s0 = cfs_shard_ps(ps, 3, 0);
		cfs_obj *o;

		cfs_pg_lock(f->c, id, s0);
		assert_int_equal(cfs_pg_add_holder(f->c, id, s0, acting[1],
						   NULL, 0), 0);
		cfs_pg_unlock(f->c, id, s0);
		assert_int_equal(cfs_obj_open(f->c, acting[1], id, s0, "obj",
					      CFS_OBJ_CREATE, &o), 0);
		assert_int_equal(cfs_obj_pwrite(o, "shard 0", 7, 0), 0);
		assert_int_equal(cfs_obj_commit(o, 1), 0);
		cfs_obj_put(o);
	}

	fx_close(f);
	fx_open(f);
	for (int i = 0; i < 3; i++) {
		uint32_t sps = cfs_shard_ps(ps, 3, i);
		char got[16] = "", want_s[16];
		cfs_obj *o;

		cfs_pg_lock(f->c, id, sps);
		assert_true(cfs_pg_is_holder(f->c, id, sps, acting[i]));
		assert_int_equal(cfs_pg_is_holder(f->c, id, sps, acting[1]),
				 i <= 1);
		cfs_pg_unlock(f->c, id, sps);
		assert_int_equal(cfs_obj_open(f->c, acting[i], id, sps, "obj",
					      0, &o), 0);
		assert_int_equal(cfs_obj_pread(o, got, sizeof(got) - 1, 0), 7);
		cfs_obj_put(o);
		snprintf(want_s, sizeof(want_s), "shard %d", i);
		assert_string_equal(got, want_s);
	}
	{
		struct cfs_check_report cr;
		uint64_t objs = 0;

		for (int osd = 0; osd < 12; osd++) {
			struct cfs_osd_usage u;

			cfs_osd_pool_usage(f->c, osd, id, &u);
			objs += u.objects;
		}
		assert_int_equal(objs, 4);
		assert_int_equal(cfs_cluster_check(f->c, 1, &cr, NULL, NULL),
				 0);
		assert_int_equal(cr.stray_files, 0);
		assert_int_equal(cr.misfiled, 0);
		assert_int_equal(cr.usage_mismatches, 0);
		assert_int_equal(cr.replica_mismatches, 0);
	}
	fx_free(f);
}

/* The model object the EC tests compare against. */
static void expect_obj(struct fixture *f, int64_t pool, const char *name,
		       const unsigned char *model, size_t size)
{
	unsigned char *got = malloc(size + 100);
	uint64_t st;

	assert_non_null(got);
	assert_int_equal(ol_obj_stat(f->ol, pool, name, &st), 0);
	assert_int_equal(st, size);
	assert_int_equal(ol_obj_read(f->ol, pool, name, 0, got, size + 100),
			 (ssize_t)size);
	assert_memory_equal(got, model, size);
	free(got);
}

/*
 * Objects of an erasure pool through objlayer (ec_io.c): write_full,
 * overwrites inside a stripe, appends and truncation against a model;
 * shards on their OSDs with the object's version; a read with a shard's
 * OSD down, or a shard rotten on disk, decodes the right bytes and marks
 * the rotten shard damaged; remove takes every shard.
 */
static void test_ec_io(void **state)
{
	struct fixture *f = fx_new(NULL);
	int64_t id = fx_make_ec_pool(f);
	unsigned char model[200000], buf[20000];
	const struct cfs_pg_mapping *pg;
	const cfs_osdmap *m;
	struct cfs_objinfo oi;
	char path[4096];
	size_t size;
	uint32_t ps;
	int acting[3];

	(void)state;
	fx_pattern(model, 100000, 7);
	size = 100000;
	assert_int_equal(ol_obj_write_full(f->ol, id, "e1", model, size), 0);
	expect_obj(f, id, "e1", model, size);
	fx_pattern(buf, sizeof(buf), 8);
	/* inside stripes, across a stripe boundary (chunk 4 KiB, k 2) */
	assert_int_equal(ol_obj_write(f->ol, id, "e1", 5000, buf, 7000), 0);
	memcpy(model + 5000, buf, 7000);
	expect_obj(f, id, "e1", model, size);
	/* an append past the end, leaving a hole of zeros */
	assert_int_equal(ol_obj_write(f->ol, id, "e1", 130000, buf, 20000),
			 0);
	memset(model + size, 0, 130000 - size);
	memcpy(model + 130000, buf, 20000);
	size = 150000;
	expect_obj(f, id, "e1", model, size);

	/* a split and a merge move every shard with its PG (stable_mod),
	 * shard folder to shard folder */
	{
		char why[256] = "";
		struct cfs_check_report cr;

		for (int i = 0; i < 20; i++) {
			char nm[16];

			snprintf(nm, sizeof(nm), "s%d", i);
			assert_int_equal(ol_obj_write_full(f->ol, id, nm, buf,
							   100 + i), 0);
		}
		if (ol_set_pg_num(f->ol, id, 16, why, sizeof(why)))
			fail_msg("EC split: %s", why);
		expect_obj(f, id, "e1", model, size);
		for (int i = 0; i < 20; i++) {
			char nm[16];

			snprintf(nm, sizeof(nm), "s%d", i);
			expect_obj(f, id, nm, buf, 100 + (size_t)i);
		}
		assert_int_equal(cfs_cluster_check(f->c, 1, &cr, NULL, NULL),
				 0);
		assert_int_equal(cr.misfiled + cr.stray_files, 0);
		if (ol_set_pg_num(f->ol, id, 8, why, sizeof(why)))
			fail_msg("EC merge: %s", why);
		expect_obj(f, id, "e1", model, size);
		for (int i = 0; i < 20; i++) {
			char nm[16];

			snprintf(nm, sizeof(nm), "s%d", i);
			expect_obj(f, id, nm, buf, 100 + (size_t)i);
			assert_int_equal(ol_obj_remove(f->ol, id, nm), 0);
		}
		assert_int_equal(cfs_cluster_check(f->c, 1, &cr, NULL, NULL),
				 0);
		assert_int_equal(cr.misfiled + cr.stray_files, 0);
	}

	/* every shard on its OSD, at the object's version */
	assert_int_equal(cfs_index_get(f->c, id, "e1", &oi), 0);
	m = cfs_osdmap_get(f->c);
	assert_int_equal(cfs_pool_object_to_pg(m, id, "e1", NULL, &ps), 0);
	pg = cfs_osdmap_pool_pg(m, id, ps);
	memcpy(acting, pg->acting, sizeof(acting));
	cfs_osdmap_put(m);
	for (int i = 0; i < 3; i++) {
		cfs_obj *o;
		uint64_t v;

		assert_int_equal(cfs_obj_open(f->c, acting[i], id,
					      cfs_shard_ps(ps, 3, i), "e1", 0,
					      &o), 0);
		assert_int_equal(cfs_obj_version(o, &v), 0);
		assert_int_equal(v, oi.version);
		/* 150000 bytes in 8 KiB stripes: 19 stripes of 4 KiB */
		assert_int_equal(cfs_obj_size(o), 19 * 4096);
		cfs_obj_put(o);
	}

	/* shard 0's OSD down: decoded from shards 1 and 2 */
	assert_int_equal(cfs_osd_mark_down(f->c, acting[0]), 0);
	expect_obj(f, id, "e1", model, size);
	assert_int_equal(cfs_osd_mark_up(f->c, acting[0]), 0);

	/* a byte of shard 1 rotten on disk: never returned, marked */
	{
		FILE *fp;

		assert_int_equal(cfs_obj_path(f->c, acting[1], id,
					      cfs_shard_ps(ps, 3, 1), "e1",
					      path, sizeof(path)), 0);
		fx_close(f); /* no fd of it cached */
		fp = fopen(path, "r+");
		assert_non_null(fp);
		fseek(fp, 100, SEEK_SET);
		fputc(fgetc(fp) ^ 0x5a, fp);
		fclose(fp);
		fx_open(f);
	}
	expect_obj(f, id, "e1", model, size);
	cfs_pg_lock(f->c, id, cfs_shard_ps(ps, 3, 1));
	assert_true(cfs_pg_is_damaged(f->c, id, cfs_shard_ps(ps, 3, 1),
				      acting[1], "e1"));
	cfs_pg_unlock(f->c, id, cfs_shard_ps(ps, 3, 1));

	/* a file's object cut inside a stripe, then written past the cut:
	 * zeros between (the cut stripe was re-encoded) */
	{
		struct ol_layout l = { 4 << 20, 1, 4 << 20, id };

		assert_int_equal(ol_obj_write_full(f->ol, id, "abc.00000000",
						   model, size), 0);
		assert_int_equal(ol_truncate(f->ol, 0xabc, &l, size, 30000),
				 0);
		expect_obj(f, id, "abc.00000000", model, 30000);
		assert_int_equal(ol_obj_write(f->ol, id, "abc.00000000",
					      40000, buf, 100), 0);
		memset(model + 30000, 0, 10000);
		memcpy(model + 40000, buf, 100);
		expect_obj(f, id, "abc.00000000", model, 40100);
	}
	assert_int_equal(ol_obj_remove(f->ol, id, "e1"), 0);
	assert_int_equal(ol_obj_stat(f->ol, id, "e1", NULL), -ENOENT);
	for (int i = 0; i < 3; i++) {
		cfs_obj *o;

		assert_int_equal(cfs_obj_open(f->c, acting[i], id,
					      cfs_shard_ps(ps, 3, i), "e1", 0,
					      &o), -ENOENT);
	}
	fx_free(f);
}

/*
 * A change of an EC object cut short between its shards (the process
 * dies as a kill -9 leaves it after one shard write,
 * CRUSHFS_TEST_EC_CRASH_AFTER): the next open rolls every shard back by
 * the intent's undo record, the old bytes read back from the data
 * shards alone and from any k shards, no intent left.
 */
#ifndef __SANITIZE_THREAD__
/* name's size bytes, then an overwrite of len at off cut after 1 and 2
 * shard writes: the old bytes come back */
static void ec_crash_one(struct fixture *f, int64_t id, const char *name,
			 size_t size, uint64_t off, size_t len)
{
	unsigned char *model = malloc(size), *buf = malloc(len);
	struct cfs_objinfo oi, next;
	int status, op;
	pid_t pid;

	fx_pattern(model, size, 11);
	assert_int_equal(ol_obj_write_full(f->ol, id, name, model, size), 0);
	assert_int_equal(cfs_index_get(f->c, id, name, &oi), 0);
	fx_close(f);
	for (int after = 1; after <= 2; after++) {
		pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			char n[8];

			snprintf(n, sizeof(n), "%d", after);
			setenv("CRUSHFS_TEST_EC_CRASH_AFTER", n, 1);
			fx_open(f);
			fx_pattern(buf, len, 12);
			ol_obj_write(f->ol, id, name, off, buf, len);
			_exit(1); /* the crash point did not come */
		}
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 137);
		fx_open(f);
		assert_int_equal(cfs_index_get_intent(f->c, id, name, &next,
						      &op), -ENOENT);
		expect_obj(f, id, name, model, size);
		fx_close(f);
	}
	fx_open(f);
	free(model);
	free(buf);
}

static void ec_crash_undo(void **state)
{
	struct fixture *f = fx_new(NULL);
	int64_t id = fx_make_ec_pool(f);

	(void)state;
	/* an overwrite across stripes and an append, shard by shard */
	ec_crash_one(f, id, "c1", 60000, 3000, 9000);
	/* whole stripes, 128 KiB a shard: all shards at once (O_DIRECT,
	 * ec_io.c shard_write_many), cut after the first to land */
	ec_crash_one(f, id, "c2", 512 * 1024, 128 * 1024, 256 * 1024);
	fx_free(f);
}
#endif

static void test_ec_crash_undo(void **state)
{
#ifdef __SANITIZE_THREAD__
	/* ThreadSanitizer cannot follow a fork of a threaded process (the
	 * child starts objlayer's workers): the other builds run it */
	(void)state;
	skip();
#else
	ec_crash_undo(state);
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip_and_holes),
		cmocka_unit_test(test_file_bytes),
		cmocka_unit_test(test_file_bytes_upto),
		cmocka_unit_test(test_file_bytes_noted),
		cmocka_unit_test(test_write_after_change),
		cmocka_unit_test(test_pg_index_record),
		cmocka_unit_test(test_full_policy_osd),
		cmocka_unit_test(test_partial_multi_object_write),
		cmocka_unit_test(test_full_policy_pool),
		cmocka_unit_test(test_full_refusal_explained),
		cmocka_unit_test(test_full_policy_pool_by_writes),
		cmocka_unit_test(test_min_size),
		cmocka_unit_test(test_stale_copy),
		cmocka_unit_test(test_rebalance_conserves),
		cmocka_unit_test(test_backfill_toofull),
		cmocka_unit_test(test_concurrent_writers),
		cmocka_unit_test(test_max_avail),
		cmocka_unit_test(test_pg_split_merge),
		cmocka_unit_test(test_two_pools),
		cmocka_unit_test(test_ec_shard_pgs),
		cmocka_unit_test(test_ec_io),
		cmocka_unit_test(test_ec_crash_undo),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
