/*
 * ln.c - exports straw2's logarithm (ln_i.h) for tests and tools.
 */
#include "crush_i.h"
#include "ln_i.h"

uint64_t pl_crush_ln(unsigned int xin)
{
	return crush_ln(xin);
}
