/*
 * cmd_locate.c - `crushfs locate PATH`: where a file's data lives.
 *
 * Every object of the file, as `ceph osd map` shows one object (PG, up
 * and acting sets with their primaries), then the object's file on each
 * acting OSD (where it is served from) and on each up OSD outside the
 * acting set (a backfill target while a pg_temp holds the PG elsewhere:
 * its copy is there once `rebalance` made it); then how many objects
 * each OSD holds.  With -f json, the
 * same as one JSON object.
 *
 * PATH is a path in the mounted filesystem (the CLI asks the daemon,
 * which knows the inode), or, when the cluster is not mounted, a path from
 * the filesystem's root ("/dir/file").  A path on a crushfs mount is
 * answered only by the cluster that serves it: the CLI reads the mount's
 * ceph.cluster_fsid vxattr (the kernel asks the daemon serving the path)
 * and the cluster compares it with its own, so `--cluster A locate
 * /mnt/B/f` is refused instead of showing A's inode of the same number.
 * A path that exists here but on no crushfs mount is refused too, unless
 * the cluster is not mounted and its filesystem has that path.
 */
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "cli.h"
#include "cluster.h"
#include "cmd_fs.h"
#include "fs.h"
#include "objlayer.h"
#include "osdmap.h"
#include "util.h"

#define FUSE_SUPER_MAGIC 0x65735546

static int lerr(const struct cli_ctx *ctx, FILE *err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int lerr(const struct cli_ctx *ctx, FILE *err, const char *fmt, ...)
{
	va_list ap;

	fprintf(err, "crushfs: %s: ", ctx->cmd ? ctx->cmd : "locate");
	va_start(ap, fmt);
	vfprintf(err, fmt, ap);
	va_end(ap);
	fputc('\n', err);
	return 1;
}

struct osd_count {
	uint64_t objects, primary;
};

static void put_set(FILE *f, const int *v, int n, int primary)
{
	fputs("([", f);
	for (int i = 0; i < n; i++)
		fprintf(f, "%s%d", i ? "," : "", v[i]);
	fprintf(f, "], p%d)", primary);
}

static json_t *int_array(const int *v, int n)
{
	json_t *a = json_array();

	for (int i = 0; i < n; i++)
		json_array_append_new(a, json_integer(v[i]));
	return a;
}

/* Run with an open cluster; the file is `ino` (or PATH resolved). */
int cli_locate_run(struct cli_ctx *ctx, struct cli_env *env, int argc,
		   char **argv)
{
	const char *path = NULL, *fsid = NULL;
	uint64_t ino = 0, nobj;
	int have_ino = 0, off_mount = 0, json, rc, maxosd;
	struct fs_inode_info fi;
	struct osd_count *counts = NULL;
	const cfs_osdmap *map;
	char ls[64];
	json_t *root = NULL, *objs = NULL;

	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--ino") && i + 1 < argc) {
			char *end;

			errno = 0;
			ino = strtoull(argv[++i], &end, 0);
			if (errno || *end)
				return lerr(ctx, env->err, "--ino: bad number "
					    "'%s'", argv[i]);
			have_ino = 1;
		} else if (!strcmp(argv[i], "--name") && i + 1 < argc) {
			path = argv[++i];
		} else if (!strcmp(argv[i], "--fsid") && i + 1 < argc) {
			/* the fsid of the mount PATH is on (cmd_locate) */
			fsid = argv[++i];
		} else if (!strcmp(argv[i], "--off-mount")) {
			/* PATH exists on this machine, on no crushfs mount */
			off_mount = 1;
		} else if (!strcmp(argv[i], "-f") && i + 1 < argc) {
			ctx->format = strncmp(argv[++i], "json", 4) ?
					      CLI_FMT_PLAIN :
					      CLI_FMT_JSON;
			ctx->pretty = strcmp(argv[i], "json-pretty") == 0;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return lerr(ctx, env->err, "unknown option '%s'",
				    argv[i]);
		} else if (!path) {
			path = argv[i];
		} else {
			return lerr(ctx, env->err, "unexpected argument '%s'",
				    argv[i]);
		}
	}
	if (!path && !have_ino)
		return lerr(ctx, env->err, "missing PATH (usage: crushfs locate "
			    "PATH)");
	if (!env->meta)
		return lerr(ctx, env->err, "no filesystem metadata");
	if (fsid) {
		char own[64];

		ol_cluster_fsid(env->c, own, sizeof(own));
		if (strcmp(fsid, own))
			return lerr(ctx, env->err, "%s is on the mount of "
				    "another cluster (fsid %s), not of %s "
				    "(fsid %s)", path ? path : "the path", fsid,
				    ol_cluster_dir(env->c), own);
	}
	if (off_mount && fs_meta_mountpoint(env->meta))
		return lerr(ctx, env->err, "%s is not on a crushfs mount (%s "
			    "is mounted on %s)", path ? path : "the path",
			    ol_cluster_dir(env->c),
			    fs_meta_mountpoint(env->meta));
	if (!have_ino) {
		rc = fs_meta_resolve(env->meta, path, &ino);
		if (rc == -ENOENT && off_mount)
			return lerr(ctx, env->err, "%s is not on a crushfs "
				    "mount, nor in the filesystem of %s (it is "
				    "not mounted: give the path from the "
				    "filesystem's root)", path,
				    ol_cluster_dir(env->c));
		if (rc)
			return lerr(ctx, env->err, "%s: %s%s", path,
				    cfs_strerror(rc),
				    rc == -ENOENT && !fs_meta_mountpoint(
							     env->meta) ?
					    " (the cluster is not mounted: "
					    "give the path from the "
					    "filesystem's root)" :
					    "");
	}
	rc = fs_meta_stat(env->meta, ino, &fi);
	if (rc)
		return lerr(ctx, env->err, "%s: %s", path ? path : "inode",
			    cfs_strerror(rc));
	if (!S_ISREG(fi.mode))
		return lerr(ctx, env->err, "%s: not a regular file (only "
			    "files have objects)", path ? path : "inode");
	json = ctx->format == CLI_FMT_JSON;
	nobj = ol_object_count(&fi.layout, fi.size);
	map = cfs_osdmap_get(env->c);
	maxosd = cfs_osdmap_max_osd(map);
	cfs_osdmap_put(map);
	counts = calloc((size_t)maxosd + 1, sizeof(*counts));
	if (!counts)
		return lerr(ctx, env->err, "out of memory");
	if (json) {
		root = json_object();
		json_object_set_new(root, "path", json_string(path ? path : ""));
		json_object_set_new(root, "ino", json_integer((json_int_t)ino));
		snprintf(ls, sizeof(ls), "%" PRIx64, ino);
		json_object_set_new(root, "ino_hex", json_string(ls));
		json_object_set_new(root, "size",
				    json_integer((json_int_t)fi.size));
		json_t *lay = json_object();

		json_object_set_new(lay, "stripe_unit",
				    json_integer(fi.layout.stripe_unit));
		json_object_set_new(lay, "stripe_count",
				    json_integer(fi.layout.stripe_count));
		json_object_set_new(lay, "object_size",
				    json_integer(fi.layout.object_size));
		json_object_set_new(lay, "pool", json_integer(fi.layout.pool));
		json_object_set_new(root, "layout", lay);
		objs = json_array();
		json_object_set_new(root, "objects", objs);
	} else {
		fprintf(env->out,
			"%s: inode %" PRIx64 ", %" PRIu64 " bytes, %" PRIu64
			" objects (stripe_unit=%u stripe_count=%u "
			"object_size=%u pool=%" PRId64 ")\n",
			path ? path : "", ino, fi.size, nobj,
			fi.layout.stripe_unit, fi.layout.stripe_count,
			fi.layout.object_size, fi.layout.pool);
	}
	for (uint64_t o = 0; o < nobj; o++) {
		struct ol_placement p;
		char name[64];
		json_t *jo = NULL, *paths = NULL;

		ol_object_name(ino, o, name, sizeof(name));
		rc = ol_locate(env->ol, fi.layout.pool, name, &p);
		if (rc) {
			json_decref(root);
			free(counts);
			return lerr(ctx, env->err, "%s: %s", name,
				    cfs_strerror(rc));
		}
		if (json) {
			jo = json_object();
			json_object_set_new(jo, "name", json_string(name));
			json_object_set_new(jo, "pgid", json_string(p.pgid));
			json_object_set_new(jo, "up", int_array(p.up, p.nup));
			json_object_set_new(jo, "up_primary",
					    json_integer(p.up_primary));
			json_object_set_new(jo, "acting",
					    int_array(p.acting, p.nacting));
			json_object_set_new(jo, "acting_primary",
					    json_integer(p.acting_primary));
			json_object_set_new(jo, "exists", json_boolean(p.exists));
			json_object_set_new(jo, "size",
					    json_integer((json_int_t)p.size));
			paths = json_array();
			json_object_set_new(jo, "copies", paths);
			json_array_append_new(objs, jo);
		} else {
			fprintf(env->out, "%s -> pg %s -> up ", name, p.pgid);
			put_set(env->out, p.up, p.nup, p.up_primary);
			fputs(" acting ", env->out);
			put_set(env->out, p.acting, p.nacting,
				p.acting_primary);
			fputs(p.exists ? "\n" : "  (hole: never written)\n",
			      env->out);
		}
		for (int k = 0; k < p.nacting + p.nup; k++) {
			char opath[4096];
			struct stat st;
			int osd = k < p.nacting ? p.acting[k]
						: p.up[k - p.nacting],
			    there, target = k >= p.nacting;

			if (osd < 0)
				continue;
			if (target) {
				int dup = 0;

				for (int i = 0; i < p.nacting; i++)
					dup |= p.acting[i] == osd;
				if (dup)
					continue;
			}
			if (ol_is_rados(env->ol)) {
				/* the live cluster keeps a copy on each acting
				 * OSD once the write is acknowledged */
				snprintf(opath, sizeof(opath), "rados");
				there = p.exists && !target;
				st.st_size = (off_t)p.size;
			} else {
				if (ol_object_path(env->ol, fi.layout.pool, name, osd, opath,
						   sizeof(opath)) != 0)
					snprintf(opath, sizeof(opath), "?");
				there = stat(opath, &st) == 0;
			}
			if (there && osd <= maxosd && !target) {
				counts[osd].objects++;
				if (osd == p.acting_primary)
					counts[osd].primary++;
			}
			if (json) {
				json_t *c = json_object();

				json_object_set_new(c, "osd", json_integer(osd));
				json_object_set_new(c, "path",
						    json_string(opath));
				json_object_set_new(c, "exists",
						    json_boolean(there));
				json_object_set_new(
					c, "role",
					json_string(target ? "backfill_target"
							   : "acting"));
				json_object_set_new(
					c, "size",
					json_integer(there ? (json_int_t)
								     st.st_size :
							     0));
				json_array_append_new(paths, c);
			} else if (target && p.exists) {
				/* up, not acting yet: what backfill did */
				fprintf(env->out, "    osd.%-3d %s  %s\n", osd,
					opath,
					there ? "BACKFILLED (acting once the "
						"PG's backfill ends)"
					      : "BACKFILL (waiting: crushfs "
						"rebalance)");
			} else if (target) {
				continue;
			} else if (there) {
				fprintf(env->out, "    osd.%-3d %s  %s\n", osd,
					opath,
					cfs_format_size((uint64_t)st.st_size,
							ls, sizeof(ls)));
			} else if (p.exists) {
				fprintf(env->out, "    osd.%-3d %s  MISSING\n",
					osd, opath);
			}
		}
	}
	if (json) {
		json_t *per = json_array();

		for (int k = 0; k <= maxosd; k++) {
			json_t *e;

			if (!counts[k].objects)
				continue;
			e = json_object();
			json_object_set_new(e, "osd", json_integer(k));
			json_object_set_new(e, "objects",
					    json_integer((json_int_t)
								 counts[k].objects));
			json_object_set_new(e, "primary",
					    json_integer((json_int_t)
								 counts[k].primary));
			json_array_append_new(per, e);
		}
		json_object_set_new(root, "per_osd", per);
		json_dumpf(root, env->out,
			   ctx->pretty ? JSON_INDENT(4) : JSON_COMPACT);
		fputc('\n', env->out);
		json_decref(root);
	} else {
		fprintf(env->out, "objects per OSD (copies, of which "
				  "primary):\n");
		for (int k = 0; k <= maxosd; k++)
			if (counts[k].objects)
				fprintf(env->out,
					"    osd.%-3d %6" PRIu64 " %6" PRIu64
					"\n",
					k, counts[k].objects, counts[k].primary);
	}
	free(counts);
	return 0;
}

/* In the CLI: through the daemon when mounted, else offline. */
int cmd_locate(struct cli_ctx *ctx, int argc, char **argv)
{
	const char *path = NULL;
	char **fargv, buf[64], fsid[64];
	int n = 0, status;

	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			cli_usage_line(stdout, ctx->entry);
			return 0;
		}
		if (argv[i][0] != '-' && !path)
			path = argv[i];
	}
	if (!path) {
		cli_usage_line(stderr, ctx->entry);
		return 1;
	}
	fargv = calloc((size_t)argc + 8, sizeof(*fargv));
	if (!fargv)
		return cli_err(ctx, "out of memory");
	/* A path in the mount: the daemon is told the inode (symlinks and
	 * "..", resolved by the kernel, mean what the user sees). */
	{
		struct statfs sf;
		struct stat st;

		ssize_t fl = -1;

		if (lstat(path, &st) == 0 && statfs(path, &sf) == 0 &&
		    sf.f_type == FUSE_SUPER_MAGIC)
			fl = lgetxattr(path, "ceph.cluster_fsid", fsid,
				       sizeof(fsid) - 1);
		if (fl > 0) {
			fsid[fl] = 0;
			snprintf(buf, sizeof(buf), "%llu",
				 (unsigned long long)st.st_ino);
			fargv[n++] = "--fsid";
			fargv[n++] = fsid;
			fargv[n++] = "--ino";
			fargv[n++] = buf;
			fargv[n++] = "--name";
		} else if (lstat(path, &st) == 0) {
			fargv[n++] = "--off-mount";
		}
	}
	for (int i = 0; i < argc; i++)
		fargv[n++] = argv[i];
	if (cli_forward(ctx, n, fargv, &status)) {
		free(fargv);
		return status;
	}

	/* Not mounted: read the metadata ourselves (the mount a path is
	 * on, if any, is another cluster's: the fsid check says so). */
	status = cli_run_offline(ctx, cli_locate_run, n, fargv);
	free(fargv);
	return status;
}

int cli_run_offline(struct cli_ctx *ctx,
		    int (*run)(struct cli_ctx *ctx, struct cli_env *env,
			       int argc, char **argv),
		    int argc, char **argv)
{
	char err[1024];
	struct cli_env env;
	cfs_cluster *c = NULL;
	int rc;

	rc = cfs_cluster_open(ctx->cluster, CFS_OPEN_RDONLY, &c, err,
			      sizeof(err));
	if (rc)
		return cli_err(ctx, "%s", err);
	memset(&env, 0, sizeof(env));
	env.c = c;
	env.out = stdout;
	env.err = stderr;
	rc = ol_open(c, &env.ol);
	if (rc) {
		cfs_cluster_close(c);
		return cli_err(ctx, "%s: %s", ctx->cluster, cfs_strerror(rc));
	}
	rc = fs_meta_open(c, &env.meta, err, sizeof(err));
	if (rc) {
		ol_close(env.ol);
		cfs_cluster_close(c);
		return cli_err(ctx, "%s", err);
	}
	rc = run(ctx, &env, argc, argv);
	fs_meta_close(env.meta);
	ol_close(env.ol);
	cfs_cluster_close(c);
	return rc;
}
