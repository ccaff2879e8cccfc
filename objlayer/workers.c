/*
 * workers.c - replica I/O in parallel: a few threads run the per-copy
 * work of an object change (open, write, checksum record) for copies 1..n
 * while the caller does copy 0, as a Ceph primary sends its repops to the
 * replicas and writes its own copy meanwhile.
 *
 * A file's fsync goes the same way, one object per task.
 * Big replicated writes stage their data in a per-thread aligned buffer
 * (ol_bounce) for the replicas' direct writes.
 *
 * A task is a leaf: it takes no lock a waiting caller may hold, so a
 * caller always sees its tasks finish.  A waiting caller runs queued
 * tasks itself (its own or others'), so nothing depends on the threads
 * being there: when they cannot be started (or were lost in a fork) the
 * caller simply does all the work.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "objlayer_i.h"
#include "osdmap.h"
#include "util.h"

struct ol_task {
	void (*fn)(void *arg, int i);
	void *arg;
	int i;
	int *pending; /* the batch's count, under ol->wq_lock */
	struct ol_task *next;
};

/* Needs wq_lock. */
static struct ol_task *pop(objlayer *ol)
{
	struct ol_task *t = ol->wq_head;

	if (t) {
		ol->wq_head = t->next;
		if (!ol->wq_head)
			ol->wq_tail = NULL;
	}
	return t;
}

/* Run t without the lock, then count it done. */
static void run(objlayer *ol, struct ol_task *t)
{
	pthread_mutex_unlock(&ol->wq_lock);
	t->fn(t->arg, t->i);
	pthread_mutex_lock(&ol->wq_lock);
	if (--*t->pending == 0)
		pthread_cond_broadcast(&ol->wq_done);
}

static void *worker(void *arg)
{
	objlayer *ol = arg;

	pthread_mutex_lock(&ol->wq_lock);
	for (;;) {
		struct ol_task *t = pop(ol);

		if (t) {
			run(ol, t);
			continue;
		}
		if (ol->wq_stop)
			break;
		pthread_cond_wait(&ol->wq_work, &ol->wq_lock);
	}
	pthread_mutex_unlock(&ol->wq_lock);
	return NULL;
}

/* Needs wq_lock.  Threads started in another process (before a fork)
 * are not ours: start again. */
static void start(objlayer *ol)
{
	if (ol->wq_pid == getpid())
		return;
	ol->wq_pid = getpid();
	ol->wq_nthreads = 0;
	for (int k = 0; k < OL_WORKERS; k++) {
		if (pthread_create(&ol->wq_threads[k], NULL, worker, ol))
			break;
		ol->wq_nthreads++;
	}
}

void ol_parallel(objlayer *ol, void (*fn)(void *arg, int i), void *arg,
		 int n)
{
	struct ol_task local[CFS_MAX_REP], *tasks = local;
	int pending;

	if (n > CFS_MAX_REP)
		tasks = malloc(sizeof(*tasks) * (size_t)n);
	if (n <= 1 || !tasks) {
		for (int i = 0; i < n; i++)
			fn(arg, i);
		return;
	}
	pthread_mutex_lock(&ol->wq_lock);
	start(ol);
	pending = n - 1;
	for (int i = 1; i < n; i++) {
		struct ol_task *t = &tasks[i];

		t->fn = fn;
		t->arg = arg;
		t->i = i;
		t->pending = &pending;
		t->next = NULL;
		if (ol->wq_tail)
			ol->wq_tail->next = t;
		else
			ol->wq_head = t;
		ol->wq_tail = t;
	}
	/* one wake-up per task: a broadcast woke every worker for the two
	 * replica copies of a size-3 write, and the extra ones only
	 * fought over wq_lock (strace: futex storms per 1 MiB write) */
	for (int i = 1; i < n; i++)
		pthread_cond_signal(&ol->wq_work);
	pthread_mutex_unlock(&ol->wq_lock);

	fn(arg, 0);

	pthread_mutex_lock(&ol->wq_lock);
	while (pending > 0) {
		struct ol_task *t = pop(ol);

		if (t)
			run(ol, t);
		else
			pthread_cond_wait(&ol->wq_done, &ol->wq_lock);
	}
	pthread_mutex_unlock(&ol->wq_lock);
	if (tasks != local)
		free(tasks);
}

void ol_workers_init(objlayer *ol)
{
	pthread_mutex_init(&ol->wq_lock, NULL);
	pthread_cond_init(&ol->wq_work, NULL);
	pthread_cond_init(&ol->wq_done, NULL);
	ol->wq_head = ol->wq_tail = NULL;
	ol->wq_stop = 0;
	ol->wq_pid = 0;
	ol->wq_nthreads = 0;
}

void ol_workers_stop(objlayer *ol)
{
	int mine;

	pthread_mutex_lock(&ol->wq_lock);
	ol->wq_stop = 1;
	mine = ol->wq_pid == getpid();
	pthread_cond_broadcast(&ol->wq_work);
	pthread_mutex_unlock(&ol->wq_lock);
	for (int k = 0; mine && k < ol->wq_nthreads; k++)
		pthread_join(ol->wq_threads[k], NULL);
	pthread_cond_destroy(&ol->wq_work);
	pthread_cond_destroy(&ol->wq_done);
	pthread_mutex_destroy(&ol->wq_lock);
}

/* ol_bounce: the thread's kept buffer (util tbuf.c): a fresh 1 MiB per
 * FUSE write was an mmap, 256 page faults of zeroed pages and an munmap
 * (perf: exc_page_fault), and on huge pages a direct write or read of it
 * is one block-layer segment. */
void *ol_bounce(size_t len)
{
	return cfs_tbuf(CFS_TBUF_OBJLAYER, len);
}
