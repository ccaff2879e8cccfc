/*
 * bt_queue.c - backtraces (backtrace.h) written lazily, as the CephFS MDS
 * writes them (CInode::store_backtrace when the journal segment that
 * made the change expires): vfs.c notes each link change of an inode
 * here; the daemon's flusher (vfs_flush_periodic, every 2 s: those
 * unchanged for BTQ_MIN_AGE_NS), fsync and the unmount write them out.
 * A create followed by a delete within that time never touches the
 * object store.
 *
 * What is noted per inode, in order: SET (its only link is now dir/name:
 * create, mkdir, rename of a file with one link or of a directory), ADD
 * (a hard link), DEL (a name removed while others remain).  Without a
 * SET the links start from the backtrace already stored.  The rest
 * (mode, owner, layout, ancestry) is read from the store when the
 * backtrace is written.
 *
 * One inode is written by one thread at a time (`busy`), so a newer
 * backtrace is never overwritten by an older one; a purge waits for the
 * write in flight before it removes the objects (btq_forget), so no
 * backtrace outlives its inode.
 *
 * A crash must not lose what was pending (Ceph replays its journal): each
 * inode noted gets a mark in the store ('B', mds.h) right after the
 * change, deleted once its backtrace is written; the next mount notes
 * every marked inode again (btq_resume).  A mark holds one link, so a
 * marked inode with more than one is noted with every link it has (one
 * pass over the dentries, as fsck's backtrace check does).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "backtrace.h"
#include "util.h"
#include "vfs_i.h"

enum { OP_SET, OP_ADD, OP_DEL };

struct btq_op {
	int kind;
	uint64_t dir;
	char *name;
};

struct btq_ent {
	uint64_t ino, stamp;
	struct btq_op *ops;
	size_t nops, cap;
	struct btq_ent *next;
};

#define NBUCKETS 16384 /* 100k pending (BTQ_MAX_PENDING) in short chains */
#define MAX_BUSY 64
/* The periodic flusher writes a backtrace once its inode has had no
 * link change for this long, as the MDS writes it only when the journal
 * segment holding the change expires (MDLog::trim, long after a burst of
 * creates): a file created and removed within it never touches the
 * object store, which in a directory of many short-lived files saves an
 * object create and an object remove per file.  Its mark ('B') keeps a
 * crash from losing it; fsync and the unmount write it at once. */
#define BTQ_MIN_AGE_NS (10ULL * 1000000000ULL)
/* ... unless this many wait: Ceph's journal holds mds_log_max_segments
 * (128) x mds_log_events_per_segment (1024) events before it trims */
#define BTQ_MAX_PENDING 131072

struct btq {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct btq_ent *tab[NBUCKETS];
	size_t count;
	uint64_t busy[MAX_BUSY]; /* inodes being written */
	int nbusy;
};

static size_t bucket(uint64_t ino)
{
	return (size_t)((ino * 0x9e3779b97f4a7c15ULL) >> 40) % NBUCKETS;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

int btq_new(vfs *v)
{
	struct btq *q;

	v->btq = NULL;
	/* a read-only view writes nothing; a store without backtraces
	 * (tests' fake data) has nowhere to put them */
	if (v->opts.readonly || !v->d || !v->d->set_backtrace)
		return 0;
	q = calloc(1, sizeof(*q));
	if (!q)
		return -ENOMEM;
	pthread_mutex_init(&q->lock, NULL);
	pthread_cond_init(&q->cond, NULL);
	v->btq = q;
	return 0;
}

static void ent_free(struct btq_ent *e)
{
	for (size_t i = 0; i < e->nops; i++)
		free(e->ops[i].name);
	free(e->ops);
	free(e);
}

void btq_free(vfs *v)
{
	struct btq *q = v->btq;

	if (!q)
		return;
	for (size_t b = 0; b < NBUCKETS; b++)
		while (q->tab[b]) {
			struct btq_ent *e = q->tab[b];

			q->tab[b] = e->next;
			ent_free(e);
		}
	pthread_mutex_destroy(&q->lock);
	pthread_cond_destroy(&q->cond);
	free(q);
	v->btq = NULL;
}

/* Under q->lock. */
static struct btq_ent *find(struct btq *q, uint64_t ino, int create)
{
	struct btq_ent **pp = &q->tab[bucket(ino)], *e;

	for (e = *pp; e; e = e->next)
		if (e->ino == ino)
			return e;
	if (!create || !(e = calloc(1, sizeof(*e))))
		return NULL;
	e->ino = ino;
	e->next = *pp;
	*pp = e;
	q->count++;
	return e;
}

static struct btq_ent *unhook(struct btq *q, uint64_t ino)
{
	struct btq_ent **pp = &q->tab[bucket(ino)], *e;

	for (; (e = *pp); pp = &e->next)
		if (e->ino == ino) {
			*pp = e->next;
			e->next = NULL;
			q->count--;
			return e;
		}
	return NULL;
}

static int ent_push(struct btq_ent *e, int kind, uint64_t dir,
		    const char *name)
{
	char *n = strdup(name);

	if (!n)
		return -ENOMEM;
	if (kind == OP_SET) {
		/* everything before is overruled */
		for (size_t i = 0; i < e->nops; i++)
			free(e->ops[i].name);
		e->nops = 0;
	}
	if (e->nops == e->cap) {
		size_t nc = e->cap ? e->cap * 2 : 2;
		struct btq_op *o = realloc(e->ops, nc * sizeof(*o));

		if (!o) {
			free(n);
			return -ENOMEM;
		}
		e->ops = o;
		e->cap = nc;
	}
	e->ops[e->nops].kind = kind;
	e->ops[e->nops].dir = dir;
	e->ops[e->nops].name = n;
	e->nops++;
	return 0;
}

/* The mark that survives a crash (under q->lock, which orders it with
 * the deletion after a write). */
static int mark(vfs *v, uint64_t ino, uint64_t dir, const char *name)
{
	kv_batch *b = kv_batch_new();
	int rc;

	if (!b)
		return -ENOMEM;
	mds_put_btmark(b, ino, dir, name);
	rc = kv_batch_commit(v->db, b, 0);
	kv_batch_free(b);
	return rc;
}

/* Needs q->lock: the change queued on the inode's entry (made if
 * absent), stamped now for the flusher's age rule. */
static int hook_locked(struct btq *q, uint64_t ino, int kind, uint64_t dir,
		       const char *name)
{
	struct btq_ent *e = find(q, ino, 1);

	if (!e)
		return -ENOMEM;
	e->stamp = now_ns();
	return ent_push(e, kind, dir, name);
}

static void note(vfs *v, uint64_t ino, int kind, uint64_t dir,
		 const char *name)
{
	struct btq *q = v->btq;
	struct btq_ent *e;
	int rc = -ENOMEM;

	if (!q)
		return;
	pthread_mutex_lock(&q->lock);
	e = find(q, ino, 0);
	if (!e || kind == OP_SET)
		rc = mark(v, ino, kind == OP_DEL ? 0 : dir,
			  kind == OP_DEL ? NULL : name);
	else
		rc = 0;
	if (rc == 0)
		rc = hook_locked(q, ino, kind, dir, name);
	pthread_mutex_unlock(&q->lock);
	if (rc)
		cfs_log(CFS_LOG_WARN, "inode %llx: backtrace update lost: %s "
			"(fsck rewrites it)",
			(unsigned long long)ino, cfs_strerror(rc));
}

void btq_set(vfs *v, uint64_t ino, uint64_t dir, const char *name)
{
	note(v, ino, OP_SET, dir, name);
}

/*
 * note() writes the mark under q->lock so that a flush's deletion of an
 * older mark (btq_flush: "unless noted again meanwhile") cannot land
 * after it.  A new inode number (mds_alloc_ino never hands one out twice)
 * has no entry, no write in flight and no deletion pending, so its mark
 * may ride in the create's own batch, committed outside q->lock; the
 * entry is hooked after that commit, before the creator lets go of the
 * parent (make_node holds the namespace lock), so nothing else can note
 * the inode in between.
 */
void btq_mark_new(vfs *v, kv_batch *b, uint64_t ino, uint64_t dir,
		  const char *name)
{
	if (v->btq)
		mds_put_btmark(b, ino, dir, name);
}

void btq_set_marked(vfs *v, uint64_t ino, uint64_t dir, const char *name)
{
	struct btq *q = v->btq;
	int rc;

	if (!q)
		return;
	pthread_mutex_lock(&q->lock);
	rc = hook_locked(q, ino, OP_SET, dir, name);
	pthread_mutex_unlock(&q->lock);
	if (rc)
		/* the mark stays: the next mount writes it (btq_resume) */
		cfs_log(CFS_LOG_WARN, "inode %llx: backtrace deferred to the "
			"next mount: %s", (unsigned long long)ino,
			cfs_strerror(rc));
}

void btq_add(vfs *v, uint64_t ino, uint64_t dir, const char *name)
{
	note(v, ino, OP_ADD, dir, name);
}

void btq_del(vfs *v, uint64_t ino, uint64_t dir, const char *name)
{
	note(v, ino, OP_DEL, dir, name);
}

void btq_touch(vfs *v, uint64_t ino)
{
	struct btq *q = v->btq;

	if (!q)
		return;
	pthread_mutex_lock(&q->lock);
	if (!find(q, ino, 0) && (mark(v, ino, 0, NULL) || !find(q, ino, 1)))
		cfs_log(CFS_LOG_WARN, "inode %llx: backtrace update lost",
			(unsigned long long)ino);
	pthread_mutex_unlock(&q->lock);
}

void btq_move(vfs *v, uint64_t ino, int only_link, uint64_t odir,
	      const char *oname, uint64_t ndir, const char *nname)
{
	if (only_link) {
		note(v, ino, OP_SET, ndir, nname);
	} else {
		note(v, ino, OP_DEL, odir, oname);
		note(v, ino, OP_ADD, ndir, nname);
	}
}

/* ---- writing ---- */

static int is_busy(struct btq *q, uint64_t ino)
{
	for (int i = 0; i < q->nbusy; i++)
		if (q->busy[i] == ino)
			return 1;
	return 0;
}

static void unbusy(struct btq *q, uint64_t ino)
{
	pthread_mutex_lock(&q->lock);
	for (int i = 0; i < q->nbusy; i++)
		if (q->busy[i] == ino) {
			q->busy[i] = q->busy[--q->nbusy];
			break;
		}
	pthread_cond_broadcast(&q->cond);
	pthread_mutex_unlock(&q->lock);
}

void btq_forget(vfs *v, uint64_t ino)
{
	struct btq *q = v->btq;
	struct btq_ent *e;

	if (!q)
		return;
	pthread_mutex_lock(&q->lock);
	while (is_busy(q, ino))
		pthread_cond_wait(&q->cond, &q->lock);
	e = unhook(q, ino);
	pthread_mutex_unlock(&q->lock);
	if (e)
		ent_free(e);
}

/* Where directories live, looked up once per flush. */
struct memo {
	uint64_t dir, parent;
	char *name;
};

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
static int dir_place(vfs *v, struct memo **memo, size_t *nmemo, uint64_t dir,
		     uint64_t *parent, const char **name)
{
	struct mds_inode r;
	struct rev rv = { .ino = dir };
	struct memo *nm;
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

/* Build and store the backtrace of e->ino.  0, or -errno worth a retry. */
static int write_one(vfs *v, const struct btq_ent *e, int sync,
		     struct memo **memo, size_t *nmemo)
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
		if (e->ops[i].kind == OP_SET)
			start = i;
	if (e->nops == 0 || e->ops[start].kind != OP_SET) {
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
		if (e->ops[i].kind == OP_DEL)
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

/* Put a failed entry back, before whatever was noted since. */
static void requeue(struct btq *q, struct btq_ent *e)
{
	struct btq_ent *cur;

	pthread_mutex_lock(&q->lock);
	cur = find(q, e->ino, 0);
	if (cur) {
		int later_set = 0;

		for (size_t i = 0; i < cur->nops; i++)
			later_set |= cur->ops[i].kind == OP_SET;
		if (!later_set) {
			/* e's ops, then cur's */
			for (size_t i = 0; i < cur->nops; i++) {
				if (ent_push(e, cur->ops[i].kind,
					     cur->ops[i].dir,
					     cur->ops[i].name))
					break;
			}
			e->stamp = cur->stamp;
			unhook(q, e->ino);
			ent_free(cur);
			cur = NULL;
		}
	}
	if (!cur) {
		e->next = q->tab[bucket(e->ino)];
		q->tab[bucket(e->ino)] = e;
		q->count++;
		e = NULL;
	}
	pthread_mutex_unlock(&q->lock);
	if (e)
		ent_free(e);
}

/* Room for done[n] when n is 0 or a power of two minus 1... grown to the
 * next power of two; NULL (freed) when out of memory. */
static uint64_t *realloc_done(uint64_t *done, size_t n)
{
	uint64_t *d = realloc(done, (2 * n + 2) * sizeof(*d));

	if (!d)
		free(done);
	return d;
}

/* Take the entry of ino (0: any entry no one is writing, noted before
 * `cutoff` when that is not 0, from bucket *from on: one pass over the
 * table per flush) and mark it busy; NULL when there is none.  Under
 * q->lock. */
static struct btq_ent *take(struct btq *q, uint64_t ino, uint64_t cutoff,
			    size_t *from)
{
	struct btq_ent *e;

	for (;;) {
		e = NULL;
		if (ino) {
			while (is_busy(q, ino))
				pthread_cond_wait(&q->cond, &q->lock);
			e = unhook(q, ino);
		} else {
			for (; *from < NBUCKETS && !e; ++*from) {
				for (struct btq_ent *x = q->tab[*from]; x;
				     x = x->next)
					if (!is_busy(q, x->ino) &&
					    (!cutoff || x->stamp < cutoff)) {
						e = unhook(q, x->ino);
						break;
					}
				if (e)
					break; /* this bucket may hold more */
			}
		}
		if (!e || q->nbusy < MAX_BUSY)
			break;
		/* as many writers as we track: wait for one to finish */
		e->next = q->tab[bucket(e->ino)];
		q->tab[bucket(e->ino)] = e;
		q->count++;
		pthread_cond_wait(&q->cond, &q->lock);
	}
	if (e)
		q->busy[q->nbusy++] = e->ino;
	return e;
}

static int flush_some(vfs *v, uint64_t ino, int sync, int final,
		      uint64_t min_age)
{
	struct btq *q = v->btq;
	struct memo *memo = NULL;
	size_t nmemo = 0, budget, ndone = 0, from = 0;
	uint64_t *done = NULL, cutoff = 0;
	int first = 0;

	if (!q)
		return 0;
	pthread_mutex_lock(&q->lock);
	/* what is pending now: under a stream of creates the flusher
	 * still returns */
	budget = ino ? 1 : q->count;
	if (min_age && q->count <= BTQ_MAX_PENDING)
		cutoff = now_ns() - min_age;
	pthread_mutex_unlock(&q->lock);
	while (budget--) {
		struct btq_ent *e;
		int rc;

		pthread_mutex_lock(&q->lock);
		e = take(q, ino, cutoff, &from);
		pthread_mutex_unlock(&q->lock);
		if (!e)
			break;
		rc = write_one(v, e, sync, &memo, &nmemo);
		unbusy(q, e->ino);
		if (rc && !first)
			first = rc;
		if (rc && !final) {
			cfs_log(CFS_LOG_WARN, "inode %llx: writing its "
				"backtrace: %s (will retry)",
				(unsigned long long)e->ino, cfs_strerror(rc));
			requeue(q, e);
			break; /* the next flush tries again */
		}
		if (rc)
			cfs_log(CFS_LOG_WARN, "inode %llx: writing its "
				"backtrace: %s (the next mount retries)",
				(unsigned long long)e->ino, cfs_strerror(rc));
		else if ((ndone & (ndone + 1)) == 0 &&
			 !(done = realloc_done(done, ndone)))
			ndone = 0; /* marks stay: rewritten after a crash */
		if (!rc && done)
			done[ndone++] = e->ino;
		ent_free(e);
	}
	/* written: their marks go, unless noted again meanwhile */
	if (ndone) {
		kv_batch *b = kv_batch_new();

		pthread_mutex_lock(&q->lock);
		for (size_t i = 0; b && i < ndone; i++)
			if (!find(q, done[i], 0))
				mds_del_btmark(b, done[i]);
		if (b && kv_batch_count(b))
			kv_batch_commit(v->db, b, 0);
		pthread_mutex_unlock(&q->lock);
		kv_batch_free(b);
	}
	free(done);
	for (size_t i = 0; i < nmemo; i++)
		free(memo[i].name);
	free(memo);
	return first;
}

int btq_flush(vfs *v, uint64_t ino, int sync, int final)
{
	return flush_some(v, ino, sync, final, 0);
}

int btq_flush_old(vfs *v)
{
	return flush_some(v, 0, 0, 0, BTQ_MIN_AGE_NS);
}

/* ---- after a crash ---- */

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
			note(v, l->ino, first ? OP_SET : OP_ADD, l->parent,
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
			note(v, k->ino, OP_SET, k->parent, k->name);
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
