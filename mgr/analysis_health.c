/*
 * analysis_health.c - the health snapshot with every pool's PG states
 * (mgr_analysis.h): objlayer's PG stats turned into the flags osdsim's
 * checks read, as `status` gathers them (cli/cmd_status.c), so the report
 * shows PG_DEGRADED and the like with their detail lines.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mgr_analysis.h"
#include "objlayer.h"
#include "osdmap.h"
#include "usage.h"

static unsigned pgh_flags(unsigned f)
{
	return (f & OL_PGS_ACTIVE ? 0 : CFS_PGH_INACTIVE) |
	       (f & OL_PGS_DOWN ? CFS_PGH_DOWN : 0) |
	       (f & OL_PGS_DEGRADED ? CFS_PGH_DEGRADED : 0) |
	       (f & OL_PGS_UNDERSIZED ? CFS_PGH_UNDERSIZED : 0) |
	       (f & OL_PGS_BACKFILL_TOOFULL ? CFS_PGH_BACKFILL_TOOFULL : 0) |
	       (f & OL_PGS_INCONSISTENT ? CFS_PGH_INCONSISTENT : 0);
}

int mgr_analysis_health(cfs_cluster *c, objlayer *ol, const cfs_osdmap *m,
			struct cfs_health *h)
{
	struct cfs_pg_totals t = { 0 };
	struct cfs_pg_health *ph = NULL;
	struct ol_pg_stat *st = NULL;
	uint32_t n = 0, k = 0;
	int r = -ENOMEM;

	if (!ol)
		return cfs_health_take(c, m, NULL, 0, NULL, h);
	for (int i = 0; i < cfs_osdmap_npools(m); i++)
		n += cfs_osdmap_pool_at(m, i)->pg_num;
	st = calloc((size_t)n + 1, sizeof(*st));
	ph = calloc((size_t)n + 1, sizeof(*ph));
	if (!st || !ph)
		goto out;
	for (int i = 0; i < cfs_osdmap_npools(m); i++) {
		const struct cfs_pool_info *q = cfs_osdmap_pool_at(m, i);

		r = ol_pool_pg_stats(ol, m, q->id, &st[k]);
		if (r)
			goto out;
		for (uint32_t ps = 0; ps < q->pg_num; ps++, k++) {
			const struct ol_pg_stat *g = &st[k];

			t.objects += g->objects;
			t.copies += g->objects * (uint64_t)q->size;
			t.degraded += g->degraded;
			t.misplaced += g->misplaced;
			t.unfound += g->unfound;
			t.scrub_errors += g->scrub_errors;
			snprintf(ph[k].pgid, sizeof(ph[k].pgid), "%s", g->pgid);
			ol_pg_state_str(g->state, ph[k].state,
					sizeof(ph[k].state));
			ph[k].flags = pgh_flags(g->state);
			ph[k].nacting = g->nacting < CFS_MAX_REP ?
				g->nacting : CFS_MAX_REP;
			memcpy(ph[k].acting, g->acting,
			       sizeof(int) * (size_t)ph[k].nacting);
		}
	}
	r = cfs_health_take(c, m, ph, k, &t, h);
out:
	free(st);
	free(ph);
	return r;
}
