/*
 * test_fs_cluster.c - vfs.c on the real object layer of a small temporary
 * cluster (6 OSDs, 3 hosts, size 2, 1 MiB objects), and fs_fsck against
 * damage made by hand: objects of no file, objects past the end of a file,
 * a missing and a differing replica, a dangling entry, a wrong link
 * count, an inode without a name, a leftover orphan.  Objects of no
 * inode are adopted by /lost+found, never deleted.
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
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "fs.h"
#include "kv.h"
#include "mds.h"
#include "objlayer.h"
#include "osdsim.h"
#include "util.h"
#include "vfs.h"

#define DATA_POOL 1 /* the pool mkfs makes */

struct fixture {
	char dir[64], mdsdir[96];
	cfs_cluster *c;
	objlayer *ol;
	kv *db;
	mds *m;
	vfs *v;
	struct vfs_cred cred;
};

static void quiet(int level, const char *msg)
{
	(void)level, (void)msg;
}

static void open_fs(struct fixture *f)
{
	char err[256];

	assert_int_equal(cfs_cluster_open(f->dir, 0, &f->c, err, sizeof(err)),
			 0);
	assert_int_equal(ol_open(f->c, &f->ol), 0);
	assert_int_equal(kv_open_rocksdb(f->mdsdir, 1, &f->db), 0);
	if (mds_open(f->db, NULL, &f->m) == -ENOENT) {
		const cfs_osdmap *m = cfs_osdmap_get(f->c);

		assert_int_equal(mds_format(f->db, cfs_osdmap_fsid(m), 0, 0), 0);
		cfs_osdmap_put(m);
		assert_int_equal(mds_open(f->db, NULL, &f->m), 0);
	}
	assert_int_equal(vfs_new(f->m, &vfs_objlayer_ops, f->ol, NULL, &f->v),
			 0);
}

static void close_fs(struct fixture *f)
{
	vfs_free(f->v);
	mds_close(f->m);
	kv_close(f->db);
	ol_close(f->ol);
	cfs_cluster_close(f->c);
	f->v = NULL;
	f->c = NULL;
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct cfs_mkfs_opts o;
	char err[256];

	cfs_log_set(quiet, CFS_LOG_ERR);
	strcpy(f->dir, "/tmp/test_fs_cluster.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	rmdir(f->dir); /* mkfs makes it */
	cfs_mkfs_opts_init(&o);
	o.nosds = 6;
	o.nhosts = 3;
	o.osd_size = 256 << 20;
	o.osd_size_set = 1;
	o.size = 2;
	o.min_size = 1;
	o.pg_num = 16;
	o.object_size = 1 << 20;
	assert_int_equal(cfs_mkfs(f->dir, &o, err, sizeof(err)), 0);
	snprintf(f->mdsdir, sizeof(f->mdsdir), "%s/mds", f->dir);
	open_fs(f);
	f->cred.uid = f->cred.gid = 0;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	if (f->c)
		close_fs(f);
	cfs_rmtree(f->dir);
	free(f);
	return 0;
}

static int count_cb(const char *name, void *arg)
{
	(void)name;
	(*(int *)arg)++;
	return 0;
}

static int objects(struct fixture *f)
{
	int n = 0;

	assert_int_equal(ol_obj_list(f->ol, DATA_POOL, count_cb, &n), 0);
	return n;
}

static uint64_t create(struct fixture *f, uint64_t dir, const char *name,
		       const void *buf, size_t len, uint64_t off)
{
	struct vfs_entry e;
	vfs_file *fh;

	assert_int_equal(vfs_create(f->v, &f->cred, dir, name, 0644, O_RDWR,
				    &e, &fh), 0);
	/* the local store writes through: no FLUSH at each close */
	assert_int_equal(vfs_file_noflush(f->v, fh), 1);
	if (len)
		assert_int_equal(vfs_write(f->v, NULL, fh, off, buf, len),
				 (ssize_t)len);
	assert_int_equal(vfs_release(f->v, fh), 0);
	vfs_forget(f->v, e.ino, 1);
	return e.ino;
}

static void test_data_path(void **state)
{
	struct fixture *f = *state;
	size_t n = 3500000;
	char *buf = malloc(n), *back = malloc(n);
	struct stat st;
	vfs_file *fh;
	uint64_t ino;

	for (size_t i = 0; i < n; i++)
		buf[i] = (char)(i * 31 + 7);
	ino = create(f, 1, "file", buf, n, 0);
	assert_int_equal(objects(f), 4); /* 1 MiB objects */
	assert_int_equal(vfs_open(f->v, ino, O_RDWR, &fh), 0);
	memset(back, 0, n);
	assert_int_equal(vfs_read(f->v, fh, 0, back, n), (ssize_t)n);
	assert_memory_equal(buf, back, n);
	/* a sparse write far away adds one object */
	assert_int_equal(vfs_write(f->v, NULL, fh, 20 << 20, "end", 3), 3);
	assert_int_equal(objects(f), 5);
	assert_int_equal(vfs_read(f->v, fh, 10 << 20, back, 8), 8);
	assert_memory_equal(back, "\0\0\0\0\0\0\0\0", 8);
	assert_int_equal(vfs_release(f->v, fh), 0);
	/* truncate removes the objects past the end at once */
	memset(&st, 0, sizeof(st));
	st.st_size = 1500000;
	assert_int_equal(vfs_setattr(f->v, NULL, ino, &st, VFS_SET_SIZE, NULL),
			 0);
	assert_int_equal(objects(f), 2);
	/* unlink removes the rest */
	assert_int_equal(vfs_unlink(f->v, 1, "file"), 0);
	vfs_purge_drain(f->v); /* the purge queue's work, waited for */
	assert_int_equal(objects(f), 0);
	free(buf);
	free(back);
}

static void test_enospc(void **state)
{
	struct fixture *f = *state;
	size_t n = 40 << 20;
	char *buf = calloc(1, n);
	struct vfs_entry e;
	vfs_file *fh;
	ssize_t w;
	struct stat st;

	/* one small OSD: a big write stops where it needs that OSD */
	assert_int_equal(cfs_osd_set_capacity(f->c, 0, 4 << 20), 0);
	assert_int_equal(vfs_create(f->v, &f->cred, 1, "big", 0644, O_RDWR, &e,
				    &fh), 0);
	w = vfs_write(f->v, NULL, fh, 0, buf, n);
	assert_true(w == -ENOSPC || (w > 0 && (size_t)w < n));
	assert_int_equal(vfs_getattr(f->v, e.ino, &st), 0);
	assert_int_equal(st.st_size, w > 0 ? w : 0);
	assert_int_equal(vfs_release(f->v, fh), 0);
	vfs_forget(f->v, e.ino, 1);
	assert_int_equal(vfs_unlink(f->v, 1, "big"), 0);
	vfs_purge_drain(f->v);
	assert_int_equal(objects(f), 0);
	free(buf);
}

struct lines {
	int n;
};

static void count_line(const char *line, void *arg)
{
	(void)line;
	((struct lines *)arg)->n++;
}

static void test_fsck(void **state)
{
	struct fixture *f = *state;
	static char data[2 << 20];
	struct fs_fsck_report r;
	struct lines l = { 0 };
	struct ol_placement p;
	struct mds_inode rec;
	struct mds_dentry d;
	char name[64], path[4096];
	uint64_t a, b, c, lost;
	kv_batch *kb;
	int fd;

	memset(data, 'd', sizeof(data));
	a = create(f, 1, "a", data, sizeof(data), 0); /* 2 objects */
	b = create(f, 1, "b", data, 100, 0);
	c = create(f, 1, "c", data, 10, 0);
	close_fs(f);
	open_fs(f);

	/* an object of no file, and one past the end of b */
	assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, "10000f00000.00000000", data,
					   1000), 0);
	ol_object_name(b, 5, name, sizeof(name));
	assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, name, data, 1000), 0);
	/* b's first object holds bytes past the end of b */
	ol_object_name(b, 0, name, sizeof(name));
	assert_int_equal(ol_obj_write(f->ol, DATA_POOL, name, 100, data, 5000), 0);
	/* a replica of a's object 1 differs */
	ol_object_name(a, 1, name, sizeof(name));
	assert_int_equal(ol_locate(f->ol, DATA_POOL, name, &p), 0);
	assert_int_equal(p.nacting, 2);
	assert_int_equal(ol_object_path(f->ol, DATA_POOL, name, p.acting[1], path,
					 sizeof(path)), 0);
	fd = open(path, O_WRONLY);
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, "XYZ", 3, 1000), 3);
	close(fd);
	/* a user's rados object is left alone */
	assert_int_equal(ol_obj_write_full(f->ol, DATA_POOL, "my-object", data, 10), 0);

	/* metadata damage: a dangling entry, a wrong link count, an inode
	 * without a name, an orphan left over */
	kb = kv_batch_new();
	d.ino = 0x10000000777ULL;
	d.type = 8;
	mds_put_dentry(kb, 1, "dangling", &d);
	assert_int_equal(mds_get_inode(f->m, c, &rec), 0);
	rec.nlink = 5;
	mds_put_inode(kb, &rec);
	memset(&rec, 0, sizeof(rec));
	assert_int_equal(mds_alloc_ino(f->m, &lost), 0);
	rec.ino = lost;
	rec.mode = S_IFREG | 0600;
	rec.nlink = 1;
	ol_default_layout(f->ol, &rec.layout);
	mds_put_inode(kb, &rec);
	rec.ino = lost + 1;
	rec.nlink = 0;
	mds_put_inode(kb, &rec);
	mds_put_orphan(kb, lost + 1);
	assert_int_equal(kv_batch_commit(f->db, kb, 1), 0);
	kv_batch_free(kb);
	vfs_free(f->v);
	f->v = NULL;
	mds_close(f->m);
	f->m = NULL;
	kv_close(f->db);
	f->db = NULL;

	/* dry run: everything found, nothing changed */
	assert_int_equal(fs_fsck(f->c, f->ol, 0, 1, count_line, &l, &r), 0);
	assert_int_equal(r.orphan_objects, 2);
	assert_int_equal(r.beyond_eof, 1);
	assert_int_equal(r.bad_replicas, 1);
	assert_int_equal(r.dangling_dentries, 1);
	assert_int_equal(r.bad_nlink, 1);
	assert_int_equal(r.lost_inodes, 1);
	assert_int_equal(r.orphans_purged, 1);
	assert_int_equal(r.repaired, 0);
	assert_true(l.n >= 8);
	assert_int_equal(r.adopted, 0);
	/* repair, then nothing is left */
	assert_int_equal(fs_fsck(f->c, f->ol, 1, 1, NULL, NULL, &r), 0);
	assert_true(r.repaired >= 8);
	assert_int_equal(r.errors, 0);
	assert_int_equal(r.adopted, 1);
	/* the object of no inode was adopted, not deleted */
	assert_int_equal(ol_obj_stat(f->ol, DATA_POOL, "10000f00000.00000000", NULL), 0);
	assert_int_equal(fs_fsck(f->c, f->ol, 0, 1, NULL, NULL, &r), 0);
	assert_int_equal(r.orphan_objects + r.beyond_eof + r.bad_replicas +
				 r.dangling_dentries + r.bad_nlink +
				 r.lost_inodes + r.orphans_purged,
			 0);
	assert_int_equal(ol_obj_stat(f->ol, DATA_POOL, "my-object", NULL), 0);

	/* the lost file is in /lost+found, the data reads back */
	kv_open_rocksdb(f->mdsdir, 0, &f->db);
	assert_int_equal(mds_open(f->db, NULL, &f->m), 0);
	assert_int_equal(vfs_new(f->m, &vfs_objlayer_ops, f->ol, NULL, &f->v),
			 0);
	{
		uint64_t ino;
		char lf[64];
		vfs_file *fh;
		char back[200];
		struct stat st;

		snprintf(lf, sizeof(lf), "/lost+found/#%llx",
			 (unsigned long long)lost);
		assert_int_equal(vfs_resolve(f->v, lf, &ino), 0);
		assert_int_equal(ino, lost);
		/* the adopted object is a file of its bytes */
		snprintf(lf, sizeof(lf), "/lost+found/#10000f00000");
		assert_int_equal(vfs_resolve(f->v, lf, &ino), 0);
		assert_int_equal(ino, 0x10000f00000ULL);
		assert_int_equal(vfs_getattr(f->v, ino, &st), 0);
		assert_int_equal(st.st_size, 1000);
		assert_int_equal(vfs_open(f->v, ino, O_RDONLY, &fh), 0);
		assert_int_equal(vfs_read(f->v, fh, 0, back, sizeof(back)),
				 sizeof(back));
		assert_memory_equal(back, data, sizeof(back));
		assert_int_equal(vfs_release(f->v, fh), 0);
		/* and its number is never handed out again */
		assert_true(mds_next_ino(f->m) > 0x10000f00000ULL);
		assert_int_equal(vfs_getattr(f->v, c, &st), 0);
		assert_int_equal(st.st_nlink, 1);
		assert_int_equal(vfs_open(f->v, b, O_RDONLY, &fh), 0);
		assert_int_equal(vfs_read(f->v, fh, 0, back, sizeof(back)), 100);
		assert_int_equal(vfs_release(f->v, fh), 0);
		assert_int_equal(vfs_open(f->v, a, O_RDONLY, &fh), 0);
		assert_int_equal(vfs_read(f->v, fh, (1 << 20) + 998, back, 8), 8);
		assert_memory_equal(back, "dddddddd", 8);
		assert_int_equal(vfs_release(f->v, fh), 0);
	}
}

/* Issue 8 on the real object layer: bytes written before a kill -9, past
 * a size that never reached the store, are recovered at the next load
 * (not exposed as old data by a truncate-up), and fsck of a cluster that
 * was not mounted since recovers them the same way instead of trimming
 * them. */
static void test_crash_recovery(void **state)
{
	struct fixture *f = *state;
	size_t n = (5 << 20) / 2; /* 2.5 objects */
	char *buf = malloc(n), *back = malloc(4 << 20);
	struct fs_fsck_report r;
	struct vfs_entry e;
	struct mds_inode rec;
	struct stat st;
	vfs_file *fh, *h2;
	uint64_t g;
	kv_batch *kb;
	vfs *v2;

	for (size_t i = 0; i < n; i++)
		buf[i] = (char)(i * 13 + 1);
	assert_int_equal(vfs_create(f->v, &f->cred, 1, "f", 0644, O_RDWR, &e,
				    &fh), 0);
	assert_int_equal(vfs_write(f->v, NULL, fh, 0, buf, n), (ssize_t)n);
	assert_int_equal(mds_get_inode(f->m, e.ino, &rec), 0);
	assert_int_equal(rec.size, 0);
	assert_true(rec.max_size >= n);
	/* "kill -9": a new daemon on the metadata as the crash left it */
	assert_int_equal(vfs_new(f->m, &vfs_objlayer_ops, f->ol, NULL, &v2), 0);
	assert_int_equal(vfs_getattr(v2, e.ino, &st), 0);
	assert_int_equal((size_t)st.st_size, n);
	memset(&st, 0, sizeof(st));
	st.st_size = 4 << 20;
	assert_int_equal(vfs_setattr(v2, NULL, e.ino, &st, VFS_SET_SIZE, NULL),
			 0);
	assert_int_equal(vfs_open(v2, e.ino, O_RDONLY, &h2), 0);
	memset(back, 'q', 4 << 20);
	assert_int_equal(vfs_read(v2, h2, 0, back, 4 << 20), 4 << 20);
	assert_memory_equal(back, buf, n);
	for (size_t i = n; i < (4 << 20); i++)
		assert_int_equal(back[i], 0);
	assert_int_equal(vfs_release(v2, h2), 0);
	vfs_free(v2);
	assert_int_equal(vfs_release(f->v, fh), 0);
	vfs_forget(f->v, e.ino, 1);

	/* the state a kill leaves, made by hand: 5000 bytes in g's object,
	 * the record says 100 with the range open */
	g = create(f, 1, "g", buf, 5000, 0);
	close_fs(f);
	open_fs(f);
	assert_int_equal(mds_get_inode(f->m, g, &rec), 0);
	assert_int_equal(rec.size, 5000);
	assert_int_equal(rec.max_size, 0);
	rec.size = 100;
	rec.max_size = 1 << 20;
	kb = kv_batch_new();
	mds_put_inode(kb, &rec);
	assert_int_equal(kv_batch_commit(f->db, kb, 1), 0);
	kv_batch_free(kb);
	vfs_free(f->v);
	f->v = NULL;
	mds_close(f->m);
	f->m = NULL;
	kv_close(f->db);
	f->db = NULL;
	assert_int_equal(fs_fsck(f->c, f->ol, 0, 0, NULL, NULL, &r), 0);
	assert_int_equal(r.beyond_eof, 1);
	assert_int_equal(r.orphan_objects, 0);
	assert_int_equal(fs_fsck(f->c, f->ol, 1, 0, NULL, NULL, &r), 0);
	assert_int_equal(r.beyond_eof, 1);
	assert_int_equal(r.repaired, 1);
	assert_int_equal(fs_fsck(f->c, f->ol, 0, 0, NULL, NULL, &r), 0);
	assert_int_equal(r.beyond_eof, 0);
	assert_int_equal(kv_open_rocksdb(f->mdsdir, 0, &f->db), 0);
	assert_int_equal(mds_open(f->db, NULL, &f->m), 0);
	assert_int_equal(mds_get_inode(f->m, g, &rec), 0);
	assert_int_equal(rec.size, 5000);
	assert_int_equal(rec.max_size, 0);
	assert_int_equal(vfs_new(f->m, &vfs_objlayer_ops, f->ol, NULL, &f->v),
			 0);
	assert_int_equal(vfs_open(f->v, g, O_RDONLY, &fh), 0);
	assert_int_equal(vfs_read(f->v, fh, 0, back, 8000), 5000);
	assert_memory_equal(back, buf, 5000);
	assert_int_equal(vfs_release(f->v, fh), 0);
	free(buf);
	free(back);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_data_path, setup, teardown),
		cmocka_unit_test_setup_teardown(test_enospc, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fsck, setup, teardown),
		cmocka_unit_test_setup_teardown(test_crash_recovery, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
