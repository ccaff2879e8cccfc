/*
 * tick.c - the mounted daemon's mgr tick (mgr_events.h): every couple of
 * seconds a health snapshot is compared with the last one and what changed
 * goes to the cluster log in the words of Ceph 16.2's
 * HealthMonitor::check_member_health / log_health ("Health check failed:
 * 1 osds down (OSD_DOWN)", "Health check update: ...", "Health check
 * cleared: OSD_DOWN (was: 1 osds down)", "Cluster is now healthy"), and
 * the PG state counts, when they change, as the mgr's "pgmap vN: ..." DBG
 * line (PGMap::print_summary).  A backfill thus shows as a run of
 * PG_DEGRADED updates with falling counts, as `ceph -w` shows it.  The
 * fill history is sampled on the same thread (history.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clog.h"
#include "cluster.h"
#include "mgr.h"
#include "mgr_events.h"
#include "objlayer.h"
#include "osdmap.h"
#include "usage.h"
#include "util.h"

#define TICK_MS 2000
/* A round costs at most 1/TICK_DUTY of the time between rounds (below) */
#define TICK_DUTY 20

struct seen_check {
	char code[40];
	char summary[256];
	int severity;
};

struct mgr_tick {
	cfs_cluster *c;
	objlayer *ol;
	int started; /* a first snapshot was taken */
	struct seen_check checks[CFS_HEALTH_MAX_CHECKS];
	int nchecks;
	int status;
	char pgmap[512];
	uint64_t pgmap_v;
	double next_sample; /* CLOCK_MONOTONIC seconds */
	int recovering;	    /* a rebalance was seen running */
	int recovery_tenth; /* the last tenth of it logged */
	struct mgr_history *hist;
};

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int mgr_tick_create(cfs_cluster *c, objlayer *ol, struct mgr_tick **out)
{
	struct mgr_tick *t = calloc(1, sizeof(*t));
	int r;

	if (!t)
		return -ENOMEM;
	t->c = c;
	t->ol = ol;
	r = mgr_history_open(cfs_cluster_dir(c), &t->hist);
	if (r) {
		free(t);
		return r;
	}
	*out = t;
	return 0;
}

void mgr_tick_destroy(struct mgr_tick *t)
{
	if (!t)
		return;
	mgr_history_close(t->hist);
	free(t);
}

static const struct seen_check *seen(const struct mgr_tick *t,
				     const char *code)
{
	for (int i = 0; i < t->nchecks; i++)
		if (!strcmp(t->checks[i].code, code))
			return &t->checks[i];
	return NULL;
}

static int clog_level(int severity)
{
	return severity == CFS_HEALTH_ERR ? CFS_CLOG_ERROR : CFS_CLOG_WARN;
}

/* HealthMonitor's lines for the difference from the last snapshot */
static void log_health(struct mgr_tick *t, const struct cfs_health *h)
{
	struct seen_check now[CFS_HEALTH_MAX_CHECKS];
	int n = 0;

	for (int i = 0; i < h->nchecks && n < CFS_HEALTH_MAX_CHECKS; i++) {
		const struct cfs_health_check *k = &h->checks[i];
		const struct seen_check *o = seen(t, k->code);

		if (k->muted)
			continue;
		if (!o)
			cfs_clog(t->c, clog_level(k->severity), "cluster",
				 "mon.a", "Health check failed: %s (%s)",
				 k->summary, k->code);
		else if (strcmp(o->summary, k->summary) ||
			 o->severity != k->severity)
			cfs_clog(t->c, clog_level(k->severity), "cluster",
				 "mon.a", "Health check update: %s (%s)",
				 k->summary, k->code);
		snprintf(now[n].code, sizeof(now[n].code), "%s", k->code);
		snprintf(now[n].summary, sizeof(now[n].summary), "%s",
			 k->summary);
		now[n].severity = k->severity;
		n++;
	}
	for (int i = 0; i < t->nchecks; i++) {
		int still = 0;

		for (int j = 0; j < n && !still; j++)
			still = !strcmp(now[j].code, t->checks[i].code);
		if (!still)
			cfs_clog(t->c, CFS_CLOG_INFO, "cluster", "mon.a",
				 "Health check cleared: %s (was: %s)",
				 t->checks[i].code, t->checks[i].summary);
	}
	if (t->nchecks && !n)
		cfs_clog(t->c, CFS_CLOG_INFO, "cluster", "mon.a",
			 "Cluster is now healthy");
	memcpy(t->checks, now, sizeof(now[0]) * (size_t)n);
	t->nchecks = n;
}

/* one health round: 0 or -errno.  The snapshot is mgr's own (snap.c), the
 * one `status` takes, so the log says what `status` would. */
static int health_round(struct mgr_tick *t)
{
	struct mgr_snap snap;
	struct mgr_pg_state *sc = NULL;
	char summary[512], a[32], b[32], cc[32];
	size_t at = 0;
	uint32_t n;
	int r, nst;

	r = mgr_snap_take(t->c, t->ol, MGR_SNAP_PGS | MGR_SNAP_PG_HEALTH,
			  &snap);
	if (r)
		return r;
	nst = mgr_pg_states(&snap, &sc);
	if (nst < 0) {
		mgr_snap_free(&snap);
		return nst;
	}
	/* the most common state first, as PGMap::print_summary sorts */
	summary[0] = 0;
	for (int i = 0; i < nst && at < sizeof(summary); i++)
		at += (size_t)snprintf(summary + at, sizeof(summary) - at,
				       "%s%d %s", i ? ", " : "", sc[i].count,
				       sc[i].name);
	free(sc);
	n = snap.npg;
	if (t->started) {
		log_health(t, &snap.h);
	} else {
		/* the state at mount is where the log picks up, not news */
		t->started = 1;
		t->nchecks = 0;
		for (int i = 0; i < snap.h.nchecks && i < CFS_HEALTH_MAX_CHECKS;
		     i++) {
			if (snap.h.checks[i].muted)
				continue;
			snprintf(t->checks[t->nchecks].code,
				 sizeof(t->checks[0].code), "%s",
				 snap.h.checks[i].code);
			snprintf(t->checks[t->nchecks].summary,
				 sizeof(t->checks[0].summary), "%s",
				 snap.h.checks[i].summary);
			t->checks[t->nchecks++].severity =
				snap.h.checks[i].severity;
		}
	}
	if (strcmp(summary, t->pgmap)) {
		snprintf(t->pgmap, sizeof(t->pgmap), "%s", summary);
		cfs_clog(t->c, CFS_CLOG_DEBUG, "cluster", "mgr.x",
			 "pgmap v%llu: %u pgs: %s; %s used, %s / %s avail",
			 (unsigned long long)++t->pgmap_v, n, summary,
			 cfs_format_size(snap.h.used, a, sizeof(a)),
			 cfs_format_size(snap.h.raw_avail, b, sizeof(b)),
			 cfs_format_size(snap.h.total, cc, sizeof(cc)));
	}
	if (mono() >= t->next_sample) {
		uint32_t every = mgr_history_interval(t->c);

		if (every)
			mgr_history_sample(t->hist, t->c, snap.m, &snap.h);
		t->next_sample = mono() + (every ? every : 5);
	}
	mgr_snap_free(&snap);
	return 0;
}

/*
 * A rebalance running in this daemon, as the mgr's progress module shows
 * it ("Global Recovery Event", `ceph progress`): when it is first seen, at
 * each tenth done, and when it is gone.
 */
static void recovery_round(struct mgr_tick *t)
{
	struct ol_rebalance_progress p;
	double secs;
	char a[32];

	if (!ol_recovery_progress(t->ol, &p, &secs)) {
		if (t->recovering)
			cfs_clog(t->c, CFS_CLOG_INFO, "cluster", "mgr.x",
				 "Global Recovery Event: completed");
		t->recovering = 0;
		return;
	}
	if (!t->recovering) {
		t->recovering = 1;
		t->recovery_tenth = -1;
	}
	{
		int tenth = p.objects_todo ? (int)(p.objects_done * 10 /
						   p.objects_todo)
					   : 0;

		if (tenth == t->recovery_tenth)
			return;
		t->recovery_tenth = tenth;
		cfs_clog(t->c, CFS_CLOG_INFO, "cluster", "mgr.x",
			 "Global Recovery Event: %llu/%llu object copies "
			 "(%d%%), %s moved, %u/%u pgs, %.0f s",
			 (unsigned long long)p.objects_done,
			 (unsigned long long)p.objects_todo, tenth * 10,
			 cfs_format_size(p.bytes_done, a, sizeof(a)), p.pg,
			 p.pg_num, secs);
	}
}

int mgr_tick_run(struct mgr_tick *t)
{
	double next, cost = mono();
	int r, ms = TICK_MS;

	recovery_round(t);
	r = health_round(t);
	cost = mono() - cost;

	if (r)
		cfs_log(CFS_LOG_DEBUG, "mgr tick: %s", strerror(-r));
	/* woken for the next health round or the next sample, whichever
	 * is first */
	next = t->next_sample - mono();
	if (next * 1000 < TICK_MS && next > 0)
		ms = (int)(next * 1000) + 1;
	/* Ceph's mgr ticks every 2 s (mgr_tick_period) on PG stats the OSDs
	 * send it (MPGStats); the snapshot here reads them: every object's
	 * index record and the PG's copies (objlayer pgstats.c), 0.45-0.65 s
	 * for 120k objects, a fifth of a core taken from the requests at
	 * one round per 2 s.  The pause grows with the cost instead; a
	 * small cluster's round (milliseconds) keeps the 2 s. */
	if (ms < cost * 1000 * TICK_DUTY)
		ms = (int)(cost * 1000 * TICK_DUTY);
	return ms;
}
