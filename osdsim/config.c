/*
 * config.c - the monitor options crushfs honours, set as `ceph config set
 * mon KEY VALUE` sets them (Ceph 16.2's names, types and defaults), kept
 * in DIR/config.json (written atomically; absent: every default).  They
 * are not osdmap state: a change makes no epoch.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "osdsim_i.h"
#include "util.h"

/* T_RATIO: a T_FLOAT that must lie in (0, 1]; T_MODE: the balancer's
 * mode (none, crush-compat, upmap) */
enum { T_BOOL, T_UINT, T_FLOAT, T_RATIO, T_MODE };

static const struct {
	const char *name;
	int type;
	const char *def;
	const char *desc;
} opts[CFS_CONFIG_NOPTS] = {
	/* the mgr balancer module's options (src/pybind/mgr/balancer,
	 * 16.2), which `balancer on|off|mode` set as Ceph's module does;
	 * off by default here (Ceph 16.2 turns it on): crushfs changes no
	 * placement unasked */
	{ "mgr/balancer/active", T_BOOL, "false",
	  "automatically balance PGs across cluster (the mounted daemon)" },
	{ "mgr/balancer/mode", T_MODE, "upmap",
	  "balancer mode: none, upmap (crush-compat is not implemented)" },
	{ "mgr/balancer/sleep_interval", T_UINT, "60",
	  "seconds to sleep between automatic balancer runs" },
	{ "mgr/balancer/upmap_max_deviation", T_UINT, "5",
	  "deviation (PGs per OSD) below which no optimization is made" },
	{ "mgr/balancer/upmap_max_optimizations", T_UINT, "10",
	  "maximum upmap optimizations to make per attempt" },
	/* the mounted daemon's fill history (mgr/history.c); Ceph's
	 * nearest is mgr_stats_period, 5 s too */
	{ "mgr_history_interval", T_UINT, "5",
	  "seconds between samples of the fill history the mounted daemon "
	  "keeps for the dashboard (0: none)" },
	{ "mon_allow_pool_delete", T_BOOL, "false",
	  "allow pool deletions (osd pool rm)" },
	{ "mon_max_pg_per_osd", T_UINT, "250",
	  "max number of PGs per OSD the cluster will allow (osd pool "
	  "create, osd pool set pg_num)" },
	/* OSDMonitor::prepare_boot: an OSD the down->out timer marked out
	 * is marked in again when it comes back up (unless noin) */
	{ "mon_osd_auto_mark_auto_out_in", T_BOOL, "true",
	  "mark any OSD that comes up that was automatically marked out "
	  "back in" },
	/* OSDMonitor::tick (the mounted daemon's tick, montick.c) */
	{ "mon_osd_down_out_interval", T_UINT, "600",
	  "seconds an OSD may stay down before it is marked out "
	  "automatically (0: never)" },
	{ "mon_osd_min_in_ratio", T_FLOAT, "0.750000",
	  "do not automatically mark OSDs out if fewer than this many "
	  "are in" },
	/* OSDMonitor::can_mark_down: a failure report marks no more OSDs
	 * down once fewer than this share are up */
	{ "mon_osd_min_up_ratio", T_FLOAT, "0.300000",
	  "do not automatically mark OSDs down if fewer than this many "
	  "are up" },
	/* OSDService::check_failsafe_full: past it an OSD's device takes
	 * no more writes (disk.c applies it to the filesystem under the
	 * OSD folders) */
	{ "osd_failsafe_full_ratio", T_RATIO, "0.970000",
	  "osd will refuse writes when the filesystem under it is fuller "
	  "than this" },
	{ "osd_op_complaint_time", T_UINT, "30",
	  "seconds an op may wait before it counts as slow (SLOW_OPS)" },
	{ "rados_osd_op_timeout", T_UINT, "0",
	  "seconds an op waits for an inactive PG before it fails with "
	  "ETIMEDOUT (0: it waits until the PG is active)" },
	/* the mgr's (DaemonServer::adjust_pgs; once the balancer's
	 * max_misplaced): rebalance's pgp_num steps */
	{ "target_max_misplaced_ratio", T_FLOAT, "0.050000",
	  "max ratio of misplaced objects to target when throttling data "
	  "rebalancing activity (rebalance's pgp_num steps)" },
};

static int find(const char *name)
{
	for (int i = 0; i < CFS_CONFIG_NOPTS; i++)
		if (!strcmp(opts[i].name, name))
			return i;
	return -1;
}

/* Ceph's bool and uint parsing (Option::parse_value): the canonical
 * spelling into out */
static int parse(int i, const char *v, char *out, size_t outlen, char *why,
		 size_t whylen)
{
	if (opts[i].type == T_BOOL) {
		if (!strcmp(v, "true") || !strcmp(v, "yes") ||
		    !strcmp(v, "on") || !strcmp(v, "1")) {
			snprintf(out, outlen, "true");
			return 0;
		}
		if (!strcmp(v, "false") || !strcmp(v, "no") ||
		    !strcmp(v, "off") || !strcmp(v, "0")) {
			snprintf(out, outlen, "false");
			return 0;
		}
		snprintf(why, whylen, "error parsing value: '%s' is not a "
			 "boolean (true or false)", v);
		return -EINVAL;
	}
	if (opts[i].type == T_MODE) {
		if (strcmp(v, "none") && strcmp(v, "crush-compat") &&
		    strcmp(v, "upmap")) {
			snprintf(why, whylen, "error parsing value: '%s' not "
				 "in none|crush-compat|upmap", v);
			return -EINVAL;
		}
		snprintf(out, outlen, "%s", v);
		return 0;
	}
	if (opts[i].type == T_FLOAT || opts[i].type == T_RATIO) {
		/* Ceph's strict_strtod, printed as Ceph prints a double
		 * option ("0.050000"); Ceph sets no bounds on this one, but
		 * crushfs refuses what is not a number at all (nan, inf) */
		char *end;
		double x;

		errno = 0;
		x = strtod(v, &end);
		if (!*v || *end || errno || !isfinite(x)) {
			snprintf(why, whylen, "error parsing value: "
				 "strict_strtod: expected double, got: '%s'",
				 v);
			return -EINVAL;
		}
		if (opts[i].type == T_RATIO && !(x > 0 && x <= 1)) {
			snprintf(why, whylen, "error parsing value: '%s' is "
				 "not a ratio in (0, 1]", v);
			return -EINVAL;
		}
		if ((size_t)snprintf(out, outlen, "%f", x) >= outlen) {
			snprintf(why, whylen, "error parsing value: '%s' is "
				 "out of range", v);
			return -EINVAL;
		}
		return 0;
	}
	{
		char *end;
		unsigned long long x;

		errno = 0;
		x = strtoull(v, &end, 10);
		if (!*v || *end || *v == '-' || errno || x > UINT32_MAX) {
			snprintf(why, whylen, "error parsing value: '%s' is "
				 "not an unsigned integer", v);
			return -EINVAL;
		}
		snprintf(out, outlen, "%llu", x);
	}
	return 0;
}

static int persist(cfs_cluster *c)
{
	char path[PATH_MAX], *text;
	json_t *root = json_object();
	int r;

	if (!root)
		return -ENOMEM;
	for (int i = 0; i < CFS_CONFIG_NOPTS; i++)
		if (c->config[i])
			json_object_set_new(root, opts[i].name,
					    json_string(c->config[i]));
	text = json_dumps(root, JSON_INDENT(1) | JSON_SORT_KEYS);
	json_decref(root);
	if (!text)
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s/config.json", c->dir);
	r = cfs_write_atomic(path, text, strlen(text));
	free(text);
	return r;
}

int config_load(cfs_cluster *c, char *err, size_t errlen)
{
	char path[PATH_MAX];
	json_error_t je;
	json_t *root, *v;
	const char *key;

	snprintf(path, sizeof(path), "%s/config.json", c->dir);
	root = json_load_file(path, 0, &je);
	if (!root) {
		FILE *f = fopen(path, "r");

		if (!f)
			return 0; /* every option at its default */
		fclose(f);
		json_error_line(err, errlen, path, je.line, je.column, je.text);
		return CFS_ECORRUPT;
	}
	if (!json_is_object(root)) {
		json_decref(root);
		snprintf(err, errlen, "%s: not a JSON object", path);
		return CFS_ECORRUPT;
	}
	json_object_foreach(root, key, v) {
		char canon[32], why[128];
		int i = find(key);

		if (i < 0 || !json_is_string(v) ||
		    parse(i, json_string_value(v), canon, sizeof(canon), why,
			  sizeof(why))) {
			/* key lives in root: the message first */
			snprintf(err, errlen, "%s: field '%s' is %s", path, key,
				 i < 0 ? "not an option crushfs knows"
				       : "not a valid value");
			json_decref(root);
			return CFS_ECORRUPT;
		}
		c->config[i] = strdup(canon);
		if (!c->config[i]) {
			json_decref(root);
			return -ENOMEM;
		}
	}
	json_decref(root);
	return 0;
}

void config_free(cfs_cluster *c)
{
	for (int i = 0; i < CFS_CONFIG_NOPTS; i++) {
		free(c->config[i]);
		c->config[i] = NULL;
	}
}

int cfs_config_get(cfs_cluster *c, const char *name, char *buf, size_t len)
{
	int i = find(name);

	if (i < 0)
		return -ENOENT;
	pthread_mutex_lock(&c->config_lock);
	snprintf(buf, len, "%s", c->config[i] ? c->config[i] : opts[i].def);
	pthread_mutex_unlock(&c->config_lock);
	return 0;
}

int cfs_config_set(cfs_cluster *c, const char *name, const char *value,
		   char *why, size_t whylen)
{
	char canon[32], *old, *nv = NULL;
	int i = find(name), r;

	if (i < 0) {
		snprintf(why, whylen, "unrecognized config option '%s'", name);
		return -EINVAL;
	}
	if (c->rdonly)
		return -EROFS;
	if (value) {
		r = parse(i, value, canon, sizeof(canon), why, whylen);
		if (r)
			return r;
		nv = strdup(canon);
		if (!nv)
			return -ENOMEM;
	}
	pthread_mutex_lock(&c->config_lock);
	old = c->config[i];
	c->config[i] = nv;
	r = persist(c);
	if (r) {
		c->config[i] = old;
		old = nv;
		snprintf(why, whylen, "%s/config.json: %s", c->dir,
			 cfs_strerror(r));
	}
	pthread_mutex_unlock(&c->config_lock);
	free(old);
	return r;
}

int cfs_config_list(cfs_cluster *c, struct cfs_config_entry *out)
{
	pthread_mutex_lock(&c->config_lock);
	for (int i = 0; i < CFS_CONFIG_NOPTS; i++) {
		out[i].name = opts[i].name;
		out[i].desc = opts[i].desc;
		out[i].is_default = !c->config[i];
		snprintf(out[i].value, sizeof(out[i].value), "%s",
			 c->config[i] ? c->config[i] : opts[i].def);
	}
	pthread_mutex_unlock(&c->config_lock);
	return CFS_CONFIG_NOPTS;
}

int config_flag(cfs_cluster *c, const char *name)
{
	char v[32];

	return !cfs_config_get(c, name, v, sizeof(v)) && !strcmp(v, "true");
}

double cfs_config_double(cfs_cluster *c, const char *name)
{
	char v[32];

	return cfs_config_get(c, name, v, sizeof(v)) ? 0 : strtod(v, NULL);
}

const char *cfs_config_section(const char *name)
{
	if (!strncmp(name, "osd_", 4))
		return "osd";
	if (!strncmp(name, "rados_", 6))
		return "client";
	if (!strcmp(name, "target_max_misplaced_ratio") ||
	    !strncmp(name, "mgr_", 4) || !strncmp(name, "mgr/", 4))
		return "mgr";
	return "mon";
}

uint32_t config_uint(cfs_cluster *c, const char *name)
{
	char v[32];

	return cfs_config_get(c, name, v, sizeof(v)) ? 0
			: (uint32_t)strtoul(v, NULL, 10);
}
