/*
 * cmd_dashboard.c - `crushfs dashboard [--listen ADDR:PORT]
 * [--allow-remote]`: the report page (report/), live, over HTTP, served by
 * libmicrohttpd.  Each request runs `crushfs report` / `osd df -f json` /
 * `status -f json` for the cluster, so a mounted cluster answers through
 * its daemon's admin socket as every other command does, and the page
 * follows a copy as it happens (it reloads itself every 2 s).
 *
 * Read-only: GET of /, /api/df and /api/status only; nothing a request
 * carries reaches a command line.  Bound to loopback unless
 * --allow-remote says otherwise.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"

struct dash {
	char exe[PATH_MAX];
	const char *cluster;
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* run `crushfs --cluster DIR WORDS...`; its stdout, or NULL */
static char *run(const struct dash *d, const char *const *words,
		 size_t *len)
{
	int pfd[2], status;
	pid_t pid;
	char *out = NULL;
	size_t n = 0, cap = 0;

	if (pipe(pfd))
		return NULL;
	pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return NULL;
	}
	if (pid == 0) {
		const char *argv[16];
		int k = 0;

		dup2(pfd[1], 1);
		close(pfd[0]);
		close(pfd[1]);
		argv[k++] = d->exe;
		argv[k++] = "--cluster";
		argv[k++] = d->cluster;
		for (int i = 0; words[i] && k < 15; i++)
			argv[k++] = words[i];
		argv[k] = NULL;
		execv(d->exe, (char *const *)argv);
		_exit(127);
	}
	close(pfd[1]);
	for (;;) {
		ssize_t r;

		if (cap - n < 65536) {
			char *np = realloc(out, cap ? cap * 2 : 131072);

			if (!np)
				break;
			out = np;
			cap = cap ? cap * 2 : 131072;
		}
		r = read(pfd[0], out + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(pfd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!out || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		free(out);
		return NULL;
	}
	*len = n;
	return out;
}

static enum MHD_Result reply(struct MHD_Connection *c, unsigned code,
			     const char *type, char *body, size_t len)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(
		len, body, MHD_RESPMEM_MUST_FREE);
	enum MHD_Result ret;

	if (!r) {
		free(body);
		return MHD_NO;
	}
	MHD_add_response_header(r, "Content-Type", type);
	MHD_add_response_header(r, "Cache-Control", "no-store");
	ret = MHD_queue_response(c, code, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result text(struct MHD_Connection *c, unsigned code,
			    const char *msg)
{
	char *b = strdup(msg);

	return b ? reply(c, code, "text/plain", b, strlen(b)) : MHD_NO;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c,
			      const char *url, const char *method,
			      const char *version, const char *upload,
			      size_t *upload_len, void **state)
{
	static const char *const page[] = { "report", NULL };
	static const char *const df[] = { "-f", "json", "osd", "df", NULL };
	static const char *const st[] = { "-f", "json", "status", NULL };
	const struct dash *d = cls;
	const char *const *words;
	const char *type;
	char *body;
	size_t len = 0;

	(void)version;
	(void)upload;
	(void)upload_len;
	(void)state;
	if (strcmp(method, "GET") && strcmp(method, "HEAD"))
		return text(c, MHD_HTTP_METHOD_NOT_ALLOWED,
			    "read-only: GET only\n");
	if (!strcmp(url, "/")) {
		words = page;
		type = "text/html; charset=utf-8";
	} else if (!strcmp(url, "/api/df")) {
		words = df;
		type = "application/json";
	} else if (!strcmp(url, "/api/status")) {
		words = st;
		type = "application/json";
	} else {
		return text(c, MHD_HTTP_NOT_FOUND, "not found\n");
	}
	body = run(d, words, &len);
	if (!body)
		return text(c, MHD_HTTP_SERVICE_UNAVAILABLE,
			    "the cluster did not answer\n");
	if (words == page) {
		/* reload every 2 s: the page follows a copy in progress */
		static const char meta[] =
			"<meta http-equiv=\"refresh\" content=\"2\">";
		char *at = strstr(body, "<head>");
		char *nb = at ? malloc(len + sizeof(meta)) : NULL;

		if (nb) {
			size_t pre = (size_t)(at - body) + 6;

			memcpy(nb, body, pre);
			memcpy(nb + pre, meta, sizeof(meta) - 1);
			memcpy(nb + pre + sizeof(meta) - 1, body + pre,
			       len - pre);
			free(body);
			body = nb;
			len += sizeof(meta) - 1;
		}
	}
	return reply(c, MHD_HTTP_OK, type, body, len);
}

static int parse_listen(struct cli_ctx *ctx, const char *s,
			struct sockaddr_in *sa)
{
	char host[64];
	const char *colon = strrchr(s, ':');
	char *end;
	long port;

	if (!colon || (size_t)(colon - s) >= sizeof(host))
		return cli_err(ctx, "--listen: expected ADDR:PORT, got '%s'",
			       s);
	memcpy(host, s, (size_t)(colon - s));
	host[colon - s] = 0;
	port = strtol(colon + 1, &end, 10);
	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	if (!colon[1] || *end || port < 0 || port > 65535 ||
	    inet_pton(AF_INET, host, &sa->sin_addr) != 1)
		return cli_err(ctx, "--listen: expected an IPv4 ADDR:PORT, "
			       "got '%s'", s);
	sa->sin_port = htons((uint16_t)port);
	return 0;
}

int cmd_dashboard(struct cli_ctx *ctx, int argc, char **argv)
{
	struct dash d = { .cluster = ctx->cluster };
	const char *listen = "127.0.0.1:7480";
	struct sockaddr_in sa;
	struct MHD_Daemon *md;
	const union MHD_DaemonInfo *info;
	int remote = 0;
	ssize_t n;

	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--listen") && i + 1 < argc)
			listen = argv[++i];
		else if (!strcmp(argv[i], "--allow-remote"))
			remote = 1;
		else if (!strncmp(argv[i], "--cluster=", 10))
			d.cluster = argv[i] + 10;
		else if (!strcmp(argv[i], "--cluster") && i + 1 < argc)
			d.cluster = argv[++i];
		else
			return cli_err(ctx, "unexpected argument '%s'",
				       argv[i]);
	}
	if (parse_listen(ctx, listen, &sa))
		return 1;
	if (!remote && (ntohl(sa.sin_addr.s_addr) >> 24) != 127)
		return cli_err(ctx, "--listen %s is not a loopback address: "
			       "add --allow-remote to serve the cluster's "
			       "figures to the network", listen);
	n = readlink("/proc/self/exe", d.exe, sizeof(d.exe) - 1);
	if (n <= 0)
		return cli_err(ctx, "cannot find my own binary: %s",
			       strerror(errno));
	d.exe[n] = 0;
	if (access(d.cluster, F_OK))
		return cli_err(ctx, "%s: no cluster there", d.cluster);
	md = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD |
				      MHD_USE_ERROR_LOG,
			      0, NULL, NULL, handle, &d, MHD_OPTION_SOCK_ADDR,
			      (struct sockaddr *)&sa,
			      MHD_OPTION_CONNECTION_LIMIT, 16u,
			      MHD_OPTION_CONNECTION_TIMEOUT, 30u,
			      MHD_OPTION_END);
	if (!md)
		return cli_err(ctx, "cannot listen on %s: %s", listen,
			       strerror(errno ? errno : EADDRINUSE));
	info = MHD_get_daemon_info(md, MHD_DAEMON_INFO_BIND_PORT);
	printf("dashboard of %s on http://%s:%u/ (JSON: /api/df, "
	       "/api/status); Ctrl-C stops it\n",
	       d.cluster, inet_ntoa(sa.sin_addr),
	       info ? (unsigned)info->port : (unsigned)ntohs(sa.sin_port));
	fflush(stdout);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	while (!stop)
		pause();
	MHD_stop_daemon(md);
	return 0;
}
