/*
 * cmd_balancer.c - `balancer eval [POOL]` and `balancer optimize [--pool P]
 * [--apply]` on the cluster: Ceph's upmap balancer (mgr balancer in upmap
 * mode, which runs OSDMap::calc_pg_upmaps pool by pool) over every pool,
 * replicated or erasure, or one.  The plan is printed as
 * the ceph commands that set it; --apply sets them (one epoch each, as the
 * mgr's commands do) and the data moves with `rebalance`.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cluster_cmds.h"
#include "osdmap.h"
#include "placement.h"
#include "upmap.h"
#include "util.h"

/* a pool by name or id, NULL when none */
static const struct cfs_pool_info *pool_named(const cfs_osdmap *m,
					      const char *s)
{
	const struct cfs_pool_info *p = cfs_osdmap_pool_by_name(m, s);
	char *end;
	long long id = strtoll(s, &end, 10);

	return p || !*s || *end ? p : cfs_osdmap_pool_by_id(m, id);
}

int ccmd_balancer_eval(struct cmd_ctx *ctx, int argc, char **argv)
{
	const cfs_osdmap *m;
	int n, *count, worst = -1, nw = 0, r;
	float *target, maxdev = 0, ss = 0;
	json_t *osds = NULL;

	int *pc = NULL;
	float *pt = NULL;
	int64_t only = -1;

	if (argc > 1)
		return cc_usage(ctx, "unexpected argument '%s'", argv[1]);
	m = cfs_osdmap_get(ctx->cluster);
	if (argc == 1) {
		const struct cfs_pool_info *pi = pool_named(m, argv[0]);

		if (!pi) {
			cfs_osdmap_put(m);
			return cc_err(ctx, "pool '%s' does not exist", argv[0]);
		}
		only = pi->id;
	}
	n = cfs_osdmap_max_osd(m);
	count = calloc((size_t)n + 1, sizeof(int));
	target = calloc((size_t)n + 1, sizeof(float));
	pc = calloc((size_t)n + 1, sizeof(int));
	pt = calloc((size_t)n + 1, sizeof(float));
	r = count && target && pc && pt ? 0 : -ENOMEM;
	/* the cluster (every pool's PGs and targets summed, as `ceph
	 * balancer eval` without a pool), or one pool */
	for (int i = 0; !r && i < cfs_osdmap_npools(m); i++) {
		const struct cfs_pool_info *pi = cfs_osdmap_pool_at(m, i);

		if (only >= 0 && pi->id != only)
			continue;
		r = cfs_osdmap_pg_spread(m, pi->id, pc, pt);
		for (int o = 0; !r && o < n; o++) {
			count[o] += pc[o];
			target[o] += pt[o];
		}
	}
	cfs_osdmap_put(m);
	free(pc);
	free(pt);
	if (r) {
		free(count);
		free(target);
		return cc_err(ctx, "%s", cfs_strerror(r));
	}
	if (ctx->json)
		osds = json_array();
	else
		fprintf(ctx->out, "%-8s %5s %8s %9s\n", "OSD", "PGS", "TARGET",
			"DEVIATION");
	for (int i = 0; i < n; i++) {
		float d;

		if (target[i] == 0 && count[i] == 0)
			continue;
		d = (float)count[i] - target[i];
		ss += d * d;
		nw++;
		if (worst < 0 || fabsf(d) > maxdev) {
			maxdev = fabsf(d);
			worst = i;
		}
		if (osds)
			json_array_append_new(osds, json_pack(
				"{s:i, s:i, s:f, s:f}", "osd", i, "pgs",
				count[i], "target", (double)target[i],
				"deviation", (double)d));
		else
			fprintf(ctx->out, "osd.%-4d %5d %8.2f %+9.2f\n", i,
				count[i], target[i], d);
	}
	free(count);
	free(target);
	if (osds)
		return cc_json_out(ctx, json_pack(
			"{s:o, s:f, s:i, s:f}", "osds", osds, "max_deviation",
			(double)maxdev, "worst_osd", worst, "stddev",
			nw ? sqrt((double)ss / nw) : 0.0));
	fprintf(ctx->out, "max deviation %.2f PGs (osd.%d), stddev %.2f\n",
		maxdev, worst, nw ? sqrtf(ss / (float)nw) : 0.0f);
	return 0;
}

static int int_opt(struct cmd_ctx *ctx, const char *name, const char *v,
		   int lo, int hi, int *out)
{
	char *end;
	long x = strtol(v, &end, 10);

	if (!*v || *end || x < lo || x > hi)
		return cc_usage(ctx, "%s: expected an integer in %d..%d, got "
				"'%s'", name, lo, hi, v);
	*out = (int)x;
	return 0;
}

/* One pool's plan, printed or applied; *made: the changes it made. */
static int optimize_pool(struct cmd_ctx *ctx, int64_t pool, int prefix,
			 const struct pl_balance_opts *o, int apply, int *made)
{
	struct pl_balance_stats st = { 0 };
	struct pl_balance_pg *pgs = NULL;
	const cfs_osdmap *m = cfs_osdmap_get(ctx->cluster);
	const struct cfs_pool_info *pi = cfs_osdmap_pool_by_id(m, pool);
	char name[64];
	int n, npg = pi ? (int)pi->pg_num : 0, touched = 0, applied = 0;

	snprintf(name, sizeof(name), "%s", pi ? pi->name : "?");
	n = cfs_osdmap_balance(m, pool, o, &pgs, &st);
	cfs_osdmap_put(m);
	if (n < 0)
		return cc_err(ctx, "balancer: pool '%s': %s", name,
			      cfs_strerror(n));
	for (int ps = 0; ps < npg; ps++) {
		char why[256] = "";
		int r;

		if (!pgs[ps].changed)
			continue;
		touched++;
		if (!apply) {
			fprintf(ctx->out, pgs[ps].nitems ?
				"ceph osd pg-upmap-items %" PRId64 ".%x" :
				"ceph osd rm-pg-upmap-items %" PRId64 ".%x",
				pool, ps);
			for (int k = 0; k < pgs[ps].nitems; k++)
				fprintf(ctx->out, " %d %d", pgs[ps].items[k][0],
					pgs[ps].items[k][1]);
			fputc('\n', ctx->out);
			continue;
		}
		r = cfs_osd_pg_upmap_items(ctx->cluster, pool, (uint32_t)ps,
					   &pgs[ps].items[0][0], pgs[ps].nitems,
					   why, sizeof(why));
		if (r && r != -ENODATA) {
			free(pgs);
			return cc_err(ctx, "pg %" PRId64 ".%x: %s", pool, ps,
				      why[0] ? why : cfs_strerror(r));
		}
		applied++;
	}
	free(pgs);
	fprintf(apply ? ctx->out : ctx->err,
		"%s%s%s%s %d change(s) in %d PG(s) (max %d, deviation %d): PGs "
		"per OSD off target, stddev %.2f -> %.2f, max %.2f -> %.2f%s\n",
		prefix ? "pool '" : "", prefix ? name : "", prefix ? "': " : "",
		apply ? "applied" : "planned", n, touched, o->max,
		o->max_deviation, st.stddev_before, st.stddev_after,
		st.maxdev_before, st.maxdev_after,
		apply && applied ? "; `crushfs rebalance` moves the data" : "");
	*made = n;
	return 0;
}

int ccmd_balancer_optimize(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct pl_balance_opts o = { 10, 5, 1, 100, 0, 64, 0 };
	const cfs_osdmap *m;
	int apply = 0, npools, left;
	int64_t only = -1, *ids;

	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--apply")) {
			apply = 1;
		} else if (!strcmp(argv[i], "--max") && i + 1 < argc) {
			if (int_opt(ctx, "--max", argv[++i], 1, 100000, &o.max))
				return 1;
		} else if (!strcmp(argv[i], "--deviation") && i + 1 < argc) {
			if (int_opt(ctx, "--deviation", argv[++i], 1, 100000,
				    &o.max_deviation))
				return 1;
		} else if (!strcmp(argv[i], "--pool") && i + 1 < argc) {
			const struct cfs_pool_info *pi;

			m = cfs_osdmap_get(ctx->cluster);
			pi = pool_named(m, argv[++i]);
			only = pi ? pi->id : -1;
			cfs_osdmap_put(m);
			if (only < 0)
				return cc_err(ctx, "pool '%s' does not exist",
					      argv[i]);
		} else {
			return cc_usage(ctx, "unexpected argument '%s'", argv[i]);
		}
	}
	/* the mgr's do_upmap: pool after pool, --max the budget of all;
	 * in id order here (the mgr shuffles them), data pool first */
	m = cfs_osdmap_get(ctx->cluster);
	npools = cfs_osdmap_npools(m);
	ids = calloc((size_t)npools, sizeof(*ids));
	for (int i = 0; ids && i < npools; i++)
		ids[i] = cfs_osdmap_pool_at(m, i)->id;
	cfs_osdmap_put(m);
	if (!ids)
		return cc_err(ctx, "%s", cfs_strerror(-ENOMEM));
	left = o.max;
	for (int i = 0; i < npools && left > 0; i++) {
		struct pl_balance_opts po = o;
		int made = 0;

		if (only >= 0 && ids[i] != only)
			continue;
		po.max = left;
		if (optimize_pool(ctx, ids[i], only < 0 && npools > 1, &po,
				  apply, &made)) {
			free(ids);
			return 1;
		}
		left -= made;
	}
	free(ids);
	return 0;
}

/* ---- the balancer module's switches (src/pybind/mgr/balancer, 16.2):
 * its options are config options, so that the mounted daemon, which
 * runs it (mgr/balancer.c), sees them at once ---- */

int ccmd_balancer_status(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct cfs_balancer_status s;
	char active[32] = "false", mode[32] = "upmap";
	json_t *o;
	char *txt;

	if (cc_nargs(ctx, argc, argv, 0))
		return 1;
	cfs_config_get(ctx->cluster, "mgr/balancer/active", active,
		       sizeof(active));
	cfs_config_get(ctx->cluster, "mgr/balancer/mode", mode, sizeof(mode));
	cfs_balancer_status_get(ctx->cluster, &s);
	o = json_pack("{s:b, s:s, s:s, s:s, s:b, s:s, s:[]}", "active",
		      !strcmp(active, "true"), "last_optimize_duration",
		      s.last_optimize_duration, "last_optimize_started",
		      s.last_optimize_started, "mode", mode,
		      "no_optimization_needed", s.no_optimization_needed,
		      "optimize_result", s.optimize_result, "plans");
	if (!o)
		return cc_err(ctx, "%s", cfs_strerror(-ENOMEM));
	if (ctx->json)
		return cc_json_out(ctx, o);
	/* the module answers json.dumps(s, indent=4, sort_keys=True) */
	txt = json_dumps(o, JSON_INDENT(4) | JSON_SORT_KEYS);
	json_decref(o);
	if (!txt)
		return cc_err(ctx, "%s", cfs_strerror(-ENOMEM));
	fprintf(ctx->out, "%s\n", txt);
	free(txt);
	return 0;
}

static int set_opt(struct cmd_ctx *ctx, const char *name, const char *v)
{
	char why[256] = "";
	int r = cfs_config_set(ctx->cluster, name, v, why, sizeof(why));

	if (r)
		return cc_err(ctx, "%s", why[0] ? why : cfs_strerror(r));
	return 0;
}

int ccmd_balancer_mode(struct cmd_ctx *ctx, int argc, char **argv)
{
	if (cc_nargs(ctx, argc, argv, 1))
		return 1;
	if (!strcmp(argv[0], "crush-compat"))
		return cc_err(ctx, "crush-compat mode is not implemented in "
			      "crushfs (upmap is)");
	if (strcmp(argv[0], "upmap") && strcmp(argv[0], "none"))
		return cc_err(ctx, "'%s' not in none|crush-compat|upmap",
			      argv[0]);
	return set_opt(ctx, "mgr/balancer/mode", argv[0]);
}

static int on_off(struct cmd_ctx *ctx, int argc, char **argv, int on)
{
	struct cfs_balancer_status s;

	if (cc_nargs(ctx, argc, argv, 0))
		return 1;
	if (set_opt(ctx, "mgr/balancer/active", on ? "true" : "false"))
		return 1;
	/* `balancer on` wakes the module's serve() loop: a run at the
	 * daemon's next tick */
	if (on) {
		cfs_balancer_status_get(ctx->cluster, &s);
		s.last_run_ms = 0;
		cfs_balancer_status_set(ctx->cluster, &s);
	}
	return 0;
}

int ccmd_balancer_on(struct cmd_ctx *ctx, int argc, char **argv)
{
	return on_off(ctx, argc, argv, 1);
}

int ccmd_balancer_off(struct cmd_ctx *ctx, int argc, char **argv)
{
	return on_off(ctx, argc, argv, 0);
}
