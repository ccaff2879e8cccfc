/*
 * util.h - small shared helpers (libc only): error strings, logging,
 * atomic file replacement, size parsing/printing, per-thread I/O buffers.
 * Convention (STYLE.md 8): functions return 0 or -errno.
 */
#ifndef CRUSHFS_UTIL_H
#define CRUSHFS_UTIL_H

#include <dirent.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Codes of our own live in a reserved negative range. */
#define CFS_ERR_BASE 20000
#define CFS_EBADMAP (-(CFS_ERR_BASE + 1))     /* malformed crush map */
#define CFS_ECORRUPT (-(CFS_ERR_BASE + 2))    /* damaged cluster files */
#define CFS_ENOCLUSTER (-(CFS_ERR_BASE + 3))  /* no cluster at DIR */
#define CFS_ELIVE (-(CFS_ERR_BASE + 4))       /* the map is a live cluster's */
#define CFS_EUNTRUSTED (-(CFS_ERR_BASE + 5))  /* a socket not to talk to */
const char *cfs_strerror(int err); /* err is 0 or negative */

/* Logging: one hook; the daemon points it at its log, the CLI at stderr. */
enum cfs_log_level { CFS_LOG_ERR, CFS_LOG_WARN, CFS_LOG_INFO, CFS_LOG_DEBUG };
typedef void (*cfs_log_fn)(int level, const char *msg);
void cfs_log_set(cfs_log_fn fn, int max_level);
void cfs_log(int level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * What crushfs creates inside a cluster folder is its owner's only (issue
 * 21): the objects of a file that is 0600 in the mount are bytes in files
 * there, and anything looser lets every local user read them around the
 * mount's permissions (Ceph's OSD and mon data folders are 0700 and
 * owned by the daemon's user).  Files the user names on the command line
 * (outputs) are the user's own: created 0644, the umask applies.
 */
#define CFS_DIR_MODE 0700
#define CFS_FILE_MODE 0600

/* Write data to path atomically: tmp file, fsync, rename, fsync dir.
 * A new file is CFS_FILE_MODE (cluster files); _mode gives the mode, the
 * umask applied (a file the user named). */
int cfs_write_atomic(const char *path, const void *data, size_t len);
int cfs_write_atomic_mode(const char *path, const void *data, size_t len,
			  unsigned mode);
/* The same without the fsyncs: a reader (or a process crash) still sees
 * the old or the new content; after a power loss the file may be the old
 * one, or empty if the filesystem did not order the data before the
 * rename (callers must detect and recover from that). */
int cfs_write_replace(const char *path, const void *data, size_t len);
/* The whole of len bytes, retrying short transfers and EINTR, at off
 * (pread/pwrite), or at the file position when off < 0 (pipes, sockets).
 * cfs_read_full returns the bytes read, fewer than len only at end of
 * file, or -errno; cfs_write_full returns 0 or -errno. */
ssize_t cfs_read_full(int fd, void *buf, size_t len, int64_t off);
int cfs_write_full(int fd, const void *buf, size_t len, int64_t off);
/* File descriptors over a unix socket (SCM_RIGHTS): cfs_send_fds sends
 * buf (len > 0) with nfds descriptors attached to it; cfs_recv_fds reads
 * exactly len bytes and the descriptors that came with them (close-on-
 * exec, at most maxfds; -EPIPE at end of stream, -EPROTO if more came
 * than fit).  Both 0 or -errno; on error no descriptor is left open. */
#define CFS_MAX_PASSED_FDS 8
int cfs_send_fds(int sock, const void *buf, size_t len, const int *fds,
		 int nfds);
int cfs_recv_fds(int sock, void *buf, size_t len, int *fds, int *nfds,
		 int maxfds);
/* Like cfs_read_full / cfs_write_full at the file position, but give up
 * with -ECANCELED as soon as the socket watch hangs up or becomes
 * readable (the peer that asked for the transfer is gone); never block
 * in the transfer itself for long once that happens.  watch < 0: plain
 * cfs_read_full / cfs_write_full. */
ssize_t cfs_read_watch(int fd, void *buf, size_t len, int watch);
int cfs_write_watch(int fd, const void *buf, size_t len, int watch);
/* Read a whole file (NUL-terminated); caller frees *out. */
int cfs_read_file(const char *path, char **out, size_t *len);
int cfs_fsync_dir(const char *dir);
/* A directory stream of rel under dirfd ("." for dirfd itself, read from
 * its start).  NULL with *err = -errno when it cannot be opened. */
DIR *cfs_opendirat(int dirfd, const char *rel, int *err);
/* mkdir -p */
int cfs_mkdirs(const char *path, unsigned mode);
/* rm -rf (no symlink following) */
int cfs_rmtree(const char *path);

/* snprintf for paths: 0, or -ENAMETOOLONG when it does not fit. */
int cfs_pathf(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* "4M", "1G", "512", "1.5G", "100K": K/M/G/T are powers of 1024.
 * Returns 0 or -EINVAL / -ERANGE. */
int cfs_parse_size(const char *s, uint64_t *out);

/* base64.c: RFC 4648 base64.  encode: a malloc'ed NUL-ended string (NULL
 * when out of memory); decode: 0, -EINVAL (not base64) or -ENOMEM. */
char *cfs_b64_encode(const void *data, size_t len, size_t *outlen);
int cfs_b64_decode(const char *s, size_t len, void **out, size_t *outlen);
/* Like ceph's byte_u_t: "1 GiB", "512 MiB", "0 B" into buf. */
const char *cfs_format_size(uint64_t bytes, char *buf, size_t len);

/* tbuf.c: the calling thread's I/O buffer number slot, of at least len
 * bytes, kept between calls and freed when the thread exits; contents
 * undefined.  4 KiB-aligned (direct I/O), and from 256 KiB on a whole
 * number of 2 MiB transparent huge pages, so a direct read or write of
 * it is one block-layer segment (a loop device splits 4 KiB pages).
 * One slot per layer that holds one across the other's calls; NULL when
 * out of memory. */
enum { CFS_TBUF_OBJLAYER, CFS_TBUF_FUSE, CFS_TBUF_SLOTS };
void *cfs_tbuf(int slot, size_t len);
/* The same kind of memory, not per thread: len bytes (rounded up to
 * whole 2 MiB pages) at a 2 MiB boundary, zeroed; NULL when out of
 * memory.  Unmapped with the same len. */
void *cfs_huge_map(size_t len);
void cfs_huge_unmap(void *p, size_t len);

/* 1 when x is one of v[0..n) (an OSD in an up or acting set) */
static inline int cfs_in_set(const int *v, int n, int x)
{
	for (int i = 0; i < n; i++)
		if (v[i] == x)
			return 1;
	return 0;
}

/* FNV-1a of s's first n bytes: a slot in a table keyed by name (not a
 * placement hash; those are Ceph's, in placement/) */
static inline uint32_t cfs_fnv1a(const char *s, size_t n)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

#endif
