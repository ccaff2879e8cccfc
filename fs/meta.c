/*
 * meta.c - opening the metadata store DIR/mds, for the daemon and for
 * offline tools (fs_meta_*: locate), see fs.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fsd_i.h"
#include "util.h"

/* ---- the "a filesystem was made here" marker ---- */

static void marker_path(const char *cluster_dir, char *buf, size_t len)
{
	snprintf(buf, len, "%s/" META_MARKER, cluster_dir);
}

int meta_marker_exists(const char *cluster_dir)
{
	char p[4096];

	marker_path(cluster_dir, p, sizeof(p));
	return access(p, F_OK) == 0;
}

static int marker_put(const char *cluster_dir, const char *fsid,
		      uint64_t seq, int durable)
{
	char p[4096], text[512];

	marker_path(cluster_dir, p, sizeof(p));
	snprintf(text, sizeof(text),
		 "# crushfs: this cluster holds a filesystem, its metadata "
		 "is in mds/.\n"
		 "# Without mds/ the filesystem is lost, not new: crushfs "
		 "fsck --rebuild-metadata\n"
		 "fsid %s\n"
		 "# the metadata store's sequence number at the last clean "
		 "unmount\n"
		 "seq %llu\n",
		 fsid ? fsid : "?", (unsigned long long)seq);
	return durable ? cfs_write_atomic(p, text, strlen(text))
		       : cfs_write_replace(p, text, strlen(text));
}

int meta_marker_write(const char *cluster_dir, const char *fsid,
		      uint64_t seq)
{
	return marker_put(cluster_dir, fsid, seq, 1);
}

int meta_marker_seq(const char *cluster_dir, uint64_t *seq)
{
	char p[4096], *text, *l;
	size_t len;

	*seq = 0;
	marker_path(cluster_dir, p, sizeof(p));
	if (cfs_read_file(p, &text, &len))
		return 0;
	for (l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1
						   : NULL)
		if (!strncmp(l, "seq ", 4))
			*seq = strtoull(l + 4, NULL, 10);
	free(text);
	return 1;
}

int meta_mark_clean(cfs_cluster *c, kv *db)
{
	char fsid[64];
	int rc;

	ol_cluster_fsid(c, fsid, sizeof(fsid));
	/* Not fsync'ed (an unmount must not wait for the journal to commit
	 * every object freed before it): a power cut may leave the older
	 * number, or an empty marker - a weaker check, never a false one. */
	rc = kv_sync(db);
	if (rc == 0)
		rc = marker_put(ol_cluster_dir(c), fsid, kv_seq(db), 0);
	if (rc)
		cfs_log(CFS_LOG_WARN, "%s/" META_MARKER ": %s",
			ol_cluster_dir(c), cfs_strerror(rc));
	return rc;
}

/* ---- file objects: what makes a missing store a loss ---- */

int meta_objname_parse(const char *name, uint64_t *ino, uint64_t *objno)
{
	const char *dot = strchr(name, '.');
	char *end;

	if (!dot || dot == name || strlen(dot + 1) < 8)
		return 0;
	for (const char *p = name; *p; p++)
		if (p != dot && !((*p >= '0' && *p <= '9') ||
				  (*p >= 'a' && *p <= 'f')))
			return 0;
	*ino = strtoull(name, &end, 16);
	if (end != dot)
		return 0;
	*objno = strtoull(dot + 1, &end, 16);
	return !*end && *ino >= MDS_FIRST_INO;
}

struct objcount {
	uint64_t n, max_ino;
};

static int count_cb(const char *name, void *arg)
{
	struct objcount *oc = arg;
	uint64_t ino, objno;

	if (meta_objname_parse(name, &ino, &objno)) {
		oc->n++;
		if (ino > oc->max_ino)
			oc->max_ino = ino;
	}
	return 0;
}

int meta_file_objects(cfs_cluster *c, uint64_t *n, uint64_t *max_ino)
{
	struct objcount oc = { 0, 0 };
	objlayer *ol;
	int rc = ol_open(c, &ol);

	if (rc)
		return rc;
	rc = ol_obj_list(ol, ol_data_pool(ol), count_cb, &oc);
	ol_close(ol);
	if (rc == 0) {
		*n = oc.n;
		if (max_ino)
			*max_ino = oc.max_ino;
	}
	return rc;
}

/* ---- opening ---- */

static int refuse(const char *path, const char *dir, int create,
		  char *err, size_t errlen, int rc, const char *what)
{
	snprintf(err, errlen, "%s: %s; %s: rebuild it from the objects with "
		 "'crushfs --cluster %s fsck --rebuild-metadata'",
		 path, what, create ? "refusing to mount" : "nothing checked",
		 dir);
	return rc;
}

/* "the cluster holds a filesystem (N objects of files)" */
static void holds(cfs_cluster *c, char *buf, size_t len)
{
	uint64_t n = 0;

	if (meta_file_objects(c, &n, NULL) == 0 && n)
		snprintf(buf, len, "the cluster holds a filesystem (%llu "
			 "objects of files)", (unsigned long long)n);
	else
		snprintf(buf, len, "the cluster holds a filesystem (%s)",
			 META_MARKER);
}

int meta_open_store(cfs_cluster *c, int create, kv **dbp, mds **mp,
		    int *state, char *err, size_t errlen)
{
	const char *dir = ol_cluster_dir(c);
	char path[4096], fsid[64], why[1200], rmsg[900] = "", has[128];
	struct stat st;
	kv *db = NULL;
	mds *m = NULL;
	uint64_t nobj = 0, mseq;
	int rc, fresh = 0, made, dummy;

	if (!state)
		state = &dummy;
	*state = META_OK;
	ol_cluster_fsid(c, fsid, sizeof(fsid));
	snprintf(path, sizeof(path), "%s/mds", dir);
	made = meta_marker_exists(dir);
	if (stat(path, &st) != 0) {
		rc = -errno;
		if (rc != -ENOENT) {
			snprintf(err, errlen, "%s: %s", path, strerror(-rc));
			*state = META_DAMAGED;
			return rc;
		}
		/* Gone: a loss when a filesystem was made here (mkfs leaves
		 * the marker) or files left objects; else a cluster made
		 * before mkfs made the store, never mounted. */
		if (!made && meta_file_objects(c, &nobj, NULL) == 0 &&
		    nobj == 0) {
			if (create) {
				fresh = 1;
				goto open;
			}
			*state = META_NONE;
			snprintf(err, errlen, "%s: %s (the filesystem was never "
				 "mounted)", path, strerror(ENOENT));
			return rc;
		}
		*state = META_MISSING;
		holds(c, has, sizeof(has));
		snprintf(why, sizeof(why), "metadata store missing, but %s",
			 has);
		return refuse(path, dir, create, err, errlen, rc, why);
	} else if (!S_ISDIR(st.st_mode)) {
		*state = META_DAMAGED;
		return refuse(path, dir, create, err, errlen, -ENOTDIR,
			      "metadata store unreadable (not a directory)");
	}
open:
	rc = kv_open_rocksdb_msg(path, fresh, &db, rmsg, sizeof(rmsg));
	if (rc) {
		if (rc == -EBUSY) {
			snprintf(err, errlen, "%s: in use by another process "
				 "(is the cluster mounted?)", path);
			return rc;
		}
		*state = META_DAMAGED;
		snprintf(why, sizeof(why), "metadata store unreadable (%s)",
			 rc == -ENOENT ? "not a RocksDB store" : rmsg);
		return refuse(path, dir, create, err, errlen, rc, why);
	}
	rc = mds_open(db, fsid, &m);
	if (rc == -ENOENT) {
		/* A store without a filesystem: the first mount of an old
		 * cluster (or a crash during it) - or a store that lost its
		 * log, which must not come up as an empty filesystem. */
		int lost = made;

		if (!fresh && !lost)
			lost = meta_file_objects(c, &nobj, NULL) != 0 ||
			       nobj > 0; /* cannot tell: refuse */
		if (lost) {
			kv_close(db);
			*state = META_EMPTY;
			holds(c, has, sizeof(has));
			snprintf(why, sizeof(why), "metadata store empty (its "
				 "log lost?), but %s", has);
			return refuse(path, dir, create, err, errlen,
				      CFS_ECORRUPT, why);
		}
		if (create) {
			rc = mds_format(db, fsid, getuid(), getgid());
			if (rc == 0) {
				cfs_log(CFS_LOG_INFO, "created the filesystem "
					"metadata in %s", path);
				rc = mds_open(db, fsid, &m);
			}
			if (rc == 0)
				meta_marker_write(dir, fsid, kv_seq(db));
		}
	}
	if (rc) {
		kv_close(db);
		if (rc == -ENOENT) {
			*state = META_NONE;
			snprintf(err, errlen, "%s: no filesystem in the metadata "
				 "store (never mounted)", path);
			return rc;
		}
		*state = META_DAMAGED;
		if (rc == CFS_ECORRUPT)
			return refuse(path, dir, create, err, errlen, rc,
				      "metadata store damaged (or another "
				      "cluster's)");
		snprintf(err, errlen, "%s: %s", path, cfs_strerror(rc));
		return rc;
	}
	/* The store must hold everything it held at the last clean
	 * unmount: RocksDB drops a damaged log tail as if the writer had
	 * died in it (kTolerateCorruptedTailRecords), and a log that is all
	 * garbage looks like that - an older filesystem would come up, and
	 * hand out inode numbers again. */
	if (meta_marker_seq(dir, &mseq) && mseq > kv_seq(db)) {
		snprintf(why, sizeof(why), "metadata store older than the "
			 "filesystem (at sequence %llu, %llu at the last clean "
			 "unmount: its newest log is damaged or lost)",
			 (unsigned long long)kv_seq(db),
			 (unsigned long long)mseq);
		mds_close(m);
		kv_close(db);
		*state = META_DAMAGED;
		return refuse(path, dir, create, err, errlen, CFS_ECORRUPT,
			      why);
	}
	*dbp = db;
	*mp = m;
	return 0;
}

int fs_mkfs(const char *cluster_dir, char *err, size_t errlen)
{
	cfs_cluster *c;
	char path[4096], fsid[64], rmsg[900] = "";
	uint64_t seq;
	kv *db;
	int rc = ol_cluster_open(cluster_dir, 1, &c, err, errlen);

	if (rc)
		return rc;
	ol_cluster_fsid(c, fsid, sizeof(fsid));
	snprintf(path, sizeof(path), "%s/mds", cluster_dir);
	rc = kv_open_rocksdb_msg(path, 1, &db, rmsg, sizeof(rmsg));
	if (rc) {
		snprintf(err, errlen, "%s: cannot create the metadata store: "
			 "%s", path, *rmsg ? rmsg : cfs_strerror(rc));
		goto out;
	}
	rc = mds_format(db, fsid, getuid(), getgid());
	if (rc == 0)
		rc = kv_sync(db);
	seq = kv_seq(db);
	kv_close(db);
	if (rc == 0)
		rc = cfs_fsync_dir(cluster_dir);
	if (rc == 0)
		rc = meta_marker_write(cluster_dir, fsid, seq);
	if (rc)
		snprintf(err, errlen, "%s: cannot make the filesystem: %s",
			 path, cfs_strerror(rc));
out:
	ol_cluster_close(c);
	return rc;
}

int fs_meta_open(cfs_cluster *c, fs_meta **out, char *err, size_t errlen)
{
	struct vfs_opts vo = { .readonly = 1, .noatime = 1 };
	fs_meta *fm = calloc(1, sizeof(*fm));
	int rc;

	if (!fm) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	rc = meta_open_store(c, 0, &fm->db, &fm->m, NULL, err, errlen);
	if (rc) {
		free(fm);
		return rc;
	}
	rc = vfs_new(fm->m, NULL, NULL, &vo, &fm->v);
	if (rc) {
		snprintf(err, errlen, "%s/mds: %s", ol_cluster_dir(c),
			 cfs_strerror(rc));
		mds_close(fm->m);
		kv_close(fm->db);
		free(fm);
		return rc;
	}
	fm->owned = 1;
	*out = fm;
	return 0;
}

void fs_meta_close(fs_meta *fm)
{
	if (!fm || !fm->owned)
		return;
	vfs_free(fm->v);
	mds_close(fm->m);
	kv_close(fm->db);
	free(fm);
}

int fs_meta_resolve(fs_meta *fm, const char *path, uint64_t *ino)
{
	return vfs_resolve(fm->v, path, ino);
}

int fs_meta_stat(fs_meta *fm, uint64_t ino, struct fs_inode_info *out)
{
	struct mds_inode r;
	int rc = vfs_stat_inode(fm->v, ino, &r);

	if (rc)
		return rc;
	memset(out, 0, sizeof(*out));
	out->ino = ino;
	out->mode = r.mode;
	out->nlink = r.nlink;
	out->uid = r.uid;
	out->gid = r.gid;
	out->size = r.size;
	out->layout = r.layout;
	return 0;
}

/* ---- inode -> path, from every dentry (fs_meta_paths) ---- */

struct pent {
	uint64_t ino, parent;
	uint32_t type;
	char *name;
};

struct pwalk {
	struct pent *v;
	size_t n, cap;
	int nomem;
};

static int collect_dentry(uint64_t parent, const char *name, size_t nlen,
			  const struct mds_dentry *d, void *arg)
{
	struct pwalk *w = arg;

	if (w->n == w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 1024;
		struct pent *nv = realloc(w->v, cap * sizeof(*nv));

		if (!nv) {
			w->nomem = 1;
			return 1;
		}
		w->v = nv;
		w->cap = cap;
	}
	w->v[w->n].name = strndup(name, nlen);
	if (!w->v[w->n].name) {
		w->nomem = 1;
		return 1;
	}
	w->v[w->n].ino = d->ino;
	w->v[w->n].parent = parent;
	w->v[w->n].type = d->type;
	w->n++;
	return 0;
}

static int cmp_pent_ino(const void *a, const void *b)
{
	const struct pent *x = a, *y = b;

	return (x->ino > y->ino) - (x->ino < y->ino);
}

static const struct pent *find_pent(const struct pwalk *w, uint64_t ino)
{
	size_t lo = 0, hi = w->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (w->v[mid].ino < ino)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < w->n && w->v[lo].ino == ino ? &w->v[lo] : NULL;
}

int fs_meta_paths(fs_meta *fm,
		  int (*fn)(uint64_t ino, uint32_t type, const char *path,
			    void *arg),
		  void *arg)
{
	struct pwalk w = { 0 };
	char path[4096];
	int rc = mds_list_dentries(fm->m, collect_dentry, &w);

	if (!rc && w.nomem)
		rc = -ENOMEM;
	if (!rc && w.n)
		qsort(w.v, w.n, sizeof(*w.v), cmp_pent_ino);
	for (size_t i = 0; !rc && i < w.n; i++) {
		const struct pent *e = &w.v[i];
		size_t len = 0, depth = 0;

		if (i && w.v[i - 1].ino == e->ino)
			continue; /* another name of a hard-linked file */
		/* build the path from the leaf up, right-aligned */
		path[sizeof(path) - 1] = 0;
		len = 0;
		for (const struct pent *p = e; p && depth < 4096; depth++) {
			size_t nl = strlen(p->name);

			if (len + nl + 1 >= sizeof(path) - 1) {
				p = NULL;
				len = 0;
				break;
			}
			memcpy(path + sizeof(path) - 1 - len - nl, p->name, nl);
			path[sizeof(path) - 2 - len - nl] = '/';
			len += nl + 1;
			p = find_pent(&w, p->parent);
		}
		if (len)
			rc = fn(e->ino, e->type, path + sizeof(path) - 1 - len,
				arg);
	}
	for (size_t i = 0; i < w.n; i++)
		free(w.v[i].name);
	free(w.v);
	return rc;
}

const char *fs_meta_mountpoint(const fs_meta *fm)
{
	return fm->mountpoint;
}
