/*
 * cluster_cmds.h - the cluster commands (status, osd df, osd out, rados
 * put, rebalance, ...) as functions over an already opened cluster.
 *
 * Every command is `int fn(struct cmd_ctx *ctx, int argc, char **argv)`:
 * it gets the open cluster and object layer, its own arguments (after the
 * command words, global options removed) and the streams to write to, and
 * returns the exit status (0 ok, 1 error).  It never opens the cluster,
 * never touches stdout/stderr directly and never exits, so the mounted
 * daemon runs the very same function in-process on its live cluster (the
 * admin socket streams out/err back to the CLI), and the CLI runs it after
 * cluster_cmd_exec() opened the cluster with the right lock.
 *
 * Output: text like Ceph's by default, JSON (jansson, one line) with
 * ctx->json.  Errors: one line on ctx->err, "crushfs: CMD: what".
 */
#ifndef CRUSHFS_CLUSTER_CMDS_H
#define CRUSHFS_CLUSTER_CMDS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct cfs_cluster cfs_cluster;
typedef struct objlayer objlayer;
typedef struct cfs_osdmap cfs_osdmap;
typedef struct pl_map pl_map;
struct cfs_pool_info;

struct cmd_ctx {
	cfs_cluster *cluster; /* open (read-only unless CCMD_WRITE) */
	objlayer *ol;	      /* on cluster */
	FILE *out, *err;
	int json;	   /* -f json (2: json-pretty, indented) */
	int tty;	   /* err is a terminal: progress may be drawn */
	const char *cmd;   /* "osd out": the prefix of error lines */
	const char *args;  /* the synopsis, for usage errors */
	/* Data streams (`rados put NAME -`, `rados get NAME -`): the
	 * process's stdin/stdout, or in the daemon the client's, passed
	 * over the admin socket (-1: none came).  watch_fd >= 0 is the
	 * client's connection: transfers stop when it goes away
	 * (cfs_read_watch / cfs_write_watch). */
	int in_fd, out_fd, watch_fd;
	/* run by the mounted daemon for a client (its filesystem is up:
	 * `fs status` shows its MDS) */
	int mounted;
	/* `rados -p POOL`: the pool the rados commands work on (cmd_rados.c
	 * sets it; the data pool by default) */
	int64_t pool;
};

typedef int (*cluster_cmd_fn)(struct cmd_ctx *ctx, int argc, char **argv);

#define CCMD_WRITE 0x1 /* may change the cluster: exclusive lock */
#define CCMD_DRYRUN 0x2 /* takes --dry-run (whatif.c) */
#define CCMD_NOJSON 0x4 /* has no -f json form (main.c refuses it) */
#define CCMD_HIDDEN 0x8 /* not in --help, the man page or completion */

struct cluster_cmd {
	const char *name; /* "osd df" */
	cluster_cmd_fn fn;
	unsigned flags;
	const char *args; /* synopsis after the name */
	const char *help;
};

/* The table (cmd_cluster.c), and lookup by exact name. */
extern const struct cluster_cmd cluster_cmds[];
extern const int cluster_ncmds;
const struct cluster_cmd *cluster_cmd_find(const char *name);

/*
 * The CLI path: open the cluster at dir (exclusive lock for CCMD_WRITE,
 * shared otherwise), run the command, close.  Returns the exit status.
 */
int cluster_cmd_exec(const struct cluster_cmd *cmd, const char *dir,
		     int json, int argc, char **argv, FILE *out, FILE *err);

/* Entry points for cli/main.c's dispatch table (struct cli_ctx). */
struct cli_ctx;
int cmd_cluster(struct cli_ctx *ctx, int argc, char **argv);
int cmd_mkfs(struct cli_ctx *ctx, int argc, char **argv);
int cmd_import_ceph(struct cli_ctx *ctx, int argc, char **argv);
/* mkfs with argv; source names an imported snapshot in the report (NULL:
 * its folder) */
int cc_mkfs(struct cli_ctx *ctx, int argc, char **argv, const char *source);
struct cfs_mkfs_opts;
/* mkfs --backend rados: check the pool (it exists; empty unless
 * o->force), snapshot its cluster into snap (a new /tmp folder the
 * caller removes) and point o at it, with *backend (malloc'ed) the
 * backend.json text.  0, or 1 after printing the error. */
int cc_rados_prepare(struct cli_ctx *ctx, struct cfs_mkfs_opts *o,
		     const char *conf, const char *pool, const char *id,
		     char *snap, size_t snaplen, char **backend);

/* Run cmd, or with --dry-run among argv, what it would do (whatif.c). */
/* cmd_log.c: a CCMD_WRITE command in the cluster log's audit channel,
 * as Ceph's monitor logs one ("...: dispatch" with rc -1 before it
 * runs, "...: finished" after it succeeded) */
void cc_audit(struct cmd_ctx *ctx, const struct cluster_cmd *cmd, int argc,
	      char **argv, int rc);
int cc_run(const struct cluster_cmd *cmd, struct cmd_ctx *ctx, int argc,
	   char **argv);
/* The map now and the map cmd (with argv) would install, nothing
 * changed (osdsim's dry run); *what gets the command line.  0, or 1
 * after the error line.  The caller puts both maps. */
int cc_dry_run_maps(const struct cluster_cmd *cmd, struct cmd_ctx *ctx,
		    int argc, char **argv, char *what, size_t wlen,
		    const cfs_osdmap **oldp, const cfs_osdmap **newp);
/* --recovery-rate SIZE / --max-backfills N at argv[*i]: 1 taken (*i on
 * its value), 0 not such an option, -1 bad value (error printed). */
int cc_recovery_opt(struct cmd_ctx *ctx, int argc, char **argv, int *i,
		    uint64_t *rate, int *max_backfills);
/* The backfill estimate line of a what-if (mgr_backfill_seconds). */
struct mgr_whatif;
int cc_backfill_line(char *buf, size_t len, const struct mgr_whatif *w,
		     uint64_t rate, int max_backfills);

/* ---- the commands ---- */
int ccmd_status(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_health(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_df(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_osd_df(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_osd_tree(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_pg_dump(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_osd_map(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_osd_out(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_osd_in(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_osd_down(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_osd_up(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_osd_reweight(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_osd_crush_reweight(struct cmd_ctx *ctx, int argc, char **argv);
/* cmd_balancer.c */
int ccmd_balancer_eval(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_balancer_status(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_balancer_mode(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_balancer_on(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_balancer_off(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_fs_ls(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_fs_add_data_pool(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_fs_rm_data_pool(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_config_set(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_config_get(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_config_rm(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_config_dump(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_balancer_optimize(struct cmd_ctx *ctx, int argc, char **argv);
/* cmd_reweight.c */
int ccmd_osd_test_reweight_by_utilization(struct cmd_ctx *ctx, int argc,
					  char **argv);
int ccmd_osd_reweight_by_utilization(struct cmd_ctx *ctx, int argc,
				     char **argv);
int ccmd_osd_test_reweight_by_pg(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_osd_reweight_by_pg(struct cmd_ctx *ctx, int argc, char **argv);
/* cmd_analyze.c */
int ccmd_analyze(struct cmd_ctx *ctx, int argc, char **argv);
/* cmd_osddump.c */
int ccmd_osd_dump(struct cmd_ctx *ctx, int argc, char **argv);
/* cmd_flags.c */
int ccmd_osd_set(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_osd_unset(struct cmd_ctx *ctx, int argc, char **argv);
/* cmd_osdsafe.c (exit status 0, EBUSY or EAGAIN, as Ceph's) */
int ccmd_osd_ok_to_stop(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_osd_safe_to_destroy(struct cmd_ctx *ctx, int argc, char **argv);
/* cmd_mute.c: `health mute|unmute`, and how health shows mutes */
int ccmd_health_mute(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_health_unmute(struct cmd_ctx *ctx, int argc, char **argv);
struct cfs_health;
/* " (muted: CODE(ttl) ...)" after the health line, nothing without mutes */
void cc_mutes_line(FILE *f, const struct cfs_health *h);
/* Ceph's utimespan_str of sec seconds: "61s", "2h", "3d" */
void cc_timespan(char *buf, size_t len, int64_t sec);
/* "(MUTED[ ttl T][, STICKY]) " before a muted check's detail line */
void cc_mute_prefix(FILE *f, const struct cfs_health *h, const char *code);

/* cmd_pool.c */
int ccmd_osd_pool_ls(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_osd_pool_get(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_osd_pool_set(struct cmd_ctx *ctx, int argc, char **argv);
/* its --dry-run for pg_num (whatif.c hands it over) */
int cc_pool_pg_num_dry_run(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_osd_pool_set_quota(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_osd_pool_get_quota(struct cmd_ctx *ctx, int argc, char **argv);
/* The pool's line as `ceph osd dump` / `osd pool ls detail` print it. */
/* pg_pool_t's operator<< line of pool p (`osd dump`, `osd pool ls
 * detail`) */
void cc_pool_line(FILE *o, cfs_cluster *c, const cfs_osdmap *m,
		  const struct cfs_pool_info *p);
/* The pool named (or numbered) s, else NULL after Ceph's error line. */
const struct cfs_pool_info *cc_pool_arg(struct cmd_ctx *ctx,
					const cfs_osdmap *m, const char *s);
/* The pool other than the data pool that s names (by name, id, or the
 * pool of a pgid), else NULL: crushfs stores nothing there, so the
 * commands that work on objects or upmaps say so. */
const struct cfs_pool_info *cc_other_pool(const cfs_osdmap *m,
					  const char *s);
/* 1 when s names a pool that can hold objects (a replicated one) */
int cc_pool_holds_objects(struct cmd_ctx *ctx, const char *s);
int ccmd_osd_pool_create(struct cmd_ctx *ctx, int argc, char **argv);
/* the rule `osd crush rule create-erasure NAME PROFILE` makes, silently
 * (none made when one of that name exists) */
int cc_ec_rule_create(struct cmd_ctx *ctx, const char *name,
		      const char *profile);
int ccmd_osd_pool_rm(struct cmd_ctx *ctx, int argc, char **argv);
/* The rule named name, or -1. */
int cc_rule_by_name(const pl_map *cm, const char *name);
/* cmd_rule.c */
int ccmd_osd_crush_rule_ls(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_osd_crush_rule_dump(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_osd_crush_rule_create_replicated(struct cmd_ctx *ctx, int argc,
					  char **argv);
int ccmd_osd_crush_rule_create_erasure(struct cmd_ctx *ctx, int argc,
				       char **argv);
/* cmd_ecprofile.c */
int ccmd_osd_ec_profile_set(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_osd_ec_profile_get(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_osd_ec_profile_ls(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_osd_ec_profile_rm(struct cmd_ctx *ctx, int argc, char **argv);
/* cmd_upmap.c */
int ccmd_osd_pg_upmap(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_osd_pg_upmap_items(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_osd_rm_pg_upmap(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_osd_rm_pg_upmap_items(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_osd_setcrushmap(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_osd_primary_affinity(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_osd_set_capacity(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_osd_add(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_set_full_ratio(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_set_backfillfull_ratio(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_set_nearfull_ratio(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_set_full_policy(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_rebalance(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_pg_ls(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_pg_ls_by_osd(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_pg_ls_by_primary(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_pg_ls_by_pool(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_osd_ls(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_osd_find(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_pg_scrub(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_pg_deep_scrub(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_pg_repair(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_scrub(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_check(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_rados_put(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_rados_get(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_rados_stat(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_rados_rm(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_rados_ls(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_rados_bench(struct cmd_ctx *ctx, int argc, char **argv);

/* cmd_crush_tree.c, cmd_crush_dump.c, cmd_pgmap.c */
int ccmd_osd_crush_tree(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_osd_crush_ls(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_osd_crush_dump(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_osd_getcrushmap(struct cmd_ctx *ctx, int argc, char **argv);
/* main.c's row: -o FILE made the standard output, then cmd_cluster */
int cmd_osd_getcrushmap(struct cli_ctx *ctx, int argc, char **argv);
int ccmd_pg_map(struct cmd_ctx *ctx, int argc, char **argv);
/* cmd_complete.c: `__complete KIND`, the words the bash completion offers */
int ccmd_complete(struct cmd_ctx *ctx, int argc, char **argv);
/* the state words `pg ls` takes, NULL-terminated (cmd_pgls.c) */
const char *const *cc_pg_state_words(void);
/* cmd_fsstatus.c */
int ccmd_fs_status(struct cmd_ctx *ctx, int argc, char **argv);
/* CrushWrapper::dump_rule's JSON of rule r (cmd_rule.c) */
struct json_t *cc_rule_json(const pl_map *cm, int r);
/* ---- mgr/'s answers (cmd_status.c, cmd_osd_df.c, cmd_pgstat.c) ---- */
int ccmd_osd_stat(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_pg_stat(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_pg_dump_stuck(struct cmd_ctx *ctx, int argc, char **argv);
int ccmd_osd_pool_stats(struct cmd_ctx *ctx, int argc, char **argv);
/* cmd_pool_app.c */
int ccmd_osd_pool_application_enable(struct cmd_ctx *ctx, int argc,
				     char **argv);
int ccmd_osd_pool_application_disable(struct cmd_ctx *ctx, int argc,
				      char **argv);
int ccmd_osd_pool_application_get(struct cmd_ctx *ctx, int argc,
				  char **argv);
int ccmd_osd_pool_application_set(struct cmd_ctx *ctx, int argc,
				  char **argv);
int ccmd_osd_pool_application_rm(struct cmd_ctx *ctx, int argc, char **argv);
struct mgr_snap;
/* mgr_snap_take on ctx's cluster (MGR_SNAP_* flags): 0, or the exit
 * status after one error line */
int cc_snap(struct cmd_ctx *ctx, unsigned flags, struct mgr_snap *s);
/* OSDMap::print_summary's "6 osds: 5 up, 6 in; 3 remapped pgs" (epoch:
 * with "; epoch: eN" as `osd stat` has it) */
void cc_osd_summary(FILE *f, const struct mgr_snap *s, int epoch);
/* Ceph's si_u_t: "999", "12.3k" */
const char *cc_si_u(char *buf, size_t len, uint64_t v);

/* ---- helpers shared by the cmd_*.c files of the cluster commands ---- */
/* "[0,NONE,3]": Ceph's pg_vector_string, the text form of an up or acting
 * set (cmd_status.c) */
void cc_pg_vector_string(char *buf, size_t len, const int *v, int n);
/* "crushfs: CMD: msg" on ctx->err; returns 1. */
int cc_err(struct cmd_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Usage error, one line: "crushfs: CMD: msg (usage: crushfs CMD ARGS)";
 * returns 1. */
int cc_usage(struct cmd_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* An existing OSD id from "3" or "osd.3" (error line and 1 if not). */
int cc_osd_arg(struct cmd_ctx *ctx, const char *s, int *id);
/* A decimal in [lo, hi] (error line naming what and 1 if not). */
int cc_double_arg(struct cmd_ctx *ctx, const char *what, const char *s,
		  double lo, double hi, double *out);
int cc_size_arg(struct cmd_ctx *ctx, const char *what, const char *s,
		uint64_t *out);
/* A change's result line (text) or {"epoch": N, "message": ...}. */
int cc_done_epoch(struct cmd_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Exactly n positional arguments, no options. */
int cc_nargs(struct cmd_ctx *ctx, int argc, char **argv, int n);
/* Print a jansson value (consumed) as one line. */
struct json_t;
int cc_json_out(struct cmd_ctx *ctx, struct json_t *v);
/* One PG as `ceph pg dump -f json` lists it (cmd_status.c). */
struct ol_pg_stat;
struct json_t *cc_pg_json(const struct ol_pg_stat *g);

/* A text table like Ceph's TextTable: headings left-aligned, cells
 * aligned per column, two spaces between columns. */
struct cc_table;
struct cc_table *cc_table_new(int ncols, const char *const *heads,
			      const int *right);
void cc_table_cell(struct cc_table *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void cc_table_print(struct cc_table *t, FILE *f);
void cc_table_free(struct cc_table *t);

/* Ceph's weightf_t ("0.00098", "0", "-") and lowprecision_t ("0.25"). */
void cc_weightf(char *buf, size_t len, double v);
void cc_lowprec(char *buf, size_t len, double v);

#endif
