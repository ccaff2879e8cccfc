/*
 * rebuild.c - `crushfs fsck --rebuild-metadata` (fs_rebuild_metadata in
 * fs.h): a new metadata store from the objects alone, the job of
 * cephfs-data-scan (src/tools/cephfs/DataScan.cc) after the metadata pool
 * is lost.
 *
 *  1. The old store, when there is one that cannot be read (or with
 *     --force one that can), is moved aside to DIR/mds.damaged-<time>,
 *     never deleted.
 *  2. scan_extents: every object named like a file's is listed with its
 *     size and mtime; grouped by inode, the size of a file is where its
 *     data ends (recover.c rc_file_end over all its objects).
 *  3. scan_inodes: the backtrace of each inode's object 0 (backtrace.h)
 *     says its type, mode, owner, layout and links.  Links are claimed
 *     newest first (the backtrace's stamp): a name two inodes claim goes
 *     to the one that got it last.  A directory whose own backtrace is
 *     lost is remade from the ancestry its descendants carry (mode 0755).
 *     Whatever cannot be placed - no backtrace, a parent that is not
 *     there, a directory cycle left by stale backtraces - goes into
 *     /lost+found, named #<ino>, as scan_inodes does.
 *  4. The store is written in DIR/mds.rebuild, synced, and renamed to
 *     DIR/mds; new inode numbers start above every inode found
 *     (cephfs-table-tool take_inos).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fsd_i.h"
#include "recover.h"
#include "util.h"

struct node {
	uint64_t ino;
	struct rc_inode *ri;	/* NULL: the root, a remade directory,
				 * lost+found */
	struct mds_inode rec;
	uint64_t stamp;		/* of its backtrace: newer claims win */
	uint64_t pdir;		/* a remade directory: where it was */
	const char *pname;
	uint64_t parent;	/* directories: where they are placed */
	uint32_t links, subdirs;
	int state;		/* directories: reaching the root, below */
	int used;
};

struct dent {
	uint64_t dir, ino;
	char *name;
	struct dent *next;
	int gone;
};

#define DBUCKETS 65536

struct rb {
	cfs_cluster *c;
	objlayer *ol;
	void (*progress)(const char *, void *);
	void *arg;
	struct fs_rebuild_report *r;
	struct rc_obj *objs;
	size_t nobjs, objcap;
	struct rc_inode *inos;
	size_t ninos;
	struct node *tab;
	size_t cap, n;
	struct dent *dtab[DBUCKETS];
	uint64_t lf_ino, max_ino, seq;
	const cfs_osdmap *map;
	int64_t pool; /* the pool being listed */
	int min_size;
	uint32_t *inactive, pg_num; /* objects per PG not read */
	uint32_t uid, gid;
};

static void say(struct rb *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void say(struct rb *b, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	if (!b->progress)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	b->progress(buf, b->arg);
}

/* ---- nodes (open addressing on the inode number) ---- */

static size_t slot(const struct rb *b, uint64_t ino)
{
	return (size_t)((ino * 0x9e3779b97f4a7c15ULL) >> 17) & (b->cap - 1);
}

static struct node *find(struct rb *b, uint64_t ino)
{
	for (size_t i = slot(b, ino);; i = (i + 1) & (b->cap - 1)) {
		if (!b->tab[i].used)
			return NULL;
		if (b->tab[i].ino == ino)
			return &b->tab[i];
	}
}

/* Room for `more` nodes is made before pointers are taken. */
static int reserve(struct rb *b, size_t more)
{
	struct node *old = b->tab;
	size_t ocap = b->cap, ncap = b->cap ? b->cap : 1024;

	while ((b->n + more) * 2 > ncap)
		ncap *= 2;
	if (ncap == ocap)
		return 0;
	b->tab = calloc(ncap, sizeof(*b->tab));
	if (!b->tab) {
		b->tab = old;
		return -ENOMEM;
	}
	b->cap = ncap;
	for (size_t i = 0; i < ocap; i++) {
		size_t s;

		if (!old[i].used)
			continue;
		s = slot(b, old[i].ino);
		while (b->tab[s].used)
			s = (s + 1) & (b->cap - 1);
		b->tab[s] = old[i];
	}
	free(old);
	return 0;
}

static struct node *add(struct rb *b, uint64_t ino)
{
	size_t s = slot(b, ino);

	while (b->tab[s].used)
		s = (s + 1) & (b->cap - 1);
	memset(&b->tab[s], 0, sizeof(b->tab[s]));
	b->tab[s].used = 1;
	b->tab[s].ino = ino;
	b->n++;
	if (ino > b->max_ino)
		b->max_ino = ino;
	return &b->tab[s];
}

static void make_dir(struct rb *b, struct node *nd, uint32_t mode)
{
	memset(&nd->rec, 0, sizeof(nd->rec));
	nd->rec.ino = nd->ino;
	nd->rec.mode = S_IFDIR | mode;
	nd->rec.uid = b->uid;
	nd->rec.gid = b->gid;
	nd->rec.generation = 1;
	clock_gettime(CLOCK_REALTIME, &nd->rec.mtime);
	nd->rec.atime = nd->rec.ctime = nd->rec.btime = nd->rec.mtime;
}

/* ---- entries ---- */

static size_t dbucket(uint64_t dir, const char *name)
{
	uint64_t h = 1469598103934665603ULL ^ dir;

	for (; *name; name++) {
		h ^= (unsigned char)*name;
		h *= 1099511628211ULL;
	}
	return (size_t)(h % DBUCKETS);
}

static struct dent *dlookup(struct rb *b, uint64_t dir, const char *name)
{
	for (struct dent *d = b->dtab[dbucket(dir, name)]; d; d = d->next)
		if (!d->gone && d->dir == dir && !strcmp(d->name, name))
			return d;
	return NULL;
}

static int dlink(struct rb *b, uint64_t dir, const char *name,
		 struct node *child)
{
	struct dent *d = calloc(1, sizeof(*d));
	size_t h = dbucket(dir, name);

	if (!d || !(d->name = strdup(name))) {
		free(d);
		return -ENOMEM;
	}
	d->dir = dir;
	d->ino = child->ino;
	d->next = b->dtab[h];
	b->dtab[h] = d;
	child->links++;
	if (S_ISDIR(child->rec.mode)) {
		child->parent = dir;
		find(b, dir)->subdirs++;
	}
	return 0;
}

/* Move directory nd from where it is into lost+found. */
static int to_lost_found(struct rb *b, struct node *nd)
{
	char name[32];

	for (size_t h = 0; h < DBUCKETS && nd->links; h++)
		for (struct dent *d = b->dtab[h]; d; d = d->next)
			if (!d->gone && d->ino == nd->ino) {
				d->gone = 1;
				nd->links--;
				if (S_ISDIR(nd->rec.mode))
					find(b, d->dir)->subdirs--;
			}
	snprintf(name, sizeof(name), "#%" PRIx64, nd->ino);
	b->r->lost_found++;
	return dlink(b, b->lf_ino, name, nd);
}

/* ---- 2: scan_extents ---- */

static int list_cb(const char *name, void *arg)
{
	struct rb *b = arg;
	uint64_t ino, objno, size = 0;
	struct timespec mt = { 0, 0 };
	uint32_t ps;
	int rc;

	b->r->objects++;
	if (b->r->objects % 5000 == 0)
		say(b, "scanned %" PRIu64 " objects", b->r->objects);
	if (!meta_objname_parse(name, &ino, &objno))
		return 0; /* a rados object of the user */
	b->r->file_objects++;
	/* a PG that cannot serve reads: counted, said once per PG */
	ol_map_object_pg(b->map, b->pool, name, &ps);
	if (ol_map_pg_nacting(b->map, b->pool, ps) < b->min_size) {
		b->inactive[ps]++;
		b->r->unreadable++;
		return 0;
	}
	rc = ol_obj_stat_mtime(b->ol, b->pool, name, &size, &mt);
	if (rc == -ENOENT)
		return 0; /* gone since the listing */
	if (rc) {
		say(b, "object %s: %s: left out", name, cfs_strerror(rc));
		b->r->unreadable++;
		return 0;
	}
	if (b->nobjs == b->objcap) {
		size_t nc = b->objcap ? b->objcap * 2 : 1024;
		struct rc_obj *nv = realloc(b->objs, nc * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		b->objs = nv;
		b->objcap = nc;
	}
	b->objs[b->nobjs].ino = ino;
	b->objs[b->nobjs].objno = objno;
	b->objs[b->nobjs].size = size;
	b->objs[b->nobjs].mtime = mt;
	b->objs[b->nobjs].pool = b->pool;
	b->nobjs++;
	return 0;
}

/* scan_extents over one pool: its objects into b, its unreadable PGs
 * said. */
static int list_pool(struct rb *b, const struct ol_pool_info *p)
{
	int rc;

	b->pool = p->id;
	b->min_size = p->min_size;
	b->pg_num = p->pg_num;
	free(b->inactive);
	b->inactive = calloc(b->pg_num, sizeof(*b->inactive));
	if (!b->inactive)
		return -ENOMEM;
	rc = ol_obj_list(b->ol, p->id, list_cb, b);
	for (uint32_t ps = 0; !rc && ps < b->pg_num; ps++) {
		if (!b->inactive[ps])
			continue;
		say(b, "pg %lld.%x: %d OSD(s) in its acting set, min_size "
		    "%d: its %u object(s) cannot be read", (long long)p->id,
		    ps, ol_map_pg_nacting(b->map, p->id, ps),
		    b->min_size, b->inactive[ps]);
	}
	return rc;
}

/* ---- 3: scan_inodes ---- */

static int newer_first(const void *x, const void *y)
{
	const struct node *a = *(struct node *const *)x;
	const struct node *c = *(struct node *const *)y;

	if (a->stamp != c->stamp)
		return a->stamp > c->stamp ? -1 : 1;
	return a->ino < c->ino ? -1 : a->ino > c->ino;
}

/* A directory a backtrace names but whose own is lost: remade, placed
 * where the ancestry says. */
static void remake_parents(struct rb *b, const struct node *nd)
{
	const struct backtrace *bt = &nd->ri->bt;

	for (size_t k = 0; k < bt->nanc; k++) {
		uint64_t d = bt->anc[k].dirino;
		struct node *p;

		if (d == MDS_ROOT_INO || find(b, d))
			continue;
		p = add(b, d);
		make_dir(b, p, 0755);
		p->stamp = 0; /* real claims win */
		if (k + 1 < bt->nanc) {
			p->pdir = bt->anc[k + 1].dirino;
			p->pname = bt->anc[k + 1].name;
		}
		b->r->dirs_remade++;
	}
}

/* Try nd's links (primary first); 1 when one was taken. */
static int place(struct rb *b, struct node *nd)
{
	int placed = 0, rc;

	if (!nd->ri || !nd->ri->has_bt) {
		if (!nd->pdir)
			return 0;
		/* a remade directory */
		struct node *p = find(b, nd->pdir);

		if (!p || !S_ISDIR(p->rec.mode) || dlookup(b, nd->pdir,
							   nd->pname))
			return 0;
		rc = dlink(b, nd->pdir, nd->pname, nd);
		return rc ? rc : 1;
	}
	for (size_t i = 0; i < 1 + nd->ri->bt.nlinks; i++) {
		const struct bt_dentry *l = i == 0 ? &nd->ri->bt.anc[0] :
					    &nd->ri->bt.links[i - 1];
		struct node *p = find(b, l->dirino);

		if (!p || !S_ISDIR(p->rec.mode) || l->dirino == nd->ino)
			continue;
		if (dlookup(b, l->dirino, l->name)) {
			b->r->conflicts++;
			continue; /* a newer claim has it */
		}
		rc = dlink(b, l->dirino, l->name, nd);
		if (rc)
			return rc;
		placed = 1;
		if (S_ISDIR(nd->rec.mode))
			break; /* one link only */
	}
	return placed;
}

/* Every directory must reach the root: a walk up that meets itself (a
 * cycle of stale backtraces) moves the directory to lost+found. */
enum { ST_NEW, ST_WALK, ST_ROOT };

static int fix_cycles(struct rb *b)
{
	for (size_t i = 0; i < b->cap; i++) {
		struct node *nd = &b->tab[i];

		while (nd->used && S_ISDIR(nd->rec.mode) &&
		       nd->state != ST_ROOT) {
			struct node *x = nd, *last = NULL;
			int rc;

			/* up until the root, a known good one, or a loop */
			while (x && x->state == ST_NEW) {
				x->state = ST_WALK;
				last = x;
				x = find(b, x->parent);
			}
			if (x && x->state == ST_ROOT) {
				/* everything walked reaches the root */
				for (struct node *y = nd; y != x;
				     y = find(b, y->parent))
					y->state = ST_ROOT;
				x->state = ST_ROOT;
				break;
			}
			/* a loop through last (or a parent that is not
			 * there): cut it there, start again */
			for (struct node *y = nd; y && y->state == ST_WALK;
			     y = find(b, y->parent))
				y->state = ST_NEW;
			rc = to_lost_found(b, last);
			if (rc)
				return rc;
			b->r->cycles++;
		}
	}
	return 0;
}

static int build(struct rb *b)
{
	struct node **order = NULL, *root, *lf;
	size_t n = 0;
	int rc;

	rc = reserve(b, b->ninos * 2 + 64);
	if (rc)
		return rc;
	root = add(b, MDS_ROOT_INO);
	make_dir(b, root, 0755);
	root->rec.parent = MDS_ROOT_INO;
	root->state = ST_ROOT;
	for (size_t i = 0; i < b->ninos; i++) {
		struct rc_inode *ri = &b->inos[i];
		struct node *nd;
		struct ol_layout deflt;

		if (ri->ino == MDS_ROOT_INO || find(b, ri->ino))
			continue;
		ol_default_layout(b->ol, &deflt);
		nd = add(b, ri->ino);
		nd->ri = ri;
		rc_make_inode(ri, &deflt, b->uid, b->gid, &nd->rec);
		nd->stamp = ri->has_bt ? ri->bt.stamp : 0;
		if (!ri->has_bt)
			b->r->no_backtrace++;
	}
	/* directories named only in ancestries */
	for (size_t i = 0; i < b->ninos; i++) {
		struct node *nd = find(b, b->inos[i].ino);

		if (nd && nd->ri && nd->ri->has_bt) {
			rc = reserve(b, nd->ri->bt.nanc);
			if (rc)
				return rc;
			remake_parents(b, find(b, b->inos[i].ino));
		}
	}
	/* lost+found, above every inode found */
	rc = reserve(b, 1);
	if (rc)
		return rc;
	b->lf_ino = b->max_ino + 1;
	lf = add(b, b->lf_ino);
	make_dir(b, lf, 0700);
	lf->state = ST_ROOT;
	/* claims, newest first */
	order = malloc(b->n * sizeof(*order));
	if (!order)
		return -ENOMEM;
	for (size_t i = 0; i < b->cap; i++)
		if (b->tab[i].used && b->tab[i].ino != MDS_ROOT_INO &&
		    b->tab[i].ino != b->lf_ino)
			order[n++] = &b->tab[i];
	qsort(order, n, sizeof(*order), newer_first);
	for (size_t i = 0; i < n; i++) {
		rc = place(b, order[i]);
		if (rc < 0)
			goto out;
	}
	/* the unplaced: lost+found */
	for (size_t i = 0; i < n; i++) {
		if (order[i]->links)
			continue;
		rc = to_lost_found(b, order[i]);
		if (rc)
			goto out;
	}
	rc = fix_cycles(b);
	if (rc)
		goto out;
	/* lost+found, when something went there, under the first name
	 * the rebuilt tree leaves free */
	if (b->r->lost_found) {
		char nm[64] = "lost+found";

		if (dlookup(b, MDS_ROOT_INO, nm))
			snprintf(nm, sizeof(nm), "lost+found.%" PRIx64,
				 b->lf_ino);
		rc = dlink(b, MDS_ROOT_INO, nm, find(b, b->lf_ino));
	}
out:
	free(order);
	return rc;
}

/* ---- 4: the store ---- */

static int write_store(struct rb *b, const char *path, const char *fsid)
{
	kv *db = NULL;
	mds *m = NULL;
	kv_batch *kb = kv_batch_new();
	char rmsg[900] = "";
	uint64_t done = 0;
	int rc;

	if (!kb)
		return -ENOMEM;
	rc = kv_open_rocksdb_msg(path, 1, &db, rmsg, sizeof(rmsg));
	if (rc == 0)
		rc = mds_format(db, fsid, b->uid, b->gid);
	if (rc == 0)
		rc = mds_open(db, fsid, &m);
	for (size_t i = 0; i < b->cap && rc == 0; i++) {
		struct node *nd = &b->tab[i];

		if (!nd->used || (!nd->links && nd->ino != MDS_ROOT_INO))
			continue;
		if (S_ISDIR(nd->rec.mode)) {
			nd->rec.nlink = 2 + nd->subdirs;
			nd->rec.parent = nd->ino == MDS_ROOT_INO ? MDS_ROOT_INO
								 : nd->parent;
		} else {
			nd->rec.nlink = nd->links;
			nd->rec.parent = 0;
		}
		mds_put_inode(kb, &nd->rec);
		if (S_ISLNK(nd->rec.mode))
			mds_put_symlink(kb, nd->ino, nd->ri->target,
					nd->ri->tlen);
		if (S_ISDIR(nd->rec.mode))
			b->r->dirs++;
		else if (S_ISREG(nd->rec.mode))
			b->r->files++;
		else
			b->r->others++;
		if (kv_batch_count(kb) >= 4096) {
			rc = kv_batch_commit(db, kb, 0);
			kv_batch_free(kb);
			kb = kv_batch_new();
			if (!kb)
				rc = -ENOMEM;
			done += 4096;
			say(b, "wrote %" PRIu64 " records", done);
		}
	}
	for (size_t h = 0; h < DBUCKETS && rc == 0; h++)
		for (struct dent *d = b->dtab[h]; d && rc == 0; d = d->next) {
			struct node *c = find(b, d->ino);
			struct mds_dentry de = { d->ino,
						 mds_mode_to_dt(c->rec.mode) };

			if (d->gone)
				continue;
			mds_put_dentry(kb, d->dir, d->name, &de);
			b->r->entries++;
			if (kv_batch_count(kb) >= 4096) {
				rc = kv_batch_commit(db, kb, 0);
				kv_batch_free(kb);
				kb = kv_batch_new();
				if (!kb)
					rc = -ENOMEM;
			}
		}
	if (rc == 0)
		rc = kv_batch_commit(db, kb, 1);
	/* take_inos: new numbers above everything found */
	if (rc == 0)
		rc = mds_alloc_above(m, b->max_ino);
	/* and the inode count statfs reports */
	if (rc == 0) {
		uint64_t stored, actual;

		rc = mds_recount_inodes(m, 1, &stored, &actual);
	}
	if (rc == 0) {
		b->r->next_ino = mds_next_ino(m);
		rc = kv_sync(db);
		b->seq = kv_seq(db);
	}
	kv_batch_free(kb);
	mds_close(m);
	kv_close(db);
	return rc;
}

/* ---- 5: backtraces of what was placed otherwise ---- */

static int dent_by_ino(const void *x, const void *y)
{
	const struct dent *a = *(struct dent *const *)x;
	const struct dent *c = *(struct dent *const *)y;

	if (a->ino != c->ino)
		return a->ino < c->ino ? -1 : 1;
	return a->dir < c->dir ? -1 : a->dir > c->dir ? 1
						     : strcmp(a->name, c->name);
}

/* The first entry of ino in the sorted v[0..n). */
static struct dent **first_of(struct dent **v, size_t n, uint64_t ino)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid]->ino < ino)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && v[lo]->ino == ino ? &v[lo] : NULL;
}

static int same_links(const struct backtrace *bt, struct dent **d, size_t k)
{
	if (bt->nanc == 0 || 1 + bt->nlinks != k)
		return 0;
	for (size_t i = 0; i < k; i++) {
		int found = 0;

		for (size_t j = 0; j < 1 + bt->nlinks && !found; j++) {
			const struct bt_dentry *x = j == 0 ? &bt->anc[0] :
						    &bt->links[j - 1];

			found = x->dirino == d[i]->dir &&
				!strcmp(x->name, d[i]->name);
		}
		if (!found)
			return 0;
	}
	return 1;
}

/*
 * The rebuilt tree is the truth now: an inode that had no backtrace, or
 * sits elsewhere than its backtrace says (lost+found, a name another
 * inode won, a directory remade), gets one that says where it is, so
 * that fsck finds the result clean and a second rebuild the same tree.
 */
static int write_backtraces(struct rb *b)
{
	struct dent **v;
	size_t n = 0;
	int rc = 0;

	for (size_t h = 0; h < DBUCKETS; h++)
		for (struct dent *d = b->dtab[h]; d; d = d->next)
			n += !d->gone;
	v = malloc((n ? n : 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	n = 0;
	for (size_t h = 0; h < DBUCKETS; h++)
		for (struct dent *d = b->dtab[h]; d; d = d->next)
			if (!d->gone)
				v[n++] = d;
	qsort(v, n, sizeof(*v), dent_by_ino);
	for (size_t i = 0; i < n && rc == 0;) {
		size_t k = 1, nanc = 1;
		struct node *nd = find(b, v[i]->ino);
		struct bt_dentry anc[64], links[64];
		unsigned char buf[BT_MAX_ENCODED];
		struct backtrace bt;
		struct timespec now;
		char name[64];
		size_t len;

		while (i + k < n && v[i + k]->ino == v[i]->ino)
			k++;
		if (nd->ri && nd->ri->has_bt &&
		    same_links(&nd->ri->bt, &v[i], k)) {
			i += k;
			continue;
		}
		anc[0].dirino = v[i]->dir;
		anc[0].name = v[i]->name;
		while (nanc < 64 && anc[nanc - 1].dirino != MDS_ROOT_INO) {
			struct dent **up = first_of(v, n, anc[nanc - 1].dirino);

			if (!up)
				break;
			anc[nanc].dirino = (*up)->dir;
			anc[nanc].name = (*up)->name;
			nanc++;
		}
		for (size_t j = 1; j < k && j <= 64; j++) {
			links[j - 1].dirino = v[i + j]->dir;
			links[j - 1].name = v[i + j]->name;
		}
		memset(&bt, 0, sizeof(bt));
		clock_gettime(CLOCK_REALTIME, &now);
		bt.ino = nd->ino;
		bt.mode = nd->rec.mode;
		bt.uid = nd->rec.uid;
		bt.gid = nd->rec.gid;
		bt.rdev = nd->rec.rdev;
		bt.mtime = nd->rec.mtime;
		bt.stamp = (uint64_t)now.tv_sec * 1000000000ULL +
			   (uint64_t)now.tv_nsec;
		bt.layout = nd->rec.layout;
		bt.anc = anc;
		bt.nanc = nanc;
		bt.links = links;
		bt.nlinks = k - 1 < 64 ? k - 1 : 64;
		rc = bt_encode(&bt, buf, sizeof(buf), &len);
		ol_object_name(nd->ino, 0, name, sizeof(name));
		if (rc == 0)
			rc = ol_obj_setattr(b->ol, ol_data_pool(b->ol), name, BT_XATTR, buf, len);
		if (rc == 0)
			b->r->backtraces++;
		i += k;
	}
	free(v);
	return rc;
}

/* DIR/mds -> DIR/mds.damaged-<time>[.N] */
static int move_aside(const char *dir, char *to, size_t tolen)
{
	char from[4096], ts[32];
	time_t t = time(NULL);
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(ts, sizeof(ts), "%Y%m%d-%H%M%S", &tm);
	snprintf(from, sizeof(from), "%s/mds", dir);
	for (int i = 0; i < 1000; i++) {
		if (i)
			snprintf(to, tolen, "%s/mds.damaged-%s.%d", dir, ts, i);
		else
			snprintf(to, tolen, "%s/mds.damaged-%s", dir, ts);
		if (access(to, F_OK) == 0)
			continue;
		if (rename(from, to) != 0)
			return -errno;
		return cfs_fsync_dir(dir);
	}
	return -EEXIST;
}

int fs_rebuild_metadata(cfs_cluster *c, objlayer *ol, int force,
			void (*progress)(const char *line, void *arg),
			void *arg, struct fs_rebuild_report *r, char *err,
			size_t errlen)
{
	const char *dir = ol_cluster_dir(c);
	struct ol_pool_info p;
	struct rb b;
	char path[4096], tmp[4096], fsid[64];
	kv *db = NULL;
	mds *m = NULL;
	int rc, state;

	memset(r, 0, sizeof(*r));
	memset(&b, 0, sizeof(b));
	b.c = c;
	b.ol = ol;
	b.progress = progress;
	b.arg = arg;
	b.r = r;
	b.uid = getuid();
	b.gid = getgid();
	ol_cluster_fsid(c, fsid, sizeof(fsid));
	snprintf(path, sizeof(path), "%s/mds", dir);
	snprintf(tmp, sizeof(tmp), "%s/mds.rebuild", dir);

	/* 1. what is there now */
	rc = meta_open_store(c, 0, &db, &m, &state, err, errlen);
	if (rc == 0) {
		mds_close(m);
		kv_close(db);
		if (!force) {
			snprintf(err, errlen, "%s: the metadata store is "
				 "readable: nothing to rebuild (fsck checks it; "
				 "--force rebuilds it anyway, keeping it aside)",
				 path);
			return -EEXIST;
		}
		state = META_DAMAGED;
	} else if (rc == -EBUSY) {
		return rc; /* err says: in use */
	} else if (state == META_NONE && !force) {
		snprintf(err, errlen, "%s: no filesystem was ever made here "
			 "and no file objects are in the pool: nothing to "
			 "rebuild", path);
		return -ENOENT;
	}
	cfs_rmtree(tmp); /* a rebuild cut short: ours */

	/* 2. scan_extents */
	say(&b, "listing the objects of %s", dir);
	b.map = ol_map_get(ol);
	rc = 0;
	/* every pool that can hold file data: a file's objects are in its
	 * layout's pool, every backtrace in the default one */
	for (int i = 0; !rc && ol_map_pool_at(b.map, i, &p) == 0; i++)
		if (!ol_is_rados(ol) || p.id == ol_data_pool(ol))
			rc = list_pool(&b, &p);
	if (rc) {
		snprintf(err, errlen, "%s: listing the objects: %s", dir,
			 cfs_strerror(rc));
		goto out;
	}
	say(&b, "scanned %" PRIu64 " objects, %" PRIu64 " of files",
	    r->objects, r->file_objects);
	if (r->unreadable && !force) {
		/* a tree without them would be a tree that lost files */
		snprintf(err, errlen, "%" PRIu64 " object(s) of files cannot "
			 "be read (see above): nothing changed; bring their "
			 "OSDs back first (or --force: rebuild without them)",
			 r->unreadable);
		rc = -EIO;
		goto out;
	}
	rc = rc_group(b.objs, b.nobjs, &b.inos, &b.ninos);
	if (rc)
		goto fail;

	/* 3. scan_inodes */
	for (size_t i = 0; i < b.ninos; i++) {
		rc = rc_load(ol, &b.inos[i]);
		if (rc) {
			say(&b, "inode %" PRIx64 ": reading its backtrace: %s",
			    b.inos[i].ino, cfs_strerror(rc));
			r->unreadable++;
			rc = 0;
		}
		if ((i + 1) % 5000 == 0)
			say(&b, "read %zu/%zu backtraces", i + 1, b.ninos);
	}
	r->inodes = b.ninos;
	{
		size_t with = 0;

		for (size_t i = 0; i < b.ninos; i++)
			with += b.inos[i].has_bt;
		say(&b, "%zu inodes in the objects, %zu with a backtrace: "
		    "placing them", b.ninos, with);
	}
	rc = build(&b);
	if (rc)
		goto fail;

	/* 4. the store, then it replaces the old one */
	rc = write_store(&b, tmp, fsid);
	if (rc) {
		snprintf(err, errlen, "%s: writing the new metadata store: %s",
			 tmp, cfs_strerror(rc));
		goto out;
	}
	if (state != META_MISSING && access(path, F_OK) == 0) {
		rc = move_aside(dir, r->aside, sizeof(r->aside));
		if (rc) {
			snprintf(err, errlen, "%s: cannot move it aside: %s",
				 path, cfs_strerror(rc));
			goto out;
		}
		say(&b, "the old store is kept as %s", r->aside);
	}
	if (rename(tmp, path) != 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: cannot put the new store in place: "
			 "%s", path, cfs_strerror(rc));
		goto out;
	}
	rc = cfs_fsync_dir(dir);
	if (rc == 0)
		rc = meta_marker_write(dir, fsid, b.seq);
	if (rc) {
		snprintf(err, errlen, "%s: %s", dir, cfs_strerror(rc));
		goto out;
	}
	rc = write_backtraces(&b);
	if (rc)
		snprintf(err, errlen, "the new metadata is in place; writing "
			 "backtraces failed (%s): `crushfs fsck` rewrites them",
			 cfs_strerror(rc));
	else if (r->backtraces)
		say(&b, "wrote %" PRIu64 " backtraces where the tree differs "
		    "from them", r->backtraces);
	goto out;
fail:
	snprintf(err, errlen, "rebuilding the metadata of %s: %s", dir,
		 cfs_strerror(rc));
out:
	for (size_t h = 0; h < DBUCKETS; h++)
		while (b.dtab[h]) {
			struct dent *d = b.dtab[h];

			b.dtab[h] = d->next;
			free(d->name);
			free(d);
		}
	for (size_t i = 0; i < b.ninos; i++)
		rc_inode_free(&b.inos[i]);
	free(b.inos);
	free(b.objs);
	free(b.tab);
	free(b.inactive);
	if (b.map)
		ol_map_put(b.map);
	return rc;
}
