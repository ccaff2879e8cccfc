/*
 * test_backtrace.c - the backtrace record (fs/backtrace.h): encoding and
 * decoding, damaged and foreign input, records cut to fit; and the lazy
 * writer (fs/bt_queue.c) behind vfs.c, on the in-memory data store of
 * fake_data.h plus an in-memory object-0 attribute: what create, mkdir,
 * symlink, rename, link, unlink, chmod, fsync and the purge leave there.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "backtrace.h"
#include "fake_data.h"
#include "kv.h"
#include "mds.h"
#include "util.h"
#include "vfs.h"

/* ---- the record ---- */

/* An independent crc32c (bit by bit) to craft records with. */
static uint32_t crc32c_slow(const unsigned char *p, size_t n)
{
	uint32_t c = 0xffffffffU;

	while (n--) {
		c ^= *p++;
		for (int k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ 0x82f63b78U : c >> 1;
	}
	return c ^ 0xffffffffU;
}

static void reseal(unsigned char *buf, size_t len)
{
	uint32_t c = crc32c_slow(buf, len - 4);

	for (int i = 0; i < 4; i++)
		buf[len - 4 + i] = (unsigned char)(c >> (8 * i));
}

static void sample(struct backtrace *bt, struct bt_dentry *anc,
		   struct bt_dentry *links)
{
	memset(bt, 0, sizeof(*bt));
	bt->ino = 0x10000000abcULL;
	bt->mode = S_IFREG | 0640;
	bt->uid = 1000;
	bt->gid = 100;
	bt->mtime.tv_sec = 1700000000;
	bt->mtime.tv_nsec = 123456789;
	bt->stamp = 1700000000123456789ULL;
	bt->layout.stripe_unit = 1 << 20;
	bt->layout.stripe_count = 4;
	bt->layout.object_size = 4 << 20;
	bt->layout.pool = 1;
	anc[0].dirino = 0x10000000010ULL;
	anc[0].name = "file name \xff\x01 with bytes";
	anc[1].dirino = 0x10000000001ULL;
	anc[1].name = "sub";
	anc[2].dirino = MDS_ROOT_INO;
	anc[2].name = "top";
	bt->anc = anc;
	bt->nanc = 3;
	links[0].dirino = 0x10000000020ULL;
	links[0].name = "hardlink";
	bt->links = links;
	bt->nlinks = 1;
}

static void test_roundtrip(void **state)
{
	struct bt_dentry anc[3], links[1];
	struct backtrace bt, out;
	unsigned char buf[BT_MAX_ENCODED];
	size_t len;

	(void)state;
	sample(&bt, anc, links);
	assert_int_equal(bt_encode(&bt, buf, sizeof(buf), &len), 0);
	assert_true(len < 200);
	assert_int_equal(bt_decode(buf, len, &out), 0);
	assert_int_equal(out.ino, bt.ino);
	assert_int_equal(out.mode, bt.mode);
	assert_int_equal(out.uid, 1000);
	assert_int_equal(out.gid, 100);
	assert_int_equal(out.mtime.tv_sec, 1700000000);
	assert_int_equal(out.mtime.tv_nsec, 123456789);
	assert_int_equal(out.stamp, bt.stamp);
	assert_memory_equal(&out.layout, &bt.layout, sizeof(bt.layout));
	assert_int_equal(out.flags, 0);
	assert_int_equal(out.nanc, 3);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(out.anc[i].dirino, anc[i].dirino);
		assert_string_equal(out.anc[i].name, anc[i].name);
	}
	assert_int_equal(out.nlinks, 1);
	assert_int_equal(out.links[0].dirino, links[0].dirino);
	assert_string_equal(out.links[0].name, "hardlink");
	bt_free(&out);
	bt_free(&out); /* twice is harmless */

	/* the root has no ancestry; everyone else needs one */
	bt.ino = MDS_ROOT_INO;
	bt.mode = S_IFDIR | 0755;
	bt.nanc = bt.nlinks = 0;
	assert_int_equal(bt_encode(&bt, buf, sizeof(buf), &len), 0);
	assert_int_equal(bt_decode(buf, len, &out), 0);
	assert_int_equal(out.nanc, 0);
	bt_free(&out);
	bt.ino = 0x10000000001ULL;
	assert_int_equal(bt_encode(&bt, buf, sizeof(buf), &len), -EINVAL);
}

static void test_bad_records(void **state)
{
	struct bt_dentry anc[3], links[1], bad;
	struct backtrace bt, out;
	unsigned char buf[BT_MAX_ENCODED], copy[BT_MAX_ENCODED];
	size_t len;

	(void)state;
	sample(&bt, anc, links);
	/* what is not a record is not encoded */
	bad = anc[0];
	anc[0].name = "a/b";
	assert_int_equal(bt_encode(&bt, buf, sizeof(buf), &len), -EINVAL);
	anc[0].name = "..";
	assert_int_equal(bt_encode(&bt, buf, sizeof(buf), &len), -EINVAL);
	anc[0].name = "";
	assert_int_equal(bt_encode(&bt, buf, sizeof(buf), &len), -EINVAL);
	anc[0] = bad;
	anc[1].dirino = 0;
	assert_int_equal(bt_encode(&bt, buf, sizeof(buf), &len), -EINVAL);
	anc[1].dirino = 0x10000000001ULL;
	bt.mode = 0777; /* no type */
	assert_int_equal(bt_encode(&bt, buf, sizeof(buf), &len), -EINVAL);
	bt.mode = S_IFREG | 0640;
	assert_int_equal(bt_encode(&bt, buf, 40, &len), -ENOSPC);
	assert_int_equal(bt_encode(&bt, buf, sizeof(buf), &len), 0);

	/* every flipped bit is caught */
	for (size_t i = 0; i < len; i++)
		for (int b = 0; b < 8; b++) {
			memcpy(copy, buf, len);
			copy[i] ^= (unsigned char)(1 << b);
			assert_int_not_equal(bt_decode(copy, len, &out), 0);
		}
	/* so is every cut, and a byte too many */
	for (size_t n = 0; n < len; n++)
		assert_int_equal(bt_decode(buf, n, &out), CFS_ECORRUPT);
	memcpy(copy, buf, len);
	copy[len] = 0;
	assert_int_equal(bt_decode(copy, len + 1, &out), CFS_ECORRUPT);
	/* garbage */
	srand(7);
	for (int t = 0; t < 2000; t++) {
		size_t n = (size_t)(rand() % 300);

		for (size_t i = 0; i < n; i++)
			copy[i] = (unsigned char)rand();
		if (t % 2 && n >= 4)
			memcpy(copy, "CFBT", 4);
		assert_int_not_equal(bt_decode(copy, n, &out), 0);
	}
	/* well sealed but wrong inside: a name with '/', a count past the
	 * end, a zero inode, bytes after the links of a v1 record */
	memcpy(copy, buf, len);
	{
		/* anc[0]'s name starts after the fixed part, nanc and its
		 * dirino and length byte: 12 + 72 + 2 + 8 + 1 */
		size_t at = 12 + 72 + 2 + 8 + 1;

		assert_memory_equal(copy + at, "file", 4);
		copy[at] = '/';
		reseal(copy, len);
		assert_int_equal(bt_decode(copy, len, &out), CFS_ECORRUPT);
		memcpy(copy, buf, len);
		copy[12 + 72] = 0xff; /* nanc */
		reseal(copy, len);
		assert_int_equal(bt_decode(copy, len, &out), CFS_ECORRUPT);
		memcpy(copy, buf, len);
		memset(copy + 12, 0, 8); /* ino */
		reseal(copy, len);
		assert_int_equal(bt_decode(copy, len, &out), CFS_ECORRUPT);
	}
	memcpy(copy, buf, len - 4);
	copy[len - 4] = 0x5a; /* one byte more payload */
	copy[8]++;
	reseal(copy, len + 1);
	assert_int_equal(bt_decode(copy, len + 1, &out), CFS_ECORRUPT);
	/* a newer struct_v with more payload that we may skip: read */
	copy[4] = 2;
	reseal(copy, len + 1);
	assert_int_equal(bt_decode(copy, len + 1, &out), 0);
	assert_string_equal(out.links[0].name, "hardlink");
	bt_free(&out);
	/* a struct_compat we do not know: refused as such */
	memcpy(copy, buf, len);
	copy[5] = 2;
	reseal(copy, len);
	assert_int_equal(bt_decode(copy, len, &out), -EPROTO);
}

static void test_cut_to_fit(void **state)
{
	struct bt_dentry anc[40], links[40];
	char names[80][256];
	struct backtrace bt, out;
	unsigned char buf[BT_MAX_ENCODED];
	size_t len;

	(void)state;
	sample(&bt, anc, links);
	for (int i = 0; i < 40; i++) {
		memset(names[i], 'a' + i % 26, 200);
		names[i][200] = '\0';
		memset(names[40 + i], 'A' + i % 26, 200);
		names[40 + i][200] = '\0';
		anc[i].dirino = 0x10000000100ULL + (uint64_t)i;
		anc[i].name = names[i];
		links[i].dirino = 0x10000000200ULL + (uint64_t)i;
		links[i].name = names[40 + i];
	}
	bt.nanc = 40;
	bt.nlinks = 40;
	assert_int_equal(bt_encode(&bt, buf, sizeof(buf), &len), 0);
	assert_true(len <= BT_MAX_ENCODED);
	assert_int_equal(bt_decode(buf, len, &out), 0);
	assert_int_equal(out.flags, BT_F_ANC_CUT | BT_F_LINKS_CUT);
	/* the primary link first, then as many links as fit, then the
	 * ancestry that is left room for */
	assert_int_equal(out.nanc, 1);
	assert_string_equal(out.anc[0].name, names[0]);
	assert_true(out.nlinks >= 5 && out.nlinks < 40);
	for (size_t i = 0; i < out.nlinks; i++)
		assert_int_equal(out.links[i].dirino, links[i].dirino);
	bt_free(&out);
	bt.nlinks = 0;
	assert_int_equal(bt_encode(&bt, buf, sizeof(buf), &len), 0);
	assert_int_equal(bt_decode(buf, len, &out), 0);
	assert_int_equal(out.flags, BT_F_ANC_CUT);
	assert_true(out.nanc > 5 && out.nanc < 40);
	for (size_t i = 0; i < out.nanc; i++)
		assert_int_equal(out.anc[i].dirino, anc[i].dirino);
	bt_free(&out);
}

/* ---- the writer behind vfs.c ---- */

struct stored {
	uint64_t ino;
	unsigned char bt[BT_MAX_ENCODED];
	size_t len;
	char data[4096];
	size_t dlen;
	int syncs;
};

static struct {
	struct stored s[64];
	int n, sets, removes, fail;
} bts;

static struct stored *bt_find(uint64_t ino)
{
	for (int i = 0; i < bts.n; i++)
		if (bts.s[i].ino == ino)
			return &bts.s[i];
	return NULL;
}

static int fake_set_bt(void *ctx, uint64_t ino, const void *bt, size_t len,
		       const void *data, size_t dlen, int sync)
{
	struct stored *s = bt_find(ino);

	(void)ctx;
	if (bts.fail)
		return -ENOSPC;
	if (!s) {
		assert_true(bts.n < 64);
		s = &bts.s[bts.n++];
		memset(s, 0, sizeof(*s));
		s->ino = ino;
	}
	assert_true(len <= sizeof(s->bt));
	memcpy(s->bt, bt, len);
	s->len = len;
	if (data) {
		memcpy(s->data, data, dlen);
		s->dlen = dlen;
	}
	s->syncs += sync;
	bts.sets++;
	return 0;
}

static int fake_get_bt(void *ctx, uint64_t ino, void **bt, size_t *len)
{
	struct stored *s = bt_find(ino);

	(void)ctx;
	if (!s)
		return -ENOENT;
	*bt = malloc(s->len);
	memcpy(*bt, s->bt, s->len);
	*len = s->len;
	return 0;
}

static int fake_remove_bt(void *ctx, uint64_t ino)
{
	struct stored *s = bt_find(ino);

	(void)ctx;
	bts.removes++;
	if (s)
		*s = bts.s[--bts.n];
	return 0;
}

/* Removing a file's objects takes object 0, backtrace and all (objlayer
 * removes every object the index has). */
static int fake_remove_all(void *ctx, uint64_t ino, const struct ol_layout *l,
			   uint64_t size)
{
	struct stored *s = bt_find(ino);

	if (s)
		*s = bts.s[--bts.n];
	return fake_remove(ctx, ino, l, size);
}

static struct vfs_data_ops bt_ops;

struct fx {
	kv *db;
	mds *m;
	vfs *v;
	struct vfs_cred cred;
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	fake_reset();
	memset(&bts, 0, sizeof(bts));
	bt_ops = fake_ops;
	bt_ops.set_backtrace = fake_set_bt;
	bt_ops.get_backtrace = fake_get_bt;
	bt_ops.remove_backtrace = fake_remove_bt;
	bt_ops.remove = fake_remove_all;
	assert_int_equal(kv_open_mem(&f->db), 0);
	assert_int_equal(mds_format(f->db, "fsid", 0, 0), 0);
	assert_int_equal(mds_open(f->db, "fsid", &f->m), 0);
	assert_int_equal(vfs_new(f->m, &bt_ops, NULL, NULL, &f->v), 0);
	f->cred.uid = 1000;
	f->cred.gid = 1000;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	if (f->v)
		vfs_free(f->v);
	mds_close(f->m);
	kv_close(f->db);
	free(f);
	return 0;
}

/* The stored backtrace of ino, decoded (the test frees it). */
static void get_bt(uint64_t ino, struct backtrace *out)
{
	struct stored *s = bt_find(ino);

	if (!s)
		fail_msg("no backtrace for %llx", (unsigned long long)ino);
	assert_int_equal(bt_decode(s->bt, s->len, out), 0);
	assert_int_equal(out->ino, ino);
}

static void expect_link(const struct backtrace *bt, size_t i, uint64_t dir,
			const char *name)
{
	const struct bt_dentry *d = i == 0 ? &bt->anc[0] : &bt->links[i - 1];

	assert_true(i < 1 + bt->nlinks);
	assert_int_equal(d->dirino, dir);
	assert_string_equal(d->name, name);
}

static uint64_t mkfile(struct fx *f, uint64_t dir, const char *name)
{
	struct vfs_entry e;
	vfs_file *fh;

	assert_int_equal(vfs_create(f->v, &f->cred, dir, name, S_IFREG | 0644,
				    O_RDWR, &e, &fh), 0);
	assert_int_equal(vfs_release(f->v, fh), 0);
	vfs_forget(f->v, e.ino, 1);
	return e.ino;
}

static int count_mark(uint64_t ino, uint64_t parent, const char *name,
		      size_t nlen, void *arg)
{
	(void)ino, (void)parent, (void)name, (void)nlen;
	(*(int *)arg)++;
	return 0;
}

static int marks(struct fx *f)
{
	int n = 0;

	assert_int_equal(mds_list_btmarks(f->m, count_mark, &n), 0);
	return n;
}

/* The daemon's periodic pass leaves a backtrace noted moments ago (a
 * file made and removed within BTQ_MIN_AGE_NS never reaches the object
 * store); vfs_flush_all, as at the unmount, writes it at once. */
static void test_periodic_waits(void **state)
{
	struct fx *f = *state;
	uint64_t a;

	a = mkfile(f, MDS_ROOT_INO, "young");
	assert_int_equal(vfs_flush_periodic(f->v), 0);
	assert_int_equal(bts.sets, 0);
	assert_null(bt_find(a));
	assert_int_equal(marks(f), 1); /* a crash still finds it */
	assert_int_equal(vfs_flush_all(f->v, 0), 0);
	assert_int_equal(bts.sets, 1);
	assert_non_null(bt_find(a));
	assert_int_equal(marks(f), 0);
}

static void test_lazy_writes(void **state)
{
	struct fx *f = *state;
	struct vfs_entry d1, d2, sl;
	struct backtrace bt;
	uint64_t a, ghost;

	assert_int_equal(vfs_mkdir(f->v, &f->cred, MDS_ROOT_INO, "d1", 0750,
				   &d1), 0);
	assert_int_equal(vfs_mkdir(f->v, &f->cred, d1.ino, "d2", 0755, &d2),
			 0);
	a = mkfile(f, d2.ino, "a");
	assert_int_equal(vfs_symlink(f->v, &f->cred, "d1/d2/a", MDS_ROOT_INO,
				     "sl", &sl), 0);
	/* made and unmade before a flush: never written at all */
	ghost = mkfile(f, MDS_ROOT_INO, "ghost");
	assert_int_equal(vfs_unlink(f->v, MDS_ROOT_INO, "ghost"), 0);
	assert_int_equal(bts.sets, 0); /* lazily: nothing yet */

	/* what a crash must not lose (the ghost's goes with its records,
	 * at the write-back after its purge, which the purge queue's
	 * worker may have done already) */
	assert_in_range(marks(f), 4, 5);
	vfs_purge_drain(f->v);
	assert_int_equal(vfs_flush_all(f->v, 0), 0);
	assert_int_equal(bts.sets, 4);
	assert_int_equal(marks(f), 0);
	assert_null(bt_find(ghost));
	get_bt(a, &bt);
	assert_int_equal(bt.mode, S_IFREG | 0644);
	assert_int_equal(bt.uid, 1000);
	assert_int_equal(bt.layout.object_size, 4 << 20);
	/* the ancestry up to the root */
	assert_int_equal(bt.nanc, 3);
	expect_link(&bt, 0, d2.ino, "a");
	assert_int_equal(bt.anc[1].dirino, d1.ino);
	assert_string_equal(bt.anc[1].name, "d2");
	assert_int_equal(bt.anc[2].dirino, MDS_ROOT_INO);
	assert_string_equal(bt.anc[2].name, "d1");
	assert_int_equal(bt.nlinks, 0);
	bt_free(&bt);
	get_bt(d1.ino, &bt);
	assert_int_equal(bt.mode, S_IFDIR | 0750);
	expect_link(&bt, 0, MDS_ROOT_INO, "d1");
	bt_free(&bt);
	/* a symlink's target is the object's data */
	get_bt(sl.ino, &bt);
	assert_true(S_ISLNK(bt.mode));
	bt_free(&bt);
	assert_int_equal(bt_find(sl.ino)->dlen, 7);
	assert_memory_equal(bt_find(sl.ino)->data, "d1/d2/a", 7);

	/* a rename of the file and of a directory */
	assert_int_equal(vfs_rename(f->v, d2.ino, "a", MDS_ROOT_INO, "b", 0),
			 0);
	assert_int_equal(vfs_rename(f->v, d1.ino, "d2", MDS_ROOT_INO, "D2", 0),
			 0);
	bts.sets = 0;
	assert_int_equal(vfs_flush_all(f->v, 0), 0);
	assert_int_equal(bts.sets, 2);
	get_bt(a, &bt);
	assert_int_equal(bt.nanc, 1);
	expect_link(&bt, 0, MDS_ROOT_INO, "b");
	bt_free(&bt);
	get_bt(d2.ino, &bt);
	expect_link(&bt, 0, MDS_ROOT_INO, "D2");
	bt_free(&bt);

	/* hard links: every name is kept, the first one stays primary */
	{
		struct vfs_entry e;

		assert_int_equal(vfs_link(f->v, a, d1.ino, "l1", &e), 0);
		vfs_forget(f->v, a, 1);
		assert_int_equal(vfs_link(f->v, a, d2.ino, "l2", &e), 0);
		vfs_forget(f->v, a, 1);
	}
	assert_int_equal(vfs_flush_all(f->v, 0), 0);
	get_bt(a, &bt);
	assert_int_equal(bt.nlinks, 2);
	expect_link(&bt, 0, MDS_ROOT_INO, "b");
	expect_link(&bt, 1, d1.ino, "l1");
	expect_link(&bt, 2, d2.ino, "l2");
	bt_free(&bt);
	/* the primary goes: the next one takes its place (read back from
	 * the stored backtrace, then changed) */
	assert_int_equal(vfs_unlink(f->v, MDS_ROOT_INO, "b"), 0);
	assert_int_equal(vfs_rename(f->v, d1.ino, "l1", d2.ino, "l1b", 0), 0);
	assert_int_equal(vfs_flush_all(f->v, 0), 0);
	get_bt(a, &bt);
	assert_int_equal(bt.nlinks, 1);
	expect_link(&bt, 0, d2.ino, "l2");
	expect_link(&bt, 1, d2.ino, "l1b");
	bt_free(&bt);

	/* chmod is recorded, with the links as they are */
	{
		struct stat st = { .st_mode = 0600 };

		assert_int_equal(vfs_setattr(f->v, NULL, a, &st, VFS_SET_MODE,
					     NULL), 0);
	}
	assert_int_equal(vfs_flush_all(f->v, 0), 0);
	get_bt(a, &bt);
	assert_int_equal(bt.mode, S_IFREG | 0600);
	assert_int_equal(bt.nlinks, 1);
	bt_free(&bt);

	/* the last name goes: so does the backtrace, with the inode's
	 * objects; a directory's by itself */
	bts.removes = 0;
	assert_int_equal(vfs_unlink(f->v, d2.ino, "l2"), 0);
	assert_int_equal(vfs_unlink(f->v, d2.ino, "l1b"), 0);
	vfs_purge_drain(f->v);
	assert_null(bt_find(a));
	assert_int_equal(bts.removes, 0);
	assert_int_equal(vfs_rmdir(f->v, MDS_ROOT_INO, "D2"), 0);
	assert_non_null(bt_find(d2.ino)); /* the kernel still knows it */
	vfs_forget(f->v, d2.ino, 1);
	vfs_purge_drain(f->v);
	assert_null(bt_find(d2.ino));
	assert_int_equal(bts.removes, 1);
}

static void test_fsync_and_unmount(void **state)
{
	struct fx *f = *state;
	struct vfs_entry e;
	struct backtrace bt;
	vfs_file *fh;
	uint64_t file;

	assert_int_equal(vfs_create(f->v, &f->cred, MDS_ROOT_INO, "f",
				    S_IFREG | 0644, O_RDWR, &e, &fh), 0);
	assert_int_equal(vfs_write(f->v, NULL, fh, 0, "abc", 3), 3);
	assert_int_equal(fake_chunks(e.ino), 1);
	assert_null(bt_find(e.ino));
	/* fsync makes it durable, at once */
	assert_int_equal(vfs_fsync(f->v, fh, 0), 0);
	assert_non_null(bt_find(e.ino));
	assert_int_equal(bt_find(e.ino)->syncs, 1);
	assert_int_equal(vfs_release(f->v, fh), 0);
	vfs_forget(f->v, e.ino, 1);
	file = e.ino;

	/* a store that refuses: kept for the next flush, not lost */
	assert_int_equal(vfs_rename(f->v, MDS_ROOT_INO, "f", MDS_ROOT_INO, "g",
				    0), 0);
	bts.fail = 1;
	assert_int_equal(vfs_flush_all(f->v, 0), 0);
	bts.fail = 0;
	get_bt(file, &bt);
	expect_link(&bt, 0, MDS_ROOT_INO, "f");
	bt_free(&bt);
	/* the unmount writes what is pending */
	assert_int_equal(vfs_mkdir(f->v, &f->cred, MDS_ROOT_INO, "late", 0700,
				   &e), 0);
	vfs_forget(f->v, e.ino, 1);
	vfs_free(f->v);
	f->v = NULL;
	get_bt(e.ino, &bt);
	expect_link(&bt, 0, MDS_ROOT_INO, "late");
	bt_free(&bt);
	get_bt(file, &bt);
	expect_link(&bt, 0, MDS_ROOT_INO, "g");
	bt_free(&bt);
}

/* A crash before the lazy write: the next mount writes what was pending,
 * from the marks the store kept. */
static void test_crash_resume(void **state)
{
	struct fx *f = *state;
	struct vfs_entry d;
	struct backtrace bt;
	vfs *next;
	uint64_t a, b, c;

	assert_int_equal(vfs_mkdir(f->v, &f->cred, MDS_ROOT_INO, "d", 0755,
				   &d), 0);
	a = mkfile(f, d.ino, "a");
	b = mkfile(f, MDS_ROOT_INO, "b");
	assert_int_equal(vfs_rename(f->v, d.ino, "a", MDS_ROOT_INO, "a2", 0),
			 0);
	{
		struct vfs_entry e;

		assert_int_equal(vfs_link(f->v, b, d.ino, "b2", &e), 0);
		vfs_forget(f->v, b, 1);
	}
	/* c: made as "c", linked as "c2", then "c" removed: the mark's
	 * link is gone, the backtrace must name "c2" alone */
	c = mkfile(f, MDS_ROOT_INO, "c");
	{
		struct vfs_entry e;

		assert_int_equal(vfs_link(f->v, c, d.ino, "c2", &e), 0);
		vfs_forget(f->v, c, 1);
		assert_int_equal(vfs_unlink(f->v, MDS_ROOT_INO, "c"),
				 0);
	}
	assert_int_equal(bts.sets, 0);
	assert_int_equal(marks(f), 4);
	/* "the daemon died": the next mount opens the same store */
	assert_int_equal(vfs_new(f->m, &bt_ops, NULL, NULL, &next), 0);
	assert_int_equal(vfs_flush_all(next, 0), 0);
	get_bt(a, &bt);
	assert_int_equal(bt.nlinks, 0);
	expect_link(&bt, 0, MDS_ROOT_INO, "a2");
	bt_free(&bt);
	/* a mark keeps one link: a hard link made in the same window is
	 * found among the dentries, so the backtrace names both (fsck
	 * called it stale after a thrash kill) */
	get_bt(b, &bt);
	assert_int_equal(bt.nlinks, 1);
	{
		int root = 0, sub = 0;

		for (size_t i = 0; i < 2; i++) {
			const struct bt_dentry *l =
				i == 0 ? &bt.anc[0] : &bt.links[0];

			root += l->dirino == MDS_ROOT_INO &&
				!strcmp(l->name, "b");
			sub += l->dirino == d.ino && !strcmp(l->name, "b2");
		}
		assert_int_equal(root, 1);
		assert_int_equal(sub, 1);
	}
	bt_free(&bt);
	get_bt(c, &bt);
	assert_int_equal(bt.nlinks, 0);
	expect_link(&bt, 0, d.ino, "c2");
	bt_free(&bt);
	get_bt(d.ino, &bt);
	expect_link(&bt, 0, MDS_ROOT_INO, "d");
	bt_free(&bt);
	assert_int_equal(marks(f), 0);
	vfs_free(next);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_bad_records),
		cmocka_unit_test(test_cut_to_fit),
		cmocka_unit_test_setup_teardown(test_lazy_writes, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_periodic_waits, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_fsync_and_unmount, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_crash_resume, setup,
						teardown),
	};

	cfs_log_set(NULL, CFS_LOG_ERR);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
