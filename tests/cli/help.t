Every command and every group answers --help on stdout with exit 0; an
unknown word gets one line naming it; "did you mean" only for a near
spelling of a word that exists at that place.

Every command in the list answers --help (no cluster needed) with its
synopsis and its one-line description:

  $ crushfs --help | sed -n '/^commands:/,$p' | tail -n +2 | awk '{ n = $0; sub(/^  /, "", n); sub(/  +[^ ].*$/, "", n); print n }' > names
  $ test "$(wc -l < names)" -gt 90 && echo many
  many
  $ while read -r c; do
  >   out=$(crushfs --cluster nowhere $c --help 2>&1) || echo "exit $? for $c"
  >   case "$(printf '%s\n' "$out" | head -1)" in "usage: crushfs [--cluster DIR] ${c%% *}"*) ;; *) echo "no usage for $c: $out";; esac
  >   test "$(printf '%s\n' "$out" | wc -l)" -ge 2 || echo "no description for $c"
  > done < names
  $ crushfs dashboard --help
  usage: crushfs [--cluster DIR] dashboard [--listen ADDR:PORT] [--password-file FILE] [--user NAME]
  serve the report live over HTTP (read-only; 127.0.0.1:7480, another address only with a password)
  $ crushfs --cluster nowhere osd out -h
  usage: crushfs [--cluster DIR] osd out ID
  mark an OSD out
  $ crushfs mount --help | head -2
  usage: crushfs [--cluster DIR] mount MNT [-f] [-d] [-o OPTS]
  mount the filesystem (daemonizes unless -f)

Groups list their commands with --help, and only then:

  $ crushfs osd --help | head -1
  'osd' commands:
  $ crushfs osd --help | grep -A1 '^  crushfs osd df '
    crushfs osd df [tree]
      per-OSD usage, as `ceph osd df [tree]`
  $ crushfs osd crush --help | grep -c '^  crushfs osd crush '
  [0-9]+ (re)
  $ crushfs osd crush --help | grep -v '^  crushfs osd crush \|^    \|^.osd crush. commands:$'
  [1]
  $ crushfs pg -h | head -1
  'pg' commands:
  $ crushfs osd
  crushfs: osd: missing command (see crushfs osd --help)
  [1]

An unknown word: one line naming it, the group's help pointed at:

  $ crushfs osd crush frobnicate
  crushfs: unknown command 'osd crush frobnicate' (see crushfs osd crush --help)
  [1]
  $ crushfs osd crush frobnicate 2>&1 | wc -l
  1
  $ crushfs pg frob 1.0
  crushfs: unknown command 'pg frob' (see crushfs pg --help)
  [1]
  $ crushfs frobnicate --help
  crushfs: unknown command 'frobnicate' (see crushfs --help)
  [1]

A real Ceph word crushfs lacks gets no guess (as `set` was not a slip
of `out` before `osd set` came); near spellings do:

  $ crushfs osd destroy 3 --yes-i-really-mean-it
  crushfs: unknown command 'osd destroy' (see crushfs osd --help)
  [1]
  $ crushfs osd dff
  crushfs: unknown command 'osd dff'; did you mean 'osd df'?
  [1]
  $ crushfs osd crush rul ls
  crushfs: unknown command 'osd crush rul'; did you mean 'osd crush rule'?
  [1]
  $ crushfs osdd df
  crushfs: unknown command 'osdd'; did you mean 'osd'?
  [1]
  $ crushfs osd erasure-code-profile s
  crushfs: unknown command 'osd erasure-code-profile s' (see crushfs osd erasure-code-profile --help)
  [1]
