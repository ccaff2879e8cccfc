/*
 * cmd_report.c - `crushfs report [-o FILE.html]`: the cluster's spread as
 * one self-contained HTML page (report/).  Without -o (or with -o -) the
 * page goes to stdout.  Through a mount the daemon writes it; cmd_cluster
 * makes a relative FILE absolute first.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cluster_cmds.h"
#include "report.h"
#include "util.h"

int ccmd_report(struct cmd_ctx *ctx, int argc, char **argv)
{
	const char *file = NULL;
	char *html = NULL;
	size_t len = 0;
	int r;

	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc)
			file = argv[++i];
		else
			return cc_usage(ctx, "unexpected argument '%s'",
					argv[i]);
	}
	r = rp_html(ctx->cluster, &html, &len);
	if (r)
		return cc_err(ctx, "cannot build the report: %s",
			      cfs_strerror(r));
	if (!file || !strcmp(file, "-")) {
		r = fwrite(html, 1, len, ctx->out) == len ? 0 : -EIO;
	} else {
		/* write beside, then rename: never a half page in its place */
		r = cfs_write_atomic(file, html, len);
	}
	free(html);
	if (r)
		return cc_err(ctx, "%s: %s", file ? file : "stdout",
			      strerror(-r));
	if (file && strcmp(file, "-"))
		fprintf(ctx->err, "report written to %s (%zu bytes)\n", file,
			len);
	return 0;
}
