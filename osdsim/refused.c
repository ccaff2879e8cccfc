/*
 * refused.c - why a write got ENOSPC: the last write each OSD refused for
 * want of room, so that health can name the OSD behind every ENOSPC (issue
 * 10: "every ENOSPC has a visible cause").
 *
 * An OSD at or over full_ratio already shows as OSD_FULL.  One below it
 * refuses (policy osd) a write that would push it over: nothing in Ceph's
 * own checks explains that ENOSPC, so the refusal is kept here and health
 * shows it (OSD_TOO_FULL_FOR_WRITE) as long as the same write would still
 * be refused: deleting data, raising the capacity or the ratio clears it.
 *
 * Kept in memory and in DIR/refused.json (written atomically, at most once
 * per OSD per second during a storm of refusals), so that `health` after a
 * refused `rados put` of another process sees it too.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "osdsim_i.h"
#include "util.h"

static struct cfs_refused *slot(cfs_cluster *c, int osd, int create)
{
	struct cfs_refused *v;

	for (int i = 0; i < c->nrefused; i++)
		if (c->refused[i].osd == osd)
			return &c->refused[i];
	if (!create)
		return NULL;
	v = realloc(c->refused, sizeof(*v) * (size_t)(c->nrefused + 1));
	if (!v)
		return NULL;
	c->refused = v;
	v = &c->refused[c->nrefused++];
	memset(v, 0, sizeof(*v));
	v->osd = osd;
	return v;
}

/* Needs refused_lock. */
static int persist(cfs_cluster *c)
{
	json_t *root = json_object(), *arr = json_array();
	char path[PATH_MAX], *text;
	int r;

	if (!root || !arr) {
		json_decref(root);
		json_decref(arr);
		return -ENOMEM;
	}
	for (int i = 0; i < c->nrefused; i++) {
		const struct cfs_refused *x = &c->refused[i];

		json_array_append_new(
			arr, json_pack("{s:i, s:I, s:I, s:I, s:I, s:I, s:b}",
				       "osd", x->osd, "pool",
				       (json_int_t)x->pool, "ps",
				       (json_int_t)x->ps, "bytes",
				       (json_int_t)x->bytes, "used",
				       (json_int_t)x->used, "time",
				       (json_int_t)x->when, "disk", x->disk));
	}
	json_object_set_new(root, "refused", arr);
	text = json_dumps(root, JSON_INDENT(1));
	json_decref(root);
	if (!text)
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s/refused.json", c->dir);
	r = cfs_write_atomic(path, text, strlen(text));
	free(text);
	return r;
}

void cfs_osd_note_refused(cfs_cluster *c, int osd, int64_t pool,
			  uint32_t ps, uint64_t bytes)
{
	struct cfs_osd_usage u;
	struct cfs_refused *x;
	time_t now = time(NULL);
	int write, disk = 0;

	if (c->rdonly)
		return;
	cfs_osd_usage(c, osd, &u);
	{
		struct osd_store *s = store_get(c, osd);

		if (s) {
			pthread_mutex_lock(&s->lock);
			disk = s->refused_disk;
			/* what the filesystem lacked room for: this write
			 * and the others in flight on it */
			if (disk && s->refused_need > bytes)
				bytes = s->refused_need;
			pthread_mutex_unlock(&s->lock);
		}
	}
	pthread_mutex_lock(&c->refused_lock);
	x = slot(c, osd, 1);
	if (!x) {
		pthread_mutex_unlock(&c->refused_lock);
		return;
	}
	write = x->when != (int64_t)now || x->bytes != bytes ||
		x->disk != disk;
	x->disk = disk;
	x->pool = pool;
	x->ps = ps;
	x->bytes = bytes;
	x->used = u.used;
	x->when = (int64_t)now;
	if (write && persist(c))
		cfs_log(CFS_LOG_ERR, "cannot keep the refusal of osd.%d in "
			"%s/refused.json", osd, c->dir);
	pthread_mutex_unlock(&c->refused_lock);
}

int cfs_osd_refused(cfs_cluster *c, struct cfs_refused *out, int max)
{
	int n;

	pthread_mutex_lock(&c->refused_lock);
	n = c->nrefused < max ? c->nrefused : max;
	if (n > 0)
		memcpy(out, c->refused, sizeof(*out) * (size_t)n);
	pthread_mutex_unlock(&c->refused_lock);
	return n;
}

int refused_load(cfs_cluster *c, char *err, size_t errlen)
{
	char path[PATH_MAX];
	json_error_t je;
	json_t *root, *arr, *e;
	size_t i;

	snprintf(path, sizeof(path), "%s/refused.json", c->dir);
	root = json_load_file(path, 0, &je);
	if (!root) {
		FILE *f = fopen(path, "r");

		if (!f)
			return 0; /* nothing refused yet */
		fclose(f);
		json_error_line(err, errlen, path, je.line, je.column, je.text);
		return CFS_ECORRUPT;
	}
	arr = json_object_get(root, "refused");
	if (!json_is_array(arr)) {
		json_decref(root);
		snprintf(err, errlen, "%s: field 'refused' is missing", path);
		return CFS_ECORRUPT;
	}
	json_array_foreach(arr, i, e) {
		json_int_t osd, ps, bytes, used, when, pool;
		struct cfs_refused *x;
		json_t *jp = json_object_get(e, "pool");

		if (json_unpack(e, "{s:I, s:I, s:I, s:I, s:I}", "osd", &osd,
				"ps", &ps, "bytes", &bytes, "used", &used,
				"time", &when) ||
		    osd < 0 || osd >= CFS_MAX_OSD || ps < 0 ||
		    ps > UINT32_MAX || bytes < 0 || used < 0) {
			json_decref(root);
			snprintf(err, errlen, "%s: refused[%zu] is invalid",
				 path, i);
			return CFS_ECORRUPT;
		}
		x = slot(c, (int)osd, 1);
		if (!x) {
			json_decref(root);
			return -ENOMEM;
		}
		/* written before pools held objects: the data pool's */
		pool = json_is_integer(jp) ? json_integer_value(jp)
					   : c->pool_id;
		x->pool = (int64_t)pool;
		x->ps = (uint32_t)ps;
		x->bytes = (uint64_t)bytes;
		x->used = (uint64_t)used;
		x->when = (int64_t)when;
		/* written before the disk was a limit too: the OSD's */
		x->disk = json_is_true(json_object_get(e, "disk"));
	}
	json_decref(root);
	return 0;
}
