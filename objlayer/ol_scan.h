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
 * does (objlayer.h "scrub and repair"): copies that are absent, stale or
 * (deep) do not match their checksums are counted in `missing`; with
 * repair they are rebuilt from the authoritative copy, chosen by checksum
 * and version, then majority - never the primary by default.  size_diff
 * and content_diff stay 0 (a wrong size or wrong bytes is a bad copy).
 */
int ol_scrub_object(objlayer *ol, int64_t pool, const char *name, int deep,
		    int repair, struct ol_scrub *s);

/* 1 when some OSD holding the object's PG (any shard) has a file of it,
 * whatever its version; 0 when none has: every copy lost, or an index
 * entry of a write that never reached a copy. */
int ol_obj_has_copy(objlayer *ol, int64_t pool, const char *name);

#endif
