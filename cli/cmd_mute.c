/*
 * cmd_mute.c - `health mute CODE [TTL] [--sticky]` and `health unmute
 * [CODE]` as Ceph 16.2's HealthMonitor answers them (nothing printed on
 * success), and how `health` shows the mutes (Monitor::get_health_status:
 * " (muted: CODE(ttl))" after the line, "(MUTED ttl T, STICKY) " before a
 * detail).  The mutes themselves are osdsim's (mutes.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "cluster_cmds.h"
#include "mgr.h"
#include "usage.h"
#include "util.h"

/* Ceph's timespan_str (utimespan_str), to the second: "30s", "59m",
 * "5h", "3d", "2w" */
void cc_timespan(char *buf, size_t len, int64_t sec)
{
	if (sec < 120)
		snprintf(buf, len, "%llds", (long long)sec);
	else if (sec / 60 < 120)
		snprintf(buf, len, "%lldm", (long long)(sec / 60));
	else if (sec / 3600 < 48)
		snprintf(buf, len, "%lldh", (long long)(sec / 3600));
	else if (sec / 86400 < 14)
		snprintf(buf, len, "%lldd", (long long)(sec / 86400));
	else if (sec / 604800 < 12)
		snprintf(buf, len, "%lldw", (long long)(sec / 604800));
	else if (sec / 86400 / 30 < 24)
		snprintf(buf, len, "%lldM", (long long)(sec / 86400 / 30));
	else
		snprintf(buf, len, "%lldy", (long long)(sec / 86400 / 365));
}

void cc_mutes_line(FILE *f, const struct cfs_health *h)
{
	char t[32];

	if (!h->nmutes)
		return;
	fputs(" (muted:", f);
	for (int i = 0; i < h->nmutes; i++) {
		const struct cfs_health_mute *m = &h->mutes[i];

		fprintf(f, " %s", m->code);
		if (m->ttl) {
			cc_timespan(t, sizeof(t),
				 m->ttl > h->now ? m->ttl - h->now : 0);
			fprintf(f, "(%s)", t);
		}
	}
	fputc(')', f);
}

void cc_mute_prefix(FILE *f, const struct cfs_health *h, const char *code)
{
	char t[32];

	for (int i = 0; i < h->nmutes; i++) {
		const struct cfs_health_mute *m = &h->mutes[i];

		if (strcmp(m->code, code))
			continue;
		fputs("(MUTED", f);
		if (m->ttl) {
			cc_timespan(t, sizeof(t),
				 m->ttl > h->now ? m->ttl - h->now : 0);
			fprintf(f, " ttl %s", t);
		}
		if (m->sticky)
			fputs(", STICKY", f);
		fputs(") ", f);
		return;
	}
}

int ccmd_health_mute(struct cmd_ctx *ctx, int argc, char **argv)
{
	const char *code = NULL, *ttl = NULL;
	struct mgr_snap s;
	int64_t secs = 0;
	int sticky = 0, r;
	char why[256] = "";

	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--sticky"))
			sticky = 1;
		else if (!code)
			code = argv[i];
		else if (!ttl)
			ttl = argv[i];
		else
			return cc_usage(ctx, "unexpected argument '%s'",
					argv[i]);
	}
	if (!code || !*code)
		return cc_err(ctx, "must specify an alert code to mute");
	if (ttl && cfs_parse_timespan(ttl, &secs))
		return cc_err(ctx, "not a valid duration: %s", ttl);
	/* the health `health` shows, PG states included: the code is
	 * checked against it */
	if (cc_snap(ctx, MGR_SNAP_PGS | MGR_SNAP_PG_HEALTH, &s))
		return 1;
	r = cfs_health_mute(ctx->cluster, &s.h, code, secs, sticky, why,
			    sizeof(why));
	mgr_snap_free(&s);
	if (r)
		return cc_err(ctx, "%s", why[0] ? why : cfs_strerror(r));
	return 0;
}

int ccmd_health_unmute(struct cmd_ctx *ctx, int argc, char **argv)
{
	int r;

	if (argc > 1)
		return cc_usage(ctx, "unexpected argument '%s'", argv[1]);
	r = cfs_health_unmute(ctx->cluster, argc ? argv[0] : NULL);
	if (r)
		return cc_err(ctx, "%s", cfs_strerror(r));
	return 0;
}
