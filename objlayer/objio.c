/*
 * objio.c - one replicated object's I/O over its PG's acting set: the
 * rules every op shares (what makes a copy good, which OSDs may hold a
 * current one, a bad copy marked and rebuilt, the start of a change).
 * The ops themselves are in objio_write.c (write, sync), objio_read.c
 * and objio_remove.c (remove, truncate); this comment is the argument
 * for all of them.
 *
 * What makes a copy good: the object index (osdsim objindex.c) names the
 * object's current version and size; a copy is good when its checksum
 * record names that version, its size matches and (on every read) the
 * bytes returned match their crc32c.  A copy that is absent, stale or
 * rotten is never returned: the read goes to the next good copy, the bad
 * one is marked damaged (logged with PG, object and OSD; health shows it
 * as Ceph's OSD_SCRUB_ERRORS / PG_DAMAGED) and rebuilt from a good copy
 * at once when it belongs to the acting set.  An object the index does
 * not know is a hole, whatever files say: zeros only come from holes.
 *
 * A change: (1) decide per acting OSD whether its copy can take the change
 * in place, must first be rebuilt from a good copy, or starts fresh;
 * (2) reserve space on all of them (a refusal changes nothing); (3) write
 * the intent (new version and size) to the index; (4) change the copies,
 * each one's data before its record; (5) record the new version and drop
 * the intent in one batch.  A crash anywhere leaves copies that each
 * verify as the old or the new version (or not at all), and the intent
 * says which object to settle at the next open (settle.c): the newest
 * version that verifies wins, as Ceph's peering takes the newest log.
 * A write's intent may stay after (5) for the object's next writes,
 * which then skip (3): kept.c says why that is as safe.
 *
 * min_size: a PG with fewer acting OSDs than min_size is inactive.  Reads
 * and writes to it wait, as a Ceph client's ops wait (the Objecter resends
 * them on each new osdmap), until an epoch makes the PG active again, or
 * until rados_osd_op_timeout (then -ETIMEDOUT); the waiting ops show as
 * SLOW_OPS.  Only a mounted daemon waits (ol_set_wait): a lone CLI process
 * would wait for a map nobody can change, so it fails at once with -EIO.
 * Deletes and truncates go on with whatever OSDs are up (one suffices), so
 * space can always be freed.
 *
 * When an op may run, and its waiting, is opgate.c's.  Locks, always in
 * this order: the PG's pgio (shared), the object's stripe lock, then
 * cfs_pg_lock for short state decisions.  The acting set an op
 * uses is read from the map current once pgio is held (op_lock): rebalance
 * empties the OSDs a PG left under pgio exclusive, after the acting sets
 * have moved, so an op can never write to an OSD being emptied.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "cluster.h"
#include "objindex.h"
#include "objlayer_i.h"
#include "objstore.h"
#include "osdmap.h"
#include "pgstate.h"
#include "util.h"

int ol_check_name(const char *name)
{
	size_t n = name ? strlen(name) : 0;

	if (n == 0)
		return -EINVAL;
	if (n > 200)
		return -ENAMETOOLONG;
	return 0;
}

int ol_copy_check(cfs_cluster *c, int osd, int64_t pool, uint32_t ps,
		  const char *name, const struct cfs_objinfo *oi, int deep,
		  const char **why)
{
	cfs_obj *o;
	uint64_t v;
	int r = cfs_obj_open(c, osd, pool, ps, name,
			     deep & OL_COPY_PATH ? CFS_OBJ_VERIFY : 0, &o);

	*why = NULL;
	if (r == -ENOENT) {
		*why = ol_why_absent;
		return OL_COPY_ABSENT;
	}
	if (r)
		return r;
	r = cfs_obj_version(o, &v);
	if (r == -EBADMSG) {
		*why = "checksum record missing or damaged";
		r = OL_COPY_BAD;
	} else if (!r && v != oi->version) {
		*why = v < oi->version ? "copy is stale (older version)"
				       : "copy has an unknown newer version";
		r = OL_COPY_BAD;
	} else if (!r && cfs_obj_size(o) != oi->size) {
		*why = "copy has the wrong size";
		r = OL_COPY_BAD;
	} else if (!r && (deep & 1)) {
		r = cfs_obj_verify(o);
		if (r == -EBADMSG) {
			*why = "data does not match its checksums";
			r = OL_COPY_BAD;
		}
	}
	cfs_obj_put(o);
	return r ? r : OL_COPY_GOOD;
}

const char ol_why_absent[] = "copy is missing";

void ol_note_damage(objlayer *ol, const struct objop *op, int osd,
		    const char *name, const char *why, int pg_locked)
{
	struct cfs_objinfo oi;
	int r;

	if (!pg_locked)
		cfs_pg_lock(ol->c, op->pid, op->ps);
	/* a copy the PG state counts as there (a holder, not missing it)
	 * whose file is gone went behind the store's back: the store stops
	 * counting it before it is marked (as scrub does), or its rebuild
	 * would be counted twice */
	if (why == ol_why_absent &&
	    cfs_pg_is_holder(ol->c, op->pid, op->ps, osd) &&
	    !cfs_pg_is_missing(ol->c, op->pid, op->ps, osd, name) &&
	    !cfs_index_get(ol->c, op->pid, name, &oi))
		cfs_obj_vanished(ol->c, osd, op->pid, op->ps, name, oi.size);
	r = cfs_pg_mark_damaged(ol->c, op->pid, op->ps, osd, name);
	if (!pg_locked)
		cfs_pg_unlock(ol->c, op->pid, op->ps);
	cfs_log(CFS_LOG_ERR, "pg %s: object '%s' on osd.%d: %s%s%s%s",
		op->pgid, name, osd, why,
		!r ? "; copy not used, marked for repair"
		: cfs_cluster_rdonly(ol->c)
			? "; copy not used (read-only: run 'crushfs pg repair "
			: "; copy not used (cannot record it: run 'crushfs pg "
			  "repair ",
		r ? op->pgid : "", r ? "')" : "");
}

/* The OSDs that may hold a current copy, best first: acting (primary
 * first) then up holders outside it; none in its missing set.  Needs
 * cfs_pg_lock.  Returns the count. */
int ol_candidates(objlayer *ol, const struct objop *op, const char *name,
		  int *cand)
{
	int h[256], nh = cfs_pg_holders(ol->c, op->pid, op->ps, h, 256), nc = 0;

	for (int i = 0; i < op->pg->nacting; i++) {
		int a = op->pg->acting[i];

		if (cfs_pg_is_holder(ol->c, op->pid, op->ps, a) &&
		    !cfs_pg_is_missing(ol->c, op->pid, op->ps, a, name))
			cand[nc++] = a;
	}
	for (int i = 0; i < nh; i++)
		if (cfs_osdmap_is_up(op->m, h[i]) &&
		    !cfs_in_set(op->pg->acting, op->pg->nacting, h[i]) &&
		    !cfs_pg_is_missing(ol->c, op->pid, op->ps, h[i], name))
			cand[nc++] = h[i];
	return nc;
}

/*
 * Make dst's copy a good one, copied from the first candidate that
 * verifies (each source is checked against the index and, while copying,
 * against its checksums, so a bad copy never spreads).  Sources found bad
 * are marked damaged.  Called with the object's lock held exclusively,
 * without cfs_pg_lock.
 */
int ol_recover_copy(objlayer *ol, const struct objop *op, const char *name,
		    const struct cfs_objinfo *oi, int dst, const int *cand,
		    int nc)
{
	int r = -EIO;

	for (int i = 0; i < nc; i++) {
		const char *why;
		int st;

		if (cand[i] == dst)
			continue;
		st = ol_copy_check(ol->c, cand[i], op->pid, op->ps, name, oi, 0, &why);
		if (st == OL_COPY_ABSENT || st == OL_COPY_BAD) {
			ol_note_damage(ol, op, cand[i], name, why, 0);
			continue;
		}
		if (st < 0) {
			r = st;
			continue;
		}
		r = cfs_obj_copy(ol->c, cand[i], dst, op->pid, op->ps, name, NULL);
		if (r == -EBADMSG) {
			ol_note_damage(ol, op, cand[i], name,
				       "data does not match its checksums", 0);
			continue;
		}
		if (r == 0 || r == -ENOSPC)
			return r;
	}
	if (r == -EBADMSG)
		r = -EIO;
	return r;
}

/*
 * The start of a change to the acting set t (cfs_pg_lock held): holders
 * outside it miss the change (noted first), every target becomes a
 * holder, and the intent with a new version goes to the index before any
 * copy is touched.  next->size is set by the caller; next->version here.
 */
int ol_begin_change(objlayer *ol, const struct objop *op, const char *name,
		    const int *t, int nt, struct cfs_objinfo *next, int *kept)
{
	int h[256], nh = cfs_pg_holders(ol->c, op->pid, op->ps, h, 256), r = 0;

	for (int i = 0; i < nh && !r; i++)
		if (!cfs_in_set(t, nt, h[i]))
			r = cfs_pg_mark_missing(ol->c, op->pid, op->ps, h[i], name);
	for (int i = 0; i < nt && !r; i++)
		r = ol_ensure_holder(ol, op->pid, op->ps, t[i]);
	if (!r)
		next->version = cfs_index_next_version(ol->c, &r);
	if (r)
		return r;
	return kept ? cfs_index_intent_kept(ol->c, op->pid, name, next, ol,
					    kept)
		    : cfs_index_intent(ol->c, op->pid, name, next);
}

/*
 * Rebuild the copies that need it before any copy changes: a source the
 * change already touched holds the new version, which the index does not
 * name yet, and would be taken for a damaged copy.  rec[i] gets each
 * rebuild's result (0 for copies that needed none).
 */
void ol_recover_first(objlayer *ol, const struct objop *op,
		      const char *name, const struct cfs_objinfo *oi,
		      const int *t, const int *act, int nt, const int *cand,
		      int nc, int *rec)
{
	for (int i = 0; i < nt; i++)
		if (act[i] == OL_ACT_RECOVER)
			rec[i] = ol_recover_copy(ol, op, name, oi, t[i], cand,
						 nc);
}
