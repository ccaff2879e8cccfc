/*
 * mgr_balancer.h - the balancer module's automatic runs (Ceph 16.2's
 * src/pybind/mgr/balancer: serve() and optimize()), for the mounted
 * daemon's tick.  Its options are config options (mgr/balancer/active,
 * mode, sleep_interval, upmap_max_deviation, upmap_max_optimizations,
 * and target_max_misplaced_ratio); its last run is kept by osdsim
 * (cfs_balancer_status_get), which `balancer status` shows.
 */
#ifndef CRUSHFS_MGR_BALANCER_H
#define CRUSHFS_MGR_BALANCER_H

#include <stdint.h>

typedef struct cfs_cluster cfs_cluster;
typedef struct objlayer objlayer;

/* Once a second or so: when the balancer is active and sleep_interval
 * has passed since its last run, one run.  Returns how many upmap
 * changes it applied (0 also when it did not run), or -errno. */
int mgr_balancer_tick(cfs_cluster *c, objlayer *ol, int64_t now_ms);

/* One run now, whatever `active` says: the module's optimize() then
 * execute() of its plan; the status records it.  Returns the changes
 * applied, or -errno (the status says why nothing was done: degraded,
 * misplaced, mode none, already balanced). */
int mgr_balancer_run(cfs_cluster *c, objlayer *ol);

#endif
