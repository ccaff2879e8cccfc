/*
 * test_adminsock.c - the admin socket's request reader (fs/adminsock.c
 * asok_read_request), fed through a socket pair as a client would send.
 * tests/fuzz/fuzz_adminsock.c fuzzes the same function.
 */
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_request),
		cmocka_unit_test(test_bad_requests),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
