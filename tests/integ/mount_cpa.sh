#!/usr/bin/env bash
# cp -a and cp -p into the mount keep every mode, owner, size and mtime
# (issue 8: every file used to come out 0600, every directory 0700), and
# POSIX ACLs: setfacl/getfacl round trips, an access ACL sets the mode,
# chmod updates the ACL, default ACLs are inherited by new entries (the
# umask ignored then, applied otherwise), and the kernel enforces ACL
# entries for another user (nobody, on an allow_other mount).
. "$(dirname "$0")/lib/mount_common.sh"

if ! command -v setfacl >/dev/null || ! command -v getfacl >/dev/null; then
	echo "SKIP: setfacl/getfacl missing (apt-get install acl)"
	exit 77
fi
if ! id nobody >/dev/null 2>&1 || [ "$(id -u)" != 0 ]; then
	echo "SKIP: needs root and the user nobody"
	exit 77
fi
CL=$T/cluster
M=$T/mnt
mkcluster "$CL" --osd-size 1G --size 2 --min-size 1
mount_fg "$CL" "$M" -o allow_other
chmod 755 "$M"
umask 022

as_nobody() {
	(cd / && runuser -u nobody -- sh -c "$1") 2>/dev/null
}

# a tree with every kind of mode, owner and link
S=$T/src
mkdir -p "$S/sub/deep" "$S/sgid" "$S/sticky" "$S/private" "$S/acldir"
for m in 644 755 700 600 444 640 751 4755 2755 1644; do
	echo "mode $m" >"$S/f$m"
	chmod "$m" "$S/f$m"
done
head -c 300000 /dev/urandom >"$S/sub/deep/big"
chmod 2775 "$S/sgid"
chmod 1777 "$S/sticky"
chmod 700 "$S/private"
chown nobody:nogroup "$S/f640" "$S/sub"
ln -s f644 "$S/link"
ln -s /nonexistent "$S/sub/dangling"
ln "$S/f755" "$S/sub/hardlink"
touch -d '2001-02-03 04:05:06' "$S/f444" "$S/sub"
echo acl >"$S/facl"
setfacl -m u:nobody:rw,g:daemon:r "$S/facl"
setfacl -d -m u:nobody:rwx,o::- "$S/acldir"
touch "$S/acldir/inherited"
mkdir "$S/acldir/subdir"

# stat of every entry (the size of files, not of directories: ext4's
# grow with their entries), and the ACLs of every entry, sorted by path
snapshot() {
	(cd "$1" && find . \( -type d -printf '%p %m %u %g dir %T@ %n\n' \) -o \
		-printf '%p %m %u %g %s %T@ %n\n' | LC_ALL=C sort)
}
acls() {
	(cd "$1" && find . ! -type l | LC_ALL=C sort | xargs -d '\n' getfacl -p 2>/dev/null)
}

cp -a "$S" "$M/a"
[ "$(snapshot "$S")" = "$(snapshot "$M/a")" ] ||
	{ diff <(snapshot "$S") <(snapshot "$M/a"); fail "cp -a changed a mode, owner, size or time"; }
[ "$(acls "$S")" = "$(acls "$M/a")" ] ||
	{ diff <(acls "$S") <(acls "$M/a"); fail "cp -a changed an ACL"; }
cmp "$S/sub/deep/big" "$M/a/sub/deep/big" || fail "cp -a changed the data"
ok "cp -a keeps modes (setuid, setgid, sticky), owners, times, links and ACLs"

cp -rp "$S" "$M/p"
[ "$(snapshot "$S" | sed 's/ [0-9]*$//')" = "$(snapshot "$M/p" | sed 's/ [0-9]*$//')" ] ||
	{ diff <(snapshot "$S") <(snapshot "$M/p"); fail "cp -p changed a mode, owner, size or time"; }
ok "cp -rp keeps modes, owners and times"

# a real tree: the folders of the first 150 packages in /usr/share/doc
D=$T/doc
mkdir "$D"
(cd /usr/share/doc && find . -mindepth 1 -maxdepth 1 | LC_ALL=C sort | head -n 150 |
	xargs -d '\n' cp -a -t "$D")
cp -a "$D" "$M/doc"
[ "$(snapshot "$D")" = "$(snapshot "$M/doc")" ] ||
	{ diff <(snapshot "$D") <(snapshot "$M/doc") | head; fail "cp -a of /usr/share/doc differs"; }
ok "cp -a of $(find "$D" | wc -l) entries of /usr/share/doc keeps every mode"

# an access ACL sets the mode; one the mode says entirely is not stored
echo x >"$M/g"
chmod 600 "$M/g"
setfacl -m u:nobody:r "$M/g"
[ "$(stat -c %a "$M/g")" = 640 ] || fail "setfacl did not set the group bits (mask): $(stat -c %a "$M/g")"
setfacl -b "$M/g"
[ "$(stat -c %a "$M/g")" = 600 ] || fail "setfacl -b: $(stat -c %a "$M/g")"
getfattr -n system.posix_acl_access "$M/g" >/dev/null 2>&1 && fail "an ACL equal to the mode was stored"
setfacl -m u::rwx,g::r,o::r "$M/g"
[ "$(stat -c %a "$M/g")" = 744 ] || fail "a minimal ACL did not set the mode: $(stat -c %a "$M/g")"
ok "setfacl sets the mode; a minimal ACL is the mode"

# chmod updates the ACL's mask, the kernel enforces it
echo secret >"$M/e"
chmod 600 "$M/e"
as_nobody "cat $M/e" && fail "nobody read a 0600 file"
setfacl -m u:nobody:rw "$M/e"
as_nobody "cat $M/e" >/dev/null || fail "nobody cannot read through its ACL entry"
as_nobody "echo more >>$M/e" || fail "nobody cannot write through its ACL entry"
chmod 640 "$M/e"
getfacl -p "$M/e" | grep -q '^mask::r--$' || { getfacl -p "$M/e"; fail "chmod did not update the ACL mask"; }
as_nobody "cat $M/e" >/dev/null || fail "nobody cannot read after chmod 640"
as_nobody "echo more >>$M/e" && fail "nobody wrote past the mask chmod set"
chmod 600 "$M/e"
as_nobody "cat $M/e" && fail "nobody read with a --- mask"
ok "chmod updates the mask; the kernel enforces ACL entries"

# default ACLs: inherited (umask ignored), else the umask applies
mkdir "$M/dd"
setfacl -d -m u:nobody:rwx,g::rx,o::- "$M/dd"
(umask 077 && touch "$M/dd/file" && mkdir "$M/dd/dir")
[ "$(stat -c %a "$M/dd/file")" = 660 ] || fail "inherited file mode $(stat -c %a "$M/dd/file")"
[ "$(stat -c %a "$M/dd/dir")" = 770 ] || fail "inherited dir mode $(stat -c %a "$M/dd/dir")"
getfacl -p "$M/dd/file" | grep -q '^user:nobody:rwx' || fail "the file did not inherit the ACL"
getfacl -pd "$M/dd/dir" | grep -q '^user:nobody:rwx' || fail "the subdirectory did not inherit the default ACL"
as_nobody "echo hi >$M/dd/file" || fail "nobody cannot write through an inherited entry"
(umask 027 && touch "$M/um" && mkdir "$M/umd")
[ "$(stat -c %a "$M/um") $(stat -c %a "$M/umd")" = "640 750" ] ||
	fail "umask without a default ACL: $(stat -c %a "$M/um") $(stat -c %a "$M/umd")"
setfacl -m d:u:nobody:r "$M/um" 2>/dev/null && fail "a default ACL on a file was accepted"
ok "default ACLs are inherited; the umask applies without one"

umount_fg "$M"
mount_fg "$CL" "$M" -o allow_other
[ "$(snapshot "$S")" = "$(snapshot "$M/a")" ] || fail "modes differ after a remount"
[ "$(acls "$S")" = "$(acls "$M/a")" ] || fail "ACLs differ after a remount"
umount_fg "$M"
"$CRUSHFS" --cluster "$CL" fsck >"$T/fsck" || { cat "$T/fsck"; fail "fsck"; }
grep -q '^clean$' "$T/fsck" || { cat "$T/fsck"; fail "fsck not clean"; }
ok "same after a remount; fsck clean"
