/*
 * cli.h - shared pieces of the crushfs command: the invocation context,
 * the subcommand table entry, strict number parsing and option matching.
 *
 * Conventions (STYLE.md 16, DESIGN.md "Errors"):
 *  - only cli/ writes to stdout/stderr;
 *  - every error is one line on stderr, "crushfs: CMD: what was wrong";
 *  - a command returns its exit status: 0 ok, 1 usage or runtime error
 *    (crushtool/osdmaptool use EXIT_FAILURE for both, and the commands that
 *    mirror them must exit as they do).
 */
#ifndef CRUSHFS_CLI_H
#define CRUSHFS_CLI_H

#include <stdint.h>
#include <stdio.h>

enum cli_format { CLI_FMT_PLAIN = 0, CLI_FMT_JSON = 1 };

/* What every command gets: the global options, and its own name. */
struct cli_ctx {
	const char *cluster;   /* --cluster, $CRUSHFS_CLUSTER, or ./cluster */
	enum cli_format format; /* -f/--format */
	int format_given;      /* -f was on the command line */
	int pretty;	       /* -f json-pretty: indented JSON */
	const char *cmd;       /* "crush test": prefix of error messages */
	const struct cli_command *entry;
};

/* Command flags. */
#define CLI_JSON 0x1 /* the command can print -f json */
/* the command answers -h/--help itself (it explains its options); main.c
 * answers for the others with cli_help() */
#define CLI_OWNHELP 0x2
/* internal (`__complete`): runs, but no list or document shows it */
#define CLI_HIDDEN 0x4

/*
 * One row of the dispatch table in main.c.  name is one or more words
 * ("crush test"); the longest name matching the leading words of the
 * command line wins.  fn gets the arguments after the name.
 */
struct cli_command {
	const char *name;
	int (*fn)(struct cli_ctx *ctx, int argc, char **argv);
	const char *args;  /* synopsis after the name, for usage */
	const char *help;  /* one line */
	unsigned flags;
};

/* Handlers (one cmd_*.c file per command family). */
int cmd_crush_test(struct cli_ctx *ctx, int argc, char **argv);
int cmd_crush_compare(struct cli_ctx *ctx, int argc, char **argv);
int cmd_crush_compile(struct cli_ctx *ctx, int argc, char **argv);
int cmd_crush_decompile(struct cli_ctx *ctx, int argc, char **argv);
int cmd_osdmap_test_map_object(struct cli_ctx *ctx, int argc, char **argv);
int cmd_osdmap_test_map_pgs_dump(struct cli_ctx *ctx, int argc, char **argv);
int cmd_osdmap_upmap(struct cli_ctx *ctx, int argc, char **argv);
int cmd_osdmap_eval(struct cli_ctx *ctx, int argc, char **argv);
int cmd_dashboard(struct cli_ctx *ctx, int argc, char **argv);
int cmd_log_last(struct cli_ctx *ctx, int argc, char **argv);
/* `crushfs -w`: the status, then the cluster log as it grows */
int cmd_watch(struct cli_ctx *ctx, int argc, char **argv);

/* ---- messages (args.c) ---- */
/* "crushfs: CMD: msg\n" on stderr.  Returns 1 (the usage exit status). */
int cli_err(const struct cli_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Prints the command's synopsis ("usage: crushfs NAME ARGS") to f. */
void cli_usage_line(FILE *f, const struct cli_command *c);
/* --help: the synopsis, then the one-line description. */
void cli_help(FILE *f, const struct cli_command *c);

/* ---- strict numbers (args.c) ----
 * Decimal only: an optional '-', then digits, nothing else (no spaces, no
 * '+', no hex), within [min, max].  On failure print one line naming the
 * option and the value, e.g.
 *   crushfs: crush test: --num-rep: 'abc' is not a number
 * and return 1; return 0 on success. */
int cli_parse_i64(const struct cli_ctx *ctx, const char *opt, const char *s,
		  int64_t min, int64_t max, int64_t *out);
int cli_parse_int(const struct cli_ctx *ctx, const char *opt, const char *s,
		  int min, int max, int *out);
/* ---- options (args.c) ----
 * Long options match "--name", "--name=value" and, like Ceph's argument
 * parser, with '_' and '-' interchangeable after the leading dashes
 * (--num_rep == --num-rep).  Short options ("-i") match only exactly.
 */
/* Number of leading words of argv that spell a command name ("crush
 * test" = 2), or 0 if they do not. */
int cli_match_words(const char *name, int argc, char **argv);
/* Is argv[*i] the flag name (no value)? */
int cli_flag(const char *arg, const char *name);
/*
 * Is argv[*i] option name taking one value?  Returns 0 if not; 1 and the
 * value in *val (advancing *i past a separate value) if so; -1 after
 * printing "NAME: missing value" if the value is absent.
 */
int cli_opt(const struct cli_ctx *ctx, int argc, char **argv, int *i,
	    const char *name, const char **val);
/* The common tail of an option loop: "-h/--help" prints the command's
 * usage (returns 2: exit 0), "-f/--format" and "--cluster" after the
 * command are accepted as global options (returns 1), an unknown option or
 * stray argument is an error (returns -1 after printing).  0: not handled
 * (never returned for arguments starting with '-'). */
int cli_common_opt(struct cli_ctx *ctx, int argc, char **argv, int *i);
/* Sets ctx->format from "json"/"plain"; 1 after an error line. */
int cli_set_format(struct cli_ctx *ctx, const char *v);
/* Refuse -f json for a command without CLI_JSON (1 after an error line). */
int cli_check_format(const struct cli_ctx *ctx);

/* ---- "did you mean" (suggest.c) ----
 * The name among names[] that the leading words of argv most likely
 * misspell (1 or 2 edits, transpositions counting one), or NULL. */
const char *cli_suggest(const char *const *names, int nnames, int argc,
			char **argv);

/* ---- generated docs (docgen.c), from the dispatch table ---- */
void cli_print_man(FILE *f, const struct cli_command *c, size_t n,
		   const char *version);
void cli_print_completion(FILE *f, const struct cli_command *c, size_t n);

/* ---- output helpers ---- */
/* C++ ostream's default formatting of a double (precision 6, like %g),
 * with NaN printed "-nan" as x86 Ceph prints its 0.0/0 results. */
void cli_put_double(FILE *f, double v);
/* Ceph's operator<<(vector<int>): "[a,b,c]". */
void cli_put_int_vec(FILE *f, const int *v, int n);

#endif
