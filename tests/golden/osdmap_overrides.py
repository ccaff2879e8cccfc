#!/usr/bin/env python3
"""osdmap_overrides.py OSDMAP OVERRIDES - write the entries of OVERRIDES
(the file `crushfs osdmap test-map-* --overrides` reads: lines such as
`ceph osd pg-upmap-items 1.7 3 5`, `osd pg-temp 1.2 1 2`, `osd primary-temp
1.2 4`, `osd pg-upmap 1.3 0 4 8`, `osd primary-affinity osd.3 0.5`) into
the binary OSDMAP that osdmaptool --createsimple wrote (Ceph 16.2's
OSDMap::encode), in place, with the lengths and the crc fixed up.

osdmaptool cannot set these entries itself and a monitor would check or
clean them, so the oracle writes them as they are; `ceph-dencoder type
OSDMap import OSDMAP decode dump_json` shows the result (gen_family.sh
checks it).  Needs python3 only.
"""
import struct
import sys


def crc32c(b, crc=0xffffffff):  # ceph_crc32c(-1, ...): no final xor
    for x in b:
        crc ^= x
        for _ in range(8):
            crc = (crc >> 1) ^ 0x82F63B78 if crc & 1 else crc >> 1
    return crc


class Rd:
    def __init__(self, d, o):
        self.d, self.o = d, o

    def take(self, fmt):
        v = struct.unpack_from(fmt, self.d, self.o)
        self.o += struct.calcsize(fmt)
        return v[0] if len(v) == 1 else v

    def skip(self, n):
        self.o += n


def fail(m):
    sys.exit("osdmap_overrides: " + m)


def parse_overrides(path):
    ents = {}
    aff = {}
    for lineno, line in enumerate(open(path), 1):
        w = line.split("#")[0].split()
        if not w:
            continue
        if w[0] == "ceph":
            w = w[1:]
        if len(w) < 3 or w[0] != "osd":
            fail("%s:%d: not an osd command" % (path, lineno))
        cmd = w[1]
        if cmd == "primary-affinity":
            osd = int(w[2][4:] if w[2].startswith("osd.") else w[2])
            aff[osd] = int(0x10000 * float(w[3]))
            continue
        pool, ps = w[2].split(".")
        key = (int(pool), int(ps, 16))
        ids = [int(x[4:] if x.startswith("osd.") else x) for x in w[3:]]
        e = ents.setdefault(key, {})
        if cmd == "pg-upmap":
            e["upmap"] = ids
        elif cmd == "pg-upmap-items":
            e["items"] = list(zip(ids[0::2], ids[1::2]))
        elif cmd == "pg-temp":
            e["temp"] = ids
        elif cmd == "primary-temp":
            e["ptemp"] = ids[0]
        else:
            fail("%s:%d: unknown command %s" % (path, lineno, cmd))
    return ents, aff


def pg_t(pool, ps):
    return struct.pack("<BqIi", 1, pool, ps, -1)


def enc_map(ents, key, val):
    items = sorted((k, e[key]) for k, e in ents.items() if key in e)
    out = struct.pack("<I", len(items))
    for (pool, ps), v in items:
        out += pg_t(pool, ps) + val(v)
    return out


def vec32(v):
    return struct.pack("<I%di" % len(v), len(v), *v)


def main():
    fn, ov = sys.argv[1], sys.argv[2]
    d = bytearray(open(fn, "rb").read())
    if crc32c(d[:-4]) != struct.unpack_from("<I", d, len(d) - 4)[0]:
        fail("crc is not the last 4 bytes of the map; layout changed?")
    ents, aff = parse_overrides(ov)
    r = Rd(d, 0)
    v, compat, outer_len = r.take("<BBI")
    if (v, compat) != (8, 7):
        fail("outer encoding %d/%d, expected 8/7" % (v, compat))
    client_at = r.o
    cv, ccompat, client_len = r.take("<BBI")
    if cv != 9:
        fail("client section v%d, expected 9" % cv)
    client_end = r.o + client_len
    r.skip(16 + 4 + 8 + 8)                  # fsid epoch created modified
    for _ in range(r.take("<I")):           # pools
        r.skip(8)
        r.skip(2)
        r.skip(r.take("<I"))
    for _ in range(r.take("<I")):           # pool_name
        r.skip(8)
        r.skip(r.take("<I"))
    r.skip(4 + 4)                           # pool_max, flags
    max_osd = r.take("<i")
    if r.take("<I") != max_osd:             # osd_state
        fail("osd_state size")
    r.skip(4 * max_osd)
    if r.take("<I") != max_osd:             # osd_weight
        fail("osd_weight size")
    r.skip(4 * max_osd)
    for _ in range(r.take("<I")):           # client_addrs
        marker = r.take("<B")
        if marker != 2:
            fail("addrvec marker %d" % marker)
        if r.take("<I") != 0:
            fail("an OSD has an address: not a --createsimple map")
    temp_at = r.o
    for what in ("pg_temp", "primary_temp", "osd_primary_affinity"):
        if r.take("<I") != 0:
            fail(what + " is not empty")
    after_aff = r.o
    crush_len = r.take("<I")
    if struct.unpack_from("<I", d, r.o)[0] != 0x00010000:
        fail("no crush map where expected")
    r.skip(crush_len)
    for _ in range(r.take("<I")):           # erasure_code_profiles
        r.skip(r.take("<I"))
        for _ in range(r.take("<I")):
            r.skip(r.take("<I"))
            r.skip(r.take("<I"))
    upmap_at = r.o
    for what in ("pg_upmap", "pg_upmap_items"):
        if r.take("<I") != 0:
            fail(what + " is not empty")
    after_upmap = r.o
    if after_upmap > client_end:
        fail("ran past the client section")

    for osd in aff:
        if not 0 <= osd < max_osd:
            fail("primary-affinity of osd.%d: max_osd is %d" % (osd, max_osd))
    new_temp = enc_map(ents, "temp", vec32) + \
        enc_map(ents, "ptemp", lambda x: struct.pack("<i", x))
    if aff:
        a = [aff.get(i, 0x10000) for i in range(max_osd)]
        new_temp += struct.pack("<I%dI" % max_osd, max_osd, *a)
    else:
        new_temp += struct.pack("<I", 0)
    new_upmap = enc_map(ents, "upmap", vec32) + enc_map(
        ents, "items",
        lambda v: struct.pack("<I", len(v)) +
        b"".join(struct.pack("<ii", a, b) for a, b in v))
    out = d[:temp_at] + new_temp + d[after_aff:upmap_at] + new_upmap + \
        d[after_upmap:]
    grow = len(out) - len(d)
    struct.pack_into("<I", out, client_at + 2, client_len + grow)
    struct.pack_into("<I", out, 2, outer_len + grow)
    struct.pack_into("<I", out, len(out) - 4, crc32c(out[:-4]))
    open(fn, "wb").write(bytes(out))


if __name__ == "__main__":
    main()
