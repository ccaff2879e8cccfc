/*
 * cmd_upmap.c - `osd pg-upmap`, `osd pg-upmap-items` and their rm- forms,
 * spelled, checked and answered as Ceph 16.2's monitor does
 * (OSDMonitor::prepare_command_impl); the data moves with `rebalance`.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster_cmds.h"
#include "osdmap.h"
#include "placement.h"
#include "upmap.h"
#include "util.h"

/* "2.1f": a PG of any pool */
static int pgid_arg(struct cmd_ctx *ctx, const char *s, int64_t *pool,
		    uint32_t *ps)
{
	const cfs_osdmap *m = cfs_osdmap_get(ctx->cluster);
	const struct cfs_pool_info *p = NULL;
	char *end;
	long long id = strtoll(s, &end, 10);
	unsigned long v = 0;
	int bad = end == s || *end != '.';

	if (!bad) {
		const char *h = end + 1;

		v = strtoul(h, &end, 16);
		bad = end == h || *end;
	}
	if (!bad)
		p = cfs_osdmap_pool_by_id(m, id);
	*pool = id;
	*ps = (uint32_t)v;
	bad = bad ? 1 : (!p || v >= p->pg_num) ? 2 : 0;
	cfs_osdmap_put(m);
	if (bad == 2)
		return cc_err(ctx, "pg %s does not exist", s);
	if (bad)
		return cc_usage(ctx, "invalid pgid '%s' (expected e.g. 1.1f)",
				s);
	return 0;
}

static const struct cfs_pg_upmap *entry(const cfs_osdmap *m, int64_t pool,
					uint32_t ps)
{
	int n;
	const struct cfs_pg_upmap *u = cfs_pool_upmaps(m, pool, &n);

	for (int i = 0; i < n; i++)
		if (u[i].ps == ps)
			return &u[i];
	return NULL;
}

/* an OSD id as Ceph's int64 argument: "3" or "osd.3" */
static int id_arg(struct cmd_ctx *ctx, const char *s, int *id)
{
	const char *d = strncmp(s, "osd.", 4) ? s : s + 4;
	char *end;
	long v;

	errno = 0;
	v = strtol(d, &end, 10);
	if (!*d || *end || errno || v < INT_MIN || v > INT_MAX)
		return cc_usage(ctx, "unable to parse osd id '%s'", s);
	*id = (int)v;
	return 0;
}

static int report(struct cmd_ctx *ctx, int r, const char *why)
{
	if (r == -EINVAL || r == -ENOENT)
		return cc_err(ctx, "%s", why);
	if (r)
		return cc_err(ctx, "cannot change the osdmap: %s",
			      cfs_strerror(r));
	return cc_done_epoch(ctx, "%s", why);
}

static int set_cmd(struct cmd_ctx *ctx, int argc, char **argv, int items)
{
	int ids[2 * CFS_MAX_REP + 2], n = argc - 1, r;
	char why[256] = "";
	int64_t pool;
	uint32_t ps;

	if (argc < 2)
		return cc_usage(ctx, "need a pgid and osd ids");
	if (pgid_arg(ctx, argv[0], &pool, &ps))
		return 1;
	if (items && n % 2)
		return cc_err(ctx, "you must specify pairs of osd ids to be "
			      "remapped");
	if (n > (int)(sizeof(ids) / sizeof(ids[0])))
		return cc_err(ctx, "num of osds (%d) > pool size", n);
	for (int i = 0; i < n; i++)
		if (id_arg(ctx, argv[i + 1], &ids[i]))
			return 1;
	r = items ? cfs_osd_pg_upmap_items(ctx->cluster, pool, ps, ids, n / 2,
					   why, sizeof(why)) :
		    cfs_osd_pg_upmap(ctx->cluster, pool, ps, ids, n, why,
				     sizeof(why));
	if (!r) {
		/* the new epoch's clean-up (OSDMap::clean_pg_upmaps) may have
		 * dropped it at once, as Ceph's monitor would: say so */
		const cfs_osdmap *m = cfs_osdmap_get(ctx->cluster);
		const struct cfs_pg_upmap *u = entry(m, pool, ps);

		if (!u || !(items ? u->nitems : u->n)) {
			size_t l = strlen(why);

			snprintf(why + l, sizeof(why) - l,
				 " (then cleaned away: %s)",
				 items ? "no pair applies, or the crush rule "
					 "would not give that set" :
					 "the set is the crush one, not the "
					 "pool's size, or one the crush rule "
					 "would not give");
		}
		cfs_osdmap_put(m);
	}
	return report(ctx, r, why);
}

static int rm_cmd(struct cmd_ctx *ctx, int argc, char **argv, int items)
{
	char why[256] = "";
	int64_t pool;
	uint32_t ps;
	int r;

	if (cc_nargs(ctx, argc, argv, 1) ||
	    pgid_arg(ctx, argv[0], &pool, &ps))
		return 1;
	r = items ? cfs_osd_pg_upmap_items(ctx->cluster, pool, ps, NULL, 0,
					   why, sizeof(why)) :
		    cfs_osd_pg_upmap(ctx->cluster, pool, ps, NULL, 0, why,
				     sizeof(why));
	/* Ceph answers the same whether or not there was an entry */
	if (r == -ENODATA)
		r = 0;
	snprintf(why, sizeof(why), "clear %s %s mapping", argv[0],
		 items ? "pg_upmap_items" : "pg_upmap");
	return report(ctx, r, why);
}

int ccmd_osd_pg_upmap(struct cmd_ctx *ctx, int argc, char **argv)
{
	return set_cmd(ctx, argc, argv, 0);
}

int ccmd_osd_pg_upmap_items(struct cmd_ctx *ctx, int argc, char **argv)
{
	return set_cmd(ctx, argc, argv, 1);
}

int ccmd_osd_rm_pg_upmap(struct cmd_ctx *ctx, int argc, char **argv)
{
	return rm_cmd(ctx, argc, argv, 0);
}

int ccmd_osd_rm_pg_upmap_items(struct cmd_ctx *ctx, int argc, char **argv)
{
	return rm_cmd(ctx, argc, argv, 1);
}

/* `osd setcrushmap -i FILE`: a new crush map (text or binary), as Ceph's
 * `ceph osd setcrushmap -i`; with --dry-run, what it would move. */
int ccmd_osd_setcrushmap(struct cmd_ctx *ctx, int argc, char **argv)
{
	const char *file = NULL;
	char err[1024] = "", why[256] = "";
	pl_map *m = NULL;
	int r;

	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "-i") && i + 1 < argc)
			file = argv[++i];
		else
			return cc_usage(ctx, "unexpected argument '%s'", argv[i]);
	}
	if (!file)
		return cc_usage(ctx, "missing -i FILE");
	r = pl_parse_file(file, &m, err, sizeof(err));
	if (r || !m)
		return cc_err(ctx, "%s", err[0] ? err : cfs_strerror(r));
	r = cfs_osd_setcrushmap(ctx->cluster, m, why, sizeof(why));
	if (r == -EINVAL && why[0])
		return cc_err(ctx, "%s", why);
	if (r == -ENOTSUP)
		return cc_err(ctx, "cannot change the osdmap: %s",
			      cfs_strerror(r));
	if (r)
		return cc_err(ctx, "cannot change the osdmap: %s",
			      cfs_strerror(r));
	return cc_done_epoch(ctx, "set crush map");
}
