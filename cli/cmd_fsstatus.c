/*
 * cmd_fsstatus.c - `fs status [FS]`, as Ceph 16.2's mgr status module
 * prints it (src/pybind/mgr/status/module.py handle_fs_status): the
 * filesystem and its client count, the MDS ranks, the pools with their
 * use and MAX AVAIL, the standbys and the MDS version.  crushfs's MDS is
 * the mount's daemon: one active rank 0 while mounted, none otherwise; it
 * keeps its metadata in RocksDB, not in a pool, so only data pools are
 * listed.  Tables are PrettyTable's with border=False, left padding 0 and
 * right padding 2 (cells centred, as its default alignment).  Ceph wraps
 * the rank in bold and the state in colour escapes; crushfs prints the
 * plain text.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "cluster_cmds.h"
#include "osdmap.h"
#include "usage.h"
#include "util.h"

#define FS_NAME "crushfs"
#define MAXCOLS 8

/* mgr_util.format_units: n in `width` characters with a unit suffix
 * (decimal: 1000s, else 1024s); " " when no unit */
static void format_units(char *buf, size_t len, uint64_t n, int width,
			 int decimal)
{
	static const char units[] = " kMGTPE";
	double factor = decimal ? 1000.0 : 1024.0, div = 1;
	int unit = 0;
	char tmp[64];

	for (;;) {
		snprintf(tmp, sizeof(tmp), "%llu",
			 (unsigned long long)((double)n / div));
		if ((int)strlen(tmp) <= width - 1 || unit == 6)
			break;
		unit++;
		div *= factor;
	}
	if (unit > 0) {
		snprintf(tmp, sizeof(tmp), "%f", (double)n / div);
		tmp[width - 1] = 0;
		if (tmp[width - 2] == '.') {
			/* "96." becomes " 96" */
			memmove(tmp + 1, tmp, (size_t)width - 2);
			tmp[0] = ' ';
		}
		snprintf(buf, len, "%s%c", tmp, units[unit]);
	} else {
		snprintf(buf, len, "%*llu ", width - 1, (unsigned long long)n);
	}
}

/* PrettyTable's centring (str.center's): an odd excess goes right of an
 * odd-length text, left of an even one */
static void put_centred(FILE *f, const char *s, int width)
{
	int len = (int)strlen(s), ex = width - len, l = ex / 2, r = ex / 2;

	if (ex % 2) {
		if (len % 2)
			r++;
		else
			l++;
	}
	fprintf(f, "%*s%s%*s", l, "", s, r, "");
}

struct ptable {
	int ncols, nrows;
	const char *head[MAXCOLS];
	char cell[4][MAXCOLS][96];
};

static void pt_print(FILE *f, const struct ptable *t)
{
	int w[MAXCOLS];

	for (int c = 0; c < t->ncols; c++) {
		w[c] = (int)strlen(t->head[c]);
		for (int r = 0; r < t->nrows; r++)
			if ((int)strlen(t->cell[r][c]) > w[c])
				w[c] = (int)strlen(t->cell[r][c]);
	}
	for (int r = -1; r < t->nrows; r++) {
		for (int c = 0; c < t->ncols; c++) {
			put_centred(f, r < 0 ? t->head[c] : t->cell[r][c],
				    w[c]);
			fputs("  ", f);
		}
		fputc('\n', f);
	}
}

static void pt_row(struct ptable *t, const char *const *cells)
{
	if (t->nrows >= 4)
		return;
	for (int c = 0; c < t->ncols; c++)
		snprintf(t->cell[t->nrows][c], sizeof(t->cell[0][0]), "%s",
			 cells[c]);
	t->nrows++;
}

/* The MDS's name: the host's, as a daemon of `ceph orch` is named after
 * its host */
static void mds_name(char *buf, size_t len)
{
	char host[256] = "";

	if (gethostname(host, sizeof(host) - 1) || !*host)
		snprintf(host, sizeof(host), "localhost");
	host[strcspn(host, ".")] = 0;
	snprintf(buf, len, "%s", host);
}

int ccmd_fs_status(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct ptable ranks = { .ncols = 8, .head =
				{ "RANK", "STATE", "MDS", "ACTIVITY", "DNS",
				  "INOS", "DIRS", "CAPS" } };
	struct ptable pools = { .ncols = 4,
				.head = { "POOL", "TYPE", "USED", "AVAIL" } };
	const cfs_osdmap *m;
	json_t *jpools = NULL;
	uint64_t *osd_used;
	char name[256], version[128];
	int nosd;

	if (argc > 1)
		return cc_usage(ctx, "unexpected argument '%s'", argv[1]);
	if (argc == 1 && argv[0][0] == '-')
		return cc_usage(ctx, "unknown option '%s'", argv[0]);
	if (argc == 1 && strcmp(argv[0], FS_NAME))
		return cc_err(ctx, "Invalid filesystem: %s", argv[0]);
	mds_name(name, sizeof(name));
	snprintf(version, sizeof(version), "crushfs version %s",
		 CRUSHFS_VERSION);
	m = cfs_osdmap_get(ctx->cluster);
	nosd = cfs_osdmap_max_osd(m);
	osd_used = calloc((size_t)(nosd ? nosd : 1), sizeof(*osd_used));
	if (!osd_used) {
		cfs_osdmap_put(m);
		return cc_err(ctx, "%s", cfs_strerror(-ENOMEM));
	}
	for (int o = 0; o < nosd; o++) {
		struct cfs_osd_usage u;

		cfs_osd_usage(ctx->cluster, o, &u);
		osd_used[o] = u.used;
	}
	if (ctx->json)
		jpools = json_array();
	/* the data pools, the first one first (FSMap data_pools order);
	 * USED is the raw bytes its PGs hold, AVAIL `ceph df`'s MAX AVAIL.
	 * TODO: take both from mgr/'s df once it exists. */
	for (int i = 0; i < cfs_osdmap_npools(m); i++) {
		const struct cfs_pool_info *p = cfs_osdmap_pool_at(m, i);
		uint64_t used = 0, avail;
		char u[16], a[16];

		if (!cfs_fs_is_data_pool(m, p->id))
			continue;
		for (int o = 0; o < nosd; o++) {
			struct cfs_osd_usage ou;

			cfs_osd_pool_usage(ctx->cluster, o, p->id, &ou);
			used += ou.used;
		}
		avail = cfs_pool_max_avail_for(m, p, osd_used);
		if (jpools) {
			json_array_append_new(
				jpools,
				json_pack("{s:I, s:s, s:s, s:I, s:I}", "id",
					  (json_int_t)p->id, "name", p->name,
					  "type", "data", "used",
					  (json_int_t)used, "avail",
					  (json_int_t)avail));
			continue;
		}
		format_units(u, sizeof(u), used, 5, 0);
		format_units(a, sizeof(a), avail, 5, 0);
		pt_row(&pools, (const char *const[]){ p->name, "data", u, a });
	}
	cfs_osdmap_put(m);
	free(osd_used);
	if (ctx->json) {
		json_t *mdsmap = json_array(), *ver = json_array();

		if (ctx->mounted) {
			json_array_append_new(
				mdsmap,
				json_pack("{s:i, s:s, s:s, s:i, s:i, s:i, s:i, "
					  "s:i}",
					  "rank", 0, "name", name, "state",
					  "active", "rate", 0, "dns", 0,
					  "inos", 0, "dirs", 0, "caps", 0));
			json_array_append_new(
				ver, json_pack("{s:s, s:[s]}", "version",
					       version, "daemon", name));
		}
		json_t *o = json_pack(
			"{s:[{s:i, s:s}], s:o, s:o, s:o}", "clients",
			"clients", ctx->mounted ? 1 : 0, "fs", FS_NAME,
			"mds_version", ver, "mdsmap", mdsmap, "pools", jpools);
		/* json.dumps(sort_keys=True): ", " and ": " between items */
		json_dumpf(o, ctx->out,
			   JSON_SORT_KEYS |
				   (ctx->json == 2 ? JSON_INDENT(4) : 0));
		fputc('\n', ctx->out);
		json_decref(o);
		return 0;
	}
	if (ctx->mounted) {
		char z[16], act[32];

		format_units(z, sizeof(z), 0, 5, 1);
		snprintf(act, sizeof(act), "Reqs: %s/s", z);
		pt_row(&ranks, (const char *const[]){ "0", "active", name, act,
						      z, z, z, z });
	}
	fprintf(ctx->out, "%s - %d clients\n", FS_NAME, ctx->mounted ? 1 : 0);
	fprintf(ctx->out, "%.*s\n", (int)strlen(FS_NAME),
		"==================================");
	pt_print(ctx->out, &ranks);
	pt_print(ctx->out, &pools);
	fputs("\n", ctx->out);
	{
		struct ptable standby = { .ncols = 1,
					  .head = { "STANDBY MDS" } };

		pt_print(ctx->out, &standby);
	}
	if (ctx->mounted) {
		fprintf(ctx->out, "MDS version: %s\n", version);
	} else {
		/* no daemon: Ceph prints the empty VERSION table */
		struct ptable vt = { .ncols = 2,
				     .head = { "VERSION", "DAEMONS" } };

		pt_print(ctx->out, &vt);
	}
	return 0;
}
