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

#include "parse_i.h"

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
		recs[nb] = b;
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

	for (int i = 0; i < p->nst; i++) {
		const struct stmt *st = &p->st[i];
		int r = 0;

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
			r = pp_sem_bucket(&S, recs[order[k++]]);
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
	pp_iset_free(&S.used);
	free(S.pend);
	free(recs);
	free(order);
	return ret;
}

int pl_parse_text(const char *text, size_t len, const char *filename,
		  pl_map **out, char *err, size_t errlen)
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
	for (int i = 0; i < p.nst; i++) {
		if (p.st[i].kind == ST_BUCKET)
			pp_bucket_free(p.st[i].bucket);
		else if (p.st[i].kind == ST_RULE)
			pp_rule_free(p.st[i].rule);
		else if (p.st[i].kind == ST_CHOOSE_ARGS)
			pp_cargs_free(p.st[i].cargs);
	}
	free(p.st);
	free(p.scratch);
	return ret;
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
			ret = pl_parse_text(map, (size_t)st.st_size, path, out,
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
