/*
 * bt_write.c - one inode's backtrace built and stored: its links (the
 * ones stored, then the changes noted), the primary link's ancestry up to
 * the root from the directories' records, and the encoded backtrace (and
 * a symlink's target) handed to the data layer.  Split from bt_queue.c,
 * whose head comment holds the design: it reads the store, not the queue.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "backtrace.h"
#include "bt_queue_i.h"
#include "util.h"
#include "vfs_i.h"

struct links {
	struct bt_dentry *v;
	char **own; /* names allocated here */
	size_t n, cap;
};

static int links_add(struct links *l, uint64_t dir, const char *name)
{
	char *n;

	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].dirino == dir && !strcmp(l->v[i].name, name))
			return 0;
	if (l->n == l->cap) {
		size_t nc = l->cap ? l->cap * 2 : 4;
		struct bt_dentry *nv = realloc(l->v, nc * sizeof(*nv));
		char **no;

		if (!nv)
			return -ENOMEM;
		l->v = nv;
		no = realloc(l->own, nc * sizeof(*no));
		if (!no)
			return -ENOMEM;
		l->own = no;
		l->cap = nc;
	}
	if (!(n = strdup(name)))
		return -ENOMEM;
	l->v[l->n].dirino = dir;
	l->v[l->n].name = n;
	l->own[l->n] = n;
	l->n++;
	return 0;
}

static void links_del(struct links *l, uint64_t dir, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].dirino == dir && !strcmp(l->v[i].name, name)) {
			free(l->own[i]);
			memmove(&l->v[i], &l->v[i + 1],
				(l->n - i - 1) * sizeof(*l->v));
			memmove(&l->own[i], &l->own[i + 1],
				(l->n - i - 1) * sizeof(*l->own));
			l->n--;
			return;
		}
}

static void links_free(struct links *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->own[i]);
	free(l->v);
	free(l->own);
}

struct rev {
	uint64_t ino;
	char name[MDS_NAME_MAX + 1];
	int found;
};

static int rev_cb(const char *name, size_t nlen, const struct mds_dentry *d,
		  void *arg)
{
	struct rev *r = arg;

	if (d->ino != r->ino)
		return 0;
	memcpy(r->name, name, nlen);
	r->name[nlen] = '\0';
	r->found = 1;
	return 1;
}

/* The parent and name of directory dir: its record says the parent, the
 * parent's entries say the name. */
static int dir_place(vfs *v, struct btq_memo **memo, size_t *nmemo,
		     uint64_t dir, uint64_t *parent, const char **name)
{
	struct mds_inode r;
	struct rev rv = { .ino = dir };
	struct btq_memo *nm;
	int rc;

	for (size_t i = 0; i < *nmemo; i++)
		if ((*memo)[i].dir == dir) {
			*parent = (*memo)[i].parent;
			*name = (*memo)[i].name;
			return 0;
		}
	rc = mds_get_inode(v->m, dir, &r);
	if (rc)
		return rc;
	if (!S_ISDIR(r.mode) || !r.parent)
		return CFS_ECORRUPT;
	rc = mds_readdir(v->m, r.parent, NULL, rev_cb, &rv);
	if (rc < 0)
		return rc;
	if (!rv.found)
		return -ENOENT;
	nm = realloc(*memo, (*nmemo + 1) * sizeof(**memo));
	if (!nm)
		return -ENOMEM;
	*memo = nm;
	nm[*nmemo].dir = dir;
	nm[*nmemo].parent = r.parent;
	nm[*nmemo].name = strdup(rv.name);
	if (!nm[*nmemo].name)
		return -ENOMEM;
	*parent = r.parent;
	*name = nm[(*nmemo)++].name;
	return 0;
}

#define MAX_DEPTH 64

int btq_write_one(vfs *v, const struct btq_ent *e, int sync,
		  struct btq_memo **memo, size_t *nmemo)
{
	struct mds_inode r;
	struct links l = { 0 };
	struct bt_dentry anc[MAX_DEPTH];
	struct backtrace bt;
	unsigned char buf[BT_MAX_ENCODED];
	char *target = NULL;
	size_t len, tlen = 0, start = 0, nanc;
	int rc = mds_get_inode(v->m, e->ino, &r);

	if (rc == -ENOENT || (rc == 0 && r.nlink == 0))
		return 0; /* gone, or going: its purge removes the objects */
	if (rc)
		return rc;
	for (size_t i = 0; i < e->nops; i++)
		if (e->ops[i].kind == BTQ_SET)
			start = i;
	if (e->nops == 0 || e->ops[start].kind != BTQ_SET) {
		/* links beyond the ones noted: start from the stored ones */
		struct backtrace old;
		void *val;
		size_t vlen;

		if (v->d->get_backtrace &&
		    v->d->get_backtrace(v->dctx, e->ino, &val, &vlen) == 0) {
			if (bt_decode(val, vlen, &old) == 0) {
				for (size_t i = 0; i < old.nanc && i < 1; i++)
					rc |= links_add(&l, old.anc[0].dirino,
							old.anc[0].name);
				for (size_t i = 0; i < old.nlinks; i++)
					rc |= links_add(&l, old.links[i].dirino,
							old.links[i].name);
				bt_free(&old);
			}
			free(val);
		}
	}
	for (size_t i = start; i < e->nops && rc == 0; i++) {
		if (e->ops[i].kind == BTQ_DEL)
			links_del(&l, e->ops[i].dir, e->ops[i].name);
		else
			rc = links_add(&l, e->ops[i].dir, e->ops[i].name);
	}
	if (rc || l.n == 0) {
		links_free(&l);
		return rc ? -ENOMEM : 0;
	}
	/* the primary link's ancestry, up to the root */
	anc[0] = l.v[0];
	nanc = 1;
	while (nanc < MAX_DEPTH && anc[nanc - 1].dirino != MDS_ROOT_INO) {
		uint64_t p;
		const char *n;

		if (dir_place(v, memo, nmemo, anc[nanc - 1].dirino, &p, &n))
			break; /* moved meanwhile: a later note fixes it */
		anc[nanc].dirino = p;
		anc[nanc].name = n;
		nanc++;
	}
	memset(&bt, 0, sizeof(bt));
	bt.ino = e->ino;
	bt.mode = r.mode;
	bt.uid = r.uid;
	bt.gid = r.gid;
	bt.rdev = r.rdev;
	bt.mtime = r.mtime;
	bt.stamp = e->stamp;
	bt.layout = r.layout;
	bt.anc = anc;
	bt.nanc = nanc;
	bt.links = l.v + 1;
	bt.nlinks = l.n - 1;
	rc = bt_encode(&bt, buf, sizeof(buf), &len);
	if (rc == 0 && S_ISLNK(r.mode))
		rc = mds_get_symlink(v->m, e->ino, &target, &tlen);
	if (rc == 0)
		rc = v->d->set_backtrace(v->dctx, e->ino, buf, len, target,
					 tlen, sync);
	free(target);
	links_free(&l);
	return rc;
}
