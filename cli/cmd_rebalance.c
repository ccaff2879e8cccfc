/*
 * cmd_rebalance.c - `rebalance`: backfill, then the pg_num / pgp_num
 * steps towards their targets (objlayer's ol_rebalance, Ceph's recovery
 * and DaemonServer::adjust_pgs), with progress; what the steps changed,
 * and an exit status that says whether everything got where the map and
 * the targets want it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cluster_cmds.h"
#include "objlayer.h"
#include "osdmap.h"
#include "progress.h"
#include "util.h"

static void progress(const struct ol_rebalance_progress *p, void *arg)
{
	cli_progress_update(arg, p->objects_done, p->objects_todo,
			    p->bytes_done);
}

/* Each pool's pg_num and pgp_num before the rebalance: what its steps
 * changed is printed after. */
struct pool_nums {
	int64_t id;
	uint32_t pg_num, pgp_num;
};

static struct pool_nums *pool_nums(cfs_cluster *c, int *n)
{
	const cfs_osdmap *m = cfs_osdmap_get(c);
	struct pool_nums *v;

	*n = cfs_osdmap_npools(m);
	v = calloc((size_t)*n + 1, sizeof(*v));
	for (int i = 0; v && i < *n; i++) {
		const struct cfs_pool_info *q = cfs_osdmap_pool_at(m, i);

		v[i] = (struct pool_nums){ q->id, q->pg_num, q->pgp_num };
	}
	cfs_osdmap_put(m);
	return v;
}

static void print_steps(struct cmd_ctx *ctx, const struct pool_nums *was,
			int n)
{
	const cfs_osdmap *m = cfs_osdmap_get(ctx->cluster);

	for (int i = 0; was && i < n; i++) {
		const struct cfs_pool_info *q =
			cfs_osdmap_pool_by_id(m, was[i].id);

		if (!q || (q->pg_num == was[i].pg_num &&
			   q->pgp_num == was[i].pgp_num))
			continue;
		fprintf(ctx->out, "rebalance: pool '%s'", q->name);
		if (q->pg_num != was[i].pg_num)
			fprintf(ctx->out, " pg_num %u -> %u%s", was[i].pg_num,
				q->pg_num,
				q->pgp_num != was[i].pgp_num ? "," : "");
		if (q->pgp_num != was[i].pgp_num)
			fprintf(ctx->out, " pgp_num %u -> %u", was[i].pgp_num,
				q->pgp_num);
		fputc('\n', ctx->out);
	}
	cfs_osdmap_put(m);
}

int ccmd_rebalance(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct ol_rebalance_stats st;
	struct pool_nums *was;
	char a[32], b[32];
	int r, npools;
	uint32_t held;

	struct cli_progress pr;

	if (cc_nargs(ctx, argc, argv, 0))
		return 1;
	cli_progress_init(&pr, ctx->err, ctx->tty, ctx->json, "rebalance",
			  "object copies");
	was = pool_nums(ctx->cluster, &npools);
	r = ol_rebalance(ctx->ol, &st, progress, &pr);
	cli_progress_done(&pr);
	if (r) {
		free(was);
		return cc_err(ctx, "%s", cfs_strerror(r));
	}
	if (ctx->json) {
		json_t *o =
			    json_pack("{s:I, s:I, s:I, s:I, s:i, s:i, s:i, s:i, "
				      "s:i, s:i, s:i, s:s}",
				      "objects_moved",
				      (json_int_t)st.objects_copied,
				      "bytes_moved", (json_int_t)st.bytes_copied,
				      "old_copies_removed",
				      (json_int_t)st.objects_removed,
				      "bytes_freed",
				      (json_int_t)st.bytes_removed,
				      "pgs_changed", (int)st.pgs_changed,
				      "pgs_backfill_toofull",
				      (int)st.pgs_toofull, "pgs_blocked",
				      (int)st.pgs_blocked, "errors",
				      (int)st.errors, "pgp_num_steps",
				      (int)st.pgp_steps, "pg_num_changes",
				      (int)st.pg_num_changes, "pools_pending",
				      (int)st.pools_pending, "pending",
				      st.pending);

		/* the PGs osdmap flags held back, when any (as Ceph's reports
		 * list only what is not empty) */
		if (o && (st.pgs_norebalance || st.pgs_nobackfill ||
			  st.pgs_norecover)) {
			json_object_set_new(o, "pgs_norebalance",
					    json_integer(st.pgs_norebalance));
			json_object_set_new(o, "pgs_nobackfill",
					    json_integer(st.pgs_nobackfill));
			json_object_set_new(o, "pgs_norecover",
					    json_integer(st.pgs_norecover));
		}
		cc_json_out(ctx, o);
	} else {
		fprintf(ctx->out,
			"rebalance: moved %llu objects (%s), removed %llu old "
			"copies (%s), %u pgs changed\n",
			(unsigned long long)st.objects_copied,
			cfs_format_size(st.bytes_copied, a, sizeof(a)),
			(unsigned long long)st.objects_removed,
			cfs_format_size(st.bytes_removed, b, sizeof(b)),
			st.pgs_changed);
		if (st.pgs_toofull)
			fprintf(ctx->out,
				"rebalance: %u pgs left: a target OSD is at "
				"backfillfull_ratio (backfill_toofull)\n",
				st.pgs_toofull);
		if (st.pgs_blocked)
			fprintf(ctx->out,
				"rebalance: %u pgs left: no up OSD has a "
				"current copy of some objects\n",
				st.pgs_blocked);
		print_steps(ctx, was, npools);
	}
	free(was);
	/* what the osdmap flags held back: one line, and not clean */
	held = st.pgs_norebalance + st.pgs_nobackfill + st.pgs_norecover;
	if (held) {
		char why[160] = "";
		size_t o = 0;
		const struct {
			uint32_t n;
			const char *flag, *what;
		} f[] = {
			{ st.pgs_nobackfill, "nobackfill", "to backfill" },
			{ st.pgs_norebalance, "norebalance", "only misplaced" },
			{ st.pgs_norecover, "norecover", "to recover" },
		};

		for (int i = 0; i < 3; i++)
			if (f[i].n && o < sizeof(why))
				o += (size_t)snprintf(why + o, sizeof(why) - o,
						      "%s%u %s (%s set)",
						      o ? ", " : "", f[i].n,
						      f[i].what, f[i].flag);
		return cc_err(ctx, "%u pgs left because of osdmap flags: %s; "
			      "`osd unset` them to go on", held, why);
	}
	if (st.errors)
		return cc_err(ctx, "%u pgs had I/O errors (see above)",
			      st.errors);
	/* a rebalance that leaves PGs is not done: scripts must see it */
	if (st.pgs_toofull || st.pgs_blocked)
		return cc_err(ctx, "%u pgs left (%u backfill_toofull, %u "
			      "without an up source): not clean",
			      st.pgs_toofull + st.pgs_blocked, st.pgs_toofull,
			      st.pgs_blocked);
	/* nor is one whose pg_num / pgp_num did not reach their targets */
	if (st.pools_pending)
		return cc_err(ctx, "%u pool(s) short of their pg_num/pgp_num "
			      "targets: %s", st.pools_pending, st.pending);
	return 0;
}
