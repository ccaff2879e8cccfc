/*
 * test_vfs_posix.c - the POSIX additions of issue 8 in vfs, without a
 * kernel, on both metadata engines with the fake data store: fallocate in
 * every mode FUSE passes (sizes, errors, ENOSPC changing nothing, the
 * preallocated end that delete and truncate must reach, and its
 * persistence), POSIX ACLs kept consistent with the mode (set, chmod,
 * inheritance, umask, validation, setgid), and the inode count statfs
 * reports.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>
#include <cmocka.h>

#include "fake_data.h"
#include "kv.h"
#include "mds.h"
#include "util.h"
#include "vfs.h"

#define MB (1024 * 1024)
#define ACL_ACCESS_NAME "system.posix_acl_access"
#define ACL_DEFAULT_NAME "system.posix_acl_default"

struct fixture {
	int rocks;
	char dir[64];
	kv *db;
	mds *m;
	vfs *v;
	struct vfs_cred cred;
};

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
		strcpy(f->dir, "/tmp/test_vfs_posix.XXXXXX");
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

static int teardown(void **state)
{
	struct fixture *f = *state;
	uint64_t stored, actual;

	if (f->v)
		close_vfs(f);
	/* after the unmount's purges: the stored count is the records' */
	assert_int_equal(mds_open(f->db, "test-fsid", &f->m), 0);
	assert_int_equal(mds_recount_inodes(f->m, 0, &stored, &actual), 0);
	assert_int_equal(stored, actual);
	mds_close(f->m);
	kv_close(f->db);
	if (f->rocks)
		cfs_rmtree(f->dir);
	fake_reset();
	free(f);
	return 0;
}

static uint64_t mkfile(struct fixture *f, uint64_t dir, const char *name,
		       mode_t mode)
{
	struct vfs_entry e;
	vfs_file *fh;

	assert_int_equal(vfs_create(f->v, &f->cred, dir, name, mode, O_RDWR,
				    &e, &fh),
			 0);
	assert_int_equal(vfs_release(f->v, fh), 0);
	vfs_forget(f->v, e.ino, 1);
	return e.ino;
}

static uint32_t mode_of(struct fixture *f, uint64_t ino)
{
	struct stat st;

	assert_int_equal(vfs_getattr(f->v, ino, &st), 0);
	return st.st_mode & 07777;
}

static uint64_t size_of(struct fixture *f, uint64_t ino)
{
	struct stat st;

	assert_int_equal(vfs_getattr(f->v, ino, &st), 0);
	return (uint64_t)st.st_size;
}

static uint32_t flags_of(struct fixture *f, uint64_t ino)
{
	struct mds_inode r;

	assert_int_equal(vfs_stat_inode(f->v, ino, &r), 0);
	return r.flags;
}

/* ---- fallocate ---- */

static void test_falloc_modes(void **state)
{
	struct fixture *f = *state;
	uint64_t a = mkfile(f, 1, "a", 0644);
	vfs_file *fh, *ro;
	char buf[200];

	assert_int_equal(vfs_open(f->v, a, O_RDWR, &fh), 0);
	memset(buf, 'x', sizeof(buf));
	assert_int_equal(vfs_write(f->v, NULL, fh, 0, buf, 100), 100);
	/* mode 0: allocated and grown */
	assert_int_equal(vfs_fallocate(f->v, NULL, fh, 0, 50, MB), 0);
	assert_int_equal(fake.last_falloc_mode, OL_FALLOC_ALLOCATE);
	assert_int_equal(size_of(f, a), 50 + MB);
	/* never shrinks */
	assert_int_equal(vfs_fallocate(f->v, NULL, fh, 0, 0, 10), 0);
	assert_int_equal(size_of(f, a), 50 + MB);
	/* KEEP_SIZE: allocated past the end, the size stays */
	assert_int_equal(vfs_fallocate(f->v, NULL, fh, FALLOC_FL_KEEP_SIZE, 0,
				       8 * MB),
			 0);
	assert_int_equal(size_of(f, a), 50 + MB);
	assert_true(flags_of(f, a) & MDS_F_PREALLOC);
	/* PUNCH_HOLE|KEEP_SIZE: zeros, size kept */
	assert_int_equal(vfs_fallocate(f->v, NULL, fh,
				       FALLOC_FL_PUNCH_HOLE |
					       FALLOC_FL_KEEP_SIZE,
				       10, 20),
			 0);
	assert_int_equal(fake.last_falloc_mode, OL_FALLOC_PUNCH);
	assert_int_equal(vfs_read(f->v, fh, 0, buf, 100), 100);
	for (int i = 0; i < 100; i++)
		assert_int_equal(buf[i], i >= 10 && i < 30 ? 0 : 'x');
	/* a punch reaches only as far as data may be (the preallocated
	 * end), however long it is asked to be */
	assert_int_equal(vfs_fallocate(f->v, NULL, fh,
				       FALLOC_FL_PUNCH_HOLE |
					       FALLOC_FL_KEEP_SIZE,
				       MB, 1ULL << 50),
			 0);
	assert_int_equal(fake.last_falloc_off, MB);
	assert_int_equal(fake.last_falloc_len, 7 * MB);
	/* ZERO_RANGE: grows; with KEEP_SIZE it does not */
	assert_int_equal(vfs_fallocate(f->v, NULL, fh, FALLOC_FL_ZERO_RANGE,
				       0, 2 * MB),
			 0);
	assert_int_equal(fake.last_falloc_mode, OL_FALLOC_ZERO);
	assert_int_equal(size_of(f, a), 2 * MB);
	assert_int_equal(vfs_read(f->v, fh, 0, buf, 100), 100);
	for (int i = 0; i < 100; i++)
		assert_int_equal(buf[i], 0);
	assert_int_equal(vfs_fallocate(f->v, NULL, fh,
				       FALLOC_FL_ZERO_RANGE |
					       FALLOC_FL_KEEP_SIZE,
				       0, 3 * MB),
			 0);
	assert_int_equal(size_of(f, a), 2 * MB);
	/* what FUSE never passes, or Linux refuses */
	assert_int_equal(vfs_fallocate(f->v, NULL, fh, FALLOC_FL_PUNCH_HOLE, 0,
				       10),
			 -EOPNOTSUPP);
	assert_int_equal(vfs_fallocate(f->v, NULL, fh,
				       FALLOC_FL_COLLAPSE_RANGE, 0, 4096),
			 -EOPNOTSUPP);
	assert_int_equal(vfs_fallocate(f->v, NULL, fh,
				       FALLOC_FL_INSERT_RANGE, 0, 4096),
			 -EOPNOTSUPP);
	assert_int_equal(vfs_fallocate(f->v, NULL, fh, 0, 0, 0), -EINVAL);
	assert_int_equal(vfs_fallocate(f->v, NULL, fh, 0, INT64_MAX, 2),
			 -EFBIG);
	assert_int_equal(vfs_open(f->v, a, O_RDONLY, &ro), 0);
	assert_int_equal(vfs_fallocate(f->v, NULL, ro, 0, 0, 10), -EBADF);
	assert_int_equal(vfs_release(f->v, ro), 0);
	/* ENOSPC: nothing changes, the size included */
	fake.budget = 1000;
	assert_int_equal(vfs_fallocate(f->v, NULL, fh, 0, 2 * MB, MB),
			 -ENOSPC);
	assert_int_equal(size_of(f, a), 2 * MB);
	fake.budget = UINT64_MAX;
	/* more than the pool can have past the data's end: refused before
	 * anything is recorded or written */
	{
		int calls = fake.fallocs;
		uint64_t b = mkfile(f, 1, "b", 0644);
		vfs_file *bh;

		fake.space_avail = MB;
		assert_int_equal(vfs_open(f->v, b, O_RDWR, &bh), 0);
		assert_int_equal(vfs_fallocate(f->v, NULL, bh,
					       FALLOC_FL_KEEP_SIZE, 0,
					       1ULL << 60),
				 -ENOSPC);
		assert_int_equal(vfs_fallocate(f->v, NULL, bh, 0, MB / 2,
					       MB + 1),
				 -ENOSPC);
		assert_int_equal(fake.fallocs, calls);
		assert_false(flags_of(f, b) & MDS_F_PREALLOC);
		assert_int_equal(vfs_fallocate(f->v, NULL, bh, 0, 0, MB), 0);
		assert_int_equal(size_of(f, b), MB);
		assert_int_equal(vfs_release(f->v, bh), 0);
		fake.space_avail = UINT64_MAX;
	}
	assert_int_equal(vfs_release(f->v, fh), 0);
	/* all of it survives a remount */
	close_vfs(f);
	open_vfs(f);
	assert_int_equal(size_of(f, a), 2 * MB);
	assert_true(flags_of(f, a) & MDS_F_PREALLOC);
}

/* Objects past the size reach delete and truncate; a truncate to the
 * size or below drops the preallocation, a truncate up keeps it. */
static void test_falloc_prealloc_end(void **state)
{
	struct fixture *f = *state;
	uint64_t a = mkfile(f, 1, "a", 0644), b = mkfile(f, 1, "b", 0644);
	struct stat st;
	vfs_file *fh;

	assert_int_equal(vfs_open(f->v, a, O_RDWR, &fh), 0);
	assert_int_equal(vfs_write(f->v, NULL, fh, 0, "hello", 5), 5);
	assert_int_equal(vfs_fallocate(f->v, NULL, fh, FALLOC_FL_KEEP_SIZE, 0,
				       8 * MB),
			 0);
	assert_int_equal(vfs_release(f->v, fh), 0);
	/* truncate up: kept, nothing trimmed from the preallocated end */
	memset(&st, 0, sizeof(st));
	st.st_size = MB;
	assert_int_equal(vfs_setattr(f->v, NULL, a, &st, VFS_SET_SIZE, NULL),
			 0);
	/* (objects are cut only past the preallocated end, where bytes
	 * could be stale) */
	assert_int_equal(fake.last_trunc_old, 8 * MB);
	assert_int_equal(fake.last_trunc_new, 8 * MB);
	assert_true(flags_of(f, a) & MDS_F_PREALLOC);
	/* truncate down: trimmed from the preallocated end, dropped */
	st.st_size = 3;
	assert_int_equal(vfs_setattr(f->v, NULL, a, &st, VFS_SET_SIZE, NULL),
			 0);
	assert_int_equal(fake.last_trunc_old, 8 * MB);
	assert_int_equal(fake.last_trunc_new, 3);
	assert_false(flags_of(f, a) & MDS_F_PREALLOC);
	assert_int_equal(size_of(f, a), 3);

	/* delete: the objects go up to the preallocated end */
	assert_int_equal(vfs_open(f->v, b, O_RDWR, &fh), 0);
	assert_int_equal(vfs_fallocate(f->v, NULL, fh,
				       FALLOC_FL_ZERO_RANGE |
					       FALLOC_FL_KEEP_SIZE,
				       MB, 5 * MB),
			 0);
	assert_int_equal(vfs_release(f->v, fh), 0);
	close_vfs(f); /* the record is what counts */
	open_vfs(f);
	assert_int_equal(vfs_unlink(f->v, 1, "b"), 0);
	vfs_purge_drain(f->v);
	assert_int_equal(fake.last_removed_ino, b);
	assert_int_equal(fake.last_removed_size, 6 * MB);
	assert_int_equal(fake_chunks(b), 0);
	/* layouts: a file with preallocated objects has data */
	{
		uint64_t c = mkfile(f, 1, "c", 0644);
		const char *lay = "stripe_unit=1048576 stripe_count=1 "
				  "object_size=1048576";

		assert_int_equal(vfs_open(f->v, c, O_RDWR, &fh), 0);
		assert_int_equal(vfs_fallocate(f->v, NULL, fh,
					       FALLOC_FL_KEEP_SIZE, 0, 10),
				 0);
		assert_int_equal(vfs_release(f->v, fh), 0);
		assert_int_equal(vfs_setxattr(f->v, c, "crushfs.layout", lay,
					      strlen(lay), 0),
				 -ENOTEMPTY);
	}
}

/* An unprivileged fallocate clears setuid/setgid, as a write does. */
static void test_falloc_killpriv(void **state)
{
	struct fixture *f = *state;
	uint64_t a = mkfile(f, 1, "a", 06755);
	vfs_file *fh;

	assert_int_equal(mode_of(f, a), 06755);
	assert_int_equal(vfs_open(f->v, a, O_RDWR, &fh), 0);
	assert_int_equal(vfs_fallocate(f->v, &f->cred, fh, 0, 0, 4096), 0);
	assert_int_equal(mode_of(f, a), 0755);
	assert_int_equal(vfs_file_attr_changed(fh), 1);
	assert_int_equal(vfs_release(f->v, fh), 0);
}

/* ---- POSIX ACLs ---- */

#define T_UOBJ 0x01
#define T_USER 0x02
#define T_GOBJ 0x04
#define T_GROUP 0x08
#define T_MASK 0x10
#define T_OTHER 0x20

/* An xattr value: n entries of (tag, perm, id). */
static size_t acl(unsigned char *buf, int n, const unsigned *e)
{
	buf[0] = 2;
	buf[1] = buf[2] = buf[3] = 0;
	for (int i = 0; i < n; i++) {
		unsigned char *p = buf + 4 + 8 * i;
		uint32_t id = e[3 * i + 2];

		p[0] = (unsigned char)e[3 * i];
		p[1] = 0;
		p[2] = (unsigned char)e[3 * i + 1];
		p[3] = 0;
		for (int k = 0; k < 4; k++)
			p[4 + k] = (unsigned char)(id >> (8 * k));
	}
	return 4 + 8 * (size_t)n;
}

/* perm of the first entry with tag in a stored ACL */
static int acl_perm(struct fixture *f, uint64_t ino, const char *name,
		    unsigned tag)
{
	unsigned char buf[256];
	ssize_t n = vfs_getxattr(f->v, ino, name, buf, sizeof(buf));

	assert_true(n >= 4);
	for (ssize_t i = 4; i + 8 <= n; i += 8)
		if (buf[i] == tag)
			return buf[i + 2];
	return -1;
}

static void test_acl_access(void **state)
{
	struct fixture *f = *state;
	uint64_t a = mkfile(f, 1, "a", 0600);
	unsigned char v[128];
	struct stat st;
	size_t n;
	const unsigned named[] = { T_UOBJ, 6, 0,    T_USER, 6, 65534,
				   T_GOBJ, 4, 0,    T_GROUP, 4, 1,
				   T_MASK, 6, 0,    T_OTHER, 0, 0 };
	const unsigned minimal[] = { T_UOBJ, 7, 0, T_GOBJ, 5, 0,
				     T_OTHER, 4, 0 };
	const unsigned bad_order[] = { T_GOBJ, 5, 0, T_UOBJ, 7, 0,
				       T_OTHER, 4, 0 };
	const unsigned no_mask[] = { T_UOBJ, 7, 0, T_USER, 7, 5,
				     T_GOBJ, 5, 0, T_OTHER, 4, 0 };

	/* named entries: stored, the mode's group bits are the mask */
	n = acl(v, 6, named);
	assert_int_equal(vfs_setxattr(f->v, a, ACL_ACCESS_NAME, v, n, 0), 0);
	assert_int_equal(mode_of(f, a), 0660);
	assert_int_equal(vfs_getxattr(f->v, a, ACL_ACCESS_NAME, NULL, 0),
			 (ssize_t)n);
	/* chmod rewrites USER_OBJ, MASK and OTHER; named entries stay */
	memset(&st, 0, sizeof(st));
	st.st_mode = 0754;
	assert_int_equal(vfs_setattr(f->v, NULL, a, &st, VFS_SET_MODE, NULL),
			 0);
	assert_int_equal(acl_perm(f, a, ACL_ACCESS_NAME, T_UOBJ), 7);
	assert_int_equal(acl_perm(f, a, ACL_ACCESS_NAME, T_MASK), 5);
	assert_int_equal(acl_perm(f, a, ACL_ACCESS_NAME, T_OTHER), 4);
	assert_int_equal(acl_perm(f, a, ACL_ACCESS_NAME, T_USER), 6);
	assert_int_equal(acl_perm(f, a, ACL_ACCESS_NAME, T_GOBJ), 4);
	/* a minimal ACL is the mode: set, not stored (the old one goes) */
	n = acl(v, 3, minimal);
	assert_int_equal(vfs_setxattr(f->v, a, ACL_ACCESS_NAME, v, n, 0), 0);
	assert_int_equal(mode_of(f, a), 0754);
	assert_int_equal(vfs_getxattr(f->v, a, ACL_ACCESS_NAME, NULL, 0),
			 -ENODATA);
	/* invalid ACLs */
	n = acl(v, 3, bad_order);
	assert_int_equal(vfs_setxattr(f->v, a, ACL_ACCESS_NAME, v, n, 0),
			 -EINVAL);
	n = acl(v, 4, no_mask);
	assert_int_equal(vfs_setxattr(f->v, a, ACL_ACCESS_NAME, v, n, 0),
			 -EINVAL);
	assert_int_equal(vfs_setxattr(f->v, a, ACL_ACCESS_NAME, "xyz", 3, 0),
			 -EINVAL);
	/* default ACLs only on directories */
	n = acl(v, 3, minimal);
	assert_int_equal(vfs_setxattr(f->v, a, ACL_DEFAULT_NAME, v, n, 0),
			 -EACCES);
	/* remove: the mode stays */
	n = acl(v, 6, named);
	assert_int_equal(vfs_setxattr(f->v, a, ACL_ACCESS_NAME, v, n, 0), 0);
	assert_int_equal(mode_of(f, a), 0660); /* u::rw mask::rw o::- */
	assert_int_equal(vfs_removexattr(f->v, a, ACL_ACCESS_NAME), 0);
	assert_int_equal(mode_of(f, a), 0660);
	assert_int_equal(vfs_removexattr(f->v, a, ACL_ACCESS_NAME), -ENODATA);
	/* setgid: kept for group members and root, dropped for others */
	memset(&st, 0, sizeof(st));
	st.st_mode = 02770;
	assert_int_equal(vfs_setattr(f->v, NULL, a, &st, VFS_SET_MODE, NULL),
			 0);
	n = acl(v, 6, named);
	assert_int_equal(vfs_setxattr_as(f->v, &f->cred, a, ACL_ACCESS_NAME, v,
					 n, 0),
			 0);
	assert_int_equal(mode_of(f, a), 02660); /* gid 1000: a member */
	{
		struct vfs_cred other = { 2000, 2000, 0, NULL, 0 };

		assert_int_equal(vfs_setxattr_as(f->v, &other, a,
						 ACL_ACCESS_NAME, v, n, 0),
				 0);
		assert_int_equal(mode_of(f, a), 0660);
	}
	/* all of it persists */
	close_vfs(f);
	open_vfs(f);
	assert_int_equal(acl_perm(f, a, ACL_ACCESS_NAME, T_USER), 6);
	assert_int_equal(mode_of(f, a), 0660);
}

static void test_acl_inherit(void **state)
{
	struct fixture *f = *state;
	struct vfs_entry e;
	unsigned char v[128];
	size_t n;
	uint64_t d, file, sub, plain;
	const unsigned def[] = { T_UOBJ, 7, 0,	T_USER, 7, 65534,
				 T_GOBJ, 5, 0,	T_MASK, 7, 0,
				 T_OTHER, 0, 0 };
	const unsigned def_min[] = { T_UOBJ, 6, 0, T_GOBJ, 4, 0,
				     T_OTHER, 0, 0 };

	assert_int_equal(vfs_mkdir(f->v, &f->cred, 1, "d", 0777, &e), 0);
	vfs_forget(f->v, e.ino, 1);
	d = e.ino;
	n = acl(v, 5, def);
	assert_int_equal(vfs_setxattr(f->v, d, ACL_DEFAULT_NAME, v, n, 0), 0);
	/* the umask is ignored under a default ACL; the mode asked for masks
	 * the inherited entries */
	f->cred.umask = 077;
	file = mkfile(f, d, "file", 0640);
	assert_int_equal(mode_of(f, file), 0640);
	assert_int_equal(acl_perm(f, file, ACL_ACCESS_NAME, T_USER), 7);
	assert_int_equal(acl_perm(f, file, ACL_ACCESS_NAME, T_MASK), 4);
	assert_int_equal(acl_perm(f, file, ACL_ACCESS_NAME, T_UOBJ), 6);
	assert_int_equal(acl_perm(f, file, ACL_ACCESS_NAME, T_OTHER), 0);
	assert_int_equal(vfs_getxattr(f->v, file, ACL_DEFAULT_NAME, NULL, 0),
			 -ENODATA);
	/* a subdirectory inherits the default ACL itself too */
	assert_int_equal(vfs_mkdir(f->v, &f->cred, d, "sub", 0777, &e), 0);
	vfs_forget(f->v, e.ino, 1);
	sub = e.ino;
	assert_int_equal(mode_of(f, sub), 0770);
	assert_int_equal(vfs_getxattr(f->v, sub, ACL_DEFAULT_NAME, NULL, 0),
			 (ssize_t)n);
	assert_int_equal(acl_perm(f, sub, ACL_ACCESS_NAME, T_MASK), 7);
	/* symlinks get nothing */
	assert_int_equal(vfs_symlink(f->v, &f->cred, "t", d, "ln", &e), 0);
	vfs_forget(f->v, e.ino, 1);
	assert_int_equal(mode_of(f, e.ino), 0777);
	/* a minimal default ACL: the mode, nothing stored */
	n = acl(v, 3, def_min);
	assert_int_equal(vfs_setxattr(f->v, sub, ACL_DEFAULT_NAME, v, n, 0), 0);
	file = mkfile(f, sub, "m", 0666);
	assert_int_equal(mode_of(f, file), 0640);
	assert_int_equal(vfs_getxattr(f->v, file, ACL_ACCESS_NAME, NULL, 0),
			 -ENODATA);
	/* no default ACL: the umask */
	f->cred.umask = 027;
	plain = mkfile(f, 1, "plain", 0666);
	assert_int_equal(mode_of(f, plain), 0640);
	assert_int_equal(vfs_mkdir(f->v, &f->cred, 1, "pd", 0777, &e), 0);
	vfs_forget(f->v, e.ino, 1);
	assert_int_equal(mode_of(f, e.ino), 0750);
	/* removing the default ACL stops the inheritance */
	assert_int_equal(vfs_removexattr(f->v, d, ACL_DEFAULT_NAME), 0);
	file = mkfile(f, d, "after", 0666);
	assert_int_equal(mode_of(f, file), 0640);
	assert_int_equal(vfs_getxattr(f->v, file, ACL_ACCESS_NAME, NULL, 0),
			 -ENODATA);
}

/* ---- statfs: the inode count ---- */

static uint64_t used_inodes(struct fixture *f)
{
	struct statvfs sv;

	assert_int_equal(vfs_statfs(f->v, &sv), 0);
	assert_true(sv.f_files >= sv.f_ffree);
	assert_int_equal(sv.f_favail, sv.f_ffree);
	return sv.f_files - sv.f_ffree;
}

static void test_inode_count(void **state)
{
	struct fixture *f = *state;
	struct vfs_entry e;
	vfs_file *fh;

	assert_int_equal(used_inodes(f), 1); /* the root */
	mkfile(f, 1, "a", 0644);
	mkfile(f, 1, "b", 0644);
	assert_int_equal(vfs_mkdir(f->v, &f->cred, 1, "d", 0755, &e), 0);
	vfs_forget(f->v, e.ino, 1);
	assert_int_equal(vfs_symlink(f->v, &f->cred, "a", 1, "s", &e), 0);
	vfs_forget(f->v, e.ino, 1);
	assert_int_equal(vfs_link(f->v, e.ino, 1, "s2", &e), 0);
	vfs_forget(f->v, e.ino, 1);
	assert_int_equal(used_inodes(f), 5);
	/* an unlinked file open somewhere still counts, until its close */
	{
		struct vfs_entry ea;

		assert_int_equal(vfs_lookup(f->v, 1, "a", &ea), 0);
		assert_int_equal(vfs_open(f->v, ea.ino, O_RDONLY, &fh), 0);
		assert_int_equal(vfs_unlink(f->v, 1, "a"), 0);
		assert_int_equal(used_inodes(f), 5);
		assert_int_equal(vfs_release(f->v, fh), 0);
		vfs_forget(f->v, ea.ino, 1);
		/* counted until purged (as CephFS's rstats count strays) */
		vfs_purge_drain(f->v);
		assert_int_equal(vfs_flush_all(f->v, 0), 0);
		assert_int_equal(used_inodes(f), 4);
	}
	assert_int_equal(vfs_unlink(f->v, 1, "s"), 0);
	assert_int_equal(used_inodes(f), 4); /* s2 still names it */
	assert_int_equal(vfs_unlink(f->v, 1, "s2"), 0);
	assert_int_equal(vfs_rmdir(f->v, 1, "d"), 0);
	vfs_purge_drain(f->v);
	assert_int_equal(vfs_flush_all(f->v, 0), 0);
	assert_int_equal(used_inodes(f), 2);
	/* persisted with the records */
	close_vfs(f);
	open_vfs(f);
	assert_int_equal(used_inodes(f), 2);
}

/* A store from before the counter is counted once at open. */
static void test_inode_count_upgrade(void **state)
{
	struct fixture *f = *state;
	uint64_t stored, actual;

	mkfile(f, 1, "a", 0644);
	mkfile(f, 1, "b", 0644);
	close_vfs(f);
	assert_int_equal(kv_delete(f->db, "Cinodes", 7), 0);
	open_vfs(f);
	assert_int_equal(used_inodes(f), 3);
	mkfile(f, 1, "c", 0644); /* the next counted commit stores it */
	assert_int_equal(mds_recount_inodes(f->m, 0, &stored, &actual), 0);
	assert_int_equal(stored, 4);
	assert_int_equal(actual, 4);
	/* a drifted count: found and fixed */
	{
		unsigned char v[8] = { 99 };

		assert_int_equal(kv_put(f->db, "Cinodes", 7, v, 8), 0);
	}
	assert_int_equal(mds_recount_inodes(f->m, 1, &stored, &actual), 0);
	assert_int_equal(stored, 99);
	assert_int_equal(actual, 4);
	assert_int_equal(used_inodes(f), 4);
	assert_int_equal(mds_recount_inodes(f->m, 0, &stored, &actual), 0);
	assert_int_equal(stored, 4);
}

/* Without SELinux on the host, security.selinux of an inode that never
 * had an xattr is "not supported" (ls -l then stops asking); a label
 * stored all the same reads back, and any inode with xattrs answers as
 * always.  The daemon leaves no_selinux off on an SELinux host. */
static void test_selinux_label(void **state)
{
	struct fixture *f = *state;
	struct vfs_opts o = { .no_selinux = 1 };
	const char *sel = "security.selinux";
	uint64_t a, b, c;
	char buf[64];

	a = mkfile(f, 1, "a", 0644);
	b = mkfile(f, 1, "b", 0644);
	c = mkfile(f, 1, "c", 0644);
	/* off (the default): no data */
	assert_int_equal(vfs_getxattr(f->v, a, sel, NULL, 0), -ENODATA);
	vfs_free(f->v);
	assert_int_equal(vfs_new(f->m, &fake_ops, NULL, &o, &f->v), 0);
	assert_int_equal(vfs_getxattr(f->v, a, sel, NULL, 0), -EOPNOTSUPP);
	assert_int_equal(vfs_getxattr(f->v, a, sel, buf, sizeof(buf)),
			 -EOPNOTSUPP);
	/* only that name: the others are absent, as before */
	assert_int_equal(vfs_getxattr(f->v, a, "security.capability", NULL, 0),
			 -ENODATA);
	assert_int_equal(vfs_getxattr(f->v, a, ACL_ACCESS_NAME, NULL, 0),
			 -ENODATA);
	assert_int_equal(vfs_getxattr(f->v, a, "user.x", NULL, 0), -ENODATA);
	/* a label is stored and read back */
	assert_int_equal(vfs_setxattr(f->v, b, sel, "u:r:t:s0", 9, 0), 0);
	assert_int_equal(vfs_getxattr(f->v, b, sel, buf, sizeof(buf)), 9);
	assert_string_equal(buf, "u:r:t:s0");
	assert_int_equal(vfs_listxattr(f->v, b, buf, sizeof(buf)), 17);
	assert_int_equal(vfs_removexattr(f->v, b, sel), 0);
	assert_int_equal(vfs_getxattr(f->v, b, sel, NULL, 0), -ENODATA);
	/* an inode with another xattr: no data */
	assert_int_equal(vfs_setxattr(f->v, c, "user.x", "1", 1, 0), 0);
	assert_int_equal(vfs_getxattr(f->v, c, sel, NULL, 0), -ENODATA);
	assert_int_equal(vfs_setxattr(f->v, c, sel, "l", 1, XATTR_REPLACE),
			 -ENODATA);
	assert_int_equal(vfs_setxattr(f->v, a, sel, "l", 1, XATTR_REPLACE),
			 -ENODATA);
	assert_int_equal(vfs_removexattr(f->v, a, sel), -ENODATA);
}

#define BOTH(t)                                                    \
	{ #t "/mem", t, setup_mem, teardown, NULL },               \
	{ #t "/rocksdb", t, setup_rocks, teardown, NULL }

int main(void)
{
	const struct CMUnitTest tests[] = {
		BOTH(test_falloc_modes),
		BOTH(test_falloc_prealloc_end),
		BOTH(test_falloc_killpriv),
		BOTH(test_acl_access),
		BOTH(test_acl_inherit),
		BOTH(test_inode_count),
		BOTH(test_inode_count_upgrade),
		BOTH(test_selinux_label),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
