/*
 * check.c - `crushfs check`: prove that the accounting equals the disk.
 *
 * For every OSD: the usage kept in memory (what `osd df` shows and what
 * the full checks use) is compared with a fresh scan of its folders; files
 * outside the layout and objects filed under the wrong PG are reported.
 * With deep, the current copies of every object (holders whose missing
 * set does not name it) are compared byte for byte.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "osdsim_i.h"
#include "placement.h"
#include "util.h"

#define CHUNK (1u << 20)

static void say(void (*msg)(const char *, void *), void *arg,
		const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void say(void (*msg)(const char *, void *), void *arg,
		const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	if (!msg)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	msg(buf, arg);
}

/* Walk one OSD: layout problems, and what is really there. */
static int walk_osd(cfs_cluster *c, const cfs_osdmap *m, int osd,
		    struct cfs_check_report *r,
		    void (*msg)(const char *, void *), void *arg,
		    struct cfs_osd_usage *real)
{
	struct osd_store *s = store_get(c, osd);
	struct dirent *de;
	DIR *d;
	int e;

	real->used = real->objects = 0;
	d = cfs_opendirat(s->dirfd, ".", &e);
	if (!d)
		return e;
	while ((de = readdir(d)) != NULL) {
		struct dirent *oe;
		struct pool_pgs *pp;
		int64_t pool;
		uint32_t ps;
		DIR *pd;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (pg_folder_parse(c, de->d_name, &pool, &ps) ||
		    !(pp = pgstate_pool(c, pool)) || ps >= pp->npgs ||
		    !cfs_osdmap_pool_by_id(m, pool)) {
			r->stray_files++;
			say(msg, arg, "osd.%d: current/%s is not a PG folder",
			    osd, de->d_name);
			continue;
		}
		pd = cfs_opendirat(dirfd(d), de->d_name, &e);
		if (!pd) {
			r->stray_files++;
			say(msg, arg, "osd.%d: current/%s: cannot read", osd,
			    de->d_name);
			continue;
		}
		while ((oe = readdir(pd)) != NULL) {
			char name[256];
			struct stat st;
			uint32_t ops;

			if (!strcmp(oe->d_name, ".") ||
			    !strcmp(oe->d_name, ".."))
				continue;
			if (oe->d_name[0] == '.' ||
			    obj_unescape(oe->d_name, name, sizeof(name)) ||
			    fstatat(dirfd(pd), oe->d_name, &st,
				    AT_SYMLINK_NOFOLLOW) < 0 ||
			    !S_ISREG(st.st_mode)) {
				r->stray_files++;
				say(msg, arg,
				    "osd.%d: current/%s/%s is not an object",
				    osd, de->d_name, oe->d_name);
				continue;
			}
			real->used += (uint64_t)st.st_size;
			real->objects++;
			cfs_pool_object_to_pg(m, pool, name, NULL, &ops);
			/* a shard folder's objects: its PG's seed */
			if (ops != (pp->width > 0 ? ps / (uint32_t)pp->width
						   : ps)) {
				r->misfiled++;
				say(msg, arg,
				    "osd.%d: object '%s' is in %s but belongs "
				    "to pg %lld.%x",
				    osd, name, de->d_name, (long long)pool, ops);
			}
		}
		closedir(pd);
	}
	closedir(d);
	return 0;
}

static int same_content(cfs_cluster *c, int a, int b, int64_t pool,
			uint32_t ps, const char *name, char *ba, char *bb)
{
	char rel[PATH_MAX];
	struct osd_store *sa = store_get(c, a), *sb = store_get(c, b);
	int fa, fb, same = 1;
	uint64_t off = 0;

	if (obj_relpath(c, pool, ps, name, rel, sizeof(rel), NULL, 0))
		return 0;
	fa = openat(sa->dirfd, rel, O_RDONLY | O_CLOEXEC);
	fb = openat(sb->dirfd, rel, O_RDONLY | O_CLOEXEC);
	if (fa < 0 || fb < 0) {
		same = (fa < 0 && fb < 0);
		goto out;
	}
	for (;;) {
		ssize_t na = cfs_read_full(fa, ba, CHUNK, (int64_t)off);
		ssize_t nb = cfs_read_full(fb, bb, CHUNK, (int64_t)off);

		if (na < 0 || nb < 0 || na != nb ||
		    memcmp(ba, bb, (size_t)na)) {
			same = 0;
			break;
		}
		if (na == 0)
			break;
		off += (uint64_t)na;
	}
out:
	if (fa >= 0)
		close(fa);
	if (fb >= 0)
		close(fb);
	return same;
}

static int check_replicas(cfs_cluster *c, int64_t pool, uint32_t ps,
			  struct cfs_check_report *r,
			  void (*msg)(const char *, void *), void *arg,
			  char *ba, char *bb)
{
	struct cfs_pg_copies pc;
	char pgid[80];
	int rc;

	/* "1.1f", or a shard's "3.5s2" */
	pg_folder(c, pool, ps, pgid, sizeof(pgid));
	pgid[strlen(pgid) - 5] = '\0';
	cfs_pg_lock(c, pool, ps);
	rc = cfs_pg_copies_load(c, pool, ps, &pc);
	/* the current copies of every object must agree */
	while (!rc && cfs_pg_copies_next(&pc)) {
		int ref = -1;

		for (int j = 0; j < pc.n; j++) {
			if (cfs_pg_is_missing(c, pool, ps, pc.osd[j], pc.name))
				continue;
			if (ref < 0) {
				ref = pc.osd[j];
				continue;
			}
			if (!same_content(c, ref, pc.osd[j], pool, ps, pc.name,
					  ba, bb)) {
				r->replica_mismatches++;
				say(msg, arg,
				    "pg %s: object '%s' differs between "
				    "osd.%d and osd.%d",
				    pgid, pc.name, ref, pc.osd[j]);
			}
		}
	}
	cfs_pg_unlock(c, pool, ps);
	cfs_pg_copies_free(&pc);
	return rc;
}

static int check(cfs_cluster *c, int deep, struct cfs_check_report *r,
		 void (*msg)(const char *line, void *arg), void *arg);

int cfs_cluster_check(cfs_cluster *c, int deep, struct cfs_check_report *r,
		      void (*msg)(const char *line, void *arg), void *arg)
{
	int rc;

	/* no pg_num change moves files under the scan */
	cfs_pg_layout_shared(c);
	rc = check(c, deep, r, msg, arg);
	cfs_pg_layout_release(c);
	return rc;
}

static int check(cfs_cluster *c, int deep, struct cfs_check_report *r,
		 void (*msg)(const char *line, void *arg), void *arg)
{
	const cfs_osdmap *m = cfs_osdmap_get(c);
	char *ba = NULL, *bb = NULL;
	int rc = 0;

	memset(r, 0, sizeof(*r));
	for (int osd = 0; osd < m->max_osd; osd++) {
		struct cfs_osd_usage acc, real;

		if (!cfs_osdmap_exists(m, osd) || !store_get(c, osd))
			continue;
		rc = walk_osd(c, m, osd, r, msg, arg, &real);
		if (rc)
			goto out;
		cfs_osd_usage(c, osd, &acc);
		r->osds_checked++;
		r->objects += real.objects;
		r->bytes += real.used;
		if (acc.used != real.used || acc.objects != real.objects) {
			r->usage_mismatches++;
			say(msg, arg,
			    "osd.%d: usage accounted %" PRIu64 " bytes in %" PRIu64
			    " objects, on disk %" PRIu64 " bytes in %" PRIu64
			    " objects",
			    osd, acc.used, acc.objects, real.used,
			    real.objects);
		}
	}
	if (deep) {
		ba = malloc(CHUNK);
		bb = malloc(CHUNK);
		if (!ba || !bb) {
			rc = -ENOMEM;
			goto out;
		}
		int npp = atomic_load(&c->npp);

		for (int i = 0; i < npp && !rc; i++) {
			struct pool_pgs *pp = atomic_load(&c->pp[i]);

			for (uint32_t ps = 0; ps < pp->npgs && !rc; ps++)
				rc = check_replicas(c, pp->pool, ps, r, msg,
						    arg, ba, bb);
		}
	}
out:
	free(ba);
	free(bb);
	cfs_osdmap_put(m);
	return rc;
}
