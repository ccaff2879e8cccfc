/*
 * cmd_dashboard.c - `crushfs dashboard [--listen ADDR:PORT]
 * [--password-file FILE] [--user NAME]`: the report page (report/), live,
 * over HTTP, served by libmicrohttpd.  Each request runs `crushfs report` /
 * `osd df -f json` / `status -f json` for the cluster, so a mounted
 * cluster answers through its daemon's admin socket as every other command
 * does.  The page is live without reloading: /events pushes the cluster
 * log, status snapshots and fill history as server-sent events
 * (dash_live.c), and the page's script updates its parts in place.
 *
 * Read-only: GET of /, /events, /api/df, /api/status, /api/logs and
 * /api/history only; nothing a request carries reaches a command line.  Bound to 127.0.0.1 unless --listen
 * names another address, and then only with a password (issue 21): Ceph's
 * dashboard never serves without a login (`ceph dashboard ac-user-create
 * NAME -i FILE`, the password read from a file so that it is not in
 * `ps`).  With a password every request, loopback too, needs HTTP Basic
 * auth (or `Authorization: Bearer PASSWORD`, for scripts); anything else
 * gets 401 and no figure of the cluster.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "dash_i.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

char *dash_run(const struct dash *d, const char *const *words, size_t *len)
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

			if (!np) {
				/* all or nothing: the child gets EPIPE */
				free(out);
				out = NULL;
				break;
			}
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
	/* a string too, for strstr (a read of 0 or an error ended the loop
	 * with 64 KiB free) */
	if (out)
		out[n] = 0;
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

/*
 * Whether GIVEN equals SECRET, in a time that depends on SECRET's length
 * only: no early exit at the first differing byte, which would let a
 * client find the password a byte at a time by timing its 401s.
 */
static int same(const char *given, size_t glen, const char *secret,
		size_t slen)
{
	volatile unsigned char d = glen != slen;

	for (size_t i = 0; i < slen; i++)
		d |= (unsigned char)((i < glen ? given[i] : 0) ^ secret[i]);
	return d == 0;
}

/*
 * The request carries the password: Basic USER:PASS, or Bearer PASS for
 * scripts.  (Ceph's REST API takes `Bearer` with a token that POST
 * /api/auth hands out; with no login endpoint here, the token is the
 * password itself.)
 */
static int authorized(const struct dash *d, struct MHD_Connection *c)
{
	const char *h = MHD_lookup_connection_value(
		c, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION);
	char *user, *pass = NULL;
	int ok;

	if (!d->pass_len)
		return 1;
	if (h && !strncasecmp(h, "Bearer ", 7)) {
		h += 7;
		return same(h, strlen(h), d->pass, d->pass_len);
	}
	user = MHD_basic_auth_get_username_password(c, &pass);
	if (!user || !pass) {
		MHD_free(user);
		MHD_free(pass);
		return 0;
	}
	/* & rather than &&: both compared whatever the user name */
	ok = same(user, strlen(user), d->user, strlen(d->user)) &
	     same(pass, strlen(pass), d->pass, d->pass_len);
	MHD_free(user);
	explicit_bzero(pass, strlen(pass));
	MHD_free(pass);
	return ok;
}

/* 401 with `WWW-Authenticate: Basic realm="crushfs"`, and nothing else */
static enum MHD_Result ask_auth(struct MHD_Connection *c)
{
	static const char msg[] = "authentication required\n";
	struct MHD_Response *r = MHD_create_response_from_buffer(
		sizeof(msg) - 1, (void *)msg, MHD_RESPMEM_PERSISTENT);
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, "Content-Type", "text/plain");
	MHD_add_response_header(r, "Cache-Control", "no-store");
	ret = MHD_queue_basic_auth_fail_response(c, "crushfs", r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c,
			      const char *url, const char *method,
			      const char *version, const char *upload,
			      size_t *upload_len, void **state)
{
	static const char *const df[] = { "-f", "json", "osd", "df", NULL };
	static const char *const st[] = { "-f", "json", "status", NULL };
	struct dash *d = cls;
	const char *const *words;
	const char *type = "application/json";
	char *body;
	size_t len = 0;

	(void)version;
	(void)upload;
	(void)upload_len;
	(void)state;
	if (!authorized(d, c))
		return ask_auth(c);
	if (strcmp(method, "GET") && strcmp(method, "HEAD"))
		return text(c, MHD_HTTP_METHOD_NOT_ALLOWED,
			    "read-only: GET only\n");
	if (!strcmp(url, "/events")) {
		struct MHD_Response *r = dash_live_events(d, c);
		enum MHD_Result ret;

		if (!r)
			return text(c, MHD_HTTP_SERVICE_UNAVAILABLE,
				    "too many event streams\n");
		ret = MHD_queue_response(c, MHD_HTTP_OK, r);
		MHD_destroy_response(r);
		return ret;
	}
	if (!strcmp(url, "/")) {
		body = dash_live_page(d, &len);
		if (!body)
			return text(c, MHD_HTTP_SERVICE_UNAVAILABLE,
				    "the cluster did not answer\n");
		return reply(c, MHD_HTTP_OK, "text/html; charset=utf-8", body,
			     len);
	}
	if (!strcmp(url, "/api/logs") || !strcmp(url, "/api/history")) {
		body = url[5] == 'l' ? dash_live_logs(d, &len)
				     : dash_live_history(d, &len);
		if (!body)
			return text(c, MHD_HTTP_SERVICE_UNAVAILABLE,
				    "out of memory\n");
		return reply(c, MHD_HTTP_OK, type, body, len);
	}
	if (!strcmp(url, "/api/df"))
		words = df;
	else if (!strcmp(url, "/api/status"))
		words = st;
	else
		return text(c, MHD_HTTP_NOT_FOUND, "not found\n");
	body = dash_run(d, words, &len);
	if (!body)
		return text(c, MHD_HTTP_SERVICE_UNAVAILABLE,
			    "the cluster did not answer\n");
	return reply(c, MHD_HTTP_OK, type, body, len);
}

/* ADDR:PORT, or [ADDR6]:PORT for IPv6 (as a URL writes it) */
static int parse_listen(struct cli_ctx *ctx, const char *s,
			struct sockaddr_storage *ss)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;
	char host[INET6_ADDRSTRLEN];
	const char *colon = strrchr(s, ':');
	const char *h = s;
	size_t hl;
	char *end;
	long port;

	if (!colon)
		goto bad;
	hl = (size_t)(colon - s);
	if (*s == '[') {
		if (hl < 2 || s[hl - 1] != ']')
			goto bad;
		h = s + 1;
		hl -= 2;
	}
	if (hl >= sizeof(host))
		goto bad;
	memcpy(host, h, hl);
	host[hl] = 0;
	port = strtol(colon + 1, &end, 10);
	if (!colon[1] || *end || port < 0 || port > 65535)
		goto bad;
	memset(ss, 0, sizeof(*ss));
	if (*s != '[' && inet_pton(AF_INET, host, &sin->sin_addr) == 1) {
		sin->sin_family = AF_INET;
		sin->sin_port = htons((uint16_t)port);
		return 0;
	}
	if (*s == '[' && inet_pton(AF_INET6, host, &sin6->sin6_addr) == 1) {
		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons((uint16_t)port);
		return 0;
	}
bad:
	return cli_err(ctx, "--listen: expected ADDR:PORT (IPv4) or "
		       "[ADDR]:PORT (IPv6), got '%s'", s);
}

/* 127.0.0.0/8, ::1, or ::ffff:127.x.y.z: reachable from this host only */
static int loopback(const struct sockaddr_storage *ss)
{
	const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)ss;

	if (ss->ss_family == AF_INET)
		return (ntohl(((const struct sockaddr_in *)ss)->sin_addr.s_addr)
			>> 24) == 127;
	if (IN6_IS_ADDR_LOOPBACK(&sin6->sin6_addr))
		return 1;
	return IN6_IS_ADDR_V4MAPPED(&sin6->sin6_addr) &&
	       sin6->sin6_addr.s6_addr[12] == 127;
}

/*
 * The password: the first line of FILE, which only its owner may read or
 * write, as ssh insists for a private key ("permissions 0644 ... are too
 * open"); Ceph's ac-user-create reads it from a file (-i) too, so that it
 * is not on a command line that `ps` shows.  Checked on the open file, not
 * the path, so that the file checked is the file read.
 */
static int read_password(struct cli_ctx *ctx, const char *path,
			 struct dash *d)
{
	char buf[DASH_PASS_MAX + 2];
	const char *err = NULL;
	struct stat st;
	size_t n = 0, len;
	ssize_t r;
	char *nl;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return cli_err(ctx, "--password-file %s: %s", path,
			       strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return cli_err(ctx, "--password-file %s: not a regular file",
			       path);
	}
	if (st.st_mode & 077) {
		close(fd);
		return cli_err(ctx, "--password-file %s: %s by others (mode "
			       "%04o): chmod 600 it, as ssh asks of a key",
			       path, st.st_mode & 044 ? "readable" :
			       st.st_mode & 022 ? "writable" : "executable",
			       (unsigned)(st.st_mode & 07777));
	}
	while (n < sizeof(buf)) {
		r = read(fd, buf + n, sizeof(buf) - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			close(fd);
			explicit_bzero(buf, sizeof(buf));
			return cli_err(ctx, "--password-file %s: %s", path,
				       strerror(e));
		}
		if (!r)
			break;
		n += (size_t)r;
	}
	close(fd);
	nl = memchr(buf, '\n', n);
	len = nl ? (size_t)(nl - buf) : n;
	if (len && buf[len - 1] == '\r')
		len--;
	if (len > DASH_PASS_MAX)
		err = "the first line is too long (1024 bytes at most)";
	else if (!len)
		err = "the first line is empty";
	else if (memchr(buf, 0, len))
		err = "the first line holds a NUL byte";
	if (err) {
		explicit_bzero(buf, sizeof(buf));
		return cli_err(ctx, "--password-file %s: %s", path, err);
	}
	memcpy(d->pass, buf, len);
	d->pass[len] = 0;
	d->pass_len = len;
	explicit_bzero(buf, sizeof(buf));
	return 0;
}

int cmd_dashboard(struct cli_ctx *ctx, int argc, char **argv)
{
	struct dash d;
	const char *listen = "127.0.0.1:7480";
	const char *pass_file = NULL, *user = NULL;
	char host[INET6_ADDRSTRLEN];
	struct sockaddr_storage ss;
	struct MHD_Daemon *md;
	const union MHD_DaemonInfo *info;
	unsigned port;
	int local;
	ssize_t n;

	memset(&d, 0, sizeof(d));
	d.cluster = ctx->cluster;
	d.user = "admin"; /* Ceph's dashboard's first user, as its docs name it */
	for (int i = 0; i < argc; i++) {
		if (cli_flag(argv[i], "-h") || cli_flag(argv[i], "--help")) {
			cli_usage_line(stdout, ctx->entry);
			printf("%s\n", ctx->entry->help);
			return 0;
		}
		if (!strcmp(argv[i], "--listen") && i + 1 < argc)
			listen = argv[++i];
		else if (!strcmp(argv[i], "--password-file") && i + 1 < argc)
			pass_file = argv[++i];
		else if (!strcmp(argv[i], "--user") && i + 1 < argc)
			user = argv[++i];
		else if (!strcmp(argv[i], "--allow-remote"))
			/*
			 * Gone (issue 21): it opened the cluster to anyone
			 * who could reach the port.  Naming the address is
			 * the choice now, and a password its condition.
			 */
			return cli_err(ctx, "--allow-remote is gone: a "
				       "non-loopback --listen needs "
				       "--password-file FILE");
		else if (!strncmp(argv[i], "--cluster=", 10))
			d.cluster = argv[i] + 10;
		else if (!strcmp(argv[i], "--cluster") && i + 1 < argc)
			d.cluster = argv[++i];
		else
			return cli_err(ctx, "unexpected argument '%s'",
				       argv[i]);
	}
	if (parse_listen(ctx, listen, &ss))
		return 1;
	if (user && !pass_file)
		return cli_err(ctx, "--user goes with --password-file FILE");
	/* RFC 7617: a user-id containing a colon cannot be sent */
	if (user && (!*user || strchr(user, ':')))
		return cli_err(ctx, "--user: a name without ':' (got '%s')",
			       user);
	if (user)
		d.user = user;
	local = loopback(&ss);
	if (!local && !pass_file)
		return cli_err(ctx, "refusing to listen on %s without a "
			       "password: give --password-file FILE (or "
			       "listen on 127.0.0.1)", listen);
	if (pass_file && read_password(ctx, pass_file, &d))
		return 1;
	n = readlink("/proc/self/exe", d.exe, sizeof(d.exe) - 1);
	if (n <= 0)
		return cli_err(ctx, "cannot find my own binary: %s",
			       strerror(errno));
	d.exe[n] = 0;
	if (access(d.cluster, F_OK))
		return cli_err(ctx, "%s: no cluster there", d.cluster);
	if (dash_live_start(&d)) {
		explicit_bzero(d.pass, sizeof(d.pass));
		return cli_err(ctx, "cannot start the live view: %s",
			       strerror(errno));
	}
	/*
	 * A thread per connection: an event stream's reader waits in
	 * poll() for the log to grow or its client to leave, which the
	 * one-thread select mode would turn into a busy loop.  MHD_USE_ITC:
	 * a connection thread that ends wakes the listening thread, which
	 * closes its socket now rather than at the next connection (20
	 * streams dropped at once left 19 sockets open without it).
	 */
	md = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD |
				      MHD_USE_THREAD_PER_CONNECTION |
				      MHD_USE_ITC |
				      MHD_USE_ERROR_LOG |
				      (ss.ss_family == AF_INET6 ?
					       MHD_USE_IPv6 : 0),
			      0, NULL, NULL, handle, &d, MHD_OPTION_SOCK_ADDR,
			      (struct sockaddr *)&ss,
			      MHD_OPTION_CONNECTION_LIMIT, 64u,
			      MHD_OPTION_CONNECTION_TIMEOUT, 30u,
			      MHD_OPTION_END);
	if (!md) {
		dash_live_stop(&d);
		dash_live_free(&d);
		explicit_bzero(d.pass, sizeof(d.pass));
		return cli_err(ctx, "cannot listen on %s: %s", listen,
			       strerror(errno ? errno : EADDRINUSE));
	}
	info = MHD_get_daemon_info(md, MHD_DAEMON_INFO_BIND_PORT);
	if (ss.ss_family == AF_INET6) {
		inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&ss)->sin6_addr,
			  host, sizeof(host));
		port = ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
	} else {
		inet_ntop(AF_INET, &((struct sockaddr_in *)&ss)->sin_addr,
			  host, sizeof(host));
		port = ntohs(((struct sockaddr_in *)&ss)->sin_port);
	}
	printf("dashboard of %s on http://%s%s%s:%u/ (JSON: /api/df, "
	       "/api/status, /api/logs, /api/history; events: /events)%s%s%s; "
	       "Ctrl-C stops it\n",
	       d.cluster, ss.ss_family == AF_INET6 ? "[" : "", host,
	       ss.ss_family == AF_INET6 ? "]" : "",
	       info ? (unsigned)info->port : port,
	       d.pass_len ? "; HTTP Basic auth as user '" : "",
	       d.pass_len ? d.user : "", d.pass_len ? "'" : "");
	fflush(stdout);
	/*
	 * No TLS: Ceph's dashboard serves HTTPS unless mgr/dashboard/ssl is
	 * false; here the password and the figures cross the network as
	 * they are, which the user should know before trusting the network.
	 */
	if (!local)
		fprintf(stderr, "crushfs: dashboard: note: plain HTTP, no "
			"TLS: the password and the cluster's figures cross "
			"the network unencrypted\n");
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	while (!stop)
		pause();
	/* the streams are told to end, then joined with the connections,
	 * and only then is the state they read freed */
	dash_live_stop(&d);
	MHD_stop_daemon(md);
	dash_live_free(&d);
	explicit_bzero(d.pass, sizeof(d.pass));
	return 0;
}
