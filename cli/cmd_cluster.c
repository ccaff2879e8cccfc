/*
 * cmd_cluster.c - the table of cluster commands, how the CLI runs one
 * (cluster_cmd_exec), the entry points main.c dispatches to, and the small
 * helpers the cluster commands share (argument checks, text tables, JSON).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "cli.h"
#include "cluster.h"
#include "cluster_cmds.h"
#include "cmd_fs.h"
#include "objlayer.h"
#include "osdmap.h"
#include "util.h"

const struct cluster_cmd cluster_cmds[] = {
	{ "status", ccmd_status, 0, "",
	  "cluster summary and health, as `ceph status`" },
	{ "health", ccmd_health, 0, "[detail]",
	  "health and its reasons, as `ceph health [detail]`" },
	{ "df", ccmd_df, 0, "[detail]", "raw and pool space, as `ceph df [detail]`" },
	{ "osd df", ccmd_osd_df, 0, "[tree]",
	  "per-OSD usage, as `ceph osd df [tree]`" },
	{ "osd stat", ccmd_osd_stat, 0, "", "OSD counts, as `ceph osd stat`" },
	{ "pg stat", ccmd_pg_stat, 0, "",
	  "PG states and space in one line, as `ceph pg stat`" },
	{ "pg dump_stuck", ccmd_pg_dump_stuck, 0,
	  "[inactive|unclean|stale|undersized|degraded]...",
	  "the PGs in those states, as `ceph pg dump_stuck`" },
	{ "osd pool stats", ccmd_osd_pool_stats, 0, "[POOL]",
	  "recovery per pool, as `ceph osd pool stats`" },
	{ "osd pool application enable", ccmd_osd_pool_application_enable,
	  CCMD_WRITE, "POOL APP [--yes-i-really-mean-it]",
	  "tag a pool with an application (cephfs, rbd, rgw, ...)" },
	{ "osd pool application disable", ccmd_osd_pool_application_disable,
	  CCMD_WRITE, "POOL APP --yes-i-really-mean-it",
	  "remove an application's tag from a pool" },
	{ "osd pool application get", ccmd_osd_pool_application_get, 0,
	  "POOL [APP [KEY]]", "a pool's applications and their keys" },
	{ "osd pool application set", ccmd_osd_pool_application_set,
	  CCMD_WRITE, "POOL APP KEY VALUE", "set an application's key" },
	{ "osd pool application rm", ccmd_osd_pool_application_rm, CCMD_WRITE,
	  "POOL APP KEY", "remove an application's key" },
	{ "osd tree", ccmd_osd_tree, 0, "", "the crush tree, as `ceph osd tree`" },
	{ "pg dump", ccmd_pg_dump, 0, "",
	  "every PG: objects, bytes, state, up and acting sets" },
	{ "osd map", ccmd_osd_map, 0, "[POOL] OBJECT",
	  "where an object goes, as `ceph osd map`" },
	{ "osd out", ccmd_osd_out, CCMD_WRITE | CCMD_DRYRUN, "ID", "mark an OSD out" },
	{ "osd in", ccmd_osd_in, CCMD_WRITE | CCMD_DRYRUN, "ID", "mark an OSD in" },
	{ "osd down", ccmd_osd_down, CCMD_WRITE | CCMD_DRYRUN, "ID", "mark an OSD down" },
	{ "osd up", ccmd_osd_up, CCMD_WRITE | CCMD_DRYRUN, "ID", "mark an OSD up" },
	{ "osd reweight", ccmd_osd_reweight, CCMD_WRITE | CCMD_DRYRUN, "ID WEIGHT",
	  "set an OSD's reweight (0..1)" },
	{ "osd crush reweight", ccmd_osd_crush_reweight, CCMD_WRITE | CCMD_DRYRUN,
	  "ID WEIGHT", "set an OSD's crush weight" },
	{ "osd primary-affinity", ccmd_osd_primary_affinity, CCMD_WRITE,
	  "ID WEIGHT", "set an OSD's primary affinity (0..1)" },
	{ "osd setcrushmap", ccmd_osd_setcrushmap, CCMD_WRITE | CCMD_DRYRUN,
	  "-i FILE", "install a crush map (text or binary), as `ceph osd "
	  "setcrushmap -i`" },
	{ "osd pg-upmap", ccmd_osd_pg_upmap, CCMD_WRITE | CCMD_DRYRUN,
	  "PGID OSD...", "map a PG to these OSDs, as `ceph osd pg-upmap`" },
	{ "osd pg-upmap-items", ccmd_osd_pg_upmap_items,
	  CCMD_WRITE | CCMD_DRYRUN, "PGID FROM TO [FROM TO...]",
	  "replace OSDs in a PG's set, as `ceph osd pg-upmap-items`" },
	{ "osd rm-pg-upmap", ccmd_osd_rm_pg_upmap, CCMD_WRITE | CCMD_DRYRUN,
	  "PGID", "drop a PG's pg-upmap entry" },
	{ "osd rm-pg-upmap-items", ccmd_osd_rm_pg_upmap_items,
	  CCMD_WRITE | CCMD_DRYRUN, "PGID", "drop a PG's pg-upmap-items entry" },
	{ "osd dump", ccmd_osd_dump, 0, "", "the osdmap, as `ceph osd dump`" },
	/* cmd_flags.c */
	{ "osd set", ccmd_osd_set, CCMD_WRITE, "FLAG",
	  "set an osdmap flag, as `ceph osd set` (it changes what the "
	  "cluster does)" },
	{ "osd unset", ccmd_osd_unset, CCMD_WRITE, "FLAG",
	  "clear an osdmap flag, as `ceph osd unset`" },
	{ "health mute", ccmd_health_mute, CCMD_WRITE,
	  "CODE [TTL] [--sticky]",
	  "mute a health check, as `ceph health mute` (TTL: 30s, 10m, 2h...)" },
	{ "health unmute", ccmd_health_unmute, CCMD_WRITE, "[CODE]",
	  "end a mute, or all of them" },
	{ "osd ok-to-stop", ccmd_osd_ok_to_stop, 0, "ID...",
	  "whether stopping these OSDs leaves every PG active, as `ceph osd "
	  "ok-to-stop`" },
	{ "osd safe-to-destroy", ccmd_osd_safe_to_destroy, 0, "ID...",
	  "whether these OSDs hold nothing still needed, as `ceph osd "
	  "safe-to-destroy`" },
	{ "osd pool create", ccmd_osd_pool_create, CCMD_WRITE,
	  "NAME [PG_NUM [PGP_NUM]] [replicated [RULE] | erasure [PROFILE [RULE]]]",
	  "a pool beside the filesystem's (placed, holding no data of crushfs's)" },
	{ "osd pool rm", ccmd_osd_pool_rm, CCMD_WRITE,
	  "NAME NAME --yes-i-really-really-mean-it", "remove a pool" },
	{ "osd pool ls", ccmd_osd_pool_ls, 0, "[detail]",
	  "the pools, as `ceph osd pool ls [detail]`" },
	{ "osd pool get", ccmd_osd_pool_get, 0, "POOL KEY|all",
	  "a pool's size, min_size, pg_num, pgp_num or crush_rule" },
	{ "osd pool set", ccmd_osd_pool_set, CCMD_WRITE | CCMD_DRYRUN, "POOL KEY VALUE",
	  "set a pool's size, min_size, pg_num, pgp_num or crush_rule" },
	{ "osd pool set-quota", ccmd_osd_pool_set_quota, CCMD_WRITE,
	  "POOL max_bytes|max_objects N",
	  "a pool quota (0: none); past it writes get EDQUOT" },
	{ "osd pool get-quota", ccmd_osd_pool_get_quota, 0, "POOL",
	  "a pool's quotas and current use" },
	/* the bash completion's word lists (cmd_complete.c) */
	{ "__complete", ccmd_complete, CCMD_HIDDEN,
	  "osds|pools|pgs|states|profiles|nodes|rules",
	  "the words completion offers, one a line" },
	/* cmd_crush_tree.c, cmd_crush_dump.c, cmd_pgmap.c */
	{ "osd crush tree", ccmd_osd_crush_tree, 0, "[--show-shadow]",
	  "the crush hierarchy with device classes, as `ceph osd crush tree`" },
	{ "osd crush ls", ccmd_osd_crush_ls, 0, "NODE",
	  "the items of a crush bucket, as `ceph osd crush ls`" },
	{ "osd crush dump", ccmd_osd_crush_dump, 0, "",
	  "the crush map as JSON, as `ceph osd crush dump`" },
	{ "osd getcrushmap", ccmd_osd_getcrushmap, CCMD_NOJSON, "[-o FILE]",
	  "the binary crush map (`crushtool -d` reads it); its version on "
	  "stderr" },
	{ "pg map", ccmd_pg_map, 0, "PGID",
	  "a PG's up and acting sets, as `ceph pg map`" },
	{ "osd crush rule ls", ccmd_osd_crush_rule_ls, 0, "",
	  "the crush rules' names" },
	{ "osd crush rule dump", ccmd_osd_crush_rule_dump, 0, "[NAME]",
	  "the crush rules as JSON, as `ceph osd crush rule dump`" },
	{ "osd crush rule create-replicated",
	  ccmd_osd_crush_rule_create_replicated, CCMD_WRITE,
	  "NAME ROOT TYPE [CLASS]",
	  "add a replicated rule (take ROOT, chooseleaf firstn 0 type TYPE)" },
	{ "osd crush rule create-erasure", ccmd_osd_crush_rule_create_erasure,
	  CCMD_WRITE, "NAME [PROFILE]",
	  "add the rule Ceph makes for an erasure-code profile (indep)" },
	{ "osd erasure-code-profile set", ccmd_osd_ec_profile_set, CCMD_WRITE,
	  "NAME [KEY=VALUE...] [--force]",
	  "set an erasure-code profile (k, m, plugin, crush-failure-domain...)" },
	{ "osd erasure-code-profile get", ccmd_osd_ec_profile_get, 0, "NAME",
	  "an erasure-code profile's keys and values" },
	{ "osd erasure-code-profile ls", ccmd_osd_ec_profile_ls, 0, "",
	  "the erasure-code profiles" },
	{ "osd erasure-code-profile rm", ccmd_osd_ec_profile_rm, CCMD_WRITE,
	  "NAME", "remove an erasure-code profile" },
	{ "fs status", ccmd_fs_status, 0, "[FS]",
	  "the filesystem, its MDS and its pools, as `ceph fs status`" },
	{ "fs ls", ccmd_fs_ls, 0, "",
	  "the filesystem and its data pools" },
	{ "fs add_data_pool", ccmd_fs_add_data_pool, CCMD_WRITE, "FS POOL",
	  "let file layouts use a replicated pool (ceph.dir.layout.pool)" },
	{ "fs rm_data_pool", ccmd_fs_rm_data_pool, CCMD_WRITE, "FS POOL",
	  "take a data pool back (refused while it holds objects)" },
	{ "config set", ccmd_config_set, CCMD_WRITE, "WHO KEY VALUE",
	  "set an option (mon_allow_pool_delete, mon_max_pg_per_osd, "
	  "target_max_misplaced_ratio, ...)" },
	{ "config get", ccmd_config_get, 0, "WHO KEY",
	  "an option's value" },
	{ "config rm", ccmd_config_rm, CCMD_WRITE, "WHO KEY",
	  "an option back to its default" },
	{ "config dump", ccmd_config_dump, 0, "", "the options set" },
	{ "analyze", ccmd_analyze, 0, "[--pool P]",
	  "data per OSD against the weights; what fills first, and when" },
	{ "balancer status", ccmd_balancer_status, 0, "",
	  "the balancer module's state, as `ceph balancer status`" },
	{ "balancer mode", ccmd_balancer_mode, CCMD_WRITE, "upmap|none",
	  "the balancer's mode (crush-compat is not implemented)" },
	{ "balancer on", ccmd_balancer_on, CCMD_WRITE, "",
	  "let the mounted daemon balance PGs every sleep_interval" },
	{ "balancer off", ccmd_balancer_off, CCMD_WRITE, "",
	  "stop the automatic balancer" },
	{ "balancer eval", ccmd_balancer_eval, 0, "[POOL]",
	  "PGs per OSD against their crush-weight targets (every pool, or one)" },
	{ "balancer optimize", ccmd_balancer_optimize, CCMD_WRITE,
	  "[--max N] [--deviation D] [--pool P] [--apply]",
	  "the upmap balancer's plan (Ceph's calc_pg_upmaps, pool by pool); --apply sets it" },
	{ "osd test-reweight-by-utilization",
	  ccmd_osd_test_reweight_by_utilization, 0, "[OVERLOAD [MAX_CHANGE [MAX_OSDS]]] [--no-increasing]",
	  "what reweight-by-utilization would do (Ceph's formula)" },
	{ "osd reweight-by-utilization", ccmd_osd_reweight_by_utilization,
	  CCMD_WRITE, "[OVERLOAD [MAX_CHANGE [MAX_OSDS]]] [--no-increasing]", "lower the reweight of the fullest OSDs" },
	{ "osd test-reweight-by-pg", ccmd_osd_test_reweight_by_pg, 0, "[OVERLOAD [MAX_CHANGE [MAX_OSDS]]] [--no-increasing]",
	  "what reweight-by-pg would do (PGs per crush weight)" },
	{ "osd reweight-by-pg", ccmd_osd_reweight_by_pg, CCMD_WRITE, "[OVERLOAD [MAX_CHANGE [MAX_OSDS]]] [--no-increasing]",
	  "reweight the OSDs with the most PGs per crush weight" },
	{ "osd set-capacity", ccmd_osd_set_capacity, CCMD_WRITE | CCMD_DRYRUN, "ID SIZE",
	  "set an OSD's (virtual) capacity" },
	{ "osd add", ccmd_osd_add, CCMD_WRITE | CCMD_DRYRUN, "--host HOST [--size SIZE]",
	  "add an OSD under a host bucket" },
	{ "set-full-ratio", ccmd_set_full_ratio, CCMD_WRITE, "RATIO",
	  "set the full ratio (0..1]" },
	{ "set-backfillfull-ratio", ccmd_set_backfillfull_ratio, CCMD_WRITE,
	  "RATIO", "set the backfillfull ratio (0..1]" },
	{ "set-nearfull-ratio", ccmd_set_nearfull_ratio, CCMD_WRITE, "RATIO",
	  "set the nearfull ratio (0..1]" },
	/* Ceph's spellings (`ceph osd set-full-ratio`); the short ones stay */
	{ "osd set-full-ratio", ccmd_set_full_ratio, CCMD_WRITE, "RATIO",
	  "set the full ratio (0..1]" },
	{ "osd set-backfillfull-ratio", ccmd_set_backfillfull_ratio,
	  CCMD_WRITE, "RATIO", "set the backfillfull ratio (0..1]" },
	{ "osd set-nearfull-ratio", ccmd_set_nearfull_ratio, CCMD_WRITE,
	  "RATIO", "set the nearfull ratio (0..1]" },
	{ "set-full-policy", ccmd_set_full_policy, CCMD_WRITE, "osd|pool",
	  "what a full OSD refuses: its PGs' writes, or the pool's" },
	{ "rebalance", ccmd_rebalance, CCMD_WRITE, "",
	  "move objects to where the map puts them now" },
	{ "pg ls", ccmd_pg_ls, 0, "[STATE...]",
	  "the PGs, or those in one of the states, as `ceph pg ls`" },
	{ "pg ls-by-osd", ccmd_pg_ls_by_osd, 0, "OSD [STATE...]",
	  "the PGs with the OSD in their up or acting set" },
	{ "pg ls-by-primary", ccmd_pg_ls_by_primary, 0, "OSD [STATE...]",
	  "the PGs whose acting primary is the OSD" },
	{ "pg ls-by-pool", ccmd_pg_ls_by_pool, 0, "POOL [STATE...]",
	  "the PGs of a pool" },
	{ "osd ls", ccmd_osd_ls, 0, "", "the ids of the OSDs, as `ceph osd ls`" },
	{ "osd find", ccmd_osd_find, 0, "ID",
	  "where an OSD is: host, crush location, folder (JSON)" },
	{ "pg scrub", ccmd_pg_scrub, CCMD_WRITE, "PGID",
	  "check every copy of a PG's objects: presence, version, size" },
	{ "pg deep-scrub", ccmd_pg_deep_scrub, CCMD_WRITE, "PGID",
	  "scrub, and check every block against its checksum" },
	{ "pg repair", ccmd_pg_repair, CCMD_WRITE, "PGID",
	  "deep-scrub, and rebuild bad copies from the authoritative one" },
	{ "scrub", ccmd_scrub, CCMD_WRITE, "[--deep] [--repair]",
	  "scrub every PG, with progress" },
	{ "check", ccmd_check, 0, "[--deep]",
	  "prove the usage accounting equals the disk (--deep: and that "
	  "replicas agree)" },
	{ "rados put", ccmd_rados_put, CCMD_WRITE, "NAME FILE|-",
	  "store a file as an object" },
	{ "rados get", ccmd_rados_get, CCMD_NOJSON, "NAME FILE|-",
	  "fetch an object into a file" },
	{ "rados stat", ccmd_rados_stat, 0, "NAME", "an object's size" },
	{ "rados rm", ccmd_rados_rm, CCMD_WRITE | CCMD_NOJSON, "NAME", "remove an object" },
	{ "rados ls", ccmd_rados_ls, 0, "", "list the pool's objects" },
	{ "rados bench", ccmd_rados_bench, CCMD_WRITE,
	  "write|read [--total SIZE] [--object-size SIZE] [--threads N] "
	  "[--prefix NAME] [--no-cleanup] [--no-sync]",
	  "write or read objects in one process and report the bandwidth" },
};
const int cluster_ncmds = sizeof(cluster_cmds) / sizeof(cluster_cmds[0]);

const struct cluster_cmd *cluster_cmd_find(const char *name)
{
	for (int i = 0; i < cluster_ncmds; i++)
		if (!strcmp(cluster_cmds[i].name, name))
			return &cluster_cmds[i];
	return NULL;
}

int cluster_cmd_exec(const struct cluster_cmd *cmd, const char *dir,
		     int json, int argc, char **argv, FILE *out, FILE *err)
{
	struct cmd_ctx ctx = { 0 };
	char msg[1024] = "";
	int r;

	ctx.out = out;
	ctx.err = err;
	ctx.json = json;
	ctx.cmd = cmd->name;
	ctx.args = cmd->args;
	ctx.tty = isatty(fileno(err));
	ctx.in_fd = STDIN_FILENO;
	ctx.out_fd = fileno(out);
	ctx.watch_fd = -1;
	r = cfs_cluster_open(dir, (cmd->flags & CCMD_WRITE) ? 0
							    : CFS_OPEN_RDONLY,
			     &ctx.cluster, msg, sizeof(msg));
	if (r)
		return cc_err(&ctx, "%s", *msg ? msg : cfs_strerror(r));
	r = ol_open(ctx.cluster, &ctx.ol);
	if (r) {
		cfs_cluster_close(ctx.cluster);
		return cc_err(&ctx, "%s", cfs_strerror(r));
	}
	r = cc_run(cmd, &ctx, argc, argv);
	ol_close(ctx.ol);
	cfs_cluster_close(ctx.cluster);
	if (fflush(out) == EOF && !r) {
		fprintf(err, "crushfs: %s: writing the output: %s\n", cmd->name,
			strerror(errno));
		r = 1;
	}
	return r;
}

/* ---- main.c entry points ---- */

/* Takes the global options out of a command's arguments (they may follow
 * the command words, as main.c allows): -f/--format, --cluster, -h. */
static int strip_globals(struct cli_ctx *cctx, int *argc, char **argv,
			 int *help)
{
	int n = 0;

	for (int i = 0; i < *argc; i++) {
		const char *a = argv[i], *v = NULL;
		int r;

		if (!strcmp(a, "--")) {
			while (i < *argc)
				argv[n++] = argv[i++];
			break;
		}
		if (cli_flag(a, "-h") || cli_flag(a, "--help")) {
			*help = 1;
			continue;
		}
		if ((r = cli_opt(cctx, *argc, argv, &i, "-f", &v)) ||
		    (r = cli_opt(cctx, *argc, argv, &i, "--format", &v))) {
			if (r < 0 || cli_set_format(cctx, v))
				return 1;
			continue;
		}
		if ((r = cli_opt(cctx, *argc, argv, &i, "--cluster", &v))) {
			if (r < 0)
				return 1;
			cctx->cluster = v;
			continue;
		}
		argv[n++] = argv[i];
	}
	*argc = n;
	return 0;
}

int cmd_cluster(struct cli_ctx *cctx, int argc, char **argv)
{
	const struct cluster_cmd *cmd = cluster_cmd_find(cctx->cmd);
	int help = 0;

	if (!cmd)
		return cli_err(cctx, "not a cluster command");
	if (strip_globals(cctx, &argc, argv, &help))
		return 1;
	if (help) {
		printf("usage: crushfs [--cluster DIR] [-f json] %s %s\n  %s\n",
		       cmd->name, cmd->args, cmd->help);
		return 0;
	}
	/* a mounted daemon holds the cluster: it runs the command */
	{
		int status;

		if (cli_forward(cctx, argc, argv, &status))
			return status;
	}
	return cluster_cmd_exec(cmd, cctx->cluster,
				cctx->format != CLI_FMT_JSON ? 0 :
				cctx->pretty		     ? 2 :
								 1,
				argc, argv, stdout, stderr);
}

/* ---- helpers ---- */

int cc_err(struct cmd_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	fprintf(ctx->err, "crushfs: %s: ", ctx->cmd);
	va_start(ap, fmt);
	vfprintf(ctx->err, fmt, ap);
	va_end(ap);
	fputc('\n', ctx->err);
	return 1;
}

int cc_usage(struct cmd_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	fprintf(ctx->err, "crushfs: %s: ", ctx->cmd);
	va_start(ap, fmt);
	vfprintf(ctx->err, fmt, ap);
	va_end(ap);
	/* one line, the synopsis included */
	fprintf(ctx->err, " (usage: crushfs %s%s%s)\n", ctx->cmd,
		ctx->args && *ctx->args ? " " : "", ctx->args ? ctx->args : "");
	return 1;
}

int cc_nargs(struct cmd_ctx *ctx, int argc, char **argv, int n)
{
	for (int i = 0; i < argc; i++)
		if (argv[i][0] == '-' && argv[i][1] &&
		    (argv[i][1] < '0' || argv[i][1] > '9') && argv[i][1] != '.')
			return cc_usage(ctx, "unknown option '%s'", argv[i]);
	if (argc < n)
		return cc_usage(ctx, "missing argument");
	if (argc > n)
		return cc_usage(ctx, "unexpected argument '%s'", argv[n]);
	return 0;
}

static int strict_int(const char *s, long long lo, long long hi,
		      long long *out)
{
	char *end;
	long long v;

	if (!*s || (*s != '-' && (*s < '0' || *s > '9')))
		return -EINVAL;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (*end || errno)
		return -EINVAL;
	if (v < lo || v > hi)
		return -ERANGE;
	*out = v;
	return 0;
}

int cc_osd_arg(struct cmd_ctx *ctx, const char *s, int *id)
{
	const char *p = !strncmp(s, "osd.", 4) ? s + 4 : s;
	long long v;
	const cfs_osdmap *m;
	int ok;

	if (strict_int(p, 0, CFS_MAX_OSD - 1, &v))
		return cc_err(ctx, "'%s' is not an OSD id (expected N or osd.N)",
			      s);
	m = cfs_osdmap_get(ctx->cluster);
	ok = cfs_osdmap_exists(m, (int)v);
	cfs_osdmap_put(m);
	if (!ok)
		return cc_err(ctx, "osd.%lld does not exist", v);
	*id = (int)v;
	return 0;
}

int cc_double_arg(struct cmd_ctx *ctx, const char *what, const char *s,
		  double lo, double hi, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (!*s || *end || errno || v != v)
		return cc_err(ctx, "%s: '%s' is not a number", what, s);
	if (v < lo || v > hi)
		return cc_err(ctx, "%s: %s is out of range [%g, %g]", what, s,
			      lo, hi);
	*out = v;
	return 0;
}

int cc_size_arg(struct cmd_ctx *ctx, const char *what, const char *s,
		uint64_t *out)
{
	int r = cfs_parse_size(s, out);

	if (r == -ERANGE)
		return cc_err(ctx, "%s: '%s' is too large", what, s);
	if (r)
		return cc_err(ctx,
			      "%s: '%s' is not a size (expected e.g. 512M, "
			      "1.5G, 100K, 4096)",
			      what, s);
	return 0;
}

int cc_json_out(struct cmd_ctx *ctx, json_t *v)
{
	if (!v)
		return cc_err(ctx, "out of memory");
	json_dumpf(v, ctx->out,
		   JSON_PRESERVE_ORDER |
			   (ctx->json == 2 ? JSON_INDENT(4) : JSON_COMPACT));
	fputc('\n', ctx->out);
	json_decref(v);
	return 0;
}

struct cc_table {
	int ncols;
	const char *const *heads;
	const int *right;
	char **cells;
	size_t n, cap;
};

struct cc_table *cc_table_new(int ncols, const char *const *heads,
			      const int *right)
{
	struct cc_table *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->ncols = ncols;
	t->heads = heads;
	t->right = right;
	return t;
}

void cc_table_cell(struct cc_table *t, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;

	if (!t)
		return;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (t->n == t->cap) {
		size_t nc = t->cap ? t->cap * 2 : 64;
		char **nv = realloc(t->cells, nc * sizeof(*nv));

		if (!nv) {
			free(s);
			return;
		}
		t->cells = nv;
		t->cap = nc;
	}
	t->cells[t->n++] = s ? s : strdup("");
}

void cc_table_print(struct cc_table *t, FILE *f)
{
	size_t w[32] = { 0 }, rows;
	int nc;

	if (!t)
		return;
	nc = t->ncols < 32 ? t->ncols : 32;
	for (int c = 0; c < nc; c++)
		w[c] = strlen(t->heads[c]);
	for (size_t i = 0; i < t->n; i++) {
		size_t l = t->cells[i] ? strlen(t->cells[i]) : 0;

		if (l > w[i % (size_t)t->ncols])
			w[i % (size_t)t->ncols] = l;
	}
	rows = (t->n + (size_t)t->ncols - 1) / (size_t)t->ncols;
	for (size_t r = 0; r <= rows; r++) {
		char line[4096];
		size_t o = 0;

		for (int c = 0; c < nc; c++) {
			const char *s;
			size_t l, pad;
			int right;

			if (r == 0) {
				s = t->heads[c];
				right = 0;
			} else {
				size_t i = (r - 1) * (size_t)t->ncols + (size_t)c;

				s = i < t->n && t->cells[i] ? t->cells[i] : "";
				right = t->right[c];
			}
			l = strlen(s);
			pad = w[c] - l;
			if (c && o < sizeof(line) - 2) {
				line[o++] = ' ';
				line[o++] = ' ';
			}
			for (size_t k = 0; right && k < pad && o < sizeof(line) - 1;
			     k++)
				line[o++] = ' ';
			for (size_t k = 0; k < l && o < sizeof(line) - 1; k++)
				line[o++] = s[k];
			for (size_t k = 0; !right && k < pad && o < sizeof(line) - 1;
			     k++)
				line[o++] = ' ';
		}
		while (o && line[o - 1] == ' ')
			o--;
		line[o] = 0;
		fprintf(f, "%s\n", line);
	}
}

void cc_table_free(struct cc_table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++)
		free(t->cells[i]);
	free(t->cells);
	free(t);
}

void cc_weightf(char *buf, size_t len, double v)
{
	float f = (float)v;

	if (f < -0.01f)
		snprintf(buf, len, "-");
	else if (f < 0.000001f)
		snprintf(buf, len, "0");
	else
		snprintf(buf, len, "%.5f", (double)f);
}

void cc_lowprec(char *buf, size_t len, double v)
{
	float f = (float)v;

	if (f < -0.01f)
		snprintf(buf, len, "-");
	else if (f < 0.001f)
		snprintf(buf, len, "0");
	else
		snprintf(buf, len, "%.2f", (double)f);
}
