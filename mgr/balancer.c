/*
 * balancer.c - the automatic balancer of Ceph 16.2's mgr module
 * (src/pybind/mgr/balancer/module.py): every sleep_interval seconds while
 * active, it looks at the PG states (optimize(): nothing while objects
 * are degraded, PGs inactive, or the misplaced ratio at or over
 * target_max_misplaced_ratio), then in upmap mode runs calc_pg_upmaps
 * over the pools (do_upmap: upmap_max_optimizations changes in all,
 * upmap_max_deviation) and applies the plan, one osdmap epoch per PG as
 * the module's commands make them.  Data follows on `rebalance`.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mgr_balancer.h"
#include "objlayer.h"
#include "osdmap.h"
#include "placement.h"
#include "upmap.h"

/* the module's strings (16.2) */
#define SUCCESS "Optimization plan created successfully"
#define NOTHING                                                               \
	"Unable to find further optimization, or pool(s) pg_num is "          \
	"decreasing, or distribution is already perfect"

static int64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static unsigned opt_uint(cfs_cluster *c, const char *name)
{
	char v[32];

	return cfs_config_get(c, name, v, sizeof(v)) ? 0
			: (unsigned)strtoul(v, NULL, 10);
}

/* PGMap's pg_status ratios over every pool (as adjust.c counts them) */
static int pg_status(objlayer *ol, const cfs_osdmap *m, double *degraded,
		     double *inactive, double *misplaced)
{
	uint64_t copies = 0, mis = 0, deg = 0;
	uint32_t pgs = 0, inact = 0;

	for (int i = 0; i < cfs_osdmap_npools(m); i++) {
		const struct cfs_pool_info *q = cfs_osdmap_pool_at(m, i);
		struct ol_pg_stat *st = calloc(q->pg_num, sizeof(*st));
		int r;

		if (!st)
			return -ENOMEM;
		r = ol_pool_pg_stats(ol, m, q->id, st);
		for (uint32_t ps = 0; !r && ps < q->pg_num; ps++) {
			copies += st[ps].objects * (uint64_t)q->size;
			mis += st[ps].misplaced;
			deg += st[ps].degraded;
			pgs++;
			inact += !(st[ps].state & OL_PGS_ACTIVE);
		}
		free(st);
		if (r)
			return r;
	}
	*degraded = copies ? (double)deg / (double)copies : 0;
	*misplaced = copies ? (double)mis / (double)copies : 0;
	*inactive = pgs ? (double)inact / pgs : 0;
	return 0;
}

/* do_upmap: pool after pool (the module shuffles them; data pool first
 * here), the budget shared; the plan's changes applied */
static int do_upmap(cfs_cluster *c, int max, int deviation)
{
	const cfs_osdmap *m = cfs_osdmap_get(c);
	int npools = cfs_osdmap_npools(m), total = 0, r = 0;
	int64_t *ids = calloc((size_t)npools + 1, sizeof(*ids));

	for (int i = 0; ids && i < npools; i++)
		ids[i] = cfs_osdmap_pool_at(m, i)->id;
	cfs_osdmap_put(m);
	if (!ids)
		return -ENOMEM;
	for (int i = 0; i < npools && total < max && !r; i++) {
		struct pl_balance_opts o = { max - total, deviation, 1, 100, 0,
					     64, 0 };
		struct pl_balance_stats st = { 0 };
		struct pl_balance_pg *pgs = NULL;
		const struct cfs_pool_info *p;
		uint32_t pg_num;
		int n;

		m = cfs_osdmap_get(c);
		p = cfs_osdmap_pool_by_id(m, ids[i]);
		/* "pool(s) pg_num is decreasing": not balanced meanwhile */
		if (!p || p->pg_num_target < p->pg_num) {
			cfs_osdmap_put(m);
			continue;
		}
		pg_num = p->pg_num;
		n = cfs_osdmap_balance(m, ids[i], &o, &pgs, &st);
		cfs_osdmap_put(m);
		if (n < 0) {
			r = n == -ENOENT ? 0 : n;
			continue;
		}
		for (uint32_t ps = 0; ps < pg_num && !r; ps++) {
			char why[256];
			int e;

			if (!pgs[ps].changed)
				continue;
			e = cfs_osd_pg_upmap_items(c, ids[i], ps,
						   &pgs[ps].items[0][0],
						   pgs[ps].nitems, why,
						   sizeof(why));
			if (e && e != -ENODATA)
				r = e;
		}
		free(pgs);
		total += n;
	}
	free(ids);
	return r ? r : total;
}

int mgr_balancer_run(cfs_cluster *c, objlayer *ol)
{
	struct cfs_balancer_status s;
	double degraded = 0, inactive = 0, misplaced = 0, max_misplaced;
	char mode[32] = "upmap";
	struct timespec t0, t1;
	time_t now = time(NULL);
	struct tm tm;
	int r = 0;

	cfs_balancer_status_get(c, &s);
	s.last_run_ms = mono_ms();
	/* time.asctime(time.localtime()) */
	localtime_r(&now, &tm);
	strftime(s.last_optimize_started, sizeof(s.last_optimize_started),
		 "%a %b %e %H:%M:%S %Y", &tm);
	snprintf(s.optimize_result, sizeof(s.optimize_result), "in progress");
	cfs_balancer_status_set(c, &s);
	clock_gettime(CLOCK_MONOTONIC, &t0);

	cfs_config_get(c, "mgr/balancer/mode", mode, sizeof(mode));
	max_misplaced = cfs_config_double(c, "target_max_misplaced_ratio");
	{
		const cfs_osdmap *m = cfs_osdmap_get(c);

		r = pg_status(ol, m, &degraded, &inactive, &misplaced);
		cfs_osdmap_put(m);
	}
	if (r) {
		snprintf(s.optimize_result, sizeof(s.optimize_result),
			 "Cannot read the PG states: %s", strerror(-r));
	} else if (degraded > 0) {
		snprintf(s.optimize_result, sizeof(s.optimize_result),
			 "Some objects (%f) are degraded; try again later",
			 degraded);
		r = -EAGAIN;
	} else if (inactive > 0) {
		snprintf(s.optimize_result, sizeof(s.optimize_result),
			 "Some PGs (%f) are inactive; try again later",
			 inactive);
		r = -EAGAIN;
	} else if (misplaced >= max_misplaced) {
		snprintf(s.optimize_result, sizeof(s.optimize_result),
			 "Too many objects (%f > %f) are misplaced; try again "
			 "later", misplaced, max_misplaced);
		r = -EAGAIN;
	} else if (!strcmp(mode, "none")) {
		snprintf(s.optimize_result, sizeof(s.optimize_result),
			 "Please do \"ceph balancer mode\" to choose a valid "
			 "mode first");
		r = -ENOEXEC;
	} else if (strcmp(mode, "upmap")) {
		snprintf(s.optimize_result, sizeof(s.optimize_result),
			 "%s mode is not implemented in crushfs (use upmap)",
			 mode);
		r = -EOPNOTSUPP;
	} else {
		r = do_upmap(c,
			     (int)opt_uint(c, "mgr/balancer/upmap_max_optimizations"),
			     (int)opt_uint(c, "mgr/balancer/upmap_max_deviation"));
		s.no_optimization_needed = r == 0;
		snprintf(s.optimize_result, sizeof(s.optimize_result), "%s",
			 r > 0 ? SUCCESS : r == 0 ? NOTHING : strerror(-r));
		if (r == 0)
			r = -EALREADY;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	{
		/* str(datetime.timedelta(seconds=...)) */
		long us = (long)((t1.tv_sec - t0.tv_sec) * 1000000L +
				 (t1.tv_nsec - t0.tv_nsec) / 1000);

		snprintf(s.last_optimize_duration,
			 sizeof(s.last_optimize_duration),
			 "%ld:%02ld:%02ld.%06ld", us / 3600000000L,
			 us / 60000000L % 60, us / 1000000L % 60,
			 us % 1000000L);
	}
	cfs_balancer_status_set(c, &s);
	return r;
}

int mgr_balancer_tick(cfs_cluster *c, objlayer *ol, int64_t now_ms)
{
	struct cfs_balancer_status s;
	char v[32];
	int64_t sleep_ms;
	int r;

	if (cfs_config_get(c, "mgr/balancer/active", v, sizeof(v)) ||
	    strcmp(v, "true"))
		return 0;
	sleep_ms = (int64_t)opt_uint(c, "mgr/balancer/sleep_interval") * 1000;
	cfs_balancer_status_get(c, &s);
	if (s.last_run_ms && now_ms - s.last_run_ms < sleep_ms)
		return 0;
	r = mgr_balancer_run(c, ol);
	return r > 0 ? r : r == -ENOMEM ? r : 0;
}
