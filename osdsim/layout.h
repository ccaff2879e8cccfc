/*
 * layout.h - the rule every file layout follows (part of osdsim.h): a
 * pool's default layout, mkfs's, and the layout xattrs' (objlayer).
 */
#ifndef CRUSHFS_OSDSIM_LAYOUT_H
#define CRUSHFS_OSDSIM_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

/* ---- file layouts (layout.c) ---- */
#define CFS_MIN_STRIPE_UNIT 65536u	   /* CephFS CEPH_MIN_STRIPE_UNIT */
#define CFS_MAX_STRIPE_COUNT 65536	   /* ours: see layout.c */
#define CFS_MAX_OBJECT_SIZE (1ULL << 30) /* = objlayer's OL_MAX_OBJECT_SIZE */
/*
 * CephFS's file_layout_t::is_valid plus our two bounds: stripe_unit and
 * object_size non-zero multiples of 64 KiB, object_size a multiple of
 * stripe_unit and at most 1 GiB, stripe_count 1..CFS_MAX_STRIPE_COUNT.
 * 0, or -EINVAL with one line in err (if err) naming the field as names[]
 * calls them (stripe unit, count, object size; NULL: "stripe_unit"...).
 */
int cfs_layout_check(uint64_t stripe_unit, uint64_t stripe_count,
		     uint64_t object_size, const char *const names[3],
		     char *err, size_t errlen);

#endif
