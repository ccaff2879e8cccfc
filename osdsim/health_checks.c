/*
 * health_checks.c - the health checks of a snapshot (health.c), worded as
 * Ceph 16.2 words them: OSDMap::check_health (OSD_DOWN, OSD_FULL,
 * OSD_BACKFILLFULL, OSD_NEARFULL, OSD_OUT_OF_ORDER_FULL, POOL_FULL,
 * OSDMAP_FLAGS) and
 * PGMap::get_health_checks (PG_AVAILABILITY, PG_DEGRADED,
 * OBJECT_MISPLACED, OBJECT_UNFOUND, PG_BACKFILL_FULL).
 *
 * Everything is read from the snapshot (h->osd and the PG states given),
 * never from live usage: a check's summary, count and detail lines are
 * then always about the same OSDs.  Checks are sorted by code, as Ceph's
 * health_check_map_t (a std::map) lists them.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "osdsim_i.h"
#include "placement.h"
#include "util.h"

struct hc {
	struct cfs_health *h;
	int err; /* -ENOMEM once a line could not be kept */
};

static struct cfs_health_check *add(struct hc *x, const char *code, int sev,
				    int64_t count)
{
	struct cfs_health *h = x->h;
	struct cfs_health_check *c;

	if (h->nchecks >= CFS_HEALTH_MAX_CHECKS) {
		x->err = -ENOSPC; /* more codes than the table holds: a bug */
		return NULL;
	}
	c = &h->checks[h->nchecks++];
	memset(c, 0, sizeof(*c));
	c->code = code;
	c->severity = sev;
	c->count = count;
	if (sev > h->status)
		h->status = sev;
	return c;
}

static void summary(struct cfs_health_check *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void summary(struct cfs_health_check *c, const char *fmt, ...)
{
	va_list ap;

	if (!c)
		return;
	va_start(ap, fmt);
	vsnprintf(c->summary, sizeof(c->summary), fmt, ap);
	va_end(ap);
}

static void detail(struct hc *x, struct cfs_health_check *c, const char *fmt,
		   ...) __attribute__((format(printf, 3, 4)));

static void detail(struct hc *x, struct cfs_health_check *c, const char *fmt,
		   ...)
{
	va_list ap;
	char *s = NULL, **nv;

	if (!c)
		return;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (!s) {
		x->err = -ENOMEM;
		return;
	}
	nv = realloc(c->detail, sizeof(*nv) * (size_t)(c->ndetail + 1));
	if (!nv) {
		free(s);
		x->err = -ENOMEM;
		return;
	}
	c->detail = nv;
	c->detail[c->ndetail++] = s;
}

/* "3/36 objects degraded (8.333%)", as ceph status words it. */
static int objects_of(char *buf, size_t len, uint64_t n, uint64_t of,
		      const char *what)
{
	return snprintf(buf, len, "%llu/%llu objects %s (%.3f%%)",
			(unsigned long long)n, (unsigned long long)of, what,
			of ? 100.0 * (double)n / (double)of : 0.0);
}

/* An acting set as a detail line has it: Ceph 16.2's
 * PGMap::get_health_checks writes `", acting " << pg_info.acting` with
 * the plain vector operator<< (include/types.h), so an erasure PG's empty
 * slot is CRUSH_ITEM_NONE's number, 2147483647; only `pg ls`/`pg dump`'s
 * text (pg_vector_string) says NONE. */
static void vec_str(char *buf, size_t len, const int *v, int n)
{
	size_t o = (size_t)snprintf(buf, len, "[");

	for (int i = 0; i < n && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%d", i ? "," : "",
				      v[i]);
	if (o < len)
		snprintf(buf + o, len - o, "]");
}

static void osd_checks(struct hc *x, const cfs_osdmap *m)
{
	const struct cfs_health *h = x->h;
	const pl_map *cm = cfs_osdmap_crush(m);
	int ndown = 0, n[CFS_FULLNESS_FULL + 1] = { 0 };
	struct cfs_health_check *c, *by[CFS_FULLNESS_FULL + 1] = { NULL };

	for (int id = 0; id < h->max_osd; id++) {
		const struct cfs_osd_snap *o = &h->osd[id];

		if (!o->info.exists)
			continue;
		if (!o->info.up)
			ndown++;
		else
			n[o->fullness]++;
	}
	if (ndown) {
		c = add(x, "OSD_DOWN", CFS_HEALTH_WARN, ndown);
		summary(c, "%d osds down", ndown);
		for (int id = 0; id < h->max_osd; id++) {
			const struct cfs_osd_snap *o = &h->osd[id];
			int parent, root = 0;
			const char *rn;

			if (!o->info.exists || o->info.up)
				continue;
			parent = pl_map_parent(cm, id);
			for (int b = parent; b; b = pl_map_parent(cm, b))
				root = b;
			rn = root ? pl_map_item_name(cm, root) : NULL;
			if (parent)
				detail(x, c, "osd.%d (root=%s,host=%s) is down",
				       id, rn ? rn : "?", o->info.host);
			else
				detail(x, c, "osd.%d is down", id);
		}
	}
	if (n[CFS_FULLNESS_FULL]) {
		by[CFS_FULLNESS_FULL] = add(x, "OSD_FULL", CFS_HEALTH_ERR,
					    n[CFS_FULLNESS_FULL]);
		summary(by[CFS_FULLNESS_FULL], "%d full osd(s)",
			n[CFS_FULLNESS_FULL]);
	}
	if (n[CFS_FULLNESS_BACKFILLFULL]) {
		by[CFS_FULLNESS_BACKFILLFULL] =
			add(x, "OSD_BACKFILLFULL", CFS_HEALTH_WARN,
			    n[CFS_FULLNESS_BACKFILLFULL]);
		summary(by[CFS_FULLNESS_BACKFILLFULL],
			"%d backfillfull osd(s)",
			n[CFS_FULLNESS_BACKFILLFULL]);
	}
	if (n[CFS_FULLNESS_NEARFULL]) {
		by[CFS_FULLNESS_NEARFULL] =
			add(x, "OSD_NEARFULL", CFS_HEALTH_WARN,
			    n[CFS_FULLNESS_NEARFULL]);
		summary(by[CFS_FULLNESS_NEARFULL], "%d nearfull osd(s)",
			n[CFS_FULLNESS_NEARFULL]);
	}
	for (int id = 0; id < h->max_osd; id++) {
		static const char *const what[] = {
			[CFS_FULLNESS_NEARFULL] = "near full",
			[CFS_FULLNESS_BACKFILLFULL] = "backfill full",
			[CFS_FULLNESS_FULL] = "full",
		};
		const struct cfs_osd_snap *o = &h->osd[id];

		if (o->info.exists && o->info.up && o->fullness)
			detail(x, by[o->fullness], "osd.%d is %s", id,
			       what[o->fullness]);
	}
}

/* Not one of Ceph's codes: Ceph lets a write land on an OSD below
 * full_ratio; crushfs (policy osd) refuses one that would push it over,
 * and says so, naming the OSD, so that every ENOSPC has a visible cause. */
static void refused_checks(struct hc *x, const cfs_osdmap *m)
{
	const struct cfs_health *h = x->h;
	struct cfs_health_check *c;
	char a[32], b[32], d[32], e[32];

	if (!h->nrefused)
		return;
	c = add(x, "OSD_TOO_FULL_FOR_WRITE", CFS_HEALTH_ERR, h->nrefused);
	summary(c, "%d osd(s) too full for a write", h->nrefused);
	for (int i = 0; i < h->nrefused; i++) {
		const struct cfs_refused *r = &h->refused[i];
		int di = h->osd[r->osd].disk;

		if (r->disk && di >= 0) {
			const struct cfs_disk *d = &h->disks[di];

			detail(x, c, "osd.%d refused a write to pg %lld.%x: "
				     "the writes in flight needed %s on the "
				     "filesystem under it (%s), which has %s "
				     "free and takes writes down to %s free "
				     "(osd_failsafe_full_ratio)",
			       r->osd, (long long)r->pool, r->ps,
			       cfs_format_size(r->bytes, a, sizeof(a)), d->path,
			       cfs_format_size(d->avail, b, sizeof(b)),
			       cfs_format_size(d->margin, e, sizeof(e)));
			continue;
		}
		detail(x, c, "osd.%d refused a write of %s to pg %lld.%x: %s "
			     "used, writes refused past %s (%s)",
		       r->osd, cfs_format_size(r->bytes, a, sizeof(a)),
		       (long long)cfs_osdmap_pool(m)->id, r->ps,
		       cfs_format_size(h->osd[r->osd].used, b, sizeof(b)),
		       cfs_format_size(cfs_osdmap_write_limit(m, r->osd), d,
				       sizeof(d)),
		       cfs_osdmap_full_policy(m) == CFS_FULL_POOL
			       ? "its capacity"
			       : "full_ratio");
	}
}

/* An OSD list for a detail line: "osd.0, osd.1 and 4 more". */
static void osd_list(const struct cfs_disk *d, char *buf, size_t len)
{
	size_t o = 0;
	int shown = d->nosds < 8 ? d->nosds : 8;

	buf[0] = 0;
	for (int i = 0; i < shown && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%sosd.%d",
				      i ? ", " : "", d->osds[i]);
	if (d->nosds > shown && o < len)
		snprintf(buf + o, len - o, " and %d more", d->nosds - shown);
}

/* Not Ceph's codes: Ceph's OSDs each own a device, crushfs's share the
 * filesystems under the cluster folder (disk.c).  OSD_FAILSAFE_FULL: one
 * is at its failsafe margin, and the OSDs on it refuse writes whatever
 * their capacity says (Ceph logs "failsafe engaged" and drops them);
 * OSD_DISK_OVERCOMMITTED: the OSDs on one may still take more than it
 * holds above that margin, so it fills before they do. */
static void disk_checks(struct hc *x)
{
	const struct cfs_health *h = x->h;
	struct cfs_health_check *c = NULL;
	char a[32], b[32], m[32], osds[160];
	int n = 0;

	for (int i = 0; i < h->ndisks; i++)
		n += h->disks[i].failsafe;
	for (int i = 0; n && i < h->ndisks; i++) {
		const struct cfs_disk *d = &h->disks[i];

		if (!d->failsafe)
			continue;
		if (!c) {
			c = add(x, "OSD_FAILSAFE_FULL", CFS_HEALTH_ERR, n);
			summary(c, "%d filesystem(s) under OSDs at the failsafe "
				   "margin: writes refused", n);
		}
		osd_list(d, osds, sizeof(osds));
		detail(x, c, "%s has %s free of %s, writes stop at %s free "
			     "(osd_failsafe_full_ratio); %s refuse writes",
		       d->path, cfs_format_size(d->avail, a, sizeof(a)),
		       cfs_format_size(d->size, b, sizeof(b)),
		       cfs_format_size(d->margin, m, sizeof(m)), osds);
	}
	n = 0;
	c = NULL;
	for (int i = 0; i < h->ndisks; i++)
		n += h->disks[i].overcommitted && !h->disks[i].failsafe;
	for (int i = 0; n && i < h->ndisks; i++) {
		const struct cfs_disk *d = &h->disks[i];
		uint64_t room = d->avail > d->margin ? d->avail - d->margin : 0;

		if (!d->overcommitted || d->failsafe)
			continue;
		if (!c) {
			c = add(x, "OSD_DISK_OVERCOMMITTED", CFS_HEALTH_WARN, n);
			summary(c, "%d filesystem(s) under OSDs hold less than "
				   "their capacities", n);
		}
		osd_list(d, osds, sizeof(osds));
		detail(x, c, "%s: %s may still take %s before they are full, "
			     "the filesystem has %s free above its failsafe "
			     "margin (%s): it fills first",
		       d->path, osds,
		       cfs_format_size(d->promised, a, sizeof(a)),
		       cfs_format_size(room, b, sizeof(b)),
		       cfs_format_size(d->margin, m, sizeof(m)));
	}
}

static void ratio_checks(struct hc *x, const cfs_osdmap *m)
{
	double nr = cfs_osdmap_nearfull_ratio(m);
	double br = cfs_osdmap_backfillfull_ratio(m);
	double fr = cfs_osdmap_full_ratio(m);
	struct cfs_health_check *c;

	if (br >= nr && fr >= br)
		return;
	c = add(x, "OSD_OUT_OF_ORDER_FULL", CFS_HEALTH_ERR,
		(br < nr) + (fr < br));
	summary(c, "full ratio(s) out of order");
	if (br < nr)
		detail(x, c, "backfillfull_ratio (%g) < nearfull_ratio (%g), "
			     "increased",
		       br, nr);
	if (fr < br)
		detail(x, c, "full_ratio (%g) < backfillfull_ratio (%g), "
			     "increased",
		       fr, br);
}

static void pool_checks(struct hc *x, const cfs_osdmap *m)
{
	const struct cfs_pool_info *p = cfs_osdmap_pool(m);
	struct cfs_health_check *c;
	int osdfull = cfs_osdmap_full_policy(m) == CFS_FULL_POOL &&
		      x->h->pool_full;
	char q[32];

	if (!osdfull && !x->h->quota_full)
		return;
	c = add(x, "POOL_FULL", CFS_HEALTH_WARN, 1);
	summary(c, "1 pool(s) full");
	if (osdfull)
		detail(x, c, "pool '%s' is full (osd.%d is full; full policy "
			     "pool)",
		       p->name, x->h->pool_full_osd);
	else if (!strcmp(x->h->quota_full, "max_bytes"))
		/* OSDMap::check_health's wording for a quota */
		detail(x, c, "pool '%s' is full (reached quota's max_bytes: "
			     "%s)",
		       p->name, cfs_format_size(p->quota_max_bytes, q,
						sizeof(q)));
	else
		detail(x, c, "pool '%s' is full (reached quota's max_objects: "
			     "%llu)",
		       p->name, (unsigned long long)p->quota_max_objects);
}

/* One detail line per PG with any of the flags. */
static void pg_lines(struct hc *x, struct cfs_health_check *c,
		     const struct cfs_pg_health *pgs, uint32_t npgs,
		     unsigned flags)
{
	char v[160];

	for (uint32_t i = 0; i < npgs; i++) {
		if (!(pgs[i].flags & flags))
			continue;
		vec_str(v, sizeof(v), pgs[i].acting, pgs[i].nacting);
		detail(x, c, "pg %s is %s, acting %s", pgs[i].pgid,
		       pgs[i].state, v);
	}
}

static void pg_checks(struct hc *x, const struct cfs_pg_health *pgs,
		      uint32_t npgs, const struct cfs_pg_totals *t)
{
	static const struct cfs_pg_totals none;
	int inactive = 0, down = 0, degraded = 0, undersized = 0, toofull = 0;
	int inconsistent = 0;
	struct cfs_health_check *c;
	char v[128];

	if (!t)
		t = &none;
	for (uint32_t i = 0; i < npgs; i++) {
		unsigned f = pgs[i].flags;

		inactive += !!(f & CFS_PGH_INACTIVE);
		down += !!(f & CFS_PGH_DOWN);
		degraded += !!(f & CFS_PGH_DEGRADED);
		undersized += !!(f & CFS_PGH_UNDERSIZED);
		toofull += !!(f & CFS_PGH_BACKFILL_TOOFULL);
		inconsistent += !!(f & CFS_PGH_INCONSISTENT);
	}
	if (inactive) {
		c = add(x, "PG_AVAILABILITY", CFS_HEALTH_WARN, inactive);
		if (down)
			summary(c, "Reduced data availability: %d pgs "
				   "inactive, %d pgs down",
				inactive, down);
		else
			summary(c, "Reduced data availability: %d pgs inactive",
				inactive);
		pg_lines(x, c, pgs, npgs, CFS_PGH_INACTIVE);
	}
	/* PGMap::get_health_checks (16.2): PG_DEGRADED gathers the PGs in
	 * either state, degraded or undersized, so an undersized PG with no
	 * object to be degraded (an EC PG with an empty slot) is counted
	 * and has its detail line too; the summary names only the states
	 * some PG is in.  Ceph's "is stuck undersized for T" form needs the
	 * time the PG entered the state, which crushfs does not keep: the
	 * PG's current state is given. */
	if (t->degraded || degraded || undersized) {
		char objs[160] = "", pgpart[96];
		int nlisted = 0;

		for (uint32_t i = 0; i < npgs; i++)
			nlisted += !!(pgs[i].flags &
				      (CFS_PGH_DEGRADED | CFS_PGH_UNDERSIZED));
		c = add(x, "PG_DEGRADED", CFS_HEALTH_WARN, nlisted);
		if (t->degraded) {
			objects_of(v, sizeof(v), t->degraded, t->copies,
				   "degraded");
			snprintf(objs, sizeof(objs), "%s%s", v,
				 nlisted ? ", " : "");
		}
		if (degraded && undersized)
			snprintf(pgpart, sizeof(pgpart), "%d pgs degraded, %d "
				 "pgs undersized", degraded, undersized);
		else if (degraded)
			snprintf(pgpart, sizeof(pgpart), "%d pgs degraded",
				 degraded);
		else if (undersized)
			snprintf(pgpart, sizeof(pgpart), "%d pgs undersized",
				 undersized);
		else
			pgpart[0] = 0;
		summary(c, "Degraded data redundancy: %s%s", objs, pgpart);
		pg_lines(x, c, pgs, npgs,
			 CFS_PGH_DEGRADED | CFS_PGH_UNDERSIZED);
	}
	if (t->misplaced) {
		c = add(x, "OBJECT_MISPLACED", CFS_HEALTH_WARN,
			(int64_t)t->misplaced);
		if (c)
			objects_of(c->summary, sizeof(c->summary),
				   t->misplaced, t->copies, "misplaced");
	}
	if (t->unfound) {
		c = add(x, "OBJECT_UNFOUND", CFS_HEALTH_WARN,
			(int64_t)t->unfound);
		if (c)
			objects_of(c->summary, sizeof(c->summary), t->unfound,
				   t->objects, "unfound");
	}
	if (t->scrub_errors) {
		/* Ceph: "N scrub errors" and "Possible data damage: N pg(s)
		 * inconsistent" (PGMap::get_health_checks), errors until a
		 * repair clears them */
		c = add(x, "OSD_SCRUB_ERRORS", CFS_HEALTH_ERR,
			(int64_t)t->scrub_errors);
		summary(c, "%llu scrub errors",
			(unsigned long long)t->scrub_errors);
		c = add(x, "PG_DAMAGED", CFS_HEALTH_ERR, inconsistent);
		summary(c, "Possible data damage: %d pg%s inconsistent",
			inconsistent, inconsistent == 1 ? "" : "s");
		pg_lines(x, c, pgs, npgs, CFS_PGH_INCONSISTENT);
	}
	if (toofull) {
		c = add(x, "PG_BACKFILL_FULL", CFS_HEALTH_WARN, toofull);
		summary(c, "Low space hindering backfill (add storage if this "
			   "doesn't resolve itself): %d pgs backfill_toofull",
			toofull);
		pg_lines(x, c, pgs, npgs, CFS_PGH_BACKFILL_TOOFULL);
	}
}

/* OSD::get_health_metrics / the mgr's SLOW_OPS: "N slow ops, oldest one
 * blocked for S sec, daemons [osd.x,...] have slow ops."; the details
 * name each op and why its PG cannot serve. */
static void slow_checks(struct hc *x)
{
	const struct cfs_health *h = x->h;
	struct cfs_health_check *c;
	struct timespec now;
	char daemons[256];
	size_t o = 0;
	long oldest = 0;

	if (!h->nslow)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	daemons[0] = 0;
	for (int i = 0; i < h->nslow; i++) {
		const struct cfs_slow_op *s = &h->slow[i];
		long age = (long)(now.tv_sec - s->since.tv_sec);
		int seen = 0;

		if (age > oldest)
			oldest = age;
		for (int k = 0; k < i; k++)
			seen |= h->slow[k].osd == s->osd;
		if (!seen && o < sizeof(daemons))
			o += (size_t)snprintf(daemons + o, sizeof(daemons) - o,
					      "%s%s%d", o ? "," : "",
					      s->osd >= 0 ? "osd." : "pg ",
					      s->osd >= 0 ? s->osd
							  : (int)s->ps);
	}
	c = add(x, "SLOW_OPS", CFS_HEALTH_WARN, h->nslow);
	summary(c, "%d slow ops, oldest one blocked for %ld sec, daemons "
		   "[%s] have slow ops.",
		h->nslow, oldest, daemons);
	for (int i = 0; i < h->nslow; i++) {
		const struct cfs_slow_op *s = &h->slow[i];

		if (s->paused[0]) {
			detail(x, c, "%s '%s' in pg %lld.%x blocked for %ld "
				     "sec: the osdmap has %s set, waiting "
				     "for it to be unset",
			       s->what, s->name, (long long)s->pool, s->ps,
			       (long)(now.tv_sec - s->since.tv_sec),
			       s->paused);
			continue;
		}
		detail(x, c, "%s '%s' in pg %lld.%x blocked for %ld sec: "
			     "the pg is inactive (%d of min_size %d up), "
			     "waiting for it to be active",
		       s->what, s->name, (long long)s->pool, s->ps,
		       (long)(now.tv_sec - s->since.tv_sec), s->up,
		       s->min_size);
	}
}

/* OSDMap::check_health's OSDMAP_FLAGS: every flag set by `osd set` is a
 * warning (the count is the flag string's length, Ceph's "kludgey"
 * count; health mute's "count grew" compares it) */
static void flag_checks(struct hc *x, const cfs_osdmap *m)
{
	uint32_t f = cfs_osdmap_flags(m);
	char s[160];
	int n;

	if (!f)
		return;
	n = cfs_osd_flag_string(f, s, sizeof(s));
	summary(add(x, "OSDMAP_FLAGS", CFS_HEALTH_WARN, n), "%s flag(s) set",
		s);
}

static int cmp_check(const void *a, const void *b)
{
	return strcmp(((const struct cfs_health_check *)a)->code,
		      ((const struct cfs_health_check *)b)->code);
}

int health_checks(struct cfs_health *h, const cfs_osdmap *m,
		  const struct cfs_pg_health *pgs, uint32_t npgs,
		  const struct cfs_pg_totals *tot)
{
	struct hc x = { h, 0 };

	h->status = CFS_HEALTH_OK;
	osd_checks(&x, m);
	flag_checks(&x, m);
	refused_checks(&x, m);
	disk_checks(&x);
	ratio_checks(&x, m);
	pool_checks(&x, m);
	pg_checks(&x, pgs, npgs, tot);
	slow_checks(&x);
	qsort(h->checks, (size_t)h->nchecks, sizeof(h->checks[0]), cmp_check);
	return x.err;
}
