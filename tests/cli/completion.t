The bash completion (crushfs --bash-completion, made from the command
table) completes arguments from the cluster named by --cluster or
$CRUSHFS_CLUSTER: OSD ids, pool names, PG ids, PG states, profile names,
crush items and rules, through the hidden `crushfs __complete KIND`.

  $ crushfs --cluster c mkfs --osds 4 --hosts 2 --pg-num 4 --osd-size 64M > /dev/null
  $ crushfs --cluster c osd pool create rbd 2 > /dev/null 2>&1
  $ crushfs --cluster c osd erasure-code-profile set k2m1 k=2 m=1
  $ crushfs --bash-completion > comp.bash && bash -n comp.bash && echo ok
  ok
  $ complete_words() { bash -c 'source comp.bash; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _crushfs; echo "${COMPREPLY[*]}"' _ "$@"; }

OSD ids, pool names and PG ids where the synopsis has ID, POOL and PGID:

  $ complete_words crushfs --cluster c osd out ''
  0 1 2 3
  $ complete_words crushfs --cluster c osd reweight 2 ''
  
  $ complete_words crushfs --cluster c osd pool get ''
  crushfs_data rbd
  $ complete_words crushfs --cluster c osd pool get r
  rbd
  $ complete_words crushfs --cluster c pg map ''
  1.0 1.1 1.2 1.3 2.0 2.1
  $ complete_words crushfs --cluster c pg repair 2.
  2.0 2.1
  $ CRUSHFS_CLUSTER=c complete_words crushfs pg scrub 1.
  1.0 1.1 1.2 1.3

PG states for pg ls (any number of them), profile names, crush items,
rules, and a command's literal words:

  $ complete_words crushfs --cluster c pg ls ''
  active clean down undersized degraded remapped backfill_wait backfill_toofull peered unfound inconsistent
  $ complete_words crushfs --cluster c pg ls active d
  down degraded
  $ complete_words crushfs --cluster c pg ls-by-osd ''
  0 1 2 3
  $ complete_words crushfs --cluster c osd erasure-code-profile get ''
  default k2m1
  $ complete_words crushfs --cluster c osd crush ls h
  host0 host1
  $ complete_words crushfs --cluster c osd crush rule dump ''
  replicated_rule
  $ complete_words crushfs --cluster c osd df ''
  tree
  $ complete_words crushfs --cluster c set-full-policy ''
  osd pool

A command without arguments offers nothing (not the files of the current
folder); a path argument offers files:

  $ complete_words crushfs --cluster c pg dump ''
  
  $ complete_words crushfs --cluster c mount co
  comp.bash

No cluster: nothing offered, no error shown:

  $ complete_words crushfs --cluster nowhere osd out ''
  

The hidden command lists nowhere:

  $ crushfs --help | grep -c __complete
  0
  [1]
  $ crushfs --man | grep -c __complete
  0
  [1]
  $ grep -c __complete comp.bash
  1
  $ crushfs --cluster c __complete frob
  crushfs: __complete: unknown kind 'frob' (usage: crushfs __complete osds|pools|pgs|states|profiles|nodes|rules)
  [1]
