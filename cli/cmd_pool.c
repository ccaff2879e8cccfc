/*
 * cmd_pool.c - the pool and crush rule commands, in Ceph 16.2's forms:
 * `osd pool ls [detail]`, `osd pool get NAME KEY|all`, `osd pool set NAME
 * KEY VALUE`, `osd pool set-quota NAME max_bytes|max_objects N`, `osd pool
 * get-quota NAME`, `osd crush rule ls|dump [NAME]`, `osd crush rule
 * create-replicated NAME ROOT TYPE [CLASS]`, on any pool: the
 * filesystem's data pool or those `osd pool create` made
 * (cmd_pool_create.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cluster_cmds.h"
#include "objlayer.h"
#include "osdmap.h"
#include "placement.h"
#include "usage.h"
#include "util.h"

int cc_rule_by_name(const pl_map *cm, const char *name)
{
	for (int r = 0; r < pl_map_max_rules(cm); r++)
		if (pl_map_rule_exists(cm, r) && pl_map_rule_name(cm, r) &&
		    !strcmp(pl_map_rule_name(cm, r), name))
			return r;
	return -1;
}

const struct cfs_pool_info *cc_pool_arg(struct cmd_ctx *ctx,
					const cfs_osdmap *m, const char *s)
{
	const struct cfs_pool_info *p = cfs_osdmap_pool_by_name(m, s);
	char *end;
	long long id = strtoll(s, &end, 10);

	/* its name, or its id as Ceph also takes */
	if (!p && *s && !*end)
		p = cfs_osdmap_pool_by_id(m, id);
	if (!p)
		cc_err(ctx, "unrecognized pool '%s'", s);
	return p;
}

const struct cfs_pool_info *cc_other_pool(const cfs_osdmap *m,
					  const char *s)
{
	const struct cfs_pool_info *p = cfs_osdmap_pool_by_name(m, s);
	char *end;
	long long id = strtoll(s, &end, 10);

	/* a name, an id, or the pool part of a pgid ("2.1f") */
	if (!p && end != s && (!*end || *end == '.'))
		p = cfs_osdmap_pool_by_id(m, id);
	return p && p->id != cfs_osdmap_pool(m)->id ? p : NULL;
}

int cc_pool_holds_objects(struct cmd_ctx *ctx, const char *s)
{
	const cfs_osdmap *m = cfs_osdmap_get(ctx->cluster);
	const struct cfs_pool_info *p = cfs_osdmap_pool_by_name(m, s);
	char *end;
	long long id = strtoll(s, &end, 10);
	int r;

	if (!p && *s && !*end)
		p = cfs_osdmap_pool_by_id(m, id);
	r = p != NULL;
	cfs_osdmap_put(m);
	return r;
}

/* The current map, once the pool named s is known to be in it (NULL
 * after the error line otherwise); *p gets the pool. */
static const cfs_osdmap *pool_map(struct cmd_ctx *ctx, const char *s,
				  const struct cfs_pool_info **p)
{
	const cfs_osdmap *m = cfs_osdmap_get(ctx->cluster);

	*p = cc_pool_arg(ctx, m, s);
	if (!*p) {
		cfs_osdmap_put(m);
		return NULL;
	}
	return m;
}

/* ErasureCodeJerasure/Isa's chunk size for a 4 KiB stripe unit: the
 * pool's stripe_width is k of them (profile stripe_unit, 4 KiB). */
static unsigned stripe_width(const cfs_osdmap *m,
			     const struct cfs_pool_info *p)
{
	const char *k = cfs_ec_profile_get(m, p->ec_profile, "k");
	const char *su = cfs_ec_profile_get(m, p->ec_profile, "stripe_unit");
	uint64_t unit = 4096;

	if (!p->erasure)
		return 0;
	if (su && cfs_parse_size(su, &unit))
		unit = 4096;
	return (unsigned)(unit * (uint64_t)(k ? atoi(k) : 2));
}

void cc_pool_line(FILE *o, cfs_cluster *c, const cfs_osdmap *m,
		  const struct cfs_pool_info *p)
{
	/* Ceph's monitor sets FULL while an OSD the pool's rule reaches is
	 * full (policy pool), FULL_QUOTA past a quota */
	int full = cfs_osdmap_full_policy(m) == CFS_FULL_POOL &&
		   cfs_pool_is_full(c, m, p, NULL);
	int quota = cfs_pool_quota_full(c, m, p, NULL);

	/* pg_pool_t's operator<<, the fields crushfs has (the targets only
	 * while pg_num / pgp_num move to them, as Ceph 14+ prints them) */
	fprintf(o, "pool %" PRId64 " '%s' %s", p->id, p->name,
		p->erasure ? "erasure" : "replicated");
	if (p->erasure)
		fprintf(o, " profile %s", p->ec_profile);
	fprintf(o, " size %d min_size %d "
		   "crush_rule %d object_hash rjenkins pg_num %u pgp_num %u",
		p->size, p->min_size, p->crush_rule, p->pg_num, p->pgp_num);
	if (p->pg_num_target != p->pg_num)
		fprintf(o, " pg_num_target %u", p->pg_num_target);
	if (p->pgp_num_target != p->pgp_num)
		fprintf(o, " pgp_num_target %u", p->pgp_num_target);
	fprintf(o, " autoscale_mode off last_change %u flags hashpspool%s%s%s",
		cfs_osdmap_epoch(m), full || quota ? ",full" : "",
		quota ? ",full_quota" : "",
		p->ec_overwrites ? ",ec_overwrites" : "");
	if (p->quota_max_bytes)
		fprintf(o, " max_bytes %" PRIu64, p->quota_max_bytes);
	if (p->quota_max_objects)
		fprintf(o, " max_objects %" PRIu64, p->quota_max_objects);
	/* pg_pool_t's operator<<: " application A,B" when any */
	{
		char apps[CFS_POOL_APPS_LEN];

		fprintf(o, " stripe_width %u%s%s\n", stripe_width(m, p),
			cfs_pool_app_names(p, apps, sizeof(apps)) ?
				" application " : "",
			apps);
	}
}

int ccmd_osd_pool_ls(struct cmd_ctx *ctx, int argc, char **argv)
{
	const cfs_osdmap *m;
	const struct cfs_pool_info *p;
	int detail = argc == 1 && !strcmp(argv[0], "detail");

	if (argc > 1 || (argc == 1 && !detail))
		return cc_usage(ctx, "takes nothing or 'detail'");
	m = cfs_osdmap_get(ctx->cluster);
	if (ctx->json) {
		json_t *a = json_array();

		for (int i = 0; i < cfs_osdmap_npools(m); i++) {
			p = cfs_osdmap_pool_at(m, i);
			if (detail)
				json_array_append_new(
					a, json_pack(
						"{s:s, s:I, s:i, s:i, s:i, s:s, "
						"s:i, s:i, s:i, s:i, s:i, s:I, "
						"s:I}",
						"pool_name", p->name, "pool_id",
						(json_int_t)p->id, "type",
						p->erasure ? 3 : 1, "size",
						p->size, "min_size",
						p->min_size,
						"erasure_code_profile",
						p->erasure ? p->ec_profile : "",
						"crush_rule", p->crush_rule,
						"pg_num", (int)p->pg_num,
						"pg_placement_num",
						(int)p->pgp_num,
						"pg_placement_num_target",
						(int)p->pgp_num_target,
						"pg_num_target",
						(int)p->pg_num_target,
						"quota_max_bytes",
						(json_int_t)p->quota_max_bytes,
						"quota_max_objects",
						(json_int_t)
							p->quota_max_objects));
			else
				json_array_append_new(a, json_string(p->name));
		}
		cfs_osdmap_put(m);
		return cc_json_out(ctx, a);
	}
	for (int i = 0; i < cfs_osdmap_npools(m); i++) {
		p = cfs_osdmap_pool_at(m, i);
		if (detail) {
			cc_pool_line(ctx->out, ctx->cluster, m, p);
			fputc('\n', ctx->out);
		} else {
			fprintf(ctx->out, "%s\n", p->name);
		}
	}
	cfs_osdmap_put(m);
	return 0;
}

static const char *const pool_keys[] = { "size", "min_size", "pg_num",
					 "pgp_num", "crush_rule" };

static int key_value(const cfs_osdmap *m, const struct cfs_pool_info *p,
		     const char *key, char *buf, size_t len, json_t **jv)
{
	const pl_map *cm = cfs_osdmap_crush(m);

	if (!strcmp(key, "size") || !strcmp(key, "min_size")) {
		int v = key[0] == 's' ? p->size : p->min_size;

		snprintf(buf, len, "%d", v);
		*jv = json_integer(v);
	} else if (!strcmp(key, "pg_num") || !strcmp(key, "pgp_num")) {
		uint32_t v = !strcmp(key, "pg_num") ? p->pg_num : p->pgp_num;

		snprintf(buf, len, "%u", v);
		*jv = json_integer(v);
	} else if (!strcmp(key, "allow_ec_overwrites")) {
		if (!p->erasure)
			return -ENOENT; /* Ceph: a key of erasure pools */
		snprintf(buf, len, "%s", p->ec_overwrites ? "true" : "false");
		*jv = json_boolean(p->ec_overwrites);
	} else if (!strcmp(key, "erasure_code_profile") && p->erasure) {
		snprintf(buf, len, "%s", p->ec_profile);
		*jv = json_string(buf);
	} else if (!strcmp(key, "crush_rule")) {
		/* Ceph prints the rule's name */
		const char *n = pl_map_rule_name(cm, p->crush_rule);

		if (n)
			snprintf(buf, len, "%s", n);
		else
			snprintf(buf, len, "%d", p->crush_rule);
		*jv = json_string(buf);
	} else {
		return -ENOENT;
	}
	return 0;
}

int ccmd_osd_pool_get(struct cmd_ctx *ctx, int argc, char **argv)
{
	const cfs_osdmap *m;
	const struct cfs_pool_info *p;
	json_t *obj = NULL, *jv;
	char v[128];
	int all;

	if (cc_nargs(ctx, argc, argv, 2))
		return 1;
	if (!(m = pool_map(ctx, argv[0], &p)))
		return 1;
	all = !strcmp(argv[1], "all");
	if (ctx->json)
		obj = json_pack("{s:s, s:I}", "pool", p->name, "pool_id",
				(json_int_t)p->id);
	for (size_t i = 0; i < sizeof(pool_keys) / sizeof(pool_keys[0]);
	     i++) {
		if (!all && strcmp(argv[1], pool_keys[i]))
			continue;
		key_value(m, p, pool_keys[i], v, sizeof(v), &jv);
		if (obj)
			json_object_set_new(obj, pool_keys[i], jv);
		else
			json_decref(jv), fprintf(ctx->out, "%s: %s\n",
						 pool_keys[i], v);
		if (!all)
			break;
	}
	if (all && p->erasure && !key_value(m, p, "allow_ec_overwrites", v,
					     sizeof(v), &jv)) {
		if (obj)
			json_object_set_new(obj, "allow_ec_overwrites", jv);
		else
			json_decref(jv), fprintf(ctx->out,
						 "allow_ec_overwrites: %s\n",
						 v);
	}
	if (all && p->erasure && !key_value(m, p, "erasure_code_profile", v,
					     sizeof(v), &jv)) {
		if (obj)
			json_object_set_new(obj, "erasure_code_profile", jv);
		else
			json_decref(jv), fprintf(ctx->out,
						 "erasure_code_profile: %s\n",
						 v);
	}
	if (!all && key_value(m, p, argv[1], v, sizeof(v), &jv)) {
		json_decref(obj);
		cfs_osdmap_put(m);
		return cc_err(ctx, "unrecognized variable '%s' (crushfs "
			      "knows size, min_size, pg_num, pgp_num, "
			      "crush_rule, all)", argv[1]);
	}
	if (!all)
		json_decref(jv);
	cfs_osdmap_put(m);
	return obj ? cc_json_out(ctx, obj) : 0;
}

/* Ceph's strict_strtoll for a pool variable. */
static int int_value(struct cmd_ctx *ctx, const char *s, long long lo,
		     long long hi, long long *out)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (end == s || *end || errno || v < lo || v > hi) {
		cc_err(ctx, "error parsing integer value '%s'", s);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

static int apply(struct cmd_ctx *ctx, const struct cfs_pool_info *want,
		 const char *done)
{
	char why[256] = "";
	int r = cfs_pool_update(ctx->cluster, want, why, sizeof(why));

	if (r)
		return cc_err(ctx, "%s", *why ? why : cfs_strerror(r));
	return cc_done_epoch(ctx, "%s", done);
}

/* "set pool 1 pg_num to 64", as the monitor answers, and what crushfs
 * has done of it: pg_num and pgp_num now, and what rebalance does next
 * when they are short of their targets. */
static int pg_num_done(struct cmd_ctx *ctx, int64_t id, long long v)
{
	const cfs_osdmap *m = cfs_osdmap_get(ctx->cluster);
	const struct cfs_pool_info *q = cfs_osdmap_pool_by_id(m, id);
	struct cfs_pool_info p;
	uint32_t pgp;
	char next[160] = "";

	if (!q) { /* removed meanwhile */
		cfs_osdmap_put(m);
		return cc_done_epoch(ctx, "set pool %lld pg_num to %lld",
				     (long long)id, v);
	}
	p = *q;
	cfs_osdmap_put(m);
	pgp = p.pgp_num_target < p.pg_num_target ? p.pgp_num_target
						 : p.pg_num_target;
	if (p.pg_num_target > p.pg_num)
		snprintf(next, sizeof(next), ": `rebalance` splits once the "
			 "PGs are clean, then steps pgp_num to %u", pgp);
	else if (p.pg_num_target < p.pg_num && p.pgp_num_target > p.pg_num_target)
		/* Ceph merges no PG below pgp_num: one set apart from
		 * pg_num's target holds the merge there */
		snprintf(next, sizeof(next), ": `rebalance` merges down to "
			 "pgp_num_target %u, no further", p.pgp_num_target);
	else if (p.pg_num_target < p.pg_num)
		snprintf(next, sizeof(next), ": `rebalance` lowers pgp_num "
			 "to %u step by step, then merges", pgp);
	else if (p.pgp_num != pgp)
		snprintf(next, sizeof(next), "; `rebalance` steps it to %u",
			 pgp);
	if (p.pg_num_target != p.pg_num)
		return cc_done_epoch(ctx, "set pool %lld pg_num to %lld "
				     "(pg_num %u, pgp_num %u for now%s)",
				     (long long)id, v, p.pg_num, p.pgp_num,
				     next);
	return cc_done_epoch(ctx, "set pool %lld pg_num to %lld (pgp_num %u%s)",
			     (long long)id, v, p.pgp_num, next);
}

/* PG split or merge: the files move, I/O held off meanwhile (also in a
 * mounted daemon).  As Ceph 14+ (OSDMonitor::prepare_command_pool_set)
 * the command sets pg_num_target, and pgp_num_target with it when that
 * followed pg_num_target; crushfs then splits or merges at once when it
 * can (a clean pool; a merge needs pgp_num at most N and the PGs
 * co-located), else leaves that to rebalance (adjust.c), the mgr's
 * part. */
static int set_pg_num(struct cmd_ctx *ctx, const struct cfs_pool_info *p,
		      long long v)
{
	char why[256] = "";
	int r;

	if (v <= 0 || v > 65536)
		return cc_err(ctx, "'pg_num' must be greater than 0 and less "
			      "than or equal to 65536");
	if ((uint32_t)v == p->pg_num)
		/* back to where it is: a change under way is called off */
		r = cfs_pool_set_pg_num_target(ctx->cluster, p->id,
					       (uint32_t)v, why, sizeof(why));
	else
		r = ol_set_pg_num(ctx->ol, p->id, (uint32_t)v, why,
				  sizeof(why));
	if (r == -EBUSY) {
		/* not now: the monitor takes the target anyway */
		*why = '\0';
		r = cfs_pool_set_pg_num_target(ctx->cluster, p->id,
					       (uint32_t)v, why, sizeof(why));
	}
	if (r == -EALREADY) {
		fprintf(ctx->out, "pool '%s' pg_num is already %lld\n",
			p->name, v);
		return 0;
	}
	if (r)
		return cc_err(ctx, "%s", *why ? why : cfs_strerror(r));
	return pg_num_done(ctx, p->id, v);
}

/* `osd pool set POOL pg_num N --dry-run`: a split or merge re-files
 * objects between PG folders of the OSDs holding them (nothing crosses
 * OSDs until pgp_num follows), so this says how many, with the change's
 * refusals; the generic what-if (whatif.c) covers the other keys. */
int cc_pool_pg_num_dry_run(struct cmd_ctx *ctx, int argc, char **argv)
{
	const cfs_osdmap *m;
	const struct cfs_pool_info *p;
	struct cfs_pg_num_plan pl;
	char why[256] = "", name[64], a[32], b[32];
	uint32_t pgp, pgt, pgpt;
	int64_t id;
	long long v;
	int r, wait;

	if (cc_nargs(ctx, argc, argv, 3))
		return 1;
	if (!(m = pool_map(ctx, argv[0], &p)))
		return 1;
	pgp = p->pgp_num;
	pgt = p->pg_num_target;
	pgpt = p->pgp_num_target;
	id = p->id;
	snprintf(name, sizeof(name), "%s", p->name);
	cfs_osdmap_put(m);
	if (int_value(ctx, argv[2], INT32_MIN, INT32_MAX, &v))
		return 1;
	if (v <= 0 || v > 65536)
		return cc_err(ctx, "'pg_num' must be greater than 0 and less "
			      "than or equal to 65536");
	r = cfs_pool_pg_num_plan(ctx->cluster, id, (uint32_t)v, &pl, why,
				 sizeof(why));
	if (r == -EALREADY && pgt != (uint32_t)v) {
		fprintf(ctx->out, "dry run of 'osd pool set %s pg_num %lld': "
			"pg_num stays %lld, pg_num_target %u -> %lld (the "
			"change under way stops)\n", argv[0], v, v, pgt, v);
		return 0;
	}
	if (r == -EALREADY) {
		fprintf(ctx->out, "pool '%s' pg_num is already %lld\n", name,
			v);
		return 0;
	}
	/* what cannot be done now waits for rebalance (set_pg_num) */
	wait = r == -EBUSY;
	if (r && !wait)
		return cc_err(ctx, "%s", *why ? why : cfs_strerror(r));
	/* pgp_num_target after the command: the monitor's rule */
	if (pgt == pgpt)
		pgpt = (uint32_t)v;
	if (ctx->json)
		return cc_json_out(ctx, json_pack(
			"{s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, "
			"s:b, s:s}",
			"pool", name, "pg_num_before", (json_int_t)pl.from,
			"pg_num_after", (json_int_t)pl.to, "pgp_num_after",
			(json_int_t)pgp, "pgp_num_target", (json_int_t)pgpt,
			"objects", (json_int_t)pl.objects,
			"bytes", (json_int_t)pl.bytes, "refiled_objects",
			(json_int_t)pl.refiled, "refiled_bytes",
			(json_int_t)pl.refiled_bytes,
			"bytes_moved_between_osds", (json_int_t)0, "waits",
			wait, "why", wait ? why : ""));
	fprintf(ctx->out, "dry run of 'osd pool set %s pg_num %lld': pg_num "
		"%u -> %u, pgp_num %u", argv[0], v, pl.from, pl.to, pgp);
	if (pgpt != pgp)
		fprintf(ctx->out, " (pgp_num_target %u)", pgpt);
	fputc('\n', ctx->out);
	if (wait && pl.to < pl.from && pgpt > pl.to)
		fprintf(ctx->out, "not now (%s): pg_num_target %lld is kept, "
			"and `rebalance` merges down to pgp_num_target %u, no "
			"further\n", why, v, pgpt);
	else if (wait)
		fprintf(ctx->out, "not now (%s): pg_num_target %lld is kept, "
			"and `rebalance` %s\n", why, v,
			pl.to > pl.from ? "splits once the PGs are clean"
					: "lowers pgp_num step by step, then "
					  "merges");
	else if (pl.to > pl.from)
		fprintf(ctx->out, "split: %u new PGs, each born on its "
			"parent's OSDs\n", pl.to - pl.from);
	else
		fprintf(ctx->out, "merge: %u PGs fold into the PGs on the "
			"same OSDs\n", pl.from - pl.to);
	fprintf(ctx->out, "%llu of %llu objects (%s of %s) change PG; they "
		"stay on their OSDs: nothing moves between OSDs\n",
		(unsigned long long)pl.refiled,
		(unsigned long long)pl.objects,
		cfs_format_size(pl.refiled_bytes, a, sizeof(a)),
		cfs_format_size(pl.bytes, b, sizeof(b)));
	if (pgpt != pgp)
		fprintf(ctx->out, "then `rebalance` steps pgp_num to %u; "
			"'osd pool set %s pgp_num %u --dry-run' shows what "
			"that moves\n", pgpt, argv[0], pgpt);
	return 0;
}

int ccmd_osd_pool_set(struct cmd_ctx *ctx, int argc, char **argv)
{
	const cfs_osdmap *m;
	const struct cfs_pool_info *p;
	struct cfs_pool_info want;
	int data;
	long long v;
	char done[256];

	if (cc_nargs(ctx, argc, argv, 3))
		return 1;
	if (!(m = pool_map(ctx, argv[0], &p)))
		return 1;
	want = *p;
	data = 1; /* its objects move: the split of objlayer */
	if (!strcmp(argv[1], "crush_rule")) {
		int id = cc_rule_by_name(cfs_osdmap_crush(m), argv[2]);

		/* by name, else by number, as the monitor takes it */
		if (id < 0 && int_value(ctx, argv[2], 0, INT32_MAX, &v)) {
			cfs_osdmap_put(m);
			return 1;
		}
		if (id < 0)
			id = (int)v;
		want.crush_rule = id;
	} else if (!strcmp(argv[1], "allow_ec_overwrites")) {
		/* Ceph's boolean spellings */
		const char *b = argv[2];

		if (!strcmp(b, "true") || !strcmp(b, "1") || !strcmp(b, "yes"))
			want.ec_overwrites = 1;
		else if (!strcmp(b, "false") || !strcmp(b, "0") ||
			 !strcmp(b, "no"))
			want.ec_overwrites = 0;
		else {
			cfs_osdmap_put(m);
			return cc_err(ctx, "expecting value 'true', 'false', "
				      "'0', or '1'");
		}
	} else if (!strcmp(argv[1], "size") || !strcmp(argv[1], "min_size") ||
		   !strcmp(argv[1], "pg_num") || !strcmp(argv[1], "pgp_num") ||
		   !strcmp(argv[1], "pgp_num_actual")) {
		if (int_value(ctx, argv[2], INT32_MIN, INT32_MAX, &v)) {
			cfs_osdmap_put(m);
			return 1;
		}
		if (!strcmp(argv[1], "size"))
			want.size = (int)v;
		else if (!strcmp(argv[1], "min_size"))
			want.min_size = (int)v;
		else if (!strcmp(argv[1], "pg_num") && data) {
			cfs_osdmap_put(m);
			return set_pg_num(ctx, &want, v);
		} else if (!strcmp(argv[1], "pg_num"))
			want.pg_num = (uint32_t)v;
		else if (!strcmp(argv[1], "pgp_num"))
			/* Ceph 14+: the target; rebalance steps pgp_num to
			 * it (adjust.c) */
			want.pgp_num_target = (uint32_t)v;
		else
			/* the mgr's own command, at once (a rebalance
			 * steps it back while the target differs) */
			want.pgp_num = (uint32_t)v;
	} else {
		cfs_osdmap_put(m);
		return cc_err(ctx, "unrecognized variable '%s' (crushfs sets "
			      "size, min_size, pg_num, pgp_num, "
			      "pgp_num_actual, crush_rule, "
			      "allow_ec_overwrites)",
			      argv[1]);
	}
	snprintf(done, sizeof(done), "set pool %" PRId64 " %s to %s",
		 want.id, argv[1], argv[2]);
	if (!strcmp(argv[1], "pgp_num") &&
	    p->pgp_num != (want.pgp_num_target < p->pg_num ?
				   want.pgp_num_target : p->pg_num)) {
		size_t n = strlen(done);

		snprintf(done + n, sizeof(done) - n, " (pgp_num %u for now: "
			 "`rebalance` steps it there)", p->pgp_num);
	}
	cfs_osdmap_put(m);
	return apply(ctx, &want, done);
}

int ccmd_osd_pool_set_quota(struct cmd_ctx *ctx, int argc, char **argv)
{
	const cfs_osdmap *m;
	const struct cfs_pool_info *p;
	struct cfs_pool_info want;
	uint64_t v;
	char done[256];

	if (cc_nargs(ctx, argc, argv, 3))
		return 1;
	if (!(m = pool_map(ctx, argv[0], &p)))
		return 1;
	want = *p;
	cfs_osdmap_put(m);
	if (strcmp(argv[1], "max_bytes") && strcmp(argv[1], "max_objects"))
		return cc_err(ctx, "field must be max_bytes or max_objects");
	/* Ceph takes sizes with units for max_bytes (10M, 1G) */
	if (!strcmp(argv[1], "max_bytes")) {
		if (cc_size_arg(ctx, "max_bytes", argv[2], &v))
			return 1;
		want.quota_max_bytes = v;
	} else {
		long long n;

		if (int_value(ctx, argv[2], 0, INT64_MAX, &n))
			return 1;
		want.quota_max_objects = (uint64_t)n;
	}
	snprintf(done, sizeof(done), "set-quota %s = %" PRIu64 " for pool %s",
		 argv[1], argv[1][4] == 'b' ? want.quota_max_bytes
					    : want.quota_max_objects,
		 want.name);
	return apply(ctx, &want, done);
}

int ccmd_osd_pool_get_quota(struct cmd_ctx *ctx, int argc, char **argv)
{
	const cfs_osdmap *m;
	const struct cfs_pool_info *p;
	uint64_t bytes, objects;
	char a[32], b[32];

	if (cc_nargs(ctx, argc, argv, 1))
		return 1;
	if (!(m = pool_map(ctx, argv[0], &p)))
		return 1;
	cfs_pool_usage(ctx->cluster, m, p, &bytes, &objects);
	if (ctx->json) {
		json_t *j = json_pack("{s:s, s:I, s:I, s:I, s:I, s:I}",
				      "pool_name", p->name, "pool_id",
				      (json_int_t)p->id, "quota_max_objects",
				      (json_int_t)p->quota_max_objects,
				      "quota_max_bytes",
				      (json_int_t)p->quota_max_bytes,
				      "current_num_objects",
				      (json_int_t)objects, "current_num_bytes",
				      (json_int_t)bytes);

		cfs_osdmap_put(m);
		return cc_json_out(ctx, j);
	}
	fprintf(ctx->out, "quotas for pool '%s':\n", p->name);
	if (p->quota_max_objects)
		fprintf(ctx->out, "  max objects: %" PRIu64 " objects  "
			"(current num objects: %" PRIu64 " objects)\n",
			p->quota_max_objects, objects);
	else
		fprintf(ctx->out, "  max objects: N/A\n");
	if (p->quota_max_bytes)
		fprintf(ctx->out, "  max bytes  : %s  (current num bytes: %s)\n",
			cfs_format_size(p->quota_max_bytes, a, sizeof(a)),
			cfs_format_size(bytes, b, sizeof(b)));
	else
		fprintf(ctx->out, "  max bytes  : N/A\n");
	cfs_osdmap_put(m);
	return 0;
}
