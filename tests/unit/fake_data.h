/*
 * fake_data.h - an in-memory stand-in for objlayer (vfs_data_ops) used by
 * the vfs/mds unit tests: sparse files in 64 KiB chunks, a write budget to
 * provoke ENOSPC and partial writes, call counters, object sizes for the
 * crash-recovery probe (each chunk remembers how far it was written) and a
 * hook run while a file's data is being removed.  Header-only so each
 * test program gets its own copy.
 */
#ifndef CRUSHFS_FAKE_DATA_H
#define CRUSHFS_FAKE_DATA_H

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vfs.h"

#define FAKE_CHUNK 65536

struct fake_chunk {
	uint64_t ino, idx;
	unsigned char *data;
	size_t len; /* bytes from the chunk's start to its last written one */
	struct timespec mtime;
	struct fake_chunk *next;
};

struct fake_store {
	pthread_mutex_t m;
	struct fake_chunk *head;
	/* bytes still writable; UINT64_MAX = unlimited */
	uint64_t budget;
	int writes, reads, truncates, removes, syncs, fallocs, stats;
	int stat_err; /* obj_stat fails with it when set */
	uint64_t last_removed_ino, last_removed_size;
	uint64_t last_trunc_old, last_trunc_new;
	int last_falloc_mode;
	uint64_t last_falloc_off, last_falloc_len;
	/* called by remove (outside the store's lock) before the data goes */
	void (*on_remove)(uint64_t ino, void *arg);
	void *on_remove_arg;
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
		{
			struct fake_chunk *c = fake_find(ino, o / FAKE_CHUNK, 1);

			memcpy(c->data + in, (const char *)buf + done, n);
			if (c->len < in + n)
				c->len = in + n;
			clock_gettime(CLOCK_REALTIME, &c->mtime);
		}
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
			if (c->len > in)
				c->len = in;
		}
		p = &c->next;
	}
}

static int fake_truncate(void *ctx, uint64_t ino, const struct ol_layout *l,
			 uint64_t old_size, uint64_t new_size)
{
	(void)ctx, (void)l;
	pthread_mutex_lock(&fake.m);
	fake.truncates++;
	fake.last_trunc_old = old_size;
	fake.last_trunc_new = new_size;
	/* ol_truncate's contract: what lies past the smaller size is cut */
	fake_drop(ino, new_size < old_size ? new_size : old_size);
	pthread_mutex_unlock(&fake.m);
	return 0;
}

static int fake_remove(void *ctx, uint64_t ino, const struct ol_layout *l,
		       uint64_t size)
{
	(void)ctx, (void)l, (void)size;
	if (fake.on_remove)
		fake.on_remove(ino, fake.on_remove_arg);
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

/* One pool, 1 'fake_data'. */
static int fake_pool(void *ctx, const char *key, int64_t *id, char *name,
		     size_t len)
{
	(void)ctx;
	if (strcmp(key, "1") && strcmp(key, "fake_data"))
		return -ENOENT;
	*id = 1;
	if (name)
		snprintf(name, len, "fake_data");
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

static int fake_locate(void *ctx, int64_t pool, const char *name,
		       struct ol_placement *p)
{
	(void)pool;
	(void)ctx;
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	snprintf(p->pgid, sizeof(p->pgid), "1.%x", (unsigned)strlen(name));
	p->nup = p->nacting = 3;
	for (int i = 0; i < 3; i++)
		p->up[i] = p->acting[i] = i;
	return 0;
}

/* An object's size is how far its bytes were written: map each chunk's
 * written part onto the layout's objects. */
static int fake_obj_stat(void *ctx, uint64_t ino, const struct ol_layout *l,
			 uint64_t objectno, uint64_t *size,
			 struct timespec *mtime)
{
	struct ol_extent ext[64];
	int found = 0;

	(void)ctx;
	*size = 0;
	memset(mtime, 0, sizeof(*mtime));
	pthread_mutex_lock(&fake.m);
	fake.stats++;
	if (fake.stat_err) {
		pthread_mutex_unlock(&fake.m);
		return fake.stat_err;
	}
	for (struct fake_chunk *c = fake.head; c; c = c->next) {
		int n;

		if (c->ino != ino || c->len == 0)
			continue;
		n = ol_file_to_extents(l, c->idx * FAKE_CHUNK, c->len, ext, 64);
		for (int i = 0; i < n; i++) {
			if (ext[i].objectno != objectno)
				continue;
			found = 1;
			if (*size < ext[i].obj_off + ext[i].len)
				*size = ext[i].obj_off + ext[i].len;
			if (c->mtime.tv_sec > mtime->tv_sec)
				*mtime = c->mtime;
		}
	}
	pthread_mutex_unlock(&fake.m);
	return found ? 0 : -ENOENT;
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
		/* an allocation makes the objects hold the bytes */
		if (c && mode != OL_FALLOC_PUNCH && c->len < in + n)
			c->len = in + n;
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
	.pool_lookup = fake_pool,
	.locate = fake_locate,
	.obj_stat = fake_obj_stat,
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
	fake.syncs = fake.fallocs = fake.stats = fake.stat_err = 0;
	fake.last_removed_ino = fake.last_removed_size = 0;
	fake.last_trunc_old = fake.last_trunc_new = 0;
	fake.on_remove = NULL;
	fake.on_remove_arg = NULL;
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
