/*
 * cmd_fsck.c - `crushfs fsck [--dry-run] [--deep]`: check and repair the
 * filesystem of an unmounted cluster (fs_fsck in fs.h): metadata against
 * itself, objects against the metadata (orphan objects, data past the
 * end of files), replicas against each other, usage accounting against
 * the disk.  One line per finding, then a summary.
 *
 * Exit status: 0 when nothing was wrong or everything found was repaired,
 * 1 when problems remain (always the case for findings with --dry-run).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cmd_fs.h"
#include "fs.h"
#include "osdsim.h"
#include "util.h"

static void line_out(const char *line, void *arg)
{
	(void)arg;
	printf("  %s\n", line);
}

static int open_cluster(struct cli_ctx *ctx, cfs_cluster **c, objlayer **ol)
{
	char err[1024];
	int rc = cfs_cluster_open(ctx->cluster, 0, c, err, sizeof(err));

	if (rc)
		return cli_err(ctx, "%s", err);
	rc = ol_open(*c, ol);
	if (rc) {
		cfs_cluster_close(*c);
		return cli_err(ctx, "%s: %s", ctx->cluster, cfs_strerror(rc));
	}
	return 0;
}

int cmd_fsck(struct cli_ctx *ctx, int argc, char **argv)
{
	int dry = 0, deep = 0, rc, status;
	struct fs_fsck_report r;
	cfs_cluster *c;
	objlayer *ol;
	uint64_t found, left;
	char sz[32];

	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "-n") || cli_flag(argv[i], "--dry-run"))
			dry = 1;
		else if (cli_flag(argv[i], "--deep"))
			deep = 1;
		else if (!strcmp(argv[i], "-h") || cli_flag(argv[i], "--help")) {
			cli_usage_line(stdout, ctx->entry);
			return 0;
		} else
			return cli_err(ctx, "unknown argument '%s'", argv[i]);
	}
	/* A live daemon: fsck would race with it. */
	{
		char *av[] = { "__mountinfo", NULL }, *buf = NULL;
		size_t len = 0;
		FILE *out = open_memstream(&buf, &len);

		if (out && fs_admin_call(ctx->cluster, 1, av, out, NULL,
					 &status) == 0) {
			fclose(out);
			if (strchr(buf, '\n'))
				*strchr(buf, '\n') = '\0';
			rc = cli_err(ctx, "cluster %s is mounted at %s: unmount "
				     "it first",
				     ctx->cluster, buf);
			free(buf);
			return rc;
		}
		if (out)
			fclose(out);
		free(buf);
	}
	if (open_cluster(ctx, &c, &ol))
		return 1;
	printf("fsck of %s%s%s:\n", ctx->cluster, dry ? " (dry run)" : "",
	       deep ? " (deep)" : "");
	rc = fs_fsck(c, ol, !dry, deep, line_out, NULL, &r);
	ol_close(ol);
	cfs_cluster_close(c);
	if (rc && r.errors == 0)
		return cli_err(ctx, "%s", cfs_strerror(rc));

	/* Usage accounting is osdsim's: a reopen after marking it dirty
	 * rescans every OSD (osdsim.h, usage.dirty). */
	if (r.usage_drift && !dry) {
		char path[4096];
		int fd;

		snprintf(path, sizeof(path), "%s/usage.dirty", ctx->cluster);
		fd = open(path, O_WRONLY | O_CREAT, 0644);
		if (fd >= 0)
			close(fd);
		if (open_cluster(ctx, &c, &ol))
			return 1;
		{
			struct cfs_check_report cr;

			memset(&cr, 0, sizeof(cr));
			cfs_cluster_check(c, 0, &cr, NULL, NULL);
			if (cr.usage_mismatches == 0) {
				printf("  usage of %" PRIu64 " OSD(s) rescanned "
				       "from disk: repaired\n",
				       r.usage_drift);
				r.repaired += r.usage_drift;
			} else {
				printf("  usage still differs on %d OSD(s) "
				       "after a rescan\n",
				       cr.usage_mismatches);
				r.errors++;
			}
		}
		ol_close(ol);
		cfs_cluster_close(c);
	}

	found = r.orphans_purged + r.dangling_dentries + r.bad_nlink +
		r.bad_parent + r.lost_inodes + r.orphan_objects +
		r.beyond_eof + r.bad_replicas + r.usage_drift +
		r.cluster_problems + r.count_drift;
	printf("checked %" PRIu64 " inodes, %" PRIu64 " entries, %" PRIu64
	       " objects\n",
	       r.inodes, r.dentries, r.objects);
	printf("  unlinked files purged %" PRIu64 ", dangling entries %" PRIu64
	       ", link counts %" PRIu64 ", parents %" PRIu64
	       ", lost inodes %" PRIu64 "\n",
	       r.orphans_purged, r.dangling_dentries, r.bad_nlink,
	       r.bad_parent, r.lost_inodes);
	printf("  orphan objects %" PRIu64 " (%s), objects past EOF %" PRIu64
	       ", bad replica copies %" PRIu64 ", usage drift %" PRIu64
	       " OSD(s), stray files %" PRIu64 "\n",
	       r.orphan_objects, cfs_format_size(r.orphan_bytes, sz, sizeof(sz)),
	       r.beyond_eof, r.bad_replicas, r.usage_drift, r.cluster_problems);
	left = dry ? found : (r.cluster_problems + (uint64_t)r.errors);
	if (found == 0 && r.errors == 0)
		printf("clean\n");
	else if (dry)
		printf("%" PRIu64 " problem(s) found; run without --dry-run to "
		       "repair\n",
		       found);
	else
		printf("%" PRIu64 " problem(s) found, %" PRIu64
		       " repair(s) made%s\n",
		       found, r.repaired,
		       left ? "; some problems remain" : "");
	return left ? 1 : 0;
}
