/*
 * cmd_report.c - `crushfs report [-o FILE.html] [--osd N]`: the cluster's
 * spread as one self-contained HTML page (report/); with --osd, also the
 * files with the most objects on that OSD.  Without -o (or with -o -) the
 * page goes to stdout.  Mounted, the daemon builds it (the metadata is
 * live there) and a relative FILE is made absolute first; unmounted, the
 * CLI reads the cluster itself.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cluster_cmds.h"
#include "cluster.h"
#include "cmd_fs.h"
#include "mgr.h"
#include "objlayer.h"
#include "osdmap.h"
#include "report.h"
#include "util.h"

/* The what-if page of the command line `line` (words split at blanks):
 * 0 and *html, or 1 after the error line. */
static int whatif_page(struct cli_env *env, const char *line, uint64_t rate,
		       int mb, char **html, size_t *len)
{
	char copy[512], *words[32], *save = NULL, *w, what[512];
	const struct cluster_cmd *cmd = NULL;
	struct cmd_ctx ctx = { 0 };
	const cfs_osdmap *old, *new;
	int n = 0, used = 0, r;

	snprintf(copy, sizeof(copy), "%s", line);
	for (w = strtok_r(copy, " \t", &save); w && n < 32;
	     w = strtok_r(NULL, " \t", &save))
		words[n++] = w;
	/* the longest run of words naming a command */
	for (int k = n < 4 ? n : 4; k > 0 && !cmd; k--) {
		char name[128] = "";

		for (int i = 0; i < k; i++)
			snprintf(name + strlen(name), sizeof(name) - strlen(name),
				 "%s%s", i ? " " : "", words[i]);
		if ((cmd = cluster_cmd_find(name)))
			used = k;
	}
	if (!cmd || !(cmd->flags & CCMD_DRYRUN)) {
		fprintf(env->err, "crushfs: report: --what-if: '%s' is not a "
			"command that changes placement (e.g. 'osd out 3', "
			"'osd reweight 3 0.5', 'osd crush reweight osd.3 0')\n",
			line);
		return 1;
	}
	ctx.cluster = env->c;
	ctx.ol = env->ol;
	ctx.out = env->out;
	ctx.err = env->err;
	/* its errors are the report's: "crushfs: report --what-if: ..." */
	ctx.cmd = "report --what-if";
	ctx.args = cmd->args;
	ctx.in_fd = ctx.out_fd = ctx.watch_fd = -1;
	if (cc_dry_run_maps(cmd, &ctx, n - used, words + used, what,
			    sizeof(what), &old, &new))
		return 1;
	r = rp_whatif_html(env->c, env->ol, old, new, what, rate, mb, html,
			   len);
	cfs_osdmap_put(new);
	cfs_osdmap_put(old);
	if (r) {
		fprintf(env->err, "crushfs: report: cannot build the what-if "
			"page: %s\n", cfs_strerror(r));
		return 1;
	}
	return 0;
}

int cli_report_run(struct cli_ctx *ctx, struct cli_env *env, int argc,
		   char **argv)
{
	const char *file = NULL, *whatif = NULL;
	char *html = NULL, *end;
	struct cli_osd_file *of = NULL;
	struct rp_file *rf = NULL;
	size_t len = 0, nof = 0;
	uint64_t rate = MGR_DEFAULT_RECOVERY_RATE;
	int osd = -1, r, mb = MGR_DEFAULT_MAX_BACKFILLS;
	struct cmd_ctx rctx = { .err = env->err, .cmd = "report" };

	(void)ctx;
	for (int i = 0; i < argc; i++) {
		r = cc_recovery_opt(&rctx, argc, argv, &i, &rate, &mb);
		if (r < 0)
			return 1;
		if (r)
			continue;
		if (!strcmp(argv[i], "-o") && i + 1 < argc) {
			file = argv[++i];
		} else if (!strcmp(argv[i], "--what-if") && i + 1 < argc) {
			whatif = argv[++i];
		} else if (!strcmp(argv[i], "--osd") && i + 1 < argc) {
			const char *a = argv[++i];
			long v = strtol(strncmp(a, "osd.", 4) ? a : a + 4, &end,
					10);

			if (*end || v < 0 || v >= CFS_MAX_OSD) {
				fprintf(env->err, "crushfs: report: --osd: '%s' "
					"is not an OSD id\n", a);
				return 1;
			}
			osd = (int)v;
		} else {
			fprintf(env->err, "crushfs: report: unexpected argument "
				"'%s' (usage: crushfs report [-o FILE.html] "
				"[--osd N | --what-if 'CMD' [--recovery-rate "
				"SIZE] [--max-backfills N]])\n", argv[i]);
			return 1;
		}
	}
	if (whatif && osd >= 0) {
		fprintf(env->err, "crushfs: report: --what-if and --osd make "
			"different pages: give one\n");
		return 1;
	}
	if (whatif) {
		if (whatif_page(env, whatif, rate, mb, &html, &len))
			return 1;
		goto write;
	}
	if (osd >= 0) {
		const cfs_osdmap *m = cfs_osdmap_get(env->c);
		int exists = cfs_osdmap_exists(m, osd);

		cfs_osdmap_put(m);
		if (!exists) {
			fprintf(env->err, "crushfs: report: osd.%d does not "
				"exist\n", osd);
			return 1;
		}
		r = env->meta ? cli_files_on_osd(env, osd, &of, &nof) : -ENODATA;
		rf = r ? NULL : calloc(nof + 1, sizeof(*rf));
		if (!r && !rf)
			r = -ENOMEM;
		if (r) {
			cli_osd_files_free(of, nof);
			fprintf(env->err, "crushfs: report: the files on osd.%d: "
				"%s\n", osd, cfs_strerror(r));
			return 1;
		}
		for (size_t i = 0; i < nof; i++)
			rf[i] = (struct rp_file){ of[i].path, of[i].objects };
	}
	{
		struct rp_opts o = { osd, rf, nof, env->ol };

		r = rp_html_opts(env->c, &o, &html, &len);
	}
	free(rf);
	cli_osd_files_free(of, nof);
	if (r) {
		fprintf(env->err, "crushfs: report: cannot build the report: "
			"%s\n", cfs_strerror(r));
		return 1;
	}
write:
	if (!file || !strcmp(file, "-")) {
		r = fwrite(html, 1, len, env->out) == len ? 0 : -EIO;
	} else {
		/* write beside, then rename: never a half page in its place;
		 * the user's file, not the cluster's: 0644, umask applies */
		r = cfs_write_atomic_mode(file, html, len, 0644);
	}
	free(html);
	if (r) {
		fprintf(env->err, "crushfs: report: %s: %s\n",
			file ? file : "stdout", strerror(-r));
		return 1;
	}
	if (file && strcmp(file, "-"))
		fprintf(env->err, "report written to %s (%zu bytes)\n", file,
			len);
	return 0;
}

/* The dry run installs its map nowhere, but osdsim builds it only on a
 * cluster opened for writing (as `osd out --dry-run` opens it); the
 * what-if needs no metadata. */
static int whatif_offline(struct cli_ctx *ctx, int argc, char **argv)
{
	struct cli_env env = { 0 };
	char err[1024] = "";
	int rc = cfs_cluster_open(ctx->cluster, 0, &env.c, err, sizeof(err));

	if (rc)
		return cli_err(ctx, "%s", *err ? err : cfs_strerror(rc));
	env.out = stdout;
	env.err = stderr;
	rc = ol_open(env.c, &env.ol);
	if (rc) {
		cfs_cluster_close(env.c);
		return cli_err(ctx, "%s: %s", ctx->cluster, cfs_strerror(rc));
	}
	rc = cli_report_run(ctx, &env, argc, argv);
	ol_close(env.ol);
	cfs_cluster_close(env.c);
	return rc;
}

int cmd_report(struct cli_ctx *ctx, int argc, char **argv)
{
	char abs_out[PATH_MAX + 2], cwd[PATH_MAX];
	char *orig = NULL;
	int status, at = -1;

	for (int i = 0; i < argc; i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			cli_usage_line(stdout, ctx->entry);
			return 0;
		}
	/* the daemon runs in its own directory: make -o FILE absolute */
	for (int i = 0; i + 1 < argc; i++) {
		if (strcmp(argv[i], "-o") || argv[i + 1][0] == '/' ||
		    !strcmp(argv[i + 1], "-") || !getcwd(cwd, sizeof(cwd)))
			continue;
		snprintf(abs_out, sizeof(abs_out), "%s/%s", cwd, argv[i + 1]);
		orig = argv[i + 1];
		at = i + 1;
		argv[at] = abs_out;
	}
	if (cli_forward(ctx, argc, argv, &status))
		return status;
	if (at >= 0)
		argv[at] = orig; /* not forwarded: as the user wrote it */
	for (int i = 0; i < argc; i++)
		if (!strcmp(argv[i], "--what-if"))
			return whatif_offline(ctx, argc, argv);
	return cli_run_offline(ctx, cli_report_run, argc, argv);
}
