/*
 * bt_resume.c - at mount, the backtraces a crash left pending noted
 * again from their marks ('B', mds.h), with every link of an inode whose
 * mark cannot say them all.  Split from bt_queue.c, whose head comment
 * holds the design: it runs once, as vfs_new opens the filesystem.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bt_queue_i.h"
#include "util.h"
#include "vfs_i.h"

struct bt_mark {
	uint64_t ino, parent;
	char *name; /* NULL: none */
};

struct marks {
	struct bt_mark *v;
	size_t n, cap;
	int err;
};

/* Collected first: noting writes to the store, not inside its scan. */
static int collect_mark(uint64_t ino, uint64_t parent, const char *name,
			size_t nlen, void *arg)
{
	struct marks *m = arg;

	if (m->n == m->cap) {
		size_t nc = m->cap ? m->cap * 2 : 64;
		struct bt_mark *nv = realloc(m->v, nc * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		m->v = nv;
		m->cap = nc;
	}
	m->v[m->n].ino = ino;
	m->v[m->n].parent = parent;
	m->v[m->n].name = name ? strndup(name, nlen) : NULL;
	if (name && !m->v[m->n].name)
		return -ENOMEM;
	m->n++;
	return 0;
}

/* The names of the hard-linked inodes a crash left marked: a mark holds
 * one link, and a link made in the crash's window would be missing from
 * the backtrace written from it.  One pass over every dentry (only after
 * a crash that left such a mark), as the MDS's journal replay would know
 * every link. */
struct multi {
	uint64_t *ino;
	size_t n;
	struct marks names; /* .ino: whose; .parent, .name: the link */
};

static int collect_link(uint64_t parent, const char *name, size_t nlen,
			const struct mds_dentry *d, void *arg)
{
	struct multi *mu = arg;

	for (size_t i = 0; i < mu->n; i++)
		if (mu->ino[i] == d->ino)
			return collect_mark(d->ino, parent, name, nlen,
					    &mu->names);
	return 0;
}

static int resume_linked(vfs *v, struct multi *mu)
{
	int rc;

	if (!mu->n)
		return 0;
	rc = mds_list_dentries(v->m, collect_link, mu);
	for (size_t i = 0; rc == 0 && i < mu->n; i++) {
		int first = 1;

		for (size_t k = 0; k < mu->names.n; k++) {
			struct bt_mark *l = &mu->names.v[k];

			if (l->ino != mu->ino[i])
				continue;
			btq_note(v, l->ino, first ? BTQ_SET : BTQ_ADD, l->parent,
			     l->name);
			first = 0;
		}
	}
	for (size_t i = 0; i < mu->names.n; i++)
		free(mu->names.v[i].name);
	free(mu->names.v);
	return rc;
}

int btq_resume(vfs *v)
{
	struct marks ms = { 0 };
	struct multi mu = { 0 };
	kv_batch *gone = NULL;
	int rc;

	if (!v->btq)
		return 0;
	rc = mds_list_btmarks(v->m, collect_mark, &ms);
	if (rc == 0)
		gone = kv_batch_new();
	for (size_t i = 0; rc == 0 && gone && i < ms.n; i++) {
		struct bt_mark *k = &ms.v[i];
		struct mds_inode rec;
		struct mds_dentry d;
		int e = mds_get_inode(v->m, k->ino, &rec), cur;

		if (e == -ENOENT) {
			mds_del_btmark(gone, k->ino);
			continue;
		}
		if (e || rec.nlink == 0)
			continue; /* the orphan purge takes it */
		/* the link the mark names, if it still is one: all a
		 * directory or a file of one link needs */
		cur = k->name &&
		      mds_lookup(v->m, k->parent, k->name, &d) == 0 &&
		      d.ino == k->ino;
		if (cur && (S_ISDIR(rec.mode) || rec.nlink == 1)) {
			btq_note(v, k->ino, BTQ_SET, k->parent, k->name);
		} else if (S_ISDIR(rec.mode)) {
			btq_touch(v, k->ino);
		} else {
			/* more links, or the marked one gone (a hard link
			 * made or removed in the crash's window): every
			 * link it has, from the dentries */
			uint64_t *ni = realloc(mu.ino,
					       (mu.n + 1) * sizeof(*ni));

			if (!ni) {
				rc = -ENOMEM;
				break;
			}
			mu.ino = ni;
			mu.ino[mu.n++] = k->ino;
		}
	}
	if (rc == 0 && !gone)
		rc = -ENOMEM;
	if (rc == 0)
		rc = resume_linked(v, &mu);
	free(mu.ino);
	if (rc == 0 && kv_batch_count(gone))
		rc = kv_batch_commit(v->db, gone, 0);
	kv_batch_free(gone);
	for (size_t i = 0; i < ms.n; i++)
		free(ms.v[i].name);
	free(ms.v);
	if (rc == 0 && v->btq->count)
		cfs_log(CFS_LOG_INFO, "%zu backtrace(s) pending from before a "
			"crash: written shortly", v->btq->count);
	return rc;
}
