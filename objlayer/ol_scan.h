/*
 * ol_scan.h - replica scrubbing for `crushfs fsck` (objlayer/ol_scan.c).
 * Kept apart from objlayer.h: an addition of the filesystem check, on the
 * object layer's internals.
 */
#ifndef CRUSHFS_OL_SCAN_H
#define CRUSHFS_OL_SCAN_H

#include "objlayer.h"

struct ol_scrub {
	int nacting;	  /* acting OSDs of the object's PG */
	int auth_osd;	  /* the copy taken as right, -1 if none */
	int missing;	  /* acting OSDs without a (current) copy */
	int size_diff;	  /* copies whose size differs from auth */
	int content_diff; /* copies whose bytes differ (deep) */
	int repaired;	  /* copies rewritten from auth */
};

/*
 * Compare the copies of `name` on its PG's acting set, as Ceph's scrub
 * does: the authoritative copy is the primary's when it is current, else
 * the first acting (then up) OSD holding a current one.  Copies that are
 * absent, marked missing, of another size, or (deep) of other bytes are
 * counted; with repair they are replaced by a copy of the authoritative
 * one (written to a temporary file, verified, renamed: cfs_obj_copy).
 * An object no OSD holds is a hole: nothing to do.
 */
int ol_scrub_object(objlayer *ol, const char *name, int deep, int repair,
		    struct ol_scrub *s);

#endif
