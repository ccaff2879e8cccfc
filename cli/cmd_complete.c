/*
 * cmd_complete.c - `crushfs __complete KIND`: the words the bash
 * completion (docgen.c) offers for an argument, one a line, from the
 * cluster named by --cluster / $CRUSHFS_CLUSTER: OSD ids, pool names, PG
 * ids, the PG states `pg ls` takes, erasure-code profile names, crush
 * item names (`osd crush ls NODE`) and rule names.  A cluster command, so
 * a mounted daemon answers it; the script throws its errors away.
 */
#include <stdio.h>
#include <string.h>

#include "cluster_cmds.h"
#include "osdmap.h"
#include "placement.h"

int ccmd_complete(struct cmd_ctx *ctx, int argc, char **argv)
{
	const cfs_osdmap *m;
	const pl_map *cm;
	const char *k;

	if (cc_nargs(ctx, argc, argv, 1))
		return 1;
	k = argv[0];
	if (!strcmp(k, "states")) {
		for (const char *const *w = cc_pg_state_words(); *w; w++)
			fprintf(ctx->out, "%s\n", *w);
		return 0;
	}
	m = cfs_osdmap_get(ctx->cluster);
	cm = cfs_osdmap_crush(m);
	if (!strcmp(k, "osds")) {
		for (int id = 0; id < cfs_osdmap_max_osd(m); id++)
			if (cfs_osdmap_exists(m, id))
				fprintf(ctx->out, "%d\n", id);
	} else if (!strcmp(k, "pools") || !strcmp(k, "pgs")) {
		for (int i = 0; i < cfs_osdmap_npools(m); i++) {
			const struct cfs_pool_info *p = cfs_osdmap_pool_at(m, i);

			if (k[1] == 'o') {
				fprintf(ctx->out, "%s\n", p->name);
				continue;
			}
			for (uint32_t ps = 0; ps < p->pg_num; ps++)
				fprintf(ctx->out, "%lld.%x\n",
					(long long)p->id, ps);
		}
	} else if (!strcmp(k, "profiles")) {
		const char *names[256];
		int n = cfs_ec_profile_names(m, names, 256);

		for (int i = 0; i < n && i < 256; i++)
			fprintf(ctx->out, "%s\n", names[i]);
	} else if (!strcmp(k, "nodes")) {
		for (int pos = 0; pos < pl_map_max_buckets(cm); pos++) {
			const char *nm = pl_map_item_name(cm, -1 - pos);

			if (pl_map_bucket_exists(cm, -1 - pos) && nm)
				fprintf(ctx->out, "%s\n", nm);
		}
		for (int id = 0; id < pl_map_max_devices(cm); id++)
			if (pl_map_item_name(cm, id))
				fprintf(ctx->out, "%s\n",
					pl_map_item_name(cm, id));
	} else if (!strcmp(k, "rules")) {
		for (int r = 0; r < pl_map_max_rules(cm); r++)
			if (pl_map_rule_exists(cm, r) &&
			    pl_map_rule_name(cm, r))
				fprintf(ctx->out, "%s\n",
					pl_map_rule_name(cm, r));
	} else {
		cfs_osdmap_put(m);
		return cc_usage(ctx, "unknown kind '%s'", k);
	}
	cfs_osdmap_put(m);
	return 0;
}
