/*
 * ol_scan.c - replica scrubbing for fsck (see ol_scan.h).
 *
 * Why fsck needs it: a write goes to the acting OSDs one after another, so
 * a daemon killed in the middle of one leaves copies that differ.  Reads
 * use the primary, so the file looks right until that OSD goes away;
 * scrubbing makes every copy the primary's again.
 *
 * Locks as replicate.c takes them: the PG's pgio (shared), the object's
 * stripe lock (exclusive), then cfs_pg_lock for the whole check (fsck runs
 * on an unmounted cluster: nobody waits for it).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "objlayer_i.h"
#include "ol_scan.h"
#include "util.h"

#define CMP_CHUNK (1u << 20)

static int open_copy(cfs_cluster *c, int osd, uint32_t ps, const char *name,
		     cfs_obj **o)
{
	if (!cfs_pg_is_holder(c, ps, osd) ||
	    cfs_pg_is_missing(c, ps, osd, name))
		return -ENOENT;
	return cfs_obj_open(c, osd, ps, name, 0, o);
}

/* 1 when the two copies hold the same bytes, 0 if not, -errno. */
static int same_bytes(cfs_obj *a, cfs_obj *b, uint64_t size, char *ba,
		      char *bb)
{
	for (uint64_t off = 0; off < size; off += CMP_CHUNK) {
		size_t n = size - off < CMP_CHUNK ? (size_t)(size - off) :
						    CMP_CHUNK;
		ssize_t ra = cfs_obj_pread(a, ba, n, off);
		ssize_t rb = cfs_obj_pread(b, bb, n, off);

		if (ra < 0)
			return (int)ra;
		if (rb < 0)
			return (int)rb;
		if (ra != rb || memcmp(ba, bb, (size_t)ra))
			return 0;
	}
	return 1;
}

int ol_scrub_object(objlayer *ol, const char *name, int deep, int repair,
		    struct ol_scrub *s)
{
	cfs_cluster *c = ol->c;
	const cfs_osdmap *m = cfs_osdmap_get(c);
	const struct cfs_pg_mapping *pg;
	pthread_rwlock_t *lk = ol_objlock(ol, name);
	cfs_obj *auth = NULL;
	char *ba = NULL, *bb = NULL;
	uint64_t asize = 0;
	uint32_t ps;
	int r = 0;

	memset(s, 0, sizeof(*s));
	s->auth_osd = -1;
	cfs_object_to_pg(m, name, NULL, &ps);
	pg = cfs_osdmap_pg(m, ps);
	if (!pg) {
		cfs_osdmap_put(m);
		return -ENOENT;
	}
	s->nacting = pg->nacting;
	if (deep) {
		ba = malloc(CMP_CHUNK);
		bb = malloc(CMP_CHUNK);
		if (!ba || !bb) {
			free(ba);
			free(bb);
			cfs_osdmap_put(m);
			return -ENOMEM;
		}
	}
	pthread_rwlock_rdlock(&ol->pgio[ps]);
	pthread_rwlock_wrlock(lk);
	cfs_pg_lock(c, ps);

	/* the primary's copy when current, else any current one */
	if (pg->nacting > 0 && pg->acting_primary >= 0 &&
	    open_copy(c, pg->acting_primary, ps, name, &auth) == 0)
		s->auth_osd = pg->acting_primary;
	else {
		int src = ol_pick_source(ol, m, pg, name, NULL);

		if (src >= 0 && open_copy(c, src, ps, name, &auth) == 0)
			s->auth_osd = src;
	}
	if (!auth)
		goto out; /* nobody has it: a hole, or data lost for good */
	asize = cfs_obj_size(auth);

	for (int i = 0; i < pg->nacting; i++) {
		int osd = pg->acting[i], bad = 0;
		cfs_obj *o;

		if (osd < 0 || osd == s->auth_osd)
			continue;
		if (open_copy(c, osd, ps, name, &o) != 0) {
			s->missing++;
			bad = 1;
		} else {
			if (cfs_obj_size(o) != asize) {
				s->size_diff++;
				bad = 1;
			} else if (deep) {
				int same = same_bytes(auth, o, asize, ba, bb);

				if (same < 0 && !r)
					r = same;
				if (same == 0) {
					s->content_diff++;
					bad = 1;
				}
			}
			cfs_obj_put(o);
		}
		if (!bad || !repair)
			continue;
		{
			uint64_t bytes = 0;
			int e = ol_ensure_holder(ol, ps, osd);

			/* accounting only: repair must never be refused */
			if (!e)
				e = cfs_osd_reserve(c, osd, asize, UINT64_MAX);
			if (!e) {
				e = cfs_obj_copy(c, s->auth_osd, osd, ps, name,
						 &bytes);
				cfs_osd_unreserve(c, osd, asize);
			}
			if (!e)
				e = cfs_pg_clear_missing(c, ps, osd, name);
			if (e) {
				cfs_log(CFS_LOG_ERR,
					"scrub: copying '%s' from osd.%d to "
					"osd.%d failed: %s",
					name, s->auth_osd, osd,
					cfs_strerror(e));
				if (!r)
					r = e;
			} else {
				s->repaired++;
			}
		}
	}
out:
	if (auth)
		cfs_obj_put(auth);
	cfs_pg_unlock(c, ps);
	pthread_rwlock_unlock(lk);
	pthread_rwlock_unlock(&ol->pgio[ps]);
	cfs_osdmap_put(m);
	free(ba);
	free(bb);
	return r;
}
