/*
 * cmd_import.c - `crushfs [--cluster DIR] import-ceph --live [--conf FILE]
 * [--id NAME] [--save SNAPDIR] [mkfs --from-ceph options]`: take the
 * snapshot of a live Ceph cluster through librados (read-only monitor and
 * manager commands) and import it as `mkfs --from-ceph` does.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "ceph.h"
#include "cli.h"
#include "cluster.h"
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

static int count_one(const char *name, void *arg)
{
	(void)name;
	++*(long *)arg;
	return 1; /* one is enough */
}

int cc_rados_prepare(struct cli_ctx *ctx, struct cfs_mkfs_opts *o,
		     const char *conf, const char *pool, const char *id,
		     char *snap, size_t snaplen, char **backend)
{
	char err[1024] = "", abs[PATH_MAX];
	ceph_conn *c = NULL;
	ceph_pool *p = NULL;
	long nobj = 0;
	json_t *j;
	int r;

	/* the daemon runs from /: the config's path must not depend on
	 * the current folder */
	if (conf && !realpath(conf, abs))
		return cli_err(ctx, "--ceph-conf %s: %s", conf, strerror(errno));
	r = ceph_connect(conf ? abs : NULL, id, 30, &c, err, sizeof(err));
	if (!r)
		r = ceph_pool_open(c, pool, &p, err, sizeof(err));
	if (!r && !o->force) {
		r = ceph_obj_list(p, count_one, &nobj);
		if (r >= 0 && nobj) {
			snprintf(err, sizeof(err), "pool '%s' holds objects "
				 "already: crushfs would mix its files' objects "
				 "with them (--force to use it anyway)", pool);
			r = -ENOTEMPTY;
		} else if (r) {
			snprintf(err, sizeof(err), "pool '%s': cannot list its "
				 "objects: %s", pool, strerror(-r));
		}
	}
	ceph_pool_close(p);
	if (!r) {
		snprintf(snap, snaplen, "/tmp/crushfs-snap.XXXXXX");
		if (!mkdtemp(snap)) {
			snprintf(err, sizeof(err), "%s: %s", snap,
				 strerror(errno));
			*snap = 0;
			r = -errno;
		}
	}
	if (!r)
		r = ceph_snapshot(c, snap, err, sizeof(err));
	ceph_disconnect(c);
	if (r) {
		if (*snap)
			cfs_rmtree(snap);
		*snap = 0;
		return cli_err(ctx, "%s", err);
	}
	j = json_pack("{s:s, s:s}", "backend", "rados", "pool", pool);
	if (conf)
		json_object_set_new(j, "conf", json_string(abs));
	if (id)
		json_object_set_new(j, "id", json_string(id));
	*backend = json_dumps(j, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	json_decref(j);
	o->from_ceph = snap;
	o->data_pool = pool;
	o->prefill = 1;
	o->backend_json = *backend;
	return 0;
}
