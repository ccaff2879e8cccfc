/*
 * slowops.c - ops waiting for an inactive PG, as a Ceph client's ops wait.
 *
 * Ceph 16.2's Objecter does not fail an op whose PG cannot serve (fewer
 * than min_size of its acting set up, or no up OSD at all): it keeps the
 * op and resends it when a new osdmap arrives (Objecter::_scan_requests
 * on handle_osd_map), until rados_osd_op_timeout, if one is set, ends it
 * with ETIMEDOUT.  The OSD side counts ops older than
 * osd_op_complaint_time as SLOW_OPS in health.  Here objlayer waits for a
 * newer epoch through cfs_pg_wait_active, and the op is listed meanwhile
 * for health (health.c copies the list into its snapshot).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "osdsim_i.h"

static int add_op(cfs_cluster *c, const struct cfs_slow_op *op, uint64_t *id)
{
	int r = 0;

	pthread_mutex_lock(&c->slow_lock);
	if (c->nslow == c->slow_cap) {
		int nc = c->slow_cap ? c->slow_cap * 2 : 16;
		struct cfs_slow_op *v =
			realloc(c->slow, sizeof(*v) * (size_t)nc);

		if (!v)
			r = -ENOMEM;
		else {
			c->slow = v;
			c->slow_cap = nc;
		}
	}
	if (!r) {
		struct cfs_slow_op *s = &c->slow[c->nslow++];

		*s = *op;
		s->id = *id = ++c->slow_next;
		clock_gettime(CLOCK_MONOTONIC, &s->since);
	}
	pthread_mutex_unlock(&c->slow_lock);
	return r;
}

static void drop_op(cfs_cluster *c, uint64_t id)
{
	pthread_mutex_lock(&c->slow_lock);
	for (int i = 0; i < c->nslow; i++)
		if (c->slow[i].id == id) {
			memmove(&c->slow[i], &c->slow[i + 1],
				sizeof(c->slow[0]) * (size_t)(c->nslow - i - 1));
			c->nslow--;
			break;
		}
	pthread_mutex_unlock(&c->slow_lock);
}

struct waiter {
	cfs_cluster *c;
	uint64_t id;
};

/* libfuse cancels its worker threads when the session ends: a waiter
 * cancelled in pthread_cond_timedwait holds map_lock again */
static void unwait(void *arg)
{
	struct waiter *w = arg;

	pthread_mutex_unlock(&w->c->map_lock);
	if (w->id)
		drop_op(w->c, w->id);
}

int cfs_pg_wait_active(cfs_cluster *c, uint32_t epoch,
		       const struct timespec *deadline,
		       const struct cfs_slow_op *op)
{
	struct waiter w = { c, 0 };
	unsigned gen;
	int r = 0;

	/* without a slot the op still waits; it only goes unlisted */
	if (op)
		(void)add_op(c, op, &w.id);
	pthread_mutex_lock(&c->map_lock);
	pthread_cleanup_push(unwait, &w);
	gen = c->wake_gen;
	while (!r && c->cur->epoch <= epoch && c->wake_gen == gen) {
		if (deadline)
			r = pthread_cond_timedwait(&c->map_cond, &c->map_lock,
						   deadline);
		else
			r = pthread_cond_wait(&c->map_cond, &c->map_lock);
		if (r == ETIMEDOUT && c->cur->epoch > epoch)
			r = 0; /* the epoch came with the deadline */
		r = r == ETIMEDOUT ? -ETIMEDOUT : r ? -r : 0;
	}
	if (!r && c->cur->epoch <= epoch)
		r = -ECANCELED;
	pthread_cleanup_pop(1);
	return r;
}

void cfs_osdmap_wake_waiters(cfs_cluster *c)
{
	pthread_mutex_lock(&c->map_lock);
	c->wake_gen++;
	pthread_cond_broadcast(&c->map_cond);
	pthread_mutex_unlock(&c->map_lock);
}

int cfs_slow_ops(cfs_cluster *c, struct cfs_slow_op *out, int max)
{
	int n;

	pthread_mutex_lock(&c->slow_lock);
	n = c->nslow < max ? c->nslow : max;
	if (n > 0)
		memcpy(out, c->slow, sizeof(*out) * (size_t)n);
	pthread_mutex_unlock(&c->slow_lock);
	return n > 0 ? n : 0;
}
