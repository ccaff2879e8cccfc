/*
 * pmap.c - parallel batch mapping for `crush test` (see pmap.h).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmap.h"

#define PMAP_MAX_THREADS 16

struct pmap {
	const pl_map *m;
	const pl_choose_args *ca;
	int nthreads;
	void *work[PMAP_MAX_THREADS];
};

struct pmap *pmap_create(const pl_map *m, int result_max)
{
	struct pmap *p = calloc(1, sizeof(*p));
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	const char *env = getenv("CRUSHFS_THREADS");

	/* CRUSHFS_THREADS=N overrides (benchmarks compare one core too) */
	if (env && atoi(env) > 0)
		cpus = atoi(env);

	if (!p)
		return NULL;
	p->m = m;
	/* CrushTester maps with choose_args index 0, which falls back to
	 * the default set (checked against crushtool 16.2: --pool-id only
	 * changes the input x) */
	p->ca = pl_map_choose_args_for(m, 0);
	p->nthreads = cpus < 1 ? 1 : cpus > PMAP_MAX_THREADS ?
		PMAP_MAX_THREADS : (int)cpus;
	for (int i = 0; i < p->nthreads; i++) {
		size_t n = pl_work_size(m, result_max);

		p->work[i] = n ? malloc(n) : NULL;
		if (!p->work[i] || pl_work_init(m, p->work[i], result_max)) {
			pmap_destroy(p);
			return NULL;
		}
	}
	return p;
}

void pmap_destroy(struct pmap *p)
{
	if (!p)
		return;
	for (int i = 0; i < p->nthreads; i++)
		free(p->work[i]);
	free(p);
}

/* One batch: inputs are handed out PMAP_CHUNK at a time to whichever
 * thread asks next, so a thread the machine slows down (another process on
 * its core) takes fewer chunks instead of holding up the batch. */
struct run {
	struct pmap *p;
	int rule, nr, weight_max, count, nchunks;
	int64_t x0, pool_id;
	const uint32_t *weight;
	int *out, *n;
	pmap_post_fn post;
	void *post_arg;
	atomic_int next;
};

struct worker {
	struct run *run;
	void *work;
};

static void map_range(const struct run *r, void *work, int first, int count)
{
	int xs[64];

	/* pl_do_rule_batch draws several inputs side by side */
	for (int i = first; i < first + count; i += 64) {
		int k = first + count - i < 64 ? first + count - i : 64;

		for (int j = 0; j < k; j++) {
			uint32_t x = (uint32_t)(r->x0 + i + j);

			if (r->pool_id != -1)
				x = pl_hash32_2(x, (uint32_t)r->pool_id);
			xs[j] = (int)x;
		}
		pl_do_rule_batch(r->p->m, r->rule, xs, k,
				 r->out + (size_t)i * (size_t)r->nr, r->nr,
				 r->n + i, r->weight, r->weight_max, work,
				 r->p->ca);
	}
}

static void *map_chunks(void *arg)
{
	struct worker *w = arg;
	struct run *r = w->run;
	int c;

	while ((c = atomic_fetch_add(&r->next, 1)) < r->nchunks) {
		int first = c * PMAP_CHUNK;
		int count = r->count - first < PMAP_CHUNK ? r->count - first :
							    PMAP_CHUNK;

		map_range(r, w->work, first, count);
		if (r->post)
			r->post(r->post_arg, c, first, count);
	}
	return NULL;
}

int pmap_run(struct pmap *p, int rule, int64_t x0, int count, int nr,
	     const uint32_t *weight, int weight_max, int64_t pool_id,
	     int *out, int *n, pmap_post_fn post, void *post_arg)
{
	struct run r = { p, rule, nr, weight_max, count,
			 (count + PMAP_CHUNK - 1) / PMAP_CHUNK, x0, pool_id,
			 weight, out, n, post, post_arg, 0 };
	struct worker wk[PMAP_MAX_THREADS];
	pthread_t th[PMAP_MAX_THREADS];
	int started[PMAP_MAX_THREADS] = { 0 };
	int t = r.nchunks < p->nthreads ? r.nchunks : p->nthreads;

	for (int i = 0; i < t; i++)
		wk[i] = (struct worker){ &r, p->work[i] };
	/* this thread takes chunks too; a thread that cannot start is
	 * simply not there to take any */
	for (int i = 1; i < t; i++)
		started[i] = pthread_create(&th[i], NULL, map_chunks,
					    &wk[i]) == 0;
	map_chunks(&wk[0]);
	for (int i = 1; i < t; i++)
		if (started[i])
			pthread_join(th[i], NULL);
	return r.nchunks;
}

void pmap_choose_tries(const struct pmap *p, uint32_t *sum, int nsum)
{
	memset(sum, 0, sizeof(*sum) * (size_t)nsum);
	for (int i = 0; i < p->nthreads; i++) {
		int nt;
		const uint32_t *v = pl_work_choose_tries(p->work[i], &nt);

		for (int j = 0; j < nt && j < nsum; j++)
			sum[j] += v[j];
	}
}
