/*
 * cmd_fs.h - the filesystem commands (mount, umount, locate, fsck) and the
 * admin socket plumbing shared with the cluster commands.
 *
 * A command that must act on a mounted cluster runs inside the daemon:
 * the CLI forwards its command line over DIR/crushfs.asok (cli_forward),
 * and the daemon runs the same code in-process (cli_admin_run) on its
 * open cluster, writing to the FILEs of a struct cli_env instead of
 * stdout/stderr.
 */
#ifndef CRUSHFS_CMD_FS_H
#define CRUSHFS_CMD_FS_H

#include <stdint.h>
#include <stdio.h>

#include "cli.h"

typedef struct cfs_cluster cfs_cluster;
typedef struct objlayer objlayer;
typedef struct fs_meta fs_meta;

/* What a command runs against, and where it writes. */
struct cli_env {
	cfs_cluster *c;
	objlayer *ol;
	fs_meta *meta; /* NULL when the command does not need it */
	FILE *out, *err;
};

/* Handlers for main.c's table. */
int cmd_mount(struct cli_ctx *ctx, int argc, char **argv);
int cmd_umount(struct cli_ctx *ctx, int argc, char **argv);
int cmd_locate(struct cli_ctx *ctx, int argc, char **argv);
int cmd_fsck(struct cli_ctx *ctx, int argc, char **argv);

/*
 * Forward the command (ctx->cmd plus argc/argv, with -f as given) to the
 * daemon of ctx->cluster.  Returns 1 when a daemon ran it (*status: its
 * exit status, its output already printed), 0 when no daemon is there
 * (run the command locally).
 */
int cli_forward(struct cli_ctx *ctx, int argc, char **argv, int *status);

/* The daemon side: run a forwarded command line (global options first)
 * against the daemon's cluster (fs_admin_fn, see fs.h). */
struct fs_admin_io;
int cli_admin_run(cfs_cluster *c, objlayer *ol, fs_meta *meta, int argc,
		  char **argv, const struct fs_admin_io *io, void *arg);

/* locate and ls-by-osd, runnable in the CLI (offline) and in the
 * daemon. */
int cli_locate_run(struct cli_ctx *ctx, struct cli_env *env, int argc,
		   char **argv);
int cli_ls_by_osd_run(struct cli_ctx *ctx, struct cli_env *env, int argc,
		      char **argv);
int cmd_ls_by_osd(struct cli_ctx *ctx, int argc, char **argv);
/* The named files with a data object copy on the OSD (its acting sets),
 * in no order; free with cli_osd_files_free. */
struct cli_osd_file {
	char *path;
	uint64_t ino, objects;
};
int cli_files_on_osd(struct cli_env *env, int osd, struct cli_osd_file **out,
		     size_t *n);
void cli_osd_files_free(struct cli_osd_file *v, size_t n);
/* report, runnable in the CLI (offline) and in the daemon. */
int cli_report_run(struct cli_ctx *ctx, struct cli_env *env, int argc,
		   char **argv);
int cmd_report(struct cli_ctx *ctx, int argc, char **argv);
/* Run a metadata command on the unmounted cluster (read-only). */
int cli_run_offline(struct cli_ctx *ctx,
		    int (*run)(struct cli_ctx *ctx, struct cli_env *env,
			       int argc, char **argv),
		    int argc, char **argv);

#endif
