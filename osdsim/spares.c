/*
 * spares.c - spare object files: the file of a removed object, emptied,
 * kept in DIR/osd.N/spare/ and renamed into place for the next new object
 * on that OSD, instead of one unlinkat() per removal and one
 * openat(O_CREAT) per creation.
 *
 * Why: the OSDs' filesystem here is ext4 without a journal, where
 * __ext4_new_inode() -> find_inode_bit() skips every inode freed less
 * than 60 s ago, 360 s while its inode-table block is dirty
 * (recently_deleted(), RECENTCY_MIN and RECENTCY_DIRTY, fs/ext4/ialloc.c
 * since Linux 5.8) and looks up each one's inode-table block on the
 * way; creates dirty the blocks they walk: a new object right
 * after many removals cost 300-900 us of CPU in that walk
 * (docs/performance.md), a rename of a spare 15-25 us.  Kept spares are
 * also inodes ext4 never has to free and skip later.  (BlueStore has no
 * file per object and so no such cost; FileStore paid it.)
 *
 * A spare is never an object: it lives outside current/, so every scan of
 * PG folders (usage, fsck, PG holders, scrub, ls-by-osd, pg split) never
 * sees it, and it counts no byte and no object.  It holds no byte and no
 * attribute of its old object once it is handed out:
 *   - give: the object's file is renamed out of its PG folder first (the
 *     object is gone at once, as with unlinkat), then truncated to 0 and
 *     stripped of every user xattr (checksum record, object attributes);
 *     only then is it offered;
 *   - spares found in the folder when a process starts may be in any
 *     state a crash left (renamed, not yet emptied): they are emptied
 *     again before their first use.
 * A new object's checksum record starts empty in memory (fdcache.c), and
 * the file is empty and attribute-free: no stale byte or record survives.
 *
 * Emptying is the costly half (the truncate frees blocks, which on a
 * disk mounted with discard is a synchronous discard; the xattr block is
 * freed the same way), so a removal only renames the file out and queues
 * it; one cleaner thread per process, at SCHED_IDLE, empties queued
 * files when a core is idle and only then offers them.  A new object
 * finding no emptied spare is created as before (O_CREAT|O_EXCL).
 *
 * Bounded: at most SPARE_MAX per OSD, queued or ready; beyond that a
 * removal unlinks.  A file holding more than SPARE_KEEP_BYTES is
 * truncated by the removal itself; what smaller queued files hold (at
 * most SPARE_MAX x SPARE_KEEP_BYTES per OSD) is freed before a write is
 * refused for want of room on their disk (spares_drain, cfs_osd_reserve):
 * an idle cleaner never makes a disk look full.  Read-only processes
 * never touch spares.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "osdsim_i.h"
#include "util.h"

#define SPARE_MAX 4096
/* a removed file holding more than this is emptied at once */
#define SPARE_KEEP_BYTES (256u << 10)
/* a spare found on disk at load: emptied before its first use */
#define SPARE_UNSURE (1ULL << 63)

static void spare_name(uint64_t id, char *buf, size_t len)
{
	snprintf(buf, len, "%llx", (unsigned long long)(id & ~SPARE_UNSURE));
}

/* Needs sp->lock.  The folder and the spares a crash or an earlier
 * process left in it, on first use. */
static int spares_load(cfs_cluster *c, struct osd_store *s)
{
	struct spares *sp = &s->spares;
	char rel[64];
	struct dirent *de;
	DIR *d;
	int fd, r;

	if (sp->state)
		return sp->state > 0 ? 0 : -ENOTSUP;
	sp->state = -1;
	snprintf(rel, sizeof(rel), "osd.%d/spare", s->id);
	if (mkdirat(c->dirfd, rel, CFS_DIR_MODE) < 0 && errno != EEXIST)
		return -errno;
	fd = openat(c->dirfd, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	d = cfs_opendirat(fd, ".", &r);
	if (!d) {
		close(fd);
		return r;
	}
	sp->v = malloc(SPARE_MAX * sizeof(*sp->v));
	sp->d = malloc(SPARE_MAX * sizeof(*sp->d));
	if (!sp->v || !sp->d) {
		closedir(d);
		close(fd);
		return -ENOMEM;
	}
	while ((de = readdir(d)) != NULL) {
		char *end;
		unsigned long long id;

		if (de->d_name[0] == '.')
			continue;
		errno = 0;
		id = strtoull(de->d_name, &end, 16);
		if (*end || errno || id >= SPARE_UNSURE ||
		    sp->n + sp->nd >= SPARE_MAX) {
			unlinkat(fd, de->d_name, 0);
			continue;
		}
		sp->v[sp->n++] = id | SPARE_UNSURE;
		if (id >= sp->next)
			sp->next = id + 1;
	}
	closedir(d);
	sp->dirfd = fd;
	sp->state = 1;
	return 0;
}

/* Truncate to nothing and drop every user xattr: 0 or -errno. */
static int spare_empty(int fd, uint64_t size)
{
	char names[4096];
	ssize_t n;

	if (size && ftruncate(fd, 0) < 0)
		return -errno;
	n = flistxattr(fd, names, sizeof(names));
	if (n < 0)
		return errno == ENOTSUP ? 0 : -errno;
	for (ssize_t i = 0; i < n; i += (ssize_t)strlen(names + i) + 1)
		if (!strncmp(names + i, "user.", 5) &&
		    fremovexattr(fd, names + i) < 0 && errno != ENODATA)
			return -errno;
	return 0;
}

/* A spare that is not kept (no room): its file goes. */
static void spare_drop(struct spares *sp, uint64_t id)
{
	char nm[32];

	spare_name(id, nm, sizeof(nm));
	unlinkat(sp->dirfd, nm, 0);
}

static void spare_push(struct spares *sp, uint64_t id)
{
	pthread_mutex_lock(&sp->lock);
	if (sp->n + sp->nd < SPARE_MAX) {
		sp->v[sp->n++] = id;
		id = UINT64_MAX;
	}
	pthread_mutex_unlock(&sp->lock);
	if (id != UINT64_MAX)
		spare_drop(sp, id);
}


struct spare_cleaner {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_t th;
	pid_t pid; /* the process that started th (not a forked child) */
	int stop;
	struct osd_store **q; /* stores with files to empty */
	size_t nq, cap;
};

/* Empty spare id and offer it; one that cannot be emptied goes. */
static void spare_clean(struct spares *sp, uint64_t id)
{
	char nm[32];
	struct stat st;
	int fd, ok = 0;

	spare_name(id, nm, sizeof(nm));
	fd = openat(sp->dirfd, nm, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0) {
		ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
		     !spare_empty(fd, (uint64_t)st.st_size);
		close(fd);
	}
	if (ok)
		spare_push(sp, id);
	else
		spare_drop(sp, id);
}

/* Empty the queued files of one store; each becomes a ready spare.
 * Returns how many files were emptied or dropped. */
static int clean_store(struct osd_store *s)
{
	struct spares *sp = &s->spares;
	int done = 0;

	for (;;) {
		uint64_t id;

		pthread_mutex_lock(&sp->lock);
		if (sp->nd == 0) {
			sp->queued = 0;
			pthread_mutex_unlock(&sp->lock);
			return done;
		}
		id = sp->d[--sp->nd];
		pthread_mutex_unlock(&sp->lock);
		spare_clean(sp, id);
		done++;
	}
}

static void *cleaner_main(void *arg)
{
	struct spare_cleaner *k = arg;
	struct sched_param prm = { .sched_priority = 0 };

	/* only idle time: a create or a removal never waits for it */
	pthread_setschedparam(pthread_self(), SCHED_IDLE, &prm);
	pthread_mutex_lock(&k->lock);
	while (!k->stop) {
		struct osd_store *s;

		if (k->nq == 0) {
			pthread_cond_wait(&k->cond, &k->lock);
			continue;
		}
		s = k->q[--k->nq];
		pthread_mutex_unlock(&k->lock);
		clean_store(s);
		pthread_mutex_lock(&k->lock);
	}
	pthread_mutex_unlock(&k->lock);
	return NULL;
}

/* Needs c->spare_lock: the cleaner of this process, started on first
 * use; NULL when it cannot be. */
static struct spare_cleaner *cleaner_get(cfs_cluster *c)
{
	struct spare_cleaner *k = c->spare_cleaner;

	if (k && k->pid == getpid())
		return k;
	if (k) /* inherited across fork without its thread: start anew */
		k->nq = 0;
	else if (!(k = calloc(1, sizeof(*k))))
		return NULL;
	else {
		pthread_mutex_init(&k->lock, NULL);
		pthread_cond_init(&k->cond, NULL);
	}
	c->spare_cleaner = k;
	k->stop = 0;
	if (pthread_create(&k->th, NULL, cleaner_main, k)) {
		k->pid = 0;
		return NULL;
	}
	k->pid = getpid();
	return k;
}

/* A file renamed out as spare id: queued for emptying, or unlinked when
 * there is no room or no cleaner. */
static void spare_queue(cfs_cluster *c, struct osd_store *s, uint64_t id)
{
	struct spares *sp = &s->spares;
	struct spare_cleaner *k;
	int enqueue = 0;

	pthread_mutex_lock(&c->spare_lock);
	k = cleaner_get(c);
	pthread_mutex_unlock(&c->spare_lock);
	pthread_mutex_lock(&sp->lock);
	if (k && sp->n + sp->nd < SPARE_MAX) {
		sp->d[sp->nd++] = id;
		enqueue = !sp->queued;
		sp->queued = 1;
		id = UINT64_MAX;
	}
	pthread_mutex_unlock(&sp->lock);
	if (id != UINT64_MAX) {
		spare_drop(sp, id);
		return;
	}
	if (!enqueue)
		return;
	pthread_mutex_lock(&k->lock);
	if (k->nq == k->cap) {
		size_t cap = k->cap ? k->cap * 2 : 16;
		struct osd_store **q = realloc(k->q, cap * sizeof(*q));

		if (!q) {
			/* left queued on disk: emptied at its first use
			 * after the next start */
			pthread_mutex_unlock(&k->lock);
			return;
		}
		k->q = q;
		k->cap = cap;
	}
	k->q[k->nq++] = s;
	pthread_cond_signal(&k->cond);
	pthread_mutex_unlock(&k->lock);
}

void spares_stop(cfs_cluster *c)
{
	struct spare_cleaner *k = c->spare_cleaner;

	if (!k)
		return;
	if (k->pid == getpid()) {
		pthread_mutex_lock(&k->lock);
		k->stop = 1;
		pthread_cond_signal(&k->cond);
		pthread_mutex_unlock(&k->lock);
		pthread_join(k->th, NULL);
	}
	pthread_cond_destroy(&k->cond);
	pthread_mutex_destroy(&k->lock);
	free(k->q);
	free(k);
	c->spare_cleaner = NULL;
}

/* Spares a crash left (SPARE_UNSURE, maybe still full) of one store:
 * emptied now.  Returns how many. */
static int clean_unsure(cfs_cluster *c, struct osd_store *s)
{
	struct spares *sp = &s->spares;
	int done = 0;

	for (;;) {
		uint64_t id = UINT64_MAX;

		pthread_mutex_lock(&sp->lock);
		for (size_t i = 0; !spares_load(c, s) && i < sp->n; i++)
			if (sp->v[i] & SPARE_UNSURE) {
				id = sp->v[i] & ~SPARE_UNSURE;
				sp->v[i] = sp->v[--sp->n];
				break;
			}
		pthread_mutex_unlock(&sp->lock);
		if (id == UINT64_MAX)
			return done;
		spare_clean(sp, id);
		done++;
	}
}

int spares_drain(cfs_cluster *c, struct disk_guard *g)
{
	int done = 0;

	if (c->rdonly)
		return 0;
	for (int osd = 0; osd < CFS_MAX_OSD; osd++) {
		struct osd_store *s = store_get(c, osd);

		if (s && s->disk == g)
			done += clean_store(s) + clean_unsure(c, s);
	}
	return done;
}

int spare_take(cfs_cluster *c, struct osd_store *s, const char *rel,
	       int oflags)
{
	struct spares *sp = &s->spares;
	char nm[32];
	uint64_t id;
	int fd;

	if (c->rdonly)
		return -ENOENT;
	pthread_mutex_lock(&sp->lock);
	if (spares_load(c, s) || sp->n == 0) {
		pthread_mutex_unlock(&sp->lock);
		return -ENOENT;
	}
	id = sp->v[--sp->n];
	pthread_mutex_unlock(&sp->lock);
	spare_name(id, nm, sizeof(nm));
	fd = openat(sp->dirfd, nm, oflags | O_NOFOLLOW);
	if (fd < 0)
		return -ENOENT; /* gone behind our back: forgotten */
	if (id & SPARE_UNSURE) {
		struct stat st;

		if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
		    spare_empty(fd, (uint64_t)st.st_size)) {
			close(fd);
			unlinkat(sp->dirfd, nm, 0);
			return -ENOENT;
		}
		id &= ~SPARE_UNSURE;
	}
	/* never over an existing object (its file appeared meanwhile) */
	if (renameat2(sp->dirfd, nm, s->dirfd, rel, RENAME_NOREPLACE) < 0) {
		int e = errno;

		close(fd);
		spare_push(sp, id);
		return e == EEXIST ? -EEXIST : -ENOENT;
	}
	return fd;
}

int spares_ready(cfs_cluster *c, int osd)
{
	struct osd_store *s = store_get(c, osd);
	int n;

	if (!s)
		return 0;
	pthread_mutex_lock(&s->spares.lock);
	n = (int)s->spares.n;
	pthread_mutex_unlock(&s->spares.lock);
	return n;
}

int spare_give(cfs_cluster *c, struct osd_store *s, const char *rel,
	       uint64_t *size)
{
	struct spares *sp = &s->spares;
	char nm[32];
	struct stat st;
	uint64_t id;
	int r;

	if (c->rdonly)
		return -EROFS;
	pthread_mutex_lock(&sp->lock);
	r = spares_load(c, s);
	if (!r && sp->n + sp->nd >= SPARE_MAX)
		r = -ENOSPC;
	id = sp->next++;
	pthread_mutex_unlock(&sp->lock);
	if (r)
		return r;
	/* no descriptor: the cleaner empties it later */
	if (fstatat(s->dirfd, rel, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOTDIR || errno == ENOENT ? -ENOENT : -errno;
	/* an object file only: anything else is unlinked as before */
	if (!S_ISREG(st.st_mode) || st.st_nlink != 1)
		return -EINVAL;
	spare_name(id, nm, sizeof(nm));
	if (renameat2(s->dirfd, rel, sp->dirfd, nm, RENAME_NOREPLACE) < 0) {
		r = errno == ENOENT ? -ENOENT : -EINVAL;
		/* no RENAME_NOREPLACE here, or current/ is another
		 * filesystem: no spares for this OSD */
		if (errno == EINVAL || errno == EXDEV) {
			pthread_mutex_lock(&sp->lock);
			sp->state = -1;
			pthread_mutex_unlock(&sp->lock);
		}
		return r;
	}
	*size = (uint64_t)st.st_size;
	/* a big file's blocks are freed here, as an unlink would: the room
	 * is back when the removal returns (a disk at its margin takes the
	 * next write right after an rm), whatever the idle cleaner is
	 * doing; its inode is still kept (a new inode after many removals
	 * costs ext4's recently-deleted walk: 17% of an EC write's CPU) */
	if ((uint64_t)st.st_blocks * 512 > SPARE_KEEP_BYTES) {
		int fd = openat(sp->dirfd, nm, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);

		if (fd < 0 || ftruncate(fd, 0) < 0) {
			if (fd >= 0)
				close(fd);
			spare_drop(sp, id);
			return 0;
		}
		close(fd);
	}
	/* the object is gone now; what it held goes (the cleaner) before
	 * the file is offered again */
	spare_queue(c, s, id);
	return 0;
}

void spares_close(struct osd_store *s)
{
	if (s->spares.state > 0)
		close(s->spares.dirfd);
	free(s->spares.v);
	free(s->spares.d);
	pthread_mutex_destroy(&s->spares.lock);
}
