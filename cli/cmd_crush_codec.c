/*
 * cmd_crush_codec.c - `crushfs crush compile` and `crushfs crush decompile`.
 *
 *   crushfs crush compile MAP [-o OUT]     = crushtool -c MAP -o OUT
 *   crushfs crush decompile MAP [-o OUT]   = crushtool -d MAP [-o OUT]
 *
 * compile writes the binary map byte-identical to Ceph 16.2's crushtool;
 * decompile prints the text `crushtool -d` prints.  Either reads a text or
 * a binary map (told apart by the binary's magic), so `compile` also
 * re-encodes a binary map and `decompile` also normalises a text one.
 * OUT "-" is stdout.  Unlike crushtool, compile without -o is an error
 * (crushtool says "use -o" and exits 0), and a truncated or malformed
 * binary gets one error line with the byte offset (crushtool crashes on
 * some).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "placement.h"

struct codec_opts {
	const char *in, *out;
};

static int parse_codec_opts(struct cli_ctx *ctx, int argc, char **argv,
			    struct codec_opts *o)
{
	memset(o, 0, sizeof(*o));
	for (int i = 0; i < argc; i++) {
		const char *v;
		int r;

		if ((r = cli_opt(ctx, argc, argv, &i, "-o", &v)) ||
		    (r = cli_opt(ctx, argc, argv, &i, "--outfn", &v))) {
			if (r < 0)
				return 1;
			o->out = v;
		} else if ((r = cli_opt(ctx, argc, argv, &i, "-i", &v))) {
			if (r < 0)
				return 1;
			o->in = v;
		} else if (!o->in && strcmp(argv[i], "-") != 0 &&
			   argv[i][0] != '-') {
			o->in = argv[i];
		} else {
			r = cli_common_opt(ctx, argc, argv, &i);
			if (r == 2 || r < 0)
				return r == 2 ? 2 : 1;
			if (r == 0)
				return cli_err(ctx, "unexpected argument '%s'",
					       argv[i]);
		}
	}
	if (!o->in)
		return cli_err(ctx, "missing the map to read (see crushfs %s "
			       "--help)", ctx->entry->name);
	return 0;
}

static pl_map *read_map(struct cli_ctx *ctx, const char *path)
{
	char err[512] = "";
	pl_map *m = NULL;
	int r = pl_parse_file(path, &m, err, sizeof(err));

	if (r < 0 || !m) {
		if (err[0])
			fprintf(stderr, "%s\n", err);
		else
			cli_err(ctx, "%s: %s", path,
				strerror(r < 0 ? -r : EINVAL));
		return NULL;
	}
	return m;
}

static int write_out(struct cli_ctx *ctx, const char *path, const void *buf,
		     size_t len)
{
	int to_stdout = !path || strcmp(path, "-") == 0;
	FILE *f = to_stdout ? stdout : fopen(path, "wb");

	if (!f)
		return cli_err(ctx, "%s: cannot write: %s", path,
			       strerror(errno));
	if ((len && fwrite(buf, 1, len, f) != len) || fflush(f) || ferror(f)) {
		int e = errno ? errno : EIO;

		if (!to_stdout)
			fclose(f);
		return cli_err(ctx, "%s: cannot write: %s",
			       to_stdout ? "stdout" : path, strerror(e));
	}
	if (!to_stdout && fclose(f))
		return cli_err(ctx, "%s: cannot write: %s", path,
			       strerror(errno));
	return 0;
}

int cmd_crush_compile(struct cli_ctx *ctx, int argc, char **argv)
{
	struct codec_opts o;
	pl_map *m;
	void *bin = NULL;
	size_t len = 0;
	int r = parse_codec_opts(ctx, argc, argv, &o);

	if (r)
		return r == 2 ? 0 : 1;
	if (!o.out)
		return cli_err(ctx, "missing -o OUT (the binary map to write; "
			       "- for stdout)");
	m = read_map(ctx, o.in);
	if (!m)
		return 1;
	r = pl_map_encode(m, &bin, &len);
	pl_map_destroy(m);
	if (r) {
		cli_err(ctx, "%s: cannot encode: %s", o.in, strerror(-r));
		return 1;
	}
	r = write_out(ctx, o.out, bin, len);
	free(bin);
	return r;
}

int cmd_crush_decompile(struct cli_ctx *ctx, int argc, char **argv)
{
	struct codec_opts o;
	pl_map *m;
	char *text = NULL;
	size_t len = 0;
	int r = parse_codec_opts(ctx, argc, argv, &o);

	if (r)
		return r == 2 ? 0 : 1;
	m = read_map(ctx, o.in);
	if (!m)
		return 1;
	r = pl_map_to_text(m, &text, &len);
	pl_map_destroy(m);
	if (r) {
		cli_err(ctx, "%s: cannot decompile: %s", o.in, strerror(-r));
		return 1;
	}
	r = write_out(ctx, o.out, text, len);
	free(text);
	return r;
}
