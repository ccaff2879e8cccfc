/*
 * bt_flush.c - the backtrace queue written out: the daemon's periodic
 * pass (only what has not changed for BTQ_MIN_AGE_NS), fsync's of one
 * inode and the unmount's of all; a failure is kept for the next pass,
 * the marks of what was written deleted.  Split from bt_queue.c (whose
 * head comment holds the design) as the policy of when, apart from the
 * queue it takes from.
 */
#include <stdint.h>
#include <stdlib.h>

#include "bt_queue_i.h"
#include "util.h"
#include "vfs_i.h"

/* The periodic flusher writes a backtrace once its inode has had no
 * link change for this long, as the MDS writes it only when the journal
 * segment holding the change expires (MDLog::trim, long after a burst of
 * creates): a file created and removed within it never touches the
 * object store, which in a directory of many short-lived files saves an
 * object create and an object remove per file.  Its mark ('B') keeps a
 * crash from losing it; fsync and the unmount write it at once. */
#define BTQ_MIN_AGE_NS (10ULL * 1000000000ULL)
/* ... unless this many wait: Ceph's journal holds mds_log_max_segments
 * (128) x mds_log_events_per_segment (1024) events before it trims */
#define BTQ_MAX_PENDING 131072

/* Room for done[n] when n is 0 or a power of two minus 1... grown to the
 * next power of two; NULL (freed) when out of memory. */
static uint64_t *realloc_done(uint64_t *done, size_t n)
{
	uint64_t *d = realloc(done, (2 * n + 2) * sizeof(*d));

	if (!d)
		free(done);
	return d;
}

static int flush_some(vfs *v, uint64_t ino, int sync, int final,
		      uint64_t min_age)
{
	struct btq *q = v->btq;
	struct btq_memo *memo = NULL;
	size_t nmemo = 0, budget, ndone = 0, from = 0;
	uint64_t *done = NULL, cutoff = 0;
	int first = 0;

	if (!q)
		return 0;
	pthread_mutex_lock(&q->lock);
	/* what is pending now: under a stream of creates the flusher
	 * still returns */
	budget = ino ? 1 : q->count;
	if (min_age && q->count <= BTQ_MAX_PENDING)
		cutoff = btq_now_ns() - min_age;
	pthread_mutex_unlock(&q->lock);
	while (budget--) {
		struct btq_ent *e;
		int rc;

		pthread_mutex_lock(&q->lock);
		e = btq_take(q, ino, cutoff, &from);
		pthread_mutex_unlock(&q->lock);
		if (!e)
			break;
		rc = btq_write_one(v, e, sync, &memo, &nmemo);
		btq_unbusy(q, e->ino);
		if (rc && !first)
			first = rc;
		if (rc && !final) {
			cfs_log(CFS_LOG_WARN, "inode %llx: writing its "
				"backtrace: %s (will retry)",
				(unsigned long long)e->ino, cfs_strerror(rc));
			btq_requeue(q, e);
			break; /* the next flush tries again */
		}
		if (rc)
			cfs_log(CFS_LOG_WARN, "inode %llx: writing its "
				"backtrace: %s (the next mount retries)",
				(unsigned long long)e->ino, cfs_strerror(rc));
		else if ((ndone & (ndone + 1)) == 0 &&
			 !(done = realloc_done(done, ndone)))
			ndone = 0; /* marks stay: rewritten after a crash */
		if (!rc && done)
			done[ndone++] = e->ino;
		btq_ent_free(e);
	}
	/* written: their marks go, unless noted again meanwhile */
	if (ndone) {
		kv_batch *b = kv_batch_new();

		pthread_mutex_lock(&q->lock);
		for (size_t i = 0; b && i < ndone; i++)
			if (!btq_find(q, done[i], 0))
				mds_del_btmark(b, done[i]);
		if (b && kv_batch_count(b))
			kv_batch_commit(v->db, b, 0);
		pthread_mutex_unlock(&q->lock);
		kv_batch_free(b);
	}
	free(done);
	for (size_t i = 0; i < nmemo; i++)
		free(memo[i].name);
	free(memo);
	return first;
}

int btq_flush(vfs *v, uint64_t ino, int sync, int final)
{
	return flush_some(v, ino, sync, final, 0);
}

int btq_flush_old(vfs *v)
{
	return flush_some(v, 0, 0, 0, BTQ_MIN_AGE_NS);
}
