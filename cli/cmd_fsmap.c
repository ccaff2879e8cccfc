/*
 * cmd_fsmap.c - `fs ls`, `fs add_data_pool FS POOL`, `fs rm_data_pool FS
 * POOL`: the filesystem's data pools, in `ceph fs`'s forms (16.2
 * FSCommands.cc).  The one filesystem is named "crushfs"; its metadata
 * lives in RocksDB (DIR/mds), not in a pool.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "cluster_cmds.h"
#include "osdmap.h"
#include "util.h"

#define FS_NAME "crushfs"

/* FS must name the filesystem (Ceph: "Filesystem not found"). */
static int fs_ok(struct cmd_ctx *ctx, const char *fs)
{
	if (!strcmp(fs, FS_NAME))
		return 0;
	return cc_err(ctx, "Filesystem not found: '%s' (the filesystem is "
		      "'" FS_NAME "')", fs);
}

int ccmd_fs_ls(struct cmd_ctx *ctx, int argc, char **argv)
{
	const cfs_osdmap *m;
	json_t *ids, *names;

	if (cc_nargs(ctx, argc, argv, 0))
		return 1;
	m = cfs_osdmap_get(ctx->cluster);
	ids = json_array();
	names = json_array();
	for (int i = 0; i < cfs_osdmap_npools(m); i++) {
		const struct cfs_pool_info *p = cfs_osdmap_pool_at(m, i);

		if (!cfs_fs_is_data_pool(m, p->id))
			continue;
		json_array_append_new(ids, json_integer((json_int_t)p->id));
		json_array_append_new(names, json_string(p->name));
	}
	cfs_osdmap_put(m);
	if (ctx->json)
		return cc_json_out(ctx, json_pack("[{s:s, s:n, s:o, s:o}]",
						  "name", FS_NAME,
						  "metadata_pool",
						  "data_pool_ids", ids,
						  "data_pools", names));
	/* FSCommands' plain form: "name: X, metadata pool: Y, data pools:
	 * [a b ]" */
	fprintf(ctx->out, "name: %s, metadata pool: none (RocksDB), data "
		"pools: [", FS_NAME);
	for (size_t i = 0; i < json_array_size(names); i++)
		fprintf(ctx->out, "%s ",
			json_string_value(json_array_get(names, i)));
	fprintf(ctx->out, "]\n");
	json_decref(ids);
	json_decref(names);
	return 0;
}

static int change(struct cmd_ctx *ctx, int argc, char **argv, int add)
{
	const struct cfs_pool_info *p;
	const cfs_osdmap *m;
	char why[256] = "";
	int64_t id = -1;
	int r;

	if (cc_nargs(ctx, argc, argv, 2) || fs_ok(ctx, argv[0]))
		return 1;
	m = cfs_osdmap_get(ctx->cluster);
	p = cc_pool_arg(ctx, m, argv[1]);
	if (p)
		id = p->id;
	cfs_osdmap_put(m);
	if (!p)
		return 1;
	r = add ? cfs_fs_add_data_pool(ctx->cluster, id, why, sizeof(why))
		: cfs_fs_rm_data_pool(ctx->cluster, id, why, sizeof(why));
	if (add && r == -EEXIST) {
		/* Ceph answers 0 here, saying so */
		fprintf(ctx->err, "data pool %" PRId64 " is already used by "
			"filesystem " FS_NAME "\n", id);
		return 0;
	}
	if (r)
		return cc_err(ctx, "%s", *why ? why : cfs_strerror(r));
	if (add)
		fprintf(ctx->err, "added data pool %" PRId64 " to fsmap\n", id);
	else
		fprintf(ctx->err, "removed data pool %" PRId64 " from fsmap\n",
			id);
	return 0;
}

int ccmd_fs_add_data_pool(struct cmd_ctx *ctx, int argc, char **argv)
{
	return change(ctx, argc, argv, 1);
}

int ccmd_fs_rm_data_pool(struct cmd_ctx *ctx, int argc, char **argv)
{
	return change(ctx, argc, argv, 0);
}
