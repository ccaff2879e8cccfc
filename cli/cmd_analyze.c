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
 * Each names the OSD that fills first.  The figures are mgr/'s, from one
 * snapshot (the analysis, and `df`'s rows for what a pool stores); this
 * file parses and prints.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cluster_cmds.h"
#include "mgr.h"
#include "osdmap.h"
#include "upmap.h"
#include "usage.h"
#include "util.h"

int ccmd_analyze(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct mgr_snap s;
	const cfs_osdmap *m;
	const struct cfs_pool_info *pi;
	const struct mgr_pool_fill *f = NULL;
	const struct mgr_pool_df *d = NULL;
	const struct cfs_health *hh;
	struct mgr_analysis a = { 0 };
	struct mgr_df df = { 0 };
	int r, ret = 1, fw_near = -1;
	uint64_t w_near = 0, *used = NULL, rule_used = 0;
	double tw = 0;
	char b1[32], b2[32], b3[32];
	json_t *osds = NULL;

	r = cc_snap(ctx, MGR_SNAP_PGS, &s);
	if (r)
		return r;
	m = s.m;
	hh = &s.h;
	pi = cfs_osdmap_pool(m);
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--pool") && i + 1 < argc) {
			const struct cfs_pool_info *q =
				cfs_osdmap_pool_by_name(m, argv[i + 1]);
			char *end;
			long long id = strtoll(argv[i + 1], &end, 10);

			if (!q && !*end && end != argv[i + 1])
				q = cfs_osdmap_pool_by_id(m, id);
			if (!q) {
				cc_err(ctx, "pool '%s' does not exist",
				       argv[i + 1]);
				goto out;
			}
			pi = q;
			i++;
		} else {
			cc_usage(ctx, "unexpected argument '%s'", argv[i]);
			goto out;
		}
	}
	r = mgr_df_compute(&s, &df);
	if (!r)
		r = mgr_analysis_take(&s, &a);
	used = calloc((size_t)a.max_osd + 1, sizeof(*used));
	if (!r && !used)
		r = -ENOMEM;
	if (r) {
		cc_err(ctx, "%s", cfs_strerror(r));
		goto out;
	}
	/* the df rows and the analysis: pool by pool, the osdmap's order */
	for (int k = 0; k < a.npools && k < df.npools; k++)
		if (a.pools[k].pool == pi) {
			f = &a.pools[k];
			d = &df.pools[k];
		}
	for (int i = 0; i < a.max_osd && i < hh->max_osd; i++) {
		used[i] = hh->osd[i].used;
		if (f->expected[i] > 0) {
			tw += f->expected[i];
			rule_used += used[i];
		}
	}
	/* the data pool's nearfull line by the weights (osdsim knows its
	 * rule's shares) */
	if (pi == cfs_osdmap_pool(m))
		w_near = cfs_pool_avail_before(m, used,
					       cfs_osdmap_nearfull_ratio(m),
					       &fw_near);
	if (ctx->json)
		osds = json_array();
	else
		fprintf(ctx->out,
			"pool '%s' (%lld): %u PGs x %d %s on %d OSDs, %s "
			"stored (raw %s)\n\n"
			"%-8s %6s %8s %8s %10s %10s %8s %7s\n",
			pi->name, (long long)pi->id, pi->pg_num, pi->size,
			pi->erasure ? "shards" : "copies", hh->num_osds,
			cfs_format_size(d->stored, b1, sizeof(b1)),
			cfs_format_size(d->used, b2, sizeof(b2)), "OSD",
			"WEIGHT", "PGS", "EXP", "OVER/UNDER", "BYTES", "EXP",
			"OVER");
	for (int i = 0; i < a.max_osd; i++) {
		double ew, pgo, eb, bo;
		int cnt = f->up_pgs[i];
		float t = f->expected[i];

		if (t <= 0 && !cnt)
			continue;
		ew = tw > 0 ? t / tw : 0;
		pgo = t > 0 ? 100.0 * (cnt - t) / t : 0;
		eb = ew * (double)rule_used;
		bo = eb > 0 ? 100.0 * ((double)used[i] - eb) / eb : 0;
		if (fabs(pgo) < 0.05)
			pgo = 0;
		if (fabs(bo) < 0.05)
			bo = 0;
		if (osds) {
			json_array_append_new(osds, json_pack(
				"{s:i, s:f, s:i, s:f, s:f, s:I, s:f, s:f}",
				"osd", i, "weight_share", ew, "pgs", cnt,
				"expected_pgs", (double)t, "pgs_over_pct", pgo,
				"bytes", (json_int_t)used[i],
				"expected_bytes", eb, "bytes_over_pct", bo));
			continue;
		}
		fprintf(ctx->out,
			"osd.%-4d %5.1f%% %8d %8.1f %+9.1f%% %10s %10s %+6.1f%%\n",
			i, 100 * ew, cnt, t, pgo,
			cfs_format_size(used[i], b1, sizeof(b1)),
			cfs_format_size((uint64_t)eb, b2, sizeof(b2)), bo);
	}
	if (osds) {
		json_t *pools = json_array();

		/* every pool's room, as the report lists them */
		for (int k = 0; k < a.npools && k < df.npools; k++) {
			const struct mgr_pool_fill *q = &a.pools[k];
			const struct mgr_pool_df *qd = &df.pools[k];

			json_array_append_new(pools, json_pack(
				"{s:s, s:I, s:I, s:I, s:I, s:i, s:I, s:I}",
				"name", q->pool->name, "id",
				(json_int_t)q->pool->id, "stored",
				(json_int_t)qd->stored, "max_avail",
				(json_int_t)qd->max_avail, "raw_used",
				(json_int_t)qd->used, "fills_first",
				q->fills_first, "before_nearfull",
				(json_int_t)q->before_nearfull, "before_full",
				(json_int_t)q->before_full));
		}
		ret = cc_json_out(ctx, json_pack(
			"{s:o, s:o, s:{s:i, s:I, s:I}, s:{s:i, s:i, s:I, s:I}}",
			"osds", osds, "pools", pools, "by_weights", "fills_first",
			f->weight_first, "before_nearfull", (json_int_t)w_near,
			"before_full", (json_int_t)f->max_avail, "by_pgs",
			"fills_first", f->fills_first, "nearfull_first",
			f->nearfull_first, "before_nearfull",
			(json_int_t)f->before_nearfull, "before_full",
			(json_int_t)f->before_full));
		goto out;
	}
	fprintf(ctx->out, "\nwritable (stored bytes) before the first OSD is "
		"nearfull / full:\n");
	if (pi == cfs_osdmap_pool(m))
		fprintf(ctx->out, "  as the crush weights predict: %s / %s; "
			"osd.%d fills first (MAX AVAIL %s)\n",
			cfs_format_size(w_near, b1, sizeof(b1)),
			cfs_format_size(f->max_avail, b2, sizeof(b2)),
			f->weight_first,
			cfs_format_size(f->max_avail, b3, sizeof(b3)));
	else
		fprintf(ctx->out, "  as the crush weights predict: MAX AVAIL "
			"%s\n", cfs_format_size(f->max_avail, b1, sizeof(b1)));
	fprintf(ctx->out, "  as the PGs are spread:        %s / %s; osd.%d "
		"fills first\n",
		cfs_format_size(f->before_nearfull, b1, sizeof(b1)),
		cfs_format_size(f->before_full, b2, sizeof(b2)),
		f->fills_first);
	ret = 0;
out:
	mgr_analysis_free(&a);
	mgr_df_free(&df);
	mgr_snap_free(&s);
	free(used);
	return ret;
}
