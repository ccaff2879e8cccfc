/*
 * pmap.h - map a batch of inputs with one rule on all cores.
 *
 * The map is immutable and each thread has its own workspace (placement.h
 * contract), so a batch splits into contiguous chunks mapped in parallel;
 * results land in caller arrays in input order, so output stays
 * byte-identical to a serial run.
 */
#ifndef CRUSHFS_PMAP_H
#define CRUSHFS_PMAP_H

#include <stdint.h>

#include "placement.h"

#define PMAP_BATCH 65536

struct pmap;

/* One thread per online CPU (or $CRUSHFS_THREADS); NULL when out of
 * memory. */
struct pmap *pmap_create(const pl_map *m, int result_max);
void pmap_destroy(struct pmap *p);
/*
 * Called on the thread that mapped chunk `chunk` (0, 1, ... in input
 * order: inputs first .. first+count-1 of the batch) right after mapping
 * it: work on the results that runs on every core (printing them).
 */
typedef void (*pmap_post_fn)(void *arg, int chunk, int first, int count);
/*
 * Map x = x0 .. x0+count-1 (count <= PMAP_BATCH) with rule `rule` and
 * `nr` results each: out[i * nr ...] and n[i] for input x0 + i.  With
 * pool_id != -1 the input is hashed with the pool id first (crushtool
 * --pool-id).  The batch is mapped PMAP_CHUNK inputs at a time; post (may
 * be NULL) runs for each chunk.  Returns the number of chunks.
 */
#define PMAP_CHUNK 2048
#define PMAP_MAX_CHUNKS (PMAP_BATCH / PMAP_CHUNK)
int pmap_run(struct pmap *p, int rule, int64_t x0, int count, int nr,
	     const uint32_t *weight, int weight_max, int64_t pool_id,
	     int *out, int *n, pmap_post_fn post, void *post_arg);
/* crushtool's retry histogram, summed over every thread's workspace. */
void pmap_choose_tries(const struct pmap *p, uint32_t *sum, int nsum);

#endif
