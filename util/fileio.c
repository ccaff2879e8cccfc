/*
 * fileio.c - durable file replacement and small file-tree helpers.
 *
 * cfs_write_atomic is the crash-safety primitive of the cluster: a reader
 * (or a restart after a crash) sees the old file or the new one, never a
 * torn one.  Order: write a temporary file in the same directory, fsync it,
 * rename it over the target, fsync the directory so the rename is durable.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

static int dir_of(const char *path, char *buf, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash) {
		if (len < 2)
			return -ENAMETOOLONG;
		strcpy(buf, ".");
		return 0;
	}
	if (slash == path) {
		if (len < 2)
			return -ENAMETOOLONG;
		strcpy(buf, "/");
		return 0;
	}
	if ((size_t)(slash - path) >= len)
		return -ENAMETOOLONG;
	memcpy(buf, path, (size_t)(slash - path));
	buf[slash - path] = '\0';
	return 0;
}

int cfs_fsync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int err = 0;

	if (fd < 0)
		return -errno;
	if (fsync(fd) < 0 && errno != EINVAL)
		err = -errno;
	close(fd);
	return err;
}

ssize_t cfs_read_full(int fd, void *buf, size_t len, int64_t off)
{
	size_t n = 0;

	while (n < len) {
		ssize_t r = off < 0 ? read(fd, (char *)buf + n, len - n)
				    : pread(fd, (char *)buf + n, len - n,
					    (off_t)(off + (int64_t)n));

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	return (ssize_t)n;
}

int cfs_write_full(int fd, const void *buf, size_t len, int64_t off)
{
	size_t n = 0;

	while (n < len) {
		ssize_t w = off < 0 ? write(fd, (const char *)buf + n, len - n)
				    : pwrite(fd, (const char *)buf + n,
					     len - n,
					     (off_t)(off + (int64_t)n));

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		n += (size_t)w;
	}
	return 0;
}

static int write_replace(const char *path, const void *data, size_t len,
			 int durable, mode_t mode)
{
	char tmp[PATH_MAX], dir[PATH_MAX];
	int fd, err;

	err = dir_of(path, dir, sizeof(dir));
	if (err)
		return err;
	if (snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid()) >=
	    (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	if (fd < 0)
		return -errno;
	err = cfs_write_full(fd, data, len, -1);
	if (!err && durable && fsync(fd) < 0)
		err = -errno;
	if (close(fd) < 0 && !err)
		err = -errno;
	if (!err && rename(tmp, path) < 0)
		err = -errno;
	if (err) {
		unlink(tmp);
		return err;
	}
	return durable ? cfs_fsync_dir(dir) : 0;
}

DIR *cfs_opendirat(int dirfd, const char *rel, int *err)
{
	int fd = openat(dirfd, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d;

	if (fd < 0) {
		*err = -errno;
		return NULL;
	}
	d = fdopendir(fd);
	if (!d) {
		*err = -errno;
		close(fd);
	}
	return d;
}

int cfs_write_atomic(const char *path, const void *data, size_t len)
{
	return write_replace(path, data, len, 1, CFS_FILE_MODE);
}

int cfs_write_atomic_mode(const char *path, const void *data, size_t len,
			  unsigned mode)
{
	return write_replace(path, data, len, 1, (mode_t)mode);
}

int cfs_write_replace(const char *path, const void *data, size_t len)
{
	return write_replace(path, data, len, 0, CFS_FILE_MODE);
}

int cfs_read_file(const char *path, char **out, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t cap = 4096, n = 0;
	char *buf;

	if (fd < 0)
		return -errno;
	buf = malloc(cap);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	for (;;) {
		ssize_t r;

		if (n + 1 >= cap) {
			char *nb = realloc(buf, cap * 2);

			if (!nb) {
				free(buf);
				close(fd);
				return -ENOMEM;
			}
			buf = nb;
			cap *= 2;
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0) {
			int err = -errno;

			if (errno == EINTR)
				continue;
			free(buf);
			close(fd);
			return err;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = '\0';
	*out = buf;
	if (len)
		*len = n;
	return 0;
}

int cfs_mkdirs(const char *path, unsigned mode)
{
	char buf[PATH_MAX];
	size_t n = strlen(path);

	if (n == 0)
		return -EINVAL;
	if (n >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, path, n + 1);
	for (size_t i = 1; i <= n; i++) {
		if (buf[i] != '/' && buf[i] != '\0')
			continue;
		buf[i] = '\0';
		if (mkdir(buf, (mode_t)mode) < 0 && errno != EEXIST)
			return -errno;
		if (i < n)
			buf[i] = '/';
	}
	{
		struct stat st;

		if (stat(path, &st) < 0)
			return -errno;
		if (!S_ISDIR(st.st_mode))
			return -ENOTDIR;
	}
	return 0;
}

/* Remove the contents of the directory open at dfd, then nothing else. */
static int rm_contents(int dfd)
{
	DIR *d = fdopendir(dfd);
	struct dirent *de;
	int err = 0;

	if (!d) {
		err = -errno;
		close(dfd);
		return err;
	}
	while ((de = readdir(d)) != NULL) {
		int sub;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (unlinkat(dirfd(d), de->d_name, 0) == 0)
			continue;
		if (errno != EISDIR && errno != EPERM) {
			if (errno != ENOENT && !err)
				err = -errno;
			continue;
		}
		sub = openat(dirfd(d), de->d_name,
			     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0) {
			if (!err)
				err = -errno;
			continue;
		}
		{
			int e = rm_contents(sub);

			if (e && !err)
				err = e;
		}
		if (unlinkat(dirfd(d), de->d_name, AT_REMOVEDIR) < 0 && !err)
			err = -errno;
	}
	closedir(d);
	return err;
}

int cfs_rmtree(const char *path)
{
	struct stat st;
	int fd, err;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISDIR(st.st_mode))
		return unlink(path) < 0 ? -errno : 0;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	err = rm_contents(fd);
	if (rmdir(path) < 0 && !err)
		err = -errno;
	return err;
}

int cfs_pathf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return (n < 0 || (size_t)n >= len) ? -ENAMETOOLONG : 0;
}
