/*
 * ec_object.c - reads, writes and truncation of one erasure-coded object
 * over its shards (ec_object.h), as Ceph 16.2's ECBackend does them with
 * overwrites allowed: a read asks the data shards and decodes only when
 * one fails (ECBackend::objects_read_and_reconstruct with its fallback to
 * the remaining shards), a partial write reads the stripes it does not
 * cover whole (ECTransaction's read-modify-write), every shard gets the
 * re-encoded stripes.  Work goes in batches of at most BATCH bytes of
 * stripes, so memory stays bounded whatever the length.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ec_codec.h"
#include "ec_object.h"

#define BATCH (1u << 20)
/* shard runs at least this long go to write_many (a thread per shard
 * costs more than a small write) */
#define PARALLEL_MIN (64u * 1024)

static uint64_t batch_stripes(const struct ec_stripe *s)
{
	uint64_t n = BATCH / ec_stripe_width(s);

	return n ? n : 1;
}

/*
 * Stripes [first, first + n) into data (n x stripe_width bytes): shards
 * in order (data ones first), the failing ones skipped and noted in *bad,
 * until k gave their part.
 */
static int read_stripes(const struct ec_object *o, uint64_t first,
			uint64_t n, unsigned char *data, uint64_t *bad,
			unsigned char *work)
{
	const struct ec_stripe *s = &o->s;
	int km = s->k + s->m, have = 0, r = 0;
	size_t slen = (size_t)(n * s->chunk);
	unsigned char *sh[EC_MAX_CHUNKS] = { 0 };
	unsigned char *own = work ? NULL : malloc(slen * (size_t)s->k);
	unsigned char *mem = work ? work : own;

	if (!mem)
		return -ENOMEM;
	for (int i = 0; i < km && have < s->k; i++) {
		unsigned char *b = mem + slen * (size_t)have;
		ssize_t got;

		if (o->avoid >> i & 1)
			continue;
		got = o->io->read(o->io->arg, i, first * s->chunk, b, slen);
		if (got < 0) {
			*bad |= 1ull << i;
			continue;
		}
		/* past the shard's end: the zeros of a sparse tail */
		memset(b + got, 0, slen - (size_t)got);
		sh[i] = b;
		have++;
	}
	r = have < s->k ? -EIO
			: ec_stripes_decode(o->codec, s, sh, n, data, NULL);
	free(own);
	return r;
}

ssize_t ec_object_read(const struct ec_object *o, uint64_t size,
		       uint64_t off, void *buf, size_t len, uint64_t *bad)
{
	const struct ec_stripe *s = &o->s;
	uint64_t sw = ec_stripe_width(s), first, count, bmax, dummy = 0;
	unsigned char *tmp = NULL, *own = NULL, *work = NULL;
	size_t done = 0, tlen;

	if (!bad)
		bad = &dummy;
	*bad = 0;
	if (off >= size)
		return 0;
	if (len > size - off)
		len = (size_t)(size - off);
	ec_stripe_span(s, off, len, &first, &count);
	bmax = batch_stripes(s);
	tlen = (size_t)((count < bmax ? count : bmax) * sw);
	/* the decoded stripes and the shards' bytes (as long: k chunks a
	 * stripe) in the caller's kept scratch when it has one: two fresh
	 * 1 MiB buffers per read were two mmaps, their page faults (half
	 * the daemon's CPU in a cold EC read) and two munmaps */
	if (o->io->scratch && (tmp = o->io->scratch(2 * tlen)))
		work = tmp + tlen;
	else if (!(tmp = own = malloc(tlen)))
		return -ENOMEM;
	for (uint64_t st = first; st < first + count;) {
		uint64_t n = first + count - st < bmax ? first + count - st
						       : bmax;
		uint64_t from = st * sw, to = from + n * sw;
		uint64_t a = off > from ? off : from;
		uint64_t e = off + len < to ? off + len : to;
		/* whole stripes wanted (a read-ahead's megabyte is): decoded
		 * straight into buf, one copy of every byte fewer */
		int whole = a == from && e == to;
		unsigned char *dst = whole ? (unsigned char *)buf + (a - off)
					   : tmp;
		int r = read_stripes(o, st, n, dst, bad, work);

		if (r) {
			free(own);
			return r;
		}
		if (!whole)
			memcpy((unsigned char *)buf + (a - off),
			       tmp + (a - from), (size_t)(e - a));
		done += (size_t)(e - a);
		st += n;
	}
	free(own);
	return (ssize_t)done;
}

struct fill {
	const struct ec_object *o;
	const unsigned char *data;
	uint64_t n;
	unsigned char *const *sh;
};

/* Shard i's bytes of the batch, on the thread that writes it: a data
 * shard gathers its chunks, the coding shard (one: m = 1) encodes from
 * the stripes where they are.  On 2+1, 1 MiB WRITEs, the gather and the
 * encode were 14% of the daemon on the request's thread, before the
 * shards' writes could start (docs/performance.md). */
static void fill_shard(void *arg, int i)
{
	const struct fill *f = arg;
	const struct ec_stripe *s = &f->o->s;

	if (i < s->k)
		ec_stripes_gather(s, f->data, f->n, i, f->sh[i]);
	else if (s->m == 1)
		ec_stripes_parity(f->o->codec, s, f->data, f->n, f->sh);
}

/* Encode the n stripes in data and write them to every shard kept. */
static int write_stripes(const struct ec_object *o, uint64_t first,
			 uint64_t n, const unsigned char *data)
{
	const struct ec_stripe *s = &o->s;
	int km = s->k + s->m, r = 0;
	size_t slen = (size_t)(n * s->chunk);
	unsigned char *mem = NULL, *own = NULL;
	unsigned char *sh[EC_MAX_CHUNKS] = { 0 };

	/* page-aligned, so that whole shard runs can go around the page
	 * cache (the shard store writes them O_DIRECT when aligned), and
	 * the caller's kept scratch when it has one: a fresh 1.5 MiB per
	 * batch is an mmap, its page faults and an munmap (perf) */
	if (o->io->scratch)
		mem = o->io->scratch(slen * (size_t)km);
	if (!mem && posix_memalign((void **)&own, 4096, slen * (size_t)km))
		return -ENOMEM;
	if (!mem)
		mem = own;
	for (int i = 0; i < km; i++)
		sh[i] = mem + slen * (size_t)i;
	if (o->io->write_many && slen >= PARALLEL_MIN) {
		uint64_t mask = ((1ULL << km) - 1) & ~o->avoid;
		struct fill f = { o, data, n, sh };

		/* several coding shards come from one pass: made here */
		if (s->m > 1)
			ec_stripes_parity(o->codec, s, data, n, sh);
		r = o->io->write_many(o->io->arg, mask, first * s->chunk, sh,
				      slen, fill_shard, &f);
		free(own);
		return r;
	}
	ec_stripes_encode(o->codec, s, data, n, sh);
	for (int i = 0; i < km && !r; i++)
		if (!(o->avoid >> i & 1))
			r = o->io->write(o->io->arg, i, first * s->chunk, sh[i],
					 slen);
	free(own);
	return r;
}

int ec_object_write(const struct ec_object *o, uint64_t size, uint64_t off,
		    const void *buf, size_t len, uint64_t *new_size,
		    uint64_t *bad)
{
	const struct ec_stripe *s = &o->s;
	uint64_t sw = ec_stripe_width(s), bmax = batch_stripes(s), dummy = 0;
	struct ec_rmw p;
	unsigned char *tmp;
	int r = 0;

	if (!bad)
		bad = &dummy;
	*bad = 0;
	ec_rmw_plan(s, size, off, len, &p);
	if (!p.count) {
		*new_size = size;
		return 0;
	}
	tmp = NULL; /* only for a batch that is not whole stripes of buf */
	for (uint64_t st = p.first; st < p.first + p.count && !r;) {
		uint64_t n = p.first + p.count - st < bmax
				     ? p.first + p.count - st
				     : bmax;
		uint64_t from = st * sw, to = from + n * sw, last = st + n - 1;
		uint64_t a = off > from ? off : from;
		uint64_t e = off + len < to ? off + len : to;

		/* whole stripes of the caller's bytes (a big aligned write):
		 * encoded from buf itself, no staging copy (perf: memset and
		 * memcpy of tmp were ~10% of the daemon in a 1 MiB EC write) */
		if (a == from && e == to) {
			r = write_stripes(o, st, n, (const unsigned char *)buf +
							    (a - off));
			st += n;
			continue;
		}
		if (!tmp && !(tmp = malloc((size_t)((p.count < bmax ? p.count
								   : bmax) *
						     sw)))) {
			r = -ENOMEM;
			break;
		}
		memset(tmp, 0, (size_t)(n * sw));
		/* the old bytes around the write, where the object has them */
		if (st == p.first && p.read_head)
			r = read_stripes(o, st, 1, tmp, bad, NULL);
		if (!r && last == p.first + p.count - 1 && p.read_tail &&
		    !(last == p.first && p.read_head))
			r = read_stripes(o, last, 1, tmp + (n - 1) * sw, bad,
					 NULL);
		if (r)
			break;
		memcpy(tmp + (a - from), (const unsigned char *)buf + (a - off),
		       (size_t)(e - a));
		/* the object's end inside the last stripe keeps zeros after
		 * it: bytes past size in a read stripe are the padding */
		r = write_stripes(o, st, n, tmp);
		st += n;
	}
	free(tmp);
	if (!r)
		*new_size = off + len > size ? off + len : size;
	return r;
}

int ec_object_truncate(const struct ec_object *o, uint64_t size,
		       uint64_t new_size, uint64_t *bad)
{
	const struct ec_stripe *s = &o->s;
	uint64_t sw = ec_stripe_width(s), dummy = 0;
	int r = 0;

	if (!bad)
		bad = &dummy;
	*bad = 0;
	/* a cut inside a stripe: its tail becomes the zero padding */
	if (new_size < size && new_size % sw) {
		uint64_t st = new_size / sw;
		unsigned char *tmp = malloc((size_t)sw);

		if (!tmp)
			return -ENOMEM;
		r = read_stripes(o, st, 1, tmp, bad, NULL);
		if (!r) {
			memset(tmp + new_size % sw, 0, (size_t)(sw - new_size % sw));
			r = write_stripes(o, st, 1, tmp);
		}
		free(tmp);
	}
	for (int i = 0; i < s->k + s->m && !r; i++)
		if (!(o->avoid >> i & 1))
			r = o->io->truncate(o->io->arg, i,
					    ec_shard_len(s, new_size));
	return r;
}
