/*
 * ec_write.c - changes of an erasure-coded object (writes, truncates):
 * the undo record stashed before any shard changes, the reservation, the
 * shard I/O through ec_object.c, the commit of the new version, and the
 * undo of a change that failed half-way.  The crash-safety argument is in
 * ec_io.c's head comment; split from it along the write path.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ec_io_i.h"
#include "osdmap.h"
#include "pgstate.h"
#include "usage.h"
#include "util.h"

#define UNDO_MAGIC 0x45435531u /* "ECU1" */
#define ABSENT UINT64_MAX

/* ---- undo records ---- */

struct undo {
	unsigned char *v;
	size_t n, cap;
	int err;
};

static void undo_put(struct undo *u, const void *p, size_t len)
{
	if (u->err)
		return;
	if (u->n + len > u->cap) {
		size_t nc = u->cap ? u->cap * 2 : 256;
		unsigned char *nv;

		while (nc < u->n + len)
			nc *= 2;
		nv = realloc(u->v, nc);
		if (!nv) {
			u->err = -ENOMEM;
			return;
		}
		u->v = nv;
		u->cap = nc;
	}
	memcpy(u->v + u->n, p, len);
	u->n += len;
}

static void undo_u64(struct undo *u, uint64_t v)
{
	unsigned char b[8];

	for (int i = 0; i < 8; i++)
		b[i] = (unsigned char)(v >> (8 * i));
	undo_put(u, b, 8);
}

static uint64_t get_u64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/*
 * What undoes a change that rewrites shard bytes [from, to) of the shards
 * in `touch`: per shard its old length (ABSENT: no file), its old bytes
 * of that range up to that length and its checksum record, all as they
 * are on disk (putting them back restores the shard exactly, rot
 * included: a shard no worse than before).
 */
static int undo_make(struct ecx *x, uint64_t touch, uint64_t from,
		     uint64_t to, struct undo *u)
{
	unsigned char rec[CFS_OBJ_RECORD_MAX], *buf = NULL;

	undo_u64(u, UNDO_MAGIC);
	undo_u64(u, (uint64_t)x->width);
	for (int i = 0; i < x->width && !u->err; i++) {
		uint64_t len = ABSENT, a = 0, b = 0;
		ssize_t rl = 0, got;
		cfs_obj *o = NULL;

		if ((touch >> i & 1) &&
		    !cfs_obj_open(x->c, x->osd[i], x->op->pid, sps_of(x, i),
				  x->name, 0, &o)) {
			len = cfs_obj_size(o);
			a = from < len ? from : len;
			b = to < len ? to : len;
			rl = cfs_obj_raw_record(o, rec, sizeof(rec));
			if (rl < 0)
				u->err = (int)rl;
		}
		undo_u64(u, (touch >> i & 1) ? 1 : 0);
		undo_u64(u, x->osd[i] >= 0 ? (uint64_t)x->osd[i] : ABSENT);
		undo_u64(u, len);
		undo_u64(u, a);
		undo_u64(u, b - a);
		undo_u64(u, rl > 0 ? (uint64_t)rl : 0);
		if (b > a && !u->err) {
			free(buf);
			buf = malloc(b - a);
			got = buf ? cfs_obj_raw_pread(o, buf, b - a, a)
				  : -ENOMEM;
			if (got != (ssize_t)(b - a))
				u->err = got < 0 ? (int)got : -EIO;
			else
				undo_put(u, buf, b - a);
		}
		if (rl > 0)
			undo_put(u, rec, (size_t)rl);
		if (o)
			cfs_obj_put(o);
	}
	free(buf);
	return u->err;
}

/* Put every shard the record names back as it was, on the OSD it was
 * changed on (ABSENT: the file goes). */
int ecx_undo_apply(cfs_cluster *c, int64_t pool, uint32_t ps,
		   const char *name, const void *record, size_t len)
{
	const unsigned char *p = record, *end = p + len;
	uint64_t width;
	int r = 0;

	if (len < 16 || get_u64(p) != UNDO_MAGIC)
		return CFS_ECORRUPT;
	width = get_u64(p + 8);
	p += 16;
	if (width == 0 || width > EC_MAX_WIDTH)
		return CFS_ECORRUPT;
	for (uint64_t i = 0; i < width; i++) {
		uint64_t touched, where, olen, off, n, rl;
		uint32_t sps = cfs_shard_ps(ps, (int)width, (int)i);
		int osd;
		cfs_obj *o;
		int e = 0;

		if (end - p < 48)
			return CFS_ECORRUPT;
		touched = get_u64(p);
		where = get_u64(p + 8);
		olen = get_u64(p + 16);
		off = get_u64(p + 24);
		n = get_u64(p + 32);
		rl = get_u64(p + 40);
		p += 48;
		if ((uint64_t)(end - p) < n + rl || rl > CFS_OBJ_RECORD_MAX ||
		    (where != ABSENT && where >= CFS_MAX_OSD))
			return CFS_ECORRUPT;
		osd = where == ABSENT ? -1 : (int)where;
		if (touched && osd >= 0 && olen == ABSENT) {
			e = cfs_obj_remove(c, osd, pool, sps, name);
		} else if (touched && osd >= 0 &&
			   !(e = cfs_obj_open(c, osd, pool, sps, name,
					      CFS_OBJ_CREATE, &o))) {
			e = cfs_obj_raw_restore(o, p, n, off, olen, p + n, rl);
			if (!e)
				e = cfs_obj_sync(o);
			cfs_obj_put(o);
		}
		if (e && !r)
			r = e;
		p += n + rl;
	}
	return r;
}

/*
 * Every holder of each shard PG but the OSD the change writes that shard
 * on misses the change: noted (persisted) before any shard changes, as
 * objio.c's ol_begin_change does for copies.  So a backfill target that is
 * not acting yet, a stray, a down OSD or a stale acting shard is known to
 * be behind (Ceph's missing sets), and neither backfill nor the choice of
 * an acting set (pgtemp.c) takes its shard for current.
 */
static int note_missed(struct ecx *x, uint64_t write)
{
	int r = 0;

	for (int i = 0; i < x->width && !r; i++) {
		uint32_t sps = sps_of(x, i);
		int h[256], nh;

		cfs_pg_lock(x->c, x->op->pid, sps);
		nh = cfs_pg_holders(x->c, x->op->pid, sps, h, 256);
		for (int k = 0; k < nh && !r; k++)
			if (!(write >> i & 1) || h[k] != x->osd[i])
				r = cfs_pg_mark_missing(x->c, x->op->pid, sps,
							h[k], x->name);
		cfs_pg_unlock(x->c, x->op->pid, sps);
	}
	return r;
}

static int do_truncate(struct ecx *x, uint64_t avoid, void *arg);

/*
 * A change of the object from oi (exists) to next.size: rewrite shard
 * bytes [from, to) of the shards in `write` (the rest stay and are
 * rebuilt later), under an undo record.  change() does the shard I/O.
 */
static int change_once(struct ecx *x, int exists,
		       const struct cfs_objinfo *oi, struct cfs_objinfo *next,
		       uint64_t write, uint64_t from, uint64_t to,
		       int (*change)(struct ecx *x, uint64_t avoid, void *arg),
		       void *arg)
{
	uint64_t resv[EC_MAX_WIDTH] = { 0 }, shard_len;
	struct undo u = { 0 };
	int r, e;

	/* room on every shard's OSD first: a refusal changes nothing */
	shard_len = ec_shard_len(&x->s, next->size);
	for (int i = 0; i < x->width; i++) {
		cfs_obj *o;
		uint64_t cur = 0;

		if (!(write >> i & 1))
			continue;
		if (!cfs_obj_open(x->c, x->osd[i], x->op->pid, sps_of(x, i),
				  x->name, 0, &o)) {
			cur = cfs_obj_size(o);
			cfs_obj_put(o);
		}
		resv[i] = shard_len > cur ? shard_len - cur : 0;
		/* a truncate frees space: only the hard limit (as a
		 * replicated one, "deletes and truncates always work") */
		r = cfs_osd_reserve(x->c, x->osd[i], resv[i],
				    change == do_truncate
					    ? UINT64_MAX
					    : cfs_osdmap_write_limit(
						      x->op->m, x->osd[i]));
		if (r) {
			char why[256];

			cfs_osd_refusal_text(x->c, x->osd[i],
					     cfs_osdmap_write_limit(x->op->m,
								    x->osd[i]),
					     why, sizeof(why));
			cfs_log(CFS_LOG_INFO,
				"pg %ss%d: osd.%d is too full for a write of "
				"%" PRIu64 " bytes to '%s' (%s): refused",
				x->op->pgid, i, x->osd[i], resv[i], x->name,
				why);
			cfs_osd_note_refused(x->c, x->osd[i], x->op->pid,
					     sps_of(x, i), resv[i]);
			{
				char sp[64];

				snprintf(sp, sizeof(sp), "%ss%d", x->op->pgid,
					 i);
				ol_clog_refused(x->c, sp, x->osd[i], resv[i],
						x->name, why);
			}
			resv[i] = 0;
			goto unreserve;
		}
	}
	next->version = cfs_index_next_version(x->c, &r);
	if (!r)
		r = undo_make(x, write, from, to, &u);
	if (!r)
		r = cfs_index_intent_undo(x->c, x->op->pid, x->name, next, u.v,
					  u.n);
	if (r)
		goto unreserve;
	/* the intent first, then the holders that miss the change: a
	 * holder a concurrent op adds to a shard PG in between sees the
	 * intent (ol_pg_all_names), one added before is a holder here.
	 * A failure leaves the shards as they were: the undo below
	 * rewrites their own bytes and drops the intent. */
	r = note_missed(x, write);
	if (!r)
		r = change(x, ~write & ((1ULL << x->width) - 1), arg);
	for (int i = 0; !r && i < x->width; i++)
		if (write >> i & 1) {
			cfs_obj *o;

			r = ecx_shard_file(x, i, &o);
			if (!r)
				r = cfs_obj_commit(o, next->version);
		}
	if (r) {
		/* some shards changed, maybe not all: back to the old
		 * version everywhere (the record says how) */
		e = ecx_undo_apply(x->c, x->op->pid, x->op->ps, x->name,
				   u.v, u.n);
		if (!e)
			e = cfs_index_set(x->c, x->op->pid, x->name,
					  exists ? oi : NULL);
		if (e)
			cfs_log(CFS_LOG_ERR, "pg %s: undoing a failed write "
				"of '%s': %s (the next open settles it)",
				x->op->pgid, x->name, cfs_strerror(e));
		if (r != -ENOSPC && r != -EDQUOT)
			r = -EIO;
	} else {
		r = cfs_index_set(x->c, x->op->pid, x->name, next);
	}
unreserve:
	for (int i = 0; i < x->width; i++)
		if (resv[i])
			cfs_osd_unreserve(x->c, x->osd[i], resv[i]);
	free(u.v);
	return r;
}

/* change_once, and once more without the shards it found rotten next to
 * the change (the store refused to vouch for them): those are damaged and
 * rebuilt later, the change goes to the others when k remain, as a
 * replicated write stands on its good copies.  *write loses them. */
static int ec_change(struct ecx *x, int exists, const struct cfs_objinfo *oi,
		     struct cfs_objinfo *next, uint64_t *write, uint64_t from,
		     uint64_t to,
		     int (*change)(struct ecx *x, uint64_t avoid, void *arg),
		     void *arg)
{
	uint64_t size = next->size;
	int r;

	x->rotten = 0;
	r = change_once(x, exists, oi, next, *write, from, to, change, arg);
	if (r == -EIO && x->rotten &&
	    popcount64(*write & ~x->rotten) >= x->s.k) {
		ecx_note_bad(x, x->rotten);
		*write &= ~x->rotten;
		x->rotten = 0;
		next->size = size;
		r = change_once(x, exists, oi, next, *write, from, to, change,
				arg);
	}
	return r;
}

struct write_arg {
	uint64_t size, off, new_size, bad;
	const void *buf;
	size_t len;
	int full;
};

static int do_write(struct ecx *x, uint64_t avoid, void *arg)
{
	struct write_arg *w = arg;
	struct ec_shard_io io;
	struct ec_object o;
	int r;

	ecx_object_of(x, avoid, &o, &io);
	r = ec_object_write(&o, w->size, w->off, w->buf, w->len, &w->new_size,
			    &w->bad);
	/* write_full: nothing of the old object past the new end */
	for (int i = 0; !r && w->full && i < x->width; i++)
		if (!(avoid >> i & 1))
			r = ecx_shard_truncate(
				x, i, ec_shard_len(&x->s, w->new_size));
	return r;
}

int ec_write(objlayer *ol, const struct objop *op, const char *name,
	     uint64_t off, const void *buf, size_t len, int full)
{
	struct cfs_objinfo oi = { 0, 0 }, next;
	struct write_arg w = { 0 };
	uint64_t stale, write, from, to;
	struct ec_rmw plan;
	struct ecx x;
	int exists, r = ecx_begin(ol, op, name, &x, "write to");

	if (r)
		return r;
	r = cfs_index_get(x.c, op->pid, name, &oi);
	exists = r == 0;
	if (r && r != -ENOENT) {
		r = -EIO;
		goto out;
	}
	r = ecx_stale_shards(&x, &stale);
	if (r)
		goto out;
	if (exists && !full)
		ecx_recover_stale(&x, &oi, &stale);
	/* a whole new content goes to every shard, stale ones too */
	write = full || !exists ? usable(&x) : usable(&x) & ~stale;
	if (exists && popcount64(write) < x.s.k) {
		r = ecx_short_of_shards(&x, "write");
		goto out;
	}
	x.version = oi.version;
	w.size = exists && !full ? oi.size : 0;
	w.off = off;
	w.buf = buf;
	w.len = len;
	w.full = full;
	next.size = full ? len : off + len > w.size ? off + len : w.size;
	/* the shard bytes the write rewrites: its stripes, and for
	 * write_full everything the old shards held */
	ec_rmw_plan(&x.s, w.size, off, len, &plan);
	from = full ? 0 : plan.first * x.s.chunk;
	to = full ? UINT64_MAX : (plan.first + plan.count) * x.s.chunk;
	r = ec_change(&x, exists, &oi, &next, &write, from, to, do_write, &w);
	for (int i = 0; !r && i < x.width; i++)
		if (write & stale >> i & 1) { /* current again */
			cfs_pg_lock(x.c, op->pid, sps_of(&x, i));
			cfs_pg_clear_missing(x.c, op->pid, sps_of(&x, i),
					     x.osd[i], name);
			cfs_pg_unlock(x.c, op->pid, sps_of(&x, i));
		}
	ecx_note_bad(&x, w.bad);
out:
	ecx_done(&x);
	return r;
}

struct trunc_arg {
	uint64_t size, new_size, bad;
};

static int do_truncate(struct ecx *x, uint64_t avoid, void *arg)
{
	struct trunc_arg *t = arg;
	struct ec_shard_io io;
	struct ec_object o;

	ecx_object_of(x, avoid, &o, &io);
	return ec_object_truncate(&o, t->size, t->new_size, &t->bad);
}

int ec_truncate(objlayer *ol, const struct objop *op, const char *name,
		uint64_t size)
{
	struct cfs_objinfo oi, next;
	struct trunc_arg t = { 0 };
	uint64_t stale, write, from;
	struct ecx x;
	int r = ecx_begin_existing(ol, op, name, &x, "truncate of", &oi);

	if (r)
		return r;
	r = ecx_stale_shards(&x, &stale);
	if (!r)
		ecx_recover_stale(&x, &oi, &stale);
	write = usable(&x) & ~stale;
	if (!r && popcount64(write) < x.s.k)
		r = ecx_short_of_shards(&x, "truncate");
	if (!r && oi.size != size) {
		t.size = oi.size;
		t.new_size = size;
		next.size = size;
		/* from the stripe the new end cuts to the old end */
		from = (size < oi.size ? size : oi.size) /
		       ec_stripe_width(&x.s) * x.s.chunk;
		r = ec_change(&x, 1, &oi, &next, &write, from, UINT64_MAX,
			      do_truncate, &t);
		ecx_note_bad(&x, t.bad);
	}
	ecx_done(&x);
	return r;
}
