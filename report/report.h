/*
 * report.h - the spread of a cluster as one self-contained HTML page: per
 * OSD fill bars against the nearfull/backfillfull/full lines, the crush
 * tree as a treemap coloured by %USE, PGs and objects per OSD against what
 * the weights predict, and the pool's room: MAX AVAIL, the OSD that fills
 * first and the bytes writable before nearfull and before full.
 *
 * The page is inline HTML, CSS and SVG: it fetches nothing and runs no
 * script.  Elements carry data- attributes with the raw figures, so tests
 * (and scripts) read the numbers the picture shows.
 */
#ifndef CRUSHFS_REPORT_H
#define CRUSHFS_REPORT_H

#include <stddef.h>

#include "osdsim.h"

/* The page for the cluster as it is now: 0 and a malloc'ed NUL-terminated
 * *html, or -errno. */
int rp_html(cfs_cluster *c, char **html, size_t *len);

#endif
