/*
 * clog.h - the cluster log (Ceph's clog: what `ceph -w` and `ceph log
 * last` show), written where events happen: map changes (osdmap_change.c),
 * refused writes and scrub errors (objlayer), health changes (the mounted
 * daemon's mgr tick).  Reading and formatting it is mgr/'s (mgr_events.h).
 *
 * One JSON object per line in DIR/cluster.log, mode 0600:
 *   {"stamp":"2026-11-27T22:20:01.123456+0000","name":"mon.a",
 *    "rank":"mon.0","seq":12,"channel":"cluster","prio":"WRN","msg":"..."}
 * Several processes append (the CLI and the daemon): each event is one
 * O_APPEND write under flock(LOCK_EX), which also orders seq.  Past
 * cfs_clog_limit() bytes the file becomes DIR/cluster.log.1 (the previous
 * .1 goes): at most twice the limit on disk.
 */
#ifndef CRUSHFS_CLOG_H
#define CRUSHFS_CLOG_H

#include <stddef.h>
#include <stdint.h>

typedef struct cfs_cluster cfs_cluster;

/* Ceph's clog_type, in its order (common/LogEntry.h): a filter level
 * keeps entries of that priority and above */
enum cfs_clog_level {
	CFS_CLOG_DEBUG = 0,
	CFS_CLOG_INFO = 1,
	CFS_CLOG_SEC = 2,
	CFS_CLOG_WARN = 3,
	CFS_CLOG_ERROR = 4,
};

#define CFS_CLOG_FILE "cluster.log"
#define CFS_CLOG_DEFAULT_LIMIT (4u << 20)

/* "[DBG]" .. "[ERR]" as LogEntry prints a priority; NULL out of range */
const char *cfs_clog_prio_tag(int level);
/* "DBG", "INF", "SEC", "WRN", "ERR" -> level; -1 if none */
int cfs_clog_prio_parse(const char *tag);

/*
 * Append one entry: who is the daemon it comes from ("mon.a", "osd.3",
 * "mgr.x"), channel "cluster" or "audit".  Never fails the caller: an
 * entry that cannot be written is dropped with one cfs_log line (a full
 * disk must not turn a refused write into another error).
 */
void cfs_clog(cfs_cluster *c, int level, const char *channel,
	      const char *who, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* The same, for a cluster directory (no open cluster needed); 0 or
 * -errno. */
int cfs_clog_dir(const char *dir, int level, const char *channel,
		 const char *who, const char *msg);
/* The rotation size for this process (tests make it small); 0: default */
void cfs_clog_set_limit(size_t bytes);
size_t cfs_clog_limit(void);

#endif
