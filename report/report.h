/*
 * report.h - the cluster as one self-contained HTML page that explains
 * it: the health checks with their causes, every pool with its fill, MAX
 * AVAIL and the OSD that fills it first by the real PG mapping, the crush
 * tree as a treemap (tiles sized by crush weight or capacity, coloured by
 * %USE), the distributions of PGs and %USE with the outliers first, per
 * host and per class summaries; and the what-if page of a placement
 * change (before and after, data moved per OSD, the backfill's time).
 *
 * The page is inline HTML, CSS and SVG: it fetches nothing and runs no
 * script (the treemap's two views switch with CSS radio buttons).
 * Elements carry data- attributes with the raw figures, so tests (and
 * scripts) read the numbers the picture shows.
 */
#ifndef CRUSHFS_REPORT_H
#define CRUSHFS_REPORT_H

#include <stddef.h>
#include <stdint.h>

typedef struct cfs_cluster cfs_cluster; /* osdsim/cluster.h */
typedef struct cfs_osdmap cfs_osdmap;
typedef struct objlayer objlayer;

/* Files with a copy on one OSD, for the page (the caller finds them). */
struct rp_file {
	const char *path;
	uint64_t objects;
};

/* The page for the cluster as it is now, from one mgr snapshot (the PGs
 * read through ol, their states in the health checks, the pools' rows
 * those of `df`): 0 and a malloc'ed NUL-terminated *html, or -errno.
 * With osd >= 0, a section lists the files (of files[], nfiles) with the
 * most objects on that OSD. */
int rp_html(cfs_cluster *c, objlayer *ol, int osd, const struct rp_file *files,
	    size_t nfiles, char **html, size_t *len);

struct rp_opts {
	int osd;		     /* -1: no files section */
	const struct rp_file *files;
	size_t nfiles;
	objlayer *ol;		     /* reads the PGs: required (-EINVAL) */
};
int rp_html_opts(cfs_cluster *c, const struct rp_opts *o, char **html,
		 size_t *len);

/* The what-if page: old is the map now, new the one `what` (the command
 * line, shown) would install; rate (bytes/s per backfill) and
 * max_backfills (osd_max_backfills) time the backfill.  0 or -errno. */
int rp_whatif_html(cfs_cluster *c, objlayer *ol, const cfs_osdmap *old,
		   const cfs_osdmap *new, const char *what, uint64_t rate,
		   int max_backfills, char **html, size_t *len);

#endif
