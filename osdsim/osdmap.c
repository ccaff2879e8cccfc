/*
 * osdmap.c - osdmap snapshots: getters, JSON persistence, and the changes
 * (`osd out`, `osd crush reweight`, ...) that each make a new epoch.
 *
 * A change clones the current map, edits the clone, recomputes the derived
 * tables (pgtable.c), writes crushmap.txt and then cluster.json (the commit
 * point) atomically, and only then swaps the clone in.  A failure anywhere
 * leaves the installed map and the files as they were.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>
#include <uuid/uuid.h>

#include "osdsim_i.h"
#include "placement.h"
#include "util.h"

struct cfs_osdmap *osdmap_alloc(void)
{
	struct cfs_osdmap *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	atomic_init(&m->ref, 1);
	m->full_ratio = 0.95;
	m->backfillfull_ratio = 0.90;
	m->nearfull_ratio = 0.85;
	return m;
}

void osdmap_free(struct cfs_osdmap *m)
{
	if (!m)
		return;
	free(m->osds);
	if (m->crush)
		pl_map_destroy(m->crush);
	free(m->weights);
	free(m->pgs);
	free(m->rule_share);
	free(m->in_rule);
	free(m->upmaps);
	free(m->temps);
	free(m->ptemps);
	xpools_free(m);
	json_decref(m->ec_profiles);
	free(m);
}

int osdmap_ensure_osd(struct cfs_osdmap *m, int id)
{
	struct cfs_osd_state *n;

	if (id < 0 || id >= CFS_MAX_OSD)
		return -EINVAL;
	if (id < m->max_osd)
		return 0;
	n = realloc(m->osds, sizeof(*n) * (size_t)(id + 1));
	if (!n)
		return -ENOMEM;
	memset(n + m->max_osd, 0, sizeof(*n) * (size_t)(id + 1 - m->max_osd));
	m->osds = n;
	m->max_osd = id + 1;
	return 0;
}

/* A deep copy through the binary encoding, which keeps every weight as
 * the 16.16 value Ceph holds (the text form rounds them to three
 * decimals: a live cluster's 0.00389 would read back as 0.004 and map
 * differently). */
static int crush_clone(const pl_map *src, pl_map **out)
{
	void *bin = NULL;
	char err[256];
	size_t len = 0;
	int r = pl_map_encode(src, &bin, &len);

	if (r)
		return r;
	r = pl_map_decode(bin, len, "crushmap", out, err, sizeof(err));
	if (!r)
		r = pl_map_finalize(*out);
	if (r)
		cfs_log(CFS_LOG_ERR, "crush map does not read back: %s", err);
	free(bin);
	return r;
}

int osdmap_canon_crush(struct cfs_osdmap *m)
{
	pl_map *canon;
	int r = pl_map_finalize(m->crush);

	if (!r)
		r = crush_clone(m->crush, &canon);
	if (r)
		return r;
	pl_map_destroy(m->crush);
	m->crush = canon;
	return 0;
}

int osdmap_clone(const struct cfs_osdmap *m, struct cfs_osdmap **out)
{
	struct cfs_osdmap *n = osdmap_alloc();
	int r;

	if (!n)
		return -ENOMEM;
	n->epoch = m->epoch;
	memcpy(n->fsid, m->fsid, sizeof(n->fsid));
	n->full_ratio = m->full_ratio;
	n->backfillfull_ratio = m->backfillfull_ratio;
	n->nearfull_ratio = m->nearfull_ratio;
	n->full_policy = m->full_policy;
	n->pool = m->pool;
	n->pg_num_from = m->pg_num_from;
	n->created = m->created;
	n->modified = m->modified;
	if (m->max_osd) {
		r = osdmap_ensure_osd(n, m->max_osd - 1);
		if (r)
			goto err;
		memcpy(n->osds, m->osds, sizeof(*n->osds) * (size_t)m->max_osd);
	}
	r = crush_clone(m->crush, &n->crush);
	if (!r)
		r = upmap_copy(m, n);
	if (!r)
		r = pgtemp_copy(m, n);
	if (!r)
		r = psarr_dup((void **)&n->ptemps, &n->nptemps, m->ptemps,
			      m->nptemps, sizeof(*m->ptemps));
	if (!r && m->ec_profiles &&
	    !(n->ec_profiles = json_deep_copy(m->ec_profiles)))
		r = -ENOMEM;
	if (!r)
		r = xpools_copy(m, n);
	if (r)
		goto err;
	*out = n;
	return 0;
err:
	osdmap_free(n);
	return r;
}

/* ---- getters ---- */

const cfs_osdmap *cfs_osdmap_get(cfs_cluster *c)
{
	struct cfs_osdmap *m;

	pthread_mutex_lock(&c->map_lock);
	m = c->cur;
	atomic_fetch_add(&m->ref, 1);
	pthread_mutex_unlock(&c->map_lock);
	return m;
}

void cfs_osdmap_put(const cfs_osdmap *cm)
{
	struct cfs_osdmap *m = (struct cfs_osdmap *)cm;

	if (m && atomic_fetch_sub(&m->ref, 1) == 1)
		osdmap_free(m);
}

void osdmap_install(cfs_cluster *c, struct cfs_osdmap *m)
{
	struct cfs_osdmap *old;

	pthread_mutex_lock(&c->map_lock);
	old = c->cur;
	c->cur = m;
	/* ops waiting for an inactive PG look again (slowops.c) */
	pthread_cond_broadcast(&c->map_cond);
	pthread_mutex_unlock(&c->map_lock);
	cfs_osdmap_put(old);
}

uint32_t cfs_osdmap_epoch(const cfs_osdmap *m) { return m->epoch; }
int64_t cfs_osdmap_created(const cfs_osdmap *m) { return m->created; }
int64_t cfs_osdmap_modified(const cfs_osdmap *m) { return m->modified; }
const char *cfs_osdmap_fsid(const cfs_osdmap *m) { return m->fsid; }
const pl_map *cfs_osdmap_crush(const cfs_osdmap *m) { return m->crush; }
int cfs_osdmap_max_osd(const cfs_osdmap *m) { return m->max_osd; }
const struct cfs_pool_info *cfs_osdmap_pool(const cfs_osdmap *m)
{
	return &m->pool;
}
double cfs_osdmap_full_ratio(const cfs_osdmap *m) { return m->full_ratio; }
double cfs_osdmap_backfillfull_ratio(const cfs_osdmap *m)
{
	return m->backfillfull_ratio;
}
double cfs_osdmap_nearfull_ratio(const cfs_osdmap *m)
{
	return m->nearfull_ratio;
}
int cfs_osdmap_full_policy(const cfs_osdmap *m) { return m->full_policy; }

const char *cfs_full_policy_name(int policy)
{
	return policy == CFS_FULL_POOL ? "pool" : "osd";
}

int cfs_osdmap_exists(const cfs_osdmap *m, int id)
{
	return id >= 0 && id < m->max_osd && m->osds[id].exists;
}

int cfs_osdmap_is_up(const cfs_osdmap *m, int id)
{
	return cfs_osdmap_exists(m, id) && m->osds[id].up;
}

int cfs_osdmap_is_in(const cfs_osdmap *m, int id)
{
	return cfs_osdmap_exists(m, id) && m->osds[id].reweight > 0;
}

static uint64_t ratio_limit(const cfs_osdmap *m, int osd, double r)
{
	if (!cfs_osdmap_exists(m, osd))
		return 0;
	return (uint64_t)((long double)m->osds[osd].capacity * r);
}

uint64_t cfs_osdmap_full_limit(const cfs_osdmap *m, int osd)
{
	return ratio_limit(m, osd, m->full_ratio);
}

uint64_t cfs_osdmap_write_limit(const cfs_osdmap *m, int osd)
{
	if (m->full_policy == CFS_FULL_POOL)
		return osd >= 0 && osd < m->max_osd ? m->osds[osd].capacity : 0;
	return cfs_osdmap_full_limit(m, osd);
}

uint64_t cfs_osdmap_backfillfull_limit(const cfs_osdmap *m, int osd)
{
	return ratio_limit(m, osd, m->backfillfull_ratio);
}

uint64_t cfs_osdmap_nearfull_limit(const cfs_osdmap *m, int osd)
{
	return ratio_limit(m, osd, m->nearfull_ratio);
}

int cfs_osdmap_osd_in_rule(const cfs_osdmap *m, int osd)
{
	return osd >= 0 && osd < m->max_osd && m->in_rule && m->in_rule[osd];
}

/* The weight of id in the first bucket holding it (16.16), 0 if none. */
static uint32_t crush_item_weight(const pl_map *cm, int id)
{
	int parent = pl_map_parent(cm, id);

	if (!parent)
		return 0;
	for (int i = 0; i < pl_map_bucket_size(cm, parent); i++)
		if (pl_map_bucket_item(cm, parent, i) == id)
			return pl_map_bucket_item_weight(cm, parent, i);
	return 0;
}

int cfs_osdmap_osd(const cfs_osdmap *m, int id, struct cfs_osd_info *out)
{
	const struct cfs_osd_state *s;
	int parent;

	if (!cfs_osdmap_exists(m, id))
		return -ENOENT;
	s = &m->osds[id];
	memset(out, 0, sizeof(*out));
	out->id = id;
	out->exists = 1;
	out->up = s->up;
	out->reweight = s->reweight;
	out->primary_affinity = s->primary_affinity;
	out->capacity = s->capacity;
	out->prefill = s->prefill;
	memcpy(out->uuid, s->uuid, sizeof(out->uuid));
	out->crush_weight = crush_item_weight(m->crush, id);
	parent = pl_map_parent(m->crush, id);
	if (parent && pl_map_item_name(m->crush, parent))
		snprintf(out->host, sizeof(out->host), "%s",
			 pl_map_item_name(m->crush, parent));
	return 0;
}

/* ---- JSON ---- */

int osdmap_to_json(const struct cfs_osdmap *m, char **out, size_t *len)
{
	json_t *root = json_object(), *pool, *osds;
	char *crush = NULL, *text;
	size_t clen;
	int r;

	if (!root)
		return -ENOMEM;
	r = pl_map_to_text(m->crush, &crush, &clen);
	if (r) {
		json_decref(root);
		return r;
	}
	pool = json_pack(
		"{s:I, s:s, s:i, s:i, s:I, s:I, s:i, s:I, s:I, s:I}", "id",
		(json_int_t)m->pool.id, "name", m->pool.name, "size",
		m->pool.size, "min_size", m->pool.min_size, "pg_num",
		(json_int_t)m->pool.pg_num, "pgp_num",
		(json_int_t)m->pool.pgp_num, "crush_rule", m->pool.crush_rule,
		"object_size", (json_int_t)m->pool.object_size, "stripe_unit",
		(json_int_t)m->pool.stripe_unit, "stripe_count",
		(json_int_t)m->pool.stripe_count);
	if (m->pool.quota_max_bytes)
		json_object_set_new(pool, "quota_max_bytes",
				    json_integer((json_int_t)
							 m->pool.quota_max_bytes));
	if (m->pool.quota_max_objects)
		json_object_set_new(pool, "quota_max_objects",
				    json_integer((json_int_t)
							 m->pool.quota_max_objects));
	osds = json_array();
	for (int i = 0; i < m->max_osd; i++) {
		const struct cfs_osd_state *s = &m->osds[i];

		if (!s->exists)
			continue;
		json_t *o = json_pack("{s:i, s:s, s:b, s:I, s:I, s:I}", "id", i,
				      "uuid", s->uuid, "up", s->up, "reweight",
				      (json_int_t)s->reweight,
				      "primary_affinity",
				      (json_int_t)s->primary_affinity,
				      "capacity", (json_int_t)s->capacity);

		if (o && s->prefill)
			json_object_set_new(o, "prefill",
					    json_integer((json_int_t)s->prefill));
		json_array_append_new(osds, o);
	}
	json_object_set_new(root, "fsid", json_string(m->fsid));
	json_object_set_new(root, "epoch", json_integer(m->epoch));
	json_object_set_new(root, "created", json_integer(m->created));
	json_object_set_new(root, "modified", json_integer(m->modified));
	json_object_set_new(root, "full_policy",
			    json_string(cfs_full_policy_name(m->full_policy)));
	json_object_set_new(root, "full_ratio", json_real(m->full_ratio));
	json_object_set_new(root, "backfillfull_ratio",
			    json_real(m->backfillfull_ratio));
	json_object_set_new(root, "nearfull_ratio",
			    json_real(m->nearfull_ratio));
	json_object_set_new(root, "pool", pool);
	json_object_set_new(root, "osds", osds);
	json_object_set_new(root, "crush_map", json_stringn(crush, clen));
	free(crush);
	/* the exact map (the text above rounds weights), read first */
	{
		void *bin = NULL;
		size_t blen = 0, slen = 0;
		char *b64 = NULL;
		int r2 = pl_map_encode(m->crush, &bin, &blen);

		if (!r2 && !(b64 = cfs_b64_encode(bin, blen, &slen)))
			r2 = -ENOMEM;
		free(bin);
		if (r2) {
			json_decref(root);
			return r2;
		}
		json_object_set_new(root, "crush_map_bin",
				    json_stringn(b64, slen));
		free(b64);
	}
	{
		json_t *up = upmap_to_json(m);

		if (!up) {
			json_decref(root);
			return -ENOMEM;
		}
		if (json_array_size(json_object_get(up, "pg_upmap")) ||
		    json_array_size(json_object_get(up, "pg_upmap_items")))
			json_object_update(root, up);
		json_decref(up);
	}
	if (m->pg_num_from)
		json_object_set_new(root, "pg_num_change_from",
				    json_integer(m->pg_num_from));
	json_object_set_new(root, "pool_max", json_integer(m->pool_max));
	if (m->nxpools) {
		json_t *xp = xpools_to_json(m);

		if (!xp) {
			json_decref(root);
			return -ENOMEM;
		}
		json_object_set_new(root, "pools", xp);
	}
	if (m->ec_profiles)
		json_object_set(root, "erasure_code_profiles", m->ec_profiles);
	{
		json_t *t, *pt;

		if (temps_to_json(m, &t, &pt)) {
			json_decref(root);
			return -ENOMEM;
		}
		if (json_array_size(t))
			json_object_set_new(root, "pg_temp", t);
		else
			json_decref(t);
		if (json_array_size(pt))
			json_object_set_new(root, "primary_temp", pt);
		else
			json_decref(pt);
	}
	text = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	json_decref(root);
	if (!text)
		return -ENOMEM;
	*out = text;
	*len = strlen(text);
	return 0;
}

void json_error_line(char *err, size_t errlen, const char *path, int line,
		     int col, const char *text)
{
	int n = snprintf(err, errlen, "%s:%d:%d: ", path, line, col);

	/* jansson quotes the text near the error, which may hold a newline
	 * or other control bytes: escape them, the message is one line */
	for (size_t i = n < 0 ? errlen : (size_t)n; *text && i + 5 < errlen;
	     text++) {
		unsigned char c = (unsigned char)*text;

		if (c >= 0x20 && c != 0x7f)
			err[i++] = (char)c;
		else if (c == '\n')
			i += (size_t)snprintf(err + i, errlen - i, "\\n");
		else
			i += (size_t)snprintf(err + i, errlen - i, "\\x%02x",
					      c);
		err[i] = '\0';
	}
}

static int bad(char *err, size_t errlen, const char *path, const char *what)
{
	snprintf(err, errlen, "%s: %s", path, what);
	return CFS_ECORRUPT;
}

static int get_ratio(json_t *o, const char *key, double *v)
{
	/* (0, 1] */
	return jget_real(o, key, 0, 1, v) || *v <= 0 ? -1 : 0;
}

int osdmap_from_json(const char *text, size_t len, const char *path,
		     struct cfs_osdmap **out, char *err, size_t errlen)
{
	json_error_t je;
	json_t *root, *pool, *osds, *x;
	struct cfs_osdmap *m = NULL;
	char what[320], fld[64], perr[512];
	int64_t v;
	size_t i;
	int r;

	root = json_loadb(text, len, 0, &je);
	if (!root) {
		json_error_line(err, errlen, path, je.line, je.column,
				je.text);
		return CFS_ECORRUPT;
	}
	m = osdmap_alloc();
	if (!m) {
		json_decref(root);
		return -ENOMEM;
	}
#define FIELD(cond, name)                                                     \
	do {                                                                  \
		if (cond) {                                                   \
			snprintf(what, sizeof(what),                          \
				 "field '%s' is missing or invalid", name);   \
			r = bad(err, errlen, path, what);                     \
			goto fail;                                            \
		}                                                             \
	} while (0)

	x = json_object_get(root, "fsid");
	FIELD(!json_is_string(x) || strlen(json_string_value(x)) != 36,
	      "fsid");
	memcpy(m->fsid, json_string_value(x), 37);
	FIELD(jget_int(root, "epoch", 1, UINT32_MAX, &v), "epoch");
	m->epoch = (uint32_t)v;
	if (!jget_int(root, "created", 0, INT64_MAX, &v))
		m->created = (time_t)v;
	if (!jget_int(root, "modified", 0, INT64_MAX, &v))
		m->modified = (time_t)v;
	x = json_object_get(root, "full_policy");
	FIELD(!json_is_string(x) ||
		      (strcmp(json_string_value(x), "osd") &&
		       strcmp(json_string_value(x), "pool")),
	      "full_policy");
	m->full_policy = strcmp(json_string_value(x), "pool") ? CFS_FULL_OSD
							      : CFS_FULL_POOL;
	FIELD(get_ratio(root, "full_ratio", &m->full_ratio), "full_ratio");
	FIELD(get_ratio(root, "backfillfull_ratio", &m->backfillfull_ratio),
	      "backfillfull_ratio");
	FIELD(get_ratio(root, "nearfull_ratio", &m->nearfull_ratio),
	      "nearfull_ratio");

	pool = json_object_get(root, "pool");
	FIELD(!json_is_object(pool), "pool");
	FIELD(jget_int(pool, "id", 0, INT32_MAX, &v), "pool.id");
	m->pool.id = v;
	x = json_object_get(pool, "name");
	FIELD(!json_is_string(x) ||
		      strlen(json_string_value(x)) >= sizeof(m->pool.name),
	      "pool.name");
	snprintf(m->pool.name, sizeof(m->pool.name), "%s",
		 json_string_value(x));
	FIELD(jget_int(pool, "size", 1, CFS_MAX_REP, &v), "pool.size");
	m->pool.size = (int)v;
	FIELD(jget_int(pool, "min_size", 1, m->pool.size, &v),
	      "pool.min_size");
	m->pool.min_size = (int)v;
	FIELD(jget_int(pool, "pg_num", 1, 1 << 20, &v), "pool.pg_num");
	m->pool.pg_num = (uint32_t)v;
	FIELD(jget_int(pool, "pgp_num", 1, m->pool.pg_num, &v),
	      "pool.pgp_num");
	m->pool.pgp_num = (uint32_t)v;
	FIELD(jget_int(pool, "crush_rule", 0, PL_MAX_RULES - 1, &v),
	      "pool.crush_rule");
	m->pool.crush_rule = (int)v;
	FIELD(jget_int(pool, "object_size", 1, UINT32_MAX, &v),
	      "pool.object_size");
	m->pool.object_size = (uint32_t)v;
	FIELD(jget_int(pool, "stripe_unit", 1, UINT32_MAX, &v),
	      "pool.stripe_unit");
	m->pool.stripe_unit = (uint32_t)v;
	FIELD(jget_int(pool, "stripe_count", 1, UINT32_MAX, &v),
	      "pool.stripe_count");
	m->pool.stripe_count = (uint32_t)v;
	/* quotas: absent when none (and in clusters made before them) */
	FIELD(json_object_get(pool, "quota_max_bytes") &&
		      jget_int(pool, "quota_max_bytes", 0, INT64_MAX, &v),
	      "pool.quota_max_bytes");
	m->pool.quota_max_bytes =
		json_object_get(pool, "quota_max_bytes") ? (uint64_t)v : 0;
	FIELD(json_object_get(pool, "quota_max_objects") &&
		      jget_int(pool, "quota_max_objects", 0, INT64_MAX, &v),
	      "pool.quota_max_objects");
	m->pool.quota_max_objects =
		json_object_get(pool, "quota_max_objects") ? (uint64_t)v : 0;
	{
		static const char *const names[3] = {
			"pool.stripe_unit", "pool.stripe_count",
			"pool.object_size"
		};
		char why[160];

		/* the default layout of every new file: the same rule as
		 * mkfs and the layout xattrs */
		if (cfs_layout_check(m->pool.stripe_unit,
				     m->pool.stripe_count,
				     m->pool.object_size, names, why,
				     sizeof(why))) {
			r = bad(err, errlen, path, why);
			goto fail;
		}
	}

	osds = json_object_get(root, "osds");
	FIELD(!json_is_array(osds), "osds");
	json_array_foreach(osds, i, x)
	{
		json_t *u = json_object_get(x, "uuid"), *up;
		struct cfs_osd_state *s;
		int id;

		snprintf(fld, sizeof(fld), "osds[%zu]", i);
		FIELD(!json_is_object(x), fld);
		snprintf(fld, sizeof(fld), "osds[%zu].id", i);
		FIELD(jget_int(x, "id", 0, CFS_MAX_OSD - 1, &v), fld);
		id = (int)v;
		r = osdmap_ensure_osd(m, id);
		if (r)
			goto fail;
		s = &m->osds[id];
		snprintf(fld, sizeof(fld), "osds[%zu].id (duplicate)", i);
		FIELD(s->exists, fld);
		s->exists = 1;
		snprintf(fld, sizeof(fld), "osds[%zu].uuid", i);
		FIELD(!json_is_string(u) || strlen(json_string_value(u)) != 36,
		      fld);
		memcpy(s->uuid, json_string_value(u), 37);
		up = json_object_get(x, "up");
		snprintf(fld, sizeof(fld), "osds[%zu].up", i);
		FIELD(!json_is_boolean(up), fld);
		s->up = json_is_true(up);
		snprintf(fld, sizeof(fld), "osds[%zu].reweight", i);
		FIELD(jget_int(x, "reweight", 0, CFS_WEIGHT_ONE, &v), fld);
		s->reweight = (uint32_t)v;
		snprintf(fld, sizeof(fld), "osds[%zu].primary_affinity", i);
		FIELD(jget_int(x, "primary_affinity", 0, CFS_WEIGHT_ONE, &v),
		      fld);
		s->primary_affinity = (uint32_t)v;
		snprintf(fld, sizeof(fld), "osds[%zu].capacity", i);
		FIELD(jget_int(x, "capacity", 0, INT64_MAX, &v), fld);
		s->capacity = (uint64_t)v;
		if (json_object_get(x, "prefill")) {
			snprintf(fld, sizeof(fld), "osds[%zu].prefill", i);
			FIELD(jget_int(x, "prefill", 0, (int64_t)s->capacity,
				      &v),
			      fld);
			s->prefill = (uint64_t)v;
		}
	}
	x = json_object_get(root, "crush_map_bin");
	if (x) {
		/* the exact map; "crush_map" is its text, weights rounded
		 * (clusters made before it was kept have the text only) */
		void *bin = NULL;
		size_t blen = 0;

		FIELD(!json_is_string(x), "crush_map_bin");
		if (cfs_pathf(what, sizeof(what), "%s (crush_map_bin)", path))
			snprintf(what, sizeof(what), "crush_map_bin");
		r = cfs_b64_decode(json_string_value(x), json_string_length(x),
				   &bin, &blen);
		if (r == -ENOMEM)
			goto fail;
		FIELD(r, "crush_map_bin (not base64)");
		r = pl_map_decode(bin, blen, what, &m->crush, perr,
				  sizeof(perr));
		free(bin);
		if (!r && (r = pl_map_finalize(m->crush)))
			snprintf(perr, sizeof(perr), "%s: %s", what,
				 cfs_strerror(r));
	} else {
		x = json_object_get(root, "crush_map");
		FIELD(!json_is_string(x), "crush_map");
		if (cfs_pathf(what, sizeof(what), "%s (crush_map)", path))
			snprintf(what, sizeof(what), "crush_map");
		r = pl_parse_text(json_string_value(x), json_string_length(x),
				  what, &m->crush, perr, sizeof(perr));
	}
	if (r) {
		snprintf(err, errlen, "%s", perr);
		r = CFS_ECORRUPT;
		goto fail;
	}
	FIELD(!pl_map_rule_exists(m->crush, m->pool.crush_rule),
	      "pool.crush_rule (no such rule in the crush map)");
	{
		char eerr[160];

		r = ecprofile_from_json(m, root, eerr, sizeof(eerr));
		if (r == -ENOMEM)
			goto fail;
		FIELD(r, eerr);
		r = xpools_from_json(m, root, eerr, sizeof(eerr));
		if (r == -ENOMEM)
			goto fail;
		FIELD(r, eerr);
		for (int i = 0; i < m->nxpools; i++)
			FIELD(!pl_map_rule_exists(m->crush,
						  m->xpools[i].info.crush_rule),
			      "pools[].crush_rule");
	}
	{
		/* after the pools: entries name any of them */
		char uerr[160];

		r = upmap_from_json(m, root, uerr, sizeof(uerr));
		if (r == -ENOMEM)
			goto fail;
		FIELD(r, uerr);
		r = pgtemp_from_json(m, root, uerr, sizeof(uerr));
		if (r == -ENOMEM)
			goto fail;
		FIELD(r, uerr);
		r = ptemp_from_json(m, root, uerr, sizeof(uerr));
		if (r == -ENOMEM)
			goto fail;
		FIELD(r, uerr);
	}
	/* an interrupted pg_num change (pgsplit.c) */
	if (json_object_get(root, "pg_num_change_from")) {
		FIELD(jget_int(root, "pg_num_change_from", 1, 1 << 20, &v),
		      "pg_num_change_from");
		m->pg_num_from = (uint32_t)v;
	}
#undef FIELD
	json_decref(root);
	*out = m;
	return 0;
fail:
	json_decref(root);
	osdmap_free(m);
	return r;
}

int osdmap_persist(const char *dir, const struct cfs_osdmap *m)
{
	char path[PATH_MAX], *text = NULL;
	size_t len;
	int r;

	r = pl_map_to_text(m->crush, &text, &len);
	if (r)
		return r;
	snprintf(path, sizeof(path), "%s/crushmap.txt", dir);
	r = cfs_write_atomic(path, text, len);
	free(text);
	if (r)
		return r;
	r = osdmap_to_json(m, &text, &len);
	if (r)
		return r;
	snprintf(path, sizeof(path), "%s/cluster.json", dir);
	r = cfs_write_atomic(path, text, len);
	free(text);
	return r;
}

/* ---- changes ---- */

/* Per thread: the daemon runs admin commands on several threads, and a
 * dry run on one must not swallow another's real change. */
static _Thread_local int dry_on;
static _Thread_local struct cfs_osdmap *dry_result;

void cfs_dry_run_begin(void)
{
	dry_on = 1;
	cfs_osdmap_put(dry_result);
	dry_result = NULL;
}

const cfs_osdmap *cfs_dry_run_end(void)
{
	struct cfs_osdmap *m = dry_result;

	dry_on = 0;
	dry_result = NULL;
	return m;
}

static int update_begin(cfs_cluster *c, struct cfs_osdmap **next)
{
	int r;

	if (c->rdonly)
		return -EROFS;
	if (c->live)
		return CFS_ELIVE; /* cfs_import_refresh follows it instead */
	pthread_mutex_lock(&c->update_lock);
	r = osdmap_clone(c->cur, next);
	if (r)
		pthread_mutex_unlock(&c->update_lock);
	return r;
}

static void update_abort(cfs_cluster *c, struct cfs_osdmap *next)
{
	osdmap_free(next);
	pthread_mutex_unlock(&c->update_lock);
}

static int update_commit(cfs_cluster *c, struct cfs_osdmap *next)
{
	int r;

	next->epoch = c->cur->epoch + 1;
	next->modified = time(NULL);
	/* The crush map lives as crushtool text, whose weights have three
	 * decimals: install what the text says, so that a restart maps
	 * exactly as the live map did. */
	r = osdmap_canon_crush(next);
	if (!r)
		r = osdmap_finish(next);
	/* OSDMap::clean_pg_upmaps, as the monitor runs it on each new
	 * epoch: entries the change made invalid go */
	if (!r && upmap_clean(next))
		r = osdmap_finish(next);
	/* the primaries' pg_temp requests after peering on the new map:
	 * acting stays where the data is until backfill */
	if (!r) {
		int ch = pgtemp_choose(c, c->cur, next);

		if (ch < 0)
			r = ch;
		else if (ch)
			r = osdmap_finish(next);
	}
	/* OSDMap::clean_temps for the entries crushfs does not choose (the
	 * other pools' pg_temp, primary_temp): those the change made moot */
	if (!r && temps_clean(next))
		r = osdmap_finish(next);
	if (!r && dry_on) {
		/* what would be installed, handed to cfs_dry_run_end */
		cfs_osdmap_put(dry_result);
		dry_result = next;
		pthread_mutex_unlock(&c->update_lock);
		return 0;
	}
	if (!r)
		r = osdmap_persist(c->dir, next);
	if (r) {
		update_abort(c, next);
		return r;
	}
	osdmap_install(c, next);
	pthread_mutex_unlock(&c->update_lock);
	return 0;
}

int cfs_pool_create(cfs_cluster *c, const struct cfs_pool_info *want,
		    int64_t *id, char *why, size_t whylen)
{
	struct cfs_osdmap *n;
	int r = update_begin(c, &n);

	if (r)
		return r;
	r = xpool_check_create(n, want,
			       config_uint(c, "mon_max_pg_per_osd"), why,
			       whylen);
	if (!r)
		r = xpool_add(n, want, id);
	if (r) {
		update_abort(c, n);
		return r;
	}
	r = update_commit(c, n);
	/* its PGs' state, before anything can write to it */
	if (!r && !dry_on)
		r = pgstate_reload(c, *id, want->pg_num, why, whylen);
	return r;
}

/* Objects the pool holds (every copy over its size, as `df`). */
static uint64_t pool_objects(cfs_cluster *c, const struct cfs_osdmap *m,
			     const struct cfs_pool_info *p)
{
	uint64_t copies = 0;

	for (int o = 0; o < m->max_osd; o++) {
		struct cfs_osd_usage u;

		cfs_osd_pool_usage(c, o, p->id, &u);
		copies += u.objects;
	}
	return p->size > 0 ? (copies + (uint64_t)p->size - 1) /
				     (uint64_t)p->size
			   : copies;
}

int cfs_fs_add_data_pool(cfs_cluster *c, int64_t pool, char *why,
			 size_t whylen)
{
	struct cfs_osdmap *n;
	struct cfs_xpool *x;
	int r = update_begin(c, &n);

	if (r)
		return r;
	x = xpool_find(n, pool);
	if (pool == n->pool.id || (x && x->info.fs_data)) {
		snprintf(why, whylen, "pool '%s' is already a data pool of "
			 "the filesystem",
			 x ? x->info.name : n->pool.name);
		r = -EEXIST;
	} else if (!x) {
		r = -ENOENT;
	} else if (x->info.erasure && !x->info.ec_overwrites) {
		/* FSMonitor::check_pool's words */
		snprintf(why, whylen, "pool '%s' (id '%lld') is an "
			 "erasure-coded pool, with no overwrite support",
			 x->info.name, (long long)x->info.id);
		r = -EINVAL;
	}
	if (r) {
		update_abort(c, n);
		return r;
	}
	x->info.fs_data = 1;
	return update_commit(c, n);
}

int cfs_fs_rm_data_pool(cfs_cluster *c, int64_t pool, char *why,
			size_t whylen)
{
	struct cfs_osdmap *n;
	struct cfs_xpool *x;
	uint64_t objs;
	int r = update_begin(c, &n);

	if (r)
		return r;
	x = xpool_find(n, pool);
	if (pool == n->pool.id) {
		snprintf(why, whylen, "cannot remove default data pool");
		r = -EINVAL;
	} else if (!x || !x->info.fs_data) {
		snprintf(why, whylen, "pool is not a data pool of the "
			 "filesystem");
		r = -ENOENT;
	} else if ((objs = pool_objects(c, n, &x->info)) > 0) {
		snprintf(why, whylen, "pool '%s' still holds %llu object(s) "
			 "of the filesystem's files: remove or move them "
			 "first", x->info.name, (unsigned long long)objs);
		r = -EBUSY;
	}
	if (r) {
		update_abort(c, n);
		return r;
	}
	x->info.fs_data = 0;
	return update_commit(c, n);
}

int cfs_pool_remove(cfs_cluster *c, int64_t id, char *why, size_t whylen)
{
	struct cfs_osdmap *n;
	int r = update_begin(c, &n);

	if (r)
		return r;
	/* OSDMonitor::_check_remove_pool's order */
	if (cfs_fs_is_data_pool(n, id)) {
		snprintf(why, whylen, "pool '%s' is in use by CephFS",
			 cfs_osdmap_pool_by_id(n, id)->name);
		r = -EBUSY;
	} else if (!xpool_find(n, id)) {
		r = -ENOENT;
	} else if (!config_flag(c, "mon_allow_pool_delete")) {
		snprintf(why, whylen, "pool deletion is disabled; you must "
			 "first set the mon_allow_pool_delete config option to "
			 "true before you can destroy a pool");
		r = -EPERM;
	}
	if (r) {
		update_abort(c, n);
		return r;
	}
	xpool_remove(n, id);
	return update_commit(c, n);
}

static int pool_update(cfs_cluster *c, const struct cfs_pool_info *want,
		       char *why, size_t whylen)
{
	struct cfs_osdmap *n;
	struct cfs_xpool *x;
	int r = update_begin(c, &n);

	if (r)
		return r;
	x = want->id == n->pool.id ? NULL : xpool_find(n, want->id);
	if (want->id != n->pool.id && !x)
		r = -ENOENT;
	else if (x && want->pg_num != x->info.pg_num &&
		 pool_objects(c, n, &x->info)) {
		/* objects would move between PGs: that is a split
		 * (cfs_pool_set_pg_num, under the PG layout gate) */
		snprintf(why, whylen, "pool '%s' holds objects: its pg_num "
			 "changes by a PG split or merge (ol_set_pg_num)",
			 x->info.name);
		r = -EBUSY;
	} else if (x)
		r = pool_check_change(n, &x->info, want, 1,
				      config_uint(c, "mon_max_pg_per_osd"),
				      &x->info, why,
				      whylen);
	else
		r = pool_check_change(n, &n->pool, want, 0,
				      config_uint(c, "mon_max_pg_per_osd"),
				      &n->pool, why,
				      whylen);
	if (r) {
		update_abort(c, n);
		return r;
	}
	return update_commit(c, n);
}

int cfs_pool_update(cfs_cluster *c, const struct cfs_pool_info *want,
		    char *why, size_t whylen)
{
	const cfs_osdmap *m = cfs_osdmap_get(c);
	const struct cfs_pool_info *cur = cfs_osdmap_pool_by_id(m, want->id);
	int relayout = cur && cur->id != m->pool.id &&
		       cur->pg_num != want->pg_num;
	uint32_t from = cur ? cur->pg_num : 0;
	int r;

	cfs_osdmap_put(m);
	if (!relayout || dry_on)
		return pool_update(c, want, why, whylen);
	/* another pool's PGs are remade: nobody works with them meanwhile
	 * (the PG layout gate; the pool holds no object, pool_update
	 * checks); the (empty) folders of PGs a merge ends go */
	cfs_pg_layout_exclusive(c);
	r = pool_update(c, want, why, whylen);
	if (!r)
		r = pgsplit_finish(c, c->cur, want->id, from, want->pg_num);
	if (!r)
		r = pgstate_reload(c, want->id, want->pg_num, why, whylen);
	cfs_pg_layout_release(c);
	return r;
}

/* The refusals of a pg_num change (OSDMonitor's range, then crushfs's
 * clean and co-located checks): 0, -EALREADY, or an error with why. */
static int pg_num_check(cfs_cluster *c, const struct cfs_osdmap *cur,
			int64_t pool, uint32_t pg_num, char *why,
			size_t whylen)
{
	struct pool_ovr o;
	uint32_t from;
	int r;

	if (pool_ovr((struct cfs_osdmap *)cur, pool, &o))
		return -ENOENT;
	from = o.info->pg_num;
	/* OSDMonitor: 'pg_num' must be greater than 0 and at most
	 * mon_max_pool_pg_num (65536) */
	if (pg_num == 0 || pg_num > 65536) {
		snprintf(why, whylen, "'pg_num' must be greater than 0 and "
			 "less than or equal to 65536");
		return -ERANGE;
	}
	r = pg_num == from ? -EALREADY : pgsplit_check_clean(c, cur, &o, why,
							     whylen);
	if (!r && pg_num < from) {
		if (o.info->pgp_num > pg_num) {
			snprintf(why, whylen, "set pgp_num to %u and rebalance "
				 "first: Ceph merges PGs once they are on the "
				 "same OSDs", pg_num);
			r = -EBUSY;
		} else {
			r = pgsplit_check_colocated(&o, pg_num, why, whylen);
		}
	}
	return r;
}

struct refile {
	uint32_t from, from_mask, to, to_mask;
	struct cfs_pg_num_plan *plan;
};

static int count_refiled(const char *name, const struct cfs_objinfo *oi,
			 int op, void *arg)
{
	struct refile *f = arg;
	uint32_t h = pl_str_hash(name, strlen(name));

	(void)op;
	f->plan->objects++;
	f->plan->bytes += oi->size;
	if (pl_stable_mod(h, f->from, f->from_mask) !=
	    pl_stable_mod(h, f->to, f->to_mask)) {
		f->plan->refiled++;
		f->plan->refiled_bytes += oi->size;
	}
	return 0;
}

int cfs_pool_pg_num_plan(cfs_cluster *c, int64_t pool, uint32_t pg_num,
			 struct cfs_pg_num_plan *plan, char *why,
			 size_t whylen)
{
	const cfs_osdmap *cur = cfs_osdmap_get(c);
	const struct cfs_pool_info *p = cfs_osdmap_pool_by_id(cur, pool);
	struct refile f;
	int r;

	memset(plan, 0, sizeof(*plan));
	if (!p) {
		cfs_osdmap_put(cur);
		return -ENOENT;
	}
	plan->from = p->pg_num;
	plan->to = pg_num;
	r = pg_num_check(c, cur, pool, pg_num, why, whylen);
	if (!r) {
		f = (struct refile){ plan->from, pl_pg_mask(plan->from),
				     pg_num, pl_pg_mask(pg_num), plan };
		r = cfs_index_foreach(c, pool, "", 0, count_refiled, &f);
	}
	cfs_osdmap_put(cur);
	return r;
}

int cfs_pool_set_pg_num(cfs_cluster *c, int64_t pool, uint32_t pg_num,
			char *why, size_t whylen)
{
	struct cfs_osdmap *n;
	struct pool_ovr o;
	uint32_t from;
	int r;

	if (dry_on) { /* cfs_pool_pg_num_plan says what it would do */
		snprintf(why, whylen, "a pg_num change has no dry run here");
		return -EINVAL;
	}
	r = update_begin(c, &n);
	if (r)
		return r;
	if (pool_ovr(n, pool, &o)) {
		update_abort(c, n);
		return -ENOENT;
	}
	from = o.info->pg_num;
	r = pg_num_check(c, c->cur, pool, pg_num, why, whylen);
	if (r) {
		update_abort(c, n);
		return r;
	}
	/* n is this change's own copy */
	((struct cfs_pool_info *)o.info)->pg_num = pg_num;
	*o.pg_num_from = from;
	for (int i = 0; i < *o.nupmaps; i++)
		if ((*o.upmaps)[i].ps >= pg_num)
			(*o.upmaps)[i].n = (*o.upmaps)[i].nitems = 0;
	upmap_compact_ovr(&o);
	n->epoch = c->cur->epoch + 1;
	n->modified = time(NULL);
	/* the new pg_num with its marker on disk first (a crash from here
	 * on is finished by the next open), then the files, then the state
	 * in memory; map changes wait (update_lock) and the caller holds
	 * I/O off (the PG layout gate) */
	r = osdmap_canon_crush(n);
	if (!r)
		r = osdmap_finish(n);
	if (!r)
		r = osdmap_persist(c->dir, n);
	if (r) {
		snprintf(why, whylen, "writing the new map: %s",
			 cfs_strerror(r));
		osdmap_persist(c->dir, c->cur);
		update_abort(c, n);
		return r;
	}
	r = pgsplit_finish(c, n, pool, from, pg_num);
	if (r) {
		/* put back what moved, and the map as it was */
		int back = pgsplit_finish(c, c->cur, pool, pg_num, from);

		if (!back)
			back = osdmap_persist(c->dir, c->cur);
		snprintf(why, whylen, "moving objects from pg_num %u to %u: "
			 "%s%s", from, pg_num, cfs_strerror(r),
			 back ? "; could not put them back either: the next "
				"open finishes the change" : "; nothing changed");
		if (back)
			c->rdonly = 1; /* no writes on a half-moved layout */
		update_abort(c, n);
		return r;
	}
	/* the per-PG state follows (the pool was clean: nothing is lost) */
	r = pgstate_reload(c, pool, pg_num, why, whylen);
	pool_ovr(n, pool, &o);
	*o.pg_num_from = 0;
	if (!r)
		r = osdmap_persist(c->dir, n);
	if (r) {
		/* the files are where the new map wants them, and the marker
		 * on disk says so: the next open settles it */
		c->rdonly = 1;
		update_abort(c, n);
		return r;
	}
	osdmap_install(c, n);
	pthread_mutex_unlock(&c->update_lock);
	/* A child is born on its parent's OSDs, but its up set is CRUSH's
	 * for its seed, without the parent's upmap entries: its primary
	 * asks for a pg_temp where the copies are, as after any map change
	 * (PeeringState::choose_acting on the child's first epoch).  The
	 * caller still holds I/O off, so no op sees the epoch before. */
	{
		int changed;

		r = cfs_pg_temp_refresh(c, &changed);
		if (r)
			snprintf(why, whylen, "choosing the new PGs' acting "
				 "sets: %s", cfs_strerror(r));
	}
	return r;
}

/* One pool's interrupted change, finished. */
static int settle_pool(cfs_cluster *c, int64_t pool, char *why,
		       size_t whylen)
{
	struct cfs_osdmap *n;
	struct pool_ovr o;
	uint32_t from, to;
	int r;

	if (pool_ovr(c->cur, pool, &o))
		return 0;
	from = *o.pg_num_from;
	to = o.info->pg_num;
	r = pgsplit_finish(c, c->cur, pool, from, to);
	if (r) {
		snprintf(why, whylen, "pool %lld: moving objects from pg_num "
			 "%u to %u: %s (the next write command finishes it)",
			 (long long)pool, from, to, cfs_strerror(r));
		return r;
	}
	/* the per-PG state follows the new pg_num (the pool was clean, so
	 * nothing of it is lost); map changes, which choose pg_temp from
	 * it, wait meanwhile */
	pthread_mutex_lock(&c->update_lock);
	r = pgstate_reload(c, pool, to, why, whylen);
	pthread_mutex_unlock(&c->update_lock);
	if (r)
		return r;
	r = update_begin(c, &n);
	if (r)
		return r;
	if (!pool_ovr(n, pool, &o))
		*o.pg_num_from = 0;
	return update_commit(c, n);
}

int pgsplit_settle(cfs_cluster *c, char *why, size_t whylen)
{
	int r = 0;

	for (int i = 0; !r && i < cfs_osdmap_npools(c->cur); i++) {
		struct pool_ovr o;
		int64_t id = cfs_osdmap_pool_at(c->cur, i)->id;

		if (!pool_ovr(c->cur, id, &o) && *o.pg_num_from)
			r = settle_pool(c, id, why, whylen);
	}
	return r;
}

/* 1 when some pool's pg_num change was cut short (its pool, from, to). */
int pgsplit_pending(const struct cfs_osdmap *m, int64_t *pool,
		    uint32_t *from, uint32_t *to)
{
	for (int i = 0; i < cfs_osdmap_npools(m); i++) {
		struct pool_ovr o;
		int64_t id = cfs_osdmap_pool_at(m, i)->id;

		if (!pool_ovr((struct cfs_osdmap *)m, id, &o) &&
		    *o.pg_num_from) {
			*pool = id;
			*from = *o.pg_num_from;
			*to = o.info->pg_num;
			return 1;
		}
	}
	return 0;
}

int cfs_ec_profile_set(cfs_cluster *c, const char *name,
		       const char *const *keys, const char *const *vals,
		       int n, int force, char *why, size_t whylen)
{
	struct cfs_osdmap *nm;
	json_t *kv = json_object(), *old;
	int r;

	if (!kv)
		return -ENOMEM;
	for (int i = 0; i < n; i++)
		json_object_set_new(kv, keys[i], json_string(vals[i]));
	r = update_begin(c, &nm);
	if (r) {
		json_decref(kv);
		return r;
	}
	if (!nm->ec_profiles)
		nm->ec_profiles = json_object();
	old = json_object_get(nm->ec_profiles, name);
	if (old && json_equal(old, kv)) {
		json_decref(kv);
		update_abort(c, nm);
		return -EEXIST; /* the same: nothing to do */
	}
	if (old && !force) {
		/* OSDMonitor::normalize_profile / "will not override" */
		snprintf(why, whylen, "will not override erasure code profile "
			 "%s because the existing profile is different from "
			 "the proposed one (--force overrides it)", name);
		json_decref(kv);
		update_abort(c, nm);
		return -EPERM;
	}
	json_object_set_new(nm->ec_profiles, name, kv);
	return update_commit(c, nm);
}

int cfs_ec_profile_rm(cfs_cluster *c, const char *name)
{
	struct cfs_osdmap *nm;
	int r = update_begin(c, &nm);

	if (r)
		return r;
	if (!nm->ec_profiles || !json_object_get(nm->ec_profiles, name)) {
		update_abort(c, nm);
		return -ENOENT;
	}
	json_object_del(nm->ec_profiles, name);
	return update_commit(c, nm);
}

int cfs_pg_temp_refresh(cfs_cluster *c, int *changed)
{
	struct cfs_osdmap *next;
	int r = update_begin(c, &next), ch;

	*changed = 0;
	if (r)
		return r;
	r = osdmap_finish(next);
	ch = r ? r : pgtemp_choose(c, c->cur, next);
	if (ch <= 0) {
		update_abort(c, next);
		return ch;
	}
	*changed = 1;
	return update_commit(c, next);
}

#define CHANGE_OSD(c, osd, next, body)                                        \
	do {                                                                  \
		int r_ = update_begin(c, &next);                              \
		if (r_)                                                       \
			return r_;                                            \
		if (!cfs_osdmap_exists(next, osd)) {                          \
			update_abort(c, next);                                \
			return -ENOENT;                                       \
		}                                                             \
		body;                                                         \
		return update_commit(c, next);                                \
	} while (0)

int cfs_osd_mark_out(cfs_cluster *c, int osd)
{
	struct cfs_osdmap *n;

	CHANGE_OSD(c, osd, n, n->osds[osd].reweight = 0);
}

int cfs_osd_mark_in(cfs_cluster *c, int osd)
{
	struct cfs_osdmap *n;

	/* Ceph: `osd in` sets the weight back to 1.0 (CEPH_OSD_IN). */
	CHANGE_OSD(c, osd, n, n->osds[osd].reweight = CFS_WEIGHT_ONE);
}

int cfs_osd_mark_down(cfs_cluster *c, int osd)
{
	struct cfs_osdmap *n;

	CHANGE_OSD(c, osd, n, n->osds[osd].up = 0);
}

int cfs_osd_mark_up(cfs_cluster *c, int osd)
{
	struct cfs_osdmap *n;

	CHANGE_OSD(c, osd, n, n->osds[osd].up = 1);
}

int cfs_osd_reweight(cfs_cluster *c, int osd, uint32_t weight)
{
	struct cfs_osdmap *n;

	if (weight > CFS_WEIGHT_ONE)
		return -EINVAL;
	CHANGE_OSD(c, osd, n, n->osds[osd].reweight = weight);
}

/* one upmap change: items picks pg_upmap_items over pg_upmap */
static int change_upmap(cfs_cluster *c, int items, int64_t pool, uint32_t ps,
			const int *ids, int n, char *why, size_t whylen)
{
	struct cfs_osdmap *next;
	int r = update_begin(c, &next);

	if (r)
		return r;
	if (items)
		r = upmap_set_items(next, pool, ps, ids, n, why, whylen);
	else
		r = upmap_set(next, pool, ps, ids, n, why, whylen);
	if (r) {
		update_abort(c, next);
		return r;
	}
	return update_commit(c, next);
}

int cfs_osd_pg_upmap(cfs_cluster *c, int64_t pool, uint32_t ps,
		     const int *osds, int n, char *why, size_t whylen)
{
	return change_upmap(c, 0, pool, ps, osds, n, why, whylen);
}

int cfs_osd_pg_upmap_items(cfs_cluster *c, int64_t pool, uint32_t ps,
			   const int *pairs, int npairs, char *why,
			   size_t whylen)
{
	return change_upmap(c, 1, pool, ps, pairs, npairs, why, whylen);
}

int cfs_osd_primary_affinity(cfs_cluster *c, int osd, uint32_t aff)
{
	struct cfs_osdmap *n;

	if (aff > CFS_WEIGHT_ONE)
		return -EINVAL;
	CHANGE_OSD(c, osd, n, n->osds[osd].primary_affinity = aff);
}

int cfs_osd_set_capacity(cfs_cluster *c, int osd, uint64_t bytes)
{
	struct cfs_osdmap *n;

	if (bytes > (uint64_t)INT64_MAX)
		return -ERANGE;
	CHANGE_OSD(c, osd, n, n->osds[osd].capacity = bytes);
}

int cfs_osd_crush_reweight(cfs_cluster *c, int osd, uint32_t weight)
{
	struct cfs_osdmap *n;
	int r = update_begin(c, &n);

	if (r)
		return r;
	if (!cfs_osdmap_exists(n, osd)) {
		update_abort(c, n);
		return -ENOENT;
	}
	r = pl_map_adjust_item_weight(n->crush, osd, weight);
	if (r) {
		update_abort(c, n);
		return r == -ENOENT ? -ENXIO : r; /* not in the crush tree */
	}
	return update_commit(c, n);
}

int cfs_osd_setcrushmap(cfs_cluster *c, pl_map *crush, char *why,
			size_t whylen)
{
	struct cfs_osdmap *n;
	int r, rule;

	if (!crush)
		return -EINVAL;
	r = update_begin(c, &n);
	if (r) {
		pl_map_destroy(crush);
		return r;
	}
	/* OSDMap::validate_crush_rules: the pool's rule must be there and
	 * be a replicated one */
	rule = n->pool.crush_rule;
	if (!pl_map_rule_exists(crush, rule) ||
	    pl_map_rule_type(crush, rule) != PL_RULE_TYPE_REPLICATED) {
		snprintf(why, whylen, "pool %lld references crush_rule %d but "
			 "it is not present (or not replicated)",
			 (long long)n->pool.id, rule);
		pl_map_destroy(crush);
		update_abort(c, n);
		return -EINVAL;
	}
	pl_map_destroy(n->crush);
	n->crush = crush;
	return update_commit(c, n);
}

static int set_ratio(cfs_cluster *c, int which, double v)
{
	struct cfs_osdmap *n;
	int r;

	if (!(v > 0 && v <= 1.0))
		return -EINVAL;
	r = update_begin(c, &n);
	if (r)
		return r;
	if (which == 0)
		n->full_ratio = v;
	else if (which == 1)
		n->backfillfull_ratio = v;
	else
		n->nearfull_ratio = v;
	return update_commit(c, n);
}

int cfs_set_full_ratio(cfs_cluster *c, double r) { return set_ratio(c, 0, r); }
int cfs_set_backfillfull_ratio(cfs_cluster *c, double r)
{
	return set_ratio(c, 1, r);
}
int cfs_set_nearfull_ratio(cfs_cluster *c, double r)
{
	return set_ratio(c, 2, r);
}

int cfs_set_full_policy(cfs_cluster *c, int policy)
{
	struct cfs_osdmap *n;
	int r;

	if (policy != CFS_FULL_OSD && policy != CFS_FULL_POOL)
		return -EINVAL;
	r = update_begin(c, &n);
	if (r)
		return r;
	n->full_policy = policy;
	return update_commit(c, n);
}

/* The first bucket that no other bucket holds (a root), 0 if none. */
int cfs_size_crush_weight(uint64_t bytes, uint32_t *weight)
{
	/* (bytes << 16) >> 40 without the overflow of bytes << 16 past
	 * 256 TiB: the weight truncated to 16.16, as the mon's float
	 * conversion truncates */
	uint64_t w = bytes >> 24;

	if (w > CFS_MAX_DEVICE_WEIGHT)
		return -ERANGE;
	*weight = w < CFS_MIN_CRUSH_WEIGHT ? CFS_MIN_CRUSH_WEIGHT : (uint32_t)w;
	return 0;
}

static int first_root(const pl_map *cm)
{
	for (int pos = 0; pos < pl_map_max_buckets(cm); pos++) {
		int id = -1 - pos;

		if (pl_map_bucket_exists(cm, id) && !pl_map_parent(cm, id) &&
		    !pl_map_bucket_is_shadow(cm, id))
			return id;
	}
	return 0;
}

int cfs_osd_add(cfs_cluster *c, const char *host, uint64_t size, int *idout)
{
	struct cfs_osdmap *n;
	struct osd_store *s;
	char name[32];
	int r, id, hid, htype, root;
	uint32_t w;
	uuid_t u;

	if (!host || !*host || strlen(host) > 60)
		return -EINVAL;
	if (size == 0 || cfs_size_crush_weight(size, &w))
		return -ERANGE;
	r = update_begin(c, &n);
	if (r)
		return r;
	/* Ceph gives a new OSD the lowest free id (OSDMonitor::prepare_new). */
	for (id = 0; id < CFS_MAX_OSD; id++)
		if (!cfs_osdmap_exists(n, id) &&
		    !pl_map_device_in_buckets(n->crush, id))
			break;
	if (id >= CFS_MAX_OSD) {
		r = -ENOSPC;
		goto fail;
	}
	if (pl_map_item_by_name(n->crush, host, &hid) == 0) {
		if (hid >= 0) {
			r = -ENOTDIR; /* the name is a device, not a bucket */
			goto fail;
		}
	} else {
		if (pl_map_type_by_name(n->crush, "host", &htype))
			htype = 1;
		root = first_root(n->crush);
		if (!root) {
			r = -ENOENT;
			goto fail;
		}
		r = pl_map_add_bucket(n->crush, 0, PL_BUCKET_STRAW2,
				      PL_HASH_RJENKINS1, htype, 0, NULL, NULL,
				      &hid);
		if (!r)
			r = pl_map_set_item_name(n->crush, hid, host);
		if (!r)
			r = pl_map_bucket_add_item(n->crush, root, hid, 0);
		if (r)
			goto fail;
	}
	snprintf(name, sizeof(name), "osd.%d", id);
	if (!pl_map_device_declared(n->crush, id)) {
		r = pl_map_add_device(n->crush, id, name);
		if (r)
			goto fail;
	}
	r = pl_map_bucket_add_item(n->crush, hid, id, w);
	if (r)
		goto fail;
	r = pl_map_finalize(n->crush);
	if (r)
		goto fail;
	r = osdmap_ensure_osd(n, id);
	if (r)
		goto fail;
	uuid_generate(u);
	uuid_unparse_lower(u, n->osds[id].uuid);
	n->osds[id].exists = 1;
	n->osds[id].up = 1;
	n->osds[id].reweight = CFS_WEIGHT_ONE;
	n->osds[id].primary_affinity = CFS_WEIGHT_ONE;
	n->osds[id].capacity = size;
	/* The OSD's folder first: a crash before the map commits leaves an
	 * empty osd.N that the next `osd add` reuses. */
	if (!dry_on) {
		r = osd_store_create(c->dir, id, n->osds[id].uuid);
		if (r)
			goto fail;
		r = store_open(c, id, &s);
		if (r)
			goto fail;
	}
	r = update_commit(c, n);
	if (!r && idout)
		*idout = id;
	return r;
fail:
	update_abort(c, n);
	return r;
}
