Crush map parse errors through `crushfs crush test`: the parser's one line
(FILE:LINE:COL: error: ...) on stderr, nothing on stdout, exit status 1.
Every map here is refused by `crushtool -c` too, except negative weights
(undefined behaviour in crushtool) and buckets of type 0, which crushtool
compiles but cannot map (see below).

A header shared by the small maps below.

  $ cat > hdr <<'EOF'
  > device 0 osd.0
  > device 1 osd.1
  > type 0 osd
  > type 1 host
  > type 2 root
  > EOF
  $ mk() { cat hdr - > "$1"; }

A good map first, to show the command itself works.

  $ mk good.txt <<'EOF'
  > host a { alg straw2 item osd.0 item osd.1 weight 0.5 }
  > rule r { id 0 type replicated min_size 1 max_size 3 step take a step choose firstn 0 type osd step emit }
  > EOF
  $ crushfs crush test -i good.txt --num-rep 2 --x 3 --show-mappings 2>&1
  CRUSH rule 0 x 3 [0,1]

Syntax: what was expected, where.

  $ mk brace.txt <<'EOF'
  > host h alg straw2 }
  > EOF
  $ crushfs crush test -i brace.txt --show-mappings 2>&1
  brace.txt:6:8: error: expected '{'
  [1]

  $ mk noalg.txt <<'EOF'
  > host a { item osd.0 }
  > EOF
  $ crushfs crush test -i noalg.txt --show-mappings 2>&1
  noalg.txt:6:10: error: expected 'id' or 'alg'
  [1]

  $ mk weight.txt <<'EOF'
  > host a { alg straw2 item osd.0 weight heavy }
  > EOF
  $ crushfs crush test -i weight.txt --show-mappings 2>&1
  weight.txt:6:39: error: expected a number
  [1]

  $ mk minsize.txt <<'EOF'
  > host a { alg straw2 item osd.0 }
  > rule x { id 0 type replicated max_size 3 step take a step emit }
  > EOF
  $ crushfs crush test -i minsize.txt --show-mappings 2>&1
  minsize.txt:7:31: error: expected 'min_size'
  [1]

  $ mk step.txt <<'EOF'
  > host a { alg straw2 item osd.0 }
  > rule x { id 0 type replicated min_size 1 max_size 3 step take a step chose firstn 0 type osd step emit }
  > EOF
  $ crushfs crush test -i step.txt --show-mappings 2>&1
  step.txt:7:70: error: unknown rule step 'chose'
  [1]

  $ mk stray.txt <<'EOF'
  > host a { alg straw2 item osd.0 }
  > }
  > EOF
  $ crushfs crush test -i stray.txt --show-mappings 2>&1
  stray.txt:7:1: error: expected a bucket or rule
  [1]

Unterminated sections and truncated files.

  $ mk eof.txt <<'EOF'
  > host a {
  >     alg straw2
  >     item osd.0 weight 1.0
  > EOF
  $ crushfs crush test -i eof.txt --show-mappings 2>&1
  eof.txt:8:26: error: unexpected end of file in bucket 'a' (expected 'pos', 'item' or '}')
  [1]

  $ mk eofrule.txt <<'EOF'
  > host a { alg straw2 item osd.0 }
  > rule x { id 0 type replicated min_size 1 max_size 3 step take a step emit
  > EOF
  $ crushfs crush test -i eofrule.txt --show-mappings 2>&1
  eofrule.txt:7:74: error: unexpected end of file in rule 'x' (expected 'step' or '}')
  [1]

Sections in the wrong order.

  $ mk late.txt <<'EOF'
  > host a { alg straw2 item osd.0 }
  > device 2 osd.2
  > EOF
  $ crushfs crush test -i late.txt --show-mappings 2>&1
  late.txt:7:1: error: 'device' lines must come before buckets and rules
  [1]

  $ mk afterrule.txt <<'EOF'
  > host a { alg straw2 item osd.0 }
  > rule x { id 0 type replicated min_size 1 max_size 3 step take a step emit }
  > host b { alg straw2 item osd.1 }
  > EOF
  $ crushfs crush test -i afterrule.txt --show-mappings 2>&1
  afterrule.txt:8:1: error: bucket 'b' must be defined before the rules
  [1]

Unknown names.

  $ mk item.txt <<'EOF'
  > root r { alg straw2 item host9 }
  > EOF
  $ crushfs crush test -i item.txt --show-mappings 2>&1
  item.txt:6:26: error: unknown bucket or device 'host9'
  [1]

  $ mk type.txt <<'EOF'
  > rack r { alg straw2 item osd.0 }
  > EOF
  $ crushfs crush test -i type.txt --show-mappings 2>&1
  type.txt:6:1: error: unknown type 'rack'
  [1]

  $ mk ruletype.txt <<'EOF'
  > host a { alg straw2 item osd.0 }
  > rule x { id 0 type replicated min_size 1 max_size 3 step take a step chooseleaf firstn 0 type rack step emit }
  > EOF
  $ crushfs crush test -i ruletype.txt --show-mappings 2>&1
  ruletype.txt:7:95: error: unknown type 'rack'
  [1]

  $ printf 'tunable choose_totl_tries 50\ndevice 0 osd.0\n' > tunable.txt
  $ crushfs crush test -i tunable.txt --show-mappings 2>&1
  tunable.txt:1:9: error: unknown tunable 'choose_totl_tries'
  [1]

  $ mk alg.txt <<'EOF'
  > host a { alg straw3 item osd.0 }
  > EOF
  $ crushfs crush test -i alg.txt --show-mappings 2>&1
  alg.txt:6:14: error: unknown alg 'straw3' (expected uniform, list, tree, straw or straw2)
  [1]

A bucket used before its definition: crushtool reorders buckets in simple
cases, but not in this one.

  $ mk order.txt <<'EOF'
  > root r { alg straw2 item a item b }
  > host a { alg straw2 item osd.0 }
  > host b { alg straw2 item osd.1 }
  > EOF
  $ crushfs crush test -i order.txt --show-mappings 2>&1
  order.txt:6:26: error: bucket 'a' must be defined before bucket 'r'
  [1]

Duplicates.

  $ mk dupid.txt <<'EOF'
  > host a { id -3 alg straw2 item osd.0 }
  > host b { id -3 alg straw2 item osd.1 }
  > EOF
  $ crushfs crush test -i dupid.txt --show-mappings 2>&1
  dupid.txt:7:13: error: duplicate bucket id -3
  [1]

  $ mk twice.txt <<'EOF'
  > host a { alg straw2 item osd.0 }
  > host a { alg straw2 item osd.1 }
  > EOF
  $ crushfs crush test -i twice.txt --show-mappings 2>&1
  twice.txt:7:6: error: bucket 'a' defined twice
  [1]

  $ mk duprule.txt <<'EOF'
  > host a { alg straw2 item osd.0 }
  > rule x { id 0 type replicated min_size 1 max_size 3 step take a step emit }
  > rule y { id 0 type replicated min_size 1 max_size 3 step take a step emit }
  > EOF
  $ crushfs crush test -i duprule.txt --show-mappings 2>&1
  duprule.txt:8:13: error: duplicate rule id 0
  [1]

  $ mk pos.txt <<'EOF'
  > host a { alg tree item osd.0 pos 1 item osd.1 pos 1 }
  > EOF
  $ crushfs crush test -i pos.txt --show-mappings 2>&1
  pos.txt:6:51: error: pos 1 is already used in bucket 'a'
  [1]

Weights.

  $ mk neg.txt <<'EOF'
  > host a { alg straw2 item osd.0 weight -1 }
  > EOF
  $ crushfs crush test -i neg.txt --show-mappings 2>&1
  neg.txt:6:39: error: weight must be a non-negative number
  [1]

  $ mk heavy.txt <<'EOF'
  > host a { alg straw2 item osd.0 weight 100.5 }
  > EOF
  $ crushfs crush test -i heavy.txt --show-mappings 2>&1
  heavy.txt:6:39: error: device weight limited to 100
  [1]

  $ mk uniform.txt <<'EOF'
  > host a { alg uniform item osd.0 weight 1 item osd.1 weight 2 }
  > EOF
  $ crushfs crush test -i uniform.txt --show-mappings 2>&1
  uniform.txt:6:60: error: item 'osd.1' in uniform bucket 'a' has weight 2 but previous items have 1; uniform bucket items must all have the same weight
  [1]

A bucket of type 0, the devices' type (issue 8): two names for type 0 made
a host bucket count as a device, and the mapper read its reweight at
weight[-1] (ASan: heap-buffer-overflow; the release build printed []).
crushtool 16.2 compiles such a map and maps it by reading before its
weight vector (empty sets, bucket ids, duplicates, a segfault), so it is
refused here, as `ceph osd crush add-bucket` refuses type 0.

  $ cat > type0.txt <<'EOF'
  > device 0 osd.0
  > device 1 osd.1
  > type 0 osd
  > type 0 host
  > type 1 root
  > host h { alg straw2 item osd.0 item osd.1 }
  > root r { alg straw2 item h }
  > rule x { id 0 type replicated min_size 1 max_size 3 step take r step chooseleaf firstn 0 type host step emit }
  > EOF
  $ crushfs crush test -i type0.txt --num-rep 2 --show-mappings 2>&1
  type0.txt:6:1: error: bucket 'h': type 'host' is for devices, not buckets (its id is 0)
  [1]

Two names for type 0 are fine while no bucket has that type; both names
work in rules, as in crushtool (whose output this is).

  $ sed -e '/^host h/d' -e 's/^root r.*/root r { alg straw2 item osd.0 item osd.1 }/' type0.txt > type0ok.txt
  $ crushfs crush test -i type0ok.txt --num-rep 2 --min-x 0 --max-x 3 --show-mappings 2>&1
  CRUSH rule 0 x 0 [0,1]
  CRUSH rule 0 x 1 [0,1]
  CRUSH rule 0 x 2 [1,0]
  CRUSH rule 0 x 3 [0,1]

A bucket that lists itself (crushtool: "item 'a' in bucket 'a' is not
defined").

  $ mk self.txt <<'EOF'
  > host a { alg straw2 item osd.0 item a }
  > EOF
  $ crushfs crush test -i self.txt --show-mappings 2>&1
  self.txt:6:37: error: bucket 'a' contains itself
  [1]

Numbers that do not fit an int.

  $ mk big.txt <<'EOF'
  > host a { id -99999999999 alg straw2 item osd.0 }
  > EOF
  $ crushfs crush test -i big.txt --show-mappings 2>&1
  big.txt:6:13: error: number -99999999999 is out of range (integer overflow)
  [1]

Device classes: what crushtool refuses (a class no device or bucket
names, a take of something without shadow trees, one class twice in a
bucket).

  $ printf 'device 0 osd.0 class hdd\ndevice 1 osd.1 class ssd\ntype 0 osd\ntype 1 host\nhost a { alg straw2 item osd.0 item osd.1 }\n' > class.txt
  $ { cat class.txt; echo 'rule x { id 0 type replicated min_size 1 max_size 3 step take a class nvme step emit }'; } > nvme.txt
  $ crushfs crush test -i nvme.txt --show-mappings 2>&1
  nvme.txt:6:71: error: in rule 'x' step take a: device class 'nvme' does not exist
  [1]
  $ { cat class.txt; echo 'rule x { id 0 type replicated min_size 1 max_size 3 step take osd.0 class hdd step emit }'; } > dev.txt
  $ crushfs crush test -i dev.txt --show-mappings 2>&1
  dev.txt:6:63: error: in rule 'x' step take osd.0 has no class information
  [1]
  $ mk shadow.txt <<'EOF'
  > host a { id -1 id -5 class hdd id -6 class hdd alg straw2 item osd.0 }
  > EOF
  $ crushfs crush test -i shadow.txt --show-mappings 2>&1
  shadow.txt:6:44: error: duplicate device class hdd for bucket a
  [1]

A class rule maps through the class's shadow tree only:

  $ { cat class.txt; echo 'rule x { id 0 type replicated min_size 1 max_size 3 step take a class ssd step choose firstn 0 type osd step emit }'; } > ssd.txt
  $ crushfs crush test -i ssd.txt --num-rep 2 --min-x 0 --max-x 3 --show-mappings
  CRUSH rule 0 x 0 [1]
  CRUSH rule 0 x 1 [1]
  CRUSH rule 0 x 2 [1]
  CRUSH rule 0 x 3 [1]

choose_args: a weight set per replica position (the last one serves the
positions past it) and replacement hash ids, for straw2 buckets.  A weight
set moves the mapping; crushtool --test uses set 0, else the default one
(crushtool -d prints its id -1 as 18446744073709551615, which reads back as
-1):

  $ mk plain.txt <<'EOF'
  > host a { alg straw2 item osd.0 item osd.1 }
  > rule x { id 0 type replicated min_size 1 max_size 3 step take a step choose firstn 0 type osd step emit }
  > EOF
  $ { cat plain.txt; echo 'choose_args 18446744073709551615 { { bucket_id -1 weight_set [ [ 0.0 1.0 ] [ 1.0 0.0 ] ] } }'; } > cargs.txt
  $ crushfs crush test -i plain.txt --num-rep 2 --min-x 0 --max-x 1 --show-mappings
  CRUSH rule 0 x 0 [0,1]
  CRUSH rule 0 x 1 [0,1]
  $ crushfs crush test -i cargs.txt --num-rep 2 --min-x 0 --max-x 1 --show-mappings
  CRUSH rule 0 x 0 [1,0]
  CRUSH rule 0 x 1 [1,0]
  $ crushfs crush decompile cargs.txt | sed -n '/# choose_args/,$p'
  # choose_args
  choose_args 18446744073709551615 {
    {
      bucket_id -1
      weight_set [
        [ 0.000 1.000 ]
        [ 1.000 0.000 ]
      ]
    }
  }
  
  # end crush map

What crushtool refuses, and a negative weight (undefined there):

  $ { cat plain.txt; echo 'choose_args 1 { { bucket_id -7 ids [ 1 ] } }'; } > e.txt
  $ crushfs crush test -i e.txt --show-mappings
  e.txt:8:29: error: choose_args bucket_id -7 does not exist
  [1]
  $ { cat plain.txt; echo 'choose_args 1 { { bucket_id -9 ids [ 1 ] } }'; } > e.txt
  $ crushfs crush test -i e.txt --show-mappings
  e.txt:8:29: error: choose_args bucket_id -9 is out of range
  [1]
  $ { cat plain.txt; echo 'choose_args 1 { { bucket_id -1 weight_set [ [ 1 2 3 ] ] } }'; } > e.txt
  $ crushfs crush test -i e.txt --show-mappings
  e.txt:8:32: error: bucket -1 needs exactly 2 weights but weight_set row 1 has 3
  [1]
  $ { cat plain.txt; echo 'choose_args 1 { { bucket_id -1 ids [ 5 ] } }'; } > e.txt
  $ crushfs crush test -i e.txt --show-mappings
  e.txt:8:32: error: bucket -1 needs exactly 2 ids but got 1
  [1]
  $ { cat plain.txt; echo 'choose_args 1 { } choose_args 1 { }'; } > e.txt
  $ crushfs crush test -i e.txt --show-mappings
  e.txt:8:31: error: choose_args 1 defined twice
  [1]
  $ { cat plain.txt; echo 'choose_args 1 { { bucket_id -1 weight_set [ [ 1 -2 ] ] } }'; } > e.txt
  $ crushfs crush test -i e.txt --show-mappings
  e.txt:8:49: error: weight must be a non-negative number
  [1]
  $ { cat plain.txt; echo 'choose_args 1 { } rule y { id 1 type replicated step take a step emit }'; } > e.txt
  $ crushfs crush test -i e.txt --show-mappings
  e.txt:8:19: error: expected choose_args (nothing else may follow choose_args)
  [1]

A binary map is recognised by its magic wherever a map is read; one cut
short says where:

  $ printf '\000\000\001\000' > binary.txt
  $ crushfs crush test -i binary.txt --show-mappings 2>&1
  binary.txt: truncated at byte 4: max_buckets (4 bytes needed, 0 left)
  [1]
  $ crushfs crush compile "$TESTDIR/maps/small.txt" -o small.bin
  $ crushfs crush test -i small.bin --rule 0 --num-rep 2 --x 1 --show-mappings
  CRUSH rule 0 x 1 [*] (glob)
  $ crushfs crush decompile small.bin | head -1
  # begin crush map
  $ head -c 100 small.bin > cut.bin
  $ crushfs crush decompile cut.bin
  cut.bin: truncated at byte * (glob)
  [1]

Files that cannot be read.

  $ crushfs crush test -i missing.txt --show-mappings 2>&1
  missing.txt: cannot read: No such file or directory
  [1]
  $ mkdir dir.txt
  $ crushfs crush test -i dir.txt --show-mappings 2>&1
  dir.txt: cannot read: Is a directory
  [1]

A map file is mapped, not read: past 4 GiB it is refused before any of it
is read (statements keep 32-bit offsets), and a syntax error near the top
of a big map is found without reading the rest.

  $ truncate -s 5G huge.txt
  $ crushfs crush test -i huge.txt --show-mappings 2>&1
  huge.txt: 5368709120 bytes: a crush map is at most 4 GiB
  [1]
  $ rm huge.txt
  $ { printf 'device 0 osd.0\nhost h { ! }\n'; head -c 50000000 /dev/zero | tr '\0' '#'; } > top.txt
  $ crushfs crush test -i top.txt --show-mappings 2>&1
  top.txt:2:10: error: expected 'id' or 'alg'
  [1]

The same text from a pipe (read, not mapped) gives the same answers.

  $ printf 'device 0 osd.0\nhost h { ! }\n' | crushfs crush test -i /dev/stdin --show-mappings 2>&1
  /dev/stdin:2:10: error: expected 'id' or 'alg'
  [1]
