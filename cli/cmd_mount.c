/*
 * cmd_mount.c - `crushfs mount` / `crushfs umount`, and both ends of the
 * admin socket as the CLI sees it: forwarding a command to a mounted
 * daemon (cli_forward) and running a forwarded command inside it
 * (cli_admin_run).
 *
 *   crushfs [--cluster DIR] mount MNT [-f] [-d] [-o OPTS]
 *   crushfs umount [--timeout S] MNT
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cluster.h"
#include "cluster_cmds.h"
#include "cmd_fs.h"
#include "fs.h"
#include "mgr_events.h"
#include "util.h"

/* ---- mount / umount ---- */

/* the daemon's mgr (mgr_events.h), made on its first tick: static, so
 * that it stays reachable for the daemon's life */
static struct mgr_tick *tick_state;

static int mount_tick(cfs_cluster *c, objlayer *ol, void *arg)
{
	struct mgr_tick **t = arg;

	if (!*t && mgr_tick_create(c, ol, t))
		return 5000;
	return mgr_tick_run(*t);
}

int cmd_mount(struct cli_ctx *ctx, int argc, char **argv)
{
	struct fs_mount_opts o;
	const char *mnt = NULL;
	char *opts = NULL;
	int rc;

	memset(&o, 0, sizeof(o));
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *v = NULL;

		if (!strcmp(a, "-f") || !strcmp(a, "--foreground")) {
			o.foreground = 1;
		} else if (!strcmp(a, "-d") || !strcmp(a, "--debug")) {
			o.debug = 1;
			o.foreground = 1;
		} else if (!strncmp(a, "-o", 2)) {
			if (a[2])
				v = a + 2;
			else if (i + 1 < argc)
				v = argv[++i];
			else {
				free(opts);
				return cli_err(ctx, "-o: missing value");
			}
			size_t n = opts ? strlen(opts) : 0;
			char *m = realloc(opts, n + strlen(v) + 2);

			if (!m) {
				free(opts);
				return cli_err(ctx, "out of memory");
			}
			if (n)
				m[n++] = ',';
			strcpy(m + n, v);
			opts = m;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			cli_help(stdout, ctx->entry);
			puts("  -f        stay in the foreground (log to stderr)\n"
			     "  -d        foreground with a FUSE request trace\n"
			     "  -o OPTS   mount options: FUSE's (allow_other, ro, "
			     "...) and attr_timeout=S,\n"
			     "            entry_timeout=S, negative_timeout=S, "
			     "noatime, max_threads=N,\n"
			     "            readahead_kb=N (the kernel's), "
			     "prefetch_kb=N (the daemon's own; 0: off)");
			free(opts);
			return 0;
		} else if (a[0] == '-' && a[1]) {
			free(opts);
			return cli_err(ctx, "unknown option '%s'", a);
		} else if (!mnt) {
			mnt = a;
		} else {
			free(opts);
			return cli_err(ctx, "unexpected argument '%s'", a);
		}
	}
	if (!mnt) {
		free(opts);
		cli_usage_line(stderr, ctx->entry);
		return 1;
	}
	o.cluster_dir = ctx->cluster;
	o.mountpoint = mnt;
	o.options = opts;
	o.admin = cli_admin_run;
	o.tick = mount_tick;
	o.tick_arg = &tick_state;
	fflush(stdout);
	rc = fs_mount(&o);
	free(opts);
	return rc ? 1 : 0;
}

static void umount_progress(const char *line, void *arg)
{
	const struct cli_ctx *ctx = arg;

	fprintf(stderr, "crushfs: %s: %s\n", ctx->cmd, line);
}

int cmd_umount(struct cli_ctx *ctx, int argc, char **argv)
{
	struct fs_umount_opts o = { -1, umount_progress, ctx };
	const char *mnt = NULL, *v;
	char err[PATH_MAX * 2 + 512];
	int rc;

	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || cli_flag(argv[i], "--help")) {
			cli_help(stdout, ctx->entry);
			puts("  --timeout S  wait at most S seconds for the daemon "
			     "to finish (default: as\n"
			     "               long as it takes, with progress "
			     "every few seconds); exit 1\n"
			     "               saying so if it is still at work");
			return 0;
		}
		rc = cli_opt(ctx, argc, argv, &i, "--timeout", &v);
		if (rc < 0)
			return 1;
		if (rc) {
			char *end;

			errno = 0;
			o.timeout = strtod(v, &end);
			if (end == v || *end || errno ||
			    !(o.timeout >= 0 && o.timeout <= 1e9))
				return cli_err(ctx, "--timeout: '%s' is not a "
					       "number of seconds", v);
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return cli_err(ctx, "unknown option '%s'", argv[i]);
		} else if (!mnt) {
			mnt = argv[i];
		} else {
			return cli_err(ctx, "unexpected argument '%s'",
				       argv[i]);
		}
	}
	if (!mnt) {
		cli_usage_line(stderr, ctx->entry);
		return 1;
	}
	if (fs_umount(mnt, &o, err, sizeof(err)) != 0)
		return cli_err(ctx, "%s", err);
	return 0;
}

/* ---- the CLI end of the admin socket ---- */

/* What Ctrl-C says while the daemon runs a command for us: the daemon
 * does not stop (it holds the cluster and finishes the work), so say so
 * and how to watch it, instead of leaving quietly. */
static char interrupt_msg[512];

static void on_interrupt(int sig)
{
	ssize_t n = write(STDERR_FILENO, interrupt_msg, strlen(interrupt_msg));

	(void)n;
	_exit(128 + sig);
}

int cli_forward(struct cli_ctx *ctx, int argc, char **argv, int *status)
{
	char path[4096], *words = NULL, **fargv = NULL;
	int n = 0, rc;

	fs_admin_path(ctx->cluster, path, sizeof(path));
	/* a symbolic link there is refused by fs_admin_call_io, dangling
	 * or not */
	if (faccessat(AT_FDCWD, path, F_OK, AT_SYMLINK_NOFOLLOW) != 0)
		return 0;
	words = strdup(ctx->cmd ? ctx->cmd : "");
	fargv = calloc((size_t)argc + 16, sizeof(*fargv));
	if (!words || !fargv) {
		free(words);
		free(fargv);
		*status = cli_err(ctx, "out of memory");
		return 1;
	}
	if (ctx->format_given) {
		fargv[n++] = "-f";
		fargv[n++] = ctx->format != CLI_FMT_JSON ? "plain" :
			     ctx->pretty		  ? "json-pretty" :
							    "json";
	}
	for (char *save = NULL, *w = strtok_r(words, " ", &save); w && n < 12;
	     w = strtok_r(NULL, " ", &save))
		fargv[n++] = w;
	for (int i = 0; i < argc; i++)
		fargv[n++] = argv[i];
	fflush(stdout);
	snprintf(interrupt_msg, sizeof(interrupt_msg),
		 "\ncrushfs: %s: interrupted here; the mounted daemon carries "
		 "on with it (watch with 'crushfs --cluster %s status')\n",
		 ctx->cmd ? ctx->cmd : "", ctx->cluster);
	{
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_interrupt;
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
	}
	/* stdin and stdout go along: `rados put NAME -` / `get NAME -` */
	rc = fs_admin_call_io(ctx->cluster, n, fargv, STDIN_FILENO,
			      STDOUT_FILENO, stdout, stderr, status);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	free(words);
	free(fargv);
	if (rc == -ENOENT || rc == -ECONNREFUSED)
		return 0; /* a socket left by a dead daemon */
	if (rc == CFS_EUNTRUSTED) {
		/* said in one line; neither forwarded nor run here, where
		 * the user believes a daemon holds the cluster */
		*status = 1;
		return 1;
	}
	if (rc) {
		*status = cli_err(ctx, "%s: the mounted daemon did not answer: "
				  "%s", path, strerror(-rc));
		return 1;
	}
	return 1;
}

/* ---- the daemon end ---- */

struct admin_cmd {
	const char *name;
	int (*run)(struct cli_ctx *ctx, struct cli_env *env, int argc,
		   char **argv);
};

/* Filesystem commands a mounted daemon runs for the CLI; the cluster
 * commands come from cluster_cmds[] (cluster_cmds.h). */
static const struct admin_cmd admin_cmds[] = {
	{ "locate", cli_locate_run },
	{ "ls-by-osd", cli_ls_by_osd_run },
	{ "report", cli_report_run },
};

int cli_admin_run(cfs_cluster *c, objlayer *ol, fs_meta *meta, int argc,
		  char **argv, const struct fs_admin_io *io, void *arg)
{
	FILE *out = io->out, *err = io->err;
	struct cli_ctx ctx;
	struct cli_env env = { c, ol, meta, out, err };
	const struct admin_cmd *best = NULL;
	const struct cluster_cmd *cbest = NULL;
	int i = 0, best_n = 0, n, r;

	(void)arg;
	memset(&ctx, 0, sizeof(ctx));
	ctx.cluster = cfs_cluster_dir(c);
	while (i < argc && argv[i][0] == '-') {
		const char *v = NULL;

		if ((!strcmp(argv[i], "-f") || !strcmp(argv[i], "--format")) &&
		    i + 1 < argc)
			v = argv[++i];
		else if (!strncmp(argv[i], "--format=", 9))
			v = argv[i] + 9;
		else if (!strcmp(argv[i], "--cluster") && i + 1 < argc)
			i++;
		else
			break;
		if (v) {
			ctx.format_given = 1;
			ctx.format = strncmp(v, "json", 4) ? CLI_FMT_PLAIN :
							     CLI_FMT_JSON;
			ctx.pretty = strcmp(v, "json-pretty") == 0;
		}
		i++;
	}
	for (size_t k = 0; k < sizeof(admin_cmds) / sizeof(admin_cmds[0]);
	     k++) {
		n = cli_match_words(admin_cmds[k].name, argc - i, argv + i);
		if (n > best_n) {
			best_n = n;
			best = &admin_cmds[k];
		}
	}
	for (int k = 0; k < cluster_ncmds; k++) {
		n = cli_match_words(cluster_cmds[k].name, argc - i, argv + i);
		if (n > best_n) {
			best_n = n;
			cbest = &cluster_cmds[k];
			best = NULL;
		}
	}
	if (cbest) {
		/* The same function the CLI runs, on the live cluster. */
		struct cmd_ctx cc;

		memset(&cc, 0, sizeof(cc));
		cc.cluster = c;
		cc.ol = ol;
		cc.out = out;
		cc.err = err;
		cc.json = ctx.format != CLI_FMT_JSON ? 0 : ctx.pretty ? 2 : 1;
		/* err is the client's stderr when it sent it: a terminal
		 * there gets the progress bar */
		cc.tty = fileno(err) >= 0 && isatty(fileno(err));
		cc.cmd = cbest->name;
		cc.args = cbest->args;
		cc.in_fd = io->in_fd;
		cc.out_fd = io->out_fd;
		cc.watch_fd = io->watch_fd;
		cc.mounted = 1;
		r = cc_run(cbest, &cc, argc - i - best_n, argv + i + best_n);
		fflush(out);
		return r;
	}
	if (!best) {
		fprintf(err, "crushfs: '%s' cannot run on a mounted cluster\n",
			i < argc ? argv[i] : "");
		return 1;
	}
	ctx.cmd = best->name;
	return best->run(&ctx, &env, argc - i - best_n, argv + i + best_n);
}
