/*
 * mds.c - metadata records and the key schema (see mds.h).
 *
 * All keys (after JuiceFS tkv.go; inode numbers are 8-byte BIG-endian so
 * that the store's byte order is numeric order, and a directory's entries
 * are one contiguous, name-ordered range):
 *
 *   "Cversion"               format version, u32 LE (MDS_FORMAT)
 *   "Cfsid"                  the cluster fsid (text) this metadata belongs to
 *   "Cnextino"               first inode number not yet reserved, u64 LE
 *   "Cinodes"                how many inode records there are, u64 LE: kept
 *                            in the batches that add or delete them
 *                            (mds_commit_counted), so statfs needs no scan
 *   'I' ino                  inode record (MDS_INODE_REC_LEN bytes, below);
 *                            link count 0: dead, an orphan mark goes with it
 *   'D' parent name          directory entry -> child ino (u64 LE) + DT_* byte
 *   'S' ino                  symlink target (bytes, no NUL)
 *   'X' ino name             extended attribute value
 *   'P' ino                  preallocated end, u64 LE: objects may hold
 *                            (zero) bytes past the size up to here
 *                            (fallocate KEEP_SIZE; inode flag MDS_F_PREALLOC)
 *   'O' ino                  orphan: nlink reached 0 while the inode was still
 *                            referenced; its objects and records are removed on
 *                            the last close/forget, or at the next mount /
 *                            fsck after a crash.  Empty value.
 *   'B' ino                  backtrace pending: the inode's backtrace (on its
 *                            object 0, backtrace.h) lags behind a change not
 *                            written yet (lazily, bt_queue.c); the next mount
 *                            writes it after a crash.  Value: a link to start
 *                            from, parent u64 LE + name, or empty.
 *
 * Every change that spans keys (create, link, unlink, rename, rmdir, ...) is
 * committed as one batch by vfs.c.  File data lives in objlayer objects
 * named "%llx.%08llx" (ino, object number); no key points at them.
 *
 * Inode record (little-endian, fixed size, version byte first):
 *   0 u8 version(2)  1..3 pad  4 mode  8 uid  12 gid  16 nlink
 *   20 size u64  28 rdev u64  36 parent u64  44 generation u64
 *   52 atime (i64 s, u32 ns)  64 mtime  76 ctime  88 btime
 *   100 flags u32  104 stripe_unit  108 stripe_count  112 object_size
 *   116 pool i64  124..127 pad  128 wr_first u64  136 max_size u64
 * Version 1 records (128 bytes, no writeable range) are read as having
 * none (wr_first = max_size = 0) and rewritten as version 2.
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mds.h"
#include "util.h"

#define MDS_FORMAT 1
#define INO_RESERVE 4096

struct mds {
	kv *db;
	pthread_mutex_t alloc_lock;
	uint64_t next_ino, limit_ino;
	/* inode records in the store (see "Cinodes"); count_lock spans the
	 * commit of every batch that changes it */
	pthread_mutex_t count_lock;
	uint64_t ninodes;
};

static int count_inodes(kv *db, uint64_t *n);

/* ---- byte helpers ---- */

static void put_be64(unsigned char *p, uint64_t v)
{
	for (int i = 7; i >= 0; i--) {
		p[i] = v & 0xff;
		v >>= 8;
	}
}

static uint64_t get_be64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = (v << 8) | p[i];
	return v;
}

static void put_le32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (v >> (8 * i)) & 0xff;
}

static void put_le64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (v >> (8 * i)) & 0xff;
}

static uint32_t get_le32(const unsigned char *p)
{
	uint32_t v = 0;

	for (int i = 3; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

static uint64_t get_le64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

/* ---- keys ---- */

static size_t key_ino(unsigned char *k, char tag, uint64_t ino)
{
	k[0] = (unsigned char)tag;
	put_be64(k + 1, ino);
	return 9;
}

/* tag + ino + name; k must hold 9 + MDS_NAME_MAX bytes. */
static size_t key_ino_name(unsigned char *k, char tag, uint64_t ino,
			   const char *name, size_t nlen)
{
	key_ino(k, tag, ino);
	memcpy(k + 9, name, nlen);
	return 9 + nlen;
}

#define KEYBUF (9 + MDS_NAME_MAX + 1)

/* ---- records ---- */

static void put_ts(unsigned char *p, const struct timespec *ts)
{
	put_le64(p, (uint64_t)ts->tv_sec);
	put_le32(p + 8, (uint32_t)ts->tv_nsec);
}

static void get_ts(const unsigned char *p, struct timespec *ts)
{
	ts->tv_sec = (time_t)(int64_t)get_le64(p);
	ts->tv_nsec = get_le32(p + 8);
}

void mds_encode_inode(const struct mds_inode *in,
		      unsigned char buf[MDS_INODE_REC_LEN])
{
	memset(buf, 0, MDS_INODE_REC_LEN);
	buf[0] = 2;
	put_le32(buf + 4, in->mode);
	put_le32(buf + 8, in->uid);
	put_le32(buf + 12, in->gid);
	put_le32(buf + 16, in->nlink);
	put_le64(buf + 20, in->size);
	put_le64(buf + 28, in->rdev);
	put_le64(buf + 36, in->parent);
	put_le64(buf + 44, in->generation);
	put_ts(buf + 52, &in->atime);
	put_ts(buf + 64, &in->mtime);
	put_ts(buf + 76, &in->ctime);
	put_ts(buf + 88, &in->btime);
	put_le32(buf + 100, in->flags);
	put_le32(buf + 104, in->layout.stripe_unit);
	put_le32(buf + 108, in->layout.stripe_count);
	put_le32(buf + 112, in->layout.object_size);
	put_le64(buf + 116, (uint64_t)in->layout.pool);
	put_le64(buf + 128, in->wr_first);
	put_le64(buf + 136, in->max_size);
}

int mds_decode_inode(const void *data, size_t len, struct mds_inode *in)
{
	const unsigned char *buf = data;

	if (!(len == MDS_INODE_REC_LEN && buf[0] == 2) &&
	    !(len == MDS_INODE_REC_LEN_V1 && buf[0] == 1))
		return CFS_ECORRUPT;
	memset(in, 0, sizeof(*in));
	in->mode = get_le32(buf + 4);
	in->uid = get_le32(buf + 8);
	in->gid = get_le32(buf + 12);
	in->nlink = get_le32(buf + 16);
	in->size = get_le64(buf + 20);
	in->rdev = get_le64(buf + 28);
	in->parent = get_le64(buf + 36);
	in->generation = get_le64(buf + 44);
	get_ts(buf + 52, &in->atime);
	get_ts(buf + 64, &in->mtime);
	get_ts(buf + 76, &in->ctime);
	get_ts(buf + 88, &in->btime);
	in->flags = get_le32(buf + 100);
	in->layout.stripe_unit = get_le32(buf + 104);
	in->layout.stripe_count = get_le32(buf + 108);
	in->layout.object_size = get_le32(buf + 112);
	in->layout.pool = (int64_t)get_le64(buf + 116);
	if (buf[0] == 2) {
		in->wr_first = get_le64(buf + 128);
		in->max_size = get_le64(buf + 136);
	}
	return 0;
}

uint8_t mds_mode_to_dt(uint32_t mode)
{
	return (uint8_t)((mode & S_IFMT) >> 12);
}

/* ---- open / format ---- */

static int get_u64(kv *db, const char *key, uint64_t *v)
{
	void *val;
	size_t len;
	int rc = kv_get(db, key, strlen(key), &val, &len);

	if (rc)
		return rc;
	if (len != 8) {
		free(val);
		return CFS_ECORRUPT;
	}
	*v = get_le64(val);
	free(val);
	return 0;
}

int mds_format(kv *db, const char *fsid, uint32_t uid, uint32_t gid)
{
	struct mds_inode root;
	unsigned char v[8];
	kv_batch *b;
	int rc;

	rc = kv_get(db, "Cversion", 8, NULL, NULL);
	if (rc == 0)
		return -EEXIST;
	if (rc != -ENOENT)
		return rc;
	b = kv_batch_new();
	if (!b)
		return -ENOMEM;
	memset(&root, 0, sizeof(root));
	root.ino = MDS_ROOT_INO;
	root.mode = S_IFDIR | 0755;
	root.uid = uid;
	root.gid = gid;
	root.nlink = 2;
	root.parent = MDS_ROOT_INO;
	root.generation = 1;
	clock_gettime(CLOCK_REALTIME, &root.mtime);
	root.atime = root.ctime = root.btime = root.mtime;
	mds_put_inode(b, &root);
	put_le64(v, MDS_FIRST_INO);
	kv_batch_put(b, "Cnextino", 8, v, 8);
	if (fsid)
		kv_batch_put(b, "Cfsid", 5, fsid, strlen(fsid));
	put_le64(v, 1);
	kv_batch_put(b, "Cinodes", 7, v, 8);
	put_le32(v, MDS_FORMAT);
	kv_batch_put(b, "Cversion", 8, v, 4);
	rc = kv_batch_commit(db, b, 1);
	kv_batch_free(b);
	return rc;
}

int mds_open(kv *db, const char *fsid, mds **out)
{
	struct mds *m;
	void *val = NULL;
	size_t len;
	uint64_t next;
	int rc;

	rc = kv_get(db, "Cversion", 8, &val, &len);
	if (rc)
		return rc;
	if (len != 4 || get_le32(val) != MDS_FORMAT) {
		free(val);
		cfs_log(CFS_LOG_ERR, "metadata format is not version %d",
			MDS_FORMAT);
		return CFS_ECORRUPT;
	}
	free(val);
	if (fsid) {
		rc = kv_get(db, "Cfsid", 5, &val, &len);
		if (rc == 0 && (len != strlen(fsid) || memcmp(val, fsid, len))) {
			cfs_log(CFS_LOG_ERR,
				"metadata belongs to cluster %s, not %s",
				(char *)val, fsid);
			free(val);
			return CFS_ECORRUPT;
		}
		free(val);
		if (rc && rc != -ENOENT)
			return rc;
	}
	rc = get_u64(db, "Cnextino", &next);
	if (rc)
		return rc == -ENOENT ? CFS_ECORRUPT : rc;
	rc = kv_get(db, "I\0\0\0\0\0\0\0\1", 9, NULL, NULL);
	if (rc)
		return rc == -ENOENT ? CFS_ECORRUPT : rc;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->db = db;
	pthread_mutex_init(&m->alloc_lock, NULL);
	/* Numbers between next and the stored limit may have been handed
	 * out before a crash: start at the limit. */
	m->next_ino = m->limit_ino = next;
	pthread_mutex_init(&m->count_lock, NULL);
	/* A store from before the counter: count once (the next counted
	 * commit stores it). */
	rc = get_u64(db, "Cinodes", &m->ninodes);
	if (rc == -ENOENT)
		rc = count_inodes(db, &m->ninodes);
	if (rc) {
		mds_close(m);
		return rc;
	}
	*out = m;
	return 0;
}

void mds_close(mds *m)
{
	if (!m)
		return;
	pthread_mutex_destroy(&m->alloc_lock);
	pthread_mutex_destroy(&m->count_lock);
	free(m);
}

kv *mds_kv(mds *m)
{
	return m->db;
}

int mds_alloc_ino(mds *m, uint64_t *ino)
{
	int rc = 0;

	pthread_mutex_lock(&m->alloc_lock);
	if (m->next_ino == m->limit_ino) {
		unsigned char v[8];

		put_le64(v, m->limit_ino + INO_RESERVE);
		rc = kv_put(m->db, "Cnextino", 8, v, 8);
		if (rc == 0)
			m->limit_ino += INO_RESERVE;
	}
	if (rc == 0)
		*ino = m->next_ino++;
	pthread_mutex_unlock(&m->alloc_lock);
	return rc;
}

int mds_alloc_above(mds *m, uint64_t ino)
{
	int rc = 0;

	pthread_mutex_lock(&m->alloc_lock);
	if (m->next_ino <= ino) {
		unsigned char v[8];

		/* what was reserved below is skipped: numbers are never
		 * reused, some may go unused */
		put_le64(v, ino + 1);
		rc = kv_put(m->db, "Cnextino", 8, v, 8);
		if (rc == 0)
			m->next_ino = m->limit_ino = ino + 1;
	}
	pthread_mutex_unlock(&m->alloc_lock);
	return rc;
}

uint64_t mds_next_ino(mds *m)
{
	uint64_t n;

	pthread_mutex_lock(&m->alloc_lock);
	n = m->next_ino;
	pthread_mutex_unlock(&m->alloc_lock);
	return n;
}

/* ---- reads ---- */

int mds_get_inode(mds *m, uint64_t ino, struct mds_inode *out)
{
	unsigned char k[9];
	void *val;
	size_t len;
	int rc = kv_get(m->db, k, key_ino(k, 'I', ino), &val, &len);

	if (rc)
		return rc;
	rc = mds_decode_inode(val, len, out);
	free(val);
	if (rc == 0)
		out->ino = ino;
	else
		cfs_log(CFS_LOG_ERR, "inode %llx: damaged record",
			(unsigned long long)ino);
	return rc;
}

static int decode_dentry(const void *val, size_t len, struct mds_dentry *d)
{
	if (len != 9)
		return CFS_ECORRUPT;
	d->ino = get_le64(val);
	d->type = ((const unsigned char *)val)[8];
	return 0;
}

int mds_lookup(mds *m, uint64_t parent, const char *name,
	       struct mds_dentry *out)
{
	unsigned char k[KEYBUF];
	size_t nlen = strlen(name);
	void *val;
	size_t len;
	int rc;

	if (nlen > MDS_NAME_MAX)
		return -ENAMETOOLONG;
	rc = kv_get(m->db, k, key_ino_name(k, 'D', parent, name, nlen), &val,
		    &len);
	if (rc)
		return rc;
	rc = decode_dentry(val, len, out);
	free(val);
	return rc;
}

static int stop_first(const void *k, size_t kl, const void *v, size_t vl,
		      void *arg)
{
	(void)k, (void)kl, (void)v, (void)vl, (void)arg;
	return 1;
}

int mds_dir_empty(mds *m, uint64_t dir)
{
	unsigned char k[9];
	int rc = kv_scan(m->db, k, key_ino(k, 'D', dir), NULL, 0, stop_first,
			 NULL);

	if (rc < 0)
		return rc;
	return rc == 0;
}

struct readdir_ctx {
	mds_dirent_fn fn;
	void *arg;
};

static int readdir_cb(const void *key, size_t klen, const void *val,
		      size_t vlen, void *arg)
{
	struct readdir_ctx *c = arg;
	struct mds_dentry d;
	int rc = decode_dentry(val, vlen, &d);

	if (rc)
		return rc;
	return c->fn((const char *)key + 9, klen - 9, &d, c->arg);
}

int mds_readdir(mds *m, uint64_t dir, const char *after, mds_dirent_fn fn,
		void *arg)
{
	unsigned char k[9], a[KEYBUF];
	struct readdir_ctx c = { fn, arg };
	size_t alen = 0;

	key_ino(k, 'D', dir);
	if (after) {
		size_t n = strlen(after);

		if (n > MDS_NAME_MAX)
			return -ENAMETOOLONG;
		alen = key_ino_name(a, 'D', dir, after, n);
	}
	return kv_scan(m->db, k, 9, after ? a : NULL, alen, readdir_cb, &c);
}

int mds_get_symlink(mds *m, uint64_t ino, char **target, size_t *len)
{
	unsigned char k[9];
	void *val;
	int rc = kv_get(m->db, k, key_ino(k, 'S', ino), &val, len);

	if (rc == 0)
		*target = val;
	return rc;
}

int mds_get_xattr(mds *m, uint64_t ino, const char *name, void **val,
		  size_t *len)
{
	unsigned char k[KEYBUF];
	size_t nlen = strlen(name);
	int rc;

	if (nlen > MDS_XATTR_NAME_MAX)
		return -ERANGE;
	rc = kv_get(m->db, k, key_ino_name(k, 'X', ino, name, nlen), val, len);
	return rc == -ENOENT ? -ENODATA : rc;
}

struct xattr_ctx {
	mds_xattr_fn fn;
	void *arg;
};

static int xattr_cb(const void *key, size_t klen, const void *val,
		    size_t vlen, void *arg)
{
	struct xattr_ctx *c = arg;

	return c->fn((const char *)key + 9, klen - 9, val, vlen, c->arg);
}

int mds_list_xattrs(mds *m, uint64_t ino, mds_xattr_fn fn, void *arg)
{
	unsigned char k[9];
	struct xattr_ctx c = { fn, arg };

	return kv_scan(m->db, k, key_ino(k, 'X', ino), NULL, 0, xattr_cb, &c);
}

struct ino_ctx {
	int (*fn)(uint64_t ino, void *arg);
	void *arg;
};

static int orphan_cb(const void *key, size_t klen, const void *val,
		     size_t vlen, void *arg)
{
	struct ino_ctx *c = arg;

	(void)val, (void)vlen;
	if (klen != 9)
		return 0;
	return c->fn(get_be64((const unsigned char *)key + 1), c->arg);
}

int mds_list_orphans(mds *m, int (*fn)(uint64_t ino, void *arg), void *arg)
{
	struct ino_ctx c = { fn, arg };

	return kv_scan(m->db, "O", 1, NULL, 0, orphan_cb, &c);
}

struct inode_list_ctx {
	int (*fn)(const struct mds_inode *ino, void *arg);
	void *arg;
};

static int inode_list_cb(const void *key, size_t klen, const void *val,
			 size_t vlen, void *arg)
{
	struct inode_list_ctx *c = arg;
	struct mds_inode in;
	int rc;

	if (klen != 9)
		return CFS_ECORRUPT;
	rc = mds_decode_inode(val, vlen, &in);
	if (rc)
		return rc;
	in.ino = get_be64((const unsigned char *)key + 1);
	return c->fn(&in, c->arg);
}

int mds_list_inodes(mds *m, int (*fn)(const struct mds_inode *ino, void *arg),
		    void *arg)
{
	struct inode_list_ctx c = { fn, arg };

	return kv_scan(m->db, "I", 1, NULL, 0, inode_list_cb, &c);
}

struct dentry_list_ctx {
	int (*fn)(uint64_t parent, const char *name, size_t nlen,
		  const struct mds_dentry *d, void *arg);
	void *arg;
};

static int dentry_list_cb(const void *key, size_t klen, const void *val,
			  size_t vlen, void *arg)
{
	struct dentry_list_ctx *c = arg;
	struct mds_dentry d;
	int rc;

	if (klen < 10)
		return CFS_ECORRUPT;
	rc = decode_dentry(val, vlen, &d);
	if (rc)
		return rc;
	return c->fn(get_be64((const unsigned char *)key + 1),
		     (const char *)key + 9, klen - 9, &d, c->arg);
}

int mds_list_dentries(mds *m,
		      int (*fn)(uint64_t parent, const char *name, size_t nlen,
				const struct mds_dentry *d, void *arg),
		      void *arg)
{
	struct dentry_list_ctx c = { fn, arg };

	return kv_scan(m->db, "D", 1, NULL, 0, dentry_list_cb, &c);
}

/* ---- changes ---- */

void mds_put_inode(kv_batch *b, const struct mds_inode *in)
{
	unsigned char k[9], v[MDS_INODE_REC_LEN];

	mds_encode_inode(in, v);
	kv_batch_put(b, k, key_ino(k, 'I', in->ino), v, sizeof(v));
}

void mds_put_dentry(kv_batch *b, uint64_t parent, const char *name,
		    const struct mds_dentry *d)
{
	unsigned char k[KEYBUF], v[9];

	put_le64(v, d->ino);
	v[8] = d->type;
	kv_batch_put(b, k, key_ino_name(k, 'D', parent, name, strlen(name)), v,
		     sizeof(v));
}

void mds_del_dentry(kv_batch *b, uint64_t parent, const char *name)
{
	unsigned char k[KEYBUF];

	kv_batch_delete(b, k, key_ino_name(k, 'D', parent, name, strlen(name)));
}

void mds_put_symlink(kv_batch *b, uint64_t ino, const char *target,
		     size_t len)
{
	unsigned char k[9];

	kv_batch_put(b, k, key_ino(k, 'S', ino), target, len);
}

void mds_del_symlink(kv_batch *b, uint64_t ino)
{
	unsigned char k[9];

	kv_batch_delete(b, k, key_ino(k, 'S', ino));
}

void mds_put_xattr(kv_batch *b, uint64_t ino, const char *name,
		   const void *val, size_t len)
{
	unsigned char k[KEYBUF];

	kv_batch_put(b, k, key_ino_name(k, 'X', ino, name, strlen(name)), val,
		     len);
}

void mds_del_xattr(kv_batch *b, uint64_t ino, const char *name)
{
	unsigned char k[KEYBUF];

	kv_batch_delete(b, k, key_ino_name(k, 'X', ino, name, strlen(name)));
}

void mds_put_orphan(kv_batch *b, uint64_t ino)
{
	unsigned char k[9];

	kv_batch_put(b, k, key_ino(k, 'O', ino), "", 0);
}

void mds_del_orphan(kv_batch *b, uint64_t ino)
{
	unsigned char k[9];

	kv_batch_delete(b, k, key_ino(k, 'O', ino));
}

static int del_xattr_cb(const void *key, size_t klen, const void *val,
			size_t vlen, void *arg)
{
	(void)val, (void)vlen;
	kv_batch_delete(arg, key, klen);
	return 0;
}

void mds_put_btmark(kv_batch *b, uint64_t ino, uint64_t parent,
		    const char *name)
{
	unsigned char k[9], v[8 + MDS_NAME_MAX];
	size_t n = name ? strlen(name) : 0;

	if (n > MDS_NAME_MAX)
		n = 0;
	put_le64(v, parent);
	if (n)
		memcpy(v + 8, name, n);
	kv_batch_put(b, k, key_ino(k, 'B', ino), v, n ? 8 + n : 0);
}

void mds_del_btmark(kv_batch *b, uint64_t ino)
{
	unsigned char k[9];

	kv_batch_delete(b, k, key_ino(k, 'B', ino));
}

struct btmark_ctx {
	int (*fn)(uint64_t ino, uint64_t parent, const char *name,
		  size_t nlen, void *arg);
	void *arg;
};

static int btmark_cb(const void *key, size_t klen, const void *val,
		     size_t vlen, void *arg)
{
	struct btmark_ctx *c = arg;
	const unsigned char *v = val;

	if (klen != 9)
		return 0;
	if (vlen < 9 || vlen > 8 + MDS_NAME_MAX)
		vlen = 0; /* no usable link: the callee looks */
	return c->fn(get_be64((const unsigned char *)key + 1),
		     vlen ? get_le64(v) : 0, vlen ? (const char *)v + 8 : NULL,
		     vlen ? vlen - 8 : 0, c->arg);
}

int mds_list_btmarks(mds *m,
		     int (*fn)(uint64_t ino, uint64_t parent, const char *name,
			       size_t nlen, void *arg),
		     void *arg)
{
	struct btmark_ctx c = { fn, arg };

	return kv_scan(m->db, "B", 1, NULL, 0, btmark_cb, &c);
}

int mds_del_inode_all(mds *m, kv_batch *b, const struct mds_inode *rec)
{
	unsigned char k[9];

	kv_batch_delete(b, k, key_ino(k, 'B', rec->ino));
	kv_batch_delete(b, k, key_ino(k, 'I', rec->ino));
	if (S_ISLNK(rec->mode))
		kv_batch_delete(b, k, key_ino(k, 'S', rec->ino));
	kv_batch_delete(b, k, key_ino(k, 'O', rec->ino));
	if (rec->flags & MDS_F_PREALLOC)
		kv_batch_delete(b, k, key_ino(k, 'P', rec->ino));
	if (!(rec->flags & MDS_F_XATTRS))
		return 0;
	return kv_scan(m->db, k, key_ino(k, 'X', rec->ino), NULL, 0,
		       del_xattr_cb, b);
}

/* ---- the inode count ---- */

static int count_cb(const void *key, size_t klen, const void *val,
		    size_t vlen, void *arg)
{
	(void)key, (void)val, (void)vlen;
	if (klen == 9)
		++*(uint64_t *)arg;
	return 0;
}

static int count_inodes(kv *db, uint64_t *n)
{
	*n = 0;
	return kv_scan(db, "I", 1, NULL, 0, count_cb, n);
}

int mds_inode_exists(mds *m, uint64_t ino)
{
	unsigned char k[9];
	int rc = kv_get(m->db, k, key_ino(k, 'I', ino), NULL, NULL);

	return rc == 0 ? 1 : rc == -ENOENT ? 0 : rc;
}

uint64_t mds_inode_count(mds *m)
{
	uint64_t n;

	pthread_mutex_lock(&m->count_lock);
	n = m->ninodes;
	pthread_mutex_unlock(&m->count_lock);
	return n;
}

int mds_commit_counted(mds *m, kv_batch *b, int64_t delta, int sync)
{
	unsigned char v[8];
	uint64_t n;
	int rc;

	/* The lock spans the commit: counted batches reach the store in the
	 * order of their counts, so the stored count is never stale. */
	pthread_mutex_lock(&m->count_lock);
	n = m->ninodes + (uint64_t)delta;
	if (delta < 0 && (uint64_t)-delta > m->ninodes)
		n = 0;
	put_le64(v, n);
	kv_batch_put(b, "Cinodes", 7, v, 8);
	rc = kv_batch_commit(m->db, b, sync);
	if (rc == 0)
		m->ninodes = n;
	pthread_mutex_unlock(&m->count_lock);
	return rc;
}

int mds_recount_inodes(mds *m, int fix, uint64_t *stored, uint64_t *actual)
{
	uint64_t s = 0, n;
	int rc;

	pthread_mutex_lock(&m->count_lock);
	rc = get_u64(m->db, "Cinodes", &s);
	if (rc == -ENOENT)
		rc = 0;
	if (rc == 0)
		rc = count_inodes(m->db, &n);
	if (rc == 0 && fix && s != n) {
		unsigned char v[8];

		put_le64(v, n);
		rc = kv_put(m->db, "Cinodes", 7, v, 8);
	}
	if (rc == 0) {
		m->ninodes = n;
		*stored = s;
		*actual = n;
	}
	pthread_mutex_unlock(&m->count_lock);
	return rc;
}

/* ---- preallocated ends (fallocate with KEEP_SIZE) ---- */

int mds_get_prealloc(mds *m, uint64_t ino, uint64_t *end)
{
	unsigned char k[9];
	void *val;
	size_t len;
	int rc = kv_get(m->db, k, key_ino(k, 'P', ino), &val, &len);

	if (rc)
		return rc;
	if (len != 8) {
		free(val);
		return CFS_ECORRUPT;
	}
	*end = get_le64(val);
	free(val);
	return 0;
}

void mds_put_prealloc(kv_batch *b, uint64_t ino, uint64_t end)
{
	unsigned char k[9], v[8];

	put_le64(v, end);
	kv_batch_put(b, k, key_ino(k, 'P', ino), v, 8);
}

void mds_del_prealloc(kv_batch *b, uint64_t ino)
{
	unsigned char k[9];

	kv_batch_delete(b, k, key_ino(k, 'P', ino));
}
