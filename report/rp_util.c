/*
 * rp_util.c - the page buffer, escaping, sizes and colours every part of
 * the report uses (report_i.h), and the page's style sheet.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "report_i.h"

void put(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->err)
		return;
	for (;;) {
		size_t cap;
		char *np;

		va_start(ap, fmt);
		n = vsnprintf(b->p ? b->p + b->len : NULL,
			      b->p ? b->cap - b->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0) {
			b->err = -EINVAL;
			return;
		}
		if (b->p && (size_t)n < b->cap - b->len) {
			b->len += (size_t)n;
			return;
		}
		cap = b->cap ? b->cap * 2 : 65536;
		while (cap - b->len <= (size_t)n)
			cap *= 2;
		np = realloc(b->p, cap);
		if (!np) {
			b->err = -ENOMEM;
			return;
		}
		b->p = np;
		b->cap = cap;
	}
}

/* names in the map are [A-Za-z0-9_.-~]: nothing to escape, but stay safe */
void put_text(struct buf *b, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '<')
			put(b, "&lt;");
		else if (*s == '>')
			put(b, "&gt;");
		else if (*s == '&')
			put(b, "&amp;");
		else if (*s == '"')
			put(b, "&quot;");
		else
			put(b, "%c", *s);
	}
}

const char *human(uint64_t v, char *out, size_t n)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB",
					     "PiB" };
	double d = (double)v;
	int u = 0;

	while (d >= 1024 && u < 5) {
		d /= 1024;
		u++;
	}
	snprintf(out, n, u ? "%.1f %s" : "%.0f %s", d, unit[u]);
	return out;
}

/* 13% and 17% must look different: the hue runs from green (120) through
 * yellow (60) to red (0) as %USE goes from 0 to full_ratio */
const char *ramp(double pct, double full_pct, char *out, size_t n)
{
	double f = full_pct > 0 ? pct / full_pct : 1;

	if (f >= 1) {
		snprintf(out, n, "#8e0000");
		return out;
	}
	if (f < 0)
		f = 0;
	snprintf(out, n, "hsl(%.0f,68%%,%.0f%%)", 120 * (1 - f),
		 46 - 6 * f);
	return out;
}

void put_more(struct buf *b, int more, const char *what)
{
	if (more > 0)
		put(b, "<p class=\"more\" data-more=\"%d\">%d more %s</p>\n",
		    more, more, what);
}

const char rp_style[] =
	"body{font:14px/1.35 system-ui,sans-serif;margin:16px 24px;"
	"color:#222;max-width:1240px}h1{font-size:20px;margin:0 0 4px}"
	"h2{font-size:16px;margin:20px 0 6px}.legend{color:#666;margin:0 0 6px}"
	".osd{display:flex;align-items:center;gap:8px;height:18px;"
	"white-space:nowrap}.osd .name{width:64px;text-align:right;"
	"font-family:monospace}.osd .figs{color:#444;font-size:12px}"
	"rect.bg{fill:#eceff1}line.ratio{stroke-width:2.5}"
	"line.nearfull{stroke:#f9a825}line.backfillfull{stroke:#ef6c00}"
	"line.full{stroke:#c62828}"
	".treemap rect.frame{fill:none;stroke:#455a64;stroke-width:1.5}"
	".treemap text{font:10px sans-serif;fill:#111;pointer-events:none}"
	".treemap .label{fill:#263238;font-weight:700;font-size:11px;"
	"paint-order:stroke;stroke:#fff;stroke-width:3px}"
	".treemap g.down rect{fill:#616161}.treemap g.down text{fill:#fff}"
	".treemap g.out rect{fill:#fff;stroke:#616161;stroke-dasharray:3 2}"
	".treemap g.nearfull rect{stroke:#ef6c00;stroke-width:2.5}"
	".treemap g.full rect{stroke:#000;stroke-width:3}"
	".treemap g.mismatch text.flag{fill:#b71c1c;font-weight:700}"
	".tmv-c{display:none}#tmv-c:checked~.tmv-w{display:none}"
	"#tmv-c:checked~.tmv-c{display:block}"
	".views label{margin-right:14px}"
	"table{border-collapse:collapse}td,th{padding:2px 10px;"
	"text-align:right;border-bottom:1px solid #eee}th{background:#f5f5f5}"
	"td.l,th.l{text-align:left}td.over{color:#b71c1c}td.under{color:#1b5e20}"
	"#layout{display:grid;grid-template-columns:1fr 1fr;gap:12px}"
	".status{font-weight:600}.HEALTH_OK{color:#2e7d32}"
	".HEALTH_WARN{color:#ef6c00}.HEALTH_ERR{color:#c62828}"
	".check{margin:4px 0 8px}.check .code{font-family:monospace;"
	"font-weight:700}.check ul{margin:2px 0 0 18px;padding:0;color:#444;"
	"font-size:13px}.more{color:#666;font-style:italic;margin:2px 0}"
	".hist{display:inline-block;margin-right:24px;vertical-align:top}"
	".hist rect{fill:#5c6bc0}.hist text{font:10px sans-serif;fill:#333}"
	".side{display:grid;grid-template-columns:1fr 1fr;gap:16px}"
	".state-down td,.state-out td{color:#616161;font-style:italic}";
