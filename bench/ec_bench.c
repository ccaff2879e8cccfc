/*
 * ec_bench.c - the erasure-code library choice, measured: Reed-Solomon
 * (Vandermonde) encode and decode of k+m shards with ISA-L
 * (ec_encode_data, Ceph's isa plugin) and with jerasure + gf-complete
 * (jerasure_matrix_encode/decode over reed_sol_vandermonde_coding_matrix,
 * Ceph's default jerasure plugin, technique reed_sol_van), on the same
 * buffers, checking that both decode back to the data.
 *
 *   cc -O2 -I/usr/include/jerasure -o ec_bench bench/ec_bench.c -lisal \
 *      -lJerasure -lgf_complete
 *   ./ec_bench [k m [chunk_bytes [MiB]]]      (default 4 2 65536 1024)
 *
 * Prints MiB/s of data encoded and decoded (two shards lost) for each
 * library and the ratio isa/jerasure.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <isa-l/erasure_code.h>
#include <jerasure.h>
#include <reed_sol.h>

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	int k = argc > 1 ? atoi(argv[1]) : 4, m = argc > 2 ? atoi(argv[2]) : 2;
	size_t chunk = argc > 3 ? strtoul(argv[3], NULL, 10) : 65536;
	size_t mib = argc > 4 ? strtoul(argv[4], NULL, 10) : 1024;
	size_t rounds = mib * 1048576 / (chunk * (size_t)k);
	unsigned char *data[32], *coding[32], *isa_par[32], *dec[32];
	unsigned char a[32 * 32], tables[32 * 32 * 32], da[32 * 32],
		inv[32 * 32], dtab[32 * 32 * 32], *src[32];
	int *matrix, erased[32] = { 0 }, erasures[3];
	double t0, e_isa, e_jer, d_isa, d_jer;

	if (k < 2 || m < 1 || k + m > 32 || chunk % 64 || !rounds) {
		fprintf(stderr, "usage: ec_bench [k m [chunk [MiB]]]\n");
		return 2;
	}
	srand(1);
	for (int i = 0; i < k + m; i++) {
		data[i] = aligned_alloc(64, chunk);
		coding[i] = aligned_alloc(64, chunk);
		isa_par[i] = aligned_alloc(64, chunk);
		dec[i] = aligned_alloc(64, chunk);
		for (size_t b = 0; b < chunk; b++)
			data[i][b] = (unsigned char)rand();
	}
	/* ISA-L: Vandermonde generator, as Ceph's isa plugin (reed_sol_van) */
	gf_gen_rs_matrix(a, k + m, k);
	ec_init_tables(k, m, &a[k * k], tables);
	t0 = now();
	for (size_t r = 0; r < rounds; r++)
		ec_encode_data((int)chunk, k, m, tables, data, isa_par);
	e_isa = now() - t0;

	/* jerasure, w = 8 as Ceph's default */
	matrix = reed_sol_vandermonde_coding_matrix(k, m, 8);
	t0 = now();
	for (size_t r = 0; r < rounds; r++)
		jerasure_matrix_encode(k, m, 8, matrix, (char **)data,
				       (char **)coding, (int)chunk);
	e_jer = now() - t0;

	/* decode with data shards 0 and 1 lost (the worst case for both) */
	erasures[0] = 0;
	erasures[1] = m > 1 ? 1 : -1;
	erasures[2] = -1;
	erased[0] = 1;
	if (m > 1)
		erased[1] = 1;
	{
		int nsrc = 0, nerr = m > 1 ? 2 : 1;

		/* ISA-L: invert the rows of the surviving shards */
		for (int i = 0; i < k + m && nsrc < k; i++)
			if (!erased[i]) {
				memcpy(&da[nsrc * k], &a[i * k], (size_t)k);
				src[nsrc++] = i < k ? data[i] : isa_par[i - k];
			}
		gf_invert_matrix(da, inv, k);
		for (int e = 0; e < nerr; e++)
			memcpy(&da[e * k], &inv[erasures[e] * k], (size_t)k);
		ec_init_tables(k, nerr, da, dtab);
		t0 = now();
		for (size_t r = 0; r < rounds; r++)
			ec_encode_data((int)chunk, k, nerr, dtab, src, dec);
		d_isa = now() - t0;
		for (int e = 0; e < nerr; e++)
			if (memcmp(dec[e], data[erasures[e]], chunk)) {
				fprintf(stderr, "isa-l decode mismatch\n");
				return 1;
			}
	}
	{
		char *dp[32], *cp[32];

		for (int i = 0; i < k; i++) {
			dp[i] = (char *)dec[i];
			memcpy(dec[i], data[i], chunk);
		}
		for (int i = 0; i < m; i++)
			cp[i] = (char *)coding[i];
		t0 = now();
		for (size_t r = 0; r < rounds; r++)
			if (jerasure_matrix_decode(k, m, 8, matrix, 1, erasures,
						   dp, cp, (int)chunk)) {
				fprintf(stderr, "jerasure decode failed\n");
				return 1;
			}
		d_jer = now() - t0;
		for (int i = 0; i < k; i++)
			if (memcmp(dec[i], data[i], chunk)) {
				fprintf(stderr, "jerasure decode mismatch\n");
				return 1;
			}
	}
	for (int i = 0; i < m; i++)
		if (memcmp(coding[i], isa_par[i], chunk))
			printf("note: parity bytes differ between the libraries "
			       "(different Vandermonde constructions)\n");
	printf("k=%d m=%d chunk=%zu data=%zu MiB\n", k, m, chunk, mib);
	printf("%-10s %12s %12s\n", "", "encode MiB/s", "decode MiB/s");
	printf("%-10s %12.0f %12.0f\n", "isa-l", (double)mib / e_isa,
	       (double)mib / d_isa);
	printf("%-10s %12.0f %12.0f\n", "jerasure", (double)mib / e_jer,
	       (double)mib / d_jer);
	printf("ratio isa-l/jerasure: encode %.2fx, decode %.2fx\n",
	       e_jer / e_isa, d_jer / d_isa);
	free(matrix);
	return 0;
}
