/*
 * fuzz_cluster_json.c - libFuzzer harness for the cluster.json loader.
 *
 * Each input is a cluster.json.  It goes through what cfs_cluster_open
 * does with the file's bytes (osdsim/cluster.c): osdmap_from_json, then
 * osdmap_finish (the PG table, rule shares).  A refusal must be one line
 * naming the file.  An accepted map must be written back by osdmap_to_json
 * (J1) into a file that loads again, as every osdmap change does
 * (osdmap_persist), and from then on write back byte-identical (J2 == J3).
 * J1 and J2 may differ where the crush map's three-decimal weights were
 * rounded on the first trip (fuzz_crushmap.c checks that part).
 *
 * Built only with -DCRUSHFS_FUZZ=ON and clang (scripts/fuzz.sh).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_crush_cost.h"
#include "osdsim_i.h"
#include "placement.h"

/* a big pg_num only repeats the same mapping code more often */
#define MAX_PGS 1024

static void die(const char *what, const char *err)
{
	fprintf(stderr, "fuzz_cluster_json: %s%s%s\n", what, err ? ": " : "",
		err ? err : "");
	abort();
}

static int cheap_to_map(const struct cfs_osdmap *m)
{
	return m->pool.pg_num <= MAX_PGS && fuzz_cheap_to_map(m->crush);
}

static void check_err(const char *err)
{
	if (strncmp(err, "cluster.json", 12) || strchr(err, '\n'))
		die("refusal is not one 'cluster.json...' line", err);
}

/* write m, load it back: the load must succeed */
static struct cfs_osdmap *trip(const struct cfs_osdmap *m, char **j,
			       size_t *l)
{
	struct cfs_osdmap *back = NULL;
	char err[1024] = "";

	if (osdmap_to_json(m, j, l))
		die("cannot write an accepted map", NULL);
	if (osdmap_from_json(*j, *l, "cluster.json", &back, err,
			     sizeof(err))) {
		fprintf(stderr, "---- written ----\n%s\n", *j);
		die("the written cluster.json does not load", err);
	}
	return back;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cfs_osdmap *m = NULL, *m2, *m3;
	char err[1024] = "", *j1 = NULL, *j2 = NULL, *j3 = NULL;
	size_t l1 = 0, l2 = 0, l3 = 0;
	int r;

	r = osdmap_from_json((const char *)data, size, "cluster.json", &m,
			     err, sizeof(err));
	if (r) {
		if (m)
			die("refused file with a map", err);
		if (r != -ENOMEM)
			check_err(err);
		return 0;
	}
	if (cheap_to_map(m)) {
		r = osdmap_finish(m);
		if (r && r != -ENOMEM)
			die("osdmap_finish failed", NULL);
	}
	m2 = trip(m, &j1, &l1);
	m3 = trip(m2, &j2, &l2);
	if (osdmap_to_json(m3, &j3, &l3))
		die("cannot write the reloaded map", NULL);
	if (l2 != l3 || memcmp(j2, j3, l2)) {
		fprintf(stderr, "---- written ----\n%s\n---- again ----\n%s\n",
			j2, j3);
		die("writing the reloaded map gives another file", NULL);
	}
	free(j1);
	free(j2);
	free(j3);
	osdmap_free(m3);
	osdmap_free(m2);
	osdmap_free(m);
	return 0;
}
