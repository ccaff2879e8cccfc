Erasure-code profiles and the rule Ceph makes for one.

  $ crushfs --cluster c mkfs --osd-size 64M --pg-num 16 > /dev/null
  $ crushfs --cluster c osd erasure-code-profile ls
  default
  $ crushfs --cluster c osd erasure-code-profile get default
  k=2
  m=2
  plugin=jerasure
  technique=reed_sol_van

A profile is completed with the plugin's defaults, as `get` shows in Ceph:

  $ crushfs --cluster c osd erasure-code-profile set ec42 k=4 m=2 crush-failure-domain=osd
  $ crushfs --cluster c osd erasure-code-profile get ec42
  crush-device-class=
  crush-failure-domain=osd
  crush-root=default
  jerasure-per-chunk-alignment=false
  k=4
  m=2
  plugin=jerasure
  technique=reed_sol_van
  w=8
  $ crushfs --cluster c osd erasure-code-profile set isa21 plugin=isa k=2 m=1
  $ crushfs --cluster c -f json osd erasure-code-profile get isa21
  {"crush-device-class":"","crush-failure-domain":"host","crush-root":"default","k":"2","m":"1","plugin":"isa","technique":"reed_sol_van"}
  $ crushfs --cluster c osd erasure-code-profile ls
  default
  ec42
  isa21

Setting it again the same way is nothing; differently, it takes --force:

  $ crushfs --cluster c osd erasure-code-profile set ec42 k=4 m=2 crush-failure-domain=osd
  $ crushfs --cluster c osd erasure-code-profile set ec42 k=3 m=2
  crushfs: osd erasure-code-profile set: will not override erasure code profile ec42 because the existing profile is different from the proposed one (--force overrides it)
  [1]
  $ crushfs --cluster c osd erasure-code-profile set ec42 k=3 m=2 --force
  $ crushfs --cluster c osd erasure-code-profile get ec42 | grep -E '^(k|m|crush-failure-domain)='
  crush-failure-domain=host
  k=3
  m=2

What the plugins refuse:

  $ crushfs --cluster c osd erasure-code-profile set bad k=1
  crushfs: osd erasure-code-profile set: k=1 must be >= 2
  [1]
  $ crushfs --cluster c osd erasure-code-profile set bad m=0
  crushfs: osd erasure-code-profile set: m=0 must be >= 1
  [1]
  $ crushfs --cluster c osd erasure-code-profile set bad k=30 m=4
  crushfs: osd erasure-code-profile set: k=30 and m=4: crushfs's Reed-Solomon (GF(2^8) Vandermonde) takes k + m <= 32
  [1]
  $ crushfs --cluster c osd erasure-code-profile set bad plugin=lrc
  crushfs: osd erasure-code-profile set: failed to load plugin using profile: plugin=lrc (crushfs has jerasure and isa)
  [1]
  $ crushfs --cluster c osd erasure-code-profile set bad technique=cauchy_good
  crushfs: osd erasure-code-profile set: technique=cauchy_good is not supported (crushfs encodes reed_sol_van)
  [1]
  $ crushfs --cluster c osd erasure-code-profile set bad w=7
  crushfs: osd erasure-code-profile set: ReedSolomonVandermonde: w=7 must be one of {8, 16, 32}
  [1]
  $ crushfs --cluster c osd erasure-code-profile set bad k
  crushfs: osd erasure-code-profile set: 'k' is not KEY=VALUE (usage: crushfs osd erasure-code-profile set NAME [KEY=VALUE...] [--force])
  [1]
  $ crushfs --cluster c osd erasure-code-profile get bad
  crushfs: osd erasure-code-profile get: unknown erasure code profile 'bad'
  [1]
  $ crushfs --cluster c osd erasure-code-profile ls
  default
  ec42
  isa21

The rule for a profile: indep over its failure domain, with Ceph's tries;
it maps as crushtool maps it:

  $ crushfs --cluster c osd erasure-code-profile set ec42 k=4 m=2 crush-failure-domain=osd --force
  $ crushfs --cluster c osd crush rule create-erasure ec42rule ec42
  created rule ec42rule at 1
  $ sed -n '/^rule ec42rule/,/^}/p' c/crushmap.txt
  rule ec42rule {
  \tid 1 (esc)
  \ttype erasure (esc)
  \tmin_size 3 (esc)
  \tmax_size 20 (esc)
  \tstep set_chooseleaf_tries 5 (esc)
  \tstep set_choose_tries 100 (esc)
  \tstep take default (esc)
  \tstep choose indep 0 type osd (esc)
  \tstep emit (esc)
  }
  $ crushfs --cluster c osd crush rule create-erasure ecdefault
  created rule ecdefault at 2
  $ sed -n '/^rule ecdefault/,/^}/p' c/crushmap.txt | grep 'step chooseleaf'
  \tstep chooseleaf indep 0 type host (esc)
  $ crushfs --cluster c osd crush rule create-erasure x nope
  crushfs: osd crush rule create-erasure: erasure-code-profile nope does not exist
  [1]
  $ crushfs --cluster c osd erasure-code-profile set deep k=2 m=1 crush-root=nowhere
  $ crushfs --cluster c osd crush rule create-erasure x deep
  crushfs: osd crush rule create-erasure: root item nowhere does not exist
  [1]
  $ crushfs crush test -i c/crushmap.txt --rule 1 --num-rep 6 --min-x 0 --max-x 4 --show-mappings
  CRUSH rule 1 x 0 [7,10,11,4,3,8]
  CRUSH rule 1 x 1 [3,9,4,11,2,10]
  CRUSH rule 1 x 2 [10,6,11,1,7,0]
  CRUSH rule 1 x 3 [10,11,9,3,5,4]
  CRUSH rule 1 x 4 [8,11,3,4,10,1]
  $ crushfs --cluster c -f json osd dump | python3 -c 'import json,sys; print(sorted(json.load(sys.stdin)["erasure_code_profiles"]))'
  ['deep', 'default', 'ec42', 'isa21']
  $ crushfs --cluster c osd erasure-code-profile rm deep
  $ crushfs --cluster c osd erasure-code-profile rm deep
  erasure-code-profile deep does not exist
