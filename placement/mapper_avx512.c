/*
 * mapper_avx512.c - the mapping core of mapper.c compiled again with
 * AVX-512 (CMakeLists.txt); mapper.c's entries call it on CPUs that have
 * it.  Same source, same results: only the instructions differ (the
 * speculative hash pass of spec_i.h, 16 items per instruction: about 10%
 * of a 1M-mapping bench/crush_bench.sh run).
 */
#define PL_MAPPER_AVX512 1
#include "mapper.c"
