/*
 * bt_queue.c - backtraces (backtrace.h) written lazily, as the CephFS MDS
 * writes them (CInode::store_backtrace when the journal segment that
 * made the change expires): vfs.c notes each link change of an inode
 * here; the daemon's flusher (vfs_flush_periodic, every 2 s: those
 * unchanged for BTQ_MIN_AGE_NS), fsync and the unmount write them out.
 * A create followed by a delete within that time never touches the
 * object store.
 *
 * What is noted per inode, in order: SET (its only link is now dir/name:
 * create, mkdir, rename of a file with one link or of a directory), ADD
 * (a hard link), DEL (a name removed while others remain).  Without a
 * SET the links start from the backtrace already stored.  The rest
 * (mode, owner, layout, ancestry) is read from the store when the
 * backtrace is written.
 *
 * One inode is written by one thread at a time (`busy`), so a newer
 * backtrace is never overwritten by an older one; a purge waits for the
 * write in flight before it removes the objects (btq_forget), so no
 * backtrace outlives its inode.
 *
 * A crash must not lose what was pending (Ceph replays its journal): each
 * inode noted gets a mark in the store ('B', mds.h) right after the
 * change, deleted once its backtrace is written; the next mount notes
 * every marked inode again (btq_resume).  A mark holds one link, so a
 * marked inode with more than one is noted with every link it has (one
 * pass over the dentries, as fsck's backtrace check does).
 *
 * This file keeps the queue: what is noted per inode, the crash marks,
 * one writer per inode.  Writing it out is bt_flush.c's (which entries,
 * when, the retries) and bt_write.c's (one backtrace built from the
 * store); the resume after a crash is bt_resume.c's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bt_queue_i.h"
#include "util.h"
#include "vfs_i.h"

static size_t bucket(uint64_t ino)
{
	return (size_t)((ino * 0x9e3779b97f4a7c15ULL) >> 40) % BTQ_NBUCKETS;
}

uint64_t btq_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

int btq_new(vfs *v)
{
	struct btq *q;

	v->btq = NULL;
	/* a read-only view writes nothing; a store without backtraces
	 * (tests' fake data) has nowhere to put them */
	if (v->opts.readonly || !v->d || !v->d->set_backtrace)
		return 0;
	q = calloc(1, sizeof(*q));
	if (!q)
		return -ENOMEM;
	pthread_mutex_init(&q->lock, NULL);
	pthread_cond_init(&q->cond, NULL);
	v->btq = q;
	return 0;
}

void btq_ent_free(struct btq_ent *e)
{
	for (size_t i = 0; i < e->nops; i++)
		free(e->ops[i].name);
	free(e->ops);
	free(e);
}

void btq_free(vfs *v)
{
	struct btq *q = v->btq;

	if (!q)
		return;
	for (size_t b = 0; b < BTQ_NBUCKETS; b++)
		while (q->tab[b]) {
			struct btq_ent *e = q->tab[b];

			q->tab[b] = e->next;
			btq_ent_free(e);
		}
	pthread_mutex_destroy(&q->lock);
	pthread_cond_destroy(&q->cond);
	free(q);
	v->btq = NULL;
}

/* Under q->lock. */
struct btq_ent *btq_find(struct btq *q, uint64_t ino, int create)
{
	struct btq_ent **pp = &q->tab[bucket(ino)], *e;

	for (e = *pp; e; e = e->next)
		if (e->ino == ino)
			return e;
	if (!create || !(e = calloc(1, sizeof(*e))))
		return NULL;
	e->ino = ino;
	e->next = *pp;
	*pp = e;
	q->count++;
	return e;
}

static struct btq_ent *unhook(struct btq *q, uint64_t ino)
{
	struct btq_ent **pp = &q->tab[bucket(ino)], *e;

	for (; (e = *pp); pp = &e->next)
		if (e->ino == ino) {
			*pp = e->next;
			e->next = NULL;
			q->count--;
			return e;
		}
	return NULL;
}

static int ent_push(struct btq_ent *e, int kind, uint64_t dir,
		    const char *name)
{
	char *n = strdup(name);

	if (!n)
		return -ENOMEM;
	if (kind == BTQ_SET) {
		/* everything before is overruled */
		for (size_t i = 0; i < e->nops; i++)
			free(e->ops[i].name);
		e->nops = 0;
	}
	if (e->nops == e->cap) {
		size_t nc = e->cap ? e->cap * 2 : 2;
		struct btq_op *o = realloc(e->ops, nc * sizeof(*o));

		if (!o) {
			free(n);
			return -ENOMEM;
		}
		e->ops = o;
		e->cap = nc;
	}
	e->ops[e->nops].kind = kind;
	e->ops[e->nops].dir = dir;
	e->ops[e->nops].name = n;
	e->nops++;
	return 0;
}

/* The mark that survives a crash (under q->lock, which orders it with
 * the deletion after a write). */
static int mark(vfs *v, uint64_t ino, uint64_t dir, const char *name)
{
	kv_batch *b = kv_batch_new();
	int rc;

	if (!b)
		return -ENOMEM;
	mds_put_btmark(b, ino, dir, name);
	rc = kv_batch_commit(v->db, b, 0);
	kv_batch_free(b);
	return rc;
}

/* Needs q->lock: the change queued on the inode's entry (made if
 * absent), stamped now for the flusher's age rule. */
static int hook_locked(struct btq *q, uint64_t ino, int kind, uint64_t dir,
		       const char *name)
{
	struct btq_ent *e = btq_find(q, ino, 1);

	if (!e)
		return -ENOMEM;
	e->stamp = btq_now_ns();
	return ent_push(e, kind, dir, name);
}

void btq_note(vfs *v, uint64_t ino, int kind, uint64_t dir,
	      const char *name)
{
	struct btq *q = v->btq;
	struct btq_ent *e;
	int rc = -ENOMEM;

	if (!q)
		return;
	pthread_mutex_lock(&q->lock);
	e = btq_find(q, ino, 0);
	if (!e || kind == BTQ_SET)
		rc = mark(v, ino, kind == BTQ_DEL ? 0 : dir,
			  kind == BTQ_DEL ? NULL : name);
	else
		rc = 0;
	if (rc == 0)
		rc = hook_locked(q, ino, kind, dir, name);
	pthread_mutex_unlock(&q->lock);
	if (rc)
		cfs_log(CFS_LOG_WARN, "inode %llx: backtrace update lost: %s "
			"(fsck rewrites it)",
			(unsigned long long)ino, cfs_strerror(rc));
}

void btq_set(vfs *v, uint64_t ino, uint64_t dir, const char *name)
{
	btq_note(v, ino, BTQ_SET, dir, name);
}

/*
 * btq_note() writes the mark under q->lock so that a flush's deletion of an
 * older mark (btq_flush: "unless noted again meanwhile") cannot land
 * after it.  A new inode number (mds_alloc_ino never hands one out twice)
 * has no entry, no write in flight and no deletion pending, so its mark
 * may ride in the create's own batch, committed outside q->lock; the
 * entry is hooked after that commit, before the creator lets go of the
 * parent (make_node holds the namespace lock), so nothing else can note
 * the inode in between.
 */
void btq_mark_new(vfs *v, kv_batch *b, uint64_t ino, uint64_t dir,
		  const char *name)
{
	if (v->btq)
		mds_put_btmark(b, ino, dir, name);
}

void btq_set_marked(vfs *v, uint64_t ino, uint64_t dir, const char *name)
{
	struct btq *q = v->btq;
	int rc;

	if (!q)
		return;
	pthread_mutex_lock(&q->lock);
	rc = hook_locked(q, ino, BTQ_SET, dir, name);
	pthread_mutex_unlock(&q->lock);
	if (rc)
		/* the mark stays: the next mount writes it (btq_resume) */
		cfs_log(CFS_LOG_WARN, "inode %llx: backtrace deferred to the "
			"next mount: %s", (unsigned long long)ino,
			cfs_strerror(rc));
}

void btq_add(vfs *v, uint64_t ino, uint64_t dir, const char *name)
{
	btq_note(v, ino, BTQ_ADD, dir, name);
}

void btq_del(vfs *v, uint64_t ino, uint64_t dir, const char *name)
{
	btq_note(v, ino, BTQ_DEL, dir, name);
}

void btq_touch(vfs *v, uint64_t ino)
{
	struct btq *q = v->btq;

	if (!q)
		return;
	pthread_mutex_lock(&q->lock);
	if (!btq_find(q, ino, 0) && (mark(v, ino, 0, NULL) || !btq_find(q, ino, 1)))
		cfs_log(CFS_LOG_WARN, "inode %llx: backtrace update lost",
			(unsigned long long)ino);
	pthread_mutex_unlock(&q->lock);
}

void btq_move(vfs *v, uint64_t ino, int only_link, uint64_t odir,
	      const char *oname, uint64_t ndir, const char *nname)
{
	if (only_link) {
		btq_note(v, ino, BTQ_SET, ndir, nname);
	} else {
		btq_note(v, ino, BTQ_DEL, odir, oname);
		btq_note(v, ino, BTQ_ADD, ndir, nname);
	}
}

/* ---- one writer per inode ---- */

static int is_busy(struct btq *q, uint64_t ino)
{
	for (int i = 0; i < q->nbusy; i++)
		if (q->busy[i] == ino)
			return 1;
	return 0;
}

void btq_unbusy(struct btq *q, uint64_t ino)
{
	pthread_mutex_lock(&q->lock);
	for (int i = 0; i < q->nbusy; i++)
		if (q->busy[i] == ino) {
			q->busy[i] = q->busy[--q->nbusy];
			break;
		}
	pthread_cond_broadcast(&q->cond);
	pthread_mutex_unlock(&q->lock);
}

void btq_forget(vfs *v, uint64_t ino)
{
	struct btq *q = v->btq;
	struct btq_ent *e;

	if (!q)
		return;
	pthread_mutex_lock(&q->lock);
	while (is_busy(q, ino))
		pthread_cond_wait(&q->cond, &q->lock);
	e = unhook(q, ino);
	pthread_mutex_unlock(&q->lock);
	if (e)
		btq_ent_free(e);
}

/* Put a failed entry back, before whatever was noted since. */
void btq_requeue(struct btq *q, struct btq_ent *e)
{
	struct btq_ent *cur;

	pthread_mutex_lock(&q->lock);
	cur = btq_find(q, e->ino, 0);
	if (cur) {
		int later_set = 0;

		for (size_t i = 0; i < cur->nops; i++)
			later_set |= cur->ops[i].kind == BTQ_SET;
		if (!later_set) {
			/* e's ops, then cur's */
			for (size_t i = 0; i < cur->nops; i++) {
				if (ent_push(e, cur->ops[i].kind,
					     cur->ops[i].dir,
					     cur->ops[i].name))
					break;
			}
			e->stamp = cur->stamp;
			unhook(q, e->ino);
			btq_ent_free(cur);
			cur = NULL;
		}
	}
	if (!cur) {
		e->next = q->tab[bucket(e->ino)];
		q->tab[bucket(e->ino)] = e;
		q->count++;
		e = NULL;
	}
	pthread_mutex_unlock(&q->lock);
	if (e)
		btq_ent_free(e);
}

/* Take the entry of ino (0: any entry no one is writing, noted before
 * `cutoff` when that is not 0, from bucket *from on: one pass over the
 * table per flush) and mark it busy; NULL when there is none.  Under
 * q->lock. */
struct btq_ent *btq_take(struct btq *q, uint64_t ino, uint64_t cutoff,
			 size_t *from)
{
	struct btq_ent *e;

	for (;;) {
		e = NULL;
		if (ino) {
			while (is_busy(q, ino))
				pthread_cond_wait(&q->cond, &q->lock);
			e = unhook(q, ino);
		} else {
			for (; *from < BTQ_NBUCKETS && !e; ++*from) {
				for (struct btq_ent *x = q->tab[*from]; x;
				     x = x->next)
					if (!is_busy(q, x->ino) &&
					    (!cutoff || x->stamp < cutoff)) {
						e = unhook(q, x->ino);
						break;
					}
				if (e)
					break; /* this bucket may hold more */
			}
		}
		if (!e || q->nbusy < BTQ_MAX_BUSY)
			break;
		/* as many writers as we track: wait for one to finish */
		e->next = q->tab[bucket(e->ino)];
		q->tab[bucket(e->ino)] = e;
		q->count++;
		pthread_cond_wait(&q->cond, &q->lock);
	}
	if (e)
		q->busy[q->nbusy++] = e->ino;
	return e;
}
