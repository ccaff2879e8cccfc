/*
 * err.c - error strings for the -errno convention (STYLE.md 8): libc's
 * for errno values, our own for the reserved range (as LMDB's mdb_strerror).
 */
#include <string.h>

#include "util.h"

const char *cfs_strerror(int err)
{
	switch (err) {
	case 0:
		return "Success";
	case CFS_EBADMAP:
		return "Malformed crush map";
	case CFS_ECORRUPT:
		return "Damaged cluster files";
	case CFS_ENOCLUSTER:
		return "No cluster here";
	case CFS_ELIVE:
		return "The osdmap is a live Ceph cluster's (RADOS backend): "
		       "change it with ceph commands";
	case CFS_EUNTRUSTED:
		return "Not a socket of root's or yours: not talking to it";
	default:
		break;
	}
	if (err < 0 && err > -CFS_ERR_BASE)
		return strerror(-err);
	return "Unknown error";
}
