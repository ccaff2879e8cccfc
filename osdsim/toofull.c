/*
 * toofull.c - the PGs a rebalance had to leave because a backfill target
 * could not take their objects without crossing backfillfull_ratio:
 * Ceph's backfill_toofull (the target refuses the backfill reservation,
 * PG::is_backfill_toofull / tentative_backfill_full in 16.2).
 *
 * Each rebalance replaces the list (a PG it finished is off it); `pg ls`,
 * `status` and health show such a PG backfill_toofull (PG_BACKFILL_FULL)
 * for as long as its target would still refuse the same bytes, so more
 * capacity, a higher ratio or deleted data turn it back into
 * backfill_wait.  Kept in memory and in DIR/backfill_toofull.json (written
 * atomically), so that a `pg ls` after a `rebalance` of another process
 * sees it.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "osdsim_i.h"
#include "util.h"

/* Needs toofull_lock. */
static void load(cfs_cluster *c)
{
	char path[PATH_MAX];
	json_error_t je;
	json_t *root, *arr, *x;
	size_t i;

	if (c->toofull_loaded)
		return;
	c->toofull_loaded = 1;
	snprintf(path, sizeof(path), "%s/backfill_toofull.json", c->dir);
	root = json_load_file(path, 0, &je);
	arr = root ? json_object_get(root, "pgs") : NULL;
	if (!json_is_array(arr)) {
		/* absent: none; damaged: none either, the next rebalance
		 * writes it anew (it is a hint for display, not state) */
		json_decref(root);
		return;
	}
	c->toofull = calloc(json_array_size(arr) + 1, sizeof(*c->toofull));
	json_array_foreach(arr, i, x) {
		json_t *p = json_object_get(x, "pool"),
		       *s = json_object_get(x, "ps"),
		       *o = json_object_get(x, "osd"),
		       *b = json_object_get(x, "bytes");

		if (!c->toofull || !json_is_integer(p) || !json_is_integer(s) ||
		    !json_is_integer(o) || !json_is_integer(b) ||
		    json_integer_value(s) < 0 || json_integer_value(o) < 0 ||
		    json_integer_value(o) >= CFS_MAX_OSD ||
		    json_integer_value(b) < 0)
			continue;
		c->toofull[c->ntoofull++] = (struct cfs_toofull){
			json_integer_value(p),
			(uint32_t)json_integer_value(s),
			(int)json_integer_value(o),
			(uint64_t)json_integer_value(b)
		};
	}
	json_decref(root);
}

int cfs_toofull_set(cfs_cluster *c, const struct cfs_toofull *v, int n)
{
	json_t *root = json_object(), *arr = json_array();
	char path[PATH_MAX], *text;
	struct cfs_toofull *copy = NULL;
	int r;

	if (!root || !arr || (n > 0 && !(copy = malloc(sizeof(*v) * (size_t)n)))) {
		json_decref(root);
		json_decref(arr);
		return -ENOMEM;
	}
	for (int i = 0; i < n; i++)
		json_array_append_new(
			arr, json_pack("{s:I, s:I, s:i, s:I}", "pool",
				       (json_int_t)v[i].pool, "ps",
				       (json_int_t)v[i].ps, "osd", v[i].osd,
				       "bytes", (json_int_t)v[i].bytes));
	json_object_set_new(root, "pgs", arr);
	text = json_dumps(root, JSON_INDENT(1));
	json_decref(root);
	if (!text) {
		free(copy);
		return -ENOMEM;
	}
	snprintf(path, sizeof(path), "%s/backfill_toofull.json", c->dir);
	r = cfs_write_atomic(path, text, strlen(text));
	free(text);
	if (r) {
		free(copy);
		return r;
	}
	if (n > 0)
		memcpy(copy, v, sizeof(*v) * (size_t)n);
	pthread_mutex_lock(&c->toofull_lock);
	free(c->toofull);
	c->toofull = copy;
	c->ntoofull = n;
	c->toofull_loaded = 1;
	pthread_mutex_unlock(&c->toofull_lock);
	return 0;
}

int cfs_toofull_get(cfs_cluster *c, int64_t pool, uint32_t ps,
		    struct cfs_toofull *out)
{
	int found = 0;

	pthread_mutex_lock(&c->toofull_lock);
	load(c);
	for (int i = 0; i < c->ntoofull && !found; i++)
		if (c->toofull[i].pool == pool && c->toofull[i].ps == ps) {
			*out = c->toofull[i];
			found = 1;
		}
	pthread_mutex_unlock(&c->toofull_lock);
	return found;
}
