/*
 * parse_lex.c - the lexical level of crushtool's grammar: Spirit's space_p
 * skipper plus '#' comments, keywords matched as plain prefixes, names,
 * integers and Spirit classic's real_p.
 */
#include <string.h>

#include "parse_i.h"

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
	       c == '\f';
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

size_t pp_skip(struct parser *p, size_t i)
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
				pp_err_at(p, i, "NUL byte in map text (binary "
					  "crush maps are not supported)");
			break;
		}
	}
	if (i >= p->len)
		p->eof_from = start;
	return i;
}

/* A keyword or punctuation, matched as a plain prefix as Spirit does. */
int pp_lit(struct parser *p, const char *s, struct tok *t)
{
	size_t at = pp_skip(p, p->pos), n = strlen(s);

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
	pp_expect(p, at, s, 1);
	return 0;
}

int pp_name(struct parser *p, struct tok *t, const char *desc)
{
	size_t at = pp_skip(p, p->pos), e = at;

	if (stopped(p))
		return 0;
	while (e < p->len && is_name_char(p->src[e]))
		e++;
	if (e == at) {
		pp_expect(p, at, desc, 0);
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
	size_t at = pp_skip(p, p->pos), e = at;
	int minus = e < p->len && p->src[e] == '-';

	if (stopped(p))
		return 0;
	if (sign && minus)
		e++;
	if ((sign == 2 && !minus) || e >= p->len || !is_digit(p->src[e])) {
		pp_expect(p, at, desc, 0);
		return 0;
	}
	while (e < p->len && is_digit(p->src[e]))
		e++;
	t->off = at;
	t->len = e - at;
	p->pos = e;
	return 1;
}

int pp_uint(struct parser *p, struct tok *t)
{
	return m_num(p, t, 0, "a non-negative integer");
}

int pp_negint(struct parser *p, struct tok *t)
{
	return m_num(p, t, 2, "a negative integer");
}

int pp_int(struct parser *p, struct tok *t)
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
int pp_real(struct parser *p, struct tok *t)
{
	size_t at = pp_skip(p, p->pos), i = at;
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
	pp_expect(p, at, "a number", 0);
	return 0;
}
