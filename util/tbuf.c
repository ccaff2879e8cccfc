/*
 * tbuf.c - I/O buffers kept per thread.
 *
 * A big direct read or write moves its bytes straight between the disk
 * and this buffer.  In 4 KiB pages a 1 MiB buffer is 256 segments, more
 * than a loop device takes in one request (max_segments 128 here), so
 * the block layer splits it; on one transparent huge page it is one
 * segment.  Measured on this machine (docs/performance.md): O_DIRECT
 * reads of 1 MiB from a file on a loop-backed ext4 ran at 1.2-1.7 GB/s
 * into 4 KiB pages and 3.1 GB/s into a huge page (3.5 GB/s at 4 MiB);
 * buffered reads of the same file 2.9-3.0 GB/s.  Kept, as a fresh
 * buffer per request is an mmap, its page faults (the zeroing of every
 * page) and an munmap.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "util.h"

#define HUGE_SZ ((size_t)2 << 20)
/* under this a buffer is plain aligned heap: a huge page is 2 MiB of
 * memory whatever the request */
#define HUGE_MIN ((size_t)256 << 10)

struct tbuf {
	void *p;
	size_t cap;
	int mapped; /* p is an mmap of cap bytes (else malloc'ed) */
};

static pthread_key_t tbuf_key;
static pthread_once_t tbuf_once = PTHREAD_ONCE_INIT;
static int tbuf_key_ok;

static void drop(struct tbuf *b)
{
	if (b->mapped)
		cfs_huge_unmap(b->p, b->cap);
	else
		free(b->p);
	b->p = NULL;
	b->cap = 0;
	b->mapped = 0;
}

static void tbuf_free(void *arg)
{
	struct tbuf *t = arg;

	for (int i = 0; i < CFS_TBUF_SLOTS; i++)
		drop(&t[i]);
	free(t);
}

static void tbuf_init(void)
{
	tbuf_key_ok = pthread_key_create(&tbuf_key, tbuf_free) == 0;
}

static size_t huge_round(size_t len)
{
	return (len + HUGE_SZ - 1) & ~(HUGE_SZ - 1);
}

/* len bytes rounded up to whole huge pages, at a HUGE_SZ boundary, the
 * mapping trimmed to exactly that range so the kernel can back it with
 * whole huge pages; NULL when out of memory. */
void *cfs_huge_map(size_t len)
{
	size_t cap = huge_round(len), over = cap + HUGE_SZ;
	uint8_t *raw, *p;

	raw = mmap(NULL, over, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (raw == MAP_FAILED)
		return NULL;
	p = (uint8_t *)(((uintptr_t)raw + HUGE_SZ - 1) & ~(HUGE_SZ - 1));
	if (p > raw)
		munmap(raw, (size_t)(p - raw));
	if (raw + over > p + cap)
		munmap(p + cap, (size_t)(raw + over - (p + cap)));
	/* a hint: where THP is off or no huge page is free, the buffer
	 * is ordinary pages and only the speed differs */
	(void)madvise(p, cap, MADV_HUGEPAGE);
	return p;
}

void cfs_huge_unmap(void *p, size_t len)
{
	if (p)
		munmap(p, huge_round(len));
}

void *cfs_tbuf(int slot, size_t len)
{
	struct tbuf *t, *b;
	void *p;
	size_t cap;

	if (slot < 0 || slot >= CFS_TBUF_SLOTS)
		return NULL;
	if (pthread_once(&tbuf_once, tbuf_init) || !tbuf_key_ok)
		return NULL;
	t = pthread_getspecific(tbuf_key);
	if (!t) {
		if (!(t = calloc(CFS_TBUF_SLOTS, sizeof(*t))))
			return NULL;
		if (pthread_setspecific(tbuf_key, t)) {
			free(t);
			return NULL;
		}
	}
	b = &t[slot];
	if (!len)
		len = 1;
	if (b->cap >= len)
		return b->p;
	if (len >= HUGE_MIN) {
		cap = huge_round(len);
		if (!(p = cfs_huge_map(cap)))
			return NULL;
		drop(b);
		b->mapped = 1;
	} else {
		cap = (len + 4095) & ~(size_t)4095;
		if (posix_memalign(&p, 4096, cap))
			return NULL;
		drop(b);
	}
	b->p = p;
	b->cap = cap;
	return p;
}
