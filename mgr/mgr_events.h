/*
 * mgr_events.h - reading the cluster log (osdsim/clog.h writes it) and the
 * fill history (the mounted daemon samples it): what `crushfs log last`,
 * `crushfs -w` and the dashboard's event panel and chart show.
 *
 * Errors: 0 or -errno.  Nothing here prints.
 */
#ifndef CRUSHFS_MGR_EVENTS_H
#define CRUSHFS_MGR_EVENTS_H

#include <stddef.h>
#include <stdint.h>

typedef struct cfs_cluster cfs_cluster;
typedef struct objlayer objlayer;

/* ---- the cluster log (events.c) ---- */

/* One LogEntry as Ceph keeps it (common/LogEntry.h). */
struct mgr_log_entry {
	char stamp[40];	  /* "2026-11-27T22:20:01.123456+0000" */
	char name[32];	  /* "mon.a", "osd.3" */
	char rank[32];	  /* "mon.0", "osd.3" */
	uint64_t seq;
	char channel[16]; /* "cluster", "audit" */
	int prio;	  /* enum cfs_clog_level */
	char msg[1024];
};

/* One line of DIR/cluster.log; -EINVAL when it is not an entry. */
int mgr_log_parse(const char *line, size_t len, struct mgr_log_entry *e);
/* `ceph log last`'s form (LogEntry's operator<<):
 * "STAMP NAME (RANK) SEQ : CHANNEL [PRIO] MSG" */
void mgr_log_format(const struct mgr_log_entry *e, char *buf, size_t len);
/* `ceph -w`'s form: "STAMP NAME [PRIO] MSG", the channel in front when
 * it is not "cluster" */
void mgr_log_format_watch(const struct mgr_log_entry *e, char *buf,
			  size_t len);
/* A JSON object as `ceph log last -f json` gives each entry (jansson
 * json_t *, returned as void * to keep jansson out of this header). */
void *mgr_log_json(const struct mgr_log_entry *e);
/* "debug", "info", "sec", "warn"/"warning", "error"/"err" -> level;
 * -1 if none (LogEntry::str_to_level) */
int mgr_log_level_parse(const char *s);

/*
 * `ceph log last [N] [LEVEL] [CHANNEL]`: the last n entries of priority
 * level and above on channel ("*": every channel), oldest first, from
 * DIR/cluster.log.1 and DIR/cluster.log.  *out is malloc'd (free it);
 * no log yet is no entry, not an error.
 */
int mgr_log_last(const char *dir, int n, int level, const char *channel,
		 struct mgr_log_entry **out, int *nout);

/*
 * Following the log as it grows (`ceph -w`): opened at its current end;
 * the fd is readable (poll it) when the log may have grown; read hands
 * each new complete entry to fn (non-zero from fn stops and is returned).
 * A rotation is followed: the old file is read to its end first.
 */
typedef struct mgr_log_tail mgr_log_tail;
int mgr_log_tail_open(const char *dir, mgr_log_tail **out);
int mgr_log_tail_fd(const mgr_log_tail *t);
int mgr_log_tail_read(mgr_log_tail *t,
		      int (*fn)(const struct mgr_log_entry *e, void *arg),
		      void *arg);
/* Drain the fd's events: 1 if one was about the log (the directory's
 * other files wake it too), else 0. */
int mgr_log_tail_changed(mgr_log_tail *t);
void mgr_log_tail_close(mgr_log_tail *t);

/* ---- the fill history (history.c) ----
 * DIR/fill_history.jsonl, one sample a line, written by the mounted
 * daemon every mgr_history_interval seconds (config, default 5; 0: off),
 * the last 24 hours of samples kept:
 *   {"t":UNIX_SECONDS,"used":B,"total":B,"fullest_osd":N,
 *    "fullest_pct":P,"nearfull_ratio":R,"full_ratio":R,
 *    "pools":[{"id":1,"name":"crushfs_data","stored":B,"max_avail":B}]} */
#define MGR_HISTORY_FILE "fill_history.jsonl"
typedef struct cfs_osdmap cfs_osdmap;
struct cfs_health;
struct mgr_history;
int mgr_history_open(const char *dir, struct mgr_history **out);
void mgr_history_close(struct mgr_history *h);
/* Append one sample from a health snapshot h taken on m. */
int mgr_history_sample(struct mgr_history *h, cfs_cluster *c,
		       const cfs_osdmap *m, const struct cfs_health *hs);
/* The interval in seconds (0: no sampling). */
uint32_t mgr_history_interval(cfs_cluster *c);
/* The samples newer than since (UNIX seconds; 0: all), oldest first, as
 * a jansson array (json_t *), thinned evenly to at most max_points (0: no
 * limit; the newest is always kept); NULL only without memory. */
void *mgr_history_read(const char *dir, double since, int max_points);
/* Following the file: where a reader is, and the newest sample it had.
 * Start with off 0, ino 0 and t the newest sample already shown. */
struct mgr_history_pos {
	uint64_t ino;
	long off;
	double t;
};
/* The samples added since pos (a trimmed file is read again from its
 * start, samples not newer than pos->t skipped), as read gives them;
 * an empty array when nothing is new. */
void *mgr_history_read_new(const char *dir, struct mgr_history_pos *pos);

/* ---- the daemon's tick (tick.c) ----
 * Health changes into the cluster log (HealthMonitor's lines), the PG
 * state counts as the mgr's "pgmap" line, and history samples.  run
 * returns the milliseconds until it wants to run again. */
struct mgr_tick;
int mgr_tick_create(cfs_cluster *c, objlayer *ol, struct mgr_tick **out);
int mgr_tick_run(struct mgr_tick *t);
void mgr_tick_destroy(struct mgr_tick *t);

#endif
