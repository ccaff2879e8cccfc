/*
 * pgcopies.c - the union of a PG's objects over its holders, walked in
 * name order: what check, pg stats and scrub need to compare copies.
 * Each holder's listing is sorted, so a k-way merge finds every object
 * once and tells, per holder, whether it has a file of it.
 */
#include <errno.h>
#include <string.h>

#include "objstore.h"
#include "pgstate.h"

static int copies_load(cfs_cluster *c, int64_t pool, uint32_t ps,
		       struct cfs_pg_copies *pc, int sizes);

int cfs_pg_copies_load(cfs_cluster *c, int64_t pool, uint32_t ps, struct cfs_pg_copies *pc)
{
	return copies_load(c, pool, ps, pc, 1);
}

int cfs_pg_copies_load_names(cfs_cluster *c, int64_t pool, uint32_t ps,
			     struct cfs_pg_copies *pc)
{
	return copies_load(c, pool, ps, pc, 0);
}

static int copies_load(cfs_cluster *c, int64_t pool, uint32_t ps,
		       struct cfs_pg_copies *pc, int sizes)
{
	int r = 0;

	pc->name = NULL;
	pc->n = cfs_pg_holders(c, pool, ps, pc->osd, CFS_PG_MAX_HOLDERS);
	for (int i = 0; i < pc->n; i++) {
		pc->list_[i] = NULL;
		pc->count_[i] = pc->pos_[i] = 0;
	}
	for (int i = 0; i < pc->n && !r; i++)
		r = sizes ? cfs_pg_list(c, pc->osd[i], pool, ps, &pc->list_[i],
					&pc->count_[i])
			  : cfs_pg_list_names(c, pc->osd[i], pool, ps,
					      &pc->list_[i], &pc->count_[i]);
	if (r)
		cfs_pg_copies_free(pc);
	return r;
}

int cfs_pg_copies_next(struct cfs_pg_copies *pc)
{
	const char *least = NULL;

	for (int i = 0; i < pc->n; i++)
		if (pc->pos_[i] < pc->count_[i]) {
			const char *h = pc->list_[i][pc->pos_[i]].name;

			if (!least || strcmp(h, least) < 0)
				least = h;
		}
	if (!least) {
		pc->name = NULL;
		return 0;
	}
	pc->name = least; /* the listings live until cfs_pg_copies_free */
	for (int i = 0; i < pc->n; i++) {
		const struct cfs_obj_entry *e =
			pc->pos_[i] < pc->count_[i] ? &pc->list_[i][pc->pos_[i]]
						    : NULL;

		if (e && !strcmp(e->name, least)) {
			pc->at[i] = e;
			pc->pos_[i]++;
		} else {
			pc->at[i] = NULL;
		}
	}
	return 1;
}

void cfs_pg_copies_free(struct cfs_pg_copies *pc)
{
	for (int i = 0; i < pc->n; i++)
		cfs_obj_entries_free(pc->list_[i], pc->count_[i]);
	pc->n = 0;
	pc->name = NULL;
}
