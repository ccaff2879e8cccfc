/*
 * fake_data.h - an in-memory stand-in for objlayer (vfs_data_ops) used by
 * the vfs/mds unit tests: sparse files in 64 KiB chunks, a write budget to
 * provoke ENOSPC and partial writes, and call counters.  Header-only so
 * each test program gets its own copy.
 */
#ifndef CRUSHFS_FAKE_DATA_H
#define CRUSHFS_FAKE_DATA_H

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vfs.h"

#define FAKE_CHUNK 65536

struct fake_chunk {
	uint64_t ino, idx;
	unsigned char *data;
	struct fake_chunk *next;
};

struct fake_store {
	pthread_mutex_t m;
	struct fake_chunk *head;
	/* bytes still writable; UINT64_MAX = unlimited */
	uint64_t budget;
	int writes, reads, truncates, removes, syncs, fallocs;
	uint64_t last_removed_ino, last_removed_size;
	uint64_t last_trunc_old, last_trunc_new;
	int last_falloc_mode;
	uint64_t last_falloc_off, last_falloc_len;
	uint64_t space_total, space_used, space_avail;
};

static struct fake_store fake = { .m = PTHREAD_MUTEX_INITIALIZER,
				  .budget = UINT64_MAX,
				  .space_avail = UINT64_MAX };

static struct fake_chunk *fake_find(uint64_t ino, uint64_t idx, int create)
{
	struct fake_chunk *c;

	for (c = fake.head; c; c = c->next)
		if (c->ino == ino && c->idx == idx)
			return c;
	if (!create)
		return NULL;
	c = calloc(1, sizeof(*c));
	c->data = calloc(1, FAKE_CHUNK);
	c->ino = ino;
	c->idx = idx;
	c->next = fake.head;
	fake.head = c;
	return c;
}

static ssize_t fake_write(void *ctx, uint64_t ino, const struct ol_layout *l,
			  uint64_t off, const void *buf, size_t len)
{
	size_t done = 0;

	(void)ctx, (void)l;
	pthread_mutex_lock(&fake.m);
	fake.writes++;
	while (done < len) {
		uint64_t o = off + done;
		size_t in = o % FAKE_CHUNK;
		size_t n = FAKE_CHUNK - in;

		if (n > len - done)
			n = len - done;
		if (fake.budget != UINT64_MAX) {
			if (fake.budget == 0)
				break;
			if (n > fake.budget)
				n = (size_t)fake.budget;
			fake.budget -= n;
		}
		memcpy(fake_find(ino, o / FAKE_CHUNK, 1)->data + in,
		       (const char *)buf + done, n);
		done += n;
	}
	pthread_mutex_unlock(&fake.m);
	return done ? (ssize_t)done : -ENOSPC;
}

static ssize_t fake_read(void *ctx, uint64_t ino, const struct ol_layout *l,
			 uint64_t size, uint64_t off, void *buf, size_t len)
{
	size_t done = 0;

	(void)ctx, (void)l;
	if (off >= size)
		return 0;
	if (len > size - off)
		len = (size_t)(size - off);
	pthread_mutex_lock(&fake.m);
	fake.reads++;
	while (done < len) {
		uint64_t o = off + done;
		size_t in = o % FAKE_CHUNK;
		size_t n = FAKE_CHUNK - in;
		struct fake_chunk *c = fake_find(ino, o / FAKE_CHUNK, 0);

		if (n > len - done)
			n = len - done;
		if (c)
			memcpy((char *)buf + done, c->data + in, n);
		else
			memset((char *)buf + done, 0, n);
		done += n;
	}
	pthread_mutex_unlock(&fake.m);
	return (ssize_t)done;
}

static void fake_drop(uint64_t ino, uint64_t from)
{
	struct fake_chunk **p = &fake.head;

	while (*p) {
		struct fake_chunk *c = *p;

		if (c->ino == ino && c->idx * FAKE_CHUNK >= from) {
			*p = c->next;
			free(c->data);
			free(c);
			continue;
		}
		if (c->ino == ino && from > c->idx * FAKE_CHUNK &&
		    from < (c->idx + 1) * FAKE_CHUNK) {
			size_t in = from % FAKE_CHUNK;

			memset(c->data + in, 0, FAKE_CHUNK - in);
		}
		p = &c->next;
	}
}

static int fake_truncate(void *ctx, uint64_t ino, const struct ol_layout *l,
			 uint64_t old_size, uint64_t new_size)
{
	(void)ctx, (void)l, (void)old_size;
	pthread_mutex_lock(&fake.m);
	fake.truncates++;
	fake.last_trunc_old = old_size;
	fake.last_trunc_new = new_size;
	fake_drop(ino, new_size);
	pthread_mutex_unlock(&fake.m);
	return 0;
}

static int fake_remove(void *ctx, uint64_t ino, const struct ol_layout *l,
		       uint64_t size)
{
	(void)ctx, (void)l, (void)size;
	pthread_mutex_lock(&fake.m);
	fake.removes++;
	fake.last_removed_ino = ino;
	fake.last_removed_size = size;
	fake_drop(ino, 0);
	pthread_mutex_unlock(&fake.m);
	return 0;
}

static int fake_sync(void *ctx, uint64_t ino, const struct ol_layout *l,
		     uint64_t size)
{
	(void)ctx, (void)ino, (void)l, (void)size;
	pthread_mutex_lock(&fake.m);
	fake.syncs++;
	pthread_mutex_unlock(&fake.m);
	return 0;
}

static int fake_space(void *ctx, struct ol_space *s)
{
	(void)ctx;
	s->total = fake.space_total;
	s->used = fake.space_used;
	s->max_avail = fake.space_avail;
	return 0;
}

static void fake_layout(void *ctx, struct ol_layout *l)
{
	(void)ctx;
	l->stripe_unit = 4 << 20;
	l->stripe_count = 1;
	l->object_size = 4 << 20;
	l->pool = 1;
}

static int fake_locate(void *ctx, const char *name, struct ol_placement *p)
{
	(void)ctx;
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	snprintf(p->pgid, sizeof(p->pgid), "1.%x", (unsigned)strlen(name));
	p->nup = p->nacting = 3;
	for (int i = 0; i < 3; i++)
		p->up[i] = p->acting[i] = i;
	return 0;
}

/* ol_fallocate's contract in miniature: an allocation or zeroing takes
 * len bytes of the budget (all or nothing: -ENOSPC), a punch or zeroing
 * clears the bytes. */
static int fake_fallocate(void *ctx, uint64_t ino, const struct ol_layout *l,
			  uint64_t off, uint64_t len, enum ol_falloc_mode mode)
{
	(void)ctx, (void)l;
	pthread_mutex_lock(&fake.m);
	fake.fallocs++;
	fake.last_falloc_mode = (int)mode;
	fake.last_falloc_off = off;
	fake.last_falloc_len = len;
	if (mode != OL_FALLOC_PUNCH && fake.budget != UINT64_MAX) {
		if (len > fake.budget) {
			pthread_mutex_unlock(&fake.m);
			return -ENOSPC;
		}
		fake.budget -= len;
	}
	for (uint64_t o = off; o < off + len;) {
		size_t in = o % FAKE_CHUNK;
		uint64_t n = FAKE_CHUNK - in;
		struct fake_chunk *c =
			fake_find(ino, o / FAKE_CHUNK, mode != OL_FALLOC_PUNCH);

		if (n > off + len - o)
			n = off + len - o;
		if (c && mode != OL_FALLOC_ALLOCATE)
			memset(c->data + in, 0, (size_t)n);
		o += n;
	}
	pthread_mutex_unlock(&fake.m);
	return 0;
}

static const struct vfs_data_ops fake_ops = {
	.write = fake_write,
	.read = fake_read,
	.truncate = fake_truncate,
	.remove = fake_remove,
	.sync = fake_sync,
	.space = fake_space,
	.default_layout = fake_layout,
	.locate = fake_locate,
	.fallocate = fake_fallocate,
};

static void fake_reset(void)
{
	pthread_mutex_lock(&fake.m);
	while (fake.head) {
		struct fake_chunk *c = fake.head;

		fake.head = c->next;
		free(c->data);
		free(c);
	}
	fake.budget = UINT64_MAX;
	fake.space_avail = UINT64_MAX;
	fake.writes = fake.reads = fake.truncates = fake.removes = 0;
	fake.syncs = fake.fallocs = 0;
	fake.last_removed_ino = fake.last_removed_size = 0;
	fake.last_trunc_old = fake.last_trunc_new = 0;
	pthread_mutex_unlock(&fake.m);
}

/* Chunks held for ino (0: all). */
static int fake_chunks(uint64_t ino)
{
	int n = 0;

	pthread_mutex_lock(&fake.m);
	for (struct fake_chunk *c = fake.head; c; c = c->next)
		n += !ino || c->ino == ino;
	pthread_mutex_unlock(&fake.m);
	return n;
}

#endif
