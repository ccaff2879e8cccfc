/*
 * cmd_balancer.c - `balancer eval` and `balancer optimize [--apply]` on the
 * cluster: Ceph's upmap balancer (mgr balancer in upmap mode, which runs
 * OSDMap::calc_pg_upmaps) over the cluster's pool.  The plan is printed as
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
#include "osdsim.h"
#include "placement.h"
#include "util.h"

int ccmd_balancer_eval(struct cmd_ctx *ctx, int argc, char **argv)
{
	const cfs_osdmap *m;
	int n, *count, worst = -1, nw = 0, r;
	float *target, maxdev = 0, ss = 0;
	json_t *osds = NULL;

	if (cc_nargs(ctx, argc, argv, 0))
		return 1;
	m = cfs_osdmap_get(ctx->cluster);
	n = cfs_osdmap_max_osd(m);
	count = calloc((size_t)n + 1, sizeof(int));
	target = calloc((size_t)n + 1, sizeof(float));
	r = count && target ? cfs_osdmap_pg_spread(m, count, target) : -ENOMEM;
	cfs_osdmap_put(m);
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

int ccmd_balancer_optimize(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct pl_balance_opts o = { 10, 5, 1, 100, 0, 64 };
	struct pl_balance_stats st = { 0 };
	struct pl_balance_pg *pgs = NULL;
	const cfs_osdmap *m;
	int apply = 0, n, npg, applied = 0, touched = 0;
	int64_t pool;

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
			const cfs_osdmap *mm = cfs_osdmap_get(ctx->cluster);
			const struct cfs_pool_info *pi = cfs_osdmap_pool(mm);
			int ok = !strcmp(argv[i + 1], pi->name) ||
				 strtoll(argv[i + 1], NULL, 10) == pi->id;
			int other = cc_other_pool(mm, argv[i + 1]) != NULL;
			char dname[64];

			snprintf(dname, sizeof(dname), "%s", pi->name);
			cfs_osdmap_put(mm);
			if (other)
				return cc_err(ctx, "crushfs plans upmaps for "
					      "the data pool '%s' only, not "
					      "'%s'", dname, argv[i + 1]);
			if (!ok)
				return cc_err(ctx, "pool '%s' does not exist",
					      argv[i + 1]);
			i++;
		} else {
			return cc_usage(ctx, "unexpected argument '%s'", argv[i]);
		}
	}
	m = cfs_osdmap_get(ctx->cluster);
	pool = cfs_osdmap_pool(m)->id;
	npg = (int)cfs_osdmap_pool(m)->pg_num;
	n = cfs_osdmap_balance(m, &o, &pgs, &st);
	cfs_osdmap_put(m);
	if (n < 0)
		return cc_err(ctx, "balancer: %s", cfs_strerror(n));
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
	(void)applied;
	free(pgs);
	fprintf(apply ? ctx->out : ctx->err,
		"%s %d change(s) in %d PG(s) (max %d, deviation %d): PGs per "
		"OSD off target, stddev %.2f -> %.2f, max %.2f -> %.2f%s\n",
		apply ? "applied" : "planned", n, touched, o.max,
		o.max_deviation, st.stddev_before, st.stddev_after,
		st.maxdev_before, st.maxdev_after,
		apply && applied ? "; `crushfs rebalance` moves the data" : "");
	return 0;
}
