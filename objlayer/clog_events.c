/*
 * clog_events.c - what objlayer tells the cluster log (osdsim/clog.h): a
 * write refused for a full OSD (Ceph's OSD says so in its log and the
 * monitor raises OSD_FULL; the operator's question is which file, which PG,
 * which OSD, so the line names all three), and a scrub that found errors
 * (PrimaryLogPG::scrub's "1.1a deep-scrub 1 errors", Ceph 16.2, [ERR]).
 */
#include <inttypes.h>
#include <stdio.h>

#include "clog.h"
#include "objlayer_i.h"

void ol_clog_refused(cfs_cluster *c, const char *pgid, int osd,
		     uint64_t bytes, const char *name, const char *why)
{
	unsigned long long ino, no;
	char who[24], file[64] = "";
	int end = 0;

	/* CephFS's object names: "%llx.%08llx" (inode, object number) */
	if (sscanf(name, "%llx.%8llx%n", &ino, &no, &end) == 2 &&
	    !name[end])
		snprintf(file, sizeof(file), " (file inode 0x%llx, object %llu)",
			 ino, no);
	snprintf(who, sizeof(who), "osd.%d", osd);
	cfs_clog(c, CFS_CLOG_WARN, "cluster", who,
		 "pg %s: write of %" PRIu64 " bytes to %s%s refused (ENOSPC): "
		 "osd.%d is full (%s)", pgid, bytes, name, file, osd, why);
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
