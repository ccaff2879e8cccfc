/*
 * ecprofile.c - erasure-code profiles, kept in the osdmap as Ceph keeps
 * them (OSDMap::erasure_code_profiles: name -> key/value strings, printed
 * by `ceph osd dump -f json` as "erasure_code_profiles").  Every cluster
 * has Ceph's "default" profile (k=2 m=2 plugin=jerasure
 * technique=reed_sol_van).  What a profile's keys mean is the CLI's and
 * the rule builder's business; here they are stored, copied with each
 * epoch, and persisted.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "osdsim_i.h"

/* keys a profile may have (the CLI's MAX_KEYS too) */
#define ECP_MAX_KEYS 64

json_t *ecprofile_defaults(void)
{
	/* OSDMonitor's osd_pool_default_erasure_code_profile */
	return json_pack("{s:{s:s, s:s, s:s, s:s}}", "default", "k", "2",
			 "m", "2", "plugin", "jerasure", "technique",
			 "reed_sol_van");
}

int ecprofile_from_json(struct cfs_osdmap *m, json_t *root, int how,
			char *err, size_t errlen)
{
	json_t *p = json_object_get(root, "erasure_code_profiles"), *kv, *v;
	const char *name, *key, *keys[ECP_MAX_KEYS], *vals[ECP_MAX_KEYS];
	char why[256];
	int n;

	json_decref(m->ec_profiles);
	if (!p) {
		/* made before profiles were kept: Ceph's default */
		m->ec_profiles = ecprofile_defaults();
		return m->ec_profiles ? 0 : -ENOMEM;
	}
	if (!json_is_object(p)) {
		snprintf(err, errlen, "erasure_code_profiles: not an object");
		return -EINVAL;
	}
	json_object_foreach(p, name, kv) {
		char q[96];

		cfs_name_quote(name, q, sizeof(q));
		if (!json_is_object(kv) || !*name) {
			snprintf(err, errlen, "erasure_code_profiles.%s", q);
			return -EINVAL;
		}
		n = 0;
		json_object_foreach(kv, key, v) {
			if (!json_is_string(v) || n == ECP_MAX_KEYS) {
				snprintf(err, errlen,
					 "erasure_code_profiles.%s.%s", q,
					 key);
				return -EINVAL;
			}
			keys[n] = key;
			vals[n++] = json_string_value(v);
		}
		/* what a pool of it will need, so that a bad value is one
		 * line here, not an EIO at the pool's first write */
		if (cfs_ec_profile_check(name, keys, vals, n, how, why,
					 sizeof(why))) {
			snprintf(err, errlen, "erasure_code_profiles.%s: %s", q,
				 why);
			return -EINVAL;
		}
	}
	m->ec_profiles = json_deep_copy(p);
	return m->ec_profiles ? 0 : -ENOMEM;
}

const char *cfs_ec_profile_get(const cfs_osdmap *m, const char *name,
			       const char *key)
{
	json_t *kv = m->ec_profiles ? json_object_get(m->ec_profiles, name)
				    : NULL;
	json_t *v = kv ? json_object_get(kv, key) : NULL;

	return v ? json_string_value(v) : NULL;
}

int cfs_ec_profile_exists(const cfs_osdmap *m, const char *name)
{
	return m->ec_profiles && json_object_get(m->ec_profiles, name);
}

int cfs_ec_profile_names(const cfs_osdmap *m, const char **names, int max)
{
	const char *name;
	json_t *kv;
	int n = 0;

	if (!m->ec_profiles)
		return 0;
	json_object_foreach(m->ec_profiles, name, kv) {
		(void)kv;
		if (n < max)
			names[n] = name;
		n++;
	}
	return n;
}

int cfs_ec_profile_keys(const cfs_osdmap *m, const char *name,
			const char **keys, const char **vals, int max)
{
	json_t *kv = m->ec_profiles ? json_object_get(m->ec_profiles, name)
				    : NULL, *v;
	const char *key;
	int n = 0;

	if (!kv)
		return -ENOENT;
	json_object_foreach(kv, key, v) {
		if (n < max) {
			keys[n] = key;
			vals[n] = json_string_value(v);
		}
		n++;
	}
	return n;
}
