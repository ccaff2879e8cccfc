/*
 * pool_apps.c - a pool's applications (pg_pool_t::application_metadata,
 * Ceph 16.2): which application uses the pool ("cephfs", "rbd", "rgw")
 * and its key/value pairs, as `osd pool application` sets them.  Kept in
 * cfs_pool_info.apps as compact JSON text, persisted with the pool's
 * other fields (osdmap_json.c, pools.c), taken from a live cluster's
 * osd_dump.json on import.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "osdsim_i.h"

/* "" is no application at all: {} */
json_t *pool_apps_json(const char *apps)
{
	json_t *v = *apps ? json_loads(apps, 0, NULL) : NULL;

	return json_is_object(v) ? v : (json_decref(v), json_object());
}

/* OSDMonitor's limits (MAX_POOL_APPLICATIONS, _KEYS, _LENGTH). */
static int check(json_t *v, char *why, size_t whylen)
{
	const char *app, *key;
	json_t *kv, *val;

	if (!json_is_object(v)) {
		snprintf(why, whylen, "applications: not a JSON object");
		return -EINVAL;
	}
	if (json_object_size(v) > CFS_POOL_MAX_APPS) {
		snprintf(why, whylen, "too many enabled applications (max %d)",
			 CFS_POOL_MAX_APPS);
		return -EINVAL;
	}
	json_object_foreach(v, app, kv) {
		if (!*app || strlen(app) > CFS_POOL_APP_LEN) {
			snprintf(why, whylen, "application name '%.40s' is "
				 "empty or too long; max length %d",
				 app, CFS_POOL_APP_LEN);
			return -EINVAL;
		}
		if (!json_is_object(kv) ||
		    json_object_size(kv) > CFS_POOL_APP_KEYS) {
			snprintf(why, whylen, "application '%.40s': too many "
				 "keys or not an object", app);
			return -EINVAL;
		}
		json_object_foreach(kv, key, val) {
			if (!json_is_string(val) || !*key ||
			    strlen(key) > CFS_POOL_APP_LEN ||
			    json_string_length(val) > CFS_POOL_APP_LEN) {
				snprintf(why, whylen, "application '%.40s': "
					 "key '%.40s' or its value is empty, "
					 "too long or not a string", app, key);
				return -EINVAL;
			}
		}
	}
	return 0;
}

int pool_apps_set(char *apps, size_t len, json_t *v, char *why,
		  size_t whylen)
{
	char *s;
	int r = check(v, why, whylen);

	if (r)
		return r;
	s = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS);
	if (!s)
		return -ENOMEM;
	if (strlen(s) >= len) {
		snprintf(why, whylen, "the applications take %zu bytes, more "
			 "than the %zu a pool keeps", strlen(s), len - 1);
		free(s);
		return -E2BIG;
	}
	/* {} is kept as "": no application */
	snprintf(apps, len, "%s", json_object_size(v) ? s : "");
	free(s);
	return 0;
}

int cfs_pool_apps_check(const char *apps, char *why, size_t whylen)
{
	json_t *v;
	int r;

	if (!*apps)
		return 0;
	v = json_loads(apps, 0, NULL);
	r = v ? check(v, why, whylen) : -EINVAL;
	if (!v)
		snprintf(why, whylen, "applications: not JSON");
	json_decref(v);
	return r;
}

int pool_apps_enable(char *apps, size_t len, const char *app,
		     const char *key, const char *value)
{
	json_t *v = pool_apps_json(apps), *kv;
	char why[160];
	int r;

	if (!v)
		return -ENOMEM;
	kv = json_object_get(v, app);
	if (!kv) {
		kv = json_object();
		json_object_set_new(v, app, kv);
	}
	if (key)
		json_object_set_new(kv, key, json_string(value));
	r = pool_apps_set(apps, len, v, why, sizeof(why));
	json_decref(v);
	return r;
}

int cfs_pool_app_names(const struct cfs_pool_info *p, char *buf, size_t len)
{
	json_t *v = pool_apps_json(p->apps), *kv;
	const char *app;
	size_t o = 0;
	int n = 0;

	buf[0] = 0;
	if (!v)
		return 0;
	/* std::map order: by name */
	json_object_foreach(v, app, kv) {
		(void)kv;
		if (o < len)
			o += (size_t)snprintf(buf + o, len - o, "%s%s",
					      n ? "," : "", app);
		n++;
	}
	json_decref(v);
	return n;
}
