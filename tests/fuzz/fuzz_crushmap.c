/*
 * fuzz_crushmap.c - libFuzzer harness for the crush map text parser.
 *
 * Each input is a crush map, text or binary (pl_parse_text takes both, by
 * the magic; the seeds hold crushtool -c files too).  A map the parser
 * refuses must come with
 * one error line naming the input.  A map it accepts must survive the trip
 * the cluster makes on every change (osdmap_clone): print it with the
 * decompiler (P1), parse the printed text (must succeed) and print again
 * (P2), and once more (P3).  P2 must equal P3 byte for byte.  P1 and P2
 * may differ only in lines that hold weights: crushtool prints weights
 * with three decimals, so the first trip rounds them, and bucket sums
 * ("# weight") follow; `crushtool -d` of `crushtool -c` of its own output
 * does the same (tests/golden/maps/weights_odd.txt shows it).  Then every
 * rule maps a few inputs with the workspace API, and each result must be a
 * device, a bucket or PL_ITEM_NONE (unless the map asks for more work than
 * a fuzzer can afford: fuzz_crush_cost.h).  A binary map is decoded,
 * printed and mapped, but not re-parsed: crushtool's own text of such a
 * map need not compile either (an item past max_devices).
 *
 * Built only with -DCRUSHFS_FUZZ=ON and clang (scripts/fuzz.sh).
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_crush_cost.h"
#include "placement.h"

#define RESULT_MAX 12

static void die(const char *what, const char *text, size_t len,
		const char *err)
{
	fprintf(stderr, "fuzz_crushmap: %s%s%s\n", what, err ? ": " : "",
		err ? err : "");
	if (text)
		fprintf(stderr, "---- printed map ----\n%.*s---- end ----\n",
			(int)len, text);
	abort();
}

static void map_rules(const pl_map *m, const uint8_t *data, size_t size)
{
	int ndev = pl_map_max_devices(m), result[RESULT_MAX];
	uint32_t *w;
	void *work;

	if (!fuzz_cheap_to_map(m))
		return;
	w = malloc(sizeof(*w) * (size_t)(ndev + 1));
	work = malloc(pl_work_size(m, RESULT_MAX));
	if (!w || !work)
		die("out of memory", NULL, 0, NULL);
	/* reweights from the input: in, out, or partly in */
	for (int i = 0; i < ndev; i++) {
		uint8_t b = size ? data[(size_t)i % size] : 0;

		w[i] = b % 7 == 0 ? 0 : b % 5 == 0 ? 0x8000 : 0x10000;
	}
	pl_work_init(m, work, RESULT_MAX);
	for (int r = 0; r < pl_map_max_rules(m); r++) {
		if (!pl_map_rule_exists(m, r))
			continue;
		for (int x = 0; x < 4; x++) {
			int nrep = 1 + (x * 3) % RESULT_MAX;
			/* odd x: with the map's choose_args (set 0, else
			 * the default), as crushtool --test maps */
			int n = pl_do_rule_args(
				m, r, x * 7919, result, nrep, w, ndev, work,
				x & 1 ? pl_map_choose_args_for(m, 0) : NULL);

			if (n < 0 || n > nrep)
				die("pl_do_rule returned a bad count", NULL, 0,
				    NULL);
			for (int i = 0; i < n; i++) {
				int v = result[i];

				if (v == PL_ITEM_NONE ||
				    (v >= 0 && v < ndev) ||
				    (v < 0 && pl_map_bucket_exists(m, v)))
					continue;
				fprintf(stderr, "rule %d x %d: result %d\n", r,
					x * 7919, v);
				die("pl_do_rule returned an unknown item", NULL,
				    0, NULL);
			}
		}
	}
	free(work);
	free(w);
}

/* print(parse(text)) into *out; the parse must succeed */
static pl_map *trip(const char *text, size_t len, char **out, size_t *olen)
{
	char err[512];
	pl_map *m = NULL;

	if (pl_parse_text(text, len, "printed.txt", &m, err, sizeof(err)))
		die("the printed map does not parse", text, len, err);
	if (pl_map_to_text(m, out, olen))
		die("cannot print the re-parsed map", NULL, 0, NULL);
	return m;
}

/*
 * A choose_args set's id line that crushtool itself does not keep over
 * a trip: an id whose low 32 bits are negative (other than -1) is
 * printed as an unsigned 64-bit number past LONG_MAX, which the next
 * read saturates (strtol) to the default set's -1 ("choose_args
 * 4294967102" -> -194 -> "18446744073709551422" -> -1; crushtool -c / -d
 * of Ceph 16.2 give the same lines).
 */
static int cargs_id_saturates(const char *a, size_t n1, const char *b,
			      size_t n2)
{
	static const char kw[] = "choose_args ", dflt[] =
		"choose_args 18446744073709551615 {\n";
	char id[32];
	size_t k = sizeof(kw) - 1;

	if (n1 < k || memcmp(a, kw, k) || n1 - k >= sizeof(id) ||
	    n2 != sizeof(dflt) - 1 || memcmp(b, dflt, n2))
		return 0;
	memcpy(id, a + k, n1 - k);
	id[n1 - k] = '\0';
	return strtoull(id, NULL, 10) > (unsigned long long)LONG_MAX;
}

/* a and b, line by line, equal but for lines that hold a weight (and
 * a choose_args id that saturates) */
static int same_but_weights(const char *a, size_t la, const char *b,
			    size_t lb)
{
	const char *ea = a + la, *eb = b + lb;

	while (a < ea && b < eb) {
		const char *na = memchr(a, '\n', (size_t)(ea - a));
		const char *nb = memchr(b, '\n', (size_t)(eb - b));
		size_t n1, n2;

		na = na ? na + 1 : ea;
		nb = nb ? nb + 1 : eb;
		n1 = (size_t)(na - a);
		n2 = (size_t)(nb - b);
		if ((n1 != n2 || memcmp(a, b, n1)) &&
		    (!memmem(a, n1, "weight ", 7) ||
		     !memmem(b, n2, "weight ", 7)) &&
		    !cargs_id_saturates(a, n1, b, n2))
			return 0;
		a = na;
		b = nb;
	}
	return a == ea && b == eb;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512];
	pl_map *m = NULL, *m2, *m3;
	char *t1 = NULL, *t2 = NULL, *t3 = NULL;
	size_t l1 = 0, l2 = 0, l3 = 0;
	int r;

	r = pl_parse_text((const char *)data, size, "in.txt", &m, err,
			  sizeof(err));
	if (r) {
		if (m || (r != -EINVAL && r != -ENOMEM))
			die("refused map with a map or odd code", NULL, 0, err);
		if (strncmp(err, "in.txt:", 7) || strchr(err, '\n'))
			die("refusal is not one 'in.txt:...' line", NULL, 0,
			    err);
		return 0;
	}
	if (pl_map_to_text(m, &t1, &l1))
		die("cannot print a parsed map", NULL, 0, NULL);
	if (size >= 4 && !memcmp(data, "\0\0\1\0", 4)) {
		/* a binary map (CRUSH_MAGIC): decoded, printed and mapped
		 * safely is the contract; its text need not compile again,
		 * as crushtool -d of such a map does not (an item past
		 * max_devices prints as "deviceN", which no line declares) */
		map_rules(m, data, size);
		free(t1);
		pl_map_destroy(m);
		return 0;
	}
	m2 = trip(t1, l1, &t2, &l2);
	if (!same_but_weights(t1, l1, t2, l2)) {
		fprintf(stderr, "---- printed again ----\n%.*s", (int)l2, t2);
		die("the re-parsed map prints other lines", t1, l1, NULL);
	}
	m3 = trip(t2, l2, &t3, &l3);
	if (l2 != l3 || memcmp(t2, t3, l2)) {
		fprintf(stderr, "---- printed a third time ----\n%.*s",
			(int)l3, t3);
		die("printing is not stable after one trip", t2, l2, NULL);
	}
	map_rules(m, data, size);
	free(t1);
	free(t2);
	free(t3);
	pl_map_destroy(m3);
	pl_map_destroy(m2);
	pl_map_destroy(m);
	return 0;
}
