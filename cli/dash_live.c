/*
 * dash_live.c - the dashboard's live page and its event stream.
 *
 * GET / is the report (`crushfs report`) with a live panel put in front of
 * its body: the health, an event log as `ceph -w` shows it (newest first),
 * and a fill-over-time chart drawn from the daemon's history
 * (mgr_history_read).  GET /events is a server-sent event stream
 * (text/event-stream, the EventSource protocol of the HTML standard):
 *   event: log      one cluster log entry (mgr_log_json), info and above
 *   event: status   {"status":..,"df":..,"report":"<body html>"} when the
 *                   status or osd df changed
 *   event: history  new fill samples (an array)
 * and a comment line every 10 s, which finds a client gone.  ?seq=N and
 * ?since=T (what the page already shows) make a new stream start where
 * the page stopped, so nothing between the page and the stream is lost.
 *
 * One snapshot thread runs the commands while a stream is open (every
 * 2 s, or as soon as the cluster log grows) and bumps a generation; each
 * stream's reader (a connection thread of libmicrohttpd's) waits in
 * poll() on its own log tail and its socket, so a client that leaves is
 * seen at once and its descriptors go with it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <microhttpd.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "clog.h"
#include "dash_i.h"
#include "mgr_events.h"

#define SNAP_MS 2000
#define KEEPALIVE_S 10
#define MAX_STREAMS 48
#define PAGE_LOG 100	 /* log entries in a new page */
#define PAGE_POINTS 720	 /* history samples in a new page */

struct dash_live {
	pthread_t th;
	int running;
	int wake[2]; /* a byte: stop */
	atomic_int stop;
	atomic_int streams;
	pthread_mutex_t lock;
	uint64_t gen;	/* bumped when snap changes */
	char *snap;	/* the status event's data (one line of JSON) */
	char *key;	/* status + df of snap: what "changed" compares */
};

/* ---- snapshots ---- */

/* the report's body: between <body...> and </body> (malloc'd) */
static char *body_of(const char *html)
{
	const char *a = strstr(html, "<body");
	const char *b;

	a = a ? strchr(a, '>') : NULL;
	b = a ? strstr(a, "</body>") : NULL;
	return a && b ? strndup(a + 1, (size_t)(b - a - 1)) : NULL;
}

static void snapshot(struct dash *d)
{
	static const char *const st[] = { "-f", "json", "status", NULL };
	static const char *const df[] = { "-f", "json", "osd", "df", NULL };
	static const char *const rp[] = { "report", NULL };
	struct dash_live *l = d->live;
	size_t n1 = 0, n2 = 0, n3 = 0;
	char *s = dash_run(d, st, &n1), *f = dash_run(d, df, &n2);
	char *r = NULL, *key = NULL, *snap = NULL, *body = NULL;
	json_t *o;

	if (!s || !f)
		goto out;
	if (asprintf(&key, "%.*s\n%.*s", (int)n1, s, (int)n2, f) < 0) {
		key = NULL;
		goto out;
	}
	pthread_mutex_lock(&l->lock);
	if (l->key && !strcmp(l->key, key)) {
		pthread_mutex_unlock(&l->lock);
		goto out;
	}
	pthread_mutex_unlock(&l->lock);
	r = dash_run(d, rp, &n3);
	body = r ? body_of(r) : NULL;
	o = json_pack("{s:o?, s:o?, s:s?}", "status",
		      json_loadb(s, n1, 0, NULL), "df",
		      json_loadb(f, n2, 0, NULL), "report", body);
	snap = o ? json_dumps(o, JSON_COMPACT) : NULL;
	json_decref(o);
	if (!snap)
		goto out;
	pthread_mutex_lock(&l->lock);
	free(l->snap);
	free(l->key);
	l->snap = snap;
	l->key = key;
	l->gen++;
	pthread_mutex_unlock(&l->lock);
	snap = key = NULL;
out:
	free(s);
	free(f);
	free(r);
	free(body);
	free(key);
	free(snap);
}

static int ignore_entry(const struct mgr_log_entry *e, void *arg)
{
	(void)e;
	(void)arg;
	return 0;
}

static void *snapper(void *arg)
{
	struct dash *d = arg;
	struct dash_live *l = d->live;
	mgr_log_tail *t = NULL;

	mgr_log_tail_open(d->cluster, &t); /* without: every 2 s only */
	while (!atomic_load(&l->stop)) {
		struct pollfd p[2] = { { .fd = l->wake[0], .events = POLLIN },
				       { .fd = t ? mgr_log_tail_fd(t) : -1,
					 .events = POLLIN } };

		char b[64];

		if (atomic_load(&l->streams) > 0)
			snapshot(d);
		if (poll(p, 2, SNAP_MS) <= 0)
			continue;
		if (p[0].revents && read(l->wake[0], b, sizeof(b)) < 0) {
			/* nothing to drain */
		}
		/* only the log: the daemon rewrites the directory's other
		 * files as it writes, which must not make this a loop */
		if (p[1].revents && mgr_log_tail_changed(t)) {
			/* let a burst of entries end before the commands */
			usleep(200 * 1000);
			mgr_log_tail_read(t, ignore_entry, NULL);
		}
	}
	mgr_log_tail_close(t);
	return NULL;
}

int dash_live_start(struct dash *d)
{
	struct dash_live *l = calloc(1, sizeof(*l));

	if (!l)
		return -1;
	pthread_mutex_init(&l->lock, NULL);
	if (pipe2(l->wake, O_CLOEXEC | O_NONBLOCK)) {
		free(l);
		return -1;
	}
	d->live = l;
	if (pthread_create(&l->th, NULL, snapper, d)) {
		close(l->wake[0]);
		close(l->wake[1]);
		free(l);
		d->live = NULL;
		return -1;
	}
	l->running = 1;
	return 0;
}

void dash_live_stop(struct dash *d)
{
	struct dash_live *l = d->live;

	if (!l)
		return;
	atomic_store(&l->stop, 1);
	if (write(l->wake[1], "s", 1) < 0) {
		/* the poll times out within SNAP_MS anyway */
	}
	if (l->running)
		pthread_join(l->th, NULL);
	l->running = 0;
}

void dash_live_free(struct dash *d)
{
	struct dash_live *l = d->live;

	if (!l)
		return;
	close(l->wake[0]);
	close(l->wake[1]);
	pthread_mutex_destroy(&l->lock);
	free(l->snap);
	free(l->key);
	free(l);
	d->live = NULL;
}

/* ---- the page ---- */

static int is_shown(const struct mgr_log_entry *e)
{
	return e->prio >= CFS_CLOG_INFO && !strcmp(e->channel, "cluster");
}

char *dash_live_page(struct dash *d, size_t *len)
{
	static const char *const rp[] = { "report", NULL };
	size_t n = 0;
	char *html = dash_run(d, rp, &n), *init, *out = NULL;
	const char *head, *body, *end;
	struct mgr_log_entry *v = NULL;
	json_t *log = json_array(), *o;
	int nv = 0;

	if (!html)
		goto out;
	head = strstr(html, "</head>");
	body = strstr(html, "<body");
	body = body ? strchr(body, '>') : NULL;
	end = body ? strstr(body, "</body>") : NULL;
	if (!head || !body || !end || head > body)
		goto out;
	body++;
	if (!mgr_log_last(d->cluster, PAGE_LOG, CFS_CLOG_INFO, "cluster", &v,
			  &nv))
		for (int i = 0; i < nv; i++)
			if (is_shown(&v[i]))
				json_array_append_new(log, mgr_log_json(&v[i]));
	free(v);
	o = json_pack("{s:o, s:o}", "log", log, "history",
		      mgr_history_read(d->cluster, 0, PAGE_POINTS));
	log = NULL;
	/* JSON_ESCAPE_SLASH: no "</script>" can end the element early */
	init = o ? json_dumps(o, JSON_COMPACT | JSON_ESCAPE_SLASH) : NULL;
	json_decref(o);
	if (!init)
		goto out;
	if (asprintf(&out,
		     "%.*s<style>%s</style>%.*s%s<div id=\"report-body\">"
		     "%.*s</div><script type=\"application/json\" "
		     "id=\"live-init\">%s</script><script>%s</script>%s",
		     (int)(head - html), html, dash_page_style,
		     (int)(body - head), head, dash_page_panel,
		     (int)(end - body), body, init, dash_page_script,
		     end) < 0)
		out = NULL;
	free(init);
	if (out)
		*len = strlen(out);
out:
	json_decref(log);
	free(html);
	return out;
}

/* ---- JSON ---- */

/* GET /api/logs: Ceph dashboard's /api/logs/all shape, {"clog": [...],
 * "audit_log": [...]}, the last PAGE_LOG of each, oldest first */
char *dash_live_logs(struct dash *d, size_t *len)
{
	static const char *const chans[] = { "cluster", "audit" };
	static const char *const keys[] = { "clog", "audit_log" };
	json_t *o = json_object();
	char *out;

	for (int k = 0; k < 2 && o; k++) {
		struct mgr_log_entry *v = NULL;
		json_t *a = json_array();
		int nv = 0;

		if (!mgr_log_last(d->cluster, PAGE_LOG, CFS_CLOG_DEBUG,
				  chans[k], &v, &nv))
			for (int i = 0; i < nv; i++)
				json_array_append_new(a, mgr_log_json(&v[i]));
		free(v);
		json_object_set_new(o, keys[k], a);
	}
	out = o ? json_dumps(o, JSON_COMPACT) : NULL;
	json_decref(o);
	if (out)
		*len = strlen(out);
	return out;
}

/* GET /api/history: every sample the daemon kept, oldest first */
char *dash_live_history(struct dash *d, size_t *len)
{
	json_t *a = mgr_history_read(d->cluster, 0, 0);
	char *out = a ? json_dumps(a, JSON_COMPACT) : NULL;

	json_decref(a);
	if (out)
		*len = strlen(out);
	return out;
}

/* ---- the event stream ---- */

struct stream {
	struct dash *d;
	int sock;
	mgr_log_tail *tail;
	uint64_t gen;	   /* of the last status sent */
	uint64_t seq;	   /* the newest log entry the client has */
	struct mgr_history_pos hist;
	time_t last;	   /* of the last bytes handed out */
	char *buf;
	size_t len, off, cap;
	int oom;
};

static void put(struct stream *s, const char *event, const char *data)
{
	size_t need = strlen(event) + strlen(data) + 32;

	if (s->cap - s->len < need) {
		size_t cap = s->cap ? s->cap : 4096;
		char *nb;

		while (cap - s->len < need)
			cap *= 2;
		nb = realloc(s->buf, cap);
		if (!nb) {
			s->oom = 1;
			return;
		}
		s->buf = nb;
		s->cap = cap;
	}
	/* data is one line (compact JSON): one data field */
	s->len += (size_t)sprintf(s->buf + s->len, "event: %s\ndata: %s\n\n",
				  event, data);
}

static void put_json(struct stream *s, const char *event, json_t *o)
{
	char *t = o ? json_dumps(o, JSON_COMPACT) : NULL;

	if (t)
		put(s, event, t);
	free(t);
}

static int log_entry(const struct mgr_log_entry *e, void *arg)
{
	struct stream *s = arg;
	json_t *o;

	if (!is_shown(e) || e->seq <= s->seq)
		return 0;
	s->seq = e->seq;
	o = mgr_log_json(e);
	put_json(s, "log", o);
	json_decref(o);
	return 0;
}

/* what is new: log entries, a status, history samples */
static void gather(struct stream *s)
{
	struct dash_live *l = s->d->live;
	json_t *h;

	mgr_log_tail_read(s->tail, log_entry, s);
	pthread_mutex_lock(&l->lock);
	if (l->gen != s->gen && l->snap) {
		s->gen = l->gen;
		put(s, "status", l->snap);
	}
	pthread_mutex_unlock(&l->lock);
	h = mgr_history_read_new(s->d->cluster, &s->hist);
	if (json_array_size(h))
		put_json(s, "history", h);
	json_decref(h);
}

static ssize_t stream_read(void *cls, uint64_t pos, char *out, size_t max)
{
	struct stream *s = cls;
	struct dash_live *l = s->d->live;
	size_t n;

	(void)pos;
	while (s->off == s->len) {
		struct pollfd p[2] = {
			{ .fd = mgr_log_tail_fd(s->tail), .events = POLLIN },
			{ .fd = s->sock, .events = POLLRDHUP },
		};

		s->off = s->len = 0;
		if (atomic_load(&l->stop))
			return MHD_CONTENT_READER_END_OF_STREAM;
		gather(s);
		if (s->oom)
			return MHD_CONTENT_READER_END_WITH_ERROR;
		if (s->len)
			break;
		if (time(NULL) - s->last >= KEEPALIVE_S) {
			put(s, "keepalive", "{}");
			break;
		}
		/* woken by the log; every 500 ms for a status or sample */
		if (poll(p, 2, 500) > 0 &&
		    (p[1].revents & (POLLRDHUP | POLLHUP | POLLERR)))
			return MHD_CONTENT_READER_END_WITH_ERROR;
	}
	n = s->len - s->off < max ? s->len - s->off : max;
	memcpy(out, s->buf + s->off, n);
	s->off += n;
	s->last = time(NULL);
	return (ssize_t)n;
}

static void stream_free(void *cls)
{
	struct stream *s = cls;

	atomic_fetch_sub(&s->d->live->streams, 1);
	mgr_log_tail_close(s->tail);
	free(s->buf);
	free(s);
}

/* the entries after seq the client may have missed (between its page and
 * this stream), then the tail */
static void backlog(struct stream *s)
{
	struct mgr_log_entry *v = NULL;
	int nv = 0;

	if (mgr_log_last(s->d->cluster, PAGE_LOG, CFS_CLOG_INFO, "cluster",
			 &v, &nv))
		return;
	for (int i = 0; i < nv; i++)
		log_entry(&v[i], s);
	free(v);
}

struct MHD_Response *dash_live_events(struct dash *d,
				      struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
	const char *seq = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND,
						      "seq");
	const char *since = MHD_lookup_connection_value(
		c, MHD_GET_ARGUMENT_KIND, "since");
	struct MHD_Response *r;
	struct stream *s;

	if (!d->live || !ci ||
	    atomic_fetch_add(&d->live->streams, 1) >= MAX_STREAMS) {
		if (d->live)
			atomic_fetch_sub(&d->live->streams, 1);
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s || mgr_log_tail_open(d->cluster, &s->tail)) {
		free(s);
		atomic_fetch_sub(&d->live->streams, 1);
		return NULL;
	}
	s->d = d;
	s->sock = ci->connect_fd;
	s->seq = seq ? strtoull(seq, NULL, 10) : 0;
	s->hist.t = since ? strtod(since, NULL) : 0;
	s->last = time(NULL);
	/* the tail is open: entries from now on come through it */
	backlog(s);
	/* a snapshot now, not at the next round: the first client's
	 * status would otherwise wait up to SNAP_MS */
	if (write(d->live->wake[1], "w", 1) < 0) {
		/* full pipe: a wake-up is pending already */
	}
	r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 16384,
					      stream_read, s, stream_free);
	if (!r) {
		stream_free(s);
		return NULL;
	}
	MHD_add_response_header(r, "Content-Type", "text/event-stream");
	MHD_add_response_header(r, "Cache-Control", "no-store");
	return r;
}
