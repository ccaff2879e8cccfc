/*
 * progress.c - progress of long commands (rebalance, scrub, fsck): on a
 * terminal a bar redrawn in place with rate and ETA, ten times a second
 * at most; otherwise (a pipe, a log, the admin socket) one line every
 * five seconds ($CRUSHFS_PROGRESS seconds when set); nothing with -f json,
 * whose stdout must stay one document.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "progress.h"
#include "util.h"

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

void cli_progress_init(struct cli_progress *p, FILE *err, int tty, int quiet,
		       const char *what, const char *unit)
{
	memset(p, 0, sizeof(*p));
	p->err = err;
	p->tty = tty;
	p->quiet = quiet;
	p->what = what;
	p->unit = unit;
	p->t0 = now_s();
	/* CRUSHFS_PROGRESS: seconds between lines off a terminal */
	p->every = 5.0;
	if (getenv("CRUSHFS_PROGRESS")) {
		char *end;
		double v = strtod(getenv("CRUSHFS_PROGRESS"), &end);

		if (!*end && v >= 0 && v < 86400)
			p->every = v;
	}
}

static void eta_str(char *b, size_t len, double s)
{
	long v = s < 0 ? 0 : s > 359999 ? 359999 : (long)(s + 0.5);

	snprintf(b, len, "%ld:%02ld:%02ld", v / 3600, v / 60 % 60, v % 60);
}

void cli_progress_update(struct cli_progress *p, uint64_t done, uint64_t total,
			 uint64_t bytes)
{
	double t = now_s(), el = t - p->t0, rate, eta = -1;
	char rb[32], eb[32], bb[32];

	if (p->quiet)
		return;
	if (t - p->last < (p->tty ? 0.1 : p->every) && done < total)
		return;
	if (!p->tty && el < p->every)
		return; /* short runs stay silent in logs */
	if (!p->tty && p->drawn && done == p->ldone && total == p->ltotal)
		return; /* a log line only when something moved */
	p->ldone = done;
	p->ltotal = total;
	p->last = t;
	p->drawn = 1;
	rate = el > 0 ? (double)bytes / el : 0;
	if (done > 0 && total > done)
		eta = el * (double)(total - done) / (double)done;
	if (bytes) {
		cfs_format_size((uint64_t)rate, rb, sizeof(rb));
		strcat(rb, "/s");
		cfs_format_size(bytes, bb, sizeof(bb));
	} else {
		/* no bytes counted: the rate in units */
		snprintf(rb, sizeof(rb), "%.0f/s",
			 el > 0 ? (double)done / el : 0);
		snprintf(bb, sizeof(bb), "-");
	}
	if (eta >= 0)
		eta_str(eb, sizeof(eb), eta);
	else
		snprintf(eb, sizeof(eb), "-");
	if (p->tty) {
		int w = 24, fill = total ? (int)((double)w * (double)done /
						  (double)total) :
					   0;
		char bar[32];

		if (fill > w)
			fill = w;
		for (int i = 0; i < w; i++)
			bar[i] = i < fill ? '#' : '.';
		bar[w] = 0;
		fprintf(p->err,
			"\r%s [%s] %3d%% %llu/%llu %s, %s, %s, ETA %s  ",
			p->what, bar,
			total ? (int)(100.0 * (double)done / (double)total) :
				0,
			(unsigned long long)done, (unsigned long long)total,
			p->unit, bb, rb, eb);
	} else {
		fprintf(p->err, "%s: %llu/%llu %s, %s, %s, ETA %s\n",
			p->what, (unsigned long long)done,
			(unsigned long long)total, p->unit, bb, rb, eb);
	}
	fflush(p->err);
}

void cli_progress_done(struct cli_progress *p)
{
	if (p->tty && p->drawn && !p->quiet) {
		fprintf(p->err, "\r%*s\r", 100, "");
		fflush(p->err);
	}
	p->drawn = 0;
}

void cli_progress_line(struct cli_progress *p, const char *line)
{
	/* a message between redraws: clear the bar, print, redraw later */
	if (p->tty && p->drawn)
		fprintf(p->err, "\r%*s\r", 100, "");
	p->drawn = 0;
	p->last = 0;
	fprintf(p->err, "%s\n", line);
}
