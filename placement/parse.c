/*
 * parse.c - crushtool's text crush map format, compiled the way Ceph 16.2's
 * `crushtool -c` compiles it (src/crush/grammar.h + CrushCompiler.cc), so
 * that a map pasted from a real cluster places data exactly as Ceph does.
 *
 * Two phases, like CrushCompiler:
 *
 *  1. Syntax.  crushtool's grammar is a Boost.Spirit (classic) parser: a PEG
 *     with ordered choice, greedy repetition and literal keywords that are
 *     matched as plain prefixes ("step takeh" is "step take h", "ruler {" is
 *     a rule named "r").  We implement the same PEG by hand at character
 *     level, so exactly the same texts are accepted, and keep the farthest
 *     failure to say what was expected where.  Statements are recorded,
 *     nothing is built yet.
 *
 *  2. Semantics, in CrushCompiler's order and with its rules: legacy
 *     tunables unless told otherwise, bucket ids reserved up front, buckets
 *     reordered when one uses a bucket defined after it
 *     (adjust_bucket_item_place, with its quirks), ids auto-assigned from -1
 *     down, weights converted as (unsigned)(strtof(text) * (float)0x10000),
 *     default item weights, pos handling, and the same refusals.  The map is
 *     built only through placement.h's builder calls.
 *
 * Where crushtool's result is undefined behaviour or a crash we refuse
 * instead (negative or out-of-range weights, numbers that overflow an int,
 * trees over 64 items, a single-statement map is fine here though crushtool
 * aborts on it), and a few things our map cannot hold are refused too (hash
 * other than rjenkins1, rule ids over 255, absurd ids).  Device classes and
 * choose_args are not supported yet.  Every error is one line:
 * "FILE:LINE:COL: error: what".
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "placement.h"

/* Ids past these are refused: Ceph would try to allocate arrays that size. */
#define MAX_DEVICE_ID ((1 << 20) - 1)
#define MIN_BUCKET_ID (-(1 << 20))
/* Ceph 16.2 CrushCompiler limits on explicit item weights (16.16). */
#define MAX_DEVICE_WEIGHT (100u * 0x10000u)
#define MAX_BUCKET_WEIGHT (65535u * 0x10000u)
/* crush_make_tree_bucket keeps the node count in 8 bits. */
#define MAX_TREE_SIZE 64

/* ---------------------------------------------------------------------- */
/* small containers                                                        */

struct tok {
	size_t off;
	size_t len; /* 0: absent */
};

static int grow(void **arr, int *cap, int n, size_t elem)
{
	void *na;
	int ncap;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 8;
	na = realloc(*arr, (size_t)ncap * elem);
	if (!na)
		return -ENOMEM;
	*arr = na;
	*cap = ncap;
	return 0;
}

/* string slice -> int, open addressing; keys point into the map text */
struct smap_ent {
	const char *s;
	size_t len;
	int val;
};

struct smap {
	struct smap_ent *e;
	size_t cap, n;
};

static uint32_t str_hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static struct smap_ent *smap_slot(const struct smap *m, const char *s,
				  size_t n)
{
	size_t i = str_hash(s, n) & (m->cap - 1);

	while (m->e[i].s) {
		if (m->e[i].len == n && memcmp(m->e[i].s, s, n) == 0)
			return &m->e[i];
		i = (i + 1) & (m->cap - 1);
	}
	return &m->e[i];
}

static int smap_get(const struct smap *m, const char *s, size_t n, int *val)
{
	struct smap_ent *e;

	if (!m->cap)
		return 0;
	e = smap_slot(m, s, n);
	if (!e->s)
		return 0;
	if (val)
		*val = e->val;
	return 1;
}

/* insert or overwrite (std::map operator[] semantics) */
static int smap_put(struct smap *m, const char *s, size_t n, int val)
{
	struct smap_ent *e;

	if ((m->n + 1) * 2 > m->cap) {
		struct smap old = *m;
		size_t ncap = m->cap ? m->cap * 2 : 64;

		m->e = calloc(ncap, sizeof(*m->e));
		if (!m->e) {
			m->e = old.e;
			return -ENOMEM;
		}
		m->cap = ncap;
		m->n = 0;
		for (size_t i = 0; i < old.cap; i++) {
			if (old.e[i].s) {
				*smap_slot(m, old.e[i].s, old.e[i].len) =
					old.e[i];
				m->n++;
			}
		}
		free(old.e);
	}
	e = smap_slot(m, s, n);
	if (!e->s) {
		e->s = s;
		e->len = n;
		m->n++;
	}
	e->val = val;
	return 0;
}

/* set of ints, open addressing */
struct iset {
	int32_t *v;
	uint8_t *used;
	size_t cap, n;
};

static size_t iset_slot(const struct iset *s, int32_t x)
{
	size_t i = ((uint32_t)x * 2654435761u) & (s->cap - 1);

	while (s->used[i] && s->v[i] != x)
		i = (i + 1) & (s->cap - 1);
	return i;
}

static int iset_has(const struct iset *s, int32_t x)
{
	return s->cap && s->used[iset_slot(s, x)];
}

static int iset_add(struct iset *s, int32_t x)
{
	size_t i;

	if ((s->n + 1) * 2 > s->cap) {
		struct iset old = *s;
		size_t ncap = s->cap ? s->cap * 2 : 64;

		s->v = calloc(ncap, sizeof(*s->v));
		s->used = calloc(ncap, 1);
		if (!s->v || !s->used) {
			free(s->v);
			free(s->used);
			*s = old;
			return -ENOMEM;
		}
		s->cap = ncap;
		s->n = 0;
		for (size_t j = 0; j < old.cap; j++)
			if (old.used[j])
				iset_add(s, old.v[j]);
		free(old.v);
		free(old.used);
	}
	i = iset_slot(s, x);
	if (!s->used[i]) {
		s->used[i] = 1;
		s->v[i] = x;
		s->n++;
	}
	return 0;
}

static void iset_free(struct iset *s)
{
	free(s->v);
	free(s->used);
}

/* ---------------------------------------------------------------------- */
/* statements recorded by the syntax phase                                 */

enum stmt_kind { ST_TUNABLE, ST_DEVICE, ST_TYPE, ST_BUCKET, ST_RULE };

struct id_rec {
	struct tok val;
	struct tok cls; /* the "class" keyword, if any */
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
};

struct rule_rec {
	struct tok kw, name, id, type, min, max;
	struct step_rec *steps;
	int nsteps, capsteps;
};

struct stmt {
	int kind;
	struct tok kw;
	struct tok a, b, cls; /* tunable: name,value; device: id,name;
			       * type: id,name */
	struct bucket_rec *bucket;
	struct rule_rec *rule;
};

static void bucket_free(struct bucket_rec *b)
{
	if (!b)
		return;
	free(b->ids);
	free(b->hashes);
	free(b->items);
	free(b);
}

static void rule_free(struct rule_rec *r)
{
	if (!r)
		return;
	free(r->steps);
	free(r);
}

/* ---------------------------------------------------------------------- */
/* the parser state and error reporting                                    */

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

	struct stmt *st;
	int nst, capst;
	char *scratch;
	size_t scratchcap;
};

#define NOFAR ((size_t)-1)

static void line_col(const struct parser *p, size_t off, int *line, int *col)
{
	int l = 1;
	size_t ls = 0;

	if (off > p->len)
		off = p->len;
	for (size_t i = 0; i < off; i++) {
		if (p->src[i] == '\n') {
			l++;
			ls = i + 1;
		}
	}
	*line = l;
	*col = (int)(off - ls) + 1;
}

/* The one error line.  Only the first error is kept. */
static void err_at(struct parser *p, size_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void err_at(struct parser *p, size_t off, const char *fmt, ...)
{
	va_list ap;
	int line, col, n;

	if (p->fatal)
		return;
	p->fatal = 1;
	if (!p->err || !p->errlen)
		return;
	line_col(p, off, &line, &col);
	n = snprintf(p->err, p->errlen, "%s:%d:%d: error: ", p->fname, line,
		     col);
	if (n < 0 || (size_t)n >= p->errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
	va_end(ap);
}

static void set_nomem(struct parser *p)
{
	p->nomem = 1;
	if (!p->fatal && p->err && p->errlen)
		snprintf(p->err, p->errlen, "%s: error: out of memory",
			 p->fname);
	p->fatal = 1;
}

static int stopped(const struct parser *p)
{
	return p->fatal || p->nomem;
}

static void fs_reset(struct fstate *f)
{
	f->far = NOFAR;
	f->nexp = 0;
	f->custom[0] = 0;
	f->ctx_kind = NULL;
}

static void expect(struct parser *p, size_t at, const char *what, int quote)
{
	struct fstate *f = &p->fs;

	if (f->far != NOFAR && at < f->far)
		return;
	if (f->far == NOFAR || at > f->far) {
		f->far = at;
		f->nexp = 0;
		f->custom[0] = 0;
		f->ctx_kind = p->ctx_kind;
		f->ctx = p->ctx;
	}
	for (int i = 0; i < f->nexp; i++)
		if (strcmp(f->exp[i], what) == 0)
			return;
	if (f->nexp < MAX_EXP) {
		f->quote[f->nexp] = (char)quote;
		f->exp[f->nexp++] = what;
	}
}

/* Pick the failure state to report: the farther one, both when equal. */
static void fs_merge(struct fstate *into, const struct fstate *from)
{
	if (from->far == NOFAR)
		return;
	if (into->far == NOFAR || from->far > into->far) {
		*into = *from;
		return;
	}
	if (from->far < into->far)
		return;
	for (int i = 0; i < from->nexp; i++) {
		int dup = 0;

		for (int j = 0; j < into->nexp; j++)
			if (strcmp(into->exp[j], from->exp[i]) == 0)
				dup = 1;
		if (!dup && into->nexp < MAX_EXP) {
			into->quote[into->nexp] = from->quote[i];
			into->exp[into->nexp++] = from->exp[i];
		}
	}
	if (!into->custom[0] && from->custom[0])
		memcpy(into->custom, from->custom, sizeof(into->custom));
}

static const char *tokp(const struct parser *p, struct tok t)
{
	return p->src + t.off;
}

/* Report the recorded farthest failure. */
static void report_syntax(struct parser *p, const struct fstate *f)
{
	char what[400];
	size_t n = 0;

	what[0] = 0;
	if (f->custom[0]) {
		snprintf(what, sizeof(what), "%s", f->custom);
	} else if (f->nexp) {
		n = (size_t)snprintf(what, sizeof(what), "expected ");
		for (int i = 0; i < f->nexp && n < sizeof(what); i++) {
			const char *sep = "";

			if (i > 0)
				sep = i == f->nexp - 1 ? " or " : ", ";
			n += (size_t)snprintf(what + n, sizeof(what) - n,
					      f->quote[i] ? "%s'%s'" : "%s%s",
					      sep, f->exp[i]);
		}
	} else {
		snprintf(what, sizeof(what), "syntax error");
	}

	if (f->far >= p->len) {
		if (f->ctx_kind && f->ctx.len)
			err_at(p, p->eof_from,
			       "unexpected end of file in %s '%.*s' (%s)",
			       f->ctx_kind, (int)f->ctx.len, tokp(p, f->ctx),
			       what);
		else if (f->ctx_kind)
			err_at(p, p->eof_from,
			       "unexpected end of file in %s (%s)",
			       f->ctx_kind, what);
		else
			err_at(p, p->eof_from, "unexpected end of file (%s)",
			       what);
		return;
	}
	err_at(p, f->far, "%s", what);
}

/* ---------------------------------------------------------------------- */
/* lexical level: Spirit's space_p skipper plus crushtool's '#' comments   */

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
	       c == '\f';
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Spirit's name: +(alnum_p | '-' | '_' | '.'), C locale */
static int is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       is_digit(c) || c == '-' || c == '_' || c == '.';
}

static size_t skip(struct parser *p, size_t i)
{
	size_t start = i;

	while (i < p->len) {
		char c = p->src[i];

		if (c == '#') {
			while (i < p->len && p->src[i] != '\n')
				i++;
		} else if (is_space(c)) {
			i++;
		} else {
			/* crushtool would stop reading at a NUL (a binary
			 * map "compiles" to an empty one): refuse instead. */
			if (c == '\0')
				err_at(p, i, "NUL byte in map text (binary "
				       "crush maps are not supported)");
			break;
		}
	}
	if (i >= p->len)
		p->eof_from = start;
	return i;
}

/* A keyword or punctuation, matched as a plain prefix as Spirit does. */
static int m_lit(struct parser *p, const char *s, struct tok *t)
{
	size_t at = skip(p, p->pos), n = strlen(s);

	if (stopped(p))
		return 0;
	if (p->len - at >= n && memcmp(p->src + at, s, n) == 0) {
		if (t) {
			t->off = at;
			t->len = n;
		}
		p->pos = at + n;
		return 1;
	}
	expect(p, at, s, 1);
	return 0;
}

static int m_name(struct parser *p, struct tok *t, const char *desc)
{
	size_t at = skip(p, p->pos), e = at;

	if (stopped(p))
		return 0;
	while (e < p->len && is_name_char(p->src[e]))
		e++;
	if (e == at) {
		expect(p, at, desc, 0);
		return 0;
	}
	t->off = at;
	t->len = e - at;
	p->pos = e;
	return 1;
}

/* posint, negint and integer: [-]digits as one lexeme.
 * sign: 0 no sign, 1 optional '-', 2 '-' required */
static int m_num(struct parser *p, struct tok *t, int sign, const char *desc)
{
	size_t at = skip(p, p->pos), e = at;
	int minus = e < p->len && p->src[e] == '-';

	if (stopped(p))
		return 0;
	if (sign && minus)
		e++;
	if ((sign == 2 && !minus) || e >= p->len || !is_digit(p->src[e])) {
		expect(p, at, desc, 0);
		return 0;
	}
	while (e < p->len && is_digit(p->src[e]))
		e++;
	t->off = at;
	t->len = e - at;
	p->pos = e;
	return 1;
}

static int m_uint(struct parser *p, struct tok *t)
{
	return m_num(p, t, 0, "a non-negative integer");
}

static int m_negint(struct parser *p, struct tok *t)
{
	return m_num(p, t, 2, "a negative integer");
}

static int m_int(struct parser *p, struct tok *t)
{
	return m_num(p, t, 1, "an integer");
}

/*
 * Digits as Spirit's uint_parser<double> accumulates them: it gives up
 * (no match) when the value would exceed DBL_MAX.  Returns digits taken,
 * or -1 on that overflow.
 */
static long real_digits(const struct parser *p, size_t i)
{
	double n = 0, max = 1.7976931348623157e308;
	size_t s = i;

	while (i < p->len && is_digit(p->src[i])) {
		double d = p->src[i] - '0';

		if (n > max / 10)
			return -1;
		n *= 10;
		if (n > max - d)
			return -1;
		n += d;
		i++;
	}
	return (long)(i - s);
}

/*
 * Spirit classic real_p (real_parser_policies<double>): [+-] digits
 * [. digits] [eE [+-] digits], with a leading or a trailing dot allowed but
 * not both, and an 'e' that must be followed by an exponent.
 */
static int m_real(struct parser *p, struct tok *t)
{
	size_t at = skip(p, p->pos), i = at;
	long nd, nf = 0;

	if (stopped(p))
		return 0;
	if (i < p->len && (p->src[i] == '+' || p->src[i] == '-'))
		i++;
	nd = real_digits(p, i);
	if (nd < 0)
		goto fail;
	i += (size_t)nd;
	if (i < p->len && p->src[i] == '.') {
		nf = real_digits(p, i + 1);
		if (nf < 0 || (nf == 0 && nd == 0))
			goto fail;
		i += 1 + (size_t)nf;
	} else if (nd == 0) {
		goto fail;
	}
	if (i < p->len && (p->src[i] == 'e' || p->src[i] == 'E')) {
		size_t j = i + 1;

		if (j < p->len && (p->src[j] == '+' || p->src[j] == '-'))
			j++;
		if (j >= p->len || !is_digit(p->src[j]))
			goto fail;
		while (j < p->len && is_digit(p->src[j]))
			j++;
		i = j;
	}
	t->off = at;
	t->len = i - at;
	p->pos = i;
	return 1;
fail:
	expect(p, at, "a number", 0);
	return 0;
}

/* ---------------------------------------------------------------------- */
/* grammar (crush_grammar of Ceph 16.2)                                    */

static int push_stmt(struct parser *p, const struct stmt *s)
{
	if (grow((void **)&p->st, &p->capst, p->nst, sizeof(*p->st))) {
		set_nomem(p);
		return 0;
	}
	p->st[p->nst++] = *s;
	return 1;
}

/* tunable = "tunable" name posint */
static int g_tunable(struct parser *p)
{
	size_t save = p->pos;
	struct stmt s = { .kind = ST_TUNABLE };

	if (m_lit(p, "tunable", &s.kw) && m_name(p, &s.a, "a tunable name") &&
	    m_uint(p, &s.b))
		return push_stmt(p, &s);
	p->pos = save;
	return 0;
}

/* device = "device" posint name !("class" name) */
static int g_device(struct parser *p)
{
	size_t save = p->pos, s2;
	struct stmt s = { .kind = ST_DEVICE };
	struct tok cname;

	if (!m_lit(p, "device", &s.kw) || !m_uint(p, &s.a) ||
	    !m_name(p, &s.b, "a device name")) {
		p->pos = save;
		return 0;
	}
	s2 = p->pos;
	if (!m_lit(p, "class", &s.cls) || !m_name(p, &cname, "a class name")) {
		p->pos = s2;
		s.cls.len = 0;
	}
	return push_stmt(p, &s);
}

/* bucket_type = "type" posint name */
static int g_type(struct parser *p)
{
	size_t save = p->pos;
	struct stmt s = { .kind = ST_TYPE };

	if (m_lit(p, "type", &s.kw) && m_uint(p, &s.a) &&
	    m_name(p, &s.b, "a type name"))
		return push_stmt(p, &s);
	p->pos = save;
	return 0;
}

/*
 * bucket = name name '{' *bucket_id bucket_alg *bucket_hash *bucket_item '}'
 * bucket_id = "id" negint !("class" name)
 * bucket_alg = "alg" name
 * bucket_hash = "hash" (integer | "rjenkins1")
 * bucket_item = "item" name !("weight" real) !("pos" posint)
 */
static int g_bucket(struct parser *p)
{
	size_t save = p->pos, s2, s3;
	const char *octx_kind = p->ctx_kind;
	struct tok octx = p->ctx;
	struct bucket_rec *b = calloc(1, sizeof(*b));
	struct stmt st = { .kind = ST_BUCKET };
	struct tok t;

	if (!b) {
		set_nomem(p);
		return 0;
	}
	if (!m_name(p, &b->type, "a bucket type name") ||
	    !m_name(p, &b->name, "a bucket name") || !m_lit(p, "{", NULL))
		goto fail;
	p->opened = 1;
	p->ctx_kind = "bucket";
	p->ctx = b->name;
	for (;;) {
		struct id_rec r = { { 0, 0 }, { 0, 0 } };

		s2 = p->pos;
		if (!m_lit(p, "id", NULL) || !m_negint(p, &r.val)) {
			p->pos = s2;
			break;
		}
		s3 = p->pos;
		if (!m_lit(p, "class", &r.cls) ||
		    !m_name(p, &t, "a class name")) {
			p->pos = s3;
			r.cls.len = 0;
		}
		if (grow((void **)&b->ids, &b->capids, b->nids,
			 sizeof(*b->ids))) {
			set_nomem(p);
			goto fail;
		}
		b->ids[b->nids++] = r;
	}
	if (!m_lit(p, "alg", NULL) || !m_name(p, &b->alg, "a bucket alg"))
		goto fail;
	for (;;) {
		s2 = p->pos;
		if (!m_lit(p, "hash", NULL) ||
		    (!m_int(p, &t) && !m_lit(p, "rjenkins1", &t))) {
			p->pos = s2;
			break;
		}
		if (grow((void **)&b->hashes, &b->caphashes, b->nhashes,
			 sizeof(*b->hashes))) {
			set_nomem(p);
			goto fail;
		}
		b->hashes[b->nhashes++] = t;
	}
	for (;;) {
		struct item_rec it;

		memset(&it, 0, sizeof(it));
		s2 = p->pos;
		if (!m_lit(p, "item", NULL) ||
		    !m_name(p, &it.name, "an item name")) {
			p->pos = s2;
			break;
		}
		s3 = p->pos;
		if (!m_lit(p, "weight", NULL) || !m_real(p, &it.weight)) {
			p->pos = s3;
			it.weight.len = 0;
		}
		s3 = p->pos;
		if (!m_lit(p, "pos", NULL) || !m_uint(p, &it.pos)) {
			p->pos = s3;
			it.pos.len = 0;
		}
		if (grow((void **)&b->items, &b->capitems, b->nitems,
			 sizeof(*b->items))) {
			set_nomem(p);
			goto fail;
		}
		b->items[b->nitems++] = it;
	}
	if (!m_lit(p, "}", NULL))
		goto fail;
	p->ctx_kind = octx_kind;
	p->ctx = octx;
	st.bucket = b;
	if (push_stmt(p, &st))
		return 1;
fail:
	bucket_free(b);
	p->ctx_kind = octx_kind;
	p->ctx = octx;
	p->pos = save;
	return 0;
}

/* "firstn" or "indep" */
static int g_mode(struct parser *p, int *indep)
{
	if (m_lit(p, "indep", NULL)) {
		*indep = 1;
		return 1;
	}
	if (m_lit(p, "firstn", NULL)) {
		*indep = 0;
		return 1;
	}
	return 0;
}

static const struct {
	const char *kw;
	int op;
} set_steps[] = {
	/* grammar order: literals are prefix-matched, order matters */
	{ "set_choose_tries", PL_RULE_SET_CHOOSE_TRIES },
	{ "set_choose_local_tries", PL_RULE_SET_CHOOSE_LOCAL_TRIES },
	{ "set_choose_local_fallback_tries",
	  PL_RULE_SET_CHOOSE_LOCAL_FALLBACK_TRIES },
	{ "set_chooseleaf_tries", PL_RULE_SET_CHOOSELEAF_TRIES },
	{ "set_chooseleaf_vary_r", PL_RULE_SET_CHOOSELEAF_VARY_R },
	{ "set_chooseleaf_stable", PL_RULE_SET_CHOOSELEAF_STABLE },
};

/*
 * step = "step" (step_take | set_* posint | step_choose | step_chooseleaf
 *                | "emit")
 * step_take = "take" name !("class" name)
 * step_choose(leaf) = "choose"("leaf") ("indep"|"firstn") integer
 *                     "type" name
 */
static int g_step(struct parser *p, struct step_rec *sr)
{
	size_t save = p->pos, at, s2;
	struct tok t;
	int indep;

	memset(sr, 0, sizeof(*sr));
	if (!m_lit(p, "step", NULL))
		return 0;
	at = skip(p, p->pos);
	s2 = p->pos;

	if (m_lit(p, "take", &sr->kw) &&
	    m_name(p, &sr->arg, "a bucket or device name")) {
		size_t s3 = p->pos;

		sr->kind = SK_TAKE;
		sr->op = PL_RULE_TAKE;
		if (!m_lit(p, "class", &sr->cls) ||
		    !m_name(p, &t, "a class name")) {
			p->pos = s3;
			sr->cls.len = 0;
		}
		return 1;
	}
	p->pos = s2;
	for (size_t i = 0; i < sizeof(set_steps) / sizeof(set_steps[0]); i++) {
		if (m_lit(p, set_steps[i].kw, &sr->kw) && m_uint(p, &sr->arg)) {
			sr->kind = SK_SET;
			sr->op = set_steps[i].op;
			return 1;
		}
		p->pos = s2;
	}
	if (m_lit(p, "choose", &sr->kw) && g_mode(p, &indep) &&
	    m_int(p, &sr->arg) && m_lit(p, "type", NULL) &&
	    m_name(p, &sr->type, "a type name")) {
		sr->kind = SK_CHOOSE;
		sr->op = indep ? PL_RULE_CHOOSE_INDEP : PL_RULE_CHOOSE_FIRSTN;
		return 1;
	}
	p->pos = s2;
	if (m_lit(p, "chooseleaf", &sr->kw) && g_mode(p, &indep) &&
	    m_int(p, &sr->arg) && m_lit(p, "type", NULL) &&
	    m_name(p, &sr->type, "a type name")) {
		sr->kind = SK_CHOOSE;
		sr->op = indep ? PL_RULE_CHOOSELEAF_INDEP :
				 PL_RULE_CHOOSELEAF_FIRSTN;
		return 1;
	}
	p->pos = s2;
	if (m_lit(p, "emit", &sr->kw)) {
		sr->kind = SK_EMIT;
		sr->op = PL_RULE_EMIT;
		return 1;
	}
	p->pos = save;
	/* Nothing matched right after "step": name the word, not the
	 * dozen keywords that could have been there. */
	if (!stopped(p) && p->fs.far == at && at < p->len) {
		size_t e = at;

		while (e < p->len && is_name_char(p->src[e]))
			e++;
		if (e > at)
			snprintf(p->fs.custom, sizeof(p->fs.custom),
				 "unknown rule step '%.*s'",
				 (int)(e - at > 60 ? 60 : e - at),
				 p->src + at);
		else
			snprintf(p->fs.custom, sizeof(p->fs.custom),
				 "expected a rule step (take, choose, "
				 "chooseleaf, emit or set_*)");
	}
	return 0;
}

/*
 * crushrule = "rule" !name '{' ("id" | "ruleset") posint
 *             "type" ("replicated" | "erasure")
 *             "min_size" posint "max_size" posint +step '}'
 */
static int g_rule(struct parser *p)
{
	size_t save = p->pos, s2;
	const char *octx_kind = p->ctx_kind;
	struct tok octx = p->ctx;
	struct rule_rec *r = calloc(1, sizeof(*r));
	struct stmt st = { .kind = ST_RULE };
	struct step_rec sr;

	if (!r) {
		set_nomem(p);
		return 0;
	}
	if (!m_lit(p, "rule", &r->kw))
		goto fail;
	s2 = p->pos;
	if (!m_name(p, &r->name, "a rule name")) {
		p->pos = s2;
		r->name.len = 0;
	}
	if (!m_lit(p, "{", NULL))
		goto fail;
	p->opened = 1;
	p->ctx_kind = "rule";
	p->ctx = r->name;
	if (!(m_lit(p, "id", NULL) || m_lit(p, "ruleset", NULL)) ||
	    !m_uint(p, &r->id))
		goto fail;
	if (!m_lit(p, "type", NULL) ||
	    !(m_lit(p, "replicated", &r->type) ||
	      m_lit(p, "erasure", &r->type)))
		goto fail;
	if (!m_lit(p, "min_size", NULL) || !m_uint(p, &r->min) ||
	    !m_lit(p, "max_size", NULL) || !m_uint(p, &r->max))
		goto fail;
	for (;;) {
		s2 = p->pos;
		if (!g_step(p, &sr)) {
			p->pos = s2;
			break;
		}
		if (grow((void **)&r->steps, &r->capsteps, r->nsteps,
			 sizeof(*r->steps))) {
			set_nomem(p);
			goto fail;
		}
		r->steps[r->nsteps++] = sr;
	}
	if (!r->nsteps || !m_lit(p, "}", NULL))
		goto fail;
	p->ctx_kind = octx_kind;
	p->ctx = octx;
	st.kw = r->kw;
	st.rule = r;
	if (push_stmt(p, &st))
		return 1;
fail:
	rule_free(r);
	p->ctx_kind = octx_kind;
	p->ctx = octx;
	p->pos = save;
	return 0;
}

/* Is the word at `at` exactly kw (followed by a non-name character)? */
static int word_is(const struct parser *p, size_t at, const char *kw)
{
	size_t n = strlen(kw);

	return p->len - at >= n && memcmp(p->src + at, kw, n) == 0 &&
	       (at + n == p->len || !is_name_char(p->src[at + n]));
}

/* Try one alternative with a fresh failure state, saved to *f. */
static int attempt(struct parser *p, int (*g)(struct parser *),
		   struct fstate *f, int *opened)
{
	int ok;

	fs_reset(&p->fs);
	p->opened = 0;
	ok = g(p);
	*f = p->fs;
	if (opened)
		*opened = p->opened;
	return ok;
}

/*
 * crushmap = *(tunable | device | bucket_type) *(bucket | crushrule)
 *            *choose_args
 * Returns 0 when the whole text matched.
 */
static int parse_syntax(struct parser *p)
{
	static const char *const kw1[] = { "tunable", "device", "type" };
	int (*const g1[])(struct parser *) = { g_tunable, g_device, g_type };
	int section = 1;
	size_t s;

	for (;;) {
		struct fstate f1[3], fb, fr, fall;
		int ob = 0, orr = 0, ok = 0, tried1 = 0;

		s = skip(p, p->pos);
		if (stopped(p))
			return -1;
		if (s >= p->len)
			return 0;
		for (int i = 0; i < 3; i++)
			fs_reset(&f1[i]);
		if (section == 1) {
			tried1 = 1;
			for (int i = 0; i < 3 && !ok; i++)
				ok = attempt(p, g1[i], &f1[i], NULL);
			if (ok)
				continue;
			if (stopped(p))
				return -1;
			section = 2;
		}
		if (attempt(p, g_bucket, &fb, &ob))
			continue;
		if (stopped(p))
			return -1;
		if (attempt(p, g_rule, &fr, &orr))
			continue;
		if (stopped(p))
			return -1;

		/* The statement at s is not valid: crushtool would try
		 * choose_args here, then fail.  Say something useful. */
		p->pos = s;
		if (m_lit(p, "choose_args", NULL)) {
			struct tok t;

			if (m_uint(p, &t) && m_lit(p, "{", NULL)) {
				err_at(p, s, "choose_args are not supported "
				       "yet");
				return -1;
			}
		}
		p->pos = s;
		for (int i = 0; i < 3; i++) {
			if (!word_is(p, s, kw1[i]))
				continue;
			if (!tried1) {
				int nst = p->nst;

				/* a section-1 line after buckets/rules */
				if (attempt(p, g1[i], &f1[i], NULL)) {
					p->nst = nst;
					err_at(p, s, "'%s' lines must come "
					       "before buckets and rules",
					       kw1[i]);
					return -1;
				}
			}
			if (!ob) {
				report_syntax(p, &f1[i]);
				return -1;
			}
		}
		if (word_is(p, s, "rule") && (orr || !ob)) {
			report_syntax(p, &fr);
			return -1;
		}
		fall = fb;
		fs_merge(&fall, &fr);
		for (int i = 0; i < 3; i++)
			fs_merge(&fall, &f1[i]);
		if (fall.far == NOFAR)
			fall.far = s;
		if (fall.far == s && !fall.custom[0])
			snprintf(fall.custom, sizeof(fall.custom), "%s",
				 tried1 ?
				 "expected a tunable, device, type, bucket "
				 "or rule" :
				 "expected a bucket or rule");
		report_syntax(p, &fall);
		return -1;
	}
}

/* ---------------------------------------------------------------------- */
/* semantics (CrushCompiler::parse_crush and friends)                     */

struct sem {
	struct parser *p;
	pl_map *m;
	struct smap items;   /* item_id: device/bucket name -> id */
	struct smap types;   /* type_id */
	struct smap rules;   /* rule_id */
	struct smap bnames;  /* every bucket name in the file -> index */
	struct iset used;    /* id_item: bucket ids taken or reserved */
	int32_t next_free;   /* no free id above this one (ids only grow) */
	int saw_rule;
};

static char *cstr(struct parser *p, struct tok t)
{
	if (t.len + 1 > p->scratchcap) {
		char *n = realloc(p->scratch, t.len + 1);

		if (!n) {
			set_nomem(p);
			return NULL;
		}
		p->scratch = n;
		p->scratchcap = t.len + 1;
	}
	memcpy(p->scratch, p->src + t.off, t.len);
	p->scratch[t.len] = 0;
	return p->scratch;
}

#define TOKF(t) (int)(t).len, tokp(p, t)

/*
 * int_node: crushtool reads numbers with strtol and stores them in an int;
 * anything that does not fit would wrap silently, so we refuse it.
 */
static int tok_int(struct parser *p, struct tok t, int *out)
{
	const char *s = tokp(p, t);
	size_t i = 0;
	int neg = 0;
	long long v = 0;

	if (i < t.len && s[i] == '-') {
		neg = 1;
		i++;
	}
	for (; i < t.len; i++) {
		v = v * 10 + (s[i] - '0');
		if (v > (long long)INT_MAX + 1)
			break;
	}
	if (neg)
		v = -v;
	if (v > INT_MAX || v < INT_MIN) {
		err_at(p, t.off, "number %.*s is out of range (integer "
		       "overflow)", (int)(t.len > 40 ? 40 : t.len), s);
		return -1;
	}
	*out = (int)v;
	return 0;
}

/*
 * Item weights: CrushCompiler computes
 *   unsigned weight = strtof(text) * (float)0x10000;
 * in float.  Products that do not fit an unsigned (negative, >= 2^32,
 * inf) are undefined behaviour there (x86 gives e.g. 0xffff0000 for -1,
 * 65536 for 65537, 0 for 1e999): refused here.
 */
static int tok_weight(struct parser *p, struct tok t, uint32_t *out)
{
	char *s = cstr(p, t);
	float f, w;

	if (!s)
		return -1;
	f = strtof(s, NULL);
	w = f * (float)0x10000;
	if (!(w > -1.0f)) {
		err_at(p, t.off, "weight must be a non-negative number");
		return -1;
	}
	if (!(w < 4294967296.0f)) {
		err_at(p, t.off, "weight %.*s is out of range", TOKF(t));
		return -1;
	}
	*out = (uint32_t)w;
	return 0;
}

static int tok_is(const struct parser *p, struct tok t, const char *s)
{
	return t.len == strlen(s) && memcmp(tokp(p, t), s, t.len) == 0;
}

static int sem_tunable(struct sem *S, const struct stmt *st)
{
	struct parser *p = S->p;
	struct pl_tunables t;
	int v;

	if (tok_int(p, st->b, &v))
		return -1;
	pl_map_get_tunables(S->m, &t);
	/* Ceph's setters take an int; the u8 fields truncate it */
	if (tok_is(p, st->a, "choose_local_tries"))
		t.choose_local_tries = (uint32_t)v;
	else if (tok_is(p, st->a, "choose_local_fallback_tries"))
		t.choose_local_fallback_tries = (uint32_t)v;
	else if (tok_is(p, st->a, "choose_total_tries"))
		t.choose_total_tries = (uint32_t)v;
	else if (tok_is(p, st->a, "chooseleaf_descend_once"))
		t.chooseleaf_descend_once = !!v; /* CrushWrapper stores !!n */
	else if (tok_is(p, st->a, "chooseleaf_vary_r"))
		t.chooseleaf_vary_r = (uint8_t)v;
	else if (tok_is(p, st->a, "chooseleaf_stable"))
		t.chooseleaf_stable = (uint8_t)v;
	else if (tok_is(p, st->a, "straw_calc_version"))
		t.straw_calc_version = (uint8_t)v;
	else if (tok_is(p, st->a, "allowed_bucket_algs"))
		t.allowed_bucket_algs = (uint32_t)v;
	else {
		err_at(p, st->a.off, "unknown tunable '%.*s'", TOKF(st->a));
		return -1;
	}
	pl_map_set_tunables(S->m, &t);
	return 0;
}

static int sem_device(struct sem *S, const struct stmt *st)
{
	struct parser *p = S->p;
	int id, err;
	char *name;

	if (tok_int(p, st->a, &id))
		return -1;
	if (id > MAX_DEVICE_ID) {
		err_at(p, st->a.off, "device id %d is out of range (at most "
		       "%d)", id, MAX_DEVICE_ID);
		return -1;
	}
	if (smap_get(&S->items, tokp(p, st->b), st->b.len, NULL)) {
		err_at(p, st->b.off, "device '%.*s' defined twice",
		       TOKF(st->b));
		return -1;
	}
	if (st->cls.len) {
		err_at(p, st->cls.off, "device classes are not supported yet");
		return -1;
	}
	if (smap_put(&S->items, tokp(p, st->b), st->b.len, id)) {
		set_nomem(p);
		return -1;
	}
	name = cstr(p, st->b);
	if (!name)
		return -1;
	err = pl_map_add_device(S->m, id, name);
	/* Two names for one id: crushtool keeps both usable and names the
	 * device after the last one. */
	if (err == -EEXIST)
		err = pl_map_set_item_name(S->m, id, name);
	if (err) {
		if (err == -ENOMEM)
			set_nomem(p);
		else
			err_at(p, st->a.off, "cannot add device %d: %s", id,
			       strerror(-err));
		return -1;
	}
	return 0;
}

static int sem_type(struct sem *S, const struct stmt *st)
{
	struct parser *p = S->p;
	int id, err;
	char *name;

	if (tok_int(p, st->a, &id))
		return -1;
	if (smap_put(&S->types, tokp(p, st->b), st->b.len, id)) {
		set_nomem(p);
		return -1;
	}
	name = cstr(p, st->b);
	if (!name)
		return -1;
	err = pl_map_set_type_name(S->m, id, name);
	if (err) {
		set_nomem(p);
		return -1;
	}
	return 0;
}

static int alg_by_name(const char *s, size_t n)
{
	static const char *const names[] = { "uniform", "list", "tree",
					     "straw", "straw2" };
	static const int algs[] = { PL_BUCKET_UNIFORM, PL_BUCKET_LIST,
				    PL_BUCKET_TREE, PL_BUCKET_STRAW,
				    PL_BUCKET_STRAW2 };

	for (int i = 0; i < 5; i++)
		if (strlen(names[i]) == n && !memcmp(names[i], s, n))
			return algs[i];
	return -1;
}

/* An item name that is unknown at this point: say why. */
static void unknown_item(struct sem *S, struct tok t, const char *user)
{
	struct parser *p = S->p;

	if (smap_get(&S->bnames, tokp(p, t), t.len, NULL))
		err_at(p, t.off, "bucket '%.*s' must be defined before %s",
		       TOKF(t), user);
	else
		err_at(p, t.off, "unknown bucket or device '%.*s'", TOKF(t));
}

/* CrushCompiler::parse_bucket */
static int sem_bucket(struct sem *S, const struct bucket_rec *b)
{
	struct parser *p = S->p;
	struct iset posused = { 0 };
	int type, id = 0, alg = -1, hash = 0, size, err, idout;
	int *items = NULL;
	uint32_t *weights = NULL;
	char *filled = NULL;
	int maxpos = -1, curpos = 0, have_uniform = 0, ret = -1;
	uint32_t uniform_w = 0, bucketweight = 0;
	struct tok idtok = { 0, 0 };
	char user[96];

	if (S->saw_rule) {
		err_at(p, b->type.off, "bucket '%.*s' must be defined before "
		       "the rules", TOKF(b->name));
		return -1;
	}
	if (!smap_get(&S->types, tokp(p, b->type), b->type.len, &type)) {
		err_at(p, b->type.off, "unknown type '%.*s'", TOKF(b->type));
		return -1;
	}
	/*
	 * Type 0 is the devices' type: Ceph's mapper takes an item of type 0
	 * for a device and reads its reweight at weight[item], so a bucket of
	 * type 0 is read at a negative index.  crushtool 16.2 compiles such a
	 * map and then maps by whatever lies before its weight vector (in our
	 * trials: empty sets, bucket ids as results, duplicates in indep
	 * results, and a segfault in CrushTester::test).  `type 0 osd` plus `type 0 host` makes one
	 * unawares.  Refused, as `ceph osd crush add-bucket` refuses it
	 * (OSDMonitor: "type '...' is for devices, not buckets").  A bucket
	 * keeps 16 bits of its type, so 65536 is 0 too.
	 */
	if ((type & 0xffff) == 0) {
		if (type)
			err_at(p, b->type.off, "bucket '%.*s': type '%.*s' "
			       "(%d) is 0 in a bucket's 16 bits, the type of "
			       "devices, not buckets", TOKF(b->name),
			       TOKF(b->type), type);
		else
			err_at(p, b->type.off, "bucket '%.*s': type '%.*s' "
			       "is for devices, not buckets (its id is 0)",
			       TOKF(b->name), TOKF(b->type));
		return -1;
	}
	if (smap_get(&S->items, tokp(p, b->name), b->name.len, &id)) {
		if (id >= 0)
			err_at(p, b->name.off, "bucket name '%.*s' is already "
			       "used by a device", TOKF(b->name));
		else
			err_at(p, b->name.off, "bucket '%.*s' defined twice",
			       TOKF(b->name));
		return -1;
	}
	id = 0;

	/* first pass: ids, alg, hash, explicit positions */
	for (int i = 0; i < b->nids; i++) {
		int v;

		if (b->ids[i].cls.len) {
			err_at(p, b->ids[i].cls.off, "device classes are not "
			       "supported yet");
			return -1;
		}
		if (tok_int(p, b->ids[i].val, &v))
			return -1;
		if (v < MIN_BUCKET_ID) {
			err_at(p, b->ids[i].val.off, "bucket id %d is out of "
			       "range (at least %d)", v, MIN_BUCKET_ID);
			return -1;
		}
		id = v;
		idtok = b->ids[i].val;
	}
	alg = alg_by_name(tokp(p, b->alg), b->alg.len);
	if (alg < 0) {
		err_at(p, b->alg.off, "unknown alg '%.*s' (expected uniform, "
		       "list, tree, straw or straw2)", TOKF(b->alg));
		return -1;
	}
	for (int i = 0; i < b->nhashes; i++) {
		struct tok h = b->hashes[i];

		if (h.len == 9 && !memcmp(tokp(p, h), "rjenkins1", 9)) {
			hash = PL_HASH_RJENKINS1;
			continue;
		}
		if (tok_int(p, h, &hash))
			return -1;
	}
	/* Ceph would store any number and hash with nothing at map time. */
	if (hash != PL_HASH_RJENKINS1) {
		err_at(p, b->hashes[b->nhashes - 1].off, "unsupported hash %d "
		       "(only 0, rjenkins1)", hash);
		return -1;
	}
	for (int i = 0; i < b->nitems; i++) {
		int pos;

		if (!b->items[i].pos.len)
			continue;
		if (tok_int(p, b->items[i].pos, &pos))
			goto out;
		if (iset_has(&posused, pos)) {
			err_at(p, b->items[i].pos.off, "pos %d is already "
			       "used in bucket '%.*s'", pos, TOKF(b->name));
			goto out;
		}
		if (iset_add(&posused, pos)) {
			set_nomem(p);
			goto out;
		}
		if (pos > maxpos)
			maxpos = pos;
	}

	/* Ceph: size = MAX(items, largest explicit pos) -- one short for a
	 * pos past the end, so such a map always fails below. */
	size = b->nitems > maxpos ? b->nitems : maxpos;
	items = calloc((size_t)b->nitems + 1, sizeof(*items));
	weights = calloc((size_t)b->nitems + 1, sizeof(*weights));
	filled = calloc((size_t)b->nitems + 1, 1);
	if (!items || !weights || !filled) {
		set_nomem(p);
		goto out;
	}
	snprintf(user, sizeof(user), "bucket '%.*s'",
		 (int)(b->name.len > 60 ? 60 : b->name.len), tokp(p, b->name));

	/* second pass: the items */
	for (int i = 0; i < b->nitems; i++) {
		const struct item_rec *it = &b->items[i];
		int itemid, pos = -1;
		uint32_t w = 0x10000;

		if (it->name.len == b->name.len &&
		    !memcmp(tokp(p, it->name), tokp(p, b->name),
			    b->name.len)) {
			/* crushtool: "item 'a' in bucket 'a' is not defined" */
			err_at(p, it->name.off, "bucket '%.*s' contains "
			       "itself", TOKF(b->name));
			goto out;
		}
		if (!smap_get(&S->items, tokp(p, it->name), it->name.len,
			      &itemid)) {
			unknown_item(S, it->name, user);
			goto out;
		}
		if (itemid < 0)
			w = pl_map_bucket_weight(S->m, itemid);
		if (it->weight.len) {
			if (tok_weight(p, it->weight, &w))
				goto out;
			if (itemid >= 0 && w > MAX_DEVICE_WEIGHT) {
				err_at(p, it->weight.off, "device weight "
				       "limited to %u", MAX_DEVICE_WEIGHT /
				       0x10000);
				goto out;
			}
			if (itemid < 0 && w > MAX_BUCKET_WEIGHT) {
				err_at(p, it->weight.off, "bucket weight "
				       "limited to %u", MAX_BUCKET_WEIGHT /
				       0x10000);
				goto out;
			}
		}
		if (alg == PL_BUCKET_UNIFORM) {
			if (!have_uniform) {
				have_uniform = 1;
				uniform_w = w;
			} else if (uniform_w != w) {
				err_at(p, it->weight.len ? it->weight.off :
				       it->name.off, "item '%.*s' in uniform "
				       "bucket '%.*s' has weight %.5g but "
				       "previous items have %.5g; uniform "
				       "bucket items must all have the same "
				       "weight", TOKF(it->name),
				       TOKF(b->name), (double)w / 0x10000,
				       (double)uniform_w / 0x10000);
				goto out;
			}
		}
		if (it->pos.len) {
			if (tok_int(p, it->pos, &pos))
				goto out;
			if (pos >= size) {
				err_at(p, it->pos.off, "pos %d is out of "
				       "range: bucket '%.*s' has %d items",
				       pos, TOKF(b->name), b->nitems);
				goto out;
			}
		} else {
			while (iset_has(&posused, curpos))
				curpos++;
			pos = curpos++;
		}
		/* a pos in [items, size) only happens when a later item
		 * fails the check above: nothing to store */
		if (pos < b->nitems) {
			items[pos] = itemid;
			weights[pos] = w;
			filled[pos] = 1;
		}
		if (UINT32_MAX - bucketweight < w) {
			err_at(p, it->weight.len ? it->weight.off :
			       it->name.off, "bucket '%.*s' weight overflows",
			       TOKF(b->name));
			goto out;
		}
		bucketweight += w;
	}
	for (int i = 0; i < b->nitems; i++) {
		if (!filled[i]) { /* cannot happen, see above */
			err_at(p, b->name.off, "bucket '%.*s' has a hole at "
			       "pos %d", TOKF(b->name), i);
			goto out;
		}
	}

	/* CrushCompiler: the first id from -1 down that no bucket uses and
	 * no "id" line anywhere in the file reserved */
	if (id == 0) {
		while (iset_has(&S->used, S->next_free))
			S->next_free--;
		id = S->next_free;
	}
	if (iset_add(&S->used, id)) {
		set_nomem(p);
		goto out;
	}
	if (b->nitems > PL_MAX_BUCKET_SIZE) {
		err_at(p, b->name.off, "bucket '%.*s' has %d items; at most "
		       "%d are supported", TOKF(b->name), b->nitems,
		       PL_MAX_BUCKET_SIZE);
		goto out;
	}
	if (alg == PL_BUCKET_TREE && b->nitems > MAX_TREE_SIZE) {
		err_at(p, b->name.off, "tree bucket '%.*s' has %d items; at "
		       "most %d are supported", TOKF(b->name), b->nitems,
		       MAX_TREE_SIZE);
		goto out;
	}
	/* crush_make_bucket stores the type in 16 bits */
	err = pl_map_add_bucket(S->m, id, alg, hash, type & 0xffff,
				b->nitems, items, weights, &idout);
	if (err) {
		if (err == -EEXIST)
			err_at(p, idtok.len ? idtok.off : b->name.off,
			       "duplicate bucket id %d", id);
		else if (err == -ENOMEM)
			set_nomem(p);
		else
			err_at(p, b->name.off, "cannot add bucket '%.*s': %s",
			       TOKF(b->name), strerror(-err));
		goto out;
	}
	if (smap_put(&S->items, tokp(p, b->name), b->name.len, id)) {
		set_nomem(p);
		goto out;
	}
	if (!cstr(p, b->name))
		goto out;
	err = pl_map_set_item_name(S->m, id, p->scratch);
	if (err) {
		set_nomem(p);
		goto out;
	}
	ret = 0;
out:
	iset_free(&posused);
	free(items);
	free(weights);
	free(filled);
	return ret;
}

/* CrushCompiler::parse_rule */
static int sem_rule(struct sem *S, const struct rule_rec *r)
{
	struct parser *p = S->p;
	struct pl_rule_step *steps;
	int ruleno, type, minsz, maxsz, err, out, ret = -1;
	char user[96];

	S->saw_rule = 1;
	if (r->name.len &&
	    smap_get(&S->rules, tokp(p, r->name), r->name.len, NULL)) {
		err_at(p, r->name.off, "rule '%.*s' defined twice",
		       TOKF(r->name));
		return -1;
	}
	if (tok_int(p, r->id, &ruleno) || tok_int(p, r->min, &minsz) ||
	    tok_int(p, r->max, &maxsz))
		return -1;
	type = tokp(p, r->type)[0] == 'r' ? PL_RULE_TYPE_REPLICATED :
					    PL_RULE_TYPE_ERASURE;
	if (pl_map_rule_exists(S->m, ruleno)) {
		err_at(p, r->id.off, "duplicate rule id %d", ruleno);
		return -1;
	}
	/* Ceph accepts more (up to its quirky max_rules growth) but keeps
	 * only 8 bits of the ruleset: not representable here. */
	if (ruleno >= PL_MAX_RULES) {
		err_at(p, r->id.off, "rule id %d is out of range (at most %d)",
		       ruleno, PL_MAX_RULES - 1);
		return -1;
	}
	if (r->name.len)
		snprintf(user, sizeof(user), "rule '%.*s'",
			 (int)(r->name.len > 60 ? 60 : r->name.len),
			 tokp(p, r->name));
	else
		snprintf(user, sizeof(user), "rule %d", ruleno);

	steps = calloc((size_t)r->nsteps, sizeof(*steps));
	if (!steps) {
		set_nomem(p);
		return -1;
	}
	for (int i = 0; i < r->nsteps; i++) {
		const struct step_rec *sr = &r->steps[i];
		struct pl_rule_step *s = &steps[i];

		s->op = (uint32_t)sr->op;
		switch (sr->kind) {
		case SK_TAKE:
			if (!smap_get(&S->items, tokp(p, sr->arg),
				      sr->arg.len, &s->arg1)) {
				unknown_item(S, sr->arg, user);
				goto out;
			}
			if (sr->cls.len) {
				err_at(p, sr->cls.off, "device classes are "
				       "not supported yet");
				goto out;
			}
			break;
		case SK_SET:
			if (tok_int(p, sr->arg, &s->arg1))
				goto out;
			break;
		case SK_CHOOSE:
			if (!smap_get(&S->types, tokp(p, sr->type),
				      sr->type.len, &s->arg2)) {
				err_at(p, sr->type.off, "unknown type '%.*s'",
				       TOKF(sr->type));
				goto out;
			}
			if (tok_int(p, sr->arg, &s->arg1))
				goto out;
			break;
		default:
			break;
		}
	}
	/* min_size/max_size are kept in 8 bits, as in Ceph */
	err = pl_map_add_rule(S->m, ruleno, type, minsz, maxsz, r->nsteps,
			      steps, &out);
	if (err) {
		if (err == -ENOMEM)
			set_nomem(p);
		else
			err_at(p, r->id.off, "cannot add rule %d: %s", ruleno,
			       strerror(-err));
		goto out;
	}
	if (r->name.len) {
		if (smap_put(&S->rules, tokp(p, r->name), r->name.len,
			     ruleno) || !cstr(p, r->name) ||
		    pl_map_set_rule_name(S->m, ruleno, p->scratch)) {
			set_nomem(p);
			goto out;
		}
	}
	ret = 0;
out:
	free(steps);
	return ret;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* Is c in sorted a[0..n)? */
static int has_sorted(const int *a, int n, int c)
{
	return n > 0 &&
	       bsearch(&c, a, (size_t)n, sizeof(int), cmp_int) != NULL;
}

/*
 * CrushCompiler::adjust_bucket_item_place, reproduced with its quirks:
 * for every pair i < j of bucket definitions (by name) where i lists j as
 * an item, the parse-tree nodes found through bucket_itrer[name] are
 * swapped -- iterators that are not updated after a swap, so with several
 * forward references the resulting order can still be wrong, and crushtool
 * then fails.  We fail the same way.  order[k] gets the bucket record to
 * process for the k-th bucket statement.
 */
static int adjust_order(struct sem *S, struct bucket_rec **recs, int nb,
			int *order)
{
	struct parser *p = S->p;
	int nn = (int)S->bnames.n, ret = -1;
	int *nid = calloc((size_t)nb + 1, sizeof(int));
	int *slot_of = calloc((size_t)nn + 1, sizeof(int));
	int **cont = calloc((size_t)nn + 1, sizeof(int *));
	int *ncont = calloc((size_t)nn + 1, sizeof(int));
	int *capc = calloc((size_t)nn + 1, sizeof(int));
	int **defs = calloc((size_t)nn + 1, sizeof(int *)); /* k's per name */
	int *ndefs = calloc((size_t)nn + 1, sizeof(int));
	int *capd = calloc((size_t)nn + 1, sizeof(int));
	int *js = NULL, capjs = 0;

	if (!nid || !slot_of || !cont || !ncont || !capc || !defs || !ndefs ||
	    !capd)
		goto nomem;
	for (int k = 0; k < nb; k++) {
		smap_get(&S->bnames, tokp(p, recs[k]->name), recs[k]->name.len,
			 &nid[k]);
		slot_of[nid[k]] = k; /* last definition wins, as in Ceph */
		if (grow((void **)&defs[nid[k]], &capd[nid[k]], ndefs[nid[k]],
			 sizeof(int)))
			goto nomem;
		defs[nid[k]][ndefs[nid[k]]++] = k;
		order[k] = k;
	}
	for (int k = 0; k < nb; k++) {
		int a = nid[k];

		for (int i = 0; i < recs[k]->nitems; i++) {
			int c;
			struct tok t = recs[k]->items[i].name;

			if (!smap_get(&S->bnames, tokp(p, t), t.len, &c))
				continue;
			if (grow((void **)&cont[a], &capc[a], ncont[a],
				 sizeof(int)))
				goto nomem;
			cont[a][ncont[a]++] = c;
		}
	}
	for (int a = 0; a < nn; a++) {
		int n = 0;

		if (!ncont[a])
			continue;
		qsort(cont[a], (size_t)ncont[a], sizeof(int), cmp_int);
		for (int i = 0; i < ncont[a]; i++)
			if (!n || cont[a][n - 1] != cont[a][i])
				cont[a][n++] = cont[a][i];
		ncont[a] = n;
	}
	for (int i = 0; i < nb; i++) {
		int a = nid[i], nj = 0;

		/* the j > i whose name bucket i lists, in increasing order */
		for (int c = 0; c < ncont[a]; c++) {
			int b = cont[a][c];

			for (int d = 0; d < ndefs[b]; d++) {
				if (defs[b][d] <= i)
					continue;
				if (grow((void **)&js, &capjs, nj, sizeof(int)))
					goto nomem;
				js[nj++] = defs[b][d];
			}
		}
		if (nj)
			qsort(js, (size_t)nj, sizeof(int), cmp_int);
		for (int x = 0; x < nj; x++) {
			int j = js[x], b = nid[j], tmp;

			if (has_sorted(cont[b], ncont[b], a)) {
				err_at(p, recs[i]->name.off, "buckets '%.*s' "
				       "and '%.*s' contain each other",
				       TOKF(recs[i]->name),
				       TOKF(recs[j]->name));
				goto out;
			}
			tmp = order[slot_of[a]];
			order[slot_of[a]] = order[slot_of[b]];
			order[slot_of[b]] = tmp;
		}
	}
	ret = 0;
	goto out;
nomem:
	set_nomem(p);
out:
	for (int a = 0; a < nn && cont && defs; a++) {
		free(cont[a]);
		free(defs[a]);
	}
	free(nid);
	free(slot_of);
	free(cont);
	free(ncont);
	free(capc);
	free(defs);
	free(ndefs);
	free(capd);
	free(js);
	return ret;
}

static int parse_semantics(struct parser *p, pl_map **out)
{
	struct sem S;
	struct pl_tunables legacy;
	struct bucket_rec **recs = NULL;
	int *order = NULL, nb = 0, k = 0, ret = -1;

	memset(&S, 0, sizeof(S));
	S.p = p;
	S.next_free = -1;
	S.m = pl_map_create();
	if (!S.m) {
		set_nomem(p);
		return -1;
	}
	/* "always start with legacy tunables, so that the compiled result of
	 * a given crush file is fixed for all time" (CrushCompiler::compile)
	 */
	pl_tunables_profile("legacy", &legacy);
	pl_map_set_tunables(S.m, &legacy);

	for (int i = 0; i < p->nst; i++)
		if (p->st[i].kind == ST_BUCKET)
			nb++;
	recs = calloc((size_t)nb + 1, sizeof(*recs));
	order = calloc((size_t)nb + 1, sizeof(*order));
	if (!recs || !order) {
		set_nomem(p);
		goto out;
	}
	nb = 0;
	for (int i = 0; i < p->nst; i++) {
		struct bucket_rec *b = p->st[i].bucket;
		int dummy;

		if (p->st[i].kind != ST_BUCKET)
			continue;
		recs[nb] = b;
		if (!smap_get(&S.bnames, tokp(p, b->name), b->name.len,
			      &dummy) &&
		    smap_put(&S.bnames, tokp(p, b->name), b->name.len,
			     (int)S.bnames.n)) {
			set_nomem(p);
			goto out;
		}
		nb++;
	}
	if (adjust_order(&S, recs, nb, order))
		goto out;

	/* find_used_bucket_ids (Ceph 16.2): every "id" line of every bucket
	 * is reserved before any bucket is built, class ids included */
	for (int i = 0; i < nb; i++) {
		for (int j = 0; j < recs[i]->nids; j++) {
			struct tok t = recs[i]->ids[j].val;
			const char *s = tokp(p, t);
			long long v = 0;

			for (size_t c = 1; c < t.len && v < 1LL << 40; c++)
				v = v * 10 + (s[c] - '0');
			if (v <= -(long long)INT_MIN &&
			    iset_add(&S.used, (int)-v)) {
				set_nomem(p);
				goto out;
			}
		}
	}

	for (int i = 0; i < p->nst; i++) {
		const struct stmt *st = &p->st[i];
		int r = 0;

		switch (st->kind) {
		case ST_TUNABLE:
			r = sem_tunable(&S, st);
			break;
		case ST_DEVICE:
			r = sem_device(&S, st);
			break;
		case ST_TYPE:
			r = sem_type(&S, st);
			break;
		case ST_BUCKET:
			r = sem_bucket(&S, recs[order[k++]]);
			break;
		case ST_RULE:
			r = sem_rule(&S, st->rule);
			break;
		}
		if (r || stopped(p))
			goto out;
	}
	pl_map_finalize(S.m);
	*out = S.m;
	S.m = NULL;
	ret = 0;
out:
	pl_map_destroy(S.m);
	free(S.items.e);
	free(S.types.e);
	free(S.rules.e);
	free(S.bnames.e);
	iset_free(&S.used);
	free(recs);
	free(order);
	return ret;
}

/* ---------------------------------------------------------------------- */

int pl_parse_text(const char *text, size_t len, const char *filename,
		  pl_map **out, char *err, size_t errlen)
{
	struct parser p;
	int ret;

	memset(&p, 0, sizeof(p));
	p.src = text ? text : "";
	p.len = text ? len : 0;
	p.fname = filename ? filename : "<input>";
	p.err = err;
	p.errlen = errlen;
	p.eof_from = 0;
	fs_reset(&p.fs);
	if (err && errlen)
		err[0] = 0;
	*out = NULL;

	ret = parse_syntax(&p);
	if (!ret && !stopped(&p))
		ret = parse_semantics(&p, out);
	if (stopped(&p) || ret) {
		ret = p.nomem ? -ENOMEM : -EINVAL;
		if (!p.fatal)
			err_at(&p, 0, "invalid crush map");
	}
	for (int i = 0; i < p.nst; i++) {
		bucket_free(p.st[i].bucket);
		rule_free(p.st[i].rule);
	}
	free(p.st);
	free(p.scratch);
	return ret;
}

int pl_parse_file(const char *path, pl_map **out, char *err, size_t errlen)
{
	FILE *f;
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int ret, e;

	*out = NULL;
	f = fopen(path, "rb");
	if (!f)
		goto ioerr;
	for (;;) {
		size_t n;

		if (len == cap) {
			char *nb;

			cap = cap ? cap * 2 : 65536;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				fclose(f);
				if (err && errlen)
					snprintf(err, errlen,
						 "%s: cannot read: %s", path,
						 strerror(ENOMEM));
				return -ENOMEM;
			}
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n == 0) {
			if (ferror(f)) {
				e = errno ? errno : EIO;
				free(buf);
				fclose(f);
				errno = e;
				goto ioerr;
			}
			break;
		}
	}
	fclose(f);
	ret = pl_parse_text(buf, len, path, out, err, errlen);
	free(buf);
	return ret;
ioerr:
	e = errno ? errno : EIO;
	if (err && errlen)
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(e));
	return -e;
}
