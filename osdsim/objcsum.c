/*
 * objcsum.c - checksums of every object copy, as BlueStore keeps them
 * (bluestore_blob_t csum_data: one crc32c per csum_chunk_size block),
 * so a copy that rots on disk is caught when it is read, copied or
 * scrubbed, and never returned or spread.
 *
 * The record lives next to the data, in the object file's xattr
 * "user.crushfs.csum" (little-endian):
 *
 *   u32 magic "CFS1" | u8 format 1 | u8 shift | u16 0 | u64 version |
 *   u64 size | u32 n | n x u32 crc32c | u32 crc32c of all of the above
 *
 * Blocks are 64 KiB (shift 16) and double whenever an object would need
 * more than CSUM_MAX_BLOCKS of them, so the record stays under ext4's
 * one-block xattr limit for every object size we allow (1 GiB: 2 MiB
 * blocks).  BlueStore's default is 4 KiB blocks; with a 4 MiB object that
 * is a 4 KiB record, which ext4 cannot store in one xattr.
 *
 * The version is the object version the copy holds (objlayer's object
 * index says which version is current).  Crash order: data first, then the
 * record.  A crash in between leaves a record that does not match the data,
 * so the copy fails verification and is rebuilt from another copy; it is
 * never served.
 *
 * crc32c comes from ISA-L (crc32_iscsi: the SSE4.2/PCLMUL code Ceph uses
 * too, src/common/crc32c_intel_fast.c), not from a bit loop.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <isa-l/crc.h>

#include "osdsim_i.h"
#include "util.h"

#define CSUM_XATTR "user.crushfs.csum"
#define CSUM_MAGIC 0x31534643u /* "CFS1" */
#define CSUM_MIN_SHIFT 16
#define CSUM_MAX_BLOCKS 512
#define CSUM_HDR 28
#define CSUM_MAX_REC (CSUM_HDR + 4 * CSUM_MAX_BLOCKS + 4)

uint32_t cfs_crc32c(uint32_t crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	/* crc32_iscsi keeps the register inverted between calls: feed it
	 * ~crc and invert its result to chain standard crc32c values */
	crc = ~crc;
	while (len > 0) {
		int n = len > (1u << 30) ? (1 << 30) : (int)len;

		crc = crc32_iscsi((unsigned char *)p, n, crc);
		p += n;
		len -= (size_t)n;
	}
	return ~crc;
}

static uint32_t crc_zeros(uint32_t crc, uint64_t len)
{
	static const unsigned char zero[65536];

	while (len > 0) {
		size_t n = len > sizeof(zero) ? sizeof(zero) : (size_t)len;

		crc = cfs_crc32c(crc, zero, n);
		len -= n;
	}
	return crc;
}

static uint32_t nblocks(uint64_t size, unsigned shift)
{
	return (uint32_t)((size + (1ULL << shift) - 1) >> shift);
}

static unsigned shift_for(uint64_t size, unsigned shift)
{
	if (shift < CSUM_MIN_SHIFT)
		shift = CSUM_MIN_SHIFT;
	while (nblocks(size, shift) > CSUM_MAX_BLOCKS)
		shift++;
	return shift;
}

static int reserve(struct obj_csum *cs, uint32_t n)
{
	uint32_t *v, nc = cs->cap ? cs->cap : 16;

	if (n <= cs->cap)
		return 0;
	while (nc < n)
		nc *= 2;
	v = realloc(cs->crc, (size_t)nc * sizeof(*v));
	if (!v)
		return -ENOMEM;
	cs->crc = v;
	cs->cap = nc;
	return 0;
}

void csum_reset(struct obj_csum *cs)
{
	free(cs->crc);
	memset(cs, 0, sizeof(*cs));
}

void csum_init_new(struct obj_csum *cs)
{
	cs->loaded = cs->valid = 1;
	cs->shift = CSUM_MIN_SHIFT;
	cs->version = 0;
	cs->n = 0;
}

static void put32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static void put64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint64_t get64(const unsigned char *p)
{
	return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

/* Parse a record; 0 if it is well formed and describes `size` bytes. */
static int parse(const unsigned char *b, size_t len, uint64_t size,
		 struct obj_csum *cs)
{
	uint32_t n;

	if (len < CSUM_HDR + 4 || get32(b) != CSUM_MAGIC || b[4] != 1)
		return -EBADMSG;
	n = get32(b + 24);
	if (n > CSUM_MAX_BLOCKS || len != CSUM_HDR + 4 * (size_t)n + 4)
		return -EBADMSG;
	if (cfs_crc32c(0, b, len - 4) != get32(b + len - 4))
		return -EBADMSG;
	if (b[5] < CSUM_MIN_SHIFT || b[5] > 40 || get64(b + 16) != size ||
	    nblocks(size, b[5]) != n)
		return -EBADMSG;
	if (reserve(cs, n))
		return -ENOMEM;
	cs->shift = b[5];
	cs->version = get64(b + 8);
	cs->n = n;
	for (uint32_t i = 0; i < n; i++)
		cs->crc[i] = get32(b + CSUM_HDR + 4 * i);
	return 0;
}

int csum_load(cfs_obj *o)
{
	unsigned char b[CSUM_MAX_REC];
	ssize_t len;
	int r;

	if (o->cs.loaded)
		return 0;
	len = fgetxattr(o->fd, CSUM_XATTR, b, sizeof(b));
	o->cs.loaded = 1;
	o->cs.valid = 0;
	o->cs.present = len >= 0 || errno == ERANGE;
	if (len < 0) {
		if (errno != ENODATA && errno != ERANGE) {
			r = -errno;
			o->cs.loaded = 0;
			return r;
		}
		/* no record: an empty file just created (version 0, which
		 * no committed object has), else a copy we cannot vouch for */
		if (o->size == 0 && errno == ENODATA)
			csum_init_new(&o->cs);
		return 0;
	}
	r = parse(b, (size_t)len, o->size, &o->cs);
	if (r == -ENOMEM) {
		o->cs.loaded = 0;
		return r;
	}
	o->cs.valid = r == 0;
	return 0;
}

int csum_store(cfs_obj *o, uint64_t version)
{
	unsigned char b[CSUM_MAX_REC];
	struct obj_csum *cs = &o->cs;
	size_t len = CSUM_HDR + 4 * (size_t)cs->n + 4;

	if (!cs->valid)
		return -EBADMSG;
	put32(b, CSUM_MAGIC);
	b[4] = 1;
	b[5] = (unsigned char)cs->shift;
	b[6] = b[7] = 0;
	put64(b + 8, version);
	put64(b + 16, o->size);
	put32(b + 24, cs->n);
	for (uint32_t i = 0; i < cs->n; i++)
		put32(b + CSUM_HDR + 4 * i, cs->crc[i]);
	put32(b + len - 4, cfs_crc32c(0, b, len - 4));
	if (fsetxattr(o->fd, CSUM_XATTR, b, len, 0) < 0)
		return -errno;
	cs->version = version;
	cs->present = 1;
	return 0;
}

/* crc32c of [off, off+len) of the file, read in pieces. */
static int crc_file(int fd, uint64_t off, uint64_t len, uint32_t *out)
{
	unsigned char tmp[65536];
	uint32_t crc = 0;

	while (len > 0) {
		size_t n = len > sizeof(tmp) ? sizeof(tmp) : (size_t)len;
		ssize_t got = cfs_read_full(fd, tmp, n, (int64_t)off);

		if (got < 0)
			return (int)got;
		if ((size_t)got != n)
			return -EIO; /* shorter than the size we track */
		crc = cfs_crc32c(crc, tmp, n);
		off += n;
		len -= n;
	}
	*out = crc;
	return 0;
}

/* Recompute every block from the file (block size changed). */
static int recompute_all(cfs_obj *o, unsigned shift)
{
	struct obj_csum *cs = &o->cs;
	uint32_t n = nblocks(o->size, shift);
	int r = reserve(cs, n);

	if (r)
		return r;
	cs->shift = shift;
	for (uint32_t b = 0; b < n; b++) {
		uint64_t bs = (uint64_t)b << shift;
		uint64_t be = bs + (1ULL << shift);

		if (be > o->size)
			be = o->size;
		r = crc_file(o->fd, bs, be - bs, &cs->crc[b]);
		if (r)
			return r;
	}
	cs->n = n;
	return 0;
}

int csum_after_write(cfs_obj *o, uint64_t old_size, const void *buf,
		     size_t len, uint64_t off)
{
	struct obj_csum *cs = &o->cs;
	const unsigned char *p = buf;
	unsigned shift = shift_for(o->size, cs->shift);
	uint64_t end = off + len, from;
	uint32_t b0, b1;
	int r;

	if (!cs->valid)
		return -EBADMSG;
	if (shift != cs->shift)
		return recompute_all(o, shift);
	if (len == 0 && old_size == o->size)
		return 0;
	r = reserve(cs, nblocks(o->size, shift));
	if (r)
		return r;
	/* a write past the end also changes the zeros in between */
	from = off < old_size ? off : old_size;
	b0 = (uint32_t)(from >> shift);
	b1 = (uint32_t)((o->size - 1) >> shift);
	if (end < o->size)
		b1 = (uint32_t)((end - 1) >> shift);
	for (uint32_t b = b0; b <= b1; b++) {
		uint64_t bs = (uint64_t)b << shift;
		uint64_t be = bs + (1ULL << shift);

		if (be > o->size)
			be = o->size;
		if (off <= bs && end >= be) {
			cs->crc[b] = cfs_crc32c(0, p + (bs - off), be - bs);
		} else if (off == old_size && bs < off && be <= end &&
			   b < cs->n) {
			/* an append to the old last block: extend its crc */
			cs->crc[b] = cfs_crc32c(cs->crc[b], p, be - off);
		} else if (bs >= old_size && be <= off) {
			cs->crc[b] = crc_zeros(0, be - bs);
		} else {
			r = crc_file(o->fd, bs, be - bs, &cs->crc[b]);
			if (r) {
				cs->valid = 0;
				return r;
			}
		}
	}
	cs->n = nblocks(o->size, shift);
	return 0;
}

int csum_after_truncate(cfs_obj *o, uint64_t old_size)
{
	struct obj_csum *cs = &o->cs;
	unsigned shift = shift_for(o->size, cs->shift);
	uint64_t size = o->size;
	uint32_t n = nblocks(size, shift);
	int r;

	if (!cs->valid)
		return -EBADMSG;
	if (shift != cs->shift)
		return recompute_all(o, shift);
	r = reserve(cs, n);
	if (r)
		return r;
	if (size < old_size) {
		/* the new last block lost its tail */
		if (n && (size & ((1ULL << shift) - 1))) {
			uint64_t bs = (uint64_t)(n - 1) << shift;

			r = crc_file(o->fd, bs, size - bs, &cs->crc[n - 1]);
			if (r) {
				cs->valid = 0;
				return r;
			}
		}
	} else if (size > old_size) {
		uint32_t ob = nblocks(old_size, shift);

		/* the old last block is extended with zeros, then whole
		 * blocks of zeros */
		for (uint32_t b = old_size ? (uint32_t)((old_size - 1) >> shift)
					   : 0;
		     b < n; b++) {
			uint64_t bs = (uint64_t)b << shift;
			uint64_t be = bs + (1ULL << shift);

			if (be > size)
				be = size;
			if (b < ob)
				cs->crc[b] = crc_zeros(cs->crc[b], be - old_size);
			else
				cs->crc[b] = crc_zeros(0, be - bs);
		}
	}
	cs->n = n;
	return 0;
}

int csum_verify_range(cfs_obj *o, const void *buf, size_t len, uint64_t off)
{
	struct obj_csum *cs = &o->cs;
	const unsigned char *p = buf;
	uint64_t end = off + len;
	uint32_t b0, b1;
	int r;

	if (len == 0)
		return 0;
	r = csum_load(o);
	if (r)
		return r;
	if (!cs->valid)
		return -EBADMSG;
	if (end > o->size)
		return -EBADMSG;
	b0 = (uint32_t)(off >> cs->shift);
	b1 = (uint32_t)((end - 1) >> cs->shift);
	for (uint32_t b = b0; b <= b1; b++) {
		uint64_t bs = (uint64_t)b << cs->shift;
		uint64_t be = bs + (1ULL << cs->shift);
		uint32_t crc;

		if (be > o->size)
			be = o->size;
		if (p && off <= bs && end >= be) {
			crc = cfs_crc32c(0, p + (bs - off), be - bs);
		} else {
			r = crc_file(o->fd, bs, be - bs, &crc);
			if (r)
				return r;
		}
		if (b >= cs->n || crc != cs->crc[b])
			return -EBADMSG;
	}
	return 0;
}

int csum_rebuild(cfs_obj *o)
{
	o->cs.loaded = o->cs.valid = o->cs.present = 1;
	return recompute_all(o, shift_for(o->size, CSUM_MIN_SHIFT));
}

int csum_copy_xattrs(int sfd, int dfd)
{
	char names[4096], val[CSUM_MAX_REC > 8192 ? CSUM_MAX_REC : 8192];
	ssize_t n = flistxattr(sfd, names, sizeof(names));

	if (n < 0)
		return errno == ENOTSUP ? 0 : -errno;
	for (ssize_t i = 0; i < n; i += (ssize_t)strlen(names + i) + 1) {
		const char *k = names + i;
		ssize_t vl;

		/* ours only: the checksum record and objlayer attributes */
		if (strncmp(k, "user.crushfs.", 13))
			continue;
		vl = fgetxattr(sfd, k, val, sizeof(val));
		if (vl < 0)
			return -errno;
		if (fsetxattr(dfd, k, val, (size_t)vl, 0) < 0)
			return -errno;
	}
	return 0;
}

int csum_copy_begin(int sfd, uint64_t size, struct obj_csum *cs)
{
	unsigned char b[CSUM_MAX_REC];
	ssize_t len = fgetxattr(sfd, CSUM_XATTR, b, sizeof(b));

	memset(cs, 0, sizeof(*cs));
	if (len < 0)
		return errno == ENODATA && size == 0 ? 0 : -EBADMSG;
	return parse(b, (size_t)len, size, cs);
}

int csum_copy_check(const struct obj_csum *cs, uint64_t size,
		    const void *buf, size_t len, uint64_t off, uint32_t *run)
{
	const unsigned char *p = buf;

	/* data arrives in order; *run is the crc of the current block so
	 * far, checked when the block is complete */
	while (len > 0) {
		uint64_t bsz = 1ULL << cs->shift;
		uint64_t b = off >> cs->shift, bs = b << cs->shift;
		uint64_t be = bs + bsz > size ? size : bs + bsz;
		size_t n = be - off < len ? (size_t)(be - off) : len;

		if (off == bs)
			*run = 0;
		*run = cfs_crc32c(*run, p, n);
		off += n;
		p += n;
		len -= n;
		if (off == be && (b >= cs->n || *run != cs->crc[b]))
			return -EBADMSG;
	}
	return 0;
}

/*
 * Before a change of [off, end) that leaves the object new_size bytes:
 * the old blocks whose checksums will be recomputed from the file (a
 * block the change covers only partly, and every block when the block
 * size changes) must still match their checksums now, or a rotten byte
 * next to the change would be vouched for by the new checksum (laundered).
 * -EBADMSG when one does not.
 */
int csum_before_change(cfs_obj *o, uint64_t off, uint64_t end,
		       uint64_t new_size)
{
	struct obj_csum *cs = &o->cs;
	uint64_t old = o->size, bsz, edges[2], done = UINT64_MAX;

	if (!cs->valid || old == 0)
		return 0; /* nothing vouched for yet */
	if (shift_for(new_size, cs->shift) != cs->shift)
		return csum_verify_range(o, NULL, old, 0);
	bsz = 1ULL << cs->shift;
	edges[0] = off < old ? off : old;
	edges[1] = end;
	for (int i = 0; i < 2; i++) {
		uint64_t e = edges[i], bs = e & ~(bsz - 1);
		int r;

		if ((e & (bsz - 1)) == 0 || bs >= old || bs == done)
			continue; /* aligned, no old bytes in its block, or
				   * the block the first edge settled */
		done = bs;
		/* An append that fills on the old last block: its checksum
		 * is extended from the stored one (csum_after_write), not
		 * taken from the file, so a rotten byte there still fails
		 * the next read.  Reading those bytes back on every append
		 * was two reads of up to a block per small write (an
		 * untar's tar writes 10 KiB at a time). */
		if (off == old && bs < off && (bs >> cs->shift) < cs->n &&
		    (bs + bsz < new_size ? bs + bsz : new_size) <= end)
			continue;
		r = csum_verify_range(o, NULL, (old < bs + bsz ? old : bs + bsz) - bs,
				      bs);
		if (r)
			return r;
	}
	return 0;
}
