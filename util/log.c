/*
 * log.c - the one logging hook of library code (STYLE.md 16).  The CLI
 * leaves the default (stderr, "crushfs: " prefix, warnings and errors);
 * the daemon points it at its log file.
 */
#include <stdarg.h>
#include <stdio.h>

#include "util.h"

static void log_stderr(int level, const char *msg)
{
	(void)level;
	fprintf(stderr, "crushfs: %s\n", msg);
}

static cfs_log_fn log_fn = log_stderr;
static int log_max = CFS_LOG_WARN;

void cfs_log_set(cfs_log_fn fn, int max_level)
{
	log_fn = fn ? fn : log_stderr;
	log_max = max_level;
}

void cfs_log(int level, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	if (level > log_max)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	log_fn(level, buf);
}
