/*
 * parse_error.c - the parser's one error line, "FILE:LINE:COL: error: what",
 * and the farthest-failure bookkeeping that says what the grammar expected
 * where it got furthest.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "parse_i.h"

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

void pp_err_at(struct parser *p, size_t off, const char *fmt, ...)
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

void pp_set_nomem(struct parser *p)
{
	p->nomem = 1;
	if (!p->fatal && p->err && p->errlen)
		snprintf(p->err, p->errlen, "%s: error: out of memory",
			 p->fname);
	p->fatal = 1;
}

void pp_fs_reset(struct fstate *f)
{
	f->far = NOFAR;
	f->nexp = 0;
	f->custom[0] = 0;
	f->ctx_kind = NULL;
}

void pp_expect(struct parser *p, size_t at, const char *what, int quote)
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
void pp_fs_merge(struct fstate *into, const struct fstate *from)
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

/* Report the recorded farthest failure. */
void pp_report_syntax(struct parser *p, const struct fstate *f)
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
			pp_err_at(p, p->eof_from,
				  "unexpected end of file in %s '%.*s' (%s)",
				  f->ctx_kind, (int)f->ctx.len, tokp(p, f->ctx),
				  what);
		else if (f->ctx_kind)
			pp_err_at(p, p->eof_from,
				  "unexpected end of file in %s (%s)",
				  f->ctx_kind, what);
		else
			pp_err_at(p, p->eof_from, "unexpected end of file (%s)",
				  what);
		return;
	}
	pp_err_at(p, f->far, "%s", what);
}
