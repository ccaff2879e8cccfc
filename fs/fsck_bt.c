/*
 * fsck_bt.c - the backtrace check (after the objects pass): every
 * inode's backtrace (backtrace.h) on its object 0 must name the inode's
 * entries and say its type, mode, owner and layout, or a rebuild
 * (rebuild.c) would make something else of it.  Missing (a cluster from
 * before backtraces, a crash before the lazy write), damaged or stale
 * ones are rewritten from the metadata, as Ceph's forward scrub repairs
 * backtraces (ScrubStack, CInode::validate_disk_state).  The ancestry
 * beyond an inode's own entries is not checked: it may lag behind a
 * rename of a directory above, in Ceph too.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "backtrace.h"
#include "fsck_i.h"
#include "util.h"

#define MAX_DEPTH 64

int fsck_write_backtrace(struct fck *f, const struct mds_inode *rec,
			 const struct fsck_link *lnk, size_t n)
{
	struct bt_dentry anc[MAX_DEPTH], *links = NULL;
	unsigned char buf[BT_MAX_ENCODED];
	struct backtrace bt;
	struct timespec now;
	char name[64];
	size_t len, nanc = 1;
	int rc;

	if (n == 0)
		return 0;
	/* the primary link, then where each directory above lives */
	anc[0].dirino = lnk[0].dir;
	anc[0].name = lnk[0].name;
	while (nanc < MAX_DEPTH && anc[nanc - 1].dirino != MDS_ROOT_INO) {
		struct fent *d = fsck_find(f, anc[nanc - 1].dirino);

		if (!d || !d->nlnk)
			break;
		anc[nanc].dirino = d->lnk[0].dir;
		anc[nanc].name = d->lnk[0].name;
		nanc++;
	}
	if (n > 1) {
		links = calloc(n - 1, sizeof(*links));
		if (!links)
			return -ENOMEM;
		for (size_t i = 1; i < n; i++) {
			links[i - 1].dirino = lnk[i].dir;
			links[i - 1].name = lnk[i].name;
		}
	}
	memset(&bt, 0, sizeof(bt));
	clock_gettime(CLOCK_REALTIME, &now);
	bt.ino = rec->ino;
	bt.mode = rec->mode;
	bt.uid = rec->uid;
	bt.gid = rec->gid;
	bt.rdev = rec->rdev;
	bt.mtime = rec->mtime;
	bt.stamp = (uint64_t)now.tv_sec * 1000000000ULL +
		   (uint64_t)now.tv_nsec;
	bt.layout = rec->layout;
	bt.anc = anc;
	bt.nanc = nanc;
	bt.links = links;
	bt.nlinks = n - 1;
	rc = bt_encode(&bt, buf, sizeof(buf), &len);
	free(links);
	if (rc)
		return rc;
	ol_object_name(rec->ino, 0, name, sizeof(name));
	if (S_ISLNK(rec->mode) && f->m) {
		char *t;
		size_t tl;

		rc = mds_get_symlink(f->m, rec->ino, &t, &tl);
		if (rc == 0) {
			rc = ol_obj_write_full(f->ol, ol_data_pool(f->ol), name, t, tl);
			free(t);
		}
		if (rc)
			return rc;
	}
	return ol_obj_setattr(f->ol, ol_data_pool(f->ol), name, BT_XATTR, buf, len);
}

static int has_link(const struct backtrace *bt, const struct fsck_link *l)
{
	for (size_t i = 0; i < 1 + bt->nlinks; i++) {
		const struct bt_dentry *d = i == 0 ? &bt->anc[0] :
					    &bt->links[i - 1];

		if (d->dirino == l->dir && !strcmp(d->name, l->name))
			return 1;
	}
	return 0;
}

/* What is wrong with bt for e, or NULL. */
static const char *judge(struct fck *f, const struct fent *e,
			 const struct backtrace *bt, const char *obj)
{
	const struct mds_inode *r = &e->rec;

	if (bt->ino != e->ino)
		return "of another inode";
	if (bt->mode != r->mode || bt->uid != r->uid || bt->gid != r->gid)
		return "stale (mode or owner)";
	if (S_ISREG(r->mode) &&
	    memcmp(&bt->layout, &r->layout, sizeof(r->layout)))
		return "stale (layout)";
	if (bt->nanc == 0)
		return "stale (no name)";
	/* the same names: each of ours in it, and (when nothing was cut)
	 * no more */
	for (uint32_t i = 0; i < e->nlnk; i++)
		if (!has_link(bt, &e->lnk[i]) &&
		    !((bt->flags & BT_F_LINKS_CUT) && i > 0))
			return "stale (names)";
	if (1 + bt->nlinks != e->nlnk && !(bt->flags & BT_F_LINKS_CUT))
		return "stale (names)";
	if (S_ISLNK(r->mode)) {
		uint64_t size = 0;

		if (ol_obj_stat(f->ol, ol_data_pool(f->ol), obj, &size) ||
		    size != r->size)
			return "without its target";
	}
	return NULL;
}

void fsck_backtraces(struct fck *f)
{
	const cfs_osdmap *map = ol_map_get(f->ol);
	int64_t pool = ol_data_pool(f->ol);
	struct ol_pool_info pi;
	int min_size = ol_map_pool(map, pool, &pi) ? 0 : pi.min_size;

	for (size_t i = 0; i < f->cap; i++) {
		struct fent *e = &f->tab[i];
		struct backtrace bt;
		const char *bad = NULL;
		char name[64];
		void *val = NULL;
		size_t len;
		uint32_t ps;
		int rc;

		if (e->used != 1 || e->ino == MDS_ROOT_INO || !e->nlnk)
			continue;
		ol_object_name(e->ino, 0, name, sizeof(name));
		ol_map_object_pg(map, pool, name, &ps);
		if (ol_map_pg_nacting(map, pool, ps) < min_size) {
			f->r->unchecked_backtraces++;
			continue;
		}
		f->r->backtraces++;
		rc = ol_obj_getattr(f->ol, ol_data_pool(f->ol), name, BT_XATTR, &val, &len);
		if (rc == -ENOENT || rc == -ENODATA) {
			bad = "missing";
		} else if (rc) {
			fsck_say(f, "inode %" PRIx64 ": reading its backtrace: "
				 "%s", e->ino, cfs_strerror(rc));
			f->r->errors++;
			continue;
		} else if (bt_decode(val, len, &bt)) {
			bad = "damaged";
		} else {
			bad = judge(f, e, &bt, name);
			bt_free(&bt);
		}
		free(val);
		if (!bad)
			continue;
		f->r->bad_backtraces++;
		fsck_say(f, "inode %" PRIx64 " (%s): backtrace %s%s", e->ino,
			 fsck_type_name(e->rec.mode), bad,
			 f->repair ? ": rewritten" : "");
		if (!f->repair)
			continue;
		rc = fsck_write_backtrace(f, &e->rec, e->lnk, e->nlnk);
		if (rc) {
			fsck_say(f, "inode %" PRIx64 ": writing its backtrace: "
				 "%s", e->ino, cfs_strerror(rc));
			f->r->errors++;
		} else {
			f->r->repaired++;
		}
	}
	ol_map_put(map);
}
