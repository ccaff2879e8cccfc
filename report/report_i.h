/*
 * report_i.h - what the parts of report/ share: the growing page buffer,
 * escaping, sizes, the %USE colour ramp, and the figures of one page
 * (one mgr snapshot, and the df rows and the analysis computed from it).
 */
#ifndef CRUSHFS_REPORT_I_H
#define CRUSHFS_REPORT_I_H

#include <stddef.h>
#include <stdint.h>

#include "mgr.h"
#include "osdmap.h"
#include "usage.h"

struct buf {
	char *p;
	size_t len, cap;
	int err;
};

void put(struct buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void put_text(struct buf *b, const char *s);
const char *human(uint64_t v, char *out, size_t n);
/* %USE on a continuous ramp: green at 0, yellow at half of full_ratio,
 * red at full_ratio, dark red past it */
const char *ramp(double pct, double full_pct, char *out, size_t n);
/* the "N more" line closing a cut list */
void put_more(struct buf *b, int more, const char *what);

/* Lists longer than this are cut, with "N more" */
#define RP_LIST_MAX 40
/* Up to this many OSDs, every OSD gets its bar and PG row */
#define RP_ALL_OSDS 64

/* One OSD as the page draws it. */
struct rp_osd {
	int exists, up, in;
	uint64_t used, capacity;
	double pct;
	uint32_t weight;   /* crush weight, 16.16 */
	int mismatch;	   /* crush weight far from what its capacity gives */
	int fullness;	   /* enum cfs_fullness */
	const char *cls;   /* device class or "" */
};

/* The figures of one page, all from one snapshot: m and h are s's. */
struct rp_page {
	const cfs_osdmap *m;
	const struct cfs_health *h;
	const struct mgr_analysis *a;
	const struct mgr_df *df;  /* `df`'s rows, pool by pool as a's */
	struct rp_osd *osd; /* h->max_osd */
	int n;
	double full_pct;
};

/* rp_tree.c: the crush tree as a squarified treemap, tiles by crush
 * weight (by_capacity 0) or by capacity; pct per OSD overrides the
 * snapshot's (the what-if's after), NULL: the snapshot's */
void rp_treemap(struct buf *b, const struct rp_page *pg, int by_capacity,
		const double *pct, const char *id, double w, double h);
void rp_tree_section(struct buf *b, const struct rp_page *pg);

/* rp_pools.c: health checks and every pool */
void rp_health_section(struct buf *b, const struct cfs_health *h);
void rp_pools_section(struct buf *b, const struct rp_page *pg);

/* rp_dist.c: OSD bars, histograms, outliers, host and class summaries */
void rp_osd_bars(struct buf *b, const struct rp_page *pg);
void rp_dist_section(struct buf *b, const struct rp_page *pg);

extern const char rp_style[];

/* report.c: the page's head and title line; a page's figures from
 * snapshot s (a PG snapshot: MGR_SNAP_PGS | MGR_SNAP_PG_HEALTH), the
 * analysis and the df rows computed into a and df (free pg->osd, then
 * mgr_analysis_free(a) and mgr_df_free(df), also after an error) */
void rp_header(struct buf *b, const cfs_osdmap *m, const struct cfs_health *h,
	       const char *title);
int rp_page_init(const struct mgr_snap *s, struct mgr_analysis *a,
		 struct mgr_df *df, struct rp_page *pg);
#endif
