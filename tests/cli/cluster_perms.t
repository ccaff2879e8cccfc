A cluster folder is its owner's only (issue 21): folders 0700, files 0600,
so nothing the mount keeps private is readable around it.  Outputs the
user names are the user's own files (0644 under the umask).

  $ umask 022
  $ crushfs --cluster cl mkfs --osds 3 --hosts 3 --pg-num 8 > /dev/null
  $ stat -c '%a %n' cl cl/cluster.json cl/crushmap.txt cl/mds cl/pglog cl/osd.1 cl/osd.1/current cl/osd.1/whoami
  700 cl
  600 cl/cluster.json
  600 cl/crushmap.txt
  700 cl/mds
  700 cl/pglog
  700 cl/osd.1
  700 cl/osd.1/current
  600 cl/osd.1/whoami
  $ echo secret > obj
  $ crushfs --cluster cl rados put o1 obj
  $ find cl -perm /077 ! -path 'cl/mds/*' ! -path 'cl/pglog/*'
  $ crushfs --cluster cl rados get o1 out
  $ crushfs --cluster cl report -o page.html 2> /dev/null
  $ stat -c '%a %n' out page.html
  644 out
  644 page.html

A cluster made by an older crushfs (folders 0755, files 0644): a command
that only reads leaves it as it is, one that writes makes the top folder
0700, saying so once.

  $ chmod -R go+rX cl
  $ stat -c %a cl
  755
  $ crushfs --cluster cl osd tree > /dev/null
  $ stat -c %a cl
  755
  $ crushfs --cluster cl osd out 1
  crushfs: cl: made the cluster folder 0700 (it was 0755): its objects and metadata were readable by every local user
  marked out osd.1.
  $ stat -c %a cl
  700
  $ crushfs --cluster cl osd in 1
  marked in osd.1.
