/*
 * fs.h - the crushfs filesystem, the one public header of fs/: mounting
 * (the FUSE daemon and its admin socket), read access to the metadata for
 * tools (locate), and the filesystem check (fsck).
 *
 * Errors: 0 or -errno (CFS_* codes from util.h); functions taking
 * (err, errlen) also write one line saying what was wrong and where.
 */
#ifndef CRUSHFS_FS_H
#define CRUSHFS_FS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "objlayer.h"

typedef struct fs_meta fs_meta;

/* ---- metadata access for tools ---- */

/* What a tool may know of an inode. */
struct fs_inode_info {
	uint64_t ino;
	uint32_t mode, nlink, uid, gid;
	uint64_t size;
	struct ol_layout layout;
};

/* Open DIR/mds of an unmounted cluster (the caller has c open). */
int fs_meta_open(cfs_cluster *c, fs_meta **out, char *err, size_t errlen);
void fs_meta_close(fs_meta *m);
/* An absolute path inside the filesystem ("/a/b"); a final symlink is not
 * followed. */
int fs_meta_resolve(fs_meta *m, const char *path, uint64_t *ino);
int fs_meta_stat(fs_meta *m, uint64_t ino, struct fs_inode_info *out);
/* Every file and directory with a name, as (inode, "/path") in no
 * particular order (a hard-linked file once, under one of its names);
 * fn returning non-zero stops the walk and is returned. */
int fs_meta_paths(fs_meta *m,
		  int (*fn)(uint64_t ino, uint32_t type, const char *path,
			    void *arg),
		  void *arg);
/* Where the filesystem is mounted (NULL when opened offline). */
const char *fs_meta_mountpoint(const fs_meta *m);

/* Make the (empty) filesystem of a new cluster: DIR/mds with the root
 * directory, owned by the caller, and the marker DIR/mds.created, from
 * which on a missing or empty store is a loss, never a new filesystem. */
int fs_mkfs(const char *cluster_dir, char *err, size_t errlen);

/* ---- the admin socket (DIR/crushfs.asok) ---- */

/* Where an admin socket command reads and writes. */
struct fs_admin_io {
	FILE *out, *err;   /* what it prints: sent back when it ends */
	int in_fd, out_fd; /* the client's stdin and stdout (SCM_RIGHTS),
			    * -1 when the client sent none */
	int watch_fd;	   /* the connection: readable or hung up means the
			    * client is gone (cfs_read_watch) */
};

/*
 * The command runner the daemon calls for each admin socket request: the
 * same function the CLI runs in-process when no daemon is there, given
 * the daemon's open cluster, object layer and live metadata.  It writes
 * what the command prints to io->out / io->err, data streams to the
 * client's descriptors, and returns the exit status.
 */
typedef int (*fs_admin_fn)(cfs_cluster *c, objlayer *ol, fs_meta *meta,
			   int argc, char **argv,
			   const struct fs_admin_io *io, void *arg);

/* Run argv in the daemon serving cluster_dir.  On success *status is the
 * command's exit status and its output went to out/err.  -ENOENT /
 * -ECONNREFUSED: no live daemon (run the command locally).
 * CFS_EUNTRUSTED: the path is not a socket, or the process listening
 * there runs as neither root nor our euid; it was said in one line
 * (cfs_log) and nothing was sent to it. */
int fs_admin_call(const char *cluster_dir, int argc, char *const *argv,
		  FILE *out, FILE *err, int *status);
/* The same, handing the daemon in_fd and out_fd as the command's stdin
 * and stdout (both, or both -1 for none; a descriptor that is not open
 * reaches the daemon as one on which I/O fails with EBADF), and with them
 * err's descriptor, to which the daemon then writes as it goes. */
int fs_admin_call_io(const char *cluster_dir, int argc, char *const *argv,
		     int in_fd, int out_fd, FILE *out, FILE *err,
		     int *status);
/* Path of the socket: DIR/crushfs.asok. */
void fs_admin_path(const char *cluster_dir, char *buf, size_t len);

/* ---- mounting ---- */

struct fs_mount_opts {
	const char *cluster_dir;
	const char *mountpoint;
	int foreground;		/* -f: stay attached, log to stderr */
	int debug;		/* -d / -o debug: FUSE request trace */
	const char *options;	/* -o OPTS, comma separated (may be NULL) */
	fs_admin_fn admin;	/* runs admin socket commands (may be NULL) */
	void *admin_arg;
	/* called on a thread of its own while mounted, first once the
	 * filesystem is served (the mgr's tick: health changes to the
	 * cluster log, the fill history); returns the milliseconds until
	 * its next call.  Not called once the unmount began.  May be NULL. */
	int (*tick)(cfs_cluster *c, objlayer *ol, void *arg);
	void *tick_arg;
};

/*
 * Mount and serve until unmounted.  Without foreground, the caller
 * returns (0) once the filesystem is mounted and a daemon serves it;
 * every error before that point is reported as one line on stderr and a
 * non-zero return.  With foreground, returns when the filesystem is
 * unmounted (0) or failed.
 *
 * Options (-o): the standard FUSE mount options (allow_other, ro, ...,
 * passed to libfuse), plus: attr_timeout=S, entry_timeout=S,
 * negative_timeout=S (kernel cache lifetimes, default 10 s),
 * noatime (never update atime; the default is relatime),
 * max_threads=N (FUSE worker threads, default 16), readahead_kb=N
 * (the mount's readahead window, default 4096; 0: the kernel's), debug.
 * default_permissions (the kernel checks mode bits and ACLs) is on unless
 * root mounts without allow_other or allow_root: then root is the only
 * caller the kernel lets in, every check would pass, and the option would
 * only add a GETATTR of a directory after each change in it.  Give
 * default_permissions to keep it on there too.
 */
int fs_mount(const struct fs_mount_opts *o);

/* How `umount` waits for the daemon to finish (NULL: without a limit,
 * silently). */
struct fs_umount_opts {
	double timeout; /* seconds; < 0: no limit */
	/* called every few seconds while the daemon is still working, with
	 * a line saying so (pid, time, the last line of its log) */
	void (*progress)(const char *line, void *arg);
	void *arg;
};

/* Unmount MNT: fusermount3 -u (or umount2 as root), then wait until the
 * daemon that served it has exited, so the cluster is free when this
 * returns 0.  -ETIMEDOUT: unmounted, but the daemon was still finishing
 * when the timeout ran out (err says so). */
int fs_umount(const char *mountpoint, const struct fs_umount_opts *o,
	      char *err, size_t errlen);

/* ---- fsck ---- */

struct fs_fsck_report {
	uint64_t inodes, dentries, objects;
	/* problems found (and repaired unless dry run) */
	uint64_t dangling_dentries;	/* entry -> missing inode: removed */
	uint64_t bad_nlink;		/* link count fixed */
	uint64_t bad_parent;		/* directory parent pointer fixed */
	uint64_t lost_inodes;		/* no entry: moved to /lost+found */
	uint64_t orphans_purged;	/* unlinked-while-open leftovers */
	uint64_t orphan_objects;	/* objects of no file: adopted by
					 * /lost+found, or past a file's
					 * end: removed */
	uint64_t orphan_bytes;
	uint64_t adopted;		/* inodes made in /lost+found */
	uint64_t backtraces;		/* backtraces checked */
	uint64_t bad_backtraces;	/* missing, damaged, stale: rewritten */
	uint64_t beyond_eof;		/* objects past a file's end: trimmed */
	uint64_t bad_replicas;		/* copies missing or differing */
	uint64_t usage_drift;		/* OSDs whose accounting is off */
	uint64_t cluster_problems;	/* stray files, misfiled objects */
	uint64_t count_drift;		/* stored inode count (statfs) off */
	uint64_t index_no_copy;		/* index entries on no OSD that no
					 * file holds: cleared */
	uint64_t lost_objects;		/* objects of a file on no OSD
					 * (unfound): counted in errors */
	uint64_t repaired;
	int errors;			/* problems that could not be fixed */
	/* what could not be checked: objects of PGs with fewer OSDs than
	 * min_size in their acting set */
	uint64_t unchecked, unchecked_pgs, unchecked_backtraces;
	/* PGs whose data still sits on the OSDs they left (a pg_temp keeps
	 * them acting there): not a problem, rebalance's work */
	uint64_t remapped_pgs;
	/* fs_fsck failed before checking anything (a lost or unreadable
	 * metadata store): the one line that says why */
	char fatal[1200];
};

/*
 * Check the filesystem of an unmounted cluster (c opened for writing):
 * metadata (entries, link counts, parents, orphans) against itself,
 * objects against the metadata (objects of no file, data past the end of
 * a file), the copies of every object against each other (deep: byte for
 * byte, else presence and size), then the cluster underneath (usage
 * accounting, stray files).  With repair, fixes what it finds (usage
 * drift excepted: the caller reopens the cluster with a rescan).  msg gets
 * one line per finding.  Objects no inode accounts for are adopted by
 * /lost+found, never deleted.  A lost or unreadable metadata store fails
 * at once (r->fatal says why; nothing is changed).
 */
int fs_fsck(cfs_cluster *c, objlayer *ol, int repair, int deep,
	    void (*msg)(const char *line, void *arg), void *arg,
	    struct fs_fsck_report *r);
/* The same, with progress: progress(done, total, bytes, arg) through the
 * object pass (the long one), objects done of all listed (bytes 0: not
 * counted). */
struct fs_fsck_opts {
	int repair, deep;
	void (*msg)(const char *line, void *arg);
	void (*progress)(uint64_t done, uint64_t total, uint64_t bytes,
			 void *arg);
	void *arg;
};
int fs_fsck_opts(cfs_cluster *c, objlayer *ol, const struct fs_fsck_opts *o,
		 struct fs_fsck_report *r);

/* ---- rebuilding the metadata from the objects ---- */

struct fs_rebuild_report {
	uint64_t objects, file_objects;	/* listed / named like a file's */
	uint64_t unreadable;		/* objects or backtraces not read */
	uint64_t inodes;		/* inodes found in objects */
	uint64_t dirs, files, others;	/* inodes in the new store */
	uint64_t entries;
	uint64_t no_backtrace;		/* inodes without one: lost+found */
	uint64_t dirs_remade;		/* known only from ancestries */
	uint64_t lost_found;		/* entries made in /lost+found */
	uint64_t conflicts, cycles;	/* stale claims that lost */
	uint64_t backtraces;		/* rewritten to say the new place */
	uint64_t next_ino;		/* the first number handed out next */
	char aside[4200];		/* where the old store went, or "" */
};

/*
 * `fsck --rebuild-metadata`: a new DIR/mds from the objects alone, as
 * cephfs-data-scan does (rebuild.c): names, directories, sizes, layouts,
 * modes and owners from each inode's backtrace and objects; inodes that
 * cannot be placed go to /lost+found as #<ino>.  A store that is there
 * is moved aside (never deleted): refused when it is readable unless
 * force.  The cluster must not be mounted (c opened for writing).
 * progress gets a line now and then.
 */
int fs_rebuild_metadata(cfs_cluster *c, objlayer *ol, int force,
			void (*progress)(const char *line, void *arg),
			void *arg, struct fs_rebuild_report *r, char *err,
			size_t errlen);

#endif
