/*
 * test_vfs.c - POSIX conformance of vfs.c, without a kernel: one suite run
 * against both metadata engines (kv_mem, and RocksDB in a temporary
 * directory), with the in-memory data store of fake_data.h.  After every
 * test the metadata is checked for consistency the way fsck does: every
 * entry names an inode, link counts match the entries, directories point
 * at their parents, no orphan marks are left behind.
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
#include <linux/falloc.h>
#include <linux/fs.h>
#include <pthread.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>
#include <cmocka.h>

#include "fake_data.h"
#include "kv.h"
#include "mds.h"
#include "util.h"
#include "vfs.h"

struct fixture {
	int rocks;
	char dir[64];
	kv *db;
	mds *m;
	vfs *v;
	struct vfs_cred cred;
};

/* a later than b: whole timespecs compared (seconds, then nanoseconds) */
static int ts_after(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec > b->tv_sec ||
	       (a->tv_sec == b->tv_sec && a->tv_nsec > b->tv_nsec);
}

static void open_vfs(struct fixture *f)
{
	assert_int_equal(mds_open(f->db, "test-fsid", &f->m), 0);
	assert_int_equal(vfs_new(f->m, &fake_ops, NULL, NULL, &f->v), 0);
}

static void close_vfs(struct fixture *f)
{
	vfs_free(f->v);
	mds_close(f->m);
	f->v = NULL;
	f->m = NULL;
}

static int setup_common(void **state, int rocks)
{
	struct fixture *f = calloc(1, sizeof(*f));

	fake_reset();
	f->rocks = rocks;
	if (rocks) {
		strcpy(f->dir, "/tmp/test_vfs.XXXXXX");
		assert_non_null(mkdtemp(f->dir));
		assert_int_equal(kv_open_rocksdb(f->dir, 1, &f->db), 0);
	} else {
		assert_int_equal(kv_open_mem(&f->db), 0);
	}
	assert_int_equal(mds_format(f->db, "test-fsid", 0, 0), 0);
	open_vfs(f);
	f->cred.uid = 1000;
	f->cred.gid = 1000;
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

/* ---- the consistency check run after every test ---- */

struct check {
	uint64_t inos[4096];
	uint32_t links[4096], subdirs[4096];
	struct mds_inode recs[4096];
	int n;
	mds *m;
};

static int find_ino(struct check *c, uint64_t ino)
{
	for (int i = 0; i < c->n; i++)
		if (c->inos[i] == ino)
			return i;
	return -1;
}

static int check_inode_cb(const struct mds_inode *in, void *arg)
{
	struct check *c = arg;

	assert_true(c->n < 4096);
	c->inos[c->n] = in->ino;
	c->recs[c->n] = *in;
	c->n++;
	return 0;
}

static int check_dentry_cb(uint64_t parent, const char *name, size_t nlen,
			   const struct mds_dentry *d, void *arg)
{
	struct check *c = arg;
	int i = find_ino(c, d->ino), p = find_ino(c, parent);

	(void)name, (void)nlen;
	assert_true(i >= 0);
	assert_true(p >= 0);
	assert_true(S_ISDIR(c->recs[p].mode));
	assert_int_equal(d->type, mds_mode_to_dt(c->recs[i].mode));
	c->links[i]++;
	if (S_ISDIR(c->recs[i].mode)) {
		assert_int_equal(c->recs[i].parent, parent);
		c->subdirs[p]++;
	}
	return 0;
}

static int no_orphan_cb(uint64_t ino, void *arg)
{
	(void)arg;
	fail_msg("orphan %llx left behind", (unsigned long long)ino);
	return 0;
}

static void check_consistent(struct fixture *f)
{
	struct check *c = calloc(1, sizeof(*c));

	/* removed inodes are purged in the background: wait for them */
	vfs_purge_drain(f->v);
	assert_int_equal(vfs_flush_all(f->v, 0), 0);
	c->m = f->m;
	assert_int_equal(mds_list_inodes(f->m, check_inode_cb, c), 0);
	assert_int_equal(mds_list_dentries(f->m, check_dentry_cb, c), 0);
	for (int i = 0; i < c->n; i++) {
		const struct mds_inode *r = &c->recs[i];

		if (r->ino == MDS_ROOT_INO) {
			assert_int_equal(r->nlink, 2 + c->subdirs[i]);
			continue;
		}
		if (S_ISDIR(r->mode))
			assert_int_equal(r->nlink, 2 + c->subdirs[i]);
		else
			assert_int_equal(r->nlink, c->links[i]);
		assert_true(c->links[i] > 0);
	}
	free(c);
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	if (f->v) {
		uint64_t cached, lookups;

		/* Tests drop every reference they take. */
		vfs_counts(f->v, &cached, &lookups);
		check_consistent(f);
		assert_int_equal(mds_list_orphans(f->m, no_orphan_cb, NULL), 0);
		{
			/* the inode count statfs reports is exact */
			uint64_t stored, actual;

			assert_int_equal(mds_recount_inodes(f->m, 0, &stored,
							    &actual),
					 0);
			assert_int_equal(stored, actual);
		}
		close_vfs(f);
	}
	kv_close(f->db);
	if (f->rocks)
		cfs_rmtree(f->dir);
	fake_reset();
	free(f);
	return 0;
}

/* ---- helpers ---- */

static uint64_t mkfile(struct fixture *f, uint64_t dir, const char *name)
{
	struct vfs_entry e;
	vfs_file *fh;

	assert_int_equal(vfs_create(f->v, &f->cred, dir, name, 0644, O_RDWR,
				    &e, &fh), 0);
	assert_int_equal(vfs_release(f->v, fh), 0);
	vfs_forget(f->v, e.ino, 1);
	return e.ino;
}

static uint64_t mkdir_(struct fixture *f, uint64_t dir, const char *name)
{
	struct vfs_entry e;

	assert_int_equal(vfs_mkdir(f->v, &f->cred, dir, name, 0755, &e), 0);
	vfs_forget(f->v, e.ino, 1);
	return e.ino;
}

static int lookup(struct fixture *f, uint64_t dir, const char *name,
		  struct stat *st)
{
	struct vfs_entry e;
	int rc = vfs_lookup(f->v, dir, name, &e);

	if (rc)
		return rc;
	if (st)
		*st = e.attr;
	vfs_forget(f->v, e.ino, 1);
	return 0;
}

static uint64_t ino_of(struct fixture *f, uint64_t dir, const char *name)
{
	struct stat st = { 0 };

	assert_int_equal(lookup(f, dir, name, &st), 0);
	return st.st_ino;
}

static void write_all(struct fixture *f, uint64_t ino, uint64_t off,
		      const void *buf, size_t len)
{
	vfs_file *fh;

	assert_int_equal(vfs_open(f->v, ino, O_WRONLY, &fh), 0);
	assert_int_equal(vfs_write(f->v, NULL, fh, off, buf, len), (ssize_t)len);
	assert_int_equal(vfs_release(f->v, fh), 0);
}

static ssize_t read_at(struct fixture *f, uint64_t ino, uint64_t off,
		       void *buf, size_t len)
{
	vfs_file *fh;
	ssize_t n;

	assert_int_equal(vfs_open(f->v, ino, O_RDONLY, &fh), 0);
	n = vfs_read(f->v, fh, off, buf, len);
	assert_int_equal(vfs_release(f->v, fh), 0);
	return n;
}

static uint64_t cached(struct fixture *f)
{
	uint64_t c;

	vfs_counts(f->v, &c, NULL);
	return c;
}

/* ---- tests ---- */

static void test_root(void **state)
{
	struct fixture *f = *state;
	struct stat st;

	assert_int_equal(vfs_getattr(f->v, 1, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0755);
	assert_int_equal(st.st_nlink, 2);
	assert_int_equal(st.st_ino, 1);
	assert_int_equal(lookup(f, 1, ".", &st), 0);
	assert_int_equal(st.st_ino, 1);
	assert_int_equal(lookup(f, 1, "..", &st), 0);
	assert_int_equal(st.st_ino, 1);
	assert_int_equal(vfs_getattr(f->v, 12345, &st), -ENOENT);
}

static void test_create_lookup_counts(void **state)
{
	struct fixture *f = *state;
	struct vfs_entry e, e2;
	vfs_file *fh;
	uint64_t lookups;

	assert_int_equal(cached(f), 1);
	assert_int_equal(vfs_create(f->v, &f->cred, 1, "a", 0640,
				    O_CREAT | O_RDWR, &e, &fh), 0);
	/* inode numbers start where CephFS's do */
	assert_int_equal(e.ino, MDS_FIRST_INO);
	assert_true(S_ISREG(e.attr.st_mode));
	assert_int_equal(e.attr.st_mode & 07777, 0640);
	assert_int_equal(e.attr.st_uid, 1000);
	assert_int_equal(e.attr.st_gid, 1000);
	assert_int_equal(e.attr.st_nlink, 1);
	assert_int_equal(vfs_lookup(f->v, 1, "a", &e2), 0);
	assert_int_equal(e2.ino, e.ino);
	vfs_counts(f->v, NULL, &lookups);
	assert_int_equal(lookups, 2);
	assert_int_equal(vfs_release(f->v, fh), 0);
	vfs_forget(f->v, e.ino, 1);
	assert_int_equal(cached(f), 2);
	vfs_forget(f->v, e.ino, 1);
	/* no references left: the inode leaves the table */
	assert_int_equal(cached(f), 1);
	/* O_EXCL on an existing name */
	assert_int_equal(vfs_create(f->v, &f->cred, 1, "a", 0644,
				    O_CREAT | O_EXCL | O_RDWR, &e, &fh),
			 -EEXIST);
	/* without O_EXCL the existing file is opened */
	assert_int_equal(vfs_create(f->v, &f->cred, 1, "a", 0644,
				    O_CREAT | O_RDWR, &e2, &fh), 0);
	assert_int_equal(e2.ino, e.ino);
	assert_int_equal(vfs_release(f->v, fh), 0);
	vfs_forget(f->v, e2.ino, 1);
	/* the next number is the next one */
	assert_int_equal(mkfile(f, 1, "b"), MDS_FIRST_INO + 1);
}

static void test_name_errors(void **state)
{
	struct fixture *f = *state;
	char longname[300];
	struct vfs_entry e;
	uint64_t file = mkfile(f, 1, "file");

	memset(longname, 'x', sizeof(longname));
	longname[256] = '\0';
	assert_int_equal(vfs_lookup(f->v, 1, "nope", &e), -ENOENT);
	assert_int_equal(vfs_lookup(f->v, 1, longname, &e), -ENAMETOOLONG);
	assert_int_equal(vfs_mkdir(f->v, &f->cred, 1, longname, 0755, &e),
			 -ENAMETOOLONG);
	longname[255] = '\0';
	assert_int_equal(vfs_mkdir(f->v, &f->cred, 1, longname, 0755, &e), 0);
	vfs_forget(f->v, e.ino, 1);
	assert_int_equal(vfs_rmdir(f->v, 1, longname), 0);
	assert_int_equal(vfs_lookup(f->v, file, "x", &e), -ENOTDIR);
	assert_int_equal(vfs_mkdir(f->v, &f->cred, file, "x", 0755, &e),
			 -ENOTDIR);
	assert_int_equal(vfs_mkdir(f->v, &f->cred, 1, "file", 0755, &e),
			 -EEXIST);
	assert_int_equal(vfs_unlink(f->v, 1, "nope"), -ENOENT);
	assert_int_equal(vfs_rmdir(f->v, 1, "nope"), -ENOENT);
	assert_int_equal(vfs_mkdir(f->v, &f->cred, 777777, "x", 0755, &e),
			 -ENOENT);
}

static void test_mkdir_rmdir(void **state)
{
	struct fixture *f = *state;
	struct stat st;
	uint64_t d, e;

	d = mkdir_(f, 1, "d");
	assert_int_equal(vfs_getattr(f->v, 1, &st), 0);
	assert_int_equal(st.st_nlink, 3);
	e = mkdir_(f, d, "e");
	mkfile(f, d, "f");
	assert_int_equal(vfs_getattr(f->v, d, &st), 0);
	assert_int_equal(st.st_nlink, 3);
	assert_int_equal(lookup(f, e, "..", &st), 0);
	assert_int_equal(st.st_ino, d);
	assert_int_equal(vfs_rmdir(f->v, 1, "d"), -ENOTEMPTY);
	assert_int_equal(vfs_rmdir(f->v, d, "f"), -ENOTDIR);
	assert_int_equal(vfs_unlink(f->v, d, "e"), -EISDIR);
	assert_int_equal(vfs_rmdir(f->v, d, "."), -EINVAL);
	assert_int_equal(vfs_rmdir(f->v, d, ".."), -ENOTEMPTY);
	assert_int_equal(vfs_rmdir(f->v, d, "e"), 0);
	assert_int_equal(vfs_unlink(f->v, d, "f"), 0);
	assert_int_equal(vfs_getattr(f->v, d, &st), 0);
	assert_int_equal(st.st_nlink, 2);
	assert_int_equal(vfs_rmdir(f->v, 1, "d"), 0);
	assert_int_equal(vfs_getattr(f->v, 1, &st), 0);
	assert_int_equal(st.st_nlink, 2);
	assert_int_equal(lookup(f, 1, "d", NULL), -ENOENT);
}

static void test_removed_dir_refuses_entries(void **state)
{
	struct fixture *f = *state;
	struct vfs_entry e, e2;
	vfs_dir *dh;

	assert_int_equal(vfs_mkdir(f->v, &f->cred, 1, "gone", 0755, &e), 0);
	assert_int_equal(vfs_opendir(f->v, e.ino, &dh), 0);
	assert_int_equal(vfs_rmdir(f->v, 1, "gone"), 0);
	/* like a process whose cwd was removed */
	assert_int_equal(vfs_mkdir(f->v, &f->cred, e.ino, "x", 0755, &e2),
			 -ENOENT);
	assert_int_equal(vfs_releasedir(f->v, dh), 0);
	vfs_forget(f->v, e.ino, 1);
	assert_int_equal(vfs_getattr(f->v, e.ino, &e.attr), -ENOENT);
}

static void test_mknod_symlink(void **state)
{
	struct fixture *f = *state;
	struct vfs_entry e;
	char buf[64];
	vfs_file *fh;

	assert_int_equal(vfs_mknod(f->v, &f->cred, 1, "fifo", S_IFIFO | 0600,
				   0, &e), 0);
	assert_true(S_ISFIFO(e.attr.st_mode));
	assert_int_equal(vfs_open(f->v, e.ino, O_RDONLY, &fh), -ENXIO);
	vfs_forget(f->v, e.ino, 1);
	assert_int_equal(vfs_mknod(f->v, &f->cred, 1, "reg", 0600, 0, &e), 0);
	assert_true(S_ISREG(e.attr.st_mode));
	vfs_forget(f->v, e.ino, 1);
	assert_int_equal(vfs_mknod(f->v, &f->cred, 1, "chr", S_IFCHR | 0600,
				   makedev(1, 3), &e), 0);
	assert_int_equal(e.attr.st_rdev, makedev(1, 3));
	vfs_forget(f->v, e.ino, 1);

	assert_int_equal(vfs_symlink(f->v, &f->cred, "../some/target", 1,
				     "ln", &e), 0);
	assert_true(S_ISLNK(e.attr.st_mode));
	assert_int_equal(e.attr.st_size, 14);
	assert_int_equal(vfs_readlink(f->v, e.ino, buf, sizeof(buf)), 14);
	assert_memory_equal(buf, "../some/target", 14);
	/* a short buffer gets a truncated target */
	assert_int_equal(vfs_readlink(f->v, e.ino, buf, 4), 4);
	assert_int_equal(vfs_open(f->v, e.ino, O_RDONLY, &fh), -ELOOP);
	vfs_forget(f->v, e.ino, 1);
	assert_int_equal(vfs_readlink(f->v, ino_of(f, 1, "reg"), buf, 64),
			 -EINVAL);
	assert_int_equal(vfs_symlink(f->v, &f->cred, "", 1, "empty", &e),
			 -ENOENT);
	assert_int_equal(vfs_unlink(f->v, 1, "ln"), 0);
	assert_int_equal(vfs_unlink(f->v, 1, "fifo"), 0);
}

static void test_hard_links(void **state)
{
	struct fixture *f = *state;
	struct vfs_entry e;
	struct stat st;
	uint64_t a = mkfile(f, 1, "a"), d = mkdir_(f, 1, "d");
	char buf[8];

	write_all(f, a, 0, "payload", 7);
	assert_int_equal(vfs_link(f->v, a, d, "b", &e), 0);
	assert_int_equal(e.ino, a);
	assert_int_equal(e.attr.st_nlink, 2);
	vfs_forget(f->v, a, 1);
	assert_int_equal(vfs_link(f->v, a, d, "b", &e), -EEXIST);
	assert_int_equal(vfs_link(f->v, d, 1, "dlink", &e), -EPERM);
	assert_int_equal(vfs_unlink(f->v, 1, "a"), 0);
	assert_int_equal(vfs_getattr(f->v, a, &st), 0);
	assert_int_equal(st.st_nlink, 1);
	assert_int_equal(read_at(f, a, 0, buf, 8), 7);
	assert_memory_equal(buf, "payload", 7);
	assert_int_equal(fake.removes, 0);
	assert_int_equal(vfs_unlink(f->v, d, "b"), 0);
	/* nothing references it any more: queued for its purge */
	vfs_purge_drain(f->v);
	assert_int_equal(fake.removes, 1);
	assert_int_equal(fake.last_removed_ino, a);
	assert_int_equal(vfs_getattr(f->v, a, &st), -ENOENT);
}

static void test_rename_basic(void **state)
{
	struct fixture *f = *state;
	struct stat st;
	uint64_t a = mkfile(f, 1, "a"), b = mkfile(f, 1, "b");
	uint64_t d = mkdir_(f, 1, "d");

	assert_int_equal(vfs_rename(f->v, 1, "a", d, "a2", 0), 0);
	assert_int_equal(lookup(f, 1, "a", NULL), -ENOENT);
	assert_int_equal(ino_of(f, d, "a2"), a);
	/* replacing a file: the old target is purged */
	assert_int_equal(vfs_rename(f->v, 1, "b", d, "a2", 0), 0);
	assert_int_equal(ino_of(f, d, "a2"), b);
	vfs_purge_drain(f->v);
	assert_int_equal(fake.last_removed_ino, a);
	assert_int_equal(vfs_getattr(f->v, a, &st), -ENOENT);
	/* same name: nothing happens */
	assert_int_equal(vfs_rename(f->v, d, "a2", d, "a2", 0), 0);
	assert_int_equal(ino_of(f, d, "a2"), b);
	/* missing source */
	assert_int_equal(vfs_rename(f->v, 1, "zz", d, "x", 0), -ENOENT);
	/* bad flags */
	assert_int_equal(vfs_rename(f->v, d, "a2", 1, "x", 0x80), -EINVAL);
	assert_int_equal(vfs_rename(f->v, d, "a2", 1, "x",
				    RENAME_NOREPLACE | RENAME_EXCHANGE),
			 -EINVAL);
}

static void test_rename_noreplace_exchange(void **state)
{
	struct fixture *f = *state;
	struct stat st;
	uint64_t a = mkfile(f, 1, "a"), b = mkfile(f, 1, "b");
	uint64_t d1 = mkdir_(f, 1, "d1");
	uint64_t sub = mkdir_(f, d1, "sub");

	mkdir_(f, 1, "d2");
	assert_int_equal(vfs_rename(f->v, 1, "a", 1, "b", RENAME_NOREPLACE),
			 -EEXIST);
	assert_int_equal(vfs_rename(f->v, 1, "a", 1, "c", RENAME_NOREPLACE), 0);
	assert_int_equal(vfs_rename(f->v, 1, "c", 1, "nope", RENAME_EXCHANGE),
			 -ENOENT);
	assert_int_equal(vfs_rename(f->v, 1, "c", 1, "b", RENAME_EXCHANGE), 0);
	assert_int_equal(ino_of(f, 1, "c"), b);
	assert_int_equal(ino_of(f, 1, "b"), a);
	/* exchange a directory with a file across directories */
	assert_int_equal(vfs_rename(f->v, d1, "sub", 1, "b", RENAME_EXCHANGE),
			 0);
	assert_int_equal(ino_of(f, 1, "b"), sub);
	assert_int_equal(ino_of(f, d1, "sub"), a);
	assert_int_equal(lookup(f, sub, "..", &st), 0);
	assert_int_equal(st.st_ino, 1);
	assert_int_equal(vfs_getattr(f->v, d1, &st), 0);
	assert_int_equal(st.st_nlink, 2);
	assert_int_equal(vfs_getattr(f->v, 1, &st), 0);
	assert_int_equal(st.st_nlink, 5); /* d1, d2, b(sub) */
	/* exchange two directories in different parents */
	assert_int_equal(vfs_rename(f->v, 1, "b", d1, "sub", RENAME_EXCHANGE),
			 0);
	assert_int_equal(ino_of(f, d1, "sub"), sub);
	assert_int_equal(ino_of(f, 1, "b"), a);
	/* a directory cannot be exchanged into its own subtree */
	assert_int_equal(vfs_rename(f->v, 1, "d1", sub, "x", 0), -EINVAL);
	mkdir_(f, sub, "x");
	assert_int_equal(vfs_rename(f->v, 1, "d1", sub, "x", RENAME_EXCHANGE),
			 -EINVAL);
	assert_int_equal(vfs_rmdir(f->v, sub, "x"), 0);
}

static void test_rename_dirs(void **state)
{
	struct fixture *f = *state;
	struct stat st;
	uint64_t d1 = mkdir_(f, 1, "d1"), d2 = mkdir_(f, 1, "d2");
	uint64_t s = mkdir_(f, d1, "s");
	uint64_t t = mkdir_(f, d2, "t");

	mkfile(f, 1, "file");
	mkfile(f, t, "inside");
	/* into itself / below itself */
	assert_int_equal(vfs_rename(f->v, 1, "d1", d1, "x", 0), -EINVAL);
	assert_int_equal(vfs_rename(f->v, 1, "d1", s, "x", 0), -EINVAL);
	/* type mismatches */
	assert_int_equal(vfs_rename(f->v, d1, "s", 1, "file", 0), -ENOTDIR);
	assert_int_equal(vfs_rename(f->v, 1, "file", d1, "s", 0), -EISDIR);
	/* over a non-empty directory */
	assert_int_equal(vfs_rename(f->v, d1, "s", d2, "t", 0), -ENOTEMPTY);
	assert_int_equal(vfs_unlink(f->v, t, "inside"), 0);
	/* over an empty directory, across parents */
	assert_int_equal(vfs_rename(f->v, d1, "s", d2, "t", 0), 0);
	assert_int_equal(ino_of(f, d2, "t"), s);
	assert_int_equal(vfs_getattr(f->v, t, &st), -ENOENT);
	assert_int_equal(vfs_getattr(f->v, d1, &st), 0);
	assert_int_equal(st.st_nlink, 2);
	assert_int_equal(vfs_getattr(f->v, d2, &st), 0);
	assert_int_equal(st.st_nlink, 3);
	assert_int_equal(lookup(f, s, "..", &st), 0);
	assert_int_equal(st.st_ino, d2);
	/* a directory moved up, over an empty directory in the same parent */
	mkdir_(f, d2, "u");
	assert_int_equal(vfs_rename(f->v, d2, "t", d2, "u", 0), 0);
	assert_int_equal(vfs_getattr(f->v, d2, &st), 0);
	assert_int_equal(st.st_nlink, 3);
	assert_int_equal(vfs_rename(f->v, d2, "u", 1, "top", 0), 0);
	assert_int_equal(vfs_getattr(f->v, 1, &st), 0);
	assert_int_equal(st.st_nlink, 5);
}

static void test_rename_hardlinks_same_inode(void **state)
{
	struct fixture *f = *state;
	struct vfs_entry e;
	uint64_t a = mkfile(f, 1, "a");

	assert_int_equal(vfs_link(f->v, a, 1, "b", &e), 0);
	vfs_forget(f->v, a, 1);
	/* POSIX: two links to one file: rename does nothing */
	assert_int_equal(vfs_rename(f->v, 1, "a", 1, "b", 0), 0);
	assert_int_equal(ino_of(f, 1, "a"), a);
	assert_int_equal(ino_of(f, 1, "b"), a);
}

static void test_read_write_sparse_big(void **state)
{
	struct fixture *f = *state;
	uint64_t a = mkfile(f, 1, "big");
	uint64_t far = 5ULL << 30; /* past 4 GiB */
	char buf[100];
	struct stat st;

	write_all(f, a, 10, "hello", 5);
	assert_int_equal(vfs_getattr(f->v, a, &st), 0);
	assert_int_equal(st.st_size, 15);
	memset(buf, 'x', sizeof(buf));
	assert_int_equal(read_at(f, a, 0, buf, 100), 15);
	assert_memory_equal(buf, "\0\0\0\0\0\0\0\0\0\0hello", 15);
	assert_int_equal(read_at(f, a, 15, buf, 100), 0);
	assert_int_equal(read_at(f, a, 1000, buf, 100), 0);
	write_all(f, a, far, "end", 3);
	assert_int_equal(vfs_getattr(f->v, a, &st), 0);
	assert_int_equal((uint64_t)st.st_size, far + 3);
	assert_int_equal(read_at(f, a, far - 2, buf, 10), 5);
	assert_memory_equal(buf, "\0\0end", 5);
	/* a hole in the middle reads as zeros */
	assert_int_equal(read_at(f, a, 3ULL << 30, buf, 4), 4);
	assert_memory_equal(buf, "\0\0\0\0", 4);
	/* only two chunks were ever stored */
	assert_int_equal(fake_chunks(a), 2);
}

static void test_append_and_trunc(void **state)
{
	struct fixture *f = *state;
	uint64_t a = mkfile(f, 1, "log");
	vfs_file *h1, *h2;
	struct stat st, st2;
	char buf[32];

	assert_int_equal(vfs_open(f->v, a, O_WRONLY | O_APPEND, &h1), 0);
	assert_int_equal(vfs_open(f->v, a, O_WRONLY | O_APPEND, &h2), 0);
	/* the offset given is ignored: writes land at the end */
	assert_int_equal(vfs_write(f->v, NULL, h1, 0, "one ", 4), 4);
	assert_int_equal(vfs_write(f->v, NULL, h2, 0, "two ", 4), 4);
	assert_int_equal(vfs_write(f->v, NULL, h1, 2, "three", 5), 5);
	assert_int_equal(vfs_release(f->v, h1), 0);
	assert_int_equal(vfs_release(f->v, h2), 0);
	assert_int_equal(read_at(f, a, 0, buf, 32), 13);
	assert_memory_equal(buf, "one two three", 13);
	/* reading needs a readable handle, writing a writable one */
	assert_int_equal(vfs_open(f->v, a, O_RDONLY, &h1), 0);
	assert_int_equal(vfs_write(f->v, NULL, h1, 0, "x", 1), -EBADF);
	assert_int_equal(vfs_release(f->v, h1), 0);
	assert_int_equal(vfs_open(f->v, a, O_WRONLY, &h1), 0);
	assert_int_equal(vfs_read(f->v, h1, 0, buf, 1), -EBADF);
	assert_int_equal(vfs_release(f->v, h1), 0);
	/* O_TRUNC empties it and updates mtime/ctime */
	assert_int_equal(vfs_getattr(f->v, a, &st), 0);
	/* not a wait: the clock moves on, so the new mtime must differ */
	usleep(2000);
	assert_int_equal(vfs_open(f->v, a, O_WRONLY | O_TRUNC, &h1), 0);
	assert_int_equal(vfs_getattr(f->v, a, &st2), 0);
	assert_int_equal(st2.st_size, 0);
	assert_true(ts_after(&st2.st_mtim, &st.st_mtim));
	assert_true(ts_after(&st2.st_ctim, &st.st_ctim));
	assert_int_equal(vfs_release(f->v, h1), 0);
	assert_int_equal(fake_chunks(a), 0);
}

/* A mode or an owner is in the store when the reply goes; times alone
 * are written back with the next flush, as a write's mtime is, and a
 * clean unmount keeps them. */
static void test_setattr_times_written_back(void **state)
{
	struct fixture *f = *state;
	uint64_t a = mkfile(f, 1, "a");
	struct vfs_entry e;
	struct stat st, out;
	struct mds_inode r;

	memset(&st, 0, sizeof(st));
	/* the kernel's reference: the vnode, and what it holds, stays */
	assert_int_equal(vfs_lookup(f->v, 1, "a", &e), 0);
	st.st_mode = 0600;
	assert_int_equal(vfs_setattr(f->v, NULL, a, &st, VFS_SET_MODE, &out),
			 0);
	assert_int_equal(mds_get_inode(f->m, a, &r), 0);
	assert_int_equal(r.mode & 07777, 0600);
	st.st_uid = 7;
	assert_int_equal(vfs_setattr(f->v, NULL, a, &st, VFS_SET_UID, &out),
			 0);
	assert_int_equal(mds_get_inode(f->m, a, &r), 0);
	assert_int_equal(r.uid, 7);
	st.st_atim.tv_sec = st.st_mtim.tv_sec = 981173106;
	assert_int_equal(vfs_setattr(f->v, NULL, a, &st,
				     VFS_SET_ATIME | VFS_SET_MTIME, &out),
			 0);
	assert_int_equal(out.st_mtim.tv_sec, 981173106);
	assert_int_equal(vfs_getattr(f->v, a, &out), 0);
	assert_int_equal(out.st_mtim.tv_sec, 981173106);
	assert_int_equal(mds_get_inode(f->m, a, &r), 0);
	assert_true(r.mtime.tv_sec != 981173106); /* not written yet */
	assert_int_equal(vfs_flush_all(f->v, 0), 0);
	assert_int_equal(mds_get_inode(f->m, a, &r), 0);
	assert_int_equal(r.mtime.tv_sec, 981173106);
	assert_int_equal(r.atime.tv_sec, 981173106);
	st.st_mtim.tv_sec = 1000000000;
	assert_int_equal(vfs_setattr(f->v, NULL, a, &st, VFS_SET_MTIME, &out),
			 0);
	vfs_forget(f->v, e.ino, 1);
	close_vfs(f);
	open_vfs(f);
	assert_int_equal(vfs_getattr(f->v, a, &out), 0);
	assert_int_equal(out.st_mtim.tv_sec, 1000000000);
	assert_int_equal(out.st_mode & 07777, 0600);
	assert_int_equal(out.st_uid, 7);
}

static void test_setattr(void **state)
{
	struct fixture *f = *state;
	uint64_t a = mkfile(f, 1, "f");
	struct stat in, out;
	char buf[16];

	memset(&in, 0, sizeof(in));
	in.st_mode = 04711;
	in.st_uid = 5;
	in.st_gid = 6;
	in.st_atim.tv_sec = 1000;
	in.st_atim.tv_nsec = 123456789;
	in.st_mtim.tv_sec = 2000;
	in.st_mtim.tv_nsec = 987654321;
	assert_int_equal(vfs_setattr(f->v, NULL, a, &in,
				     VFS_SET_MODE | VFS_SET_UID | VFS_SET_GID |
					     VFS_SET_ATIME | VFS_SET_MTIME,
				     &out), 0);
	assert_true(S_ISREG(out.st_mode));
	assert_int_equal(out.st_mode & 07777, 04711);
	assert_int_equal(out.st_uid, 5);
	assert_int_equal(out.st_gid, 6);
	assert_int_equal(out.st_atim.tv_sec, 1000);
	assert_int_equal(out.st_atim.tv_nsec, 123456789);
	assert_int_equal(out.st_mtim.tv_sec, 2000);
	assert_int_equal(out.st_mtim.tv_nsec, 987654321);
	assert_true(out.st_ctim.tv_sec > 2000);
	/* survives the inode leaving the table */
	assert_int_equal(vfs_getattr(f->v, a, &out), 0);
	assert_int_equal(out.st_mtim.tv_nsec, 987654321);
	/* truncate up and down */
	write_all(f, a, 0, "0123456789", 10);
	in.st_size = 4;
	assert_int_equal(vfs_setattr(f->v, NULL, a, &in, VFS_SET_SIZE, &out), 0);
	assert_int_equal(out.st_size, 4);
	in.st_size = 12;
	assert_int_equal(vfs_setattr(f->v, NULL, a, &in, VFS_SET_SIZE, &out), 0);
	assert_int_equal(read_at(f, a, 0, buf, 16), 12);
	assert_memory_equal(buf, "0123\0\0\0\0\0\0\0\0", 12);
	assert_int_equal(vfs_setattr(f->v, NULL, 1, &in, VFS_SET_SIZE, &out),
			 -EISDIR);
	in.st_size = -1;
	assert_int_equal(vfs_setattr(f->v, NULL, a, &in, VFS_SET_SIZE, &out),
			 -EINVAL);
	/* *_NOW */
	assert_int_equal(vfs_setattr(f->v, NULL, a, &in,
				     VFS_SET_ATIME_NOW | VFS_SET_MTIME_NOW,
				     &out), 0);
	assert_true(out.st_mtim.tv_sec > 2000);
}

/* Sizes at the largest file (issue 21): st_blocks without the (size +
 * 511) that overflowed off_t and aborted the sanitized daemon, EFBIG for
 * a truncate, write or fallocate past VFS_MAX_FILE_SIZE, a write across
 * it cut short there (generic_write_check_limits), and the file's bytes
 * still read. */
static void test_max_file_size(void **state)
{
	struct fixture *f = *state;
	uint64_t a = mkfile(f, 1, "huge");
	const uint64_t max = VFS_MAX_FILE_SIZE;
	struct stat in, out;
	vfs_file *fh;
	char buf[8];

	assert_int_equal(max, (uint64_t)INT64_MAX);
	assert_int_equal(vfs_blocks_of(0), 0);
	assert_int_equal(vfs_blocks_of(1), 1);
	assert_int_equal(vfs_blocks_of(512), 1);
	assert_int_equal(vfs_blocks_of(513), 2);
	assert_int_equal(vfs_blocks_of(max), max / 512 + 1);
	assert_int_equal(vfs_blocks_of(UINT64_MAX), UINT64_MAX / 512 + 1);
	assert_true(vfs_blocks_of(UINT64_MAX) > 0);

	write_all(f, a, 0, "hello", 5);
	memset(&in, 0, sizeof(in));
	in.st_size = (off_t)max;
	assert_int_equal(vfs_setattr(f->v, NULL, a, &in, VFS_SET_SIZE, &out), 0);
	assert_int_equal((uint64_t)out.st_size, max);
	assert_int_equal(out.st_blocks, max / 512 + 1);
	assert_int_equal(vfs_getattr(f->v, a, &out), 0);
	assert_int_equal((uint64_t)out.st_size, max);
	assert_true(out.st_blocks > 0);
	assert_int_equal(read_at(f, a, 0, buf, 5), 5);
	assert_memory_equal(buf, "hello", 5);
	assert_int_equal(read_at(f, a, max - 3, buf, 8), 3);
	assert_memory_equal(buf, "\0\0\0", 3);

	assert_int_equal(vfs_open(f->v, a, O_RDWR, &fh), 0);
	/* nothing fits at the end; across it, what fits */
	assert_int_equal(vfs_write(f->v, NULL, fh, max, "x", 1), -EFBIG);
	assert_int_equal(vfs_write(f->v, NULL, fh, UINT64_MAX, "x", 1),
			 -EFBIG);
	assert_int_equal(vfs_write(f->v, NULL, fh, max - 2, "tail", 4), 2);
	assert_int_equal(read_at(f, a, max - 2, buf, 8), 2);
	assert_memory_equal(buf, "ta", 2);
	assert_int_equal(vfs_fallocate(f->v, NULL, fh, 0, max - 1, 2), -EFBIG);
	assert_int_equal(vfs_fallocate(f->v, NULL, fh, 0, UINT64_MAX, 1),
			 -EFBIG);
	assert_int_equal(vfs_fallocate(f->v, NULL, fh, 0, 1, UINT64_MAX),
			 -EFBIG);
	assert_int_equal(vfs_release(f->v, fh), 0);
	/* past it an off_t is negative: EINVAL, as ftruncate(2) says */
	in.st_size = (off_t)(max + 1);
	assert_int_equal(vfs_setattr(f->v, NULL, a, &in, VFS_SET_SIZE, &out),
			 -EINVAL);
	assert_int_equal(vfs_getattr(f->v, a, &out), 0);
	assert_int_equal((uint64_t)out.st_size, max);
	/* CephFS's default max_file_size, and past it: sizes like others */
	in.st_size = (off_t)(1ULL << 40) + 1;
	assert_int_equal(vfs_setattr(f->v, NULL, a, &in, VFS_SET_SIZE, &out), 0);
	assert_int_equal(out.st_blocks, (1ULL << 31) + 1);
	assert_int_equal(read_at(f, a, 0, buf, 5), 5);
	assert_memory_equal(buf, "hello", 5);
	in.st_size = 0;
	assert_int_equal(vfs_setattr(f->v, NULL, a, &in, VFS_SET_SIZE, &out), 0);
	assert_int_equal(out.st_blocks, 0);
}

static int count_cb(uint64_t ino, void *arg)
{
	(void)ino;
	(*(int *)arg)++;
	return 0;
}

static void test_unlinked_open_file(void **state)
{
	struct fixture *f = *state;
	struct mds_inode r;
	struct vfs_entry e;
	vfs_file *fh;
	struct stat st;
	char buf[8];
	int orphans = 0;

	assert_int_equal(vfs_create(f->v, &f->cred, 1, "tmp", 0600,
				    O_CREAT | O_RDWR, &e, &fh), 0);
	assert_int_equal(vfs_write(f->v, NULL, fh, 0, "secret", 6), 6);
	assert_int_equal(vfs_unlink(f->v, 1, "tmp"), 0);
	assert_int_equal(lookup(f, 1, "tmp", NULL), -ENOENT);
	/* still open: data stays */
	assert_int_equal(vfs_getattr(f->v, e.ino, &st), 0);
	assert_int_equal(st.st_nlink, 0);
	assert_int_equal(vfs_read(f->v, fh, 0, buf, 8), 6);
	assert_memory_equal(buf, "secret", 6);
	assert_int_equal(vfs_write(f->v, NULL, fh, 6, "!", 1), 1);
	assert_int_equal(mds_list_orphans(f->m, count_cb, &orphans), 0);
	assert_int_equal(orphans, 1);
	assert_int_equal(fake.removes, 0);
	assert_int_equal(vfs_release(f->v, fh), 0);
	/* the kernel still has it looked up */
	assert_int_equal(fake.removes, 0);
	vfs_forget(f->v, e.ino, 1);
	/* dead at once, its data gone with the purge queue's drain... */
	assert_int_equal(vfs_getattr(f->v, e.ino, &st), -ENOENT);
	vfs_purge_drain(f->v);
	assert_int_equal(fake.removes, 1);
	assert_int_equal(fake_chunks(e.ino), 0);
	/* ...the records with the next write-back (or the queue worker's
	 * batch, whichever comes first) */
	orphans = 0;
	assert_int_equal(mds_list_orphans(f->m, count_cb, &orphans), 0);
	assert_in_range(orphans, 0, 1);
	assert_int_equal(vfs_flush_all(f->v, 0), 0);
	orphans = 0;
	assert_int_equal(mds_list_orphans(f->m, count_cb, &orphans), 0);
	assert_int_equal(orphans, 0);
	assert_int_equal(mds_get_inode(f->m, e.ino, &r), -ENOENT);
}

/* An unmount whose kernel never sent RELEASE for some handles (it drops
 * them with the connection): an unlinked file's data and records go, the
 * other file keeps its data, and the handles are closed (a handle left
 * over is what the sanitizer build's leak check catches here). */
static void test_unmount_closes_unreleased_handles(void **state)
{
	struct fixture *f = *state;
	struct vfs_entry e, d;
	struct mds_inode r;
	vfs_file *fh, *keep;
	vfs_dir *dh;
	int orphans = 0;
	char buf[8];

	assert_int_equal(vfs_create(f->v, &f->cred, 1, "gone", 0600,
				    O_CREAT | O_RDWR, &e, &fh), 0);
	assert_int_equal(vfs_write(f->v, NULL, fh, 0, "data", 4), 4);
	assert_int_equal(vfs_unlink(f->v, 1, "gone"), 0);
	assert_int_equal(vfs_create(f->v, &f->cred, 1, "kept", 0600,
				    O_CREAT | O_RDWR, &d, &keep), 0);
	assert_int_equal(vfs_write(f->v, NULL, keep, 0, "kept", 4), 4);
	assert_int_equal(vfs_opendir(f->v, 1, &dh), 0);
	assert_int_equal(fake.removes, 0);
	close_vfs(f);
	assert_int_equal(fake.removes, 1);
	assert_int_equal(fake_chunks(e.ino), 0);
	open_vfs(f);
	assert_int_equal(fake.removes, 1); /* nothing left to purge */
	assert_int_equal(mds_list_orphans(f->m, count_cb, &orphans), 0);
	assert_int_equal(orphans, 0);
	assert_int_equal(mds_get_inode(f->m, e.ino, &r), -ENOENT);
	/* the other file kept its data and size */
	assert_int_equal(vfs_open(f->v, ino_of(f, 1, "kept"), O_RDONLY, &fh),
			 0);
	assert_int_equal(vfs_read(f->v, fh, 0, buf, 8), 4);
	assert_memory_equal(buf, "kept", 4);
	assert_int_equal(vfs_release(f->v, fh), 0);
	vfs_forget(f->v, d.ino, 1);
}

static void test_crash_leaves_orphan_purged_at_mount(void **state)
{
	struct fixture *f = *state;
	struct vfs_entry e;
	vfs_file *fh;
	struct mds_inode r;
	struct vfs_purge_stats ps;
	vfs *v2;
	int orphans = 0;

	assert_int_equal(vfs_create(f->v, &f->cred, 1, "tmp", 0600,
				    O_CREAT | O_RDWR, &e, &fh), 0);
	assert_int_equal(vfs_write(f->v, NULL, fh, 0, "data", 4), 4);
	assert_int_equal(vfs_flush(f->v, fh), 0);
	assert_int_equal(vfs_unlink(f->v, 1, "tmp"), 0);
	/* "crash": a new daemon starts on the same metadata while the old
	 * one still holds the file; the orphan goes to its purge queue */
	assert_int_equal(vfs_new(f->m, &fake_ops, NULL, NULL, &v2), 0);
	/* queued, not purged before the mount could serve */
	vfs_purge_stats(v2, &ps);
	assert_int_equal(ps.queued, 1);
	assert_int_equal(ps.by_caller, 0);
	vfs_purge_drain(v2);
	assert_int_equal(fake.removes, 1);
	assert_int_equal(vfs_flush_all(v2, 0), 0);
	assert_int_equal(mds_get_inode(f->m, e.ino, &r), -ENOENT);
	assert_int_equal(mds_list_orphans(f->m, count_cb, &orphans), 0);
	assert_int_equal(orphans, 0);
	vfs_free(v2);
	assert_int_equal(vfs_release(f->v, fh), 0);
	vfs_forget(f->v, e.ino, 1);
}

static void test_enospc_partial(void **state)
{
	struct fixture *f = *state;
	uint64_t a = mkfile(f, 1, "full");
	static char big[20000];
	vfs_file *fh;
	struct stat st;

	memset(big, 'z', sizeof(big));
	assert_int_equal(vfs_open(f->v, a, O_WRONLY, &fh), 0);
	fake.budget = 10000;
	/* a partial write returns what was written */
	assert_int_equal(vfs_write(f->v, NULL, fh, 0, big, sizeof(big)), 10000);
	assert_int_equal(vfs_write(f->v, NULL, fh, 10000, big, 10000), -ENOSPC);
	assert_int_equal(vfs_release(f->v, fh), 0);
	assert_int_equal(vfs_getattr(f->v, a, &st), 0);
	assert_int_equal(st.st_size, 10000);
	fake.budget = UINT64_MAX;
	/* deleting works when full */
	assert_int_equal(vfs_unlink(f->v, 1, "full"), 0);
	vfs_purge_drain(f->v);
	assert_int_equal(fake_chunks(a), 0);
}

struct fill_ctx {
	char names[300][16];
	uint64_t inos[300];
	int n, room;
	uint64_t next;
};

static int fill_cb(void *arg, const char *name, const struct vfs_entry *e,
		   uint64_t next)
{
	struct fill_ctx *c = arg;

	if (c->room == 0)
		return 1;
	c->room--;
	snprintf(c->names[c->n], 16, "%s", name);
	c->inos[c->n] = e->ino;
	c->n++;
	c->next = next;
	return 0;
}

static void readdir_all(struct fixture *f, uint64_t dir, int plus, int room,
			struct fill_ctx *c)
{
	vfs_dir *dh;
	uint64_t off = 0;

	memset(c, 0, sizeof(*c));
	assert_int_equal(vfs_opendir(f->v, dir, &dh), 0);
	for (;;) {
		int r;

		c->room = room;
		r = vfs_readdir(f->v, dh, off, plus, fill_cb, c);
		assert_true(r >= 0);
		if (r == 0)
			break;
		off = c->next;
	}
	assert_int_equal(vfs_releasedir(f->v, dh), 0);
}

static void test_readdir(void **state)
{
	struct fixture *f = *state;
	struct fill_ctx *c = calloc(1, sizeof(*c));
	uint64_t d = mkdir_(f, 1, "d"), lookups;
	char name[16];
	vfs_dir *dh;
	int seen[100] = { 0 };

	for (int i = 0; i < 100; i++) {
		snprintf(name, sizeof(name), "f%03d", i);
		mkfile(f, d, name);
	}
	/* small "buffers": 7 entries per call */
	readdir_all(f, d, 0, 7, c);
	assert_int_equal(c->n, 102);
	assert_string_equal(c->names[0], ".");
	assert_string_equal(c->names[1], "..");
	for (int i = 2; i < c->n; i++) {
		int k = atoi(c->names[i] + 1);

		assert_int_equal(seen[k], 0);
		seen[k] = 1;
	}
	/* readdirplus: every entry but . and .. holds a reference */
	readdir_all(f, d, 1, 7, c);
	assert_int_equal(c->n, 102);
	assert_int_equal(c->inos[0], 0);
	vfs_counts(f->v, NULL, &lookups);
	assert_int_equal(lookups, 100);
	for (int i = 2; i < c->n; i++)
		vfs_forget(f->v, c->inos[i], 1);
	vfs_counts(f->v, NULL, &lookups);
	assert_int_equal(lookups, 0);
	/* entries removed mid-listing are skipped, the offsets stay valid */
	memset(c, 0, sizeof(*c));
	assert_int_equal(vfs_opendir(f->v, d, &dh), 0);
	c->room = 10;
	assert_int_equal(vfs_readdir(f->v, dh, 0, 1, fill_cb, c), 10);
	for (int i = 0; i < 100; i += 2) {
		snprintf(name, sizeof(name), "f%03d", i);
		assert_int_equal(vfs_unlink(f->v, d, name), 0);
	}
	c->room = 1000;
	assert_true(vfs_readdir(f->v, dh, c->next, 1, fill_cb, c) > 0);
	assert_int_equal(c->n, 10 + 46); /* odd ones after f007 */
	for (int i = 2; i < c->n; i++)
		vfs_forget(f->v, c->inos[i], 1);
	/* rewinddir (offset 0) takes a fresh snapshot */
	memset(c, 0, sizeof(*c));
	c->room = 1000;
	assert_int_equal(vfs_readdir(f->v, dh, 0, 0, fill_cb, c), 52);
	assert_int_equal(vfs_releasedir(f->v, dh), 0);
	for (int i = 1; i < 100; i += 2) {
		snprintf(name, sizeof(name), "f%03d", i);
		assert_int_equal(vfs_unlink(f->v, d, name), 0);
	}
	free(c);
}

/*
 * Issue 8: a deleted file came back.  The last unlink committed only the
 * orphan mark (the record kept its link count 1), and the inode left the
 * table before the purge put it on the purged list: a readdirplus in that
 * window (here: while the data store removes the file's data) loaded the
 * record again as a live file with a lookup reference.  Now the unlink
 * commits link count 0 with the orphan mark, and a record with link
 * count 0 is never loaded.
 */
struct resurrect {
	struct fixture *f;
	vfs_dir *dh;
	struct fill_ctx *c;
	uint64_t victim;
	int calls, rc;
	struct mds_inode rec;
};

static void resurrect_hook(uint64_t ino, void *arg)
{
	struct resurrect *r = arg;

	if (ino != r->victim)
		return;
	r->calls++;
	/* the store already says the inode is dead */
	assert_int_equal(mds_get_inode(r->f->m, ino, &r->rec), 0);
	/* the listing's snapshot still holds "victim": readdirplus goes on
	 * from where it stopped */
	r->c->room = 100;
	r->rc = vfs_readdir(r->f->v, r->dh, 2, 1, fill_cb, r->c);
}

static void test_unlink_window_no_resurrection(void **state)
{
	struct fixture *f = *state;
	struct fill_ctx *c = calloc(1, sizeof(*c));
	struct resurrect r = { .f = f, .c = c };
	uint64_t d = mkdir_(f, 1, "d"), other;
	struct stat st;

	r.victim = mkfile(f, d, "victim");
	other = mkfile(f, d, "zother");
	write_all(f, r.victim, 0, "doomed", 6);
	assert_int_equal(cached(f), 1); /* only the root is cached */
	/* a listing that took its snapshot and stopped after . and .. */
	assert_int_equal(vfs_opendir(f->v, d, &r.dh), 0);
	c->room = 2;
	assert_int_equal(vfs_readdir(f->v, r.dh, 0, 1, fill_cb, c), 2);
	memset(c, 0, sizeof(*c));
	fake.on_remove = resurrect_hook;
	fake.on_remove_arg = &r;
	assert_int_equal(vfs_unlink(f->v, d, "victim"), 0);
	vfs_purge_drain(f->v);
	fake.on_remove = NULL;
	assert_int_equal(r.calls, 1);
	/* the readdirplus in the window skipped the dead file */
	for (int i = 0; i < c->n; i++)
		vfs_forget(f->v, c->inos[i], 1);
	assert_int_equal(r.rc, 1);
	assert_int_equal(c->n, 1);
	assert_string_equal(c->names[0], "zother");
	assert_int_equal(c->inos[0], other);
	assert_int_equal(r.rec.nlink, 0);
	assert_int_equal(vfs_getattr(f->v, r.victim, &st), -ENOENT);
	assert_int_equal(vfs_releasedir(f->v, r.dh), 0);
	assert_int_equal(cached(f), 1);
	assert_int_equal(fake_chunks(r.victim), 0);
	free(c);
}

/* Every unlink, rename-over and rmdir commits the link count it leaves
 * (0 for the last name) with the entry change: a crash before the purge
 * leaves a record the next mount purges and nothing loads. */
static void test_unlink_commits_nlink0(void **state)
{
	struct fixture *f = *state;
	uint64_t a = mkfile(f, 1, "a"), b = mkfile(f, 1, "b");
	uint64_t d = mkdir_(f, 1, "d");
	struct vfs_entry e;
	struct mds_inode r;
	vfs_file *fh;

	/* held by the "kernel", so the purge waits and the records stay */
	assert_int_equal(vfs_lookup(f->v, 1, "a", &e), 0);
	assert_int_equal(vfs_lookup(f->v, 1, "b", &e), 0);
	assert_int_equal(vfs_open(f->v, a, O_RDONLY, &fh), 0);
	assert_int_equal(vfs_unlink(f->v, 1, "a"), 0);
	assert_int_equal(mds_get_inode(f->m, a, &r), 0);
	assert_int_equal(r.nlink, 0);
	assert_int_equal(vfs_rename(f->v, 1, "b", 1, "c", 0), 0);
	mkfile(f, 1, "b2");
	assert_int_equal(vfs_rename(f->v, 1, "b2", 1, "c", 0), 0);
	assert_int_equal(mds_get_inode(f->m, b, &r), 0);
	assert_int_equal(r.nlink, 0);
	assert_int_equal(vfs_rmdir(f->v, 1, "d"), 0);
	/* a second daemon on the same metadata ("after a crash") purges
	 * the two files and the directory, and loads none of them.  The
	 * first one's purge queue (the directory is in it) is drained
	 * first: two daemons never share a store for real (the cluster
	 * lock), and two purges of one inode at once would count its
	 * record's deletion twice. */
	vfs_purge_drain(f->v);
	{
		vfs *v2;
		struct stat st;

		assert_int_equal(vfs_new(f->m, &fake_ops, NULL, NULL, &v2), 0);
		assert_int_equal(vfs_getattr(v2, a, &st), -ENOENT);
		assert_int_equal(vfs_getattr(v2, b, &st), -ENOENT);
		assert_int_equal(vfs_getattr(v2, d, &st), -ENOENT);
		vfs_free(v2);
	}
	assert_int_equal(vfs_release(f->v, fh), 0);
	vfs_forget(f->v, a, 1);
	vfs_forget(f->v, b, 1);
}

static void get_str(struct fixture *f, uint64_t ino, const char *name,
		    const char *want)
{
	char buf[256];
	ssize_t n = vfs_getxattr(f->v, ino, name, buf, sizeof(buf) - 1);

	assert_true(n >= 0);
	buf[n] = '\0';
	assert_string_equal(buf, want);
}

/* CephFS's layout vxattrs: a directory's layout goes to the files made
 * below it afterwards (the nearest ancestor's wins), file layouts change
 * only while empty, invalid values are EINVAL. */
static void test_ceph_layouts(void **state)
{
	struct fixture *f = *state;
	uint64_t d = mkdir_(f, 1, "d"), e = mkdir_(f, d, "e"), a, b, c, g;
	char buf[256];

	get_str(f, 1, "ceph.dir.layout",
		"stripe_unit=4194304 stripe_count=1 object_size=4194304 "
		"pool=fake_data");
	assert_int_equal(vfs_getxattr(f->v, d, "ceph.dir.layout", buf, 256),
			 -ENODATA);
	a = mkfile(f, e, "a"); /* before any dir layout: the default */
	assert_int_equal(vfs_setxattr(f->v, d, "ceph.dir.layout.stripe_count",
				      "4", 1, 0), 0);
	/* a partial layout starts from the one files took */
	get_str(f, d, "ceph.dir.layout",
		"stripe_unit=4194304 stripe_count=4 object_size=4194304 "
		"pool=fake_data");
	assert_int_equal(vfs_setxattr(f->v, d, "ceph.dir.layout",
				      "stripe_unit=65536 pool=1", 24, 0), 0);
	b = mkfile(f, e, "b"); /* e has none: d's */
	get_str(f, b, "ceph.file.layout",
		"stripe_unit=65536 stripe_count=4 object_size=4194304 "
		"pool=fake_data");
	get_str(f, b, "ceph.file.layout.stripe_count", "4");
	get_str(f, b, "ceph.file.layout.pool", "fake_data");
	get_str(f, b, "ceph.file.layout.pool_namespace", "");
	get_str(f, b, "crushfs.layout",
		"stripe_unit=65536 stripe_count=4 object_size=4194304 pool=1");
	get_str(f, a, "ceph.file.layout.stripe_count", "1");
	/* e's own layout wins over d's */
	assert_int_equal(vfs_setxattr(f->v, e, "ceph.dir.layout.object_size",
				      "8388608", 7, 0), 0);
	c = mkfile(f, e, "c");
	get_str(f, c, "ceph.file.layout",
		"stripe_unit=65536 stripe_count=4 object_size=8388608 "
		"pool=fake_data");
	/* invalid values */
	assert_int_equal(vfs_setxattr(f->v, d, "ceph.dir.layout.pool", "x", 1,
				      0), -EINVAL);
	assert_int_equal(vfs_setxattr(f->v, d,
				      "ceph.dir.layout.pool_namespace", "ns",
				      2, 0), -EINVAL);
	assert_int_equal(vfs_setxattr(f->v, d, "ceph.dir.layout.stripe_unit",
				      "1000", 4, 0), -EINVAL);
	assert_int_equal(vfs_setxattr(f->v, d, "ceph.dir.layout.color", "1",
				      1, 0), -EINVAL);
	assert_int_equal(vfs_setxattr(f->v, b, "ceph.dir.layout.stripe_unit",
				      "65536", 5, 0), -EINVAL);
	assert_int_equal(vfs_getxattr(f->v, d, "ceph.file.layout", buf, 256),
			 -ENODATA);
	/* a file with data keeps its layout */
	{
		vfs_file *fh;

		assert_int_equal(vfs_open(f->v, c, O_RDWR, &fh), 0);
		assert_int_equal(vfs_write(f->v, NULL, fh, 0, "x", 1), 1);
		assert_int_equal(vfs_release(f->v, fh), 0);
	}
	assert_int_equal(vfs_setxattr(f->v, c, "ceph.file.layout.stripe_count",
				      "1", 1, 0), -ENOTEMPTY);
	assert_int_equal(vfs_setxattr(f->v, a, "ceph.file.layout.stripe_count",
				      "2", 1, 0), 0);
	get_str(f, a, "ceph.file.layout.stripe_count", "2");
	/* dropping e's layout: d's again; the root's stays */
	assert_int_equal(vfs_removexattr(f->v, e, "ceph.dir.layout"), 0);
	assert_int_equal(vfs_removexattr(f->v, e, "ceph.dir.layout"),
			 -ENODATA);
	assert_int_equal(vfs_removexattr(f->v, 1, "ceph.dir.layout"), -EINVAL);
	g = mkfile(f, e, "g");
	get_str(f, g, "ceph.file.layout.object_size", "4194304");
	get_str(f, g, "ceph.file.layout.stripe_unit", "65536");
	/* the layouts outlive a remount */
	close_vfs(f);
	open_vfs(f);
	get_str(f, d, "ceph.dir.layout.stripe_unit", "65536");
	get_str(f, c, "ceph.file.layout.object_size", "8388608");
}

/* A directory keeps the layout its new files take (vx_new_file_layout);
 * what it kept goes when an ancestor's layout changes or the directory,
 * or one above it, moves under another parent. */
static void test_layout_follows_moves(void **state)
{
	struct fixture *f = *state;
	uint64_t p = mkdir_(f, 1, "p"), q = mkdir_(f, 1, "q");
	uint64_t s = mkdir_(f, p, "s"), t = mkdir_(f, s, "t"), x, x1;
	struct vfs_entry e;

	/* the kernel's reference keeps t's vnode, and with it what it kept */
	assert_int_equal(vfs_lookup(f->v, s, "t", &e), 0);
	assert_int_equal(vfs_setxattr(f->v, p, "ceph.dir.layout.object_size",
				      "8388608", 7, 0), 0);
	assert_int_equal(vfs_setxattr(f->v, q, "ceph.dir.layout.stripe_unit",
				      "65536", 5, 0), 0);
	x1 = mkfile(f, t, "x1"); /* t keeps p's now */
	get_str(f, x1, "ceph.file.layout.object_size", "8388608");
	get_str(f, x1, "ceph.file.layout.stripe_unit", "4194304");
	/* s (t's parent) moves under q: t's new files take q's */
	assert_int_equal(vfs_rename(f->v, p, "s", q, "s", 0), 0);
	x = mkfile(f, t, "x2");
	get_str(f, x, "ceph.file.layout.object_size", "4194304");
	get_str(f, x, "ceph.file.layout.stripe_unit", "65536");
	/* q's layout dropped: the default again */
	assert_int_equal(vfs_removexattr(f->v, q, "ceph.dir.layout"), 0);
	x = mkfile(f, t, "x3");
	get_str(f, x, "ceph.file.layout.stripe_unit", "4194304");
	/* an exchange carries t under p */
	mkdir_(f, p, "u");
	assert_int_equal(vfs_rename(f->v, s, "t", p, "u", RENAME_EXCHANGE), 0);
	x = mkfile(f, t, "x4");
	get_str(f, x, "ceph.file.layout.object_size", "8388608");
	/* a file made before keeps its own */
	get_str(f, x1, "ceph.file.layout.stripe_unit", "4194304");
	vfs_forget(f->v, e.ino, 1);
}

static void test_xattrs(void **state)
{
	struct fixture *f = *state;
	uint64_t a = mkfile(f, 1, "x");
	char buf[256];
	struct stat st, st2;

	assert_int_equal(vfs_getxattr(f->v, a, "user.k", buf, 256), -ENODATA);
	assert_int_equal(vfs_listxattr(f->v, a, buf, 256), 0);
	assert_int_equal(vfs_getattr(f->v, a, &st), 0);
	/* not a wait: the clock moves on, so the new ctime must differ */
	usleep(2000);
	assert_int_equal(vfs_setxattr(f->v, a, "user.k", "v1", 2, 0), 0);
	assert_int_equal(vfs_getattr(f->v, a, &st2), 0);
	assert_true(ts_after(&st2.st_ctim, &st.st_ctim));
	assert_int_equal(vfs_getxattr(f->v, a, "user.k", NULL, 0), 2);
	assert_int_equal(vfs_getxattr(f->v, a, "user.k", buf, 1), -ERANGE);
	assert_int_equal(vfs_getxattr(f->v, a, "user.k", buf, 256), 2);
	assert_memory_equal(buf, "v1", 2);
	assert_int_equal(vfs_setxattr(f->v, a, "user.k", "v2", 2,
				      XATTR_CREATE), -EEXIST);
	assert_int_equal(vfs_setxattr(f->v, a, "user.new", "v", 1,
				      XATTR_REPLACE), -ENODATA);
	assert_int_equal(vfs_setxattr(f->v, a, "user.k", "value2", 6,
				      XATTR_REPLACE), 0);
	assert_int_equal(vfs_setxattr(f->v, a, "user.empty", "", 0,
				      XATTR_CREATE), 0);
	assert_int_equal(vfs_getxattr(f->v, a, "user.empty", buf, 256), 0);
	assert_int_equal(vfs_listxattr(f->v, a, NULL, 0), 18);
	assert_int_equal(vfs_listxattr(f->v, a, buf, 5), -ERANGE);
	assert_int_equal(vfs_listxattr(f->v, a, buf, 256), 18);
	assert_memory_equal(buf, "user.empty\0user.k\0", 18);
	assert_int_equal(vfs_removexattr(f->v, a, "user.k"), 0);
	assert_int_equal(vfs_removexattr(f->v, a, "user.k"), -ENODATA);
	assert_int_equal(vfs_setxattr(f->v, a, "", "v", 1, 0), -ERANGE);
	{
		static char big[65537];

		assert_int_equal(vfs_setxattr(f->v, a, "user.big", big,
					      sizeof(big), 0), -E2BIG);
		assert_int_equal(vfs_setxattr(f->v, a, "user.big", big, 65536,
					      0), 0);
		assert_int_equal(vfs_getxattr(f->v, a, "user.big", NULL, 0),
				 65536);
	}
	/* xattrs on directories too, and they go with the inode */
	assert_int_equal(vfs_setxattr(f->v, 1, "user.dir", "d", 1, 0), 0);
	assert_int_equal(vfs_unlink(f->v, 1, "x"), 0);
	assert_int_equal(vfs_removexattr(f->v, 1, "user.dir"), 0);
}

static void test_virtual_xattrs(void **state)
{
	struct fixture *f = *state;
	uint64_t a = mkfile(f, 1, "v");
	char buf[4096];
	ssize_t n;
	static char data[9 << 20];

	n = vfs_getxattr(f->v, a, "crushfs.layout", buf, sizeof(buf) - 1);
	assert_true(n > 0);
	buf[n] = '\0';
	assert_string_equal(buf, "stripe_unit=4194304 stripe_count=1 "
				 "object_size=4194304 pool=1");
	n = vfs_getxattr(f->v, a, "crushfs.layout.object_size", buf, 64);
	assert_int_equal(n, 7);
	assert_memory_equal(buf, "4194304", 7);
	assert_int_equal(vfs_getxattr(f->v, a, "crushfs.nope", buf, 64),
			 -ENODATA);
	/* not listed */
	assert_int_equal(vfs_listxattr(f->v, a, buf, sizeof(buf)), 0);
	/* layout of an empty file may change */
	assert_int_equal(vfs_setxattr(f->v, a, "crushfs.layout.object_size",
				      "1048576", 7, 0), -EINVAL);
	assert_int_equal(vfs_setxattr(f->v, a, "crushfs.layout",
				      "stripe_unit=1048576 object_size=1048576",
				      39, 0), 0);
	n = vfs_getxattr(f->v, a, "crushfs.layout", buf, sizeof(buf) - 1);
	buf[n] = '\0';
	assert_string_equal(buf, "stripe_unit=1048576 stripe_count=1 "
				 "object_size=1048576 pool=1");
	assert_int_equal(vfs_setxattr(f->v, a, "crushfs.layout.pool", "7", 1,
				      0), -EINVAL);
	write_all(f, a, 0, data, sizeof(data));
	assert_int_equal(vfs_setxattr(f->v, a, "crushfs.layout.stripe_count",
				      "2", 1, 0), -ENOTEMPTY);
	/* 9 MiB in 1 MiB objects: 9 lines */
	n = vfs_getxattr(f->v, a, "crushfs.placement", buf, sizeof(buf) - 1);
	assert_true(n > 0);
	buf[n] = '\0';
	{
		int lines = 0;

		for (char *p = buf; *p; p++)
			lines += *p == '\n';
		assert_int_equal(lines, 9);
	}
	assert_non_null(strstr(buf, "10000000000.00000008 -> 1."));
	assert_non_null(strstr(buf, "acting [0,1,2]"));
	assert_int_equal(vfs_setxattr(f->v, a, "crushfs.placement", "x", 1, 0),
			 -EPERM);
	assert_int_equal(vfs_removexattr(f->v, a, "crushfs.layout"), -EPERM);
	assert_int_equal(vfs_getxattr(f->v, 1, "crushfs.layout", buf, 64),
			 -ENODATA);
}

/* Layout values as CephFS bounds them (file_layout_t::is_valid, EINVAL)
 * plus our stripe_count and object size limits; a refused value leaves
 * the layout as it was. */
static void test_layout_bounds(void **state)
{
	static const struct {
		const char *name, *value;
	} bad[] = {
		{ "crushfs.layout.stripe_count", "0" },
		{ "crushfs.layout.stripe_count", "65537" },
		{ "crushfs.layout.stripe_count", "4294967295" },
		{ "crushfs.layout.stripe_count", "4294967296" },
		{ "crushfs.layout.stripe_count", "-1" },
		{ "crushfs.layout.stripe_unit", "4096" },	/* < 64 KiB */
		{ "crushfs.layout.stripe_unit", "100000" },	/* not x 64K */
		{ "crushfs.layout.stripe_unit", "196608" },	/* 4M % 192K */
		{ "crushfs.layout.stripe_unit", "8388608" },	/* > object */
		{ "crushfs.layout.object_size", "65536" },	/* < unit */
		{ "crushfs.layout.object_size", "4259840" },	/* % unit */
		{ "crushfs.layout", "object_size=2147483648 stripe_unit=65536" },
		{ "crushfs.layout", "object_size=4096 stripe_unit=4096" },
		{ "crushfs.layout", "stripe_unit=0" },
	};
	struct fixture *f = *state;
	uint64_t a = mkfile(f, 1, "lay");
	char buf[256];
	ssize_t n;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int r = vfs_setxattr(f->v, a, bad[i].name, bad[i].value,
				     strlen(bad[i].value), 0);

		if (r != -EINVAL)
			fail_msg("%s=%s: %d, not -EINVAL", bad[i].name,
				 bad[i].value, r);
		n = vfs_getxattr(f->v, a, "crushfs.layout", buf,
				 sizeof(buf) - 1);
		assert_true(n > 0);
		buf[n] = '\0';
		assert_string_equal(buf, "stripe_unit=4194304 stripe_count=1 "
					 "object_size=4194304 pool=1");
	}
	/* the edges that are allowed */
	assert_int_equal(vfs_setxattr(f->v, a, "crushfs.layout.stripe_count",
				      "65536", 5, 0), 0);
	assert_int_equal(vfs_setxattr(f->v, a, "crushfs.layout",
				      "stripe_unit=65536 object_size=1073741824",
				      40, 0), 0);
	n = vfs_getxattr(f->v, a, "crushfs.layout", buf, sizeof(buf) - 1);
	assert_true(n > 0);
	buf[n] = '\0';
	assert_string_equal(buf, "stripe_unit=65536 stripe_count=65536 "
				 "object_size=1073741824 pool=1");
}

static void test_statfs_access(void **state)
{
	struct fixture *f = *state;
	struct statvfs sv;
	struct vfs_cred other = { 2000, 2000, 0, NULL, 0 };
	struct vfs_cred grp;
	uint32_t groups[1] = { 1000 };
	struct vfs_cred root = { 0, 0, 0, NULL, 0 };
	struct stat in;
	uint64_t a = mkfile(f, 1, "a");

	fake.space_total = 4ULL << 30;
	fake.space_used = 1ULL << 30;
	fake.space_avail = 2ULL << 30;
	assert_int_equal(vfs_statfs(f->v, &sv), 0);
	assert_int_equal(sv.f_frsize * sv.f_blocks, 4ULL << 30);
	assert_int_equal(sv.f_frsize * (sv.f_blocks - sv.f_bfree), 1ULL << 30);
	assert_int_equal(sv.f_frsize * sv.f_bavail, 2ULL << 30);
	assert_int_equal(sv.f_namemax, 255);

	/* mode 0644, owner 1000:1000 */
	assert_int_equal(vfs_access(f->v, &f->cred, a, R_OK | W_OK), 0);
	assert_int_equal(vfs_access(f->v, &f->cred, a, X_OK), -EACCES);
	assert_int_equal(vfs_access(f->v, &other, a, R_OK), 0);
	assert_int_equal(vfs_access(f->v, &other, a, W_OK), -EACCES);
	assert_int_equal(vfs_access(f->v, &other, a, F_OK), 0);
	assert_int_equal(vfs_access(f->v, &root, a, R_OK | W_OK), 0);
	assert_int_equal(vfs_access(f->v, &root, a, X_OK), -EACCES);
	assert_int_equal(vfs_access(f->v, &root, 1, X_OK), 0);
	memset(&in, 0, sizeof(in));
	in.st_mode = 0460;
	assert_int_equal(vfs_setattr(f->v, NULL, a, &in, VFS_SET_MODE, NULL), 0);
	grp = other;
	grp.ngroups = 1;
	grp.groups = groups;
	assert_int_equal(vfs_access(f->v, &grp, a, R_OK | W_OK), 0);
	/* owner class applies even when the group class would allow */
	assert_int_equal(vfs_access(f->v, &f->cred, a, W_OK), -EACCES);
	assert_int_equal(vfs_access(f->v, &f->cred, 99999, F_OK), -ENOENT);
}

static void test_setgid_dir(void **state)
{
	struct fixture *f = *state;
	struct vfs_entry e;
	struct stat in;
	uint64_t d = mkdir_(f, 1, "sg");

	memset(&in, 0, sizeof(in));
	in.st_mode = 02775;
	in.st_gid = 4242;
	assert_int_equal(vfs_setattr(f->v, NULL, d, &in, VFS_SET_MODE | VFS_SET_GID,
				     NULL), 0);
	assert_int_equal(vfs_mkdir(f->v, &f->cred, d, "sub", 0755, &e), 0);
	assert_int_equal(e.attr.st_gid, 4242);
	assert_true(e.attr.st_mode & S_ISGID);
	vfs_forget(f->v, e.ino, 1);
	assert_int_equal(vfs_mknod(f->v, &f->cred, d, "file", S_IFREG | 02755,
				   0, &e), 0);
	assert_int_equal(e.attr.st_gid, 4242);
	/* not in group 4242: setgid dropped from the executable file */
	assert_false(e.attr.st_mode & S_ISGID);
	vfs_forget(f->v, e.ino, 1);
	/* umask applies to new modes */
	f->cred.umask = 022;
	assert_int_equal(vfs_mknod(f->v, &f->cred, 1, "um", S_IFREG | 0666, 0,
				   &e), 0);
	assert_int_equal(e.attr.st_mode & 0777, 0644);
	vfs_forget(f->v, e.ino, 1);
}

/* Clearing setuid/setgid is the filesystem's job (libfuse's default
 * FUSE_CAP_HANDLE_KILLPRIV): on write and truncate by others than root,
 * on chown by anyone; file capabilities go too. */
static void test_killpriv(void **state)
{
	struct fixture *f = *state;
	struct vfs_cred user = { 1000, 1000, 0, NULL, 0 };
	uint64_t a = mkfile(f, 1, "suid");
	struct stat in, out;
	vfs_file *fh;

	memset(&in, 0, sizeof(in));
	in.st_mode = 06775;
	assert_int_equal(vfs_setattr(f->v, NULL, a, &in, VFS_SET_MODE, &out), 0);
	assert_int_equal(vfs_setxattr(f->v, a, "security.capability", "c", 1,
				      0), 0);
	/* root writes: kept */
	assert_int_equal(vfs_open(f->v, a, O_WRONLY, &fh), 0);
	assert_int_equal(vfs_write(f->v, NULL, fh, 0, "x", 1), 1);
	assert_int_equal(vfs_getattr(f->v, a, &out), 0);
	assert_int_equal(out.st_mode & 07777, 06775);
	/* a user writes: both bits and the capability go */
	assert_int_equal(vfs_write(f->v, &user, fh, 1, "y", 1), 1);
	assert_int_equal(vfs_getattr(f->v, a, &out), 0);
	assert_int_equal(out.st_mode & 07777, 0775);
	assert_int_equal(vfs_getxattr(f->v, a, "security.capability", NULL, 0),
			 -ENODATA);
	assert_int_equal(vfs_release(f->v, fh), 0);
	/* setgid without group exec is a locking mark: kept */
	in.st_mode = 02764;
	assert_int_equal(vfs_setattr(f->v, NULL, a, &in, VFS_SET_MODE, &out), 0);
	in.st_size = 1;
	assert_int_equal(vfs_setattr(f->v, &user, a, &in, VFS_SET_SIZE, &out),
			 0);
	assert_int_equal(out.st_mode & 07777, 02764);
	/* chown clears setuid even for root */
	in.st_mode = 04755;
	assert_int_equal(vfs_setattr(f->v, NULL, a, &in, VFS_SET_MODE, &out), 0);
	in.st_uid = 7;
	assert_int_equal(vfs_setattr(f->v, NULL, a, &in, VFS_SET_UID, &out), 0);
	assert_int_equal(out.st_mode & 07777, 0755);
	assert_int_equal(out.st_uid, 7);
	/* directories keep their setgid bit on chown */
	in.st_mode = 02755;
	assert_int_equal(vfs_setattr(f->v, NULL, 1, &in, VFS_SET_MODE, &out), 0);
	in.st_gid = 9;
	assert_int_equal(vfs_setattr(f->v, NULL, 1, &in, VFS_SET_GID, &out), 0);
	assert_int_equal(out.st_mode & 07777, 02755);
}

static void test_readonly(void **state)
{
	struct fixture *f = *state;
	struct vfs_opts ro = { .readonly = 1 };
	uint64_t a = mkfile(f, 1, "r");
	struct vfs_entry e;
	struct stat in;
	vfs *v2;
	vfs_file *fh;
	char buf[4];

	write_all(f, a, 0, "data", 4);
	assert_int_equal(vfs_flush_all(f->v, 0), 0);
	assert_int_equal(vfs_new(f->m, &fake_ops, NULL, &ro, &v2), 0);
	assert_int_equal(vfs_mkdir(v2, &f->cred, 1, "x", 0755, &e), -EROFS);
	assert_int_equal(vfs_unlink(v2, 1, "r"), -EROFS);
	assert_int_equal(vfs_setxattr(v2, a, "user.x", "1", 1, 0), -EROFS);
	memset(&in, 0, sizeof(in));
	assert_int_equal(vfs_setattr(v2, NULL, a, &in, VFS_SET_MODE, NULL),
			 -EROFS);
	assert_int_equal(vfs_open(v2, a, O_RDWR, &fh), -EROFS);
	assert_int_equal(vfs_open(v2, a, O_RDONLY, &fh), 0);
	assert_int_equal(vfs_read(v2, fh, 0, buf, 4), 4);
	assert_memory_equal(buf, "data", 4);
	assert_int_equal(vfs_release(v2, fh), 0);
	vfs_free(v2);
}

static void test_lazy_size_persist(void **state)
{
	struct fixture *f = *state;
	uint64_t a = mkfile(f, 1, "lazy");
	struct mds_inode r;
	vfs_file *fh;
	int syncs;

	assert_int_equal(vfs_open(f->v, a, O_WRONLY, &fh), 0);
	assert_int_equal(vfs_write(f->v, NULL, fh, 0, "abc", 3), 3);
	/* the data path does not write the store... */
	assert_int_equal(mds_get_inode(f->m, a, &r), 0);
	assert_int_equal(r.size, 0);
	/* ...nor does close (flush); the periodic write-back does */
	assert_int_equal(vfs_flush(f->v, fh), 0);
	assert_int_equal(mds_get_inode(f->m, a, &r), 0);
	assert_int_equal(r.size, 0);
	assert_int_equal(vfs_write(f->v, NULL, fh, 3, "def", 3), 3);
	assert_int_equal(vfs_flush_all(f->v, 0), 0);
	assert_int_equal(mds_get_inode(f->m, a, &r), 0);
	assert_int_equal(r.size, 6);
	/* fsync syncs the data and the record */
	syncs = fake.syncs;
	assert_int_equal(vfs_write(f->v, NULL, fh, 6, "g", 1), 1);
	assert_int_equal(vfs_fsync(f->v, fh, 0), 0);
	assert_int_equal(fake.syncs, syncs + 1);
	assert_int_equal(mds_get_inode(f->m, a, &r), 0);
	assert_int_equal(r.size, 7);
	assert_int_equal(vfs_release(f->v, fh), 0);
}

/*
 * Issue 8: old bytes came back after a crash.  A write raised the size
 * only in memory, so after a kill -9 the store said 0 while the objects
 * held 64 KiB, and a truncate-up exposed them.  Now a writeable range
 * (max_size) is committed before the write, and loading the inode after
 * the crash probes its objects and adopts the data as CephFS does.
 */
static void test_crash_recovers_size(void **state)
{
	struct fixture *f = *state;
	uint64_t a = mkfile(f, 1, "f");
	static char data[65536], buf[5 << 16];
	struct mds_inode r;
	struct vfs_entry e;
	struct stat st, in;
	vfs_file *fh, *h2;
	vfs *v2;

	memset(data, 'x', sizeof(data));
	/* a created file comes with one object set of range: its first
	 * writes need no commit */
	assert_int_equal(vfs_create(f->v, &f->cred, 1, "new", 0644, O_WRONLY,
				    &e, &fh), 0);
	assert_int_equal(mds_get_inode(f->m, e.ino, &r), 0);
	assert_int_equal(r.max_size, 4 << 20);
	assert_int_equal(vfs_release(f->v, fh), 0);
	vfs_forget(f->v, e.ino, 1);
	assert_int_equal(vfs_flush_all(f->v, 0), 0);
	assert_int_equal(mds_get_inode(f->m, e.ino, &r), 0);
	assert_int_equal(r.max_size, 0);
	assert_int_equal(vfs_open(f->v, a, O_RDWR, &fh), 0);
	assert_int_equal(vfs_write(f->v, NULL, fh, 0, data, sizeof(data)),
			 (ssize_t)sizeof(data));
	/* the size is still only in memory; the range is committed */
	assert_int_equal(mds_get_inode(f->m, a, &r), 0);
	assert_int_equal(r.size, 0);
	assert_int_equal(r.wr_first, 0);
	assert_int_equal(r.max_size, 4 << 20); /* one object set */
	/* "kill -9": a new daemon on the metadata as the crash left it */
	assert_int_equal(vfs_new(f->m, &fake_ops, NULL, NULL, &v2), 0);
	assert_int_equal(vfs_getattr(v2, a, &st), 0);
	assert_int_equal(st.st_size, 65536);
	assert_int_equal(mds_get_inode(f->m, a, &r), 0);
	assert_int_equal(r.size, 65536);
	assert_int_equal(r.max_size, 0);
	/* truncate up: the new range reads as zeros */
	memset(&in, 0, sizeof(in));
	in.st_size = 3 << 16;
	assert_int_equal(vfs_setattr(v2, NULL, a, &in, VFS_SET_SIZE, NULL), 0);
	assert_int_equal(vfs_open(v2, a, O_RDWR, &h2), 0);
	memset(buf, 'q', sizeof(buf));
	assert_int_equal(vfs_read(v2, h2, 0, buf, sizeof(buf)), 3 << 16);
	assert_memory_equal(buf, data, sizeof(data));
	for (size_t i = 65536; i < (3 << 16); i++)
		assert_int_equal(buf[i], 0);
	/* a write past the end: the hole before it reads as zeros too */
	assert_int_equal(vfs_write(v2, NULL, h2, 4 << 16, "end", 3), 3);
	assert_int_equal(vfs_read(v2, h2, 0, buf, sizeof(buf)), (4 << 16) + 3);
	for (size_t i = 65536; i < (4 << 16); i++)
		assert_int_equal(buf[i], 0);
	assert_memory_equal(buf + (4 << 16), "end", 3);
	assert_int_equal(vfs_release(v2, h2), 0);
	/* the last writer's release closed the range: nothing to probe */
	assert_int_equal(vfs_flush_all(v2, 0), 0);
	assert_int_equal(mds_get_inode(f->m, a, &r), 0);
	assert_int_equal(r.size, (4 << 16) + 3);
	assert_int_equal(r.max_size, 0);
	vfs_free(v2);
	assert_int_equal(vfs_release(f->v, fh), 0);
}

/* Writers extending one file at once from four handles (the range is
 * granted under the exclusive I/O lock while others write): after a
 * "crash", the probe finds every byte. */
struct extender {
	struct fixture *f;
	uint64_t ino;
	int id;
};

static void *extend_fn(void *arg)
{
	struct extender *x = arg;
	static const char fill[4] = { 'a', 'b', 'c', 'd' };
	char chunk[16384];
	vfs_file *fh;

	memset(chunk, fill[x->id], sizeof(chunk));
	assert_int_equal(vfs_open(x->f->v, x->ino, O_WRONLY, &fh), 0);
	for (int i = x->id; i < 512; i += 4)
		assert_int_equal(vfs_write(x->f->v, NULL, fh,
					   (uint64_t)i * sizeof(chunk), chunk,
					   sizeof(chunk)),
				 (ssize_t)sizeof(chunk));
	assert_int_equal(vfs_release(x->f->v, fh), 0);
	return NULL;
}

static void test_concurrent_extend(void **state)
{
	struct fixture *f = *state;
	uint64_t a = mkfile(f, 1, "par");
	struct extender x[4];
	pthread_t th[4];
	char buf[16];
	struct stat st;
	vfs_file *keep;
	vfs *v2;

	/* one handle stays open: the range stays as the writers left it */
	assert_int_equal(vfs_open(f->v, a, O_WRONLY, &keep), 0);
	for (int i = 0; i < 4; i++) {
		x[i] = (struct extender){ f, a, i };
		pthread_create(&th[i], NULL, extend_fn, &x[i]);
	}
	for (int i = 0; i < 4; i++)
		pthread_join(th[i], NULL);
	assert_int_equal(vfs_new(f->m, &fake_ops, NULL, NULL, &v2), 0);
	assert_int_equal(vfs_getattr(v2, a, &st), 0);
	assert_int_equal(st.st_size, 512 * 16384);
	for (int i = 0; i < 512; i += 37) {
		vfs_file *fh;

		assert_int_equal(vfs_open(v2, a, O_RDONLY, &fh), 0);
		assert_int_equal(vfs_read(v2, fh, (uint64_t)i * 16384 + 100, buf,
					  16), 16);
		assert_int_equal(buf[0], "abcd"[i % 4]);
		assert_int_equal(buf[15], "abcd"[i % 4]);
		assert_int_equal(vfs_release(v2, fh), 0);
	}
	vfs_free(v2);
	assert_int_equal(vfs_release(f->v, keep), 0);
}

/* Tools that read the metadata alone (locate: no data store, read-only)
 * cannot probe: they show the recorded size and leave the range for the
 * next mount to recover. */
static void test_readonly_view_keeps_range(void **state)
{
	struct fixture *f = *state;
	uint64_t a = mkfile(f, 1, "ro");
	struct vfs_opts ro = { .readonly = 1, .noatime = 1 };
	struct mds_inode r;
	struct stat st;
	vfs_file *fh;
	vfs *v2;

	assert_int_equal(vfs_open(f->v, a, O_WRONLY, &fh), 0);
	assert_int_equal(vfs_write(f->v, NULL, fh, 0, "written", 7), 7);
	assert_int_equal(vfs_new(f->m, NULL, NULL, &ro, &v2), 0);
	assert_int_equal(vfs_getattr(v2, a, &st), 0);
	assert_int_equal(st.st_size, 0);
	vfs_free(v2);
	assert_int_equal(mds_get_inode(f->m, a, &r), 0);
	assert_int_equal(r.size, 0);
	assert_int_equal(r.max_size, 4 << 20);
	/* a read-only mount probes, and leaves the store alone */
	assert_int_equal(vfs_new(f->m, &fake_ops, NULL, &ro, &v2), 0);
	assert_int_equal(vfs_getattr(v2, a, &st), 0);
	assert_int_equal(st.st_size, 7);
	vfs_free(v2);
	assert_int_equal(mds_get_inode(f->m, a, &r), 0);
	assert_int_equal(r.size, 0);
	assert_int_equal(r.max_size, 4 << 20);
	assert_int_equal(vfs_new(f->m, &fake_ops, NULL, NULL, &v2), 0);
	assert_int_equal(vfs_getattr(v2, a, &st), 0);
	assert_int_equal(st.st_size, 7);
	vfs_free(v2);
	assert_int_equal(mds_get_inode(f->m, a, &r), 0);
	assert_int_equal(r.size, 7);
	assert_int_equal(r.max_size, 0);
	assert_int_equal(vfs_release(f->v, fh), 0);
}

/* The range grows in steps (Locker::calc_new_max_size): a 9 MiB copy
 * commits it twice, not once per write. */
static void test_max_size_steps(void **state)
{
	struct fixture *f = *state;
	uint64_t a = mkfile(f, 1, "seq");
	static char chunk[65536];
	uint64_t seen[8];
	struct mds_inode r;
	vfs_file *fh;
	int n = 0;

	memset(chunk, 's', sizeof(chunk));
	assert_int_equal(vfs_open(f->v, a, O_WRONLY, &fh), 0);
	for (uint64_t off = 0; off < (9 << 20); off += sizeof(chunk)) {
		assert_int_equal(vfs_write(f->v, NULL, fh, off, chunk,
					   sizeof(chunk)),
				 (ssize_t)sizeof(chunk));
		assert_int_equal(mds_get_inode(f->m, a, &r), 0);
		/* every byte written is below the committed size or in
		 * the committed range */
		assert_true(off + sizeof(chunk) <= r.size ||
			    (r.wr_first <= (off > r.size ? off : r.size) &&
			     off + sizeof(chunk) <= r.max_size));
		if (n == 0 || seen[n - 1] != r.max_size) {
			assert_true(n < 8);
			seen[n++] = r.max_size;
		}
	}
	assert_int_equal(n, 2);
	assert_int_equal(seen[0], 4 << 20);
	assert_int_equal(seen[1], 12 << 20);
	assert_int_equal(vfs_release(f->v, fh), 0);
	assert_int_equal(vfs_flush_all(f->v, 0), 0);
	assert_int_equal(mds_get_inode(f->m, a, &r), 0);
	assert_int_equal(r.size, 9 << 20);
	assert_int_equal(r.max_size, 0);
}

/* A write far past the end commits a range near the write, so a crash
 * costs a probe of a few object sets, not of the whole hole. */
static void test_crash_sparse_probe_bounded(void **state)
{
	struct fixture *f = *state;
	uint64_t a = mkfile(f, 1, "sparse"), far = 1ULL << 40;
	struct mds_inode r;
	struct stat st;
	vfs_file *fh;
	vfs *v2;

	assert_int_equal(vfs_open(f->v, a, O_WRONLY, &fh), 0);
	assert_int_equal(vfs_write(f->v, NULL, fh, far + 5, "tail", 4), 4);
	assert_int_equal(mds_get_inode(f->m, a, &r), 0);
	assert_int_equal(r.size, 0);
	assert_int_equal(r.wr_first, far);
	assert_true(r.max_size > far + 9 && r.max_size <= far + (68 << 20));
	fake.stats = 0;
	assert_int_equal(vfs_new(f->m, &fake_ops, NULL, NULL, &v2), 0);
	assert_int_equal(vfs_getattr(v2, a, &st), 0);
	assert_int_equal((uint64_t)st.st_size, far + 9);
	assert_true(fake.stats >= 1 && fake.stats <= 17);
	vfs_free(v2);
	assert_int_equal(vfs_release(f->v, fh), 0);
}

static void quiet_log(int level, const char *msg)
{
	(void)level, (void)msg;
}

/* Objects that could not be probed after a crash: the file keeps its
 * recorded size, and whatever lies past it is cleared before the file
 * grows over it. */
static void test_crash_probe_fails(void **state)
{
	struct fixture *f = *state;
	uint64_t a = mkfile(f, 1, "eio"), b;
	char buf[64];
	struct stat st;
	vfs_file *fh, *h2;
	vfs *v2;

	assert_int_equal(vfs_open(f->v, a, O_WRONLY, &fh), 0);
	assert_int_equal(vfs_write(f->v, NULL, fh, 0, "stale stale", 11), 11);
	cfs_log_set(quiet_log, CFS_LOG_ERR); /* the probe failures */
	fake.stat_err = -EIO;
	assert_int_equal(vfs_new(f->m, &fake_ops, NULL, NULL, &v2), 0);
	assert_int_equal(vfs_open(v2, a, O_RDWR, &h2), 0);
	assert_int_equal(vfs_getattr(v2, a, &st), 0);
	assert_int_equal(st.st_size, 0);
	fake.stat_err = 0;
	assert_int_equal(vfs_write(v2, NULL, h2, 20, "new", 3), 3);
	memset(buf, 'q', sizeof(buf));
	assert_int_equal(vfs_read(v2, h2, 0, buf, sizeof(buf)), 23);
	assert_memory_equal(buf, "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0new",
			    23);
	assert_int_equal(vfs_release(v2, h2), 0);
	vfs_free(v2);
	assert_int_equal(vfs_release(f->v, fh), 0);
	/* a probe that fails only once: the next load recovers the size */
	b = mkfile(f, 1, "eio2");
	write_all(f, b, 0, "kept", 4);
	assert_int_equal(vfs_open(f->v, b, O_WRONLY, &fh), 0);
	assert_int_equal(vfs_write(f->v, NULL, fh, 4, "+more", 5), 5);
	fake.stat_err = -EIO;
	assert_int_equal(vfs_new(f->m, &fake_ops, NULL, NULL, &v2), 0);
	assert_int_equal(vfs_getattr(v2, b, &st), 0);
	assert_int_equal(st.st_size, 4);
	fake.stat_err = 0;
	assert_int_equal(vfs_getattr(v2, b, &st), 0);
	assert_int_equal(st.st_size, 9);
	vfs_free(v2);
	assert_int_equal(vfs_release(f->v, fh), 0);
	cfs_log_set(NULL, CFS_LOG_WARN);
}

/* Preallocated zeros past the size (fallocate KEEP_SIZE) look like data
 * to the probe.  Data found inside the preallocation cannot be told from
 * it: the recorded size stays and the preallocation past it goes (a
 * truncate-up would otherwise show unsynced writes); data past the
 * preallocated end is adopted. */
static void test_crash_with_prealloc(void **state)
{
	struct fixture *f = *state;
	uint64_t a = mkfile(f, 1, "pre"), b = mkfile(f, 1, "pre2");
	struct mds_inode r;
	struct stat st, in;
	char buf[128];
	vfs_file *fh, *fh2, *h;
	vfs *v2;

	assert_int_equal(vfs_open(f->v, a, O_RDWR, &fh), 0);
	assert_int_equal(vfs_write(f->v, NULL, fh, 0, "data", 4), 4);
	assert_int_equal(vfs_fallocate(f->v, NULL, fh, FALLOC_FL_KEEP_SIZE, 0,
				       1 << 20), 0);
	assert_int_equal(vfs_flush_all(f->v, 0), 0);
	assert_int_equal(vfs_write(f->v, NULL, fh, 4, "unsynced", 8), 8);
	assert_int_equal(vfs_open(f->v, b, O_RDWR, &fh2), 0);
	assert_int_equal(vfs_fallocate(f->v, NULL, fh2, FALLOC_FL_KEEP_SIZE, 0,
				       65536), 0);
	assert_int_equal(vfs_write(f->v, NULL, fh2, 100000, "tail", 4), 4);
	/* "kill -9" */
	assert_int_equal(vfs_new(f->m, &fake_ops, NULL, NULL, &v2), 0);
	assert_int_equal(vfs_getattr(v2, a, &st), 0);
	assert_int_equal(st.st_size, 4);
	assert_int_equal(mds_get_inode(f->m, a, &r), 0);
	assert_int_equal(r.flags & MDS_F_PREALLOC, 0);
	assert_int_equal(r.max_size, 0);
	memset(&in, 0, sizeof(in));
	in.st_size = 100;
	assert_int_equal(vfs_setattr(v2, NULL, a, &in, VFS_SET_SIZE, NULL), 0);
	assert_int_equal(vfs_open(v2, a, O_RDONLY, &h), 0);
	memset(buf, 'q', sizeof(buf));
	assert_int_equal(vfs_read(v2, h, 0, buf, sizeof(buf)), 100);
	assert_memory_equal(buf, "data", 4);
	for (int i = 4; i < 100; i++)
		assert_int_equal(buf[i], 0);
	assert_int_equal(vfs_release(v2, h), 0);
	/* past the preallocated end: written data, adopted */
	assert_int_equal(vfs_getattr(v2, b, &st), 0);
	assert_int_equal(st.st_size, 100004);
	vfs_free(v2);
	assert_int_equal(vfs_release(f->v, fh), 0);
	assert_int_equal(vfs_release(f->v, fh2), 0);
}

/* Growing a file clears what objects hold past its end (the open range,
 * the rest of its last object set), whatever put it there. */
static void test_truncate_up_clears_past_end(void **state)
{
	struct fixture *f = *state;
	uint64_t a = mkfile(f, 1, "grow");
	struct stat in;
	char buf[64];

	write_all(f, a, 0, "0123456789", 10);
	/* bytes behind the filesystem's back, past the end */
	assert_int_equal(fake_write(NULL, a, NULL, 30, "junk", 4), 4);
	memset(&in, 0, sizeof(in));
	in.st_size = 40;
	assert_int_equal(vfs_setattr(f->v, NULL, a, &in, VFS_SET_SIZE, NULL), 0);
	memset(buf, 'q', sizeof(buf));
	assert_int_equal(read_at(f, a, 0, buf, sizeof(buf)), 40);
	assert_memory_equal(buf, "0123456789", 10);
	for (int i = 10; i < 40; i++)
		assert_int_equal(buf[i], 0);
}

static void test_relatime(void **state)
{
	struct fixture *f = *state;
	uint64_t a = mkfile(f, 1, "at");
	struct stat in, st, st2;
	char buf[4];

	write_all(f, a, 0, "data", 4);
	memset(&in, 0, sizeof(in));
	in.st_atim.tv_sec = 1; /* ancient atime */
	assert_int_equal(vfs_setattr(f->v, NULL, a, &in, VFS_SET_ATIME, NULL), 0);
	assert_int_equal(read_at(f, a, 0, buf, 4), 4);
	assert_int_equal(vfs_getattr(f->v, a, &st), 0);
	assert_true(st.st_atim.tv_sec > 1);
	/* atime now newer than mtime and fresh: left alone */
	assert_int_equal(read_at(f, a, 0, buf, 4), 4);
	assert_int_equal(vfs_getattr(f->v, a, &st2), 0);
	assert_int_equal(st2.st_atim.tv_sec, st.st_atim.tv_sec);
	assert_int_equal(st2.st_atim.tv_nsec, st.st_atim.tv_nsec);
}

static void test_resolve_and_persistence(void **state)
{
	struct fixture *f = *state;
	uint64_t d = mkdir_(f, 1, "a"), e = mkdir_(f, d, "b");
	uint64_t file = mkfile(f, e, "c"), ino;
	struct stat st;
	char buf[8];

	write_all(f, file, 0, "persist", 7);
	assert_int_equal(vfs_resolve(f->v, "/a/b/c", &ino), 0);
	assert_int_equal(ino, file);
	assert_int_equal(vfs_resolve(f->v, "a//b/../b/./c", &ino), 0);
	assert_int_equal(ino, file);
	assert_int_equal(vfs_resolve(f->v, "/", &ino), 0);
	assert_int_equal(ino, 1);
	assert_int_equal(vfs_resolve(f->v, "/a/x", &ino), -ENOENT);
	assert_int_equal(vfs_resolve(f->v, "/a/b/c/d", &ino), -ENOTDIR);
	/* unmount and mount again (RocksDB: reopen the store as well) */
	close_vfs(f);
	if (f->rocks) {
		kv_close(f->db);
		assert_int_equal(kv_open_rocksdb(f->dir, 0, &f->db), 0);
	}
	open_vfs(f);
	assert_int_equal(vfs_resolve(f->v, "/a/b/c", &ino), 0);
	assert_int_equal(ino, file);
	assert_int_equal(vfs_getattr(f->v, file, &st), 0);
	assert_int_equal(st.st_size, 7);
	assert_int_equal(read_at(f, file, 0, buf, 8), 7);
	/* numbers are not reused after a remount */
	assert_true(mkfile(f, 1, "new") > file);
	(void)e;
}

/* Many threads creating, renaming and removing names in two
 * directories; afterwards the metadata must add up. */
struct worker {
	struct fixture *f;
	int id;
};

static void *worker_fn(void *arg)
{
	struct worker *w = arg;
	struct fixture *f = w->f;
	unsigned seed = (unsigned)w->id * 7919u;

	for (int i = 0; i < 300; i++) {
		char a[32], b[32];
		struct vfs_entry e;
		vfs_file *fh;
		int op = rand_r(&seed) % 6;
		uint64_t dir = 1 + (rand_r(&seed) % 2) * (MDS_FIRST_INO - 1);

		snprintf(a, sizeof(a), "n%d", rand_r(&seed) % 20);
		snprintf(b, sizeof(b), "n%d", rand_r(&seed) % 20);
		switch (op) {
		case 0:
			if (vfs_create(f->v, &f->cred, dir, a, 0644,
				       O_CREAT | O_RDWR, &e, &fh) == 0) {
				vfs_write(f->v, NULL, fh, 0, a, strlen(a));
				vfs_release(f->v, fh);
				vfs_forget(f->v, e.ino, 1);
			}
			break;
		case 1:
			if (vfs_mkdir(f->v, &f->cred, dir, a, 0755, &e) == 0)
				vfs_forget(f->v, e.ino, 1);
			break;
		case 2:
			vfs_unlink(f->v, dir, a);
			break;
		case 3:
			vfs_rmdir(f->v, dir, a);
			break;
		case 4:
			vfs_rename(f->v, dir, a, 1 + MDS_FIRST_INO - dir, b,
				   rand_r(&seed) % 2 ? RENAME_EXCHANGE : 0);
			break;
		case 5:
			if (vfs_lookup(f->v, dir, a, &e) == 0) {
				if (vfs_link(f->v, e.ino, dir, b, &e) == 0)
					vfs_forget(f->v, e.ino, 1);
				vfs_forget(f->v, e.ino, 1);
			}
			break;
		}
	}
	return NULL;
}

/* A store whose close can report an error: the FLUSH of each close is
 * asked for only where vfs_flush could return one (fsops sets
 * FOPEN_NOFLUSH from vfs_file_noflush). */
static int nf_calls, nf_needed;

static int nf_flush(void *ctx, uint64_t ino)
{
	(void)ctx;
	(void)ino;
	nf_calls++;
	return -ENOSPC;
}

static int nf_flush_needed(void *ctx)
{
	(void)ctx;
	return nf_needed;
}

static void test_noflush(void **state)
{
	struct fixture *f = *state;
	static struct vfs_data_ops ops; /* outlives the test: teardown */
	struct vfs_entry e;
	vfs_file *w, *r;

	ops = fake_ops;
	ops.flush = nf_flush;
	nf_calls = 0;
	vfs_free(f->v);
	assert_int_equal(vfs_new(f->m, &ops, NULL, NULL, &f->v), 0);
	assert_int_equal(vfs_create(f->v, &f->cred, 1, "f", 0644,
				    O_CREAT | O_RDWR, &e, &w), 0);
	assert_int_equal(vfs_open(f->v, e.ino, O_RDONLY, &r), 0);
	/* written through a store that reports at close: asked */
	assert_int_equal(vfs_file_noflush(f->v, w), 0);
	assert_int_equal(vfs_flush(f->v, w), -ENOSPC);
	assert_int_equal(nf_calls, 1);
	/* a read-only open has nothing to report */
	assert_int_equal(vfs_file_noflush(f->v, r), 1);
	assert_int_equal(vfs_flush(f->v, r), 0);
	assert_int_equal(nf_calls, 1);
	/* a store that says it writes through is not asked */
	ops.flush_needed = nf_flush_needed;
	nf_needed = 0;
	assert_int_equal(vfs_file_noflush(f->v, w), 1);
	assert_int_equal(vfs_flush(f->v, w), 0);
	assert_int_equal(nf_calls, 1);
	nf_needed = 1;
	assert_int_equal(vfs_file_noflush(f->v, w), 0);
	assert_int_equal(vfs_flush(f->v, w), -ENOSPC);
	assert_int_equal(nf_calls, 2);
	/* without any flush op nothing is asked */
	ops.flush = NULL;
	assert_int_equal(vfs_file_noflush(f->v, w), 1);
	assert_int_equal(vfs_release(f->v, w), 0);
	assert_int_equal(vfs_release(f->v, r), 0);
	assert_int_equal(nf_calls, 2);
}

static void test_concurrent_namespace(void **state)
{
	struct fixture *f = *state;
	pthread_t th[4];
	struct worker w[4];
	uint64_t lookups;

	/* the second directory gets the first number */
	assert_int_equal(mkdir_(f, 1, "dir2"), MDS_FIRST_INO);
	for (int i = 0; i < 4; i++) {
		w[i].f = f;
		w[i].id = i + 1;
		pthread_create(&th[i], NULL, worker_fn, &w[i]);
	}
	for (int i = 0; i < 4; i++)
		pthread_join(th[i], NULL);
	vfs_counts(f->v, NULL, &lookups);
	assert_int_equal(lookups, 0);
	check_consistent(f);
	/* the two dirs may have swapped places or moved into each other via
	 * renames; cleaning up is not needed for the checks */
}

#define BOTH(t)                                                    \
	{ #t "/mem", t, setup_mem, teardown, NULL },               \
	{ #t "/rocksdb", t, setup_rocks, teardown, NULL }

int main(void)
{
	const struct CMUnitTest tests[] = {
		BOTH(test_root),
		BOTH(test_create_lookup_counts),
		BOTH(test_name_errors),
		BOTH(test_mkdir_rmdir),
		BOTH(test_removed_dir_refuses_entries),
		BOTH(test_mknod_symlink),
		BOTH(test_hard_links),
		BOTH(test_rename_basic),
		BOTH(test_rename_noreplace_exchange),
		BOTH(test_rename_dirs),
		BOTH(test_rename_hardlinks_same_inode),
		BOTH(test_read_write_sparse_big),
		BOTH(test_append_and_trunc),
		BOTH(test_setattr),
		BOTH(test_setattr_times_written_back),
		BOTH(test_max_file_size),
		BOTH(test_unlinked_open_file),
		BOTH(test_unmount_closes_unreleased_handles),
		BOTH(test_crash_leaves_orphan_purged_at_mount),
		BOTH(test_enospc_partial),
		BOTH(test_readdir),
		BOTH(test_unlink_window_no_resurrection),
		BOTH(test_unlink_commits_nlink0),
		BOTH(test_ceph_layouts),
		BOTH(test_layout_follows_moves),
		BOTH(test_xattrs),
		BOTH(test_virtual_xattrs),
		BOTH(test_layout_bounds),
		BOTH(test_statfs_access),
		BOTH(test_setgid_dir),
		BOTH(test_killpriv),
		BOTH(test_readonly),
		BOTH(test_lazy_size_persist),
		BOTH(test_crash_recovers_size),
		BOTH(test_concurrent_extend),
		BOTH(test_readonly_view_keeps_range),
		BOTH(test_max_size_steps),
		BOTH(test_crash_sparse_probe_bounded),
		BOTH(test_crash_probe_fails),
		BOTH(test_crash_with_prealloc),
		BOTH(test_truncate_up_clears_past_end),
		BOTH(test_relatime),
		BOTH(test_resolve_and_persistence),
		BOTH(test_concurrent_namespace),
		BOTH(test_noflush),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
