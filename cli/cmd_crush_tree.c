/*
 * cmd_crush_tree.c - the crush hierarchy as the monitor shows it: `osd
 * crush tree [--show-shadow]` (CrushWrapper::dump_tree with
 * CrushTreeDumper) and `osd crush ls NODE`, of Ceph 16.2.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli.h"
#include "cluster_cmds.h"
#include "osdmap.h"
#include "placement.h"
#include "util.h"

static double wf(uint32_t w)
{
	return (double)((float)w / (float)0x10000);
}

/* ---- osd crush tree ---- */

struct titem {
	int id, parent, depth;
	uint32_t weight;
};

struct tstack {
	struct titem *v;
	int n, cap;
};

static int tpush(struct tstack *s, struct titem it)
{
	if (s->n == s->cap) {
		int nc = s->cap ? s->cap * 2 : 64;
		struct titem *nv = realloc(s->v, sizeof(*nv) * (size_t)nc);

		if (!nv)
			return -ENOMEM;
		s->v = nv;
		s->cap = nc;
	}
	s->v[s->n++] = it;
	return 0;
}

struct child {
	char key[160];
	int id;
	uint32_t weight;
};

static int child_cmp(const void *a, const void *b)
{
	return strcmp(((const struct child *)a)->key,
		      ((const struct child *)b)->key);
}

/*
 * A bucket's children in CrushTreeDumper::Dumper::next's order: sorted by
 * (class, name), OSDs as "CLASS_osd.%08d" and buckets as "_NAME" (so
 * OSDs of a class come after the buckets).  Returns how many, in *out
 * (malloc'ed).
 */
static int sorted_children(const pl_map *cm, int id, struct child **out)
{
	int n = pl_map_bucket_size(cm, id);
	struct child *c = calloc((size_t)(n ? n : 1), sizeof(*c));

	*out = c;
	if (!c)
		return -ENOMEM;
	for (int k = 0; k < n; k++) {
		int it = pl_map_bucket_item(cm, id, k);
		const char *cls = pl_map_item_class(cm, it);
		const char *nm = pl_map_item_name(cm, it);

		c[k].id = it;
		c[k].weight = pl_map_bucket_item_weight(cm, id, k);
		if (it >= 0)
			snprintf(c[k].key, sizeof(c[k].key), "%s_osd.%08d",
				 cls ? cls : "", it);
		else
			snprintf(c[k].key, sizeof(c[k].key), "_%s",
				 nm ? nm : "");
	}
	qsort(c, (size_t)n, sizeof(*c), child_cmp);
	return n;
}

/*
 * The items in dump order (depth first from each root, roots in
 * ascending id order as std::set<int> keeps them, so -2 "default~hdd"
 * before -1 "default"); shadow roots only with show_shadow.
 */
static int tree_walk(const pl_map *cm, int show_shadow, struct tstack *out)
{
	struct tstack todo = { 0 };
	int nb = pl_map_max_buckets(cm), r = 0;
	/* CrushWrapper::find_roots: buckets in no bucket, shadow ones
	 * included (a shadow host sits in its shadow root) */
	char *child = calloc((size_t)(nb ? nb : 1), 1);

	if (!child)
		return -ENOMEM;
	for (int pos = 0; pos < nb; pos++)
		for (int k = 0; pl_map_bucket_exists(cm, -1 - pos) &&
				k < pl_map_bucket_size(cm, -1 - pos);
		     k++) {
			int it = pl_map_bucket_item(cm, -1 - pos, k);

			if (it < 0 && -1 - it < nb)
				child[-1 - it] = 1;
		}
	for (int pos = nb - 1; pos >= 0 && !r; pos--) {
		int root = -1 - pos;

		if (!pl_map_bucket_exists(cm, root) || child[pos] ||
		    (!show_shadow && pl_map_bucket_is_shadow(cm, root)))
			continue;
		r = tpush(&todo, (struct titem){ root, 0, 0,
						 pl_map_bucket_weight(cm, root) });
		while (!r && todo.n) {
			struct titem it = todo.v[--todo.n];
			struct child *c;
			int n;

			if ((r = tpush(out, it)))
				break;
			if (it.id >= 0 || it.depth > 64)
				continue;
			n = sorted_children(cm, it.id, &c);
			/* pushed last first: popped in sorted order */
			for (int k = n - 1; k >= 0 && !r; k--)
				r = tpush(&todo,
					  (struct titem){ c[k].id, it.id,
							  it.depth + 1,
							  c[k].weight });
			free(c);
			if (n < 0)
				r = n;
		}
	}
	free(todo.v);
	free(child);
	return r;
}

/* A set's column name: "(compat)" for the default set, else the pool's
 * name (OSDMap::get_pool_names), else its id. */
static void set_name(const cfs_osdmap *m, int64_t id, char *buf, size_t len)
{
	const struct cfs_pool_info *p;

	if (id == PL_DEFAULT_CHOOSE_ARGS) {
		snprintf(buf, len, "(compat)");
		return;
	}
	p = cfs_osdmap_pool_by_id(m, id);
	if (p)
		snprintf(buf, len, "%s", p->name);
	else
		snprintf(buf, len, "%lld", (long long)id);
}

/* The item's position in its parent bucket (for its choose_args weight) */
static int pos_in(const pl_map *cm, int parent, int id)
{
	for (int k = 0; k < pl_map_bucket_size(cm, parent); k++)
		if (pl_map_bucket_item(cm, parent, k) == id)
			return k;
	return -1;
}

static json_t *tree_item_json(const cfs_osdmap *m, const pl_map *cm,
			      const struct titem *it, const struct tstack *all)
{
	json_t *o = json_object();
	const char *cls = pl_map_item_class(cm, it->id);

	/* CrushTreeDumper::dump_item_fields */
	json_object_set_new(o, "id", json_integer(it->id));
	if (cls)
		json_object_set_new(o, "device_class", json_string(cls));
	if (it->id < 0) {
		int t = pl_map_bucket_type(cm, it->id);
		const char *nm = pl_map_item_name(cm, it->id);
		const char *tn = pl_map_type_name(cm, t);

		json_object_set_new(o, "name", json_string(nm ? nm : ""));
		json_object_set_new(o, "type", json_string(tn ? tn : ""));
		json_object_set_new(o, "type_id", json_integer(t));
	} else {
		char nm[32];
		const char *tn = pl_map_type_name(cm, 0);

		snprintf(nm, sizeof(nm), "osd.%d", it->id);
		json_object_set_new(o, "name", json_string(nm));
		json_object_set_new(o, "type", json_string(tn ? tn : ""));
		json_object_set_new(o, "type_id", json_integer(0));
		json_object_set_new(o, "crush_weight",
				    json_real(wf(it->weight)));
		json_object_set_new(o, "depth", json_integer(it->depth));
	}
	if (it->parent < 0) {
		json_t *pw = json_object();
		int bpos = pos_in(cm, it->parent, it->id);

		for (int i = 0; i < pl_map_choose_args_count(cm); i++) {
			int64_t sid = pl_map_choose_args_id(cm, i);
			const pl_choose_args *ca = pl_map_choose_args(cm, sid);
			int npos, nw, nids;
			char name[128];
			json_t *a;

			if (!pl_choose_args_entry(ca, it->parent, &npos, &nw,
						  &nids) ||
			    !npos)
				continue;
			set_name(m, sid, name, sizeof(name));
			a = json_array();
			for (int p = 0; p < npos; p++)
				json_array_append_new(
					a, json_real(wf(pl_choose_args_weight(
						   ca, it->parent, p, bpos))));
			json_object_set_new(pw, name, a);
		}
		json_object_set_new(o, "pool_weights", pw);
	}
	if (it->id < 0) {
		/* the children: the items right after it one level deeper,
		 * up to the next item at its level, listed last first as
		 * Dumper::next pushes them (`"children": [5, 4, 3]`) */
		json_t *ch = json_array();
		int i = (int)(it - all->v) + 1;

		for (; i < all->n && all->v[i].depth > it->depth; i++)
			if (all->v[i].depth == it->depth + 1)
				json_array_insert_new(
					ch, 0, json_integer(all->v[i].id));
		json_object_set_new(o, "children", ch);
	}
	return o;
}

int ccmd_osd_crush_tree(struct cmd_ctx *ctx, int argc, char **argv)
{
	const cfs_osdmap *m;
	const pl_map *cm;
	struct tstack t = { 0 };
	int show_shadow = 0, r, nsets;

	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--show-shadow") ||
		    !strcmp(argv[i], "--show_shadow"))
			show_shadow = 1;
		else
			return cc_usage(ctx, "unexpected argument '%s'",
					argv[i]);
	}
	m = cfs_osdmap_get(ctx->cluster);
	cm = cfs_osdmap_crush(m);
	r = tree_walk(cm, show_shadow, &t);
	if (r) {
		free(t.v);
		cfs_osdmap_put(m);
		return cc_err(ctx, "%s", cfs_strerror(r));
	}
	nsets = pl_map_choose_args_count(cm);
	if (ctx->json) {
		json_t *nodes = json_array(), *stray = json_array();

		for (int i = 0; i < t.n; i++)
			json_array_append_new(nodes,
					      tree_item_json(m, cm, &t.v[i], &t));
		/* named devices in no dumped tree (FormattingDumper::dump) */
		for (int id = 0; id < pl_map_max_devices(cm); id++) {
			int seen = 0;

			if (!pl_map_item_name(cm, id))
				continue;
			for (int i = 0; i < t.n && !seen; i++)
				seen = t.v[i].id == id;
			if (!seen)
				json_array_append_new(
					stray,
					tree_item_json(m, cm,
						       &(struct titem){ id, 0,
									0, 0 },
						       &t));
		}
		r = cc_json_out(ctx, json_pack("{s:o, s:o}", "nodes", nodes,
					       "stray", stray));
	} else {
		/* CrushTreePlainDumper: ID CLASS WEIGHT, a column per
		 * choose_args set, TYPE NAME */
		int ncols = 4 + nsets;
		const char **heads = calloc((size_t)ncols, sizeof(*heads));
		int *right = calloc((size_t)ncols, sizeof(*right));
		char(*names)[128] = calloc((size_t)(nsets ? nsets : 1),
					   sizeof(*names));
		struct cc_table *tb;

		if (!heads || !right || !names) {
			free(heads);
			free(right);
			free(names);
			free(t.v);
			cfs_osdmap_put(m);
			return cc_err(ctx, "%s", cfs_strerror(-ENOMEM));
		}
		heads[0] = "ID";
		heads[1] = "CLASS";
		heads[2] = "WEIGHT";
		for (int s = 0; s < nsets; s++) {
			set_name(m, pl_map_choose_args_id(cm, s), names[s],
				 sizeof(names[s]));
			heads[3 + s] = names[s];
		}
		heads[ncols - 1] = "TYPE NAME";
		for (int c = 0; c < ncols - 1; c++)
			right[c] = 1;
		tb = cc_table_new(ncols, heads, right);
		for (int i = 0; i < t.n; i++) {
			const struct titem *it = &t.v[i];
			const char *cls = pl_map_item_class(cm, it->id);
			char w[32];

			cc_table_cell(tb, "%d", it->id);
			cc_table_cell(tb, "%s", cls ? cls : "");
			cc_weightf(w, sizeof(w), wf(it->weight));
			cc_table_cell(tb, "%s", w);
			for (int s = 0; s < nsets; s++) {
				const pl_choose_args *ca = pl_map_choose_args(
					cm, pl_map_choose_args_id(cm, s));
				int npos, nw, nids;

				if (it->parent < 0 &&
				    pl_choose_args_entry(ca, it->parent, &npos,
							 &nw, &nids) &&
				    npos) {
					cc_weightf(w, sizeof(w),
						   wf(pl_choose_args_weight(
							   ca, it->parent, 0,
							   pos_in(cm, it->parent,
								  it->id))));
					cc_table_cell(tb, "%s", w);
				} else {
					cc_table_cell(tb, "%s", "");
				}
			}
			if (it->id < 0) {
				const char *tn = pl_map_type_name(
					cm, pl_map_bucket_type(cm, it->id));
				const char *nm = pl_map_item_name(cm, it->id);

				cc_table_cell(tb, "%*s%s %s", it->depth * 4,
					      "", tn ? tn : "", nm ? nm : "");
			} else {
				cc_table_cell(tb, "%*sosd.%d", it->depth * 4,
					      "", it->id);
			}
		}
		cc_table_print(tb, ctx->out);
		cc_table_free(tb);
		free(heads);
		free(right);
		free(names);
	}
	free(t.v);
	cfs_osdmap_put(m);
	return r;
}

/* ---- osd crush ls ---- */

/* OSDMonitor "osd crush ls": a bucket's items in bucket order, or the
 * device itself. */
int ccmd_osd_crush_ls(struct cmd_ctx *ctx, int argc, char **argv)
{
	const cfs_osdmap *m;
	const pl_map *cm;
	json_t *a = NULL;
	int id;

	if (argc < 1)
		return cc_usage(ctx, "no node specified");
	if (cc_nargs(ctx, argc, argv, 1))
		return 1;
	m = cfs_osdmap_get(ctx->cluster);
	cm = cfs_osdmap_crush(m);
	if (pl_map_item_by_name(cm, argv[0], &id)) {
		cfs_osdmap_put(m);
		return cc_err(ctx, "node '%s' does not exist", argv[0]);
	}
	if (ctx->json)
		a = json_array();
	for (int k = 0; k < (id >= 0 ? 1 : pl_map_bucket_size(cm, id)); k++) {
		int it = id >= 0 ? id : pl_map_bucket_item(cm, id, k);
		const char *nm = pl_map_item_name(cm, it);

		if (a)
			json_array_append_new(a, json_string(nm ? nm : ""));
		else
			fprintf(ctx->out, "%s\n", nm ? nm : "");
	}
	cfs_osdmap_put(m);
	return a ? cc_json_out(ctx, a) : 0;
}

