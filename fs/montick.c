/*
 * montick.c - the mounted daemon's monitor tick: once a second, what
 * Ceph's monitor does as time passes (OSDMonitor::tick): OSDs down for
 * mon_osd_down_out_interval are marked out (objlayer's ol_tick; noout
 * keeps them in); and what Ceph's mgr balancer module does in its serve()
 * loop, when it is on (mgr/balancer.c).  Only a mounted daemon ticks, as only a running
 * monitor does: a cluster nobody mounts keeps its map as the commands
 * left it.
 */
#include <errno.h>
#include <pthread.h>
#include <time.h>

#include "fsd_i.h"
#include "mgr_balancer.h"
#include "objlayer.h"
#include "util.h"

static void *ticker(void *arg)
{
	struct fsd *d = arg;
	int64_t since = (int64_t)time(NULL);
	int was_held = 0, warned = 0;

	pthread_mutex_lock(&d->flock);
	while (!d->stopping) {
		struct timespec ts, mono;
		int held = 0, r;

		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += 1;
		pthread_cond_timedwait(&d->tcond, &d->flock, &ts);
		if (d->stopping)
			break;
		pthread_mutex_unlock(&d->flock);
		r = ol_tick(d->ol, (int64_t)time(NULL), since, &held);
		if (r < 0 && !warned) {
			warned = 1;
			cfs_log(CFS_LOG_WARN, "monitor tick: cannot mark down "
				"OSDs out: %s", cfs_strerror(r));
		}
		if (held && held != was_held)
			cfs_log(CFS_LOG_INFO, "%d down osd(s) stay in: noout "
				"flag set", held);
		was_held = held;
		/* the mgr's balancer module, when on (mgr/balancer/active) */
		clock_gettime(CLOCK_MONOTONIC, &mono);
		r = mgr_balancer_tick(d->c, d->ol, (int64_t)mono.tv_sec * 1000 +
							  mono.tv_nsec / 1000000);
		if (r > 0)
			cfs_log(CFS_LOG_INFO, "balancer: applied %d upmap "
				"change(s)", r);
		pthread_mutex_lock(&d->flock);
	}
	pthread_mutex_unlock(&d->flock);
	return NULL;
}

int montick_start(struct fsd *d)
{
	int rc;

	if (d->ro)
		return 0;
	pthread_cond_init(&d->tcond, NULL);
	rc = pthread_create(&d->ticker, NULL, ticker, d);
	if (rc) {
		pthread_cond_destroy(&d->tcond);
		return -rc;
	}
	d->ticker_running = 1;
	return 0;
}

/* d->stopping is set (under flock) by the caller */
void montick_stop(struct fsd *d)
{
	if (!d->ticker_running)
		return;
	pthread_mutex_lock(&d->flock);
	pthread_cond_broadcast(&d->tcond);
	pthread_mutex_unlock(&d->flock);
	pthread_join(d->ticker, NULL);
	pthread_cond_destroy(&d->tcond);
	d->ticker_running = 0;
}
