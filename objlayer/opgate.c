/*
 * opgate.c - when an object op may run: the PG's locks, the map current
 * under them, and the wait of an op whose PG cannot serve it (below
 * min_size, or the object's current copies only on down OSDs), as a Ceph
 * client's Objecter keeps such an op until a map makes the PG active
 * (split from objio.c, which does the I/O; opgate.h says what each call
 * holds and returns).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cluster.h"
#include "objlayer_i.h"
#include "opgate.h"
#include "osdmap.h"
#include "pgstate.h"
#include "placement.h"
#include "util.h"

int op_begin(objlayer *ol, int64_t pool, const char *name,
		    struct objop *op)
{
	/* the PG seed stays good until op_end: no pg_num change between */
	cfs_pg_layout_shared(ol->c);
	op->c = ol->c;
	op->m = cfs_osdmap_get(ol->c);
	op->pool = cfs_osdmap_pool_by_id(op->m, pool);
	op->pid = pool;
	if (!op->pool ||
	    cfs_pool_object_to_pg(op->m, pool, name, NULL, &op->ps) ||
	    !(op->pg = cfs_osdmap_pool_pg(op->m, pool, op->ps))) {
		cfs_osdmap_put(op->m);
		cfs_pg_layout_release(ol->c);
		return -ENOENT;
	}
	snprintf(op->pgid, sizeof(op->pgid), "%lld.%x", (long long)pool,
		 op->ps);
	return 0;
}

void op_end(struct objop *op)
{
	cfs_osdmap_put(op->m);
	cfs_pg_layout_release(op->c);
}

/* The map again, with the PG's pgio held (the seed stays: no pg_num
 * change while the layout gate is shared). */
static void op_refresh(struct objop *op)
{
	const cfs_osdmap *m = cfs_osdmap_get(op->c);
	const struct cfs_pool_info *p = cfs_osdmap_pool_by_id(m, op->pid);
	const struct cfs_pg_mapping *pg =
		p && op->ps < p->pg_num ? cfs_osdmap_pool_pg(m, op->pid, op->ps)
					: NULL;

	if (!pg) { /* the pool went meanwhile: the old view ends the op */
		cfs_osdmap_put(m);
		return;
	}
	cfs_osdmap_put(op->m);
	op->m = m;
	op->pool = p;
	op->pg = pg;
}

/* Up members of the acting set (an erasure pool's holes aside). */
static int acting_up(const struct objop *op)
{
	int n = 0;

	for (int i = 0; i < op->pg->nacting; i++) {
		int a = op->pg->acting[i];

		n += a >= 0 && a != PL_ITEM_NONE &&
		     a < cfs_osdmap_max_osd(op->m) && cfs_osdmap_is_up(op->m, a);
	}
	return n;
}

static int op_serves(const struct objop *op, int need, int up)
{
	return need == NEED_NONE || (need == NEED_ONE && up > 0) ||
	       (need == NEED_MIN_SIZE && up >= op->pool->min_size);
}

void op_unlock(objlayer *ol, struct objop *op, const char *name)
{
	pthread_rwlock_unlock(ol_objlock(ol, name));
	pthread_rwlock_unlock(ol_pgio(ol, op->pid, op->ps));
	op_end(op);
}

static __thread int (*interrupted_fn)(void *);
static __thread void *interrupted_arg;

void ol_set_interrupt_check(int (*fn)(void *arg), void *arg)
{
	interrupted_fn = fn;
	interrupted_arg = arg;
}

/*
 * Wait (no lock held) for an epoch newer than epoch, the op listed as so
 * meanwhile: 0 to try again; -ETIMEDOUT past rados_osd_op_timeout; -EIO
 * when the daemon is going away; -EINTR when the caller's request was
 * interrupted.  why: the log line's reason, once per op.
 */
static int op_wait(objlayer *ol, struct op_waiting *w, uint32_t epoch,
		   const struct cfs_slow_op *so, const char *why)
{
	struct timespec now, slice;
	int r;

	/* asked first too: a caller that may not wait at all (the daemon's
	 * read-ahead) is neither logged nor listed as a slow op */
	if (interrupted_fn && interrupted_fn(interrupted_arg))
		return -EINTR;
	if (!w->logged++)
		cfs_log(CFS_LOG_WARN, "pg %lld.%x: %s; %s '%s' waits",
			(long long)so->pool, so->ps, why, so->what, so->name);
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (!w->have_deadline) {
		char v[32];
		unsigned long t = 0;

		if (!cfs_config_get(ol->c, "rados_osd_op_timeout", v,
				    sizeof(v)))
			t = strtoul(v, NULL, 10);
		w->have_deadline = t ? 1 : -1;
		w->deadline = now;
		w->deadline.tv_sec += (time_t)t;
	}
	/* a second at a time: an interrupted request ends its wait */
	slice = now;
	slice.tv_sec += 1;
	if (w->have_deadline > 0 &&
	    (w->deadline.tv_sec < slice.tv_sec ||
	     (w->deadline.tv_sec == slice.tv_sec &&
	      w->deadline.tv_nsec < slice.tv_nsec)))
		slice = w->deadline;
	r = cfs_pg_wait_active(ol->c, epoch, &slice, so);
	if (r == -ETIMEDOUT && w->have_deadline > 0) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec > w->deadline.tv_sec ||
		    (now.tv_sec == w->deadline.tv_sec &&
		     now.tv_nsec >= w->deadline.tv_nsec)) {
			cfs_log(CFS_LOG_WARN,
				"%s '%s': still waiting past "
				"rados_osd_op_timeout: ETIMEDOUT",
				so->what, so->name);
			return -ETIMEDOUT;
		}
	}
	if (r == -ECANCELED || ol->closing ||
	    (ol->stop_fn && ol->stop_fn(ol->stop_arg)))
		return -EIO; /* the daemon is going away */
	if (interrupted_fn && interrupted_fn(interrupted_arg))
		return -EINTR;
	return 0;
}

/*
 * A client op waits while the map has pauserd (reads) or pausewr
 * (writes, truncates, removals) set: Objecter::target_should_be_paused
 * (16.2) holds such ops until a map without the flag.  Recovery and
 * syncs are not client ops.  Returns the flag's name, or NULL.
 */
static const char *paused_by(const cfs_osdmap *m, const char *what)
{
	uint32_t f = cfs_osdmap_flags(m);

	if (!(f & (CFS_OSDMAP_PAUSERD | CFS_OSDMAP_PAUSEWR)))
		return NULL;
	if (!strncmp(what, "recovery", 8) || !strncmp(what, "sync", 4))
		return NULL;
	if (!strncmp(what, "read", 4))
		return f & CFS_OSDMAP_PAUSERD ? "pauserd" : NULL;
	return f & CFS_OSDMAP_PAUSEWR ? "pausewr" : NULL;
}

static void slow_op_of(const struct objop *op, const char *name,
		       const char *what, int up, int min_size,
		       struct cfs_slow_op *so)
{
	memset(so, 0, sizeof(*so));
	so->pool = op->pid;
	so->ps = op->ps;
	so->osd = op->pg->up_primary;
	so->up = up;
	so->min_size = min_size;
	snprintf(so->what, sizeof(so->what), "%s", what);
	snprintf(so->name, sizeof(so->name), "%s", name);
}

/*
 * op_begin, then the PG's pgio (shared) and the object's lock (exclusive
 * with excl), then the map again.  A PG that cannot serve the op (need)
 * makes it wait for a newer epoch with no lock held (Ceph's Objecter
 * keeps such an op until a map makes the PG active), listed for SLOW_OPS
 * (op_wait).  Without ol_set_wait: -EIO at once.  On success the op holds
 * both locks (op_unlock).
 */
static int op_lock_w(objlayer *ol, int64_t pool, const char *name,
		     struct objop *op, int excl, int need, const char *what,
		     struct op_waiting *w)
{
	int r;

	for (;;) {
		struct cfs_slow_op so;
		pthread_rwlock_t *lk = ol_objlock(ol, name);
		uint32_t epoch;
		char why[96];
		const char *pause;
		int up;

		if ((r = op_begin(ol, pool, name, op)))
			return r;
		pthread_rwlock_rdlock(ol_pgio(ol, op->pid, op->ps));
		if (excl)
			pthread_rwlock_wrlock(lk);
		else
			pthread_rwlock_rdlock(lk);
		op_refresh(op);
		up = acting_up(op);
		pause = paused_by(op->m, what);
		if (!pause && op_serves(op, need, up))
			return 0;
		epoch = cfs_osdmap_epoch(op->m);
		slow_op_of(op, name, what, up,
			   need == NEED_ONE ? 1 : op->pool->min_size, &so);
		if (pause) {
			snprintf(so.paused, sizeof(so.paused), "%s", pause);
			snprintf(why, sizeof(why), "paused: the osdmap has %s "
				 "set", pause);
		} else {
			snprintf(why, sizeof(why), "inactive: %d OSD(s) up in "
				 "its acting set, min_size %d", up,
				 so.min_size);
		}
		if (!ol->wait || ol->closing) {
			cfs_log(CFS_LOG_ERR, "pg %s is %s; %s '%s' refused",
				op->pgid, why, what, name);
			op_unlock(ol, op, name);
			return -EIO;
		}
		op_unlock(ol, op, name);
		if ((r = op_wait(ol, w, epoch, &so, why)))
			return r;
	}
}

/*
 * A write that holds the PG layout gate across its op (ol_obj_setattr:
 * the backtrace) waits for pausewr before it takes the gate: waiting
 * inside, it would keep a pg_num change (which takes the gate
 * exclusively) waiting too, and with it the admin command that might
 * unset the flag.
 */
int op_pause_wait(objlayer *ol, int64_t pool, const char *name,
		  const char *what)
{
	struct op_waiting w = { { 0, 0 }, 0, 0 };

	for (;;) {
		const cfs_osdmap *m = cfs_osdmap_get(ol->c);
		const char *pause = paused_by(m, what);
		struct cfs_slow_op so;
		uint32_t ps = 0, epoch = cfs_osdmap_epoch(m);
		char why[96];
		int r;

		if (!pause) {
			cfs_osdmap_put(m);
			return 0;
		}
		memset(&so, 0, sizeof(so));
		cfs_pool_object_to_pg(m, pool, name, NULL, &ps);
		cfs_osdmap_put(m);
		so.pool = pool;
		so.ps = ps;
		so.osd = -1;
		snprintf(so.what, sizeof(so.what), "%s", what);
		snprintf(so.name, sizeof(so.name), "%s", name);
		snprintf(so.paused, sizeof(so.paused), "%s", pause);
		snprintf(why, sizeof(why), "paused: the osdmap has %s set",
			 pause);
		if (!ol->wait || ol->closing) {
			cfs_log(CFS_LOG_ERR, "pg %lld.%x is %s; %s '%s' refused",
				(long long)pool, ps, why, what, name);
			return -EIO;
		}
		if ((r = op_wait(ol, &w, epoch, &so, why)))
			return r;
	}
}

int op_lock(objlayer *ol, int64_t pool, const char *name,
		   struct objop *op, int excl, int need, const char *what)
{
	struct op_waiting w = { { 0, 0 }, 0, 0 };

	return op_lock_w(ol, pool, name, op, excl, need, what, &w);
}

/*
 * An erasure pool's op under op_lock_w's locks, tried again while it
 * finds the object unavailable for now (-EAGAIN from ec_io.c: fewer than
 * k current shards up, the others on down OSDs), as Ceph keeps an op on
 * an unfound object waiting until recovery can find it.
 */
ssize_t ec_op(objlayer *ol, int64_t pool, const char *name, int excl,
		     int need, const char *what, struct ec_call *a)
{
	struct op_waiting w = { { 0, 0 }, 0, 0 };
	struct objop op;
	ssize_t r;

	for (;;) {
		struct cfs_slow_op so;
		uint32_t epoch;
		int up;

		if ((r = op_lock_w(ol, pool, name, &op, excl, need, what, &w)))
			return r;
		epoch = cfs_osdmap_epoch(op.m);
		up = acting_up(&op);
		slow_op_of(&op, name, what, up, op.pool->min_size, &so);
		r = ec_dispatch(ol, &op, name, a); /* ends the op */
		if (r != -EAGAIN)
			return r;
		if (!ol->wait || ol->closing)
			return -EIO;
		if ((r = op_wait(ol, &w, epoch, &so,
				 "fewer than k current shards up (the others "
				 "on down OSDs)")))
			return r;
	}
}

ssize_t ec_dispatch(objlayer *ol, struct objop *op, const char *name,
		    struct ec_call *a)
{
	ssize_t r;

	switch (a->what) {
	case EC_WRITE:
		r = ec_write(ol, op, name, a->off, a->wbuf, a->len, a->full);
		break;
	case EC_READ:
		r = ec_read(ol, op, name, a->off, a->rbuf, a->len, a->size,
			    a->mtime, &a->recover);
		break;
	case EC_RECOVER:
		r = ec_recover_object(ol, op, name);
		break;
	case EC_REMOVE:
		r = ec_remove(ol, op, name);
		break;
	case EC_TRUNCATE:
		r = ec_truncate(ol, op, name, a->off);
		break;
	default:
		r = ec_sync(ol, op, name);
		break;
	}
	op_unlock(ol, op, name);
	return r;
}

/* The op that found no current copy up: its epoch and PG (per thread,
 * for the retry in again()). */
static __thread struct {
	uint32_t epoch, ps;
} unfound;

/*
 * No up OSD has a current copy of the object: -EAGAIN (the caller waits
 * for a new map and tries again, as Ceph keeps an op on an unfound object
 * waiting) while a holder of its PG is down and may bring one back; else
 * -EIO with one log line (the data is gone).  cfs_pg_lock held.
 */
int no_copy_up(const struct objop *op, const char *name,
		      const char *what)
{
	int h[256], nh = cfs_pg_holders(op->c, op->pid, op->ps, h, 256);

	for (int i = 0; i < nh; i++)
		if (!cfs_osdmap_is_up(op->m, h[i])) {
			unfound.epoch = cfs_osdmap_epoch(op->m);
			unfound.ps = op->ps;
			return -EAGAIN;
		}
	{
		/* where each copy that might have served stands, in the one
		 * line (Ceph's `pg query` might_have_unfound) */
		char where[512];
		size_t w = 0;

		where[0] = 0;
		for (int i = 0; i < op->pg->nacting && w < sizeof(where); i++) {
			int a = op->pg->acting[i];

			w += (size_t)snprintf(
				where + w, sizeof(where) - w, "%sosd.%d %s",
				i ? ", " : "", a,
				!cfs_pg_is_holder(op->c, op->pid, op->ps, a)
					? "holds nothing of the PG"
				: cfs_pg_is_damaged(op->c, op->pid, op->ps, a,
						    name)
					? "damaged"
				: cfs_pg_is_missing(op->c, op->pid, op->ps, a,
						    name)
					? "missing it"
					: "not current");
		}
		for (int i = 0; i < nh && w < sizeof(where); i++)
			if (!cfs_in_set(op->pg->acting, op->pg->nacting, h[i]))
				w += (size_t)snprintf(
					where + w, sizeof(where) - w,
					"; stray osd.%d %s", h[i],
					cfs_pg_is_missing(op->c, op->pid,
							  op->ps, h[i], name)
						? "missing it"
						: "not current");
		cfs_log(CFS_LOG_ERR,
			"pg %s: no good copy of '%s' on any OSD; %s refused "
			"(unfound; acting: %s)",
			op->pgid, name, what, where);
	}
	return -EIO;
}

/* After an -EAGAIN of no_copy_up: wait for the next map (0: try again). */
int again(objlayer *ol, struct op_waiting *w, int64_t pool,
		 const char *name, const char *what)
{
	struct cfs_slow_op so;

	if (!ol->wait || ol->closing)
		return -EIO;
	memset(&so, 0, sizeof(so));
	so.pool = pool;
	so.ps = unfound.ps;
	so.osd = -1;
	snprintf(so.what, sizeof(so.what), "%s", what);
	snprintf(so.name, sizeof(so.name), "%s", name);
	return op_wait(ol, w, unfound.epoch, &so,
		       "its current copies are on down OSDs");
}

int ol_op_begin(objlayer *ol, int64_t pool, const char *name,
		struct objop *op)
{
	return op_begin(ol, pool, name, op);
}

void ol_op_refresh(struct objop *op)
{
	op_refresh(op);
}

void ol_op_end(struct objop *op)
{
	op_end(op);
}
