/*
 * cmd_log.c - the cluster log from the command line: `crushfs log last
 * [N] [LEVEL] [CHANNEL]` as `ceph log last`, and `crushfs -w` as `ceph
 * -w`: the status, then each new entry as it is logged, until interrupted.
 * Reading and formatting are mgr/'s (mgr_events.h); this file parses and
 * prints.
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "cli.h"
#include "clog.h"
#include "cluster_cmds.h"
#include "mgr_events.h"

static int no_cluster(const struct cli_ctx *ctx)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/cluster.json", ctx->cluster);
	if (!access(path, F_OK))
		return 0;
	return cli_err(ctx, "%s: no cluster there", ctx->cluster);
}

int cmd_log_last(struct cli_ctx *ctx, int argc, char **argv)
{
	/* LogMonitor::preprocess_command's defaults (Ceph 16.2) */
	long n = 20;
	int level = CFS_CLOG_INFO, got_n = 0, got_level = 0, got_chan = 0;
	const char *channel = "cluster";
	struct mgr_log_entry *v;
	int nv, r;

	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		char *end;
		long x;

		if (cli_flag(a, "-h") || cli_flag(a, "--help")) {
			cli_usage_line(stdout, ctx->entry);
			printf("  %s\n", ctx->entry->help);
			return 0;
		}
		errno = 0;
		x = strtol(a, &end, 10);
		if (!got_n && *a && !*end && !errno) {
			if (x < 1 || x > 100000)
				return cli_err(ctx, "N must be 1..100000, got "
					       "'%s'", a);
			n = x;
			got_n = 1;
		} else if (!got_level && mgr_log_level_parse(a) >= 0) {
			level = mgr_log_level_parse(a);
			got_level = 1;
		} else if (!got_chan && (!strcmp(a, "*") ||
					 !strcmp(a, "cluster") ||
					 !strcmp(a, "audit"))) {
			channel = a;
			got_chan = 1;
		} else {
			return cli_err(ctx, "unexpected argument '%s' (want [N] "
				       "[debug|info|sec|warn|error] "
				       "[*|cluster|audit])", a);
		}
	}
	if (no_cluster(ctx))
		return 1;
	r = mgr_log_last(ctx->cluster, (int)n, level, channel, &v, &nv);
	if (r)
		return cli_err(ctx, "%s/" CFS_CLOG_FILE ": %s", ctx->cluster,
			       strerror(-r));
	if (ctx->format == CLI_FMT_JSON) {
		json_t *a = json_array();
		char *s;

		for (int i = 0; i < nv; i++)
			json_array_append_new(a, mgr_log_json(&v[i]));
		s = json_dumps(a, ctx->pretty ? JSON_INDENT(4) : JSON_COMPACT);
		if (s)
			puts(s);
		free(s);
		json_decref(a);
	} else {
		for (int i = 0; i < nv; i++) {
			char line[1400];

			mgr_log_format(&v[i], line, sizeof(line));
			puts(line);
		}
	}
	free(v);
	return 0;
}

static volatile sig_atomic_t watch_stop;

static void on_stop(int sig)
{
	(void)sig;
	watch_stop = 1;
}

static int print_entry(const struct mgr_log_entry *e, void *arg)
{
	const struct cli_ctx *ctx = arg;
	char line[1400];
	int bad;

	/* `ceph -w` follows the cluster channel at info and above */
	if (e->prio < CFS_CLOG_INFO || strcmp(e->channel, "cluster"))
		return 0;
	if (ctx->format == CLI_FMT_JSON) {
		/* `ceph -w -f json`: each entry a JSON object, one a line */
		json_t *o = mgr_log_json(e);
		char *s = o ? json_dumps(o, JSON_COMPACT) : NULL;

		json_decref(o);
		bad = !s || puts(s) == EOF;
		free(s);
	} else {
		mgr_log_format_watch(e, line, sizeof(line));
		bad = puts(line) == EOF;
	}
	if (bad || fflush(stdout) == EOF)
		return -EPIPE;
	return 0;
}

int cmd_watch(struct cli_ctx *ctx, int argc, char **argv)
{
	static char status_word[] = "status";
	char *status_argv[] = { status_word, NULL };
	struct sigaction sa;
	mgr_log_tail *t;
	int r;

	(void)argv;
	if (argc)
		return cli_err(ctx, "takes no command ('%s' given)", argv[0]);
	if (no_cluster(ctx))
		return 1;
	/* opened first: nothing logged while the status runs is missed */
	r = mgr_log_tail_open(ctx->cluster, &t);
	if (r)
		return cli_err(ctx, "cannot follow %s/" CFS_CLOG_FILE ": %s",
			       ctx->cluster, strerror(-r));
	ctx->cmd = "status";
	r = cmd_cluster(ctx, 0, status_argv);
	ctx->cmd = "-w";
	if (r) {
		mgr_log_tail_close(t);
		return r;
	}
	/* no SA_RESTART: the signal ends poll(); a closed reader is an
	 * EPIPE from the next write, the end of the watch, not a crash */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	putchar('\n');
	if (fflush(stdout) == EOF)
		watch_stop = 1;
	while (!watch_stop) {
		/* stdout too, for nothing but its error: a pipe whose
		 * reader left (`crushfs -w | head`) ends the watch now,
		 * not at the next entry */
		struct pollfd p[2] = { { .fd = mgr_log_tail_fd(t),
					 .events = POLLIN },
				       { .fd = 1, .events = 0 } };

		r = mgr_log_tail_read(t, print_entry, ctx);
		if (r == -EPIPE)
			break;
		if (r) {
			mgr_log_tail_close(t);
			return cli_err(ctx, "%s/" CFS_CLOG_FILE ": %s",
				       ctx->cluster, strerror(-r));
		}
		if (poll(p, 2, -1) < 0 && errno != EINTR)
			break;
		if (p[1].revents & (POLLERR | POLLHUP | POLLNVAL))
			break;
	}
	mgr_log_tail_close(t);
	return 0;
}

void cc_audit(struct cmd_ctx *ctx, const struct cluster_cmd *cmd, int argc,
	      char **argv, int rc)
{
	json_t *a, *o;
	char *s;

	/* object I/O is no monitor command: not audited, as in Ceph */
	if (!(cmd->flags & CCMD_WRITE) || rc > 0 ||
	    !strncmp(cmd->name, "rados", 5))
		return;
	a = json_array();
	for (int i = 0; i < argc; i++)
		json_array_append_new(a, json_string(argv[i]));
	o = json_pack("[{s:s, s:o}]", "prefix", cmd->name, "args", a);
	/* Ceph's spacing: {"prefix": "osd out", ...} */
	s = o ? json_dumps(o, JSON_PRESERVE_ORDER) : NULL;
	json_decref(o);
	if (!s)
		return;
	/* AuditLog form of Monitor::handle_command (Ceph 16.2) */
	if (rc < 0)
		cfs_clog(ctx->cluster, CFS_CLOG_INFO, "audit", "mon.a",
			 "from='client.admin' entity='client.admin' cmd=%s: "
			 "dispatch", s);
	else
		cfs_clog(ctx->cluster, CFS_CLOG_INFO, "audit", "mon.a",
			 "from='client.admin' entity='client.admin' "
			 "cmd='%s': finished", s);
	free(s);
}
