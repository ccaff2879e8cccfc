/*
 * mapper_avx2.c - the mapping core of mapper.c compiled again with -mavx2
 * (CMakeLists.txt); mapper.c's pl_do_rule_args calls it on CPUs with AVX2.
 * Same source, same results: only the instructions differ.
 */
#define PL_MAPPER_AVX2 1
#include "mapper.c"
