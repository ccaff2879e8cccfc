/*
 * ol_cluster.c - what fs/ needs of the cluster under the object layer
 * (objlayer.h, "the cluster underneath"), so that fs/ includes nothing
 * of osdsim/: thin wrappers over the cluster's opening, identity and
 * check, and over one epoch's pools and PG mappings.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cluster.h"
#include "objlayer_i.h"
#include "osdmap.h"
#include "usage.h"

int ol_cluster_open(const char *dir, int rdonly, cfs_cluster **out,
		    char *err, size_t errlen)
{
	return cfs_cluster_open(dir, rdonly ? CFS_OPEN_RDONLY : 0, out, err,
				errlen);
}

void ol_cluster_close(cfs_cluster *c)
{
	cfs_cluster_close(c);
}

const char *ol_cluster_dir(const cfs_cluster *c)
{
	return cfs_cluster_dir(c);
}

void ol_cluster_fsid(cfs_cluster *c, char *buf, size_t len)
{
	const cfs_osdmap *m = cfs_osdmap_get(c);

	snprintf(buf, len, "%s", cfs_osdmap_fsid(m));
	cfs_osdmap_put(m);
}

void ol_fsid(objlayer *ol, char *buf, size_t len)
{
	ol_cluster_fsid(ol->c, buf, len);
}

int ol_cluster_check(cfs_cluster *c, struct ol_cluster_report *r,
		     void (*msg)(const char *line, void *arg), void *arg)
{
	struct cfs_check_report cr;
	int rc;

	memset(&cr, 0, sizeof(cr));
	rc = cfs_cluster_check(c, 0, &cr, msg, arg);
	r->usage_mismatches = cr.usage_mismatches;
	r->stray_files = cr.stray_files;
	r->misfiled = cr.misfiled;
	return rc;
}

const cfs_osdmap *ol_map_get(objlayer *ol)
{
	return cfs_osdmap_get(ol->c);
}

void ol_map_put(const cfs_osdmap *m)
{
	cfs_osdmap_put(m);
}

static int pool_info(const cfs_osdmap *m, const struct cfs_pool_info *pi,
		     struct ol_pool_info *p)
{
	if (!pi)
		return -ENOENT;
	memset(p, 0, sizeof(*p));
	p->id = pi->id;
	snprintf(p->name, sizeof(p->name), "%s", pi->name);
	p->min_size = pi->min_size;
	p->pg_num = pi->pg_num;
	cfs_pool_pg_temps(m, pi->id, &p->remapped);
	return 0;
}

int ol_map_pool_at(const cfs_osdmap *m, int i, struct ol_pool_info *p)
{
	if (i < 0 || i >= cfs_osdmap_npools(m))
		return -ENOENT;
	return pool_info(m, cfs_osdmap_pool_at(m, i), p);
}

int ol_map_pool(const cfs_osdmap *m, int64_t id, struct ol_pool_info *p)
{
	return pool_info(m, cfs_osdmap_pool_by_id(m, id), p);
}

int ol_map_object_pg(const cfs_osdmap *m, int64_t pool, const char *name,
		     uint32_t *ps)
{
	return cfs_pool_object_to_pg(m, pool, name, NULL, ps);
}

int ol_map_pg_nacting(const cfs_osdmap *m, int64_t pool, uint32_t ps)
{
	const struct cfs_pg_mapping *pg = cfs_osdmap_pool_pg(m, pool, ps);

	return pg ? pg->nacting : -ENOENT;
}
