/*
 * cmd_crush_dump.c - the whole crush map as the monitor hands it out:
 * `osd crush dump` (CrushWrapper::dump: devices, types, buckets, rules,
 * tunables, choose_args) and `osd getcrushmap [-o FILE]` (the binary
 * map), of Ceph 16.2.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "cli.h"
#include "cluster_cmds.h"
#include "osdmap.h"
#include "placement.h"
#include "util.h"

static double wf(uint32_t w)
{
	return (double)((float)w / (float)0x10000);
}

/* ---- osd crush dump ---- */

static const char *alg_name(int alg)
{
	switch (alg) {
	case PL_BUCKET_UNIFORM: return "uniform";
	case PL_BUCKET_LIST: return "list";
	case PL_BUCKET_TREE: return "tree";
	case PL_BUCKET_STRAW: return "straw";
	case PL_BUCKET_STRAW2: return "straw2";
	}
	return "unknown";
}

/* Does any rule have a step among ops (CrushWrapper::is_v2_rule ...)? */
static int rules_use(const pl_map *cm, const int *ops, int nops)
{
	for (int r = 0; r < pl_map_max_rules(cm); r++) {
		if (!pl_map_rule_exists(cm, r))
			continue;
		for (int s = 0; s < pl_map_rule_len(cm, r); s++) {
			const struct pl_rule_step *st =
				pl_map_rule_step(cm, r, s);

			for (int k = 0; k < nops; k++)
				if (st && (int)st->op == ops[k])
					return 1;
		}
	}
	return 0;
}

#define LEGACY_ALGS                                                           \
	((1u << PL_BUCKET_UNIFORM) | (1u << PL_BUCKET_LIST) |                 \
	 (1u << PL_BUCKET_STRAW))
#define HAMMER_ALGS (LEGACY_ALGS | (1u << PL_BUCKET_STRAW2))

/* CrushWrapper::dump_tunables of Ceph 16.2 (before the msr fields). */
static json_t *tunables_json(const pl_map *cm)
{
	static const int v2[] = { PL_RULE_CHOOSE_INDEP,
				  PL_RULE_CHOOSELEAF_INDEP,
				  PL_RULE_SET_CHOOSE_TRIES,
				  PL_RULE_SET_CHOOSELEAF_TRIES };
	static const int v3[] = { PL_RULE_SET_CHOOSELEAF_VARY_R };
	static const int v5[] = { PL_RULE_SET_CHOOSELEAF_STABLE };
	struct pl_tunables t;
	int modern, argonaut, bobtail, firefly, hammer, jewel, v4 = 0;
	int nd1, nd2, nd3, nd5, has_v5;
	const char *profile, *minv;

	pl_map_get_tunables(cm, &t);
	modern = t.choose_local_tries == 0 &&
		 t.choose_local_fallback_tries == 0 &&
		 t.choose_total_tries == 50 && t.chooseleaf_descend_once == 1;
	argonaut = t.choose_local_tries == 2 &&
		   t.choose_local_fallback_tries == 5 &&
		   t.choose_total_tries == 19 &&
		   t.chooseleaf_descend_once == 0 && t.chooseleaf_vary_r == 0 &&
		   t.chooseleaf_stable == 0 &&
		   t.allowed_bucket_algs == LEGACY_ALGS;
	bobtail = modern && t.chooseleaf_vary_r == 0 &&
		  t.chooseleaf_stable == 0 &&
		  t.allowed_bucket_algs == LEGACY_ALGS;
	firefly = modern && t.chooseleaf_vary_r == 1 &&
		  t.chooseleaf_stable == 0 &&
		  t.allowed_bucket_algs == LEGACY_ALGS;
	hammer = modern && t.chooseleaf_vary_r == 1 &&
		 t.chooseleaf_stable == 0 &&
		 t.allowed_bucket_algs == HAMMER_ALGS;
	jewel = modern && t.chooseleaf_vary_r == 1 &&
		t.chooseleaf_stable == 1 && t.allowed_bucket_algs == HAMMER_ALGS;
	profile = jewel	   ? "jewel" :
		  hammer   ? "hammer" :
		  firefly  ? "firefly" :
		  bobtail  ? "bobtail" :
		  argonaut ? "argonaut" :
			     "unknown";
	for (int pos = 0; pos < pl_map_max_buckets(cm) && !v4; pos++)
		v4 = pl_map_bucket_exists(cm, -1 - pos) &&
		     pl_map_bucket_alg(cm, -1 - pos) == PL_BUCKET_STRAW2;
	nd1 = t.choose_local_tries != 2 || t.choose_local_fallback_tries != 5 ||
	      t.choose_total_tries != 19;
	nd2 = t.chooseleaf_descend_once != 0;
	nd3 = t.chooseleaf_vary_r != 0;
	nd5 = t.chooseleaf_stable != 0;
	has_v5 = rules_use(cm, v5, 1);
	/* CrushWrapper::get_min_required_version */
	minv = has_v5 || nd5 ? "jewel" :
	       v4	     ? "hammer" :
	       nd3	     ? "firefly" :
	       nd2 || nd1    ? "bobtail" :
			       "argonaut";
	return json_pack(
		"{s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:s, s:i, s:i, "
		"s:s, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i}",
		"choose_local_tries", (int)t.choose_local_tries,
		"choose_local_fallback_tries",
		(int)t.choose_local_fallback_tries, "choose_total_tries",
		(int)t.choose_total_tries, "chooseleaf_descend_once",
		(int)t.chooseleaf_descend_once, "chooseleaf_vary_r",
		(int)t.chooseleaf_vary_r, "chooseleaf_stable",
		(int)t.chooseleaf_stable, "straw_calc_version",
		(int)t.straw_calc_version, "allowed_bucket_algs",
		(int)t.allowed_bucket_algs, "profile", profile,
		"optimal_tunables", jewel, "legacy_tunables", argonaut,
		"minimum_required_version", minv, "require_feature_tunables",
		nd1, "require_feature_tunables2", nd2, "has_v2_rules",
		rules_use(cm, v2, 4), "require_feature_tunables3", nd3,
		"has_v3_rules", rules_use(cm, v3, 1), "has_v4_buckets", v4,
		"require_feature_tunables5", nd5, "has_v5_rules", has_v5);
}

/* CrushWrapper::dump_choose_args */
static json_t *choose_args_json(const pl_map *cm)
{
	json_t *o = json_object();

	for (int i = 0; i < pl_map_choose_args_count(cm); i++) {
		int64_t sid = pl_map_choose_args_id(cm, i);
		const pl_choose_args *ca = pl_map_choose_args(cm, sid);
		json_t *a = json_array();
		char key[32];

		for (int pos = 0; pos < pl_map_max_buckets(cm); pos++) {
			int b = -1 - pos, npos, nw, nids;
			json_t *e;

			if (!pl_choose_args_entry(ca, b, &npos, &nw, &nids))
				continue;
			e = json_pack("{s:i}", "bucket_id", b);
			if (npos) {
				json_t *ws = json_array();

				for (int p = 0; p < npos; p++) {
					json_t *w = json_array();

					for (int k = 0; k < nw; k++)
						json_array_append_new(
							w, json_real(wf(
								   pl_choose_args_weight(
									   ca, b,
									   p,
									   k))));
					json_array_append_new(ws, w);
				}
				json_object_set_new(e, "weight_set", ws);
			}
			if (nids) {
				json_t *ids = json_array();

				for (int k = 0; k < nids; k++)
					json_array_append_new(
						ids, json_integer(pl_choose_args_id(
							     ca, b, k)));
				json_object_set_new(e, "ids", ids);
			}
			json_array_append_new(a, e);
		}
		snprintf(key, sizeof(key), "%lld", (long long)sid);
		json_object_set_new(o, key, a);
	}
	return o;
}

int ccmd_osd_crush_dump(struct cmd_ctx *ctx, int argc, char **argv)
{
	const cfs_osdmap *m;
	const pl_map *cm;
	json_t *devs, *types, *buckets, *rules, *out;
	int found = 0;

	if (cc_nargs(ctx, argc, argv, 0))
		return 1;
	m = cfs_osdmap_get(ctx->cluster);
	cm = cfs_osdmap_crush(m);
	devs = json_array();
	for (int i = 0; i < pl_map_max_devices(cm); i++) {
		const char *nm = pl_map_item_name(cm, i);
		const char *cls = pl_map_item_class(cm, i);
		char dn[32];
		json_t *d;

		snprintf(dn, sizeof(dn), "device%d", i);
		d = json_pack("{s:i, s:s}", "id", i, "name", nm ? nm : dn);
		if (cls)
			json_object_set_new(d, "class", json_string(cls));
		json_array_append_new(devs, d);
	}
	/* every named type in id order; an unnamed type 0 is "device" */
	types = json_array();
	for (int t = 0; t < 65536; t++) {
		const char *tn = pl_map_type_name(cm, t);

		if (!tn && t == 0)
			tn = "device";
		else if (tn)
			found++;
		if (tn)
			json_array_append_new(types,
					      json_pack("{s:i, s:s}", "type_id",
							t, "name", tn));
	}
	(void)found;
	buckets = json_array();
	for (int pos = 0; pos < pl_map_max_buckets(cm); pos++) {
		int b = -1 - pos, t;
		const char *nm, *tn;
		json_t *o, *items;

		if (!pl_map_bucket_exists(cm, b))
			continue;
		t = pl_map_bucket_type(cm, b);
		nm = pl_map_item_name(cm, b);
		tn = pl_map_type_name(cm, t);
		o = json_pack("{s:i}", "id", b);
		if (nm)
			json_object_set_new(o, "name", json_string(nm));
		json_object_set_new(o, "type_id", json_integer(t));
		if (tn)
			json_object_set_new(o, "type_name", json_string(tn));
		json_object_set_new(o, "weight",
				    json_integer(pl_map_bucket_weight(cm, b)));
		json_object_set_new(o, "alg",
				    json_string(alg_name(pl_map_bucket_alg(cm, b))));
		json_object_set_new(o, "hash",
				    json_string(pl_map_bucket_hash(cm, b) ?
							"unknown" :
							"rjenkins1"));
		items = json_array();
		for (int k = 0; k < pl_map_bucket_size(cm, b); k++)
			json_array_append_new(
				items,
				json_pack("{s:i, s:I, s:i}", "id",
					  pl_map_bucket_item(cm, b, k), "weight",
					  (json_int_t)pl_map_bucket_item_weight(
						  cm, b, k),
					  "pos", k));
		json_object_set_new(o, "items", items);
		json_array_append_new(buckets, o);
	}
	rules = json_array();
	for (int r = 0; r < pl_map_max_rules(cm); r++)
		if (pl_map_rule_exists(cm, r))
			json_array_append_new(rules, cc_rule_json(cm, r));
	out = json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}", "devices", devs,
			"types", types, "buckets", buckets, "rules", rules,
			"tunables", tunables_json(cm), "choose_args",
			choose_args_json(cm));
	cfs_osdmap_put(m);
	/* `ceph osd crush dump` is JSON whatever the format, json-pretty
	 * unless -f json asks for one line */
	if (ctx->json == 1)
		return cc_json_out(ctx, out);
	json_dumpf(out, ctx->out, JSON_INDENT(4) | JSON_PRESERVE_ORDER);
	fputc('\n', ctx->out);
	json_decref(out);
	return 0;
}

/* ---- osd getcrushmap ---- */

/*
 * The binary map (CrushWrapper::encode, as `crushtool -c` writes it) on
 * the output descriptor; main.c's `osd getcrushmap -o FILE` points it at
 * the file.  Ceph 16.2's monitor answers the crush version on stderr
 * (OSDMonitor::preprocess_command: `ss << p->get_crush_version()`);
 * crushfs's crush version is its osdmap epoch, as `osd dump` says.
 */
int ccmd_osd_getcrushmap(struct cmd_ctx *ctx, int argc, char **argv)
{
	const cfs_osdmap *m;
	void *buf = NULL;
	size_t len = 0;
	uint32_t epoch;
	int r, fd;

	if (cc_nargs(ctx, argc, argv, 0))
		return 1;
	m = cfs_osdmap_get(ctx->cluster);
	epoch = cfs_osdmap_epoch(m);
	r = pl_map_encode(cfs_osdmap_crush(m), &buf, &len);
	cfs_osdmap_put(m);
	if (r)
		return cc_err(ctx, "cannot encode the crush map: %s",
			      cfs_strerror(r));
	fflush(ctx->out);
	fd = ctx->out_fd;
	if (fd < 0) {
		free(buf);
		return cc_err(ctx, "stdout: not available here (the mounted "
				   "daemon got no descriptors from this "
				   "client)");
	}
	r = cfs_write_watch(fd, buf, len, ctx->watch_fd);
	free(buf);
	if (r)
		return cc_err(ctx, "writing the map: %s",
			      r == -ECANCELED ? "the client went away" :
						strerror(-r));
	fprintf(ctx->err, "%u\n", epoch);
	return 0;
}

/*
 * main.c's row: `-o FILE` becomes the standard output (so a mounted
 * daemon, which writes to the descriptor the client hands it, writes the
 * file too), then the cluster command runs.
 */
int cmd_osd_getcrushmap(struct cli_ctx *ctx, int argc, char **argv)
{
	const char *file = NULL;
	int n = 0, fd;

	for (int i = 0; i < argc; i++) {
		const char *v;
		int r = cli_opt(ctx, argc, argv, &i, "-o", &v);

		if (r < 0)
			return 1;
		if (r == 0)
			r = cli_opt(ctx, argc, argv, &i, "--output", &v);
		if (r < 0)
			return 1;
		if (r > 0) {
			file = v;
			continue;
		}
		argv[n++] = argv[i];
	}
	if (file && strcmp(file, "-")) {
		fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0)
			return cli_err(ctx, "%s: %s", file, strerror(errno));
		fflush(stdout);
		if (dup2(fd, STDOUT_FILENO) < 0) {
			close(fd);
			return cli_err(ctx, "%s: %s", file, strerror(errno));
		}
		close(fd);
	} else if (isatty(STDOUT_FILENO)) {
		return cli_err(ctx, "the map is binary: give -o FILE "
				    "(or redirect the output)");
	}
	return cmd_cluster(ctx, n, argv);
}
