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
#include "osdmap.h"

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
