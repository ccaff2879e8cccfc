/*
 * osdsim.h - the simulated cluster: one directory holding the osdmap, the
 * crush map and one object store per OSD.  The public interface of
 * osdsim/ is one header per part, all included here; a source that needs
 * one or two parts includes those (STYLE.md 11):
 *
 *   cluster.h    making (mkfs, --from-ceph), refreshing and opening one
 *   layout.h     the rule every file layout follows
 *   osdmap.h     the osdmap: pools, OSD states, epochs, PG mappings,
 *                pg_temp, ratios, EC profiles, its changes; the options
 *   upmap.h      pg_upmap[_items] and the upmap balancer
 *   objstore.h   object copies on one OSD, their listing and attributes
 *   pgstate.h    holders and missing sets, PG copies, backfill_toofull,
 *                ops waiting for an inactive PG
 *   objindex.h   the object index: which objects exist, changes in flight
 *   usage.h      OSD usage, reservations, refused writes, MAX AVAIL,
 *                quotas, the health snapshot, the cluster check
 *
 * On disk (../shared/DESIGN.md, "On-disk cluster"):
 *
 *   DIR/cluster.json     fsid, epoch, pool, ratios, full policy, per-OSD
 *                        state, and the crush map text: the commit point of
 *                        every osdmap change (written atomically, so a crash
 *                        leaves the old map or the new one)
 *   DIR/crushmap.txt     the crush map in crushtool's text format (a copy of
 *                        what cluster.json holds, rewritten before it)
 *   DIR/cluster.lock     flock: one writer (exclusive), or many readers
 *   DIR/usage.json       per-OSD bytes/objects at the last clean close
 *   DIR/usage.dirty      exists while a writer may have changed OSD data
 *                        since usage.json was written: the next open rescans
 *   DIR/pgstate/P.json   per-PG recovery state (pgstate.h)
 *   DIR/osd.N/whoami, DIR/osd.N/fsid
 *   DIR/osd.N/current/<pool>.<ps hex>_head/<object name>
 *
 * Errors: 0 or -errno; functions taking (err, errlen) also write one line
 * saying what was wrong and where.  Thread safety: every function may be
 * called from many threads at once unless noted.
 */
#ifndef CRUSHFS_OSDSIM_H
#define CRUSHFS_OSDSIM_H

#include "clog.h"
#include "cluster.h"
#include "layout.h"
#include "objindex.h"
#include "objstore.h"
#include "osdmap.h"
#include "pgstate.h"
#include "upmap.h"
#include "usage.h"

#endif
