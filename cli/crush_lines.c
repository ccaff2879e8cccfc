/*
 * crush_lines.c - `crush test`'s per-input lines (see crush_lines.h).
 *
 * A million inputs are a million lines: printed with fprintf they took
 * longer than mapping them (perf: __vfprintf_internal 10% of a 1-core
 * --show-mappings run before the mapper got faster, all of it on the one
 * thread that prints).
 */
#include <string.h>

#include "crush_lines.h"
#include "placement.h"

/* "-2147483648": 11 characters */
#define INT_CHARS 11

size_t crush_lines_max(int nr)
{
	size_t vec = 2 + (size_t)(nr > 0 ? nr : 0) * (INT_CHARS + 1);

	return sizeof("CRUSH rule  x  \n") + 2 * INT_CHARS + vec +
	       sizeof("bad mapping rule  x  num_rep  result \n") +
	       3 * INT_CHARS + vec;
}

/* %d */
static char *put_int(char *p, int v)
{
	char tmp[INT_CHARS];
	unsigned int u = v < 0 ? 0u - (unsigned int)v : (unsigned int)v;
	int i = INT_CHARS;

	do {
		tmp[--i] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		tmp[--i] = '-';
	memcpy(p, tmp + i, (size_t)(INT_CHARS - i));
	return p + (INT_CHARS - i);
}

static char *put_str(char *p, const char *s, size_t n)
{
	memcpy(p, s, n);
	return p + n;
}

/* cli_put_int_vec's "[a,b,c]" */
static char *put_vec(char *p, const int *v, int n)
{
	*p++ = '[';
	for (int i = 0; i < n; i++) {
		if (i)
			*p++ = ',';
		p = put_int(p, v[i]);
	}
	*p++ = ']';
	return p;
}

size_t crush_lines_put(char *buf, int rule, int x, int nr, const int *res,
		       int n, int mappings, int bad)
{
	char *p = buf;

	if (mappings) {
		p = put_str(p, "CRUSH rule ", 11);
		p = put_int(p, rule);
		p = put_str(p, " x ", 3);
		p = put_int(p, x);
		*p++ = ' ';
		p = put_vec(p, res, n);
		*p++ = '\n';
	}
	if (bad) {
		int is_bad = n != nr;

		for (int i = 0; i < n && !is_bad; i++)
			is_bad = res[i] == PL_ITEM_NONE;
		if (is_bad) {
			p = put_str(p, "bad mapping rule ", 17);
			p = put_int(p, rule);
			p = put_str(p, " x ", 3);
			p = put_int(p, x);
			p = put_str(p, " num_rep ", 9);
			p = put_int(p, nr);
			p = put_str(p, " result ", 8);
			p = put_vec(p, res, n);
			*p++ = '\n';
		}
	}
	return (size_t)(p - buf);
}
