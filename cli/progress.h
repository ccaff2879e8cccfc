/*
 * progress.h - progress lines of long cli commands (progress.c).
 */
#ifndef CRUSHFS_CLI_PROGRESS_H
#define CRUSHFS_CLI_PROGRESS_H

#include <stdint.h>
#include <stdio.h>

struct cli_progress {
	FILE *err;
	int tty, quiet, drawn;
	const char *what, *unit;
	double t0, last, every;
	uint64_t ldone, ltotal;
};

/* quiet: print nothing (-f json). unit: what done/total count. */
void cli_progress_init(struct cli_progress *p, FILE *err, int tty, int quiet,
		       const char *what, const char *unit);
/* done of total units, bytes so far (for the rate). */
void cli_progress_update(struct cli_progress *p, uint64_t done, uint64_t total,
			 uint64_t bytes);
/* Clear the bar (a terminal) before the final report. */
void cli_progress_done(struct cli_progress *p);
/* A message line that must not be mixed into the bar. */
void cli_progress_line(struct cli_progress *p, const char *line);

#endif
