/*
 * cmd_pgls.c - the listing commands Ceph users reach for first: `pg ls
 * [STATE...]`, `pg ls-by-osd OSD`, `pg ls-by-primary OSD`, `pg ls-by-pool
 * POOL` (PGMap::dump_filtered_pg_stats, Ceph 16.2), `osd ls` and
 * `osd find ID` (OSDMonitor's answers).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cluster.h"
#include "cluster_cmds.h"
#include "objlayer.h"
#include "osdmap.h"
#include "placement.h"
#include "util.h"

enum pg_filter { BY_NONE, BY_OSD, BY_PRIMARY, BY_POOL };

/* Ceph's states are '+'-joined words; a filter word matches one of them
 * (`pg ls degraded` lists active+undersized+degraded). */
static int state_matches(const char *st, int argc, char **argv)
{
	if (argc == 0)
		return 1;
	for (int i = 0; i < argc; i++) {
		size_t l = strlen(argv[i]);

		for (const char *p = st; *p;) {
			size_t w = strcspn(p, "+");

			if (w == l && !strncmp(p, argv[i], l))
				return 1;
			p += w;
			if (*p == '+')
				p++;
		}
	}
	return 0;
}

/* pg ls's set: pg_vector_string, then "p" and the primary */
static void set_str(char *buf, size_t len, const int *v, int n, int primary)
{
	size_t o;

	cc_pg_vector_string(buf, len, v, n);
	o = strlen(buf);
	if (o < len)
		snprintf(buf + o, len - o, "p%d", primary);
}

/* The words a state filter may use (pg_state_string's, as Ceph refuses
 * others: "unknown state"). */
static const char *const state_words[] = {
	"active",     "clean",		 "down",	  "undersized",
	"degraded",   "remapped",	 "backfill_wait", "backfill_toofull",
	"peered",     "unfound",	 "inconsistent",  NULL
};

const char *const *cc_pg_state_words(void)
{
	return state_words;
}

static int pg_ls(struct cmd_ctx *ctx, int argc, char **argv,
		 enum pg_filter by)
{
	static const char *const heads[] = { "PG",	  "OBJECTS", "DEGRADED",
					     "MISPLACED", "UNFOUND", "BYTES",
					     "STATE",	  "UP",	     "ACTING" };
	static const int right[] = { 0, 1, 1, 1, 1, 1, 0, 0, 0 };
	const cfs_osdmap *m;
	const struct cfs_pool_info *only = NULL;
	struct cc_table *t = NULL;
	json_t *arr = NULL;
	int want = -1, r = 0;

	if (by != BY_NONE) {
		if (argc < 1)
			return cc_usage(ctx, "missing argument");
	}
	for (int i = by == BY_NONE ? 0 : 1; i < argc; i++) {
		int known = 0;

		if (argv[i][0] == '-')
			return cc_usage(ctx, "unknown option '%s'", argv[i]);
		for (int k = 0; state_words[k]; k++)
			known |= !strcmp(argv[i], state_words[k]);
		if (!known)
			return cc_err(ctx, "unknown state '%s'", argv[i]);
	}
	m = cfs_osdmap_get(ctx->cluster);
	if (by == BY_OSD || by == BY_PRIMARY) {
		/* Ceph takes "3" and "osd.3" */
		if (cc_osd_arg(ctx, argv[0], &want)) {
			cfs_osdmap_put(m);
			return 1;
		}
	} else if (by == BY_POOL) {
		/* Ceph takes the pool's name */
		only = cfs_osdmap_pool_by_name(m, argv[0]);
		if (!only) {
			r = cc_err(ctx, "pool '%s' does not exist", argv[0]);
			cfs_osdmap_put(m);
			return r;
		}
	}
	if (by != BY_NONE) {
		argc--;
		argv++;
	}
	if (ctx->json)
		arr = json_array();
	else
		t = cc_table_new(9, heads, right);
	/* every pool's PGs (read from the OSDs), pool by pool */
	for (int pi = 0; pi < cfs_osdmap_npools(m) && !r; pi++) {
	const struct cfs_pool_info *q = cfs_osdmap_pool_at(m, pi);
	struct ol_pg_stat *all;

	if (only && q != only)
		continue;
	all = calloc(q->pg_num + 1, sizeof(*all));
	r = all ? ol_pool_pg_stats(ctx->ol, m, q->id, all) : -ENOMEM;
	for (uint32_t ps = 0; ps < q->pg_num && !r; ps++) {
		const struct ol_pg_stat g = all[ps];
		char st[128], a[128];

		if ((by == BY_OSD && !cfs_in_set(g.up, g.nup, want) &&
		     !cfs_in_set(g.acting, g.nacting, want)) ||
		    (by == BY_PRIMARY && g.acting_primary != want))
			continue;
		ol_pg_state_str(g.state, st, sizeof(st));
		if (!state_matches(st, argc, argv))
			continue;
		if (arr) {
			json_array_append_new(arr, cc_pg_json(&g));
			continue;
		}
		cc_table_cell(t, "%s", g.pgid);
		cc_table_cell(t, "%llu", (unsigned long long)g.objects);
		cc_table_cell(t, "%llu", (unsigned long long)g.degraded);
		cc_table_cell(t, "%llu", (unsigned long long)g.misplaced);
		cc_table_cell(t, "%llu", (unsigned long long)g.unfound);
		cc_table_cell(t, "%llu", (unsigned long long)g.bytes);
		cc_table_cell(t, "%s", st);
		set_str(a, sizeof(a), g.up, g.nup, g.up_primary);
		cc_table_cell(t, "%s", a);
		set_str(a, sizeof(a), g.acting, g.nacting, g.acting_primary);
		cc_table_cell(t, "%s", a);
	}
	free(all);
	}
	cfs_osdmap_put(m);
	if (r) {
		json_decref(arr);
		if (t)
			cc_table_free(t);
		return cc_err(ctx, "cannot read the PGs: %s", cfs_strerror(r));
	}
	if (arr)
		return cc_json_out(ctx, json_pack("{s:b, s:o}", "pg_ready", 1,
						  "pg_stats", arr));
	cc_table_print(t, ctx->out);
	cc_table_free(t);
	return 0;
}

int ccmd_pg_ls(struct cmd_ctx *ctx, int argc, char **argv)
{
	return pg_ls(ctx, argc, argv, BY_NONE);
}

int ccmd_pg_ls_by_osd(struct cmd_ctx *ctx, int argc, char **argv)
{
	return pg_ls(ctx, argc, argv, BY_OSD);
}

int ccmd_pg_ls_by_primary(struct cmd_ctx *ctx, int argc, char **argv)
{
	return pg_ls(ctx, argc, argv, BY_PRIMARY);
}

int ccmd_pg_ls_by_pool(struct cmd_ctx *ctx, int argc, char **argv)
{
	return pg_ls(ctx, argc, argv, BY_POOL);
}

int ccmd_osd_ls(struct cmd_ctx *ctx, int argc, char **argv)
{
	const cfs_osdmap *m;
	json_t *arr = NULL;

	if (cc_nargs(ctx, argc, argv, 0))
		return 1;
	m = cfs_osdmap_get(ctx->cluster);
	if (ctx->json)
		arr = json_array();
	for (int id = 0; id < cfs_osdmap_max_osd(m); id++) {
		if (!cfs_osdmap_exists(m, id))
			continue;
		if (arr)
			json_array_append_new(arr, json_integer(id));
		else
			fprintf(ctx->out, "%d\n", id);
	}
	cfs_osdmap_put(m);
	return arr ? cc_json_out(ctx, arr) : 0;
}

/* `ceph osd find`: where the OSD is, its crush location from the root
 * down; crushfs adds the OSD's folder (it has no network address). */
int ccmd_osd_find(struct cmd_ctx *ctx, int argc, char **argv)
{
	const cfs_osdmap *m;
	const pl_map *cm;
	struct cfs_osd_info oi;
	json_t *loc;
	char path[4096];
	int saved, id;

	if (cc_nargs(ctx, argc, argv, 1))
		return 1;
	if (cc_osd_arg(ctx, argv[0], &id))
		return 1;
	m = cfs_osdmap_get(ctx->cluster);
	cfs_osdmap_osd(m, id, &oi);
	cm = cfs_osdmap_crush(m);
	loc = json_object();
	for (int b = pl_map_parent(cm, id), depth = 0; b && depth < 64;
	     b = pl_map_parent(cm, b), depth++) {
		const char *tn = pl_map_type_name(cm, pl_map_bucket_type(cm, b));
		const char *bn = pl_map_item_name(cm, b);

		if (tn && bn)
			json_object_set_new(loc, tn, json_string(bn));
	}
	{
		/* absolute, so it can be used from anywhere */
		char *dir = realpath(cfs_cluster_dir(ctx->cluster), NULL);

		snprintf(path, sizeof(path), "%s/osd.%d",
			 dir ? dir : cfs_cluster_dir(ctx->cluster), id);
		free(dir);
	}
	cfs_osdmap_put(m);
	/* Ceph prints this as JSON whatever the format: so does crushfs,
	 * indented unless -f json asked for one line */
	saved = ctx->json;
	if (!ctx->json)
		ctx->json = 2;
	cc_json_out(ctx, json_pack("{s:i, s:s, s:s, s:o, s:s, s:s}", "osd",
				   id, "osd_fsid", oi.uuid, "host", oi.host,
				   "crush_location", loc, "path", path,
				   "status", oi.up ? "up" : "down"));
	ctx->json = saved;
	return 0;
}
