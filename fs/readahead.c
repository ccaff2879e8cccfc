/*
 * readahead.c - the daemon's read-ahead (readahead.h).
 *
 * A stream follows one inode read in sequence: the end of its furthest
 * request (hi) and where its next read-ahead starts (pf).  Its slots are
 * whole megabytes of the file at megabyte boundaries (the kernel's READs
 * of a sequential reader are 1 MiB at such boundaries: max_pages 256),
 * on huge pages so that a slot is one direct read of few segments (util
 * tbuf.c).  A request reads ahead only once it continues its stream (a
 * random reader never triggers it); a request that finds its bytes
 * being read ahead waits for them instead of reading them a second time.
 *
 * Staleness: every write, truncate, fallocate and removal of the inode
 * moves its stream's gen before and after the change; a slot carries the
 * gen it was started under and serves only while that is current.  A
 * read-ahead started before or during a change is therefore never
 * served after it, and one started after reads the changed bytes.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "readahead.h"
#include "util.h"

#define RA_SLOT ((uint64_t)1 << 20)
/* smaller requests are a small reader's, whom the kernel's page cache
 * serves well enough: they pass through */
#define RA_MIN_REQ ((size_t)128 << 10)
#define RA_MAX_WINDOW ((size_t)64 << 20)
#define RA_STREAMS 4
/* reads in flight at once.  Two kept a loop-backed ext4 at its 3 GB/s in
 * a bare loop of direct 1 MiB reads on huge pages, but a store's read is
 * also its checksum pass and, on an EC pool, k shard reads one after the
 * other: with three, requests still waited for their slot about five
 * times per megabyte; six took a cold 1 GiB read from 2.3-2.7 to
 * 2.5-2.9 GB/s at size 1 and from 1.9-2.1 to 2.5-2.6 GB/s on EC 2+1, and
 * eight gained nothing more (docs/performance.md) */
#define RA_THREADS 6

enum { SL_EMPTY, SL_PENDING, SL_READY };

struct slot {
	uint64_t off; /* in the file, a multiple of RA_SLOT */
	size_t len;   /* READY: the bytes read (short at the end) */
	uint64_t gen; /* the stream's gen when it was started */
	int state;
	int users;  /* requests copying out of it */
	int served; /* a request took it to its end */
	unsigned char *buf;
};

struct stream {
	uint64_t ino; /* 0: free */
	uint64_t gen;
	struct ol_layout layout;
	uint64_t size; /* the file's size at its last request */
	uint64_t hi, pf;
	uint64_t used; /* tick of its last request */
	int inflight;  /* slots PENDING */
	unsigned char *mem;
	struct slot *slots;
};

struct task {
	int s, k;
};

struct fs_ra {
	const struct vfs_data_ops *in;
	void *ictx;
	struct vfs_data_ops ops;
	size_t window;
	int nslots;
	void (*thread_init)(void);
	pthread_mutex_t m;
	pthread_cond_t work; /* a task queued, or stop */
	pthread_cond_t done; /* a slot left PENDING */
	struct task *q;
	int qhead, qlen, qcap;
	int stop, nth;
	pthread_t th[RA_THREADS];
	uint64_t tick;
	struct stream st[RA_STREAMS];
	struct ra_stats stats;
};

static uint64_t up(uint64_t x)
{
	return (x + RA_SLOT - 1) & ~(RA_SLOT - 1);
}

/* ---- streams (ra->m held) ---- */

static struct stream *find(fs_ra *ra, uint64_t ino)
{
	for (int i = 0; i < RA_STREAMS; i++)
		if (ra->st[i].ino == ino)
			return &ra->st[i];
	return NULL;
}

/* The stream starts over at [off, off + len) of a file of size bytes:
 * nothing read ahead so far serves. */
static void restart(struct stream *s, const struct ol_layout *l,
		    uint64_t size, uint64_t off, size_t len)
{
	s->gen++;
	s->layout = *l;
	s->size = size;
	s->hi = off + len;
	s->pf = up(off + len);
}

/* A stream for ino: the least recently used one with nothing in flight,
 * its memory made on first use; NULL when every one is busy. */
static struct stream *claim(fs_ra *ra, uint64_t ino)
{
	struct stream *best = NULL;

	for (int i = 0; i < RA_STREAMS; i++) {
		struct stream *s = &ra->st[i];

		if (s->inflight)
			continue;
		if (!best || !s->ino || (best->ino && s->used < best->used))
			best = s;
		if (!s->ino)
			break;
	}
	if (!best)
		return NULL;
	if (!best->mem) {
		best->slots = calloc((size_t)ra->nslots, sizeof(*best->slots));
		best->mem = cfs_huge_map((size_t)ra->nslots * RA_SLOT);
		if (!best->slots || !best->mem) {
			free(best->slots);
			cfs_huge_unmap(best->mem, (size_t)ra->nslots * RA_SLOT);
			best->slots = NULL;
			best->mem = NULL;
			return NULL;
		}
		for (int k = 0; k < ra->nslots; k++)
			best->slots[k].buf = best->mem + (size_t)k * RA_SLOT;
	}
	best->ino = ino;
	for (int k = 0; k < ra->nslots; k++)
		best->slots[k].state = SL_EMPTY;
	return best;
}

static struct slot *slot_at(fs_ra *ra, struct stream *s, uint64_t off)
{
	for (int k = 0; k < ra->nslots; k++) {
		struct slot *sl = &s->slots[k];

		if (sl->state != SL_EMPTY && sl->gen == s->gen && sl->off == off)
			return sl;
	}
	return NULL;
}

/* A slot that may be read into: not being read or copied from, and
 * stale, or taken, or far enough behind the reader not to be asked
 * for again. */
static struct slot *free_slot(fs_ra *ra, struct stream *s)
{
	uint64_t behind = s->hi > ra->window ? s->hi - ra->window : 0;

	for (int k = 0; k < ra->nslots; k++) {
		struct slot *sl = &s->slots[k];

		if (sl->state == SL_PENDING || sl->users)
			continue;
		if (sl->state == SL_EMPTY || sl->gen != s->gen || sl->served ||
		    sl->off + RA_SLOT <= behind)
			return sl;
	}
	return NULL;
}

static void enqueue(fs_ra *ra, int si, int k)
{
	if (ra->qlen == ra->qcap) { /* cannot happen: a slot is queued once */
		struct slot *sl = &ra->st[si].slots[k];

		sl->state = SL_EMPTY;
		ra->st[si].inflight--;
		return;
	}
	ra->q[(ra->qhead + ra->qlen++) % ra->qcap] = (struct task){ si, k };
	pthread_cond_signal(&ra->work);
}

/* Start read-aheads up to window bytes past the reader's front. */
static void schedule(fs_ra *ra, struct stream *s)
{
	uint64_t target = s->hi + ra->window;

	if (target > s->size)
		target = s->size;
	if (s->pf < (s->hi & ~(RA_SLOT - 1))) /* the reader passed it */
		s->pf = s->hi & ~(RA_SLOT - 1);
	while (s->pf < target) {
		struct slot *sl;

		if (slot_at(ra, s, s->pf)) {
			s->pf += RA_SLOT;
			continue;
		}
		if (!(sl = free_slot(ra, s)))
			break;
		sl->off = s->pf;
		sl->gen = s->gen;
		sl->state = SL_PENDING;
		sl->served = 0;
		sl->len = 0;
		s->inflight++;
		ra->stats.issued++;
		enqueue(ra, (int)(s - ra->st), (int)(sl - s->slots));
		s->pf += RA_SLOT;
	}
}

/*
 * [off, off + len) from the stream's slots into buf, waiting for those
 * being read: the bytes copied, or -1 when a piece is not there (not
 * read ahead, stale, failed).  len > 0, within the size.  data not NULL
 * and the bytes in one slot: not copied but pointed to (*data), and the
 * slot kept (*ref) until ra_read_done.
 */
static ssize_t serve(fs_ra *ra, struct stream *s, uint64_t off,
		     unsigned char *buf, size_t len, const void **data,
		     void **ref)
{
	struct slot *got[RA_MAX_WINDOW / RA_SLOT + 2];
	uint64_t gen = s->gen, end = off + len;
	int n;

again:
	n = 0;
	for (uint64_t p = off & ~(RA_SLOT - 1); p < end; p += RA_SLOT) {
		struct slot *sl = slot_at(ra, s, p);

		if (!sl || (size_t)n == sizeof(got) / sizeof(got[0]))
			return -1;
		if (sl->state == SL_PENDING) {
			pthread_cond_wait(&ra->done, &ra->m);
			if (s->gen != gen)
				return -1;
			goto again;
		}
		if (sl->off + sl->len < (end < p + RA_SLOT ? end : p + RA_SLOT))
			return -1; /* short: the end moved since */
		got[n++] = sl;
	}
	for (int i = 0; i < n; i++) {
		got[i]->users++;
		if (end >= got[i]->off + got[i]->len)
			got[i]->served = 1;
	}
	if (data && n == 1) { /* a user keeps it from being read into */
		*data = got[0]->buf + (off - got[0]->off);
		*ref = got[0];
		return (ssize_t)len;
	}
	pthread_mutex_unlock(&ra->m);
	for (int i = 0; i < n; i++) {
		uint64_t a = got[i]->off > off ? got[i]->off : off;
		uint64_t b = got[i]->off + RA_SLOT < end ? got[i]->off + RA_SLOT
							 : end;

		memcpy(buf + (a - off), got[i]->buf + (a - got[i]->off),
		       (size_t)(b - a));
	}
	pthread_mutex_lock(&ra->m);
	for (int i = 0; i < n; i++)
		got[i]->users--;
	return (ssize_t)len;
}

/* ---- the threads ---- */

static void *ra_thread(void *arg)
{
	fs_ra *ra = arg;

	if (ra->thread_init)
		ra->thread_init();
	pthread_mutex_lock(&ra->m);
	for (;;) {
		struct task t;
		struct stream *s;
		struct slot *sl;
		struct ol_layout l;
		uint64_t ino, size, off, gen;
		ssize_t n;

		while (!ra->stop && !ra->qlen)
			pthread_cond_wait(&ra->work, &ra->m);
		if (!ra->qlen)
			break;
		t = ra->q[ra->qhead];
		ra->qhead = (ra->qhead + 1) % ra->qcap;
		ra->qlen--;
		s = &ra->st[t.s];
		sl = &s->slots[t.k];
		gen = sl->gen;
		if (ra->stop || gen != s->gen || sl->off >= s->size) {
			n = -ECANCELED;
		} else {
			ino = s->ino;
			l = s->layout;
			size = s->size;
			off = sl->off;
			pthread_mutex_unlock(&ra->m);
			n = ra->in->read(ra->ictx, ino, &l, size, off, sl->buf,
					 (size_t)(size - off < RA_SLOT
							  ? size - off
							  : RA_SLOT));
			pthread_mutex_lock(&ra->m);
		}
		if (n >= 0 && gen == s->gen) {
			sl->state = SL_READY;
			sl->len = (size_t)n;
		} else {
			sl->state = SL_EMPTY;
			ra->stats.dropped++;
		}
		s->inflight--;
		pthread_cond_broadcast(&ra->done);
	}
	pthread_mutex_unlock(&ra->m);
	return NULL;
}

/* ---- the wrapped store ---- */

static ssize_t ra_read_ref(void *ctx, uint64_t ino,
			   const struct ol_layout *l, uint64_t size,
			   uint64_t off, void *buf, size_t len,
			   const void **data, void **ref)
{
	fs_ra *ra = ctx;
	struct stream *s;
	ssize_t n = -1;
	size_t want;

	if (data) {
		*data = buf;
		*ref = NULL;
	}
	if (!ra->window || len < RA_MIN_REQ || off >= size)
		return ra->in->read(ra->ictx, ino, l, size, off, buf, len);
	want = size - off < len ? (size_t)(size - off) : len;
	pthread_mutex_lock(&ra->m);
	if (!(s = find(ra, ino))) {
		if ((s = claim(ra, ino))) {
			restart(s, l, size, off, want);
			s->used = ++ra->tick;
		}
	} else if (size != s->size || memcmp(l, &s->layout, sizeof(*l)) ||
		   off + ra->window < s->hi || off > s->hi + ra->window) {
		/* a jump (the kernel's READs of one window come in any
		 * order), or a change it did not see come through */
		restart(s, l, size, off, want);
		s->used = ++ra->tick;
	} else {
		s->used = ++ra->tick;
		n = serve(ra, s, off, buf, want, data, ref);
		if (s->ino == ino) { /* still ours after a wait */
			if (off + want > s->hi)
				s->hi = off + want;
			schedule(ra, s);
		}
		if (n >= 0)
			ra->stats.hits++;
		else
			ra->stats.misses++;
	}
	pthread_mutex_unlock(&ra->m);
	if (n >= 0)
		return n;
	return ra->in->read(ra->ictx, ino, l, size, off, buf, len);
}

static ssize_t ra_read(void *ctx, uint64_t ino, const struct ol_layout *l,
		       uint64_t size, uint64_t off, void *buf, size_t len)
{
	return ra_read_ref(ctx, ino, l, size, off, buf, len, NULL, NULL);
}

static void ra_read_done(void *ctx, void *ref)
{
	fs_ra *ra = ctx;

	pthread_mutex_lock(&ra->m);
	((struct slot *)ref)->users--;
	pthread_mutex_unlock(&ra->m);
}

/* ino's bytes change: what was read ahead of it is stale (and what is
 * being read).  wait: also until nothing of it is in flight, and forget
 * it (a removal: its objects go). */
static void changed(fs_ra *ra, uint64_t ino, int wait)
{
	struct stream *s;

	if (!ra->window)
		return;
	pthread_mutex_lock(&ra->m);
	if ((s = find(ra, ino))) {
		s->gen++;
		/* read ahead again from the reader on */
		s->pf = s->hi & ~(RA_SLOT - 1);
		while (wait && s->inflight && s->ino == ino)
			pthread_cond_wait(&ra->done, &ra->m);
		if (wait && s->ino == ino)
			s->ino = 0;
	}
	pthread_mutex_unlock(&ra->m);
}

static ssize_t ra_write(void *ctx, uint64_t ino, const struct ol_layout *l,
			uint64_t off, const void *buf, size_t len)
{
	fs_ra *ra = ctx;
	ssize_t n;

	changed(ra, ino, 0);
	n = ra->in->write(ra->ictx, ino, l, off, buf, len);
	changed(ra, ino, 0);
	return n;
}

static int ra_truncate(void *ctx, uint64_t ino, const struct ol_layout *l,
		       uint64_t old_size, uint64_t new_size)
{
	fs_ra *ra = ctx;
	int rc;

	changed(ra, ino, 0);
	rc = ra->in->truncate(ra->ictx, ino, l, old_size, new_size);
	changed(ra, ino, 0);
	return rc;
}

static int ra_fallocate(void *ctx, uint64_t ino, const struct ol_layout *l,
			uint64_t off, uint64_t len, enum ol_falloc_mode mode)
{
	fs_ra *ra = ctx;
	int rc;

	changed(ra, ino, 0);
	rc = ra->in->fallocate(ra->ictx, ino, l, off, len, mode);
	changed(ra, ino, 0);
	return rc;
}

/* Waits for the inode's read-aheads: none reads an object while it is
 * being removed. */
static int ra_remove(void *ctx, uint64_t ino, const struct ol_layout *l,
		     uint64_t size)
{
	fs_ra *ra = ctx;

	changed(ra, ino, 1);
	return ra->in->remove(ra->ictx, ino, l, size);
}

/* ---- the rest passes through ---- */

static int ra_sync(void *ctx, uint64_t ino, const struct ol_layout *l,
		   uint64_t size)
{
	fs_ra *ra = ctx;

	return ra->in->sync(ra->ictx, ino, l, size);
}

static int ra_flush(void *ctx, uint64_t ino)
{
	fs_ra *ra = ctx;

	return ra->in->flush(ra->ictx, ino);
}

static int ra_flush_needed(void *ctx)
{
	fs_ra *ra = ctx;

	return ra->in->flush_needed(ra->ictx);
}

static int ra_removed(void *ctx, uint64_t ino)
{
	fs_ra *ra = ctx;

	return ra->in->removed(ra->ictx, ino);
}

static int ra_space(void *ctx, struct ol_space *sp)
{
	fs_ra *ra = ctx;

	return ra->in->space(ra->ictx, sp);
}

static void ra_default_layout(void *ctx, struct ol_layout *l)
{
	fs_ra *ra = ctx;

	ra->in->default_layout(ra->ictx, l);
}

static int ra_pool_lookup(void *ctx, const char *key, int64_t *id,
			  char *name, size_t len)
{
	fs_ra *ra = ctx;

	return ra->in->pool_lookup(ra->ictx, key, id, name, len);
}

static int ra_locate(void *ctx, int64_t pool, const char *objname,
		     struct ol_placement *p)
{
	fs_ra *ra = ctx;

	return ra->in->locate(ra->ictx, pool, objname, p);
}

static int ra_set_backtrace(void *ctx, uint64_t ino, const void *bt,
			    size_t len, const void *data, size_t dlen,
			    int sync)
{
	fs_ra *ra = ctx;

	return ra->in->set_backtrace(ra->ictx, ino, bt, len, data, dlen,
				     sync);
}

static int ra_get_backtrace(void *ctx, uint64_t ino, void **bt,
			    size_t *len)
{
	fs_ra *ra = ctx;

	return ra->in->get_backtrace(ra->ictx, ino, bt, len);
}

static int ra_remove_backtrace(void *ctx, uint64_t ino)
{
	fs_ra *ra = ctx;

	return ra->in->remove_backtrace(ra->ictx, ino);
}

static int ra_obj_stat(void *ctx, uint64_t ino, const struct ol_layout *l,
		       uint64_t objectno, uint64_t *size,
		       struct timespec *mtime)
{
	fs_ra *ra = ctx;

	return ra->in->obj_stat(ra->ictx, ino, l, objectno, size, mtime);
}

static int ra_allocated(void *ctx, uint64_t ino, const struct ol_layout *l,
			uint64_t size, uint64_t *bytes)
{
	fs_ra *ra = ctx;

	return ra->in->allocated(ra->ictx, ino, l, size, bytes);
}

static void ra_fsid(void *ctx, char *buf, size_t len)
{
	fs_ra *ra = ctx;

	ra->in->fsid(ra->ictx, buf, len);
}

/* The wrapper's table: an op the store lacks stays NULL (the vfs asks
 * whether one is there). */
static void wrap_ops(fs_ra *ra)
{
	const struct vfs_data_ops *in = ra->in;
	struct vfs_data_ops *o = &ra->ops;

#define W(f) o->f = in->f ? ra_##f : NULL
	W(write);
	W(read);
	W(truncate);
	W(remove);
	W(sync);
	W(flush);
	W(flush_needed);
	W(removed);
	W(space);
	W(default_layout);
	W(pool_lookup);
	W(locate);
	W(set_backtrace);
	W(get_backtrace);
	W(remove_backtrace);
	W(obj_stat);
	W(fallocate);
	W(allocated);
	W(fsid);
#undef W
	/* the store's own, if any, is not used: reads go by the slots */
	o->read_ref = in->read ? ra_read_ref : NULL;
	o->read_done = in->read ? ra_read_done : NULL;
}

fs_ra *ra_new(const struct vfs_data_ops *ops, void *ctx, size_t window,
		  void (*thread_init)(void), const struct vfs_data_ops **out_ops)
{
	fs_ra *ra = calloc(1, sizeof(*ra));

	if (!ra)
		return NULL;
	ra->in = ops;
	ra->ictx = ctx;
	if (window > RA_MAX_WINDOW)
		window = RA_MAX_WINDOW;
	ra->window = (size_t)up(window);
	/* as much behind the reader (the kernel's READs in flight) as
	 * ahead of it */
	ra->nslots = (int)(2 * ra->window / RA_SLOT);
	ra->thread_init = thread_init;
	pthread_mutex_init(&ra->m, NULL);
	pthread_cond_init(&ra->work, NULL);
	pthread_cond_init(&ra->done, NULL);
	wrap_ops(ra);
	if (ra->window) {
		ra->qcap = ra->nslots * RA_STREAMS;
		if (!(ra->q = calloc((size_t)ra->qcap, sizeof(*ra->q)))) {
			ra_free(ra);
			return NULL;
		}
		for (; ra->nth < RA_THREADS; ra->nth++)
			if (pthread_create(&ra->th[ra->nth], NULL, ra_thread,
					   ra))
				break;
		if (!ra->nth) /* no thread: no read-ahead */
			ra->window = 0;
	}
	*out_ops = &ra->ops;
	return ra;
}

void ra_free(fs_ra *ra)
{
	if (!ra)
		return;
	pthread_mutex_lock(&ra->m);
	ra->stop = 1;
	pthread_cond_broadcast(&ra->work);
	pthread_mutex_unlock(&ra->m);
	for (int i = 0; i < ra->nth; i++)
		pthread_join(ra->th[i], NULL);
	for (int i = 0; i < RA_STREAMS; i++) {
		cfs_huge_unmap(ra->st[i].mem, (size_t)ra->nslots * RA_SLOT);
		free(ra->st[i].slots);
	}
	free(ra->q);
	pthread_cond_destroy(&ra->work);
	pthread_cond_destroy(&ra->done);
	pthread_mutex_destroy(&ra->m);
	free(ra);
}

void ra_stats(fs_ra *ra, struct ra_stats *s)
{
	pthread_mutex_lock(&ra->m);
	*s = ra->stats;
	pthread_mutex_unlock(&ra->m);
}
