/*
 * fuzz_crush_cost.h - which crush maps the harnesses map.
 *
 * Ceph's mapper honours a map's retry counts (choose_total_tries,
 * set_choose_tries ...) and replica counts (`choose firstn 65535`) as
 * given: with too few usable devices it retries that often for every
 * input, and crushtool 16.2 then runs as long as asked (a 65535-replica
 * rule on 4 live OSDs: 39 s for 128 inputs in crushtool, 17 s here, same
 * result; 2e9 tries: both never finish).  That is Ceph's semantics, not a
 * bug, and not something to fuzz: such maps are parsed, printed and
 * loaded, but not mapped.  Nor are maps whose size alone makes mapping
 * costly (a decoded max_devices of 2^31: a weight per device).
 */
#ifndef CRUSHFS_FUZZ_CRUSH_COST_H
#define CRUSHFS_FUZZ_CRUSH_COST_H

#include "placement.h"

#define FUZZ_MAX_TRIES 200
#define FUZZ_MAX_NUMREP 64
#define FUZZ_MAX_DEVICES (1 << 20)
#define FUZZ_MAX_WORK (64u << 20)

static inline int fuzz_cheap_to_map(const pl_map *m)
{
	struct pl_tunables t;

	/* a decoded map may claim 2^31 devices: the caller's weight vector
	 * (crushtool's too) is then gigabytes, which is the input's cost,
	 * not a bug */
	if (pl_map_max_devices(m) > FUZZ_MAX_DEVICES ||
	    pl_work_size(m, 64) > FUZZ_MAX_WORK)
		return 0;
	pl_map_get_tunables(m, &t);
	if (t.choose_total_tries > FUZZ_MAX_TRIES ||
	    t.choose_local_tries > FUZZ_MAX_TRIES ||
	    t.choose_local_fallback_tries > FUZZ_MAX_TRIES)
		return 0;
	for (int r = 0; r < pl_map_max_rules(m); r++) {
		for (int s = 0; pl_map_rule_exists(m, r) &&
				s < pl_map_rule_len(m, r);
		     s++) {
			const struct pl_rule_step *st = pl_map_rule_step(m, r, s);

			switch (st->op) {
			case PL_RULE_SET_CHOOSE_TRIES:
			case PL_RULE_SET_CHOOSELEAF_TRIES:
			case PL_RULE_SET_CHOOSE_LOCAL_TRIES:
			case PL_RULE_SET_CHOOSE_LOCAL_FALLBACK_TRIES:
				if (st->arg1 > FUZZ_MAX_TRIES)
					return 0;
				break;
			case PL_RULE_CHOOSE_FIRSTN:
			case PL_RULE_CHOOSE_INDEP:
			case PL_RULE_CHOOSELEAF_FIRSTN:
			case PL_RULE_CHOOSELEAF_INDEP:
				if (st->arg1 > FUZZ_MAX_NUMREP)
					return 0;
				break;
			default:
				break;
			}
		}
	}
	return 1;
}

#endif
