/*
 * pools.c - the pools beside the filesystem's data pool: `osd pool create`
 * and `osd pool rm` with Ceph 16.2's defaults and checks
 * (OSDMonitor::prepare_new_pool, check_pg_num, the pool rm guard), kept in
 * the osdmap (cluster.json "pools") and placed every epoch like the data
 * pool (pgtable.c), replicated or erasure-coded (indep rules keep their
 * holes).  crushfs stores its filesystem in the data pool only: the other
 * pools are placement (`osd map`, `osd pool ls detail`, `osd dump`) and
 * hold no object of crushfs's yet.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "osdsim_i.h"
#include "placement.h"

/* Ceph 16.2's mon_max_pg_per_osd */

static void xpool_free(struct cfs_xpool *x)
{
	free(x->pgs);
	free(x->upmaps);
	free(x->temps);
	free(x->ptemps);
}

void xpools_free(struct cfs_osdmap *m)
{
	for (int i = 0; i < m->nxpools; i++)
		xpool_free(&m->xpools[i]);
	free(m->xpools);
	m->xpools = NULL;
	m->nxpools = 0;
}

int xpools_copy(const struct cfs_osdmap *from, struct cfs_osdmap *to)
{
	to->pool_max = from->pool_max;
	if (!from->nxpools)
		return 0;
	to->xpools = calloc((size_t)from->nxpools, sizeof(*to->xpools));
	if (!to->xpools)
		return -ENOMEM;
	to->nxpools = from->nxpools;
	for (int i = 0; i < from->nxpools; i++) {
		const struct cfs_xpool *f = &from->xpools[i];
		struct cfs_xpool *t = &to->xpools[i];

		t->info = f->info; /* pgs: derived */
		t->pg_num_from = f->pg_num_from;
		if (psarr_dup((void **)&t->upmaps, &t->nupmaps, f->upmaps,
			      f->nupmaps, sizeof(*f->upmaps)) ||
		    psarr_dup((void **)&t->temps, &t->ntemps, f->temps,
			      f->ntemps, sizeof(*f->temps)) ||
		    psarr_dup((void **)&t->ptemps, &t->nptemps, f->ptemps,
			      f->nptemps, sizeof(*f->ptemps)))
			return -ENOMEM;
	}
	return 0;
}

json_t *xpools_to_json(const struct cfs_osdmap *m)
{
	json_t *a = json_array();

	for (int i = 0; a && i < m->nxpools; i++) {
		const struct cfs_pool_info *p = &m->xpools[i].info;
		json_t *o = json_pack(
			"{s:I, s:s, s:s, s:i, s:i, s:I, s:I, s:i, s:I, s:I}",
			"id", (json_int_t)p->id, "name", p->name, "type",
			p->erasure ? "erasure" : "replicated", "size", p->size,
			"min_size", p->min_size, "pg_num", (json_int_t)p->pg_num,
			"pgp_num", (json_int_t)p->pgp_num, "crush_rule",
			p->crush_rule, "quota_max_bytes",
			(json_int_t)p->quota_max_bytes, "quota_max_objects",
			(json_int_t)p->quota_max_objects);

		if (o && p->erasure)
			json_object_set_new(o, "erasure_code_profile",
					    json_string(p->ec_profile));
		if (o && p->fs_data)
			json_object_set_new(o, "fs_data", json_true());
		if (o && p->ec_overwrites)
			json_object_set_new(o, "ec_overwrites", json_true());
		if (o)
			json_object_set_new(o, "application_metadata",
					    pool_apps_json(p->apps));
		if (o && p->pg_num_target != p->pg_num)
			json_object_set_new(o, "pg_num_target",
					    json_integer(p->pg_num_target));
		if (o && p->pgp_num_target != p->pgp_num)
			json_object_set_new(o, "pgp_num_target",
					    json_integer(p->pgp_num_target));
		if (o && m->xpools[i].pg_num_from)
			json_object_set_new(
				o, "pg_num_change_from",
				json_integer(m->xpools[i].pg_num_from));
		if (!o || json_array_append_new(a, o)) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

int xpools_from_json(struct cfs_osdmap *m, json_t *root, char *err,
		     size_t errlen)
{
	json_t *a = json_object_get(root, "pools"), *o;
	json_t *pm = json_object_get(root, "pool_max");
	char why2[160];
	size_t i;

	m->pool_max = json_is_integer(pm) ? json_integer_value(pm) : m->pool.id;
	if (m->pool_max < m->pool.id)
		m->pool_max = m->pool.id;
	if (!a)
		return 0;
	if (!json_is_array(a)) {
		snprintf(err, errlen, "field 'pools' is not a list");
		return -EINVAL;
	}
	m->xpools = calloc(json_array_size(a) + 1, sizeof(*m->xpools));
	if (!m->xpools)
		return -ENOMEM;
	json_array_foreach(a, i, o) {
		struct cfs_pool_info *p = &m->xpools[i].info;
		json_t *x = json_object_get(o, "name");
		json_t *t = json_object_get(o, "type");
		int64_t v = 0;
		const char *bad = NULL;

		if (!json_is_object(o))
			bad = "";
		else if (!json_is_string(x) || !*json_string_value(x) ||
			 strlen(json_string_value(x)) >= sizeof(p->name))
			bad = "name";
		else if (jget_int(o, "id", 0, INT32_MAX, &v) ||
			 v == m->pool.id || (i && v <= m->xpools[i - 1].info.id) ||
			 v > m->pool_max)
			bad = "id";
		if (!bad) {
			p->id = v;
			snprintf(p->name, sizeof(p->name), "%s",
				 json_string_value(x));
			p->erasure = json_is_string(t) &&
				     !strcmp(json_string_value(t), "erasure");
			if (!json_is_string(t) ||
			    (!p->erasure &&
			     strcmp(json_string_value(t), "replicated")))
				bad = "type";
		}
		if (!bad && jget_int(o, "size", 1, CFS_MAX_REP, &v))
			bad = "size";
		p->size = (int)v;
		if (!bad && jget_int(o, "min_size", 1, p->size, &v))
			bad = "min_size";
		p->min_size = (int)v;
		if (!bad && jget_int(o, "pg_num", 1, 65536, &v))
			bad = "pg_num";
		p->pg_num = (uint32_t)v;
		if (!bad && jget_int(o, "pgp_num", 1, p->pg_num, &v))
			bad = "pgp_num";
		p->pgp_num = (uint32_t)v;
		/* a pg_num / pgp_num change under way (adjust_pgs.c) */
		p->pg_num_target = p->pg_num;
		p->pgp_num_target = p->pgp_num;
		if (!bad && json_object_get(o, "pg_num_target")) {
			if (jget_int(o, "pg_num_target", 1, 65536, &v))
				bad = "pg_num_target";
			else
				p->pg_num_target = (uint32_t)v;
		}
		if (!bad && json_object_get(o, "pgp_num_target")) {
			if (jget_int(o, "pgp_num_target", 1, 65536, &v))
				bad = "pgp_num_target";
			else
				p->pgp_num_target = (uint32_t)v;
		}
		if (!bad && jget_int(o, "crush_rule", 0, PL_MAX_RULES - 1, &v))
			bad = "crush_rule";
		p->crush_rule = (int)v;
		if (!bad && jget_int(o, "quota_max_bytes", 0, INT64_MAX, &v))
			bad = "quota_max_bytes";
		p->quota_max_bytes = (uint64_t)v;
		if (!bad && jget_int(o, "quota_max_objects", 0, INT64_MAX, &v))
			bad = "quota_max_objects";
		p->quota_max_objects = (uint64_t)v;
		if (!bad && p->erasure) {
			x = json_object_get(o, "erasure_code_profile");
			if (!json_is_string(x) ||
			    strlen(json_string_value(x)) >=
				    sizeof(p->ec_profile))
				bad = "erasure_code_profile";
			else
				snprintf(p->ec_profile, sizeof(p->ec_profile),
					 "%s", json_string_value(x));
		}
		x = json_object_get(o, "fs_data");
		if (!bad && x && !json_is_boolean(x))
			bad = "fs_data";
		p->fs_data = json_is_true(x);
		x = json_object_get(o, "ec_overwrites");
		if (!bad && x && (!json_is_boolean(x) || !p->erasure))
			bad = "ec_overwrites";
		p->ec_overwrites = json_is_true(x);
		/* absent in clusters made before applications were kept: a
		 * data pool of the filesystem was CephFS's */
		x = json_object_get(o, "application_metadata");
		if (!bad && x &&
		    pool_apps_set(p->apps, sizeof(p->apps), x, why2,
				  sizeof(why2)))
			bad = "application_metadata";
		if (!bad && !x && p->fs_data &&
		    pool_apps_enable(p->apps, sizeof(p->apps), "cephfs",
				     "data", "crushfs"))
			bad = "application_metadata";
		if (!bad && json_object_get(o, "pg_num_change_from")) {
			if (jget_int(o, "pg_num_change_from", 1, 65536, &v))
				bad = "pg_num_change_from";
			else
				m->xpools[i].pg_num_from = (uint32_t)v;
		}
		if (bad) {
			snprintf(err, errlen, "pools[%zu]%s%s is missing or "
				 "invalid", i, *bad ? "." : "", bad);
			return -EINVAL;
		}
		m->nxpools++;
	}
	return 0;
}

/* ---- lookups ---- */

int cfs_osdmap_npools(const cfs_osdmap *m)
{
	return 1 + m->nxpools;
}

const struct cfs_pool_info *cfs_osdmap_pool_at(const cfs_osdmap *m, int i)
{
	int before = 0; /* pools with a lower id than the data pool's (an
			 * imported cluster's data pool need not be first) */

	while (before < m->nxpools && m->xpools[before].info.id < m->pool.id)
		before++;
	if (i < 0 || i > m->nxpools)
		return NULL;
	if (i < before)
		return &m->xpools[i].info;
	return i == before ? &m->pool : &m->xpools[i - 1].info;
}

const struct cfs_pool_info *cfs_osdmap_pool_by_name(const cfs_osdmap *m,
						    const char *name)
{
	for (int i = 0; i < cfs_osdmap_npools(m); i++)
		if (!strcmp(cfs_osdmap_pool_at(m, i)->name, name))
			return cfs_osdmap_pool_at(m, i);
	return NULL;
}

const struct cfs_pool_info *cfs_osdmap_pool_by_id(const cfs_osdmap *m,
						  int64_t id)
{
	for (int i = 0; i < cfs_osdmap_npools(m); i++)
		if (cfs_osdmap_pool_at(m, i)->id == id)
			return cfs_osdmap_pool_at(m, i);
	return NULL;
}

int cfs_fs_is_data_pool(const cfs_osdmap *m, int64_t pool)
{
	const struct cfs_pool_info *p = cfs_osdmap_pool_by_id(m, pool);

	return p && (p->id == m->pool.id || p->fs_data);
}

int cfs_pool_pgid_parse(const cfs_osdmap *m, const char *s, int64_t *pool,
			uint32_t *ps)
{
	const struct cfs_pool_info *p;
	char *end;
	long long id;
	unsigned long v;

	if (!(*s >= '0' && *s <= '9'))
		return -EINVAL;
	id = strtoll(s, &end, 10);
	if (*end != '.' || !end[1] || end[1] == '-' || end[1] == '+' ||
	    end[1] == ' ')
		return -EINVAL;
	s = end + 1;
	v = strtoul(s, &end, 16);
	if (*end)
		return -EINVAL;
	p = cfs_osdmap_pool_by_id(m, id);
	if (!p || v >= p->pg_num)
		return -ENOENT;
	*pool = id;
	*ps = (uint32_t)v;
	return 0;
}

int cfs_pool_object_to_pg(const cfs_osdmap *m, int64_t pool,
			  const char *name, uint32_t *raw, uint32_t *ps)
{
	const struct cfs_pool_info *p = cfs_osdmap_pool_by_id(m, pool);
	uint32_t h = pl_object_ps(name, strlen(name));

	if (!p)
		return -ENOENT;
	if (raw)
		*raw = h;
	if (ps)
		*ps = pl_pg_seed(h, p->pg_num);
	return 0;
}

const struct cfs_pg_mapping *cfs_osdmap_pool_pg(const cfs_osdmap *m,
					       int64_t pool, uint32_t ps)
{
	if (pool == m->pool.id)
		return cfs_osdmap_pg(m, ps);
	for (int i = 0; i < m->nxpools; i++)
		if (m->xpools[i].info.id == pool)
			return ps < m->xpools[i].info.pg_num &&
					       m->xpools[i].pgs ?
				       &m->xpools[i].pgs[ps] :
				       NULL;
	return NULL;
}

/* ---- checks ---- */

/* OSDMonitor::check_pg_num: every pool's PG copies after the change
 * against mon_max_pg_per_osd times the in OSDs (at least 3).  pool: the
 * pool changing (-1: a new one). */
static int check_pg_num(const struct cfs_osdmap *m, int64_t pool,
			uint32_t pg_num, int size, uint32_t per_osd, char *why,
			size_t whylen)
{
	uint64_t projected = (uint64_t)pg_num * (uint64_t)size, max;
	unsigned in = 0;

	for (int i = 0; i < cfs_osdmap_npools(m); i++) {
		const struct cfs_pool_info *p = cfs_osdmap_pool_at(m, i);

		if (p->id != pool)
			projected += (uint64_t)p->pg_num * (uint64_t)p->size;
	}
	for (int o = 0; o < m->max_osd; o++)
		in += m->osds[o].exists && m->osds[o].reweight;
	if (in < 3)
		in = 3;
	max = (uint64_t)per_osd * in;
	if (projected > max) {
		int n = 0;

		if (pool >= 0)
			n = snprintf(why, whylen, "pool id %lld",
				     (long long)pool);
		if (n >= 0 && (size_t)n < whylen)
			snprintf(why + n, whylen - (size_t)n,
				 " pg_num %u size %d would mean %llu total "
				 "pgs, which exceeds max %llu "
				 "(mon_max_pg_per_osd %d * num_in_osds %u)",
				 pg_num, size, (unsigned long long)projected,
				 (unsigned long long)max, (int)per_osd, in);
		return -ERANGE;
	}
	return 0;
}

/* CrushWrapper::check_crush_rule for a pool of this type and size. */
int pool_rule_ok(const pl_map *cm, int rule, int erasure, int size,
		 char *why, size_t whylen)
{
	int want = erasure ? PL_RULE_TYPE_ERASURE : PL_RULE_TYPE_REPLICATED;

	if (!pl_map_rule_exists(cm, rule)) {
		snprintf(why, whylen, "crush rule %d does not exist", rule);
		return -ENOENT;
	}
	if (pl_map_rule_type(cm, rule) != want) {
		snprintf(why, whylen, "crush rule %d (%s) is not %s rule",
			 rule, pl_map_rule_name(cm, rule) ?
			 pl_map_rule_name(cm, rule) : "?",
			 erasure ? "an erasure" : "a replicated");
		return -EINVAL;
	}
	if (size < pl_map_rule_min_size(cm, rule) ||
	    size > pl_map_rule_max_size(cm, rule)) {
		snprintf(why, whylen, "crush rule %d (%s) does not accept "
			 "size %d (min_size %d, max_size %d)", rule,
			 pl_map_rule_name(cm, rule) ?
			 pl_map_rule_name(cm, rule) : "?", size,
			 pl_map_rule_min_size(cm, rule),
			 pl_map_rule_max_size(cm, rule));
		return -EINVAL;
	}
	return 0;
}

int xpool_check_create(const struct cfs_osdmap *m,
		       const struct cfs_pool_info *p, uint32_t per_osd,
		       char *why, size_t whylen)
{
	int r;

	if (cfs_osdmap_pool_by_name(m, p->name))
		return -EEXIST;
	if (p->pg_num == 0 || p->pg_num > 65536) {
		snprintf(why, whylen, "'pg_num' must be greater than 0 and "
			 "less than or equal to 65536 (you may adjust "
			 "'mon max pool pg num' for higher values)");
		return -ERANGE;
	}
	if (p->pgp_num == 0 || p->pgp_num > p->pg_num) {
		snprintf(why, whylen, "'pgp_num' must be greater than 0 and "
			 "lower or equal than 'pg_num', which in this case is "
			 "%u", p->pg_num);
		return -ERANGE;
	}
	if (p->size < 1 || p->size > CFS_MAX_REP) {
		snprintf(why, whylen, "pool size %d is out of range (1..%d)",
			 p->size, CFS_MAX_REP);
		return -EINVAL;
	}
	r = pool_rule_ok(m->crush, p->crush_rule, p->erasure, p->size, why,
			 whylen);
	if (!r)
		r = check_pg_num(m, -1, p->pg_num, p->size, per_osd, why,
				 whylen);
	return r;
}

/*
 * `osd pool set` on any pool, checked as OSDMonitor::prepare_command_pool_set
 * checks it: pgp_num_target 1..pg_num_target, pgp_num 1..pg_num (placement
 * only), size 1..10 on a rule that
 * takes it (never for an erasure pool), min_size 1..size (reset to Ceph's
 * default size - size/2 when the size changes alone), a crush rule of the
 * pool's type that takes its size, the quotas.  pg_num only when
 * pg_num_ok (the data pool's goes through cfs_pool_set_pg_num: its files
 * move), with check_pg_num.  *out gets the pool as it will be.
 */
int pool_check_change(const struct cfs_osdmap *m,
		      const struct cfs_pool_info *cur,
		      const struct cfs_pool_info *want, int pg_num_ok,
		      uint32_t per_osd, struct cfs_pool_info *out, char *why,
		      size_t whylen)
{
	struct cfs_pool_info p = *cur;
	int r;

	if (want->id != p.id || strcmp(want->name, p.name) ||
	    want->erasure != p.erasure ||
	    want->object_size != p.object_size ||
	    want->stripe_unit != p.stripe_unit ||
	    want->stripe_count != p.stripe_count) {
		snprintf(why, whylen, "only size, min_size, pg_num, pgp_num, "
			 "crush_rule, the quotas and the applications can "
			 "change");
		return -EINVAL;
	}
	if (want->pg_num != p.pg_num) {
		if (!pg_num_ok) {
			snprintf(why, whylen, "pg_num changes go through "
				 "cfs_pool_set_pg_num (files move)");
			return -EINVAL;
		}
		if (want->pg_num == 0 || want->pg_num > 65536) {
			snprintf(why, whylen, "'pg_num' must be greater than 0 "
				 "and less than or equal to 65536");
			return -ERANGE;
		}
		r = check_pg_num(m, p.id, want->pg_num, p.size, per_osd, why,
				 whylen);
		if (r)
			return r;
		p.pg_num = want->pg_num;
		if (p.pgp_num > p.pg_num) /* a merge takes pgp_num down */
			p.pgp_num = p.pg_num;
		/* nothing to move: done at once, targets and all (pgp_num's
		 * following pg_num's as the monitor has it) */
		if (want->pgp_num_target == cur->pgp_num_target &&
		    cur->pg_num_target == cur->pgp_num_target)
			p.pgp_num_target = p.pg_num;
		p.pg_num_target = p.pg_num;
	}
	if (want->pgp_num_target != cur->pgp_num_target) {
		/* OSDMonitor's `pgp_num` (Nautilus on): the target, at most
		 * pg_num_target; rebalance steps pgp_num to it */
		if (want->pgp_num_target == 0 ||
		    want->pgp_num_target > (uint32_t)INT32_MAX) {
			snprintf(why, whylen, "specified pgp_num must > 0, but "
				 "you set to %d", (int)want->pgp_num_target);
			return -EINVAL;
		}
		if (want->pgp_num_target > p.pg_num_target) {
			snprintf(why, whylen, "specified pgp_num %u > pg_num %u",
				 want->pgp_num_target, p.pg_num_target);
			return -EINVAL;
		}
		p.pgp_num_target = want->pgp_num_target;
	}
	if (want->pgp_num != cur->pgp_num) {
		/* OSDMonitor's `pgp_num_actual`: placement at once, at most
		 * pg_num */
		if (want->pgp_num == 0 || want->pgp_num > (uint32_t)INT32_MAX) {
			snprintf(why, whylen, "specified pgp_num must > 0, but "
				 "you set to %d", (int)want->pgp_num);
			return -EINVAL;
		}
		if (want->pgp_num > p.pg_num) {
			snprintf(why, whylen, "specified pgp_num %u > pg_num %u",
				 want->pgp_num, p.pg_num);
			return -EINVAL;
		}
		p.pgp_num = want->pgp_num;
	}
	if (want->size != p.size) {
		if (p.erasure) {
			snprintf(why, whylen, "can not change the size of an "
				 "erasure-coded pool");
			return -ENOTSUP;
		}
		/* Ceph: 1..10; a size of 1 needs mon_allow_pool_size_one */
		if (want->size <= 0 || want->size > 10 ||
		    want->size > CFS_MAX_REP) {
			snprintf(why, whylen,
				 "pool size must be between 1 and 10");
			return -EINVAL;
		}
		r = pool_rule_ok(m->crush, p.crush_rule, 0, want->size, why,
				 whylen);
		if (!r && want->size > p.size)
			r = check_pg_num(m, p.id, p.pg_num, want->size,
					 per_osd, why, whylen);
		if (r)
			return r;
		p.size = want->size;
		/* the monitor resets min_size to the default for the new
		 * size (osd_pool_default_min_size 0: size - size/2) */
		if (want->min_size == cur->min_size)
			p.min_size = p.size - p.size / 2;
	}
	if (want->min_size != cur->min_size) {
		if (want->min_size < 1 || want->min_size > p.size) {
			snprintf(why, whylen, "pool min_size must be between 1 "
				 "and size, which is set to %d", p.size);
			return -EINVAL;
		}
		p.min_size = want->min_size;
	}
	if (want->crush_rule != p.crush_rule) {
		r = pool_rule_ok(m->crush, want->crush_rule, p.erasure, p.size,
				 why, whylen);
		if (r)
			return r;
		p.crush_rule = want->crush_rule;
	}
	if (want->ec_overwrites != p.ec_overwrites) {
		/* OSDMonitor's allow_ec_overwrites checks (16.2) */
		if (!p.erasure) {
			snprintf(why, whylen, "ec overwrites can only be "
				 "enabled for an erasure coded pool");
			return -EINVAL;
		}
		if (!want->ec_overwrites) {
			snprintf(why, whylen, "ec overwrites cannot be "
				 "disabled once enabled");
			return -EINVAL;
		}
		p.ec_overwrites = 1;
	}
	p.quota_max_bytes = want->quota_max_bytes;
	p.quota_max_objects = want->quota_max_objects;
	if (strcmp(want->apps, p.apps)) {
		r = cfs_pool_apps_check(want->apps, why, whylen);
		if (r)
			return r;
		snprintf(p.apps, sizeof(p.apps), "%s", want->apps);
	}
	*out = p;
	return 0;
}

struct cfs_xpool *xpool_find(struct cfs_osdmap *m, int64_t id)
{
	for (int i = 0; i < m->nxpools; i++)
		if (m->xpools[i].info.id == id)
			return &m->xpools[i];
	return NULL;
}

int xpool_add(struct cfs_osdmap *m, const struct cfs_pool_info *p,
	      int64_t *id)
{
	struct cfs_xpool *n = realloc(m->xpools,
				      sizeof(*n) * (size_t)(m->nxpools + 1));

	if (!n)
		return -ENOMEM;
	m->xpools = n;
	memset(&n[m->nxpools], 0, sizeof(*n));
	n[m->nxpools].info = *p;
	/* what cluster.json keeps of a pool, no more: the file layout
	 * fields are the data pool's, a new pool is no data pool yet */
	n[m->nxpools].info.object_size = 0;
	n[m->nxpools].info.stripe_unit = 0;
	n[m->nxpools].info.stripe_count = 0;
	n[m->nxpools].info.fs_data = 0;
	n[m->nxpools].info.ec_overwrites = 0;
	/* Ceph's `osd pool create` enables no application */
	n[m->nxpools].info.apps[0] = 0;
	/* nothing under way in a new pool */
	n[m->nxpools].info.pg_num_target = p->pg_num;
	n[m->nxpools].info.pgp_num_target = p->pgp_num;
	n[m->nxpools].info.id = ++m->pool_max;
	*id = m->pool_max;
	m->nxpools++;
	return 0;
}

void xpool_remove(struct cfs_osdmap *m, int64_t id)
{
	for (int i = 0; i < m->nxpools; i++) {
		if (m->xpools[i].info.id != id)
			continue;
		xpool_free(&m->xpools[i]);
		memmove(&m->xpools[i], &m->xpools[i + 1],
			sizeof(*m->xpools) * (size_t)(m->nxpools - i - 1));
		m->nxpools--;
		return;
	}
}
