/*
 * json.c - the JSON of `status` and `health` as Ceph 16.2 dumps them
 * (Monitor::get_cluster_status, HealthMonitor / health_check_t::dump),
 * for the CLI's -f json and the daemon's dashboard alike.
 */
#include <jansson.h>

#include "mgr.h"

/* Ceph 16.2 (Monitor::get_health_status, health_check_t::dump): each
 * check has severity, summary {message, count}, detail and muted; the
 * health has the list of mutes (none here). */
/* Ceph 16.2 health_mute_t::dump: code, ttl (utime_t, UTC), sticky,
 * summary, count */
static json_t *mutes_json(const struct cfs_health *h)
{
	json_t *a = json_array();

	for (int i = 0; a && i < h->nmutes; i++) {
		const struct cfs_health_mute *m = &h->mutes[i];
		json_t *o = json_pack("{s:s}", "code", m->code);

		if (m->ttl) {
			/* utime_t's stream form, UTC */
			time_t t = (time_t)m->ttl;
			struct tm tm;
			char b[64];

			gmtime_r(&t, &tm);
			strftime(b, sizeof(b), "%Y-%m-%dT%H:%M:%S.000000+0000",
				 &tm);
			json_object_set_new(o, "ttl", json_string(b));
		}
		json_object_set_new(o, "sticky", json_boolean(m->sticky));
		json_object_set_new(o, "summary", json_string(m->summary));
		json_object_set_new(o, "count", json_integer(m->count));
		json_array_append_new(a, o);
	}
	return a;
}

json_t *mgr_health_json(const struct cfs_health *h)
{
	json_t *checks = json_object();

	for (int i = 0; i < h->nchecks; i++) {
		const struct cfs_health_check *c = &h->checks[i];
		json_t *d = json_array();

		for (int k = 0; k < c->ndetail; k++)
			json_array_append_new(
				d, json_pack("{s:s}", "message", c->detail[k]));
		json_object_set_new(
			checks, c->code,
			json_pack("{s:s, s:{s:s, s:I}, s:o, s:b}", "severity",
				  cfs_health_status_name(c->severity),
				  "summary", "message", c->summary, "count",
				  (json_int_t)c->count, "detail", d, "muted",
				  c->muted));
	}
	return json_pack("{s:s, s:o, s:o}", "status",
			 cfs_health_status_name(h->status), "checks", checks,
			 "mutes", mutes_json(h));
}

json_t *mgr_status_json(const struct mgr_snap *s,
			const struct mgr_pg_state *sc, int nst,
			const struct ol_rebalance_progress *rp, double rsec)
{
	const cfs_osdmap *m = s->m;
	const struct cfs_health *h = &s->h;
	json_t *states = json_array(), *st, *pe = json_object();
	double copies = s->t.copies ? (double)s->t.copies : 1;

	for (int i = 0; i < nst; i++)
		json_array_append_new(states,
				      json_pack("{s:s, s:i}", "state_name",
						sc[i].name, "count",
						sc[i].count));
	/* Monitor::get_cluster_status's JSON: osdmap (OSDMap::print_summary)
	 * and pgmap (PGMapDigest::print_summary), plus crushfs's
	 * full_policy */
	st = json_pack(
		"{s:s, s:o, s:{s:i, s:i, s:i, s:I, s:i, s:I, s:i}, s:{s:o, s:i, s:i, "
		"s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:f, s:I, s:I, s:f, s:I, "
		"s:I, s:f}, s:s}",
		"fsid", cfs_osdmap_fsid(m), "health", mgr_health_json(h),
		"osdmap", "epoch", (int)cfs_osdmap_epoch(m), "num_osds",
		h->num_osds, "num_up_osds", h->num_up, "osd_up_since",
		(json_int_t)cfs_osdmap_last_up_change(m), "num_in_osds",
		h->num_in, "osd_in_since",
		(json_int_t)cfs_osdmap_last_in_change(m), "num_remapped_pgs",
		s->ntemp, "pgmap",
		"pgs_by_state", states, "num_pgs", (int)s->npg, "num_pools",
		cfs_osdmap_npools(m), "num_objects",
		(json_int_t)s->t.objects, "data_bytes", (json_int_t)s->bytes,
		"bytes_used", (json_int_t)h->used, "bytes_avail",
		(json_int_t)h->raw_avail, "bytes_total", (json_int_t)h->total,
		"degraded_objects", (json_int_t)s->t.degraded,
		"degraded_total", (json_int_t)s->t.copies, "degraded_ratio",
		(double)s->t.degraded / copies, "misplaced_objects",
		(json_int_t)s->t.misplaced, "misplaced_total",
		(json_int_t)s->t.copies, "misplaced_ratio",
		(double)s->t.misplaced / copies, "unfound_objects",
		(json_int_t)s->t.unfound, "unfound_total",
		(json_int_t)s->t.objects, "unfound_ratio",
		(double)s->t.unfound /
			(s->t.objects ? (double)s->t.objects : 1),
		"full_policy",
		cfs_full_policy_name(cfs_osdmap_full_policy(m)));
	if (st && rp) {
		json_t *pgmap = json_object_get(st, "pgmap");
		double secs = rsec > 0 ? rsec : 1;

		json_object_set_new(
			pgmap, "recovering_objects_per_sec",
			json_integer((json_int_t)(rp->objects_done / secs)));
		json_object_set_new(
			pgmap, "recovering_bytes_per_sec",
			json_integer((json_int_t)(rp->bytes_done / secs)));
		json_object_set_new(
			pe, "rebalance",
			json_pack("{s:s, s:f}", "message", "Rebalance",
				  "progress",
				  rp->objects_todo ?
					  (double)rp->objects_done /
						  (double)rp->objects_todo :
					  0.0));
	}
	if (st)
		json_object_set_new(st, "progress_events", pe);
	else
		json_decref(pe);
	return st;
}
