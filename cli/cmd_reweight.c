/*
 * cmd_reweight.c - `osd [test-]reweight-by-utilization` and
 * `osd [test-]reweight-by-pg [OVERLOAD [MAX_CHANGE [MAX_OSDS]]]
 * [--no-increasing]`: Ceph 16.2's reweight::by_utilization (src/mon/
 * PGMap.cc) with the mon's defaults (overload 120%, max change 0.05,
 * 4 OSDs, mon_reweight_min_bytes_per_osd 100 MiB,
 * mon_reweight_min_pgs_per_osd 10), its refusals and its report.  The
 * test- forms change nothing; the others set the new reweights (one epoch
 * each) and `rebalance` moves the data.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster_cmds.h"
#include "osdmap.h"
#include "upmap.h"
#include "usage.h"
#include "util.h"

#define MIN_BYTES_PER_OSD (100ull << 20)
#define MIN_PGS_PER_OSD 10

struct util_osd {
	int osd;
	float util;
};

static double average_util;

/*
 * OSDMap::summarize_mapping_stats with the new reweights, printed as
 * reweight::by_utilization returns it: copies moved, the mean and the
 * standard deviation of up-set copies per up+in OSD, the OSDs with the
 * fewest and the most.  Floats as an ostream prints them (%g).  (No
 * offline oracle prints this - the mgr does - so this follows the source,
 * src/osd/OSDMap.cc.)
 */
static int summarize(const cfs_osdmap *m, const uint32_t *neww, char *out,
		     size_t outlen)
{
	int n = cfs_osdmap_max_osd(m), num_up_in = 0, min = -1, max = -1;
	unsigned *base = calloc((size_t)n + 1, sizeof(*base));
	unsigned *next = calloc((size_t)n + 1, sizeof(*next));
	unsigned moved, total, min_base = 0, max_base = 0, min_new = 0;
	unsigned max_new = 0;
	float avg, base_sd = 0, new_sd = 0, edev;
	int r = base && next ? cfs_osdmap_mapping_stats(m, neww, base, next,
							&moved, &total)
			     : -ENOMEM;

	for (int i = 0; !r && i < n; i++) {
		struct cfs_osd_info oi;

		if (!cfs_osdmap_osd(m, i, &oi) && oi.up && oi.reweight)
			num_up_in++;
	}
	if (!r && !num_up_in)
		r = -EINVAL;
	if (r)
		goto out;
	avg = (float)total / (float)num_up_in;
	for (int i = 0; i < n; i++) {
		struct cfs_osd_info oi;
		float bd, nd;

		if (cfs_osdmap_osd(m, i, &oi) || !oi.up || !oi.reweight)
			continue;
		bd = (float)base[i] - avg;
		nd = (float)next[i] - avg;
		base_sd += bd * bd;
		new_sd += nd * nd;
		if (min < 0 || base[i] < min_base) {
			min = i;
			min_base = base[i];
			min_new = next[i];
		}
		if (max < 0 || base[i] > max_base) {
			max = i;
			max_base = base[i];
			max_new = next[i];
		}
	}
	base_sd = sqrtf(base_sd / (float)num_up_in);
	new_sd = sqrtf(new_sd / (float)num_up_in);
	edev = (float)sqrt(avg * (1.0 - (1.0 / (double)num_up_in)));
	snprintf(out, outlen,
		 "moved %u / %u (%g%%)\navg %g\nstddev %g -> %g (expected "
		 "baseline %g)\nmin osd.%d with %u -> %u pgs (%g -> %g * "
		 "mean)\nmax osd.%d with %u -> %u pgs (%g -> %g * mean)\n",
		 moved, total,
		 total ? (double)((float)moved * 100.0f / (float)total) : 0.0,
		 (double)avg, (double)base_sd, (double)new_sd, (double)edev,
		 min, min_base, min_new, (double)((float)min_base / avg),
		 (double)((float)min_new / avg), max, max_base, max_new,
		 (double)((float)max_base / avg),
		 (double)((float)max_new / avg));
out:
	free(base);
	free(next);
	return r;
}

static int by_deviation(const void *a, const void *b)
{
	/* std::sort by |util - average| descending; ties in OSD order */
	const struct util_osd *x = a, *y = b;
	double dx = fabs(x->util - average_util);
	double dy = fabs(y->util - average_util);

	if (dx != dy)
		return dx > dy ? -1 : 1;
	return x->osd - y->osd;
}

static int parse_args(struct cmd_ctx *ctx, int argc, char **argv, int *oload,
		      double *max_change, int *max_osds, int *no_increasing)
{
	int pos = 0;

	*oload = 120;
	*max_change = 0.05;
	*max_osds = 4;
	*no_increasing = 0;
	for (int i = 0; i < argc; i++) {
		char *end;

		if (!strcmp(argv[i], "--no-increasing")) {
			*no_increasing = 1;
			continue;
		}
		if (pos == 0) {
			long v = strtol(argv[i], &end, 10);

			if (!*argv[i] || *end || v < 0 || v > 100000)
				return cc_usage(ctx, "overload: expected a "
						"percentage, got '%s'", argv[i]);
			*oload = (int)v;
		} else if (pos == 1) {
			*max_change = strtod(argv[i], &end);
			if (!*argv[i] || *end || !(*max_change > 0 &&
						   *max_change <= 1))
				return cc_usage(ctx, "max_change: expected a "
						"number in (0, 1], got '%s'",
						argv[i]);
		} else if (pos == 2) {
			long v = strtol(argv[i], &end, 10);

			if (!*argv[i] || *end || v < 1 || v > 100000)
				return cc_usage(ctx, "max_osds: expected a "
						"positive integer, got '%s'",
						argv[i]);
			*max_osds = (int)v;
		} else {
			return cc_usage(ctx, "unexpected argument '%s'",
					argv[i]);
		}
		pos++;
	}
	return 0;
}

static int run(struct cmd_ctx *ctx, int argc, char **argv, int by_pg,
	       int dry)
{
	const cfs_osdmap *m = cfs_osdmap_get(ctx->cluster);
	int n = cfs_osdmap_max_osd(m), oload, max_osds, no_inc, nu = 0;
	int changed = 0, ret = 1, *pgs = NULL;
	double max_changef, weight_sum = 0, overload;
	uint32_t *neww = NULL, *oldw = NULL;
	struct util_osd *u = NULL;
	char buf[4096], stats[512];
	size_t off = 0;
	unsigned max_change;

	if (parse_args(ctx, argc, argv, &oload, &max_changef, &max_osds,
		       &no_inc))
		goto out;
	if (oload <= 100) {
		cc_err(ctx, "You must give a percentage higher than 100. The "
		       "reweighting threshold will be calculated as "
		       "<average-utilization> times <input-percentage>. For "
		       "example, an argument of 200 would reweight OSDs which "
		       "are twice as utilized as the average OSD.");
		goto out;
	}
	pgs = calloc((size_t)n + 1, sizeof(int));
	u = calloc((size_t)n + 1, sizeof(*u));
	neww = calloc((size_t)n + 1, sizeof(*neww));
	oldw = calloc((size_t)n + 1, sizeof(*oldw));
	if (!pgs || !u || !neww || !oldw) {
		cc_err(ctx, "out of memory");
		goto out;
	}
	for (int i = 0; i < n; i++) {
		struct cfs_osd_info oi;

		if (!cfs_osdmap_osd(m, i, &oi))
			oldw[i] = neww[i] = oi.reweight;
	}
	if (by_pg) {
		const struct cfs_pool_info *pi = cfs_osdmap_pool(m);
		unsigned copies = 0;
		int nosd = 0;

		for (uint32_t ps = 0; ps < pi->pg_num; ps++) {
			const struct cfs_pg_mapping *pg = cfs_osdmap_pg(m, ps);

			for (int k = 0; k < pg->nacting; k++) {
				struct cfs_osd_info oi;
				int o = pg->acting[k];

				if (cfs_osdmap_osd(m, o, &oi))
					continue;
				if (!pgs[o]) {
					if (oi.crush_weight == 0)
						continue;
					weight_sum += (double)oi.crush_weight /
						      0x10000;
					nosd++;
				}
				pgs[o]++;
				copies++;
			}
		}
		if (!nosd || copies / (unsigned)nosd < MIN_PGS_PER_OSD) {
			cc_err(ctx, "Refusing to reweight: we only have %u PGs "
			       "across %d osds!", copies, nosd);
			goto out;
		}
		average_util = (double)copies / weight_sum;
		for (int i = 0; i < n; i++) {
			struct cfs_osd_info oi;

			if (!pgs[i] || cfs_osdmap_osd(m, i, &oi) ||
			    oi.crush_weight == 0)
				continue;
			u[nu].osd = i;
			u[nu++].util = (float)(pgs[i] /
					       ((double)oi.crush_weight / 0x10000));
		}
	} else {
		uint64_t total = 0, used = 0;
		int nosd = 0;

		for (int i = 0; i < n; i++) {
			struct cfs_osd_info oi;
			struct cfs_osd_usage us;

			if (cfs_osdmap_osd(m, i, &oi) || !oi.reweight)
				continue; /* an out OSD reports nothing */
			cfs_osd_usage(ctx->cluster, i, &us);
			total += oi.capacity;
			used += us.used;
			nosd++;
			u[nu].osd = i;
			u[nu++].util = oi.capacity ?
				(float)((double)us.used / (double)oi.capacity) :
				0;
		}
		if (nosd < 1)
			nosd = 1;
		if (total / (uint64_t)nosd < MIN_BYTES_PER_OSD) {
			cc_err(ctx, "Refusing to reweight: we only have %llu kb "
			       "across all osds!",
			       (unsigned long long)(total >> 10));
			goto out;
		}
		if (used / (uint64_t)nosd < MIN_BYTES_PER_OSD) {
			cc_err(ctx, "Refusing to reweight: we only have %llu kb "
			       "used across all osds!",
			       (unsigned long long)(used >> 10));
			goto out;
		}
		average_util = (double)used / (double)total;
	}
	overload = average_util * (double)oload / 100.0;
	max_change = (unsigned)(max_changef * (double)CFS_WEIGHT_ONE);
	off += (size_t)snprintf(buf + off, sizeof(buf) - off,
				"oload %d\nmax_change %g\nmax_change_osds %d\n"
				"average_utilization %.4f\n"
				"overload_utilization %.4f\n",
				oload, max_changef, max_osds, average_util,
				overload);
	qsort(u, (size_t)nu, sizeof(*u), by_deviation);
	for (int k = 0; k < nu; k++) {
		int o = u[k].osd;
		unsigned w = oldw[o], nw;
		float util = u[k].util;

		if (w == 0)
			continue;
		if (util >= overload) {
			nw = (unsigned)((average_util / util) * (float)w);
			if (w > max_change && nw < w - max_change)
				nw = w - max_change;
			neww[o] = nw;
			if (off < sizeof(buf))
				off += (size_t)snprintf(buf + off,
					sizeof(buf) - off,
					"osd.%d weight %.4f -> %.4f\n", o,
					(float)w / (float)CFS_WEIGHT_ONE,
					(float)nw / (float)CFS_WEIGHT_ONE);
			if (++changed >= max_osds)
				break;
		}
		if (!no_inc && util <= average_util) {
			nw = (unsigned)((average_util / util) * (float)w);
			if (nw > w + max_change)
				nw = w + max_change;
			if (nw > CFS_WEIGHT_ONE)
				nw = CFS_WEIGHT_ONE;
			if (nw > w) {
				neww[o] = nw;
				if (off < sizeof(buf))
					off += (size_t)snprintf(buf + off,
						sizeof(buf) - off,
						"osd.%d weight %.4f -> %.4f\n",
						o, (float)w / (float)CFS_WEIGHT_ONE,
						(float)nw / (float)CFS_WEIGHT_ONE);
				if (++changed >= max_osds)
					break;
			}
		}
	}
	if (!changed) {
		fprintf(ctx->out, "no change\n");
		ret = 0;
		goto out;
	}
	if (summarize(m, neww, stats, sizeof(stats))) {
		cc_err(ctx, "out of memory");
		goto out;
	}
	fprintf(ctx->out, "%s\n%s", stats, buf);
	ret = 0;
	if (dry)
		goto out;
	for (int i = 0; i < n; i++) {
		int r;

		if (neww[i] == oldw[i])
			continue;
		r = cfs_osd_reweight(ctx->cluster, i, neww[i]);
		if (r) {
			ret = cc_err(ctx, "osd.%d: cannot reweight: %s", i,
				     cfs_strerror(r));
			goto out;
		}
	}
out:
	cfs_osdmap_put(m);
	free(pgs);
	free(u);
	free(neww);
	free(oldw);
	return ret;
}

int ccmd_osd_test_reweight_by_utilization(struct cmd_ctx *ctx, int argc,
					  char **argv)
{
	return run(ctx, argc, argv, 0, 1);
}

int ccmd_osd_reweight_by_utilization(struct cmd_ctx *ctx, int argc,
				     char **argv)
{
	return run(ctx, argc, argv, 0, 0);
}

int ccmd_osd_test_reweight_by_pg(struct cmd_ctx *ctx, int argc, char **argv)
{
	return run(ctx, argc, argv, 1, 1);
}

int ccmd_osd_reweight_by_pg(struct cmd_ctx *ctx, int argc, char **argv)
{
	return run(ctx, argc, argv, 1, 0);
}
