/*
 * test_mds.c - the metadata records and key schema of mds.c, on both KV
 * engines (kv_mem and RocksDB in a temporary directory): record encoding,
 * the inode allocator (first number, never reused across reopen), format
 * and open checks, name-ordered directory listings, orphans, deleting an
 * inode with everything hanging off it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "kv.h"
#include "mds.h"
#include "util.h"

struct fixture {
	int rocks;
	char dir[64];
	kv *db;
	mds *m;
};

static int setup_common(void **state, int rocks)
{
	struct fixture *f = calloc(1, sizeof(*f));

	f->rocks = rocks;
	if (rocks) {
		strcpy(f->dir, "/tmp/test_mds.XXXXXX");
		assert_non_null(mkdtemp(f->dir));
		assert_int_equal(kv_open_rocksdb(f->dir, 1, &f->db), 0);
	} else {
		assert_int_equal(kv_open_mem(&f->db), 0);
	}
	assert_int_equal(mds_format(f->db, "fsid-1", 10, 20), 0);
	assert_int_equal(mds_open(f->db, "fsid-1", &f->m), 0);
	*state = f;
	return 0;
}

static int setup_mem(void **state)
{
	return setup_common(state, 0);
}

static int setup_rocks(void **state)
{
	return setup_common(state, 1);
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	mds_close(f->m);
	kv_close(f->db);
	if (f->rocks)
		cfs_rmtree(f->dir);
	free(f);
	return 0;
}

static int commit(struct fixture *f, kv_batch *b)
{
	int rc = kv_batch_commit(f->db, b, 0);

	kv_batch_free(b);
	return rc;
}

static void test_encoding(void **state)
{
	struct mds_inode in, out;
	unsigned char buf[MDS_INODE_REC_LEN];

	(void)state;
	memset(&in, 0, sizeof(in));
	in.ino = 0x10000000123ULL;
	in.mode = S_IFREG | 04755;
	in.uid = 4000000000u;
	in.gid = 7;
	in.nlink = 65000;
	in.size = (5ULL << 30) + 3;
	in.rdev = 0x1234;
	in.parent = 99;
	in.generation = 3;
	in.atime.tv_sec = -5; /* before 1970 */
	in.atime.tv_nsec = 999999999;
	in.mtime.tv_sec = 1700000000;
	in.mtime.tv_nsec = 1;
	in.ctime.tv_sec = 4102444800LL; /* 2100 */
	in.btime.tv_sec = 1;
	in.layout.stripe_unit = 65536;
	in.layout.stripe_count = 4;
	in.layout.object_size = 1 << 22;
	in.layout.pool = 1;
	in.wr_first = (5ULL << 30) + 4096;
	in.max_size = 12ULL << 30;
	mds_encode_inode(&in, buf);
	assert_int_equal(buf[0], 2);
	assert_int_equal(mds_decode_inode(buf, sizeof(buf), &out), 0);
	out.ino = in.ino;
	assert_memory_equal(&in, &out, sizeof(in));
	assert_int_equal(mds_decode_inode(buf, sizeof(buf) - 1, &out),
			 CFS_ECORRUPT);
	/* a version-1 record (before the writeable range): its first 128
	 * bytes, read as having no range */
	buf[0] = 1;
	assert_int_equal(mds_decode_inode(buf, MDS_INODE_REC_LEN_V1, &out), 0);
	out.ino = in.ino;
	assert_int_equal(out.wr_first, 0);
	assert_int_equal(out.max_size, 0);
	out.wr_first = in.wr_first;
	out.max_size = in.max_size;
	assert_memory_equal(&in, &out, sizeof(in));
	/* version and length must agree */
	assert_int_equal(mds_decode_inode(buf, sizeof(buf), &out),
			 CFS_ECORRUPT);
	buf[0] = 2;
	assert_int_equal(mds_decode_inode(buf, MDS_INODE_REC_LEN_V1, &out),
			 CFS_ECORRUPT);
	buf[0] = 3;
	assert_int_equal(mds_decode_inode(buf, sizeof(buf), &out),
			 CFS_ECORRUPT);
	assert_int_equal(mds_mode_to_dt(S_IFDIR | 0755), 4);
	assert_int_equal(mds_mode_to_dt(S_IFREG), 8);
	assert_int_equal(mds_mode_to_dt(S_IFLNK), 10);
}

static void test_format_and_root(void **state)
{
	struct fixture *f = *state;
	struct mds_inode r;
	mds *m2;

	assert_int_equal(mds_format(f->db, "fsid-1", 0, 0), -EEXIST);
	assert_int_equal(mds_get_inode(f->m, MDS_ROOT_INO, &r), 0);
	assert_true(S_ISDIR(r.mode));
	assert_int_equal(r.nlink, 2);
	assert_int_equal(r.uid, 10);
	assert_int_equal(r.gid, 20);
	assert_int_equal(r.parent, MDS_ROOT_INO);
	/* metadata of another cluster is refused */
	assert_int_equal(mds_open(f->db, "fsid-2", &m2), CFS_ECORRUPT);
	/* NULL skips the check */
	assert_int_equal(mds_open(f->db, NULL, &m2), 0);
	mds_close(m2);
}

static void test_open_unformatted(void **state)
{
	kv *db;
	mds *m;

	(void)state;
	assert_int_equal(kv_open_mem(&db), 0);
	assert_int_equal(mds_open(db, NULL, &m), -ENOENT);
	/* a version from the future is refused */
	assert_int_equal(kv_put(db, "Cversion", 8, "\x09\0\0\0", 4), 0);
	assert_int_equal(mds_open(db, NULL, &m), CFS_ECORRUPT);
	kv_close(db);
}

static void test_allocator(void **state)
{
	struct fixture *f = *state;
	uint64_t a, b, c;

	assert_int_equal(mds_alloc_ino(f->m, &a), 0);
	assert_int_equal(a, MDS_FIRST_INO);
	assert_int_equal(mds_alloc_ino(f->m, &b), 0);
	assert_int_equal(b, MDS_FIRST_INO + 1);
	for (int i = 0; i < 5000; i++)
		assert_int_equal(mds_alloc_ino(f->m, &c), 0);
	assert_int_equal(c, MDS_FIRST_INO + 5001);
	/* a reopen (a crash, or a remount) never hands out a number again */
	mds_close(f->m);
	if (f->rocks) {
		kv_close(f->db);
		assert_int_equal(kv_open_rocksdb(f->dir, 0, &f->db), 0);
	}
	assert_int_equal(mds_open(f->db, "fsid-1", &f->m), 0);
	assert_int_equal(mds_alloc_ino(f->m, &a), 0);
	assert_true(a > c);
}

struct names {
	char n[16][32];
	uint64_t ino[16];
	int count;
};

static int name_cb(const char *name, size_t nlen, const struct mds_dentry *d,
		   void *arg)
{
	struct names *s = arg;

	assert_true(s->count < 16);
	snprintf(s->n[s->count], 32, "%.*s", (int)nlen, name);
	s->ino[s->count] = d->ino;
	s->count++;
	return 0;
}

static void test_dentries(void **state)
{
	struct fixture *f = *state;
	const char *names[] = { "b", "a", "ab", "B", "z", "a.b" };
	struct mds_dentry d;
	struct names s;
	kv_batch *b = kv_batch_new();

	assert_int_equal(mds_dir_empty(f->m, MDS_ROOT_INO), 1);
	for (int i = 0; i < 6; i++) {
		d.ino = 100 + i;
		d.type = 8;
		mds_put_dentry(b, MDS_ROOT_INO, names[i], &d);
	}
	/* a neighbour directory's entries stay out of the listing */
	d.ino = 999;
	mds_put_dentry(b, 2, "other", &d);
	mds_put_dentry(b, 0x100, "other", &d);
	assert_int_equal(commit(f, b), 0);
	assert_int_equal(mds_dir_empty(f->m, MDS_ROOT_INO), 0);
	assert_int_equal(mds_lookup(f->m, MDS_ROOT_INO, "ab", &d), 0);
	assert_int_equal(d.ino, 102);
	assert_int_equal(d.type, 8);
	assert_int_equal(mds_lookup(f->m, MDS_ROOT_INO, "nope", &d), -ENOENT);
	memset(&s, 0, sizeof(s));
	assert_int_equal(mds_readdir(f->m, MDS_ROOT_INO, NULL, name_cb, &s), 0);
	assert_int_equal(s.count, 6);
	assert_string_equal(s.n[0], "B");
	assert_string_equal(s.n[1], "a");
	assert_string_equal(s.n[2], "a.b");
	assert_string_equal(s.n[3], "ab");
	assert_string_equal(s.n[4], "b");
	assert_string_equal(s.n[5], "z");
	/* resume after a name */
	memset(&s, 0, sizeof(s));
	assert_int_equal(mds_readdir(f->m, MDS_ROOT_INO, "ab", name_cb, &s), 0);
	assert_int_equal(s.count, 2);
	assert_string_equal(s.n[0], "b");
	b = kv_batch_new();
	mds_del_dentry(b, MDS_ROOT_INO, "ab");
	assert_int_equal(commit(f, b), 0);
	assert_int_equal(mds_lookup(f->m, MDS_ROOT_INO, "ab", &d), -ENOENT);
}

static int orphan_cb(uint64_t ino, void *arg)
{
	struct names *s = arg;

	s->ino[s->count++] = ino;
	return 0;
}

static int xcount_cb(const char *name, size_t nlen, const void *val,
		     size_t vlen, void *arg)
{
	(void)name, (void)nlen, (void)val, (void)vlen;
	(*(int *)arg)++;
	return 0;
}

static void test_inode_lifecycle(void **state)
{
	struct fixture *f = *state;
	struct mds_inode in, out;
	struct names s;
	kv_batch *b = kv_batch_new();
	char *target;
	size_t len;
	void *v;
	int nx = 0;

	memset(&in, 0, sizeof(in));
	in.ino = 0x10000000001ULL;
	in.mode = S_IFLNK | 0777;
	in.nlink = 1;
	in.flags = MDS_F_XATTRS;
	mds_put_inode(b, &in);
	mds_put_symlink(b, in.ino, "target", 6);
	mds_put_xattr(b, in.ino, "user.a", "1", 1);
	mds_put_xattr(b, in.ino, "user.b", "22", 2);
	/* the next inode's xattrs must survive */
	mds_put_xattr(b, in.ino + 1, "user.a", "x", 1);
	mds_put_orphan(b, in.ino);
	assert_int_equal(commit(f, b), 0);

	assert_int_equal(mds_get_inode(f->m, in.ino, &out), 0);
	assert_int_equal(out.ino, in.ino);
	assert_int_equal(mds_get_symlink(f->m, in.ino, &target, &len), 0);
	assert_int_equal(len, 6);
	assert_string_equal(target, "target");
	free(target);
	assert_int_equal(mds_get_xattr(f->m, in.ino, "user.b", &v, &len), 0);
	assert_int_equal(len, 2);
	free(v);
	assert_int_equal(mds_get_xattr(f->m, in.ino, "user.c", &v, &len),
			 -ENODATA);
	assert_int_equal(mds_list_xattrs(f->m, in.ino, xcount_cb, &nx), 0);
	assert_int_equal(nx, 2);
	memset(&s, 0, sizeof(s));
	assert_int_equal(mds_list_orphans(f->m, orphan_cb, &s), 0);
	assert_int_equal(s.count, 1);
	assert_int_equal(s.ino[0], in.ino);

	b = kv_batch_new();
	assert_int_equal(mds_del_inode_all(f->m, b, &in), 0);
	assert_int_equal(commit(f, b), 0);
	assert_int_equal(mds_get_inode(f->m, in.ino, &out), -ENOENT);
	assert_int_equal(mds_get_symlink(f->m, in.ino, &target, &len),
			 -ENOENT);
	nx = 0;
	assert_int_equal(mds_list_xattrs(f->m, in.ino, xcount_cb, &nx), 0);
	assert_int_equal(nx, 0);
	memset(&s, 0, sizeof(s));
	assert_int_equal(mds_list_orphans(f->m, orphan_cb, &s), 0);
	assert_int_equal(s.count, 0);
	nx = 0;
	assert_int_equal(mds_list_xattrs(f->m, in.ino + 1, xcount_cb, &nx), 0);
	assert_int_equal(nx, 1);
}

static int inode_count_cb(const struct mds_inode *in, void *arg)
{
	struct names *s = arg;

	s->ino[s->count++] = in->ino;
	return 0;
}

static void test_listing_order(void **state)
{
	struct fixture *f = *state;
	uint64_t inos[] = { 0x10000000100ULL, 300, 0x10000000002ULL, 2 };
	kv_batch *b = kv_batch_new();
	struct names s;

	for (int i = 0; i < 4; i++) {
		struct mds_inode in;

		memset(&in, 0, sizeof(in));
		in.ino = inos[i];
		in.mode = S_IFREG | 0644;
		in.nlink = 1;
		mds_put_inode(b, &in);
	}
	assert_int_equal(commit(f, b), 0);
	memset(&s, 0, sizeof(s));
	assert_int_equal(mds_list_inodes(f->m, inode_count_cb, &s), 0);
	/* numeric order, thanks to big-endian keys (root is 1) */
	assert_int_equal(s.count, 5);
	assert_int_equal(s.ino[0], 1);
	assert_int_equal(s.ino[1], 2);
	assert_int_equal(s.ino[2], 300);
	assert_int_equal(s.ino[3], 0x10000000002ULL);
	assert_int_equal(s.ino[4], 0x10000000100ULL);
}

#define BOTH(t)                                                    \
	{ #t "/mem", t, setup_mem, teardown, NULL },               \
	{ #t "/rocksdb", t, setup_rocks, teardown, NULL }

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_encoding),
		cmocka_unit_test(test_open_unformatted),
		BOTH(test_format_and_root),
		BOTH(test_allocator),
		BOTH(test_dentries),
		BOTH(test_inode_lifecycle),
		BOTH(test_listing_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
