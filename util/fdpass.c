/*
 * fdpass.c - file descriptors over a unix socket (SCM_RIGHTS, unix(7)),
 * and whole transfers on a descriptor that stop when a peer goes away.
 *
 * The admin socket uses both: the CLI hands its stdin and stdout to the
 * mounted daemon with the request (Ceph's admin socket has no such thing;
 * this is how `rados put NAME -` reaches a daemon that has no terminal),
 * and the daemon reads or writes them while watching the connection, so
 * a client killed with ^C does not leave the daemon reading the user's
 * terminal, or blocked on a pipe nobody reads, for ever.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "util.h"

int cfs_send_fds(int sock, const void *buf, size_t len, const int *fds,
		 int nfds)
{
	union {
		char b[CMSG_SPACE(sizeof(int) * CFS_MAX_PASSED_FDS)];
		struct cmsghdr align;
	} ctl;
	struct iovec iov = { (void *)buf, len };
	struct msghdr msg;
	ssize_t n;

	if (len == 0 || nfds < 0 || nfds > CFS_MAX_PASSED_FDS)
		return -EINVAL;
	memset(&msg, 0, sizeof(msg));
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	if (nfds) {
		struct cmsghdr *c;

		memset(&ctl, 0, sizeof(ctl));
		msg.msg_control = ctl.b;
		msg.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)nfds);
		c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)nfds);
		memcpy(CMSG_DATA(c), fds, sizeof(int) * (size_t)nfds);
	}
	do
		n = sendmsg(sock, &msg, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	/* The descriptors went with the first byte; the rest is data. */
	if ((size_t)n < len)
		return cfs_write_full(sock, (const char *)buf + n,
				      len - (size_t)n, -1);
	return 0;
}

/* Keep up to max of the descriptors in c (in order), close the others. */
static void take_fds(struct cmsghdr *c, int *fds, int *nfds, int max)
{
	size_t k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);

	for (size_t i = 0; i < k; i++) {
		int fd;

		memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
		if (*nfds < max)
			fds[(*nfds)++] = fd;
		else
			close(fd);
	}
}

int cfs_recv_fds(int sock, void *buf, size_t len, int *fds, int *nfds,
		 int maxfds)
{
	union {
		char b[CMSG_SPACE(sizeof(int) * CFS_MAX_PASSED_FDS)];
		struct cmsghdr align;
	} ctl;
	size_t got = 0;
	int rc = 0;

	*nfds = 0;
	if (maxfds > CFS_MAX_PASSED_FDS)
		maxfds = CFS_MAX_PASSED_FDS;
	while (got < len) {
		struct iovec iov = { (char *)buf + got, len - got };
		struct msghdr msg;
		struct cmsghdr *c;
		ssize_t n;

		memset(&msg, 0, sizeof(msg));
		msg.msg_iov = &iov;
		msg.msg_iovlen = 1;
		msg.msg_control = ctl.b;
		msg.msg_controllen = sizeof(ctl.b);
		n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			rc = -errno;
			break;
		}
		for (c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c))
			if (c->cmsg_level == SOL_SOCKET &&
			    c->cmsg_type == SCM_RIGHTS)
				take_fds(c, fds, nfds, maxfds);
		/* More descriptors than we made room for: the kernel closed
		 * the rest, and what came is not what the peer meant. */
		if (msg.msg_flags & MSG_CTRUNC) {
			rc = -EPROTO;
			break;
		}
		if (n == 0) {
			rc = -EPIPE;
			break;
		}
		got += (size_t)n;
	}
	if (rc) {
		for (int i = 0; i < *nfds; i++)
			close(fds[i]);
		*nfds = 0;
	}
	return rc;
}

/*
 * Wait until fd is ready for ev, or the peer on watch hangs up (or sends
 * anything: it is waiting for our answer, so any byte means it is gone
 * or confused).  0: go on; -ECANCELED: the peer is gone.
 */
static int wait_ready(int fd, short ev, int watch)
{
	for (;;) {
		struct pollfd p[2] = { { fd, ev, 0 },
				       { watch, POLLIN | POLLRDHUP, 0 } };

		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (p[1].revents)
			return -ECANCELED;
		if (p[0].revents & POLLNVAL)
			return -EBADF;
		if (p[0].revents)
			return 0; /* ready, or an error the I/O call reports */
	}
}

ssize_t cfs_read_watch(int fd, void *buf, size_t len, int watch)
{
	size_t n = 0;

	if (watch < 0)
		return cfs_read_full(fd, buf, len, -1);
	while (n < len) {
		int rc = wait_ready(fd, POLLIN, watch);
		ssize_t r;

		if (rc)
			return rc;
		/* After POLLIN a pipe or terminal read returns what is
		 * there without blocking; a file never blocks for long. */
		r = read(fd, (char *)buf + n, len - n);
		if (r < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return -errno;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	return (ssize_t)n;
}

int cfs_write_watch(int fd, const void *buf, size_t len, int watch)
{
	struct stat st;
	size_t n = 0, step;
	int pipesz = 0;

	if (watch < 0)
		return cfs_write_full(fd, buf, len, -1);
	if (fstat(fd, &st) < 0)
		return -errno;
	/* A pipe that polls writable has a free page: a write of up to
	 * PIPE_BUF bytes then completes without blocking, so a reader that
	 * stops reading cannot hold us past the peer's hang-up; an empty
	 * pipe takes its whole capacity (pipe(7); fs/pipe.c fills a page
	 * per slot).  Files take big writes. */
	step = S_ISREG(st.st_mode) || S_ISBLK(st.st_mode) ? (1u << 20) :
							     PIPE_BUF;
	if (S_ISFIFO(st.st_mode))
		pipesz = fcntl(fd, F_GETPIPE_SZ);
	while (n < len) {
		size_t k = len - n < step ? len - n : step;
		int rc = wait_ready(fd, POLLOUT, watch), used;
		ssize_t w;

		if (rc)
			return rc;
		if (pipesz > PIPE_BUF && ioctl(fd, FIONREAD, &used) == 0 &&
		    used == 0)
			k = len - n < (size_t)pipesz ? len - n : (size_t)pipesz;
		w = write(fd, (const char *)buf + n, k);
		if (w < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return -errno;
		}
		n += (size_t)w;
	}
	return 0;
}
