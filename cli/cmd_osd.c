/*
 * cmd_osd.c - `osd map` and the commands that change the osdmap (each one
 * epoch): out/in/down/up, reweight, crush reweight, primary-affinity,
 * set-capacity, add, and the ratios and full policy.  Text as Ceph 16.2
 * prints it (OSDMonitor messages).  `osd df` and `osd tree`: cmd_osd_df.c.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cluster.h"
#include "cluster_cmds.h"
#include "objlayer.h"
#include "osdmap.h"
#include "placement.h"
#include "usage.h"
#include "util.h"

static double w16(uint32_t w)
{
	return (double)((float)w / (float)0x10000);
}

/* ---- osd map ---- */

static json_t *int_array(const int *v, int n)
{
	json_t *a = json_array();

	for (int i = 0; i < n; i++)
		json_array_append_new(a, json_integer(v[i]));
	return a;
}

static void put_vec(FILE *f, const int *v, int n)
{
	fputc('[', f);
	for (int i = 0; i < n; i++)
		fprintf(f, "%s%d", i ? "," : "", v[i]);
	fputc(']', f);
}

int ccmd_osd_map(struct cmd_ctx *ctx, int argc, char **argv)
{
	const cfs_osdmap *m;
	const struct cfs_pool_info *p;
	const struct cfs_pg_mapping *pg;
	uint32_t raw, ps;

	if (cc_nargs(ctx, argc, argv, argc == 2 ? 2 : 1))
		return 1;
	m = cfs_osdmap_get(ctx->cluster);
	p = cfs_osdmap_pool(m);
	if (argc == 2) {
		/* `ceph osd map POOL OBJECT`; one argument: the data pool */
		char *end;
		long long id = strtoll(argv[0], &end, 10);

		p = cfs_osdmap_pool_by_name(m, argv[0]);
		if (!p && *argv[0] && !*end)
			p = cfs_osdmap_pool_by_id(m, id);
		if (!p) {
			cfs_osdmap_put(m);
			return cc_err(ctx, "pool %s does not exist", argv[0]);
		}
		argv++;
	}
	if (!*argv[0]) {
		cfs_osdmap_put(m);
		return cc_err(ctx, "empty object name");
	}
	/* object_locator_to_pg: the name's hash, stable_mod by the pool's
	 * pg_num */
	raw = pl_object_ps(argv[0], strlen(argv[0]));
	ps = pl_pg_seed(raw, p->pg_num);
	pg = cfs_osdmap_pool_pg(m, p->id, ps);
	if (!pg) {
		cfs_osdmap_put(m);
		return cc_err(ctx, "pool %s has no map for pg %lld.%x",
			      p->name, (long long)p->id, ps);
	}
	if (ctx->json) {
		char rawid[32], pgid[32];

		snprintf(rawid, sizeof(rawid), "%lld.%x", (long long)p->id,
			 raw);
		snprintf(pgid, sizeof(pgid), "%lld.%x", (long long)p->id, ps);
		cc_json_out(ctx,
			    json_pack("{s:i, s:s, s:I, s:s, s:s, s:s, s:o, "
				      "s:i, s:o, s:i}",
				      "epoch", (int)cfs_osdmap_epoch(m), "pool",
				      p->name, "pool_id", (json_int_t)p->id,
				      "objname", argv[0], "raw_pgid", rawid,
				      "pgid", pgid, "up",
				      int_array(pg->up, pg->nup), "up_primary",
				      pg->up_primary, "acting",
				      int_array(pg->acting, pg->nacting),
				      "acting_primary", pg->acting_primary));
	} else {
		/* OSDMonitor "osd map": the raw pg is the full hash */
		fprintf(ctx->out,
			"osdmap e%u pool '%s' (%lld) object '%s' -> pg "
			"%lld.%x (%lld.%x) -> up (",
			cfs_osdmap_epoch(m), p->name, (long long)p->id, argv[0],
			(long long)p->id, raw, (long long)p->id, ps);
		put_vec(ctx->out, pg->up, pg->nup);
		fprintf(ctx->out, ", p%d) acting (", pg->up_primary);
		put_vec(ctx->out, pg->acting, pg->nacting);
		fprintf(ctx->out, ", p%d)\n", pg->acting_primary);
	}
	cfs_osdmap_put(m);
	return 0;
}

/* ---- changes ---- */

int cc_done_epoch(struct cmd_ctx *ctx, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	const cfs_osdmap *m = cfs_osdmap_get(ctx->cluster);
	uint32_t e = cfs_osdmap_epoch(m);

	cfs_osdmap_put(m);
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (ctx->json)
		return cc_json_out(ctx, json_pack("{s:i, s:s}", "epoch", (int)e,
						  "message", msg));
	fprintf(ctx->out, "%s\n", msg);
	return 0;
}

static int change_failed(struct cmd_ctx *ctx, int r)
{
	return cc_err(ctx, "cannot change the osdmap: %s", cfs_strerror(r));
}

enum mark { MARK_OUT, MARK_IN, MARK_DOWN, MARK_UP };

static int mark(struct cmd_ctx *ctx, int argc, char **argv, enum mark what)
{
	static const char *const word[] = { "out", "in", "down", "up" };
	const cfs_osdmap *m;
	struct cfs_osd_info oi;
	int id, r, already;

	if (cc_nargs(ctx, argc, argv, 1) || cc_osd_arg(ctx, argv[0], &id))
		return 1;
	m = cfs_osdmap_get(ctx->cluster);
	cfs_osdmap_osd(m, id, &oi);
	cfs_osdmap_put(m);
	switch (what) {
	case MARK_OUT:
		already = oi.reweight == 0;
		break;
	case MARK_IN:
		already = oi.reweight == CFS_WEIGHT_ONE;
		break;
	case MARK_DOWN:
		already = !oi.up;
		break;
	default:
		already = oi.up;
		break;
	}
	if (already)
		return cc_done_epoch(ctx, "osd.%d is already %s.", id,
				  word[what]);
	switch (what) {
	case MARK_OUT:
		r = cfs_osd_mark_out(ctx->cluster, id);
		break;
	case MARK_IN:
		r = cfs_osd_mark_in(ctx->cluster, id);
		break;
	case MARK_DOWN:
		r = cfs_osd_mark_down(ctx->cluster, id);
		break;
	default:
		r = cfs_osd_mark_up(ctx->cluster, id);
		break;
	}
	/* the boot is ignored under noup; can_mark_up's words (Ceph 16.2) */
	if (r == -EBUSY && what == MARK_UP)
		return cc_err(ctx, "osd.%d is marked as noup, will not mark it "
			      "up", id);
	if (r)
		return change_failed(ctx, r);
	return cc_done_epoch(ctx, "marked %s osd.%d.", word[what], id);
}

int ccmd_osd_out(struct cmd_ctx *ctx, int argc, char **argv)
{
	return mark(ctx, argc, argv, MARK_OUT);
}

int ccmd_osd_in(struct cmd_ctx *ctx, int argc, char **argv)
{
	return mark(ctx, argc, argv, MARK_IN);
}

int ccmd_osd_down(struct cmd_ctx *ctx, int argc, char **argv)
{
	return mark(ctx, argc, argv, MARK_DOWN);
}

int ccmd_osd_up(struct cmd_ctx *ctx, int argc, char **argv)
{
	return mark(ctx, argc, argv, MARK_UP);
}

int ccmd_osd_reweight(struct cmd_ctx *ctx, int argc, char **argv)
{
	double w;
	uint32_t ww;
	int id, r;

	if (cc_nargs(ctx, argc, argv, 2) || cc_osd_arg(ctx, argv[0], &id) ||
	    cc_double_arg(ctx, "weight", argv[1], 0.0, 1.0, &w))
		return 1;
	/* OSDMonitor: ww = (int)((float)w * CEPH_OSD_IN) */
	ww = (uint32_t)((float)w * (float)CFS_WEIGHT_ONE);
	r = cfs_osd_reweight(ctx->cluster, id, ww);
	if (r)
		return change_failed(ctx, r);
	return cc_done_epoch(ctx, "reweighted osd.%d to %g (%x)", id, w, ww);
}

int ccmd_osd_primary_affinity(struct cmd_ctx *ctx, int argc, char **argv)
{
	double w;
	uint32_t ww;
	int id, r;

	if (cc_nargs(ctx, argc, argv, 2) || cc_osd_arg(ctx, argv[0], &id) ||
	    cc_double_arg(ctx, "weight", argv[1], 0.0, 1.0, &w))
		return 1;
	ww = (uint32_t)((float)w * (float)CFS_WEIGHT_ONE);
	r = cfs_osd_primary_affinity(ctx->cluster, id, ww);
	if (r)
		return change_failed(ctx, r);
	return cc_done_epoch(ctx, "set osd.%d primary-affinity to %g (%x)", id,
			  w, ww);
}

int ccmd_osd_crush_reweight(struct cmd_ctx *ctx, int argc, char **argv)
{
	double w;
	uint32_t ww;
	int id, r;

	if (cc_nargs(ctx, argc, argv, 2) || cc_osd_arg(ctx, argv[0], &id) ||
	    cc_double_arg(ctx, "weight", argv[1], 0.0,
			  (double)CFS_MAX_DEVICE_WEIGHT / CFS_WEIGHT_ONE, &w))
		return 1; /* the map is kept as crushtool text: <= 100 */
	/* CrushWrapper: (int)(weight * (float)0x10000) */
	ww = (uint32_t)((float)w * (float)0x10000);
	r = cfs_osd_crush_reweight(ctx->cluster, id, ww);
	if (r == -ENXIO)
		return cc_err(ctx, "osd.%d is not in the crush map", id);
	if (r)
		return change_failed(ctx, r);
	return cc_done_epoch(ctx,
			  "reweighted item id %d name 'osd.%d' to %g in crush "
			  "map",
			  id, id, w);
}

int ccmd_osd_set_capacity(struct cmd_ctx *ctx, int argc, char **argv)
{
	uint64_t sz;
	char buf[32];
	int id, r;

	if (cc_nargs(ctx, argc, argv, 2) || cc_osd_arg(ctx, argv[0], &id) ||
	    cc_size_arg(ctx, "size", argv[1], &sz))
		return 1;
	if (sz > (1ULL << 60))
		return cc_err(ctx, "size: '%s' is too large (max 1 EiB)",
			      argv[1]);
	r = cfs_osd_set_capacity(ctx->cluster, id, sz);
	if (r)
		return change_failed(ctx, r);
	return cc_done_epoch(ctx, "set osd.%d capacity to %s", id,
			  cfs_format_size(sz, buf, sizeof(buf)));
}

int ccmd_osd_add(struct cmd_ctx *ctx, int argc, char **argv)
{
	const char *host = NULL;
	uint64_t size = 0;
	char buf[32], wb[32];
	uint32_t w;
	int id, r;

	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--host") && i + 1 < argc) {
			host = argv[++i];
		} else if (!strncmp(argv[i], "--host=", 7)) {
			host = argv[i] + 7;
		} else if (!strcmp(argv[i], "--size") && i + 1 < argc) {
			if (cc_size_arg(ctx, "--size", argv[++i], &size))
				return 1;
		} else if (!strncmp(argv[i], "--size=", 7)) {
			if (cc_size_arg(ctx, "--size", argv[i] + 7, &size))
				return 1;
		} else if (!strcmp(argv[i], "--host") ||
			   !strcmp(argv[i], "--size")) {
			return cc_usage(ctx, "%s: missing value", argv[i]);
		} else {
			return cc_usage(ctx, "unexpected argument '%s'",
					argv[i]);
		}
	}
	if (!host)
		return cc_usage(ctx, "--host is required");
	if (!*host || strlen(host) > 60 || strchr(host, ' '))
		return cc_err(ctx, "--host: '%s' is not a bucket name", host);
	if (size == 0) {
		/* like the other OSDs: the capacity of osd 0 or 1 GiB */
		const cfs_osdmap *m = cfs_osdmap_get(ctx->cluster);
		struct cfs_osd_info oi;

		size = 1ULL << 30;
		for (int k = 0; k < cfs_osdmap_max_osd(m); k++)
			if (!cfs_osdmap_osd(m, k, &oi)) {
				size = oi.capacity;
				break;
			}
		cfs_osdmap_put(m);
	}
	if (size == 0 || size > (1ULL << 60))
		return cc_err(ctx, "--size: out of range");
	if (cfs_size_crush_weight(size, &w))
		return cc_err(ctx,
			      "--size %s: its crush weight (the size in TiB) "
			      "would be over 100, the most a crush map allows; "
			      "weights are relative: add it with --size 100T "
			      "or less, then 'osd set-capacity'",
			      cfs_format_size(size, buf, sizeof(buf)));
	r = cfs_osd_add(ctx->cluster, host, size, &id);
	if (r == -ENOTDIR)
		return cc_err(ctx, "--host: '%s' names a device, not a bucket",
			      host);
	if (r == -ENOENT)
		return cc_err(ctx, "the crush map has no root to add '%s' to",
			      host);
	if (r == -EEXIST)
		return cc_err(ctx,
			      "%s/osd.N: a folder with objects is in the way",
			      cfs_cluster_dir(ctx->cluster));
	if (r)
		return change_failed(ctx, r);
	{
		const cfs_osdmap *m = cfs_osdmap_get(ctx->cluster);
		struct cfs_osd_info oi;

		cfs_osdmap_osd(m, id, &oi);
		cfs_osdmap_put(m);
		cc_weightf(wb, sizeof(wb), w16(oi.crush_weight));
	}
	return cc_done_epoch(ctx, "added osd.%d on host %s (capacity %s, crush "
			       "weight %s)",
			  id, host, cfs_format_size(size, buf, sizeof(buf)),
			  wb);
}

static int ratio_cmd(struct cmd_ctx *ctx, int argc, char **argv,
		     int (*set)(cfs_cluster *, double), const char *name)
{
	double v;
	int r;

	if (cc_nargs(ctx, argc, argv, 1) ||
	    cc_double_arg(ctx, "ratio", argv[0], 0.0, 1.0, &v))
		return 1;
	if (v <= 0)
		return cc_err(ctx, "ratio: must be more than 0");
	r = set(ctx->cluster, v);
	if (r)
		return change_failed(ctx, r);
	return cc_done_epoch(ctx, "%s is now %g", name, v);
}

int ccmd_set_full_ratio(struct cmd_ctx *ctx, int argc, char **argv)
{
	return ratio_cmd(ctx, argc, argv, cfs_set_full_ratio, "full_ratio");
}

int ccmd_set_backfillfull_ratio(struct cmd_ctx *ctx, int argc, char **argv)
{
	return ratio_cmd(ctx, argc, argv, cfs_set_backfillfull_ratio,
			 "backfillfull_ratio");
}

int ccmd_set_nearfull_ratio(struct cmd_ctx *ctx, int argc, char **argv)
{
	return ratio_cmd(ctx, argc, argv, cfs_set_nearfull_ratio,
			 "nearfull_ratio");
}

int ccmd_set_full_policy(struct cmd_ctx *ctx, int argc, char **argv)
{
	int p, r;

	if (cc_nargs(ctx, argc, argv, 1))
		return 1;
	if (!strcmp(argv[0], "osd"))
		p = CFS_FULL_OSD;
	else if (!strcmp(argv[0], "pool"))
		p = CFS_FULL_POOL;
	else
		return cc_err(ctx, "'%s' is not a policy (osd or pool)",
			      argv[0]);
	r = cfs_set_full_policy(ctx->cluster, p);
	if (r)
		return change_failed(ctx, r);
	return cc_done_epoch(ctx, "full policy is now %s", argv[0]);
}
