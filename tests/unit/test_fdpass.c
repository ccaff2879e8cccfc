/*
 * test_fdpass.c - descriptors over a unix socket (util/fdpass.c), as the
 * admin socket passes the CLI's stdin/stdout to the daemon: they arrive
 * in order with the bytes, extras are closed, a short stream is an
 * error; and transfers that watch the peer stop when it hangs up, even
 * on a pipe nobody reads or writes.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "util.h"

static int nopen(void)
{
	int n = 0;

	for (int fd = 0; fd < 256; fd++)
		if (fcntl(fd, F_GETFD) >= 0)
			n++;
	return n;
}

static void test_pass_pipe(void **state)
{
	int sv[2], p[2], got[CFS_MAX_PASSED_FDS], n = -1;
	char buf[8];

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(pipe(p), 0);
	/* reader first, writer second, and 6 bytes with them */
	assert_int_equal(cfs_send_fds(sv[0], "CFSAxy", 6, p, 2), 0);
	close(p[0]);
	close(p[1]);
	assert_int_equal(cfs_recv_fds(sv[1], buf, 6, got, &n, 2), 0);
	assert_memory_equal(buf, "CFSAxy", 6);
	assert_int_equal(n, 2);
	assert_true(fcntl(got[0], F_GETFD) & FD_CLOEXEC);
	/* the same pipe: what goes in one comes out of the other */
	assert_int_equal(cfs_write_full(got[1], "hello", 5, -1), 0);
	assert_int_equal(cfs_read_full(got[0], buf, 5, -1), 5);
	assert_memory_equal(buf, "hello", 5);
	close(got[0]);
	close(got[1]);
	/* no descriptors at all */
	assert_int_equal(cfs_send_fds(sv[0], "abcd", 4, NULL, 0), 0);
	assert_int_equal(cfs_recv_fds(sv[1], buf, 4, got, &n, 2), 0);
	assert_int_equal(n, 0);
	/* bad arguments */
	assert_int_equal(cfs_send_fds(sv[0], "", 0, NULL, 0), -EINVAL);
	assert_int_equal(cfs_send_fds(sv[0], "a", 1, p,
				      CFS_MAX_PASSED_FDS + 1), -EINVAL);
	close(sv[0]);
	close(sv[1]);
}

static void test_extras_closed(void **state)
{
	int sv[2], fds[3], got[CFS_MAX_PASSED_FDS], n = -1, before;
	char buf[4];

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	for (int i = 0; i < 3; i++)
		fds[i] = open("/dev/null", O_RDONLY | O_CLOEXEC);
	assert_int_equal(cfs_send_fds(sv[0], "abcd", 4, fds, 3), 0);
	for (int i = 0; i < 3; i++)
		close(fds[i]);
	before = nopen();
	/* room for one: the other two are closed, not leaked */
	assert_int_equal(cfs_recv_fds(sv[1], buf, 4, got, &n, 1), 0);
	assert_int_equal(n, 1);
	assert_int_equal(nopen(), before + 1);
	close(got[0]);
	/* a stream that ends early: an error, and nothing left open */
	assert_int_equal(cfs_send_fds(sv[0], "ab", 2, fds, 0), 0);
	close(sv[0]);
	before = nopen();
	assert_int_equal(cfs_recv_fds(sv[1], buf, 4, got, &n, 2), -EPIPE);
	assert_int_equal(n, 0);
	assert_int_equal(nopen(), before);
	close(sv[1]);
}

static void test_read_watch(void **state)
{
	int sv[2], p[2];
	char buf[64];

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(pipe(p), 0);
	/* data in pieces, then end of file: all of it */
	assert_int_equal(cfs_write_full(p[1], "abc", 3, -1), 0);
	assert_int_equal(cfs_write_full(p[1], "def", 3, -1), 0);
	close(p[1]);
	assert_int_equal(cfs_read_watch(p[0], buf, sizeof(buf), sv[1]), 6);
	assert_memory_equal(buf, "abcdef", 6);
	close(p[0]);
	/* a pipe that never delivers: the peer's hang-up ends the wait */
	assert_int_equal(pipe(p), 0);
	close(sv[0]);
	assert_int_equal(cfs_read_watch(p[0], buf, sizeof(buf), sv[1]),
			 -ECANCELED);
	/* watch < 0: a plain read */
	assert_int_equal(cfs_write_full(p[1], "x", 1, -1), 0);
	close(p[1]);
	assert_int_equal(cfs_read_watch(p[0], buf, sizeof(buf), -1), 1);
	close(p[0]);
	close(sv[1]);
	/* an O_PATH descriptor (a closed stdin, as the CLI passes it) */
	p[0] = open("/", O_PATH | O_CLOEXEC);
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(cfs_read_watch(p[0], buf, 1, sv[1]), -EBADF);
	assert_int_equal(cfs_write_watch(p[0], buf, 1, sv[1]), -EBADF);
	close(p[0]);
	close(sv[0]);
	close(sv[1]);
}

static void test_write_watch(void **state)
{
	size_t big = 1 << 20;
	char *buf = malloc(big), *back = malloc(big);
	int sv[2], p[2], fd;
	char path[] = "/tmp/test_fdpass.XXXXXX";

	(void)state;
	assert_non_null(buf);
	assert_non_null(back);
	for (size_t i = 0; i < big; i++)
		buf[i] = (char)(i * 7 + 3);
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	/* a file: all of it */
	fd = mkstemp(path);
	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(cfs_write_watch(fd, buf, big, sv[1]), 0);
	assert_int_equal(cfs_read_full(fd, back, big, 0), (ssize_t)big);
	assert_memory_equal(buf, back, big);
	close(fd);
	/* a pipe nobody reads, far larger than its buffer: the peer's
	 * hang-up ends the write instead of blocking for ever */
	assert_int_equal(pipe(p), 0);
	close(sv[0]);
	assert_int_equal(cfs_write_watch(p[1], buf, big, sv[1]), -ECANCELED);
	close(p[0]);
	close(p[1]);
	close(sv[1]);
	free(buf);
	free(back);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pass_pipe),
		cmocka_unit_test(test_extras_closed),
		cmocka_unit_test(test_read_watch),
		cmocka_unit_test(test_write_watch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
