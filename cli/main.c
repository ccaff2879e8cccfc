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
 * Adding a command: write cmd_NAME.c with an `int cmd_x(struct cli_ctx *,
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
	{ "dashboard", cmd_dashboard,
	  "[--listen ADDR:PORT] [--password-file FILE] [--user NAME]",
	  "serve the report live over HTTP (read-only; 127.0.0.1:7480, "
	  "another address only with a password)", 0 },
	{ "mount", cmd_mount, "MNT [-f] [-d] [-o OPTS]",
	  "mount the filesystem (daemonizes unless -f)", 0 },
	{ "umount", cmd_umount, "[--timeout S] MNT",
	  "unmount a crushfs mount and wait for its daemon to exit", 0 },
	{ "locate", cmd_locate, "PATH",
	  "every object of a file: PG, up/acting OSDs, paths on disk",
	  CLI_JSON },
	{ "report", cmd_report, "[-o FILE.html] [--osd N]",
	  "the spread as one self-contained HTML page", 0 },
	{ "ls-by-osd", cmd_ls_by_osd, "OSD [PATH]",
	  "the files with an object copy on the OSD (what dies with it)",
	  CLI_JSON },
	{ "fsck", cmd_fsck, "[--dry-run] [--deep] | --rebuild-metadata [--force]",
	  "check and repair the filesystem of an unmounted cluster; rebuild "
	  "its metadata from the objects", 0 },
	{ "mkfs", cmd_mkfs, "[--osds N] [--hosts H] [--osd-size SIZE] [--pg-num N] [--pgp-num N] [--size R] [--min-size R] [--object-size SIZE] [--stripe-unit SIZE] [--stripe-count N] [--crush-map FILE] [--crush-rule N] [--full-policy osd|pool] [--pool-name NAME] [--force] | --backend rados --pool NAME [--ceph-conf FILE] [--id CLIENT] [--object-size SIZE] [--stripe-unit SIZE] [--stripe-count N] [--force] | --from-ceph SNAPDIR [--data-pool NAME] [--prefill] [--osd-size SIZE] [--object-size SIZE] [--stripe-unit SIZE] [--stripe-count N] [--full-policy osd|pool] [--force]", "create a cluster; on a live Ceph cluster's pool (--backend rados: file data in RADOS, placement followed live); or import a live Ceph cluster's osdmap from SNAPDIR (osd_dump.json, crushmap.bin, osd_df.json, df.json); refuses to replace a cluster without --force", CLI_JSON },
	{ "import-ceph", cmd_import_ceph, "--live [--conf FILE] [--id NAME] [--save SNAPDIR] [--data-pool NAME] [--prefill] [--osd-size SIZE] [--object-size SIZE] [--stripe-unit SIZE] [--stripe-count N] [--full-policy osd|pool] [--force]", "create the cluster from a live Ceph cluster's osdmap, read through librados (read-only commands), as mkfs --from-ceph", CLI_JSON },
	{ "status", cmd_cluster, "", "cluster summary and health, as `ceph status`", CLI_JSON },
	{ "health", cmd_cluster, "[detail]", "health and its reasons, as `ceph health [detail]`", CLI_JSON },
	{ "df", cmd_cluster, "", "raw and pool space with MAX AVAIL, as `ceph df`", CLI_JSON },
	{ "osd df", cmd_cluster, "[tree]", "per-OSD usage, as `ceph osd df [tree]`, with objects and a usage bar", CLI_JSON },
	{ "osd tree", cmd_cluster, "", "the crush tree with OSD states, as `ceph osd tree`", CLI_JSON },
	{ "pg dump", cmd_cluster, "", "every PG: objects, bytes, state, up and acting sets", CLI_JSON },
	{ "pg ls", cmd_cluster, "[STATE...]", "the PGs, or those in one of the states, as `ceph pg ls`", CLI_JSON },
	{ "pg ls-by-osd", cmd_cluster, "OSD [STATE...]", "the PGs with the OSD in their up or acting set", CLI_JSON },
	{ "pg ls-by-primary", cmd_cluster, "OSD [STATE...]", "the PGs whose acting primary is the OSD", CLI_JSON },
	{ "pg ls-by-pool", cmd_cluster, "POOL [STATE...]", "the PGs of a pool", CLI_JSON },
	{ "osd ls", cmd_cluster, "", "the ids of the OSDs, as `ceph osd ls`", CLI_JSON },
	{ "osd find", cmd_cluster, "ID", "where an OSD is: host, crush location, folder (JSON)", CLI_JSON },
	{ "pg scrub", cmd_cluster, "PGID", "check every copy of a PG's objects: presence, version, size", CLI_JSON },
	{ "pg deep-scrub", cmd_cluster, "PGID", "scrub, and check every block against its checksum", CLI_JSON },
	{ "pg repair", cmd_cluster, "PGID", "deep-scrub, and rebuild bad copies from the authoritative one", CLI_JSON },
	{ "scrub", cmd_cluster, "[--deep] [--repair]", "scrub every PG, with progress", CLI_JSON },
	{ "osd map", cmd_cluster, "[POOL] OBJECT", "where an object goes, as `ceph osd map`", CLI_JSON },
	{ "osd out", cmd_cluster, "ID", "mark an OSD out", CLI_JSON },
	{ "osd in", cmd_cluster, "ID", "mark an OSD in", CLI_JSON },
	{ "osd down", cmd_cluster, "ID", "mark an OSD down", CLI_JSON },
	{ "osd up", cmd_cluster, "ID", "mark an OSD up", CLI_JSON },
	{ "osd reweight", cmd_cluster, "ID WEIGHT", "set an OSD's reweight (0..1)", CLI_JSON },
	{ "osd crush reweight", cmd_cluster, "ID WEIGHT", "set an OSD's crush weight", CLI_JSON },
	{ "osd primary-affinity", cmd_cluster, "ID WEIGHT", "set an OSD's primary affinity (0..1)", CLI_JSON },
	{ "osd dump", cmd_cluster, "", "the osdmap, as `ceph osd dump`", CLI_JSON },
	/* the flags part of issue 22 (cli/cmd_flags.c) */
	{ "osd set", cmd_cluster, "FLAG", "set an osdmap flag (noout, noin, noup, nodown, norebalance, nobackfill, norecover, noscrub, nodeep-scrub, pause), as `ceph osd set`", CLI_JSON },
	{ "osd unset", cmd_cluster, "FLAG", "clear an osdmap flag, as `ceph osd unset`", CLI_JSON },
	{ "health mute", cmd_cluster, "CODE [TTL] [--sticky]", "mute a health check, as `ceph health mute` (TTL: 30s, 10m, 2h...)", CLI_JSON },
	{ "health unmute", cmd_cluster, "[CODE]", "end a mute, or all of them", CLI_JSON },
	{ "osd ok-to-stop", cmd_cluster, "ID...", "whether stopping these OSDs leaves every PG active, as `ceph osd ok-to-stop`", CLI_JSON },
	{ "osd safe-to-destroy", cmd_cluster, "ID...", "whether these OSDs hold nothing still needed, as `ceph osd safe-to-destroy`", CLI_JSON },
	{ "osd pool create", cmd_cluster, "NAME [PG_NUM [PGP_NUM]] [replicated [RULE] | erasure [PROFILE [RULE]]]", "a pool beside the filesystem's (placed, holding no data of crushfs's)", CLI_JSON },
	{ "osd pool rm", cmd_cluster, "NAME NAME --yes-i-really-really-mean-it", "remove a pool", CLI_JSON },
	{ "osd pool ls", cmd_cluster, "[detail]", "the pools, as `ceph osd pool ls [detail]`", CLI_JSON },
	{ "osd pool get", cmd_cluster, "POOL KEY|all", "a pool's size, min_size, pg_num, pgp_num or crush_rule", CLI_JSON },
	{ "osd pool set", cmd_cluster, "POOL KEY VALUE", "set a pool's size, min_size, pg_num, pgp_num or crush_rule", CLI_JSON },
	{ "osd pool set-quota", cmd_cluster, "POOL max_bytes|max_objects N", "a pool quota (0: none); past it writes get EDQUOT", CLI_JSON },
	{ "osd pool get-quota", cmd_cluster, "POOL", "a pool's quotas and current use", CLI_JSON },
	{ "osd crush rule ls", cmd_cluster, "", "the crush rules' names", CLI_JSON },
	{ "osd crush rule dump", cmd_cluster, "[NAME]", "the crush rules as JSON, as `ceph osd crush rule dump`", CLI_JSON },
	{ "osd crush rule create-replicated", cmd_cluster, "NAME ROOT TYPE [CLASS]", "add a replicated rule (take ROOT, chooseleaf firstn 0 type TYPE)", CLI_JSON },
	{ "osd crush rule create-erasure", cmd_cluster, "NAME [PROFILE]", "add the rule Ceph makes for an erasure-code profile (indep)", CLI_JSON },
	{ "osd erasure-code-profile set", cmd_cluster, "NAME [KEY=VALUE...] [--force]", "set an erasure-code profile (k, m, plugin, crush-failure-domain...)", CLI_JSON },
	{ "osd erasure-code-profile get", cmd_cluster, "NAME", "an erasure-code profile's keys and values", CLI_JSON },
	{ "osd erasure-code-profile ls", cmd_cluster, "", "the erasure-code profiles", CLI_JSON },
	{ "osd erasure-code-profile rm", cmd_cluster, "NAME", "remove an erasure-code profile", CLI_JSON },
	{ "fs ls", cmd_cluster, "", "the filesystem and its data pools", CLI_JSON },
	{ "fs add_data_pool", cmd_cluster, "FS POOL", "let file layouts use a replicated pool (ceph.dir.layout.pool)", CLI_JSON },
	{ "fs rm_data_pool", cmd_cluster, "FS POOL", "take a data pool back (refused while it holds objects)", CLI_JSON },
	{ "config set", cmd_cluster, "WHO KEY VALUE", "set an option (mon_allow_pool_delete, mon_max_pg_per_osd, target_max_misplaced_ratio, ...)", CLI_JSON },
	{ "config get", cmd_cluster, "WHO KEY", "an option's value", CLI_JSON },
	{ "config rm", cmd_cluster, "WHO KEY", "an option back to its default", CLI_JSON },
	{ "config dump", cmd_cluster, "", "the options set", CLI_JSON },
	{ "analyze", cmd_cluster, "[--pool P]", "data per OSD against the weights; what fills first, and when", CLI_JSON },
	{ "balancer status", cmd_cluster, "", "the balancer module's state, as `ceph balancer status`", CLI_JSON },
	{ "balancer mode", cmd_cluster, "upmap|none", "the balancer's mode (crush-compat is not implemented)", CLI_JSON },
	{ "balancer on", cmd_cluster, "", "let the mounted daemon balance PGs every sleep_interval", CLI_JSON },
	{ "balancer off", cmd_cluster, "", "stop the automatic balancer", CLI_JSON },
	{ "balancer eval", cmd_cluster, "[POOL]", "PGs per OSD against their crush-weight targets (every pool, or one)", CLI_JSON },
	{ "balancer optimize", cmd_cluster, "[--max N] [--deviation D] [--pool P] [--apply]", "the upmap balancer's plan (Ceph's calc_pg_upmaps, pool by pool); --apply sets it", CLI_JSON },
	{ "osd test-reweight-by-utilization", cmd_cluster, "[OVERLOAD [MAX_CHANGE [MAX_OSDS]]] [--no-increasing]", "what reweight-by-utilization would do (Ceph's formula)", CLI_JSON },
	{ "osd reweight-by-utilization", cmd_cluster, "[OVERLOAD [MAX_CHANGE [MAX_OSDS]]] [--no-increasing]", "lower the reweight of the fullest OSDs", CLI_JSON },
	{ "osd test-reweight-by-pg", cmd_cluster, "[OVERLOAD [MAX_CHANGE [MAX_OSDS]]] [--no-increasing]", "what reweight-by-pg would do (PGs per crush weight)", CLI_JSON },
	{ "osd reweight-by-pg", cmd_cluster, "[OVERLOAD [MAX_CHANGE [MAX_OSDS]]] [--no-increasing]", "reweight the OSDs with the most PGs per crush weight", CLI_JSON },
	{ "osd setcrushmap", cmd_cluster, "-i FILE", "install a crush map (text or binary), as `ceph osd setcrushmap -i`", CLI_JSON },
	{ "osd pg-upmap", cmd_cluster, "PGID OSD...", "map a PG to these OSDs, as `ceph osd pg-upmap`", CLI_JSON },
	{ "osd pg-upmap-items", cmd_cluster, "PGID FROM TO [FROM TO...]", "replace OSDs in a PG's set, as `ceph osd pg-upmap-items`", CLI_JSON },
	{ "osd rm-pg-upmap", cmd_cluster, "PGID", "drop a PG's pg-upmap entry", CLI_JSON },
	{ "osd rm-pg-upmap-items", cmd_cluster, "PGID", "drop a PG's pg-upmap-items entry", CLI_JSON },
	{ "osd set-capacity", cmd_cluster, "ID SIZE", "set an OSD's (virtual) capacity", CLI_JSON },
	{ "osd add", cmd_cluster, "--host HOST [--size SIZE]", "add an OSD under a host bucket", CLI_JSON },
	{ "set-full-ratio", cmd_cluster, "RATIO", "set the full ratio", CLI_JSON },
	{ "osd set-full-ratio", cmd_cluster, "RATIO", "set the full ratio (Ceph's spelling)", CLI_JSON },
	{ "osd set-backfillfull-ratio", cmd_cluster, "RATIO", "set the backfillfull ratio (Ceph's spelling)", CLI_JSON },
	{ "osd set-nearfull-ratio", cmd_cluster, "RATIO", "set the nearfull ratio (Ceph's spelling)", CLI_JSON },
	{ "set-backfillfull-ratio", cmd_cluster, "RATIO", "set the backfillfull ratio", CLI_JSON },
	{ "set-nearfull-ratio", cmd_cluster, "RATIO", "set the nearfull ratio", CLI_JSON },
	{ "set-full-policy", cmd_cluster, "osd|pool", "what a full OSD refuses: its PGs' writes, or the pool's", CLI_JSON },
	{ "rebalance", cmd_cluster, "", "move objects to where the map puts them now", CLI_JSON },
	{ "check", cmd_cluster, "[--deep]", "prove the OSD usage accounting equals the disk", CLI_JSON },
	{ "rados put", cmd_cluster, "NAME FILE|-", "store a file as an object", CLI_JSON },
	{ "rados get", cmd_cluster, "NAME FILE|-", "fetch an object into a file", 0 },
	{ "rados stat", cmd_cluster, "NAME", "an object's size and mtime", CLI_JSON },
	{ "rados rm", cmd_cluster, "NAME", "remove an object", 0 },
	{ "rados ls", cmd_cluster, "", "list the pool's objects", CLI_JSON },
	{ "rados bench", cmd_cluster, "write|read [--total SIZE] [--object-size SIZE] [--threads N] [--prefix NAME] [--no-cleanup] [--no-sync]", "write or read objects in one process, report the bandwidth", CLI_JSON },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

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
	      "  -h, --help      this help; `crushfs COMMAND --help` for one "
	      "command, `crushfs GROUP --help` for a group (osd, pg, ...)\n"
	      "  --version       the version of crushfs\n"
	      "  --man, --bash-completion  the man page (roff), the bash "
	      "completion script\n"
	      "\n"
	      "commands:\n",
	      f);
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-26s %s\n", commands[i].name, commands[i].help);
}

static void version(void)
{
	printf("crushfs version %s%s%s%s (placement of Ceph 16.2.15)\n",
	       CRUSHFS_VERSION, *CRUSHFS_GIT ? " (" : "", CRUSHFS_GIT,
	       *CRUSHFS_GIT ? ")" : "");
}

/* The commands of a group ("osd"), one per line. */
static void list_group(FILE *f, const char *group)
{
	size_t len = strlen(group);

	fprintf(f, "'%s' commands:\n", group);
	for (size_t c = 0; c < NCOMMANDS; c++)
		if (strncmp(commands[c].name, group, len) == 0 &&
		    commands[c].name[len] == ' ')
			fprintf(f, "  crushfs %s %s\n    %s\n",
				commands[c].name, commands[c].args,
				commands[c].help);
}

/* "unknown command": one line, with the likely intended one if any
 * (then returns 2, else 1). */
static int unknown(int argc, char **argv, int words)
{
	const char *names[NCOMMANDS];
	const char *s;

	for (size_t c = 0; c < NCOMMANDS; c++)
		names[c] = commands[c].name;
	s = cli_suggest(names, (int)NCOMMANDS, argc, argv);
	if (words == 2)
		fprintf(stderr, "crushfs: unknown command '%s %s'", argv[0],
			argv[1]);
	else
		fprintf(stderr, "crushfs: unknown command '%s'", argv[0]);
	if (s)
		fprintf(stderr, "; did you mean '%s'?\n", s);
	else
		fputs(" (see crushfs --help)\n", stderr);
	return s ? 2 : 1;
}

/* Is argv[0] the first word of some command (so "crush" alone can list the
 * commands it starts)? */
static int is_prefix_word(const char *w)
{
	size_t len = strlen(w);

	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strncmp(commands[i].name, w, len) == 0 &&
		    commands[i].name[len] == ' ')
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
	int s_flag = 0;
	static char status_word[] = "status";
	char *status_argv[] = { status_word, NULL };

	hold_std_fds();
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
			cli_print_man(stdout, commands, NCOMMANDS,
				      CRUSHFS_VERSION);
			return 0;
		}
		if (cli_flag(argv[i], "--bash-completion")) {
			cli_print_completion(stdout, commands, NCOMMANDS);
			return 0;
		}
		if (strcmp(argv[i], "-s") == 0) {
			s_flag = 1;
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
	for (size_t c = 0; c < NCOMMANDS; c++) {
		int n = cli_match_words(commands[c].name, argc - i, argv + i);

		if (n > best_n) {
			best_n = n;
			best = &commands[c];
		}
	}
	if (!best) {
		if (is_prefix_word(argv[i])) {
			if (i + 1 < argc && (cli_flag(argv[i + 1], "-h") ||
					     cli_flag(argv[i + 1], "--help"))) {
				list_group(stdout, argv[i]);
				return 0;
			}
			if (i + 1 < argc) {
				if (unknown(argc - i, argv + i, 2) == 2)
					return 1;
			} else {
				cli_err(NULL, "%s: missing subcommand", argv[i]);
			}
			list_group(stderr, argv[i]);
			return 1;
		}
		unknown(argc - i, argv + i, 1);
		return 1;
	}

	ctx.cmd = best->name;
	ctx.entry = best;
	if (cli_check_format(&ctx))
		return 1;
	return best->fn(&ctx, argc - i - best_n, argv + i + best_n);
}
