/*
 * docgen.c - the man page and the bash completion, written from the same
 * command table as --help, so the three never disagree (build/crushfs.1
 * and build/crushfs.bash are made after each build; CMakeLists.txt).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* roff: a leading '.' or '\'' would be a request; '\\' and '-' escaped */
static void roff(FILE *f, const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", f);
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", f);
		else if (*s == '-')
			fputs("\\-", f);
		else
			fputc(*s, f);
	}
}

void cli_print_man(FILE *f, const struct cli_command *c, size_t n,
		   const char *version)
{
	fprintf(f, ".TH CRUSHFS 1 \"\" \"crushfs %s\" \"User Commands\"\n",
		version);
	fputs(".SH NAME\ncrushfs \\- see and test how a Ceph cluster places "
	      "data: a FUSE filesystem on simulated OSDs\n"
	      ".SH SYNOPSIS\n.B crushfs\n[\\fB\\-\\-cluster\\fR \\fIDIR\\fR] "
	      "[\\fB\\-f\\fR \\fIplain\\fR|\\fIjson\\fR|\\fIjson\\-pretty\\fR] "
	      "\\fICOMMAND\\fR [\\fIARGS\\fR...]\n"
	      ".SH DESCRIPTION\n"
	      "Files are cut into 4 MiB objects named as CephFS names them, "
	      "each object hashes to a placement group, each PG is placed by "
	      "CRUSH, bit for bit as Ceph 16.2 places it, on OSDs that are "
	      "directories of the local disk with a capacity of their own; a "
	      "full OSD makes the writes that need it fail with ENOSPC.\n"
	      ".PP\nWhile a cluster is mounted, cluster commands go to the "
	      "daemon's admin socket (\\fIDIR\\fR/crushfs.asok) and take effect "
	      "at once.\n"
	      ".SH GLOBAL OPTIONS\n"
	      ".TP\n\\fB\\-\\-cluster\\fR \\fIDIR\\fR\nthe cluster directory "
	      "(default $CRUSHFS_CLUSTER, else ./cluster)\n"
	      ".TP\n\\fB\\-f\\fR, \\fB\\-\\-format\\fR \\fIF\\fR\noutput "
	      "format: plain (default), json or json\\-pretty\n"
	      ".TP\n\\fB\\-s\\fR\nthe same as the status command (ceph \\-s)\n"
	      ".TP\n\\fB\\-h\\fR, \\fB\\-\\-help\\fR\nusage; \\fBcrushfs\\fR "
	      "\\fICOMMAND\\fR \\fB\\-\\-help\\fR for one command, "
	      "\\fBcrushfs\\fR \\fIGROUP\\fR \\fB\\-\\-help\\fR for a group\n"
	      ".TP\n\\fB\\-\\-version\\fR\nthe version\n"
	      ".SH COMMANDS\n",
	      f);
	for (size_t i = 0; i < n; i++) {
		if (c[i].flags & CLI_HIDDEN)
			continue;
		fputs(".TP\n\\fB", f);
		roff(f, c[i].name);
		fputs("\\fR", f);
		if (*c[i].args) {
			fputc(' ', f);
			roff(f, c[i].args);
		}
		fputc('\n', f);
		roff(f, c[i].help);
		fputc('\n', f);
	}
	fputs(".SH ENVIRONMENT\n.TP\n.B CRUSHFS_CLUSTER\nthe cluster "
	      "directory when \\fB\\-\\-cluster\\fR is not given\n"
	      ".SH EXIT STATUS\n"
	      ".TP\n0\nsuccess; for checks (fsck, scrub, check, crush "
	      "compare): nothing wrong was found\n"
	      ".TP\n1\nan error (one line on standard error saying what and "
	      "where), a usage error, or a check that found a problem or could "
	      "not check everything\n"
	      ".SH FILES\n"
	      ".TP\n\\fIDIR\\fR/cluster.json\nthe osdmap: pools, OSDs, "
	      "ratios, epoch\n"
	      ".TP\n\\fIDIR\\fR/crushmap.txt\nthe crush map, in crushtool's "
	      "text format\n"
	      ".TP\n\\fIDIR\\fR/osd.N/\none OSD's objects, in PG folders\n"
	      ".TP\n\\fIDIR\\fR/mds/, \\fIDIR\\fR/pglog/\nthe filesystem's "
	      "metadata and the object index (RocksDB)\n"
	      ".SH SEE ALSO\n.BR ceph (8),\n.BR crushtool (8),\n"
	      ".BR osdmaptool (8),\n.BR rados (8)\n",
	      f);
}

/* The distinct words that follow `prefix` (its first words) in names. */
static void next_words(FILE *f, const struct cli_command *c, size_t n,
		       const char *prefix)
{
	size_t pl = strlen(prefix);
	char seen[4096] = " ";

	for (size_t i = 0; i < n; i++) {
		const char *w;
		size_t wl;
		char key[128];

		if ((c[i].flags & CLI_HIDDEN) ||
		    (pl && (strncmp(c[i].name, prefix, pl) ||
			    c[i].name[pl] != ' ')))
			continue;
		w = c[i].name + (pl ? pl + 1 : 0);
		wl = strcspn(w, " ");
		if (wl + 3 > sizeof(key))
			continue;
		snprintf(key, sizeof(key), " %.*s ", (int)wl, w);
		if (strstr(seen, key) ||
		    strlen(seen) + wl + 2 >= sizeof(seen))
			continue;
		strcat(seen, key + 1);
		fprintf(f, "%.*s ", (int)wl, w);
	}
}

/*
 * What completes each positional argument of a command, from its
 * synopsis: "osds" (ID, OSD, FROM, TO), "pools" (POOL, and NAME in `osd pool`
 * commands but create), "pgs" (PGID), "states" (STATE), "nodes" (NODE, ROOT),
 * "profiles" (PROFILE, NAME of `osd erasure-code-profile get|rm`),
 * "rules" (RULE, NAME of `osd crush rule dump`), "f" (a file: FILE, PATH,
 * MNT, *.txt ...), "w:a,b" (literal choices "a|b"), "-" (nothing to
 * offer); "..." after a kind repeats it.  Options and their values are
 * skipped; a lone "|" (another form of the command follows) ends the
 * list, as positions after it are not known.
 */
static void arg_kinds(const struct cli_command *c, char *out, size_t len)
{
	char buf[1024], *save = NULL, *tok;
	int depth = 0, opt_depth = -1, skip_value = 0;
	size_t o = 0;

	out[0] = 0;
	snprintf(buf, sizeof(buf), "%s", c->args ? c->args : "");
	for (tok = strtok_r(buf, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		char w[256], kind[300];
		size_t wl;
		int rep = 0, open = 0, close = 0, in_opt;

		/* another form of the command: positions after it are
		 * not known */
		if (!strcmp(tok, "|"))
			break;
		while (*tok == '[') {
			tok++;
			open++;
		}
		snprintf(w, sizeof(w), "%s", tok);
		wl = strlen(w);
		if (wl > 3 && !strcmp(w + wl - 3, "...")) {
			rep = 1;
			w[wl -= 3] = 0;
		}
		while (wl && w[wl - 1] == ']') {
			w[--wl] = 0;
			close++;
		}
		if (wl > 3 && !strcmp(w + wl - 3, "...")) {
			rep = 1;
			w[wl -= 3] = 0;
		}
		/* an option in brackets takes the rest of its group ("[--
		 * weight OSD W]..."); a bare one its next word ("-i MAP") */
		if (w[0] == '-' && open && opt_depth < 0)
			opt_depth = depth + open - 1;
		in_opt = opt_depth >= 0;
		depth += open - close;
		if (opt_depth >= 0 && depth <= opt_depth)
			opt_depth = -1;
		if (in_opt || w[0] == '-') {
			skip_value = w[0] == '-' && !open;
			continue;
		}
		if (skip_value) {
			skip_value = 0;
			continue;
		}
		if (!wl || !strcmp(w, "|"))
			continue;
		if (!strcmp(w, "ID") || !strcmp(w, "OSD") ||
		    !strcmp(w, "FROM") || !strcmp(w, "TO"))
			snprintf(kind, sizeof(kind), "osds");
		else if (!strcmp(w, "POOL") ||
			 (!strcmp(w, "NAME") &&
			  !strncmp(c->name, "osd pool ", 9) &&
			  strcmp(c->name, "osd pool create")))
			snprintf(kind, sizeof(kind), "pools");
		else if (!strcmp(w, "PGID"))
			snprintf(kind, sizeof(kind), "pgs");
		else if (!strcmp(w, "STATE"))
			snprintf(kind, sizeof(kind), "states");
		else if (!strcmp(w, "NODE") || !strcmp(w, "ROOT"))
			snprintf(kind, sizeof(kind), "nodes");
		else if (!strcmp(w, "PROFILE") ||
			 (!strcmp(w, "NAME") &&
			  (!strcmp(c->name, "osd erasure-code-profile get") ||
			   !strcmp(c->name, "osd erasure-code-profile rm"))))
			snprintf(kind, sizeof(kind), "profiles");
		else if (!strcmp(w, "RULE") ||
			 (!strcmp(w, "NAME") &&
			  !strcmp(c->name, "osd crush rule dump")))
			snprintf(kind, sizeof(kind), "rules");
		else if (!strncmp(w, "FILE", 4) || !strcmp(w, "PATH") ||
			 !strcmp(w, "MNT") || strstr(w, ".txt") ||
			 strstr(w, ".bin") || strstr(w, ".html"))
			snprintf(kind, sizeof(kind), "f");
		else if (w[0] >= 'a' && w[0] <= 'z') {
			/* literal choices; a choice in upper case (KEY|all)
			 * is not offered */
			char *p;

			snprintf(kind, sizeof(kind), "w:%s", w);
			for (p = kind; *p; p++)
				if (*p == '|')
					*p = ',';
		} else
			snprintf(kind, sizeof(kind), "-");
		o += (size_t)snprintf(out + o, o < len ? len - o : 0, "%s%s%s",
				      o ? " " : "", kind, rep ? "..." : "");
	}
}

void cli_print_completion(FILE *f, const struct cli_command *c, size_t n)
{
	/* prefixes: every leading run of words that has words after it */
	fputs("# bash completion for crushfs (generated by crushfs "
	      "--bash-completion)\n"
	      "# What completes each command's arguments (see docgen.c "
	      "arg_kinds).\n"
	      "_crushfs_spec()\n{\n\tcase \"$1\" in\n",
	      f);
	for (size_t i = 0; i < n; i++) {
		char k[1024];

		if (c[i].flags & CLI_HIDDEN)
			continue;
		arg_kinds(&c[i], k, sizeof(k));
		fprintf(f, "\t\"%s\") echo \"%s\" ;;\n", c[i].name, k);
	}
	fputs("\t*) return 1 ;;\n\tesac\n}\n"
	      "_crushfs()\n{\n"
	      "\tlocal cur=${COMP_WORDS[COMP_CWORD]} words=() w i cl=() "
	      "spec kinds k n pos\n"
	      "\tfor ((i = 1; i < COMP_CWORD; i++)); do\n"
	      "\t\tw=${COMP_WORDS[i]}\n"
	      "\t\tcase $w in\n"
	      "\t\t--cluster) cl=(--cluster \"${COMP_WORDS[i+1]}\"); ((i++)); "
	      "continue ;;\n"
	      "\t\t--cluster=*) cl=(\"$w\"); continue ;;\n"
	      "\t\t-f|--format) ((i++)); continue ;;\n"
	      "\t\t-*) continue ;;\n"
	      "\t\tesac\n"
	      "\t\twords+=(\"$w\")\n"
	      "\tdone\n"
	      "\tcase ${COMP_WORDS[COMP_CWORD-1]} in\n"
	      "\t--cluster) COMPREPLY=($(compgen -d -- \"$cur\")); return ;;\n"
	      "\t-f|--format) COMPREPLY=($(compgen -W 'plain json "
	      "json-pretty' -- \"$cur\")); return ;;\n"
	      "\t-i|-o) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n"
	      "\tesac\n"
	      "\tif [[ $cur == -* ]]; then\n"
	      "\t\tCOMPREPLY=($(compgen -W '--cluster --format --help "
	      "--version -s -f' -- \"$cur\"))\n\t\treturn\n\tfi\n"
	      "\t# the arguments of a command: the longest command the words "
	      "start with\n"
	      "\tfor ((n = ${#words[@]}; n > 0; n--)); do\n"
	      "\t\tspec=$(_crushfs_spec \"${words[*]:0:n}\") && break\n"
	      "\tdone\n"
	      "\tif ((n > 0)); then\n"
	      "\t\tread -ra kinds <<<\"$spec\"\n"
	      "\t\tpos=$((${#words[@]} - n))\n"
	      "\t\tk=${kinds[pos]:-}\n"
	      "\t\tif [[ -z $k && ${#kinds[@]} -gt 0 && "
	      "${kinds[-1]} == *... ]]; then k=${kinds[-1]}; fi\n"
	      "\t\tk=${k%...}\n"
	      "\t\tcase $k in\n"
	      "\t\tosds|pools|pgs|states|profiles|nodes|rules)\n"
	      "\t\t\tCOMPREPLY=($(compgen -W \"$(\"${COMP_WORDS[0]}\" "
	      "\"${cl[@]}\" __complete \"$k\" 2>/dev/null)\" -- \"$cur\")) ;;\n"
	      "\t\tw:*) k=${k#w:}; COMPREPLY=($(compgen -W \"${k//,/ }\" -- "
	      "\"$cur\")) ;;\n"
	      "\t\tf) COMPREPLY=($(compgen -f -- \"$cur\")) ;;\n"
	      "\t\t*) COMPREPLY=() ;;\n"
	      "\t\tesac\n"
	      "\t\treturn\n"
	      "\tfi\n"
	      "\tcase \"${words[*]}\" in\n",
	      f);
	for (size_t i = 0; i < n; i++) {
		/* each proper prefix of each name, once */
		const char *p = c[i].name;

		if (c[i].flags & CLI_HIDDEN)
			continue;
		for (const char *sp = strchr(p, ' '); sp;
		     sp = strchr(sp + 1, ' ')) {
			char pre[128];
			int dup = 0;

			snprintf(pre, sizeof(pre), "%.*s", (int)(sp - p), p);
			for (size_t k = 0; k < i && !dup; k++)
				dup = !strncmp(c[k].name, pre, strlen(pre)) &&
				      c[k].name[strlen(pre)] == ' ';
			if (dup)
				continue;
			fprintf(f, "\t\"%s\") COMPREPLY=($(compgen -W '", pre);
			next_words(f, c, n, pre);
			fputs("' -- \"$cur\")) ;;\n", f);
		}
	}
	fputs("\t\"\") COMPREPLY=($(compgen -W '", f);
	next_words(f, c, n, "");
	fputs("help version' -- \"$cur\")) ;;\n"
	      "\t*) COMPREPLY=($(compgen -f -- \"$cur\")) ;;\n"
	      "\tesac\n}\ncomplete -F _crushfs crushfs\n",
	      f);
}
