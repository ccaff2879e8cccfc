/*
 * pmap.c - parallel batch mapping for `crush test` (see pmap.h).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmap.h"

#define PMAP_MAX_THREADS PMAP_MAX_SLICES
/* below this a batch is not worth a thread */
#define PMAP_MIN_SLICE 2048

struct pmap {
	const pl_map *m;
	const pl_choose_args *ca;
	int nthreads;
	void *work[PMAP_MAX_THREADS];
};

struct slice {
	struct pmap *p;
	void *work;
	int rule, nr, weight_max;
	int64_t x0, pool_id;
	int count;
	const uint32_t *weight;
	int *out, *n;
	int index, first;
	pmap_post_fn post;
	void *post_arg;
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

static void *map_slice(void *arg)
{
	struct slice *s = arg;
	int xs[64];

	/* pl_do_rule_batch draws several inputs side by side */
	for (int i = 0; i < s->count; i += 64) {
		int k = s->count - i < 64 ? s->count - i : 64;

		for (int j = 0; j < k; j++) {
			uint32_t x = (uint32_t)(s->x0 + i + j);

			if (s->pool_id != -1)
				x = pl_hash32_2(x, (uint32_t)s->pool_id);
			xs[j] = (int)x;
		}
		pl_do_rule_batch(s->p->m, s->rule, xs, k,
				 s->out + (size_t)i * (size_t)s->nr, s->nr,
				 s->n + i, s->weight, s->weight_max, s->work,
				 s->p->ca);
	}
	if (s->post)
		s->post(s->post_arg, s->index, s->first, s->count);
	return NULL;
}

int pmap_run(struct pmap *p, int rule, int64_t x0, int count, int nr,
	     const uint32_t *weight, int weight_max, int64_t pool_id,
	     int *out, int *n, pmap_post_fn post, void *post_arg)
{
	struct slice sl[PMAP_MAX_THREADS];
	pthread_t th[PMAP_MAX_THREADS];
	int started[PMAP_MAX_THREADS] = { 0 };
	int t = count / PMAP_MIN_SLICE;
	int per, done = 0;

	if (t < 1)
		t = 1;
	if (t > p->nthreads)
		t = p->nthreads;
	per = (count + t - 1) / t;
	for (int i = 0; i < t; i++) {
		int c = count - done < per ? count - done : per;

		sl[i] = (struct slice){ p, p->work[i], rule, nr, weight_max,
					x0 + done, pool_id, c, weight,
					out + (size_t)done * (size_t)nr,
					n + done, i, done, post, post_arg };
		done += c;
	}
	/* slice 0 runs here; a thread that cannot start runs here too */
	for (int i = 1; i < t; i++)
		started[i] = pthread_create(&th[i], NULL, map_slice,
					    &sl[i]) == 0;
	map_slice(&sl[0]);
	for (int i = 1; i < t; i++) {
		if (started[i])
			pthread_join(th[i], NULL);
		else
			map_slice(&sl[i]);
	}
	return t;
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
