/*
 * om_overrides.h - the osdmap entries `osdmap test-map-*` takes from
 * --overrides FILE (om_overrides.c).
 */
#ifndef CRUSHFS_OM_OVERRIDES_H
#define CRUSHFS_OM_OVERRIDES_H

#include <stdint.h>

#include "cli.h"
#include "placement.h"

struct om_overrides;

/* Read FILE for a pool of pg_num PGs and max_osd OSDs: 0, or 1 after one
 * error line "FILE:LINE: what". */
int om_overrides_load(struct cli_ctx *ctx, const char *path, int64_t pool,
		      uint32_t pg_num, int max_osd, struct om_overrides **out);
void om_overrides_free(struct om_overrides *ov);
/* The PG's entries (none when ov is NULL). */
void om_overrides_pg(const struct om_overrides *ov, uint32_t ps,
		     struct pl_pg_overrides *o);
/* Primary affinity per OSD (max_osd entries), NULL when ov is NULL. */
const uint32_t *om_overrides_affinity(const struct om_overrides *ov);

#endif
