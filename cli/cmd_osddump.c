/*
 * cmd_osddump.c - `crushfs osd dump [-f json]`: the osdmap as Ceph 16.2's
 * `ceph osd dump` prints it (OSDMap::print / OSDMap::dump): header,
 * the pool line (pg_pool_t's operator<<), max_osd, one line per OSD, then
 * the pg_upmap, pg_upmap_items and pg_temp entries.  What crushfs has no notion of
 * (addresses, up_thru, blocklists) prints as Ceph prints it empty.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "cluster_cmds.h"
#include "osdmap.h"
#include "upmap.h"
#include "usage.h"

/* utime_t's operator<<: 2026-11-25T17:09:07.000000+0000 */
static const char *utime(int64_t t, char *buf, size_t n)
{
	time_t tt = (time_t)t;
	struct tm tm;

	gmtime_r(&tt, &tm);
	strftime(buf, n, "%Y-%m-%dT%H:%M:%S.000000+0000", &tm);
	return buf;
}

/* Ceph's monitor sets the pool's FULL flag while an OSD its rule reaches
 * is full (policy pool here: the pool then refuses writes). */
static int pool_full(cfs_cluster *c, const cfs_osdmap *m,
		     const struct cfs_pool_info *p)
{
	return (cfs_osdmap_full_policy(m) == CFS_FULL_POOL &&
		cfs_pool_is_full(c, m, p, NULL)) ||
	       cfs_pool_quota_full(c, m, p, NULL);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static json_t *dump_json(cfs_cluster *cl, const cfs_osdmap *m)
{
	json_t *osds = json_array(), *profiles = json_object();
	json_t *pools = json_array(), *root, *fset = json_array();
	/* the entries in the shapes cluster.json keeps them (osdsim's) */
	json_t *ov = cfs_osdmap_overrides_json(m);
	int64_t pool_max = 0;
	char c[64], d[64], fs[256];
	const char *fn[32];
	uint32_t flags = cfs_osdmap_flags(m) | CFS_OSDMAP_ALWAYS;
	int nf;

	for (int i = 0; i < cfs_osdmap_max_osd(m); i++) {
		struct cfs_osd_info oi;

		if (cfs_osdmap_osd(m, i, &oi))
			continue;
		json_array_append_new(osds, json_pack(
			"{s:i, s:s, s:i, s:i, s:f, s:f}", "osd", i, "uuid",
			oi.uuid, "up", oi.up, "in", oi.reweight > 0, "weight",
			(double)oi.reweight / 0x10000, "primary_affinity",
			(double)oi.primary_affinity / 0x10000));
	}
	{
		const char *names[256], *k[64], *v[64];
		int np = cfs_ec_profile_names(m, names, 256);

		for (int i = 0; i < np && i < 256; i++) {
			json_t *o = json_object();
			int nk = cfs_ec_profile_keys(m, names[i], k, v, 64);

			for (int j = 0; j < nk && j < 64; j++)
				json_object_set_new(o, k[j], json_string(v[j]));
			json_object_set_new(profiles, names[i], o);
		}
	}
	for (int i = 0; i < cfs_osdmap_npools(m); i++) {
		const struct cfs_pool_info *q = cfs_osdmap_pool_at(m, i);

		json_array_append_new(pools, json_pack(
			"{s:I, s:s, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, "
			"s:i, s:s, s:s}",
			"pool", (json_int_t)q->id, "pool_name", q->name, "type",
			q->erasure ? 3 : 1, "size", q->size, "min_size",
			q->min_size, "crush_rule", q->crush_rule, "pg_num",
			(int)q->pg_num, "pg_placement_num", (int)q->pgp_num,
			"pg_placement_num_target", (int)q->pgp_num_target,
			"pg_num_target", (int)q->pg_num_target,
			"last_change", (int)cfs_osdmap_epoch(m),
			"erasure_code_profile", q->erasure ? q->ec_profile : "",
			"flags_names", pool_full(cl, m, q) ?
				"hashpspool,full" : "hashpspool"));
		if (q->id > pool_max)
			pool_max = q->id;
	}
	/* OSDMap::dump: the string, the bits, and each name sorted (a
	 * std::set) */
	cfs_osd_flag_string(flags, fs, sizeof(fs));
	nf = cfs_osd_flag_names(flags, fn, 32);
	qsort(fn, (size_t)nf, sizeof(fn[0]), cmp_str);
	for (int i = 0; i < nf; i++)
		json_array_append_new(fset, json_string(fn[i]));
	root = json_pack(
		"{s:i, s:s, s:s, s:s, s:s, s:I, s:o, s:f, s:f, s:f, s:I, s:i, "
		"s:o, s:o, s:O, s:O, s:O, s:O, s:o}",
		"epoch", (int)cfs_osdmap_epoch(m), "fsid", cfs_osdmap_fsid(m),
		"created", utime(cfs_osdmap_created(m), c, sizeof(c)),
		"modified", utime(cfs_osdmap_modified(m), d, sizeof(d)),
		"flags", fs, "flags_num", (json_int_t)flags, "flags_set", fset,
		"full_ratio", cfs_osdmap_full_ratio(m), "backfillfull_ratio",
		cfs_osdmap_backfillfull_ratio(m), "nearfull_ratio",
		cfs_osdmap_nearfull_ratio(m), "pool_max", (json_int_t)pool_max,
		"max_osd", cfs_osdmap_max_osd(m), "pools", pools, "osds", osds,
		"pg_upmap", json_object_get(ov, "pg_upmap"), "pg_upmap_items",
		json_object_get(ov, "pg_upmap_items"), "pg_temp",
		json_object_get(ov, "pg_temp"), "primary_temp",
		json_object_get(ov, "primary_temp"), "erasure_code_profiles",
		profiles);
	json_decref(ov);
	return root;
}

static void print_entries(FILE *o, const cfs_osdmap *m, int64_t id, int pass)
{
	int n;

	if (pass < 2) {
		const struct cfs_pg_upmap *u = cfs_pool_upmaps(m, id, &n);

		for (int i = 0; i < n; i++) {
			if (pass == 0 && u[i].n) {
				fprintf(o, "pg_upmap %" PRId64 ".%x [", id,
					u[i].ps);
				for (int k = 0; k < u[i].n; k++)
					fprintf(o, "%s%d", k ? "," : "",
						u[i].osds[k]);
				fprintf(o, "]\n");
			}
			if (pass == 1 && u[i].nitems) {
				/* Ceph prints the pairs flat:
				 * [from,to,from,to] */
				fprintf(o, "pg_upmap_items %" PRId64 ".%x [", id,
					u[i].ps);
				for (int k = 0; k < u[i].nitems; k++)
					fprintf(o, "%s%d,%d", k ? "," : "",
						u[i].items[k][0],
						u[i].items[k][1]);
				fprintf(o, "]\n");
			}
		}
	} else if (pass == 2) {
		const struct cfs_pg_temp *t = cfs_pool_pg_temps(m, id, &n);

		for (int i = 0; i < n; i++) {
			fprintf(o, "pg_temp %" PRId64 ".%x [", id, t[i].ps);
			for (int k = 0; k < t[i].n; k++)
				fprintf(o, "%s%d", k ? "," : "", t[i].osds[k]);
			fprintf(o, "]\n");
		}
	} else {
		const struct cfs_pg_ptemp *t = cfs_pool_primary_temps(m, id, &n);

		for (int i = 0; i < n; i++)
			fprintf(o, "primary_temp %" PRId64 ".%x %d\n", id,
				t[i].ps, t[i].osd);
	}
}

int ccmd_osd_dump(struct cmd_ctx *ctx, int argc, char **argv)
{
	const cfs_osdmap *m;
	char c[64], d[64], fs[256];
	FILE *o = ctx->out;

	if (cc_nargs(ctx, argc, argv, 0))
		return 1;
	m = cfs_osdmap_get(ctx->cluster);
	if (ctx->json) {
		json_t *j = dump_json(ctx->cluster, m);

		cfs_osdmap_put(m);
		return cc_json_out(ctx, j);
	}
	cfs_osd_flag_string(cfs_osdmap_flags(m) | CFS_OSDMAP_ALWAYS, fs,
			    sizeof(fs));
	fprintf(o, "epoch %u\nfsid %s\ncreated %s\nmodified %s\n"
		   "flags %s\ncrush_version %u\nfull_ratio %g\n"
		   "backfillfull_ratio %g\nnearfull_ratio %g\n"
		   "min_compat_client jewel\nrequire_osd_release pacific\n"
		   "stretch_mode_enabled false\n\n",
		cfs_osdmap_epoch(m), cfs_osdmap_fsid(m),
		utime(cfs_osdmap_created(m), c, sizeof(c)),
		utime(cfs_osdmap_modified(m), d, sizeof(d)), fs,
		cfs_osdmap_epoch(m), cfs_osdmap_full_ratio(m),
		cfs_osdmap_backfillfull_ratio(m), cfs_osdmap_nearfull_ratio(m));
	for (int i = 0; i < cfs_osdmap_npools(m); i++)
		cc_pool_line(o, ctx->cluster, m, cfs_osdmap_pool_at(m, i));
	fprintf(o, "\nmax_osd %d\n", cfs_osdmap_max_osd(m));
	for (int i = 0; i < cfs_osdmap_max_osd(m); i++) {
		struct cfs_osd_info oi;

		if (cfs_osdmap_osd(m, i, &oi))
			continue;
		fprintf(o, "osd.%d %s %s weight %g", i, oi.up ? "up  " : "down",
			oi.reweight ? "in " : "out", (double)oi.reweight / 0x10000);
		if (oi.primary_affinity != 0x10000)
			fprintf(o, " primary_affinity %g",
				(double)oi.primary_affinity / 0x10000);
		fprintf(o, " up_from 0 up_thru 0 down_at 0 last_clean_interval "
			   "[0,0) [] [] %s %s\n",
			oi.up ? "exists,up" : "exists", oi.uuid);
	}
	fputc('\n', o);
	/* OSDMap::print: every pool's pg_upmap, then pg_upmap_items, then
	 * pg_temp, then primary_temp entries */
	for (int pass = 0; pass < 4; pass++)
		for (int pi = 0; pi < cfs_osdmap_npools(m); pi++)
			print_entries(o, m, cfs_osdmap_pool_at(m, pi)->id, pass);
	cfs_osdmap_put(m);
	return 0;
}
