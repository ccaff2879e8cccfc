/*
 * files.c - the file and whole-object API of objlayer.h on top of the
 * object operations of replicate.c: striping, holes, truncation, listing,
 * placement and space.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "objindex.h"
#include "objlayer_i.h"
#include "objstore.h"
#include "osdmap.h"
#include "usage.h"
#include "util.h"

ssize_t ol_write(objlayer *ol, uint64_t ino, const struct ol_layout *l,
		 uint64_t off, const void *buf, size_t len)
{
	struct ol_piece_iter it;
	struct ol_extent e;
	char name[64];
	size_t done = 0;
	int r = ol_piece_begin(&it, l, off, len);

	if (r)
		return r;
	/* in file order, so a refusal leaves a clean prefix written */
	while (ol_piece_next(&it, &e)) {
		ol_object_name(ino, e.objectno, name, sizeof(name));
		r = obj_write(ol, l->pool, name, e.obj_off,
			      (const char *)buf + (e.file_off - off),
			      (size_t)e.len, F_ASYNC);
		if (r)
			return done ? (ssize_t)done : r;
		done += (size_t)e.len;
	}
	return (ssize_t)done;
}

ssize_t ol_read(objlayer *ol, uint64_t ino, const struct ol_layout *l,
		uint64_t file_size, uint64_t off, void *buf, size_t len)
{
	struct ol_piece_iter it;
	struct ol_extent e;
	char name[64];
	size_t done = 0;
	int r;

	if (off >= file_size)
		return 0;
	if (len > file_size - off)
		len = (size_t)(file_size - off);
	r = ol_piece_begin(&it, l, off, len);
	if (r)
		return r;
	while (ol_piece_next(&it, &e)) {
		char *dst = (char *)buf + (e.file_off - off);
		ssize_t n;

		ol_object_name(ino, e.objectno, name, sizeof(name));
		n = obj_read(ol, l->pool, name, e.obj_off, dst, (size_t)e.len,
			     NULL, NULL);
		if (n == -ENOENT)
			n = 0; /* a missing object is a hole */
		if (n < 0)
			return done ? (ssize_t)done : n;
		/* past the object's end: zeros */
		if ((uint64_t)n < e.len)
			memset(dst + n, 0, (size_t)(e.len - (uint64_t)n));
		done += (size_t)e.len;
	}
	return (ssize_t)done;
}

/* The objects a file has (the index knows), not the ones its size
 * allows: a sparse 1 PiB file with 3 bytes has one. */
struct objlist {
	uint64_t *no, *size;
	size_t n, cap;
	int err;
};

static int collect(uint64_t objectno, uint64_t size, void *arg)
{
	struct objlist *l = arg;

	if (l->n == l->cap) {
		size_t nc = l->cap ? l->cap * 2 : 16;
		uint64_t *a = realloc(l->no, nc * sizeof(*a));
		uint64_t *b = a ? realloc(l->size, nc * sizeof(*b)) : NULL;

		if (a)
			l->no = a;
		if (!a || !b)
			return l->err = -ENOMEM;
		l->size = b;
		l->cap = nc;
	}
	l->no[l->n] = objectno;
	l->size[l->n++] = size;
	return 0;
}

static int file_objects(objlayer *ol, int64_t pool, uint64_t ino,
			struct objlist *l)
{
	int r;

	/* the RADOS backend's index has an object once RADOS has it */
	if (ol->rb)
		rb_wait_inode(ol, ino);
	r = ol_file_objects(ol, pool, ino, collect, l);

	return r ? r : l->err;
}

int ol_truncate(objlayer *ol, uint64_t ino, const struct ol_layout *l,
		uint64_t old_size, uint64_t new_size)
{
	struct objlist ob = { 0 };
	uint64_t keep_size = new_size < old_size ? new_size : old_size;
	char name[64];
	int r;

	if (!ol_layout_valid(l))
		return -EINVAL;
	/* Shrinking cuts at the new end.  Growing cuts at the old end too:
	 * bytes an object holds past it (left by a crash before the size
	 * was saved) must read as the zeros of the new range. */
	r = file_objects(ol, l->pool, ino, &ob);
	for (size_t i = 0; i < ob.n; i++) {
		uint64_t now = ol_object_bytes(l, ob.no[i], keep_size);
		int e;

		if (now >= ob.size[i])
			continue;
		ol_object_name(ino, ob.no[i], name, sizeof(name));
		/* object 0 stays, empty: it carries the file's attributes
		 * (the backtrace), as CephFS keeps it on a truncate */
		e = now || ob.no[i] == 0 ? obj_truncate(ol, l->pool, name, now)
					 : obj_remove(ol, l->pool, name, 1);
		if (e && !r)
			r = e;
	}
	free(ob.no);
	free(ob.size);
	return r;
}

/* op on every object the file has; the first error, after trying them
 * all (one unreachable object must not stop the others). */
static int each_object(objlayer *ol, uint64_t ino,
		       const struct ol_layout *l,
		       int (*op)(objlayer *, int64_t, const char *))
{
	struct objlist ob = { 0 };
	char name[64];
	int r;

	if (!ol_layout_valid(l))
		return -EINVAL;
	r = file_objects(ol, l->pool, ino, &ob);
	for (size_t i = 0; i < ob.n; i++) {
		int e;

		ol_object_name(ino, ob.no[i], name, sizeof(name));
		e = op(ol, l->pool, name);
		if (e && !r)
			r = e;
	}
	free(ob.no);
	free(ob.size);
	return r;
}

static int remove_if_there(objlayer *ol, int64_t pool, const char *name)
{
	return ol->rb ? rb_remove_async(ol, name)
		      : obj_remove(ol, pool, name, 1);
}

int ol_remove(objlayer *ol, uint64_t ino, const struct ol_layout *l,
	      uint64_t size)
{
	int r;

	(void)size; /* every object of the file goes, past its size too */
	r = each_object(ol, ino, l, remove_if_there);
	/* a file in another pool has its backtrace on object 0 in the
	 * default data pool too (CephFS keeps every inode's there) */
	if (!r && l->pool != ol->pool) {
		char name[64];

		ol_object_name(ino, 0, name, sizeof(name));
		r = remove_if_there(ol, ol->pool, name);
	}
	return r;
}

struct sync_job {
	objlayer *ol;
	int64_t pool;
	uint64_t ino;
	const uint64_t *no;
	int *err;
};

static void sync_one(void *arg, int i)
{
	struct sync_job *j = arg;
	char name[64];

	ol_object_name(j->ino, j->no[i], name, sizeof(name));
	j->err[i] = obj_sync(j->ol, j->pool, name);
}

int ol_sync(objlayer *ol, uint64_t ino, const struct ol_layout *l,
	    uint64_t size)
{
	struct objlist ob = { 0 };
	int r, *err;

	(void)size;
	if (!ol_layout_valid(l))
		return -EINVAL;
	if (ol->rb) {
		/* RADOS acknowledges a write once it is durable: what was
		 * written back is all there is to wait for */
		r = rb_flush(ol, ino, 1);
		return r ? r : cfs_index_sync(ol->c);
	}
	/* every object's copies at once: the disk sees the fsyncs together
	 * rather than one after another */
	r = file_objects(ol, l->pool, ino, &ob);
	err = calloc(ob.n + 1, sizeof(*err));
	if (!err) {
		r = -ENOMEM;
	} else if (ob.n) {
		struct sync_job j = { ol, l->pool, ino, ob.no, err };

		ol_parallel(ol, sync_one, &j, (int)ob.n);
		for (size_t i = 0; i < ob.n; i++)
			if (err[i] && !r)
				r = err[i];
	}
	free(err);
	free(ob.no);
	free(ob.size);
	/* the index says which version is current: durable with the data */
	if (!r)
		r = cfs_index_sync(ol->c);
	return r;
}

int ol_flush(objlayer *ol, uint64_t ino)
{
	return ol->rb ? rb_flush(ol, ino, 0) : 0;
}

int ol_removed(objlayer *ol, uint64_t ino)
{
	return ol->rb ? rb_removed(ol, ino) : 0;
}

static int add_size(uint64_t objectno, uint64_t size, void *arg)
{
	(void)objectno;
	*(uint64_t *)arg += size;
	return 0;
}

/*
 * A stat after a write misses the cache below (the write moved the
 * stem's generation) and paid a scan: an iterator over every pool's
 * index, 4% of the daemon in an untar and most of a GETATTR after a
 * create (docs/performance.md).  A file known to hold nothing past its
 * size has data in the first ol_object_count() objects of its layout's
 * pool only, and a few point reads of the index cost less than one
 * iterator.
 */
#define OL_BYTES_POINT 4

static int count_bytes(objlayer *ol, uint64_t ino, const struct ol_layout *l,
		       uint64_t n, uint64_t *bytes)
{
	const cfs_osdmap *m;
	int r = 0;

	*bytes = 0;
	if (l && n <= OL_BYTES_POINT) {
		if (ol->rb && l->pool != ol->pool)
			return 0;
		for (uint64_t i = 0; i < n; i++) {
			struct cfs_objinfo oi;
			char name[64];

			ol_object_name(ino, i, name, sizeof(name));
			r = cfs_index_get(ol->c, l->pool, name, &oi);
			if (r == -ENOENT)
				continue;
			if (r)
				return r;
			*bytes += oi.size;
		}
		return 0;
	}
	/* the file's data is in its layout's pool, its backtrace (0 bytes)
	 * in the default one: every pool that can hold objects counts */
	m = cfs_osdmap_get(ol->c);
	for (int i = 0; i < cfs_osdmap_npools(m) && !r; i++) {
		const struct cfs_pool_info *p = cfs_osdmap_pool_at(m, i);

		if (!ol->rb || p->id == ol->pool)
			r = ol_file_objects(ol, p->id, ino, add_size, bytes);
	}
	cfs_osdmap_put(m);
	return r;
}

int ol_file_bytes_upto(objlayer *ol, uint64_t ino, const struct ol_layout *l,
		       uint64_t size, uint64_t *bytes)
{
	struct ol_bytes_slot *s = &ol->bytes[ino % OL_BYTES_SLOTS];
	uint64_t n = size == UINT64_MAX || !l ? UINT64_MAX
					      : ol_object_count(l, size);
	/* what count_bytes counts: the first n objects of l's pool, or
	 * everything */
	uint64_t cover = l && n <= OL_BYTES_POINT ? n : UINT64_MAX;
	int64_t pool = cover == UINT64_MAX ? -1 : l->pool;
	char stem[24];
	uint64_t gen;
	int r, hit;

	snprintf(stem, sizeof(stem), "%llx", (unsigned long long)ino);
	/* read before the count: a change committed during it moves it */
	gen = cfs_index_stem_gen(ol->c, stem);
	pthread_mutex_lock(&ol->bytes_lock);
	/* a whole count serves every caller (a file that holds nothing
	 * past its size has nothing in the objects past the first n) */
	hit = s->valid && s->ino == ino && s->gen == gen &&
	      (s->cover == UINT64_MAX || (s->cover == cover && s->pool == pool));
	if (hit)
		*bytes = s->bytes;
	pthread_mutex_unlock(&ol->bytes_lock);
	if (hit)
		return 0;
	r = count_bytes(ol, ino, l, n, bytes);
	if (r == 0 && cfs_index_stem_gen(ol->c, stem) == gen) {
		pthread_mutex_lock(&ol->bytes_lock);
		*s = (struct ol_bytes_slot){ ino, *bytes, gen, cover, pool, 1 };
		pthread_mutex_unlock(&ol->bytes_lock);
	}
	return r;
}

/*
 * The first GETATTR after a write (the stat of each small file just made,
 * the SETATTR reply of each file tar makes) found the cache above stale,
 * since the write moved the stem's generation, and read the index again
 * for what the write had just put there.  A write of a file's object 0
 * notes that object's new size instead: the whole answer for a file that
 * fits in it (cover 1 in that pool).  gen0 is the stem's generation read
 * before the write's index record; the note is taken only when that
 * record was the one change since (gen0 + 1 now), so no other object's
 * change is hidden in it.  An absolute size, not a difference: a count
 * racing with the write that stored the same record stored the same
 * value.
 */
void ol_bytes_noted(objlayer *ol, int64_t pool, const char *name,
		    uint64_t size, uint64_t gen0)
{
	struct ol_bytes_slot *s;
	uint64_t ino;
	char *end;

	/* a file's object 0 only: `%llx.00000000` */
	if (!isxdigit((unsigned char)name[0]))
		return;
	errno = 0;
	ino = strtoull(name, &end, 16);
	if (errno || strcmp(end, ".00000000"))
		return;
	s = &ol->bytes[ino % OL_BYTES_SLOTS];
	pthread_mutex_lock(&ol->bytes_lock);
	if (cfs_index_stem_gen(ol->c, name) == gen0 + 1)
		*s = (struct ol_bytes_slot){ ino, size, gen0 + 1, 1, pool, 1 };
	pthread_mutex_unlock(&ol->bytes_lock);
}

int ol_file_bytes(objlayer *ol, uint64_t ino, uint64_t *bytes)
{
	return ol_file_bytes_upto(ol, ino, NULL, UINT64_MAX, bytes);
}

/* ---- whole objects ---- */

int ol_obj_write_full(objlayer *ol, int64_t pool, const char *name,
		      const void *buf, size_t len)
{
	return obj_write(ol, pool, name, 0, buf, len, F_FULL);
}

int ol_obj_write(objlayer *ol, int64_t pool, const char *name, uint64_t off,
		 const void *buf, size_t len)
{
	return obj_write(ol, pool, name, off, buf, len, 0);
}

ssize_t ol_obj_read(objlayer *ol, int64_t pool, const char *name,
		    uint64_t off, void *buf, size_t len)
{
	return obj_read(ol, pool, name, off, buf, len, NULL, NULL);
}

int ol_obj_stat(objlayer *ol, int64_t pool, const char *name, uint64_t *size)
{
	uint64_t s = 0;
	ssize_t r = obj_read(ol, pool, name, 0, NULL, 0, &s, NULL);

	if (r < 0)
		return (int)r;
	if (size)
		*size = s;
	return 0;
}

int ol_obj_stat_mtime(objlayer *ol, int64_t pool, const char *name,
		      uint64_t *size, struct timespec *mtime)
{
	uint64_t s = 0;
	ssize_t r = obj_read(ol, pool, name, 0, NULL, 0, &s, mtime);

	if (r < 0)
		return (int)r;
	if (size)
		*size = s;
	return 0;
}

int ol_obj_remove(objlayer *ol, int64_t pool, const char *name)
{
	return obj_remove(ol, pool, name, 0);
}

static int list_one(const char *name, const struct cfs_objinfo *oi, int op,
		    void *arg)
{
	(void)oi;
	(void)op;
	ol_names_add(arg, name);
	return 0;
}

/* The objects that exist are the index's (a file nobody wrote through the
 * layer is no object); collected first so fn may do I/O on them. */
int ol_obj_list(objlayer *ol, int64_t pool,
		int (*fn)(const char *name, void *arg), void *arg)
{
	struct ol_names all = { 0 };
	int r = cfs_index_foreach(ol->c, pool, "", 0, list_one, &all);

	if (!r)
		r = all.err;
	for (size_t i = 0; i < all.n && !r; i++)
		r = fn(all.v[i], arg);
	ol_names_free(all.v, all.n);
	return r;
}

/* ---- placement ---- */

int ol_locate(objlayer *ol, int64_t pool, const char *objname,
	      struct ol_placement *p)
{
	const cfs_osdmap *m = cfs_osdmap_get(ol->c);
	const struct cfs_pg_mapping *pg;
	uint32_t ps;
	uint64_t size = 0;
	ssize_t r;

	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", objname);
	if (cfs_pool_object_to_pg(m, pool, objname, NULL, &ps) ||
	    !(pg = cfs_osdmap_pool_pg(m, pool, ps))) {
		cfs_osdmap_put(m);
		return -ENOENT;
	}
	snprintf(p->pgid, sizeof(p->pgid), "%lld.%x", (long long)pool, ps);
	p->epoch = cfs_osdmap_epoch(m);
	p->nup = pg->nup < 16 ? pg->nup : 16;
	memcpy(p->up, pg->up, sizeof(int) * (size_t)p->nup);
	p->up_primary = pg->up_primary;
	p->nacting = pg->nacting < 16 ? pg->nacting : 16;
	memcpy(p->acting, pg->acting, sizeof(int) * (size_t)p->nacting);
	p->acting_primary = pg->acting_primary;
	cfs_osdmap_put(m);
	r = obj_read(ol, pool, objname, 0, NULL, 0, &size, NULL);
	if (r >= 0) {
		p->exists = 1;
		p->size = size;
	}
	return 0;
}

int ol_object_path(objlayer *ol, int64_t pool, const char *objname, int osd,
		   char *buf, size_t len)
{
	const cfs_osdmap *m = cfs_osdmap_get(ol->c);
	const struct cfs_pool_info *p = cfs_osdmap_pool_by_id(m, pool);
	uint32_t ps;
	int r = cfs_pool_object_to_pg(m, pool, objname, NULL, &ps);

	if (!r && p->erasure) {
		/* the shard the OSD has: its position in the up or acting
		 * set (shard i on acting[i]) */
		const struct cfs_pg_mapping *pg =
			cfs_osdmap_pool_pg(m, pool, ps);
		int i = -1;

		for (int k = 0; pg && k < pg->nacting && i < 0; k++)
			if (pg->acting[k] == osd)
				i = k;
		for (int k = 0; pg && k < pg->nup && i < 0; k++)
			if (pg->up[k] == osd)
				i = k;
		if (i < 0)
			r = -ENOENT;
		else
			ps = cfs_shard_ps(ps, p->size, i);
	}
	cfs_osdmap_put(m);
	if (!r)
		r = cfs_obj_path(ol->c, osd, pool, ps, objname, buf, len);
	return r;
}

/* ---- space ---- */

int ol_space(objlayer *ol, struct ol_space *s)
{
	const cfs_osdmap *m = cfs_osdmap_get(ol->c);
	int size = cfs_osdmap_pool(m)->size;
	uint64_t total = 0, used = 0;

	for (int osd = 0; osd < cfs_osdmap_max_osd(m); osd++) {
		struct cfs_osd_info info;
		struct cfs_osd_usage u;

		if (cfs_osdmap_osd(m, osd, &info) ||
		    !cfs_osdmap_osd_in_rule(m, osd))
			continue;
		cfs_osd_usage(ol->c, osd, &u);
		used += u.used;
		if (info.reweight > 0)
			total += info.capacity;
	}
	s->total = total / (uint64_t)size;
	s->used = used / (uint64_t)size;
	s->max_avail = cfs_pool_max_avail(ol->c, m);
	cfs_osdmap_put(m);
	return 0;
}
