What `mkfs --from-ceph` and the profile and pool commands refuse, each
with one line naming the file, the OSD, profile or pool and the value,
exit 1, and no cluster left behind (issue 21: a kb of 2^62 wrapped to a
capacity of 0; k=-2, m=x or k=1000 were taken, and the pool failed with
EIO at its first write).

  $ cp -r "$TESTDIR/../ceph/fixtures/import1" snap
  $ mkdir bad && cp snap/* bad/
  $ dump() { python3 -c "import json; d=json.load(open('snap/osd_dump.json')); $1; json.dump(d, open('bad/osd_dump.json','w'))"; }
  $ df() { python3 -c "import json; d=json.load(open('snap/osd_df.json')); $1; json.dump(d, open('bad/osd_df.json','w'))"; }
  $ ec() { dump "d['erasure_code_profiles']['ec21'].update($1)"; }

Capacities: kb << 10 must not wrap, and a device holds under 128 TiB.

  $ df "d['nodes'][2]['kb']=2**62"
  $ crushfs --cluster e mkfs --from-ceph bad
  crushfs: mkfs: bad/osd_df.json: osd.2: kb 4611686018427387904 is out of range (0 to 137438953471 KiB, under 128 TiB a device)
  [1]
  $ df "d['nodes'][0]['kb']=-1"
  $ crushfs --cluster e mkfs --from-ceph bad
  crushfs: mkfs: bad/osd_df.json: osd.0: kb -1 is out of range (0 to 137438953471 KiB, under 128 TiB a device)
  [1]
  $ df "d['nodes'][1]['kb_used']=2**60"
  $ crushfs --cluster e mkfs --from-ceph bad --prefill
  crushfs: mkfs: bad/osd_df.json: osd.1: kb_used 1152921504606846976 is out of range (0 to 137438953471 KiB, under 128 TiB a device)
  [1]
  $ df "d['nodes'][3]['kb']='4G'"
  $ crushfs --cluster e mkfs --from-ceph bad
  crushfs: mkfs: bad/osd_df.json: osd.3: kb is not an integer
  [1]
  $ cp snap/osd_df.json bad/

EC profiles, as the plugin and the monitor parse them:

  $ ec "k='-2'"
  $ crushfs --cluster e mkfs --from-ceph bad
  crushfs: mkfs: bad/osd_dump.json: erasure_code_profiles.ec21: k=-2 must be >= 2
  [1]
  $ ec "m='x'"
  $ crushfs --cluster e mkfs --from-ceph bad
  crushfs: mkfs: bad/osd_dump.json: erasure_code_profiles.ec21: could not convert m=x to int
  [1]
  $ ec "k='1000'"
  $ crushfs --cluster e mkfs --from-ceph bad
  crushfs: mkfs: bad/osd_dump.json: erasure_code_profiles.ec21: k=1000 and m=1: crushfs's Reed-Solomon (GF(2^8) Vandermonde) takes k + m <= 32
  [1]
  $ ec "k='99999999999'"
  $ crushfs --cluster e mkfs --from-ceph bad
  crushfs: mkfs: bad/osd_dump.json: erasure_code_profiles.ec21: could not convert k=99999999999 to int
  [1]
  $ ec "stripe_unit='0'"
  $ crushfs --cluster e mkfs --from-ceph bad
  crushfs: mkfs: bad/osd_dump.json: erasure_code_profiles.ec21: stripe_unit '0' must be positive
  [1]
  $ ec "stripe_unit='4x'"
  $ crushfs --cluster e mkfs --from-ceph bad
  crushfs: mkfs: bad/osd_dump.json: erasure_code_profiles.ec21: could not parse stripe_unit '4x'
  [1]
  $ ec "stripe_unit='4100'"
  $ crushfs --cluster e mkfs --from-ceph bad
  crushfs: mkfs: bad/osd_dump.json: erasure_code_profiles.ec21: stripe_unit 4100 does not match ec profile alignment. Would be padded to 4128
  [1]
  $ ec "stripe_unit='4G'"
  $ crushfs --cluster e mkfs --from-ceph bad
  crushfs: mkfs: bad/osd_dump.json: erasure_code_profiles.ec21: stripe_unit '4G': k x stripe_unit is past a pool's 32-bit stripe_width
  [1]
  $ ec "w='7'"
  $ crushfs --cluster e mkfs --from-ceph bad
  crushfs: mkfs: bad/osd_dump.json: erasure_code_profiles.ec21: ReedSolomonVandermonde: w=7 must be one of {8, 16, 32}
  [1]

Names: a profile's as Ceph's command table allows them, a pool's with no
control character (Ceph refuses an empty one; crushfs prints one a line):

  $ dump "d['erasure_code_profiles']['bad name']=d['erasure_code_profiles']['ec21']"
  $ crushfs --cluster e mkfs --from-ceph bad
  crushfs: mkfs: bad/osd_dump.json: erasure_code_profiles.bad name: erasure code profile name 'bad name': only [A-Za-z0-9-_.] (Ceph's goodchars)
  [1]
  $ dump "d['pools'][2]['pool_name']='fa\nst'"
  $ crushfs --cluster e mkfs --from-ceph bad
  crushfs: mkfs: bad/osd_dump.json: pool 3: pool name 'fa\x0ast' has a control character (\x0a)
  [1]
  $ ls -d e* 2>/dev/null
  [2]

What a real cluster may hold and crushfs does not encode is still
imported (placement only): an lrc profile with integers for k and m.

  $ dump "d['erasure_code_profiles']['lrc']={'plugin': 'lrc', 'k': '4', 'm': '2', 'l': '3'}"
  $ crushfs --cluster e mkfs --from-ceph bad >/dev/null 2>&1 && echo imported
  imported
  $ rm -rf e

The same rules for `osd erasure-code-profile set` and `osd pool create`:

  $ crushfs --cluster c mkfs --osd-size 64M --pg-num 16 >/dev/null
  $ crushfs --cluster c osd erasure-code-profile set p k=-2
  crushfs: osd erasure-code-profile set: k=-2 must be >= 2
  [1]
  $ crushfs --cluster c osd erasure-code-profile set p m=x
  crushfs: osd erasure-code-profile set: could not convert m=x to int
  [1]
  $ crushfs --cluster c osd erasure-code-profile set p k=1000
  crushfs: osd erasure-code-profile set: k=1000 and m=2: crushfs's Reed-Solomon (GF(2^8) Vandermonde) takes k + m <= 32
  [1]
  $ crushfs --cluster c osd erasure-code-profile set p stripe_unit=-4096
  crushfs: osd erasure-code-profile set: could not parse stripe_unit '-4096'
  [1]
  $ crushfs --cluster c osd erasure-code-profile set p stripe_unit=100
  crushfs: osd erasure-code-profile set: stripe_unit 100 does not match ec profile alignment. Would be padded to 128
  [1]
  $ crushfs --cluster c osd erasure-code-profile set p stripe_unit=1056
  crushfs: osd erasure-code-profile set: stripe_unit 1056 should be a multiple of 4096 bytes for best performance (--force overrides this check)
  [1]
  $ crushfs --cluster c osd erasure-code-profile set p stripe_unit=1056 --force
  $ crushfs --cluster c osd erasure-code-profile set p2 k=2 m=1 stripe_unit=8K
  $ crushfs --cluster c osd erasure-code-profile set 'p 3' k=2 m=1
  crushfs: osd erasure-code-profile set: erasure code profile name 'p 3': only [A-Za-z0-9-_.] (Ceph's goodchars)
  [1]
  $ crushfs --cluster c osd pool create $'a\tb' 8
  crushfs: osd pool create: pool name 'a\x09b' has a control character (\x09)
  [1]
  $ crushfs --cluster c osd pool create '' 8
  crushfs: osd pool create: pool name is empty
  [1]
  $ crushfs --cluster c osd erasure-code-profile ls
  default
  p
  p2
  $ crushfs --cluster c osd pool ls
  crushfs_data
