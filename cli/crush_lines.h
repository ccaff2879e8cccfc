/*
 * crush_lines.h - the per-input lines of `crush test` (--show-mappings,
 * --show-bad-mappings) formatted by hand into a buffer, so the threads
 * that map a batch also print it (pmap.h) and the batch goes out in one
 * write.  Same bytes as CrushTester's ostream output.
 */
#ifndef CRUSHFS_CRUSH_LINES_H
#define CRUSHFS_CRUSH_LINES_H

#include <stddef.h>

/* Bytes crush_lines_put may write for one input with up to nr results. */
size_t crush_lines_max(int nr);
/*
 * Input x of rule `rule` gave res[0 .. n-1] asked for nr: with `mappings`
 * "CRUSH rule R x X [a,b,c]\n", with `bad` and a bad result (n != nr or a
 * PL_ITEM_NONE hole) "bad mapping rule R x X num_rep NR result [...]\n".
 * Returns the bytes written at buf.
 */
size_t crush_lines_put(char *buf, int rule, int x, int nr, const int *res,
		       int n, int mappings, int bad);

#endif
