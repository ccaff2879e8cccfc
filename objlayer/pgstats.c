/*
 * pgstats.c - what `pg dump` and `status` show per PG: objects, bytes,
 * degraded / misplaced / unfound object copies, and the state string.
 *
 * Counting follows Ceph (PeeringState::update_calc_stats): every object
 * should have pool-size current copies on the up set.  Each copy short is
 * misplaced when a current copy sits on another up OSD (the pg_temp
 * acting set, or a holder the PG left: it only has to be moved), else
 * degraded (it has to be re-created).  An object none of whose copies is
 * current is unfound.  The PG is remapped while acting != up (a pg_temp)
 * or old copies linger; it waits for backfill while an up or acting OSD
 * lacks the PG (or is still catching up on it), for recovery while one
 * only missed some writes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "objlayer_i.h"
#include "objindex.h"
#include "osdmap.h"
#include "pgstate.h"
#include "placement.h"
#include "usage.h"

static int member(const int *v, int n, int x)
{
	for (int i = 0; i < n; i++)
		if (v[i] == x)
			return 1;
	return 0;
}

static int pg_stat(objlayer *ol, const cfs_osdmap *m,
		   const struct cfs_pool_info *pool, uint32_t ps,
		   const struct ol_names *idx, struct ol_pg_stat *st);

void ol_pg_stat_placed(const cfs_osdmap *m, const struct cfs_pool_info *p,
		       uint32_t ps, struct ol_pg_stat *st)
{
	const struct cfs_pg_mapping *pg = cfs_osdmap_pool_pg(m, p->id, ps);
	int n = 0;

	memset(st, 0, sizeof(*st));
	st->ps = ps;
	snprintf(st->pgid, sizeof(st->pgid), "%lld.%x", (long long)p->id, ps);
	st->up_primary = st->acting_primary = -1;
	if (pg) {
		st->nup = pg->nup > 16 ? 16 : pg->nup;
		memcpy(st->up, pg->up, sizeof(int) * (size_t)st->nup);
		st->nacting = pg->nacting > 16 ? 16 : pg->nacting;
		memcpy(st->acting, pg->acting, sizeof(int) * (size_t)st->nacting);
		st->up_primary = pg->up_primary;
		st->acting_primary = pg->acting_primary;
	}
	for (int i = 0; i < st->nacting; i++)
		n += st->acting[i] >= 0 && st->acting[i] != PL_ITEM_NONE;
	/* an empty PG: undersized without degraded objects, as an empty
	 * pool shows on a cluster short of OSDs; peered below min_size */
	if (!n)
		st->state = OL_PGS_DOWN;
	else if (n < p->min_size)
		st->state = OL_PGS_UNDERSIZED | OL_PGS_PEERED;
	else if (n < p->size)
		st->state = OL_PGS_ACTIVE | OL_PGS_UNDERSIZED;
	else
		st->state = OL_PGS_ACTIVE | OL_PGS_CLEAN;
}

/*
 * A statistic reads an object's copies one by one while the object's
 * change may be half done: a removal (the purge worker's, after an
 * unlink) has deleted some copies and not yet the record, a write some
 * shards.  Ceph applies a transaction to a PG at once, so its pg stats
 * never count a half-deleted object as degraded (PrimaryLogPG: the
 * delete's log entry and the object go together); the intent says which
 * change is under way.  Read only for an object that looks short of
 * copies, so a clean PG pays nothing.
 */
int ol_pg_in_flight(cfs_cluster *c, int64_t pool, const char *name,
		    uint64_t *next_version)
{
	struct cfs_objinfo next;
	int op;

	if (cfs_index_get_intent(c, pool, name, &next, &op))
		return 0;
	if (next_version)
		*next_version = next.version;
	return op;
}

/* The stats of one PG; idx (or NULL) the names the index holds in it,
 * sorted, so that an object no OSD has a file of counts too. */
static int one_pg(objlayer *ol, const cfs_osdmap *m, int64_t pool, uint32_t ps,
		  const struct ol_names *idx, struct ol_pg_stat *st);

int ol_pg_stat(objlayer *ol, const cfs_osdmap *m, int64_t pool, uint32_t ps,
	       struct ol_pg_stat *st)
{
	return one_pg(ol, m, pool, ps, NULL, st);
}

struct by_pg {
	const cfs_osdmap *m;
	int64_t pool;
	uint32_t pg_num;
	struct ol_names *v; /* pg_num */
};

static int by_pg_add(const char *name, const struct cfs_objinfo *oi, int op,
		     void *arg)
{
	struct by_pg *b = arg;
	struct ol_names *a;
	uint32_t ps;

	(void)op;
	if (cfs_pool_object_to_pg(b->m, b->pool, name, NULL, &ps) ||
	    ps >= b->pg_num)
		return 0;
	a = &b->v[ps];
	ol_names_add(a, name);
	if (a->err)
		return a->err;
	/* the record too, kept beside its name (ol_names_add grew v) */
	if (!a->oi || a->n > a->oi_cap) {
		struct cfs_objinfo *n = realloc(a->oi, a->cap * sizeof(*n));

		if (!n)
			return a->err = -ENOMEM;
		a->oi = n;
		a->oi_cap = a->cap;
	}
	a->oi[a->n - 1] = *oi;
	return 0;
}

int ol_pool_pg_stats(objlayer *ol, const cfs_osdmap *m, int64_t pool,
		     struct ol_pg_stat *st)
{
	const struct cfs_pool_info *p = cfs_osdmap_pool_by_id(m, pool);
	struct by_pg b = { m, pool, 0, NULL };
	int r = 0;

	if (!p)
		return -ENOENT;
	b.pg_num = p->pg_num;
	/* one scan of the index for the whole pool: an object whose every
	 * copy is gone shows nowhere else (the RADOS backend's index is
	 * the cluster's own) */
	if (!ol->rb) {
		uint64_t seq = cfs_index_seq(ol->c);

		b.v = calloc(b.pg_num, sizeof(*b.v));
		if (!b.v)
			return -ENOMEM;
		for (uint32_t ps = 0; ps < b.pg_num; ps++)
			b.v[ps].seq = seq;
		r = cfs_index_foreach(ol->c, pool, "", 0, by_pg_add, &b);
	}
	for (uint32_t ps = 0; ps < b.pg_num && !r; ps++)
		r = one_pg(ol, m, pool, ps, b.v ? &b.v[ps] : NULL, &st[ps]);
	for (uint32_t ps = 0; b.v && ps < b.pg_num; ps++) {
		ol_names_free(b.v[ps].v, b.v[ps].n);
		free(b.v[ps].oi);
	}
	free(b.v);
	return r;
}

/* idx's names from *j up to (not including) name, or to the end when name
 * is NULL, that are still objects though no holder has a file of them:
 * every copy lost, or never written (fsck clears those) - unfound.  Each
 * is read again from the index: one removed since the scan is not
 * counted. */
void ol_pg_index_only(cfs_cluster *c, int64_t pool,
		      const struct ol_names *idx, size_t *j, const char *name,
		      struct ol_pg_stat *st)
{
	for (; idx && *j < idx->n; (*j)++) {
		struct cfs_objinfo oi;
		int d = name ? strcmp(idx->v[*j], name) : -1;

		if (d >= 0) {
			*j += d == 0;
			return;
		}
		if (cfs_index_get(c, pool, idx->v[*j], &oi) ||
		    ol_pg_in_flight(c, pool, idx->v[*j], NULL) ==
			    CFS_INTENT_REMOVE)
			continue;
		st->objects++;
		st->bytes += oi.size;
		st->unfound++;
	}
}

/*
 * The record of name, which a holder has a file of and which
 * ol_pg_index_only has just passed (idx's position j): the scan's, when
 * the scan saw the name and no record of its stem changed since it began,
 * else the index's.  A change whose commit is done but not yet counted
 * reads as the record before it, as a point read just before that commit
 * would have (a replicated write counts its change under cfs_pg_lock,
 * which pg_stat holds).  The health round's point reads were 40% of its
 * time, 4% of the daemon's during a run of creates (docs/performance.md).
 */
int ol_pg_index_record(cfs_cluster *c, int64_t pool,
		       const struct ol_names *idx, size_t j, const char *name,
		       struct cfs_objinfo *oi)
{
	if (idx && idx->oi && j > 0 && j <= idx->n &&
	    !strcmp(idx->v[j - 1], name) &&
	    !cfs_index_changed_since(c, name, idx->seq)) {
		*oi = idx->oi[j - 1];
		return 0;
	}
	return cfs_index_get(c, pool, name, oi);
}

static int one_pg(objlayer *ol, const cfs_osdmap *m, int64_t pool, uint32_t ps,
		  const struct ol_names *idx, struct ol_pg_stat *st)
{
	const struct cfs_pool_info *p = cfs_osdmap_pool_by_id(m, pool), *now;
	const cfs_osdmap *cur;
	int r;

	if (!p || ps >= p->pg_num)
		return -ENOENT;
	/* no pool but the data pool holds objects on the RADOS backend */
	if (ol->rb && pool != ol->pool) {
		ol_pg_stat_placed(m, p, ps, st);
		return 0;
	}
	if (ol->rb)
		return rb_pg_stat(ol, m, ps, st);
	/* m's PG seeds name the folders and states while no pg_num change
	 * runs; a map from before one is of no use now */
	cfs_pg_layout_shared(ol->c);
	cur = cfs_osdmap_get(ol->c);
	now = cfs_osdmap_pool_by_id(cur, pool);
	r = !now || now->pg_num != p->pg_num ? -EAGAIN
	    : p->erasure ? ec_pg_stat(ol, m, p, ps, idx, st)
			 : pg_stat(ol, m, p, ps, idx, st);
	cfs_osdmap_put(cur);
	cfs_pg_layout_release(ol->c);
	return r;
}

static int pg_stat(objlayer *ol, const cfs_osdmap *m,
		   const struct cfs_pool_info *pool, uint32_t ps,
		   const struct ol_names *idx, struct ol_pg_stat *st)
{
	cfs_cluster *c = ol->c;
	const int64_t pid = pool->id;
	const struct cfs_pg_mapping *pg = cfs_osdmap_pool_pg(m, pid, ps);
	int nh, r, down_objects = 0, strays_up = 0;
	struct cfs_pg_copies pc;
	int size = pool->size, undersized, backfill = 0, toofull = 0;
	int recovery = 0;
	size_t j = 0;

	if (!pg)
		return -ENOENT;
	memset(st, 0, sizeof(*st));
	st->ps = ps;
	snprintf(st->pgid, sizeof(st->pgid), "%lld.%x", (long long)pid, ps);
	st->nup = pg->nup;
	memcpy(st->up, pg->up, sizeof(int) * (size_t)pg->nup);
	st->up_primary = pg->up_primary;
	st->nacting = pg->nacting;
	memcpy(st->acting, pg->acting, sizeof(int) * (size_t)pg->nacting);
	st->acting_primary = pg->acting_primary;

	cfs_pg_lock(c, pid, ps);
	/* names only: an object's bytes are its index size (Ceph counts
	 * them from the object info, not from a disk) */
	r = cfs_pg_copies_load_names(c, pid, ps, &pc);
	if (r) {
		cfs_pg_unlock(c, pid, ps);
		return r;
	}
	nh = pc.n;
	for (int i = 0; i < nh; i++)
		if (!member(pg->acting, pg->nacting, pc.osd[i]) &&
		    !member(pg->up, pg->nup, pc.osd[i]) &&
		    cfs_osdmap_is_up(m, pc.osd[i]))
			strays_up = 1;
	while (cfs_pg_copies_next(&pc)) {
		int any_current = 0, current_has = 0, good = 0, stray = 0;
		int up_current = 0, h;
		uint64_t missing, mis;
		struct cfs_objinfo oi;

		ol_pg_index_only(c, pid, idx, &j, pc.name, st);
		/* files of a name the index does not hold are no object: the
		 * leftover of a removal, or of a write no copy took */
		if (ol_pg_index_record(c, pid, idx, j, pc.name, &oi))
			continue;

		for (int i = 0; i < nh; i++) {
			h = pc.osd[i];
			if (cfs_pg_is_missing(c, pid, ps, h, pc.name))
				continue;
			any_current = 1;
			if (!pc.at[i])
				continue;
			current_has = 1;
			if (cfs_osdmap_is_up(m, h))
				up_current = 1;
			if (member(pg->up, pg->nup, h))
				good++;
			else if (cfs_osdmap_is_up(m, h))
				stray++;
		}
		if (any_current && !current_has)
			continue; /* deleted; old copies linger */
		if ((good < size || !any_current) &&
		    ol_pg_in_flight(c, pid, pc.name, NULL) ==
			    CFS_INTENT_REMOVE)
			continue; /* being removed */
		if (!any_current) {
			/* only stale copies left */
			st->objects++;
			st->bytes += oi.size;
			st->unfound++;
			continue;
		}
		st->objects++;
		st->bytes += oi.size;
		if (!up_current)
			down_objects++;
		missing = good < size ? (uint64_t)(size - good) : 0;
		mis = (uint64_t)stray < missing ? (uint64_t)stray : missing;
		st->misplaced += mis;
		st->degraded += missing - mis;
	}
	ol_pg_index_only(c, pid, idx, &j, NULL, st);
	/* up or acting OSDs that still lack objects (backfill targets) */
	for (int i = 0; i < pg->nup + pg->nacting; i++) {
		int a = i < pg->nup ? pg->up[i] : pg->acting[i - pg->nup];
		int lacks;

		if (i >= pg->nup && member(pg->up, pg->nup, a))
			continue;
		/* a holder that only missed some writes is recovered from
		 * the log (recovery_wait); one that has not got the PG, or
		 * is still catching up on it, is backfilled */
		if (cfs_pg_is_holder(c, pid, ps, a) && !cfs_pg_is_backfill(c, pid, ps, a)) {
			if (cfs_pg_missing_count(c, pid, ps, a) > 0)
				recovery = 1;
			continue;
		}
		lacks = cfs_pg_is_holder(c, pid, ps, a) || st->objects > 0;

		if (lacks) {
			struct cfs_osd_usage u;
			struct cfs_toofull tf;
			uint64_t lim = cfs_osdmap_backfillfull_limit(m, a);

			backfill = 1;
			cfs_osd_usage(c, a, &u);
			/* at the ratio, or it refused this PG's backfill in the
			 * last rebalance and would refuse it still */
			if (u.used >= lim ||
			    (cfs_toofull_get(c, pid, ps, &tf) && tf.osd == a &&
			     (u.used > lim || tf.bytes > lim - u.used)))
				toofull = 1;
		}
	}
	cfs_pg_unlock(c, pid, ps);
	cfs_pg_copies_free(&pc);

	undersized = pg->nacting < size;
	if (nh > 0 && st->objects > 0 && (down_objects || !pg->nacting))
		st->state |= OL_PGS_DOWN;
	if (!(st->state & OL_PGS_DOWN)) {
		if (pg->nacting >= pool->min_size && pg->nacting > 0)
			st->state |= OL_PGS_ACTIVE;
		else
			st->state |= OL_PGS_PEERED;
	}
	if (undersized)
		st->state |= OL_PGS_UNDERSIZED;
	if (undersized || st->degraded)
		st->state |= OL_PGS_DEGRADED;
	/* copies left on OSDs the PG moved away from (Ceph shows such PGs
	 * remapped until backfill ends and the strays are purged) */
	if (strays_up || pg->nup != pg->nacting ||
	    memcmp(pg->up, pg->acting, sizeof(int) * (size_t)pg->nup))
		st->state |= OL_PGS_REMAPPED;
	if (backfill)
		st->state |= toofull ? OL_PGS_BACKFILL_TOOFULL
				     : OL_PGS_BACKFILL_WAIT;
	if (recovery)
		st->state |= OL_PGS_RECOVERY_WAIT;
	if (st->unfound)
		st->state |= OL_PGS_UNFOUND;
	/* Ceph keeps a PG inconsistent from the scrub (or read) that found a
	 * bad copy until a repair fixed it */
	cfs_pg_lock(ol->c, pid, ps);
	st->scrub_errors = cfs_pg_damaged_count(ol->c, pid, ps);
	cfs_pg_unlock(ol->c, pid, ps);
	if (st->scrub_errors)
		st->state |= OL_PGS_INCONSISTENT;
	if ((st->state & OL_PGS_ACTIVE) &&
	    !(st->state & (OL_PGS_UNDERSIZED | OL_PGS_DEGRADED |
			   OL_PGS_BACKFILL_WAIT | OL_PGS_BACKFILL_TOOFULL |
			   OL_PGS_RECOVERY_WAIT | OL_PGS_UNFOUND)) &&
	    st->misplaced == 0)
		st->state |= OL_PGS_CLEAN;
	return 0;
}

void ol_pg_state_str(unsigned s, char *buf, size_t len)
{
	/* Ceph's pg_state_string order */
	static const struct {
		unsigned bit;
		const char *name;
	} names[] = {
		{ OL_PGS_ACTIVE, "active" },
		{ OL_PGS_CLEAN, "clean" },
		{ OL_PGS_DOWN, "down" },
		{ OL_PGS_UNFOUND, "recovery_unfound" },
		{ OL_PGS_RECOVERY_WAIT, "recovery_wait" },
		{ OL_PGS_UNDERSIZED, "undersized" },
		{ OL_PGS_DEGRADED, "degraded" },
		{ OL_PGS_INCONSISTENT, "inconsistent" },
		{ OL_PGS_REMAPPED, "remapped" },
		{ OL_PGS_BACKFILL_WAIT, "backfill_wait" },
		{ OL_PGS_BACKFILL_TOOFULL, "backfill_toofull" },
		{ OL_PGS_PEERED, "peered" },
	};
	size_t o = 0;

	buf[0] = 0;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!(s & names[i].bit))
			continue;
		if (o >= len)
			break;
		o += (size_t)snprintf(buf + o, o < len ? len - o : 0, "%s%s",
				      o ? "+" : "", names[i].name);
	}
	if (!o)
		snprintf(buf, len, "unknown");
}
