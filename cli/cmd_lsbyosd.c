/*
 * cmd_lsbyosd.c - `crushfs ls-by-osd OSD [PATH]`: the files with an object
 * copy on the OSD (its acting sets in the current map): what is hit if
 * that OSD dies.  Each file with how many of its objects the OSD holds,
 * in path order; PATH keeps those under it ("/dir" from the
 * filesystem's root, or a path in the mount).  Mounted, the daemon runs
 * it (the metadata is live there); unmounted, the CLI reads the store.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli.h"
#include "cmd_fs.h"
#include "fs.h"
#include "objindex.h"
#include "osdmap.h"
#include "util.h"

struct hit {
	uint64_t ino;
	uint64_t objects; /* copies on the OSD */
	char *path;
};

struct scan {
	fs_meta *meta;
	const cfs_osdmap *m;
	int64_t pool; /* the pool being scanned */
	int osd;
	struct hit *v;
	size_t n, cap;
	int nomem;
};

static int on_object(const char *name, const struct cfs_objinfo *oi,
		     int op, void *arg)
{
	struct scan *s = arg;
	const struct cfs_pg_mapping *pg;
	unsigned long long ino;
	char *end;
	uint32_t ps;
	int on = 0;

	(void)oi;
	(void)op;
	ino = strtoull(name, &end, 16);
	if (end == name || *end != '.')
		return 0; /* not a file's data object (e.g. a rados one) */
	pg = cfs_pool_object_to_pg(s->m, s->pool, name, NULL, &ps)
		     ? NULL
		     : cfs_osdmap_pool_pg(s->m, s->pool, ps);
	for (int i = 0; pg && i < pg->nacting; i++)
		if (pg->acting[i] == s->osd)
			on = 1;
	if (!on)
		return 0;
	/* the index is in name order: a file's objects are together */
	if (s->n && s->v[s->n - 1].ino == ino) {
		s->v[s->n - 1].objects++;
		return 0;
	}
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 256;
		struct hit *nv = realloc(s->v, cap * sizeof(*nv));

		if (!nv) {
			s->nomem = 1;
			return 1;
		}
		s->v = nv;
		s->cap = cap;
	}
	s->v[s->n++] = (struct hit){ ino, 1, NULL };
	return 0;
}

static int cmp_ino(const void *a, const void *b)
{
	const struct hit *x = a, *y = b;

	return (x->ino > y->ino) - (x->ino < y->ino);
}

static int on_path(uint64_t ino, uint32_t type, const char *path, void *arg)
{
	struct scan *s = arg;
	struct hit key = { .ino = ino }, *h;

	struct fs_inode_info fi;

	if (type == 4) /* DT_DIR: a directory's object is its backtrace */
		return 0;
	h = bsearch(&key, s->v, s->n, sizeof(*s->v), cmp_ino);
	/* an empty file's object 0 holds only its backtrace: no data */
	if (h && !fs_meta_stat(s->meta, ino, &fi) && fi.size == 0)
		return 0;
	if (h && !h->path && !(h->path = strdup(path))) {
		s->nomem = 1;
		return 1;
	}
	return 0;
}

static int under(const char *path, const char *prefix)
{
	size_t n = strlen(prefix);

	while (n > 1 && prefix[n - 1] == '/')
		n--;
	if (n == 1 && prefix[0] == '/')
		return 1;
	return !strncmp(path, prefix, n) && (path[n] == '/' || !path[n]);
}

int cli_files_on_osd(struct cli_env *env, int osd, struct cli_osd_file **out,
		     size_t *nout)
{
	struct scan s = { .osd = osd, .meta = env->meta };
	struct cli_osd_file *v;
	size_t k = 0;
	int rc;

	*out = NULL;
	*nout = 0;
	s.m = cfs_osdmap_get(env->c);
	rc = 0;
	/* every pool's objects: a file's data may be in any data pool */
	for (int i = 0; i < cfs_osdmap_npools(s.m) && !rc; i++) {
		s.pool = cfs_osdmap_pool_at(s.m, i)->id;
		rc = cfs_index_foreach(env->c, s.pool, "", 0, on_object, &s);
	}
	/* nothing on the OSD: no names to look up (and no NULL to sort) */
	if (!rc && !s.nomem && s.n) {
		size_t u = 0;

		qsort(s.v, s.n, sizeof(*s.v), cmp_ino);
		/* one entry per file (its objects came pool by pool) */
		for (size_t i = 1; i < s.n; i++) {
			if (s.v[i].ino == s.v[u].ino)
				s.v[u].objects += s.v[i].objects;
			else
				s.v[++u] = s.v[i];
		}
		s.n = u + 1;
		rc = fs_meta_paths(env->meta, on_path, &s);
	}
	cfs_osdmap_put(s.m);
	if (!rc && s.nomem)
		rc = -ENOMEM;
	v = rc ? NULL : calloc(s.n + 1, sizeof(*v));
	if (!rc && !v)
		rc = -ENOMEM;
	for (size_t i = 0; i < s.n; i++) {
		if (!rc && s.v[i].path) {
			v[k].path = s.v[i].path;
			v[k].ino = s.v[i].ino;
			v[k++].objects = s.v[i].objects;
		} else {
			free(s.v[i].path);
		}
	}
	free(s.v);
	if (rc)
		return rc;
	*out = v;
	*nout = k;
	return 0;
}

void cli_osd_files_free(struct cli_osd_file *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i].path);
	free(v);
}

static int cmp_file_path(const void *a, const void *b)
{
	return strcmp(((const struct cli_osd_file *)a)->path,
		      ((const struct cli_osd_file *)b)->path);
}

int cli_ls_by_osd_run(struct cli_ctx *ctx, struct cli_env *env, int argc,
		      char **argv)
{
	struct scan s = { .osd = -1 };
	const char *prefix = NULL, *mnt;
	int json = ctx->format == CLI_FMT_JSON, rc = 1, pos = 0;
	uint64_t files = 0, objects = 0;
	json_t *arr = NULL;
	char *end;

	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-f") && i + 1 < argc) {
			json = !strncmp(argv[++i], "json", 4);
		} else if (pos == 0) {
			long v = strtol(strncmp(a, "osd.", 4) ? a : a + 4, &end,
					10);

			if (*end || v < 0 || v > CFS_MAX_OSD) {
				fprintf(env->err, "crushfs: ls-by-osd: '%s' is "
					"not an OSD id\n", a);
				return 1;
			}
			s.osd = (int)v;
			pos++;
		} else if (pos == 1) {
			prefix = a;
			pos++;
		} else {
			fprintf(env->err, "crushfs: ls-by-osd: unexpected "
				"argument '%s'\n", a);
			return 1;
		}
	}
	if (s.osd < 0) {
		fprintf(env->err, "crushfs: ls-by-osd: missing the OSD (usage: "
			"crushfs ls-by-osd OSD [PATH])\n");
		return 1;
	}
	if (!env->meta) {
		fprintf(env->err, "crushfs: ls-by-osd: no filesystem metadata\n");
		return 1;
	}
	/* a path in the mount: from the filesystem's root */
	mnt = fs_meta_mountpoint(env->meta);
	if (prefix && mnt && !strncmp(prefix, mnt, strlen(mnt)) &&
	    (prefix[strlen(mnt)] == '/' || !prefix[strlen(mnt)]))
		prefix = prefix[strlen(mnt)] ? prefix + strlen(mnt) : "/";
	if (prefix && prefix[0] != '/') {
		fprintf(env->err, "crushfs: ls-by-osd: %s: give a path from the "
			"filesystem's root (\"/dir\") or in the mount\n",
			prefix);
		return 1;
	}
	{
		const cfs_osdmap *m = cfs_osdmap_get(env->c);
		int exists = cfs_osdmap_exists(m, s.osd);

		cfs_osdmap_put(m);
		if (!exists) {
			fprintf(env->err, "crushfs: ls-by-osd: osd.%d does not "
				"exist\n", s.osd);
			return 1;
		}
	}
	{
		struct cli_osd_file *v;
		size_t n;
		int r = cli_files_on_osd(env, s.osd, &v, &n);

		if (r) {
			fprintf(env->err, "crushfs: ls-by-osd: %s\n",
				cfs_strerror(r));
			return 1;
		}
		qsort(v, n, sizeof(*v), cmp_file_path);
		if (json)
			arr = json_array();
		for (size_t i = 0; i < n; i++) {
			if (prefix && !under(v[i].path, prefix))
				continue;
			files++;
			objects += v[i].objects;
			if (arr)
				json_array_append_new(arr, json_pack(
					"{s:s, s:I, s:I}", "path", v[i].path,
					"ino", (json_int_t)v[i].ino, "objects",
					(json_int_t)v[i].objects));
			else
				fprintf(env->out, "%" PRIu64 "\t%s\n",
					v[i].objects, v[i].path);
		}
		cli_osd_files_free(v, n);
	}
	if (arr) {
		json_t *root = json_pack("{s:i, s:o, s:I, s:I}", "osd", s.osd,
					 "files", arr, "file_count",
					 (json_int_t)files, "objects",
					 (json_int_t)objects);
		char *txt = root ? json_dumps(root, JSON_COMPACT) : NULL;

		fprintf(env->out, "%s\n", txt ? txt : "{}");
		free(txt);
		json_decref(root);
	} else {
		fprintf(env->err, "%" PRIu64 " files, %" PRIu64 " objects with "
			"a copy on osd.%d\n", files, objects, s.osd);
	}
	rc = 0;
	return rc;
}

int cmd_ls_by_osd(struct cli_ctx *ctx, int argc, char **argv)
{
	int status;

	for (int i = 0; i < argc; i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			cli_usage_line(stdout, ctx->entry);
			return 0;
		}
	if (cli_forward(ctx, argc, argv, &status))
		return status;
	return cli_run_offline(ctx, cli_ls_by_osd_run, argc, argv);
}
