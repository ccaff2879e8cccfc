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
#include <stdint.h>

typedef struct cfs_cluster cfs_cluster; /* osdsim/cluster.h */

/* Files with a copy on one OSD, for the page (the caller finds them). */
struct rp_file {
	const char *path;
	uint64_t objects;
};

/* The page for the cluster as it is now: 0 and a malloc'ed NUL-terminated
 * *html, or -errno.  With osd >= 0, a section lists the files (of files[],
 * nfiles) with the most objects on that OSD. */
int rp_html(cfs_cluster *c, int osd, const struct rp_file *files,
	    size_t nfiles, char **html, size_t *len);

#endif
