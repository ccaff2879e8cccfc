/*
 * cmd_import.c - `crushfs [--cluster DIR] import-ceph --live [--conf FILE]
 * [--id NAME] [--save SNAPDIR] [mkfs --from-ceph options]`: take the
 * snapshot of a live Ceph cluster through librados (read-only monitor and
 * manager commands) and import it as `mkfs --from-ceph` does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ceph.h"
#include "cli.h"
#include "cluster_cmds.h"
#include "util.h"

int cmd_import_ceph(struct cli_ctx *ctx, int argc, char **argv)
{
	const char *conf = NULL, *id = NULL, *save = NULL;
	char **pass = calloc((size_t)argc + 3, sizeof(*pass));
	char tmp[] = "/tmp/crushfs-snap.XXXXXX", err[1024] = "";
	int live = 0, npass = 0, r, rc;
	ceph_conn *c = NULL;

	if (!pass)
		return cli_err(ctx, "out of memory");
	for (int i = 0; i < argc; i++) {
		const char *v;

		if (cli_flag(argv[i], "--live")) {
			live = 1;
		} else if ((r = cli_opt(ctx, argc, argv, &i, "--conf", &v))) {
			if (r < 0)
				goto usage_fail;
			conf = v;
		} else if ((r = cli_opt(ctx, argc, argv, &i, "--id", &v))) {
			if (r < 0)
				goto usage_fail;
			id = v;
		} else if ((r = cli_opt(ctx, argc, argv, &i, "--save", &v))) {
			if (r < 0)
				goto usage_fail;
			save = v;
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			cli_usage_line(stdout, ctx->entry);
			free(pass);
			return 0;
		} else if (!strncmp(argv[i], "--from-ceph", 11)) {
			free(pass);
			return cli_err(ctx, "--from-ceph: import-ceph takes the "
					    "snapshot itself (--live)");
		} else {
			pass[npass++] = argv[i]; /* mkfs checks the rest */
		}
	}
	if (!live) {
		free(pass);
		return cli_err(ctx, "--live is required (a snapshot already "
				    "taken is imported with mkfs --from-ceph "
				    "SNAPDIR)");
	}
	r = ceph_connect(conf, id, 30, &c, err, sizeof(err));
	if (r) {
		free(pass);
		return cli_err(ctx, "%s", err);
	}
	if (!save && !mkdtemp(tmp)) {
		ceph_disconnect(c);
		free(pass);
		return cli_err(ctx, "%s: cannot create a temporary folder", tmp);
	}
	r = ceph_snapshot(c, save ? save : tmp, err, sizeof(err));
	ceph_disconnect(c);
	if (r) {
		if (!save)
			cfs_rmtree(tmp);
		free(pass);
		return cli_err(ctx, "%s", err);
	}
	pass[npass++] = "--from-ceph";
	pass[npass++] = save ? (char *)save : tmp;
	{
		char src[4200];

		snprintf(src, sizeof(src), "%s", save ? save : "");
		if (!save)
			snprintf(src, sizeof(src), "the live cluster (%s)",
				 conf ? conf : "default ceph.conf");
		rc = cc_mkfs(ctx, npass, pass, src);
	}
	if (!save)
		cfs_rmtree(tmp);
	free(pass);
	return rc;
usage_fail:
	free(pass);
	return 1;
}
