/*
 * cmd_pool_create.c - `osd pool create NAME [PG_NUM [PGP_NUM]]
 * [replicated [RULE] | erasure [PROFILE [RULE]]]` and `osd pool rm NAME
 * NAME --yes-i-really-really-mean-it`, with Ceph 16.2's defaults and
 * messages (OSDMonitor::prepare_command_impl, prepare_new_pool,
 * prepare_pool_size): pg_num 32 (osd_pool_default_pg_num), pgp_num =
 * pg_num, a replicated pool size 3 and min_size 2 on the first replicated
 * rule, an erasure pool k+m wide with min_size k+1 (k when m is 1) on the
 * rule named after the pool ("erasure-code" for the default profile),
 * made from the profile when missing.  The new pools are placed like the
 * data pool; the filesystem stays in its data pool.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cluster_cmds.h"
#include "osdmap.h"
#include "placement.h"
#include "util.h"

/* osd_pool_default_pg_num, osd_pool_default_size (16.2) */
#define DEFAULT_PG_NUM 32
#define DEFAULT_SIZE 3

static int uint_arg(const char *s, uint32_t *v)
{
	char *end;
	long long x;

	if (!*s || *s < '0' || *s > '9')
		return -1;
	x = strtoll(s, &end, 10);
	if (*end || x < 0 || x > UINT32_MAX)
		return -1;
	*v = (uint32_t)x;
	return 0;
}

static int first_replicated_rule(const pl_map *cm)
{
	for (int r = 0; r < pl_map_max_rules(cm); r++)
		if (pl_map_rule_exists(cm, r) &&
		    pl_map_rule_type(cm, r) == PL_RULE_TYPE_REPLICATED)
			return r;
	return -1;
}

static int int_of(const cfs_osdmap *m, const char *prof, const char *key,
		  int dflt)
{
	const char *v = cfs_ec_profile_get(m, prof, key);

	return v && *v ? atoi(v) : dflt;
}

/* The profile as the pool will use it: a plugin and technique crushfs
 * encodes, k, m and stripe_unit as the plugin parses them. */
static int profile_ok(const cfs_osdmap *m, const char *prof, char *why,
		      size_t whylen)
{
	const char *k[64], *v[64];
	int n = cfs_ec_profile_keys(m, prof, k, v, 64);

	if (n > 64) {
		snprintf(why, whylen, "more than 64 keys");
		return -EINVAL;
	}
	return cfs_ec_profile_check(prof, k, v, n < 0 ? 0 : n,
				    CFS_ECP_ENCODE, why, whylen);
}

int ccmd_osd_pool_create(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct cfs_pool_info want;
	const cfs_osdmap *m;
	const char *type = "replicated", *prof = "", *rule = "";
	char why[256] = "", rname[128];
	int a = 1, r;
	int64_t id;

	memset(&want, 0, sizeof(want));
	if (argc < 1)
		return cc_usage(ctx, "takes NAME [PG_NUM [PGP_NUM]] "
				     "[replicated [RULE] | erasure [PROFILE "
				     "[RULE]]]");
	if (cfs_pool_name_check(argv[0], why, sizeof(why)))
		return cc_err(ctx, "%s", why);
	snprintf(want.name, sizeof(want.name), "%s", argv[0]);
	want.pg_num = DEFAULT_PG_NUM;
	if (a < argc && argv[a][0] >= '0' && argv[a][0] <= '9') {
		if (uint_arg(argv[a], &want.pg_num))
			return cc_err(ctx, "error parsing integer value '%s'",
				      argv[a]);
		a++;
	}
	want.pgp_num = want.pg_num;
	if (a < argc && argv[a][0] >= '0' && argv[a][0] <= '9') {
		if (uint_arg(argv[a], &want.pgp_num))
			return cc_err(ctx, "error parsing integer value '%s'",
				      argv[a]);
		a++;
	}
	if (a < argc)
		type = argv[a++];
	if (strcmp(type, "replicated") && strcmp(type, "erasure"))
		return cc_err(ctx, "unknown pool type '%s'", type);
	want.erasure = !strcmp(type, "erasure");
	/* the CLI's positions: profile then rule; a replicated pool's rule
	 * comes in the profile's place (OSDMonitor's NOTE) */
	if (a < argc)
		prof = argv[a++];
	if (a < argc)
		rule = argv[a++];
	if (a < argc)
		return cc_usage(ctx, "takes NAME [PG_NUM [PGP_NUM]] "
				     "[replicated [RULE] | erasure [PROFILE "
				     "[RULE]]]");
	if (!want.erasure) {
		rule = prof;
		prof = "";
	}

	m = cfs_osdmap_get(ctx->cluster);
	if (cfs_osdmap_pool_by_name(m, want.name)) {
		cfs_osdmap_put(m);
		fprintf(ctx->out, "pool '%s' already exists\n", want.name);
		return 0;
	}
	if (want.erasure) {
		int k, mm;

		if (!*prof)
			prof = "default";
		if (!cfs_ec_profile_exists(m, prof)) {
			cfs_osdmap_put(m);
			return cc_err(ctx, "specified erasure code profile %s "
				      "doesn't exist", prof);
		}
		/* a profile from an import or an older crushfs: one
		 * line now rather than EIO at the pool's first write */
		if (profile_ok(m, prof, why, sizeof(why))) {
			cfs_osdmap_put(m);
			return cc_err(ctx, "erasure code profile %s: %s", prof,
				      why);
		}
		k = int_of(m, prof, "k", 2);
		mm = int_of(m, prof, "m", 2);
		want.size = k + mm;
		want.min_size = k + (mm - 1 < 1 ? mm - 1 : 1);
		snprintf(want.ec_profile, sizeof(want.ec_profile), "%s", prof);
		/* the implicit rule: "erasure-code" for the default
		 * profile, else named after the pool */
		snprintf(rname, sizeof(rname), "%s",
			 *rule ? rule : !strcmp(prof, "default") ?
				      "erasure-code" : want.name);
		if (cc_rule_by_name(cfs_osdmap_crush(m), rname) < 0) {
			if (*rule) {
				cfs_osdmap_put(m);
				return cc_err(ctx, "specified rule %s doesn't "
					      "exist", rule);
			}
			cfs_osdmap_put(m);
			if (cc_ec_rule_create(ctx, rname, prof))
				return 1;
			m = cfs_osdmap_get(ctx->cluster);
		}
		want.crush_rule = cc_rule_by_name(cfs_osdmap_crush(m), rname);
	} else {
		want.size = DEFAULT_SIZE;
		want.min_size = want.size - want.size / 2;
		want.crush_rule = *rule ? cc_rule_by_name(cfs_osdmap_crush(m),
							  rule)
					: first_replicated_rule(
						  cfs_osdmap_crush(m));
		if (want.crush_rule < 0) {
			cfs_osdmap_put(m);
			if (*rule)
				return cc_err(ctx, "specified rule %s doesn't "
					      "exist", rule);
			return cc_err(ctx, "the crush map has no replicated "
				      "rule");
		}
	}
	cfs_osdmap_put(m);
	r = cfs_pool_create(ctx->cluster, &want, &id, why, sizeof(why));
	if (r == -EEXIST) {
		fprintf(ctx->out, "pool '%s' already exists\n", want.name);
		return 0;
	}
	if (r)
		return cc_err(ctx, "%s", *why ? why : cfs_strerror(r));
	if (ctx->json)
		return cc_json_out(ctx, json_pack("{s:s, s:I}", "pool",
						  want.name, "pool_id",
						  (json_int_t)id));
	fprintf(ctx->out, "pool '%s' created\n", want.name);
	return 0;
}

int ccmd_osd_pool_rm(struct cmd_ctx *ctx, int argc, char **argv)
{
	const cfs_osdmap *m;
	const struct cfs_pool_info *p;
	char why[256] = "", name[64];
	int64_t id;
	int sure, r;

	if (argc < 1 || argc > 3)
		return cc_usage(ctx, "takes NAME NAME "
				     "--yes-i-really-really-mean-it");
	sure = argc == 3 && !strcmp(argv[2], "--yes-i-really-really-mean-it");
	m = cfs_osdmap_get(ctx->cluster);
	p = cfs_osdmap_pool_by_name(m, argv[0]);
	if (!p) {
		cfs_osdmap_put(m);
		fprintf(ctx->out, "pool '%s' does not exist\n", argv[0]);
		return 0;
	}
	id = p->id;
	snprintf(name, sizeof(name), "%s", p->name);
	cfs_osdmap_put(m);
	if (argc < 2 || strcmp(argv[1], argv[0]) || !sure)
		return cc_err(ctx, "WARNING: this will *PERMANENTLY DESTROY* "
			      "all data stored in pool %s.  If you are "
			      "*ABSOLUTELY CERTAIN* that is what you want, "
			      "pass the pool name *twice*, followed by "
			      "--yes-i-really-really-mean-it.", name);
	r = cfs_pool_remove(ctx->cluster, id, why, sizeof(why));
	if (r)
		return cc_err(ctx, "%s", *why ? why : cfs_strerror(r));
	fprintf(ctx->out, "pool '%s' removed\n", name);
	return 0;
}
