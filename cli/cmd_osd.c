/*
 * cmd_osd.c - `osd df`, `osd tree`, `osd map` and the commands that change
 * the osdmap (each one epoch): out/in/down/up, reweight, crush reweight,
 * primary-affinity, set-capacity, add, and the ratios and full policy.
 * Text as Ceph 16.2 prints it (OSDUtilizationPlainDumper, TextTable,
 * OSDMonitor messages).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cluster.h"
#include "cluster_cmds.h"
#include "objlayer.h"
#include "osdmap.h"
#include "placement.h"
#include "usage.h"
#include "util.h"

/* ---- the crush tree, in `ceph osd tree` order ---- */

struct tree_item {
	int id;
	int depth;
	uint32_t weight; /* 16.16: the item's weight in its parent */
};

struct tree {
	struct tree_item *v;
	int n, cap;
};

static void tree_push(struct tree *t, int id, int depth, uint32_t w)
{
	if (t->n == t->cap) {
		int nc = t->cap ? t->cap * 2 : 64;
		struct tree_item *nv = realloc(t->v, sizeof(*nv) * (size_t)nc);

		if (!nv)
			return;
		t->v = nv;
		t->cap = nc;
	}
	t->v[t->n].id = id;
	t->v[t->n].depth = depth;
	t->v[t->n].weight = w;
	t->n++;
}

static void tree_dfs(const pl_map *cm, struct tree *t, int id, int depth,
		     uint32_t w)
{
	tree_push(t, id, depth, w);
	if (id >= 0 || depth > 32)
		return;
	for (int i = 0; i < pl_map_bucket_size(cm, id); i++)
		tree_dfs(cm, t, pl_map_bucket_item(cm, id, i), depth + 1,
			 pl_map_bucket_item_weight(cm, id, i));
}

/* Roots first (-1 first), each subtree depth first in bucket order. */
static void tree_build(const pl_map *cm, struct tree *t)
{
	for (int pos = 0; pos < pl_map_max_buckets(cm); pos++) {
		int id = -1 - pos;

		/* shadow trees (default~hdd) are not the user's: osd tree
		 * does not show them */
		if (pl_map_bucket_exists(cm, id) && !pl_map_parent(cm, id) &&
		    !pl_map_bucket_is_shadow(cm, id))
			tree_dfs(cm, t, id, 0, pl_map_bucket_weight(cm, id));
	}
}

static int tree_has(const struct tree *t, int id)
{
	for (int i = 0; i < t->n; i++)
		if (t->v[i].id == id)
			return 1;
	return 0;
}

static double w16(uint32_t w)
{
	return (double)((float)w / (float)0x10000);
}

/* PGs whose acting set holds the OSD, every pool's (PGMap's num_pg by
 * OSD) */
static int pgs_of(const cfs_osdmap *m, int osd)
{
	int n = 0;

	for (int p = 0; p < cfs_osdmap_npools(m); p++) {
		const struct cfs_pool_info *q = cfs_osdmap_pool_at(m, p);

		for (uint32_t ps = 0; ps < q->pg_num; ps++) {
			const struct cfs_pg_mapping *pg =
				cfs_osdmap_pool_pg(m, q->id, ps);

			for (int i = 0; pg && i < pg->nacting; i++)
				if (pg->acting[i] == osd)
					n++;
		}
	}
	return n;
}

/* ---- osd df ---- */

struct df_row {
	const struct cfs_osd_snap *o; /* in the health snapshot */
	/* what Ceph reports: an out OSD's statistics read 0 (Ceph 16.2's
	 * mgr keeps none for it), whatever it still holds */
	uint64_t size, used, avail;
	double util, var;
	int pgs;
};

static const char *fullness_name(int f)
{
	return f == CFS_FULLNESS_FULL		? "full"
	       : f == CFS_FULLNESS_BACKFILLFULL ? "backfillfull"
	       : f == CFS_FULLNESS_NEARFULL	? "nearfull"
					       : NULL;
}

/* The table, then OSDUtilizationDumper's summary line. */
static void df_footer(struct cmd_ctx *ctx, struct cc_table *tb,
		      double min_var, double max_var, double dev)
{
	char a[32], b[32], c[32];

	cc_table_print(tb, ctx->out);
	cc_table_free(tb);
	cc_lowprec(a, sizeof(a), min_var);
	cc_lowprec(b, sizeof(b), max_var);
	cc_lowprec(c, sizeof(c), dev);
	fprintf(ctx->out, "MIN/MAX VAR: %s/%s  STDDEV: %s\n", a, b, c);
}

/* Sums of a bucket's OSDs (each counted once: an OSD may sit under two
 * buckets of one subtree only in odd maps). */
struct df_sum {
	uint64_t size, used, avail, objects;
	int pgs;
};

static void df_sum_add(struct df_sum *s, const struct df_row *r)
{
	s->size += r->size;
	s->used += r->used;
	s->avail += r->avail;
	s->objects += r->o->objects;
	s->pgs += r->pgs;
}

/*
 * `osd df tree`: OSDUtilizationDumper's tree form (Ceph 16.2
 * OSDMap.cc): the crush tree in `osd tree` order, buckets with the sums of
 * the OSDs below them and a utilization of their own, VAR against the
 * cluster's average, TYPE NAME indented as osd tree indents it.
 */
static int df_tree(struct cmd_ctx *ctx, const cfs_osdmap *m,
		   const struct tree *t, const struct df_row *rows, int max,
		   const struct cfs_health *h, double avg, double min_var,
		   double max_var, double dev)
{
	static const char *const heads[] = {
		"ID",	"WEIGHT", "REWEIGHT", "SIZE",	 "USE",	   "AVAIL",
		"%USE", "VAR",	  "PGS",      "OBJECTS", "STATUS", "TYPE NAME"
	};
	static const int right[] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0 };
	const pl_map *cm = cfs_osdmap_crush(m);
	json_t *nodes = ctx->json ? json_array() : NULL;
	struct cc_table *tb = ctx->json ? NULL : cc_table_new(12, heads, right);
	char a[32], b[32], c[32];

	for (int i = 0; i < t->n; i++) {
		int id = t->v[i].id, depth = t->v[i].depth;
		struct df_sum s = { 0 };
		const struct df_row *r = NULL;
		const char *type, *name, *f = NULL;
		char nm[32];
		double util, var;

		if (id >= 0) {
			if (id >= max || !cfs_osdmap_exists(m, id) ||
			    !rows[id].o)
				continue;
			r = &rows[id];
			df_sum_add(&s, r);
			type = "osd";
			snprintf(nm, sizeof(nm), "osd.%d", id);
			name = nm;
			f = fullness_name(r->o->fullness);
		} else {
			/* the subtree: what follows, deeper than the bucket */
			for (int k = i + 1; k < t->n && t->v[k].depth > depth;
			     k++) {
				int o = t->v[k].id;

				if (o >= 0 && o < max && rows[o].o)
					df_sum_add(&s, &rows[o]);
			}
			type = pl_map_type_name(cm, pl_map_bucket_type(cm, id));
			name = pl_map_item_name(cm, id);
			type = type ? type : "?";
			name = name ? name : "?";
		}
		util = s.size ? 100.0 * (double)s.used / (double)s.size : 0;
		var = avg ? util / avg : 1.0;
		if (nodes) {
			json_t *e = json_pack(
				"{s:i, s:s, s:s, s:f, s:I, s:I, s:I, s:f, s:f, "
				"s:i, s:I}",
				"id", id, "name", name, "type", type,
				"crush_weight", w16(t->v[i].weight), "kb",
				(json_int_t)(s.size >> 10), "kb_used",
				(json_int_t)(s.used >> 10), "kb_avail",
				(json_int_t)(s.avail >> 10), "utilization",
				util, "var", var, "pgs", s.pgs, "objects",
				(json_int_t)s.objects);

			if (r) {
				json_object_set_new(
					e, "reweight",
					json_real(w16(r->o->info.reweight)));
				json_object_set_new(
					e, "status",
					json_string(r->o->info.up ? "up" :
								    "down"));
				json_object_set_new(e, "fullness",
						    json_string(f ? f : ""));
			} else {
				json_t *ch = json_array();

				for (int k = 0; k < pl_map_bucket_size(cm, id);
				     k++)
					json_array_append_new(
						ch, json_integer(
							    pl_map_bucket_item(
								    cm, id, k)));
				json_object_set_new(e, "children", ch);
			}
			json_array_append_new(nodes, e);
			continue;
		}
		cc_table_cell(tb, "%d", id);
		cc_weightf(a, sizeof(a), w16(t->v[i].weight));
		cc_table_cell(tb, "%s", a);
		if (r)
			cc_weightf(a, sizeof(a), w16(r->o->info.reweight));
		cc_table_cell(tb, "%s", r ? a : "-");
		cc_table_cell(tb, "%s", cfs_format_size(s.size, a, sizeof(a)));
		cc_table_cell(tb, "%s", cfs_format_size(s.used, a, sizeof(a)));
		cc_table_cell(tb, "%s", cfs_format_size(s.avail, a, sizeof(a)));
		cc_lowprec(a, sizeof(a), util);
		cc_table_cell(tb, "%s", a);
		cc_lowprec(a, sizeof(a), var);
		cc_table_cell(tb, "%s", a);
		if (r)
			cc_table_cell(tb, "%d", s.pgs);
		else
			cc_table_cell(tb, "%s", "-");
		cc_table_cell(tb, "%llu", (unsigned long long)s.objects);
		if (r)
			cc_table_cell(tb, "%s%s%s%s",
				      r->o->info.up ? "up" : "down",
				      r->o->info.reweight ? "" : ",out",
				      f ? "," : "", f ? f : "");
		else
			cc_table_cell(tb, "%s", "");
		/* as osd tree: "root default", "    host a", "        osd.0" */
		if (r)
			cc_table_cell(tb, "%*s%s", 4 * depth, "", name);
		else
			cc_table_cell(tb, "%*s%s %s", 4 * depth, "", type, name);
	}
	if (nodes) {
		return cc_json_out(
			ctx,
			json_pack("{s:o, s:[], s:{s:I, s:I, s:I, s:I, s:f, "
				  "s:f, s:f, s:f}}",
				  "nodes", nodes, "stray", "summary",
				  "total_kb", (json_int_t)(h->total >> 10),
				  "total_kb_used", (json_int_t)(h->used >> 10),
				  "total_kb_avail",
				  (json_int_t)(h->avail >> 10), "total_objects",
				  (json_int_t)h->objects,
				  "average_utilization", avg, "min_var",
				  min_var, "max_var", max_var, "dev", dev));
	}
	for (int k = 0; k < 12; k++)
		cc_table_cell(tb, "%s",
			      k == 2	? "TOTAL" :
			      k == 3	? cfs_format_size(h->total, a, sizeof(a)) :
			      k == 4	? cfs_format_size(h->used, b, sizeof(b)) :
			      k == 5	? cfs_format_size(h->avail, c, sizeof(c)) :
					  "");
	df_footer(ctx, tb, min_var, max_var, dev);
	return 0;
}

int ccmd_osd_df(struct cmd_ctx *ctx, int argc, char **argv)
{
	static const char *const heads[] = { "ID",    "WEIGHT", "REWEIGHT",
					     "SIZE",  "USE",	"AVAIL",
					     "%USE",  "VAR",	"PGS",
					     "OBJECTS", "STATUS", "%USE GRAPH" };
	static const int right[] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0 };
	const cfs_osdmap *m;
	struct cfs_health h;
	struct tree t = { 0 };
	struct df_row *rows;
	int *order, n = 0, max, r;
	uint64_t in_kb = 0, in_used = 0;
	double avg, min_var = -1, max_var = -1, dev = 0, wsum = 0;

	int as_tree = 0;

	/* `ceph osd df tree`: the buckets too, each with its OSDs' sums */
	if (argc >= 1 && !strcmp(argv[0], "tree")) {
		as_tree = 1;
		argc--;
		argv++;
	}
	if (cc_nargs(ctx, argc, argv, 0))
		return 1;
	m = cfs_osdmap_get(ctx->cluster);
	max = cfs_osdmap_max_osd(m);
	/* every OSD's usage read once: the rows, totals and statuses agree */
	r = cfs_health_take(ctx->cluster, m, NULL, 0, NULL, &h);
	if (r) {
		cfs_osdmap_put(m);
		return cc_err(ctx, "cannot take the usage snapshot: %s",
			      cfs_strerror(r));
	}
	rows = calloc((size_t)max + 1, sizeof(*rows));
	order = calloc((size_t)max + 1, sizeof(int));
	if (!rows || !order) {
		free(rows);
		free(order);
		cfs_health_free(&h);
		cfs_osdmap_put(m);
		return cc_err(ctx, "out of memory");
	}
	tree_build(cfs_osdmap_crush(m), &t);
	/* OSDs in crush tree order, then the ones outside the tree */
	for (int i = 0; i < t.n; i++)
		if (t.v[i].id >= 0 && cfs_osdmap_exists(m, t.v[i].id)) {
			int dup = 0;

			for (int k = 0; k < n; k++)
				dup |= order[k] == t.v[i].id;
			if (!dup)
				order[n++] = t.v[i].id;
		}
	for (int id = 0; id < max; id++)
		if (cfs_osdmap_exists(m, id) && !tree_has(&t, id))
			order[n++] = id;

	for (int k = 0; k < n; k++) {
		struct df_row *r = &rows[order[k]];
		int id = order[k];

		r->o = &h.osd[id];
		if (r->o->in) {
			r->size = r->o->info.capacity;
			r->used = r->o->used;
			r->avail = r->o->avail;
		}
		r->util = r->size ? 100.0 * (double)r->used / (double)r->size
				  : 0;
		r->pgs = pgs_of(m, id);
		if (r->o->info.reweight && r->o->info.capacity) {
			in_kb += r->o->info.capacity;
			in_used += r->o->used;
		}
	}
	/* OSDUtilizationDumper: the average over in OSDs; VAR relative to it;
	 * STDDEV weighted by reweight */
	avg = in_kb ? 100.0 * (double)in_used / (double)in_kb : 0;
	for (int k = 0; k < n; k++) {
		struct df_row *r = &rows[order[k]];
		double rw = w16(r->o->info.reweight), d;

		r->var = !r->o->in ? 0 : avg ? r->util / avg : 1.0;
		if (rw > 0) {
			if (min_var < 0 || r->var < min_var)
				min_var = r->var;
			if (max_var < 0 || r->var > max_var)
				max_var = r->var;
			d = r->util - avg;
			dev += rw * d * d;
			wsum += rw;
		}
	}
	dev = wsum > 0 ? sqrt(dev / wsum) : 0;

	if (as_tree) {
		r = df_tree(ctx, m, &t, rows, max, &h, avg, min_var, max_var,
			    dev);
	} else if (ctx->json) {
		json_t *nodes = json_array(), *root;

		for (int k = 0; k < n; k++) {
			struct df_row *r = &rows[order[k]];
			const char *f = fullness_name(r->o->fullness);

			char nm[32];

			snprintf(nm, sizeof(nm), "osd.%d", r->o->info.id);
			json_array_append_new(
				nodes,
				json_pack(
					"{s:i, s:s, s:s, s:f, s:f, s:I, s:I, "
					"s:I, s:I, s:I, s:I, s:f, s:f, s:i, "
					"s:I, s:s, s:s}",
					"id", r->o->info.id, "name", nm, "type",
					"osd", "crush_weight",
					w16(r->o->info.crush_weight), "reweight",
					w16(r->o->info.reweight), "kb",
					(json_int_t)(r->size >> 10),
					"kb_used", (json_int_t)(r->used >> 10),
					"kb_avail", (json_int_t)(r->avail >> 10),
					"bytes", (json_int_t)r->size,
					"bytes_used", (json_int_t)r->used,
					"bytes_avail", (json_int_t)r->avail,
					"utilization", r->util, "var", r->var,
					"pgs", r->pgs, "objects",
					(json_int_t)r->o->objects, "status",
					r->o->info.up ? "up" : "down", "fullness",
					f ? f : ""));
		}
		root = json_pack("{s:o, s:[], s:{s:I, s:I, s:I, s:I, s:f, s:f, "
				 "s:f, s:f}}",
				 "nodes", nodes, "stray", "summary", "total_kb",
				 (json_int_t)(h.total >> 10), "total_kb_used",
				 (json_int_t)(h.used >> 10), "total_kb_avail",
				 (json_int_t)(h.avail >> 10), "total_objects",
				 (json_int_t)h.objects, "average_utilization",
				 avg, "min_var", min_var, "max_var", max_var,
				 "dev", dev);
		cc_json_out(ctx, root);
	} else {
		struct cc_table *tb = cc_table_new(12, heads, right);
		char a[32], b[32], c[32];

		for (int k = 0; k < n; k++) {
			struct df_row *r = &rows[order[k]];
			const char *f = fullness_name(r->o->fullness);
			char bar[32];
			int fill = (int)(r->util / 5.0 + 0.5);

			if (fill > 20)
				fill = 20;
			for (int i = 0; i < 20; i++)
				bar[i] = i < fill ? '#' : '.';
			bar[20] = 0;
			cc_table_cell(tb, "%d", r->o->info.id);
			cc_weightf(a, sizeof(a), w16(r->o->info.crush_weight));
			cc_table_cell(tb, "%s", a);
			cc_weightf(a, sizeof(a), w16(r->o->info.reweight));
			cc_table_cell(tb, "%s", a);
			cc_table_cell(tb, "%s",
				      cfs_format_size(r->size, a, sizeof(a)));
			cc_table_cell(tb, "%s",
				      cfs_format_size(r->used, a, sizeof(a)));
			cc_table_cell(tb, "%s",
				      cfs_format_size(r->avail, a, sizeof(a)));
			cc_lowprec(a, sizeof(a), r->util);
			cc_table_cell(tb, "%s", a);
			cc_lowprec(a, sizeof(a), r->var);
			cc_table_cell(tb, "%s", a);
			cc_table_cell(tb, "%d", r->pgs);
			cc_table_cell(tb, "%llu",
				      (unsigned long long)r->o->objects);
			cc_table_cell(tb, "%s%s%s%s",
				      r->o->info.up ? "up" : "down",
				      r->o->info.reweight ? "" : ",out",
				      f ? "," : "", f ? f : "");
			cc_table_cell(tb, "[%s]", bar);
		}
		cc_table_cell(tb, "%s", "");
		cc_table_cell(tb, "%s", "");
		cc_table_cell(tb, "%s", "TOTAL");
		cc_table_cell(tb, "%s", cfs_format_size(h.total, a, sizeof(a)));
		cc_table_cell(tb, "%s",
			      cfs_format_size(h.used, b, sizeof(b)));
		cc_table_cell(tb, "%s",
			      cfs_format_size(h.avail, c, sizeof(c)));
		cc_lowprec(a, sizeof(a), avg);
		cc_table_cell(tb, "%s", a);
		cc_table_cell(tb, "%s", "");
		cc_table_cell(tb, "%s", "");
		cc_table_cell(tb, "%llu", (unsigned long long)h.objects);
		cc_table_cell(tb, "%s", "");
		cc_table_cell(tb, "%s", "");
		df_footer(ctx, tb, min_var, max_var, dev);
	}
	free(t.v);
	free(rows);
	free(order);
	cfs_health_free(&h);
	cfs_osdmap_put(m);
	return r;
}

/* ---- osd tree ---- */

int ccmd_osd_tree(struct cmd_ctx *ctx, int argc, char **argv)
{
	static const char *const heads[] = { "ID",	   "CLASS",  "WEIGHT",
					     "TYPE NAME", "STATUS", "REWEIGHT",
					     "PRI-AFF" };
	static const int right[] = { 1, 1, 1, 0, 1, 1, 1 };
	const cfs_osdmap *m;
	const pl_map *cm;
	struct tree t = { 0 };
	json_t *nodes = NULL, *stray = NULL;
	struct cc_table *tb = NULL;
	char a[32], b[32];
	int max;

	if (cc_nargs(ctx, argc, argv, 0))
		return 1;
	m = cfs_osdmap_get(ctx->cluster);
	cm = cfs_osdmap_crush(m);
	max = cfs_osdmap_max_osd(m);
	tree_build(cm, &t);
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

		if (cfs_osdmap_osd(m, id, &oi) || tree_has(&t, id))
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
	free(t.v);
	cfs_osdmap_put(m);
	return 0;
}

/* ---- osd map ---- */

static json_t *int_array(const int *v, int n)
{
	json_t *a = json_array();

	for (int i = 0; i < n; i++)
		json_array_append_new(a, json_integer(v[i]));
	return a;
}

static void put_vec(FILE *f, const int *v, int n)
{
	fputc('[', f);
	for (int i = 0; i < n; i++)
		fprintf(f, "%s%d", i ? "," : "", v[i]);
	fputc(']', f);
}

int ccmd_osd_map(struct cmd_ctx *ctx, int argc, char **argv)
{
	const cfs_osdmap *m;
	const struct cfs_pool_info *p;
	const struct cfs_pg_mapping *pg;
	uint32_t raw, ps;

	if (cc_nargs(ctx, argc, argv, argc == 2 ? 2 : 1))
		return 1;
	m = cfs_osdmap_get(ctx->cluster);
	p = cfs_osdmap_pool(m);
	if (argc == 2) {
		/* `ceph osd map POOL OBJECT`; one argument: the data pool */
		char *end;
		long long id = strtoll(argv[0], &end, 10);

		p = cfs_osdmap_pool_by_name(m, argv[0]);
		if (!p && *argv[0] && !*end)
			p = cfs_osdmap_pool_by_id(m, id);
		if (!p) {
			cfs_osdmap_put(m);
			return cc_err(ctx, "pool %s does not exist", argv[0]);
		}
		argv++;
	}
	if (!*argv[0]) {
		cfs_osdmap_put(m);
		return cc_err(ctx, "empty object name");
	}
	/* object_locator_to_pg: the name's hash, stable_mod by the pool's
	 * pg_num */
	raw = pl_object_ps(argv[0], strlen(argv[0]));
	ps = pl_pg_seed(raw, p->pg_num);
	pg = cfs_osdmap_pool_pg(m, p->id, ps);
	if (!pg) {
		cfs_osdmap_put(m);
		return cc_err(ctx, "pool %s has no map for pg %lld.%x",
			      p->name, (long long)p->id, ps);
	}
	if (ctx->json) {
		char rawid[32], pgid[32];

		snprintf(rawid, sizeof(rawid), "%lld.%x", (long long)p->id,
			 raw);
		snprintf(pgid, sizeof(pgid), "%lld.%x", (long long)p->id, ps);
		cc_json_out(ctx,
			    json_pack("{s:i, s:s, s:I, s:s, s:s, s:s, s:o, "
				      "s:i, s:o, s:i}",
				      "epoch", (int)cfs_osdmap_epoch(m), "pool",
				      p->name, "pool_id", (json_int_t)p->id,
				      "objname", argv[0], "raw_pgid", rawid,
				      "pgid", pgid, "up",
				      int_array(pg->up, pg->nup), "up_primary",
				      pg->up_primary, "acting",
				      int_array(pg->acting, pg->nacting),
				      "acting_primary", pg->acting_primary));
	} else {
		/* OSDMonitor "osd map": the raw pg is the full hash */
		fprintf(ctx->out,
			"osdmap e%u pool '%s' (%lld) object '%s' -> pg "
			"%lld.%x (%lld.%x) -> up (",
			cfs_osdmap_epoch(m), p->name, (long long)p->id, argv[0],
			(long long)p->id, raw, (long long)p->id, ps);
		put_vec(ctx->out, pg->up, pg->nup);
		fprintf(ctx->out, ", p%d) acting (", pg->up_primary);
		put_vec(ctx->out, pg->acting, pg->nacting);
		fprintf(ctx->out, ", p%d)\n", pg->acting_primary);
	}
	cfs_osdmap_put(m);
	return 0;
}

/* ---- changes ---- */

int cc_done_epoch(struct cmd_ctx *ctx, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	const cfs_osdmap *m = cfs_osdmap_get(ctx->cluster);
	uint32_t e = cfs_osdmap_epoch(m);

	cfs_osdmap_put(m);
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (ctx->json)
		return cc_json_out(ctx, json_pack("{s:i, s:s}", "epoch", (int)e,
						  "message", msg));
	fprintf(ctx->out, "%s\n", msg);
	return 0;
}

static int change_failed(struct cmd_ctx *ctx, int r)
{
	return cc_err(ctx, "cannot change the osdmap: %s", cfs_strerror(r));
}

enum mark { MARK_OUT, MARK_IN, MARK_DOWN, MARK_UP };

static int mark(struct cmd_ctx *ctx, int argc, char **argv, enum mark what)
{
	static const char *const word[] = { "out", "in", "down", "up" };
	const cfs_osdmap *m;
	struct cfs_osd_info oi;
	int id, r, already;

	if (cc_nargs(ctx, argc, argv, 1) || cc_osd_arg(ctx, argv[0], &id))
		return 1;
	m = cfs_osdmap_get(ctx->cluster);
	cfs_osdmap_osd(m, id, &oi);
	cfs_osdmap_put(m);
	switch (what) {
	case MARK_OUT:
		already = oi.reweight == 0;
		break;
	case MARK_IN:
		already = oi.reweight == CFS_WEIGHT_ONE;
		break;
	case MARK_DOWN:
		already = !oi.up;
		break;
	default:
		already = oi.up;
		break;
	}
	if (already)
		return cc_done_epoch(ctx, "osd.%d is already %s.", id,
				  word[what]);
	switch (what) {
	case MARK_OUT:
		r = cfs_osd_mark_out(ctx->cluster, id);
		break;
	case MARK_IN:
		r = cfs_osd_mark_in(ctx->cluster, id);
		break;
	case MARK_DOWN:
		r = cfs_osd_mark_down(ctx->cluster, id);
		break;
	default:
		r = cfs_osd_mark_up(ctx->cluster, id);
		break;
	}
	if (r)
		return change_failed(ctx, r);
	return cc_done_epoch(ctx, "marked %s osd.%d.", word[what], id);
}

int ccmd_osd_out(struct cmd_ctx *ctx, int argc, char **argv)
{
	return mark(ctx, argc, argv, MARK_OUT);
}

int ccmd_osd_in(struct cmd_ctx *ctx, int argc, char **argv)
{
	return mark(ctx, argc, argv, MARK_IN);
}

int ccmd_osd_down(struct cmd_ctx *ctx, int argc, char **argv)
{
	return mark(ctx, argc, argv, MARK_DOWN);
}

int ccmd_osd_up(struct cmd_ctx *ctx, int argc, char **argv)
{
	return mark(ctx, argc, argv, MARK_UP);
}

int ccmd_osd_reweight(struct cmd_ctx *ctx, int argc, char **argv)
{
	double w;
	uint32_t ww;
	int id, r;

	if (cc_nargs(ctx, argc, argv, 2) || cc_osd_arg(ctx, argv[0], &id) ||
	    cc_double_arg(ctx, "weight", argv[1], 0.0, 1.0, &w))
		return 1;
	/* OSDMonitor: ww = (int)((float)w * CEPH_OSD_IN) */
	ww = (uint32_t)((float)w * (float)CFS_WEIGHT_ONE);
	r = cfs_osd_reweight(ctx->cluster, id, ww);
	if (r)
		return change_failed(ctx, r);
	return cc_done_epoch(ctx, "reweighted osd.%d to %g (%x)", id, w, ww);
}

int ccmd_osd_primary_affinity(struct cmd_ctx *ctx, int argc, char **argv)
{
	double w;
	uint32_t ww;
	int id, r;

	if (cc_nargs(ctx, argc, argv, 2) || cc_osd_arg(ctx, argv[0], &id) ||
	    cc_double_arg(ctx, "weight", argv[1], 0.0, 1.0, &w))
		return 1;
	ww = (uint32_t)((float)w * (float)CFS_WEIGHT_ONE);
	r = cfs_osd_primary_affinity(ctx->cluster, id, ww);
	if (r)
		return change_failed(ctx, r);
	return cc_done_epoch(ctx, "set osd.%d primary-affinity to %g (%x)", id,
			  w, ww);
}

int ccmd_osd_crush_reweight(struct cmd_ctx *ctx, int argc, char **argv)
{
	double w;
	uint32_t ww;
	int id, r;

	if (cc_nargs(ctx, argc, argv, 2) || cc_osd_arg(ctx, argv[0], &id) ||
	    cc_double_arg(ctx, "weight", argv[1], 0.0,
			  (double)CFS_MAX_DEVICE_WEIGHT / CFS_WEIGHT_ONE, &w))
		return 1; /* the map is kept as crushtool text: <= 100 */
	/* CrushWrapper: (int)(weight * (float)0x10000) */
	ww = (uint32_t)((float)w * (float)0x10000);
	r = cfs_osd_crush_reweight(ctx->cluster, id, ww);
	if (r == -ENXIO)
		return cc_err(ctx, "osd.%d is not in the crush map", id);
	if (r)
		return change_failed(ctx, r);
	return cc_done_epoch(ctx,
			  "reweighted item id %d name 'osd.%d' to %g in crush "
			  "map",
			  id, id, w);
}

int ccmd_osd_set_capacity(struct cmd_ctx *ctx, int argc, char **argv)
{
	uint64_t sz;
	char buf[32];
	int id, r;

	if (cc_nargs(ctx, argc, argv, 2) || cc_osd_arg(ctx, argv[0], &id) ||
	    cc_size_arg(ctx, "size", argv[1], &sz))
		return 1;
	if (sz > (1ULL << 60))
		return cc_err(ctx, "size: '%s' is too large (max 1 EiB)",
			      argv[1]);
	r = cfs_osd_set_capacity(ctx->cluster, id, sz);
	if (r)
		return change_failed(ctx, r);
	return cc_done_epoch(ctx, "set osd.%d capacity to %s", id,
			  cfs_format_size(sz, buf, sizeof(buf)));
}

int ccmd_osd_add(struct cmd_ctx *ctx, int argc, char **argv)
{
	const char *host = NULL;
	uint64_t size = 0;
	char buf[32], wb[32];
	uint32_t w;
	int id, r;

	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--host") && i + 1 < argc) {
			host = argv[++i];
		} else if (!strncmp(argv[i], "--host=", 7)) {
			host = argv[i] + 7;
		} else if (!strcmp(argv[i], "--size") && i + 1 < argc) {
			if (cc_size_arg(ctx, "--size", argv[++i], &size))
				return 1;
		} else if (!strncmp(argv[i], "--size=", 7)) {
			if (cc_size_arg(ctx, "--size", argv[i] + 7, &size))
				return 1;
		} else if (!strcmp(argv[i], "--host") ||
			   !strcmp(argv[i], "--size")) {
			return cc_usage(ctx, "%s: missing value", argv[i]);
		} else {
			return cc_usage(ctx, "unexpected argument '%s'",
					argv[i]);
		}
	}
	if (!host)
		return cc_usage(ctx, "--host is required");
	if (!*host || strlen(host) > 60 || strchr(host, ' '))
		return cc_err(ctx, "--host: '%s' is not a bucket name", host);
	if (size == 0) {
		/* like the other OSDs: the capacity of osd 0 or 1 GiB */
		const cfs_osdmap *m = cfs_osdmap_get(ctx->cluster);
		struct cfs_osd_info oi;

		size = 1ULL << 30;
		for (int k = 0; k < cfs_osdmap_max_osd(m); k++)
			if (!cfs_osdmap_osd(m, k, &oi)) {
				size = oi.capacity;
				break;
			}
		cfs_osdmap_put(m);
	}
	if (size == 0 || size > (1ULL << 60))
		return cc_err(ctx, "--size: out of range");
	if (cfs_size_crush_weight(size, &w))
		return cc_err(ctx,
			      "--size %s: its crush weight (the size in TiB) "
			      "would be over 100, the most a crush map allows; "
			      "weights are relative: add it with --size 100T "
			      "or less, then 'osd set-capacity'",
			      cfs_format_size(size, buf, sizeof(buf)));
	r = cfs_osd_add(ctx->cluster, host, size, &id);
	if (r == -ENOTDIR)
		return cc_err(ctx, "--host: '%s' names a device, not a bucket",
			      host);
	if (r == -ENOENT)
		return cc_err(ctx, "the crush map has no root to add '%s' to",
			      host);
	if (r == -EEXIST)
		return cc_err(ctx,
			      "%s/osd.N: a folder with objects is in the way",
			      cfs_cluster_dir(ctx->cluster));
	if (r)
		return change_failed(ctx, r);
	{
		const cfs_osdmap *m = cfs_osdmap_get(ctx->cluster);
		struct cfs_osd_info oi;

		cfs_osdmap_osd(m, id, &oi);
		cfs_osdmap_put(m);
		cc_weightf(wb, sizeof(wb), w16(oi.crush_weight));
	}
	return cc_done_epoch(ctx, "added osd.%d on host %s (capacity %s, crush "
			       "weight %s)",
			  id, host, cfs_format_size(size, buf, sizeof(buf)),
			  wb);
}

static int ratio_cmd(struct cmd_ctx *ctx, int argc, char **argv,
		     int (*set)(cfs_cluster *, double), const char *name)
{
	double v;
	int r;

	if (cc_nargs(ctx, argc, argv, 1) ||
	    cc_double_arg(ctx, "ratio", argv[0], 0.0, 1.0, &v))
		return 1;
	if (v <= 0)
		return cc_err(ctx, "ratio: must be more than 0");
	r = set(ctx->cluster, v);
	if (r)
		return change_failed(ctx, r);
	return cc_done_epoch(ctx, "%s is now %g", name, v);
}

int ccmd_set_full_ratio(struct cmd_ctx *ctx, int argc, char **argv)
{
	return ratio_cmd(ctx, argc, argv, cfs_set_full_ratio, "full_ratio");
}

int ccmd_set_backfillfull_ratio(struct cmd_ctx *ctx, int argc, char **argv)
{
	return ratio_cmd(ctx, argc, argv, cfs_set_backfillfull_ratio,
			 "backfillfull_ratio");
}

int ccmd_set_nearfull_ratio(struct cmd_ctx *ctx, int argc, char **argv)
{
	return ratio_cmd(ctx, argc, argv, cfs_set_nearfull_ratio,
			 "nearfull_ratio");
}

int ccmd_set_full_policy(struct cmd_ctx *ctx, int argc, char **argv)
{
	int p, r;

	if (cc_nargs(ctx, argc, argv, 1))
		return 1;
	if (!strcmp(argv[0], "osd"))
		p = CFS_FULL_OSD;
	else if (!strcmp(argv[0], "pool"))
		p = CFS_FULL_POOL;
	else
		return cc_err(ctx, "'%s' is not a policy (osd or pool)",
			      argv[0]);
	r = cfs_set_full_policy(ctx->cluster, p);
	if (r)
		return change_failed(ctx, r);
	return cc_done_epoch(ctx, "full policy is now %s", argv[0]);
}
