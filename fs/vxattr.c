/*
 * vxattr.c - virtual extended attributes, after CephFS's ceph.file.layout:
 *
 *   crushfs.layout            "stripe_unit=4194304 stripe_count=1
 *                              object_size=4194304 pool=1"
 *   crushfs.layout.<field>    one of the four fields, as a number
 *   crushfs.placement         one line per object of the file:
 *                              "NAME -> PGID -> up [..] acting [..]"
 *
 * They are not listed by listxattr (like CephFS's).  Setting
 * crushfs.layout or a field is allowed on an empty regular file only
 * (CephFS: "setting layouts on files with data is not allowed"), and only
 * to a layout CephFS would take (file_layout_t::is_valid: 64 KiB
 * multiples, object size a multiple of the stripe unit, stripe_count >= 1)
 * within our bounds (stripe_count <= 65536, objects <= 1 GiB): EINVAL
 * otherwise, as the MDS answers (osdsim's cfs_layout_check).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "vfs_i.h"

#define VX_PREFIX "crushfs."
/* The kernel's getxattr limit (XATTR_SIZE_MAX). */
#define VX_MAX 65536

int vxattr_is_virtual(const char *name)
{
	return !strncmp(name, VX_PREFIX, strlen(VX_PREFIX));
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

static int layout_field(const struct ol_layout *l, const char *f,
			char *out, size_t n)
{
	if (!strcmp(f, "stripe_unit"))
		snprintf(out, n, "%" PRIu32, l->stripe_unit);
	else if (!strcmp(f, "stripe_count"))
		snprintf(out, n, "%" PRIu32, l->stripe_count);
	else if (!strcmp(f, "object_size"))
		snprintf(out, n, "%" PRIu32, l->object_size);
	else if (!strcmp(f, "pool"))
		snprintf(out, n, "%" PRId64, l->pool);
	else
		return -ENODATA;
	return 0;
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
		rc = v->d->locate(v->dctx, name, &p);
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
	const char *f = name + strlen(VX_PREFIX);
	char s[160];

	if (!S_ISREG(in->mode))
		return -ENODATA;
	if (!strcmp(f, "layout")) {
		snprintf(s, sizeof(s),
			 "stripe_unit=%" PRIu32 " stripe_count=%" PRIu32
			 " object_size=%" PRIu32 " pool=%" PRId64,
			 in->layout.stripe_unit, in->layout.stripe_count,
			 in->layout.object_size, in->layout.pool);
		return put_value(s, strlen(s), buf, size);
	}
	if (!strncmp(f, "layout.", 7)) {
		int rc = layout_field(&in->layout, f + 7, s, sizeof(s));

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

static int set_field(struct ol_layout *l, const char *f, size_t flen,
		     const char *val, size_t vlen)
{
	uint64_t x;
	int rc = parse_u64(val, vlen, &x);

	if (rc)
		return rc;
#define IS(name) (flen == strlen(name) && !strncmp(f, name, flen))
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
	if (IS("pool")) {
		/* One data pool: the layout may only name it. */
		return (int64_t)x == l->pool ? 0 : -EINVAL;
	}
#undef IS
	return -EINVAL;
}

int vxattr_set_layout(vfs *v, const struct mds_inode *in, const char *name,
		      const char *val, size_t len, struct ol_layout *out)
{
	const char *f = name + strlen(VX_PREFIX);
	struct ol_layout l = in->layout;
	int rc = 0;

	(void)v;
	if (strcmp(f, "layout") && strncmp(f, "layout.", 7))
		return -EPERM; /* crushfs.placement is read-only */
	if (!S_ISREG(in->mode))
		return -EINVAL;
	if (in->size != 0 || (in->flags & MDS_F_PREALLOC))
		return -ENOTEMPTY;
	if (!strcmp(f, "layout")) {
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
			rc = set_field(&l, val + ks, ke - ks, val + vs, ve - vs);
		}
	} else {
		rc = set_field(&l, f + 7, strlen(f + 7), val, len);
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
