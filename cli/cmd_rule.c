/*
 * cmd_rule.c - `osd crush rule ls`, `osd crush rule dump [NAME]` (Ceph's
 * CrushWrapper::dump_rule JSON), `osd crush rule create-replicated NAME
 * ROOT TYPE [CLASS]` and `osd crush rule create-erasure NAME [PROFILE]`
 * (CrushWrapper::add_simple_rule, as the monitor runs them).  A new rule
 * goes into the map's crushtool text, which is read back (so a class gets
 * its shadow tree as `crushtool -c` builds it) and installed as `osd
 * setcrushmap` would.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cluster_cmds.h"
#include "osdmap.h"
#include "placement.h"
#include "util.h"

int ccmd_osd_crush_rule_ls(struct cmd_ctx *ctx, int argc, char **argv)
{
	const cfs_osdmap *m;
	const pl_map *cm;
	json_t *a = ctx->json ? json_array() : NULL;

	if (cc_nargs(ctx, argc, argv, 0)) {
		json_decref(a);
		return 1;
	}
	m = cfs_osdmap_get(ctx->cluster);
	cm = cfs_osdmap_crush(m);
	for (int r = 0; r < pl_map_max_rules(cm); r++) {
		const char *n;

		if (!pl_map_rule_exists(cm, r))
			continue;
		n = pl_map_rule_name(cm, r);
		if (a)
			json_array_append_new(a, json_string(n ? n : ""));
		else
			fprintf(ctx->out, "%s\n", n ? n : "");
	}
	cfs_osdmap_put(m);
	return a ? cc_json_out(ctx, a) : 0;
}

static const char *op_name(uint32_t op)
{
	switch (op) {
	case PL_RULE_NOOP: return "noop";
	case PL_RULE_TAKE: return "take";
	case PL_RULE_CHOOSE_FIRSTN: return "choose_firstn";
	case PL_RULE_CHOOSE_INDEP: return "choose_indep";
	case PL_RULE_EMIT: return "emit";
	case PL_RULE_CHOOSELEAF_FIRSTN: return "chooseleaf_firstn";
	case PL_RULE_CHOOSELEAF_INDEP: return "chooseleaf_indep";
	case PL_RULE_SET_CHOOSE_TRIES: return "set_choose_tries";
	case PL_RULE_SET_CHOOSELEAF_TRIES: return "set_chooseleaf_tries";
	case PL_RULE_SET_CHOOSE_LOCAL_TRIES: return "set_choose_local_tries";
	case PL_RULE_SET_CHOOSE_LOCAL_FALLBACK_TRIES:
		return "set_choose_local_fallback_tries";
	case PL_RULE_SET_CHOOSELEAF_VARY_R: return "set_chooseleaf_vary_r";
	case PL_RULE_SET_CHOOSELEAF_STABLE: return "set_chooseleaf_stable";
	}
	return "unknown";
}

/* CrushWrapper::dump_rule */
json_t *cc_rule_json(const pl_map *cm, int r)
{
	json_t *steps = json_array();
	const char *n = pl_map_rule_name(cm, r);

	for (int i = 0; i < pl_map_rule_len(cm, r); i++) {
		const struct pl_rule_step *st = pl_map_rule_step(cm, r, i);
		json_t *s = json_pack("{s:s}", "op", op_name(st->op));

		switch (st->op) {
		case PL_RULE_TAKE: {
			const char *in = pl_map_item_name(cm, st->arg1);

			json_object_set_new(s, "item", json_integer(st->arg1));
			json_object_set_new(s, "item_name",
					    json_string(in ? in : ""));
			break;
		}
		case PL_RULE_CHOOSE_FIRSTN:
		case PL_RULE_CHOOSE_INDEP:
		case PL_RULE_CHOOSELEAF_FIRSTN:
		case PL_RULE_CHOOSELEAF_INDEP: {
			const char *tn = pl_map_type_name(cm, st->arg2);

			json_object_set_new(s, "num", json_integer(st->arg1));
			json_object_set_new(s, "type",
					    json_string(tn ? tn : ""));
			break;
		}
		case PL_RULE_NOOP:
		case PL_RULE_EMIT:
			break;
		default:
			json_object_set_new(s, "num", json_integer(st->arg1));
		}
		json_array_append_new(steps, s);
	}
	return json_pack("{s:i, s:s, s:i, s:i, s:i, s:i, s:o}", "rule_id", r,
			 "rule_name", n ? n : "", "ruleset", r, "type",
			 pl_map_rule_type(cm, r), "min_size",
			 pl_map_rule_min_size(cm, r), "max_size",
			 pl_map_rule_max_size(cm, r), "steps", steps);
}

int ccmd_osd_crush_rule_dump(struct cmd_ctx *ctx, int argc, char **argv)
{
	const cfs_osdmap *m;
	const pl_map *cm;
	json_t *out;
	int one = -1;

	if (argc > 1)
		return cc_usage(ctx, "takes at most a rule name");
	m = cfs_osdmap_get(ctx->cluster);
	cm = cfs_osdmap_crush(m);
	if (argc == 1) {
		one = cc_rule_by_name(cm, argv[0]);
		if (one < 0) {
			cfs_osdmap_put(m);
			return cc_err(ctx, "unknown crush rule '%s'", argv[0]);
		}
		out = cc_rule_json(cm, one);
	} else {
		out = json_array();
		for (int r = 0; r < pl_map_max_rules(cm); r++)
			if (pl_map_rule_exists(cm, r))
				json_array_append_new(out, cc_rule_json(cm, r));
	}
	cfs_osdmap_put(m);
	/* `ceph osd crush rule dump` prints JSON whatever the format */
	json_dumpf(out, ctx->out, JSON_INDENT(4) | JSON_PRESERVE_ORDER);
	fputc('\n', ctx->out);
	json_decref(out);
	return 0;
}

static int has_class(const pl_map *cm, const char *cls)
{
	for (int d = 0; d < pl_map_max_devices(cm); d++) {
		const char *c = pl_map_item_class(cm, d);

		if (c && !strcmp(c, cls))
			return 1;
	}
	return 0;
}

/* The map's text with the rule block put after the last rule. */
static char *with_rule(const char *text, const char *block)
{
	const char *at = strstr(text, "\n# choose_args");
	size_t pre, len = strlen(text), blen = strlen(block);
	char *out;

	if (!at)
		at = strstr(text, "\n# end crush map");
	pre = at ? (size_t)(at - text) + 1 : len;
	out = malloc(len + blen + 1);
	if (!out)
		return NULL;
	memcpy(out, text, pre);
	memcpy(out + pre, block, blen);
	memcpy(out + pre + blen, text + pre, len - pre + 1);
	return out;
}

/*
 * CrushWrapper::add_simple_rule as Ceph 16.2 runs it for `create-
 * replicated` (firstn, min_size 1, max_size 10) and `create-erasure`
 * (indep, min_size 3, max_size 20, set_chooseleaf_tries 5 and
 * set_choose_tries 100 first): take ROOT [class CLASS], then chooseleaf
 * (choose for the device type) 0 type TYPE, emit; the first free rule id.
 * The rule goes into the map's text, which is read back and installed.
 */
static int add_simple_rule(struct cmd_ctx *ctx, const char *name,
			   const char *rootn, const char *typen,
			   const char *cls, int erasure, int quiet)
{
	const cfs_osdmap *m = cfs_osdmap_get(ctx->cluster);
	const pl_map *cm = cfs_osdmap_crush(m);
	char *text = NULL, *nt, block[1024], perr[512], why[256] = "";
	size_t len;
	pl_map *nm = NULL;
	int root, type = 0, id = 0, r;

	/* OSDMonitor's checks, in its order */
	if (cc_rule_by_name(cm, name) >= 0) {
		cfs_osdmap_put(m);
		if (!quiet)
			fprintf(ctx->out, "rule %s already exists\n", name);
		return 0;
	}
	if (pl_map_item_by_name(cm, rootn, &root) || root >= 0) {
		cfs_osdmap_put(m);
		return cc_err(ctx, "root item %s does not exist", rootn);
	}
	if (*typen && pl_map_type_by_name(cm, typen, &type)) {
		cfs_osdmap_put(m);
		return cc_err(ctx, "unknown type %s", typen);
	}
	if (cls && !has_class(cm, cls)) {
		cfs_osdmap_put(m);
		return cc_err(ctx, "device class %s does not exist", cls);
	}
	for (id = 0; pl_map_rule_exists(cm, id); id++)
		;
	snprintf(block, sizeof(block),
		 "rule %s {\n\tid %d\n\ttype %s\n\tmin_size %d\n\tmax_size %d\n"
		 "%s\tstep take %s%s%s\n\tstep %s %s 0 type %s\n\tstep emit\n"
		 "}\n",
		 name, id, erasure ? "erasure" : "replicated", erasure ? 3 : 1,
		 erasure ? 20 : 10,
		 erasure ? "\tstep set_chooseleaf_tries 5\n"
			   "\tstep set_choose_tries 100\n" : "",
		 rootn, cls ? " class " : "", cls ? cls : "",
		 type ? "chooseleaf" : "choose", erasure ? "indep" : "firstn",
		 pl_map_type_name(cm, type) ? pl_map_type_name(cm, type) : "osd");
	r = pl_map_to_text(cm, &text, &len);
	cfs_osdmap_put(m);
	if (r)
		return cc_err(ctx, "%s", cfs_strerror(r));
	nt = with_rule(text, block);
	free(text);
	if (!nt)
		return cc_err(ctx, "%s", cfs_strerror(-ENOMEM));
	r = pl_parse_text(nt, strlen(nt), "crush map", &nm, perr,
			  sizeof(perr));
	free(nt);
	if (r)
		return cc_err(ctx, "the new rule does not read back: %s", perr);
	r = cfs_osd_setcrushmap(ctx->cluster, nm, why, sizeof(why));
	if (r)
		return cc_err(ctx, "%s", *why ? why : cfs_strerror(r));
	if (quiet)
		return 0;
	return cc_done_epoch(ctx, "created rule %s at %d", name, id);
}

static int names_ok(struct cmd_ctx *ctx, int argc, char **argv)
{
	for (int i = 0; i < argc; i++)
		if (!pl_valid_name(argv[i]))
			return cc_err(ctx, "'%s' is not a valid crush name "
				      "(letters, digits, '_', '-', '.')",
				      argv[i]);
	return 0;
}

int ccmd_osd_crush_rule_create_replicated(struct cmd_ctx *ctx, int argc,
					  char **argv)
{
	if (argc != 3 && argc != 4)
		return cc_usage(ctx, "takes NAME ROOT TYPE [CLASS]");
	if (names_ok(ctx, argc, argv))
		return 1;
	return add_simple_rule(ctx, argv[0], argv[1], argv[2],
			       argc == 4 ? argv[3] : NULL, 0, 0);
}

/* ErasureCode::create_rule for a profile, as `osd crush rule
 * create-erasure` and `osd pool create ... erasure` make it. */
static int ec_rule(struct cmd_ctx *ctx, const char *name, const char *prof,
		   int quiet)
{
	const cfs_osdmap *m;
	char root[128], fd[128], cls[128];
	const char *v;

	m = cfs_osdmap_get(ctx->cluster);
	if (!cfs_ec_profile_exists(m, prof)) {
		cfs_osdmap_put(m);
		return cc_err(ctx, "erasure-code-profile %s does not exist",
			      prof);
	}
	/* ErasureCode::create_rule: the profile's root, failure domain and
	 * class, with Ceph's defaults */
	v = cfs_ec_profile_get(m, prof, "crush-root");
	snprintf(root, sizeof(root), "%s", v && *v ? v : "default");
	v = cfs_ec_profile_get(m, prof, "crush-failure-domain");
	snprintf(fd, sizeof(fd), "%s", v ? v : "host");
	v = cfs_ec_profile_get(m, prof, "crush-device-class");
	snprintf(cls, sizeof(cls), "%s", v ? v : "");
	cfs_osdmap_put(m);
	return add_simple_rule(ctx, name, root, fd, *cls ? cls : NULL, 1,
			       quiet);
}

int cc_ec_rule_create(struct cmd_ctx *ctx, const char *name,
		      const char *profile)
{
	if (!pl_valid_name(name))
		return cc_err(ctx, "'%s' is not a valid crush name (letters, "
			      "digits, '_', '-', '.')", name);
	return ec_rule(ctx, name, profile, 1);
}

int ccmd_osd_crush_rule_create_erasure(struct cmd_ctx *ctx, int argc,
				       char **argv)
{
	if (argc != 1 && argc != 2)
		return cc_usage(ctx, "takes NAME [PROFILE]");
	if (names_ok(ctx, 1, argv))
		return 1;
	return ec_rule(ctx, argv[0], argc == 2 ? argv[1] : "default", 0);
}
