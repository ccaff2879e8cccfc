/*
 * fsd_i.h - the mount daemon's state, shared by daemon.c (setup and the
 * loop), fsops.c (FUSE handlers), adminsock.c and meta.c.
 */
#ifndef CRUSHFS_FSD_I_H
#define CRUSHFS_FSD_I_H

#include <pthread.h>

#include "fs.h"
#include "kv.h"
#include "mds.h"
#include "meta_i.h"
#include "readahead.h"
#include "util.h"
#include "vfs.h"

struct fs_meta {
	vfs *v;
	mds *m;
	kv *db;
	int owned;		/* opened by fs_meta_open (offline) */
	const char *mountpoint;	/* the daemon's, or NULL */
};

struct asok;

struct fsd {
	vfs *v;
	double attr_timeout, entry_timeout, negative_timeout;
	unsigned max_write;
	/* the kernel leaves the umask to us (DONT_MASK): a parent's default
	 * ACL replaces it */
	int dont_mask;
	/* mounted with default_permissions (daemon.c parse_options) */
	int kernel_perms;
	/* daemon */
	char *cluster_dir, *mountpoint;
	cfs_cluster *c;
	objlayer *ol;
	fs_ra *ra; /* the data store vfs uses: ol wrapped */
	kv *db;
	mds *m;
	struct fs_meta meta;
	fs_admin_fn admin;
	void *admin_arg;
	struct asok *asok;
	struct fuse_session *se;
	pthread_t flusher;
	int flusher_running;
	/* daemon.c: the mount's tick hook (fs_mount_opts.tick: the mgr's
	 * cluster log, health changes and fill history) */
	int (*tick)(cfs_cluster *c, objlayer *ol, void *arg);
	void *tick_arg;
	pthread_t mgr_ticker;
	int mgr_ticker_running;
	/* montick.c: the monitor's tick (waits on tcond under flock) */
	pthread_t ticker;
	int ticker_running;
	pthread_cond_t tcond;
	pthread_mutex_t flock;
	pthread_cond_t fcond;
	int stopping;
	int readahead_kb;
	int ro; /* mounted read-only */
	int ra_done; /* __atomic */
};

extern const struct fuse_lowlevel_ops fsd_ops;

/* daemon.c: things to do once INIT is through (any later request) */
void fsd_after_init(struct fsd *d);

/* init_flags.c: route the session's I/O through a hook that puts in the
 * INIT reply the flags libfuse 3.14 leaves out (before the loop)... */
int fsd_fix_init_flags(struct fuse_session *se);
/* ...namely these, when wanted (called from the init handler). */
void fsd_init_flags_want(int parallel_dirops, int handle_killpriv);

/* montick.c: start (0 or -errno; nothing on a read-only mount) and
 * stop (after d->stopping is set) the monitor's tick */
int montick_start(struct fsd *d);
void montick_stop(struct fsd *d);

/* adminsock.c */
int asok_start(struct fsd *d, struct asok **out);
void asok_stop(struct asok *a);
/* One admin request as the server reads it: "CFSA" argc cwd args, and
 * the descriptors the magic carried (asok_req_free closes them). */
struct asok_req {
	uint32_t argc;
	char *cwd;
	char **argv; /* argc entries and a NULL */
	int fds[CFS_MAX_PASSED_FDS];
	int nfds;
};
int asok_read_request(int fd, struct asok_req *req);
void asok_req_free(struct asok_req *req);

#endif
