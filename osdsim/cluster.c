/*
 * cluster.c - making, opening, locking and closing a cluster directory.
 *
 * mkfs builds everything in DIR.tmp-XXXXXX next to DIR, fsyncs it, then
 * renames it into place (exchanging it atomically with an old cluster under
 * --force, RENAME_EXCHANGE), so DIR is never half made: it is the old
 * cluster, the new one, or absent.
 *
 * DIR/cluster.lock is flock()ed: exclusively by a writer (every command
 * that may change something, and the mounted daemon), shared by readers,
 * so two writers can never interleave their changes.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <uuid/uuid.h>

#include "kv.h"
#include "clog.h"
#include "osdsim_i.h"
#include "placement.h"
#include "util.h"

#define GIB (1ULL << 30)
#define MIB (1ULL << 20)

void cfs_mkfs_opts_init(struct cfs_mkfs_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->nosds = 12;
	o->nhosts = 4;
	o->osd_size = GIB;
	o->pg_num = 128;
	o->size = 3;
	o->min_size = 0;
	o->object_size = 4 * MIB;
	o->stripe_count = 1;
	o->crush_rule = -1;
	o->full_policy = CFS_FULL_OSD;
}

static int msg(char *err, size_t errlen, int r, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int msg(char *err, size_t errlen, int r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return r;
}

static int check_opts(const struct cfs_mkfs_opts *o, char *err, size_t len)
{
	if (!o->crush_map) {
		if (o->nosds < 1 || o->nosds > CFS_MAX_OSD)
			return msg(err, len, -EINVAL,
				   "--osds %d: must be 1..%d", o->nosds,
				   CFS_MAX_OSD);
		if (o->nhosts < 1 || o->nhosts > o->nosds)
			return msg(err, len, -EINVAL,
				   "--hosts %d: must be 1..%d (the number of OSDs)",
				   o->nhosts, o->nosds);
	}
	if (o->osd_size == 0 || o->osd_size > (1ULL << 60))
		return msg(err, len, -EINVAL,
			   "--osd-size: must be more than 0 and at most 1 EiB");
	if (!o->crush_map) {
		/* the crush weights come from the size: the map must be one
		 * crushtool can read back (device <= 100, root <= 65535) */
		uint32_t w;
		char sz[32];

		if (cfs_size_crush_weight(o->osd_size, &w))
			return msg(err, len, -EINVAL,
				   "--osd-size %s: its crush weight (the size "
				   "in TiB) would be over 100, the most a crush "
				   "map allows; weights are relative: use 100T "
				   "or less, or a --crush-map with --osd-size",
				   cfs_format_size(o->osd_size, sz, sizeof(sz)));
		if ((uint64_t)w * (uint64_t)o->nosds > CFS_MAX_BUCKET_WEIGHT)
			return msg(err, len, -EINVAL,
				   "--osd-size: %d OSDs of this size weigh "
				   "over 65535 (TiB), more than a crush bucket "
				   "allows",
				   o->nosds);
	}
	if (o->pg_num < 1 || o->pg_num > 65536)
		return msg(err, len, -EINVAL, "--pg-num %u: must be 1..65536",
			   o->pg_num);
	if (o->pgp_num > o->pg_num)
		return msg(err, len, -EINVAL,
			   "--pgp-num %u: must be at most pg_num %u",
			   o->pgp_num, o->pg_num);
	if (o->size < 1 || o->size > 10)
		return msg(err, len, -EINVAL, "--size %d: must be 1..10",
			   o->size);
	if (o->min_size < 0 || o->min_size > o->size)
		return msg(err, len, -EINVAL,
			   "--min-size %d: must be 1..%d (the pool size)",
			   o->min_size, o->size);
	{
		static const char *const names[3] = {
			"--stripe-unit", "--stripe-count", "--object-size"
		};
		/* --stripe-unit defaults to the object size */
		uint32_t su = o->stripe_unit ? o->stripe_unit : o->object_size;
		int r = cfs_layout_check(su, o->stripe_count, o->object_size,
					 names, err, len);

		if (r)
			return r;
	}
	if (o->full_policy != CFS_FULL_OSD && o->full_policy != CFS_FULL_POOL)
		return msg(err, len, -EINVAL, "bad full policy");
	if (o->pool_name && (!*o->pool_name || strlen(o->pool_name) > 60))
		return msg(err, len, -EINVAL, "bad pool name");
	return 0;
}

/* The map and the OSD table of a new cluster. */
static int mkfs_map(const struct cfs_mkfs_opts *o, struct cfs_osdmap **out,
		    char *err, size_t errlen)
{
	struct cfs_osdmap *m = osdmap_alloc();
	uint32_t *w = NULL;
	int r, rule = o->crush_rule;
	uuid_t u;

	if (!m)
		return -ENOMEM;
	m->ec_profiles = ecprofile_defaults();
	if (!m->ec_profiles) {
		osdmap_free(m);
		return -ENOMEM;
	}
	if (!o->crush_map) {
		w = calloc((size_t)o->nosds, sizeof(*w));
		if (!w) {
			r = -ENOMEM;
			goto fail;
		}
		for (int i = 0; i < o->nosds; i++)
			cfs_size_crush_weight(o->osd_size, &w[i]); /* checked */
		r = pl_map_build_simple(o->nosds, o->nhosts, w, &m->crush);
		free(w);
		if (r) {
			msg(err, errlen, r, "cannot build the crush map: %s",
			    cfs_strerror(r));
			goto fail;
		}
		if (rule < 0)
			rule = 0;
	} else {
		char perr[512];

		r = pl_parse_file(o->crush_map, &m->crush, perr, sizeof(perr));
		if (r) {
			msg(err, errlen, r == -ENOMEM ? r : CFS_EBADMAP, "%s",
			    perr);
			r = r == -ENOMEM ? r : CFS_EBADMAP;
			goto fail;
		}
		if (rule < 0) {
			for (int i = 0; i < pl_map_max_rules(m->crush); i++) {
				if (pl_map_rule_exists(m->crush, i) &&
				    pl_map_rule_type(m->crush, i) ==
					    PL_RULE_TYPE_REPLICATED) {
					rule = i;
					break;
				}
			}
			if (rule < 0) {
				r = msg(err, errlen, CFS_EBADMAP,
					"%s: no replicated rule for the pool",
					o->crush_map);
				goto fail;
			}
		}
	}
	if (!pl_map_rule_exists(m->crush, rule)) {
		r = msg(err, errlen, -EINVAL, "%s: no rule %d",
			o->crush_map ? o->crush_map : "crush map", rule);
		goto fail;
	}
	if (pl_map_rule_type(m->crush, rule) != PL_RULE_TYPE_REPLICATED) {
		r = msg(err, errlen, -EINVAL,
			"%s: rule %d is not a replicated rule",
			o->crush_map ? o->crush_map : "crush map", rule);
		goto fail;
	}
	/* what crushmap.txt will say is the map (three-decimal weights) */
	r = osdmap_canon_crush(m);
	if (r)
		goto fail;
	/* every device of the map becomes an OSD */
	for (int id = 0; id < pl_map_max_devices(m->crush); id++) {
		uint32_t cw = 0;
		int parent;

		if (!pl_map_device_declared(m->crush, id) &&
		    !pl_map_device_in_buckets(m->crush, id))
			continue;
		if (id >= CFS_MAX_OSD) {
			r = msg(err, errlen, CFS_EBADMAP,
				"%s: device id %d is too large (max %d)",
				o->crush_map, id, CFS_MAX_OSD - 1);
			goto fail;
		}
		r = osdmap_ensure_osd(m, id);
		if (r)
			goto fail;
		parent = pl_map_parent(m->crush, id);
		for (int i = 0; parent && i < pl_map_bucket_size(m->crush, parent);
		     i++)
			if (pl_map_bucket_item(m->crush, parent, i) == id)
				cw = pl_map_bucket_item_weight(m->crush, parent,
							       i);
		m->osds[id].exists = 1;
		m->osds[id].up = 1;
		m->osds[id].reweight = CFS_WEIGHT_ONE;
		m->osds[id].primary_affinity = CFS_WEIGHT_ONE;
		/* a pasted map: capacity from the crush weight (weight is
		 * TiB by Ceph's convention) unless --osd-size says */
		if (o->osd_size_set || !o->crush_map || cw == 0)
			m->osds[id].capacity = o->osd_size;
		else
			m->osds[id].capacity = (uint64_t)cw << 24;
		uuid_generate(u);
		uuid_unparse_lower(u, m->osds[id].uuid);
	}
	if (m->max_osd == 0) {
		r = msg(err, errlen, CFS_EBADMAP, "%s: the map has no devices",
			o->crush_map ? o->crush_map : "crush map");
		goto fail;
	}
	uuid_generate(u);
	uuid_unparse_lower(u, m->fsid);
	m->epoch = 1;
	m->created = m->modified = time(NULL);
	/* every OSD comes up and in with the cluster */
	m->last_up_change = m->last_in_change = (int64_t)m->created;
	m->full_policy = o->full_policy;
	m->pool.id = 1;
	snprintf(m->pool.name, sizeof(m->pool.name), "%s",
		 o->pool_name ? o->pool_name : "crushfs_data");
	m->pool.size = o->size;
	m->pool.min_size = o->min_size ? o->min_size : o->size - o->size / 2;
	m->pool.pg_num = o->pg_num;
	m->pool.pgp_num = o->pgp_num ? o->pgp_num : o->pg_num;
	m->pool.pg_num_target = m->pool.pg_num;
	m->pool.pgp_num_target = m->pool.pgp_num;
	m->pool.crush_rule = rule;
	m->pool.object_size = o->object_size;
	m->pool.stripe_unit = o->stripe_unit ? o->stripe_unit : o->object_size;
	m->pool.stripe_count = o->stripe_count;
	/* `fs new` tags its data pool: application cephfs, data = the
	 * filesystem's name (FSMonitor / OSDMonitor::do_application_enable,
	 * Ceph 16.2) */
	r = pool_apps_enable(m->pool.apps, sizeof(m->pool.apps), "cephfs",
			     "data", "crushfs");
	if (r)
		goto fail;
	r = osdmap_finish(m);
	if (r)
		goto fail;
	*out = m;
	return 0;
fail:
	osdmap_free(m);
	return r;
}

static int is_cluster(const char *dir)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/cluster.json", dir);
	return access(p, F_OK) == 0;
}

static int dir_empty(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int empty = 1;

	if (!d)
		return 0;
	while ((de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			empty = 0;
	closedir(d);
	return empty;
}

static int write_tree(const char *tmp, const struct cfs_osdmap *m,
		      const char *backend_json)
{
	char p[PATH_MAX];
	const char *usage = "{\"osds\":{}}";
	int r;

	for (int id = 0; id < m->max_osd; id++) {
		if (!m->osds[id].exists)
			continue;
		r = osd_store_create(tmp, id, m->osds[id].uuid);
		if (r)
			return r;
	}
	r = cfs_pathf(p, sizeof(p), "%s/pgstate", tmp);
	if (r)
		return r;
	r = cfs_mkdirs(p, CFS_DIR_MODE);
	if (r)
		return r;
	/* an empty object index: its absence later means it was lost */
	r = cfs_pathf(p, sizeof(p), "%s/pglog", tmp);
	if (r)
		return r;
	{
		kv *db;

		r = kv_open_rocksdb(p, 1, &db);
		if (r)
			return r;
		r = kv_sync(db);
		kv_close(db);
		if (r)
			return r;
	}
	r = cfs_pathf(p, sizeof(p), "%s/usage.json", tmp);
	if (r)
		return r;
	r = cfs_write_atomic(p, usage, strlen(usage));
	if (r)
		return r;
	if (backend_json) {
		r = cfs_pathf(p, sizeof(p), "%s/backend.json", tmp);
		if (!r)
			r = cfs_write_atomic(p, backend_json,
					     strlen(backend_json));
		if (r)
			return r;
	}
	r = cfs_pathf(p, sizeof(p), "%s/cluster.lock", tmp);
	if (r)
		return r;
	r = cfs_write_atomic(p, "", 0);
	if (r)
		return r;
	r = osdmap_persist(tmp, m);
	if (r)
		return r;
	return cfs_fsync_dir(tmp);
}

static int parent_of(const char *path, char *buf, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return snprintf(buf, len, ".") >= (int)len ? -ENAMETOOLONG : 0;
	if (slash == path)
		return snprintf(buf, len, "/") >= (int)len ? -ENAMETOOLONG : 0;
	if ((size_t)(slash - path) >= len)
		return -ENAMETOOLONG;
	memcpy(buf, path, (size_t)(slash - path));
	buf[slash - path] = 0;
	return 0;
}

int cfs_mkfs(const char *dir_in, const struct cfs_mkfs_opts *o, char *err,
	     size_t errlen)
{
	struct cfs_osdmap *m = NULL;
	char dir[PATH_MAX], tmp[PATH_MAX], parent[PATH_MAX];
	struct stat st;
	int r, lockfd = -1, exists;
	size_t n;

	if (!dir_in || !*dir_in)
		return msg(err, errlen, -EINVAL, "no cluster directory given");
	n = strlen(dir_in);
	if (n >= sizeof(dir) - 32)
		return msg(err, errlen, -ENAMETOOLONG, "%s: path too long",
			   dir_in);
	memcpy(dir, dir_in, n + 1);
	while (n > 1 && dir[n - 1] == '/')
		dir[--n] = 0;
	r = check_opts(o, err, errlen);
	if (r)
		return r;

	exists = stat(dir, &st) == 0;
	if (exists && !S_ISDIR(st.st_mode))
		return msg(err, errlen, -ENOTDIR,
			   "%s: exists and is not a directory", dir);
	if (exists && is_cluster(dir) && !o->force)
		return msg(err, errlen, -EEXIST,
			   "%s: a cluster already exists there; use --force to "
			   "replace it (all its data is lost)",
			   dir);
	if (exists && !is_cluster(dir) && !dir_empty(dir))
		return msg(err, errlen, -ENOTEMPTY,
			   "%s: exists, is not empty and is not a crushfs "
			   "cluster; refusing to touch it",
			   dir);

	r = o->from_ceph ? import_map(o, &m, err, errlen)
			: mkfs_map(o, &m, err, errlen);
	if (r)
		return r;

	r = parent_of(dir, parent, sizeof(parent));
	/* the folders above the cluster are the user's: as mkdir -p */
	if (!r)
		r = cfs_mkdirs(parent, 0755);
	if (r) {
		osdmap_free(m);
		return msg(err, errlen, r, "%s: cannot create: %s", parent,
			   cfs_strerror(r));
	}
	if (cfs_pathf(tmp, sizeof(tmp), "%s.tmp-XXXXXX", dir) || !mkdtemp(tmp)) {
		r = -errno;
		osdmap_free(m);
		return msg(err, errlen, r, "%s: cannot create: %s", tmp,
			   cfs_strerror(r));
	}
	/* mkdtemp made it CFS_DIR_MODE (0700): the cluster's top folder
	 * stays so, and nothing beneath is reachable by other users */
	r = write_tree(tmp, m, o->backend_json);
	if (r) {
		msg(err, errlen, r, "%s: cannot write the new cluster: %s", tmp,
		    cfs_strerror(r));
		goto fail;
	}

	if (exists && is_cluster(dir)) {
		char lp[PATH_MAX];

		/* --force: never under a live daemon or a running command */
		lockfd = cfs_pathf(lp, sizeof(lp), "%s/cluster.lock", dir)
				 ? -1
				 : open(lp, O_RDWR | O_CLOEXEC);
		if (lockfd >= 0 && flock(lockfd, LOCK_EX | LOCK_NB) < 0) {
			r = msg(err, errlen, -EBUSY,
				"%s: the cluster is in use (mounted, or a "
				"command is running); not replacing it",
				dir);
			goto fail;
		}
		if (renameat2(AT_FDCWD, tmp, AT_FDCWD, dir, RENAME_EXCHANGE) <
		    0) {
			r = -errno;
			msg(err, errlen, r, "%s: cannot replace: %s", dir,
			    cfs_strerror(r));
			goto fail;
		}
		/* tmp now holds the old cluster */
		cfs_fsync_dir(parent);
		cfs_rmtree(tmp);
	} else {
		if (rename(tmp, dir) < 0) {
			r = -errno;
			msg(err, errlen, r, "%s: cannot create: %s", dir,
			    cfs_strerror(r));
			goto fail;
		}
	}
	if (lockfd >= 0)
		close(lockfd);
	cfs_fsync_dir(parent);
	{
		/* the monitor's first words (Monitor::mkfs); the log starts
		 * with the cluster, a dropped line is no failure */
		char line[256];

		snprintf(line, sizeof(line), "mkfs %s: %d osds, pool '%s' "
			 "size %d pg_num %u", m->fsid, m->max_osd, m->pool.name,
			 m->pool.size, m->pool.pg_num);
		cfs_clog_dir(dir, CFS_CLOG_INFO, "cluster", "mon.a", line);
	}
	osdmap_free(m);
	return 0;
fail:
	if (lockfd >= 0)
		close(lockfd);
	cfs_rmtree(tmp);
	osdmap_free(m);
	return r;
}

/* ---- open / close ---- */

static int take_lock(cfs_cluster *c, char *err, size_t errlen)
{
	int op = c->rdonly ? LOCK_SH : LOCK_EX;

	c->lockfd = openat(c->dirfd, "cluster.lock",
			   (c->rdonly ? O_RDONLY : O_RDWR) | O_CLOEXEC);
	if (c->lockfd < 0 && errno == ENOENT && !c->rdonly)
		c->lockfd = openat(c->dirfd, "cluster.lock",
				   O_RDWR | O_CREAT | O_CLOEXEC, CFS_FILE_MODE);
	if (c->lockfd < 0) {
		if (errno == ENOENT && c->rdonly)
			return 0; /* read-only over an old tree: no lock */
		return msg(err, errlen, -errno, "%s/cluster.lock: %s", c->dir,
			   strerror(errno));
	}
	/* wait a little: another command may be finishing
	 * ($CRUSHFS_LOCK_WAIT_MS, default 3 s) */
	const char *ev = getenv("CRUSHFS_LOCK_WAIT_MS");
	long wait_ms = ev && *ev ? strtol(ev, NULL, 10) : 3000;

	for (long waited = 0;; waited += 50) {
		struct timespec ts = { 0, 50 * 1000 * 1000 };

		if (flock(c->lockfd, op | LOCK_NB) == 0)
			return 0;
		if (errno != EWOULDBLOCK)
			return msg(err, errlen, -errno,
				   "%s/cluster.lock: %s", c->dir,
				   strerror(errno));
		if (waited >= wait_ms)
			break;
		nanosleep(&ts, NULL);
	}
	return msg(err, errlen, -EBUSY,
		   "%s: the cluster is in use by another crushfs process "
		   "(mounted, or a command is running)",
		   c->dir);
}

/*
 * A cluster made by an older crushfs has 0755 folders and 0644 files:
 * every local user could read its objects and metadata around the
 * mount's permissions (issue 21).  Making the top folder 0700 is enough,
 * nothing beneath can then be reached.  Done when the cluster is opened
 * to be written (a mount, a command that changes it), under its lock;
 * said once, as the next open finds it done.  A user who may write the
 * cluster but does not own its folder cannot: that is said, each time.
 */
static void tighten_top(const cfs_cluster *c)
{
	struct stat st;

	if (fstat(c->dirfd, &st) < 0 || !(st.st_mode & 077))
		return;
	if (fchmod(c->dirfd, st.st_mode & 07700) < 0) {
		cfs_log(CFS_LOG_WARN, "%s: the cluster folder is %04o, readable "
			"by other users; cannot make it 0700: %s", c->dir,
			(unsigned)(st.st_mode & 07777), strerror(errno));
		return;
	}
	cfs_log(CFS_LOG_WARN, "%s: made the cluster folder 0700 (it was %04o): "
		"its objects and metadata were readable by every local user",
		c->dir, (unsigned)(st.st_mode & 07777));
}

int cfs_cluster_open(const char *dir, int flags, cfs_cluster **out,
		     char *err, size_t errlen)
{
	cfs_cluster *c;
	struct cfs_osdmap *m = NULL;
	char path[PATH_MAX], *text = NULL;
	size_t len;
	int r;

	*out = NULL;
	if (!dir || !*dir)
		return msg(err, errlen, CFS_ENOCLUSTER,
			   "no cluster directory given");
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->dirfd = c->lockfd = -1;
	c->rdonly = !!(flags & CFS_OPEN_RDONLY);
	pthread_mutex_init(&c->map_lock, NULL);
	pthread_mutex_init(&c->update_lock, NULL);
	pthread_mutex_init(&c->dirty_lock, NULL);
	pthread_mutex_init(&c->refused_lock, NULL);
	pthread_mutex_init(&c->slow_lock, NULL);
	pthread_mutex_init(&c->spare_lock, NULL);
	pthread_mutex_init(&c->disk_lock, NULL);
	pthread_mutex_init(&c->toofull_lock, NULL);
	{
		/* waits for a new epoch have monotonic deadlines */
		pthread_condattr_t ca;

		pthread_condattr_init(&ca);
		pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
		pthread_cond_init(&c->map_cond, &ca);
		pthread_condattr_destroy(&ca);
	}
	pthread_mutex_init(&c->config_lock, NULL);
	pthread_mutex_init(&c->pp_lock, NULL);
	pthread_mutex_init(&c->nopg.lock, NULL);
	pthread_rwlock_init(&c->layout, NULL);
	c->dir = strdup(dir);
	c->stores = calloc(CFS_MAX_OSD, sizeof(*c->stores));
	if (!c->dir || !c->stores) {
		r = -ENOMEM;
		goto fail;
	}
	c->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (c->dirfd < 0 || faccessat(c->dirfd, "cluster.json", F_OK, 0)) {
		r = msg(err, errlen, CFS_ENOCLUSTER,
			"no cluster at %s (%s/cluster.json: %s); create one "
			"with 'crushfs --cluster %s mkfs'",
			dir, dir, strerror(errno), dir);
		goto fail;
	}
	r = take_lock(c, err, errlen);
	if (r)
		goto fail;
	if (!c->rdonly)
		tighten_top(c);
	c->live = faccessat(c->dirfd, "backend.json", F_OK, 0) == 0;
	snprintf(path, sizeof(path), "%s/cluster.json", dir);
	r = cfs_read_file(path, &text, &len);
	if (r) {
		msg(err, errlen, r, "%s: %s", path, cfs_strerror(r));
		goto fail;
	}
	r = osdmap_from_json(text, len, path, &m, err, errlen);
	free(text);
	if (r)
		goto fail;
	r = osdmap_finish(m);
	if (r) {
		msg(err, errlen, r, "%s: %s", path, cfs_strerror(r));
		osdmap_free(m);
		goto fail;
	}
	c->cur = m;
	c->pool_id = m->pool.id;
	for (int id = 0; id < m->max_osd; id++) {
		struct osd_store *s;

		if (!m->osds[id].exists)
			continue;
		r = store_open(c, id, &s);
		if (r) {
			msg(err, errlen, CFS_ECORRUPT,
			    "%s/osd.%d/current: %s (the OSD's store is gone)",
			    dir, id, cfs_strerror(r));
			r = CFS_ECORRUPT;
			goto fail;
		}
	}
	r = fdcache_create(c, &c->fdc);
	if (r)
		goto fail;
	r = usage_load(c);
	if (r) {
		msg(err, errlen, r, "%s: cannot read OSD usage: %s", dir,
		    cfs_strerror(r));
		goto fail;
	}
	r = pgstate_init(c, err, errlen);
	if (r) {
		if (!*err)
			msg(err, errlen, r, "%s/pgstate: %s", dir,
			    cfs_strerror(r));
		goto fail;
	}
	r = refused_load(c, err, errlen);
	if (r) {
		if (!*err)
			msg(err, errlen, r, "%s/refused.json: %s", dir,
			    cfs_strerror(r));
		goto fail;
	}
	r = config_load(c, err, errlen);
	if (r) {
		if (!*err)
			msg(err, errlen, r, "%s/config.json: %s", dir,
			    cfs_strerror(r));
		goto fail;
	}
	r = index_open(c, err, errlen);
	if (r)
		goto fail;
	{
		int64_t pool;
		uint32_t from, to;

		/* a pg_num change cut short: its files move now */
		if (pgsplit_pending(c->cur, &pool, &from, &to) && c->rdonly) {
			r = msg(err, errlen, -EBUSY,
				"%s: a change of pool %lld's pg_num from %u to "
				"%u was interrupted; any command that writes "
				"(e.g. 'crushfs --cluster %s rebalance') "
				"finishes it",
				dir, (long long)pool, from, to, dir);
			goto fail;
		}
		if (pgsplit_pending(c->cur, &pool, &from, &to)) {
			r = pgsplit_settle(c, err, errlen);
			if (r)
				goto fail;
		}
	}
	*out = c;
	return 0;
fail:
	c->rdonly = 1; /* nothing to save */
	cfs_cluster_close(c);
	return r;
}

void cfs_cluster_close(cfs_cluster *c)
{
	if (!c)
		return;
	spares_stop(c);
	if (!c->rdonly)
		pgstate_flush_all(c);
	if (!c->rdonly && atomic_load(&c->usage_dirty)) {
		int r = usage_save(c);

		if (r)
			cfs_log(CFS_LOG_WARN,
				"%s: cannot save OSD usage (%s); the next open "
				"rescans the OSDs",
				c->dir, cfs_strerror(r));
	}
	fdcache_destroy(c->fdc);
	index_close(c);
	pgstate_free(c);
	free(c->refused);
	config_free(c);
	pthread_rwlock_destroy(&c->layout);
	pthread_mutex_destroy(&c->pp_lock);
	pthread_mutex_destroy(&c->nopg.lock);
	if (c->stores) {
		for (int i = 0; i < CFS_MAX_OSD; i++)
			store_close(atomic_load(&c->stores[i]));
		free(c->stores);
	}
	if (c->cur)
		cfs_osdmap_put(c->cur);
	if (c->lockfd >= 0)
		close(c->lockfd);
	if (c->dirfd >= 0)
		close(c->dirfd);
	pthread_cond_destroy(&c->map_cond);
	pthread_mutex_destroy(&c->map_lock);
	pthread_mutex_destroy(&c->update_lock);
	free(c->slow);
	free(c->toofull);
	disk_guards_free(c);
	pthread_mutex_destroy(&c->disk_lock);
	pthread_mutex_destroy(&c->dirty_lock);
	free(c->dir);
	free(c);
}

const char *cfs_cluster_dir(const cfs_cluster *c)
{
	return c->dir;
}

int cfs_cluster_rdonly(const cfs_cluster *c)
{
	return c->rdonly;
}

void cfs_pg_layout_shared(cfs_cluster *c)
{
	pthread_rwlock_rdlock(&c->layout);
}

void cfs_pg_layout_exclusive(cfs_cluster *c)
{
	pthread_rwlock_wrlock(&c->layout);
}

void cfs_pg_layout_release(cfs_cluster *c)
{
	pthread_rwlock_unlock(&c->layout);
}
