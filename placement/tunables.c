/*
 * tunables.c - Ceph's named tunables profiles (CrushWrapper.h, v16.2).
 * Each later profile fixes a placement flaw of the one before while old
 * clients keep the old behaviour:
 *   argonaut/legacy: local retries, 19 total tries (bad with many failures)
 *   bobtail: 50 tries, no local retries, chooseleaf descends once
 *   firefly: chooseleaf_vary_r (less data moves when an OSD goes out)
 *   hammer:  straw2 buckets allowed
 *   jewel:   chooseleaf_stable (replicas after an out OSD do not move)
 * straw_calc_version is only set by legacy (0) and optimal/default (1); the
 * other profiles leave it as it was, as Ceph does.
 */
#include <errno.h>
#include <string.h>

#include "placement.h"

#define ALGS_LEGACY ((1u << PL_BUCKET_UNIFORM) | (1u << PL_BUCKET_LIST) | \
		     (1u << PL_BUCKET_STRAW))
#define ALGS_HAMMER (ALGS_LEGACY | (1u << PL_BUCKET_STRAW2))

int pl_tunables_profile(const char *name, struct pl_tunables *t)
{
	int level;

	if (!strcmp(name, "legacy") || !strcmp(name, "argonaut"))
		level = 0;
	else if (!strcmp(name, "bobtail"))
		level = 1;
	else if (!strcmp(name, "firefly"))
		level = 2;
	else if (!strcmp(name, "hammer"))
		level = 3;
	else if (!strcmp(name, "jewel") || !strcmp(name, "optimal") ||
		 !strcmp(name, "default"))
		level = 4;
	else
		return -EINVAL;

	if (level == 0) {
		t->choose_local_tries = 2;
		t->choose_local_fallback_tries = 5;
		t->choose_total_tries = 19;
		t->chooseleaf_descend_once = 0;
	} else {
		t->choose_local_tries = 0;
		t->choose_local_fallback_tries = 0;
		t->choose_total_tries = 50;
		t->chooseleaf_descend_once = 1;
	}
	t->chooseleaf_vary_r = level >= 2;
	t->chooseleaf_stable = level >= 4;
	t->allowed_bucket_algs = level >= 3 ? ALGS_HAMMER : ALGS_LEGACY;

	if (!strcmp(name, "legacy"))
		t->straw_calc_version = 0;
	else if (!strcmp(name, "optimal") || !strcmp(name, "default"))
		t->straw_calc_version = 1;
	return 0;
}
