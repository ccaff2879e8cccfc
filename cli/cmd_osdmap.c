/*
 * cmd_osdmap.c - `crushfs osdmap test-map-object` and
 * `crushfs osdmap test-map-pgs-dump`.
 *
 * They print what Ceph 16.2's osdmaptool prints for these actions,
 *   osdmaptool OM --mark-up-in --test-map-object NAME --pool ID
 *   osdmaptool OM --mark-up-in --test-map-pgs-dump --pool ID
 * for an osdmap OM that holds the crush map MAP.txt and one replicated pool
 * ID (pg_num N, pgp_num default N, size R default 3, crush_rule 0, flags
 * hashpspool, object_hash rjenkins) with every OSD up and in.  Only the
 * action's own lines are printed, not osdmaptool's "marking all OSDs up and
 * in" banner or anything it says on stderr -- except that the pgs dump,
 * being the whole stdout of that osdmaptool command, starts with the
 * banner line "marking all OSDs up and in" too (tests/golden/oracle.sh
 * compares it so).  test-map-object prints just its one line.
 *
 * --overrides FILE adds the osdmap's per-PG entries and primary
 * affinities (om_overrides.c), applied in OSDMap::_pg_to_up_acting_osds's
 * order by placement's pl_pg_up_acting.
 *
 * The osdmap we model: max_osd = the crush map's max_devices, and OSD i
 * exists iff the map declares device i or a bucket holds it.  For a map
 * whose devices are 0..max_devices-1 this is exactly osdmaptool's map after
 * `--createsimple <max_devices>` + `--import-crush`; gaps change nothing
 * printed (CRUSH never returns a device outside the buckets, and the
 * per-OSD table skips OSDs without a crush weight).  OSDs the crush map
 * names beyond max_osd cannot occur, so _remove_nonexistent_osds only drops
 * CRUSH_ITEM_NONE holes (an indep rule 0).
 *
 * What Ceph 16.2 does, step by step (src/osd/OSDMap.cc, osd_types.cc,
 * src/tools/osdmaptool.cc), and what we copy:
 *  - --mark-up-in sets every OSD up, weight IN, and gives every OSD whose
 *    crush weight (in the first bucket holding it) is exactly 0 a crush
 *    weight of 1.0 (adjust_item_weightf), which also reweights its buckets.
 *  - object_locator_to_pg: ps = ceph_str_hash_rjenkins(name) (no key, no
 *    namespace); raw_pg_to_pg: ps = ceph_stable_mod(ps, pg_num, mask).
 *  - _pg_to_raw_osds: pps = crush_hash32_2(stable_mod(ps, pgp_num, pgp
 *    mask), pool) (HASHPSPOOL); rule = find_rule(0, replicated, size):
 *    rule 0 if it exists, is replicated and min_size <= size <= max_size,
 *    else none (empty set); do_rule(rule, pps, size, osd_weight).
 *  - _remove_nonexistent_osds shifts out OSDs that do not exist (the pool
 *    can shift), _raw_to_up_osds drops down ones (none), primary = first,
 *    _apply_primary_affinity does nothing (no affinities set), no pg_temp
 *    or upmap: acting == up, and that is what both actions print.
 *  - the dump's table lists OSDs that are in and have crush weight > 0;
 *    avg is total/in in integer (uint64) arithmetic, stddev sums
 *    (avg - count)^2 in uint64 (so wrap-around makes it |d|^2), then
 *    /in and sqrt in double; expected = sqrt(total/in * (1 - 1/in)).
 *    Doubles print as C++ ostream does (%g), 0/0 as "-nan" (x86).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "om.h"
#include "om_overrides.h"
#include "placement.h"

int om_parse_opts(struct cli_ctx *ctx, int argc, char **argv, int want_name,
		  struct om_opts *o)
{
	int64_t v;
	int dashdash = 0;

	memset(o, 0, sizeof(*o));
	o->size = 3;
	o->upmap_max = 10;	/* osdmaptool's defaults */
	o->upmap_deviation = 5;
	o->pgp_num = -1;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *val;
		int r;

		if (!dashdash && strcmp(a, "--") == 0) {
			dashdash = 1;
			continue;
		}
		if (dashdash || a[0] != '-' || a[1] == '\0') {
			if (want_name != 1)
				return cli_err(ctx, "unexpected argument '%s'",
					       a);
			if (o->name)
				return cli_err(ctx,
					       "one object name only ('%s', '%s')",
					       o->name, a);
			o->name = a;
		} else if ((r = cli_opt(ctx, argc, argv, &i, "--crush", &val))) {
			if (r < 0)
				return 1;
			o->crush = val;
		} else if ((r = cli_opt(ctx, argc, argv, &i, "--upmap-max",
					&val))) {
			if (r < 0 || cli_parse_i64(ctx, "--upmap-max", val, 1,
						   1000000, &v))
				return 1;
			o->upmap_max = (int)v;
			o->balancer_opt = 1;
		} else if ((r = cli_opt(ctx, argc, argv, &i,
					"--upmap-deviation", &val))) {
			if (r < 0 || cli_parse_i64(ctx, "--upmap-deviation", val,
						   1, 1000000, &v))
				return 1;
			o->upmap_deviation = (int)v;
			o->balancer_opt = 1;
		} else if ((r = cli_opt(ctx, argc, argv, &i, "--upmap-seed",
					&val))) {
			if (r < 0 || cli_parse_i64(ctx, "--upmap-seed", val, 0,
						   INT64_MAX, &v))
				return 1;
			o->upmap_seed = (uint64_t)v;
			o->balancer_opt = 1;
		} else if ((r = cli_opt(ctx, argc, argv, &i, "--overrides",
					&val))) {
			if (r < 0)
				return 1;
			o->overrides = val;
		} else if ((r = cli_opt(ctx, argc, argv, &i, "--pool", &val))) {
			if (r < 0 || cli_parse_i64(ctx, "--pool", val, 0,
						   INT64_MAX, &o->pool))
				return 1;
			o->pool_set = 1;
		} else if ((r = cli_opt(ctx, argc, argv, &i, "--pg-num", &val))) {
			/* ceph_stable_mod works on int: stay below 2^31 */
			if (r < 0 || cli_parse_i64(ctx, "--pg-num", val, 1,
						   INT32_MAX, &v))
				return 1;
			o->pg_num = (int)v;
		} else if ((r = cli_opt(ctx, argc, argv, &i, "--pgp-num",
					&val))) {
			if (r < 0 || cli_parse_i64(ctx, "--pgp-num", val, 1,
						   INT32_MAX, &v))
				return 1;
			o->pgp_num = (int)v;
		} else if ((r = cli_opt(ctx, argc, argv, &i, "--size", &val))) {
			/* Ceph's limit (osd_pool_default_size, pool set) */
			if (r < 0 || cli_parse_i64(ctx, "--size", val, 1, 10,
						   &v))
				return 1;
			o->size = (int)v;
		} else {
			r = cli_common_opt(ctx, argc, argv, &i);
			if (r == 2)
				return 2;
			if (r <= 0)
				return 1;
		}
	}
	if (want_name == 1 && !o->name)
		return cli_err(ctx, "missing the object NAME");
	/* osdmaptool takes --test-map-object '' for no action (exit 1) */
	if (want_name == 1 && !*o->name)
		return cli_err(ctx, "the object NAME is empty");
	if (!o->crush)
		return cli_err(ctx, "missing --crush MAP.txt");
	if (!o->pool_set)
		return cli_err(ctx, "missing --pool ID");
	if (!o->pg_num)
		return cli_err(ctx, "missing --pg-num N");
	if (o->pgp_num < 0)
		o->pgp_num = o->pg_num;
	if (o->balancer_opt && want_name != 2)
		return cli_err(ctx, "--upmap-* options are for osdmap upmap");
	if (o->pgp_num > o->pg_num) /* as the monitor refuses it */
		return cli_err(ctx, "--pgp-num %d is more than --pg-num %d",
			       o->pgp_num, o->pg_num);
	return 0;
}

void om_free(struct om *om)
{
	if (om->m)
		pl_map_destroy(om->m);
	free(om->exists);
	free(om->osd_weight);
	free(om->crush_w);
	free(om->work);
	free(om->out);
	om_overrides_free(om->ov);
}

/* CrushWrapper::get_item_weight for every device: the weight in the first
 * bucket (lowest index, then position) holding it, or -ENOENT. */
static void first_weights(const pl_map *m, int32_t *w, int n)
{
	int maxb = pl_map_max_buckets(m);

	for (int i = 0; i < n; i++)
		w[i] = -ENOENT;
	for (int b = 0; b < maxb; b++) {
		int id = -1 - b, size;

		if (!pl_map_bucket_exists(m, id))
			continue;
		size = pl_map_bucket_size(m, id);
		for (int p = 0; p < size; p++) {
			int it = pl_map_bucket_item(m, id, p);

			if (it >= 0 && it < n && w[it] == -ENOENT)
				w[it] = (int32_t)pl_map_bucket_item_weight(m, id,
									   p);
		}
	}
}

int om_load(struct cli_ctx *ctx, const struct om_opts *o, struct om *om)
{
	char err[512] = "";
	int r, n;
	size_t cnt;

	memset(om, 0, sizeof(*om));
	om->size = o->size;
	r = pl_parse_file(o->crush, &om->m, err, sizeof(err));
	if (r < 0 || !om->m) {
		om->m = NULL;
		fflush(stdout);
		if (err[0])
			fprintf(stderr, "%s\n", err);
		else
			cli_err(ctx, "%s: %s", o->crush,
				strerror(r < 0 ? -r : EINVAL));
		return 1;
	}
	n = om->max_osd = pl_map_max_devices(om->m);
	cnt = n > 0 ? (size_t)n : 1;
	om->exists = calloc(cnt, 1);
	om->osd_weight = calloc(cnt, sizeof(*om->osd_weight));
	om->crush_w = calloc(cnt, sizeof(*om->crush_w));
	/* a pg_temp may be longer than the pool */
	om->outcap = o->size > PL_MAX_UP_ACTING ? o->size : PL_MAX_UP_ACTING;
	om->out = calloc((size_t)om->outcap, sizeof(*om->out));
	if (!om->exists || !om->osd_weight || !om->crush_w || !om->out)
		return cli_err(ctx, "out of memory");

	first_weights(om->m, om->crush_w, n);
	for (int i = 0; i < n; i++) {
		om->exists[i] = om->crush_w[i] != -ENOENT ||
				pl_map_device_declared(om->m, i);
		om->osd_weight[i] = 0x10000; /* --mark-up-in: IN */
	}
	/* --mark-up-in: crush weight 0 -> 1.0 (osdmaptool.cc). */
	for (int i = 0; i < n; i++) {
		if (om->crush_w[i] != 0)
			continue;
		r = pl_map_adjust_item_weight(om->m, i, 0x10000);
		if (r == -ENOTSUP)
			return cli_err(ctx, "osd.%d has crush weight 0, which "
					    "--mark-up-in sets to 1.0, and the "
					    "map's choose_args cannot follow "
					    "that change yet", i);
		if (r < 0)
			return cli_err(ctx, "osd.%d: cannot set crush weight "
					    "1.0: %s", i, strerror(-r));
	}
	first_weights(om->m, om->crush_w, n);

	/* CrushWrapper::find_rule(crush_rule 0, replicated, size) */
	om->rule = -1;
	if (pl_map_rule_exists(om->m, 0) &&
	    pl_map_rule_type(om->m, 0) == PL_RULE_TYPE_REPLICATED &&
	    pl_map_rule_min_size(om->m, 0) <= o->size &&
	    pl_map_rule_max_size(om->m, 0) >= o->size)
		om->rule = 0;

	{
		size_t n = pl_work_size(om->m, o->size); /* parsed: finalized */

		om->work = n ? malloc(n) : NULL;
		if (!om->work || pl_work_init(om->m, om->work, o->size))
			return cli_err(ctx, "out of memory");
	}
	if (o->overrides &&
	    om_overrides_load(ctx, o->overrides, o->pool, (uint32_t)o->pg_num,
			      om->max_osd, &om->ov))
		return 1;
	return 0;
}

/*
 * pg (ps already within pg_num) -> acting set in om->out; returns its
 * length and the acting primary in *primary (-1 if none).  OSDMap::
 * _pg_to_up_acting_osds with every OSD up and in (--mark-up-in).
 */
int om_pg_to_acting(struct om *om, int64_t pool, uint32_t ps,
		    uint32_t pgp_num, int *primary)
{
	uint32_t pps = pl_pg_pps(ps, pgp_num, pool);
	struct pl_osd_view v = { om->max_osd, om->exists, om->exists,
				 om->osd_weight,
				 om_overrides_affinity(om->ov) };
	struct pl_pg_overrides o;
	struct pl_up_acting ua;
	int n = 0;

	if (om->rule >= 0)
		/* OSDMap::_pg_to_raw_osds: the pool's choose_args, else
		 * the default set */
		n = pl_do_rule_args(om->m, om->rule, (int)pps, om->out,
				    om->size, om->osd_weight, om->max_osd,
				    om->work, pl_map_choose_args_for(om->m, pool));
	om_overrides_pg(om->ov, ps, &o);
	pl_pg_up_acting(&v, 1, pps, om->out, n, &o, &ua);
	n = ua.nacting < om->outcap ? ua.nacting : om->outcap;
	memcpy(om->out, ua.acting, sizeof(int) * (size_t)n);
	*primary = ua.acting_primary;
	return n;
}

int cmd_osdmap_test_map_object(struct cli_ctx *ctx, int argc, char **argv)
{
	struct om_opts o;
	struct om om;
	uint32_t ps;
	int n, primary, r = om_parse_opts(ctx, argc, argv, 1, &o);

	if (r)
		return r == 2 ? 0 : 1;
	if (om_load(ctx, &o, &om)) {
		om_free(&om);
		return 1;
	}
	ps = pl_pg_seed(pl_object_ps(o.name, strlen(o.name)),
			(uint32_t)o.pg_num);
	n = om_pg_to_acting(&om, o.pool, ps, (uint32_t)o.pgp_num, &primary);
	printf(" object '%s' -> %" PRId64 ".%x -> ", o.name, o.pool, ps);
	cli_put_int_vec(stdout, om.out, n);
	putchar('\n');
	om_free(&om);
	if (fflush(stdout) || ferror(stdout))
		return cli_err(ctx, "writing output: %s", strerror(errno));
	return 0;
}

int cmd_osdmap_test_map_pgs_dump(struct cli_ctx *ctx, int argc, char **argv)
{
	struct om_opts o;
	struct om om;
	int *count = NULL, *first = NULL, *prim = NULL, *sizes = NULL;
	int max_size = 0, in = 0, min_osd = -1, max_osd = -1, ret = 1;
	uint64_t total = 0, avg;
	double dev = 0, edev;
	size_t cnt;
	int r = om_parse_opts(ctx, argc, argv, 0, &o);

	if (r)
		return r == 2 ? 0 : 1;
	if (om_load(ctx, &o, &om))
		goto done;
	cnt = om.max_osd > 0 ? (size_t)om.max_osd : 1;
	count = calloc(cnt, sizeof(*count));
	first = calloc(cnt, sizeof(*first));
	prim = calloc(cnt, sizeof(*prim));
	/* a pg_temp or pg_upmap may be longer than the pool */
	sizes = calloc((size_t)om.outcap + 1, sizeof(*sizes));
	if (!count || !first || !prim || !sizes) {
		cli_err(ctx, "out of memory");
		goto done;
	}

	printf("marking all OSDs up and in\n"); /* osdmaptool's banner */
	printf("pool %" PRId64 " pg_num %d\n", o.pool, o.pg_num);
	for (uint32_t ps = 0; ps < (uint32_t)o.pg_num; ps++) {
		int primary, n = om_pg_to_acting(&om, o.pool, ps,
						 (uint32_t)o.pgp_num, &primary);

		sizes[n]++;
		if (n > max_size)
			max_size = n;
		printf("%" PRId64 ".%x\t", o.pool, ps);
		cli_put_int_vec(stdout, om.out, n);
		printf("\t%d\n", primary);
		for (int i = 0; i < n; i++)
			count[om.out[i]]++;
		if (n)
			first[om.out[0]]++;
		if (primary >= 0 && primary < om.max_osd) /* primary_temp */
			prim[primary]++;
	}

	printf("#osd\tcount\tfirst\tprimary\tc wt\twt\n");
	for (int i = 0; i < om.max_osd; i++) {
		if (!om.exists[i] || om.crush_w[i] <= 0)
			continue;
		in++;
		printf("osd.%d\t%d\t%d\t%d\t", i, count[i], first[i], prim[i]);
		cli_put_double(stdout, (float)om.crush_w[i] / (float)0x10000);
		putchar('\t');
		cli_put_double(stdout, (float)om.osd_weight[i] / (float)0x10000);
		putchar('\n');
		total += (uint64_t)count[i];
		if (count[i] && (min_osd < 0 || count[i] < count[min_osd]))
			min_osd = i;
		if (count[i] && (max_osd < 0 || count[i] > count[max_osd]))
			max_osd = i;
	}
	avg = in ? total / (uint64_t)in : 0;
	for (int i = 0; i < om.max_osd; i++) {
		uint64_t d;

		if (!om.exists[i] || om.crush_w[i] <= 0)
			continue;
		d = avg - (uint64_t)(int64_t)count[i]; /* uint64, as Ceph */
		dev += (double)(d * d);
	}
	dev /= in;
	dev = sqrt(dev);
	edev = sqrt((double)total / (double)in * (1.0 - (1.0 / (double)in)));
	printf(" in %d\n", in);
	printf(" avg %" PRIu64 " stddev ", avg);
	cli_put_double(stdout, dev);
	printf(" (");
	cli_put_double(stdout, dev / (double)avg);
	printf("x) (expected ");
	cli_put_double(stdout, edev);
	putchar(' ');
	cli_put_double(stdout, edev / (double)avg);
	printf("x))\n");
	if (min_osd >= 0)
		printf(" min osd.%d %d\n", min_osd, count[min_osd]);
	if (max_osd >= 0)
		printf(" max osd.%d %d\n", max_osd, count[max_osd]);
	for (int i = 0; i <= max_size; i++)
		if (sizes[i])
			printf("size %d\t%d\n", i, sizes[i]);
	ret = 0;
	if (fflush(stdout) || ferror(stdout))
		ret = cli_err(ctx, "writing output: %s", strerror(errno));
done:
	free(count);
	free(first);
	free(prim);
	free(sizes);
	om_free(&om);
	return ret;
}
