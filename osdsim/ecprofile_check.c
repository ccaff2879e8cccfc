/*
 * ecprofile_check.c - what an erasure-code profile, a profile's name and
 * a pool's name must be, checked as Ceph 16.2 checks them, in one place
 * for `osd erasure-code-profile set`, `osd pool create ... erasure`,
 * `mkfs --from-ceph` and cluster.json (issue 21: k=-2, m=x or k=1000 were
 * taken, and the pool then failed with EIO at its first write).
 *
 * Ceph parses a profile in the plugin's init: ErasureCode::to_int takes
 * each integer with strict_strtol ("could not convert k=x to int"),
 * ErasureCode::sanity_check_k_m wants k >= 2 and m >= 1, and
 * ErasureCodeJerasureReedSolomonVandermonde::parse w in {8, 16, 32}.  The
 * monitor's `osd erasure-code-profile set` (OSDMonitor, 16.2) then parses
 * stripe_unit (strict_iecstrtoll), refuses one that the plugin would pad
 * ("stripe_unit N does not match ec profile alignment. Would be padded to
 * M") and, without --force, one that is not a multiple of 4096.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "osdmap.h"
#include "util.h"

/* crushfs's codec (objlayer/ec_codec.c, ISA-L over GF(2^8)): k + m
 * chunks at most, as EC_MAX_K/EC_MAX_M bound it there */
#define ECP_MAX_CHUNKS 32

static int why_fmt(char *why, size_t whylen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int why_fmt(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

void cfs_name_quote(const char *name, char *buf, size_t len)
{
	size_t o = 0;

	if (!len)
		return;
	for (const unsigned char *p = (const unsigned char *)name;
	     *p && o + 1 < len; p++) {
		if (*p < 0x20 || *p == 0x7f) {
			if (o + 5 > len)
				break;
			o += (size_t)snprintf(buf + o, len - o, "\\x%02x", *p);
		} else {
			buf[o++] = (char)*p;
		}
	}
	buf[o] = '\0';
}

int cfs_pool_name_check(const char *name, char *why, size_t whylen)
{
	char q[160];

	/* OSDMonitor::prepare_new_pool refuses only an empty name; a name
	 * with a control byte would break every one-line listing and
	 * error of crushfs (osd pool ls, osd dump, health detail) */
	if (!*name)
		return why_fmt(why, whylen, "pool name is empty");
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		if (*p < 0x20 || *p == 0x7f) {
			cfs_name_quote(name, q, sizeof(q));
			return why_fmt(why, whylen,
				       "pool name '%s' has a control "
				       "character (\\x%02x)", q, *p);
		}
	if (strlen(name) >= sizeof(((struct cfs_pool_info *)0)->name)) {
		cfs_name_quote(name, q, sizeof(q));
		return why_fmt(why, whylen, "pool name '%s' is too long (at "
			       "most %zu bytes)", q,
			       sizeof(((struct cfs_pool_info *)0)->name) - 1);
	}
	return 0;
}

int cfs_ec_profile_name_check(const char *name, char *why, size_t whylen)
{
	char q[160];

	/* MonCommands.h: "osd erasure-code-profile set
	 * name=name,type=CephString,goodchars=[A-Za-z0-9-_.]"; a pool
	 * keeps the name in 63 bytes */
	if (!*name)
		return why_fmt(why, whylen, "erasure code profile name is "
			       "empty");
	for (const char *p = name; *p; p++)
		if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
		      (*p >= '0' && *p <= '9') || *p == '-' || *p == '_' ||
		      *p == '.')) {
			cfs_name_quote(name, q, sizeof(q));
			return why_fmt(why, whylen,
				       "erasure code profile name '%s': "
				       "only [A-Za-z0-9-_.] (Ceph's goodchars)",
				       q);
		}
	if (strlen(name) >= sizeof(((struct cfs_pool_info *)0)->ec_profile))
		return why_fmt(why, whylen, "erasure code profile name '%.40s"
			       "...' is too long (at most %zu bytes)", name,
			       sizeof(((struct cfs_pool_info *)0)->ec_profile) -
				       1);
	return 0;
}

static const char *val(const char *const *keys, const char *const *vals,
		       int n, const char *key)
{
	const char *v = NULL;

	for (int i = 0; i < n; i++)
		if (!strcmp(keys[i], key))
			v = vals[i];
	return v;
}

/* ErasureCode::to_int: missing or empty takes the default; else the
 * whole value is a base-10 int (strict_strtol) */
static int to_int(const char *key, const char *v, const char *dflt,
		  long *out, char *why, size_t whylen)
{
	char q[80], *end;
	long l;

	if (!v || !*v)
		v = dflt;
	errno = 0;
	l = strtol(v, &end, 10);
	if (errno || end == v || *end || l < INT_MIN || l > INT_MAX) {
		cfs_name_quote(v, q, sizeof(q));
		return why_fmt(why, whylen, "could not convert %s=%s to int",
			       key, q);
	}
	*out = l;
	return 0;
}

static int is_true(const char *v)
{
	return v && (!strcmp(v, "true") || !strcmp(v, "yes"));
}

int cfs_ec_profile_check(const char *name, const char *const *keys,
			 const char *const *vals, int n, int how, char *why,
			 size_t whylen)
{
	const char *plugin = val(keys, vals, n, "plugin");
	const char *tech = val(keys, vals, n, "technique");
	const char *su_s = val(keys, vals, n, "stripe_unit");
	int jer, isa;
	long k, m, w = 8;
	uint64_t su, a;
	char q[80];

	if ((how & CFS_ECP_CEPH) &&
	    cfs_ec_profile_name_check(name, why, whylen))
		return -EINVAL;
	if (!plugin || !*plugin)
		plugin = "jerasure"; /* osd_pool_default_erasure_code_profile */
	jer = !strcmp(plugin, "jerasure");
	isa = !strcmp(plugin, "isa");
	if (!jer && !isa) {
		cfs_name_quote(plugin, q, sizeof(q));
		if (how & CFS_ECP_ENCODE)
			return why_fmt(why, whylen,
				       "failed to load plugin using profile: "
				       "plugin=%s (crushfs has jerasure and "
				       "isa)", q);
		/* lrc, shec, clay: their own rules, not modelled; a
		 * mapping still works, their k and m are integers */
		if (to_int("k", val(keys, vals, n, "k"), "2", &k, why,
			   whylen) ||
		    to_int("m", val(keys, vals, n, "m"), "2", &m, why, whylen))
			return -EINVAL;
		return 0;
	}
	/* crushfs's own defaults (objlayer/ec_io.c reads k and m so) */
	if (to_int("k", val(keys, vals, n, "k"), "2", &k, why, whylen) ||
	    to_int("m", val(keys, vals, n, "m"), "2", &m, why, whylen))
		return -EINVAL;
	/* ErasureCode::sanity_check_k_m */
	if (k < 2)
		return why_fmt(why, whylen, "k=%ld must be >= 2", k);
	if (m < 1)
		return why_fmt(why, whylen, "m=%ld must be >= 1", m);
	if (k + m > ECP_MAX_CHUNKS)
		return why_fmt(why, whylen, "k=%ld and m=%ld: crushfs's "
			       "Reed-Solomon (GF(2^8) Vandermonde) takes "
			       "k + m <= %d", k, m, ECP_MAX_CHUNKS);
	if (!tech || !*tech)
		tech = "reed_sol_van";
	if ((how & CFS_ECP_ENCODE) && strcmp(tech, "reed_sol_van")) {
		cfs_name_quote(tech, q, sizeof(q));
		return why_fmt(why, whylen, "technique=%s is not supported "
			       "(crushfs encodes reed_sol_van)", q);
	}
	if (jer && (how & (CFS_ECP_CEPH | CFS_ECP_ENCODE))) {
		const char *ws = val(keys, vals, n, "w");

		if (to_int("w", ws, "8", &w, why, whylen))
			return -EINVAL;
		if (w != 8 && w != 16 && w != 32) {
			cfs_name_quote(ws, q, sizeof(q));
			return why_fmt(why, whylen, "ReedSolomonVandermonde: "
				       "w=%s must be one of {8, 16, 32}", q);
		}
	}
	if (!su_s || !*su_s)
		return 0; /* osd_pool_erasure_code_stripe_unit: 4 KiB */
	cfs_name_quote(su_s, q, sizeof(q));
	if (cfs_parse_size(su_s, &su))
		return why_fmt(why, whylen, "could not parse stripe_unit '%s'",
			       q);
	if (su == 0)
		return why_fmt(why, whylen, "stripe_unit '%s' must be "
			       "positive", q);
	/* pg_pool_t::stripe_width (k x stripe_unit) is 32 bits */
	if (su > UINT32_MAX / (uint64_t)k)
		return why_fmt(why, whylen, "stripe_unit '%s': k x stripe_unit "
			       "is past a pool's 32-bit stripe_width", q);
	if (!(how & CFS_ECP_CEPH) || strcmp(tech, "reed_sol_van"))
		return 0;
	/* get_chunk_size(k x su) == su: isa aligns chunks to 32 bytes
	 * (EC_ISA_ADDRESS_ALIGNMENT), jerasure's reed_sol_van to w x 4
	 * (w x 16 with jerasure-per-chunk-alignment) */
	a = isa ? 32 : is_true(val(keys, vals, n,
				   "jerasure-per-chunk-alignment")) ?
		   (uint64_t)w * 16 :
		   (uint64_t)w * 4;
	if (su % a)
		return why_fmt(why, whylen, "stripe_unit %llu does not match "
			       "ec profile alignment. Would be padded to %llu",
			       (unsigned long long)su,
			       (unsigned long long)((su / a + 1) * a));
	if ((how & CFS_ECP_PERF) && su % 4096)
		return why_fmt(why, whylen, "stripe_unit %llu should be a "
			       "multiple of 4096 bytes for best performance "
			       "(--force overrides this check)",
			       (unsigned long long)su);
	return 0;
}
