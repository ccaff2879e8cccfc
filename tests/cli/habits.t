Ceph's command-line habits: -s, --version, group help, "did you mean",
Ceph's spellings of the ratio commands, -f json-pretty.

  $ crushfs --cluster c mkfs --osds 4 --hosts 4 --pg-num 8 > /dev/null

--version names the release (and the commit when built from git):

  $ crushfs --version | grep -cE '^crushfs version [0-9]+\.[0-9]+\.[0-9]+'
  1
  $ crushfs version | grep -c 'Ceph 16.2'
  1

-s is status, as ceph -s:

  $ crushfs --cluster c -s | head -3
    cluster:
      id:     [0-9a-f-]{36} (re)
      health: HEALTH_OK
  $ crushfs --cluster c -s osd df
  crushfs: -s takes no command ('osd' given)
  [1]

A group's help lists its commands, on stdout, exit 0:

  $ crushfs pg --help | head -1
  'pg' commands:
  $ crushfs pg --help | grep -A1 '^  crushfs pg ls \['
    crushfs pg ls [STATE...]
      the PGs, or those in one of the states, as `ceph pg ls`
  $ crushfs pg --help | grep -c '^  crushfs pg '
  [0-9]+ (re)
  $ crushfs pg --help | grep -v '^  crushfs pg \|^    \|^.pg. commands:$'
  [1]

Near misses get a suggestion; far ones do not:

  $ crushfs stauts
  crushfs: unknown command 'stauts'; did you mean 'status'?
  [1]
  $ crushfs --cluster c osd dff
  crushfs: unknown command 'osd dff'; did you mean 'osd df'?
  [1]
  $ crushfs crush tset
  crushfs: unknown command 'crush tset'; did you mean 'crush test'?
  [1]
  $ crushfs helth
  crushfs: unknown command 'helth'; did you mean 'health'?
  [1]
  $ crushfs frobnicate
  crushfs: unknown command 'frobnicate' (see crushfs --help)
  [1]

Ceph's spellings of the ratio commands, and the short ones:

  $ crushfs --cluster c osd set-nearfull-ratio 0.8 > /dev/null
  $ crushfs --cluster c osd set-backfillfull-ratio 0.88 > /dev/null
  $ crushfs --cluster c osd set-full-ratio 0.9 > /dev/null
  $ crushfs --cluster c set-full-ratio 0.93 > /dev/null
  $ grep -o '"[a-z]*_ratio": *[0-9.]\{1,4\}' c/cluster.json
  "full_ratio": 0.93
  "backfillfull_ratio": 0.88
  "nearfull_ratio": 0.80

-f json-pretty indents; -f json is one line; both parse the same:

  $ crushfs --cluster c -f json df | wc -l
  1
  $ test "$(crushfs --cluster c -f json-pretty df | wc -l)" -gt 10 && echo indented
  indented
  $ crushfs --cluster c -f json-pretty df | python3 -c 'import json,sys; print(sorted(json.load(sys.stdin)))' > a
  $ crushfs --cluster c -f json df | python3 -c 'import json,sys; print(sorted(json.load(sys.stdin)))' > b
  $ cmp a b && echo same
  same
  $ crushfs --cluster c df -f yaml
  crushfs: df: -f: unknown format 'yaml' (plain, json or json-pretty)
  [1]

rados -p POOL, before or after the subcommand; another pool is refused:

  $ echo hello > f
  $ crushfs --cluster c rados -p crushfs_data put obj f
  $ crushfs --cluster c rados ls --pool crushfs_data
  obj
  $ crushfs --cluster c rados --pool=crushfs_data ls
  obj
  $ crushfs --cluster c rados -p rbd ls
  crushfs: rados ls: error opening pool rbd: (2) No such file or directory
  [1]
  $ crushfs --cluster c rados ls -p
  crushfs: rados ls: -p: missing value (usage: crushfs rados ls)
  [1]

pg dump -f json nests the PGs in pg_map, as ceph pg dump; the pgs and
pgs_brief kinds list them at the top:

  $ crushfs --cluster c -f json pg dump | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["pg_ready"], len(d["pg_map"]["pg_stats"]), d["pg_map"]["last_osdmap_epoch"] > 0)'
  True 8 True
  $ crushfs --cluster c -f json pg dump pgs_brief | python3 -c 'import json,sys; d=json.load(sys.stdin); print(sorted(d), sorted(d["pg_stats"][0])[:4])'
  ['pg_ready', 'pg_stats'] ['acting', 'acting_primary', 'pgid', 'stat_sum']

osd df tree: buckets carry the sums of their OSDs, in osd tree order:

  $ crushfs --cluster c osd df tree | awk '{print $1, $NF}'
  ID NAME
  -1 default
  -2 host0
  0 osd.0
  -3 host1
  1 osd.1
  -4 host2
  2 osd.2
  -5 host3
  3 osd.3
  TOTAL 0
  MIN/MAX 0
  $ crushfs --cluster c -f json osd df tree | python3 -c '
  > import json,sys
  > n = {x["id"]: x for x in json.load(sys.stdin)["nodes"]}
  > osds = [x for x in n.values() if x["id"] >= 0]
  > print(n[-1]["kb"] == sum(o["kb"] for o in osds), n[-1]["objects"] == sum(o["objects"] for o in osds), n[-2]["children"])'
  True True [0]
  $ crushfs --cluster c osd df tree extra
  crushfs: osd df: unexpected argument 'extra' (usage: crushfs osd df [tree])
  [1]

The man page and the bash completion come from the command table:

  $ crushfs --man | grep -c '^\.TP'  > n_tp
  $ test "$(cat n_tp)" -gt "$(crushfs --help | grep -c '^  [a-z]')" && echo every-command
  every-command
  $ crushfs --man | grep -A1 'fBosd df\\fR'
  \fBosd df\fR [tree]
  per\-OSD usage, as `ceph osd df [tree]`
  $ crushfs --bash-completion > comp.bash && bash -n comp.bash && echo ok
  ok
  $ complete_words() { bash -c 'source comp.bash; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _crushfs; echo "${COMPREPLY[*]}"' _ "$@"; }
  $ complete_words crushfs os
  osdmap osd
  $ complete_words crushfs --cluster c osd d
  df down dump
  $ complete_words crushfs osd crush ''
  reweight tree ls dump rule
  $ complete_words crushfs -f j
  json json-pretty
