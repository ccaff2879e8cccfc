/*
 * mgr_osdsafety.h - may these OSDs stop, may they be destroyed: Ceph
 * 16.2's mgr answers (DaemonServer.cc: `osd ok-to-stop`,
 * `osd safe-to-destroy`), from one snapshot of the osdmap and the PG
 * states.  Library code: no output; the CLI words the answers.
 */
#ifndef CRUSHFS_MGR_OSDSAFETY_H
#define CRUSHFS_MGR_OSDSAFETY_H

#include <stdint.h>

typedef struct cfs_cluster cfs_cluster;
typedef struct objlayer objlayer;

/* A growing list of PG ids ("1.1f"). */
struct mgr_pg_list {
	char (*v)[32];
	int n, cap;
};

/*
 * ok-to-stop (offline_pg_report, DaemonServer::_check_offlines_pgs): every
 * PG with one of the OSDs in its acting set (a degraded PG: among its
 * acting OSDs that miss nothing) is ok when it is active and keeps
 * min_size OSDs without them, else not_ok (already inactive, or would
 * become so).  The ok ones become degraded, or more degraded.
 */
struct mgr_ok_to_stop {
	int *osds, nosds;
	struct mgr_pg_list ok, not_ok, unknown;
	struct mgr_pg_list bad_no_pool, bad_already_inactive,
		bad_become_inactive;
	struct mgr_pg_list ok_become_degraded, ok_become_more_degraded;
};
/* 0 or -errno (-ENOMEM); r is filled (mgr_ok_to_stop_free it). */
int mgr_ok_to_stop(cfs_cluster *c, objlayer *ol, const int *osds, int n,
		   struct mgr_ok_to_stop *r);
void mgr_ok_to_stop_free(struct mgr_ok_to_stop *r);
/* ok_to_stop(): nothing not ok, nothing unknown */
int mgr_ok_to_stop_ok(const struct mgr_ok_to_stop *r);

/*
 * safe-to-destroy: an OSD that does not exist is safe; one in some PG's
 * up or acting set is active (affected_pgs counts those PGs); while not
 * every PG is active+clean, a down OSD has no stats to tell (missing
 * stats) and an up one holding PG data may still be needed (stored);
 * else safe.  Each list ascending.
 */
struct mgr_safe_to_destroy {
	int *safe, nsafe;
	int *active, nactive;
	int *missing_stats, nmissing;
	int *stored, nstored;
	int affected_pgs;
};
int mgr_safe_to_destroy(cfs_cluster *c, objlayer *ol, const int *osds, int n,
			struct mgr_safe_to_destroy *r);
void mgr_safe_to_destroy_free(struct mgr_safe_to_destroy *r);

#endif
