/*
 * striper.c - file extents -> object extents, exactly as Ceph's
 * Striper::file_to_extents (src/osdc/Striper.cc, v16.2) cuts them.
 *
 * A file is a sequence of stripe units (blocks).  Blocks go round-robin
 * over stripe_count objects (an object set); each object of the set takes
 * object_size / stripe_unit blocks, then the next object set begins:
 *
 *   blockno     = off / su
 *   stripeno    = blockno / stripe_count        (the row)
 *   stripepos   = blockno % stripe_count        (the column)
 *   objectsetno = stripeno / stripes_per_object
 *   objectno    = objectsetno * stripe_count + stripepos
 *   obj_off     = (stripeno % stripes_per_object) * su + off % su
 *
 * Ceph quirk kept: with stripe_count == 1 the stripe unit is taken to be
 * the object size, so pieces are cut at object boundaries only.
 */
#include <errno.h>
#include <stdio.h>

#include "layout.h"
#include "objlayer_i.h"

_Static_assert(OL_MAX_OBJECT_SIZE == CFS_MAX_OBJECT_SIZE,
	       "one object size limit for layouts and object I/O");

/* CephFS's file_layout_t::is_valid plus the simulator's bounds on
 * stripe_count and object_size: one rule, osdsim's cfs_layout_check(). */
int ol_layout_valid(const struct ol_layout *l)
{
	return l && cfs_layout_check(l->stripe_unit, l->stripe_count,
				     l->object_size, NULL, NULL, 0) == 0;
}

static uint64_t eff_su(const struct ol_layout *l)
{
	return l->stripe_count == 1 ? l->object_size : l->stripe_unit;
}

int ol_piece_begin(struct ol_piece_iter *it, const struct ol_layout *l,
		   uint64_t off, uint64_t len)
{
	if (!ol_layout_valid(l) || off + len < off)
		return -EINVAL;
	it->cur = off;
	it->left = len;
	it->su = eff_su(l);
	it->sc = l->stripe_count;
	it->spo = l->object_size / it->su;
	return 0;
}

int ol_piece_next(struct ol_piece_iter *it, struct ol_extent *e)
{
	uint64_t su = it->su, sc = it->sc, spo = it->spo, cur = it->cur;
	uint64_t blockno, stripeno, stripepos, objectsetno, block_start;
	uint64_t block_off, x_len;

	if (it->left == 0)
		return 0;
	blockno = cur / su;		    /* which block */
	stripeno = blockno / sc;	    /* which horizontal stripe (Y) */
	stripepos = blockno % sc;	    /* which object in the set (X) */
	objectsetno = stripeno / spo;	    /* which object set */
	block_start = (stripeno % spo) * su; /* the block's place in it */
	block_off = cur % su;
	x_len = su - block_off;
	if (x_len > it->left)
		x_len = it->left;
	e->objectno = objectsetno * sc + stripepos;
	e->obj_off = block_start + block_off;
	e->len = x_len;
	e->file_off = cur;
	it->left -= x_len;
	it->cur += x_len;
	return 1;
}

int ol_file_to_extents(const struct ol_layout *l, uint64_t off, uint64_t len,
		       struct ol_extent *ext, int max)
{
	struct ol_piece_iter it;
	struct ol_extent e;
	int n = 0, r = ol_piece_begin(&it, l, off, len);

	if (r)
		return r;
	while (ol_piece_next(&it, &e)) {
		if (ext && max > 0) {
			if (n >= max)
				return -E2BIG;
			ext[n] = e;
		}
		if (n == 0x7fffffff)
			return -E2BIG;
		n++;
	}
	return n;
}

void ol_object_name(uint64_t ino, uint64_t objectno, char *buf, size_t len)
{
	snprintf(buf, len, "%llx.%08llx", (unsigned long long)ino,
		 (unsigned long long)objectno);
}

uint64_t ol_object_count(const struct ol_layout *l, uint64_t size)
{
	uint64_t su, sc, spo, blockno;

	if (!ol_layout_valid(l) || size == 0)
		return 0;
	su = eff_su(l);
	sc = l->stripe_count;
	spo = l->object_size / su;
	blockno = (size - 1) / su;
	return (blockno / sc / spo + 1) * sc;
}

/*
 * How many bytes object `objectno` holds when the file is file_size bytes
 * long (its size after a truncate to file_size).  Block k of the object is
 * file block (objectsetno * spo + k) * sc + stripepos; the object ends in
 * the last of its blocks that starts before the end of the file.
 */
uint64_t ol_object_bytes(const struct ol_layout *l, uint64_t objectno,
			 uint64_t file_size)
{
	uint64_t su, sc, spo, nb, os, sp, first, kmax, b, tail;

	if (!ol_layout_valid(l) || file_size == 0)
		return 0;
	su = eff_su(l);
	sc = l->stripe_count;
	spo = l->object_size / su;
	nb = (file_size - 1) / su + 1; /* blocks touched by the file */
	os = objectno / sc;
	sp = objectno % sc;
	if (os > (UINT64_MAX - sp) / sc / spo)
		return 0;
	first = os * spo * sc + sp;
	if (first >= nb)
		return 0;
	kmax = (nb - 1 - sp) / sc - os * spo;
	if (kmax > spo - 1)
		kmax = spo - 1;
	b = (os * spo + kmax) * sc + sp;
	tail = file_size - b * su;
	if (tail > su)
		tail = su;
	return kmax * su + tail;
}
