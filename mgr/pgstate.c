/*
 * pgstate.c - PGs counted by state (`ceph -s` pgs:, `pg stat`) and the
 * stuck kinds of `pg dump_stuck` (PGMap::get_stuck_stats, Ceph 16.2).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mgr.h"

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
			sc[n++].count = 0;
		}
		sc[k].count++;
	}
	qsort(sc, (size_t)n, sizeof(*sc), cmp_state);
	*out = sc;
	return n;
}

/*
 * PGMap::get_stuck_stats: inactive = not active; unclean = not clean;
 * undersized, degraded by their flags; stale = its primary is down
 * (Ceph marks a PG stale when its primary stops reporting; here a PG with
 * no up OSD holding it: OL_PGS_DOWN).
 */
unsigned mgr_pg_stuck(const struct ol_pg_stat *g)
{
	unsigned f = g->state, k = 0;

	if (!(f & OL_PGS_ACTIVE))
		k |= MGR_STUCK_INACTIVE;
	if (!(f & OL_PGS_CLEAN))
		k |= MGR_STUCK_UNCLEAN;
	if (f & OL_PGS_DOWN)
		k |= MGR_STUCK_STALE;
	if (f & OL_PGS_UNDERSIZED)
		k |= MGR_STUCK_UNDERSIZED;
	if (f & OL_PGS_DEGRADED)
		k |= MGR_STUCK_DEGRADED;
	return k;
}
