/*
 * upacting.c - from CRUSH's raw set to a PG's up and acting sets, as Ceph
 * 16.2's OSDMap::_pg_to_up_acting_osds: the osdmap's overrides (pg_upmap,
 * pg_upmap_items, pg_temp, primary_temp) and OSD states (exists, up,
 * reweight, primary affinity) applied in Ceph's order.  Pure computation
 * on caller memory, like the mapper.
 */
#include <string.h>

#include "crush_i.h"
#include "hash_i.h"

#define DEFAULT_AFFINITY 0x10000u /* CEPH_OSD_DEFAULT_PRIMARY_AFFINITY */

static int exists(const struct pl_osd_view *v, int osd)
{
	return osd >= 0 && osd < v->max_osd && v->exists[osd];
}

static int is_up(const struct pl_osd_view *v, int osd)
{
	return exists(v, osd) && v->up[osd];
}

/* a real OSD id marked out (osd_weight 0): an upmap may not target it */
static int is_out_target(const struct pl_osd_view *v, int osd)
{
	return osd != PL_ITEM_NONE && osd >= 0 && osd < v->max_osd &&
	       v->weight[osd] == 0;
}

/* _remove_nonexistent_osds */
static int remove_nonexistent(const struct pl_osd_view *v, int can_shift,
			      int *osds, int n)
{
	int k = 0;

	for (int i = 0; i < n; i++) {
		if (exists(v, osds[i]))
			osds[k++] = osds[i];
		else if (!can_shift)
			osds[k++] = PL_ITEM_NONE;
	}
	return k;
}

/* _apply_upmap */
int pl_pg_apply_upmap(const struct pl_osd_view *v,
		      const struct pl_pg_overrides *o, int *raw, int n)
{
	if (o->nupmap > 0) {
		int ok = 1;

		/* an explicit mapping onto an out OSD is ignored whole */
		for (int i = 0; i < o->nupmap; i++)
			if (is_out_target(v, o->upmap[i]))
				ok = 0;
		if (ok) {
			n = o->nupmap < PL_MAX_UP_ACTING ? o->nupmap :
							   PL_MAX_UP_ACTING;
			memcpy(raw, o->upmap, (size_t)n * sizeof(*raw));
		}
	}
	/* pairs apply one after the other (so no swap of two OSDs); a pair
	 * whose target is already in the set, or out, is skipped */
	for (int p = 0; p < o->nitems; p++) {
		int from = o->items[p][0], to = o->items[p][1];
		int present = 0, pos = -1;

		for (int i = 0; i < n; i++) {
			if (raw[i] == to) {
				present = 1;
				break;
			}
			if (raw[i] == from && pos < 0 && !is_out_target(v, to))
				pos = i;
		}
		if (!present && pos >= 0)
			raw[pos] = to;
	}
	return n;
}

/* _apply_primary_affinity: a fraction of an OSD's PGs, chosen by hashing
 * the placement seed with the OSD, pass the primary role on */
static void apply_primary_affinity(const struct pl_osd_view *v,
				   int can_shift, uint32_t seed, int *osds,
				   int n, int *primary)
{
	int any = 0, pos = -1;

	if (!v->primary_affinity)
		return;
	for (int i = 0; i < n; i++)
		if (osds[i] != PL_ITEM_NONE && exists(v, osds[i]) &&
		    v->primary_affinity[osds[i]] != DEFAULT_AFFINITY) {
			any = 1;
			break;
		}
	if (!any)
		return;
	for (int i = 0; i < n; i++) {
		int o = osds[i];
		uint32_t a;

		if (o == PL_ITEM_NONE)
			continue;
		a = v->primary_affinity[o];
		if (a < DEFAULT_AFFINITY &&
		    (crush_hash32_2(seed, (uint32_t)o) >> 16) >= a) {
			if (pos < 0)
				pos = i; /* a fallback if nobody else takes it */
		} else {
			pos = i;
			break;
		}
	}
	if (pos < 0)
		return;
	*primary = osds[pos];
	if (can_shift && pos > 0) {
		for (int i = pos; i > 0; i--)
			osds[i] = osds[i - 1];
		osds[0] = *primary;
	}
}

void pl_pg_up_acting(const struct pl_osd_view *v, int can_shift,
		     uint32_t pps, const int *rawin, int nraw,
		     const struct pl_pg_overrides *o, struct pl_up_acting *out)
{
	int raw[PL_MAX_UP_ACTING], n, temp_primary = -1;

	if (nraw > PL_MAX_UP_ACTING)
		nraw = PL_MAX_UP_ACTING;
	if (nraw < 0)
		nraw = 0;
	memcpy(raw, rawin, (size_t)nraw * sizeof(*raw));
	n = remove_nonexistent(v, can_shift, raw, nraw);
	if (o)
		n = pl_pg_apply_upmap(v, o, raw, n);

	/* _raw_to_up_osds */
	out->nup = 0;
	for (int i = 0; i < n; i++) {
		if (is_up(v, raw[i]))
			out->up[out->nup++] = raw[i];
		else if (!can_shift)
			out->up[out->nup++] = PL_ITEM_NONE;
	}
	/* _pick_primary: the first that is not a hole */
	out->up_primary = -1;
	for (int i = 0; i < out->nup; i++)
		if (out->up[i] != PL_ITEM_NONE) {
			out->up_primary = out->up[i];
			break;
		}
	apply_primary_affinity(v, can_shift, pps, out->up, out->nup,
			       &out->up_primary);

	/* _get_temp_osds: pg_temp minus OSDs that are gone or down */
	out->nacting = 0;
	if (o) {
		for (int i = 0; i < o->ntemp && out->nacting < PL_MAX_UP_ACTING;
		     i++) {
			if (is_up(v, o->temp[i]))
				out->acting[out->nacting++] = o->temp[i];
			else if (!can_shift)
				out->acting[out->nacting++] = PL_ITEM_NONE;
		}
		if (o->primary_temp >= 0) {
			temp_primary = o->primary_temp;
		} else {
			for (int i = 0; i < out->nacting; i++)
				if (out->acting[i] != PL_ITEM_NONE) {
					temp_primary = out->acting[i];
					break;
				}
		}
	}
	out->acting_primary = temp_primary;
	if (!out->nacting) {
		memcpy(out->acting, out->up, (size_t)out->nup * sizeof(int));
		out->nacting = out->nup;
		if (out->acting_primary == -1)
			out->acting_primary = out->up_primary;
	}
}
