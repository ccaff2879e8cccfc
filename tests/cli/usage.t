The crushfs command line: global options, help, dispatch, and errors (one
line on stderr naming the command, exit status 1).

Help goes to stdout with status 0; no command at all prints it on stderr
with status 1.

  $ crushfs --help | head -6
  usage: crushfs [--cluster DIR] [-f json|plain] COMMAND [ARGS...]
  
  global options:
    --cluster DIR   the cluster directory (default $CRUSHFS_CLUSTER, else ./cluster)
    -f, --format F  output format: plain (default), json or json-pretty
    -s              the same as the status command (ceph -s)
  $ crushfs -h | grep -E '^  (crush|osdmap) '
    crush test                 map a range of inputs with a crush map, as `crushtool --test`
    crush compare              count the mappings two crush maps disagree on, as `crushtool --compare`
    crush compile              write the binary crush map, byte-identical to `crushtool -c`
    crush decompile            print a (binary or text) crush map as `crushtool -d` does
    osdmap test-map-object     map an object to its PG and OSDs, as `osdmaptool --mark-up-in --test-map-object`
    osdmap test-map-pgs-dump   map every PG of a pool, as `osdmaptool --mark-up-in --test-map-pgs-dump`
    osdmap upmap               the upmap balancer's plan, as `osdmaptool --mark-up-in --upmap`
    osdmap eval                PGs per OSD against their crush-weight target
  $ crushfs help | head -1
  usage: crushfs [--cluster DIR] [-f json|plain] COMMAND [ARGS...]
  $ crushfs 2>/dev/null
  [1]
  $ crushfs 2>&1 | head -1
  usage: crushfs [--cluster DIR] [-f json|plain] COMMAND [ARGS...]

One command's help.

  $ crushfs crush test --help
  usage: crushfs [--cluster DIR] crush test -i MAP.txt [--rule N] [--num-rep N] [--min-x N] [--max-x N] [--x N] [--weight OSD W]... [--pool-id N] [--show-mappings] [--show-bad-mappings] [--show-statistics] [--show-utilization] [--show-utilization-all] [--show-choose-tries]
  map a range of inputs with a crush map, as `crushtool --test`
  $ crushfs crush compare -h
  usage: crushfs [--cluster DIR] crush compare -i A.txt --compare B.txt [--rule N] [--num-rep N] [--min-x N] [--max-x N] [--x N] [--weight OSD W]... [--show-statistics]
  count the mappings two crush maps disagree on, as `crushtool --compare`
  $ crushfs osdmap test-map-object --help
  usage: crushfs [--cluster DIR] osdmap test-map-object NAME --crush MAP.txt --pool ID --pg-num N [--pgp-num N] [--size R] [--overrides FILE]
  map an object to its PG and OSDs, as `osdmaptool --mark-up-in --test-map-object`
  $ crushfs osdmap test-map-pgs-dump --help
  usage: crushfs [--cluster DIR] osdmap test-map-pgs-dump --crush MAP.txt --pool ID --pg-num N [--pgp-num N] [--size R] [--overrides FILE]
  map every PG of a pool, as `osdmaptool --mark-up-in --test-map-pgs-dump`

Unknown commands and options.

  $ crushfs frobnicate
  crushfs: unknown command 'frobnicate' (see crushfs --help)
  [1]
  $ crushfs crush
  crushfs: crush: missing command (see crushfs crush --help)
  [1]
  $ crushfs osdmap test-map-pg 1.0 2>&1 | head -1
  crushfs: unknown command 'osdmap test-map-pg' (see crushfs osdmap --help)
  $ crushfs --verbose crush test
  crushfs: unknown option '--verbose' (see crushfs --help)
  [1]
  $ crushfs crush test -i "$TESTDIR/maps/small.txt" --show-mapping
  crushfs: crush test: unknown option '--show-mapping' (see crushfs crush test --help)
  [1]

Global options: --cluster DIR (also --cluster=DIR) and -f json|plain, before
the command or among its options.  The placement commands print Ceph's text
only.

  $ crushfs --cluster
  crushfs: --cluster: missing value
  [1]
  $ crushfs --cluster=/nonexistent -f plain crush test -i "$TESTDIR/maps/small.txt" --rule 0 --num-rep 1 --x 0 --show-mappings
  CRUSH rule 0 x 0 [4]
  $ CRUSHFS_CLUSTER=/elsewhere crushfs crush test -i "$TESTDIR/maps/small.txt" --rule 0 --num-rep 1 --x 0 --show-mappings --cluster /x -f plain
  CRUSH rule 0 x 0 [4]
  $ crushfs -f yaml crush test
  crushfs: -f: unknown format 'yaml' (plain, json or json-pretty)
  [1]
  $ crushfs --format=json osdmap test-map-object foo
  crushfs: osdmap test-map-object: -f json is not supported: the output is the text of the Ceph tool it mirrors
  [1]
  $ crushfs crush test -i "$TESTDIR/maps/small.txt" --show-mappings -f json
  crushfs: crush test: -f json is not supported: the output is the text of the Ceph tool it mirrors
  [1]

"--" ends the global options.

  $ crushfs -- --help
  crushfs: unknown command '--help' (see crushfs --help)
  [1]
