#!/usr/bin/env python3
"""Regenerate tests/cli/crush_test.t and tests/cli/osdmap.t.

Every expected output that Ceph's tools can produce is produced here by
them, never by crushfs:

  crush test ARGS     <- crushtool -i MAP.bin --test ARGS   (stdout, status)
  crush compare ...   <- crushtool -i A.bin --compare B.bin ...
  osdmap ...          <- osdmaptool on an osdmap made with
                         --createsimple <max_devices> --with-default-pool
                         [--pg-bits B] [--pgp-bits B] [--osd_pool_default_size R]
                         then --import-crush MAP.bin (pool 1), run with
                         --mark-up-in --test-map-object / --test-map-pgs-dump
                         [--pg_num N]

Lines only crushfs prints (its own errors and warnings) are written out
below as literal expectations.  Needs crushtool and osdmaptool (Ceph 16.2,
Debian's ceph-base).  Run from anywhere:

    python3 tests/cli/maps/regen.py

then review `git diff tests/cli`.
"""
import os
import re
import subprocess
import sys
import tempfile

MAPS = os.path.dirname(os.path.abspath(__file__))
CLI = os.path.dirname(MAPS)
TMP = tempfile.mkdtemp(prefix='crushfs-regen.')

# ---- cram formatting (as cram/_test.py escapes output lines) ----
_needescape = re.compile(rb'[\x00-\x09\x0b-\x1f\x7f-\xff]').search
_escapesub = re.compile(rb'[\x00-\x09\x0b-\x1f\\\x7f-\xff]').sub
_escapemap = {bytes([i]): (r'\x%02x' % i).encode() for i in range(256)}
_escapemap.update({b'\\': b'\\\\', b'\r': rb'\r', b'\t': rb'\t'})


def cram_lines(out):
    res = []
    for line in out.splitlines(keepends=True):
        if not line.endswith(b'\n'):
            line += b' (no-eol)\n'
        elif _needescape(line):
            line = _escapesub(lambda m: _escapemap[m.group(0)],
                              line[:-1]) + b' (esc)\n'
        res.append(b'  ' + line)
    return b''.join(res)


def sh(cmd):
    p = subprocess.run(['bash', '-c', cmd], cwd=MAPS, stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL)
    return p.stdout, p.returncode


# ---- oracles ----
def bin_of(name):
    out = os.path.join(TMP, name + '.bin')
    if not os.path.exists(out):
        subprocess.run(['crushtool', '-c', os.path.join(MAPS, name + '.txt'),
                        '-o', out], check=True, stdout=subprocess.DEVNULL)
    return out


def max_devices(name):
    """Highest declared device id + 1 (crushtool -d lists every device)."""
    txt = subprocess.run(['crushtool', '-d', bin_of(name)], check=True,
                         stdout=subprocess.PIPE).stdout.decode()
    ids = [int(l.split()[1]) for l in txt.splitlines()
           if l.startswith('device ')]
    return max(ids) + 1 if ids else 1


def om_of(name, pg_bits, pgp_bits, size):
    out = os.path.join(TMP, '%s-%d-%d-%d.om' % (name, pg_bits, pgp_bits, size))
    if not os.path.exists(out):
        n = max_devices(name)
        subprocess.run(['osdmaptool', '--createsimple', str(n),
                        '--with-default-pool', '--pg-bits', str(pg_bits),
                        '--pgp-bits', str(pgp_bits),
                        '--osd_pool_default_size', str(size), '--clobber',
                        out], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        subprocess.run(['osdmaptool', out, '--import-crush', bin_of(name)],
                       check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    return out


def subst(cmd):
    """{bin:NAME} -> compiled map; {om:NAME:PGBITS:PGPBITS:SIZE} -> osdmap."""
    cmd = re.sub(r'\{bin:([\w-]+)\}', lambda m: bin_of(m.group(1)), cmd)
    return re.sub(r'\{om:([\w-]+):(\d+):(\d+):(\d+)\}',
                  lambda m: om_of(m.group(1), int(m.group(2)),
                                  int(m.group(3)), int(m.group(4))), cmd)


def block(cmd, out, rc):
    t = b'  $ ' + cmd.encode() + b'\n' + cram_lines(out)
    if rc:
        t += b'  [%d]\n' % rc
    return t


# ---- the cases ----
# ('#', text)                       a comment paragraph
# ('o', crushfs_cmd, oracle_cmd)    expected = the oracle's stdout and status
# ('l', crushfs_cmd, text, status)  expected written out (crushfs's own lines)
def generate(cases, header):
    t = header.encode()
    for c in cases:
        if c[0] == '#':
            t += b'\n' + c[1].strip().encode() + b'\n\n'
        elif c[0] == 'o':
            out, rc = sh(subst(c[2]))
            t += block(c[1], out, rc)
        else:
            t += block(c[1], c[2].encode(), c[3])
    return t


def ct(args, mapname='small', err='2>/dev/null'):
    """crush test case: crushfs and crushtool with the same flags."""
    return ('o', 'crushfs crush test -i %s.txt %s %s' % (mapname, args, err),
            'crushtool -i {bin:%s} --test %s' % (mapname, args))


def cmp(a, b, args=''):
    return ('o', 'crushfs crush compare -i %s.txt --compare %s.txt %s 2>/dev/null'
            % (a, b, args) if args else
            'crushfs crush compare -i %s.txt --compare %s.txt 2>/dev/null' % (a, b),
            'crushtool -i {bin:%s} --compare {bin:%s} %s' % (a, b, args))


def obj(name, mapname, pg_bits, pgp_bits, size, extra=''):
    n = max_devices(mapname)
    pg, pgp = n << pg_bits, n << min(pgp_bits, pg_bits)
    return ('o', "crushfs osdmap test-map-object %s --crush %s.txt --pool 1 "
            "--pg-num %d --pgp-num %d --size %d%s" % (name, mapname, pg, pgp,
                                                      size, extra),
            "osdmaptool {om:%s:%d:%d:%d} --mark-up-in --test-map-object %s "
            "--pool 1 | grep \"^ object '\"" % (mapname, pg_bits, pgp_bits,
                                               size, name))


def dump(mapname, pg_bits, pgp_bits, size, pg_num=None, short=False):
    n = max_devices(mapname)
    pg, pgp = n << pg_bits, n << min(pgp_bits, pg_bits)
    over = ''
    if pg_num is not None:
        pg, over = pg_num, ' --pg_num %d' % pg_num
    args = '--crush %s.txt --pool 1 --pg-num %d' % (mapname, pg)
    if pgp != pg or pg_num is not None:
        args += ' --pgp-num %d' % pgp
    if size != 3:
        args += ' --size %d' % size
    return ('o', 'crushfs osdmap test-map-pgs-dump ' + args,
            'osdmaptool {om:%s:%d:%d:%d} --mark-up-in --test-map-pgs-dump '
            '--pool 1%s' % (mapname, pg_bits, pgp_bits, size, over))


HEADER_CRUSH = """\
crushfs crush test / crush compare: stdout and exit status of Ceph 16.2's
`crushtool -i MAP.bin --test ...` and `crushtool -i A.bin --compare B.bin`.
Generated by maps/regen.py: expected outputs come from crushtool itself,
except crushfs's own error lines.

  $ cd "$TESTDIR/maps"
"""

CRUSH = [
    ('#', 'Mappings for a fixed x range and replica count.'),
    ct('--rule 0 --num-rep 3 --min-x 0 --max-x 9 --show-mappings'),
    ('#', 'All rules, each with num_rep from its min_size to max_size.'),
    ct('--x 7 --show-mappings'),
    ('#', 'Long option spellings crushtool accepts: --opt=value and _ for -.'),
    ct('--rule=0 --num_rep=2 --x=4 --show_mappings'),
    ('#', 'Statistics over the default x range 0..1023; no rule 1 ("dne").'),
    ct('--show-statistics'),
    ('#', 'Quirk: x is 0..1023 unless both --min-x and --max-x are >= 0,\n'
          'so --max-x 3 alone (or --min-x alone, or a negative --x) still\n'
          'maps 1024 inputs.'),
    ct('--rule 0 --num-rep 2 --max-x 3 --show-statistics'),
    ct('--rule 2 --min-x 1000 --show-statistics'),
    ct('--rule 0 --num-rep 1 --x -5 --show-statistics'),
    ('#', 'The last --x/--min-x/--max-x wins, as in crushtool.'),
    ct('--rule 0 --num-rep 1 --min-x 0 --x 10 --max-x 12 --show-mappings'),
    ('#', 'An empty range maps nothing; expected counts go negative.'),
    ct('--rule 0 --num-rep 2 --min-x 5 --max-x 2 --show-utilization-all'),
    ('#', 'Utilization implies statistics; expected counts are float math\n'
          'printed with 6 significant digits.'),
    ct('--rule 0 --num-rep 3 --min-x 0 --max-x 99 --show-utilization'),
    ct('--rule 2 --num-rep 4 --min-x 0 --max-x 99 --show-utilization'),
    ('#', '--weight OSD W: (int)(W * 0x10000) clamped to 0..0x10000; a\n'
          'weight of 0 marks the OSD out.'),
    ct('--rule 0 --num-rep 2 --min-x 0 --max-x 99 --weight 3 0.5 '
       '--weight 1 0 --show-utilization-all'),
    ct('--rule 0 --num-rep 3 --min-x 0 --max-x 9 --weight 3 0.3 '
       '--weight 0 0 --show-mappings'),
    ('#', 'The reweight vector goes to stderr with --show-utilization-all:\n'
          '0.3 -> 0x4ccc, 1e10 and nan -> 0 (x86 float-to-int), 2 -> 0x10000;\n'
          'ids past max_devices are ignored, the last --weight of an id wins.'),
    ('o', 'crushfs crush test -i small.txt --rule 0 --num-rep 1 --x 0 '
          '--weight 0 0.3 --weight 1 1e10 --weight 2 nan --weight 3 2 '
          '--weight 4 0.9 --weight 4 0.25 --weight 9 0.5 '
          '--show-utilization-all >/dev/null',
     'crushtool -i {bin:small} --test --rule 0 --num-rep 1 --x 0 '
     '--weight 0 0.3 --weight 1 1e10 --weight 2 nan --weight 3 2 '
     '--weight 4 0.9 --weight 4 0.25 --weight 9 0.5 '
     '--show-utilization-all 2>&1 >/dev/null'),
    ('#', 'crushtool reads W with atof(): crushfs does too (same stdout and\n'
          'status) but warns.'),
    ct('--rule 0 --num-rep 2 --x 1 --weight 3 abc --weight 4 0.5x '
       '--show-mappings'),
    ('l', 'crushfs crush test -i small.txt --rule 0 --num-rep 2 --x 1 '
          '--weight 3 abc --show-mappings >/dev/null',
     "crushfs: crush test: --weight: warning: 'abc' is not a number, using 0 "
     "as crushtool does\n", 0),
    ('#', 'Bad mappings: fewer results than num_rep (3 hosts), or holes.'),
    ct('--rule 0 --num-rep 4 --min-x 0 --max-x 4 --show-bad-mappings'),
    ct('--rule 2 --num-rep 4 --min-x 0 --max-x 2 --weight 0 0 --weight 1 0 '
       '--weight 2 0 --show-mappings --show-bad-mappings'),
    ('#', '--pool-id N hashes x with the pool id (-1: no hashing).'),
    ct('--rule 0 --num-rep 3 --min-x 0 --max-x 4 --pool-id 3 --show-mappings'),
    ct('--rule 0 --num-rep 3 --min-x 0 --max-x 4 --pool-id -1 --show-mappings'),
    ct('--rule 0 --num-rep 3 --x 7 --pool-id 4294967296 --show-mappings'),
    ('#', 'num_rep 0, a missing rule ("dne" only with statistics), a rule\n'
          'beyond the last one (nothing at all).'),
    ct('--rule 0 --num-rep 0 --x 1 --show-mappings --show-statistics'),
    ct('--rule 1 --show-statistics'),
    ct('--rule 7 --show-statistics --show-mappings'),
    ('#', 'The choose_tries histogram of the whole run.'),
    ct('--rule 2 --num-rep 4 --min-x 0 --max-x 99 --show-choose-tries'),
    ('#', 'Every bucket algorithm, weight-0 OSDs, a device id gap, a device\n'
          'in no bucket, legacy straw; "expected" uses Ceph\'s maximum-\n'
          'affected-by-rule estimate.'),
    ct('--min-x 0 --max-x 63 --show-statistics', 'mixed'),
    ct('--rule 0 --num-rep 3 --min-x 0 --max-x 199 --show-utilization',
       'mixed'),
    ct('--rule 1 --num-rep 4 --min-x 0 --max-x 199 --show-utilization-all',
       'mixed'),
    ct('--rule 3 --num-rep 3 --min-x 0 --max-x 99 --show-utilization', 'mixed'),
    ct('--rule 2 --num-rep 6 --min-x 0 --max-x 7 --show-mappings '
       '--show-bad-mappings', 'mixed'),
    ct('--rule 1 --min-x 0 --max-x 9 --weight 9 0 --weight 10 0 '
       '--show-bad-mappings', 'mixed'),
    ('#', 'No --show-* flag: nothing on stdout, a warning, status 0 (as\n'
          'crushtool).'),
    ct('--rule 0'),
    ('l', 'crushfs crush test -i small.txt --rule 0',
     'crushfs: crush test: warning: no output selected; use --show-mappings, '
     '--show-bad-mappings, --show-statistics, --show-utilization[-all] or '
     '--show-choose-tries\n', 0),

    ('#', 'crush compare: mismatches per rule, status 1 and a warning on\n'
          'stderr when the maps differ.'),
    cmp('small', 'small-reweighted'),
    ('o', 'crushfs crush compare -i small.txt --compare small-reweighted.txt '
          '>/dev/null',
     'crushtool -i {bin:small} --compare {bin:small-reweighted} 2>&1 >/dev/null'),
    cmp('small', 'small-reweighted', '--rule 0 --num-rep 3 --min-x 0 --max-x 99'),
    cmp('small', 'small-reweighted', '--x 5 --weight 5 0.5'),
    cmp('small', 'small', '--show-statistics'),
    cmp('small', 'small-reweighted', '--rule 2 --num-rep 3 --min-x 0 --max-x 20'),
    cmp('small', 'mixed', '--rule 0 --num-rep 2 --min-x 0 --max-x 99'),

    ('#', 'Bad command lines: one line on stderr, status 1.'),
    ('l', 'crushfs crush test --show-mappings',
     'crushfs: crush test: missing -i MAP.txt\n', 1),
    ('l', 'crushfs crush test -i small.txt --show-mappings --bogus',
     "crushfs: crush test: unknown option '--bogus' (see crushfs crush test "
     "--help)\n", 1),
    ('l', 'crushfs crush test -i small.txt --num-rep abc --show-mappings',
     "crushfs: crush test: --num-rep: 'abc' is not a number\n", 1),
    ('l', 'crushfs crush test -i small.txt --rule 1x --show-mappings',
     "crushfs: crush test: --rule: '1x' is not a number\n", 1),
    ('l', 'crushfs crush test -i small.txt --x 2147483648 --show-mappings',
     "crushfs: crush test: --x: '2147483648' is out of range "
     "(-2147483648..2147483647)\n", 1),
    ('l', 'crushfs crush test -i small.txt --show-mappings --max-x',
     'crushfs: crush test: --max-x: missing value\n', 1),
    ('l', 'crushfs crush test -i small.txt --min-x --show-mappings',
     'crushfs: crush test: --min-x: missing value\n', 1),
    ('l', 'crushfs crush test -i small.txt --weight 1x 0.5 --show-mappings',
     "crushfs: crush test: --weight: '1x' is not a number\n", 1),
    ('l', 'crushfs crush test -i small.txt --show-mappings --weight 1',
     'crushfs: crush test: --weight: missing weight after the device id\n', 1),
    ('l', 'crushfs crush test -i small.txt --show-mappings extra',
     "crushfs: crush test: unexpected argument 'extra'\n", 1),
    ('l', 'crushfs -f json crush test -i small.txt --show-mappings',
     'crushfs: crush test: -f json is not supported: the output is the text '
     'of the Ceph tool it mirrors\n', 1),
    ('l', 'crushfs crush compare -i small.txt --rule 0',
     'crushfs: crush compare: missing --compare MAP.txt\n', 1),
    ('l', 'crushfs crush compare -i small.txt --compare small.txt '
          '--show-mappings',
     "crushfs: crush compare: unknown option '--show-mappings' (see crushfs "
     "crush compare --help)\n", 1),
    ('#', 'A missing or malformed map: the parser\'s one line (FILE: ...\n'
          'or FILE:LINE:COL: error: ...) on stderr, status 1, no output.'),
    ('l', 'crushfs crush test -i nope.txt --show-mappings 2>/dev/null', '',
     1),
    ('l', 'crushfs crush test -i nope.txt --show-mappings 2>&1 | '
          "grep -c '^nope.txt: '", '1\n', 0),
    ('l', 'crushfs crush test -i bad.txt --show-mappings 2>/dev/null', '', 1),
    ('l', 'crushfs crush test -i bad.txt --show-mappings 2>&1 | '
          "grep -c '^bad.txt:[0-9]*:[0-9]*: error: '", '1\n', 0),
    ('l', 'crushfs crush compare -i small.txt --compare nope.txt 2>/dev/null',
     '', 1),
]

HEADER_OSDMAP = """\
crushfs osdmap test-map-object / test-map-pgs-dump: what Ceph 16.2's
`osdmaptool OM --mark-up-in --test-map-object NAME --pool 1` (its object
line) and `... --test-map-pgs-dump --pool 1` (its stdout) print for an osdmap
with the crush map, max_osd = the map's max_devices, and one replicated pool
(crush_rule 0, hashpspool).  Generated by maps/regen.py: expected outputs
come from osdmaptool itself, except crushfs's own error lines.

  $ cd "$TESTDIR/maps"
"""

OSDMAP = [
    ('#', 'Objects -> PG (ceph_str_hash_rjenkins, stable_mod) -> OSDs.'),
    obj('foo', 'small', 4, 3, 3),
    obj('10000000000.00000000', 'small', 4, 3, 3),
    obj('rbd_data.1234.0000000000000001', 'small', 4, 3, 3),
    obj("'with space'", 'small', 4, 3, 3),
    ('#', 'Default --pgp-num (= --pg-num) and --size (3).'),
    ('o', 'crushfs osdmap test-map-object foo --crush small.txt --pool 1 '
          '--pg-num 48',
     "osdmaptool {om:small:3:3:3} --mark-up-in --test-map-object foo "
     "--pool 1 | grep \"^ object '\""),
    ('#', 'Pool sizes: more replicas than hosts gives a short set.'),
    obj('foo', 'small', 2, 2, 1),
    obj('foo', 'small', 2, 2, 2),
    obj('bar', 'small', 2, 1, 4),
    obj('bar', 'small', 2, 1, 10),
    ('#', 'Options may come before the name.'),
    ('o', 'crushfs osdmap test-map-object --crush small.txt --pool 1 '
          '--pg-num 48 --pgp-num 48 -- foo',
     "osdmaptool {om:small:3:3:3} --mark-up-in --test-map-object foo "
     "--pool 1 | grep \"^ object '\""),
    ('#', '--mark-up-in gives OSDs of crush weight 0 a weight of 1.0.'),
    obj('obj-7', 'mixed', 3, 3, 3),
    obj('obj-8', 'mixed', 3, 2, 4),
    ('#', 'Rule 0 not replicated (or size out of min_size..max_size): [].'),
    obj('foo', 'nomatch', 1, 1, 3),

    ('#', 'The PG dump: banner, one line per PG (pg, acting, primary), the\n'
          'per-OSD table, and the statistics.'),
    dump('small', 3, 2, 3),
    ('#', 'pg_num not a multiple of the OSD count (osdmaptool --pg_num).'),
    dump('small', 0, 0, 2, pg_num=7),
    ('#', 'Weight-0 OSDs count with crush weight 1 after --mark-up-in.'),
    dump('mixed', 2, 2, 2),
    ('#', 'No PG maps anywhere: sizes 0, 0/0 prints -nan.'),
    dump('nomatch', 1, 1, 3),
    dump('nobuckets', 1, 1, 3),

    ('#', 'Bad command lines: one line on stderr, status 1.'),
    ('l', 'crushfs osdmap test-map-object --crush small.txt --pool 1 '
          '--pg-num 8',
     'crushfs: osdmap test-map-object: missing the object NAME\n', 1),
    ('l', "crushfs osdmap test-map-object '' --crush small.txt --pool 1 "
          '--pg-num 8',
     'crushfs: osdmap test-map-object: the object NAME is empty\n', 1),
    ('l', 'crushfs osdmap test-map-object a b --crush small.txt --pool 1 '
          '--pg-num 8',
     "crushfs: osdmap test-map-object: one object name only ('a', 'b')\n", 1),
    ('l', 'crushfs osdmap test-map-object a --pool 1 --pg-num 8',
     'crushfs: osdmap test-map-object: missing --crush MAP.txt\n', 1),
    ('l', 'crushfs osdmap test-map-pgs-dump --crush small.txt --pg-num 8',
     'crushfs: osdmap test-map-pgs-dump: missing --pool ID\n', 1),
    ('l', 'crushfs osdmap test-map-pgs-dump --crush small.txt --pool 1',
     'crushfs: osdmap test-map-pgs-dump: missing --pg-num N\n', 1),
    ('l', 'crushfs osdmap test-map-pgs-dump --crush small.txt --pool 1 '
          '--pg-num eight',
     "crushfs: osdmap test-map-pgs-dump: --pg-num: 'eight' is not a number\n",
     1),
    ('l', 'crushfs osdmap test-map-pgs-dump --crush small.txt --pool -1 '
          '--pg-num 8',
     "crushfs: osdmap test-map-pgs-dump: --pool: '-1' is out of range "
     "(0..9223372036854775807)\n", 1),
    ('l', 'crushfs osdmap test-map-pgs-dump --crush small.txt --pool 1 '
          '--pg-num 0',
     "crushfs: osdmap test-map-pgs-dump: --pg-num: '0' is out of range "
     "(1..2147483647)\n", 1),
    ('l', 'crushfs osdmap test-map-pgs-dump --crush small.txt --pool 1 '
          '--pg-num 8 --pgp-num 16',
     'crushfs: osdmap test-map-pgs-dump: --pgp-num 16 is more than '
     '--pg-num 8\n', 1),
    ('l', 'crushfs osdmap test-map-pgs-dump --crush small.txt --pool 1 '
          '--pg-num 8 --size 11',
     "crushfs: osdmap test-map-pgs-dump: --size: '11' is out of range "
     "(1..10)\n", 1),
    ('l', 'crushfs osdmap test-map-pgs-dump foo --crush small.txt --pool 1 '
          '--pg-num 8',
     "crushfs: osdmap test-map-pgs-dump: unexpected argument 'foo'\n", 1),
    ('l', 'crushfs osdmap test-map-pgs-dump --crush small.txt --pool 1 '
          '--pg-num 8 --pgp',
     "crushfs: osdmap test-map-pgs-dump: unknown option '--pgp' (see crushfs "
     "osdmap test-map-pgs-dump --help)\n", 1),
    ('#', 'A missing or malformed map.'),
    ('l', 'crushfs osdmap test-map-object foo --crush nope.txt --pool 1 '
          "--pg-num 8 2>&1 | grep -c '^nope.txt: '", '1\n', 0),
    ('l', 'crushfs osdmap test-map-pgs-dump --crush bad.txt --pool 1 '
          '--pg-num 8 2>/dev/null', '', 1),
]


def main():
    for name, header, cases in (('crush_test.t', HEADER_CRUSH, CRUSH),
                                ('osdmap.t', HEADER_OSDMAP, OSDMAP)):
        with open(os.path.join(CLI, name), 'wb') as f:
            f.write(generate(cases, header))
        print('wrote', os.path.join(CLI, name))
    subprocess.run(['rm', '-rf', TMP])


if __name__ == '__main__':
    sys.exit(main())
