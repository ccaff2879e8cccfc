/*
 * cmd_flags.c - `osd set FLAG` / `osd unset FLAG`: the osdmap's flags
 * (noout, norebalance, pause, ...), as OSDMonitor::prepare_set_flag and
 * prepare_unset_flag answer them in Ceph 16.2: "noout is set", one new
 * epoch each time.  What a flag changes is done by the layers that do
 * the work (osdsim/osdflags.c says where).
 */
#include <stdio.h>
#include <string.h>

#include "cluster_cmds.h"
#include "osdmap.h"
#include "util.h"

#define FLAG_CHOICES                                                          \
	"pause|pauserd|pausewr|noup|nodown|noout|noin|nobackfill|"            \
	"norebalance|norecover|noscrub|nodeep-scrub"

static int set_flag(struct cmd_ctx *ctx, int argc, char **argv, int on)
{
	char s[160];
	uint32_t f;
	int r;

	if (cc_nargs(ctx, argc, argv, 1))
		return 1;
	f = cfs_osd_flag_parse(argv[0]);
	if (!f)
		return cc_err(ctx, "unrecognized flag '%s' (one of %s)",
			      argv[0], FLAG_CHOICES);
	r = cfs_osd_set_flags(ctx->cluster, on ? f : 0, on ? 0 : f);
	if (r)
		return cc_err(ctx, "cannot change the osdmap: %s",
			      cfs_strerror(r));
	cfs_osd_flag_string(f, s, sizeof(s));
	return cc_done_epoch(ctx, "%s is %s", s, on ? "set" : "unset");
}

int ccmd_osd_set(struct cmd_ctx *ctx, int argc, char **argv)
{
	return set_flag(ctx, argc, argv, 1);
}

int ccmd_osd_unset(struct cmd_ctx *ctx, int argc, char **argv)
{
	return set_flag(ctx, argc, argv, 0);
}
