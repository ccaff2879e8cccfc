/*
 * montick.c - the cluster's own work as time passes, for the mounted
 * daemon's tick (fs/montick.c calls ol_tick about once a second): what
 * Ceph's monitor does in OSDMonitor::tick (16.2), marking OSDs that are
 * down for mon_osd_down_out_interval out (osdsim's cfs_mon_tick); and
 * objlayer's own: the write intents kept past their write dropped.
 */
#include "objlayer_i.h"
#include "osdmap.h"
#include "util.h"

static void marked_out(int osd, int64_t secs, void *arg)
{
	(void)arg;
	/* Ceph's cluster log line (OSDMonitor::tick) */
	cfs_log(CFS_LOG_INFO, "Marking osd.%d out (has been down for %lld "
		"seconds)", osd, (long long)secs);
}

int ol_tick(objlayer *ol, int64_t now, int64_t since, int *held)
{
	/* an idle daemon keeps no write intent past two ticks (kept.c): a
	 * kill -9 then leaves few objects to settle */
	ol_kept_drop(ol, OL_KEPT_AGED);
	return cfs_mon_tick(ol->c, now, since, marked_out, NULL, held);
}
