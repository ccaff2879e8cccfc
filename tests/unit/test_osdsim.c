/*
 * test_osdsim.c - the cluster directory and the osdmap: mkfs (and its
 * refusals), epochs persisted across reopen, the PG table's Ceph semantics
 * (CRUSH with reweights, down OSDs removed, primary affinity), pasted crush
 * maps, osd add, the lock, and a live map swap.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "cluster_fixture.h"
#include "placement.h"

static void test_mkfs_layout(void **state)
{
	struct fixture *f = fx_new(NULL);
	const cfs_osdmap *m = cfs_osdmap_get(f->c);
	const struct cfs_pool_info *p = cfs_osdmap_pool(m);
	char path[512], *text;
	struct cfs_osd_info oi;

	(void)state;
	assert_int_equal(cfs_osdmap_epoch(m), 1);
	assert_int_equal(strlen(cfs_osdmap_fsid(m)), 36);
	assert_int_equal(p->size, 3);
	assert_int_equal(p->min_size, 2);
	assert_int_equal(p->pg_num, 32);
	assert_int_equal(p->object_size, 4 << 20);
	assert_int_equal(cfs_osdmap_max_osd(m), 12);
	assert_int_equal(cfs_osdmap_osd(m, 5, &oi), 0);
	assert_int_equal(oi.capacity, 64 << 20);
	assert_string_equal(oi.host, "host1");
	assert_true(oi.up);
	assert_int_equal(oi.reweight, CFS_WEIGHT_ONE);
	assert_true(oi.crush_weight > 0);
	assert_true(cfs_osdmap_full_ratio(m) == 0.95);
	assert_true(cfs_osdmap_backfillfull_ratio(m) == 0.90);
	assert_true(cfs_osdmap_nearfull_ratio(m) == 0.85);
	assert_int_equal(cfs_osdmap_osd(m, 12, &oi), -ENOENT);
	cfs_osdmap_put(m);
	for (int i = 0; i < 12; i++) {
		snprintf(path, sizeof(path), "%s/osd.%d/whoami", f->dir, i);
		assert_int_equal(cfs_read_file(path, &text, NULL), 0);
		assert_int_equal(atoi(text), i);
		free(text);
		snprintf(path, sizeof(path), "%s/osd.%d/current", f->dir, i);
		assert_int_equal(access(path, F_OK), 0);
	}
	snprintf(path, sizeof(path), "%s/crushmap.txt", f->dir);
	assert_int_equal(cfs_read_file(path, &text, NULL), 0);
	assert_non_null(strstr(text, "step chooseleaf firstn 0 type host"));
	free(text);
	fx_free(f);
}

static void test_mkfs_refuses(void **state)
{
	struct fixture *f = fx_new(NULL);
	struct cfs_mkfs_opts o;
	char err[512], path[512], fsid[40];
	const cfs_osdmap *m;
	int fd;

	(void)state;
	cfs_mkfs_opts_init(&o);
	o.osd_size = 64 << 20;
	/* an existing cluster needs --force */
	assert_int_equal(cfs_mkfs(f->dir, &o, err, sizeof(err)), -EEXIST);
	assert_non_null(strstr(err, "--force"));
	/* --force while it is open (locked): refused */
	o.force = 1;
	assert_int_equal(cfs_mkfs(f->dir, &o, err, sizeof(err)), -EBUSY);
	m = cfs_osdmap_get(f->c);
	snprintf(fsid, sizeof(fsid), "%s", cfs_osdmap_fsid(m));
	cfs_osdmap_put(m);
	fx_close(f);
	assert_int_equal(cfs_mkfs(f->dir, &o, err, sizeof(err)), 0);
	fx_open(f);
	m = cfs_osdmap_get(f->c);
	assert_string_not_equal(fsid, cfs_osdmap_fsid(m));
	cfs_osdmap_put(m);
	/* a non-empty directory that is not a cluster: never touched */
	snprintf(path, sizeof(path), "%s/other", f->root);
	mkdir(path, 0755);
	snprintf(err, sizeof(err), "%s/other/precious", f->root);
	fd = open(err, O_CREAT | O_WRONLY, 0644);
	close(fd);
	assert_int_equal(cfs_mkfs(path, &o, err, sizeof(err)), -ENOTEMPTY);
	/* bad options: nothing is created */
	snprintf(path, sizeof(path), "%s/bad", f->root);
	o.force = 0;
	o.min_size = 4;
	assert_int_equal(cfs_mkfs(path, &o, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--min-size"));
	assert_int_not_equal(access(path, F_OK), 0);
	fx_free(f);
}

static void test_epoch_persists(void **state)
{
	struct fixture *f = fx_new(NULL);
	const cfs_osdmap *m;
	struct cfs_osd_info oi;
	struct cfs_pg_mapping before[32];

	(void)state;
	assert_int_equal(cfs_osd_mark_out(f->c, 3), 0);
	assert_int_equal(cfs_osd_mark_down(f->c, 7), 0);
	assert_int_equal(cfs_osd_reweight(f->c, 1, 0x8000), 0);
	assert_int_equal(cfs_osd_crush_reweight(f->c, 2, 0x20000), 0);
	assert_int_equal(cfs_osd_set_capacity(f->c, 4, 10 << 20), 0);
	assert_int_equal(cfs_osd_primary_affinity(f->c, 5, 0), 0);
	assert_int_equal(cfs_set_full_ratio(f->c, 0.9), 0);
	assert_int_equal(cfs_set_nearfull_ratio(f->c, 0.5), 0);
	assert_int_equal(cfs_set_full_policy(f->c, CFS_FULL_POOL), 0);
	assert_int_equal(cfs_osd_mark_out(f->c, 99), -ENOENT);
	assert_int_equal(cfs_osd_reweight(f->c, 1, 0x10001), -EINVAL);
	assert_int_equal(cfs_set_full_ratio(f->c, 1.5), -EINVAL);
	m = cfs_osdmap_get(f->c);
	assert_int_equal(cfs_osdmap_epoch(m), 10);
	for (uint32_t ps = 0; ps < 32; ps++)
		before[ps] = *cfs_osdmap_pg(m, ps);
	cfs_osdmap_put(m);

	fx_close(f);
	fx_open(f);
	m = cfs_osdmap_get(f->c);
	assert_int_equal(cfs_osdmap_epoch(m), 10);
	assert_false(cfs_osdmap_is_in(m, 3));
	assert_false(cfs_osdmap_is_up(m, 7));
	cfs_osdmap_osd(m, 1, &oi);
	assert_int_equal(oi.reweight, 0x8000);
	cfs_osdmap_osd(m, 2, &oi);
	assert_int_equal(oi.crush_weight, 0x20000);
	cfs_osdmap_osd(m, 4, &oi);
	assert_int_equal(oi.capacity, 10 << 20);
	cfs_osdmap_osd(m, 5, &oi);
	assert_int_equal(oi.primary_affinity, 0);
	assert_true(cfs_osdmap_full_ratio(m) == 0.9);
	assert_true(cfs_osdmap_nearfull_ratio(m) == 0.5);
	assert_int_equal(cfs_osdmap_full_policy(m), CFS_FULL_POOL);
	/* the restart maps every PG exactly as the live map did */
	for (uint32_t ps = 0; ps < 32; ps++)
		assert_memory_equal(&before[ps], cfs_osdmap_pg(m, ps),
				    sizeof(before[ps]));
	cfs_osdmap_put(m);
	fx_free(f);
}

/* The table follows OSDMap::_pg_to_up_acting_osds. */
static void test_pg_table_semantics(void **state)
{
	struct fixture *f = fx_new(NULL);
	const cfs_osdmap *m = cfs_osdmap_get(f->c);
	const pl_map *cm = cfs_osdmap_crush(m);
	uint32_t w[12];
	void *work = malloc(pl_work_size(cm, 3));
	int raw[3], n;

	(void)state;
	for (int i = 0; i < 12; i++)
		w[i] = 0x10000;
	assert_int_equal(pl_work_init(cm, work, 3), 0);
	for (uint32_t ps = 0; ps < 32; ps++) {
		const struct cfs_pg_mapping *pg = cfs_osdmap_pg(m, ps);

		n = pl_do_rule(cm, 0, (int)pl_pg_pps(ps, 32, 1), raw, 3, w, 12,
			       work);
		assert_int_equal(n, 3);
		assert_int_equal(pg->nup, 3);
		assert_memory_equal(pg->up, raw, sizeof(raw));
		assert_memory_equal(pg->acting, raw, sizeof(raw));
		assert_int_equal(pg->up_primary, raw[0]);
	}
	cfs_osdmap_put(m);

	/* down: removed from up, order kept, no remap */
	assert_int_equal(cfs_osd_mark_down(f->c, 0), 0);
	m = cfs_osdmap_get(f->c);
	cm = cfs_osdmap_crush(m);
	/* a workspace belongs to one map (the new epoch has its own) */
	assert_int_equal(pl_do_rule(cm, 0, 1, raw, 3, w, 12, work), 0);
	free(work);
	work = malloc(pl_work_size(cm, 3));
	assert_non_null(work);
	assert_int_equal(pl_work_init(cm, work, 3), 0);
	for (uint32_t ps = 0; ps < 32; ps++) {
		const struct cfs_pg_mapping *pg = cfs_osdmap_pg(m, ps);
		int k = 0;

		n = pl_do_rule(cm, 0, (int)pl_pg_pps(ps, 32, 1), raw, 3, w, 12,
			       work);
		for (int i = 0; i < n; i++)
			if (raw[i] != 0)
				assert_int_equal(pg->up[k++], raw[i]);
		assert_int_equal(pg->nup, k);
	}
	cfs_osdmap_put(m);

	/* out: CRUSH maps around it */
	assert_int_equal(cfs_osd_mark_up(f->c, 0), 0);
	assert_int_equal(cfs_osd_mark_out(f->c, 0), 0);
	m = cfs_osdmap_get(f->c);
	for (uint32_t ps = 0; ps < 32; ps++) {
		const struct cfs_pg_mapping *pg = cfs_osdmap_pg(m, ps);

		assert_int_equal(pg->nup, 3);
		for (int i = 0; i < 3; i++)
			assert_int_not_equal(pg->up[i], 0);
	}
	cfs_osdmap_put(m);

	/* primary affinity 0: never primary while another OSD is there,
	 * and moved to the front of the set is someone else */
	assert_int_equal(cfs_osd_mark_in(f->c, 0), 0);
	assert_int_equal(cfs_osd_primary_affinity(f->c, 0, 0), 0);
	m = cfs_osdmap_get(f->c);
	for (uint32_t ps = 0; ps < 32; ps++) {
		const struct cfs_pg_mapping *pg = cfs_osdmap_pg(m, ps);
		int has0 = 0;

		for (int i = 0; i < pg->nup; i++)
			has0 |= pg->up[i] == 0;
		assert_int_not_equal(pg->up_primary, 0);
		assert_int_equal(pg->up[0], pg->up_primary);
		assert_int_equal(pg->acting_primary, pg->up_primary);
		if (has0)
			assert_int_equal(pg->nup, 3);
	}
	cfs_osdmap_put(m);
	free(work);
	fx_free(f);
}

static void test_object_to_pg(void **state)
{
	struct fixture *f = fx_new(NULL);
	const cfs_osdmap *m = cfs_osdmap_get(f->c);
	uint32_t raw, ps, back;
	char pgid[32];

	(void)state;
	cfs_object_to_pg(m, "10000000000.00000000", &raw, &ps);
	assert_int_equal(raw, pl_str_hash("10000000000.00000000", 20));
	assert_int_equal(ps, pl_pg_seed(raw, 32));
	cfs_pgid_str(m, ps, pgid, sizeof(pgid));
	assert_int_equal(cfs_pgid_parse(m, pgid, &back), 0);
	assert_int_equal(back, ps);
	assert_int_equal(cfs_pgid_parse(m, "1.20", &back), -ENOENT);
	assert_int_equal(cfs_pgid_parse(m, "2.1", &back), -ENOENT);
	assert_int_equal(cfs_pgid_parse(m, "x", &back), -EINVAL);
	cfs_osdmap_put(m);
	fx_free(f);
}

static void test_crush_map_file(void **state)
{
	struct fixture *f = fx_new(NULL);
	struct cfs_mkfs_opts o;
	char map[512], dir[512], err[512];
	const char *text =
		"device 0 osd.0\ndevice 1 osd.1\ndevice 2 osd.2\n"
		"device 3 osd.3\n"
		"type 0 osd\ntype 1 host\ntype 2 root\n"
		"host a {\n\tid -2\n\talg straw2\n\thash 0\n"
		"\titem osd.0 weight 1.000\n\titem osd.1 weight 2.000\n}\n"
		"host b {\n\tid -3\n\talg straw2\n\thash 0\n"
		"\titem osd.2 weight 1.000\n\titem osd.3 weight 1.000\n}\n"
		"root default {\n\tid -1\n\talg straw2\n\thash 0\n"
		"\titem a weight 3.000\n\titem b weight 2.000\n}\n"
		"rule replicated_rule {\n\tid 0\n\ttype replicated\n"
		"\tmin_size 1\n\tmax_size 10\n\tstep take default\n"
		"\tstep chooseleaf firstn 0 type host\n\tstep emit\n}\n";
	cfs_cluster *c;
	const cfs_osdmap *m;
	struct cfs_osd_info oi;
	FILE *fp;

	(void)state;
	snprintf(map, sizeof(map), "%s/map.txt", f->root);
	fp = fopen(map, "w");
	fputs(text, fp);
	fclose(fp);
	cfs_mkfs_opts_init(&o);
	o.crush_map = map;
	o.size = 2;
	o.pg_num = 16;
	snprintf(dir, sizeof(dir), "%s/pasted", f->root);
	assert_int_equal(cfs_mkfs(dir, &o, err, sizeof(err)), 0);
	assert_int_equal(cfs_cluster_open(dir, 0, &c, err, sizeof(err)), 0);
	m = cfs_osdmap_get(c);
	assert_int_equal(cfs_osdmap_max_osd(m), 4);
	cfs_osdmap_osd(m, 1, &oi);
	assert_int_equal(oi.crush_weight, 0x20000);
	assert_int_equal(oi.capacity, 2ULL << 40); /* weight in TiB */
	assert_string_equal(oi.host, "a");
	for (uint32_t ps = 0; ps < 16; ps++)
		assert_int_equal(cfs_osdmap_pg(m, ps)->nacting, 2);
	cfs_osdmap_put(m);
	/* osd add on a new host, under the root */
	{
		int id;

		assert_int_equal(cfs_osd_add(c, "c", 1ULL << 40, &id), 0);
		assert_int_equal(id, 4);
		m = cfs_osdmap_get(c);
		cfs_osdmap_osd(m, 4, &oi);
		assert_string_equal(oi.host, "c");
		assert_int_equal(oi.crush_weight, 0x10000);
		assert_int_equal(cfs_osdmap_epoch(m), 2);
		cfs_osdmap_put(m);
	}
	cfs_cluster_close(c);

	/* a malformed map: file:line:col, nothing created */
	fp = fopen(map, "w");
	fputs("device 0 osd.0\nhost a {\n\tid -2\n\talg straw2\n\titem nosuch "
	      "weight 1.0\n}\n",
	      fp);
	fclose(fp);
	snprintf(dir, sizeof(dir), "%s/broken", f->root);
	assert_int_equal(cfs_mkfs(dir, &o, err, sizeof(err)), CFS_EBADMAP);
	assert_non_null(strstr(err, "map.txt:"));
	assert_int_not_equal(access(dir, F_OK), 0);
	fx_free(f);
}

static void test_lock(void **state)
{
	struct fixture *f = fx_new(NULL);
	cfs_cluster *c2;
	char err[512];

	(void)state;
	setenv("CRUSHFS_LOCK_WAIT_MS", "200", 1);
	/* a second writer (or reader) waits, then gives up */
	assert_int_equal(cfs_cluster_open(f->dir, 0, &c2, err, sizeof(err)),
			 -EBUSY);
	assert_non_null(strstr(err, "in use"));
	assert_int_equal(cfs_cluster_open(f->dir, CFS_OPEN_RDONLY, &c2, err,
					  sizeof(err)),
			 -EBUSY);
	fx_close(f);
	/* readers share */
	{
		cfs_cluster *r1, *r2;

		assert_int_equal(cfs_cluster_open(f->dir, CFS_OPEN_RDONLY, &r1,
						  err, sizeof(err)),
				 0);
		assert_int_equal(cfs_cluster_open(f->dir, CFS_OPEN_RDONLY, &r2,
						  err, sizeof(err)),
				 0);
		assert_int_equal(cfs_osd_mark_out(r1, 1), -EROFS);
		cfs_cluster_close(r1);
		cfs_cluster_close(r2);
	}
	/* no cluster: a clear error */
	{
		char nd[512];

		snprintf(nd, sizeof(nd), "%s/nothing", f->root);
		assert_int_equal(cfs_cluster_open(nd, 0, &c2, err, sizeof(err)),
				 CFS_ENOCLUSTER);
		assert_non_null(strstr(err, "no cluster at"));
	}
	fx_open(f);
	fx_free(f);
}

/* A map held by a reader stays valid while a change installs a new one. */
static void test_live_swap(void **state)
{
	struct fixture *f = fx_new(NULL);
	const cfs_osdmap *old = cfs_osdmap_get(f->c), *now;

	(void)state;
	assert_int_equal(cfs_osd_mark_out(f->c, 2), 0);
	now = cfs_osdmap_get(f->c);
	assert_int_equal(cfs_osdmap_epoch(old), 1);
	assert_int_equal(cfs_osdmap_epoch(now), 2);
	assert_true(cfs_osdmap_is_in(old, 2));
	assert_false(cfs_osdmap_is_in(now, 2));
	cfs_osdmap_put(old);
	cfs_osdmap_put(now);
	fx_free(f);
}

static void test_corrupt_cluster_json(void **state)
{
	struct fixture *f = fx_new(NULL);
	char path[512], err[512];
	cfs_cluster *c;
	FILE *fp;

	(void)state;
	fx_close(f);
	snprintf(path, sizeof(path), "%s/cluster.json", f->dir);
	fp = fopen(path, "w");
	fputs("{\"fsid\": 3,\n", fp);
	fclose(fp);
	assert_int_equal(cfs_cluster_open(f->dir, 0, &c, err, sizeof(err)),
			 CFS_ECORRUPT);
	assert_non_null(strstr(err, "cluster.json:"));

	/* fuzz_cluster_json: jansson quotes the text near a syntax error,
	 * raw newline included; the error must stay one line */
	fp = fopen(path, "w");
	fputs("{\"crush_map\": \"# begin crush map\\\ndevice 0 osd.0\"}\n",
	      fp);
	fclose(fp);
	assert_int_equal(cfs_cluster_open(f->dir, 0, &c, err, sizeof(err)),
			 CFS_ECORRUPT);
	assert_non_null(strstr(err, "cluster.json:2:0: "));
	assert_non_null(strstr(err, "invalid escape near "
				    "'\"# begin crush map\\\\n'"));
	assert_null(strchr(err, '\n'));
	fx_free(f);
}

/* Size -> crush weight: TiB in 16.16, as a Ceph OSD sets it at first boot;
 * no overflow at 256 TiB (it used to give 512 TiB the weight 0.00099);
 * over 100 (TiB) refused, the device weight crush map text allows. */
static void test_size_crush_weight(void **state)
{
	static const struct {
		uint64_t bytes;
		int r;
		uint32_t w;
	} c[] = {
		{ 0, 0, 65 },		    /* at least 0.001 */
		{ 64ULL << 20, 0, 65 },
		{ 1ULL << 30, 0, 65 },	    /* 64: below 0.001 */
		{ 2ULL << 30, 0, 128 },
		{ 64ULL << 30, 0, 0x1000 },
		{ 1ULL << 40, 0, 0x10000 }, /* 1 TiB: weight 1 */
		{ 3ULL << 39, 0, 0x18000 }, /* 1.5 TiB */
		{ 100ULL << 40, 0, 100u << 16 },
		{ (100ULL << 40) + (1ULL << 24) - 1, 0, 100u << 16 },
		{ (100ULL << 40) + (1ULL << 24), -ERANGE, 0 },
		{ 255ULL << 40, -ERANGE, 0 },
		{ 256ULL << 40, -ERANGE, 0 }, /* the old overflow point */
		{ 512ULL << 40, -ERANGE, 0 },
		{ 1ULL << 50, -ERANGE, 0 },
		{ 1ULL << 60, -ERANGE, 0 },
		{ UINT64_MAX, -ERANGE, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		uint32_t w = 12345;
		int r = cfs_size_crush_weight(c[i].bytes, &w);

		if (r != c[i].r || (r == 0 && w != c[i].w))
			fail_msg("%llu bytes: %d weight %u, want %d weight %u",
				 (unsigned long long)c[i].bytes, r, w, c[i].r,
				 c[i].w);
	}
}

/* osd add and mkfs take their weights from that one helper. */
static void test_osd_add_weights(void **state)
{
	struct fixture *f = fx_new(NULL);
	struct cfs_mkfs_opts o;
	struct cfs_osd_info oi;
	const cfs_osdmap *m;
	char err[512], path[512];
	uint32_t e0;
	int id;

	(void)state;
	assert_int_equal(cfs_osd_add(f->c, "big", 64ULL << 40, &id), 0);
	m = cfs_osdmap_get(f->c);
	assert_int_equal(cfs_osdmap_osd(m, id, &oi), 0);
	assert_int_equal(oi.crush_weight, 64u << 16);
	assert_int_equal(oi.capacity, 64ULL << 40);
	e0 = cfs_osdmap_epoch(m);
	cfs_osdmap_put(m);
	assert_int_equal(cfs_osd_add(f->c, "big", 100ULL << 40, &id), 0);
	m = cfs_osdmap_get(f->c);
	assert_int_equal(cfs_osdmap_osd(m, id, &oi), 0);
	assert_int_equal(oi.crush_weight, 100u << 16);
	cfs_osdmap_put(m);
	/* 512 TiB and more: refused, the map unchanged */
	assert_int_equal(cfs_osd_add(f->c, "big", 512ULL << 40, &id), -ERANGE);
	assert_int_equal(cfs_osd_add(f->c, "big", 1ULL << 50, &id), -ERANGE);
	m = cfs_osdmap_get(f->c);
	assert_int_equal(cfs_osdmap_epoch(m), e0 + 1);
	cfs_osdmap_put(m);
	/* after a reopen (the map read back from its text) still 64 */
	fx_close(f);
	fx_open(f);
	m = cfs_osdmap_get(f->c);
	assert_int_equal(cfs_osdmap_osd(m, 12, &oi), 0);
	assert_int_equal(oi.crush_weight, 64u << 16);
	cfs_osdmap_put(m);

	cfs_mkfs_opts_init(&o);
	snprintf(path, sizeof(path), "%s/big", f->root);
	o.osd_size = 512ULL << 40;
	assert_int_equal(cfs_mkfs(path, &o, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--osd-size 512 TiB"));
	assert_int_not_equal(access(path, F_OK), 0);
	fx_free(f);
}

/* The pool's layout: CephFS's rule (64 KiB multiples, object size a
 * multiple of the unit) and our bounds, at mkfs and in cluster.json. */
/* Pools beside the data pool (pools.c): created with the monitor's
 * checks, placed by CRUSH with the pool's own id, kept across a reopen,
 * changed (pg_num too), removed - never the data pool - and ids never
 * reused. */
static void test_more_pools(void **state)
{
	struct fixture *f = fx_new(NULL);
	struct cfs_pool_info want = { 0 };
	const struct cfs_pool_info *p;
	const cfs_osdmap *m;
	char why[256];
	int64_t id = 0, id2 = 0;
	int raw[3], n;
	void *work;

	(void)state;
	snprintf(want.name, sizeof(want.name), "rbd");
	want.size = 3;
	want.min_size = 2;
	want.pg_num = want.pgp_num = 16;
	want.crush_rule = 0;
	assert_int_equal(cfs_pool_create(f->c, &want, &id, why, sizeof(why)),
			 0);
	assert_int_equal(id, 2);
	assert_int_equal(cfs_pool_create(f->c, &want, &id2, why, sizeof(why)),
			 -EEXIST);
	/* an erasure pool needs an erasure rule */
	snprintf(want.name, sizeof(want.name), "ec");
	want.erasure = 1;
	snprintf(want.ec_profile, sizeof(want.ec_profile), "default");
	assert_int_equal(cfs_pool_create(f->c, &want, &id2, why, sizeof(why)),
			 -EINVAL);
	assert_non_null(strstr(why, "is not an erasure rule"));
	want.erasure = 0;
	want.pg_num = want.pgp_num = 8192; /* 250 PGs per OSD at most */
	assert_int_equal(cfs_pool_create(f->c, &want, &id2, why, sizeof(why)),
			 -ERANGE);
	assert_non_null(strstr(why, "mon_max_pg_per_osd 250"));

	/* kept in cluster.json */
	fx_close(f);
	fx_open(f);
	m = cfs_osdmap_get(f->c);
	assert_int_equal(cfs_osdmap_npools(m), 2);
	p = cfs_osdmap_pool_by_name(m, "rbd");
	assert_non_null(p);
	assert_ptr_equal(cfs_osdmap_pool_by_id(m, 2), p);
	assert_int_equal(p->pg_num, 16);
	/* each PG: CRUSH on the pool's own placement seed */
	work = malloc(pl_work_size(cfs_osdmap_crush(m), 3));
	assert_non_null(work);
	assert_int_equal(pl_work_init(cfs_osdmap_crush(m), work, 3), 0);
	for (uint32_t ps = 0; ps < 16; ps++) {
		const struct cfs_pg_mapping *pg = cfs_osdmap_pool_pg(m, 2, ps);
		uint32_t w[12];

		for (int i = 0; i < 12; i++)
			w[i] = CFS_WEIGHT_ONE;
		n = pl_do_rule(cfs_osdmap_crush(m), 0,
			       (int)pl_pg_pps(ps, 16, 2), raw, 3, w, 12, work);
		assert_non_null(pg);
		assert_int_equal(pg->nup, n);
		assert_memory_equal(pg->up, raw, sizeof(int) * (size_t)n);
	}
	assert_null(cfs_osdmap_pool_pg(m, 2, 16));
	assert_null(cfs_osdmap_pool_pg(m, 7, 0));
	free(work);
	want = *p;
	cfs_osdmap_put(m);

	want.pg_num = 64;
	assert_int_equal(cfs_pool_update(f->c, &want, why, sizeof(why)), 0);
	m = cfs_osdmap_get(f->c);
	assert_int_equal(cfs_osdmap_pool_by_id(m, 2)->pg_num, 64);
	assert_int_equal(cfs_osdmap_pool_by_id(m, 2)->pgp_num, 16);
	assert_non_null(cfs_osdmap_pool_pg(m, 2, 63));
	cfs_osdmap_put(m);

	assert_int_equal(cfs_pool_remove(f->c, 1, why, sizeof(why)), -EBUSY);
	assert_non_null(strstr(why, "in use by CephFS"));
	assert_int_equal(cfs_pool_remove(f->c, 9, why, sizeof(why)), -ENOENT);
	/* Ceph's mon_allow_pool_delete gate first */
	assert_int_equal(cfs_pool_remove(f->c, 2, why, sizeof(why)), -EPERM);
	assert_non_null(strstr(why, "mon_allow_pool_delete"));
	assert_int_equal(cfs_config_set(f->c, "mon_allow_pool_delete", "true",
					why, sizeof(why)), 0);
	assert_int_equal(cfs_pool_remove(f->c, 2, why, sizeof(why)), 0);
	snprintf(want.name, sizeof(want.name), "rbd2");
	want.pg_num = want.pgp_num = 8;
	assert_int_equal(cfs_pool_create(f->c, &want, &id, why, sizeof(why)),
			 0);
	assert_int_equal(id, 3); /* Ceph's pool_max: no id reused */
	fx_free(f);
}

static void test_layout_limits(void **state)
{
	static const struct {
		uint32_t os, su, sc;
		const char *msg;
	} bad[] = {
		{ 4096, 0, 1, "--object-size 4096: must be a non-zero multiple "
			       "of 64 KiB" },
		{ 4u << 20, 4096, 1, "--stripe-unit 4096: must be a non-zero "
				      "multiple of 64 KiB" },
		{ 4u << 20, 3u << 20, 1, "--stripe-unit 3145728: must divide "
					  "the object size 4194304" },
		{ 2u << 30, 0, 1, "--object-size 2147483648: must be at most "
				   "1 GiB" },
		{ 4u << 20, 0, 0, "--stripe-count 0: must be 1..65536" },
		{ 4u << 20, 0, 65537, "--stripe-count 65537: must be 1..65536" },
		{ 4u << 20, 0, UINT32_MAX, "--stripe-count 4294967295: must "
					    "be 1..65536" },
	};
	struct fixture *f = fx_new(NULL);
	struct cfs_mkfs_opts o;
	char err[512], path[512], *text, *p;
	cfs_cluster *c;
	size_t len;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cfs_mkfs_opts_init(&o);
		o.osd_size = 64 << 20;
		o.object_size = bad[i].os;
		o.stripe_unit = bad[i].su;
		o.stripe_count = bad[i].sc;
		snprintf(path, sizeof(path), "%s/l%zu", f->root, i);
		assert_int_equal(cfs_mkfs(path, &o, err, sizeof(err)), -EINVAL);
		if (strncmp(err, bad[i].msg, strlen(bad[i].msg)))
			fail_msg("%s, not %s", err, bad[i].msg);
		assert_int_not_equal(access(path, F_OK), 0);
	}
	/* a cluster.json whose layout was edited by hand: refused at open */
	fx_close(f);
	snprintf(path, sizeof(path), "%s/cluster.json", f->dir);
	assert_int_equal(cfs_read_file(path, &text, &len), 0);
	p = strstr(text, "\"stripe_count\":");
	assert_non_null(p);
	{
		FILE *fp = fopen(path, "w");

		assert_non_null(fp);
		fprintf(fp, "%.*s\"stripe_count\": 4294967295%s",
			(int)(p - text), text, strpbrk(p + 15, ",}"));
		fclose(fp);
	}
	free(text);
	assert_int_equal(cfs_cluster_open(f->dir, 0, &c, err, sizeof(err)),
			 CFS_ECORRUPT);
	assert_non_null(strstr(err, "pool.stripe_count 4294967295: must be "
				    "1..65536"));
	fx_free(f);
}

/* Monitor options: Ceph's defaults, parsing into the canonical spelling,
 * refusals, kept across an open, back to the default with NULL. */
static void test_config(void **state)
{
	struct fixture *f = fx_new(NULL);
	struct cfs_config_entry e[CFS_CONFIG_NOPTS];
	char v[32], why[256];

	(void)state;
	assert_int_equal(cfs_config_get(f->c, "mon_allow_pool_delete", v,
					sizeof(v)), 0);
	assert_string_equal(v, "false");
	assert_int_equal(cfs_config_get(f->c, "mon_max_pg_per_osd", v,
					sizeof(v)), 0);
	assert_string_equal(v, "250");
	assert_int_equal(cfs_config_get(f->c, "osd_max_backfills", v,
					sizeof(v)), -ENOENT);
	assert_int_equal(cfs_config_set(f->c, "mon_allow_pool_delete", "yes",
					why, sizeof(why)), 0);
	assert_int_equal(cfs_config_set(f->c, "mon_max_pg_per_osd", "-1", why,
					sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "not an unsigned integer"));
	assert_int_equal(cfs_config_set(f->c, "mon_max_pg_per_osd",
					"4294967296", why, sizeof(why)),
			 -EINVAL);
	assert_int_equal(cfs_config_set(f->c, "mon_max_pg_per_osd", "400",
					why, sizeof(why)), 0);
	assert_int_equal(cfs_config_set(f->c, "nosuch", "1", why, sizeof(why)),
			 -EINVAL);
	assert_string_equal(why, "unrecognized config option 'nosuch'");
	fx_close(f);
	fx_open(f);
	assert_int_equal(cfs_config_get(f->c, "mon_allow_pool_delete", v,
					sizeof(v)), 0);
	assert_string_equal(v, "true");
	assert_int_equal(cfs_config_list(f->c, e), CFS_CONFIG_NOPTS);
	for (int i = 0; i < CFS_CONFIG_NOPTS; i++)
		if (!strcmp(e[i].name, "mon_max_pg_per_osd")) {
			assert_string_equal(e[i].value, "400");
			assert_false(e[i].is_default);
		}
	assert_int_equal(cfs_config_set(f->c, "mon_max_pg_per_osd", NULL, why,
					sizeof(why)), 0);
	fx_close(f);
	fx_open(f);
	assert_int_equal(cfs_config_get(f->c, "mon_max_pg_per_osd", v,
					sizeof(v)), 0);
	assert_string_equal(v, "250");
	/* a damaged file is named with its field, the open refused */
	fx_close(f);
	{
		char path[512], err[512];
		cfs_cluster *c;
		FILE *fp;

		snprintf(path, sizeof(path), "%s/config.json", f->dir);
		fp = fopen(path, "w");
		fputs("{\"mon_max_pg_per_osd\": \"lots\"}\n", fp);
		fclose(fp);
		assert_int_equal(cfs_cluster_open(f->dir, 0, &c, err,
						  sizeof(err)),
				 CFS_ECORRUPT);
		assert_non_null(strstr(err, "config.json: field "
					    "'mon_max_pg_per_osd' is not a "
					    "valid value"));
		fp = fopen(path, "w");
		fputs("{\"nosuch\": \"1\"}\n", fp);
		fclose(fp);
		assert_int_equal(cfs_cluster_open(f->dir, 0, &c, err,
						  sizeof(err)),
				 CFS_ECORRUPT);
		assert_non_null(strstr(err, "'nosuch' is not an option"));
		unlink(path);
	}
	fx_open(f);
	fx_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mkfs_layout),
		cmocka_unit_test(test_mkfs_refuses),
		cmocka_unit_test(test_epoch_persists),
		cmocka_unit_test(test_pg_table_semantics),
		cmocka_unit_test(test_object_to_pg),
		cmocka_unit_test(test_crush_map_file),
		cmocka_unit_test(test_lock),
		cmocka_unit_test(test_live_swap),
		cmocka_unit_test(test_corrupt_cluster_json),
		cmocka_unit_test(test_size_crush_weight),
		cmocka_unit_test(test_osd_add_weights),
		cmocka_unit_test(test_layout_limits),
		cmocka_unit_test(test_more_pools),
		cmocka_unit_test(test_config),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
