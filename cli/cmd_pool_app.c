/*
 * cmd_pool_app.c - `osd pool application enable|disable|get|set|rm`: the
 * applications a pool is tagged with (pg_pool_t::application_metadata),
 * with OSDMonitor's checks and words (Ceph 16.2
 * prepare_command_pool_application, preprocess_query "osd pool
 * application get").  osdsim keeps them with the pool (pool_apps.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cluster_cmds.h"
#include "osdmap.h"
#include "util.h"

#define SURE "--yes-i-really-mean-it"

/* The pool named by argv[0] and its applications; NULL after the error
 * line.  *m is referenced (put it). */
static json_t *load(struct cmd_ctx *ctx, const char *name,
		    const cfs_osdmap **m, struct cfs_pool_info *p)
{
	const struct cfs_pool_info *q;
	json_t *v;

	*m = cfs_osdmap_get(ctx->cluster);
	q = cc_pool_arg(ctx, *m, name);
	if (!q) {
		cfs_osdmap_put(*m);
		return NULL;
	}
	*p = *q;
	v = *p->apps ? json_loads(p->apps, 0, NULL) : json_object();
	if (!json_is_object(v)) {
		json_decref(v);
		cfs_osdmap_put(*m);
		cc_err(ctx, "pool '%s': its applications do not parse", name);
		return NULL;
	}
	return v;
}

/* Store v as p's applications: one epoch. */
static int store(struct cmd_ctx *ctx, struct cfs_pool_info *p, json_t *v,
		 const char *done)
{
	char *s = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS);
	char why[256] = "";
	int r;

	if (!s)
		return cc_err(ctx, "out of memory");
	if (strlen(s) >= sizeof(p->apps)) {
		free(s);
		return cc_err(ctx, "pool '%s': the applications would take "
			      "more than %zu bytes", p->name,
			      sizeof(p->apps) - 1);
	}
	snprintf(p->apps, sizeof(p->apps), "%s", json_object_size(v) ? s : "");
	free(s);
	r = cfs_pool_update(ctx->cluster, p, why, sizeof(why));
	if (r)
		return cc_err(ctx, "%s", *why ? why : cfs_strerror(r));
	return cc_done_epoch(ctx, "%s", done);
}

static int too_long(struct cmd_ctx *ctx, const char *what, const char *s)
{
	if (strlen(s) <= CFS_POOL_APP_LEN)
		return 0;
	return cc_err(ctx, "%s '%s' too long; max length %d", what, s,
		      CFS_POOL_APP_LEN);
}

int ccmd_osd_pool_application_enable(struct cmd_ctx *ctx, int argc,
				     char **argv)
{
	const cfs_osdmap *m;
	struct cfs_pool_info p;
	json_t *v;
	char done[512];
	int force = argc == 3 && !strcmp(argv[2], SURE), r;

	if (cc_nargs(ctx, argc - force, argv, 2) ||
	    !(v = load(ctx, argv[0], &m, &p)))
		return 1;
	cfs_osdmap_put(m);
	snprintf(done, sizeof(done), "enabled application '%s' on pool '%s'",
		 argv[1], p.name);
	if (json_object_get(v, argv[1])) {
		json_decref(v);
		return cc_done_epoch(ctx, "%s", done);
	}
	if (json_object_size(v) && !force)
		r = cc_err(ctx, "Are you SURE? Pool '%s' already has an "
			   "enabled application; pass " SURE " to proceed "
			   "anyway", p.name);
	else if (json_object_size(v) >= CFS_POOL_MAX_APPS)
		r = cc_err(ctx, "too many enabled applications on pool '%s'; "
			   "max %d", p.name, CFS_POOL_MAX_APPS);
	else if (!*argv[1])
		r = cc_err(ctx, "application name must be provided");
	else if (!(r = too_long(ctx, "application name", argv[1]))) {
		json_object_set_new(v, argv[1], json_object());
		r = store(ctx, &p, v, done);
	}
	json_decref(v);
	return r;
}

int ccmd_osd_pool_application_disable(struct cmd_ctx *ctx, int argc,
				      char **argv)
{
	const cfs_osdmap *m;
	struct cfs_pool_info p;
	json_t *v;
	char done[512];
	int force = argc == 3 && !strcmp(argv[2], SURE), r;

	if (cc_nargs(ctx, argc - force, argv, 2) ||
	    !(v = load(ctx, argv[0], &m, &p)))
		return 1;
	cfs_osdmap_put(m);
	if (!force) {
		r = cc_err(ctx, "Are you SURE? Disabling an application within "
			   "a pool might result in loss of application "
			   "functionality; pass " SURE " to proceed anyway");
	} else if (!json_object_get(v, argv[1])) {
		/* idempotent, as the monitor answers it */
		r = cc_done_epoch(ctx, "application '%s' is not enabled on "
				  "pool '%s'", argv[1], p.name);
	} else {
		json_object_del(v, argv[1]);
		snprintf(done, sizeof(done),
			 "disable application '%s' on pool '%s'", argv[1],
			 p.name);
		r = store(ctx, &p, v, done);
	}
	json_decref(v);
	return r;
}

int ccmd_osd_pool_application_set(struct cmd_ctx *ctx, int argc,
				  char **argv)
{
	const cfs_osdmap *m;
	struct cfs_pool_info p;
	json_t *v, *kv;
	char done[768];
	int r;

	if (cc_nargs(ctx, argc, argv, 4) || !(v = load(ctx, argv[0], &m, &p)))
		return 1;
	cfs_osdmap_put(m);
	kv = json_object_get(v, argv[1]);
	if (!kv)
		r = cc_err(ctx, "application '%s' is not enabled on pool '%s'",
			   argv[1], p.name);
	else if (!*argv[2])
		r = cc_err(ctx, "key must be provided");
	else if (!json_object_get(kv, argv[2]) &&
		 json_object_size(kv) >= CFS_POOL_APP_KEYS)
		r = cc_err(ctx, "too many keys set for application '%s' on "
			   "pool '%s'; max %d", argv[1], p.name,
			   CFS_POOL_APP_KEYS);
	else if (!(r = too_long(ctx, "key", argv[2])) &&
		 !(r = too_long(ctx, "value", argv[3]))) {
		json_object_set_new(kv, argv[2], json_string(argv[3]));
		snprintf(done, sizeof(done),
			 "set application '%s' key '%s' to '%s' on pool '%s'",
			 argv[1], argv[2], argv[3], p.name);
		r = store(ctx, &p, v, done);
	}
	json_decref(v);
	return r;
}

int ccmd_osd_pool_application_rm(struct cmd_ctx *ctx, int argc, char **argv)
{
	const cfs_osdmap *m;
	struct cfs_pool_info p;
	json_t *v, *kv;
	char done[768];
	int r;

	if (cc_nargs(ctx, argc, argv, 3) || !(v = load(ctx, argv[0], &m, &p)))
		return 1;
	cfs_osdmap_put(m);
	kv = json_object_get(v, argv[1]);
	if (!kv) {
		r = cc_err(ctx, "application '%s' is not enabled on pool '%s'",
			   argv[1], p.name);
	} else if (!json_object_get(kv, argv[2])) {
		r = cc_done_epoch(ctx, "application '%s' on pool '%s' does "
				  "not have key '%s'", argv[1], p.name,
				  argv[2]);
	} else {
		json_object_del(kv, argv[2]);
		snprintf(done, sizeof(done),
			 "removed application '%s' key '%s' on pool '%s'",
			 argv[1], argv[2], p.name);
		r = store(ctx, &p, v, done);
	}
	json_decref(v);
	return r;
}

/* `get POOL [APP [KEY]]`: json-pretty by default, as the monitor's
 * formatter is; a key's value as it is. */
int ccmd_osd_pool_application_get(struct cmd_ctx *ctx, int argc,
				  char **argv)
{
	const cfs_osdmap *m;
	struct cfs_pool_info p;
	json_t *v, *out;
	int r = 0;

	if (argc < 1 || argc > 3)
		return cc_usage(ctx, "%s", argc ? "too many arguments"
						: "POOL is required");
	if (!(v = load(ctx, argv[0], &m, &p)))
		return 1;
	cfs_osdmap_put(m);
	out = v;
	if (argc >= 2 && !(out = json_object_get(v, argv[1]))) {
		r = cc_err(ctx, "pool '%s' has no application '%s'", p.name,
			   argv[1]);
	} else if (argc == 3) {
		json_t *val = json_object_get(out, argv[2]);

		if (!val)
			r = cc_err(ctx, "application '%s' on pool '%s' does "
				   "not have key '%s'", argv[1], p.name,
				   argv[2]);
		else if (ctx->json)
			cc_json_out(ctx, json_pack("{s:O}", argv[2], val));
		else
			fprintf(ctx->out, "%s\n", json_string_value(val));
	} else {
		json_dumpf(out, ctx->out,
			   JSON_PRESERVE_ORDER |
				   (ctx->json == 1 ? JSON_COMPACT
						   : JSON_INDENT(4)));
		fputc('\n', ctx->out);
	}
	json_decref(v);
	return r;
}
