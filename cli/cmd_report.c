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
#include "cmd_fs.h"
#include "osdmap.h"
#include "report.h"
#include "util.h"

int cli_report_run(struct cli_ctx *ctx, struct cli_env *env, int argc,
		   char **argv)
{
	const char *file = NULL;
	char *html = NULL, *end;
	struct cli_osd_file *of = NULL;
	struct rp_file *rf = NULL;
	size_t len = 0, nof = 0;
	int osd = -1, r;

	(void)ctx;
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc) {
			file = argv[++i];
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
				"[--osd N])\n", argv[i]);
			return 1;
		}
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
	r = rp_html(env->c, osd, rf, nof, &html, &len);
	free(rf);
	cli_osd_files_free(of, nof);
	if (r) {
		fprintf(env->err, "crushfs: report: cannot build the report: "
			"%s\n", cfs_strerror(r));
		return 1;
	}
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
	return cli_run_offline(ctx, cli_report_run, argc, argv);
}
