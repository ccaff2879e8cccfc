/*
 * whatif.c - `--dry-run` on the commands that change placement (`osd out`,
 * `osd in`, `osd reweight`, `osd crush reweight`, `osd add`, ...): the
 * change runs as far as the osdmap it would install (osdsim's dry run:
 * nothing written, nothing installed), then this file compares that map
 * with the current one: the PGs whose acting set changes, the object
 * copies and bytes that would move (each PG's objects, once per OSD that
 * joins its acting set), every OSD's use after the move and the ratios it
 * would cross, and MAX AVAIL with the OSD that fills first, before and
 * after.  "Before" is the acting set (where the data is now, a pg_temp
 * included), "after" the new map's up set (where backfill takes it: the
 * acting set once the pg_temp goes).  The move counts are what
 * `rebalance` then copies.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cluster_cmds.h"
#include "objlayer.h"
#include "osdmap.h"
#include "usage.h"
#include "util.h"

static const char *crossing(const cfs_osdmap *m, int osd, uint64_t before,
			    uint64_t after)
{
	if (after >= cfs_osdmap_full_limit(m, osd) &&
	    before < cfs_osdmap_full_limit(m, osd))
		return "full";
	if (after >= cfs_osdmap_backfillfull_limit(m, osd) &&
	    before < cfs_osdmap_backfillfull_limit(m, osd))
		return "backfillfull";
	if (after >= cfs_osdmap_nearfull_limit(m, osd) &&
	    before < cfs_osdmap_nearfull_limit(m, osd))
		return "nearfull";
	return NULL;
}

static double pct(uint64_t used, uint64_t cap)
{
	return cap ? 100.0 * (double)used / (double)cap : 0;
}

/* The other pools: how many of their PGs change their up set, and the
 * object copies that would move with them (read from the OSDs), per pool
 * present in both maps. */
static void other_pools(struct cmd_ctx *ctx, const cfs_osdmap *old,
			const cfs_osdmap *new, json_t *arr)
{
	for (int i = 0; i < cfs_osdmap_npools(new); i++) {
		const struct cfs_pool_info *np = cfs_osdmap_pool_at(new, i);

		if (np == cfs_osdmap_pool(new))
			continue;
		const struct cfs_pool_info *op =
			cfs_osdmap_pool_by_id(old, np->id);
		uint32_t changed = 0;
		uint64_t copies = 0, bytes = 0;
		char sz[32];

		for (uint32_t ps = 0; op && ps < np->pg_num; ps++) {
			const struct cfs_pg_mapping *a =
				cfs_osdmap_pool_pg(old, op->id, ps);
			const struct cfs_pg_mapping *b =
				cfs_osdmap_pool_pg(new, np->id, ps);
			struct ol_pg_stat st;
			int joins = 0;

			if (a && b && a->nup == b->nup &&
			    !memcmp(a->up, b->up,
				    sizeof(int) * (size_t)a->nup))
				continue;
			changed++;
			for (int k = 0; a && b && k < b->nup; k++)
				joins += !cfs_in_set(a->acting, a->nacting,
						     b->up[k]);
			if (a && ps < op->pg_num &&
			    !ol_pg_stat(ctx->ol, old, op->id, ps, &st)) {
				copies += st.objects * (uint64_t)joins;
				bytes += st.bytes * (uint64_t)joins;
			}
		}
		if (arr)
			json_array_append_new(
				arr, json_pack("{s:s, s:I, s:i, s:i, s:I, s:I}",
					       "pool", np->name, "pool_id",
					       (json_int_t)np->id, "pg_num",
					       (int)np->pg_num, "pgs_changed",
					       (int)changed, "object_copies",
					       (json_int_t)copies, "bytes",
					       (json_int_t)bytes));
		else if (!copies)
			fprintf(ctx->out,
				"pool '%s': %u of %u pgs change their up set "
				"(no object of it moves)\n",
				np->name, changed, np->pg_num);
		else
			fprintf(ctx->out,
				"pool '%s': %u of %u pgs change their up set, "
				"%llu object copies (%s) move\n",
				np->name, changed, np->pg_num,
				(unsigned long long)copies,
				cfs_format_size(bytes, sz, sizeof(sz)));
	}
}

static int report(struct cmd_ctx *ctx, const char *what,
		  const cfs_osdmap *old, const cfs_osdmap *new)
{
	const struct cfs_pool_info *p = cfs_osdmap_pool(old);
	int max = cfs_osdmap_max_osd(new) > cfs_osdmap_max_osd(old) ?
			  cfs_osdmap_max_osd(new) :
			  cfs_osdmap_max_osd(old);
	uint64_t *before = calloc((size_t)max + 1, sizeof(uint64_t));
	uint64_t *after = calloc((size_t)max + 1, sizeof(uint64_t));
	uint64_t copies = 0, bytes = 0, avail0, avail1;
	uint32_t changed = 0;
	json_t *pgs = ctx->json ? json_array() : NULL;
	json_t *osds = ctx->json ? json_array() : NULL;
	int lim0, lim1, ncross = 0, r = 0;
	char a[32], b[32];

	if (!before || !after) {
		free(before);
		free(after);
		json_decref(pgs);
		json_decref(osds);
		return cc_err(ctx, "out of memory");
	}
	for (int osd = 0; osd < max; osd++) {
		struct cfs_osd_usage u = { 0 };

		if (osd < cfs_osdmap_max_osd(old) &&
		    cfs_osdmap_exists(old, osd))
			cfs_osd_usage(ctx->cluster, osd, &u);
		before[osd] = after[osd] = u.used;
	}
	for (uint32_t ps = 0; ps < p->pg_num && !r; ps++) {
		const struct cfs_pg_mapping *o = cfs_osdmap_pg(old, ps);
		const struct cfs_pg_mapping *n = cfs_osdmap_pg(new, ps);
		struct ol_pg_stat st;
		int joins = 0, moved = 0;

		for (int i = 0; i < n->nup; i++)
			joins += !cfs_in_set(o->acting, o->nacting, n->up[i]);
		for (int i = 0; i < o->nacting; i++)
			moved |= !cfs_in_set(n->up, n->nup, o->acting[i]);
		if (!joins && !moved && o->nacting == n->nup)
			continue;
		changed++;
		r = ol_pg_stat(ctx->ol, old, p->id, ps, &st);
		if (r)
			break;
		copies += st.objects * (uint64_t)joins;
		bytes += st.bytes * (uint64_t)joins;
		for (int i = 0; i < n->nup; i++)
			if (!cfs_in_set(o->acting, o->nacting, n->up[i]))
				after[n->up[i]] += st.bytes;
		for (int i = 0; i < o->nacting; i++)
			if (!cfs_in_set(n->up, n->nup, o->acting[i]))
				after[o->acting[i]] -=
					st.bytes < after[o->acting[i]] ?
						st.bytes :
						after[o->acting[i]];
		if (pgs) {
			json_t *x = json_array(), *y = json_array();

			for (int i = 0; i < o->nacting; i++)
				json_array_append_new(x,
						      json_integer(o->acting[i]));
			for (int i = 0; i < n->nup; i++)
				json_array_append_new(y,
						      json_integer(n->up[i]));
			json_array_append_new(
				pgs, json_pack("{s:s, s:o, s:o, s:I, s:I}",
					       "pgid", st.pgid, "acting_before",
					       x, "acting_after", y, "objects",
					       (json_int_t)st.objects, "bytes",
					       (json_int_t)st.bytes));
		}
	}
	if (r) {
		free(before);
		free(after);
		json_decref(pgs);
		json_decref(osds);
		return cc_err(ctx, "cannot read the PGs: %s", cfs_strerror(r));
	}
	avail0 = cfs_pool_max_avail_with(old, before, &lim0);
	avail1 = cfs_pool_max_avail_with(new, after, &lim1);
	if (!ctx->json) {
		fprintf(ctx->out,
			"dry run of '%s': nothing changed (the cluster stays "
			"at epoch %u)\n",
			what, cfs_osdmap_epoch(old));
		fprintf(ctx->out,
			"pgs whose acting set changes: %u of %u\n"
			"object copies to move: %llu (%s)\n",
			changed, p->pg_num, (unsigned long long)copies,
			cfs_format_size(bytes, a, sizeof(a)));
		other_pools(ctx, old, new, NULL);
	}
	for (int osd = 0; osd < max; osd++) {
		struct cfs_osd_info oi = { 0 };
		const char *x;

		if (osd >= cfs_osdmap_max_osd(new) ||
		    cfs_osdmap_osd(new, osd, &oi) || !oi.exists)
			continue;
		x = crossing(new, osd, before[osd], after[osd]);
		if (osds) {
			json_t *e = json_pack(
				"{s:i, s:I, s:I, s:I, s:f, s:f}", "osd", osd,
				"capacity", (json_int_t)oi.capacity,
				"used_before", (json_int_t)before[osd],
				"used_after", (json_int_t)after[osd],
				"utilization_before",
				pct(before[osd], oi.capacity),
				"utilization_after",
				pct(after[osd], oi.capacity));

			json_object_set_new(e, "crosses",
					    x ? json_string(x) : json_null());
			json_array_append_new(osds, e);
		} else if (before[osd] != after[osd] || x) {
			fprintf(ctx->out,
				"  osd.%d: %s -> %s (%.1f%% -> %.1f%%)%s%s\n",
				osd, cfs_format_size(before[osd], a, sizeof(a)),
				cfs_format_size(after[osd], b, sizeof(b)),
				pct(before[osd], oi.capacity),
				pct(after[osd], oi.capacity),
				x ? ": would cross " : "", x ? x : "");
		}
		ncross += x != NULL;
	}
	if (ctx->json) {
		json_t *root = json_pack(
			"{s:b, s:s, s:i, s:i, s:i, s:I, s:I, s:o, s:o, s:I, "
			"s:I, s:i, s:i, s:i}",
			"dry_run", 1, "command", what, "epoch",
			(int)cfs_osdmap_epoch(old), "pg_num", (int)p->pg_num,
			"pgs_changed", (int)changed, "object_copies_to_move",
			(json_int_t)copies, "bytes_to_move", (json_int_t)bytes,
			"pgs", pgs, "osds", osds, "max_avail_before",
			(json_int_t)avail0, "max_avail_after",
			(json_int_t)avail1, "fills_first_before", lim0,
			"fills_first_after", lim1, "osds_crossing", ncross);
		json_t *others = json_array();

		other_pools(ctx, old, new, others);
		json_object_set_new(root, "other_pools", others);
		r = cc_json_out(ctx, root);
	} else {
		if (!ncross)
			fprintf(ctx->out, "no OSD would cross a ratio\n");
		fprintf(ctx->out, "max avail: %s now", 
			cfs_format_size(avail0, a, sizeof(a)));
		if (lim0 >= 0)
			fprintf(ctx->out, " (osd.%d fills first)", lim0);
		fprintf(ctx->out, ", %s after the move",
			cfs_format_size(avail1, b, sizeof(b)));
		if (lim1 >= 0)
			fprintf(ctx->out, " (osd.%d fills first)", lim1);
		fputc('\n', ctx->out);
	}
	free(before);
	free(after);
	return r;
}

int cc_run(const struct cluster_cmd *cmd, struct cmd_ctx *ctx, int argc,
	   char **argv)
{
	const cfs_osdmap *old, *new;
	char what[512], *buf = NULL;
	size_t len = 0, n = 0;
	int dry = 0, k = 0, r;
	FILE *out, *saved;

	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--dry-run"))
			dry = 1;
		else
			argv[k++] = argv[i];
	}
	argc = k;
	if (!dry) {
		/* the monitor's audit channel: each change, as dispatched */
		cc_audit(ctx, cmd, argc, argv, -1);
		r = cmd->fn(ctx, argc, argv);
		cc_audit(ctx, cmd, argc, argv, r);
		return r;
	}
	if (!(cmd->flags & CCMD_DRYRUN))
		return cc_err(ctx, "--dry-run is not supported here (only "
				   "commands that change placement take it)");
	/* a pg_num change re-files objects within OSDs: its own report */
	if (!strcmp(cmd->name, "osd pool set") && argc >= 2 &&
	    !strcmp(argv[1], "pg_num") && cc_pool_holds_objects(ctx, argv[0]))
		return cc_pool_pg_num_dry_run(ctx, argc, argv);
	n = (size_t)snprintf(what, sizeof(what), "%s", cmd->name);
	for (int i = 0; i < argc && n < sizeof(what); i++)
		n += (size_t)snprintf(what + n, sizeof(what) - n, " %s",
				      argv[i]);
	/* the command's own "marked out" line is not what happened */
	out = open_memstream(&buf, &len);
	if (!out)
		return cc_err(ctx, "out of memory");
	saved = ctx->out;
	ctx->out = out;
	old = cfs_osdmap_get(ctx->cluster);
	cfs_dry_run_begin();
	r = cmd->fn(ctx, argc, argv);
	new = cfs_dry_run_end();
	ctx->out = saved;
	fclose(out);
	free(buf);
	if (!r && !new)
		r = cc_err(ctx, "dry run of '%s': the command would change "
				"nothing",
			   what);
	else if (!r)
		r = report(ctx, what, old, new);
	cfs_osdmap_put(new);
	cfs_osdmap_put(old);
	return r;
}
