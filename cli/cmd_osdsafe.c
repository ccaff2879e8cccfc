/*
 * cmd_osdsafe.c - `osd ok-to-stop ID...` and `osd safe-to-destroy ID...`,
 * worded and with the exit statuses of Ceph 16.2 (src/mgr/DaemonServer.cc):
 * 0 when it is safe, EBUSY (16) when it is not, EAGAIN (11) when nothing
 * can be concluded.  The decisions are mgr/'s (mgr_osdsafety.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cluster_cmds.h"
#include "mgr_osdsafety.h"
#include "osdmap.h"
#include "util.h"

/* OSDMap::parse_osd_id_list: "3", "osd.3", or all of them ("any", "all",
 * "*" first); ids that do not exist are taken (they are safe) */
static int osd_ids(struct cmd_ctx *ctx, int argc, char **argv, int **out,
		   int *n)
{
	const cfs_osdmap *m;
	int *v;

	*n = 0;
	if (!argc)
		return cc_err(ctx, "must specify one or more OSDs");
	m = cfs_osdmap_get(ctx->cluster);
	v = calloc((size_t)cfs_osdmap_max_osd(m) + (size_t)argc + 1,
		   sizeof(int));
	if (!v) {
		cfs_osdmap_put(m);
		return cc_err(ctx, "out of memory");
	}
	if (!strcmp(argv[0], "any") || !strcmp(argv[0], "all") ||
	    !strcmp(argv[0], "*")) {
		for (int o = 0; o < cfs_osdmap_max_osd(m); o++)
			if (cfs_osdmap_exists(m, o))
				v[(*n)++] = o;
	} else {
		for (int i = 0; i < argc; i++) {
			const char *s = argv[i];
			char *end;
			long id;
			int dup = 0;

			if (!strncmp(s, "osd.", 4))
				s += 4;
			id = strtol(s, &end, 10);
			if (!*s || *end || id < 0 || id >= CFS_MAX_OSD) {
				cfs_osdmap_put(m);
				free(v);
				return cc_err(ctx, "invalid osd id '%s'",
					      argv[i]);
			}
			for (int k = 0; k < *n; k++)
				dup |= v[k] == id;
			if (!dup)
				v[(*n)++] = (int)id;
		}
	}
	cfs_osdmap_put(m);
	/* a std::set: ascending */
	for (int i = 1; i < *n; i++)
		for (int k = i; k > 0 && v[k - 1] > v[k]; k--) {
			int t = v[k];

			v[k] = v[k - 1];
			v[k - 1] = t;
		}
	*out = v;
	return 0;
}

/* Ceph's operator<< of a std::set<int>: "1,2,3" */
static void set_str(char *buf, size_t len, const int *v, int n)
{
	size_t o = 0;

	buf[0] = 0;
	for (int i = 0; i < n && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%d", i ? "," : "",
				      v[i]);
}

static json_t *pg_array(const struct mgr_pg_list *l)
{
	json_t *a = json_array();

	for (int i = 0; i < l->n; i++)
		json_array_append_new(a, json_string(l->v[i]));
	return a;
}

static json_t *int_array(const int *v, int n)
{
	json_t *a = json_array();

	for (int i = 0; i < n; i++)
		json_array_append_new(a, json_integer(v[i]));
	return a;
}

int ccmd_osd_ok_to_stop(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct mgr_ok_to_stop r;
	char ids[512];
	int *osds, n, e;

	for (int i = 0; i < argc; i++)
		if (!strncmp(argv[i], "--max", 5))
			return cc_err(ctx, "--max (more OSDs of the same crush "
				      "bucket, _maximize_ok_to_stop_set) is "
				      "not implemented: name the OSDs");
	if (osd_ids(ctx, argc, argv, &osds, &n))
		return 1;
	e = mgr_ok_to_stop(ctx->cluster, ctx->ol, osds, n, &r);
	free(osds);
	if (e)
		return cc_err(ctx, "%s", cfs_strerror(e));
	if (ctx->json) {
		/* offline_pg_report::dump (16.2.7+): the lists that are not
		 * empty */
		json_t *o = json_pack("{s:b, s:o, s:i, s:i}", "ok_to_stop",
				      mgr_ok_to_stop_ok(&r), "osds",
				      int_array(r.osds, r.nosds),
				      "num_ok_pgs", r.ok.n, "num_not_ok_pgs",
				      r.not_ok.n);
		const struct {
			const char *k;
			const struct mgr_pg_list *l;
		} lists[] = {
			{ "unknown_pgs", &r.unknown },
			{ "bad_no_pool", &r.bad_no_pool },
			{ "bad_already_inactive", &r.bad_already_inactive },
			{ "bad_become_inactive", &r.bad_become_inactive },
			{ "ok_become_degraded", &r.ok_become_degraded },
			{ "ok_become_more_degraded",
			  &r.ok_become_more_degraded },
		};

		for (size_t i = 0; o && i < sizeof(lists) / sizeof(lists[0]);
		     i++)
			if (lists[i].l->n)
				json_object_set_new(o, lists[i].k,
						    pg_array(lists[i].l));
		cc_json_out(ctx, o);
	}
	set_str(ids, sizeof(ids), r.osds, r.nosds);
	if (r.unknown.n) {
		cc_err(ctx, "%d pgs have unknown state; cannot draw any "
		       "conclusions", r.unknown.n);
		mgr_ok_to_stop_free(&r);
		return EAGAIN;
	}
	if (!mgr_ok_to_stop_ok(&r)) {
		cc_err(ctx, "unsafe to stop osd(s) at this time (%d PGs are "
		       "or would become offline)", r.not_ok.n);
		mgr_ok_to_stop_free(&r);
		return EBUSY;
	}
	if (!ctx->json)
		fprintf(ctx->out, "OSD(s) %s are ok to stop without reducing "
			"availability or risking data, provided there are no "
			"other concurrent failures or interventions.\n%d PGs "
			"are likely to be degraded (but remain available) as "
			"a result.\n", ids, r.ok.n);
	mgr_ok_to_stop_free(&r);
	return 0;
}

int ccmd_osd_safe_to_destroy(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct mgr_safe_to_destroy r;
	char a[512], msg[2048];
	size_t o = 0;
	int *osds, n, e, rc;

	if (osd_ids(ctx, argc, argv, &osds, &n))
		return 1;
	e = mgr_safe_to_destroy(ctx->cluster, ctx->ol, osds, n, &r);
	if (e) {
		free(osds);
		return cc_err(ctx, "%s", cfs_strerror(e));
	}
	if (ctx->json) {
		/* with a formatter Ceph answers 0 and lets the lists say */
		cc_json_out(ctx, json_pack("{s:o, s:o, s:o, s:o}",
					   "safe_to_destroy",
					   int_array(r.safe, r.nsafe),
					   "active",
					   int_array(r.active, r.nactive),
					   "missing_stats",
					   int_array(r.missing_stats,
						     r.nmissing),
					   "stored_pgs",
					   int_array(r.stored, r.nstored)));
		mgr_safe_to_destroy_free(&r);
		free(osds);
		return 0;
	}
	if (!r.nactive && !r.nmissing && !r.nstored) {
		set_str(a, sizeof(a), osds, n);
		fprintf(ctx->out, "OSD(s) %s are safe to destroy without "
			"reducing data durability.\n", a);
		mgr_safe_to_destroy_free(&r);
		free(osds);
		return 0;
	}
	msg[0] = 0;
	if (r.nsafe) {
		set_str(a, sizeof(a), r.safe, r.nsafe);
		o += (size_t)snprintf(msg + o, sizeof(msg) - o, "OSD(s) %s are "
				      "safe to destroy without reducing data "
				      "durability. ", a);
	}
	if (r.nactive && o < sizeof(msg)) {
		set_str(a, sizeof(a), r.active, r.nactive);
		o += (size_t)snprintf(msg + o, sizeof(msg) - o, "OSD(s) %s have "
				      "%d pgs currently mapped to them. ", a,
				      r.affected_pgs);
	}
	if (r.nmissing && o < sizeof(msg)) {
		set_str(a, sizeof(a), r.missing_stats, r.nmissing);
		o += (size_t)snprintf(msg + o, sizeof(msg) - o, "OSD(s) %s have "
				      "no reported stats, and not all PGs are "
				      "active+clean; we cannot draw any "
				      "conclusions. ", a);
	}
	if (r.nstored && o < sizeof(msg)) {
		set_str(a, sizeof(a), r.stored, r.nstored);
		snprintf(msg + o, sizeof(msg) - o, "OSD(s) %s last reported "
			 "they still store some PG data, and not all PGs are "
			 "active+clean; we cannot be sure they aren't still "
			 "needed.", a);
	}
	/* Ceph's message ends in a space unless stored_pgs closed it */
	o = strlen(msg);
	while (o && msg[o - 1] == ' ')
		msg[--o] = 0;
	rc = r.nactive || r.nstored ? EBUSY : EAGAIN;
	cc_err(ctx, "%s", msg);
	mgr_safe_to_destroy_free(&r);
	free(osds);
	return rc;
}
