#!/usr/bin/env python3
"""fake_asok.py PATH RECORD - a listener in the admin socket's place, as
a local user who can write the cluster folder could start one (issue 21).

It binds PATH, creates RECORD.ready once it listens, accepts one
connection and reads what the client sends: the request of
fs/adminsock.c ("CFSA" argc cwdlen cwd {len arg}*argc, descriptors
attached to the magic by SCM_RIGHTS).  If a request came, it answers
"CFSR" status 0 with no output, the "done" a command that never ran
would get.  Then it writes RECORD (atomically):

    fds=N bytes=M argv=WORD,WORD...

N: descriptors received, M: request bytes read.  It exits after that
one client; PATH stays (a socket of a process that is gone).
"""
import array
import os
import socket
import sys


def recv_exact(c, n, fds):
    """n bytes (fewer at end of stream), collecting passed descriptors."""
    buf = b""
    while len(buf) < n:
        data, anc, _flags, _addr = c.recvmsg(n - len(buf),
                                             socket.CMSG_SPACE(16 * 4))
        for level, kind, payload in anc:
            if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                a = array.array("i")
                a.frombytes(payload[:len(payload) - len(payload) % 4])
                fds.extend(a)
        if not data:
            break
        buf += data
    return buf


def u32(b):
    return int.from_bytes(b, "little") if len(b) == 4 else -1


def main():
    path, record = sys.argv[1], sys.argv[2]
    lsock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    lsock.bind(path)
    lsock.listen(1)
    with open(record + ".ready", "w"):
        pass
    conn, _ = lsock.accept()
    fds, argv, nbytes = [], [], 0
    magic = recv_exact(conn, 4, fds)
    nbytes += len(magic)
    if magic == b"CFSA":
        argc = u32(recv_exact(conn, 4, fds))
        cwd = recv_exact(conn, max(u32(recv_exact(conn, 4, fds)), 0), fds)
        nbytes += 8 + len(cwd)
        for _ in range(max(argc, 0)):
            arg = recv_exact(conn, max(u32(recv_exact(conn, 4, fds)), 0),
                             fds)
            nbytes += 4 + len(arg)
            argv.append(arg.decode(errors="replace"))
        conn.sendall(b"CFSR" + bytes(12))  # status 0, no out, no err
    for fd in fds:
        os.close(fd)
    with open(record + ".tmp", "w") as f:
        f.write("fds=%d bytes=%d argv=%s\n" % (len(fds), nbytes,
                                                ",".join(argv)))
    os.rename(record + ".tmp", record)
    conn.close()
    lsock.close()


if __name__ == "__main__":
    main()
