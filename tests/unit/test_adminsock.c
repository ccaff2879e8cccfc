/*
 * test_adminsock.c - the admin socket's request reader (fs/adminsock.c
 * asok_read_request), fed through a socket pair as a client would send.
 * tests/fuzz/fuzz_adminsock.c fuzzes the same function.
 */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cmocka.h>

#include "fsd_i.h"

struct msg {
	unsigned char b[512];
	size_t n;
};

static void put_u32(struct msg *m, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		m->b[m->n++] = (unsigned char)(v >> (8 * i));
}

static void put_bytes(struct msg *m, const void *p, size_t n)
{
	memcpy(m->b + m->n, p, n);
	m->n += n;
}

static void put_str(struct msg *m, const char *s, size_t n)
{
	put_u32(m, (uint32_t)n);
	put_bytes(m, s, n);
}

/* send m (then EOF) and read one request */
static int read_req(const struct msg *m, struct asok_req *q)
{
	int sv[2], r;

	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(write(sv[1], m->b, m->n), (ssize_t)m->n);
	close(sv[1]);
	r = asok_read_request(sv[0], q);
	close(sv[0]);
	return r;
}

static struct msg request(uint32_t argc, const char *cwd, size_t cwdlen)
{
	struct msg m = { .n = 0 };

	put_bytes(&m, "CFSA", 4);
	put_u32(&m, argc);
	put_str(&m, cwd, cwdlen);
	return m;
}

static void test_good_request(void **state)
{
	struct msg m = request(3, "/tmp", 4);
	struct asok_req q;

	(void)state;
	put_str(&m, "osd", 3);
	put_str(&m, "df", 2);
	put_str(&m, "", 0);
	put_bytes(&m, "trailing bytes are left unread", 30);
	assert_int_equal(read_req(&m, &q), 0);
	assert_int_equal(q.argc, 3);
	assert_string_equal(q.cwd, "/tmp");
	assert_string_equal(q.argv[0], "osd");
	assert_string_equal(q.argv[1], "df");
	assert_string_equal(q.argv[2], "");
	assert_null(q.argv[3]);
	asok_req_free(&q);
	assert_null(q.argv);
}

static void test_bad_requests(void **state)
{
	struct msg m;
	struct asok_req q;

	(void)state;
	m = request(1, "/", 1);
	memcpy(m.b, "CFSX", 4);
	put_str(&m, "status", 6);
	assert_int_equal(read_req(&m, &q), -EPROTO);

	m = request(0, "/", 1);
	assert_int_equal(read_req(&m, &q), -EPROTO);
	m = request(257, "/", 1);
	assert_int_equal(read_req(&m, &q), -EPROTO);

	/* cut short anywhere: the client went away */
	m = request(2, "/", 1);
	put_str(&m, "status", 6);
	assert_int_equal(read_req(&m, &q), -EPIPE);
	assert_null(q.argv);
	m.n = 6;
	assert_int_equal(read_req(&m, &q), -EPIPE);

	/* over the limits */
	m = request(1, "/", 1);
	m.n -= 5;
	put_u32(&m, 4097);
	assert_int_equal(read_req(&m, &q), -E2BIG);
	m = request(1, "/", 1);
	put_u32(&m, 65537);
	assert_int_equal(read_req(&m, &q), -E2BIG);

	/* a NUL inside cwd or an argument would cut the C string short */
	m = request(1, "/a\0b", 4);
	put_str(&m, "status", 6);
	assert_int_equal(read_req(&m, &q), -EPROTO);
	m = request(2, "/", 1);
	put_str(&m, "rados", 5);
	put_str(&m, "rm\0x", 4);
	assert_int_equal(read_req(&m, &q), -EPROTO);
	assert_null(q.argv);
	assert_null(q.cwd);
}

static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	assert_non_null(d);
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

/* The magic may carry the client's stdin and stdout (SCM_RIGHTS): a good
 * request keeps them, a bad one closes them. */
static void test_passed_fds(void **state)
{
	struct msg m = request(1, "/", 1);
	struct asok_req q;
	int sv[2], pv[2], fds[2];

	int before = open_fds();

	(void)state;
	put_str(&m, "rados", 5);
	for (int bad = 0; bad < 2; bad++) {
		assert_int_equal(pipe(pv), 0);
		fds[0] = pv[0];
		fds[1] = pv[1];
		assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
		assert_int_equal(cfs_send_fds(sv[1], m.b, 4, fds, 2), 0);
		/* a bad request: cut short after the magic */
		if (!bad)
			assert_int_equal(write(sv[1], m.b + 4, m.n - 4),
					 (ssize_t)(m.n - 4));
		close(sv[1]);
		close(pv[0]);
		close(pv[1]);
		if (bad) {
			assert_int_equal(asok_read_request(sv[0], &q), -EPIPE);
			assert_int_equal(q.nfds, 0);
		} else {
			assert_int_equal(asok_read_request(sv[0], &q), 0);
			assert_int_equal(q.nfds, 2);
			assert_string_equal(q.argv[0], "rados");
			/* the received read end works: its writer is q.fds[1] */
			assert_int_equal(write(q.fds[1], "x", 1), 1);
			assert_int_equal(read(q.fds[0], fds, 1), 1);
			asok_req_free(&q);
		}
		close(sv[0]);
		assert_int_equal(open_fds(), before);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_request),
		cmocka_unit_test(test_bad_requests),
		cmocka_unit_test(test_passed_fds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
