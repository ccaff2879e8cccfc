/*
 * history.c - the fill history (mgr_events.h): what Ceph's dashboard
 * draws from the mgr's time series (the prometheus module's
 * ceph_cluster_total_used_bytes, ceph_pool_stored, ceph_pool_max_avail,
 * ceph_osd_stat_bytes_used), kept by the mounted daemon in a file of its
 * cluster so that a dashboard reloaded or restarted still has the past.
 * One writer (the daemon); readers take complete lines only.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "cluster.h"
#include "mgr_events.h"
#include "osdmap.h"
#include "usage.h"
#include "util.h"

#define DAY 86400

struct mgr_history {
	char path[PATH_MAX];
	long lines; /* in the file, as far as this writer knows */
};

uint32_t mgr_history_interval(cfs_cluster *c)
{
	char v[32];

	/* config.c's default applies when unset */
	if (cfs_config_get(c, "mgr_history_interval", v, sizeof(v)))
		return 5;
	return (uint32_t)strtoul(v, NULL, 10);
}

static long count_lines(const char *path)
{
	FILE *f = fopen(path, "re");
	long n = 0;
	int ch;

	if (!f)
		return 0;
	while ((ch = getc(f)) != EOF)
		n += ch == '\n';
	fclose(f);
	return n;
}

int mgr_history_open(const char *dir, struct mgr_history **out)
{
	struct mgr_history *h = calloc(1, sizeof(*h));

	if (!h)
		return -ENOMEM;
	snprintf(h->path, sizeof(h->path), "%s/" MGR_HISTORY_FILE, dir);
	h->lines = count_lines(h->path);
	*out = h;
	return 0;
}

void mgr_history_close(struct mgr_history *h)
{
	free(h);
}

/* keep the last keep lines: rewritten whole, atomically */
static int trim(struct mgr_history *h, long keep)
{
	FILE *f = fopen(h->path, "re");
	char *buf = NULL, *p;
	size_t cap = 0, len = 0;
	long seen = 0;
	int r;

	if (!f)
		return -errno;
	for (;;) {
		if (cap - len < 65536) {
			char *nb = realloc(buf, cap ? cap * 2 : 1 << 20);

			if (!nb) {
				free(buf);
				fclose(f);
				return -ENOMEM;
			}
			buf = nb;
			cap = cap ? cap * 2 : 1 << 20;
		}
		size_t n = fread(buf + len, 1, cap - len, f);

		if (!n)
			break;
		len += n;
	}
	fclose(f);
	/* from the end back to the start of the keep-th last line */
	p = buf + len;
	while (p > buf) {
		if (p[-1] == '\n' && p != buf + len && ++seen == keep)
			break;
		p--;
	}
	r = cfs_write_atomic_mode(h->path, p, (size_t)(buf + len - p), 0600);
	if (!r)
		h->lines = keep < h->lines ? keep : h->lines;
	free(buf);
	return r;
}

int mgr_history_sample(struct mgr_history *h, cfs_cluster *c,
		       const cfs_osdmap *m, const struct cfs_health *hs)
{
	uint64_t *used = calloc((size_t)hs->max_osd + 1, sizeof(*used));
	json_t *o, *pools;
	struct timespec ts;
	double best = -1;
	int fullest = -1, fd, r = 0;
	uint32_t every;
	char *line;
	size_t len;
	long keep;

	if (!used)
		return -ENOMEM;
	for (int i = 0; i < hs->max_osd; i++) {
		const struct cfs_osd_snap *s = &hs->osd[i];

		used[i] = s->used;
		if (s->info.exists && s->info.capacity &&
		    (double)s->used / (double)s->info.capacity > best) {
			best = (double)s->used / (double)s->info.capacity;
			fullest = i;
		}
	}
	pools = json_array();
	for (int i = 0; i < cfs_osdmap_npools(m); i++) {
		const struct cfs_pool_info *p = cfs_osdmap_pool_at(m, i);
		uint64_t stored = 0, objects = 0;

		cfs_pool_usage(c, m, p, &stored, &objects);
		json_array_append_new(
			pools, json_pack("{s:I, s:s, s:I, s:I}", "id",
					 (json_int_t)p->id, "name", p->name,
					 "stored", (json_int_t)stored,
					 "max_avail",
					 (json_int_t)cfs_pool_max_avail_for(
						 m, p, used)));
	}
	free(used);
	clock_gettime(CLOCK_REALTIME, &ts);
	o = json_pack("{s:f, s:I, s:I, s:i, s:f, s:f, s:f, s:o}", "t",
		      (double)ts.tv_sec + (double)(ts.tv_nsec / 1000000) / 1e3,
		      "used", (json_int_t)hs->used, "total",
		      (json_int_t)hs->total, "fullest_osd", fullest,
		      "fullest_pct", best < 0 ? 0.0 : best * 100.0,
		      "nearfull_ratio", cfs_osdmap_nearfull_ratio(m),
		      "full_ratio", cfs_osdmap_full_ratio(m), "pools", pools);
	line = o ? json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER |
				 JSON_REAL_PRECISION(15))
		 : NULL;
	json_decref(o);
	if (!line)
		return -ENOMEM;
	len = strlen(line);
	line[len++] = '\n';
	fd = open(h->path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, line, len) != (ssize_t)len)
		r = -errno;
	if (fd >= 0)
		close(fd);
	free(line);
	if (r)
		return r;
	h->lines++;
	every = mgr_history_interval(c);
	keep = DAY / (every ? every : 5);
	if (keep < 100)
		keep = 100;
	/* a quarter over before a rewrite: one in many samples pays it */
	if (h->lines > keep + keep / 4)
		r = trim(h, keep);
	return r;
}

/* complete lines of f from its position: samples newer than *t into a;
 * *end gets the offset after the last complete line */
static void read_lines(FILE *f, json_t *a, double *t, long *end)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	*end = ftell(f);
	while ((n = getline(&line, &cap, f)) > 0) {
		json_t *o;
		double ot;

		if (line[n - 1] != '\n')
			break; /* being written */
		*end += n;
		o = json_loadb(line, (size_t)n - 1, 0, NULL);
		ot = json_number_value(json_object_get(o, "t"));
		if (json_is_object(o) && ot > *t) {
			json_array_append_new(a, o);
			*t = ot;
		} else {
			json_decref(o);
		}
	}
	free(line);
}

/* keep max evenly spaced entries of a, the last among them */
static void thin(json_t *a, int max)
{
	size_t n = json_array_size(a);
	json_t *b;

	if (max <= 0 || n <= (size_t)max)
		return;
	b = json_array();
	for (int i = 0; i < max; i++) {
		/* from the end, so that the newest is always there */
		size_t k = n - 1 - (size_t)((double)i * (double)(n - 1) /
					    (double)(max - 1));

		json_array_insert(b, 0, json_array_get(a, k));
	}
	json_array_clear(a);
	json_array_extend(a, b);
	json_decref(b);
}

void *mgr_history_read(const char *dir, double since, int max_points)
{
	struct mgr_history_pos pos = { 0, 0, since };
	json_t *a = mgr_history_read_new(dir, &pos);

	if (a)
		thin(a, max_points);
	return a;
}

void *mgr_history_read_new(const char *dir, struct mgr_history_pos *pos)
{
	char path[PATH_MAX];
	json_t *a = json_array();
	struct stat st;
	FILE *f;

	if (!a)
		return NULL;
	snprintf(path, sizeof(path), "%s/" MGR_HISTORY_FILE, dir);
	f = fopen(path, "re");
	if (!f)
		return a;
	if (fstat(fileno(f), &st)) {
		fclose(f);
		return a;
	}
	/* trimmed (a new file) or shorter: from the start again */
	if ((uint64_t)st.st_ino != pos->ino || st.st_size < pos->off) {
		pos->ino = (uint64_t)st.st_ino;
		pos->off = 0;
	}
	if (st.st_size > pos->off && !fseek(f, pos->off, SEEK_SET))
		read_lines(f, a, &pos->t, &pos->off);
	fclose(f);
	return a;
}
