#!/usr/bin/python3
"""record_answers.py CEPH_CONF DEST [NOBJ] - a live Ceph cluster's own answers,
to check crushfs's import against (check_import.sh):
  DEST/osd_map.json  `ceph osd map POOL obj-I -f json` for I < NOBJ (200) in
                     every pool
  DEST/pg_dump.json  `ceph pg dump pgs_brief -f json`
Through the python binding of librados (python3-rados, which the ceph CLI
itself uses): thousands of answers in seconds.  Prints the osdmap epoch the
answers are of; exits 1 if it moved while they were taken."""
import errno
import json
import sys
import time

import rados

conf, dest = sys.argv[1], sys.argv[2]
nobj = int(sys.argv[3]) if len(sys.argv) > 3 else 200
cl = rados.Rados(conffile=conf)
cl.connect(timeout=30)


def transient(r, err):
    """the monitor's passing answers, as ceph_cluster.sh's ceph_transient
    knows them: a client whose first command races its monmap under auth
    none is told "wrong fsid" (EPERM), a busy monitor EAGAIN or a time out"""
    return (-r in (errno.EAGAIN, errno.ETIMEDOUT, errno.EINTR) or
            (-r == errno.EPERM and ("wrong fsid" in err or
                                    "problem getting command" in err)))


def mon(cmd, mgr=False):
    f = cl.mgr_command if mgr else cl.mon_command
    t0 = time.monotonic()
    while True:
        r, out, err = f(json.dumps(cmd), b"")
        if not r:
            return json.loads(out)
        if not transient(r, err) or time.monotonic() - t0 > 60:
            sys.exit("%s: %s" % (cmd["prefix"], err))
        time.sleep(1)  # the interval between two tries


epoch = mon({"prefix": "osd dump", "format": "json"})["epoch"]
answers = []
for pool in cl.list_pools():
    for i in range(nobj):
        answers.append(mon({"prefix": "osd map", "pool": pool,
                            "object": "obj-%d" % i, "format": "json"}))
pgs = mon({"prefix": "pg dump", "dumpcontents": ["pgs_brief"],
           "format": "json"}, mgr=True)
after = mon({"prefix": "osd dump", "format": "json"})["epoch"]
cl.shutdown()
if after != epoch or any(a["epoch"] != epoch for a in answers):
    sys.exit("the osdmap moved from epoch %d to %d meanwhile" % (epoch, after))
with open(dest + "/osd_map.json", "w") as f:
    json.dump(answers, f, indent=0, sort_keys=True)
    f.write("\n")
with open(dest + "/pg_dump.json", "w") as f:
    json.dump(pgs, f)
    f.write("\n")
print(epoch)
