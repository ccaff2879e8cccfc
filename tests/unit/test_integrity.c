/*
 * test_integrity.c - checksums of object copies (osdsim objcsum.c), the
 * object index (objindex.c), the authoritative-copy choice (objlayer
 * scrub.c) and what reads do with missing, stale and rotten copies.
 */
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "cluster_fixture.h"
#include "osdsim_i.h"

#define DATA_POOL 1 /* the pool mkfs makes */

#define KB 1024u
#define MB (1024u * 1024u)

static void test_crc32c(void **state)
{
	const char *s = "123456789";

	(void)state;
	/* the check value of CRC-32C (Castagnoli) */
	assert_int_equal(cfs_crc32c(0, s, 9), 0xe3069283u);
	/* chainable */
	assert_int_equal(cfs_crc32c(cfs_crc32c(0, s, 4), s + 4, 5),
			 0xe3069283u);
	assert_int_equal(cfs_crc32c(0, s, 0), 0);
}

static uint32_t object_ps(struct fixture *f, const char *name)
{
	const cfs_osdmap *m = cfs_osdmap_get(f->c);
	uint32_t ps;

	cfs_object_to_pg(m, name, NULL, &ps);
	cfs_osdmap_put(m);
	return ps;
}

/* Random writes, appends and truncates on one copy, checked against a
 * reference buffer after every step: the record always verifies the whole
 * copy, also after a reopen (record read back from the xattr), and across
 * the block-size change past 32 MiB. */
static void test_record_follows_writes(void **state)
{
	struct fixture *f = fx_new(NULL);
	const size_t cap = 40 * MB;
	unsigned char *ref = calloc(1, cap), *buf = malloc(cap);
	uint32_t ps = object_ps(f, "csum-obj");
	uint64_t size = 0, v;
	unsigned seed = 7;
	cfs_obj *o;

	(void)state;
	assert_int_equal(cfs_obj_open(f->c, 0, DATA_POOL, ps, "csum-obj", 0, &o),
			 -ENOENT);
	assert_int_equal(cfs_pg_add_holder(f->c, DATA_POOL, ps, 0, NULL, 0), 0);
	assert_int_equal(cfs_obj_open(f->c, 0, DATA_POOL, ps, "csum-obj",
				      CFS_OBJ_CREATE, &o),
			 0);
	for (int step = 0; step < 300; step++) {
		uint64_t off, len;
		int kind;

		seed = seed * 1103515245u + 12345u;
		kind = (seed >> 16) % 8;
		if (kind < 3) { /* overwrite inside or across the end */
			off = size ? (seed >> 8) % size : 0;
			len = 1 + (seed >> 4) % (200 * KB);
		} else if (kind < 5) { /* append */
			off = size;
			len = 1 + (seed >> 3) % (70 * KB);
		} else if (kind < 6) { /* past the end: a gap of zeros */
			off = size + (seed >> 5) % (100 * KB);
			len = 1 + (seed >> 7) % (10 * KB);
		} else { /* truncate down or up */
			off = (seed >> 6) % (size + 300 * KB + 1);
			len = 0;
		}
		if (step == 250) { /* one big write crosses 32 MiB */
			off = 30 * MB;
			len = 5 * MB;
		}
		if (off + len > cap)
			continue;
		if (len) {
			fx_pattern(ref + off, len, seed);
			assert_int_equal(cfs_obj_pwrite(o, ref + off, len, off),
					 0);
			if (off > size)
				memset(ref + size, 0, off - size);
			if (off + len > size)
				size = off + len;
		} else {
			assert_int_equal(cfs_obj_truncate(o, off), 0);
			if (off > size)
				memset(ref + size, 0, off - size);
			size = off;
		}
		assert_int_equal(cfs_obj_size(o), size);
		assert_int_equal(cfs_obj_commit(o, (uint64_t)step + 1), 0);
		if (step % 25 == 0 || step == 250) {
			assert_int_equal(cfs_obj_verify(o), 0);
			assert_int_equal(cfs_obj_pread(o, buf, size, 0),
					 (ssize_t)size);
			assert_memory_equal(buf, ref, size);
			/* reopen: the record comes back from the xattr */
			cfs_obj_put(o);
			fx_close(f);
			fx_open(f);
			assert_int_equal(cfs_obj_open(f->c, 0, DATA_POOL, ps, "csum-obj",
						      0, &o),
					 0);
			assert_int_equal(cfs_obj_version(o, &v), 0);
			assert_int_equal(v, (uint64_t)step + 1);
			assert_int_equal(cfs_obj_verify(o), 0);
		}
	}
	cfs_obj_put(o);
	free(ref);
	free(buf);
	fx_free(f);
}

/* Four bytes of the file at path changed at off, with the cluster closed
 * (behind the store's back), then the cluster opened again. */
static void rot_behind(struct fixture *f, const char *path, off_t off)
{
	int fd;

	fx_close(f);
	fd = open(path, O_WRONLY);
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, "XXXX", 4, off), 4);
	close(fd);
	fx_open(f);
}

/* Bytes changed behind the store's back: reads of the blocks that hold
 * them fail with -EBADMSG, others still succeed; a damaged or missing
 * record makes the copy unusable. */
static void test_rot_is_caught(void **state)
{
	struct fixture *f = fx_new(NULL);
	uint32_t ps = object_ps(f, "rot");
	char path[512], *buf = malloc(MB), *got = malloc(MB);
	uint64_t v;
	cfs_obj *o;

	(void)state;
	fx_pattern(buf, MB, 3);
	assert_int_equal(cfs_pg_add_holder(f->c, DATA_POOL, ps, 2, NULL, 0), 0);
	assert_int_equal(cfs_obj_open(f->c, 2, DATA_POOL, ps, "rot", CFS_OBJ_CREATE, &o),
			 0);
	assert_int_equal(cfs_obj_pwrite(o, buf, MB, 0), 0);
	assert_int_equal(cfs_obj_commit(o, 5), 0);
	cfs_obj_put(o);
	assert_int_equal(cfs_obj_path(f->c, 2, DATA_POOL, ps, "rot", path, sizeof(path)),
			 0);
	rot_behind(f, path, 300000);
	assert_int_equal(cfs_obj_open(f->c, 2, DATA_POOL, ps, "rot", 0, &o), 0);
	/* 300000 lies in the fifth 64 KiB block */
	assert_int_equal(cfs_obj_pread(o, got, 64 * KB, 0), 64 * KB);
	assert_int_equal(cfs_obj_pread(o, got, 10, 300000 - 5), -EBADMSG);
	assert_int_equal(cfs_obj_pread(o, got, 64 * KB, 4 * 64 * KB),
			 -EBADMSG);
	assert_int_equal(cfs_obj_verify(o), -EBADMSG);
	/* a changed copy cannot be blessed by a partial write */
	assert_int_equal(cfs_obj_pwrite(o, "y", 1, 5), 0);
	assert_int_equal(cfs_obj_verify(o), -EBADMSG);
	cfs_obj_put(o);
	fx_close(f);
	/* the record itself damaged or gone */
	assert_int_equal(setxattr(path, "user.crushfs.csum", "junk", 4, 0), 0);
	fx_open(f);
	assert_int_equal(cfs_obj_open(f->c, 2, DATA_POOL, ps, "rot", 0, &o), 0);
	assert_int_equal(cfs_obj_version(o, &v), -EBADMSG);
	assert_int_equal(cfs_obj_pread(o, got, 10, 0), -EBADMSG);
	assert_int_equal(cfs_obj_pwrite(o, "y", 1, 5), -EBADMSG);
	assert_int_equal(cfs_obj_has_record(o), 1);
	cfs_obj_put(o);
	fx_close(f);
	assert_int_equal(removexattr(path, "user.crushfs.csum"), 0);
	fx_open(f);
	assert_int_equal(cfs_obj_open(f->c, 2, DATA_POOL, ps, "rot", 0, &o), 0);
	assert_int_equal(cfs_obj_has_record(o), 0);
	assert_int_equal(cfs_obj_pread(o, got, 10, 0), -EBADMSG);
	cfs_obj_put(o);
	free(buf);
	free(got);
	fx_free(f);
}

/* An append extends the old last block's checksum from the stored one
 * instead of reading the block back: a rotten byte in that block is not
 * blessed by it and fails the next read; a change that recomputes the
 * block from the file (an overwrite inside it) is still refused. */
static void test_append_keeps_rot_visible(void **state)
{
	struct fixture *f = fx_new(NULL);
	uint32_t ps = object_ps(f, "ap");
	char path[512], *buf = malloc(MB), *got = malloc(MB);
	cfs_obj *o;

	(void)state;
	fx_pattern(buf, MB, 4);
	assert_int_equal(cfs_pg_add_holder(f->c, DATA_POOL, ps, 2, NULL, 0), 0);
	assert_int_equal(cfs_obj_open(f->c, 2, DATA_POOL, ps, "ap",
				      CFS_OBJ_CREATE, &o), 0);
	/* a clean object takes appends into its last block, read back */
	assert_int_equal(cfs_obj_pwrite(o, buf, 100000, 0), 0);
	assert_int_equal(cfs_obj_pwrite(o, buf + 100000, 1000, 100000), 0);
	assert_int_equal(cfs_obj_pwrite(o, buf + 101000, 5000, 101000), 0);
	assert_int_equal(cfs_obj_truncate(o, 110000), 0);
	assert_int_equal(cfs_obj_pwrite(o, buf + 110000, 100, 110000), 0);
	assert_int_equal(cfs_obj_commit(o, 5), 0);
	assert_int_equal(cfs_obj_verify(o), 0);
	assert_int_equal(cfs_obj_pread(o, got, 110100, 0), 110100);
	assert_memory_equal(got, buf, 106000);
	for (int i = 106000; i < 110000; i++)
		assert_int_equal(got[i], 0);
	assert_memory_equal(got + 110000, buf + 110000, 100);
	cfs_obj_put(o);
	assert_int_equal(cfs_obj_path(f->c, 2, DATA_POOL, ps, "ap", path,
				      sizeof(path)), 0);
	/* rot in the last block (the second 64 KiB one) */
	rot_behind(f, path, 70000);
	assert_int_equal(cfs_obj_open(f->c, 2, DATA_POOL, ps, "ap", 0, &o), 0);
	/* an append goes on, and the rot stays visible */
	assert_int_equal(cfs_obj_pwrite(o, buf, 1000, 110100), 0);
	assert_int_equal(cfs_obj_truncate(o, 120000), 0);
	assert_int_equal(cfs_obj_pread(o, got, 100, 69990), -EBADMSG);
	assert_int_equal(cfs_obj_verify(o), -EBADMSG);
	/* an overwrite inside the block would recompute it from the file:
	 * refused, not laundered */
	assert_int_equal(cfs_obj_pwrite(o, "y", 1, 80000), -EBADMSG);
	/* so is one that runs to the object's end without being an append */
	assert_int_equal(cfs_obj_pwrite(o, buf, 120000 - 75000, 75000),
			 -EBADMSG);
	cfs_obj_put(o);
	free(buf);
	free(got);
	fx_free(f);
}

/* Direct writes (cfs_obj_pwrite_direct, what replicated big writes use):
 * aligned ones go around the page cache, unaligned ones fall back; either
 * way the bytes read back are the bytes written, a buffered read cached
 * before a direct overwrite does not return the old bytes, and the record
 * verifies the whole copy after a reopen. */
static void test_direct_write(void **state)
{
	struct fixture *f = fx_new(NULL);
	uint32_t ps = object_ps(f, "direct");
	const size_t size = 3 * MB;
	unsigned char *ref = calloc(1, size), *got = malloc(size);
	void *al = NULL;
	uint64_t v;
	cfs_obj *o;

	(void)state;
	assert_non_null(ref);
	assert_non_null(got);
	assert_int_equal(posix_memalign(&al, 4096, 2 * MB), 0);
	assert_int_equal(cfs_pg_add_holder(f->c, DATA_POOL, ps, 1, NULL, 0), 0);
	assert_int_equal(cfs_obj_open(f->c, 1, DATA_POOL, ps, "direct",
				      CFS_OBJ_CREATE, &o), 0);
	/* a small buffered write, read so that its page is cached */
	memset(ref + 4096, 'b', 100);
	assert_int_equal(cfs_obj_pwrite(o, ref + 4096, 100, 4096), 0);
	assert_int_equal(cfs_obj_pread(o, got, 4196, 0), 4196);
	/* an aligned direct write over it and past the end */
	fx_pattern(al, 2 * MB, 21);
	memcpy(ref, al, 2 * MB);
	assert_int_equal(cfs_obj_pwrite_direct(o, al, 2 * MB, 0), 0);
	assert_int_equal(cfs_obj_pread(o, got, 2 * MB, 0), 2 * MB);
	assert_memory_equal(got, ref, 2 * MB);
	/* unaligned buffer, length and offset: the buffered way */
	fx_pattern(ref + 2 * MB + 1, 512 * KB + 3, 22);
	assert_int_equal(cfs_obj_pwrite_direct(o, ref + 2 * MB + 1,
					       512 * KB + 3, 2 * MB + 1), 0);
	/* aligned again, inside what the buffered write left dirty */
	fx_pattern(al, 256 * KB, 23);
	memcpy(ref + 2 * MB + 128 * KB, al, 256 * KB);
	assert_int_equal(cfs_obj_pwrite_direct(o, al, 256 * KB,
					       2 * MB + 128 * KB), 0);
	assert_int_equal(cfs_obj_commit(o, 9), 0);
	assert_int_equal(cfs_obj_size(o), 2 * MB + 512 * KB + 4);
	cfs_obj_put(o);
	fx_close(f);
	fx_open(f);
	assert_int_equal(cfs_obj_open(f->c, 1, DATA_POOL, ps, "direct", 0, &o),
			 0);
	assert_int_equal(cfs_obj_version(o, &v), 0);
	assert_int_equal(v, 9);
	assert_int_equal(cfs_obj_verify(o), 0);
	assert_int_equal(cfs_obj_pread(o, got, size, 0), 2 * MB + 512 * KB + 4);
	assert_memory_equal(got, ref, 2 * MB + 512 * KB + 4);
	cfs_obj_put(o);
	free(al);
	free(ref);
	free(got);
	fx_free(f);
}

/* Pages of path's first len bytes in the page cache (mincore). */
static size_t cached_pages(const char *path, size_t len)
{
	long pg = sysconf(_SC_PAGESIZE);
	size_t n = (len + (size_t)pg - 1) / (size_t)pg, hits = 0;
	unsigned char *vec = malloc(n);
	int fd = open(path, O_RDONLY);
	void *map;

	assert_non_null(vec);
	assert_true(fd >= 0);
	map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	assert_true(map != MAP_FAILED);
	assert_int_equal(mincore(map, len, vec), 0);
	for (size_t i = 0; i < n; i++)
		hits += vec[i] & 1;
	munmap(map, len);
	close(fd);
	free(vec);
	return hits;
}

/* Big reads into an aligned buffer (what a FUSE READ of 128 KiB or more
 * is) come around the page cache (obj_io.c read_direct): the object's
 * pages stay uncached; the bytes are the ones last written, also while a
 * buffered write of them is still dirty; an unaligned tail, offset or
 * buffer is read the buffered way; and rot under a direct read is still
 * caught by the checksums. */
static void test_direct_read(void **state)
{
	struct fixture *f = fx_new(NULL);
	uint32_t ps = object_ps(f, "dread");
	const size_t size = MB + 1000, cap = 2 * MB;
	unsigned char *ref = malloc(size);
	char path[512], probe[600];
	void *al = NULL;
	struct statfs sf;
	int fd, direct_ok;
	cfs_obj *o;

	(void)state;
	assert_non_null(ref);
	assert_int_equal(posix_memalign(&al, 4096, cap), 0);
	assert_int_equal(cfs_pg_add_holder(f->c, DATA_POOL, ps, 1, NULL, 0), 0);
	assert_int_equal(cfs_obj_open(f->c, 1, DATA_POOL, ps, "dread",
				      CFS_OBJ_CREATE, &o), 0);
	/* buffered, so still dirty when it is read back */
	fx_pattern(ref, size, 31);
	assert_int_equal(cfs_obj_pwrite(o, ref, size, 0), 0);
	assert_int_equal(cfs_obj_commit(o, 3), 0);
	memset(al, 0, cap);
	assert_int_equal(cfs_obj_pread(o, al, cap, 0), (ssize_t)size);
	assert_memory_equal(al, ref, size);
	/* unaligned offset and buffer: the buffered way, the same bytes */
	assert_int_equal(cfs_obj_pread(o, (char *)al + 1, 300 * KB, 4097),
			 300 * KB);
	assert_memory_equal((char *)al + 1, ref + 4097, 300 * KB);
	cfs_obj_put(o);

	/* around the page cache, where the filesystem allows O_DIRECT */
	assert_int_equal(cfs_obj_path(f->c, 1, DATA_POOL, ps, "dread", path,
				      sizeof(path)), 0);
	snprintf(probe, sizeof(probe), "%s.probe", path);
	fd = open(probe, O_CREAT | O_RDWR | O_DIRECT, 0600);
	/* tmpfs takes O_DIRECT and keeps every page anyway */
	direct_ok = fd >= 0 && statfs(probe, &sf) == 0 &&
		    sf.f_type != TMPFS_MAGIC;
	if (fd >= 0)
		close(fd);
	unlink(probe);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(fdatasync(fd), 0);
	assert_int_equal(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0);
	close(fd);
	fx_close(f);
	fx_open(f);
	assert_int_equal(cfs_obj_open(f->c, 1, DATA_POOL, ps, "dread", 0, &o),
			 0);
	memset(al, 0, cap);
	assert_int_equal(cfs_obj_pread(o, al, cap, 0), (ssize_t)size);
	assert_memory_equal(al, ref, size);
	if (direct_ok) /* at most the tail's page came through the cache */
		assert_in_range(cached_pages(path, size), 0, 1);
	cfs_obj_put(o);

	/* rot behind the store's back (written buffered, so dirty): the
	 * direct read sees it and the checksums refuse it */
	rot_behind(f, path, 200000);
	assert_int_equal(cfs_obj_open(f->c, 1, DATA_POOL, ps, "dread", 0, &o),
			 0);
	assert_int_equal(cfs_obj_pread(o, al, cap, 0), -EBADMSG);
	assert_int_equal(cfs_obj_pread(o, al, 128 * KB, 512 * KB),
			 128 * KB);
	assert_memory_equal(al, ref + 512 * KB, 128 * KB);
	cfs_obj_put(o);
	free(al);
	free(ref);
	fx_free(f);
}

/* Every combination of good / bad / missing copies for size 2 and 3, with
 * current and stale versions: the choice is always a good copy of the
 * wanted version when one exists, else the newest good one, never a bad
 * or missing copy, and -1 only when no copy verifies. */
static void test_choose_auth_combinations(void **state)
{
	(void)state;
	for (int n = 2; n <= 3; n++) {
		int total = 1;

		for (int i = 0; i < n; i++)
			total *= 4; /* missing, bad, good v1, good v2 */
		for (int code = 0; code < total; code++) {
			struct ol_copy_view v[3];
			int c = code, any = 0, a;

			for (int i = 0; i < n; i++, c /= 4) {
				memset(&v[i], 0, sizeof(v[i]));
				v[i].present = c % 4 != 0;
				v[i].verifies = c % 4 >= 2;
				v[i].version = c % 4 == 3 ? 2 : 1;
				v[i].digest = (uint32_t)v[i].version * 77;
				any |= v[i].verifies;
			}
			for (uint64_t want = 0; want <= 2; want++) {
				a = ol_choose_auth(v, n, want);
				if (!any) {
					assert_int_equal(a, -1);
					continue;
				}
				assert_true(a >= 0 && a < n);
				assert_true(v[a].present && v[a].verifies);
				{
					/* the wanted version when a good
					 * copy has it, else the newest */
					uint64_t exp = 0;
					int has_want = 0;

					for (int i = 0; i < n; i++) {
						if (!v[i].verifies)
							continue;
						has_want |= v[i].version ==
							    want;
						if (v[i].version > exp)
							exp = v[i].version;
					}
					if (want && has_want)
						exp = want;
					assert_int_equal(v[a].version, exp);
				}
			}
		}
	}
}

/* Same version, different data (a copy written without our layer): the
 * majority wins; a tie goes to the first (acting order). */
static void test_choose_auth_majority(void **state)
{
	struct ol_copy_view v[3] = {
		{ 1, 1, 4, 111 },
		{ 1, 1, 4, 222 },
		{ 1, 1, 4, 222 },
	};

	(void)state;
	assert_int_equal(ol_choose_auth(v, 3, 4), 1);
	v[2].digest = 333;
	assert_int_equal(ol_choose_auth(v, 3, 4), 0);
	v[0].verifies = 0;
	assert_int_equal(ol_choose_auth(v, 3, 4), 1);
}

/* The index: versions only grow (also across reopen), prefix scans find
 * one file's objects, intents are listed until settled. */
static void test_index(void **state)
{
	struct fixture *f = fx_new(NULL);
	struct cfs_objinfo oi = { 0, 0 };
	struct fx_seen s = { 0 };
	uint64_t v1, v2;
	int e;

	(void)state;
	v1 = cfs_index_next_version(f->c, &e);
	assert_int_equal(e, 0);
	v2 = cfs_index_next_version(f->c, &e);
	assert_true(v2 > v1);
	fx_close(f);
	fx_open(f);
	assert_true(cfs_index_next_version(f->c, &e) > v2);

	oi.version = 9;
	oi.size = 100;
	assert_int_equal(cfs_index_intent(f->c, DATA_POOL, "10.00000001", &oi), 0);
	assert_int_equal(cfs_index_foreach(f->c, DATA_POOL, "", 1, fx_see, &s), 0);
	assert_int_equal(s.n, 1);
	assert_int_equal(cfs_index_get(f->c, DATA_POOL, "10.00000001", &oi), -ENOENT);
	oi.version = 9;
	assert_int_equal(cfs_index_set(f->c, DATA_POOL, "10.00000001", &oi), 0);
	assert_int_equal(cfs_index_set(f->c, DATA_POOL, "10.00000000", &oi), 0);
	assert_int_equal(cfs_index_set(f->c, DATA_POOL, "100.00000000", &oi), 0);
	s.n = 0;
	assert_int_equal(cfs_index_foreach(f->c, DATA_POOL, "", 1, fx_see, &s), 0);
	assert_int_equal(s.n, 0); /* the intent went with the set */
	assert_int_equal(cfs_index_foreach(f->c, DATA_POOL, "10.", 0, fx_see, &s), 0);
	assert_int_equal(s.n, 2);
	assert_string_equal(s.names[0], "10.00000000");
	assert_string_equal(s.names[1], "10.00000001");
	assert_int_equal(cfs_index_set(f->c, DATA_POOL, "10.00000000", NULL), 0);
	assert_int_equal(cfs_index_get(f->c, DATA_POOL, "10.00000000", &oi), -ENOENT);
	fx_free(f);
}

/* A stem's generation moves with every change of its objects, and (for
 * the files made together, whose inodes follow each other) with nothing
 * else: each is what lets objlayer keep one file's st_blocks. */
static void test_stem_gens(void **state)
{
	enum { N = 5000 };
	struct fixture *f = fx_new(NULL);
	struct cfs_objinfo oi = { 1, 4096 };
	static uint64_t gen[N];
	char name[64];
	uint64_t g;

	(void)state;
	for (int i = 0; i < N; i++) {
		snprintf(name, sizeof(name), "%llx.00000000",
			 0x10000000000ULL + (unsigned long long)i);
		g = cfs_index_stem_gen(f->c, name);
		assert_int_equal(cfs_index_set(f->c, DATA_POOL, name, &oi), 0);
		gen[i] = cfs_index_stem_gen(f->c, name);
		assert_true(gen[i] == g + 1);
	}
	for (int i = 0; i < N; i++) {
		snprintf(name, sizeof(name), "%llx",
			 0x10000000000ULL + (unsigned long long)i);
		if (cfs_index_stem_gen(f->c, name) != gen[i])
			fail_msg("stem %s moved with another file's write", name);
	}
	/* any name still has a slot, and moves with its own change */
	g = cfs_index_stem_gen(f->c, "rbd_data.1234.0000000000000001");
	assert_int_equal(cfs_index_set(f->c, DATA_POOL,
				       "rbd_data.1234.0000000000000001", &oi),
			 0);
	assert_true(cfs_index_stem_gen(f->c, "rbd_data") == g + 1);
	fx_free(f);
}

/* Through the object layer: a missing primary copy is not a hole, a
 * rotten one is not returned, and the written data comes back. */
static void test_reads_skip_bad_copies(void **state)
{
	struct fixture *f = fx_new(NULL);
	char *buf = malloc(MB), *got = malloc(MB), path[512];
	struct ol_placement p;
	int fd;

	(void)state;
	fx_pattern(buf, MB, 11);
	assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, "x", buf, MB), 0);
	assert_int_equal(ol_locate(f->ol, DATA_POOL, "x", &p), 0);
	assert_int_equal(ol_object_path(f->ol, DATA_POOL, "x", p.acting_primary, path,
					 sizeof(path)),
			 0);
	assert_int_equal(unlink(path), 0);
	fx_close(f);
	fx_open(f);
	memset(got, 0, MB);
	assert_int_equal(ol_obj_read(f->ol, DATA_POOL, "x", 0, got, MB), MB);
	assert_memory_equal(got, buf, MB);
	/* rebuilt on the spot (the fixture opens read-write) */
	assert_int_equal(access(path, F_OK), 0);
	fx_close(f);
	fd = open(path, O_WRONLY);
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, "rot", 3, 12345), 3);
	close(fd);
	fx_open(f);
	assert_int_equal(ol_obj_read(f->ol, DATA_POOL, "x", 12000, got, 1000), 1000);
	assert_memory_equal(got, buf + 12000, 1000);
	/* an object the index does not know is a hole, even when a file
	 * of that name is lying around */
	assert_int_equal(ol_obj_read(f->ol, DATA_POOL, "never-written", 0, got, 10),
			 -ENOENT);
	free(buf);
	free(got);
	fx_free(f);
}

/* Killed after every copy was written, before the index was: the intent
 * names the new version; a read-only reader serves it, and the next
 * read-write open settles the index on it. */
static void test_unsettled_write(void **state)
{
	struct fixture *f = fx_new(NULL);
	char newb[100] = "new version", got[100], err[256];
	struct cfs_objinfo oi, next;
	struct ol_placement p;
	cfs_cluster *ro;
	objlayer *rol;
		int e;

	(void)state;
	assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, "u", "old version", 11), 0);
	assert_int_equal(cfs_index_get(f->c, DATA_POOL, "u", &oi), 0);
	assert_int_equal(ol_locate(f->ol, DATA_POOL, "u", &p), 0);
	next.version = cfs_index_next_version(f->c, &e);
	next.size = 11;
	assert_int_equal(cfs_index_intent(f->c, DATA_POOL, "u", &next), 0);
	for (int i = 0; i < p.nacting; i++) {
		const cfs_osdmap *m = cfs_osdmap_get(f->c);
		uint32_t ps;
		cfs_obj *o;

		cfs_object_to_pg(m, "u", NULL, &ps);
		cfs_osdmap_put(m);
		assert_int_equal(cfs_obj_open(f->c, p.acting[i], DATA_POOL, ps, "u", 0,
					      &o),
				 0);
		assert_int_equal(cfs_obj_pwrite(o, newb, 11, 0), 0);
		assert_int_equal(cfs_obj_commit(o, next.version), 0);
		cfs_obj_put(o);
	}
	fx_close(f);
	assert_int_equal(cfs_cluster_open(f->dir, CFS_OPEN_RDONLY, &ro, err,
					  sizeof(err)),
			 0);
	assert_int_equal(ol_open(ro, &rol), 0);
	assert_int_equal(ol_obj_read(rol, DATA_POOL, "u", 0, got, sizeof(got)), 11);
	assert_memory_equal(got, "new version", 11);
	ol_close(rol);
	cfs_cluster_close(ro);
	fx_open(f); /* settles */
	assert_int_equal(cfs_index_get(f->c, DATA_POOL, "u", &oi), 0);
	assert_int_equal(oi.version, next.version);
	assert_int_equal(cfs_index_get_intent(f->c, DATA_POOL, "u", &next, &e), -ENOENT);
	fx_free(f);
}

/* Size 1: the one copy was being rewritten when the process died (data
 * changed, record not yet): settled by taking the copy as it was left,
 * not by losing the object. */
static void test_torn_single_copy(void **state)
{
	struct cfs_mkfs_opts o;
	struct fixture *f;
	struct cfs_objinfo next;
	struct ol_placement p;
	char got[64];
	uint32_t ps;
	cfs_obj *ob;
	int e;

	(void)state;
	cfs_mkfs_opts_init(&o);
	o.osd_size = 64ULL << 20;
	o.pg_num = 32;
	o.size = 1;
	o.min_size = 1;
	f = fx_new(&o);
	assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, "t", "0123456789", 10), 0);
	assert_int_equal(ol_locate(f->ol, DATA_POOL, "t", &p), 0);
	assert_int_equal(p.nacting, 1);
	next.version = cfs_index_next_version(f->c, &e);
	next.size = 10;
	assert_int_equal(cfs_index_intent(f->c, DATA_POOL, "t", &next), 0);
	{
		const cfs_osdmap *m = cfs_osdmap_get(f->c);

		cfs_object_to_pg(m, "t", NULL, &ps);
		cfs_osdmap_put(m);
	}
	assert_int_equal(cfs_obj_open(f->c, p.acting[0], DATA_POOL, ps, "t", 0, &ob), 0);
	assert_int_equal(cfs_obj_pwrite(ob, "AB", 2, 3), 0); /* no commit */
	cfs_obj_put(ob);
	fx_close(f);
	fx_open(f);
	assert_int_equal(ol_obj_read(f->ol, DATA_POOL, "t", 0, got, sizeof(got)), 10);
	assert_memory_equal(got, "012AB56789", 10);
	fx_free(f);
}

/* A copy the index does not know (a remove cut short, a file put there
 * by hand): scrub reports it and leaves it; a repair removes it, and the
 * OSD's usage goes back down with it. */
static void test_stray_copies(void **state)
{
	struct fixture *f = fx_new(NULL);
	struct ol_scrub_stats st = { 0 };
	struct ol_placement p;
	char path[512];
	uint32_t ps;
	cfs_obj *o;

	(void)state;
	char stray[32];
	uint32_t kps;

	assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, "kept", "data", 4), 0);
	{
		/* a name of kept's PG: its folders exist on the acting OSDs */
		const cfs_osdmap *m = cfs_osdmap_get(f->c);

		cfs_object_to_pg(m, "kept", NULL, &kps);
		for (int i = 0;; i++) {
			snprintf(stray, sizeof(stray), "stray%d", i);
			cfs_object_to_pg(m, stray, NULL, &ps);
			if (ps == kps)
				break;
		}
		cfs_osdmap_put(m);
	}
	assert_int_equal(ol_locate(f->ol, DATA_POOL, stray, &p), 0);
	assert_int_equal(cfs_obj_open(f->c, p.acting[1], DATA_POOL, ps, stray,
				      CFS_OBJ_CREATE, &o),
			 0);
	assert_int_equal(cfs_obj_pwrite(o, "left over", 9, 0), 0);
	assert_int_equal(cfs_obj_commit(o, 1), 0);
	cfs_obj_put(o);
	assert_int_equal(ol_object_path(f->ol, DATA_POOL, stray, p.acting[1], path,
					 sizeof(path)),
			 0);
	assert_int_equal(ol_scrub_pg(f->ol, DATA_POOL, ps, OL_SCRUB_DEEP, &st, NULL,
				     NULL),
			 0);
	assert_int_equal(st.stray, 1);
	assert_int_equal(access(path, F_OK), 0);
	assert_int_equal(ol_obj_read(f->ol, DATA_POOL, stray, 0, path + 500, 9),
			 -ENOENT);
	memset(&st, 0, sizeof(st));
	assert_int_equal(ol_scrub_pg(f->ol, DATA_POOL, ps, OL_SCRUB_DEEP | OL_SCRUB_REPAIR,
				     &st, NULL, NULL),
			 0);
	assert_int_equal(st.stray, 1);
	assert_int_equal(access(path, F_OK), -1);
	fx_assert_usage_exact(f);
	memset(&st, 0, sizeof(st));
	assert_int_equal(ol_scrub_pg(f->ol, DATA_POOL, ps, OL_SCRUB_DEEP, &st, NULL,
				     NULL),
			 0);
	assert_int_equal(st.stray, 0);
	{
		char got[8];

		assert_int_equal(ol_obj_read(f->ol, DATA_POOL, "kept", 0, got, 8), 4);
	}
	fx_free(f);
}

/* Files in DIR/osd.N/spare/ (osdsim spares.c) */
static int spares_on(struct fixture *f, int osd, int *nonempty, int *attrs)
{
	char dir[600], path[900];
	struct dirent *de;
	int n = 0;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/osd.%d/spare", f->dir, osd);
	*nonempty = *attrs = 0;
	d = opendir(dir);
	if (!d)
		return 0;
	while ((de = readdir(d)) != NULL) {
		struct stat st;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		assert_int_equal(stat(path, &st), 0);
		*nonempty += st.st_size != 0;
		*attrs += listxattr(path, NULL, 0) > 0;
		n++;
	}
	closedir(d);
	return n;
}

/* A removed object's file becomes a spare: out of its folder at once,
 * empty and without attributes, counting nothing; the next new object
 * takes it and starts empty (no byte, record or attribute of the old
 * one).  A spare a crash left unemptied is emptied before it is used. */
/* The cleaner empties a removed object's file in the background: wait
 * (10 s at most) until the OSD has n spares, all empty and bare, and
 * offered (the cleaner, at SCHED_IDLE, offers a file only after emptying
 * it: on a busy machine a file seen empty could still be on its way). */
static void wait_spares_clean(struct fixture *f, int osd, int n)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	int ne, at, got = -1, ready = -1;

	for (int i = 0; i < 1000; i++) {
		got = spares_on(f, osd, &ne, &at);
		ready = spares_ready(f->c, osd);
		if (got == n && ne == 0 && at == 0 && ready == n)
			return;
		nanosleep(&ts, NULL);
	}
	fail_msg("osd.%d: %d spares, %d with bytes, %d with attributes, %d "
		 "offered after 10 s; want %d, all empty and offered",
		 osd, got, ne, at, ready, n);
}

static void test_spares(void **state)
{
	struct fixture *f = fx_new(NULL);
	struct ol_placement p;
	struct cfs_check_report rep;
	char *buf = malloc(MB), got[64], path[512], sp[700];
	int osd, ne, at, fd;
	void *val;
	size_t vl;

	(void)state;
	fx_pattern(buf, 200 * KB, 9);
	assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, "sp-a", buf, 200 * KB), 0);
	assert_int_equal(ol_obj_setattr(f->ol, DATA_POOL, "sp-a", "parent", "bt", 2), 0);
	assert_int_equal(ol_locate(f->ol, DATA_POOL, "sp-a", &p), 0);
	osd = p.acting[0];
	assert_int_equal(ol_object_path(f->ol, DATA_POOL, "sp-a", osd, path,
					sizeof(path)), 0);
	assert_int_equal(ol_obj_remove(f->ol, DATA_POOL, "sp-a"), 0);
	assert_int_equal(access(path, F_OK), -1);
	wait_spares_clean(f, osd, 1);
	fx_assert_usage_exact(f);
	assert_int_equal(cfs_cluster_check(f->c, 0, &rep, fx_usage_msg, got), 0);
	assert_int_equal(rep.stray_files, 0);
	assert_int_equal(rep.objects, 0);

	/* the next object of that OSD takes the spare, empty */
	assert_int_equal(ol_obj_write(f->ol, DATA_POOL, "sp-a", 100 * KB, "new", 3), 0);
	assert_int_equal(spares_on(f, osd, &ne, &at), 0);
	assert_int_equal(ol_obj_read(f->ol, DATA_POOL, "sp-a", 0, buf, MB), 100 * KB + 3);
	for (size_t i = 0; i < 100 * KB; i++)
		if (buf[i])
			fail_msg("stale byte at %zu", i);
	assert_int_equal(ol_obj_getattr(f->ol, DATA_POOL, "sp-a", "parent", &val, &vl),
			 -ENODATA);
	assert_int_equal(ol_obj_remove(f->ol, DATA_POOL, "sp-a"), 0);

	/* a spare as a crash may leave it: bytes and attributes still in */
	fx_close(f);
	snprintf(sp, sizeof(sp), "rm -f %s/osd.%d/spare/*", f->dir, osd);
	assert_int_equal(system(sp), 0);
	snprintf(sp, sizeof(sp), "%s/osd.%d/spare/ff", f->dir, osd);
	fd = open(sp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	memset(got, 'Z', sizeof(got));
	assert_int_equal(write(fd, got, sizeof(got)), (ssize_t)sizeof(got));
	close(fd);
	assert_int_equal(setxattr(sp, "user.crushfs.csum", "junk", 4, 0), 0);
	assert_int_equal(setxattr(sp, "user.crushfs.a.parent", "old", 3, 0), 0);
	fx_open(f);
	fx_assert_usage_exact(f);
	/* the newest spare (ff) first: an object on osd, size 1, extended */
	assert_int_equal(ol_obj_write(f->ol, DATA_POOL, "sp-a", 0, "x", 1), 0);
	assert_int_equal(ol_obj_write(f->ol, DATA_POOL, "sp-a", 200, "y", 1), 0);
	assert_int_equal(spares_on(f, osd, &ne, &at), 0);
	assert_int_equal(ol_obj_read(f->ol, DATA_POOL, "sp-a", 0, got, 64), 64);
	assert_int_equal(got[0], 'x');
	for (int i = 1; i < 64; i++)
		assert_int_equal(got[i], 0);
	assert_int_equal(ol_obj_getattr(f->ol, DATA_POOL, "sp-a", "parent", &val, &vl),
			 -ENODATA);
	fx_assert_usage_exact(f);

	/* a big object's file is emptied by the removal itself: its room
	 * is back at once, not when the idle cleaner gets to it */
	fx_pattern(buf, MB, 11);
	assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, "sp-big", buf, MB), 0);
	assert_int_equal(ol_locate(f->ol, DATA_POOL, "sp-big", &p), 0);
	assert_int_equal(ol_obj_remove(f->ol, DATA_POOL, "sp-big"), 0);
	assert_true(spares_on(f, p.acting[0], &ne, &at) >= 1);
	assert_int_equal(ne, 0);
	fx_assert_usage_exact(f);
	free(buf);
	fx_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crc32c),
		cmocka_unit_test(test_record_follows_writes),
		cmocka_unit_test(test_rot_is_caught),
		cmocka_unit_test(test_append_keeps_rot_visible),
		cmocka_unit_test(test_direct_write),
		cmocka_unit_test(test_direct_read),
		cmocka_unit_test(test_choose_auth_combinations),
		cmocka_unit_test(test_stem_gens),
		cmocka_unit_test(test_choose_auth_majority),
		cmocka_unit_test(test_index),
		cmocka_unit_test(test_reads_skip_bad_copies),
		cmocka_unit_test(test_unsettled_write),
		cmocka_unit_test(test_torn_single_copy),
		cmocka_unit_test(test_stray_copies),
		cmocka_unit_test(test_spares),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
