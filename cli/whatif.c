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
#include "mgr.h"
#include "objlayer.h"
#include "osdmap.h"
#include "usage.h"
#include "util.h"

static double pct(uint64_t used, uint64_t cap)
{
	return cap ? 100.0 * (double)used / (double)cap : 0;
}

/* "2 h 05 min", "3 min 20 s", "12 s": the backfill estimate */
static const char *duration(double s, char *buf, size_t len)
{
	long t = (long)(s + 0.5);

	if (s > 0 && s < 1)
		snprintf(buf, len, "under 1 s");
	else if (t >= 3600)
		snprintf(buf, len, "%ld h %02ld min", t / 3600, t % 3600 / 60);
	else if (t >= 60)
		snprintf(buf, len, "%ld min %02ld s", t / 60, t % 60);
	else
		snprintf(buf, len, "%ld s", t);
	return buf;
}

int cc_backfill_line(char *buf, size_t len, const struct mgr_whatif *w,
		     uint64_t rate, int max_backfills)
{
	char b[32], r[32], d[32];
	double sec = mgr_backfill_seconds(w, rate, max_backfills);

	if (w->busiest < 0 || !w->busiest_bytes)
		return snprintf(buf, len, "backfill: nothing to move");
	return snprintf(buf, len,
			"backfill: %s%s at %s/s per backfill, "
			"osd_max_backfills %d (osd.%d is the busiest: %s in "
			"or out)",
			sec < 1 ? "" : "about ", duration(sec, d, sizeof(d)),
			cfs_format_size(rate, r, sizeof(r)), max_backfills,
			w->busiest,
			cfs_format_size(w->busiest_bytes, b, sizeof(b)));
}

static void other_pools(struct cmd_ctx *ctx, const struct mgr_whatif *w,
			json_t *arr)
{
	char sz[32];

	for (int i = 0; i < w->nothers; i++) {
		const struct mgr_whatif_pool *o = &w->others[i];

		if (arr)
			json_array_append_new(
				arr, json_pack("{s:s, s:I, s:i, s:i, s:I, s:I}",
					       "pool", o->pool->name, "pool_id",
					       (json_int_t)o->pool->id, "pg_num",
					       (int)o->pool->pg_num,
					       "pgs_changed",
					       (int)o->pgs_changed,
					       "object_copies",
					       (json_int_t)o->copies, "bytes",
					       (json_int_t)o->bytes));
		else if (!o->copies)
			fprintf(ctx->out,
				"pool '%s': %u of %u pgs change their up set "
				"(no object of it moves)\n",
				o->pool->name, o->pgs_changed,
				o->pool->pg_num);
		else
			fprintf(ctx->out,
				"pool '%s': %u of %u pgs change their up set, "
				"%llu object copies (%s) move\n",
				o->pool->name, o->pgs_changed, o->pool->pg_num,
				(unsigned long long)o->copies,
				cfs_format_size(o->bytes, sz, sizeof(sz)));
	}
}

static json_t *int_array(const int *v, int n)
{
	json_t *a = json_array();

	for (int i = 0; i < n; i++)
		json_array_append_new(a, json_integer(v[i]));
	return a;
}

static int report(struct cmd_ctx *ctx, const char *what,
		  const cfs_osdmap *old, const cfs_osdmap *new, uint64_t rate,
		  int max_backfills)
{
	struct mgr_whatif w;
	char a[32], b[32], line[256];
	int r = mgr_whatif_compute(ctx->cluster, ctx->ol, old, new, &w);

	if (r)
		return cc_err(ctx, "cannot read the PGs: %s", cfs_strerror(r));
	cc_backfill_line(line, sizeof(line), &w, rate, max_backfills);
	if (ctx->json) {
		json_t *pgs = json_array(), *osds = json_array(),
		       *others = json_array(), *root;

		for (uint32_t i = 0; i < w.pgs_changed; i++) {
			const struct mgr_whatif_pg *g = &w.pgs[i];

			json_array_append_new(
				pgs, json_pack("{s:s, s:o, s:o, s:I, s:I}",
					       "pgid", g->pgid, "acting_before",
					       int_array(g->before, g->nbefore),
					       "acting_after",
					       int_array(g->after, g->nafter),
					       "objects", (json_int_t)g->objects,
					       "bytes", (json_int_t)g->bytes));
		}
		for (int osd = 0; osd < w.max_osd; osd++) {
			const struct mgr_whatif_osd *x = &w.osd[osd];
			json_t *e;

			if (!x->exists)
				continue;
			e = json_pack("{s:i, s:I, s:I, s:I, s:f, s:f, s:I, s:I}",
				      "osd", osd, "capacity",
				      (json_int_t)x->capacity, "used_before",
				      (json_int_t)x->before, "used_after",
				      (json_int_t)x->after,
				      "utilization_before",
				      pct(x->before, x->capacity),
				      "utilization_after",
				      pct(x->after, x->capacity), "bytes_in",
				      (json_int_t)x->bytes_in, "bytes_out",
				      (json_int_t)x->bytes_out);
			json_object_set_new(e, "crosses",
					    x->crosses ? json_string(x->crosses)
						       : json_null());
			json_array_append_new(osds, e);
		}
		root = json_pack(
			"{s:b, s:s, s:i, s:i, s:i, s:I, s:I, s:o, s:o, s:I, "
			"s:I, s:i, s:i, s:i}",
			"dry_run", 1, "command", what, "epoch",
			(int)cfs_osdmap_epoch(old), "pg_num", (int)w.pg_num,
			"pgs_changed", (int)w.pgs_changed,
			"object_copies_to_move", (json_int_t)w.copies,
			"bytes_to_move", (json_int_t)w.bytes, "pgs", pgs,
			"osds", osds, "max_avail_before",
			(json_int_t)w.avail_before, "max_avail_after",
			(json_int_t)w.avail_after, "fills_first_before",
			w.first_before, "fills_first_after", w.first_after,
			"osds_crossing", w.ncross);
		other_pools(ctx, &w, others);
		json_object_set_new(root, "other_pools", others);
		json_object_set_new(root, "backfill", json_pack(
			"{s:I, s:i, s:i, s:I, s:f}", "recovery_rate",
			(json_int_t)rate, "osd_max_backfills", max_backfills,
			"busiest_osd", w.busiest, "busiest_bytes",
			(json_int_t)w.busiest_bytes, "seconds",
			mgr_backfill_seconds(&w, rate, max_backfills)));
		r = cc_json_out(ctx, root);
		mgr_whatif_free(&w);
		return r;
	}
	fprintf(ctx->out,
		"dry run of '%s': nothing changed (the cluster stays at epoch "
		"%u)\n"
		"pgs whose acting set changes: %u of %u\n"
		"object copies to move: %llu (%s)\n",
		what, cfs_osdmap_epoch(old), w.pgs_changed, w.pg_num,
		(unsigned long long)w.copies,
		cfs_format_size(w.bytes, a, sizeof(a)));
	other_pools(ctx, &w, NULL);
	for (int osd = 0; osd < w.max_osd; osd++) {
		const struct mgr_whatif_osd *x = &w.osd[osd];

		if (!x->exists || (x->before == x->after && !x->crosses))
			continue;
		fprintf(ctx->out, "  osd.%d: %s -> %s (%.1f%% -> %.1f%%)%s%s\n",
			osd, cfs_format_size(x->before, a, sizeof(a)),
			cfs_format_size(x->after, b, sizeof(b)),
			pct(x->before, x->capacity), pct(x->after, x->capacity),
			x->crosses ? ": would cross " : "",
			x->crosses ? x->crosses : "");
	}
	if (!w.ncross)
		fprintf(ctx->out, "no OSD would cross a ratio\n");
	fprintf(ctx->out, "max avail: %s now",
		cfs_format_size(w.avail_before, a, sizeof(a)));
	if (w.first_before >= 0)
		fprintf(ctx->out, " (osd.%d fills first)", w.first_before);
	fprintf(ctx->out, ", %s after the move",
		cfs_format_size(w.avail_after, b, sizeof(b)));
	if (w.first_after >= 0)
		fprintf(ctx->out, " (osd.%d fills first)", w.first_after);
	fprintf(ctx->out, "\n%s\n", line);
	mgr_whatif_free(&w);
	return 0;
}

int cc_dry_run_maps(const struct cluster_cmd *cmd, struct cmd_ctx *ctx,
		    int argc, char **argv, char *what, size_t wlen,
		    const cfs_osdmap **oldp, const cfs_osdmap **newp)
{
	const cfs_osdmap *old, *new;
	char *buf = NULL;
	size_t len = 0, n;
	FILE *out, *saved;
	int r;

	*oldp = *newp = NULL;
	n = (size_t)snprintf(what, wlen, "%s", cmd->name);
	for (int i = 0; i < argc && n < wlen; i++)
		n += (size_t)snprintf(what + n, wlen - n, " %s", argv[i]);
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
	if (r) {
		cfs_osdmap_put(new);
		cfs_osdmap_put(old);
		return r;
	}
	*oldp = old;
	*newp = new;
	return 0;
}

int cc_recovery_opt(struct cmd_ctx *ctx, int argc, char **argv, int *i,
		    uint64_t *rate, int *max_backfills)
{
	char *end;

	if (!strcmp(argv[*i], "--recovery-rate") && *i + 1 < argc) {
		if (cfs_parse_size(argv[*i + 1], rate) || !*rate) {
			cc_err(ctx, "--recovery-rate: '%s' is not a size per "
			       "second (e.g. 100M)", argv[*i + 1]);
			return -1;
		}
		(*i)++;
		return 1;
	}
	if (!strcmp(argv[*i], "--max-backfills") && *i + 1 < argc) {
		long v = strtol(argv[*i + 1], &end, 10);

		if (*end || end == argv[*i + 1] || v < 1 || v > 1024) {
			cc_err(ctx, "--max-backfills: '%s' is not a count "
			       "from 1 to 1024", argv[*i + 1]);
			return -1;
		}
		*max_backfills = (int)v;
		(*i)++;
		return 1;
	}
	return 0;
}

int cc_run(const struct cluster_cmd *cmd, struct cmd_ctx *ctx, int argc,
	   char **argv)
{
	const cfs_osdmap *old, *new;
	uint64_t rate = MGR_DEFAULT_RECOVERY_RATE;
	int dry = 0, k = 0, r, mb = MGR_DEFAULT_MAX_BACKFILLS;
	char what[512];

	for (int i = 0; i < argc; i++)
		dry |= !strcmp(argv[i], "--dry-run");
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--dry-run"))
			continue;
		/* the backfill estimate's figures, with --dry-run only */
		r = dry ? cc_recovery_opt(ctx, argc, argv, &i, &rate, &mb) : 0;
		if (r < 0)
			return 1;
		if (!r)
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
	r = cc_dry_run_maps(cmd, ctx, argc, argv, what, sizeof(what), &old,
			    &new);
	if (r)
		return r;
	r = report(ctx, what, old, new, rate, mb);
	cfs_osdmap_put(new);
	cfs_osdmap_put(old);
	return r;
}
