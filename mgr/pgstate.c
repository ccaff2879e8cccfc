/*
 * pgstate.c - PGs counted by state (`ceph -s` pgs:, `pg stat`) and the
 * stuck kinds of `pg dump_stuck` (PGMap::get_stuck_stats, Ceph 16.2).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mgr.h"
#include "placement.h"

static int cmp_state(const void *a, const void *b)
{
	const struct mgr_pg_state *x = a, *y = b;

	if (x->count != y->count)
		return y->count - x->count;
	return strcmp(x->name, y->name);
}

int mgr_pg_states(const struct mgr_snap *s, struct mgr_pg_state **out)
{
	struct mgr_pg_state *sc = calloc(s->npg + 1, sizeof(*sc));
	int n = 0;

	*out = NULL;
	if (!sc)
		return -ENOMEM;
	for (uint32_t i = 0; i < s->npg; i++) {
		char st[128];
		int k;

		ol_pg_state_str(s->pg[i].state, st, sizeof(st));
		for (k = 0; k < n; k++)
			if (!strcmp(sc[k].name, st))
				break;
		if (k == n) {
			snprintf(sc[n].name, sizeof(sc[n].name), "%s", st);
			sc[n].state = s->pg[i].state;
			sc[n++].count = 0;
		}
		sc[k].count++;
	}
	qsort(sc, (size_t)n, sizeof(*sc), cmp_state);
	*out = sc;
	return n;
}

uint64_t mgr_pg_state_ceph_bits(unsigned f)
{
	/* PG_STATE_* of Ceph 16.2 src/osd/osd_types.h for the states
	 * objlayer models */
	static const struct {
		unsigned ol;
		uint64_t ceph;
	} bits[] = {
		{ OL_PGS_ACTIVE, 1ULL << 1 },
		{ OL_PGS_CLEAN, 1ULL << 2 },
		{ OL_PGS_DOWN, 1ULL << 4 },
		{ OL_PGS_UNFOUND, 1ULL << 5 },	   /* recovery_unfound */
		{ OL_PGS_DEGRADED, 1ULL << 10 },
		{ OL_PGS_INCONSISTENT, 1ULL << 11 },
		{ OL_PGS_BACKFILL_WAIT, 1ULL << 15 },
		{ OL_PGS_REMAPPED, 1ULL << 18 },
		{ OL_PGS_BACKFILL_TOOFULL, 1ULL << 21 },
		{ OL_PGS_RECOVERY_WAIT, 1ULL << 22 },
		{ OL_PGS_UNDERSIZED, 1ULL << 23 },
		{ OL_PGS_PEERED, 1ULL << 25 },
	};
	uint64_t b = 0;

	for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		if (f & bits[i].ol)
			b |= bits[i].ceph;
	return b;
}

static int cmp_ceph(const void *a, const void *b)
{
	uint64_t x = mgr_pg_state_ceph_bits(
			 ((const struct mgr_pg_state *)a)->state),
		 y = mgr_pg_state_ceph_bits(
			 ((const struct mgr_pg_state *)b)->state);

	return x < y ? -1 : x > y;
}

void mgr_pg_states_ceph_order(struct mgr_pg_state *sc, int n)
{
	qsort(sc, (size_t)n, sizeof(*sc), cmp_ceph);
}

/*
 * PGMap::get_stuck_stats: inactive = not active; unclean = not clean;
 * undersized, degraded by their flags; stale = no OSD reports it (Ceph
 * marks a PG stale when its primary stops reporting; a down OSD leaves
 * crushfs's acting sets, so: no OSD left in the acting set).
 */
unsigned mgr_pg_stuck(const struct ol_pg_stat *g)
{
	unsigned f = g->state, k = 0;
	int reporting = 0;

	for (int i = 0; i < g->nacting; i++)
		reporting |= g->acting[i] >= 0 && g->acting[i] != PL_ITEM_NONE;

	if (!(f & OL_PGS_ACTIVE))
		k |= MGR_STUCK_INACTIVE;
	if (!(f & OL_PGS_CLEAN))
		k |= MGR_STUCK_UNCLEAN;
	if (!reporting)
		k |= MGR_STUCK_STALE;
	if (f & OL_PGS_UNDERSIZED)
		k |= MGR_STUCK_UNDERSIZED;
	if (f & OL_PGS_DEGRADED)
		k |= MGR_STUCK_DEGRADED;
	return k;
}
