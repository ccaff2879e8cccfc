/*
 * opgate.h - inside objlayer: when one object's op may run (opgate.c).
 * An op begins on the map current then (op_begin: the PG layout gate
 * shared, so its PG seed holds until op_end), takes the PG's pgio shared
 * and the object's lock (op_lock), and reads the map again under them;
 * a PG that cannot serve it makes it wait for a newer epoch with no lock
 * held (mounted daemon only; a lone CLI process gets -EIO at once).
 */
#ifndef CRUSHFS_OPGATE_H
#define CRUSHFS_OPGATE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "objlayer_i.h"

/* What the acting set must have up for the op to run. */
enum { NEED_NONE, NEED_ONE, NEED_MIN_SIZE };

/* One op's waiting across its tries (op_wait in opgate.c). */
struct op_waiting {
	struct timespec deadline;
	int have_deadline; /* 0: not read yet, 1: set, -1: none */
	int logged;
};

/* -ENOENT (nothing begun) when the pool or PG does not exist. */
int op_begin(objlayer *ol, int64_t pool, const char *name, struct objop *op);
void op_end(struct objop *op);
/* op_begin, then the PG's pgio (shared) and the object's lock (exclusive
 * with excl), then the map again; waits while the PG cannot serve the op
 * (need), listed for SLOW_OPS, up to rados_osd_op_timeout (-ETIMEDOUT),
 * -EINTR when the caller's request was interrupted, -EIO when the daemon
 * goes away or nobody waits.  On success both locks are held. */
int op_lock(objlayer *ol, int64_t pool, const char *name, struct objop *op,
	    int excl, int need, const char *what);
/* Wait (no lock held) while the map pauses `what` (pauserd for a read,
 * pausewr for a change), as op_lock would: 0, or op_lock's errors. */
int op_pause_wait(objlayer *ol, int64_t pool, const char *name,
		  const char *what);
/* Both locks released and the op ended. */
void op_unlock(objlayer *ol, struct objop *op, const char *name);

/* An erasure pool's object (ec_io.c) under op_lock's locks (the object's
 * lock exclusive for changes); ec_dispatch ends the op. */
enum { EC_WRITE, EC_READ, EC_REMOVE, EC_TRUNCATE, EC_SYNC, EC_RECOVER };
struct ec_call {
	int what, full;
	int recover; /* EC_READ: acting shards are behind */
	uint64_t off;
	const void *wbuf;
	void *rbuf;
	size_t len;
	uint64_t *size;
	struct timespec *mtime;
};
ssize_t ec_dispatch(objlayer *ol, struct objop *op, const char *name,
		    struct ec_call *a);
/* op_lock, then ec_dispatch, tried again while ec_io.c finds fewer than k
 * current shards up with the others on down OSDs (-EAGAIN), as Ceph keeps
 * an op on an unfound object waiting until recovery can find it. */
ssize_t ec_op(objlayer *ol, int64_t pool, const char *name, int excl,
	      int need, const char *what, struct ec_call *a);

/* No up OSD has a current copy of the object (cfs_pg_lock held): -EAGAIN
 * while a holder of its PG is down and may bring one back (then again()
 * waits for the next map; 0: try again), else -EIO with one log line
 * saying where each copy stands (unfound). */
int no_copy_up(const struct objop *op, const char *name, const char *what);
int again(objlayer *ol, struct op_waiting *w, int64_t pool, const char *name,
	  const char *what);

#endif
