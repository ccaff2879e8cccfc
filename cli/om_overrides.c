/*
 * om_overrides.c - the osdmap entries `osdmap test-map-*` can be given
 * (--overrides FILE): pg_upmap, pg_upmap_items, pg_temp, primary_temp and
 * primary affinity, written as the Ceph commands that set them, one a
 * line ("ceph" optional, '#' comments):
 *
 *   osd pg-upmap 1.7 3 5 9
 *   osd pg-upmap-items 1.7 3 5 [FROM TO...]
 *   osd pg-temp 1.7 3 5
 *   osd primary-temp 1.7 5
 *   osd primary-affinity osd.3 0.5
 *
 * osdmaptool maps with whatever an osdmap holds, so the entries are taken
 * as they are (the monitor's checks are the cluster's business: `crushfs
 * osd pg-upmap`); only their syntax is checked, with FILE:LINE on error.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "om_overrides.h"

#define MAX_IDS PL_MAX_UP_ACTING

struct entry {
	uint32_t ps;
	int nup, up[MAX_IDS];
	int nitems, items[MAX_IDS][2];
	int ntemp, temp[MAX_IDS];
	int primary_temp;
};

struct om_overrides {
	struct entry *e;
	int n, cap;
	uint32_t *affinity; /* max_osd entries, or NULL */
	int max_osd;
};

static struct entry *slot(struct om_overrides *ov, uint32_t ps)
{
	for (int i = 0; i < ov->n; i++)
		if (ov->e[i].ps == ps)
			return &ov->e[i];
	if (ov->n == ov->cap) {
		int cap = ov->cap ? ov->cap * 2 : 16;
		struct entry *n = realloc(ov->e, sizeof(*n) * (size_t)cap);

		if (!n)
			return NULL;
		ov->e = n;
		ov->cap = cap;
	}
	memset(&ov->e[ov->n], 0, sizeof(ov->e[0]));
	ov->e[ov->n].ps = ps;
	ov->e[ov->n].primary_temp = -1;
	return &ov->e[ov->n++];
}

static int parse_id(const char *s, int *out)
{
	char *end;
	long v;

	if (!strncmp(s, "osd.", 4))
		s += 4;
	errno = 0;
	v = strtol(s, &end, 10);
	if (!*s || *end || errno || v < INT_MIN || v > INT_MAX)
		return -1;
	*out = (int)v;
	return 0;
}

void om_overrides_free(struct om_overrides *ov)
{
	if (!ov)
		return;
	free(ov->e);
	free(ov->affinity);
	free(ov);
}

/* one line's words: 0, or an error message in why */
static int apply_line(struct om_overrides *ov, char **w, int nw,
		      int64_t pool, uint32_t pg_num, char *why, size_t wl)
{
	const char *cmd;
	struct entry *e;
	char *end;
	long long pid;
	unsigned long ps;
	int ids[MAX_IDS * 2], n;

	if (nw && !strcmp(w[0], "ceph")) {
		w++;
		nw--;
	}
	if (nw < 3 || strcmp(w[0], "osd")) {
		snprintf(why, wl, "expected 'osd pg-upmap|pg-upmap-items|"
			 "pg-temp|primary-temp|primary-affinity ...'");
		return -1;
	}
	cmd = w[1];
	if (!strcmp(cmd, "primary-affinity")) {
		double a;
		int osd;

		if (nw != 4 || parse_id(w[2], &osd) || osd < 0 ||
		    osd >= ov->max_osd) {
			snprintf(why, wl, "primary-affinity needs an OSD of "
				 "the map (0..%d) and a weight", ov->max_osd - 1);
			return -1;
		}
		a = strtod(w[3], &end);
		if (*end || !(a >= 0 && a <= 1)) {
			snprintf(why, wl, "primary-affinity weight '%s' is not "
				 "in [0, 1]", w[3]);
			return -1;
		}
		/* OSDMonitor: (int)(CEPH_OSD_MAX_PRIMARY_AFFINITY * w) */
		ov->affinity[osd] = (uint32_t)(int)((double)0x10000 * a);
		return 0;
	}
	pid = strtoll(w[2], &end, 10);
	if (end == w[2] || *end != '.' || pid != pool) {
		snprintf(why, wl, "'%s' is not a pg of pool %" PRId64, w[2],
			 pool);
		return -1;
	}
	ps = strtoul(end + 1, &end, 16);
	if (*end || ps >= pg_num) {
		snprintf(why, wl, "pg %s does not exist (pg_num %u)", w[2],
			 pg_num);
		return -1;
	}
	n = nw - 3;
	if (n > (int)(sizeof(ids) / sizeof(ids[0]))) {
		snprintf(why, wl, "too many osd ids (%d)", n);
		return -1;
	}
	for (int i = 0; i < n; i++)
		if (parse_id(w[3 + i], &ids[i])) {
			snprintf(why, wl, "'%s' is not an osd id", w[3 + i]);
			return -1;
		}
	e = slot(ov, (uint32_t)ps);
	if (!e) {
		snprintf(why, wl, "out of memory");
		return -1;
	}
	if (!strcmp(cmd, "pg-upmap") && n >= 1 && n <= MAX_IDS) {
		memcpy(e->up, ids, sizeof(int) * (size_t)n);
		e->nup = n;
	} else if (!strcmp(cmd, "pg-upmap-items") && n >= 2 && n % 2 == 0) {
		for (int i = 0; i < n / 2; i++) {
			e->items[i][0] = ids[2 * i];
			e->items[i][1] = ids[2 * i + 1];
		}
		e->nitems = n / 2;
	} else if (!strcmp(cmd, "pg-temp") && n >= 1 && n <= MAX_IDS) {
		memcpy(e->temp, ids, sizeof(int) * (size_t)n);
		e->ntemp = n;
	} else if (!strcmp(cmd, "primary-temp") && n == 1) {
		e->primary_temp = ids[0];
	} else {
		snprintf(why, wl, "'osd %s' with %d osd ids: expected pg-upmap "
			 "PGID OSD..., pg-upmap-items PGID FROM TO..., pg-temp "
			 "PGID OSD..., primary-temp PGID OSD", cmd, n);
		return -1;
	}
	return 0;
}

int om_overrides_load(struct cli_ctx *ctx, const char *path, int64_t pool,
		      uint32_t pg_num, int max_osd, struct om_overrides **out)
{
	struct om_overrides *ov = calloc(1, sizeof(*ov));
	FILE *f = fopen(path, "r");
	char line[4096], why[256];
	int lineno = 0;

	*out = NULL;
	if (!ov || !f) {
		int e = errno;

		om_overrides_free(ov);
		if (f)
			fclose(f);
		return cli_err(ctx, "%s: cannot read: %s", path,
			       strerror(ov ? e : ENOMEM));
	}
	ov->max_osd = max_osd;
	ov->affinity = malloc(sizeof(uint32_t) * (size_t)(max_osd > 0 ?
							  max_osd : 1));
	if (!ov->affinity) {
		fclose(f);
		om_overrides_free(ov);
		return cli_err(ctx, "out of memory");
	}
	for (int i = 0; i < max_osd; i++)
		ov->affinity[i] = 0x10000;
	while (fgets(line, sizeof(line), f)) {
		char *w[MAX_IDS * 2 + 8], *save = NULL, *t, *hash;
		int nw = 0;

		lineno++;
		if (!strchr(line, '\n') && !feof(f)) {
			fclose(f);
			om_overrides_free(ov);
			return cli_err(ctx, "%s:%d: line too long", path,
				       lineno);
		}
		hash = strchr(line, '#');
		if (hash)
			*hash = 0;
		for (t = strtok_r(line, " \t\r\n", &save); t;
		     t = strtok_r(NULL, " \t\r\n", &save)) {
			if (nw == (int)(sizeof(w) / sizeof(w[0]))) {
				nw = -1;
				break;
			}
			w[nw++] = t;
		}
		if (nw == 0)
			continue;
		if (nw < 0) {
			snprintf(why, sizeof(why), "too many words");
		} else if (!apply_line(ov, w, nw, pool, pg_num, why,
				       sizeof(why))) {
			continue;
		}
		fclose(f);
		om_overrides_free(ov);
		return cli_err(ctx, "%s:%d: %s", path, lineno, why);
	}
	if (ferror(f)) {
		fclose(f);
		om_overrides_free(ov);
		return cli_err(ctx, "%s: cannot read: %s", path, strerror(EIO));
	}
	fclose(f);
	*out = ov;
	return 0;
}

void om_overrides_pg(const struct om_overrides *ov, uint32_t ps,
		     struct pl_pg_overrides *o)
{
	memset(o, 0, sizeof(*o));
	o->primary_temp = -1;
	if (!ov)
		return;
	for (int i = 0; i < ov->n; i++) {
		const struct entry *e = &ov->e[i];

		if (e->ps != ps)
			continue;
		o->upmap = e->up;
		o->nupmap = e->nup;
		o->items = (const int(*)[2])e->items;
		o->nitems = e->nitems;
		o->temp = e->temp;
		o->ntemp = e->ntemp;
		o->primary_temp = e->primary_temp;
		return;
	}
}

const uint32_t *om_overrides_affinity(const struct om_overrides *ov)
{
	return ov ? ov->affinity : NULL;
}
