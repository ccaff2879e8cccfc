/*
 * base64.c - RFC 4648 base64, for binary data kept inside JSON (the exact
 * crush map in cluster.json).  Small enough that no library is worth a
 * dependency: jansson has none, and the crush map is its only user.
 */
#include <errno.h>
#include <stdlib.h>

#include "util.h"

static const char alphabet[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

char *cfs_b64_encode(const void *data, size_t len, size_t *outlen)
{
	const unsigned char *p = data;
	size_t n = (len + 2) / 3 * 4, o = 0;
	char *s = malloc(n + 1);

	if (!s)
		return NULL;
	for (size_t i = 0; i < len; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16;

		if (i + 1 < len)
			v |= (uint32_t)p[i + 1] << 8;
		if (i + 2 < len)
			v |= p[i + 2];
		s[o++] = alphabet[v >> 18];
		s[o++] = alphabet[(v >> 12) & 63];
		s[o++] = i + 1 < len ? alphabet[(v >> 6) & 63] : '=';
		s[o++] = i + 2 < len ? alphabet[v & 63] : '=';
	}
	s[o] = 0;
	if (outlen)
		*outlen = o;
	return s;
}

static int val(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

int cfs_b64_decode(const char *s, size_t len, void **out, size_t *outlen)
{
	unsigned char *b;
	size_t o = 0;

	if (len % 4)
		return -EINVAL;
	b = malloc(len / 4 * 3 + 1);
	if (!b)
		return -ENOMEM;
	for (size_t i = 0; i < len; i += 4) {
		int v[4], pad = 0;

		for (int k = 0; k < 4; k++) {
			if (s[i + k] == '=' && i + 4 == len && k >= 2) {
				v[k] = 0;
				pad++;
				continue;
			}
			v[k] = pad ? -1 : val(s[i + k]);
			if (v[k] < 0) {
				free(b);
				return -EINVAL;
			}
		}
		if (pad == 1 && s[i + 2] == '=') {
			free(b);
			return -EINVAL;
		}
		{
			uint32_t x = (uint32_t)v[0] << 18 | (uint32_t)v[1] << 12 |
				     (uint32_t)v[2] << 6 | (uint32_t)v[3];

			b[o++] = (unsigned char)(x >> 16);
			if (pad < 2)
				b[o++] = (unsigned char)(x >> 8);
			if (pad < 1)
				b[o++] = (unsigned char)x;
		}
	}
	*out = b;
	*outlen = o;
	return 0;
}
