/*
 * om.h - the osdmap `osdmap test-map-*` and `osdmap upmap` model: a crush
 * map, one replicated pool, every OSD up and in (osdmaptool --mark-up-in);
 * cmd_osdmap.c.
 */
#ifndef CRUSHFS_OM_H
#define CRUSHFS_OM_H

#include <stdint.h>

#include "cli.h"
#include "placement.h"

struct om_opts {
	const char *name;
	const char *crush;
	const char *overrides; /* --overrides FILE */
	int64_t pool;
	int pool_set;
	int pg_num, pgp_num, size;
	/* osdmap upmap (osdmaptool --upmap-max/-deviation) */
	int upmap_max, upmap_deviation, balancer_opt;
	uint64_t upmap_seed;
};

/* The simulated osdmap: the crush map plus OSD existence and weights. */
struct om {
	pl_map *m;
	int max_osd;
	unsigned char *exists;
	uint32_t *osd_weight; /* all IN after --mark-up-in */
	int32_t *crush_w;     /* first-bucket crush weight, -ENOENT if none */
	int rule;             /* the pool's rule, or -1 */
	int size;
	void *work;
	int *out, outcap;
	struct om_overrides *ov; /* --overrides, or NULL */
};

/* want_name: 1 an object NAME argument, 2 the --upmap-* options, 0
 * neither.  0, 1 (error line written) or 2 (help printed). */
int om_parse_opts(struct cli_ctx *ctx, int argc, char **argv, int want_name,
		  struct om_opts *o);
int om_load(struct cli_ctx *ctx, const struct om_opts *o, struct om *om);
void om_free(struct om *om);
/* the PG's acting set in om->out (length returned), its primary */
int om_pg_to_acting(struct om *om, int64_t pool, uint32_t ps,
		    uint32_t pgp_num, int *primary);

#endif
