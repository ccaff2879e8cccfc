/*
 * cmd_balance.c - `crushfs osdmap upmap` (osdmaptool --mark-up-in --upmap
 * FILE: the upmap balancer's plan for one pool, as the ceph commands that
 * set it) and `crushfs osdmap eval` (how evenly a pool's PGs sit on its
 * OSDs, against their crush weight).  The balancer is placement's
 * pl_balance_upmaps (OSDMap::calc_pg_upmaps).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "om.h"
#include "om_overrides.h"

/* each PG's CRUSH set (existing OSDs) and its current entries */
static struct pl_balance_pg *load_pgs(struct cli_ctx *ctx, struct om *om,
				      const struct om_opts *o)
{
	struct pl_balance_pg *pgs = calloc((size_t)o->pg_num, sizeof(*pgs));

	if (!pgs) {
		cli_err(ctx, "out of memory");
		return NULL;
	}
	for (int ps = 0; ps < o->pg_num; ps++) {
		struct pl_balance_pg *p = &pgs[ps];
		uint32_t pps = pl_pg_pps((uint32_t)ps, (uint32_t)o->pgp_num,
					 o->pool);
		struct pl_pg_overrides ov;
		int n = 0;

		if (om->rule >= 0)
			n = pl_do_rule_args(om->m, om->rule, (int)pps, om->out,
					    om->size, om->osd_weight,
					    om->max_osd, om->work,
					    pl_map_choose_args_for(om->m,
								   o->pool));
		for (int i = 0; i < n; i++)
			if (om->out[i] >= 0 && om->out[i] < om->max_osd &&
			    om->exists[om->out[i]])
				p->raw[p->nraw++] = om->out[i];
		om_overrides_pg(om->ov, (uint32_t)ps, &ov);
		p->nupmap = ov.nupmap < PL_MAX_UP_ACTING ? ov.nupmap :
							   PL_MAX_UP_ACTING;
		if (p->nupmap)
			memcpy(p->upmap, ov.upmap,
			       sizeof(int) * (size_t)p->nupmap);
		p->nitems = ov.nitems < PL_MAX_UP_ACTING ? ov.nitems :
							   PL_MAX_UP_ACTING;
		if (p->nitems)
			memcpy(p->items, ov.items,
			       sizeof(p->items[0]) * (size_t)p->nitems);
	}
	return pgs;
}

static struct pl_osd_view view_of(const struct om *om)
{
	struct pl_osd_view v = { om->max_osd, om->exists, om->exists,
				 om->osd_weight, om_overrides_affinity(om->ov) };

	return v;
}

int cmd_osdmap_upmap(struct cli_ctx *ctx, int argc, char **argv)
{
	struct om_opts o;
	struct om om;
	struct pl_balance_pg *pgs = NULL;
	struct pl_balance_opts bo;
	struct pl_osd_view v;
	struct pl_balance_stats st = { 0 };
	int n, ret = 1, r = om_parse_opts(ctx, argc, argv, 2, &o);

	if (r)
		return r == 2 ? 0 : 1;
	memset(&om, 0, sizeof(om));
	if (om_load(ctx, &o, &om) || !(pgs = load_pgs(ctx, &om, &o)))
		goto out;
	if (om.rule < 0) {
		cli_err(ctx, "the pool has no usable rule 0 (replicated, size "
			"%d)", o.size);
		goto out;
	}
	v = view_of(&om);
	bo = (struct pl_balance_opts){ o.upmap_max, o.upmap_deviation, 1, 100,
				       o.upmap_seed, 64, 0 };
	n = pl_balance_upmaps(om.m, om.rule, o.size, &v, pgs, o.pg_num, &bo,
			      &st);
	if (n < 0) {
		cli_err(ctx, "balancer: %s", strerror(-n));
		goto out;
	}
	/* osdmaptool's print_inc_upmaps: removals, then new item lists */
	for (int ps = 0; ps < o.pg_num; ps++)
		if (pgs[ps].changed && !pgs[ps].nitems)
			printf("ceph osd rm-pg-upmap-items %" PRId64 ".%x\n",
			       o.pool, ps);
	for (int ps = 0; ps < o.pg_num; ps++) {
		if (!pgs[ps].changed || !pgs[ps].nitems)
			continue;
		printf("ceph osd pg-upmap-items %" PRId64 ".%x", o.pool, ps);
		for (int k = 0; k < pgs[ps].nitems; k++)
			printf(" %d %d", pgs[ps].items[k][0],
			       pgs[ps].items[k][1]);
		putchar('\n');
	}
	fprintf(stderr, "upmap, max-count %d, max deviation %d: prepared "
		"%d/%d changes; PGs per OSD off target: stddev %.2f -> %.2f\n",
		o.upmap_max, o.upmap_deviation, n, o.upmap_max,
		st.stddev_before, st.stddev_after);
	ret = 0;
	if (fflush(stdout) || ferror(stdout))
		ret = cli_err(ctx, "writing output: %s", strerror(errno));
out:
	free(pgs);
	om_free(&om);
	return ret;
}

int cmd_osdmap_eval(struct cli_ctx *ctx, int argc, char **argv)
{
	struct om_opts o;
	struct om om;
	int *count = NULL, ret = 1, worst = -1, nw = 0;
	float *share = NULL, total = 0, maxdev = 0, ss = 0;
	int r = om_parse_opts(ctx, argc, argv, 0, &o);

	if (r)
		return r == 2 ? 0 : 1;
	memset(&om, 0, sizeof(om));
	if (om_load(ctx, &o, &om))
		goto out;
	count = calloc((size_t)om.max_osd + 1, sizeof(int));
	share = calloc((size_t)om.max_osd + 1, sizeof(float));
	if (!count || !share) {
		cli_err(ctx, "out of memory");
		goto out;
	}
	if (om.rule >= 0 &&
	    pl_rule_osd_weights(om.m, om.rule, share, NULL, om.max_osd)) {
		cli_err(ctx, "out of memory");
		goto out;
	}
	/* the up sets (every OSD is up: up == acting without pg_temp) */
	for (int ps = 0; ps < o.pg_num; ps++) {
		int primary, n = om_pg_to_acting(&om, o.pool, (uint32_t)ps,
						 (uint32_t)o.pgp_num, &primary);

		for (int i = 0; i < n; i++)
			if (om.out[i] >= 0 && om.out[i] < om.max_osd)
				count[om.out[i]]++;
	}
	for (int i = 0; i < om.max_osd; i++)
		total += share[i];
	printf("#osd\tpgs\ttarget\tdeviation\n");
	for (int i = 0; i < om.max_osd; i++) {
		float target, d;

		if (share[i] == 0 || total == 0)
			continue;
		target = share[i] * (float)(o.size * o.pg_num) / total;
		d = (float)count[i] - target;
		printf("osd.%d\t%d\t%.2f\t%+.2f\n", i, count[i], target, d);
		ss += d * d;
		nw++;
		if (fabsf(d) > maxdev || worst < 0) {
			maxdev = fabsf(d);
			worst = i;
		}
	}
	if (nw)
		printf("max deviation %.2f (osd.%d), stddev %.2f\n", maxdev,
		       worst, sqrtf(ss / (float)nw));
	ret = 0;
	if (fflush(stdout) || ferror(stdout))
		ret = cli_err(ctx, "writing output: %s", strerror(errno));
out:
	free(count);
	free(share);
	om_free(&om);
	return ret;
}
