/*
 * cmd_pgmap.c - `pg map PGID`: where a PG is, as Ceph 16.2's monitor
 * answers it (OSDMonitor::preprocess_command "pg map"): a raw pgid past
 * pg_num folds onto its PG (OSDMap::raw_pg_to_pg), and an empty slot of
 * an erasure-coded PG stays 2147483647 (CRUSH_ITEM_NONE), as Ceph prints
 * its vectors.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli.h"
#include "cluster_cmds.h"
#include "osdmap.h"
#include "placement.h"

/* pg_t::parse: "POOL.PS", the pool decimal, the seed hex */
static int parse_pgid(const char *s, int64_t *pool, uint32_t *ps)
{
	char *end;
	long long id;
	unsigned long v;

	if (!(*s >= '0' && *s <= '9'))
		return -EINVAL;
	errno = 0;
	id = strtoll(s, &end, 10);
	if (errno || *end != '.' || !((end[1] >= '0' && end[1] <= '9') ||
				      (end[1] >= 'a' && end[1] <= 'f') ||
				      (end[1] >= 'A' && end[1] <= 'F')))
		return -EINVAL;
	v = strtoul(end + 1, &end, 16);
	if (errno || *end || v > 0xffffffffUL)
		return -EINVAL;
	*pool = id;
	*ps = (uint32_t)v;
	return 0;
}

static json_t *osd_array(const int *v, int n)
{
	json_t *a = json_array();

	for (int i = 0; i < n; i++)
		json_array_append_new(a, json_integer(v[i]));
	return a;
}

int ccmd_pg_map(struct cmd_ctx *ctx, int argc, char **argv)
{
	const cfs_osdmap *m;
	const struct cfs_pool_info *p;
	const struct cfs_pg_mapping *g;
	int64_t pool;
	uint32_t ps, mps;
	char raw[48], pg[48];

	if (cc_nargs(ctx, argc, argv, 1))
		return 1;
	if (parse_pgid(argv[0], &pool, &ps))
		return cc_err(ctx, "invalid pgid '%s'", argv[0]);
	m = cfs_osdmap_get(ctx->cluster);
	p = cfs_osdmap_pool_by_id(m, pool);
	if (!p) {
		cfs_osdmap_put(m);
		return cc_err(ctx, "pg '%s' does not exist", argv[0]);
	}
	mps = pl_stable_mod(ps, p->pg_num, pl_pg_mask(p->pg_num));
	g = cfs_osdmap_pool_pg(m, pool, mps);
	if (!g) {
		cfs_osdmap_put(m);
		return cc_err(ctx, "pg '%s' does not exist", argv[0]);
	}
	snprintf(raw, sizeof(raw), "%lld.%x", (long long)pool, ps);
	snprintf(pg, sizeof(pg), "%lld.%x", (long long)pool, mps);
	if (ctx->json) {
		json_t *o = json_pack("{s:I, s:s, s:s, s:o, s:o}", "epoch",
				      (json_int_t)cfs_osdmap_epoch(m),
				      "raw_pgid", raw, "pgid", pg, "up",
				      osd_array(g->up, g->nup), "acting",
				      osd_array(g->acting, g->nacting));

		cfs_osdmap_put(m);
		return cc_json_out(ctx, o);
	}
	fprintf(ctx->out, "osdmap e%u pg %s (%s) -> up ", cfs_osdmap_epoch(m),
		raw, pg);
	cli_put_int_vec(ctx->out, g->up, g->nup);
	fputs(" acting ", ctx->out);
	cli_put_int_vec(ctx->out, g->acting, g->nacting);
	fputc('\n', ctx->out);
	cfs_osdmap_put(m);
	return 0;
}
