/*
 * cluster.h - making, importing and opening a cluster directory (part of
 * osdsim.h; the directory's files are described there).
 */
#ifndef CRUSHFS_OSDSIM_CLUSTER_H
#define CRUSHFS_OSDSIM_CLUSTER_H

#include <stddef.h>
#include <stdint.h>

typedef struct cfs_cluster cfs_cluster;

/* ---- creating a cluster (cluster.c) ---- */
struct cfs_mkfs_opts {
	int nosds;		/* default 12 */
	int nhosts;		/* default 4 */
	uint64_t osd_size;	/* default 1 GiB */
	int osd_size_set;	/* osd_size given (else crush weights decide
				 * capacities with --crush-map) */
	uint32_t pg_num;	/* default 128 */
	uint32_t pgp_num;	/* 0: = pg_num */
	int size, min_size;	/* default 3 / 2; min_size 0: size - size/2 */
	uint32_t object_size;	/* default 4 MiB */
	uint32_t stripe_unit;	/* 0: = object_size */
	uint32_t stripe_count;	/* default 1 */
	const char *crush_map;	/* text map file, or NULL for the default map */
	int crush_rule;		/* -1: first replicated rule */
	int full_policy;	/* enum cfs_full_policy */
	int force;		/* replace an existing cluster */
	const char *pool_name;	/* default "crushfs_data" */
	/* `mkfs --from-ceph SNAPDIR` (import.c): a live cluster's osdmap
	 * instead of a made one; nosds, nhosts, pg_num, pgp_num, size,
	 * min_size, crush_map, crush_rule and pool_name do not apply */
	const char *from_ceph;
	const char *data_pool;	/* the pool for the filesystem (NULL: pick) */
	int prefill;		/* OSDs start with their kb_used accounted */
	char *warnings;		/* out: what was not modelled, one line */
	size_t warnlen;
	/* written as DIR/backend.json when set: which object store holds
	 * the data (objlayer reads it; absent: these OSD folders) */
	const char *backend_json;
};
void cfs_mkfs_opts_init(struct cfs_mkfs_opts *o);
/* The cluster follows a new snapshot of the live Ceph cluster it was
 * imported from (import.c): its osdmap replaces the current one when the
 * epoch moved (*changed 1), keeping the data pool and the local settings
 * (layout, full policy, prefill).  When the data pool's pg_num changed,
 * -EAGAIN unless the caller holds the PG layout exclusively (layout_held:
 * cfs_pg_layout_exclusive), since the per-PG state is then remade;
 * -EBUSY when the data pool was made again (a new id); else import's
 * errors. */
int cfs_import_refresh(cfs_cluster *c, const char *snapdir, int layout_held,
		       int *changed, char *err, size_t errlen);
/* Builds DIR.tmp-XXXXXX completely, then renames it to DIR (exchanging an
 * old cluster atomically with --force), so DIR is never half made. */
int cfs_mkfs(const char *dir, const struct cfs_mkfs_opts *o, char *err,
	     size_t errlen);

/* ---- opening ---- */
#define CFS_OPEN_RDONLY 0x1 /* shared lock, never writes anything */
int cfs_cluster_open(const char *dir, int flags, cfs_cluster **out,
		     char *err, size_t errlen);
/* Writes usage.json and drops usage.dirty (writers), closes every fd. */
void cfs_cluster_close(cfs_cluster *c);
const char *cfs_cluster_dir(const cfs_cluster *c);
int cfs_cluster_rdonly(const cfs_cluster *c);

#endif
