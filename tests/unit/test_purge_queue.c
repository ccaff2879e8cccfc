/*
 * test_purge_queue.c - the purge queue (fs/purge_queue.c): removed files
 * are dead at once and their objects go in the background; a drain
 * empties the queue; a full queue makes the releasing call purge itself;
 * a write refused with ENOSPC drains and is asked again; unmount drains;
 * a "crash" with inodes queued leaves them to the next mount; a queued
 * number is never reused.  No test depends on how fast the worker is:
 * what must hold either way is asserted either way, and backlogs that a
 * test needs are made with vfs_purge_hold.
 *
 * The first tests run on the in-memory data store (fake_data.h), the
 * ENOSPC ones on the real object layer of a small temporary cluster.
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
#include <pthread.h>
#include <sched.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include <cmocka.h>

#include "fake_data.h"
#include "kv.h"
#include "mds.h"
#include "objlayer.h"
#include "osdsim.h"
#include "usage.h"
#include "util.h"
#include "vfs.h"

static void quiet(int level, const char *msg)
{
	(void)level, (void)msg;
}

/* ---- on the in-memory store ---- */

struct fx {
	kv *db;
	mds *m;
	vfs *v;
	struct vfs_cred cred;
};

static int setup_with(void **state, const struct vfs_opts *o)
{
	struct fx *f = calloc(1, sizeof(*f));

	cfs_log_set(quiet, CFS_LOG_ERR);
	fake_reset();
	assert_int_equal(kv_open_mem(&f->db), 0);
	assert_int_equal(mds_format(f->db, "test-fsid", 0, 0), 0);
	assert_int_equal(mds_open(f->db, "test-fsid", &f->m), 0);
	assert_int_equal(vfs_new(f->m, &fake_ops, NULL, o, &f->v), 0);
	*state = f;
	return 0;
}

static int setup(void **state)
{
	/* a small queue, so that back-pressure is reached quickly (under
	 * ASan 65k files took 150 s); its worker still starts only at 1024
	 * queued (half the ring) or after a pause, so only the drains are
	 * certain in the other tests */
	struct vfs_opts o = { .purge_max = 2048 };

	return setup_with(state, &o);
}

static int no_orphan_cb(uint64_t ino, void *arg)
{
	(void)arg;
	fail_msg("orphan %llx left behind", (unsigned long long)ino);
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	if (f->v)
		vfs_free(f->v);
	/* the unmount drained: nothing left for the next mount */
	assert_int_equal(mds_list_orphans(f->m, no_orphan_cb, NULL), 0);
	mds_close(f->m);
	kv_close(f->db);
	fake_reset();
	free(f);
	return 0;
}

static uint64_t mkfile(struct fx *f, const char *name, size_t len)
{
	static char buf[3 * FAKE_CHUNK];
	struct vfs_entry e;
	vfs_file *fh;

	memset(buf, 'p', sizeof(buf));
	assert_true(len <= sizeof(buf));
	assert_int_equal(vfs_create(f->v, &f->cred, 1, name, 0644,
				    O_CREAT | O_RDWR, &e, &fh), 0);
	if (len)
		assert_int_equal(vfs_write(f->v, NULL, fh, 0, buf, len),
				 (ssize_t)len);
	assert_int_equal(vfs_release(f->v, fh), 0);
	vfs_forget(f->v, e.ino, 1);
	return e.ino;
}

static uint64_t used_inodes(struct fx *f)
{
	struct statvfs st;

	assert_int_equal(vfs_statfs(f->v, &st), 0);
	return st.f_files - st.f_ffree;
}

#define NFILES 300

/* unlink of N files: dead at once, objects gone now or later (either
 * holds); after a drain every object is gone and the counts are exact */
static void test_unlink_then_drain(void **state)
{
	struct fx *f = *state;
	static uint64_t ino[NFILES];
	struct vfs_purge_stats ps;
	struct stat st;
	char name[32];

	for (int i = 0; i < NFILES; i++) {
		snprintf(name, sizeof(name), "f%d", i);
		ino[i] = mkfile(f, name, 1 + (size_t)i * 401);
	}
	assert_true(fake_chunks(0) >= NFILES);
	for (int i = 0; i < NFILES; i++) {
		snprintf(name, sizeof(name), "f%d", i);
		assert_int_equal(vfs_unlink(f->v, 1, name), 0);
		/* gone for every caller at once, whatever the purge does */
		assert_int_equal(vfs_getattr(f->v, ino[i], &st), -ENOENT);
	}
	pthread_mutex_lock(&fake.m); /* the worker may be at it */
	assert_in_range(fake.removes, 0, NFILES);
	pthread_mutex_unlock(&fake.m);
	vfs_purge_drain(f->v);
	assert_int_equal(fake.removes, NFILES);
	assert_int_equal(fake_chunks(0), 0);
	vfs_purge_stats(f->v, &ps);
	assert_int_equal(ps.pending, 0);
	assert_int_equal(ps.by_worker + ps.by_drain + ps.by_caller, NFILES);
	assert_int_equal(ps.queued + ps.by_caller, NFILES);
	/* the records follow with the next write-back: then exact */
	assert_int_equal(vfs_flush_all(f->v, 0), 0);
	assert_int_equal(used_inodes(f), 1);
	assert_int_equal(mds_list_orphans(f->m, no_orphan_cb, NULL), 0);
}

/* Held, the queue keeps what it gets: the objects stay until the drain,
 * and the inodes are dead meanwhile (a stat, a lookup, a link refuse
 * them). */
static void test_held_backlog(void **state)
{
	struct fx *f = *state;
	struct vfs_purge_stats ps;
	struct vfs_entry e;
	uint64_t a, b;

	vfs_purge_hold(f->v, 1);
	a = mkfile(f, "a", 5000);
	b = mkfile(f, "b", 70000);
	assert_int_equal(vfs_unlink(f->v, 1, "a"), 0);
	assert_int_equal(vfs_unlink(f->v, 1, "b"), 0);
	vfs_purge_stats(f->v, &ps);
	assert_int_equal(ps.pending, 2);
	assert_int_equal(fake.removes, 0);
	assert_int_equal(fake_chunks(a), 1);
	assert_int_equal(fake_chunks(b), 2);
	assert_int_equal(vfs_lookup(f->v, 1, "a", &e), -ENOENT);
	assert_int_equal(vfs_link(f->v, a, 1, "again", &e), -ENOENT);
	/* a number queued is never handed out again */
	{
		uint64_t c = mkfile(f, "c", 10);

		assert_true(c != a && c != b);
		assert_int_equal(vfs_purge_drain(f->v), 2);
		assert_int_equal(fake_chunks(c), 1);
	}
	assert_int_equal(fake_chunks(a), 0);
	assert_int_equal(fake_chunks(b), 0);
	assert_int_equal(vfs_purge_drain(f->v), 0); /* nothing left */
	vfs_purge_hold(f->v, 0);
}

/* Every kind of last reference goes through the queue: the last of two
 * hard links, a rename over a file, an unlinked file's last close, a
 * directory and a symlink (their object 0, the backtrace). */
static void test_every_kind_queued(void **state)
{
	struct fx *f = *state;
	struct vfs_purge_stats ps;
	struct vfs_entry e;
	vfs_file *fh;
	uint64_t a, b, open_ino;

	vfs_purge_hold(f->v, 1);
	a = mkfile(f, "a", 100);
	assert_int_equal(vfs_link(f->v, a, 1, "a2", &e), 0);
	vfs_forget(f->v, a, 1);
	assert_int_equal(vfs_unlink(f->v, 1, "a"), 0);
	vfs_purge_stats(f->v, &ps);
	assert_int_equal(ps.queued, 0); /* a2 still names it */
	assert_int_equal(vfs_unlink(f->v, 1, "a2"), 0);
	b = mkfile(f, "b", 100);
	mkfile(f, "over", 100);
	assert_int_equal(vfs_rename(f->v, 1, "b", 1, "over", 0), 0);
	assert_int_equal(vfs_create(f->v, &f->cred, 1, "open", 0600,
				    O_CREAT | O_RDWR, &e, &fh), 0);
	open_ino = e.ino;
	assert_int_equal(vfs_write(f->v, NULL, fh, 0, "x", 1), 1);
	assert_int_equal(vfs_unlink(f->v, 1, "open"), 0);
	vfs_forget(f->v, open_ino, 1);
	vfs_purge_stats(f->v, &ps);
	assert_int_equal(ps.queued, 2); /* a, and "over"'s old inode */
	assert_int_equal(vfs_release(f->v, fh), 0);
	assert_int_equal(vfs_mkdir(f->v, &f->cred, 1, "d", 0755, &e), 0);
	vfs_forget(f->v, e.ino, 1);
	assert_int_equal(vfs_rmdir(f->v, 1, "d"), 0);
	assert_int_equal(vfs_symlink(f->v, &f->cred, "t", 1, "s", &e), 0);
	vfs_forget(f->v, e.ino, 1);
	assert_int_equal(vfs_unlink(f->v, 1, "s"), 0);
	vfs_purge_stats(f->v, &ps);
	assert_int_equal(ps.queued, 5);
	assert_int_equal(ps.pending, 5);
	assert_int_equal(fake.removes, 0);
	assert_int_equal(vfs_purge_drain(f->v), 5);
	/* the three files' data (directories and symlinks have none here:
	 * the fake keeps no backtraces) */
	assert_int_equal(fake.removes, 3);
	assert_int_equal(fake_chunks(a), 0);
	assert_int_equal(fake_chunks(open_ino), 0);
	assert_int_equal(vfs_flush_all(f->v, 0), 0);
	assert_int_equal(used_inodes(f), 2); /* the root, and b as "over" */
	assert_int_equal(fake_chunks(b), 1);
}

/* A full queue: the releasing call purges its inode itself and returns
 * (back-pressure), so the backlog stays bounded whatever the worker
 * gets of the CPU. */
static void test_backpressure(void **state)
{
	struct fx *f = *state;
	struct vfs_purge_stats ps;
	uint64_t cap, n;
	char name[32];

	vfs_purge_stats(f->v, &ps);
	cap = ps.capacity;
	assert_int_equal(cap, 2048);
	n = cap + 7;
	for (uint64_t i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "e%llu", (unsigned long long)i);
		mkfile(f, name, 0);
	}
	vfs_purge_hold(f->v, 1);
	for (uint64_t i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "e%llu", (unsigned long long)i);
		assert_int_equal(vfs_unlink(f->v, 1, name), 0);
	}
	vfs_purge_stats(f->v, &ps);
	assert_int_equal(ps.pending, cap);
	assert_int_equal(ps.by_caller, 7);
	assert_int_equal(fake.removes, 7);
	/* the worker, let go, empties it by itself; the drain only waits
	 * for what it has not done yet */
	vfs_purge_hold(f->v, 0);
	vfs_purge_drain(f->v);
	assert_int_equal(fake.removes, (int)n);
	vfs_purge_stats(f->v, &ps);
	assert_int_equal(ps.pending, 0);
	assert_int_equal(vfs_flush_all(f->v, 0), 0);
	assert_int_equal(used_inodes(f), 1);
}

/* The unmount drains: after vfs_free every object of a removed file is
 * gone, and the next mount finds no orphan. */
static void test_unmount_drains(void **state)
{
	struct fx *f = *state;
	uint64_t a, b;

	vfs_purge_hold(f->v, 1);
	a = mkfile(f, "a", 1000);
	b = mkfile(f, "b", 100000);
	assert_int_equal(vfs_unlink(f->v, 1, "a"), 0);
	assert_int_equal(vfs_unlink(f->v, 1, "b"), 0);
	assert_int_equal(fake.removes, 0);
	vfs_free(f->v);
	f->v = NULL;
	assert_int_equal(fake.removes, 2);
	assert_int_equal(fake_chunks(a), 0);
	assert_int_equal(fake_chunks(b), 0);
	assert_int_equal(mds_list_orphans(f->m, no_orphan_cb, NULL), 0);
}

/* A crash with inodes queued: their orphan marks are in the store, so
 * the next mount (here a second vfs on the same metadata, as
 * test_vfs.c's crash test does) queues them again and purges them in
 * the background (here: a drain and a write-back). */
static int count_cb(uint64_t ino, void *arg)
{
	(void)ino;
	(*(int *)arg)++;
	return 0;
}

static void test_crash_with_backlog(void **state)
{
	struct fx *f = *state;
	uint64_t ino[20];
	char name[16];
	int orphans = 0;
	vfs *v2;

	vfs_purge_hold(f->v, 1);
	for (int i = 0; i < 20; i++) {
		snprintf(name, sizeof(name), "c%d", i);
		ino[i] = mkfile(f, name, 3000);
	}
	for (int i = 0; i < 20; i++) {
		snprintf(name, sizeof(name), "c%d", i);
		assert_int_equal(vfs_unlink(f->v, 1, name), 0);
	}
	assert_int_equal(mds_list_orphans(f->m, count_cb, &orphans), 0);
	assert_int_equal(orphans, 20);
	assert_int_equal(fake_chunks(0), 20);
	assert_int_equal(vfs_new(f->m, &fake_ops, NULL, NULL, &v2), 0);
	{
		struct vfs_purge_stats ps;

		/* the default queue: purge_queue.c's PQ_MAX; all 20 went
		 * to it, none was purged before the mount could serve */
		vfs_purge_stats(v2, &ps);
		assert_int_equal(ps.capacity, 131072);
		assert_int_equal(ps.queued, 20);
		assert_int_equal(ps.by_caller, 0);
	}
	vfs_purge_drain(v2);
	assert_int_equal(fake_chunks(0), 0);
	assert_int_equal(vfs_flush_all(v2, 0), 0);
	orphans = 0;
	assert_int_equal(mds_list_orphans(f->m, count_cb, &orphans), 0);
	assert_int_equal(orphans, 0);
	for (int i = 0; i < 20; i++) {
		struct mds_inode r;

		assert_int_equal(mds_get_inode(f->m, ino[i], &r), -ENOENT);
	}
	vfs_free(v2);
	/* the first view's queue finds nothing left to do */
	assert_int_equal(fake.removes, 20);
	vfs_purge_drain(f->v);
	assert_int_equal(fake_chunks(0), 0);
}

/* A read-only view never purges (the next writable mount does). */
static void test_readonly_never_purges(void **state)
{
	struct fx *f = *state;
	struct vfs_opts ro = { .readonly = 1 };
	struct vfs_purge_stats ps;
	vfs *v2;
	uint64_t a;

	vfs_purge_hold(f->v, 1);
	a = mkfile(f, "a", 1000);
	assert_int_equal(vfs_unlink(f->v, 1, "a"), 0);
	assert_int_equal(vfs_new(f->m, &fake_ops, NULL, &ro, &v2), 0);
	vfs_purge_stats(v2, &ps);
	assert_int_equal(ps.capacity, 0); /* no queue at all */
	assert_int_equal(vfs_purge_drain(v2), 0);
	vfs_free(v2);
	assert_int_equal(fake_chunks(a), 1);
	assert_int_equal(vfs_purge_drain(f->v), 1);
	assert_int_equal(fake_chunks(a), 0);
}

/* ---- on a small real cluster: ENOSPC drains ---- */

struct cfx {
	char dir[64], mdsdir[96];
	cfs_cluster *c;
	objlayer *ol;
	kv *db;
	mds *m;
	vfs *v;
	struct vfs_cred cred;
};

static int csetup(void **state)
{
	struct cfx *f = calloc(1, sizeof(*f));
	struct cfs_mkfs_opts o;
	const cfs_osdmap *m;
	char err[256];

	cfs_log_set(quiet, CFS_LOG_ERR);
	strcpy(f->dir, "/tmp/test_purge_queue.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	rmdir(f->dir); /* mkfs makes it */
	cfs_mkfs_opts_init(&o);
	/* one 16 MiB OSD, one copy, 1 MiB objects: 15 objects fill it to
	 * its full ratio (0.95) */
	o.nosds = 1;
	o.nhosts = 1;
	o.osd_size = 16 << 20;
	o.osd_size_set = 1;
	o.size = 1;
	o.min_size = 1;
	o.pg_num = 8;
	o.object_size = 1 << 20;
	if (cfs_mkfs(f->dir, &o, err, sizeof(err)))
		fail_msg("mkfs: %s", err);
	snprintf(f->mdsdir, sizeof(f->mdsdir), "%s/mds", f->dir);
	assert_int_equal(cfs_cluster_open(f->dir, 0, &f->c, err, sizeof(err)),
			 0);
	assert_int_equal(ol_open(f->c, &f->ol), 0);
	assert_int_equal(kv_open_rocksdb(f->mdsdir, 1, &f->db), 0);
	m = cfs_osdmap_get(f->c);
	assert_int_equal(mds_format(f->db, cfs_osdmap_fsid(m), 0, 0), 0);
	cfs_osdmap_put(m);
	assert_int_equal(mds_open(f->db, NULL, &f->m), 0);
	assert_int_equal(vfs_new(f->m, &vfs_objlayer_ops, f->ol, NULL, &f->v),
			 0);
	*state = f;
	return 0;
}

static int cteardown(void **state)
{
	struct cfx *f = *state;

	vfs_free(f->v);
	mds_close(f->m);
	kv_close(f->db);
	ol_close(f->ol);
	cfs_cluster_close(f->c);
	cfs_rmtree(f->dir);
	free(f);
	return 0;
}

static int count_obj(const char *name, void *arg)
{
	(void)name;
	(*(int *)arg)++;
	return 0;
}

static int objects(struct cfx *f)
{
	int n = 0;

	assert_int_equal(ol_obj_list(f->ol, 1, count_obj, &n), 0);
	return n;
}

/* 1 MiB files until the OSD refuses one: how many were written. */
static int fill(struct cfx *f, const char *prefix, char *buf)
{
	int n = 0;

	for (;; n++) {
		struct vfs_entry e;
		vfs_file *fh;
		char name[32];
		ssize_t w;

		assert_true(n < 64);
		snprintf(name, sizeof(name), "%s%d", prefix, n);
		assert_int_equal(vfs_create(f->v, &f->cred, 1, name, 0644,
					    O_CREAT | O_RDWR, &e, &fh), 0);
		w = vfs_write(f->v, NULL, fh, 0, buf, 1 << 20);
		assert_int_equal(vfs_release(f->v, fh), 0);
		vfs_forget(f->v, e.ino, 1);
		if (w == -ENOSPC) {
			assert_int_equal(vfs_unlink(f->v, 1, name), 0);
			return n;
		}
		assert_int_equal(w, 1 << 20);
	}
}

static void assert_usage_exact(struct cfx *f, uint64_t files)
{
	struct cfs_check_report rep;
	struct ol_space s;

	assert_int_equal(cfs_cluster_check(f->c, 0, &rep, NULL, NULL), 0);
	assert_int_equal(rep.usage_mismatches, 0);
	assert_int_equal(rep.stray_files, 0);
	assert_int_equal(ol_space(f->ol, &s), 0);
	assert_int_equal(s.used, files << 20);
}

/* Fill, remove everything with the worker held (so the removals are
 * still queued, whatever the machine's load), write again: the refused
 * write drains the queue and is asked again, and succeeds. */
static void test_enospc_drains(void **state)
{
	struct cfx *f = *state;
	char *buf = malloc(1 << 20);
	struct vfs_purge_stats ps;
	struct vfs_entry e;
	vfs_file *fh;
	char name[32];
	int n;

	memset(buf, 'q', 1 << 20);
	vfs_purge_hold(f->v, 1);
	n = fill(f, "f", buf);
	assert_true(n >= 8);
	for (int i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "f%d", i);
		assert_int_equal(vfs_unlink(f->v, 1, name), 0);
	}
	/* held: every object still there, and the refused file queued */
	assert_in_range(objects(f), n, n + 1);
	vfs_purge_stats(f->v, &ps);
	assert_int_equal(ps.pending, (uint64_t)n + 1);
	assert_int_equal(vfs_create(f->v, &f->cred, 1, "again", 0644,
				    O_CREAT | O_RDWR, &e, &fh), 0);
	assert_int_equal(vfs_write(f->v, NULL, fh, 0, buf, 1 << 20), 1 << 20);
	vfs_purge_stats(f->v, &ps);
	assert_true(ps.by_drain >= 1);
	assert_int_equal(ps.pending, 0);
	vfs_purge_hold(f->v, 0);
	assert_int_equal(vfs_release(f->v, fh), 0);
	vfs_forget(f->v, e.ino, 1);
	assert_int_equal(objects(f), 1);
	assert_usage_exact(f, 1);
	free(buf);
}

static void test_enospc_fallocate_drains(void **state)
{
	struct cfx *f = *state;
	char *buf = malloc(1 << 20);
	struct vfs_purge_stats ps;
	struct vfs_entry e;
	vfs_file *fh;
	char name[32];
	int n;

	memset(buf, 'r', 1 << 20);
	vfs_purge_hold(f->v, 1);
	n = fill(f, "g", buf);
	for (int i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "g%d", i);
		assert_int_equal(vfs_unlink(f->v, 1, name), 0);
	}
	assert_int_equal(vfs_create(f->v, &f->cred, 1, "alloc", 0644,
				    O_CREAT | O_RDWR, &e, &fh), 0);
	assert_int_equal(vfs_fallocate(f->v, NULL, fh, 0, 0, 4 << 20), 0);
	vfs_purge_stats(f->v, &ps);
	assert_true(ps.by_drain >= 1);
	assert_int_equal(ps.pending, 0);
	assert_int_equal(vfs_release(f->v, fh), 0);
	vfs_forget(f->v, e.ino, 1);
	vfs_purge_hold(f->v, 0);
	assert_int_equal(objects(f), 4);
	assert_usage_exact(f, 4);
	free(buf);
}

/* A fixture whose worker can only start at half the ring: removals
 * would have to pause for ten minutes to start it otherwise. */
static int hsetup(void **state)
{
	struct vfs_opts o = { .purge_max = 2048, .purge_quiet_ms = 600000 };

	return setup_with(state, &o);
}

static uint64_t worker_purged(struct fx *f)
{
	struct vfs_purge_stats ps;

	vfs_purge_stats(f->v, &ps);
	return ps.by_worker;
}

/* A stream of removals is left alone until half the ring is queued; at
 * half the worker starts beside it (purge_queue.c says why half). */
static void test_worker_starts_at_half(void **state)
{
	struct fx *f = *state;
	struct vfs_purge_stats ps;
	struct timespec t0, t;
	char name[32];
	uint64_t half;

	vfs_purge_stats(f->v, &ps);
	half = ps.capacity / 2;
	assert_int_equal(half, 1024);
	for (uint64_t i = 0; i < half; i++) {
		snprintf(name, sizeof(name), "s%llu", (unsigned long long)i);
		mkfile(f, name, 0);
	}
	for (uint64_t i = 0; i + 1 < half; i++) {
		snprintf(name, sizeof(name), "s%llu", (unsigned long long)i);
		assert_int_equal(vfs_unlink(f->v, 1, name), 0);
	}
	/* one short of half, no pause: nothing taken (the worker was woken
	 * by the first and waits for the pause) */
	vfs_purge_stats(f->v, &ps);
	assert_int_equal(ps.pending, half - 1);
	assert_int_equal(ps.by_worker, 0);
	assert_int_equal(ps.by_caller, 0);
	pthread_mutex_lock(&fake.m);
	assert_int_equal(fake.removes, 0);
	pthread_mutex_unlock(&fake.m);
	snprintf(name, sizeof(name), "s%llu", (unsigned long long)(half - 1));
	assert_int_equal(vfs_unlink(f->v, 1, name), 0);
	/* at half it starts, with no pause: wait for its first purge (10 s
	 * at most; ASan makes a purge some milliseconds) */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (worker_purged(f) == 0) {
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec > 10)
			fail_msg("the worker took nothing in 10 s with %llu "
				 "queued", (unsigned long long)half);
		sched_yield();
	}
	vfs_purge_drain(f->v);
	vfs_purge_stats(f->v, &ps);
	assert_int_equal(ps.pending, 0);
	assert_true(ps.by_worker >= 1);
	assert_int_equal(ps.by_worker + ps.by_drain, half);
	assert_int_equal(fake.removes, (int)half);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_unlink_then_drain, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_held_backlog, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_every_kind_queued, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_backpressure, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_worker_starts_at_half,
						hsetup, teardown),
		cmocka_unit_test_setup_teardown(test_unmount_drains, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_crash_with_backlog, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_readonly_never_purges,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_enospc_drains, csetup,
						cteardown),
		cmocka_unit_test_setup_teardown(test_enospc_fallocate_drains,
						csetup, cteardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
