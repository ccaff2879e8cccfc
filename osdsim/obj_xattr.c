/*
 * obj_xattr.c - attributes of one object copy (objstore.h, "object
 * attributes"): RADOS object xattrs, such as the "parent" backtrace that
 * CephFS keeps on a file's first object.  Each is a user xattr
 * "user.crushfs.a.<key>" of the copy's file, so it goes wherever the file
 * goes (a copy or repair carries every user.crushfs.* xattr along).
 *
 * The object's file is reached by its path (cfs_obj_path): the callers
 * (objlayer) hold the object's lock, so no write replaces the file under
 * us.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>

#include "objstore.h"
#include "util.h"

#define PREFIX "user.crushfs.a."

static int attr_name(const char *key, char *buf, size_t len)
{
	size_t n = key ? strlen(key) : 0;

	if (n == 0 || strchr(key, '/'))
		return -EINVAL;
	if ((size_t)snprintf(buf, len, PREFIX "%s", key) >= len)
		return -ERANGE;
	return 0;
}

/* The copy's path and the attribute's name; -ENOENT when the copy is not
 * there. */
static int target(cfs_cluster *c, int osd, int64_t pool, uint32_t ps, const char *name,
		  const char *key, char *path, size_t plen, char *an,
		  size_t alen)
{
	int r = attr_name(key, an, alen);

	if (!r)
		r = cfs_obj_path(c, osd, pool, ps, name, path, plen);
	return r;
}

static int no_copy(int e)
{
	/* a missing file (or PG folder) is a missing copy */
	return e == ENOENT || e == ENOTDIR ? -ENOENT : -e;
}

int cfs_obj_setxattr(cfs_cluster *c, int osd, int64_t pool, uint32_t ps, const char *name,
		     const char *key, const void *val, size_t len)
{
	char path[PATH_MAX], an[XATTR_NAME_MAX + 1];
	int r = target(c, osd, pool, ps, name, key, path, sizeof(path), an,
		       sizeof(an));

	if (r)
		return r;
	if (lsetxattr(path, an, val, len, 0) < 0)
		return no_copy(errno);
	return 0;
}

ssize_t cfs_obj_getxattr(cfs_cluster *c, int osd, int64_t pool, uint32_t ps,
			 const char *name, const char *key, void *val,
			 size_t len)
{
	char path[PATH_MAX], an[XATTR_NAME_MAX + 1];
	ssize_t n;
	int r = target(c, osd, pool, ps, name, key, path, sizeof(path), an,
		       sizeof(an));

	if (r)
		return r;
	n = lgetxattr(path, an, val, len);
	if (n < 0)
		return no_copy(errno);
	return n;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int cfs_obj_attrs_digest(cfs_cluster *c, int osd, int64_t pool, uint32_t ps,
			 const char *name, uint32_t *digest)
{
	char path[PATH_MAX], *names = NULL, **v = NULL, *val = NULL;
	ssize_t n;
	size_t nv = 0;
	int r = cfs_obj_path(c, osd, pool, ps, name, path, sizeof(path));

	*digest = 0;
	if (r)
		return r;
	n = llistxattr(path, NULL, 0);
	if (n < 0)
		return no_copy(errno);
	names = malloc((size_t)n + 1);
	v = calloc((size_t)n + 1, sizeof(*v));
	val = malloc(XATTR_SIZE_MAX);
	if (!names || !v || !val) {
		r = -ENOMEM;
		goto out;
	}
	n = llistxattr(path, names, (size_t)n);
	if (n < 0) {
		r = no_copy(errno);
		goto out;
	}
	/* the object's attributes only (not its checksum record), in name
	 * order, so that equal sets give equal digests */
	for (ssize_t i = 0; i < n; i += (ssize_t)strlen(names + i) + 1)
		if (!strncmp(names + i, PREFIX, strlen(PREFIX)))
			v[nv++] = names + i;
	qsort(v, nv, sizeof(*v), cmp_str);
	for (size_t i = 0; i < nv; i++) {
		ssize_t len = lgetxattr(path, v[i], val, XATTR_SIZE_MAX);

		if (len < 0) {
			r = no_copy(errno);
			goto out;
		}
		*digest = cfs_crc32c(*digest, v[i], strlen(v[i]) + 1);
		*digest = cfs_crc32c(*digest, val, (size_t)len);
	}
	/* 0 stands for "no attribute": a set never digests to it */
	if (nv && !*digest)
		*digest = 1;
out:
	free(names);
	free(v);
	free(val);
	return r;
}
