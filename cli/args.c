/*
 * args.c - strict number parsing, option matching and error lines for the
 * crushfs command (see cli.h for the conventions).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cli_err(const struct cli_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout); /* keep stdout/stderr order for a terminal */
	if (ctx && ctx->cmd)
		fprintf(stderr, "crushfs: %s: ", ctx->cmd);
	else
		fputs("crushfs: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 1;
}

void cli_usage_line(FILE *f, const struct cli_command *c)
{
	fprintf(f, "usage: crushfs [--cluster DIR] %s%s%s\n", c->name,
		c->args && *c->args ? " " : "", c->args ? c->args : "");
}

void cli_help(FILE *f, const struct cli_command *c)
{
	cli_usage_line(f, c);
	if (c->help && *c->help)
		fprintf(f, "%s\n", c->help);
}

/* ---- numbers ---- */

int cli_match_words(const char *name, int argc, char **argv)
{
	int n = 0;
	const char *p = name;

	while (*p) {
		size_t len = strcspn(p, " ");

		if (n >= argc || strlen(argv[n]) != len ||
		    strncmp(argv[n], p, len) != 0)
			return 0;
		n++;
		p += len;
		while (*p == ' ')
			p++;
	}
	return n;
}

int cli_parse_i64(const struct cli_ctx *ctx, const char *opt, const char *s,
		  int64_t min, int64_t max, int64_t *out)
{
	const char *p = s;
	char *end;
	long long v;

	if (*p == '-')
		p++;
	if (*p < '0' || *p > '9')
		return cli_err(ctx, "%s: '%s' is not a number", opt, s);
	for (; *p; p++)
		if (*p < '0' || *p > '9')
			return cli_err(ctx, "%s: '%s' is not a number", opt,
				       s);
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno == ERANGE || v < min || v > max)
		return cli_err(ctx,
			       "%s: '%s' is out of range (%" PRId64 "..%" PRId64
			       ")",
			       opt, s, min, max);
	*out = v;
	return 0;
}

int cli_parse_int(const struct cli_ctx *ctx, const char *opt, const char *s,
		  int min, int max, int *out)
{
	int64_t v = 0;

	if (cli_parse_i64(ctx, opt, s, min, max, &v))
		return 1;
	*out = (int)v;
	return 0;
}

/* ---- options ---- */

/* Compare an option name, '_' == '-' after the leading "--".  Returns the
 * length of arg matched (name's length) or 0; the match must end at the end
 * of arg or at '='. */
static size_t opt_match(const char *arg, const char *name)
{
	size_t i;

	if (name[0] != '-' || name[1] != '-') {
		/* short option: exact */
		size_t n = strlen(name);

		return strncmp(arg, name, n) == 0 &&
				       (arg[n] == '\0' || arg[n] == '=') ?
			       n :
			       0;
	}
	if (arg[0] != '-' || arg[1] != '-')
		return 0;
	for (i = 2; name[i]; i++) {
		char a = arg[i] == '_' ? '-' : arg[i];
		char b = name[i] == '_' ? '-' : name[i];

		if (a != b)
			return 0;
	}
	return (arg[i] == '\0' || arg[i] == '=') ? i : 0;
}

int cli_flag(const char *arg, const char *name)
{
	size_t n = opt_match(arg, name);

	return n && arg[n] == '\0';
}

int cli_opt(const struct cli_ctx *ctx, int argc, char **argv, int *i,
	    const char *name, const char **val)
{
	const char *arg = argv[*i];
	size_t n = opt_match(arg, name);

	if (!n)
		return 0;
	if (arg[n] == '=') {
		*val = arg + n + 1;
		return 1;
	}
	/* "--num-rep --show-mappings": the value is missing, not "--show-
	 * mappings" (a negative number has one dash; --opt=--x still works). */
	if (*i + 1 >= argc ||
	    (argv[*i + 1][0] == '-' && argv[*i + 1][1] == '-')) {
		cli_err(ctx, "%s: missing value", name);
		return -1;
	}
	*val = argv[++*i];
	return 1;
}

int cli_set_format(struct cli_ctx *ctx, const char *v)
{
	ctx->pretty = strcmp(v, "json-pretty") == 0;
	if (strcmp(v, "json") == 0 || ctx->pretty)
		ctx->format = CLI_FMT_JSON;
	else if (strcmp(v, "plain") == 0)
		ctx->format = CLI_FMT_PLAIN;
	else
		return cli_err(ctx,
			       "-f: unknown format '%s' (plain, json or "
			       "json-pretty)",
			       v);
	ctx->format_given = 1;
	return 0;
}

int cli_check_format(const struct cli_ctx *ctx)
{
	if (ctx->format == CLI_FMT_JSON && ctx->entry &&
	    !(ctx->entry->flags & CLI_JSON))
		return cli_err(ctx, "-f json is not supported: the output "
				    "is the text of the Ceph tool it mirrors");
	return 0;
}

int cli_common_opt(struct cli_ctx *ctx, int argc, char **argv, int *i)
{
	const char *arg = argv[*i];
	const char *v;
	int r;

	if (cli_flag(arg, "-h") || cli_flag(arg, "--help")) {
		cli_usage_line(stdout, ctx->entry);
		if (ctx->entry->help)
			printf("%s\n", ctx->entry->help);
		return 2;
	}
	if ((r = cli_opt(ctx, argc, argv, i, "-f", &v)) ||
	    (r = cli_opt(ctx, argc, argv, i, "--format", &v))) {
		if (r < 0)
			return -1;
		return cli_set_format(ctx, v) || cli_check_format(ctx) ? -1 : 1;
	}
	if ((r = cli_opt(ctx, argc, argv, i, "--cluster", &v))) {
		if (r < 0)
			return -1;
		ctx->cluster = v;
		return 1;
	}
	if (arg[0] == '-' && arg[1] != '\0') {
		cli_err(ctx, "unknown option '%s' (see crushfs %s --help)", arg,
			ctx->entry->name);
		return -1;
	}
	return 0;
}

/* ---- output ---- */

void cli_put_double(FILE *f, double v)
{
	if (isnan(v))
		fputs("-nan", f);
	else
		fprintf(f, "%g", v);
}

void cli_put_int_vec(FILE *f, const int *v, int n)
{
	fputc('[', f);
	for (int i = 0; i < n; i++)
		fprintf(f, i ? ",%d" : "%d", v[i]);
	fputc(']', f);
}
