/*
 * cmd_osd_df.c - `osd df [tree]` and `osd tree`: mgr/ computes the rows
 * (mgr_osd_df_compute, one read of every OSD), this prints them as Ceph
 * 16.2 does (OSDUtilizationPlainDumper / OSDUtilizationFormatDumper and
 * OSDMap::print_tree in src/osd/OSDMap.cc, TextTable).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cluster_cmds.h"
#include "mgr.h"
#include "osdmap.h"
#include "placement.h"
#include "usage.h"
#include "util.h"

static double w16(uint32_t w)
{
	return (double)((float)w / (float)0x10000);
}

/* ---- osd df ---- */

/* The 14 columns of Ceph 16.2's `osd df`; `osd df tree` adds TYPE NAME. */
static const char *const df_heads[] = {
	"ID",	 "CLASS", "WEIGHT", "REWEIGHT", "SIZE", "RAW USE", "DATA",
	"OMAP", "META",	 "AVAIL",  "%USE",     "VAR",  "PGS",	  "STATUS",
	"TYPE NAME"
};
static const int df_right[] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0 };

/* crushfs's STATUS says more than Ceph's up/down: out and the fullness */
static void status_cell(struct cc_table *tb, const struct mgr_osd_row *r)
{
	const char *f = mgr_fullness_name(r->o->fullness);

	cc_table_cell(tb, "%s%s%s%s", r->o->info.up ? "up" : "down",
		      r->o->info.reweight ? "" : ",out", f ? "," : "",
		      f ? f : "");
}

static void size_cell(struct cc_table *tb, uint64_t v)
{
	char a[32];

	cc_table_cell(tb, "%s", cfs_format_size(v, a, sizeof(a)));
}

/* One row: an OSD (r->o set) or a bucket's sums (weight: its crush
 * weight in its parent). */
static void df_row(struct cc_table *tb, const struct mgr_osd_row *r,
		   double weight)
{
	char a[32];

	cc_table_cell(tb, "%d", r->id);
	cc_table_cell(tb, "%s", r->device_class ? r->device_class : "");
	cc_weightf(a, sizeof(a), weight);
	cc_table_cell(tb, "%s", a);
	if (r->o)
		cc_weightf(a, sizeof(a), w16(r->o->info.reweight));
	cc_table_cell(tb, "%s", r->o ? a : "-");
	size_cell(tb, r->size);
	size_cell(tb, r->used);
	size_cell(tb, r->data);
	size_cell(tb, r->omap);
	size_cell(tb, r->meta);
	size_cell(tb, r->avail);
	cc_lowprec(a, sizeof(a), r->util);
	cc_table_cell(tb, "%s", a);
	cc_lowprec(a, sizeof(a), r->var);
	cc_table_cell(tb, "%s", a);
	if (r->o) {
		cc_table_cell(tb, "%d", r->pgs);
		status_cell(tb, r);
	} else {
		cc_table_cell(tb, "-");
		cc_table_cell(tb, "%s", "");
	}
}

/* The TOTAL row and OSDUtilizationDumper's summary line. */
static void df_footer(struct cmd_ctx *ctx, struct cc_table *tb,
		      const struct mgr_osd_df *d, int ncol)
{
	char a[32], b[32], c[32];

	for (int k = 0; k < 3; k++)
		cc_table_cell(tb, "%s", "");
	cc_table_cell(tb, "TOTAL");
	size_cell(tb, d->total);
	size_cell(tb, d->used);
	size_cell(tb, d->used);
	size_cell(tb, 0);
	size_cell(tb, 0);
	size_cell(tb, d->avail);
	cc_lowprec(a, sizeof(a), d->avg);
	cc_table_cell(tb, "%s", a);
	for (int k = 11; k < ncol; k++)
		cc_table_cell(tb, "%s", "");
	cc_table_print(tb, ctx->out);
	cc_table_free(tb);
	cc_lowprec(a, sizeof(a), d->min_var);
	cc_lowprec(b, sizeof(b), d->max_var);
	cc_lowprec(c, sizeof(c), d->dev);
	fprintf(ctx->out, "MIN/MAX VAR: %s/%s  STDDEV: %s\n", a, b, c);
}

/* OSDUtilizationFormatDumper::dump_item's fields, and crushfs's extras
 * (bytes*, objects, fullness) the dashboard and report read. */
static json_t *df_node_json(const pl_map *cm, const struct mgr_osd_row *r,
			    double weight, int depth)
{
	char nm[32];
	const char *type = "osd", *name = nm;
	json_t *e;

	if (r->id >= 0) {
		snprintf(nm, sizeof(nm), "osd.%d", r->id);
	} else {
		type = pl_map_type_name(cm, pl_map_bucket_type(cm, r->id));
		name = pl_map_item_name(cm, r->id);
		type = type ? type : "?";
		name = name ? name : "?";
	}
	e = json_pack("{s:i, s:s, s:s, s:s, s:f, s:i, s:I, s:I, s:I, s:I, "
		      "s:I, s:I, s:I, s:I, s:I, s:f, s:f, s:i, s:I}",
		      "id", r->id, "device_class",
		      r->device_class ? r->device_class : "", "name", name,
		      "type", type, "crush_weight", weight, "depth", depth,
		      "kb", (json_int_t)(r->size >> 10), "kb_used",
		      (json_int_t)(r->used >> 10), "kb_used_data",
		      (json_int_t)(r->data >> 10), "kb_used_omap",
		      (json_int_t)(r->omap >> 10), "kb_used_meta",
		      (json_int_t)(r->meta >> 10), "kb_avail",
		      (json_int_t)(r->avail >> 10), "bytes",
		      (json_int_t)r->size, "bytes_used", (json_int_t)r->used,
		      "bytes_avail", (json_int_t)r->avail, "utilization",
		      r->util, "var", r->var, "pgs", r->pgs, "objects",
		      (json_int_t)r->objects);
	if (!e)
		return NULL;
	if (r->o) {
		const char *f = mgr_fullness_name(r->o->fullness);

		json_object_set_new(e, "reweight",
				    json_real(w16(r->o->info.reweight)));
		json_object_set_new(e, "status",
				    json_string(r->o->info.up ? "up" : "down"));
		json_object_set_new(e, "fullness", json_string(f ? f : ""));
	} else {
		json_t *ch = json_array();

		for (int k = 0; k < pl_map_bucket_size(cm, r->id); k++)
			json_array_append_new(
				ch, json_integer(pl_map_bucket_item(cm, r->id,
								    k)));
		json_object_set_new(e, "children", ch);
	}
	return e;
}

static json_t *df_summary_json(const struct mgr_osd_df *d)
{
	return json_pack("{s:I, s:I, s:I, s:I, s:f, s:f, s:f, s:f}",
			 "total_kb", (json_int_t)(d->total >> 10),
			 "total_kb_used", (json_int_t)(d->used >> 10),
			 "total_kb_avail", (json_int_t)(d->avail >> 10),
			 "total_objects", (json_int_t)d->objects,
			 "average_utilization", d->avg, "min_var", d->min_var,
			 "max_var", d->max_var, "dev", d->dev);
}

/*
 * `osd df` lists the OSDs in crush tree order, then the ones outside the
 * tree; `osd df tree` the whole tree, buckets with the sums of the OSDs
 * below them, TYPE NAME indented as osd tree indents it.
 */
int ccmd_osd_df(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct mgr_snap s;
	struct mgr_osd_df d;
	const pl_map *cm;
	int as_tree = 0, r, ncol;

	if (argc >= 1 && !strcmp(argv[0], "tree")) {
		as_tree = 1;
		argc--;
		argv++;
	}
	if (cc_nargs(ctx, argc, argv, 0))
		return 1;
	r = cc_snap(ctx, 0, &s);
	if (r)
		return r;
	r = mgr_osd_df_compute(&s, &d);
	if (r) {
		mgr_snap_free(&s);
		return cc_err(ctx, "%s", cfs_strerror(r));
	}
	cm = cfs_osdmap_crush(s.m);
	if (ctx->json) {
		json_t *nodes = json_array();

		if (as_tree) {
			for (int i = 0; i < d.tree.n; i++) {
				const struct mgr_osd_row *n = &d.node[i];

				if (n->id >= 0 && !n->o)
					continue;
				json_array_append_new(
					nodes,
					df_node_json(cm, n,
						     w16(d.tree.v[i].weight),
						     d.tree.v[i].depth));
			}
		} else {
			for (int k = 0; k < d.n; k++) {
				const struct mgr_osd_row *w =
					&d.osd[d.order[k]];

				json_array_append_new(
					nodes,
					df_node_json(
						cm, w,
						w16(w->o->info.crush_weight),
						0));
			}
		}
		cc_json_out(ctx, json_pack("{s:o, s:[], s:o}", "nodes", nodes,
					   "stray", "summary",
					   df_summary_json(&d)));
	} else {
		struct cc_table *tb;

		ncol = as_tree ? 15 : 14;
		tb = cc_table_new(ncol, df_heads, df_right);
		if (as_tree) {
			for (int i = 0; i < d.tree.n; i++) {
				const struct mgr_osd_row *n = &d.node[i];
				int depth = d.tree.v[i].depth;

				if (n->id >= 0 && !n->o)
					continue;
				df_row(tb, n, w16(d.tree.v[i].weight));
				/* as osd tree: "root default", "    host
				 * a", "        osd.0" */
				if (n->o) {
					cc_table_cell(tb, "%*sosd.%d",
						      4 * depth, "", n->id);
				} else {
					const char *t = pl_map_type_name(
						cm, pl_map_bucket_type(cm,
								       n->id));
					const char *nm =
						pl_map_item_name(cm, n->id);

					cc_table_cell(tb, "%*s%s %s",
						      4 * depth, "",
						      t ? t : "?",
						      nm ? nm : "?");
				}
			}
		} else {
			for (int k = 0; k < d.n; k++) {
				const struct mgr_osd_row *w =
					&d.osd[d.order[k]];

				df_row(tb, w, w16(w->o->info.crush_weight));
			}
		}
		df_footer(ctx, tb, &d, ncol);
	}
	mgr_osd_df_free(&d);
	mgr_snap_free(&s);
	return 0;
}

/* ---- osd tree ---- */

/* `ceph osd tree` (OSDMap::print_tree, Ceph 16.2): CLASS is the device's
 * class in the crush map. */
int ccmd_osd_tree(struct cmd_ctx *ctx, int argc, char **argv)
{
	static const char *const heads[] = { "ID",	   "CLASS",  "WEIGHT",
					     "TYPE NAME", "STATUS", "REWEIGHT",
					     "PRI-AFF" };
	static const int right[] = { 1, 1, 1, 0, 1, 1, 1 };
	const cfs_osdmap *m;
	const pl_map *cm;
	struct mgr_tree t;
	json_t *nodes = NULL, *stray = NULL;
	struct cc_table *tb = NULL;
	char a[32], b[32];
	int max;

	if (cc_nargs(ctx, argc, argv, 0))
		return 1;
	m = cfs_osdmap_get(ctx->cluster);
	cm = cfs_osdmap_crush(m);
	max = cfs_osdmap_max_osd(m);
	if (mgr_crush_tree(cm, &t)) {
		cfs_osdmap_put(m);
		return cc_err(ctx, "out of memory");
	}
	if (ctx->json) {
		nodes = json_array();
		stray = json_array();
	} else {
		tb = cc_table_new(7, heads, right);
	}
	for (int i = 0; i < t.n; i++) {
		int id = t.v[i].id;
		char name[160];

		if (id < 0) {
			const char *tn = pl_map_type_name(
				cm, pl_map_bucket_type(cm, id));
			const char *in = pl_map_item_name(cm, id);

			if (ctx->json) {
				json_t *ch = json_array();

				for (int k = 0; k < pl_map_bucket_size(cm, id);
				     k++)
					json_array_append_new(
						ch, json_integer(pl_map_bucket_item(
							    cm, id, k)));
				json_array_append_new(
					nodes,
					json_pack("{s:i, s:s, s:s, s:i, s:o}",
						  "id", id, "name",
						  in ? in : "", "type",
						  tn ? tn : "", "type_id",
						  pl_map_bucket_type(cm, id),
						  "children", ch));
				continue;
			}
			snprintf(name, sizeof(name), "%*s%s %s",
				 t.v[i].depth * 4, "", tn ? tn : "?",
				 in ? in : "?");
			cc_table_cell(tb, "%d", id);
			cc_table_cell(tb, "%s", "");
			cc_weightf(a, sizeof(a), w16(t.v[i].weight));
			cc_table_cell(tb, "%s", a);
			cc_table_cell(tb, "%s", name);
			cc_table_cell(tb, "%s", "");
			cc_table_cell(tb, "%s", "");
			cc_table_cell(tb, "%s", "");
		} else {
			struct cfs_osd_info oi;
			int ex = cfs_osdmap_osd(m, id, &oi) == 0;

			if (ctx->json) {
				char nm[32];

				snprintf(nm, sizeof(nm), "osd.%d", id);
				json_array_append_new(
					nodes,
					json_pack("{s:i, s:s, s:s, s:i, s:f, "
						  "s:i, s:i, s:s, s:f, s:f}",
						  "id", id, "name", nm, "type",
						  "osd", "type_id", 0,
						  "crush_weight",
						  w16(t.v[i].weight), "depth",
						  t.v[i].depth, "exists", ex,
						  "status",
						  !ex ? "dne"
						      : oi.up ? "up" : "down",
						  "reweight",
						  ex ? w16(oi.reweight) : 0.0,
						  "primary_affinity",
						  ex ? w16(oi.primary_affinity)
						     : 0.0));
				if (pl_map_item_class(cm, id))
					json_object_set_new(
						json_array_get(
							nodes,
							json_array_size(nodes) -
								1),
						"device_class",
						json_string(
							pl_map_item_class(cm, id)));
				continue;
			}
			snprintf(name, sizeof(name), "%*sosd.%d",
				 t.v[i].depth * 4, "", id);
			cc_table_cell(tb, "%d", id);
			/* `ceph osd tree`'s CLASS: the device's class */
			cc_table_cell(tb, "%s",
				      pl_map_item_class(cm, id) ?
					      pl_map_item_class(cm, id) :
					      "");
			cc_weightf(a, sizeof(a), w16(t.v[i].weight));
			cc_table_cell(tb, "%s", a);
			cc_table_cell(tb, "%s", name);
			if (ex) {
				cc_table_cell(tb, "%s", oi.up ? "up" : "down");
				cc_weightf(a, sizeof(a), w16(oi.reweight));
				cc_weightf(b, sizeof(b),
					   w16(oi.primary_affinity));
				cc_table_cell(tb, "%s", a);
				cc_table_cell(tb, "%s", b);
			} else {
				cc_table_cell(tb, "%s", "DNE");
				cc_table_cell(tb, "%s", "0");
				cc_table_cell(tb, "%s", "");
			}
		}
	}
	/* OSDs the crush map does not place (Ceph's "stray" list) */
	for (int id = 0; id < max; id++) {
		struct cfs_osd_info oi;

		if (cfs_osdmap_osd(m, id, &oi) || mgr_tree_has(&t, id))
			continue;
		if (ctx->json) {
			char nm[32];

			snprintf(nm, sizeof(nm), "osd.%d", id);
			json_array_append_new(
				stray, json_pack("{s:i, s:s, s:s, s:s, s:f}",
						 "id", id, "name", nm, "type",
						 "osd", "status",
						 oi.up ? "up" : "down",
						 "reweight", w16(oi.reweight)));
			continue;
		}
		cc_table_cell(tb, "%d", id);
		cc_table_cell(tb, "%s", "");
		cc_table_cell(tb, "%s", "0");
		cc_table_cell(tb, "osd.%d", id);
		cc_table_cell(tb, "%s", oi.up ? "up" : "down");
		cc_weightf(a, sizeof(a), w16(oi.reweight));
		cc_weightf(b, sizeof(b), w16(oi.primary_affinity));
		cc_table_cell(tb, "%s", a);
		cc_table_cell(tb, "%s", b);
	}
	if (ctx->json) {
		cc_json_out(ctx, json_pack("{s:o, s:o}", "nodes", nodes,
					   "stray", stray));
	} else {
		cc_table_print(tb, ctx->out);
		cc_table_free(tb);
	}
	mgr_tree_free(&t);
	cfs_osdmap_put(m);
	return 0;
}

