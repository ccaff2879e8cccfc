/*
 * parse_i.h - the crush map text parser's internals, shared by parse*.c
 * (not public: callers use pl_parse_text/pl_parse_file in placement.h).
 *
 * parse.c          the two phases and the public entry points
 * parse_sets.c     small containers (string map, int set, growable arrays)
 * parse_error.c    the one error line, the farthest-failure bookkeeping
 * parse_lex.c      the lexical level (skipper, keywords, names, numbers)
 * parse_grammar.c  the syntax phase: statements recorded, nothing built
 * parse_sem.c      tokens to values; tunable, device, type, rule statements
 * parse_bucket.c   bucket statements
 * parse_order.c    the order buckets are built in (adjust_bucket_item_place)
 * parse_cargs.c    choose_args sections, syntax and meaning
 *
 * Functions shared between these files carry the pp_ prefix.
 */
#ifndef CRUSHFS_PARSE_I_H
#define CRUSHFS_PARSE_I_H

#include <stddef.h>
#include <stdint.h>

#include "crush_i.h"
#include "placement.h"

struct parser;
struct sem;

/*
 * Device ids: crushtool compiles any int and maps ids in the hundreds of
 * millions (its --test allocates per device: 2.7 GB at 10^8).  The two
 * top values are CRUSH_ITEM_UNDEF and CRUSH_ITEM_NONE, which the mapper
 * reserves as markers (and max_devices = id + 1 overflows at INT_MAX, where
 * crushtool aborts): refused.  Bucket ids past -2^20 are refused: Ceph
 * sizes its bucket array by the lowest id.
 */
#define MAX_DEVICE_ID (PL_ITEM_UNDEF - 1)
#define MIN_BUCKET_ID (-(1 << 20))
/* Ceph 16.2 CrushCompiler limits on explicit item weights (16.16). */
#define MAX_DEVICE_WEIGHT (100u * 0x10000u)
#define MAX_BUCKET_WEIGHT (65535u * 0x10000u)
/* crush_make_tree_bucket keeps the node count in 8 bits. */
#define MAX_TREE_SIZE 64

/* ---------------------------------------------------------------------- */
/* small containers (parse_sets.c)                                         */

/* 8 bytes, not 16: a big map records tens of millions of them (the
 * text is refused past 4 GiB, parse.c) */
struct tok {
	uint32_t off;
	uint32_t len; /* 0: absent */
};

/* Make room for element n of *arr (capacity *cap); 0 or -ENOMEM. */
int pp_grow(void **arr, int *cap, int n, size_t elem);

/* string slice -> int, open addressing; keys point into the map text */
struct smap_ent {
	const char *s;
	uint32_t len; /* the text is at most 4 GiB */
	int val;
};

struct smap {
	struct smap_ent *e;
	size_t cap, n;
};

/* 1 and *val (if val) when s[0..n) is in m, else 0 */
int pp_smap_get(const struct smap *m, const char *s, size_t n, int *val);
/* insert or overwrite (std::map operator[] semantics); 0 or -ENOMEM */
int pp_smap_put(struct smap *m, const char *s, size_t n, int val);

/* set of ints, open addressing */
struct iset {
	int32_t *v;
	uint8_t *used;
	size_t cap, n;
};

int pp_iset_has(const struct iset *s, int32_t x);
int pp_iset_add(struct iset *s, int32_t x); /* 0 or -ENOMEM */
void pp_iset_free(struct iset *s);

/* ---------------------------------------------------------------------- */
/* statements recorded by the syntax phase (parse_grammar.c)               */

enum stmt_kind {
	ST_TUNABLE, ST_DEVICE, ST_TYPE, ST_BUCKET, ST_RULE, ST_CHOOSE_ARGS
};

struct id_rec {
	struct tok val;
	struct tok cls; /* the "class" keyword, if any */
	struct tok cname; /* its class name */
};

struct item_rec {
	struct tok name, weight, pos;
};

struct bucket_rec {
	struct tok type, name, alg;
	struct id_rec *ids;
	int nids, capids;
	struct tok *hashes;
	int nhashes, caphashes;
	struct item_rec *items;
	int nitems, capitems;
};

enum step_kind {
	SK_TAKE, SK_SET, SK_CHOOSE, SK_EMIT,
};

struct step_rec {
	int kind;
	int op;            /* PL_RULE_* */
	struct tok kw;     /* the step's keyword */
	struct tok arg;    /* take: item name; set_*: value; choose: N */
	struct tok type;   /* choose: type name */
	struct tok cls;    /* take ... class */
	struct tok cname;  /* the class name */
};

struct rule_rec {
	struct tok kw, name, id, type, min, max;
	struct step_rec *steps;
	int nsteps, capsteps;
};

/* one { bucket_id ... } of a choose_args section */
struct carg_rec {
	struct tok open, bucket;
	struct tok ws_kw;  /* "weight_set", if present */
	struct tok *w;     /* all rows' weights, row after row */
	int nw, capw;
	int *rowlen;       /* weights per row (position) */
	int nrows, caprows;
	struct tok ids_kw; /* "ids", if present */
	struct tok *ids;
	int nids, capids;
};

struct cargs_rec {
	struct tok kw, id;
	struct carg_rec *args;
	int nargs, capargs;
};

/* 32 bytes: a big map has a statement per device (320,000 of them in
 * bench/make_bigmap.sh's 80k-host map) */
struct stmt {
	int kind;
	union {               /* by kind */
		struct {
			/* tunable: name,value; device: id,name; type:
			 * id,name */
			struct tok a, b;
			/* device: the name after "class", if any */
			struct tok cname;
		};
		struct bucket_rec *bucket;
		struct rule_rec *rule;
		struct cargs_rec *cargs;
	};
};

void pp_bucket_free(struct bucket_rec *b);
void pp_rule_free(struct rule_rec *r);
void pp_cargs_free(struct cargs_rec *c);
/* record a statement: 1, or 0 when out of memory */
int pp_push_stmt(struct parser *p, const struct stmt *s);
/* one choose_args section (parse_cargs.c) */
int pp_g_choose_args(struct parser *p);
/* crushmap = *(tunable | device | bucket_type) *(bucket | crushrule)
 *            *choose_args; 0 when the whole text matched */
int pp_parse_syntax(struct parser *p);

/* ---------------------------------------------------------------------- */
/* the parser state and error reporting (parse_error.c)                    */

#define MAX_EXP 12

/* Farthest failure: what the grammar wanted where it got furthest. */
struct fstate {
	size_t far;
	int nexp;
	const char *exp[MAX_EXP];
	char quote[MAX_EXP];
	char custom[160]; /* replaces "expected ..." when set */
	const char *ctx_kind;
	struct tok ctx;
};

struct parser {
	const char *src;
	size_t len;
	const char *fname;
	size_t pos;
	struct fstate fs;
	const char *ctx_kind; /* innermost open section: "bucket"/"rule" */
	struct tok ctx;
	int opened;           /* set when a bucket/rule got past its '{' */
	int fatal;            /* an error is in msg; stop everything */
	int nomem;
	size_t eof_from;      /* where the whitespace before EOF starts */
	char *err;
	size_t errlen;

	int mapped;           /* src is a private file mapping */
	size_t released;      /* its pages before this were given back */

	struct stmt *st;
	int nst, capst;
	char *scratch;
	size_t scratchcap;
};

#define NOFAR ((size_t)-1)

/* The one error line.  Only the first error is kept. */
void pp_err_at(struct parser *p, size_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void pp_set_nomem(struct parser *p);
void pp_fs_reset(struct fstate *f);
/* The grammar wanted `what` at `at` (quoted when quote). */
void pp_expect(struct parser *p, size_t at, const char *what, int quote);
/* Pick the failure state to report: the farther one, both when equal. */
void pp_fs_merge(struct fstate *into, const struct fstate *from);
/* Report the recorded farthest failure. */
void pp_report_syntax(struct parser *p, const struct fstate *f);

static inline int stopped(const struct parser *p)
{
	return p->fatal || p->nomem;
}

static inline const char *tokp(const struct parser *p, struct tok t)
{
	return p->src + t.off;
}

#define TOKF(t) (int)(t).len, tokp(p, t)

/* ---------------------------------------------------------------------- */
/* lexical level (parse_lex.c)                                             */

/* Spirit's name: +(alnum_p | '-' | '_' | '.'), C locale */
static inline int is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
}

/* Skip blanks and comments from i; returns where the next token starts. */
size_t pp_skip(struct parser *p, size_t i);
/* A keyword or punctuation, matched as a plain prefix as Spirit does. */
int pp_lit(struct parser *p, const char *s, struct tok *t);
int pp_name(struct parser *p, struct tok *t, const char *desc);
int pp_uint(struct parser *p, struct tok *t);   /* posint */
int pp_negint(struct parser *p, struct tok *t); /* negint */
int pp_int(struct parser *p, struct tok *t);    /* integer */
int pp_real(struct parser *p, struct tok *t);   /* real_p */

/* ---------------------------------------------------------------------- */
/* semantics (CrushCompiler::parse_crush and friends)                     */

struct sem {
	struct parser *p;
	pl_map *m;
	/* CrushCompiler's item_id (device/bucket name -> id) is the map's
	 * own name index (pl_map_item_by_name) plus, here, the names a
	 * device had before a later line renamed it, which item_id keeps
	 * and the map forgets; keys are copies (freed with the table) */
	struct smap alias;
	struct smap types;   /* type_id */
	struct smap rules;   /* rule_id */
	struct smap bnames;  /* every bucket name in the file -> index */
	struct iset used;    /* id_item: bucket ids taken or reserved */
	int32_t next_free;   /* no free id above this one (ids only grow) */
	int saw_rule;
	/* CrushCompiler::class_bucket: the shadow ids the text gives */
	struct pl_class_bucket *pend;
	int npend, cappend;
};

/* NUL-terminated copy of t in the parser's scratch buffer, or NULL */
char *pp_cstr(struct parser *p, struct tok t);
int pp_tok_int(struct parser *p, struct tok t, int *out);
int pp_tok_weight(struct parser *p, struct tok t, uint32_t *out);
/* 1 and *id when t names a device or bucket defined so far, else 0 */
int pp_item_lookup(struct sem *S, struct tok t, int *id);
/* An item name that is unknown at this point: say why. */
void pp_unknown_item(struct sem *S, struct tok t, const char *user);
/* one statement each, in CrushCompiler's order: 0 or -1 (error set) */
int pp_sem_tunable(struct sem *S, const struct stmt *st);
int pp_sem_device(struct sem *S, const struct stmt *st);
int pp_sem_type(struct sem *S, const struct stmt *st);
int pp_sem_bucket(struct sem *S, const struct bucket_rec *b);
int pp_sem_rule(struct sem *S, const struct rule_rec *r);
int pp_sem_choose_args(struct sem *S, const struct cargs_rec *c);
/* order[k]: the bucket record to build for the k-th bucket statement */
int pp_adjust_order(struct sem *S, struct bucket_rec **recs, int nb,
		    int *order);

#endif
