/*
 * dash_i.h - what the dashboard's files share (cmd_dashboard.c: the
 * command, HTTP, auth; dash_live.c: the live page and its event stream;
 * dash_page.c: the page's own style and script).
 */
#ifndef CRUSHFS_DASH_I_H
#define CRUSHFS_DASH_I_H

#include <limits.h>
#include <stddef.h>

struct MHD_Connection;
struct MHD_Response;
struct dash_live;

/* the longest password file line we take; Ceph's has no limit we know */
#define DASH_PASS_MAX 1024

struct dash {
	char exe[PATH_MAX];
	const char *cluster;
	const char *user;	/* the Basic auth user, "admin" as Ceph's */
	char pass[DASH_PASS_MAX + 1];	/* empty: no auth (loopback only) */
	size_t pass_len;
	struct dash_live *live;
};

/* run `crushfs --cluster DIR WORDS...`; its stdout (malloc'd and
 * NUL-terminated, *len bytes before the NUL), or NULL */
char *dash_run(const struct dash *d, const char *const *words, size_t *len);

/* dash_live.c */
int dash_live_start(struct dash *d);
/* tell the streams and the snapshot thread to end, and join the thread */
void dash_live_stop(struct dash *d);
/* after the HTTP daemon stopped (no stream left) */
void dash_live_free(struct dash *d);
/* the live page: the report with the live panel and its script; NULL
 * when the cluster did not answer */
char *dash_live_page(struct dash *d, size_t *len);
/* GET /api/logs and /api/history (JSON, malloc'd; NULL: no memory) */
char *dash_live_logs(struct dash *d, size_t *len);
char *dash_live_history(struct dash *d, size_t *len);
/* the /events stream (text/event-stream) for connection c */
struct MHD_Response *dash_live_events(struct dash *d,
				      struct MHD_Connection *c);

/* dash_page.c: the live panel's markup, style and script */
extern const char dash_page_style[];
extern const char dash_page_panel[];
extern const char dash_page_script[];

#endif
