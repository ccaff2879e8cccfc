/*
 * cmd_analyze.c - `crushfs analyze [--pool P]`: how the pool's data sits on
 * its OSDs against what their crush weights predict (python-crush's
 * `crush analyze`, with bytes), and how much more can be written before
 * the first OSD is nearfull and full, two ways:
 *   - by the weights: new data spreads as CRUSH weights predict (Ceph's
 *     MAX AVAIL, PGMap::get_rule_avail, here up to any ratio);
 *   - by the PGs: objects hash evenly over the pool's PGs, so each OSD
 *     takes new data in proportion to the PGs it holds (what happens once
 *     CRUSH has placed the PGs, however close to the weights it came).
 * Each names the OSD that fills first.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cluster_cmds.h"
#include "osdmap.h"
#include "upmap.h"
#include "usage.h"
#include "util.h"

/* bytes writable until the first OSD reaches `ratio` of its capacity if
 * each gets share[i] of every byte written (raw, all replicas) */
static uint64_t writable_by_share(const struct cfs_health *h,
				  const double *share, double ratio, int size,
				  int *first)
{
	double best = -1;

	*first = -1;
	for (int i = 0; i < h->max_osd; i++) {
		const struct cfs_osd_snap *s = &h->osd[i];
		double limit, room, raw;

		if (!s->info.exists || !s->in || share[i] <= 0)
			continue;
		limit = (double)s->info.capacity * ratio;
		room = limit > (double)s->used ? limit - (double)s->used : 0;
		raw = room / share[i];
		if (best < 0 || raw < best) {
			best = raw;
			*first = i;
		}
	}
	return best < 0 ? 0 : (uint64_t)(best / size);
}

int ccmd_analyze(struct cmd_ctx *ctx, int argc, char **argv)
{
	const cfs_osdmap *m = cfs_osdmap_get(ctx->cluster);
	const struct cfs_pool_info *pi = cfs_osdmap_pool(m);
	int n = cfs_osdmap_max_osd(m), *count = NULL, r, ret = 1;
	float *target = NULL;
	double *wshare = NULL, *dshare = NULL, tw = 0, pgsum = 0;
	uint64_t *used = NULL, rule_used = 0;
	struct cfs_health h;
	int fw_near, fw_full, fd_near, fd_full;
	uint64_t w_near, w_full, d_near, d_full;
	char b1[32], b2[32], b3[32];
	json_t *osds = NULL;

	memset(&h, 0, sizeof(h));
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--pool") && i + 1 < argc) {
			if (cc_other_pool(m, argv[i + 1])) {
				cc_err(ctx, "pool '%s' is not the "
				       "filesystem's first data pool: analyze "
				       "looks at '%s' only", argv[i + 1],
				       pi->name);
				goto out;
			}
			if (strcmp(argv[i + 1], pi->name) &&
			    strtoll(argv[i + 1], NULL, 10) != pi->id) {
				cc_err(ctx, "pool '%s' does not exist",
				       argv[i + 1]);
				goto out;
			}
			i++;
		} else {
			cc_usage(ctx, "unexpected argument '%s'", argv[i]);
			goto out;
		}
	}
	r = cfs_health_take(ctx->cluster, m, NULL, 0, NULL, &h);
	count = calloc((size_t)n + 1, sizeof(int));
	target = calloc((size_t)n + 1, sizeof(float));
	wshare = calloc((size_t)n + 1, sizeof(double));
	dshare = calloc((size_t)n + 1, sizeof(double));
	used = calloc((size_t)n + 1, sizeof(uint64_t));
	if (r || !count || !target || !wshare || !dshare || !used ||
	    cfs_osdmap_pg_spread(m, cfs_osdmap_pool(m)->id, count, target)) {
		cc_err(ctx, "%s", cfs_strerror(r ? r : -ENOMEM));
		goto out;
	}
	for (int i = 0; i < n && i < h.max_osd; i++) {
		used[i] = h.osd[i].used;
		if (target[i] > 0) {
			tw += target[i];
			pgsum += count[i];
			rule_used += h.osd[i].used;
		}
	}
	for (int i = 0; i < n; i++) {
		wshare[i] = tw > 0 ? target[i] / tw : 0;
		dshare[i] = pgsum > 0 && target[i] > 0 ? count[i] / pgsum : 0;
	}
	w_near = cfs_pool_avail_before(m, used, cfs_osdmap_nearfull_ratio(m),
				       &fw_near);
	w_full = cfs_pool_avail_before(m, used, cfs_osdmap_full_ratio(m),
				       &fw_full);
	d_near = writable_by_share(&h, dshare, cfs_osdmap_nearfull_ratio(m),
				   pi->size, &fd_near);
	d_full = writable_by_share(&h, dshare, cfs_osdmap_full_ratio(m),
				   pi->size, &fd_full);
	if (ctx->json)
		osds = json_array();
	else
		fprintf(ctx->out,
			"pool '%s' (%lld): %u PGs x %d copies on %d OSDs, %s "
			"stored (raw %s)\n\n"
			"%-8s %6s %8s %8s %10s %10s %8s %7s\n",
			pi->name, (long long)pi->id, pi->pg_num, pi->size,
			h.num_osds, cfs_format_size(rule_used / (uint64_t)pi->size,
						    b1, sizeof(b1)),
			cfs_format_size(rule_used, b2, sizeof(b2)), "OSD",
			"WEIGHT", "PGS", "EXP", "OVER/UNDER", "BYTES", "EXP",
			"OVER");
	for (int i = 0; i < n; i++) {
		double ew, pgo, eb, bo;

		if (target[i] <= 0 && !count[i])
			continue;
		ew = wshare[i];
		pgo = target[i] > 0 ? 100.0 * (count[i] - target[i]) / target[i]
				    : 0;
		eb = ew * (double)rule_used;
		bo = eb > 0 ? 100.0 * ((double)used[i] - eb) / eb : 0;
		if (fabs(pgo) < 0.05)
			pgo = 0;
		if (fabs(bo) < 0.05)
			bo = 0;
		if (osds) {
			json_array_append_new(osds, json_pack(
				"{s:i, s:f, s:i, s:f, s:f, s:I, s:f, s:f}",
				"osd", i, "weight_share", ew, "pgs", count[i],
				"expected_pgs", (double)target[i],
				"pgs_over_pct", pgo, "bytes",
				(json_int_t)used[i], "expected_bytes", eb,
				"bytes_over_pct", bo));
			continue;
		}
		fprintf(ctx->out,
			"osd.%-4d %5.1f%% %8d %8.1f %+9.1f%% %10s %10s %+6.1f%%\n",
			i, 100 * ew, count[i], target[i], pgo,
			cfs_format_size(used[i], b1, sizeof(b1)),
			cfs_format_size((uint64_t)eb, b2, sizeof(b2)), bo);
	}
	if (osds) {
		ret = cc_json_out(ctx, json_pack(
			"{s:o, s:{s:i, s:I, s:I}, s:{s:i, s:I, s:I}}", "osds",
			osds, "by_weights", "fills_first", fw_full,
			"before_nearfull", (json_int_t)w_near, "before_full",
			(json_int_t)w_full, "by_pgs", "fills_first",
			fd_full, "before_nearfull", (json_int_t)d_near,
			"before_full", (json_int_t)d_full));
		goto out;
	}
	fprintf(ctx->out, "\nwritable (stored bytes) before the first OSD is "
		"nearfull / full:\n");
	fprintf(ctx->out, "  as the crush weights predict: %s / %s; osd.%d "
		"fills first (MAX AVAIL %s)\n",
		cfs_format_size(w_near, b1, sizeof(b1)),
		cfs_format_size(w_full, b2, sizeof(b2)), fw_full,
		cfs_format_size(h.max_avail, b3, sizeof(b3)));
	fprintf(ctx->out, "  as the PGs are spread:        %s / %s; osd.%d "
		"fills first\n",
		cfs_format_size(d_near, b1, sizeof(b1)),
		cfs_format_size(d_full, b2, sizeof(b2)), fd_full);
	(void)fw_near;
	(void)fd_near;
	ret = 0;
out:
	cfs_health_free(&h);
	cfs_osdmap_put(m);
	free(count);
	free(target);
	free(wshare);
	free(dshare);
	free(used);
	return ret;
}
