/*
 * scrub.c - scrub, deep scrub and repair of PGs (Ceph's PG::scrub,
 * PGBackend::be_compare_scrubmaps / be_select_auth_object), and settling
 * what a crash left in flight.
 *
 * The authoritative copy is chosen by what the copies prove, never by
 * where they sit: only copies that verify (record valid, every block's
 * crc32c right) can be chosen; the version the object index names wins,
 * else the newest; among equal versions the majority of identical data.
 * Every other acting copy is rebuilt from it through cfs_obj_copy(),
 * which checks the source's checksums once more while copying.
 */
#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster.h"
#include "objindex.h"
#include "objlayer_i.h"
#include "objstore.h"
#include "osdmap.h"
#include "pgstate.h"
#include "usage.h"
#include "util.h"

int ol_choose_auth(const struct ol_copy_view *v, int n, uint64_t want)
{
	uint64_t best = 0;
	int have_want = 0, any = 0, auth = -1, votes = 0;

	for (int i = 0; i < n; i++) {
		if (!v[i].present || !v[i].verifies)
			continue;
		any = 1;
		if (want && v[i].version == want)
			have_want = 1;
		if (v[i].version > best)
			best = v[i].version;
	}
	if (!any)
		return -1;
	if (have_want)
		best = want;
	for (int i = 0; i < n; i++) {
		int c = 0;

		if (!v[i].present || !v[i].verifies || v[i].version != best)
			continue;
		for (int k = 0; k < n; k++)
			if (v[k].present && v[k].verifies &&
			    v[k].version == best && v[k].digest == v[i].digest)
				c++;
		if (c > votes) {
			votes = c;
			auth = i;
		}
	}
	return auth;
}

/* Look at one copy: present, verifies (every block), version, digest. */
static void view_copy(cfs_cluster *c, int osd, int64_t pool, uint32_t ps,
		      const char *name,
		      struct ol_copy_view *v, uint64_t *size)
{
	static const size_t chunk = 1 << 20;
	cfs_obj *o;
	char *buf;

	memset(v, 0, sizeof(*v));
	*size = 0;
	if (cfs_obj_open(c, osd, pool, ps, name, CFS_OBJ_VERIFY, &o))
		return;
	v->present = 1;
	*size = cfs_obj_size(o);
	buf = malloc(chunk);
	if (buf && cfs_obj_version(o, &v->version) == 0) {
		uint64_t off = 0;

		v->verifies = 1;
		while (off < *size) {
			ssize_t got = cfs_obj_pread(o, buf, chunk, off);

			if (got <= 0) {
				v->verifies = 0;
				break;
			}
			v->digest = cfs_crc32c(v->digest, buf, (size_t)got);
			off += (uint64_t)got;
		}
	}
	free(buf);
	cfs_obj_put(o);
}

static void say(void (*msg)(const char *, void *), void *arg,
		const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(void (*msg)(const char *, void *), void *arg,
		const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (msg)
		msg(line, arg);
	else
		cfs_log(CFS_LOG_INFO, "%s", line);
}

/*
 * A change was in flight and no copy verifies: every copy was being
 * rewritten when the process died (a pool of size 1 has one).  The bytes
 * are what the interrupted write left - as on a local disk after a crash,
 * some of it landed - so the first present copy (acting order) is taken
 * as it is, with a new record, rather than the whole object being lost.
 * Only for objects with an intent: a copy that rots later is never
 * adopted.
 */
static int adopt_torn(cfs_cluster *c, const struct objop *op, const char *name,
		      const int *osd, struct ol_copy_view *v, uint64_t *sz,
		      int n, void (*msg)(const char *, void *), void *arg)
{
	for (int i = 0; i < n; i++) {
		uint64_t ver;
		cfs_obj *o;
		int e;

		if (!v[i].present ||
		    cfs_obj_open(c, osd[i], op->pid, op->ps, name, 0, &o))
			continue;
		ver = cfs_index_next_version(c, &e);
		if (!e)
			e = cfs_obj_rebuild_csum(o, ver);
		cfs_obj_put(o);
		if (e)
			continue;
		view_copy(c, osd[i], op->pid, op->ps, name, &v[i], &sz[i]);
		if (!v[i].verifies)
			continue;
		say(msg, arg,
		    "pg %s: object '%s': no copy verified after an "
		    "interrupted write; osd.%d's copy taken as it was left",
		    op->pgid, name, osd[i]);
		return i;
	}
	return -1;
}

/* Copy i holds the same data as copy a (verifies, same version, size and
 * digest). */
static int same_data(const struct ol_copy_view *v, const uint64_t *sz, int i,
		     int a)
{
	return v[i].present && v[i].verifies && v[i].version == v[a].version &&
	       v[i].digest == v[a].digest && sz[i] == sz[a];
}

/*
 * Check every copy of one object and rebuild the acting copies that are
 * not the authoritative one.  newest: settle after a crash (the newest
 * verifying version wins over the index's).  Takes the object's lock.
 */
static int settle_object(objlayer *ol, int64_t pool, const char *name,
			 int newest,
			 int repair, struct ol_scrub_stats *st,
			 void (*msg)(const char *, void *), void *arg,
			 int *auth_osd)
{
	cfs_cluster *c = ol->c;
	struct objop op;
	pthread_rwlock_t *lk = ol_objlock(ol, name);
	struct ol_copy_view v[CFS_MAX_REP + 64];
	uint64_t sz[CFS_MAX_REP + 64];
	uint32_t ad[CFS_MAX_REP + 64] = { 0 };
	int osd[CFS_MAX_REP + 64], n = 0, h[256], nh, auth, r = 0;
	struct cfs_objinfo oi;
	int known;

	if (ol_op_begin(ol, pool, name, &op))
		return -ENOENT;
	pthread_rwlock_rdlock(ol_pgio(ol, op.pid, op.ps));
	pthread_rwlock_wrlock(lk);
	ol_op_refresh(&op);
	r = cfs_index_get(c, pool, name, &oi);
	known = r == 0;
	if (r && r != -ENOENT) {
		r = -EIO;
		goto out;
	}
	r = 0;
	cfs_pg_lock(c, op.pid, op.ps);
	for (int i = 0; i < op.pg->nacting; i++)
		osd[n++] = op.pg->acting[i];
	nh = cfs_pg_holders(c, op.pid, op.ps, h, 256);
	for (int i = 0; i < nh && n < CFS_MAX_REP + 64; i++) {
		int dup = 0;

		for (int k = 0; k < n; k++)
			dup |= osd[k] == h[i];
		if (!dup && cfs_osdmap_is_up(op.m, h[i]))
			osd[n++] = h[i];
	}
	cfs_pg_unlock(c, op.pid, op.ps);
	for (int i = 0; i < n; i++)
		view_copy(c, osd[i], op.pid, op.ps, name, &v[i], &sz[i]);
	if (!known && !newest) {
		/* Settling at open finished every change in flight, and a
		 * writer holds this object's lock: a copy the index does not
		 * know is left by nothing that is still going on (a remove
		 * cut short, a file put there by hand).  A repair removes it,
		 * as a Ceph OSD has no object its PG log does not name. */
		for (int i = 0; i < n; i++) {
			int e;

			if (!v[i].present)
				continue;
			st->stray++;
			if (!repair) {
				say(msg, arg,
				    "pg %s: object '%s' on osd.%d is not in "
				    "the object index (stray copy; repair "
				    "removes it)",
				    op.pgid, name, osd[i]);
				continue;
			}
			e = cfs_obj_remove(c, osd[i], op.pid, op.ps, name);
			if (e && e != -ENOENT)
				say(msg, arg,
				    "pg %s: stray copy of '%s' on osd.%d: "
				    "remove failed: %s",
				    op.pgid, name, osd[i], cfs_strerror(e));
			else
				say(msg, arg,
				    "pg %s: stray copy of '%s' on osd.%d "
				    "(not in the object index) removed",
				    op.pgid, name, osd[i]);
		}
		goto out;
	}
	st->objects++;
	auth = ol_choose_auth(v, n, newest ? 0 : known ? oi.version : 0);
	if (auth < 0 && newest)
		auth = adopt_torn(c, &op, name, osd, v, sz, n, msg, arg);
	if (auth < 0) {
		if (known) {
			st->unfound++;
			say(msg, arg,
			    "pg %s: object '%s': no copy verifies on any up "
			    "OSD (unfound)",
			    op.pgid, name);
			r = -EIO;
		}
		if (!known)
			cfs_index_set(c, pool, name, NULL); /* drop the intent */
		else if (newest)
			cfs_index_set(c, pool, name, &oi);
		goto out;
	}
	/* the attributes (a CephFS backtrace) among the copies whose data
	 * is the authoritative one's: a copy with attributes before one
	 * without any (attributes are only ever set: a copy lacking them
	 * missed their setting), then the majority */
	{
		int best = auth, bestn = 0;

		for (int i = 0; i < n; i++)
			if (v[i].present && cfs_obj_attrs_digest(
						    c, osd[i], op.pid, op.ps,
						    name, &ad[i]))
				ad[i] = 0;
		for (int i = 0; i < n; i++) {
			int cnt = 0;

			if (!same_data(v, sz, i, auth))
				continue;
			for (int k = 0; k < n; k++)
				cnt += same_data(v, sz, k, auth) &&
				       ad[k] == ad[i];
			if ((ad[i] && !ad[best]) ||
			    (!ad[i] == !ad[best] && cnt > bestn)) {
				best = i;
				bestn = cnt;
			}
		}
		auth = best;
	}
	if (auth_osd)
		*auth_osd = osd[auth];
	if (!known || oi.version != v[auth].version || oi.size != sz[auth]) {
		oi.version = v[auth].version;
		oi.size = sz[auth];
	}
	st->bytes += oi.size;
	for (int i = 0; i < n; i++) {
		int acting = i < op.pg->nacting;
		int good = v[i].present && v[i].verifies &&
			   v[i].version == oi.version &&
			   v[i].digest == v[auth].digest && sz[i] == oi.size &&
			   ad[i] == ad[auth];
		int e;

		st->copies += v[i].present;
		cfs_pg_lock(c, op.pid, op.ps);
		/* a copy the PG state says is there (acting or an old
		 * holder) but its folder lacks went behind the store's
		 * back: it no longer counts (not when settling a crash,
		 * which may have cut a write before the copy was made) */
		if (!v[i].present && !newest &&
		    cfs_pg_is_holder(c, op.pid, op.ps, osd[i]) &&
		    !cfs_pg_is_missing(c, op.pid, op.ps, osd[i], name))
			cfs_obj_vanished(c, osd[i], op.pid, op.ps, name,
					 oi.size);
		if (good) {
			cfs_pg_clear_missing(c, op.pid, op.ps, osd[i], name);
			cfs_pg_unlock(c, op.pid, op.ps);
			continue;
		}
		if (!acting) {
			/* an old holder: stale, rebalance cleans it */
			cfs_pg_mark_missing(c, op.pid, op.ps, osd[i], name);
			cfs_pg_unlock(c, op.pid, op.ps);
			continue;
		}
		/* an acting copy known to be behind (it missed a write while
		 * down or away: its missing set) is recovery's to bring, not
		 * an inconsistency (Ceph scrubs what peering says is there);
		 * a repair brings it now */
		if (cfs_pg_is_missing(c, op.pid, op.ps, osd[i], name) &&
		    !cfs_pg_is_damaged(c, op.pid, op.ps, osd[i], name) &&
		    !repair) {
			cfs_pg_unlock(c, op.pid, op.ps);
			continue;
		}
		st->errors++;
		say(msg, arg, "pg %s: object '%s' on osd.%d: %s", op.pgid,
		    name, osd[i],
		    !v[i].present    ? "copy is missing"
		    : !v[i].verifies ? "data does not match its checksums"
		    : v[i].version != oi.version
			    ? "copy has another version"
		    : v[i].digest == v[auth].digest && sz[i] == oi.size
			    ? "its attributes differ from the authoritative "
			      "copy's"
			    : "copy differs from the authoritative copy");
		e = ol_ensure_holder(ol, op.pid, op.ps, osd[i]);
		if (!e)
			e = cfs_pg_mark_damaged(c, op.pid, op.ps, osd[i], name);
		cfs_pg_unlock(c, op.pid, op.ps);
		if (e || !repair)
			continue;
		e = cfs_osd_reserve(c, osd[i], oi.size,
				    cfs_osdmap_full_limit(op.m, osd[i]));
		if (!e) {
			e = cfs_obj_copy(c, osd[auth], osd[i], op.pid, op.ps, name,
					 NULL);
			cfs_osd_unreserve(c, osd[i], oi.size);
		}
		cfs_pg_lock(c, op.pid, op.ps);
		if (!e) {
			cfs_pg_clear_missing(c, op.pid, op.ps, osd[i], name);
			st->repaired++;
			say(msg, arg,
			    "pg %s: object '%s' on osd.%d repaired from "
			    "osd.%d",
			    op.pgid, name, osd[i], osd[auth]);
		} else {
			say(msg, arg,
			    "pg %s: object '%s' on osd.%d: repair failed: %s",
			    op.pgid, name, osd[i], cfs_strerror(e));
		}
		cfs_pg_unlock(c, op.pid, op.ps);
	}
	r = cfs_index_set(c, pool, name, &oi);
	cfs_pg_flush(c, op.pid, op.ps);
out:
	pthread_rwlock_unlock(lk);
	pthread_rwlock_unlock(ol_pgio(ol, op.pid, op.ps));
	ol_op_end(&op);
	return r;
}

int ol_repair_object(objlayer *ol, int64_t pool, const char *name,
		     struct ol_scrub_stats *st)
{
	return settle_object(ol, pool, name, 0, 1, st, NULL, NULL, NULL);
}

/* 1 when every acting copy looks current without reading its data. */
static int shallow_ok(objlayer *ol, int64_t pool, const char *name,
		      const struct cfs_objinfo *oi)
{
	struct objop op;
	int ok = 1;

	uint32_t first = 0, d;

	if (ol_op_begin(ol, pool, name, &op))
		return 0;
	for (int k = 0; k < op.pg->nacting; k++) {
		const char *why;

		if (ol_copy_check(ol->c, op.pg->acting[k], op.pid, op.ps, name, oi,
				  OL_COPY_PATH, &why) != OL_COPY_GOOD)
			ok = 0;
		/* and the same attributes on every copy (Ceph's scrub
		 * compares attrs, shallow or deep) */
		else if (cfs_obj_attrs_digest(ol->c, op.pg->acting[k], op.pid,
					      op.ps, name, &d) ||
			 (k && d != first))
			ok = 0;
		else if (!k)
			first = d;
	}
	ol_op_end(&op);
	return ok;
}

int ol_scrub_one(objlayer *ol, int64_t pool, const char *name, int flags,
		 struct ol_scrub_stats *st,
		 void (*msg)(const char *line, void *arg), void *arg,
		 int *auth_osd)
{
	struct cfs_objinfo oi;
	struct objop op;
	int erasure;

	if (auth_osd)
		*auth_osd = -1;
	if (ol_op_begin(ol, pool, name, &op))
		return -ENOENT;
	erasure = op.pool->erasure;
	ol_op_end(&op);
	if (erasure) {
		/* an erasure pool's shards: checked by the reads that
		 * decode around them (shard scrub is still to come) */
		if (cfs_index_get(ol->c, pool, name, &oi) == 0) {
			st->objects++;
			st->bytes += oi.size;
		}
		return 0;
	}
	if (!(flags & OL_SCRUB_DEEP) &&
	    cfs_index_get(ol->c, pool, name, &oi) == 0 &&
	    shallow_ok(ol, pool, name, &oi)) {
		st->objects++;
		st->bytes += oi.size;
		return 0;
	}
	return settle_object(ol, pool, name, 0, flags & OL_SCRUB_REPAIR, st,
			     msg, arg, auth_osd);
}

static int scrub_pg(objlayer *ol, int64_t pool, uint32_t ps, int flags,
		    struct ol_scrub_stats *st,
		    void (*msg)(const char *line, void *arg), void *arg);

int ol_scrub_pg(objlayer *ol, int64_t pool, uint32_t ps, int flags,
		struct ol_scrub_stats *st,
		void (*msg)(const char *line, void *arg), void *arg)
{
	const cfs_osdmap *m;
	const struct cfs_pool_info *p;
	int r;

	/* ps is a PG of the current pg_num until release */
	cfs_pg_layout_shared(ol->c);
	m = cfs_osdmap_get(ol->c);
	p = cfs_osdmap_pool_by_id(m, pool);
	{
		uint64_t e0 = st->errors, r0 = st->repaired;

		r = !p || ps >= p->pg_num ? -ENOENT
		    : p->erasure ? ec_scrub_pg(ol, pool, ps, flags, st, msg,
					       arg)
				 : scrub_pg(ol, pool, ps, flags, st, msg, arg);
		if (r != -ENOENT) {
			const struct cfs_pg_mapping *pm =
				cfs_osdmap_pool_pg(m, pool, ps);
			char pgid[32];

			snprintf(pgid, sizeof(pgid), "%lld.%x",
				 (long long)pool, ps);
			ol_clog_scrub(ol->c, pgid,
				      pm ? pm->acting_primary : -1,
				      flags & OL_SCRUB_DEEP,
				      flags & OL_SCRUB_REPAIR,
				      st->errors - e0, st->repaired - r0);
		}
	}
	cfs_osdmap_put(m);
	cfs_pg_layout_release(ol->c);
	return r;
}

static int scrub_pg(objlayer *ol, int64_t pool, uint32_t ps, int flags,
		    struct ol_scrub_stats *st,
		    void (*msg)(const char *line, void *arg), void *arg)
{
	struct ol_names a = { 0 };
	struct ol_pg_pick p = { cfs_osdmap_get(ol->c), pool, ps, &a };
	char **files = NULL;
	size_t nfiles = 0;
	int r;

	/* every object the index or any holder knows of */
	r = cfs_index_foreach(ol->c, pool, "", 0, ol_pg_pick, &p);
	cfs_pg_lock(ol->c, pool, ps);
	if (!r)
		r = ol_pg_all_names(ol, pool, ps, &files, &nfiles);
	cfs_pg_unlock(ol->c, pool, ps);
	for (size_t i = 0; i < nfiles; i++)
		ol_names_add(&a, files[i]);
	ol_names_free(files, nfiles);
	if (!r)
		r = a.err;
	ol_names_sort_unique(&a);
	st->pgs++;
	for (size_t i = 0; i < a.n && !r; i++) {
		int e = ol_scrub_one(ol, pool, a.v[i], flags, st, msg, arg,
				     NULL);

		if (e && e != -EIO)
			r = e;
	}
	ol_names_free(a.v, a.n);
	cfs_osdmap_put(p.m);
	return r;
}

/* ---- at open ---- */

static int add_name(const char *name, const struct cfs_objinfo *oi, int op,
		    void *arg)
{
	struct ol_names *lists = arg;

	(void)oi;
	ol_names_add(&lists[op == CFS_INTENT_REMOVE], name);
	return 0;
}

/* A copy made before checksums existed gets a record (version 1) when no
 * copy of its object has one: the data is trusted as it is, as the
 * previous version trusted it. */
static void adopt_legacy(objlayer *ol, int64_t pool, const char *name,
			 uint32_t ps)
{
	int h[256], nh = cfs_pg_holders(ol->c, pool, ps, h, 256), any = 0;

	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < nh; i++) {
			cfs_obj *o;

			if (cfs_obj_open(ol->c, h[i], pool, ps, name, 0, &o))
				continue;
			if (pass == 0)
				any |= cfs_obj_has_record(o) == 1;
			else if (!any && cfs_obj_has_record(o) == 0)
				cfs_obj_rebuild_csum(o, 1);
			cfs_obj_put(o);
		}
}

/* One pool's part of ol_settle. */
static int settle_pool(objlayer *ol, const struct cfs_pool_info *p,
		       struct ol_scrub_stats *st, size_t *settled)
{
	cfs_cluster *c = ol->c;
	struct ol_names l[2] = { { 0 }, { 0 } }, a;
	int64_t pool = p->id;
	int r = 0;

	if (cfs_index_is_new(c)) {
		/* no index: every object on the OSDs is settled as after a
		 * crash (newest verifying copy), which rebuilds the index */
		for (uint32_t ps = 0; ps < p->pg_num && !r; ps++) {
			char **names = NULL;
			size_t n = 0;

			cfs_pg_lock(c, pool, ps);
			r = ol_pg_all_names(ol, pool, ps, &names, &n);
			for (size_t i = 0; i < n && !r; i++)
				adopt_legacy(ol, pool, names[i], ps);
			cfs_pg_unlock(c, pool, ps);
			for (size_t i = 0; i < n && !r; i++) {
				struct cfs_objinfo next = { 0, 0 };

				/* an intent makes settle_object take the
				 * newest copy */
				r = cfs_index_intent(c, pool, names[i], &next);
			}
			ol_names_free(names, n);
		}
		if (r)
			return r;
	}
	r = cfs_index_foreach(c, pool, "", 1, add_name, l);
	if (!r)
		r = l[0].err ? l[0].err : l[1].err;
	/* a remove in flight is finished */
	for (size_t i = 0; i < l[1].n && !r; i++)
		r = obj_remove(ol, pool, l[1].v[i], 1);
	ol_names_free(l[1].v, l[1].n);
	a = l[0];
	for (size_t i = 0; i < a.n && !r; i++) {
		int e = settle_object(ol, pool, a.v[i], 1, 1, st, NULL, NULL,
				      NULL);

		if (e && e != -EIO)
			r = e;
	}
	*settled += a.n;
	ol_names_free(a.v, a.n);
	return r;
}

/* An erasure pool's changes cut short: writes undone, removes done. */
static int settle_ec_pool(objlayer *ol, const struct cfs_pool_info *p,
			  size_t *settled)
{
	struct ol_names l[2] = { { 0 }, { 0 } };
	int r = cfs_index_foreach(ol->c, p->id, "", 1, add_name, l);

	if (!r)
		r = l[0].err ? l[0].err : l[1].err;
	for (int k = 0; k < 2 && !r; k++)
		for (size_t i = 0; i < l[k].n && !r; i++) {
			struct objop op;

			if (ol_op_begin(ol, p->id, l[k].v[i], &op))
				continue;
			r = ec_settle_object(ol, &op, l[k].v[i],
					     k ? CFS_INTENT_REMOVE
					       : CFS_INTENT_WRITE);
			ol_op_end(&op);
			(*settled)++;
		}
	ol_names_free(l[0].v, l[0].n);
	ol_names_free(l[1].v, l[1].n);
	return r;
}

int ol_settle(objlayer *ol)
{
	cfs_cluster *c = ol->c;
	struct ol_scrub_stats st = { 0 };
	const cfs_osdmap *m;
	size_t settled = 0;
	int r = 0;

	if (cfs_cluster_rdonly(c))
		return 0;
	m = cfs_osdmap_get(c);
	for (int i = 0; i < cfs_osdmap_npools(m) && !r; i++) {
		const struct cfs_pool_info *p = cfs_osdmap_pool_at(m, i);

		r = p->erasure ? settle_ec_pool(ol, p, &settled)
			       : settle_pool(ol, p, &st, &settled);
	}
	cfs_osdmap_put(m);
	if (settled)
		cfs_log(CFS_LOG_INFO,
			"settled %zu object %s left in flight: %" PRIu64
			" %s rebuilt, %" PRIu64 " unfound",
			settled, settled == 1 ? "change" : "changes",
			st.repaired, st.repaired == 1 ? "copy" : "copies",
			st.unfound);
	return r;
}

/* ---- objects of one file ---- */

struct file_scan {
	int (*fn)(uint64_t objectno, uint64_t size, void *arg);
	void *arg;
	size_t plen;
};

static int file_one(const char *name, const struct cfs_objinfo *oi, int op,
		    void *arg)
{
	struct file_scan *f = arg;
	char *end;
	unsigned long long no;

	(void)op;
	no = strtoull(name + f->plen, &end, 16);
	if (*end || end == name + f->plen)
		return 0; /* not one of ours */
	return f->fn(no, oi->size, f->arg);
}

int ol_file_objects(objlayer *ol, int64_t pool, uint64_t ino,
		    int (*fn)(uint64_t objectno, uint64_t size, void *arg),
		    void *arg)
{
	char prefix[32];
	struct file_scan f = { fn, arg, 0 };

	snprintf(prefix, sizeof(prefix), "%llx.", (unsigned long long)ino);
	f.plen = strlen(prefix);
	return cfs_index_foreach(ol->c, pool, prefix, 0, file_one, &f);
}
