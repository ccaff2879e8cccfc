/*
 * usage.h - space (part of osdsim.h): what each OSD holds, reservations
 * before a write, the writes refused for want of room, a pool's MAX
 * AVAIL, fullness and quotas, the health snapshot computed from one read
 * of it all, and the cluster check that holds the accounting against
 * the disk.
 */
#ifndef CRUSHFS_OSDSIM_USAGE_H
#define CRUSHFS_OSDSIM_USAGE_H

#include <stddef.h>
#include <stdint.h>

#include "osdmap.h"

/*
 * ---- the filesystems under the cluster (disk.c) ----
 * OSD capacities are virtual; the disk under their folders is not.  A
 * reservation also needs room above a failsafe margin there (Ceph's
 * osd_failsafe_full_ratio, 0.97): (1 - ratio) of the filesystem, at least
 * CFS_DISK_META_RESERVE (what the two RocksDB stores may write at once: a
 * 16 MiB memtable flushed and a new ~18 MiB write-ahead log each), at most
 * half of it.
 */
#define CFS_DISK_META_RESERVE (64ull << 20)
#define CFS_MAX_DISKS 16
uint64_t cfs_disk_margin(uint64_t size, double failsafe_ratio);
struct cfs_disk {
	char path[256];	  /* the cluster folder, or an OSD folder on it */
	uint64_t size, avail; /* statvfs: f_blocks, f_bavail in bytes */
	uint64_t margin;      /* writes stop when avail reaches it */
	uint64_t promised;    /* what its OSDs may still take: write limit
			       * less use, summed */
	int nosds;
	int osds[8];	      /* the first of them */
	int failsafe;	      /* OSDs on it and avail <= margin */
	int overcommitted;    /* promised > avail - margin */
};
/* The filesystems of the cluster folder (first) and of m's OSD folders;
 * used[id] is each OSD's use (for promised), osd_disk[id] (max_osd
 * entries, or NULL) gets each OSD's index.  Returns the count. */
int cfs_disks(cfs_cluster *c, const cfs_osdmap *m, const uint64_t *used,
	      struct cfs_disk *out, int max, int *osd_disk);
/* Why osd refused its last reservation, one phrase: "N used, limit L"
 * against limit, or the disk's free space against its margin. */
void cfs_osd_refusal_text(cfs_cluster *c, int osd, uint64_t limit, char *buf,
			  size_t len);

/* ---- OSD usage (osd_store.c) ---- */
struct cfs_osd_usage {
	uint64_t used;	  /* bytes of object data held (sum of file sizes) */
	uint64_t objects; /* object files held */
};
void cfs_osd_usage(cfs_cluster *c, int osd, struct cfs_osd_usage *u);
/* The part of it in one pool's PGs. */
void cfs_osd_pool_usage(cfs_cluster *c, int osd, int64_t pool,
			struct cfs_osd_usage *u);

/*
 * Space reservation: before writing, reserve the bytes a write adds on each
 * OSD; fails with -ENOSPC if used + reserved + bytes > limit or the OSD is
 * already at/over the limit.  After the write, cfs_osd_unreserve() the
 * reservation (the store has then accounted what really changed).
 */
int cfs_osd_reserve(cfs_cluster *c, int osd, uint64_t bytes, uint64_t limit);
void cfs_osd_unreserve(cfs_cluster *c, int osd, uint64_t bytes);

/*
 * The byte count past which a write to osd is refused: full_ratio of its
 * capacity under policy osd (a write that would push the OSD over is
 * refused), the capacity itself under policy pool (writes go on until an
 * OSD of the rule reaches full_ratio, then the pool refuses them all, as
 * Ceph's monitor sets the pool FULL when an OSD reports full).
 */
uint64_t cfs_osdmap_write_limit(const cfs_osdmap *m, int osd);

/* ---- refused writes (refused.c): the cause of every ENOSPC ---- */
struct cfs_refused {
	int osd;
	int64_t pool;
	uint32_t ps;	/* the PG written to */
	uint64_t bytes; /* what the write needed on the OSD (disk: on the
			 * filesystem, with the writes in flight there) */
	uint64_t used;	/* the OSD's use when it refused */
	int64_t when;
	int disk;	/* refused by the filesystem under it (disk.c), not
			 * by its capacity */
};
/* A write refused with -ENOSPC because osd lacked room (the caller's
 * cfs_osd_reserve against cfs_osdmap_write_limit failed): kept per OSD
 * (the last one) in memory and DIR/refused.json. */
void cfs_osd_note_refused(cfs_cluster *c, int osd, int64_t pool,
			  uint32_t ps, uint64_t bytes);
/* The kept refusals, at most max; returns the count. */
int cfs_osd_refused(cfs_cluster *c, struct cfs_refused *out, int max);

/* ---- health and space (health.c, health_checks.c) ---- */
/* `ceph df` MAX AVAIL of the pool (PGMap::get_rule_avail / raw used rate):
 * bytes writable before the first OSD of the rule reaches full_ratio. */
uint64_t cfs_pool_max_avail(cfs_cluster *c, const cfs_osdmap *m);
/* The same for given per-OSD usage (used[0..max_osd) of m, e.g. after a
 * move that has not happened); *limit (may be NULL) gets the OSD whose
 * room bounds it, the one that fills first, or -1. */
uint64_t cfs_pool_max_avail_with(const cfs_osdmap *m, const uint64_t *used,
				 int *limit);
/* The same up to another ratio (e.g. nearfull_ratio): bytes writable
 * before the first OSD of the rule reaches it, that OSD in *limit. */
uint64_t cfs_pool_avail_before(const cfs_osdmap *m, const uint64_t *used,
			       double ratio, int *limit);
/* MAX AVAIL of any pool (used: bytes per OSD of m): its rule's room
 * before full_ratio over its raw used rate (size; (k+m)/k erasure). */
uint64_t cfs_pool_max_avail_for(const cfs_osdmap *m,
				const struct cfs_pool_info *p,
				const uint64_t *used);
/* 1 if pool p (NULL: the data pool) refuses writes under policy `pool`
 * (a full OSD in its rule); *osd gets that OSD. */
int cfs_pool_is_full(cfs_cluster *c, const cfs_osdmap *m,
		     const struct cfs_pool_info *p, int *osd);
/* A pool's use as quotas count it: logical bytes and objects (its raw
 * use and object copies over the pool size, as `df` STORED). */
void cfs_pool_usage(cfs_cluster *c, const cfs_osdmap *m,
		    const struct cfs_pool_info *p, uint64_t *bytes,
		    uint64_t *objects);
/* 1 when the pool reached a quota (Ceph's FULL_QUOTA flag: writes get
 * EDQUOT, deletes go on); *which gets "max_bytes" or "max_objects". */
int cfs_pool_quota_full(cfs_cluster *c, const cfs_osdmap *m,
			const struct cfs_pool_info *p, const char **which);

/*
 * A health snapshot: what `status`, `health [detail]`, `osd df` and `df`
 * show, computed from ONE read of every OSD's usage on one osdmap.  Writes
 * go on meanwhile, so reading usage twice could disagree with itself (an
 * OSD crossing full_ratio between a count and its detail lines); every
 * figure and check here comes from the same reads, as Ceph's monitor
 * computes health from one PGMap and OSDMap pair.
 *
 * PG checks need PG states, which objlayer computes (ol_pg_stat); the
 * caller passes them as struct cfs_pg_health, or none (npgs 0).
 */
enum cfs_health_status { CFS_HEALTH_OK = 0, CFS_HEALTH_WARN = 1,
			 CFS_HEALTH_ERR = 2 };
enum cfs_fullness { CFS_FULLNESS_NONE = 0, CFS_FULLNESS_NEARFULL,
		    CFS_FULLNESS_BACKFILLFULL, CFS_FULLNESS_FULL };

/* What the checks need of one PG. */
#define CFS_PGH_INACTIVE 0x01	      /* not active (peered or down) */
#define CFS_PGH_DOWN 0x02
#define CFS_PGH_DEGRADED 0x04
#define CFS_PGH_UNDERSIZED 0x08
#define CFS_PGH_BACKFILL_TOOFULL 0x10
#define CFS_PGH_INCONSISTENT 0x20     /* damaged copies not repaired */
struct cfs_pg_health {
	char pgid[32];	 /* "1.1f" */
	char state[128]; /* "active+undersized+degraded" */
	unsigned flags;	 /* CFS_PGH_* */
	int acting[CFS_MAX_REP], nacting;
};
/* Object totals over all PGs (copies = objects * pool size). */
struct cfs_pg_totals {
	uint64_t objects, copies, degraded, misplaced, unfound;
	uint64_t scrub_errors; /* damaged copies (cfs_pg_mark_damaged) */
};

struct cfs_osd_snap {
	struct cfs_osd_info info; /* info.exists 0: no such OSD id */
	int disk;		  /* index in cfs_health.disks, -1: none */
	int in;			  /* reweight > 0 */
	int in_rule;		  /* under the pool rule's take roots */
	uint64_t used, objects;	  /* the one read of its usage */
	uint64_t avail;		  /* capacity - used, 0 when over */
	int fullness;		  /* enum cfs_fullness of used */
};

/* One health check (Ceph health_check_t, with the `muted` flag its JSON
 * carries: `health mute`, mutes.c). */
struct cfs_health_check {
	const char *code;  /* "OSD_FULL" */
	int severity;	   /* CFS_HEALTH_WARN or CFS_HEALTH_ERR */
	char summary[256];
	int64_t count;	   /* what the check is about: OSDs, PGs, objects */
	int muted;	   /* muted: it does not count in the status */
	char **detail;	   /* ndetail lines */
	int ndetail;
};

/*
 * ---- health mutes (mutes.c), Ceph 16.2's HealthMonitor: `health mute
 * CODE [TTL] [--sticky]`, `health unmute [CODE]` ----
 * Kept in DIR/health_mutes.json.  A mute ends at its TTL; one that is not
 * sticky ends when its check clears, when the check's count grows (its
 * count follows the check down), or, for a check without a count, when
 * its summary changes (HealthMonitor::check_mutes).
 */
#define CFS_HEALTH_MAX_MUTES 32
struct cfs_health_mute {
	char code[48];
	int64_t ttl;	   /* when it ends (seconds since the epoch); 0 never */
	int sticky;
	char summary[256]; /* of the check when muted */
	int64_t count;
};
/* Mute code; now: a snapshot of the checks raised (cfs_health_take with
 * the PG states).  -ENOENT (why says so) when the check is not raised
 * and !sticky; -EINVAL for an empty code; ttl_secs 0: none. */
struct cfs_health;
int cfs_health_mute(cfs_cluster *c, const struct cfs_health *now,
		    const char *code, int64_t ttl_secs, int sticky, char *why,
		    size_t whylen);
/* One code, or every mute (code NULL). */
int cfs_health_unmute(cfs_cluster *c, const char *code);
/* Ceph's parse_timespan: "90", "10s", "5m", "2h", "1d", "1w"... -> secs;
 * -EINVAL for anything else or 0 */
int cfs_parse_timespan(const char *s, int64_t *secs);

#define CFS_HEALTH_MAX_CHECKS 20
struct cfs_health {
	int status; /* worst severity: enum cfs_health_status */
	struct cfs_health_check checks[CFS_HEALTH_MAX_CHECKS]; /* by code */
	int nchecks;

	int max_osd;
	struct cfs_osd_snap *osd; /* max_osd entries, indexed by id */
	int num_osds, num_up, num_in;
	uint64_t total, used, objects; /* over existing OSDs */
	uint64_t avail;	    /* the sum of each OSD's avail (osd df) */
	uint64_t raw_avail; /* total - used, 0 when over (status, df) */
	uint64_t rule_used; /* used by the OSDs under the pool's rule, the
			     * other pools' objects not counted */
	uint64_t max_avail; /* cfs_pool_max_avail() of these reads */
	int pool_full, pool_full_osd; /* cfs_pool_is_full() of them */
	const char *quota_full;	      /* cfs_pool_quota_full(): which */
	/* writes refused by OSDs below full_ratio that would still be
	 * refused with these reads (OSD_TOO_FULL_FOR_WRITE) */
	struct cfs_refused *refused;
	int nrefused;
	/* ops waiting for an inactive PG longer than
	 * osd_op_complaint_time (SLOW_OPS), oldest first */
	struct cfs_slow_op *slow;
	int nslow;
	/* the filesystems under the cluster (cfs_disks) */
	struct cfs_disk disks[CFS_MAX_DISKS];
	int ndisks;
	/* the mutes in force (after expiry), by code */
	struct cfs_health_mute mutes[CFS_HEALTH_MAX_MUTES];
	int nmutes;
	int64_t now; /* when the snapshot was taken (seconds) */
};
/* Take a snapshot on m (which the caller keeps referenced); pgs may be
 * NULL with npgs 0, tot NULL.  -ENOMEM; free with cfs_health_free(). */
int cfs_health_take(cfs_cluster *c, const cfs_osdmap *m,
		    const struct cfs_pg_health *pgs, uint32_t npgs,
		    const struct cfs_pg_totals *tot, struct cfs_health *h);
void cfs_health_free(struct cfs_health *h);
const char *cfs_health_status_name(int status); /* "HEALTH_WARN" */

/* ---- cluster check (check.c) ---- */
struct cfs_check_report {
	int osds_checked;
	int usage_mismatches; /* accounted != on disk */
	int stray_files;      /* files outside the layout */
	int misfiled;	      /* objects in a folder of the wrong PG */
	int replica_mismatches;
	uint64_t objects, bytes;
};
/* Scans every OSD; calls msg for each problem found.  deep: also compare
 * the replicas of every object byte for byte. */
int cfs_cluster_check(cfs_cluster *c, int deep, struct cfs_check_report *r,
		      void (*msg)(const char *line, void *arg), void *arg);

#endif
