/*
 * backtrace.c - the backtrace record (backtrace.h): encoding, decoding
 * and checking of damaged input.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "backtrace.h"
#include "mds.h"
#include "util.h"

#define BT_V 1
#define BT_COMPAT 1
#define HDR 12
#define FIXED (8 + 4 * 3 + 8 + 8 + 4 + 8 + 4 * 3 + 8 + 4) /* 72 */

/* ---- crc32c (Castagnoli), table driven: a record is a few hundred
 * bytes, read once per rebuild ---- */

static uint32_t crc_tab[256];
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

static void crc_init(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;

		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0x82f63b78U & (0U - (c & 1)));
		crc_tab[i] = c;
	}
}

static uint32_t crc32c(const unsigned char *p, size_t n)
{
	uint32_t c = 0xffffffffU;

	pthread_once(&crc_once, crc_init);
	while (n--)
		c = crc_tab[(c ^ *p++) & 0xff] ^ (c >> 8);
	return c ^ 0xffffffffU;
}

/* ---- little-endian cursor ---- */

struct wr {
	unsigned char *p;
	size_t n, cap;
};

static void put(struct wr *w, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		w->p[w->n++] = (unsigned char)(v >> (8 * i));
}

struct rd {
	const unsigned char *p;
	size_t n, off;
	int bad;
};

static uint64_t get(struct rd *r, int bytes)
{
	uint64_t v = 0;

	if (r->bad || r->n - r->off < (size_t)bytes) {
		r->bad = 1;
		return 0;
	}
	for (int i = 0; i < bytes; i++)
		v |= (uint64_t)r->p[r->off + i] << (8 * i);
	r->off += (size_t)bytes;
	return v;
}

static int name_ok(const char *s, size_t n)
{
	if (n == 0 || n > MDS_NAME_MAX || memchr(s, '/', n) ||
	    memchr(s, '\0', n))
		return 0;
	return !(n == 1 && s[0] == '.') && !(n == 2 && !memcmp(s, "..", 2));
}

static int type_ok(uint32_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG: case S_IFDIR: case S_IFLNK: case S_IFIFO:
	case S_IFCHR: case S_IFBLK: case S_IFSOCK:
		return 1;
	}
	return 0;
}

static size_t dentry_len(const struct bt_dentry *d)
{
	return 8 + 1 + strlen(d->name);
}

static void put_dentry(struct wr *w, const struct bt_dentry *d)
{
	size_t n = strlen(d->name);

	put(w, d->dirino, 8);
	put(w, n, 1);
	memcpy(w->p + w->n, d->name, n);
	w->n += n;
}

int bt_encode(const struct backtrace *bt, void *buf, size_t cap,
	      size_t *len)
{
	struct wr w = { buf, 0, cap };
	size_t nanc = 0, nlinks = 0, need;
	uint32_t flags = bt->flags & ~(uint32_t)(BT_F_ANC_CUT | BT_F_LINKS_CUT);

	if (!bt->ino || !type_ok(bt->mode) ||
	    (bt->nanc == 0 && bt->ino != MDS_ROOT_INO))
		return -EINVAL;
	for (size_t i = 0; i < bt->nanc + bt->nlinks; i++) {
		const struct bt_dentry *d = i < bt->nanc ?
			&bt->anc[i] : &bt->links[i - bt->nanc];

		if (!d->dirino || !name_ok(d->name, strlen(d->name)))
			return -EINVAL;
	}
	/* what fits, anc[0] first, then the links (exact), then the rest
	 * of the ancestry (a fallback) */
	need = HDR + FIXED + 2 + 2 + 4;
	if (bt->nanc) {
		need += dentry_len(&bt->anc[0]);
		nanc = 1;
	}
	if (need > cap)
		return -ENOSPC;
	while (nlinks < bt->nlinks && nlinks < 0xffff &&
	       need + dentry_len(&bt->links[nlinks]) <= cap)
		need += dentry_len(&bt->links[nlinks++]);
	if (nlinks < bt->nlinks)
		flags |= BT_F_LINKS_CUT;
	while (nanc < bt->nanc && nanc < 0xffff &&
	       need + dentry_len(&bt->anc[nanc]) <= cap)
		need += dentry_len(&bt->anc[nanc++]);
	if (nanc < bt->nanc)
		flags |= BT_F_ANC_CUT;

	memcpy(w.p, "CFBT", 4);
	w.n = 4;
	put(&w, BT_V, 1);
	put(&w, BT_COMPAT, 1);
	put(&w, 0, 2);
	put(&w, need - HDR - 4, 4);
	put(&w, bt->ino, 8);
	put(&w, bt->mode, 4);
	put(&w, bt->uid, 4);
	put(&w, bt->gid, 4);
	put(&w, bt->rdev, 8);
	put(&w, (uint64_t)(int64_t)bt->mtime.tv_sec, 8);
	put(&w, (uint64_t)bt->mtime.tv_nsec, 4);
	put(&w, bt->stamp, 8);
	put(&w, bt->layout.stripe_unit, 4);
	put(&w, bt->layout.stripe_count, 4);
	put(&w, bt->layout.object_size, 4);
	put(&w, (uint64_t)bt->layout.pool, 8);
	put(&w, flags, 4);
	put(&w, nanc, 2);
	for (size_t i = 0; i < nanc; i++)
		put_dentry(&w, &bt->anc[i]);
	put(&w, nlinks, 2);
	for (size_t i = 0; i < nlinks; i++)
		put_dentry(&w, &bt->links[i]);
	put(&w, crc32c(w.p, w.n), 4);
	*len = w.n;
	return 0;
}

void bt_free(struct backtrace *bt)
{
	if (!bt)
		return;
	free(bt->mem_);
	bt->mem_ = NULL;
	bt->anc = bt->links = NULL;
	bt->nanc = bt->nlinks = 0;
}

/* Read n dentries into d[], their names into *names (advanced). */
static int get_dentries(struct rd *r, size_t n, struct bt_dentry *d,
			char **names)
{
	for (size_t i = 0; i < n; i++) {
		size_t nl;

		d[i].dirino = get(r, 8);
		nl = (size_t)get(r, 1);
		if (r->bad || r->n - r->off < nl || !d[i].dirino ||
		    !name_ok((const char *)r->p + r->off, nl))
			return CFS_ECORRUPT;
		memcpy(*names, r->p + r->off, nl);
		(*names)[nl] = '\0';
		d[i].name = *names;
		*names += nl + 1;
		r->off += nl;
	}
	return 0;
}

int bt_decode(const void *buf, size_t len, struct backtrace *out)
{
	const unsigned char *p = buf;
	struct rd r;
	size_t plen, nanc, nlinks;
	char *names;
	int rc;

	memset(out, 0, sizeof(*out));
	if (len < HDR + 4 || memcmp(p, "CFBT", 4))
		return CFS_ECORRUPT;
	plen = (size_t)p[8] | (size_t)p[9] << 8 | (size_t)p[10] << 16 |
	       (size_t)p[11] << 24;
	if (plen != len - HDR - 4)
		return CFS_ECORRUPT;
	{
		uint32_t want = (uint32_t)p[len - 4] |
				(uint32_t)p[len - 3] << 8 |
				(uint32_t)p[len - 2] << 16 |
				(uint32_t)p[len - 1] << 24;

		if (crc32c(p, len - 4) != want)
			return CFS_ECORRUPT;
	}
	if (p[5] > BT_V)
		return -EPROTO; /* written by a newer crushfs we cannot read */
	r.p = p;
	r.n = len - 4;
	r.off = HDR;
	r.bad = 0;
	out->ino = get(&r, 8);
	out->mode = (uint32_t)get(&r, 4);
	out->uid = (uint32_t)get(&r, 4);
	out->gid = (uint32_t)get(&r, 4);
	out->rdev = get(&r, 8);
	out->mtime.tv_sec = (time_t)(int64_t)get(&r, 8);
	out->mtime.tv_nsec = (long)get(&r, 4);
	out->stamp = get(&r, 8);
	out->layout.stripe_unit = (uint32_t)get(&r, 4);
	out->layout.stripe_count = (uint32_t)get(&r, 4);
	out->layout.object_size = (uint32_t)get(&r, 4);
	out->layout.pool = (int64_t)get(&r, 8);
	out->flags = (uint32_t)get(&r, 4);
	nanc = (size_t)get(&r, 2);
	if (r.bad || !out->ino || !type_ok(out->mode) ||
	    out->mtime.tv_nsec >= 1000000000L ||
	    (nanc == 0 && out->ino != MDS_ROOT_INO))
		return CFS_ECORRUPT;
	/* Every name is at most the rest of the payload: one block for the
	 * arrays and the names, sized by what is left. */
	{
		size_t rest = r.n - r.off, most = rest / 9 + 1;

		out->mem_ = malloc(most * sizeof(struct bt_dentry) + rest + most);
		if (!out->mem_)
			return -ENOMEM;
		out->anc = out->mem_;
		names = (char *)(out->anc + most);
		if (nanc > most) {
			rc = CFS_ECORRUPT;
			goto bad;
		}
		rc = get_dentries(&r, nanc, out->anc, &names);
		if (rc)
			goto bad;
		out->nanc = nanc;
		nlinks = (size_t)get(&r, 2);
		if (r.bad || nanc + nlinks > most) {
			rc = CFS_ECORRUPT;
			goto bad;
		}
		out->links = out->anc + nanc;
		rc = get_dentries(&r, nlinks, out->links, &names);
		if (rc)
			goto bad;
		out->nlinks = nlinks;
	}
	/* a newer struct_v may carry more: skipped (struct_compat says we
	 * may); a v1 record has nothing after its links */
	if (p[4] == BT_V && r.off != r.n) {
		rc = CFS_ECORRUPT;
		goto bad;
	}
	return 0;
bad:
	bt_free(out);
	return rc;
}
