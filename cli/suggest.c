/*
 * suggest.c - "did you mean": the command closest to what was typed, by
 * edit distance with adjacent transpositions (optimal string alignment),
 * as git's help.c suggests commands.
 */
#include <string.h>

#include "cli.h"

#define MAXLEN 64

/* Edit distance of a and b (each at most MAXLEN - 1 bytes counted). */
static int osa_distance(const char *a, const char *b)
{
	int la = (int)strnlen(a, MAXLEN - 1), lb = (int)strnlen(b, MAXLEN - 1);
	int d[MAXLEN][MAXLEN];

	for (int i = 0; i <= la; i++)
		d[i][0] = i;
	for (int j = 0; j <= lb; j++)
		d[0][j] = j;
	for (int i = 1; i <= la; i++)
		for (int j = 1; j <= lb; j++) {
			int cost = a[i - 1] != b[j - 1];
			int v = d[i - 1][j] + 1;

			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (d[i - 1][j - 1] + cost < v)
				v = d[i - 1][j - 1] + cost;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[la][lb];
}

static int words_in(const char *s)
{
	int n = 1;

	for (; *s; s++)
		n += *s == ' ';
	return n;
}

const char *cli_suggest(const char *const *names, int nnames, int argc,
			char **argv)
{
	const char *best = NULL;
	int best_d = 0;

	for (int k = 0; k < nnames; k++) {
		int nw = words_in(names[k]), d;
		char typed[MAXLEN] = "";
		size_t len = 0;

		if (nw > argc)
			continue;
		/* the same number of words, joined as the name is */
		for (int i = 0; i < nw; i++) {
			size_t l = strlen(argv[i]);

			if (len + l + 2 > sizeof(typed))
				break;
			if (i)
				typed[len++] = ' ';
			memcpy(typed + len, argv[i], l + 1);
			len += l;
		}
		d = osa_distance(typed, names[k]);
		/* close enough to be a slip, not another word: at most 2
		 * edits, and at most a third of the longer of the two
		 * (`dff` is `df`; `set` is not `out`) */
		if (d == 0 || d > 2 ||
		    d * 3 > (int)(len > strlen(names[k]) ? len
							  : strlen(names[k])))
			continue;
		if (!best || d < best_d) {
			best = names[k];
			best_d = d;
		}
	}
	return best;
}
