/*
 * balstate.c - the balancer's last run, as Ceph 16.2's balancer module
 * keeps it in memory (last_optimize_started, last_optimize_duration,
 * optimize_result, no_optimization_needed): the mounted daemon's tick
 * writes it, `balancer status` run in the daemon reads it.
 */
#include "osdsim_i.h"

void cfs_balancer_status_get(cfs_cluster *c, struct cfs_balancer_status *out)
{
	pthread_mutex_lock(&c->config_lock);
	*out = c->bal;
	pthread_mutex_unlock(&c->config_lock);
}

void cfs_balancer_status_set(cfs_cluster *c,
			     const struct cfs_balancer_status *in)
{
	pthread_mutex_lock(&c->config_lock);
	c->bal = *in;
	pthread_mutex_unlock(&c->config_lock);
}
