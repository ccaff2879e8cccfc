/*
 * size.c - human sizes: parsing "1.5G" and printing like Ceph's byte_u_t
 * (src/include/types.h format_u, Ceph 16.2), so `osd df` columns read as
 * Ceph's do ("1.0 GiB", "512 MiB", "0 B").
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

int cfs_parse_size(const char *s, uint64_t *out)
{
	const char *p = s;
	uint64_t ip = 0, frac_num = 0, frac_den = 1, mult = 1;
	int digits = 0;

	if (!s)
		return -EINVAL;
	while (isdigit((unsigned char)*p)) {
		if (ip > (UINT64_MAX - 9) / 10)
			return -ERANGE;
		ip = ip * 10 + (uint64_t)(*p - '0');
		p++;
		digits++;
	}
	if (*p == '.') {
		p++;
		while (isdigit((unsigned char)*p)) {
			if (frac_den < 1000000000000ULL) {
				frac_num = frac_num * 10 + (uint64_t)(*p - '0');
				frac_den *= 10;
			}
			p++;
			digits++;
		}
	}
	if (!digits)
		return -EINVAL;
	switch (toupper((unsigned char)*p)) {
	case '\0':
		break;
	case 'K':
		mult = 1ULL << 10;
		break;
	case 'M':
		mult = 1ULL << 20;
		break;
	case 'G':
		mult = 1ULL << 30;
		break;
	case 'T':
		mult = 1ULL << 40;
		break;
	case 'P':
		mult = 1ULL << 50;
		break;
	case 'B':
		if (p[1] != '\0')
			return -EINVAL;
		break;
	default:
		return -EINVAL;
	}
	if (*p && toupper((unsigned char)*p) != 'B') {
		p++;
		/* accept "K", "KB", "KiB" */
		if (*p == 'i')
			p++;
		if (*p == 'B' || *p == 'b')
			p++;
		if (*p)
			return -EINVAL;
	}
	if (ip > UINT64_MAX / mult)
		return -ERANGE;
	{
		uint64_t v = ip * mult;
		/* fraction: frac_num/frac_den * mult, rounded down */
		long double f = (long double)frac_num / (long double)frac_den *
				(long double)mult;

		if (frac_num && mult == 1)
			return -EINVAL; /* "1.5" bytes */
		if ((long double)UINT64_MAX - (long double)v < f)
			return -ERANGE;
		v += (uint64_t)f;
		*out = v;
	}
	return 0;
}

const char *cfs_format_size(uint64_t bytes, char *buf, size_t len)
{
	static const char *const u[] = { " B",   " KiB", " MiB", " GiB",
					 " TiB", " PiB", " EiB" };
	uint64_t n = bytes;
	int index = 0;

	while (n >= 1024 && index < 6) {
		n /= 1024;
		index++;
	}
	if (index == 0 || bytes % (1ULL << (10 * index)) == 0) {
		snprintf(buf, len, "%" PRIu64 "%s", n, u[index]);
	} else {
		/* Ceph tries two, one, then zero decimals and keeps the first
		 * that fits in 7 characters including the unit. */
		double v = (double)bytes / (double)(1ULL << (10 * index));
		char tmp[64];

		for (int i = 2; i >= 0; i--) {
			int w = snprintf(tmp, sizeof(tmp), "%.*f%s", i, v,
					 u[index]);

			if (w <= 7 || i == 0)
				break;
		}
		snprintf(buf, len, "%s", tmp);
	}
	return buf;
}
