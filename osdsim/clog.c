/*
 * clog.c - appending to the cluster log (clog.h).  Ceph's daemons send
 * LogEntry messages to the monitor, which numbers and stores them
 * (LogMonitor::preprocess_log / prepare_log, Ceph 16.2); here every
 * process appends to one file, and the monitor's numbering is done under
 * an flock of that file: the next seq is one more than the last line's.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "clog.h"
#include "osdsim_i.h"
#include "util.h"

static const char *const tags[] = { "DBG", "INF", "SEC", "WRN", "ERR" };
static const char *const ptags[] = { "[DBG]", "[INF]", "[SEC]", "[WRN]",
				     "[ERR]" };
static atomic_size_t limit_bytes;

const char *cfs_clog_prio_tag(int level)
{
	return level >= 0 && level <= CFS_CLOG_ERROR ? ptags[level] : NULL;
}

int cfs_clog_prio_parse(const char *tag)
{
	for (int i = 0; i <= CFS_CLOG_ERROR; i++)
		if (!strcmp(tag, tags[i]))
			return i;
	return -1;
}

void cfs_clog_set_limit(size_t bytes)
{
	atomic_store(&limit_bytes, bytes);
}

size_t cfs_clog_limit(void)
{
	size_t l = atomic_load(&limit_bytes);

	return l ? l : CFS_CLOG_DEFAULT_LIMIT;
}

/* the seq of the last complete line of fd (size bytes long), 0 if none */
static uint64_t last_seq(int fd, off_t size)
{
	char buf[8192 + 1];
	off_t from = size > 8192 ? size - 8192 : 0;
	ssize_t n;
	char *p, *q;

	if (size <= 0)
		return 0;
	n = pread(fd, buf, (size_t)(size - from), from);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	/* the start of the last line: after the newline before its own */
	q = n > 1 ? memrchr(buf, '\n', (size_t)n - 1) : NULL;
	p = strstr(q ? q + 1 : buf, "\"seq\":");
	return p ? strtoull(p + 6, NULL, 10) : 0;
}

static uint64_t rotated_seq(const char *dir)
{
	char path[PATH_MAX];
	struct stat st;
	uint64_t s = 0;
	int fd;

	snprintf(path, sizeof(path), "%s/" CFS_CLOG_FILE ".1", dir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (!fstat(fd, &st))
		s = last_seq(fd, st.st_size);
	close(fd);
	return s;
}

/* open DIR/cluster.log for appending, locked: the file the path names
 * once the lock is held (another writer may have rotated it meanwhile) */
static int open_locked(const char *dir, const char *path)
{
	for (int tries = 0; tries < 8; tries++) {
		struct stat a, b;
		int fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC,
			      0600);

		if (fd < 0)
			return -errno;
		while (flock(fd, LOCK_EX) && errno == EINTR)
			;
		if (!fstat(fd, &a) && !stat(path, &b) && a.st_ino == b.st_ino &&
		    a.st_dev == b.st_dev)
			return fd;
		close(fd);
	}
	(void)dir;
	return -EAGAIN;
}

static void stamp(char *buf, size_t len)
{
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	tm.tm_year %= 10000; /* four digits: the length is bounded */
	/* utime_t::localtime's form, in UTC: 2026-11-27T22:20:01.123456+0000 */
	snprintf(buf, len, "%04d-%02d-%02dT%02d:%02d:%02d.%06ld+0000",
		 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		 tm.tm_min, tm.tm_sec, ts.tv_nsec / 1000);
}

/* "mon.a" -> rank "mon.0" (one monitor, rank 0); "osd.3" stays */
static void rank_of(const char *who, char *buf, size_t len)
{
	const char *dot = strchr(who, '.');

	if (dot && !strncmp(who, "osd.", 4))
		snprintf(buf, len, "%s", who);
	else
		snprintf(buf, len, "%.*s.0", dot ? (int)(dot - who) : 8, who);
}

int cfs_clog_dir(const char *dir, int level, const char *channel,
		 const char *who, const char *msg)
{
	char path[PATH_MAX], st[64], rank[40];
	struct stat sb;
	json_t *o;
	char *line;
	uint64_t seq;
	size_t len;
	int fd, r = 0;

	if (level < 0 || level > CFS_CLOG_ERROR)
		return -EINVAL;
	snprintf(path, sizeof(path), "%s/" CFS_CLOG_FILE, dir);
	fd = open_locked(dir, path);
	if (fd < 0)
		return fd;
	if (fstat(fd, &sb)) {
		r = -errno;
		goto out;
	}
	seq = sb.st_size ? last_seq(fd, sb.st_size) : rotated_seq(dir);
	stamp(st, sizeof(st));
	rank_of(who, rank, sizeof(rank));
	o = json_pack("{s:s, s:s, s:s, s:I, s:s, s:s, s:s}", "stamp", st,
		      "name", who, "rank", rank, "seq", (json_int_t)(seq + 1),
		      "channel", channel, "prio", tags[level], "msg", msg);
	line = o ? json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
	json_decref(o);
	if (!line) {
		r = -ENOMEM;
		goto out;
	}
	len = strlen(line);
	line[len++] = '\n'; /* over the NUL: the line is written by length */
	if (write(fd, line, len) != (ssize_t)len)
		r = errno ? -errno : -EIO;
	free(line);
	/* rotate while holding the lock: the next writer opens the new
	 * file, a reader holding the old one reads it to its end */
	if (!r && (size_t)sb.st_size + len > cfs_clog_limit()) {
		char old[PATH_MAX + 4];

		snprintf(old, sizeof(old), "%s.1", path);
		if (rename(path, old))
			r = -errno;
	}
out:
	close(fd); /* drops the lock */
	return r;
}

void cfs_clog(cfs_cluster *c, int level, const char *channel,
	      const char *who, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	int r;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	r = cfs_clog_dir(c->dir, level, channel, who, msg);
	if (r)
		cfs_log(CFS_LOG_DEBUG, "cluster log %s/" CFS_CLOG_FILE
			": %s: entry dropped", c->dir, strerror(-r));
}
