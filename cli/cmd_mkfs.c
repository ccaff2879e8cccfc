/*
 * cmd_mkfs.c - `crushfs --cluster DIR mkfs [...]`: create a cluster.
 */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "cli.h"
#include "cluster.h"
#include "cluster_cmds.h"
#include "fs.h"
#include "osdmap.h"
#include "util.h"

static int size_opt(struct cli_ctx *ctx, const char *opt, const char *v,
		    uint64_t max, uint64_t *out)
{
	int r = cfs_parse_size(v, out);

	if (r)
		return cli_err(ctx,
			       "%s: '%s' is not a size (expected e.g. 512M, "
			       "1.5G, 100K, 4096)",
			       opt, v);
	if (*out == 0 || *out > max)
		return cli_err(ctx, "%s: '%s' is out of range", opt, v);
	return 0;
}

int cmd_mkfs(struct cli_ctx *ctx, int argc, char **argv)
{
	return cc_mkfs(ctx, argc, argv, NULL);
}

int cc_mkfs(struct cli_ctx *ctx, int argc, char **argv, const char *source)
{
	struct cfs_mkfs_opts o;
	char err[1024] = "", warn[2048] = "";
	const char *made = NULL; /* an option that makes a cluster */
	const char *ceph_conf = NULL, *rados_pool = NULL, *rados_id = NULL;
	char snap[64] = "", *backend = NULL;
	int rados = 0;
	uint64_t sz;
	int r;

	cfs_mkfs_opts_init(&o);
	o.warnings = warn;
	o.warnlen = sizeof(warn);
	for (int i = 0; i < argc; i++) {
		const char *v;
		int64_t x;
		static const char *const making[] = {
			"--osds",    "--hosts",	    "--pg-num",	   "--pgp-num",
			"--size",    "--min-size",  "--crush-map", "--crush-rule",
			"--pool-name"
		};

		for (size_t k = 0; k < sizeof(making) / sizeof(*making); k++)
			if (!strncmp(argv[i], making[k], strlen(making[k])) &&
			    (argv[i][strlen(making[k])] == 0 ||
			     argv[i][strlen(making[k])] == '='))
				made = making[k];

		if ((r = cli_opt(ctx, argc, argv, &i, "--osds", &v))) {
			if (r < 0 || cli_parse_int(ctx, "--osds", v, 1,
						   CFS_MAX_OSD, &o.nosds))
				return 1;
		} else if ((r = cli_opt(ctx, argc, argv, &i, "--hosts", &v))) {
			if (r < 0 || cli_parse_int(ctx, "--hosts", v, 1,
						   CFS_MAX_OSD, &o.nhosts))
				return 1;
		} else if ((r = cli_opt(ctx, argc, argv, &i, "--osd-size",
					&v))) {
			if (r < 0 || size_opt(ctx, "--osd-size", v, 1ULL << 60,
					      &o.osd_size))
				return 1;
			o.osd_size_set = 1;
		} else if ((r = cli_opt(ctx, argc, argv, &i, "--pg-num", &v))) {
			if (r < 0 || cli_parse_i64(ctx, "--pg-num", v, 1, 65536,
						   &x))
				return 1;
			o.pg_num = (uint32_t)x;
		} else if ((r = cli_opt(ctx, argc, argv, &i, "--pgp-num",
					&v))) {
			if (r < 0 || cli_parse_i64(ctx, "--pgp-num", v, 1,
						   65536, &x))
				return 1;
			o.pgp_num = (uint32_t)x;
		} else if ((r = cli_opt(ctx, argc, argv, &i, "--size", &v))) {
			if (r < 0 ||
			    cli_parse_int(ctx, "--size", v, 1, 10, &o.size))
				return 1;
		} else if ((r = cli_opt(ctx, argc, argv, &i, "--min-size",
					&v))) {
			if (r < 0 || cli_parse_int(ctx, "--min-size", v, 1, 10,
						   &o.min_size))
				return 1;
		} else if ((r = cli_opt(ctx, argc, argv, &i, "--object-size",
					&v))) {
			/* the layout's bounds are osdsim's (mkfs says) */
			if (r < 0 || size_opt(ctx, "--object-size", v,
					      UINT32_MAX, &sz))
				return 1;
			o.object_size = (uint32_t)sz;
		} else if ((r = cli_opt(ctx, argc, argv, &i, "--stripe-unit",
					&v))) {
			if (r < 0 || size_opt(ctx, "--stripe-unit", v,
					      UINT32_MAX, &sz))
				return 1;
			o.stripe_unit = (uint32_t)sz;
		} else if ((r = cli_opt(ctx, argc, argv, &i, "--stripe-count",
					&v))) {
			if (r < 0 || cli_parse_i64(ctx, "--stripe-count", v, 0,
						   UINT32_MAX, &x))
				return 1;
			o.stripe_count = (uint32_t)x;
		} else if ((r = cli_opt(ctx, argc, argv, &i, "--crush-map",
					&v))) {
			if (r < 0)
				return 1;
			o.crush_map = v;
		} else if ((r = cli_opt(ctx, argc, argv, &i, "--crush-rule",
					&v))) {
			if (r < 0 || cli_parse_int(ctx, "--crush-rule", v, 0,
						   255, &o.crush_rule))
				return 1;
		} else if ((r = cli_opt(ctx, argc, argv, &i, "--full-policy",
					&v))) {
			if (r < 0)
				return 1;
			if (!strcmp(v, "osd"))
				o.full_policy = CFS_FULL_OSD;
			else if (!strcmp(v, "pool"))
				o.full_policy = CFS_FULL_POOL;
			else
				return cli_err(ctx,
					       "--full-policy: '%s' is not osd "
					       "or pool",
					       v);
		} else if ((r = cli_opt(ctx, argc, argv, &i, "--pool-name",
					&v))) {
			if (r < 0)
				return 1;
			o.pool_name = v;
		} else if ((r = cli_opt(ctx, argc, argv, &i, "--from-ceph",
					&v))) {
			if (r < 0)
				return 1;
			o.from_ceph = v;
		} else if ((r = cli_opt(ctx, argc, argv, &i, "--data-pool",
					&v))) {
			if (r < 0)
				return 1;
			o.data_pool = v;
		} else if ((r = cli_opt(ctx, argc, argv, &i, "--backend",
					&v))) {
			if (r < 0)
				return 1;
			if (strcmp(v, "rados") && strcmp(v, "osd"))
				return cli_err(ctx, "--backend: '%s' is not "
						    "osd or rados", v);
			rados = !strcmp(v, "rados");
		} else if ((r = cli_opt(ctx, argc, argv, &i, "--ceph-conf",
					&v))) {
			if (r < 0)
				return 1;
			ceph_conf = v;
		} else if ((r = cli_opt(ctx, argc, argv, &i, "--pool", &v))) {
			if (r < 0)
				return 1;
			rados_pool = v;
		} else if ((r = cli_opt(ctx, argc, argv, &i, "--id", &v))) {
			if (r < 0)
				return 1;
			rados_id = v;
		} else if (cli_flag(argv[i], "--prefill")) {
			o.prefill = 1;
		} else if (cli_flag(argv[i], "--force")) {
			o.force = 1;
		} else {
			r = cli_common_opt(ctx, argc, argv, &i);
			if (r == 2) {
				cli_usage_line(stdout, ctx->entry);
				return 0;
			}
			if (r < 0)
				return 1;
			if (r == 0)
				return cli_err(ctx, "unexpected argument '%s'",
					       argv[i]);
		}
	}
	if (rados || ceph_conf || rados_pool || rados_id) {
		if (!rados || !rados_pool)
			return cli_err(ctx, "the RADOS backend takes --backend "
					    "rados --pool NAME [--ceph-conf "
					    "FILE] [--id CLIENT]");
		if (o.from_ceph)
			return cli_err(ctx, "--from-ceph does not go with "
					    "--backend rados (the pool's "
					    "cluster is imported)");
		r = cc_rados_prepare(ctx, &o, ceph_conf, rados_pool, rados_id,
				     snap, sizeof(snap), &backend);
		if (r)
			return 1;
		source = "the live cluster";
	}
	if (o.from_ceph && made)
		return cli_err(ctx,
			       "%s does not go with --from-ceph (the live "
			       "cluster's own is imported)",
			       made);
	if (!o.from_ceph && (o.data_pool || o.prefill))
		return cli_err(ctx, "%s needs --from-ceph SNAPDIR",
			       o.data_pool ? "--data-pool" : "--prefill");
	r = cfs_mkfs(ctx->cluster, &o, err, sizeof(err));
	if (*snap)
		cfs_rmtree(snap);
	free(backend);
	if (r)
		return cli_err(ctx, "%s", *err ? err : cfs_strerror(r));
	/* the filesystem too: from now on a missing metadata store is a
	 * loss, not a filesystem never mounted (fs.h fs_mkfs) */
	r = fs_mkfs(ctx->cluster, err, sizeof(err));
	if (r)
		return cli_err(ctx, "%s", *err ? err : cfs_strerror(r));

	/* report what was made, from the cluster itself */
	{
		cfs_cluster *c;
		const cfs_osdmap *m;
		const struct cfs_pool_info *p;
		char cap[32], objs[32];
		int nosd = 0;

		r = cfs_cluster_open(ctx->cluster, CFS_OPEN_RDONLY, &c, err,
				     sizeof(err));
		if (r)
			return cli_err(ctx, "%s", err);
		m = cfs_osdmap_get(c);
		p = cfs_osdmap_pool(m);
		for (int id = 0; id < cfs_osdmap_max_osd(m); id++)
			nosd += cfs_osdmap_exists(m, id);
		if (*warn)
			fprintf(stderr, "crushfs: warning: %s: not modelled: "
					"%s\n",
				source ? source : o.from_ceph, warn);
		if (ctx->format == CLI_FMT_JSON) {
			json_t *j = json_pack(
				"{s:s, s:s, s:i, s:i, s:{s:I, s:s, s:i, s:i, "
				"s:I, s:I, s:I, s:s}}",
				"cluster", ctx->cluster, "fsid",
				cfs_osdmap_fsid(m), "epoch",
				(int)cfs_osdmap_epoch(m), "osds", nosd, "pool",
				"id", (json_int_t)p->id, "name", p->name,
				"size", p->size, "min_size", p->min_size,
				"pg_num", (json_int_t)p->pg_num, "pgp_num",
				(json_int_t)p->pgp_num, "object_size",
				(json_int_t)p->object_size, "full_policy",
				cfs_full_policy_name(cfs_osdmap_full_policy(m)));

			if (o.from_ceph) {
				json_object_set_new(j, "imported_from",
						    json_string(source ? source
								       : o.from_ceph));
				json_object_set_new(j, "pools",
						    json_integer(cfs_osdmap_npools(m)));
				json_object_set_new(j, "not_modelled",
						    json_string(warn));
			}
			json_dumpf(j, stdout,
				   JSON_PRESERVE_ORDER |
					   (ctx->pretty ? JSON_INDENT(4) :
							  JSON_COMPACT));
			putchar('\n');
			json_decref(j);
		} else if (o.from_ceph) {
			uint64_t total = 0, pre = 0;
			char a[32], b[32];

			for (int id = 0; id < cfs_osdmap_max_osd(m); id++) {
				struct cfs_osd_info oi;

				if (cfs_osdmap_osd(m, id, &oi))
					continue;
				total += oi.capacity;
				pre += oi.prefill;
			}
			printf("imported cluster %s from %s\n"
			       "  fsid %s, epoch %u\n"
			       "  %d osds (%s raw%s%s%s), %d pools, crush map in "
			       "%s/crushmap.txt\n"
			       "  filesystem data in pool '%s' (%lld): size %d, "
			       "min_size %d, pg_num %u, object size %s, full "
			       "policy %s\n",
			       ctx->cluster, source ? source : o.from_ceph,
			       cfs_osdmap_fsid(m),
			       cfs_osdmap_epoch(m), nosd,
			       cfs_format_size(total, a, sizeof(a)),
			       pre ? ", " : "",
			       pre ? cfs_format_size(pre, b, sizeof(b)) : "",
			       pre ? " used as prefilled" : "",
			       cfs_osdmap_npools(m), ctx->cluster, p->name,
			       (long long)p->id, p->size, p->min_size,
			       p->pg_num,
			       cfs_format_size(p->object_size, objs,
					       sizeof(objs)),
			       cfs_full_policy_name(cfs_osdmap_full_policy(m)));
		} else {
			struct cfs_osd_info oi;

			cfs_osdmap_osd(m, 0, &oi);
			for (int id = 0; id < cfs_osdmap_max_osd(m); id++)
				if (!cfs_osdmap_osd(m, id, &oi))
					break;
			printf("created cluster %s\n"
			       "  fsid %s\n"
			       "  %d osds (capacity %s each%s), crush map in "
			       "%s/crushmap.txt\n"
			       "  pool '%s' (%lld): size %d, min_size %d, "
			       "pg_num %u, object size %s, full policy %s\n",
			       ctx->cluster, cfs_osdmap_fsid(m), nosd,
			       cfs_format_size(oi.capacity, cap, sizeof(cap)),
			       o.crush_map && !o.osd_size_set
				       ? " or per crush weight"
				       : "",
			       ctx->cluster, p->name, (long long)p->id, p->size,
			       p->min_size, p->pg_num,
			       cfs_format_size(p->object_size, objs,
					       sizeof(objs)),
			       cfs_full_policy_name(cfs_osdmap_full_policy(m)));
		}
		cfs_osdmap_put(m);
		cfs_cluster_close(c);
	}
	return 0;
}
