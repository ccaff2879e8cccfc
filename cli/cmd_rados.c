/*
 * cmd_rados.c - `rados put|get|stat|rm NAME [FILE]` and `rados ls`: the
 * object layer without a filesystem, as `rados -p POOL ...` (Ceph 16.2
 * tools/rados/rados.cc: same messages, "(errno) strerror").
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "cluster_cmds.h"
#include "objlayer.h"
#include "osdmap.h"
#include "util.h"

/* Objects up to this size are written in one operation (all or nothing);
 * larger ones in pieces of this size, as `rados put` writes op_size
 * pieces. */
#define PUT_WHOLE (64u << 20)

/* The name of the pool pool_opt chose. */
static const char *pool_name(struct cmd_ctx *ctx, char *buf, size_t len)
{
	const cfs_osdmap *m = cfs_osdmap_get(ctx->cluster);
	const struct cfs_pool_info *p = cfs_osdmap_pool_by_id(m, ctx->pool);

	snprintf(buf, len, "%s", p ? p->name : "?");
	cfs_osdmap_put(m);
	return buf;
}

/*
 * The descriptor FILE means for a transfer: "-" is the command's stdin or
 * stdout (in the daemon: the client's, passed over the admin socket).
 * -1 with the error line said when there is none.
 */
static int std_fd(struct cmd_ctx *ctx, int fd, const char *what)
{
	if (fd < 0)
		cc_err(ctx, "%s: not available here (the mounted daemon got no "
			    "descriptors from this client)", what);
	return fd;
}

/* "-" is named for what it is in error lines. */
static const char *fname(const char *file, const char *std)
{
	return strcmp(file, "-") ? file : std;
}

/*
 * `rados -p POOL` / `--pool POOL` (main.c moves a leading one after the
 * subcommand): removed from argv, ctx->pool set (the filesystem's data
 * pool without one); a pool that does not exist is refused as rados
 * refuses it (rados.cc: "error opening pool").  On the RADOS backend only
 * the data pool is reached.
 */
static int pool_opt(struct cmd_ctx *ctx, int *argc, char **argv)
{
	int n = 0;

	ctx->pool = ol_data_pool(ctx->ol);
	for (int i = 0; i < *argc; i++) {
		const struct cfs_pool_info *p;
		const cfs_osdmap *m;
		const char *v = NULL;
		int r = 0;

		if ((!strcmp(argv[i], "-p") || !strcmp(argv[i], "--pool")) &&
		    i + 1 < *argc)
			v = argv[++i];
		else if (!strncmp(argv[i], "--pool=", 7))
			v = argv[i] + 7;
		else if (!strcmp(argv[i], "-p") || !strcmp(argv[i], "--pool"))
			return cc_usage(ctx, "%s: missing value", argv[i]);
		if (!v) {
			argv[n++] = argv[i];
			continue;
		}
		m = cfs_osdmap_get(ctx->cluster);
		p = cfs_osdmap_pool_by_name(m, v);
		if (p)
			ctx->pool = p->id;
		cfs_osdmap_put(m);
		if (!p)
			r = cc_err(ctx, "error opening pool %s: (2) No such "
				   "file or directory", v);
		else if (ol_is_rados(ctx->ol) && ctx->pool !=
						    ol_data_pool(ctx->ol))
			r = cc_err(ctx, "error opening pool %s: (95) "
				   "Operation not supported (the RADOS "
				   "backend stores the data pool only)", v);
		if (r)
			return r;
	}
	*argc = n;
	return 0;
}

static int name_ok(struct cmd_ctx *ctx, const char *name)
{
	if (!*name)
		return cc_err(ctx, "empty object name");
	if (strlen(name) > 200)
		return cc_err(ctx, "object name too long (max 200 bytes)");
	return 0;
}

int ccmd_rados_put(struct cmd_ctx *ctx, int argc, char **argv)
{
	const char *name, *file;
	char pool[64], *buf = NULL;
	uint64_t off = 0;
	int fd, r = 0;
	ssize_t n;

	if (pool_opt(ctx, &argc, argv))
		return 1;
	if (cc_nargs(ctx, argc, argv, 2))
		return 1;
	name = argv[0];
	file = argv[1];
	if (name_ok(ctx, name))
		return 1;
	pool_name(ctx, pool, sizeof(pool));
	if (!strcmp(file, "-")) {
		if ((fd = std_fd(ctx, ctx->in_fd, "stdin")) < 0)
			return 1;
	} else if ((fd = open(file, O_RDONLY | O_CLOEXEC)) < 0) {
		return cc_err(ctx, "%s: %s", file, strerror(errno));
	}
	buf = malloc(PUT_WHOLE);
	if (!buf) {
		if (strcmp(file, "-"))
			close(fd);
		return cc_err(ctx, "out of memory");
	}
	for (;;) {
		char why[640];

		n = cfs_read_watch(fd, buf, PUT_WHOLE, ctx->watch_fd);
		if (n < 0) {
			snprintf(why, sizeof(why), "%s: %s",
				 fname(file, "stdin"),
				 n == -ECANCELED ? "the client went away" :
						   strerror((int)-n));
			r = -1;
		} else if (off == 0) {
			r = ol_obj_write_full(ctx->ol, ctx->pool, name, buf, (size_t)n);
		} else if (n) {
			r = ol_obj_write(ctx->ol, ctx->pool, name, off, buf, (size_t)n);
		}
		if (r < 0 && n >= 0) {
			char most[64] = "";

			if (r == -EFBIG)
				snprintf(most, sizeof(most),
					 " (objects are at most %llu MiB)",
					 (unsigned long long)(OL_MAX_OBJECT_SIZE
							      >> 20));
			snprintf(why, sizeof(why),
				 "error putting %s/%s: (%d) %s%s", pool, name,
				 -r, cfs_strerror(r), most);
		}
		if (r) {
			/* One line, with what is left of the object. */
			if (off)
				cc_err(ctx, "%s (object '%s' holds the first "
				       "%llu bytes only)", why, name,
				       (unsigned long long)off);
			else
				cc_err(ctx, "%s", why);
			r = 1;
			break;
		}
		off += (uint64_t)n;
		if ((size_t)n < PUT_WHOLE)
			break;
	}
	free(buf);
	if (strcmp(file, "-"))
		close(fd);
	if (!r && ctx->json)
		cc_json_out(ctx, json_pack("{s:s, s:s, s:I}", "pool", pool,
					   "name", name, "size",
					   (json_int_t)off));
	return r;
}

int ccmd_rados_get(struct cmd_ctx *ctx, int argc, char **argv)
{
	const char *name, *file;
	char pool[64], *buf;
	uint64_t size, off = 0;
	int fd = -1, r;

	if (pool_opt(ctx, &argc, argv))
		return 1;
	if (cc_nargs(ctx, argc, argv, 2))
		return 1;
	name = argv[0];
	file = argv[1];
	if (name_ok(ctx, name))
		return 1;
	pool_name(ctx, pool, sizeof(pool));
	r = ol_obj_stat(ctx->ol, ctx->pool, name, &size);
	if (r)
		return cc_err(ctx, "error getting %s/%s: (%d) %s", pool, name,
			      -r, cfs_strerror(r));
	buf = malloc(4u << 20);
	if (!buf)
		return cc_err(ctx, "out of memory");
	if (strcmp(file, "-")) {
		/* the user's file, not the cluster's: 0644, umask applies */
		fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0) {
			free(buf);
			return cc_err(ctx, "%s: %s", file, strerror(errno));
		}
	} else {
		fflush(ctx->out);
		if ((fd = std_fd(ctx, ctx->out_fd, "stdout")) < 0) {
			free(buf);
			return 1;
		}
	}
	r = 0;
	for (;;) {
		ssize_t n = ol_obj_read(ctx->ol, ctx->pool, name, off, buf, 4u << 20);

		if (n < 0) {
			r = cc_err(ctx, "error getting %s/%s: (%d) %s", pool,
				   name, (int)-n, cfs_strerror((int)n));
			break;
		}
		if (n == 0)
			break;
		r = cfs_write_watch(fd, buf, (size_t)n, ctx->watch_fd);
		if (r) {
			r = cc_err(ctx, "%s: %s", fname(file, "stdout"),
				   r == -ECANCELED ? "the client went away" :
						     strerror(-r));
			break;
		}
		off += (uint64_t)n;
	}
	if (strcmp(file, "-") && close(fd) < 0 && !r)
		r = cc_err(ctx, "%s: %s", file, strerror(errno));
	free(buf);
	return r;
}

int ccmd_rados_stat(struct cmd_ctx *ctx, int argc, char **argv)
{
	char pool[64], when[64], tz[16];
	struct timespec mt = { 0, 0 };
	struct tm tm;
	uint64_t size;
	int r;

	if (pool_opt(ctx, &argc, argv))
		return 1;
	if (cc_nargs(ctx, argc, argv, 1) || name_ok(ctx, argv[0]))
		return 1;
	pool_name(ctx, pool, sizeof(pool));
	r = ol_obj_stat_mtime(ctx->ol, ctx->pool, argv[0], &size, &mt);
	if (r)
		return cc_err(ctx, "error stat-ing %s/%s: (%d) %s", pool,
			      argv[0], -r, cfs_strerror(r));
	localtime_r(&mt.tv_sec, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S", &tm);
	strftime(tz, sizeof(tz), "%z", &tm);
	if (ctx->json)
		return cc_json_out(ctx, json_pack("{s:s, s:s, s:I, s:I}",
						  "pool", pool, "name",
						  argv[0], "size",
						  (json_int_t)size, "mtime",
						  (json_int_t)mt.tv_sec));
	fprintf(ctx->out, "%s/%s mtime %s.%06ld%s, size %llu\n", pool, argv[0],
		when, mt.tv_nsec / 1000, tz, (unsigned long long)size);
	return 0;
}

int ccmd_rados_rm(struct cmd_ctx *ctx, int argc, char **argv)
{
	char pool[64];
	int r;

	if (pool_opt(ctx, &argc, argv))
		return 1;
	if (cc_nargs(ctx, argc, argv, 1) || name_ok(ctx, argv[0]))
		return 1;
	pool_name(ctx, pool, sizeof(pool));
	r = ol_obj_remove(ctx->ol, ctx->pool, argv[0]);
	if (r) /* rados.cc really prints "pool>name" here */
		return cc_err(ctx, "error removing %s>%s: (%d) %s", pool,
			      argv[0], -r, cfs_strerror(r));
	return 0;
}

struct ls_arg {
	struct cmd_ctx *ctx;
	json_t *arr;
};

static int ls_one(const char *name, void *arg)
{
	struct ls_arg *a = arg;

	if (a->arr)
		json_array_append_new(a->arr,
				      json_pack("{s:s, s:s}", "namespace", "",
						"name", name));
	else
		fprintf(a->ctx->out, "%s\n", name);
	return 0;
}

int ccmd_rados_ls(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct ls_arg a = { ctx, NULL };
	int r;

	if (pool_opt(ctx, &argc, argv))
		return 1;
	if (cc_nargs(ctx, argc, argv, 0))
		return 1;
	if (ctx->json)
		a.arr = json_array();
	r = ol_obj_list(ctx->ol, ctx->pool, ls_one, &a);
	if (r) {
		json_decref(a.arr);
		return cc_err(ctx, "listing the pool: %s", cfs_strerror(r));
	}
	if (a.arr)
		cc_json_out(ctx, a.arr);
	return 0;
}

/* ---- rados bench ---- */

struct bench {
	struct cmd_ctx *ctx;
	const char *prefix;
	char *buf;
	uint64_t obj, nobj;
	atomic_ullong next;
	atomic_ullong done_bytes;
	atomic_int err;
	int write;
};

static void *bench_worker(void *arg)
{
	struct bench *b = arg;
	char name[256], *rbuf = b->write ? NULL : malloc(b->obj);

	if (!b->write && !rbuf) {
		atomic_store(&b->err, -ENOMEM);
		return NULL;
	}
	for (;;) {
		uint64_t i = atomic_fetch_add(&b->next, 1);
		int r;

		if (i >= b->nobj || atomic_load(&b->err))
			break;
		snprintf(name, sizeof(name), "%s.%llu", b->prefix,
			 (unsigned long long)i);
		if (b->write) {
			r = ol_obj_write_full(b->ctx->ol, b->ctx->pool, name, b->buf,
					      (size_t)b->obj);
		} else {
			ssize_t n = ol_obj_read(b->ctx->ol, b->ctx->pool, name, 0, rbuf,
						(size_t)b->obj);

			r = n < 0 ? (int)n : n != (ssize_t)b->obj ? -EIO : 0;
		}
		if (r) {
			int zero = 0;

			atomic_compare_exchange_strong(&b->err, &zero, r);
			break;
		}
		atomic_fetch_add(&b->done_bytes, b->obj);
	}
	free(rbuf);
	return NULL;
}

static double secs(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * rados bench write|read [--total SIZE] [--object-size SIZE] [--threads N]
 *                        [--prefix NAME] [--no-cleanup] [--no-sync]
 * Like `rados bench`, in one process: writes (or reads back) total bytes as
 * objects of object-size, N operations at a time; writes end with a sync
 * so the time is the disk's, and are removed afterwards unless told not.
 */
int ccmd_rados_bench(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct bench b;
	uint64_t total = 1ULL << 30, obj = 4ULL << 20;
	int threads = 1, cleanup = 1, dosync = 1, r = 0, started;
	const char *mode = NULL, *prefix = "benchmark_data";
	pthread_t th[64];
	double t0, t1, mbps;

	if (pool_opt(ctx, &argc, argv))
		return 1;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--total") && i + 1 < argc) {
			if (cc_size_arg(ctx, "--total", argv[++i], &total))
				return 1;
		} else if (!strcmp(a, "--object-size") && i + 1 < argc) {
			if (cc_size_arg(ctx, "--object-size", argv[++i], &obj))
				return 1;
		} else if (!strcmp(a, "--threads") && i + 1 < argc) {
			char *end;
			long v = strtol(argv[++i], &end, 10);

			if (*end || v < 1 || v > 64)
				return cc_err(ctx, "--threads: '%s' is not 1..64",
					      argv[i]);
			threads = (int)v;
		} else if (!strcmp(a, "--prefix") && i + 1 < argc) {
			prefix = argv[++i];
		} else if (!strcmp(a, "--no-cleanup")) {
			cleanup = 0;
		} else if (!strcmp(a, "--no-sync")) {
			dosync = 0;
		} else if (!mode && (!strcmp(a, "write") || !strcmp(a, "read") ||
				     !strcmp(a, "seq"))) {
			mode = a;
		} else {
			return cc_usage(ctx, "unexpected argument '%s'", a);
		}
	}
	if (!mode)
		return cc_usage(ctx, "write or read?");
	if (obj == 0 || obj > OL_MAX_OBJECT_SIZE || total < obj)
		return cc_err(ctx, "sizes: need 0 < object-size <= total and "
				   "object-size <= 1 GiB");
	memset(&b, 0, sizeof(b));
	b.ctx = ctx;
	b.prefix = prefix;
	b.obj = obj;
	b.nobj = total / obj;
	b.write = !strcmp(mode, "write");
	if (b.write) {
		b.buf = malloc(obj);
		if (!b.buf)
			return cc_err(ctx, "out of memory");
		for (uint64_t k = 0; k < obj; k++)
			b.buf[k] = (char)(k * 2654435761u >> 13);
	}
	t0 = secs();
	/* as many workers as can start; none: this thread does the work */
	for (started = 0; started < threads; started++)
		if (pthread_create(&th[started], NULL, bench_worker, &b) != 0)
			break;
	if (started == 0)
		bench_worker(&b);
	for (int i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	if (b.write && dosync)
		sync();
	t1 = secs();
	r = atomic_load(&b.err);
	mbps = (double)atomic_load(&b.done_bytes) / (1 << 20) / (t1 - t0);
	if (r)
		cc_err(ctx, "%s of %s.* failed: (%d) %s", mode, prefix, -r,
		       cfs_strerror(r));
	if (ctx->json) {
		cc_json_out(ctx,
			    json_pack("{s:s, s:f, s:I, s:I, s:I, s:i, s:f}",
				      "mode", mode, "seconds", t1 - t0,
				      "ops", (json_int_t)(atomic_load(&b.done_bytes) / obj),
				      "object_size", (json_int_t)obj, "bytes",
				      (json_int_t)atomic_load(&b.done_bytes),
				      "threads", threads, "bandwidth_mib_s",
				      mbps));
	} else {
		fprintf(ctx->out,
			"Total time run:         %.4f\n"
			"Total %s made:      %llu\n"
			"Object size:            %llu\n"
			"Concurrent ops:         %d\n"
			"Bandwidth (MB/sec):     %.3f\n",
			t1 - t0, b.write ? "writes" : "reads",
			(unsigned long long)(atomic_load(&b.done_bytes) / obj),
			(unsigned long long)obj, threads, mbps);
	}
	if (b.write && cleanup) {
		char name[256];

		for (uint64_t i = 0; i < b.nobj; i++) {
			snprintf(name, sizeof(name), "%s.%llu", prefix,
				 (unsigned long long)i);
			ol_obj_remove(ctx->ol, ctx->pool, name);
		}
	}
	free(b.buf);
	return r ? 1 : 0;
}
