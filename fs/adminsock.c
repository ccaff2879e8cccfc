/*
 * adminsock.c - the daemon's admin socket DIR/crushfs.asok (after Ceph's
 * admin socket): the CLI forwards cluster commands to a mounted daemon,
 * which runs them in-process on its open cluster, so they act at once.
 *
 * Protocol (one request per connection, integers little-endian u32):
 *   request:  "CFSA" argc cwdlen cwd {len arg}*argc
 *   response: "CFSR" status outlen out errlen err
 * The built-in command "__mountinfo" answers "MOUNTPOINT\nPID\n",
 * "__purge" the purge queue's counters ("NAME VALUE" lines).
 * The magic may carry two descriptors (SCM_RIGHTS): the client's stdin
 * and stdout, which a command such as `rados put NAME -` reads or writes
 * directly (out stays buffered and comes back with the response), and a
 * third, the client's stderr: the command's messages and progress are
 * written to it as they come (errlen is then 0); without it err is
 * buffered like out.
 *
 * Each connection runs in a thread of its own with a private working
 * directory (unshare(CLONE_FS)), the client's, so relative paths in
 * arguments mean what the user meant.  The socket is 0600: the daemon
 * acts with its own rights.  The client, in turn, talks only to a
 * listener that runs as root or as itself (admin_connect).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "fsd_i.h"
#include "util.h"

#define MAX_ARGS 256
#define MAX_ARG 65536

struct asok {
	struct fsd *d;
	int lfd;
	int stop[2];
	char path[4096];
	pthread_t th;
	pthread_mutex_t lock;
	pthread_cond_t idle;
	int active;
};

/* A forwarded command's first word, past the output format the CLI puts
 * first (cli_forward: "-f FORMAT"). */
static const char *cmd_word(int argc, char **argv)
{
	int i = 0;

	while (i + 1 < argc && !strcmp(argv[i], "-f"))
		i += 2;
	return i < argc ? argv[i] : "";
}

void fs_admin_path(const char *cluster_dir, char *buf, size_t len)
{
	snprintf(buf, len, "%s/crushfs.asok", cluster_dir);
}

/* sun_path holds 108 bytes: longer paths go through /proc/self/fd. */
static int sock_addr(const char *path, struct sockaddr_un *sa, int *dirfd)
{
	const char *slash = strrchr(path, '/');

	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	*dirfd = -1;
	if (strlen(path) < sizeof(sa->sun_path)) {
		strcpy(sa->sun_path, path);
		return 0;
	}
	if (!slash)
		return -ENAMETOOLONG;
	{
		char dir[4096];
		size_t n = (size_t)(slash - path);

		if (n >= sizeof(dir))
			return -ENAMETOOLONG;
		memcpy(dir, path, n);
		dir[n] = '\0';
		*dirfd = open(n ? dir : "/", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (*dirfd < 0)
			return -errno;
		if ((size_t)snprintf(sa->sun_path, sizeof(sa->sun_path),
				     "/proc/self/fd/%d/%s", *dirfd,
				     slash + 1) >= sizeof(sa->sun_path)) {
			close(*dirfd);
			*dirfd = -1;
			return -ENAMETOOLONG;
		}
	}
	return 0;
}

static int write_all(int fd, const void *buf, size_t len)
{
	return cfs_write_full(fd, buf, len, -1);
}

/* A message cut short by the peer is an error here, not an end. */
static int read_all(int fd, void *buf, size_t len)
{
	ssize_t n = cfs_read_full(fd, buf, len, -1);

	return n < 0 ? (int)n : (size_t)n < len ? -EPIPE : 0;
}

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = v & 0xff;
	p[1] = (v >> 8) & 0xff;
	p[2] = (v >> 16) & 0xff;
	p[3] = (v >> 24) & 0xff;
}

static uint32_t get32(const unsigned char *p)
{
	return p[0] | (p[1] << 8) | (p[2] << 16) | ((uint32_t)p[3] << 24);
}

static int send_u32(int fd, uint32_t v)
{
	unsigned char b[4];

	put32(b, v);
	return write_all(fd, b, 4);
}

static int recv_u32(int fd, uint32_t *v)
{
	unsigned char b[4];
	int rc = read_all(fd, b, 4);

	if (rc == 0)
		*v = get32(b);
	return rc;
}

static int recv_str(int fd, char **out, uint32_t max, uint32_t *lenp)
{
	uint32_t len;
	char *s;
	int rc = recv_u32(fd, &len);

	if (rc)
		return rc;
	if (len > max)
		return -E2BIG;
	s = malloc(len + 1);
	if (!s)
		return -ENOMEM;
	rc = read_all(fd, s, len);
	if (rc) {
		free(s);
		return rc;
	}
	s[len] = '\0';
	*out = s;
	if (lenp)
		*lenp = len;
	return 0;
}

/*
 * One request, from its magic (and the descriptors it carries) to its last
 * argument.  Split out of serve() so that tests/fuzz/fuzz_adminsock.c runs
 * exactly this code.  Bytes past the request are left unread.  A NUL
 * inside cwd or an argument is refused: the commands see C strings, which
 * would silently cut it short.  On error nothing is kept (descriptors
 * closed).
 */
int asok_read_request(int fd, struct asok_req *req)
{
	char magic[4];
	uint32_t len, i;
	int rc;

	memset(req, 0, sizeof(*req));
	/* the magic may carry the client's stdin and stdout */
	rc = cfs_recv_fds(fd, magic, 4, req->fds, &req->nfds,
			  CFS_MAX_PASSED_FDS);
	if (rc)
		return rc;
	if (memcmp(magic, "CFSA", 4))
		rc = -EPROTO;
	if (!rc)
		rc = recv_u32(fd, &req->argc);
	if (!rc && (req->argc == 0 || req->argc > MAX_ARGS)) {
		req->argc = 0;
		rc = -EPROTO;
	}
	if (!rc)
		rc = recv_str(fd, &req->cwd, 4096, &len);
	if (!rc && strlen(req->cwd) != len)
		rc = -EPROTO;
	if (!rc) {
		req->argv = calloc(req->argc + 1, sizeof(*req->argv));
		if (!req->argv)
			rc = -ENOMEM;
	}
	for (i = 0; !rc && i < req->argc; i++) {
		rc = recv_str(fd, &req->argv[i], MAX_ARG, &len);
		if (!rc && strlen(req->argv[i]) != len)
			rc = -EPROTO;
	}
	if (rc)
		asok_req_free(req);
	return rc;
}

void asok_req_free(struct asok_req *req)
{
	if (req->argv)
		for (uint32_t i = 0; i < req->argc; i++)
			free(req->argv[i]);
	free(req->argv);
	free(req->cwd);
	for (int k = 0; k < req->nfds; k++)
		close(req->fds[k]);
	memset(req, 0, sizeof(*req));
}

/* ---- server ---- */

struct conn {
	struct asok *a;
	int fd;
};

static void serve(struct asok *a, int fd)
{
	struct fsd *d = a->d;
	struct asok_req req;
	char *cwd = NULL, **argv = NULL, **av;
	char *obuf = NULL, *ebuf = NULL;
	size_t olen = 0, elen = 0;
	uint32_t argc = 0, i;
	int status = 1, rc, *fds, nfds;
	FILE *out = NULL, *err = NULL;
	struct fs_admin_io io = { NULL, NULL, -1, -1, fd };
	struct timeval tv = { 30, 0 };

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (asok_read_request(fd, &req))
		return;
	argc = req.argc;
	argv = req.argv;
	cwd = req.cwd;
	fds = req.fds;
	nfds = req.nfds;
	if (nfds >= 2) { /* stdin, stdout */
		io.in_fd = fds[0];
		io.out_fd = fds[1];
	}
	out = open_memstream(&obuf, &olen);
	if (nfds == 3) {
		/* the client's stderr: messages and progress reach it as they
		 * are written, not when the command ends */
		int efd = dup(fds[2]);

		err = efd >= 0 ? fdopen(efd, "w") : NULL;
		if (!err && efd >= 0)
			close(efd);
		if (err)
			setvbuf(err, NULL, _IOLBF, 0);
	} else {
		err = open_memstream(&ebuf, &elen);
	}
	if (!out || !err)
		goto out;
	if (!strcmp(argv[0], "__mountinfo")) {
		fprintf(out, "%s\n%ld\n", d->mountpoint, (long)getpid());
		status = 0;
	} else if (!strcmp(argv[0], "__purge") && d->v) {
		/* the purge queue's counters (Ceph: perf dump purge_queue),
		 * for benchmarks and tests that wait for its backlog */
		struct vfs_purge_stats ps;

		vfs_purge_stats(d->v, &ps);
		fprintf(out, "pending %llu\nqueued %llu\nby_worker %llu\n"
			"by_drain %llu\nby_caller %llu\ncapacity %llu\n",
			(unsigned long long)ps.pending,
			(unsigned long long)ps.queued,
			(unsigned long long)ps.by_worker,
			(unsigned long long)ps.by_drain,
			(unsigned long long)ps.by_caller,
			(unsigned long long)ps.capacity);
		status = 0;
	} else if (!d->admin) {
		fprintf(err, "crushfs: this daemon runs no commands\n");
	} else {
		/* The client's working directory, for this thread only. */
		if (unshare(CLONE_FS) != 0 || chdir(cwd) != 0) {
			fprintf(err, "crushfs: cannot use the working "
				"directory %s: %s\n", cwd, strerror(errno));
		} else {
			char line[256];
			size_t n = 0;

			for (i = 0; i < argc && n < sizeof(line) - 1; i++)
				n += (size_t)snprintf(line + n, sizeof(line) - n,
						      "%s%s", i ? " " : "",
						      argv[i]);
			cfs_log(CFS_LOG_INFO, "admin socket: %s", line);
			io.out = out;
			io.err = err;
			/* `check` compares the usage accounted with the disk:
			 * no purge may move it under the walk (a quiet
			 * cluster must check clean right after an rm) */
			if (d->v && !strcmp(cmd_word((int)argc, argv),
					    "check"))
				vfs_purge_drain(d->v);
			/* commands may reorder or drop their argv entries
			 * (rados -p POOL): they get a copy of the array, the
			 * strings are freed from ours */
			av = malloc(sizeof(*av) * (argc + 1));
			if (av) {
				memcpy(av, argv, sizeof(*av) * (argc + 1));
				status = d->admin(d->c, d->ol, &d->meta,
						  (int)argc, av, &io,
						  d->admin_arg);
				free(av);
			} else {
				fprintf(err, "crushfs: %s\n",
					strerror(ENOMEM));
			}
		}
	}
	fclose(out);
	fclose(err);
	out = err = NULL;
	rc = write_all(fd, "CFSR", 4);
	if (rc == 0)
		rc = send_u32(fd, (uint32_t)status);
	if (rc == 0)
		rc = send_u32(fd, (uint32_t)olen);
	if (rc == 0)
		rc = write_all(fd, obuf, olen);
	if (rc == 0)
		rc = send_u32(fd, (uint32_t)elen);
	if (rc == 0)
		rc = write_all(fd, ebuf, elen);
	if (rc)
		cfs_log(CFS_LOG_INFO, "admin socket: %s: the client left "
			"before the answer (%s)", argv[0], cfs_strerror(rc));
out:
	if (out)
		fclose(out);
	if (err)
		fclose(err);
	free(obuf);
	free(ebuf);
	if (argv)
		for (i = 0; i < argc; i++)
			free(argv[i]);
	free(argv);
	free(cwd);
	for (int k = 0; k < nfds; k++)
		close(fds[k]);
}

static void *conn_thread(void *arg)
{
	struct conn *c = arg;
	struct asok *a = c->a;

	serve(a, c->fd);
	close(c->fd);
	free(c);
	pthread_mutex_lock(&a->lock);
	if (--a->active == 0)
		pthread_cond_broadcast(&a->idle);
	pthread_mutex_unlock(&a->lock);
	return NULL;
}

static void *listen_thread(void *arg)
{
	struct asok *a = arg;

	for (;;) {
		struct pollfd p[2] = { { a->lfd, POLLIN, 0 },
				       { a->stop[0], POLLIN, 0 } };
		struct conn *c;
		pthread_t th;
		int fd;

		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (p[1].revents)
			break;
		fd = accept4(a->lfd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0)
			continue;
		c = malloc(sizeof(*c));
		if (!c) {
			close(fd);
			continue;
		}
		c->a = a;
		c->fd = fd;
		pthread_mutex_lock(&a->lock);
		a->active++;
		pthread_mutex_unlock(&a->lock);
		if (pthread_create(&th, NULL, conn_thread, c) != 0) {
			close(fd);
			free(c);
			pthread_mutex_lock(&a->lock);
			a->active--;
			pthread_mutex_unlock(&a->lock);
			continue;
		}
		pthread_detach(th);
	}
	return NULL;
}

/*
 * Bind the socket to a->path with mode 0600.  Not under umask(0077):
 * the umask is the process's, and the daemon's other threads may be
 * creating files meanwhile.  The socket is bound in a fresh folder
 * (mkdtemp: 0700 by construction, so nobody else can reach it between
 * bind and chmod), made 0600, as Ceph chmods its admin socket to
 * admin_socket_mode once bound (common_init_finish), then renamed into
 * place: at once, and over any socket left by a daemon that died (we
 * hold the cluster's exclusive lock).
 */
static int bind_private(struct asok *a)
{
	char tmpdir[4096], tmp[4096 + 32];
	struct sockaddr_un sa;
	int dirfd = -1, rc;

	if (snprintf(tmpdir, sizeof(tmpdir), "%s/.asok-XXXXXX",
		     a->d->cluster_dir) >= (int)sizeof(tmpdir))
		return -ENAMETOOLONG;
	if (!mkdtemp(tmpdir))
		return -errno;
	snprintf(tmp, sizeof(tmp), "%s/crushfs.asok", tmpdir);
	rc = sock_addr(tmp, &sa, &dirfd);
	if (rc)
		goto out;
	if (bind(a->lfd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		rc = -errno;
		goto out;
	}
	if (chmod(tmp, 0600) < 0 || rename(tmp, a->path) < 0)
		rc = -errno;
out:
	if (rc)
		unlink(tmp);
	if (dirfd >= 0)
		close(dirfd);
	rmdir(tmpdir);
	return rc;
}

int asok_start(struct fsd *d, struct asok **out)
{
	struct asok *a = calloc(1, sizeof(*a));
	int rc;

	if (!a)
		return -ENOMEM;
	a->d = d;
	a->lfd = -1;
	a->stop[0] = a->stop[1] = -1;
	pthread_mutex_init(&a->lock, NULL);
	pthread_cond_init(&a->idle, NULL);
	fs_admin_path(d->cluster_dir, a->path, sizeof(a->path));
	a->lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (a->lfd < 0) {
		rc = -errno;
		goto err;
	}
	rc = bind_private(a);
	if (rc)
		goto err_sock;
	if (listen(a->lfd, 16) < 0 || pipe2(a->stop, O_CLOEXEC) < 0) {
		rc = -errno;
		goto err_bound;
	}
	rc = -pthread_create(&a->th, NULL, listen_thread, a);
	if (rc)
		goto err_bound;
	*out = a;
	return 0;
err_bound:
	unlink(a->path);
err_sock:
	close(a->lfd);
err:
	if (a->stop[0] >= 0) {
		close(a->stop[0]);
		close(a->stop[1]);
	}
	cfs_log(CFS_LOG_ERR, "admin socket %s: %s", a->path, cfs_strerror(rc));
	pthread_mutex_destroy(&a->lock);
	pthread_cond_destroy(&a->idle);
	free(a);
	return rc;
}

void asok_stop(struct asok *a)
{
	if (!a)
		return;
	if (write(a->stop[1], "x", 1) < 0)
		cfs_log(CFS_LOG_WARN, "admin socket: stop: %s",
			strerror(errno));
	pthread_join(a->th, NULL);
	unlink(a->path);
	close(a->lfd);
	/* Let commands in progress finish: they use the cluster. */
	pthread_mutex_lock(&a->lock);
	if (a->active)
		cfs_log(CFS_LOG_INFO, "waiting for %d admin socket command(s) "
			"to finish", a->active);
	while (a->active)
		pthread_cond_wait(&a->idle, &a->lock);
	pthread_mutex_unlock(&a->lock);
	close(a->stop[0]);
	close(a->stop[1]);
	pthread_mutex_destroy(&a->lock);
	pthread_cond_destroy(&a->idle);
	free(a);
}

/* ---- client ---- */

static const char *file_kind(mode_t m)
{
	return S_ISLNK(m)  ? "a symbolic link" :
	       S_ISREG(m)  ? "a regular file" :
	       S_ISDIR(m)  ? "a directory" :
	       S_ISFIFO(m) ? "a fifo" :
			     "a device";
}

/*
 * Connect to the daemon's socket at path, after making sure it is one to
 * talk to.  The path is in the cluster folder, and whoever may write
 * there may put a listener of their own in its place: it would get our
 * stdin, stdout and stderr (root's, when root runs the CLI) and could
 * answer "done" to a command it never ran.  Ceph's daemons keep their
 * admin sockets where only the daemon's user may write (/var/run/ceph);
 * a cluster folder may be anyone's, so we look at what we reach:
 *  - the path must be a socket itself, not a symbolic link that leads to
 *    another daemon's socket (another cluster's): it is opened O_PATH |
 *    O_NOFOLLOW and connected to through /proc/self/fd, so the socket
 *    checked is the socket reached (and sun_path's 108 bytes never
 *    limit the path);
 *  - its listener must run as root or as us: SO_PEERCRED gives the
 *    credentials it had when it called listen().
 * A refusal is said in one line (cfs_log) and is CFS_EUNTRUSTED; nothing
 * has been sent then.  -ENOENT / -ECONNREFUSED: no daemon there (a
 * socket left by a dead one).
 */
static int admin_connect(const char *path, int *out)
{
	struct sockaddr_un sa;
	struct ucred cr;
	socklen_t crlen = sizeof(cr);
	struct stat st;
	int pfd, fd = -1, rc = 0;

	*out = -1;
	pfd = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (pfd < 0)
		return errno == ENOTDIR ? -ENOENT : -errno;
	if (fstat(pfd, &st) < 0) {
		rc = -errno;
		goto out;
	}
	if (!S_ISSOCK(st.st_mode)) {
		cfs_log(CFS_LOG_ERR, "%s: %s, not a socket: not talking to it",
			path, file_kind(st.st_mode));
		rc = CFS_EUNTRUSTED;
		goto out;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "/proc/self/fd/%d", pfd);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		rc = -errno;
		goto out;
	}
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		rc = -errno;
		/* a stale socket file of a dead daemon */
		if (rc == -ECONNREFUSED || rc == -ENOENT)
			rc = rc == -ENOENT ? -ENOENT : -ECONNREFUSED;
		goto out;
	}
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &crlen) < 0) {
		rc = -errno;
		goto out;
	}
	if (cr.uid != 0 && cr.uid != geteuid()) {
		cfs_log(CFS_LOG_ERR, "%s: the process listening there runs as "
			"uid %u, not root or you (uid %u): not talking to it",
			path, (unsigned)cr.uid, (unsigned)geteuid());
		rc = CFS_EUNTRUSTED;
		goto out;
	}
	*out = fd;
	fd = -1;
out:
	if (fd >= 0)
		close(fd);
	close(pfd);
	return rc;
}

int fs_admin_call(const char *cluster_dir, int argc, char *const *argv,
		  FILE *out, FILE *err, int *status)
{
	return fs_admin_call_io(cluster_dir, argc, argv, -1, -1, out, err,
				status);
}

int fs_admin_call_io(const char *cluster_dir, int argc, char *const *argv,
		     int in_fd, int out_fd, FILE *out, FILE *err, int *status)
{
	char path[4096], cwd[4096], magic[4], *o = NULL, *e = NULL;
	uint32_t st = 1, olen = 0, elen = 0;
	int fd, rc, npass = 0;
	int pass[3] = { in_fd, out_fd, err ? fileno(err) : -1 };
	int closed = -1;

	fs_admin_path(cluster_dir, path, sizeof(path));
	rc = admin_connect(path, &fd);
	if (rc)
		return rc;
	if (!getcwd(cwd, sizeof(cwd)))
		strcpy(cwd, "/");
	if (in_fd >= 0 || out_fd >= 0) {
		/* A closed stdin/stdout goes as a descriptor that refuses
		 * I/O (O_PATH: EBADF), as the local command would see. */
		for (int k = 0; k < 2; k++) {
			if (pass[k] >= 0 && fcntl(pass[k], F_GETFD) >= 0)
				continue;
			if (closed < 0)
				closed = open("/", O_PATH | O_CLOEXEC);
			pass[k] = closed;
		}
		npass = pass[0] >= 0 && pass[1] >= 0 ? 2 : 0;
		/* and stderr, when err is a real file: streamed, not sent
		 * back at the end */
		if (npass == 2 && pass[2] >= 0 &&
		    fcntl(pass[2], F_GETFD) >= 0) {
			fflush(err);
			npass = 3;
		}
	}
	rc = cfs_send_fds(fd, "CFSA", 4, pass, npass);
	if (rc == 0)
		rc = send_u32(fd, (uint32_t)argc);
	if (rc == 0)
		rc = send_u32(fd, (uint32_t)strlen(cwd));
	if (rc == 0)
		rc = write_all(fd, cwd, strlen(cwd));
	for (int i = 0; rc == 0 && i < argc; i++) {
		rc = send_u32(fd, (uint32_t)strlen(argv[i]));
		if (rc == 0)
			rc = write_all(fd, argv[i], strlen(argv[i]));
	}
	if (rc == 0)
		rc = read_all(fd, magic, 4);
	if (rc == 0 && memcmp(magic, "CFSR", 4))
		rc = -EPROTO;
	if (rc == 0)
		rc = recv_u32(fd, &st);
	if (rc == 0)
		rc = recv_str(fd, &o, UINT32_MAX - 1, &olen);
	if (rc == 0)
		rc = recv_str(fd, &e, UINT32_MAX - 1, &elen);
	if (rc == 0) {
		if (out)
			fwrite(o, 1, olen, out);
		if (err)
			fwrite(e, 1, elen, err);
		*status = (int)st;
	} else if (rc == -EPIPE) {
		rc = -ECONNRESET; /* the daemon went away mid-command */
	}
	free(o);
	free(e);
	close(fd);
	if (closed >= 0)
		close(closed);
	return rc;
}
