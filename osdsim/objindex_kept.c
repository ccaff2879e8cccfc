/*
 * objindex_kept.c - the object index's kept intents and the records that
 * ride with them (objindex.h cfs_index_intent_kept; objlayer kept.c says
 * why a replicated write keeps its intent).
 *
 * A write covered by a kept intent leaves its record here, not in
 * RocksDB: every read of the index in this process sees it
 * (cfs_index_get, cfs_index_foreach merge it), and it is committed in the
 * batch that drops the intent, or that changes the intent otherwise.  A
 * crash loses it, and the intent still in the index makes the next open
 * take the newest copy that verifies (objlayer scrub.c settle_object): the
 * copies hold what the record said.  Another process reading the index
 * (read-only) sees the record before it, and the intent: a copy newer
 * than the record from the intent's version on is a write in flight to it
 * (objlayer objio_read.c unsettled).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kv.h"
#include "osdsim_i.h"
#include "util.h"

#define KEPT_BUCKETS 1024

struct index_kept {
	struct index_kept *next;
	const void *owner;
	int64_t pool;
	int has_rec; /* rec is the object's record, not committed yet */
	struct cfs_objinfo rec;
	char name[];
};

int kept_open(cfs_cluster *c)
{
	pthread_mutex_init(&c->kept_lock, NULL);
	if (c->rdonly)
		return 0;
	c->kept = calloc(KEPT_BUCKETS, sizeof(*c->kept));
	return c->kept ? 0 : -ENOMEM;
}

/* Where (pool, name)'s entry is, or would go; under kept_lock. */
static struct index_kept **kept_find(cfs_cluster *c, int64_t pool,
				     const char *name)
{
	struct index_kept **pp =
		&c->kept[(cfs_fnv1a(name, strlen(name)) ^ (uint32_t)pool) %
			 KEPT_BUCKETS];

	while (*pp && ((*pp)->pool != pool || strcmp((*pp)->name, name)))
		pp = &(*pp)->next;
	return pp;
}

/* The object's pending record, if it has one (1). */
int kept_record(cfs_cluster *c, int64_t pool, const char *name,
		struct cfs_objinfo *oi)
{
	struct index_kept *e;
	int r = 0;

	if (!c->kept)
		return 0;
	pthread_mutex_lock(&c->kept_lock);
	e = *kept_find(c, pool, name);
	if (e && e->has_rec) {
		*oi = e->rec;
		r = 1;
	}
	pthread_mutex_unlock(&c->kept_lock);
	return r;
}

void kept_forget(cfs_cluster *c, int64_t pool, const char *name)
{
	struct index_kept **pp, *e;

	if (!c->kept)
		return;
	pthread_mutex_lock(&c->kept_lock);
	pp = kept_find(c, pool, name);
	e = *pp;
	if (e)
		*pp = e->next;
	pthread_mutex_unlock(&c->kept_lock);
	free(e);
}

static void batch_record(kv_batch *b, const struct index_kept *e)
{
	char k[300];
	unsigned char v[16];
	size_t kl;

	if (!e->has_rec)
		return;
	kl = index_key('o', e->pool, e->name, k, sizeof(k));
	if (!kl)
		return;
	index_put64(v, e->rec.version);
	index_put64(v + 8, e->rec.size);
	kv_batch_put(b, k, kl, v, sizeof(v));
}

void kept_batch_pending(cfs_cluster *c, kv_batch *b, int64_t pool,
			const char *name)
{
	struct index_kept *e;

	if (!c->kept)
		return;
	pthread_mutex_lock(&c->kept_lock);
	e = *kept_find(c, pool, name);
	if (e)
		batch_record(b, e);
	pthread_mutex_unlock(&c->kept_lock);
}

/* e's pending record and the deletion of its intent, into b. */
static void batch_drop(kv_batch *b, const struct index_kept *e)
{
	char k[300];
	size_t kl = index_key('i', e->pool, e->name, k, sizeof(k));

	batch_record(b, e);
	if (kl)
		kv_batch_delete(b, k, kl);
}

int kept_set_record(cfs_cluster *c, int64_t pool, const char *name,
		    const struct cfs_objinfo *oi)
{
	struct index_kept *e;

	if (!c->kept)
		return 0;
	pthread_mutex_lock(&c->kept_lock);
	e = *kept_find(c, pool, name);
	if (e) {
		e->rec = *oi;
		e->has_rec = 1;
	}
	pthread_mutex_unlock(&c->kept_lock);
	return e != NULL;
}

int cfs_index_intent_kept(cfs_cluster *c, int64_t pool, const char *name,
			  const struct cfs_objinfo *next, const void *owner,
			  int *wrote)
{
	struct index_kept **pp, *e;
	int r;

	*wrote = 0;
	if (!c->kept)
		return c->rdonly ? -EROFS : -ENOMEM;
	pthread_mutex_lock(&c->kept_lock);
	e = *kept_find(c, pool, name);
	r = e && e->owner == owner;
	pthread_mutex_unlock(&c->kept_lock);
	if (r)
		return 0;
	/* allocated before the put: an intent in the index that nobody
	 * will drop would only be settled at the next open */
	e = malloc(sizeof(*e) + strlen(name) + 1);
	if (!e)
		return -ENOMEM;
	e->owner = owner;
	e->pool = pool;
	e->has_rec = 0;
	strcpy(e->name, name);
	r = index_put_intent(c, pool, name, next);
	if (r) {
		free(e);
		return r;
	}
	pthread_mutex_lock(&c->kept_lock);
	pp = kept_find(c, pool, name);
	if (*pp) { /* another owner's: this one holds the intent now */
		(*pp)->owner = owner;
		free(e);
	} else {
		e->next = NULL;
		*pp = e;
	}
	pthread_mutex_unlock(&c->kept_lock);
	*wrote = 1;
	return 0;
}

int cfs_index_drop_kept(cfs_cluster *c, const void *owner, size_t n,
			const int64_t *pools, char *const *names)
{
	kv_batch *b;
	size_t nd = 0;
	int r = 0;

	if (!c->kept || n == 0)
		return 0;
	b = kv_batch_new();
	if (!b)
		return -ENOMEM;
	pthread_mutex_lock(&c->kept_lock);
	for (size_t i = 0; i < n; i++) {
		struct index_kept *e = *kept_find(c, pools[i], names[i]);

		if (e && e->owner == owner) {
			batch_drop(b, e);
			nd++;
		}
	}
	pthread_mutex_unlock(&c->kept_lock);
	if (nd)
		r = kv_batch_commit(c->index, b, 0);
	kv_batch_free(b);
	if (r) /* they stay kept, records and all, for the next round */
		return r;
	/* Forgotten only now: until the commit a reader without the
	 * object's lock (a file's object list, a stat) must still find the
	 * pending record here, or it would find none at all.  The caller's
	 * locks keep the entries as they were batched. */
	pthread_mutex_lock(&c->kept_lock);
	for (size_t i = 0; i < n; i++) {
		struct index_kept **pp = kept_find(c, pools[i], names[i]), *e;

		e = *pp;
		if (e && e->owner == owner) {
			*pp = e->next;
			free(e);
		}
	}
	pthread_mutex_unlock(&c->kept_lock);
	return 0;
}

static int pend_cmp(const void *a, const void *b)
{
	return strcmp(((const struct index_pend *)a)->name,
		      ((const struct index_pend *)b)->name);
}

void kept_pending_free(struct index_pend *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(p[i].name);
	free(p);
}

/* The pending records of pool whose names start with prefix, sorted as
 * the index's keys are (bytes). */
int kept_pending(cfs_cluster *c, int64_t pool, const char *prefix,
		      struct index_pend **out, size_t *n)
{
	size_t pl = strlen(prefix), cnt = 0, cap = 0;
	struct index_pend *v = NULL;
	int r = 0;

	*out = NULL;
	*n = 0;
	if (!c->kept)
		return 0;
	pthread_mutex_lock(&c->kept_lock);
	for (size_t i = 0; i < KEPT_BUCKETS && !r; i++)
		for (struct index_kept *e = c->kept[i]; e && !r; e = e->next) {
			if (!e->has_rec || e->pool != pool ||
			    strncmp(e->name, prefix, pl))
				continue;
			if (cnt == cap) {
				struct index_pend *w;

				cap = cap ? 2 * cap : 16;
				w = realloc(v, cap * sizeof(*v));
				if (!w) {
					r = -ENOMEM;
					break;
				}
				v = w;
			}
			v[cnt].oi = e->rec;
			v[cnt].name = strdup(e->name);
			if (!v[cnt++].name)
				r = -ENOMEM;
		}
	pthread_mutex_unlock(&c->kept_lock);
	if (r) {
		kept_pending_free(v, cnt);
		return r;
	}
	if (cnt)
		qsort(v, cnt, sizeof(*v), pend_cmp);
	*out = v;
	*n = cnt;
	return 0;
}

void kept_close(cfs_cluster *c)
{
	/* what its owners did not drop (an objlayer not closed): its
	 * records, and no intent, as the owner's drop would have left it */
	if (c->kept) {
		kv_batch *b = kv_batch_new();
		int n = 0;

		for (size_t i = 0; i < KEPT_BUCKETS; i++)
			while (c->kept[i]) {
				struct index_kept *e = c->kept[i];

				c->kept[i] = e->next;
				if (b)
					batch_drop(b, e);
				n++;
				free(e);
			}
		if (b && n && kv_batch_commit(c->index, b, 0))
			cfs_log(CFS_LOG_WARN, "%s/pglog: %d write intents "
				"stay; the next open settles their objects",
				c->dir, n);
		kv_batch_free(b);
	}
	free(c->kept);
	c->kept = NULL;
	pthread_mutex_destroy(&c->kept_lock);
}
