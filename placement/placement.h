/*
 * placement.h - Ceph-exact object -> PG -> CRUSH -> OSD mapping.
 *
 * The one public header of placement/.  A map is built once (parser or
 * builder calls, then pl_map_finalize) and is then immutable: any number of
 * threads may map with it at once, each with its own workspace.  Mapping
 * never allocates and has no error path (Ceph mapper.c contract): it returns
 * how many results it produced and leaves PL_ITEM_NONE holes for indep rules.
 *
 * Functions that can fail return 0 or -errno (Ceph builder.c convention).
 * Weights are 16.16 fixed point: 0x10000 == 1.0.
 */
#ifndef CRUSHFS_PLACEMENT_H
#define CRUSHFS_PLACEMENT_H

#include <stddef.h>
#include <stdint.h>

typedef struct pl_map pl_map;

/* A result slot that could not be filled (indep rules keep positions). */
#define PL_ITEM_NONE 0x7fffffff
/* Internal marker, never returned by pl_do_rule. */
#define PL_ITEM_UNDEF 0x7ffffffe

#define PL_MAX_DEPTH 10
#define PL_MAX_RULES 256
/* Ceph keeps a bucket's size in a u32; 2^24 items (far past any real
 * cluster) keeps every count and offset derived from it inside an int */
#define PL_MAX_BUCKET_SIZE (1 << 24)
/* longest up/acting set pl_pg_up_acting keeps (Ceph's CEPH_PG_MAX_SIZE) */
#define PL_MAX_UP_ACTING 32

enum pl_bucket_alg {
	PL_BUCKET_UNIFORM = 1,
	PL_BUCKET_LIST = 2,
	PL_BUCKET_TREE = 3,
	PL_BUCKET_STRAW = 4,
	PL_BUCKET_STRAW2 = 5,
};

#define PL_HASH_RJENKINS1 0

/* Rule step opcodes: numbered as in Ceph's crush.h so maps round-trip. */
enum pl_rule_op {
	PL_RULE_NOOP = 0,
	PL_RULE_TAKE = 1,
	PL_RULE_CHOOSE_FIRSTN = 2,
	PL_RULE_CHOOSE_INDEP = 3,
	PL_RULE_EMIT = 4,
	PL_RULE_CHOOSELEAF_FIRSTN = 6,
	PL_RULE_CHOOSELEAF_INDEP = 7,
	PL_RULE_SET_CHOOSE_TRIES = 8,
	PL_RULE_SET_CHOOSELEAF_TRIES = 9,
	PL_RULE_SET_CHOOSE_LOCAL_TRIES = 10,
	PL_RULE_SET_CHOOSE_LOCAL_FALLBACK_TRIES = 11,
	PL_RULE_SET_CHOOSELEAF_VARY_R = 12,
	PL_RULE_SET_CHOOSELEAF_STABLE = 13,
};

struct pl_rule_step {
	uint32_t op;
	int32_t arg1;
	int32_t arg2;
};

/* Rule types as in Ceph (pg_pool_t::TYPE_*). */
#define PL_RULE_TYPE_REPLICATED 1
#define PL_RULE_TYPE_ERASURE 3

struct pl_tunables {
	uint32_t choose_local_tries;
	uint32_t choose_local_fallback_tries;
	uint32_t choose_total_tries;
	uint32_t chooseleaf_descend_once;
	uint8_t chooseleaf_vary_r;
	uint8_t chooseleaf_stable;
	uint8_t straw_calc_version;
	uint32_t allowed_bucket_algs;
};

/* ---- hashes and PG math (hash.c, pg.c) ---- */
uint32_t pl_hash32(uint32_t a);
uint32_t pl_hash32_2(uint32_t a, uint32_t b);
uint32_t pl_hash32_3(uint32_t a, uint32_t b, uint32_t c);
uint32_t pl_hash32_4(uint32_t a, uint32_t b, uint32_t c, uint32_t d);
uint32_t pl_hash32_5(uint32_t a, uint32_t b, uint32_t c, uint32_t d,
		     uint32_t e);
/* Ceph's ceph_str_hash_rjenkins (object_hash rjenkins). */
uint32_t pl_str_hash(const char *s, size_t len);
/* ceph_stable_mod: x mod b that moves few items when b grows. */
uint32_t pl_stable_mod(uint32_t x, uint32_t b, uint32_t bmask);
/* (1 << bits(n-1)) - 1, Ceph's pg_num_mask. */
uint32_t pl_pg_mask(uint32_t n);
/* object name -> raw PG seed (full 32-bit hash). */
uint32_t pl_object_ps(const char *name, size_t len);
/* PG seed within pg_num. */
uint32_t pl_pg_seed(uint32_t raw_ps, uint32_t pg_num);
/* Placement seed with HASHPSPOOL, as pg_pool_t::raw_pg_to_pps. */
uint32_t pl_pg_pps(uint32_t ps, uint32_t pgp_num, int64_t pool_id);

/* ---- tunables (tunables.c) ---- */
/* name: legacy, argonaut, bobtail, firefly, hammer, jewel, optimal,
 * default.  Returns 0 or -EINVAL. */
int pl_tunables_profile(const char *name, struct pl_tunables *out);

/* ---- building (builder.c) ---- */
pl_map *pl_map_create(void); /* jewel (optimal) tunables, as crush_create */
void pl_map_destroy(pl_map *m);
void pl_map_set_tunables(pl_map *m, const struct pl_tunables *t);
void pl_map_get_tunables(const pl_map *m, struct pl_tunables *t);

/*
 * Add a bucket.  id < 0 picks that id (-EEXIST if taken), id == 0 picks the
 * next free one.  weights[] are the item weights (16.16); uniform buckets use
 * weights[0] for every item.  Straw lengths are computed now, with the map's
 * current straw_calc_version (as Ceph does).  -EINVAL for bad alg/size,
 * -ERANGE for weight overflow, -ENOMEM.  *idout gets the id.
 */
int pl_map_add_bucket(pl_map *m, int id, int alg, int hash, int type,
		      int size, const int *items, const uint32_t *weights,
		      int *idout);
/* ruleno < 0 picks the first free number. */
int pl_map_add_rule(pl_map *m, int ruleno, int type, int min_size,
		    int max_size, int nsteps, const struct pl_rule_step *steps,
		    int *ruleout);
int pl_map_set_type_name(pl_map *m, int type, const char *name);
int pl_map_set_item_name(pl_map *m, int id, const char *name);
int pl_map_set_rule_name(pl_map *m, int ruleno, const char *name);
/* Declare a device (so max_devices covers it even outside any bucket). */
int pl_map_add_device(pl_map *m, int id, const char *name);
/* Computes max_devices and workspace sizes; call once after building. */
int pl_map_finalize(pl_map *m);

/*
 * Convenience builder (the cluster uses it): root "default" (straw2) ->
 * nhosts hosts "hostN" (straw2) -> devices, osd i on host i % nhosts,
 * osd_weights[i] in 16.16; plus rule 0 "replicated_rule"
 * `chooseleaf firstn 0 type host`.  Types osd/host/root (0/1/2).
 */
int pl_map_build_simple(int nosds, int nhosts, const uint32_t *osd_weights,
			pl_map **out);

/*
 * Changing a built map (the cluster's `osd crush reweight`, `osd add`).
 * Both keep bucket weights consistent up to the root, recompute straw
 * lengths, and leave the map finalized.  Ceph: CrushWrapper::
 * adjust_item_weight / insert_item.  A reweight keeps choose_args weight
 * sets in step as Ceph does (the item's entries take the weight, every
 * bucket's entry in its parents becomes the sum of its set, shadow trees
 * included); adding an item grows the bucket's weight sets and ids as
 * CrushWrapper::bucket_add_item does, then sets its weight as insert_item
 * does.  -ENOTSUP for adding an item to a map with both choose_args and
 * device classes (Ceph then rebuilds the shadow trees' sets: not
 * mirrored yet).
 */
int pl_map_adjust_item_weight(pl_map *m, int id, uint32_t weight);
int pl_map_bucket_add_item(pl_map *m, int bucket, int item, uint32_t weight);
/* The bucket holding id (first found), or 0 if none. */
int pl_map_parent(const pl_map *m, int id);

/* 1 if n is a name Ceph takes for an item, type, rule or class
 * (CrushWrapper::is_valid_crush_name: [A-Za-z0-9_.-]+). */
int pl_valid_name(const char *n);

/* The map in crushtool's text format, byte-identical to `crushtool -d`.
 * *out is malloc'ed and NUL-terminated. */
int pl_map_to_text(const pl_map *m, char **out, size_t *len);

/* ---- reading a map ---- */
int pl_map_max_devices(const pl_map *m);
int pl_map_max_buckets(const pl_map *m);
int pl_map_max_rules(const pl_map *m);
int pl_map_rule_exists(const pl_map *m, int ruleno);
int pl_map_rule_type(const pl_map *m, int ruleno);
int pl_map_rule_min_size(const pl_map *m, int ruleno);
int pl_map_rule_max_size(const pl_map *m, int ruleno);
int pl_map_rule_len(const pl_map *m, int ruleno);
const struct pl_rule_step *pl_map_rule_step(const pl_map *m, int ruleno,
					    int step);
const char *pl_map_rule_name(const pl_map *m, int ruleno);
int pl_map_bucket_exists(const pl_map *m, int id);
int pl_map_bucket_alg(const pl_map *m, int id);
int pl_map_bucket_type(const pl_map *m, int id);
int pl_map_bucket_hash(const pl_map *m, int id); /* 0: rjenkins1 */
int pl_map_bucket_size(const pl_map *m, int id);
uint32_t pl_map_bucket_weight(const pl_map *m, int id);
int pl_map_bucket_item(const pl_map *m, int id, int pos);
uint32_t pl_map_bucket_item_weight(const pl_map *m, int id, int pos);
const char *pl_map_type_name(const pl_map *m, int type);
const char *pl_map_item_name(const pl_map *m, int id);
/* -ENOENT when unknown */
int pl_map_type_by_name(const pl_map *m, const char *name, int *type);
int pl_map_item_by_name(const pl_map *m, const char *name, int *id);
/* Device classes (Ceph 16.2's CrushWrapper class_map): the class name of a
 * device or shadow bucket, NULL when it has none; 1 when bucket id is a
 * per-class shadow copy ("default~hdd"), which `osd tree` and the text
 * form do not show. */
const char *pl_map_item_class(const pl_map *m, int id);
int pl_map_bucket_is_shadow(const pl_map *m, int id);
/* 1 if device id appears in some bucket (CrushWrapper::check_item_present) */
int pl_map_device_in_buckets(const pl_map *m, int id);
int pl_map_device_declared(const pl_map *m, int id);

/* ---- mapping (mapper.c) ---- */
/* Bytes of workspace one thread needs to map up to result_max items. */
/* 0 if the map is not finalized (pl_map_finalize): no workspace can be
 * sized for it. */
size_t pl_work_size(const pl_map *m, int result_max);
/* Lay out a workspace in caller memory (suitably aligned, e.g. malloc) of
 * pl_work_size() bytes.  -EINVAL (nothing written) on a map that is not
 * finalized. */
int pl_work_init(const pl_map *m, void *work, int result_max);
/*
 * Run rule ruleno for input x.  weights[0..weight_max) are the reweight
 * values per device (0..0x10000; 0 = out).  Returns the number of items in
 * result[] (at most result_max); indep rules fill holes with PL_ITEM_NONE.
 * 0 when work was laid out for another map, or before the map last
 * changed (pl_map_finalize since, or not finalized now).
 */
int pl_do_rule(const pl_map *m, int ruleno, int x, int *result,
	       int result_max, const uint32_t *weights, int weight_max,
	       void *work);
/*
 * choose_args: the weight sets (and replacement hash ids) Ceph's balancer
 * in crush-compat mode leaves in a map, keyed by a 64-bit id: a pool id, or
 * PL_DEFAULT_CHOOSE_ARGS for all pools (CrushWrapper::DEFAULT_CHOOSE_ARGS).
 */
#define PL_DEFAULT_CHOOSE_ARGS (-1)
typedef struct pl_choose_args pl_choose_args;
int pl_map_choose_args_count(const pl_map *m);
/* The i-th set's id, in Ceph's order (signed ascending). */
int64_t pl_map_choose_args_id(const pl_map *m, int i);
/* The set with exactly this id, or NULL. */
const pl_choose_args *pl_map_choose_args(const pl_map *m, int64_t id);
/*
 * A set's entry for a bucket (read-only, for dumps as
 * CrushWrapper::dump_choose_args): *npos weight-set positions of *nw
 * weights each, and *nids replacement ids; 0 when the set has no entry
 * for the bucket (all three 0).
 */
int pl_choose_args_entry(const pl_choose_args *ca, int bucket, int *npos,
			 int *nw, int *nids);
/* Weight k of position pos (16.16), and replacement id k, of that entry. */
uint32_t pl_choose_args_weight(const pl_choose_args *ca, int bucket, int pos,
			       int k);
int pl_choose_args_id(const pl_choose_args *ca, int bucket, int k);
/* CrushWrapper::choose_args_get_with_fallback: id's set, else the default
 * set, else NULL (plain weights).  OSDMap maps a PG with its pool's id;
 * crushtool --test with id 0. */
const pl_choose_args *pl_map_choose_args_for(const pl_map *m, int64_t id);
/* pl_do_rule with a choose_args set (NULL: none), Ceph's crush_do_rule
 * with choose_args.  ca must belong to m. */
int pl_do_rule_args(const pl_map *m, int ruleno, int x, int *result,
		    int result_max, const uint32_t *weights, int weight_max,
		    void *work, const pl_choose_args *ca);
/* pl_do_rule_args for inputs xs[0 .. n-1]: input i's result at
 * results + i * result_max, its length in lens[i].  The same results as n
 * calls, faster: several inputs' first choose step is drawn side by
 * side. */
void pl_do_rule_batch(const pl_map *m, int ruleno, const int *xs, int n,
		      int *results, int result_max, int *lens,
		      const uint32_t *weights, int weight_max, void *work,
		      const pl_choose_args *ca);
/*
 * crushtool's --show-choose-tries histogram: counts are kept in the
 * workspace (never in the map).  Returns the array of n entries.
 */
const uint32_t *pl_work_choose_tries(const void *work, int *n);

/* ---- from CRUSH's raw set to up and acting sets (upacting.c) ---- */
/*
 * What Ceph 16.2's OSDMap::_pg_to_up_acting_osds needs besides the CRUSH
 * result.  Per OSD id < max_osd: exists, up, osd_weight (the reweight,
 * 16.16, 0 = out) and primary affinity (16.16; NULL: all at the default
 * 1.0).  An id outside [0, max_osd) does not exist.
 */
struct pl_osd_view {
	int max_osd;
	const uint8_t *exists, *up;
	const uint32_t *weight;
	const uint32_t *primary_affinity;
};

/* One PG's entries in the osdmap (any of them may be absent). */
struct pl_pg_overrides {
	const int *upmap;	 /* pg_upmap: the raw set to use instead */
	int nupmap;		 /* 0: none */
	const int (*items)[2];	 /* pg_upmap_items: (from, to) pairs */
	int nitems;
	const int *temp;	 /* pg_temp: the acting set while it lasts */
	int ntemp;
	int primary_temp;	 /* -1: none */
};

struct pl_up_acting {
	int up[PL_MAX_UP_ACTING], nup, up_primary;
	int acting[PL_MAX_UP_ACTING], nacting, acting_primary;
};

/*
 * raw[0..nraw) is CRUSH's output for the PG (pl_do_rule with pps); o may
 * be NULL.  can_shift: a replicated pool (pg_pool_t::can_shift_osds),
 * whose sets close up over missing OSDs; an erasure pool keeps positions
 * with PL_ITEM_NONE.  Mirrors _remove_nonexistent_osds, _apply_upmap,
 * _raw_to_up_osds, _pick_primary, _apply_primary_affinity and
 * _get_temp_osds, in that order.  Sets longer than PL_MAX_UP_ACTING are
 * cut.  Primaries are -1 when there is none.
 */
void pl_pg_up_acting(const struct pl_osd_view *v, int can_shift,
		     uint32_t pps, const int *raw, int nraw,
		     const struct pl_pg_overrides *o, struct pl_up_acting *out);
/* OSDMap::_apply_upmap alone, in place on raw[0..n) (room for
 * PL_MAX_UP_ACTING); returns the new length. */
int pl_pg_apply_upmap(const struct pl_osd_view *v,
		      const struct pl_pg_overrides *o, int *raw, int n);

/* ---- rule walks for the upmap machinery (rulewalk.c) ---- */
/* CrushWrapper::subtree_contains */
int pl_subtree_contains(const pl_map *m, int root, int item);
/* CrushWrapper::get_parent_of_type(item, type, rule): the first bucket of
 * the type, below the rule's takes (ascending ids), holding item; 0 if
 * none */
int pl_parent_of_type(const pl_map *m, int rule, int type, int item);
/* CrushWrapper::verify_upmap: 0, or -EINVAL when the rule could not have
 * produced up (two OSDs in one failure domain, too many buckets of a
 * level, an OSD outside the take) */
int pl_verify_upmap(const pl_map *m, int rule, int size, const int *up,
		    int nup);
/* CrushWrapper::get_rule_weight_osd_map: each device's share of its
 * takes' weights, share[0..n); in_rule[0..n) (may be NULL) marks every
 * device below a take, zero weights included; 0 or -ENOMEM */
int pl_rule_osd_weights(const pl_map *m, int rule, float *share,
			unsigned char *in_rule, int n);
/* CrushWrapper::try_remap_rule: orig with overfull OSDs swapped for
 * underfull ones (then slightly underfull ones) where the rule allows;
 * overfull[0..n) flags OSDs.  out has room for PL_MAX_UP_ACTING. */
int pl_try_remap_rule(const pl_map *m, int rule, int maxout,
		      const uint8_t *overfull, int n, const int *under,
		      int nunder, const int *more_under, int nmore,
		      const int *orig, int norig, int *out, int *nout);

/* ---- the upmap balancer (balancer.c) ---- */
struct pl_balance_pg {
	int raw[PL_MAX_UP_ACTING], nraw;	/* CRUSH's set, existing OSDs */
	int upmap[PL_MAX_UP_ACTING], nupmap;	/* an admin's pg_upmap */
	int items[PL_MAX_UP_ACTING][2], nitems;	/* pg_upmap_items, in/out */
	int changed;				/* out: items were changed */
};

struct pl_balance_opts {
	int max;		 /* most changes (osdmaptool --upmap-max) */
	int max_deviation;	 /* PGs (--upmap-deviation), at least 1 */
	int aggressive;		 /* osd_calc_pg_upmaps_aggressively */
	int local_fallback_retries;
	uint64_t seed;		 /* the shuffles' seed (0: a fixed one) */
	int trials;		 /* plans tried with other seeds, the best
				  * (max deviation, entries, stddev) kept */
	int erasure;		 /* an indep pool: shards keep their
				  * positions (pg_to_up_acting can_shift 0) */
};

struct pl_balance_stats {
	float stddev_before, stddev_after; /* PGs per OSD off target */
	float maxdev_before, maxdev_after;
};

/*
 * OSDMap::calc_pg_upmaps for one pool of npgs PGs of `size` replicas on
 * `rule`: rewrites pgs[].items (and sets .changed) to even out PGs per
 * OSD in proportion to crush weight x reweight.  Returns the number of
 * changes made, or -errno; st (optional) measures the plan.
 */
int pl_balance_upmaps(const pl_map *m, int rule, int size,
		      const struct pl_osd_view *v, struct pl_balance_pg *pgs,
		      int npgs, const struct pl_balance_opts *opts,
		      struct pl_balance_stats *st);

/* ---- binary maps (codec_enc.c, codec_dec.c) ---- */
/* Ceph's CRUSH_MAGIC: a binary map's first 4 bytes, little-endian. */
#define PL_CRUSH_MAGIC 0x00010000u
/* 1 if buf starts like a binary crush map. */
int pl_is_binary(const void *buf, size_t len);
/*
 * The map as `crushtool -c` of Ceph 16.2 writes it (CrushWrapper::encode
 * with crushtool's features: tunables, device classes, choose_args).  The
 * map must be finalized (-EINVAL otherwise).  *out is malloc'ed.
 */
int pl_map_encode(const pl_map *m, void **out, size_t *len);
/*
 * Read a binary map as CrushWrapper::decode does, keeping its derived data
 * (straws, sums, node weights) as they are.  On error returns -EINVAL (or
 * -ENOMEM) with one line in err: "FILE: truncated at byte N: what",
 * "FILE: bad crush map at byte N: what" or "FILE: unsupported at byte N:
 * what".  Never allocates more than a small multiple of len.
 */
int pl_map_decode(const void *buf, size_t len, const char *filename,
		  pl_map **out, char *err, size_t errlen);

/* ---- parsing (parse.c) ---- */
/*
 * Parse crushtool's text format.  On error returns -EINVAL (or -ENOMEM) and
 * writes one line "FILE:LINE:COL: error: what was expected" into err.
 * Device classes are parsed and their shadow trees built as crushtool
 * does; choose_args are kept as CrushCompiler::parse_choose_args keeps
 * them.
 * A binary map (pl_is_binary) is decoded instead, by both functions.
 */
int pl_parse_text(const char *text, size_t len, const char *filename,
		  pl_map **out, char *err, size_t errlen);
int pl_parse_file(const char *path, pl_map **out, char *err, size_t errlen);

#endif
