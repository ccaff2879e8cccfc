/*
 * clog_events.c - what objlayer tells the cluster log (osdsim/clog.h): a
 * write refused for a full OSD (Ceph's OSD says so in its log and the
 * monitor raises OSD_FULL; the operator's question is which file, which PG,
 * which OSD, so the line names all three), and a scrub that found errors
 * (PrimaryLogPG::scrub's "1.1a deep-scrub 1 errors", Ceph 16.2, [ERR]).
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "clog.h"
#include "objlayer_i.h"

/*
 * A copy into a full PG is refused write after write (cp asks 1 MiB at a
 * time): one line per OSD and PG a second, the ones left out counted in
 * the next, as Ceph's clog throttles a repeating message.
 */
static pthread_mutex_t rl_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	int osd;
	char pgid[40];
	int64_t ms;
	unsigned skipped;
} rl = { -1, "", 0, 0 };

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void ol_clog_refused(cfs_cluster *c, const char *pgid, int osd,
		     uint64_t bytes, const char *name, const char *why)
{
	unsigned long long ino, no;
	char who[24], file[64] = "", more[112] = "";
	int64_t t = now_ms();
	int end = 0;

	pthread_mutex_lock(&rl_lock);
	if (rl.osd == osd && !strcmp(rl.pgid, pgid) && t - rl.ms < 1000) {
		rl.skipped++;
		pthread_mutex_unlock(&rl_lock);
		return;
	}
	if (rl.skipped)
		snprintf(more, sizeof(more), "; %u more writes refused in pg "
			 "%s on osd.%d before", rl.skipped, rl.pgid, rl.osd);
	rl.osd = osd;
	snprintf(rl.pgid, sizeof(rl.pgid), "%s", pgid);
	rl.ms = t;
	rl.skipped = 0;
	pthread_mutex_unlock(&rl_lock);

	/* CephFS's object names: "%llx.%08llx" (inode, object number) */
	if (sscanf(name, "%llx.%8llx%n", &ino, &no, &end) == 2 &&
	    !name[end])
		snprintf(file, sizeof(file), " (file inode 0x%llx, object %llu)",
			 ino, no);
	snprintf(who, sizeof(who), "osd.%d", osd);
	cfs_clog(c, CFS_CLOG_WARN, "cluster", who,
		 "pg %s: write of %" PRIu64 " bytes to %s%s refused (ENOSPC): "
		 "osd.%d is full (%s)%s", pgid, bytes, name, file, osd, why,
		 more);
}

void ol_clog_scrub(cfs_cluster *c, const char *pgid, int primary, int deep,
		   int repair, uint64_t errors, uint64_t repaired)
{
	char who[24];
	/* PG::scrub_finish's mode word: a repair is "repair", deep or not */
	const char *what = repair ? "repair" : deep ? "deep-scrub" : "scrub";

	snprintf(who, sizeof(who), primary >= 0 ? "osd.%d" : "osd", primary);
	if (!errors)
		cfs_clog(c, CFS_CLOG_DEBUG, "cluster", who, "%s %s ok", pgid,
			 what);
	else if (repair)
		cfs_clog(c, CFS_CLOG_ERROR, "cluster", who,
			 "%s %s %" PRIu64 " errors, %" PRIu64 " fixed", pgid,
			 what, errors, repaired);
	else
		cfs_clog(c, CFS_CLOG_ERROR, "cluster", who,
			 "%s %s %" PRIu64 " errors", pgid, what, errors);
}
