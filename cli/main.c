/*
 * main.c - the crushfs command: global options, usage, and the table of
 * subcommands.
 *
 *   crushfs [--cluster DIR] [-f json|plain] COMMAND [ARGS...]
 *
 * --cluster defaults to $CRUSHFS_CLUSTER, else ./cluster (DESIGN.md
 * "External contract").  Global options go before the command; -f/--format
 * and --cluster are also accepted among a command's own options (so
 * `crushfs osd df -f json` works), except where a command gives a letter a
 * meaning of its own (mount's -f).
 *
 * Adding a command: a cluster command (one that opens the cluster, and
 * that a mounted daemon runs for the CLI) is one row of cluster_cmds[] in
 * cmd_cluster.c, and nothing here: main.c lists those rows after its own.
 * Any other command: write cmd_NAME.c with an `int cmd_x(struct cli_ctx *,
 * int argc, char **argv)` handler, declare it in cli.h (or its family's
 * header), add one row below.  The longest row name matching the leading
 * words wins ("osd crush reweight" over a shorter "osd ..."); set CLI_JSON
 * when the command can print -f json, or -f json is refused before it runs.
 * A handler gets ctx->cmd (its row name, the prefix of its error lines),
 * ctx->entry (for cli_usage_line) and the arguments after the name; it
 * returns the exit status.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cluster_cmds.h"
#include "cmd_fs.h"

static const struct cli_command commands[] = {
	{ "crush test", cmd_crush_test,
	  "-i MAP.txt [--rule N] [--num-rep N] [--min-x N] [--max-x N] "
	  "[--x N] [--weight OSD W]... [--pool-id N] [--show-mappings] "
	  "[--show-bad-mappings] [--show-statistics] [--show-utilization] "
	  "[--show-utilization-all] [--show-choose-tries]",
	  "map a range of inputs with a crush map, as `crushtool --test`", 0 },
	{ "crush compare", cmd_crush_compare,
	  "-i A.txt --compare B.txt [--rule N] [--num-rep N] [--min-x N] "
	  "[--max-x N] [--x N] [--weight OSD W]... [--show-statistics]",
	  "count the mappings two crush maps disagree on, as "
	  "`crushtool --compare`", 0 },
	{ "crush compile", cmd_crush_compile, "MAP.txt -o MAP.bin",
	  "write the binary crush map, byte-identical to `crushtool -c`", 0 },
	{ "crush decompile", cmd_crush_decompile, "MAP.bin [-o MAP.txt]",
	  "print a (binary or text) crush map as `crushtool -d` does", 0 },
	{ "osdmap test-map-object", cmd_osdmap_test_map_object,
	  "NAME --crush MAP.txt --pool ID --pg-num N [--pgp-num N] [--size R] [--overrides FILE]",
	  "map an object to its PG and OSDs, as `osdmaptool --mark-up-in "
	  "--test-map-object`", 0 },
	{ "osdmap test-map-pgs-dump", cmd_osdmap_test_map_pgs_dump,
	  "--crush MAP.txt --pool ID --pg-num N [--pgp-num N] [--size R] [--overrides FILE]",
	  "map every PG of a pool, as `osdmaptool --mark-up-in "
	  "--test-map-pgs-dump`", 0 },
	{ "osdmap upmap", cmd_osdmap_upmap,
	  "--crush MAP.txt --pool ID --pg-num N [--pgp-num N] [--size R] "
	  "[--overrides FILE] [--upmap-max N] [--upmap-deviation D] "
	  "[--upmap-seed S]",
	  "the upmap balancer's plan, as `osdmaptool --mark-up-in --upmap`",
	  0 },
	{ "osdmap eval", cmd_osdmap_eval,
	  "--crush MAP.txt --pool ID --pg-num N [--pgp-num N] [--size R] "
	  "[--overrides FILE]",
	  "PGs per OSD against their crush-weight target", 0 },
	{ "log last", cmd_log_last, "[N] [debug|info|sec|warn|error] [*|cluster|audit]",
	  "the last N (20) cluster log entries, as `ceph log last`", CLI_JSON },
	{ "dashboard", cmd_dashboard,
	  "[--listen ADDR:PORT] [--password-file FILE] [--user NAME]",
	  "serve the report live over HTTP (read-only; 127.0.0.1:7480, "
	  "another address only with a password)", 0 },
	/* -o FILE is its standard output, then it runs as a cluster command */
	{ "osd getcrushmap", cmd_osd_getcrushmap, "[-o FILE]",
	  "the binary crush map (`crushtool -d` reads it); its version on "
	  "stderr, as `ceph osd getcrushmap -o FILE`", 0 },
	{ "mount", cmd_mount, "MNT [-f] [-d] [-o OPTS]",
	  "mount the filesystem (daemonizes unless -f)", CLI_OWNHELP },
	{ "umount", cmd_umount, "[--timeout S] MNT",
	  "unmount a crushfs mount and wait for its daemon to exit",
	  CLI_OWNHELP },
	{ "locate", cmd_locate, "PATH",
	  "every object of a file: PG, up/acting OSDs, paths on disk",
	  CLI_JSON },
	{ "report", cmd_report, "[-o FILE.html] [--osd N | --what-if 'CMD' "
	  "[--recovery-rate SIZE] [--max-backfills N]]",
	  "the cluster as one self-contained HTML page; --what-if: what a "
	  "placement change would move, and the backfill's time", 0 },
	{ "ls-by-osd", cmd_ls_by_osd, "OSD [PATH]",
	  "the files with an object copy on the OSD (what dies with it)",
	  CLI_JSON },
	{ "fsck", cmd_fsck, "[--dry-run] [--deep] | --rebuild-metadata [--force]",
	  "check and repair the filesystem of an unmounted cluster; rebuild "
	  "its metadata from the objects", 0 },
	{ "mkfs", cmd_mkfs, "[--osds N] [--hosts H] [--osd-size SIZE] [--pg-num N] [--pgp-num N] [--size R] [--min-size R] [--object-size SIZE] [--stripe-unit SIZE] [--stripe-count N] [--crush-map FILE] [--crush-rule N] [--full-policy osd|pool] [--pool-name NAME] [--force] | --backend rados --pool NAME [--ceph-conf FILE] [--id CLIENT] [--object-size SIZE] [--stripe-unit SIZE] [--stripe-count N] [--force] | --from-ceph SNAPDIR [--data-pool NAME] [--prefill] [--osd-size SIZE] [--object-size SIZE] [--stripe-unit SIZE] [--stripe-count N] [--full-policy osd|pool] [--force]", "create a cluster; on a live Ceph cluster's pool (--backend rados: file data in RADOS, placement followed live); or import a live Ceph cluster's osdmap from SNAPDIR (osd_dump.json, crushmap.bin, osd_df.json, df.json); refuses to replace a cluster without --force", CLI_JSON },
	{ "import-ceph", cmd_import_ceph, "--live [--conf FILE] [--id NAME] [--save SNAPDIR] [--data-pool NAME] [--prefill] [--osd-size SIZE] [--object-size SIZE] [--stripe-unit SIZE] [--stripe-count N] [--full-policy osd|pool] [--force]", "create the cluster from a live Ceph cluster's osdmap, read through librados (read-only commands), as mkfs --from-ceph", CLI_JSON },
};

#define NLOCAL (sizeof(commands) / sizeof(commands[0]))

/*
 * The whole table: the rows above, then every cluster command of
 * cmd_cluster.c's cluster_cmds[] (run through cmd_cluster), so a cluster
 * command is written once, there.  A row above wins over a cluster row of
 * the same name.
 */
static struct cli_command *cmds;
static size_t ncmds;

static int build_table(void)
{
	cmds = calloc(NLOCAL + (size_t)cluster_ncmds, sizeof(*cmds));
	if (!cmds)
		return -ENOMEM;
	memcpy(cmds, commands, sizeof(commands));
	ncmds = NLOCAL;
	for (int k = 0; k < cluster_ncmds; k++) {
		const struct cluster_cmd *cc = &cluster_cmds[k];
		size_t c;

		for (c = 0; c < ncmds && strcmp(cmds[c].name, cc->name); c++)
			;
		if (c < ncmds)
			continue;
		cmds[ncmds++] = (struct cli_command){
			cc->name, cmd_cluster, cc->args, cc->help,
			((cc->flags & CCMD_NOJSON) ? 0u : CLI_JSON) |
				((cc->flags & CCMD_HIDDEN) ? CLI_HIDDEN : 0u)
		};
	}
	return 0;
}

static void usage(FILE *f)
{
	fputs("usage: crushfs [--cluster DIR] [-f json|plain] COMMAND "
	      "[ARGS...]\n"
	      "\n"
	      "global options:\n"
	      "  --cluster DIR   the cluster directory (default "
	      "$CRUSHFS_CLUSTER, else ./cluster)\n"
	      "  -f, --format F  output format: plain (default), json or "
	      "json-pretty\n"
	      "  -s              the same as the status command (ceph -s)\n"
	      "  -w, --watch     the status, then the cluster log as it "
	      "grows (ceph -w)\n"
	      "  -h, --help      this help; `crushfs COMMAND --help` for one "
	      "command, `crushfs GROUP --help` for a group (osd, pg, ...)\n"
	      "  --version       the version of crushfs\n"
	      "  --man, --bash-completion  the man page (roff), the bash "
	      "completion script\n"
	      "\n"
	      "commands:\n",
	      f);
	for (size_t i = 0; i < ncmds; i++)
		if (!(cmds[i].flags & CLI_HIDDEN))
			fprintf(f, "  %-26s %s\n", cmds[i].name,
				cmds[i].help);
}

static void version(void)
{
	printf("crushfs version %s%s%s%s (placement of Ceph 16.2.15)\n",
	       CRUSHFS_VERSION, *CRUSHFS_GIT ? " (" : "", CRUSHFS_GIT,
	       *CRUSHFS_GIT ? ")" : "");
}

/* Does command name c start with the words of group g ("osd crush")? */
static int in_group(const char *c, const char *g)
{
	size_t len = strlen(g);

	return !len || (!strncmp(c, g, len) && c[len] == ' ');
}

/* The commands of a group ("osd crush"), one per line. */
static void list_group(FILE *f, const char *group)
{
	fprintf(f, "'%s' commands:\n", group);
	for (size_t c = 0; c < ncmds; c++)
		if (in_group(cmds[c].name, group) &&
		    !(cmds[c].flags & CLI_HIDDEN))
			fprintf(f, "  crushfs %s%s%s\n    %s\n",
				cmds[c].name, *cmds[c].args ? " " : "",
				cmds[c].args, cmds[c].help);
}

/*
 * The longest run of leading words of argv that some command name starts
 * with and goes on after ("osd crush" for `osd crush frobnicate`): the
 * group the first unknown word was typed in.  Its words are joined into
 * group (empty: the top level); returns how many there are.
 */
static int find_group(int argc, char **argv, char *group, size_t len)
{
	int best = 0;

	group[0] = 0;
	for (int n = 1; n <= argc; n++) {
		char g[256] = "";
		size_t o = 0;
		int found = 0;

		for (int w = 0; w < n; w++) {
			int k = snprintf(g + o, sizeof(g) - o, "%s%s",
					 w ? " " : "", argv[w]);

			if (k < 0 || (size_t)k >= sizeof(g) - o)
				return best;
			o += (size_t)k;
		}
		for (size_t c = 0; c < ncmds && !found; c++)
			found = in_group(cmds[c].name, g);
		if (!found)
			break;
		best = n;
		snprintf(group, len, "%s", g);
	}
	return best;
}

/*
 * A word that is no command in its group: one line naming it.  "Did you
 * mean" only for a near spelling of a word that exists at that place
 * (`osd dff` -> `osd df`); a real but absent command (`osd set` when
 * there is none) gets no guess, as git's help.c guesses only close typos.
 */
static int unknown(int argc, char **argv)
{
	char group[256], cand[256];
	const char *words[512];
	int nw = 0, gw = find_group(argc, argv, group, sizeof(group));
	const char *s;

	if (gw >= argc) {
		/* `crushfs osd`: a group without its command */
		fprintf(stderr, "crushfs: %s: missing command (see crushfs %s "
				"--help)\n", group, group);
		return 1;
	}
	/* the distinct words that may follow the group */
	for (size_t c = 0; c < ncmds && nw < 512; c++) {
		const char *w;
		size_t wl;
		int dup = 0;

		if (!in_group(cmds[c].name, group) ||
		    (cmds[c].flags & CLI_HIDDEN))
			continue;
		w = cmds[c].name + (gw ? strlen(group) + 1 : 0);
		wl = strcspn(w, " ");
		for (int k = 0; k < nw && !dup; k++)
			dup = !strncmp(words[k], w, wl) &&
			      strcspn(words[k], " ") == wl;
		if (!dup)
			words[nw++] = w;
	}
	for (int k = 0; k < nw; k++) {
		/* words[k] runs on to the end of its name: cut at a space */
		size_t wl = strcspn(words[k], " ");
		char *copy = malloc(wl + 1);

		if (!copy)
			return 1;
		memcpy(copy, words[k], wl);
		copy[wl] = 0;
		words[k] = copy;
	}
	s = cli_suggest(words, nw, 1, argv + gw);
	if (gw)
		fprintf(stderr, "crushfs: unknown command '%s %s'", group,
			argv[gw]);
	else
		fprintf(stderr, "crushfs: unknown command '%s'", argv[0]);
	if (s) {
		snprintf(cand, sizeof(cand), "%s%s%s", group, gw ? " " : "", s);
		fprintf(stderr, "; did you mean '%s'?\n", cand);
	} else if (gw) {
		fprintf(stderr, " (see crushfs %s --help)\n", group);
	} else {
		fputs(" (see crushfs --help)\n", stderr);
	}
	for (int k = 0; k < nw; k++)
		free((char *)words[k]);
	return 1;
}

/* -h/--help among a command's arguments (before a "--")? */
static int wants_help(int argc, char **argv)
{
	for (int i = 0; i < argc && strcmp(argv[i], "--"); i++)
		if (cli_flag(argv[i], "-h") || cli_flag(argv[i], "--help"))
			return 1;
	return 0;
}

/*
 * A standard descriptor the caller closed (`<&-`) must stay closed for
 * what reads or writes it, and must not be handed out to the next open()
 * or socket(): a `rados put NAME -` would read the cluster's lock file or
 * its own admin socket connection.  Fill the slot with a descriptor on
 * which I/O fails with EBADF, as on a closed one.
 */
static void hold_std_fds(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		int p;

		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		p = open("/", O_PATH | O_CLOEXEC);
		if (p >= 0 && p != fd) {
			dup3(p, fd, O_CLOEXEC);
			close(p);
		}
	}
}

int main(int argc, char **argv)
{
	struct cli_ctx ctx = { 0 };
	const struct cli_command *best = NULL;
	int i = 1, best_n = 0, r;
	const char *v;
	int s_flag = 0, w_flag = 0;
	static char status_word[] = "status";
	char *status_argv[] = { status_word, NULL };

	hold_std_fds();
	if (build_table())
		return cli_err(NULL, "out of memory");
	ctx.cluster = getenv("CRUSHFS_CLUSTER");
	if (!ctx.cluster || !*ctx.cluster)
		ctx.cluster = "./cluster";

	/* Global options, up to the command word. */
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		}
		if (cli_flag(argv[i], "-h") || cli_flag(argv[i], "--help")) {
			usage(stdout);
			return 0;
		}
		if (cli_flag(argv[i], "--version")) {
			version();
			return 0;
		}
		if (cli_flag(argv[i], "--man")) {
			cli_print_man(stdout, cmds, ncmds,
				      CRUSHFS_VERSION);
			return 0;
		}
		if (cli_flag(argv[i], "--bash-completion")) {
			cli_print_completion(stdout, cmds, ncmds);
			return 0;
		}
		if (strcmp(argv[i], "-s") == 0) {
			s_flag = 1;
			continue;
		}
		if (!strcmp(argv[i], "-w") || cli_flag(argv[i], "--watch")) {
			w_flag = 1;
			continue;
		}
		if ((r = cli_opt(&ctx, argc, argv, &i, "--cluster", &v))) {
			if (r < 0)
				return 1;
			ctx.cluster = v;
			continue;
		}
		if ((r = cli_opt(&ctx, argc, argv, &i, "-f", &v)) ||
		    (r = cli_opt(&ctx, argc, argv, &i, "--format", &v))) {
			if (r < 0 || cli_set_format(&ctx, v))
				return 1;
			continue;
		}
		return cli_err(NULL, "unknown option '%s' (see crushfs --help)",
			       argv[i]);
	}
	if (w_flag) {
		ctx.cmd = "-w";
		return cmd_watch(&ctx, argc - i, argv + i);
	}
	if (s_flag) {
		/* `ceph -s`: status, with what follows as its arguments */
		if (i < argc)
			return cli_err(NULL, "-s takes no command ('%s' "
					     "given)", argv[i]);
		argv = status_argv;
		argc = 1;
		i = 0;
	}
	if (i >= argc) {
		usage(stderr);
		return 1;
	}
	if (strcmp(argv[i], "help") == 0) {
		usage(stdout);
		return 0;
	}
	if (strcmp(argv[i], "version") == 0) {
		version();
		return 0;
	}

	/* `rados -p POOL CMD ...`: the pool goes after the subcommand, where
	 * the rados commands take it */
	if (!strcmp(argv[i], "rados") && i + 3 < argc &&
	    (!strcmp(argv[i + 1], "-p") || !strcmp(argv[i + 1], "--pool"))) {
		char *opt = argv[i + 1], *pool = argv[i + 2];

		argv[i + 1] = argv[i + 3];
		argv[i + 2] = opt;
		argv[i + 3] = pool;
	} else if (!strcmp(argv[i], "rados") && i + 2 < argc &&
		   !strncmp(argv[i + 1], "--pool=", 7)) {
		char *opt = argv[i + 1];

		argv[i + 1] = argv[i + 2];
		argv[i + 2] = opt;
	}
	for (size_t c = 0; c < ncmds; c++) {
		int n = cli_match_words(cmds[c].name, argc - i, argv + i);

		if (n > best_n) {
			best_n = n;
			best = &cmds[c];
		}
	}
	if (!best) {
		char group[256];
		int gw = find_group(argc - i, argv + i, group, sizeof(group));

		/* `crushfs osd crush --help`: the group's commands */
		if (gw && i + gw < argc && (cli_flag(argv[i + gw], "-h") ||
					    cli_flag(argv[i + gw], "--help"))) {
			list_group(stdout, group);
			return 0;
		}
		return unknown(argc - i, argv + i);
	}
	ctx.cmd = best->name;
	ctx.entry = best;
	/* every command answers --help the same way: its synopsis and what
	 * it does (those with CLI_OWNHELP explain their options too) */
	if (!(best->flags & CLI_OWNHELP) &&
	    wants_help(argc - i - best_n, argv + i + best_n)) {
		cli_help(stdout, best);
		return 0;
	}
	if (cli_check_format(&ctx))
		return 1;
	return best->fn(&ctx, argc - i - best_n, argv + i + best_n);
}
