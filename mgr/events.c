/*
 * events.c - reading the cluster log (mgr_events.h): `ceph log last`
 * (LogMonitor::preprocess_command, Ceph 16.2: the last N entries at LEVEL
 * and above on CHANNEL, oldest first) and `ceph -w` (the monitor's log
 * subscription; here a tail of the file woken by inotify).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "clog.h"
#include "mgr_events.h"

static void copy(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src ? src : "");
}

int mgr_log_parse(const char *line, size_t len, struct mgr_log_entry *e)
{
	json_t *o = json_loadb(line, len, 0, NULL);
	const char *prio;
	int r = -EINVAL;

	if (!json_is_object(o))
		goto out;
	prio = json_string_value(json_object_get(o, "prio"));
	e->prio = prio ? cfs_clog_prio_parse(prio) : -1;
	if (e->prio < 0 || !json_is_string(json_object_get(o, "msg")))
		goto out;
	copy(e->stamp, sizeof(e->stamp),
	     json_string_value(json_object_get(o, "stamp")));
	copy(e->name, sizeof(e->name),
	     json_string_value(json_object_get(o, "name")));
	copy(e->rank, sizeof(e->rank),
	     json_string_value(json_object_get(o, "rank")));
	copy(e->channel, sizeof(e->channel),
	     json_string_value(json_object_get(o, "channel")));
	copy(e->msg, sizeof(e->msg),
	     json_string_value(json_object_get(o, "msg")));
	e->seq = (uint64_t)json_integer_value(json_object_get(o, "seq"));
	r = 0;
out:
	json_decref(o);
	return r;
}

void mgr_log_format(const struct mgr_log_entry *e, char *buf, size_t len)
{
	snprintf(buf, len, "%s %s (%s) %llu : %s %s %s", e->stamp, e->name,
		 e->rank, (unsigned long long)e->seq, e->channel,
		 cfs_clog_prio_tag(e->prio), e->msg);
}

void mgr_log_format_watch(const struct mgr_log_entry *e, char *buf,
			  size_t len)
{
	/* ceph.in's watch_cb: the channel is shown for all but "cluster" */
	int other = strcmp(e->channel, "cluster") != 0;

	snprintf(buf, len, "%s %s %s%s%s %s", e->stamp, e->name,
		 other ? e->channel : "", other ? " " : "",
		 cfs_clog_prio_tag(e->prio), e->msg);
}

void *mgr_log_json(const struct mgr_log_entry *e)
{
	return json_pack("{s:s, s:s, s:s, s:I, s:s, s:s, s:s}", "name",
			 e->name, "rank", e->rank, "stamp", e->stamp, "seq",
			 (json_int_t)e->seq, "channel", e->channel, "priority",
			 cfs_clog_prio_tag(e->prio), "message", e->msg);
}

int mgr_log_level_parse(const char *s)
{
	static const struct {
		const char *name;
		int level;
	} names[] = {
		{ "debug", CFS_CLOG_DEBUG }, { "info", CFS_CLOG_INFO },
		{ "sec", CFS_CLOG_SEC },     { "warn", CFS_CLOG_WARN },
		{ "warning", CFS_CLOG_WARN }, { "error", CFS_CLOG_ERROR },
		{ "err", CFS_CLOG_ERROR },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcasecmp(s, names[i].name))
			return names[i].level;
	return -1;
}

/* ---- log last ---- */

struct ring {
	struct mgr_log_entry *v;
	int cap, n, head; /* head: the slot the next entry goes to */
	int level;
	const char *channel;
};

static void ring_add(struct ring *r, const struct mgr_log_entry *e)
{
	if (e->prio < r->level ||
	    (strcmp(r->channel, "*") && strcmp(r->channel, e->channel)))
		return;
	r->v[r->head] = *e;
	r->head = (r->head + 1) % r->cap;
	if (r->n < r->cap)
		r->n++;
}

/* every complete line of one file into the ring; absent is empty */
static int scan_file(const char *path, struct ring *r)
{
	FILE *f = fopen(path, "re");
	struct mgr_log_entry *e;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	if (!f)
		return errno == ENOENT ? 0 : -errno;
	e = malloc(sizeof(*e));
	if (!e) {
		fclose(f);
		return -ENOMEM;
	}
	while ((n = getline(&line, &cap, f)) > 0) {
		if (line[n - 1] != '\n')
			break; /* being written */
		if (!mgr_log_parse(line, (size_t)n - 1, e))
			ring_add(r, e);
	}
	free(line);
	free(e);
	fclose(f);
	return 0;
}

int mgr_log_last(const char *dir, int n, int level, const char *channel,
		 struct mgr_log_entry **out, int *nout)
{
	struct ring r = { 0 };
	char path[PATH_MAX];
	int err;

	*out = NULL;
	*nout = 0;
	if (n <= 0)
		return 0;
	r.cap = n;
	r.level = level;
	r.channel = channel;
	r.v = calloc((size_t)n, sizeof(*r.v));
	if (!r.v)
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s/" CFS_CLOG_FILE ".1", dir);
	err = scan_file(path, &r);
	snprintf(path, sizeof(path), "%s/" CFS_CLOG_FILE, dir);
	if (!err)
		err = scan_file(path, &r);
	if (err) {
		free(r.v);
		return err;
	}
	/* oldest first: rotate the ring so that it starts at its oldest */
	if (r.n == r.cap && r.head) {
		struct mgr_log_entry *v = malloc((size_t)n * sizeof(*v));

		if (!v) {
			free(r.v);
			return -ENOMEM;
		}
		memcpy(v, r.v + r.head, (size_t)(n - r.head) * sizeof(*v));
		memcpy(v + (n - r.head), r.v, (size_t)r.head * sizeof(*v));
		free(r.v);
		r.v = v;
	}
	*out = r.v;
	*nout = r.n;
	return 0;
}

/* ---- following ---- */

struct mgr_log_tail {
	char path[PATH_MAX];
	int ino_fd; /* inotify on the cluster directory */
	int fd;	    /* the log file being read, -1: none yet */
	char buf[8192];
	size_t have; /* bytes of a line not complete yet */
};

int mgr_log_tail_open(const char *dir, mgr_log_tail **out)
{
	mgr_log_tail *t = calloc(1, sizeof(*t));

	if (!t)
		return -ENOMEM;
	snprintf(t->path, sizeof(t->path), "%s/" CFS_CLOG_FILE, dir);
	t->ino_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (t->ino_fd < 0 ||
	    inotify_add_watch(t->ino_fd, dir,
			      IN_MODIFY | IN_CREATE | IN_MOVED_TO) < 0) {
		int e = errno;

		if (t->ino_fd >= 0)
			close(t->ino_fd);
		free(t);
		return -e;
	}
	t->fd = open(t->path, O_RDONLY | O_CLOEXEC);
	if (t->fd >= 0)
		lseek(t->fd, 0, SEEK_END);
	*out = t;
	return 0;
}

int mgr_log_tail_fd(const mgr_log_tail *t)
{
	return t->ino_fd;
}

/* every complete line from t->fd's position on */
static int drain(mgr_log_tail *t,
		 int (*fn)(const struct mgr_log_entry *e, void *arg),
		 void *arg)
{
	struct mgr_log_entry e;

	for (;;) {
		ssize_t n = read(t->fd, t->buf + t->have,
				 sizeof(t->buf) - t->have);
		size_t start = 0;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : 0;
		t->have += (size_t)n;
		for (size_t i = 0; i < t->have; i++) {
			if (t->buf[i] != '\n')
				continue;
			if (!mgr_log_parse(t->buf + start, i - start, &e)) {
				int r = fn(&e, arg);

				if (r)
					return r;
			}
			start = i + 1;
		}
		if (start == 0 && t->have == sizeof(t->buf))
			start = t->have; /* a line longer than any entry */
		memmove(t->buf, t->buf + start, t->have - start);
		t->have -= start;
	}
}

int mgr_log_tail_changed(mgr_log_tail *t)
{
	/* aligned as inotify_event, which the buffer is read as */
	char ev[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	ssize_t n;
	int hit = 0;

	while ((n = read(t->ino_fd, ev, sizeof(ev))) > 0)
		for (char *p = ev; p < ev + n;) {
			const struct inotify_event *e = (const void *)p;

			if (e->len && !strncmp(e->name, CFS_CLOG_FILE,
					       strlen(CFS_CLOG_FILE)))
				hit = 1;
			p += sizeof(*e) + e->len;
		}
	return hit;
}

int mgr_log_tail_read(mgr_log_tail *t,
		      int (*fn)(const struct mgr_log_entry *e, void *arg),
		      void *arg)
{
	char ev[4096];
	struct stat a, b;
	int r;

	while (read(t->ino_fd, ev, sizeof(ev)) > 0)
		;
	for (int round = 0; round < 4; round++) {
		if (t->fd < 0) {
			/* the first entry made the file: read it whole */
			t->fd = open(t->path, O_RDONLY | O_CLOEXEC);
			if (t->fd < 0)
				return errno == ENOENT ? 0 : -errno;
			t->have = 0;
		}
		r = drain(t, fn, arg);
		if (r)
			return r;
		/* rotated: what is left of the old file was just read */
		if (!fstat(t->fd, &a) && !stat(t->path, &b) &&
		    a.st_ino == b.st_ino && a.st_dev == b.st_dev)
			return 0;
		close(t->fd);
		t->fd = -1;
	}
	return 0;
}

void mgr_log_tail_close(mgr_log_tail *t)
{
	if (!t)
		return;
	if (t->fd >= 0)
		close(t->fd);
	close(t->ino_fd);
	free(t);
}
