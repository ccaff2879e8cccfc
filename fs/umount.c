/*
 * umount.c - `crushfs umount MNT`: unmount, then wait until the daemon
 * that served MNT has exited.
 *
 * The kernel mount goes at once, but the daemon still has work after it:
 * admin commands in progress, sizes to write back, unlinked files to
 * purge (their objects), then it lets the cluster's lock go.  A command
 * run right after `umount` returned would find the cluster busy, so
 * umount returns only once the daemon process is gone, as umount(8) of a
 * kernel filesystem returns once it is clean (and `ceph-fuse` users wait
 * for the process).  With a timeout it says plainly that the daemon is
 * still finishing.  The daemon is found before the unmount: its admin
 * socket's `__mountinfo` (or, if that does not answer, the holder of the
 * cluster's lock in /proc/locks), and watched through a pidfd, so a
 * recycled pid cannot fool the wait.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/pidfd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fs.h"
#include "util.h"

static void unescape(char *s)
{
	char *o = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '7' && s[2] &&
		    s[3]) {
			*o++ = (char)(((s[1] - '0') << 6) | ((s[2] - '0') << 3) |
				      (s[3] - '0'));
			s += 4;
		} else {
			*o++ = *s++;
		}
	}
	*o = '\0';
}

/* The cluster directory of the crushfs mount at mnt (its fsname). */
static int find_mount(const char *mnt, char *dir, size_t len)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char *line = NULL;
	size_t cap = 0;
	int rc = -EINVAL;

	if (!f)
		return -errno;
	while (getline(&line, &cap, f) > 0) {
		char *fields[12], *save = NULL, *t, *sep;
		int n = 0;

		/* id parent maj:min root mountpoint opts [tags] - type src */
		for (t = strtok_r(line, " \n", &save); t && n < 12;
		     t = strtok_r(NULL, " \n", &save))
			fields[n++] = t;
		if (n < 7)
			continue;
		unescape(fields[4]);
		if (strcmp(fields[4], mnt))
			continue;
		sep = NULL;
		for (int i = 5; i < n - 2; i++)
			if (!strcmp(fields[i], "-")) {
				sep = fields[i + 1];
				if (strcmp(sep, "fuse.crushfs"))
					sep = NULL;
				else {
					unescape(fields[i + 2]);
					snprintf(dir, len, "%s", fields[i + 2]);
				}
				break;
			}
		rc = sep ? 0 : -EINVAL; /* the last mount there wins */
	}
	free(line);
	fclose(f);
	return rc;
}

/* The daemon's pid from its admin socket, 0 when it does not answer. */
static long pid_from_socket(const char *dir)
{
	char *argv[] = { "__mountinfo", NULL }, *buf = NULL, *nl;
	size_t blen = 0;
	FILE *out = open_memstream(&buf, &blen);
	int status = 1;
	long pid = 0;

	if (!out)
		return 0;
	if (fs_admin_call(dir, 1, argv, out, NULL, &status) != 0)
		status = 1;
	fclose(out);
	if (status == 0 && (nl = strchr(buf, '\n')))
		pid = atol(nl + 1);
	free(buf);
	return pid;
}

/* The process holding DIR/cluster.lock (flock), from /proc/locks ("1:
 * FLOCK ADVISORY WRITE PID MAJ:MIN:INO 0 EOF"); 0 when none. */
static long pid_from_lock(const char *dir)
{
	char path[PATH_MAX + 16], *line = NULL;
	size_t cap = 0;
	struct stat st;
	long pid = 0;
	FILE *f;

	if (cfs_pathf(path, sizeof(path), "%s/cluster.lock", dir) ||
	    stat(path, &st) != 0 || !(f = fopen("/proc/locks", "r")))
		return 0;
	while (!pid && getline(&line, &cap, f) > 0) {
		unsigned maj, min;
		unsigned long long ino;
		char kind[16];
		long p;

		if (sscanf(line, "%*s %15s %*s %*s %ld %x:%x:%llu", kind, &p,
			   &maj, &min, &ino) == 5 &&
		    !strcmp(kind, "FLOCK") && maj == major(st.st_dev) &&
		    min == minor(st.st_dev) && ino == (unsigned long long)st.st_ino)
			pid = p;
	}
	free(line);
	fclose(f);
	return pid;
}

/* The last line pid wrote to DIR/crushfs.log, without its stamp ("...
 * crushfs[PID]: INFO: msg" -> "msg"); "" when there is none. */
static void last_log_line(const char *dir, long pid, char *out, size_t len)
{
	char path[PATH_MAX + 16], buf[8192], tag[40];
	struct stat st;
	ssize_t n;
	off_t from;
	int fd;

	*out = '\0';
	if (cfs_pathf(path, sizeof(path), "%s/crushfs.log", dir) ||
	    (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return;
	if (fstat(fd, &st) == 0) {
		from = st.st_size > (off_t)sizeof(buf) - 1 ?
			       st.st_size - (off_t)sizeof(buf) + 1 : 0;
		n = cfs_read_full(fd, buf, sizeof(buf) - 1, from);
		if (n > 0) {
			char *line, *save = NULL;

			buf[n] = '\0';
			snprintf(tag, sizeof(tag), " crushfs[%ld]: ", pid);
			for (line = strtok_r(buf, "\n", &save); line;
			     line = strtok_r(NULL, "\n", &save)) {
				char *p = strstr(line, tag), *msg;

				if (!p)
					continue;
				msg = strstr(p + strlen(tag), ": ");
				snprintf(out, len, "%s",
					 msg ? msg + 2 : p + strlen(tag));
			}
		}
	}
	close(fd);
}

/* 1 when pid is gone (or a zombie: it let everything go), else 0. */
static int gone_by_proc(long pid)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 1;
	n = cfs_read_full(fd, buf, sizeof(buf) - 1, -1);
	close(fd);
	if (n <= 0)
		return 1;
	buf[n] = '\0';
	p = strrchr(buf, ')'); /* "pid (comm) S ..." */
	return p && p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X');
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Progress every few seconds while the daemon takes long. */
#define PROGRESS_EVERY 3.0

/*
 * Wait until the daemon exits: 0, or -ETIMEDOUT after timeout seconds
 * (timeout < 0: no limit).  pidfd < 0: poll /proc instead.
 */
static int wait_daemon(const char *dir, long pid, int pidfd,
		       const struct fs_umount_opts *o)
{
	double t0 = now(), next = t0 + PROGRESS_EVERY;
	double timeout = o ? o->timeout : -1;

	for (;;) {
		double t = now(), until = next;
		int ms;

		if (pidfd >= 0) {
			struct pollfd p = { pidfd, POLLIN, 0 };

			if (timeout >= 0 && t0 + timeout < until)
				until = t0 + timeout;
			ms = until > t ? (int)((until - t) * 1000) + 1 : 0;
			if (poll(&p, 1, ms) > 0)
				return 0;
		} else {
			if (gone_by_proc(pid))
				return 0;
			usleep(50000);
		}
		t = now();
		if (timeout >= 0 && t >= t0 + timeout)
			return gone_by_proc(pid) ? 0 : -ETIMEDOUT;
		if (t >= next && o && o->progress) {
			char line[1024], last[600];

			last_log_line(dir, pid, last, sizeof(last));
			snprintf(line, sizeof(line),
				 "waiting for crushfs daemon (pid %ld) to "
				 "finish: %.0f s%s%s", pid, t - t0,
				 *last ? "; its log: " : "", last);
			o->progress(line, o->arg);
			next = t + PROGRESS_EVERY;
		}
	}
}

static int do_unmount(const char *mnt)
{
	pid_t c;
	int status;

	if (geteuid() == 0)
		return umount2(mnt, 0) == 0 ? 0 : -errno;
	c = fork();
	if (c == 0) {
		execlp("fusermount3", "fusermount3", "-u", mnt, (char *)NULL);
		_exit(127);
	}
	if (c < 0)
		return -errno;
	while (waitpid(c, &status, 0) < 0)
		if (errno != EINTR)
			return -ECHILD;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -EPERM;
}

int fs_umount(const char *mountpoint, const struct fs_umount_opts *o,
	      char *err, size_t errlen)
{
	char mnt[2 * PATH_MAX + 2], dir[PATH_MAX];
	long pid;
	int pidfd = -1, rc;

	if (!realpath(mountpoint, mnt)) {
		/* A dead daemon's mount cannot be resolved (ENOTCONN). */
		if (mountpoint[0] == '/') {
			snprintf(mnt, sizeof(mnt), "%s", mountpoint);
		} else {
			char cwd[PATH_MAX];

			if (!getcwd(cwd, sizeof(cwd)))
				return -errno;
			snprintf(mnt, sizeof(mnt), "%s/%s", cwd, mountpoint);
		}
		while (strlen(mnt) > 1 && mnt[strlen(mnt) - 1] == '/')
			mnt[strlen(mnt) - 1] = '\0';
	}
	if (find_mount(mnt, dir, sizeof(dir)) != 0) {
		snprintf(err, errlen, "%s: not a crushfs mount", mountpoint);
		return -EINVAL;
	}
	pid = pid_from_socket(dir);
	if (pid <= 0 || pid == (long)getpid())
		pid = pid_from_lock(dir);
	if (pid == (long)getpid())
		pid = 0;
	if (pid > 0) {
		pidfd = pidfd_open((pid_t)pid, 0);
		if (pidfd < 0 && errno == ESRCH)
			pid = 0; /* gone already */
	}
	rc = do_unmount(mnt);
	if (rc) {
		if (pidfd >= 0)
			close(pidfd);
		snprintf(err, errlen, "%s: cannot unmount: %s", mountpoint,
			 rc == -EBUSY ? "target is busy" : cfs_strerror(rc));
		return rc;
	}
	rc = pid > 0 ? wait_daemon(dir, pid, pidfd, o) : 0;
	if (pidfd >= 0)
		close(pidfd);
	if (rc == -ETIMEDOUT) {
		char log[PATH_MAX + 40] = "";
		struct stat st;

		if (cfs_pathf(log, sizeof(log), "%s/crushfs.log", dir) == 0 &&
		    stat(log, &st) == 0)
			snprintf(log, sizeof(log), " (see %s/crushfs.log)",
				 dir);
		else
			*log = '\0';
		snprintf(err, errlen,
			 "%s is unmounted, but its daemon (pid %ld) is still "
			 "finishing after %g s; cluster %s stays busy until "
			 "it exits%s", mountpoint, pid, o->timeout, dir, log);
	}
	return rc;
}
