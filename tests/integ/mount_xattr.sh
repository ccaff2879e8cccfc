#!/usr/bin/env bash
# Extended attributes through the kernel: user and security xattrs round
# trip and outlive a remount; on a host without SELinux a file that never
# had an xattr answers security.selinux with "not supported", so ls -l
# asks it once per mount instead of once per entry (coreutils'
# getfilecon_cache), while ACLs are still asked for and shown (the '+'),
# and a label set all the same reads back.
. "$(dirname "$0")/lib/mount_common.sh"

CL=$T/cluster
M=$T/mnt
mkcluster "$CL" --osd-size 1G --size 1 --min-size 1
mount_fg "$CL" "$M"

# errno of getxattr(file, name) ("0" when it has a value)
gx() {
	py "import errno, os
try:
    os.getxattr('$1', '$2', follow_symlinks=False); print(0)
except OSError as e:
    print(errno.errorcode[e.errno])"
}

selinux=0
grep -q '	selinuxfs$' /proc/filesystems && selinux=1
mkdir "$M/d"
for i in $(seq 1 50); do : >"$M/d/f$i"; done
want=ENOTSUP # EOPNOTSUPP: Python names errno 95 so
[ $selinux = 1 ] && want=ENODATA
[ "$(gx "$M/d/f1" security.selinux)" = $want ] ||
	fail "security.selinux of a plain file: $(gx "$M/d/f1" security.selinux), not $want"
[ "$(gx "$M/d/f1" security.capability)" = ENODATA ] || fail "security.capability"
[ "$(gx "$M/d/f1" system.posix_acl_access)" = ENODATA ] || fail "ACL"
[ "$(gx "$M/d/f1" user.x)" = ENODATA ] || fail "user.x"
ok "absent xattrs: security.selinux $want, the others ENODATA"

py "import os
os.setxattr('$M/d/f2', 'user.k', b'v1')
os.setxattr('$M/d/f3', 'security.selinux', b'system_u:object_r:tmp_t:s0')"
[ "$(gx "$M/d/f2" security.selinux)" = ENODATA ] ||
	fail "security.selinux of a file with an xattr: $(gx "$M/d/f2" security.selinux)"
if command -v setfacl >/dev/null; then
	setfacl -m u:nobody:r "$M/d/f4"
fi

check_values() {
	[ "$(py "import os; print(os.getxattr('$M/d/f2', 'user.k').decode())")" = v1 ] ||
		fail "user.k $1"
	[ "$(py "import os; print(os.getxattr('$M/d/f3', 'security.selinux').decode())")" = \
		system_u:object_r:tmp_t:s0 ] || fail "the label $1"
	py "import os; assert os.listxattr('$M/d/f3') == ['security.selinux']" ||
		fail "listxattr $1"
}
check_values "after set"
umount_fg "$M"
mount_fg "$CL" "$M"
check_values "after a remount"
ok "user.k and a label stored, listed and read back, also after a remount"

# ls -l: how often it asks for the label; the ACL still shows
if command -v strace >/dev/null; then
	sync
	echo 3 >/proc/sys/vm/drop_caches 2>/dev/null || true
	strace -f -e trace=lgetxattr,getxattr -o "$T/ls.trace" \
		ls -l "$M/d" >"$T/ls.out"
	nsel=$(grep -c '"security.selinux"' "$T/ls.trace" || true)
	nacl=$(grep -c '"system.posix_acl_access"' "$T/ls.trace" || true)
	if [ "$nsel" -gt 0 ] && [ $selinux = 0 ]; then
		# f3's label may be asked too when it is listed first
		[ "$nsel" -le 3 ] || fail "ls -l asked security.selinux $nsel times for 50 entries"
	fi
	ok "ls -l: security.selinux asked $nsel times, the ACL $nacl times (50 entries)"
else
	ls -l "$M/d" >"$T/ls.out"
fi
if command -v setfacl >/dev/null; then
	grep -q '^-rw-r--r--+ .* f4$' "$T/ls.out" ||
		{ cat "$T/ls.out"; fail "ls -l does not show f4's ACL"; }
	ok "ls -l shows the ACL"
fi
umount_fg "$M"
