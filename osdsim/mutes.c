/*
 * mutes.c - health mutes, as Ceph 16.2's HealthMonitor keeps them
 * (`health mute CODE [TTL] [--sticky]`, `health unmute [CODE]`,
 * HealthMonitor::check_mutes, Monitor::get_health_status): a muted check
 * is still listed but does not count in the status.  Kept in
 * DIR/health_mutes.json (written atomically), in memory under
 * config_lock once read.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "osdsim_i.h"
#include "util.h"

static void path_of(cfs_cluster *c, char *buf, size_t len)
{
	snprintf(buf, len, "%s/health_mutes.json", c->dir);
}

/* config_lock held */
static void load(cfs_cluster *c)
{
	char path[PATH_MAX];
	json_t *root, *v;
	size_t i;

	if (c->mutes_loaded)
		return;
	c->mutes_loaded = 1;
	c->nmutes = 0;
	path_of(c, path, sizeof(path));
	root = json_load_file(path, 0, NULL);
	if (!json_is_array(root)) {
		json_decref(root);
		return; /* none (a damaged file: none either, it is rewritten
			 * at the next change) */
	}
	json_array_foreach(root, i, v) {
		struct cfs_health_mute *m = &c->mutes[c->nmutes];
		const char *code = json_string_value(json_object_get(v, "code"));
		const char *sum =
			json_string_value(json_object_get(v, "summary"));

		if (!code || c->nmutes >= CFS_HEALTH_MAX_MUTES)
			continue;
		memset(m, 0, sizeof(*m));
		snprintf(m->code, sizeof(m->code), "%s", code);
		snprintf(m->summary, sizeof(m->summary), "%s", sum ? sum : "");
		m->ttl = json_integer_value(json_object_get(v, "ttl"));
		m->sticky = json_is_true(json_object_get(v, "sticky"));
		m->count = json_integer_value(json_object_get(v, "count"));
		c->nmutes++;
	}
	json_decref(root);
}

/* config_lock held */
static int persist(cfs_cluster *c)
{
	char path[PATH_MAX], *text;
	json_t *root;
	int r;

	if (c->rdonly)
		return 0; /* a reader applies them, the writer keeps them */
	root = json_array();
	if (!root)
		return -ENOMEM;
	for (int i = 0; i < c->nmutes; i++) {
		const struct cfs_health_mute *m = &c->mutes[i];

		json_array_append_new(root, json_pack(
			"{s:s, s:I, s:b, s:s, s:I}", "code", m->code, "ttl",
			(json_int_t)m->ttl, "sticky", m->sticky, "summary",
			m->summary, "count", (json_int_t)m->count));
	}
	text = json_dumps(root, JSON_INDENT(1));
	json_decref(root);
	if (!text)
		return -ENOMEM;
	path_of(c, path, sizeof(path));
	r = cfs_write_atomic(path, text, strlen(text));
	free(text);
	return r;
}

static int find(cfs_cluster *c, const char *code)
{
	for (int i = 0; i < c->nmutes; i++)
		if (!strcmp(c->mutes[i].code, code))
			return i;
	return -1;
}

static void drop(cfs_cluster *c, int i)
{
	memmove(&c->mutes[i], &c->mutes[i + 1],
		sizeof(c->mutes[0]) * (size_t)(c->nmutes - i - 1));
	c->nmutes--;
}

static const struct cfs_health_check *check_of(const struct cfs_health *h,
					       const char *code)
{
	for (int i = 0; h && i < h->nchecks; i++)
		if (!strcmp(h->checks[i].code, code))
			return &h->checks[i];
	return NULL;
}

int cfs_health_mute(cfs_cluster *c, const struct cfs_health *now,
		    const char *code, int64_t ttl_secs, int sticky, char *why,
		    size_t whylen)
{
	const struct cfs_health_check *q = check_of(now, code);
	struct cfs_health_mute m;
	int i, r;

	if (!code || !*code) {
		snprintf(why, whylen, "must specify an alert code to mute");
		return -EINVAL;
	}
	if (strlen(code) >= sizeof(m.code)) {
		snprintf(why, whylen, "health alert %s is not currently raised",
			 code);
		return -ENOENT;
	}
	if (!sticky && !q) {
		snprintf(why, whylen, "health alert %s is not currently raised",
			 code);
		return -ENOENT;
	}
	memset(&m, 0, sizeof(m));
	snprintf(m.code, sizeof(m.code), "%s", code);
	m.ttl = ttl_secs ? (int64_t)time(NULL) + ttl_secs : 0;
	m.sticky = sticky;
	if (q) {
		snprintf(m.summary, sizeof(m.summary), "%s", q->summary);
		m.count = q->count;
	}
	pthread_mutex_lock(&c->config_lock);
	load(c);
	i = find(c, code);
	if (i < 0 && c->nmutes >= CFS_HEALTH_MAX_MUTES) {
		pthread_mutex_unlock(&c->config_lock);
		snprintf(why, whylen, "too many mutes (%d)",
			 CFS_HEALTH_MAX_MUTES);
		return -ENOSPC;
	}
	if (i < 0)
		i = c->nmutes++;
	c->mutes[i] = m;
	r = persist(c);
	pthread_mutex_unlock(&c->config_lock);
	if (r)
		snprintf(why, whylen, "%s/health_mutes.json: %s", c->dir,
			 cfs_strerror(r));
	return r;
}

int cfs_health_unmute(cfs_cluster *c, const char *code)
{
	int r = 0, i;

	pthread_mutex_lock(&c->config_lock);
	load(c);
	if (!code) {
		c->nmutes = 0;
		r = persist(c);
	} else if ((i = find(c, code)) >= 0) {
		drop(c, i);
		r = persist(c);
	}
	pthread_mutex_unlock(&c->config_lock);
	return r;
}

static int cmp_mute(const void *a, const void *b)
{
	return strcmp(((const struct cfs_health_mute *)a)->code,
		      ((const struct cfs_health_mute *)b)->code);
}

void health_apply_mutes(cfs_cluster *c, struct cfs_health *h)
{
	int64_t now = (int64_t)time(NULL);
	int changed = 0;

	h->now = now;
	pthread_mutex_lock(&c->config_lock);
	load(c);
	/* HealthMonitor::check_mutes */
	for (int i = 0; i < c->nmutes;) {
		struct cfs_health_mute *m = &c->mutes[i];
		const struct cfs_health_check *q = check_of(h, m->code);
		int gone = 0;

		if (m->ttl && m->ttl <= now) {
			cfs_log(CFS_LOG_INFO, "Health alert mute %s cleared "
				"(passed TTL)", m->code);
			gone = 1;
		} else if (!m->sticky && !q) {
			cfs_log(CFS_LOG_INFO, "Health alert mute %s cleared "
				"(health alert cleared)", m->code);
			gone = 1;
		} else if (!m->sticky && m->count) {
			if (q->count > m->count) {
				cfs_log(CFS_LOG_INFO, "Health alert mute %s "
					"cleared (count increased from %lld to "
					"%lld)", m->code, (long long)m->count,
					(long long)q->count);
				gone = 1;
			} else if (q->count < m->count) {
				m->count = q->count; /* ratchet down */
				changed = 1;
			}
		} else if (!m->sticky && strcmp(m->summary, q->summary)) {
			cfs_log(CFS_LOG_INFO, "Health alert mute %s cleared "
				"(summary changed)", m->code);
			gone = 1;
		}
		if (gone) {
			drop(c, i);
			changed = 1;
			continue;
		}
		i++;
	}
	if (changed && persist(c))
		cfs_log(CFS_LOG_WARN, "health mutes: cannot write %s/"
			"health_mutes.json", c->dir);
	memcpy(h->mutes, c->mutes, sizeof(h->mutes[0]) * (size_t)c->nmutes);
	h->nmutes = c->nmutes;
	pthread_mutex_unlock(&c->config_lock);
	/* by code, as the monitor's std::map lists them */
	qsort(h->mutes, (size_t)h->nmutes, sizeof(h->mutes[0]), cmp_mute);
	/* Monitor::get_health_status: the worst check not muted */
	h->status = CFS_HEALTH_OK;
	for (int i = 0; i < h->nchecks; i++) {
		struct cfs_health_check *k = &h->checks[i];

		for (int j = 0; j < h->nmutes; j++)
			if (!strcmp(h->mutes[j].code, k->code))
				k->muted = 1;
		if (!k->muted && k->severity > h->status)
			h->status = k->severity;
	}
}

/* Ceph's parse_timespan (common/ceph_time.cc): terms of a number and a
 * unit ("1h30m"); a number without a unit is seconds */
int cfs_parse_timespan(const char *s, int64_t *secs)
{
	static const struct {
		const char *u;
		int64_t mult;
	} units[] = {
		{ "s", 1 },	   { "sec", 1 },       { "second", 1 },
		{ "seconds", 1 },  { "m", 60 },	       { "min", 60 },
		{ "minute", 60 },  { "minutes", 60 },  { "h", 3600 },
		{ "hr", 3600 },	   { "hour", 3600 },   { "hours", 3600 },
		{ "d", 86400 },	   { "day", 86400 },   { "days", 86400 },
		{ "w", 604800 },   { "wk", 604800 },   { "week", 604800 },
		{ "weeks", 604800 }, { "mo", 2592000 }, { "month", 2592000 },
		{ "months", 2592000 }, { "y", 31536000 }, { "yr", 31536000 },
		{ "year", 31536000 }, { "years", 31536000 },
	};
	int64_t total = 0;
	const char *p = s;

	if (!s || !*s)
		return -EINVAL;
	while (*p) {
		char *end, unit[16];
		long long n;
		size_t k = 0;
		int found = 0;

		while (*p == ' ')
			p++;
		if (*p < '0' || *p > '9')
			return -EINVAL;
		errno = 0;
		n = strtoll(p, &end, 10);
		if (errno || n < 0 || n > 100LL * 31536000)
			return -EINVAL;
		p = end;
		while (*p == ' ')
			p++;
		while (*p >= 'a' && *p <= 'z' && k + 1 < sizeof(unit))
			unit[k++] = *p++;
		unit[k] = 0;
		if (!k) { /* no unit: seconds */
			total += n;
			continue;
		}
		for (size_t u = 0; u < sizeof(units) / sizeof(units[0]); u++)
			if (!strcmp(units[u].u, unit)) {
				total += n * units[u].mult;
				found = 1;
				break;
			}
		if (!found)
			return -EINVAL;
	}
	if (!total)
		return -EINVAL;
	*secs = total;
	return 0;
}
