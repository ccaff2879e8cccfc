/*
 * cmd_config.c - `config set|get|rm WHO KEY [VALUE]` and `config dump`:
 * the options crushfs honours (osdsim config.c), in `ceph config`'s
 * forms.  WHO is mon, mgr, osd, client or global; crushfs keeps one value
 * per option, whichever daemon it is set for.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "cluster_cmds.h"
#include "osdmap.h"
#include "util.h"

static int who_ok(struct cmd_ctx *ctx, const char *who)
{
	if (!strcmp(who, "mon") || !strcmp(who, "global") ||
	    !strcmp(who, "osd") || !strcmp(who, "client") ||
	    !strcmp(who, "mgr"))
		return 0;
	return cc_err(ctx, "unrecognized config target '%s'", who);
}

int ccmd_config_set(struct cmd_ctx *ctx, int argc, char **argv)
{
	char why[256] = "";
	int r;

	if (cc_nargs(ctx, argc, argv, 3) || who_ok(ctx, argv[0]))
		return 1;
	r = cfs_config_set(ctx->cluster, argv[1], argv[2], why, sizeof(why));
	return r ? cc_err(ctx, "%s", *why ? why : cfs_strerror(r)) : 0;
}

int ccmd_config_rm(struct cmd_ctx *ctx, int argc, char **argv)
{
	char why[256] = "";
	int r;

	if (cc_nargs(ctx, argc, argv, 2) || who_ok(ctx, argv[0]))
		return 1;
	r = cfs_config_set(ctx->cluster, argv[1], NULL, why, sizeof(why));
	return r ? cc_err(ctx, "%s", *why ? why : cfs_strerror(r)) : 0;
}

int ccmd_config_get(struct cmd_ctx *ctx, int argc, char **argv)
{
	char v[64];

	if (cc_nargs(ctx, argc, argv, 2) || who_ok(ctx, argv[0]))
		return 1;
	if (cfs_config_get(ctx->cluster, argv[1], v, sizeof(v)))
		return cc_err(ctx, "unrecognized key '%s'", argv[1]);
	if (ctx->json)
		return cc_json_out(ctx, json_string(v));
	fprintf(ctx->out, "%s\n", v);
	return 0;
}

int ccmd_config_dump(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct cfs_config_entry e[CFS_CONFIG_NOPTS];
	int n;
	json_t *arr = NULL;

	if (cc_nargs(ctx, argc, argv, 0))
		return 1;
	n = cfs_config_list(ctx->cluster, e);
	if (ctx->json)
		arr = json_array();
	else
		fprintf(ctx->out, "%-6s %-4s %-9s %-24s %-8s %s\n", "WHO",
			"MASK", "LEVEL", "OPTION", "VALUE", "RO");
	/* as Ceph's: what was set, not the defaults */
	for (int i = 0; i < n; i++) {
		if (e[i].is_default)
			continue;
		if (arr)
			json_array_append_new(arr, json_pack(
				"{s:s, s:s, s:s, s:s, s:s, s:b}", "section",
				cfs_config_section(e[i].name), "name", e[i].name, "value", e[i].value,
				"level", "advanced", "mask", "",
				"can_update_at_runtime", 1));
		else
			fprintf(ctx->out, "%-6s %-4s %-9s %-24s %-8s\n",
				cfs_config_section(e[i].name),
				"", "advanced", e[i].name, e[i].value);
	}
	return arr ? cc_json_out(ctx, arr) : 0;
}
