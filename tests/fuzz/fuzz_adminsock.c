/*
 * fuzz_adminsock.c - libFuzzer harness for the admin socket's request
 * reader (fs/adminsock.c asok_read_request, what the daemon runs on every
 * connection).
 *
 * Each input is what a client sends: it is written into one end of a
 * socket pair, whose other end the reader reads until it has a request or
 * an error.  An accepted request must encode back, as the client encodes
 * it (fs_admin_call), to exactly the bytes the reader consumed.
 *
 * Built only with -DCRUSHFS_FUZZ=ON and clang (scripts/fuzz.sh).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "fsd_i.h"

/* The socket pair's buffer holds this much without a reader. */
#define FUZZ_MAX_INPUT (128 * 1024)
#define ASOK_MAX_ARGS 256 /* the protocol's limits (adminsock.c) */
#define ASOK_MAX_ARG 65536

static void die(const char *what)
{
	fprintf(stderr, "fuzz_adminsock: %s\n", what);
	abort();
}

static size_t put_str(unsigned char *p, const char *s)
{
	uint32_t n = (uint32_t)strlen(s);

	p[0] = n & 0xff;
	p[1] = (n >> 8) & 0xff;
	p[2] = (n >> 16) & 0xff;
	p[3] = n >> 24;
	memcpy(p + 4, s, n);
	return 4 + (size_t)n;
}

static void check(const struct asok_req *q, const uint8_t *data, size_t size)
{
	unsigned char *enc;
	size_t n = 8;

	if (q->argc < 1 || q->argc > ASOK_MAX_ARGS || !q->cwd || !q->argv ||
	    q->argv[q->argc] || strlen(q->cwd) > 4096 || q->nfds)
		die("request outside the protocol's limits");
	for (uint32_t i = 0; i < q->argc; i++)
		if (!q->argv[i] || strlen(q->argv[i]) > ASOK_MAX_ARG)
			die("argument outside the protocol's limits");
	enc = malloc(size + 1);
	if (!enc)
		die("out of memory");
	memcpy(enc, "CFSA", 4);
	enc[4] = q->argc & 0xff;
	enc[5] = (q->argc >> 8) & 0xff;
	enc[6] = (q->argc >> 16) & 0xff;
	enc[7] = (unsigned char)(q->argc >> 24);
	/* every string came from the input, so the encoding fits in size */
	n += put_str(enc + n, q->cwd);
	for (uint32_t i = 0; i < q->argc; i++) {
		if (n + 4 + strlen(q->argv[i]) > size)
			die("request longer than its input");
		n += put_str(enc + n, q->argv[i]);
	}
	if (n > size || memcmp(enc, data, n))
		die("request does not encode back to the bytes read");
	free(enc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct asok_req q;
	int sv[2], r;
	size_t off = 0;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		die("socketpair failed");
	fcntl(sv[1], F_SETFL, O_NONBLOCK);
	while (off < size) {
		ssize_t w = write(sv[1], data + off, size - off);

		if (w <= 0) { /* the buffer is full: not this input */
			close(sv[0]);
			close(sv[1]);
			return 0;
		}
		off += (size_t)w;
	}
	close(sv[1]); /* the client is done: reads past it see EOF */
	r = asok_read_request(sv[0], &q);
	if (r == 0) {
		check(&q, data, size);
		asok_req_free(&q);
	} else if (q.argv || q.cwd || q.argc || q.nfds) {
		die("a refused request left memory behind");
	} else if (r != -EPROTO && r != -EPIPE && r != -E2BIG &&
		   r != -ENOMEM) {
		die("unexpected error code");
	}
	close(sv[0]);
	return 0;
}
