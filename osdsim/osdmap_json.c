/*
 * osdmap_json.c - an osdmap as DIR/cluster.json, the commit point of
 * every change: written whole (crushmap.txt first, its text), and read
 * back part by part - the map's head, the data pool, the OSDs, the crush
 * map, then the other pools and the entries that name them - each field
 * checked, so a damaged file is refused with the field it breaks on.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "osdsim_i.h"
#include "placement.h"
#include "util.h"

/* ---- writing ---- */

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
	/* a change under way (adjust_pgs.c); absent: the target is the
	 * value itself, as in clusters made before targets were kept */
	if (m->pool.pg_num_target != m->pool.pg_num)
		json_object_set_new(pool, "pg_num_target",
				    json_integer(m->pool.pg_num_target));
	if (m->pool.pgp_num_target != m->pool.pgp_num)
		json_object_set_new(pool, "pgp_num_target",
				    json_integer(m->pool.pgp_num_target));
	if (m->pool.quota_max_bytes)
		json_object_set_new(pool, "quota_max_bytes",
				    json_integer((json_int_t)
							 m->pool.quota_max_bytes));
	if (m->pool.quota_max_objects)
		json_object_set_new(pool, "quota_max_objects",
				    json_integer((json_int_t)
							 m->pool.quota_max_objects));
	json_object_set_new(pool, "application_metadata",
			    pool_apps_json(m->pool.apps));
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
		if (o && s->down_stamp)
			json_object_set_new(o, "down_stamp",
					    json_integer(s->down_stamp));
		if (o && s->autoout_weight)
			json_object_set_new(o, "autoout_weight",
					    json_integer(s->autoout_weight));
		json_array_append_new(osds, o);
	}
	json_object_set_new(root, "fsid", json_string(m->fsid));
	json_object_set_new(root, "epoch", json_integer(m->epoch));
	json_object_set_new(root, "created", json_integer(m->created));
	json_object_set_new(root, "modified", json_integer(m->modified));
	json_object_set_new(root, "full_policy",
			    json_string(cfs_full_policy_name(m->full_policy)));
	if (m->flags)
		json_object_set_new(root, "flags", json_integer(m->flags));
	if (m->last_up_change)
		json_object_set_new(root, "last_up_change",
				    json_integer(m->last_up_change));
	if (m->last_in_change)
		json_object_set_new(root, "last_in_change",
				    json_integer(m->last_in_change));
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

/* ---- reading ---- */

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

static int bad_field(char *err, size_t errlen, const char *path,
		     const char *name)
{
	char what[400];

	snprintf(what, sizeof(what), "field '%s' is missing or invalid", name);
	return bad(err, errlen, path, what);
}

/* In the readers below: a field that fails cond makes the map corrupt,
 * err naming the field (or saying what is wrong with it). */
#define FIELD(cond, name)                                                     \
	do {                                                                  \
		if (cond)                                                     \
			return bad_field(err, errlen, path, name);            \
	} while (0)

static int get_ratio(json_t *o, const char *key, double *v)
{
	/* (0, 1] */
	return jget_real(o, key, 0, 1, v) || *v <= 0 ? -1 : 0;
}

/* fsid, epoch, times, full policy and ratios */
static int head_from_json(struct cfs_osdmap *m, json_t *root,
			  const char *path, char *err, size_t errlen)
{
	json_t *x = json_object_get(root, "fsid");
	int64_t v;

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
	/* absent in clusters made before `osd set` existed: none */
	if (json_object_get(root, "flags")) {
		FIELD(jget_int(root, "flags", 0, UINT32_MAX, &v) ||
			      ((uint32_t)v & ~CFS_OSDMAP_SETTABLE),
		      "flags");
		m->flags = (uint32_t)v;
	}
	/* absent in clusters made before crushfs kept them: unknown (0) */
	if (json_object_get(root, "last_up_change")) {
		FIELD(jget_int(root, "last_up_change", 0, INT64_MAX, &v),
		      "last_up_change");
		m->last_up_change = v;
	}
	if (json_object_get(root, "last_in_change")) {
		FIELD(jget_int(root, "last_in_change", 0, INT64_MAX, &v),
		      "last_in_change");
		m->last_in_change = v;
	}
	FIELD(get_ratio(root, "full_ratio", &m->full_ratio), "full_ratio");
	FIELD(get_ratio(root, "backfillfull_ratio", &m->backfillfull_ratio),
	      "backfillfull_ratio");
	FIELD(get_ratio(root, "nearfull_ratio", &m->nearfull_ratio),
	      "nearfull_ratio");
	return 0;
}

/* the data pool */
static int pool_from_json(struct cfs_osdmap *m, json_t *root,
			  const char *path, char *err, size_t errlen)
{
	static const char *const names[3] = {
		"pool.stripe_unit", "pool.stripe_count", "pool.object_size"
	};
	json_t *pool = json_object_get(root, "pool"), *x;
	char why[160];
	int64_t v;

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
	/* the targets: absent when nothing is under way (and in clusters
	 * made before they were kept) */
	m->pool.pg_num_target = m->pool.pg_num;
	m->pool.pgp_num_target = m->pool.pgp_num;
	if (json_object_get(pool, "pg_num_target")) {
		FIELD(jget_int(pool, "pg_num_target", 1, 65536, &v),
		      "pool.pg_num_target");
		m->pool.pg_num_target = (uint32_t)v;
	}
	if (json_object_get(pool, "pgp_num_target")) {
		FIELD(jget_int(pool, "pgp_num_target", 1, 65536, &v),
		      "pool.pgp_num_target");
		m->pool.pgp_num_target = (uint32_t)v;
	}
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
	/* absent in clusters made before applications were kept: the
	 * data pool was always the filesystem's (mkfs tags it so now) */
	if (json_object_get(pool, "application_metadata")) {
		FIELD(pool_apps_set(m->pool.apps, sizeof(m->pool.apps),
				    json_object_get(pool,
						    "application_metadata"),
				    why, sizeof(why)),
		      "pool.application_metadata");
	} else {
		FIELD(pool_apps_enable(m->pool.apps, sizeof(m->pool.apps),
				       "cephfs", "data", "crushfs"),
		      "pool.application_metadata");
	}
	/* the default layout of every new file: the same rule as mkfs and
	 * the layout xattrs */
	if (cfs_layout_check(m->pool.stripe_unit, m->pool.stripe_count,
			     m->pool.object_size, names, why, sizeof(why)))
		return bad(err, errlen, path, why);
	return 0;
}

/* every OSD's state */
static int osds_from_json(struct cfs_osdmap *m, json_t *root,
			  const char *path, char *err, size_t errlen)
{
	json_t *osds = json_object_get(root, "osds"), *x;
	char fld[64];
	int64_t v;
	size_t i;
	int r;

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
			return r;
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
		if (json_object_get(x, "down_stamp")) {
			snprintf(fld, sizeof(fld), "osds[%zu].down_stamp", i);
			FIELD(jget_int(x, "down_stamp", 0, INT64_MAX, &v), fld);
			s->down_stamp = v;
		}
		if (json_object_get(x, "autoout_weight")) {
			snprintf(fld, sizeof(fld), "osds[%zu].autoout_weight",
				 i);
			FIELD(jget_int(x, "autoout_weight", 0, CFS_WEIGHT_ONE,
				       &v),
			      fld);
			s->autoout_weight = (uint32_t)v;
		}
	}
	return 0;
}

/* the crush map, which must hold the data pool's rule */
static int crush_from_json(struct cfs_osdmap *m, json_t *root,
			   const char *path, char *err, size_t errlen)
{
	json_t *x = json_object_get(root, "crush_map_bin");
	char what[320], perr[512];
	int r;

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
			return r;
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
		return CFS_ECORRUPT;
	}
	FIELD(!pl_map_rule_exists(m->crush, m->pool.crush_rule),
	      "pool.crush_rule (no such rule in the crush map)");
	return 0;
}

/* EC profiles, the other pools, then the entries that name any pool
 * (upmaps, pg_temp, primary_temp) and an interrupted pg_num change */
static int pools_from_json(struct cfs_osdmap *m, json_t *root,
			   const char *path, char *err, size_t errlen)
{
	char why[320];
	int64_t v;
	int r;

	r = ecprofile_from_json(m, root, 0, why, sizeof(why));
	if (r == -ENOMEM)
		return r;
	FIELD(r, why);
	r = xpools_from_json(m, root, why, sizeof(why));
	if (r == -ENOMEM)
		return r;
	FIELD(r, why);
	for (int i = 0; i < m->nxpools; i++)
		FIELD(!pl_map_rule_exists(m->crush,
					  m->xpools[i].info.crush_rule),
		      "pools[].crush_rule");
	/* after the pools: entries name any of them */
	r = upmap_from_json(m, root, why, sizeof(why));
	if (r == -ENOMEM)
		return r;
	FIELD(r, why);
	r = pgtemp_from_json(m, root, why, sizeof(why));
	if (r == -ENOMEM)
		return r;
	FIELD(r, why);
	r = ptemp_from_json(m, root, why, sizeof(why));
	if (r == -ENOMEM)
		return r;
	FIELD(r, why);
	/* an interrupted pg_num change (pgsplit.c) */
	if (json_object_get(root, "pg_num_change_from")) {
		FIELD(jget_int(root, "pg_num_change_from", 1, 1 << 20, &v),
		      "pg_num_change_from");
		m->pg_num_from = (uint32_t)v;
	}
	return 0;
}

#undef FIELD

int osdmap_from_json(const char *text, size_t len, const char *path,
		     struct cfs_osdmap **out, char *err, size_t errlen)
{
	json_error_t je;
	json_t *root;
	struct cfs_osdmap *m;
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
	r = head_from_json(m, root, path, err, errlen);
	if (!r)
		r = pool_from_json(m, root, path, err, errlen);
	if (!r)
		r = osds_from_json(m, root, path, err, errlen);
	if (!r)
		r = crush_from_json(m, root, path, err, errlen);
	if (!r)
		r = pools_from_json(m, root, path, err, errlen);
	json_decref(root);
	if (r) {
		osdmap_free(m);
		return r;
	}
	*out = m;
	return 0;
}
