#!/usr/bin/env bash
# Permissions as the kernel checks them (default_permissions), exercised
# as the unprivileged user nobody on an allow_other mount: mode bits,
# sticky directories, chmod/chown/utimes rights, setgid directories,
# setuid cleared by an unprivileged write.
. "$(dirname "$0")/lib/mount_common.sh"

if ! id nobody >/dev/null 2>&1 || [ "$(id -u)" != 0 ]; then
	echo "SKIP: needs root and the user nobody"
	exit 77
fi
CL=$T/cluster
M=$T/mnt
mkcluster "$CL" --osd-size 1G --size 2 --min-size 1
mount_fg "$CL" "$M" -o allow_other

as_nobody() {
	(cd / && runuser -u nobody -- sh -c "$1") 2>/dev/null
}
NOGRP=$(id -gn nobody)

chmod 755 "$M"
mkdir "$M/pub" "$M/priv" "$M/ro"
chmod 1777 "$M/pub"
chmod 700 "$M/priv"
echo secret >"$M/priv/s"
echo public >"$M/ro/f"
chmod 644 "$M/ro/f"
echo mine >"$M/pub/rootfile"
chmod 666 "$M/pub/rootfile"

as_nobody "ls $M/priv" && fail "nobody listed a 0700 dir"
as_nobody "cat $M/priv/s" && fail "nobody read through a 0700 dir"
as_nobody "cat $M/ro/f" >/dev/null || fail "nobody cannot read a 0644 file"
as_nobody "echo x >>$M/ro/f" && fail "nobody wrote a 0644 root file"
as_nobody "touch $M/ro/new" && fail "nobody created in a 0755 root dir"
as_nobody "truncate -s 0 $M/ro/f" && fail "nobody truncated a 0644 root file"
as_nobody "test -r $M/ro/f && ! test -w $M/ro/f" || fail "access()"
ok "mode bits: read, write, search"

as_nobody "echo hi >$M/pub/mine" || fail "nobody cannot create in a 1777 dir"
[ "$(stat -c %U:%G "$M/pub/mine")" = "nobody:$NOGRP" ] || fail "owner of a new file: $(stat -c %U:%G "$M/pub/mine")"
as_nobody "echo more >>$M/pub/rootfile" || fail "nobody cannot write a 0666 file"
as_nobody "rm -f $M/pub/rootfile" && fail "sticky dir: nobody removed root's file"
as_nobody "mv $M/pub/rootfile $M/pub/x" && fail "sticky dir: nobody renamed root's file"
as_nobody "rm $M/pub/mine" || fail "nobody cannot remove its own file"
ok "sticky directory"

as_nobody "chmod 777 $M/ro/f" && fail "chmod by a non-owner"
as_nobody "chown nobody $M/ro/f" && fail "chown by a non-root user"
as_nobody "touch -d 2000-01-01 $M/pub/rootfile" && fail "explicit times by a non-owner"
as_nobody "touch $M/pub/rootfile" || fail "touch (now) of a writable file"
as_nobody "echo x >$M/pub/own && chmod 600 $M/pub/own && touch -d 2000-01-01 $M/pub/own" ||
	fail "owner chmod/utimes"
[ "$(stat -c %a "$M/pub/own")" = 600 ] || fail "mode after owner chmod"
ok "chmod, chown, utimes rights"

mkdir "$M/sg"
chgrp "$NOGRP" "$M/sg"
chmod 2777 "$M/sg"
as_nobody "mkdir $M/sg/d && echo f >$M/sg/f" || fail "create in a setgid dir"
[ "$(stat -c %G "$M/sg/d")" = "$NOGRP" ] || fail "setgid: group of a new dir"
[ "$(stat -c %a "$M/sg/d")" -ge 2000 ] || fail "setgid: new dir lost the setgid bit"
[ "$(stat -c %G "$M/sg/f")" = "$NOGRP" ] || fail "setgid: group of a new file"
mkdir "$M/sg2" && chmod 2777 "$M/sg2"
echo x >"$M/sg2/rootf"
[ "$(stat -c %G "$M/sg2/rootf")" = root ] || fail "group of a file in a root setgid dir"
ok "setgid directories"

echo exe >"$M/pub/suid"
chmod 4777 "$M/pub/suid"
as_nobody "echo y >>$M/pub/suid" || fail "nobody cannot write a 4777 file"
[ "$(stat -c %a "$M/pub/suid")" = 777 ] || fail "setuid kept after an unprivileged write: $(stat -c %a "$M/pub/suid")"
chmod 4755 "$M/pub/suid"
echo z >>"$M/pub/suid"
[ "$(stat -c %a "$M/pub/suid")" = 4755 ] || fail "root write cleared setuid"
chown nobody "$M/pub/suid"
[ "$(stat -c %a "$M/pub/suid")" = 755 ] || fail "chown kept setuid: $(stat -c %a "$M/pub/suid")"
ok "setuid cleared on unprivileged write and on chown"

umount_fg "$M"
