/*
 * osdflags.c - the osdmap's flags (`osd set|unset`), and the OSD state
 * changes that go with marking OSDs in, down and up: the down stamp the
 * down->out timer counts from, AUTOOUT and noin at boot.
 *
 * Names, order and bits are Ceph 16.2's (include/rados.h CEPH_OSDMAP_*,
 * OSDMap::get_flag_string); the state changes mirror
 * OSDMap::apply_incremental and OSDMonitor::prepare_boot.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "osdsim_i.h"
#include "util.h"

/* get_flag_string's order, which is not the bits' */
static const struct {
	uint32_t bit;
	const char *name;
} names[] = {
	{ CFS_OSDMAP_PAUSERD, "pauserd" },
	{ CFS_OSDMAP_PAUSEWR, "pausewr" },
	{ CFS_OSDMAP_NOUP, "noup" },
	{ CFS_OSDMAP_NODOWN, "nodown" },
	{ CFS_OSDMAP_NOOUT, "noout" },
	{ CFS_OSDMAP_NOIN, "noin" },
	{ CFS_OSDMAP_NOBACKFILL, "nobackfill" },
	{ CFS_OSDMAP_NOREBALANCE, "norebalance" },
	{ CFS_OSDMAP_NORECOVER, "norecover" },
	{ CFS_OSDMAP_NOSCRUB, "noscrub" },
	{ CFS_OSDMAP_NODEEP_SCRUB, "nodeep-scrub" },
	{ CFS_OSDMAP_SORTBITWISE, "sortbitwise" },
	{ CFS_OSDMAP_RECOVERY_DELETES, "recovery_deletes" },
	{ CFS_OSDMAP_PURGED_SNAPDIRS, "purged_snapdirs" },
	{ CFS_OSDMAP_PGLOG_HARDLIMIT, "pglog_hardlimit" },
};
#define NNAMES (sizeof(names) / sizeof(names[0]))

uint32_t cfs_osdmap_flags(const cfs_osdmap *m) { return m->flags; }

int64_t cfs_osdmap_last_up_change(const cfs_osdmap *m)
{
	return m->last_up_change;
}

int64_t cfs_osdmap_last_in_change(const cfs_osdmap *m)
{
	return m->last_in_change;
}

uint32_t cfs_osd_flag_parse(const char *name)
{
	/* OSDMonitor::prepare_command_impl: "pause" is both */
	if (!strcmp(name, "pause"))
		return CFS_OSDMAP_PAUSERD | CFS_OSDMAP_PAUSEWR;
	for (size_t i = 0; i < NNAMES; i++)
		if ((names[i].bit & CFS_OSDMAP_SETTABLE) &&
		    !strcmp(names[i].name, name))
			return names[i].bit;
	return 0;
}

int cfs_osd_flag_string(uint32_t flags, char *buf, size_t len)
{
	size_t n = 0;

	if (len)
		buf[0] = 0;
	for (size_t i = 0; i < NNAMES; i++) {
		int w;

		if (!(flags & names[i].bit))
			continue;
		w = snprintf(buf + (n < len ? n : len), n < len ? len - n : 0,
			     "%s%s", n ? "," : "", names[i].name);
		n += (size_t)w;
	}
	return (int)n;
}

int cfs_osd_flag_names(uint32_t flags, const char **out, int max)
{
	int n = 0;

	for (size_t i = 0; i < NNAMES; i++)
		if ((flags & names[i].bit) && n < max)
			out[n++] = names[i].name;
	return n;
}

int cfs_osd_set_flags(cfs_cluster *c, uint32_t set, uint32_t clear)
{
	struct cfs_osdmap *n;
	int r;

	if ((set | clear) & ~CFS_OSDMAP_SETTABLE)
		return -EINVAL;
	r = osdmap_update_begin(c, &n);
	if (r)
		return r;
	n->flags = (n->flags | set) & ~clear;
	return osdmap_update_commit(c, n);
}

/* OSDMap::apply_incremental: marking an OSD in (any weight above 0)
 * clears AUTOOUT and the remembered weight */
void osd_set_weight(struct cfs_osdmap *n, int osd, uint32_t w)
{
	n->osds[osd].reweight = w;
	if (w)
		n->osds[osd].autoout_weight = 0;
}

void osd_note_down(struct cfs_osdmap *n, int osd)
{
	if (n->osds[osd].up)
		n->osds[osd].down_stamp = (int64_t)time(NULL);
	n->osds[osd].up = 0;
}

/* OSDMonitor::prepare_boot: an OSD the timer marked out goes back in
 * with its old weight (mon_osd_auto_mark_auto_out_in), unless noin
 * (can_mark_in); then it stays out and keeps AUTOOUT */
void osd_note_boot(cfs_cluster *c, struct cfs_osdmap *n, int osd)
{
	struct cfs_osd_state *s = &n->osds[osd];

	s->up = 1;
	if (!s->autoout_weight || s->reweight ||
	    !config_flag(c, "mon_osd_auto_mark_auto_out_in"))
		return;
	if (n->flags & CFS_OSDMAP_NOIN) {
		cfs_log(CFS_LOG_INFO, "osd.%d boot: noin flag set, will not "
			"mark it in", osd);
		return;
	}
	s->reweight = s->autoout_weight;
	s->autoout_weight = 0;
}
