#!/usr/bin/env bash
# Install the Debian 12 packages crushfs needs to build and test, when
# missing.  Run as root (or with sudo available).  Idempotent and quiet when
# everything is already there.
set -euo pipefail

PKGS=(build-essential cmake pkg-config libcmocka-dev python3-cram
      libfuse3-dev fuse3 librocksdb-dev uuid-dev libjansson-dev attr
      libtsan2 libisal-dev acl clang-14 libfuzzer-14-dev chromium
      libmicrohttpd-dev librados-dev ceph-mon ceph-mgr ceph-osd)

missing=()
for p in "${PKGS[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
echo "installing: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
