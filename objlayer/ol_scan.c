/*
 * ol_scan.c - replica scrubbing for fsck (see ol_scan.h): the same
 * machinery as `pg scrub` / `pg repair` (scrub.c), per object.
 *
 * Why fsck needs it: a write goes to the acting OSDs one after another, so
 * a daemon killed in the middle of one can leave copies that differ; the
 * checksums and versions say which one is right.
 */
#include <errno.h>

#include "objlayer_i.h"
#include "ol_scan.h"
#include "objstore.h"
#include "osdmap.h"
#include "pgstate.h"

int ol_scrub_object(objlayer *ol, int64_t pool, const char *name, int deep,
		    int repair, struct ol_scrub *s)
{
	struct ol_scrub_stats st = { 0 };
	const cfs_osdmap *m = cfs_osdmap_get(ol->c);
	const struct cfs_pg_mapping *pg;
	uint32_t ps;
	int r;

	if (cfs_pool_object_to_pg(m, pool, name, NULL, &ps) ||
	    !(pg = cfs_osdmap_pool_pg(m, pool, ps))) {
		cfs_osdmap_put(m);
		return -ENOENT;
	}
	s->nacting = pg->nacting;
	cfs_osdmap_put(m);
	r = ol_scrub_one(ol, pool, name,
			 (deep ? OL_SCRUB_DEEP : 0) |
				 (repair ? OL_SCRUB_REPAIR : 0),
			 &st, NULL, NULL, &s->auth_osd);
	s->missing = (int)st.errors;
	s->size_diff = 0;
	s->content_diff = 0;
	s->repaired = (int)st.repaired;
	/* no good copy anywhere is reported by the caller as a failure */
	return r == -EIO && st.unfound ? -EIO : r == -EIO ? 0 : r;
}

int ol_obj_has_copy(objlayer *ol, int64_t pool, const char *name)
{
	const cfs_osdmap *m = cfs_osdmap_get(ol->c);
	const struct cfs_pool_info *p = cfs_osdmap_pool_by_id(m, pool);
	int width, found = 0;
	uint32_t ps;

	if (!p || cfs_pool_object_to_pg(m, pool, name, NULL, &ps)) {
		cfs_osdmap_put(m);
		return -ENOENT;
	}
	width = p->erasure ? p->size : 1;
	/* any version on any holder of any shard: a stale copy is still
	 * something a repair or an operator could work from */
	for (int i = 0; i < width && !found; i++) {
		uint32_t sps = p->erasure ? cfs_shard_ps(ps, width, i) : ps;
		int h[256], nh;

		cfs_pg_lock(ol->c, pool, sps);
		nh = cfs_pg_holders(ol->c, pool, sps, h, 256);
		for (int k = 0; k < nh && !found; k++) {
			cfs_obj *o;

			if (!cfs_obj_open(ol->c, h[k], pool, sps, name, 0, &o)) {
				found = 1;
				cfs_obj_put(o);
			}
		}
		cfs_pg_unlock(ol->c, pool, sps);
	}
	cfs_osdmap_put(m);
	return found;
}
