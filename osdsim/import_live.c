/*
 * import_live.c - following a live Ceph cluster (the RADOS backend): the
 * snapshot taken again is imported as `mkfs --from-ceph` imports it
 * (import.c) and installed as the next epoch when it is newer, with the
 * stores of new OSDs made and the per-PG state following a pg_num change.
 * Split from import.c along this seam (issue 21 made import.c's checks
 * longer).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "osdsim_i.h"
#include "util.h"

int cfs_import_refresh(cfs_cluster *c, const char *snapdir, int layout_held,
		       int *changed, char *err, size_t errlen)
{
	const struct cfs_osdmap *cur;
	struct cfs_mkfs_opts o;
	struct cfs_osdmap *n = NULL;
	char pool[64];
	int r;

	*changed = 0;
	if (c->rdonly)
		return -EROFS;
	pthread_mutex_lock(&c->update_lock);
	cur = c->cur;
	cfs_mkfs_opts_init(&o);
	snprintf(pool, sizeof(pool), "%s", cur->pool.name);
	o.from_ceph = snapdir;
	o.data_pool = pool;
	o.object_size = cur->pool.object_size;
	o.stripe_unit = cur->pool.stripe_unit;
	o.stripe_count = cur->pool.stripe_count;
	o.full_policy = cur->full_policy;
	for (int id = 0; id < cur->max_osd; id++)
		o.prefill |= cur->osds[id].prefill != 0;
	r = import_map(&o, &n, err, errlen);
	if (r)
		goto out;
	if (n->epoch == cur->epoch) {
		osdmap_free(n);
		goto out;
	}
	if (n->pool.id != c->pool_id) {
		snprintf(err, errlen,
			 "pool '%s' was deleted and made again on the live "
			 "cluster (id %lld -> %lld): the filesystem's objects "
			 "went with the old one", pool, (long long)c->pool_id,
			 (long long)n->pool.id);
		osdmap_free(n);
		r = -EBUSY;
		goto out;
	}
	if (n->pool.pg_num != cur->pool.pg_num && !layout_held) {
		osdmap_free(n);
		r = -EAGAIN;
		goto out;
	}
	/* an OSD new to the cluster gets its (empty) store folder */
	for (int id = 0; id < n->max_osd && !r; id++) {
		struct osd_store *s;

		if (!n->osds[id].exists || store_get(c, id))
			continue;
		r = osd_store_create(c->dir, id, n->osds[id].uuid);
		if (!r)
			r = store_open(c, id, &s);
	}
	if (!r)
		r = osdmap_persist(c->dir, n);
	if (r) {
		snprintf(err, errlen, "%s: cannot keep the new osdmap: %s",
			 c->dir, cfs_strerror(r));
		osdmap_free(n);
		goto out;
	}
	for (int id = 0; id < n->max_osd; id++) {
		struct osd_store *s = n->osds[id].exists ? store_get(c, id)
							 : NULL;

		if (s) {
			pthread_mutex_lock(&s->lock);
			s->prefill = n->osds[id].prefill;
			pthread_mutex_unlock(&s->lock);
		}
	}
	/* a pg_num change (Ceph splits or merges the PGs itself; the
	 * objects are RADOS's, none is local): the per-PG state follows */
	if (n->pool.pg_num != cur->pool.pg_num) {
		r = pgstate_reload(c, n->pool.id, n->pool.pg_num, err, errlen);
		if (r) {
			c->rdonly = 1;
			if (!*err)
				snprintf(err, errlen, "following pg_num %u: %s",
					 n->pool.pg_num, cfs_strerror(r));
			osdmap_free(n);
			goto out;
		}
	}
	osdmap_install(c, n);
	*changed = 1;
out:
	pthread_mutex_unlock(&c->update_lock);
	return r;
}
