/*
 * cluster_fixture.h - a throwaway cluster for the osdsim/objlayer unit
 * tests: mkfs into a fresh temporary directory, open it, and remove it all
 * afterwards.  Header-only, included by one test file each.
 */
#ifndef CRUSHFS_CLUSTER_FIXTURE_H
#define CRUSHFS_CLUSTER_FIXTURE_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "objlayer.h"
#include "osdsim.h"
#include "placement.h"
#include "util.h"

struct fixture {
	char root[256];	 /* the temporary directory */
	char dir[300];	 /* the cluster in it */
	cfs_cluster *c;
	objlayer *ol;
};

static inline void fx_open(struct fixture *f)
{
	char err[512] = "";

	assert_int_equal(cfs_cluster_open(f->dir, 0, &f->c, err, sizeof(err)),
			 0);
	assert_int_equal(ol_open(f->c, &f->ol), 0);
}

static inline void fx_close(struct fixture *f)
{
	ol_close(f->ol);
	cfs_cluster_close(f->c);
	f->ol = NULL;
	f->c = NULL;
}

/* mkfs with o (NULL: defaults, 64 MiB OSDs, 32 PGs) and open. */
static inline struct fixture *fx_new(const struct cfs_mkfs_opts *o)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct cfs_mkfs_opts d;
	char err[512] = "";

	assert_non_null(f);
	snprintf(f->root, sizeof(f->root), "/tmp/crushfs-unit.XXXXXX");
	assert_non_null(mkdtemp(f->root));
	snprintf(f->dir, sizeof(f->dir), "%s/cl", f->root);
	if (!o) {
		cfs_mkfs_opts_init(&d);
		d.osd_size = 64ULL << 20;
		d.pg_num = 32;
		o = &d;
	}
	if (cfs_mkfs(f->dir, o, err, sizeof(err)))
		fail_msg("mkfs: %s", err);
	fx_open(f);
	return f;
}

static inline void fx_free(struct fixture *f)
{
	if (f->c)
		fx_close(f);
	cfs_rmtree(f->root);
	free(f);
}

/* A cfs_index_foreach callback noting the first 8 names and sizes. */
struct fx_seen {
	char names[8][64];
	uint64_t size[8];
	int n;
};

static inline int fx_see(const char *name, const struct cfs_objinfo *oi,
			 int op, void *arg)
{
	struct fx_seen *s = arg;

	(void)op;
	if (s->n < 8) {
		snprintf(s->names[s->n], sizeof(s->names[0]), "%s", name);
		s->size[s->n++] = oi->size;
	}
	return 0;
}

/* Fill buf with a pattern depending on seed. */
static inline void fx_pattern(void *buf, size_t len, unsigned seed)
{
	unsigned char *p = buf;
	uint32_t x = seed * 2654435761u + 1;

	for (size_t i = 0; i < len; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		p[i] = (unsigned char)x;
	}
}

/* The acting set of an object in the current map. */
static inline void fx_acting(struct fixture *f, const char *name, int *osds,
			     int *n, uint32_t *ps)
{
	const cfs_osdmap *m = cfs_osdmap_get(f->c);
	const struct cfs_pg_mapping *pg;
	uint32_t p;

	cfs_object_to_pg(m, name, NULL, &p);
	pg = cfs_osdmap_pg(m, p);
	*n = pg->nacting;
	memcpy(osds, pg->acting, sizeof(int) * (size_t)pg->nacting);
	if (ps)
		*ps = p;
	cfs_osdmap_put(m);
}

/* The PG's up set: where CRUSH puts it, and where backfill moves its data
 * (acting keeps to the OSDs holding it meanwhile, a pg_temp). */
static inline void fx_up(struct fixture *f, const char *name, int *osds,
			 int *n)
{
	const cfs_osdmap *m = cfs_osdmap_get(f->c);
	const struct cfs_pg_mapping *pg;
	uint32_t p;

	cfs_object_to_pg(m, name, NULL, &p);
	pg = cfs_osdmap_pg(m, p);
	*n = pg->nup;
	memcpy(osds, pg->up, sizeof(int) * (size_t)pg->nup);
	cfs_osdmap_put(m);
}

/* Every OSD's accounting equals a scan of its folder (cfs_cluster_check,
 * which `crushfs check` runs). */
static inline void fx_usage_msg(const char *line, void *arg)
{
	char *first = arg;

	if (!first[0] && strstr(line, "usage accounted"))
		snprintf(first, 512, "%s", line);
}

static inline void fx_assert_usage_exact(struct fixture *f)
{
	struct cfs_check_report rep;
	char first[512] = "";

	assert_int_equal(cfs_cluster_check(f->c, 0, &rep, fx_usage_msg, first),
			 0);
	if (rep.usage_mismatches)
		fail_msg("%d OSD(s) accounted differ from the disk: %s",
			 rep.usage_mismatches, first);
}

/* An erasure pool "ecp" (profile p21: k=2 m=1, host failure domain,
 * rule ec21 indep), 8 PGs, allow_ec_overwrites set; its id.  Checks on
 * the way that partial writes need allow_ec_overwrites. */
static inline int64_t fx_make_ec_pool(struct fixture *f)
{
	const cfs_osdmap *m = cfs_osdmap_get(f->c);
	struct cfs_pool_info want = *cfs_osdmap_pool(m);
	const char *keys[] = { "k", "m", "crush-failure-domain" };
	const char *vals[] = { "2", "1", "host" };
	char *text, *nt, why[256] = "", perr[256] = "";
	size_t len;
	pl_map *nm;
	int64_t id;

	assert_int_equal(pl_map_to_text(cfs_osdmap_crush(m), &text, &len), 0);
	cfs_osdmap_put(m);
	nt = malloc(len + 512);
	assert_non_null(nt);
	snprintf(nt, len + 512, "%s\nrule ec21 {\n\tid 1\n\ttype erasure\n"
		 "\tmin_size 1\n\tmax_size 10\n"
		 "\tstep set_chooseleaf_tries 5\n\tstep set_choose_tries "
		 "100\n\tstep take default\n\tstep chooseleaf indep 0 type "
		 "host\n\tstep emit\n}\n", text);
	free(text);
	if (pl_parse_text(nt, strlen(nt), "map", &nm, perr, sizeof(perr)))
		fail_msg("the map with the rule: %s", perr);
	free(nt);
	assert_int_equal(cfs_osd_setcrushmap(f->c, nm, why, sizeof(why)), 0);
	assert_int_equal(cfs_ec_profile_set(f->c, "p21", keys, vals, 3, 0,
					    why, sizeof(why)), 0);
	snprintf(want.name, sizeof(want.name), "ecp");
	want.erasure = 1;
	snprintf(want.ec_profile, sizeof(want.ec_profile), "p21");
	want.size = 3;
	want.min_size = 2;
	want.pg_num = want.pgp_num = 8;
	want.crush_rule = 1;
	if (cfs_pool_create(f->c, &want, &id, why, sizeof(why)))
		fail_msg("EC pool: %s", why);
	/* partial writes need Ceph's allow_ec_overwrites */
	assert_int_equal(ol_obj_write_full(f->ol, id, "w", "abcd", 4), 0);
	assert_int_equal(ol_obj_write(f->ol, id, "w", 1, "x", 1),
			 -EOPNOTSUPP);
	assert_int_equal(ol_obj_remove(f->ol, id, "w"), 0);
	m = cfs_osdmap_get(f->c);
	want = *cfs_osdmap_pool_by_id(m, id);
	cfs_osdmap_put(m);
	want.ec_overwrites = 1;
	if (cfs_pool_update(f->c, &want, why, sizeof(why)))
		fail_msg("allow_ec_overwrites: %s", why);
	return id;
}

#endif
