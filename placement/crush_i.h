/*
 * crush_i.h - map layout shared by builder, mapper and parser.  Not public:
 * callers outside placement/ use placement.h only.
 *
 * The layout mirrors Ceph's struct crush_map (src/crush/crush.h, v16.2) so
 * that every computation can follow Ceph's arithmetic exactly, including
 * integer widths (e.g. the tree's num_nodes is 8 bits wide in Ceph).
 */
#ifndef CRUSHFS_CRUSH_I_H
#define CRUSHFS_CRUSH_I_H

#include "placement.h"

struct pl_bucket {
	int32_t id; /* < 0 */
	uint16_t type;
	uint8_t alg;
	uint8_t hash;
	uint8_t shadow;  /* a per-class copy (classes.c), not the user's */
	uint32_t weight; /* 16.16, sum of items */
	uint32_t size;
	int32_t *items;
	/* uniform */
	uint32_t item_weight;
	/* list, straw, straw2: per item; list also keeps running sums */
	uint32_t *item_weights;
	uint32_t *sum_weights; /* list */
	uint32_t *straws;      /* straw */
	/* straw2: exact reciprocals of item_weights, so a draw divides by
	 * multiplying (see pl_div_magic) */
	uint64_t *div_magic;
	uint8_t *div_shift;
	/* tree */
	uint8_t num_nodes;
	uint32_t *node_weights;
};

struct pl_rule {
	uint32_t len;
	uint8_t type;
	uint8_t min_size;
	uint8_t max_size;
	char *name;
	struct pl_rule_step *steps;
};

struct pl_name {
	int32_t id;
	char *name;
};

/*
 * An open-addressing index over an array kept elsewhere: slot[] holds
 * array index + 1 (0: empty), cap is a power of two.  names.c uses it for
 * item ids, item names, declared devices and parents, so that loading and
 * looking up are linear in the map, not quadratic.
 */
struct pl_index {
	int32_t *slot;
	uint32_t cap;
	uint32_t used;
};

/* names.c's open-addressing index over an array, for other tables:
 * make room for one more entry (rehashing entry i with hash(arr, i)),
 * then put array index i with hash h; 0 or -ENOMEM */
int pl_ix_reserve(struct pl_index *ix, uint32_t (*hash)(const void *, int),
		  const void *arr);
void pl_ix_insert(struct pl_index *ix, uint32_t h, int i);
void pl_ix_release(struct pl_index *ix);
uint32_t pl_ix_mix32(uint32_t x);

struct pl_map {
	struct pl_bucket **buckets; /* index -1-id */
	int32_t max_buckets;
	struct pl_rule **rules;
	uint32_t max_rules;
	int32_t max_devices;

	uint32_t choose_local_tries;
	uint32_t choose_local_fallback_tries;
	uint32_t choose_total_tries;
	uint32_t chooseleaf_descend_once;
	uint8_t chooseleaf_vary_r;
	uint8_t chooseleaf_stable;
	uint8_t straw_calc_version;
	uint32_t allowed_bucket_algs;

	/* type names: few, in insertion order, looked up linearly */
	struct pl_name *types;
	int ntypes;
	/* item names in insertion order, indexed by id and by name */
	struct pl_name *items;
	int nitems, capitems;
	struct pl_index item_by_id, item_by_name;
	int32_t *devices; /* declared device ids, indexed */
	int ndevices, capdevices;
	struct pl_index dev_by_id;
	/* (item, first bucket holding it), built by pl_map_finalize */
	int32_t (*parents)[2];
	int nparents;
	struct pl_index parent_by_item;

	/* device classes (classes.c): names by class id; the class of each
	 * device and shadow bucket (CrushWrapper::class_map); each bucket's
	 * shadow copy per class (class_bucket) */
	char **class_names;
	int nclasses, capclasses;
	struct pl_item_class {
		int32_t item, cls;
	} *item_class;
	int nitem_class, capitem_class;
	struct pl_class_bucket {
		int32_t bucket, cls, shadow;
	} *class_bucket;
	int nclass_bucket, capclass_bucket;
	/* item_class by item, class_bucket by bucket (names.c's indexes):
	 * a map with classes on 320,000 devices loads in linear time */
	struct pl_index item_class_ix, class_bucket_ix;

	/* choose_args (choose_args.c): Ceph's std::map<int64_t,
	 * crush_choose_arg_map>, kept sorted by id */
	struct pl_choose_args *cargs;
	int ncargs, capcargs;

	size_t working_size; /* bytes for per-bucket permutation state */
	int finalized;	     /* working_size matches the buckets */
	uint32_t generation; /* bumped by each pl_map_finalize */
};

/*
 * choose_args (Ceph 16.2 crush.h: crush_weight_set, crush_choose_arg,
 * crush_choose_arg_map).  A straw2 bucket draws with weight_set[position]
 * (the last one past the end) and hashes ids[] instead of its items.  Each
 * weight set keeps the reciprocals the mapper multiplies by, as buckets do.
 */
struct pl_weight_set {
	uint32_t size;
	uint32_t *weights;
	uint64_t *div_magic;
	uint8_t *div_shift;
};

struct pl_choose_arg {
	int32_t *ids;
	uint32_t ids_size;
	struct pl_weight_set *weight_set;
	uint32_t weight_set_positions;
};

struct pl_choose_args {
	int64_t id;
	uint32_t size; /* args[] slots, indexed -1 - bucket id */
	struct pl_choose_arg *args;
};

/* Per-bucket permutation cache for uniform buckets (Ceph crush_work_bucket) */
struct pl_work_bucket {
	uint32_t perm_x;
	uint32_t perm_n;
	uint32_t *perm;
};

/* ---- choose_args (choose_args.c) ---- */
/* The reciprocals the mapper multiplies by, for a set's weights (0 for a
 * zero weight). */
void pl_ws_reciprocals(struct pl_weight_set *ws);
/* A new, empty set sized for the map's buckets: -EEXIST if id is taken. */
int pl_cargs_create(pl_map *m, int64_t id, struct pl_choose_args **out);
struct pl_choose_args *pl_cargs_find(const pl_map *m, int64_t id);
/* Replace bucket slot `index`'s weight set: positions sets of size
 * weights each (w[p * size + i]); 0 positions drops it.  0 or -ENOMEM. */
int pl_cargs_set_weights(struct pl_choose_args *ca, uint32_t index,
			 uint32_t positions, uint32_t size,
			 const uint32_t *w);
int pl_cargs_set_ids(struct pl_choose_args *ca, uint32_t index,
		     uint32_t n, const int32_t *ids);
/* CrushWrapper::update_choose_args (run by Ceph's decode): drop the args
 * of missing and non-straw2 buckets, resize weight sets that disagree with
 * their bucket when the positions agree.  0, or -EINVAL with *bad_bucket
 * set when a weight set or ids still disagree with the bucket's size (Ceph
 * would read past them). */
int pl_cargs_normalize(pl_map *m, int32_t *bad_bucket);
void pl_cargs_free(pl_map *m);

/* ---- device classes (classes.c) ---- */
/* CrushWrapper::get_or_create_class_id: the next id after the highest. */
int pl_class_get_or_create(pl_map *m, const char *name, int *cls);
int pl_class_id(const pl_map *m, const char *name); /* -ENOENT */
int pl_class_set_item(pl_map *m, int item, int cls);
int pl_class_of_item(const pl_map *m, int item); /* -1: none */
/* class_bucket[bucket][cls] = shadow (0 / -ENOMEM) and its lookups */
int pl_class_bucket_set(pl_map *m, int bucket, int cls, int shadow);
int pl_class_bucket_get(const pl_map *m, int bucket, int cls); /* 0: none */
int pl_class_bucket_has(const pl_map *m, int bucket);
/* CrushWrapper::populate_classes with old_class_bucket = the ids the text
 * gave (pending, n entries): every root's shadow tree per class. */
int pl_class_populate(pl_map *m, const struct pl_class_bucket *pending,
		      int n);
/* A bucket just linked under parent gets its clones, in the parent's
 * clones, for each class (what rebuild_roots_with_classes would add). */
int pl_class_clone_new(pl_map *m, int parent, int bucket);
/* classes_cargs.c: every shadow bucket's choose_args recomputed from the
 * originals' as rebuild_roots_with_classes leaves them (insert_item). */
int pl_class_rebuild_cargs(pl_map *m);
/* The (original bucket, class) a shadow id stands for: 0, or -ENOENT. */
int pl_class_split(const pl_map *m, int shadow, int *orig, int *cls);
void pl_classes_free(pl_map *m);

#define PL_CHOOSE_TRIES_MAX 256
#define ALIGN8(n) (((n) + 7) & ~(size_t)7)

/* straw2 draws of one input, open addressing (spec_i.h); a workspace has
 * one table per input pl_do_rule_batch draws side by side */
#define PL_MEMO_BITS 7
#define PL_MEMO_SLOTS (1 << PL_MEMO_BITS)
#define PL_MEMO_TABS 4
struct pl_memo {
	uint32_t stamp; /* valid while it equals pl_memo_tab.stamp */
	int32_t id, r, pos, item;
};

struct pl_memo_tab {
	uint32_t stamp; /* one per mapping */
	uint32_t used;	/* entries filled in this mapping */
	struct pl_memo e[PL_MEMO_SLOTS];
};

struct pl_work {
	/* the map and finalization it was laid out for: a workspace sized
	 * for other buckets would be written past its end */
	const struct pl_map *map;
	uint32_t generation;
	struct pl_work_bucket **work; /* index -1-id */
	int result_max;
	int *a, *b, *c;
	uint32_t choose_tries[PL_CHOOSE_TRIES_MAX];
	struct pl_memo_tab memo[PL_MEMO_TABS];
};

/*
 * Exact division of 0 <= n < 2^PL_DIV_BITS by a 32-bit d > 0 as a multiply
 * and shift (Granlund & Montgomery 1994, thm 4.2): with l = ceil(log2 d)
 * and m = ceil(2^(N+l) / d), floor(n * m / 2^(N+l)) == floor(n / d).
 * straw2 divides -ln(u) < 2^49 by the item weight on every draw; the
 * hardware divide was a third of the mapping time.
 */
#define PL_DIV_BITS 49
void pl_div_magic(uint32_t d, uint64_t *magic, uint8_t *shift);
/*
 * straw2 hashes a bucket's items four at a time (buckets.c): every array of
 * item ids it reads (bucket items, choose_args ids) is allocated with at
 * least one slot more than n, rounded up to four, zeroed past the end.
 */
static inline size_t pl_id_slots(size_t n)
{
	return (n + 4) & ~(size_t)3;
}

static inline uint64_t pl_div_apply(uint64_t n, uint64_t magic, uint8_t shift)
{
	__extension__ typedef unsigned __int128 u128;

	return (uint64_t)(((u128)n * magic) >> shift);
}

/* mapper_avx2.c: pl_do_rule_args's core built for AVX2 (mapper.c) */
int pl_do_rule_args_avx2(const pl_map *map, int ruleno, int x, int *result,
			 int result_max, const uint32_t *weight,
			 int weight_max, void *work, const pl_choose_args *ca);
void pl_do_rule_batch_avx2(const pl_map *map, int ruleno, const int *xs,
			   int n, int *results, int result_max, int *lens,
			   const uint32_t *weight, int weight_max, void *work,
			   const pl_choose_args *ca);
/* mapper_avx512.c: the same for AVX-512 */
int pl_do_rule_args_avx512(const pl_map *map, int ruleno, int x, int *result,
			   int result_max, const uint32_t *weight,
			   int weight_max, void *work,
			   const pl_choose_args *ca);
void pl_do_rule_batch_avx512(const pl_map *map, int ruleno, const int *xs,
			     int n, int *results, int result_max, int *lens,
			     const uint32_t *weight, int weight_max,
			     void *work, const pl_choose_args *ca);

/* buckets.c: uniform, list, tree and straw buckets (straw2: straw2_i.h) */
int pl_bucket_choose(const struct pl_bucket *b, struct pl_work_bucket *w,
		     int x, int r);
int pl_bucket_perm_choose(const struct pl_bucket *b,
			  struct pl_work_bucket *w, int x, int r);
/* ln.c: 2^44 * log2(x + 1), Ceph crush_ln */
uint64_t pl_crush_ln(unsigned int x);

/* builder.c */
int pl_calc_straw(const pl_map *m, struct pl_bucket *b);
void pl_bucket_free(struct pl_bucket *b);
void pl_bucket_free_arrays(struct pl_bucket *b);
/* b's id, type, alg, hash and size set: allocate and fill items and the
 * derived data from weights (straws with the map's straw_calc_version).
 * 0 or -errno, b's arrays freed on error. */
int pl_bucket_build(const pl_map *m, struct pl_bucket *b, const int32_t *items,
		    const uint32_t *weights);
/* pl_map_add_bucket as device_class_clone grows its copies item by item
 * (crush_bucket_add_item): a uniform copy takes only items of weight 0
 * (-EINVAL otherwise) and keeps item_weight 0.  See builder.c. */
int pl_map_add_bucket_grown(pl_map *m, int id, int alg, int hash, int type,
			    int size, const int *items,
			    const uint32_t *weights, int *idout);
/*
 * For the binary decoder: make room for exactly n bucket slots (n >= the
 * current max_buckets) or n rules, as a decoded map says; and install a
 * bucket whose derived data (straws, sums, tree nodes, weight) comes from
 * the map as it is, not recomputed.  pl_map_put_bucket takes b (also on
 * error), fills straw2 reciprocals, -EEXIST if the slot is taken.
 */
int pl_map_reserve_buckets(pl_map *m, int32_t n);
int pl_map_reserve_rules(pl_map *m, uint32_t n);
int pl_map_put_bucket(pl_map *m, struct pl_bucket *b);
/* Tree buckets: node count for size items (Ceph crush_make_tree_bucket,
 * 0 when it does not fit Ceph's 8 bits) and the item slots a walk can
 * reach (leaves past size have weight 0 but are addressable). */
int pl_tree_num_nodes(uint32_t size);
uint32_t pl_tree_item_slots(const struct pl_bucket *b);

/* names.c */
void pl_names_free(pl_map *m);
void pl_parents_rebuild(pl_map *m); /* best effort: no index on ENOMEM */

#endif
