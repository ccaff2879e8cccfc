/*
 * cmd_ecprofile.c - `osd erasure-code-profile set NAME [KEY=VALUE...]
 * [--force]`, `get NAME`, `ls`, `rm NAME`, as Ceph 16.2's monitor runs
 * them.  A profile set is checked and completed as the plugin's init
 * completes it (ErasureCodeJerasure / ErasureCodeIsa: k >= 2, m >= 1,
 * the technique and w it knows, Ceph's defaults written into the profile:
 * crush-root=default, crush-failure-domain=host, crush-device-class=,
 * jerasure's w=8 and jerasure-per-chunk-alignment=false), so that `get`
 * prints what Ceph prints.  crushfs encodes with ISA-L (objlayer's
 * ec_codec); both plugins' reed_sol_van are the same code (Vandermonde
 * over GF(2^8)).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cluster_cmds.h"
#include "osdmap.h"
#include "util.h"

#define MAX_KEYS 64

struct kv {
	const char *k[MAX_KEYS];
	const char *v[MAX_KEYS];
	char *own[MAX_KEYS]; /* strdup'ed pairs */
	int n;
};

static const char *get(const struct kv *p, const char *k)
{
	for (int i = 0; i < p->n; i++)
		if (!strcmp(p->k[i], k))
			return p->v[i];
	return NULL;
}

static void put_default(struct kv *p, const char *k, const char *v)
{
	if (!get(p, k) && p->n < MAX_KEYS) {
		p->k[p->n] = k;
		p->v[p->n] = v;
		p->own[p->n] = NULL;
		p->n++;
	}
}

static void kv_free(struct kv *p)
{
	for (int i = 0; i < p->n; i++)
		free(p->own[i]);
}

/* The plugin's init: defaults in, values checked as Ceph's plugin and
 * monitor check them (osdsim's cfs_ec_profile_check); 0 or the exit
 * status after one error line. */
static int complete(struct cmd_ctx *ctx, const char *name, struct kv *p,
		    int force)
{
	const char *plugin;
	char why[256];

	if (cfs_ec_profile_name_check(name, why, sizeof(why)))
		return cc_err(ctx, "%s", why);
	put_default(p, "plugin", "jerasure");
	plugin = get(p, "plugin");
	put_default(p, "k", "2");
	put_default(p, "m", "2");
	put_default(p, "technique", "reed_sol_van");
	put_default(p, "crush-root", "default");
	put_default(p, "crush-failure-domain", "host");
	put_default(p, "crush-device-class", "");
	if (!strcmp(plugin, "jerasure")) {
		put_default(p, "w", "8");
		put_default(p, "jerasure-per-chunk-alignment", "false");
	}
	if (cfs_ec_profile_check(name, p->k, p->v, p->n,
				 CFS_ECP_CEPH | CFS_ECP_ENCODE |
					 (force ? 0 : CFS_ECP_PERF),
				 why, sizeof(why)))
		return cc_err(ctx, "%s", why);
	return 0;
}

int ccmd_osd_ec_profile_set(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct kv p = { .n = 0 };
	char why[512] = "";
	int force = 0, r;

	if (argc < 1 || argv[0][0] == '-')
		return cc_usage(ctx, "takes NAME [KEY=VALUE...] [--force]");
	for (int i = 1; i < argc; i++) {
		char *eq, *dup;

		if (!strcmp(argv[i], "--force")) {
			force = 1;
			continue;
		}
		eq = strchr(argv[i], '=');
		if (!eq || eq == argv[i] || p.n >= MAX_KEYS) {
			kv_free(&p);
			return cc_usage(ctx, "'%s' is not KEY=VALUE", argv[i]);
		}
		dup = strdup(argv[i]);
		if (!dup) {
			kv_free(&p);
			return cc_err(ctx, "out of memory");
		}
		dup[eq - argv[i]] = '\0';
		/* a key given twice: the last one counts, as Ceph's map */
		for (int k = 0; k < p.n; k++)
			if (!strcmp(p.k[k], dup)) {
				free(p.own[k]);
				p.k[k] = p.k[--p.n];
				p.v[k] = p.v[p.n];
				p.own[k] = p.own[p.n];
				break;
			}
		p.k[p.n] = dup;
		p.v[p.n] = dup + (eq - argv[i]) + 1;
		p.own[p.n] = dup;
		p.n++;
	}
	if (complete(ctx, argv[0], &p, force)) {
		kv_free(&p);
		return 1;
	}
	r = cfs_ec_profile_set(ctx->cluster, argv[0], p.k, p.v, p.n, force,
			       why, sizeof(why));
	kv_free(&p);
	if (r == -EEXIST)
		return 0; /* the same profile: nothing to do, as Ceph */
	if (r)
		return cc_err(ctx, "%s", *why ? why : cfs_strerror(r));
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int ccmd_osd_ec_profile_get(struct cmd_ctx *ctx, int argc, char **argv)
{
	const cfs_osdmap *m;
	const char *k[MAX_KEYS], *v[MAX_KEYS], *sorted[MAX_KEYS];
	json_t *o = NULL;
	int n;

	if (cc_nargs(ctx, argc, argv, 1))
		return 1;
	m = cfs_osdmap_get(ctx->cluster);
	n = cfs_ec_profile_keys(m, argv[0], k, v, MAX_KEYS);
	if (n < 0) {
		cfs_osdmap_put(m);
		return cc_err(ctx, "unknown erasure code profile '%s'",
			      argv[0]);
	}
	if (n > MAX_KEYS)
		n = MAX_KEYS;
	/* Ceph's profile is a std::map: keys in order */
	memcpy(sorted, k, sizeof(*k) * (size_t)n);
	qsort(sorted, (size_t)n, sizeof(*sorted), cmp_str);
	if (ctx->json)
		o = json_object();
	for (int i = 0; i < n; i++) {
		const char *val = cfs_ec_profile_get(m, argv[0], sorted[i]);

		if (o)
			json_object_set_new(o, sorted[i], json_string(val));
		else
			fprintf(ctx->out, "%s=%s\n", sorted[i], val);
	}
	cfs_osdmap_put(m);
	return o ? cc_json_out(ctx, o) : 0;
}

int ccmd_osd_ec_profile_ls(struct cmd_ctx *ctx, int argc, char **argv)
{
	const cfs_osdmap *m;
	const char *names[256];
	json_t *a = NULL;
	int n;

	if (cc_nargs(ctx, argc, argv, 0))
		return 1;
	m = cfs_osdmap_get(ctx->cluster);
	n = cfs_ec_profile_names(m, names, 256);
	if (n > 256)
		n = 256;
	qsort(names, (size_t)n, sizeof(*names), cmp_str);
	if (ctx->json)
		a = json_array();
	for (int i = 0; i < n; i++) {
		if (a)
			json_array_append_new(a, json_string(names[i]));
		else
			fprintf(ctx->out, "%s\n", names[i]);
	}
	cfs_osdmap_put(m);
	return a ? cc_json_out(ctx, a) : 0;
}

int ccmd_osd_ec_profile_rm(struct cmd_ctx *ctx, int argc, char **argv)
{
	int r;

	if (cc_nargs(ctx, argc, argv, 1))
		return 1;
	r = cfs_ec_profile_rm(ctx->cluster, argv[0]);
	if (r == -ENOENT) {
		/* not an error in Ceph */
		fprintf(ctx->out, "erasure-code-profile %s does not exist\n",
			argv[0]);
		return 0;
	}
	if (r)
		return cc_err(ctx, "%s", cfs_strerror(r));
	return 0;
}
