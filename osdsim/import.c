/*
 * import.c - `mkfs --from-ceph SNAPDIR`: the osdmap of a live Ceph 16.2
 * cluster, from what an operator collects with read-only commands:
 *
 *   osd_dump.json   ceph osd dump -f json          (required)
 *   crushmap.bin    ceph osd getcrushmap -o FILE   (required: the binary
 *                   map keeps every weight exactly; `osd crush dump`
 *                   prints them rounded)
 *   osd_df.json     ceph osd df -f json            (capacities, fill)
 *   df.json         ceph df -f json                (checked, see below)
 *
 * Every pool (replicated and erasure, with size, min_size, pg_num,
 * pgp_num, rule, quotas, EC profile), OSD states, reweights, primary
 * affinities, pg_upmap[_items], pg_temp, primary_temp and the full
 * ratios are taken as they are, so `osd map POOL OBJ` answers as the
 * live cluster did.  OSD capacities come from osd_df.json's kb (else the
 * crush weight, a TiB per 1.0); with prefill each OSD starts with its
 * kb_used accounted (space, not bytes: a petabyte fits on a laptop).
 * What crushfs does not model is named in one warning, never dropped
 * silently; what it cannot represent (a pool type, a pool without
 * hashpspool, a rule Ceph would not map with) is refused.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "osdsim_i.h"
#include "placement.h"
#include "util.h"

/* flags every Ceph 16.2 cluster carries: no effect on placement */
static const char *const usual_flags[] = { "sortbitwise", "recovery_deletes",
					   "purged_snapdirs",
					   "pglog_hardlimit" };

struct imp {
	const char *dir;
	char *err;
	size_t errlen;
	char *warn; /* the one warning, built up */
	size_t warnlen, woff;
	int nwarn;
};

static int fail(struct imp *im, int r, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct imp *im, int r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(im->err, im->errlen, fmt, ap);
	va_end(ap);
	return r;
}

static void note(struct imp *im, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* One more thing not modelled, appended to the warning ("; "-separated). */
static void note(struct imp *im, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!im->warn || im->woff + 8 >= im->warnlen) {
		im->nwarn++;
		return;
	}
	if (im->nwarn++) {
		n = snprintf(im->warn + im->woff, im->warnlen - im->woff, "; ");
		im->woff += n > 0 ? (size_t)n : 0;
	}
	va_start(ap, fmt);
	n = vsnprintf(im->warn + im->woff, im->warnlen - im->woff, fmt, ap);
	va_end(ap);
	if (n > 0)
		im->woff += (size_t)n;
	if (im->woff >= im->warnlen)
		im->woff = im->warnlen - 1;
}

/* SNAPDIR/name as JSON; *root NULL when the file is absent and optional */
static int load_json(struct imp *im, const char *name, int required,
		     json_t **root)
{
	char path[4096], *text = NULL;
	size_t len = 0;
	json_error_t je;
	int r;

	*root = NULL;
	if (cfs_pathf(path, sizeof(path), "%s/%s", im->dir, name))
		return fail(im, -ENAMETOOLONG, "%s/%s: path too long", im->dir,
			    name);
	r = cfs_read_file(path, &text, &len);
	if (r == -ENOENT && !required)
		return 0;
	if (r)
		return fail(im, r, "%s: cannot read: %s%s", path,
			    cfs_strerror(r),
			    r == -ENOENT ? " (collect it with ceph osd dump "
					   "-f json)" : "");
	*root = json_loadb(text, len, 0, &je);
	free(text);
	if (!*root) {
		json_error_line(im->err, im->errlen, path, je.line, je.column,
				je.text);
		return CFS_ECORRUPT;
	}
	if (!json_is_object(*root)) {
		json_decref(*root);
		*root = NULL;
		return fail(im, CFS_ECORRUPT, "%s: not a JSON object", path);
	}
	return 0;
}

/* "2026-11-25T20:45:30.758949+0000" (utime_t's ISO form), else now */
static time_t utime_of(json_t *o, const char *k)
{
	json_t *x = json_object_get(o, k);
	struct tm tm;
	const char *s = json_is_string(x) ? json_string_value(x) : "";

	memset(&tm, 0, sizeof(tm));
	if (!strptime(s, "%Y-%m-%dT%H:%M:%S", &tm))
		return time(NULL);
	return timegm(&tm);
}

/* last_up_change / last_in_change: a stamp of utime_t's ISO form; 0
 * (not known) when absent or zero ("0.000000") */
static int64_t utime_or_zero(json_t *o, const char *k)
{
	json_t *x = json_object_get(o, k);
	struct tm tm;

	memset(&tm, 0, sizeof(tm));
	if (!json_is_string(x) ||
	    !strptime(json_string_value(x), "%Y-%m-%dT%H:%M:%S", &tm))
		return 0;
	return (int64_t)timegm(&tm);
}

/* 16.16 fixed point of a weight Ceph prints as a float */
static uint32_t fixed16(double w)
{
	double v = floor(w * 0x10000 + 0.5);

	return v <= 0 ? 0 : v >= 0x10000 ? 0x10000 : (uint32_t)v;
}

static int load_crush(struct imp *im, struct cfs_osdmap *m)
{
	char path[4096], *bin = NULL, perr[512];
	size_t len = 0;
	int r;

	if (cfs_pathf(path, sizeof(path), "%s/crushmap.bin", im->dir))
		return fail(im, -ENAMETOOLONG, "%s: path too long", im->dir);
	r = cfs_read_file(path, &bin, &len);
	if (r == -ENOENT)
		return fail(im, -ENOENT,
			    "%s: missing: collect the exact crush map with ceph "
			    "osd getcrushmap -o crushmap.bin (crushfs reads the "
			    "binary map, not crush_dump.json: its weight sets "
			    "are printed as decimals)",
			    path);
	if (r)
		return fail(im, r, "%s: cannot read: %s", path, cfs_strerror(r));
	r = pl_map_decode(bin, len, path, &m->crush, perr, sizeof(perr));
	free(bin);
	if (r)
		return fail(im, r == -ENOMEM ? r : CFS_EBADMAP, "%s", perr);
	r = pl_map_finalize(m->crush);
	if (r)
		return fail(im, r, "%s: %s", path, cfs_strerror(r));
	return 0;
}

static json_t *df_node(json_t *df, int id)
{
	json_t *nodes = df ? json_object_get(df, "nodes") : NULL, *n;
	size_t i;

	json_array_foreach(nodes, i, n) {
		json_t *x = json_object_get(n, "id");

		if (json_is_integer(x) && json_integer_value(x) == id)
			return n;
	}
	return NULL;
}

/* osd_df.json's node.key in KiB (0 when absent: a down OSD reports no
 * size), refused past max bytes: kb << 10 wrapped for a kb of 2^62 and
 * the OSD showed full with a capacity of 0 (issue 21). */
static int df_kb(struct imp *im, json_t *node, const char *key, int id,
		 uint64_t max, uint64_t *out)
{
	json_t *v = json_object_get(node, key);
	json_int_t kb;

	*out = 0;
	if (!v)
		return 0;
	if (!json_is_integer(v))
		return fail(im, CFS_ECORRUPT,
			    "%s/osd_df.json: osd.%d: %s is not an integer",
			    im->dir, id, key);
	kb = json_integer_value(v);
	if (kb < 0 || (uint64_t)kb > max >> 10)
		return fail(im, CFS_ECORRUPT,
			    "%s/osd_df.json: osd.%d: %s %lld is out of range "
			    "(0 to %llu KiB, under 128 TiB a device)",
			    im->dir, id, key, (long long)kb,
			    (unsigned long long)(max >> 10));
	*out = (uint64_t)kb;
	return 0;
}

/* The crush weight of device id (its first parent's entry), 16.16 */
static uint32_t crush_weight(const pl_map *cm, int id)
{
	int parent = pl_map_parent(cm, id);

	for (int i = 0; parent && i < pl_map_bucket_size(cm, parent); i++)
		if (pl_map_bucket_item(cm, parent, i) == id)
			return pl_map_bucket_item_weight(cm, parent, i);
	return 0;
}

static int load_osds(struct imp *im, struct cfs_osdmap *m, json_t *dump,
		     json_t *df, const struct cfs_mkfs_opts *o)
{
	json_t *osds = json_object_get(dump, "osds"), *x;
	int64_t max_osd;
	size_t i;
	int down_nocap = 0;

	if (jget_int(dump, "max_osd", 0, CFS_MAX_OSD, &max_osd))
		return fail(im, CFS_ECORRUPT,
			    "%s/osd_dump.json: max_osd is missing or out of "
			    "range (at most %d OSDs)",
			    im->dir, CFS_MAX_OSD);
	if (!json_is_array(osds) || !json_array_size(osds))
		return fail(im, CFS_ECORRUPT,
			    "%s/osd_dump.json: no osds", im->dir);
	if (max_osd > 0 && osdmap_ensure_osd(m, (int)max_osd - 1))
		return -ENOMEM;
	json_array_foreach(osds, i, x) {
		int64_t id, up, in;
		double w, aff;
		json_t *u = json_object_get(x, "uuid"), *n;
		struct cfs_osd_state *s;
		uint64_t kb = 0, kb_used = 0;

		if (jget_int(x, "osd", 0, max_osd - 1, &id) ||
		    jget_int(x, "up", 0, 1, &up) || jget_int(x, "in", 0, 1, &in) ||
		    jget_real(x, "weight", 0, 1, &w) ||
		    jget_real(x, "primary_affinity", 0, 1, &aff) ||
		    !json_is_string(u) || json_string_length(u) != 36)
			return fail(im, CFS_ECORRUPT,
				    "%s/osd_dump.json: osds[%zu] is missing a "
				    "field or has one out of range (osd, up, "
				    "in, weight, primary_affinity, uuid)",
				    im->dir, i);
		s = &m->osds[id];
		if (s->exists)
			return fail(im, CFS_ECORRUPT,
				    "%s/osd_dump.json: osd.%lld listed twice",
				    im->dir, (long long)id);
		s->exists = 1;
		s->up = (int)up;
		s->reweight = in ? fixed16(w) : 0;
		s->primary_affinity = fixed16(aff);
		memcpy(s->uuid, json_string_value(u), 37);
		/* capacity: what the OSD reports (a down one reports 0),
		 * else its crush weight in TiB, else --osd-size */
		n = df_node(df, (int)id);
		if (n && (df_kb(im, n, "kb", (int)id, CFS_MAX_OSD_CAPACITY,
				&kb) ||
			  df_kb(im, n, "kb_used", (int)id,
				CFS_MAX_OSD_CAPACITY, &kb_used)))
			return CFS_ECORRUPT;
		if (o->osd_size_set) {
			s->capacity = o->osd_size;
		} else if (n && kb > 0) {
			s->capacity = kb << 10;
		} else if (crush_weight(m->crush, (int)id)) {
			s->capacity = (uint64_t)crush_weight(m->crush, (int)id)
				      << 24;
			if (s->capacity > CFS_MAX_OSD_CAPACITY)
				return fail(im, CFS_ECORRUPT,
					    "%s/crushmap.bin: osd.%d: crush "
					    "weight %.4f, a capacity of %.4f "
					    "TiB, is past 128 TiB a device "
					    "(no size in osd_df.json)",
					    im->dir, (int)id,
					    crush_weight(m->crush, (int)id) /
						    65536.0,
					    crush_weight(m->crush, (int)id) /
						    65536.0);
			down_nocap++;
		} else {
			s->capacity = o->osd_size;
			down_nocap++;
		}
		if (o->prefill && n) {
			s->prefill = kb_used << 10;
			if (s->prefill > s->capacity)
				s->prefill = s->capacity;
		}
	}
	if (down_nocap)
		note(im, "%d OSD(s) without a size in osd_df.json: capacity "
			 "from the crush weight (1.0 = 1 TiB)%s",
		     down_nocap, df ? "" : " (no osd_df.json)");
	if (o->prefill && !df)
		return fail(im, -EINVAL,
			    "%s/osd_df.json: missing; --prefill needs it (ceph "
			    "osd df -f json)",
			    im->dir);
	return 0;
}

static int has_flag(const char *list, const char *flag)
{
	size_t n = strlen(flag);

	for (const char *p = list; (p = strstr(p, flag)); p += n)
		if ((p == list || p[-1] == ',') && (p[n] == ',' || !p[n]))
			return 1;
	return 0;
}

/* The pool's flags crushfs leaves out ("" when none) */
static void other_flags(const char *names, char *buf, size_t len)
{
	char tmp[256];
	size_t off = 0;

	snprintf(tmp, sizeof(tmp), "%s", names);
	buf[0] = 0;
	for (char *save, *t = strtok_r(tmp, ",", &save); t;
	     t = strtok_r(NULL, ",", &save)) {
		if (!strcmp(t, "hashpspool") || !strcmp(t, "full") ||
		    !strcmp(t, "nearfull") || !strcmp(t, "full_quota") ||
		    !strcmp(t, "selfmanaged_snaps") || !strcmp(t, "creating"))
			continue; /* placement-neutral or crushfs's own */
		off += (size_t)snprintf(buf + off, off < len ? len - off : 0,
					"%s%s", off ? "," : "", t);
	}
}

static int load_pool(struct imp *im, struct cfs_osdmap *m, json_t *x,
		     size_t i, struct cfs_pool_info *p)
{
	json_t *name = json_object_get(x, "pool_name");
	json_t *flags = json_object_get(x, "flags_names");
	json_t *prof = json_object_get(x, "erasure_code_profile");
	int64_t id, type, v, tgt;
	char why[256], fl[128];
	const char *bad = NULL;

	memset(p, 0, sizeof(*p));
	if (jget_int(x, "pool", 0, INT32_MAX, &id))
		bad = "pool";
	else if (!json_is_string(name) || !json_string_length(name) ||
		 json_string_length(name) >= sizeof(p->name))
		bad = "pool_name (at most 63 bytes)";
	else if (jget_int(x, "type", 0, 255, &type))
		bad = "type";
	if (bad)
		return fail(im, CFS_ECORRUPT,
			    "%s/osd_dump.json: pools[%zu].%s is missing or "
			    "invalid",
			    im->dir, i, bad);
	p->id = id;
	if (cfs_pool_name_check(json_string_value(name), why, sizeof(why)))
		return fail(im, -EINVAL, "%s/osd_dump.json: pool %lld: %s",
			    im->dir, (long long)id, why);
	snprintf(p->name, sizeof(p->name), "%s", json_string_value(name));
	if (type != 1 && type != 3)
		return fail(im, -EINVAL,
			    "pool %lld '%s': type %lld is neither replicated "
			    "(1) nor erasure (3)",
			    (long long)id, p->name, (long long)type);
	p->erasure = type == 3;
	if (!json_is_string(flags) ||
	    !has_flag(json_string_value(flags), "hashpspool"))
		return fail(im, -EINVAL,
			    "pool %lld '%s': no hashpspool flag: the seed of "
			    "such a pool (pre-firefly placement) is not "
			    "modelled",
			    (long long)id, p->name);
	if (jget_int(x, "size", 1, CFS_MAX_REP, &v))
		bad = "size";
	p->size = (int)v;
	if (!bad && jget_int(x, "min_size", 1, p->size, &v))
		bad = "min_size";
	p->min_size = (int)v;
	if (!bad && jget_int(x, "pg_num", 1, 65536, &v))
		bad = "pg_num";
	p->pg_num = (uint32_t)v;
	if (!bad && jget_int(x, "pg_placement_num", 1, p->pg_num, &v))
		bad = "pg_placement_num";
	p->pgp_num = (uint32_t)v;
	/* a change under way is noted below, not followed: nothing moves
	 * towards a target here (the live cluster's mgr moves it) */
	p->pg_num_target = p->pg_num;
	p->pgp_num_target = p->pgp_num;
	if (!bad && jget_int(x, "crush_rule", 0, PL_MAX_RULES - 1, &v))
		bad = "crush_rule";
	p->crush_rule = (int)v;
	if (!bad && jget_int(x, "quota_max_bytes", 0, INT64_MAX, &v))
		bad = "quota_max_bytes";
	p->quota_max_bytes = (uint64_t)v;
	if (!bad && jget_int(x, "quota_max_objects", 0, INT64_MAX, &v))
		bad = "quota_max_objects";
	p->quota_max_objects = (uint64_t)v;
	/* the pool's applications as the live cluster has them (rbd stays
	 * rbd, whichever pool crushfs's files go to) */
	if (!bad && json_object_get(x, "application_metadata") &&
	    pool_apps_set(p->apps, sizeof(p->apps),
			  json_object_get(x, "application_metadata"), why,
			  sizeof(why)))
		bad = "application_metadata";
	if (!bad && p->erasure &&
	    (!json_is_string(prof) ||
	     json_string_length(prof) >= sizeof(p->ec_profile) ||
	     !cfs_ec_profile_exists(m, json_string_value(prof))))
		bad = "erasure_code_profile (no such profile)";
	if (bad)
		return fail(im, CFS_ECORRUPT,
			    "%s/osd_dump.json: pool %lld '%s': %s is missing "
			    "or out of range",
			    im->dir, (long long)id, p->name, bad);
	if (p->erasure)
		snprintf(p->ec_profile, sizeof(p->ec_profile), "%s",
			 json_string_value(prof));
	/* OSDMap::_pg_to_raw_osds maps nothing for a rule of another type
	 * or size range (CrushWrapper::find_rule): refuse, not pretend */
	if (pool_rule_ok(m->crush, p->crush_rule, p->erasure, p->size, why,
			 sizeof(why)))
		return fail(im, -EINVAL, "pool %lld '%s': %s", (long long)id,
			    p->name, why);

	/* what is left out */
	if (!jget_int(x, "pg_num_target", 1, 1 << 20, &tgt) &&
	    tgt != p->pg_num)
		note(im, "pool '%s' pg_num %u -> %lld in progress (imported "
			 "at %u)", p->name, p->pg_num, (long long)tgt,
		     p->pg_num);
	if (!jget_int(x, "pg_placement_num_target", 1, 1 << 20, &tgt) &&
	    tgt != p->pgp_num)
		note(im, "pool '%s' pgp_num %u -> %lld in progress (imported "
			 "at %u)", p->name, p->pgp_num, (long long)tgt,
		     p->pgp_num);
	other_flags(json_string_value(flags), fl, sizeof(fl));
	if (*fl)
		note(im, "pool '%s' flags %s", p->name, fl);
	{
		json_t *tiers = json_object_get(x, "tiers");
		json_t *snaps = json_object_get(x, "pool_snaps");
		json_t *mode = json_object_get(x, "pg_autoscale_mode");
		int64_t tier_of = -1;

		jget_int(x, "tier_of", -1, INT32_MAX, &tier_of);
		if (json_array_size(tiers) || tier_of >= 0)
			note(im, "pool '%s' cache tiering", p->name);
		if (json_array_size(snaps))
			note(im, "pool '%s' snapshots", p->name);
		if (json_is_string(mode) &&
		    strcmp(json_string_value(mode), "off"))
			note(im, "pool '%s' pg_autoscale_mode %s (crushfs "
				 "changes pg_num only when told)",
			     p->name, json_string_value(mode));
	}
	return 0;
}

/* The filesystem's pool: --data-pool, else CephFS's data pool, else the
 * replicated pool with the most PGs that no manager module owns. */
static int pick_data_pool(struct imp *im, json_t *pools,
			  const struct cfs_pool_info *info, size_t n,
			  const char *want)
{
	int best = -1;

	if (want) {
		for (size_t i = 0; i < n; i++)
			if (!strcmp(info[i].name, want)) {
				if (info[i].erasure)
					return fail(im, -EINVAL,
						    "--data-pool %s: an erasure "
						    "pool cannot hold the "
						    "filesystem's data yet; name "
						    "a replicated pool",
						    want);
				return (int)i;
			}
		return fail(im, -ENOENT,
			    "--data-pool %s: no such pool in %s/osd_dump.json",
			    want, im->dir);
	}
	for (size_t i = 0; i < n; i++) {
		json_t *app = json_object_get(json_array_get(pools, i),
					      "application_metadata");
		json_t *fs = json_object_get(app, "cephfs");

		if (!info[i].erasure && fs && json_object_get(fs, "data"))
			return (int)i;
	}
	for (size_t i = 0; i < n; i++) {
		json_t *app = json_object_get(json_array_get(pools, i),
					      "application_metadata");

		if (info[i].erasure || json_object_get(app, "mgr_devicehealth") ||
		    json_object_get(app, "mgr"))
			continue;
		if (best < 0 || info[i].pg_num > info[best].pg_num)
			best = (int)i;
	}
	if (best < 0)
		return fail(im, -ENOENT,
			    "%s/osd_dump.json: no replicated pool to hold the "
			    "filesystem (name one with --data-pool)",
			    im->dir);
	return best;
}

static int load_pools(struct imp *im, struct cfs_osdmap *m, json_t *dump,
		      const struct cfs_mkfs_opts *o)
{
	json_t *pools = json_object_get(dump, "pools");
	size_t n = json_array_size(pools);
	struct cfs_pool_info *info;
	int64_t pool_max = 0;
	int data = -1, r = 0;

	if (!json_is_array(pools) || !n)
		return fail(im, CFS_ECORRUPT, "%s/osd_dump.json: no pools",
			    im->dir);
	info = calloc(n, sizeof(*info));
	if (!info)
		return -ENOMEM;
	for (size_t i = 0; i < n && !r; i++) {
		r = load_pool(im, m, json_array_get(pools, i), i, &info[i]);
		for (size_t j = 0; !r && j < i; j++)
			if (info[j].id == info[i].id ||
			    !strcmp(info[j].name, info[i].name))
				r = fail(im, CFS_ECORRUPT,
					 "%s/osd_dump.json: pool %lld '%s' "
					 "listed twice",
					 im->dir, (long long)info[i].id,
					 info[i].name);
	}
	if (!r)
		r = data = pick_data_pool(im, pools, info, n, o->data_pool);
	if (r < 0)
		goto out;
	r = 0;
	m->pool = info[data];
	m->pool.object_size = o->object_size;
	m->pool.stripe_unit = o->stripe_unit ? o->stripe_unit : o->object_size;
	m->pool.stripe_count = o->stripe_count;
	/* the others by id, as pools.c keeps them */
	m->xpools = calloc(n, sizeof(*m->xpools));
	if (!m->xpools) {
		r = -ENOMEM;
		goto out;
	}
	for (int64_t last = -1;;) {
		int next = -1;

		for (size_t i = 0; i < n; i++)
			if ((int)i != data && info[i].id > last &&
			    (next < 0 || info[i].id < info[next].id))
				next = (int)i;
		if (next < 0)
			break;
		m->xpools[m->nxpools++].info = info[next];
		last = info[next].id;
	}
	for (size_t i = 0; i < n; i++)
		if (info[i].id > pool_max)
			pool_max = info[i].id;
	if (jget_int(dump, "pool_max", 0, INT32_MAX, &m->pool_max) ||
	    m->pool_max < pool_max)
		m->pool_max = pool_max;
out:
	free(info);
	return r;
}

static void cluster_notes(struct imp *im, json_t *dump)
{
	json_t *flags = json_object_get(dump, "flags_set"), *f;
	json_t *stretch = json_object_get(dump, "stretch_mode");
	char other[256] = "";
	size_t i, off = 0;

	json_array_foreach(flags, i, f) {
		int usual = 0;

		for (size_t k = 0; k < sizeof(usual_flags) / sizeof(*usual_flags);
		     k++)
			usual |= json_is_string(f) &&
				 !strcmp(json_string_value(f), usual_flags[k]);
		if (!usual && json_is_string(f) && off < sizeof(other))
			off += (size_t)snprintf(other + off, sizeof(other) - off,
						"%s%s", off ? "," : "",
						json_string_value(f));
	}
	if (*other)
		note(im, "cluster flags %s", other);
	if (json_object_size(json_object_get(dump, "blocklist")))
		note(im, "%zu client blocklist entries",
		     json_object_size(json_object_get(dump, "blocklist")));
	if (json_object_size(json_object_get(dump, "crush_node_flags")) ||
	    json_object_size(json_object_get(dump, "device_class_flags")))
		note(im, "noup/noin/noout flags on crush nodes or classes");
	if (json_is_true(json_object_get(stretch, "stretch_mode_enabled")))
		note(im, "stretch mode (peering across sites)");
}

/* df.json: read to check it is what `ceph df -f json` prints; crushfs
 * counts only its own objects per pool, so the live per-pool figures
 * stay the live cluster's. */
static int check_df(struct imp *im, const struct cfs_osdmap *m)
{
	json_t *df;
	int r = load_json(im, "df.json", 0, &df);

	if (r || !df)
		return r;
	if (!json_is_object(json_object_get(df, "stats")) ||
	    !json_is_array(json_object_get(df, "pools")))
		r = fail(im, CFS_ECORRUPT,
			 "%s/df.json: not ceph df -f json (no stats or pools)",
			 im->dir);
	else if (json_array_size(json_object_get(df, "pools")) !=
		 (size_t)cfs_osdmap_npools(m))
		/* the manager's statistics lag a new pool by a few seconds */
		note(im, "df.json lists %zu pools, osd_dump.json %d (taken a "
			 "moment apart; df.json is not used)",
		     json_array_size(json_object_get(df, "pools")),
		     cfs_osdmap_npools(m));
	else
		note(im, "df.json's per-pool STORED and OBJECTS (crushfs "
			 "counts its own objects; --prefill takes the OSDs' "
			 "use)");
	json_decref(df);
	return r;
}

int import_map(const struct cfs_mkfs_opts *o, struct cfs_osdmap **out,
	       char *err, size_t errlen)
{
	struct imp im = { .dir = o->from_ceph, .err = err, .errlen = errlen,
			  .warn = o->warnings, .warnlen = o->warnlen };
	struct cfs_osdmap *m = osdmap_alloc();
	json_t *dump = NULL, *df = NULL, *fsid;
	double full, bf, nf;
	int64_t epoch;
	char sub[320];
	int r;

	if (o->warnings && o->warnlen)
		o->warnings[0] = 0;
	if (!m)
		return -ENOMEM;
	r = load_json(&im, "osd_dump.json", 1, &dump);
	if (!r)
		r = load_json(&im, "osd_df.json", 0, &df);
	if (!r)
		r = load_crush(&im, m);
	if (r)
		goto out;
	fsid = json_object_get(dump, "fsid");
	if (jget_int(dump, "epoch", 1, UINT32_MAX - 1, &epoch) ||
	    !json_is_string(fsid) || json_string_length(fsid) != 36 ||
	    jget_real(dump, "full_ratio", 0, 1, &full) ||
	    jget_real(dump, "backfillfull_ratio", 0, 1, &bf) ||
	    jget_real(dump, "nearfull_ratio", 0, 1, &nf)) {
		r = fail(&im, CFS_ECORRUPT,
			 "%s/osd_dump.json: not ceph osd dump -f json (epoch, "
			 "fsid or a full ratio missing or invalid)",
			 im.dir);
		goto out;
	}
	m->epoch = (uint32_t)epoch;
	memcpy(m->fsid, json_string_value(fsid), 37);
	m->created = utime_of(dump, "created");
	m->modified = utime_of(dump, "modified");
	m->last_up_change = utime_or_zero(dump, "last_up_change");
	m->last_in_change = utime_or_zero(dump, "last_in_change");
	m->full_ratio = full;
	m->backfillfull_ratio = bf;
	m->nearfull_ratio = nf;
	m->full_policy = o->full_policy;
	/* Ceph's shapes, read by cluster.json's own readers */
	r = ecprofile_from_json(m, dump, CFS_ECP_CEPH, sub,
				sizeof(sub));
	if (r && r != -ENOMEM)
		r = fail(&im, CFS_ECORRUPT, "%s/osd_dump.json: %s", im.dir,
			 sub);
	if (!r)
		r = load_osds(&im, m, dump, df, o);
	if (!r)
		r = load_pools(&im, m, dump, o);
	if (r)
		goto out;
	if ((r = upmap_from_json(m, dump, sub, sizeof(sub))) ||
	    (r = pgtemp_from_json(m, dump, sub, sizeof(sub))) ||
	    (r = ptemp_from_json(m, dump, sub, sizeof(sub)))) {
		if (r != -ENOMEM)
			r = fail(&im, CFS_ECORRUPT, "%s/osd_dump.json: %s",
				 im.dir, sub);
		goto out;
	}
	cluster_notes(&im, dump);
	r = osdmap_finish(m);
	if (!r)
		r = check_df(&im, m);
out:
	json_decref(dump);
	json_decref(df);
	if (r) {
		osdmap_free(m);
		return r;
	}
	*out = m;
	return 0;
}
