/*
 * purge_queue.c - dead inodes purged in the background, as CephFS's MDS
 * hands them to its PurgeQueue (src/mds/PurgeQueue.cc, 16.2:
 * StrayManager::purge -> PurgeQueue::push, consumed by _consume) instead
 * of removing their objects in the request that dropped the last
 * reference.
 *
 * Why: a FORGET or RELEASE that purges synchronously spends per object
 * copy a rename into the OSD's spare folder plus the intent and index
 * records (docs/performance.md, "Where one unlink goes now"); on 2 cores
 * that work competes with the next UNLINK.  Queued, the unlink's
 * requests return at once and one worker thread of low priority does the
 * removals.
 *
 * Nothing is lost on a crash: the inode's record already says link count
 * 0 and carries its orphan mark (committed with the unlink, mds.h 'O'),
 * so the next mount queues again whatever the queue held (vfs.c
 * purge_orphan) and the worker purges it while the mount serves.
 * CephFS journals its queue for the same reason; the mark is our journal.
 * So the queue keeps inode numbers only (8 bytes each, a fixed ring):
 * the worker reads the record back from the store.  Inode numbers are
 * never reused (mds_alloc_ino), and a record with link count 0 is never
 * loaded again (vn_get), so a queued number cannot come back to life.
 *
 * Bounds, so that a purge never waits forever and memory stays small:
 * beyond the ring's capacity (PQ_MAX; vfs_opts.purge_max for tests)
 * queued, the releasing thread purges its inode itself
 * (back-pressure: PurgeQueue's max_purge_files throttle turned into a
 * cap on the backlog; the orphans a crash left beyond it are purged
 * before the next mount serves).  The worker runs at nice PQ_NICE,
 * not SCHED_IDLE (osdsim/spares.c's cleaner): it holds the store's and
 * the object layer's locks while it works, and an idle-class thread can
 * be kept off the CPU by any busy process while FUSE threads wait on
 * them.  Measured on 2 cores at load 7.5 (2,000 unlinks, size 3, two
 * rounds each): the unlink phase was 2-4x main's whatever the class
 * (SCHED_IDLE, SCHED_BATCH, nice 0, 10, 19 all within the noise); the
 * backlog drained in 0.2-0.8 s at nice 0 / SCHED_BATCH, 0.4-1.9 s at
 * nice 10, 0.5-3.8 s at SCHED_IDLE.  nice 10 keeps a foreground request
 * ahead of the worker (weight 110 against 1024) without starving it.
 *
 * Drains (the queue emptied by the caller, at the caller's priority, as
 * PurgeQueue::drain at MDS shutdown): unmount (vfs_free), a write or
 * fallocate refused with ENOSPC while inodes were queued (retried once),
 * a forwarded `check` (the usage it compares must not move under it),
 * and vfs_purge_drain() for tests.  statfs does not drain: like `ceph df`
 * while the PurgeQueue works, df shows the space of removed files until
 * the worker frees it (a drain there could block df for the whole
 * backlog); a write that needs the room drains.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "util.h"
#include "vfs_i.h"

/* 131072 inode numbers: 1 MiB of ring (malloc'd, so pages never used
 * stay out of the RSS: a 100k-file rm -rf touches 800 KiB of it), and at
 * about 80-100 us per purge of an empty file (a drain of 100,000 took
 * 7-10 s on 2 cores) to 300 us for a file with data, a drain of about
 * 12-40 s at unmount when it is full (a crashed mount's next start
 * queues them again and does not wait).  At 16384 an rm -rf of
 * 100k empty files purged most of them in its own FORGETs
 * (back-pressure): 10.1 s at size 1 and 15.5 s at size 3, against
 * 5.2 s and 7.3 s at 65536. */
#define PQ_MAX 131072
#define PQ_NICE 10
/* The worker lets a stream of removals pass first: it starts once no
 * removal has come for PQ_QUIET_MS (vfs_opts.purge_quiet_ms for tests),
 * or once half the ring is queued.  Then it runs beside the stream,
 * with the other half as slack before back-pressure.
 *
 * Why half, not a few thousand: on 2 cores the worker beside an
 * rm -rf takes CPU the rm's own requests need (nice 10 still leaves it
 * a share of both cores, and its commits queue with the UNLINKs' on the
 * store's write path), and a purge costs more than an UNLINK (about 80
 * against 50 us of daemon CPU for an empty file), so it cannot keep up
 * with the stream anyway and only postpones back-pressure.  100,000
 * empty files, size 1, each run on a fresh ext4, five alternating
 * pairs: the rm -rf took 6.9-8.0 s (median 7.05) with the worker
 * starting at 4,096 queued of 65536, 5.1-7.1 s (median 5.66) at half of
 * 131072; the daemon's CPU from the rm's start until it was idle again
 * 16.4-20.0 s against 15.1-16.1 s: the same work or less, later.
 * CephFS's MDS throttles its PurgeQueue too (mds_max_purge_ops), and as
 * `ceph df` during its purge, df shows the space until the worker frees
 * it. */
#define PQ_QUIET_MS 30

struct pq {
	pthread_mutex_t lock;
	pthread_cond_t work;	/* the worker: items, or stop */
	pthread_cond_t idle;	/* drainers: a purge finished */
	uint64_t *ring;
	size_t cap, busy;	/* ring size; queued when the worker starts */
	size_t head, n;
	/* popped (by the worker or a drainer) and finished, since start */
	uint64_t popped, finished;
	int stop;
	int hold;	/* tests: the worker takes nothing (drains still do) */
	long quiet_ms;	/* the pause that starts the worker */
	pthread_t th;
	struct timespec last_add; /* CLOCK_MONOTONIC */
	/* counters (vfs_purge_stats) */
	uint64_t queued, by_worker, by_drain, by_caller;
};

/* nice applies per thread on Linux (setpriority on the tid) */
static void lower_priority(void)
{
	setpriority(PRIO_PROCESS, (id_t)gettid(), PQ_NICE);
}

/* Purge one queued inode from its stored record. */
static void purge_ino(vfs *v, uint64_t ino)
{
	struct mds_inode rec;
	int rc = mds_get_inode(v->m, ino, &rec);

	if (rc == -ENOENT)
		return; /* nothing left of it */
	if (rc) {
		/* its orphan mark stays: the next mount retries */
		cfs_log(CFS_LOG_ERR, "purge queue: inode %llx: reading its "
			"record: %s; left on the orphan list",
			(unsigned long long)ino, cfs_strerror(rc));
		return;
	}
	if (rec.nlink != 0) {
		/* cannot happen (numbers are not reused, a dead record is
		 * never loaded again): never remove a live file's data */
		cfs_log(CFS_LOG_ERR, "purge queue: inode %llx has %u links; "
			"not purged", (unsigned long long)ino, rec.nlink);
		return;
	}
	vn_purge_rec(v, &rec, 1);
}

/* Take the oldest queued number; lock held. */
static uint64_t pop_locked(struct pq *q)
{
	uint64_t ino = q->ring[q->head];

	q->head = (q->head + 1) % q->cap;
	q->n--;
	q->popped++;
	return ino;
}

static void finish_locked(struct pq *q)
{
	q->finished++;
	pthread_cond_broadcast(&q->idle);
}

/* When the worker may start (lock held): now, or *at (the removals of
 * an rm -rf or an unlink loop are still coming). */
static int quiet_locked(struct pq *q, struct timespec *at)
{
	struct timespec now;

	if (q->n >= q->busy || q->stop)
		return 1;
	*at = q->last_add;
	at->tv_sec += q->quiet_ms / 1000;
	at->tv_nsec += q->quiet_ms % 1000 * 1000000L;
	if (at->tv_nsec >= 1000000000L) {
		at->tv_sec++;
		at->tv_nsec -= 1000000000L;
	}
	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > at->tv_sec ||
	       (now.tv_sec == at->tv_sec && now.tv_nsec >= at->tv_nsec);
}

static void *worker(void *arg)
{
	vfs *v = arg;
	struct pq *q = v->pq;
	int batched = 0;

	lower_priority();
	pthread_mutex_lock(&q->lock);
	for (;;) {
		struct timespec at;
		uint64_t ino;

		if (q->n && !q->hold) {
			/* removals still streaming in: their requests first
			 * (the same work, after the caller's loop, not
			 * between its requests on a 2-core machine) */
			if (!quiet_locked(q, &at)) {
				pthread_cond_timedwait(&q->work, &q->lock, &at);
				continue;
			}
			ino = pop_locked(q);
			pthread_mutex_unlock(&q->lock);
			purge_ino(v, ino);
			batched = 1;
			pthread_mutex_lock(&q->lock);
			q->by_worker++;
			finish_locked(q);
			continue;
		}
		if (batched) {
			/* the burst is over: its records go in one store
			 * write (vn_flush_purged) */
			batched = 0;
			pthread_mutex_unlock(&q->lock);
			vn_flush_purged(v);
			pthread_mutex_lock(&q->lock);
			continue;
		}
		if (q->stop)
			break;
		pthread_cond_wait(&q->work, &q->lock);
	}
	pthread_mutex_unlock(&q->lock);
	return NULL;
}

static void pq_free(struct pq *q)
{
	pthread_cond_destroy(&q->idle);
	pthread_cond_destroy(&q->work);
	pthread_mutex_destroy(&q->lock);
	free(q->ring);
	free(q);
}

int pq_start(vfs *v)
{
	struct pq *q;
	int rc;

	/* a read-only view, or one without data, never purges */
	if (v->opts.readonly || !v->d)
		return 0;
	q = calloc(1, sizeof(*q));
	if (!q)
		return -ENOMEM;
	q->cap = v->opts.purge_max ? v->opts.purge_max : PQ_MAX;
	q->busy = q->cap / 2 ? q->cap / 2 : 1;
	q->quiet_ms = v->opts.purge_quiet_ms ? (long)v->opts.purge_quiet_ms
					     : PQ_QUIET_MS;
	q->ring = malloc(q->cap * sizeof(*q->ring));
	if (!q->ring) {
		free(q);
		return -ENOMEM;
	}
	pthread_mutex_init(&q->lock, NULL);
	{
		pthread_condattr_t ca;

		pthread_condattr_init(&ca);
		pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
		pthread_cond_init(&q->work, &ca);
		pthread_condattr_destroy(&ca);
	}
	pthread_cond_init(&q->idle, NULL);
	v->pq = q;
	rc = pthread_create(&q->th, NULL, worker, v);
	if (rc) {
		v->pq = NULL;
		pq_free(q);
		return -rc;
	}
	return 0;
}

void pq_add(vfs *v, const struct mds_inode *rec)
{
	struct pq *q = v->pq;

	if (q && !v->opts.readonly) {
		/* what the backtrace queue holds for it goes now, not with
		 * the purge: its periodic pass would only read the dead
		 * record to drop it */
		btq_forget(v, rec->ino);
		pthread_mutex_lock(&q->lock);
		if (q->n < q->cap && !q->stop) {
			q->ring[(q->head + q->n) % q->cap] = rec->ino;
			q->n++;
			q->queued++;
			clock_gettime(CLOCK_MONOTONIC, &q->last_add);
			/* a waiting worker wakes by itself when the stream
			 * pauses: no wake-up per removal */
			if (q->n == 1 || q->n == q->busy)
				pthread_cond_signal(&q->work);
			pthread_mutex_unlock(&q->lock);
			return;
		}
		q->by_caller++;
		pthread_mutex_unlock(&q->lock);
	}
	/* no queue, or a full one: purge here (back-pressure) from the
	 * record in memory */
	vn_purge_rec(v, rec, 1);
}

size_t pq_drain(vfs *v)
{
	struct pq *q = v->pq;
	uint64_t target;
	size_t todo, done = 0;

	if (!q)
		return 0;
	pthread_mutex_lock(&q->lock);
	/* only what is queued now: a stream of new removals cannot keep
	 * the caller here */
	todo = q->n;
	while (todo-- && q->n) {
		uint64_t ino = pop_locked(q);

		pthread_mutex_unlock(&q->lock);
		purge_ino(v, ino);
		done++;
		pthread_mutex_lock(&q->lock);
		q->by_drain++;
		finish_locked(q);
	}
	/* and what the worker took before: wait for it */
	target = q->popped;
	if (q->finished < target)
		done += (size_t)(target - q->finished);
	while (q->finished < target)
		pthread_cond_wait(&q->idle, &q->lock);
	pthread_mutex_unlock(&q->lock);
	/* the records follow with the next write-back (vfs_flush_all) or
	 * the worker's next idle moment: the room is back already */
	return done;
}

void pq_stop(vfs *v)
{
	struct pq *q = v->pq;

	if (!q)
		return;
	pthread_mutex_lock(&q->lock);
	q->stop = 1;
	pthread_cond_signal(&q->work);
	pthread_mutex_unlock(&q->lock);
	/* the caller empties it at its own priority; the worker finishes
	 * its current purge and leaves */
	pq_drain(v);
	pthread_join(q->th, NULL);
	v->pq = NULL;
	pq_free(q);
}

void vfs_purge_stats(vfs *v, struct vfs_purge_stats *s)
{
	struct pq *q = v->pq;

	memset(s, 0, sizeof(*s));
	if (!q)
		return;
	pthread_mutex_lock(&q->lock);
	s->pending = q->n + (q->popped - q->finished);
	s->queued = q->queued;
	s->by_worker = q->by_worker;
	s->by_drain = q->by_drain;
	s->by_caller = q->by_caller;
	s->capacity = q->cap;
	pthread_mutex_unlock(&q->lock);
}

size_t vfs_purge_drain(vfs *v)
{
	return pq_drain(v);
}

void vfs_purge_hold(vfs *v, int hold)
{
	struct pq *q = v->pq;

	if (!q)
		return;
	pthread_mutex_lock(&q->lock);
	q->hold = hold;
	pthread_cond_signal(&q->work);
	pthread_mutex_unlock(&q->lock);
}
