/*
 * vxattr.c - virtual extended attributes: CephFS's layout vxattrs, and
 * crushfs's own.
 *
 *   ceph.file.layout          "stripe_unit=4194304 stripe_count=1
 *                              object_size=4194304 pool=crushfs_data"
 *   ceph.file.layout.<field>  stripe_unit, stripe_count, object_size,
 *                             pool (its name), pool_namespace
 *   ceph.dir.layout[.<field>] the same for a directory: the layout its
 *                             new files take (the nearest ancestor's
 *                             wins; the root always has one, the pool's
 *                             default); ENODATA on a directory with none
 *   crushfs.layout[.<field>]  the file's layout with the pool as its id
 *                             (the older spelling, kept)
 *   crushfs.placement         one line per object of the file:
 *                              "NAME -> PGID -> up [..] acting [..]"
 *   ceph.cluster_fsid         the cluster's fsid, on every inode
 *
 * They are not listed by listxattr (like CephFS's).  The rules are
 * CephFS's: a file layout changes only while the file is empty
 * (ENOTEMPTY otherwise, as the MDS answers), a directory's at any
 * time (affecting files made after), a partial directory layout starts
 * from the layout its files would take now, the pool is given by name or
 * id, and the result must be a layout CephFS takes (file_layout_t::
 * is_valid: 64 KiB multiples, object size a multiple of the stripe unit,
 * stripe_count >= 1) within our bounds (stripe_count <= 65536, objects
 * <= 1 GiB): EINVAL otherwise, as the MDS answers.  pool_namespace can
 * only be empty (crushfs objects have no namespaces).
 * `setfattr -x ceph.dir.layout` drops a directory's layout (not the
 * root's).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "vfs_i.h"

#define VX_PREFIX "crushfs."
#define CEPH_FILE "ceph.file.layout"
#define CEPH_DIR "ceph.dir.layout"
/* The kernel's getxattr limit (XATTR_SIZE_MAX). */
#define VX_MAX 65536

int vxattr_is_virtual(const char *name)
{
	return !strncmp(name, VX_PREFIX, strlen(VX_PREFIX)) ||
	       !strncmp(name, "ceph.", 5);
}

/* name is `base` or `base.<field>`: the field ("" for the whole). */
static const char *which(const char *name, const char *base)
{
	size_t n = strlen(base);

	if (strncmp(name, base, n))
		return NULL;
	if (!name[n])
		return "";
	return name[n] == '.' ? name + n + 1 : NULL;
}

int vx_layout_set(const struct ol_layout *l)
{
	return l->stripe_unit != 0;
}

/* The nearest ancestor's layout (1), or 0: none has one. */
static int ancestor_layout(vfs *v, const struct mds_inode *dir,
			   struct ol_layout *l)
{
	struct mds_inode r = *dir;

	/* CephFS: a new file takes the layout of its nearest ancestor that
	 * has one, else the filesystem's default */
	for (int depth = 0; depth < 4096; depth++) {
		if (vx_layout_set(&r.layout)) {
			*l = r.layout;
			return 1;
		}
		if (r.ino == MDS_ROOT_INO || !r.parent || r.parent == r.ino ||
		    mds_get_inode(v->m, r.parent, &r))
			break;
	}
	return 0;
}

void vx_effective_layout(vfs *v, const struct mds_inode *dir,
			 struct ol_layout *l)
{
	if (!ancestor_layout(v, dir, l))
		v->d->default_layout(v->dctx, l);
}

/*
 * Every create in a directory walked its ancestors in the store, one
 * RocksDB read per level (3.5-4.8% of the daemon in an untar of
 * /usr/include, docs/performance.md); the directory keeps the answer
 * until layout_gen moves.  The generation is read before the walk and
 * moved after a change is committed, so a walk that raced a change is
 * kept under the old generation and done again by the next create.  The
 * default is asked each time: the filesystem's data pool is not counted
 * by layout_gen.
 */
void vx_new_file_layout(vfs *v, struct vnode *dv, struct ol_layout *l)
{
	uint64_t g = atomic_load(&v->layout_gen);

	if (dv->lay_gen != g) {
		dv->lay_own = ancestor_layout(v, &dv->rec, &dv->lay);
		dv->lay_gen = g;
	}
	if (dv->lay_own)
		*l = dv->lay;
	else
		v->d->default_layout(v->dctx, l);
}

static ssize_t put_value(const char *s, size_t len, void *buf, size_t size)
{
	if (size == 0)
		return (ssize_t)len;
	if (len > size)
		return -ERANGE;
	memcpy(buf, s, len);
	return (ssize_t)len;
}

static int layout_field(vfs *v, const struct ol_layout *l, const char *f,
			int pool_names, char *out, size_t n)
{
	if (!strcmp(f, "stripe_unit"))
		snprintf(out, n, "%" PRIu32, l->stripe_unit);
	else if (!strcmp(f, "stripe_count"))
		snprintf(out, n, "%" PRIu32, l->stripe_count);
	else if (!strcmp(f, "object_size"))
		snprintf(out, n, "%" PRIu32, l->object_size);
	else if (!strcmp(f, "pool")) {
		char key[32];
		int64_t id;

		snprintf(key, sizeof(key), "%" PRId64, l->pool);
		/* CephFS names the pool; the id when it has no name */
		if (!pool_names || !v->d->pool_lookup ||
		    v->d->pool_lookup(v->dctx, key, &id, out, n))
			snprintf(out, n, "%" PRId64, l->pool);
	} else if (pool_names && !strcmp(f, "pool_namespace"))
		out[0] = '\0';
	else
		return -ENODATA;
	return 0;
}

/* "stripe_unit=... stripe_count=... object_size=... pool=..." */
static void layout_line(vfs *v, const struct ol_layout *l, int pool_names,
			char *out, size_t n)
{
	char pool[96];

	layout_field(v, l, "pool", pool_names, pool, sizeof(pool));
	snprintf(out, n,
		 "stripe_unit=%" PRIu32 " stripe_count=%" PRIu32
		 " object_size=%" PRIu32 " pool=%s",
		 l->stripe_unit, l->stripe_count, l->object_size, pool);
}

static void fmt_osds(char *out, size_t n, const int *osds, int cnt)
{
	size_t o = 0;

	o += snprintf(out + o, n - o, "[");
	for (int i = 0; i < cnt && o < n; i++)
		o += snprintf(out + o, n - o, "%s%d", i ? "," : "", osds[i]);
	if (o < n)
		snprintf(out + o, n - o, "]");
}

static ssize_t placement(vfs *v, const struct mds_inode *in, void *buf,
			 size_t size)
{
	uint64_t nobj = ol_object_count(&in->layout, in->size);
	char *s = malloc(VX_MAX);
	size_t len = 0;
	ssize_t rc;

	if (!s)
		return -ENOMEM;
	for (uint64_t i = 0; i < nobj; i++) {
		struct ol_placement p;
		char name[64], up[160], acting[160], line[512];
		int n;

		ol_object_name(in->ino, i, name, sizeof(name));
		rc = v->d->locate(v->dctx, in->layout.pool, name, &p);
		if (rc) {
			free(s);
			return rc;
		}
		fmt_osds(up, sizeof(up), p.up, p.nup);
		fmt_osds(acting, sizeof(acting), p.acting, p.nacting);
		n = snprintf(line, sizeof(line), "%s -> %s -> up %s acting %s\n",
			     name, p.pgid, up, acting);
		/* Keep room for the closing note. */
		if (len + (size_t)n > VX_MAX - 128) {
			len += snprintf(s + len, VX_MAX - len,
					"... %" PRIu64 " more objects "
					"(crushfs locate lists them all)\n",
					nobj - i);
			break;
		}
		memcpy(s + len, line, (size_t)n);
		len += (size_t)n;
	}
	rc = put_value(s, len, buf, size);
	free(s);
	return rc;
}

ssize_t vxattr_get(vfs *v, const struct mds_inode *in, const char *name,
		   void *buf, size_t size)
{
	const char *f;
	struct ol_layout l;
	char s[256];
	int rc;

	if ((f = which(name, CEPH_FILE)) || (f = which(name, CEPH_DIR))) {
		int dir = name[5] == 'd';

		if (dir ? !S_ISDIR(in->mode) : !S_ISREG(in->mode))
			return -ENODATA;
		l = in->layout;
		if (dir && !vx_layout_set(&l)) {
			/* the root always has one: the default */
			if (in->ino != MDS_ROOT_INO)
				return -ENODATA;
			v->d->default_layout(v->dctx, &l);
		}
		if (!*f)
			layout_line(v, &l, 1, s, sizeof(s));
		else if ((rc = layout_field(v, &l, f, 1, s, sizeof(s))))
			return rc;
		return put_value(s, strlen(s), buf, size);
	}
	/* CephFS (Octopus and later) answers the cluster's fsid on every
	 * inode: `locate` tells by it which cluster serves a path */
	if (!strcmp(name, "ceph.cluster_fsid") && v->d->fsid) {
		v->d->fsid(v->dctx, s, sizeof(s));
		return put_value(s, strlen(s), buf, size);
	}
	if (strncmp(name, VX_PREFIX, strlen(VX_PREFIX)))
		return -ENODATA;
	f = name + strlen(VX_PREFIX);
	if (!S_ISREG(in->mode))
		return -ENODATA;
	if (!strcmp(f, "layout")) {
		layout_line(v, &in->layout, 0, s, sizeof(s));
		return put_value(s, strlen(s), buf, size);
	}
	if (!strncmp(f, "layout.", 7)) {
		rc = layout_field(v, &in->layout, f + 7, 0, s, sizeof(s));
		if (rc)
			return rc;
		return put_value(s, strlen(s), buf, size);
	}
	if (!strcmp(f, "placement"))
		return placement(v, in, buf, size);
	return -ENODATA;
}

static int parse_u64(const char *s, size_t n, uint64_t *out)
{
	char tmp[32], *end;

	if (n == 0 || n >= sizeof(tmp))
		return -EINVAL;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	errno = 0;
	*out = strtoull(tmp, &end, 10);
	if (errno || *end || tmp[0] == '-')
		return -EINVAL;
	return 0;
}

static int set_field(vfs *v, struct ol_layout *l, const char *f, size_t flen,
		     const char *val, size_t vlen)
{
	uint64_t x;
	int rc;

#define IS(name) (flen == strlen(name) && !strncmp(f, name, flen))
	if (IS("pool")) {
		char key[96];
		int64_t id;

		/* by name or id; one that does not exist is EINVAL */
		if (vlen == 0 || vlen >= sizeof(key) || !v->d->pool_lookup)
			return -EINVAL;
		memcpy(key, val, vlen);
		key[vlen] = '\0';
		if (v->d->pool_lookup(v->dctx, key, &id, NULL, 0))
			return -EINVAL;
		l->pool = id;
		return 0;
	}
	if (IS("pool_namespace"))
		return vlen == 0 ? 0 : -EINVAL;
	rc = parse_u64(val, vlen, &x);
	if (rc)
		return rc;
	if (IS("stripe_unit") || IS("stripe_count") || IS("object_size")) {
		if (x == 0 || x > UINT32_MAX)
			return -EINVAL;
		if (IS("stripe_unit"))
			l->stripe_unit = (uint32_t)x;
		else if (IS("stripe_count"))
			l->stripe_count = (uint32_t)x;
		else
			l->object_size = (uint32_t)x;
		return 0;
	}
#undef IS
	return -EINVAL;
}

int vxattr_set_layout(vfs *v, const struct mds_inode *in, const char *name,
		      const char *val, size_t len, struct ol_layout *out)
{
	const char *f;
	struct ol_layout l = in->layout;
	int rc = 0;

	if ((f = which(name, CEPH_DIR))) {
		if (!S_ISDIR(in->mode))
			return -EINVAL;
		/* a partial layout starts from what files take now */
		if (!vx_layout_set(&l))
			vx_effective_layout(v, in, &l);
	} else if ((f = which(name, CEPH_FILE)) ||
		   (f = which(name, VX_PREFIX "layout"))) {
		if (!S_ISREG(in->mode))
			return -EINVAL;
		/* Server::handle_client_setlayout: ENOTEMPTY */
		if (in->size != 0 || (in->flags & MDS_F_PREALLOC))
			return -ENOTEMPTY;
	} else {
		/* crushfs.placement and other ceph.* are read-only */
		return strncmp(name, "ceph.", 5) ? -EPERM : -EINVAL;
	}
	if (!*f) {
		/* "key=value key=value ..." */
		size_t i = 0;

		while (i < len && rc == 0) {
			size_t ks, ke, vs, ve;

			while (i < len && (val[i] == ' ' || val[i] == '\n'))
				i++;
			if (i == len)
				break;
			ks = i;
			while (i < len && val[i] != '=' && val[i] != ' ')
				i++;
			ke = i;
			if (i == len || val[i] != '=')
				return -EINVAL;
			vs = ++i;
			while (i < len && val[i] != ' ' && val[i] != '\n')
				i++;
			ve = i;
			rc = set_field(v, &l, val + ks, ke - ks, val + vs,
				       ve - vs);
		}
	} else {
		/* setfattr may pass the value with its NUL */
		while (len && val[len - 1] == '\0')
			len--;
		rc = set_field(v, &l, f, strlen(f), val, len);
	}
	if (rc)
		return rc;
	/* CephFS's file_layout_t::is_valid and our bounds (the MDS answers
	 * EINVAL too): a layout nothing can use is never stored */
	if (!ol_layout_valid(&l))
		return -EINVAL;
	*out = l;
	return 0;
}

int vxattr_remove(vfs *v, const struct mds_inode *in, const char *name)
{
	(void)v;
	if (strcmp(name, CEPH_DIR))
		return strncmp(name, "ceph.", 5) ? -EPERM : -EINVAL;
	if (!S_ISDIR(in->mode))
		return -ENODATA;
	if (in->ino == MDS_ROOT_INO)
		return -EINVAL; /* the root keeps one */
	return vx_layout_set(&in->layout) ? 0 : -ENODATA;
}
