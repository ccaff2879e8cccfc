/*
 * init_flags.c - the INIT reply carries the capabilities the daemon asked
 * for.
 *
 * libfuse 3.14.0 (Debian's) leaves two wanted flags out of its INIT
 * reply: FUSE_PARALLEL_DIROPS and FUSE_HANDLE_KILLPRIV are set in
 * conn->want (the first by libfuse's own defaults, the second by
 * fsops_init) and offered by the kernel, yet the reply it writes has
 * neither (seen with -d: want 0x149809, reply flags 0x40409029 from a
 * bare session).  Without them the kernel (fs/fuse/dir.c) serializes
 * every LOOKUP and READDIR of one directory on the directory's mutex
 * (fuse_lock_inode), and before each chown of a file it asks GETATTR to
 * recompute the setuid bits itself (fuse_setattr, !fc->handle_killpriv):
 * one round trip more per file for tar, cp -a, rsync.
 *
 * FUSE_HANDLE_KILLPRIV_V2, which libfuse 3.14 cannot name, goes with
 * HANDLE_KILLPRIV (fsd_init_flags_want says why).
 *
 * The session's I/O goes through fuse_session_custom_io() (libfuse
 * 3.14), on the descriptor fuse_session_mount() opened: reads pass
 * through and remember the INIT request; the one reply to it gets the
 * flags that were wanted, offered and missing.  Every other message is
 * written as it is.
 *
 * What the flags promise is what vfs does already: PARALLEL_DIROPS,
 * lookups and listings under the shared namespace lock; HANDLE_KILLPRIV,
 * setuid/setgid and security.capability cleared by the daemon on write
 * by a non-root caller (kill_privs), on truncate by a non-root caller and
 * on every chown (vfs_setattr), as libfuse's documentation of the write
 * and setattr handlers expects while the capability is on.
 */
#define FUSE_USE_VERSION 314
#include <errno.h>
#include <fuse_lowlevel.h>
#include <linux/fuse.h>
#include <stdint.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "fsd_i.h"
#include "util.h"

static struct {
	uint64_t unique;	/* of the INIT request; 0: none seen */
	uint32_t offered;	/* its flags */
	uint32_t add;		/* flags to put in its reply */
	int done;		/* __atomic: read by every worker */
} init_fix;

static ssize_t fix_read(int fd, void *buf, size_t len, void *userdata)
{
	ssize_t n = read(fd, buf, len);
	const struct fuse_in_header *in = buf;

	(void)userdata;
	if (!__atomic_load_n(&init_fix.done, __ATOMIC_ACQUIRE) &&
	    n >= (ssize_t)(sizeof(*in) + 16) &&
	    in->opcode == FUSE_INIT) {
		const struct fuse_init_in *a = (const void *)(in + 1);

		init_fix.unique = in->unique;
		init_fix.offered = a->flags;
	}
	return n;
}

static ssize_t fix_writev(int fd, struct iovec *iov, int count,
			  void *userdata)
{
	(void)userdata;
	if (!__atomic_load_n(&init_fix.done, __ATOMIC_ACQUIRE) &&
	    init_fix.unique && count >= 2 &&
	    iov[0].iov_len >= sizeof(struct fuse_out_header) &&
	    iov[1].iov_len >= 16) {
		struct fuse_out_header *out = iov[0].iov_base;

		if (out->unique == init_fix.unique) {
			__atomic_store_n(&init_fix.done, 1, __ATOMIC_RELEASE);
			if (out->error == 0) {
				/* major, minor, max_readahead, flags */
				struct fuse_init_out *o = iov[1].iov_base;
				uint32_t add = init_fix.add & init_fix.offered &
					       ~o->flags;

				o->flags |= add;
				if (add)
					cfs_log(CFS_LOG_INFO, "INIT reply: "
						"flags %#x added (wanted, "
						"left out by libfuse)", add);
			}
		}
	}
	return writev(fd, iov, count);
}

void fsd_init_flags_want(int parallel_dirops, int handle_killpriv)
{
	/* V2 (kernel 5.11, protocol 7.33; libfuse 3.14 has no name for
	 * it) promises the same clearing, and lets the kernel mark an
	 * inode found without security.capability S_NOSEC (SB_NOSEC, set
	 * by process_init_reply): the file's next writes skip the GETXATTR
	 * security.capability that every write(2) sends otherwise
	 * (file_remove_privs -> cap_inode_need_killpriv), until its
	 * attributes are next refreshed (fuse_change_attributes_common
	 * clears S_NOSEC) */
	init_fix.add = (parallel_dirops ? FUSE_PARALLEL_DIROPS : 0) |
		       (handle_killpriv ? FUSE_HANDLE_KILLPRIV |
					  FUSE_HANDLE_KILLPRIV_V2 : 0);
}

int fsd_fix_init_flags(struct fuse_session *se)
{
	static const struct fuse_custom_io io = {
		.read = fix_read,
		.writev = fix_writev,
		/* no splice: the daemon turns it off anyway (fsops_init) */
	};
	int fd = fuse_session_fd(se);

	memset(&init_fix, 0, sizeof(init_fix));
	if (fd < 0)
		return -EBADF;
	return fuse_session_custom_io(se, &io, fd);
}
