/*
 * ec_io.c - one object of an erasure-coded pool over its k+m shards on
 * their OSDs: the store side of ec_object.c.
 *
 * Shard i of an object lives on acting[i] in the shard PG
 * cfs_shard_ps(ps, k+m, i) (osdsim's "POOL.PSs<i>_head" folder), each
 * shard file checksummed by the store and committed with the object's
 * version, so a shard that is absent, stale (an older version) or rotten
 * (checksum) is told from a good one and decoded around on reads, never
 * returned.  An indep hole or a down OSD is a shard that is not there.
 *
 * Crash safety: replication survives a torn write because any copy of the
 * newest version will do; erasure coding needs k shards of one version,
 * which in-place shard writes torn by a crash do not guarantee.  So
 * before any shard changes, the intent in the object index carries an
 * undo record (cfs_index_intent_undo): every shard's old length and the
 * old bytes of the shard ranges the change rewrites, as Ceph keeps
 * rollback information for EC overwrites (the stash of overwritten
 * extents).  An append rewrites nothing past the old end, so its record
 * is a few lengths.  A change commits when the index records the new
 * version (dropping the intent and its record in one batch); an
 * interrupted one is undone (ec_settle_object): every shard back to its
 * old bytes and length, whatever subset the crash tore.
 *
 * The changes themselves (writes, truncates, their undo records) are in
 * ec_write.c, the PG-wide work (statistics, backfill, purge, scrub) in
 * ec_pg.c; what they share is ec_io_i.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ec_codec.h"
#include "ec_io_i.h"
#include "objindex.h"
#include "objstore.h"
#include "osdmap.h"
#include "pgstate.h"
#include "placement.h"
#include "usage.h"
#include "util.h"



/* The profile's k, m and stripe_unit (Ceph's default 4 KiB). */
int ecx_init(struct ecx *x, objlayer *ol, const struct objop *op,
	     const char *name)
{
	const char *prof = op->pool->ec_profile;
	const char *k = cfs_ec_profile_get(op->m, prof, "k");
	const char *m = cfs_ec_profile_get(op->m, prof, "m");
	const char *su = cfs_ec_profile_get(op->m, prof, "stripe_unit");
	uint64_t unit = 4096;

	memset(x, 0, sizeof(*x));
	x->ol = ol;
	x->c = ol->c;
	x->op = op;
	x->name = name;
	x->s.k = k ? atoi(k) : 2;
	x->s.m = m ? atoi(m) : 2;
	if (su && cfs_parse_size(su, &unit))
		unit = 4096;
	x->s.chunk = (uint32_t)unit;
	x->width = x->s.k + x->s.m;
	if (x->s.k < 1 || x->s.m < 1 || x->width > EC_MAX_WIDTH ||
	    x->width != op->pool->size || !x->s.chunk)
		return -EINVAL;
	x->codec = ol_ec_codec(ol, x->s.k, x->s.m);
	if (!x->codec)
		return -EINVAL;
	for (int i = 0; i < x->width; i++) {
		int a = i < op->pg->nacting ? op->pg->acting[i] : -1;

		x->osd[i] = a >= 0 && a != PL_ITEM_NONE &&
					    a < cfs_osdmap_max_osd(op->m) &&
					    cfs_osdmap_is_up(op->m, a)
				    ? a
				    : -1;
	}
	return 0;
}

void ecx_done(struct ecx *x)
{
	for (int i = 0; i < x->width; i++)
		if (x->o[i])
			cfs_obj_put(x->o[i]);
}

struct ec_codec *ol_ec_codec(objlayer *ol, int k, int m)
{
	struct ec_codec *c = NULL;

	pthread_mutex_lock(&ol->ec_lock);
	for (int i = 0; i < ol->ncodecs && !c; i++)
		if (ec_codec_k(ol->codecs[i]) == k &&
		    ec_codec_m(ol->codecs[i]) == m)
			c = ol->codecs[i];
	if (!c && ol->ncodecs < OL_EC_CODECS &&
	    !ec_codec_new(k, m, &c))
		ol->codecs[ol->ncodecs++] = c;
	pthread_mutex_unlock(&ol->ec_lock);
	return c;
}

void ol_ec_codecs_free(objlayer *ol)
{
	for (int i = 0; i < ol->ncodecs; i++)
		ec_codec_free(ol->codecs[i]);
	ol->ncodecs = 0;
}

/* ---- the shard callbacks ---- */

/* Shard i as osd holds it, if it is there at the object's version:
 * -ENOENT when the PG state says it is not (or it is absent), -EBADMSG
 * when it is another version, -EIO on a failed read. */
static ssize_t read_from(struct ecx *x, int i, int osd, uint64_t off,
			 void *buf, size_t len)
{
	uint32_t sps = sps_of(x, i);
	uint64_t v;
	cfs_obj *o;
	ssize_t n;
	int missing;

	cfs_pg_lock(x->c, x->op->pid, sps);
	missing = !cfs_pg_is_holder(x->c, x->op->pid, sps, osd) ||
		  cfs_pg_is_missing(x->c, x->op->pid, sps, osd, x->name);
	cfs_pg_unlock(x->c, x->op->pid, sps);
	if (missing)
		return -ENOENT;
	n = cfs_obj_open(x->c, osd, x->op->pid, sps, x->name, 0, &o);
	if (n)
		return n == -ENOENT ? -ENOENT : -EIO;
	if (cfs_obj_version(o, &v) || v != x->version)
		n = -EBADMSG; /* stale or unvouched: not this version */
	else
		n = cfs_obj_pread(o, buf, len, off);
	cfs_obj_put(o);
	return n;
}

/*
 * Shard i from its acting OSD, else from another up holder of its shard
 * PG that has it at the object's version (Ceph's missing_loc: a stray
 * left by a remap, a backfill source), so that a shard on its way is
 * read where it is rather than decoded around.  The acting copy's own
 * failure is still reported to ec_object (it marks it for repair) unless
 * it is a known miss (its missing set, a backfill target).
 */
static ssize_t shard_read(void *arg, int i, uint64_t off, void *buf,
			  size_t len)
{
	struct ecx *x = arg;
	uint32_t sps = sps_of(x, i);
	ssize_t n = x->osd[i] >= 0 ? read_from(x, i, x->osd[i], off, buf, len)
				   : -ENOENT;
	int h[256], nh;

	if (n >= 0)
		return n;
	cfs_pg_lock(x->c, x->op->pid, sps);
	nh = cfs_pg_holders(x->c, x->op->pid, sps, h, 256);
	cfs_pg_unlock(x->c, x->op->pid, sps);
	for (int k = 0; k < nh; k++) {
		ssize_t e;

		if (h[k] == x->osd[i] || !cfs_osdmap_is_up(x->op->m, h[k]))
			continue;
		e = read_from(x, i, h[k], off, buf, len);
		if (e >= 0) {
			if (n != -ENOENT) /* the acting copy is bad */
				x->bad_acting |= 1ULL << i;
			return e;
		}
	}
	return n;
}

int ecx_shard_file(struct ecx *x, int i, cfs_obj **out)
{
	int r = 0;

	if (!x->o[i])
		r = cfs_obj_open(x->c, x->osd[i], x->op->pid, sps_of(x, i),
				 x->name, CFS_OBJ_CREATE, &x->o[i]);
	*out = x->o[i];
	return r;
}

/*
 * CRUSHFS_TEST_EC_CRASH_AFTER=N (tests only): the process dies as a kill
 * -9 would after its N-th shard write, so a test can see a change cut
 * short between shards settled at the next open.
 */
static void crash_point(void)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static pid_t owner;
	static long done;
	const char *e = getenv("CRUSHFS_TEST_EC_CRASH_AFTER");
	long n = e ? atol(e) : 0;

	if (n <= 0)
		return;
	pthread_mutex_lock(&lock);
	if (owner != getpid()) { /* counted per process (tests fork) */
		owner = getpid();
		done = 0;
	}
	if (++done == n)
		_exit(137);
	pthread_mutex_unlock(&lock);
}

/* Shard i's bytes, around the page cache when long and aligned. */
static int shard_put(struct ecx *x, int i, uint64_t off, const void *buf,
		     size_t len)
{
	cfs_obj *o;
	int r = ecx_shard_file(x, i, &o);

	if (!r)
		r = cfs_obj_pwrite_direct(o, buf, len, off);
	crash_point();
	return r;
}

static int shard_write(void *arg, int i, uint64_t off, const void *buf,
		       size_t len)
{
	struct ecx *x = arg;
	int r = shard_put(x, i, off, buf, len);

	if (r == -EBADMSG) /* rotten next to the change: not vouched for */
		x->rotten |= 1ULL << i;
	return r;
}

struct many {
	struct ecx *x;
	int shard[EC_MAX_WIDTH];
	unsigned char *const *buf;
	uint64_t off;
	size_t len;
	void (*fill)(void *farg, int shard);
	void *farg;
	int err[EC_MAX_WIDTH];
};

static void many_one(void *arg, int k)
{
	struct many *m = arg;
	int i = m->shard[k];

	if (m->fill)
		m->fill(m->farg, i);
	m->err[k] = shard_put(m->x, i, m->off, m->buf[i], m->len);
}

/* The shards in mask at once, as a replicated write's copies go
 * (ol_parallel): each waits for its device when written around the page
 * cache.  x->rotten is set here, after the join, not by the threads. */
static int shard_write_many(void *arg, uint64_t mask, uint64_t off,
			    unsigned char *const *buf, size_t len,
			    void (*fill)(void *farg, int shard), void *farg)
{
	struct ecx *x = arg;
	struct many m = { x, { 0 }, buf, off, len, fill, farg, { 0 } };
	int n = 0, r = 0;

	for (int i = 0; i < x->width; i++)
		if (mask >> i & 1)
			m.shard[n++] = i;
	ol_parallel(x->ol, many_one, &m, n);
	for (int k = 0; k < n; k++) {
		if (m.err[k] == -EBADMSG)
			x->rotten |= 1ULL << m.shard[k];
		if (m.err[k] && !r)
			r = m.err[k];
	}
	return r;
}

int ecx_shard_truncate(void *arg, int i, uint64_t len)
{
	struct ecx *x = arg;
	cfs_obj *o;
	int r = ecx_shard_file(arg, i, &o);

	if (!r)
		r = cfs_obj_truncate(o, len);
	if (r == -EBADMSG)
		x->rotten |= 1ULL << i;
	return r;
}

static const struct ec_shard_io shard_io = { shard_read, shard_write,
					     ecx_shard_truncate, NULL,
					     ol_bounce, shard_write_many };

void ecx_object_of(struct ecx *x, uint64_t avoid, struct ec_object *o,
		   struct ec_shard_io *io)
{
	*io = shard_io;
	io->arg = x;
	o->codec = x->codec;
	o->s = x->s;
	o->io = io;
	o->avoid = avoid;
}

/* ---- the operations (objio_*.c hand them an erasure pool's objects) ---- */



/* Shards whose OSD lacks the object at its current version (a missing
 * set names it, or the OSD is a backfill target still catching up):
 * they are neither read nor changed, recovery rebuilds them.  Makes each
 * usable OSD a holder of its shard PG. */
/*
 * Shard i's PG has no holder at all while its sibling shards hold
 * objects: every OSD of position i was down (or none was mapped) when
 * they were written.  The new holder lacks them all; ol_ensure_holder,
 * which knows only the PG's own holders, would take the PG for new and
 * empty, and a partial write would then make a shard of zeros current.
 * The siblings' names (each under its own PG lock) go missing on it.
 */
static int first_shard_holder(objlayer *ol, int64_t pool, uint32_t ps,
			      int width, int i, int osd)
{
	uint32_t sps = cfs_shard_ps(ps, width, i);
	struct ol_names a = { 0 };
	int h[1], r = 0, none;

	cfs_pg_lock(ol->c, pool, sps);
	none = !cfs_pg_is_holder(ol->c, pool, sps, osd) &&
	       cfs_pg_holders(ol->c, pool, sps, h, 1) == 0;
	cfs_pg_unlock(ol->c, pool, sps);
	if (!none)
		return 0;
	for (int j = 0; j < width && !r && !a.err; j++) {
		uint32_t js = cfs_shard_ps(ps, width, j);
		char **names = NULL;
		size_t n = 0;

		if (j == i)
			continue;
		cfs_pg_lock(ol->c, pool, js);
		r = ol_pg_all_names(ol, pool, js, &names, &n);
		cfs_pg_unlock(ol->c, pool, js);
		for (size_t k = 0; !r && k < n; k++)
			ol_names_add(&a, names[k]);
		ol_names_free(names, n);
	}
	if (!r)
		r = a.err;
	if (!r && a.n) {
		ol_names_sort_unique(&a);
		cfs_pg_lock(ol->c, pool, sps);
		if (cfs_pg_holders(ol->c, pool, sps, h, 1) == 0)
			r = cfs_pg_add_holder(ol->c, pool, sps, osd, a.v, a.n);
		cfs_pg_unlock(ol->c, pool, sps);
	}
	ol_names_free(a.v, a.n);
	return r;
}

int ecx_stale_shards(struct ecx *x, uint64_t *stale)
{
	int r = 0;

	*stale = 0;
	for (int i = 0; i < x->width && !r; i++) {
		uint32_t sps = sps_of(x, i);

		if (x->osd[i] < 0)
			continue;
		r = first_shard_holder(x->ol, x->op->pid, x->op->ps, x->width,
				       i, x->osd[i]);
		if (r)
			break;
		cfs_pg_lock(x->c, x->op->pid, sps);
		r = ol_ensure_holder(x->ol, x->op->pid, sps, x->osd[i]);
		if (!r && (cfs_pg_is_missing(x->c, x->op->pid, sps, x->osd[i],
					     x->name) ||
			   cfs_pg_is_backfill(x->c, x->op->pid, sps,
					      x->osd[i])))
			*stale |= 1ULL << i;
		cfs_pg_unlock(x->c, x->op->pid, sps);
	}
	x->known_stale = *stale;
	return r;
}

void ecx_note_bad(struct ecx *x, uint64_t bad)
{
	/* a shard known to be behind (its missing set, a backfill target)
	 * is not damage: recovery brings it */
	bad &= ~x->known_stale;
	bad |= x->bad_acting;
	x->bad_acting = 0;
	for (int i = 0; i < x->width; i++) {
		uint32_t sps = sps_of(x, i);

		if (!(bad >> i & 1) || x->osd[i] < 0)
			continue;
		cfs_pg_lock(x->c, x->op->pid, sps);
		cfs_pg_mark_damaged(x->c, x->op->pid, sps, x->osd[i],
				    x->name);
		cfs_pg_unlock(x->c, x->op->pid, sps);
		cfs_log(CFS_LOG_ERR, "pg %ss%d: object '%s' on osd.%d: shard "
			"missing, stale or rotten; decoded around it, marked "
			"for repair", x->op->pgid, i, x->name, x->osd[i]);
	}
}

/* The ops' common start: the object's shards, the locks held by the
 * caller; min_size checked (Ceph: k+1 by default). */
int ecx_begin(objlayer *ol, const struct objop *op, const char *name,
	      struct ecx *x, const char *what)
{
	int r = ecx_init(x, ol, op, name);

	if (r) {
		cfs_log(CFS_LOG_ERR, "pool '%s': erasure-code profile '%s' "
			"does not fit the pool (k+m = size)", op->pool->name,
			op->pool->ec_profile);
		return -EIO;
	}
	if (popcount64(usable(x)) < op->pool->min_size) {
		cfs_log(CFS_LOG_ERR,
			"pg %s is inactive: %d shard(s) up, min_size %d; %s "
			"'%s' refused",
			op->pgid, popcount64(usable(x)), op->pool->min_size,
			what, name);
		ecx_done(x);
		return -EIO;
	}
	return 0;
}

/* ecx_begin for an object that must exist: its index entry in *oi, the
 * version good shards hold; -ENOENT (nothing begun) when it does not. */
int ecx_begin_existing(objlayer *ol, const struct objop *op, const char *name,
		       struct ecx *x, const char *what,
		       struct cfs_objinfo *oi)
{
	int r = ecx_begin(ol, op, name, x, what);

	if (r)
		return r;
	r = cfs_index_get(x->c, op->pid, name, oi);
	if (r) {
		ecx_done(x);
		return r == -ENOENT ? -ENOENT : -EIO;
	}
	x->version = oi->version;
	return 0;
}

/*
 * Fewer than k current shards of the object can be had: -EAGAIN while a
 * holder of one of its shard PGs is down (its shard may come back, and
 * the op waits for a new map, as Ceph keeps an op on an unfound object
 * waiting), else -EIO with one log line (the data is gone).
 */
int ecx_short_of_shards(struct ecx *x, const char *what)
{
	for (int i = 0; i < x->width; i++) {
		uint32_t sps = sps_of(x, i);
		int h[256], nh, down = 0;

		cfs_pg_lock(x->c, x->op->pid, sps);
		nh = cfs_pg_holders(x->c, x->op->pid, sps, h, 256);
		cfs_pg_unlock(x->c, x->op->pid, sps);
		for (int k = 0; k < nh; k++)
			down |= !cfs_osdmap_is_up(x->op->m, h[k]);
		if (down)
			return -EAGAIN;
	}
	cfs_log(CFS_LOG_ERR, "pg %s: fewer than k=%d current shards of '%s' "
		"on any OSD; %s refused (unfound)", x->op->pgid, x->s.k,
		x->name, what);
	return -EIO;
}

/*
 * Acting shards that missed changes of the object (its missing set: an
 * OSD that was down, a shard a write could not take) rebuilt now by
 * decode from k current ones, as Ceph's primary recovers a missing object
 * before an op on it goes on (PrimaryLogPG::wait_for_unreadable_object /
 * recover_missing).  The object's lock held exclusive; *stale loses the
 * shards recovered.  Without k current shards nothing is done.
 */
void ecx_recover_stale(struct ecx *x, const struct cfs_objinfo *oi,
		       uint64_t *stale)
{
	uint64_t todo = usable(x) & *stale;

	/* k current shards may be on strays too (ecx_rebuild_shard reads them
	 * where they are): no count up front */
	if (!todo)
		return;
	for (int i = 0; i < x->width; i++) {
		uint32_t sps = sps_of(x, i);

		if (!(todo >> i & 1) ||
		    ecx_rebuild_shard(x->ol, x->op, x->name, oi, i, x->osd[i]))
			continue;
		cfs_pg_lock(x->c, x->op->pid, sps);
		cfs_pg_clear_missing(x->c, x->op->pid, sps, x->osd[i], x->name);
		cfs_pg_unlock(x->c, x->op->pid, sps);
		*stale &= ~(1ULL << i);
	}
}

int ec_recover_object(objlayer *ol, const struct objop *op, const char *name)
{
	struct cfs_objinfo oi;
	uint64_t stale;
	struct ecx x;
	int r = ecx_begin_existing(ol, op, name, &x, "recovery of", &oi);

	if (r)
		return r;
	r = ecx_stale_shards(&x, &stale);
	if (!r)
		ecx_recover_stale(&x, &oi, &stale);
	ecx_done(&x);
	return r;
}

ssize_t ec_read(objlayer *ol, const struct objop *op, const char *name,
		uint64_t off, void *buf, size_t len, uint64_t *size,
		struct timespec *mtime, int *recover)
{
	struct cfs_objinfo oi;
	struct ec_shard_io io;
	struct ec_object o;
	uint64_t stale, bad = 0;
	struct ecx x;
	ssize_t n;
	int r = ecx_begin_existing(ol, op, name, &x, "read of", &oi);

	if (r)
		return r;
	if (size)
		*size = oi.size;
	r = ecx_stale_shards(&x, &stale);
	if (r) {
		ecx_done(&x);
		return -EIO;
	}
	/* no shard is avoided: one an acting OSD misses may be read from a
	 * stray that has it (shard_read), else it is decoded around */
	ecx_object_of(&x, 0, &o, &io);
	n = len ? ec_object_read(&o, oi.size, off, buf, len, &bad) : 0;
	/* acting shards behind: the caller recovers them (ec_recover_object)
	 * once it may change the object */
	*recover = (usable(&x) & stale) != 0 &&
		   popcount64(usable(&x) & ~stale) >= x.s.k;
	if (n == -EIO)
		n = ecx_short_of_shards(&x, "read");
	ecx_note_bad(&x, bad);
	if (mtime) {
		mtime->tv_sec = mtime->tv_nsec = 0;
		for (int i = 0; i < x.width; i++) {
			cfs_obj *so;

			if (x.osd[i] < 0 || (stale >> i & 1) ||
			    cfs_obj_open(x.c, x.osd[i], op->pid,
					 sps_of(&x, i), name, 0, &so))
				continue;
			cfs_obj_mtime(so, mtime);
			cfs_obj_put(so);
			break;
		}
	}
	ecx_done(&x);
	return n;
}

/* Every shard of the object, wherever a holder of its shard PG has it. */
static int remove_shards(cfs_cluster *c, int64_t pool, uint32_t ps,
			 int width, const char *name)
{
	int r = 0;

	for (int i = 0; i < width; i++) {
		uint32_t sps = cfs_shard_ps(ps, width, i);
		int h[256], nh;

		cfs_pg_lock(c, pool, sps);
		nh = cfs_pg_holders(c, pool, sps, h, 256);
		for (int k = 0; k < nh; k++) {
			int e = cfs_obj_remove(c, h[k], pool, sps, name);

			if (!e)
				cfs_pg_clear_missing(c, pool, sps, h[k], name);
			if (e && !r)
				r = e;
		}
		cfs_pg_unlock(c, pool, sps);
	}
	return r;
}

int ec_remove(objlayer *ol, const struct objop *op, const char *name)
{
	struct cfs_objinfo oi;
	int r = cfs_index_get(ol->c, op->pid, name, &oi);

	if (r)
		return r == -ENOENT ? -ENOENT : -EIO;
	/* removing always goes on, whatever is up: space is freed */
	r = cfs_index_intent(ol->c, op->pid, name, NULL);
	if (!r)
		r = remove_shards(ol->c, op->pid, op->ps, op->pool->size, name);
	if (!r)
		r = cfs_index_set(ol->c, op->pid, name, NULL);
	return r ? -EIO : 0;
}

int ec_sync(objlayer *ol, const struct objop *op, const char *name)
{
	int r = 0;

	for (int i = 0; i < op->pool->size && i < op->pg->nacting; i++) {
		int a = op->pg->acting[i];
		cfs_obj *o;

		if (a < 0 || a == PL_ITEM_NONE ||
		    cfs_obj_open(ol->c, a, op->pid,
				 cfs_shard_ps(op->ps, op->pool->size, i), name,
				 0, &o))
			continue;
		if (cfs_obj_sync(o) && !r)
			r = -EIO;
		cfs_obj_put(o);
	}
	return r;
}

int ec_settle_object(objlayer *ol, const struct objop *op, const char *name,
		     int intent_op)
{
	struct cfs_objinfo oi;
	int width = op->pool->size, exists, r;
	void *rec = NULL;
	size_t len = 0;

	exists = cfs_index_get(ol->c, op->pid, name, &oi) == 0;
	if (intent_op == CFS_INTENT_REMOVE) {
		r = remove_shards(ol->c, op->pid, op->ps, width, name);
		return r ? r : cfs_index_set(ol->c, op->pid, name, NULL);
	}
	r = cfs_index_get_undo(ol->c, op->pid, name, &rec, &len);
	if (r == -ENOENT) /* nothing was touched before the record */
		return cfs_index_set(ol->c, op->pid, name,
				     exists ? &oi : NULL);
	if (r)
		return r;
	r = ecx_undo_apply(ol->c, op->pid, op->ps, name, rec, len);
	free(rec);
	if (!r)
		r = cfs_index_set(ol->c, op->pid, name, exists ? &oi : NULL);
	return r;
}

/* Is osd a usable OSD of map m (not a hole, not down)? */
