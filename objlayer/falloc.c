/*
 * falloc.c - fallocate(2) on a file's objects (ol_fallocate in objlayer.h),
 * built only from the object operations of replicate.c, so that space
 * accounting, full OSDs, min_size and missing copies behave exactly as for
 * a write, a truncate or a remove.
 *
 * What CephFS does (Client::_fallocate and Filer::zero, v16.2): a punched
 * extent that covers a whole object removes it, anything else is an OSD
 * zero op (CEPH_OSD_OP_ZERO), which never grows an object.  Here the
 * zeroed part that reaches an object's end is cut off instead (a
 * truncate: no space kept for zeros), the rest is overwritten with zeros.
 * ceph-fuse allocates nothing; here an allocation is real: the bytes a
 * range lacks (missing objects, space past an object's end) are written
 * as zeros on every replica, through the write path that reserves space
 * per replica first and refuses with -ENOSPC, changing nothing, when an
 * OSD would cross full_ratio.
 */
#include <errno.h>
#include <stdlib.h>

#include "objlayer_i.h"

/* Zeros are written a piece at a time (so that a refusal leaves an
 * object as it was), at most this much per write. */
#define ZCHUNK_MAX (64u << 20)

static uint64_t eff_su(const struct ol_layout *l)
{
	return l->stripe_count == 1 ? l->object_size : l->stripe_unit;
}

/* The file offset of byte x of object objectno (the inverse of the
 * striping in striper.c); a file's bytes in one object keep their order. */
static uint64_t file_off_of(const struct ol_layout *l, uint64_t objectno,
			    uint64_t x)
{
	uint64_t su = eff_su(l), sc = l->stripe_count;
	uint64_t spo = l->object_size / su;
	uint64_t stripeno = objectno / sc * spo + x / su;

	return (stripeno * sc + objectno % sc) * su + x % su;
}

/* Current size of an object; 0 when it does not exist. */
static int obj_size(objlayer *ol, int64_t pool, const char *name,
		    uint64_t *size)
{
	ssize_t r;

	*size = 0;
	r = obj_read(ol, pool, name, 0, NULL, 0, size, NULL);
	if (r == -ENOENT) {
		*size = 0;
		return 0;
	}
	return r < 0 ? (int)r : 0;
}

/* Zeros over [off, end) of an object, in chunks (a write each). */
static int write_zeros(objlayer *ol, int64_t pool, const char *name,
		       const char *zeros,
		       size_t zlen, uint64_t off, uint64_t end)
{
	while (off < end) {
		size_t n = end - off > zlen ? zlen : (size_t)(end - off);
		int r = obj_write(ol, pool, name, off, zeros, n, 0);

		if (r)
			return r;
		off += n;
	}
	return 0;
}

/* Bytes an allocation of [off, off+len) still needs, counting stops once
 * past `limit` (so a huge range costs limit / object_size lookups). */
static int bytes_needed(objlayer *ol, uint64_t ino, const struct ol_layout *l,
			uint64_t off, uint64_t len, uint64_t limit,
			uint64_t *need)
{
	struct ol_piece_iter it;
	struct ol_extent e;
	char name[64];
	int r = ol_piece_begin(&it, l, off, len);

	*need = 0;
	while (!r && *need <= limit && ol_piece_next(&it, &e)) {
		uint64_t osz;

		ol_object_name(ino, e.objectno, name, sizeof(name));
		r = obj_size(ol, l->pool, name, &osz);
		if (!r && osz < e.obj_off + e.len)
			*need += e.obj_off + e.len -
				 (osz > e.obj_off ? osz : e.obj_off);
	}
	return r;
}

/* One piece of a punched range: the object's bytes in it read as zeros
 * afterwards, with no space taken that was not taken before. */
static int punch_piece(objlayer *ol, uint64_t ino, const struct ol_layout *l,
		       const struct ol_extent *e, uint64_t off, uint64_t len,
		       const char *zeros, size_t zlen)
{
	char name[64];
	uint64_t osz, end = e->obj_off + e->len;
	int r;

	ol_object_name(ino, e->objectno, name, sizeof(name));
	r = obj_size(ol, l->pool, name, &osz);
	if (r || osz <= e->obj_off)
		return r; /* nothing stored there: a hole already */
	/* every byte of the object inside the range: remove it (Filer::zero
	 * removes an object the extent covers whole) */
	if (file_off_of(l, e->objectno, osz - 1) < off + len) {
		if (file_off_of(l, e->objectno, 0) >= off)
			return obj_remove(ol, l->pool, name, 1);
		/* the object's bytes from here on are all in the range (a
		 * file's bytes keep their order in an object): cut them */
		return obj_truncate(ol, l->pool, name, e->obj_off);
	}
	return write_zeros(ol, l->pool, name, zeros, zlen, e->obj_off, end);
}

int ol_fallocate(objlayer *ol, uint64_t ino, const struct ol_layout *l,
		 uint64_t off, uint64_t len, enum ol_falloc_mode mode)
{
	struct ol_piece_iter it;
	struct ol_extent e;
	char name[64];
	char *zeros;
	size_t zlen;
	int r;

	if (!ol_layout_valid(l) || len == 0 || off + len < off)
		return -EINVAL;
	if (mode != OL_FALLOC_ALLOCATE && mode != OL_FALLOC_PUNCH &&
	    mode != OL_FALLOC_ZERO)
		return -EOPNOTSUPP;
	if (mode != OL_FALLOC_PUNCH) {
		/* A request beyond the pool's MAX AVAIL fails before a byte
		 * is written (objects are written one by one: without this a
		 * hopeless request would fill the pool first). */
		struct ol_space s;
		uint64_t need;

		r = ol_space(ol, &s);
		if (!r && len > s.max_avail) {
			r = bytes_needed(ol, ino, l, off, len, s.max_avail,
					 &need);
			if (!r && need > s.max_avail)
				r = -ENOSPC;
		}
		if (r)
			return r;
	}
	/* the largest piece: an object (a stripe unit when striped);
	 * calloc's pages stay the shared zero page */
	zlen = l->stripe_count == 1 ? l->object_size : l->stripe_unit;
	if (zlen > ZCHUNK_MAX)
		zlen = ZCHUNK_MAX;
	zeros = calloc(1, zlen);
	if (!zeros)
		return -ENOMEM;
	r = ol_piece_begin(&it, l, off, len);
	/* in file order, as a write: a refusal leaves a clean prefix done */
	while (!r && ol_piece_next(&it, &e)) {
		uint64_t osz, end = e.obj_off + e.len;

		if (mode == OL_FALLOC_PUNCH) {
			r = punch_piece(ol, ino, l, &e, off, len, zeros, zlen);
			continue;
		}
		ol_object_name(ino, e.objectno, name, sizeof(name));
		if (mode == OL_FALLOC_ZERO) {
			/* existing bytes zeroed, missing ones allocated */
			r = write_zeros(ol, l->pool, name, zeros, zlen, e.obj_off, end);
			continue;
		}
		/* allocate: only what lies past the object's end; bytes
		 * below it are stored already (holes inside an object count
		 * as used, as its size does) */
		r = obj_size(ol, l->pool, name, &osz);
		if (!r && osz < end)
			r = write_zeros(ol, l->pool, name, zeros, zlen,
					osz > e.obj_off ? osz : e.obj_off, end);
	}
	free(zeros);
	return r;
}
