/*
 * disk.c - the real filesystems under the cluster as a limit too.
 *
 * OSD capacities are virtual: six 1 GiB OSDs fit in a folder of a 272 MiB
 * filesystem, which then fills before any OSD does, and the metadata
 * stores beside them (RocksDB: mds/, pglog/) meet ENOSPC in the middle of
 * a change.  Ceph guards each OSD's device the same way
 * (OSDService::check_failsafe_full, 16.2): once the device is fuller than
 * osd_failsafe_full_ratio (0.97) the OSD takes no more writes, so that
 * what must still be written - metadata, deletes, recovery bookkeeping -
 * fits.  Here every reservation (cfs_osd_reserve) also needs room above a
 * margin on the filesystem of the OSD's folder: (1 -
 * osd_failsafe_full_ratio) of it, and never less than what the metadata
 * stores may need at once (CFS_DISK_META_RESERVE), at most half of a
 * small filesystem.  Deletes, truncates and purges reserve nothing and go
 * on below the margin: that is what it is for.
 *
 * Several OSD folders share one filesystem, so the bytes reserved and not
 * yet written are counted per filesystem: concurrent writers cannot pass
 * the check together.  statvfs is asked again unless its last answer is
 * recent and far from the margin, so a write costs no syscall here while
 * the disk has room.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "osdsim_i.h"
#include "util.h"

/* an answer of statvfs is reused for this long while the room above the
 * margin stays over FAR_ROOM after every reservation since */
#define STATFS_MS 1000
#define FAR_ROOM (1ull << 30)

uint64_t cfs_disk_margin(uint64_t size, double ratio)
{
	uint64_t m = ratio > 0 && ratio < 1
			     ? (uint64_t)((double)size * (1 - ratio))
			     : 0;

	if (m < CFS_DISK_META_RESERVE)
		m = CFS_DISK_META_RESERVE;
	return m > size / 2 ? size / 2 : m;
}

static int64_t now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static int disk_stat(int fd, uint64_t *size, uint64_t *avail)
{
	struct statvfs v;

	if (fstatvfs(fd, &v) < 0)
		return -errno;
	*size = (uint64_t)v.f_blocks * v.f_frsize;
	*avail = (uint64_t)v.f_bavail * v.f_frsize;
	return 0;
}

struct disk_guard *disk_guard_for(cfs_cluster *c, int fd)
{
	struct disk_guard *g = NULL;
	struct stat st;

	if (fstat(fd, &st) < 0)
		return NULL;
	pthread_mutex_lock(&c->disk_lock);
	for (int i = 0; i < c->ndisks && !g; i++)
		if (c->disks[i]->dev == st.st_dev)
			g = c->disks[i];
	if (!g && c->ndisks < CFS_MAX_DISKS) {
		g = calloc(1, sizeof(*g));
		if (g) {
			g->dev = st.st_dev;
			g->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
			g->when = -STATFS_MS;
			pthread_mutex_init(&g->lock, NULL);
			if (g->fd < 0) {
				free(g);
				g = NULL;
			} else {
				c->disks[c->ndisks++] = g;
			}
		}
	}
	pthread_mutex_unlock(&c->disk_lock);
	return g;
}

void disk_guards_free(cfs_cluster *c)
{
	for (int i = 0; i < c->ndisks; i++) {
		close(c->disks[i]->fd);
		pthread_mutex_destroy(&c->disks[i]->lock);
		free(c->disks[i]);
	}
	c->ndisks = 0;
}

/* Room above the margin for bytes more (g->lock held): a fresh statvfs
 * unless the last is recent and far from the margin. */
static int room_for(cfs_cluster *c, struct disk_guard *g, uint64_t bytes,
		    uint64_t *room)
{
	int64_t t = now_ms();
	uint64_t need = g->inflight + g->since + bytes;
	uint64_t left = g->avail > g->margin ? g->avail - g->margin : 0;

	if (t - g->when >= STATFS_MS || left < need || left - need < FAR_ROOM) {
		int r = disk_stat(g->fd, &g->size, &g->avail);

		if (r)
			return r;
		g->margin = cfs_disk_margin(
			g->size, cfs_config_double(c, "osd_failsafe_full_ratio"));
		g->when = t;
		g->since = 0;
		/* what is in flight may be on the disk already: counted
		 * twice for a moment, never missed */
		need = g->inflight + bytes;
		left = g->avail > g->margin ? g->avail - g->margin : 0;
	}
	*room = left;
	/* at the margin nothing is written, not even an overwrite: a full
	 * device takes no writes (Ceph drops them at failsafe) */
	return left == 0 || left < need ? -ENOSPC : 0;
}

int disk_reserve(cfs_cluster *c, struct disk_guard *g, uint64_t bytes,
		 int check, uint64_t *need)
{
	uint64_t room;
	int r = 0;

	if (!g)
		return 0;
	pthread_mutex_lock(&g->lock);
	*need = g->inflight + bytes;
	if (check)
		r = room_for(c, g, bytes, &room);
	/* a filesystem that cannot say how full it is does not stop
	 * writes: its own ENOSPC still would */
	if (r != -ENOSPC) {
		g->inflight += bytes;
		g->since += bytes;
		r = 0;
	}
	pthread_mutex_unlock(&g->lock);
	return r;
}

void disk_unreserve(struct disk_guard *g, uint64_t bytes)
{
	if (!g)
		return;
	pthread_mutex_lock(&g->lock);
	g->inflight = bytes > g->inflight ? 0 : g->inflight - bytes;
	pthread_mutex_unlock(&g->lock);
}

void disk_refusal_text(cfs_cluster *c, struct disk_guard *g, char *buf,
		       size_t len)
{
	uint64_t size = 0, avail = 0, margin = 0;
	char a[32], m[32], s[32];

	if (g) {
		pthread_mutex_lock(&g->lock);
		size = g->size;
		avail = g->avail;
		margin = g->margin;
		pthread_mutex_unlock(&g->lock);
	}
	snprintf(buf, len,
		 "the filesystem under it has %s free of %s, writes stop at "
		 "%s free (osd_failsafe_full_ratio %g)",
		 cfs_format_size(avail, a, sizeof(a)),
		 cfs_format_size(size, s, sizeof(s)),
		 cfs_format_size(margin, m, sizeof(m)),
		 cfs_config_double(c, "osd_failsafe_full_ratio"));
}

int64_t disk_room_guarded(cfs_cluster *c)
{
	uint64_t room = 0;
	int n;

	pthread_mutex_lock(&c->disk_lock);
	n = c->ndisks;
	for (int i = 0; i < n; i++) {
		struct disk_guard *g = c->disks[i];
		uint64_t left = 0;

		pthread_mutex_lock(&g->lock);
		if (room_for(c, g, 0, &left) == -ENOSPC)
			left = 0;
		room += left > g->inflight ? left - g->inflight : 0;
		pthread_mutex_unlock(&g->lock);
	}
	pthread_mutex_unlock(&c->disk_lock);
	return n ? (int64_t)(room > INT64_MAX ? INT64_MAX : room) : -1;
}

/* ---- what health and df see ---- */

static int disk_of(int n, const dev_t *devs, dev_t dev)
{
	for (int i = 0; i < n; i++)
		if (devs[i] == dev)
			return i;
	return -1;
}

static int add_disk(cfs_cluster *c, struct cfs_disk *out, dev_t *devs,
		    int *n, int max, dev_t dev, int fd, const char *path)
{
	struct cfs_disk *d;
	int r;

	if (*n >= max)
		return -1;
	d = &out[*n];
	memset(d, 0, sizeof(*d));
	r = disk_stat(fd, &d->size, &d->avail);
	if (r)
		return -1;
	d->margin = cfs_disk_margin(
		d->size, cfs_config_double(c, "osd_failsafe_full_ratio"));
	snprintf(d->path, sizeof(d->path), "%s", path);
	devs[*n] = dev;
	return (*n)++;
}

int cfs_disks(cfs_cluster *c, const cfs_osdmap *m, const uint64_t *used,
	      struct cfs_disk *out, int max, int *osd_disk)
{
	dev_t devs[CFS_MAX_DISKS];
	struct stat st;
	int n = 0;

	if (max > CFS_MAX_DISKS)
		max = CFS_MAX_DISKS;
	if (fstat(c->dirfd, &st) == 0)
		add_disk(c, out, devs, &n, max, st.st_dev, c->dirfd, c->dir);
	for (int id = 0; id < m->max_osd; id++) {
		char rel[64], path[PATH_MAX];
		struct cfs_disk *d;
		uint64_t lim;
		int i, fd;

		if (osd_disk)
			osd_disk[id] = -1;
		if (!cfs_osdmap_exists(m, id))
			continue;
		snprintf(rel, sizeof(rel), "osd.%d/current", id);
		fd = openat(c->dirfd, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (fstat(fd, &st) < 0) {
			close(fd);
			continue;
		}
		i = disk_of(n, devs, st.st_dev);
		if (i < 0) {
			snprintf(path, sizeof(path), "%s/osd.%d", c->dir, id);
			i = add_disk(c, out, devs, &n, max, st.st_dev, fd,
				     path);
		}
		close(fd);
		if (i < 0)
			continue;
		d = &out[i];
		if (osd_disk)
			osd_disk[id] = i;
		if (d->nosds < (int)(sizeof(d->osds) / sizeof(d->osds[0])))
			d->osds[d->nosds] = id;
		d->nosds++;
		lim = cfs_osdmap_write_limit(m, id);
		if (used && used[id] < lim)
			d->promised += lim - used[id];
	}
	for (int i = 0; i < n; i++) {
		struct cfs_disk *d = &out[i];
		uint64_t room = d->avail > d->margin ? d->avail - d->margin : 0;

		d->failsafe = d->nosds > 0 && room == 0;
		d->overcommitted = d->promised > room;
	}
	return n;
}
