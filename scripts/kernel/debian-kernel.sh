#!/bin/sh
# Debian's packaged amd64 kernel, for booting in QEMU: prints two lines
#   KDIR=/usr/src/linux-headers-<abi>      (build modules against it)
#   VMLINUZ=$COPYPERF_CACHE/x86_64/vmlinuz-<abi>
# The headers are installed (linux-headers-amd64); of linux-image only
# /boot/vmlinuz is taken out of the .deb, cached, and fetched once per ABI.
#   debian-kernel.sh [ABI]    ABI (6.1.0-NN-amd64): that kernel, whose headers are elsewhere
#                             (a module built in another root); KDIR is then not printed
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../cache-dir.sh
. "$here/../cache-dir.sh"
cache=$cache/x86_64

[ $# -gt 0 ] || "$here/../ensure-packages.sh" linux-headers-amd64 >&2

# The ABI name (6.1.0-NN-amd64) is the headers directory's, not the package version's.
abi_of_headers() {
	dep=$(dpkg-query -W -f='${Depends}' linux-headers-amd64 | tr ',' '\n' |
		sed -n 's/^ *linux-headers-\([^ ]*-amd64\).*/\1/p' | head -1)
	[ -n "$dep" ] && [ -d "/usr/src/linux-headers-$dep" ] && echo "$dep"
}
if [ $# -gt 0 ]; then
	abi=$1
	case $abi in *[!a-z0-9.-]* | "") echo "debian-kernel.sh: '$abi' is not a kernel ABI name" >&2; exit 2 ;; esac
else
	abi=$(abi_of_headers) || {
		echo "debian-kernel.sh: linux-headers-amd64 names no installed headers directory" >&2
		exit 1
	}
fi

vmlinuz=$cache/vmlinuz-$abi
if [ ! -s "$vmlinuz" ]; then
	mkdir -p "$cache"
	tmp=$(mktemp -d "$cache/fetch.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	trap 'exit 130' INT # dash runs no EXIT trap when a signal kills it
	trap 'exit 143' TERM
	# The mirror may have moved on from the installed ABI: update, take the current one.
	if ! (cd "$tmp" && apt-get download -q "linux-image-$abi" >/dev/null 2>&1); then
		if [ "$(id -u)" = 0 ] && [ $# -eq 0 ]; then
			apt-get update -q >/dev/null
			DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
				linux-headers-amd64 >/dev/null
			abi=$(abi_of_headers)
			vmlinuz=$cache/vmlinuz-$abi
		fi
		(cd "$tmp" && apt-get download -q "linux-image-$abi" >/dev/null) || {
			echo "debian-kernel.sh: cannot download linux-image-$abi" >&2
			exit 1
		}
	fi
	dpkg-deb --fsys-tarfile "$tmp"/linux-image-"$abi"_*.deb |
		tar -x -O "./boot/vmlinuz-$abi" >"$tmp/vmlinuz"
	[ -s "$tmp/vmlinuz" ] || { echo "debian-kernel.sh: no vmlinuz in linux-image-$abi" >&2; exit 1; }
	mv "$tmp/vmlinuz" "$vmlinuz"
fi
[ $# -gt 0 ] || echo "KDIR=/usr/src/linux-headers-$abi"
echo "VMLINUZ=$vmlinuz"
