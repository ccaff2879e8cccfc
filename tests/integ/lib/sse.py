#!/usr/bin/env python3
"""A server-sent events client for the dashboard tests (stdlib only).

sse.py PORT PATH [--basic USER PASS | --bearer TOKEN] [--until REGEX]
       [--timeout S] [--count N]

Connects to 127.0.0.1:PORT, prints each event as one line "EVENT<TAB>DATA"
(flushed), and exits 0 once a line matches REGEX (or after N events with
--count), 1 when the stream ends or S seconds (default 60) pass first.
A non-200 answer prints "HTTP STATUS" and exits 2.
"""
import base64
import re
import socket
import sys
import time


def main():
    a = sys.argv[1:]
    port, path = int(a[0]), a[1]
    headers, until, timeout, count = {}, None, 60.0, None
    i = 2
    while i < len(a):
        if a[i] == "--basic":
            tok = base64.b64encode(("%s:%s" % (a[i + 1], a[i + 2])).encode())
            headers["Authorization"] = "Basic " + tok.decode()
            i += 3
        elif a[i] == "--bearer":
            headers["Authorization"] = "Bearer " + a[i + 1]
            i += 2
        elif a[i] == "--until":
            until = re.compile(a[i + 1])
            i += 2
        elif a[i] == "--timeout":
            timeout = float(a[i + 1])
            i += 2
        elif a[i] == "--count":
            count = int(a[i + 1])
            i += 2
        else:
            sys.exit("sse.py: unknown argument " + a[i])
    deadline = time.monotonic() + timeout
    # HTTP/1.0: the stream comes as it is, not chunked, until closed
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    req = "GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\n" % path
    for k, v in headers.items():
        req += "%s: %s\r\n" % (k, v)
    s.sendall((req + "\r\n").encode())
    f = s.makefile("rb")
    status = f.readline().split()
    if len(status) < 2 or status[1] != b"200":
        print("HTTP %s" % (status[1].decode() if len(status) > 1 else "?"))
        sys.exit(2)
    while f.readline() not in (b"\r\n", b"\n", b""):
        pass
    event, data, n = "message", [], 0
    while time.monotonic() < deadline:
        s.settimeout(max(0.1, deadline - time.monotonic()))
        try:
            line = f.readline()
        except OSError:
            break
        if not line:
            break
        line = line.decode().rstrip("\n")
        if line == "":
            if data:
                out = "%s\t%s" % (event, "\n".join(data))
                print(out, flush=True)
                n += 1
                if until and until.search(out):
                    sys.exit(0)
                if count is not None and n >= count:
                    sys.exit(0)
            event, data = "message", []
        elif line.startswith("event:"):
            event = line[6:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].lstrip(" "))
    sys.exit(1)


main()
