/*
 * cmd_fsck.c - `crushfs fsck [--dry-run] [--deep]`: check and repair the
 * filesystem of an unmounted cluster (fs_fsck in fs.h): metadata against
 * itself, objects against the metadata (objects of no inode go to
 * /lost+found, data past the end of files), replicas against each other,
 * usage accounting against the disk.  One line per finding, then a
 * summary.  `crushfs fsck --rebuild-metadata [--force]`: a new metadata
 * store from the objects alone (fs_rebuild_metadata), progress on stderr.
 *
 * Exit status: 0 when nothing was wrong or everything found was repaired;
 * 1 when problems remain (always the case for findings with --dry-run),
 * when something could not be checked (a lost or unreadable metadata
 * store, objects of PGs with too few OSDs), or on errors.  "clean" is
 * printed only when everything was checked and nothing was wrong.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cluster.h"
#include "cmd_fs.h"
#include "fs.h"
#include "progress.h"
#include "usage.h"
#include "util.h"

static void line_out(const char *line, void *arg)
{
	(void)arg;
	printf("  %s\n", line);
}

/* fsck's findings on stdout, its progress on stderr: a finding first
 * clears a bar drawn on the same terminal */
struct fsck_out {
	struct cli_progress pr;
};

static void fsck_line(const char *line, void *arg)
{
	struct fsck_out *o = arg;

	cli_progress_done(&o->pr);
	fflush(stderr);
	line_out(line, NULL);
	fflush(stdout);
}

static void fsck_progress(uint64_t done, uint64_t total, uint64_t bytes,
			  void *arg)
{
	struct fsck_out *o = arg;

	cli_progress_update(&o->pr, done, total, bytes);
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

static void progress_err(const char *line, void *arg)
{
	(void)arg;
	fprintf(stderr, "rebuild: %s\n", line);
}

static int rebuild(struct cli_ctx *ctx, int force)
{
	struct fs_rebuild_report r;
	cfs_cluster *c;
	objlayer *ol;
	char err[1400] = "";
	int rc;

	if (open_cluster(ctx, &c, &ol))
		return 1;
	rc = fs_rebuild_metadata(c, ol, force, progress_err, NULL, &r, err,
				 sizeof(err));
	ol_close(ol);
	cfs_cluster_close(c);
	if (rc)
		return cli_err(ctx, "%s", *err ? err : cfs_strerror(rc));
	printf("metadata of %s rebuilt from %" PRIu64 " objects (%" PRIu64
	       " of files):\n",
	       ctx->cluster, r.objects, r.file_objects);
	printf("  %" PRIu64 " directories, %" PRIu64 " files, %" PRIu64
	       " others, %" PRIu64 " entries\n",
	       r.dirs, r.files, r.others, r.entries);
	printf("  %" PRIu64 " inode(s) without a backtrace, %" PRIu64
	       " directories known only from their contents, %" PRIu64
	       " stale name(s), %" PRIu64 " cycle(s)\n",
	       r.no_backtrace, r.dirs_remade, r.conflicts, r.cycles);
	if (r.lost_found)
		printf("  %" PRIu64 " entr%s in /lost+found, named by inode "
		       "number\n", r.lost_found,
		       r.lost_found == 1 ? "y" : "ies");
	if (*r.aside)
		printf("  the old metadata store is kept as %s\n", r.aside);
	printf("  new inode numbers start at %" PRIx64 "\n", r.next_ino);
	if (r.unreadable) {
		printf("%" PRIu64 " object(s) could not be read (see above): "
		       "their files are missing or short; run the rebuild "
		       "again once their PGs are back\n",
		       r.unreadable);
		return 1;
	}
	printf("done; `crushfs fsck` checks the result\n");
	return 0;
}

int cmd_fsck(struct cli_ctx *ctx, int argc, char **argv)
{
	int dry = 0, deep = 0, rebuild_md = 0, force = 0, rc, status;
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
		else if (cli_flag(argv[i], "--rebuild-metadata"))
			rebuild_md = 1;
		else if (cli_flag(argv[i], "--force"))
			force = 1;
		else if (!strcmp(argv[i], "-h") || cli_flag(argv[i], "--help")) {
			cli_usage_line(stdout, ctx->entry);
			return 0;
		} else
			return cli_err(ctx, "unknown argument '%s'", argv[i]);
	}
	if (rebuild_md && (dry || deep))
		return cli_err(ctx, "--rebuild-metadata takes no --dry-run or "
			       "--deep (run fsck afterwards)");
	if (force && !rebuild_md)
		return cli_err(ctx, "--force goes with --rebuild-metadata");
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
	if (rebuild_md)
		return rebuild(ctx, force);
	if (open_cluster(ctx, &c, &ol))
		return 1;
	printf("fsck of %s%s%s:\n", ctx->cluster, dry ? " (dry run)" : "",
	       deep ? " (deep)" : "");
	{
		struct fsck_out o;
		struct fs_fsck_opts fo = { !dry, deep, fsck_line, fsck_progress,
					   &o };

		cli_progress_init(&o.pr, stderr, isatty(STDERR_FILENO),
				  0, "fsck", "objects");
		rc = fs_fsck_opts(c, ol, &fo, &r);
		cli_progress_done(&o.pr);
	}
	ol_close(ol);
	cfs_cluster_close(c);
	if (*r.fatal)
		return cli_err(ctx, "%s", r.fatal); /* nothing was checked */
	if (rc && r.errors == 0)
		return cli_err(ctx, "%s", cfs_strerror(rc));

	/* Usage accounting is osdsim's: a reopen after marking it dirty
	 * rescans every OSD (osdsim.h, usage.dirty). */
	if (r.usage_drift && !dry) {
		char path[4096];
		int fd;

		snprintf(path, sizeof(path), "%s/usage.dirty", ctx->cluster);
		fd = open(path, O_WRONLY | O_CREAT, CFS_FILE_MODE);
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
		r.cluster_problems + r.bad_backtraces + r.count_drift +
		r.index_no_copy;
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
	if (r.bad_backtraces)
		printf("  backtraces missing, damaged or stale %" PRIu64
		       " (of %" PRIu64 ")\n", r.bad_backtraces, r.backtraces);
	if (r.index_no_copy)
		printf("  index entries of objects that never reached an OSD "
		       "%" PRIu64 "\n", r.index_no_copy);
	if (r.lost_objects)
		printf("  objects lost (no copy on any OSD) %" PRIu64 "\n",
		       r.lost_objects);
	if (r.adopted)
		printf("  %" PRIu64 " inode(s) remade in /lost+found from "
		       "objects no inode owned\n", r.adopted);
	r.unchecked += r.unchecked_backtraces;
	if (r.unchecked)
		printf("  NOT CHECKED: %" PRIu64 " object(s) in %" PRIu64
		       " PG(s) with fewer OSDs than min_size, %" PRIu64
		       " backtrace(s)\n",
		       r.unchecked - r.unchecked_backtraces, r.unchecked_pgs,
		       r.unchecked_backtraces);
	if (r.remapped_pgs)
		printf("  %" PRIu64 " PG(s) remapped: their data is served from "
		       "the OSDs it is on until `crushfs rebalance` moves it "
		       "(not a problem)\n", r.remapped_pgs);
	/* what is still wrong, or not known to be right */
	left = (dry ? found : r.cluster_problems) + (uint64_t)r.errors +
	       r.unchecked;
	if (found == 0 && r.errors == 0 && r.unchecked == 0)
		printf("clean\n");
	else if (dry)
		printf("%" PRIu64 " problem(s) found%s%s\n", found,
		       found ? "; run without --dry-run to repair" : "",
		       r.errors + r.unchecked ?
			       "; the check is incomplete (see above)" : "");
	else
		printf("%" PRIu64 " problem(s) found, %" PRIu64
		       " repair(s) made%s%s\n",
		       found, r.repaired,
		       r.cluster_problems + (uint64_t)r.errors ?
			       "; some problems remain" : "",
		       r.unchecked ? "; the check is incomplete (see above)"
				   : "");
	return left ? 1 : 0;
}
