#!/usr/bin/env bash
# Root's own mount (no allow_other) goes without default_permissions
# (fs/daemon.c parse_options): nobody else gets in, root keeps the rules
# that bind it (no exec without an x bit), ACLs are stored, kept in step
# with the mode and inherited as on any mount, and a create in a
# directory no longer makes the kernel GETATTR the directory first.
# -o default_permissions and allow_other bring the kernel's checks back.
. "$(dirname "$0")/lib/mount_common.sh"

if [ "$(id -u)" != 0 ]; then
	echo "SKIP: needs root (root's own mount is the case)"
	exit 77
fi
CL=$T/cluster
M=$T/mnt
mkcluster "$CL" --osd-size 1G --size 1 --min-size 1

opts_of() { awk -v m="$1" '$2 == m { print "," $4 "," }' /proc/mounts; }
# GETATTR requests for node id $2 in the debug log $1 (libfuse -d)
getattrs() { grep -c "opcode: GETATTR ([0-9]*), nodeid: $2," "$1" || true; }
# N creates in a fresh directory; prints how often its attributes were asked
creates_getattr() {
	local d=$1 n=$2 ino before
	mkdir "$d"
	ino=$(stat -c %i "$d")
	before=$(getattrs "$MLOG" "$ino")
	for i in $(seq 1 "$n"); do echo x >"$d/f$i"; done
	echo $(($(getattrs "$MLOG" "$ino") - before))
}

mount_fg "$CL" "$M" -o debug
case $(opts_of "$M") in
*,default_permissions,*) fail "root's own mount has default_permissions: $(opts_of "$M")" ;;
esac
ok "root's own mount: no default_permissions"

if id nobody >/dev/null 2>&1; then
	(cd / && runuser -u nobody -- ls "$M") >/dev/null 2>&1 &&
		fail "nobody entered root's mount without allow_other"
	ok "nobody is kept out (the kernel lets only the mounter in)"
fi

printf '#!/bin/sh\necho ran\n' >"$M/script"
chmod 644 "$M/script"
"$M/script" 2>/dev/null && fail "root ran a file without an x bit"
chmod 744 "$M/script"
[ "$("$M/script")" = ran ] || fail "root could not run a 0744 file"
echo secret >"$M/zero"
chmod 000 "$M/zero"
[ "$(cat "$M/zero")" = secret ] || fail "root could not read a 0000 file"
echo more >>"$M/zero" || fail "root could not write a 0000 file"
ok "root: no exec without an x bit, mode bits do not stop it otherwise"

n=$(creates_getattr "$M/c" 40)
[ "$n" -le 2 ] || fail "40 creates asked the directory's attributes $n times"
ok "40 creates in a directory: $n GETATTR of it"

if command -v setfacl >/dev/null; then
	: >"$M/f"
	setfacl -m u:nobody:rw "$M/f"
	[ "$(stat -c %A "$M/f")" = -rw-rw-r-- ] ||
		fail "the mode after setfacl: $(stat -c %A "$M/f")"
	getfacl -cp "$M/f" | grep -qx 'user:nobody:rw-' || fail "the ACL entry"
	chmod 600 "$M/f"
	getfacl -cp "$M/f" | grep -qx 'mask::---' || fail "chmod did not set the mask"
	mkdir "$M/inh"
	setfacl -d -m u:nobody:rwx "$M/inh"
	(umask 077 && : >"$M/inh/g" && mkdir "$M/inh/e")
	[ "$(stat -c %A "$M/inh/g")" = -rw-rw-r-- ] ||
		fail "a default ACL's file: $(stat -c %A "$M/inh/g") (umask applied?)"
	getfacl -cp "$M/inh/e" | grep -qx 'default:user:nobody:rwx' ||
		fail "a subdirectory did not inherit the default ACL"
	(umask 027 && : >"$M/plain")
	[ "$(stat -c %A "$M/plain")" = -rw-r----- ] ||
		fail "umask 027 without a default ACL: $(stat -c %A "$M/plain")"
	ok "ACLs: set, the mode follows, inherited over the umask, umask applied without one"
fi
umount_fg "$M"

mount_fg "$CL" "$M" -o debug,default_permissions
case $(opts_of "$M") in
*,default_permissions,*) ;;
*) fail "-o default_permissions not on the mount: $(opts_of "$M")" ;;
esac
if command -v setfacl >/dev/null; then
	getfacl -cp "$M/f" | grep -q '^user:nobody:rw-' ||
		fail "the ACL after a remount"
fi
n=$(creates_getattr "$M/d" 40)
[ "$n" -ge 20 ] || fail "with default_permissions 40 creates asked the directory only $n times"
ok "-o default_permissions: on the mount, $n GETATTR of the directory for 40 creates"
umount_fg "$M"

mount_fg "$CL" "$M" -o allow_other
case $(opts_of "$M") in
*,default_permissions,*) ;;
*) fail "allow_other without default_permissions: $(opts_of "$M")" ;;
esac
ok "allow_other: default_permissions on"
umount_fg "$M"
