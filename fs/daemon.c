/*
 * daemon.c - `crushfs mount`: option parsing, daemonizing, opening the
 * cluster and the metadata, the FUSE session loop, a clean shutdown
 * (`crushfs umount` is umount.c).
 *
 * Startup is done by the process that will serve the mount (the child
 * when daemonizing): RocksDB and the object layer start threads, which do
 * not survive fork().  The parent waits on a pipe until the filesystem is
 * mounted, or prints the child's one-line error, so `crushfs mount`
 * returns only when the mount is usable (or has failed).
 *
 * Shutdown, on unmount (crushfs umount, fusermount3 -u, umount) or
 * SIGINT/SIGTERM: the session loop ends, the kernel mount goes, pending
 * sizes are written, unlinked-but-open files are purged, the admin socket
 * closes, then the metadata store and the cluster.  Everything is freed,
 * so leak checkers see a clean exit.  `crushfs umount` (umount.c) waits
 * for all of it, so each step is logged: it shows the last one while it
 * waits.
 */
#define FUSE_USE_VERSION 314
#include <errno.h>
#include <fcntl.h>
#include <fuse_lowlevel.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fsd_i.h"
#include "util.h"

/* ---- logging ---- */

static int log_fd = 2;
/* While starting in the background, errors also go to the terminal. */
static int log_echo;

static void daemon_log(int level, const char *msg)
{
	static const char *names[] = { "ERROR", "WARN", "INFO", "DEBUG" };
	char line[1400], ts[32];
	struct timeval tv;
	struct tm tm;
	int n;

	gettimeofday(&tv, NULL);
	localtime_r(&tv.tv_sec, &tm);
	strftime(ts, sizeof(ts), "%Y-%m-%d %H:%M:%S", &tm);
	n = snprintf(line, sizeof(line), "%s.%03ld crushfs[%ld]: %s: %s\n", ts,
		     (long)(tv.tv_usec / 1000), (long)getpid(),
		     names[level < 0 ? 0 : level > 3 ? 3 : level], msg);
	if (n > (int)sizeof(line) - 1)
		n = (int)sizeof(line) - 1;
	if (write(log_fd, line, (size_t)n) < 0) {
		/* nowhere else to say it */
	}
	if (log_echo && level == CFS_LOG_ERR && log_fd != 2 &&
	    write(2, line, (size_t)n) < 0) {
		/* the terminal is gone */
	}
}

/* libfuse logs a line in pieces ("unknown option(s): `", "-o ", ...):
 * gather them up to the newline.  While options are being checked, the
 * line is kept for the one error line instead.  Per thread: every FUSE
 * worker may log, and pieces of two lines must not mix. */
static _Thread_local char fuse_line[1024];
static _Thread_local size_t fuse_line_len;
static _Thread_local int fuse_capture;

static void fuse_log_hook(enum fuse_log_level level, const char *fmt,
			  va_list ap)
{
	char buf[1024];
	size_t n;

	vsnprintf(buf, sizeof(buf), fmt, ap);
	n = strlen(buf);
	if (fuse_line_len + n >= sizeof(fuse_line))
		n = sizeof(fuse_line) - 1 - fuse_line_len;
	memcpy(fuse_line + fuse_line_len, buf, n);
	fuse_line_len += n;
	fuse_line[fuse_line_len] = '\0';
	if (!fuse_line_len || fuse_line[fuse_line_len - 1] != '\n')
		return;
	fuse_line[--fuse_line_len] = '\0';
	/* -d: the request trace comes at FUSE_LOG_DEBUG */
	if (!fuse_capture)
		cfs_log(level <= FUSE_LOG_ERR ? CFS_LOG_ERR :
			level <= FUSE_LOG_INFO ? CFS_LOG_WARN : CFS_LOG_DEBUG,
			"%s", fuse_line);
	if (!fuse_capture)
		fuse_line_len = 0;
}

/* ---- options ---- */

struct mcfg {
	double attr_timeout, entry_timeout, negative_timeout;
	int noatime, ro, debug, max_threads;
	int readahead_kb, prefetch_kb;
	int kernel_perms; /* default_permissions (parse_options) */
	int others;	  /* allow_other or allow_root given */
	char *fuse_opts;  /* passed to libfuse, comma separated */
};

/* Our -o options (fuse_opt_parse templates); the others go to libfuse. */
enum {
	KEY_ATTR_TIMEOUT,
	KEY_ENTRY_TIMEOUT,
	KEY_NEGATIVE_TIMEOUT,
	KEY_MAX_THREADS,
	KEY_READAHEAD_KB,
	KEY_PREFETCH_KB,
	KEY_NOATIME,
	KEY_ATIME,
	KEY_DEBUG,
	KEY_DEFAULT_PERMISSIONS,
	KEY_RO,
	KEY_RW,
};

static const struct fuse_opt mount_opts[] = {
	FUSE_OPT_KEY("attr_timeout=", KEY_ATTR_TIMEOUT),
	FUSE_OPT_KEY("entry_timeout=", KEY_ENTRY_TIMEOUT),
	FUSE_OPT_KEY("negative_timeout=", KEY_NEGATIVE_TIMEOUT),
	FUSE_OPT_KEY("max_threads=", KEY_MAX_THREADS),
	FUSE_OPT_KEY("readahead_kb=", KEY_READAHEAD_KB),
	FUSE_OPT_KEY("prefetch_kb=", KEY_PREFETCH_KB),
	FUSE_OPT_KEY("noatime", KEY_NOATIME),
	FUSE_OPT_KEY("relatime", KEY_ATIME),
	FUSE_OPT_KEY("atime", KEY_ATIME),
	FUSE_OPT_KEY("debug", KEY_DEBUG),
	FUSE_OPT_KEY("default_permissions", KEY_DEFAULT_PERMISSIONS),
	FUSE_OPT_KEY("ro", KEY_RO),
	FUSE_OPT_KEY("rw", KEY_RW),
	FUSE_OPT_END
};

struct opt_ctx {
	struct mcfg *m;
	char *err;
	size_t errlen;
	int rc;
};

/* Seconds: a finite number, 0 or more, nothing after it. */
static int parse_seconds(const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v < 0)
		return -EINVAL;
	*out = v;
	return 0;
}

/* An integer in [lo, hi], decimal, nothing after it. */
static int parse_int(const char *s, long lo, long hi, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		return -EINVAL;
	*out = (int)v;
	return 0;
}

static int opt_proc(void *data, const char *arg, int key,
		    struct fuse_args *outargs)
{
	struct opt_ctx *c = data;
	struct mcfg *m = c->m;
	const char *val = strchr(arg, '=');
	const char *want = NULL;
	int rc = 0;

	(void)outargs;
	val = val ? val + 1 : "";
	switch (key) {
	case KEY_ATTR_TIMEOUT:
		rc = parse_seconds(val, &m->attr_timeout);
		want = "must be a number of seconds, 0 or more";
		break;
	case KEY_ENTRY_TIMEOUT:
		rc = parse_seconds(val, &m->entry_timeout);
		want = "must be a number of seconds, 0 or more";
		break;
	case KEY_NEGATIVE_TIMEOUT:
		rc = parse_seconds(val, &m->negative_timeout);
		want = "must be a number of seconds, 0 or more";
		break;
	case KEY_MAX_THREADS:
		rc = parse_int(val, 1, 1024, &m->max_threads);
		want = "must be an integer from 1 to 1024";
		break;
	case KEY_READAHEAD_KB:
		rc = parse_int(val, 0, 1 << 20, &m->readahead_kb);
		want = "must be an integer from 0 to 1048576";
		break;
	case KEY_PREFETCH_KB:
		rc = parse_int(val, 0, 65536, &m->prefetch_kb);
		want = "must be an integer from 0 to 65536";
		break;
	case KEY_NOATIME:
		m->noatime = 1;
		break;
	case KEY_ATIME:
		m->noatime = 0; /* relatime, the default */
		break;
	case KEY_DEBUG:
		m->debug = 1;
		break;
	case KEY_DEFAULT_PERMISSIONS:
		m->kernel_perms = 1;
		break;
	case KEY_RO:
	case KEY_RW:
	case FUSE_OPT_KEY_OPT:
		/* ro/rw matter to libfuse as well; the others are libfuse's
		 * (allow_other, fsname=, ...) and it judges them */
		if (key != FUSE_OPT_KEY_OPT)
			m->ro = key == KEY_RO;
		if (!strcmp(arg, "allow_other") || !strcmp(arg, "allow_root"))
			m->others = 1;
		if (fuse_opt_add_opt_escaped(&m->fuse_opts, arg))
			rc = -ENOMEM;
		break;
	default:
		/* "crushfs" (argv[0]) is not passed here; nothing else is
		 * given */
		rc = -EINVAL;
		want = "not an option";
		break;
	}
	if (rc == -EINVAL)
		snprintf(c->err, c->errlen, "bad mount option '%s': %s", arg,
			 want ? want : "not understood");
	c->rc = rc;
	return rc ? -1 : 0;
}

static int parse_options(const struct fs_mount_opts *o, struct mcfg *m,
			 char *err, size_t errlen)
{
	struct opt_ctx c = { m, err, errlen, 0 };
	char *argv[] = { "crushfs", "-o", NULL, NULL };
	struct fuse_args args;

	memset(m, 0, sizeof(*m));
	/* Every change comes through this mount's kernel (a second mount is
	 * refused), which updates or drops what it caches as it makes the
	 * change; the daemon tells it when it changes something on its own
	 * (setuid cleared on write).  So long lifetimes are safe, and spare
	 * a round trip per stat/lookup. */
	m->attr_timeout = m->entry_timeout = m->negative_timeout = 10.0;
	m->max_threads = 16;
	m->readahead_kb = 4096;
	m->prefetch_kb = 8192;
	m->debug = o->debug;
	if (o->options) {
		/* fuse_opt_parse splits at commas (a backslash escapes one)
		 * and gives each option to opt_proc */
		argv[2] = (char *)o->options;
		args = (struct fuse_args)FUSE_ARGS_INIT(3, argv);
		if (fuse_opt_parse(&args, &c, mount_opts, opt_proc) != 0) {
			fuse_opt_free_args(&args);
			if (c.rc == 0) {
				snprintf(err, errlen,
					 "bad mount options '%s'", o->options);
				return -EINVAL;
			}
			return c.rc;
		}
		fuse_opt_free_args(&args);
	}
	/*
	 * Who checks permissions.  A mount others may use (allow_other,
	 * allow_root), or one that is not root's, has callers the mode bits
	 * and ACLs must tell apart: the kernel checks them there
	 * (default_permissions, and POSIX ACLs with it: fsops_init).
	 * Without allow_other the kernel lets only the mounting user in
	 * (fuse_allow_current_process: uid, euid, suid and the gids all the
	 * mounter's).  When that is root every check passes (root overrides
	 * mode bits and ACLs; the one rule it does not, no exec of a file
	 * without an x bit, the kernel keeps without the option), and the
	 * option would only cost: after each change in a directory the
	 * kernel GETATTRs it before the next lookup or create there
	 * (fuse_permission refreshing the mode it checks), a seventh request
	 * per small file made and a third per unlink (docs/performance.md).
	 * ceph-fuse too leaves it off (fuse_default_permissions = false) and
	 * lets uid 0 pass every check (Client::inode_permission, Ceph 16.2).
	 */
	if (m->others || getuid() != 0 || geteuid() != 0)
		m->kernel_perms = 1;
	if (m->kernel_perms &&
	    fuse_opt_add_opt(&m->fuse_opts, "default_permissions"))
		return -ENOMEM;
	return 0;
}

/* The libfuse arguments: our options first, the user's after them. */
static int fuse_args_for(const struct mcfg *m, const char *dir,
			 struct fuse_args *args)
{
	char fsname[4200];

	if (fuse_opt_add_arg(args, "crushfs") ||
	    (m->fuse_opts && (fuse_opt_add_arg(args, "-o") ||
			      fuse_opt_add_arg(args, m->fuse_opts))))
		return -ENOMEM;
	if (!strchr(dir, ',') && !strchr(dir, '\\')) {
		snprintf(fsname, sizeof(fsname), "fsname=%s,subtype=crushfs",
			 dir);
		if (fuse_opt_add_arg(args, "-o") ||
		    fuse_opt_add_arg(args, fsname))
			return -ENOMEM;
	}
	if (m->debug && fuse_opt_add_arg(args, "-d"))
		return -ENOMEM;
	return 0;
}

/* Let libfuse judge the options before anything is opened or made. */
static int check_fuse_options(const struct mcfg *m, const char *dir,
			      char *err, size_t errlen)
{
	static const struct fuse_lowlevel_ops none;
	struct fuse_args args = FUSE_ARGS_INIT(0, NULL);
	struct fuse_session *se = NULL;

	fuse_capture = 1;
	fuse_line_len = 0;
	if (fuse_args_for(m, dir, &args) == 0)
		se = fuse_session_new(&args, &none, sizeof(none), NULL);
	fuse_opt_free_args(&args);
	fuse_capture = 0;
	if (se) {
		fuse_session_destroy(se);
		fuse_line_len = 0;
		return 0;
	}
	snprintf(err, errlen, "bad mount options: %s",
		 fuse_line_len ? fuse_line : "(see libfuse)");
	fuse_line_len = 0;
	return -EINVAL;
}

/* ---- the flusher: pending sizes/times reach the store within 2 s ---- */

static void *flusher(void *arg)
{
	struct fsd *d = arg;

	pthread_mutex_lock(&d->flock);
	while (!d->stopping) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += 2;
		pthread_cond_timedwait(&d->fcond, &d->flock, &ts);
		if (d->stopping)
			break;
		pthread_mutex_unlock(&d->flock);
		vfs_flush_periodic(d->v);
		pthread_mutex_lock(&d->flock);
	}
	pthread_mutex_unlock(&d->flock);
	return NULL;
}

/* ---- the ticker: the mount's tick hook (fs_mount_opts.tick), under the
 * flusher's lock and stop flag ---- */

static void *ticker(void *arg)
{
	struct fsd *d = arg;

	pthread_mutex_lock(&d->flock);
	while (!d->stopping) {
		struct timespec ts;
		int ms;

		pthread_mutex_unlock(&d->flock);
		ms = d->tick(d->c, d->ol, d->tick_arg);
		pthread_mutex_lock(&d->flock);
		if (ms < 10)
			ms = 10;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += ms / 1000;
		ts.tv_nsec += (long)(ms % 1000) * 1000000L;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		while (!d->stopping &&
		       pthread_cond_timedwait(&d->fcond, &d->flock, &ts) == 0)
			;
	}
	pthread_mutex_unlock(&d->flock);
	return NULL;
}

/*
 * The kernel gives a FUSE mount 128 KiB of readahead and INIT cannot ask
 * for more; the mount's backing device info can be told, as root.  With a
 * window of one object (4 MiB) a cold sequential read keeps several 1 MiB
 * requests in flight: about 1.3x the throughput here.  0 leaves it.
 * The device number comes from /proc/self/mountinfo: a stat() of the
 * mount point would wait for this very daemon to answer.
 */
static void set_readahead(const char *mnt, int kb)
{
	char path[96], val[16], dev[32] = "", *line = NULL;
	size_t cap = 0;
	FILE *f;
	int fd;

	if (kb <= 0 || !(f = fopen("/proc/self/mountinfo", "r")))
		return;
	while (getline(&line, &cap, f) > 0) {
		char mp[4096], mm[32];

		/* id parent maj:min root mountpoint ... */
		if (sscanf(line, "%*s %*s %31s %*s %4095s", mm, mp) == 2 &&
		    !strcmp(mp, mnt))
			snprintf(dev, sizeof(dev), "%s", mm);
	}
	free(line);
	fclose(f);
	if (!*dev)
		return;
	snprintf(path, sizeof(path), "/sys/class/bdi/%s/read_ahead_kb", dev);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return; /* not root: the kernel's default stays */
	snprintf(val, sizeof(val), "%d", kb);
	if (write(fd, val, strlen(val)) < 0)
		cfs_log(CFS_LOG_INFO, "%s: %s", path, strerror(errno));
	close(fd);
}

/* INIT's reply can only lower the readahead (the kernel takes the
 * minimum), so the window is set once a request after INIT arrives. */
void fsd_after_init(struct fsd *d)
{
	if (__atomic_load_n(&d->ra_done, __ATOMIC_RELAXED) ||
	    __atomic_exchange_n(&d->ra_done, 1, __ATOMIC_ACQ_REL))
		return;
	set_readahead(d->mountpoint, d->readahead_kb);
}

/* SELinux enabled on this host: selinuxfs is registered only then
 * (security/selinux/selinuxfs.c, init_sel_fs). */
static int selinux_host(void)
{
	char line[128];
	int found = 0;
	FILE *f = fopen("/proc/filesystems", "r");

	if (!f)
		return 1; /* unknown: keep the plain ENODATA answer */
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, "\tselinuxfs\n") != NULL;
	fclose(f);
	return found;
}

/* ---- startup / shutdown ---- */

/* Tell the waiting parent: "" = mounted, else the error line. */
static void notify(int fd, const char *msg)
{
	if (fd < 0) {
		if (msg && *msg)
			fprintf(stderr, "crushfs: %s\n", msg);
		return;
	}
	if (msg && *msg) {
		if (write(fd, msg, strlen(msg)) < 0) {
			/* the parent is gone */
		}
	} else if (write(fd, "\n", 1) < 0) {
		/* the parent is gone */
	}
	close(fd);
}

/* A read-ahead gives up at once where a request would wait for an
 * inactive PG: the request that wants the bytes waits itself, and
 * nothing waits for bytes nobody asked for (objlayer op_wait). */
static int always(void *arg)
{
	(void)arg;
	return 1;
}

static void prefetch_thread_init(void)
{
	ol_set_interrupt_check(always, NULL);
}

/* ol_set_wait's stopping(): the session loop is ending (SIGTERM, the
 * mount gone), so waiting ops give up and let libfuse join them. */
static int session_ending(void *arg)
{
	struct fsd *d = arg;

	return d->se && fuse_session_exited(d->se);
}

static void teardown(struct fsd *d)
{
	int served = d->v != NULL;

	/* ops still waiting for an inactive PG give up: nobody will change
	 * the map of a daemon going away */
	if (d->ol)
		ol_stop_waiting(d->ol);
	if (d->flusher_running) {
		pthread_mutex_lock(&d->flock);
		d->stopping = 1;
		pthread_cond_broadcast(&d->fcond);
		pthread_mutex_unlock(&d->flock);
		pthread_join(d->flusher, NULL);
	}
	if (d->mgr_ticker_running || d->ticker_running) {
		pthread_mutex_lock(&d->flock);
		d->stopping = 1;
		pthread_cond_broadcast(&d->fcond);
		pthread_mutex_unlock(&d->flock);
		if (d->mgr_ticker_running)
			pthread_join(d->mgr_ticker, NULL);
		d->mgr_ticker_running = 0;
		montick_stop(d);
	}
	if (d->se) {
		fuse_session_unmount(d->se);
		fuse_remove_signal_handlers(d->se);
		fuse_session_destroy(d->se);
	}
	/* Commands in progress on the socket use the metadata: let them
	 * finish first. */
	asok_stop(d->asok);
	/* After the kernel let go: unlinked files go, sizes persist.
	 * `crushfs umount` shows the last of these lines while it waits. */
	if (d->v)
		cfs_log(CFS_LOG_INFO, "writing back sizes, purging unlinked "
			"files");
	vfs_free(d->v);
	ra_free(d->ra); /* its reads in flight end first */
	/* the store's sequence number, so that a store that loses its log
	 * later is not taken for this one (meta_i.h) */
	if (served && d->db && !d->ro)
		meta_mark_clean(d->c, d->db);
	if (d->db)
		cfs_log(CFS_LOG_INFO, "closing the metadata store and the "
			"cluster");
	mds_close(d->m);
	kv_close(d->db);
	if (d->ol)
		ol_close(d->ol);
	if (d->c)
		ol_cluster_close(d->c);
	pthread_mutex_destroy(&d->flock);
	pthread_cond_destroy(&d->fcond);
	free(d->cluster_dir);
	free(d->mountpoint);
}

/* Say who holds the cluster, when a daemon answers on its socket. */
static void busy_message(const char *dir, char *msg, size_t len,
			 const char *fallback)
{
	char *buf = NULL, *argv[] = { "__mountinfo", NULL };
	size_t blen = 0;
	FILE *out = open_memstream(&buf, &blen);
	int status = 1, rc;

	if (!out) {
		snprintf(msg, len, "%s", fallback);
		return;
	}
	rc = fs_admin_call(dir, 1, argv, out, NULL, &status);
	fclose(out);
	if (rc == 0 && status == 0) {
		char *nl = strchr(buf, '\n');
		long pid = nl ? atol(nl + 1) : 0;

		if (nl)
			*nl = '\0';
		snprintf(msg, len, "cluster %s is already mounted at %s "
			 "(pid %ld)", dir, buf, pid);
	} else {
		snprintf(msg, len, "%s", fallback);
	}
	free(buf);
}

static int serve(const struct fs_mount_opts *o, const struct mcfg *m,
		 const char *dir, const char *mnt, int notify_fd)
{
	struct fsd d;
	struct vfs_opts vo = { .noatime = m->noatime, .readonly = m->ro };
	char err[1400] = "";
	struct fuse_args args = FUSE_ARGS_INIT(0, NULL);
	struct fuse_loop_config *lc;
	const struct vfs_data_ops *dops;
	int rc;

	memset(&d, 0, sizeof(d));
	pthread_mutex_init(&d.flock, NULL);
	pthread_cond_init(&d.fcond, NULL);
	d.ro = m->ro;
	d.kernel_perms = m->kernel_perms;
	d.attr_timeout = m->attr_timeout;
	d.entry_timeout = m->entry_timeout;
	d.negative_timeout = m->negative_timeout;
	d.admin = o->admin;
	d.admin_arg = o->admin_arg;
	d.tick = o->tick;
	d.tick_arg = o->tick_arg;
	d.cluster_dir = strdup(dir);
	d.mountpoint = strdup(mnt);
	if (!d.cluster_dir || !d.mountpoint) {
		snprintf(err, sizeof(err), "out of memory");
		goto fail;
	}

	rc = ol_cluster_open(dir, 0, &d.c, err, sizeof(err));
	if (rc) {
		char first[1024];

		snprintf(first, sizeof(first), "%s", err);
		if (rc == -EBUSY || rc == -EWOULDBLOCK || rc == -EAGAIN)
			busy_message(dir, err, sizeof(err), first);
		goto fail;
	}
	rc = ol_open(d.c, &d.ol);
	if (!rc)
		rc = ol_follow_cluster(d.ol); /* a RADOS backend's osdmap */
	if (!rc) /* the admin socket changes the map: ops wait for it */
		ol_set_wait(d.ol, 1, session_ending, &d);
	if (rc) {
		snprintf(err, sizeof(err), "%s: cannot open the object layer: "
			 "%s", dir, cfs_strerror(rc));
		goto fail;
	}
	/* a lost or damaged store is refused, never replaced (meta_i.h) */
	rc = meta_open_store(d.c, !m->ro, &d.db, &d.m, NULL, err, sizeof(err));
	if (rc)
		goto fail;
	vo.no_selinux = !selinux_host();
	d.ra = ra_new(&vfs_objlayer_ops, d.ol, (size_t)m->prefetch_kb << 10,
		      prefetch_thread_init, &dops);
	if (!d.ra)
		goto nomem;
	rc = vfs_new(d.m, dops, d.ra, &vo, &d.v);
	if (rc) {
		snprintf(err, sizeof(err), "%s/mds: %s", dir, cfs_strerror(rc));
		goto fail;
	}
	d.meta.v = d.v;
	d.meta.m = d.m;
	d.meta.db = d.db;
	d.meta.mountpoint = d.mountpoint;

	if (fuse_args_for(m, dir, &args))
		goto nomem;
	d.se = fuse_session_new(&args, &fsd_ops, sizeof(fsd_ops), &d);
	fuse_opt_free_args(&args);
	if (!d.se) {
		snprintf(err, sizeof(err), "bad mount options '%s'",
			 o->options ? o->options : "");
		goto fail;
	}
	if (fuse_set_signal_handlers(d.se) != 0) {
		fuse_session_destroy(d.se);
		d.se = NULL;
		snprintf(err, sizeof(err), "cannot set signal handlers");
		goto fail;
	}
	if (fuse_session_mount(d.se, mnt) != 0) {
		fuse_remove_signal_handlers(d.se);
		fuse_session_destroy(d.se);
		d.se = NULL;
		snprintf(err, sizeof(err), "cannot mount on %s (see the "
			 "message above)", mnt);
		goto fail;
	}
	rc = fsd_fix_init_flags(d.se);
	if (rc)
		/* the kernel then does more itself: slower, not wrong */
		cfs_log(CFS_LOG_WARN, "INIT flags left as libfuse sends them: "
			"%s", cfs_strerror(rc));
	rc = asok_start(&d, &d.asok);
	if (rc) {
		snprintf(err, sizeof(err), "%s/crushfs.asok: cannot serve the "
			 "admin socket: %s", dir, cfs_strerror(rc));
		goto fail;
	}
	/* Without the flusher, sizes would reach the store only on fsync
	 * and close: refuse the mount rather than run without it. */
	rc = pthread_create(&d.flusher, NULL, flusher, &d);
	if (rc) {
		snprintf(err, sizeof(err), "cannot start the write-back "
			 "thread: %s", strerror(rc));
		goto fail;
	}
	d.flusher_running = 1;
	/* the mgr's tick is an observer: a mount goes on without it */
	if (d.tick && !pthread_create(&d.mgr_ticker, NULL, ticker, &d))
		d.mgr_ticker_running = 1;
	rc = montick_start(&d);
	if (rc)
		cfs_log(CFS_LOG_WARN, "no monitor tick (OSDs down stay in): "
			"%s", cfs_strerror(rc));
	d.readahead_kb = m->readahead_kb;
	cfs_log(CFS_LOG_INFO, "mounted %s on %s", dir, mnt);

	notify(notify_fd, "");
	log_echo = 0;
	if (notify_fd >= 0) {
		int null = open("/dev/null", O_RDWR);

		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 1);
			close(null);
		}
		if (log_fd != 2)
			dup2(log_fd, 2);
	}
	lc = fuse_loop_cfg_create();
	if (!lc) {
		rc = fuse_session_loop(d.se);
	} else {
		fuse_loop_cfg_set_max_threads(lc, (unsigned)m->max_threads);
		fuse_loop_cfg_set_clone_fd(lc, 0);
		rc = fuse_session_loop_mt(d.se, lc);
		fuse_loop_cfg_destroy(lc);
	}
	cfs_log(rc ? CFS_LOG_WARN : CFS_LOG_INFO, "unmounting %s%s", mnt,
		rc ? " after an error in the session loop" : "");
	teardown(&d);
	cfs_log(CFS_LOG_INFO, "clean exit");
	return 0;
nomem:
	fuse_opt_free_args(&args);
	snprintf(err, sizeof(err), "out of memory");
fail:
	if (notify_fd >= 0) /* in the foreground, the one line says it */
		cfs_log(CFS_LOG_INFO, "mount failed: %s", err);
	notify(notify_fd, err);
	teardown(&d);
	return 1;
}

int fs_mount(const struct fs_mount_opts *o)
{
	char dir[PATH_MAX], mnt[PATH_MAX], err[1200] = "";
	struct mcfg m;
	struct stat st;
	int p[2], rc;
	pid_t pid;

	if (!realpath(o->cluster_dir, dir)) {
		fprintf(stderr, "crushfs: cluster %s: %s\n", o->cluster_dir,
			strerror(errno));
		return 1;
	}
	if (!realpath(o->mountpoint, mnt) || stat(mnt, &st) != 0) {
		fprintf(stderr, "crushfs: mount point %s: %s\n", o->mountpoint,
			strerror(errno));
		return 1;
	}
	if (!S_ISDIR(st.st_mode)) {
		fprintf(stderr, "crushfs: mount point %s: Not a directory\n",
			o->mountpoint);
		return 1;
	}
	rc = parse_options(o, &m, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "crushfs: %s\n",
			*err ? err : cfs_strerror(rc));
		free(m.fuse_opts);
		return 1;
	}
	fuse_set_log_func(fuse_log_hook);
	if (check_fuse_options(&m, dir, err, sizeof(err))) {
		fprintf(stderr, "crushfs: %s\n", err);
		free(m.fuse_opts);
		return 1;
	}
	if (o->foreground) {
		log_fd = 2;
		cfs_log_set(daemon_log, m.debug ? CFS_LOG_DEBUG : CFS_LOG_INFO);
		rc = serve(o, &m, dir, mnt, -1);
		free(m.fuse_opts);
		return rc;
	}

	if (pipe2(p, O_CLOEXEC) < 0) {
		fprintf(stderr, "crushfs: pipe: %s\n", strerror(errno));
		free(m.fuse_opts);
		return 1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "crushfs: fork: %s\n", strerror(errno));
		free(m.fuse_opts);
		return 1;
	}
	if (pid == 0) {
		char logpath[PATH_MAX + 32];

		close(p[0]);
		setsid();
		snprintf(logpath, sizeof(logpath), "%s/crushfs.log", dir);
		/* the log names files and commands: the cluster's owner's */
		log_fd = open(logpath, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC,
			      CFS_FILE_MODE);
		if (log_fd < 0)
			log_fd = 2;
		log_echo = 1;
		cfs_log_set(daemon_log, m.debug ? CFS_LOG_DEBUG : CFS_LOG_INFO);
		rc = serve(o, &m, dir, mnt, p[1]);
		free(m.fuse_opts);
		if (chdir("/") != 0) {
			/* exiting anyway */
		}
		exit(rc);
	}
	/* Parent: wait for "mounted" or the error line. */
	close(p[1]);
	free(m.fuse_opts);
	{
		char msg[PATH_MAX + 1100];
		size_t n = 0;
		ssize_t r;

		while (n < sizeof(msg) - 1 &&
		       (r = read(p[0], msg + n, sizeof(msg) - 1 - n)) != 0) {
			if (r < 0) {
				if (errno == EINTR)
					continue;
				break;
			}
			n += (size_t)r;
			if (msg[n - 1] == '\n' && n == 1)
				break;
		}
		close(p[0]);
		msg[n] = '\0';
		if (n == 1 && msg[0] == '\n')
			return 0;
		if (n == 0)
			snprintf(msg, sizeof(msg), "the daemon exited during "
				 "startup (see %s/crushfs.log)", dir);
		fprintf(stderr, "crushfs: %s\n", msg);
		waitpid(pid, NULL, 0);
		return 1;
	}
}
