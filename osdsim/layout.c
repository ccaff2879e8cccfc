/*
 * layout.c - the one rule for a file layout (stripe_unit, stripe_count,
 * object_size), used by mkfs and cluster.json (the pool's default layout),
 * objlayer's ol_layout_valid() and the layout xattrs.
 *
 * CephFS's rule (file_layout_t::is_valid, src/common/fs_types.cc, Ceph
 * 16.2; the MDS applies it in Server::handle_client_setlayout and to the
 * layout vxattrs, and answers EINVAL):
 *   - stripe_unit and object_size are non-zero multiples of 64 KiB
 *     (CEPH_MIN_STRIPE_UNIT);
 *   - object_size is a multiple of stripe_unit (so at least as large);
 *   - stripe_count is non-zero.
 * Two bounds of our own, because the simulator walks every object a file
 * can touch (a file of any size touches a whole object set, stripe_count
 * objects) and holds whole objects in files:
 *   - stripe_count <= CFS_MAX_STRIPE_COUNT (65536: fsync of a 2-byte file
 *     then walks 65536 objects, 0.28 s measured; UINT32_MAX took 10+
 *     minutes under locks).  CephFS sets no upper bound: its striper
 *     counts the objects of a file's size exactly.
 *   - object_size <= CFS_MAX_OBJECT_SIZE (1 GiB; Ceph's OSDs refuse
 *     objects over osd_max_object_size, 128 MiB by default).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "osdsim_i.h"

static int why(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int why(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (err && len) {
		va_start(ap, fmt);
		vsnprintf(err, len, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

int cfs_layout_check(uint64_t su, uint64_t sc, uint64_t os,
		     const char *const names[3], char *err, size_t errlen)
{
	static const char *const dflt[3] = { "stripe_unit", "stripe_count",
					     "object_size" };
	const char *const *n = names ? names : dflt;

	if (os == 0 || os % CFS_MIN_STRIPE_UNIT)
		return why(err, errlen,
			   "%s %llu: must be a non-zero multiple of 64 KiB "
			   "(65536)",
			   n[2], (unsigned long long)os);
	if (os > CFS_MAX_OBJECT_SIZE)
		return why(err, errlen, "%s %llu: must be at most 1 GiB",
			   n[2], (unsigned long long)os);
	if (su == 0 || su % CFS_MIN_STRIPE_UNIT)
		return why(err, errlen,
			   "%s %llu: must be a non-zero multiple of 64 KiB "
			   "(65536)",
			   n[0], (unsigned long long)su);
	if (os < su || os % su)
		return why(err, errlen, "%s %llu: must divide the object size %llu",
			   n[0], (unsigned long long)su,
			   (unsigned long long)os);
	if (sc < 1 || sc > CFS_MAX_STRIPE_COUNT)
		return why(err, errlen, "%s %llu: must be 1..%d", n[1],
			   (unsigned long long)sc, CFS_MAX_STRIPE_COUNT);
	return 0;
}
