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
 * aborts on it), and a few things our map cannot hold are refused too (rule
 * ids over 255, bucket ids past -2^20).  Every error is one line:
 * "FILE:LINE:COL: error: what".
 *
 * The pieces are in parse_*.c; parse_i.h lists them.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parse_i.h"

/*
 * Give the text's pages before `upto` back when the text is a file
 * mapping: they are clean page cache, but a process's RSS counts every
 * mapped page it touched, and a map's text is as big as the map built
 * from it.  A page needed again (a bucket built out of order, an error's
 * line count) is simply read back in.
 */
#define RELEASE_STEP (1u << 20)
static void release_text(struct parser *p, size_t upto)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), from = p->released;
	size_t to = upto & ~(pg - 1);

	if (!p->mapped || to <= from || to - from < RELEASE_STEP)
		return;
	(void)madvise((char *)(uintptr_t)p->src + from, to - from,
		      MADV_DONTNEED);
	p->released = to;
}

/* the first text offset a statement's record refers to */
static size_t stmt_start(const struct stmt *st, const struct bucket_rec *b)
{
	switch (st->kind) {
	case ST_BUCKET: /* the record built for it (buckets are reordered) */
		return b->type.off;
	case ST_RULE:
		return st->rule->kw.off;
	case ST_CHOOSE_ARGS:
		return st->cargs->kw.off;
	default:
		return st->a.off;
	}
}

static void sem_free(struct sem *S)
{
	for (size_t i = 0; i < S->alias.cap; i++)
		free((char *)S->alias.e[i].s);
	free(S->alias.e);
	free(S->types.e);
	free(S->rules.e);
	free(S->bnames.e);
	pp_iset_free(&S->used);
	free(S->pend);
	memset(&S->alias, 0, sizeof(S->alias));
	memset(&S->types, 0, sizeof(S->types));
	memset(&S->rules, 0, sizeof(S->rules));
	memset(&S->bnames, 0, sizeof(S->bnames));
	memset(&S->used, 0, sizeof(S->used));
	S->pend = NULL;
}

static void stmts_free(struct parser *p)
{
	for (int i = 0; i < p->nst; i++) {
		if (p->st[i].kind == ST_BUCKET)
			pp_bucket_free(p->st[i].bucket);
		else if (p->st[i].kind == ST_RULE)
			pp_rule_free(p->st[i].rule);
		else if (p->st[i].kind == ST_CHOOSE_ARGS)
			pp_cargs_free(p->st[i].cargs);
	}
	free(p->st);
	p->st = NULL;
	p->nst = p->capst = 0;
}

/*
 * Memory: a big map's peak is the text, the statements and the map being
 * built, all at once.  So the device, type and tunable records (the
 * bulk of the statements: one per device) are dropped once applied,
 * each bucket record once its bucket is built, the text's pages as the
 * statements using them are passed, and everything of the parser's
 * before the map is finalized.
 */
static int parse_semantics(struct parser *p, pl_map **out)
{
	struct sem S;
	struct pl_tunables legacy;
	struct bucket_rec **recs = NULL;
	int *order = NULL, nb = 0, k = 0, n1 = 0, ret = -1;

	memset(&S, 0, sizeof(S));
	S.p = p;
	S.next_free = -1;
	S.m = pl_map_create();
	if (!S.m) {
		pp_set_nomem(p);
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
		pp_set_nomem(p);
		goto out;
	}
	nb = 0;
	for (int i = 0; i < p->nst; i++) {
		struct bucket_rec *b = p->st[i].bucket;
		int dummy;

		if (p->st[i].kind != ST_BUCKET)
			continue;
		/* recs[] owns the records from here on */
		recs[nb] = b;
		p->st[i].bucket = NULL;
		if (!pp_smap_get(&S.bnames, tokp(p, b->name), b->name.len,
				 &dummy) &&
		    pp_smap_put(&S.bnames, tokp(p, b->name), b->name.len,
				(int)S.bnames.n)) {
			pp_set_nomem(p);
			goto out;
		}
		nb++;
	}
	if (pp_adjust_order(&S, recs, nb, order))
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
			    pp_iset_add(&S.used, (int)-v)) {
				pp_set_nomem(p);
				goto out;
			}
		}
	}

	/* the grammar puts tunables, devices and types first */
	while (n1 < p->nst && p->st[n1].kind != ST_BUCKET &&
	       p->st[n1].kind != ST_RULE && p->st[n1].kind != ST_CHOOSE_ARGS)
		n1++;
	for (int i = 0; i < p->nst; i++) {
		const struct stmt *st = &p->st[i];
		int r = 0;

		if (i == n1 && n1) {
			/* those records are done with: keep the rest only */
			struct stmt *ns;

			p->nst -= n1;
			memmove(p->st, p->st + n1,
				(size_t)p->nst * sizeof(*p->st));
			ns = realloc(p->st, ((size_t)p->nst + 1) *
						    sizeof(*p->st));
			if (ns) {
				p->st = ns;
				p->capst = p->nst + 1;
			}
			n1 = 0;
			i = -1;
			continue;
		}
		if (i % 1024 == 0)
			release_text(p, stmt_start(st, st->kind == ST_BUCKET ?
							recs[order[k]] : NULL));
		switch (st->kind) {
		case ST_TUNABLE:
			r = pp_sem_tunable(&S, st);
			break;
		case ST_DEVICE:
			r = pp_sem_device(&S, st);
			break;
		case ST_TYPE:
			r = pp_sem_type(&S, st);
			break;
		case ST_BUCKET:
			/* a record is built once, then freed: the map grows
			 * while the statements shrink */
			r = pp_sem_bucket(&S, recs[order[k]]);
			pp_bucket_free(recs[order[k]]);
			recs[order[k++]] = NULL;
			break;
		case ST_RULE:
			r = pp_sem_rule(&S, st->rule);
			break;
		case ST_CHOOSE_ARGS:
			r = pp_sem_choose_args(&S, st->cargs);
			break;
		}
		if (r || stopped(p))
			goto out;
	}
	sem_free(&S);
	stmts_free(p);
	release_text(p, p->len);
	pl_map_finalize(S.m);
	*out = S.m;
	S.m = NULL;
	ret = 0;
out:
	pl_map_destroy(S.m);
	sem_free(&S);
	for (int i = 0; i < nb; i++)
		pp_bucket_free(recs[i]);
	free(recs);
	free(order);
	return ret;
}

static int parse_text(const char *text, size_t len, const char *filename,
		      int mapped, pl_map **out, char *err, size_t errlen)
{
	struct parser p;
	int ret;

	if (text && pl_is_binary(text, len))
		return pl_map_decode(text, len, filename, out, err, errlen);
	*out = NULL;
	if (len >= UINT32_MAX) { /* struct tok holds 32-bit offsets */
		if (err && errlen)
			snprintf(err, errlen, "%s: %zu bytes: a crush map is "
				 "at most 4 GiB",
				 filename ? filename : "<input>", len);
		return -EFBIG;
	}
	memset(&p, 0, sizeof(p));
	p.src = text ? text : "";
	p.len = text ? len : 0;
	p.fname = filename ? filename : "<input>";
	p.err = err;
	p.errlen = errlen;
	p.mapped = mapped;
	p.eof_from = 0;
	pp_fs_reset(&p.fs);
	if (err && errlen)
		err[0] = 0;
	*out = NULL;

	ret = pp_parse_syntax(&p);
	if (!ret && !stopped(&p))
		ret = parse_semantics(&p, out);
	if (stopped(&p) || ret) {
		ret = p.nomem ? -ENOMEM : -EINVAL;
		if (!p.fatal)
			pp_err_at(&p, 0, "invalid crush map");
	}
	stmts_free(&p);
	free(p.scratch);
	return ret;
}

int pl_parse_text(const char *text, size_t len, const char *filename,
		  pl_map **out, char *err, size_t errlen)
{
	return parse_text(text, len, filename, 0, out, err, errlen);
}

/* Whole-file read for what cannot be mapped (pipes, /dev/stdin). */
static int read_all(FILE *f, char **out, size_t *outlen)
{
	char *buf = NULL;
	size_t len = 0, cap = 0;

	for (;;) {
		size_t n;

		if (len == cap) {
			char *nb;

			cap = cap ? cap * 2 : 65536;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				return -ENOMEM;
			}
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n == 0) {
			if (ferror(f)) {
				int e = errno ? errno : EIO;

				free(buf);
				return -e;
			}
			break;
		}
	}
	*out = buf;
	*outlen = len;
	return 0;
}

/*
 * A big regular file is mapped, not read: the parser's pages come in as
 * it reaches them, so a syntax error near the top of a 100 MB map is found
 * without reading the rest, and the text of a big map costs clean page
 * cache the kernel can drop rather than a heap copy (crushtool reads the
 * whole file into a string first).  Maps of real clusters are kilobytes:
 * below MAP_FROM they are read, so only a huge file truncated while it is
 * being parsed could fault.  The statements keep 8-byte offsets into the
 * text, hence the 4 GiB limit.
 */
#define MAP_FROM (16u << 20)
int pl_parse_file(const char *path, pl_map **out, char *err, size_t errlen)
{
	FILE *f;
	struct stat st;
	char *buf = NULL;
	size_t len = 0;
	int ret, e;

	*out = NULL;
	f = fopen(path, "rb");
	if (!f)
		goto ioerr;
	if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) &&
	    st.st_size >= (off_t)MAP_FROM) {
		void *map;

		if ((uint64_t)st.st_size >= UINT32_MAX) {
			fclose(f);
			if (err && errlen)
				snprintf(err, errlen, "%s: %lld bytes: a crush "
					 "map is at most 4 GiB", path,
					 (long long)st.st_size);
			return -EFBIG;
		}
		map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE,
			   fileno(f), 0);
		if (map != MAP_FAILED) {
			fclose(f);
			(void)madvise(map, (size_t)st.st_size,
				      MADV_SEQUENTIAL);
			ret = parse_text(map, (size_t)st.st_size, path, 1, out,
					 err, errlen);
			munmap(map, (size_t)st.st_size);
			return ret;
		}
	}
	ret = read_all(f, &buf, &len);
	fclose(f);
	if (ret) {
		errno = -ret;
		goto ioerr;
	}
	ret = pl_parse_text(buf, len, path, out, err, errlen);
	free(buf);
	return ret;
ioerr:
	e = errno ? errno : EIO;
	if (err && errlen)
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(e));
	return -e;
}
