/*
 * test_readahead.c - the daemon's read-ahead (fs/readahead.c) over a
 * store of its own: one sequential reader is served from what was read
 * ahead, every byte read once; a write, truncate or fallocate makes what
 * was read ahead stale, also one that lands while a read-ahead is
 * reading; a failed read-ahead leaves the request to read (and fail)
 * itself; a removal waits for the inode's read-aheads; a request may
 * be answered from the slot itself, which keeps it until given back;
 * small, random and disabled reading passes through.
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
#include <time.h>
#include <cmocka.h>

#include "readahead.h"

#define MIB ((uint64_t)1 << 20)
#define INO 0x1234
#define FSIZE (32 * MIB)

/* ---- the store: one file, in memory ---- */

static struct {
	pthread_mutex_t m;
	pthread_cond_t cv;
	unsigned char *data;
	int reads, removes, active_reads;
	int read_at[64]; /* reads per megabyte */
	/* a read at gate_read (a megabyte) stops after its copy until
	 * gate_open; a write stops halfway until gate_open */
	int64_t gate_read;
	int gate_write, gate_open, gated;
	/* reads at fail_at fail with -EIO fail_n times, at fail_always
	 * always */
	int64_t fail_at, fail_always;
	int fail_n;
	int removed_while_reading;
} st = { .m = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER };

static void wait_gate(void)
{
	st.gated++;
	pthread_cond_broadcast(&st.cv);
	while (!st.gate_open)
		pthread_cond_wait(&st.cv, &st.m);
}

static ssize_t s_read(void *ctx, uint64_t ino, const struct ol_layout *l,
		      uint64_t size, uint64_t off, void *buf, size_t len)
{
	(void)ctx, (void)l;
	assert_int_equal(ino, INO);
	if (off >= size)
		return 0;
	if (len > size - off)
		len = (size_t)(size - off);
	pthread_mutex_lock(&st.m);
	st.active_reads++;
	if ((st.fail_at >= 0 && off / MIB == (uint64_t)st.fail_at &&
	     st.fail_n) ||
	    (st.fail_always >= 0 && off / MIB == (uint64_t)st.fail_always)) {
		if (off / MIB == (uint64_t)st.fail_at)
			st.fail_n--;
		st.active_reads--;
		pthread_mutex_unlock(&st.m);
		return -EIO;
	}
	memcpy(buf, st.data + off, len);
	if (st.gate_read >= 0 && off / MIB == (uint64_t)st.gate_read)
		wait_gate();
	st.reads++;
	st.read_at[off / MIB]++;
	st.active_reads--;
	pthread_cond_broadcast(&st.cv);
	pthread_mutex_unlock(&st.m);
	return (ssize_t)len;
}

static ssize_t s_write(void *ctx, uint64_t ino, const struct ol_layout *l,
		       uint64_t off, const void *buf, size_t len)
{
	(void)ctx, (void)ino, (void)l;
	pthread_mutex_lock(&st.m);
	if (st.gate_write) {
		memcpy(st.data + off, buf, len / 2);
		wait_gate();
		memcpy(st.data + off + len / 2, (const char *)buf + len / 2,
		       len - len / 2);
	} else {
		memcpy(st.data + off, buf, len);
	}
	pthread_mutex_unlock(&st.m);
	return (ssize_t)len;
}

static int s_truncate(void *ctx, uint64_t ino, const struct ol_layout *l,
		      uint64_t old_size, uint64_t new_size)
{
	uint64_t from = new_size < old_size ? new_size : old_size;

	(void)ctx, (void)ino, (void)l;
	pthread_mutex_lock(&st.m);
	memset(st.data + from, 0, FSIZE - from);
	pthread_mutex_unlock(&st.m);
	return 0;
}

static int s_fallocate(void *ctx, uint64_t ino, const struct ol_layout *l,
		       uint64_t off, uint64_t len, enum ol_falloc_mode mode)
{
	(void)ctx, (void)ino, (void)l, (void)mode;
	pthread_mutex_lock(&st.m);
	memset(st.data + off, 0, len); /* a punch */
	pthread_mutex_unlock(&st.m);
	return 0;
}

static int s_remove(void *ctx, uint64_t ino, const struct ol_layout *l,
		    uint64_t size)
{
	(void)ctx, (void)ino, (void)l, (void)size;
	pthread_mutex_lock(&st.m);
	if (st.active_reads)
		st.removed_while_reading = 1;
	st.removes++;
	pthread_cond_broadcast(&st.cv);
	pthread_mutex_unlock(&st.m);
	return 0;
}

static const struct vfs_data_ops store = {
	.read = s_read,
	.write = s_write,
	.truncate = s_truncate,
	.fallocate = s_fallocate,
	.remove = s_remove,
};

static unsigned char pat(uint64_t off, int v)
{
	/* off / MIB: every megabyte differs, so a slot read for one is
	 * not taken for another */
	return (unsigned char)(off * 31 + off / 4096 + off / MIB * 7 +
			       (uint64_t)v * 101);
}

static void fill(unsigned char *p, uint64_t off, size_t len, int v)
{
	for (size_t i = 0; i < len; i++)
		p[i] = pat(off + i, v);
}

struct fx {
	fs_ra *ra;
	const struct vfs_data_ops *ops;
	struct ol_layout l;
	unsigned char *buf;
};

static int setup_window(void **state, size_t window)
{
	struct fx *f = calloc(1, sizeof(*f));

	pthread_mutex_lock(&st.m);
	free(st.data);
	st.data = malloc(FSIZE);
	fill(st.data, 0, FSIZE, 0);
	st.reads = st.removes = st.active_reads = st.gated = 0;
	memset(st.read_at, 0, sizeof(st.read_at));
	st.gate_read = st.fail_at = st.fail_always = -1;
	st.gate_write = st.gate_open = st.fail_n = 0;
	st.removed_while_reading = 0;
	pthread_mutex_unlock(&st.m);
	f->ra = ra_new(&store, NULL, window, NULL, &f->ops);
	assert_non_null(f->ra);
	f->buf = malloc(2 * MIB);
	*state = f;
	return 0;
}

static int setup(void **state)
{
	return setup_window(state, 8 * MIB);
}

static int setup_off(void **state)
{
	return setup_window(state, 0);
}

static int teardown(void **state)
{
	struct fx *f = *state;

	ra_free(f->ra);
	free(f->buf);
	free(f);
	return 0;
}

/* Read [off, off + len) of a file of size bytes through the wrapper and
 * check it against version v of the pattern (zeros where zero). */
static void read_check(struct fx *f, uint64_t size, uint64_t off,
		       size_t len, int v, int zero)
{
	ssize_t n = f->ops->read(f->ra, INO, &f->l, size, off, f->buf, len);
	size_t want = off >= size ? 0
		      : size - off < len ? (size_t)(size - off) : len;

	assert_int_equal(n, (ssize_t)want);
	for (size_t i = 0; i < want; i++)
		if (f->buf[i] != (zero ? 0 : pat(off + i, v)))
			fail_msg("byte %llu: %u, expected %u",
				 (unsigned long long)(off + i), f->buf[i],
				 zero ? 0 : pat(off + i, v));
}

static int served(int n)
{
	return st.reads >= n;
}

static int read_at(int mib)
{
	return st.read_at[mib] > 0;
}

static int gated(int n)
{
	return st.gated >= n;
}

/* Wait (5 s at most, st.m taken) until cond(arg) holds. */
static void wait_for(int (*cond)(int), int arg, const char *what)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	t.tv_sec += 5;
	pthread_mutex_lock(&st.m);
	while (!cond(arg))
		if (pthread_cond_timedwait(&st.cv, &st.m, &t)) {
			pthread_mutex_unlock(&st.m);
			fail_msg("not within 5 s: %s (%d)", what, arg);
		}
	pthread_mutex_unlock(&st.m);
}

static void open_gate(void)
{
	pthread_mutex_lock(&st.m);
	st.gate_open = 1;
	pthread_cond_broadcast(&st.cv);
	pthread_mutex_unlock(&st.m);
}

static void test_sequential(void **state)
{
	struct fx *f = *state;
	struct ra_stats s;

	for (uint64_t off = 0; off < FSIZE; off += MIB)
		read_check(f, FSIZE, off, MIB, 0, 0);
	ra_stats(f->ra, &s);
	/* the first request starts the stream, the second reads itself
	 * and starts the read-ahead, every later one is served */
	assert_int_equal(s.hits, FSIZE / MIB - 2);
	assert_int_equal(s.misses, 1);
	/* and every megabyte came from the store once */
	assert_int_equal(st.reads, FSIZE / MIB);
	for (int i = 0; i < (int)(FSIZE / MIB); i++)
		assert_int_equal(st.read_at[i], 1);
	/* the end: a short last request */
	read_check(f, FSIZE - 1000, FSIZE - MIB, MIB, 0, 0);
}

/* Read 0 and 1 MiB, and wait for the read-ahead they start (2-9 MiB). */
static void prime(struct fx *f)
{
	read_check(f, FSIZE, 0, MIB, 0, 0);
	read_check(f, FSIZE, MIB, MIB, 0, 0);
	wait_for(served, 10, "the store served reads");
}

static void test_write_makes_stale(void **state)
{
	struct fx *f = *state;
	unsigned char *w = malloc(MIB);

	prime(f);
	fill(w, 5 * MIB + 100, MIB, 1);
	assert_int_equal(f->ops->write(f->ra, INO, &f->l, 5 * MIB + 100, w,
				       MIB),
			 (ssize_t)MIB);
	for (uint64_t off = 2 * MIB; off < 12 * MIB; off += MIB) {
		ssize_t n = f->ops->read(f->ra, INO, &f->l, FSIZE, off, f->buf,
					 MIB);

		assert_int_equal(n, (ssize_t)MIB);
		for (uint64_t i = 0; i < MIB; i++) {
			uint64_t o = off + i;
			int v = o >= 5 * MIB + 100 && o < 6 * MIB + 100;

			if (f->buf[i] != pat(o, v))
				fail_msg("byte %llu is stale",
					 (unsigned long long)o);
		}
	}
	free(w);
}

static void test_truncate_makes_stale(void **state)
{
	struct fx *f = *state;

	prime(f);
	/* cut at 6 MiB and grown back: zeros from there */
	assert_int_equal(f->ops->truncate(f->ra, INO, &f->l, FSIZE, 6 * MIB),
			 0);
	assert_int_equal(f->ops->truncate(f->ra, INO, &f->l, 6 * MIB, FSIZE),
			 0);
	for (uint64_t off = 2 * MIB; off < 6 * MIB; off += MIB)
		read_check(f, FSIZE, off, MIB, 0, 0);
	for (uint64_t off = 6 * MIB; off < 12 * MIB; off += MIB)
		read_check(f, FSIZE, off, MIB, 0, 1);
}

static void test_fallocate_makes_stale(void **state)
{
	struct fx *f = *state;

	prime(f);
	assert_int_equal(f->ops->fallocate(f->ra, INO, &f->l, 4 * MIB, MIB,
					   OL_FALLOC_PUNCH),
			 0);
	read_check(f, FSIZE, 2 * MIB, MIB, 0, 0);
	read_check(f, FSIZE, 3 * MIB, MIB, 0, 0);
	read_check(f, FSIZE, 4 * MIB, MIB, 0, 1);
	read_check(f, FSIZE, 5 * MIB, MIB, 0, 0);
}

struct writer {
	struct fx *f;
	uint64_t off;
	unsigned char *w;
};

static void *write_thread(void *arg)
{
	struct writer *w = arg;

	assert_int_equal(w->f->ops->write(w->f->ra, INO, &w->f->l, w->off,
					  w->w, MIB),
			 (ssize_t)MIB);
	return NULL;
}

/* A read-ahead that reads while a write is half done is not served once
 * the write is. */
static void test_write_during_readahead(void **state)
{
	struct fx *f = *state;
	struct writer w = { f, 12 * MIB, malloc(MIB) };
	pthread_t t;

	prime(f);
	fill(w.w, w.off, MIB, 1);
	pthread_mutex_lock(&st.m);
	st.gate_write = 1;
	pthread_mutex_unlock(&st.m);
	assert_int_equal(pthread_create(&t, NULL, write_thread, &w), 0);
	wait_for(gated, 1, "a write reached the gate"); /* halfway */
	/* the reader moves on: 10-12 MiB are read ahead, 12 MiB half new */
	read_check(f, FSIZE, 2 * MIB, MIB, 0, 0);
	read_check(f, FSIZE, 3 * MIB, MIB, 0, 0);
	read_check(f, FSIZE, 4 * MIB, MIB, 0, 0);
	wait_for(read_at, 12, "a read-ahead read megabyte"); /* half new */
	open_gate();
	assert_int_equal(pthread_join(t, NULL), 0);
	for (uint64_t off = 5 * MIB; off < 12 * MIB; off += MIB)
		read_check(f, FSIZE, off, MIB, 0, 0);
	read_check(f, FSIZE, 12 * MIB, MIB, 1, 0);
	free(w.w);
}

static void test_failed_readahead(void **state)
{
	struct fx *f = *state;
	struct ra_stats s;

	pthread_mutex_lock(&st.m);
	st.fail_at = 4;
	st.fail_n = 1;
	st.fail_always = 11;
	pthread_mutex_unlock(&st.m);
	for (uint64_t off = 0; off < 11 * MIB; off += MIB)
		read_check(f, FSIZE, off, MIB, 0, 0);
	ra_stats(f->ra, &s);
	assert_true(s.dropped >= 1);
	assert_int_equal(st.read_at[4], 1); /* the request's own */
	/* a failure that stays reaches the request */
	assert_int_equal(f->ops->read(f->ra, INO, &f->l, FSIZE, 11 * MIB,
				      f->buf, MIB),
			 -EIO);
	read_check(f, FSIZE, 12 * MIB, MIB, 0, 0);
}

struct remover {
	struct fx *f;
	int done;
};

static void *remove_thread(void *arg)
{
	struct remover *r = arg;

	assert_int_equal(r->f->ops->remove(r->f->ra, INO, &r->f->l, FSIZE),
			 0);
	return NULL;
}

static void test_remove_waits(void **state)
{
	struct fx *f = *state;
	struct remover r = { f, 0 };
	struct timespec t;
	pthread_t th;
	int early;

	pthread_mutex_lock(&st.m);
	st.gate_read = 5;
	pthread_mutex_unlock(&st.m);
	read_check(f, FSIZE, 0, MIB, 0, 0);
	read_check(f, FSIZE, MIB, MIB, 0, 0);
	wait_for(gated, 1, "a read-ahead reached the gate"); /* at 5 MiB */
	assert_int_equal(pthread_create(&th, NULL, remove_thread, &r), 0);
	/* a removal that did not wait would reach the store now, with the
	 * read still in it; give it that chance */
	clock_gettime(CLOCK_REALTIME, &t);
	t.tv_nsec += 300 * 1000 * 1000;
	if (t.tv_nsec >= 1000000000) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000;
	}
	pthread_mutex_lock(&st.m);
	while (!st.removes && !pthread_cond_timedwait(&st.cv, &st.m, &t))
		;
	early = st.removes;
	pthread_mutex_unlock(&st.m);
	open_gate(); /* first, so that a failure does not hang the test */
	assert_int_equal(pthread_join(th, NULL), 0);
	assert_int_equal(early, 0);
	assert_int_equal(st.removes, 1);
	assert_false(st.removed_while_reading);
}

/* A request within one read-ahead slot is answered from the slot, which
 * keeps those bytes, even past a write and a reader that moved on over
 * every other slot, until it is given back; one that spans two slots, or
 * is small, is copied into the caller's buffer. */
static void test_read_ref(void **state)
{
	struct fx *f = *state;
	unsigned char *w = malloc(MIB);
	struct ra_stats s0, s1;
	const void *data;
	const unsigned char *p;
	void *ref;
	ssize_t n;

	prime(f);
	n = f->ops->read_ref(f->ra, INO, &f->l, FSIZE, 2 * MIB, f->buf, MIB,
			     &data, &ref);
	assert_int_equal(n, (ssize_t)MIB);
	assert_non_null(ref);
	assert_ptr_not_equal(data, f->buf);
	p = data;
	/* rewritten, and read on to the end: every slot goes round */
	fill(w, 2 * MIB, MIB, 1);
	assert_int_equal(f->ops->write(f->ra, INO, &f->l, 2 * MIB, w, MIB),
			 (ssize_t)MIB);
	for (uint64_t off = 3 * MIB; off < FSIZE; off += MIB)
		read_check(f, FSIZE, off, MIB, 0, 0);
	for (uint64_t i = 0; i < MIB; i++)
		if (p[i] != pat(2 * MIB + i, 0))
			fail_msg("kept byte %llu changed",
				 (unsigned long long)(2 * MIB + i));
	f->ops->read_done(f->ra, ref);
	read_check(f, FSIZE, 2 * MIB, MIB, 1, 0);

	/* two slots (a jump, and read ahead from the second request on):
	 * copied */
	read_check(f, FSIZE, 16 * MIB, MIB, 0, 0);
	read_check(f, FSIZE, 17 * MIB, MIB, 0, 0);
	ra_stats(f->ra, &s0);
	n = f->ops->read_ref(f->ra, INO, &f->l, FSIZE, 18 * MIB + 4096,
			     f->buf, MIB, &data, &ref);
	ra_stats(f->ra, &s1);
	assert_int_equal(s1.hits, s0.hits + 1);
	assert_int_equal(n, (ssize_t)MIB);
	assert_ptr_equal(data, f->buf);
	assert_null(ref);
	for (uint64_t i = 0; i < MIB; i++)
		if (f->buf[i] != pat(18 * MIB + 4096 + i, 0))
			fail_msg("byte %llu",
				 (unsigned long long)(18 * MIB + 4096 + i));
	/* small: passes through, copied */
	n = f->ops->read_ref(f->ra, INO, &f->l, FSIZE, 0, f->buf, 4096, &data,
			     &ref);
	assert_int_equal(n, 4096);
	assert_ptr_equal(data, f->buf);
	assert_null(ref);
	free(w);
}

static void test_passes_through(void **state)
{
	struct fx *f = *state;
	struct ra_stats s;

	/* small requests */
	for (uint64_t off = 0; off < 4 * MIB; off += 64 << 10)
		read_check(f, FSIZE, off, 64 << 10, 0, 0);
	/* random ones: every request far from the last */
	for (int i = 0; i < 16; i++)
		read_check(f, FSIZE, (uint64_t)(i / 2 + (i % 2 ? 20 : 0)) * MIB,
			   MIB, 0, 0);
	ra_stats(f->ra, &s);
	assert_int_equal(s.issued, 0);
	assert_int_equal(st.reads, 64 + 16);
}

static void test_off(void **state)
{
	struct fx *f = *state;
	struct ra_stats s;

	for (uint64_t off = 0; off < 16 * MIB; off += MIB)
		read_check(f, FSIZE, off, MIB, 0, 0);
	ra_stats(f->ra, &s);
	assert_int_equal(s.issued, 0);
	assert_int_equal(st.reads, 16);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_sequential, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_write_makes_stale, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_truncate_makes_stale,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_fallocate_makes_stale,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_write_during_readahead,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_failed_readahead, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_remove_waits, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_read_ref, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_passes_through, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_off, setup_off, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
