#!/bin/sh
# A clean Debian 12 root for installing the packages into, as a tarball cached in
# $COPYPERF_CACHE/deb (default /var/cache/copyperf/deb): mmdebstrap's apt variant with what
# the packages need to be used there (DKMS, the amd64 kernel's headers, a C compiler,
# pkg-config), from this machine's own apt sources.  Made once, reused while it is there;
# the .debs mmdebstrap downloads are kept in the cache's archives/, so making it again
# fetches nothing new.  Prints the tarball's path.
#   debian-root.sh [--fresh]     --fresh: make it again (the mirror has moved on, say)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../cache-dir.sh
. "$here/../cache-dir.sh"
cache=$cache/deb
tarball=$cache/bookworm-root.tar
# One maker at a time (two runs would both write $tarball.tmp); fd 8, as callers hold 9.
mkdir -p "$cache"
exec 8>"$cache/.lock"
flock 8
[ "${1:-}" = --fresh ] && rm -f "$tarball"
if [ ! -s "$tarball" ]; then
	sources=$(ls /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null |
		xargs grep -l '^[^#]*bookworm' 2>/dev/null | head -1) || true
	[ -n "$sources" ] || { echo "debian-root.sh: no apt source for bookworm in /etc/apt" >&2; exit 1; }
	mkdir -p "$cache/archives"
	echo "debian-root.sh: making $tarball with mmdebstrap (about a minute)" >&2
	mmdebstrap --quiet --format=tar --variant=apt --include=dkms,linux-headers-amd64,gcc,libc6-dev,make,pkgconf \
		--setup-hook='mkdir -p "$1"/var/cache/apt/archives' \
		--setup-hook="sync-in $cache/archives /var/cache/apt/archives" \
		--customize-hook="sync-out /var/cache/apt/archives $cache/archives" \
		--skip=download/empty \
		bookworm "$tarball.tmp" "$sources" >&2
	mv "$tarball.tmp" "$tarball"
fi
echo "$tarball"
