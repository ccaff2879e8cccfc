/*
 * test_util.c - the shared file helpers every layer leans on: whole
 * transfers through pipes that deliver in pieces and at offsets,
 * directory streams relative to a descriptor, atomic replacement,
 * size parsing/printing, and the per-thread I/O buffers.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "util.h"

struct tmp {
	char dir[64];
	int dfd;
};

static int setup(void **state)
{
	struct tmp *t = calloc(1, sizeof(*t));

	strcpy(t->dir, "/tmp/crushfs-test-util.XXXXXX");
	assert_non_null(mkdtemp(t->dir));
	t->dfd = open(t->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(t->dfd >= 0);
	*state = t;
	return 0;
}

static int teardown(void **state)
{
	struct tmp *t = *state;

	close(t->dfd);
	assert_int_equal(cfs_rmtree(t->dir), 0);
	free(t);
	return 0;
}

/* A pipe fed by a child in 1-byte and odd-sized pieces: the reader must
 * still get everything, and a short count only at the end. */
static void test_read_full_pieces(void **state)
{
	char got[1000];
	int p[2];
	pid_t pid;
	ssize_t n;

	(void)state;
	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char c[7];

		close(p[0]);
		for (int i = 0; i < 700; i += 7) {
			for (int k = 0; k < 7; k++)
				c[k] = (char)(i + k);
			if (write(p[1], c, (size_t)(i % 2 ? 1 : 7)) < 0)
				_exit(1);
			if (i % 2 && write(p[1], c + 1, 6) < 0)
				_exit(1);
		}
		_exit(0);
	}
	close(p[1]);
	n = cfs_read_full(p[0], got, 500, -1);
	assert_int_equal(n, 500);
	n = cfs_read_full(p[0], got + 500, 500, -1);
	assert_int_equal(n, 200); /* end of the pipe */
	for (int i = 0; i < 700; i++)
		assert_int_equal((unsigned char)got[i], (unsigned char)i);
	assert_int_equal(cfs_read_full(p[0], got, 10, -1), 0);
	close(p[0]);
	assert_int_equal(waitpid(pid, NULL, 0), pid);
	assert_int_equal(cfs_read_full(-1, got, 1, -1), -EBADF);
}

static void test_positional(void **state)
{
	struct tmp *t = *state;
	char buf[16];
	int fd = openat(t->dfd, "f", O_RDWR | O_CREAT | O_CLOEXEC, 0644);

	assert_true(fd >= 0);
	assert_int_equal(cfs_write_full(fd, "hello", 5, 10), 0);
	assert_int_equal(cfs_write_full(fd, "ab", 2, -1), 0); /* at pos 0 */
	assert_int_equal(lseek(fd, 0, SEEK_CUR), 2);
	assert_int_equal(cfs_read_full(fd, buf, sizeof(buf), 0), 15);
	assert_memory_equal(buf, "ab\0\0\0\0\0\0\0\0hello", 15);
	assert_int_equal(cfs_read_full(fd, buf, 3, 12), 3);
	assert_memory_equal(buf, "llo", 3);
	assert_int_equal(cfs_read_full(fd, buf, 3, 15), 0);
	close(fd);
	fd = openat(t->dfd, "f", O_RDONLY | O_CLOEXEC);
	assert_int_equal(cfs_write_full(fd, "x", 1, 0), -EBADF);
	close(fd);
}

static void test_opendirat(void **state)
{
	struct tmp *t = *state;
	struct dirent *de;
	int err = 0, seen = 0;
	DIR *d;

	assert_int_equal(mkdirat(t->dfd, "sub", 0755), 0);
	close(openat(t->dfd, "sub/a", O_WRONLY | O_CREAT | O_CLOEXEC, 0644));
	/* "." twice: each stream reads from the start */
	for (int round = 0; round < 2; round++) {
		d = cfs_opendirat(t->dfd, ".", &err);
		assert_non_null(d);
		seen = 0;
		while ((de = readdir(d)) != NULL)
			seen += !strcmp(de->d_name, "sub");
		closedir(d);
		assert_int_equal(seen, 1);
	}
	d = cfs_opendirat(t->dfd, "sub", &err);
	assert_non_null(d);
	seen = 0;
	while ((de = readdir(d)) != NULL)
		seen += !strcmp(de->d_name, "a");
	closedir(d);
	assert_int_equal(seen, 1);
	assert_null(cfs_opendirat(t->dfd, "missing", &err));
	assert_int_equal(err, -ENOENT);
	assert_null(cfs_opendirat(t->dfd, "sub/a", &err));
	assert_int_equal(err, -ENOTDIR);
}

static void test_write_atomic(void **state)
{
	struct tmp *t = *state;
	char path[128], *data;
	struct dirent *de;
	size_t len;
	int err;
	DIR *d;

	snprintf(path, sizeof(path), "%s/cfg", t->dir);
	assert_int_equal(cfs_write_atomic(path, "one", 3), 0);
	assert_int_equal(cfs_write_atomic(path, "second", 6), 0);
	assert_int_equal(cfs_read_file(path, &data, &len), 0);
	assert_int_equal(len, 6);
	assert_string_equal(data, "second");
	free(data);
	/* no temporary file is left beside it */
	d = cfs_opendirat(t->dfd, ".", &err);
	assert_non_null(d);
	while ((de = readdir(d)) != NULL)
		if (de->d_name[0] != '.')
			assert_string_equal(de->d_name, "cfg");
	closedir(d);
	snprintf(path, sizeof(path), "%s/nodir/cfg", t->dir);
	assert_int_equal(cfs_write_atomic(path, "x", 1), -ENOENT);
}

static void test_sizes(void **state)
{
	uint64_t v;
	char buf[32];

	(void)state;
	assert_int_equal(cfs_parse_size("512", &v), 0);
	assert_int_equal(v, 512);
	assert_int_equal(cfs_parse_size("4M", &v), 0);
	assert_int_equal(v, 4u << 20);
	assert_int_equal(cfs_parse_size("1.5G", &v), 0);
	assert_int_equal(v, 3ull << 29);
	assert_int_equal(cfs_parse_size("2T", &v), 0);
	assert_int_equal(v, 2ull << 40);
	assert_int_equal(cfs_parse_size("", &v), -EINVAL);
	assert_int_equal(cfs_parse_size("4Q", &v), -EINVAL);
	assert_int_equal(cfs_parse_size("-1", &v), -EINVAL);
	assert_int_equal(cfs_parse_size("99999999999T", &v), -ERANGE);
	assert_string_equal(cfs_format_size(0, buf, sizeof(buf)), "0 B");
	assert_string_equal(cfs_format_size(1u << 30, buf, sizeof(buf)),
			    "1 GiB");
	assert_string_equal(cfs_format_size(512u << 20, buf, sizeof(buf)),
			    "512 MiB");
}

/* RFC 4648's test vectors, every length round trip, and what is not
 * base64 refused */
static void test_base64(void **state)
{
	static const char *const vec[][2] = {
		{ "", "" },	     { "f", "Zg==" },	  { "fo", "Zm8=" },
		{ "foo", "Zm9v" }, { "foob", "Zm9vYg==" }, { "fooba", "Zm9vYmE=" },
		{ "foobar", "Zm9vYmFy" },
	};
	static const char *const bad[] = { "Zg=", "Z===", "Zg=a", "Zm9v!A==",
					   "=Zm9", "Zg==Zg==" };
	unsigned char buf[300];
	void *out;
	size_t n, olen;
	char *s;

	(void)state;
	for (size_t i = 0; i < sizeof(vec) / sizeof(vec[0]); i++) {
		s = cfs_b64_encode(vec[i][0], strlen(vec[i][0]), &n);
		assert_non_null(s);
		assert_string_equal(s, vec[i][1]);
		assert_int_equal(n, strlen(vec[i][1]));
		free(s);
		assert_int_equal(cfs_b64_decode(vec[i][1], strlen(vec[i][1]),
						&out, &olen),
				 0);
		assert_int_equal(olen, strlen(vec[i][0]));
		assert_memory_equal(out, vec[i][0], olen);
		free(out);
	}
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (unsigned char)(i * 151 + 7);
	for (size_t len = 0; len <= sizeof(buf); len++) {
		s = cfs_b64_encode(buf, len, &n);
		assert_non_null(s);
		assert_int_equal(cfs_b64_decode(s, n, &out, &olen), 0);
		assert_int_equal(olen, len);
		if (len)
			assert_memory_equal(out, buf, len);
		free(out);
		free(s);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(cfs_b64_decode(bad[i], strlen(bad[i]), &out,
						&olen),
				 -EINVAL);
}

/* The mapping that starts at p in /proc/self/smaps: its length, and
 * whether it is marked for huge pages (VmFlags "hg", MADV_HUGEPAGE);
 * -1 when no mapping starts there. */
static long vma_at(const void *p, int *hg)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	long len = -1;
	int in = 0;

	assert_non_null(f);
	*hg = 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long a, b;

		if (sscanf(line, "%lx-%lx ", &a, &b) == 2 &&
		    strchr(line, '-') < strchr(line, ' ')) {
			in = a == (uintptr_t)p;
			if (in)
				len = (long)(b - a);
		} else if (in && !strncmp(line, "VmFlags:", 8)) {
			*hg = strstr(line, " hg") != NULL;
		}
	}
	fclose(f);
	return len;
}

static int mapped(const void *p)
{
	unsigned char v;

	return mincore((void *)p, 4096, &v) == 0;
}

static void *other_thread(void *arg)
{
	void **out = arg;

	*out = cfs_tbuf(CFS_TBUF_OBJLAYER, 1 << 20);
	memset(*out, 7, 1 << 20);
	return NULL;
}

static void test_tbuf(void **state)
{
	const size_t mib = 1 << 20, huge = 2 << 20;
	unsigned char *s, *b, *b2, *f;
	void *theirs = NULL;
	pthread_t t;
	int hg;

	(void)state;
	assert_null(cfs_tbuf(-1, 10));
	assert_null(cfs_tbuf(CFS_TBUF_SLOTS, 10));
	/* small: page-aligned heap, kept */
	s = cfs_tbuf(CFS_TBUF_OBJLAYER, 1000);
	assert_non_null(s);
	assert_int_equal((uintptr_t)s % 4096, 0);
	memset(s, 1, 1000);
	assert_ptr_equal(cfs_tbuf(CFS_TBUF_OBJLAYER, 4096), s);
	/* big: a mapping of its own, exactly whole huge pages at a huge
	 * page's boundary, marked for THP; the small one is gone */
	b = cfs_tbuf(CFS_TBUF_OBJLAYER, mib);
	assert_non_null(b);
	assert_int_equal((uintptr_t)b % huge, 0);
	assert_int_equal(vma_at(b, &hg), (long)huge);
	assert_true(hg);
	memset(b, 2, mib);
	assert_ptr_equal(cfs_tbuf(CFS_TBUF_OBJLAYER, huge), b);
	assert_ptr_equal(cfs_tbuf(CFS_TBUF_OBJLAYER, 10), b);
	/* the other slot is another buffer */
	f = cfs_tbuf(CFS_TBUF_FUSE, mib);
	assert_non_null(f);
	assert_true(f + huge <= b || b + huge <= f);
	memset(f, 3, mib);
	assert_int_equal(b[mib - 1], 2);
	/* grown: a new mapping, the old one unmapped */
	b2 = cfs_tbuf(CFS_TBUF_OBJLAYER, huge + 1);
	assert_non_null(b2);
	assert_int_equal((uintptr_t)b2 % huge, 0);
	assert_int_equal(vma_at(b2, &hg), (long)(2 * huge));
	assert_true(hg);
	memset(b2, 4, huge + 1);
	if (b2 != b)
		assert_false(mapped(b));
	/* another thread has its own, unmapped when it exits */
	assert_int_equal(pthread_create(&t, NULL, other_thread, &theirs), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_non_null(theirs);
	assert_true(theirs != b2 && theirs != f);
	assert_false(mapped(theirs));
	assert_true(mapped(b2) && mapped(f));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_full_pieces),
		cmocka_unit_test_setup_teardown(test_positional, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_opendirat, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_write_atomic, setup,
						teardown),
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_base64),
		cmocka_unit_test(test_tbuf),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
